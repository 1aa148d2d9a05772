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
// memcpy. Measured on Zen 4 (32 MiB L3, 1 MiB L2 per core), same buffers
// copied back to back, NT / memcpy GB/s: 2 MiB 38 / 40, 4 MiB 44 / 37,
// 16 MiB 52 / 41, 64 MiB 36 / 22 (1 thread); 4 MiB 40 / 36, 32 MiB 41 / 26
// (2 threads). This is the roofline a reorder is measured against, so it
// streams from where streaming is the faster copy, not from where a
// reorder starts to (the library keeps mid-size destinations in L3).
constexpr size_t stream_copy_nt_bytes = size_t(4) << 20;

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
