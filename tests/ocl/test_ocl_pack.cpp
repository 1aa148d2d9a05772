// Buffer -> image and image -> buffer on the OpenCL device, for every image
// type, with tails in every padded dim, NHWC / NCHW (OIHW / HWIO) / odd
// strided buffers, f32 and f16 on both sides. Expected pixels come from the
// CPU reference of DESIGN §6 (ocl_test_utils.hpp), the image is read back
// with clEnqueueReadImage.
#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "ocl/ocl_api.hpp"
#include "ocl_test_utils.hpp"

namespace rl_ocl_test {
namespace {

enum class layout_t { logical, transposed, strided };

const char *layout_name(layout_t l) {
    switch (l) {
        case layout_t::logical: return "logical";
        case layout_t::transposed: return "transposed";
        default: return "strided";
    }
}

struct pack_case_t {
    std::string name;
    image_type_t type;
    std::vector<int64_t> dims;
    int b;
    layout_t layout;
    relayout_data_type_t buf_dt, pixel_dt;
};

const char *dt_str(relayout_data_type_t dt) {
    return dt == relayout_f16 ? "f16" : "f32";
}

// Buffer descriptor of the case's logical tensor in the case's layout.
buffer_desc_t make_buffer(const pack_case_t &c) {
    const int n = static_cast<int>(c.dims.size());
    buffer_desc_t b;
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i)
        order[i] = i;
    if (c.layout == layout_t::transposed) {
        const bool act = c.type == image_type_t::in_out_channel
                         || c.type == image_type_t::in_out_height
                         || c.type == image_type_t::in_out_width;
        if (n == 4 && act)
            order = { 0, 3, 1, 2 }; // NHWC logical stored as NCHW
        else if (n == 4)
            order = { 2, 3, 1, 0 }; // OIHW logical stored as HWIO
        else if (n == 2)
            order = { 1, 0 }; // [N,C] stored as CN
    }
    if (c.layout != layout_t::strided) {
        EXPECT_EQ(
                buffer_desc_init(&b, n, c.dims.data(), c.buf_dt, order.data()), status_t::success);
        return b;
    }
    // Odd strides with gaps, dims physically reversed, an offset.
    std::vector<int64_t> strides(n);
    int64_t s = 2;
    for (int i = 0; i < n; ++i) {
        strides[i] = s;
        s = s * std::max<int64_t>(c.dims[i], 1) + 3;
    }
    EXPECT_EQ(buffer_desc_init_strided(&b, n, c.dims.data(), strides.data(), c.buf_dt, 7),
            status_t::success);
    return b;
}

// Exact-in-f16 values: multiples of 1/8 in [-250, 250].
float exact_value(int64_t lin) {
    return static_cast<float>((lin * 7) % 4001 - 2000) * 0.125f;
}
// Values that f16 cannot hold.
float inexact_value(int64_t lin) {
    return static_cast<float>(lin) * 0.0137f - 1.0f / 3.0f;
}

// Host buffer image of a tensor: raw bytes of the span, gaps filled with a
// sentinel, element (canonical point p) = value(linear logical index).
struct host_tensor_t {
    buffer_desc_t desc;
    std::vector<unsigned char> bytes;
};

constexpr uint32_t f32_sentinel = 0x7fbadbadu; // a NaN payload
constexpr uint16_t f16_sentinel = 0x7dadu;

int64_t span_elems(const buffer_desc_t &b) {
    return buffer_desc_span_bytes(b) / data_type_size(b.dt);
}

void fill_sentinel(host_tensor_t &t) {
    const int64_t n = span_elems(t.desc);
    t.bytes.assign(static_cast<size_t>(buffer_desc_span_bytes(t.desc)), 0);
    for (int64_t i = 0; i < n; ++i) {
        if (t.desc.dt == relayout_f32)
            std::memcpy(&t.bytes[i * 4], &f32_sentinel, 4);
        else
            std::memcpy(&t.bytes[i * 2], &f16_sentinel, 2);
    }
}

float get_elem(const host_tensor_t &t, int64_t off) {
    if (t.desc.dt == relayout_f32) {
        float v;
        std::memcpy(&v, &t.bytes[off * 4], 4);
        return v;
    }
    uint16_t h;
    std::memcpy(&h, &t.bytes[off * 2], 2);
    return f16_to_f32(h);
}

uint32_t get_bits(const host_tensor_t &t, int64_t off) {
    if (t.desc.dt == relayout_f32) {
        uint32_t v;
        std::memcpy(&v, &t.bytes[off * 4], 4);
        return v;
    }
    uint16_t h;
    std::memcpy(&h, &t.bytes[off * 2], 2);
    return h;
}

void set_elem(host_tensor_t &t, int64_t off, float v) {
    if (t.desc.dt == relayout_f32) {
        std::memcpy(&t.bytes[off * 4], &v, 4);
    } else {
        const uint16_t h = f32_to_f16(v);
        std::memcpy(&t.bytes[off * 2], &h, 2);
    }
}

// Calls f(p, lin) for every canonical point of the image's tensor.
template <typename F>
void for_each_point(const image_desc_t &img, F f) {
    int64_t d[4];
    image_desc_canonical_dims(img, d);
    int64_t lin = 0;
    int64_t p[4];
    for (p[0] = 0; p[0] < d[0]; ++p[0])
        for (p[1] = 0; p[1] < d[1]; ++p[1])
            for (p[2] = 0; p[2] < d[2]; ++p[2])
                for (p[3] = 0; p[3] < d[3]; ++p[3])
                    f(p, lin++);
}

bool uses_inexact(const pack_case_t &c) {
    return c.buf_dt == relayout_f32 && c.pixel_dt == relayout_f16;
}

host_tensor_t make_source(const pack_case_t &c, const image_desc_t &img) {
    host_tensor_t t;
    t.desc = make_buffer(c);
    fill_sentinel(t);
    const bool inexact = uses_inexact(c);
    for_each_point(img, [&](const int64_t *p, int64_t lin) {
        set_elem(t, buffer_offset(t.desc, img, p), inexact ? inexact_value(lin) : exact_value(lin));
    });
    return t;
}

// Pixels of an image read back as floats (f16 images converted here).
struct pixels_t {
    int64_t w = 0, h = 0;
    std::vector<uint32_t> f32; // pixel_dt f32: raw bits
    std::vector<uint16_t> f16; // pixel_dt f16: raw bits
    bool half = false;
    uint32_t bits(int64_t x, int64_t y, int k) const {
        const size_t i = static_cast<size_t>((y * w + x) * 4 + k);
        return half ? f16[i] : f32[i];
    }
    float value(int64_t x, int64_t y, int k) const {
        const uint32_t b = bits(x, y, k);
        return half ? f16_to_f32(static_cast<uint16_t>(b)) : bits_f32(b);
    }
};

::testing::AssertionResult read_pixels(
        context_t &ctx, const image_desc_t &img, cl_mem image, pixels_t *px) {
    image_desc_shape(img, &px->w, &px->h);
    px->half = img.pixel_dt == relayout_f16;
    const size_t n = static_cast<size_t>(px->w * px->h * 4);
    status_t st;
    if (px->half) {
        px->f16.assign(n, 0xffffu);
        st = read_image(ctx, img, image, px->f16.data());
    } else {
        px->f32.assign(n, 0xffffffffu);
        st = read_image(ctx, img, image, px->f32.data());
    }
    if (st != status_t::success) return ::testing::AssertionFailure() << last_error_message();
    return ::testing::AssertionSuccess();
}

// Expected pixel-lane bits for a source value.
uint32_t expect_bits(float v, relayout_data_type_t pixel_dt) {
    return pixel_dt == relayout_f16 ? f32_to_f16(v) : f32_bits(v);
}

// Winograd reference: U = G g G^T per (o, i) in the kernel's documented
// order, G from DESIGN §6's fractions.
float g_entry(int b, int r, int c) {
    static const int g2[4][3][2] = { { { 1, 1 }, { 0, 1 }, { 0, 1 } },
        { { 1, 2 }, { 1, 2 }, { 1, 2 } }, { { 1, 2 }, { -1, 2 }, { 1, 2 } },
        { { 0, 1 }, { 0, 1 }, { 1, 1 } } };
    static const int g4[6][3][2] = { { { 1, 4 }, { 0, 1 }, { 0, 1 } },
        { { -1, 6 }, { -1, 6 }, { -1, 6 } }, { { -1, 6 }, { 1, 6 }, { -1, 6 } },
        { { 1, 24 }, { 1, 12 }, { 1, 6 } }, { { 1, 24 }, { -1, 12 }, { 1, 6 } },
        { { 0, 1 }, { 0, 1 }, { 1, 1 } } };
    static const int g6[8][3][2] = { { { 1, 1 }, { 0, 1 }, { 0, 1 } },
        { { -2, 9 }, { -2, 9 }, { -2, 9 } }, { { -2, 9 }, { 2, 9 }, { -2, 9 } },
        { { 1, 90 }, { 1, 45 }, { 2, 45 } }, { { 1, 90 }, { -1, 45 }, { 2, 45 } },
        { { 1, 45 }, { 1, 90 }, { 1, 180 } }, { { 1, 45 }, { -1, 90 }, { 1, 180 } },
        { { 0, 1 }, { 0, 1 }, { 1, 1 } } };
    const int *f = b == 2 ? g2[r][c] : b == 4 ? g4[r][c] : g6[r][c];
    return static_cast<float>(static_cast<double>(f[0]) / f[1]);
}

void winograd_ref(int b, const float g[9], std::vector<float> *u) {
    const int T = b + 2;
    std::vector<float> gg(T * 3);
    for (int r = 0; r < T; ++r)
        for (int c = 0; c < 3; ++c)
            gg[r * 3 + c] = (g_entry(b, r, 0) * g[c] + g_entry(b, r, 1) * g[3 + c])
                            + g_entry(b, r, 2) * g[6 + c];
    u->assign(T * T, 0.0f);
    for (int r = 0; r < T; ++r)
        for (int s = 0; s < T; ++s)
            (*u)[r * T + s] = (gg[r * 3] * g_entry(b, s, 0) + gg[r * 3 + 1] * g_entry(b, s, 1))
                              + gg[r * 3 + 2] * g_entry(b, s, 2);
}

class ocl_pack_test : public ::testing::TestWithParam<pack_case_t> {};

TEST_P(ocl_pack_test, pixels_match_reference_and_round_trip) {
    RL_OCL_GET_CONTEXT(ctx);
    const pack_case_t &c = GetParam();
    image_desc_t img;
    ASSERT_EQ(image_desc_init(&img, c.type, static_cast<int>(c.dims.size()), c.dims.data(),
                      c.pixel_dt, c.b),
            status_t::success)
            << last_error_message();
    const host_tensor_t src = make_source(c, img);

    cl_ref_t<cl_mem> image;
    ASSERT_EQ(create_image(*ctx, img, &image), status_t::success) << last_error_message();
    // Fill the image with garbage first: every lane must be written.
    {
        int64_t w, h;
        image_desc_shape(img, &w, &h);
        std::vector<unsigned char> junk(
                static_cast<size_t>(w * h * 4 * data_type_size(c.pixel_dt)), 0x5a);
        ASSERT_EQ(write_image(*ctx, img, image.get(), junk.data()), status_t::success);
    }
    ASSERT_EQ(pack_host_to_image(*ctx, src.desc, src.bytes.data(), img, image.get()),
            status_t::success)
            << last_error_message();
    pixels_t px;
    ASSERT_TRUE(read_pixels(*ctx, img, image.get(), &px));

    int errors = 0, tails = 0, checked = 0;
    auto report = [&](int64_t x, int64_t y, int k, uint32_t got, uint32_t want) {
        if (++errors <= 5)
            ADD_FAILURE() << "pixel (" << x << ", " << y << ") lane " << k << ": got 0x" << std::hex
                          << got << " want 0x" << want << std::dec;
    };

    if (c.type == image_type_t::winograd_filter) {
        const int T = c.b + 2;
        const int64_t O = c.dims[0], I = c.dims[1];
        std::vector<float> u;
        for (int64_t o = 0; o < O; ++o)
            for (int64_t i = 0; i < px.w * 4; ++i) {
                const int64_t x = i / 4;
                const int k = static_cast<int>(i % 4);
                float g[9] = {};
                if (i < I) {
                    for (int a = 0; a < 9; ++a) {
                        const int64_t p[4] = { o, i, a / 3, a % 3 };
                        g[a] = get_elem(src, buffer_offset(src.desc, img, p));
                    }
                    winograd_ref(c.b, g, &u);
                }
                for (int t = 0; t < T * T; ++t) {
                    const int64_t y = t * O + o;
                    ++checked;
                    if (i >= I) { // tail lanes: exact +0
                        ++tails;
                        if (px.bits(x, y, k) != 0) report(x, y, k, px.bits(x, y, k), 0);
                        continue;
                    }
                    const float want =
                            c.pixel_dt == relayout_f16 ? f16_to_f32(f32_to_f16(u[t])) : u[t];
                    const float got = px.value(x, y, k);
                    // f32: tight relative bound; f16: one half ulp step.
                    const float tol = c.pixel_dt == relayout_f16
                                              ? std::max(std::fabs(want) * 0x1p-10f, 0x1p-24f)
                                              : std::max(std::fabs(want) * 1e-6f, 1e-6f);
                    if (!(std::fabs(got - want) <= tol))
                        report(x, y, k, f32_bits(got), f32_bits(want));
                }
            }
        EXPECT_EQ(errors, 0);
        EXPECT_GT(checked, 0);
        return;
    }

    for (int64_t y = 0; y < px.h; ++y)
        for (int64_t x = 0; x < px.w; ++x)
            for (int k = 0; k < 4; ++k) {
                int64_t p[4];
                ++checked;
                const uint32_t got = px.bits(x, y, k);
                if (!ref_element(img, x, y, k, p)) {
                    ++tails;
                    if (got != 0) report(x, y, k, got, 0);
                    continue;
                }
                const float v = get_elem(src, buffer_offset(src.desc, img, p));
                const uint32_t want = expect_bits(v, c.pixel_dt);
                if (got != want) report(x, y, k, got, want);
            }
    EXPECT_EQ(errors, 0) << checked << " lanes checked, " << tails << " tails";

    if (c.type == image_type_t::dw_conv2d_filter) {
        // No inverse: the engine says so.
        host_tensor_t dst;
        dst.desc = src.desc;
        fill_sentinel(dst);
        EXPECT_EQ(unpack_image_to_host(*ctx, img, image.get(), dst.desc, dst.bytes.data()),
                status_t::unimplemented);
        return;
    }

    // Round trip into a buffer of the same layout: real elements come back
    // (rounded to half when the image is f16), gaps keep the sentinel.
    host_tensor_t dst;
    dst.desc = src.desc;
    fill_sentinel(dst);
    const host_tensor_t dst_before = dst;
    ASSERT_EQ(unpack_image_to_host(*ctx, img, image.get(), dst.desc, dst.bytes.data()),
            status_t::success)
            << last_error_message();
    std::vector<bool> is_elem(static_cast<size_t>(span_elems(dst.desc)), false);
    errors = 0;
    for_each_point(img, [&](const int64_t *p, int64_t) {
        const int64_t off = buffer_offset(dst.desc, img, p);
        is_elem[static_cast<size_t>(off)] = true;
        float v = get_elem(src, off);
        if (c.pixel_dt == relayout_f16) v = f16_to_f32(f32_to_f16(v));
        const uint32_t want = c.buf_dt == relayout_f16 ? f32_to_f16(v) : f32_bits(v);
        const uint32_t got = get_bits(dst, off);
        if (got != want && ++errors <= 5)
            ADD_FAILURE() << "round trip offset " << off << ": got 0x" << std::hex << got
                          << " want 0x" << want;
    });
    for (int64_t off = 0; off < span_elems(dst.desc); ++off)
        if (!is_elem[static_cast<size_t>(off)] && get_bits(dst, off) != get_bits(dst_before, off)
                && ++errors <= 5)
            ADD_FAILURE() << "gap at offset " << off << " was written";
    EXPECT_EQ(errors, 0);
}

std::vector<pack_case_t> make_cases() {
    struct shape_t {
        image_type_t type;
        std::vector<int64_t> dims;
        int b;
        bool full_sweep; // every layout x data-type combination
    };
    const shape_t shapes[] = {
        // tails: C = 7
        { image_type_t::in_out_channel, { 2, 3, 5, 7 }, 0, true },
        { image_type_t::in_out_channel, { 1, 2, 3, 8 }, 0, false },
        { image_type_t::in_out_channel, { 3, 6 }, 0, false },
        { image_type_t::in_out_channel, { 1, 1, 1, 1 }, 0, false },
        { image_type_t::in_out_channel, { 1, 4, 33, 13 }, 0, false },
        // H = 5, H = 1
        { image_type_t::in_out_height, { 2, 5, 3, 6 }, 0, true },
        { image_type_t::in_out_height, { 1, 8, 2, 3 }, 0, false },
        { image_type_t::in_out_height, { 3, 1, 2, 2 }, 0, false },
        // W = 7
        { image_type_t::in_out_width, { 2, 3, 7, 5 }, 0, true },
        { image_type_t::in_out_width, { 1, 2, 8, 3 }, 0, false },
        // O = 5, O = 6
        { image_type_t::conv2d_filter, { 5, 3, 3, 3 }, 0, true },
        { image_type_t::conv2d_filter, { 8, 4, 1, 1 }, 0, false },
        { image_type_t::conv2d_filter, { 6, 7, 2, 3 }, 0, false },
        // I = 6
        { image_type_t::dw_conv2d_filter, { 1, 6, 3, 3 }, 0, true },
        { image_type_t::dw_conv2d_filter, { 1, 8, 5, 5 }, 0, false },
        // L = 7, 8, 1, 4097
        { image_type_t::argument, { 7 }, 0, true },
        { image_type_t::argument, { 8 }, 0, false },
        { image_type_t::argument, { 1 }, 0, false },
        { image_type_t::argument, { 4097 }, 0, false },
        // O = 7
        { image_type_t::weight_height, { 7, 5, 2, 3 }, 0, true },
        { image_type_t::weight_height, { 4, 3, 1, 1 }, 0, false },
        // I = 7
        { image_type_t::weight_width, { 3, 7, 2, 2 }, 0, true },
        { image_type_t::weight_width, { 2, 8, 3, 1 }, 0, false },
        // I = 7 (lane tails), b = 2, 4, 6
        { image_type_t::winograd_filter, { 5, 7, 3, 3 }, 2, false },
        { image_type_t::winograd_filter, { 5, 7, 3, 3 }, 4, true },
        { image_type_t::winograd_filter, { 5, 7, 3, 3 }, 6, false },
        { image_type_t::winograd_filter, { 4, 8, 3, 3 }, 4, false },
    };
    const relayout_data_type_t dts[][2] = { { relayout_f32, relayout_f32 },
        { relayout_f32, relayout_f16 }, { relayout_f16, relayout_f16 },
        { relayout_f16, relayout_f32 } };
    const layout_t layouts[] = { layout_t::logical, layout_t::transposed, layout_t::strided };
    std::vector<pack_case_t> cases;
    for (const auto &s : shapes) {
        for (const auto l : layouts) {
            if (s.type == image_type_t::argument && l == layout_t::transposed)
                continue; // 1D: nothing to transpose
            for (const auto &dt : dts) {
                const bool base = dt[0] == relayout_f32 && dt[1] == relayout_f32;
                if (!s.full_sweep && !(base || l == layout_t::logical)) continue;
                pack_case_t c;
                c.type = s.type;
                c.dims = s.dims;
                c.b = s.b;
                c.layout = l;
                c.buf_dt = dt[0];
                c.pixel_dt = dt[1];
                std::string n = image_type2str(s.type);
                if (s.b) n += "_b" + std::to_string(s.b);
                n += "_";
                for (size_t i = 0; i < s.dims.size(); ++i)
                    n += (i ? "x" : "") + std::to_string(s.dims[i]);
                n += std::string("_") + layout_name(l) + "_" + dt_str(dt[0]) + "_to_"
                     + dt_str(dt[1]);
                c.name = n;
                cases.push_back(c);
            }
        }
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(all_types, ocl_pack_test, ::testing::ValuesIn(make_cases()),
        [](const ::testing::TestParamInfo<pack_case_t> &i) { return i.param.name; });

// ----------------------------------------------------------------------------

TEST(ocl_pack, half_image_rounds_to_nearest_even) {
    RL_OCL_GET_CONTEXT(ctx);
    // Ties (1 + 2^-11 -> 1, 1 + 3*2^-11 -> 1 + 2^-9), the largest half,
    // overflow to inf, subnormal halves, negative zero.
    const std::vector<float> v = { 1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, -(1.0f + 0x1p-11f),
        65504.0f, 65520.0f, 1e9f, 0x1p-24f, 0x1p-25f * 3.0f, 6.0e-5f, -0.0f, 1.0f / 3.0f, 2049.0f };
    const int64_t L = static_cast<int64_t>(v.size());
    image_desc_t img;
    ASSERT_EQ(
            image_desc_init(&img, image_type_t::argument, 1, &L, relayout_f16), status_t::success);
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 1, &L, relayout_f32), status_t::success);
    cl_ref_t<cl_mem> image;
    ASSERT_EQ(create_image(*ctx, img, &image), status_t::success);
    ASSERT_EQ(pack_host_to_image(*ctx, b, v.data(), img, image.get()), status_t::success)
            << last_error_message();
    std::vector<uint16_t> px(static_cast<size_t>((L + 3) / 4 * 4));
    ASSERT_EQ(read_image(*ctx, img, image.get(), px.data()), status_t::success);
    for (int64_t i = 0; i < L; ++i)
        EXPECT_EQ(px[i], f32_to_f16(v[i])) << "value " << v[i];
    EXPECT_EQ(f32_to_f16(1.0f + 0x1p-11f), 0x3c00u); // self-check of the ref
    EXPECT_EQ(f32_to_f16(65520.0f), 0x7c00u);
}

TEST(ocl_pack, image_width_limit_named) {
    RL_OCL_GET_CONTEXT(ctx);
    const int64_t maxw = static_cast<int64_t>(ctx->info().image2d_max_width);
    const int64_t dims[4] = { 1, 1, maxw + 1, 4 }; // width = W * r4(C)
    image_desc_t img;
    ASSERT_EQ(image_desc_init(&img, image_type_t::in_out_channel, 4, dims, relayout_f32),
            status_t::success);
    cl_ref_t<cl_mem> image;
    EXPECT_EQ(create_image(*ctx, img, &image), status_t::invalid_arguments);
    const std::string &m = last_error_message();
    EXPECT_NE(m.find("CL_DEVICE_IMAGE2D_MAX_WIDTH = " + std::to_string(maxw)), std::string::npos)
            << m;
    EXPECT_NE(m.find(std::to_string(maxw + 1)), std::string::npos) << m;
    // The prepared kernel refuses it too, before building anything.
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, dims, relayout_f32), status_t::success);
    std::unique_ptr<kernel_t> k;
    EXPECT_EQ(kernel_t::create_pack(*ctx, b, img, &k), status_t::invalid_arguments);
}

TEST(ocl_pack, image_height_limit_named) {
    RL_OCL_GET_CONTEXT(ctx);
    const int64_t maxh = static_cast<int64_t>(ctx->info().image2d_max_height);
    const int64_t dims[4] = { maxh + 1, 1, 1, 4 }; // height = N * H
    image_desc_t img;
    ASSERT_EQ(image_desc_init(&img, image_type_t::in_out_channel, 4, dims, relayout_f16),
            status_t::success);
    cl_ref_t<cl_mem> image;
    EXPECT_EQ(create_image(*ctx, img, &image), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("CL_DEVICE_IMAGE2D_MAX_HEIGHT"), std::string::npos)
            << last_error_message();
}

TEST(ocl_pack, zero_volume_is_a_no_op) {
    RL_OCL_GET_CONTEXT(ctx);
    const int64_t dims[4] = { 0, 3, 5, 7 };
    image_desc_t img;
    ASSERT_EQ(image_desc_init(&img, image_type_t::in_out_channel, 4, dims, relayout_f32),
            status_t::success);
    cl_ref_t<cl_mem> image;
    ASSERT_EQ(create_image(*ctx, img, &image), status_t::success);
    EXPECT_FALSE(image);
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, dims, relayout_f32), status_t::success);
    // Null handles are never touched.
    EXPECT_EQ(pack_to_image(*ctx, b, nullptr, img, nullptr), status_t::success);
    EXPECT_EQ(unpack_from_image(*ctx, img, nullptr, b, nullptr), status_t::success);
}

TEST(ocl_pack, mismatched_objects_rejected) {
    RL_OCL_GET_CONTEXT(ctx);
    const int64_t dims[4] = { 1, 2, 3, 5 };
    image_desc_t img, other;
    ASSERT_EQ(image_desc_init(&img, image_type_t::in_out_channel, 4, dims, relayout_f32),
            status_t::success);
    ASSERT_EQ(image_desc_init(&other, image_type_t::in_out_height, 4, dims, relayout_f32),
            status_t::success);
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, dims, relayout_f32), status_t::success);
    cl_ref_t<cl_mem> image, small;
    ASSERT_EQ(create_image(*ctx, other, &image), status_t::success);
    ASSERT_EQ(create_buffer(*ctx, 8, &small), status_t::success);
    // Image of another shape.
    cl_ref_t<cl_mem> buf;
    ASSERT_EQ(create_buffer(*ctx, 30 * 4, &buf), status_t::success);
    EXPECT_EQ(pack_to_image(*ctx, b, buf.get(), img, image.get()), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("needs"), std::string::npos) << last_error_message();
    // Buffer too small for the descriptor.
    cl_ref_t<cl_mem> good;
    ASSERT_EQ(create_image(*ctx, img, &good), status_t::success);
    EXPECT_EQ(pack_to_image(*ctx, b, small.get(), img, good.get()), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("holds 8 bytes"), std::string::npos)
            << last_error_message();
    // Swapped roles: a buffer where the image should be.
    EXPECT_EQ(pack_to_image(*ctx, b, buf.get(), img, buf.get()), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("not a 2D image"), std::string::npos);
}

TEST(ocl_pack, unpack_winograd_unimplemented) {
    RL_OCL_GET_CONTEXT(ctx);
    const int64_t dims[4] = { 4, 4, 3, 3 };
    image_desc_t img;
    ASSERT_EQ(image_desc_init(&img, image_type_t::winograd_filter, 4, dims, relayout_f32, 2),
            status_t::success);
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, dims, relayout_f32), status_t::success);
    std::unique_ptr<kernel_t> k;
    EXPECT_EQ(kernel_t::create_unpack(*ctx, img, b, &k), status_t::unimplemented);
    EXPECT_NE(last_error_message().find("winograd_filter"), std::string::npos);
}

TEST(ocl_pack, same_problem_builds_once) {
    RL_OCL_GET_CONTEXT(ctx);
    // A shape no other test uses, so the first creation is a miss.
    const int64_t dims[4] = { 3, 11, 2, 9 };
    image_desc_t img;
    ASSERT_EQ(image_desc_init(&img, image_type_t::in_out_width, 4, dims, relayout_f32),
            status_t::success);
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, dims, relayout_f32), status_t::success);
    const uint64_t builds0 = ctx->program_builds();
    std::unique_ptr<kernel_t> k1, k2;
    ASSERT_EQ(kernel_t::create_pack(*ctx, b, img, &k1), status_t::success);
    EXPECT_FALSE(k1->program_cache_hit());
    ASSERT_EQ(kernel_t::create_pack(*ctx, b, img, &k2), status_t::success);
    EXPECT_TRUE(k2->program_cache_hit());
    EXPECT_EQ(ctx->program_builds(), builds0 + 1);
    // Another offset0 reuses the same program (offset is an argument).
    b.offset0 = 5;
    std::unique_ptr<kernel_t> k3;
    ASSERT_EQ(kernel_t::create_pack(*ctx, b, img, &k3), status_t::success);
    EXPECT_TRUE(k3->program_cache_hit());
    EXPECT_EQ(ctx->program_builds(), builds0 + 1);
}

TEST(ocl_pack, prepared_kernel_runs_from_many_threads) {
    RL_OCL_GET_CONTEXT(ctx);
    const int64_t dims[4] = { 2, 3, 4, 6 };
    image_desc_t img;
    ASSERT_EQ(image_desc_init(&img, image_type_t::in_out_channel, 4, dims, relayout_f32),
            status_t::success);
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, dims, relayout_f32), status_t::success);
    std::unique_ptr<kernel_t> k;
    ASSERT_EQ(kernel_t::create_pack(*ctx, b, img, &k), status_t::success);
    const int nthr = 4;
    std::vector<cl_ref_t<cl_mem>> srcs(nthr), imgs(nthr);
    std::vector<std::vector<float>> host(nthr, std::vector<float>(144));
    for (int t = 0; t < nthr; ++t) {
        for (int i = 0; i < 144; ++i)
            host[t][i] = static_cast<float>(t * 1000 + i);
        ASSERT_EQ(create_buffer(*ctx, 144 * 4, &srcs[t], host[t].data()), status_t::success);
        ASSERT_EQ(create_image(*ctx, img, &imgs[t]), status_t::success);
    }
    std::vector<status_t> st(nthr, status_t::runtime_error);
    std::vector<std::thread> th;
    for (int t = 0; t < nthr; ++t)
        th.emplace_back([&, t] {
            for (int rep = 0; rep < 10 && (rep == 0 || st[t] == status_t::success); ++rep)
                st[t] = k->execute(srcs[t].get(), imgs[t].get());
        });
    for (auto &t : th)
        t.join();
    ASSERT_EQ(ctx->finish(), status_t::success);
    for (int t = 0; t < nthr; ++t) {
        ASSERT_EQ(st[t], status_t::success);
        std::vector<float> px(8 * 6 * 4); // r4(6) * W = 8 wide, N * H = 6 high
        ASSERT_EQ(read_image(*ctx, img, imgs[t].get(), px.data()), status_t::success);
        // pixel (x=0, y=0) lanes 0..3 = c 0..3 of (n0,h0,w0)
        for (int k4 = 0; k4 < 4; ++k4)
            EXPECT_EQ(px[k4], host[t][k4]);
    }
}

TEST(ocl_pack, perf_helper_reports_bandwidth) {
    RL_OCL_GET_CONTEXT(ctx);
    const int64_t dims[4] = { 1, 32, 32, 16 };
    image_desc_t img;
    ASSERT_EQ(image_desc_init(&img, image_type_t::in_out_channel, 4, dims, relayout_f32),
            status_t::success);
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, dims, relayout_f32), status_t::success);
    perf_result_t r;
    ASSERT_EQ(measure_pack(*ctx, b, img, 2, &r), status_t::success) << last_error_message();
    EXPECT_EQ(r.bytes, 2 * 32 * 32 * 16 * 4);
    EXPECT_GT(r.kernel_gbps, 0.0);
    EXPECT_GT(r.copy_gbps, 0.0);
}

} // namespace
} // namespace rl_ocl_test
