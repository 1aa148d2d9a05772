// Image descriptors inside the library's memory descriptor (format_kind
// image2d): the image_desc_t POD sits in memory_desc_t::payload (zeroed
// first, so descriptors compare with memcmp), ndims/dims are the logical
// dims in relayout's order (activations N,C,H,W; filters O,I,H,W or
// M,I,H,W; arguments L), data_type is the pixel type.
//
// The image_desc_t itself keeps the engine's canonical order (NHWC for
// activations); image_md_perm() maps one to the other.
// Built in every configuration (no OpenCL needed).
#ifndef RELAYOUT_OCL_IMAGE_MD_HPP
#define RELAYOUT_OCL_IMAGE_MD_HPP

#include "md/memory_desc.hpp"
#include "ocl/image_desc.hpp"

namespace relayout {
namespace impl {
namespace ocl {

// A memory descriptor of an image from logical dims (relayout order).
status_t image_md_init(memory_desc_t &md, image_type_t type, int ndims, const dim_t *dims,
        data_type_t pixel_dt, int winograd_b);

// The image descriptor held by `md` (invalid_arguments if md is not an
// image2d descriptor, with `what` naming it).
status_t image_md_get(const memory_desc_t &md, image_desc_t *img, const char *what);

// For an image type of rank `ndims`: perm[i] = the logical (relayout-order)
// dim that is canonical dim i of the image_desc_t. Activations of rank 4:
// {0, 2, 3, 1} (N,C,H,W -> N,H,W,C); everything else the identity.
void image_md_perm(image_type_t type, int ndims, int perm[4]);

} // namespace ocl
} // namespace impl
} // namespace relayout

#endif
