// The reorder planner (DESIGN §3.1): a reorder problem reduced to a small
// loop nest of nodes, as plain data with pure functions over it.
//
// Worked example: f32 nchw 2x17x5x3 -> nChw16c.
//   dims c (17) is blocked by 16 in dst: its iteration extent is 32 and it
//   splits into two levels: C/16 (n=2, mult 16) and the in-block c (n=16,
//   mult 1). Each level gets a src and a dst stride:
//     n:  n=2  is=255 os=480     c/16: n=2  is=240 os=240
//     h:  n=5  is=3   os=48      w:    n=3  is=1   os=16
//     c%16: n=16 is=15 os=1
//   Sorted by dst stride (outermost first), nothing folds:
//     [2 255 480 d0] [2 240 240 d1*16 pad] [5 3 48 d2] [3 1 16 d3]
//     [16 15 1 d1 pad]
//   Positions with c >= 17 lie in the dst padding and are written as 0.
#ifndef RELAYOUT_PLAN_PLAN_HPP
#define RELAYOUT_PLAN_PLAN_HPP

#include <string>
#include <vector>

#include "md/memory_desc.hpp"

namespace relayout {
namespace impl {

struct attr_t;

// One loop of the nest.
struct node_t {
    dim_t n;    // trip count
    dim_t is;   // src stride, elements
    dim_t os;   // dst stride, elements
    int dim;    // logical dim this loop walks, -1 once folded across dims
    dim_t mult; // logical index step of `dim` per iteration
    dim_t ss;   // src scale index stride (per-dim scales), 0 if common
    dim_t ds;   // dst scale index stride
    dim_t cs;   // s8s8 compensation index stride
    dim_t zs;   // zero-point compensation index stride
    // Irregular dims (blockings that do not nest, e.g. 48 vs 64) keep
    // explicit offsets: itab[i], otab[i] replace i*is, i*os (-1: absent).
    int tab; // index into plan_t::tabs, -1 if strided
};

// Explicit offsets of an irregular dim.
struct offset_table_t {
    std::vector<dim_t> src, dst;
};

struct plan_t {
    data_type_t sdt = relayout_data_type_undef, ddt = relayout_data_type_undef;
    dim_t src_off0 = 0, dst_off0 = 0; // offset0 of both sides, elements
    int ndims = 0;
    dims_t dims = {};           // logical dims
    dims_t dst_padded = {};     // dst padded dims: positions in [dims, dst_padded) -> 0
    bool check[max_ndims] = {}; // dims whose iteration extent exceeds dims
    std::vector<node_t> nodes;  // outermost first
    std::vector<offset_table_t> tabs;
    bool zero_volume = false;

    // Attributes folded in.
    bool bit_copy = false; // sdt == ddt and no value changes: copy the bits
    int src_scale_mask = -1, dst_scale_mask = -1;
    int32_t src_zp = 0, dst_zp = 0;
    float beta = 0.f;         // 0: no sum post-op
    float scale_adjust = 1.f; // 1: none
    bool s8s8_comp = false, zp_comp = false;
    size_t comp_offset_bytes = 0; // start of the compensation buffers in dst
    dim_t s8s8_count = 0;         // entries of the s8s8 buffer (zp buffer follows)
    dim_t zp_count = 0;           // entries of the zero-point compensation buffer

    dim_t nelems() const; // product of the trip counts
    // One line: "f32>s8 off:0>0 [2 255 480 d0] [16 15 1 d1 pad] ..."
    std::string dump() const;
};

// Builds the plan of a reorder between two blocked descriptors with the
// given attributes; validates everything a reorder needs.
status_t plan_create(
        plan_t &plan, const memory_desc_t &src, const memory_desc_t &dst, const attr_t &attr);

// Writes the compensation buffers of `dst` (at comp_offset_bytes) from the
// integer sums of the stored values that `nthr` threads gathered, each a
// block of s8s8_count then zp_count int64 entries: s8s8 = -128 * sum,
// zp = -sum (DESIGN §8). Integer sums: the result does not depend on the
// split. Every implementation that writes compensation ends with this.
void plan_store_compensation(const plan_t &p, const int64_t *acc, int nthr, void *dst);
// The same with the threads' blocks `stride` entries apart (>= s8s8_count
// + zp_count).
void plan_store_compensation(
        const plan_t &p, const int64_t *acc, int nthr, size_t stride, void *dst);

// Pure steps, exposed for tests.
void plan_drop_trivial(std::vector<node_t> &nodes);
void plan_sort(std::vector<node_t> &nodes);
void plan_fold(std::vector<node_t> &nodes, const bool *check);

} // namespace impl
} // namespace relayout

#endif
