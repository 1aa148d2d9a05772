// The reorder implementation "npu:dma": every reorder that touches an npu
// engine's memory. A reorder is lowered into a short pipeline of steps over
// up to four buffers (the user's cpu src/dst and two host staging buffers):
//
//   dma   an npu_transfer_t (S2L, L2S or L2L DMA program, itself possibly
//         with a host storage-mode repack) on the engine's simulator;
//   host  a cpu reorder (reorder_pd_create with cpu engines: the JIT or the
//         reference) for what DMA cannot express: blocked layouts, padding,
//         data-type conversion, scales, zero points, the sum post-op.
//
//   S2L   direct:  dma(user src -> local)             src plain/strided (or
//                                                     Abcd4a-style packed),
//                                                     same data type, no attr
//         staged:  [dma(local -> stage0) if sum] host(user src -> stage0)
//                  dma(stage0 -> local)
//   L2S   direct:  dma(local -> user dst)
//         staged:  dma(local -> stage0) host(stage0 -> user dst)
//   L2L   direct:  dma(local -> local)                 same type and storage
//                                                     mode, no attr
//         staged:  dma(src -> stage0) [host(stage0 -> stage1)] dma(-> dst)
//
// Staging buffers are dense plain (abcd) host tensors in the local side's
// data type, allocated per execution (a kernel is shared and may run
// concurrently).
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "common/verbose.hpp"
#include "md/format_tag.hpp"
#include "npu/npu_engine.hpp"
#include "npu/npu_utils.hpp"
#include "runtime/reorder.hpp"

namespace relayout {
namespace impl {
namespace npu {

namespace {

enum class buf_t { user_src, user_dst, stage0, stage1, none };

struct step_t {
    bool is_dma = true;
    // dma
    npu_transfer_t xfer;
    buf_t sys = buf_t::none; // the system buffer of an S2L / L2S
    bool on_dst = false;     // runs on the dst's engine (L2L across two engines)
    // host
    relayout_primitive_desc host_pd;
    std::shared_ptr<const kernel_t> host_kernel; // set by create_kernel
    buf_t from = buf_t::none, to = buf_t::none;
};

struct pipeline_t {
    std::vector<step_t> steps;
    memory_desc_t stage[2];
    bool stage_used[2] = { false, false };
    npu_config_t cfg{};     // the engine of the npu side (of src for L2L)
    npu_config_t dst_cfg{}; // of dst for L2L (cfg unless `cross`)
    bool cross = false;     // L2L between two engines, staged through the host
    std::string dir;        // "S2L", "L2S", "L2L"
    bool has_src_local = false, has_dst_local = false;
    npu_local_desc_t src_local{}, dst_local{};
    int64_t n_cmds = 0;
};

relayout_engine &host_engine() {
    static relayout_engine e(relayout_cpu, 0);
    return e;
}

bool attr_is_empty(const attr_t &a) {
    return (!a.src_scales.is_set() || a.src_scales.is_identity())
           && (!a.dst_scales.is_set() || a.dst_scales.is_identity()) && a.src_zp == 0
           && a.dst_zp == 0 && a.beta == 0.f;
}

const char *buf_name(buf_t b) {
    switch (b) {
        case buf_t::user_src: return "src";
        case buf_t::user_dst: return "dst";
        case buf_t::stage0: return "staging0";
        case buf_t::stage1: return "staging1";
        default: return "-";
    }
}

// A cpu-side descriptor's dims, extended to 4 with trailing 1s, must equal
// the local tensor's dims (a matrix {rows, cols, 1, 1} takes a 2D host
// tensor {rows, cols}).
status_t check_host_side(const memory_desc_t &md, const npu_local_desc_t &l, const char *what) {
    if (md.format_kind != relayout_blocked)
        return failf(status_t::invalid_arguments,
                "npu:dma: the %s is on a cpu engine and must be a blocked descriptor, "
                "not %s",
                what, md2str(md).c_str());
    if (md.ndims < 1 || md.ndims > 4)
        return failf(status_t::invalid_arguments,
                "npu:dma: the %s %s has %d dims; an npu tensor has 4 (N, C, H, W; a "
                "matrix also takes 2: rows, cols)",
                what, md2str(md).c_str(), md.ndims);
    for (int d = 0; d < 4; ++d) {
        const int64_t v = d < md.ndims ? md.dims[d] : 1;
        if (v != l.dims[d])
            return failf(status_t::invalid_arguments,
                    "npu:dma: the %s dims %s do not match the npu tensor's "
                    "%lldx%lldx%lldx%lld",
                    what, dims2str(md.dims, md.ndims).c_str(), (long long)l.dims[0],
                    (long long)l.dims[1], (long long)l.dims[2], (long long)l.dims[3]);
    }
    return status_t::success;
}

// The cpu descriptor as a DMA system descriptor, when DMA can address it
// directly: same data type, no padding or extra, plain strides (1N) or one
// inner block of dim 0 equal to the local storage mode's packing (the
// 4N/2N/2IC DDR layouts, e.g. Abcd4a for 4N).
bool sys_from_md(
        const memory_desc_t &md, const npu_local_desc_t &l, bool for_write, npu_sys_desc_t &sys) {
    if (md.format_kind != relayout_blocked || md.data_type != l.data_type || md.extra.flags)
        return false;
    if (md.offset0 < 0) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d] || md.padded_offsets[d] != 0) return false;
    int64_t dims[4], strides[4];
    for (int d = 0; d < 4; ++d) {
        dims[d] = d < md.ndims ? md.dims[d] : 1;
        strides[d] = d < md.ndims ? md.blocking.strides[d] : 1;
    }
    const int k = pack_factor(l.storage);
    const auto &bd = md.blocking;
    npu_storage_t storage = npu_storage_t::mode_1n;
    if (bd.inner_nblks == 1 && k > 1 && bd.inner_idxs[0] == 0 && bd.inner_blks[0] == k
            && l.layout != npu_layout_t::matrix) {
        for (int d = 0; d < 4; ++d) {
            const int64_t outer = d == 0 ? dims[0] / k : dims[d];
            if (outer <= 1) {
                strides[d] = 0;
                continue;
            }
            if (strides[d] % k) return false;
            strides[d] /= k;
        }
        storage = l.storage;
    } else if (bd.inner_nblks != 0) {
        return false;
    }
    for (int d = 0; d < 4; ++d)
        if (dims[d] <= 1) strides[d] = 0;
    sys = make_sys_strided(dims, l.data_type, strides, storage, md.offset0 * dt_size(md.data_type));
    const status_t st = validate_sys(sys, for_write);
    if (st != status_t::success) {
        clear_last_error_message();
        return false;
    }
    return true;
}

// Dense plain host tensor of `ndims` dims, data type dt.
status_t plain_md(memory_desc_t &md, int ndims, const int64_t *dims, relayout_data_type_t dt) {
    std::string tag;
    for (int d = 0; d < ndims; ++d)
        tag += char('a' + d);
    return md_init_by_tag(md, ndims, dims, dt, tag);
}

status_t add_host(pipeline_t &p, const memory_desc_t &src, const memory_desc_t &dst,
        const attr_t &attr, buf_t from, buf_t to) {
    step_t s;
    s.is_dma = false;
    s.from = from;
    s.to = to;
    const status_t st =
            reorder_pd_create(s.host_pd, src, &host_engine(), dst, &host_engine(), attr);
    if (st != status_t::success)
        return fail(st, "npu:dma: the host step " + md2str(src) + " -> " + md2str(dst)
                                + " failed: " + last_error_message());
    p.steps.push_back(std::move(s));
    return status_t::success;
}

void add_dma(pipeline_t &p, npu_transfer_t &&t, buf_t sys, bool on_dst = false) {
    step_t s;
    s.is_dma = true;
    s.xfer = std::move(t);
    s.sys = sys;
    s.on_dst = on_dst;
    p.n_cmds += (int64_t)s.xfer.prog.size();
    p.steps.push_back(std::move(s));
}

status_t use_stage(pipeline_t &p, int i, int ndims, const int64_t *dims, relayout_data_type_t dt) {
    RL_CHECK(plain_md(p.stage[i], ndims, dims, dt));
    p.stage_used[i] = true;
    return status_t::success;
}

status_t build_s2l(
        pipeline_t &p, const memory_desc_t &src, const npu_local_desc_t &l, const attr_t &attr) {
    RL_CHECK(check_host_side(src, l, "src"));
    npu_sys_desc_t sys;
    npu_transfer_t t;
    if (attr_is_empty(attr) && sys_from_md(src, l, false, sys)) {
        RL_CHECK(plan_s2l(p.cfg, sys, l, t));
        add_dma(p, std::move(t), buf_t::user_src);
        return status_t::success;
    }
    RL_CHECK(use_stage(p, 0, src.ndims, src.dims, l.data_type));
    const npu_sys_desc_t cont = make_sys_continuous(l.dims, l.data_type);
    if (attr.beta != 0.f) { // the sum post-op reads the old destination
        RL_CHECK(plan_l2s(p.cfg, l, cont, t));
        add_dma(p, std::move(t), buf_t::stage0);
    }
    RL_CHECK(add_host(p, src, p.stage[0], attr, buf_t::user_src, buf_t::stage0));
    RL_CHECK(plan_s2l(p.cfg, cont, l, t));
    add_dma(p, std::move(t), buf_t::stage0);
    return status_t::success;
}

status_t build_l2s(
        pipeline_t &p, const npu_local_desc_t &l, const memory_desc_t &dst, const attr_t &attr) {
    RL_CHECK(check_host_side(dst, l, "dst"));
    npu_sys_desc_t sys;
    npu_transfer_t t;
    if (attr_is_empty(attr) && sys_from_md(dst, l, true, sys)) {
        RL_CHECK(plan_l2s(p.cfg, l, sys, t));
        add_dma(p, std::move(t), buf_t::user_dst);
        return status_t::success;
    }
    RL_CHECK(use_stage(p, 0, dst.ndims, dst.dims, l.data_type));
    RL_CHECK(plan_l2s(p.cfg, l, make_sys_continuous(l.dims, l.data_type), t));
    add_dma(p, std::move(t), buf_t::stage0);
    return add_host(p, p.stage[0], dst, attr, buf_t::stage0, buf_t::user_dst);
}

status_t build_l2l(
        pipeline_t &p, const npu_local_desc_t &s, const npu_local_desc_t &d, const attr_t &attr) {
    npu_transfer_t t;
    if (attr_is_empty(attr) && !p.cross) {
        const status_t st = plan_l2l(p.cfg, s, d, t);
        if (st == status_t::success) {
            add_dma(p, std::move(t), buf_t::none);
            return status_t::success;
        }
        // Overlap, bad dims, ...: the user's error. Differences DMA cannot
        // bridge (data type, storage mode, matrix W) go through the host.
        if (st != status_t::unimplemented) return st;
        clear_last_error_message();
    }
    for (int i = 0; i < 4; ++i)
        if (s.dims[i] != d.dims[i])
            return failf(status_t::invalid_arguments,
                    "npu:dma: src dims %lldx%lldx%lldx%lld differ from dst dims "
                    "%lldx%lldx%lldx%lld",
                    (long long)s.dims[0], (long long)s.dims[1], (long long)s.dims[2],
                    (long long)s.dims[3], (long long)d.dims[0], (long long)d.dims[1],
                    (long long)d.dims[2], (long long)d.dims[3]);
    const bool convert = s.data_type != d.data_type || !attr_is_empty(attr);
    RL_CHECK(use_stage(p, 0, 4, s.dims, s.data_type));
    const npu_sys_desc_t cs = make_sys_continuous(s.dims, s.data_type);
    // Reads of s run on its engine (p.cfg), reads and writes of d on the
    // dst's (p.dst_cfg: the same engine unless p.cross).
    if (!convert) {
        RL_CHECK(plan_l2s(p.cfg, s, cs, t));
        add_dma(p, std::move(t), buf_t::stage0);
        RL_CHECK(plan_s2l(p.dst_cfg, cs, d, t));
        add_dma(p, std::move(t), buf_t::stage0, true);
        return status_t::success;
    }
    RL_CHECK(use_stage(p, 1, 4, d.dims, d.data_type));
    const npu_sys_desc_t cd = make_sys_continuous(d.dims, d.data_type);
    if (attr.beta != 0.f) {
        RL_CHECK(plan_l2s(p.dst_cfg, d, cd, t));
        add_dma(p, std::move(t), buf_t::stage1, true);
    }
    RL_CHECK(plan_l2s(p.cfg, s, cs, t));
    add_dma(p, std::move(t), buf_t::stage0);
    RL_CHECK(add_host(p, p.stage[0], p.stage[1], attr, buf_t::stage0, buf_t::stage1));
    RL_CHECK(plan_s2l(p.dst_cfg, cd, d, t));
    add_dma(p, std::move(t), buf_t::stage1, true);
    return status_t::success;
}

// Checks the engines and descriptors of `pd` and lowers it.
status_t build_pipeline(const relayout_primitive_desc &pd, pipeline_t &p) {
    const npu_engine_t *se = as_npu_engine(pd.src_engine);
    const npu_engine_t *de = as_npu_engine(pd.dst_engine);
    const bool src_cpu = pd.src_engine->kind == relayout_cpu;
    const bool dst_cpu = pd.dst_engine->kind == relayout_cpu;
    if ((!se && !src_cpu) || (!de && !dst_cpu) || (!se && !de))
        return fail(status_t::unimplemented,
                "npu:dma pairs an npu engine with a cpu engine or with itself");
    // Two npu engines: the tensor leaves one local memory for the host and
    // enters the other (DMA cannot reach across engines).
    p.cross = se && de && se != de;
    const npu_engine_t *eng = se ? se : de;
    p.cfg = eng->config();
    p.dst_cfg = de ? de->config() : p.cfg;

    npu_md_payload_t sp{}, dp{};
    const bool src_local = payload_of(pd.src_md, sp);
    const bool dst_local = payload_of(pd.dst_md, dp);
    if (se && !src_local)
        return fail(status_t::invalid_arguments, "npu:dma: src_engine is an npu engine but src "
                                                         + md2str(pd.src_md)
                                                         + " is not an npu_local descriptor");
    if (de && !dst_local)
        return fail(status_t::invalid_arguments, "npu:dma: dst_engine is an npu engine but dst "
                                                         + md2str(pd.dst_md)
                                                         + " is not an npu_local descriptor");
    if (!se && src_local)
        return fail(status_t::invalid_arguments,
                "npu:dma: src is an npu_local descriptor but src_engine is a cpu engine; "
                "pass its npu engine");
    if (!de && dst_local)
        return fail(status_t::invalid_arguments,
                "npu:dma: dst is an npu_local descriptor but dst_engine is a cpu engine; "
                "pass its npu engine");
    for (const npu_md_payload_t *x : { src_local ? &sp : nullptr, dst_local ? &dp : nullptr }) {
        if (!x) continue;
        const npu_config_t &cfg = x == &sp ? p.cfg : p.dst_cfg;
        if (x->cfg != cfg)
            return fail(status_t::invalid_arguments,
                    "npu:dma: " + std::string(x == &sp ? "src" : "dst")
                            + " descriptor was made for engine " + config_str(x->cfg) + ", not for "
                            + config_str(cfg));
        RL_CHECK(validate_local(cfg, x->local));
    }
    if (pd.dst_md.extra.flags && dst_local)
        return fail(status_t::unimplemented,
                "npu:dma: compensation (extra flags) is not supported in npu memory");

    p.has_src_local = src_local;
    p.has_dst_local = dst_local;
    p.src_local = sp.local;
    p.dst_local = dp.local;
    if (src_local && dst_local) {
        p.dir = "L2L";
        return build_l2l(p, sp.local, dp.local, pd.attr);
    }
    if (dst_local) {
        p.dir = "S2L";
        return build_s2l(p, pd.src_md, dp.local, pd.attr);
    }
    p.dir = "L2S";
    return build_l2s(p, sp.local, pd.dst_md, pd.attr);
}

std::string pipeline_summary(const pipeline_t &p) {
    std::string s =
            p.dir + " " + std::to_string(p.n_cmds) + " DMA cmd" + (p.n_cmds == 1 ? "" : "s");
    for (const npu_local_desc_t *l :
            { p.has_src_local ? &p.src_local : nullptr, p.has_dst_local ? &p.dst_local : nullptr })
        if (l)
            s += std::string(l == &p.src_local ? " src=" : " dst=")
                 + local_desc_str(l == &p.src_local ? p.cfg : p.dst_cfg, *l);
    if (p.cross) s += " across_engines";
    for (const auto &st : p.steps) {
        if (st.is_dma) {
            if (st.xfer.staged) s += " +host_repack";
            continue;
        }
        s += " +host_reorder(" + st.host_pd.impl_name + ": " + pd_plan_str(st.host_pd) + ")";
    }
    return s;
}

std::string pipeline_listing(const pipeline_t &p) {
    std::string s = "# npu:dma " + p.dir + " on " + config_str(p.cfg)
                    + (p.cross ? " -> another engine " + config_str(p.dst_cfg) : "") + ": "
                    + std::to_string(p.n_cmds) + " DMA command" + (p.n_cmds == 1 ? "" : "s") + "\n";
    for (const auto &st : p.steps) {
        if (st.is_dma) {
            if (p.cross) s += st.on_dst ? "# on the dst engine\n" : "# on the src engine\n";
            if (st.xfer.dir != dma_dir_t::l2l)
                s += std::string("# system buffer: ") + buf_name(st.sys) + "\n";
            s += st.xfer.listing();
        } else {
            s += std::string("host_reorder(") + buf_name(st.from) + " " + md2str(st.host_pd.src_md)
                 + " -> " + buf_name(st.to) + " " + md2str(st.host_pd.dst_md)
                 + ", impl=" + st.host_pd.impl_name + ", plan=" + pd_plan_str(st.host_pd) + ")\n";
        }
    }
    return s;
}

class npu_kernel_t : public kernel_t {
public:
    explicit npu_kernel_t(pipeline_t &&p) : p_(std::move(p)) {}

    status_t execute(const exec_ctx_t &ctx) const override {
        npu_engine_t *s_eng = ctx.src_mem ? as_npu_engine(ctx.src_mem->engine) : nullptr;
        npu_engine_t *d_eng = ctx.dst_mem ? as_npu_engine(ctx.dst_mem->engine) : nullptr;
        npu_engine_t *eng = s_eng ? s_eng : d_eng;
        if (!eng || (p_.cross && (!s_eng || !d_eng)))
            return fail(status_t::invalid_arguments,
                    p_.cross ? "npu:dma: execute needs the src and dst memory objects (npu "
                               "memories of the two engines)"
                             : "npu:dma: execute needs the memory objects (an npu memory)");
        if (!p_.cross) d_eng = eng;
        for (const npu_engine_t *e : { eng, d_eng }) {
            const npu_config_t &want = e == eng ? p_.cfg : p_.dst_cfg;
            if (e->config() != want)
                return fail(status_t::invalid_arguments,
                        "npu:dma: the primitive was made for " + config_str(want) + " but runs on "
                                + config_str(e->config()));
        }
        const size_t src_bytes = ctx.src_mem ? md_size(ctx.src_mem->md) : 0;
        const size_t dst_bytes = ctx.dst_mem ? md_size(ctx.dst_mem->md) : 0;
        std::vector<uint8_t> stage[2];
        for (int i = 0; i < 2; ++i) {
            if (!p_.stage_used[i]) continue;
            const size_t n = md_size(p_.stage[i]);
            try {
                stage[i].resize(n);
            } catch (const std::bad_alloc &) {
                return failf(status_t::out_of_memory,
                        "npu:dma: cannot allocate a %zu-byte staging buffer", n);
            }
        }
        auto ptr = [&](buf_t b, size_t &bytes) -> uint8_t * {
            switch (b) {
                case buf_t::user_src:
                    bytes = src_bytes;
                    return static_cast<uint8_t *>(const_cast<void *>(ctx.src));
                case buf_t::user_dst: bytes = dst_bytes; return static_cast<uint8_t *>(ctx.dst);
                case buf_t::stage0: bytes = stage[0].size(); return stage[0].data();
                case buf_t::stage1: bytes = stage[1].size(); return stage[1].data();
                default: bytes = 0; return nullptr;
            }
        };
        // Both engines' locks (std::lock: no order to deadlock on); one
        // when src and dst share an engine.
        std::unique_lock<std::mutex> l0(eng->mutex(), std::defer_lock),
                l1(d_eng->mutex(), std::defer_lock);
        if (d_eng == eng)
            l0.lock();
        else
            std::lock(l0, l1);
        for (const auto &st : p_.steps) {
            if (st.is_dma) {
                size_t bytes = 0;
                uint8_t *sys = ptr(st.sys, bytes);
                const bool reads_sys = st.xfer.dir == dma_dir_t::s2l;
                npu_engine_t *on = st.on_dst ? d_eng : eng;
                RL_CHECK(execute_transfer(st.xfer, on->sim(), reads_sys ? sys : nullptr,
                        reads_sys ? nullptr : sys, bytes));
                continue;
            }
            size_t b0 = 0, b1 = 0;
            exec_ctx_t h;
            h.src = ptr(st.from, b0);
            h.dst = ptr(st.to, b1);
            h.src_scales = ctx.src_scales;
            h.dst_scales = ctx.dst_scales;
            RL_CHECK(st.host_kernel->execute(h));
        }
        return status_t::success;
    }

private:
    pipeline_t p_;
};

status_t npu_init(relayout_primitive_desc &pd) {
    pipeline_t p;
    RL_CHECK(build_pipeline(pd, p));
    pd.impl_name = k_npu_impl_name;
    pd.plan_str = pipeline_summary(p);
    pd.engine_program = pipeline_listing(p);
    return status_t::success;
}

status_t npu_create(const relayout_primitive_desc &pd, std::shared_ptr<const kernel_t> &k) {
    pipeline_t p;
    RL_CHECK(build_pipeline(pd, p));
    for (auto &st : p.steps) {
        if (st.is_dma) continue;
        relayout_primitive *prim = nullptr;
        RL_CHECK(primitive_create(prim, st.host_pd));
        st.host_kernel = prim->kernel;
        delete prim;
    }
    k = std::make_shared<npu_kernel_t>(std::move(p));
    return status_t::success;
}

const reorder_impl_t g_npu_impl = { k_npu_impl_name, npu_init, npu_create };

} // namespace

const reorder_impl_t *npu_reorder_impl() {
    return &g_npu_impl;
}

} // namespace npu
} // namespace impl
} // namespace relayout
