#include "ref/ref_reorder.hpp"

#include <cstring>
#include <vector>

#include "common/threading.hpp"
#include "ref/numerics.hpp"

namespace relayout {
namespace impl {

namespace {

// Where an element goes: computed, zero (dst padding) or nowhere (beyond
// the dst's padded extent, only read positions of a larger src padding).
enum class elem_kind_t { value, zero, skip };

struct walker_state_t {
    dim_t soff, doff, si, di, ci, zi;
    dim_t pos[max_ndims];
};

inline dim_t node_soff(const plan_t &p, const node_t &nd, dim_t i) {
    return nd.tab >= 0 ? p.tabs[nd.tab].src[i] : i * nd.is;
}
inline dim_t node_doff(const plan_t &p, const node_t &nd, dim_t i) {
    return nd.tab >= 0 ? p.tabs[nd.tab].dst[i] : i * nd.os;
}

// State of the outer counters ctr[0 .. K-2].
void outer_state(const plan_t &p, const dim_t *ctr, walker_state_t &st) {
    st.soff = p.src_off0;
    st.doff = p.dst_off0;
    st.si = st.di = st.ci = st.zi = 0;
    for (int d = 0; d < max_ndims; ++d)
        st.pos[d] = 0;
    const int K = (int)p.nodes.size();
    for (int k = 0; k + 1 < K; ++k) {
        const node_t &nd = p.nodes[k];
        const dim_t i = ctr[k];
        st.soff += node_soff(p, nd, i);
        st.doff += node_doff(p, nd, i);
        st.si += i * nd.ss;
        st.di += i * nd.ds;
        st.ci += i * nd.cs;
        st.zi += i * nd.zs;
        if (nd.dim >= 0) st.pos[nd.dim] += i * nd.mult;
    }
}

template <data_type_t sdt, data_type_t ddt>
void run_chunk(const plan_t &p, const exec_ctx_t &c, dim_t start, dim_t end, int64_t *s8s8_acc,
        int64_t *zp_acc) {
    const int K = (int)p.nodes.size();
    int checked[max_ndims], nchecked = 0;
    for (int d = 0; d < p.ndims; ++d)
        if (p.check[d]) checked[nchecked++] = d;
    const size_t ssz = data_type_size(sdt);

    value_params_t q;
    q.src_scale = 1.f;
    q.dst_scale = 1.f;
    q.src_zp = static_cast<float>(p.src_zp);
    q.dst_zp = static_cast<float>(p.dst_zp);
    q.beta = p.beta;
    q.scale_adjust = p.scale_adjust;

    // Decode `start` into counters, innermost fastest.
    std::vector<dim_t> ctr(K > 0 ? K : 1, 0);
    {
        dim_t idx = start;
        for (int k = K - 1; k >= 0; --k) {
            ctr[k] = idx % p.nodes[k].n;
            idx /= p.nodes[k].n;
        }
    }
    const node_t inner = K > 0 ? p.nodes[K - 1] : node_t{ 1, 0, 0, -1, 1, 0, 0, 0, 0, -1 };

    dim_t done = start;
    walker_state_t st;
    while (done < end) {
        outer_state(p, ctr.data(), st);
        const dim_t i0 = K > 0 ? ctr[K - 1] : 0;
        const dim_t i1 = std::min<dim_t>(inner.n, i0 + (end - done));
        for (dim_t i = i0; i < i1; ++i) {
            elem_kind_t kind = elem_kind_t::value;
            for (int k = 0; k < nchecked; ++k) {
                const int d = checked[k];
                dim_t pos = st.pos[d];
                if (inner.dim == d) pos += i * inner.mult;
                if (pos >= p.dst_padded[d]) {
                    kind = elem_kind_t::skip;
                    break;
                }
                if (pos >= p.dims[d]) kind = elem_kind_t::zero;
            }
            if (kind == elem_kind_t::skip) continue;
            const dim_t doff = st.doff + (K > 0 ? node_doff(p, inner, i) : 0);
            if (kind == elem_kind_t::zero) {
                std::memset(static_cast<char *>(c.dst) + doff * data_type_size(ddt), 0,
                        data_type_size(ddt));
                continue;
            }
            const dim_t soff = st.soff + (K > 0 ? node_soff(p, inner, i) : 0);
            if (p.bit_copy) {
                std::memcpy(static_cast<char *>(c.dst) + doff * ssz,
                        static_cast<const char *>(c.src) + soff * ssz, ssz);
            } else {
                if (p.src_scale_mask >= 0) q.src_scale = c.src_scales[st.si + i * inner.ss];
                if (p.dst_scale_mask >= 0) q.dst_scale = c.dst_scales[st.di + i * inner.ds];
                const float s = load_f32<sdt>(c.src, soff);
                const float old = p.beta != 0.f ? load_f32<ddt>(c.dst, doff) : 0.f;
                store_f32<ddt>(c.dst, doff, compute_value(q, s, old));
            }
            if (s8s8_acc || zp_acc) {
                const int64_t v = static_cast<int64_t>(load_f32<ddt>(c.dst, doff));
                if (s8s8_acc) s8s8_acc[st.ci + i * inner.cs] += v;
                if (zp_acc) zp_acc[st.zi + i * inner.zs] += v;
            }
        }
        done += i1 - i0;
        // Advance the counters past the row.
        if (K == 0) break;
        ctr[K - 1] = 0;
        for (int k = K - 2; k >= 0; --k) {
            if (++ctr[k] < p.nodes[k].n) break;
            ctr[k] = 0;
        }
    }
}

using chunk_fn_t = void (*)(const plan_t &, const exec_ctx_t &, dim_t, dim_t, int64_t *, int64_t *);

template <data_type_t sdt>
chunk_fn_t pick_ddt(data_type_t ddt) {
    switch (ddt) {
        case relayout_f32: return run_chunk<sdt, relayout_f32>;
        case relayout_bf16: return run_chunk<sdt, relayout_bf16>;
        case relayout_f16: return run_chunk<sdt, relayout_f16>;
        case relayout_s32: return run_chunk<sdt, relayout_s32>;
        case relayout_s16: return run_chunk<sdt, relayout_s16>;
        case relayout_u16: return run_chunk<sdt, relayout_u16>;
        case relayout_s8: return run_chunk<sdt, relayout_s8>;
        case relayout_u8: return run_chunk<sdt, relayout_u8>;
        default: return nullptr;
    }
}

chunk_fn_t pick(data_type_t sdt, data_type_t ddt) {
    switch (sdt) {
        case relayout_f32: return pick_ddt<relayout_f32>(ddt);
        case relayout_bf16: return pick_ddt<relayout_bf16>(ddt);
        case relayout_f16: return pick_ddt<relayout_f16>(ddt);
        case relayout_s32: return pick_ddt<relayout_s32>(ddt);
        case relayout_s16: return pick_ddt<relayout_s16>(ddt);
        case relayout_u16: return pick_ddt<relayout_u16>(ddt);
        case relayout_s8: return pick_ddt<relayout_s8>(ddt);
        case relayout_u8: return pick_ddt<relayout_u8>(ddt);
        default: return nullptr;
    }
}

} // namespace

status_t ref_reorder_execute(const plan_t &p, const exec_ctx_t &ctx) {
    if (p.zero_volume) return status_t::success;
    const chunk_fn_t fn = pick(p.sdt, p.ddt);
    if (!fn)
        return failf(status_t::unimplemented, "ref reorder: %s -> %s is not supported",
                dt2str(p.sdt), dt2str(p.ddt));
    const dim_t total = p.nelems();
    const size_t bytes = size_t(total) * (data_type_size(p.sdt) + data_type_size(p.ddt));
    int nthr = bytes < serial_threshold_bytes ? 1 : max_threads();
    if (nthr > total) nthr = (int)std::max<dim_t>(total, 1);

    const bool comp = p.s8s8_comp || p.zp_comp;
    const dim_t ns = p.s8s8_count, nz = p.zp_count;
    std::vector<int64_t> acc(comp ? size_t(nthr) * (ns + nz) : 0, 0);
    parallel(nthr, [&](int ithr, int nt) {
        dim_t start, end;
        balance211(total, nt, ithr, start, end);
        int64_t *a = comp ? acc.data() + size_t(ithr) * (ns + nz) : nullptr;
        if (start < end)
            fn(p, ctx, start, end, p.s8s8_comp ? a : nullptr, p.zp_comp ? a + ns : nullptr);
    });
    if (comp) plan_store_compensation(p, acc.data(), nthr, ctx.dst);
    return status_t::success;
}

status_t zero_pad(const memory_desc_t &md, void *handle) {
    if (!handle || md.ndims == 0 || md.format_kind != relayout_blocked || has_zero_dim(md)
            || !md_has_padding(md))
        return status_t::success;
    const size_t esz = data_type_size(md.data_type);
    dim_t total = 1;
    for (int d = 0; d < md.ndims; ++d)
        total *= md.padded_dims[d];
    const int nthr = total * esz < serial_threshold_bytes ? 1 : max_threads();
    parallel(nthr, [&](int ithr, int nt) {
        dim_t start, end;
        balance211(total, nt, ithr, start, end);
        dim_t pos[max_ndims];
        dim_t idx = start;
        for (int d = md.ndims - 1; d >= 0; --d) {
            pos[d] = idx % md.padded_dims[d];
            idx /= md.padded_dims[d];
        }
        for (dim_t e = start; e < end; ++e) {
            bool pad = false;
            for (int d = 0; d < md.ndims; ++d)
                if (pos[d] >= md.dims[d]) pad = true;
            if (pad) std::memset(static_cast<char *>(handle) + md_off_l(md, pos) * esz, 0, esz);
            for (int d = md.ndims - 1; d >= 0; --d) {
                if (++pos[d] < md.padded_dims[d]) break;
                pos[d] = 0;
            }
        }
    });
    return status_t::success;
}

} // namespace impl
} // namespace relayout
