#include "ocl/image_md.hpp"

#include <cstring>

#include "common/c_boundary.hpp"
#include "relayout/relayout_image.h"
#include "runtime/objects.hpp"

namespace relayout {
namespace impl {
namespace ocl {

void image_md_perm(image_type_t type, int ndims, int perm[4]) {
    for (int i = 0; i < 4; ++i)
        perm[i] = i;
    const bool activation = type == image_type_t::in_out_channel
                            || type == image_type_t::in_out_height
                            || type == image_type_t::in_out_width;
    if (activation && ndims == 4) {
        perm[1] = 2;
        perm[2] = 3;
        perm[3] = 1;
    }
}

status_t image_md_init(memory_desc_t &md, image_type_t type, int ndims, const dim_t *dims,
        data_type_t pixel_dt, int winograd_b) {
    if (ndims < 1 || ndims > 4)
        return failf(status_t::invalid_arguments,
                "image2d descriptor: ndims %d is out of range [1, 4]", ndims);
    if (dims == nullptr)
        return fail(status_t::invalid_arguments, "image2d descriptor: dims is NULL");
    int perm[4];
    image_md_perm(type, ndims, perm);
    int64_t canon[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < ndims; ++i)
        canon[i] = dims[perm[i]];
    image_desc_t img;
    RL_CHECK(image_desc_init(&img, type, ndims, canon, pixel_dt, winograd_b));
    int64_t bytes = 0;
    RL_CHECK(image_desc_size_bytes(img, &bytes));

    memory_desc_t r = zero_md();
    r.ndims = ndims;
    for (int d = 0; d < ndims; ++d)
        r.dims[d] = r.padded_dims[d] = dims[d];
    r.data_type = pixel_dt;
    r.format_kind = relayout_format_kind_image2d;
    std::memset(&r.payload, 0, sizeof(r.payload));
    std::memcpy(r.payload.bytes, &img, sizeof(img));
    r.payload.size_bytes = image_desc_is_zero_volume(img) ? 0 : static_cast<uint64_t>(bytes);
    md = r;
    return status_t::success;
}

status_t image_md_get(const memory_desc_t &md, image_desc_t *img, const char *what) {
    if (md.format_kind != relayout_format_kind_image2d)
        return failf(status_t::invalid_arguments, "%s: not an image2d descriptor (format kind %d)",
                what, (int)md.format_kind);
    std::memcpy(img, md.payload.bytes, sizeof(*img));
    return image_desc_validate(*img);
}

} // namespace ocl
} // namespace impl
} // namespace relayout

using namespace relayout::impl;
using namespace relayout::impl::ocl;

extern "C" {

relayout_status_t relayout_memory_desc_create_image2d(relayout_memory_desc_t *memory_desc,
        relayout_image_type_t image_type, int ndims, const relayout_dims_t dims,
        relayout_data_type_t pixel_dt, int winograd_b) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        RL_NOT_NULL(dims, "dims");
        if (image_type <= relayout_image_type_undef || image_type > relayout_image_winograd_filter)
            return failf(status_t::invalid_arguments,
                    "image_type %d is not a relayout_image_type_t value (1..9)", (int)image_type);
        memory_desc_t md;
        RL_CHECK(image_md_init(
                md, static_cast<image_type_t>(image_type), ndims, dims, pixel_dt, winograd_b));
        auto *h = new (std::nothrow) relayout_memory_desc;
        if (!h) return fail(status_t::out_of_memory, "memory descriptor: out of memory");
        h->md = md;
        *memory_desc = h;
        return status_t::success;
    });
}

relayout_status_t relayout_memory_desc_query_image_shape(
        const_relayout_memory_desc_t memory_desc, int64_t *width, int64_t *height) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        RL_NOT_NULL(width, "width");
        RL_NOT_NULL(height, "height");
        image_desc_t img;
        RL_CHECK(image_md_get(memory_desc->md, &img, "memory_desc"));
        return image_desc_shape(img, width, height);
    });
}

relayout_status_t relayout_memory_desc_query_image_type(const_relayout_memory_desc_t memory_desc,
        relayout_image_type_t *image_type, int *winograd_b) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        RL_NOT_NULL(image_type, "image_type");
        image_desc_t img;
        RL_CHECK(image_md_get(memory_desc->md, &img, "memory_desc"));
        *image_type = static_cast<relayout_image_type_t>(img.type);
        if (winograd_b) *winograd_b = img.winograd_b;
        return status_t::success;
    });
}

const char *relayout_image_type2str(relayout_image_type_t image_type) {
    const int v = static_cast<int>(image_type);
    if (v <= 0 || v >= image_type_count) return "undef";
    return image_type2str(static_cast<image_type_t>(v));
}

relayout_status_t relayout_str2image_type(const char *str, relayout_image_type_t *image_type) {
    return c_guarded([&] {
        RL_NOT_NULL(str, "str");
        RL_NOT_NULL(image_type, "image_type");
        image_type_t t;
        RL_CHECK(str2image_type(str, &t));
        *image_type = static_cast<relayout_image_type_t>(t);
        return status_t::success;
    });
}

} // extern "C"
