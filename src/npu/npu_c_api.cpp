// The C boundary of the NPU engine (include/relayout/relayout_npu.h): the
// same conventions as src/api/c_api.cpp (argument checks, a catch-all, a
// message that names the bad field).
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "relayout/relayout_npu.h"

#include "common/c_boundary.hpp"
#include "npu/npu_engine.hpp"

using namespace relayout::impl;
using namespace relayout::impl::npu;

namespace {

static_assert(sizeof(relayout_npu_config_t) == sizeof(npu_config_t),
        "relayout_npu_config_t mirrors npu_config_t");
static_assert((int)relayout_npu_layout_free_strides == (int)npu_layout_t::free_strides
                      && (int)relayout_npu_layout_matrix == (int)npu_layout_t::matrix,
        "layout enums match");
static_assert((int)relayout_npu_storage_2ic == (int)npu_storage_t::mode_2ic
                      && (int)relayout_npu_storage_4n == (int)npu_storage_t::mode_4n,
        "storage enums match");

relayout_npu_config_t to_c_config(const npu_config_t &c) {
    relayout_npu_config_t r;
    std::memset(&r, 0, sizeof(r));
    std::memcpy(r.name, c.name, sizeof(r.name));
    r.name[sizeof(r.name) - 1] = '\0';
    r.npu_num = c.npu_num;
    r.eu_bytes = c.eu_bytes;
    r.lmem_bytes = c.lmem_bytes;
    r.banks = c.banks;
    r.dma_w_stride_one = c.dma_w_stride_one;
    return r;
}

status_t get_engine(const_relayout_engine_t e, const npu_engine_t *&out, const char *what) {
    if (!e) return failf(status_t::invalid_arguments, "%s is NULL", what);
    out = as_npu_engine(e);
    if (!out)
        return failf(status_t::invalid_arguments,
                "%s is not an npu engine (create one with relayout_npu_engine_create or "
                "relayout_engine_create(relayout_npu, i))",
                what);
    return status_t::success;
}

status_t get_payload(const_relayout_memory_desc_t md, npu_md_payload_t &p) {
    if (!md) return fail(status_t::invalid_arguments, "memory_desc is NULL");
    if (!payload_of(md->md, p))
        return fail(status_t::invalid_arguments,
                "memory_desc " + md2str(md->md) + " is not an npu_local descriptor");
    return status_t::success;
}

status_t new_local_md(
        relayout_memory_desc_t *out, const npu_config_t &cfg, const npu_local_desc_t &local) {
    memory_desc_t md;
    RL_CHECK(make_local_md(md, cfg, local));
    auto *h = new (std::nothrow) relayout_memory_desc;
    if (!h) return fail(status_t::out_of_memory, "memory descriptor: out of memory");
    h->md = md;
    *out = h;
    return status_t::success;
}

} // namespace

extern "C" {

relayout_status_t relayout_npu_engine_create(relayout_engine_t *engine, const char *config) {
    return c_guarded([&] {
        RL_NOT_NULL(engine, "engine");
        *engine = nullptr;
        RL_NOT_NULL(config, "config");
        npu_config_t cfg;
        RL_CHECK(parse_config(cfg, config));
        size_t index = k_engine_count;
        for (size_t i = 0; i < k_engine_count; ++i)
            if (std::string(config) == k_engine_presets[i]) index = i;
        npu_engine_t *e = nullptr;
        RL_CHECK(npu_engine_t::create(e, cfg, index));
        *engine = e;
        return status_t::success;
    });
}

relayout_status_t relayout_npu_engine_get_config(
        const_relayout_engine_t engine, relayout_npu_config_t *config) {
    return c_guarded([&] {
        const npu_engine_t *e = nullptr;
        RL_CHECK(get_engine(engine, e, "engine"));
        RL_NOT_NULL(config, "config");
        *config = to_c_config(e->config());
        return status_t::success;
    });
}

relayout_status_t relayout_npu_engine_write_lane(
        relayout_engine_t engine, int npu, int64_t offset, const void *src, size_t size) {
    return c_guarded([&] {
        const npu_engine_t *ce = nullptr;
        RL_CHECK(get_engine(engine, ce, "engine"));
        if (size && !src) return fail(status_t::invalid_arguments, "src is NULL");
        auto *e = const_cast<npu_engine_t *>(ce);
        std::lock_guard<std::mutex> lock(e->mutex());
        return e->sim().write_lane(npu, offset, src, size);
    });
}

relayout_status_t relayout_npu_engine_read_lane(
        const_relayout_engine_t engine, int npu, int64_t offset, void *dst, size_t size) {
    return c_guarded([&] {
        const npu_engine_t *e = nullptr;
        RL_CHECK(get_engine(engine, e, "engine"));
        if (size && !dst) return fail(status_t::invalid_arguments, "dst is NULL");
        std::lock_guard<std::mutex> lock(e->mutex());
        return e->sim().read_lane(npu, offset, dst, size);
    });
}

relayout_status_t relayout_npu_engine_fill(relayout_engine_t engine, uint8_t value) {
    return c_guarded([&] {
        const npu_engine_t *ce = nullptr;
        RL_CHECK(get_engine(engine, ce, "engine"));
        auto *e = const_cast<npu_engine_t *>(ce);
        std::lock_guard<std::mutex> lock(e->mutex());
        e->sim().fill(value);
        return status_t::success;
    });
}

relayout_status_t relayout_memory_desc_create_npu_local(relayout_memory_desc_t *memory_desc,
        const_relayout_engine_t engine, int64_t address, const relayout_dim_t dims[4],
        relayout_data_type_t data_type, relayout_npu_layout_t layout,
        relayout_npu_storage_t storage, const relayout_dim_t strides[4]) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        const npu_engine_t *e = nullptr;
        RL_CHECK(get_engine(engine, e, "engine"));
        RL_NOT_NULL(dims, "dims");
        const auto l = static_cast<npu_layout_t>(layout);
        const auto s = static_cast<npu_storage_t>(storage);
        if (l == npu_layout_t::matrix)
            return fail(status_t::invalid_arguments, "layout: the matrix layout takes a W; use "
                                                     "relayout_memory_desc_create_npu_matrix");
        npu_local_desc_t d;
        if (l == npu_layout_t::free_strides) {
            if (!strides)
                return fail(status_t::invalid_arguments,
                        "strides is NULL; the free_strides layout needs N, C, H, W strides");
            d = make_local_free(address, dims, data_type, strides, s);
        } else {
            if (strides)
                return fail(status_t::invalid_arguments,
                        "strides must be NULL for a fixed layout (aligned, compact, "
                        "line_aligned): the layout defines them");
            d = make_local_desc(address, dims, data_type, l, s);
        }
        return new_local_md(memory_desc, e->config(), d);
    });
}

relayout_status_t relayout_memory_desc_create_npu_matrix(relayout_memory_desc_t *memory_desc,
        const_relayout_engine_t engine, int64_t address, int64_t rows, int64_t cols,
        int64_t matrix_w, relayout_data_type_t data_type) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        const npu_engine_t *e = nullptr;
        RL_CHECK(get_engine(engine, e, "engine"));
        return new_local_md(memory_desc, e->config(),
                make_local_matrix(address, rows, cols, matrix_w, data_type));
    });
}

relayout_status_t relayout_memory_desc_query_npu_local(
        const_relayout_memory_desc_t memory_desc, relayout_npu_local_info_t *info) {
    return c_guarded([&] {
        npu_md_payload_t p;
        RL_CHECK(get_payload(memory_desc, p));
        RL_NOT_NULL(info, "info");
        const npu_config_t &cfg = p.cfg;
        const npu_local_desc_t &d = p.local;
        relayout_npu_local_info_t r;
        std::memset(&r, 0, sizeof(r));
        r.config = to_c_config(cfg);
        r.address = d.addr;
        r.start_npu = start_npu(cfg, d);
        r.start_offset = start_offset(cfg, d);
        r.layout = static_cast<relayout_npu_layout_t>(d.layout);
        r.storage = static_cast<relayout_npu_storage_t>(d.storage);
        r.data_type = d.data_type;
        r.elem_bytes = elem_bytes(d);
        packed_dims(d, r.packed_dims);
        for (int i = 0; i < 4; ++i)
            r.dims[i] = d.dims[i];
        local_strides(cfg, d, r.strides);
        r.channels_per_npu = channels_per_npu(cfg, d);
        r.bytes_per_npu = bytes_per_npu(cfg, d);
        r.npus_used = (int32_t)std::min<int64_t>(r.packed_dims[1], cfg.npu_num);
        r.matrix_w = d.layout == npu_layout_t::matrix ? d.matrix_w : 0;
        *info = r;
        return status_t::success;
    });
}

relayout_status_t relayout_memory_desc_npu_element_location(
        const_relayout_memory_desc_t memory_desc, int64_t n, int64_t c, int64_t h, int64_t w,
        int *npu, int64_t *offset) {
    return c_guarded([&] {
        npu_md_payload_t p;
        RL_CHECK(get_payload(memory_desc, p));
        RL_NOT_NULL(npu, "npu");
        RL_NOT_NULL(offset, "offset");
        int q = 0;
        int64_t off = 0;
        RL_CHECK(element_location(p.cfg, p.local, n, c, h, w, q, off));
        *npu = q;
        *offset = off;
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_desc_query_npu_program(
        const_relayout_primitive_desc_t primitive_desc, const char **listing, int64_t *n_commands) {
    return c_guarded([&] {
        RL_NOT_NULL(primitive_desc, "primitive_desc");
        if (primitive_desc->impl_name != k_npu_impl_name)
            return fail(status_t::invalid_arguments,
                    "primitive_desc: implementation " + primitive_desc->impl_name
                            + " is not npu:dma and has no DMA program");
        const std::string &s = primitive_desc->engine_program;
        if (listing) *listing = s.c_str();
        if (n_commands) {
            // One listing line per DMA command.
            static const char prefix[] = "tpu_gdma_cpy_";
            int64_t n = 0;
            size_t pos = 0;
            while (pos < s.size()) {
                if (s.compare(pos, sizeof(prefix) - 1, prefix) == 0) ++n;
                const size_t nl = s.find('\n', pos);
                if (nl == std::string::npos) break;
                pos = nl + 1;
            }
            *n_commands = n;
        }
        return status_t::success;
    });
}

} // extern "C"
