// What the library's integration needs from the OpenCL engine: images and
// buffers, and the three conversions (buffer -> image, image -> buffer,
// buffer -> buffer), either prepared once and executed many times (a
// primitive) or in one call.
//
// Execution is asynchronous on the context's in-order queue; the *_host
// helpers are blocking. Zero-volume problems succeed and touch nothing.
// Every function checks its memory objects before enqueueing anything:
// buffers must hold the descriptor's span (CL_MEM_SIZE), images must have
// the descriptor's shape and format and belong to the context.
#ifndef RELAYOUT_OCL_OCL_API_HPP
#define RELAYOUT_OCL_OCL_API_HPP

#include <memory>
#include <mutex>
#include <string>

#include "ocl/image_desc.hpp"
#include "ocl/ocl_context.hpp"
#include "ocl/ocl_utils.hpp"

namespace relayout {
namespace impl {
namespace ocl {

// Memory objects ---------------------------------------------------------------

// An RGBA image of the descriptor's shape (CL_FLOAT or CL_HALF_FLOAT),
// checked against CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT first. A zero-volume
// descriptor gives a null image and success.
status_t create_image(context_t &ctx, const image_desc_t &d, cl_ref_t<cl_mem> *out,
        cl_mem_flags flags = CL_MEM_READ_WRITE);

// A buffer of `bytes` (at least 1), initialised from `host` when given.
status_t create_buffer(context_t &ctx, size_t bytes, cl_ref_t<cl_mem> *out,
        const void *host = nullptr, cl_mem_flags flags = CL_MEM_READ_WRITE);

// Checks that `image` is a 2D RGBA image of the descriptor's shape and
// pixel type in ctx's context.
status_t check_image_object(context_t &ctx, const image_desc_t &d, cl_mem image, const char *what);
// Checks that `buf` is a buffer of ctx's context holding the descriptor.
status_t check_buffer_object(context_t &ctx, const buffer_desc_t &d, cl_mem buf, const char *what);

// Raw pixel transfers (blocking): width * height * 4 elements of the pixel
// type, row-major.
status_t read_image(context_t &ctx, const image_desc_t &d, cl_mem image, void *pixels);
status_t write_image(context_t &ctx, const image_desc_t &d, cl_mem image, const void *pixels);

// Prepared kernels ---------------------------------------------------------------

enum class op_kind_t { pack, unpack, copy };

// A generated, built kernel for one problem. Creation generates the source
// and gets the program from the context's cache; execute() may be called
// from several threads (argument setting and enqueue are serialised).
class kernel_t {
public:
    static status_t create_pack(context_t &ctx, const buffer_desc_t &src, const image_desc_t &dst,
            std::unique_ptr<kernel_t> *out);
    static status_t create_unpack(context_t &ctx, const image_desc_t &src, const buffer_desc_t &dst,
            std::unique_ptr<kernel_t> *out);
    static status_t create_copy(context_t &ctx, const buffer_desc_t &src, const buffer_desc_t &dst,
            std::unique_ptr<kernel_t> *out);

    // src / dst are the buffer or image of the problem, in that order.
    status_t execute(cl_mem src, cl_mem dst, cl_event *ev = nullptr);

    op_kind_t kind() const { return kind_; }
    const std::string &source() const { return source_; }
    bool program_cache_hit() const { return cache_hit_; }
    bool is_noop() const { return !kernel_; }
    // Bytes read + written by one execution (tail lanes and images count
    // in full): the numerator of a GB/s figure.
    int64_t bytes_moved() const { return bytes_moved_; }

private:
    kernel_t(context_t &ctx) : ctx_(ctx) {}
    status_t init(
            const std::string &name, const std::string &source, int work_dim, const size_t *global);

    context_t &ctx_;
    op_kind_t kind_ = op_kind_t::copy;
    image_desc_t img_{};
    buffer_desc_t buf_{};  // pack: src; unpack: dst; copy: src
    buffer_desc_t buf2_{}; // copy: dst
    std::string source_;
    cl_ref_t<cl_kernel> kernel_;
    int work_dim_ = 0;
    size_t global_[2] = { 0, 0 };
    bool cache_hit_ = false;
    int64_t bytes_moved_ = 0;
    std::mutex m_;
};

// One-call conversions (asynchronous) ------------------------------------------

status_t pack_to_image(context_t &ctx, const buffer_desc_t &src_d, cl_mem src,
        const image_desc_t &dst_d, cl_mem dst);
status_t unpack_from_image(context_t &ctx, const image_desc_t &src_d, cl_mem src,
        const buffer_desc_t &dst_d, cl_mem dst);
status_t copy_buffer(context_t &ctx, const buffer_desc_t &src_d, cl_mem src,
        const buffer_desc_t &dst_d, cl_mem dst);

// Host-memory conveniences (blocking) -------------------------------------------

// Uploads the source span from host memory and packs it into `dst`.
status_t pack_host_to_image(context_t &ctx, const buffer_desc_t &src_d, const void *src,
        const image_desc_t &dst_d, cl_mem dst);
// Unpacks `src` into host memory; bytes of the destination span that hold
// no element (stride gaps) are left as they were.
status_t unpack_image_to_host(context_t &ctx, const image_desc_t &src_d, cl_mem src,
        const buffer_desc_t &dst_d, void *dst);

// Performance --------------------------------------------------------------------

struct perf_result_t {
    int iterations = 0;
    double kernel_ms_min = 0, kernel_ms_avg = 0;
    double copy_ms_min = 0, copy_ms_avg = 0; // clEnqueueCopyBuffer
    int64_t bytes = 0;                       // read + written by the kernel
    double kernel_gbps = 0;                  // bytes / kernel_ms_min
    double copy_gbps = 0;                    // the copy's read + written bytes / copy_ms_min
};

// Times the pack kernel for (src_d -> dst_d) and a device buffer copy of
// the same bytes, interleaved, `iters` times each (after one warm-up).
// Device timestamps when the queue has profiling, host clock otherwise.
status_t measure_pack(context_t &ctx, const buffer_desc_t &src_d, const image_desc_t &dst_d,
        int iters, perf_result_t *out);

} // namespace ocl
} // namespace impl
} // namespace relayout

#endif
