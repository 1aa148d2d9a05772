// Every enum name of the tag manifest against oneDNN 2.6 (built only when the
// oneDNN baseline is found): a name both libraries have must give the same
// padded dims, inner blocks, strides and size, so code ported from oneDNN's
// enum names keeps its layouts.

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/dnnl/dnnl.h>

#include "api_test_utils.hpp"

using namespace api_test;

namespace {

// relayout's names that oneDNN 2.6 does not have: the test skips them and
// checks that this list is exact.
#define dnnl_Ab16a dnnl_format_tag_undef
#define dnnl_OI16o16i dnnl_format_tag_undef
#define dnnl_Oihw8o dnnl_format_tag_undef
#define dnnl_aBcd64b dnnl_format_tag_undef
#define dnnl_cab dnnl_format_tag_undef
#define dnnl_cdab dnnl_format_tag_undef
constexpr int names_only_here = 6;

struct named_tag_t {
    const char *name;
    relayout_format_tag_t ours;
    dnnl_format_tag_t onednn;
};
API_TEST_PRINT_BY_NAME(named_tag_t)

const named_tag_t all_names[] = {
#define RELAYOUT_TAG(name, str) { #name, relayout_##name, dnnl_##name },
#define RELAYOUT_TAG_ALIAS(alias, name) { #alias, relayout_##alias, dnnl_##alias },
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
};

// Odd sizes, 17 for blocked dims so that every block has a tail.
dims_t dims_for(const std::string &canonical) {
    int nd = 0;
    while (nd < (int)canonical.size() && std::isalpha((unsigned char)canonical[nd]))
        ++nd;
    dims_t d(nd);
    for (int i = 0; i < nd; ++i) {
        const bool blocked = canonical.find(char('A' + i)) != std::string::npos;
        d[i] = blocked ? 17 : (nd > 6 ? 2 + i % 2 : 3 + i);
    }
    return d;
}

class OneDnnTagNames : public ::testing::TestWithParam<named_tag_t> {};

TEST_P(OneDnnTagNames, GiveOneDnnsLayout) {
    const named_tag_t t = GetParam();
    if (t.onednn == dnnl_format_tag_undef) GTEST_SKIP() << t.name << " is relayout's own name";
    const char *canonical = relayout_fmt_tag2str(t.ours);
    ASSERT_NE(canonical, nullptr) << t.name;
    const dims_t dims = dims_for(canonical);
    const memory::desc ours(dims, dt::f32, static_cast<tag>(t.ours));
    const layout_t l = layout_of(ours);

    dnnl_memory_desc_t md;
    dnnl_dims_t d;
    for (size_t i = 0; i < dims.size(); ++i)
        d[i] = dims[i];
    ASSERT_EQ(dnnl_memory_desc_init_by_tag(&md, (int)dims.size(), d, dnnl_f32, t.onednn),
            dnnl_success)
            << t.name << " (" << canonical << ")";
    ASSERT_EQ(md.format_kind, dnnl_blocked);
    const dnnl_blocking_desc_t &b = md.format_desc.blocking;
    ASSERT_EQ(md.ndims, l.ndims);
    dims_t blks, idxs;
    for (int i = 0; i < b.inner_nblks; ++i) {
        blks.push_back(b.inner_blks[i]);
        idxs.push_back(b.inner_idxs[i]);
    }
    EXPECT_EQ(l.blks, blks) << t.name;
    EXPECT_EQ(l.idxs, idxs) << t.name;
    for (int k = 0; k < l.ndims; ++k) {
        EXPECT_EQ(l.padded[k], md.padded_dims[k]) << t.name << " dim " << k;
        EXPECT_EQ(l.strides[k], b.strides[k]) << t.name << " dim " << k;
    }
    EXPECT_EQ(ours.get_size(), dnnl_memory_desc_get_size(&md)) << t.name;
}

INSTANTIATE_TEST_SUITE_P(AllNames, OneDnnTagNames, ::testing::ValuesIn(all_names),
        [](const ::testing::TestParamInfo<named_tag_t> &i) { return std::string(i.param.name); });

TEST(OneDnnTagNames, OnlyTheListedNamesAreRelayoutsOwn) {
    int own = 0;
    for (const auto &t : all_names)
        own += t.onednn == dnnl_format_tag_undef;
    EXPECT_EQ(own, names_only_here);
}

} // namespace
