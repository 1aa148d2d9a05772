// Engines: the CPU always; OpenCL and NPU engines when their parts are built.
#ifndef RELAYOUT_RUNTIME_ENGINE_HPP
#define RELAYOUT_RUNTIME_ENGINE_HPP

#include "runtime/objects.hpp"

namespace relayout {
namespace impl {

status_t engine_get_count(relayout_engine_kind_t kind, size_t &count);
status_t engine_create(relayout_engine *&engine, relayout_engine_kind_t kind, size_t index);

} // namespace impl
} // namespace relayout

#endif
