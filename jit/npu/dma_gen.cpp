#include "jit/npu/dma_gen.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "npu/npu_utils.hpp"

namespace relayout {
namespace impl {
namespace npu {

namespace {

// One side of a transfer: exactly one of the two pointers is set.
struct endpoint_t {
    const npu_local_desc_t *local = nullptr;
    const npu_sys_desc_t *sys = nullptr;

    const int64_t *dims() const { return local ? local->dims : sys->dims; }
    relayout_data_type_t dt() const { return local ? local->data_type : sys->data_type; }
    npu_storage_t storage() const { return local ? local->storage : sys->storage; }
    bool is_matrix() const { return local && local->layout == npu_layout_t::matrix; }
};

dma_fmt_t fmt_of(relayout_data_type_t dt, npu_storage_t st) {
    switch (st) {
        case npu_storage_t::mode_4n:
            return dt == relayout_u8 ? dma_fmt_t::uint8x4 : dma_fmt_t::int8x4;
        case npu_storage_t::mode_2n:
            return dt == relayout_u16 ? dma_fmt_t::uint16x2 : dma_fmt_t::int16x2;
        case npu_storage_t::mode_2ic: return dma_fmt_t::fp32x2;
        default: break;
    }
    switch (dt) {
        case relayout_s8: return dma_fmt_t::int8;
        case relayout_u8: return dma_fmt_t::uint8;
        case relayout_s16: return dma_fmt_t::int16;
        case relayout_u16: return dma_fmt_t::uint16;
        case relayout_f16: return dma_fmt_t::fp16;
        case relayout_bf16: return dma_fmt_t::bf16;
        case relayout_s32: return dma_fmt_t::int32;
        default: return dma_fmt_t::fp32;
    }
}

// Moves a side's start to channel c0 of the command's C dim.
void shift_channels(const npu_config_t &cfg, dma_side_t &s, int64_t c0, int64_t eb) {
    if (s.is_local) {
        const int64_t t = s.npu + c0;
        s.npu = (int)(t % cfg.npu_num);
        s.addr += (t / cfg.npu_num) * s.stride[1] * eb;
    } else {
        s.addr += c0 * s.stride[1] * eb;
    }
}

// A generic (non-channel) dim of a command under normalization.
struct gdim_t {
    int64_t n, ss, ds; // count, source stride, destination stride
};

class lowerer_t {
public:
    lowerer_t(const npu_config_t &cfg, std::vector<dma_cmd_t> &out) : cfg_(cfg), out_(out) {}

    // Lowers one region (any counts) into commands.
    void region(const dma_cmd_t &proto) {
        for (int i = 0; i < 4; ++i)
            if (proto.shape[i] == 0) return;
        if (fits(proto)) {
            out_.push_back(proto);
            return;
        }
        const int64_t eb = dma_fmt_bytes(proto.fmt);
        for (int64_t c0 = 0; c0 < proto.shape[1]; c0 += k_dma_max_c) {
            dma_cmd_t sub = proto;
            sub.shape[1] = std::min(k_dma_max_c, proto.shape[1] - c0);
            shift_channels(cfg_, sub.src, c0, eb);
            shift_channels(cfg_, sub.dst, c0, eb);
            normalized(sub);
        }
    }

private:
    const npu_config_t &cfg_;
    std::vector<dma_cmd_t> &out_;
    dma_cmd_t base_{}; // the channel run being lowered
    int64_t eb_ = 0;

    bool fits(const dma_cmd_t &c) const {
        for (int i = 0; i < 4; ++i)
            if (c.shape[i] > (i == 1 ? k_dma_max_c : k_dma_max_nhw)) return false;
        return !cfg_.dma_w_stride_one || c.shape[3] <= 1
               || (c.src.stride[3] == 1 && c.dst.stride[3] == 1);
    }

    static bool is_unit(const gdim_t &d) { return d.ss == 1 && d.ds == 1; }

    // Folds inner dim a into outer dim b where both sides are contiguous.
    static void merge(std::vector<gdim_t> &dims) {
        bool again = true;
        while (again) {
            again = false;
            for (size_t a = 0; a < dims.size() && !again; ++a)
                for (size_t b = 0; b < dims.size() && !again; ++b) {
                    if (a == b) continue;
                    if (dims[b].ss == dims[a].n * dims[a].ss
                            && dims[b].ds == dims[a].n * dims[a].ds) {
                        dims[a].n *= dims[b].n;
                        dims.erase(dims.begin() + b);
                        again = true;
                    }
                }
        }
    }

    void normalized(const dma_cmd_t &c) {
        base_ = c;
        eb_ = dma_fmt_bytes(c.fmt);
        std::vector<gdim_t> dims;
        for (int i : { 0, 2, 3 })
            if (c.shape[i] != 1) dims.push_back({ c.shape[i], c.src.stride[i], c.dst.stride[i] });
        merge(dims);
        process(dims, 0, 0);
    }

    // Index of the dim that takes the W slot under the W stride rule, or -1.
    static int unit_dim(const std::vector<gdim_t> &dims) {
        for (size_t i = 0; i < dims.size(); ++i)
            if (is_unit(dims[i])) return (int)i;
        return -1;
    }

    void process(std::vector<gdim_t> dims, int64_t sdelta, int64_t ddelta) {
        const int unit = unit_dim(dims);
        const size_t cap = cfg_.dma_w_stride_one && unit < 0 ? 2 : 3;
        if (dims.size() > cap) {
            // Loop over the shortest dim (never the one that needs the W slot).
            int k = -1;
            for (int i = 0; i < (int)dims.size(); ++i) {
                if (cfg_.dma_w_stride_one && i == unit) continue;
                if (k < 0 || dims[i].n < dims[k].n) k = i;
            }
            const gdim_t d = dims[k];
            dims.erase(dims.begin() + k);
            for (int64_t i = 0; i < d.n; ++i)
                process(dims, sdelta + i * d.ss, ddelta + i * d.ds);
            return;
        }
        int k = -1;
        for (int i = 0; i < (int)dims.size(); ++i)
            if (dims[i].n > k_dma_max_nhw) k = i;
        if (k < 0) {
            emit(dims, sdelta, ddelta);
            return;
        }
        const gdim_t d = dims[k];
        const int64_t lim = k_dma_max_nhw;
        if (dims.size() < cap) {
            // A free slot: refactor n = outer * inner exactly if possible.
            for (int64_t f = lim; f >= div_up(d.n, lim); --f) {
                if (d.n % f != 0) continue;
                dims[k] = { f, d.ss, d.ds };
                dims.push_back({ d.n / f, f * d.ss, f * d.ds });
                process(dims, sdelta, ddelta);
                return;
            }
            // No exact factors: a (q x lim) body and a tail.
            const int64_t q = d.n / lim, r = d.n % lim;
            std::vector<gdim_t> body = dims;
            body[k] = { lim, d.ss, d.ds };
            body.push_back({ q, lim * d.ss, lim * d.ds });
            process(body, sdelta, ddelta);
            if (r > 0) {
                dims[k] = { r, d.ss, d.ds };
                process(dims, sdelta + q * lim * d.ss, ddelta + q * lim * d.ds);
            }
            return;
        }
        for (int64_t i0 = 0; i0 < d.n; i0 += lim) {
            dims[k] = { std::min(lim, d.n - i0), d.ss, d.ds };
            process(dims, sdelta + i0 * d.ss, ddelta + i0 * d.ds);
        }
    }

    void emit(std::vector<gdim_t> dims, int64_t sdelta, int64_t ddelta) {
        dma_cmd_t c = base_;
        c.src.addr += sdelta * eb_;
        c.dst.addr += ddelta * eb_;
        for (int i : { 0, 2, 3 }) {
            c.shape[i] = 1;
            c.src.stride[i] = c.dst.stride[i] = i == 3 ? 1 : 0;
        }
        // W slot: the unit dim if any, else (when allowed) the dim with the
        // smallest destination stride.
        int w = unit_dim(dims);
        if (w < 0 && !cfg_.dma_w_stride_one && !dims.empty()) {
            w = 0;
            for (int i = 1; i < (int)dims.size(); ++i)
                if (std::llabs(dims[i].ds) < std::llabs(dims[w].ds)) w = i;
        }
        if (w >= 0) {
            c.shape[3] = dims[w].n;
            c.src.stride[3] = dims[w].ss;
            c.dst.stride[3] = dims[w].ds;
            dims.erase(dims.begin() + w);
        }
        std::sort(dims.begin(), dims.end(), [](const gdim_t &a, const gdim_t &b) {
            return std::llabs(a.ds) < std::llabs(b.ds);
        });
        const int slots[2] = { 2, 0 }; // H, then N
        for (size_t i = 0; i < dims.size(); ++i) {
            c.shape[slots[i]] = dims[i].n;
            c.src.stride[slots[i]] = dims[i].ss;
            c.dst.stride[slots[i]] = dims[i].ds;
        }
        out_.push_back(c);
    }
};

dma_side_t side_of(const npu_config_t &cfg, const endpoint_t &e) {
    dma_side_t s{};
    if (e.local) {
        s.is_local = 1;
        s.npu = start_npu(cfg, *e.local);
        s.addr = start_offset(cfg, *e.local);
        local_strides(cfg, *e.local, s.stride);
    } else {
        s.is_local = 0;
        s.addr = e.sys->offset;
        std::copy(e.sys->strides, e.sys->strides + 4, s.stride);
    }
    return s;
}

// Side of a matrix region that starts at packed channel c0 (Wm columns per
// channel). A system side maps (row, col) with its N and C strides.
dma_side_t matrix_side(
        const npu_config_t &cfg, const endpoint_t &e, int64_t c0, int64_t wm, int64_t eb) {
    dma_side_t s = side_of(cfg, e);
    if (e.local) {
        shift_channels(cfg, s, c0, eb);
        return s;
    }
    const int64_t sc = e.sys->strides[1];
    s.addr += c0 * wm * sc * eb;
    s.stride[0] = e.sys->strides[0];
    s.stride[1] = wm * sc;
    s.stride[2] = wm * sc;
    s.stride[3] = sc;
    return s;
}

// Bytes of local memory a tensor touches: lanes [first, first+count) mod X
// and offsets [lo, hi) in each.
bool local_footprints_overlap(
        const npu_config_t &cfg, const npu_local_desc_t &a, const npu_local_desc_t &b) {
    if (local_is_zero_volume(a) || local_is_zero_volume(b)) return false;
    auto lanes = [&](const npu_local_desc_t &d, std::vector<bool> &used) {
        int64_t pd[4];
        packed_dims(d, pd);
        const int64_t q = start_npu(cfg, d);
        for (int64_t c = 0; c < std::min<int64_t>(pd[1], cfg.npu_num); ++c)
            used[(size_t)((q + c) % cfg.npu_num)] = true;
    };
    std::vector<bool> la(cfg.npu_num, false), lb(cfg.npu_num, false);
    lanes(a, la);
    lanes(b, lb);
    bool common = false;
    for (int i = 0; i < cfg.npu_num; ++i)
        common = common || (la[i] && lb[i]);
    if (!common) return false;
    const int64_t alo = start_offset(cfg, a), ahi = alo + bytes_per_npu(cfg, a);
    const int64_t blo = start_offset(cfg, b), bhi = blo + bytes_per_npu(cfg, b);
    return alo < bhi && blo < ahi;
}

status_t check_pair(const endpoint_t &src, const endpoint_t &dst) {
    for (int i = 0; i < 4; ++i)
        if (src.dims()[i] != dst.dims()[i])
            return failf(status_t::invalid_arguments,
                    "npu transfer: source dims %lldx%lldx%lldx%lld differ "
                    "from destination dims %lldx%lldx%lldx%lld",
                    (long long)src.dims()[0], (long long)src.dims()[1], (long long)src.dims()[2],
                    (long long)src.dims()[3], (long long)dst.dims()[0], (long long)dst.dims()[1],
                    (long long)dst.dims()[2], (long long)dst.dims()[3]);
    if (src.dt() != dst.dt())
        return failf(status_t::unimplemented,
                "npu transfer: DMA moves bytes and does not convert data "
                "types (source %s, destination %s)",
                dt_name(src.dt()), dt_name(dst.dt()));
    if (src.storage() != dst.storage())
        return failf(status_t::unimplemented,
                "npu transfer: storage modes differ (source %s, destination "
                "%s); DMA does not repack elements: pack on the host first "
                "(npu::repack) or use npu::scatter/gather",
                storage_name(src.storage()), storage_name(dst.storage()));
    if (src.is_matrix() || dst.is_matrix()) {
        const bool both = src.is_matrix() && dst.is_matrix();
        if ((both && src.local->matrix_w != dst.local->matrix_w)
                || (!both && src.local && dst.local))
            return failf(status_t::unimplemented,
                    "npu transfer: a matrix moves to or from system memory, "
                    "or to a matrix with the same W, only");
    }
    return status_t::success;
}

status_t generate(const npu_config_t &cfg, const endpoint_t &src, const endpoint_t &dst,
        dma_program_t &prog) {
    RL_CHECK(validate_config(cfg));
    if (src.local) RL_CHECK(validate_local(cfg, *src.local));
    if (src.sys) RL_CHECK(validate_sys(*src.sys, false));
    if (dst.local) RL_CHECK(validate_local(cfg, *dst.local));
    if (dst.sys) RL_CHECK(validate_sys(*dst.sys, true));
    RL_CHECK(check_pair(src, dst));
    if (src.local && dst.local && local_footprints_overlap(cfg, *src.local, *dst.local))
        return failf(status_t::invalid_arguments,
                "npu transfer: L2L source %s and destination %s share local "
                "memory",
                local_desc_str(cfg, *src.local).c_str(), local_desc_str(cfg, *dst.local).c_str());
    if (src.sys && dst.sys && !sys_is_zero_volume(*src.sys)) {
        const int64_t slo = src.sys->offset, shi = sys_required_bytes(*src.sys);
        const int64_t dlo = dst.sys->offset, dhi = sys_required_bytes(*dst.sys);
        if (slo < dhi && dlo < shi)
            return failf(status_t::invalid_arguments,
                    "npu transfer: S2S source bytes [%lld, %lld) and "
                    "destination bytes [%lld, %lld) overlap",
                    (long long)slo, (long long)shi, (long long)dlo, (long long)dhi);
    }

    dma_program_t p;
    p.cfg = cfg;
    dma_cmd_t proto{};
    proto.dir = src.local ? (dst.local ? dma_dir_t::l2l : dma_dir_t::l2s)
                          : (dst.local ? dma_dir_t::s2l : dma_dir_t::s2s);
    proto.fmt = fmt_of(src.dt(), src.storage());
    const int64_t eb = dma_fmt_bytes(proto.fmt);
    lowerer_t low(cfg, p.cmds);

    if (src.is_matrix() || dst.is_matrix()) {
        const npu_local_desc_t &m = src.is_matrix() ? *src.local : *dst.local;
        const int64_t rows = m.dims[0], cols = m.dims[1], wm = m.matrix_w;
        const int64_t full = cols / wm, rem = cols - wm * full;
        if (full > 0) {
            dma_cmd_t c = proto;
            c.shape[0] = rows;
            c.shape[1] = full;
            c.shape[2] = 1;
            c.shape[3] = wm;
            c.src = matrix_side(cfg, src, 0, wm, eb);
            c.dst = matrix_side(cfg, dst, 0, wm, eb);
            low.region(c);
        }
        if (rem > 0) {
            dma_cmd_t c = proto;
            c.shape[0] = rows;
            c.shape[1] = 1;
            c.shape[2] = 1;
            c.shape[3] = rem;
            c.src = matrix_side(cfg, src, full, wm, eb);
            c.dst = matrix_side(cfg, dst, full, wm, eb);
            low.region(c);
        }
    } else {
        dma_cmd_t c = proto;
        int64_t pd[4];
        if (src.local)
            packed_dims(*src.local, pd);
        else
            sys_packed_dims(*src.sys, pd);
        std::copy(pd, pd + 4, c.shape);
        c.src = side_of(cfg, src);
        c.dst = side_of(cfg, dst);
        low.region(c);
    }
    prog = std::move(p);
    return status_t::success;
}

} // namespace

status_t gen_s2l(const npu_config_t &cfg, const npu_sys_desc_t &src, const npu_local_desc_t &dst,
        dma_program_t &prog) {
    endpoint_t s, d;
    s.sys = &src;
    d.local = &dst;
    return generate(cfg, s, d, prog);
}

status_t gen_l2s(const npu_config_t &cfg, const npu_local_desc_t &src, const npu_sys_desc_t &dst,
        dma_program_t &prog) {
    endpoint_t s, d;
    s.local = &src;
    d.sys = &dst;
    return generate(cfg, s, d, prog);
}

status_t gen_l2l(const npu_config_t &cfg, const npu_local_desc_t &src, const npu_local_desc_t &dst,
        dma_program_t &prog) {
    endpoint_t s, d;
    s.local = &src;
    d.local = &dst;
    return generate(cfg, s, d, prog);
}

status_t gen_s2s(const npu_config_t &cfg, const npu_sys_desc_t &src, const npu_sys_desc_t &dst,
        dma_program_t &prog) {
    endpoint_t s, d;
    s.sys = &src;
    d.sys = &dst;
    return generate(cfg, s, d, prog);
}

} // namespace npu
} // namespace impl
} // namespace relayout
