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

const reorder_impl_t jit_avx512_impl = { "jit:avx512_core", jit_init<x64::cpu_isa_t::avx512_core>,
    jit_create<x64::cpu_isa_t::avx512_core> };
const reorder_impl_t jit_avx2_impl = { "jit:avx2", jit_init<x64::cpu_isa_t::avx2>,
    jit_create<x64::cpu_isa_t::avx2> };

// Engines may add implementations at run time (not at static
// initialisation: relayout_static is an archive and would drop them).
struct entry_t {
    const reorder_impl_t *impl;
    int priority;
};
std::vector<entry_t> &registry() {
    static std::vector<entry_t> r;
    return r;
}
std::mutex &registry_mutex() {
    static std::mutex m;
    return m;
}

std::atomic<uint64_t> &registry_generation() {
    static std::atomic<uint64_t> g{ 0 };
    return g;
}

} // namespace

void register_reorder_impl(const reorder_impl_t *impl, int priority) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().push_back({ impl, priority });
    registry_generation()++;
}

uint64_t reorder_impl_list_generation() {
    return registry_generation().load();
}

const std::vector<const reorder_impl_t *> &reorder_impl_list() {
    // The fixed list, best first: one JIT implementation per ISA, in the
    // order of the kernel manifest (jit/x64/jit_kernels.inc), then the
    // reference, which accepts every cpu problem. Each implementation's
    // init() declines with a reason (verbose level 2 prints it).
    static const std::vector<const reorder_impl_t *> fixed = [] {
        static const x64::cpu_isa_t manifest[] = {
#define RELAYOUT_JIT_KERNEL(isa, strategy, tile) x64::cpu_isa_t::isa,
#include "jit/x64/jit_kernels.inc"
#undef RELAYOUT_JIT_KERNEL
        };
        std::vector<const reorder_impl_t *> l;
        for (x64::cpu_isa_t isa : manifest) {
            const reorder_impl_t *impl = isa == x64::cpu_isa_t::avx512_core ? &jit_avx512_impl
                                         : isa == x64::cpu_isa_t::avx2      ? &jit_avx2_impl
                                                                            : nullptr;
            if (impl && std::find(l.begin(), l.end(), impl) == l.end()) l.push_back(impl);
        }
        l.push_back(&ref_impl);
        return l;
    }();
    std::lock_guard<std::mutex> lock(registry_mutex());
    if (registry().empty()) return fixed;
    static std::vector<const reorder_impl_t *> merged;
    std::vector<entry_t> r = registry();
    std::stable_sort(r.begin(), r.end(),
            [](const entry_t &a, const entry_t &b) { return a.priority < b.priority; });
    merged.clear();
    for (const auto &e : r)
        merged.push_back(e.impl);
    merged.insert(merged.end(), fixed.begin(), fixed.end());
    return merged;
}

} // namespace impl
} // namespace relayout
