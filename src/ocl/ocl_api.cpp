#include "ocl/ocl_api.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <vector>

#include "jit/ocl/ocl_kernel_gen.hpp"

namespace relayout {
namespace impl {
namespace ocl {

namespace {

cl_image_format image_format(const image_desc_t &d) {
    cl_image_format f;
    f.image_channel_order = CL_RGBA;
    f.image_channel_data_type = d.pixel_dt == relayout_f16 ? CL_HALF_FLOAT : CL_FLOAT;
    return f;
}

status_t check_context(context_t &ctx, cl_mem m, const char *what) {
    cl_context c = nullptr;
    RL_CL_CHECK(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof(c), &c, nullptr));
    if (c != ctx.ctx())
        return failf(
                status_t::invalid_arguments, "%s: the cl_mem belongs to another cl_context", what);
    return status_t::success;
}

// Event duration in ms (device timestamps).
status_t event_ms(cl_event ev, double *ms) {
    cl_ulong t0 = 0, t1 = 0;
    RL_CL_CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, nullptr));
    RL_CL_CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, nullptr));
    *ms = static_cast<double>(t1 - t0) * 1e-6;
    return status_t::success;
}

} // namespace

// Memory objects -------------------------------------------------------------

status_t create_image(
        context_t &ctx, const image_desc_t &d, cl_ref_t<cl_mem> *out, cl_mem_flags flags) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "create_image: null out");
    int64_t w = 0, h = 0;
    RL_CHECK(image_desc_shape(d, &w, &h));
    if (image_desc_is_zero_volume(d)) {
        out->reset();
        return status_t::success;
    }
    RL_CHECK(ctx.check_image_shape(w, h, image_type2str(d.type)));
    const cl_image_format fmt = image_format(d);
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = static_cast<size_t>(w);
    desc.image_height = static_cast<size_t>(h);
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateImage(ctx.ctx(), flags, &fmt, &desc, nullptr, &err);
    if (err != CL_SUCCESS) {
        char detail[128];
        std::snprintf(detail, sizeof(detail), "RGBA %s image %" PRId64 " x %" PRId64,
                d.pixel_dt == relayout_f16 ? "CL_HALF_FLOAT" : "CL_FLOAT", w, h);
        return cl_fail("clCreateImage", err, detail);
    }
    out->reset(m);
    return status_t::success;
}

status_t create_buffer(
        context_t &ctx, size_t bytes, cl_ref_t<cl_mem> *out, const void *host, cl_mem_flags flags) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "create_buffer: null out");
    if (bytes == 0) bytes = 1;
    if (host) flags |= CL_MEM_COPY_HOST_PTR;
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx.ctx(), flags, bytes, const_cast<void *>(host), &err);
    if (err != CL_SUCCESS) {
        const std::string detail = std::to_string(bytes) + " bytes";
        return cl_fail("clCreateBuffer", err, detail.c_str());
    }
    out->reset(m);
    return status_t::success;
}

status_t check_image_object(context_t &ctx, const image_desc_t &d, cl_mem image, const char *what) {
    if (image == nullptr) return failf(status_t::invalid_arguments, "%s: image is null", what);
    cl_mem_object_type t = 0;
    RL_CL_CHECK(clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof(t), &t, nullptr));
    if (t != CL_MEM_OBJECT_IMAGE2D)
        return failf(status_t::invalid_arguments, "%s: the cl_mem is not a 2D image", what);
    RL_CHECK(check_context(ctx, image, what));
    int64_t w = 0, h = 0;
    RL_CHECK(image_desc_shape(d, &w, &h));
    size_t iw = 0, ih = 0;
    cl_image_format f{};
    RL_CL_CHECK(clGetImageInfo(image, CL_IMAGE_WIDTH, sizeof(iw), &iw, nullptr));
    RL_CL_CHECK(clGetImageInfo(image, CL_IMAGE_HEIGHT, sizeof(ih), &ih, nullptr));
    RL_CL_CHECK(clGetImageInfo(image, CL_IMAGE_FORMAT, sizeof(f), &f, nullptr));
    if (static_cast<int64_t>(iw) != w || static_cast<int64_t>(ih) != h)
        return failf(status_t::invalid_arguments,
                "%s: image is %zu x %zu, the %s descriptor needs %" PRId64 " x %" PRId64, what, iw,
                ih, image_type2str(d.type), w, h);
    const cl_image_format need = image_format(d);
    if (f.image_channel_order != need.image_channel_order
            || f.image_channel_data_type != need.image_channel_data_type)
        return failf(status_t::invalid_arguments,
                "%s: image format (order 0x%x, type 0x%x) is not CL_RGBA "
                "with %s",
                what, f.image_channel_order, f.image_channel_data_type,
                d.pixel_dt == relayout_f16 ? "CL_HALF_FLOAT" : "CL_FLOAT");
    return status_t::success;
}

status_t check_buffer_object(context_t &ctx, const buffer_desc_t &d, cl_mem buf, const char *what) {
    if (buf == nullptr) return failf(status_t::invalid_arguments, "%s: buffer is null", what);
    cl_mem_object_type t = 0;
    RL_CL_CHECK(clGetMemObjectInfo(buf, CL_MEM_TYPE, sizeof(t), &t, nullptr));
    if (t != CL_MEM_OBJECT_BUFFER)
        return failf(status_t::invalid_arguments, "%s: the cl_mem is not a buffer", what);
    RL_CHECK(check_context(ctx, buf, what));
    size_t size = 0;
    RL_CL_CHECK(clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof(size), &size, nullptr));
    const int64_t need = buffer_desc_span_bytes(d);
    if (static_cast<int64_t>(size) < need)
        return failf(status_t::invalid_arguments,
                "%s: buffer holds %zu bytes, the descriptor reaches %" PRId64 " bytes", what, size,
                need);
    return status_t::success;
}

status_t read_image(context_t &ctx, const image_desc_t &d, cl_mem image, void *pixels) {
    RL_CHECK(check_image_object(ctx, d, image, "read_image"));
    int64_t w = 0, h = 0;
    RL_CHECK(image_desc_shape(d, &w, &h));
    const size_t origin[3] = { 0, 0, 0 };
    const size_t region[3] = { static_cast<size_t>(w), static_cast<size_t>(h), 1 };
    RL_CL_CHECK(clEnqueueReadImage(
            ctx.queue(), image, CL_TRUE, origin, region, 0, 0, pixels, 0, nullptr, nullptr));
    return status_t::success;
}

status_t write_image(context_t &ctx, const image_desc_t &d, cl_mem image, const void *pixels) {
    RL_CHECK(check_image_object(ctx, d, image, "write_image"));
    int64_t w = 0, h = 0;
    RL_CHECK(image_desc_shape(d, &w, &h));
    const size_t origin[3] = { 0, 0, 0 };
    const size_t region[3] = { static_cast<size_t>(w), static_cast<size_t>(h), 1 };
    RL_CL_CHECK(clEnqueueWriteImage(
            ctx.queue(), image, CL_TRUE, origin, region, 0, 0, pixels, 0, nullptr, nullptr));
    return status_t::success;
}

// Prepared kernels -------------------------------------------------------------

status_t kernel_t::init(
        const std::string &name, const std::string &source, int work_dim, const size_t *global) {
    source_ = source;
    work_dim_ = work_dim;
    global_[0] = global[0];
    global_[1] = work_dim > 1 ? global[1] : 1;
    return ctx_.get_kernel(source_, name, &kernel_, &cache_hit_);
}

status_t kernel_t::create_pack(context_t &ctx, const buffer_desc_t &src, const image_desc_t &dst,
        std::unique_ptr<kernel_t> *out) {
    RL_CHECK(buffer_desc_validate(src, "source", false));
    int64_t cs[4];
    RL_CHECK(buffer_matches_image(src, dst, "source", cs));
    int64_t w = 0, h = 0, img_bytes = 0;
    RL_CHECK(image_desc_shape(dst, &w, &h));
    RL_CHECK(image_desc_size_bytes(dst, &img_bytes));
    std::unique_ptr<kernel_t> k(new kernel_t(ctx));
    k->kind_ = op_kind_t::pack;
    k->img_ = dst;
    k->buf_ = src;
    if (!image_desc_is_zero_volume(dst)) {
        RL_CHECK(ctx.check_image_shape(w, h, image_type2str(dst.type)));
        kernel_source_t ks;
        RL_CHECK(gen_pack_kernel(dst, src, &ks));
        RL_CHECK(k->init(ks.name, ks.source, ks.work_dim, ks.global));
        k->bytes_moved_ = buffer_desc_nelems(src) * data_type_size(src.dt) + img_bytes;
    }
    *out = std::move(k);
    return status_t::success;
}

status_t kernel_t::create_unpack(context_t &ctx, const image_desc_t &src, const buffer_desc_t &dst,
        std::unique_ptr<kernel_t> *out) {
    RL_CHECK(image_desc_validate(src));
    // Refused whatever the shape (zero volume included).
    if (src.type == image_type_t::dw_conv2d_filter || src.type == image_type_t::winograd_filter) {
        kernel_source_t probe;
        return gen_unpack_kernel(src, dst, &probe);
    }
    RL_CHECK(buffer_desc_validate(dst, "destination", true));
    int64_t cs[4];
    RL_CHECK(buffer_matches_image(dst, src, "destination", cs));
    int64_t w = 0, h = 0, img_bytes = 0;
    RL_CHECK(image_desc_shape(src, &w, &h));
    RL_CHECK(image_desc_size_bytes(src, &img_bytes));
    std::unique_ptr<kernel_t> k(new kernel_t(ctx));
    k->kind_ = op_kind_t::unpack;
    k->img_ = src;
    k->buf_ = dst;
    kernel_source_t ks;
    if (!image_desc_is_zero_volume(src)) {
        RL_CHECK(ctx.check_image_shape(w, h, image_type2str(src.type)));
        RL_CHECK(gen_unpack_kernel(src, dst, &ks));
        RL_CHECK(k->init(ks.name, ks.source, ks.work_dim, ks.global));
        k->bytes_moved_ = buffer_desc_nelems(dst) * data_type_size(dst.dt) + img_bytes;
    }
    *out = std::move(k);
    return status_t::success;
}

status_t kernel_t::create_copy(context_t &ctx, const buffer_desc_t &src, const buffer_desc_t &dst,
        std::unique_ptr<kernel_t> *out) {
    RL_CHECK(buffer_desc_validate(src, "source", false));
    RL_CHECK(buffer_desc_validate(dst, "destination", true));
    std::unique_ptr<kernel_t> k(new kernel_t(ctx));
    k->kind_ = op_kind_t::copy;
    k->buf_ = src;
    k->buf2_ = dst;
    if (src.ndims != dst.ndims)
        return failf(status_t::invalid_arguments,
                "buffer copy: source ndims %d != destination ndims %d", src.ndims, dst.ndims);
    for (int i = 0; i < src.ndims; ++i)
        if (src.dims[i] != dst.dims[i])
            return failf(status_t::invalid_arguments,
                    "buffer copy: source dims[%d] = %" PRId64 " != destination dims[%d] = %" PRId64,
                    i, src.dims[i], i, dst.dims[i]);
    const int64_t n = buffer_desc_nelems(src);
    if (n > 0) {
        kernel_source_t ks;
        RL_CHECK(gen_copy_kernel(src, dst, &ks));
        RL_CHECK(k->init(ks.name, ks.source, ks.work_dim, ks.global));
        k->bytes_moved_ = n * (data_type_size(src.dt) + data_type_size(dst.dt));
    }
    *out = std::move(k);
    return status_t::success;
}

status_t kernel_t::execute(cl_mem src, cl_mem dst, cl_event *ev) {
    if (ev) *ev = nullptr;
    if (!kernel_) return status_t::success; // zero volume: touch nothing
    cl_kernel k = kernel_.get();
    std::lock_guard<std::mutex> lock(m_);
    switch (kind_) {
        case op_kind_t::pack: {
            RL_CHECK(check_buffer_object(ctx_, buf_, src, "pack source"));
            RL_CHECK(check_image_object(ctx_, img_, dst, "pack destination"));
            const cl_long off = buf_.offset0;
            RL_CL_CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &src));
            RL_CL_CHECK(clSetKernelArg(k, 1, sizeof(cl_long), &off));
            RL_CL_CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &dst));
            break;
        }
        case op_kind_t::unpack: {
            RL_CHECK(check_image_object(ctx_, img_, src, "unpack source"));
            RL_CHECK(check_buffer_object(ctx_, buf_, dst, "unpack destination"));
            const cl_long off = buf_.offset0;
            RL_CL_CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &src));
            RL_CL_CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &dst));
            RL_CL_CHECK(clSetKernelArg(k, 2, sizeof(cl_long), &off));
            break;
        }
        case op_kind_t::copy: {
            RL_CHECK(check_buffer_object(ctx_, buf_, src, "copy source"));
            RL_CHECK(check_buffer_object(ctx_, buf2_, dst, "copy destination"));
            if (src == dst)
                return fail(status_t::invalid_arguments,
                        "buffer copy: source and destination are the same "
                        "cl_mem (in-place copies are not supported)");
            const cl_long soff = buf_.offset0, doff = buf2_.offset0;
            RL_CL_CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &src));
            RL_CL_CHECK(clSetKernelArg(k, 1, sizeof(cl_long), &soff));
            RL_CL_CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &dst));
            RL_CL_CHECK(clSetKernelArg(k, 3, sizeof(cl_long), &doff));
            break;
        }
    }
    return ctx_.enqueue(k, work_dim_, global_, ev);
}

// One-call conversions --------------------------------------------------------

status_t pack_to_image(context_t &ctx, const buffer_desc_t &src_d, cl_mem src,
        const image_desc_t &dst_d, cl_mem dst) {
    std::unique_ptr<kernel_t> k;
    RL_CHECK(kernel_t::create_pack(ctx, src_d, dst_d, &k));
    return k->execute(src, dst);
}

status_t unpack_from_image(context_t &ctx, const image_desc_t &src_d, cl_mem src,
        const buffer_desc_t &dst_d, cl_mem dst) {
    std::unique_ptr<kernel_t> k;
    RL_CHECK(kernel_t::create_unpack(ctx, src_d, dst_d, &k));
    return k->execute(src, dst);
}

status_t copy_buffer(context_t &ctx, const buffer_desc_t &src_d, cl_mem src,
        const buffer_desc_t &dst_d, cl_mem dst) {
    std::unique_ptr<kernel_t> k;
    RL_CHECK(kernel_t::create_copy(ctx, src_d, dst_d, &k));
    return k->execute(src, dst);
}

status_t pack_host_to_image(context_t &ctx, const buffer_desc_t &src_d, const void *src,
        const image_desc_t &dst_d, cl_mem dst) {
    std::unique_ptr<kernel_t> k;
    RL_CHECK(kernel_t::create_pack(ctx, src_d, dst_d, &k));
    if (k->is_noop()) return status_t::success;
    if (src == nullptr)
        return fail(status_t::invalid_arguments, "pack_host_to_image: source pointer is null");
    const int64_t span = buffer_desc_span_bytes(src_d);
    cl_ref_t<cl_mem> buf;
    RL_CHECK(create_buffer(ctx, static_cast<size_t>(span), &buf, src, CL_MEM_READ_ONLY));
    RL_CHECK(k->execute(buf.get(), dst));
    return ctx.finish();
}

status_t unpack_image_to_host(context_t &ctx, const image_desc_t &src_d, cl_mem src,
        const buffer_desc_t &dst_d, void *dst) {
    std::unique_ptr<kernel_t> k;
    RL_CHECK(kernel_t::create_unpack(ctx, src_d, dst_d, &k));
    if (k->is_noop()) return status_t::success;
    if (dst == nullptr)
        return fail(
                status_t::invalid_arguments, "unpack_image_to_host: destination pointer is null");
    const int64_t span = buffer_desc_span_bytes(dst_d);
    // Start from the host bytes so that gaps come back unchanged.
    cl_ref_t<cl_mem> buf;
    RL_CHECK(create_buffer(ctx, static_cast<size_t>(span), &buf, dst));
    RL_CHECK(k->execute(src, buf.get()));
    RL_CL_CHECK(clEnqueueReadBuffer(ctx.queue(), buf.get(), CL_TRUE, 0, static_cast<size_t>(span),
            dst, 0, nullptr, nullptr));
    return status_t::success;
}

// Performance --------------------------------------------------------------------

status_t measure_pack(context_t &ctx, const buffer_desc_t &src_d, const image_desc_t &dst_d,
        int iters, perf_result_t *out) {
    if (out == nullptr || iters < 1)
        return fail(status_t::invalid_arguments, "measure_pack: need an output and iters >= 1");
    std::unique_ptr<kernel_t> k;
    RL_CHECK(kernel_t::create_pack(ctx, src_d, dst_d, &k));
    if (k->is_noop()) return fail(status_t::invalid_arguments, "measure_pack: zero-volume problem");
    const int64_t span = buffer_desc_span_bytes(src_d);
    std::vector<unsigned char> host(static_cast<size_t>(span), 0);
    cl_ref_t<cl_mem> src, img, ca, cb;
    RL_CHECK(create_buffer(ctx, static_cast<size_t>(span), &src, host.data()));
    RL_CHECK(create_image(ctx, dst_d, &img));
    // The copy moves the same bytes: half read, half written.
    const size_t copy_bytes = std::max<size_t>(static_cast<size_t>(k->bytes_moved() / 2), 4);
    RL_CHECK(create_buffer(ctx, copy_bytes, &ca));
    RL_CHECK(create_buffer(ctx, copy_bytes, &cb));

    auto run = [&](bool kernel, double *ms) -> status_t {
        cl_event ev = nullptr;
        const auto t0 = std::chrono::steady_clock::now();
        if (kernel) {
            RL_CHECK(k->execute(src.get(), img.get(), ctx.profiling_enabled() ? &ev : nullptr));
        } else {
            RL_CL_CHECK(clEnqueueCopyBuffer(ctx.queue(), ca.get(), cb.get(), 0, 0, copy_bytes, 0,
                    nullptr, ctx.profiling_enabled() ? &ev : nullptr));
        }
        cl_ref_t<cl_event> evr(ev);
        RL_CHECK(ctx.finish());
        const auto t1 = std::chrono::steady_clock::now();
        if (ev)
            RL_CHECK(event_ms(ev, ms));
        else
            *ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        return status_t::success;
    };
    double ms = 0;
    RL_CHECK(run(true, &ms)); // warm-up
    RL_CHECK(run(false, &ms));
    perf_result_t r;
    r.iterations = iters;
    r.kernel_ms_min = r.copy_ms_min = 1e30;
    for (int i = 0; i < iters; ++i) {
        RL_CHECK(run(true, &ms));
        r.kernel_ms_min = std::min(r.kernel_ms_min, ms);
        r.kernel_ms_avg += ms / iters;
        RL_CHECK(run(false, &ms));
        r.copy_ms_min = std::min(r.copy_ms_min, ms);
        r.copy_ms_avg += ms / iters;
    }
    r.bytes = k->bytes_moved();
    auto gbps = [](double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0.0; };
    r.kernel_gbps = gbps(static_cast<double>(r.bytes), r.kernel_ms_min);
    r.copy_gbps = gbps(2.0 * static_cast<double>(copy_bytes), r.copy_ms_min);
    *out = r;
    return status_t::success;
}

} // namespace ocl
} // namespace impl
} // namespace relayout
