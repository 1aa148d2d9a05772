// RELAYOUT_VERBOSE: one CSV line per primitive creation and execution.
#ifndef RELAYOUT_COMMON_VERBOSE_HPP
#define RELAYOUT_COMMON_VERBOSE_HPP

#include <chrono>
#include <string>

namespace relayout {
namespace impl {

// 0: quiet; 1: creation and execution lines; 2: also why implementations
// declined. RELAYOUT_VERBOSE accepts 0/1/2, "all" (= 2) and "none".
int verbose_level();
void set_verbose_level(int level);
void verbose_print(const std::string &line);

inline double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

} // namespace impl
} // namespace relayout

#endif
