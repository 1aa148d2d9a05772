// DLPack interoperability (include/relayout/relayout_dlpack.h): DLTensor ->
// descriptor / memory, and plain memories -> DLManagedTensor. Every field a
// DLTensor can carry that relayout cannot express is an error naming it.
#include <cstring>
#include <memory>
#include <new>

#include "relayout/relayout_dlpack.h"

#include "common/c_boundary.hpp"
#include "common/status.hpp"
#include "md/memory_desc.hpp"
#include "runtime/objects.hpp"

using namespace relayout::impl;

namespace {

const char *code2str(uint8_t code) {
    switch (code) {
        case kDLInt: return "kDLInt";
        case kDLUInt: return "kDLUInt";
        case kDLFloat: return "kDLFloat";
        case kDLOpaqueHandle: return "kDLOpaqueHandle";
        case kDLBfloat: return "kDLBfloat";
        case kDLComplex: return "kDLComplex";
        default: return "unknown";
    }
}

status_t dt_from_dlpack(DLDataType t, data_type_t &dt) {
    if (t.lanes != 1)
        return failf(status_t::unimplemented,
                "dlpack: dtype.lanes is %u; relayout holds scalar elements only (lanes 1)",
                (unsigned)t.lanes);
    dt = relayout_data_type_undef;
    switch (t.code) {
        case kDLFloat:
            if (t.bits == 16) dt = relayout_f16;
            if (t.bits == 32) dt = relayout_f32;
            break;
        case kDLBfloat:
            if (t.bits == 16) dt = relayout_bf16;
            break;
        case kDLInt:
            if (t.bits == 8) dt = relayout_s8;
            if (t.bits == 16) dt = relayout_s16;
            if (t.bits == 32) dt = relayout_s32;
            break;
        case kDLUInt:
            if (t.bits == 8) dt = relayout_u8;
            if (t.bits == 16) dt = relayout_u16;
            break;
        default: break;
    }
    if (dt == relayout_data_type_undef)
        return failf(status_t::unimplemented,
                "dlpack: dtype {code %s (%u), bits %u} has no relayout data type; supported: "
                "kDLFloat 16/32, kDLBfloat 16, kDLInt 8/16/32, kDLUInt 8/16",
                code2str(t.code), (unsigned)t.code, (unsigned)t.bits);
    return status_t::success;
}

status_t dt_to_dlpack(data_type_t dt, DLDataType &t) {
    t.lanes = 1;
    switch (dt) {
        case relayout_f16:
            t.code = kDLFloat;
            t.bits = 16;
            break;
        case relayout_f32:
            t.code = kDLFloat;
            t.bits = 32;
            break;
        case relayout_bf16:
            t.code = kDLBfloat;
            t.bits = 16;
            break;
        case relayout_s8:
            t.code = kDLInt;
            t.bits = 8;
            break;
        case relayout_s16:
            t.code = kDLInt;
            t.bits = 16;
            break;
        case relayout_s32:
            t.code = kDLInt;
            t.bits = 32;
            break;
        case relayout_u8:
            t.code = kDLUInt;
            t.bits = 8;
            break;
        case relayout_u16:
            t.code = kDLUInt;
            t.bits = 16;
            break;
        default:
            return failf(status_t::invalid_arguments, "dlpack: data type %d has no DLPack dtype",
                    (int)dt);
    }
    return status_t::success;
}

status_t desc_from_dlpack(const DLTensor *t, memory_desc_t &md) {
    if (!t) return fail(status_t::invalid_arguments, "dlpack: tensor is NULL");
    if (t->device.device_type != kDLCPU)
        return failf(status_t::unimplemented,
                "dlpack: device.device_type is %d; only kDLCPU (%d) tensors are supported",
                (int)t->device.device_type, (int)kDLCPU);
    data_type_t dt;
    RL_CHECK(dt_from_dlpack(t->dtype, dt));
    const size_t esize = data_type_size(dt);
    if (t->byte_offset % esize != 0)
        return failf(status_t::invalid_arguments,
                "dlpack: byte_offset is %llu; it must be a multiple of the element size (%zu)",
                (unsigned long long)t->byte_offset, esize);
    if (t->ndim < 0 || t->ndim > max_ndims)
        return failf(status_t::unimplemented, "dlpack: ndim is %d; relayout supports 0 to %d",
                t->ndim, max_ndims);
    if (t->ndim > 0 && !t->shape) return fail(status_t::invalid_arguments, "dlpack: shape is NULL");
    // A scalar (ndim 0) is a one-element 1D tensor.
    const int ndims = t->ndim == 0 ? 1 : t->ndim;
    dims_t dims, strides;
    bool zero_volume = false;
    for (int d = 0; d < ndims; ++d) {
        dims[d] = t->ndim == 0 ? 1 : t->shape[d];
        if (dims[d] < 0)
            return failf(status_t::invalid_arguments, "dlpack: shape[%d] is %lld; it must be >= 0",
                    d, (long long)dims[d]);
        if (dims[d] == 0) zero_volume = true;
    }
    const bool have_strides = t->ndim > 0 && t->strides;
    if (have_strides) {
        for (int d = 0; d < ndims; ++d) {
            strides[d] = t->strides[d];
            // The stride of a dim with one index is never used: producers
            // put anything there (numpy: 0 or the array's size).
            if (dims[d] <= 1) continue;
            if (strides[d] < 0)
                return failf(status_t::unimplemented,
                        "dlpack: strides[%d] is %lld; negative strides are not supported "
                        "(make the tensor contiguous first)",
                        d, (long long)strides[d]);
        }
        // Normalize the unused strides so the overlap check never sees them.
        for (int d = 0; d < ndims; ++d)
            if (dims[d] <= 1 && strides[d] < 0) strides[d] = 0;
    }
    if (!t->data && !zero_volume)
        return fail(status_t::invalid_arguments, "dlpack: data is NULL for a tensor with elements");
    status_t st = md_init_by_strides(md, ndims, dims, dt, have_strides ? strides : nullptr);
    if (st != status_t::success)
        return fail(st, "dlpack: the tensor's shape/strides are not a valid relayout layout: "
                                + last_error_message());
    return status_t::success;
}

bool desc_is_plain(const memory_desc_t &md, const char **why) {
    auto no = [&](const char *w) {
        if (why) *why = w;
        return false;
    };
    if (md.ndims == 0) return no("the descriptor is empty (zero descriptor)");
    if (md.format_kind != relayout_blocked)
        return no("format_kind is not blocked (images, NPU local memory and 'any' have no "
                  "DLPack form)");
    if (md.blocking.inner_nblks != 0)
        return no("the layout has inner blocks (e.g. aBcd16b); DLPack describes plain "
                  "strided tensors only; reorder to a plain tag first");
    for (int d = 0; d < md.ndims; ++d) {
        if (md.padded_dims[d] != md.dims[d])
            return no("the layout has padded dims; DLPack cannot express padding");
        if (md.padded_offsets[d] != 0) return no("the layout has padded offsets");
    }
    if (md.extra.flags != 0)
        return no("the descriptor has an extra section (compensation / scale_adjust) that "
                  "DLPack cannot carry");
    if (md.offset0 < 0) return no("offset0 is negative");
    return true;
}

// The exported tensor and everything it points at, in one allocation.
struct export_ctx_t {
    DLManagedTensor managed;
    int64_t shape[RELAYOUT_MAX_NDIMS];
    int64_t strides[RELAYOUT_MAX_NDIMS];
    relayout_memory *owned_memory; // export_dlpack: the memory handed over
    void *owner;                   // export_dlpack_with_owner
    void (*release)(void *);
};

void export_deleter(DLManagedTensor *self) {
    if (!self) return;
    auto *ctx = static_cast<export_ctx_t *>(self->manager_ctx);
    if (ctx->owned_memory) relayout_memory_destroy(ctx->owned_memory);
    if (ctx->release) ctx->release(ctx->owner);
    delete ctx;
}

status_t do_export(const relayout_memory *mem, export_ctx_t *&out) {
    out = nullptr;
    if (!mem) return fail(status_t::invalid_arguments, "dlpack export: memory is NULL");
    if (!mem->engine || mem->engine->kind != relayout_cpu)
        return fail(status_t::unimplemented,
                "dlpack export: only cpu memories can be exported (device kDLCPU)");
    const memory_desc_t &md = mem->md;
    const char *why = "";
    if (!desc_is_plain(md, &why)) return failf(status_t::unimplemented, "dlpack export: %s", why);
    DLDataType dtype;
    RL_CHECK(dt_to_dlpack(md.data_type, dtype));
    if (!mem->handle && !has_zero_dim(md))
        return fail(status_t::invalid_arguments, "dlpack export: the memory has no data handle");
    auto *ctx = new (std::nothrow) export_ctx_t();
    if (!ctx) return fail(status_t::out_of_memory, "dlpack export: out of memory");
    for (int d = 0; d < md.ndims; ++d) {
        ctx->shape[d] = md.dims[d];
        ctx->strides[d] = md.blocking.strides[d];
    }
    DLTensor &t = ctx->managed.dl_tensor;
    t.data = mem->handle;
    t.device.device_type = kDLCPU;
    t.device.device_id = 0;
    t.ndim = md.ndims;
    t.dtype = dtype;
    t.shape = ctx->shape;
    t.strides = ctx->strides;
    t.byte_offset = static_cast<uint64_t>(md.offset0) * data_type_size(md.data_type);
    ctx->managed.manager_ctx = ctx;
    ctx->managed.deleter = export_deleter;
    out = ctx;
    return status_t::success;
}

} // namespace

extern "C" {

relayout_status_t relayout_data_type_from_dlpack(
        DLDataType dtype, relayout_data_type_t *data_type) {
    return c_guarded([&] {
        RL_NOT_NULL(data_type, "data_type");
        return dt_from_dlpack(dtype, *data_type);
    });
}

relayout_status_t relayout_data_type_to_dlpack(relayout_data_type_t data_type, DLDataType *dtype) {
    return c_guarded([&] {
        RL_NOT_NULL(dtype, "dtype");
        return dt_to_dlpack(data_type, *dtype);
    });
}

relayout_status_t relayout_memory_desc_create_from_dlpack(
        relayout_memory_desc_t *memory_desc, const DLTensor *tensor) {
    return c_guarded([&] {
        RL_NOT_NULL(memory_desc, "memory_desc");
        *memory_desc = nullptr;
        memory_desc_t md;
        RL_CHECK(desc_from_dlpack(tensor, md));
        auto *h = new (std::nothrow) relayout_memory_desc;
        if (!h) return fail(status_t::out_of_memory, "dlpack: out of memory");
        h->md = md;
        *memory_desc = h;
        return status_t::success;
    });
}

relayout_status_t relayout_memory_create_from_dlpack(
        relayout_memory_t *memory, const DLTensor *tensor, relayout_engine_t engine) {
    return c_guarded([&] {
        RL_NOT_NULL(memory, "memory");
        *memory = nullptr;
        RL_NOT_NULL(engine, "engine");
        if (engine->kind != relayout_cpu)
            return fail(status_t::unimplemented,
                    "dlpack: the engine must be a cpu engine (the tensor is kDLCPU)");
        relayout_memory_desc md;
        RL_CHECK(desc_from_dlpack(tensor, md.md));
        void *data =
                tensor->data ? static_cast<char *>(tensor->data) + tensor->byte_offset : nullptr;
        return static_cast<status_t>(relayout_memory_create(memory, &md, engine, data));
    });
}

int relayout_memory_desc_is_dlpack_compatible(const_relayout_memory_desc_t memory_desc) {
    if (!memory_desc) return 0;
    return desc_is_plain(memory_desc->md, nullptr) ? 1 : 0;
}

relayout_status_t relayout_memory_export_dlpack(relayout_memory_t memory, DLManagedTensor **out) {
    return c_guarded([&] {
        RL_NOT_NULL(out, "out");
        *out = nullptr;
        export_ctx_t *ctx = nullptr;
        RL_CHECK(do_export(memory, ctx));
        ctx->owned_memory = memory;
        *out = &ctx->managed;
        return status_t::success;
    });
}

relayout_status_t relayout_memory_export_dlpack_with_owner(const_relayout_memory_t memory,
        void *owner, void (*release)(void *owner), DLManagedTensor **out) {
    return c_guarded([&] {
        RL_NOT_NULL(out, "out");
        *out = nullptr;
        export_ctx_t *ctx = nullptr;
        RL_CHECK(do_export(memory, ctx));
        ctx->owner = owner;
        ctx->release = release;
        *out = &ctx->managed;
        return status_t::success;
    });
}

} // extern "C"
