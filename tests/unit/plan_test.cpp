// Planner v1: golden plan dumps and the pure node functions.
#include <gtest/gtest.h>

#include "md/format_tag.hpp"
#include "plan/attr.hpp"
#include "plan/plan.hpp"

#include "unit_test_utils.hpp"

namespace relayout {
namespace impl {
namespace {

using test::make;

struct golden_case_t {
    const char *name;
    std::vector<dim_t> dims;
    data_type_t sdt, ddt;
    const char *stag, *dtag;
    const char *expected;
};

class plan_golden_t : public ::testing::TestWithParam<golden_case_t> {};

TEST_P(plan_golden_t, dump_matches) {
    const auto &c = GetParam();
    plan_t p;
    ASSERT_EQ(plan_create(p, make(c.dims, c.sdt, c.stag), make(c.dims, c.ddt, c.dtag), attr_t()),
            status_t::success)
            << last_error_message();
    EXPECT_EQ(p.dump(), c.expected);
}

const golden_case_t golden_cases[] = {
    // Identical dense layouts fold into one loop.
    { "same_plain", { 2, 3, 4, 5 }, relayout_f32, relayout_f32, "abcd", "abcd",
            "f32>f32 [120 1 1] copy" },
    // The DESIGN worked example.
    { "nchw_to_nChw16c_tail", { 2, 17, 5, 3 }, relayout_f32, relayout_f32, "nchw", "nChw16c",
            "f32>f32 [2 255 480 d0] [2 240 240 d1*16 pad] [15 1 16] [16 15 1 d1 pad] copy" },
    { "nchw_to_nhwc", { 2, 8, 4, 4 }, relayout_f32, relayout_f32, "nchw", "nhwc",
            "f32>f32 [2 128 128 d0] [16 1 8] [8 16 1 d1] copy" },
    { "ab_to_ba", { 64, 32 }, relayout_f32, relayout_s8, "ab", "ba",
            "f32>s8 [32 1 64 d1] [64 32 1 d0]" },
    // Block sizes that nest (4i16o4i vs 8i16o2i): levels at cuts 1, 2, 4, 16.
    { "OIhw4i16o4i_to_OIhw8i16o2i", { 64, 32, 3, 3 }, relayout_s8, relayout_s8, "OIhw4i16o4i",
            "OIhw8i16o2i", "s8>s8 [288 64 64] [2 2 32 d1*2] [16 4 2 d0] [2 1 1 d1] copy" },
    // Blockings that do not nest use an offset table.
    { "BA16a64b4a_to_BA16a48b4a", { 64, 96 }, relayout_f32, relayout_f32, "BA16a64b4a",
            "BA16a48b4a", "f32>f32 [16 256 192 d0*4] [128 tab d1 pad] [4 1 1 d0] copy" },
    // Zero-volume problems plan nothing.
    { "zero_volume", { 2, 0, 3 }, relayout_f32, relayout_f32, "abc", "acb", "f32>f32 zero-volume" },
    // Size-1 dims are dropped.
    { "ones", { 1, 1, 1, 7 }, relayout_u8, relayout_f32, "abcd", "dcba", "u8>f32 [7 1 1 d3]" },
};

INSTANTIATE_TEST_SUITE_P(golden, plan_golden_t, ::testing::ValuesIn(golden_cases),
        [](const ::testing::TestParamInfo<golden_case_t> &i) { return i.param.name; });

node_t nd(dim_t n, dim_t is, dim_t os, int dim = 0, dim_t mult = 1) {
    return node_t{ n, is, os, dim, mult, 0, 0, 0, 0, -1 };
}

TEST(plan_nodes, drop_trivial_removes_only_unit_trip_counts) {
    std::vector<node_t> v = { nd(1, 5, 5), nd(3, 1, 1), nd(1, 0, 0) };
    plan_drop_trivial(v);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].n, 3);
}

TEST(plan_nodes, sort_orders_by_decreasing_dst_stride) {
    std::vector<node_t> v = { nd(2, 1, 1, 0), nd(3, 2, 8, 1), nd(4, 6, 2, 2) };
    plan_sort(v);
    EXPECT_EQ(v[0].os, 8);
    EXPECT_EQ(v[1].os, 2);
    EXPECT_EQ(v[2].os, 1);
}

TEST(plan_nodes, fold_merges_contiguous_unchecked_nodes) {
    bool check[max_ndims] = {};
    std::vector<node_t> v = { nd(3, 8, 8, 0), nd(4, 2, 2, 1), nd(2, 1, 1, 2) };
    plan_fold(v, check);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].n, 24);
    EXPECT_EQ(v[0].dim, -1);
}

TEST(plan_nodes, fold_keeps_padded_dims_apart_from_others) {
    bool check[max_ndims] = {};
    check[1] = true;
    std::vector<node_t> v = { nd(3, 8, 8, 0), nd(4, 2, 2, 1), nd(2, 1, 1, 2) };
    plan_fold(v, check);
    EXPECT_EQ(v.size(), 3u);
}

TEST(plan_nodes, fold_merges_levels_of_one_padded_dim) {
    bool check[max_ndims] = {};
    check[1] = true;
    std::vector<node_t> v = { nd(2, 16, 16, 1, 16), nd(16, 1, 1, 1, 1) };
    plan_fold(v, check);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].n, 32);
    EXPECT_EQ(v[0].dim, 1);
    EXPECT_EQ(v[0].mult, 1);
}

TEST(plan_nodes, fold_refuses_mismatched_strides) {
    bool check[max_ndims] = {};
    std::vector<node_t> v = { nd(3, 8, 9, 0), nd(4, 2, 2, 1) };
    plan_fold(v, check);
    EXPECT_EQ(v.size(), 2u);
}

TEST(plan_create, rejects_mismatched_dims) {
    plan_t p;
    EXPECT_EQ(plan_create(p, make({ 2, 3 }, relayout_f32, "ab"), make({ 3, 2 }, relayout_f32, "ab"),
                      attr_t()),
            status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("differ"), std::string::npos);
}

TEST(plan_create, rejects_scale_count_mismatch) {
    attr_t a;
    a.src_scales.mask = 2;
    a.src_scales.values = { 1.f, 2.f };
    plan_t p;
    EXPECT_EQ(plan_create(
                      p, make({ 2, 3 }, relayout_f32, "ab"), make({ 2, 3 }, relayout_s8, "ab"), a),
            status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("needs 3 values"), std::string::npos);
}

TEST(plan_create, rejects_broadcast_dst) {
    memory_desc_t dst;
    const dim_t dims[2] = { 2, 3 }, strides[2] = { 0, 1 };
    ASSERT_EQ(md_init_by_strides(dst, 2, dims, relayout_f32, strides), status_t::success);
    plan_t p;
    EXPECT_EQ(plan_create(p, make({ 2, 3 }, relayout_f32, "ab"), dst, attr_t()),
            status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("broadcast"), std::string::npos);
}

TEST(plan_create, identity_attributes_make_a_bit_copy) {
    attr_t a;
    a.src_scales.values = { 1.f };
    plan_t p;
    ASSERT_EQ(plan_create(
                      p, make({ 4, 4 }, relayout_f32, "ab"), make({ 4, 4 }, relayout_f32, "ba"), a),
            status_t::success);
    EXPECT_TRUE(p.bit_copy);
    a.src_scales.values = { 2.f };
    ASSERT_EQ(plan_create(
                      p, make({ 4, 4 }, relayout_f32, "ab"), make({ 4, 4 }, relayout_f32, "ba"), a),
            status_t::success);
    EXPECT_FALSE(p.bit_copy);
}

} // namespace
} // namespace impl
} // namespace relayout
