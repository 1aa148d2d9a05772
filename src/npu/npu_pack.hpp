// Host-side packing between storage modes (1N <-> 4N / 2N / 2IC) on
// system-memory buffers. The DMA engine never rearranges bytes inside an
// element, so this is the step that makes a 1N host tensor ready for a 4N
// (2N, 2IC) local tensor and back. Exact: every real element is copied
// bit for bit, and every dummy slot of a packed destination is written
// with zeros.
#ifndef RELAYOUT_NPU_NPU_PACK_HPP
#define RELAYOUT_NPU_NPU_PACK_HPP

#include <cstddef>
#include <cstdint>

#include "common/status.hpp"
#include "npu/npu_desc.hpp"

namespace relayout {
namespace impl {
namespace npu {

// Copies the tensor of `src` into `dst` element by element: same logical
// dims and data type, any storage modes and strides. The buffers must hold
// sys_required_bytes() of their descriptors and must not overlap.
status_t repack(const npu_sys_desc_t &src, const void *src_ptr, size_t src_bytes,
        const npu_sys_desc_t &dst, void *dst_ptr, size_t dst_bytes);

// Continuous NCHW (1N) <-> continuous packed (ceil(N/k), C, H, W).
// Buffer sizes follow from dims: N*C*H*W*d and ceil(N/k)*k*C*H*W*d bytes.
// 4N: s8/u8; 2N: s16/u16; 2IC: f32 weights with dims [I, O, H, W].
status_t pack_4n(const int64_t dims[4], relayout_data_type_t dt, const void *src, void *dst);
status_t unpack_4n(const int64_t dims[4], relayout_data_type_t dt, const void *src, void *dst);
status_t pack_2n(const int64_t dims[4], relayout_data_type_t dt, const void *src, void *dst);
status_t unpack_2n(const int64_t dims[4], relayout_data_type_t dt, const void *src, void *dst);
status_t pack_2ic(const int64_t dims[4], const void *src, void *dst);
status_t unpack_2ic(const int64_t dims[4], const void *src, void *dst);

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
