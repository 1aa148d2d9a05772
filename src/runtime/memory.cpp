#include "runtime/objects.hpp"

#include "common/utils.hpp"

relayout_memory::~relayout_memory() {
    if (owned) relayout::impl::aligned_free(owned);
}
