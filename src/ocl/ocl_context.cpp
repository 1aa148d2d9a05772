#include "ocl/ocl_context.hpp"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/env.hpp"

namespace relayout {
namespace impl {
namespace ocl {

namespace {

constexpr const char *device_env = "RELAYOUT_OCL_DEVICE";
// Build logs can be long; the error message keeps this much of them.
constexpr size_t max_log_in_message = 8192;
// Work-group size cap: large groups buy nothing for a memory-bound copy.
constexpr size_t preferred_wg_size = 256;

status_t device_string(cl_device_id dev, cl_device_info what, std::string *s) {
    size_t n = 0;
    RL_CL_CHECK(clGetDeviceInfo(dev, what, 0, nullptr, &n));
    std::vector<char> buf(n + 1, '\0');
    RL_CL_CHECK(clGetDeviceInfo(dev, what, n, buf.data(), nullptr));
    *s = buf.data();
    return status_t::success;
}

template <typename T>
status_t device_value(cl_device_id dev, cl_device_info what, T *v) {
    RL_CL_CHECK(clGetDeviceInfo(dev, what, sizeof(T), v, nullptr));
    return status_t::success;
}

size_t pow2_floor(size_t v) {
    size_t p = 1;
    while (p * 2 <= v)
        p *= 2;
    return p;
}

size_t pow2_ceil(size_t v) {
    size_t p = 1;
    while (p < v)
        p *= 2;
    return p;
}

// Parses "p:d" or "i"; false on anything else.
bool parse_selector(const char *s, int *p, int *d, bool *flat) {
    char *end = nullptr;
    const long a = std::strtol(s, &end, 10);
    if (end == s || a < 0) return false;
    if (*end == '\0') {
        *flat = true;
        *p = static_cast<int>(a);
        *d = -1;
        return true;
    }
    if (*end != ':') return false;
    const char *s2 = end + 1;
    const long b = std::strtol(s2, &end, 10);
    if (end == s2 || *end != '\0' || b < 0) return false;
    *flat = false;
    *p = static_cast<int>(a);
    *d = static_cast<int>(b);
    return true;
}

} // namespace

uint64_t hash_source(const std::string &s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

status_t enumerate_devices(std::vector<device_entry_t> *out) {
    out->clear();
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &np);
    // The ICD loader reports "no platform" as CL_PLATFORM_NOT_FOUND_KHR.
    if (err == -1001 || np == 0) return status_t::success;
    if (err != CL_SUCCESS) return cl_fail("clGetPlatformIDs", err);
    std::vector<cl_platform_id> plats(np);
    RL_CL_CHECK(clGetPlatformIDs(np, plats.data(), nullptr));
    for (cl_uint p = 0; p < np; ++p) {
        cl_uint nd = 0;
        err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
        if (err == CL_DEVICE_NOT_FOUND || nd == 0) continue;
        if (err != CL_SUCCESS) return cl_fail("clGetDeviceIDs", err);
        std::vector<cl_device_id> devs(nd);
        RL_CL_CHECK(clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, devs.data(), nullptr));
        for (cl_uint d = 0; d < nd; ++d)
            out->push_back({ plats[p], devs[d], static_cast<int>(p), static_cast<int>(d) });
    }
    return status_t::success;
}

status_t context_t::create(std::unique_ptr<context_t> *out, const char *selector) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "ocl context: null out");
    const bool from_env = selector == nullptr;
    if (from_env) selector = std::getenv(device_env);
    std::vector<device_entry_t> devs;
    RL_CHECK(enumerate_devices(&devs));
    if (devs.empty())
        return fail(status_t::runtime_error,
                "OpenCL: no platform or device found (is an ICD such as "
                "pocl-opencl-icd installed?)");

    const device_entry_t *pick = nullptr;
    if (selector && *selector) {
        int p = 0, d = 0;
        bool flat = false;
        const char *src = from_env ? device_env : "device selector";
        if (!parse_selector(selector, &p, &d, &flat))
            return failf(status_t::invalid_arguments,
                    "%s = '%s' is malformed: expected <platform>:<device> or "
                    "<device index>",
                    src, selector);
        if (flat) {
            if (p >= static_cast<int>(devs.size()))
                return failf(status_t::invalid_arguments,
                        "%s = '%s': device index %d out of range (%d OpenCL "
                        "devices)",
                        src, selector, p, static_cast<int>(devs.size()));
            pick = &devs[p];
        } else {
            for (const auto &e : devs)
                if (e.platform_index == p && e.device_index == d) pick = &e;
            if (pick == nullptr)
                return failf(status_t::invalid_arguments, "%s = '%s': no device %d on platform %d",
                        src, selector, d, p);
        }
    } else {
        for (const auto &e : devs) {
            cl_device_type t = 0;
            RL_CHECK(device_value(e.device, CL_DEVICE_TYPE, &t));
            if (t & CL_DEVICE_TYPE_GPU) {
                pick = &e;
                break;
            }
        }
        if (pick == nullptr) pick = &devs[0];
    }

    cl_context_properties props[] = { CL_CONTEXT_PLATFORM,
        reinterpret_cast<cl_context_properties>(pick->platform), 0 };
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(props, 1, &pick->device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) return cl_fail("clCreateContext", err);
    cl_ref_t<cl_context> ctx_ref(ctx);

    std::unique_ptr<context_t> c(new context_t());
    RL_CHECK(c->init(ctx, pick->device, nullptr, true));
    *out = std::move(c);
    return status_t::success;
}

status_t context_t::create_from(
        std::unique_ptr<context_t> *out, cl_context ctx, cl_device_id dev, cl_command_queue queue) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "ocl context: null out");
    if (ctx == nullptr)
        return fail(status_t::invalid_arguments, "ocl context: the user's cl_context is null");
    if (dev == nullptr && queue == nullptr)
        return fail(status_t::invalid_arguments,
                "ocl context: give a cl_device_id or a cl_command_queue");
    if (queue) {
        cl_context qctx = nullptr;
        cl_device_id qdev = nullptr;
        RL_CL_CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(qctx), &qctx, nullptr));
        RL_CL_CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof(qdev), &qdev, nullptr));
        if (qctx != ctx)
            return fail(status_t::invalid_arguments,
                    "ocl context: the queue belongs to another cl_context");
        if (dev && qdev != dev)
            return fail(status_t::invalid_arguments,
                    "ocl context: the queue belongs to another device");
        dev = qdev;
    } else {
        // The device must be one of the context's.
        cl_uint n = 0;
        RL_CL_CHECK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n, nullptr));
        std::vector<cl_device_id> devs(n);
        RL_CL_CHECK(clGetContextInfo(
                ctx, CL_CONTEXT_DEVICES, n * sizeof(cl_device_id), devs.data(), nullptr));
        if (std::find(devs.begin(), devs.end(), dev) == devs.end())
            return fail(status_t::invalid_arguments,
                    "ocl context: the device is not in the cl_context");
    }
    std::unique_ptr<context_t> c(new context_t());
    RL_CHECK(c->init(ctx, dev, queue, true));
    *out = std::move(c);
    return status_t::success;
}

status_t context_t::init(cl_context ctx, cl_device_id dev, cl_command_queue q, bool retain) {
    ctx_ = cl_ref_t<cl_context>(ctx, retain);
    dev_ = dev;
    device_info_t &i = info_;
    RL_CHECK(device_string(dev, CL_DEVICE_NAME, &i.name));
    RL_CHECK(device_string(dev, CL_DEVICE_VENDOR, &i.vendor));
    cl_platform_id plat = nullptr;
    RL_CHECK(device_value(dev, CL_DEVICE_PLATFORM, &plat));
    {
        size_t n = 0;
        RL_CL_CHECK(clGetPlatformInfo(plat, CL_PLATFORM_NAME, 0, nullptr, &n));
        std::vector<char> buf(n + 1, '\0');
        RL_CL_CHECK(clGetPlatformInfo(plat, CL_PLATFORM_NAME, n, buf.data(), nullptr));
        i.platform_name = buf.data();
    }
    RL_CHECK(device_value(dev, CL_DEVICE_TYPE, &i.type));
    cl_bool img = CL_FALSE;
    RL_CHECK(device_value(dev, CL_DEVICE_IMAGE_SUPPORT, &img));
    i.image_support = img == CL_TRUE;
    if (i.image_support) {
        RL_CHECK(device_value(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, &i.image2d_max_width));
        RL_CHECK(device_value(dev, CL_DEVICE_IMAGE2D_MAX_HEIGHT, &i.image2d_max_height));
    }
    RL_CHECK(device_value(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, &i.max_work_group_size));
    cl_uint dims = 0;
    RL_CHECK(device_value(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, &dims));
    std::vector<size_t> sizes(std::max<cl_uint>(dims, 3), 1);
    RL_CL_CHECK(clGetDeviceInfo(
            dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), sizes.data(), nullptr));
    for (int d = 0; d < 3; ++d)
        i.max_work_item_sizes[d] = sizes[d];
    RL_CHECK(device_value(dev, CL_DEVICE_GLOBAL_MEM_SIZE, &i.global_mem_size));
    RL_CHECK(device_value(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, &i.max_mem_alloc_size));
    cl_device_fp_config fp = 0;
    RL_CHECK(device_value(dev, CL_DEVICE_SINGLE_FP_CONFIG, &fp));
    i.fp32_correct_div = (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;

    if (q) {
        queue_ = cl_ref_t<cl_command_queue>(q, retain);
        cl_command_queue_properties p = 0;
        RL_CL_CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(p), &p, nullptr));
        profiling_ = (p & CL_QUEUE_PROFILING_ENABLE) != 0;
    } else {
        cl_int err = CL_SUCCESS;
        cl_command_queue nq = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
        if (err != CL_SUCCESS) return cl_fail("clCreateCommandQueue", err);
        queue_ = cl_ref_t<cl_command_queue>(nq);
        profiling_ = true;
    }
    return status_t::success;
}

context_t::~context_t() {
    // Outstanding work on our queue must not outlive the programs.
    if (queue_) clFinish(queue_.get());
}

namespace {

// RELAYOUT_JIT_DUMP=1: every program built is written to
// relayout_ocl_<n>.cl in the working directory, its build options in a
// first comment line (the x64 kernels' bytes go to relayout_jit_*.bin).
void dump_source(const std::string &source, const std::string &options) {
    static const bool on = getenv_int("RELAYOUT_JIT_DUMP", 0) != 0;
    if (!on) return;
    static std::atomic<int> n{ 0 };
    const std::string path = "relayout_ocl_" + std::to_string(n.fetch_add(1)) + ".cl";
    if (FILE *f = std::fopen(path.c_str(), "w")) {
        std::fprintf(f, "// build options: %s\n%s", options.c_str(), source.c_str());
        std::fclose(f);
    }
}

} // namespace

status_t context_t::build(
        program_entry_t &e, const std::string &source, const std::string &options) {
    const char *src = source.c_str();
    const size_t len = source.size();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(ctx_.get(), 1, &src, &len, &err);
    if (err != CL_SUCCESS) return cl_fail("clCreateProgramWithSource", err);
    cl_ref_t<cl_program> prog(p);
    builds_.fetch_add(1);
    const std::string opts = "-cl-std=CL1.2 " + options;
    dump_source(source, opts);
    err = clBuildProgram(p, 1, &dev_, opts.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
        std::string log;
        size_t n = 0;
        if (clGetProgramBuildInfo(p, dev_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) == CL_SUCCESS
                && n > 0) {
            std::vector<char> buf(n + 1, '\0');
            if (clGetProgramBuildInfo(p, dev_, CL_PROGRAM_BUILD_LOG, n, buf.data(), nullptr)
                    == CL_SUCCESS)
                log = buf.data();
        }
        if (log.size() > max_log_in_message) {
            log.resize(max_log_in_message);
            log += "\n[build log truncated]";
        }
        std::string first_line = source.substr(0, source.find('\n'));
        std::string msg = std::string("OpenCL: clBuildProgram failed: ") + cl_error_name(err) + " ("
                          + std::to_string(err) + ") on device '" + info_.name + "' for program '"
                          + first_line + "'; build log:\n" + log;
        const status_t st = err == CL_OUT_OF_HOST_MEMORY || err == CL_OUT_OF_RESOURCES
                                    ? status_t::out_of_memory
                                    : status_t::runtime_error;
        return fail(st, msg);
    }
    e.program = std::move(prog);
    return status_t::success;
}

status_t context_t::get_program(const std::string &source, const std::string &options,
        cl_ref_t<cl_program> *out, bool *cache_hit) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "get_program: null out");
    std::string key = options;
    key += '\n';
    key += source;
    const uint64_t h = hash_source(key);

    std::shared_ptr<program_entry_t> e;
    {
        std::lock_guard<std::mutex> lock(cache_m_);
        auto &bucket = cache_[h];
        for (const auto &c : bucket)
            if (c->key == key) e = c;
        if (!e) {
            e = std::make_shared<program_entry_t>();
            e->key = std::move(key);
            bucket.push_back(e);
        }
    }
    // One builder per entry; others wait on the entry's lock, not the
    // cache's, so unrelated programs build concurrently.
    std::lock_guard<std::mutex> lock(e->m);
    bool hit = true;
    if (!e->done) {
        hit = false;
        e->st = build(*e, source, options);
        if (e->st != status_t::success) e->error = last_error_message();
        e->done = true;
    } else {
        hits_.fetch_add(1);
    }
    if (cache_hit) *cache_hit = hit;
    if (e->st != status_t::success) return fail(e->st, e->error);
    *out = e->program;
    return status_t::success;
}

status_t context_t::get_kernel(const std::string &source, const std::string &name,
        cl_ref_t<cl_kernel> *out, bool *cache_hit, const std::string &options) {
    cl_ref_t<cl_program> prog;
    RL_CHECK(get_program(source, options, &prog, cache_hit));
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(prog.get(), name.c_str(), &err);
    if (err != CL_SUCCESS) return cl_fail("clCreateKernel", err, name.c_str());
    *out = cl_ref_t<cl_kernel>(k);
    return status_t::success;
}

size_t context_t::program_cache_size() const {
    std::lock_guard<std::mutex> lock(cache_m_);
    size_t n = 0;
    for (const auto &b : cache_)
        n += b.second.size();
    return n;
}

void context_t::clear_program_cache() {
    std::lock_guard<std::mutex> lock(cache_m_);
    cache_.clear();
}

status_t context_t::pick_work_sizes(cl_kernel k, int work_dim, const size_t *global, size_t *local,
        size_t *global_rounded, size_t max_local) const {
    if (work_dim < 1 || work_dim > 2)
        return failf(status_t::invalid_arguments, "pick_work_sizes: work_dim %d not in [1, 2]",
                work_dim);
    size_t kwg = 0;
    RL_CL_CHECK(clGetKernelWorkGroupInfo(
            k, dev_, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kwg), &kwg, nullptr));
    size_t total = std::min({ kwg, info_.max_work_group_size, preferred_wg_size });
    if (max_local) total = std::min(total, max_local);
    total = pow2_floor(std::max<size_t>(total, 1));
    size_t l0 = std::min({ total, pow2_floor(info_.max_work_item_sizes[0]), pow2_ceil(global[0]) });
    size_t l1 = 1;
    if (work_dim == 2)
        l1 = std::min(
                { total / l0, pow2_floor(info_.max_work_item_sizes[1]), pow2_ceil(global[1]) });
    l0 = std::max<size_t>(l0, 1);
    l1 = std::max<size_t>(l1, 1);
    local[0] = l0;
    global_rounded[0] = (global[0] + l0 - 1) / l0 * l0;
    if (work_dim == 2) {
        local[1] = l1;
        global_rounded[1] = (global[1] + l1 - 1) / l1 * l1;
    }
    return status_t::success;
}

status_t context_t::enqueue(
        cl_kernel k, int work_dim, const size_t *global, cl_event *ev, size_t max_local) {
    size_t local[2] = { 1, 1 }, g[2] = { 1, 1 };
    RL_CHECK(pick_work_sizes(k, work_dim, global, local, g, max_local));
    RL_CL_CHECK(
            clEnqueueNDRangeKernel(queue_.get(), k, work_dim, nullptr, g, local, 0, nullptr, ev));
    return status_t::success;
}

status_t context_t::check_image_shape(int64_t width, int64_t height, const char *what) const {
    if (!info_.image_support)
        return failf(status_t::unimplemented,
                "OpenCL device '%s' has no image support "
                "(CL_DEVICE_IMAGE_SUPPORT is false)",
                info_.name.c_str());
    if (width < 1 || height < 1)
        return failf(status_t::invalid_arguments,
                "%s: image shape %" PRId64 " x %" PRId64
                " is empty (zero-volume tensors have no image)",
                what, width, height);
    if (static_cast<uint64_t>(width) > info_.image2d_max_width)
        return failf(status_t::invalid_arguments,
                "%s: image width %" PRId64
                " exceeds the device limit CL_DEVICE_IMAGE2D_MAX_WIDTH = %zu "
                "(image %" PRId64 " x %" PRId64 ")",
                what, width, info_.image2d_max_width, width, height);
    if (static_cast<uint64_t>(height) > info_.image2d_max_height)
        return failf(status_t::invalid_arguments,
                "%s: image height %" PRId64
                " exceeds the device limit CL_DEVICE_IMAGE2D_MAX_HEIGHT = "
                "%zu (image %" PRId64 " x %" PRId64 ")",
                what, height, info_.image2d_max_height, width, height);
    return status_t::success;
}

status_t context_t::finish() {
    RL_CL_CHECK(clFinish(queue_.get()));
    return status_t::success;
}

} // namespace ocl
} // namespace impl
} // namespace relayout
