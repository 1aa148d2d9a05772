// benchdnn_lite --self-test: the driver checks itself before it judges the
// library. Hand-computed cases for the numerics, the offset formula, the
// compensation and the parser; no library call is made.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

#include "fill.hpp"
#include "layout.hpp"
#include "parser.hpp"
#include "reference.hpp"

namespace bdl {

namespace {
int n_checks = 0, n_failed = 0;

#define ST_CHECK(cond)                                                                             \
    do {                                                                                           \
        ++n_checks;                                                                                \
        if (!(cond)) {                                                                             \
            ++n_failed;                                                                            \
            printf("self-test: FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);                    \
        }                                                                                          \
    } while (0)
#define ST_EQ(a, b)                                                                                \
    do {                                                                                           \
        ++n_checks;                                                                                \
        const auto va_ = (a);                                                                      \
        const auto vb_ = (b);                                                                      \
        if (!(va_ == vb_)) {                                                                       \
            ++n_failed;                                                                            \
            printf("self-test: FAILED %s:%d: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, #a,   \
                    #b, (long long)va_, (long long)vb_);                                           \
        }                                                                                          \
    } while (0)

const float qnan = std::numeric_limits<float>::quiet_NaN();

void test_integer_conversion() {
    // Round half to even.
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(2.5f, relayout_s8), relayout_s8), 2);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(3.5f, relayout_s8), relayout_s8), 4);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(-2.5f, relayout_s8), relayout_s8), -2);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(-0.5f, relayout_s8), relayout_s8), 0);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(0.5f, relayout_u8), relayout_u8), 0);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(1.5f, relayout_u8), relayout_u8), 2);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(-3.5f, relayout_s16), relayout_s16), -4);
    // Saturation (in float, before rounding).
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(127.5f, relayout_s8), relayout_s8), 127);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(-128.5f, relayout_s8), relayout_s8), -128);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(300.f, relayout_u8), relayout_u8), 255);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(-1.f, relayout_u8), relayout_u8), 0);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(40000.f, relayout_s16), relayout_s16), 32767);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(-40000.f, relayout_s16), relayout_s16), -32768);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(70000.f, relayout_u16), relayout_u16), 65535);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(-5.f, relayout_u16), relayout_u16), 0);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(3e9f, relayout_s32), relayout_s32), 2147483520);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(2147483648.f, relayout_s32), relayout_s32), 2147483520);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(-3e9f, relayout_s32), relayout_s32), INT32_MIN);
    // NaN -> the type's lowest value.
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(qnan, relayout_s8), relayout_s8), -128);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(qnan, relayout_u8), relayout_u8), 0);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(qnan, relayout_s16), relayout_s16), -32768);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(qnan, relayout_u16), relayout_u16), 0);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(qnan, relayout_s32), relayout_s32), INT32_MIN);
    ST_EQ(dt_bits_to_int(f32_to_dt_bits(-qnan, relayout_s8), relayout_s8), -128);
    // s32 widening rounds to nearest even.
    ST_CHECK(dt_bits_to_f32(16777217u, relayout_s32) == 16777216.f);
    ST_CHECK(dt_bits_to_f32(uint32_t(INT32_MAX), relayout_s32) == 2147483648.f);
}

void test_bf16() {
    ST_EQ(f32_to_bf16(1.f), 0x3f80);
    ST_EQ(f32_to_bf16(1.00390625f), 0x3f80);        // 1 + 2^-8: tie, to even
    ST_EQ(f32_to_bf16(1.01171875f), 0x3f82);        // 1 + 3*2^-8: tie, to even
    ST_EQ(f32_to_bf16(1.0078125f + 1e-7f), 0x3f81); // not a tie
    ST_EQ(f32_to_bf16(-0.f), 0x8000);
    ST_EQ(f32_to_bf16(bits_f32(0x7f7fffffu)), 0x7f80); // max float -> inf
    ST_EQ(f32_to_bf16(-INFINITY), 0xff80);
    ST_CHECK(dt_bits_is_nan(f32_to_bf16(qnan), relayout_bf16));
    ST_CHECK(dt_bits_is_nan(f32_to_bf16(bits_f32(0x7f800001u)), relayout_bf16)); // sNaN
    ST_CHECK(bf16_to_f32(0x4049) == 3.140625f);
}

void test_f16() {
    ST_EQ(f32_to_f16(1.f), 0x3c00);
    ST_EQ(f32_to_f16(-2.f), 0xc000);
    ST_EQ(f32_to_f16(65504.f), 0x7bff);
    ST_EQ(f32_to_f16(65519.f), 0x7bff);
    ST_EQ(f32_to_f16(65520.f), 0x7c00); // tie between max and 2^16: to inf
    ST_EQ(f32_to_f16(1e10f), 0x7c00);
    ST_EQ(f32_to_f16(1.f + 1.f / 2048), 0x3c00);          // tie, to even
    ST_EQ(f32_to_f16(1.f + 3.f / 2048), 0x3c02);          // tie, to even
    ST_EQ(f32_to_f16(std::ldexp(1.f, -14)), 0x0400);      // smallest normal
    ST_EQ(f32_to_f16(std::ldexp(1.f, -24)), 0x0001);      // smallest subnormal
    ST_EQ(f32_to_f16(std::ldexp(1.f, -25)), 0x0000);      // tie with 0, to even
    ST_EQ(f32_to_f16(std::ldexp(3.f, -25)), 0x0002);      // 1.5 units, to even
    ST_EQ(f32_to_f16(-std::ldexp(1023.5f, -24)), 0x8400); // rounds up to normal
    ST_CHECK(dt_bits_is_nan(f32_to_f16(qnan), relayout_f16));
    ST_CHECK(f16_to_f32(0x0001) == std::ldexp(1.f, -24));
    // Every f16 survives f16 -> f32 -> f16.
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const uint16_t back = f32_to_f16(f16_to_f32(uint16_t(h)));
        if (dt_bits_is_nan(h, relayout_f16) ? !dt_bits_is_nan(back, relayout_f16) : back != h)
            ++bad;
    }
    ST_EQ(bad, 0);
#ifdef __FLT16_MAX__
    // Cross-check with the compiler's conversion on many floats.
    bad = 0;
    for (uint32_t i = 0; i < 2000000; ++i) {
        const uint32_t u = i * 2654435761u;
        const float f = bits_f32(u);
        if (std::isnan(f)) continue;
        const _Float16 h = (_Float16)f;
        uint16_t hb;
        std::memcpy(&hb, &h, 2);
        if (hb != f32_to_f16(f)) ++bad;
    }
    ST_EQ(bad, 0);
#endif
}

void test_ref_elem() {
    elem_params_t p;
    ST_EQ(dt_bits_to_int(ref_elem(2.5f, 0, p, relayout_s8), relayout_s8), 2);
    p.src_scale = 0.5f;
    p.src_zp = 3;
    ST_EQ(dt_bits_to_int(ref_elem(10.f, 0, p, relayout_s8), relayout_s8), 4); // 3.5
    p.has_sum = true;
    p.beta = 2.f;
    p.dst_zp = 1; // 3.5 + 2 * (5 - 1) = 11.5; 11.5 / 1 + 1 = 12.5 -> 12
    ST_EQ(dt_bits_to_int(ref_elem(10.f, 5.f, p, relayout_s8), relayout_s8), 12);
    elem_params_t q;
    q.dst_scale = 4.f; // 7 / 4 = 1.75 -> 2
    ST_EQ(dt_bits_to_int(ref_elem(7.f, 0, q, relayout_u8), relayout_u8), 2);
    q.has_scale_adjust = true;
    q.scale_adjust = 0.5f; // 1.75 * 0.5 = 0.875 -> 1
    ST_EQ(dt_bits_to_int(ref_elem(7.f, 0, q, relayout_s8), relayout_s8), 1);
    // The division is a real one: 1 / 3 computed as a quotient.
    elem_params_t r;
    r.dst_scale = 3.f;
    ST_EQ(ref_elem(1.f, 0, r, relayout_f32), f32_bits(1.f / 3.f));
}

void test_bits_match() {
    const uint32_t nan1 = 0x7fc00000u, nan2 = 0x7fc00001u;
    ST_CHECK(bits_match(nan1, nan2, relayout_f32, false));
    ST_CHECK(!bits_match(nan1, nan2, relayout_f32, true)); // bit copy: payload kept
    ST_CHECK(!bits_match(nan1, f32_bits(1.f), relayout_f32, false));
    ST_CHECK(!bits_match(f32_bits(1.f), nan1, relayout_f32, false));
    ST_CHECK(bits_match(0x7e00u, 0x7e01u, relayout_f16, false));
    ST_CHECK(bits_match(0x0000u, 0x8000u, relayout_bf16, false));
    ST_CHECK(!bits_match(0x0000u, 0x8000u, relayout_bf16, true));
    ST_CHECK(!bits_match(1u, 2u, relayout_s8, false));
    ST_CHECK(!bits_match(f32_bits(1.f), f32_bits(1.0000001f), relayout_f32, false));
}

layout_t plain_layout(const dims_t &dims, dt_t dt) {
    layout_t l;
    l.ndims = int(dims.size());
    l.dims = l.padded_dims = dims;
    l.padded_offsets.assign(dims.size(), 0);
    l.strides.assign(dims.size(), 1);
    for (int d = l.ndims - 2; d >= 0; --d)
        l.strides[d] = l.strides[d + 1] * dims[d + 1];
    l.dt = dt;
    l.size = size_t(volume(dims)) * dt_size(dt);
    return l;
}

void test_offsets() {
    // nChw16c, 2x17x5x3: C padded to 32; strides w 16, h 48, C-block 240, n 480.
    layout_t a;
    a.ndims = 4;
    a.dims = { 2, 17, 5, 3 };
    a.padded_dims = { 2, 32, 5, 3 };
    a.padded_offsets = { 0, 0, 0, 0 };
    a.strides = { 480, 240, 48, 16 };
    a.nblks = 1;
    a.blks = { 16 };
    a.idxs = { 1 };
    const int64_t pa[] = { 1, 17, 2, 1 }; // 1 + 480 + 240 + 96 + 16
    ST_EQ(a.off(pa), 833);
    const int64_t pa0[] = { 0, 15, 0, 0 };
    ST_EQ(a.off(pa0), 15);

    // OIhw4i16o4i, 20x10x3x3: O padded 32, I padded 16, 256-element block.
    layout_t w;
    w.ndims = 4;
    w.dims = { 20, 10, 3, 3 };
    w.padded_dims = { 32, 16, 3, 3 };
    w.padded_offsets = { 0, 0, 0, 0 };
    w.strides = { 2304, 2304, 768, 256 };
    w.nblks = 3;
    w.blks = { 4, 16, 4 };
    w.idxs = { 1, 0, 1 };
    // o=17 i=9 h=2 w=1: (9%4)*1 + (17%16)*4 + (2%4)*64 + 1*2304 + 2*768 + 1*256
    const int64_t pw[] = { 17, 9, 2, 1 };
    ST_EQ(w.off(pw), 4229);
    w.offset0 = 7;
    ST_EQ(w.off(pw), 4236);

    // Compensation indexing over padded masked dims (mask 3 on goihw).
    layout_t g = plain_layout({ 2, 20, 10, 3, 3 }, relayout_s8);
    g.padded_dims = { 2, 32, 16, 3, 3 };
    const int64_t pg[] = { 1, 5, 3, 2, 2 };
    ST_EQ(g.comp_index(pg, 3), 1 * 32 + 5);
    ST_EQ(g.comp_count(3), 64);
    ST_EQ(g.comp_count(1), 2);
}

void test_reference() {
    // f32 abc 1x3x2 -> s8 acb with per_dim_1 src scale 2 (values 2, 1, 4).
    prb_t prb;
    prb.dims = { 1, 3, 2 };
    prb.sdt = relayout_f32;
    prb.ddt = relayout_s8;
    prb.attr.src_scale = { true, 2, 2.f };
    const layout_t src_l = plain_layout(prb.dims, relayout_f32);
    layout_t dst_l = plain_layout(prb.dims, relayout_s8);
    dst_l.strides = { 6, 1, 3 }; // acb
    const float src[6] = { 1.25f, -1.25f, 0.5f, 100.f, 0.625f, -0.375f };
    std::vector<uint32_t> exp;
    compute_ref(prb, src_l, src, dst_l, nullptr, exp);
    // 2.5->2, -2.5->-2, 0.5->0, 100->100, 2.5->2, -1.5->-2
    const int64_t want[6] = { 2, -2, 0, 100, 2, -2 };
    for (int i = 0; i < 6; ++i)
        ST_EQ(dt_bits_to_int(exp[size_t(i)], relayout_s8), want[i]);
    ST_CHECK(!prb.is_bit_copy());
    prb_t copy;
    copy.sdt = copy.ddt = relayout_s8;
    copy.attr.src_scale = { true, 0, 1.f };
    ST_CHECK(copy.is_bit_copy());

    // Compensation of an s8 2x3 (mask 1): comp[o] = -128 * sum_i q[o][i].
    layout_t c = plain_layout({ 2, 3 }, relayout_s8);
    c.padded_dims = { 4, 3 }; // two padded rows: their entries must be 0
    const int8_t q[6] = { 1, -2, 3, 127, -128, 5 };
    std::vector<int32_t> comp;
    compute_comp(c, q, 1, -128, comp);
    ST_EQ(comp.size(), 4u);
    ST_EQ(comp[0], -256);
    ST_EQ(comp[1], -512);
    ST_EQ(comp[2], 0);
    compute_comp(c, q, 1, -1, comp);
    ST_EQ(comp[1], -4);

    // The default fill never produces NaN and does produce ties and -0.
    bool nan = false, tie = false, neg_zero = false;
    for (int64_t i = 0; i < 4096; ++i) {
        const float v = bits_f32(src_value(relayout_f32, i));
        nan |= std::isnan(v);
        tie |= v - std::floor(v) == 0.5f;
        neg_zero |= f32_bits(v) == 0x80000000u;
    }
    ST_CHECK(!nan && tie && neg_zero);
}

void test_parser() {
    std::string err;
    dims_t d;
    ST_CHECK(parse_dims("2x17x5x3", d, err) && d == dims_t({ 2, 17, 5, 3 }));
    ST_CHECK(parse_dims("0x16x3x3", d, err) && d[0] == 0);
    ST_CHECK(!parse_dims("2xx3", d, err));
    ST_CHECK(!parse_dims("2x-1", d, err));
    ST_CHECK(!parse_dims("1x2x3x4x5x6x7x8x9x10x11x12x13", d, err));

    attr_t a;
    ST_CHECK(parse_scales("src:common:2+dst:per_dim_1:0.5", a, err));
    ST_CHECK(a.src_scale.present && a.src_scale.mask == 0 && a.src_scale.value == 2.f);
    ST_CHECK(a.dst_scale.present && a.dst_scale.mask == 2 && a.dst_scale.value == 0.5f);
    attr_t b;
    ST_CHECK(parse_scales("src:per_dim_01:3", b, err) && b.src_scale.mask == 3);
    ST_CHECK(!parse_scales("wei:common:2", b, err));
    ST_CHECK(!parse_scales("src:per_tensor:2", b, err));
    ST_CHECK(!parse_scales("src:common:x", b, err));
    attr_t c;
    ST_CHECK(parse_oscale("common:0.25", c, err) && c.src_scale.value == 0.25f);
    ST_CHECK(parse_zero_points("src:common:3+dst:common:-2", c, err));
    ST_CHECK(c.src_zp == 3 && c.dst_zp == -2);
    ST_CHECK(!parse_zero_points("src:per_dim_1:3", c, err));
    ST_CHECK(parse_post_ops("sum:0.5", c, err) && c.has_sum && c.sum_beta == 0.5f);
    attr_t e;
    ST_CHECK(parse_post_ops("sum", e, err) && e.has_sum && e.sum_beta == 1.f);
    ST_CHECK(!parse_post_ops("relu", e, err));
    oflag_t o;
    ST_CHECK(parse_oflag("s8s8_comp:1+zp_comp:3", o, err));
    ST_CHECK(o.s8s8_mask == 1 && o.zp_mask == 3
             && o.flags()
                        == (relayout_extra_flag_compensation_conv_s8s8
                                | relayout_extra_flag_compensation_conv_asymmetric_src));
    ST_CHECK(!parse_oflag("s8s8:1", o, err));
    dims_t s, t;
    ST_CHECK(parse_strides("8x4x2x1:", s, t, err) && s.size() == 4 && t.empty());
    ST_CHECK(parse_strides(":1x2", s, t, err) && s.empty() && t == dims_t({ 1, 2 }));
    ST_CHECK(!parse_strides("1x2", s, t, err));

    settings_t st;
    ST_CHECK(parse_knob(st, "--reorder", err));
    ST_CHECK(parse_knob(st, "--sdt=f32,s8", err) && st.sdt.size() == 2);
    ST_CHECK(!parse_knob(st, "--sdt=f64", err));
    ST_CHECK(!parse_knob(st, "--no-such-knob=1", err));
    ST_CHECK(!parse_knob(st, "--mode=X", err));
    ST_CHECK(parse_knob(st, "--mode=cp", err));
    ST_CHECK(parse_knob(st, "--dtag=nchw,nChw16c", err));
    std::vector<prb_t> prbs;
    ST_CHECK(expand_problems(st, "2x17x5x3", prbs, err));
    ST_EQ(prbs.size(), 4u);
    if (prbs.size() == 4) {
        ST_CHECK(prbs[0].repro == "--reorder --dtag=nchw 2x17x5x3");
        ST_CHECK(prbs[3].repro == "--reorder --sdt=s8 --dtag=nChw16c 2x17x5x3");
        ST_CHECK(prbs[3].sdt == relayout_s8 && prbs[3].mode == mode_t::both);
    }
    ST_CHECK(parse_knob(st, "--attr-scales=src:per_dim_3:2", err));
    prbs.clear();
    ST_CHECK(!expand_problems(st, "2x3", prbs, err)); // mask beyond ndims
    settings_t st3;
    ST_CHECK(!parse_knob(st3, "--cross-engine=gpu", err));
    ST_CHECK(parse_knob(st3, "--engine=ocl", err) && parse_knob(st3, "--cross-engine=none", err));
    prbs.clear();
    ST_CHECK(expand_problems(st3, "2x3", prbs, err) && prbs.size() == 1);
    if (prbs.size() == 1) {
        ST_CHECK(prbs[0].cross_engine == "none");
        ST_CHECK(prbs[0].repro == "--reorder --engine=ocl --cross-engine=none 2x3");
    }
    settings_t st2;
    ST_CHECK(parse_knob(st2, "--strides=1x2x3:", err));
    prbs.clear();
    ST_CHECK(!expand_problems(st2, "2x3", prbs, err)); // wrong stride count

    // Batch tokens: comments and blank lines.
    const char *path = "/tmp/benchdnn_lite_self_test.batch";
    {
        std::ofstream f(path);
        f << "# comment\n--sdt=f32  --ddt=s8 # trailing\n\n2x3#x4\n";
    }
    std::vector<std::string> tokens;
    ST_CHECK(read_batch_tokens(path, tokens, err));
    ST_CHECK(tokens == std::vector<std::string>({ "--sdt=f32", "--ddt=s8", "2x3" }));
    std::remove(path);
    ST_CHECK(!read_batch_tokens("/nonexistent/batch", tokens, err));
}
} // namespace

int run_self_test() {
    test_integer_conversion();
    test_bf16();
    test_f16();
    test_ref_elem();
    test_bits_match();
    test_offsets();
    test_reference();
    test_parser();
    printf("self-test: %d checks, %d failed\n", n_checks, n_failed);
    printf("benchdnn_lite: %d passed, %d failed\n", n_checks - n_failed, n_failed);
    return n_failed ? 1 : 0;
}

} // namespace bdl
