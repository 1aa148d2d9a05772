// Per-element numerics (DESIGN §8), the single definition every
// implementation is compared against.
#ifndef RELAYOUT_REF_NUMERICS_HPP
#define RELAYOUT_REF_NUMERICS_HPP

#include <cstdint>
#include <cstring>

#include "md/data_type.hpp"

namespace relayout {
namespace impl {

template <data_type_t dt>
struct prec_traits;
template <>
struct prec_traits<relayout_f32> {
    using type = float;
};
template <>
struct prec_traits<relayout_bf16> {
    using type = uint16_t;
};
template <>
struct prec_traits<relayout_f16> {
    using type = uint16_t;
};
template <>
struct prec_traits<relayout_s32> {
    using type = int32_t;
};
template <>
struct prec_traits<relayout_s16> {
    using type = int16_t;
};
template <>
struct prec_traits<relayout_u16> {
    using type = uint16_t;
};
template <>
struct prec_traits<relayout_s8> {
    using type = int8_t;
};
template <>
struct prec_traits<relayout_u8> {
    using type = uint8_t;
};

// Element -> f32 (exact for every type but s32, which rounds to nearest).
template <data_type_t dt>
inline float load_f32(const void *base, int64_t off) {
    using T = typename prec_traits<dt>::type;
    const T v = static_cast<const T *>(base)[off];
    if (dt == relayout_bf16) return bf16_to_f32(static_cast<uint16_t>(v));
    if (dt == relayout_f16) return f16_to_f32(static_cast<uint16_t>(v));
    return static_cast<float>(v);
}

// f32 -> element: round to nearest even; integers saturate first, NaN to
// the lowest value.
template <data_type_t dt>
inline void store_f32(void *base, int64_t off, float v) {
    using T = typename prec_traits<dt>::type;
    T *p = static_cast<T *>(base) + off;
    switch (dt) {
        case relayout_f32: *p = static_cast<T>(v); break;
        case relayout_bf16: *p = static_cast<T>(f32_to_bf16(v)); break;
        case relayout_f16: *p = static_cast<T>(f32_to_f16(v)); break;
        case relayout_s32: *p = static_cast<T>(saturate_round<relayout_s32>(v)); break;
        case relayout_s16: *p = static_cast<T>(saturate_round<relayout_s16>(v)); break;
        case relayout_u16: *p = static_cast<T>(saturate_round<relayout_u16>(v)); break;
        case relayout_s8: *p = static_cast<T>(saturate_round<relayout_s8>(v)); break;
        case relayout_u8: *p = static_cast<T>(saturate_round<relayout_u8>(v)); break;
        default: break;
    }
}

// Runtime-dispatched versions (slow; for tools and tests).
float load_f32(data_type_t dt, const void *base, int64_t off);
void store_f32(data_type_t dt, void *base, int64_t off, float v);

// The value pipeline of one element, given its source value s and, for the
// sum post-op, the old destination value.
struct value_params_t {
    float src_scale, dst_scale;
    float src_zp, dst_zp;
    float beta, scale_adjust;
};
// Zero points are applied only when non-zero: x + 0 turns -0 into +0, and
// a conversion must keep the sign of zero (RNE(-0) = -0).
inline float compute_value(const value_params_t &q, float s, float dst_old) {
    if (q.src_zp != 0.f) s = s - q.src_zp;
    float v = q.src_scale * s;
    if (q.beta != 0.f) v = v + q.beta * (dst_old - q.dst_zp);
    v = v / q.dst_scale;
    if (q.dst_zp != 0.f) v = v + q.dst_zp;
    if (q.scale_adjust != 1.f) v = v * q.scale_adjust;
    return v;
}

} // namespace impl
} // namespace relayout

#endif
