// Kernel cache (DESIGN §3.3): LRU over kernels keyed by the kernel
// description; concurrent requests for one key build it once.
#ifndef RELAYOUT_RUNTIME_PRIMITIVE_CACHE_HPP
#define RELAYOUT_RUNTIME_PRIMITIVE_CACHE_HPP

#include <functional>
#include <memory>
#include <string>

#include "runtime/objects.hpp"

namespace relayout {
namespace impl {

using kernel_ptr_t = std::shared_ptr<const kernel_t>;

int cache_capacity();
status_t set_cache_capacity(int capacity);
// Entries currently held (for tests).
int cache_size();

// Returns the kernel for `key`, building it with `create` on a miss. Sets
// `hit` to whether it was found (a thread that waited for another's build
// counts as a hit).
status_t cache_get_or_create(const kernel_key_t &key,
        const std::function<status_t(kernel_ptr_t &)> &create, kernel_ptr_t &out, bool &hit);

} // namespace impl
} // namespace relayout

#endif
