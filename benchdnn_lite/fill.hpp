// benchdnn_lite — deterministic data for sources and destinations.
#ifndef BENCHDNN_LITE_FILL_HPP
#define BENCHDNN_LITE_FILL_HPP

#include "common.hpp"
#include "layout.hpp"

namespace bdl {

// Byte patterns for the areas a reorder must overwrite (dst) or must not
// read into the result (src padding): neither is a plausible result.
constexpr uint8_t dst_garbage_byte = 0xA5;
constexpr uint8_t src_garbage_byte = 0xFF; // NaN for floats, -1 for ints

// The source value of logical point number i (row-major), as dt bits.
// Covers negatives, .5 ties, values that saturate or overflow in narrower
// types, mantissa-rich values for bf16/f16 rounding, -0 and subnormals.
// Never NaN.
uint32_t src_value(dt_t dt, int64_t i);
// A valid, small destination value for the sum post-op.
uint32_t dst_old_value(dt_t dt, int64_t i);

// Fills the whole buffer with the garbage byte, then every logical point.
void fill_src(const layout_t &l, void *buf, size_t buf_bytes);
// Fills the whole buffer with the garbage byte; with valid_values, also
// writes dst_old_value() at every logical point (for the sum post-op).
void fill_dst(const layout_t &l, void *buf, size_t buf_bytes, bool valid_values);

} // namespace bdl

#endif
