/*
 * relayout — C types shared by the C API (relayout.h) and the C++ API
 * (relayout.hpp). Everything here is part of the ABI: values never change.
 */
#ifndef RELAYOUT_RELAYOUT_TYPES_H
#define RELAYOUT_RELAYOUT_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of logical dimensions of a memory descriptor. */
#define RELAYOUT_MAX_NDIMS 12

/** Status returned by every C API function. */
typedef enum {
    relayout_success = 0,           /**< the call succeeded */
    relayout_out_of_memory = 1,     /**< an allocation failed */
    relayout_invalid_arguments = 2, /**< an argument is wrong: see the message */
    relayout_unimplemented = 3,     /**< valid, but not supported (yet) */
    relayout_runtime_error = 5,     /**< an engine or the OS failed */
    relayout_not_required = 6,      /**< the queried item does not exist */
} relayout_status_t;

/** Element data types. */
typedef enum {
    relayout_data_type_undef = 0,
    relayout_f16 = 1,  /**< IEEE half precision */
    relayout_bf16 = 2, /**< bfloat16: 8-bit exponent, 7-bit mantissa */
    relayout_f32 = 3,  /**< IEEE single precision */
    relayout_s32 = 4,
    relayout_s8 = 5,
    relayout_u8 = 6,
    relayout_s16 = 7,
    relayout_u16 = 8,
} relayout_data_type_t;

/** How a memory descriptor describes its physical layout. */
typedef enum {
    relayout_format_kind_undef = 0,
    relayout_format_kind_any = 1,       /**< to be chosen by the library */
    relayout_blocked = 2,               /**< strides + inner blocks (the oneDNN model) */
    relayout_format_kind_image2d = 3,   /**< an OpenCL RGBA 2D image */
    relayout_format_kind_npu_local = 4, /**< an NPU's local memory */
} relayout_format_kind_t;

/** Format tags; the list lives in relayout_format_tags.h. */
typedef enum {
    relayout_format_tag_undef = 0,
    relayout_format_tag_any = 1,
#define RELAYOUT_TAG(name, str) relayout_##name,
#define RELAYOUT_TAG_ALIAS(alias, name)
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
    relayout_format_tag_last,
#define RELAYOUT_TAG(name, str)
#define RELAYOUT_TAG_ALIAS(alias, name) relayout_##alias = relayout_##name,
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
} relayout_format_tag_t;

/** Flags of the descriptor's extra section (int8 weights compensation). */
typedef enum {
    relayout_extra_flag_none = 0u,
    /** int32 buffer after the data: comp = -128 * sum of the reduced q(w) */
    relayout_extra_flag_compensation_conv_s8s8 = 1u,
    /** scale_adjust multiplies the weights before rounding */
    relayout_extra_flag_scale_adjust = 2u,
    /** int32 buffer: zp_comp = -sum of the reduced q(w) */
    relayout_extra_flag_compensation_conv_asymmetric_src = 8u,
} relayout_extra_flags_t;

/** Engine kinds. */
typedef enum {
    relayout_any_engine = 0,
    relayout_cpu = 1,
    relayout_ocl = 2, /**< OpenCL device (images and buffers) */
    relayout_npu = 3, /**< NPU local memory (simulated) */
} relayout_engine_kind_t;

/** CPU instruction sets. A cap admits every ISA up to it in the order
 * none < avx2 < avx512_core < avx512_core_bf16 < all, which is not the
 * order of the values: they are fixed (ABI), and avx512_core_bf16 came
 * after all. Do not compare the values. */
typedef enum {
    relayout_cpu_isa_default = 0, /**< no cap: everything the CPU has */
    relayout_cpu_isa_none = 1,    /**< reference code only */
    relayout_cpu_isa_avx2 = 2,
    relayout_cpu_isa_avx512_core = 3,
    relayout_cpu_isa_all = 4,
    relayout_cpu_isa_avx512_core_bf16 = 5, /**< avx512_core with AVX512_BF16 */
} relayout_cpu_isa_t;

/** Argument kinds for relayout_primitive_execute(). */
#define RELAYOUT_ARG_SRC 1
#define RELAYOUT_ARG_FROM RELAYOUT_ARG_SRC
#define RELAYOUT_ARG_DST 17
#define RELAYOUT_ARG_TO RELAYOUT_ARG_DST

/** relayout_memory_create(): let the library allocate the buffer. */
#define RELAYOUT_MEMORY_ALLOCATE ((void *)(size_t)-1)
/** relayout_memory_create(): no buffer for now. */
#define RELAYOUT_MEMORY_NONE ((void *)NULL)

/** Kinds of relayout_memory_desc_query(). */
typedef enum {
    relayout_query_ndims_s32 = 1,               /**< int */
    relayout_query_dims,                        /**< const relayout_dim_t ** (ndims values) */
    relayout_query_data_type,                   /**< relayout_data_type_t */
    relayout_query_padded_dims,                 /**< const relayout_dim_t ** */
    relayout_query_padded_offsets,              /**< const relayout_dim_t ** */
    relayout_query_offset0_s64,                 /**< relayout_dim_t */
    relayout_query_format_kind,                 /**< relayout_format_kind_t */
    relayout_query_strides,                     /**< const relayout_dim_t ** */
    relayout_query_inner_nblks_s32,             /**< int */
    relayout_query_inner_blks,                  /**< const relayout_dim_t ** */
    relayout_query_inner_idxs,                  /**< const relayout_dim_t ** */
    relayout_query_size_s64,                    /**< size_t: bytes, padding and extra included */
    relayout_query_extra_flags_u64,             /**< uint64_t */
    relayout_query_compensation_mask_s32,       /**< int */
    relayout_query_asymm_compensation_mask_s32, /**< int */
    relayout_query_scale_adjust_f32,            /**< float */
} relayout_query_t;

typedef int64_t relayout_dim_t;
typedef relayout_dim_t relayout_dims_t[RELAYOUT_MAX_NDIMS];

/** One execution argument. */
typedef struct relayout_memory *relayout_memory_t;
typedef const struct relayout_memory *const_relayout_memory_t;
typedef struct {
    int arg; /**< RELAYOUT_ARG_SRC or RELAYOUT_ARG_DST */
    relayout_memory_t memory;
} relayout_exec_arg_t;

/** Opaque handles. */
typedef struct relayout_memory_desc *relayout_memory_desc_t;
typedef const struct relayout_memory_desc *const_relayout_memory_desc_t;
typedef struct relayout_engine *relayout_engine_t;
typedef const struct relayout_engine *const_relayout_engine_t;
typedef struct relayout_stream *relayout_stream_t;
typedef const struct relayout_stream *const_relayout_stream_t;
typedef struct relayout_primitive_attr *relayout_primitive_attr_t;
typedef const struct relayout_primitive_attr *const_relayout_primitive_attr_t;
typedef struct relayout_primitive_desc *relayout_primitive_desc_t;
typedef const struct relayout_primitive_desc *const_relayout_primitive_desc_t;
typedef struct relayout_primitive *relayout_primitive_t;
typedef const struct relayout_primitive *const_relayout_primitive_t;

/** Library version. */
typedef struct {
    int major;
    int minor;
    int patch;
    const char *hash;
} relayout_version_t;

#ifdef __cplusplus
}
#endif

#endif /* RELAYOUT_RELAYOUT_TYPES_H */
