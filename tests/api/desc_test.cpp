// Memory descriptors: format tags (enum, string, alias), construction from
// tags and strides, sizes, equality and the rejection of bad input.
// Spec: DESIGN §2.1-§2.3, the oneDNN Memory page (seeds/).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "api_test_utils.hpp"

using namespace api_test;

namespace {

// ---- the tag manifest, read with our own macros --------------------------

struct tag_entry_t {
    const char *name;
    relayout_format_tag_t tag;
    const char *canonical;
};
API_TEST_PRINT_BY_NAME(tag_entry_t)
const tag_entry_t all_tags[] = {
#define RELAYOUT_TAG(name, str) { #name, relayout_##name, str },
#define RELAYOUT_TAG_ALIAS(alias, name)
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
};

struct alias_entry_t {
    const char *alias;
    relayout_format_tag_t alias_tag;
    const char *target;
    relayout_format_tag_t target_tag;
};
const alias_entry_t all_aliases[] = {
#define RELAYOUT_TAG(name, str)
#define RELAYOUT_TAG_ALIAS(alias, name) { #alias, relayout_##alias, #name, relayout_##name },
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
};

void PrintTo(const alias_entry_t &a, std::ostream *os) {
    *os << a.alias;
}

// Number of outer letters of a canonical tag (no 'x').
int outer_letters(const std::string &t) {
    int n = 0;
    while (n < (int)t.size() && std::isalpha((unsigned char)t[n]))
        ++n;
    return n;
}

// Our own reading of DESIGN §2.2 for a well-formed canonical tag: padded
// dims, strides, inner blocks. Independent of the library's parser.
layout_t expected_layout(const std::string &t, const dims_t &dims, size_t esz) {
    layout_t l;
    const int nd = outer_letters(t);
    l.ndims = nd;
    l.dims = dims;
    l.esz = esz;
    l.padded_offsets.assign(nd, 0);
    std::vector<int> order;
    for (int k = 0; k < nd; ++k)
        order.push_back(std::tolower(t[k]) - 'a');
    size_t p = nd;
    dims_t blocks(nd, 1);
    dim_t inner = 1;
    while (p < t.size()) {
        dim_t b = 0;
        while (std::isdigit((unsigned char)t[p]))
            b = b * 10 + (t[p++] - '0');
        const int d = t[p++] - 'a';
        l.blks.push_back(b);
        l.idxs.push_back(d);
        blocks[d] *= b;
        inner *= b;
    }
    l.padded.resize(nd);
    for (int d = 0; d < nd; ++d)
        l.padded[d] = (dims[d] + blocks[d] - 1) / blocks[d] * blocks[d];
    l.strides.assign(nd, 0);
    dim_t s = inner;
    for (int k = nd - 1; k >= 0; --k) {
        const int d = order[k];
        l.strides[d] = s;
        s *= std::max<dim_t>(l.padded[d] / blocks[d], 1);
    }
    return l;
}

// Dims used for a tag of n dims: odd sizes and 17 for blocked dims so that
// every block has a tail; small when there are many dims.
dims_t dims_for(const std::string &t) {
    const int nd = outer_letters(t);
    dims_t d(nd);
    for (int i = 0; i < nd; ++i) {
        const bool blocked = t.find(char('A' + i)) != std::string::npos;
        if (blocked)
            d[i] = 17;
        else
            d[i] = nd > 6 ? 2 + i % 2 : 3 + i;
    }
    return d;
}

void expect_layout(const memory::desc &md, const layout_t &e, const std::string &what) {
    SCOPED_TRACE(what);
    const layout_t l = layout_of(md);
    ASSERT_EQ(l.ndims, e.ndims);
    EXPECT_EQ(l.dims, e.dims);
    EXPECT_EQ(l.padded, e.padded);
    EXPECT_EQ(l.blks, e.blks);
    EXPECT_EQ(l.idxs, e.idxs);
    // Strides of dims with a single outer index carry no information.
    for (int d = 0; d < e.ndims; ++d) {
        dim_t blk = 1;
        for (size_t i = 0; i < e.blks.size(); ++i)
            if (e.idxs[i] == d) blk *= e.blks[i];
        if (e.padded[d] / blk > 1) {
            EXPECT_EQ(l.strides[d], e.strides[d]) << "dim " << d;
        }
    }
    EXPECT_EQ(l.offset0, 0);
}

} // namespace

// ---- every enum tag: enum == canonical string == its own name ----------

class TagRoundTrip : public ::testing::TestWithParam<tag_entry_t> {};

TEST_P(TagRoundTrip, EnumStringAndNameGiveTheSameDescriptor) {
    const tag_entry_t e = GetParam();
    const std::string canon = e.canonical;
    const char *s = relayout_fmt_tag2str(e.tag);
    ASSERT_NE(s, nullptr) << e.name;
    EXPECT_EQ(std::string(s), canon) << "relayout_fmt_tag2str(" << e.name << ")";

    const dims_t dims = dims_for(canon);
    const memory::desc by_enum(dims, dt::f32, static_cast<tag>(e.tag));
    const memory::desc by_string(dims, dt::f32, canon);
    const memory::desc by_name(dims, dt::f32, std::string(e.name));
    EXPECT_TRUE(by_enum == by_string) << by_enum.str() << " vs " << by_string.str();
    EXPECT_TRUE(by_enum == by_name);
    EXPECT_EQ(by_enum.get_format_kind(), memory::format_kind::blocked);
    expect_layout(by_enum, expected_layout(canon, dims, 4), canon);
}

INSTANTIATE_TEST_SUITE_P(AllTags, TagRoundTrip, ::testing::ValuesIn(all_tags),
        [](const ::testing::TestParamInfo<tag_entry_t> &i) { return std::string(i.param.name); });

class TagAlias : public ::testing::TestWithParam<alias_entry_t> {};

TEST_P(TagAlias, AliasEnumAndAliasStringEqualTheTarget) {
    const alias_entry_t a = GetParam();
    EXPECT_EQ(a.alias_tag, a.target_tag);
    const char *canon = relayout_fmt_tag2str(a.target_tag);
    ASSERT_NE(canon, nullptr);
    EXPECT_STREQ(relayout_fmt_tag2str(a.alias_tag), canon);
    const dims_t dims = dims_for(canon);
    const memory::desc target(dims, dt::s8, static_cast<tag>(a.target_tag));
    const memory::desc by_alias_enum(dims, dt::s8, static_cast<tag>(a.alias_tag));
    const memory::desc by_alias_string(dims, dt::s8, std::string(a.alias));
    EXPECT_TRUE(target == by_alias_enum);
    EXPECT_TRUE(target == by_alias_string) << a.alias << ": " << by_alias_string.str();
}

INSTANTIATE_TEST_SUITE_P(AllAliases, TagAlias, ::testing::ValuesIn(all_aliases),
        [](const ::testing::TestParamInfo<alias_entry_t> &i) {
            return std::string(i.param.alias);
        });

// The domain names of the seed's format_tag list, spelled out by hand.
TEST(TagAlias, DomainNamesMatchTheSeed) {
    const std::map<std::string, std::string> seed = { { "x", "a" }, { "nc", "ab" }, { "cn", "ba" },
        { "tn", "ab" }, { "nt", "ba" }, { "ncw", "abc" }, { "nwc", "acb" }, { "nchw", "abcd" },
        { "nhwc", "acdb" }, { "chwn", "bcda" }, { "ncdhw", "abcde" }, { "ndhwc", "acdeb" },
        { "oi", "ab" }, { "io", "ba" }, { "oiw", "abc" }, { "owi", "acb" }, { "wio", "cba" },
        { "iwo", "bca" }, { "oihw", "abcd" }, { "hwio", "cdba" }, { "ohwi", "acdb" },
        { "ihwo", "bcda" }, { "iohw", "bacd" }, { "oidhw", "abcde" }, { "dhwio", "cdeba" },
        { "odhwi", "acdeb" }, { "idhwo", "bcdea" }, { "goiw", "abcd" }, { "wigo", "dcab" },
        { "goihw", "abcde" }, { "hwigo", "decab" }, { "giohw", "acbde" }, { "goidhw", "abcdef" },
        { "giodhw", "acbdef" }, { "dhwigo", "defcab" }, { "tnc", "abc" }, { "ntc", "bac" },
        { "ldnc", "abcd" }, { "ldigo", "abcde" }, { "ldgoi", "abdec" }, { "ldio", "abcd" },
        { "ldoi", "abdc" }, { "ldgo", "abcd" }, { "nChw16c", "aBcd16b" }, { "nChw8c", "aBcd8b" },
        { "OIhw16i16o", "ABcd16b16a" }, { "OIhw4i16o4i", "ABcd4b16a4b" },
        { "OIhw8i16o2i", "ABcd8b16a2b" }, { "gOIhw16i16o", "aBCde16c16b" } };
    for (const auto &kv : seed) {
        const auto it = std::find_if(std::begin(all_aliases), std::end(all_aliases),
                [&](const alias_entry_t &a) { return kv.first == a.alias; });
        ASSERT_NE(it, std::end(all_aliases)) << kv.first << " is not an enum name";
        const char *s = relayout_fmt_tag2str(it->alias_tag);
        ASSERT_NE(s, nullptr) << kv.first;
        EXPECT_EQ(std::string(s), kv.second) << kv.first;
    }
}

TEST(TagAlias, NonTagsHaveNoString) {
    EXPECT_EQ(relayout_fmt_tag2str(relayout_format_tag_undef), nullptr);
    EXPECT_EQ(relayout_fmt_tag2str(relayout_format_tag_last), nullptr);
    EXPECT_EQ(relayout_fmt_tag2str(static_cast<relayout_format_tag_t>(100000)), nullptr);
}

// ---- layouts computed by hand --------------------------------------------

struct layout_case_t {
    const char *name;
    dims_t dims;
    std::string tag; // string tag (enum names are accepted as strings too)
    dt type;
    dims_t padded, strides, blks, idxs;
    size_t size; // bytes
};
API_TEST_PRINT_BY_NAME(layout_case_t)

class TagLayout : public ::testing::TestWithParam<layout_case_t> {};

TEST_P(TagLayout, PaddedDimsStridesBlocksAndSize) {
    const auto &c = GetParam();
    const memory::desc md(c.dims, c.type, c.tag);
    EXPECT_EQ(md.get_dims(), c.dims);
    EXPECT_EQ(md.get_padded_dims(), c.padded);
    EXPECT_EQ(md.get_strides(), c.strides);
    EXPECT_EQ(md.get_inner_nblks(), (int)c.blks.size());
    EXPECT_EQ(md.get_inner_blks(), c.blks);
    EXPECT_EQ(md.get_inner_idxs(), c.idxs);
    EXPECT_EQ(md.get_size(), c.size);
    EXPECT_EQ(md.get_offset0(), 0);
    EXPECT_FALSE(md.is_zero());
    EXPECT_EQ(md.get_data_type(), c.type);
}

// Strides: the innermost outer dim gets the product of the inner blocks,
// each next outer dim multiplies by the previous one's padded/blocks.
const layout_case_t layout_cases[] = {
    { "nchw", { 2, 3, 4, 5 }, "nchw", dt::f32, { 2, 3, 4, 5 }, { 60, 20, 5, 1 }, {}, {}, 480 },
    { "nhwc", { 2, 3, 4, 5 }, "nhwc", dt::f32, { 2, 3, 4, 5 }, { 60, 1, 15, 3 }, {}, {}, 480 },
    { "chwn", { 2, 3, 4, 5 }, "chwn", dt::f32, { 2, 3, 4, 5 }, { 1, 40, 10, 2 }, {}, {}, 480 },
    // C=17 in blocks of 8: padded 24, 3 blocks of 8*3*3=72.
    { "nChw8c", { 2, 17, 3, 3 }, "nChw8c", dt::f32, { 2, 24, 3, 3 }, { 216, 72, 24, 8 }, { 8 },
            { 1 }, 2 * 216 * 4 },
    { "nChw16c_C17", { 2, 17, 5, 3 }, "nChw16c", dt::f32, { 2, 32, 5, 3 }, { 480, 240, 48, 16 },
            { 16 }, { 1 }, 960 * 4 },
    { "nChw16c_s8", { 1, 3, 2, 2 }, "aBcd16b", dt::s8, { 1, 16, 2, 2 }, { 64, 64, 32, 16 }, { 16 },
            { 1 }, 64 },
    { "OIhw16i16o", { 20, 17, 3, 3 }, "OIhw16i16o", dt::f32, { 32, 32, 3, 3 },
            { 4608, 2304, 768, 256 }, { 16, 16 }, { 1, 0 }, 9216 * 4 },
    // 4*16*4 = 256 elements per inner block.
    { "OIhw4i16o4i", { 20, 17, 3, 3 }, "OIhw4i16o4i", dt::f32, { 32, 32, 3, 3 },
            { 4608, 2304, 768, 256 }, { 4, 16, 4 }, { 1, 0, 1 }, 9216 * 4 },
    { "OIhw8i16o2i", { 20, 17, 3, 3 }, "OIhw8i16o2i", dt::f32, { 32, 32, 3, 3 },
            { 4608, 2304, 768, 256 }, { 8, 16, 2 }, { 1, 0, 1 }, 9216 * 4 },
    { "gOIhw16i16o", { 2, 20, 17, 3, 3 }, "gOIhw16i16o", dt::f32, { 2, 32, 32, 3, 3 },
            { 9216, 4608, 2304, 768, 256 }, { 16, 16 }, { 2, 1 }, 18432 * 4 },
    // a blocked by 16*4 = 64, b by 64: padded 128x64; B is outermost but
    // has one block, so the size is A's 2 blocks of 4096.
    { "BA16a64b4a", { 70, 50 }, "BA16a64b4a", dt::f32, { 128, 64 }, { 4096, 8192 }, { 16, 64, 4 },
            { 0, 1, 0 }, 8192 * 4 },
    { "ABcd4b16a4b_string", { 17, 5, 2, 2 }, "ABcd4b16a4b", dt::f32, { 32, 16, 2, 2 },
            { 1024, 1024, 512, 256 }, { 4, 16, 4 }, { 1, 0, 1 }, 2048 * 4 },
    { "abx_5d", { 2, 3, 4, 5, 6 }, "abx", dt::f32, { 2, 3, 4, 5, 6 }, { 360, 120, 30, 6, 1 }, {},
            {}, 720 * 4 },
    { "abx_2d", { 3, 7 }, "abx", dt::f32, { 3, 7 }, { 7, 1 }, {}, {}, 21 * 4 },
    { "aBx16b_4d", { 2, 20, 3, 4 }, "aBx16b", dt::f32, { 2, 32, 3, 4 }, { 384, 192, 64, 16 },
            { 16 }, { 1 }, 768 * 4 },
    { "aBx16b_3d", { 2, 20, 3 }, "aBx16b", dt::bf16, { 2, 32, 3 }, { 96, 48, 16 }, { 16 }, { 1 },
            192 * 2 },
    // xba on 4 dims: the dims not named (c, d) first, then b, a = cdba.
    { "xba_4d", { 2, 3, 4, 5 }, "xba", dt::f32, { 2, 3, 4, 5 }, { 1, 2, 30, 6 }, {}, {}, 480 },
    { "a_f16", { 7 }, "a", dt::f16, { 7 }, { 1 }, {}, {}, 14 },
    { "abcdefghijkl", { 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2 }, "abcdefghijkl", dt::u8,
            { 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2 }, { 64, 32, 32, 16, 16, 8, 8, 4, 4, 2, 2, 1 }, {},
            {}, 64 },
};

INSTANTIATE_TEST_SUITE_P(ByHand, TagLayout, ::testing::ValuesIn(layout_cases),
        [](const ::testing::TestParamInfo<layout_case_t> &i) { return std::string(i.param.name); });

TEST(TagLayout, MetaLetterXExpandsByNdims) {
    EXPECT_TRUE(memory::desc({ 2, 3, 4, 5 }, dt::f32, "xba")
                == memory::desc({ 2, 3, 4, 5 }, dt::f32, tag::hwio));
    EXPECT_TRUE(memory::desc({ 2, 3, 4, 5, 6 }, dt::f32, "abx")
                == memory::desc({ 2, 3, 4, 5, 6 }, dt::f32, tag::ncdhw));
    EXPECT_TRUE(memory::desc({ 2, 19, 4, 5, 6 }, dt::f32, "aBx8b")
                == memory::desc({ 2, 19, 4, 5, 6 }, dt::f32, tag::nCdhw8c));
    EXPECT_TRUE(memory::desc({ 2, 19, 4 }, dt::f32, "aBx4b")
                == memory::desc({ 2, 19, 4 }, dt::f32, tag::nCw4c));
    EXPECT_TRUE(memory::desc({ 2, 3, 4, 5 }, dt::f32, "axb")
                == memory::desc({ 2, 3, 4, 5 }, dt::f32, tag::nhwc));
}

// ---- malformed tags --------------------------------------------------------

struct bad_tag_case_t {
    const char *name;
    int ndims;
    const char *tag;
    std::vector<std::string> any_of; // the message names the culprit
};
API_TEST_PRINT_BY_NAME(bad_tag_case_t)

class BadTag : public ::testing::TestWithParam<bad_tag_case_t> {};

TEST_P(BadTag, IsInvalidArgumentsNamingTheCharacter) {
    const auto &c = GetParam();
    relayout_dims_t dims = { 2, 3, 4, 5, 6, 7, 2, 2, 2, 2, 2, 2 };
    relayout_memory_desc_t md = reinterpret_cast<relayout_memory_desc_t>(0x1);
    const relayout_status_t st =
            relayout_memory_desc_create_with_string_tag(&md, c.ndims, dims, relayout_f32, c.tag);
    EXPECT_EQ(st, relayout_invalid_arguments);
    EXPECT_EQ(md, nullptr) << "a failed creation sets the handle to NULL";
    const std::string msg = last_error();
    bool named = false;
    for (const auto &k : c.any_of)
        named = named || contains_ci(msg, k);
    EXPECT_TRUE(named) << "message: \"" << msg << "\"";
    if (md && md != reinterpret_cast<relayout_memory_desc_t>(0x1)) relayout_memory_desc_destroy(md);

    // The C++ wrapper throws with the same status and message.
    const std::string what = expect_error(relayout_invalid_arguments,
            [&] { memory::desc(dims_t(dims, dims + c.ndims), dt::f32, std::string(c.tag)); });
    EXPECT_NE(what.find(msg), std::string::npos) << what;
}

const bad_tag_case_t bad_tags[] = {
    { "block_without_letter", 4, "aBcd16", { "'6'", "character 5", "character 6" } },
    { "block_on_lowercase_dim", 4, "aBcd16c", { "'c'" } },
    { "repeated_dim", 4, "abcc", { "'c'" } },
    { "too_few_dims", 4, "abc", { "3 dims", "has 4" } },
    { "too_many_dims", 2, "abc", { "'c'", "3 dims" } },
    { "blocked_dim_without_block", 4, "aBcd", { "'B'", "'b'" } },
    { "bang", 4, "a!cd", { "'!'" } },
    { "empty", 4, "", { "empty" } },
    { "letter_beyond_ndims", 4, "abce", { "'e'" } },
    { "letter_beyond_l", 3, "abm", { "'m'" } },
    { "starts_with_digit", 2, "16ab", { "'1'", "character 0" } },
    { "block_of_zero", 4, "aBcd0b", { "'0'", "size 0", "block of size 0" } },
    { "block_names_missing_dim", 2, "aB16c", { "'c'" } },
    { "space", 2, "a b", { "' '" } },
};

INSTANTIATE_TEST_SUITE_P(Malformed, BadTag, ::testing::ValuesIn(bad_tags),
        [](const ::testing::TestParamInfo<bad_tag_case_t> &i) {
            return std::string(i.param.name);
        });

TEST(BadTag, UnknownEnumValueIsRejected) {
    relayout_dims_t dims = { 2, 3 };
    relayout_memory_desc_t md = nullptr;
    EXPECT_EQ(relayout_memory_desc_create_with_tag(
                      &md, 2, dims, relayout_f32, static_cast<relayout_format_tag_t>(99999)),
            relayout_invalid_arguments);
    EXPECT_EQ(md, nullptr);
    EXPECT_NE(last_error(), "");
    EXPECT_EQ(relayout_memory_desc_create_with_tag(
                      &md, 2, dims, relayout_f32, relayout_format_tag_undef),
            relayout_invalid_arguments);
    EXPECT_NE(last_error(), "");
    // A tag of the wrong rank is rejected too.
    EXPECT_EQ(relayout_memory_desc_create_with_tag(&md, 2, dims, relayout_f32, relayout_abcd),
            relayout_invalid_arguments);
    EXPECT_NE(last_error(), "");
}

// ---- construction from strides -------------------------------------------

TEST(DescStrides, DenseStridesEqualTheTag) {
    EXPECT_TRUE(memory::desc({ 2, 3, 4 }, dt::f32, dims_t{ 12, 4, 1 })
                == memory::desc({ 2, 3, 4 }, dt::f32, tag::abc));
    EXPECT_TRUE(memory::desc({ 2, 3, 4 }, dt::f32, dims_t{ 1, 8, 2 })
                == memory::desc({ 2, 3, 4 }, dt::f32, tag::bca));
    EXPECT_TRUE(memory::desc({ 2, 3 }, dt::f32, dims_t{ 1, 2 })
                == memory::desc({ 2, 3 }, dt::f32, tag::ba));
    // Empty strides (NULL in C) mean dense row-major.
    EXPECT_TRUE(memory::desc({ 2, 3, 4 }, dt::s8, dims_t{})
                == memory::desc({ 2, 3, 4 }, dt::s8, tag::abc));
}

TEST(DescStrides, GapsAreAllowedAndCountInTheSize) {
    const memory::desc md({ 2, 3 }, dt::f32, dims_t{ 8, 2 });
    EXPECT_EQ(md.get_strides(), (dims_t{ 8, 2 }));
    EXPECT_EQ(md.get_padded_dims(), (dims_t{ 2, 3 }));
    // max(2 * 8, 3 * 2) = 16 elements.
    EXPECT_EQ(md.get_size(), 16u * 4);
    EXPECT_TRUE(md != memory::desc({ 2, 3 }, dt::f32, tag::ab));
}

TEST(DescStrides, ZeroStrideBroadcastIsAllowed) {
    const memory::desc md({ 4, 3 }, dt::f32, dims_t{ 0, 1 });
    EXPECT_EQ(md.get_strides(), (dims_t{ 0, 1 }));
    EXPECT_EQ(md.get_size(), 3u * 4);
}

struct bad_strides_case_t {
    const char *name;
    dims_t dims, strides;
    const char *keyword;
};
API_TEST_PRINT_BY_NAME(bad_strides_case_t)
class BadStrides : public ::testing::TestWithParam<bad_strides_case_t> {};
TEST_P(BadStrides, AreInvalidArguments) {
    const auto &c = GetParam();
    const std::string what = expect_error(
            relayout_invalid_arguments, [&] { memory::desc(c.dims, dt::f32, c.strides); });
    EXPECT_TRUE(contains_ci(what, c.keyword)) << what;
}
const bad_strides_case_t bad_strides[] = {
    { "overlap_2x3_by_2_1", { 2, 3 }, { 2, 1 }, "stride" },
    { "overlap_same_stride", { 2, 3 }, { 1, 1 }, "stride" },
    { "overlap_3d", { 2, 3, 4 }, { 12, 3, 1 }, "stride" },
    { "negative_stride", { 2, 3 }, { -3, 1 }, "stride" },
    { "count_mismatch", { 2, 3 }, { 3, 1, 1 }, "strides" },
};
INSTANTIATE_TEST_SUITE_P(Rejected, BadStrides, ::testing::ValuesIn(bad_strides),
        [](const ::testing::TestParamInfo<bad_strides_case_t> &i) {
            return std::string(i.param.name);
        });

// ---- dims, ndims and data types ------------------------------------------

TEST(DescDims, NegativeDimsAreRejected) {
    const std::string what = expect_error(relayout_invalid_arguments, [] {
        memory::desc({ 2, -3 }, dt::f32, tag::ab);
    });
    EXPECT_TRUE(contains_ci(what, "dims")) << what;
    expect_error(relayout_invalid_arguments, [] {
        memory::desc({ 2, -3 }, dt::f32, dims_t{ 3, 1 });
    });
}

TEST(DescDims, NdimsZeroAndThirteenAreRejected) {
    relayout_dims_t d12 = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 };
    relayout_memory_desc_t md = nullptr;
    EXPECT_EQ(relayout_memory_desc_create_with_strides(&md, 0, d12, relayout_f32, nullptr),
            relayout_invalid_arguments);
    EXPECT_TRUE(contains_ci(last_error(), "ndims")) << last_error();
    EXPECT_EQ(md, nullptr);
    EXPECT_EQ(relayout_memory_desc_create_with_string_tag(&md, 0, d12, relayout_f32, "a"),
            relayout_invalid_arguments);
    EXPECT_TRUE(contains_ci(last_error(), "ndims")) << last_error();
    // 13 dims: the C API must refuse before reading a 13th value.
    int64_t d13[13] = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 };
    EXPECT_EQ(relayout_memory_desc_create_with_strides(&md, 13, d13, relayout_f32, nullptr),
            relayout_invalid_arguments);
    EXPECT_TRUE(contains_ci(last_error(), "ndims")) << last_error();
    EXPECT_EQ(
            relayout_memory_desc_create_with_tag(&md, 13, d13, relayout_f32, relayout_abcdefghijkl),
            relayout_invalid_arguments);
    EXPECT_EQ(md, nullptr);
    // The C++ wrapper refuses 13 dims itself.
    expect_error(
            relayout_invalid_arguments, [] { memory::desc(dims_t(13, 2), dt::f32, dims_t{}); });
    // 12 is the limit and works.
    EXPECT_EQ(memory::desc(dims_t(12, 2), dt::f32, tag::abcdefghijkl).get_ndims(), 12);
}

TEST(DescDims, InvalidDataTypeIsRejected) {
    relayout_dims_t dims = { 2, 3 };
    relayout_memory_desc_t md = nullptr;
    for (int t : { 0, 9, 42, -1 }) {
        EXPECT_EQ(relayout_memory_desc_create_with_tag(
                          &md, 2, dims, static_cast<relayout_data_type_t>(t), relayout_ab),
                relayout_invalid_arguments)
                << t;
        EXPECT_TRUE(contains_ci(last_error(), "data")) << last_error();
        EXPECT_EQ(relayout_memory_desc_create_with_strides(
                          &md, 2, dims, static_cast<relayout_data_type_t>(t), nullptr),
                relayout_invalid_arguments)
                << t;
        EXPECT_EQ(md, nullptr);
    }
}

struct dt_case_t {
    dt type;
    size_t size;
    const char *name;
};
API_TEST_PRINT_BY_NAME(dt_case_t)
class DataTypes : public ::testing::TestWithParam<dt_case_t> {};
TEST_P(DataTypes, SizeNameAndDescriptorBytes) {
    const auto &c = GetParam();
    EXPECT_EQ(memory::data_type_size(c.type), c.size);
    EXPECT_STREQ(dt_name(c.type), c.name);
    const memory::desc md({ 3, 5 }, c.type, tag::ab);
    EXPECT_EQ(md.get_size(), 15 * c.size);
    EXPECT_EQ(md.get_data_type(), c.type);
}
INSTANTIATE_TEST_SUITE_P(All, DataTypes,
        ::testing::Values(dt_case_t{ dt::f32, 4, "f32" }, dt_case_t{ dt::bf16, 2, "bf16" },
                dt_case_t{ dt::f16, 2, "f16" }, dt_case_t{ dt::s32, 4, "s32" },
                dt_case_t{ dt::s16, 2, "s16" }, dt_case_t{ dt::u16, 2, "u16" },
                dt_case_t{ dt::s8, 1, "s8" }, dt_case_t{ dt::u8, 1, "u8" }),
        [](const ::testing::TestParamInfo<dt_case_t> &i) { return std::string(i.param.name); });

TEST(DataTypes, UndefHasNoSize) {
    EXPECT_EQ(memory::data_type_size(dt::undef), 0u);
}

// ---- zero-volume and zero descriptors --------------------------------------

TEST(DescZeroVolume, ADimOfZeroIsLegalAndHasNoBytes) {
    const memory::desc plain({ 2, 0, 3 }, dt::f32, tag::abc);
    EXPECT_FALSE(plain.is_zero());
    EXPECT_EQ(plain.get_ndims(), 3);
    EXPECT_EQ(plain.get_dims(), (dims_t{ 2, 0, 3 }));
    EXPECT_EQ(plain.get_size(), 0u);

    const memory::desc blocked({ 0, 17, 3, 3 }, dt::f32, tag::nChw16c);
    EXPECT_FALSE(blocked.is_zero());
    EXPECT_EQ(blocked.get_size(), 0u);

    const memory::desc strided({ 4, 0 }, dt::s8, dims_t{ 1, 4 });
    EXPECT_EQ(strided.get_size(), 0u);

    const memory::desc with_comp =
            memory::desc({ 0, 16, 1, 1 }, dt::s8, tag::OIhw4i16o4i)
                    .with_extra(relayout_extra_flag_compensation_conv_s8s8, 1);
    EXPECT_EQ(with_comp.get_size(), 0u);
}

TEST(DescZeroVolume, TheZeroDescriptor) {
    const memory::desc z;
    EXPECT_TRUE(z.is_zero());
    EXPECT_EQ(z.get_size(), 0u);
    EXPECT_EQ(z.get_ndims(), 0);
    EXPECT_EQ(relayout_memory_desc_get_size(nullptr), 0u);
}

// ---- equality ----------------------------------------------------------------

TEST(DescEquality, TwoZeroDescriptorsAreEqual) {
    EXPECT_TRUE(memory::desc() == memory::desc());
    EXPECT_EQ(relayout_memory_desc_equal(nullptr, nullptr), 1);
    EXPECT_TRUE(memory::desc() != memory::desc({ 1 }, dt::f32, tag::a));
}

TEST(DescEquality, StridesOfSizeOneDimsAreIgnored) {
    EXPECT_TRUE(memory::desc({ 1, 3 }, dt::f32, dims_t{ 3, 1 })
                == memory::desc({ 1, 3 }, dt::f32, dims_t{ 100, 1 }));
    EXPECT_TRUE(memory::desc({ 2, 1, 3 }, dt::f32, dims_t{ 3, 3, 1 })
                == memory::desc({ 2, 1, 3 }, dt::f32, dims_t{ 3, 1, 1 }));
    // nchw and nhwc agree when C = 1.
    EXPECT_TRUE(memory::desc({ 2, 1, 4, 5 }, dt::f32, tag::nchw)
                == memory::desc({ 2, 1, 4, 5 }, dt::f32, tag::nhwc));
    // but not when C > 1.
    EXPECT_TRUE(memory::desc({ 2, 2, 4, 5 }, dt::f32, tag::nchw)
                != memory::desc({ 2, 2, 4, 5 }, dt::f32, tag::nhwc));
}

TEST(DescEquality, DifferentLayoutsDimsOrTypesDiffer) {
    const memory::desc ab({ 2, 3 }, dt::f32, tag::ab);
    EXPECT_TRUE(ab == memory::desc({ 2, 3 }, dt::f32, tag::nc));
    EXPECT_TRUE(ab != memory::desc({ 2, 3 }, dt::f32, tag::ba));
    EXPECT_TRUE(ab != memory::desc({ 2, 3 }, dt::s32, tag::ab));
    EXPECT_TRUE(ab != memory::desc({ 3, 2 }, dt::f32, tag::ab));
    EXPECT_TRUE(ab != memory::desc({ 2, 3, 1 }, dt::f32, tag::abc));
    EXPECT_TRUE(memory::desc({ 2, 32, 3, 3 }, dt::f32, tag::nChw16c)
                != memory::desc({ 2, 32, 3, 3 }, dt::f32, tag::nChw8c));
    EXPECT_TRUE(memory::desc({ 32, 32, 3, 3 }, dt::f32, tag::OIhw16i16o)
                != memory::desc({ 32, 32, 3, 3 }, dt::f32, tag::OIhw16o16i));
    EXPECT_TRUE(memory::desc({ 32, 32, 3, 3 }, dt::f32, tag::OIhw4i16o4i)
                != memory::desc({ 32, 32, 3, 3 }, dt::f32, tag::OIhw8i16o2i));
}

TEST(DescEquality, CloneIsEqualAndQueriesAgree) {
    const memory::desc md({ 2, 17, 5, 3 }, dt::bf16, tag::nChw16c);
    relayout_memory_desc_t c = nullptr;
    ASSERT_EQ(relayout_memory_desc_clone(&c, md.get()), relayout_success);
    const memory::desc copy(c);
    EXPECT_TRUE(copy == md);
    size_t sz = 0;
    ASSERT_EQ(relayout_memory_desc_query(md.get(), relayout_query_size_s64, &sz), relayout_success);
    EXPECT_EQ(sz, md.get_size());
    relayout_format_kind_t k;
    ASSERT_EQ(
            relayout_memory_desc_query(md.get(), relayout_query_format_kind, &k), relayout_success);
    EXPECT_EQ(k, relayout_blocked);
}

TEST(DescString, OneLineDescription) {
    const memory::desc md({ 2, 17, 5, 3 }, dt::f32, tag::nChw16c);
    EXPECT_EQ(md.str(), "f32:aBcd16b:2x17x5x3");
}

TEST(DescAny, FormatTagAnyHasNoLayoutAndNoBytes) {
    const memory::desc md({ 2, 3 }, dt::f32, tag::any);
    EXPECT_EQ(md.get_format_kind(), memory::format_kind::any);
    EXPECT_EQ(md.get_size(), 0u);
    EXPECT_FALSE(md.is_zero());
}
