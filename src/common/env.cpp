#include "common/env.hpp"

#include <cstdlib>

#include "common/utils.hpp"

namespace relayout {
namespace impl {

std::string getenv_str(const char *name, const std::string &def) {
    const char *v = std::getenv(name);
    if (!v || !*v) return def;
    return v;
}

int getenv_int(const char *name, int def) {
    const char *v = std::getenv(name);
    if (!v || !*v) return def;
    char *end = nullptr;
    long r = std::strtol(v, &end, 10);
    if (end == v || *end != '\0') return def;
    return static_cast<int>(r);
}

std::string dims2str(const dim_t *dims, int ndims) {
    std::string s;
    for (int d = 0; d < ndims; ++d) {
        if (d) s += 'x';
        s += std::to_string(dims[d]);
    }
    return s;
}

void *aligned_malloc(size_t size, size_t alignment) {
    if (size == 0) size = alignment;
    void *p = nullptr;
    if (posix_memalign(&p, alignment, size) != 0) return nullptr;
    return p;
}

void aligned_free(void *p) {
    std::free(p);
}

} // namespace impl
} // namespace relayout
