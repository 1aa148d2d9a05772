// The C boundary: argument checks, handle management, and a catch-all so
// that no exception ever crosses into the caller.
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "relayout/relayout.h"

#include "common/c_boundary.hpp"
#include "common/env.hpp"
#include "common/threading.hpp"
#include "common/verbose.hpp"
#include "md/format_tag.hpp"
#include "runtime/engine.hpp"
#include "runtime/primitive_cache.hpp"
#include "runtime/reorder.hpp"

using namespace relayout::impl;

namespace {

status_t new_md(relayout_memory_desc_t *out, const memory_desc_t &md) {
    auto *h = new (std::nothrow) relayout_memory_desc;
    if (!h) return fail(status_t::out_of_memory, "memory descriptor: out of memory");
    h->md = md;
    *out = h;
    return status_t::success;
}

std::atomic<int> g_isa_cap{ relayout_cpu_isa_default };

// A primitive descriptor handle: a shared object holding itself until
// relayout_primitive_desc_destroy, so that primitives share it (no copy).
relayout_primitive_desc *pd_handle(std::shared_ptr<relayout_primitive_desc> pd) {
    relayout_primitive_desc *h = pd.get();
    h->handle_ref.self = std::move(pd);
    return h;
}

} // namespace

namespace relayout {
namespace impl {
// Read by the JIT's ISA selection: the API cap wins over the environment.
int api_cpu_isa_cap() {
    return g_isa_cap.load();
}
} // namespace impl
} // namespace relayout

extern "C" {

const relayout_version_t *relayout_version(void) {
    static const relayout_version_t v = { RELAYOUT_VERSION_MAJOR, RELAYOUT_VERSION_MINOR,
        RELAYOUT_VERSION_PATCH, "unknown" };
    return &v;
}

const char *relayout_get_last_error_message(void) {
    return last_error_message().c_str();
}

relayout_status_t relayout_set_verbose(int level) {
    return c_guarded([&] {
        if (level < 0 || level > 2)
            return failf(status_t::invalid_arguments, "verbose level %d is not in [0, 2]", level);
        set_verbose_level(level);
        return status_t::success;
    });
}

relayout_status_t relayout_set_max_cpu_isa(relayout_cpu_isa_t isa) {
    return c_guarded([&] {
        // (Every enumerator: the values are not in the levels' order.)
        switch (isa) {
            case relayout_cpu_isa_default:
            case relayout_cpu_isa_none:
            case relayout_cpu_isa_avx2:
            case relayout_cpu_isa_avx512_core:
            case relayout_cpu_isa_avx512_core_bf16:
            case relayout_cpu_isa_all: break;
            default:
                return failf(
                        status_t::invalid_arguments, "cpu isa %d is not a valid isa", (int)isa);
        }
        g_isa_cap.store(isa);
        return status_t::success;
    });
}

relayout_status_t relayout_set_num_threads(int nthr) {
    return c_guarded([&] {
        if (nthr < 0)
            return failf(status_t::invalid_arguments, "num_threads is %d; it must be >= 0", nthr);
        set_max_threads(nthr);
        return status_t::success;
    });
}

relayout_status_t relayout_set_primitive_cache_capacity(int capacity) {
    return c_guarded([&] { return set_cache_capacity(capacity); });
}

relayout_status_t relayout_get_primitive_cache_capacity(int *capacity) {
    return c_guarded([&] {
        RL_NOT_NULL(capacity, "capacity");
        *capacity = cache_capacity();
        return status_t::success;
    });
}

const char *relayout_dt2str(relayout_data_type_t dt) {
    return dt2str(dt);
}

const char *relayout_status2str(relayout_status_t s) {
    return status2str(static_cast<status_t>(s));
}

const char *relayout_fmt_tag2str(relayout_format_tag_t tag) {
    return fmt_tag2str(tag);
}

size_t relayout_data_type_size(relayout_data_type_t dt) {
    return data_type_size(dt);
}

// ---- memory descriptors -------------------------------------------------

relayout_status_t relayout_memory_desc_create_with_tag(relayout_memory_desc_t *memory_desc,
        int ndims, const relayout_dims_t dims, relayout_data_type_t data_type,
        relayout_format_tag_t tag) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        RL_NOT_NULL(dims, "dims");
        memory_desc_t md;
        RL_CHECK(md_init_by_tag(md, ndims, dims, data_type, tag));
        return new_md(memory_desc, md);
    });
}

relayout_status_t relayout_memory_desc_create_with_string_tag(relayout_memory_desc_t *memory_desc,
        int ndims, const relayout_dims_t dims, relayout_data_type_t data_type, const char *tag) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        RL_NOT_NULL(dims, "dims");
        RL_NOT_NULL(tag, "tag");
        memory_desc_t md;
        RL_CHECK(md_init_by_tag(md, ndims, dims, data_type, std::string(tag)));
        return new_md(memory_desc, md);
    });
}

relayout_status_t relayout_memory_desc_create_with_strides(relayout_memory_desc_t *memory_desc,
        int ndims, const relayout_dims_t dims, relayout_data_type_t data_type,
        const relayout_dims_t strides) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        RL_NOT_NULL(dims, "dims");
        memory_desc_t md;
        RL_CHECK(md_init_by_strides(md, ndims, dims, data_type, strides));
        return new_md(memory_desc, md);
    });
}

relayout_status_t relayout_memory_desc_create_with_blocking(relayout_memory_desc_t *memory_desc,
        int ndims, const relayout_dims_t dims, relayout_data_type_t data_type,
        const relayout_dims_t strides, int inner_nblks, const relayout_dims_t inner_blks,
        const relayout_dims_t inner_idxs) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        RL_NOT_NULL(dims, "dims");
        memory_desc_t md;
        RL_CHECK(md_init_by_blocking(
                md, ndims, dims, data_type, strides, inner_nblks, inner_blks, inner_idxs));
        return new_md(memory_desc, md);
    });
}

relayout_status_t relayout_memory_desc_create_submemory(relayout_memory_desc_t *memory_desc,
        const_relayout_memory_desc_t parent, const relayout_dims_t dims,
        const relayout_dims_t offsets) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        RL_NOT_NULL(parent, "parent");
        memory_desc_t md;
        RL_CHECK(md_submemory(md, parent->md, dims, offsets));
        return new_md(memory_desc, md);
    });
}

relayout_status_t relayout_memory_desc_reshape(relayout_memory_desc_t *out_memory_desc,
        const_relayout_memory_desc_t in_memory_desc, int ndims, const relayout_dims_t dims) {
    return c_guarded([&] {
        RL_NOT_NULL(out_memory_desc, "out_memory_desc");
        *out_memory_desc = nullptr;
        RL_NOT_NULL(in_memory_desc, "in_memory_desc");
        RL_NOT_NULL(dims, "dims");
        memory_desc_t md;
        RL_CHECK(md_reshape(md, in_memory_desc->md, ndims, dims));
        return new_md(out_memory_desc, md);
    });
}

relayout_status_t relayout_memory_desc_permute_axes(relayout_memory_desc_t *out_memory_desc,
        const_relayout_memory_desc_t in_memory_desc, const int *permutation) {
    return c_guarded([&] {
        RL_NOT_NULL(out_memory_desc, "out_memory_desc");
        *out_memory_desc = nullptr;
        RL_NOT_NULL(in_memory_desc, "in_memory_desc");
        memory_desc_t md;
        RL_CHECK(md_permute_axes(md, in_memory_desc->md, permutation));
        return new_md(out_memory_desc, md);
    });
}

relayout_status_t relayout_memory_desc_set_extra(relayout_memory_desc_t memory_desc, uint64_t flags,
        int compensation_mask, int asymm_compensation_mask, float scale_adjust) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        return md_set_extra(
                memory_desc->md, flags, compensation_mask, asymm_compensation_mask, scale_adjust);
    });
}

relayout_status_t relayout_memory_desc_clone(
        relayout_memory_desc_t *memory_desc, const_relayout_memory_desc_t existing_memory_desc) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        RL_NOT_NULL(existing_memory_desc, "existing_memory_desc");
        return new_md(memory_desc, existing_memory_desc->md);
    });
}

relayout_status_t relayout_memory_desc_destroy(relayout_memory_desc_t memory_desc) {
    delete memory_desc;
    return relayout_success;
}

relayout_status_t relayout_memory_desc_query(
        const_relayout_memory_desc_t memory_desc, relayout_query_t what, void *result) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        RL_NOT_NULL(result, "result");
        const memory_desc_t &md = memory_desc->md;
        switch (what) {
            case relayout_query_ndims_s32: *static_cast<int *>(result) = md.ndims; break;
            case relayout_query_dims:
                *static_cast<const relayout_dim_t **>(result) = md.dims;
                break;
            case relayout_query_data_type:
                *static_cast<relayout_data_type_t *>(result) = md.data_type;
                break;
            case relayout_query_padded_dims:
                *static_cast<const relayout_dim_t **>(result) = md.padded_dims;
                break;
            case relayout_query_padded_offsets:
                *static_cast<const relayout_dim_t **>(result) = md.padded_offsets;
                break;
            case relayout_query_offset0_s64:
                *static_cast<relayout_dim_t *>(result) = md.offset0;
                break;
            case relayout_query_format_kind:
                *static_cast<relayout_format_kind_t *>(result) = md.format_kind;
                break;
            case relayout_query_strides:
                *static_cast<const relayout_dim_t **>(result) = md.blocking.strides;
                break;
            case relayout_query_inner_nblks_s32:
                *static_cast<int *>(result) = md.blocking.inner_nblks;
                break;
            case relayout_query_inner_blks:
                *static_cast<const relayout_dim_t **>(result) = md.blocking.inner_blks;
                break;
            case relayout_query_inner_idxs:
                *static_cast<const relayout_dim_t **>(result) = md.blocking.inner_idxs;
                break;
            case relayout_query_size_s64: *static_cast<size_t *>(result) = md_size(md); break;
            case relayout_query_extra_flags_u64:
                *static_cast<uint64_t *>(result) = md.extra.flags;
                break;
            case relayout_query_compensation_mask_s32:
                *static_cast<int *>(result) = md.extra.compensation_mask;
                break;
            case relayout_query_asymm_compensation_mask_s32:
                *static_cast<int *>(result) = md.extra.asymm_compensation_mask;
                break;
            case relayout_query_scale_adjust_f32:
                *static_cast<float *>(result) = md.extra.scale_adjust;
                break;
            default:
                return failf(
                        status_t::invalid_arguments, "query %d is not a valid query", (int)what);
        }
        return status_t::success;
    });
}

size_t relayout_memory_desc_get_size(const_relayout_memory_desc_t memory_desc) {
    return memory_desc ? md_size(memory_desc->md) : 0;
}

int relayout_memory_desc_equal(const_relayout_memory_desc_t lhs, const_relayout_memory_desc_t rhs) {
    const memory_desc_t z = zero_md();
    return md_equal(lhs ? lhs->md : z, rhs ? rhs->md : z) ? 1 : 0;
}

relayout_status_t relayout_memory_desc_to_string(
        const_relayout_memory_desc_t memory_desc, char *buf, size_t size) {
    return c_guarded([&] {
        RL_NOT_NULL(buf, "buf");
        if (size == 0) return fail(status_t::invalid_arguments, "size is 0");
        const std::string s = memory_desc ? md2str(memory_desc->md) : "undef";
        std::strncpy(buf, s.c_str(), size - 1);
        buf[size - 1] = '\0';
        return status_t::success;
    });
}

// ---- engines and streams -------------------------------------------------

relayout_status_t relayout_engine_get_count(relayout_engine_kind_t kind, size_t *count) {
    return c_guarded([&] {
        RL_NOT_NULL(count, "count");
        return engine_get_count(kind, *count);
    });
}

relayout_status_t relayout_engine_create(
        relayout_engine_t *engine, relayout_engine_kind_t kind, size_t index) {
    return c_guarded([&] {
        RL_NOT_NULL(engine, "engine");
        *engine = nullptr;
        return engine_create(*engine, kind, index);
    });
}

relayout_status_t relayout_engine_get_kind(
        const_relayout_engine_t engine, relayout_engine_kind_t *kind) {
    return c_guarded([&] {
        RL_NOT_NULL(engine, "engine");
        RL_NOT_NULL(kind, "kind");
        *kind = engine->kind;
        return status_t::success;
    });
}

relayout_status_t relayout_engine_destroy(relayout_engine_t engine) {
    delete engine;
    return relayout_success;
}

relayout_status_t relayout_memory_desc_create_preferred(relayout_memory_desc_t *memory_desc,
        const_relayout_memory_desc_t any_desc, const_relayout_engine_t engine) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        RL_NOT_NULL(any_desc, "any_desc");
        RL_NOT_NULL(engine, "engine");
        memory_desc_t md = any_desc->md;
        if (md.format_kind == relayout_format_kind_any) RL_CHECK(resolve_any(md, engine));
        return new_md(memory_desc, md);
    });
}

relayout_status_t relayout_stream_create(
        relayout_stream_t *stream, relayout_engine_t engine, unsigned flags) {
    return c_guarded([&] {
        RL_NOT_NULL(stream, "stream");
        *stream = nullptr;
        RL_NOT_NULL(engine, "engine");
        auto *s = new (std::nothrow) relayout_stream{ engine, flags };
        if (!s) return fail(status_t::out_of_memory, "stream: out of memory");
        *stream = s;
        return status_t::success;
    });
}

relayout_status_t relayout_stream_get_engine(
        const_relayout_stream_t stream, relayout_engine_t *engine) {
    return c_guarded([&] {
        RL_NOT_NULL(stream, "stream");
        RL_NOT_NULL(engine, "engine");
        *engine = stream->engine;
        return status_t::success;
    });
}

relayout_status_t relayout_stream_wait(relayout_stream_t stream) {
    return c_guarded([&] {
        RL_NOT_NULL(stream, "stream");
        return stream->engine->wait_stream(*stream); // cpu: execution is blocking
    });
}

relayout_status_t relayout_stream_destroy(relayout_stream_t stream) {
    delete stream;
    return relayout_success;
}

// ---- memory objects -------------------------------------------------------

relayout_status_t relayout_memory_create(relayout_memory_t *memory,
        const_relayout_memory_desc_t memory_desc, relayout_engine_t engine, void *handle) {
    return c_guarded([&] {
        RL_NOT_NULL(memory, "memory");
        *memory = nullptr;
        RL_NOT_NULL(memory_desc, "memory_desc");
        RL_NOT_NULL(engine, "engine");
        const memory_desc_t &md = memory_desc->md;
        if (md.format_kind == relayout_format_kind_any)
            return fail(status_t::invalid_arguments,
                    "memory_desc has format_kind any; a memory needs a concrete layout");
        RL_CHECK(md_validate(md, "memory_desc"));
        std::unique_ptr<relayout_memory> m(new (std::nothrow) relayout_memory);
        if (!m) return fail(status_t::out_of_memory, "memory: out of memory");
        m->md = md;
        m->engine = engine;
        if (engine->kind != relayout_cpu) {
            RL_CHECK(engine->init_memory(*m, handle));
        } else if (md.format_kind != relayout_blocked) {
            return fail(status_t::invalid_arguments,
                    "memory: a cpu memory needs a blocked descriptor (image2d and "
                    "npu_local descriptors live on their engines)");
        } else if (handle == RELAYOUT_MEMORY_ALLOCATE) {
            const size_t size = md_size(md);
            if (size > 0) {
                m->owned = aligned_malloc(size);
                if (!m->owned)
                    return failf(
                            status_t::out_of_memory, "memory: cannot allocate %zu bytes", size);
                // Zero the whole buffer: padding and compensation included.
                std::memset(m->owned, 0, size);
            }
            m->handle = m->owned;
        } else {
            m->handle = handle;
            RL_CHECK(zero_pad(md, handle));
        }
        *memory = m.release();
        return status_t::success;
    });
}

relayout_status_t relayout_memory_get_memory_desc(
        const_relayout_memory_t memory, const_relayout_memory_desc_t *memory_desc) {
    return c_guarded([&] {
        RL_NOT_NULL(memory, "memory");
        RL_NOT_NULL(memory_desc, "memory_desc");
        // The memory's descriptor lives inside it; the handle aliases it.
        *memory_desc = reinterpret_cast<const_relayout_memory_desc_t>(&memory->md);
        return status_t::success;
    });
}

relayout_status_t relayout_memory_get_engine(
        const_relayout_memory_t memory, relayout_engine_t *engine) {
    return c_guarded([&] {
        RL_NOT_NULL(memory, "memory");
        RL_NOT_NULL(engine, "engine");
        *engine = memory->engine;
        return status_t::success;
    });
}

relayout_status_t relayout_memory_get_data_handle(const_relayout_memory_t memory, void **handle) {
    return c_guarded([&] {
        RL_NOT_NULL(memory, "memory");
        RL_NOT_NULL(handle, "handle");
        *handle = memory->handle;
        return status_t::success;
    });
}

relayout_status_t relayout_memory_set_data_handle(relayout_memory_t memory, void *handle) {
    return c_guarded([&] {
        RL_NOT_NULL(memory, "memory");
        if (handle == RELAYOUT_MEMORY_ALLOCATE)
            return fail(status_t::invalid_arguments,
                    "set_data_handle: RELAYOUT_MEMORY_ALLOCATE is only for memory creation");
        if (memory->engine->kind != relayout_cpu)
            return memory->engine->set_memory_handle(*memory, handle);
        RL_CHECK(zero_pad(memory->md, handle));
        memory->handle = handle;
        return status_t::success;
    });
}

relayout_status_t relayout_memory_destroy(relayout_memory_t memory) {
    delete memory;
    return relayout_success;
}

// ---- attributes -----------------------------------------------------------

relayout_status_t relayout_primitive_attr_create(relayout_primitive_attr_t *attr) {
    return c_guarded([&] {
        RL_NOT_NULL(attr, "attr");
        *attr = new relayout_primitive_attr;
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_attr_clone(
        relayout_primitive_attr_t *attr, const_relayout_primitive_attr_t existing_attr) {
    return c_guarded([&] {
        RL_NOT_NULL(attr, "attr");
        *attr = nullptr;
        RL_NOT_NULL(existing_attr, "existing_attr");
        *attr = new relayout_primitive_attr(*existing_attr);
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_attr_destroy(relayout_primitive_attr_t attr) {
    delete attr;
    return relayout_success;
}

relayout_status_t relayout_primitive_attr_set_scales(
        relayout_primitive_attr_t attr, int arg, int64_t count, int mask, const float *scales) {
    return c_guarded([&] {
        RL_NOT_NULL(attr, "attr");
        if (arg != RELAYOUT_ARG_SRC && arg != RELAYOUT_ARG_DST)
            return failf(status_t::invalid_arguments,
                    "scales: arg %d is neither RELAYOUT_ARG_SRC nor RELAYOUT_ARG_DST", arg);
        if (mask < 0 || mask >= (1 << RELAYOUT_MAX_NDIMS))
            return failf(status_t::invalid_arguments, "scales: mask %d is out of range", mask);
        if (count < 1)
            return failf(status_t::invalid_arguments,
                    "scales: count is %lld; at least one value is needed", (long long)count);
        if (mask == 0 && count != 1)
            return failf(status_t::invalid_arguments,
                    "scales: mask 0 (common) takes one value, not %lld", (long long)count);
        RL_NOT_NULL(scales, "scales");
        for (int64_t i = 0; i < count; ++i)
            if (!std::isfinite(scales[i]) || (arg == RELAYOUT_ARG_DST && scales[i] == 0.f))
                return failf(status_t::invalid_arguments,
                        "scales: value %lld (%g) must be finite%s", (long long)i, (double)scales[i],
                        arg == RELAYOUT_ARG_DST ? " and non-zero" : "");
        scales_t &s = arg == RELAYOUT_ARG_SRC ? attr->attr.src_scales : attr->attr.dst_scales;
        s.mask = mask;
        s.values.assign(scales, scales + count);
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_attr_set_zero_point(
        relayout_primitive_attr_t attr, int arg, int32_t zero_point) {
    return c_guarded([&] {
        RL_NOT_NULL(attr, "attr");
        if (arg == RELAYOUT_ARG_SRC)
            attr->attr.src_zp = zero_point;
        else if (arg == RELAYOUT_ARG_DST)
            attr->attr.dst_zp = zero_point;
        else
            return failf(status_t::invalid_arguments,
                    "zero point: arg %d is neither RELAYOUT_ARG_SRC nor RELAYOUT_ARG_DST", arg);
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_attr_set_post_ops_sum(
        relayout_primitive_attr_t attr, float beta) {
    return c_guarded([&] {
        RL_NOT_NULL(attr, "attr");
        if (!std::isfinite(beta))
            return fail(status_t::invalid_arguments, "sum post-op: beta must be finite");
        attr->attr.beta = beta;
        return status_t::success;
    });
}

// ---- reorder --------------------------------------------------------------

relayout_status_t relayout_reorder_primitive_desc_create(
        relayout_primitive_desc_t *reorder_primitive_desc, const_relayout_memory_desc_t src_desc,
        relayout_engine_t src_engine, const_relayout_memory_desc_t dst_desc,
        relayout_engine_t dst_engine, const_relayout_primitive_attr_t attr) {
    return c_guarded([&] {
        RL_NOT_NULL(reorder_primitive_desc, "reorder_primitive_desc");
        *reorder_primitive_desc = nullptr;
        RL_NOT_NULL(src_desc, "src_desc");
        RL_NOT_NULL(dst_desc, "dst_desc");
        RL_NOT_NULL(src_engine, "src_engine");
        RL_NOT_NULL(dst_engine, "dst_engine");
        auto pd = std::make_shared<relayout_primitive_desc>();
        static const attr_t no_attr;
        const attr_t &a = attr ? attr->attr : no_attr;
        RL_CHECK(reorder_pd_create(*pd, src_desc->md, src_engine, dst_desc->md, dst_engine, a));
        *reorder_primitive_desc = pd_handle(std::move(pd));
        return status_t::success;
    });
}

relayout_status_t relayout_reorder_chain_primitive_desc_create(
        relayout_primitive_desc_t *reorder_primitive_desc, int n,
        const const_relayout_memory_desc_t *mds, const const_relayout_primitive_attr_t *attrs,
        relayout_engine_t src_engine, relayout_engine_t dst_engine) {
    return c_guarded([&] {
        RL_NOT_NULL(reorder_primitive_desc, "reorder_primitive_desc");
        *reorder_primitive_desc = nullptr;
        RL_NOT_NULL(mds, "mds");
        RL_NOT_NULL(src_engine, "src_engine");
        RL_NOT_NULL(dst_engine, "dst_engine");
        if (n < 2 || n > 64)
            return failf(status_t::invalid_arguments,
                    "reorder chain: n is %d; it must be in [2, 64]", n);
        std::vector<memory_desc_t> v;
        std::vector<attr_t> a;
        for (int i = 0; i < n; ++i) {
            if (!mds[i])
                return failf(status_t::invalid_arguments, "reorder chain: mds[%d] is NULL", i);
            v.push_back(mds[i]->md);
            if (i + 1 < n) a.push_back(attrs && attrs[i] ? attrs[i]->attr : attr_t());
        }
        auto pd = std::make_shared<relayout_primitive_desc>();
        RL_CHECK(reorder_chain_pd_create(*pd, v, a, src_engine, dst_engine));
        *reorder_primitive_desc = pd_handle(std::move(pd));
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_desc_query_impl_info(
        const_relayout_primitive_desc_t primitive_desc, const char **impl_info) {
    return c_guarded([&] {
        RL_NOT_NULL(primitive_desc, "primitive_desc");
        RL_NOT_NULL(impl_info, "impl_info");
        *impl_info = primitive_desc->impl_name.c_str();
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_desc_query_plan(
        const_relayout_primitive_desc_t primitive_desc, const char **plan) {
    return c_guarded([&] {
        RL_NOT_NULL(primitive_desc, "primitive_desc");
        RL_NOT_NULL(plan, "plan");
        *plan = pd_plan_str(*primitive_desc).c_str();
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_desc_query_md(const_relayout_primitive_desc_t primitive_desc,
        int which, const_relayout_memory_desc_t *memory_desc) {
    return c_guarded([&] {
        RL_NOT_NULL(primitive_desc, "primitive_desc");
        RL_NOT_NULL(memory_desc, "memory_desc");
        if (which == RELAYOUT_ARG_SRC)
            *memory_desc = reinterpret_cast<const_relayout_memory_desc_t>(&primitive_desc->src_md);
        else if (which == RELAYOUT_ARG_DST)
            *memory_desc = reinterpret_cast<const_relayout_memory_desc_t>(&primitive_desc->dst_md);
        else
            return failf(status_t::invalid_arguments,
                    "query_md: which = %d is neither RELAYOUT_ARG_SRC nor RELAYOUT_ARG_DST", which);
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_desc_clone(relayout_primitive_desc_t *primitive_desc,
        const_relayout_primitive_desc_t existing_primitive_desc) {
    return c_guarded([&] {
        RL_NOT_NULL(primitive_desc, "primitive_desc");
        *primitive_desc = nullptr;
        RL_NOT_NULL(existing_primitive_desc, "existing_primitive_desc");
        *primitive_desc =
                pd_handle(std::make_shared<relayout_primitive_desc>(*existing_primitive_desc));
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_desc_destroy(relayout_primitive_desc_t primitive_desc) {
    // Drops the handle's reference; primitives made from it keep theirs.
    // (A primitive's own descriptor has none: destroying it does nothing.)
    if (primitive_desc)
        std::shared_ptr<relayout_primitive_desc>().swap(primitive_desc->handle_ref.self);
    return relayout_success;
}

relayout_status_t relayout_primitive_create(
        relayout_primitive_t *primitive, const_relayout_primitive_desc_t primitive_desc) {
    return c_guarded([&] {
        RL_NOT_NULL(primitive, "primitive");
        *primitive = nullptr;
        RL_NOT_NULL(primitive_desc, "primitive_desc");
        return primitive_create(*primitive, *primitive_desc);
    });
}

relayout_status_t relayout_primitive_get_primitive_desc(
        const_relayout_primitive_t primitive, const_relayout_primitive_desc_t *primitive_desc) {
    return c_guarded([&] {
        RL_NOT_NULL(primitive, "primitive");
        RL_NOT_NULL(primitive_desc, "primitive_desc");
        *primitive_desc = primitive->pd.get();
        return status_t::success;
    });
}

relayout_status_t relayout_primitive_execute(const_relayout_primitive_t primitive,
        relayout_stream_t stream, int nargs, const relayout_exec_arg_t *args) {
    return c_guarded([&] {
        RL_NOT_NULL(primitive, "primitive");
        RL_NOT_NULL(stream, "stream");
        if (nargs < 0 || (nargs > 0 && !args))
            return fail(status_t::invalid_arguments, "execute: args is NULL or nargs < 0");
        const relayout_memory *src = nullptr;
        relayout_memory *dst = nullptr;
        for (int i = 0; i < nargs; ++i) {
            if (args[i].arg == RELAYOUT_ARG_SRC)
                src = args[i].memory;
            else if (args[i].arg == RELAYOUT_ARG_DST)
                dst = args[i].memory;
            else
                return failf(status_t::invalid_arguments,
                        "execute: args[%d].arg = %d is neither RELAYOUT_ARG_SRC nor "
                        "RELAYOUT_ARG_DST",
                        i, args[i].arg);
        }
        return primitive_execute(*primitive, stream, src, dst);
    });
}

relayout_status_t relayout_primitive_destroy(relayout_primitive_t primitive) {
    delete primitive;
    return relayout_success;
}

} // extern "C"
