// The OpenCL engine through the public API only (relayout.hpp,
// relayout_image.h, relayout_ocl.h[pp]): image descriptors, reorders
// cpu <-> image, buffer <-> buffer on the device, cl_mem interop, errors
// and verbose output. The expected pixels come from DESIGN §6's formulas,
// written here independently of the library. Every test that needs a
// device skips (GTEST_SKIP) when the machine has none.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <atomic>
#include <functional>
#include <thread>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "relayout/relayout.hpp"
#include "relayout/relayout_ocl.hpp"

using namespace relayout;
using dt = memory::data_type;

namespace {

// ---- helpers ------------------------------------------------------------------

bool have_device(std::string *why) {
    size_t n = 0;
    if (relayout_engine_get_count(relayout_ocl, &n) != relayout_success || n == 0) {
        *why = "no OpenCL device (relayout_engine_get_count(ocl) = 0)";
        return false;
    }
    return true;
}

#define NEED_DEVICE()                                                                              \
    std::string why_;                                                                              \
    if (!have_device(&why_)) GTEST_SKIP() << why_

engine &gpu() {
    static engine e(engine::kind::ocl, 0);
    return e;
}
engine &cpu() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

uint16_t f32_to_f16(float f) { // round to nearest even (normal range + subnormals)
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint16_t sign = (u >> 16) & 0x8000u;
    const int exp = int((u >> 23) & 0xff) - 127 + 15;
    uint32_t man = u & 0x7fffffu;
    if (((u >> 23) & 0xff) == 0xff) return sign | 0x7c00u | (man ? 0x200u : 0);
    if (exp >= 31) return sign | 0x7c00u;
    if (exp <= 0) {
        if (exp < -10) return sign;
        man |= 0x800000u;
        const int shift = 14 - exp;
        uint32_t h = man >> shift;
        const uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) ++h;
        return sign | h;
    }
    uint32_t h = (uint32_t(exp) << 10) | (man >> 13);
    const uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
    return sign | h;
}
float f16_to_f32(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    int exp = (h >> 10) & 0x1f;
    uint32_t man = h & 0x3ffu, u;
    if (exp == 0x1f)
        u = sign | 0x7f800000u | (man << 13);
    else if (exp == 0) {
        if (man == 0)
            u = sign;
        else {
            exp = 1;
            while (!(man & 0x400u)) {
                man <<= 1;
                --exp;
            }
            man &= 0x3ffu;
            u = sign | (uint32_t(exp - 15 + 127) << 23) | (man << 13);
        }
    } else
        u = sign | (uint32_t(exp - 15 + 127) << 23) | (man << 13);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
float round_f16(float f) {
    return f16_to_f32(f32_to_f16(f));
}

// Deterministic, non-trivial values (distinct per element; some not
// representable in f16 so that rounding is exercised).
std::vector<float> make_values(size_t n) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = float(int(i % 1013) - 500) * 0.37f + float(i) * 1e-3f;
    return v;
}

int64_t r4(int64_t v) {
    return (v + 3) / 4;
}

// The image of DESIGN §6 for a tensor given by `at(logical index...)`
// (N,C,H,W / O,I,H,W / L): returns width, height and the pixels (f32).
struct image_ref_t {
    int64_t w = 0, h = 0;
    std::vector<float> px; // w*h*4
};

float winograd_g(int b, int r, int c) {
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
    const int *e = b == 2 ? g2[r][c] : b == 4 ? g4[r][c] : g6[r][c];
    return float(double(e[0]) / e[1]);
}

image_ref_t reference_image(image_type t, const memory::dims &d, int b,
        const std::function<float(int64_t, int64_t, int64_t, int64_t)> &at) {
    image_ref_t r;
    // logical dims -> the names of §6
    const bool act = t == image_type::in_out_channel || t == image_type::in_out_height
                     || t == image_type::in_out_width;
    int64_t N = 1, C = 1, H = 1, W = 1, O = 1, I = 1, L = 1;
    if (act) {
        N = d[0];
        C = d[1];
        if (d.size() == 4) {
            H = d[2];
            W = d[3];
        }
    } else if (t == image_type::argument) {
        L = d[0];
    } else {
        O = d[0];
        I = d[1];
        H = d[2];
        W = d[3];
    }
    const int64_t HW = H * W, Hb = r4(H), Wb = r4(W), Ib = r4(I);
    switch (t) {
        case image_type::in_out_channel: r.w = r4(C) * W, r.h = N * H; break;
        case image_type::in_out_height: r.w = W * C, r.h = N * Hb; break;
        case image_type::in_out_width: r.w = Wb * C, r.h = N * H; break;
        case image_type::conv2d_filter: r.w = I, r.h = HW * r4(O); break;
        case image_type::dw_conv2d_filter: r.w = O * HW, r.h = r4(I); break;
        case image_type::argument: r.w = r4(L), r.h = 1; break;
        case image_type::weight_height: r.w = I * HW, r.h = r4(O); break;
        case image_type::weight_width: r.w = Ib * HW, r.h = O; break;
        case image_type::winograd_filter: r.w = Ib, r.h = O * (b + 2) * (b + 2); break;
    }
    r.px.assign(size_t(r.w * r.h * 4), 0.f);
    if (t == image_type::winograd_filter) {
        const int T = b + 2;
        for (int64_t o = 0; o < O; ++o)
            for (int64_t i = 0; i < I; ++i) {
                float g[3][3], gg[8][3];
                for (int a = 0; a < 3; ++a)
                    for (int c = 0; c < 3; ++c)
                        g[a][c] = at(o, i, a, c);
                for (int rr = 0; rr < T; ++rr)
                    for (int c = 0; c < 3; ++c)
                        gg[rr][c] =
                                (winograd_g(b, rr, 0) * g[0][c] + winograd_g(b, rr, 1) * g[1][c])
                                + winograd_g(b, rr, 2) * g[2][c];
                for (int rr = 0; rr < T; ++rr)
                    for (int s = 0; s < T; ++s) {
                        const float u =
                                (gg[rr][0] * winograd_g(b, s, 0) + gg[rr][1] * winograd_g(b, s, 1))
                                + gg[rr][2] * winograd_g(b, s, 2);
                        const int64_t x = i / 4, y = (rr * T + s) * O + o;
                        r.px[size_t((y * r.w + x) * 4 + i % 4)] = u;
                    }
            }
        return r;
    }
    for (int64_t y = 0; y < r.h; ++y)
        for (int64_t x = 0; x < r.w; ++x)
            for (int k = 0; k < 4; ++k) {
                int64_t n = 0, c = 0, h = 0, w = 0, o = 0, i = 0, kh = 0, kw = 0, l = 0;
                bool ok = true;
                float v = 0.f;
                switch (t) {
                    case image_type::in_out_channel:
                        n = y / H, h = y % H, w = x % W, c = 4 * (x / W) + k;
                        ok = c < C;
                        break;
                    case image_type::in_out_height:
                        n = y / Hb, h = 4 * (y % Hb) + k, w = x % W, c = x / W;
                        ok = h < H;
                        break;
                    case image_type::in_out_width:
                        n = y / H, h = y % H, w = 4 * (x % Wb) + k, c = x / Wb;
                        ok = w < W;
                        break;
                    case image_type::conv2d_filter:
                        o = 4 * (y / HW) + k, i = x, kh = (y % HW) / W, kw = (y % HW) % W;
                        ok = o < O;
                        break;
                    case image_type::dw_conv2d_filter:
                        o = x / HW, i = 4 * y + k, kh = (x % HW) / W, kw = x % W;
                        ok = i < I;
                        break;
                    case image_type::argument:
                        l = 4 * x + k;
                        ok = l < L;
                        break;
                    case image_type::weight_height:
                        o = 4 * y + k, i = x % I, kh = (x / I) / W, kw = (x / I) % W;
                        ok = o < O;
                        break;
                    case image_type::weight_width:
                        o = y, i = 4 * (x % Ib) + k, kh = (x / Ib) / W, kw = (x / Ib) % W;
                        ok = i < I;
                        break;
                    default: break;
                }
                if (ok) {
                    if (act)
                        v = at(n, c, h, w);
                    else if (t == image_type::argument)
                        v = at(l, 0, 0, 0);
                    else
                        v = at(o, i, kh, kw);
                }
                r.px[size_t((y * r.w + x) * 4 + k)] = v;
            }
    return r;
}

// Reads an image memory's pixels as f32 through the interop API.
std::vector<float> read_pixels(const memory &img, bool half) {
    const auto shape = image_shape(img.get_desc());
    cl_mem m = ocl_interop::get_mem_object(img);
    cl_command_queue q = ocl_interop::get_queue(gpu());
    const size_t n = size_t(shape.first * shape.second * 4);
    const size_t origin[3] = { 0, 0, 0 };
    const size_t region[3] = { size_t(shape.first), size_t(shape.second), 1 };
    std::vector<float> out(n);
    if (half) {
        std::vector<uint16_t> h(n);
        EXPECT_EQ(clEnqueueReadImage(
                          q, m, CL_TRUE, origin, region, 0, 0, h.data(), 0, nullptr, nullptr),
                CL_SUCCESS);
        for (size_t i = 0; i < n; ++i)
            out[i] = f16_to_f32(h[i]);
    } else {
        EXPECT_EQ(clEnqueueReadImage(
                          q, m, CL_TRUE, origin, region, 0, 0, out.data(), 0, nullptr, nullptr),
                CL_SUCCESS);
    }
    return out;
}

memory::dims strides_of(const memory::dims &d, const std::vector<int> &order) {
    memory::dims s(d.size());
    int64_t acc = 1;
    for (int k = int(order.size()) - 1; k >= 0; --k) {
        s[order[k]] = acc;
        acc *= d[order[k]];
    }
    return s;
}

int64_t volume(const memory::dims &d) {
    int64_t v = 1;
    for (auto x : d)
        v *= x;
    return v;
}

// ---- image round trips -----------------------------------------------------

struct image_case_t {
    const char *name;
    image_type type;
    memory::dims dims;
    int b;
};

const image_case_t image_cases[] = {
    { "in_out_channel", image_type::in_out_channel, { 2, 5, 3, 7 }, 0 },
    { "in_out_channel_c8", image_type::in_out_channel, { 1, 8, 4, 4 }, 0 },
    { "in_out_channel_nc", image_type::in_out_channel, { 3, 6 }, 0 },
    { "in_out_height", image_type::in_out_height, { 2, 3, 5, 6 }, 0 },
    { "in_out_width", image_type::in_out_width, { 2, 3, 4, 7 }, 0 },
    { "conv2d_filter", image_type::conv2d_filter, { 5, 3, 3, 2 }, 0 },
    { "dw_conv2d_filter", image_type::dw_conv2d_filter, { 1, 6, 3, 3 }, 0 },
    { "argument", image_type::argument, { 13 }, 0 },
    { "weight_height", image_type::weight_height, { 7, 3, 2, 3 }, 0 },
    { "weight_width", image_type::weight_width, { 3, 6, 2, 2 }, 0 },
    { "winograd_b2", image_type::winograd_filter, { 3, 5, 3, 3 }, 2 },
    { "winograd_b4", image_type::winograd_filter, { 2, 4, 3, 3 }, 4 },
    { "winograd_b6", image_type::winograd_filter, { 2, 7, 3, 3 }, 6 },
};

struct image_param_t {
    image_case_t c;
    bool half;
    bool nhwc_src; // physical order of the source: nhwc-like instead of plain
};

class ImageRoundTrip : public ::testing::TestWithParam<image_param_t> {};

TEST_P(ImageRoundTrip, CpuToImageAndBack) {
    NEED_DEVICE();
    const image_param_t p = GetParam();
    const auto &c = p.c;
    const int nd = int(c.dims.size());
    // Source: plain (abcd) or channels-last (acdb) f32 on the cpu.
    std::vector<int> order(nd);
    for (int i = 0; i < nd; ++i)
        order[i] = i;
    if (p.nhwc_src && nd == 4) order = { 0, 2, 3, 1 };
    const memory::dims strides = strides_of(c.dims, order);
    memory::desc src_md(c.dims, dt::f32, strides);
    std::vector<float> vals = make_values(size_t(volume(c.dims)));
    memory src(src_md, cpu(), vals.data());
    auto at = [&](int64_t a, int64_t b, int64_t cc, int64_t d) {
        const int64_t idx[4] = { a, b, cc, d };
        int64_t off = 0;
        for (int i = 0; i < nd; ++i)
            off += idx[i] * strides[i];
        return vals[size_t(off)];
    };

    auto img_md = image_desc(c.type, c.dims, p.half ? dt::f16 : dt::f32, c.b);
    memory img(img_md, gpu());
    reorder::primitive_desc pd(cpu(), src_md, gpu(), img_md);
    EXPECT_EQ(pd.impl_info_str(), "ocl:gen");
    stream s(gpu());
    reorder(pd).execute(s, src, img);
    s.wait();

    image_ref_t ref = reference_image(c.type, c.dims, c.b, at);
    const auto shape = image_shape(img_md);
    ASSERT_EQ(shape.first, ref.w);
    ASSERT_EQ(shape.second, ref.h);
    const std::vector<float> got = read_pixels(img, p.half);
    size_t bad = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        const float want = p.half ? round_f16(ref.px[i]) : ref.px[i];
        uint32_t a, b;
        std::memcpy(&a, &got[i], 4);
        std::memcpy(&b, &want, 4);
        if (a != b && bad++ < 5)
            ADD_FAILURE() << "pixel " << i / 4 << " lane " << i % 4 << ": got " << got[i]
                          << " want " << want;
    }
    EXPECT_EQ(bad, 0u);

    // Back to the cpu, into the other physical order.
    const bool back_exists =
            c.type != image_type::dw_conv2d_filter && c.type != image_type::winograd_filter;
    std::vector<int> order2(nd);
    for (int i = 0; i < nd; ++i)
        order2[i] = i;
    if (!p.nhwc_src && nd == 4) order2 = { 0, 2, 3, 1 };
    memory::desc back_md(c.dims, dt::f32, strides_of(c.dims, order2));
    if (!back_exists) {
        relayout_primitive_desc_t cpd = nullptr;
        EXPECT_EQ(relayout_reorder_primitive_desc_create(
                          &cpd, img_md.get(), gpu().get(), back_md.get(), cpu().get(), nullptr),
                relayout_unimplemented);
        EXPECT_EQ(cpd, nullptr);
        return;
    }
    std::vector<float> back(vals.size(), -1.f);
    memory bm(back_md, cpu(), back.data());
    reorder(img, bm).execute(s, img, bm);
    const memory::dims bs = strides_of(c.dims, order2);
    size_t bad2 = 0;
    for (int64_t e = 0; e < volume(c.dims); ++e) {
        int64_t idx[4] = { 0, 0, 0, 0 }, rem = e;
        for (int i = nd - 1; i >= 0; --i) {
            idx[i] = rem % c.dims[i];
            rem /= c.dims[i];
        }
        int64_t off = 0;
        for (int i = 0; i < nd; ++i)
            off += idx[i] * bs[i];
        const float v = at(idx[0], idx[1], idx[2], idx[3]);
        const float want = p.half ? round_f16(v) : v;
        if (back[size_t(off)] != want && bad2++ < 5)
            ADD_FAILURE() << "element " << e << ": got " << back[size_t(off)] << " want " << want;
    }
    EXPECT_EQ(bad2, 0u);
}

std::vector<image_param_t> image_params() {
    std::vector<image_param_t> v;
    for (const auto &c : image_cases)
        for (bool half : { false, true })
            for (bool nhwc : { false, true }) {
                if (nhwc && c.dims.size() != 4) continue;
                v.push_back({ c, half, nhwc });
            }
    return v;
}

INSTANTIATE_TEST_SUITE_P(Types, ImageRoundTrip, ::testing::ValuesIn(image_params()),
        [](const ::testing::TestParamInfo<image_param_t> &i) {
            return std::string(i.param.c.name) + (i.param.half ? "_f16" : "_f32")
                   + (i.param.nhwc_src ? "_nhwc" : "_nchw");
        });

// ---- more image sources -------------------------------------------------------

TEST(OclImage, BlockedAndIntegerSourcesGoThroughTheHost) {
    NEED_DEVICE();
    const memory::dims d = { 1, 19, 3, 5 };
    // s8 nChw16c source on the cpu -> half image.
    memory::desc plain(d, dt::s8, memory::format_tag::nchw);
    memory::desc blk(d, dt::s8, memory::format_tag::nChw16c);
    std::vector<int8_t> v(size_t(volume(d)));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = int8_t(int(i % 200) - 100);
    memory pm(plain, cpu(), v.data());
    memory bm(blk, cpu());
    stream cs(cpu());
    reorder(pm, bm).execute(cs, pm, bm);
    auto img_md = image_desc(image_type::in_out_channel, d, dt::f16);
    memory img(img_md, gpu());
    stream s(gpu());
    reorder(bm, img).execute(s, bm, img);
    const auto ref = reference_image(
            image_type::in_out_channel, d, 0, [&](int64_t n, int64_t c, int64_t h, int64_t w) {
                return float(v[size_t(((n * d[1] + c) * d[2] + h) * d[3] + w)]);
            });
    EXPECT_EQ(read_pixels(img, true), ref.px);
}

TEST(OclImage, DeviceBufferToImageAndImageToImage) {
    NEED_DEVICE();
    const memory::dims d = { 2, 6, 3, 5 };
    memory::desc nchw(d, dt::f32, memory::format_tag::nchw);
    memory::desc blk(d, dt::f32, memory::format_tag::nChw8c);
    std::vector<float> v = make_values(size_t(volume(d)));
    memory src(nchw, cpu(), v.data());
    memory dev_nchw(nchw, gpu()), dev_blk(blk, gpu());
    stream s(gpu());
    reorder(src, dev_nchw).execute(s, src, dev_nchw);
    reorder(src, dev_blk).execute(s, src, dev_blk);
    auto at = [&](int64_t n, int64_t c, int64_t h, int64_t w) {
        return v[size_t(((n * d[1] + c) * d[2] + h) * d[3] + w)];
    };
    for (auto t :
            { image_type::in_out_channel, image_type::in_out_height, image_type::in_out_width }) {
        auto md = image_desc(t, d, dt::f32);
        memory a(md, gpu()), b(md, gpu());
        reorder(dev_nchw, a).execute(s, dev_nchw, a); // one pack kernel
        reorder(dev_blk, b).execute(s, dev_blk, b);   // gen copy to plain, then pack
        s.wait();
        const auto ref = reference_image(t, d, 0, at);
        EXPECT_EQ(read_pixels(a, false), ref.px) << to_string(t);
        EXPECT_EQ(read_pixels(b, false), ref.px) << to_string(t);
    }
    // image -> image of another type (same tensor)
    auto ch = image_desc(image_type::in_out_channel, d, dt::f32);
    auto wd = image_desc(image_type::in_out_width, d, dt::f16);
    memory a(ch, gpu()), b(wd, gpu());
    reorder(dev_nchw, a).execute(s, dev_nchw, a);
    reorder(a, b).execute(s, a, b);
    s.wait();
    const auto ref = reference_image(image_type::in_out_width, d, 0, at);
    std::vector<float> want(ref.px.size());
    for (size_t i = 0; i < want.size(); ++i)
        want[i] = round_f16(ref.px[i]);
    EXPECT_EQ(read_pixels(b, true), want);
    // image -> device blocked buffer, then back to the host
    memory back_blk(blk, gpu());
    reorder(a, back_blk).execute(s, a, back_blk);
    std::vector<float> out(v.size());
    memory host_out(nchw, cpu(), out.data());
    reorder(back_blk, host_out).execute(s, back_blk, host_out);
    EXPECT_EQ(out, v);
}

TEST(OclImage, HalfSourceIntoFloatImage) {
    NEED_DEVICE();
    const memory::dims d = { 6, 3, 3, 3 };
    memory::desc f16md(d, dt::f16, memory::format_tag::oihw);
    std::vector<uint16_t> h(size_t(volume(d)));
    for (size_t i = 0; i < h.size(); ++i)
        h[i] = f32_to_f16(float(int(i) - 80) * 0.125f);
    memory src(f16md, cpu(), h.data());
    auto md = image_desc(image_type::conv2d_filter, d, dt::f32);
    memory img(md, gpu());
    stream s(gpu());
    reorder(src, img).execute(s, src, img);
    const auto ref = reference_image(
            image_type::conv2d_filter, d, 0, [&](int64_t o, int64_t i, int64_t kh, int64_t kw) {
                return f16_to_f32(h[size_t(((o * d[1] + i) * d[2] + kh) * d[3] + kw)]);
            });
    EXPECT_EQ(read_pixels(img, false), ref.px);
}

TEST(OclImage, SourceWithScalesFromTheCpu) {
    NEED_DEVICE();
    const memory::dims d = { 9 };
    memory::desc md(d, dt::f32, memory::format_tag::a);
    std::vector<float> v = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    memory src(md, cpu(), v.data());
    auto imd = image_desc(image_type::argument, d, dt::f32);
    memory img(imd, gpu());
    primitive_attr attr;
    attr.set_scales(RELAYOUT_ARG_SRC, 0, { 0.5f });
    reorder r(reorder::primitive_desc(cpu(), md, gpu(), imd, attr));
    stream s(gpu());
    r.execute(s, src, img);
    const std::vector<float> want = { 0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4, 4.5f, 0, 0, 0 };
    EXPECT_EQ(read_pixels(img, false), want);
}

// ---- buffers ------------------------------------------------------------------

struct buf_case_t {
    const char *name;
    memory::dims dims;
    dt sdt, ddt;
    const char *stag, *dtag;
};

class OclBuffers : public ::testing::TestWithParam<buf_case_t> {};

// cpu -> ocl (stag) -> ocl (dtag, generated kernel) -> cpu, compared with
// the same reorder on the cpu engine.
TEST_P(OclBuffers, DeviceReorderMatchesCpu) {
    NEED_DEVICE();
    const auto &c = GetParam();
    memory::desc plain(c.dims, dt::f32,
            std::string(c.stag).size() == c.dims.size()
                    ? std::string("abcdef").substr(0, c.dims.size())
                    : std::string("abcdef").substr(0, c.dims.size()));
    std::vector<float> v(size_t(volume(c.dims)));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = float(int(i % 97) - 48) * 0.5f; // exact in f16
    memory p(plain, cpu(), v.data());
    memory::desc smd(c.dims, c.sdt, c.stag), dmd(c.dims, c.ddt, c.dtag);
    stream s(gpu());
    stream cs(cpu());
    // Expected: cpu engine all the way.
    memory cs_src(smd, cpu()), cs_dst(dmd, cpu());
    reorder(p, cs_src).execute(cs, p, cs_src);
    reorder(cs_src, cs_dst).execute(cs, cs_src, cs_dst);
    // Device.
    memory g_src(smd, gpu()), g_dst(dmd, gpu());
    reorder(p, g_src).execute(s, p, g_src);
    reorder::primitive_desc pd(gpu(), smd, gpu(), dmd);
    EXPECT_EQ(pd.impl_info_str(), "ocl:gen");
    reorder(pd).execute(s, g_src, g_dst);
    std::vector<unsigned char> got(dmd.get_size(), 0xAB);
    memory out(dmd, cpu(), got.data());
    reorder(g_dst, out).execute(s, g_dst, out);
    const unsigned char *want = static_cast<const unsigned char *>(cs_dst.get_data_handle());
    EXPECT_EQ(0, std::memcmp(got.data(), want, got.size())) << pd.plan_str();
}

const buf_case_t buf_cases[] = {
    { "nchw_to_nhwc", { 2, 5, 3, 7 }, dt::f32, dt::f32, "abcd", "acdb" },
    { "nhwc_to_nchw_f16", { 2, 5, 3, 7 }, dt::f32, dt::f16, "acdb", "abcd" },
    { "nchw_to_nChw16c", { 2, 19, 3, 5 }, dt::f32, dt::f32, "abcd", "aBcd16b" },
    { "nChw8c_to_nChw16c_f16", { 1, 21, 2, 3 }, dt::f32, dt::f16, "aBcd8b", "aBcd16b" },
    { "oihw_to_OIhw4i16o4i", { 20, 9, 3, 3 }, dt::f32, dt::f32, "abcd", "ABcd4b16a4b" },
    { "OIhw16i16o_to_hwio_f16_f32", { 17, 18, 1, 2 }, dt::f16, dt::f32, "ABcd16b16a", "cdba" },
    { "s8_copy_blocked", { 3, 33, 2, 2 }, dt::s8, dt::s8, "abcd", "aBcd32b" },
    { "irregular_48_64", { 2, 100 }, dt::f32, dt::f32, "aB48b", "aB64b" },
    { "tnc_to_ntc", { 4, 3, 17 }, dt::f16, dt::f16, "abc", "bac" },
};

INSTANTIATE_TEST_SUITE_P(Layouts, OclBuffers, ::testing::ValuesIn(buf_cases),
        [](const ::testing::TestParamInfo<buf_case_t> &i) { return std::string(i.param.name); });

TEST(OclBuffers, StridedViewsAndGapsAreHonoured) {
    NEED_DEVICE();
    // A 4x6 window of an 8x10 dst buffer on the device: only the window changes.
    memory::desc parent({ 8, 10 }, dt::f32, memory::format_tag::ab);
    memory::desc view = parent.submemory_desc({ 4, 6 }, { 2, 3 });
    memory::desc src_md({ 4, 6 }, dt::f32, memory::format_tag::ba);
    std::vector<float> v(24);
    for (int i = 0; i < 24; ++i)
        v[size_t(i)] = float(i + 1);
    memory src(src_md, cpu(), v.data());
    std::vector<float> init(80, -7.f);
    memory parent_mem(parent, gpu());
    memory host_init(parent, cpu(), init.data());
    stream s(gpu());
    reorder(host_init, parent_mem).execute(s, host_init, parent_mem);
    // The view shares the parent's cl_mem.
    memory vm = ocl_interop::make_memory(view, gpu(), ocl_interop::get_mem_object(parent_mem));
    reorder(src, vm).execute(s, src, vm);
    std::vector<float> out(80, 0.f);
    memory host_out(parent, cpu(), out.data());
    reorder(parent_mem, host_out).execute(s, parent_mem, host_out);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 10; ++c) {
            const bool in = r >= 2 && r < 6 && c >= 3 && c < 9;
            const float want = in ? v[size_t((c - 3) * 4 + (r - 2))] : -7.f;
            EXPECT_EQ(out[size_t(r * 10 + c)], want) << r << "," << c;
        }
}

// ---- attributes on the device ---------------------------------------------------

struct attr_case_t {
    const char *name;
    memory::dims dims;
    dt sdt, ddt;
    const char *stag, *dtag;
    int src_mask = -1, dst_mask = -1; // -1: no scale
    int32_t src_zp = 0, dst_zp = 0;
    float beta = 0.f;
    uint64_t flags = 0; // dst extra section: compensation, scale_adjust
    int comp_mask = 0, zp_mask = 0;
    float scale_adjust = 1.f;
};

// Source values that reach every rounding and saturation case: halves
// (ties), -0, values beyond every integer range, tiny values and NaN
// (skipped for f16 destinations, whose NaN payload the cpu quiets its own
// way).
std::vector<float> attr_values(size_t n, bool with_nan) {
    const float special[] = { -0.f, 0.5f, 1.5f, 2.5f, -2.5f, -0.5f, 127.5f, 128.5f, -128.5f, 255.5f,
        300.f, -300.f, 70000.f, -70000.f, 3e9f, -3e9f, 1e-30f, -1e-30f, 1.00390625f,
        with_nan ? NAN : 7.f };
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = i % 5 == 0 ? special[(i / 5) % (sizeof(special) / sizeof(*special))]
                          : float(int(i * 7 % 193) - 96) * 0.37f;
    return v;
}

// Scales that are not powers of two, so that multiplication and division
// both round.
std::vector<float> scale_values(const memory::dims &d, int mask) {
    int64_t n = 1;
    for (size_t k = 0; k < d.size(); ++k)
        if (mask >> k & 1) n *= d[k];
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = 0.3f + 0.173f * float(i % 11);
    return v;
}

primitive_attr make_attr(const attr_case_t &c) {
    primitive_attr a;
    if (c.src_mask >= 0)
        a.set_scales(RELAYOUT_ARG_SRC, c.src_mask, scale_values(c.dims, c.src_mask));
    if (c.dst_mask >= 0)
        a.set_scales(RELAYOUT_ARG_DST, c.dst_mask, scale_values(c.dims, c.dst_mask));
    if (c.src_zp) a.set_zero_points(RELAYOUT_ARG_SRC, c.src_zp);
    if (c.dst_zp) a.set_zero_points(RELAYOUT_ARG_DST, c.dst_zp);
    if (c.beta != 0.f) a.set_post_ops_sum(c.beta);
    return a;
}

void PrintTo(const attr_case_t &c, std::ostream *os) {
    *os << c.name;
}

class OclBufferAttrs : public ::testing::TestWithParam<attr_case_t> {};

// ocl buffer -> ocl buffer with attributes (one generated kernel) against
// the same reorder on the cpu engine: bit-exact, dst gaps included.
TEST_P(OclBufferAttrs, DeviceReorderMatchesCpu) {
    NEED_DEVICE();
    const auto &c = GetParam();
    memory::desc plain(c.dims, dt::f32, std::string("abcdef").substr(0, c.dims.size()));
    memory::desc smd(c.dims, c.sdt, c.stag), dmd(c.dims, c.ddt, c.dtag);
    if (c.flags) dmd = dmd.with_extra(c.flags, c.comp_mask, c.zp_mask, c.scale_adjust);
    std::vector<float> v = attr_values(size_t(volume(c.dims)), c.ddt != dt::f16);
    std::vector<float> old(v.size());
    for (size_t i = 0; i < old.size(); ++i)
        old[i] = float(int(i % 13) - 6);
    memory p(plain, cpu(), v.data()), p_old(plain, cpu(), old.data());
    stream cs(cpu()), s(gpu());
    // Both sides start from the same bytes: the src converted on the cpu,
    // the dst's old values (for the sum) likewise, its gaps filled with 0x5A.
    memory c_src(smd, cpu()), c_dst(dmd, cpu());
    reorder(p, c_src).execute(cs, p, c_src);
    std::memset(c_dst.get_data_handle(), 0x5A, dmd.get_size());
    reorder(p_old, c_dst).execute(cs, p_old, c_dst);
    const std::vector<unsigned char> start(static_cast<unsigned char *>(c_dst.get_data_handle()),
            static_cast<unsigned char *>(c_dst.get_data_handle()) + dmd.get_size());
    memory g_src(smd, gpu()), g_dst(dmd, gpu());
    reorder(c_src, g_src).execute(s, c_src, g_src);
    reorder(c_dst, g_dst).execute(s, c_dst, g_dst);
    const primitive_attr attr = make_attr(c);
    reorder(reorder::primitive_desc(cpu(), smd, cpu(), dmd, attr)).execute(cs, c_src, c_dst);
    reorder::primitive_desc pd(gpu(), smd, gpu(), dmd, attr);
    EXPECT_EQ(pd.impl_info_str(), "ocl:gen");
    EXPECT_EQ(pd.plan_str().find("cpu"), std::string::npos) << pd.plan_str();
    reorder prim(pd);
    prim.execute(s, g_src, g_dst);
    // Without a sum a second run gives the same bytes (compensation sums
    // start from zero every time).
    if (c.beta == 0.f) prim.execute(s, g_src, g_dst);
    std::vector<unsigned char> got(dmd.get_size(), 0xAB);
    memory out(dmd, cpu(), got.data());
    reorder(g_dst, out).execute(s, g_dst, out);
    const auto *want = static_cast<const unsigned char *>(c_dst.get_data_handle());
    EXPECT_NE(0, std::memcmp(want, start.data(), start.size())) << "the reorder changed nothing";
    size_t first = got.size();
    for (size_t i = 0; i < got.size() && first == got.size(); ++i)
        if (got[i] != want[i]) first = i;
    EXPECT_EQ(first, got.size()) << "first differing byte " << first << " of " << got.size() << "; "
                                 << pd.plan_str();
}

const attr_case_t attr_cases[] = {
    // conversions without attributes, every dst type
    { "f32_to_s8", { 2, 5, 3, 7 }, dt::f32, dt::s8, "abcd", "acdb" },
    { "f32_to_u8_blocked", { 2, 19, 3, 5 }, dt::f32, dt::u8, "abcd", "aBcd16b" },
    { "f32_to_bf16", { 3, 37 }, dt::f32, dt::bf16, "ab", "ba" },
    { "f32_to_s32", { 3, 37 }, dt::f32, dt::s32, "ab", "ba" },
    { "bf16_to_f32", { 3, 37 }, dt::bf16, dt::f32, "ab", "ba" },
    { "s8_to_f32", { 2, 5, 3, 7 }, dt::s8, dt::f32, "abcd", "acdb" },
    { "u8_to_bf16", { 2, 5, 3, 7 }, dt::u8, dt::bf16, "acdb", "abcd" },
    { "s32_to_f16", { 4, 21 }, dt::s32, dt::f16, "ab", "ba" },
    // scales, common and per dim, both sides
    { "f32_s8_src_scale", { 2, 19, 3, 5 }, dt::f32, dt::s8, "abcd", "aBcd16b", 0 },
    { "f32_s8_per_channel", { 2, 19, 3, 5 }, dt::f32, dt::s8, "abcd", "aBcd16b", 2 },
    { "f32_u8_dst_scale", { 2, 5, 3, 7 }, dt::f32, dt::u8, "abcd", "acdb", -1, 0 },
    { "f32_f32_dst_per_channel", { 2, 5, 3, 7 }, dt::f32, dt::f32, "acdb", "abcd", -1, 2 },
    { "oihw_per_oi", { 20, 9, 3, 3 }, dt::f32, dt::s8, "abcd", "ABcd4b16a4b", 3, 1 },
    { "f16_bf16_both", { 17, 18, 1, 2 }, dt::f16, dt::bf16, "ABcd16b16a", "cdba", 1, 0 },
    { "irregular_scaled", { 2, 100 }, dt::f32, dt::s8, "aB48b", "aB64b", 2 },
    // zero points and sum
    { "u8_to_f32_src_zp", { 2, 5, 3, 7 }, dt::u8, dt::f32, "abcd", "acdb", 0, -1, 128 },
    { "f32_to_u8_dst_zp", { 2, 5, 3, 7 }, dt::f32, dt::u8, "abcd", "acdb", 0, -1, 0, 7 },
    { "sum_f32", { 2, 19, 3, 5 }, dt::f32, dt::f32, "abcd", "aBcd8b", -1, -1, 0, 0, 0.75f },
    { "sum_s8_all", { 2, 19, 3, 5 }, dt::s8, dt::s8, "aBcd16b", "abcd", 2, 0, -3, 5, 1.5f },
    { "sum_bf16", { 3, 37 }, dt::f32, dt::bf16, "ab", "ba", 0, -1, 0, 0, -2.f },
    // int8 weights with compensation (sums of the stored values), per o
    // and per (g, o), s8s8 and zero-point, with scale_adjust
    { "s8s8_comp_4i16o4i", { 20, 9, 3, 3 }, dt::f32, dt::s8, "abcd", "ABcd4b16a4b", 1, -1, 0, 0,
            0.f, relayout_extra_flag_compensation_conv_s8s8, 1 },
    { "s8s8_comp_bit_copy", { 20, 9, 3, 3 }, dt::s8, dt::s8, "abcd", "ABcd4b16a4b", -1, -1, 0, 0,
            0.f, relayout_extra_flag_compensation_conv_s8s8, 1 },
    { "both_comp_grouped", { 2, 17, 8, 3, 3 }, dt::f32, dt::s8, "abcde", "aBCde4c16b4c", 0, -1, 0,
            0, 0.f,
            relayout_extra_flag_compensation_conv_s8s8
                    | relayout_extra_flag_compensation_conv_asymmetric_src,
            3, 3 },
    { "zp_comp_u8_adjust", { 32, 16, 3, 3 }, dt::f32, dt::u8, "abcd", "ABcd4b16a4b", 0, -1, 0, 0,
            0.f,
            relayout_extra_flag_compensation_conv_asymmetric_src | relayout_extra_flag_scale_adjust,
            0, 1, 0.5f },
    // transposes run in 16 x 16 tiles (ocl_plan_gen.cpp pick_tile): partial
    // tiles on both sides, dst padding inside and across tiles, padded
    // src, tiles of bit copies and of conversions with attributes
    { "tiles_nchw_nhwc_bits", { 2, 37, 5, 19 }, dt::f32, dt::f32, "abcd", "acdb" },
    { "tiles_nhwc_nchw_bits", { 3, 17, 2, 33 }, dt::f32, dt::f32, "acdb", "abcd" },
    { "tiles_to_blocked_padded", { 2, 35, 3, 21 }, dt::f32, dt::f32, "abcd", "aBcd16b" },
    { "tiles_from_blocked_padded", { 2, 35, 3, 21 }, dt::f32, dt::f32, "aBcd16b", "abcd" },
    { "tiles_s8_4i16o4i", { 40, 24, 3, 3 }, dt::s8, dt::s8, "abcd", "ABcd4b16a4b" },
    { "tiles_bf16_ab_ba", { 33, 47 }, dt::bf16, dt::bf16, "ab", "ba" },
    { "tiles_u8_one_row", { 1, 40, 2 }, dt::u8, dt::u8, "abc", "acb" },
    { "tiles_f32_u8_per_channel", { 3, 40, 17 }, dt::f32, dt::u8, "abc", "acb", 2, -1, 0, 3 },
    { "tiles_f16_sum", { 18, 35 }, dt::f16, dt::f32, "ab", "ba", -1, 1, 0, 0, 0.5f },
    { "tiles_s8s8_comp", { 64, 20, 3, 3 }, dt::f32, dt::s8, "abcd", "ABcd4b16a4b", 1, -1, 0, 0, 0.f,
            relayout_extra_flag_compensation_conv_s8s8, 1 },
};

INSTANTIATE_TEST_SUITE_P(Cases, OclBufferAttrs, ::testing::ValuesIn(attr_cases),
        [](const ::testing::TestParamInfo<attr_case_t> &i) { return std::string(i.param.name); });

TEST(OclBufferAttrs, ScalesThroughImagesOnTheDevice) {
    NEED_DEVICE();
    const memory::dims d = { 2, 6, 3, 5 };
    memory::desc nchw(d, dt::f32, memory::format_tag::nchw);
    memory::desc blk8(d, dt::f32, memory::format_tag::nChw8c);
    std::vector<float> v = make_values(size_t(volume(d)));
    memory src(nchw, cpu(), v.data());
    memory dev_blk(blk8, gpu());
    stream s(gpu());
    reorder(src, dev_blk).execute(s, src, dev_blk);
    // device blocked buffer -> image with a per-channel src scale: the
    // scaling reorder runs on the device, into the plain temp of the pack.
    primitive_attr a;
    std::vector<float> sc(6);
    for (size_t c = 0; c < sc.size(); ++c)
        sc[c] = 0.25f * float(c + 1);
    a.set_scales(RELAYOUT_ARG_SRC, 2, sc);
    auto md = image_desc(image_type::in_out_channel, d, dt::f32);
    memory img(md, gpu());
    reorder::primitive_desc pd(gpu(), blk8, gpu(), md, a);
    EXPECT_EQ(pd.plan_str().find("cpu"), std::string::npos) << pd.plan_str();
    reorder(pd).execute(s, dev_blk, img);
    s.wait();
    auto at = [&](int64_t n, int64_t c, int64_t h, int64_t w) {
        return sc[size_t(c)] * v[size_t(((n * d[1] + c) * d[2] + h) * d[3] + w)];
    };
    EXPECT_EQ(read_pixels(img, false), reference_image(image_type::in_out_channel, d, 0, at).px);
    // image -> device s8 buffer with a dst scale: unpack, then the scaling
    // reorder on the device; compared with the cpu's own reorder.
    memory::desc s8md(d, dt::s8, memory::format_tag::nhwc);
    primitive_attr b;
    b.set_scales(RELAYOUT_ARG_DST, 0, { 0.3f });
    memory dev_s8(s8md, gpu());
    reorder::primitive_desc pd2(gpu(), md, gpu(), s8md, b);
    EXPECT_EQ(pd2.plan_str().find("cpu"), std::string::npos) << pd2.plan_str();
    reorder(pd2).execute(s, img, dev_s8);
    std::vector<int8_t> got(size_t(volume(d))), want(got.size());
    memory host_got(s8md, cpu(), got.data()), host_want(s8md, cpu(), want.data());
    reorder(dev_s8, host_got).execute(s, dev_s8, host_got);
    std::vector<float> scaled(v.size());
    for (int64_t n = 0; n < d[0]; ++n)
        for (int64_t c = 0; c < d[1]; ++c)
            for (int64_t h = 0; h < d[2]; ++h)
                for (int64_t w = 0; w < d[3]; ++w)
                    scaled[size_t(((n * d[1] + c) * d[2] + h) * d[3] + w)] = at(n, c, h, w);
    memory host_scaled(nchw, cpu(), scaled.data());
    stream cs(cpu());
    reorder(reorder::primitive_desc(cpu(), nchw, cpu(), s8md, b))
            .execute(cs, host_scaled, host_want);
    EXPECT_EQ(got, want);
}

// Attributes into images: a sum reads the image back (unpacked into the
// f32 temp the values pass through), image -> image reorders run the
// generated kernel between two temps. Each case against the cpu engine
// on plain buffers of the pixel type, bit for bit.
struct image_attr_case_t {
    const char *name;
    bool src_image;                  // else an nchw buffer
    relayout_engine_kind_t src_kind; // a buffer src: on the cpu or the device
    image_type src_type, dst_type;
    dt src_dt, dst_dt; // pixel types of the images, else the buffer's
    bool sum;
    int src_mask; // -1: no src scale
};

void PrintTo(const image_attr_case_t &c, std::ostream *os) {
    *os << c.name;
}

class OclImageAttrs : public ::testing::TestWithParam<image_attr_case_t> {};

TEST_P(OclImageAttrs, MatchesTheCpuOnPlainBuffers) {
    NEED_DEVICE();
    const auto &c = GetParam();
    const bool filter = c.dst_type == image_type::conv2d_filter;
    const memory::dims d = filter ? memory::dims{ 5, 6, 3, 3 } : memory::dims{ 2, 6, 3, 5 };
    const memory::format_tag nchw = memory::format_tag::nchw;
    memory::desc f32md(d, dt::f32, nchw), smd_plain(d, c.src_dt, nchw),
            dmd_plain(d, c.dst_dt, nchw);
    std::vector<float> v = make_values(size_t(volume(d))), old(v.size());
    for (size_t i = 0; i < old.size(); ++i)
        old[i] = float(int(i % 13) - 6) * 0.75f;
    memory v_mem(f32md, cpu(), v.data()), old_mem(f32md, cpu(), old.data());
    stream s(gpu()), cs(cpu());
    primitive_attr a;
    if (c.src_mask >= 0) a.set_scales(RELAYOUT_ARG_SRC, c.src_mask, scale_values(d, c.src_mask));
    if (c.sum) a.set_post_ops_sum(0.5f);
    // the source: an image of v, or an nchw buffer of v on either engine
    const memory::desc smd = c.src_image ? image_desc(c.src_type, d, c.src_dt) : smd_plain;
    const engine &se = c.src_kind == relayout_cpu ? cpu() : gpu();
    memory src(smd, se);
    reorder(v_mem, src).execute(s, v_mem, src);
    // the destination image starts as `old`
    const memory::desc dmd = image_desc(c.dst_type, d, c.dst_dt);
    memory dst(dmd, gpu());
    reorder(old_mem, dst).execute(s, old_mem, dst);
    reorder::primitive_desc pd(se, smd, gpu(), dmd, a);
    EXPECT_EQ(pd.impl_info_str(), "ocl:gen");
    reorder(pd).execute(s, src, dst);
    std::vector<float> got(v.size(), -1.f);
    memory got_mem(f32md, cpu(), got.data());
    reorder(dst, got_mem).execute(s, dst, got_mem);
    s.wait();
    // the cpu: the same values in plain buffers of the pixel types
    memory cs_src(smd_plain, cpu()), cs_dst(dmd_plain, cpu());
    reorder(v_mem, cs_src).execute(cs, v_mem, cs_src);
    reorder(old_mem, cs_dst).execute(cs, old_mem, cs_dst);
    reorder(reorder::primitive_desc(cpu(), smd_plain, cpu(), dmd_plain, a))
            .execute(cs, cs_src, cs_dst);
    std::vector<float> want(v.size(), -2.f);
    memory want_mem(f32md, cpu(), want.data());
    reorder(cs_dst, want_mem).execute(cs, cs_dst, want_mem);
    EXPECT_NE(0, std::memcmp(want.data(), old.data(), old.size() * sizeof(float)));
    size_t first = want.size();
    for (size_t i = 0; i < want.size() && first == want.size(); ++i)
        if (std::memcmp(&want[i], &got[i], sizeof(float)) != 0) first = i;
    EXPECT_EQ(first, want.size()) << "first differing element " << first << ": want "
                                  << (first < want.size() ? want[first] : 0.f) << " got "
                                  << (first < want.size() ? got[first] : 0.f) << "; "
                                  << pd.plan_str();
}

const image_attr_case_t image_attr_cases[] = {
    { "sum_from_device_buffer", false, relayout_ocl, image_type::in_out_channel,
            image_type::in_out_channel, dt::f32, dt::f32, true, 0 },
    { "sum_from_cpu_buffer_f16_pixels", false, relayout_cpu, image_type::in_out_channel,
            image_type::in_out_height, dt::f32, dt::f16, true, 2 },
    { "sum_into_filter_image", false, relayout_ocl, image_type::conv2d_filter,
            image_type::conv2d_filter, dt::f32, dt::f16, true, -1 },
    { "image_to_image_scaled", true, relayout_ocl, image_type::in_out_channel,
            image_type::in_out_width, dt::f32, dt::f16, false, 2 },
    { "image_to_image_sum", true, relayout_ocl, image_type::in_out_width,
            image_type::in_out_channel, dt::f16, dt::f32, true, 0 },
};

INSTANTIATE_TEST_SUITE_P(Cases, OclImageAttrs, ::testing::ValuesIn(image_attr_cases),
        [](const ::testing::TestParamInfo<image_attr_case_t> &i) {
            return std::string(i.param.name);
        });

TEST(OclImageAttrs, WhatTheDeviceRefusesIsNamed) {
    NEED_DEVICE();
    // a sum into an image that cannot be read back
    const memory::dims d = { 1, 6, 3, 3 };
    memory::desc oihw(d, dt::f32, memory::format_tag::oihw);
    auto dw = image_desc(image_type::dw_conv2d_filter, d, dt::f32);
    relayout_primitive_desc_t pd = nullptr;
    primitive_attr sum;
    sum.set_post_ops_sum(1.f);
    EXPECT_EQ(relayout_reorder_primitive_desc_create(
                      &pd, oihw.get(), gpu().get(), dw.get(), gpu().get(), sum.get()),
            relayout_unimplemented);
    const std::string msg = relayout_get_last_error_message();
    EXPECT_NE(msg.find("sum"), std::string::npos) << msg;
    EXPECT_NE(msg.find("dw_conv2d_filter"), std::string::npos) << msg;
    // without the sum it packs
    EXPECT_EQ(relayout_reorder_primitive_desc_create(
                      &pd, oihw.get(), gpu().get(), dw.get(), gpu().get(), nullptr),
            relayout_success);
    relayout_primitive_desc_destroy(pd);
}

// ---- interop -------------------------------------------------------------------

TEST(OclInterop, UserContextQueueAndMemObjects) {
    NEED_DEVICE();
    cl_context ctx = ocl_interop::get_context(gpu());
    cl_device_id dev = ocl_interop::get_device(gpu());
    ASSERT_NE(ctx, nullptr);
    ASSERT_NE(dev, nullptr);
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    engine e = ocl_interop::make_engine(dev, ctx, q);
    EXPECT_EQ(ocl_interop::get_queue(e), q);
    EXPECT_EQ(ocl_interop::get_context(e), ctx);

    // A user image: cpu nchw -> the user's image through the engine.
    const memory::dims d = { 1, 5, 2, 3 };
    auto imd = image_desc(image_type::in_out_channel, d, dt::f32);
    const auto shape = image_shape(imd);
    EXPECT_EQ(shape.first, 2 * 3);
    EXPECT_EQ(shape.second, 2);
    cl_image_format fmt = { CL_RGBA, CL_FLOAT };
    cl_image_desc idesc{};
    idesc.image_type = CL_MEM_OBJECT_IMAGE2D;
    idesc.image_width = size_t(shape.first);
    idesc.image_height = size_t(shape.second);
    cl_mem user_img = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &idesc, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    memory img = ocl_interop::make_memory(imd, e, user_img);
    EXPECT_EQ(ocl_interop::get_mem_object(img), user_img);
    clReleaseMemObject(user_img); // the memory holds its own reference

    memory::desc nchw(d, dt::f32, memory::format_tag::nchw);
    std::vector<float> v = make_values(size_t(volume(d)));
    memory src(nchw, cpu(), v.data());
    stream s(e);
    reorder(src, img).execute(s, src, img);
    s.wait();
    std::vector<float> px(size_t(shape.first * shape.second * 4));
    const size_t origin[3] = { 0, 0, 0 },
                 region[3] = { size_t(shape.first), size_t(shape.second), 1 };
    ASSERT_EQ(clEnqueueReadImage(q, ocl_interop::get_mem_object(img), CL_TRUE, origin, region, 0, 0,
                      px.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
    const auto ref = reference_image(
            image_type::in_out_channel, d, 0, [&](int64_t n, int64_t c, int64_t h, int64_t w) {
                return v[size_t(((n * d[1] + c) * d[2] + h) * d[3] + w)];
            });
    EXPECT_EQ(px, ref.px);

    // A user buffer, replaced with set_mem_object.
    memory::desc nhwc(d, dt::f32, memory::format_tag::nhwc);
    cl_mem b1 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nhwc.get_size(), nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_mem b2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nhwc.get_size(), nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    memory bm = ocl_interop::make_memory(nhwc, e, b1);
    ocl_interop::set_mem_object(bm, b2);
    EXPECT_EQ(ocl_interop::get_mem_object(bm), b2);
    reorder(img, bm).execute(s, img, bm);
    s.wait();
    std::vector<float> out(v.size());
    ASSERT_EQ(clEnqueueReadBuffer(
                      q, b2, CL_TRUE, 0, nhwc.get_size(), out.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
    for (int64_t c = 0; c < d[1]; ++c)
        for (int64_t h = 0; h < d[2]; ++h)
            for (int64_t w = 0; w < d[3]; ++w)
                EXPECT_EQ(out[size_t((h * d[3] + w) * d[1] + c)],
                        v[size_t((c * d[2] + h) * d[3] + w)]);
    clReleaseMemObject(b1);
    clReleaseMemObject(b2);

    // A buffer that is too small, and an image where a buffer is expected.
    cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8, nullptr, &err);
    relayout_memory_t m = nullptr;
    EXPECT_EQ(
            relayout_ocl_memory_create(&m, nhwc.get(), e.get(), small), relayout_invalid_arguments);
    EXPECT_NE(std::string(relayout_get_last_error_message()).find("8 bytes"), std::string::npos);
    EXPECT_EQ(relayout_ocl_memory_create(&m, nhwc.get(), e.get(), ocl_interop::get_mem_object(img)),
            relayout_invalid_arguments);
    EXPECT_EQ(m, nullptr);
    clReleaseMemObject(small);
    clReleaseCommandQueue(q);
}

// ---- errors --------------------------------------------------------------------

TEST(OclErrors, ImageTooLargeNamesTheLimit) {
    NEED_DEVICE();
    cl_device_id dev = ocl_interop::get_device(gpu());
    size_t maxw = 0;
    ASSERT_EQ(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(maxw), &maxw, nullptr),
            CL_SUCCESS);
    const int64_t L = int64_t(maxw) * 4 + 4; // width maxw + 1
    auto md = image_desc(image_type::argument, { L }, dt::f32);
    relayout_memory_t m = nullptr;
    EXPECT_EQ(relayout_memory_create(&m, md.get(), gpu().get(), RELAYOUT_MEMORY_ALLOCATE),
            relayout_invalid_arguments);
    const std::string msg = relayout_get_last_error_message();
    EXPECT_NE(msg.find("CL_DEVICE_IMAGE2D_MAX_WIDTH"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(maxw + 1)), std::string::npos) << msg;
    // The reorder fails at creation too.
    memory::desc src({ L }, dt::f32, memory::format_tag::a);
    relayout_primitive_desc_t pd = nullptr;
    EXPECT_NE(relayout_reorder_primitive_desc_create(
                      &pd, src.get(), cpu().get(), md.get(), gpu().get(), nullptr),
            relayout_success);
    EXPECT_NE(std::string(relayout_get_last_error_message()).find("CL_DEVICE_IMAGE2D_MAX_WIDTH"),
            std::string::npos);
}

TEST(OclErrors, DepthwiseAndWinogradImagesHaveNoWayBack) {
    NEED_DEVICE();
    memory::desc buf({ 1, 8, 3, 3 }, dt::f32, memory::format_tag::oihw);
    for (auto t : { image_type::dw_conv2d_filter, image_type::winograd_filter }) {
        auto md = image_desc(t, { 1, 8, 3, 3 }, dt::f32, t == image_type::winograd_filter ? 4 : 0);
        for (engine *dst_eng : { &cpu(), &gpu() }) {
            relayout_primitive_desc_t pd = nullptr;
            EXPECT_EQ(relayout_reorder_primitive_desc_create(
                              &pd, md.get(), gpu().get(), buf.get(), dst_eng->get(), nullptr),
                    relayout_unimplemented);
            const std::string msg = relayout_get_last_error_message();
            EXPECT_NE(msg.find(to_string(t)), std::string::npos) << msg;
        }
    }
}

TEST(OclErrors, WrongEnginePairing) {
    NEED_DEVICE();
    const memory::dims d = { 1, 4, 2, 2 };
    auto imd = image_desc(image_type::in_out_channel, d, dt::f32);
    memory::desc buf(d, dt::f32, memory::format_tag::nchw);
    relayout_memory_t m = nullptr;
    // An image on the cpu engine.
    EXPECT_EQ(relayout_memory_create(&m, imd.get(), cpu().get(), RELAYOUT_MEMORY_ALLOCATE),
            relayout_invalid_arguments);
    // A reorder whose image side is given the cpu engine.
    relayout_primitive_desc_t pd = nullptr;
    EXPECT_NE(relayout_reorder_primitive_desc_create(
                      &pd, imd.get(), cpu().get(), buf.get(), gpu().get(), nullptr),
            relayout_success);
    EXPECT_NE(std::string(relayout_get_last_error_message()).find("ocl engine"), std::string::npos);
    // Executing with memories of other engines than the primitive's.
    memory img(imd, gpu());
    memory host(buf, cpu());
    memory dev(buf, gpu());
    reorder r(reorder::primitive_desc(cpu(), buf, gpu(), imd)); // cpu -> image
    stream s(gpu());
    relayout_exec_arg_t args[2] = { { RELAYOUT_ARG_SRC, dev.get() },
        { RELAYOUT_ARG_DST, img.get() } };
    EXPECT_EQ(relayout_primitive_execute(r.get(), s.get(), 2, args), relayout_invalid_arguments);
    // A device memory of another context.
    cl_int err = CL_SUCCESS;
    cl_device_id dev_id = ocl_interop::get_device(gpu());
    cl_context other = clCreateContext(nullptr, 1, &dev_id, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    engine e2 = ocl_interop::make_engine(dev_id, other);
    memory img2(imd, e2);
    relayout_exec_arg_t args2[2] = { { RELAYOUT_ARG_SRC, host.get() },
        { RELAYOUT_ARG_DST, img2.get() } };
    EXPECT_EQ(relayout_primitive_execute(r.get(), s.get(), 2, args2), relayout_invalid_arguments);
    // An ocl buffer of engine e2 cannot wrap a cl_mem of the default context.
    EXPECT_EQ(relayout_ocl_memory_create(&m, buf.get(), e2.get(), ocl_interop::get_mem_object(dev)),
            relayout_invalid_arguments);
    clReleaseContext(other);
}

TEST(OclErrors, ImageDescriptorFieldsAreChecked) {
    relayout_memory_desc_t md = nullptr;
    relayout_dims_t d = { 1, 8, 5, 5 };
    EXPECT_EQ(relayout_memory_desc_create_image2d(
                      &md, relayout_image_winograd_filter, 4, d, relayout_f32, 4),
            relayout_invalid_arguments); // 5x5 kernel
    EXPECT_NE(std::string(relayout_get_last_error_message()).find("3x3"), std::string::npos);
    d[2] = d[3] = 3;
    EXPECT_EQ(relayout_memory_desc_create_image2d(
                      &md, relayout_image_winograd_filter, 4, d, relayout_f32, 3),
            relayout_invalid_arguments);
    EXPECT_NE(std::string(relayout_get_last_error_message()).find("winograd_b"), std::string::npos);
    EXPECT_EQ(relayout_memory_desc_create_image2d(
                      &md, relayout_image_conv2d_filter, 4, d, relayout_s8, 0),
            relayout_invalid_arguments);
    EXPECT_EQ(relayout_memory_desc_create_image2d(
                      &md, (relayout_image_type_t)42, 4, d, relayout_f32, 0),
            relayout_invalid_arguments);
    EXPECT_EQ(md, nullptr);
    // Strings.
    relayout_image_type_t t = relayout_image_type_undef;
    EXPECT_EQ(relayout_str2image_type("IN_OUT_WIDTH", &t), relayout_success);
    EXPECT_EQ(t, relayout_image_in_out_width);
    EXPECT_EQ(relayout_str2image_type("winograd_filter", &t), relayout_success);
    EXPECT_EQ(t, relayout_image_winograd_filter);
    EXPECT_STREQ(relayout_image_type2str(relayout_image_weight_width), "weight_width");
    EXPECT_NE(relayout_str2image_type("nope", &t), relayout_success);
    // Shape, size, equality.
    auto a = image_desc(image_type::in_out_height, { 2, 3, 5, 6 }, dt::f16);
    auto b = image_desc(image_type::in_out_width, { 2, 3, 5, 6 }, dt::f16);
    EXPECT_EQ(image_shape(a), std::make_pair(int64_t(6 * 3), int64_t(2 * 2)));
    EXPECT_EQ(a.get_size(), size_t(18 * 4 * 4 * 2));
    EXPECT_FALSE(a == b);
    EXPECT_TRUE(a == image_desc(image_type::in_out_height, { 2, 3, 5, 6 }, dt::f16));
    EXPECT_EQ(str2image_type("ARGUMENT"), image_type::argument);
}

// ---- misc ------------------------------------------------------------------------

TEST(OclMisc, VerboseShowsOclGen) {
    NEED_DEVICE();
    const memory::dims d = { 1, 3, 4, 4 };
    memory::desc nchw(d, dt::f32, memory::format_tag::nchw);
    auto imd = image_desc(image_type::in_out_channel, d, dt::f16);
    std::vector<float> v(48, 1.f);
    memory src(nchw, cpu(), v.data());
    memory img(imd, gpu());
    stream s(gpu());
    relayout_set_verbose(1);
    ::testing::internal::CaptureStdout();
    reorder r(reorder::primitive_desc(cpu(), nchw, gpu(), imd));
    r.execute(s, src, img);
    s.wait();
    const std::string out = ::testing::internal::GetCapturedStdout();
    relayout_set_verbose(0);
    EXPECT_NE(out.find("ocl:gen"), std::string::npos) << out;
    EXPECT_NE(out.find("pack:"), std::string::npos) << out;
    EXPECT_NE(out.find("exec,reorder,ocl:gen"), std::string::npos) << out;
}

TEST(OclMisc, ZeroVolumeDoesNothing) {
    NEED_DEVICE();
    const memory::dims d = { 0, 3, 4, 4 };
    memory::desc nchw(d, dt::f32, memory::format_tag::nchw);
    auto imd = image_desc(image_type::in_out_channel, d, dt::f32);
    memory src(nchw, cpu(), nullptr);
    memory img(imd, gpu());
    stream s(gpu());
    reorder(src, img).execute(s, src, img);
    s.wait();
}

TEST(OclMisc, KernelsAreCachedPerProblem) {
    NEED_DEVICE();
    const memory::dims d = { 1, 7, 3, 3 };
    memory::desc nchw(d, dt::f32, memory::format_tag::nchw);
    relayout_set_verbose(1);
    ::testing::internal::CaptureStdout();
    for (int i = 0; i < 2; ++i) {
        auto imd = image_desc(image_type::in_out_height, d, dt::f32);
        reorder r(reorder::primitive_desc(gpu(), nchw, gpu(), imd));
    }
    // Same dims, other type: another kernel.
    reorder r2(reorder::primitive_desc(
            gpu(), nchw, gpu(), image_desc(image_type::in_out_width, d, dt::f32)));
    const std::string out = ::testing::internal::GetCapturedStdout();
    relayout_set_verbose(0);
    size_t hits = 0, misses = 0;
    for (size_t p = out.find("create:"); p != std::string::npos; p = out.find("create:", p + 1)) {
        if (out.compare(p, 16, "create:cache_hit") == 0) ++hits;
        if (out.compare(p, 17, "create:cache_miss") == 0) ++misses;
    }
    EXPECT_EQ(hits, 1u) << out;
    EXPECT_EQ(misses, 2u) << out;
}

TEST(OclMisc, CpuStreamMakesExecuteBlocking) {
    NEED_DEVICE();
    const memory::dims d = { 2, 4, 3, 3 };
    memory::desc nchw(d, dt::f32, memory::format_tag::nchw);
    std::vector<float> v = make_values(72), out(72, 0.f);
    memory src(nchw, cpu(), v.data());
    memory dev(memory::desc(d, dt::f32, memory::format_tag::nhwc), gpu());
    memory host(nchw, cpu(), out.data());
    stream cs(cpu());
    reorder(src, dev).execute(cs, src, dev);
    reorder(dev, host).execute(cs, dev, host);
    EXPECT_EQ(out, v);
}

TEST(OclMisc, GeneratedSourceCanBeQueried) {
    NEED_DEVICE();
    const memory::dims d = { 2, 5, 3, 3 };
    memory::desc nchw(d, dt::f32, memory::format_tag::nchw);
    memory::desc blk(d, dt::f32, memory::format_tag::nChw16c);
    auto imd = image_desc(image_type::in_out_height, d, dt::f16);
    const std::string a = ocl_interop::get_source(reorder::primitive_desc(cpu(), nchw, gpu(), imd));
    EXPECT_NE(a.find("// ---- step 2: pack:"), std::string::npos) << a;
    EXPECT_NE(a.find("__kernel void rl_pack"), std::string::npos) << a;
    const std::string b = ocl_interop::get_source(reorder::primitive_desc(gpu(), blk, gpu(), imd));
    EXPECT_NE(b.find("rl_reorder"), std::string::npos) << b; // to a plain temp first
    EXPECT_NE(b.find("rl_pack"), std::string::npos) << b;
    EXPECT_EQ(ocl_interop::get_source(reorder::primitive_desc(cpu(), nchw, gpu(), nchw)), "");
    const char *s = nullptr;
    EXPECT_EQ(relayout_ocl_primitive_desc_query_source(
                      reorder::primitive_desc(cpu(), nchw, cpu(), blk).get(), &s),
            relayout_invalid_arguments);
}

TEST(OclMisc, EngineIndexOutOfRange) {
    NEED_DEVICE();
    size_t n = 0;
    ASSERT_EQ(relayout_engine_get_count(relayout_ocl, &n), relayout_success);
    relayout_engine_t e = nullptr;
    EXPECT_EQ(relayout_engine_create(&e, relayout_ocl, n), relayout_invalid_arguments);
    EXPECT_EQ(e, nullptr);
    EXPECT_NE(
            std::string(relayout_get_last_error_message()).find("out of range"), std::string::npos);
    // Engines of one index share the device context.
    engine a(engine::kind::ocl, 0), b(engine::kind::ocl, 0);
    EXPECT_EQ(ocl_interop::get_context(a), ocl_interop::get_context(b));
}

TEST(OclMisc, SameLayoutDeviceCopyAndSumFromTheCpu) {
    NEED_DEVICE();
    const memory::dims d = { 3, 20, 2, 2 };
    memory::desc md(d, dt::f32, memory::format_tag::nChw16c);
    memory::desc plain(d, dt::f32, memory::format_tag::nchw);
    std::vector<float> v(240), w(240, 1.f), out(240);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = float(i);
    memory pv(plain, cpu(), v.data()), pw(plain, cpu(), w.data()), po(plain, cpu(), out.data());
    memory a(md, gpu()), b(md, gpu());
    stream s(gpu());
    reorder(pv, a).execute(s, pv, a);
    reorder::primitive_desc pd(gpu(), md, gpu(), md);
    EXPECT_NE(pd.plan_str().find("copy:"), std::string::npos) << pd.plan_str();
    reorder(pd).execute(s, a, b);
    reorder(pd).execute(s, b, b); // in place, one layout: nothing to do
    // dst = 2 * src + 0.5 * dst_old, with the dst on the device.
    memory c(plain, gpu());
    reorder(pw, c).execute(s, pw, c);
    primitive_attr attr;
    attr.set_scales(RELAYOUT_ARG_SRC, 0, { 2.f });
    attr.set_post_ops_sum(0.5f);
    reorder(reorder::primitive_desc(cpu(), plain, gpu(), plain, attr)).execute(s, pv, c);
    reorder(c, po).execute(s, c, po);
    for (size_t i = 0; i < v.size(); ++i)
        ASSERT_EQ(out[i], 2.f * v[i] + 0.5f) << i;
    reorder(b, po).execute(s, b, po);
    EXPECT_EQ(out, v);
}

TEST(OclMisc, OnePrimitiveFromManyThreads) {
    NEED_DEVICE();
    const memory::dims d = { 2, 7, 5, 5 };
    memory::desc nchw(d, dt::f32, memory::format_tag::nchw);
    auto imd = image_desc(image_type::in_out_width, d, dt::f16);
    reorder pack(reorder::primitive_desc(cpu(), nchw, gpu(), imd));
    reorder unpack(reorder::primitive_desc(gpu(), imd, cpu(), nchw));
    std::vector<std::thread> threads;
    std::atomic<int> bad{ 0 };
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            std::vector<float> v(350), out(350, 0.f);
            for (size_t i = 0; i < v.size(); ++i)
                v[i] = float(int(i) * (t + 1) % 512);
            memory src(nchw, cpu(), v.data()), dst(nchw, cpu(), out.data());
            memory img(imd, gpu());
            stream s(gpu());
            for (int it = 0; it < 10; ++it) {
                pack.execute(s, src, img);
                unpack.execute(s, img, dst);
                if (out != v) ++bad;
            }
        });
    for (auto &th : threads)
        th.join();
    EXPECT_EQ(bad.load(), 0);
}

} // namespace
