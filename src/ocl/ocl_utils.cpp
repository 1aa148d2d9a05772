#include "ocl/ocl_utils.hpp"

#include <string>

namespace relayout {
namespace impl {
namespace ocl {

const char *cl_error_name(cl_int err) {
    switch (err) {
#define RL_CASE(e)                                                                                 \
    case e: return #e;
        RL_CASE(CL_SUCCESS)
        RL_CASE(CL_DEVICE_NOT_FOUND)
        RL_CASE(CL_DEVICE_NOT_AVAILABLE)
        RL_CASE(CL_COMPILER_NOT_AVAILABLE)
        RL_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        RL_CASE(CL_OUT_OF_RESOURCES)
        RL_CASE(CL_OUT_OF_HOST_MEMORY)
        RL_CASE(CL_PROFILING_INFO_NOT_AVAILABLE)
        RL_CASE(CL_MEM_COPY_OVERLAP)
        RL_CASE(CL_IMAGE_FORMAT_MISMATCH)
        RL_CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        RL_CASE(CL_BUILD_PROGRAM_FAILURE)
        RL_CASE(CL_MAP_FAILURE)
        RL_CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        RL_CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        RL_CASE(CL_COMPILE_PROGRAM_FAILURE)
        RL_CASE(CL_LINKER_NOT_AVAILABLE)
        RL_CASE(CL_LINK_PROGRAM_FAILURE)
        RL_CASE(CL_DEVICE_PARTITION_FAILED)
        RL_CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        RL_CASE(CL_INVALID_VALUE)
        RL_CASE(CL_INVALID_DEVICE_TYPE)
        RL_CASE(CL_INVALID_PLATFORM)
        RL_CASE(CL_INVALID_DEVICE)
        RL_CASE(CL_INVALID_CONTEXT)
        RL_CASE(CL_INVALID_QUEUE_PROPERTIES)
        RL_CASE(CL_INVALID_COMMAND_QUEUE)
        RL_CASE(CL_INVALID_HOST_PTR)
        RL_CASE(CL_INVALID_MEM_OBJECT)
        RL_CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        RL_CASE(CL_INVALID_IMAGE_SIZE)
        RL_CASE(CL_INVALID_SAMPLER)
        RL_CASE(CL_INVALID_BINARY)
        RL_CASE(CL_INVALID_BUILD_OPTIONS)
        RL_CASE(CL_INVALID_PROGRAM)
        RL_CASE(CL_INVALID_PROGRAM_EXECUTABLE)
        RL_CASE(CL_INVALID_KERNEL_NAME)
        RL_CASE(CL_INVALID_KERNEL_DEFINITION)
        RL_CASE(CL_INVALID_KERNEL)
        RL_CASE(CL_INVALID_ARG_INDEX)
        RL_CASE(CL_INVALID_ARG_VALUE)
        RL_CASE(CL_INVALID_ARG_SIZE)
        RL_CASE(CL_INVALID_KERNEL_ARGS)
        RL_CASE(CL_INVALID_WORK_DIMENSION)
        RL_CASE(CL_INVALID_WORK_GROUP_SIZE)
        RL_CASE(CL_INVALID_WORK_ITEM_SIZE)
        RL_CASE(CL_INVALID_GLOBAL_OFFSET)
        RL_CASE(CL_INVALID_EVENT_WAIT_LIST)
        RL_CASE(CL_INVALID_EVENT)
        RL_CASE(CL_INVALID_OPERATION)
        RL_CASE(CL_INVALID_GL_OBJECT)
        RL_CASE(CL_INVALID_BUFFER_SIZE)
        RL_CASE(CL_INVALID_MIP_LEVEL)
        RL_CASE(CL_INVALID_GLOBAL_WORK_SIZE)
        RL_CASE(CL_INVALID_PROPERTY)
        RL_CASE(CL_INVALID_IMAGE_DESCRIPTOR)
        RL_CASE(CL_INVALID_COMPILER_OPTIONS)
        RL_CASE(CL_INVALID_LINKER_OPTIONS)
        RL_CASE(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef RL_CASE
        case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
        default: return "CL_UNKNOWN_ERROR";
    }
}

status_t cl_fail(const char *call, cl_int err, const char *detail) {
    std::string name(call ? call : "OpenCL call");
    const auto paren = name.find('(');
    if (paren != std::string::npos) name.resize(paren);
    while (!name.empty() && name.back() == ' ')
        name.pop_back();
    std::string msg =
            "OpenCL: " + name + " failed: " + cl_error_name(err) + " (" + std::to_string(err) + ")";
    if (detail && *detail) msg += std::string(": ") + detail;
    const bool oom = err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE
                     || err == CL_OUT_OF_RESOURCES;
    return fail(oom ? status_t::out_of_memory : status_t::runtime_error, msg);
}

} // namespace ocl
} // namespace impl
} // namespace relayout
