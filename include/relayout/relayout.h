/*
 * relayout — C API. This is the ABI: every function returns a status and
 * writes its results through out-pointers; handles are opaque.
 *
 * On failure a function returns a status other than relayout_success and
 * leaves a message for the calling thread that names the bad argument:
 * relayout_get_last_error_message(). Nothing is ever written through an
 * out-pointer on failure except that created handles are set to NULL.
 */
#ifndef RELAYOUT_RELAYOUT_H
#define RELAYOUT_RELAYOUT_H

#include "relayout/relayout_config.h"
#include "relayout/relayout_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- library ----------------------------------------------------------- */

/** Version of the library that is linked. */
RELAYOUT_API const relayout_version_t *relayout_version(void);

/** Message of the last failed call on this thread ("" when none). */
RELAYOUT_API const char *relayout_get_last_error_message(void);

/** Verbosity: 0 none, 1 creation and execution lines, 2 also plans.
 *  Overrides RELAYOUT_VERBOSE. */
RELAYOUT_API relayout_status_t relayout_set_verbose(int level);

/** Caps the CPU ISA used by kernels created afterwards; wins over the
 *  RELAYOUT_MAX_CPU_ISA environment variable. */
RELAYOUT_API relayout_status_t relayout_set_max_cpu_isa(relayout_cpu_isa_t isa);

/** The ISA kernels are generated for: the CPU's best, under the cap. */
RELAYOUT_API relayout_cpu_isa_t relayout_get_effective_cpu_isa(void);

/** Caps the number of threads used to execute reorders (0: no cap).
 *  Overrides RELAYOUT_NUM_THREADS. */
RELAYOUT_API relayout_status_t relayout_set_num_threads(int nthr);

/** Capacity of the primitive cache (0 disables it). Overrides
 *  RELAYOUT_CACHE_CAPACITY. */
RELAYOUT_API relayout_status_t relayout_set_primitive_cache_capacity(int capacity);
RELAYOUT_API relayout_status_t relayout_get_primitive_cache_capacity(int *capacity);

/** Name of a data type ("f32"), format kind or status. */
RELAYOUT_API const char *relayout_dt2str(relayout_data_type_t dt);
RELAYOUT_API const char *relayout_status2str(relayout_status_t status);
/** Canonical string of a format tag ("aBcd16b"), or NULL if not a tag. */
RELAYOUT_API const char *relayout_fmt_tag2str(relayout_format_tag_t tag);
/** Size of one element of a data type in bytes (0 for undef). */
RELAYOUT_API size_t relayout_data_type_size(relayout_data_type_t dt);

/* ---- memory descriptors ------------------------------------------------ */

/** Descriptor from dims and a format tag (or relayout_format_tag_any). */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_with_tag(
        relayout_memory_desc_t *memory_desc, int ndims, const relayout_dims_t dims,
        relayout_data_type_t data_type, relayout_format_tag_t tag);

/** Descriptor from dims and a string tag such as "aBcd16b" or "abx". */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_with_string_tag(
        relayout_memory_desc_t *memory_desc, int ndims, const relayout_dims_t dims,
        relayout_data_type_t data_type, const char *tag);

/** Descriptor from dims and strides (elements). Gaps and 0-stride
 *  (broadcast) dims are allowed; overlapping dims are rejected. NULL
 *  strides means dense row-major. */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_with_strides(
        relayout_memory_desc_t *memory_desc, int ndims, const relayout_dims_t dims,
        relayout_data_type_t data_type, const relayout_dims_t strides);

/** Descriptor with explicit blocking: outer strides and inner blocks
 *  (outermost to innermost). */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_with_blocking(
        relayout_memory_desc_t *memory_desc, int ndims, const relayout_dims_t dims,
        relayout_data_type_t data_type, const relayout_dims_t strides, int inner_nblks,
        const relayout_dims_t inner_blks, const relayout_dims_t inner_idxs);

/** A region of a descriptor; offsets must be multiples of the blocks. */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_submemory(
        relayout_memory_desc_t *memory_desc, const_relayout_memory_desc_t parent,
        const relayout_dims_t dims, const relayout_dims_t offsets);

/** Reshape (add/remove size-1 dims, split/join dense unpadded dims). */
RELAYOUT_API relayout_status_t relayout_memory_desc_reshape(relayout_memory_desc_t *out_memory_desc,
        const_relayout_memory_desc_t in_memory_desc, int ndims, const relayout_dims_t dims);

/** Permute axes: out.dims[perm[i]] = in.dims[i]. */
RELAYOUT_API relayout_status_t relayout_memory_desc_permute_axes(
        relayout_memory_desc_t *out_memory_desc, const_relayout_memory_desc_t in_memory_desc,
        const int *permutation);

/** Sets the extra section (compensation flags, masks, scale_adjust). */
RELAYOUT_API relayout_status_t relayout_memory_desc_set_extra(relayout_memory_desc_t memory_desc,
        uint64_t flags, int compensation_mask, int asymm_compensation_mask, float scale_adjust);

RELAYOUT_API relayout_status_t relayout_memory_desc_clone(
        relayout_memory_desc_t *memory_desc, const_relayout_memory_desc_t existing_memory_desc);

RELAYOUT_API relayout_status_t relayout_memory_desc_destroy(relayout_memory_desc_t memory_desc);

/** Queries a field; see relayout_query_t for the type of `result`. */
RELAYOUT_API relayout_status_t relayout_memory_desc_query(
        const_relayout_memory_desc_t memory_desc, relayout_query_t what, void *result);

/** Bytes needed by a buffer of this descriptor, padding and compensation
 *  included; 0 for zero-volume descriptors. */
RELAYOUT_API size_t relayout_memory_desc_get_size(const_relayout_memory_desc_t memory_desc);

/** 1 if equal, 0 otherwise (two zero descriptors are equal). */
RELAYOUT_API int relayout_memory_desc_equal(
        const_relayout_memory_desc_t lhs, const_relayout_memory_desc_t rhs);

/** Writes a one-line description ("f32:aBcd16b:2x17x5x3") into buf. */
RELAYOUT_API relayout_status_t relayout_memory_desc_to_string(
        const_relayout_memory_desc_t memory_desc, char *buf, size_t size);

/* ---- engines and streams ----------------------------------------------- */

RELAYOUT_API relayout_status_t relayout_engine_get_count(
        relayout_engine_kind_t kind, size_t *count);
RELAYOUT_API relayout_status_t relayout_engine_create(
        relayout_engine_t *engine, relayout_engine_kind_t kind, size_t index);
RELAYOUT_API relayout_status_t relayout_engine_get_kind(
        const_relayout_engine_t engine, relayout_engine_kind_t *kind);
RELAYOUT_API relayout_status_t relayout_engine_destroy(relayout_engine_t engine);

RELAYOUT_API relayout_status_t relayout_stream_create(
        relayout_stream_t *stream, relayout_engine_t engine, unsigned flags);
RELAYOUT_API relayout_status_t relayout_stream_get_engine(
        const_relayout_stream_t stream, relayout_engine_t *engine);
RELAYOUT_API relayout_status_t relayout_stream_wait(relayout_stream_t stream);
RELAYOUT_API relayout_status_t relayout_stream_destroy(relayout_stream_t stream);

/** The descriptor a format_kind any descriptor becomes on `engine` (its
 *  preferred layout for these dims and data type; the extra section is
 *  kept). Non-any descriptors are returned as copies. cpu: 3-6 dims f32/
 *  bf16/f16 get channels blocked by the ISA's vector width (aBx16b on
 *  avx512_core, aBx8b otherwise), s8/u8 channels last (axb), the rest
 *  plain; ocl: plain. The npu engine has no preference (its layouts need an
 *  address). A reorder into an any destination uses this layout. */
RELAYOUT_API relayout_status_t relayout_memory_desc_create_preferred(
        relayout_memory_desc_t *memory_desc, const_relayout_memory_desc_t any_desc,
        const_relayout_engine_t engine);

/* ---- memory objects ---------------------------------------------------- */

/** handle: a user buffer (not owned), RELAYOUT_MEMORY_ALLOCATE or
 *  RELAYOUT_MEMORY_NONE. A user buffer gets its padding zero-filled. */
RELAYOUT_API relayout_status_t relayout_memory_create(relayout_memory_t *memory,
        const_relayout_memory_desc_t memory_desc, relayout_engine_t engine, void *handle);
RELAYOUT_API relayout_status_t relayout_memory_get_memory_desc(
        const_relayout_memory_t memory, const_relayout_memory_desc_t *memory_desc);
RELAYOUT_API relayout_status_t relayout_memory_get_engine(
        const_relayout_memory_t memory, relayout_engine_t *engine);
RELAYOUT_API relayout_status_t relayout_memory_get_data_handle(
        const_relayout_memory_t memory, void **handle);
/** Sets the buffer and zero-fills its padding area. */
RELAYOUT_API relayout_status_t relayout_memory_set_data_handle(
        relayout_memory_t memory, void *handle);
RELAYOUT_API relayout_status_t relayout_memory_destroy(relayout_memory_t memory);

/* ---- attributes -------------------------------------------------------- */

RELAYOUT_API relayout_status_t relayout_primitive_attr_create(relayout_primitive_attr_t *attr);
RELAYOUT_API relayout_status_t relayout_primitive_attr_clone(
        relayout_primitive_attr_t *attr, const_relayout_primitive_attr_t existing_attr);
RELAYOUT_API relayout_status_t relayout_primitive_attr_destroy(relayout_primitive_attr_t attr);

/** Scales of RELAYOUT_ARG_SRC or RELAYOUT_ARG_DST: mask 0 is one common
 *  value, otherwise bit d set = one value per index of logical dim d
 *  (count = product of the masked dims, in logical row-major order). The
 *  values are copied. Per element: v = src_scale * (src - src_zp), ...,
 *  v = v / dst_scale + dst_zp. */
RELAYOUT_API relayout_status_t relayout_primitive_attr_set_scales(
        relayout_primitive_attr_t attr, int arg, int64_t count, int mask, const float *scales);

/** Common int32 zero point of RELAYOUT_ARG_SRC or RELAYOUT_ARG_DST. */
RELAYOUT_API relayout_status_t relayout_primitive_attr_set_zero_point(
        relayout_primitive_attr_t attr, int arg, int32_t zero_point);

/** The sum post-op: v += beta * (dst_old - dst_zp). beta 0 removes it. */
RELAYOUT_API relayout_status_t relayout_primitive_attr_set_post_ops_sum(
        relayout_primitive_attr_t attr, float beta);

/* ---- reorder ----------------------------------------------------------- */

RELAYOUT_API relayout_status_t relayout_reorder_primitive_desc_create(
        relayout_primitive_desc_t *reorder_primitive_desc, const_relayout_memory_desc_t src_desc,
        relayout_engine_t src_engine, const_relayout_memory_desc_t dst_desc,
        relayout_engine_t dst_engine, const_relayout_primitive_attr_t attr);

/** A chain of reorders mds[0] -> mds[1] -> ... -> mds[n-1], attrs[i] on
 *  step i (attrs may be NULL: no attributes), planned as the single
 *  reorder mds[0] -> mds[n-1] when that gives the same result: every
 *  intermediate descriptor holds the previous values exactly (same data
 *  type, or an exact widening such as s8 -> f32) and only the last step has
 *  attributes. The result is an ordinary reorder primitive descriptor from
 *  mds[0] to mds[n-1] (its plan starts with "chain of"); a chain that is
 *  not equivalent is relayout_unimplemented, naming the step. */
RELAYOUT_API relayout_status_t relayout_reorder_chain_primitive_desc_create(
        relayout_primitive_desc_t *reorder_primitive_desc, int n,
        const const_relayout_memory_desc_t *mds, const const_relayout_primitive_attr_t *attrs,
        relayout_engine_t src_engine, relayout_engine_t dst_engine);

/** Implementation name, e.g. "jit:avx512_core:transpose" or "ref:any". */
RELAYOUT_API relayout_status_t relayout_primitive_desc_query_impl_info(
        const_relayout_primitive_desc_t primitive_desc, const char **impl_info);

/** The plan as one line (see docs/ARCHITECTURE.md, "Planner"). */
RELAYOUT_API relayout_status_t relayout_primitive_desc_query_plan(
        const_relayout_primitive_desc_t primitive_desc, const char **plan);

/** The source (which = RELAYOUT_ARG_SRC) or destination descriptor; the
 *  result is owned by the primitive descriptor. */
RELAYOUT_API relayout_status_t relayout_primitive_desc_query_md(
        const_relayout_primitive_desc_t primitive_desc, int which,
        const_relayout_memory_desc_t *memory_desc);

RELAYOUT_API relayout_status_t relayout_primitive_desc_clone(
        relayout_primitive_desc_t *primitive_desc,
        const_relayout_primitive_desc_t existing_primitive_desc);
RELAYOUT_API relayout_status_t relayout_primitive_desc_destroy(
        relayout_primitive_desc_t primitive_desc);

RELAYOUT_API relayout_status_t relayout_primitive_create(
        relayout_primitive_t *primitive, const_relayout_primitive_desc_t primitive_desc);
RELAYOUT_API relayout_status_t relayout_primitive_get_primitive_desc(
        const_relayout_primitive_t primitive, const_relayout_primitive_desc_t *primitive_desc);

/** Runs the reorder: args must hold RELAYOUT_ARG_SRC and RELAYOUT_ARG_DST
 *  with descriptors equal to the primitive descriptor's.
 *
 *  In place: src and dst may be the same buffer only when their
 *  descriptors are identical (an element-wise conversion of one layout,
 *  e.g. scaling f32 data in place); any other overlap of the two buffers
 *  ([handle, handle + get_size()) on the cpu) is refused with
 *  relayout_invalid_arguments, since a layout change would read data it
 *  has already overwritten. */
RELAYOUT_API relayout_status_t relayout_primitive_execute(const_relayout_primitive_t primitive,
        relayout_stream_t stream, int nargs, const relayout_exec_arg_t *args);

RELAYOUT_API relayout_status_t relayout_primitive_destroy(relayout_primitive_t primitive);

#ifdef __cplusplus
}
#endif

#endif /* RELAYOUT_RELAYOUT_H */
