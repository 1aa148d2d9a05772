// The general-plan generator (jit/ocl/ocl_plan_gen) on its own: what it
// takes, what it refuses, and that its programs build on the device.
#include <string>

#include "jit/ocl/ocl_plan_gen.hpp"
#include "md/format_tag.hpp"
#include "ocl_test_utils.hpp"
#include "plan/attr.hpp"

namespace rl_ocl_test {
namespace {

plan_t make_plan(std::vector<int64_t> dims, relayout_data_type_t sdt, const char *stag,
        relayout_data_type_t ddt, const char *dtag, const attr_t &attr = attr_t()) {
    memory_desc_t s, d;
    EXPECT_EQ(md_init_by_tag(s, int(dims.size()), dims.data(), sdt, std::string(stag)),
            status_t::success);
    EXPECT_EQ(md_init_by_tag(d, int(dims.size()), dims.data(), ddt, std::string(dtag)),
            status_t::success);
    plan_t p;
    EXPECT_EQ(plan_create(p, s, d, attr), status_t::success) << last_error_message();
    return p;
}

TEST(ocl_plan_gen, blocked_with_padding_writes_zeros) {
    const plan_t p = make_plan({ 2, 17, 5, 3 }, relayout_f32, "abcd", relayout_f16, "aBcd16b");
    kernel_source_t ks;
    ASSERT_EQ(gen_plan_kernel(p, &ks), status_t::success) << last_error_message();
    EXPECT_EQ(ks.name, "rl_reorder");
    EXPECT_NE(ks.source.find("vstore_half_rte(0.0f"), std::string::npos) << ks.source;
    EXPECT_NE(ks.source.find(">= 17"), std::string::npos) << ks.source;
    EXPECT_NE(ks.source.find(p.dump()), std::string::npos);
}

TEST(ocl_plan_gen, irregular_blocks_use_constant_tables) {
    const plan_t p = make_plan({ 2, 100 }, relayout_f32, "aB48b", relayout_f32, "aB64b");
    ASSERT_FALSE(p.tabs.empty());
    kernel_source_t ks;
    ASSERT_EQ(gen_plan_kernel(p, &ks), status_t::success) << last_error_message();
    EXPECT_NE(ks.source.find("__constant long tab0s["), std::string::npos) << ks.source;
}

TEST(ocl_plan_gen, equal_types_are_bit_copies) {
    const plan_t p = make_plan({ 3, 33, 2, 2 }, relayout_s8, "abcd", relayout_s8, "aBcd32b");
    kernel_source_t ks;
    ASSERT_EQ(gen_plan_kernel(p, &ks), status_t::success) << last_error_message();
    EXPECT_NE(ks.source.find("__global const uchar *src"), std::string::npos) << ks.source;
}

TEST(ocl_plan_gen, attributes_become_the_value_pipeline) {
    attr_t a;
    a.src_scales.mask = 2;
    a.src_scales.values = { 0.5f, 3.f, 0.1f };
    a.dst_scales.values = { 0.3f };
    a.src_zp = 4;
    a.beta = 0.5f;
    const plan_t p = make_plan({ 2, 3, 4 }, relayout_f32, "abc", relayout_s8, "acb", a);
    kernel_source_t ks;
    ASSERT_EQ(gen_plan_kernel(p, &ks, a), status_t::success) << last_error_message();
    // the per-channel table, exact, and the steps in the reference's order
    EXPECT_NE(
            ks.source.find("__constant float ssc[3] = {(0x1p-1f),(0x1.8p+1f),"), std::string::npos)
            << ks.source;
    const size_t zp = ks.source.find("v = v - (0x1p+2f)"), sc = ks.source.find("* v;"),
                 sum = ks.source.find("v = v + (0x1p-1f) * ("), div = ks.source.find("v = v / ");
    ASSERT_NE(zp, std::string::npos) << ks.source;
    EXPECT_LT(zp, sc);
    EXPECT_LT(sc, sum);
    EXPECT_LT(sum, div);
    EXPECT_NE(ks.source.find("rl_to_int(v)"), std::string::npos);
    EXPECT_NE(ks.source.find("rint(fmin(fmax(v, (-0x1p+7f)), (0x1.fcp+6f)))"), std::string::npos)
            << ks.source;
    EXPECT_NE(ks.source.find("FP_CONTRACT OFF"), std::string::npos);
    EXPECT_EQ(ks.options, "-cl-fp32-correctly-rounded-divide-sqrt");
    EXPECT_TRUE(plan_kernel_divides(p));
    // without the values the plan cannot be generated
    EXPECT_EQ(gen_plan_kernel(p, &ks), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("no values"), std::string::npos);
    // integer and bf16 conversions without attributes need no options
    const plan_t q = make_plan({ 4, 4 }, relayout_s8, "ab", relayout_bf16, "ba");
    ASSERT_EQ(gen_plan_kernel(q, &ks), status_t::success) << last_error_message();
    EXPECT_NE(ks.source.find("rl_to_bf16"), std::string::npos);
    EXPECT_EQ(ks.options, "");
}

TEST(ocl_plan_gen, compensation_sums_then_a_second_kernel_and_huge_scale_tables_refused) {
    memory_desc_t s, d;
    const int64_t dims[] = { 32, 16, 3, 3 };
    ASSERT_EQ(md_init_by_tag(s, 4, dims, relayout_f32, "abcd"), status_t::success);
    ASSERT_EQ(md_init_by_tag(d, 4, dims, relayout_s8, "ABcd4b16a4b"), status_t::success);
    d.extra.flags = relayout_extra_flag_compensation_conv_s8s8;
    d.extra.compensation_mask = 1;
    plan_t p;
    ASSERT_EQ(plan_create(p, s, d, attr_t()), status_t::success) << last_error_message();
    kernel_source_t ks;
    ASSERT_EQ(gen_plan_kernel(p, &ks), status_t::success) << last_error_message();
    EXPECT_EQ(ks.comp_entries, 32u);
    EXPECT_NE(ks.source.find("__global int *acc) {"), std::string::npos) << ks.source;
    EXPECT_NE(ks.source.find("atomic_add(&acc["), std::string::npos) << ks.source;
    EXPECT_NE(ks.source.find("__kernel void rl_compensate("), std::string::npos) << ks.source;
    EXPECT_NE(ks.source.find("(int)(s * 0xffffff80u)"), std::string::npos) << ks.source;
    attr_t a;
    a.src_scales.mask = 3;
    a.src_scales.values.assign(200 * 100, 0.5f);
    const plan_t big = make_plan({ 200, 100 }, relayout_f32, "ab", relayout_s8, "ba", a);
    EXPECT_EQ(gen_plan_kernel(big, &ks, a), status_t::unimplemented);
    EXPECT_NE(last_error_message().find("__constant memory"), std::string::npos);
}

TEST(ocl_plan_gen, transposes_run_in_tiles_other_plans_one_position_per_item) {
    // nchw -> nhwc: node a is w*h (src stride 1), node b is c (dst stride
    // 1); 37 x 95 positions make 3 x 6 tiles of 16 x 16 per image, the
    // last ones partial.
    const plan_t t = make_plan({ 2, 37, 5, 19 }, relayout_f32, "abcd", relayout_f32, "acdb");
    kernel_source_t ks;
    ASSERT_EQ(gen_plan_kernel(t, &ks), status_t::success) << last_error_message();
    EXPECT_NE(ks.source.find("uint t[16][16];"), std::string::npos) << ks.source;
    EXPECT_NE(ks.source.find("const int la = "), std::string::npos) << ks.source;
    EXPECT_NE(ks.source.find("const int lb = "), std::string::npos) << ks.source;
    EXPECT_EQ(ks.global[0], 6u) << t.dump();
    EXPECT_EQ(ks.global[1], 2u * 3u) << t.dump();
    EXPECT_EQ(ks.cpu_max_local, 8u);
    // short nodes make short tiles: 3 x 5
    const plan_t small = make_plan({ 3, 5 }, relayout_f32, "ab", relayout_s8, "ba");
    ASSERT_EQ(gen_plan_kernel(small, &ks), status_t::success) << last_error_message();
    EXPECT_NE(ks.source.find("float t[3][5];"), std::string::npos) << ks.source;
    EXPECT_EQ(ks.source.find("const int la = "), std::string::npos) << ks.source;
    // same layout: one position per item, no tiles, no cap on the group
    const plan_t c = make_plan({ 2, 37, 5, 19 }, relayout_f32, "abcd", relayout_f16, "abcd");
    ASSERT_EQ(gen_plan_kernel(c, &ks), status_t::success) << last_error_message();
    EXPECT_EQ(ks.source.find(" t["), std::string::npos) << ks.source;
    EXPECT_EQ(ks.cpu_max_local, 0u);
}

TEST(ocl_plan_gen, programs_build_on_the_device) {
    RL_OCL_GET_CONTEXT(ctx);
    for (const plan_t &p :
            { make_plan({ 2, 17, 5, 3 }, relayout_f32, "abcd", relayout_f16, "aBcd16b"),
                    make_plan({ 2, 100 }, relayout_f16, "aB48b", relayout_f32, "aB64b"),
                    make_plan({ 20, 9, 3, 3 }, relayout_f32, "abcd", relayout_f32, "ABcd4b16a4b"),
                    make_plan({ 5, 7 }, relayout_f16, "ab", relayout_u8, "ba"),
                    make_plan({ 5, 7 }, relayout_bf16, "ab", relayout_s32, "ba"),
                    make_plan({ 5, 7 }, relayout_s32, "ab", relayout_bf16, "ba") }) {
        kernel_source_t ks;
        ASSERT_EQ(gen_plan_kernel(p, &ks), status_t::success);
        cl_ref_t<cl_kernel> k;
        EXPECT_EQ(ctx->get_kernel(ks.source, ks.name, &k, nullptr, ks.options), status_t::success)
                << last_error_message();
    }
}

} // namespace
} // namespace rl_ocl_test
