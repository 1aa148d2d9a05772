// Planner v2 (DESIGN §3.1 step 4, §3.2): splits a plan's node nest into a
// kernel part, run by generated code, and a driver part, run over oneTBB.
//
// The kernel part is a "micro" tile (one or two nodes, the strategy) inside
// up to `max_loops` baked loops; the driver walks the remaining nodes and,
// for each of its iterations, calls the kernel with the base pointers and
// the run-time extents of the micro nodes (how many positions hold values
// and how many are destination padding, written as zeros).
//
// Worked example: f32 nchw 2x17x56x56 -> nChw16c, plan
//     [2 53312 100352 d0] [2 50176 50176 d1*16 pad] [3136 1 16] [16 3136 1 d1 pad]
//   strategy: transpose, A = [3136 1 16] (unit src stride), B = [16 3136 1]
//   (unit dst stride); A is split into blocks of 256 for cache blocking, so
//   the micro tile is 256 x 16 and the driver walks
//     [2 n] [2 c/16] [13 a/256]
//   For c/16 = 1 the B node has 1 value position (c = 16) and 15 zero
//   positions (c = 17..31): the driver passes v = 1, z = 16.
//
// Nothing here knows about code generation: the plan is data, and
// `dump()` prints it for verbose mode and golden tests.
#ifndef RELAYOUT_PLAN_KERNEL_PLAN_HPP
#define RELAYOUT_PLAN_KERNEL_PLAN_HPP

#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace relayout {
namespace impl {

enum class kernel_strategy_t {
    copy,       // one micro node with unit stride on both sides
    transpose,  // A: unit src stride, B: unit dst stride; register tiles
    scalar,     // one micro node, any strides, one element at a time (gather)
    interleave, // a transpose whose B is two dst-contiguous nodes folded into
    // the lanes (VNNI-style 4i16o / 2i packings: 4 i x 4 o in 16 lanes)
};

const char *strategy2str(kernel_strategy_t s);

// A loop of the kernel plan (micro, baked or driver).
struct kloop_t {
    dim_t n;      // trip count (micro: the block, the largest extent of a call)
    dim_t is, os; // strides, elements
    dim_t ss, ds; // scale index strides
    dim_t cs, zs; // compensation index strides (s8s8, zero point)
    int dim;      // logical dim (-1 if folded)
    dim_t mult;   // logical step per iteration
    int tab;      // driver only: offset table of the plan, -1 if strided
    int split_of; // driver only: outer part of micro node k (-1 if not)
    dim_t total;  // split_of >= 0: full extent of that micro node
    // Interleave B: a folded inner level (in_n positions, fastest) under
    // this node; in_n = 1 when none. Lanes = in_n * n.
    dim_t in_n, in_is, in_os, in_ss, in_ds, in_cs, in_zs;
};

struct kernel_plan_params_t {
    int vlen = 16;               // f32 lanes of a vector (16: AVX-512, 8: AVX2)
    dim_t copy_block = 16384;    // largest micro extent of the copy strategy
    dim_t tile_plane = 32768;    // elements of a transpose micro tile (target)
    dim_t tile_b = 16;           // B (dst-contiguous) extent of a transpose tile, at least
    bool tile_b_max = false;     // ... and at most (B src rows far apart)
    dim_t bake_limit = 32768;    // elements of a kernel call (target)
    dim_t min_call = 2048;       // below: a loop too long to bake is split
    dim_t min_tile_call = 0;     // ... the same for tiles (0: tiles keep their call shapes)
    dim_t tile_call_max = 0;     // ... their split calls' size (0: bake_limit)
    int max_loops = 3;           // baked loops
    dim_t min_driver = 16;       // iterations the driver keeps for threading
    bool a_run_loop = false;     // transposes: the loop continuing A's src run baked innermost
    bool copy_run_loop = false;  // copies: the same for the copy's run (see kernel_plan_create)
    bool a_run_split = false;    // ... too long to bake whole: a block of it
    bool a_blocks_inner = false; // tiles: the driver's A blocks innermost (see kernel_plan_create)
    bool copy_blocks_inner = false;  // copies: the same for the run's blocks
    dim_t copy_src_rows = 0;         // copies: whole src rows, elements per call (0: off)
    bool short_tiles_split = false;  // transposes: short calls split the next loop as copies do
    bool split_interleaves = false;  // interleaves: a loop too long to bake is split (as copies')
    size_t serial_bytes = 96 * 1024; // below: run on the calling thread
};

struct kernel_plan_t {
    kernel_strategy_t strategy;
    int nmicro; // 1 (copy, scalar) or 2 (transpose, interleave: [0] = A, [1] = B)
    kloop_t micro[2];
    std::vector<kloop_t> loops;  // baked, outermost first
    std::vector<kloop_t> driver; // outermost first
    dim_t driver_total;          // product of the driver trip counts
    // Interleave whose scales follow B but not its folded level (per-o
    // scales of OIhw4i16o4i): the strides index an array with every scale
    // repeated this many times, which the driver builds (1: none).
    dim_t src_scale_expand = 1, dst_scale_expand = 1;
    bool serial; // small enough for the calling thread

    // "transpose A[256 1 16 d2] B[16 3136 1 d1 pad] loops:[..] driver:[..]"
    std::string dump(const plan_t &p) const;
};

// Builds the kernel plan of `p` (non zero-volume). Fails (unimplemented,
// with the reason) for what the kernels cannot express, e.g. strides that
// do not fit a 32-bit displacement.
status_t kernel_plan_create(kernel_plan_t &kp, const plan_t &p, const kernel_plan_params_t &params);

} // namespace impl
} // namespace relayout

#endif
