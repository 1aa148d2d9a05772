// What a primitive prepares once for its scales (jit_reorder_t::prepare:
// the per-output-channel scales repeated over the folded lanes of VNNI
// packings) is used only by the kernel that made it and only for the scale
// arrays it was made from: an execution with other scales, or with data
// another kernel prepared, expands its own and stays bit-exact.
#include "jit/x64/jit_reorder.hpp"
#include "jit_test_utils.hpp"

namespace relayout {
namespace impl {
namespace test {
namespace {

using x64::cpu_isa_t;

const std::vector<dim_t> weight_dims = { 64, 32, 3, 3 };

// f32 oihw -> s8 `dtag` with per-o src scales and s8s8 compensation: the
// interleave whose scales the driver expands.
struct weights_t {
    jit_case_t c;
    memory_desc_t s, d;
    plan_t p;
    std::unique_ptr<x64::jit_reorder_t> jit;
    std::vector<uint8_t> src;

    ::testing::AssertionResult init(cpu_isa_t isa, const char *dtag, const std::vector<float> &sc) {
        c.dims = weight_dims;
        c.sdt = relayout_f32;
        c.ddt = relayout_s8;
        c.stag = "oihw";
        c.dtag = dtag;
        c.src_scale_mask = 1;
        c.extra_flags = relayout_extra_flag_compensation_conv_s8s8;
        c.comp_mask = 1;
        if (make_md(s, c, true) != status_t::success || make_md(d, c, false) != status_t::success)
            return ::testing::AssertionFailure() << "descriptors: " << last_error_message();
        attr_t a;
        a.src_scales.mask = 1;
        a.src_scales.values = sc;
        if (plan_create(p, s, d, a) != status_t::success)
            return ::testing::AssertionFailure() << "plan: " << last_error_message();
        std::string name;
        if (x64::jit_reorder_accept(p, isa, name) != status_t::success
                || name.find(":interleave") == std::string::npos)
            return ::testing::AssertionFailure() << "not an interleave: " << name;
        if (x64::jit_reorder_create(p, isa, jit) != status_t::success)
            return ::testing::AssertionFailure() << "jit: " << last_error_message();
        std::mt19937 rng(7);
        src.resize(md_size(s));
        fill_random(relayout_f32, src.data(), src.size() / 4, rng);
        return ::testing::AssertionSuccess();
    }

    exec_ctx_t ctx(const std::vector<float> &sc, std::vector<uint8_t> &dst,
            const exec_prepared_t *prepared = nullptr) const {
        dst.assign(md_size(d), 0xa5);
        exec_ctx_t x;
        x.src = src.data();
        x.dst = dst.data();
        x.src_scales = sc.data();
        x.dst_scales = nullptr;
        x.prepared = prepared;
        return x;
    }
    std::vector<uint8_t> ref(const std::vector<float> &sc) const {
        std::vector<uint8_t> out;
        EXPECT_EQ(ref_reorder_execute(p, ctx(sc, out)), status_t::success);
        return out;
    }
    std::vector<uint8_t> run(const std::vector<float> &sc, const exec_prepared_t *pre) const {
        std::vector<uint8_t> out;
        EXPECT_EQ(jit->execute(ctx(sc, out, pre)), status_t::success);
        return out;
    }
    std::shared_ptr<const exec_prepared_t> prepare(const std::vector<float> &sc) const {
        std::vector<uint8_t> unused;
        std::shared_ptr<const exec_prepared_t> pre;
        EXPECT_EQ(jit->prepare(ctx(sc, unused), pre), status_t::success);
        return pre;
    }
};

// Per-o scales of the weights, from the harness's pool.
std::vector<float> scales(unsigned seed) {
    jit_case_t c;
    c.dims = weight_dims;
    std::mt19937 rng(seed);
    return make_scales(1, c, rng);
}

TEST(jit_prepared, UsedOnlyForItsOwnScaleArrays) {
    const std::vector<float> x = scales(1), y = scales(2);
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        weights_t w;
        ASSERT_TRUE(w.init(isa, "OIhw4i16o4i", x));
        const auto px = w.prepare(x);
        ASSERT_TRUE(px) << "the kernel expands its scales: it must prepare them";
        EXPECT_EQ(w.run(x, px.get()), w.ref(x)) << x64::isa2str(isa);
        // Prepared for x, executed with y: y's values count.
        EXPECT_EQ(w.run(y, px.get()), w.ref(y)) << x64::isa2str(isa);
        EXPECT_EQ(w.run(y, nullptr), w.ref(y)) << x64::isa2str(isa);
    }
}

TEST(jit_prepared, IgnoredByOtherKernels) {
    const std::vector<float> x = scales(1);
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        // The same scale array, prepared by a kernel that repeats each
        // scale 4 times, handed to one that repeats it twice.
        weights_t a, b;
        ASSERT_TRUE(a.init(isa, "OIhw8i16o2i", x));
        ASSERT_TRUE(b.init(isa, "OIhw4i16o4i", x));
        const auto pb = b.prepare(x);
        ASSERT_TRUE(pb);
        EXPECT_EQ(a.run(x, pb.get()), a.ref(x)) << x64::isa2str(isa);
        EXPECT_EQ(b.run(x, pb.get()), b.ref(x)) << x64::isa2str(isa);
    }
}

} // namespace
} // namespace test
} // namespace impl
} // namespace relayout
