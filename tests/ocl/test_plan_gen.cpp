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

TEST(ocl_plan_gen, refuses_attributes_and_integer_conversions) {
    attr_t a;
    a.src_scales.values = { 2.f };
    kernel_source_t ks;
    EXPECT_EQ(gen_plan_kernel(make_plan({ 4, 4 }, relayout_f32, "ab", relayout_f32, "ba", a), &ks),
            status_t::unimplemented);
    EXPECT_NE(last_error_message().find("attributes"), std::string::npos);
    EXPECT_EQ(gen_plan_kernel(make_plan({ 4, 4 }, relayout_s8, "ab", relayout_f32, "ba"), &ks),
            status_t::unimplemented);
    EXPECT_NE(last_error_message().find("s8 -> f32"), std::string::npos);
}

TEST(ocl_plan_gen, programs_build_on_the_device) {
    RL_OCL_GET_CONTEXT(ctx);
    for (const plan_t &p : {
                 make_plan({ 2, 17, 5, 3 }, relayout_f32, "abcd", relayout_f16, "aBcd16b"),
                 make_plan({ 2, 100 }, relayout_f16, "aB48b", relayout_f32, "aB64b"),
                 make_plan({ 20, 9, 3, 3 }, relayout_f32, "abcd", relayout_f32, "ABcd4b16a4b") }) {
        kernel_source_t ks;
        ASSERT_EQ(gen_plan_kernel(p, &ks), status_t::success);
        cl_ref_t<cl_kernel> k;
        EXPECT_EQ(ctx->get_kernel(ks.source, ks.name, &k), status_t::success)
                << last_error_message();
    }
}

} // namespace
} // namespace rl_ocl_test
