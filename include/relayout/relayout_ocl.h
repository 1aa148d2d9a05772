/*
 * relayout — OpenCL interoperability (optional header; the only public
 * header with OpenCL types).
 *
 * The ocl engine (relayout_engine_create(&e, relayout_ocl, index)) runs on
 * one OpenCL device: index 0 is RELAYOUT_OCL_DEVICE=<platform>:<device> (or
 * =<flat index>) when set, else the first GPU, else the first device; the
 * other indices are the remaining devices in platform order. Engines of one
 * index share one cl_context and in-order queue. This header makes engines
 * over the application's own context/device/queue and exchanges cl_mem
 * objects:
 *
 *   memory on the ocl engine   handle (relayout_memory_create, set/get
 *                              data handle) is a cl_mem: a buffer for
 *                              blocked descriptors (CL_MEM_SIZE >= the
 *                              descriptor's size), an RGBA 2D image of the
 *                              descriptor's shape and pixel type for image2d
 *                              descriptors (relayout_image.h). A user cl_mem
 *                              is checked (type, size or shape and format,
 *                              context) and retained while the memory uses it.
 *
 * Execution: reorders between ocl memories are enqueued on the engine's
 * queue and may still run when execute returns (relayout_stream_wait
 * waits). Reorders with a cpu memory are blocking with respect to the host
 * buffer: it has been read (or written) completely when execute returns.
 */
#ifndef RELAYOUT_RELAYOUT_OCL_H
#define RELAYOUT_RELAYOUT_OCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "relayout/relayout.h"
#include "relayout/relayout_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An ocl engine on the user's context and device. queue may be NULL (an
 *  in-order queue is created on (context, device)); when given it must
 *  belong to context and device (device may then be NULL) and is used for
 *  all work. The objects are retained by the engine. */
RELAYOUT_API relayout_status_t relayout_ocl_engine_create(
        relayout_engine_t *engine, cl_device_id device, cl_context context, cl_command_queue queue);

/** The engine's context, device and queue (not retained for the caller). */
RELAYOUT_API relayout_status_t relayout_ocl_engine_get_context(
        const_relayout_engine_t engine, cl_context *context);
RELAYOUT_API relayout_status_t relayout_ocl_engine_get_device(
        const_relayout_engine_t engine, cl_device_id *device);
RELAYOUT_API relayout_status_t relayout_ocl_engine_get_queue(
        const_relayout_engine_t engine, cl_command_queue *queue);

/** A memory on an ocl engine over the user's cl_mem (buffer or image, see
 *  above); mem_object may be NULL (no storage yet). */
RELAYOUT_API relayout_status_t relayout_ocl_memory_create(relayout_memory_t *memory,
        const_relayout_memory_desc_t memory_desc, relayout_engine_t engine, cl_mem mem_object);

/** The cl_mem of a memory on an ocl engine (not retained for the caller). */
RELAYOUT_API relayout_status_t relayout_ocl_memory_get_mem_object(
        const_relayout_memory_t memory, cl_mem *mem_object);

/** Replaces the memory's cl_mem (checked like at creation). */
RELAYOUT_API relayout_status_t relayout_ocl_memory_set_mem_object(
        relayout_memory_t memory, cl_mem mem_object);

/** The OpenCL C the reorder generates, step by step ("// ---- step N:"
 *  headers; empty when it runs no device kernel), for kernel authors. The
 *  text stays valid until the next call on the same thread.
 *  relayout_invalid_arguments for a primitive descriptor that is not
 *  "ocl:gen". */
RELAYOUT_API relayout_status_t relayout_ocl_primitive_desc_query_source(
        const_relayout_primitive_desc_t primitive_desc, const char **source);

#ifdef __cplusplus
}
#endif

#endif /* RELAYOUT_RELAYOUT_OCL_H */
