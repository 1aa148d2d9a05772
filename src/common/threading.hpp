// oneTBB threading (DESIGN §5): a static, balanced split of a range into
// contiguous chunks, one per thread, inside an arena capped by
// RELAYOUT_NUM_THREADS or relayout_set_num_threads(). Builds with
// RELAYOUT_STD_THREADS (ThreadSanitizer's) run each region on std::threads
// instead, so that the sanitizer sees the synchronization.
#ifndef RELAYOUT_COMMON_THREADING_HPP
#define RELAYOUT_COMMON_THREADING_HPP

#include <cstdint>
#include <functional>

namespace relayout {
namespace impl {

// Threads a parallel region may use (>= 1).
int max_threads();
// 0 removes the cap.
void set_max_threads(int nthr);

// Calls fn(ithr, nthr) for ithr in [0, nthr) in parallel; nthr <= max_threads().
void parallel(int nthr, const std::function<void(int, int)> &fn);

// Chunk [start, end) of thread ithr out of nthr over n items (balanced).
inline void balance211(int64_t n, int nthr, int ithr, int64_t &start, int64_t &end) {
    const int64_t q = n / nthr, r = n % nthr;
    start = ithr * q + (ithr < r ? ithr : r);
    end = start + q + (ithr < r ? 1 : 0);
}

} // namespace impl
} // namespace relayout

#endif
