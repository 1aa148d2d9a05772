// Reorder numerics through the public API (DESIGN §8): saturation, rounding,
// NaN, bf16/f16 conversions by bit pattern, identity bit copies, scales,
// zero points, the sum post-op and int8 weight compensation.
#include <gtest/gtest.h>

#include <cinttypes>
#include <climits>
#include <limits>

#include "api_test_utils.hpp"

using namespace api_test;

namespace {

// Converts a 1D vector of S (type sdt) into a vector of D (type ddt).
template <typename D, typename S>
std::vector<D> convert(dt sdt, dt ddt, std::vector<S> src,
        const primitive_attr &attr = primitive_attr(), std::vector<D> dst_init = {}) {
    const dim_t n = (dim_t)src.size();
    const memory::desc smd({ n }, sdt, tag::a), dmd({ n }, ddt, tag::a);
    std::vector<D> dst(src.size());
    if (!dst_init.empty()) dst = dst_init;
    memory sm(smd, cpu_engine(), src.data()), dm(dmd, cpu_engine(), dst.data());
    run_reorder(sm, dm, attr);
    return dst;
}

primitive_attr scales_attr(int arg, int mask, std::vector<float> v) {
    primitive_attr a;
    a.set_scales(arg, mask, v);
    return a;
}

template <typename T>
std::string str(T v) {
    return std::to_string(v);
}

} // namespace

// ---- saturation ---------------------------------------------------------------

struct sat_case_t {
    const char *name;
    dt ddt;
    float in;
    int64_t out;
};
API_TEST_PRINT_BY_NAME(sat_case_t)
class Saturation : public ::testing::TestWithParam<sat_case_t> {};

TEST_P(Saturation, F32ToIntegerClampsThenRounds) {
    const auto &c = GetParam();
    int64_t got = 0;
    switch (c.ddt) {
        case dt::s8: got = convert<int8_t>(dt::f32, c.ddt, std::vector<float>{ c.in })[0]; break;
        case dt::u8: got = convert<uint8_t>(dt::f32, c.ddt, std::vector<float>{ c.in })[0]; break;
        case dt::s16: got = convert<int16_t>(dt::f32, c.ddt, std::vector<float>{ c.in })[0]; break;
        case dt::u16: got = convert<uint16_t>(dt::f32, c.ddt, std::vector<float>{ c.in })[0]; break;
        case dt::s32: got = convert<int32_t>(dt::f32, c.ddt, std::vector<float>{ c.in })[0]; break;
        default: FAIL();
    }
    EXPECT_EQ(got, c.out) << "f32 " << c.in << " -> " << dt_name(c.ddt);
}

const float inf = std::numeric_limits<float>::infinity();
const float qnan = std::numeric_limits<float>::quiet_NaN();

const sat_case_t sat_cases[] = {
    { "s8_above", dt::s8, 200.f, 127 },
    { "s8_127_6", dt::s8, 127.6f, 127 },
    { "s8_127_4", dt::s8, 127.4f, 127 },
    { "s8_below", dt::s8, -129.f, -128 },
    { "s8_m128_4", dt::s8, -128.4f, -128 },
    { "s8_huge", dt::s8, 1e30f, 127 },
    { "s8_inf", dt::s8, inf, 127 },
    { "s8_minus_inf", dt::s8, -inf, -128 },
    { "s8_nan", dt::s8, qnan, -128 },
    { "s8_minus_nan", dt::s8, -qnan, -128 },
    { "u8_negative", dt::u8, -1.f, 0 },
    { "u8_m0_4", dt::u8, -0.4f, 0 },
    { "u8_255_5", dt::u8, 255.5f, 255 },
    { "u8_above", dt::u8, 300.f, 255 },
    { "u8_254_5_even", dt::u8, 254.5f, 254 },
    { "u8_253_5_even", dt::u8, 253.5f, 254 },
    { "u8_inf", dt::u8, inf, 255 },
    { "u8_minus_inf", dt::u8, -inf, 0 },
    { "u8_nan", dt::u8, qnan, 0 },
    { "s16_32767_5", dt::s16, 32767.5f, 32767 },
    { "s16_above", dt::s16, 40000.f, 32767 },
    { "s16_below", dt::s16, -40000.f, -32768 },
    { "s16_minus_inf", dt::s16, -inf, -32768 },
    { "s16_nan", dt::s16, qnan, -32768 },
    { "u16_65535_4", dt::u16, 65535.4f, 65535 },
    { "u16_above", dt::u16, 70000.f, 65535 },
    { "u16_negative", dt::u16, -5.f, 0 },
    { "u16_nan", dt::u16, qnan, 0 },
    // s32: the largest float below 2^31 is 2147483520.
    { "s32_upper_bound", dt::s32, 2147483520.f, 2147483520 },
    { "s32_two_pow_31", dt::s32, 2147483648.f, 2147483520 },
    { "s32_3e9", dt::s32, 3e9f, 2147483520 },
    { "s32_inf", dt::s32, inf, 2147483520 },
    { "s32_minus_inf", dt::s32, -inf, INT32_MIN },
    { "s32_lowest", dt::s32, -2147483648.f, INT32_MIN },
    { "s32_below", dt::s32, -3e9f, INT32_MIN },
    { "s32_nan", dt::s32, qnan, INT32_MIN },
    { "s32_minus_nan", dt::s32, -qnan, INT32_MIN },
    { "s32_exact_large", dt::s32, 16777216.f, 16777216 },
};
INSTANTIATE_TEST_SUITE_P(Bounds, Saturation, ::testing::ValuesIn(sat_cases),
        [](const ::testing::TestParamInfo<sat_case_t> &i) { return std::string(i.param.name); });

// ---- round half to even -------------------------------------------------------

TEST(Rounding, HalfToEvenForEveryIntegerType) {
    const std::vector<float> in = { 0.5f, 1.5f, 2.5f, 3.5f, -0.5f, -1.5f, -2.5f, 0.49999997f,
        0.50000006f, -2.5000002f, 7.f };
    const std::vector<int> want = { 0, 2, 2, 4, 0, -2, -2, 0, 1, -3, 7 };
    const auto s32 = convert<int32_t>(dt::f32, dt::s32, in);
    const auto s16 = convert<int16_t>(dt::f32, dt::s16, in);
    const auto s8 = convert<int8_t>(dt::f32, dt::s8, in);
    for (size_t i = 0; i < in.size(); ++i) {
        EXPECT_EQ(s32[i], want[i]) << in[i];
        EXPECT_EQ(s16[i], want[i]) << in[i];
        EXPECT_EQ(s8[i], want[i]) << in[i];
    }
    const auto u8 =
            convert<uint8_t>(dt::f32, dt::u8, std::vector<float>{ 0.5f, 1.5f, 2.5f, 128.5f });
    EXPECT_EQ(u8, (std::vector<uint8_t>{ 0, 2, 2, 128 }));
    const auto u16 = convert<uint16_t>(dt::f32, dt::u16, std::vector<float>{ 4.5f, 5.5f });
    EXPECT_EQ(u16, (std::vector<uint16_t>{ 4, 6 }));
}

TEST(Rounding, FloatSourcesRoundToo) {
    // bf16 2.5 (0x4020) and f16 -1.5 (0xBE00) into s8.
    EXPECT_EQ(convert<int8_t>(dt::bf16, dt::s8, std::vector<uint16_t>{ 0x4020 })[0], 2);
    EXPECT_EQ(convert<int8_t>(dt::f16, dt::s8, std::vector<uint16_t>{ 0xBE00 })[0], -2);
    // f16 NaN to u8 is the lowest value.
    EXPECT_EQ(convert<uint8_t>(dt::f16, dt::u8, std::vector<uint16_t>{ 0x7E00 })[0], 0);
    EXPECT_EQ(convert<int8_t>(dt::bf16, dt::s8, std::vector<uint16_t>{ 0x7FC0 })[0], -128);
}

// ---- bf16 and f16, by bit pattern ---------------------------------------------

struct bits_case_t {
    const char *name;
    uint32_t f32_bits;
    uint16_t want;
};
API_TEST_PRINT_BY_NAME(bits_case_t)
class ToBf16 : public ::testing::TestWithParam<bits_case_t> {};
TEST_P(ToBf16, RoundsToNearestEven) {
    const auto &c = GetParam();
    const uint16_t got =
            convert<uint16_t>(dt::f32, dt::bf16, std::vector<float>{ u2f(c.f32_bits) })[0];
    EXPECT_EQ(got, c.want) << std::hex << "f32 0x" << c.f32_bits << " -> 0x" << got;
}
const bits_case_t bf16_cases[] = {
    { "one", 0x3F800000u, 0x3F80 },
    { "tie_to_even_down", 0x3F808000u, 0x3F80 }, // halfway 0x3F80..0x3F81
    { "tie_to_even_up", 0x3F818000u, 0x3F82 },   // halfway 0x3F81..0x3F82
    { "above_half", 0x3F808001u, 0x3F81 },
    { "below_half", 0x3F807FFFu, 0x3F80 },
    { "negative_tie_up", 0xBF818000u, 0xBF82 },
    { "negative_zero", 0x80000000u, 0x8000 },
    { "max_float_rounds_to_inf", 0x7F7FFFFFu, 0x7F80 },
    { "tie_below_inf_to_even_inf", 0x7F7F8000u, 0x7F80 },
    { "inf", 0x7F800000u, 0x7F80 },
    { "minus_inf", 0xFF800000u, 0xFF80 },
    { "denormal_tie", 0x00018000u, 0x0002 },
    { "carry_into_exponent", 0x3FFFFFFFu, 0x4000 },
};
INSTANTIATE_TEST_SUITE_P(Bits, ToBf16, ::testing::ValuesIn(bf16_cases),
        [](const ::testing::TestParamInfo<bits_case_t> &i) { return std::string(i.param.name); });

class ToF16 : public ::testing::TestWithParam<bits_case_t> {};
TEST_P(ToF16, RoundsToNearestEven) {
    const auto &c = GetParam();
    const uint16_t got =
            convert<uint16_t>(dt::f32, dt::f16, std::vector<float>{ u2f(c.f32_bits) })[0];
    EXPECT_EQ(got, c.want) << std::hex << "f32 0x" << c.f32_bits << " -> 0x" << got;
}
const bits_case_t f16_cases[] = {
    { "one", 0x3F800000u, 0x3C00 },
    { "tie_to_even_down", 0x3F801000u, 0x3C00 }, // 1 + 2^-11
    { "tie_to_even_up", 0x3F803000u, 0x3C02 },   // 1 + 3 * 2^-11
    { "above_half", 0x3F801008u, 0x3C01 },
    { "below_half", 0x3F800FFFu, 0x3C00 },
    { "max_65504", 0x477FE000u, 0x7BFF },
    { "just_below_overflow", 0x477FEFFFu, 0x7BFF },
    { "65520_overflows_to_inf", 0x477FF000u, 0x7C00 },
    { "1e6_is_inf", 0x49742400u, 0x7C00 },
    { "minus_1e6_is_minus_inf", 0xC9742400u, 0xFC00 },
    { "inf", 0x7F800000u, 0x7C00 },
    { "smallest_subnormal", 0x33800000u, 0x0001 },                   // 2^-24
    { "half_smallest_subnormal_ties_to_zero", 0x33000000u, 0x0000 }, // 2^-25
    { "three_halves_subnormal_ties_to_two", 0x33C00000u, 0x0002 },   // 3 * 2^-25
    { "negative_zero", 0x80000000u, 0x8000 },
    { "tiny_is_zero", 0x00000001u, 0x0000 },
    { "minus_tiny_is_minus_zero", 0x80000001u, 0x8000 },
    { "smallest_normal", 0x38800000u, 0x0400 }, // 2^-14
    { "subnormal_rounds_up_to_normal", 0x387FF000u, 0x0400 },
};
INSTANTIATE_TEST_SUITE_P(Bits, ToF16, ::testing::ValuesIn(f16_cases),
        [](const ::testing::TestParamInfo<bits_case_t> &i) { return std::string(i.param.name); });

TEST(NaN, StaysNaNForBf16AndF16) {
    // Quiet and signalling NaNs: truncating 0x7F800001 would give inf.
    for (uint32_t bits : { 0x7FC00000u, 0x7F800001u, 0xFFC00001u, 0x7FBFFFFFu }) {
        const float v = u2f(bits);
        const uint16_t b = convert<uint16_t>(dt::f32, dt::bf16, std::vector<float>{ v })[0];
        EXPECT_TRUE((b & 0x7F80) == 0x7F80 && (b & 0x7F) != 0)
                << std::hex << bits << " -> bf16 " << b;
        const uint16_t h = convert<uint16_t>(dt::f32, dt::f16, std::vector<float>{ v })[0];
        EXPECT_TRUE((h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0)
                << std::hex << bits << " -> f16 " << h;
    }
    // bf16 and f16 NaN into f32 stay NaN.
    EXPECT_TRUE(std::isnan(convert<float>(dt::bf16, dt::f32, std::vector<uint16_t>{ 0x7F81 })[0]));
    EXPECT_TRUE(std::isnan(convert<float>(dt::f16, dt::f32, std::vector<uint16_t>{ 0x7C01 })[0]));
    EXPECT_TRUE(std::isnan(convert<float>(dt::f16, dt::f32, std::vector<uint16_t>{ 0xFE00 })[0]));
    // f16 NaN into bf16 and back.
    const uint16_t b = convert<uint16_t>(dt::f16, dt::bf16, std::vector<uint16_t>{ 0x7C01 })[0];
    EXPECT_TRUE((b & 0x7F80) == 0x7F80 && (b & 0x7F) != 0) << std::hex << b;
}

TEST(Widening, Bf16AndF16ToF32AreExact) {
    const std::vector<uint16_t> h = { 0x0001, 0x03FF, 0x0400, 0x3C01, 0x7BFF, 0xFC00, 0x8000 };
    const auto f = convert<float>(dt::f16, dt::f32, h);
    for (size_t i = 0; i < h.size(); ++i)
        EXPECT_EQ((double)f[i], f16_value(h[i])) << h[i];
    const std::vector<uint16_t> b = { 0x0001, 0x3F81, 0x7F7F, 0xFF80, 0x8000 };
    const auto g = convert<float>(dt::bf16, dt::f32, b);
    for (size_t i = 0; i < b.size(); ++i)
        EXPECT_EQ(f2u(g[i]), uint32_t(b[i]) << 16) << b[i];
}

// ---- identity reorders are bit copies -------------------------------------------

TEST(Identity, F32KeepsNaNPayloadNegativeZeroAndDenormals) {
    const std::vector<uint32_t> bits = { 0x7FA00001u, 0xFFC12345u, 0x80000000u, 0x00000001u,
        0x7F800001u, 0x3F800000u };
    std::vector<float> in;
    for (uint32_t b : bits)
        in.push_back(u2f(b));
    const auto out = convert<float>(dt::f32, dt::f32, in);
    for (size_t i = 0; i < bits.size(); ++i)
        EXPECT_EQ(f2u(out[i]), bits[i]) << std::hex << bits[i];
}

TEST(Identity, F32WithALayoutChangeIsStillABitCopy) {
    const memory::desc s({ 2, 3, 2, 2 }, dt::f32, tag::nchw), d({ 2, 3, 2, 2 }, dt::f32, tag::nhwc);
    std::vector<uint32_t> src(24), dst(24, 0);
    for (int i = 0; i < 24; ++i)
        src[i] = 0x7F800001u + i * 0x101u; // signalling NaNs
    memory sm(s, cpu_engine(), src.data()), dm(d, cpu_engine(), dst.data());
    run_reorder(sm, dm);
    const layout_t ls = layout_of(s), ld = layout_of(d);
    for_each_pos({ 2, 3, 2, 2 }, [&](const dims_t &p, dim_t) {
        EXPECT_EQ(dst[offset_of(ld, p)], src[offset_of(ls, p)]);
    });
}

TEST(Identity, HalfTypesAndIntegersAreBitCopies) {
    const std::vector<uint16_t> h = { 0x7C01, 0xFD55, 0x8000, 0x0001 };
    EXPECT_EQ(convert<uint16_t>(dt::f16, dt::f16, h), h);
    const std::vector<uint16_t> b = { 0x7F81, 0xFFA5, 0x8000, 0x0001 };
    EXPECT_EQ(convert<uint16_t>(dt::bf16, dt::bf16, b), b);
    const std::vector<int32_t> i = { INT32_MAX, INT32_MIN, 16777217, -16777217 };
    EXPECT_EQ(convert<int32_t>(dt::s32, dt::s32, i), i);
    const std::vector<int8_t> s = { -128, 127, 0, -1 };
    EXPECT_EQ(convert<int8_t>(dt::s8, dt::s8, s), s);
}

// ---- scales ---------------------------------------------------------------------

TEST(Scales, CommonSrcScaleMultiplies) {
    const auto out = convert<float>(dt::f32, dt::f32, std::vector<float>{ 1, 2, -3.5f },
            scales_attr(RELAYOUT_ARG_SRC, 0, { 2.f }));
    EXPECT_EQ(out, (std::vector<float>{ 2, 4, -7 }));
}

TEST(Scales, CommonDstScaleDividesExactly) {
    // v / 3 must be the correctly rounded quotient, not v * (1/3).
    const std::vector<float> in = { 1.f, 7.f, 10.f, 100.f, 0.3f, 5.f, 11.f, 13.f };
    const float s = 3.f;
    const auto out = convert<float>(dt::f32, dt::f32, in, scales_attr(RELAYOUT_ARG_DST, 0, { s }));
    for (size_t i = 0; i < in.size(); ++i) {
        volatile float q = in[i] / s;
        EXPECT_EQ(f2u(out[i]), f2u(q)) << in[i] << " / " << s;
    }
    const auto tenths = convert<float>(dt::f32, dt::f32, std::vector<float>{ 3.f, 7.f, 9.f },
            scales_attr(RELAYOUT_ARG_DST, 0, { 10.f }));
    EXPECT_EQ(tenths[0], 3.f / 10.f);
    EXPECT_EQ(tenths[1], 7.f / 10.f);
    EXPECT_EQ(tenths[2], 9.f / 10.f);
}

TEST(Scales, SrcAndDstTogether) {
    primitive_attr a;
    a.set_scales(RELAYOUT_ARG_SRC, 0, { 3.f });
    a.set_scales(RELAYOUT_ARG_DST, 0, { 2.f });
    // 3 * 5 / 2 = 7.5 -> s8 8 (ties to even); 3 * 3 / 2 = 4.5 -> 4.
    const auto out = convert<int8_t>(dt::f32, dt::s8, std::vector<float>{ 5, 3, -1 }, a);
    EXPECT_EQ(out, (std::vector<int8_t>{ 8, 4, -2 }));
}

// Per-dim scales: one value per index of the masked dims, in logical
// row-major order whatever the layouts.
TEST(Scales, PerDimSrcScaleAlongDim1) {
    const memory::desc s({ 2, 3 }, dt::f32, tag::ab), d({ 2, 3 }, dt::f32, tag::ba);
    std::vector<float> src = { 1, 2, 3, 4, 5, 6 }, dst(6, 0);
    memory sm(s, cpu_engine(), src.data()), dm(d, cpu_engine(), dst.data());
    run_reorder(sm, dm, scales_attr(RELAYOUT_ARG_SRC, 2, { 1.f, 10.f, 100.f }));
    // dst is ba: element (i, j) at j * 2 + i.
    EXPECT_EQ(dst, (std::vector<float>{ 1, 4, 20, 50, 300, 600 }));
}

TEST(Scales, PerDimDstScaleAlongDim0Divides) {
    const memory::desc s({ 2, 3 }, dt::f32, tag::ab);
    std::vector<float> src = { 2, 4, 6, 8, 10, 12 }, dst(6, 0);
    memory sm(s, cpu_engine(), src.data()), dm(s, cpu_engine(), dst.data());
    run_reorder(sm, dm, scales_attr(RELAYOUT_ARG_DST, 1, { 2.f, 4.f }));
    EXPECT_EQ(dst, (std::vector<float>{ 1, 2, 3, 2, 2.5f, 3 }));
}

TEST(Scales, MaskOverTwoDims) {
    const memory::desc s({ 2, 3 }, dt::f32, tag::ab);
    std::vector<float> src(6, 1.f), dst(6, 0);
    memory sm(s, cpu_engine(), src.data()), dm(s, cpu_engine(), dst.data());
    run_reorder(sm, dm, scales_attr(RELAYOUT_ARG_SRC, 3, { 1, 2, 3, 4, 5, 6 }));
    EXPECT_EQ(dst, (std::vector<float>{ 1, 2, 3, 4, 5, 6 }));
}

TEST(Scales, PerChannelIntoBlockedDestination) {
    // nchw 2x17x2x1 -> nChw16c, scale per channel c: value = c * scale[c].
    const dims_t dims = { 2, 17, 2, 1 };
    const memory::desc s(dims, dt::f32, tag::nchw), d(dims, dt::s32, tag::nChw16c);
    std::vector<float> src(volume(dims));
    const layout_t ls = layout_of(s), ld = layout_of(d);
    for_each_pos(dims, [&](const dims_t &p, dim_t) { src[offset_of(ls, p)] = float(p[1] + 1); });
    std::vector<float> sc(17);
    for (int c = 0; c < 17; ++c)
        sc[c] = float(c % 4 + 1);
    buffer_t dst(d.get_size(), 0xAB);
    memory sm(s, cpu_engine(), src.data()), dm(d, cpu_engine(), dst.data());
    run_reorder(sm, dm, scales_attr(RELAYOUT_ARG_SRC, 2, sc));
    for_each_pos(layout_of(d).padded, [&](const dims_t &p, dim_t) {
        int32_t v;
        std::memcpy(&v, elem_ptr(dst.data(), ld, p), 4);
        const int32_t want = p[1] < 17 ? int32_t((p[1] + 1) * sc[p[1]]) : 0;
        ASSERT_EQ(v, want) << "c=" << p[1];
    });
}

// ---- zero points -------------------------------------------------------------------

TEST(ZeroPoints, SrcZeroPointIsSubtracted) {
    primitive_attr a;
    a.set_zero_points(RELAYOUT_ARG_SRC, 10);
    const auto out = convert<int32_t>(dt::u8, dt::s32, std::vector<uint8_t>{ 0, 10, 255 }, a);
    EXPECT_EQ(out, (std::vector<int32_t>{ -10, 0, 245 }));
}

TEST(ZeroPoints, DstZeroPointIsAddedAfterTheScale) {
    primitive_attr a;
    a.set_zero_points(RELAYOUT_ARG_DST, 128);
    a.set_scales(RELAYOUT_ARG_DST, 0, { 0.5f });
    // v / 0.5 + 128, saturated to u8.
    const auto out = convert<uint8_t>(
            dt::f32, dt::u8, std::vector<float>{ 0.f, 10.f, -64.f, 100.f, -70.f }, a);
    EXPECT_EQ(out, (std::vector<uint8_t>{ 128, 148, 0, 255, 0 }));
}

TEST(ZeroPoints, FullPipeline) {
    // v = 0.5 * (s - 10); v = v / 2 + 3 -> u8.
    primitive_attr a;
    a.set_scales(RELAYOUT_ARG_SRC, 0, { 0.5f });
    a.set_scales(RELAYOUT_ARG_DST, 0, { 2.f });
    a.set_zero_points(RELAYOUT_ARG_SRC, 10);
    a.set_zero_points(RELAYOUT_ARG_DST, 3);
    const auto out =
            convert<uint8_t>(dt::s8, dt::u8, std::vector<int8_t>{ 20, 14, -100, 127, 18 }, a);
    // 20: 5 -> 2.5 + 3 = 5.5 -> 6; 14: 2 -> 1 + 3 = 4; -100: -55 -> -24.5 -> 0;
    // 127: 58.5 -> 29.25 + 3 -> 32; 18: 4 -> 2 + 3 = 5.
    EXPECT_EQ(out, (std::vector<uint8_t>{ 6, 4, 0, 32, 5 }));
}

// ---- the sum post-op ---------------------------------------------------------------

TEST(SumPostOp, AddsBetaTimesTheOldDestination) {
    primitive_attr a;
    a.set_post_ops_sum(0.5f);
    const auto out = convert<float>(
            dt::f32, dt::f32, std::vector<float>{ 10, 20, 30 }, a, std::vector<float>{ 1, 2, 3 });
    EXPECT_EQ(out, (std::vector<float>{ 10.5f, 21.f, 31.5f }));
}

TEST(SumPostOp, WithDstZeroPointAndScale) {
    primitive_attr a;
    a.set_post_ops_sum(2.f);
    a.set_zero_points(RELAYOUT_ARG_DST, 2);
    // v = s + 2 * (old - 2); v = v / 1 + 2.
    auto out = convert<int8_t>(dt::f32, dt::s8, std::vector<float>{ 1, 3, 100 }, a,
            std::vector<int8_t>{ 10, -20, 100 });
    EXPECT_EQ(out, (std::vector<int8_t>{ 19, -39, 127 }));
    a.set_scales(RELAYOUT_ARG_DST, 0, { 2.f });
    // (1 + 16) / 2 + 2 = 10.5 -> 10; (3 - 44) / 2 + 2 = -18.5 -> -18.
    out = convert<int8_t>(
            dt::f32, dt::s8, std::vector<float>{ 1, 3 }, a, std::vector<int8_t>{ 10, -20 });
    EXPECT_EQ(out, (std::vector<int8_t>{ 10, -18 }));
}

TEST(SumPostOp, ReadsTheOldValueInTheDestinationLayout) {
    // dst is ba: the old value of (i, j) sits at j * 2 + i.
    const memory::desc s({ 2, 3 }, dt::f32, tag::ab), d({ 2, 3 }, dt::f32, tag::ba);
    std::vector<float> src = { 1, 2, 3, 4, 5, 6 };
    std::vector<float> dst = { 100, 400, 200, 500, 300, 600 };
    memory sm(s, cpu_engine(), src.data()), dm(d, cpu_engine(), dst.data());
    primitive_attr a;
    a.set_post_ops_sum(1.f);
    run_reorder(sm, dm, a);
    EXPECT_EQ(dst, (std::vector<float>{ 101, 404, 202, 505, 303, 606 }));
}

// ---- int8 weights compensation ---------------------------------------------------------

namespace {
struct comp_result_t {
    std::vector<int8_t> q; // logical row-major quantized weights
    std::vector<int32_t> s8s8, zp;
};

comp_result_t run_comp(const dims_t &dims, const std::vector<float> &w, const std::string &dtag,
        uint64_t flags, int mask, float adj = 1.f) {
    const memory::desc s(
            dims, dt::f32, std::string(std::string(dims.size() == 4 ? "abcd" : "abcde")));
    const bool has_s8s8 = flags & relayout_extra_flag_compensation_conv_s8s8;
    const bool has_zp = flags & relayout_extra_flag_compensation_conv_asymmetric_src;
    const memory::desc d = memory::desc(dims, dt::s8, dtag)
                                   .with_extra(flags, has_s8s8 ? mask : 0, has_zp ? mask : 0, adj);
    const memory::desc plain_d(dims, dt::s8, dtag);
    std::vector<float> src(w);
    buffer_t dst(d.get_size(), 0x5A);
    memory sm(s, cpu_engine(), src.data()), dm(d, cpu_engine(), dst.data());
    run_reorder(sm, dm);

    comp_result_t r;
    const layout_t ld = layout_of(d);
    for_each_pos(dims, [&](const dims_t &p, dim_t) {
        r.q.push_back(*static_cast<int8_t *>(elem_ptr(dst.data(), ld, p)));
    });
    // Buffers after the data rounded up to 4 bytes.
    size_t off = (plain_d.get_size() + 3) / 4 * 4;
    dim_t count = 1;
    for (int k = 0; k < (int)dims.size(); ++k)
        if (mask & (1 << k)) count *= ld.padded[k];
    auto read = [&](std::vector<int32_t> &v) {
        v.resize(count);
        std::memcpy(v.data(), dst.data() + off, count * 4);
        off += count * 4;
    };
    if (has_s8s8) read(r.s8s8);
    if (has_zp) read(r.zp);
    EXPECT_EQ(off, d.get_size());
    return r;
}
} // namespace

// OIhw 2x3x1x1 weights; the quantized values saturate and round first:
// o0: 1.5 -> 2, -200 -> -128, 3 -> 3: sum -123.
// o1: 100.6 -> 101, 127.5 -> 127, -0.5 -> 0: sum 228.
const std::vector<float> oihw_w = { 1.5f, -200.f, 3.f, 100.6f, 127.5f, -0.5f };

TEST(Compensation, S8S8PerOutputChannelIntoOIhw4i16o4i) {
    const auto r = run_comp(
            { 2, 3, 1, 1 }, oihw_w, "OIhw4i16o4i", relayout_extra_flag_compensation_conv_s8s8, 1);
    EXPECT_EQ(r.q, (std::vector<int8_t>{ 2, -128, 3, 101, 127, 0 }));
    ASSERT_EQ(r.s8s8.size(), 16u); // O padded to 16
    EXPECT_EQ(r.s8s8[0], -128 * -123);
    EXPECT_EQ(r.s8s8[1], -128 * 228);
    for (int o = 2; o < 16; ++o)
        EXPECT_EQ(r.s8s8[o], 0) << "padded o=" << o;
}

TEST(Compensation, ZeroPointPerOutputChannel) {
    const auto r = run_comp({ 2, 3, 1, 1 }, oihw_w, "OIhw4i16o4i",
            relayout_extra_flag_compensation_conv_asymmetric_src, 1);
    ASSERT_EQ(r.zp.size(), 16u);
    EXPECT_EQ(r.zp[0], 123);
    EXPECT_EQ(r.zp[1], -228);
    for (int o = 2; o < 16; ++o)
        EXPECT_EQ(r.zp[o], 0);
}

TEST(Compensation, BothBuffersS8S8First) {
    const auto r = run_comp({ 2, 3, 1, 1 }, oihw_w, "OIhw4i16o4i",
            relayout_extra_flag_compensation_conv_s8s8
                    | relayout_extra_flag_compensation_conv_asymmetric_src,
            1);
    ASSERT_EQ(r.s8s8.size(), 16u);
    ASSERT_EQ(r.zp.size(), 16u);
    EXPECT_EQ(r.s8s8[0], 15744);
    EXPECT_EQ(r.s8s8[1], -29184);
    EXPECT_EQ(r.zp[0], 123);
    EXPECT_EQ(r.zp[1], -228);
}

TEST(Compensation, PlainOihwAndSpatialReduction) {
    // OIhw 2x2x1x2: the reduction runs over i, h and w.
    const auto r = run_comp({ 2, 2, 1, 2 }, { 1, 2, 3, 4, -5, -6, 7, 8 }, "oihw",
            relayout_extra_flag_compensation_conv_s8s8, 1);
    ASSERT_EQ(r.s8s8.size(), 2u);
    EXPECT_EQ(r.s8s8[0], -128 * 10);
    EXPECT_EQ(r.s8s8[1], -128 * 4);
}

// goihw 2x2x3x1x1, mask 3 = per (g, o).
const std::vector<float> goihw_w = { 1, 2, 3, -1, -2, -3, 10, 20, 30, 127, 1, 0 };

TEST(Compensation, PerGroupAndOutputChannelIntoGoihw) {
    const auto r = run_comp(
            { 2, 2, 3, 1, 1 }, goihw_w, "goihw", relayout_extra_flag_compensation_conv_s8s8, 3);
    ASSERT_EQ(r.s8s8.size(), 4u);
    EXPECT_EQ(r.s8s8, (std::vector<int32_t>{ -128 * 6, -128 * -6, -128 * 60, -128 * 128 }));
}

TEST(Compensation, PerGroupAndOutputChannelIntoBlockedGoihw) {
    const auto r = run_comp({ 2, 2, 3, 1, 1 }, goihw_w, "gOIhw4i16o4i",
            relayout_extra_flag_compensation_conv_s8s8
                    | relayout_extra_flag_compensation_conv_asymmetric_src,
            3);
    ASSERT_EQ(r.s8s8.size(), 32u); // g x padded o
    ASSERT_EQ(r.zp.size(), 32u);
    EXPECT_EQ(r.q, (std::vector<int8_t>{ 1, 2, 3, -1, -2, -3, 10, 20, 30, 127, 1, 0 }));
    EXPECT_EQ(r.s8s8[0], -128 * 6);
    EXPECT_EQ(r.s8s8[1], -128 * -6);
    EXPECT_EQ(r.s8s8[16], -128 * 60);
    EXPECT_EQ(r.s8s8[17], -128 * 128);
    EXPECT_EQ(r.zp[0], -6);
    EXPECT_EQ(r.zp[17], -128);
    for (int g = 0; g < 2; ++g)
        for (int o = 2; o < 16; ++o)
            EXPECT_EQ(r.s8s8[g * 16 + o], 0);
}

TEST(Compensation, ScaleAdjustAppliesBeforeRounding) {
    // 0.5 * {4, 3, -7} = {2, 1.5, -3.5} -> {2, 2, -4}: sum 0; second row
    // 0.5 * {9, 1, 1} = {4.5, 0.5, 0.5} -> {4, 0, 0}: sum 4.
    const auto r = run_comp({ 2, 3, 1, 1 }, { 4, 3, -7, 9, 1, 1 }, "OIhw4i16o4i",
            relayout_extra_flag_compensation_conv_s8s8 | relayout_extra_flag_scale_adjust, 1, 0.5f);
    EXPECT_EQ(r.q, (std::vector<int8_t>{ 2, 2, -4, 4, 0, 0 }));
    EXPECT_EQ(r.s8s8[0], 0);
    EXPECT_EQ(r.s8s8[1], -128 * 4);
}

// ---- attribute errors ---------------------------------------------------------------

TEST(AttrErrors, ScaleCountMismatchIsInvalidArguments) {
    const memory::desc md({ 2, 3 }, dt::f32, tag::ab);
    primitive_attr a;
    a.set_scales(RELAYOUT_ARG_SRC, 2, { 1.f, 2.f }); // dim 1 has 3 indices
    const std::string what = expect_error(relayout_invalid_arguments,
            [&] { reorder::primitive_desc(cpu_engine(), md, cpu_engine(), md, a); });
    EXPECT_TRUE(contains_ci(what, "scales")) << what;
    EXPECT_TRUE(contains_ci(what, "3")) << what;
}

TEST(AttrErrors, DstScaleCountMismatchIsInvalidArguments) {
    const memory::desc md({ 2, 3 }, dt::f32, tag::ab);
    primitive_attr a;
    a.set_scales(RELAYOUT_ARG_DST, 3, { 1.f, 2.f, 3.f });
    const std::string what = expect_error(relayout_invalid_arguments,
            [&] { reorder::primitive_desc(cpu_engine(), md, cpu_engine(), md, a); });
    EXPECT_TRUE(contains_ci(what, "scales")) << what;
}

TEST(AttrErrors, MaskBeyondNdimsIsInvalidArguments) {
    const memory::desc md({ 2, 3 }, dt::f32, tag::ab);
    primitive_attr a;
    a.set_scales(RELAYOUT_ARG_SRC, 4, { 1.f });
    const std::string what = expect_error(relayout_invalid_arguments,
            [&] { reorder::primitive_desc(cpu_engine(), md, cpu_engine(), md, a); });
    EXPECT_TRUE(contains_ci(what, "mask")) << what;
}

TEST(AttrErrors, BadScaleValuesAreRejectedWhenSet) {
    primitive_attr a;
    std::string what = expect_error(
            relayout_invalid_arguments, [&] { a.set_scales(RELAYOUT_ARG_DST, 0, { 0.f }); });
    EXPECT_TRUE(contains_ci(what, "zero")) << what;
    what = expect_error(
            relayout_invalid_arguments, [&] { a.set_scales(RELAYOUT_ARG_SRC, 0, { qnan }); });
    EXPECT_TRUE(contains_ci(what, "finite")) << what;
    what = expect_error(relayout_invalid_arguments, [&] {
        a.set_scales(RELAYOUT_ARG_SRC, 0, { 1.f, 2.f });
    });
    EXPECT_TRUE(contains_ci(what, "mask")) << what;
    what = expect_error(relayout_invalid_arguments, [&] { a.set_scales(7, 0, { 1.f }); });
    EXPECT_TRUE(contains_ci(what, "arg")) << what;
    what = expect_error(relayout_invalid_arguments, [&] { a.set_post_ops_sum(inf); });
    EXPECT_TRUE(contains_ci(what, "beta")) << what;
}
