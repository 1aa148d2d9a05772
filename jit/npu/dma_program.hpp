// The NPU DMA program: a list of strided 4D move commands, the form the
// NPU engine's kernels take (DESIGN.md §7). Plain data; printable as a
// listing a kernel author can read, one command per line.
//
// A command moves shape[0..3] = (N, C, H, W) elements of `elem_bytes` bytes
// from `src` to `dst`. Each side is either
//   - local: start NPU `npu`, byte offset `addr` in that NPU. Element
//     (n, c, h, w) is in NPU (npu + c) mod X at byte
//       addr + (((npu + c) div X)*stride[1] + n*stride[0] + h*stride[2]
//               + w*stride[3]) * elem_bytes
//     i.e. the C dim walks the lanes and stride[1] is the lane-row stride;
//   - system: byte `addr` from the base pointer handed to the simulator;
//     element (n, c, h, w) at addr + sum(idx[i]*stride[i]) * elem_bytes.
// Strides count elements. Hardware limits: N, H, W <= 65535, C <= 4095,
// and W stride 1 on both sides when the config says so (dma_w_stride_one).
#ifndef RELAYOUT_JIT_NPU_DMA_PROGRAM_HPP
#define RELAYOUT_JIT_NPU_DMA_PROGRAM_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "npu/npu_config.hpp"

namespace relayout {
namespace impl {
namespace npu {

constexpr int64_t k_dma_max_nhw = 65535;
constexpr int64_t k_dma_max_c = 4095;
// Strides in a command are bounded so that address arithmetic never
// overflows: |stride| * 65535 * 8 * 4 < 2^63.
constexpr int64_t k_dma_max_stride = int64_t(1) << 40;

enum class dma_dir_t : int32_t { s2l = 0, l2s = 1, l2l = 2, s2s = 3 };

// Element formats: the name in the listing, and the element size.
enum class dma_fmt_t : int32_t {
    int8 = 0,
    uint8,
    int16,
    uint16,
    fp16,
    bf16,
    int32,
    fp32,
    int8x4, // 4N words
    uint8x4,
    int16x2, // 2N words
    uint16x2,
    fp32x2, // 2IC elements
};

int dma_fmt_bytes(dma_fmt_t f); // 0 for an unknown value
const char *dma_fmt_name(dma_fmt_t f);
const char *dma_dir_name(dma_dir_t d); // "S2L", ...

struct dma_side_t {
    int32_t is_local;  // 1: local memory, 0: system memory
    int32_t npu;       // local: start NPU
    int64_t addr;      // local: byte offset in the start NPU; system: byte offset
    int64_t stride[4]; // N, C, H, W in elements
};

struct dma_cmd_t {
    dma_dir_t dir;
    dma_fmt_t fmt;
    int64_t shape[4]; // N, C, H, W
    dma_side_t src;
    dma_side_t dst;
};

struct dma_program_t {
    npu_config_t cfg{}; // the config the program was generated for
    std::vector<dma_cmd_t> cmds;

    size_t size() const { return cmds.size(); }
    // One line per command, '\n'-terminated, e.g.
    // tpu_gdma_cpy_S2L(local=0x0140 npu=1, sys=+0x0000, shape=[2,3,4,5],
    //     sstride=[60,20,5,1], dstride=[20,20,5,1], fmt=FP32)
    // (on one line). Destination first, as in the TPU kernel API.
    std::string listing() const;
    // Elements moved by all commands.
    int64_t elements() const;
};

std::string dma_cmd_str(const dma_cmd_t &c);

// Checks one command against the config and, for its system sides, the
// extent of the system buffer (sys_bytes): direction vs sides, format,
// counts within the hardware limits, W stride rule, start NPU and offset,
// and every element of both sides inside its lane / the buffer. `index`
// names the command in the message.
status_t validate_cmd(const npu_config_t &cfg, const dma_cmd_t &c, int64_t sys_bytes, size_t index);

// validate_cmd over a whole program, plus the program's config == cfg.
status_t validate_program(const npu_config_t &cfg, const dma_program_t &p, int64_t sys_bytes);

// Byte range [lo, hi) a side touches (local: within a lane; system: from
// the base pointer), for a validated command.
void side_byte_range(
        const npu_config_t &cfg, const dma_cmd_t &c, const dma_side_t &s, int64_t &lo, int64_t &hi);

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
