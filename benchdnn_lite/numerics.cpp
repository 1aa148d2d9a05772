// benchdnn_lite — element conversions, written from the IEEE formats and
// DESIGN.md §8 (no library code involved).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "common.hpp"

namespace bdl {

const char *dt2name(dt_t dt) {
    switch (dt) {
        case relayout_f32: return "f32";
        case relayout_bf16: return "bf16";
        case relayout_f16: return "f16";
        case relayout_s32: return "s32";
        case relayout_s16: return "s16";
        case relayout_u16: return "u16";
        case relayout_s8: return "s8";
        case relayout_u8: return "u8";
        default: return "undef";
    }
}

bool name2dt(const std::string &name, dt_t &dt) {
    static const dt_t all[] = { relayout_f32, relayout_bf16, relayout_f16, relayout_s32,
        relayout_s16, relayout_u16, relayout_s8, relayout_u8 };
    for (auto d : all)
        if (name == dt2name(d)) {
            dt = d;
            return true;
        }
    return false;
}

size_t dt_size(dt_t dt) {
    switch (dt) {
        case relayout_f32:
        case relayout_s32: return 4;
        case relayout_bf16:
        case relayout_f16:
        case relayout_s16:
        case relayout_u16: return 2;
        case relayout_s8:
        case relayout_u8: return 1;
        default: return 0;
    }
}

bool dt_is_float(dt_t dt) {
    return dt == relayout_f32 || dt == relayout_bf16 || dt == relayout_f16;
}
bool dt_is_int(dt_t dt) {
    return dt_size(dt) != 0 && !dt_is_float(dt);
}

float dt_lower(dt_t dt) {
    switch (dt) {
        case relayout_s32: return -2147483648.f;
        case relayout_s16: return -32768.f;
        case relayout_s8: return -128.f;
        default: return 0.f; // unsigned
    }
}

float dt_upper(dt_t dt) {
    switch (dt) {
        case relayout_s32: return 2147483520.f; // largest float < 2^31
        case relayout_s16: return 32767.f;
        case relayout_u16: return 65535.f;
        case relayout_s8: return 127.f;
        case relayout_u8: return 255.f;
        default: return 0.f;
    }
}

uint32_t f32_bits(float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
}
float bits_f32(uint32_t u) {
    float v;
    std::memcpy(&v, &u, 4);
    return v;
}

uint16_t f32_to_bf16(float v) {
    uint32_t u = f32_bits(v);
    // Quiet the NaN and keep it a NaN even if the payload sits in the low half.
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u); // round to nearest even; overflow -> inf
    return uint16_t(u >> 16);
}

float bf16_to_f32(uint16_t h) {
    return bits_f32(uint32_t(h) << 16);
}

uint16_t f32_to_f16(float v) {
    uint32_t u = f32_bits(v);
    const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    u &= 0x7fffffffu;
    if (u > 0x7f800000u) // NaN: quiet, payload's top bits kept
        return uint16_t(sign | 0x7e00u | ((u >> 13) & 0x3ffu));
    if (u >= 0x38800000u) {             // |v| >= 2^-14: normal in f16 (or overflow)
        uint32_t r = u - 0x38000000u;   // rebias the exponent 127 -> 15
        r += 0xfffu + ((r >> 13) & 1u); // round to nearest even at bit 13
        r >>= 13;
        if (r >= 0x7c00u) r = 0x7c00u; // overflow (and inf) -> inf
        return uint16_t(sign | r);
    }
    // Subnormal in f16: count units of 2^-24. The scaling is exact, and a
    // result of 1024 correctly encodes the smallest normal number.
    const float q = std::nearbyint(bits_f32(u) * 16777216.f);
    return uint16_t(sign | uint16_t(q));
}

float f16_to_f32(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return bits_f32(sign | 0x7f800000u | (m << 13));
    if (e == 0) {
        const float a = std::ldexp(float(m), -24); // exact
        return sign ? -a : a;
    }
    return bits_f32(sign | ((e + 112u) << 23) | (m << 13));
}

int64_t f32_to_int_sat(float v, dt_t dt) {
    const float lo = dt_lower(dt), hi = dt_upper(dt);
    if (std::isnan(v))
        v = lo;
    else if (v < lo)
        v = lo;
    else if (v > hi)
        v = hi;
    return int64_t(std::nearbyint(v)); // default mode: half to even
}

uint32_t f32_to_dt_bits(float v, dt_t dt) {
    switch (dt) {
        case relayout_f32: return f32_bits(v);
        case relayout_bf16: return f32_to_bf16(v);
        case relayout_f16: return f32_to_f16(v);
        case relayout_s32: return uint32_t(int32_t(f32_to_int_sat(v, dt)));
        case relayout_s16: return uint16_t(int16_t(f32_to_int_sat(v, dt)));
        case relayout_u16: return uint16_t(f32_to_int_sat(v, dt));
        case relayout_s8: return uint8_t(int8_t(f32_to_int_sat(v, dt)));
        case relayout_u8: return uint8_t(f32_to_int_sat(v, dt));
        default: return 0;
    }
}

int64_t dt_bits_to_int(uint32_t b, dt_t dt) {
    switch (dt) {
        case relayout_s32: return int32_t(b);
        case relayout_s16: return int16_t(uint16_t(b));
        case relayout_u16: return uint16_t(b);
        case relayout_s8: return int8_t(uint8_t(b));
        case relayout_u8: return uint8_t(b);
        default: return 0;
    }
}

float dt_bits_to_f32(uint32_t b, dt_t dt) {
    switch (dt) {
        case relayout_f32: return bits_f32(b);
        case relayout_bf16: return bf16_to_f32(uint16_t(b));
        case relayout_f16: return f16_to_f32(uint16_t(b));
        case relayout_s32: return float(int32_t(b));  // round to nearest even
        default: return float(dt_bits_to_int(b, dt)); // exact
    }
}

bool dt_bits_is_nan(uint32_t b, dt_t dt) {
    switch (dt) {
        case relayout_f32: return (b & 0x7fffffffu) > 0x7f800000u;
        case relayout_bf16: return (b & 0x7fffu) > 0x7f80u;
        case relayout_f16: return (b & 0x7fffu) > 0x7c00u;
        default: return false;
    }
}

bool dt_bits_is_zero(uint32_t b, dt_t dt) {
    switch (dt) {
        case relayout_f32: return (b & 0x7fffffffu) == 0;
        case relayout_bf16:
        case relayout_f16: return (b & 0x7fffu) == 0;
        default: return b == 0;
    }
}

std::string dt_bits_str(uint32_t b, dt_t dt) {
    char buf[64];
    if (dt_is_float(dt))
        snprintf(buf, sizeof(buf), "%.9g(0x%0*x)", double(dt_bits_to_f32(b, dt)),
                int(2 * dt_size(dt)), b);
    else
        snprintf(buf, sizeof(buf), "%lld", (long long)dt_bits_to_int(b, dt));
    return buf;
}

uint32_t load_bits(const void *base, dt_t dt, int64_t off) {
    const uint8_t *p = static_cast<const uint8_t *>(base) + off * int64_t(dt_size(dt));
    switch (dt_size(dt)) {
        case 4: {
            uint32_t v;
            std::memcpy(&v, p, 4);
            return v;
        }
        case 2: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return v;
        }
        case 1: return *p;
        default: return 0;
    }
}

void store_bits(void *base, dt_t dt, int64_t off, uint32_t bits) {
    uint8_t *p = static_cast<uint8_t *>(base) + off * int64_t(dt_size(dt));
    switch (dt_size(dt)) {
        case 4: std::memcpy(p, &bits, 4); break;
        case 2: {
            const uint16_t v = uint16_t(bits);
            std::memcpy(p, &v, 2);
            break;
        }
        case 1: *p = uint8_t(bits); break;
        default: break;
    }
}

buffer_t::buffer_t(size_t bytes) : size_(bytes) {
    constexpr size_t align = 64;
    capacity_ = (bytes + align - 1) / align * align;
    if (capacity_ == 0) capacity_ = align;
    ptr_ = static_cast<uint8_t *>(std::aligned_alloc(align, capacity_));
    if (!ptr_) throw std::bad_alloc();
}

buffer_t::~buffer_t() {
    std::free(ptr_);
}

std::string dims2str(const dims_t &dims, char sep) {
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) s += sep;
        s += std::to_string(dims[i]);
    }
    return s;
}

} // namespace bdl
