// Shared helpers of the OpenCL engine tests: the device (or a skip with the
// reason), f16 conversions written independently of the library, and the
// CPU reference of DESIGN §6 (pixel (x, y) lane k -> logical element).
#ifndef RELAYOUT_TESTS_OCL_OCL_TEST_UTILS_HPP
#define RELAYOUT_TESTS_OCL_OCL_TEST_UTILS_HPP

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "ocl/image_desc.hpp"
#include "ocl/ocl_context.hpp"

namespace rl_ocl_test {

using namespace relayout::impl;
using namespace relayout::impl::ocl;

// One context for the whole test binary; null (with the reason) when the
// machine has no OpenCL device.
inline context_t *shared_context(std::string *why) {
    static std::string reason;
    static std::unique_ptr<context_t> ctx = [] {
        std::unique_ptr<context_t> c;
        if (context_t::create(&c, "") != status_t::success) {
            reason = last_error_message();
            c.reset();
        }
        return c;
    }();
    if (why) *why = reason;
    return ctx.get();
}

#define RL_OCL_GET_CONTEXT(var)                                                                    \
    std::string rl_why_;                                                                           \
    context_t *var = shared_context(&rl_why_);                                                     \
    if (var == nullptr) GTEST_SKIP() << "no OpenCL device: " << rl_why_

inline uint32_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float bits_f32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// IEEE binary16, round to nearest even, NaN stays NaN, overflow -> inf,
// subnormals produced exactly.
inline uint16_t f32_to_f16(float f) {
    const uint32_t u = f32_bits(f);
    const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    const uint32_t exp = (u >> 23) & 0xffu;
    uint32_t man = u & 0x7fffffu;
    if (exp == 0xffu) return sign | (man ? 0x7e00u : 0x7c00u);
    // value = 1.man * 2^(exp-127); half exponent = exp - 127 + 15
    const int e = static_cast<int>(exp) - 127 + 15;
    if (exp == 0) return sign; // f32 subnormals are far below half's range
    if (e >= 31) return sign | 0x7c00u;
    uint32_t full = man | 0x800000u; // 24-bit significand
    int shift;                       // bits to drop from the 24-bit significand
    uint32_t hexp;
    if (e <= 0) {       // half subnormal: value = full * 2^(exp-150)
        shift = 14 - e; // 13 + (1 - e)
        if (shift > 24) return sign;
        hexp = 0;
    } else {
        shift = 13;
        hexp = static_cast<uint32_t>(e);
        full &= 0x7fffffu; // drop the implicit bit; carry handles overflow
    }
    uint32_t q = full >> shift;
    const uint32_t rem = full & ((1u << shift) - 1);
    const uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) ++q;
    // q may carry into the exponent (or from subnormal into normal): adding
    // it to the shifted exponent does the right thing.
    return static_cast<uint16_t>(sign | ((hexp << 10) + q));
}

inline float f16_to_f32(uint16_t h) {
    const uint32_t sign = (h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    const uint32_t man = h & 0x3ffu;
    if (exp == 0x1fu) return bits_f32(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        // subnormal or zero: man * 2^-24
        const float v = std::ldexp(static_cast<float>(man), -24);
        return sign ? -v : v;
    }
    return bits_f32(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

inline int64_t r4(int64_t v) {
    return (v + 3) / 4;
}

// DESIGN §6, pixel (x, y) lane k: fills the logical point p (canonical 4D
// order: NHWC, OIHW, [L,0,0,0]) and returns true when the lane holds an
// element. Written from the table, independently of the generator.
inline bool ref_element(const image_desc_t &d, int64_t x, int64_t y, int k, int64_t p[4]) {
    int64_t dm[4];
    image_desc_canonical_dims(d, dm);
    p[0] = p[1] = p[2] = p[3] = 0;
    switch (d.type) {
        case image_type_t::in_out_channel: {
            const int64_t H = dm[1], W = dm[2], C = dm[3];
            p[0] = y / H, p[1] = y % H, p[2] = x % W, p[3] = 4 * (x / W) + k;
            return p[3] < C;
        }
        case image_type_t::in_out_height: {
            const int64_t H = dm[1], W = dm[2], Hb = r4(H);
            p[0] = y / Hb, p[1] = 4 * (y % Hb) + k, p[2] = x % W, p[3] = x / W;
            return p[1] < H;
        }
        case image_type_t::in_out_width: {
            const int64_t H = dm[1], W = dm[2], Wb = r4(W);
            p[0] = y / H, p[1] = y % H, p[2] = 4 * (x % Wb) + k, p[3] = x / Wb;
            return p[2] < W;
        }
        case image_type_t::conv2d_filter: {
            const int64_t O = dm[0], H = dm[2], W = dm[3], HW = H * W;
            p[0] = 4 * (y / HW) + k, p[1] = x, p[2] = (y % HW) / W, p[3] = (y % HW) % W;
            return p[0] < O;
        }
        case image_type_t::dw_conv2d_filter: {
            const int64_t I = dm[1], W = dm[3];
            p[0] = 0, p[1] = 4 * y + k, p[2] = x / W, p[3] = x % W;
            return p[1] < I;
        }
        case image_type_t::argument: p[0] = 4 * x + k; return p[0] < dm[0];
        case image_type_t::weight_height: {
            const int64_t O = dm[0], I = dm[1], W = dm[3];
            p[0] = 4 * y + k, p[1] = x % I, p[2] = (x / I) / W, p[3] = (x / I) % W;
            return p[0] < O;
        }
        case image_type_t::weight_width: {
            const int64_t I = dm[1], W = dm[3], Ib = r4(I);
            p[0] = y, p[1] = 4 * (x % Ib) + k, p[2] = (x / Ib) / W, p[3] = (x / Ib) % W;
            return p[1] < I;
        }
        default: return false;
    }
}

// Offset of canonical point p in buffer b (rank-2 [N,C] for in_out_channel
// and rank-1 [L] handled).
inline int64_t buffer_offset(const buffer_desc_t &b, const image_desc_t &img, const int64_t p[4]) {
    if (img.type == image_type_t::argument) return b.offset0 + p[0] * b.strides[0];
    if (b.ndims == 2) return b.offset0 + p[0] * b.strides[0] + p[3] * b.strides[1];
    int64_t off = b.offset0;
    for (int i = 0; i < 4; ++i)
        off += p[i] * b.strides[i];
    return off;
}

} // namespace rl_ocl_test

#endif
