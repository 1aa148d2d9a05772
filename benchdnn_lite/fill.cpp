// benchdnn_lite — fills.
#include <cmath>
#include <cstring>

#include "fill.hpp"

namespace bdl {

namespace {
uint32_t hash(int64_t i) {
    uint64_t x = uint64_t(i) + 0x9e3779b97f4a7c15ull; // splitmix64 finaliser
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return uint32_t((x ^ (x >> 31)) >> 16);
}

float f32_value(int64_t i) {
    const uint32_t h = hash(i), r = h >> 8;
    static const float fracs[] = { 0.f, 0.5f, -0.5f, 0.25f, 0.75f, 0.125f, 0.375f, 1.f / 3 };
    switch (h % 16) {
        case 9:
        case 10: return float(int(r % 257) - 128) + 0.5f; // ties in int8 range
        case 11:                                          // saturates s16/u16, overflows f16
            return (r & 1 ? 1.f : -1.f) * float((r >> 1) % 70000);
        case 12: { // mantissa-rich, from f16-subnormal to large magnitudes
            const float m = 1.f + float(r & 0xffff) / 65536.f;
            const int e = int((r >> 16) % 41) - 26;
            return (r & 0x800000 ? -1.f : 1.f) * std::ldexp(m, e);
        }
        case 13: { // around the s32 saturation bound
            static const float big[] = { 3e9f, -3e9f, 2147483520.f, 2147483648.f, -2147483648.f,
                16777217.f, 1e10f, -1e10f };
            return big[r % 8];
        }
        case 14: return r & 1 ? -0.f : 1e-6f;
        case 15: return float(int(r % 4001) - 2000) / 1000.f;
        default: return float(int(r % 601) - 300) + fracs[(h >> 4) % 8];
    }
}
} // namespace

uint32_t src_value(dt_t dt, int64_t i) {
    const uint32_t h = hash(i);
    switch (dt) {
        case relayout_f32: return f32_bits(f32_value(i));
        case relayout_bf16: return f32_to_bf16(f32_value(i));
        case relayout_f16: return f32_to_f16(f32_value(i));
        case relayout_s32: {
            const uint32_t r = h >> 4;
            switch (h % 8) {
                case 4: return uint32_t((r & 1 ? 1 : -1) * int32_t((1 << 24) + r % 1000));
                case 5: {
                    static const int32_t ext[] = { INT32_MAX, INT32_MIN, 2147483520, 2147483584,
                        -2147483520, 2147483647 - 64 };
                    return uint32_t(ext[r % 6]);
                }
                case 6: return uint32_t(int32_t(r % 140001) - 70000);
                case 7: return h * 2654435761u; // anything
                default: return uint32_t(int32_t(r % 601) - 300);
            }
        }
        case relayout_s16:
        case relayout_u16: return h & 0xffffu;
        case relayout_s8:
        case relayout_u8: return h & 0xffu;
        default: return 0;
    }
}

uint32_t dst_old_value(dt_t dt, int64_t i) {
    const int v = int(hash(i + 12345) % 17) - 8;
    switch (dt) {
        case relayout_f32:
        case relayout_bf16:
        case relayout_f16: return f32_to_dt_bits(0.5f * float(v), dt);
        case relayout_u8:
        case relayout_u16: return uint32_t(v + 8);
        default: return f32_to_dt_bits(float(v), dt);
    }
}

void fill_src(const layout_t &l, void *buf, size_t buf_bytes) {
    std::memset(buf, src_garbage_byte, buf_bytes);
    if (l.zero_volume()) return;
    int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 }, i = 0;
    do {
        store_bits(buf, l.dt, l.off(pos), src_value(l.dt, i++));
    } while (next_pos(pos, l.dims.data(), l.ndims));
}

void fill_dst(const layout_t &l, void *buf, size_t buf_bytes, bool valid_values) {
    std::memset(buf, dst_garbage_byte, buf_bytes);
    if (!valid_values || l.zero_volume()) return;
    int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 }, i = 0;
    do {
        store_bits(buf, l.dt, l.off(pos), dst_old_value(l.dt, i++));
    } while (next_pos(pos, l.dims.data(), l.ndims));
}

} // namespace bdl
