// The ocl engine: a relayout_engine holding an OpenCL context (context_t),
// the memories that live on it (blocked descriptors -> cl_mem buffers,
// image2d descriptors -> cl_mem RGBA images) and its reorder
// implementation "ocl:gen" (src/ocl/ocl_reorder.cpp).
//
// Engines of one device index share one context_t (and so one queue and
// one program cache); engines made from a user's cl_context get their own
// and an index from interop_index_base up, unique per engine, so that the
// primitive cache (whose key holds the engine kind and index) never hands a
// kernel built for one context to another.
#ifndef RELAYOUT_OCL_OCL_ENGINE_HPP
#define RELAYOUT_OCL_OCL_ENGINE_HPP

#include <memory>
#include <string>

#include "ocl/ocl_context.hpp"
#include "runtime/objects.hpp"

namespace relayout {
namespace impl {
namespace ocl {

constexpr size_t interop_index_base = size_t(1) << 20;

struct ocl_engine_t : public relayout_engine {
    ocl_engine_t(size_t index, std::shared_ptr<context_t> ctx)
            : relayout_engine(relayout_ocl, index), ctx_(std::move(ctx)) {}

    status_t init_memory(relayout_memory &m, void *handle) override;
    status_t set_memory_handle(relayout_memory &m, void *handle) override;
    void release_memory(relayout_memory &m) override;
    status_t wait_stream(relayout_stream &s) override;
    const reorder_impl_t *reorder_impl() const override;
    // Kernels are bound to the context; engines of one context share them
    // (the cached kernels hold the context, so its address is not reused).
    uint64_t cache_identity() const override { return reinterpret_cast<uintptr_t>(ctx_.get()); }

    context_t &ctx() const { return *ctx_; }
    const std::shared_ptr<context_t> &shared_ctx() const { return ctx_; }

private:
    // Checks `mem` against the memory's descriptor (type, size or shape and
    // format, context) and zero-fills the padding of blocked descriptors.
    status_t adopt(relayout_memory &m, cl_mem mem);

    std::shared_ptr<context_t> ctx_;
};

// The ocl engine behind `e`, or nullptr when e is not an ocl engine.
inline ocl_engine_t *as_ocl(relayout_engine *e) {
    return e && e->kind == relayout_ocl ? static_cast<ocl_engine_t *>(e) : nullptr;
}
inline const ocl_engine_t *as_ocl(const relayout_engine *e) {
    return e && e->kind == relayout_ocl ? static_cast<const ocl_engine_t *>(e) : nullptr;
}

// An engine over a user's context and device (queue optional: one is made).
status_t ocl_engine_create_from(
        relayout_engine *&engine, cl_context ctx, cl_device_id dev, cl_command_queue queue);

// The reorder implementation (ocl_reorder.cpp).
extern const reorder_impl_t ocl_gen_impl;
// The generated OpenCL C of an ocl:gen primitive descriptor, step by step
// (empty when no step runs a device kernel).
status_t ocl_reorder_sources(const relayout_primitive_desc &pd, std::string *out);

} // namespace ocl

status_t ocl_engine_get_count(size_t &count);
status_t ocl_engine_create(relayout_engine *&engine, size_t index);

} // namespace impl
} // namespace relayout

#endif
