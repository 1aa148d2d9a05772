// benchdnn_lite — problem helpers.
#include "problem.hpp"

namespace bdl {

uint64_t oflag_t::flags() const {
    uint64_t f = 0;
    if (s8s8_mask >= 0) f |= relayout_extra_flag_compensation_conv_s8s8;
    if (zp_mask >= 0) f |= relayout_extra_flag_compensation_conv_asymmetric_src;
    if (has_scale_adjust) f |= relayout_extra_flag_scale_adjust;
    return f;
}

std::vector<float> prb_t::scale_values(const scale_t &s) const {
    if (!s.present) return { 1.f };
    if (s.mask == 0) return { s.value };
    int64_t count = 1;
    for (size_t d = 0; d < dims.size(); ++d)
        if (s.mask & (1 << d)) count *= dims[d];
    // Varied but deterministic: powers of two and a few values whose
    // division really rounds.
    static const float factors[] = { 1.f, 0.5f, 2.f, 0.25f, 1.5f, 0.75f, 3.f, 0.3f };
    std::vector<float> v(size_t(count > 0 ? count : 1));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = s.value * factors[i % 8];
    return v;
}

bool prb_t::is_bit_copy() const {
    if (sdt != ddt) return false;
    if (attr.src_zp != 0 || attr.dst_zp != 0 || attr.has_sum) return false;
    if (oflag.has_scale_adjust && oflag.scale_adjust != 1.f) return false;
    for (const scale_t *s : { &attr.src_scale, &attr.dst_scale })
        for (float v : scale_values(*s))
            if (v != 1.f) return false;
    return true;
}

} // namespace bdl
