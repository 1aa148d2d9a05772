// OpenCL C source generator for the image-packing engine.
//
// One kernel per problem, with the shape, the image extent and the buffer
// strides baked in as literals (the buffer's offset0 stays a run-time
// argument so that sub-tensors share a kernel). The generator is pure
// string building: it needs no OpenCL runtime and is testable on its own.
//
// Kernels and their arguments (T = float for f32 buffers, half for f16):
//   pack    rl_pack(__global const T *src, long src_off,
//                   __write_only image2d_t dst)
//   unpack  rl_unpack(__read_only image2d_t src, __global T *dst,
//                     long dst_off)
//   copy    rl_copy(__global const Ts *src, long src_off,
//                   __global Td *dst, long dst_off)
//
// Numerics (all exact except the winograd transform):
// - f16 buffers are read with vload_half and written with vstore_half_rte
//   (core OpenCL 1.x; no cl_khr_fp16 needed); f16 -> f16 and f32 -> f32
//   buffer copies move bits.
// - Half images are written with write_imagef. OpenCL lets the runtime round
//   float -> half either to nearest even or toward zero, so the kernel first
//   rounds each value to half itself (vstore_half4_rte into private memory,
//   vload_half4 back): the runtime then only sees values that are exactly
//   representable and the result is round-to-nearest-even everywhere.
// - Lanes that hold no element are written as +0.0f.
// - WINOGRAD_FILTER computes U = G g G^T per (o, i) in f32 with
//   `#pragma OPENCL FP_CONTRACT OFF` and exactly this order:
//     Gg[r][c] = (G[r][0]*g[0][c] + G[r][1]*g[1][c]) + G[r][2]*g[2][c]
//     U[r][s]  = (Gg[r][0]*G[s][0] + Gg[r][1]*G[s][1]) + Gg[r][2]*G[s][2]
//   where G[r][c] = (float)(p / q) of the rational entries of DESIGN §6
//   (winograd_g() below). A CPU loop in the same order with
//   -ffp-contract=off gives the same bits.
// - Image -> buffer is generated for every type except DW_CONV2D_FILTER
//   (the reference runtime has none) and WINOGRAD_FILTER (the transform has
//   no exact inverse); both are `unimplemented` with a message.
#ifndef RELAYOUT_JIT_OCL_OCL_KERNEL_GEN_HPP
#define RELAYOUT_JIT_OCL_OCL_KERNEL_GEN_HPP

#include <cstddef>
#include <string>

#include "common/status.hpp"
#include "ocl/image_desc.hpp"

namespace relayout {
namespace impl {
namespace ocl {

struct kernel_source_t {
    std::string name;    // kernel function name
    std::string source;  // complete OpenCL C program
    std::string options; // build options it needs ("" for none)
    // Plan kernels with compensation: entries of the int32 sums the
    // kernel adds up in its third argument; the program's rl_compensate
    // then writes them into dst (ocl_plan_gen.hpp).
    size_t comp_entries = 0;
    int work_dim = 0;            // 1 or 2
    size_t global[2] = { 0, 0 }; // work items needed (before rounding up to
                                 // the work-group size; kernels bound-check)
    // Work items per group at most on a CPU device (0: no cap). Loop
    // kernels lose with a CPU runtime's wide groups; a GPU keeps its usual
    // group size, whose lanes a small group would leave idle.
    size_t cpu_max_local = 0;
};

// buffer -> image. `src` must describe the image's logical tensor (see
// buffer_matches_image()).
status_t gen_pack_kernel(const image_desc_t &img, const buffer_desc_t &src, kernel_source_t *out);

// image -> buffer; writes only real elements of `dst`.
status_t gen_unpack_kernel(const image_desc_t &img, const buffer_desc_t &dst, kernel_source_t *out);

// strided buffer -> strided buffer, same dims, f32/f16 on either side.
status_t gen_copy_kernel(const buffer_desc_t &src, const buffer_desc_t &dst, kernel_source_t *out);

// Entry (row, col) of the winograd G matrix for output tile b (2, 4, 6),
// rows 0..b+1, cols 0..2, as the kernels use it. NaN for bad arguments.
float winograd_g(int b, int row, int col);

} // namespace ocl
} // namespace impl
} // namespace relayout

#endif
