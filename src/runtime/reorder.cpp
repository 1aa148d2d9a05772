#include "runtime/reorder.hpp"

#include <algorithm>
#include <new>

#include "common/verbose.hpp"
#include "jit/x64/cpu_isa.hpp"
#include "md/format_tag.hpp"
#include "runtime/impl_list.hpp"
#include "runtime/primitive_cache.hpp"

namespace relayout {
namespace impl {

namespace {

std::string scales2str(const scales_t &s) {
    if (!s.is_set()) return "";
    std::string r =
            s.mask == 0 ? "common:" + std::to_string(s.values[0]) : "mask" + std::to_string(s.mask);
    return r;
}

// The cache key holds everything a kernel bakes in: the implementation,
// both layouts with their data types, the attribute structure (scale values
// are passed at execution, so one kernel serves any values) and, for device
// reorders, the engines. Fields are written whole (floats as bits), never
// as rounded text.
void key_add_md(kernel_key_t &k, const memory_desc_t &md) {
    auto pair = [](int64_t lo, int64_t hi) { return uint64_t(uint32_t(lo)) | uint64_t(hi) << 32; };
    const int ndims = std::min(std::max(md.ndims, 0), max_ndims);
    const int nblks = std::min(std::max(md.blocking.inner_nblks, 0), max_ndims);
    k.add(pair(md.ndims, (int)md.data_type));
    k.add(pair((int)md.format_kind, md.blocking.inner_nblks));
    k.add(uint64_t(md.offset0));
    for (int d = 0; d < ndims; ++d) {
        k.add(uint64_t(md.dims[d]));
        k.add(uint64_t(md.padded_dims[d]));
        k.add(uint64_t(md.padded_offsets[d]));
        k.add(uint64_t(md.blocking.strides[d]));
    }
    for (int i = 0; i < nblks; ++i)
        k.add(pair(md.blocking.inner_blks[i], md.blocking.inner_idxs[i]));
    k.add(md.extra.flags);
    k.add(pair(md.extra.compensation_mask, md.extra.asymm_compensation_mask));
    k.add_f32(md.extra.scale_adjust);
    // Device kinds: the layout (address, engine config, ...) is the payload.
    if (md.format_kind == relayout_format_kind_image2d
            || md.format_kind == relayout_format_kind_npu_local) {
        k.add(md.payload.size_bytes);
        k.add_bytes(md.payload.bytes, sizeof(md.payload.bytes));
    }
}

// `values`: device kernels may keep the scale values (cpu kernels take them
// at execution). Identity scales always count: they make a bit copy.
void key_add_scales(kernel_key_t &k, const scales_t &s, bool values) {
    k.add(s.is_set() ? uint64_t(uint32_t(s.mask)) : ~uint64_t(0));
    k.add(s.is_identity() ? 1 : 0);
    if (!values) return;
    k.add(s.values.size());
    for (float v : s.values)
        k.add_f32(v);
}

void make_key(kernel_key_t &k, const relayout_primitive_desc &pd) {
    const bool device = pd.src_engine->kind != relayout_cpu || pd.dst_engine->kind != relayout_cpu;
    k.clear();
    k.add(reinterpret_cast<uintptr_t>(pd.impl));
    k.add_bytes(pd.impl_name.data(), pd.impl_name.size());
    key_add_md(k, pd.src_md);
    key_add_md(k, pd.dst_md);
    key_add_scales(k, pd.attr.src_scales, device);
    key_add_scales(k, pd.attr.dst_scales, device);
    k.add(uint64_t(uint32_t(pd.attr.src_zp)) | uint64_t(uint32_t(pd.attr.dst_zp)) << 32);
    k.add_f32(pd.attr.beta);
    // Device kernels belong to their engine's device state (context).
    if (device)
        for (const relayout_engine *e : { pd.src_engine, pd.dst_engine }) {
            k.add(uint64_t(e->kind));
            k.add(e->cache_identity());
        }
}

// What reorder_pd_create decided for recent problems of this thread, by
// everything it depends on (frameworks re-create the same descriptors for
// every layer and step): a hit copies the plan, the implementation and the
// kernel key instead of planning, dispatching and keying again. Only cpu
// pairs, only successes, never in verbose mode (which adds the kernel
// split and prints declines). Per thread: no lock, nothing shared.
struct pd_memo_entry_t {
    kernel_key_t in; // the inputs, see memo_inputs
    memory_desc_t dst_md;
    plan_t plan;
    const reorder_impl_t *impl;
    std::string impl_name;
    kernel_key_t key;
};

struct pd_memo_t {
    static constexpr int ways = 8;
    std::unique_ptr<pd_memo_entry_t> e[ways];
    int next = 0;
    // The inputs of the current creation (reused: no allocation). Only cpu
    // dispatch runs between computing and inserting them, and it creates
    // no descriptors (device implementations do, and are never memoized).
    kernel_key_t in;

    const pd_memo_entry_t *find(const kernel_key_t &k) const {
        for (const auto &x : e)
            if (x && x->in == k) return x.get();
        return nullptr;
    }
    void insert(const kernel_key_t &k, const relayout_primitive_desc &pd) {
        std::unique_ptr<pd_memo_entry_t> x(
                new pd_memo_entry_t{ k, pd.dst_md, pd.plan, pd.impl, pd.impl_name, pd.key });
        e[next] = std::move(x);
        next = (next + 1) % ways;
    }
};

pd_memo_t &pd_memo() {
    thread_local pd_memo_t m;
    return m;
}

// The inputs of a cpu reorder_pd_create: both descriptors whole, the
// attributes with their scale values (identity scales make a bit copy, the
// counts are validated), and what dispatch reads besides: the ISA the cap
// and the cpu allow, and the implementation list.
void memo_inputs(kernel_key_t &k, const memory_desc_t &src, const memory_desc_t &dst,
        const attr_t &attr, x64::cpu_isa_t isa) {
    k.clear();
    key_add_md(k, src);
    key_add_md(k, dst);
    key_add_scales(k, attr.src_scales, true);
    key_add_scales(k, attr.dst_scales, true);
    k.add(uint64_t(uint32_t(attr.src_zp)) | uint64_t(uint32_t(attr.dst_zp)) << 32);
    k.add_f32(attr.beta);
    k.add(uint64_t(isa));
    k.add(reorder_impl_list_generation());
}

} // namespace

std::string attr2str(const attr_t &a) {
    std::string s;
    auto add = [&](const std::string &x) {
        if (x.empty()) return;
        if (!s.empty()) s += "+";
        s += x;
    };
    if (a.src_scales.is_set()) add("scale_src:" + scales2str(a.src_scales));
    if (a.dst_scales.is_set()) add("scale_dst:" + scales2str(a.dst_scales));
    if (a.src_zp) add("zp_src:" + std::to_string(a.src_zp));
    if (a.dst_zp) add("zp_dst:" + std::to_string(a.dst_zp));
    if (a.beta != 0.f) add("sum:" + std::to_string(a.beta));
    return s;
}

status_t preferred_tag(const relayout_engine *engine, int ndims, const dim_t *dims, data_type_t dt,
        std::string &tag) {
    if (!engine) return fail(status_t::invalid_arguments, "preferred layout: engine is NULL");
    if (engine->kind == relayout_npu)
        return fail(status_t::invalid_arguments,
                "preferred layout: npu_local layouts need an address; create them with "
                "relayout_memory_desc_create_npu_local");
    tag = "abx";
    if (engine->kind != relayout_cpu || ndims < 3) return status_t::success;
    if (dt == relayout_s8 || dt == relayout_u8) {
        tag = "axb";
    } else if (dt == relayout_f32 || dt == relayout_bf16 || dt == relayout_f16) {
        tag = x64::vector_isa(x64::effective_isa()) == x64::cpu_isa_t::avx512_core ? "aBx16b"
                                                                                   : "aBx8b";
    }
    return status_t::success;
}

status_t resolve_any(memory_desc_t &md, const relayout_engine *engine) {
    std::string tag;
    RL_CHECK(preferred_tag(engine, md.ndims, md.dims, md.data_type, tag));
    memory_desc_t r;
    RL_CHECK(md_init_by_tag(r, md.ndims, md.dims, md.data_type, tag));
    r.extra = md.extra;
    md = r;
    return status_t::success;
}

status_t reorder_pd_create(relayout_primitive_desc &pd, const memory_desc_t &src,
        relayout_engine *src_engine, const memory_desc_t &dst, relayout_engine *dst_engine,
        const attr_t &attr) {
    if (!src_engine) return fail(status_t::invalid_arguments, "src_engine is NULL");
    if (!dst_engine) return fail(status_t::invalid_arguments, "dst_engine is NULL");
    pd.src_md = src;
    pd.dst_md = dst;
    pd.src_engine = src_engine;
    pd.dst_engine = dst_engine;
    pd.attr = attr;
    // What earlier use of the object may have left (strings built on demand).
    pd.impl = nullptr;
    pd.plan_str.clear();
    pd.plan_detail.clear();
    pd.chain_steps = 0;
    pd.lazy_plan_str = lazy_t<std::string>();
    pd.shared_copy = lazy_t<std::shared_ptr<const relayout_primitive_desc>>();
    if (src.format_kind == relayout_format_kind_any)
        return fail(status_t::invalid_arguments,
                "src: format_kind any is only allowed for the destination");
    const bool memo = src_engine->kind == relayout_cpu && dst_engine->kind == relayout_cpu
                      && verbose_level() == 0;
    const x64::cpu_isa_t isa = memo ? x64::effective_isa() : x64::cpu_isa_t::none;
    if (memo) {
        pd_memo_t &m = pd_memo();
        memo_inputs(m.in, src, dst, attr, isa);
        if (const pd_memo_entry_t *e = m.find(m.in)) {
            pd.dst_md = e->dst_md;
            pd.plan = e->plan;
            pd.impl = e->impl;
            pd.impl_name = e->impl_name;
            pd.key = e->key;
            return status_t::success;
        }
    }
    if (dst.format_kind == relayout_format_kind_any && src.ndims == dst.ndims)
        RL_CHECK(resolve_any(pd.dst_md, dst_engine));
    // The cpu planner plans blocked pairs; device kinds plan in their impl.
    const bool blocked_pair =
            pd.src_md.format_kind == relayout_blocked && pd.dst_md.format_kind == relayout_blocked;
    // The plan string is built on first use (pd_plan_str).
    if (blocked_pair) RL_CHECK(plan_create(pd.plan, pd.src_md, pd.dst_md, attr));

    // Engines that hold device memory run the reorders that touch it.
    std::vector<const reorder_impl_t *> device_impls;
    for (relayout_engine *e : { src_engine, dst_engine })
        if (e->kind != relayout_cpu && e->reorder_impl()
                && (device_impls.empty() || device_impls.back() != e->reorder_impl()))
            device_impls.push_back(e->reorder_impl());
    if (device_impls.empty() && !blocked_pair)
        return fail(status_t::invalid_arguments,
                "reorder: src " + md2str(pd.src_md) + " and dst " + md2str(pd.dst_md)
                        + " are on cpu engines, which need blocked descriptors (image2d "
                          "and npu_local descriptors go with their device engine)");
    const bool device = !device_impls.empty();
    const std::vector<const reorder_impl_t *> &candidates =
            device ? device_impls : reorder_impl_list();

    std::string declined;
    for (const reorder_impl_t *impl : candidates) {
        pd.impl_name = impl->name;
        const status_t st = impl->init(pd);
        if (st == status_t::success) {
            pd.impl = impl;
            break;
        }
        // A device engine's implementation is the only one for its memory:
        // its invalid_arguments is the user's error, not a decline.
        if (device && st == status_t::invalid_arguments) return st;
        if (verbose_level() >= 2)
            verbose_print("dispatch,reorder," + std::string(impl->name) + ",declined,"
                          + last_error_message());
        declined += std::string(impl->name) + ": " + last_error_message() + "; ";
    }
    if (!pd.impl)
        return fail(status_t::unimplemented, "no reorder implementation for src "
                                                     + md2str(pd.src_md) + " dst "
                                                     + md2str(pd.dst_md) + " (" + declined + ")");
    make_key(pd.key, pd);
    // Remembered unless the cap moved meanwhile (the inputs name the ISA
    // read before dispatch) or the plan has offset tables (large, rare).
    if (memo && pd.plan.tabs.empty() && x64::effective_isa() == isa)
        pd_memo().insert(pd_memo().in, pd);
    return status_t::success;
}

const std::string &pd_plan_str(const relayout_primitive_desc &pd) {
    return pd.lazy_plan_str.get([&pd] {
        std::string s;
        if (pd.chain_steps > 0) s = "chain of " + std::to_string(pd.chain_steps) + " fused: ";
        // Device implementations write their own; blocked pairs have a plan.
        const bool planned = pd.src_md.format_kind == relayout_blocked
                             && pd.dst_md.format_kind == relayout_blocked;
        s += !pd.plan_str.empty() || !planned ? pd.plan_str : pd.plan.dump();
        return s + pd.plan_detail;
    });
}

namespace {

bool attr_is_identity(const attr_t &a) {
    return a.src_scales.is_identity() && a.dst_scales.is_identity() && a.src_zp == 0
           && a.dst_zp == 0 && a.beta == 0.f;
}

// Whether every value of `from` survives a conversion to `to` exactly and
// comes back as the same f32 in the next step.
bool holds_exactly(data_type_t from, data_type_t to) {
    if (from == to) return true;
    switch (from) {
        case relayout_s8:
            return to == relayout_s16 || to == relayout_s32 || to == relayout_f32
                   || to == relayout_bf16 || to == relayout_f16;
        case relayout_u8:
            return to == relayout_s16 || to == relayout_u16 || to == relayout_s32
                   || to == relayout_f32 || to == relayout_bf16 || to == relayout_f16;
        case relayout_s16:
        case relayout_u16: return to == relayout_s32 || to == relayout_f32;
        case relayout_bf16:
        case relayout_f16: return to == relayout_f32;
        default: return false;
    }
}

} // namespace

status_t reorder_chain_pd_create(relayout_primitive_desc &pd, const std::vector<memory_desc_t> &mds,
        const std::vector<attr_t> &attrs, relayout_engine *src_engine,
        relayout_engine *dst_engine) {
    const size_t n = mds.size();
    if (n < 2)
        return failf(status_t::invalid_arguments,
                "reorder chain: %zu descriptors; a chain needs at least two", n);
    if (attrs.size() != n - 1)
        return fail(status_t::invalid_arguments, "reorder chain: one attribute per step");
    const memory_desc_t &a = mds.front(), &c = mds.back();
    for (size_t i = 1; i + 1 < n; ++i) {
        const memory_desc_t &b = mds[i];
        if (b.ndims != a.ndims || !std::equal(b.dims, b.dims + b.ndims, a.dims))
            return failf(status_t::invalid_arguments,
                    "reorder chain: descriptor %zu has dims %s, not %s", i,
                    dims2str(b.dims, b.ndims).c_str(), dims2str(a.dims, a.ndims).c_str());
        if (!attr_is_identity(attrs[i - 1]))
            return failf(status_t::unimplemented,
                    "reorder chain: step %zu (descriptor %zu -> %zu) has scales, zero "
                    "points or a sum; only the last step may change values for the chain "
                    "to be one reorder",
                    i - 1, i - 1, i);
        if (b.extra.flags != 0)
            return failf(status_t::unimplemented,
                    "reorder chain: descriptor %zu has compensation, which the single "
                    "reorder would not produce",
                    i);
        if (!holds_exactly(mds[i - 1].data_type, b.data_type))
            return failf(status_t::unimplemented,
                    "reorder chain: descriptor %zu (%s) does not hold every %s value of "
                    "the step before it exactly",
                    i, dt2str(b.data_type), dt2str(mds[i - 1].data_type));
    }
    // A float source that leaves its type and comes back would be a bit copy
    // when fused but a conversion when chained (signalling NaNs differ).
    const bool float_src = a.data_type == relayout_bf16 || a.data_type == relayout_f16
                           || a.data_type == relayout_f32;
    bool left_type = false;
    for (size_t i = 1; i + 1 < n; ++i)
        left_type |= mds[i].data_type != a.data_type;
    if (float_src && left_type && c.data_type == a.data_type && attr_is_identity(attrs.back()))
        return fail(status_t::unimplemented,
                "reorder chain: the source type leaves and comes back unchanged; the "
                "single reorder would copy bits the chain converts");
    RL_CHECK(reorder_pd_create(pd, a, src_engine, c, dst_engine, attrs.back()));
    pd.chain_steps = (int)(n - 1); // "chain of N fused: " in the plan string
    return status_t::success;
}

namespace {

// The descriptor a primitive keeps: the descriptor itself when it is shared
// already (a primitive's own, from relayout_primitive_get_primitive_desc),
// else one copy per descriptor object, made by its first primitive.
std::shared_ptr<const relayout_primitive_desc> shared_pd(const relayout_primitive_desc &pd) {
    if (auto self = pd.weak_from_this().lock()) return self;
    return pd.shared_copy.get([&pd] {
        return std::shared_ptr<const relayout_primitive_desc>(
                std::make_shared<relayout_primitive_desc>(pd));
    });
}

// The scale arrays a primitive's kernel reads: fixed by its descriptor.
void set_scales(exec_ctx_t &ctx, const relayout_primitive_desc &pd) {
    ctx.src_scales = pd.attr.src_scales.is_set() ? pd.attr.src_scales.values.data() : nullptr;
    ctx.dst_scales = pd.attr.dst_scales.is_set() ? pd.attr.dst_scales.values.data() : nullptr;
}

} // namespace

status_t primitive_create(relayout_primitive *&prim, const relayout_primitive_desc &pd) {
    const bool verbose = verbose_level() > 0;
    const double t0 = verbose ? now_ms() : 0.;
    kernel_ptr_t kernel;
    bool hit = false;
    RL_CHECK(cache_get_or_create(
            pd.key, [&](kernel_ptr_t &k) { return pd.impl->create_kernel(pd, k); }, kernel, hit));
    std::unique_ptr<relayout_primitive> p(new (std::nothrow) relayout_primitive);
    if (!p) return fail(status_t::out_of_memory, "primitive: out of memory");
    p->pd = shared_pd(pd);
    p->kernel = std::move(kernel);
    // Prepared from the scales of the shared descriptor, which execute
    // passes (the same arrays: the pointers match).
    if (pd.attr.src_scales.is_set() || pd.attr.dst_scales.is_set()) {
        exec_ctx_t sc = {};
        set_scales(sc, *p->pd);
        RL_CHECK(p->kernel->prepare(sc, p->prepared));
    }
    if (verbose)
        verbose_print(std::string("create:") + (hit ? "cache_hit" : "cache_miss") + ",reorder,"
                      + pd.impl_name + ",src:" + md2str(pd.src_md) + ",dst:" + md2str(pd.dst_md)
                      + ",attr:" + attr2str(pd.attr) + ",plan:" + pd_plan_str(pd) + ","
                      + std::to_string(now_ms() - t0));
    prim = p.release();
    return status_t::success;
}

status_t primitive_execute(const relayout_primitive &prim, relayout_stream *stream,
        const relayout_memory *src, relayout_memory *dst) {
    const relayout_primitive_desc &pd = *prim.pd;
    if (!stream) return fail(status_t::invalid_arguments, "execute: stream is NULL");
    if (!src) return fail(status_t::invalid_arguments, "execute: the src argument is missing");
    if (!dst) return fail(status_t::invalid_arguments, "execute: the dst argument is missing");
    if (!md_equal(src->md, pd.src_md))
        return fail(status_t::invalid_arguments, "execute: src memory " + md2str(src->md)
                                                         + " does not match the primitive's src "
                                                         + md2str(pd.src_md));
    if (!md_equal(dst->md, pd.dst_md))
        return fail(status_t::invalid_arguments, "execute: dst memory " + md2str(dst->md)
                                                         + " does not match the primitive's dst "
                                                         + md2str(pd.dst_md));
    if (has_zero_dim(pd.src_md)) return status_t::success; // handles never touched
    if (!src->handle) return fail(status_t::invalid_arguments, "execute: src has no buffer");
    if (!dst->handle) return fail(status_t::invalid_arguments, "execute: dst has no buffer");
    // In place is element-wise safe only with one layout on both sides;
    // any other overlap would read data the reorder already overwrote.
    if (src->handle == dst->handle) {
        if (!md_equal(src->md, dst->md))
            return fail(status_t::invalid_arguments,
                    "execute: src and dst share a buffer but have different "
                    "descriptors; in-place reorders need identical descriptors");
    } else if (src->engine->kind == relayout_cpu && dst->engine->kind == relayout_cpu) {
        const char *s0 = static_cast<const char *>(src->handle);
        const char *d0 = static_cast<const char *>(dst->handle);
        const char *s1 = s0 + md_size(src->md), *d1 = d0 + md_size(dst->md);
        if (s0 < d1 && d0 < s1)
            return fail(status_t::invalid_arguments, "execute: the src and dst buffers overlap");
    }

    const double t0 = verbose_level() ? now_ms() : 0.;
    exec_ctx_t ctx;
    ctx.src = src->handle;
    ctx.dst = dst->handle;
    set_scales(ctx, pd);
    ctx.prepared = prim.prepared.get();
    ctx.src_mem = src;
    ctx.dst_mem = dst;
    ctx.stream = stream;
    RL_CHECK(prim.kernel->execute(ctx));
    if (verbose_level())
        verbose_print("exec,reorder," + pd.impl_name + ",src:" + md2str(pd.src_md)
                      + ",dst:" + md2str(pd.dst_md) + ",attr:" + attr2str(pd.attr) + ","
                      + std::to_string(now_ms() - t0));
    return status_t::success;
}

} // namespace impl
} // namespace relayout
