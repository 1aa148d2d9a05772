#include "runtime/impl_list.hpp"

#include <algorithm>
#include <mutex>

namespace relayout {
namespace impl {

namespace {

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

const reorder_impl_t ref_impl = {"ref:any", ref_init, ref_create};

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

} // namespace

void register_reorder_impl(const reorder_impl_t *impl, int priority) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().push_back({impl, priority});
}

const std::vector<const reorder_impl_t *> &reorder_impl_list() {
    static const std::vector<const reorder_impl_t *> list = [] {
        std::lock_guard<std::mutex> lock(registry_mutex());
        std::vector<entry_t> r = registry();
        std::stable_sort(r.begin(), r.end(),
                [](const entry_t &a, const entry_t &b) { return a.priority < b.priority; });
        std::vector<const reorder_impl_t *> l;
        for (const auto &e : r) l.push_back(e.impl);
        l.push_back(&ref_impl); // the reference accepts every cpu problem
        return l;
    }();
    return list;
}

} // namespace impl
} // namespace relayout
