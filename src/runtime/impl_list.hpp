// The reorder implementation list: tried in order, the first whose init()
// accepts the problem wins; verbose mode says why earlier ones declined.
#ifndef RELAYOUT_RUNTIME_IMPL_LIST_HPP
#define RELAYOUT_RUNTIME_IMPL_LIST_HPP

#include <memory>
#include <vector>

#include "runtime/objects.hpp"

namespace relayout {
namespace impl {

struct reorder_impl_t {
    // Name reported by impl_info ("ref:any", "jit:avx512_core:transpose").
    // Implementations that derive the name from the problem set it in init.
    const char *name;
    // Accepts (success, may refine pd.impl_name) or declines (a status with
    // the reason as the message).
    status_t (*init)(relayout_primitive_desc &pd);
    // Builds the kernel; called once per cache key.
    status_t (*create_kernel)(
            const relayout_primitive_desc &pd, std::shared_ptr<const kernel_t> &kernel);
};

using impl_list_t = std::vector<const reorder_impl_t *>;

// The implementations to try, best first. The list returned stays valid
// and unchanged for the life of the process (a registration publishes a
// new one), so callers may walk it without a lock.
const impl_list_t &reorder_impl_list();

// Adds an implementation ahead of the built-in ones (lower priority first).
// Call at run time, not from a static initialiser (the static library is
// an archive and would drop the object). Thread-safe.
void register_reorder_impl(const reorder_impl_t *impl, int priority);
// Changes whenever the list does (a registration): what was decided from
// the list before is stale then.
uint64_t reorder_impl_list_generation();

} // namespace impl
} // namespace relayout

#endif
