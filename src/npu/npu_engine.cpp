#include "npu/npu_engine.hpp"

#include <algorithm>
#include <cstring>
#include <new>

namespace relayout {
namespace impl {

namespace npu {

namespace {

// Lanes that hold data: channels c map to NPUs (Q + c) mod X.
int64_t npus_used(const npu_config_t &cfg, const npu_local_desc_t &d) {
    int64_t pd[4];
    packed_dims(d, pd);
    return std::min<int64_t>(pd[1], cfg.npu_num);
}

} // namespace

npu_engine_t::npu_engine_t(size_t index, std::unique_ptr<npu_sim_t> sim)
        : relayout_engine(relayout_npu, index), sim_(std::move(sim)) {}

status_t npu_engine_t::create(npu_engine_t *&engine, const npu_config_t &cfg, size_t index) {
    std::unique_ptr<npu_sim_t> sim;
    RL_CHECK(npu_sim_t::create(sim, cfg));
    engine = new (std::nothrow) npu_engine_t(index, std::move(sim));
    if (!engine) return fail(status_t::out_of_memory, "npu engine: out of memory");
    return status_t::success;
}

npu_engine_t *as_npu_engine(relayout_engine *e) {
    return e && e->kind == relayout_npu ? dynamic_cast<npu_engine_t *>(e) : nullptr;
}
const npu_engine_t *as_npu_engine(const relayout_engine *e) {
    return e && e->kind == relayout_npu ? dynamic_cast<const npu_engine_t *>(e) : nullptr;
}

bool payload_of(const memory_desc_t &md, npu_md_payload_t &p) {
    if (md.format_kind != relayout_format_kind_npu_local || md.ndims != 4) return false;
    std::memcpy(&p, md.payload.bytes, sizeof(p));
    return true;
}

status_t make_local_md(memory_desc_t &md, const npu_config_t &cfg, const npu_local_desc_t &local) {
    RL_CHECK(validate_config(cfg));
    RL_CHECK(validate_local(cfg, local));
    memory_desc_t r = zero_md();
    r.ndims = 4;
    for (int d = 0; d < 4; ++d) {
        r.dims[d] = local.dims[d];
        r.padded_dims[d] = local.dims[d];
    }
    r.data_type = local.data_type;
    r.format_kind = relayout_format_kind_npu_local;
    r.extra.scale_adjust = 1.f;
    // Zeroed first: descriptors compare (and key the cache) by memcmp.
    npu_md_payload_t p;
    std::memset(&p, 0, sizeof(p));
    p.cfg = cfg;
    p.local = local;
    std::memset(&r.payload, 0, sizeof(r.payload));
    std::memcpy(r.payload.bytes, &p, sizeof(p));
    r.payload.size_bytes = local_is_zero_volume(local) ? 0
                                                       : (uint64_t)bytes_per_npu(cfg, local)
                                                                 * (uint64_t)npus_used(cfg, local);
    md = r;
    return status_t::success;
}

status_t npu_engine_t::init_memory(relayout_memory &m, void *handle) {
    npu_md_payload_t p;
    if (!payload_of(m.md, p))
        return fail(status_t::invalid_arguments,
                "npu memory: memory_desc " + md2str(m.md)
                        + " is not an npu_local descriptor; make one with "
                          "relayout_memory_desc_create_npu_local()");
    if (p.cfg != config())
        return fail(status_t::invalid_arguments,
                "npu memory: memory_desc was made for engine " + config_str(p.cfg)
                        + ", not for this engine " + config_str(config()));
    RL_CHECK(validate_local(config(), p.local));
    uint8_t *own = host_ptr(p.local.addr);
    if (handle != RELAYOUT_MEMORY_ALLOCATE && handle != RELAYOUT_MEMORY_NONE && handle != own)
        return fail(status_t::invalid_arguments,
                "npu memory: handle must be RELAYOUT_MEMORY_ALLOCATE or RELAYOUT_MEMORY_NONE: "
                "the tensor lives in local memory at the descriptor's address ("
                        + std::to_string(p.local.addr)
                        + "); fill it from a host buffer with a reorder from a cpu memory");
    // Local memory is the engine's: nothing to allocate, nothing zeroed
    // (other memory objects may name the same bytes).
    m.handle = own;
    return status_t::success;
}

status_t npu_engine_t::set_memory_handle(relayout_memory &m, void *handle) {
    if (handle == RELAYOUT_MEMORY_NONE || handle == m.handle) return status_t::success;
    return fail(status_t::invalid_arguments,
            "set_data_handle: an npu memory's handle is its place in local memory and "
            "cannot be replaced; create a memory with another descriptor address instead");
}

const reorder_impl_t *npu_engine_t::reorder_impl() const {
    return npu_reorder_impl();
}

} // namespace npu

// ---- the runtime's hooks (src/runtime/engine.cpp) ------------------------

status_t npu_engine_get_count(size_t &count) {
    count = npu::k_engine_count;
    return status_t::success;
}

status_t npu_engine_create(relayout_engine *&engine, size_t index) {
    if (index >= npu::k_engine_count)
        return failf(status_t::invalid_arguments,
                "engine index %zu: the npu engines are 0 bm1684, 1 bm1684x, 2 bm1688, "
                "3 bm1690 (custom configs: relayout_npu_engine_create)",
                index);
    npu::npu_config_t cfg;
    RL_CHECK(npu::config_from_preset(cfg, npu::k_engine_presets[index]));
    npu::npu_engine_t *e = nullptr;
    RL_CHECK(npu::npu_engine_t::create(e, cfg, index));
    engine = e;
    return status_t::success;
}

} // namespace impl
} // namespace relayout
