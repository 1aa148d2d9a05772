// benchdnn_lite — performance measurement.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "perf.hpp"

namespace bdl {

namespace {
double now_ms() {
    using clk = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clk::now().time_since_epoch()).count();
}

volatile uint64_t sink; // keeps read-only tails from being optimised out

void copy_slice(
        const uint8_t *src, size_t src_bytes, uint8_t *dst, size_t dst_bytes, int ithr, int nthr) {
    auto range = [&](size_t n, size_t &b, size_t &e) {
        // 64-byte aligned chunks so threads never share a cache line.
        const size_t lines = (n + 63) / 64;
        b = std::min(n, lines * size_t(ithr) / size_t(nthr) * 64);
        e = std::min(n, lines * size_t(ithr + 1) / size_t(nthr) * 64);
    };
    const size_t common = std::min(src_bytes, dst_bytes);
    size_t b, e;
    range(common, b, e);
    if (e > b) std::memcpy(dst + b, src + b, e - b);
    if (src_bytes > common) { // the reorder reads more than it writes
        range(src_bytes - common, b, e);
        uint64_t acc = 0;
        const uint8_t *p = src + common;
        for (size_t i = b; i + 8 <= e; i += 8) {
            uint64_t w;
            std::memcpy(&w, p + i, 8);
            acc ^= w;
        }
        sink = acc;
    } else if (dst_bytes > common) { // writes more than it reads
        range(dst_bytes - common, b, e);
        if (e > b) std::memset(dst + common + b, 0, e - b);
    }
}
} // namespace

void stream_copy(const void *src, size_t src_bytes, void *dst, size_t dst_bytes) {
    // Threads only pay off once the copy is much longer than a thread start.
    constexpr size_t threaded_bytes = size_t(4) << 20;
    const auto *s = static_cast<const uint8_t *>(src);
    auto *d = static_cast<uint8_t *>(dst);
    // Cached: hardware_concurrency() reads /sys and costs ~10 us per call.
    static const int nthr = int(std::max(1u, std::thread::hardware_concurrency()));
    if (src_bytes + dst_bytes < threaded_bytes || nthr == 1) {
        copy_slice(s, src_bytes, d, dst_bytes, 0, 1);
        return;
    }
    std::vector<std::thread> pool;
    for (int t = 1; t < nthr; ++t)
        pool.emplace_back(copy_slice, s, src_bytes, d, dst_bytes, t, nthr);
    copy_slice(s, src_bytes, d, dst_bytes, 0, nthr);
    for (auto &t : pool)
        t.join();
}

perf_res_t measure(const std::function<void()> &run, const void *src, size_t src_bytes,
        void *scratch, size_t dst_bytes, int fix_times) {
    constexpr double budget_ms = 200.; // auto mode: total time per problem
    constexpr int min_iters = 3, max_iters = 5000;
    perf_res_t r;
    r.bytes = double(src_bytes) + double(dst_bytes);

    // Warm up: page faults, kernel creation, caches.
    double t0 = now_ms();
    run();
    double t1 = now_ms();
    stream_copy(src, src_bytes, scratch, dst_bytes);
    double t2 = now_ms();
    int iters = fix_times;
    if (iters <= 0) {
        const double one = std::max(1e-4, (t1 - t0) + (t2 - t1));
        iters = int(std::min<double>(max_iters, std::max<double>(min_iters, budget_ms / one)));
    }

    r.iters = iters;
    r.min_ms = r.copy_min_ms = 1e30;
    double sum = 0, copy_sum = 0;
    for (int i = 0; i < iters; ++i) {
        t0 = now_ms();
        run();
        t1 = now_ms();
        stream_copy(src, src_bytes, scratch, dst_bytes);
        t2 = now_ms();
        r.min_ms = std::min(r.min_ms, t1 - t0);
        r.copy_min_ms = std::min(r.copy_min_ms, t2 - t1);
        sum += t1 - t0;
        copy_sum += t2 - t1;
    }
    r.avg_ms = sum / iters;
    r.copy_avg_ms = copy_sum / iters;
    return r;
}

} // namespace bdl
