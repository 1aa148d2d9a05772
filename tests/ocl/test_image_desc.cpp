// image_desc_t and buffer_desc_t: shapes of the nine image types (DESIGN
// §6) and validation messages. No OpenCL device needed.
#include <string>
#include <vector>

#include "ocl_test_utils.hpp"

namespace rl_ocl_test {
namespace {

struct shape_case_t {
    const char *name;
    image_type_t type;
    std::vector<int64_t> dims;
    int b;
    int64_t width, height;
};

const shape_case_t shape_cases[] = {
    // [N,H,W,C]: r4(C)*W x N*H
    { "in_out_channel_2x3x5x7", image_type_t::in_out_channel, { 2, 3, 5, 7 }, 0, 2 * 5, 2 * 3 },
    { "in_out_channel_rank2_3x6", image_type_t::in_out_channel, { 3, 6 }, 0, 2, 3 },
    // W*C x N*Hb
    { "in_out_height_2x5x3x6", image_type_t::in_out_height, { 2, 5, 3, 6 }, 0, 18, 4 },
    // Wb*C x N*H
    { "in_out_width_2x3x7x5", image_type_t::in_out_width, { 2, 3, 7, 5 }, 0, 10, 6 },
    // [O,I,H,W]: I x H*W*r4(O)
    { "conv2d_filter_5x3x3x3", image_type_t::conv2d_filter, { 5, 3, 3, 3 }, 0, 3, 18 },
    // [1,I,H,W]: H*W x r4(I)
    { "dw_conv2d_filter_1x6x3x3", image_type_t::dw_conv2d_filter, { 1, 6, 3, 3 }, 0, 9, 2 },
    { "argument_7", image_type_t::argument, { 7 }, 0, 2, 1 },
    // I*H*W x r4(O)
    { "weight_height_7x5x2x3", image_type_t::weight_height, { 7, 5, 2, 3 }, 0, 30, 2 },
    // Ib*H*W x O
    { "weight_width_3x7x2x2", image_type_t::weight_width, { 3, 7, 2, 2 }, 0, 8, 3 },
    // Ib x O*(b+2)^2
    { "winograd_b2_5x7", image_type_t::winograd_filter, { 5, 7, 3, 3 }, 2, 2, 80 },
    { "winograd_b4_5x7", image_type_t::winograd_filter, { 5, 7, 3, 3 }, 4, 2, 180 },
    { "winograd_b6_5x7", image_type_t::winograd_filter, { 5, 7, 3, 3 }, 6, 2, 320 },
    { "in_out_channel_zero_volume", image_type_t::in_out_channel, { 0, 3, 5, 7 }, 0, 10, 0 },
};

class image_shape_test : public ::testing::TestWithParam<shape_case_t> {};

TEST_P(image_shape_test, matches_design_table) {
    const auto &c = GetParam();
    image_desc_t d;
    ASSERT_EQ(image_desc_init(&d, c.type, static_cast<int>(c.dims.size()), c.dims.data(),
                      relayout_f32, c.b),
            status_t::success)
            << last_error_message();
    int64_t w = -1, h = -1;
    ASSERT_EQ(image_desc_shape(d, &w, &h), status_t::success);
    EXPECT_EQ(w, c.width);
    EXPECT_EQ(h, c.height);
    int64_t bytes = 0;
    ASSERT_EQ(image_desc_size_bytes(d, &bytes), status_t::success);
    EXPECT_EQ(bytes, c.width * c.height * 16);
}

INSTANTIATE_TEST_SUITE_P(all_types, image_shape_test, ::testing::ValuesIn(shape_cases),
        [](const ::testing::TestParamInfo<shape_case_t> &i) { return std::string(i.param.name); });

struct bad_case_t {
    const char *name;
    image_type_t type;
    std::vector<int64_t> dims;
    relayout_data_type_t pixel_dt;
    int b;
    const char *message_part; // the message must name the problem
};

const bad_case_t bad_cases[] = {
    { "undef_type", image_type_t::undef, { 1, 1, 1, 1 }, relayout_f32, 0, "invalid image type" },
    { "bad_pixel_type", image_type_t::in_out_channel, { 1, 1, 1, 1 }, relayout_s8, 0,
            "pixel data type" },
    { "in_out_rank3", image_type_t::in_out_channel, { 1, 2, 3 }, relayout_f32, 0, "ndims is 3" },
    { "height_rank2", image_type_t::in_out_height, { 2, 3 }, relayout_f32, 0, "ndims is 2" },
    { "argument_rank2", image_type_t::argument, { 2, 3 }, relayout_f32, 0, "ndims is 2" },
    { "negative_dim", image_type_t::conv2d_filter, { 4, -1, 3, 3 }, relayout_f32, 0,
            "dims[1] = -1" },
    { "dw_multiplier_2", image_type_t::dw_conv2d_filter, { 2, 4, 3, 3 }, relayout_f32, 0,
            "only M == 1" },
    { "winograd_5x5", image_type_t::winograd_filter, { 4, 4, 5, 5 }, relayout_f32, 2, "only 3x3" },
    { "winograd_b3", image_type_t::winograd_filter, { 4, 4, 3, 3 }, relayout_f32, 3,
            "winograd_b = 3" },
    { "b_on_non_winograd", image_type_t::conv2d_filter, { 4, 4, 3, 3 }, relayout_f32, 2,
            "winograd_b = 2" },
    { "extent_overflow", image_type_t::in_out_channel, { 1, 1, 2000000000, 2000000000 },
            relayout_f32, 0, "image extent" },
};

class image_desc_bad_test : public ::testing::TestWithParam<bad_case_t> {};

TEST_P(image_desc_bad_test, rejected_with_message) {
    const auto &c = GetParam();
    image_desc_t d;
    clear_last_error_message();
    EXPECT_EQ(image_desc_init(
                      &d, c.type, static_cast<int>(c.dims.size()), c.dims.data(), c.pixel_dt, c.b),
            status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find(c.message_part), std::string::npos) << last_error_message();
}

INSTANTIATE_TEST_SUITE_P(validation, image_desc_bad_test, ::testing::ValuesIn(bad_cases),
        [](const ::testing::TestParamInfo<bad_case_t> &i) { return std::string(i.param.name); });

TEST(image_desc, type_names_round_trip) {
    for (int v = 1; v < image_type_count; ++v) {
        const auto t = static_cast<image_type_t>(v);
        image_type_t back = image_type_t::undef;
        ASSERT_EQ(str2image_type(image_type2str(t), &back), status_t::success);
        EXPECT_EQ(back, t);
    }
    image_type_t t;
    EXPECT_EQ(str2image_type("WINOGRAD_FILTER", &t), status_t::success);
    EXPECT_EQ(t, image_type_t::winograd_filter);
    EXPECT_EQ(str2image_type("nchw", &t), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("'nchw'"), std::string::npos);
}

TEST(image_desc, init_zero_fills_for_memcmp) {
    const int64_t dims[2] = { 3, 6 };
    image_desc_t a, b;
    std::memset(&a, 0xab, sizeof(a));
    std::memset(&b, 0xcd, sizeof(b));
    ASSERT_EQ(image_desc_init(&a, image_type_t::in_out_channel, 2, dims, relayout_f16),
            status_t::success);
    ASSERT_EQ(image_desc_init(&b, image_type_t::in_out_channel, 2, dims, relayout_f16),
            status_t::success);
    EXPECT_EQ(std::memcmp(&a, &b, sizeof(a)), 0);
}

TEST(buffer_desc, order_gives_strides) {
    // NHWC logical dims stored as NCHW.
    const int64_t dims[4] = { 2, 3, 5, 7 };
    const int order[4] = { 0, 3, 1, 2 };
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, dims, relayout_f32, order), status_t::success);
    EXPECT_EQ(b.strides[0], 105);
    EXPECT_EQ(b.strides[3], 15);
    EXPECT_EQ(b.strides[1], 5);
    EXPECT_EQ(b.strides[2], 1);
    EXPECT_EQ(buffer_desc_span_bytes(b), 210 * 4);
}

TEST(buffer_desc, destination_overlap_rejected) {
    const int64_t dims[2] = { 4, 4 };
    const int64_t strides[2] = { 2, 1 };
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init_strided(&b, 2, dims, strides, relayout_f32),
            status_t::success); // fine as a source
    EXPECT_EQ(buffer_desc_validate(b, "destination", true), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("overlap"), std::string::npos);
}

TEST(buffer_desc, unsupported_type_named) {
    const int64_t dims[1] = { 4 };
    buffer_desc_t b;
    EXPECT_EQ(buffer_desc_init(&b, 1, dims, relayout_s8), status_t::unimplemented);
    EXPECT_NE(last_error_message().find("f32 and f16"), std::string::npos);
}

TEST(buffer_desc, must_match_image_dims) {
    const int64_t idims[4] = { 2, 3, 5, 7 };
    image_desc_t img;
    ASSERT_EQ(image_desc_init(&img, image_type_t::in_out_channel, 4, idims, relayout_f32),
            status_t::success);
    const int64_t bdims[4] = { 2, 3, 5, 8 };
    buffer_desc_t b;
    ASSERT_EQ(buffer_desc_init(&b, 4, bdims, relayout_f32), status_t::success);
    int64_t cs[4];
    EXPECT_EQ(buffer_matches_image(b, img, "source", cs), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("NHWC"), std::string::npos) << last_error_message();
    // [N,C] image accepts a [N,1,1,C] buffer.
    const int64_t d2[2] = { 3, 6 }, d4[4] = { 3, 1, 1, 6 };
    ASSERT_EQ(image_desc_init(&img, image_type_t::in_out_channel, 2, d2, relayout_f32),
            status_t::success);
    ASSERT_EQ(buffer_desc_init(&b, 4, d4, relayout_f32), status_t::success);
    EXPECT_EQ(buffer_matches_image(b, img, "source", cs), status_t::success);
    EXPECT_EQ(cs[0], 6);
    EXPECT_EQ(cs[3], 1);
}

} // namespace
} // namespace rl_ocl_test
