// relayout_ocl.h: engines over a user's OpenCL objects and cl_mem exchange.
#include "relayout/relayout_ocl.h"

#include "common/c_boundary.hpp"
#include "ocl/ocl_engine.hpp"

using namespace relayout::impl;
using namespace relayout::impl::ocl;

namespace {

status_t get_ocl_engine(const_relayout_engine_t engine, const ocl_engine_t **out) {
    RL_NOT_NULL(engine, "engine");
    *out = as_ocl(engine);
    if (!*out)
        return failf(status_t::invalid_arguments, "engine: kind %d is not relayout_ocl",
                (int)engine->kind);
    return status_t::success;
}

} // namespace

extern "C" {

relayout_status_t relayout_ocl_engine_create(relayout_engine_t *engine, cl_device_id device,
        cl_context context, cl_command_queue queue) {
    return c_guarded([&] {
        RL_NOT_NULL(engine, "engine");
        *engine = nullptr;
        RL_NOT_NULL(context, "context");
        if (!device && !queue)
            return fail(status_t::invalid_arguments, "device is NULL (and no queue given)");
        relayout_engine *e = nullptr;
        RL_CHECK(ocl_engine_create_from(e, context, device, queue));
        *engine = e;
        return status_t::success;
    });
}

relayout_status_t relayout_ocl_engine_get_context(
        const_relayout_engine_t engine, cl_context *context) {
    return c_guarded([&] {
        RL_NOT_NULL(context, "context");
        const ocl_engine_t *e = nullptr;
        RL_CHECK(get_ocl_engine(engine, &e));
        *context = e->ctx().ctx();
        return status_t::success;
    });
}

relayout_status_t relayout_ocl_engine_get_device(
        const_relayout_engine_t engine, cl_device_id *device) {
    return c_guarded([&] {
        RL_NOT_NULL(device, "device");
        const ocl_engine_t *e = nullptr;
        RL_CHECK(get_ocl_engine(engine, &e));
        *device = e->ctx().device();
        return status_t::success;
    });
}

relayout_status_t relayout_ocl_engine_get_queue(
        const_relayout_engine_t engine, cl_command_queue *queue) {
    return c_guarded([&] {
        RL_NOT_NULL(queue, "queue");
        const ocl_engine_t *e = nullptr;
        RL_CHECK(get_ocl_engine(engine, &e));
        *queue = e->ctx().queue();
        return status_t::success;
    });
}

relayout_status_t relayout_ocl_memory_create(relayout_memory_t *memory,
        const_relayout_memory_desc_t memory_desc, relayout_engine_t engine, cl_mem mem_object) {
    return c_guarded([&] {
        RL_NOT_NULL(memory, "memory");
        *memory = nullptr;
        const ocl_engine_t *e = nullptr;
        RL_CHECK(get_ocl_engine(engine, &e));
        // The generic path checks the descriptor and the cl_mem.
        return static_cast<status_t>(
                relayout_memory_create(memory, memory_desc, engine, mem_object));
    });
}

relayout_status_t relayout_ocl_memory_get_mem_object(
        const_relayout_memory_t memory, cl_mem *mem_object) {
    return c_guarded([&] {
        RL_NOT_NULL(memory, "memory");
        RL_NOT_NULL(mem_object, "mem_object");
        if (!as_ocl(memory->engine))
            return fail(status_t::invalid_arguments, "memory: not on an ocl engine");
        *mem_object = static_cast<cl_mem>(memory->handle);
        return status_t::success;
    });
}

relayout_status_t relayout_ocl_memory_set_mem_object(relayout_memory_t memory, cl_mem mem_object) {
    return c_guarded([&] {
        RL_NOT_NULL(memory, "memory");
        if (!as_ocl(memory->engine))
            return fail(status_t::invalid_arguments, "memory: not on an ocl engine");
        return memory->engine->set_memory_handle(*memory, mem_object);
    });
}

relayout_status_t relayout_ocl_primitive_desc_query_source(
        const_relayout_primitive_desc_t primitive_desc, const char **source) {
    return c_guarded([&] {
        RL_NOT_NULL(primitive_desc, "primitive_desc");
        RL_NOT_NULL(source, "source");
        *source = nullptr;
        static thread_local std::string text;
        RL_CHECK(ocl_reorder_sources(*primitive_desc, &text));
        *source = text.c_str();
        return status_t::success;
    });
}

} // extern "C"
