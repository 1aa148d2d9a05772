#include "runtime/engine.hpp"

#include <new>

namespace relayout {
namespace impl {

// Device engines, defined by their parts when built (src/ocl, src/npu).
#ifdef RELAYOUT_WITH_OPENCL
status_t ocl_engine_get_count(size_t &count);
status_t ocl_engine_create(relayout_engine *&engine, size_t index);
#endif
#ifdef RELAYOUT_WITH_NPU
status_t npu_engine_get_count(size_t &count);
status_t npu_engine_create(relayout_engine *&engine, size_t index);
#endif

status_t engine_get_count(relayout_engine_kind_t kind, size_t &count) {
    switch (kind) {
        case relayout_cpu: count = 1; return status_t::success;
        case relayout_ocl:
#ifdef RELAYOUT_WITH_OPENCL
            return ocl_engine_get_count(count);
#else
            count = 0;
            return status_t::success;
#endif
        case relayout_npu:
#ifdef RELAYOUT_WITH_NPU
            return npu_engine_get_count(count);
#else
            count = 0;
            return status_t::success;
#endif
        default:
            return failf(
                    status_t::invalid_arguments, "engine kind %d is not a valid kind", (int)kind);
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
#ifdef RELAYOUT_WITH_OPENCL
            return ocl_engine_create(engine, index);
#else
            return fail(status_t::unimplemented,
                    "the ocl engine is not available: relayout was built without OpenCL");
#endif
        case relayout_npu:
#ifdef RELAYOUT_WITH_NPU
            return npu_engine_create(engine, index);
#else
            return fail(status_t::unimplemented,
                    "the npu engine is not available: relayout was built without it");
#endif
        default:
            return failf(
                    status_t::invalid_arguments, "engine kind %d is not a valid kind", (int)kind);
    }
}

} // namespace impl
} // namespace relayout
