// Reorder primitive descriptor and primitive: validation and dispatch once,
// at creation; the kernel comes from the cache.
#ifndef RELAYOUT_RUNTIME_REORDER_HPP
#define RELAYOUT_RUNTIME_REORDER_HPP

#include <vector>

#include "runtime/objects.hpp"

namespace relayout {
namespace impl {

status_t reorder_pd_create(relayout_primitive_desc &pd, const memory_desc_t &src,
        relayout_engine *src_engine, const memory_desc_t &dst, relayout_engine *dst_engine,
        const attr_t &attr);

// A chain of reorders mds[0] -> mds[1] -> ... -> mds[n-1] (attrs[i] on
// step i) planned as the single reorder mds[0] -> mds[n-1] when that is
// equivalent: every intermediate holds the previous values exactly (same
// data type, or an exact widening) and only the last step changes values.
// Otherwise unimplemented, naming the step that prevents it.
status_t reorder_chain_pd_create(relayout_primitive_desc &pd, const std::vector<memory_desc_t> &mds,
        const std::vector<attr_t> &attrs, relayout_engine *src_engine, relayout_engine *dst_engine);

// The plan in one line (relayout_primitive_desc_query_plan, verbose mode),
// built on the first call; thread-safe.
const std::string &pd_plan_str(const relayout_primitive_desc &pd);

// A primitive: the kernel from the cache (built on a miss) and the
// descriptor, shared with the other primitives made from the same object.
status_t primitive_create(relayout_primitive *&prim, const relayout_primitive_desc &pd);

status_t primitive_execute(const relayout_primitive &prim, relayout_stream *stream,
        const relayout_memory *src, relayout_memory *dst);

// "src:common:2+dst:per_dim_1+zp:src:3+sum:0.5"
std::string attr2str(const attr_t &attr);

// The string tag an engine prefers for a tensor of these dims and data
// type (what a format_kind any descriptor becomes on that engine):
//   cpu, 3..6 dims, f32/bf16/f16: channels (dim 1) blocked by the vector
//       width of the effective ISA: aBx16b (avx512_core), aBx8b (avx2, none);
//   cpu, 3..6 dims, s8/u8: channels last (axb), the int8 convention;
//   otherwise, and on the ocl engine: plain row-major (abx).
// The npu engine has no preference: its layouts need an address.
status_t preferred_tag(const relayout_engine *engine, int ndims, const dim_t *dims, data_type_t dt,
        std::string &tag);

// Resolves a format_kind any descriptor to the engine's preferred layout
// (the extra section is kept).
status_t resolve_any(memory_desc_t &md, const relayout_engine *engine);

} // namespace impl
} // namespace relayout

#endif
