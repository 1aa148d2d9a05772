// The NPU engine, as the rest of the library sees it (DESIGN.md §7).
//
// What the phase-2 integration needs, in one place:
//   - npu_config_t + parse_config()           engine creation ("bm1684x",
//                                              "custom:4:1024:128")
//   - npu_local_desc_t + validate_local()     format_kind npu_local payload
//     and its queries (element_location, bytes_per_npu, local_strides, ...)
//   - npu_sys_desc_t                          the system-memory side, built
//                                              from a plain blocked desc
//   - npu_sim_t                               the engine's device memory
//   - npu_transfer_t: plan_*() once at primitive creation,
//     execute_transfer() at every execution   the reorder `npu:dma`
//   - dma_program_t::listing()                the program-listing query
//   - scatter()/gather()/move_local()         one-shot conveniences
#ifndef RELAYOUT_NPU_NPU_API_HPP
#define RELAYOUT_NPU_NPU_API_HPP

#include <cstddef>

#include "common/status.hpp"
#include "jit/npu/dma_gen.hpp"
#include "jit/npu/dma_program.hpp"
#include "npu/npu_config.hpp"
#include "npu/npu_desc.hpp"
#include "npu/npu_pack.hpp"
#include "npu/npu_sim.hpp"

namespace relayout {
namespace impl {
namespace npu {

// A planned transfer: the DMA program plus, when the system and local
// storage modes differ (e.g. a 1N s8 host tensor into a 4N local tensor),
// a host repack through a continuous staging buffer in the local
// descriptor's storage mode. Plain data apart from the program's vector;
// plan once, execute many times.
struct npu_transfer_t {
    npu_config_t cfg{};
    dma_dir_t dir = dma_dir_t::s2l; // s2l, l2s or l2l
    npu_sys_desc_t sys{};           // the caller's system desc (s2l, l2s)
    npu_local_desc_t local_src{};   // l2s, l2l
    npu_local_desc_t local_dst{};   // s2l, l2l
    bool staged = false;            // repack through `staging` on the host
    npu_sys_desc_t staging{};       // continuous, offset 0, local storage mode
    dma_program_t prog;             // on the staging buffer when staged

    // Bytes the caller's system buffer must hold (0 for l2l).
    int64_t sys_bytes() const;
    // Human-readable: the staging step (if any) and the program listing.
    std::string listing() const;
};

status_t plan_s2l(const npu_config_t &cfg, const npu_sys_desc_t &src, const npu_local_desc_t &dst,
        npu_transfer_t &t);
status_t plan_l2s(const npu_config_t &cfg, const npu_local_desc_t &src, const npu_sys_desc_t &dst,
        npu_transfer_t &t);
status_t plan_l2l(const npu_config_t &cfg, const npu_local_desc_t &src, const npu_local_desc_t &dst,
        npu_transfer_t &t);

// Runs a planned transfer on `sim` (whose config must match). s2l reads
// `sys_src`, l2s writes `sys_dst`, l2l uses neither; `sys_bytes` is the
// extent of the buffer used. Nothing is written when a check fails.
status_t execute_transfer(const npu_transfer_t &t, npu_sim_t &sim, const void *sys_src,
        void *sys_dst, size_t sys_bytes);

// One-shot conveniences: plan + execute. `prog` (optional) receives the
// transfer that ran, for its listing.
status_t scatter(const npu_sys_desc_t &sys_desc, const void *sys_ptr, size_t sys_bytes,
        const npu_local_desc_t &local, npu_sim_t &sim, npu_transfer_t *plan = nullptr);
status_t gather(const npu_local_desc_t &local, npu_sim_t &sim, const npu_sys_desc_t &sys_desc,
        void *sys_ptr, size_t sys_bytes, npu_transfer_t *plan = nullptr);
status_t move_local(const npu_local_desc_t &src, const npu_local_desc_t &dst, npu_sim_t &sim,
        npu_transfer_t *plan = nullptr);

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
