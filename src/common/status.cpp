#include "common/status.hpp"

#include <cstdarg>
#include <cstdio>

namespace relayout {
namespace impl {

namespace {
thread_local std::string g_last_error;
}

const char *status2str(status_t s) {
    switch (s) {
        case status_t::success: return "success";
        case status_t::out_of_memory: return "out_of_memory";
        case status_t::invalid_arguments: return "invalid_arguments";
        case status_t::unimplemented: return "unimplemented";
        case status_t::runtime_error: return "runtime_error";
        case status_t::not_required: return "not_required";
    }
    return "unknown_status";
}

status_t fail(status_t s, const std::string &msg) {
    g_last_error = msg;
    return s;
}

status_t failf(status_t s, const char *fmt, ...) {
    char buf[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);
    g_last_error = buf;
    return s;
}

const std::string &last_error_message() {
    return g_last_error;
}
void clear_last_error_message() {
    g_last_error.clear();
}

} // namespace impl
} // namespace relayout
