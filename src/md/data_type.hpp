// Data types: sizes, names and the exact scalar conversions of DESIGN §8.
#ifndef RELAYOUT_MD_DATA_TYPE_HPP
#define RELAYOUT_MD_DATA_TYPE_HPP

#include <cmath>
#include <cstdint>
#include <cstring>

#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {

using data_type_t = relayout_data_type_t;

size_t data_type_size(data_type_t dt);
const char *dt2str(data_type_t dt);
// Parses "f32", "bf16", ...; returns relayout_data_type_undef if unknown.
data_type_t str2dt(const char *s);
bool is_integral(data_type_t dt);
bool is_valid_data_type(data_type_t dt);

// ---- bfloat16 / float16 bit conversions --------------------------------

inline uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    return u;
}
inline float bits_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
}

inline float bf16_to_f32(uint16_t b) {
    return bits_float(uint32_t(b) << 16);
}

// Round to nearest even; NaN stays NaN (quieted).
inline uint16_t f32_to_bf16(float f) {
    uint32_t u = float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return uint16_t(u >> 16);
}

float f16_to_f32(uint16_t h);
// Round to nearest even, overflow to infinity, NaN stays NaN (quieted).
uint16_t f32_to_f16(float f);

// ---- saturation and rounding to integer types ---------------------------

// Lower/upper bounds used to saturate in float before rounding. The s32
// upper bound is the largest float below 2^31.
template <data_type_t dt>
struct int_limits;
template <>
struct int_limits<relayout_s32> {
    static constexpr float lo = -2147483648.0f, hi = 2147483520.0f;
};
template <>
struct int_limits<relayout_s16> {
    static constexpr float lo = -32768.0f, hi = 32767.0f;
};
template <>
struct int_limits<relayout_u16> {
    static constexpr float lo = 0.0f, hi = 65535.0f;
};
template <>
struct int_limits<relayout_s8> {
    static constexpr float lo = -128.0f, hi = 127.0f;
};
template <>
struct int_limits<relayout_u8> {
    static constexpr float lo = 0.0f, hi = 255.0f;
};

// Saturate then round half to even; NaN becomes the lowest value (a NaN
// compares false, so the first test sends it to `lo`).
template <data_type_t dt>
inline float saturate_round(float v) {
    if (!(v >= int_limits<dt>::lo)) v = int_limits<dt>::lo;
    if (v > int_limits<dt>::hi) v = int_limits<dt>::hi;
    return std::nearbyint(v);
}

} // namespace impl
} // namespace relayout

#endif
