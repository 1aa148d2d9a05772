// Lowers a transfer between two NPU descriptors into a DMA program.
//
// The generator first tries the transfer as one command per region (a
// tensor is one region; a matrix with a partial last channel is two), with
// the descriptors' own shape and strides: that is the listing a kernel
// author expects. Only when that command breaks a hardware limit (counts,
// W stride 1) does it normalize the N, H, W dims (the C dim walks lanes and
// is kept apart): drop size-1 dims, fold dims that are contiguous on both
// sides, refactor a long dim into two exact factors when a command slot is
// free, and otherwise split it into chunks or loop over it. C is split into
// runs of at most 4095 channels, each starting at its own NPU.
//
// Storage modes: the DMA engine moves whole elements and never rearranges
// bytes inside one, so both descriptors of a program must use the same
// storage mode (a 4N local tensor moves to or from a 4N system buffer as
// int8x4 words). Packing a 1N host tensor into 4N/2N/2IC is a CPU step
// (npu_pack.hpp), which scatter()/gather() in npu_api.hpp do for you.
#ifndef RELAYOUT_JIT_NPU_DMA_GEN_HPP
#define RELAYOUT_JIT_NPU_DMA_GEN_HPP

#include "common/status.hpp"
#include "jit/npu/dma_program.hpp"
#include "npu/npu_config.hpp"
#include "npu/npu_desc.hpp"

namespace relayout {
namespace impl {
namespace npu {

// System -> local (scatter into lanes).
status_t gen_s2l(const npu_config_t &cfg, const npu_sys_desc_t &src, const npu_local_desc_t &dst,
        dma_program_t &prog);
// Local -> system (gather from lanes).
status_t gen_l2s(const npu_config_t &cfg, const npu_local_desc_t &src, const npu_sys_desc_t &dst,
        dma_program_t &prog);
// Local -> local (e.g. compact -> aligned, or to another start NPU). The two
// tensors must not share bytes in any lane.
status_t gen_l2l(const npu_config_t &cfg, const npu_local_desc_t &src, const npu_local_desc_t &dst,
        dma_program_t &prog);
// System -> system, within one buffer; the two must not overlap.
status_t gen_s2s(const npu_config_t &cfg, const npu_sys_desc_t &src, const npu_sys_desc_t &dst,
        dma_program_t &prog);

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
