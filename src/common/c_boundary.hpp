// The C boundary, shared by every file that implements public C functions
// (src/api, and the engines' own headers): a status, never an exception,
// and the message left in the thread-local error slot.
#ifndef RELAYOUT_COMMON_C_BOUNDARY_HPP
#define RELAYOUT_COMMON_C_BOUNDARY_HPP

#include <exception>
#include <new>
#include <string>

#include "common/status.hpp"
#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {

inline relayout_status_t to_c_status(status_t s) {
    if (s == status_t::success) clear_last_error_message();
    return static_cast<relayout_status_t>(s);
}

// Runs `body` (returning status_t) and turns any escaping exception into a
// status with a message.
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

} // namespace impl
} // namespace relayout

// Argument check of a C function: `name` is the parameter's name.
#define RL_NOT_NULL(p, name)                                                                       \
    do {                                                                                           \
        if (!(p))                                                                                  \
            return ::relayout::impl::fail(                                                         \
                    ::relayout::impl::status_t::invalid_arguments, name " is NULL");               \
    } while (0)

#endif
