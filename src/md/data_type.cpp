#include "md/data_type.hpp"

#include <cstring>

namespace relayout {
namespace impl {

size_t data_type_size(data_type_t dt) {
    switch (dt) {
        case relayout_f32:
        case relayout_s32: return 4;
        case relayout_f16:
        case relayout_bf16:
        case relayout_s16:
        case relayout_u16: return 2;
        case relayout_s8:
        case relayout_u8: return 1;
        default: return 0;
    }
}

const char *dt2str(data_type_t dt) {
    switch (dt) {
        case relayout_f16: return "f16";
        case relayout_bf16: return "bf16";
        case relayout_f32: return "f32";
        case relayout_s32: return "s32";
        case relayout_s8: return "s8";
        case relayout_u8: return "u8";
        case relayout_s16: return "s16";
        case relayout_u16: return "u16";
        case relayout_data_type_undef: return "undef";
    }
    return "invalid";
}

data_type_t str2dt(const char *s) {
    static const data_type_t all[] = { relayout_f16, relayout_bf16, relayout_f32, relayout_s32,
        relayout_s8, relayout_u8, relayout_s16, relayout_u16 };
    for (auto dt : all)
        if (s && std::strcmp(s, dt2str(dt)) == 0) return dt;
    return relayout_data_type_undef;
}

bool is_integral(data_type_t dt) {
    switch (dt) {
        case relayout_s32:
        case relayout_s16:
        case relayout_u16:
        case relayout_s8:
        case relayout_u8: return true;
        default: return false;
    }
}

bool is_valid_data_type(data_type_t dt) {
    return data_type_size(dt) != 0;
}

float f16_to_f32(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
        if (mant == 0) return bits_float(sign);
        // Subnormal: normalise into a float exponent.
        int e = -1;
        do {
            mant <<= 1;
            ++e;
        } while (!(mant & 0x400u));
        mant &= 0x3ffu;
        return bits_float(sign | (uint32_t(127 - 15 - e) << 23) | (mant << 13));
    }
    return bits_float(sign | ((exp + 127 - 15) << 23) | (mant << 13));
}

uint16_t f32_to_f16(float f) {
    const uint32_t u = float_bits(f);
    const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    const uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) return uint16_t(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
    if (abs >= 0x477ff000u) return uint16_t(sign | 0x7c00u); // rounds to inf
    if (abs >= 0x38800000u) {                                // normal half
        uint32_t r = abs - (uint32_t(127 - 15) << 23);
        r += 0xfffu + ((r >> 13) & 1u);
        return uint16_t(sign | (r >> 13));
    }
    if (abs < 0x33000000u) return sign; // below half the smallest subnormal
    // Subnormal half: shift the full mantissa, round half to even.
    const uint32_t e = abs >> 23;
    const uint32_t m = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - e; // 14..24 for the representable range
    uint32_t r = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1);
    const uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u))) ++r;
    return uint16_t(sign | r);
}

} // namespace impl
} // namespace relayout
