// The NPU simulator: X lanes of S bytes of local memory in host memory, and
// an executor of DMA programs over them.
//
// execute() validates the whole program first (every access of every
// command inside its lane and inside the system buffer): a bad program is
// an error and nothing is written. Commands then run in order; inside one
// command the lanes run in parallel (common/threading's parallel(): a
// static balanced split of the lanes over the library's threads). A command whose source and
// destination share bytes reads all of its source before writing (memmove semantics); a command
// whose destination elements overlap each other runs serially in (n, c, h, w) order, so results
// never depend on scheduling.
#ifndef RELAYOUT_NPU_NPU_SIM_HPP
#define RELAYOUT_NPU_NPU_SIM_HPP

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.hpp"
#include "jit/npu/dma_program.hpp"
#include "npu/npu_config.hpp"

namespace relayout {
namespace impl {
namespace npu {

class npu_sim_t {
public:
    // Validates cfg and allocates X * S zeroed bytes.
    static status_t create(std::unique_ptr<npu_sim_t> &sim, const npu_config_t &cfg);

    const npu_config_t &config() const { return cfg_; }

    // Runs `prog` with system memory [sys, sys + sys_bytes).
    status_t execute(const dma_program_t &prog, void *sys, size_t sys_bytes);
    // The same with a read-only system buffer: a program that writes system
    // memory (L2S, S2S) is rejected.
    status_t execute(const dma_program_t &prog, const void *sys, size_t sys_bytes);

    // Direct access to the lanes (tests, debugging, host-side setup).
    uint8_t *lane(int npu) { return mem_.data() + (size_t)npu * lane_bytes_; }
    const uint8_t *lane(int npu) const { return mem_.data() + (size_t)npu * lane_bytes_; }
    void fill(uint8_t byte);
    // Bounds-checked host copies into / out of one lane.
    status_t write_lane(int npu, int64_t offset, const void *src, size_t n);
    status_t read_lane(int npu, int64_t offset, void *dst, size_t n) const;

private:
    explicit npu_sim_t(const npu_config_t &cfg);
    void run(const dma_cmd_t &c, uint8_t *sys);

    npu_config_t cfg_;
    size_t lane_bytes_;
    std::vector<uint8_t> mem_;
};

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
