// benchdnn_lite — layout from the public descriptor queries.
#include "layout.hpp"

namespace bdl {

layout_t make_layout(const api::md_t &md) {
    auto q = [&](relayout_query_t what, void *res) {
        api::check(relayout_memory_desc_query(md.get(), what, res), "memory_desc_query");
    };
    auto q_dims = [&](relayout_query_t what, int n) {
        const relayout_dim_t *p = nullptr;
        q(what, &p);
        return p ? dims_t(p, p + n) : dims_t(size_t(n), 0);
    };
    layout_t l;
    q(relayout_query_ndims_s32, &l.ndims);
    q(relayout_query_data_type, &l.dt);
    q(relayout_query_offset0_s64, &l.offset0);
    q(relayout_query_inner_nblks_s32, &l.nblks);
    q(relayout_query_extra_flags_u64, &l.flags);
    l.size = md.size();
    l.dims = q_dims(relayout_query_dims, l.ndims);
    l.padded_dims = q_dims(relayout_query_padded_dims, l.ndims);
    l.padded_offsets = q_dims(relayout_query_padded_offsets, l.ndims);
    l.strides = q_dims(relayout_query_strides, l.ndims);
    l.blks = q_dims(relayout_query_inner_blks, l.nblks);
    l.idxs = q_dims(relayout_query_inner_idxs, l.nblks);
    if (l.flags) {
        q(relayout_query_compensation_mask_s32, &l.comp_mask);
        q(relayout_query_asymm_compensation_mask_s32, &l.asymm_mask);
        if (l.flags & relayout_extra_flag_scale_adjust)
            q(relayout_query_scale_adjust_f32, &l.scale_adjust);
    }
    return l;
}

int64_t layout_t::off(const int64_t *pos) const {
    int64_t p[RELAYOUT_MAX_NDIMS];
    for (int d = 0; d < ndims; ++d)
        p[d] = pos[d] + padded_offsets[d];
    int64_t o = 0, blk_stride = 1;
    for (int b = nblks - 1; b >= 0; --b) { // innermost block first
        const int d = int(idxs[b]);
        o += (p[d] % blks[b]) * blk_stride;
        p[d] /= blks[b];
        blk_stride *= blks[b];
    }
    o += offset0;
    for (int d = 0; d < ndims; ++d)
        o += p[d] * strides[d];
    return o;
}

bool layout_t::zero_volume() const {
    for (auto d : dims)
        if (d == 0) return true;
    return false;
}

bool layout_t::has_s8s8() const {
    return flags & relayout_extra_flag_compensation_conv_s8s8;
}
bool layout_t::has_zp_comp() const {
    return flags & relayout_extra_flag_compensation_conv_asymmetric_src;
}
bool layout_t::has_scale_adjust() const {
    return flags & relayout_extra_flag_scale_adjust;
}

int64_t layout_t::comp_count(int mask) const {
    int64_t n = 1;
    for (int d = 0; d < ndims; ++d)
        if (mask & (1 << d)) n *= padded_dims[d];
    return n;
}

size_t layout_t::comp_bytes() const {
    size_t b = 0;
    if (has_s8s8()) b += sizeof(int32_t) * size_t(comp_count(comp_mask));
    if (has_zp_comp()) b += sizeof(int32_t) * size_t(comp_count(asymm_mask));
    return b;
}

int64_t layout_t::s8s8_byte_offset() const {
    return has_s8s8() ? int64_t(size - comp_bytes()) : -1;
}

int64_t layout_t::zp_byte_offset() const {
    if (!has_zp_comp()) return -1;
    int64_t o = int64_t(size - comp_bytes());
    if (has_s8s8()) o += int64_t(sizeof(int32_t) * comp_count(comp_mask));
    return o;
}

int64_t layout_t::comp_index(const int64_t *pos, int mask) const {
    int64_t m = 0;
    for (int d = 0; d < ndims; ++d)
        if (mask & (1 << d)) m = m * padded_dims[d] + pos[d];
    return m;
}

} // namespace bdl
