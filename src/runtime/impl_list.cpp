#include "runtime/impl_list.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "common/verbose.hpp"
#include "jit/x64/jit_reorder.hpp"

namespace relayout {
namespace impl {

namespace {

// ---- the reference ------------------------------------------------------

class ref_kernel_t : public kernel_t {
public:
    explicit ref_kernel_t(const plan_t &plan) : plan_(plan) {}
    status_t execute(const exec_ctx_t &ctx) const override {
        return ref_reorder_execute(plan_, ctx);
    }

private:
    plan_t plan_;
};

status_t ref_init(relayout_primitive_desc &pd) {
    if (pd.src_engine->kind != relayout_cpu || pd.dst_engine->kind != relayout_cpu)
        return fail(status_t::unimplemented, "ref:any runs on cpu engines only");
    return status_t::success;
}

status_t ref_create(const relayout_primitive_desc &pd, std::shared_ptr<const kernel_t> &k) {
    k = std::make_shared<ref_kernel_t>(pd.plan);
    return status_t::success;
}

const reorder_impl_t ref_impl = { "ref:any", ref_init, ref_create };

// ---- x86-64 JIT (jit/x64/) ------------------------------------------------

class jit_kernel_t : public kernel_t {
public:
    explicit jit_kernel_t(std::unique_ptr<x64::jit_reorder_t> r) : r_(std::move(r)) {}
    status_t execute(const exec_ctx_t &ctx) const override { return r_->execute(ctx); }
    status_t prepare(
            const exec_ctx_t &ctx, std::shared_ptr<const exec_prepared_t> &out) const override {
        return r_->prepare(ctx, out);
    }

private:
    std::unique_ptr<x64::jit_reorder_t> r_;
};

template <x64::cpu_isa_t isa>
status_t jit_init(relayout_primitive_desc &pd) {
    if (pd.src_engine->kind != relayout_cpu || pd.dst_engine->kind != relayout_cpu)
        return fail(status_t::unimplemented, "jit runs on cpu engines only");
    std::string kplan;
    const bool verbose = verbose_level() > 0;
    // impl_name becomes jit:<isa>:<strategy> (part of the cache key).
    RL_CHECK(x64::jit_reorder_accept(pd.plan, isa, pd.impl_name, verbose ? &kplan : nullptr));
    if (verbose) pd.plan_detail = " | " + kplan; // the kernel/driver split
    return status_t::success;
}

template <x64::cpu_isa_t isa>
status_t jit_create(const relayout_primitive_desc &pd, std::shared_ptr<const kernel_t> &k) {
    std::unique_ptr<x64::jit_reorder_t> r;
    RL_CHECK(x64::jit_reorder_create(pd.plan, isa, r));
    k = std::make_shared<jit_kernel_t>(std::move(r));
    return status_t::success;
}

const reorder_impl_t jit_avx512_bf16_impl = { "jit:avx512_core_bf16",
    jit_init<x64::cpu_isa_t::avx512_core_bf16>, jit_create<x64::cpu_isa_t::avx512_core_bf16> };
const reorder_impl_t jit_avx512_impl = { "jit:avx512_core", jit_init<x64::cpu_isa_t::avx512_core>,
    jit_create<x64::cpu_isa_t::avx512_core> };
const reorder_impl_t jit_avx2_impl = { "jit:avx2", jit_init<x64::cpu_isa_t::avx2>,
    jit_create<x64::cpu_isa_t::avx2> };

// Engines may add implementations at run time (not at static
// initialisation: relayout_static is an archive and would drop them).
// Readers take the published list without a lock: every registration
// publishes a new immutable list and keeps the old ones alive (a reader
// may still be walking one; registrations are few), so a list a reader
// holds never changes under it.
struct entry_t {
    const reorder_impl_t *impl;
    int priority;
};
struct registry_t {
    std::mutex mutex;
    std::vector<entry_t> entries;
    std::vector<std::unique_ptr<const impl_list_t>> published;
    std::atomic<const impl_list_t *> current{ nullptr };
    std::atomic<uint64_t> generation{ 0 };
};
registry_t &registry() {
    static registry_t r;
    return r;
}

const impl_list_t &fixed_impl_list() {
    // The fixed list, best first: one JIT implementation per ISA, in the
    // order of the kernel manifest (jit/x64/jit_kernels.inc), then the
    // reference, which accepts every cpu problem. Each implementation's
    // init() declines with a reason (verbose level 2 prints it).
    static const impl_list_t fixed = [] {
        static const x64::cpu_isa_t manifest[] = {
#define RELAYOUT_JIT_KERNEL(isa, strategy, tile) x64::cpu_isa_t::isa,
#include "jit/x64/jit_kernels.inc"
#undef RELAYOUT_JIT_KERNEL
        };
        impl_list_t l;
        for (x64::cpu_isa_t isa : manifest) {
            const reorder_impl_t *impl = isa == x64::cpu_isa_t::avx512_core_bf16
                                                 ? &jit_avx512_bf16_impl
                                         : isa == x64::cpu_isa_t::avx512_core ? &jit_avx512_impl
                                         : isa == x64::cpu_isa_t::avx2        ? &jit_avx2_impl
                                                                              : nullptr;
            if (impl && std::find(l.begin(), l.end(), impl) == l.end()) l.push_back(impl);
        }
        l.push_back(&ref_impl);
        return l;
    }();
    return fixed;
}

} // namespace

void register_reorder_impl(const reorder_impl_t *impl, int priority) {
    registry_t &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.entries.push_back({ impl, priority });
    std::vector<entry_t> sorted = r.entries;
    std::stable_sort(sorted.begin(), sorted.end(),
            [](const entry_t &a, const entry_t &b) { return a.priority < b.priority; });
    auto l = std::make_unique<impl_list_t>();
    for (const auto &e : sorted)
        l->push_back(e.impl);
    const impl_list_t &fixed = fixed_impl_list();
    l->insert(l->end(), fixed.begin(), fixed.end());
    r.current.store(l.get(), std::memory_order_release);
    r.published.push_back(std::move(l));
    r.generation.fetch_add(1, std::memory_order_release);
}

uint64_t reorder_impl_list_generation() {
    return registry().generation.load(std::memory_order_acquire);
}

const impl_list_t &reorder_impl_list() {
    const impl_list_t *l = registry().current.load(std::memory_order_acquire);
    return l ? *l : fixed_impl_list();
}

} // namespace impl
} // namespace relayout
