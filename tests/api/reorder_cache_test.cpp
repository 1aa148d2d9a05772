// The kernel cache through the public API: problems that differ only in
// what the old text key rounded or left out get their own kernel (and the
// right numbers), device engines do not share kernels by index, verbose
// lines and plan queries read as before, and primitives outlive the
// descriptor handle they were made from; primitives that share a kernel
// keep their own scales, and executing one allocates nothing.
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "relayout/relayout.hpp"
#include "relayout/relayout_npu.hpp"

// Counts the allocations of the thread that set `counting` (the library
// allocates through these too).
namespace {
thread_local bool counting = false;
std::atomic<long> allocations{ 0 };
__attribute__((noinline)) void *counted_alloc(size_t n) {
    if (counting) allocations++;
    return std::malloc(n ? n : 1);
}
__attribute__((noinline)) void counted_free(void *p) {
    std::free(p);
}
} // namespace
void *operator new(size_t n) {
    if (void *p = counted_alloc(n)) return p;
    throw std::bad_alloc();
}
void *operator new[](size_t n) {
    if (void *p = counted_alloc(n)) return p;
    throw std::bad_alloc();
}
void *operator new(size_t n, const std::nothrow_t &) noexcept {
    return counted_alloc(n);
}
void *operator new[](size_t n, const std::nothrow_t &) noexcept {
    return counted_alloc(n);
}
void operator delete(void *p) noexcept {
    counted_free(p);
}
void operator delete[](void *p) noexcept {
    counted_free(p);
}
void operator delete(void *p, size_t) noexcept {
    counted_free(p);
}
void operator delete[](void *p, size_t) noexcept {
    counted_free(p);
}

namespace {

using namespace relayout;
using dt = memory::data_type;
using tag = memory::format_tag;

engine &cpu() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

struct verbose_capture_t {
    verbose_capture_t() {
        set_verbose(1);
        testing::internal::CaptureStdout();
    }
    std::string stop() {
        std::string s = testing::internal::GetCapturedStdout();
        set_verbose(0);
        return s;
    }
};

std::vector<std::string> lines_with(const std::string &out, const std::string &prefix) {
    std::vector<std::string> r;
    size_t p = 0;
    while (p < out.size()) {
        size_t e = out.find('\n', p);
        if (e == std::string::npos) e = out.size();
        const std::string l = out.substr(p, e - p);
        if (l.rfind(prefix, 0) == 0) r.push_back(l);
        p = e + 1;
    }
    return r;
}

// f32 abcd -> f32 aBcd16b of 1..n with a common src scale and a sum.
std::vector<float> run_scaled(float scale, float beta, float dst_init) {
    const memory::dims dims = { 2, 16, 3, 3 };
    memory::desc s(dims, dt::f32, tag::abcd), d(dims, dt::f32, tag::abcd);
    std::vector<float> src(2 * 16 * 9), dst(src.size(), dst_init);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = float(i + 1);
    memory sm(s, cpu(), src.data()), dm(d, cpu(), dst.data());
    primitive_attr a;
    a.set_scales(RELAYOUT_ARG_SRC, 0, { scale });
    if (beta != 0.f) a.set_post_ops_sum(beta);
    stream st(cpu());
    reorder(reorder::primitive_desc(cpu(), s, cpu(), d, a)).execute(st, sm, dm);
    return dst;
}

TEST(ReorderCache, IdentityScaleAndOtherScalesGetTheirOwnKernels) {
    // f32 -> f32 with a scale of 1 is a bit copy; a scale of 2 is not. The
    // text key (mask only) handed the bit copy to the second reorder.
    for (int order = 0; order < 2; ++order) {
        const float first = order ? 2.f : 1.f, second = order ? 1.f : 2.f;
        const auto a = run_scaled(first, 0.f, 0.f);
        const auto b = run_scaled(second, 0.f, 0.f);
        for (size_t i = 0; i < a.size(); ++i) {
            ASSERT_EQ(a[i], first * float(i + 1)) << i;
            ASSERT_EQ(b[i], second * float(i + 1)) << i;
        }
    }
}

TEST(ReorderCache, SumScalesThatPrintAlikeGetTheirOwnKernels) {
    // 6 digits of text made these one key; beta is baked into the kernel.
    const float b1 = 0.5f, b2 = 0.50000006f;
    const auto x = run_scaled(1.f, b1, 1024.f);
    const auto y = run_scaled(1.f, b2, 1024.f);
    for (size_t i = 0; i < x.size(); ++i) {
        ASSERT_EQ(x[i], float(i + 1) + b1 * 1024.f) << i;
        ASSERT_EQ(y[i], float(i + 1) + b2 * 1024.f) << i;
    }
}

TEST(ReorderCache, HitMissAndVerboseLines) {
    const memory::dims dims = { 3, 19, 5, 5 };
    memory::desc s(dims, dt::f32, tag::nchw), d(dims, dt::f32, tag::nChw16c);
    memory::desc d2(dims, dt::f32, tag::nChw8c);
    verbose_capture_t cap;
    reorder::primitive_desc pd(cpu(), s, cpu(), d);
    reorder r1(pd), r2(pd);
    reorder r3(reorder::primitive_desc(cpu(), s, cpu(), d));
    reorder r4(reorder::primitive_desc(cpu(), s, cpu(), d2));
    const std::string out = cap.stop();
    const auto ls = lines_with(out, "relayout_verbose,create:");
    ASSERT_EQ(ls.size(), 4u) << out;
    // The first may hit a kernel an earlier test built; the next two hit.
    EXPECT_NE(ls[1].find("create:cache_hit"), std::string::npos) << ls[1];
    EXPECT_NE(ls[2].find("create:cache_hit"), std::string::npos) << ls[2];
    // Layout of a line: create:<hit>,reorder,<impl>,src:<md>,dst:<md>,attr:,plan:<plan>,<ms>
    const std::string want = ",reorder," + pd.impl_info_str()
                             + ",src:f32:abcd:3x19x5x5,dst:f32:aBcd16b:3x19x5x5,attr:,plan:";
    EXPECT_NE(ls[1].find(want), std::string::npos) << ls[1];
    // Verbose at creation: the plan string carries the kernel split.
    const std::string plan = pd.plan_str();
    EXPECT_FALSE(plan.empty());
    EXPECT_NE(ls[1].find("plan:" + plan + ","), std::string::npos) << ls[1] << "\n" << plan;
    if (pd.impl_info_str().rfind("jit:", 0) == 0) {
        EXPECT_NE(plan.find(" | "), std::string::npos) << plan;
    }
    // Without verbose the query is the plain plan: the same text up to the split.
    const std::string quiet = reorder::primitive_desc(cpu(), s, cpu(), d).plan_str();
    EXPECT_EQ(plan.substr(0, quiet.size()), quiet);
    EXPECT_EQ(quiet.find(" | "), std::string::npos) << quiet;
}

TEST(ReorderCache, PrimitiveOutlivesItsDescriptorHandle) {
    const memory::dims dims = { 2, 16, 3, 3 };
    memory::desc s(dims, dt::f32, tag::nchw), d(dims, dt::f32, tag::nhwc);
    std::vector<float> src(2 * 16 * 9), dst(src.size(), -1.f);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = float(i);
    reorder r;
    std::string plan;
    {
        reorder::primitive_desc pd(cpu(), s, cpu(), d);
        plan = pd.plan_str();
        r = reorder(pd);
    }                                        // the handle is destroyed here
    const auto pd2 = r.get_primitive_desc(); // a clone of the primitive's own
    EXPECT_EQ(pd2.plan_str(), plan);
    reorder r2(pd2);
    memory sm(s, cpu(), src.data()), dm(d, cpu(), dst.data());
    stream st(cpu());
    r2.execute(st, sm, dm);
    r.execute(st, sm, dm);
    for (int64_t n = 0; n < 2; ++n)
        for (int64_t c = 0; c < 16; ++c)
            for (int64_t hw = 0; hw < 9; ++hw)
                ASSERT_EQ(dst[size_t((n * 9 + hw) * 16 + c)], src[size_t((n * 16 + c) * 9 + hw)]);
    // The primitive's descriptor through the C API: destroying it is harmless.
    const_relayout_primitive_desc_t own = nullptr;
    ASSERT_EQ(relayout_primitive_get_primitive_desc(r.get(), &own), relayout_success);
    const char *s1 = nullptr;
    ASSERT_EQ(relayout_primitive_desc_query_plan(own, &s1), relayout_success);
    EXPECT_EQ(std::string(s1), plan);
}

TEST(ReorderCache, NpuEnginesOfOnePresetDoNotShareKernels) {
    engine a = npu::make_engine("bm1684x"), b = npu::make_engine("bm1684x");
    const memory::dims dims = { 1, 8, 4, 4 };
    memory::desc nchw(dims, dt::f32, tag::nchw);
    memory::desc la = npu::local_desc(a, 0x8000, dims, dt::f32);
    memory::desc lb = npu::local_desc(b, 0x8000, dims, dt::f32);
    verbose_capture_t cap;
    reorder(reorder::primitive_desc(cpu(), nchw, a, la));
    reorder(reorder::primitive_desc(cpu(), nchw, a, la));
    reorder(reorder::primitive_desc(cpu(), nchw, b, lb));
    const std::string out = cap.stop();
    const auto ls = lines_with(out, "relayout_verbose,create:");
    std::vector<std::string> npu_lines;
    for (const auto &l : ls)
        if (l.find(",npu:dma,") != std::string::npos) npu_lines.push_back(l);
    ASSERT_EQ(npu_lines.size(), 3u) << out;
    EXPECT_NE(npu_lines[0].find("cache_miss"), std::string::npos) << npu_lines[0];
    EXPECT_NE(npu_lines[1].find("cache_hit"), std::string::npos) << npu_lines[1];
    // Same kind, same index, same descriptor bytes: another engine object.
    EXPECT_NE(npu_lines[2].find("cache_miss"), std::string::npos) << npu_lines[2];
}

// f32 oihw -> s8 OIhw4i16o4i with per-o src scales and s8s8
// compensation: the JIT expands the scales over the 4 folded i lanes.
const memory::dims wdims = { 64, 32, 3, 3 };
memory::desc wsrc() {
    return memory::desc(wdims, dt::f32, tag::oihw);
}
memory::desc wdst() {
    return memory::desc(wdims, dt::s8, "OIhw4i16o4i")
            .with_extra(relayout_extra_flag_compensation_conv_s8s8, 1);
}
std::vector<float> wsrc_data() {
    std::vector<float> v(64 * 32 * 9);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = float(int(i * 37 % 201) - 100) * 0.75f;
    return v;
}
std::vector<float> wscales(float base) {
    std::vector<float> v(64);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = base + 0.125f * float(i % 5);
    return v;
}
reorder::primitive_desc wpd(const std::vector<float> &sc) {
    primitive_attr a;
    a.set_scales(RELAYOUT_ARG_SRC, 1, sc);
    return reorder::primitive_desc(cpu(), wsrc(), cpu(), wdst(), a);
}
std::vector<char> wrun(const reorder &r) {
    std::vector<float> src = wsrc_data();
    std::vector<char> dst(wdst().get_size(), 0x5a);
    memory sm(wsrc(), cpu(), src.data()), dm(wdst(), cpu(), dst.data());
    stream st(cpu());
    r.execute(st, sm, dm);
    return dst;
}

struct isa_guard_t {
    ~isa_guard_t() { set_max_cpu_isa(relayout_cpu_isa_default); }
};

TEST(ReorderCache, PrimitivesSharingAKernelKeepTheirOwnScales) {
    isa_guard_t guard;
    const std::vector<float> sa = wscales(0.5f), sb = wscales(2.f);
    set_max_cpu_isa(relayout_cpu_isa_none); // the reference
    const std::vector<char> ea = wrun(reorder(wpd(sa))), eb = wrun(reorder(wpd(sb)));
    ASSERT_NE(ea, eb);
    for (relayout_cpu_isa_t isa : { relayout_cpu_isa_avx512_core, relayout_cpu_isa_avx2 }) {
        set_max_cpu_isa(isa);
        const reorder::primitive_desc pa = wpd(sa), pb = wpd(sb);
        if (pa.impl_info_str().find(":interleave") == std::string::npos)
            continue; // the cpu lacks the ISA
        verbose_capture_t cap;
        reorder ra(pa), rb(pb);
        const auto ls = lines_with(cap.stop(), "relayout_verbose,create:");
        ASSERT_EQ(ls.size(), 2u);
        EXPECT_NE(ls[1].find("cache_hit"), std::string::npos) << "one kernel for both: " << ls[1];
        // Interleaved, each twice: neither takes the other's scales.
        for (int i = 0; i < 2; ++i) {
            EXPECT_EQ(wrun(ra), ea) << pa.impl_info_str() << " " << i;
            EXPECT_EQ(wrun(rb), eb) << pb.impl_info_str() << " " << i;
        }
        // A primitive made from another's descriptor, and one that
        // outlives the other.
        reorder rc(rb.get_primitive_desc());
        rb = reorder();
        EXPECT_EQ(wrun(rc), eb) << pb.impl_info_str();
        EXPECT_EQ(wrun(ra), ea) << pa.impl_info_str();
    }
}

TEST(ReorderCache, ExecuteAllocatesNothing) {
    set_num_threads(1);
    const memory::dims dims = { 1, 16, 7, 7 };
    const memory::desc s(dims, dt::f32, tag::nchw), d(dims, dt::f32, tag::nChw16c);
    std::vector<float> src(16 * 49, 1.f), dst(src.size());
    memory sm(s, cpu(), src.data()), dm(d, cpu(), dst.data());
    const reorder tiny(reorder::primitive_desc(cpu(), s, cpu(), d));
    const reorder weights(wpd(wscales(0.5f)));
    std::vector<float> wsd = wsrc_data();
    std::vector<char> wdd(wdst().get_size());
    memory wsm(wsrc(), cpu(), wsd.data()), wdm(wdst(), cpu(), wdd.data());
    stream st(cpu());
    for (int i = 0; i < 3; ++i) {
        // The first execution of a thread may set up its scratch.
        allocations = 0;
        counting = true;
        tiny.execute(st, sm, dm);
        weights.execute(st, wsm, wdm);
        counting = false;
        if (i > 0) {
            EXPECT_EQ(allocations.load(), 0) << "execution " << i;
        }
    }
    set_num_threads(0);
}

// A primitive_desc created again comes from what the thread remembers of
// the first: it must still follow the ISA cap, the scale values (and their
// validation) and the format_kind any resolution of the moment.
TEST(ReorderCache, RepeatedDescriptorsFollowTheCapAndTheAttributes) {
    isa_guard_t guard;
    const memory::dims dims = { 2, 32, 5, 5 };
    const memory::desc s(dims, dt::f32, tag::nchw), d(dims, dt::f32, tag::nhwc);
    const memory::desc any(dims, dt::f32, tag::any);
    auto impl = [&](const memory::desc &dst) {
        return reorder::primitive_desc(cpu(), s, cpu(), dst).impl_info_str();
    };
    const std::string first = impl(d);
    EXPECT_EQ(impl(d), first);
    for (relayout_cpu_isa_t cap : { relayout_cpu_isa_avx2, relayout_cpu_isa_none,
                 relayout_cpu_isa_avx512_core, relayout_cpu_isa_avx2 }) {
        set_max_cpu_isa(cap);
        const std::string want = get_effective_cpu_isa() == relayout_cpu_isa_none ? "ref:"
                                 : get_effective_cpu_isa() == relayout_cpu_isa_avx2
                                         ? "jit:avx2:"
                                         : "jit:avx512_core:";
        for (int i = 0; i < 2; ++i) {
            EXPECT_EQ(impl(d).rfind(want, 0), 0u) << impl(d) << " under cap " << int(cap);
            // format_kind any: channels blocked by the vector width.
            const reorder::primitive_desc pa(cpu(), s, cpu(), any);
            const std::string blk =
                    get_effective_cpu_isa() == relayout_cpu_isa_avx512_core ? "16b" : "8b";
            const memory::desc rd = pa.dst_desc();
            EXPECT_EQ(rd.get_size(), memory::desc(dims, dt::f32, "aBcd" + blk).get_size())
                    << int(cap);
        }
    }
    set_max_cpu_isa(relayout_cpu_isa_default);
    EXPECT_EQ(impl(d), first);
    // Scale values: 32 per-channel values are valid, 31 are not, even right after.
    const memory::desc ws(dims, dt::f32, tag::nchw), wd(dims, dt::s8, tag::nhwc);
    for (int i = 0; i < 2; ++i) {
        primitive_attr ok, bad;
        ok.set_scales(RELAYOUT_ARG_SRC, 2, std::vector<float>(32, 0.5f));
        bad.set_scales(RELAYOUT_ARG_SRC, 2, std::vector<float>(31, 0.5f));
        EXPECT_NO_THROW(reorder::primitive_desc(cpu(), ws, cpu(), wd, ok));
        EXPECT_THROW(reorder::primitive_desc(cpu(), ws, cpu(), wd, bad), error);
    }
}

// The public relayout_cpu_isa_t values are ABI (a binary built against an
// older header passes 4 for `all`): avx512_core_bf16 came after all, as 5,
// and the library orders the levels itself (none < avx2 < avx512_core <
// avx512_core_bf16 < all): a cap of avx512_core leaves the bf16 level out,
// `all` (4) and default let it in.
static_assert(relayout_cpu_isa_default == 0 && relayout_cpu_isa_none == 1
                      && relayout_cpu_isa_avx2 == 2 && relayout_cpu_isa_avx512_core == 3
                      && relayout_cpu_isa_all == 4 && relayout_cpu_isa_avx512_core_bf16 == 5,
        "relayout_cpu_isa_t values are ABI");

TEST(CpuIsaCap, PublicValuesKeptAndLevelsOrdered) {
    isa_guard_t guard;
    for (int v = 0; v <= 5; ++v)
        EXPECT_EQ(relayout_set_max_cpu_isa(static_cast<relayout_cpu_isa_t>(v)), relayout_success)
                << v;
    for (int v : { -1, 6 })
        EXPECT_EQ(relayout_set_max_cpu_isa(static_cast<relayout_cpu_isa_t>(v)),
                relayout_invalid_arguments)
                << v;
    set_max_cpu_isa(relayout_cpu_isa_default);
    const relayout_cpu_isa_t best = get_effective_cpu_isa();
    const bool has_avx512 =
            best == relayout_cpu_isa_avx512_core || best == relayout_cpu_isa_avx512_core_bf16;
    const memory::desc s({ 4, 64 }, memory::data_type::f32, "ab");
    const memory::desc d({ 4, 64 }, memory::data_type::bf16, "ab");
    auto impl = [&] { return reorder::primitive_desc(cpu(), s, cpu(), d).impl_info_str(); };

    set_max_cpu_isa(relayout_cpu_isa_all);
    EXPECT_EQ(get_effective_cpu_isa(), best);
    if (best == relayout_cpu_isa_avx512_core_bf16) {
        EXPECT_EQ(impl().rfind("jit:avx512_core_bf16:", 0), 0u) << impl();
    }
    set_max_cpu_isa(relayout_cpu_isa_avx512_core_bf16);
    EXPECT_EQ(get_effective_cpu_isa(), best); // (no level above it but all)
    set_max_cpu_isa(relayout_cpu_isa_avx512_core);
    EXPECT_NE(get_effective_cpu_isa(), relayout_cpu_isa_avx512_core_bf16);
    if (has_avx512) {
        EXPECT_EQ(get_effective_cpu_isa(), relayout_cpu_isa_avx512_core);
        EXPECT_EQ(impl().rfind("jit:avx512_core:", 0), 0u) << impl();
    }
    set_max_cpu_isa(relayout_cpu_isa_avx2);
    const relayout_cpu_isa_t eff = get_effective_cpu_isa();
    EXPECT_TRUE(eff == relayout_cpu_isa_avx2 || eff == relayout_cpu_isa_none) << eff;
    set_max_cpu_isa(relayout_cpu_isa_none);
    EXPECT_EQ(get_effective_cpu_isa(), relayout_cpu_isa_none);
}

} // namespace
