// Internal error values. Internal code never throws on user input: it
// returns status_t and leaves a message for the C API boundary to hand back
// through relayout_get_last_error_message().
#ifndef RELAYOUT_COMMON_STATUS_HPP
#define RELAYOUT_COMMON_STATUS_HPP

#include <string>

#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {

enum class status_t {
    success = relayout_success,
    out_of_memory = relayout_out_of_memory,
    invalid_arguments = relayout_invalid_arguments,
    unimplemented = relayout_unimplemented,
    runtime_error = relayout_runtime_error,
    not_required = relayout_not_required,
};

const char *status2str(status_t s);

// Records `msg` as this thread's last error message and returns `s`, so
// that a failing check reads: return fail(status_t::invalid_arguments, ...).
status_t fail(status_t s, const std::string &msg);
// printf-style variant.
status_t failf(status_t s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

const std::string &last_error_message();
void clear_last_error_message();

} // namespace impl
} // namespace relayout

// Propagates a non-success status to the caller.
#define RL_CHECK(expr)                                                                             \
    do {                                                                                           \
        const ::relayout::impl::status_t rl_status_ = (expr);                                      \
        if (rl_status_ != ::relayout::impl::status_t::success) return rl_status_;                  \
    } while (0)

#endif
