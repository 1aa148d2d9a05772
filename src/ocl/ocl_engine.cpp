// The ocl engine: device selection, memories on the device, streams.
// (Its existence also switches RELAYOUT_WITH_OPENCL on in src/CMakeLists.txt.)
#include "ocl/ocl_engine.hpp"

#include <atomic>
#include <cinttypes>
#include <map>
#include <mutex>
#include <new>
#include <vector>

#include "ocl/image_md.hpp"
#include "ocl/ocl_api.hpp"
#include "ref/ref_reorder.hpp"
#include "runtime/impl_list.hpp"

namespace relayout {
namespace impl {
namespace ocl {

namespace {

// Contexts of the device-index engines, shared while any engine or cached
// kernel holds them.
std::mutex &shared_m() {
    static std::mutex m;
    return m;
}
std::map<size_t, std::weak_ptr<context_t>> &shared_contexts() {
    static auto *m = new std::map<size_t, std::weak_ptr<context_t>>();
    return *m;
}

std::atomic<size_t> next_interop_index{ interop_index_base };

status_t make_context(size_t index, std::shared_ptr<context_t> *out) {
    std::unique_ptr<context_t> def;
    RL_CHECK(context_t::create(&def, nullptr)); // RELAYOUT_OCL_DEVICE or first GPU/device
    if (index == 0) {
        out->reset(def.release());
        return status_t::success;
    }
    // Index k >= 1: the k-th of the other devices, in enumeration order.
    std::vector<device_entry_t> devs;
    RL_CHECK(enumerate_devices(&devs));
    size_t k = 0;
    for (size_t flat = 0; flat < devs.size(); ++flat) {
        if (devs[flat].device == def->device()) continue;
        if (++k == index) {
            std::unique_ptr<context_t> c;
            RL_CHECK(context_t::create(&c, std::to_string(flat).c_str()));
            out->reset(c.release());
            return status_t::success;
        }
    }
    return failf(status_t::invalid_arguments,
            "ocl engine index %zu is out of range: there are %zu OpenCL devices", index,
            devs.size());
}

status_t mem_context(cl_mem mem, cl_context *c) {
    RL_CL_CHECK(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof(*c), c, nullptr));
    return status_t::success;
}

// Zero-fills the padding of a blocked descriptor held by a device buffer
// (through the host: only descriptors with padding pay for it).
status_t zero_pad_device(context_t &ctx, const memory_desc_t &md, cl_mem mem) {
    if (md.format_kind != relayout_blocked || !md_has_padding(md) || has_zero_dim(md))
        return status_t::success;
    const size_t size = md_size(md);
    std::vector<unsigned char> host(size);
    RL_CL_CHECK(clEnqueueReadBuffer(
            ctx.queue(), mem, CL_TRUE, 0, size, host.data(), 0, nullptr, nullptr));
    RL_CHECK(zero_pad(md, host.data()));
    RL_CL_CHECK(clEnqueueWriteBuffer(
            ctx.queue(), mem, CL_TRUE, 0, size, host.data(), 0, nullptr, nullptr));
    return status_t::success;
}

} // namespace

status_t ocl_engine_t::adopt(relayout_memory &m, cl_mem mem) {
    const memory_desc_t &md = m.md;
    if (md.format_kind == relayout_format_kind_image2d) {
        image_desc_t img;
        RL_CHECK(image_md_get(md, &img, "memory"));
        if (image_desc_is_zero_volume(img)) return status_t::success;
        RL_CHECK(check_image_object(*ctx_, img, mem, "memory (user cl_mem)"));
        return status_t::success;
    }
    if (md.format_kind != relayout_blocked)
        return failf(status_t::invalid_arguments,
                "memory: the ocl engine holds blocked and image2d descriptors, not format kind "
                "%d",
                (int)md.format_kind);
    cl_mem_object_type t = 0;
    RL_CL_CHECK(clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof(t), &t, nullptr));
    if (t != CL_MEM_OBJECT_BUFFER)
        return fail(status_t::invalid_arguments,
                "memory (user cl_mem): a blocked descriptor needs a cl_mem buffer, not an image");
    cl_context c = nullptr;
    RL_CHECK(mem_context(mem, &c));
    if (c != ctx_->ctx())
        return fail(status_t::invalid_arguments,
                "memory (user cl_mem): the cl_mem belongs to another cl_context than the "
                "engine's");
    size_t size = 0;
    RL_CL_CHECK(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(size), &size, nullptr));
    if (size < md_size(md))
        return failf(status_t::invalid_arguments,
                "memory (user cl_mem): the buffer holds %zu bytes, the descriptor needs %zu", size,
                md_size(md));
    return zero_pad_device(*ctx_, md, mem);
}

status_t ocl_engine_t::init_memory(relayout_memory &m, void *handle) {
    m.handle = nullptr;
    if (handle == RELAYOUT_MEMORY_NONE) return status_t::success;
    const memory_desc_t &md = m.md;
    if (handle != RELAYOUT_MEMORY_ALLOCATE) {
        cl_mem mem = static_cast<cl_mem>(handle);
        RL_CHECK(adopt(m, mem));
        RL_CL_CHECK(clRetainMemObject(mem));
        m.handle = mem;
        return status_t::success;
    }
    if (md.format_kind == relayout_format_kind_image2d) {
        image_desc_t img;
        RL_CHECK(image_md_get(md, &img, "memory"));
        if (image_desc_is_zero_volume(img)) return status_t::success;
        cl_ref_t<cl_mem> mem;
        RL_CHECK(create_image(*ctx_, img, &mem));
        // Zero pixels: a fresh image reads as zeros, like a fresh buffer.
        const cl_float4 zero = { { 0.f, 0.f, 0.f, 0.f } };
        int64_t w = 0, h = 0;
        RL_CHECK(image_desc_shape(img, &w, &h));
        const size_t origin[3] = { 0, 0, 0 };
        const size_t region[3] = { static_cast<size_t>(w), static_cast<size_t>(h), 1 };
        RL_CL_CHECK(clEnqueueFillImage(
                ctx_->queue(), mem.get(), &zero, origin, region, 0, nullptr, nullptr));
        RL_CHECK(ctx_->finish());
        m.handle = mem.detach();
        return status_t::success;
    }
    if (md.format_kind != relayout_blocked)
        return failf(status_t::invalid_arguments,
                "memory: the ocl engine holds blocked and image2d descriptors, not format kind "
                "%d",
                (int)md.format_kind);
    const size_t size = md_size(md);
    if (size == 0) return status_t::success; // zero volume: no buffer
    cl_ref_t<cl_mem> mem;
    RL_CHECK(create_buffer(*ctx_, size, &mem));
    // Zero the whole buffer: padding and compensation included.
    const cl_uchar zero = 0;
    RL_CL_CHECK(clEnqueueFillBuffer(
            ctx_->queue(), mem.get(), &zero, sizeof(zero), 0, size, 0, nullptr, nullptr));
    RL_CHECK(ctx_->finish());
    m.handle = mem.detach();
    return status_t::success;
}

status_t ocl_engine_t::set_memory_handle(relayout_memory &m, void *handle) {
    cl_mem mem = static_cast<cl_mem>(handle);
    if (mem) {
        RL_CHECK(adopt(m, mem));
        RL_CL_CHECK(clRetainMemObject(mem));
    }
    release_memory(m);
    m.handle = mem;
    return status_t::success;
}

void ocl_engine_t::release_memory(relayout_memory &m) {
    // Every handle the memory holds carries one reference of ours.
    if (m.handle) clReleaseMemObject(static_cast<cl_mem>(m.handle));
    m.handle = nullptr;
}

status_t ocl_engine_t::wait_stream(relayout_stream &) {
    return ctx_->finish();
}

const reorder_impl_t *ocl_engine_t::reorder_impl() const {
    return &ocl_gen_impl;
}

status_t ocl_engine_create_from(
        relayout_engine *&engine, cl_context ctx, cl_device_id dev, cl_command_queue queue) {
    std::unique_ptr<context_t> c;
    RL_CHECK(context_t::create_from(&c, ctx, dev, queue));
    std::shared_ptr<context_t> sc(c.release());
    engine = new (std::nothrow) ocl_engine_t(next_interop_index++, std::move(sc));
    return engine ? status_t::success : fail(status_t::out_of_memory, "engine: out of memory");
}

} // namespace ocl

status_t ocl_engine_get_count(size_t &count) {
    std::vector<ocl::device_entry_t> devs;
    if (ocl::enumerate_devices(&devs) != status_t::success) devs.clear();
    count = devs.size();
    return status_t::success;
}

status_t ocl_engine_create(relayout_engine *&engine, size_t index) {
    size_t count = 0;
    RL_CHECK(ocl_engine_get_count(count));
    if (count == 0)
        return fail(status_t::unimplemented,
                "the ocl engine is not available: no OpenCL platform or device found (is an "
                "ICD such as pocl-opencl-icd installed?)");
    if (index >= count)
        return failf(status_t::invalid_arguments,
                "ocl engine index %zu is out of range: there are %zu OpenCL devices", index, count);
    std::shared_ptr<ocl::context_t> ctx;
    {
        std::lock_guard<std::mutex> lock(ocl::shared_m());
        auto &map = ocl::shared_contexts();
        ctx = map[index].lock();
        if (!ctx) {
            RL_CHECK(ocl::make_context(index, &ctx));
            map[index] = ctx;
        }
    }
    engine = new (std::nothrow) ocl::ocl_engine_t(index, std::move(ctx));
    return engine ? status_t::success : fail(status_t::out_of_memory, "engine: out of memory");
}

} // namespace impl
} // namespace relayout
