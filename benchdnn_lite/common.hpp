// benchdnn_lite — shared vocabulary: data types, element numerics, buffers.
//
// Everything here is the driver's own implementation of the numerics spec
// (DESIGN.md §8). It never calls into the library's reference code: the
// driver judges the library, so it must not share its bugs.
#ifndef BENCHDNN_LITE_COMMON_HPP
#define BENCHDNN_LITE_COMMON_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "relayout/relayout.h"

namespace bdl {

using dt_t = relayout_data_type_t;
using dims_t = std::vector<int64_t>;

// ---- data types ---------------------------------------------------------
const char *dt2name(dt_t dt);
bool name2dt(const std::string &name, dt_t &dt);
size_t dt_size(dt_t dt);
bool dt_is_int(dt_t dt);
bool dt_is_float(dt_t dt);
// Saturation bounds in float (s32's upper bound is the largest float below
// 2^31, so the later float->int conversion cannot overflow).
float dt_lower(dt_t dt);
float dt_upper(dt_t dt);

// ---- element numerics ---------------------------------------------------
uint32_t f32_bits(float v);
float bits_f32(uint32_t u);
uint16_t f32_to_bf16(float v); // round to nearest even, NaN stays NaN
float bf16_to_f32(uint16_t h);
uint16_t f32_to_f16(float v); // round to nearest even, overflow -> inf
float f16_to_f32(uint16_t h);
// Saturates in float (NaN -> lowest), then rounds half to even.
int64_t f32_to_int_sat(float v, dt_t dt);

// An element is carried around as its raw bits in a uint32_t (low bytes).
uint32_t f32_to_dt_bits(float v, dt_t dt);      // conversion to the dst type
float dt_bits_to_f32(uint32_t bits, dt_t dt);   // exact widening
int64_t dt_bits_to_int(uint32_t bits, dt_t dt); // integer types only
bool dt_bits_is_nan(uint32_t bits, dt_t dt);
bool dt_bits_is_zero(uint32_t bits, dt_t dt);    // +0 or -0 for floats
std::string dt_bits_str(uint32_t bits, dt_t dt); // value (and hex for floats)

uint32_t load_bits(const void *base, dt_t dt, int64_t off);
void store_bits(void *base, dt_t dt, int64_t off, uint32_t bits);

// ---- buffers ------------------------------------------------------------
// A 64-byte aligned byte buffer that never has size 0 (so a zero-volume
// tensor still gets a real, checkable handle).
struct buffer_t {
    explicit buffer_t(size_t bytes = 0);
    ~buffer_t();
    buffer_t(const buffer_t &) = delete;
    buffer_t &operator=(const buffer_t &) = delete;
    uint8_t *data() const { return ptr_; }
    size_t size() const { return size_; } // the requested size
    size_t capacity() const { return capacity_; }

private:
    uint8_t *ptr_ = nullptr;
    size_t size_ = 0;
    size_t capacity_ = 0;
};

// Row-major iteration over a box of dims: returns false after the last point.
inline bool next_pos(int64_t *pos, const int64_t *dims, int ndims) {
    for (int d = ndims - 1; d >= 0; --d) {
        if (++pos[d] < dims[d]) return true;
        pos[d] = 0;
    }
    return false;
}

inline int64_t volume(const dims_t &dims) {
    int64_t v = 1;
    for (auto d : dims)
        v *= d;
    return v;
}

std::string dims2str(const dims_t &dims, char sep = 'x');

} // namespace bdl

#endif
