// Reorder primitive descriptor and primitive: validation and dispatch once,
// at creation; the kernel comes from the cache.
#ifndef RELAYOUT_RUNTIME_REORDER_HPP
#define RELAYOUT_RUNTIME_REORDER_HPP

#include "runtime/objects.hpp"

namespace relayout {
namespace impl {

status_t reorder_pd_create(relayout_primitive_desc &pd, const memory_desc_t &src,
        relayout_engine *src_engine, const memory_desc_t &dst, relayout_engine *dst_engine,
        const attr_t &attr);

status_t primitive_create(relayout_primitive *&prim, const relayout_primitive_desc &pd);

status_t primitive_execute(const relayout_primitive &prim, relayout_stream *stream,
        const relayout_memory *src, relayout_memory *dst);

// "src:common:2+dst:per_dim_1+zp:src:3+sum:0.5"
std::string attr2str(const attr_t &attr);

// The layout chosen for a format_kind any destination: the source's
// dense tag layout, or plain when the source is strided.
status_t resolve_any(memory_desc_t &dst, const memory_desc_t &src);

} // namespace impl
} // namespace relayout

#endif
