// The OpenCL engine's runtime: one device, its context and in-order queue,
// the device limits the kernels need, and a program cache.
//
// Device selection (context_t::create): RELAYOUT_OCL_DEVICE=<platform>:<device>
// or =<index> (over all devices of all platforms, in platform order) picks a
// device; otherwise the first GPU of any platform, else the first device.
// context_t::create_from wraps a user's cl_context / device / queue (retained,
// never released beyond the references it took).
//
// The program cache is keyed by (device, build options, source): a program
// is built once per context and device, even when many threads ask for it at
// once; a failed build is remembered with its log and reported again.
#ifndef RELAYOUT_OCL_OCL_CONTEXT_HPP
#define RELAYOUT_OCL_OCL_CONTEXT_HPP

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ocl/ocl_utils.hpp"

namespace relayout {
namespace impl {
namespace ocl {

struct device_info_t {
    std::string name;
    std::string vendor;
    std::string platform_name;
    cl_device_type type = 0;
    bool image_support = false;
    size_t image2d_max_width = 0;
    size_t image2d_max_height = 0;
    size_t max_work_group_size = 0;
    size_t max_work_item_sizes[3] = { 0, 0, 0 };
    cl_ulong global_mem_size = 0;
    cl_ulong max_mem_alloc_size = 0;
    // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in CL_DEVICE_SINGLE_FP_CONFIG:
    // programs may ask for IEEE division (dst scales divide).
    bool fp32_correct_div = false;
};

// Every device of every platform, in the order RELAYOUT_OCL_DEVICE indexes
// them. Empty (and success) when there is no OpenCL platform.
struct device_entry_t {
    cl_platform_id platform;
    cl_device_id device;
    int platform_index;
    int device_index; // within the platform
};
status_t enumerate_devices(std::vector<device_entry_t> *out);

class context_t {
public:
    // selector: nullptr = read RELAYOUT_OCL_DEVICE, then the default rule;
    // "" = the default rule; "p:d" or "i" as for the variable.
    static status_t create(std::unique_ptr<context_t> *out, const char *selector = nullptr);
    // queue may be null: an in-order queue is created on (ctx, dev).
    static status_t create_from(std::unique_ptr<context_t> *out, cl_context ctx, cl_device_id dev,
            cl_command_queue queue = nullptr);

    context_t(const context_t &) = delete;
    context_t &operator=(const context_t &) = delete;
    ~context_t();

    cl_context ctx() const { return ctx_.get(); }
    cl_device_id device() const { return dev_; }
    cl_command_queue queue() const { return queue_.get(); }
    const device_info_t &info() const { return info_; }
    bool profiling_enabled() const { return profiling_; }

    // A built program for `source` (options appended to the build). The
    // returned reference is the caller's. cache_hit (optional) tells whether
    // the program was already there.
    status_t get_program(const std::string &source, const std::string &options,
            cl_ref_t<cl_program> *out, bool *cache_hit = nullptr);
    // get_program + clCreateKernel(name).
    status_t get_kernel(const std::string &source, const std::string &name,
            cl_ref_t<cl_kernel> *out, bool *cache_hit = nullptr, const std::string &options = "");

    // Number of clBuildProgram calls and of cache hits so far.
    uint64_t program_builds() const { return builds_.load(); }
    uint64_t program_cache_hits() const { return hits_.load(); }
    size_t program_cache_size() const;
    void clear_program_cache();

    // Local size for a kernel over `global` work items (work_dim 1 or 2)
    // from CL_KERNEL_WORK_GROUP_SIZE and CL_DEVICE_MAX_WORK_ITEM_SIZES;
    // global_rounded is global rounded up to a multiple of it. max_local
    // (0: none) caps the items per group (kernel_source_t::cpu_max_local).
    status_t pick_work_sizes(cl_kernel k, int work_dim, const size_t *global, size_t *local,
            size_t *global_rounded, size_t max_local = 0) const;

    // Enqueue `k` (arguments already set) over `global` items, at most
    // max_local (0: no cap) per work group.
    status_t enqueue(cl_kernel k, int work_dim, const size_t *global, cl_event *ev = nullptr,
            size_t max_local = 0);

    // Checks a requested image shape against CL_DEVICE_IMAGE2D_MAX_*.
    status_t check_image_shape(int64_t width, int64_t height, const char *what) const;

    status_t finish();

private:
    context_t() = default;
    status_t init(cl_context ctx, cl_device_id dev, cl_command_queue q, bool retain);

    struct program_entry_t {
        std::string key; // options + '\n' + source, compared on lookup
        std::mutex m;
        bool done = false;
        status_t st = status_t::success;
        std::string error;
        cl_ref_t<cl_program> program;
    };
    status_t build(program_entry_t &e, const std::string &source, const std::string &options);

    cl_ref_t<cl_context> ctx_;
    cl_device_id dev_ = nullptr;
    cl_ref_t<cl_command_queue> queue_;
    device_info_t info_;
    bool profiling_ = false;

    mutable std::mutex cache_m_;
    std::unordered_map<uint64_t, std::vector<std::shared_ptr<program_entry_t>>> cache_;
    std::atomic<uint64_t> builds_{ 0 };
    std::atomic<uint64_t> hits_{ 0 };
};

// 64-bit FNV-1a of a string (stable across runs; the cache key's hash).
uint64_t hash_source(const std::string &s);

} // namespace ocl
} // namespace impl
} // namespace relayout

#endif
