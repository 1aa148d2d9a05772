#include "ref/numerics.hpp"

namespace relayout {
namespace impl {

float load_f32(data_type_t dt, const void *base, int64_t off) {
    switch (dt) {
        case relayout_f32: return load_f32<relayout_f32>(base, off);
        case relayout_bf16: return load_f32<relayout_bf16>(base, off);
        case relayout_f16: return load_f32<relayout_f16>(base, off);
        case relayout_s32: return load_f32<relayout_s32>(base, off);
        case relayout_s16: return load_f32<relayout_s16>(base, off);
        case relayout_u16: return load_f32<relayout_u16>(base, off);
        case relayout_s8: return load_f32<relayout_s8>(base, off);
        case relayout_u8: return load_f32<relayout_u8>(base, off);
        default: return 0.f;
    }
}

void store_f32(data_type_t dt, void *base, int64_t off, float v) {
    switch (dt) {
        case relayout_f32: store_f32<relayout_f32>(base, off, v); break;
        case relayout_bf16: store_f32<relayout_bf16>(base, off, v); break;
        case relayout_f16: store_f32<relayout_f16>(base, off, v); break;
        case relayout_s32: store_f32<relayout_s32>(base, off, v); break;
        case relayout_s16: store_f32<relayout_s16>(base, off, v); break;
        case relayout_u16: store_f32<relayout_u16>(base, off, v); break;
        case relayout_s8: store_f32<relayout_s8>(base, off, v); break;
        case relayout_u8: store_f32<relayout_u8>(base, off, v); break;
        default: break;
    }
}

} // namespace impl
} // namespace relayout
