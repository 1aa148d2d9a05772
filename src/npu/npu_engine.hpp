// The NPU engine as a runtime engine (phase 2 of DESIGN.md §7): the object
// behind relayout_engine_t for kind npu, the npu_local memory descriptor,
// and the reorder implementation "npu:dma".
//
// Descriptor: format_kind npu_local, ndims 4, dims N, C, H, W (a matrix:
// {rows, cols, 1, 1}), and a payload holding npu_md_payload_t = the engine
// config + the npu_local_desc_t. The config is part of the descriptor so
// that queries (strides, element location, ...) need no engine, and so that
// a descriptor made for one config cannot be used on another.
// payload.size_bytes (get_size()) = bytes_per_npu * npus_used: the local
// memory the tensor reserves, padding included.
//
// Memory: a memory object on an npu engine names the tensor at the
// descriptor's address in the engine's simulated local memory; nothing is
// allocated. Its data handle is the host pointer of that address in the
// simulator (lane Q at byte R = base + A), so two memories at different
// addresses never share a handle.
#ifndef RELAYOUT_NPU_NPU_ENGINE_HPP
#define RELAYOUT_NPU_NPU_ENGINE_HPP

#include <memory>
#include <mutex>

#include "npu/npu_api.hpp"
#include "runtime/impl_list.hpp"
#include "runtime/objects.hpp"

namespace relayout {
namespace impl {
namespace npu {

// What the memory descriptor's payload holds.
struct npu_md_payload_t {
    npu_config_t cfg;
    npu_local_desc_t local;
};
static_assert(sizeof(npu_md_payload_t) <= sizeof(kind_payload_t::bytes),
        "npu_md_payload_t must fit the memory descriptor's payload");

// Presets in engine-index order: relayout_engine_create(npu, i).
constexpr const char *k_engine_presets[] = { "bm1684", "bm1684x", "bm1688", "bm1690" };
constexpr size_t k_engine_count = sizeof(k_engine_presets) / sizeof(k_engine_presets[0]);

constexpr const char *k_npu_impl_name = "npu:dma";

class npu_engine_t : public relayout_engine {
public:
    // `index`: the preset index, or k_engine_count for a custom config.
    static status_t create(npu_engine_t *&engine, const npu_config_t &cfg, size_t index);

    const npu_config_t &config() const { return sim_->config(); }
    npu_sim_t &sim() { return *sim_; }
    const npu_sim_t &sim() const { return *sim_; }
    // Serialises device work (DMA programs) on this engine's local memory.
    std::mutex &mutex() const { return mutex_; }

    status_t init_memory(relayout_memory &m, void *handle) override;
    status_t set_memory_handle(relayout_memory &m, void *handle) override;
    void release_memory(relayout_memory &) override {}
    const reorder_impl_t *reorder_impl() const override;

    // Host pointer of local address `addr` (lane addr div S, byte addr mod S).
    uint8_t *host_ptr(int64_t addr) { return sim_->lane(0) + addr; }

private:
    npu_engine_t(size_t index, std::unique_ptr<npu_sim_t> sim);
    std::unique_ptr<npu_sim_t> sim_;
    mutable std::mutex mutex_;
};

// The engine behind `e` when it is an npu engine, else nullptr.
npu_engine_t *as_npu_engine(relayout_engine *e);
const npu_engine_t *as_npu_engine(const relayout_engine *e);

// Validates `local` against `cfg` and builds the memory descriptor.
status_t make_local_md(memory_desc_t &md, const npu_config_t &cfg, const npu_local_desc_t &local);
// The payload of an npu_local descriptor; false for any other kind.
bool payload_of(const memory_desc_t &md, npu_md_payload_t &p);

// The reorder implementation "npu:dma" (npu_reorder.cpp).
const reorder_impl_t *npu_reorder_impl();

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
