// benchdnn_lite — reference reorder. Compiled without FMA contraction (the
// top-level CMake sets -ffp-contract=off) so every step rounds like §8 says.
#include "reference.hpp"

namespace bdl {

uint32_t ref_elem(float s, float dst_old, const elem_params_t &p, dt_t ddt) {
    float v = p.src_scale * (s - float(p.src_zp));
    if (p.has_sum) v = v + p.beta * (dst_old - float(p.dst_zp));
    v = v / p.dst_scale + float(p.dst_zp); // a true division, not a reciprocal
    if (p.has_scale_adjust) v = v * p.scale_adjust;
    return f32_to_dt_bits(v, ddt);
}

namespace {
int64_t scale_index(const int64_t *pos, const dims_t &dims, int mask) {
    int64_t idx = 0;
    for (size_t d = 0; d < dims.size(); ++d)
        if (mask & (1 << d)) idx = idx * dims[d] + pos[d];
    return idx;
}
} // namespace

ref_attr_t::ref_attr_t(const prb_t &prb)
        : prb_(prb), src_scales_(prb.scale_values(prb.attr.src_scale)),
          dst_scales_(prb.scale_values(prb.attr.dst_scale)) {
    base_.src_zp = prb.attr.src_zp;
    base_.dst_zp = prb.attr.dst_zp;
    base_.has_sum = prb.attr.has_sum;
    base_.beta = prb.attr.sum_beta;
}

elem_params_t ref_attr_t::at(const int64_t *pos) const {
    elem_params_t p = base_;
    p.src_scale = src_scales_[size_t(scale_index(pos, prb_.dims, prb_.attr.src_scale.mask))];
    p.dst_scale = dst_scales_[size_t(scale_index(pos, prb_.dims, prb_.attr.dst_scale.mask))];
    return p;
}

void compute_ref(const prb_t &prb, const layout_t &src_l, const void *src, const layout_t &dst_l,
        const void *dst_old, std::vector<uint32_t> &exp) {
    const int64_t n = volume(prb.dims);
    exp.assign(size_t(n), 0);
    if (n == 0) return;
    const int nd = int(prb.dims.size());
    const bool bit_copy = prb.is_bit_copy();
    const auto src_scales = prb.scale_values(prb.attr.src_scale);
    const auto dst_scales = prb.scale_values(prb.attr.dst_scale);
    elem_params_t p;
    p.src_zp = prb.attr.src_zp;
    p.dst_zp = prb.attr.dst_zp;
    p.has_sum = prb.attr.has_sum;
    p.beta = prb.attr.sum_beta;
    p.has_scale_adjust = dst_l.has_scale_adjust();
    p.scale_adjust = dst_l.scale_adjust;

    int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 };
    int64_t i = 0;
    do {
        const uint32_t sbits = load_bits(src, prb.sdt, src_l.off(pos));
        if (bit_copy) {
            exp[size_t(i)] = sbits;
        } else {
            p.src_scale = src_scales[size_t(scale_index(pos, prb.dims, prb.attr.src_scale.mask))];
            p.dst_scale = dst_scales[size_t(scale_index(pos, prb.dims, prb.attr.dst_scale.mask))];
            const float old =
                    p.has_sum ? dt_bits_to_f32(load_bits(dst_old, prb.ddt, dst_l.off(pos)), prb.ddt)
                              : 0.f;
            exp[size_t(i)] = ref_elem(dt_bits_to_f32(sbits, prb.sdt), old, p, prb.ddt);
        }
        ++i;
    } while (next_pos(pos, prb.dims.data(), nd));
}

void compute_comp(const layout_t &dst_l, const void *dst, int mask, int32_t factor,
        std::vector<int32_t> &comp) {
    // uint32 arithmetic: int32 wrap-around without undefined behaviour.
    std::vector<uint32_t> acc(size_t(dst_l.comp_count(mask)), 0u);
    if (!dst_l.zero_volume()) {
        int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 };
        do {
            const int64_t q = dt_bits_to_int(load_bits(dst, dst_l.dt, dst_l.off(pos)), dst_l.dt);
            acc[size_t(dst_l.comp_index(pos, mask))] += uint32_t(q);
        } while (next_pos(pos, dst_l.dims.data(), dst_l.ndims));
    }
    comp.resize(acc.size());
    for (size_t m = 0; m < acc.size(); ++m)
        comp[m] = int32_t(uint32_t(factor) * acc[m]);
}

bool bits_match(uint32_t exp, uint32_t got, dt_t dt, bool bit_copy) {
    if (exp == got) return true;
    if (bit_copy || !dt_is_float(dt)) return false;
    if (dt_bits_is_nan(exp, dt)) return dt_bits_is_nan(got, dt);
    return dt_bits_is_zero(exp, dt) && dt_bits_is_zero(got, dt);
}

} // namespace bdl
