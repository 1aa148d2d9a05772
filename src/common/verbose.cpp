#include "common/verbose.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>

#include "common/env.hpp"

namespace relayout {
namespace impl {

namespace {
std::atomic<int> g_level{ -1 };

int env_level() {
    const std::string v = getenv_str("RELAYOUT_VERBOSE", "0");
    if (v == "all" || v == "dispatch") return 2;
    if (v == "none") return 0;
    return getenv_int("RELAYOUT_VERBOSE", 0);
}
} // namespace

int verbose_level() {
    int l = g_level.load(std::memory_order_relaxed);
    if (l < 0) {
        l = env_level();
        g_level.store(l);
    }
    return l;
}

void set_verbose_level(int level) {
    g_level.store(level < 0 ? 0 : level);
}

void verbose_print(const std::string &line) {
    static std::mutex m;
    std::lock_guard<std::mutex> lock(m);
    std::fprintf(stdout, "relayout_verbose,%s\n", line.c_str());
    std::fflush(stdout);
}

} // namespace impl
} // namespace relayout
