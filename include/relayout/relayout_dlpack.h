/*
 * relayout — DLPack interoperability (optional header; DLPack 0.6).
 *
 * Lets a framework hand its tensors to relayout and take relayout's plain
 * results back without a copy. Only this header includes <dlpack/dlpack.h>;
 * relayout.h and relayout.hpp never need it.
 *
 * What maps onto what:
 *   DLTensor.shape / ndim    -> dims (ndim 0, a scalar, becomes dims {1})
 *   DLTensor.strides         -> strides in elements (NULL: compact row-major)
 *   DLTensor.byte_offset     -> the memory's data handle is data + byte_offset
 *                               (must be a multiple of the element size)
 *   DLTensor.dtype           -> kDLFloat 16/32 = f16/f32, kDLBfloat 16 = bf16,
 *                               kDLInt 8/16/32 = s8/s16/s32,
 *                               kDLUInt 8/16 = u8/u16; lanes must be 1
 *   DLTensor.device          -> must be kDLCPU
 * Anything else is an error that names the field (relayout_invalid_arguments
 * for malformed tensors, relayout_unimplemented for valid tensors relayout
 * cannot hold). Negative strides are not supported (relayout descriptors
 * have none).
 *
 * Export: only plain strided descriptors (format_kind blocked, no inner
 * blocks, no padding, no compensation) can be expressed in DLPack; blocked
 * layouts such as aBcd16b fail with relayout_unimplemented. The exported
 * tensor's byte_offset carries the descriptor's offset0.
 */
#ifndef RELAYOUT_RELAYOUT_DLPACK_H
#define RELAYOUT_RELAYOUT_DLPACK_H

#include <dlpack/dlpack.h>

#include "relayout/relayout.h"

#ifdef __cplusplus
extern "C" {
#endif

/** relayout data type of a DLPack dtype; error names the field otherwise. */
RELAYOUT_API relayout_status_t relayout_data_type_from_dlpack(
        DLDataType dtype, relayout_data_type_t *data_type);

/** DLPack dtype of a relayout data type (lanes = 1). */
RELAYOUT_API relayout_status_t relayout_data_type_to_dlpack(
        relayout_data_type_t data_type, DLDataType *dtype);

/** Descriptor of a DLTensor: dims from shape, strides (NULL = compact
 *  row-major), data type from dtype. byte_offset is checked (a multiple of
 *  the element size) but not folded in: see relayout_memory_create_from_dlpack. */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_from_dlpack(
        relayout_memory_desc_t *memory_desc, const DLTensor *tensor);

/** A memory over the DLTensor's data (data + byte_offset), not owning it:
 *  the caller keeps the producer's tensor alive while the memory is used.
 *  engine must be a CPU engine. */
RELAYOUT_API relayout_status_t relayout_memory_create_from_dlpack(
        relayout_memory_t *memory, const DLTensor *tensor, relayout_engine_t engine);

/** 1 if the descriptor can be exported as a DLTensor, 0 otherwise. */
RELAYOUT_API int relayout_memory_desc_is_dlpack_compatible(
        const_relayout_memory_desc_t memory_desc);

/** Exports a memory as a DLManagedTensor and hands the memory over to it:
 *  on success the tensor owns `memory` and its deleter destroys it (call the
 *  deleter exactly once, never relayout_memory_destroy on `memory`). On
 *  failure `*out` is NULL and the caller still owns `memory`. */
RELAYOUT_API relayout_status_t relayout_memory_export_dlpack(
        relayout_memory_t memory, DLManagedTensor **out);

/** Exports a memory as a DLManagedTensor without taking it over: the
 *  deleter calls release(owner) (if release is not NULL), which must keep
 *  the memory and its buffer alive until then. Used by the C++ helpers,
 *  which pass a reference-counted copy of the memory as the owner. */
RELAYOUT_API relayout_status_t relayout_memory_export_dlpack_with_owner(
        const_relayout_memory_t memory, void *owner, void (*release)(void *owner),
        DLManagedTensor **out);

#ifdef __cplusplus
}

#include "relayout/relayout.hpp"

namespace relayout {
namespace dlpack {

/** Descriptor of a DLTensor (see relayout_memory_desc_create_from_dlpack). */
inline memory::desc to_desc(const DLTensor &t) {
    relayout_memory_desc_t md = nullptr;
    error::wrap_c_api(relayout_memory_desc_create_from_dlpack(&md, &t), "dlpack to_desc");
    return memory::desc(md);
}

/** A memory viewing the DLTensor's data; the tensor must outlive it. */
inline memory make_memory(const DLTensor &t, const engine &eng) {
    memory::desc md = to_desc(t); // checks every field, byte_offset included
    void *data = t.data ? static_cast<char *>(t.data) + t.byte_offset : nullptr;
    return memory(md, eng, data);
}

/** Exports a memory; the returned tensor holds a reference to `mem` (and so
 *  to its buffer) until its deleter runs. */
inline DLManagedTensor *to_dlpack(const memory &mem) {
    memory *owner = new memory(mem);
    DLManagedTensor *out = nullptr;
    relayout_status_t st = relayout_memory_export_dlpack_with_owner(
            mem.get(), owner, [](void *p) { delete static_cast<memory *>(p); }, &out);
    if (st != relayout_success) {
        delete owner;
        error::wrap_c_api(st, "dlpack to_dlpack");
    }
    return out;
}

} // namespace dlpack
} // namespace relayout
#endif /* __cplusplus */

#endif /* RELAYOUT_RELAYOUT_DLPACK_H */
