// benchdnn_lite — performance measurement.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include <immintrin.h>

#include "perf.hpp"

namespace bdl {

namespace {
double now_ms() {
    using clk = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clk::now().time_since_epoch()).count();
}

volatile uint64_t sink; // keeps read-only tails from being optimised out

// Non-temporal copy of n bytes: dst aligned to a line first, then whole
// lines streamed (four per iteration), the rest with memcpy.
template <typename F>
void nt_copy_with(uint8_t *dst, const uint8_t *src, size_t n, F lines) {
    const size_t head = std::min(n, size_t(-reinterpret_cast<uintptr_t>(dst)) & 63);
    std::memcpy(dst, src, head);
    const size_t body = (n - head) / 256 * 256;
    lines(dst + head, src + head, body);
    std::memcpy(dst + head + body, src + head + body, n - head - body);
}

__attribute__((target("avx512f"))) void nt_lines_avx512(
        uint8_t *dst, const uint8_t *src, size_t n) {
    for (size_t i = 0; i < n; i += 256) {
        const __m512i a = _mm512_loadu_si512(src + i), b = _mm512_loadu_si512(src + i + 64),
                      c = _mm512_loadu_si512(src + i + 128), d = _mm512_loadu_si512(src + i + 192);
        _mm512_stream_si512(reinterpret_cast<__m512i *>(dst + i), a);
        _mm512_stream_si512(reinterpret_cast<__m512i *>(dst + i + 64), b);
        _mm512_stream_si512(reinterpret_cast<__m512i *>(dst + i + 128), c);
        _mm512_stream_si512(reinterpret_cast<__m512i *>(dst + i + 192), d);
    }
    _mm_sfence();
}

__attribute__((target("avx2"))) void nt_lines_avx2(uint8_t *dst, const uint8_t *src, size_t n) {
    for (size_t i = 0; i < n; i += 64) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i + 32));
        _mm256_stream_si256(reinterpret_cast<__m256i *>(dst + i), a);
        _mm256_stream_si256(reinterpret_cast<__m256i *>(dst + i + 32), b);
    }
    _mm_sfence();
}

// Reads n bytes as fast as the machine reads (the part of a reorder's
// source that a narrower destination does not take: f32 -> s8 reads 4
// bytes per byte written). A scalar loop read in-cache sources at a
// fraction of the reorder's vector loads.
__attribute__((target("avx2"))) uint64_t read_lines_avx2(const uint8_t *src, size_t n) {
    __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        a = _mm256_xor_si256(a, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i)));
        b = _mm256_xor_si256(
                b, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i + 32)));
        c = _mm256_xor_si256(
                c, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i + 64)));
        d = _mm256_xor_si256(
                d, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i + 96)));
    }
    a = _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d));
    uint64_t acc = uint64_t(_mm256_extract_epi64(a, 0)) ^ uint64_t(_mm256_extract_epi64(a, 3));
    for (; i < n; ++i)
        acc ^= src[i];
    return acc;
}

uint64_t read_bytes(const uint8_t *src, size_t n) {
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) return read_lines_avx2(src, n);
    uint64_t acc = 0;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, src + i, 8);
        acc ^= w;
    }
    return acc;
}

void copy_bytes(uint8_t *dst, const uint8_t *src, size_t n, bool nt) {
    static const bool avx512 = __builtin_cpu_supports("avx512f");
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (nt && avx512)
        nt_copy_with(dst, src, n, nt_lines_avx512);
    else if (nt && avx2)
        nt_copy_with(dst, src, n, nt_lines_avx2);
    else
        std::memcpy(dst, src, n);
}

} // namespace

void stream_copy_slice(
        const void *src_v, size_t src_bytes, void *dst_v, size_t dst_bytes, int ithr, int nthr) {
    const auto *src = static_cast<const uint8_t *>(src_v);
    auto *dst = static_cast<uint8_t *>(dst_v);
    auto range = [&](size_t n, size_t &b, size_t &e) {
        // 64-byte aligned chunks so threads never share a cache line.
        const size_t lines = (n + 63) / 64;
        b = std::min(n, lines * size_t(ithr) / size_t(nthr) * 64);
        e = std::min(n, lines * size_t(ithr + 1) / size_t(nthr) * 64);
    };
    const bool nt = src_bytes + dst_bytes >= stream_copy_nt_bytes;
    const size_t common = std::min(src_bytes, dst_bytes);
    size_t b, e;
    range(common, b, e);
    if (e > b) copy_bytes(dst + b, src + b, e - b, nt);
    if (src_bytes > common) { // the reorder reads more than it writes
        range(src_bytes - common, b, e);
        if (e > b) sink = read_bytes(src + common + b, e - b);
    } else if (dst_bytes > common) { // writes more than it reads
        range(dst_bytes - common, b, e);
        if (e > b) std::memset(dst + common + b, 0, e - b);
    }
}

void stream_copy(const void *src, size_t src_bytes, void *dst, size_t dst_bytes) {
    // Threads only pay off once the copy is much longer than a thread start.
    constexpr size_t threaded_bytes = size_t(4) << 20;
    // Cached: hardware_concurrency() reads /sys and costs ~10 us per call.
    static const int nthr = int(std::max(1u, std::thread::hardware_concurrency()));
    if (src_bytes + dst_bytes < threaded_bytes || nthr == 1) {
        stream_copy_slice(src, src_bytes, dst, dst_bytes, 0, 1);
        return;
    }
    std::vector<std::thread> pool;
    for (int t = 1; t < nthr; ++t)
        pool.emplace_back(stream_copy_slice, src, src_bytes, dst, dst_bytes, t, nthr);
    stream_copy_slice(src, src_bytes, dst, dst_bytes, 0, nthr);
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
