#include "runtime/engine.hpp"

#include <new>

namespace relayout {
namespace impl {

status_t engine_get_count(relayout_engine_kind_t kind, size_t &count) {
    switch (kind) {
        case relayout_cpu: count = 1; return status_t::success;
        case relayout_ocl:
        case relayout_npu: count = 0; return status_t::success;
        default:
            return failf(status_t::invalid_arguments, "engine kind %d is not a valid kind",
                    (int)kind);
    }
}

status_t engine_create(relayout_engine *&engine, relayout_engine_kind_t kind, size_t index) {
    switch (kind) {
        case relayout_cpu:
            if (index != 0)
                return failf(status_t::invalid_arguments,
                        "engine index %zu: there is one cpu engine (index 0)", index);
            engine = new (std::nothrow) relayout_engine(kind, index);
            return engine ? status_t::success : status_t::out_of_memory;
        case relayout_ocl:
            return fail(status_t::unimplemented,
                    "the ocl engine is not available in this build yet");
        case relayout_npu:
            return fail(status_t::unimplemented,
                    "the npu engine is not available in this build yet");
        default:
            return failf(status_t::invalid_arguments, "engine kind %d is not a valid kind",
                    (int)kind);
    }
}

} // namespace impl
} // namespace relayout
