// Scalar numerics of DESIGN §8: f16/bf16 conversions, saturation, rounding.
#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>
#include <immintrin.h>

#include "ref/numerics.hpp"

namespace relayout {
namespace impl {
namespace {

bool is_nan_f16(uint16_t h) {
    return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
}

// f16 -> f32 is exact: compare all 65536 values with the F16C instruction.
TEST(numerics_f16, widening_matches_hardware_for_every_value) {
    for (uint32_t h = 0; h < 65536; ++h) {
        const float want = _cvtsh_ss(static_cast<unsigned short>(h));
        const float got = f16_to_f32(static_cast<uint16_t>(h));
        if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(got)) << h;
        } else {
            ASSERT_EQ(float_bits(got), float_bits(want)) << "h=" << h;
        }
    }
}

// f32 -> f16 round to nearest even: compare a dense sweep of bit patterns
// (every exponent, many mantissas, both signs) with vcvtps2ph imm 0.
TEST(numerics_f16, narrowing_matches_hardware_rne) {
    uint64_t checked = 0;
    for (uint64_t u = 0; u <= 0xffffffffull; u += 4099) {
        const float f = bits_float(static_cast<uint32_t>(u));
        const uint16_t want = _cvtss_sh(f, 0);
        const uint16_t got = f32_to_f16(f);
        if (is_nan_f16(want)) {
            ASSERT_TRUE(is_nan_f16(got)) << std::hex << u;
        } else {
            ASSERT_EQ(got, want) << std::hex << "u=0x" << u;
        }
        ++checked;
    }
    EXPECT_GT(checked, 1000000u);
}

TEST(numerics_f16, ties_overflow_and_subnormals) {
    EXPECT_EQ(f32_to_f16(1.0f), 0x3c00);
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1).
    EXPECT_EQ(f32_to_f16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
    // 1 + 3*2^-11 is halfway between odd and even: rounds up to even.
    EXPECT_EQ(f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
    EXPECT_EQ(f32_to_f16(65504.f), 0x7bff);
    EXPECT_EQ(f32_to_f16(65520.f), 0x7c00); // rounds to infinity
    EXPECT_EQ(f32_to_f16(-1e10f), 0xfc00);
    EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
    EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -25)), 0x0000); // tie to even zero
    EXPECT_TRUE(is_nan_f16(f32_to_f16(std::numeric_limits<float>::quiet_NaN())));
}

TEST(numerics_bf16, round_to_nearest_even_and_nan) {
    EXPECT_EQ(f32_to_bf16(1.0f), 0x3f80);
    // 0x3f808000 is halfway between 0x3f80 and 0x3f81: even is 0x3f80.
    EXPECT_EQ(f32_to_bf16(bits_float(0x3f808000u)), 0x3f80);
    EXPECT_EQ(f32_to_bf16(bits_float(0x3f818000u)), 0x3f82);
    EXPECT_EQ(f32_to_bf16(bits_float(0x3f808001u)), 0x3f81);
    const uint16_t n = f32_to_bf16(bits_float(0x7f800001u)); // signalling NaN
    EXPECT_EQ(n & 0x7f80, 0x7f80);
    EXPECT_NE(n & 0x7f, 0);
    EXPECT_EQ(f32_to_bf16(bits_float(0x7f7fffffu)), 0x7f80); // overflow to inf
    EXPECT_EQ(bf16_to_f32(0x3f80), 1.0f);
}

TEST(numerics_int, saturation_bounds_and_nan) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(saturate_round<relayout_s8>(200.f), 127.f);
    EXPECT_EQ(saturate_round<relayout_s8>(-200.f), -128.f);
    EXPECT_EQ(saturate_round<relayout_s8>(nan), -128.f);
    EXPECT_EQ(saturate_round<relayout_u8>(nan), 0.f);
    EXPECT_EQ(saturate_round<relayout_u8>(-3.f), 0.f);
    EXPECT_EQ(saturate_round<relayout_u8>(300.f), 255.f);
    EXPECT_EQ(saturate_round<relayout_s16>(1e9f), 32767.f);
    EXPECT_EQ(saturate_round<relayout_u16>(1e9f), 65535.f);
    EXPECT_EQ(saturate_round<relayout_s32>(3e9f), 2147483520.f);
    EXPECT_EQ(saturate_round<relayout_s32>(-3e9f), -2147483648.f);
    EXPECT_EQ(saturate_round<relayout_s32>(nan), -2147483648.f);
}

TEST(numerics_int, round_half_to_even) {
    EXPECT_EQ(saturate_round<relayout_s8>(0.5f), 0.f);
    EXPECT_EQ(saturate_round<relayout_s8>(1.5f), 2.f);
    EXPECT_EQ(saturate_round<relayout_s8>(2.5f), 2.f);
    EXPECT_EQ(saturate_round<relayout_s8>(-0.5f), 0.f);
    EXPECT_EQ(saturate_round<relayout_s8>(-1.5f), -2.f);
    EXPECT_EQ(saturate_round<relayout_s8>(126.5f), 126.f);
    EXPECT_EQ(saturate_round<relayout_u8>(254.5f), 254.f);
}

TEST(numerics_store, stores_through_every_type) {
    int8_t s8;
    store_f32<relayout_s8>(&s8, 0, -7.5f);
    EXPECT_EQ(s8, -8);
    uint16_t u16;
    store_f32<relayout_u16>(&u16, 0, 65535.4f);
    EXPECT_EQ(u16, 65535);
    int32_t s32;
    store_f32<relayout_s32>(&s32, 0, 3e9f);
    EXPECT_EQ(s32, 2147483520);
    EXPECT_EQ(load_f32(relayout_s32, &s32, 0), 2147483520.f);
}

TEST(numerics_value, pipeline_order) {
    value_params_t q{ 2.f, 4.f, 1.f, 3.f, 0.f, 1.f };
    // v = 2 * (5 - 1) = 8; v = 8 / 4 + 3 = 5
    EXPECT_EQ(compute_value(q, 5.f, 0.f), 5.f);
    q.beta = 0.5f;
    // v = 8 + 0.5 * (11 - 3) = 12; v = 12 / 4 + 3 = 6
    EXPECT_EQ(compute_value(q, 5.f, 11.f), 6.f);
    q.scale_adjust = 0.5f;
    EXPECT_EQ(compute_value(q, 5.f, 11.f), 3.f);
}

} // namespace
} // namespace impl
} // namespace relayout
