// OpenCL C for a general reorder plan (src/plan): the device side of
// buffer -> buffer reorders between any two blocked descriptors (plain,
// strided, blocked such as nChw16c or OIhw4i16o4i, padded, views).
//
// The kernel walks the plan's node nest exactly like the reference
// executor: one work item per position, dim 0 of the range is the
// innermost node, dim 1 the other nodes flattened. Each position is a
// value (converted), a zero (destination padding) or nothing (beyond the
// destination's padded extent). Offsets of irregular dims (offset tables)
// are __constant arrays; offset0 of both sides is baked in.
//
// Numerics: bit copies for equal data types (any type); f32 <-> f16
// through vload_half / vstore_half_rte (round to nearest even; no
// cl_khr_fp16 needed). Attributes (scales, zero points, sum, compensation)
// are not generated: such plans are `unimplemented`.
//
//   rl_reorder(__global const S *src, __global D *dst)
#ifndef RELAYOUT_JIT_OCL_OCL_PLAN_GEN_HPP
#define RELAYOUT_JIT_OCL_OCL_PLAN_GEN_HPP

#include "jit/ocl/ocl_kernel_gen.hpp"
#include "plan/plan.hpp"

namespace relayout {
namespace impl {
namespace ocl {

// Whether gen_plan_kernel can take the plan (the message says why not).
status_t plan_kernel_supported(const plan_t &p);

status_t gen_plan_kernel(const plan_t &p, kernel_source_t *out);

} // namespace ocl
} // namespace impl
} // namespace relayout

#endif
