// benchdnn_lite — the NPU engine (--engine=npu[:PRESET]): problems whose
// source and/or destination lives in an NPU's simulated local memory.
//
//   --engine=npu:bm1684x            preset (bm1684, bm1684x, bm1688, bm1690),
//   --engine=npu:1                  an engine index, or
//   --engine=npu:custom:4:1024:128  a custom config (X, S, eu_bytes)
//   --dtag=npu:LAYOUT[:STORAGE]     a local destination; LAYOUT is aligned,
//                                   compact, line_aligned, matrix:W, or
//                                   free:Ns:Cs:Hs:Ws; STORAGE 1n (default),
//                                   4n, 2n, 2ic. --stag=npu:... makes the
//                                   source local (L2S); both local = L2L.
//   --npu-addr=A[:B]                local addresses of the local side(s)
//                                   (L2L: A src, B dst; default 0, and the dst
//                                   of an L2L right after the src in its lane)
//
// Correctness, all through the public API: the driver's own reference
// gives the logical values; the destination is (1) gathered back through
// the library and compared, (2) read byte by byte from local memory at the
// place the public element-location query names, which is itself checked
// against the seed formula computed from the queried strides (and the
// strides against the layout's definition), and (3) every other byte of
// local memory must be unchanged (dummy slots of 4N/2N/2IC words: zero).
// Perf mode times the primitive on the simulator and prints the number of
// DMA commands per tensor.
#ifndef BENCHDNN_LITE_ENGINE_NPU_HPP
#define BENCHDNN_LITE_ENGINE_NPU_HPP

#include <string>

#include "problem.hpp"
#include "report.hpp"

namespace bdl {

// Is this tag a local layout ("npu:...")?
bool is_npu_tag(const std::string &tag);
// Validates a "--npu-addr" value.
bool check_npu_addr(const std::string &v, std::string &err);

res_t run_npu_problem(const prb_t &prb, int idx);

} // namespace bdl

#endif
