// benchdnn_lite — the driver's own reference reorder: a plain loop over
// logical points, offsets from layout_t, numerics from common.hpp.
#ifndef BENCHDNN_LITE_REFERENCE_HPP
#define BENCHDNN_LITE_REFERENCE_HPP

#include <vector>

#include "common.hpp"
#include "layout.hpp"
#include "problem.hpp"

namespace bdl {

// Numerics of one element (DESIGN §8), src already widened to f32.
struct elem_params_t {
    float src_scale = 1.f, dst_scale = 1.f;
    int32_t src_zp = 0, dst_zp = 0;
    bool has_sum = false;
    float beta = 0.f;
    bool has_scale_adjust = false;
    float scale_adjust = 1.f;
};
uint32_t ref_elem(float s, float dst_old, const elem_params_t &p, dt_t ddt);

// The element numerics of prb's attributes at logical point pos (the
// scale tables of prb.scale_values; no scale_adjust).
class ref_attr_t {
public:
    explicit ref_attr_t(const prb_t &prb);
    elem_params_t at(const int64_t *pos) const;

private:
    const prb_t &prb_;
    std::vector<float> src_scales_, dst_scales_;
    elem_params_t base_;
};

// Expected dst bits for every logical point, row-major over prb.dims.
// dst_old is the destination before execution (read by the sum post-op).
void compute_ref(const prb_t &prb, const layout_t &src_l, const void *src, const layout_t &dst_l,
        const void *dst_old, std::vector<uint32_t> &exp);

// Compensation entries (int32, wrapping) from the values stored in dst:
// comp[m] = factor * sum of q over the logical points with masked index m.
void compute_comp(const layout_t &dst_l, const void *dst, int mask, int32_t factor,
        std::vector<int32_t> &comp);

// Does a destination element match the expectation? Bit-exact, except that
// any NaN matches an expected NaN when the value went through f32, and
// +0 / -0 are the same value there.
bool bits_match(uint32_t exp, uint32_t got, dt_t dt, bool bit_copy);

} // namespace bdl

#endif
