/*
 * relayout — OpenCL image descriptors (optional header; no OpenCL types).
 *
 * A descriptor of format kind relayout_format_kind_image2d describes a
 * tensor held by an RGBA 2D image (4 elements per pixel, CL_FLOAT or
 * CL_HALF_FLOAT), in one of the nine MACE buffer types below. Such
 * descriptors can be created, compared, sized and printed in every build;
 * memories and reorders that use them need the ocl engine
 * (relayout_engine_create(&e, relayout_ocl, 0)).
 *
 * Dims are given in relayout's logical order, like every other descriptor,
 * so that a reorder from an nchw or nhwc tensor matches them:
 *   IN_OUT_CHANNEL / IN_OUT_HEIGHT / IN_OUT_WIDTH  [N, C, H, W]
 *                                  (IN_OUT_CHANNEL also [N, C] = [N, C, 1, 1])
 *   CONV2D_FILTER, WEIGHT_HEIGHT, WEIGHT_WIDTH,
 *   WINOGRAD_FILTER (H = W = 3)                    [O, I, H, W]
 *   DW_CONV2D_FILTER                               [M, I, H, W], M = 1
 *   ARGUMENT                                       [L]
 *
 * Image shape (width x height, pixels) and the element held by pixel (x, y)
 * lane k, with Hb = ceil(H/4), Wb = ceil(W/4), Ib = ceil(I/4),
 * r4(v) = ceil(v/4), HW = H*W:
 *   IN_OUT_CHANNEL    r4(C)*W x N*H   n=y/H, h=y%H, w=x%W, c=4(x/W)+k
 *   IN_OUT_HEIGHT     W*C x N*Hb      n=y/Hb, h=4(y%Hb)+k, w=x%W, c=x/W
 *   IN_OUT_WIDTH      Wb*C x N*H      n=y/H, h=y%H, w=4(x%Wb)+k, c=x/Wb
 *   CONV2D_FILTER     I x HW*r4(O)    o=4(y/HW)+k, i=x, kh=(y%HW)/W, kw=(y%HW)%W
 *   DW_CONV2D_FILTER  M*HW x r4(I)    i=4y+k, kh=x/W, kw=x%W
 *   ARGUMENT          r4(L) x 1       l=4x+k
 *   WEIGHT_HEIGHT     I*HW x r4(O)    o=4y+k, i=x%I, kh=(x/I)/W, kw=(x/I)%W
 *   WEIGHT_WIDTH      Ib*HW x O       o=y, i=4(x%Ib)+k, kh=(x/Ib)/W, kw=(x/Ib)%W
 *   WINOGRAD_FILTER   Ib x O*(b+2)^2  pixel (x, t*O+o) lane k = U[o, 4x+k, t],
 *                                     U = G g G^T, t = r*(b+2)+s, b in {2,4,6}
 * Lanes that hold no element are written as exact zeros. Reorders exist
 * from any tensor to every type, and from every type but DW_CONV2D_FILTER
 * and WINOGRAD_FILTER (no exact inverse) back to a tensor.
 *
 * The size of an image descriptor (relayout_memory_desc_get_size) is the
 * image's bytes: width * height * 4 * element size.
 */
#ifndef RELAYOUT_RELAYOUT_IMAGE_H
#define RELAYOUT_RELAYOUT_IMAGE_H

#include <stdint.h>

#include "relayout/relayout.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The MACE buffer types. Values are fixed (they are part of the ABI). */
typedef enum {
    relayout_image_type_undef = 0,
    relayout_image_in_out_channel = 1,
    relayout_image_in_out_height = 2,
    relayout_image_in_out_width = 3,
    relayout_image_conv2d_filter = 4,
    relayout_image_dw_conv2d_filter = 5,
    relayout_image_argument = 6,
    relayout_image_weight_height = 7,
    relayout_image_weight_width = 8,
    relayout_image_winograd_filter = 9,
} relayout_image_type_t;

/** Creates an image descriptor. dims are in the logical order listed above;
 *  pixel_dt is relayout_f32 or relayout_f16; winograd_b is 2, 4 or 6 for
 *  WINOGRAD_FILTER and 0 otherwise. Errors name the bad field. */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_image2d(
        relayout_memory_desc_t *memory_desc, relayout_image_type_t image_type, int ndims,
        const relayout_dims_t dims, relayout_data_type_t pixel_dt, int winograd_b);

/** Image shape in pixels (width, height) of an image descriptor.
 *  relayout_invalid_arguments if the descriptor is not of kind image2d. */
RELAYOUT_API relayout_status_t relayout_memory_desc_query_image_shape(
        const_relayout_memory_desc_t memory_desc, int64_t *width, int64_t *height);

/** Image type and winograd b of an image descriptor. */
RELAYOUT_API relayout_status_t relayout_memory_desc_query_image_type(
        const_relayout_memory_desc_t memory_desc, relayout_image_type_t *image_type,
        int *winograd_b);

/** "in_out_channel", ... ("undef" for unknown values). */
RELAYOUT_API const char *relayout_image_type2str(relayout_image_type_t image_type);

/** Parses "in_out_channel" or the MACE spelling "IN_OUT_CHANNEL". */
RELAYOUT_API relayout_status_t relayout_str2image_type(
        const char *str, relayout_image_type_t *image_type);

#ifdef __cplusplus
}
#endif

#endif /* RELAYOUT_RELAYOUT_IMAGE_H */
