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

// Engines other than the CPU derive from this and keep their device state.
struct relayout_engine {
    explicit relayout_engine(relayout_engine_kind_t k, size_t i) : kind(k), index(i) {}
    virtual ~relayout_engine() = default;
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
    void *handle = nullptr; // the data (CPU: a pointer)
    void *owned = nullptr; // library allocation, freed with the object
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
};

struct relayout_primitive {
    relayout_primitive_desc pd;
    std::shared_ptr<const relayout::impl::kernel_t> kernel;
};

#endif
