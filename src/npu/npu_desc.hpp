// Tensor descriptors of the NPU engine (DESIGN.md §7).
//
// npu_local_desc_t: a 4D tensor (N, C, H, W) in local memory. Its address
// A = Q * S + R starts it at NPU Q, offset R. Channel c of every batch lives
// in NPU (Q + c) mod X at lane-row (Q + c) div X; element (n, c, h, w) is at
// byte  R + ((Q+c) div X)*Cs*d + n*Ns*d + h*Hs*d + w*Ws*d  of that NPU.
//
// npu_sys_desc_t: the same tensor in system memory (DDR): NCHW with any
// non-negative strides, at a byte offset from a base pointer.
//
// Storage modes pack dim 0 (batch; input channels for 2IC weights) by a
// factor k into one wider element:
//   4N  (s8/u8,   k = 4): int8x4 words, byte n mod 4;
//   2N  (s16/u16, k = 2): int16x2 words, half n mod 2;
//   2IC (f32,     k = 2): fp32x2 64-bit elements, [I,O,H,W] -> (I/2,O,H,W).
// The packed shape is (ceil(N/k), C, H, W) and every stride (in both
// descriptors) counts packed elements; dummy slots (N not a multiple of k)
// are zero.
//
// Both descriptors are plain data (trivially copyable) so that the library's
// memory descriptor can embed them.
#ifndef RELAYOUT_NPU_NPU_DESC_HPP
#define RELAYOUT_NPU_NPU_DESC_HPP

#include <cstdint>
#include <string>
#include <type_traits>

#include "common/status.hpp"
#include "npu/npu_config.hpp"
#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {
namespace npu {

enum class npu_layout_t : int32_t {
    aligned = 0,      // Cs = round_up(H*W, eu/d), Ns = cpn*Cs, R % eu == 0
    compact = 1,      // Cs = H*W, Ns = cpn*Cs, R % 4 == 0
    line_aligned = 2, // Hs = round_up(W, eu/d), Cs = H*Hs, R % eu == 0
    matrix = 3,       // rows x cols viewed as aligned (rows, ceil(cols/Wm), 1, Wm)
    free_strides = 4, // user strides, checked for overlap
};

enum class npu_storage_t : int32_t {
    mode_1n = 0,  // one element per slot
    mode_4n = 1,  // 4 batches of 8-bit data per 32-bit word
    mode_2n = 2,  // 2 batches of 16-bit data per 32-bit word
    mode_2ic = 3, // 2 input channels of f32 weights per 64-bit element
};

// dims are logical N, C, H, W. A matrix keeps dims = {rows, cols, 1, 1}
// and matrix_w; its element (r, col) is queried as (r, col, 0, 0).
struct npu_local_desc_t {
    int64_t addr; // A, in [0, X*S)
    int64_t dims[4];
    relayout_data_type_t data_type;
    npu_layout_t layout;
    npu_storage_t storage;
    int32_t reserved;   // zero
    int64_t matrix_w;   // matrix layout only: the user W, in [1, cols]
    int64_t strides[4]; // free_strides only: N, C, H, W in packed elements
};

struct npu_sys_desc_t {
    int64_t dims[4]; // logical N, C, H, W
    relayout_data_type_t data_type;
    npu_storage_t storage;
    int64_t strides[4]; // N, C, H, W in packed elements, >= 0
    int64_t offset;     // bytes from the base pointer, >= 0
};

static_assert(std::is_trivially_copyable<npu_local_desc_t>::value
                      && std::is_standard_layout<npu_local_desc_t>::value,
        "npu_local_desc_t is embedded in the memory descriptor");
static_assert(std::is_trivially_copyable<npu_sys_desc_t>::value, "npu_sys_desc_t is plain data");

const char *layout_name(npu_layout_t l);
const char *storage_name(npu_storage_t s);

// ---- construction (no validation: call validate_local/validate_sys) ----
npu_local_desc_t make_local_desc(int64_t addr, const int64_t dims[4], relayout_data_type_t dt,
        npu_layout_t layout, npu_storage_t storage = npu_storage_t::mode_1n);
npu_local_desc_t make_local_matrix(
        int64_t addr, int64_t rows, int64_t cols, int64_t matrix_w, relayout_data_type_t dt);
npu_local_desc_t make_local_free(int64_t addr, const int64_t dims[4], relayout_data_type_t dt,
        const int64_t strides[4], npu_storage_t storage = npu_storage_t::mode_1n);

// Continuous (C*H*W, H*W, W, 1) over the packed shape.
npu_sys_desc_t make_sys_continuous(const int64_t dims[4], relayout_data_type_t dt,
        npu_storage_t storage = npu_storage_t::mode_1n, int64_t offset = 0);
npu_sys_desc_t make_sys_strided(const int64_t dims[4], relayout_data_type_t dt,
        const int64_t strides[4], npu_storage_t storage = npu_storage_t::mode_1n,
        int64_t offset = 0);

// ---- storage modes ----
int pack_factor(npu_storage_t s); // 1, 4, 2, 2
// Checks that `dt` may use storage mode `s` (4N: s8/u8, 2N: s16/u16,
// 2IC: f32). `what` names the descriptor in the message.
status_t check_storage(npu_storage_t s, relayout_data_type_t dt, const char *what);

// ---- local descriptor ----
// Every check of DESIGN.md §7: address inside local memory, dims, data type
// and storage mode, alignment of the start offset for the layout, matrix
// parameters, free strides (no overlap) and the tensor fitting in the lane.
status_t validate_local(const npu_config_t &cfg, const npu_local_desc_t &d);

// The queries below expect a validated descriptor.
int start_npu(const npu_config_t &cfg, const npu_local_desc_t &d);        // Q
int64_t start_offset(const npu_config_t &cfg, const npu_local_desc_t &d); // R
int scalar_bytes(const npu_local_desc_t &d); // bytes of the logical type
int elem_bytes(const npu_local_desc_t &d);   // bytes of a packed element
// The physical 4D shape: (ceil(N/k), C, H, W); for a matrix
// (rows, ceil(cols/Wm), 1, Wm).
void packed_dims(const npu_local_desc_t &d, int64_t out[4]);
// ceil((Q + C') / X) with C' the packed channel count.
int64_t channels_per_npu(const npu_config_t &cfg, const npu_local_desc_t &d);
// N, C, H, W strides in packed elements (C: between lane-rows).
void local_strides(const npu_config_t &cfg, const npu_local_desc_t &d, int64_t out[4]);
// Bytes from R that the tensor reserves in each NPU: N'*Ns*d for the fixed
// layouts (the aligned padding of the last channel included), the extent of
// the last element for free strides.
int64_t bytes_per_npu(const npu_config_t &cfg, const npu_local_desc_t &d);
// Where logical element (n, c, h, w) lives (for a matrix: (row, col, 0, 0)).
status_t element_location(const npu_config_t &cfg, const npu_local_desc_t &d, int64_t n, int64_t c,
        int64_t h, int64_t w, int &npu, int64_t &byte_offset);
// Matrix only: the number of valid W elements of packed channel `c`
// (Wm, or cols - Wm*floor(cols/Wm) for a partial last channel).
int64_t matrix_channel_cols(const npu_local_desc_t &d, int64_t c);
std::string local_desc_str(const npu_config_t &cfg, const npu_local_desc_t &d);

// ---- system descriptor ----
// `for_write`: the descriptor is a destination, so no two elements may share
// bytes (0-stride broadcast is allowed only in a source).
status_t validate_sys(const npu_sys_desc_t &d, bool for_write);
int sys_scalar_bytes(const npu_sys_desc_t &d);
int sys_elem_bytes(const npu_sys_desc_t &d);
void sys_packed_dims(const npu_sys_desc_t &d, int64_t out[4]);
// Byte offset from the base pointer of logical element (n, c, h, w).
int64_t sys_element_offset(const npu_sys_desc_t &d, int64_t n, int64_t c, int64_t h, int64_t w);
// Bytes from the base pointer to the end of the last element (0 when empty).
int64_t sys_required_bytes(const npu_sys_desc_t &d);
bool sys_is_zero_volume(const npu_sys_desc_t &d);
bool local_is_zero_volume(const npu_local_desc_t &d);
std::string sys_desc_str(const npu_sys_desc_t &d);

// Checks that no two elements of the box (n[i], s[i]) share an element
// position: a fast sorted-stride test, then an exact test when that one is
// inconclusive (it reports "overlap" when the exact test would have to scan
// more than 2^27 positions). Strides must be >= 0.
bool boxes_disjoint(int ndims, const int64_t n[], const int64_t s[]);

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
