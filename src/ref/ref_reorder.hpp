// The reference reorder: executes a plan's node nest element by element
// with the numerics of ref/numerics.hpp, over oneTBB. It is the oracle of
// the differential tests and the fallback of every engine.
#ifndef RELAYOUT_REF_REF_REORDER_HPP
#define RELAYOUT_REF_REF_REORDER_HPP

#include "plan/plan.hpp"

struct relayout_memory;
struct relayout_stream;

namespace relayout {
namespace impl {

// Per-primitive data a kernel derives once from the primitive's fixed
// attribute values (kernel_t::prepare: the JIT's expanded scales) and finds
// again in exec_ctx_t::prepared. `owner` is the kernel that made it: a
// kernel ignores data made by another one.
struct exec_prepared_t {
    const void *owner = nullptr;
    virtual ~exec_prepared_t() = default;
};

struct exec_ctx_t {
    const void *src;
    void *dst;
    const float *src_scales; // per plan_t::src_scale_mask, or nullptr
    const float *dst_scales;
    // The memory objects and stream, for kernels of device engines (whose
    // handles are device objects); unused by cpu kernels.
    const relayout_memory *src_mem = nullptr;
    relayout_memory *dst_mem = nullptr;
    relayout_stream *stream = nullptr;
    // What the kernel prepared for these scales (kernel_t::prepare), or
    // nullptr: the kernel then builds what it needs per execution.
    const exec_prepared_t *prepared = nullptr;
};

// Problems smaller than this (bytes read + written) run on the calling
// thread: below it, waking threads costs more than the copy.
constexpr size_t serial_threshold_bytes = 64 * 1024;

status_t ref_reorder_execute(const plan_t &plan, const exec_ctx_t &ctx);

// Writes zeros into every padded position of a buffer (set_data_handle).
status_t zero_pad(const memory_desc_t &md, void *handle);

} // namespace impl
} // namespace relayout

#endif
