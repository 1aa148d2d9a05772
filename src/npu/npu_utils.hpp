// Small helpers shared by the NPU engine files: integer arithmetic that
// cannot overflow silently and facts about element data types.
#ifndef RELAYOUT_NPU_NPU_UTILS_HPP
#define RELAYOUT_NPU_NPU_UTILS_HPP

#include <cstdint>
#include <limits>

#include "common/utils.hpp"
#include "md/data_type.hpp"
#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {
namespace npu {

constexpr int64_t k_int64_max = std::numeric_limits<int64_t>::max();

// int64_t versions: the callers mix int64_t and int operands, which the
// templates of common/utils.hpp do not deduce.
inline int64_t div_up(int64_t a, int64_t b) {
    return impl::div_up<int64_t>(a, b);
}
inline int64_t round_up(int64_t a, int64_t b) {
    return impl::round_up<int64_t>(a, b);
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

// Element facts come from md/data_type.hpp (one definition in the library).
inline int dt_size(relayout_data_type_t dt) {
    return (int)data_type_size(dt);
}
inline const char *dt_name(relayout_data_type_t dt) {
    return dt2str(dt);
}

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
