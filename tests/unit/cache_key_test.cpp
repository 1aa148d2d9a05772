// The kernel cache key and the creation path around it: one key per
// problem, a different key for any field a kernel bakes in, engines in the
// key of device reorders only, plan strings built on demand (and
// thread-safely), and primitives sharing their descriptor.
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/verbose.hpp"
#include "md/format_tag.hpp"
#include "runtime/engine.hpp"
#include "runtime/primitive_cache.hpp"
#include "runtime/reorder.hpp"

#include "unit_test_utils.hpp"

namespace relayout {
namespace impl {
namespace {

using test::make;

relayout_engine &cpu() {
    static relayout_engine e(relayout_cpu, 0);
    return e;
}

// A problem: descriptors and attribute, each case changes one thing.
struct problem_t {
    memory_desc_t src = make({ 8, 32, 3, 3 }, relayout_f32, "abcd");
    memory_desc_t dst = make({ 8, 32, 3, 3 }, relayout_s8, "aBcd16b");
    attr_t attr;
};

kernel_key_t key_of(const problem_t &p) {
    relayout_primitive_desc pd;
    EXPECT_EQ(reorder_pd_create(pd, p.src, &cpu(), p.dst, &cpu(), p.attr), status_t::success)
            << last_error_message();
    return pd.key;
}

TEST(CacheKey, SameProblemSameKey) {
    const problem_t p;
    const kernel_key_t a = key_of(p), b = key_of(p);
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a.hash(), b.hash());
    EXPECT_TRUE(a == b);
    // Other cpu engine objects: cpu kernels run anywhere, one key.
    relayout_engine other(relayout_cpu, 0);
    relayout_primitive_desc pd;
    ASSERT_EQ(reorder_pd_create(pd, p.src, &other, p.dst, &other, p.attr), status_t::success);
    EXPECT_TRUE(pd.key == a);
}

struct change_t {
    const char *name;
    std::function<void(problem_t &)> apply;
};

class CacheKeyChange : public ::testing::TestWithParam<change_t> {};

TEST_P(CacheKeyChange, MakesAnotherKey) {
    problem_t changed;
    GetParam().apply(changed);
    const kernel_key_t a = key_of(problem_t()), b = key_of(changed);
    EXPECT_FALSE(a == b) << GetParam().name;
}

const change_t changes[] = {
    { "src_strides",
            [](problem_t &p) {
                const dim_t dims[] = { 8, 32, 3, 3 }, strides[] = { 32 * 9 + 5, 9, 3, 1 };
                ASSERT_EQ(md_init_by_strides(p.src, 4, dims, relayout_f32, strides),
                        status_t::success);
            } },
    { "src_offset0",
            [](problem_t &p) {
                memory_desc_t parent = make({ 8, 64, 3, 3 }, relayout_f32, "abcd");
                const dim_t dims[] = { 8, 32, 3, 3 }, offs[] = { 0, 32, 0, 0 };
                ASSERT_EQ(md_submemory(p.src, parent, dims, offs), status_t::success);
            } },
    { "src_data_type",
            [](problem_t &p) {
                p.src = make({ 8, 32, 3, 3 }, relayout_bf16, "abcd");
            } },
    { "dst_blocking",
            [](problem_t &p) {
                p.dst = make({ 8, 32, 3, 3 }, relayout_s8, "aBcd8b");
            } },
    { "dst_dims",
            [](problem_t &p) {
                p.src = make({ 8, 31, 3, 3 }, relayout_f32, "abcd");
                p.dst = make({ 8, 31, 3, 3 }, relayout_s8, "aBcd16b");
            } },
    { "dst_s8s8_compensation",
            [](problem_t &p) {
                ASSERT_EQ(
                        md_set_extra(p.dst, relayout_extra_flag_compensation_conv_s8s8, 1, 0, 1.f),
                        status_t::success);
            } },
    { "dst_compensation_mask",
            [](problem_t &p) {
                ASSERT_EQ(
                        md_set_extra(p.dst, relayout_extra_flag_compensation_conv_s8s8, 3, 0, 1.f),
                        status_t::success);
            } },
    { "dst_scale_adjust",
            [](problem_t &p) {
                ASSERT_EQ(md_set_extra(p.dst, relayout_extra_flag_scale_adjust, 0, 0, 0.5f),
                        status_t::success);
            } },
    { "src_scale_common",
            [](problem_t &p) {
                p.attr.src_scales.mask = 0;
                p.attr.src_scales.values = { 2.f };
            } },
    { "src_scale_per_channel",
            [](problem_t &p) {
                p.attr.src_scales.mask = 2;
                p.attr.src_scales.values.assign(32, 2.f);
            } },
    { "dst_scale_common",
            [](problem_t &p) {
                p.attr.dst_scales.mask = 0;
                p.attr.dst_scales.values = { 2.f };
            } },
    { "src_zero_point", [](problem_t &p) { p.attr.src_zp = 3; } },
    { "dst_zero_point", [](problem_t &p) { p.attr.dst_zp = -3; } },
    { "sum", [](problem_t &p) { p.attr.beta = 0.5f; } },
};

INSTANTIATE_TEST_SUITE_P(EveryField, CacheKeyChange, ::testing::ValuesIn(changes),
        [](const ::testing::TestParamInfo<change_t> &i) { return std::string(i.param.name); });

TEST(CacheKey, FloatsAreKeyedByTheirBits) {
    // The old text key printed 6 digits: these two sums shared a kernel.
    problem_t a, b;
    a.attr.beta = 0.5f;
    b.attr.beta = 0.50000006f;
    EXPECT_FALSE(key_of(a) == key_of(b));
}

TEST(CacheKey, IdentityScalesMakeAnotherKernel) {
    // f32 -> f32 with a scale of 1 is a bit copy; with 2 it is not.
    problem_t one, two;
    one.dst = two.dst = make({ 8, 32, 3, 3 }, relayout_f32, "aBcd16b");
    one.attr.src_scales.values = { 1.f };
    two.attr.src_scales.values = { 2.f };
    EXPECT_FALSE(key_of(one) == key_of(two));
    // Scale values are passed at execution: 2 and 3 share the kernel.
    problem_t three = two;
    three.attr.src_scales.values = { 3.f };
    EXPECT_TRUE(key_of(two) == key_of(three));
}

TEST(CacheKey, DeviceEnginesHaveTheirOwnIdentity) {
    EXPECT_EQ(cpu().cache_identity(), 0u);
    relayout_engine *a = nullptr, *b = nullptr;
    ASSERT_EQ(engine_create(a, relayout_npu, 0), status_t::success) << last_error_message();
    ASSERT_EQ(engine_create(b, relayout_npu, 0), status_t::success) << last_error_message();
    std::unique_ptr<relayout_engine> ua(a), ub(b);
    // One preset, two engine objects: kind and index alone would collide.
    EXPECT_EQ(a->index, b->index);
    EXPECT_NE(a->cache_identity(), 0u);
    EXPECT_NE(a->cache_identity(), b->cache_identity());
    EXPECT_EQ(a->cache_identity(), a->cache_identity());
}

TEST(CacheKey, KeysCompareEveryWord) {
    kernel_key_t a, b;
    for (uint64_t w : { 1, 2, 3 })
        a.add(w);
    for (uint64_t w : { 1, 2, 4 })
        b.add(w);
    EXPECT_FALSE(a == b);
    kernel_key_t c = a;
    EXPECT_TRUE(a == c);
    c.add(0);
    EXPECT_FALSE(a == c); // a longer key is another key, even with zeros
    // Byte strings carry their length: "ab" + "" differs from "a" + "b".
    kernel_key_t s1, s2;
    s1.add_bytes("ab", 2);
    s1.add_bytes("", 0);
    s2.add_bytes("a", 1);
    s2.add_bytes("b", 1);
    EXPECT_FALSE(s1 == s2);
}

// ---- the cache itself -------------------------------------------------------------

struct dummy_kernel_t : kernel_t {
    status_t execute(const exec_ctx_t &) const override { return status_t::success; }
};

TEST(PrimitiveCacheKey, SameKeyHitsOtherKeyMisses) {
    const int saved = cache_capacity();
    ASSERT_EQ(set_cache_capacity(8), status_t::success);
    kernel_key_t k1, k2;
    k1.add(0x1234);
    k1.add(1);
    k2.add(0x1234);
    k2.add(2);
    int builds = 0;
    auto create = [&](kernel_ptr_t &k) {
        ++builds;
        k = std::make_shared<dummy_kernel_t>();
        return status_t::success;
    };
    kernel_ptr_t a, b, c;
    bool hit = true;
    ASSERT_EQ(cache_get_or_create(k1, create, a, hit), status_t::success);
    EXPECT_FALSE(hit);
    ASSERT_EQ(cache_get_or_create(k1, create, b, hit), status_t::success);
    EXPECT_TRUE(hit);
    EXPECT_EQ(a, b);
    ASSERT_EQ(cache_get_or_create(k2, create, c, hit), status_t::success);
    EXPECT_FALSE(hit);
    EXPECT_NE(a, c);
    EXPECT_EQ(builds, 2);
    // Eviction keeps the most recent entries.
    ASSERT_EQ(set_cache_capacity(1), status_t::success);
    EXPECT_EQ(cache_size(), 1);
    ASSERT_EQ(cache_get_or_create(k2, create, c, hit), status_t::success);
    EXPECT_TRUE(hit);
    ASSERT_EQ(set_cache_capacity(saved), status_t::success);
}

// ---- plan strings -----------------------------------------------------------------

TEST(CachePlanString, BuiltOnDemandAndEqualToTheDump) {
    const problem_t p;
    relayout_primitive_desc pd;
    ASSERT_EQ(reorder_pd_create(pd, p.src, &cpu(), p.dst, &cpu(), p.attr), status_t::success);
    EXPECT_TRUE(pd.plan_str.empty()); // nothing built at creation
    EXPECT_EQ(pd_plan_str(pd), pd.plan.dump());
    // Concurrent first queries of one descriptor: one string for all.
    relayout_primitive_desc pd2;
    ASSERT_EQ(reorder_pd_create(pd2, p.src, &cpu(), p.dst, &cpu(), p.attr), status_t::success);
    std::vector<const std::string *> got(8, nullptr);
    std::vector<std::thread> ts;
    for (size_t i = 0; i < got.size(); ++i)
        ts.emplace_back([&, i] { got[i] = &pd_plan_str(pd2); });
    for (auto &t : ts)
        t.join();
    for (const std::string *s : got) {
        EXPECT_EQ(s, got[0]);
        EXPECT_EQ(*s, pd.plan.dump());
    }
    // A copy carries the string.
    relayout_primitive_desc copy = pd2;
    EXPECT_EQ(pd_plan_str(copy), pd.plan.dump());
}

TEST(CachePlanString, VerboseAddsTheKernelSplitAndChainsTheirPrefix) {
    const problem_t p;
    set_verbose_level(1);
    relayout_primitive_desc pd;
    const status_t st = reorder_pd_create(pd, p.src, &cpu(), p.dst, &cpu(), p.attr);
    set_verbose_level(0);
    ASSERT_EQ(st, status_t::success);
    const std::string s = pd_plan_str(pd);
    EXPECT_EQ(s.rfind(pd.plan.dump(), 0), 0u) << s;
    if (pd.impl_name.rfind("jit:", 0) == 0) {
        EXPECT_NE(s.find(" | "), std::string::npos) << s;
    }

    relayout_primitive_desc chain;
    ASSERT_EQ(reorder_chain_pd_create(
                      chain, { p.src, p.src, p.dst }, { attr_t(), attr_t() }, &cpu(), &cpu()),
            status_t::success)
            << last_error_message();
    EXPECT_EQ(pd_plan_str(chain), "chain of 2 fused: " + chain.plan.dump());
}

// ---- primitives share their descriptor ----------------------------------------------

TEST(CacheSharedPd, PrimitivesOfOneDescriptorShareIt) {
    const problem_t p;
    auto pd = std::make_shared<relayout_primitive_desc>();
    ASSERT_EQ(reorder_pd_create(*pd, p.src, &cpu(), p.dst, &cpu(), p.attr), status_t::success);
    relayout_primitive *a = nullptr, *b = nullptr, *c = nullptr;
    ASSERT_EQ(primitive_create(a, *pd), status_t::success);
    ASSERT_EQ(primitive_create(b, *pd), status_t::success);
    std::unique_ptr<relayout_primitive> ua(a), ub(b);
    EXPECT_EQ(a->pd.get(), pd.get()); // a shared object: no copy at all
    EXPECT_EQ(b->pd.get(), pd.get());
    EXPECT_EQ(a->kernel, b->kernel);
    // A descriptor that is not shared is copied once, for all its primitives.
    relayout_primitive_desc local = *pd;
    ASSERT_EQ(primitive_create(c, local), status_t::success);
    std::unique_ptr<relayout_primitive> uc(c);
    relayout_primitive *d = nullptr;
    ASSERT_EQ(primitive_create(d, local), status_t::success);
    std::unique_ptr<relayout_primitive> ud(d);
    EXPECT_NE(c->pd.get(), &local);
    EXPECT_EQ(c->pd.get(), d->pd.get());
    EXPECT_TRUE(c->pd->key == pd->key);
    // The primitive keeps the descriptor alive.
    pd.reset();
    EXPECT_EQ(pd_plan_str(*a->pd), a->pd->plan.dump());
}

} // namespace
} // namespace impl
} // namespace relayout
