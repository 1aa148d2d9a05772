#include "common/threading.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "common/env.hpp"

namespace relayout {
namespace impl {

namespace {

std::atomic<int> g_api_cap{ -1 }; // -1: not set through the API

int hw_threads() {
#if RELAYOUT_STD_THREADS
    static const int n = static_cast<int>(std::thread::hardware_concurrency());
#else
    static const int n = tbb::info::default_concurrency();
#endif
    return n > 0 ? n : 1;
}

int env_cap() {
    static const int n = getenv_int("RELAYOUT_NUM_THREADS", 0);
    return n;
}

#if !RELAYOUT_STD_THREADS
// One arena per thread count, created on first use and kept.
tbb::task_arena &arena_for(int nthr) {
    static std::mutex m;
    static std::unique_ptr<tbb::task_arena> arenas[1024];
    const int idx = nthr < 1024 ? nthr : 1023;
    std::lock_guard<std::mutex> lock(m);
    if (!arenas[idx]) arenas[idx].reset(new tbb::task_arena(idx));
    return *arenas[idx];
}
#endif

} // namespace

int max_threads() {
    int cap = g_api_cap.load();
    if (cap < 0) cap = env_cap();
    const int hw = hw_threads();
    if (cap <= 0 || cap > hw) return hw;
    return cap;
}

void set_max_threads(int nthr) {
    g_api_cap.store(nthr < 0 ? 0 : nthr);
}

void parallel(int nthr, const std::function<void(int, int)> &fn) {
    if (nthr <= 1) {
        fn(0, 1);
        return;
    }
#if RELAYOUT_STD_THREADS
    // Fork-join: threads 1 .. nthr-1 are new std::threads, 0 the caller;
    // their creation and join order every access before and after.
    std::vector<std::thread> workers;
    workers.reserve(static_cast<size_t>(nthr - 1));
    for (int ithr = 1; ithr < nthr; ++ithr)
        workers.emplace_back([&fn, ithr, nthr] { fn(ithr, nthr); });
    fn(0, nthr);
    for (auto &w : workers)
        w.join();
#else
    arena_for(nthr).execute([&] {
        tbb::parallel_for(
                0, nthr, [&](int ithr) { fn(ithr, nthr); }, tbb::static_partitioner());
    });
#endif
}

} // namespace impl
} // namespace relayout
