#include "plan/plan.hpp"

#include <algorithm>
#include <cmath>

#include "plan/attr.hpp"

namespace relayout {
namespace impl {

namespace {

// One level of a side's structure along a dim: indices of this level step
// by `cut` logical positions and `stride` elements.
struct level_t {
    dim_t cut, stride;
};

// At most one level per inner block plus the outer one (fixed storage:
// planning runs at every primitive_desc creation, cache hits included).
struct levels_t {
    level_t l[max_ndims + 1];
    int n = 0;
    const level_t *begin() const { return l; }
    const level_t *end() const { return l + n; }
};

// Levels of dim d in md, innermost first: the inner blocks of d from the
// innermost outwards, then the outer (strided) level.
levels_t dim_levels(const memory_desc_t &md, int d) {
    const auto &bd = md.blocking;
    levels_t lv;
    dim_t cut = 1, inner_stride = 1;
    for (int i = std::min(bd.inner_nblks, max_ndims) - 1; i >= 0; --i) {
        if (bd.inner_idxs[i] == d) {
            lv.l[lv.n++] = { cut, inner_stride };
            cut *= bd.inner_blks[i];
        }
        inner_stride *= bd.inner_blks[i];
    }
    lv.l[lv.n++] = { cut, bd.strides[d] };
    return lv;
}

// Stride of a step of `c` logical positions; c is a multiple of some cut.
dim_t stride_at(const levels_t &lv, dim_t c) {
    const level_t *best = &lv.l[0];
    for (const auto &l : lv)
        if (l.cut <= c && c % l.cut == 0) best = &l;
    return best->stride * (c / best->cut);
}

// The sorted union of both sides' cuts of one dim.
struct cuts_t {
    dim_t c[2 * (max_ndims + 1)];
    int n = 0;
    void insert(dim_t v) {
        int i = n;
        while (i > 0 && c[i - 1] > v)
            --i;
        if (i > 0 && c[i - 1] == v) return;
        std::copy_backward(c + i, c + n, c + n + 1);
        c[i] = v;
        ++n;
    }
};

// Offset contribution of logical position i along dim d (offset0 excluded);
// the layout formula is separable per dim.
dim_t dim_offset(const memory_desc_t &md, int d, dim_t i) {
    const auto &bd = md.blocking;
    dim_t p = i, off = 0, blk_stride = 1;
    for (int k = bd.inner_nblks - 1; k >= 0; --k) {
        const dim_t blk = bd.inner_blks[k];
        if (bd.inner_idxs[k] == d) {
            off += (p % blk) * blk_stride;
            p /= blk;
        }
        blk_stride *= blk;
    }
    return off + p * bd.strides[d];
}

// Row-major index strides over the dims of a mask, with per-dim extents.
void mask_strides(int mask, int ndims, const dim_t *extent, dim_t *out) {
    dim_t s = 1;
    for (int d = ndims - 1; d >= 0; --d) {
        if (mask & (1 << d)) {
            out[d] = s;
            s *= extent[d];
        } else {
            out[d] = 0;
        }
    }
}

status_t check_scales(const scales_t &sc, const memory_desc_t &md, const char *which) {
    if (!sc.is_set()) return status_t::success;
    if (sc.mask < 0 || sc.mask >= (1 << md.ndims))
        return failf(status_t::invalid_arguments,
                "%s scales: mask %d names dims beyond the %d dims of the tensor", which, sc.mask,
                md.ndims);
    dim_t count = 1;
    for (int d = 0; d < md.ndims; ++d)
        if (sc.mask & (1 << d)) count *= md.dims[d];
    if ((dim_t)sc.values.size() != count)
        return failf(status_t::invalid_arguments,
                "%s scales: mask %d needs %lld values for dims %s but %zu were given", which,
                sc.mask, (long long)count, dims2str(md.dims, md.ndims).c_str(), sc.values.size());
    for (size_t i = 0; i < sc.values.size(); ++i)
        if (!std::isfinite(sc.values[i]) || (which[0] == 'd' && sc.values[i] == 0.f))
            return failf(status_t::invalid_arguments,
                    "%s scales: value %zu (%g) is not a finite%s number", which, i,
                    (double)sc.values[i], which[0] == 'd' ? " non-zero" : "");
    return status_t::success;
}

} // namespace

dim_t plan_t::nelems() const {
    if (zero_volume) return 0;
    dim_t n = 1;
    for (const auto &nd : nodes)
        n *= nd.n;
    return n;
}

std::string plan_t::dump() const {
    std::string s = std::string(dt2str(sdt)) + ">" + dt2str(ddt);
    if (zero_volume) return s + " zero-volume";
    if (src_off0 || dst_off0)
        s += " off:" + std::to_string(src_off0) + ">" + std::to_string(dst_off0);
    for (const auto &nd : nodes) {
        s += " [" + std::to_string(nd.n);
        if (nd.tab >= 0)
            s += " tab";
        else
            s += " " + std::to_string(nd.is) + " " + std::to_string(nd.os);
        if (nd.dim >= 0) {
            s += " d" + std::to_string(nd.dim);
            if (nd.mult != 1) s += "*" + std::to_string(nd.mult);
            if (check[nd.dim]) s += " pad";
        }
        s += "]";
    }
    if (bit_copy) s += " copy";
    if (src_scale_mask >= 0) s += " ssc:" + std::to_string(src_scale_mask);
    if (dst_scale_mask >= 0) s += " dsc:" + std::to_string(dst_scale_mask);
    if (src_zp) s += " szp:" + std::to_string(src_zp);
    if (dst_zp) s += " dzp:" + std::to_string(dst_zp);
    if (beta != 0.f) s += " sum:" + std::to_string(beta);
    if (s8s8_comp) s += " s8s8";
    if (zp_comp) s += " zpcomp";
    return s;
}

void plan_drop_trivial(std::vector<node_t> &nodes) {
    nodes.erase(
            std::remove_if(nodes.begin(), nodes.end(), [](const node_t &n) { return n.n == 1; }),
            nodes.end());
}

// Outermost first: decreasing dst stride; ties by src stride, then dim.
// A stable insertion sort: a handful of nodes, and no temporary buffer
// (std::stable_sort allocates one at every primitive_desc creation).
void plan_sort(std::vector<node_t> &nodes) {
    auto before = [](const node_t &a, const node_t &b) {
        if (a.os != b.os) return a.os > b.os;
        if (a.is != b.is) return a.is > b.is;
        return a.dim < b.dim;
    };
    for (size_t i = 1; i < nodes.size(); ++i) {
        const node_t x = nodes[i];
        size_t j = i;
        for (; j > 0 && before(x, nodes[j - 1]); --j)
            nodes[j] = nodes[j - 1];
        nodes[j] = x;
    }
}

// Merges an outer node into the inner one when the pair walks memory as one
// loop on both sides (and in every index it drives). In place, from the
// innermost node outwards: nodes[w..] is the folded nest so far.
void plan_fold(std::vector<node_t> &nodes, const bool *check) {
    if (nodes.size() < 2) return;
    size_t w = nodes.size() - 1;
    for (size_t k = w; k-- > 0;) {
        const node_t &o = nodes[k];
        node_t &i = nodes[w];
        const bool strided = o.tab < 0 && i.tab < 0;
        const bool mem = o.is == i.n * i.is && o.os == i.n * i.os;
        const bool idx = o.ss == i.n * i.ss && o.ds == i.n * i.ds && o.cs == i.n * i.cs
                         && o.zs == i.n * i.zs;
        bool logical;
        if (o.dim >= 0 && o.dim == i.dim)
            logical = o.mult == i.n * i.mult;
        else
            logical = (o.dim < 0 || !check[o.dim]) && (i.dim < 0 || !check[i.dim]);
        if (strided && mem && idx && logical) {
            const bool same_dim = o.dim >= 0 && o.dim == i.dim;
            i.n *= o.n;
            if (!same_dim) i.dim = -1;
        } else {
            nodes[--w] = o; // w > k before: nothing unread is overwritten
        }
    }
    nodes.erase(nodes.begin(), nodes.begin() + std::ptrdiff_t(w));
}

void plan_store_compensation(const plan_t &p, const int64_t *acc, int nthr, void *dst) {
    plan_store_compensation(p, acc, nthr, size_t(p.s8s8_count + p.zp_count), dst);
}

void plan_store_compensation(
        const plan_t &p, const int64_t *acc, int nthr, size_t stride, void *dst) {
    const dim_t ns = p.s8s8_count, n = p.s8s8_count + p.zp_count;
    int32_t *out = reinterpret_cast<int32_t *>(static_cast<char *>(dst) + p.comp_offset_bytes);
    for (dim_t m = 0; m < n; ++m) {
        int64_t s = 0;
        for (int t = 0; t < nthr; ++t)
            s += acc[size_t(t) * stride + m];
        out[m] = static_cast<int32_t>(m < ns ? -128 * s : -s);
    }
}

status_t plan_create(
        plan_t &p, const memory_desc_t &src, const memory_desc_t &dst, const attr_t &attr) {
    if (src.ndims == 0) return fail(status_t::invalid_arguments, "src: zero memory descriptor");
    if (dst.ndims == 0) return fail(status_t::invalid_arguments, "dst: zero memory descriptor");
    if (src.format_kind != relayout_blocked)
        return fail(status_t::invalid_arguments,
                "src: the layout must be blocked (format_kind any is only for dst)");
    if (dst.format_kind != relayout_blocked)
        return fail(status_t::invalid_arguments, "dst: the layout must be blocked");
    if (src.ndims != dst.ndims)
        return failf(status_t::invalid_arguments,
                "src has %d dims but dst has %d; a reorder keeps the dims", src.ndims, dst.ndims);
    for (int d = 0; d < src.ndims; ++d)
        if (src.dims[d] != dst.dims[d])
            return fail(status_t::invalid_arguments, "src dims " + dims2str(src.dims, src.ndims)
                                                             + " differ from dst dims "
                                                             + dims2str(dst.dims, dst.ndims));
    for (int d = 0; d < src.ndims; ++d)
        if (src.padded_offsets[d] || dst.padded_offsets[d])
            return fail(status_t::unimplemented, "non-zero padded_offsets are not supported");
    RL_CHECK(check_scales(attr.src_scales, src, "src"));
    RL_CHECK(check_scales(attr.dst_scales, dst, "dst"));

    const int ndims = src.ndims;
    p = plan_t();
    p.sdt = src.data_type;
    p.ddt = dst.data_type;
    p.src_off0 = src.offset0;
    p.dst_off0 = dst.offset0;
    p.ndims = ndims;
    for (int d = 0; d < max_ndims; ++d) {
        p.dims[d] = d < ndims ? src.dims[d] : 1;
        p.dst_padded[d] = d < ndims ? dst.padded_dims[d] : 1;
        p.check[d] = false;
    }
    p.zero_volume = has_zero_dim(src);
    p.src_scale_mask = attr.src_scales.is_set() ? attr.src_scales.mask : -1;
    p.dst_scale_mask = attr.dst_scales.is_set() ? attr.dst_scales.mask : -1;
    p.src_zp = attr.src_zp;
    p.dst_zp = attr.dst_zp;
    p.beta = attr.beta;
    p.scale_adjust =
            (dst.extra.flags & relayout_extra_flag_scale_adjust) ? dst.extra.scale_adjust : 1.f;
    p.s8s8_comp = dst.extra.flags & relayout_extra_flag_compensation_conv_s8s8;
    p.zp_comp = dst.extra.flags & relayout_extra_flag_compensation_conv_asymmetric_src;
    p.comp_offset_bytes = md_compensation_offset(dst);
    p.s8s8_count = p.s8s8_comp ? md_compensation_count(dst, dst.extra.compensation_mask) : 0;
    p.zp_count = p.zp_comp ? md_compensation_count(dst, dst.extra.asymm_compensation_mask) : 0;
    p.bit_copy = p.sdt == p.ddt && attr.src_scales.is_identity() && attr.dst_scales.is_identity()
                 && p.src_zp == 0 && p.dst_zp == 0 && p.beta == 0.f && p.scale_adjust == 1.f;
    // The dst must not write one address twice.
    {
        dim_t blocks[max_ndims];
        md_compute_blocks(dst, blocks);
        for (int d = 0; d < ndims; ++d)
            if (dst.padded_dims[d] / blocks[d] > 1 && dst.blocking.strides[d] == 0)
                return failf(status_t::invalid_arguments,
                        "dst: strides[%d] is 0 (broadcast); a destination cannot "
                        "write one element twice",
                        d);
    }
    if (p.zero_volume) return status_t::success;

    dim_t sstr[max_ndims], dstr[max_ndims], cstr[max_ndims], zstr[max_ndims];
    mask_strides(p.src_scale_mask > 0 ? p.src_scale_mask : 0, ndims, src.dims, sstr);
    mask_strides(p.dst_scale_mask > 0 ? p.dst_scale_mask : 0, ndims, dst.dims, dstr);
    mask_strides(p.s8s8_comp ? dst.extra.compensation_mask : 0, ndims, dst.padded_dims, cstr);
    mask_strides(p.zp_comp ? dst.extra.asymm_compensation_mask : 0, ndims, dst.padded_dims, zstr);

    std::vector<node_t> nodes;
    nodes.reserve(size_t(ndims + src.blocking.inner_nblks + dst.blocking.inner_nblks));
    for (int d = 0; d < ndims; ++d) {
        const levels_t sl = dim_levels(src, d);
        const levels_t dl = dim_levels(dst, d);
        cuts_t cuts;
        for (const auto &l : sl)
            cuts.insert(l.cut);
        for (const auto &l : dl)
            cuts.insert(l.cut);
        bool chain = true;
        dim_t prev = 1;
        for (int k = 0; k < cuts.n; ++k) {
            if (cuts.c[k] % prev) chain = false;
            prev = cuts.c[k];
        }
        const dim_t top = cuts.c[cuts.n - 1];
        const dim_t padded = std::max(src.padded_dims[d], dst.padded_dims[d]);
        if (chain) {
            const dim_t extent = round_up(padded, top);
            p.check[d] = extent > p.dims[d];
            const dim_t *cv = cuts.c;
            for (int k = 0; k < cuts.n; ++k) {
                const dim_t c = cv[k];
                const dim_t n = k + 1 < cuts.n ? cv[k + 1] / c : extent / c;
                node_t nd;
                nd.n = n;
                nd.is = stride_at(sl, c);
                nd.os = stride_at(dl, c);
                nd.dim = d;
                nd.mult = c;
                nd.ss = sstr[d] * c;
                nd.ds = dstr[d] * c;
                nd.cs = cstr[d] * c;
                nd.zs = zstr[d] * c;
                nd.tab = -1;
                nodes.push_back(nd);
            }
        } else {
            // Blockings that do not nest: explicit offsets per position.
            p.check[d] = padded > p.dims[d];
            offset_table_t t;
            t.src.resize(padded);
            t.dst.resize(padded);
            for (dim_t i = 0; i < padded; ++i) {
                t.src[i] = i < src.padded_dims[d] ? dim_offset(src, d, i) : -1;
                t.dst[i] = i < dst.padded_dims[d] ? dim_offset(dst, d, i) : -1;
            }
            node_t nd;
            nd.n = padded;
            // Sort key only: the offset of position 1.
            nd.is = padded > 1 ? std::max<dim_t>(t.src[1], 0) : 0;
            nd.os = padded > 1 ? std::max<dim_t>(t.dst[1], 0) : 0;
            nd.dim = d;
            nd.mult = 1;
            nd.ss = sstr[d];
            nd.ds = dstr[d];
            nd.cs = cstr[d];
            nd.zs = zstr[d];
            nd.tab = (int)p.tabs.size();
            p.tabs.push_back(std::move(t));
            nodes.push_back(nd);
        }
    }
    plan_drop_trivial(nodes);
    plan_sort(nodes);
    plan_fold(nodes, p.check);
    p.nodes = std::move(nodes);
    return status_t::success;
}

} // namespace impl
} // namespace relayout
