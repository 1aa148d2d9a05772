// The objects behind the C handles: engines, streams, memories, attributes,
// primitive descriptors and primitives.
#ifndef RELAYOUT_RUNTIME_OBJECTS_HPP
#define RELAYOUT_RUNTIME_OBJECTS_HPP

#include <memory>
#include <string>

#include "md/memory_desc.hpp"
#include "plan/attr.hpp"
#include "plan/plan.hpp"
#include "ref/ref_reorder.hpp"

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
    explicit relayout_engine(relayout_engine_kind_t k, size_t i) : kind(k), index(i) {}
    virtual ~relayout_engine() = default;

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
};

struct reorder_impl_t;

} // namespace impl
} // namespace relayout

struct relayout_primitive_desc {
    relayout::impl::memory_desc_t src_md, dst_md;
    relayout_engine *src_engine, *dst_engine;
    relayout::impl::attr_t attr;
    relayout::impl::plan_t plan;
    const relayout::impl::reorder_impl_t *impl = nullptr;
    std::string impl_name;
    std::string plan_str;
    std::string key; // kernel cache key
    std::string attr_str;
    std::string engine_program; // device impls: the generated program as text
};

struct relayout_primitive {
    relayout_primitive_desc pd;
    std::shared_ptr<const relayout::impl::kernel_t> kernel;
};

#endif
