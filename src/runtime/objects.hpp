// The objects behind the C handles: engines, streams, memories, attributes,
// primitive descriptors and primitives.
#ifndef RELAYOUT_RUNTIME_OBJECTS_HPP
#define RELAYOUT_RUNTIME_OBJECTS_HPP

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "common/lazy.hpp"
#include "md/memory_desc.hpp"
#include "plan/attr.hpp"
#include "plan/plan.hpp"
#include "ref/ref_reorder.hpp"
#include "runtime/kernel_key.hpp"

struct relayout_memory_desc {
    relayout::impl::memory_desc_t md;
};

struct relayout_memory;
struct relayout_stream;
namespace relayout {
namespace impl {
struct reorder_impl_t;
} // namespace impl
} // namespace relayout

// Engines other than the CPU derive from this, keep their device state and
// own what lives on the device: memory objects and the reorders that touch
// them (tried before the cpu implementation list).
struct relayout_engine {
    explicit relayout_engine(relayout_engine_kind_t k, size_t i)
            : kind(k), index(i), uid_(next_uid()) {}
    virtual ~relayout_engine() = default;

    // What the kernels of device reorders are bound to, for the kernel
    // cache key: 0 for every cpu engine (cpu kernels run anywhere); for
    // other engines an id unique to this engine object and never reused
    // (two engines of one index, or user contexts, never share a kernel).
    // Engines whose objects share their device state (one OpenCL context)
    // may return an identity of that state instead, which must stay unique
    // while any kernel built for it is cached.
    virtual uint64_t cache_identity() const { return kind == relayout_cpu ? 0 : uid_; }

    // A memory of this engine over `handle` (a user object, or
    // RELAYOUT_MEMORY_ALLOCATE, or RELAYOUT_MEMORY_NONE).
    virtual relayout::impl::status_t init_memory(relayout_memory &m, void *handle) {
        return relayout::impl::fail(
                relayout::impl::status_t::unimplemented, "memory: this engine cannot hold memory");
    }
    virtual relayout::impl::status_t set_memory_handle(relayout_memory &m, void *handle) {
        return relayout::impl::fail(relayout::impl::status_t::unimplemented,
                "set_data_handle: not supported on this engine");
    }
    virtual void release_memory(relayout_memory &m) {}
    // Waits for the work queued on a stream of this engine (cpu: none).
    virtual relayout::impl::status_t wait_stream(relayout_stream &s) {
        return relayout::impl::status_t::success;
    }
    // The reorder implementation of this engine, or nullptr.
    virtual const relayout::impl::reorder_impl_t *reorder_impl() const { return nullptr; }

    relayout_engine_kind_t kind;
    size_t index;

private:
    static uint64_t next_uid() {
        static std::atomic<uint64_t> n{ 1 };
        return n.fetch_add(1, std::memory_order_relaxed);
    }
    uint64_t uid_;
};

struct relayout_stream {
    relayout_engine *engine;
    unsigned flags;
};

struct relayout_memory {
    relayout::impl::memory_desc_t md;
    relayout_engine *engine;
    void *handle = nullptr;      // the data (CPU: a pointer)
    void *owned = nullptr;       // library allocation, freed with the object
    void *engine_data = nullptr; // non-cpu engines: their device object
    ~relayout_memory();
};

struct relayout_primitive_attr {
    relayout::impl::attr_t attr;
};

namespace relayout {
namespace impl {

// A generated (or reference) kernel for one reorder problem; immutable once
// built and shared through the primitive cache.
struct kernel_t {
    virtual ~kernel_t() = default;
    virtual status_t execute(const exec_ctx_t &ctx) const = 0;
    // What a primitive keeps for its fixed attribute values (the scales of
    // `ctx`): built once at primitive creation, passed back to execute in
    // exec_ctx_t::prepared with the same scale pointers, so that execute
    // allocates nothing. Null (the default) when the kernel needs nothing.
    virtual status_t prepare(
            const exec_ctx_t &ctx, std::shared_ptr<const exec_prepared_t> &out) const {
        out.reset();
        return status_t::success;
    }
};

struct reorder_impl_t;

} // namespace impl
} // namespace relayout

// Immutable once created (the C API hands out const pointers only), so the
// strings only verbose mode and queries need are built on first use, and
// primitives share one copy (shared_from_this: a primitive's own copy).
struct relayout_primitive_desc : std::enable_shared_from_this<relayout_primitive_desc> {
    relayout::impl::memory_desc_t src_md, dst_md;
    relayout_engine *src_engine, *dst_engine;
    relayout::impl::attr_t attr;
    relayout::impl::plan_t plan;
    const relayout::impl::reorder_impl_t *impl = nullptr;
    std::string impl_name;
    // Device implementations write their plan summary here in init. For
    // blocked pairs it stays empty: read the plan with pd_plan_str()
    // (runtime/reorder.hpp), which builds it on first use.
    std::string plan_str;
    relayout::impl::kernel_key_t key; // kernel cache key
    std::string engine_program;       // device impls: the generated program as text
    int chain_steps = 0;              // > 0: made from a chain of this many reorders
    // Appended to the plan string: the JIT's kernel/driver split, filled in
    // init only when verbose mode is on (as it always was).
    std::string plan_detail;

    // Built on first use (pd_plan_str).
    relayout::impl::lazy_t<std::string> lazy_plan_str;
    // The immutable copy that the primitives made from a descriptor that is
    // not shared (an internal one) share, made by the first of them.
    relayout::impl::lazy_t<std::shared_ptr<const relayout_primitive_desc>> shared_copy;

    // C handles (src/api) are shared objects that hold themselves until
    // relayout_primitive_desc_destroy, so primitives keep the descriptor
    // instead of copying it. A copy of the descriptor does not copy this.
    struct handle_ref_t {
        std::shared_ptr<relayout_primitive_desc> self;
        handle_ref_t() = default;
        handle_ref_t(const handle_ref_t &) {}
        handle_ref_t &operator=(const handle_ref_t &) { return *this; }
    } handle_ref;
};

struct relayout_primitive {
    // Shared with the other primitives of the same descriptor object.
    std::shared_ptr<const relayout_primitive_desc> pd;
    std::shared_ptr<const relayout::impl::kernel_t> kernel;
    // kernel->prepare() for this primitive's scales (often null).
    std::shared_ptr<const relayout::impl::exec_prepared_t> prepared;
};

#endif
