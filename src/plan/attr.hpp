// Reorder attributes as the planner sees them (DESIGN §8).
#ifndef RELAYOUT_PLAN_ATTR_HPP
#define RELAYOUT_PLAN_ATTR_HPP

#include <cstdint>
#include <vector>

namespace relayout {
namespace impl {

struct scales_t {
    int mask = 0;              // 0: one common value; bit d: one value per index of dim d
    std::vector<float> values; // empty: not set (scale 1)

    bool is_set() const { return !values.empty(); }
    // True when every value is exactly 1 (the scale changes nothing).
    bool is_identity() const {
        for (float v : values)
            if (v != 1.f) return false;
        return true;
    }
};

struct attr_t {
    scales_t src_scales, dst_scales;
    int32_t src_zp = 0, dst_zp = 0;
    float beta = 0.f; // sum post-op; 0 = none
};

} // namespace impl
} // namespace relayout

#endif
