/*
 * relayout — NPU engine C API (TPU local memory, simulated).
 *
 * Model (docs/ARCHITECTURE.md, "NPU engine"): an NPU engine has X lanes
 * ("NPUs") of S bytes of local memory each. A local address A = Q * S + R
 * starts a tensor at NPU Q, byte R. Channel c of an (N, C, H, W) tensor
 * lives in NPU (Q + c) mod X at lane-row (Q + c) div X; element
 * (n, c, h, w) is at byte
 *     R + ((Q+c) div X)*Cs*d + n*Ns*d + h*Hs*d + w*Ws*d
 * of that NPU (strides in elements of d bytes).
 *
 * Usage:
 *   1. relayout_npu_engine_create(&eng, "bm1684x") (or the generic
 *      relayout_engine_create(&eng, relayout_npu, index): index 0 bm1684,
 *      1 bm1684x, 2 bm1688, 3 bm1690).
 *   2. relayout_memory_desc_create_npu_local(&md, eng, address, dims, dt,
 *      layout, storage, NULL) describes a tensor in local memory.
 *   3. relayout_memory_create(&mem, md, eng, RELAYOUT_MEMORY_ALLOCATE) (or
 *      RELAYOUT_MEMORY_NONE): the memory object names the tensor at its
 *      address. Local memory is not allocated and not cleared: the address
 *      in the descriptor is where the tensor lives, and several memory
 *      objects may name the same bytes. Its data handle is the host pointer
 *      of that address in the simulator (lane Q, byte R); a host pointer is
 *      refused as a handle, and set_data_handle() cannot move the tensor.
 *   4. A reorder between a cpu memory and the npu memory (either direction),
 *      or between two npu memories of one engine, runs a DMA program on the
 *      engine's simulator. relayout_primitive_desc_query_npu_program() gives
 *      its listing. The cpu side may be any blocked descriptor of the same
 *      dims (2D {rows, cols} for a matrix): what DMA cannot address
 *      (blocked layouts, padding, data-type conversion, scales, zero points,
 *      sum) runs first (S2L) or last (L2S) as a cpu reorder through a host
 *      staging buffer inside the same primitive; the plan string says so.
 *
 * Every function follows relayout.h's conventions: a status is returned,
 * results go through out-pointers, and a failure leaves a message naming
 * the bad argument (relayout_get_last_error_message()).
 */
#ifndef RELAYOUT_RELAYOUT_NPU_H
#define RELAYOUT_RELAYOUT_NPU_H

#include "relayout/relayout.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Layouts of a tensor in local memory. */
typedef enum {
    /** Cs = round_up(H*W, eu_bytes/d), Hs = W, Ns = Cs * channels per NPU;
     *  the start offset is a multiple of eu_bytes. */
    relayout_npu_layout_aligned = 0,
    /** Cs = H*W, Hs = W, Ns = Cs * channels per NPU; start offset % 4 == 0. */
    relayout_npu_layout_compact = 1,
    /** Hs = round_up(W, eu_bytes/d), Cs = H*Hs; start offset % eu_bytes == 0. */
    relayout_npu_layout_line_aligned = 2,
    /** A rows x cols matrix viewed as the aligned tensor
     *  (rows, ceil(cols/Wm), 1, Wm); see
     *  relayout_memory_desc_create_npu_matrix(). */
    relayout_npu_layout_matrix = 3,
    /** User N, C, H, W strides (elements), checked for overlap. */
    relayout_npu_layout_free_strides = 4,
} relayout_npu_layout_t;

/** Storage modes: how dim 0 (batch; input channels of 2IC weights) packs
 *  into one element. Strides of a packed tensor count packed elements. */
typedef enum {
    relayout_npu_storage_1n = 0,  /**< one element per slot */
    relayout_npu_storage_4n = 1,  /**< s8/u8: 4 batches share a 32-bit word */
    relayout_npu_storage_2n = 2,  /**< s16/u16: 2 batches share a 32-bit word */
    relayout_npu_storage_2ic = 3, /**< f32 weights [I,O,H,W]: 2 input
                                       channels per 64-bit element */
} relayout_npu_storage_t;

/** An NPU engine's configuration. */
typedef struct {
    char name[32];            /**< "bm1684x", ..., or "custom" */
    int32_t npu_num;          /**< X: number of lanes */
    int32_t eu_bytes;         /**< alignment unit of the aligned layouts */
    int64_t lmem_bytes;       /**< S: local memory per lane, bytes */
    int32_t banks;            /**< banks per lane (informational) */
    int32_t dma_w_stride_one; /**< 1: DMA commands need W stride 1 */
} relayout_npu_config_t;

/** Everything a local descriptor implies, in one query. */
typedef struct {
    relayout_npu_config_t config; /**< the engine the desc was made for */
    int64_t address;              /**< A */
    int32_t start_npu;            /**< Q = A div S */
    int32_t npus_used;            /**< lanes holding data: min(X, packed C) */
    int64_t start_offset;         /**< R = A mod S, bytes */
    relayout_npu_layout_t layout;
    relayout_npu_storage_t storage;
    relayout_data_type_t data_type;
    int32_t elem_bytes;       /**< bytes of a packed element (4N s8: 4) */
    int64_t dims[4];          /**< logical N, C, H, W (matrix: rows, cols, 1, 1) */
    int64_t packed_dims[4];   /**< the physical shape the strides refer to:
                                   (ceil(N/k), C, H, W); matrix:
                                   (rows, ceil(cols/Wm), 1, Wm) */
    int64_t strides[4];       /**< N, C (between lane-rows), H, W strides in
                                   packed elements */
    int64_t channels_per_npu; /**< ceil((Q + packed C) / X) */
    int64_t bytes_per_npu;    /**< bytes from R reserved in each used lane */
    int64_t matrix_w;         /**< matrix layout: the user W; 0 otherwise */
} relayout_npu_local_info_t;

/* ---- engine ------------------------------------------------------------ */

/** An NPU engine from a configuration string: a preset ("bm1684",
 *  "bm1684x", "bm1688", "bm1690") or "custom:X:S:EU[:BANKS][:w1]", e.g.
 *  "custom:4:1024:128" (S accepts a K suffix: "custom:64:256K:64"). The
 *  engine owns X * S bytes of simulated local memory, zero-initialised. */
RELAYOUT_API relayout_status_t relayout_npu_engine_create(
        relayout_engine_t *engine, const char *config);

/** The configuration of an NPU engine. */
RELAYOUT_API relayout_status_t relayout_npu_engine_get_config(
        const_relayout_engine_t engine, relayout_npu_config_t *config);

/** Host access to the simulated local memory: copies `size` bytes between
 *  a host buffer and NPU `npu` at byte `offset` (bounds-checked). */
RELAYOUT_API relayout_status_t relayout_npu_engine_write_lane(
        relayout_engine_t engine, int npu, int64_t offset, const void *src, size_t size);
RELAYOUT_API relayout_status_t relayout_npu_engine_read_lane(
        const_relayout_engine_t engine, int npu, int64_t offset, void *dst, size_t size);
/** Sets every byte of the engine's local memory to `value`. */
RELAYOUT_API relayout_status_t relayout_npu_engine_fill(relayout_engine_t engine, uint8_t value);

/* ---- local descriptors ------------------------------------------------- */

/** A tensor of dims[0..3] = N, C, H, W at local address `address` of the
 *  NPU engine `engine`. `strides` (N, C, H, W in packed elements, C =
 *  between lane-rows) only with relayout_npu_layout_free_strides, else
 *  NULL. Checked here: layout and storage mode (4N: s8/u8, 2N: s16/u16,
 *  2IC: f32), address inside local memory and aligned as the layout
 *  requires, the tensor fitting in the lane, free strides not overlapping.
 *
 *  The descriptor has ndims 4, format kind relayout_format_kind_npu_local,
 *  and get_size() = bytes_per_npu * npus_used (the local memory it
 *  reserves, padding included). */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_npu_local(
        relayout_memory_desc_t *memory_desc, const_relayout_engine_t engine, int64_t address,
        const relayout_dim_t dims[4], relayout_data_type_t data_type, relayout_npu_layout_t layout,
        relayout_npu_storage_t storage, const relayout_dim_t strides[4]);

/** A rows x cols matrix in the matrix layout with the user W `matrix_w`
 *  (1 <= matrix_w <= cols): the aligned tensor (rows, ceil(cols/Wm), 1, Wm);
 *  the last channel holds cols - Wm*floor(cols/Wm) columns when Wm does not
 *  divide cols. dims are {rows, cols, 1, 1}; element (r, col) is queried as
 *  (r, col, 0, 0). A cpu source or destination may be 2D {rows, cols}. */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_npu_matrix(
        relayout_memory_desc_t *memory_desc, const_relayout_engine_t engine, int64_t address,
        int64_t rows, int64_t cols, int64_t matrix_w, relayout_data_type_t data_type);

/** Everything about a local descriptor (invalid_arguments for a
 *  descriptor of another format kind). */
RELAYOUT_API relayout_status_t relayout_memory_desc_query_npu_local(
        const_relayout_memory_desc_t memory_desc, relayout_npu_local_info_t *info);

/** Where logical element (n, c, h, w) of a local descriptor lives: NPU
 *  `*npu`, byte `*offset` inside that NPU (for 4N/2N the byte of that
 *  batch inside its word). */
RELAYOUT_API relayout_status_t relayout_memory_desc_npu_element_location(
        const_relayout_memory_desc_t memory_desc, int64_t n, int64_t c, int64_t h, int64_t w,
        int *npu, int64_t *offset);

/* ---- reorders ---------------------------------------------------------- */

/** The DMA program of an NPU reorder ("npu:dma"): a listing with one
 *  command per line (host staging steps, if any, as lines of their own)
 *  and the number of DMA commands. The string is owned by the primitive
 *  descriptor. invalid_arguments for a reorder of another implementation. */
RELAYOUT_API relayout_status_t relayout_primitive_desc_query_npu_program(
        const_relayout_primitive_desc_t primitive_desc, const char **listing, int64_t *n_commands);

#ifdef __cplusplus
}
#endif

#endif /* RELAYOUT_RELAYOUT_NPU_H */
