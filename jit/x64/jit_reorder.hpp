// The x86-64 JIT reorder (DESIGN §3-§5): a kernel plan, its generated
// kernel and the driver that runs the kernel over oneTBB. The runtime
// (runtime/impl_list.cpp) wraps it as the jit:<isa>:<strategy>
// implementations; this side knows plans, not primitive descriptors.
#ifndef RELAYOUT_JIT_X64_JIT_REORDER_HPP
#define RELAYOUT_JIT_X64_JIT_REORDER_HPP

#include <memory>
#include <string>

#include "jit/x64/cpu_isa.hpp"
#include "plan/kernel_plan.hpp"
#include "ref/ref_reorder.hpp"

namespace relayout {
namespace impl {
namespace x64 {

// Kernel plan parameters for an ISA (vector width, blocking).
kernel_plan_params_t jit_plan_params(cpu_isa_t isa, const plan_t &p);

// Decides whether the JIT at `isa` takes the plan; on success `name` is
// the implementation name ("jit:avx512_core:transpose"). Declines with a
// reason (unimplemented) otherwise.
// `kplan`, if given, receives the kernel plan's dump.
status_t jit_reorder_accept(
        const plan_t &p, cpu_isa_t isa, std::string &name, std::string *kplan = nullptr);

class jit_reorder_t {
public:
    virtual ~jit_reorder_t() = default;
    virtual status_t execute(const exec_ctx_t &ctx) const = 0;
    // The expanded scales of `ctx`'s scale arrays (kernel_plan_t::
    // *_scale_expand), built once for a primitive; execute uses them when
    // ctx.prepared is this kernel's and ctx holds the same scale pointers,
    // and otherwise expands per execution. Null when nothing expands.
    virtual status_t prepare(
            const exec_ctx_t &ctx, std::shared_ptr<const exec_prepared_t> &out) const {
        out.reset();
        return status_t::success;
    }
    // Kernel plan, for verbose output and tests.
    virtual std::string dump() const = 0;
};

// Builds the kernel (generation happens here: call it once per cache key).
status_t jit_reorder_create(const plan_t &p, cpu_isa_t isa, std::unique_ptr<jit_reorder_t> &out);

} // namespace x64
} // namespace impl
} // namespace relayout

#endif
