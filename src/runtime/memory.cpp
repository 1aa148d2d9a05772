#include "runtime/objects.hpp"

#include "common/utils.hpp"

relayout_memory::~relayout_memory() {
    if (engine && engine->kind != relayout_cpu) engine->release_memory(*this);
    if (owned) relayout::impl::aligned_free(owned);
}
