// Small helpers used across the library.
#ifndef RELAYOUT_COMMON_UTILS_HPP
#define RELAYOUT_COMMON_UTILS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {

using dim_t = int64_t;
using dims_t = dim_t[RELAYOUT_MAX_NDIMS];
constexpr int max_ndims = RELAYOUT_MAX_NDIMS;

template <typename T>
constexpr T div_up(T a, T b) {
    return (a + b - 1) / b;
}
template <typename T>
constexpr T round_up(T a, T b) {
    return div_up(a, b) * b;
}

// a * b, or false when it overflows int64 (shapes come from users).
inline bool mul_no_overflow(dim_t a, dim_t b, dim_t &out) {
    return !__builtin_mul_overflow(a, b, &out);
}

// "2x17x5x3"
std::string dims2str(const dim_t *dims, int ndims);

// 64-byte aligned allocation for library-owned buffers.
void *aligned_malloc(size_t size, size_t alignment = 64);
void aligned_free(void *p);

// FNV-1a, for cache keys.
inline uint64_t hash_bytes(const void *p, size_t n, uint64_t h = 1469598103934665603ull) {
    const unsigned char *b = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < n; ++i) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

} // namespace impl
} // namespace relayout

#endif
