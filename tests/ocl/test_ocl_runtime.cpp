// The OpenCL runtime wrapper: device selection, wrapping a user's objects,
// error names, the program cache (hits, concurrent builds, build logs) and
// work-group sizes.
#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "ocl/ocl_api.hpp"
#include "ocl_test_utils.hpp"

namespace rl_ocl_test {
namespace {

TEST(ocl_runtime, error_names_in_messages) {
    EXPECT_STREQ(cl_error_name(CL_INVALID_VALUE), "CL_INVALID_VALUE");
    EXPECT_STREQ(cl_error_name(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_STREQ(cl_error_name(-12345), "CL_UNKNOWN_ERROR");
    EXPECT_EQ(cl_fail("clFinish(queue_.get())", CL_INVALID_COMMAND_QUEUE), status_t::runtime_error);
    EXPECT_EQ(last_error_message(), "OpenCL: clFinish failed: CL_INVALID_COMMAND_QUEUE (-36)");
    EXPECT_EQ(cl_fail("clCreateBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE, "64 bytes"),
            status_t::out_of_memory);
    EXPECT_NE(last_error_message().find("64 bytes"), std::string::npos);
}

TEST(ocl_runtime, device_selection) {
    RL_OCL_GET_CONTEXT(shared);
    std::vector<device_entry_t> devs;
    ASSERT_EQ(enumerate_devices(&devs), status_t::success);
    ASSERT_FALSE(devs.empty());

    std::unique_ptr<context_t> c;
    ASSERT_EQ(context_t::create(&c, "0:0"), status_t::success) << last_error_message();
    EXPECT_EQ(c->device(), devs[0].device);
    ASSERT_EQ(context_t::create(&c, "0"), status_t::success);
    EXPECT_EQ(c->device(), devs[0].device);

    EXPECT_EQ(context_t::create(&c, "9:9"), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("no device 9 on platform 9"), std::string::npos)
            << last_error_message();
    EXPECT_EQ(context_t::create(&c, "999"), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("out of range"), std::string::npos);
    EXPECT_EQ(context_t::create(&c, "gpu"), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("malformed"), std::string::npos);

    // Through the environment variable.
    const char *old = std::getenv("RELAYOUT_OCL_DEVICE");
    const std::string saved = old ? old : "";
    setenv("RELAYOUT_OCL_DEVICE", "7:x", 1);
    EXPECT_EQ(context_t::create(&c), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("RELAYOUT_OCL_DEVICE"), std::string::npos)
            << last_error_message();
    setenv("RELAYOUT_OCL_DEVICE", "0", 1);
    EXPECT_EQ(context_t::create(&c), status_t::success);
    if (old)
        setenv("RELAYOUT_OCL_DEVICE", saved.c_str(), 1);
    else
        unsetenv("RELAYOUT_OCL_DEVICE");

    const device_info_t &i = shared->info();
    EXPECT_FALSE(i.name.empty());
    EXPECT_GT(i.max_work_group_size, 0u);
    if (i.image_support) {
        EXPECT_GT(i.image2d_max_width, 0u);
        EXPECT_GT(i.image2d_max_height, 0u);
    }
}

TEST(ocl_runtime, wraps_user_context_and_queue) {
    RL_OCL_GET_CONTEXT(shared);
    cl_int err = CL_SUCCESS;
    cl_device_id dev = shared->device();
    cl_context uctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_command_queue uq = clCreateCommandQueue(uctx, dev, 0, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    {
        std::unique_ptr<context_t> c;
        ASSERT_EQ(context_t::create_from(&c, uctx, nullptr, uq), status_t::success)
                << last_error_message();
        EXPECT_EQ(c->ctx(), uctx);
        EXPECT_EQ(c->queue(), uq);
        EXPECT_EQ(c->device(), dev);
        EXPECT_FALSE(c->profiling_enabled());
        // Works end to end on the user's queue.
        const int64_t L = 5;
        image_desc_t img;
        ASSERT_EQ(image_desc_init(&img, image_type_t::argument, 1, &L, relayout_f32),
                status_t::success);
        buffer_desc_t b;
        ASSERT_EQ(buffer_desc_init(&b, 1, &L, relayout_f32), status_t::success);
        cl_ref_t<cl_mem> image;
        ASSERT_EQ(create_image(*c, img, &image), status_t::success);
        const float v[5] = { 1, 2, 3, 4, 5 };
        ASSERT_EQ(pack_host_to_image(*c, b, v, img, image.get()), status_t::success)
                << last_error_message();
        float px[8];
        ASSERT_EQ(read_image(*c, img, image.get(), px), status_t::success);
        EXPECT_EQ(px[4], 5.0f);
        EXPECT_EQ(f32_bits(px[5]), 0u);
        // Objects from another context are refused.
        EXPECT_EQ(pack_host_to_image(*shared, b, v, img, image.get()), status_t::invalid_arguments);
        EXPECT_NE(last_error_message().find("another cl_context"), std::string::npos);
        // A device alone is enough; a queue of another context is not.
        std::unique_ptr<context_t> c2;
        ASSERT_EQ(context_t::create_from(&c2, uctx, dev), status_t::success);
        EXPECT_EQ(context_t::create_from(&c2, shared->ctx(), nullptr, uq),
                status_t::invalid_arguments);
        EXPECT_EQ(context_t::create_from(&c2, nullptr, dev), status_t::invalid_arguments);
    }
    // The wrapper released only its own references.
    EXPECT_EQ(clReleaseCommandQueue(uq), CL_SUCCESS);
    EXPECT_EQ(clReleaseContext(uctx), CL_SUCCESS);
}

TEST(ocl_runtime, build_failure_reports_build_log) {
    RL_OCL_GET_CONTEXT(ctx);
    const std::string broken = "// deliberately broken\n"
                               "__kernel void rl_broken(__global float *p) {\n"
                               "    p[0] = undeclared_identifier_xyz;\n"
                               "}\n";
    const uint64_t builds0 = ctx->program_builds();
    cl_ref_t<cl_program> p;
    EXPECT_EQ(ctx->get_program(broken, "", &p), status_t::runtime_error);
    const std::string m = last_error_message();
    EXPECT_NE(m.find("clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << m;
    EXPECT_NE(m.find("build log"), std::string::npos) << m;
    EXPECT_NE(m.find("undeclared_identifier_xyz"), std::string::npos) << m;
    EXPECT_NE(m.find("// deliberately broken"), std::string::npos) << m;
    // The failure is cached: asking again reports the same log, no rebuild.
    clear_last_error_message();
    bool hit = false;
    EXPECT_EQ(ctx->get_program(broken, "", &p, &hit), status_t::runtime_error);
    EXPECT_TRUE(hit);
    EXPECT_EQ(last_error_message(), m);
    EXPECT_EQ(ctx->program_builds(), builds0 + 1);
}

TEST(ocl_runtime, cache_builds_once_under_concurrency) {
    RL_OCL_GET_CONTEXT(ctx);
    const std::string src = "__kernel void rl_concurrent(__global int *p) {"
                            " p[get_global_id(0)] = 42; }\n";
    const uint64_t builds0 = ctx->program_builds();
    const int nthr = 8;
    std::atomic<int> ok{ 0 }, misses{ 0 };
    std::vector<std::thread> th;
    for (int t = 0; t < nthr; ++t)
        th.emplace_back([&] {
            cl_ref_t<cl_kernel> k;
            bool hit = true;
            if (ctx->get_kernel(src, "rl_concurrent", &k, &hit) == status_t::success) ++ok;
            if (!hit) ++misses;
        });
    for (auto &t : th)
        t.join();
    EXPECT_EQ(ok.load(), nthr);
    EXPECT_EQ(misses.load(), 1);
    EXPECT_EQ(ctx->program_builds(), builds0 + 1);
    // Different options are a different program.
    cl_ref_t<cl_program> p;
    bool hit = true;
    ASSERT_EQ(ctx->get_program(src, "-cl-mad-enable", &p, &hit), status_t::success);
    EXPECT_FALSE(hit);
}

TEST(ocl_runtime, unknown_kernel_name_named) {
    RL_OCL_GET_CONTEXT(ctx);
    const std::string src = "__kernel void rl_named(__global int *p) {}\n";
    cl_ref_t<cl_kernel> k;
    EXPECT_NE(ctx->get_kernel(src, "rl_other", &k), status_t::success);
    EXPECT_NE(last_error_message().find("clCreateKernel failed: "
                                        "CL_INVALID_KERNEL_NAME"),
            std::string::npos)
            << last_error_message();
    EXPECT_NE(last_error_message().find("rl_other"), std::string::npos);
}

TEST(ocl_runtime, work_sizes_respect_device_limits) {
    RL_OCL_GET_CONTEXT(ctx);
    const std::string src = "__kernel void rl_ws(__global int *p) {}\n";
    cl_ref_t<cl_kernel> k;
    ASSERT_EQ(ctx->get_kernel(src, "rl_ws", &k), status_t::success);
    size_t kwg = 0;
    ASSERT_EQ(clGetKernelWorkGroupInfo(k.get(), ctx->device(), CL_KERNEL_WORK_GROUP_SIZE,
                      sizeof(kwg), &kwg, nullptr),
            CL_SUCCESS);
    const size_t globals[][2] = { { 1, 1 }, { 7, 3 }, { 1000, 1 }, { 10, 10000 }, { 8193, 17 } };
    for (const auto &g : globals) {
        for (int wd = 1; wd <= 2; ++wd) {
            size_t l[2] = { 0, 0 }, gr[2] = { 0, 0 };
            ASSERT_EQ(ctx->pick_work_sizes(k.get(), wd, g, l, gr), status_t::success);
            const size_t total = l[0] * (wd == 2 ? l[1] : 1);
            EXPECT_LE(total, kwg);
            EXPECT_LE(l[0], ctx->info().max_work_item_sizes[0]);
            EXPECT_EQ(gr[0] % l[0], 0u);
            EXPECT_GE(gr[0], g[0]);
            if (wd == 2) {
                EXPECT_LE(l[1], ctx->info().max_work_item_sizes[1]);
                EXPECT_EQ(gr[1] % l[1], 0u);
                EXPECT_GE(gr[1], g[1]);
            }
        }
    }
}

} // namespace
} // namespace rl_ocl_test
