// Descriptor operations: submemory_desc, reshape, permute_axes and the extra
// (compensation) section. Spec: DESIGN §2.3-§2.4, the oneDNN Memory page.
//
// Each operation is checked by its meaning, through the public offset
// formula: a view must address exactly the parent's elements.
#include <gtest/gtest.h>

#include "api_test_utils.hpp"

using namespace api_test;

namespace {

dims_t unravel(dim_t l, const dims_t &extent) {
    dims_t pos(extent.size());
    for (int d = (int)extent.size() - 1; d >= 0; --d) {
        pos[d] = l % extent[d];
        l /= extent[d];
    }
    return pos;
}

// Element l (logical row-major) of `a` and of `b` live at the same offset.
void expect_same_elements(const memory::desc &a, const memory::desc &b) {
    const layout_t la = layout_of(a), lb = layout_of(b);
    ASSERT_EQ(volume(la.dims), volume(lb.dims));
    for (dim_t l = 0; l < volume(la.dims); ++l) {
        const dim_t oa = offset_of(la, unravel(l, la.dims));
        const dim_t ob = offset_of(lb, unravel(l, lb.dims));
        if (oa != ob) {
            ADD_FAILURE() << "element " << l << ": " << oa << " vs " << ob << " (" << a.str()
                          << " vs " << b.str() << ")";
            return;
        }
    }
}

relayout_status_t c_submemory(const memory::desc &parent, const dims_t &dims, const dims_t &offs) {
    relayout_dims_t d = {}, o = {};
    for (size_t i = 0; i < dims.size(); ++i)
        d[i] = dims[i], o[i] = offs[i];
    relayout_memory_desc_t md = reinterpret_cast<relayout_memory_desc_t>(0x1);
    const relayout_status_t st = relayout_memory_desc_create_submemory(&md, parent.get(), d, o);
    if (st == relayout_success)
        relayout_memory_desc_destroy(md);
    else
        EXPECT_EQ(md, nullptr);
    return st;
}

} // namespace

// ---- submemory_desc ----------------------------------------------------------

TEST(Submemory, PlainRegionKeepsStridesAndMovesOffset0) {
    const memory::desc parent({ 2, 8, 6, 5 }, dt::f32, tag::nchw); // strides 240 30 5 1
    const memory::desc sub = parent.submemory_desc({ 1, 4, 3, 5 }, { 1, 4, 2, 0 });
    EXPECT_EQ(sub.get_dims(), (dims_t{ 1, 4, 3, 5 }));
    EXPECT_EQ(sub.get_padded_dims(), (dims_t{ 1, 4, 3, 5 }));
    EXPECT_EQ(sub.get_strides(), parent.get_strides());
    EXPECT_EQ(sub.get_offset0(), 1 * 240 + 4 * 30 + 2 * 5);
    EXPECT_EQ(sub.get_data_type(), dt::f32);
    EXPECT_TRUE(sub != parent);
}

TEST(Submemory, OffsetZeroGrowsAcrossNestedViews) {
    const memory::desc parent({ 10, 10 }, dt::s8, tag::ab);
    const memory::desc a = parent.submemory_desc({ 6, 6 }, { 2, 3 });
    EXPECT_EQ(a.get_offset0(), 23);
    const memory::desc b = a.submemory_desc({ 2, 2 }, { 1, 1 });
    EXPECT_EQ(b.get_offset0(), 23 + 11);
}

TEST(Submemory, FullRegionEqualsTheParent) {
    const memory::desc parent({ 2, 17, 5, 3 }, dt::f32, tag::nChw16c);
    EXPECT_TRUE(parent.submemory_desc({ 2, 17, 5, 3 }, { 0, 0, 0, 0 }) == parent);
}

struct sub_case_t {
    const char *name;
    dims_t pdims;
    std::string ptag;
    dims_t dims, offs;
};
API_TEST_PRINT_BY_NAME(sub_case_t)
class SubmemoryRegion : public ::testing::TestWithParam<sub_case_t> {};

// Every element of the view is the parent's element at pos + offsets.
TEST_P(SubmemoryRegion, AddressesTheParentsElements) {
    const auto &c = GetParam();
    const memory::desc parent(c.pdims, dt::f32, c.ptag);
    const memory::desc sub = parent.submemory_desc(c.dims, c.offs);
    const layout_t lp = layout_of(parent), ls = layout_of(sub);
    EXPECT_EQ(ls.strides, lp.strides);
    EXPECT_EQ(ls.blks, lp.blks);
    EXPECT_EQ(ls.idxs, lp.idxs);
    for_each_pos(c.dims, [&](const dims_t &pos, dim_t) {
        dims_t pp(pos);
        for (size_t d = 0; d < pos.size(); ++d)
            pp[d] += c.offs[d];
        ASSERT_EQ(offset_of(ls, pos), offset_of(lp, pp));
    });
}

const sub_case_t sub_cases[] = {
    { "nchw", { 2, 8, 6, 5 }, "nchw", { 1, 4, 3, 5 }, { 1, 4, 2, 0 } },
    { "nhwc", { 2, 8, 6, 5 }, "nhwc", { 2, 3, 2, 2 }, { 0, 5, 4, 3 } },
    { "nChw16c_second_block", { 2, 40, 4, 4 }, "nChw16c", { 2, 16, 4, 4 }, { 0, 16, 0, 0 } },
    { "nChw16c_tail_block", { 2, 40, 4, 4 }, "nChw16c", { 1, 8, 2, 3 }, { 1, 32, 1, 1 } },
    { "OIhw16i16o", { 32, 48, 3, 3 }, "OIhw16i16o", { 16, 16, 3, 1 }, { 16, 32, 0, 2 } },
    { "OIhw4i16o4i", { 32, 48, 3, 3 }, "OIhw4i16o4i", { 16, 32, 1, 3 }, { 0, 16, 2, 0 } },
    { "BA16a64b4a", { 128, 128 }, "BA16a64b4a", { 64, 64 }, { 64, 64 } },
};
INSTANTIATE_TEST_SUITE_P(Views, SubmemoryRegion, ::testing::ValuesIn(sub_cases),
        [](const ::testing::TestParamInfo<sub_case_t> &i) { return std::string(i.param.name); });

TEST(Submemory, BlockedParentOffset0IsTheBlockStart) {
    // nChw16c 2x40x4x4: inner 16, w 16, h 64, C blocks 256, n 768.
    const memory::desc parent({ 2, 40, 4, 4 }, dt::f32, tag::nChw16c);
    const memory::desc sub = parent.submemory_desc({ 2, 16, 4, 4 }, { 0, 16, 0, 0 });
    EXPECT_EQ(sub.get_offset0(), 256);
    EXPECT_EQ(sub.get_padded_dims(), (dims_t{ 2, 16, 4, 4 }));
    // A tail region that ends at the parent's end may be partial: padded.
    const memory::desc tail = parent.submemory_desc({ 2, 8, 4, 4 }, { 0, 32, 0, 0 });
    EXPECT_EQ(tail.get_offset0(), 512);
    EXPECT_EQ(tail.get_padded_dims(), (dims_t{ 2, 16, 4, 4 }));
}

struct bad_sub_case_t {
    const char *name;
    dims_t dims, offs;
};
API_TEST_PRINT_BY_NAME(bad_sub_case_t)
class SubmemoryRejected : public ::testing::TestWithParam<bad_sub_case_t> {};
TEST_P(SubmemoryRejected, IsInvalidArguments) {
    const auto &c = GetParam();
    const memory::desc parent({ 2, 40, 4, 4 }, dt::f32, tag::nChw16c);
    EXPECT_EQ(c_submemory(parent, c.dims, c.offs), relayout_invalid_arguments);
    EXPECT_TRUE(contains_ci(last_error(), "offsets") || contains_ci(last_error(), "dims"))
            << last_error();
    expect_error(relayout_invalid_arguments, [&] { parent.submemory_desc(c.dims, c.offs); });
    // allow_empty turns the failure into a zero descriptor.
    EXPECT_TRUE(parent.submemory_desc(c.dims, c.offs, true).is_zero());
}
const bad_sub_case_t bad_subs[] = {
    { "offset_not_block_aligned", { 2, 16, 4, 4 }, { 0, 8, 0, 0 } },
    { "size_not_block_multiple_inside", { 2, 8, 4, 4 }, { 0, 16, 0, 0 } },
    { "beyond_the_end", { 2, 16, 4, 4 }, { 0, 32, 0, 0 } },
    { "beyond_the_end_plain_dim", { 2, 16, 4, 4 }, { 1, 0, 0, 0 } },
    { "negative_offset", { 2, 16, 4, 4 }, { 0, 0, -1, 0 } },
    { "negative_dim", { 2, 16, -1, 4 }, { 0, 0, 0, 0 } },
};
INSTANTIATE_TEST_SUITE_P(Bad, SubmemoryRejected, ::testing::ValuesIn(bad_subs),
        [](const ::testing::TestParamInfo<bad_sub_case_t> &i) {
            return std::string(i.param.name);
        });

TEST(Submemory, WrongRankIsRejected) {
    const memory::desc parent({ 4, 4 }, dt::f32, tag::ab);
    expect_error(relayout_invalid_arguments, [&] {
        parent.submemory_desc({ 2, 2, 1 }, { 0, 0, 0 });
    });
}

// ---- reshape -----------------------------------------------------------------

struct reshape_case_t {
    const char *name;
    dims_t dims;
    std::string tag;
    dims_t new_dims;
    std::string expect_tag; // "" : only checked element by element
};
API_TEST_PRINT_BY_NAME(reshape_case_t)
class ReshapeAccepted : public ::testing::TestWithParam<reshape_case_t> {};
TEST_P(ReshapeAccepted, KeepsEveryElementInPlace) {
    const auto &c = GetParam();
    const memory::desc md(c.dims, dt::f32, c.tag);
    const memory::desc r = md.reshape(c.new_dims);
    EXPECT_EQ(r.get_dims(), c.new_dims);
    EXPECT_EQ(r.get_data_type(), dt::f32);
    EXPECT_EQ(r.get_size(), md.get_size());
    expect_same_elements(md, r);
    if (!c.expect_tag.empty()) {
        EXPECT_TRUE(r == memory::desc(c.new_dims, dt::f32, c.expect_tag))
                << r.str() << " vs " << c.expect_tag;
    }
}
const reshape_case_t reshape_ok[] = {
    { "add_one", { 2, 3, 4 }, "abc", { 2, 1, 3, 4 }, "abcd" },
    { "add_ones_at_ends", { 2, 3 }, "ab", { 1, 2, 3, 1 }, "abcd" },
    { "remove_one", { 2, 1, 3, 4 }, "abcd", { 2, 3, 4 }, "abc" },
    { "split", { 6, 4 }, "ab", { 2, 3, 4 }, "abc" },
    { "join", { 2, 3, 4 }, "abc", { 6, 4 }, "ab" },
    { "join_all", { 2, 3, 4 }, "abc", { 24 }, "a" },
    { "join_inner_of_permuted", { 2, 3, 4, 5 }, "acdb", { 2, 3, 20 }, "acb" },
    { "split_outer_of_permuted", { 6, 5 }, "ba", { 2, 3, 5 }, "cab" },
    { "split_plain_dim_of_blocked", { 2, 16, 6, 3 }, "aBcd16b", { 2, 16, 2, 3, 3 }, "aBcde16b" },
    { "add_one_to_blocked", { 2, 17, 3 }, "aBc16b", { 2, 17, 1, 3 }, "aBcd16b" },
    { "remove_one_from_blocked", { 2, 17, 1, 3 }, "aBcd16b", { 2, 17, 3 }, "aBc16b" },
    { "identity", { 2, 17, 3 }, "aBc16b", { 2, 17, 3 }, "aBc16b" },
};
INSTANTIATE_TEST_SUITE_P(Ok, ReshapeAccepted, ::testing::ValuesIn(reshape_ok),
        [](const ::testing::TestParamInfo<reshape_case_t> &i) {
            return std::string(i.param.name);
        });

TEST(Reshape, JoinOfStridedDenseDimsKeepsTheGap) {
    // Rows of 6 with a stride of 8: joining [2,3] -> 6 inside a row is fine.
    const memory::desc md({ 4, 2, 3 }, dt::f32, dims_t{ 8, 3, 1 });
    const memory::desc r = md.reshape({ 4, 6 });
    EXPECT_EQ(r.get_strides(), (dims_t{ 8, 1 }));
    expect_same_elements(md, r);
}

struct bad_reshape_case_t {
    const char *name;
    dims_t dims;
    std::string tag; // "" : use `strides`
    dims_t strides;
    dims_t new_dims;
};
API_TEST_PRINT_BY_NAME(bad_reshape_case_t)
class ReshapeRejected : public ::testing::TestWithParam<bad_reshape_case_t> {};
TEST_P(ReshapeRejected, IsInvalidArgumentsWithAMessage) {
    const auto &c = GetParam();
    const memory::desc md = c.tag.empty() ? memory::desc(c.dims, dt::f32, c.strides)
                                          : memory::desc(c.dims, dt::f32, c.tag);
    const std::string what =
            expect_error(relayout_invalid_arguments, [&] { md.reshape(c.new_dims); });
    EXPECT_TRUE(contains_ci(what, "reshape")) << what;
    EXPECT_TRUE(md.reshape(c.new_dims, true).is_zero());
}
const bad_reshape_case_t reshape_bad[] = {
    { "join_permuted", { 2, 3, 4 }, "acb", {}, { 2, 12 } },
    { "join_permuted_outer", { 2, 3, 4 }, "bca", {}, { 6, 4 } },
    { "join_with_gap", { 2, 3 }, "", { 8, 2 }, { 6 } },
    { "join_transposed", { 2, 3 }, "ba", {}, { 6 } },
    { "split_blocked_dim", { 2, 32, 3, 3 }, "aBcd16b", {}, { 2, 2, 16, 3, 3 } },
    { "join_blocked_dim", { 2, 32, 3, 3 }, "aBcd16b", {}, { 64, 3, 3 } },
    { "remove_padded_one", { 2, 1, 3, 3 }, "aBcd16b", {}, { 2, 3, 3 } },
    { "volume_mismatch", { 2, 3, 4 }, "abc", {}, { 5, 5 } },
    { "volume_mismatch_extra_dim", { 2, 3, 4 }, "abc", {}, { 2, 3, 4, 2 } },
};
INSTANTIATE_TEST_SUITE_P(Bad, ReshapeRejected, ::testing::ValuesIn(reshape_bad),
        [](const ::testing::TestParamInfo<bad_reshape_case_t> &i) {
            return std::string(i.param.name);
        });

// ---- permute_axes -------------------------------------------------------------

TEST(PermuteAxes, TheSeedsExample) {
    const memory::desc in({ 2, 3 }, dt::f32, tag::ab);
    const memory::desc expect({ 3, 2 }, dt::f32, tag::ba);
    EXPECT_TRUE(in.permute_axes({ 1, 0 }) == expect);
}

struct permute_case_t {
    const char *name;
    dims_t dims;
    std::string tag;
    std::vector<int> perm;
    dims_t new_dims;
    std::string expect_tag;
};
API_TEST_PRINT_BY_NAME(permute_case_t)
class PermuteAxes : public ::testing::TestWithParam<permute_case_t> {};
TEST_P(PermuteAxes, RelabelsAxesOnly) {
    const auto &c = GetParam();
    const memory::desc md(c.dims, dt::f32, c.tag);
    const memory::desc p = md.permute_axes(c.perm);
    EXPECT_EQ(p.get_dims(), c.new_dims);
    EXPECT_TRUE(p == memory::desc(c.new_dims, dt::f32, c.expect_tag))
            << p.str() << " vs " << c.expect_tag;
    EXPECT_EQ(p.get_size(), md.get_size());
    // new.dims[perm[i]] = dims[i]: the element at pos is at pos' in p.
    const layout_t lm = layout_of(md), lp = layout_of(p);
    for_each_pos(c.dims, [&](const dims_t &pos, dim_t) {
        dims_t np(pos.size());
        for (size_t i = 0; i < pos.size(); ++i)
            np[c.perm[i]] = pos[i];
        ASSERT_EQ(offset_of(lp, np), offset_of(lm, pos));
    });
}
const permute_case_t permute_cases[] = {
    { "ab_swap", { 2, 3 }, "ab", { 1, 0 }, { 3, 2 }, "ba" },
    { "nchw_to_nhwc_view", { 2, 3, 4, 5 }, "nchw", { 0, 2, 3, 1 }, { 2, 5, 3, 4 }, "acdb" },
    { "identity", { 2, 3, 4 }, "bca", { 0, 1, 2 }, { 2, 3, 4 }, "bca" },
    { "blocked_channel_becomes_first", { 2, 17, 4, 5 }, "aBcd16b", { 1, 0, 2, 3 }, { 17, 2, 4, 5 },
            "bAcd16a" },
    { "OIhw16i16o_swap_oi", { 20, 17, 3, 3 }, "ABcd16b16a", { 1, 0, 2, 3 }, { 17, 20, 3, 3 },
            "BAcd16a16b" },
    { "OIhw4i16o4i_rotate", { 20, 17, 3, 2 }, "ABcd4b16a4b", { 3, 2, 0, 1 }, { 3, 2, 17, 20 },
            "DCab4c16d4c" },
};
INSTANTIATE_TEST_SUITE_P(Cases, PermuteAxes, ::testing::ValuesIn(permute_cases),
        [](const ::testing::TestParamInfo<permute_case_t> &i) {
            return std::string(i.param.name);
        });

TEST(PermuteAxes, InvalidPermutationsAreRejected) {
    const memory::desc md({ 2, 3, 4 }, dt::f32, tag::abc);
    for (const std::vector<int> &perm :
            std::vector<std::vector<int>>{ { 0, 0, 1 }, { 0, 1, 3 }, { -1, 0, 1 }, { 2, 2, 2 } }) {
        relayout_memory_desc_t out = reinterpret_cast<relayout_memory_desc_t>(0x1);
        EXPECT_EQ(relayout_memory_desc_permute_axes(&out, md.get(), perm.data()),
                relayout_invalid_arguments);
        EXPECT_EQ(out, nullptr);
        EXPECT_TRUE(contains_ci(last_error(), "permutation")) << last_error();
        expect_error(relayout_invalid_arguments, [&] { md.permute_axes(perm); });
        EXPECT_TRUE(md.permute_axes(perm, true).is_zero());
    }
    // Wrong length.
    expect_error(relayout_invalid_arguments, [&] { md.permute_axes({ 1, 0 }); });
}

// ---- extra: compensation ----------------------------------------------------------

struct extra_case_t {
    const char *name;
    dims_t dims;
    std::string tag;
    dt type;
    uint64_t flags;
    int comp_mask, asymm_mask;
    size_t size; // bytes, by hand
};
API_TEST_PRINT_BY_NAME(extra_case_t)
class ExtraSize : public ::testing::TestWithParam<extra_case_t> {};

// [data][round up to 4 bytes][s8s8: int32 x prod(masked padded dims)][zp: ...]
TEST_P(ExtraSize, CompensationBuffersFollowTheData) {
    const auto &c = GetParam();
    const memory::desc plain(c.dims, c.type, c.tag);
    const memory::desc md = plain.with_extra(c.flags, c.comp_mask, c.asymm_mask);
    EXPECT_EQ(md.get_size(), c.size);
    EXPECT_EQ(md.get_extra_flags(), c.flags);
    EXPECT_TRUE(md != plain);
    int m = -1;
    ASSERT_EQ(relayout_memory_desc_query(md.get(), relayout_query_compensation_mask_s32, &m),
            relayout_success);
    if (c.flags & relayout_extra_flag_compensation_conv_s8s8) {
        EXPECT_EQ(m, c.comp_mask);
    }
    ASSERT_EQ(relayout_memory_desc_query(md.get(), relayout_query_asymm_compensation_mask_s32, &m),
            relayout_success);
    if (c.flags & relayout_extra_flag_compensation_conv_asymmetric_src) {
        EXPECT_EQ(m, c.asymm_mask);
    }
}
constexpr uint64_t s8s8 = relayout_extra_flag_compensation_conv_s8s8;
constexpr uint64_t zpc = relayout_extra_flag_compensation_conv_asymmetric_src;
const extra_case_t extra_cases[] = {
    // 9 data bytes round up to 12, then 3 int32.
    { "s8s8_mask1_3x3", { 3, 3 }, "ab", dt::s8, s8s8, 1, 0, 12 + 12 },
    { "s8s8_mask3_3x3", { 3, 3 }, "ab", dt::s8, s8s8, 3, 0, 12 + 36 },
    { "zp_mask1_3x3", { 3, 3 }, "ab", dt::s8, zpc, 0, 1, 12 + 12 },
    { "both_3x3", { 3, 3 }, "ab", dt::s8, s8s8 | zpc, 1, 2, 12 + 12 + 12 },
    // OIhw4i16o4i 2x3x1x1: padded 16x16 = 256 bytes; O padded to 16.
    { "OIhw4i16o4i_mask1", { 2, 3, 1, 1 }, "OIhw4i16o4i", dt::s8, s8s8, 1, 0, 256 + 64 },
    { "OIhw4i16o4i_both", { 2, 3, 1, 1 }, "OIhw4i16o4i", dt::s8, s8s8 | zpc, 1, 1, 256 + 64 + 64 },
    { "OIhw16i16o_20x17", { 20, 17, 1, 1 }, "OIhw16i16o", dt::s8, s8s8, 1, 0, 1024 + 128 },
    // goihw 2x3x5x1x1: 30 bytes -> 32, then g*o = 6 int32.
    { "goihw_mask3", { 2, 3, 5, 1, 1 }, "goihw", dt::s8, s8s8, 3, 0, 32 + 24 },
    { "gOIhw4i16o4i_mask3", { 2, 3, 5, 1, 1 }, "gOIhw4i16o4i", dt::s8, s8s8, 3, 0,
            2 * 256 + 2 * 16 * 4 },
    { "u8_zp_only", { 5, 3 }, "ab", dt::u8, zpc, 0, 1, 16 + 20 },
};
INSTANTIATE_TEST_SUITE_P(ByHand, ExtraSize, ::testing::ValuesIn(extra_cases),
        [](const ::testing::TestParamInfo<extra_case_t> &i) { return std::string(i.param.name); });

TEST(Extra, ScaleAdjustIsStoredAndDoesNotChangeTheSize) {
    const memory::desc plain({ 16, 16, 1, 1 }, dt::s8, tag::OIhw4i16o4i);
    const memory::desc md = plain.with_extra(
            relayout_extra_flag_scale_adjust | relayout_extra_flag_compensation_conv_s8s8, 1, 0,
            0.5f);
    float adj = 0.f;
    ASSERT_EQ(relayout_memory_desc_query(md.get(), relayout_query_scale_adjust_f32, &adj),
            relayout_success);
    EXPECT_EQ(adj, 0.5f);
    EXPECT_EQ(md.get_size(), 256u + 64u);
}

TEST(Extra, CompensationOnFloatIsRejected) {
    const memory::desc f32({ 16, 16 }, dt::f32, tag::ab);
    std::string what = expect_error(relayout_invalid_arguments, [&] { f32.with_extra(s8s8, 1); });
    EXPECT_TRUE(contains_ci(what, "f32") || contains_ci(what, "s8")) << what;
    expect_error(relayout_invalid_arguments, [&] { f32.with_extra(zpc, 0, 1); });
    // s8s8 needs s8 specifically.
    const memory::desc u8({ 16, 16 }, dt::u8, tag::ab);
    expect_error(relayout_invalid_arguments, [&] { u8.with_extra(s8s8, 1); });
}

struct bad_extra_case_t {
    const char *name;
    uint64_t flags;
    int comp_mask, asymm_mask;
    float adj;
    const char *keyword;
};
API_TEST_PRINT_BY_NAME(bad_extra_case_t)
class ExtraRejected : public ::testing::TestWithParam<bad_extra_case_t> {};
TEST_P(ExtraRejected, IsInvalidArguments) {
    const auto &c = GetParam();
    const memory::desc md({ 4, 4, 1, 1 }, dt::s8, tag::oihw);
    relayout_memory_desc_t h = nullptr;
    ASSERT_EQ(relayout_memory_desc_clone(&h, md.get()), relayout_success);
    EXPECT_EQ(relayout_memory_desc_set_extra(h, c.flags, c.comp_mask, c.asymm_mask, c.adj),
            relayout_invalid_arguments);
    EXPECT_TRUE(contains_ci(last_error(), c.keyword)) << last_error();
    // A failed set leaves the descriptor as it was.
    EXPECT_EQ(relayout_memory_desc_equal(h, md.get()), 1);
    relayout_memory_desc_destroy(h);
}
const bad_extra_case_t bad_extras[] = {
    { "s8s8_mask0", s8s8, 0, 0, 1.f, "mask" },
    { "s8s8_mask_beyond_ndims", s8s8, 1 << 4, 0, 1.f, "mask" },
    { "s8s8_negative_mask", s8s8, -1, 0, 1.f, "mask" },
    { "zp_mask0", zpc, 0, 0, 1.f, "mask" },
    { "zp_mask_beyond_ndims", zpc, 0, 0x30, 1.f, "mask" },
    { "unknown_flag", 4u, 1, 0, 1.f, "flag" },
    { "high_unknown_flag", uint64_t(1) << 40, 1, 0, 1.f, "flag" },
    { "scale_adjust_zero", relayout_extra_flag_scale_adjust, 0, 0, 0.f, "scale_adjust" },
    { "scale_adjust_nan", relayout_extra_flag_scale_adjust, 0, 0, NAN, "scale_adjust" },
};
INSTANTIATE_TEST_SUITE_P(Bad, ExtraRejected, ::testing::ValuesIn(bad_extras),
        [](const ::testing::TestParamInfo<bad_extra_case_t> &i) {
            return std::string(i.param.name);
        });
