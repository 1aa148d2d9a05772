// The OpenCL C generator on its own: what it bakes in, what it refuses.
// No OpenCL device needed.
#include <string>

#include "jit/ocl/ocl_kernel_gen.hpp"
#include "ocl_test_utils.hpp"

namespace rl_ocl_test {
namespace {

image_desc_t make_img(image_type_t t, std::vector<int64_t> dims,
        relayout_data_type_t pdt = relayout_f32, int b = 0) {
    image_desc_t d;
    EXPECT_EQ(image_desc_init(&d, t, static_cast<int>(dims.size()), dims.data(), pdt, b),
            status_t::success)
            << last_error_message();
    return d;
}

TEST(ocl_kernel_gen, pack_bakes_shape_and_strides) {
    const auto img = make_img(image_type_t::in_out_channel, { 2, 3, 5, 7 });
    const int64_t dims[4] = { 2, 3, 5, 7 };
    const int order[4] = { 0, 3, 1, 2 }; // NCHW storage
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, dims, relayout_f32, order), status_t::success);
    kernel_source_t ks;
    ASSERT_EQ(gen_pack_kernel(img, b, &ks), status_t::success);
    EXPECT_EQ(ks.name, "rl_pack");
    EXPECT_EQ(ks.work_dim, 2);
    EXPECT_EQ(ks.global[0], 10u);
    EXPECT_EQ(ks.global[1], 6u);
    // NCHW: c stride 15 is the lane stride, n stride 105.
    EXPECT_NE(ks.source.find("* 105"), std::string::npos) << ks.source;
    EXPECT_NE(ks.source.find("off + 15"), std::string::npos) << ks.source;
    EXPECT_NE(ks.source.find("< 7"), std::string::npos) << ks.source;
    EXPECT_EQ(ks.source.find("cl_khr_fp16"), std::string::npos);
}

TEST(ocl_kernel_gen, half_image_rounds_in_kernel) {
    const auto img = make_img(image_type_t::argument, { 9 }, relayout_f16);
    const int64_t dims[1] = { 9 };
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 1, dims, relayout_f32), status_t::success);
    kernel_source_t ks;
    ASSERT_EQ(gen_pack_kernel(img, b, &ks), status_t::success);
    EXPECT_NE(ks.source.find("vstore_half4_rte"), std::string::npos);
    EXPECT_NE(ks.source.find("write_imagef"), std::string::npos);
}

TEST(ocl_kernel_gen, unpack_refuses_dw_and_winograd) {
    kernel_source_t ks;
    const auto dw = make_img(image_type_t::dw_conv2d_filter, { 1, 4, 3, 3 });
    const int64_t d4[4] = { 1, 4, 3, 3 };
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, d4, relayout_f32), status_t::success);
    EXPECT_EQ(gen_unpack_kernel(dw, b, &ks), status_t::unimplemented);
    EXPECT_NE(last_error_message().find("dw_conv2d_filter"), std::string::npos);
    const auto wg = make_img(image_type_t::winograd_filter, { 1, 4, 3, 3 }, relayout_f32, 4);
    EXPECT_EQ(gen_unpack_kernel(wg, b, &ks), status_t::unimplemented);
    EXPECT_NE(last_error_message().find("no exact inverse"), std::string::npos);
}

TEST(ocl_kernel_gen, winograd_g_matches_design) {
    EXPECT_EQ(winograd_g(2, 1, 2), 0.5f);
    EXPECT_EQ(winograd_g(2, 2, 1), -0.5f);
    EXPECT_EQ(winograd_g(4, 0, 0), 0.25f);
    EXPECT_EQ(winograd_g(4, 3, 1), static_cast<float>(1.0 / 12.0));
    EXPECT_EQ(winograd_g(6, 5, 2), static_cast<float>(1.0 / 180.0));
    EXPECT_EQ(winograd_g(6, 7, 2), 1.0f);
    EXPECT_TRUE(std::isnan(winograd_g(3, 0, 0)));
    EXPECT_TRUE(std::isnan(winograd_g(2, 4, 0)));
}

TEST(ocl_kernel_gen, copy_merges_contiguous_dims) {
    // 2x3x4 row-major -> same: one node of 24.
    const int64_t dims[3] = { 2, 3, 4 };
    buffer_desc_t s, d;
    ASSERT_EQ(buffer_desc_init(&s, 3, dims, relayout_f32), status_t::success);
    ASSERT_EQ(buffer_desc_init(&d, 3, dims, relayout_f16), status_t::success);
    kernel_source_t ks;
    ASSERT_EQ(gen_copy_kernel(s, d, &ks), status_t::success);
    EXPECT_NE(ks.source.find("plan 24:1:1\n"), std::string::npos) << ks.source;
    // Transposed destination: nothing merges across the transpose.
    const int order[3] = { 2, 0, 1 };
    ASSERT_EQ(buffer_desc_init(&d, 3, dims, relayout_f32, order), status_t::success);
    ASSERT_EQ(gen_copy_kernel(s, d, &ks), status_t::success);
    EXPECT_NE(ks.source.find("plan 4:1:6 6:4:1\n"), std::string::npos) << ks.source;
}

TEST(ocl_kernel_gen, mismatched_copy_named) {
    const int64_t a[2] = { 2, 3 }, b[2] = { 2, 4 };
    buffer_desc_t s, d;
    ASSERT_EQ(buffer_desc_init(&s, 2, a, relayout_f32), status_t::success);
    ASSERT_EQ(buffer_desc_init(&d, 2, b, relayout_f32), status_t::success);
    kernel_source_t ks;
    EXPECT_EQ(gen_copy_kernel(s, d, &ks), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("dims[1]"), std::string::npos);
}

} // namespace
} // namespace rl_ocl_test
