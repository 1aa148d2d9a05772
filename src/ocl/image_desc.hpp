// Descriptors of the OpenCL image-packing engine: which tensor an RGBA 2D
// image holds (image_desc_t) and how a tensor sits in a plain buffer
// (buffer_desc_t). Both are POD and free of OpenCL types, so the library's
// memory descriptor can embed an image_desc_t (format_kind image2d) and the
// generators in jit/ocl can read them without an OpenCL runtime.
//
// The nine image types are the MACE buffer types; the element held by pixel
// (x, y) lane k is given by the table in DESIGN §6 (and restated next to
// each enumerator below). Hb = ceil(H/4), Wb = ceil(W/4), Ib = ceil(I/4),
// r4(v) = ceil(v/4).
#ifndef RELAYOUT_OCL_IMAGE_DESC_HPP
#define RELAYOUT_OCL_IMAGE_DESC_HPP

#include <cstdint>

#include "common/status.hpp"
#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {
namespace ocl {

// Values are stable: they may cross the C API as ints (0 = undef so that a
// zero-initialised descriptor is recognisably empty).
enum class image_type_t : int32_t {
    undef = 0,
    // [N,H,W,C] (or [N,C] = [N,1,1,C]); r4(C)*W x N*H;
    // n=y/H, h=y%H, w=x%W, c=4(x/W)+k
    in_out_channel = 1,
    // [N,H,W,C]; W*C x N*Hb; n=y/Hb, h=4(y%Hb)+k, w=x%W, c=x/W
    in_out_height = 2,
    // [N,H,W,C]; Wb*C x N*H; n=y/H, h=y%H, w=4(x%Wb)+k, c=x/Wb
    in_out_width = 3,
    // [O,I,H,W]; I x H*W*r4(O); o=4(y/HW)+k, i=x, kh=(y%HW)/W, kw=(y%HW)%W
    conv2d_filter = 4,
    // [M,I,H,W], M=1; M*H*W x r4(I); i=4y+k, kh=x/W, kw=x%W
    dw_conv2d_filter = 5,
    // [L]; r4(L) x 1; l=4x+k
    argument = 6,
    // [O,I,H,W]; I*H*W x r4(O); o=4y+k, i=x%I, kh=(x/I)/W, kw=(x/I)%W
    weight_height = 7,
    // [O,I,H,W]; Ib*H*W x O; o=y, i=4(x%Ib)+k, kh=(x/Ib)/W, kw=(x/Ib)%W
    weight_width = 8,
    // [O,I,3,3]; Ib x O*(b+2)^2; pixel (x, t*O+o) lane k = U[o, 4x+k, t],
    // U = G g G^T, t = r*(b+2)+s
    winograd_filter = 9,
};
constexpr int image_type_count = 10; // including undef

const char *image_type2str(image_type_t t);
// Accepts the enumerator names above ("in_out_channel", ...) and the MACE
// upper-case spellings ("IN_OUT_CHANNEL", ...).
status_t str2image_type(const char *s, image_type_t *t);

// A tensor held by an RGBA 2D image. Fields in the type's logical order:
// NHWC for activations, OIHW (MIHW) for filters, [L] for arguments.
struct image_desc_t {
    image_type_t type;
    int32_t ndims;                 // 1 (argument), 2 (in_out_channel [N,C]) or 4
    int64_t dims[4];               // unused entries are 0
    relayout_data_type_t pixel_dt; // relayout_f32 or relayout_f16
    int32_t winograd_b;            // 2, 4 or 6 for winograd_filter, else 0
};
static_assert(sizeof(image_desc_t) == 48, "image_desc_t must have no padding");

// Fills *d (zeroing everything first, so descriptors compare with memcmp)
// and validates it.
status_t image_desc_init(image_desc_t *d, image_type_t type, int ndims, const int64_t *dims,
        relayout_data_type_t pixel_dt, int winograd_b = 0);

// Checks type, rank, dims, pixel type and winograd_b; the message names
// the bad field and the limit.
status_t image_desc_validate(const image_desc_t &d);

// Image shape [width, height] in pixels (validates first). Zero-volume
// tensors give a zero width or height.
status_t image_desc_shape(const image_desc_t &d, int64_t *width, int64_t *height);

// Bytes of the image: width * height * 4 * sizeof(pixel element).
status_t image_desc_size_bytes(const image_desc_t &d, int64_t *bytes);

// The logical dims as four numbers: [N,C] -> [N,1,1,C], [L] -> [L,1,1,1].
void image_desc_canonical_dims(const image_desc_t &d, int64_t dims[4]);

bool image_desc_is_zero_volume(const image_desc_t &d);

// Buffers --------------------------------------------------------------------

constexpr int max_buffer_ndims = 6;

// A generic strided tensor in a plain buffer: element (i0..i{n-1}) lives at
// element offset offset0 + sum(i_d * strides[d]). Strides are in elements,
// non-negative; 0 broadcasts (allowed for sources only).
struct buffer_desc_t {
    int32_t ndims;           // 1..6
    relayout_data_type_t dt; // relayout_f32 or relayout_f16
    int64_t dims[max_buffer_ndims];
    int64_t strides[max_buffer_ndims];
    int64_t offset0;
};

// Dense descriptor whose physical order (outermost first) is `order`
// (a permutation of 0..ndims-1); order == nullptr means row-major.
// Example: logical NHWC dims stored as NCHW: order = {0, 3, 1, 2}.
status_t buffer_desc_init(buffer_desc_t *d, int ndims, const int64_t *dims, relayout_data_type_t dt,
        const int *order = nullptr);
// Explicit strides (elements) and offset.
status_t buffer_desc_init_strided(buffer_desc_t *d, int ndims, const int64_t *dims,
        const int64_t *strides, relayout_data_type_t dt, int64_t offset0 = 0);

// `what` names the operand in messages ("source", "destination"). A
// destination may not have two elements at the same address.
status_t buffer_desc_validate(const buffer_desc_t &d, const char *what, bool is_dst);

int64_t buffer_desc_nelems(const buffer_desc_t &d);
// Bytes from the buffer start to one past the last element touched
// (0 for zero volume): the smallest cl_mem that can hold it.
int64_t buffer_desc_span_bytes(const buffer_desc_t &d);
int data_type_size(relayout_data_type_t dt); // 4, 2; 0 if unsupported

// Checks that `b` describes the same logical tensor as image `img`
// (rank-2 [N,C] and rank-4 [N,1,1,C] are both accepted for
// in_out_channel) and fills the buffer's strides in the image's canonical
// 4D order (0 for dims that do not exist).
status_t buffer_matches_image(const buffer_desc_t &b, const image_desc_t &img, const char *what,
        int64_t canonical_strides[4]);

} // namespace ocl
} // namespace impl
} // namespace relayout

#endif
