// benchdnn_lite — a descriptor's layout as plain numbers, read through the
// public queries only, and the physical offset of a logical point.
#ifndef BENCHDNN_LITE_LAYOUT_HPP
#define BENCHDNN_LITE_LAYOUT_HPP

#include "api.hpp"
#include "common.hpp"

namespace bdl {

struct layout_t {
    int ndims = 0;
    dims_t dims, padded_dims, padded_offsets, strides;
    int64_t offset0 = 0;
    int nblks = 0;
    dims_t blks, idxs; // outermost -> innermost
    dt_t dt = relayout_data_type_undef;
    size_t size = 0; // get_size(): data + compensation
    uint64_t flags = 0;
    int comp_mask = 0, asymm_mask = 0;
    float scale_adjust = 1.f;

    // Physical offset (elements) of logical point pos[] (DESIGN §2.1).
    int64_t off(const int64_t *pos) const;
    bool zero_volume() const;

    bool has_s8s8() const;
    bool has_zp_comp() const;
    bool has_scale_adjust() const;
    // Entries of a compensation buffer: product of the masked padded dims.
    int64_t comp_count(int mask) const;
    // Byte offsets of the compensation buffers (-1 when absent) and the end
    // of the data area, derived from get_size().
    size_t comp_bytes() const;
    int64_t s8s8_byte_offset() const;
    int64_t zp_byte_offset() const;
    size_t data_bytes() const { return size - comp_bytes(); }
    // Index of pos[] into a compensation buffer (row-major over the masked
    // dims, with the padded dims as the buffer's shape).
    int64_t comp_index(const int64_t *pos, int mask) const;
};

layout_t make_layout(const api::md_t &md);

} // namespace bdl

#endif
