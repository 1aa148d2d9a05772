// OpenCL C for a general reorder plan (src/plan): the device side of
// buffer -> buffer reorders between any two blocked descriptors (plain,
// strided, blocked such as nChw16c or OIhw4i16o4i, padded, views).
//
// The kernel walks the plan's node nest exactly like the reference
// executor. A transposing nest (a node a, other than the innermost node b,
// with a smaller src stride than b's) runs in tiles: each work item loads
// up to 16 x 16 positions of a and b along a into private memory, then
// stores them along b; dim 0 of the range counts tiles of a, dim 1 the
// tiles of b times the other nodes (kernel_source_t::cpu_max_local caps
// the group at 8 items on a CPU device). Other nests take one work item per position: dim 0
// is the innermost node, dim 1 the other nodes flattened. Each position is a
// value (converted), a zero (destination padding) or nothing (beyond the
// destination's padded extent). Offsets of irregular dims (offset tables)
// are __constant arrays; offset0 of both sides is baked in.
//
// Numerics: bit copies for equal data types (any type); otherwise the
// reference's value pipeline (src/ref/numerics.hpp) step for step with
// contraction off: load as f32 (f16 through vload_half, no cl_khr_fp16
// needed; bf16 as bits), src zero point, src scale, sum, dst scale, dst
// zero point, then round to nearest even and saturate (bf16 and integers
// as the reference does, f16 through vstore_half_rte). Common scales are
// literals, per-dim scales __constant tables (with the offset tables,
// under 48 KiB). A dst scale divides, so its program is built with
// -cl-fp32-correctly-rounded-divide-sqrt (kernel_source_t::options); the
// caller checks the device supports it. Bit-exact with the cpu on devices
// that keep f32 denormals (CL_FP_DENORM).
//
// Compensation (s8s8 / zero-point flags of an s8 or u8 dst): rl_reorder
// takes a third argument, `__global int *acc` (comp_entries, zeroed before
// each run), and adds every stored value to its entries with atomic_add;
// a second kernel of the program, rl_compensate(acc, dst) over
// comp_entries items, writes -128 * sum / -sum as int32 at the plan's
// comp_offset_bytes. Sums wrap mod 2^32 like the cpu's int64 sums cast
// to int32, so any order gives the same bits.
//
//   rl_reorder(__global const S *src, __global D *dst[, __global int *acc])
#ifndef RELAYOUT_JIT_OCL_OCL_PLAN_GEN_HPP
#define RELAYOUT_JIT_OCL_OCL_PLAN_GEN_HPP

#include "jit/ocl/ocl_kernel_gen.hpp"
#include "plan/attr.hpp"
#include "plan/plan.hpp"

namespace relayout {
namespace impl {
namespace ocl {

// Whether gen_plan_kernel can take the plan (the message says why not).
// `attr` gives the scale values of a plan made with it.
status_t plan_kernel_supported(const plan_t &p, const attr_t &attr = attr_t());

// Whether the kernel divides (a dst scale): its build needs correctly
// rounded division.
bool plan_kernel_divides(const plan_t &p);

status_t gen_plan_kernel(const plan_t &p, kernel_source_t *out, const attr_t &attr = attr_t());

} // namespace ocl
} // namespace impl
} // namespace relayout

#endif
