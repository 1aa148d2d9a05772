#include "ocl/image_desc.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <string>

namespace relayout {
namespace impl {
namespace ocl {

namespace {

// Any single dim above this is rejected: keeps every product below in
// int64 and every pixel coordinate in a 32-bit int inside the kernels.
constexpr int64_t max_dim = (int64_t(1) << 31) - 1;
constexpr int64_t max_image_extent = (int64_t(1) << 31) - 1;

struct type_info_t {
    const char *name;
    const char *mace_name;
    const char *dims_names; // logical order, for messages
};

const type_info_t type_infos[image_type_count] = {
    { "undef", "UNDEF", "" },
    { "in_out_channel", "IN_OUT_CHANNEL", "NHWC" },
    { "in_out_height", "IN_OUT_HEIGHT", "NHWC" },
    { "in_out_width", "IN_OUT_WIDTH", "NHWC" },
    { "conv2d_filter", "CONV2D_FILTER", "OIHW" },
    { "dw_conv2d_filter", "DW_CONV2D_FILTER", "MIHW" },
    { "argument", "ARGUMENT", "L" },
    { "weight_height", "WEIGHT_HEIGHT", "OIHW" },
    { "weight_width", "WEIGHT_WIDTH", "OIHW" },
    { "winograd_filter", "WINOGRAD_FILTER", "OIHW" },
};

int64_t r4(int64_t v) {
    return (v + 3) / 4;
}

// a * b with an overflow check against `limit`.
bool mul_ok(int64_t a, int64_t b, int64_t limit, int64_t *r) {
    if (a < 0 || b < 0) return false;
    if (a != 0 && b > limit / a) return false;
    *r = a * b;
    return true;
}

std::string dims_str(int ndims, const int64_t *dims) {
    std::string s;
    for (int d = 0; d < ndims; ++d) {
        if (d) s += 'x';
        s += std::to_string(dims[d]);
    }
    return s;
}

bool type_valid(image_type_t t) {
    const int v = static_cast<int>(t);
    return v > 0 && v < image_type_count;
}

} // namespace

const char *image_type2str(image_type_t t) {
    const int v = static_cast<int>(t);
    if (v < 0 || v >= image_type_count) return "invalid";
    return type_infos[v].name;
}

status_t str2image_type(const char *s, image_type_t *t) {
    if (s == nullptr || t == nullptr)
        return fail(status_t::invalid_arguments, "str2image_type: null argument");
    for (int v = 1; v < image_type_count; ++v) {
        if (std::strcmp(s, type_infos[v].name) == 0
                || std::strcmp(s, type_infos[v].mace_name) == 0) {
            *t = static_cast<image_type_t>(v);
            return status_t::success;
        }
    }
    return failf(status_t::invalid_arguments,
            "unknown image type '%s' (expected one of in_out_channel, "
            "in_out_height, in_out_width, conv2d_filter, dw_conv2d_filter, "
            "argument, weight_height, weight_width, winograd_filter)",
            s);
}

status_t image_desc_init(image_desc_t *d, image_type_t type, int ndims, const int64_t *dims,
        relayout_data_type_t pixel_dt, int winograd_b) {
    if (d == nullptr) return fail(status_t::invalid_arguments, "image desc: null desc");
    if (ndims < 0 || ndims > 4)
        return failf(
                status_t::invalid_arguments, "image desc: ndims %d out of range [1, 4]", ndims);
    if (ndims > 0 && dims == nullptr)
        return fail(status_t::invalid_arguments, "image desc: null dims");
    image_desc_t r;
    std::memset(&r, 0, sizeof(r));
    r.type = type;
    r.ndims = ndims;
    for (int i = 0; i < ndims; ++i)
        r.dims[i] = dims[i];
    r.pixel_dt = pixel_dt;
    r.winograd_b = winograd_b;
    RL_CHECK(image_desc_validate(r));
    *d = r;
    return status_t::success;
}

status_t image_desc_validate(const image_desc_t &d) {
    if (!type_valid(d.type))
        return failf(status_t::invalid_arguments, "image desc: invalid image type %d",
                static_cast<int>(d.type));
    const char *tn = image_type2str(d.type);
    if (d.pixel_dt != relayout_f32 && d.pixel_dt != relayout_f16)
        return failf(status_t::invalid_arguments,
                "image desc (%s): pixel data type %d is not f32 or f16", tn,
                static_cast<int>(d.pixel_dt));

    bool rank_ok = false;
    const char *rank_need = "";
    switch (d.type) {
        case image_type_t::in_out_channel:
            rank_ok = d.ndims == 4 || d.ndims == 2;
            rank_need = "4 (NHWC) or 2 ([N,C])";
            break;
        case image_type_t::argument:
            rank_ok = d.ndims == 1;
            rank_need = "1 ([L])";
            break;
        default:
            rank_ok = d.ndims == 4;
            rank_need =
                    d.type == image_type_t::in_out_height || d.type == image_type_t::in_out_width
                            ? "4 (NHWC)"
                            : "4 (OIHW)";
            break;
    }
    if (!rank_ok)
        return failf(status_t::invalid_arguments, "image desc (%s): ndims is %d, expected %s", tn,
                d.ndims, rank_need);
    for (int i = 0; i < d.ndims; ++i)
        if (d.dims[i] < 0 || d.dims[i] > max_dim)
            return failf(status_t::invalid_arguments,
                    "image desc (%s): dims[%d] = %" PRId64 " out of range [0, %" PRId64 "]", tn, i,
                    d.dims[i], max_dim);
    for (int i = d.ndims; i < 4; ++i)
        if (d.dims[i] != 0)
            return failf(status_t::invalid_arguments,
                    "image desc (%s): dims[%d] = %" PRId64 " beyond ndims %d must be 0", tn, i,
                    d.dims[i], d.ndims);

    if (d.type == image_type_t::dw_conv2d_filter && d.dims[0] != 1)
        return failf(status_t::invalid_arguments,
                "image desc (dw_conv2d_filter): multiplier M = dims[0] = "
                "%" PRId64 ", only M == 1 is supported",
                d.dims[0]);
    if (d.type == image_type_t::winograd_filter) {
        if (d.dims[2] != 3 || d.dims[3] != 3)
            return failf(status_t::invalid_arguments,
                    "image desc (winograd_filter): kernel is %" PRId64 "x%" PRId64
                    " (dims[2]xdims[3]), only 3x3 is supported",
                    d.dims[2], d.dims[3]);
        if (d.winograd_b != 2 && d.winograd_b != 4 && d.winograd_b != 6)
            return failf(status_t::invalid_arguments,
                    "image desc (winograd_filter): winograd_b = %d, expected "
                    "2, 4 or 6",
                    d.winograd_b);
    } else if (d.winograd_b != 0) {
        return failf(status_t::invalid_arguments,
                "image desc (%s): winograd_b = %d must be 0 for a "
                "non-winograd type",
                tn, d.winograd_b);
    }

    // The shape must be representable (checked here so that every later
    // product is safe).
    int64_t dims[4];
    image_desc_canonical_dims(d, dims);
    const int64_t lim = max_image_extent;
    int64_t w = 0, h = 0, t = 0;
    bool ok = true;
    switch (d.type) {
        case image_type_t::in_out_channel:
            ok = mul_ok(r4(dims[3]), dims[2], lim, &w) && mul_ok(dims[0], dims[1], lim, &h);
            break;
        case image_type_t::in_out_height:
            ok = mul_ok(dims[2], dims[3], lim, &w) && mul_ok(dims[0], r4(dims[1]), lim, &h);
            break;
        case image_type_t::in_out_width:
            ok = mul_ok(r4(dims[2]), dims[3], lim, &w) && mul_ok(dims[0], dims[1], lim, &h);
            break;
        case image_type_t::conv2d_filter:
            w = dims[1];
            ok = mul_ok(dims[2], dims[3], lim, &t) && mul_ok(t, r4(dims[0]), lim, &h);
            break;
        case image_type_t::dw_conv2d_filter:
            ok = mul_ok(dims[0], dims[2], lim, &t) && mul_ok(t, dims[3], lim, &w);
            h = r4(dims[1]);
            break;
        case image_type_t::argument:
            w = r4(dims[0]);
            h = 1;
            break;
        case image_type_t::weight_height:
            ok = mul_ok(dims[1], dims[2], lim, &t) && mul_ok(t, dims[3], lim, &w);
            h = r4(dims[0]);
            break;
        case image_type_t::weight_width:
            ok = mul_ok(r4(dims[1]), dims[2], lim, &t) && mul_ok(t, dims[3], lim, &w);
            h = dims[0];
            break;
        case image_type_t::winograd_filter: {
            const int64_t tile = (d.winograd_b + 2) * (d.winograd_b + 2);
            w = r4(dims[1]);
            ok = mul_ok(dims[0], tile, lim, &h);
            break;
        }
        default: ok = false; break;
    }
    if (!ok)
        return failf(status_t::invalid_arguments,
                "image desc (%s): dims %s give an image extent above %" PRId64, tn,
                dims_str(d.ndims, d.dims).c_str(), lim);
    return status_t::success;
}

void image_desc_canonical_dims(const image_desc_t &d, int64_t dims[4]) {
    if (d.type == image_type_t::in_out_channel && d.ndims == 2) {
        dims[0] = d.dims[0];
        dims[1] = 1;
        dims[2] = 1;
        dims[3] = d.dims[1];
        return;
    }
    for (int i = 0; i < 4; ++i)
        dims[i] = i < d.ndims ? d.dims[i] : 1;
}

bool image_desc_is_zero_volume(const image_desc_t &d) {
    for (int i = 0; i < d.ndims; ++i)
        if (d.dims[i] == 0) return true;
    return false;
}

status_t image_desc_shape(const image_desc_t &d, int64_t *width, int64_t *height) {
    RL_CHECK(image_desc_validate(d));
    int64_t dm[4];
    image_desc_canonical_dims(d, dm);
    const int64_t N = dm[0], H = dm[1], W = dm[2], C = dm[3];   // NHWC
    const int64_t O = dm[0], I = dm[1], KH = dm[2], KW = dm[3]; // OIHW
    int64_t w = 0, h = 0;
    switch (d.type) {
        case image_type_t::in_out_channel:
            w = r4(C) * W;
            h = N * H;
            break;
        case image_type_t::in_out_height:
            w = W * C;
            h = N * r4(H);
            break;
        case image_type_t::in_out_width:
            w = r4(W) * C;
            h = N * H;
            break;
        case image_type_t::conv2d_filter:
            w = I;
            h = KH * KW * r4(O);
            break;
        case image_type_t::dw_conv2d_filter:
            w = O * KH * KW; // O is the multiplier M here
            h = r4(I);
            break;
        case image_type_t::argument:
            w = r4(dm[0]);
            h = 1;
            break;
        case image_type_t::weight_height:
            w = I * KH * KW;
            h = r4(O);
            break;
        case image_type_t::weight_width:
            w = r4(I) * KH * KW;
            h = O;
            break;
        case image_type_t::winograd_filter:
            w = r4(I);
            h = O * (d.winograd_b + 2) * (d.winograd_b + 2);
            break;
        default: break;
    }
    if (width) *width = w;
    if (height) *height = h;
    return status_t::success;
}

status_t image_desc_size_bytes(const image_desc_t &d, int64_t *bytes) {
    int64_t w = 0, h = 0;
    RL_CHECK(image_desc_shape(d, &w, &h));
    // w, h < 2^31 each; w * h * 8 could exceed int64 only in theory.
    int64_t px = 0;
    if (!mul_ok(w, h, INT64_MAX / 16, &px))
        return failf(status_t::invalid_arguments,
                "image desc (%s): %" PRId64 " x %" PRId64 " pixels is too large",
                image_type2str(d.type), w, h);
    *bytes = px * 4 * data_type_size(d.pixel_dt);
    return status_t::success;
}

// Buffers --------------------------------------------------------------------

int data_type_size(relayout_data_type_t dt) {
    switch (dt) {
        case relayout_f32: return 4;
        case relayout_f16: return 2;
        default: return 0;
    }
}

status_t buffer_desc_init(buffer_desc_t *d, int ndims, const int64_t *dims, relayout_data_type_t dt,
        const int *order) {
    if (d == nullptr || (ndims > 0 && dims == nullptr))
        return fail(status_t::invalid_arguments, "buffer desc: null argument");
    if (ndims < 1 || ndims > max_buffer_ndims)
        return failf(status_t::invalid_arguments, "buffer desc: ndims %d out of range [1, %d]",
                ndims, max_buffer_ndims);
    int perm[max_buffer_ndims];
    bool seen[max_buffer_ndims] = {};
    for (int i = 0; i < ndims; ++i) {
        perm[i] = order ? order[i] : i;
        if (perm[i] < 0 || perm[i] >= ndims || seen[perm[i]])
            return failf(status_t::invalid_arguments,
                    "buffer desc: order[%d] = %d is not a permutation of "
                    "0..%d",
                    i, perm[i], ndims - 1);
        seen[perm[i]] = true;
    }
    int64_t strides[max_buffer_ndims] = {};
    int64_t s = 1;
    for (int i = ndims - 1; i >= 0; --i) {
        strides[perm[i]] = s;
        const int64_t n = std::max<int64_t>(dims[perm[i]], 1);
        if (!mul_ok(s, n, INT64_MAX / 8, &s))
            return fail(status_t::invalid_arguments, "buffer desc: tensor too large");
    }
    return buffer_desc_init_strided(d, ndims, dims, strides, dt, 0);
}

status_t buffer_desc_init_strided(buffer_desc_t *d, int ndims, const int64_t *dims,
        const int64_t *strides, relayout_data_type_t dt, int64_t offset0) {
    if (d == nullptr || (ndims > 0 && (dims == nullptr || strides == nullptr)))
        return fail(status_t::invalid_arguments, "buffer desc: null argument");
    if (ndims < 1 || ndims > max_buffer_ndims)
        return failf(status_t::invalid_arguments, "buffer desc: ndims %d out of range [1, %d]",
                ndims, max_buffer_ndims);
    buffer_desc_t r;
    std::memset(&r, 0, sizeof(r));
    r.ndims = ndims;
    r.dt = dt;
    for (int i = 0; i < ndims; ++i) {
        r.dims[i] = dims[i];
        r.strides[i] = strides[i];
    }
    r.offset0 = offset0;
    RL_CHECK(buffer_desc_validate(r, "buffer", false));
    *d = r;
    return status_t::success;
}

int64_t buffer_desc_nelems(const buffer_desc_t &d) {
    int64_t n = 1;
    for (int i = 0; i < d.ndims; ++i)
        n *= d.dims[i];
    return n;
}

int64_t buffer_desc_span_bytes(const buffer_desc_t &d) {
    if (buffer_desc_nelems(d) == 0) return 0;
    int64_t last = d.offset0;
    for (int i = 0; i < d.ndims; ++i)
        last += (d.dims[i] - 1) * d.strides[i];
    return (last + 1) * data_type_size(d.dt);
}

status_t buffer_desc_validate(const buffer_desc_t &d, const char *what, bool is_dst) {
    if (d.ndims < 1 || d.ndims > max_buffer_ndims)
        return failf(status_t::invalid_arguments, "%s buffer: ndims %d out of range [1, %d]", what,
                d.ndims, max_buffer_ndims);
    if (data_type_size(d.dt) == 0)
        return failf(status_t::unimplemented,
                "%s buffer: data type %d is not supported by the OpenCL "
                "engine (f32 and f16 are)",
                what, static_cast<int>(d.dt));
    if (d.offset0 < 0)
        return failf(status_t::invalid_arguments, "%s buffer: offset0 = %" PRId64 " is negative",
                what, d.offset0);
    // Bound the span so that every offset fits int64 with room to spare.
    const int64_t lim = INT64_MAX / 16;
    int64_t last = d.offset0;
    for (int i = 0; i < d.ndims; ++i) {
        if (d.dims[i] < 0 || d.dims[i] > max_dim)
            return failf(status_t::invalid_arguments,
                    "%s buffer: dims[%d] = %" PRId64 " out of range [0, %" PRId64 "]", what, i,
                    d.dims[i], max_dim);
        if (d.strides[i] < 0)
            return failf(status_t::invalid_arguments,
                    "%s buffer: strides[%d] = %" PRId64
                    " is negative (only non-negative strides are supported)",
                    what, i, d.strides[i]);
        int64_t ext = 0;
        if (d.dims[i] > 0 && (!mul_ok(d.dims[i] - 1, d.strides[i], lim, &ext) || last > lim - ext))
            return failf(status_t::invalid_arguments,
                    "%s buffer: strides[%d] = %" PRId64 " overflows", what, i, d.strides[i]);
        last += ext;
    }
    if (is_dst && buffer_desc_nelems(d) > 0) {
        // No two elements at one address: sorted by stride, each dim must
        // step over the whole extent of the smaller ones. (Sufficient; a
        // destination that interleaves dims in a stranger way is refused.)
        int idx[max_buffer_ndims];
        int n = 0;
        for (int i = 0; i < d.ndims; ++i)
            if (d.dims[i] > 1) idx[n++] = i;
        // Insertion sort by stride (n <= 6).
        for (int j = 1; j < n; ++j)
            for (int m = j; m > 0 && d.strides[idx[m]] < d.strides[idx[m - 1]]; --m)
                std::swap(idx[m], idx[m - 1]);
        int64_t extent = 1; // elements covered by the smaller dims
        for (int j = 0; j < n; ++j) {
            const int i = idx[j];
            if (d.strides[i] < extent)
                return failf(status_t::invalid_arguments,
                        "%s buffer: strides[%d] = %" PRId64
                        " makes elements overlap (needs >= %" PRId64 ")",
                        what, i, d.strides[i], extent);
            extent = d.strides[i] * d.dims[i];
        }
    }
    return status_t::success;
}

status_t buffer_matches_image(
        const buffer_desc_t &b, const image_desc_t &img, const char *what, int64_t cs[4]) {
    RL_CHECK(image_desc_validate(img));
    const char *tn = image_type2str(img.type);
    int64_t idims[4];
    image_desc_canonical_dims(img, idims);
    int64_t bdims[4] = { 1, 1, 1, 1 };
    int64_t bstr[4] = { 0, 0, 0, 0 };
    if (img.type == image_type_t::in_out_channel && b.ndims == 2) {
        bdims[0] = b.dims[0];
        bstr[0] = b.strides[0];
        bdims[3] = b.dims[1];
        bstr[3] = b.strides[1];
    } else if (b.ndims == img.ndims || (img.type == image_type_t::in_out_channel && b.ndims == 4)) {
        for (int i = 0; i < b.ndims; ++i) {
            bdims[i] = b.dims[i];
            bstr[i] = b.strides[i];
        }
    } else {
        return failf(status_t::invalid_arguments,
                "%s buffer: ndims %d does not match image type %s "
                "(ndims %d, logical order %s)",
                what, b.ndims, tn, img.ndims, type_infos[static_cast<int>(img.type)].dims_names);
    }
    for (int i = 0; i < 4; ++i)
        if (bdims[i] != idims[i])
            return failf(status_t::invalid_arguments,
                    "%s buffer: dims %s do not match image (%s) dims %s in "
                    "the logical order %s",
                    what, dims_str(b.ndims, b.dims).c_str(), tn,
                    dims_str(img.ndims, img.dims).c_str(),
                    type_infos[static_cast<int>(img.type)].dims_names);
    for (int i = 0; i < 4; ++i)
        cs[i] = bdims[i] == 1 ? 0 : bstr[i];
    return status_t::success;
}

} // namespace ocl
} // namespace impl
} // namespace relayout
