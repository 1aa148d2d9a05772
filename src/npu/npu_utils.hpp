// Small helpers shared by the NPU engine files: integer arithmetic that
// cannot overflow silently and facts about element data types.
#ifndef RELAYOUT_NPU_NPU_UTILS_HPP
#define RELAYOUT_NPU_NPU_UTILS_HPP

#include <cstdint>
#include <limits>

#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {
namespace npu {

constexpr int64_t k_int64_max = std::numeric_limits<int64_t>::max();

inline int64_t div_up(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
inline int64_t round_up(int64_t a, int64_t b) {
    return div_up(a, b) * b;
}

// Saturating arithmetic on non-negative values: a result that does not fit
// becomes k_int64_max, which every "fits in the lane" check then rejects.
inline int64_t sat_mul(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return k_int64_max;
    return r;
}
inline int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return k_int64_max;
    return r;
}

// Size of one element in bytes; 0 for undef or an unknown value.
inline int dt_size(relayout_data_type_t dt) {
    switch (dt) {
        case relayout_f16:
        case relayout_bf16:
        case relayout_s16:
        case relayout_u16: return 2;
        case relayout_f32:
        case relayout_s32: return 4;
        case relayout_s8:
        case relayout_u8: return 1;
        default: return 0;
    }
}

inline const char *dt_name(relayout_data_type_t dt) {
    switch (dt) {
        case relayout_f16: return "f16";
        case relayout_bf16: return "bf16";
        case relayout_f32: return "f32";
        case relayout_s32: return "s32";
        case relayout_s8: return "s8";
        case relayout_u8: return "u8";
        case relayout_s16: return "s16";
        case relayout_u16: return "u16";
        default: return "undef";
    }
}

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
