// The C boundary of the OpenCL engine's public functions: the same catch-all
// as src/api/c_api.cpp (a status, never an exception, the message left in
// the thread-local error slot).
#ifndef RELAYOUT_OCL_C_GUARD_HPP
#define RELAYOUT_OCL_C_GUARD_HPP

#include <exception>
#include <new>
#include <string>

#include "common/status.hpp"
#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {
namespace ocl {

inline relayout_status_t to_c_status(status_t s) {
    if (s == status_t::success) clear_last_error_message();
    return static_cast<relayout_status_t>(s);
}

template <typename F>
relayout_status_t c_guarded(F &&body) {
    try {
        return to_c_status(body());
    } catch (const std::bad_alloc &) {
        return to_c_status(fail(status_t::out_of_memory, "out of memory"));
    } catch (const std::exception &e) {
        return to_c_status(
                fail(status_t::runtime_error, std::string("internal error: ") + e.what()));
    } catch (...) {
        return to_c_status(fail(status_t::runtime_error, "internal error"));
    }
}

#define RL_OCL_NOT_NULL(p, name)                                                                   \
    do {                                                                                           \
        if (!(p))                                                                                  \
            return ::relayout::impl::fail(                                                         \
                    ::relayout::impl::status_t::invalid_arguments, name " is NULL");               \
    } while (0)

} // namespace ocl
} // namespace impl
} // namespace relayout

#endif
