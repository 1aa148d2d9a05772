// The reorder kernel generator: one Xbyak kernel per (kernel plan, ISA,
// data types, attribute structure). The kernel runs the baked loops of a
// kernel plan around its micro tile; the driver (jit_reorder.cpp) calls it
// once per driver iteration.
//
// Strategies, each for AVX-512 (zmm, opmask tails) and AVX2 (ymm, tails
// through a stack buffer with scalar moves: no vmaskmov stores, slow on AMD):
//   copy      — unit stride on both sides: convert and store vectors
//               (bit copies move bytes, 4 vectors per iteration);
//   transpose — register-tile transpose, 16x16 (AVX-512) or 8x8 (AVX2) of
//               32-bit lanes; 8- and 16-bit elements are widened on load
//               and narrowed on store, so every type pair shares the tile;
//               1-byte bit copies run whole 64-lane B tiles as byte tiles
//               on AVX-512 (16x16 bytes per 128-bit lane, vpunpck*),
//               2-byte bit copies whole 32-lane B tiles as word tiles
//               (8x8 words per 128-bit lane) and 16-lane blocks of
//               adjacent dst rows as word pair tiles, and
//               AVX2 moves a partial last A tile back to a full one;
//               the compensation of int8 weights is summed in the kernel
//               (per lane, or per 4-lane group on byte tiles);
//   scalar    — one element at a time, any strides (the gather kernel).
// Every element goes through the value pipeline of ref/numerics.hpp with
// the same f32 operations in the same order (no FMA), so the results are
// bit-identical to the reference.
#ifndef RELAYOUT_JIT_X64_JIT_REORDER_KERNEL_HPP
#define RELAYOUT_JIT_X64_JIT_REORDER_KERNEL_HPP

#include <cstdint>
#include <memory>

#include "jit/x64/cpu_isa.hpp"
#include "jit/x64/jit_generator.hpp"
#include "plan/kernel_plan.hpp"

namespace relayout {
namespace impl {
namespace x64 {

// Arguments of one kernel call.
struct jit_call_args_t {
    const void *src; // base of the call (offsets of the driver applied)
    void *dst;
    const float *src_scales; // at the call's scale index, or nullptr
    const float *dst_scales;
    int64_t v[2]; // positions of the micro nodes holding values
    int64_t z[2]; // positions to write (v..z-1 are zeros); beyond: skip
    int64_t nt;   // non-temporal stores allowed (the dst of the call is aligned)
    // Compensation sums (desc.comp_lanes): the kernel adds the stored
    // values of each lane of B (over A and the baked loops) to comp[lane],
    // int32; the byte tiles add the sums of 4-lane groups to
    // comp[desc.comp_nl + lane / 4] instead. Zeroed by the caller; unused
    // otherwise.
    int32_t *comp;
    // desc.f32_lines: the caller's scratch of 64 bytes per A position of
    // the call (64-byte aligned), which carries the last 64-byte row of
    // each dst row from one call to the next B block's call; bit 0: this
    // call continues the previous one (the scratch holds its rows), bit 1:
    // the next call continues this one (leave the rows' tails there).
    // 0 is always correct (every call writes its partial lines).
    // The AVX-512 line pairs use the first half, two rows' tails packed
    // per 64 bytes.
    void *lines;
    int64_t lines_io;
};

using jit_kernel_fn_t = void (*)(const jit_call_args_t *);

// Everything the generated code bakes in (a POD: hashable, printable).
struct jit_reorder_desc_t {
    static constexpr int max_loops = 3;
    cpu_isa_t isa; // the register family (vector_isa): avx512_core or avx2
    // Value conversions to bf16 on avx512_core_bf16: vcvtne(2)ps2bf16 (see
    // bf16_convert in jit_reorder_kernel.cpp) instead of integer rounding.
    bool bf16_ne;
    kernel_strategy_t strategy;
    data_type_t sdt, ddt;
    bool bit_copy;
    bool src_scale, dst_scale; // scales are read (mask >= 0)
    float src_zp, dst_zp, beta, scale_adjust;
    dim_t n[2], is[2], os[2], ss[2], ds[2]; // micro nodes (A/V, B)
    // Interleave: B's folded inner level (in_n lanes of src stride in_is);
    // ss[1]/ds[1] are then the per-lane scale strides (0 or 1).
    dim_t in_n, in_is;
    bool nt; // the kernel has a non-temporal store path (large dst)
    // Compensation summed by the kernel into jit_call_args_t::comp (see
    // jit_comp_in_kernel); comp_group: 4 neighbouring lanes share one sum.
    bool comp_lanes, comp_group;
    dim_t comp_nl; // per-lane entries of comp (the group sums follow)
    // 1-byte bit copies (transpose, interleave): full tiles as byte tiles,
    // 16 A rows x 16*G lanes, G = 4 (zmm) or 2 (ymm) rows per register.
    bool byte_tile;
    // ... two per A tile, in calls of 128 B lanes that stage 128 src rows
    // (jit_byte_rows128).
    bool byte_pair;
    // Calls of two byte or word tiles per A tile (byte_pair, the 64-lane
    // word calls): the first tile's rows wait on the stack and the second
    // stores each dst row's two lines back to back (jit_line_bursts).
    bool line_bursts;
    // ... whose cached dst lines each full transpose tile prefetches into
    // L2 this many A tiles ahead (0: none). See jit_byte_dst_prefetch.
    int byte_pfw;
    // 2-byte bit copies (transpose, AVX-512): whole 32-lane B tiles as word
    // tiles, 16 A rows x 32 lanes, each dst row one 64-byte line (see
    // jit_word_tiles).
    bool word_tile;
    // ... and 16-lane B tiles whose dst rows are adjacent (nChw16c): word
    // pair tiles, 32 A rows x 16 lanes, two dst rows per 64-byte line.
    bool word_pair;
    // AVX2 1- and 2-byte bit copies (transposes, interleaves; compensation
    // of 4-lane byte groups): tiles of 16 bytes of A x 16 B lanes, two src rows per
    // ymm, transposed within the 128-bit lanes; the element size, 0: none.
    // See jit_ymm_small_tiles.
    int ymm_small;
    // ... whose full groups (4 A tiles x a dst line of B lanes) write
    // their dst rows into a stack stage first, then as whole lines,
    // streamed when desc.nt. See jit_ymm_small_lines.
    bool ymm_small_lines;
    // AVX2 conversions to bf16 (32 lanes) or s8 / u8 (64) of transposes
    // whose src rows are far apart (nchw -> nhwc): full tiles of 8 A
    // positions x this many B lanes (one dst line), converted along A and
    // packed into dwords, two 8x8 dword transposes, each dst row one whole
    // line (0: none), or 16 lanes of dst blocks (jit_ymm_narrow_blocks).
    // See jit_ymm_narrow_rows.
    int ymm_narrow;
    // Tiles in B-outer order (B tiles outer, A tiles inner), and the byte
    // distance of the L2 prefetch of each full tile's src rows (0: none).
    bool b_outer;
    int64_t pf_b;
    // B-outer tiles two B tiles per A tile (each dst row two adjacent
    // lines per visit). See b_outer_pairs in jit_reorder_kernel.cpp.
    bool b_outer_pair;
    // Streamed f32 transposes of one A tile whose B tile's src rows are
    // one contiguous block (nChw16c -> nchw): B tiles per dst row visit,
    // each row then stored as that many adjacent whole lines back to back
    // (0: none). See jit_blk_lines.
    int blk_lines;
    // The same on the AVX2 8x16 tiles (ymm_b16: nChw16c / nChw8c -> nchw):
    // 8x16 tiles per visit of the A tile's 8 dst rows, each row then
    // stored as that many adjacent whole lines (0: none). See
    // jit_ymm_blk_lines.
    int ymm_blk_lines;
    // Far B src rows of large 4-byte bit copies, B = 32 per call (see
    // jit_far_rows_pair): the byte distance of the L2 prefetch of each
    // full tile's src rows along A (0: none; AVX2 none).
    int64_t pf_row;
    // Transposes whose call reads one contiguous src block (blocked src:
    // OIhw16i16o -> oihw) and whose next call reads the block after it:
    // each full tile prefetches the next tile's worth of lines, in order,
    // this many bytes ahead (0: none). See jit_src_prefetch_ahead.
    dim_t pf_ahead;
    // Far-row blocks (jit_far_rows_blocks): each full tile prefetches the
    // 16 lines of one src row at pf_ahead (the next call's block) into L2,
    // and steps the prefetch this many bytes on: the next row (0: the
    // pf_ahead tiles above).
    int64_t pf_rows;
    // Transposes whose B is shorter than a tile, with dst rows far apart
    // (OIhw16i16o -> oihw 3x3: 9 f32 of each of 16 rows 72 KiB apart):
    // the tiles write into a stack buffer of rows this many elements
    // long (the call's dst per A position, dense), copied to the dst at
    // the end of the call as whole lines (0: none). See jit_dst_stage_row.
    dim_t dst_stage_row;
    // Plain src to blocked dst with a short A (3x3 filters to OIhw16i16o:
    // A = 9 hw positions under a baked i loop of src stride 9): the call's
    // src rows, A and the loop flattened (16 x 144), run as full 16 x 16
    // tiles whose dst rows sit at per-row constant offsets (9 full tiles
    // instead of 16 of 9 rows). The number of flattened positions (0:
    // none). See jit_flat_a_tiles.
    dim_t flat_a;
    // Plain src to a dst of B-contiguous rows with an A of 9 (3x3 filters
    // to OIhw16o16i, ohwi: A = 9 hw positions, B = i of src stride 9): a
    // full tile's 16 B rows are one contiguous src run of 144 elements,
    // loaded as 9 whole vectors and dealt into its 9 dst rows by two
    // stride-3 permute stages (36 permutes; the 16 x 16 transpose of 16
    // line-crossing row loads took 57 shuffles). The tile's A (9; 0:
    // none). See jit_run_deal.
    int run_deal;
    // Plain 4-byte src to blocks of 8 o innermost whose dst lines are two
    // i of one hw (oihw -> OIhw8i8o: A = hw of src stride 1, B = 8 i of src
    // stride A over 8 o lanes): each o row of an (O, I) block is one run of
    // 8 A elements, read as A chunks of 8 (rows o and o + 4 in one zmm),
    // 4 x 4 transposed within the 128-bit lanes and paired into whole dst
    // lines by one 128-bit lane shuffle each (3 shuffles per line; the
    // row tiles' 16 x 16 transposes of 16 line-crossing row loads took
    // about 6). The block's A (0: none). See jit_o8_chunks.
    int o8_chunks;
    // Chunk lines streamed: each block's lines go to a stack stage and
    // out in address order (they come out t-major, a line in 4). See
    // jit_o8_in_order.
    bool o8_in_order;
    // Plain 4-byte src to blocks of 8 i innermost under 8 o (oihw ->
    // OIhw8o8i: A = hw of src stride 1, B = 8 o over 8 i lanes of src
    // stride A): each o row of an (O, I) block is one run of 8 A, read in
    // windows of 8 columns of its 8 i groups (a ymm load under a 256-bit
    // insert per pair of groups), 4 x 4 transposed within the 128-bit
    // lanes and paired into dst lines (hw, two o) by one 128-bit lane
    // shuffle each. The block's A (0: none). See jit_o8i_rows.
    int o8i_rows;
    // ... streamed: each window's lines (2 KiB) go to a stack stage and
    // out in address order. See jit_o8i_staged.
    bool o8i_staged;
    // Run tiles two at a time, each dst row's two lines stored back to
    // back (B tiles, or the innermost baked loop's positions, whose dst
    // steps a line: folded into the tile loop). See jit_run_pairs.
    bool run_pairs;
    // 16-bit bit copies to blocks of 16 o whose dst lines are two i of one
    // hw position (bf16 / f16 oihw -> OIhw16i16o, OIhw8i16o2i 2x2, 3x3):
    // each src row's words of i = 2j and 2j + 1 at one hw are paired into
    // a dword, and one 16 x 16 dword transpose of 16 such rows gives 16
    // whole dst lines. The number of the call's dst lines (hw x i pairs;
    // 0: none). See jit_flat_pairs.
    dim_t flat_pairs;
    // Flattened tiles of large problems: the byte distance of the L2
    // prefetch of each src line (the next call but one), 0: none. See
    // jit_flat_a_prefetch.
    dim_t flat_pf;
    // Blocked src to plain dst with a short B (OIhw16i16o -> oihw 3x3:
    // B = 9 hw positions under a baked i loop of dst stride 9): each of
    // the call's 16 dst rows is one dense run (16 i x 9 hw = 144), written
    // as whole 16 x 16 tiles of flattened B positions, each src row of a
    // tile one line at a per-row constant offset (9 full tiles instead of
    // 16 of 9 lanes, and no dst stage). The number of flattened positions
    // (0: none). See jit_flat_b_tiles.
    dim_t flat_b;
    // AVX2 8-row short-B tiles whose dst rows continue over two baked
    // loops (OIhw8i8o -> oihw 3x3: 9 hw x 8 i x the I blocks): the
    // flattened positions per step of the outer one (whole lines of every
    // dst row; 0: none). See jit_ymm_flat_steps.
    dim_t ymm_flat_step;
    // The flattened tiles (flat_a, flat_b; AVX-512) load their
    // 16 x 16 tiles as 128-bit quads: each src row's four quads go to
    // lane b / 4 of four registers (masked broadcasts), so the transpose
    // is its in-lane 4 x 4 half (32 shuffles instead of 64). See
    // jit_quad_loads.
    bool quad_ld;
    // AVX-512 tiles of an A shorter than a tile (k5: TA < 16 lanes of each
    // src row; 3x3 weights of 2- and 1-byte types, 8i8o): full tiles load
    // a src row unmasked wherever the whole vector's bytes lie within the
    // tile's own src, up to the end of its farthest row (see
    // jit_a_rows_unmasked).
    bool a_rows_unmasked;
    // AVX-512 4-byte tiles of 16 A rows whose dst rows are adjacent
    // (os[0] = n[1] < 16: OIhw16o16i -> oihw 3x3, 16 i x 9 hw per o): a
    // full tile's dst is one dense run of n[1] whole lines, its rows packed
    // through a stack buffer and stored as lines (streamed when large)
    // instead of 16 masked rows. See jit_packed_rows.
    bool packed_rows;
    // The same on AVX2 (ymm tiles, A of 16): each of the two A tiles' full
    // tile and last B tile moved back go to the stack as rows of n[1], the
    // run to the dst as whole lines, streamed. See jit_ymm_packed_rows.
    bool ymm_packed;
    // Streamed kernels whose calls end without an sfence: the driver
    // fences once per thread, after its last call (see jit_fence_in_driver).
    bool fence_in_driver;
    // Copies whose run is a few vectors (n[0]: nhwc -> nChw16c, 16 f32 per
    // position of a baked loop): whole calls straight-line, without the
    // run-time bounds and tail of the general copy. See jit_short_copy.
    bool short_copy;
    // ... whose innermost baked loop continues the run in the dst (os =
    // n[0]): this many of its positions per body, assembled into whole
    // 64-byte lines (1: none). See jit_short_unroll.
    int short_unroll;
    // Conversions to 2- and 1-byte dsts (f32 -> bf16 / f16 / s8 / u8
    // transposes, AVX-512): full tiles of this many B lanes (32 or 64, one
    // whole 64-byte dst line per A position) converted along A as they are
    // loaded, packed into dwords and transposed once, each dst row stored
    // as one line (0: none). See jit_narrow_rows. narrow_pf: the byte
    // distance of the L2 prefetch of each src row along A (0: none).
    int narrow_rows;
    int64_t narrow_pf;
    // ... whole calls of one row tile whose src rows are a page or more
    // apart: blocks of this many A tiles (0: none), read in narrow_parts
    // passes of 64 / parts rows (bytes) or 32 / parts (words), each pass
    // over the whole block. See jit_narrow_half, jit_narrow_parts.
    int narrow_half;
    int narrow_parts;
    // Conversions to bf16 / f16 of blocks whose 16-lane dst rows are
    // adjacent (nchw -> nChw16c): whole calls as 32 A positions x 16
    // lanes, positions a and a + 16 converted into one dword, one
    // transpose, whole lines of two positions (narrow_pf: the L2 prefetch
    // along A). See jit_pair_a.
    bool pair_a;
    // The same for s8 / u8 (16-byte dst rows, a quarter line): whole calls
    // as 64 A positions x 16 lanes, positions a, a + 16, a + 32, a + 48
    // of each src row packed into one register, one dword transpose, whole
    // lines of four positions (narrow_pf: the L2 prefetch along A). See
    // jit_quad_a.
    bool quad_a;
    // The bit copy of the A quads (s8 / u8 nchw -> nChw16c): whole calls
    // as 64 A positions x 16 lanes, the whole src line of each lane, one
    // in-lane byte transpose and a lane transpose, whole dst lines. See
    // jit_quad_bytes.
    bool quad_bytes;
    // AVX2 transposes of a large 4-byte dst whose rows are whole lines
    // apart: full tiles of 8 A rows x 16 B lanes (two 8x8 transposes), so
    // that each dst row is one whole 64-byte line, streamed. See
    // jit_ymm_b16_tiles.
    bool ymm_b16;
    // ... whose B src rows are near (nhwc -> nchw): calls without edges
    // run those tiles B-outer, each prefetching the same lines of the next
    // B tile's rows this many bytes ahead into L2 (0: none). See
    // jit_ymm_b16_near_rows.
    int64_t ymm_b16_pf;
    // ... and, streamed bit copies whose B src rows are 512 B to 1 KiB
    // apart, two B tiles per A tile (each dst row two adjacent whole lines
    // per visit; the AVX-512 b_outer_pair). See jit_ymm_b16_near_pairs.
    bool ymm_b16_pair;
    // Large AVX-512 4-byte bit-copy transposes whose dst rows are not
    // whole lines apart (ab -> ba 8191 x 8192): full pairs of 16x16 tiles
    // side by side (32 B lanes), whose dst lines are assembled from
    // consecutive 64-byte rows and streamed, the row before carried in the
    // caller's scratch from call to call (jit_call_args_t::lines). See
    // jit_f32_line_pairs.
    bool f32_lines;
    // Interleaves to bytes with a short A (3x3 filters, oihw ->
    // OIhw4i16o4i: A = 9 hw, 4 folded i lanes of src stride 9, the baked
    // loop over i quads): each of the call's 16 B src rows is one
    // contiguous run (16 i x 9 hw = 144 elements), converted along its
    // length with whole vectors into a stack stage of bytes,
    // from which byte tiles assemble whole 64-byte dst rows. The number
    // of flattened positions of a row (0: none). See jit_flat_bytes.
    dim_t flat_bytes;
    // Transposes of a few B lanes whose dst is dense over A and B (nchw ->
    // nhwc of 2 to 7 channels: images' first layers; hwio ->
    // OIhw4i16o4i): full tiles of 16 A positions, the B src rows
    // (converted) interleaved into B whole dst vectors by permutes (B
    // lanes, 0: none). See jit_few_b_tiles.
    int few_b;
    // ... to bytes whose compensation index follows A (hwio ->
    // OIhw4i16o4i: one sum per o, over the 4 i lanes of each dword): each
    // tile adds its dst line's dword sums to jit_call_args_t::comp at A
    // position a0 (index stride 1 along A) plus the baked loops'
    // loop_cs, which the driver adds to the sums once per run of calls
    // of the same driver index. See jit_few_b_comp.
    bool comp_a;
    // Depthwise int8 weights (goihw -> Goihw16g / 8g / 4g: blocks of W =
    // n[1] groups, each group's A = dw spatial positions a src run, a dst
    // row of W lanes per position): 64 groups per step, 16 in each 128-bit
    // lane, as 16 x 16 byte transposes; with compensation (comp_direct) each
    // block's 16 sums are stored by the kernel as the final values,
    // straight into the dst's buffers (0: none). See jit_dw_tiles.
    int dw;
    bool comp_direct;
    bool dw_s8s8;       // ... the s8s8 sums stored (at comp)
    int64_t dw_zp_disp; // ... the zero-point sums' byte offset from comp (-1: none)
    // Compensation summed per lane (comp_lanes) into comp_span_pitch
    // entries per position of the baked loops, whose loop_cs then step the
    // sums' pointer (jit_comp_span).
    bool comp_span;
    // ... of 1-byte bit copies whose innermost baked loop continues A (the
    // O blocks): whole calls run four A tiles per step (64 src bytes of
    // each row, byte and word unpacks and a 128-bit lane transpose). See
    // jit_few_b_quads.
    bool few_b_quads;
    // ... running each quad step for this many steps of the next-outer
    // baked loop (the i quads), which steps as many at a time: an O
    // block's lines written back to back, its sums added once (0: one
    // step). See jit_few_b_quad_steps.
    int few_b_quad_steps;
    // Interleaves of 1-byte bit copies whose 4-lane groups are whole src
    // dwords of 16 far B rows (ohwi -> OIhw4i16o4i: 4 i of one o, the o
    // rows a filter apart) and whose innermost baked loop steps a dword
    // along the rows and a line in the dst (the i quads): whole calls as
    // 16 x 16 dword tiles, 64 bytes of each o row per tile, each tile row
    // one dst line; the steps of the loop continuing the rows' run per
    // tile (the I blocks: 16 / the i quads' count; 1: none, the tile 16
    // steps of the innermost loop; 0: no such tiles). See jit_lane_tiles.
    int lane_tiles;
    // Streamed 4-byte bit-copy transposes whose B is padded in the dst
    // (nchw -> nChw16c of 3 channels): whole tiles of A and of stored B
    // lanes with padded lanes run as full tiles (rows past the values
    // zero), streamed, instead of the edge tile. See jit_pad_b_tiles.
    bool pad_b;
    int nloops;
    dim_t loop_n[max_loops], loop_is[max_loops], loop_os[max_loops], loop_ss[max_loops],
            loop_ds[max_loops];
    // desc.comp_a: the compensation index strides of the loops; comp_span:
    // the strides of their entries in jit_call_args_t::comp
    dim_t loop_cs[max_loops];
};

// Fills a desc from a plan and its kernel plan.
void jit_reorder_desc_init(
        jit_reorder_desc_t &d, cpu_isa_t isa, const plan_t &p, const kernel_plan_t &kp);

// desc.pf_ahead of a transpose (0: none): large problems whose calls each
// read one dense src block of at most 64 KiB, T x T tiles of it, the next
// call the next block (blocked src: OIhw16i16o -> oihw).
dim_t jit_src_prefetch_ahead(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);
// ... and the far-row blocks' (jit_far_rows_blocks), whose desc.pf_rows
// (the src row step, 0: none) this is: pf_ahead is then the next B
// block's distance.
int64_t jit_far_block_rows(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);

// desc.pf_ahead of flattened short-B tiles (desc.flat_b): the same
// prefetch of the next dense src block for calls whose B is more than a
// tile (5x5, 3x3x3: B = 25, 27), whose flattened tiles are all whole.
dim_t jit_flat_b_prefetch_ahead(
        const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);

// desc.dst_stage_row of a transpose (0: none): AVX-512, B shorter than a
// tile, no padding, sum or compensation, and a dense dst per A position
// (B and the baked loops) of which the call's rows fit the stage.
dim_t jit_dst_stage_row(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);

// Whether the kernel of `kp` sums the compensation itself: a transpose or
// an interleave whose compensation index depends on the lanes of B only
// (A and the baked loops reduce). The driver then only distributes the
// per-lane sums of each call (jit_comp_lanes int32 entries, then a
// quarter as many 4-lane group sums).
bool jit_comp_in_kernel(const plan_t &p, const kernel_plan_t &kp);

// The L2 prefetch distance (bytes, 0: none) of transposes on byte tiles
// whose B src rows are near (a line to under 1 KiB apart), which then do
// not stage them: each full tile prefetches its share of the next call's
// src block, this far ahead.
int64_t jit_byte_tile_pf(const jit_reorder_desc_t &d);

// Byte-tile interleaves whose full tiles load each B row's 4-lane group
// as one 64-byte line (lanes 16 A positions apart, A unit-stride).
bool jit_byte_lines(const jit_reorder_desc_t &d);

// Lines per src row (2 or 4; 0: one, the 64-byte groups) of the stage of
// byte and word tiles whose src rows are far apart (AVX-512 transposes of
// one B tile per call, staged by the generator) and dst rows a page or
// more apart, or of byte tiles whose dst rows are under 1 KiB apart in
// calls of a whole group; the tiles of a group prefetch the group two on.
int jit_wide_stage(const jit_reorder_desc_t &d);

// desc.byte_pfw (0: none): transposes on byte tiles too large for the
// caches whose dst stays cached (below the streaming size): the A tiles
// ahead at which each full tile prefetches its dst lines into L2.
int jit_byte_dst_prefetch(const jit_reorder_desc_t &d, const plan_t &p);

// desc.flat_a of a transpose (0: none): AVX-512 f32 bit copies whose A is
// shorter than a tile, unit-stride in the src and continued by the one
// baked loop (src stride n[0]), with B a whole tile, and a multiple of 16
// flattened positions.
dim_t jit_flat_a_tiles(const jit_reorder_desc_t &d);

// desc.flat_b of a transpose (0: none): f32 bit copies whose B is
// not a whole number of tiles (on AVX-512 when streamed also whole tiles:
// 4x4) and dst-contiguous, continued in the dst by the
// innermost baked loop (dst stride n[1]), with A a whole tile of src
// lines, a dense src per call body and a multiple of 16 flattened
// positions: up to 32 tiles unrolled, more in a loop (7x7, 5x5x5; AVX2
// too).
dim_t jit_flat_b_tiles(const jit_reorder_desc_t &d);
// desc.ymm_flat_step: AVX2 f32 bit-copy transposes of 8 A rows (one ymm
// tile) whose B (short: 3x3 hw) continues in the dst over the two
// innermost baked loops (i, then the I blocks): each dst row of a call
// is one run, taken as 8x16 tile pairs (whole lines, streamed when
// large), the positions of `step` iterations of the outer loop unrolled
// with their src rows at constant offsets (0: none).
dim_t jit_ymm_flat_steps(const jit_reorder_desc_t &d);
// desc.ymm_packed: AVX2 streamed f32 bit-copy transposes of 16 A rows
// whose dst rows are adjacent runs of B (os[0] = n[1], 8 < n[1] < 16:
// OIhw16o16i -> oihw 3x3). `nt`: the streamed stores' size rule.
bool jit_ymm_packed_rows(const jit_reorder_desc_t &d, bool nt);

// desc.quad_ld: the AVX-512 flattened short-A and short-B tiles of
// transposes and the flattened interleave lanes (jit_flat_b_lanes).
bool jit_quad_loads(const jit_reorder_desc_t &d);

// desc.a_rows_unmasked: AVX-512 transposes and interleaves whose A is
// shorter than a tile and not half of it (half: ymm loads).
bool jit_a_rows_unmasked(const jit_reorder_desc_t &d);

// desc.packed_rows (see there).
bool jit_packed_rows(const jit_reorder_desc_t &d);

// kernel_plan_params_t::copy_run_loop. Knob RELAYOUT_JIT_COPY_RUN_LOOP=0: off.
bool jit_copy_run_loop();
// ... and a block of it when too long (kernel_plan_params_t::a_run_split;
// knob RELAYOUT_JIT_A_RUN_SPLIT=0: off).
bool jit_a_run_split();

// kernel_plan_params_t::copy_blocks_inner: AVX-512 copies converting f32
// to a narrower type, as the f32 bit copies.
bool jit_cvt_blocks_inner(cpu_isa_t isa, const plan_t &p);
// ... and the A blocks of their tiles (kernel_plan_params_t::a_blocks_inner).
bool jit_cvt_a_blocks_inner(cpu_isa_t isa, const plan_t &p);
// kernel_plan_params_t::copy_src_rows (elements per call, 0: off). Knob
// RELAYOUT_JIT_SRC_ROWS: elements, 0 = off.
dim_t jit_copy_src_rows(cpu_isa_t isa, const plan_t &p);

// kernel_plan_params_t::min_tile_call. Knob RELAYOUT_JIT_MIN_TILE_CALL:
// elements, 0 = off.
dim_t jit_min_tile_call();

// kernel_plan_params_t::min_tile_call of the run tiles' plans (0: the
// usual one): AVX-512 f32 bit copies whose innermost node is dst-unit of
// src stride 9 over a node of 9 unit-stride src positions (oihw ->
// OIhw16o16i 3x3: calls of 16 o x 16 i x 9 hw, 9 KiB each, take a block
// of I blocks). Knob RELAYOUT_JIT_RUN_CALL: elements, 0 = off.
dim_t jit_run_deal_min_call(cpu_isa_t isa, const plan_t &p);

// kernel_plan_params_t::min_tile_call and tile_call_max of AVX-512 f32
// bit copies from plain oihw / goihw to OIhw16i16o (the flattened
// short-A tiles, jit_flat_a_tiles): calls of up to
// RELAYOUT_JIT_O16_BLOCKS (O, I) blocks, elements (0: none).
dim_t jit_o16_block_call(cpu_isa_t isa, const plan_t &p);

// ... and of oihw / goihw -> OIhw8o8i (the row windows, jit_o8i_rows):
// calls of up to RELAYOUT_JIT_O8I_BLOCKS (O, I) blocks, elements (0:
// none).
dim_t jit_o8i_block_call(cpu_isa_t isa, const plan_t &p);

// kernel_plan_params_t::min_tile_call and tile_call_max of depthwise
// int8 weights (goihw -> Goihw16g / 8g / 4g, goiw -> Goiw16g, ...: B =
// a block of up to 16 groups, dst-unit, of src stride A; A = a group's
// A spatial positions, src-unit, dst stride B; the group blocks dense on
// both sides): calls of many group blocks, each a tile of A x B, instead
// of one (elements; 0: none). Knob RELAYOUT_JIT_DW_CALL: elements, 0 off.
dim_t jit_dw_block_call(cpu_isa_t isa, const plan_t &p);

// Per-lane compensation sums whose index also steps with the baked loops
// (desc.comp_span: depthwise weights, one sum per group, the group blocks
// baked): the kernel keeps comp_span_pitch int32 entries per position of
// its baked loops, the driver adds each position's lanes to the sums of
// its index (jit_comp_in_kernel's sums are one set of lanes per call).
// Knob RELAYOUT_JIT_DW_COMP=0: off (the driver sums the dst back).
bool jit_comp_span(const plan_t &p, const kernel_plan_t &kp);
constexpr int64_t comp_span_pitch = 16;
// Its int32 entries per call.
int64_t jit_comp_span_entries(const kernel_plan_t &kp);

// desc.dw (0: none): AVX-512 1-byte bit copies of depthwise weights (A of
// at most 128 src-unit positions, dst stride W; B = W groups of src
// stride A, W = 16, or 8 / 4 with A >= 16 / W; one baked loop of whole
// blocks dense on both sides, steps of 64 / W blocks and a tail), no
// padding; compensation only where every index is written by one call
// (desc.comp_direct: A and B whole in the call, every driver node steps
// the index). Knobs RELAYOUT_JIT_DW_TILES=0: off; RELAYOUT_JIT_DW_NARROW=0:
// W = 16 only; RELAYOUT_JIT_DW_TAIL=0: block counts a multiple of 64 / W.
// (`isa`: the primitive's, d.isa not yet lowered to the AVX2 tiles.)
int jit_dw_tiles(
        cpu_isa_t isa, const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);

// AVX2 8x16 tiles whose last A tile is shifted back: only its new rows
// stored.
bool jit_ymm_shift_new_rows(const jit_reorder_desc_t &d);

// AVX2 transposes whose last B tile (fewer than 8 lanes) is shifted back
// and runs as a full tile.
bool jit_ymm_shift_b(const jit_reorder_desc_t &d);

// desc.fence_in_driver: every streamed kernel (desc.nt) ends its calls
// without an sfence; the driver fences each thread once after its last
// call. Knob RELAYOUT_JIT_CALL_FENCE=1: an sfence per call again.
bool jit_fence_in_driver(const jit_reorder_desc_t &d);

// desc.short_copy: the copy strategy under baked loops with a run of at
// most four vectors (bit copies: any byte count; conversions: whole
// vectors).
bool jit_short_copy(const jit_reorder_desc_t &d);

// desc.short_unroll: bit copies of runs of 16 or 32 bytes whose
// innermost baked loop is dst-contiguous: 64 / run positions per body.
int jit_short_unroll(const jit_reorder_desc_t &d);

// desc.flat_b of an interleave (0: none): AVX-512 f32 bit copies whose
// lanes (B under its folded level, 2x2 weights to plain: 16 i x 4 hw) are
// dst-contiguous, A a whole tile of src lines, a dense src per call and a
// multiple of 16 lanes, streamed: the lanes flattened as whole tiles
// (AVX2: the same shapes, flat_b_lanes_shape, see jit_ymm_flat_b_lanes).
dim_t jit_flat_b_lanes(const jit_reorder_desc_t &d);

// desc.flat_pf (0: none): flattened tiles (or flattened rows to bytes) of
// a large problem (streamed dst) whose next call reads the next flat_a
// (flat_bytes) elements of the same rows.
dim_t jit_flat_a_prefetch(const jit_reorder_desc_t &d, const kernel_plan_t &kp);
// desc.pair_a of a transpose: AVX-512 value conversions to bf16 / f16,
// B of 16 lanes whose dst rows are adjacent, A a multiple of 32, scales
// constant along A, no sum or compensation, no other tile variant.
bool jit_pair_a(const jit_reorder_desc_t &d);

// desc.quad_a of a transpose: the A pairs' conversions to s8 / u8, whole
// calls of A a multiple of 64.
bool jit_quad_a(const jit_reorder_desc_t &d);

// desc.quad_bytes: the same shapes for 1-byte bit copies.
bool jit_quad_bytes(const jit_reorder_desc_t &d);

// Streamed AVX-512 value copies to s8 / u8 narrow each line's four
// vectors by saturating packs (generator only: no desc field).
bool jit_copy_packs(const jit_reorder_desc_t &d);

// desc.narrow_rows of a transpose (0: none): AVX-512 value conversions to
// bf16 / f16 (32 lanes) or s8 / u8 (64 lanes) whose scales do not change
// along A, without the sum or compensation, with B of at least a line.
int jit_narrow_rows(const jit_reorder_desc_t &d);
// desc.narrow_half (0: none): A tiles per block of the narrow rows of
// far src rows read in parts (s8 / u8: halves; bf16 / f16: see
// jit_narrow_parts).
int jit_narrow_half(const jit_reorder_desc_t &d);
// ... and of near src rows (nhwc -> nchw) to bf16 / f16: two row tiles
// per call, each dst row's two lines back to back (0: none).
int jit_near_pairs(const jit_reorder_desc_t &d);
// desc.narrow_parts: the passes over a block of those narrow rows (2 or 4).
int jit_narrow_parts(const jit_reorder_desc_t &d);
// Line pairs: far-row conversions of two row tiles per call, read in
// parts (Intel; knob RELAYOUT_JIT_NARROW_PAIRS).
bool jit_narrow_pairs_on();
// The stack bytes of those narrow rows' parked registers (a block).
int narrow_stage_bytes(const jit_reorder_desc_t &d);
// Streamed narrow rows to bf16 of near src rows (nhwc -> nchw) round in
// integers, not with AVX512_BF16 (desc.bf16_ne false: avx512_core runs them).
bool jit_bf16_int_near_rows(const jit_reorder_desc_t &d);

// The B lanes (dst-contiguous) a transpose of `p` wants per call for
// jit_narrow_rows on `isa` (0: the usual split): a whole dst line.
dim_t jit_narrow_rows_lanes(cpu_isa_t isa, const plan_t &p);
// The micro plane (elements) of those calls when they stream from a
// 4-byte src whose rows are a page or more apart (0: the usual plane).
dim_t jit_narrow_far_rows_plane(cpu_isa_t isa, const plan_t &p);

// Whether 2-byte bit copies (bf16, f16, s16, u16) on `isa` run their
// transposes on word tiles (AVX-512).
bool jit_word_tiles(cpu_isa_t isa, const plan_t &p);
// Word tiles of far src and dst rows take calls of 64 B lanes (two tiles).
bool jit_word_rows64(const plan_t &p);
// Word tiles of near src rows whose dst rows are more than a page and a
// multiple of 512 B apart keep the usual split (not one tile per call).
bool jit_word_aliased_dst(const plan_t &p);
// Byte tiles of far src and dst rows take calls of 128 B lanes (two tiles),
// and so do the whole-plane calls below whose dst rows are whole line pairs
// (jit_byte_plane_pairs; knob RELAYOUT_JIT_BYTE_PLANE128=0: off).
bool jit_byte_rows128(cpu_isa_t isa, const plan_t &p);
bool jit_byte_plane_pairs(cpu_isa_t isa, const plan_t &p);
// Those calls of two byte or word tiles per A tile store each dst row's
// two lines back to back (desc.line_bursts; knob RELAYOUT_JIT_LINE_BURSTS).
bool jit_line_bursts(const jit_reorder_desc_t &d);
// Large byte tiles of src rows 1 KiB or more apart and dst rows under
// 1 KiB apart take calls of a whole 64 x 64 plane (Intel; knob
// RELAYOUT_JIT_BYTE_PLANE 0 / 1: off / on on any CPU).
bool jit_byte_plane_calls(cpu_isa_t isa, const plan_t &p);
bool jit_byte_plane_on();
// Interleaves of 1-byte bit copies (and AVX-512 conversions to bytes) split
// a loop too long to bake whole (kernel_plan_params_t::split_interleaves).
bool jit_split_interleaves(cpu_isa_t isa, const plan_t &p);

// The kernel plan of word tiles: one 32-lane B tile per call when the B
// src rows are a page or more apart (staged), or 128 B or more in a large
// problem.
void jit_word_tile_params(cpu_isa_t isa, const plan_t &p, kernel_plan_params_t &prm);
// Large word-tile transposes whose dst rows are not whole lines apart
// store cached (each 64-byte row two partial lines): the A tiles this
// far ahead whose dst lines each word tile prefetches for writing
// (prefetchw; 0: none).
int jit_word_dst_prefetch(const jit_reorder_desc_t &d);
// Whether the byte, word or word pair tiles or the byte quads of a desc
// (its tile flags set) stream their whole-line dst rows from src + dst of the L3's size on
// (below nt_threshold_bytes).
bool jit_tiles_stream_from_l3(const jit_reorder_desc_t &d, const plan_t &p);
// Large AVX-512 4-byte bit-copy transposes whose dst rows are not whole
// lines apart store cached too: the A tiles this far ahead whose last dst
// line of each row every full 16x16 tile prefetches into L2 (0: none;
// knob RELAYOUT_JIT_F32_PF).
int jit_f32_dst_prefetch(const jit_reorder_desc_t &d);
// desc.f32_lines: such transposes (streamed kernels: d.nt) whose calls
// are whole pairs of B tiles (32 lanes, or a multiple), tiles A-outer (not
// b_outer), no baked loop, no other tile variant.
bool jit_f32_line_pairs(const jit_reorder_desc_t &d);
// desc.f32_lines on AVX2 (8x16 tile pairs, lines of two ymm): transposes
// on the ymm tiles of `isa` AVX2 that would stream (`nt`: large; the desc
// itself keeps such half-line tiles cached), are otherwise those of
// jit_f32_line_pairs and have far B src rows (a page or more apart),
// calls of one pair (16 B lanes). The desc then streams (d.nt).
bool jit_ymm_f32_line_pairs(const jit_reorder_desc_t &d, cpu_isa_t isa, bool nt);
// Large AVX-512 4-byte bit-copy transposes whose dst rows (A positions)
// are 1 KiB or more apart: when their B src rows are a page or more apart
// too (ab -> ba, nchw -> nhwc from 256 channels), the planner gives them
// B = 32 rows per call (two tiles: each dst row gets two whole lines at a
// time, half the dst page visits per line) and the tiles prefetch their
// src rows along A into L2 (desc.pf_row). AVX2 (the 8x16 tiles) takes the
// pairs where the dst rows are whole lines apart, without the prefetch.
// Only whether the pair qualifies; the caller knows whether the src rows
// are far.
bool jit_far_rows_pair(cpu_isa_t isa, const plan_t &p);
// Far-row blocks: of those, the ones whose dst rows are a page or more
// apart and whole lines apart (ab -> ba 8192^2, not 8191 x 8192) take
// calls of far_block_a A positions (one KiB of each src row) x
// far_block_b B rows (512 bytes of each dst row), and each full tile
// prefetches one src row of the next call's block into L2, the rows in
// order (desc.pf_rows). Not on Intel CPUs (the pairs were faster there):
// jit_far_rows_blocks_on, knob RELAYOUT_JIT_FAR_BLOCKS (0 / 1: off / on
// on any CPU).
constexpr dim_t far_block_a = 256, far_block_b = 128;
bool jit_far_rows_blocks(cpu_isa_t isa, const plan_t &p);
bool jit_far_rows_blocks_on();
// desc.blk_lines: streamed AVX-512 f32 bit-copy transposes of 16- and
// 8-lane channel blocks to plain (nChw16c / nChw8c -> nchw: one A tile of
// the channel dim, the B tile's src rows one contiguous block, dst rows
// whole lines apart) take this many B tiles per dst row visit (0: none).
int jit_blk_lines(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);
// ... the tiles per visit where the rule applies: on Intel CPUs only
// (measured there), 0 elsewhere; knob RELAYOUT_JIT_BLK_LINES, when set,
// decides on any CPU (0 or 1: off, K > 1: K tiles).
int jit_blk_lines_tiles();
// desc.ymm_blk_lines: the block lines on the AVX2 8x16 tiles (streamed f32
// bit copies nChw16c / nChw8c -> nchw: A the channel dim, 8 or 16 lanes,
// each 8x16 tile's src one contiguous block, dst rows whole lines apart):
// 8x16 tiles per visit of the A tile's 8 dst rows (0: none).
int jit_ymm_blk_lines(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);
// ... the tiles per visit where the rule applies: on Intel CPUs only
// (measured there), 0 elsewhere; knob RELAYOUT_JIT_YMM_BLK_LINES, when
// set, decides on any CPU (0 or 1: off, K > 1: K tiles).
int jit_ymm_blk_lines_tiles();
// ... and the transpose plane (elements per call, kernel_plan_params_t::
// tile_plane) of those pairs: 64 Ki, A of 2048 positions per call (the
// others: 32 Ki). Knob RELAYOUT_JIT_FAR_PLANE (elements).
dim_t jit_far_rows_pair_plane();
// desc.ymm_b16 of a transpose: AVX2 (not a zmm problem on the ymm tile),
// 4-byte dst, streamed, B of 16 lanes or more, dst rows whole lines apart,
// no sum or compensation.
bool jit_ymm_b16_tiles(const jit_reorder_desc_t &d, cpu_isa_t isa);
// The B lanes of those tiles: 16, or 32 for 2-byte dsts (f32 -> bf16 /
// f16 values, knob RELAYOUT_JIT_YMM_W32=0: off), a whole dst line either way.
int jit_ymm_b16_lanes(const jit_reorder_desc_t &d);
// desc.ymm_small: the element size of AVX2 1- and 2-byte bit-copy
// transposes and interleaves (with compensation only of 4-lane groups of
// bytes: 4i interleaves) whose B lanes are adjacent in the dst, with a
// full tile's worth of A and B; 0 otherwise.
int jit_ymm_small_tiles(const jit_reorder_desc_t &d, cpu_isa_t isa);
// desc.ymm_small_lines of a transpose on those tiles (without compensation,
// dst rows whole lines apart, a full group per call) of `bytes` (src +
// dst): streamed sizes, or dst rows packed into few L1 sets.
bool jit_ymm_small_lines(const jit_reorder_desc_t &d, size_t bytes);
// Byte tiles of those lines whose src rows share L1 sets (pitches of 4
// KiB and up) stage each B tile's src lines: 0 if not, else 1 + the
// groups their L2 prefetch runs ahead.
int jit_ymm_byte_src_stage(const jit_reorder_desc_t &d);
// ... the lines of each src row that stage reads at a time (0: one a
// group; 2 or 4: a block of as many groups).
int jit_ymm_byte_wide_src(const jit_reorder_desc_t &d);
// AVX2 byte lines of far src rows and dst rows of whole line pairs,
// streamed: calls of 128 B lanes and 512 A positions (two lines of each
// dst row per group).
bool jit_ymm_byte_line_pairs(cpu_isa_t isa, const plan_t &p);
// AVX2 2-byte bit copies whose far src rows take 16 B lanes per call:
// a dst line's 32 when the problem is large enough for whole streamed
// lines (jit_ymm_small_lines).
bool jit_ymm_word_lines(cpu_isa_t isa, const plan_t &p);

// Elements per call of AVX2 f32 -> bf16 / f16 transposes from 16-lane
// src blocks (nChw16c -> nchw), large: the two A tiles' src block in the
// L1 (0: the usual plane).
dim_t jit_ymm_w32_block_plane(cpu_isa_t isa, const plan_t &p);

// desc.ymm_narrow (0: none): AVX2 value conversions of a 4-byte src to
// bf16 (32 lanes) or s8 / u8 (64) whose scales do not change along A,
// without the sum or compensation, with B of a dst line or more, src rows
// a page or more apart.
int jit_ymm_narrow_rows(const jit_reorder_desc_t &d, cpu_isa_t isa);
// ... of 16 lanes (narrow blocks) where the dst is 16-lane blocks whose
// A positions are adjacent (nchw -> nChw16c).
bool jit_ymm_narrow_blocks(const jit_reorder_desc_t &d);
// The B lanes per call a transpose of `p` wants for them on `isa` (0: the
// usual split): a whole dst line.
dim_t jit_ymm_narrow_rows_lanes(cpu_isa_t isa, const plan_t &p);

// desc.ymm_b16_pf (0: none): 8x16 tiles of 4-byte srcs whose B rows are
// 128 B to under 4 KiB apart, A of 32 positions or more, the call's A a
// whole number of 8-row tiles and B of 16-lane ones.
int64_t jit_ymm_b16_near_rows(const jit_reorder_desc_t &d, const kernel_plan_t &kp);
// desc.ymm_b16_pair: of those, bit copies whose B src rows are 512 B to
// 1 KiB apart and whose call's B is whole pairs of 16-lane tiles.
bool jit_ymm_b16_near_pairs(const jit_reorder_desc_t &d, const kernel_plan_t &kp);

// desc.flat_bytes of an interleave (0: none): AVX-512 conversions of
// 4-lane groups of 16 B positions to 1-byte dsts (4i16o4i), A unit-stride in the src,
// continued by the folded lanes (in_is = n[0]) and by the innermost baked
// loop (src stride 4 n[0]), with scales constant along a B row and no
// sum (see jit_reorder_desc_init for where it pays).
dim_t jit_flat_bytes(const jit_reorder_desc_t &d, const kernel_plan_t &kp);

// desc.flat_pairs (0: none): AVX-512 bit copies of 2-byte elements, A
// (hw) unit-stride in the src, B = 16 o rows, i pairs continuing A's src
// run (a transpose's innermost baked loop, two i a step, or an
// interleave's 2i lanes and baked loop), each dst line one hw position
// of an i pair (16i16o: i = 2j in the low half line, 2j + 1 in the high;
// 8i16o2i: word pairs), every 16 of a call's lines read from a window of
// at most 64 words of each row.
// f32 -> bf16 without scales too, at the bf16 level (`bf16_isa`:
// vcvtne2ps2bf16).
dim_t jit_flat_pairs(const jit_reorder_desc_t &d, const kernel_plan_t &kp, bool bf16_isa);

// desc.run_deal of a transpose (0: none): AVX-512 4-byte bit copies, A of
// 9 unit-stride in the src, B dst-unit of whole 16-lane tiles whose src
// stride is A (each tile's src one run of 144 elements), problems of at
// least run_deal_min_bytes (src + dst). Knob RELAYOUT_JIT_RUN_DEAL=0: off.
int jit_run_deal(const jit_reorder_desc_t &d, size_t bytes);
// desc.run_pairs: run tiles (desc.run_deal) of a B of two tiles or more,
// or of one tile under an innermost baked loop whose dst step is a line
// (OIhw16o16i: the o loop). Knob RELAYOUT_JIT_RUN_PAIRS=0: off.
bool jit_run_pairs(const jit_reorder_desc_t &d);

// desc.o8_chunks of an interleave (0: none): AVX-512 4-byte bit copies,
// B = 8 positions of src stride A (A unit-stride in the src, 2 to 32) over
// 8 dst-unit lanes, so that every o row of a call's block is one src run.
// Knob RELAYOUT_JIT_O8_CHUNKS=0: off.
int jit_o8_chunks(const jit_reorder_desc_t &d);

// desc.o8_in_order: streamed chunk lines (desc.o8_chunks, desc.nt) staged
// per block and stored in address order; Intel only unless the knob
// RELAYOUT_JIT_O8_ORDER (1 on, 0 off) says.
bool jit_o8_in_order(const jit_reorder_desc_t &d);

// desc.o8i_rows of an interleave (0: none): AVX-512 4-byte bit copies,
// B = 8 positions (o) over 8 dst-unit lanes (i) of src stride A (A
// unit-stride in the src, 8 to 64), dst lines two B positions of one A.
// Knob RELAYOUT_JIT_O8I_ROWS: 0 off, 1 on, 2 on unstaged.
int jit_o8i_rows(const jit_reorder_desc_t &d);

// desc.o8i_staged: streamed row windows (desc.o8i_rows, desc.nt) staged
// per window and stored in address order (unless RELAYOUT_JIT_O8I_ROWS
// is 2).
bool jit_o8i_staged(const jit_reorder_desc_t &d);

// Whether the chunk lines (desc.o8_chunks) and the quad-load short-A
// tiles of AVX-512 f32 oihw -> o-innermost blocks store cached instead
// of streamed at this size (src + dst bytes): below jit_o_cached_bytes,
// 0 unless the knob RELAYOUT_JIT_O_CACHED_MIB (MiB) sets it.
bool jit_o_lines_cached(const jit_reorder_desc_t &d, size_t bytes);
size_t jit_o_cached_bytes();

// desc.few_b of a transpose (0: none): AVX-512, B of 2 to 7 lanes
// dst-unit and continued in the dst by A (os[0] = n[1]), A src-unit: the
// tile's 16 A positions x B lanes are B whole vectors of the dst (4-byte
// dsts; 1-byte ones of 4 lanes and bf16 / f16 conversions of 2: one
// line). Conversions too, with scales constant or unit-stride along A;
// not the sum or compensation.
int jit_few_b_tiles(const jit_reorder_desc_t &d);
// ... and f32 conversions to bf16 / f16 / s8 / u8 of 3 to 7 lanes (not
// 1-byte dsts of 4): each of the B vectors narrowed as it is stored.
bool jit_few_b_narrow(const jit_reorder_desc_t &d);
// kernel_plan_params_t::a_run_loop of AVX-512 conversions of a 4-byte src
// to bytes whose innermost node is 4 dst-unit lanes, or to bf16 / f16 of 2
// (hwio -> OIhw4i16o4i, OIhw8i16o2i: the few-B tiles' lines), and of
// 1-byte srcs to bytes (bit copies too); not with the sum, nor with
// compensation that follows the 4 lanes. Knob
// RELAYOUT_JIT_FEW_B_RUN=0: off.
bool jit_few_b_run_loop(cpu_isa_t isa, const plan_t &p);
// desc.comp_a: few-B tiles to bytes (4 lanes, a line per tile) whose
// compensation index does not follow B and advances by one along A
// (both buffers alike), every tile of the call a few-B or a 16x16 one.
// Knob RELAYOUT_JIT_FEW_B_COMP=0: off (the driver sums the dst back).
bool jit_few_b_comp(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);
// desc.comp_lanes given up for the few-B tiles' sums (comp_a) where the
// compensation of a call is one sum (A, B and the loops reduce: mask 1
// of grouped 4i16o4i weights).
bool jit_few_b_comp_reduced(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);
// The int32 sums a call of a desc.comp_a kernel adds to (its span of
// compensation indices, whole tiles).
dim_t jit_few_b_comp_span(const kernel_plan_t &kp);
// desc.few_b_quads: few-B tiles of 4 lanes (one line each) of 1-byte bit
// copies, A one 16-position tile continued in the src by the innermost
// baked loop (a multiple of 4 iterations). Knob RELAYOUT_JIT_FEW_B_QUADS=0:
// off.
bool jit_few_b_quads(const jit_reorder_desc_t &d);
int jit_few_b_quad_steps(const jit_reorder_desc_t &d);
// desc.lane_tiles (see there; 0: none): AVX-512 interleaves of 1-byte bit
// copies, a virtual A, 16 B positions of 4-lane dword groups (in_is = 1),
// the compensation (if any) of those groups, the innermost baked loop a
// dword along the src rows and a line along the dst, continued in the src
// by the loop of the tile's steps. Knob RELAYOUT_JIT_LANE_TILES=0: off.
int jit_lane_tiles(const jit_reorder_desc_t &d, const kernel_plan_t &kp);
// The baked loop a lane tile steps through besides the innermost (its
// run's continuation), -1: none (16 steps of the innermost loop per tile,
// a multiple of 16), -2: no such loop.
int jit_lane_tiles_loop(const jit_reorder_desc_t &d);
// desc.comp_a stays only where the rules after jit_few_b_comp changed no
// field of `before` (the desc then) but those declared to sum it or not
// to choose tiles (few_b_quads, few_b_quad_steps, nt, the driver's fence,
// the baked loops).
bool jit_comp_a_declared(const jit_reorder_desc_t &before, const jit_reorder_desc_t &d);

// desc.pad_b of a transpose: AVX-512 streamed 4-byte bit copies, A and B
// of whole tiles, B's dim padded in the dst.
bool jit_pad_b_tiles(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp);

inline int64_t jit_comp_lanes(const kernel_plan_t &kp) {
    return (kp.micro[1].n * kp.micro[1].in_n + 63) / 64 * 64;
}

// Reorders moving at least this many bytes (src + dst, 1.5x the 32 MiB L3
// of the target machine) bypass the caches with non-temporal stores: the
// dst cannot stay in the last-level cache anyway, and streaming stores
// save the read-for-ownership of every line.
constexpr size_t nt_threshold_bytes = size_t(48) << 20;

// The streaming size of AVX-512 value conversions to narrower types (f32
// -> bf16 / f16 / s8 / u8): nt_threshold_bytes, on Intel CPUs 32 MiB
// (knob RELAYOUT_JIT_CVT_NT_MIB: MiB, on any CPU).
size_t jit_cvt_nt_threshold(cpu_isa_t isa, const plan_t &p);

// Byte, word and word pair tiles whose dst rows are whole lines stream
// from this size (src + dst: the L3) on, see jit_tiles_stream_from_l3.
constexpr size_t nt_tiles_threshold_bytes = size_t(32) << 20;

// A quads (desc.quad_a) of problems below nt_threshold_bytes: only up to
// this many bytes (src + dst), see jit_reorder_desc_init.
constexpr size_t quad_cached_max_bytes = size_t(8) << 20;

// Run tiles (desc.run_deal) only from this many bytes (src + dst): within
// L2 the usual tiles were faster.
constexpr size_t run_deal_min_bytes = size_t(8) << 20;

// Whether the generator can express `d` (immediates fit, ...); the reason
// is left as the error message when not.
status_t jit_reorder_desc_check(const jit_reorder_desc_t &d);

// Generates the kernel; `gen` owns the code.
status_t jit_reorder_generate(const jit_reorder_desc_t &d, std::unique_ptr<jit_generator_t> &gen);

} // namespace x64
} // namespace impl
} // namespace relayout

#endif
