// Helpers shared by the public-API suites. Everything here is computed from
// the public API only (queries + the offset formula of DESIGN §2.1), never
// from library internals: these tests judge the library, so their oracle is
// their own.
#ifndef RELAYOUT_TESTS_API_TEST_UTILS_HPP
#define RELAYOUT_TESTS_API_TEST_UTILS_HPP

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "relayout/relayout.hpp"

namespace api_test {

using relayout::engine;
using relayout::memory;
using relayout::primitive_attr;
using relayout::reorder;
using relayout::stream;
using dt = memory::data_type;
using tag = memory::format_tag;
using dims_t = memory::dims;
using dim_t = memory::dim;

inline engine &cpu_engine() {
    static engine e(engine::kind::cpu, 0);
    return e;
}
inline stream &cpu_stream() {
    static stream s(cpu_engine());
    return s;
}

inline size_t dt_size(dt t) {
    return memory::data_type_size(t);
}

// ---- the layout of a descriptor, read through the public queries --------

struct layout_t {
    int ndims = 0;
    dims_t dims, padded, padded_offsets, strides, blks, idxs;
    dim_t offset0 = 0;
    size_t esz = 0;
};

inline layout_t layout_of(const memory::desc &md) {
    layout_t l;
    l.ndims = md.get_ndims();
    l.dims = md.get_dims();
    l.padded = md.get_padded_dims();
    l.padded_offsets = md.get_padded_offsets();
    l.strides = md.get_strides();
    l.blks = md.get_inner_blks();
    l.idxs = md.get_inner_idxs();
    l.offset0 = md.get_offset0();
    l.esz = dt_size(md.get_data_type());
    return l;
}

// DESIGN §2.1: add padded_offsets; inner blocks from the innermost
// outwards; then offset0 + sum(pos * strides). In elements.
inline dim_t offset_of(const layout_t &l, const dims_t &pos_in) {
    dims_t pos(l.ndims);
    for (int d = 0; d < l.ndims; ++d)
        pos[d] = pos_in[d] + l.padded_offsets[d];
    dim_t off = 0, blk_stride = 1;
    for (int i = (int)l.blks.size() - 1; i >= 0; --i) {
        const int d = (int)l.idxs[i];
        const dim_t blk = l.blks[i];
        off += (pos[d] % blk) * blk_stride;
        pos[d] /= blk;
        blk_stride *= blk;
    }
    off += l.offset0;
    for (int d = 0; d < l.ndims; ++d)
        off += pos[d] * l.strides[d];
    return off;
}

inline dim_t volume(const dims_t &d) {
    dim_t v = 1;
    for (dim_t x : d)
        v *= x;
    return v;
}

// Calls f(pos, linear_index) for every point of `extent`, row-major.
inline void for_each_pos(
        const dims_t &extent, const std::function<void(const dims_t &, dim_t)> &f) {
    const dim_t n = volume(extent);
    if (n == 0) return;
    dims_t pos(extent.size(), 0);
    for (dim_t i = 0; i < n; ++i) {
        f(pos, i);
        for (int d = (int)extent.size() - 1; d >= 0; --d) {
            if (++pos[d] < extent[d]) break;
            pos[d] = 0;
        }
    }
}

inline bool is_padding(const layout_t &l, const dims_t &pos) {
    for (int d = 0; d < l.ndims; ++d)
        if (pos[d] >= l.dims[d]) return true;
    return false;
}

// ---- scalar conversions written for the tests ---------------------------

inline uint32_t f2u(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float u2f(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline double bf16_value(uint16_t b) {
    return u2f(uint32_t(b) << 16);
}
inline double f16_value(uint16_t h) {
    const int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0)
        v = std::ldexp((double)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = std::ldexp((double)(m | 0x400), e - 25);
    return s ? -v : v;
}

// The numeric value of one element of type t at p.
inline double value_at(dt t, const void *p) {
    switch (t) {
        case dt::f32: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
        case dt::bf16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return bf16_value(v);
        }
        case dt::f16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return f16_value(v);
        }
        case dt::s32: {
            int32_t v;
            std::memcpy(&v, p, 4);
            return v;
        }
        case dt::s16: {
            int16_t v;
            std::memcpy(&v, p, 2);
            return v;
        }
        case dt::u16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return v;
        }
        case dt::s8: {
            int8_t v;
            std::memcpy(&v, p, 1);
            return v;
        }
        case dt::u8: {
            uint8_t v;
            std::memcpy(&v, p, 1);
            return v;
        }
        default: return NAN;
    }
}

inline const char *dt_name(dt t) {
    return relayout_dt2str(static_cast<relayout_data_type_t>(t));
}

// ---- buffers -------------------------------------------------------------

struct buffer_t {
    std::vector<uint8_t> bytes;
    explicit buffer_t(size_t n = 0, uint8_t fill = 0) : bytes(n + 64, fill) {}
    // 64-byte aligned start inside the vector (keeps SIMD kernels honest).
    uint8_t *data() {
        auto a = reinterpret_cast<uintptr_t>(bytes.data());
        return bytes.data() + ((64 - a % 64) % 64);
    }
    size_t size() const { return bytes.size() - 64; }
    void fill(uint8_t v) { std::fill(bytes.begin(), bytes.end(), v); }
};

inline void *elem_ptr(void *base, const layout_t &l, const dims_t &pos) {
    return static_cast<uint8_t *>(base) + offset_of(l, pos) * (dim_t)l.esz;
}

// Runs one reorder src -> dst with an optional attribute.
inline void run_reorder(
        const memory &src, const memory &dst, const primitive_attr &attr = primitive_attr()) {
    reorder::primitive_desc pd(cpu_engine(), src.get_desc(), cpu_engine(), dst.get_desc(), attr);
    reorder(pd).execute(cpu_stream(), src, dst);
}

inline bool contains_ci(const std::string &hay, const std::string &needle) {
    std::string a = hay, b = needle;
    for (auto &c : a)
        c = (char)std::tolower((unsigned char)c);
    for (auto &c : b)
        c = (char)std::tolower((unsigned char)c);
    return a.find(b) != std::string::npos;
}

inline std::string last_error() {
    const char *m = relayout_get_last_error_message();
    return m ? m : "";
}

// Expects `body` to throw relayout::error with `status`; returns what().
template <typename F>
std::string expect_error(relayout_status_t status, F &&body) {
    try {
        body();
    } catch (const relayout::error &e) {
        EXPECT_EQ(e.status, status) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no relayout::error was thrown";
    return "";
}

} // namespace api_test

// Parameterized cases print as their name in gtest failure messages.
#define API_TEST_PRINT_BY_NAME(T)                                                                  \
    inline void PrintTo(const T &v, std::ostream *os) {                                            \
        *os << v.name;                                                                             \
    }

#endif
