// benchdnn_lite — the OpenCL image destinations and sources (--engine=ocl).
//
//   --engine=ocl[:INDEX]                       the ocl engine (device INDEX)
//   --dtag=image:TYPE[:bB]   --ddt=f32|f16     pack a cpu tensor (--stag,
//                                              --sdt, --strides) into an RGBA
//                                              image of TYPE (in_out_channel,
//                                              in_out_height, in_out_width,
//                                              conv2d_filter, dw_conv2d_filter,
//                                              argument, weight_height,
//                                              weight_width, winograd_filter:b2|
//                                              b4|b6); pixel type = --ddt
//   --stag=image:TYPE[:bB]   --sdt=f32|f16     unpack an image into the cpu
//                                              tensor of --dtag / --ddt
// Problem dims are logical: N,C,H,W (activations; N,C for a 2D
// in_out_channel), O,I,H,W (filters), L (argument).
//
// Correctness, public API only, with the driver's own reference of
// DESIGN §6 (pixel (x, y) lane k -> logical element; the winograd
// transform U = G g G^T in the documented order, f32 without contraction):
//   pack:   the image is read back pixel by pixel through relayout_ocl.h
//           (clEnqueueReadImage on the engine's queue) and compared bit for
//           bit (tail lanes must be +0); then, for types with an inverse,
//           the image is reordered back to the source layout through the
//           library and compared with the (pixel-rounded) source.
//   unpack: the image is written from reference pixels (clEnqueueWriteImage)
//           and the library's image -> cpu result is compared element-wise.
// Perf mode (pack): the source is put on the device first, then the
// device-only packing primitive is timed next to a clEnqueueCopyBuffer of
// the same bytes on the same queue (perf line: gbps and copy_gbps).
// -v3 prints the generated OpenCL C of each problem.
// Machines without an OpenCL device count every --engine=ocl problem as
// skipped.
#ifndef BENCHDNN_LITE_ENGINE_OCL_HPP
#define BENCHDNN_LITE_ENGINE_OCL_HPP

#include <string>

#include "problem.hpp"
#include "report.hpp"

namespace bdl {

// Is this tag an image ("image:...")?
bool is_image_tag(const std::string &tag);
// Is there an ocl device (and was the driver built with OpenCL)?
bool ocl_available();
// Runs an --engine=ocl problem with an image side, or reports a skip when
// there is no device.
res_t run_ocl_problem(const prb_t &prb, int idx);

} // namespace bdl

#endif
