// OpenCL plumbing for the engine host side: the one place that includes the
// OpenCL headers (with the target version fixed), names of CL error codes,
// the RL_CL_CHECK macro that turns a failing call into a status with the
// call name and the error name, and RAII holders for cl objects.
#ifndef RELAYOUT_OCL_OCL_UTILS_HPP
#define RELAYOUT_OCL_OCL_UTILS_HPP

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <utility>

#include "common/status.hpp"

namespace relayout {
namespace impl {
namespace ocl {

// "CL_INVALID_VALUE" etc.; "CL_UNKNOWN_ERROR" for codes it does not know.
const char *cl_error_name(cl_int err);

// Records "<call> failed: <CL error name> (<code>)[: <detail>]" and returns
// out_of_memory for allocation failures, runtime_error otherwise. `call`
// may be a whole expression: only the text before '(' is kept.
status_t cl_fail(const char *call, cl_int err, const char *detail = nullptr);

// RL_CL_CHECK(clFinish(q)): returns the status from cl_fail on error.
#define RL_CL_CHECK(call)                                                                          \
    do {                                                                                           \
        const cl_int rl_cl_err_ = (call);                                                          \
        if (rl_cl_err_ != CL_SUCCESS) return ::relayout::impl::ocl::cl_fail(#call, rl_cl_err_);    \
    } while (0)

// Retain/release per cl handle type.
template <typename T>
struct cl_traits_t;
#define RL_CL_TRAITS(type, retain_fn, release_fn)                                                  \
    template <>                                                                                    \
    struct cl_traits_t<type> {                                                                     \
        static cl_int retain(type h) { return retain_fn(h); }                                      \
        static cl_int release(type h) { return release_fn(h); }                                    \
    };
RL_CL_TRAITS(cl_context, clRetainContext, clReleaseContext)
RL_CL_TRAITS(cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue)
RL_CL_TRAITS(cl_mem, clRetainMemObject, clReleaseMemObject)
RL_CL_TRAITS(cl_program, clRetainProgram, clReleaseProgram)
RL_CL_TRAITS(cl_kernel, clRetainKernel, clReleaseKernel)
RL_CL_TRAITS(cl_event, clRetainEvent, clReleaseEvent)
#undef RL_CL_TRAITS

// Owns one reference to a cl object. Copying retains, destruction releases.
template <typename T>
class cl_ref_t {
public:
    cl_ref_t() = default;
    // Takes over a reference the caller owns (e.g. from clCreate*); with
    // retain == true it adds its own reference instead (wrapping a user's
    // object).
    explicit cl_ref_t(T h, bool retain = false) : h_(h) {
        if (h_ && retain) cl_traits_t<T>::retain(h_);
    }
    cl_ref_t(const cl_ref_t &o) : h_(o.h_) {
        if (h_) cl_traits_t<T>::retain(h_);
    }
    cl_ref_t(cl_ref_t &&o) noexcept : h_(o.h_) { o.h_ = nullptr; }
    cl_ref_t &operator=(cl_ref_t o) noexcept {
        std::swap(h_, o.h_);
        return *this;
    }
    ~cl_ref_t() { reset(); }

    T get() const { return h_; }
    explicit operator bool() const { return h_ != nullptr; }
    void reset(T h = nullptr) {
        if (h_) cl_traits_t<T>::release(h_);
        h_ = h;
    }
    // Gives up ownership without releasing.
    T detach() {
        T h = h_;
        h_ = nullptr;
        return h;
    }

private:
    T h_ = nullptr;
};

} // namespace ocl
} // namespace impl
} // namespace relayout

#endif
