// benchdnn_lite — timing: the reorder interleaved with a streaming copy of
// the same bytes (DESIGN §10: the copy is the roofline of a reorder, and
// measuring both in the same run cancels most machine noise).
#ifndef BENCHDNN_LITE_PERF_HPP
#define BENCHDNN_LITE_PERF_HPP

#include <functional>

#include "common.hpp"

namespace bdl {

struct perf_res_t {
    int iters = 0;
    double min_ms = 0, avg_ms = 0;
    double copy_min_ms = 0, copy_avg_ms = 0;
    double bytes = 0; // src + dst bytes, padding included

    double gbps() const { return min_ms > 0 ? bytes / (min_ms * 1e6) : 0; }
    double copy_gbps() const { return copy_min_ms > 0 ? bytes / (copy_min_ms * 1e6) : 0; }
    double pct_of_copy() const { return min_ms > 0 ? 100. * copy_min_ms / min_ms : 0; }
};

// Copies with the fastest plain copy of the machine for the size: from
// stream_copy_nt_bytes (src + dst) on, non-temporal vector stores of whole
// 64-byte lines (streaming stores save the read-for-ownership); below,
// memcpy, which keeps what fits in the caches. Measured on Zen 4 (32 MiB
// L3) on a quiet machine, 2 threads, the same buffers copied back to back,
// memcpy / NT GB/s by src + dst: 16 MiB 80 / 50, 28 MiB 62 / 51, 32 MiB
// 51 / 51, 40 MiB 47 / 51, 48 MiB 43 / 49, 128 MiB 34 / 48 (1 thread: NT
// ahead from 32 MiB). Measured with other jobs running, NT looked faster
// from 4 MiB: compare copies only on a quiet machine.
constexpr size_t stream_copy_nt_bytes = size_t(40) << 20;

// Thread `ithr` of `nthr`'s share of stream_copy: reads src_bytes from src
// and writes dst_bytes to dst (a copy of the common part; the rest read or
// zero-written). Shares are whole 64-byte lines.
void stream_copy_slice(
        const void *src, size_t src_bytes, void *dst, size_t dst_bytes, int ithr, int nthr);

// stream_copy_slice over all hardware threads (one thread for small sizes).
void stream_copy(const void *src, size_t src_bytes, void *dst, size_t dst_bytes);

// Times `run` and the copy alternately. fix_times 0 = auto (~200 ms).
perf_res_t measure(const std::function<void()> &run, const void *src, size_t src_bytes,
        void *scratch, size_t dst_bytes, int fix_times);

} // namespace bdl

#endif
