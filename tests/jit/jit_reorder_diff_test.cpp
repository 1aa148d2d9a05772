// Every JIT kernel family of the manifest (jit/x64/jit_kernels.inc) at its
// ISA, against the reference, bit for bit: every data-type pair, sizes
// around each tile edge (1 .. 2*tile+1), odd strides, padding, scales,
// zero points and the sum post-op. Skips ISAs the CPU (or the cap) lacks.
#include "jit_test_utils.hpp"

#include <algorithm>
#include <cstdlib>
#include <tuple>
#include <utility>

#include "common/env.hpp"
#include "jit/x64/cpu_isa.hpp"
#include "jit/x64/jit_generator.hpp"
#include "jit/x64/jit_reorder_kernel.hpp"

namespace relayout {
namespace impl {
namespace test {
namespace {

using x64::cpu_isa_t;

struct kernel_entry_t {
    cpu_isa_t isa;
    kernel_strategy_t strategy;
    int tile;
    const char *name;
};

const kernel_entry_t manifest[] = {
#define RELAYOUT_JIT_KERNEL(isa, strategy, tile)                                                   \
    { cpu_isa_t::isa, kernel_strategy_t::strategy, tile, #isa "_" #strategy },
#include "jit/x64/jit_kernels.inc"
#undef RELAYOUT_JIT_KERNEL
};

const data_type_t all_dts[] = { relayout_f32, relayout_bf16, relayout_f16, relayout_s32,
    relayout_s16, relayout_u16, relayout_s8, relayout_u8 };

// Sizes around a tile edge: 1 .. 2*tile+1 (every one for small tiles, the
// edges for large ones).
std::vector<dim_t> edge_sizes(int tile) {
    std::vector<dim_t> s;
    for (dim_t n = 1; n <= 2 * tile + 1; ++n)
        if (tile <= 8 || n <= 3 || n % tile <= 1 || n % tile == (dim_t)tile - 1
                || n == tile / 2 + 1)
            s.push_back(n);
    return s;
}

// Problems whose kernel plan picks `strategy` (checked by the test).
std::vector<jit_case_t> cases_for(kernel_strategy_t strategy, int tile) {
    std::vector<jit_case_t> cs;
    const int T = tile > 1 ? tile : 8;
    auto add_attr_variants = [&](jit_case_t c, int lane_dim, int row_dim) {
        cs.push_back(c);
        jit_case_t a = c;
        a.src_scale_mask = 0;
        a.dst_scale_mask = -1;
        a.sdt = relayout_f32;
        for (data_type_t ddt : { relayout_s8, relayout_u8, relayout_f32, relayout_bf16 }) {
            a.ddt = ddt;
            a.src_scale_mask = 0; // common
            cs.push_back(a);
            a.src_scale_mask = 1 << lane_dim;
            a.dst_scale_mask = 1 << row_dim;
            cs.push_back(a);
            a.src_scale_mask = (1 << lane_dim) | (1 << row_dim);
            a.dst_scale_mask = 0;
            cs.push_back(a);
            a.src_scale_mask = -1;
            a.dst_scale_mask = 1 << lane_dim;
            a.src_zp = 3;
            a.dst_zp = -2;
            cs.push_back(a);
            a.dst_scale_mask = -1;
            a.beta = 0.5f;
            cs.push_back(a);
            a.src_zp = a.dst_zp = 0;
            a.beta = 0.f;
        }
        for (data_type_t sdt : { relayout_s8, relayout_u8, relayout_s32 }) {
            jit_case_t b = c;
            b.sdt = sdt;
            b.ddt = relayout_s8;
            b.src_zp = 128;
            b.dst_zp = 5;
            b.beta = 2.f;
            b.dst_scale_mask = 0;
            cs.push_back(b);
        }
    };
    switch (strategy) {
        case kernel_strategy_t::copy: {
            for (dim_t n : edge_sizes(T)) {
                for (data_type_t s : all_dts)
                    for (data_type_t d : all_dts) {
                        jit_case_t c;
                        c.dims = { n };
                        c.sdt = s;
                        c.ddt = d;
                        c.stag = c.dtag = "a";
                        cs.push_back(c);
                    }
            }
            for (dim_t n : { dim_t(4 * T + 3), dim_t(1000), dim_t(40000) }) {
                jit_case_t c;
                c.dims = { 3, n };
                c.sstrides = { n + 3, 1 };
                c.dstrides = { n + 1, 1 };
                for (data_type_t s : all_dts)
                    for (data_type_t d : all_dts) {
                        c.sdt = s;
                        c.ddt = d;
                        cs.push_back(c);
                    }
                c.sdt = c.ddt = relayout_f32;
                add_attr_variants(c, 1, 0);
            }
            // Blocked -> blocked: the in-block node is the copy, with padding.
            for (dim_t C : { 1, 7, 8, 9, 17, 33 }) {
                jit_case_t c = jit_case_t::of(
                        { 2, C, 3, 2 }, relayout_f32, relayout_f32, "aBcd8b", "aBcd16b");
                for (data_type_t s : all_dts) {
                    c.sdt = s;
                    c.ddt = s;
                    cs.push_back(c);
                    c.ddt = relayout_f32;
                    cs.push_back(c);
                }
                c.sdt = c.ddt = relayout_f32;
                add_attr_variants(c, 1, 0);
            }
            break;
        }
        case kernel_strategy_t::transpose: {
            const auto sz = edge_sizes(T);
            for (dim_t m : sz)
                for (dim_t n : sz) {
                    if (m == 1 || n == 1) continue; // folds to a copy
                    jit_case_t c = jit_case_t::of({ m, n }, relayout_f32, relayout_f32, "ab", "ba");
                    cs.push_back(c);
                    // odd strides on both sides
                    c.sstrides = { n + 3, 1 };
                    c.dstrides = { 1, m + 5 };
                    cs.push_back(c);
                }
            for (data_type_t s : all_dts)
                for (data_type_t d : all_dts) {
                    jit_case_t c;
                    c.dims = { T + 3, 2 * T + 1 };
                    c.sdt = s;
                    c.ddt = d;
                    c.stag = "ab";
                    c.dtag = "ba";
                    cs.push_back(c);
                    c.dims = { 2, 17, 5, 3 };
                    c.stag = "nchw";
                    c.dtag = "nChw16c";
                    cs.push_back(c);
                    c.stag = "nChw8c";
                    c.dtag = "nchw";
                    cs.push_back(c);
                }
            for (dim_t C : { 1, 3, 8, 15, 16, 17, 33 }) {
                jit_case_t c;
                c.dims = { 2, C, 5, 7 };
                for (auto tags : { std::make_pair("nchw", "nChw16c"),
                             std::make_pair("nchw", "nChw8c"), std::make_pair("nchw", "nChw4c"),
                             std::make_pair("nChw16c", "nchw"), std::make_pair("nChw8c", "nhwc"),
                             std::make_pair("nchw", "nhwc"), std::make_pair("nhwc", "nchw") }) {
                    c.stag = tags.first;
                    c.dtag = tags.second;
                    cs.push_back(c);
                }
                c.stag = "nchw";
                c.dtag = "nChw16c";
                add_attr_variants(c, 1, 2);
            }
            for (dim_t O : { 3, 16, 17 })
                for (dim_t I : { 5, 16, 33 }) {
                    jit_case_t c;
                    c.dims = { O, I, 3, 3 };
                    c.stag = "oihw";
                    for (const char *t : { "OIhw16i16o", "OIhw16o16i", "OIhw8i8o", "hwio" }) {
                        c.dtag = t;
                        cs.push_back(c);
                    }
                    c.stag = "OIhw16i16o";
                    c.dtag = "oihw";
                    cs.push_back(c);
                }
            {
                jit_case_t c = jit_case_t::of(
                        { 3 * T + 1, 2 * T + 3 }, relayout_f32, relayout_f32, "ab", "ba");
                add_attr_variants(c, 0, 1);
                // 0-stride (broadcast) src rows
                c.sstrides = { 0, 1 };
                cs.push_back(c);
            }
            {
                // Larger than a micro tile: split nodes, driver tails.
                jit_case_t c = jit_case_t::of({ 300, 257 }, relayout_f32, relayout_f32, "ab", "ba");
                cs.push_back(c);
                c.sdt = c.ddt = relayout_s8;
                cs.push_back(c);
                c.sdt = c.ddt = relayout_bf16;
                cs.push_back(c);
                c.dims = { 2, 35, 41, 23 };
                c.sdt = c.ddt = relayout_f32;
                c.stag = "nchw";
                c.dtag = "nChw16c";
                cs.push_back(c);
                c.stag = "nChw16c";
                c.dtag = "nchw";
                cs.push_back(c);
            }
            break;
        }
        case kernel_strategy_t::interleave: {
            // VNNI-style weight packings: 4i/2i under 16o fill the lanes.
            for (dim_t O : { 1, 5, 16, 17, 33 })
                for (dim_t I : { 4, 8, 12, 16, 20, 32 }) {
                    jit_case_t c;
                    c.dims = { O, I, 3, 3 };
                    for (const char *st : { "oihw", "hwio" })
                        for (const char *dt :
                                { "OIhw4i16o4i", "OIhw8i16o2i", "ABcd4b8a4b", "OIhw2i8o4i" }) {
                            c.stag = st;
                            c.dtag = dt;
                            for (data_type_t s : { relayout_f32, relayout_s8, relayout_bf16 }) {
                                c.sdt = s;
                                c.ddt = s == relayout_f32 ? relayout_s8 : s;
                                cs.push_back(c);
                            }
                        }
                }
            for (data_type_t s : all_dts)
                for (data_type_t d : all_dts) {
                    jit_case_t c;
                    c.dims = { 20, 16, 3, 3 };
                    c.sdt = s;
                    c.ddt = d;
                    c.stag = "oihw";
                    c.dtag = "OIhw4i16o4i";
                    cs.push_back(c);
                }
            {
                jit_case_t c =
                        jit_case_t::of({ 70, 64 }, relayout_f32, relayout_f32, "ab", "BA16a64b4a");
                cs.push_back(c);
                c.sdt = c.ddt = relayout_s8;
                cs.push_back(c);
                c.dims = { 2, 20, 16, 3, 3 };
                c.stag = "goihw";
                c.dtag = "gOIhw4i16o4i";
                cs.push_back(c);
                c.sdt = relayout_f32;
                c.src_scale_mask = 0;
                cs.push_back(c);
                c.dims = { 33, 16, 3, 3 };
                c.stag = "oihw";
                c.dtag = "OIhw4i16o4i";
                c.src_zp = 3;
                c.dst_zp = -2;
                c.beta = 0.5f;
                cs.push_back(c);
            }
            break;
        }
        case kernel_strategy_t::scalar: {
            for (dim_t m : { 1, 2, 5 })
                for (dim_t n : { 2, 3, 9, 17 }) {
                    jit_case_t c;
                    c.dims = { m, n };
                    c.sstrides = { 2 * n + 1, 2 };
                    c.dstrides = { 2, 2 * m + 3 };
                    for (data_type_t s : all_dts)
                        for (data_type_t d : all_dts) {
                            c.sdt = s;
                            c.ddt = d;
                            cs.push_back(c);
                        }
                    c.sdt = c.ddt = relayout_f32;
                    add_attr_variants(c, 1, 0);
                }
            break;
        }
    }
    return cs;
}

// run_jit_case at `isa`, except that conversions to bf16 whose tiles run
// the avx2 code (8 lanes or fewer) or round in integers
// (jit_bf16_int_near_rows), which avx512_core_bf16 declines and
// avx512_core takes, run at avx512_core (`isa` then says so).
::testing::AssertionResult run_jit_case_at(
        const jit_case_t &c, cpu_isa_t &isa, std::string *name, uint32_t seed) {
    ::testing::AssertionResult r = run_jit_case(c, isa, name, seed);
    const std::string why = r ? "" : r.message();
    if (!r && isa == cpu_isa_t::avx512_core_bf16
            && (why.find("the kernel runs avx2 code") != std::string::npos
                    || why.find("the kernel rounds in integers") != std::string::npos)) {
        isa = cpu_isa_t::avx512_core;
        r = run_jit_case(c, isa, name, seed);
    }
    return r;
}

class jit_kernel_test_t : public ::testing::TestWithParam<kernel_entry_t> {};

TEST_P(jit_kernel_test_t, MatchesReferenceBitExact) {
    const kernel_entry_t &k = GetParam();
    if (!x64::isa_allowed(k.isa)) GTEST_SKIP() << x64::isa2str(k.isa) << " not available";
    const auto cs = cases_for(k.strategy, k.tile);
    int picked = 0, n = 0;
    const std::string want = std::string("jit:") + x64::isa2str(k.isa) + ":";
    // avx512_core_bf16 takes the conversions to bf16 only (avx512_core the
    // rest; the cases' bf16 -> bf16 ones are bit copies).
    const bool bf16_only = k.isa == cpu_isa_t::avx512_core_bf16;
    for (const auto &c : cs) {
        if (bf16_only && (c.ddt != relayout_bf16 || c.sdt == relayout_bf16)) continue;
        std::string name;
        cpu_isa_t at = k.isa;
        ASSERT_TRUE(run_jit_case_at(c, at, &name, 1 + n)) << "case " << n;
        EXPECT_EQ(name.rfind(at == k.isa ? want : "jit:avx512_core:", 0), 0u) << name;
        if (name == want + strategy2str(k.strategy)) ++picked;
        ++n;
    }
    // Many cases must land on the strategy under test (some fold away or
    // pick a neighbour: hwio weights are plain transposes, for instance).
    EXPECT_GT(picked, n / 4) << picked << " of " << n << " cases used " << k.name;
    RecordProperty("cases", n);
}

INSTANTIATE_TEST_SUITE_P(manifest, jit_kernel_test_t, ::testing::ValuesIn(manifest),
        [](const ::testing::TestParamInfo<kernel_entry_t> &i) {
            return std::string(i.param.name);
        });

// The padded area of the destination is zero and nothing beyond the
// footprint is written, for every ISA: already covered byte-wise above;
// this checks the CI batch's tail shapes explicitly.
TEST(jit_reorder, CiTailShapes) {
    const char *dtags[] = { "aBcd16b", "aBcd8b", "aBcd4b", "aBcd32b" };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (auto dt : dtags)
            for (auto dims : { std::vector<dim_t>{ 2, 17, 5, 3 }, std::vector<dim_t>{ 1, 1, 1, 1 },
                         std::vector<dim_t>{ 3, 33, 2, 2 }, std::vector<dim_t>{ 2, 64, 3, 3 } }) {
                jit_case_t c;
                c.dims = dims;
                c.stag = "nchw";
                c.dtag = dt;
                EXPECT_TRUE(run_jit_case(c, isa));
            }
    }
}

// Scale variants of the tile tests: 0 none, 1 a common src scale, 2 src
// and dst scales per `mask` (a channel dim), 3 per-channel src and common
// dst scales with zero points.
void set_scale_variant(jit_case_t &c, int variant, int mask) {
    if (variant == 1) c.src_scale_mask = 0;
    if (variant == 2) c.src_scale_mask = c.dst_scale_mask = mask;
    if (variant == 3) {
        c.src_scale_mask = mask;
        c.dst_scale_mask = 0;
        c.src_zp = 3;
        c.dst_zp = -2;
    }
}

// Variants 0-3 of set_scale_variant along channels (mask 2), 4: src
// scales along w (mask 8), the last dim.
void set_row_scale_variant(jit_case_t &c, int variant) {
    if (variant < 4)
        set_scale_variant(c, variant, 2);
    else
        c.src_scale_mask = 8; // along w
}

// The JIT desc of a case at `isa` (with its src scale mask, no other
// attributes).
void case_desc(const jit_case_t &c, cpu_isa_t isa, x64::jit_reorder_desc_t &d) {
    memory_desc_t smd, dmd;
    ASSERT_EQ(make_md(smd, c, true), status_t::success);
    ASSERT_EQ(make_md(dmd, c, false), status_t::success);
    attr_t attr;
    if (c.src_scale_mask >= 0) {
        dim_t count = 1;
        for (size_t i = 0; i < c.dims.size(); ++i)
            if (c.src_scale_mask >> i & 1) count *= c.dims[i];
        attr.src_scales.mask = c.src_scale_mask;
        attr.src_scales.values.assign((size_t)count, 0.5f);
    }
    plan_t p;
    ASSERT_EQ(plan_create(p, smd, dmd, attr), status_t::success);
    kernel_plan_t kp;
    ASSERT_EQ(kernel_plan_create(kp, p, x64::jit_plan_params(isa, p)), status_t::success);
    x64::jit_reorder_desc_init(d, isa, p, kp);
}

// The plan of a case's descriptors (with the dst's extras, without
// attributes).
void case_plan(const jit_case_t &c, plan_t &p) {
    memory_desc_t smd, dmd;
    ASSERT_EQ(make_md(smd, c, true), status_t::success);
    ASSERT_EQ(make_md(dmd, c, false), status_t::success);
    ASSERT_EQ(plan_create(p, smd, dmd, attr_t()), status_t::success);
}

// The kernel plan (kernel_plan_t::dump) the JIT at `isa` takes for `c`.
void case_kplan(const jit_case_t &c, cpu_isa_t isa, std::string &kplan) {
    plan_t p;
    ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
    std::string name;
    ASSERT_EQ(x64::jit_reorder_accept(p, isa, name, &kplan), status_t::success);
}

// Narrow dsts whose B src rows are a page or more apart take 16 rows per
// call (not a whole dst line's 32 or 64: those rows' prefetched lines evict
// each other), except AVX-512 conversions to bf16 / f16 / s8 / u8, whose
// narrow rows read each src row along A with an L2 prefetch ahead: a whole
// dst line's 32 or 64 (jit_narrow_rows), and AVX2 ones to bf16 / s8 / u8
// (jit_ymm_narrow_rows). Odd channel counts give B edge
// tiles. Bit-exact, and the kernel plan must keep B at 16 or a line.
TEST(jit_reorder, FarSrcRowsNarrowDst) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (auto dims :
                { std::vector<dim_t>{ 2, 67, 32, 33 }, std::vector<dim_t>{ 1, 70, 64, 64 } })
            for (data_type_t d :
                    { relayout_s8, relayout_u8, relayout_bf16, relayout_f16, relayout_s16 })
                for (int mask : { -1, 0 }) {
                    jit_case_t c;
                    c.dims = dims;
                    c.ddt = d;
                    c.stag = "nchw";
                    c.dtag = "nhwc";
                    c.src_scale_mask = mask;
                    EXPECT_TRUE(run_jit_case(c, isa));
                    plan_t p;
                    ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
                    std::string name, kplan;
                    ASSERT_EQ(x64::jit_reorder_accept(p, isa, name, &kplan), status_t::success);
                    // (AVX2: bf16, s8, u8, jit_ymm_narrow_rows)
                    const bool narrow = isa == cpu_isa_t::avx512_core
                                                ? d != relayout_s16
                                                : d != relayout_s16 && d != relayout_f16;
                    const int b = !narrow ? 16 : data_type_size(d) == 1 ? 64 : 32;
                    EXPECT_NE(kplan.find(" B[" + std::to_string(b) + " "), std::string::npos)
                            << c.str() << ": " << kplan;
                }
    }
}

// The narrow rows of conversions to 2- and 1-byte dsts (AVX-512: 32 or 64
// B lanes per tile, each src row converted along A, packed and transposed
// once, whole dst lines): B counts around the row (31 .. 130 lanes) give
// edge tiles after the rows, A counts around a tile (5 .. 33) the masked
// A rows; plain and blocked sides; scales common, per channel (along B)
// and per A position (declined: the 16 x 16 tiles), zero points, sources
// narrower than f32; large problems stream (near rows of 2-byte dsts then
// two row tiles per call, and far rows of f32 to 2-byte dsts). AVX2 keeps
// its tiles. The desc must take the
// rows where they apply.
TEST(jit_reorder, NarrowRows) {
    struct shape_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
    };
    const shape_t shapes[] = { { { 2, 33, 3, 5 }, "nchw", "nhwc" },
        { { 1, 64, 1, 17 }, "nchw", "nhwc" }, { { 1, 130, 2, 16 }, "nchw", "nhwc" },
        { { 1, 97, 33, 1 }, "nchw", "nhwc" }, { { 1, 65, 4, 4 }, "nchw", "nhwc" },
        { { 1, 70, 3, 3 }, "nchw", "nhwc" }, { { 1, 5, 9, 9 }, "nhwc", "nchw" },
        { { 2, 31, 5, 7 }, "nhwc", "nchw" }, { { 1, 33, 8, 8 }, "nhwc", "nchw" },
        { { 1, 16, 9, 15 }, "nhwc", "nchw" }, { { 1, 48, 130, 1 }, "nChw16c", "nchw" },
        { { 2, 20, 7, 9 }, "nChw16c", "nchw" } };
    auto make = [](const shape_t &sh, data_type_t sdt, data_type_t ddt) {
        return jit_case_t::of(sh.dims, sdt, ddt, sh.stag, sh.dtag);
    };
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const auto &sh : shapes)
            for (data_type_t sdt : { relayout_f32, relayout_bf16, relayout_s32 })
                for (data_type_t ddt : { relayout_bf16, relayout_f16, relayout_s8, relayout_u8 })
                    for (int variant = 0; variant < 5; ++variant) {
                        if (sdt != relayout_f32 && variant > 1) continue;
                        jit_case_t c = make(sh, sdt, ddt);
                        set_row_scale_variant(c, variant);
                        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                    }
        // Large: streamed rows (and the prefetch along A).
        const shape_t large[] = { { { 2, 256, 128, 130 }, "nchw", "nhwc" },
            { { 2, 128, 130, 128 }, "nhwc", "nchw" }, { { 2, 256, 128, 128 }, "nChw16c", "nchw" } };
        for (const auto &sh : large)
            for (data_type_t ddt : { relayout_bf16, relayout_f16, relayout_s8, relayout_u8 }) {
                jit_case_t c = make(sh, relayout_f32, ddt);
                c.src_scale_mask = ddt == relayout_s8 ? 2 : 0;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            }
        // Near rows of 2-byte dsts with an A of 128 or more (nhwc -> nchw):
        // calls of one row tile, of two when streamed (52 MB; hw = 27370
        // leaves a B edge after the calls of 64). Seeds of their own: the
        // cases above keep theirs.
        uint32_t seed = 1000;
        for (auto dims :
                { std::vector<dim_t>{ 2, 160, 161, 170 }, std::vector<dim_t>{ 2, 128, 130, 128 } })
            for (data_type_t ddt : { relayout_bf16, relayout_f16 }) {
                jit_case_t c = jit_case_t::of(dims, relayout_f32, ddt, "nhwc", "nchw");
                c.src_scale_mask = ddt == relayout_bf16 ? 0 : -1;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
                if (isa != cpu_isa_t::avx512_core) continue;
                std::string kplan;
                ASSERT_NO_FATAL_FAILURE(case_kplan(c, isa, kplan));
                const bool two = dims[1] == 160;
                EXPECT_NE(kplan.find(two ? " B[64 " : " B[32 "), std::string::npos)
                        << c.str() << ": " << kplan;
                // The L2 prefetch: the next call's block (64 rows of 160 f32).
                x64::jit_reorder_desc_t d;
                ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
                if (two) {
                    EXPECT_EQ(d.narrow_pf, 64 * 160 * 4) << c.str();
                }
            }
        // Far rows (nchw -> nhwc) of f32 to 2- and 1-byte dsts, streamed
        // (51-52 MB). 2-byte: calls of two row tiles (one on Intel,
        // narrow_far_rows_lanes) (64 channels; 80 = a
        // call of 64 and one of 16 edge lanes, 48 = a row tile and 16 edge
        // lanes in one call), A tails of 4 and 9 positions; 1-byte: calls
        // of a row tile, 192 channels = three calls, 200 a B edge of 8
        // lanes. All calls of 4096 A positions (each A an edge after
        // them). Scales common and per channel. Seeds of their own.
        struct far_t {
            std::vector<dim_t> dims;
            data_type_t ddts[2];
        };
        const far_t fars[] = { { { 2, 80, 230, 230 }, { relayout_bf16, relayout_f16 } },
            { { 3, 48, 245, 245 }, { relayout_bf16, relayout_f16 } },
            { { 2, 192, 160, 170 }, { relayout_s8, relayout_u8 } },
            { { 2, 200, 150, 173 }, { relayout_s8, relayout_u8 } } };
        uint32_t far_seed = 2000;
        for (const far_t &f : fars)
            for (data_type_t ddt : f.ddts) {
                jit_case_t c = jit_case_t::of(f.dims, relayout_f32, ddt, "nchw", "nhwc");
                c.src_scale_mask = ddt == f.ddts[0] ? 0 : 2;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++far_seed));
                if (isa != cpu_isa_t::avx512_core) continue;
                std::string kplan;
                ASSERT_NO_FATAL_FAILURE(case_kplan(c, isa, kplan));
                // (2-byte dsts on Intel: calls of one row tile, 32 channels;
                // with the line pairs two row tiles where there are as many)
                const int line = data_type_size(ddt) == 2 ? 32 : 64;
                const bool pairs = x64::jit_narrow_pairs_on() && f.dims[1] >= 2 * line;
                const bool one = line == 32 && x64::cpu_is_intel() && !pairs;
                EXPECT_NE(kplan.find(one               ? " B[32 "
                                     : pairs           ? " B[" + std::to_string(2 * line) + " "
                                     : f.dims[1] == 48 ? " B[48 "
                                                       : " B[64 "),
                        std::string::npos)
                        << c.str() << ": " << kplan;
                EXPECT_NE(kplan.find(" A[4096 1 "), std::string::npos) << c.str() << ": " << kplan;
            }
        // The desc: rows of a whole line on AVX-512 only, not with scales
        // along A.
        for (int mask : { -1, 0, 2, 8 })
            for (data_type_t ddt : { relayout_bf16, relayout_s8 }) {
                jit_case_t c = jit_case_t::of({ 2, 64, 32, 32 }, relayout_f32, ddt, "nchw", "nhwc");
                c.src_scale_mask = mask;
                x64::jit_reorder_desc_t d;
                ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
                const bool on = isa == cpu_isa_t::avx512_core && mask != 8;
                EXPECT_EQ(d.narrow_rows, on ? (ddt == relayout_s8 ? 64 : 32) : 0)
                        << c.str() << " mask " << mask;
            }
    }
}

// A vendor-gated knob's value as the tests state it (not through
// by_vendor, so that a wrong default fails them): its own when set, else
// `intel` on Intel CPUs and 0 elsewhere; at most `most`.
int intel_knob(const char *knob, int intel, int most) {
    const int v = getenv_int(knob, -1);
    return std::min(v < 0 ? (x64::cpu_is_intel() ? intel : 0) : v, most);
}

// Half-row narrow rows (jit_narrow_half): streamed far rows of f32 to
// s8 / u8 (nchw -> nhwc, 49-51 MB), whole calls of 64 channels converted
// in halves over blocks of A tiles: calls of 4096 A positions (A 52900
// and 81200: a last call of 3748 / 3184, 4 and 0 positions past its last
// tile, generic), of the whole A of 3072 (192 tiles: 12 blocks of 16, 64
// of 3 with RELAYOUT_JIT_NARROW_HALF=3), 64 whole lines and 8 edge
// lanes (72 channels), a B of two row tiles (128), the scale variants
// (common, per channel, dst scale, zero points), s32 and bf16 srcs (the
// latter in calls of 512 positions). The desc: on Intel (or
// with the knob set) for those calls only: not bf16, not cached, not
// near rows (nhwc -> nchw), not an A that is not whole tiles (1517).
// ctest runs it again with the knob at 0 and 3.
TEST(jit_reorder, NarrowHalfRows) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const int want = intel_knob("RELAYOUT_JIT_NARROW_HALF", 16, 64);
    struct half_t {
        std::vector<dim_t> dims;
        int variant;
        bool on; // whole calls of whole tiles
        data_type_t sdt;
    };
    const half_t cases[] = { { { 3, 64, 230, 230 }, 0, true, relayout_f32 },
        { { 1, 128, 280, 290 }, 2, true, relayout_f32 },
        { { 52, 64, 48, 64 }, 1, true, relayout_f32 },
        { { 2, 72, 270, 270 }, 3, true, relayout_f32 },
        { { 110, 64, 37, 41 }, 1, false, relayout_f32 },
        { { 3, 64, 230, 230 }, 1, true, relayout_s32 },
        { { 5, 64, 230, 230 }, 1, true, relayout_bf16 } };
    uint32_t seed = 3000;
    for (const half_t &h : cases)
        for (data_type_t ddt : { relayout_s8, relayout_u8 }) {
            jit_case_t c = jit_case_t::of(h.dims, h.sdt, ddt, "nchw", "nhwc");
            set_scale_variant(c, ddt == relayout_s8 ? h.variant : 0, 2);
            x64::jit_reorder_desc_t d;
            ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
            // (128 channels or more: the line pairs' blocks of 16 tiles)
            const bool pairs = x64::jit_narrow_pairs_on() && h.dims[1] >= 128;
            int expect = h.on && (pairs || want > 0) ? (pairs ? 16 : want) : 0;
            while (expect > 0 && (d.n[0] / 16) % expect != 0)
                --expect;
            EXPECT_EQ(d.narrow_half, expect) << c.str() << " A " << d.n[0];
            EXPECT_EQ(d.n[1], pairs ? 128 : 64) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
        }
    // Not: 2-byte dsts (of one row tile: 48 channels; the line pairs take
    // two), cached (1.3 MB), near rows.
    const struct {
        std::vector<dim_t> dims;
        data_type_t ddt;
        const char *stag, *dtag;
    } nots[] = { { { 3, 48, 230, 230 }, relayout_bf16, "nchw", "nhwc" },
        { { 2, 64, 32, 64 }, relayout_s8, "nchw", "nhwc" },
        { { 3, 64, 230, 230 }, relayout_s8, "nhwc", "nchw" } };
    for (const auto &x : nots) {
        jit_case_t c = jit_case_t::of(x.dims, relayout_f32, x.ddt, x.stag, x.dtag);
        x64::jit_reorder_desc_t d;
        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
        EXPECT_EQ(d.narrow_half, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
    }
}

// Line pairs (jit_narrow_pairs_on; Intel, or RELAYOUT_JIT_NARROW_PAIRS=1):
// streamed far rows of f32 to bf16 / f16 (64 channels per call) and s8 /
// u8 (128), two row tiles read 16 src rows a pass over blocks of 16 A
// tiles (gen_narrow_half), each dst row's two lines stored back to back.
// Channels of exactly two row tiles, of more (a last call of 8 / 72 /
// 136 - 128 channels: generic tiles), an A of calls of 4096 positions
// and a last one past its last tile (52900: generic), an A of whole tiles
// under a call (3136: 56 x 56, blocks of 14 tiles); scales per channel (the
// second row tile's scales are 32 / 64 lanes on), common, a dst scale,
// zero points. The desc: two row tiles, 16 rows a pass; with the knob
// at 0 one row tile (bytes: the halves). ctest runs it again at 0.
TEST(jit_reorder, NarrowLinePairs) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const bool on = x64::jit_narrow_pairs_on();
    // (the gate: the knob's 0 / 1 when set, else on Intel only)
    const int knob = getenv_int("RELAYOUT_JIT_NARROW_PAIRS", -1);
    EXPECT_EQ(on, knob >= 0 ? knob != 0 : x64::cpu_is_intel());
    struct pair_t {
        std::vector<dim_t> dims;
        data_type_t ddt;
        int variant;
    };
    const pair_t cases[] = { { { 3, 64, 230, 230 }, relayout_bf16, 2 },
        { { 1, 200, 224, 224 }, relayout_f16, 0 }, { { 32, 64, 56, 56 }, relayout_bf16, 3 },
        { { 1, 136, 230, 230 }, relayout_s8, 2 }, { { 4, 200, 112, 112 }, relayout_u8, 1 },
        { { 17, 128, 56, 56 }, relayout_s8, 3 } };
    uint32_t seed = 5100;
    for (const pair_t &pc : cases) {
        jit_case_t c = jit_case_t::of(pc.dims, relayout_f32, pc.ddt, "nchw", "nhwc");
        set_scale_variant(c, pc.variant, 2);
        x64::jit_reorder_desc_t d;
        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
        const int line = data_type_size(pc.ddt) == 2 ? 32 : 64;
        ASSERT_TRUE(d.nt) << c.str();
        EXPECT_EQ(d.narrow_rows, line) << c.str();
        EXPECT_EQ(d.n[1], on ? 2 * line : line) << c.str();
        int nb = 16; // (a divisor of the call's tiles: 56 x 56, 196 tiles: 14)
        while ((d.n[0] / 16) % nb != 0)
            --nb;
        if (on) {
            EXPECT_EQ(d.narrow_half, nb) << c.str() << " A " << d.n[0];
            EXPECT_EQ(d.narrow_parts, 2 * line / 16) << c.str();
        } else {
            EXPECT_EQ(d.narrow_parts, d.narrow_half ? 2 : 0) << c.str();
            if (line == 32) {
                EXPECT_EQ(d.narrow_half, 0) << c.str();
            }
        }
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
    }
}

// f32 / s32 nchw -> `dtag` to bf16 / s8 / u8 against the reference at
// `isa`, each of `shapes` in every row scale variant; with `lanes` >= 0 the
// desc's ymm_narrow must be that (checked once per shape and types).
void run_ymm_narrow_cases(cpu_isa_t isa, const std::vector<std::vector<dim_t>> &shapes,
        const char *dtag, int lanes, int &n) {
    for (const auto &dims : shapes)
        for (data_type_t sdt : { relayout_f32, relayout_s32 })
            for (data_type_t ddt : { relayout_bf16, relayout_s8, relayout_u8 })
                for (int variant = 0; variant < 5; ++variant) {
                    jit_case_t c = jit_case_t::of(dims, sdt, ddt, "nchw", dtag);
                    set_row_scale_variant(c, variant);
                    if (variant == 0 && lanes >= 0) {
                        x64::jit_reorder_desc_t d;
                        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
                        EXPECT_EQ(d.ymm_narrow, lanes) << c.str();
                    }
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                }
}

// AVX2 narrow rows (jit_ymm_narrow_rows): conversions of far src rows
// (nchw -> nhwc, planes of 1024 f32 or more) to bf16 / s8 / u8, 8 A
// positions x a dst line of lanes (32 / 64): B of whole lines, with edges
// (70, 130 channels: 6 and 2 lanes after the lines; 33: bf16 only), A of
// whole tiles and not (the last moved back), scale variants (common, per
// channel, zero points), s32 srcs; the desc takes them on AVX2 only, not
// with scales along A (mask 8) nor near rows (nhwc -> nchw).
TEST(jit_reorder, YmmNarrowRows) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool y = isa == cpu_isa_t::avx2;
        run_ymm_narrow_cases(isa,
                { { 1, 64, 32, 32 }, { 1, 70, 32, 33 }, { 2, 33, 31, 37 }, { 1, 130, 33, 35 } },
                "nhwc", -1, n);
        for (int mask : { -1, 0, 2, 8 })
            for (data_type_t ddt : { relayout_bf16, relayout_s8, relayout_u8, relayout_f16 }) {
                jit_case_t c = jit_case_t::of({ 2, 64, 32, 32 }, relayout_f32, ddt, "nchw", "nhwc");
                c.src_scale_mask = mask;
                x64::jit_reorder_desc_t d;
                ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
                const int L = ddt == relayout_bf16 ? 32 : ddt == relayout_f16 ? 0 : 64;
                EXPECT_EQ(d.ymm_narrow, y && mask != 8 ? L : 0) << c.str() << " mask " << mask;
                c = jit_case_t::of({ 2, 64, 32, 32 }, relayout_f32, ddt, "nhwc", "nchw");
                ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
                EXPECT_EQ(d.ymm_narrow, 0) << c.str();
            }
    }
}

// ... and the 4i16o4i interleaves to bytes (oihw -> OIhw4i16o4i, 64 lanes:
// 16 o x 4 i, each 4-lane group one dword), with the compensation of the
// groups (s8s8, zero points, both; rows of the moved-back last A tile
// left out: A = 9, 25) and without, common and per-o scales, s32 srcs;
// O and I padded (33, 70: a transpose of 4 i lanes, not taken); the desc
// takes them on AVX2.
TEST(jit_reorder, YmmNarrowRowsInterleave) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (auto dims : { std::vector<dim_t>{ 64, 48, 4, 4 }, std::vector<dim_t>{ 64, 48, 3, 3 },
                     std::vector<dim_t>{ 48, 32, 5, 5 }, std::vector<dim_t>{ 33, 70, 5, 5 } })
            for (data_type_t sdt : { relayout_f32, relayout_s32 })
                for (uint64_t flags : { uint64_t(0), s8s8, zp, s8s8 | zp })
                    for (int mask : { -1, 0, 1 }) {
                        jit_case_t c =
                                jit_case_t::of(dims, sdt, relayout_s8, "oihw", "OIhw4i16o4i");
                        if (flags) c.set_comp(flags, 1);
                        c.src_scale_mask = mask;
                        if (dims[0] != 33) {
                            x64::jit_reorder_desc_t d;
                            ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
                            EXPECT_EQ(d.ymm_narrow, isa == cpu_isa_t::avx2 ? 64 : 0) << c.str();
                        }
                        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                        if (flags) continue;
                        c.ddt = relayout_u8;
                        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                    }
    }
}

// AVX2 narrow blocks (jit_ymm_narrow_blocks): f32 / s32 nchw -> nChw16c
// to bf16 / s8 / u8 on the narrow rows' tiles of 16 lanes, 8 A positions
// a tile written as whole lines: planes (of 1024 positions or more: far
// src rows) of whole tiles and not (the last
// tile moved back: cached, not on a line), channels of whole blocks and
// padded (the last block's tiles take the 8x8 edge tiles), every scale
// variant; then streamed (src + dst from nt_threshold_bytes), with a
// last A tile moved back in each call's tail. The desc takes them on
// AVX2 only (16 lanes, streamed when large), not with the knob at 0, nor
// f16 / f32 dsts.
TEST(jit_reorder, YmmNarrowBlocks) {
    const bool on = getenv_int("RELAYOUT_JIT_YMM_NARROW_BLK", 1) != 0;
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool y = isa == cpu_isa_t::avx2;
        run_ymm_narrow_cases(isa,
                { { 1, 16, 32, 32 }, { 2, 35, 31, 37 }, { 1, 48, 33, 35 }, { 2, 32, 1, 1031 } },
                "nChw16c", y && on ? 16 : 0, n);
        // (f16 and f32 dsts keep their tiles.)
        for (data_type_t ddt : { relayout_f16, relayout_f32 }) {
            jit_case_t c = jit_case_t::of({ 1, 32, 32, 32 }, relayout_f32, ddt, "nchw", "nChw16c");
            x64::jit_reorder_desc_t d;
            ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
            EXPECT_EQ(d.ymm_narrow, 0) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        }
        struct large_t {
            std::vector<dim_t> dims;
            data_type_t ddt;
            int variant;
        };
        for (const auto &l : { large_t{ { 2, 64, 257, 257 }, relayout_bf16, 1 },
                     large_t{ { 1, 170, 257, 257 }, relayout_s8, 2 },
                     large_t{ { 2, 80, 257, 257 }, relayout_u8, 0 } }) {
            jit_case_t c = jit_case_t::of(l.dims, relayout_f32, l.ddt, "nchw", "nChw16c");
            set_row_scale_variant(c, l.variant);
            x64::jit_reorder_desc_t d;
            ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
            EXPECT_EQ(d.ymm_narrow, y && on ? 16 : 0) << c.str();
            if (y && on) EXPECT_TRUE(d.nt) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        }
    }
}

// nchw -> nChw16c conversions of the A pairs and quads against the
// reference at `isa`: each of `shapes` from f32 in every scale variant (and
// scales along w), from bf16 and s32 without and with a common scale, to
// each of `ddts`; then `large` from f32 (the first dst type with a common
// src scale, the others per channel).
void run_a_group_cases(cpu_isa_t isa, const std::vector<std::vector<dim_t>> &shapes,
        const std::vector<data_type_t> &ddts, const std::vector<dim_t> &large, int &n) {
    for (const auto &dims : shapes)
        for (data_type_t sdt : { relayout_f32, relayout_bf16, relayout_s32 })
            for (data_type_t ddt : ddts)
                for (int variant = 0; variant < 5; ++variant) {
                    if (sdt != relayout_f32 && variant > 1) continue;
                    jit_case_t c = jit_case_t::of(dims, sdt, ddt, "nchw", "nChw16c");
                    set_row_scale_variant(c, variant);
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                }
    for (data_type_t ddt : ddts) {
        jit_case_t c = jit_case_t::of(large, relayout_f32, ddt, "nchw", "nChw16c");
        c.src_scale_mask = ddt == ddts[0] ? 0 : 2;
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
}

// A pairs of conversions to bf16 / f16 blocks with adjacent 16-lane dst
// rows (nchw -> nChw16c: whole calls of 32 A positions x 16 lanes, lines
// of two positions): spatial sizes of whole pairs (64, 96) and not (63,
// the usual tiles), padded channel blocks (20: the edge call takes the
// usual tiles), scale variants, sources narrower than f32; large problems
// stream. The desc must take the pairs on AVX-512 only, not with scales
// along A.
TEST(jit_reorder, PairA) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        run_a_group_cases(isa,
                { { 2, 48, 8, 8 }, { 1, 20, 8, 12 }, { 1, 32, 7, 9 }, { 3, 16, 1, 96 } },
                { relayout_bf16, relayout_f16 }, { 2, 256, 128, 128 }, n);
        for (int mask : { -1, 0, 2, 8 }) {
            jit_case_t c = jit_case_t::of(
                    { 2, 64, 32, 32 }, relayout_f32, relayout_bf16, "nchw", "nChw16c");
            c.src_scale_mask = mask;
            x64::jit_reorder_desc_t d;
            ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
            EXPECT_EQ(d.pair_a, isa == cpu_isa_t::avx512_core && mask != 8) << "mask " << mask;
        }
    }
}

// A quads of conversions to s8 / u8 blocks with adjacent 16-lane dst rows
// (nchw -> nChw16c: whole calls of 64 A positions x 16 lanes, lines of
// four positions): spatial sizes of whole quads (64, 192) and not (96,
// 63: the usual tiles), padded channel blocks (20: the edge call takes
// the usual tiles), scale variants and zero points, values that saturate
// and NaN (random sources), sources narrower than f32; large problems
// stream. The desc must take the quads on AVX-512 only, not with scales
// along A, nor for 2-byte dsts (the A pairs), nor for cached problems
// larger than quad_cached_max_bytes.
TEST(jit_reorder, QuadA) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        // The large one 52 MB: streamed.
        run_a_group_cases(isa,
                { { 2, 48, 8, 8 }, { 1, 20, 8, 16 }, { 1, 32, 8, 12 }, { 1, 32, 7, 9 },
                        { 3, 16, 1, 192 } },
                { relayout_s8, relayout_u8 }, { 2, 256, 128, 160 }, n);
        for (int mask : { -1, 0, 2, 8 })
            for (data_type_t ddt : { relayout_s8, relayout_u8, relayout_bf16 }) {
                jit_case_t c =
                        jit_case_t::of({ 2, 64, 32, 32 }, relayout_f32, ddt, "nchw", "nChw16c");
                c.src_scale_mask = mask;
                x64::jit_reorder_desc_t d;
                ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
                const bool on = isa == cpu_isa_t::avx512_core && mask != 8 && ddt != relayout_bf16;
                EXPECT_EQ(d.quad_a, on) << c.str() << " mask " << mask;
            }
        // Cached problems beyond the caches' share (10 MB) keep the tiles.
        jit_case_t c =
                jit_case_t::of({ 4, 128, 64, 64 }, relayout_f32, relayout_s8, "nchw", "nChw16c");
        x64::jit_reorder_desc_t d;
        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
        EXPECT_FALSE(d.quad_a) << c.str();
    }
}

// Byte quads, the bit copy of the A quads (s8 / u8 nchw -> nChw16c, whole
// calls of 64 A positions x 16 lanes, whole src and dst lines): spatial
// sizes of whole quads (64, 192, 56 x 56) and not (63, 7 x 9: the usual
// tiles), padded channel blocks (20, 40: the edge call takes the usual
// tiles), and a large problem (streamed). The desc takes
// them on AVX-512 bit copies only: not for conversions (the A quads),
// AVX2, nor A not a multiple of 64.
TEST(jit_reorder, QuadBytes) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const std::vector<std::vector<dim_t>> shapes{ { 2, 48, 8, 8 }, { 1, 20, 8, 16 },
            { 1, 40, 8, 8 }, { 1, 32, 8, 12 }, { 1, 32, 7, 9 }, { 3, 16, 1, 192 },
            { 1, 32, 56, 56 }, { 2, 256, 64, 128 } };
        for (const auto &dims : shapes)
            for (data_type_t dt : { relayout_s8, relayout_u8 }) {
                jit_case_t c = jit_case_t::of(dims, dt, dt, "nchw", "nChw16c");
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            }
        for (data_type_t sdt : { relayout_u8, relayout_f32 })
            for (dim_t w : { 32, 36 }) {
                jit_case_t c = jit_case_t::of({ 2, 64, 8, w }, sdt, relayout_u8, "nchw", "nChw16c");
                x64::jit_reorder_desc_t d;
                ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
                const bool on = isa == cpu_isa_t::avx512_core && sdt == relayout_u8 && w == 32;
                EXPECT_EQ(d.quad_bytes, on) << c.str();
            }
    }
}

// Byte quads stream from the byte tiles' size on (jit_tiles_stream_from_l3:
// src + dst of 32 MiB, below nt_threshold_bytes): 4104 channels (a padded
// last block: its edge calls take the usual tiles) and 2064 (whole
// blocks) of 64 x 64, bit-exact through the streamed stores; the desc
// streams them, and not 8 MB.
TEST(jit_reorder, QuadBytesStreamed) {
    if (!x64::isa_allowed(cpu_isa_t::avx512_core)) GTEST_SKIP() << "no AVX-512";
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    int n = 0;
    for (const auto &dims :
            { std::vector<dim_t>{ 1, 4104, 64, 64 }, std::vector<dim_t>{ 2, 2064, 64, 64 } }) {
        const data_type_t dt = n == 0 ? relayout_u8 : relayout_s8;
        jit_case_t c = jit_case_t::of(dims, dt, dt, "nchw", "nChw16c");
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        x64::jit_reorder_desc_t d;
        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
        EXPECT_TRUE(d.quad_bytes) << c.str();
        EXPECT_TRUE(d.nt) << c.str();
    }
    jit_case_t c = jit_case_t::of({ 2, 256, 64, 64 }, relayout_u8, relayout_u8, "nchw", "nChw16c");
    x64::jit_reorder_desc_t d;
    ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
    EXPECT_TRUE(d.quad_bytes) << c.str();
    EXPECT_FALSE(d.nt) << c.str();
}

// A bit copy of type `dt` from a case table's row (dims, tags, strides).
template <typename Row>
jit_case_t case_of(const Row &r, data_type_t dt) {
    jit_case_t c = jit_case_t::of(r.dims, dt, dt, r.stag, r.dtag);
    c.sstrides = r.sstrides;
    c.dstrides = r.dstrides;
    return c;
}

// A far-row case: dims, tags or strides, and whether the rule under test
// takes it (on AVX-512).
struct far_case_t {
    std::vector<dim_t> dims;
    const char *stag, *dtag;
    std::vector<dim_t> sstrides, dstrides;
    bool rule;
};

// Runs every case bit-exact on both ISAs as f32 and s32 bit copies and as
// an f32 conversion with a per-channel scale, and hands the bit copies'
// plan, kernel plan and desc to `check` (isa, case, the rule taken).
template <typename Check>
void run_far_cases(const std::vector<far_case_t> &cases, const Check &check) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const auto &fc : cases)
            for (data_type_t dt : { relayout_f32, relayout_s32 })
                for (int mask : { -1, 1 }) {
                    if (mask >= 0 && dt != relayout_f32) continue;
                    jit_case_t c = case_of(fc, dt);
                    c.src_scale_mask = mask;
                    EXPECT_TRUE(run_jit_case(c, isa));
                    if (mask >= 0) continue;
                    plan_t p;
                    ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
                    kernel_plan_t kp;
                    ASSERT_EQ(kernel_plan_create(kp, p, x64::jit_plan_params(isa, p)),
                            status_t::success);
                    x64::jit_reorder_desc_t d;
                    x64::jit_reorder_desc_init(d, isa, p, kp);
                    check(isa, c, p, kp, d, isa == cpu_isa_t::avx512_core && fc.rule);
                }
    }
}

// Large 4-byte bit-copy transposes whose B src rows are a page or more
// apart and dst rows 1 KiB or more apart (ab -> ba, nchw -> nhwc from
// 256 channels): AVX-512 takes B = 32 rows per call (two tiles) and an L2
// prefetch of each full tile's src rows along A
// (jit_far_rows_pair, jit_reorder_desc_t::pf_row). Odd extents give A and
// B edge tiles (a call of 32 rows whose second tile is partial, calls of
// fewer than 16 rows), padded strides leave calls whose dst is not
// line-aligned (the cached stores); s32 and f32, and a per-channel scale
// (a conversion: not the rule). Bit-exact; the plan and the desc must take
// the rule on AVX-512 bit copies only, with calls of 2048 A positions.
TEST(jit_reorder, FarSrcRowsPairsPrefetch) {
    const std::vector<far_case_t> cases = {
        { { 3001, 2200 }, "ab", "ba", {}, {}, true }, { { 2200, 3001 }, "ba", "ab", {}, {}, true },
        { { 3001, 2203 }, "", "", { 2209, 1 }, { 1, 3011 }, true },
        { { 2, 259, 131, 133 }, "nchw", "nhwc", {}, {}, true },
        { { 3, 67, 257, 259 }, "nchw", "nhwc", {}, {}, false }, // dst rows 268 B apart
    };
    run_far_cases(
            cases, [](cpu_isa_t isa, const jit_case_t &c, const plan_t &p, const kernel_plan_t &kp,
                           const x64::jit_reorder_desc_t &d, bool z) {
                EXPECT_EQ(kp.micro[1].n, z ? 32 : 16) << c.str();
                // 64 Ki elements per call (jit_far_rows_pair_plane): A of 2048
                // (every A here is longer).
                EXPECT_EQ(x64::jit_plan_params(isa, p).tile_plane, z ? 65536 : 32768);
                if (z) {
                    EXPECT_EQ(kp.micro[0].n, 2048) << c.str();
                }
                EXPECT_EQ(d.pf_row, z ? 256 : 0) << c.str();
                EXPECT_FALSE(d.b_outer) << c.str();
            });
}

// Far-row blocks (jit_far_rows_blocks, jit_reorder_desc_t::pf_rows): of
// those pairs, the ones whose dst rows are a page or more apart and whole
// lines apart take calls of 256 A x 128 B positions, and each full tile
// prefetches a src row of the next B block. Odd extents give A and B edge
// calls (B: 64 and 57 rows, partial tiles of 9; A: 152, 155, 149
// positions, partial tiles of 8, 11, 5); nchw -> nhwc of 1024 channels
// (dst rows 4 KiB apart) under an image node; s32 and f32, and a
// per-channel scale (a conversion: not the rule). Dst rows not whole
// lines apart keep the pairs. Bit-exact; the plan and the desc must take
// the rule on AVX-512 bit copies only, and on CPUs that take the blocks
// (not Intel, unless RELAYOUT_JIT_FAR_BLOCKS=1: ctest runs this test both
// ways, see tests/jit/CMakeLists.txt).
TEST(jit_reorder, FarRowBlocksPrefetch) {
    const std::vector<far_case_t> cases = {
        { { 3008, 2200 }, "ab", "ba", {}, {}, true },
        { { 3001, 2203 }, "", "", { 2209, 1 }, { 1, 3008 }, true },
        { { 4, 1024, 57, 61 }, "nchw", "nhwc", {}, {}, true },
        { { 3001, 2203 }, "", "", { 2209, 1 }, { 1, 3004 }, false }, // rows 12016 B apart
    };
    run_far_cases(
            cases, [](cpu_isa_t isa, const jit_case_t &c, const plan_t &p, const kernel_plan_t &kp,
                           const x64::jit_reorder_desc_t &d, bool rule) {
                const bool zmm = isa == cpu_isa_t::avx512_core;
                const bool z = rule && x64::jit_far_rows_blocks_on();
                const dim_t row = p.nodes.back().is * 4; // B src row pitch, bytes
                if (zmm) {
                    EXPECT_EQ(kp.micro[0].n, z ? 256 : 2048) << c.str();
                }
                // (AVX2: never the blocks; the pairs where the dst rows
                // are whole lines apart, jit_far_rows_pair.)
                const bool ymm_pair = !zmm && x64::jit_far_rows_pair(isa, p);
                EXPECT_EQ(kp.micro[1].n, zmm && z ? 128 : zmm || ymm_pair ? 32 : 16) << c.str();
                EXPECT_EQ(d.pf_rows, zmm && z ? row : 0) << c.str();
                EXPECT_EQ(d.pf_row, zmm && !z ? 256 : 0) << c.str();
                if (z) {
                    EXPECT_EQ(d.pf_ahead, 128 * row) << c.str();
                }
                EXPECT_TRUE(d.nt) << c.str();
            });
}

// The far-row blocks are off on Intel CPUs and on elsewhere, unless the
// knob says otherwise.
TEST(jit_reorder, FarRowBlocksVendor) {
    const char *knob = std::getenv("RELAYOUT_JIT_FAR_BLOCKS");
    if (knob) {
        EXPECT_EQ(x64::jit_far_rows_blocks_on(), std::atoi(knob) != 0);
    } else {
        EXPECT_EQ(x64::jit_far_rows_blocks_on(), !x64::cpu_is_intel());
    }
}

// Large f32 nhwc -> nchw (B src rows 128 B to under a page apart, A of 32
// positions or more): AVX-512 tiles in B-outer order with an L2 prefetch of
// the next B tile's rows (jit_reorder_desc_t::b_outer, pf_b). Odd channel
// and spatial counts give A and B edge tiles; as a bit copy and with a
// per-channel scale; AVX2 keeps the A-outer order. Bit-exact, and the desc
// must take the rule on AVX-512 only.
TEST(jit_reorder, NearSrcRowsBOuterPrefetch) {
    jit_case_t c;
    c.stag = "nhwc";
    c.dtag = "nchw";
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (auto dims : { std::vector<dim_t>{ 4, 250, 123, 131 },
                     std::vector<dim_t>{ 2, 64, 255, 257 }, std::vector<dim_t>{ 2, 40, 300, 301 } })
            for (int mask : { -1, 2 }) {
                c.dims = dims;
                c.src_scale_mask = mask;
                EXPECT_TRUE(run_jit_case(c, isa));
                plan_t p;
                ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
                kernel_plan_t kp;
                ASSERT_EQ(
                        kernel_plan_create(kp, p, x64::jit_plan_params(isa, p)), status_t::success);
                x64::jit_reorder_desc_t d;
                x64::jit_reorder_desc_init(d, isa, p, kp);
                const bool z = isa == cpu_isa_t::avx512_core;
                EXPECT_EQ(d.b_outer, z) << c.str();
                EXPECT_EQ(d.pf_b, z ? 16 * 4 * dims[1] : 0) << c.str();
            }
    }
}

// The kernel desc the JIT builds for `c` at `isa` (its plan-level choices;
// the dst's extras, no attributes).
x64::jit_reorder_desc_t desc_of(const jit_case_t &c, cpu_isa_t isa) {
    x64::jit_reorder_desc_t d;
    std::memset(&d, 0, sizeof(d));
    memory_desc_t smd, dmd;
    plan_t p;
    kernel_plan_t kp;
    if (make_md(smd, c, true) != status_t::success || make_md(dmd, c, false) != status_t::success
            || plan_create(p, smd, dmd, attr_t()) != status_t::success
            || kernel_plan_create(kp, p, x64::jit_plan_params(isa, p)) != status_t::success) {
        ADD_FAILURE() << c.str() << ": no plan";
        return d;
    }
    x64::jit_reorder_desc_init(d, isa, p, kp);
    return d;
}

// One f32 bit pattern of every class the bf16 rounding tells apart: both
// signs, every exponent (0: zero and denormals, 255: inf and NaN, quiet
// and signalling, with payloads) x mantissas at and around the rounding
// ties of the low 16 bits (below, at and above half, with an even and an
// odd bit 16), the carries into the exponent (0x7fffff, 0x7f8000) and the
// NaN quiet bit; then the same patterns shuffled, so that vectors mix
// denormal lanes with others (bf16_convert's slow path for a lone lane).
std::vector<uint32_t> f32_pattern_classes() {
    const uint32_t mant[] = { 0, 1, 2, 0x7fff, 0x8000, 0x8001, 0xffff, 0x10000, 0x17fff, 0x18000,
        0x18001, 0x1ffff, 0x3fffff, 0x400000, 0x400001, 0x408000, 0x7f7fff, 0x7f8000, 0x7fffff,
        0x2a5a5a, 0x555555 };
    std::vector<uint32_t> v;
    for (uint32_t s = 0; s < 2; ++s)
        for (uint32_t e = 0; e < 256; ++e)
            for (uint32_t m : mant)
                v.push_back(s << 31 | e << 23 | m);
    std::vector<uint32_t> mixed = v;
    std::shuffle(mixed.begin(), mixed.end(), std::mt19937(7));
    v.insert(v.end(), mixed.begin(), mixed.end());
    return v;
}

// The cap orders the levels explicitly (the public values do not: all = 4,
// avx512_core_bf16 = 5): avx512_core leaves the bf16 level out, all and
// default let every level in, an unknown value none but the reference.
TEST(jit_reorder, Bf16LevelCapOrder) {
    using x64::cap_allows;
    const cpu_isa_t levels[] = { cpu_isa_t::none, cpu_isa_t::avx2, cpu_isa_t::avx512_core,
        cpu_isa_t::avx512_core_bf16 };
    const relayout_cpu_isa_t caps[] = { relayout_cpu_isa_none, relayout_cpu_isa_avx2,
        relayout_cpu_isa_avx512_core, relayout_cpu_isa_avx512_core_bf16 };
    for (int c = 0; c < 4; ++c)
        for (int l = 0; l < 4; ++l)
            EXPECT_EQ(cap_allows(caps[c], levels[l]), l <= c) << c << " " << l;
    for (relayout_cpu_isa_t cap : { relayout_cpu_isa_all, relayout_cpu_isa_default })
        for (cpu_isa_t l : levels)
            EXPECT_TRUE(cap_allows(cap, l)) << x64::isa2str(l);
    EXPECT_FALSE(cap_allows(relayout_cpu_isa_avx512_core, cpu_isa_t::avx512_core_bf16));
    EXPECT_TRUE(cap_allows(relayout_cpu_isa_all, cpu_isa_t::avx512_core_bf16));
    EXPECT_TRUE(cap_allows(static_cast<relayout_cpu_isa_t>(99), cpu_isa_t::none));
    EXPECT_FALSE(cap_allows(static_cast<relayout_cpu_isa_t>(99), cpu_isa_t::avx2));
}

// Conversions to bf16 at every ISA level the machine has, on every class
// of f32 pattern (f32_pattern_classes), bit-exact: avx512_core_bf16
// rounds with vcvtne(2)ps2bf16 and takes the integer rounding for vectors
// with denormal lanes (which the instructions flush). Each path that
// narrows to bf16: the copy (vectors, tails), streamed (whole lines, two
// vectors per vcvtne2ps2bf16), short copies of one vector per position
// (nhwc -> nChw16c), the 16 x 16 tiles, the A pairs and the narrow rows
// (word pairs), interleaves and the scalar strategy; with scales, zero
// points and the sum; bf16 -> bf16 with a scale (a conversion).
TEST(jit_reorder, Bf16EveryPatternClass) {
    const std::vector<uint32_t> bits = f32_pattern_classes();
    const dim_t nbits = (dim_t)bits.size();
    struct shape_t {
        jit_case_t c;
        bool x_attrs; // also with scales, zero points and the sum
    };
    std::vector<shape_t> shapes;
    auto add = [&](jit_case_t c, bool x) { shapes.push_back({ c, x }); };
    add(jit_case_t::of({ nbits + 7 }, relayout_f32, relayout_bf16, "a", "a"), true);
    add(jit_case_t::of({ 2, 48, 4, 8 }, relayout_f32, relayout_bf16, "nhwc", "nChw16c"), true);
    add(jit_case_t::of({ 2, 37, 5, 7 }, relayout_f32, relayout_bf16, "nchw", "nChw16c"), true);
    add(jit_case_t::of({ 2, 48, 8, 8 }, relayout_f32, relayout_bf16, "nchw", "nChw16c"), true);
    add(jit_case_t::of({ 1, 70, 33, 3 }, relayout_f32, relayout_bf16, "nchw", "nhwc"), true);
    add(jit_case_t::of({ 1, 33, 8, 8 }, relayout_f32, relayout_bf16, "nhwc", "nchw"), false);
    add(jit_case_t::of({ 33, 32, 3, 3 }, relayout_f32, relayout_bf16, "oihw", "OIhw8i16o2i"), true);
    add(jit_case_t::of({ 17, 35, 3, 3 }, relayout_f32, relayout_bf16, "oihw", "OIhw16i16o"), false);
    {
        jit_case_t c = jit_case_t::of({ 9, 17 }, relayout_f32, relayout_bf16, "", "");
        c.sstrides = { 2 * 17 + 1, 2 };
        c.dstrides = { 2, 2 * 9 + 3 };
        add(c, true);
    }
    // Streamed (48 MiB and more): the copy's whole lines, the A pairs.
    add(jit_case_t::of({ 3, 1 << 22 }, relayout_f32, relayout_bf16, "ab", "ab"), false);
    add(jit_case_t::of({ 2, 256, 128, 128 }, relayout_f32, relayout_bf16, "nchw", "nChw16c"),
            false);
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core_bf16, cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const shape_t &sh : shapes)
            for (int variant = 0; variant < (sh.x_attrs ? 5 : 1); ++variant)
                for (data_type_t sdt : { relayout_f32, relayout_bf16 }) {
                    jit_case_t c = sh.c;
                    c.src_bits = bits;
                    c.sdt = sdt;
                    if (variant == 1) c.src_scale_mask = 0;
                    if (variant == 2) c.dst_scale_mask = 1 << ((int)c.dims.size() > 1 ? 1 : 0);
                    if (variant == 3) c.src_zp = 3, c.dst_zp = -2;
                    if (variant == 4) c.beta = 0.5f;
                    // (bf16 -> bf16 without a value attribute: a bit copy;
                    // scales along dim 0: not all 1)
                    if (sdt == relayout_bf16 && c.src_scale_mask < 0 && c.dst_scale_mask < 0
                            && c.src_zp == 0 && c.beta == 0.f)
                        c.src_scale_mask = 1;
                    std::string name;
                    cpu_isa_t at = isa;
                    EXPECT_TRUE(run_jit_case_at(c, at, &name, ++n)) << x64::isa2str(isa);
                    const std::string want = std::string("jit:") + x64::isa2str(at) + ":";
                    EXPECT_EQ(name.rfind(want, 0), 0u) << name << " " << c.str();
                }
        if (isa != cpu_isa_t::avx512_core_bf16) continue;
        // The desc takes the instructions at this level only, for value
        // conversions to bf16 on AVX-512 code; the paths above are taken.
        for (const shape_t &sh : shapes) {
            EXPECT_TRUE(desc_of(sh.c, isa).bf16_ne) << sh.c.str();
            EXPECT_FALSE(desc_of(sh.c, cpu_isa_t::avx512_core).bf16_ne) << sh.c.str();
        }
        EXPECT_TRUE(desc_of(shapes[1].c, isa).short_unroll > 1);
        EXPECT_TRUE(desc_of(shapes[3].c, isa).pair_a);
        EXPECT_TRUE(desc_of(shapes[4].c, isa).narrow_rows);
        EXPECT_TRUE(desc_of(shapes[9].c, isa).nt);
        jit_case_t c = shapes[0].c;
        c.ddt = relayout_f16;
        EXPECT_FALSE(desc_of(c, isa).bf16_ne);
        c.sdt = c.ddt = relayout_bf16;
        EXPECT_FALSE(desc_of(c, isa).bf16_ne); // a bit copy
        std::string name;
        plan_t p;
        ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
        EXPECT_NE(x64::jit_reorder_accept(p, isa, name), status_t::success);
        c.sdt = c.ddt = relayout_f32;
        ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
        EXPECT_NE(x64::jit_reorder_accept(p, isa, name), status_t::success);
    }
}

// Integer dsts without a src scale skip the pipeline's multiply by 1
// (onef_multiply): their clamps and conversion treat a signalling NaN as
// a quiet one, so every class of f32 pattern (f32_pattern_classes:
// signalling NaNs with payloads, denormals, infinities) converts
// bit-exactly on each path that narrows to integers: the copy (tails,
// streamed packs), short copies, the 16 x 16 tiles, narrow rows, A quads,
// interleaves, the scalar strategy; without attributes, with zero points
// and the sum; f32 and bf16 srcs. Float dsts keep the multiply: bf16 ->
// f32 quiets the signalling NaNs as the reference does.
TEST(jit_reorder, IntDstsWithoutOneMultiply) {
    const std::vector<uint32_t> bits = f32_pattern_classes();
    const dim_t nbits = (dim_t)bits.size();
    std::vector<jit_case_t> shapes = {
        jit_case_t::of({ nbits + 7 }, relayout_f32, relayout_s8, "a", "a"),
        jit_case_t::of({ 2, 48, 4, 8 }, relayout_f32, relayout_s8, "nhwc", "nChw16c"),
        jit_case_t::of({ 2, 37, 5, 7 }, relayout_f32, relayout_s8, "nchw", "nChw16c"),
        jit_case_t::of({ 2, 48, 8, 8 }, relayout_f32, relayout_s8, "nchw", "nChw16c"),
        jit_case_t::of({ 1, 70, 33, 3 }, relayout_f32, relayout_s8, "nchw", "nhwc"),
        jit_case_t::of({ 1, 33, 8, 8 }, relayout_f32, relayout_s8, "nhwc", "nchw"),
        jit_case_t::of({ 33, 32, 3, 3 }, relayout_f32, relayout_s8, "oihw", "OIhw4i16o4i"),
    };
    {
        jit_case_t c = jit_case_t::of({ 9, 17 }, relayout_f32, relayout_s8, "", "");
        c.sstrides = { 2 * 17 + 1, 2 };
        c.dstrides = { 2, 2 * 9 + 3 };
        shapes.push_back(c);
    }
    const size_t nsmall = shapes.size();
    // Streamed (60 MB): the copy's saturating packs of whole lines.
    shapes.push_back(jit_case_t::of({ 3, 1 << 22 }, relayout_f32, relayout_s8, "ab", "ab"));
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (size_t i = 0; i < shapes.size(); ++i)
            for (data_type_t ddt : { relayout_s8, relayout_u8, relayout_s32 })
                for (int variant = 0; variant < (i < nsmall ? 3 : 1); ++variant)
                    for (data_type_t sdt : { relayout_f32, relayout_bf16 }) {
                        if (i >= nsmall && (ddt != relayout_s8 || sdt != relayout_f32)) continue;
                        jit_case_t c = shapes[i];
                        c.src_bits = bits;
                        c.sdt = sdt;
                        c.ddt = ddt;
                        if (variant == 1) c.src_zp = 3, c.dst_zp = -2;
                        if (variant == 2) c.beta = 0.5f;
                        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << x64::isa2str(isa);
                    }
        for (size_t i = 0; i < nsmall; ++i) {
            jit_case_t c = shapes[i];
            c.src_bits = bits;
            c.sdt = relayout_bf16;
            c.ddt = relayout_f32;
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << x64::isa2str(isa);
        }
    }
}

// bf16 dsts without a src scale skip the multiply by 1 at every level
// (onef_multiply): each bf16 rounding quiets a signalling NaN itself.
// Every class of f32 pattern bit-exact on the paths Bf16EveryPatternClass
// does not reach: the far narrow rows of nchw -> nhwc (streamed, 54 MiB;
// cached; partial A and B tiles).
TEST(jit_reorder, Bf16WithoutOneMultiply) {
    const std::vector<uint32_t> bits = f32_pattern_classes();
    const std::vector<jit_case_t> shapes = {
        jit_case_t::of({ 9, 256, 64, 64 }, relayout_f32, relayout_bf16, "nchw", "nhwc"),
        jit_case_t::of({ 1, 256, 32, 32 }, relayout_f32, relayout_bf16, "nchw", "nhwc"),
        jit_case_t::of({ 3, 100, 37, 29 }, relayout_f32, relayout_bf16, "nchw", "nhwc"),
    };
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core_bf16, cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const jit_case_t &sh : shapes) {
            jit_case_t c = sh;
            c.src_bits = bits;
            if (isa != cpu_isa_t::avx2) {
                EXPECT_TRUE(desc_of(c, isa).narrow_rows) << c.str();
            }
            std::string name;
            cpu_isa_t at = isa;
            EXPECT_TRUE(run_jit_case_at(c, at, &name, ++n)) << x64::isa2str(isa);
            EXPECT_EQ(name.rfind(std::string("jit:") + x64::isa2str(isa) + ":", 0), 0u) << name;
        }
    }
}

// Streamed narrow rows to bf16 of near src rows (f32 nhwc -> bf16 nchw)
// round in integers (jit_bf16_int_near_rows): the avx512_core_bf16 level
// declines them and avx512_core runs them, bit-exact on every class of
// f32 pattern (denormals included), without and with a src scale; 100 and
// 200 channels give partial A tiles, a plane of 130 x 131 B edges. Not
// taken: src rows of one stream (nChw16c -> nchw), far rows (nchw ->
// nhwc), cached (2x256x64x64), f16 dsts.
TEST(jit_reorder, Bf16IntNearRows) {
    if (!x64::isa_allowed(cpu_isa_t::avx512_core)) GTEST_SKIP() << "no avx512_core";
    const std::vector<uint32_t> bits = f32_pattern_classes();
    struct shape_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        bool rule;
    };
    const std::vector<shape_t> shapes = {
        { { 8, 256, 64, 64 }, "nhwc", "nchw", true },
        { { 4, 100, 160, 132 }, "nhwc", "nchw", true },
        { { 3, 200, 130, 131 }, "nhwc", "nchw", true },
        { { 8, 256, 64, 64 }, "nChw16c", "nchw", false },
        { { 8, 256, 64, 64 }, "nchw", "nhwc", false },
        { { 2, 256, 64, 64 }, "nhwc", "nchw", false },
    };
    const bool bf16 = x64::isa_allowed(cpu_isa_t::avx512_core_bf16);
    int n = 0;
    for (const shape_t &sh : shapes)
        for (int scaled = 0; scaled < (sh.rule ? 2 : 1); ++scaled) {
            jit_case_t c = jit_case_t::of(sh.dims, relayout_f32, relayout_bf16, sh.stag, sh.dtag);
            c.src_bits = bits;
            if (scaled) c.src_scale_mask = 0;
            const x64::jit_reorder_desc_t d = desc_of(c, cpu_isa_t::avx512_core);
            EXPECT_TRUE(d.narrow_rows) << c.str();
            EXPECT_EQ(x64::jit_bf16_int_near_rows(d), sh.rule) << c.str();
            EXPECT_FALSE(d.bf16_ne) << c.str();
            if (!bf16) {
                EXPECT_TRUE(run_jit_case(c, cpu_isa_t::avx512_core, nullptr, ++n)) << c.str();
                continue;
            }
            EXPECT_EQ(desc_of(c, cpu_isa_t::avx512_core_bf16).bf16_ne, !sh.rule) << c.str();
            std::string name;
            cpu_isa_t at = cpu_isa_t::avx512_core_bf16;
            EXPECT_TRUE(run_jit_case_at(c, at, &name, ++n)) << c.str();
            EXPECT_EQ(name.rfind(sh.rule ? "jit:avx512_core:" : "jit:avx512_core_bf16:", 0), 0u)
                    << name << " " << c.str();
        }
    jit_case_t c = jit_case_t::of(shapes[0].dims, relayout_f32, relayout_f16, "nhwc", "nchw");
    EXPECT_FALSE(x64::jit_bf16_int_near_rows(desc_of(c, cpu_isa_t::avx512_core))) << c.str();
}

// Near-row line pairs (jit_near_pairs; Intel, or RELAYOUT_JIT_NEAR_PAIRS
// > 0): streamed f32 nhwc -> bf16 / f16 nchw, whole calls of two row
// tiles (64 hw positions) in blocks of A tiles, read a row tile a pass
// (gen_narrow_half), each dst row's two lines back to back. Channels of
// 16 tiles (256: blocks of 16), 8 (128: src rows 512 B apart) and 9 (144:
// blocks of 9), a plane whose last call has 6 B positions (130 x 131:
// generic), every f32 pattern class (bf16 rounds in integers), common
// scales and zero points. Not: an A of partial tiles (200 channels) or of
// fewer than 128 channels (64: calls of the usual plane), 1-byte dsts (no
// near narrow rows), cached (2 x 256 x 64 x 64). The desc:
// the blocks (the gate stated here: the knob's value when set, else 16 on
// Intel only), two parts; ctest runs it again at 0 and 2.
TEST(jit_reorder, NearLinePairs) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const int want = intel_knob("RELAYOUT_JIT_NEAR_PAIRS", 16, 16);
    struct near_t {
        std::vector<dim_t> dims;
        data_type_t ddt;
        int variant;
        bool on;
    };
    const near_t cases[] = { { { 8, 256, 64, 64 }, relayout_bf16, 0, true },
        { { 4, 128, 128, 128 }, relayout_f16, 1, true },
        { { 4, 144, 160, 132 }, relayout_bf16, 3, true },
        { { 8, 64, 128, 128 }, relayout_bf16, 0, false },
        { { 2, 256, 130, 131 }, relayout_f16, 3, true },
        { { 3, 200, 130, 131 }, relayout_bf16, 1, false },
        { { 8, 256, 64, 64 }, relayout_s8, 1, false },
        { { 2, 256, 64, 64 }, relayout_bf16, 0, false } };
    uint32_t seed = 7300;
    for (const near_t &nc : cases) {
        jit_case_t c = jit_case_t::of(nc.dims, relayout_f32, nc.ddt, "nhwc", "nchw");
        set_scale_variant(c, nc.variant, 0);
        if (nc.variant == 0) c.src_bits = f32_pattern_classes();
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        int nb = nc.on ? want : 0;
        while (nb > 0 && (d.n[0] / 16) % nb != 0)
            --nb;
        EXPECT_EQ(d.narrow_half, nb) << c.str() << " A " << d.n[0];
        EXPECT_EQ(d.narrow_parts, nb ? 2 : 0) << c.str();
        if (nc.on) {
            EXPECT_EQ(d.narrow_rows, 32) << c.str();
            EXPECT_EQ(d.n[1], 64) << c.str();
        }
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
    }
}

// Transposes whose A has fewer than 8 rows (2x2 and 1x3 weights to
// blocked: A = 4, 3; nChw4c -> nchw) stay on the AVX-512 tiles of TA rows
// instead of the 8x8 AVX2 tiles, every one of which would be an edge tile
// (2- and 1-byte ones filled element by element); 8 rows (nChw8c -> nchw,
// small) keep the 8x8 tiles; B of 4 lanes (nchw -> nChw4c) takes the few-lane
// permute tiles (FewBLanesPermuted).
// Bit-exact at every type, with padded blocks, a scale and a streamed size.
TEST(jit_reorder, ShortARowsStayOnZmm) {
    const cpu_isa_t z = cpu_isa_t::avx512_core;
    struct ac_t {
        jit_case_t c;
        bool zmm; // desc isa at AVX-512
    };
    std::vector<ac_t> cases;
    for (data_type_t dt : { relayout_f32, relayout_bf16, relayout_f16, relayout_s8, relayout_u8 })
        for (const auto &dims : { std::vector<dim_t>{ 64, 64, 2, 2 }, { 40, 36, 2, 2 } })
            cases.push_back({ jit_case_t::of(dims, dt, dt, "oihw", "OIhw16i16o"), true });
    cases.push_back(
            { jit_case_t::of({ 33, 20, 1, 3 }, relayout_f32, relayout_f32, "oihw", "OIhw16i16o"),
                    true });
    cases.push_back({ jit_case_t::of({ 2, 20, 5, 7 }, relayout_f32, relayout_f32, "nChw4c", "nchw"),
            true });
    jit_case_t sc =
            jit_case_t::of({ 64, 40, 2, 2 }, relayout_f32, relayout_s8, "oihw", "OIhw16i16o");
    sc.src_scale_mask = 1;
    cases.push_back({ sc, true });
    cases.push_back({ jit_case_t::of({ 2048, 2048, 2, 2 }, relayout_bf16, relayout_bf16, "oihw",
                              "OIhw16i16o"),
            true });
    cases.push_back({ jit_case_t::of({ 2, 32, 5, 7 }, relayout_f32, relayout_f32, "nChw8c", "nchw"),
            false });
    cases.push_back({ jit_case_t::of({ 2, 20, 5, 7 }, relayout_f32, relayout_f32, "nchw", "nChw4c"),
            true }); // (B of 4 lanes: the few-lane permute tiles)
    for (const ac_t &k : cases) {
        for (cpu_isa_t isa : { z, cpu_isa_t::avx2 })
            if (x64::isa_allowed(isa)) {
                EXPECT_TRUE(run_jit_case(k.c, isa)) << k.c.str();
            }
        if (x64::isa_allowed(z)) {
            EXPECT_EQ(desc_of(k.c, z).isa, k.zmm ? z : cpu_isa_t::avx2) << k.c.str();
        }
    }
}

// A generator that jumps to a label it never places fails to finalize
// (Xbyak leaves such a jump pointing nowhere and says so only when asked),
// while the same code with the label placed finalizes and runs.
TEST(jit_generator, UnplacedLabelFails) {
    struct gen_t : x64::jit_generator_t {
        explicit gen_t(bool place) : jit_generator_t("label_test", 4096) {
            Xbyak::Label l;
            mov(eax, 7);
            jmp(l, T_NEAR);
            mov(eax, 1);
            if (place) L(l);
            ret();
        }
    };
    gen_t bad(false);
    EXPECT_EQ(bad.finalize(), status_t::runtime_error);
    EXPECT_NE(std::string(last_error_message()).find("never placed"), std::string::npos)
            << last_error_message();
    gen_t good(true);
    ASSERT_EQ(good.finalize(), status_t::success);
    EXPECT_EQ(reinterpret_cast<int (*)()>(const_cast<void *>(good.entry()))(), 7);
}

// Copies whose run per position is a few vectors (desc.short_copy): the
// whole calls straight-line, other calls (a padded last block: C = 40 in
// blocks of 16) the general copy. Runs of 16 and 8 f32 (nhwc <-> nChw16c,
// nChw8c <-> nChw16c), 16 and 8 bytes (s8), 13 elements of odd strides
// (bit copies in pieces of 32 .. 1 bytes: 52 and 13 bytes), conversions
// of whole vectors with scales along the run and across it, zero points
// and a sum; and large enough to stream (whole lines only). Bit-exact on
// both ISAs; the desc takes the path exactly there.
TEST(jit_reorder, ShortCopyRuns) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const dim_t W = isa == cpu_isa_t::avx512_core ? 16 : 8;
        struct sc_t {
            jit_case_t c;
            bool short_copy;
            int unroll; // desc.short_unroll
        };
        std::vector<sc_t> cases;
        auto add = [&](jit_case_t c, bool on, int u = 1) { cases.push_back({ c, on, u }); };
        add(jit_case_t::of({ 2, 48, 7, 9 }, relayout_f32, relayout_f32, "nhwc", "nChw16c"), true);
        add(jit_case_t::of({ 2, 40, 7, 9 }, relayout_f32, relayout_f32, "nhwc", "nChw16c"), true);
        add(jit_case_t::of({ 2, 48, 7, 9 }, relayout_f32, relayout_f32, "nChw16c", "nhwc"), true);
        // Half lines whose dst continues along the innermost baked loop:
        // two positions per line (the two 8-channel blocks of a 16-block,
        // two pixels); an odd count of pixels (35) cannot pair.
        add(jit_case_t::of({ 2, 32, 5, 7 }, relayout_f32, relayout_f32, "nChw8c", "nChw16c"), true,
                2);
        add(jit_case_t::of({ 2, 32, 5, 7 }, relayout_f32, relayout_f32, "nChw16c", "nChw8c"), true);
        add(jit_case_t::of({ 2, 32, 4, 8 }, relayout_f32, relayout_f32, "nChw16c", "nChw8c"), true,
                2);
        add(jit_case_t::of({ 2, 24, 5, 7 }, relayout_f32, relayout_f32, "nhwc", "nChw8c"), true);
        add(jit_case_t::of({ 2, 24, 4, 8 }, relayout_f32, relayout_f32, "nhwc", "nChw8c"), true, 2);
        // Quarter lines: 16 bytes of each of four 16-channel blocks (and of
        // 4 + 1 blocks: 80 channels, a whole line then a quarter left over:
        // not paired).
        add(jit_case_t::of({ 2, 64, 5, 7 }, relayout_s8, relayout_s8, "nChw16c", "nhwc"), true, 4);
        add(jit_case_t::of({ 2, 80, 5, 7 }, relayout_s8, relayout_s8, "nChw16c", "nhwc"), true);
        // (Runs of 8 bytes under 16-lane vectors: gathered by the interleave.)
        add(jit_case_t::of({ 2, 32, 5, 7 }, relayout_u8, relayout_u8, "nChw8c", "nChw16c"), W == 8);
        for (data_type_t dt : { relayout_f32, relayout_u8 }) {
            jit_case_t c = jit_case_t::of({ 6, 5, 13 }, dt, dt, "", "");
            c.sstrides = { 100, 19, 1 };
            c.dstrides = { 65, 13, 1 };
            add(c, true);
        }
        // Conversions: whole vectors of the run (16 f32 -> bf16 lanes; AVX2
        // two vectors); a scale per channel (along the run), per image
        // (across it); u8 with zero points; a sum.
        jit_case_t c =
                jit_case_t::of({ 2, 48, 7, 9 }, relayout_f32, relayout_bf16, "nhwc", "nChw16c");
        add(c, true);
        c.src_scale_mask = 2;
        add(c, true);
        c.src_scale_mask = 1;
        c.ddt = relayout_u8;
        c.dst_zp = 3;
        add(c, true);
        c.src_scale_mask = -1;
        c.dst_zp = 0;
        c.sdt = relayout_s8;
        c.ddt = relayout_f32;
        c.src_zp = -2;
        c.beta = 0.5f;
        add(c, true);
        // Conversions of one vector per position into 2- and 1-byte lanes,
        // packed into whole lines along the innermost loop (AVX-512): two
        // pixels of bf16 / f16 (a scale per channel: a vector per pixel),
        // four 16-channel blocks of u8 (a scale per image, a zero point).
        const int uz = W == 16 ? 2 : 1;
        c = jit_case_t::of({ 2, 48, 4, 8 }, relayout_f32, relayout_bf16, "nhwc", "nChw16c");
        c.src_scale_mask = 2;
        add(c, true, uz);
        c.ddt = relayout_f16;
        add(c, true, uz);
        c = jit_case_t::of({ 2, 64, 5, 7 }, relayout_f32, relayout_u8, "nChw16c", "nhwc");
        c.src_scale_mask = 1;
        c.dst_zp = 5;
        add(c, true, W == 16 ? 4 : 1);
        c.src_scale_mask = 2; // per channel: the scales step with the blocks
        add(c, true, W == 16 ? 4 : 1);
        c = jit_case_t::of({ 4, 64, 250, 160 }, relayout_f32, relayout_bf16, "nhwc", "nChw16c");
        add(c, true, uz);
        // A run that is not whole vectors (conversion of 8 lanes on
        // AVX-512): the general copy.
        c = jit_case_t::of({ 2, 32, 5, 7 }, relayout_f32, relayout_bf16, "nChw8c", "nChw16c");
        add(c, W == 8);
        // Large: streamed whole lines (16 f32), and the 8-f32 halves.
        add(jit_case_t::of({ 4, 64, 250, 161 }, relayout_f32, relayout_f32, "nhwc", "nChw16c"),
                true);
        add(jit_case_t::of({ 4, 64, 250, 161 }, relayout_f32, relayout_f32, "nChw8c", "nChw16c"),
                true, 2);
        add(jit_case_t::of({ 4, 256, 250, 161 }, relayout_u8, relayout_u8, "nChw16c", "nhwc"), true,
                4);
        c = jit_case_t::of({ 4, 64, 250, 161 }, relayout_f32, relayout_f32, "nhwc", "nChw16c");
        c.src_scale_mask = 2;
        add(c, true);
        for (const sc_t &k : cases) {
            EXPECT_TRUE(run_jit_case(k.c, isa)) << k.c.str();
            const x64::jit_reorder_desc_t d = desc_of(k.c, isa);
            EXPECT_EQ(d.short_copy, k.short_copy) << k.c.str() << " isa " << W;
            if (d.short_copy) {
                EXPECT_EQ(d.short_unroll, k.unroll) << k.c.str() << " isa " << W;
            }
        }
        // The kernel plan: a position loop too long to bake under a run of
        // 16 is split (2048 of its 4096 per call, the blocks to the
        // driver; AVX-512: all C blocks of 128 rows, CopySrcRows); a
        // prime count (4099) cannot be split without a tail and stays in
        // the driver.
        std::string kplan;
        case_kplan(
                jit_case_t::of({ 16, 256, 64, 64 }, relayout_f32, relayout_f32, "nhwc", "nChw16c"),
                isa, kplan);
        if (W == 16) {
            EXPECT_NE(
                    kplan.find("loops:[16 16 65536 d1*16][128 256 16] driver:"), std::string::npos)
                    << kplan;
        } else {
            EXPECT_NE(kplan.find("loops:[2048 256 16] driver:"), std::string::npos) << kplan;
            EXPECT_NE(kplan.find("[2 524288 32768]"), std::string::npos) << kplan;
        }
        case_kplan(
                jit_case_t::of({ 16, 256, 1, 4099 }, relayout_f32, relayout_f32, "nhwc", "nChw16c"),
                isa, kplan);
        EXPECT_EQ(kplan.find("loops:[4099"), std::string::npos) << kplan;
        EXPECT_NE(kplan.find("driver:[16 1049344 1049344 d0][16 16 65584 d1*16][4099 256 16 d3]"),
                std::string::npos)
                << kplan;
    }
}

// Channels-last src rows read whole (kernel_plan_params_t::copy_src_rows,
// AVX-512): nhwc -> nChw8c / nChw16c copies take a block of pixel rows
// and all their C blocks per call, loops [rows / u][C blocks][u] with u
// pixels per dst line (jit_short_unroll: 2 for runs of half a line, 4 for
// quarters, none for whole lines). Bit-exact, with the plan expected:
// pixel counts of few divisors (17), counts u cannot pair and padded C
// (the old plans), src rows under 256 bytes (the old plans), 5D, bit
// copies of 2- and 1-byte types, conversions packing 2 and 4 pixels per
// line with scales along the run and across it, zero points and a sum,
// and large enough to stream. AVX2 keeps the old plans.
TEST(jit_reorder, CopySrcRows) {
    struct rc_t {
        jit_case_t c;
        const char *loops; // the kernel plan's baked loops; nullptr: the old plan
        int unroll;        // desc.short_unroll
    };
    const data_type_t f32 = relayout_f32;
    std::vector<rc_t> cases;
    auto add = [&](jit_case_t c, const char *loops, int u = 1) {
        cases.push_back({ c, loops, u });
    };
    add(jit_case_t::of({ 2, 64, 5, 8 }, f32, f32, "nhwc", "nChw8c"),
            "loops:[20 128 16][8 8 320 d1*8][2 64 8] driver:", 2);
    add(jit_case_t::of({ 2, 64, 5, 7 }, f32, f32, "nhwc", "nChw8c"), nullptr);    // 35 pixels
    add(jit_case_t::of({ 2, 60, 5, 8 }, f32, f32, "nhwc", "nChw8c"), nullptr);    // padded C
    add(jit_case_t::of({ 16, 32, 16, 16 }, f32, f32, "nhwc", "nChw8c"), nullptr); // 128 B rows
    add(jit_case_t::of({ 2, 64, 7, 9 }, f32, f32, "nhwc", "nChw16c"),
            "loops:[4 16 1008 d1*16][63 64 16] driver:");
    add(jit_case_t::of({ 3, 128, 1, 17 }, f32, f32, "nhwc", "nChw16c"),
            "loops:[8 16 272 d1*16][17 128 16 d3] driver:");
    add(jit_case_t::of({ 2, 64, 3, 4, 5 }, f32, f32, "acdeb", "aBcde16b"),
            "loops:[4 16 960 d1*16][60 64 16] driver:");
    add(jit_case_t::of({ 2, 128, 4, 8 }, relayout_bf16, relayout_bf16, "nhwc", "nChw16c"),
            "loops:[16 256 32][8 16 512 d1*16][2 128 16] driver:", 2);
    add(jit_case_t::of({ 2, 256, 4, 8 }, relayout_s8, relayout_s8, "nhwc", "nChw16c"),
            "loops:[8 1024 64][16 16 512 d1*16][4 256 16] driver:", 4);
    add(jit_case_t::of({ 2, 256, 3, 5 }, relayout_s8, relayout_s8, "nhwc", "nChw16c"), nullptr);
    add(jit_case_t::of({ 2, 256, 4, 8 }, relayout_u8, relayout_u8, "nhwc", "nChw8c"), nullptr);
    // (Rows of a blocked dim: the i rows of weights, which copy_run_loop
    // reads whole; src rows of one line, 16 c.)
    add(jit_case_t::of({ 256, 64, 3, 3 }, f32, f32, "hwio", "OIhw16i16o"), nullptr);
    add(jit_case_t::of({ 8, 32, 16, 16 }, f32, f32, "nChw16c", "nChw8c"), nullptr);
    jit_case_t c = jit_case_t::of({ 2, 64, 4, 8 }, f32, relayout_bf16, "nhwc", "nChw16c");
    c.src_scale_mask = 2; // per channel
    add(c, "loops:[16 128 32][4 16 512 d1*16][2 64 16] driver:", 2);
    c.ddt = relayout_f16;
    add(c, "loops:[16 128 32][4 16 512 d1*16][2 64 16] driver:", 2);
    c.ddt = relayout_s8;
    add(c, "loops:[8 256 64][4 16 512 d1*16][4 64 16] driver:", 4);
    c.ddt = relayout_u8;
    c.src_scale_mask = 1; // per image
    c.dst_zp = 5;
    add(c, "loops:[8 256 64][4 16 512 d1*16][4 64 16] driver:", 4);
    c.dst_zp = 0;
    c.ddt = relayout_bf16;
    c.src_scale_mask = 0;
    c.beta = 0.5f; // a sum: the dst read back in pairs of pixels
    add(c, "loops:[16 128 32][4 16 512 d1*16][2 64 16] driver:", 2);
    c = jit_case_t::of({ 2, 64, 4, 8 }, f32, f32, "nhwc", "nChw16c");
    c.src_scale_mask = 2;
    add(c, "loops:[4 16 512 d1*16][32 64 16] driver:");
    c = jit_case_t::of({ 2, 256, 2, 8 }, relayout_s8, f32, "nhwc", "nChw16c");
    c.src_zp = -2;
    c.beta = 0.5f;
    add(c, nullptr); // (from bytes)
    // Streamed: whole lines (desc.nt).
    add(jit_case_t::of({ 8, 256, 62, 67 }, f32, f32, "nhwc", "nChw8c"),
            "loops:[31 512 16][32 8 33232 d1*8][2 256 8] driver:", 2);
    add(jit_case_t::of({ 8, 256, 62, 67 }, f32, relayout_bf16, "nhwc", "nChw16c"),
            "loops:[31 512 32][16 16 66464 d1*16][2 256 16] driver:", 2);
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool zmm = isa == cpu_isa_t::avx512_core;
        for (const rc_t &k : cases) {
            EXPECT_TRUE(run_jit_case(k.c, isa)) << k.c.str();
            // The kernel plan, and the one without the rule.
            plan_t p;
            ASSERT_NO_FATAL_FAILURE(case_plan(k.c, p));
            kernel_plan_params_t prm = x64::jit_plan_params(isa, p);
            kernel_plan_t on, off;
            ASSERT_EQ(kernel_plan_create(on, p, prm), status_t::success);
            prm.copy_src_rows = 0;
            ASSERT_EQ(kernel_plan_create(off, p, prm), status_t::success);
            const std::string kplan = on.dump(p);
            if (zmm && k.loops) {
                EXPECT_NE(kplan.find(k.loops), std::string::npos) << k.c.str() << ": " << kplan;
                const x64::jit_reorder_desc_t d = desc_of(k.c, isa);
                EXPECT_TRUE(d.short_copy) << k.c.str();
                EXPECT_EQ(d.short_unroll, k.unroll) << k.c.str();
                if (k.c.dims[2] == 62) {
                    EXPECT_TRUE(d.nt) << k.c.str();
                }
            } else {
                EXPECT_EQ(kplan, off.dump(p)) << k.c.str();
            }
        }
    }
}

// Destinations beyond the non-temporal threshold take the streaming-store
// path of the transpose tiles (aligned calls) and the cached one (others).
TEST(jit_reorder, LargeNonTemporal) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        jit_case_t c = jit_case_t::of({ 3000, 3000 }, relayout_f32, relayout_f32, "ab", "ba");
        EXPECT_TRUE(run_jit_case(c, isa));
        // Bit copies stream too: whole lines of the plain copy, and the
        // 8x8 tiles whose rows are adjacent in the dst (ymm pairs).
        c.dims = { 4, 67, 250, 161 };
        c.stag = "nchw";
        for (const char *t : { "nchw", "nChw8c", "nChw16c" }) {
            c.dtag = t;
            EXPECT_TRUE(run_jit_case(c, isa));
        }
        // nChw8c -> nchw: 8 A rows per zmm tile, each dst row one streamed
        // line (AVX-512); 67 channels leave a padded last block of 3 rows
        // (the masked edge tile); rows (h x w) of whole lines. As a bit
        // copy and with a scale.
        c.dims = { 4, 67, 256, 160 };
        c.stag = "nChw8c";
        c.dtag = "nchw";
        EXPECT_TRUE(run_jit_case(c, isa));
        c.src_scale_mask = 0;
        EXPECT_TRUE(run_jit_case(c, isa));
        // Narrower srcs widen their 8 lanes from half-width loads (bf16,
        // s8, f16: the ymm loads of the 8-row tile, not masked zmm ones).
        for (data_type_t s : { relayout_bf16, relayout_s8, relayout_f16 }) {
            c.sdt = s;
            EXPECT_TRUE(run_jit_case(c, isa));
            if (isa == cpu_isa_t::avx512_core) {
                EXPECT_EQ(desc_of(c, isa).isa, cpu_isa_t::avx512_core) << c.str();
            }
        }
        c.sdt = relayout_f32;
        c.src_scale_mask = -1;
        c.dims = { 4, 67, 250, 161 };
        c.stag = "nchw";
        c.dtag = "nChw16c";
        c.src_scale_mask = 0;
        c.ddt = relayout_s32;
        EXPECT_TRUE(run_jit_case(c, isa));
        // Conversions with the streamed copy (4 vectors per 64-byte lines).
        c.stag = c.dtag = "nchw";
        c.dims = { 4, 67, 150, 161 };
        c.sdt = relayout_f32;
        for (data_type_t d : { relayout_f32, relayout_bf16, relayout_f16, relayout_s8, relayout_u8,
                     relayout_s16 })
            if ((4 + data_type_size(d)) * 4 * 67 * 150 * 161 >= x64::nt_threshold_bytes) {
                c.ddt = d;
                EXPECT_TRUE(run_jit_case(c, isa));
            }
        c.dims = { 4, 67 * 4, 150, 161 };
        for (data_type_t d : { relayout_bf16, relayout_s8, relayout_u8 }) {
            c.ddt = d;
            EXPECT_TRUE(run_jit_case(c, isa));
        }
    }
}

// The streaming size of AVX-512 conversions to narrower types
// (jit_cvt_nt_threshold): 32 MiB (src + dst) on Intel, 48 MiB elsewhere;
// knob RELAYOUT_JIT_CVT_NT_MIB, which ctest sets to 48 and 32. Problems of
// 36-42 MB stream at 32 and stay cached at 48, with what follows the
// streaming: f32 nchw -> nhwc to s8 (far rows: the half rows on Intel)
// and to bf16 (the far rows' long calls), nhwc -> nchw to bf16 (two row
// tiles per call) and to u8, nhwc -> nChw16c to bf16 (the short copy's
// lines), nchw -> nChw16c to s8 (the A quads, only streamed at that size).
// Bit copies (f32 nchw -> nhwc, 42 MB) and AVX2 keep 48 MiB. Bit-exact.
TEST(jit_reorder, CvtStreamSize) {
    const int knob = getenv_int("RELAYOUT_JIT_CVT_NT_MIB", -1);
    const size_t mib = knob >= 0 ? size_t(knob) : x64::cpu_is_intel() ? 32 : 48;
    struct size_case_t {
        std::vector<dim_t> dims;
        data_type_t ddt;
        const char *stag, *dtag;
    };
    const size_case_t cases[] = { { { 8, 1024, 32, 32 }, relayout_s8, "nchw", "nhwc" },
        { { 6, 256, 64, 64 }, relayout_bf16, "nchw", "nhwc" },
        { { 6, 256, 64, 64 }, relayout_bf16, "nhwc", "nchw" },
        { { 7, 256, 64, 64 }, relayout_u8, "nhwc", "nchw" },
        { { 6, 256, 64, 64 }, relayout_bf16, "nhwc", "nChw16c" },
        { { 7, 256, 64, 64 }, relayout_s8, "nchw", "nChw16c" },
        { { 5, 256, 64, 64 }, relayout_f32, "nchw", "nhwc" } };
    uint32_t seed = 4100;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const size_case_t &sc : cases) {
            if (isa == cpu_isa_t::avx2 && sc.ddt == relayout_f32) continue;
            jit_case_t c = jit_case_t::of(sc.dims, relayout_f32, sc.ddt, sc.stag, sc.dtag);
            size_t n = 1;
            for (dim_t x : sc.dims)
                n *= size_t(x);
            const size_t bytes = n * (4 + data_type_size(sc.ddt));
            ASSERT_GE(bytes, size_t(32) << 20) << c.str();
            ASSERT_LT(bytes, x64::nt_threshold_bytes) << c.str();
            const bool nt =
                    isa == cpu_isa_t::avx512_core && sc.ddt != relayout_f32 && bytes >= mib << 20;
            x64::jit_reorder_desc_t d;
            ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
            EXPECT_EQ(d.nt, nt) << c.str() << " " << x64::isa2str(isa);
            if (isa == cpu_isa_t::avx512_core && sc.ddt == relayout_s8) {
                const bool half =
                        x64::by_vendor(getenv_int("RELAYOUT_JIT_NARROW_HALF", -1), 16, 0) > 0
                        || x64::jit_narrow_pairs_on(); // (1024 channels: line pairs)
                if (sc.dtag == std::string("nhwc"))
                    EXPECT_EQ(d.narrow_half != 0, nt && half) << c.str();
                else
                    EXPECT_EQ(d.quad_a, nt) << c.str();
            }
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << x64::isa2str(isa);
        }
    }
}

// Streamed stores need line-aligned addresses: a baked loop whose dst
// stride is not whole lines (OIhw16i16o -> oihw 5x5: the i loop steps 25
// f32; a copy of rows 101 f32 apart) must keep its stores
// cached even when the call's base is aligned (these faulted).
TEST(jit_reorder, LargeUnalignedBakedLoops) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        jit_case_t c = jit_case_t::of(
                { 512, 512, 5, 5 }, relayout_f32, relayout_f32, "OIhw16i16o", "oihw");
        EXPECT_TRUE(run_jit_case(c, isa));
        c.dims = { 220, 300, 100 };
        c.sstrides = { 30400, 101, 1 };
        c.dstrides = { 30300, 101, 1 };
        EXPECT_TRUE(run_jit_case(c, isa));
    }
}

dim_t pf(const jit_case_t &c, cpu_isa_t isa) {
    return desc_of(c, isa).pf_ahead;
}

// Large copies and conversions stream on AVX2 too: whole lines of two ymm
// stores (8-bit dsts: a line from two groups of four vectors). The desc
// keeps nt on both ISAs; bit-exact for every dst type, with a scale, as
// a bit copy, with a tail after the last whole group (280 x 45001
// elements), and (8- and 16-bit packs, bit copy) with rows of 45013
// elements whose calls are mostly not line-aligned (those store cached).
TEST(jit_reorder, CopyStreamsOnBothIsas) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (data_type_t d : { relayout_f32, relayout_bf16, relayout_f16, relayout_s8, relayout_u8,
                     relayout_s16 }) {
            jit_case_t c = jit_case_t::of({ 280, 45001 }, relayout_f32, d, "ab", "ab");
            c.src_scale_mask = 0;
            ASSERT_GE(c.dims[0] * c.dims[1] * (4 + data_type_size(d)), x64::nt_threshold_bytes);
            EXPECT_TRUE(desc_of(c, isa).nt) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa));
            if (d != relayout_s8 && d != relayout_bf16) continue;
            c.dstrides = { 45013, 1 };
            EXPECT_TRUE(run_jit_case(c, isa));
        }
        jit_case_t c = jit_case_t::of({ 280, 45001 }, relayout_f32, relayout_f32, "ab", "ab");
        EXPECT_TRUE(desc_of(c, isa).nt) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa));
        c.dstrides = { 45013, 1 };
        EXPECT_TRUE(run_jit_case(c, isa));
    }
}

// Streamed AVX-512 value copies to s8 / u8 narrow each line's four
// vectors by saturating packs and one dword permute (jit_copy_packs):
// only the upper clamp, so NaN, -inf and values below lo must still give
// lo (random sources hold them). Bit-exact for f32, s32 and bf16 srcs
// and from the other 8-bit type, with common and per-element scales,
// zero points, a tail after the last whole line (rows of 45001), and
// rows of 45013 elements (calls mostly not line-aligned: cached, the
// usual stores). The rule takes AVX-512 value copies to 8-bit dsts only.
TEST(jit_reorder, CopyPacksToBytes) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool z = isa == cpu_isa_t::avx512_core;
        for (data_type_t ddt : { relayout_s8, relayout_u8 })
            for (data_type_t sdt : { relayout_f32, relayout_s32, relayout_bf16,
                         ddt == relayout_s8 ? relayout_u8 : relayout_s8 }) {
                // (streamed: src + dst of nt_threshold_bytes at least)
                const dim_t rows = data_type_size(sdt) == 4 ? 280 : 560;
                jit_case_t c = jit_case_t::of({ rows, 45001 }, sdt, ddt, "ab", "ab");
                c.src_scale_mask = 0;
                const x64::jit_reorder_desc_t d = desc_of(c, isa);
                EXPECT_TRUE(d.nt) << c.str();
                EXPECT_EQ(x64::jit_copy_packs(d), z) << c.str();
                EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
                if (sdt != relayout_f32) continue;
                c.src_scale_mask = 3; // per element: vector scales
                c.dst_scale_mask = 0;
                c.src_zp = 3;
                c.dst_zp = -5;
                EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
                c.src_scale_mask = -1;
                c.dst_scale_mask = -1;
                c.src_zp = c.dst_zp = 0;
                c.dstrides = { 45013, 1 };
                EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
            }
        // Not for other dsts, nor for bit copies (gen_copy_bits).
        for (data_type_t sdt : { relayout_f32, relayout_s8 }) {
            jit_case_t c = jit_case_t::of({ 280, 45001 }, sdt,
                    sdt == relayout_s8 ? relayout_s8 : relayout_bf16, "ab", "ab");
            EXPECT_FALSE(x64::jit_copy_packs(desc_of(c, isa))) << c.str();
            c.ddt = relayout_s16;
            EXPECT_FALSE(x64::jit_copy_packs(desc_of(c, isa))) << c.str();
        }
    }
}

// Blocked weights to plain (OIhw16i16o -> oihw, large): each call reads
// one dense 16 KiB src block, the next call the next one, so the tiles
// prefetch it in address order (desc.pf_ahead). Bit-exact with the
// prefetch pointer on the stack (f32, bf16 and s8 srcs with a scale:
// 16, 8 and 4 lines per tile; padded I: edge calls), and only where
// the calls are such blocks.
TEST(jit_reorder, BlockedSrcPrefetchAhead) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        jit_case_t c = jit_case_t::of(
                { 1024, 512, 4, 4 }, relayout_f32, relayout_f32, "OIhw16i16o", "oihw");
        EXPECT_EQ(pf(c, isa), 16 * 1024) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa));
        c.sdt = relayout_bf16;
        EXPECT_EQ(pf(c, isa), 16 * 1024) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa));
        c.sdt = relayout_s8;
        c.dims = { 1024, 640, 4, 4 };
        EXPECT_EQ(pf(c, isa), 16 * 1024) << c.str();
        c.src_scale_mask = 0;
        EXPECT_TRUE(run_jit_case(c, isa));
        c.sdt = relayout_f32;
        c.src_scale_mask = -1;
        c.dims = { 1008, 1000, 4, 4 };
        EXPECT_TRUE(run_jit_case(c, isa));
        // Below the streaming threshold the blocks stay in the caches.
        c.dims = { 256, 256, 4, 4 };
        EXPECT_EQ(pf(c, isa), 0) << c.str();
        // Plain srcs: a call's rows are not one block.
        c.dims = { 1024, 512, 4, 4 };
        c.stag = "oihw";
        c.dtag = "OIhw16i16o";
        EXPECT_EQ(pf(c, isa), 0) << c.str();
        c.dims = { 16, 256, 64, 64 };
        c.stag = "nhwc";
        c.dtag = "nchw";
        EXPECT_EQ(pf(c, isa), 0) << c.str();
    }
}

// 3x3 blocked weights to plain, large: 9-lane B tiles; the call's 16
// dst rows (16 i x 9 hw each, 72 KiB apart) go through a stack stage
// and stream out as whole lines (desc.dst_stage_row). Bit-exact (value
// paths with a scale; a padded I leaves the stage, its rows are checked
// per call), and only for such calls.
TEST(jit_reorder, ShortBStagedDst) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "avx512_core not available";
    jit_case_t c =
            jit_case_t::of({ 1024, 768, 3, 3 }, relayout_f32, relayout_f32, "OIhw16i16o", "oihw");
    // (f32 bit copies take the flattened tiles instead: FlatShortBTiles)
    EXPECT_EQ(desc_of(c, isa).dst_stage_row, 0) << c.str();
    c.src_scale_mask = 0;
    EXPECT_EQ(pf(c, isa), 16 * 1024) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa));
    c.sdt = relayout_s8;
    c.dims = { 1024, 1280, 3, 3 };
    EXPECT_EQ(desc_of(c, isa).dst_stage_row, 16 * 9) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa));
    c.sdt = relayout_f32;
    c.src_scale_mask = -1;
    c.dims = { 1040, 760, 3, 3 };
    EXPECT_TRUE(run_jit_case(c, isa));
    // Not staged: 16-lane B (whole tiles), small problems.
    c.dims = { 1024, 512, 4, 4 };
    EXPECT_EQ(desc_of(c, isa).dst_stage_row, 0) << c.str();
    c.dims = { 256, 256, 3, 3 };
    EXPECT_EQ(desc_of(c, isa).dst_stage_row, 0) << c.str();
}

// A row of the flattened-tile tests: the problem and the flattened
// positions its calls take (0: none).
struct flat_case_t {
    std::vector<dim_t> dims;
    const char *stag, *dtag;
    dim_t flat;
};

// Runs each of `cases` at `isa`, checking the flattened positions its
// desc gets (`field`: flat_a or flat_b; flattened calls never stage).
template <size_t N>
void run_flat_cases(
        const flat_case_t (&cases)[N], cpu_isa_t isa, dim_t x64::jit_reorder_desc_t::*field) {
    jit_case_t c;
    for (const auto &fc : cases) {
        c.dims = fc.dims;
        c.stag = fc.stag;
        c.dtag = fc.dtag;
        EXPECT_EQ(desc_of(c, isa).*field, fc.flat) << c.str();
        if (fc.flat) {
            EXPECT_EQ(desc_of(c, isa).dst_stage_row, 0) << c.str();
        }
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// The flattened short-B tests' value paths: `c` with a src scale
// (bit-exact), and as bf16 (not flattened, bit-exact).
void check_flat_b_value_paths(jit_case_t c, cpu_isa_t isa) {
    c.src_scale_mask = 0;
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    c.src_scale_mask = -1;
    c.sdt = c.ddt = relayout_bf16;
    EXPECT_EQ(desc_of(c, isa).flat_b, 0) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
}

// Whole B tiles (4x4, 8x8 weights to plain) on AVX-512, streamed: flattened
// too (the same tiles, unrolled or looped), so that they load quads and
// fence in the driver. Bit-exact with edge calls (padded O: the usual
// tiles), odd dst strides (cached stores) and 8x8 (64 tiles: the loop);
// not on AVX2.
void check_flat_b_whole_tiles(cpu_isa_t isa) {
    const bool zmm = isa == cpu_isa_t::avx512_core;
    jit_case_t c;
    c.stag = "OIhw16i16o";
    c.dtag = "oihw";
    const flat_case_t cases[] = { { { 1024, 528, 4, 4 }, "", "", 256 },
        { { 1000, 528, 4, 4 }, "", "", 256 }, // edge calls
        { { 256, 512, 8, 8 }, "", "", 1024 } };
    for (const auto &fc : cases) {
        c.dims = fc.dims;
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_TRUE(d.nt) << c.str();
        EXPECT_EQ(d.flat_b, zmm ? fc.flat : 0) << c.str();
        EXPECT_EQ(d.quad_ld && d.fence_in_driver, zmm) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
    c.dims = { 1000, 528, 4, 4 };
    c.dstrides = { 528 * 16 + 5, 16, 4, 1 };
    EXPECT_EQ(desc_of(c, isa).flat_b, zmm ? 256 : 0) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
}

// Plain weights to blocks of 8 o innermost (oihw -> OIhw8i8o, goihw ->
// gOIhw8i8o): A = hw (src stride 1), B = 8 i of src stride A over 8 o
// lanes, so each o row of an (O, I) block is one src run of 8 A f32, read
// in chunks of 8 and paired into whole dst lines (desc.o8_chunks = A).
// Bit-exact streamed (large) and cached, A from 2 to 32 (the live chunks
// of a line's two columns one to five), edge calls (padded O or I: the
// row tiles), odd src strides (unaligned chunks); not A of 1 or past 32,
// other types of 4 bytes only, not 16i16o, not on AVX2.
TEST(jit_reorder, O8ChunkLines) {
    struct o8_case_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        int chunks; // on AVX-512
    };
    const o8_case_t cases[] = { { { 1024, 768, 3, 3 }, "oihw", "OIhw8i8o", 9 }, // streamed
        { { 256, 256, 3, 3 }, "oihw", "OIhw8i8o", 9 },                          // cached
        { { 64, 64, 3, 3 }, "oihw", "OIhw8i8o", 9 },                            // in L2
        { { 1000, 760, 3, 3 }, "oihw", "OIhw8i8o", 9 }, // padded O and I: edge calls
        { { 44, 36, 3, 3 }, "oihw", "OIhw8i8o", 0 },    // both padded, small: a transpose
        { { 4, 64, 128, 3, 3 }, "goihw", "gOIhw8i8o", 9 },
        { { 64, 64, 2, 2 }, "oihw", "OIhw8i8o", 4 }, { { 64, 64, 1, 3 }, "oihw", "OIhw8i8o", 3 },
        { { 64, 64, 4, 4 }, "oihw", "OIhw8i8o", 16 }, { { 64, 64, 5, 5 }, "oihw", "OIhw8i8o", 25 },
        { { 64, 64, 4, 8 }, "oihw", "OIhw8i8o", 32 }, // five chunks live
        { { 32, 32, 3, 11 }, "oihw", "OIhw8i8o", 0 }, // A of 33
        { { 64, 64, 1, 2 }, "oihw", "OIhw8i8o", 2 },
        { { 64, 64, 3, 3 }, "oihw", "OIhw16i16o", 0 } };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool zmm = isa == cpu_isa_t::avx512_core;
        for (const auto &oc : cases) {
            jit_case_t c = jit_case_t::of(oc.dims, relayout_f32, relayout_f32, oc.stag, oc.dtag);
            EXPECT_EQ(desc_of(c, isa).o8_chunks, zmm ? oc.chunks : 0) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        }
        jit_case_t c =
                jit_case_t::of({ 1024, 768, 3, 3 }, relayout_f32, relayout_f32, "oihw", "OIhw8i8o");
        EXPECT_TRUE(desc_of(c, isa).nt || !zmm) << c.str();
        // Odd src strides: o rows of 256 x 9 + 3 f32 (chunks off the
        // half lines), i of 11 (not a run: the row tiles).
        c.dims = { 256, 256, 3, 3 };
        c.sstrides = { 256 * 9 + 3, 9, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).o8_chunks, zmm ? 9 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.sstrides = { 256 * 11, 11, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).o8_chunks, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.sstrides.clear();
        // s32 (a 4-byte bit copy) too; bf16 and a src scale not.
        c.sdt = c.ddt = relayout_s32;
        EXPECT_EQ(desc_of(c, isa).o8_chunks, zmm ? 9 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.sdt = c.ddt = relayout_bf16;
        EXPECT_EQ(desc_of(c, isa).o8_chunks, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.sdt = c.ddt = relayout_f32;
        c.src_scale_mask = 0;
        x64::jit_reorder_desc_t ds;
        case_desc(c, isa, ds);
        EXPECT_EQ(ds.o8_chunks, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// Streamed chunk lines in address order (desc.o8_in_order, see
// jit_o8_in_order; knob RELAYOUT_JIT_O8_ORDER, unset: on Intel only):
// each block's lines go to the stack stage as they come (t-major) and
// then out to the dst in address order. ctest runs this at 0 and 1.
// Bit-exact streamed (from nt_threshold_bytes) with A from 2 to 32 (the
// stage from 512 bytes to 8 KiB), padded O and I (edge calls: the row
// tiles), goihw; cached sizes never stage.
TEST(jit_reorder, O8LinesInOrder) {
    if (!x64::isa_allowed(cpu_isa_t::avx512_core)) GTEST_SKIP() << "no AVX-512";
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    const bool on = x64::by_vendor(getenv_int("RELAYOUT_JIT_O8_ORDER", -1), 1, 0) != 0;
    struct order_case_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        int chunks;  // desc.o8_chunks (A)
        bool stream; // desc.nt
    };
    const order_case_t cases[] = { { { 1024, 768, 3, 3 }, "oihw", "OIhw8i8o", 9, true },
        { { 1000, 760, 3, 3 }, "oihw", "OIhw8i8o", 9, true }, // padded O and I: edge calls
        { { 8, 128, 768, 3, 3 }, "goihw", "gOIhw8i8o", 9, true },
        { { 2048, 1792, 1, 2 }, "oihw", "OIhw8i8o", 2, true },
        { { 512, 512, 5, 5 }, "oihw", "OIhw8i8o", 25, true },
        { { 512, 448, 4, 8 }, "oihw", "OIhw8i8o", 32, true }, // five chunks live
        { { 256, 256, 3, 3 }, "oihw", "OIhw8i8o", 9, false } };
    uint32_t seed = 2000;
    for (const order_case_t &oc : cases) {
        jit_case_t c = jit_case_t::of(oc.dims, relayout_f32, relayout_f32, oc.stag, oc.dtag);
        x64::jit_reorder_desc_t d;
        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
        EXPECT_EQ(d.o8_chunks, oc.chunks) << c.str();
        EXPECT_EQ(d.nt, oc.stream) << c.str();
        EXPECT_EQ(d.o8_in_order, oc.stream && on) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
    }
}

// Plain weights to blocks of 8 i innermost under 8 o (oihw -> OIhw8o8i,
// goihw -> gOIhw8o8i): A = hw (src stride 1), B = 8 o over 8 i lanes of
// src stride A, so each o row of an (O, I) block is one src run of 8 A
// f32, read in windows of 8 columns of its i groups (desc.o8i_rows = A).
// Bit-exact streamed (staged: desc.o8i_staged; ctest runs this at
// RELAYOUT_JIT_O8I_ROWS=0 and 2 too) and cached, A whole windows (4x4,
// 2x8) and not (3x3, 5x5, 7x7: a last window at A - 8), edge calls
// (padded O or I: the row tiles), odd src strides (unaligned windows)
// and i rows that are not one run (the row tiles); not A below 8 or
// past 64, not bf16, not 8i8o, not on AVX2.
TEST(jit_reorder, O8iRowWindows) {
    const int knob = getenv_int("RELAYOUT_JIT_O8I_ROWS", 1);
    struct rows_case_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        int rows;    // desc.o8i_rows on AVX-512, knob on
        bool stream; // desc.nt
    };
    const rows_case_t cases[] = { { { 1024, 768, 3, 3 }, "oihw", "OIhw8o8i", 9, true },
        { { 1000, 760, 3, 3 }, "oihw", "OIhw8o8i", 9, true }, // padded O and I: edge calls
        { { 8, 128, 768, 3, 3 }, "goihw", "gOIhw8o8i", 9, true },
        { { 512, 512, 5, 5 }, "oihw", "OIhw8o8i", 25, true },
        { { 256, 512, 7, 7 }, "oihw", "OIhw8o8i", 49, true },
        { { 1024, 768, 4, 4 }, "oihw", "OIhw8o8i", 16, true },
        { { 256, 256, 3, 3 }, "oihw", "OIhw8o8i", 9, false }, // cached
        { { 64, 64, 3, 3 }, "oihw", "OIhw8o8i", 9, false },   // in L2
        { { 64, 64, 2, 8 }, "oihw", "OIhw8o8i", 16, false },
        { { 64, 64, 1, 9 }, "oihw", "OIhw8o8i", 9, false },
        { { 64, 64, 8, 8 }, "oihw", "OIhw8o8i", 64, false },
        { { 40, 48, 5, 3 }, "oihw", "OIhw8o8i", 15, false },
        { { 32, 32, 5, 13 }, "oihw", "OIhw8o8i", 0, false }, // A of 65
        { { 64, 64, 2, 2 }, "oihw", "OIhw8o8i", 0, false },  // A of 4
        { { 64, 64, 1, 7 }, "oihw", "OIhw8o8i", 0, false },  // A of 7
        { { 64, 64, 3, 3 }, "oihw", "OIhw8i8o", 0, false } };
    uint32_t seed = 2100;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool zmm = isa == cpu_isa_t::avx512_core;
        for (const rows_case_t &rc : cases) {
            jit_case_t c = jit_case_t::of(rc.dims, relayout_f32, relayout_f32, rc.stag, rc.dtag);
            x64::jit_reorder_desc_t d;
            ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
            const int rows = zmm && knob != 0 ? rc.rows : 0;
            EXPECT_EQ(d.o8i_rows, rows) << c.str();
            if (zmm) EXPECT_EQ(d.nt, rc.stream) << c.str();
            EXPECT_EQ(d.o8i_staged, rows != 0 && rc.stream && knob != 2) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
        }
        // 5x5, 7x7: 32 I blocks per call (jit_o8i_block_call, with the row
        // windows only; RELAYOUT_JIT_O8I_BLOCKS), else one (AVX-512).
        const int blocks = knob != 0 ? getenv_int("RELAYOUT_JIT_O8I_BLOCKS", 32) : 0;
        for (const auto &dims : { std::vector<dim_t>{ 512, 512, 5, 5 }, { 256, 512, 7, 7 } }) {
            if (!zmm) break;
            const x64::jit_reorder_desc_t d = desc_of(
                    jit_case_t::of(dims, relayout_f32, relayout_f32, "oihw", "OIhw8o8i"), isa);
            EXPECT_EQ(d.nloops == 1 ? d.loop_n[0] : 1, blocks > 0 ? blocks : 1) << dims[2];
        }
        // Odd src strides: o rows of 256 x 9 + 3 f32 (windows off the
        // half lines), i of 11 (not one run: the row tiles).
        jit_case_t c =
                jit_case_t::of({ 256, 256, 3, 3 }, relayout_f32, relayout_f32, "oihw", "OIhw8o8i");
        c.sstrides = { 256 * 9 + 3, 9, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).o8i_rows, zmm && knob != 0 ? 9 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
        c.sstrides = { 256 * 11, 11, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).o8i_rows, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
        c.sstrides.clear();
        // s32 (a 4-byte bit copy) too; bf16 and a src scale not.
        c.sdt = c.ddt = relayout_s32;
        EXPECT_EQ(desc_of(c, isa).o8i_rows, zmm && knob != 0 ? 9 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
        c.sdt = c.ddt = relayout_bf16;
        EXPECT_EQ(desc_of(c, isa).o8i_rows, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
        c.sdt = c.ddt = relayout_f32;
        c.src_scale_mask = 0;
        x64::jit_reorder_desc_t ds;
        case_desc(c, isa, ds);
        EXPECT_EQ(ds.o8i_rows, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
    }
}

// Plain 3x3 weights to B-contiguous dst rows (oihw -> OIhw16o16i, ohwi,
// goihw -> gOIhw16o16i): A = 9 hw, B = i of src stride 9, so a full
// tile's 16 B rows are one src run of 144 f32, dealt from 9 whole
// vectors into its 9 dst rows (desc.run_deal). Bit-exact streamed
// (large) and cached, one B tile per call and a loop of them (ohwi: up to
// 64), with edge calls (padded O or I: the usual tiles), odd src strides
// (unaligned loads) and odd dst strides (cached stores in a streaming
// kernel); not B that is not whole tiles, not other A or types, not
// within L2 (run_deal_min_bytes), not on AVX2. In pairs (desc.run_pairs;
// ctest runs it again with RELAYOUT_JIT_RUN_PAIRS=0): ohwi's B tiles two
// by two, an odd last one alone (48 i: 3 tiles), none for one tile (16
// i); OIhw16o16i's o loop folded into the tile loop (one baked loop
// less), none where it is the driver's (padded O).
TEST(jit_reorder, RunDealTiles) {
    const bool pairs = getenv_int("RELAYOUT_JIT_RUN_PAIRS", 1) != 0;
    struct deal_case_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        bool deal;        // on AVX-512
        bool pair = true; // (when dealt)
    };
    const deal_case_t cases[] = { { { 1024, 768, 3, 3 }, "oihw", "OIhw16o16i", true },
        { { 512, 512, 3, 3 }, "oihw", "OIhw16o16i", true },         // cached (19 MB)
        { { 128, 128, 3, 3 }, "oihw", "OIhw16o16i", false },        // in L2: the usual tiles
        { { 1000, 768, 3, 3 }, "oihw", "OIhw16o16i", true, false }, // padded O: edge calls
        // (and the o loop in the driver: no pairs)
        { { 256, 760, 3, 3 }, "oihw", "OIhw16o16i", true }, // padded I
        { { 4, 256, 256, 3, 3 }, "goihw", "gOIhw16o16i", true },
        { { 1024, 1024, 3, 3 }, "oihw", "ohwi", true }, // 64 tiles per call
        { { 2560, 48, 3, 3 }, "oihw", "ohwi", true },
        { { 8192, 16, 3, 3 }, "oihw", "ohwi", true, false },
        { { 4096, 32, 3, 3 }, "oihw", "ohwi", true },  // one pair
        { { 2048, 80, 3, 3 }, "oihw", "ohwi", true },  // two pairs and a tile
        { { 64, 1000, 3, 3 }, "oihw", "ohwi", false }, // B not whole tiles
        { { 64, 64, 1, 3 }, "oihw", "ohwi", false },   // A of 3
        { { 128, 128, 5, 5 }, "oihw", "OIhw16o16i", false },
        { { 128, 128, 3, 3 }, "oihw", "OIhw16i16o", false } };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool zmm = isa == cpu_isa_t::avx512_core;
        for (const auto &dc : cases) {
            jit_case_t c = jit_case_t::of(dc.dims, relayout_f32, relayout_f32, dc.stag, dc.dtag);
            const x64::jit_reorder_desc_t dd = desc_of(c, isa);
            EXPECT_EQ(dd.run_deal, zmm && dc.deal ? 9 : 0) << c.str();
            EXPECT_EQ(dd.run_pairs, pairs && zmm && dc.deal && dc.pair) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        }
        jit_case_t c = jit_case_t::of(
                { 1024, 768, 3, 3 }, relayout_f32, relayout_f32, "oihw", "OIhw16o16i");
        // Streamed, fenced once in the driver, and each call a block of
        // (O, I) blocks (12 of the 48 I blocks, baked outside the o loop).
        const x64::jit_reorder_desc_t d16 = desc_of(c, isa);
        EXPECT_TRUE(d16.nt) << c.str();
        if (zmm) {
            EXPECT_TRUE(d16.fence_in_driver) << c.str();
            ASSERT_EQ(d16.nloops, 2) << c.str();
            EXPECT_EQ(d16.loop_n[0], 12) << c.str();
            EXPECT_EQ(d16.loop_is[0], 144) << c.str();
            EXPECT_EQ(d16.loop_n[1], 16) << c.str();
            EXPECT_EQ(d16.loop_os[1], 16) << c.str(); // (the pairs' o: a line apart)
            EXPECT_EQ(d16.run_pairs, pairs) << c.str();
        }
        // Odd src strides: o rows of 768 x 9 + 3 f32 (the tiles' loads off
        // the lines).
        c.sstrides = { 768 * 9 + 3, 9, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).run_deal, zmm ? 9 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.sstrides.clear();
        // Odd dst strides (ohwi o rows of 1024 x 9 + 5 f32): every call's
        // dst off the lines, cached stores of a streaming kernel.
        c = jit_case_t::of({ 1024, 1024, 3, 3 }, relayout_f32, relayout_f32, "oihw", "ohwi");
        c.dstrides = { 1024 * 9 + 5, 1, 3 * 1024, 1024 };
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_EQ(d.run_deal, zmm ? 9 : 0) << c.str();
        EXPECT_TRUE(d.nt) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        // The value path (a src scale) and other types keep their tiles.
        c = jit_case_t::of({ 128, 128, 3, 3 }, relayout_f32, relayout_f32, "oihw", "OIhw16o16i");
        c.src_scale_mask = 0;
        x64::jit_reorder_desc_t ds;
        case_desc(c, isa, ds);
        EXPECT_EQ(ds.run_deal, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.src_scale_mask = -1;
        c.sdt = c.ddt = relayout_s32;
        c.dims = { 512, 512, 3, 3 };
        EXPECT_EQ(desc_of(c, isa).run_deal, zmm ? 9 : 0) << c.str(); // (4-byte bit copy)
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.sdt = c.ddt = relayout_bf16;
        EXPECT_EQ(desc_of(c, isa).run_deal, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// 16o16i blocked weights to plain with a B of 9 to 15 lanes (3x3, 2x5,
// 3x5): the o loop continues A's src run and is baked innermost
// (kernel_plan_params_t::a_run_loop, AVX-512), and on AVX-512 the full
// tiles' 16 rows, adjacent in the dst, are packed through the stack and
// stored as whole streamed lines (desc.packed_rows; streamed kernels
// only; AVX2: desc.ymm_packed, YmmPackedRows). Bit-exact streamed and cached, with edge tiles
// (padded I, padded O), odd dst strides (cached: not packed), groups, B of 8 and 4 (not packed),
// and with the value path (a src scale: not packed).
TEST(jit_reorder, PackedRows) {
    struct packed_case_t {
        std::vector<dim_t> dims;
        const char *stag;
        bool packed; // on AVX-512
    };
    const packed_case_t cases[] = { { { 1024, 768, 3, 3 }, "ABcd16a16b", true },
        // Padded I of a 3x3: the o loop's dst step (760 x 9 f32) is not
        // whole lines, so the kernel is cached (d.nt off): not packed.
        { { 1024, 760, 3, 3 }, "ABcd16a16b", false },
        // Padded I whose o rows stay whole lines (1000 x 10 f32): packed
        // full tiles, then edge tiles.
        { { 1024, 1000, 2, 5 }, "ABcd16a16b", true },
        { { 1000, 768, 3, 3 }, "ABcd16a16b", true }, // padded O
        { { 1024, 1024, 2, 5 }, "ABcd16a16b", true }, { { 528, 1024, 3, 5 }, "ABcd16a16b", true },
        { { 4, 512, 512, 3, 3 }, "aBCde16b16c", true }, // groups
        // B of 8: the 8x8 ymm tiles (rows adjacent: whole streamed
        // lines already), not zmm tiles: not packed.
        { { 1024, 1024, 2, 4 }, "ABcd16a16b", false },
        { { 2048, 1024, 2, 2 }, "ABcd16a16b", false }, // B of 4
        { { 128, 128, 3, 3 }, "ABcd16a16b", false } }; // cached
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool zmm = isa == cpu_isa_t::avx512_core;
        for (const auto &pc : cases) {
            jit_case_t c = jit_case_t::of(pc.dims, relayout_f32, relayout_f32, pc.stag,
                    pc.dims.size() == 5 ? "abcde" : "abcd");
            EXPECT_EQ(desc_of(c, isa).packed_rows, zmm && pc.packed) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        }
        jit_case_t c = jit_case_t::of(
                { 1024, 768, 3, 3 }, relayout_f32, relayout_f32, "ABcd16a16b", "abcd");
        // The o loop baked innermost: each call reads one dense src block.
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        ASSERT_GE(d.nloops, 1) << c.str();
        if (zmm) {
            EXPECT_EQ(d.loop_is[d.nloops - 1], 16) << c.str();
        }
        // Streamed on both: AVX2 through its own packed rows (the 8x8
        // tiles' rows of a B of 9 are half lines apart, cached).
        EXPECT_TRUE(d.nt) << c.str();
        EXPECT_EQ(d.ymm_packed, !zmm) << c.str();
        // Odd dst strides: the o loop's dst rows not whole lines apart
        // (cached: not packed).
        c.dstrides = { 768 * 9 + 5, 9, 3, 1 };
        EXPECT_FALSE(desc_of(c, isa).packed_rows) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.dstrides.clear();
        // A common src scale (0.5: the value path). case_desc, not desc_of:
        // desc_of plans without attributes, which is a bit copy.
        c.src_scale_mask = 0;
        x64::jit_reorder_desc_t ds;
        case_desc(c, isa, ds);
        EXPECT_FALSE(ds.bit_copy) << c.str();
        EXPECT_FALSE(ds.packed_rows) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// 8i8o blocked weights to plain with a B of 9 to 15 lanes (3x3, 2x5,
// 3x5; A = 8 o): on AVX-512 the zmm tiles of 8 rows and TB lanes
// (short_b_zmm), not the AVX2 8x8 tiles with a one-lane edge tile per A
// position. Bit-exact, with padded O and I.
TEST(jit_reorder, ShortBZmm) {
    const std::vector<std::vector<dim_t>> cases = { { 256, 128, 3, 3 }, { 64, 40, 2, 5 },
        { 20, 36, 3, 5 }, { 44, 64, 3, 3 } };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const auto &dims : cases) {
            jit_case_t c = jit_case_t::of(dims, relayout_f32, relayout_f32, "ABcd8b8a", "abcd");
            const x64::jit_reorder_desc_t d = desc_of(c, isa);
            EXPECT_EQ(d.isa, isa) << c.str();
            EXPECT_EQ(d.n[0], 8) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        }
    }
}

// 16i16o blocked weights to plain whose B is not whole tiles (3x3, 5x5,
// 3x3x3 filters): the call's B positions under the baked i loop run
// flattened as whole 16 x 16 tiles (AVX2: 8x16 pairs of 8x8 tiles), each
// dst row whole lines (desc.flat_b). Bit-exact cached (small) and
// streamed (large, with the prefetch of the next block), with an outer
// baked loop (groups), odd dst strides (cached, also in a streaming
// kernel), and with edge calls (padded O) that take the usual tiles,
// cached also in a streaming kernel; only for f32 bit copies.
TEST(jit_reorder, FlatShortBTiles) {
    const flat_case_t flat_cases[] = { { { 128, 128, 3, 3 }, "OIhw16i16o", "oihw", 144 },
        { { 1024, 768, 3, 3 }, "OIhw16i16o", "oihw", 144 },
        { { 1000, 768, 3, 3 }, "OIhw16i16o", "oihw", 144 }, // edge calls (padded O)
        { { 250, 256, 3, 3 }, "OIhw16i16o", "oihw", 144 },  // edge calls, cached
        // B of more than a tile (5x5, 3x3x3): cached, streamed (large), with edge calls
        { { 64, 64, 5, 5 }, "OIhw16i16o", "oihw", 400 },
        { { 416, 640, 5, 5 }, "OIhw16i16o", "oihw", 400 },
        { { 408, 640, 5, 5 }, "OIhw16i16o", "oihw", 400 },
        { { 128, 128, 3, 3, 3 }, "ABcde16b16a", "abcde", 432 },
        // padded I: the i loop in the driver, not flattened
        { { 1040, 760, 3, 3 }, "OIhw16i16o", "oihw", 0 },
        { { 250, 248, 3, 3 }, "OIhw16i16o", "oihw", 0 },
        { { 4, 64, 64, 3, 3 }, "aBCde16c16b", "abcde", 144 } }; // outer baked loop
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        run_flat_cases(flat_cases, isa, &x64::jit_reorder_desc_t::flat_b);
        jit_case_t c;
        c.stag = "OIhw16i16o";
        c.dtag = "oihw";
        // Large: streamed, the src block prefetched ahead.
        c.dims = { 1024, 768, 3, 3 };
        EXPECT_TRUE(desc_of(c, isa).nt) << c.str();
        EXPECT_EQ(pf(c, isa), 16 * 1024) << c.str();
        // Odd dst strides: o rows of 128 x 9 + 5 elements (cached; large:
        // a streaming kernel whose flattened tiles store cached).
        c.dims = { 128, 128, 3, 3 };
        c.dstrides = { 128 * 9 + 5, 9, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).flat_b, 144) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.dims = { 1024, 768, 3, 3 };
        c.dstrides = { 768 * 9 + 5, 9, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).flat_b, 144) << c.str();
        EXPECT_TRUE(desc_of(c, isa).nt) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.dstrides.clear();
        // B of more than a tile (5x5, 3x3x3): the flattened tiles prefetch the
        // next block too (a call's 16 x 16 x 25 or 27 f32), edge calls (padded
        // O) included.
        c.dims = { 408, 640, 5, 5 };
        EXPECT_TRUE(desc_of(c, isa).nt) << c.str();
        EXPECT_EQ(pf(c, isa), 16 * 16 * 25 * 4) << c.str();
        c.dims = { 456, 528, 3, 3, 3 };
        c.stag = "ABcde16b16a";
        c.dtag = "abcde";
        EXPECT_EQ(desc_of(c, isa).flat_b, 432) << c.str();
        EXPECT_EQ(pf(c, isa), 16 * 16 * 27 * 4) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.stag = "OIhw16i16o";
        c.dtag = "oihw";
        check_flat_b_whole_tiles(isa);
        // Not flattened: whole B tiles (4x4) in the caches, value paths,
        // other types; more than 32 tiles in a loop (7x7: FlatShortBLoop,
        // YmmFlatShortBLoop).
        for (const auto &dims : { std::vector<dim_t>{ 256, 256, 4, 4 }, { 64, 64, 7, 7 } }) {
            c.dims = dims;
            const bool looped = dims[2] == 7;
            EXPECT_EQ(desc_of(c, isa).flat_b, looped ? 784 : 0) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        }
        c.dims = { 128, 128, 3, 3 };
        check_flat_b_value_paths(c, isa);
    }
}

// A streamed problem whose flattened short-B tiles at `isa` take fc.flat
// positions and prefetch the next block `pf_bytes` ahead (the other ISA
// flattens it too); with `odd` dst strides (o rows not whole lines apart:
// a streaming kernel whose flattened tiles store cached) bit-exact too.
void check_flat_b_streamed(const flat_case_t &fc, dim_t pf_bytes, std::vector<dim_t> odd,
        cpu_isa_t isa = cpu_isa_t::avx512_core) {
    jit_case_t c;
    c.dims = fc.dims;
    c.stag = fc.stag;
    c.dtag = fc.dtag;
    EXPECT_TRUE(desc_of(c, isa).nt) << c.str();
    EXPECT_EQ(pf(c, isa), pf_bytes) << c.str();
    for (cpu_isa_t i : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 })
        EXPECT_EQ(desc_of(c, i).flat_b, fc.flat) << c.str();
    if (odd.empty()) return;
    c.dstrides = std::move(odd);
    EXPECT_EQ(desc_of(c, isa).flat_b, fc.flat) << c.str();
    EXPECT_TRUE(desc_of(c, isa).nt) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
}

// Flattened short-B tiles of more than 32 tiles (7x7: 784 positions,
// 5x5x5: 2000) run in a loop on AVX-512, each position's src offset from
// a table (AVX2: YmmFlatShortBLoop). Bit-exact cached and streamed (with the
// prefetch of the next block: 5x5x5 one block of 125 KiB ahead), with edge
// calls (padded O), odd dst strides (cached), an outer baked loop
// (groups), and the largest B the i loop is baked with (127: 2032).
TEST(jit_reorder, FlatShortBLoop) {
    const flat_case_t flat_cases[] = { { { 64, 64, 7, 7 }, "OIhw16i16o", "oihw", 784 },
        { { 56, 64, 7, 7 }, "OIhw16i16o", "oihw", 784 },   // edge calls
        { { 384, 352, 7, 7 }, "OIhw16i16o", "oihw", 784 }, // streamed
        { { 376, 352, 7, 7 }, "OIhw16i16o", "oihw", 784 }, // streamed, edge calls
        { { 64, 64, 5, 5, 5 }, "ABcde16b16a", "abcde", 2000 },
        { { 200, 256, 5, 5, 5 }, "ABcde16b16a", "abcde", 2000 }, // streamed, edge calls
        { { 64, 64, 1, 127 }, "OIhw16i16o", "oihw", 2032 },      // the largest baked i loop
        { { 16, 32, 32, 7, 7 }, "aBCde16c16b", "abcde", 784 } }; // outer baked loop
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) return;
    run_flat_cases(flat_cases, isa, &x64::jit_reorder_desc_t::flat_b);
    check_flat_b_streamed(flat_cases[5], 16 * 16 * 125 * 4, {});                        // 5x5x5
    check_flat_b_streamed(flat_cases[3], 16 * 16 * 49 * 4, { 352 * 49 + 5, 49, 7, 1 }); // 7x7
}

// The same loop on AVX2 (gen_ymm_flat_b_loop: each 16 positions two 8x16
// tile pairs). Bit-exact cached and streamed (the next block prefetched),
// just over the unrolled tiles (3x11: 33 tiles), with edge calls (odd and
// padded O), a padded I (not flattened), odd dst strides (cached stores in
// a streaming kernel), an outer baked loop (groups), the largest baked i
// loop, value paths (a scale; bf16 not flattened); and the shapes beside
// it (1x7, 3x3x3, 5x5: unrolled, 2x2: YmmFlatShortBLanes).
TEST(jit_reorder, YmmFlatShortBLoop) {
    const flat_case_t flat_cases[] = { { { 64, 64, 7, 7 }, "OIhw16i16o", "oihw", 784 },
        { { 57, 64, 7, 7 }, "OIhw16i16o", "oihw", 784 },   // odd O: edge calls
        { { 64, 56, 7, 7 }, "OIhw16i16o", "oihw", 0 },     // padded I: not flattened
        { { 64, 64, 3, 11 }, "OIhw16i16o", "oihw", 528 },  // 33 tiles: the loop
        { { 64, 64, 1, 7 }, "OIhw16i16o", "oihw", 112 },   // 7 tiles: unrolled
        { { 384, 352, 7, 7 }, "OIhw16i16o", "oihw", 784 }, // streamed
        { { 376, 352, 7, 7 }, "OIhw16i16o", "oihw", 784 }, // streamed, edge calls
        { { 64, 64, 5, 5, 5 }, "ABcde16b16a", "abcde", 2000 },
        { { 200, 256, 5, 5, 5 }, "ABcde16b16a", "abcde", 2000 }, // streamed, edge calls
        { { 64, 64, 3, 3, 3 }, "ABcde16b16a", "abcde", 432 },    // 27 tiles: unrolled
        { { 64, 64, 1, 127 }, "OIhw16i16o", "oihw", 2032 },      // the largest baked i loop
        { { 16, 32, 32, 7, 7 }, "aBCde16c16b", "abcde", 784 } }; // outer baked loop
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "avx2 not available";
    run_flat_cases(flat_cases, isa, &x64::jit_reorder_desc_t::flat_b);
    check_flat_b_streamed(flat_cases[8], 16 * 16 * 125 * 4, {}, isa); // 5x5x5
    check_flat_b_streamed(flat_cases[6], 16 * 16 * 49 * 4, { 352 * 49 + 5, 49, 7, 1 }, isa); // 7x7
    jit_case_t c;
    c.stag = "OIhw16i16o";
    c.dtag = "oihw";
    c.dims = { 57, 64, 7, 7 };
    check_flat_b_value_paths(c, isa);
}

// 2x2 (1x2) weights to plain are interleaves (16 i x 4 (2) folded hw
// lanes, dst-contiguous): large ones (streamed) on AVX-512 run the lanes
// flattened as whole 16 x 16 tiles, each dst row whole lines (desc.flat_b
// of jit_flat_b_lanes). Bit-exact with the prefetch of the next block,
// with edge calls (padded O: the usual tiles), odd dst strides (cached
// stores), a baked loop (I blocks) around the tiles; not in the caches,
// on AVX2, nor for value paths. Their tiles load quads and the driver
// fences (desc.quad_ld, fence_in_driver; odd dst strides too).
TEST(jit_reorder, FlatShortBLanes) {
    const flat_case_t flat_cases[] = { { { 1280, 1280, 2, 2 }, "OIhw16i16o", "oihw", 64 },
        { { 1272, 1280, 2, 2 }, "OIhw16i16o", "oihw", 64 }, // edge calls
        { { 3072, 512, 2, 2 }, "OIhw16i16o", "oihw", 64 },  // a baked loop
        { { 2048, 1536, 1, 2 }, "OIhw16i16o", "oihw", 32 },
        { { 256, 256, 2, 2 }, "OIhw16i16o", "oihw", 0 } }; // cached
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) return;
    run_flat_cases(flat_cases, isa, &x64::jit_reorder_desc_t::flat_b);
    check_flat_b_streamed(flat_cases[1], 16 * 1024, { 1280 * 4 + 5, 4, 2, 1 });
    jit_case_t c;
    c.stag = "OIhw16i16o";
    c.dtag = "oihw";
    for (const auto &fc : flat_cases) {
        c.dims = fc.dims;
        EXPECT_EQ(desc_of(c, isa).quad_ld, fc.flat != 0) << c.str();
        EXPECT_EQ(desc_of(c, isa).fence_in_driver, desc_of(c, isa).nt) << c.str();
    }
    c.dims = flat_cases[1].dims;
    c.dstrides = { 1280 * 4 + 5, 4, 2, 1 };
    EXPECT_TRUE(desc_of(c, isa).quad_ld && desc_of(c, isa).fence_in_driver) << c.str();
    c.dstrides.clear();
    c.dims = { 256, 256, 2, 2 };
    check_flat_b_value_paths(c, isa);
}

// The same lanes on AVX2 (jit_ymm_flat_b_lanes: each 16 lanes two 8x16
// tile pairs of the AVX2 flattened tiles), streamed only. Bit-exact with
// the prefetch of the next block, with edge calls (odd O), odd dst strides
// (cached stores), a baked loop (I blocks), a padded I; not in the caches,
// nor for value paths.
TEST(jit_reorder, YmmFlatShortBLanes) {
    const flat_case_t flat_cases[] = { { { 1280, 1280, 2, 2 }, "OIhw16i16o", "oihw", 64 },
        { { 1271, 1280, 2, 2 }, "OIhw16i16o", "oihw", 64 }, // odd O: edge calls
        { { 3072, 512, 2, 2 }, "OIhw16i16o", "oihw", 64 },  // a baked loop
        { { 2048, 1536, 1, 2 }, "OIhw16i16o", "oihw", 32 },
        { { 1280, 1272, 2, 2 }, "OIhw16i16o", "oihw", 64 }, // padded I
        { { 256, 256, 2, 2 }, "OIhw16i16o", "oihw", 0 } };  // cached
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "avx2 not available";
    run_flat_cases(flat_cases, isa, &x64::jit_reorder_desc_t::flat_b);
    check_flat_b_streamed(flat_cases[1], 16 * 1024, { 1280 * 4 + 5, 4, 2, 1 }, isa);
    jit_case_t c;
    c.stag = "OIhw16i16o";
    c.dtag = "oihw";
    c.dims = { 1280, 1280, 2, 2 };
    check_flat_b_value_paths(c, isa);
}

// Plain weights to 16i16o blocks with a short A (3x3, 5x5, 3x3x3 filters;
// 4x4 when large, on AVX-512):
// the call's A positions under the baked i loop run flattened as whole
// 16 x 16 tiles (AVX2: pairs of 8x8 tiles, whole dst lines; desc.flat_a).
// Bit-exact cached and streamed (large), with an outer baked loop, odd
// src strides, and with edge calls (O not whole blocks) that take the
// usual tiles; only for f32 bit copies whose i loop is baked.
TEST(jit_reorder, FlatShortATiles) {
    const flat_case_t flat_cases[] = { { { 128, 128, 3, 3 }, "oihw", "OIhw16i16o", 144 },
        { { 256, 256, 5, 5 }, "oihw", "OIhw16i16o", 400 },
        { { 250, 256, 3, 3 }, "oihw", "OIhw16i16o", 144 },
        { { 1024, 768, 3, 3 }, "oihw", "OIhw16i16o", 144 },
        { { 1000, 768, 3, 3 }, "oihw", "OIhw16i16o", 144 }, // large, edge calls
        { { 128, 128, 3, 3, 3 }, "abcde", "ABcde16b16a", 432 },
        // 2x2 (A = 4: the AVX2 tiles on AVX-512 too), cached and large
        { { 256, 256, 2, 2 }, "oihw", "OIhw16i16o", 64 },
        { { 2048, 1024, 2, 2 }, "oihw", "OIhw16i16o", 64 },
        // an outer baked loop (I blocks) around the flattened one
        { { 4, 64, 64, 3, 3 }, "abcde", "aBCde16c16b", 144 } };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        run_flat_cases(flat_cases, isa, &x64::jit_reorder_desc_t::flat_a);
        jit_case_t c;
        c.stag = "oihw";
        c.dtag = "OIhw16i16o";
        // Whole A tiles: large only, and not on AVX2 (its 8x16 tiles).
        c.dims = { 1024, 528, 4, 4 };
        EXPECT_EQ(desc_of(c, isa).flat_a, isa == cpu_isa_t::avx512_core ? 256 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        // The L2 prefetch two calls ahead: large problems only.
        c.dims = { 1024, 768, 3, 3 };
        EXPECT_EQ(desc_of(c, isa).flat_pf, 2 * 144 * 4) << c.str();
        c.dims = { 128, 128, 3, 3 };
        EXPECT_EQ(desc_of(c, isa).flat_pf, 0) << c.str();
        // Odd src strides: rows of 128 x 9 + 7 elements.
        c.dims = { 128, 128, 3, 3 };
        c.sstrides = { 128 * 9 + 7, 9, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).flat_a, 144) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.sstrides.clear();
        // Not flattened: whole A tiles (4x4) in the caches, the i loop in the driver (small,
        // padded I), value paths, other types.
        for (const auto &dims :
                { std::vector<dim_t>{ 256, 256, 4, 4 }, { 64, 48, 3, 3 }, { 250, 248, 3, 3 } }) {
            c.dims = dims;
            EXPECT_EQ(desc_of(c, isa).flat_a, 0) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        }
        c.dims = { 128, 128, 3, 3 };
        c.src_scale_mask = 0; // (desc_of has no attributes)
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.src_scale_mask = -1;
        // 16-bit dsts: word pairs on AVX-512 only (FlatWordPairs).
        c.sdt = c.ddt = relayout_bf16;
        EXPECT_EQ(desc_of(c, isa).flat_a, 0) << c.str();
        EXPECT_EQ(desc_of(c, isa).flat_pairs, isa == cpu_isa_t::avx512_core ? 72 : 0) << c.str();
        c.sdt = relayout_f32;
        c.ddt = relayout_f16; // (a conversion other than to bf16)
        EXPECT_EQ(desc_of(c, isa).flat_a, 0) << c.str();
    }
}

// The A-run split tests' large case (oihw -> hwio 1024 x 768 x 3x3): B of
// `b` o rows, the plan `kplan_expect`; then odd src strides (o rows of 768
// x 9 + 7 elements), cached and streamed. Returns the case (plain strides).
jit_case_t check_run_split_large(cpu_isa_t isa, dim_t b, const char *kplan_expect) {
    jit_case_t c = jit_case_t::of({ 1024, 768, 3, 3 }, relayout_f32, relayout_f32, "oihw", "hwio");
    EXPECT_EQ(desc_of(c, isa).n[1], b) << c.str();
    std::string kplan;
    case_kplan(c, isa, kplan);
    EXPECT_NE(kplan.find(kplan_expect), std::string::npos) << kplan;
    for (dim_t o : { 32, 1024 }) {
        c.dims = { o, 768, 3, 3 };
        c.sstrides = { 768 * 9 + 7, 9, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).flat_a, 144) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
    c.sstrides.clear();
    return c;
}

// A short A under a loop continuing it too long to bake whole (oihw ->
// hwio: A = hw, the i loop of src stride hw; AVX-512 f32 bit copies): a
// block of 16 i is baked (kernel_plan_params_t::a_run_split), its outer
// part the innermost driver node, and the calls run the flattened short-A
// tiles, of 16 o rows or, large (streamed far rows), the pairs' 32 (two
// B tiles per 16 positions, jit_flat_a_tiles). Bit-exact cached and
// large, with edge calls (O not whole blocks: the usual tiles), odd src
// strides, 2x2 and 1x3; not split where the count is not a multiple of
// 16, A is not short (5x5) or the loop fits whole; AVX2: FlatShortARunSplitAvx2.
TEST(jit_reorder, FlatShortARunSplit) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const flat_case_t cases[] = { { { 32, 512, 3, 3 }, "oihw", "hwio", 144 },
        { { 1024, 768, 3, 3 }, "oihw", "hwio", 144 }, // streamed: B = 32
        { { 1000, 768, 3, 3 }, "oihw", "hwio", 144 }, // edge calls
        { { 64, 1024, 2, 2 }, "oihw", "hwio", 64 }, { { 64, 1024, 1, 3 }, "oihw", "hwio", 48 },
        { { 128, 1000, 3, 3 }, "oihw", "hwio", 0 }, { { 128, 512, 5, 5 }, "oihw", "hwio", 0 },
        { { 128, 128, 3, 3 }, "oihw", "hwio", 0 } }; // (the i loop baked whole)
    run_flat_cases(cases, isa, &x64::jit_reorder_desc_t::flat_a);
    jit_case_t c = check_run_split_large(
            isa, 32, "loops:[16 9 1024 d1] driver:[32 221184 32 d0*32 /1][48 144 16384 d1*16]");
    c.dims = { 32, 512, 3, 3 };
    EXPECT_EQ(desc_of(c, isa).n[1], 16) << c.str();
}

// AVX2 f32 bit copies of far B rows (o rows a page or more apart): the
// same split alone (no A-run loop baked whole), a block of 16 i, so that
// the calls run the AVX2 flattened short-A tiles of 16 o rows (8x16 tile
// pairs). Bit-exact cached and streamed, with edge calls, odd src
// strides, 2x2 and 1x3, the i loop short enough to bake whole (AVX2 splits
// it too); not split where the count is not a multiple of 16, A is not
// short (5x5), the o rows are near (64 x 9 f32) or the copy converts.
TEST(jit_reorder, FlatShortARunSplitAvx2) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    const flat_case_t cases[] = { { { 32, 512, 3, 3 }, "oihw", "hwio", 144 },
        { { 1024, 768, 3, 3 }, "oihw", "hwio", 144 }, // streamed
        { { 1000, 768, 3, 3 }, "oihw", "hwio", 144 }, // edge calls
        { { 64, 1024, 2, 2 }, "oihw", "hwio", 64 }, { { 64, 1024, 1, 3 }, "oihw", "hwio", 48 },
        { { 128, 128, 3, 3 }, "oihw", "hwio", 144 }, // (the i loop fits whole)
        { { 128, 1000, 3, 3 }, "oihw", "hwio", 0 }, { { 128, 512, 5, 5 }, "oihw", "hwio", 0 },
        { { 128, 64, 3, 3 }, "oihw", "hwio", 0 } }; // near o rows
    run_flat_cases(cases, isa, &x64::jit_reorder_desc_t::flat_a);
    jit_case_t c = check_run_split_large(
            isa, 16, "loops:[16 9 1024 d1] driver:[64 110592 16 d0*16 /1][48 144 16384 d1*16]");
    std::string kplan;
    // Near o rows whose i loop runs outside B blocks (B of 3640 o): not split.
    c.dims = { 4096, 64, 3, 3 };
    case_kplan(c, isa, kplan);
    EXPECT_NE(kplan.find("loops: driver:"), std::string::npos) << kplan;
    c.dims = { 32, 512, 3, 3 };
    for (data_type_t ddt : { relayout_s32, relayout_bf16 }) { // conversions
        c.ddt = ddt;
        case_kplan(c, isa, kplan);
        EXPECT_NE(kplan.find("loops: driver:"), std::string::npos) << kplan;
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// AVX-512 f32 bit copies whose innermost driver node jumps pages in the
// src (hwio -> OIhw16i16o: the I blocks, 16 rows of O elements) take the
// blocks continuing the copy's run (the O blocks, src stride 16) innermost
// (kernel_plan_params_t::copy_blocks_inner): consecutive calls read the
// next line of the same rows. Bit-exact with whole and padded
// I (checked blocks), odd strides; not for rows under a page (small O) or
// without the run's blocks in the driver (1x1: hwio is io). Conversions
// of f32 to narrower types likewise (jit_cvt_blocks_inner: hwio ->
// OIhw16i16o, nhwc -> nChw16c, with scales), not to 4-byte types.
TEST(jit_reorder, CopyBlocksInner) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    auto inner = [&](const jit_case_t &k) {
        std::string kplan;
        case_kplan(k, isa, kplan);
        return kplan.find(" d0*16", kplan.rfind('[')) != std::string::npos;
    };
    // (f32: with the copy's run loop baked, the O blocks are the
    // innermost baked loop instead, see CopyRunLoop.)
    const bool f32_inner = !x64::jit_copy_run_loop();
    jit_case_t c =
            jit_case_t::of({ 256, 512, 3, 3 }, relayout_f32, relayout_f32, "hwio", "OIhw16i16o");
    for (const auto &dims : { std::vector<dim_t>{ 256, 512, 3, 3 }, { 1024, 200, 3, 3 },
                 { 1024, 200, 3, 3 }, { 1024, 1024, 3, 3 } }) {
        c.dims = dims;
        EXPECT_EQ(inner(c), f32_inner) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
    c.dims = { 256, 512, 3, 3 };
    c.sstrides = { 1, 259, 512 * 259 + 5, 3 * (512 * 259 + 5) };
    EXPECT_EQ(inner(c), f32_inner) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    c.sstrides.clear();
    for (const auto &dims : { std::vector<dim_t>{ 32, 512, 3, 3 }, { 64, 256, 1, 1 } }) {
        c.dims = dims; // i rows of 128 B; 1x1
        EXPECT_FALSE(inner(c)) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
    c.dims = { 256, 512, 3, 3 };
    for (data_type_t ddt : { relayout_bf16, relayout_f16, relayout_s8, relayout_u8 }) {
        c.ddt = ddt;
        c.src_scale_mask = ddt == relayout_s8 ? 0 : -1;
        EXPECT_TRUE(inner(c)) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
    c.src_scale_mask = -1;
    c.ddt = relayout_s32;
    EXPECT_FALSE(inner(c)) << c.str();
    // nhwc -> nChw16c, C = 200 (a padded block): the channel blocks (src
    // stride 16) innermost, the plane's halves (2 MiB apart) outside
    // them. (C = 256: the channel blocks in the call, CopySrcRows.)
    for (dim_t C : { 256, 200 })
        for (data_type_t ddt : { relayout_bf16, relayout_u8 }) {
            jit_case_t k = jit_case_t::of({ 2, C, 64, 64 }, relayout_f32, ddt, "nhwc", "nChw16c");
            std::string kplan;
            case_kplan(k, isa, kplan);
            const size_t last = kplan.rfind('['), driver = kplan.find(" driver:");
            if (C == 200) {
                EXPECT_NE(kplan.find(" d1*16", last), std::string::npos)
                        << k.str() << ": " << kplan;
            } else {
                EXPECT_LT(kplan.find(" d1*16"), driver) << k.str() << ": " << kplan;
            }
            EXPECT_TRUE(run_jit_case(k, isa)) << k.str();
        }
}

// AVX-512 f32 bit copies whose run continues along the loop of a blocked
// dim with dst rows a page or more apart bake that loop innermost
// (kernel_plan_params_t::copy_run_loop): OIhw16o16i -> ohwi (the o loop,
// src stride 16 over a run of 16 i) and hwio -> OIhw16i16o (the O blocks,
// src stride 16 over a run of 16 o) read whole src blocks per call.
// Bit-exact with padded I (the checked loops stay in the driver), odd
// strides, 5x5; not for runs of 8 f32 (half lines), 1x1 (the o loop baked
// anyway), a padded O (the o loop checked), groups (g and the O blocks
// merge: o is no blocked dim's loop) nor for nChw16c -> nhwc and nhwc ->
// nChw16c (their spatial loop is no blocked dim's).
// Knob off (ctest runs both): the loops as before.
TEST(jit_reorder, CopyRunLoop) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const bool on = x64::jit_copy_run_loop();
    struct row_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        std::vector<dim_t> sstrides, dstrides;
        const char *loop; // the innermost baked loop when on (null: unchanged)
        const char *off;  // ... when off (null: none baked)
    };
    const std::vector<dim_t> none;
    const row_t rows[] = {
        { { 1024, 768, 3, 3 }, "ABcd16a16b", "acdb", none, none, "[16 16 6912 d0]",
                "[48 2304 16 d1*16]" },
        { { 1024, 1000, 3, 3 }, "ABcd16a16b", "acdb", none, none, "[16 16 9000 d0]", nullptr },
        { { 1000, 768, 3, 3 }, "ABcd16a16b", "acdb", none, none, nullptr, "[48 2304 16 d1*16]" },
        { { 256, 512, 3, 3 }, "ABcd16a16b", "acdb", none, { 512 * 9 + 4112, 1, 3 * 512, 512 },
                "[16 16 8720 d0]", "[32 2304 16 d1*16]" },
        // Groups: g and the O blocks merge, the o loop is d1's only node.
        { { 4, 256, 256, 3, 3 }, "aBCde16b16c", "abdec", none, none, nullptr,
                "[16 2304 16 d2*16]" },
        { { 512, 512, 5, 5 }, "ABcd16a16b", "acdb", none, none, "[16 16 12800 d0]",
                "[32 6400 16 d1*16]" },
        // 1x1: the o loop is baked anyway (outside the I blocks).
        { { 1024, 1024, 1, 1 }, "ABcd16a16b", "acdb", none, none, nullptr, "[64 256 16 d1*16]" },
        // Runs of 8 f32: each dst line would be stored in halves far apart.
        { { 512, 512, 3, 3 }, "ABcd8a8b", "acdb", none, none, nullptr, "[64 576 8 d1*8]" },
        { { 256, 512, 3, 3 }, "cdba", "ABcd16b16a", none, none, "[16 16 73728 d0*16]",
                "[16 256 16 d1]" },
        { { 1024, 200, 3, 3 }, "cdba", "ABcd16b16a", none, none, "[64 16 29952 d0*16]", nullptr },
        { { 256, 512, 3, 3 }, "cdba", "ABcd16b16a", { 1, 259, 512 * 259 + 5, 3 * (512 * 259 + 5) },
                none, "[16 16 73728 d0*16]", "[16 259 16 d1]" },
        { { 512, 512, 3, 3 }, "cdba", "ABcd8b8a", none, none, nullptr, "[8 512 8 d1]" },
        { { 16, 1024, 16, 16 }, "aBcd16b", "acdb", none, none, nullptr, "[64 4096 16 d1*16]" },
        // nhwc -> nChw16c: the C blocks continue the run, the spatial loop
        // inside them is no blocked dim's (the C blocks baked outside 128
        // whole src rows instead, CopySrcRows).
        { { 16, 256, 64, 64 }, "acdb", "aBcd16b", none, none, nullptr, "[128 256 16]" },
    };
    for (const auto &r : rows) {
        jit_case_t c = jit_case_t::of(r.dims, relayout_f32, relayout_f32, r.stag, r.dtag);
        c.sstrides = r.sstrides;
        c.dstrides = r.dstrides;
        std::string kplan;
        case_kplan(c, isa, kplan);
        const size_t end = kplan.find(" driver:");
        const size_t last = kplan.rfind('[', end);
        const std::string baked = last > kplan.find("loops:") && last != std::string::npos
                                          ? kplan.substr(last, end - last)
                                          : std::string();
        const char *want = on && r.loop ? r.loop : r.off;
        EXPECT_EQ(baked, want ? want : "") << c.str() << ": " << kplan;
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// Tiles of fewer than 1024 elements per call (oihw <-> OIhw8i8o 3x3: 8 o x
// 8 i x 9 hw) take a block of the next loop (the I blocks), the largest
// divisor of its count that keeps the call within the bake limit (AVX-512
// f32 bit copies, kernel_plan_params_t::min_tile_call). Bit-exact, with
// 58 I blocks (29 per call) and padded (I = 100: the checked loops stay
// in the driver); AVX2 as before.
TEST(jit_reorder, MinTileCall) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    struct row_t {
        std::vector<dim_t> dims;
        const char *loops; // the baked I blocks: their count, src and dst strides
    };
    const row_t rows[] = { { { 512, 512, 3, 3 }, "[32 72 576 d1*8]" },
        { { 200, 464, 3, 3 }, "[29 72 576 d1*8]" }, { { 100, 100, 3, 3 }, nullptr } };
    for (const auto &r : rows)
        for (bool to_blocked : { true, false }) {
            jit_case_t c = jit_case_t::of(r.dims, relayout_f32, relayout_f32,
                    to_blocked ? "oihw" : "OIhw8i8o", to_blocked ? "OIhw8i8o" : "oihw");
            std::string kplan;
            case_kplan(c, isa, kplan);
            std::string loops = r.loops ? r.loops : "";
            if (!to_blocked && r.loops) // (the transpose's I blocks: src 576, dst 72)
                loops = loops.substr(0, loops.find(' ')) + " 576 72 d1*8]";
            const size_t at = kplan.find("loops:");
            if (r.loops)
                EXPECT_EQ(kplan.find(loops), at + 6) << c.str() << ": " << kplan;
            else
                EXPECT_EQ(kplan.find("loops: driver:"), at) << c.str() << ": " << kplan;
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
            // AVX2 splits these calls too, through its own rule
            // (short_tiles_split, below min_call; ShortTilesSplitYmm).
            if (r.loops && x64::isa_allowed(cpu_isa_t::avx2)) {
                case_kplan(c, cpu_isa_t::avx2, kplan);
                EXPECT_NE(kplan.find(loops), std::string::npos) << c.str() << ": " << kplan;
            }
        }
}

// The flattened short-A tiles of 16-bit bit copies (bf16, f16 oihw ->
// OIhw16i16o 2x2, 3x3, 5x5, 3x3x3) and of f32 -> bf16 without scales on
// AVX-512: 16-bit dst rows (the src words zero-extended into the usual 16
// x 16 tile), every transposed row a dst row. Bit-exact cached and large
// (edge calls: the usual tiles), with an outer baked loop and odd src
// strides; not with scales; AVX2 keeps its tiles.
TEST(jit_reorder, FlatShortAWords) {
    const flat_case_t cases[] = { { { 256, 256, 2, 2 }, "oihw", "OIhw16i16o", 64 },
        { { 2048, 1024, 2, 2 }, "oihw", "OIhw16i16o", 64 },
        { { 128, 128, 3, 3 }, "oihw", "OIhw16i16o", 144 },
        { { 250, 256, 3, 3 }, "oihw", "OIhw16i16o", 144 },  // edge calls
        { { 1000, 768, 3, 3 }, "oihw", "OIhw16i16o", 144 }, // large, edge calls
        { { 256, 256, 5, 5 }, "oihw", "OIhw16i16o", 400 },
        { { 128, 128, 3, 3, 3 }, "abcde", "ABcde16b16a", 432 },
        { { 4, 64, 64, 3, 3 }, "abcde", "aBCde16c16b", 144 } };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool zmm = isa == cpu_isa_t::avx512_core;
        const std::pair<data_type_t, data_type_t> dts[] = { { relayout_bf16, relayout_bf16 },
            { relayout_f16, relayout_f16 }, { relayout_f32, relayout_bf16 } };
        for (const auto &dt : dts) {
            jit_case_t c;
            c.sdt = dt.first;
            c.ddt = dt.second;
            for (const auto &fc : cases) {
                c.dims = fc.dims;
                c.stag = fc.stag;
                c.dtag = fc.dtag;
                // (2x2 and 3x3 bit copies: word pairs, FlatWordPairs.)
                const x64::jit_reorder_desc_t d = desc_of(c, isa);
                EXPECT_EQ(d.flat_a + 2 * d.flat_pairs, zmm ? fc.flat : 0) << c.str();
                EXPECT_TRUE(!d.flat_pairs || !d.flat_a) << c.str();
                if (c.sdt != relayout_f32) {
                    EXPECT_FALSE(desc_of(c, isa).quad_ld) << c.str(); // (zero-extended words)
                }
                EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
            }
            if (c.sdt == relayout_f32) {
                // Scales: the usual tiles (desc_of has no attributes).
                c.stag = "oihw";
                c.dtag = "OIhw16i16o";
                c.dims = { 128, 128, 3, 3 };
                c.src_scale_mask = 0;
                EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
                c.src_scale_mask = -1;
            }
            // Odd src strides: rows of 128 x 9 + 7 elements.
            c.stag = "oihw";
            c.dtag = "OIhw16i16o";
            c.dims = { 128, 128, 3, 3 };
            c.sstrides = { 128 * 9 + 7, 9, 3, 1 };
            EXPECT_EQ(desc_of(c, isa).flat_a, zmm && c.sdt == relayout_f32 ? 144 : 0) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
            c.sstrides.clear();
            // The i loop in the driver (small, padded I): not flattened.
            for (const auto &dims : { std::vector<dim_t>{ 64, 48, 3, 3 }, { 250, 248, 3, 3 } }) {
                c.dims = dims;
                EXPECT_EQ(desc_of(c, isa).flat_a, 0) << c.str();
                EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
            }
        }
    }
}

// Flattened word pairs (desc.flat_pairs): 16-bit bit copies and f32 ->
// bf16 (at the bf16 level) oihw -> OIhw16i16o (transposes) and
// OIhw8i16o2i (interleaves) with A = hw of 4 to 15 positions (2x2, 3x3,
// 1x5, 3x5), each dst line the o of two i at one hw. Bit-exact for bf16,
// f16 and f32 -> bf16 (every f32 pattern class: denormal lanes take the
// integer rounding), in the caches and streamed (from half the usual
// size: weight packs; the src prefetch), with
// edge calls (padded O: the usual tiles), odd src strides, an outer baked
// loop (groups), the driver's fence when streamed, a call's last tile partial (A odd: 72 or 40
// lines) and windows of one and two vectors; not 4x4, 5x5 or 3x3x3 (a tile's words span more than
// 64), nor an i loop in the driver, nor f32 -> bf16 below the bf16 level, nor AVX2.
TEST(jit_reorder, FlatWordPairs) {
    const flat_case_t cases[] = { { { 256, 256, 2, 2 }, "oihw", "", 32 },
        { { 128, 128, 3, 3 }, "oihw", "", 72 }, { { 250, 256, 3, 3 }, "oihw", "", 72 },
        { { 128, 64, 1, 5 }, "oihw", "", 40 }, { { 64, 128, 3, 5 }, "oihw", "", 120 },
        { { 1024, 1024, 3, 3 }, "oihw", "", 72 }, // streamed (bf16: from half the usual size)
        { { 4, 64, 64, 3, 3 }, "abcde", "", 72 }, { { 256, 256, 4, 4 }, "oihw", "", 0 },
        { { 256, 256, 5, 5 }, "oihw", "", 0 }, { { 128, 128, 3, 3, 3 }, "abcde", "", 0 },
        { { 64, 48, 3, 3 }, "oihw", "", 0 } };
    const std::vector<uint32_t> bits = f32_pattern_classes();
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core_bf16, cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool zmm = isa != cpu_isa_t::avx2, bf16_level = isa == cpu_isa_t::avx512_core_bf16;
        const std::pair<data_type_t, data_type_t> dts[] = { { relayout_bf16, relayout_bf16 },
            { relayout_f16, relayout_f16 }, { relayout_f32, relayout_bf16 } };
        for (const auto &dt : dts)
            for (const char *blk : { "16i16o", "8i16o2i" }) {
                const bool f32 = dt.first == relayout_f32;
                if (bf16_level && !f32) continue; // (the bf16 level takes conversions to bf16 only)
                const bool on = zmm && (!f32 || bf16_level);
                jit_case_t c;
                c.sdt = dt.first;
                c.ddt = dt.second;
                if (f32) c.src_bits = bits;
                const bool b16 = blk[1] == '6';
                for (const auto &fc : cases) {
                    c.dims = fc.dims;
                    c.stag = fc.stag;
                    const bool grouped = fc.dims.size() == 5 && fc.dims[0] == 4;
                    c.dtag = grouped ? std::string("aBCde") + (b16 ? "16c16b" : "8c16b2c")
                             : fc.dims.size() == 5
                                     ? std::string("ABcde") + (b16 ? "16b16a" : "8b16a2b")
                                     : std::string("OIhw") + blk;
                    const x64::jit_reorder_desc_t d = desc_of(c, isa);
                    EXPECT_EQ(d.flat_pairs, on ? fc.flat : 0) << c.str();
                    if (d.flat_pairs) {
                        EXPECT_EQ(d.flat_a, 0) << c.str();
                        const bool large = fc.dims[0] == 1024;
                        EXPECT_EQ(d.nt, large) << c.str();
                        EXPECT_EQ(d.fence_in_driver, large) << c.str();
                        EXPECT_EQ(d.flat_pf, large ? 2 * 144 * (f32 ? 4 : 2) : 0) << c.str();
                    }
                    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
                }
                // Odd src strides: rows of 128 x 9 + 7 elements.
                c.dims = { 128, 128, 3, 3 };
                c.stag.clear();
                c.dtag = std::string("OIhw") + blk;
                c.sstrides = { 128 * 9 + 7, 9, 3, 1 };
                EXPECT_EQ(desc_of(c, isa).flat_pairs, on ? 72 : 0) << c.str();
                EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
            }
    }
}

// The AVX-512 flattened short-A and short-B tiles load their 16 x 16
// tiles as 128-bit quads (masked broadcasts, desc.quad_ld) and transpose
// within the lanes only; streamed, their calls end without an sfence
// (the driver fences each thread once, desc.fence_in_driver). Bit-exact for both directions, cached
// and streamed, unrolled and looped, with edge calls (the usual tiles), odd strides and an outer
// baked loop; the flattened interleave lanes (2x2) and whole B tiles (4x4, large) too
// (FlatShortBLanes, FlatShortBTiles); not the usual tiles (4x4 to plain in the caches, nchw ->
// nChw16c) or AVX2.
TEST(jit_reorder, FlatQuadLoads) {
    // (flat: 1 when the tiles load quads on AVX-512)
    const flat_case_t cases[] = { { { 128, 128, 3, 3 }, "OIhw16i16o", "oihw", 1 },
        { { 1000, 768, 3, 3 }, "OIhw16i16o", "oihw", 1 }, // streamed, edge calls
        { { 408, 640, 5, 5 }, "OIhw16i16o", "oihw", 1 },
        { { 56, 64, 7, 7 }, "OIhw16i16o", "oihw", 1 }, // looped, edge calls
        { { 16, 32, 32, 7, 7 }, "aBCde16c16b", "abcde", 1 },
        { { 250, 256, 3, 3 }, "oihw", "OIhw16i16o", 1 },
        { { 1000, 768, 3, 3 }, "oihw", "OIhw16i16o", 1 }, // streamed, edge calls
        { { 1024, 528, 4, 4 }, "oihw", "OIhw16i16o", 1 }, // whole A tiles, large
        { { 4, 64, 64, 3, 3 }, "abcde", "aBCde16c16b", 1 },
        { { 1280, 1280, 2, 2 }, "OIhw16i16o", "oihw", 1 }, // interleave lanes
        { { 1024, 1024, 4, 4 }, "OIhw16i16o", "oihw", 1 }, // whole B tiles flattened
        { { 256, 256, 4, 4 }, "OIhw16i16o", "oihw", 0 },   // (in the caches not)
        { { 4, 256, 64, 64 }, "nchw", "nChw16c", 0 } };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool zmm = isa == cpu_isa_t::avx512_core;
        jit_case_t c;
        for (const auto &fc : cases) {
            c.dims = fc.dims;
            c.stag = fc.stag;
            c.dtag = fc.dtag;
            const x64::jit_reorder_desc_t d = desc_of(c, isa);
            EXPECT_EQ(d.quad_ld, fc.flat && zmm) << c.str();
            // Streamed: the driver fences once per thread, not each call.
            EXPECT_EQ(d.fence_in_driver, d.nt) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        }
        // (The streamed cases above do fence in the driver.)
        c.dims = { 1000, 768, 3, 3 };
        c.stag = "OIhw16i16o";
        c.dtag = "oihw";
        EXPECT_TRUE(desc_of(c, isa).nt && desc_of(c, isa).fence_in_driver) << c.str();
        // Odd strides: o rows of 128 x 9 + 5 (dst) / + 7 (src) elements.
        c.dims = { 128, 128, 3, 3 };
        c.dstrides = { 128 * 9 + 5, 9, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).quad_ld, zmm) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        c.dstrides.clear();
        std::swap(c.stag, c.dtag);
        c.sstrides = { 128 * 9 + 7, 9, 3, 1 };
        EXPECT_EQ(desc_of(c, isa).quad_ld, zmm) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// AVX-512 f32 plain weights to blocks of o innermost (the chunk lines of
// OIhw8i8o, the quad-load short-A tiles of OIhw16i16o, gOIhw16i16o and
// the whole A tiles of 4x4) store cached below jit_o_cached_bytes (knob
// RELAYOUT_JIT_O_CACHED_MIB, default 0) and stream above it as the
// others do (from nt_threshold_bytes). ctest runs this at 0 (all
// streamed) and 200 (all cached). The same sizes of other kernels keep
// streaming: the run tiles (OIhw16o16i), the flattened short-B tiles
// (OIhw16i16o -> oihw). Bit-exact, edge calls included.
TEST(jit_reorder, OLinesCachedSize) {
    if (!x64::isa_allowed(cpu_isa_t::avx512_core)) GTEST_SKIP() << "no AVX-512";
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    const size_t cached = x64::jit_o_cached_bytes();
    EXPECT_EQ(cached, size_t(std::max(getenv_int("RELAYOUT_JIT_O_CACHED_MIB", 0), 0)) << 20);
    struct size_case_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        bool rule; // the rule's kernels
    };
    const size_case_t cases[] = { { { 1024, 768, 3, 3 }, "oihw", "OIhw8i8o", true },
        { { 1000, 760, 3, 3 }, "oihw", "OIhw8i8o", true },   // padded O and I: edge calls
        { { 1000, 768, 3, 3 }, "oihw", "OIhw16i16o", true }, // edge calls
        { { 8, 256, 384, 3, 3 }, "goihw", "gOIhw16i16o", true },
        { { 1024, 528, 4, 4 }, "oihw", "OIhw16i16o", true }, // whole A tiles
        { { 1024, 768, 3, 3 }, "oihw", "OIhw16o16i", false },
        { { 1000, 768, 3, 3 }, "OIhw16i16o", "oihw", false } };
    uint32_t seed = 1800;
    for (const size_case_t &sc : cases) {
        jit_case_t c = jit_case_t::of(sc.dims, relayout_f32, relayout_f32, sc.stag, sc.dtag);
        size_t bytes = 8;
        for (dim_t x : sc.dims)
            bytes *= size_t(x);
        ASSERT_GE(bytes, x64::nt_threshold_bytes) << c.str();
        x64::jit_reorder_desc_t d;
        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
        EXPECT_EQ(d.o8_chunks != 0 || (d.quad_ld && d.flat_a), sc.rule) << c.str();
        EXPECT_EQ(d.nt, !sc.rule || bytes >= cached) << c.str();
        EXPECT_EQ(d.fence_in_driver, d.nt) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
    }
}

// AVX-512 f32 plain weights to OIhw16i16o (the flattened short-A tiles
// with quad loads; jit_o16_block_call, knob RELAYOUT_JIT_O16_BLOCKS,
// default 32): a call takes a block of up to 32 I blocks (the largest
// divisor of their count), not one; streamed, the rows' L2 prefetch runs
// on through the call's blocks. Bit-exact: 3x3, 4x4 (whole A tiles), 5x5,
// goihw, padded O (edge calls), padded I (checked: the driver keeps the
// i loop, no flattened tiles, as before), odd src strides, the src
// ending at a guard page.
TEST(jit_reorder, O16BlockCalls) {
    if (!x64::isa_allowed(cpu_isa_t::avx512_core)) GTEST_SKIP() << "no AVX-512";
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    const bool on = getenv_int("RELAYOUT_JIT_O16_BLOCKS", 32) > 0;
    struct block_case_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        const char *loops; // the baked I blocks: count, src and dst strides (nullptr: none)
        bool pf;           // streamed, prefetching through the blocks
    };
    const block_case_t cases[] = { { { 512, 1024, 3, 3 }, "oihw", "OIhw16i16o",
                                           "[32 144 2304 d1*16]", false },
        { { 1024, 768, 3, 3 }, "oihw", "OIhw16i16o", "[24 144 2304 d1*16]", true },
        { { 1000, 768, 3, 3 }, "oihw", "OIhw16i16o", "[24 144 2304 d1*16]", true }, // edge calls
        { { 1000, 760, 3, 3 }, "oihw", "OIhw16i16o", nullptr, false }, // padded I: checked
        { { 1024, 528, 4, 4 }, "oihw", "OIhw16i16o", "[11 256 4096 d1*16]", true },
        { { 256, 256, 5, 5 }, "oihw", "OIhw16i16o", "[16 400 6400 d1*16]", false },
        { { 8, 256, 384, 3, 3 }, "goihw", "gOIhw16i16o", "[24 144 2304 d2*16]", true } };
    uint32_t seed = 1900;
    for (const block_case_t &bc : cases) {
        jit_case_t c = jit_case_t::of(bc.dims, relayout_f32, relayout_f32, bc.stag, bc.dtag);
        std::string kplan;
        case_kplan(c, isa, kplan);
        const size_t at = kplan.find("loops:");
        const char *want = !bc.loops ? "loops: driver:" : on ? bc.loops : "loops:[16 ";
        EXPECT_EQ(kplan.find(want), bc.loops && on ? at + 6 : at) << c.str() << ": " << kplan;
        x64::jit_reorder_desc_t d;
        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
        if (bc.loops) {
            EXPECT_TRUE(d.quad_ld && d.flat_a) << c.str();
            EXPECT_EQ(d.nt, bc.pf) << c.str();
            EXPECT_EQ(d.flat_pf != 0, bc.pf) << c.str();
        }
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
    }
    // Odd src strides (o rows of 256 x 9 + 7 elements), the src ending at a
    // guard page (the prefetch past the last rows must not fault).
    jit_case_t c =
            jit_case_t::of({ 256, 256, 3, 3 }, relayout_f32, relayout_f32, "oihw", "OIhw16i16o");
    c.sstrides = { 256 * 9 + 7, 9, 3, 1 };
    std::string kplan;
    case_kplan(c, isa, kplan);
    if (on) {
        EXPECT_NE(kplan.find("loops:[16 144 2304 d1*16]"), std::string::npos) << kplan;
    }
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
    c = jit_case_t::of({ 1024, 768, 3, 3 }, relayout_f32, relayout_f32, "oihw", "OIhw16i16o");
    c.guard_src = true;
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
}

// The copy kernel keeps a scale that is constant along its vectors in a
// register, broadcast once per run of the micro node: a scale per row
// must be broadcast again for every row of the baked loops and of the
// driver (rows 16 x 32 of 37 values, odd strides), and the pipeline's
// constants (clamps, bf16 rounding, zero points) come from registers too.
TEST(jit_reorder, CopyScalesPerRow) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (data_type_t ddt : { relayout_s8, relayout_u8, relayout_bf16, relayout_f16,
                     relayout_s32, relayout_f32 })
            for (int variant = 0; variant < 4; ++variant) {
                jit_case_t c;
                c.dims = { 16, 32, 37 };
                c.sstrides = { 32 * 41, 41, 1 };
                c.dstrides = { 32 * 39, 39, 1 };
                c.sdt = relayout_f32;
                c.ddt = ddt;
                switch (variant) {
                    case 0: c.src_scale_mask = 2; break;                       // per baked row
                    case 1: c.src_scale_mask = 1, c.dst_scale_mask = 3; break; // + per driver row
                    case 2: c.dst_scale_mask = 2, c.src_zp = 3, c.dst_zp = -2; break;
                    default: c.src_scale_mask = 0, c.dst_scale_mask = 0; break; // common
                }
                EXPECT_TRUE(run_jit_case(c, isa)) << x64::isa2str(isa);
            }
    }
}

// Per-dimension scales of a padded (blocked) dim: the rows of the padding
// have no scale, and the kernels must not read one for them (the arrays
// end at a PROT_NONE page here: an over-read is a SIGSEGV). Found by the
// fuzzer (tests/hardening/fuzz_corpus/crash_*): the copy kernels read the
// src / dst scales of padded rows past the end of the arrays. Results are
// compared bit for bit with the reference as everywhere.
TEST(jit_reorder, NoScaleReadsForPaddedRows) {
    struct {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        data_type_t sdt, ddt;
        int mask;
        int32_t dst_zp;
    } table[] = {
        { { 17, 11 }, "BA16a16b", "BA16a16b", relayout_f32, relayout_f32, 1, 0 },
        { { 17, 11 }, "BA16a16b", "BA16a16b", relayout_f32, relayout_f32, 2, 0 },
        { { 17, 11 }, "BA16a16b", "BA16a16b", relayout_f32, relayout_f32, 3, 0 },
        { { 1, 12, 9, 9 }, "ABcd16a16b", "ABcd16a16b", relayout_f16, relayout_s16, 9, 57 },
        { { 1, 18, 20, 2 }, "ABcd16a16b", "ABcd16a16b", relayout_s16, relayout_f16, 1, 0 },
        { { 1, 18, 20, 2 }, "ABcd16a16b", "ABcd16a16b", relayout_s16, relayout_f16, 2, 0 },
        { { 17, 11, 2, 11 }, "BAcd16a16b", "BAcd16a16b", relayout_s8, relayout_f32, 13, 0 },
        { { 3, 3, 3, 19 }, "ABcd8b16a2b", "ABcd8b16a2b", relayout_u8, relayout_s32, 13, 0 },
        { { 3, 3, 3, 19 }, "ABcd8b16a2b", "ABcd8b16a2b", relayout_u8, relayout_s32, 2, 0 },
        // Plain -> blocked (transpose / interleave) and blocked -> blocked.
        { { 17, 11, 3, 3 }, "abcd", "ABcd16a16b", relayout_f32, relayout_s8, 1, 0 },
        { { 17, 11, 3, 3 }, "abcd", "ABcd16a16b", relayout_f32, relayout_s8, 2, 0 },
        { { 19, 5, 3, 3 }, "nchw", "ABcd8b16a2b", relayout_f32, relayout_bf16, 3, 0 },
        { { 2, 17, 5, 3 }, "nchw", "nChw16c", relayout_f32, relayout_u8, 2, 0 },
        { { 2, 17, 5, 3 }, "nChw8c", "nChw16c", relayout_f32, relayout_f32, 2, 0 },
    };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const auto &t : table)
            for (data_type_t sdt :
                    { t.sdt, relayout_f32, relayout_f16, relayout_s16, relayout_u8, relayout_s8 })
                for (int side = 0; side < 3; ++side) { // src, dst, both
                    for (float beta : { 0.f, 0.5f }) {
                        jit_case_t c;
                        c.dims = t.dims;
                        c.stag = t.stag;
                        c.dtag = t.dtag;
                        c.sdt = sdt;
                        c.ddt = t.ddt;
                        c.dst_zp = t.dst_zp;
                        c.beta = beta;
                        c.src_scale_mask = side != 1 ? t.mask : -1;
                        c.dst_scale_mask = side != 0 ? t.mask : -1;
                        c.guard_scales = true;
                        EXPECT_TRUE(run_jit_case(c, isa)) << x64::isa2str(isa);
                    }
                }
    }
}

// int8 weights with s8s8 / zero-point compensation (and scale adjust),
// computed with the reorder: plain and blocked, grouped, every ISA.
// Per-output-channel scales of VNNI weight packings (the common int8
// case): the folded i lanes share their o's scale, so the interleave reads
// an array with every scale repeated over them. Must stay an interleave
// (not a 9 x 4 transpose) and match bit for bit, src and dst scales, with
// padded O, grouped weights (mask g|o) and compensation. (A padded I
// folded level is not an interleave at all.)
TEST(jit_reorder, PerChannelScalesInterleave) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const char *dtag : { "OIhw4i16o4i", "OIhw2i8o4i", "OIhw8i16o2i" })
            for (auto dims :
                    { std::vector<dim_t>{ 17, 32, 3, 3 }, std::vector<dim_t>{ 64, 48, 5, 5 } })
                for (int which = 0; which < 3; ++which) {
                    jit_case_t c;
                    c.dims = dims;
                    c.sdt = relayout_f32;
                    c.ddt = relayout_s8;
                    c.stag = "oihw";
                    c.dtag = dtag;
                    c.src_scale_mask = which != 1 ? 1 : -1;
                    c.dst_scale_mask = which != 0 ? 1 : -1;
                    if (which == 2) {
                        c.extra_flags = s8s8;
                        c.comp_mask = 1;
                    }
                    std::string impl;
                    EXPECT_TRUE(run_jit_case(c, isa, &impl, ++n));
                    EXPECT_NE(impl.find(":interleave"), std::string::npos)
                            << c.str() << " " << impl;
                }
        jit_case_t g;
        g.dims = { 3, 20, 16, 3, 3 };
        g.sdt = relayout_f32;
        g.ddt = relayout_s8;
        g.stag = "goihw";
        g.dtag = "gOIhw4i16o4i";
        g.src_scale_mask = 3;
        g.extra_flags = s8s8;
        g.comp_mask = 3;
        std::string impl;
        EXPECT_TRUE(run_jit_case(g, isa, &impl, ++n));
        EXPECT_NE(impl.find(":interleave"), std::string::npos) << g.str() << " " << impl;
    }
}

// 1x1 filters: the VNNI packings have no unit-stride A, so each 16- or
// 8-lane row is gathered from groups of 2, 4 or 8 contiguous src elements
// (an interleave of one A position). Whole rows and edges (padded O,
// driver padding), bit copies and conversions, scales per o, both
// compensations, both ISAs; the strategy must be the interleave.
TEST(jit_reorder, OneByOneInterleave) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const char *dtag : { "OIhw4i16o4i", "OIhw2i8o4i", "OIhw8i16o2i", "OIhw4o4i" })
            for (auto dims : { std::vector<dim_t>{ 17, 32, 1, 1 },
                         std::vector<dim_t>{ 64, 48, 1, 1 }, std::vector<dim_t>{ 3, 16, 1, 1 } })
                for (data_type_t sdt : { relayout_f32, relayout_s8, relayout_bf16 })
                    for (int variant = 0; variant < 3; ++variant) {
                        jit_case_t c;
                        c.dims = dims;
                        c.sdt = sdt;
                        c.ddt = variant == 0 ? sdt : relayout_s8;
                        c.stag = "oihw";
                        c.dtag = dtag;
                        if (variant == 1 && sdt != relayout_s8) c.src_scale_mask = 1;
                        if (variant == 2) {
                            c.extra_flags = s8s8 | zp;
                            c.comp_mask = c.zp_comp_mask = 1;
                        }
                        std::string impl;
                        EXPECT_TRUE(run_jit_case(c, isa, &impl, ++n));
                        EXPECT_NE(impl.find(":interleave"), std::string::npos)
                                << c.str() << " " << impl;
                    }
    }
}

// Grouped weights (compensation per g x o) and a matmul packing
// (compensation per N) from `sdt` to s8.
void run_grouped_and_matmul(cpu_isa_t isa, data_type_t sdt, uint64_t flags,
        std::vector<dim_t> gdims, std::vector<dim_t> mdims, int &n) {
    struct {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        int comp_mask;
    } const cases[] = { { std::move(gdims), "goihw", "gOIhw4i16o4i", 3 },
        { std::move(mdims), "ab", "BA16a64b4a", 2 } };
    for (const auto &k : cases) {
        jit_case_t c = jit_case_t::of(k.dims, sdt, relayout_s8, k.stag, k.dtag);
        c.set_comp(flags, k.comp_mask);
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
}

TEST(jit_reorder, Compensation) {
    const uint64_t sa = relayout_extra_flag_scale_adjust;
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (data_type_t sdt : { relayout_f32, relayout_s8 })
            for (uint64_t flags : { s8s8, zp, s8s8 | zp, s8s8 | sa }) {
                for (auto dims :
                        { std::vector<dim_t>{ 20, 10, 3, 3 }, std::vector<dim_t>{ 17, 35, 1, 1 },
                                std::vector<dim_t>{ 33, 32, 3, 3 } }) {
                    for (const char *dtag : { "OIhw4i16o4i", "OIhw16i16o", "OIhw2i8o4i", "oihw",
                                 "hwio", "OIhw8i16o2i" }) {
                        jit_case_t c;
                        c.dims = dims;
                        c.sdt = sdt;
                        c.ddt = relayout_s8;
                        c.stag = "oihw";
                        c.dtag = dtag;
                        c.set_comp(flags, 1);
                        if (sdt == relayout_f32) c.src_scale_mask = 1;
                        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                    }
                }
                run_grouped_and_matmul(isa, sdt, flags, { 2, 20, 10, 3, 3 }, { 70, 33 }, n);
            }
    }
}

// AVX2 1- and 2-byte bit copies on the ymm tiles (desc.ymm_small): 16
// bytes of A x 16 lanes, groups of 4 A tiles, edges element by element.
// The desc takes them on AVX2 only, not for 4-byte types, nor where B
// edges would be a large part (B of 37 lanes); bit-exact with partial
// groups (A = 100: 64 + 2 tiles + the last moved back),
// partial B tiles, odd strides, padded blocks and folded lanes (4i16o4i).
// Not where the dst pitch packs a group's rows into few L1 sets (more
// than 16 per set): s8 rows of 4 KiB (64 rows in one set) go to the 8x8
// dword tiles; 1 KiB (16 rows per set), 576 B and 256 B stay, as do bf16
// rows of any pitch.
TEST(jit_reorder, YmmSmallTiles) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool y = isa == cpu_isa_t::avx2;
        for (data_type_t dt : { relayout_s8, relayout_bf16 }) {
            const int e = (int)data_type_size(dt);
            for (dim_t m : { 37, 100, 300 })
                for (dim_t k : { 16, 100, 129 }) {
                    jit_case_t c = jit_case_t::of({ m, k }, dt, dt, "ab", "ba");
                    // (B of 37 lanes: mostly edges, not taken)
                    EXPECT_EQ(desc_of(c, isa).ymm_small, y && m != 37 ? e : 0) << c.str();
                    EXPECT_TRUE(run_jit_case(c, isa));
                    c.sstrides = { k + 3, 1 };
                    c.dstrides = { 1, m + 5 };
                    EXPECT_TRUE(run_jit_case(c, isa));
                }
            jit_case_t c = jit_case_t::of({ 2, 20, 9, 23 }, dt, dt, "nchw", "nChw16c");
            EXPECT_TRUE(run_jit_case(c, isa));
            c = jit_case_t::of({ 2, 20, 9, 23 }, dt, dt, "nchw", "nhwc");
            EXPECT_TRUE(run_jit_case(c, isa));
            c = jit_case_t::of({ 64, 48, 3, 3 }, dt, dt, "oihw", "OIhw4i16o4i");
            EXPECT_TRUE(run_jit_case(c, isa));
            for (dim_t hw : { 64, 32, 24, 16 }) {
                c = jit_case_t::of({ 1, 40, hw, hw }, dt, dt, "nhwc", "nchw");
                const bool aliasing = hw == 64 && e == 1;
                EXPECT_EQ(desc_of(c, isa).ymm_small, y && !aliasing ? e : 0) << c.str();
                EXPECT_TRUE(run_jit_case(c, isa));
            }
        }
        jit_case_t c = jit_case_t::of({ 300, 100 }, relayout_f32, relayout_f32, "ab", "ba");
        EXPECT_EQ(desc_of(c, isa).ymm_small, 0) << c.str();
        c = jit_case_t::of({ 64, 48, 3, 3 }, relayout_s8, relayout_s8, "oihw", "OIhw4i16o4i");
        c.set_comp(s8s8, 1);
        EXPECT_TRUE(run_jit_case(c, isa));
    }
}

// ... whose groups of a dst line of B lanes are staged and go out as
// whole lines (desc.ymm_small_lines: transposes without compensation, dst
// rows whole lines apart, streamed sizes or dst rows packed more than 16
// to an L1 set): taken on AVX2 only, for dst rows 4 KiB apart (u8 rows
// there had gone to the 8x8 dword tiles), not for a pitch half a line
// off, nor for cached dsts of other pitches, nor below a group (A < 64
// bytes of rows); bit-exact with partial A groups and B lines (the single
// tiles and edges after them), odd src strides, and large ones, streamed
// (bf16 far rows: calls of a dst line's 32 lanes).
TEST(jit_reorder, YmmSmallLines) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool y = isa == cpu_isa_t::avx2;
        for (data_type_t dt : { relayout_u8, relayout_bf16 }) {
            const dim_t e = (dim_t)data_type_size(dt), pitch = 4096 / e;
            for (dim_t m : { pitch, pitch - 64 / e - 13 })
                for (dim_t k : { 32, 64, 100, 131 }) {
                    jit_case_t c = jit_case_t::of({ m, k }, dt, dt, "ab", "ba");
                    c.dstrides = { 1, pitch };
                    EXPECT_EQ(desc_of(c, isa).ymm_small_lines, y && k * e >= 64) << c.str();
                    EXPECT_TRUE(run_jit_case(c, isa));
                    c.sstrides = { k + 3, 1 };
                    EXPECT_TRUE(run_jit_case(c, isa));
                    c.dstrides = { 1, pitch + 32 / e }; // (half a line on: not taken)
                    EXPECT_FALSE(desc_of(c, isa).ymm_small_lines) << c.str();
                    EXPECT_TRUE(run_jit_case(c, isa));
                    c.dims[0] = 192 / e; // (cached, 3 lines apart: not taken)
                    c.dstrides = { 1, 192 / e };
                    EXPECT_FALSE(desc_of(c, isa).ymm_small_lines) << c.str();
                    EXPECT_TRUE(run_jit_case(c, isa));
                }
            for (dim_t c_ : { 64, 256 }) {
                jit_case_t c = jit_case_t::of({ 2, c_, 64, 64 }, dt, dt, "nhwc", "nchw");
                EXPECT_EQ(desc_of(c, isa).ymm_small_lines, y) << c.str();
                EXPECT_TRUE(run_jit_case(c, isa));
            }
        }
        // streamed (src + dst of 32 MiB and more), with A and B edges
        for (data_type_t dt : { relayout_s8, relayout_bf16 }) {
            jit_case_t c = jit_case_t::of({ 4096 + 64 + 16 + 3, 4096 + 5 }, dt, dt, "ab", "ba");
            c.dstrides = { 1, 4096 + 128 };
            const auto d = desc_of(c, isa);
            EXPECT_EQ(d.ymm_small_lines && d.nt, y) << c.str();
            if (y && dt == relayout_bf16) {
                EXPECT_EQ(d.n[1], 32) << c.str();
            }
            EXPECT_TRUE(run_jit_case(c, isa));
        }
    }
}

// ... with the compensation (AVX2, 4-lane groups of 4i interleaves: the
// tiles sum each group's bytes, the edges each lane's): s8s8, zero points
// and both; A of whole tiles, with an edge (5x5, 4x5: 25, 20), B padded
// (O = 20, 33; I = 10, 70), 8-lane o blocks (2i8o4i).
TEST(jit_reorder, YmmSmallTilesCompensation) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (uint64_t flags : { s8s8, zp, s8s8 | zp })
            for (auto dims : { std::vector<dim_t>{ 64, 48, 4, 4 },
                         std::vector<dim_t>{ 20, 10, 5, 5 }, std::vector<dim_t>{ 33, 70, 4, 5 },
                         std::vector<dim_t>{ 48, 32, 7, 7 } })
                for (const char *dtag : { "OIhw4i16o4i", "OIhw2i8o4i" }) {
                    jit_case_t c = jit_case_t::of(dims, relayout_s8, relayout_s8, "oihw", dtag);
                    c.set_comp(flags, 1);
                    if (dims[0] == 64) {
                        EXPECT_EQ(desc_of(c, isa).ymm_small, isa == cpu_isa_t::avx2 ? 1 : 0)
                                << c.str();
                    }
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                }
    }
}

// ... with an A of fewer positions than a tile (16 bytes: 3x3 and 2x2
// weights, rows shorter than a tile): one partial tile per B tile, each
// row loaded in pieces up to its end (nothing read past it), only its dst
// rows stored. Taken on AVX2 (3x3 s8 oihw -> OIhw4i16o4i had gone to the
// 8x8 dword tiles); bit-exact for every A of 2..15 bytes (2..7 words),
// the src ending at a guard page, odd strides, dst rows past A in a gap
// that must stay untouched, padded O and I, with the compensation (s8s8,
// zero points).
TEST(jit_reorder, YmmSmallShortA) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool y = isa == cpu_isa_t::avx2;
        for (data_type_t dt : { relayout_s8, relayout_bf16 }) {
            const int e = (int)data_type_size(dt);
            for (dim_t a = 2; a < 16 / e; ++a) {
                jit_case_t c = jit_case_t::of({ 70, a }, dt, dt, "ab", "ba");
                const auto d = desc_of(c, isa);
                EXPECT_EQ(d.ymm_small, y ? e : 0) << c.str();
                c.guard_src = true; // (a read past the last row faults)
                EXPECT_TRUE(run_jit_case(c, isa));
                c.sstrides = { a + 3, 1 };
                c.dstrides = { 1, 70 + 5 };
                EXPECT_TRUE(run_jit_case(c, isa));
                // (dst rows of a tile past A in the gap between the blocks:
                // stores past A would overwrite it)
                c = jit_case_t::of({ 2, 70, a }, dt, dt, "abc", "acb");
                c.dstrides = { 16 * 75, 1, 75 };
                EXPECT_EQ(desc_of(c, isa).ymm_small, y ? e : 0) << c.str();
                EXPECT_TRUE(run_jit_case(c, isa));
            }
            for (auto hw : { std::vector<dim_t>{ 3, 3 }, std::vector<dim_t>{ 2, 2 },
                         std::vector<dim_t>{ 1, 7 }, std::vector<dim_t>{ 3, 5 },
                         std::vector<dim_t>{ 2, 7 } }) {
                const char *dtag = e == 1 ? "OIhw4i16o4i" : "OIhw8i16o2i";
                jit_case_t c = jit_case_t::of({ 64, 48, hw[0], hw[1] }, dt, dt, "oihw", dtag);
                const auto d = desc_of(c, isa);
                if (hw[0] * hw[1] * e < 16) {
                    EXPECT_EQ(d.ymm_small, y ? e : 0) << c.str();
                    if (y) {
                        EXPECT_EQ(d.n[0], hw[0] * hw[1]) << c.str();
                    }
                }
                EXPECT_TRUE(run_jit_case(c, isa));
                c.dims[0] = 33; // (padded O and I: edges)
                c.dims[1] = 70;
                EXPECT_TRUE(run_jit_case(c, isa));
                if (e != 1) continue;
                for (uint64_t flags : { s8s8, zp, s8s8 | zp }) {
                    c.set_comp(flags, 1);
                    for (dim_t o : { 64, 33 }) {
                        c.dims[0] = o;
                        c.dims[1] = o == 64 ? 48 : 70;
                        if (o == 64 && hw[0] * hw[1] < 16) {
                            EXPECT_EQ(desc_of(c, isa).ymm_small, y ? 1 : 0) << c.str();
                        }
                        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                    }
                }
            }
        }
    }
}

// 1-byte bit copies as byte tiles (AVX-512: 16 A positions x 64 B lanes,
// partial A counts masked, B tails on 32-bit tiles) and the AVX2 shifted
// last A tile: sizes around both tile edges, odd strides, padded A and B,
// and the compensation summed in the kernel (4-lane groups on byte tiles,
// per lane on 32-bit tiles) with s8s8 and zero points (s8 dsts only:
// descriptors refuse compensation on u8).
TEST(jit_reorder, ByteTilesAndShiftedTiles) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (data_type_t dt : { relayout_s8, relayout_u8 }) {
            for (dim_t m : { 1, 15, 16, 17, 33, 64, 65, 129 })
                for (dim_t k : { 7, 8, 9, 15, 16, 17, 31, 33 }) {
                    jit_case_t c = jit_case_t::of({ m, k }, dt, dt, "ab", "ba");
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                    // odd strides on both sides
                    c.sstrides = { k + 3, 1 };
                    c.dstrides = { 1, m + 5 };
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                    // padded A (16b) and B (64a) blocks
                    c.sstrides.clear();
                    c.dstrides.clear();
                    c.dtag = "BA16b64a";
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                }
            // Long A runs under one 64-lane B tile: rows 1 KiB or more apart
            // staged in 64-column groups, then a partial group and a partial
            // tile (A = 1100 = 512 + 512 + 76); nearer rows (1000) unstaged
            // with the next call's block prefetched (jit_byte_tile_pf).
            for (dim_t k : { 1000, 1100 })
                for (dim_t m : { 64, 128, 131 }) {
                    jit_case_t c = jit_case_t::of({ m, k }, dt, dt, "ab", "ba");
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                    c.sstrides = { k + 3, 1 };
                    c.dstrides = { 1, m + 64 };
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                }
            // Weights: 4i16o4i packings, 3x3 (A = 9), 1x1 and 5x5 spatial.
            for (dim_t O : { 16, 17, 48, 70 })
                for (dim_t I : { 4, 13, 32 })
                    for (dim_t hw : { 1, 3, 5 })
                        for (uint64_t flags : { uint64_t(0), s8s8, zp, s8s8 | zp })
                            for (const char *dtag : { "OIhw4i16o4i", "OIhw2i8o4i", "hwio" }) {
                                if (flags && dt != relayout_s8) continue;
                                jit_case_t c;
                                c.dims = { O, I, hw, hw };
                                c.sdt = c.ddt = dt;
                                c.stag = "oihw";
                                c.dtag = dtag;
                                c.set_comp(flags, 1);
                                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                                if (flags == s8s8 && hw == 3) {
                                    c.sdt = relayout_f32;
                                    c.src_scale_mask = 0;
                                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                                }
                            }
            // Grouped weights and a matmul packing (comp per N).
            for (uint64_t flags : { s8s8, zp }) {
                if (dt != relayout_s8) continue;
                run_grouped_and_matmul(isa, dt, flags, { 3, 32, 8, 3, 3 }, { 70, 130 }, n);
            }
        }
    }
}

// A row of the rule tests below (byte tiles, f32 dst prefetch and line
// pairs): the problem, and whether AVX-512 takes the rule under test.
struct rule_case_t {
    std::vector<dim_t> dims;
    const char *stag, *dtag;
    std::vector<dim_t> sstrides;
    bool rule;
    std::vector<dim_t> dstrides = {};
};

// Runs each case and hands the case, the ISA and whether the rule applies
// there (AVX-512 and `rule`) to `check`.
template <typename Check>
void run_byte_rule_cases(const std::vector<rule_case_t> &cases, const Check &check) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const auto &bc : cases)
            for (data_type_t dt : { relayout_u8, relayout_s8 }) {
                jit_case_t c = case_of(bc, dt);
                EXPECT_TRUE(run_jit_case(c, isa));
                check(c, isa, isa == cpu_isa_t::avx512_core && bc.rule);
            }
    }
}

// Byte tiles whose B src rows are near (a line to under 1 KiB apart: nhwc
// -> nchw from 64 to 1023 channels, nchw -> nhwc of short planes): each
// full tile prefetches its share of the next call's src block into L2 and
// calls of one B tile are not staged (jit_byte_tile_pf). Channel counts
// that leave a partial last A tile (200, 130), B tails (160 and 240 lanes
// per call), padded src rows (203 B apart), calls of one 64-lane B tile
// (512 channels), a large problem that streams; s8 and u8. Bit-exact, and
// the rule on AVX-512 only and only there: not for rows under a line
// apart (32 channels), 1 KiB or more apart (1024 channels, nchw -> nhwc
// 64x64: staged).
TEST(jit_reorder, NearSrcRowsBytePrefetch) {
    const std::vector<rule_case_t> cases = {
        { { 2, 200, 9, 31 }, "nhwc", "nchw", {}, true },
        { { 3, 130, 7, 37 }, "nhwc", "nchw", {}, true },
        { { 2, 256, 33, 35 }, "nhwc", "nchw", {}, true },
        { { 2, 200, 9, 31 }, "", "nchw", { 9 * 31 * 203, 1, 31 * 203, 203 }, true },
        { { 2, 64, 40, 41 }, "nhwc", "nchw", {}, true },
        { { 1, 512, 16, 17 }, "nhwc", "nchw", {}, true },
        { { 2, 200, 9, 31 }, "nchw", "nhwc", {}, true },     // channel rows 279 B apart
        { { 10, 256, 100, 100 }, "nhwc", "nchw", {}, true }, // streamed
        { { 2, 32, 40, 41 }, "nhwc", "nchw", {}, false },
        { { 1, 1024, 8, 9 }, "nhwc", "nchw", {}, false },
        { { 2, 200, 64, 64 }, "nchw", "nhwc", {}, false },
    };
    run_byte_rule_cases(cases, [](const jit_case_t &c, cpu_isa_t isa, bool z) {
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_EQ(x64::jit_byte_tile_pf(d), z ? d.n[1] * d.is[1] : 0) << c.str();
        if (z) {
            EXPECT_GE(d.n[1], 64) << c.str();
        }
    });
}

// Byte-tile transposes of 4 MiB or more whose dst stays cached prefetch
// the dst lines of the A tile four tiles on into L2 (jit_byte_dst_prefetch):
// staged far src rows (nchw -> nhwc, ab -> ba with rows 1100 B apart, a
// partial group and a partial A tile), near ones (nhwc -> nchw with 200
// channels: a partial last A tile), odd dst strides; s8 and u8. Bit-exact,
// and the rule on AVX-512 only and only there: not in the caches (2 MB),
// nor where the dst streams (51 MB).
TEST(jit_reorder, LargeCachedByteDstPrefetch) {
    const std::vector<rule_case_t> cases = {
        { { 2, 256, 64, 64 }, "nchw", "nhwc", {}, true },
        { { 1, 200, 97, 111 }, "nhwc", "nchw", {}, true }, // near rows
        { { 2051, 1100 }, "ab", "ba", {}, true },          // staged rows
        { { 2051, 1100 }, "ab", "", {}, true, { 1, 2051 + 5 } },
        { { 1000, 1000 }, "ab", "ba", {}, false },
        { { 10, 256, 100, 100 }, "nchw", "nhwc", {}, false }, // streamed
    };
    run_byte_rule_cases(cases, [](const jit_case_t &c, cpu_isa_t isa, bool z) {
        EXPECT_EQ(desc_of(c, isa).byte_pfw, z ? 4 : 0) << c.str();
    });
}

// Byte, word and word pair tiles whose dst rows are whole lines stream
// from src + dst of the L3's size (32 MiB) on (jit_tiles_stream_from_l3),
// below the usual 48 MiB: nchw -> nhwc, nhwc -> nchw, ab -> ba (partial
// last B tile), nchw -> nChw16c (word pairs), u8 / s8 and bf16 / f16 at
// 32-34 MiB. Bit-exact, and the rule on AVX-512 only and only there: not
// just below 32 MiB, nor where the dst rows are not whole lines apart
// (4095 wide, 84100 B channel rows), which keep their cached stores and,
// bytes, the dst prefetch.
TEST(jit_reorder, TilesStreamFromL3) {
    const std::vector<rule_case_t> cases = {
        { { 16, 256, 64, 64 }, "nchw", "nhwc", {}, true }, // 32 MiB exactly
        { { 16, 256, 64, 64 }, "nhwc", "nchw", {}, true },
        { { 4096, 4100 }, "ab", "ba", {}, true },
        { { 15, 256, 64, 64 }, "nchw", "nhwc", {}, false }, // 30 MiB
        { { 4095, 4100 }, "ab", "ba", {}, false },
        { { 1, 200, 290, 290 }, "nhwc", "nchw", {}, false },
    };
    run_byte_rule_cases(cases, [](const jit_case_t &c, cpu_isa_t isa, bool z) {
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        const bool z512 = isa == cpu_isa_t::avx512_core;
        // (AVX2: the staged lines stream from the same size)
        size_t bytes = 2 * data_type_size(c.sdt);
        for (dim_t n : c.dims)
            bytes *= (size_t)n;
        EXPECT_EQ(d.nt, z512 ? z : d.ymm_small_lines && bytes >= x64::nt_tiles_threshold_bytes)
                << c.str();
        EXPECT_EQ(d.byte_pfw, z512 && !z ? 4 : 0) << c.str();
    });
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool z512 = isa == cpu_isa_t::avx512_core;
        for (data_type_t dt : { relayout_bf16, relayout_f16 }) {
            const std::vector<rule_case_t> words = {
                { { 8, 256, 64, 64 }, "nchw", "nhwc", {}, true },
                { { 8, 256, 64, 64 }, "nhwc", "nchw", {}, true },
                { { 8, 256, 64, 64 }, "nchw", "nChw16c", {}, true },
                { { 7, 256, 64, 64 }, "nchw", "nhwc", {}, false }, // 28 MiB
                { { 4095, 2050 }, "ab", "ba", {}, false },
            };
            for (const auto &wc : words) {
                const jit_case_t c = case_of(wc, dt);
                EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
                const x64::jit_reorder_desc_t d = desc_of(c, isa);
                EXPECT_EQ(d.word_tile || d.word_pair, z512) << c.str();
                EXPECT_EQ(d.nt, z512 ? wc.rule : wc.rule && d.ymm_small_lines) << c.str();
            }
        }
    }
}

// Each 2-byte case (bf16 and f16) on both ISAs, bit-exact, then
// `check(case, isa, rule)`.
template <typename Check>
void run_word_rule_cases(const std::vector<rule_case_t> &cases, const Check &check) {
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (data_type_t dt : { relayout_bf16, relayout_f16 })
            for (const auto &wc : cases) {
                const jit_case_t c = case_of(wc, dt);
                EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
                check(c, isa, wc.rule);
            }
    }
}

// Staged byte and word tiles whose dst rows are a page or more apart read
// 4 lines of each src row per group and prefetch the group two on
// (jit_wide_stage): ab -> ba with whole and partial groups (calls of A =
// 512 bytes / 1024 words, then a shorter one), a partial last B tile, odd
// strides on both sides; s8 / u8 and bf16 / f16. Bit-exact, and the rule
// on AVX-512 only and only there: not for dst rows nearer (2048 B), nor
// near src rows (1000 B: unstaged, jit_byte_tile_pf).
TEST(jit_reorder, WideStage) {
    const std::vector<rule_case_t> bytes = {
        { { 4096, 1100 }, "ab", "ba", {}, true },
        { { 4100, 1300 }, "ab", "ba", {}, true },
        { { 4096, 1100 }, "ab", "", { 1103, 1 }, true, { 1, 4160 } },
        { { 2048, 1100 }, "ab", "ba", {}, false },
        { { 4096, 1000 }, "ab", "ba", {}, false },
    };
    run_byte_rule_cases(bytes, [](const jit_case_t &c, cpu_isa_t isa, bool z) {
        EXPECT_EQ(x64::jit_wide_stage(desc_of(c, isa)), z ? 4 : 0) << c.str();
    });
    const std::vector<rule_case_t> words = {
        { { 2048, 2100 }, "ab", "ba", {}, true },
        { { 2051, 2300 }, "ab", "ba", {}, true },
        { { 2048, 2100 }, "ab", "", { 2103, 1 }, true, { 1, 2112 } },
        { { 1024, 2100 }, "ab", "ba", {}, false },
    };
    run_word_rule_cases(words, [](const jit_case_t &c, cpu_isa_t isa, bool rule) {
        const bool z = isa == cpu_isa_t::avx512_core && rule;
        EXPECT_EQ(x64::jit_wide_stage(desc_of(c, isa)), z ? 4 : 0) << c.str();
    });
}

// Staged byte tiles whose dst rows are under 1 KiB apart take the wide
// stage too when a call holds a whole group of 256 columns (jit_wide_stage:
// nchw -> nhwc up to 512 channels): planes of a page (the rows' lines in
// one L1 set), of 57 x 56 with a B tail (200 channels: 64-lane tiles, then
// the 32-bit tiles), 64 channels (dst rows of one line), a last call with
// a partial group and A tile, padded src planes and dst rows, ab -> ba
// with dst rows 512 B apart; s8 / u8. Bit-exact, and the rule on AVX-512
// only and only there: not for dst rows 1 KiB apart (1024 channels), nor
// calls shorter than a group.
TEST(jit_reorder, WideStageNearDst) {
    const std::vector<rule_case_t> bytes = {
        { { 2, 256, 64, 64 }, "nchw", "nhwc", {}, true },
        { { 3, 200, 57, 56 }, "nchw", "nhwc", {}, true },
        { { 2, 64, 40, 41 }, "nchw", "nhwc", {}, true },
        { { 2, 100, 33, 40 }, "", "nhwc", { 100 * 1400, 1400, 40, 1 }, true },
        { { 2, 128, 32, 40 }, "nchw", "", {}, true, { 32 * 40 * 300, 1, 40 * 300, 300 } },
        { { 512, 1100 }, "ab", "ba", {}, true },
        { { 1, 1024, 32, 40 }, "nchw", "nhwc", {}, false },
        { { 1024, 1100 }, "ab", "ba", {}, false },
    };
    run_byte_rule_cases(bytes, [](const jit_case_t &c, cpu_isa_t isa, bool z) {
        x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_EQ(x64::jit_wide_stage(d), z ? 4 : 0) << c.str();
        // Calls shorter than a group (the planner gives 64-lane calls 512
        // A positions): the rule alone.
        if (z) {
            d.n[0] = 255;
            EXPECT_EQ(x64::jit_wide_stage(d), 0) << c.str();
            d.n[0] = 256;
            EXPECT_EQ(x64::jit_wide_stage(d), 4) << c.str();
        }
    });
}

// Large word-tile transposes whose src and dst rows are both a page or
// more apart take calls of 64 B lanes, two word tiles per A tile reading
// halves of one 64-row wide stage (jit_word_rows64): whole calls, a last
// call of 34 lanes (one word tile, unstaged: the stage would read rows
// past the src, then 32-bit tiles) and of 4 lanes, a partial last group
// and A tile, odd strides on both sides; bf16 / f16. Bit-exact, and the
// rule on AVX-512 only and only there: not below 32 MiB, nor for src rows
// nearer (2200 B), nor dst rows not whole lines apart (cached).
TEST(jit_reorder, WordRows64) {
    const std::vector<rule_case_t> words = {
        { { 4096, 2100 }, "ab", "ba", {}, true },
        { { 4130, 2100 }, "ab", "", {}, true, { 1, 4160 } },
        { { 4100, 2150 }, "ab", "", {}, true, { 1, 4128 } },
        { { 4096, 2100 }, "ab", "", { 2103, 1 }, true, { 1, 4160 } },
        { { 2048, 2100 }, "ab", "ba", {}, false }, { { 8192, 1100 }, "ab", "ba", {}, false },
        { { 4095, 2100 }, "ab", "ba", {}, false }, // dst rows not whole lines apart
    };
    run_word_rule_cases(words, [](const jit_case_t &c, cpu_isa_t isa, bool rule) {
        plan_t p;
        case_plan(c, p);
        EXPECT_EQ(x64::jit_word_rows64(p), rule) << c.str();
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        if (isa == cpu_isa_t::avx512_core && rule) {
            EXPECT_EQ(d.n[1], 64) << c.str();
            EXPECT_EQ(x64::jit_wide_stage(d), 4) << c.str();
        }
    });
}

// ... and so do those whose dst rows are 512 B to a page apart (bf16
// nchw -> nhwc from 256 channels, jit_word_rows64): 32 MiB exactly,
// an A of 97 x 113 (partial calls, groups and A tiles), 200 channels
// into nhwc rows of 256 (three calls of 64 lanes, then 8 on the 32-bit
// tiles). Bit-exact, and the rule on AVX-512 only: not for dst rows not
// whole lines apart (259 channels) or nearer (128 channels: 256 B).
TEST(jit_reorder, WordNearRows64) {
    const dim_t P = 130 * 131;
    const std::vector<rule_case_t> words = {
        { { 8, 256, 64, 64 }, "nchw", "nhwc", {}, true },
        { { 3, 320, 97, 113 }, "nchw", "nhwc", {}, true },
        { { 3, 200, 130, 131 }, "nchw", "", {}, true, { P * 256, 1, 131 * 256, 256 } },
        { { 3, 259, 97, 113 }, "nchw", "nhwc", {}, false },
        { { 4, 128, 128, 128 }, "nchw", "nhwc", {}, false },
    };
    run_word_rule_cases(words, [](const jit_case_t &c, cpu_isa_t isa, bool rule) {
        plan_t p;
        case_plan(c, p);
        EXPECT_EQ(x64::jit_word_rows64(p), rule) << c.str();
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        if (isa == cpu_isa_t::avx512_core) {
            EXPECT_TRUE(d.word_tile) << c.str();
            EXPECT_EQ(d.n[1], rule ? 64 : 32) << c.str();
            EXPECT_EQ(x64::jit_wide_stage(d), rule ? 4 : 0) << c.str();
        }
    });
}

// Word tiles of near src rows (nhwc -> nchw, 12M elements and more) whose
// dst rows are more than a page and a multiple of 512 B apart keep the
// usual split instead of one 32-lane tile per call (jit_word_aliased_dst):
// planes of 160 x 200 (dst rows 125 x 512 B), 64 x 512, 160 x 199 padded
// to 32000; 100 channels give partial A tiles. Bit-exact, and the rule
// (more B lanes per call) on AVX-512 only: not for dst rows of 64400 B or
// 4608 B (48 x 48 planes).
TEST(jit_reorder, WordAliasedDst) {
    const std::vector<rule_case_t> words = {
        { { 4, 100, 160, 200 }, "nhwc", "nchw", {}, true },
        { { 4, 96, 64, 512 }, "nhwc", "nchw", {}, true },
        { { 4, 100, 160, 199 }, "nhwc", "", {}, true, { 100 * 32000, 32000, 199, 1 } },
        { { 4, 100, 161, 200 }, "nhwc", "nchw", {}, false },
        { { 24, 256, 48, 48 }, "nhwc", "nchw", {}, false },
    };
    run_word_rule_cases(words, [](const jit_case_t &c, cpu_isa_t isa, bool rule) {
        plan_t p;
        case_plan(c, p);
        EXPECT_EQ(x64::jit_word_aliased_dst(p), rule) << c.str();
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        if (isa == cpu_isa_t::avx512_core) {
            EXPECT_TRUE(d.word_tile) << c.str();
            if (rule)
                EXPECT_GT(d.n[1], 32) << c.str();
            else
                EXPECT_EQ(d.n[1], 32) << c.str();
        }
    });
}

// Large byte-tile transposes whose src and dst rows are both a page or
// more apart (dst rows whole lines apart, streamed) take calls of 128 B
// lanes and 512 A positions, two byte tiles per A tile reading halves of
// one 128-row wide stage (jit_byte_rows128): whole calls, a last call of
// 4 A positions (a partial group and A tile), a last call of 64 lanes (one
// byte tile, unstaged: the stage would read rows past the src) and of 100
// (then 32-bit tiles), odd src strides, padded dst rows; s8 / u8.
// Bit-exact, and the rule on AVX-512 only and only there: not for src rows
// nearer (2100 B), dst rows nearer (2048 B) or not whole lines apart.
TEST(jit_reorder, ByteRows128) {
    const std::vector<rule_case_t> bytes = {
        { { 4096, 4100 }, "ab", "ba", {}, true }, { { 4160, 4100 }, "ab", "ba", {}, true },
        { { 4196, 4100 }, "ab", "", {}, true, { 1, 4224 } },
        { { 4096, 4100 }, "ab", "", { 4103, 1 }, true, { 1, 4160 } },
        { { 4096, 2100 }, "ab", "ba", {}, false }, { { 2048, 8200 }, "ab", "ba", {}, false },
        { { 4095, 4100 }, "ab", "ba", {}, false }, // dst rows not whole lines apart
    };
    run_byte_rule_cases(bytes, [](const jit_case_t &c, cpu_isa_t isa, bool z) {
        plan_t p;
        case_plan(c, p);
        EXPECT_EQ(x64::jit_byte_rows128(isa, p), z) << c.str();
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_EQ(d.byte_pair, z) << c.str();
        if (z) {
            EXPECT_EQ(d.n[0], 512) << c.str();
            EXPECT_EQ(d.n[1], 128) << c.str();
            EXPECT_EQ(x64::jit_wide_stage(d), 4) << c.str();
        }
    });
}

// The calls of two byte or word tiles per A tile (128 B lanes of bytes:
// jit_byte_rows128, whole-plane line pairs; 64 of words: jit_word_rows64)
// park the first tile's 16 dst rows and store each row's two lines back
// to back from the second (jit_line_bursts): whole calls, a last call of
// 64 / 34 lanes (the first tile alone: it stores its own rows) and of 100
// / 4 (32-bit tiles), partial groups and A tiles, odd src strides, padded
// dst rows; nchw -> nhwc of 256 and 384 channels (plane pairs, words of
// dst rows 512 B apart). Bit-exact, and the rule exactly where those calls
// are (the knob at 0: nowhere; ctest runs it so): not for dst rows not
// whole lines apart, nearer src rows or 200 channels.
TEST(jit_reorder, LineBursts) {
    const bool on = getenv_int("RELAYOUT_JIT_LINE_BURSTS", 1) != 0;
    const std::vector<rule_case_t> bytes = {
        { { 4096, 4100 }, "ab", "ba", {}, true },
        { { 4160, 4100 }, "ab", "ba", {}, true },
        { { 4196, 4100 }, "ab", "", {}, true, { 1, 4224 } },
        { { 4096, 4100 }, "ab", "", { 4103, 1 }, true, { 1, 4160 } },
        { { 4, 384, 97, 113 }, "nchw", "nhwc", {}, true },
        { { 4095, 4100 }, "ab", "ba", {}, false },
        { { 9, 200, 97, 113 }, "nchw", "nhwc", {}, false },
    };
    run_byte_rule_cases(bytes, [&](const jit_case_t &c, cpu_isa_t isa, bool z) {
        plan_t p;
        case_plan(c, p);
        // (nchw -> nhwc: the whole-plane line pairs, Intel's by default)
        const bool rule = z && (c.dims.size() == 2 || x64::jit_byte_plane_on());
        EXPECT_EQ(x64::jit_byte_rows128(isa, p), rule) << c.str();
        EXPECT_EQ(desc_of(c, isa).line_bursts, on && rule) << c.str();
    });
    const std::vector<rule_case_t> words = {
        { { 4096, 2100 }, "ab", "ba", {}, true },
        { { 4130, 2100 }, "ab", "", {}, true, { 1, 4160 } },
        { { 4100, 2150 }, "ab", "", {}, true, { 1, 4128 } },
        { { 4096, 2100 }, "ab", "", { 2103, 1 }, true, { 1, 4160 } },
        { { 3, 320, 97, 113 }, "nchw", "nhwc", {}, true },
        { { 4095, 2100 }, "ab", "ba", {}, false },
        { { 2048, 2100 }, "ab", "ba", {}, false },
        { { 3, 259, 97, 113 }, "nchw", "nhwc", {}, false },
    };
    run_word_rule_cases(words, [&](const jit_case_t &c, cpu_isa_t isa, bool rule) {
        const bool z = isa == cpu_isa_t::avx512_core && rule;
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_EQ(d.line_bursts, on && z) << c.str();
        if (z) {
            EXPECT_EQ(d.n[1], 64) << c.str();
        }
    });
}

// AVX2 byte lines of far src rows (1 KiB or more apart) whose dst rows
// are whole pairs of lines, streamed, take calls of 128 B lanes and 512 A
// positions, two lines of each dst row per group
// (jit_ymm_byte_line_pairs); src rows that pack a B tile's 16 lines into
// one L1 set (pitches of 4 KiB and up) are staged a B tile at a time
// (jit_ymm_byte_src_stage; not rows 4165 B apart), 4 lines of each row
// at a time in blocks of 4 groups (jit_ymm_byte_wide_src). Whole calls
// (ab -> ba, nchw -> nhwc of 256 channels), a last call of 100 A
// positions (a partial group), of 357 (a wide block, a single group, a
// partial group), a last call of 69 lanes (one line, then the edges) and
// of 4 (edges only), odd src strides, padded dst rows, 384 channels on 97
// x 113 planes (unstaged src rows), the src ending at a guard page; s8
// and u8 in turn. Bit-exact, and the rule on AVX2 only: not for dst rows
// of 200 B or padded to 4160 B (not line pairs), src rows under 1 KiB
// apart, nor below the streaming size. ctest runs it with each of the
// three knobs off (RELAYOUT_JIT_YMM_LINE_PAIRS, RELAYOUT_JIT_YMM_SRC_STAGE,
// RELAYOUT_JIT_YMM_WIDE_SRC) and with 2-line blocks.
TEST(jit_reorder, YmmByteLinePairs) {
    const bool pairs = getenv_int("RELAYOUT_JIT_YMM_LINE_PAIRS", 1) != 0;
    const bool stage = getenv_int("RELAYOUT_JIT_YMM_SRC_STAGE", 1) != 0;
    const int wide_knob = getenv_int("RELAYOUT_JIT_YMM_WIDE_SRC", 4);
    const int wide = stage && (wide_knob == 2 || wide_knob == 4) ? wide_knob : 0;
    struct case_t {
        rule_case_t r;
        int64_t staged; // the src stage's jit_ymm_byte_src_stage on AVX2
    };
    const std::vector<case_t> cases = {
        { { { 4096, 4100 }, "ab", "ba", {}, true }, 3 },
        { { { 4196, 4165 }, "ab", "", {}, true, { 1, 4224 } }, 0 },
        { { { 4096, 4100 }, "ab", "", { 4103, 1 }, true, { 1, 4224 } }, 3 },
        { { { 4096, 4453 }, "ab", "ba", { 8192, 1 }, true }, 3 },
        { { { 16, 256, 64, 64 }, "nchw", "nhwc", {}, true }, 3 },
        { { { 4, 384, 97, 113 }, "nchw", "nhwc", {}, true }, 0 },
        { { { 9, 200, 97, 113 }, "nchw", "nhwc", {}, false }, 0 },
        { { { 4096, 4100 }, "ab", "", {}, false, { 1, 4160 } }, 3 },
        { { { 17000, 1000 }, "ab", "ba", {}, false }, 0 },
        { { { 4, 256, 64, 64 }, "nchw", "nhwc", {}, false }, 0 },
    };
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool y = isa == cpu_isa_t::avx2;
        for (const auto &yc : cases) {
            jit_case_t c = case_of(yc.r, ++n % 2 ? relayout_s8 : relayout_u8);
            plan_t p;
            case_plan(c, p);
            const bool rule = y && yc.r.rule && pairs;
            EXPECT_EQ(x64::jit_ymm_byte_line_pairs(isa, p), rule) << c.str();
            const x64::jit_reorder_desc_t d = desc_of(c, isa);
            if (rule) {
                EXPECT_EQ(d.n[0], 512) << c.str();
                EXPECT_EQ(d.n[1], 128) << c.str();
                EXPECT_TRUE(d.ymm_small_lines && d.nt) << c.str();
            }
            if (y) {
                const int64_t staged = d.ymm_small_lines && stage ? yc.staged : 0;
                EXPECT_EQ(x64::jit_ymm_byte_src_stage(d), staged) << c.str();
                // (the 64-lane calls of 64 A positions: no block of 4)
                const bool blocks = d.n[0] >= 64 * wide;
                EXPECT_EQ(x64::jit_ymm_byte_wide_src(d), staged && blocks ? wide : 0) << c.str();
                if (rule && staged) {
                    EXPECT_EQ(x64::jit_ymm_byte_wide_src(d), wide) << c.str();
                }
            }
            if (!y) continue; // (other byte tiles: ByteRows128, BytePlanePairs)
            c.guard_src = n % 3 == 0;
            EXPECT_TRUE(run_jit_case(c, isa));
        }
    }
}

// The desc of a whole-plane byte call (`plane`: 4096 A positions, the
// wide stage) of 64 lanes, or of 128 (`pairs`: two tiles per A tile,
// byte_pair); not a plane call: fewer A positions (AVX-512).
void expect_byte_plane_desc(const jit_case_t &c, cpu_isa_t isa, bool plane, bool pairs) {
    const x64::jit_reorder_desc_t d = desc_of(c, isa);
    EXPECT_EQ(d.byte_pair, pairs) << c.str();
    if (plane) {
        EXPECT_EQ(d.n[0], 4096) << c.str();
        EXPECT_EQ(d.n[1], pairs ? 128 : 64) << c.str();
        EXPECT_EQ(x64::jit_wide_stage(d), 4) << c.str();
    } else if (isa == cpu_isa_t::avx512_core) {
        EXPECT_LT(d.n[0], 4096) << c.str();
    }
}

// Large byte-tile transposes of src rows 1 KiB or more apart and dst rows
// under 1 KiB apart take calls of a whole plane, 4096 A positions and one
// 64-lane B tile (jit_byte_plane_calls; Intel, ctest runs this test with
// RELAYOUT_JIT_BYTE_PLANE at 0 and 1 too): 32 MiB exactly, planes of 97 x
// 113 with 200 channels (partial last calls along A, a B tail of 8 lanes),
// src planes padded to 26000 B with dst rows of 130 B (not whole lines).
// Bit-exact, and the rule on AVX-512 only and only there: not below 32
// MiB, nor for dst rows 1 KiB apart (1024 channels), nor for blocks of
// 16 lanes (nChw16c: quad bytes).
TEST(jit_reorder, BytePlaneCalls) {
    const std::vector<rule_case_t> bytes = {
        { { 16, 256, 64, 64 }, "nchw", "nhwc", {}, true },
        { { 9, 200, 97, 113 }, "nchw", "nhwc", {}, true },
        { { 5, 130, 150, 173 }, "", "nhwc", { 130 * 26000, 26000, 173, 1 }, true },
        { { 4, 256, 64, 64 }, "nchw", "nhwc", {}, false },
        { { 4, 1024, 64, 64 }, "nchw", "nhwc", {}, false },
        { { 16, 256, 64, 64 }, "nchw", "nChw16c", {}, false },
    };
    run_byte_rule_cases(bytes, [](const jit_case_t &c, cpu_isa_t isa, bool z) {
        plan_t p;
        case_plan(c, p);
        const bool on = z && x64::jit_byte_plane_on();
        EXPECT_EQ(x64::jit_byte_plane_calls(isa, p), on) << c.str();
        // (dst rows of whole line pairs: 128 lanes, BytePlanePairs)
        expect_byte_plane_desc(c, isa, on, on && x64::jit_byte_plane_pairs(isa, p));
    });
}

// The whole-plane byte calls whose dst rows are whole pairs of lines (128
// to 896 B apart) take 128 lanes per call, two byte tiles per A tile
// reading halves of one 128-row wide stage (jit_byte_plane_pairs; Intel,
// ctest runs this test with RELAYOUT_JIT_BYTE_PLANE at 0 and 1 too): 256
// channels (two calls per plane), 128 (one, a whole dst row), 384 on
// planes of 97 x 113 (partial last calls along A and a partial A tile),
// 640 on src planes padded to an odd 8847 B. Bit-exact, and the rule on
// AVX-512 only and only there: not for dst rows of 200 B or padded to 320
// B (not line pairs: the 64-lane calls), nor for dst rows 1 KiB apart.
TEST(jit_reorder, BytePlanePairs) {
    const dim_t pl = 93 * 95 + 12; // (odd)
    const std::vector<rule_case_t> bytes = {
        { { 16, 256, 64, 64 }, "nchw", "nhwc", {}, true },
        { { 32, 128, 64, 64 }, "nchw", "nhwc", {}, true },
        { { 4, 384, 97, 113 }, "nchw", "nhwc", {}, true },
        { { 3, 640, 93, 95 }, "", "nhwc", { 640 * pl, pl, 95, 1 }, true },
        { { 9, 200, 97, 113 }, "nchw", "nhwc", {}, false },
        { { 16, 256, 64, 64 }, "nchw", "", {}, false, { 64 * 64 * 320, 1, 64 * 320, 320 } },
        { { 4, 1024, 64, 64 }, "nchw", "nhwc", {}, false },
    };
    run_byte_rule_cases(bytes, [](const jit_case_t &c, cpu_isa_t isa, bool z) {
        plan_t p;
        case_plan(c, p);
        const bool on = z && x64::jit_byte_plane_on();
        EXPECT_EQ(x64::jit_byte_plane_pairs(isa, p), on) << c.str();
        EXPECT_EQ(x64::jit_byte_rows128(isa, p), on) << c.str();
        expect_byte_plane_desc(c, isa, x64::jit_byte_plane_calls(isa, p), on);
    });
}

// 2-byte bit copies as word tiles (AVX-512: 16 A positions x 32 B lanes,
// partial A counts masked, B tails and padded lanes on 32-bit tiles; AVX2
// keeps the 32-bit tiles): sizes around both tile edges, odd strides,
// padded A and B, long A runs (staged 32-column groups, then a partial
// group and a partial tile), 16-lane blocks (word pair tiles), every
// 2-byte type, and large problems whose whole-line dst rows stream (other
// dst rows store cached and prefetch the next A tile's dst lines for
// writing: jit_word_dst_prefetch). The desc must take word tiles on
// AVX-512 only, and (AVX-512) one 32-lane B tile per call where the B src
// rows are a page or more apart, or, large, 128 B or more
// (jit_word_tile_params).
TEST(jit_reorder, WordTiles) {
    int n = 0;
    auto b_per_call = [](const jit_case_t &c, cpu_isa_t isa) {
        plan_t p;
        case_plan(c, p);
        std::string name, kplan;
        x64::jit_reorder_accept(p, isa, name, &kplan);
        const size_t at = kplan.find(" B[");
        return at == std::string::npos ? -1 : std::stol(kplan.substr(at + 3));
    };
    auto desc_of = [](const jit_case_t &c, cpu_isa_t isa, x64::jit_reorder_desc_t &d) {
        plan_t p;
        ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
        kernel_plan_t kp;
        ASSERT_EQ(kernel_plan_create(kp, p, x64::jit_plan_params(isa, p)), status_t::success);
        x64::jit_reorder_desc_init(d, isa, p, kp);
    };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const bool z = isa == cpu_isa_t::avx512_core;
        for (data_type_t dt : { relayout_bf16, relayout_f16, relayout_s16, relayout_u16 }) {
            // ab -> ba of m x k: plain (v = 0), with odd strides on both
            // sides (1), padded A (16b) and B (32a: 2, 64a: 3) blocks.
            auto ab_ba = [&](dim_t m, dim_t k, int v) {
                jit_case_t c;
                c.dims = { m, k };
                c.sdt = c.ddt = dt;
                c.stag = "ab";
                c.dtag = v < 2 ? "ba" : v == 2 ? "BA16b32a" : "BA16b64a";
                if (v == 1) c.sstrides = { k + 3, 1 }, c.dstrides = { 1, m + 5 };
                return c;
            };
            for (dim_t m : { 1, 16, 31, 32, 33, 63, 64, 65, 97 })
                for (dim_t k : { 1, 7, 8, 9, 15, 16, 17, 31, 33 })
                    for (int v = 0; v < 4; ++v)
                        EXPECT_TRUE(run_jit_case(ab_ba(m, k, v), isa, nullptr, ++n));
            // Long A runs under whole 32-lane B tiles: staged groups, then a
            // partial group and a partial tile (A = 1000 = 992 + 8).
            for (dim_t m : { 32, 64, 65 }) {
                x64::jit_reorder_desc_t d;
                ASSERT_NO_FATAL_FAILURE(desc_of(ab_ba(m, 1000, 0), isa, d));
                EXPECT_EQ(d.word_tile, z) << m;
                EXPECT_EQ(x64::jit_word_dst_prefetch(d), 0) << m; // in the caches
                for (int v = 0; v < 2; ++v)
                    EXPECT_TRUE(run_jit_case(ab_ba(m, 1000, v), isa, nullptr, ++n));
            }
        }
        // 16-lane blocks, dst rows adjacent (nChw16c): word pair tiles of
        // 32 A positions, A tails and padded channels on 32-bit tiles; odd
        // channel strides.
        for (dim_t C : { 16, 17, 32, 45 })
            for (auto hw : { std::make_pair(1, 31), std::make_pair(2, 16), std::make_pair(3, 11),
                         std::make_pair(5, 13), std::make_pair(4, 16), std::make_pair(1, 65),
                         std::make_pair(7, 7), std::make_pair(1, 63) }) {
                jit_case_t c;
                c.dims = { 2, C, hw.first, hw.second };
                c.sdt = c.ddt = relayout_bf16;
                c.stag = "nchw";
                c.dtag = "nChw16c";
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                x64::jit_reorder_desc_t d;
                ASSERT_NO_FATAL_FAILURE(desc_of(c, isa, d));
                EXPECT_EQ(d.word_pair, z && hw.first * hw.second >= 32) << c.str();
                const dim_t HW = hw.first * hw.second;
                c.sstrides = { C * (HW + 3) + 5, HW + 3, hw.second, 1 };
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            }
        // Past the streaming threshold: whole 64-byte rows streamed (far
        // rows staged; near rows; blocked src), with A and B edges.
        for (auto dims : { std::vector<dim_t>{ 4096, 3200 }, std::vector<dim_t>{ 4095, 3217 } }) {
            jit_case_t c;
            c.dims = dims;
            c.sdt = c.ddt = relayout_bf16;
            c.stag = "ab";
            c.dtag = "ba";
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            // (Dst rows whole lines apart: two B tiles, jit_word_rows64;
            // AVX2: a dst line's 32 lanes, jit_ymm_word_lines.)
            EXPECT_EQ(b_per_call(c, isa), dims[0] == 4096 ? (z ? 64 : 32) : z ? 32 : 16) << c.str();
            // Dst rows of 4095 bf16 (not whole lines apart) store cached and
            // prefetch the next A tile's dst lines for writing.
            x64::jit_reorder_desc_t d;
            ASSERT_NO_FATAL_FAILURE(desc_of(c, isa, d));
            EXPECT_EQ(x64::jit_word_dst_prefetch(d), z && dims[0] == 4095 ? 1 : 0) << c.str();
        }
        for (auto tags : { std::make_pair("nchw", "nhwc"), std::make_pair("nhwc", "nchw"),
                     std::make_pair("nChw16c", "nchw"), std::make_pair("nchw", "nChw16c") }) {
            jit_case_t c;
            c.dims = { 4, 66, 256, 193 };
            c.sdt = c.ddt = relayout_f16;
            c.stag = tags.first;
            c.dtag = tags.second;
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            x64::jit_reorder_desc_t d;
            ASSERT_NO_FATAL_FAILURE(desc_of(c, isa, d));
            EXPECT_EQ(d.word_tile || d.word_pair, z) << c.str();
            EXPECT_EQ(d.nt, z || d.ymm_small_lines) << c.str(); // (AVX2: staged lines)
            // nhwc dst rows of 66 channels: 132 bytes apart.
            EXPECT_EQ(x64::jit_word_dst_prefetch(d), z && c.dtag == "nhwc" ? 1 : 0) << c.str();
            if (z && c.stag != "nChw16c" && c.dtag != "nChw16c") {
                // (nchw dst rows 256 x 193 x 2 B apart, a multiple of 512
                // B: the usual split, jit_word_aliased_dst.)
                if (c.dtag == "nchw")
                    EXPECT_GT(b_per_call(c, isa), 32) << c.str();
                else
                    EXPECT_EQ(b_per_call(c, isa), 32) << c.str();
            }
        }
        // Far rows (4 KiB apart) in the caches: one B tile per call too.
        jit_case_t f;
        f.dims = { 96, 2048 };
        f.sdt = f.ddt = relayout_u16;
        f.stag = "ab";
        f.dtag = "ba";
        EXPECT_TRUE(run_jit_case(f, isa, nullptr, ++n));
        EXPECT_EQ(b_per_call(f, isa), z ? 32 : 16) << f.str();
        // Near rows in the caches keep their longer calls (C = 64: rows of
        // 128 B).
        jit_case_t c;
        c.dims = { 2, 64, 33, 35 };
        c.sdt = c.ddt = relayout_bf16;
        c.stag = "nhwc";
        c.dtag = "nchw";
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        EXPECT_GT(b_per_call(c, isa), 32) << c.str();
    }
}

// Large 4-byte bit-copy transposes whose dst rows are not whole lines
// apart store cached: every full AVX-512 tile prefetches into L2 the last
// dst line of each row of the A tile 4 ahead (jit_f32_dst_prefetch). Odd
// extents give A and B edge tiles and calls whose last A tiles have no
// full tile that far ahead; A-outer (far src rows, B = 32 per call) and
// B-outer (near src rows) orders, padded strides, f32 and s32. Bit-exact
// (AVX-512, whose tiles change; AVX2 the desc only);
// the desc must take the prefetch on AVX-512 bit copies whose dst rows are
// not whole lines apart only (not dst rows of whole lines, conversions,
// AVX2 or problems in the caches).
TEST(jit_reorder, F32DstPrefetch) {
    // rule: dst rows not whole lines apart, large
    const std::vector<rule_case_t> cases = {
        { { 3001, 2200 }, "ab", "ba", {}, true }, { { 2201, 3001 }, "ba", "ab", {}, true },
        { { 3001, 2203 }, "", "", { 2209, 1 }, true, { 1, 3011 } },
        { { 3008, 2200 }, "ab", "ba", {}, false }, // dst rows 188 lines apart
        { { 2, 259, 131, 133 }, "nchw", "nhwc", {}, true },
        { { 4, 250, 123, 131 }, "nhwc", "nchw", {}, true }, // B-outer
        { { 301, 220 }, "ab", "ba", {}, false },            // in the caches
    };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const auto &fc : cases)
            for (int t = 0; t < 2; ++t) {
                // Also s32 once (B-outer) and f32 -> s32 (a conversion:
                // not the rule) once (A-outer).
                if (t == 1 && &fc != &cases[0] && &fc != &cases[5]) continue;
                jit_case_t c = case_of(fc, relayout_f32);
                if (t == 1 && &fc == &cases[5]) c.sdt = relayout_s32;
                if (t == 1) c.ddt = relayout_s32;
                const bool z = isa == cpu_isa_t::avx512_core && fc.rule && c.sdt == c.ddt;
                if (isa == cpu_isa_t::avx512_core) {
                    EXPECT_TRUE(run_jit_case(c, isa));
                }
                EXPECT_EQ(x64::jit_f32_dst_prefetch(desc_of(c, isa)), z ? 4 : 0) << c.str();
            }
    }
}

// Large f32 transposes whose dst rows are not whole lines apart, with B
// src rows far apart (calls of 32 B lanes): full pairs of tiles stream the
// line between their two tiles and store the partial lines at its ends
// cached (jit_f32_line_pairs). Dst rows 3001 elements apart give every
// start offset m in a line (9a mod 16), 3002 the even ones (row 8 whole
// lines: m = 0); odd extents give A and B edges (a last call of 25 B
// lanes takes single tiles); a second batch whose dst starts 3 elements
// off a line runs the cached version (calls not aligned). Bit-exact; the
// desc takes the pairs only on bit copies of that kind (not dst rows of
// whole lines, conversions, calls of 16 B lanes or problems in the
// caches). AVX2: YmmF32LinePairs.
// The rule cases of the f32 line pairs on both ISAs (the first case of
// each table also runs as a conversion), then `more`.
std::vector<rule_case_t> f32_line_pair_cases(std::initializer_list<rule_case_t> more) {
    std::vector<rule_case_t> cases = {
        { { 3001, 2200 }, "ab", "ba", {}, true }, { { 2201, 3001 }, "ba", "ab", {}, true },
        { { 3002, 2199 }, "", "", { 2207, 1 }, true, { 1, 3002 } },
        { { 2, 3001, 1100 }, "", "", { 3001 * 1100, 1100, 1 }, true,
                { 3001 * 1100 + 3, 1, 3001 } }, // batch 1 misaligned: cached pairs
        { { 2, 259, 131, 133 }, "nchw", "nhwc", {}, true },
        { { 3008, 2200 }, "ab", "ba", {}, false }, // dst rows whole lines apart
        { { 301, 220 }, "ab", "ba", {}, false },   // in the caches
    };
    cases.insert(cases.end(), more);
    return cases;
}

TEST(jit_reorder, F32LinePairs) {
    const std::vector<rule_case_t> cases = f32_line_pair_cases({
            { { 4, 250, 123, 131 }, "nchw", "nhwc", {}, false }, // 16 B lanes per call
    });
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no AVX-512";
    for (const auto &fc : cases)
        for (int t = 0; t < 2; ++t) {
            // Also f32 -> s32 (a conversion: not the rule) once.
            if (t == 1 && &fc != &cases[0]) continue;
            jit_case_t c = case_of(fc, relayout_f32);
            if (t == 1) c.ddt = relayout_s32;
            EXPECT_TRUE(run_jit_case(c, isa));
            EXPECT_EQ(desc_of(c, isa).f32_lines, fc.rule && t == 0) << c.str();
        }
}

// The same on AVX2 (8x16 tile pairs, calls of 16 B lanes: every pair's
// head line joins the previous call's row; jit_ymm_f32_line_pairs).
// Dst rows 3001 elements apart give every start offset m in a line (9a
// mod 16, both parities of 8-row A tiles), 3002 the even ones (row 8: m =
// 0), 259 (nchw -> nhwc) 3a mod 16; A counts that are not multiples of 8
// (2201, 2199, the last call of 131 x 133) leave a last A tile moved
// back (cached, the rows it repeats already streamed); B edges (a last
// call of 9, 10, 3 lanes: the 8x8 tiles); a second batch whose dst starts
// 3 elements off a line (the cached version). Bit-exact; the desc takes the pairs only
// on AVX2 bit copies of that kind with far B src rows (not near ones:
// nhwc -> nchw, not dst rows of whole lines: the 8x16 tiles, conversions,
// problems in the caches) and streams them.
TEST(jit_reorder, YmmF32LinePairs) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no AVX2";
    const std::vector<rule_case_t> cases = f32_line_pair_cases({
            { { 4, 250, 123, 131 }, "nhwc", "nchw", {}, false }, // near B src rows
    });
    for (const auto &fc : cases)
        for (int t = 0; t < 2; ++t) {
            // Also f32 -> s32 (a conversion: not the rule) once.
            if (t == 1 && &fc != &cases[0]) continue;
            jit_case_t c = case_of(fc, relayout_f32);
            if (t == 1) c.ddt = relayout_s32;
            const bool z = fc.rule && t == 0;
            EXPECT_TRUE(run_jit_case(c, isa));
            const x64::jit_reorder_desc_t d = desc_of(c, isa);
            EXPECT_EQ(d.f32_lines, z) << c.str();
            if (z) {
                EXPECT_TRUE(d.nt) << c.str();
            }
        }
}

// The AVX-512 f32 line pairs with their lines assembled in registers
// (gen_f32_line_pair_regs: rows a and 16 - a packed into one register, the
// carried rows packed into the scratch): dst rows 2096 + k elements apart
// for k = 1 .. 15 give every misalignment m = a * k mod 16 (odd k: every
// m once, row 8 alone with m = 8; even k: rows of m = 0, whole lines,
// among them); A of 3100 (a call of 2048 positions, one of 1052: its
// last A tile 12 rows, the edge tiles) and B of 2085 (65 whole pairs
// carried from call to call, then a call of 5 lanes: single tiles, the
// tails before them). k = 24 (m as for 8) in two batches, the second 3
// elements off a line: the cached pairs. Bit-exact on both ISAs (AVX2:
// its own pairs); the desc takes the line pairs on both.
TEST(jit_reorder, F32LinePairRegs) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (dim_t k : { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 24 }) {
            if (isa == cpu_isa_t::avx2 && k % 4 != 1) continue;
            const dim_t B = 2085, A = 3100, P = 2096 + k;
            jit_case_t c = jit_case_t::of({ B, A }, relayout_f32, relayout_f32, "", "");
            c.sstrides = { A + 3, 1 };
            c.dstrides = { 1, P };
            if (k == 24) { // two batches, the second 3 elements off a line
                c.dims = { 2, B, A };
                c.sstrides = { B * (A + 3), A + 3, 1 };
                c.dstrides = { A * P + 3, 1, P };
            }
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
            const x64::jit_reorder_desc_t d = desc_of(c, isa);
            EXPECT_EQ(d.f32_lines, true) << c.str();
            ++n;
        }
    }
    if (n == 0) GTEST_SKIP() << "no AVX2";
}

// Large f32 nhwc -> nchw in B-outer order (NearSrcRowsBOuterPrefetch)
// with two B tiles per A tile where the B src rows are 512 B to 1 KiB
// apart and every call's A is whole tiles (b_outer_pairs): C = 128, 192,
// 256, streamed (planes of whole lines: 48 x 65 leaves a lone last B tile
// of each image) and cached (63 x 65: dst rows not whole lines apart,
// each image's last call 127 lanes: a lone full tile and an edge tile);
// a second image 3 elements off a line (its calls' pairs cached); not
// 512 channels (rows 2 KiB apart), 200 (an A edge tile) or on AVX2; a
// conversion (a per-channel scale) runs its own tiles. Bit-exact.
TEST(jit_reorder, NearSrcRowsBOuterPairs) {
    struct pair_case_t {
        std::vector<dim_t> dims;
        bool rule;
        int mask = -1;
        bool offset = false;
    };
    const std::vector<pair_case_t> cases = {
        { { 16, 256, 48, 65 }, true }, // streamed, a lone last B tile
        { { 16, 256, 63, 65 }, true }, // dst rows not lines apart: cached
        { { 24, 128, 64, 64 }, true }, // streamed
        { { 16, 192, 48, 65 }, true }, // streamed
        { { 16, 256, 48, 65 }, true, -1, true },
        { { 4, 512, 64, 64 }, false },
        { { 16, 200, 64, 64 }, false },
        { { 16, 256, 63, 65 }, false, 1 },
    };
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (const pair_case_t &pc : cases) {
            jit_case_t c = jit_case_t::of(pc.dims, relayout_f32, relayout_f32, "nhwc", "nchw");
            c.src_scale_mask = pc.mask;
            if (pc.offset) { // the second image's dst 3 elements off a line
                const dim_t C = pc.dims[1], H = pc.dims[2], W = pc.dims[3];
                c.sstrides = { H * W * C, 1, W * C, C };
                c.dstrides = { C * H * W + 3, H * W, W, 1 };
            }
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
            if (pc.mask < 0) { // (desc_of plans without the attributes)
                EXPECT_EQ(desc_of(c, isa).b_outer_pair, pc.rule && isa == cpu_isa_t::avx512_core)
                        << c.str();
            }
        }
    }
}

// Large f32 nChw16c and nChw8c -> nchw (streamed): several B tiles per
// dst row visit on `isa` (AVX-512: jit_blk_lines, AVX2 8x16 tiles:
// jit_ymm_blk_lines; each the other's field 0): whole planes (64 x 64),
// planes whose calls end in fewer tiles than a visit takes (48 x 65:
// 3120 positions), a second image 3 elements off a line (its calls
// cached, the first image's streamed); not where the dst rows are not
// whole lines apart (63 x 65), the channels are padded (250: the last
// block's check), nor for a blocked dim other than the channels
// (Abcd16a); a src scale takes the value tiles. Bit-exact. (The tiles
// read only whole tiles of the call: no address past the values.)
// Returns the number of cases run (0: the ISA is not available).
int block_lines_cases(cpu_isa_t isa) {
    if (!x64::isa_allowed(isa)) return 0;
    struct blk_case_t {
        std::vector<dim_t> dims;
        bool rule;
        const char *stag = "nChw16c";
        int mask = -1;
        bool offset = false;
    };
    const std::vector<blk_case_t> cases = {
        { { 16, 256, 64, 64 }, true },
        { { 8, 256, 48, 65 }, true },
        { { 4, 768, 64, 64 }, true, "nChw16c", -1, true },
        { { 8, 256, 63, 65 }, false },
        { { 8, 250, 64, 64 }, false },
        { { 256, 16, 64, 64 }, false, "Abcd16a" },
        { { 8, 256, 63, 65 }, false, "nChw16c", 0 },
        { { 16, 256, 64, 64 }, true, "nChw8c" }, // (8-row tiles)
        { { 8, 256, 48, 65 }, true, "nChw8c" },
        { { 4, 768, 64, 64 }, true, "nChw8c", -1, true },
        { { 8, 256, 63, 65 }, false, "nChw8c" },
    };
    const bool zmm = isa == cpu_isa_t::avx512_core;
    const int K = zmm ? x64::jit_blk_lines_tiles() : x64::jit_ymm_blk_lines_tiles();
    for (const blk_case_t &bc : cases) {
        jit_case_t c = jit_case_t::of(bc.dims, relayout_f32, relayout_f32, bc.stag, "nchw");
        c.src_scale_mask = bc.mask;
        if (bc.offset) { // the second image's dst 3 elements off a line
            const dim_t C = bc.dims[1], H = bc.dims[2], W = bc.dims[3];
            c.dstrides = { C * H * W + 3, H * W, W, 1 };
        }
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        if (bc.mask < 0) { // (desc_of plans without the attributes)
            const int tiles = bc.rule ? K * (std::strcmp(bc.stag, "nChw8c") ? 1 : 2) : 0;
            const x64::jit_reorder_desc_t d = desc_of(c, isa);
            EXPECT_EQ(d.blk_lines, zmm ? tiles : 0) << c.str();
            EXPECT_EQ(d.ymm_blk_lines, zmm ? 0 : tiles) << c.str();
        }
    }
    return (int)cases.size();
}

// ctest runs these at knob values 0, 2 and 3 too (jit_blk_lines_tiles,
// jit_ymm_blk_lines_tiles).
TEST(jit_reorder, BlockLines) {
    if (block_lines_cases(cpu_isa_t::avx512_core) == 0) GTEST_SKIP() << "no AVX-512";
}

TEST(jit_reorder, YmmBlockLines) {
    if (block_lines_cases(cpu_isa_t::avx2) == 0) GTEST_SKIP() << "no AVX2";
}

// Interleaves whose call covers a row of 64 lanes (4i16o4i: 16 o x 4 i) on
// AVX-512 run the four 16-lane tiles of the row unrolled ("row tiles");
// s8 / u8 dsts of scales constant along A convert each src row first and
// narrow with saturating packs before a dword transpose ("row bytes").
// A of 16 (4x4), shorter (3x3, 1x2: masked rows), longer (5x5: a row tile,
// then an edge tile), O and I off the blocks (B edges, padding), common,
// per-o and dst scales, zero points, both compensations, several source
// types; large problems for the streaming stores and the src prefetch.
TEST(jit_reorder, RowTiles) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (auto dims : { std::vector<dim_t>{ 46, 32, 4, 4 }, std::vector<dim_t>{ 17, 32, 3, 3 },
                     std::vector<dim_t>{ 17, 20, 3, 3 }, std::vector<dim_t>{ 48, 16, 5, 5 },
                     std::vector<dim_t>{ 16, 48, 1, 2 } })
            for (data_type_t sdt : { relayout_f32, relayout_bf16, relayout_s8, relayout_s32 })
                for (data_type_t ddt : { relayout_s8, relayout_u8, relayout_f32, relayout_bf16 })
                    for (int variant = 0; variant < 6; ++variant) {
                        jit_case_t c;
                        c.dims = dims;
                        c.sdt = sdt;
                        c.ddt = ddt;
                        c.stag = "oihw";
                        c.dtag = "OIhw4i16o4i";
                        switch (variant) {
                            case 0:
                            case 1:
                            case 2:
                            case 3: set_scale_variant(c, variant, 1); break;
                            case 4:
                                // The sum: row tiles of 32-bit lanes.
                                if (ddt != relayout_s8) continue;
                                c.beta = 0.5f;
                                c.extra_flags = s8s8;
                                c.comp_mask = 1;
                                break;
                            default:
                                if (ddt != relayout_s8) continue;
                                // Zero points: the masked rows past A
                                // convert to non-zero values.
                                c.src_scale_mask = 1;
                                c.src_zp = 3;
                                c.dst_zp = -2;
                                c.extra_flags = s8s8 | zp;
                                c.comp_mask = c.zp_comp_mask = 1;
                                break;
                        }
                        std::string impl;
                        EXPECT_TRUE(run_jit_case(c, isa, &impl, ++n));
                        // (A padded I is a transpose: 17 x 20.)
                        if (dims[1] % 16 == 0) {
                            EXPECT_NE(impl.find(":interleave"), std::string::npos)
                                    << c.str() << " " << impl;
                        }
                    }
        // Past the streaming threshold: whole 64-byte rows streamed.
        for (auto dims :
                { std::vector<dim_t>{ 1024, 640, 4, 4 }, std::vector<dim_t>{ 1008, 1136, 3, 3 } })
            for (data_type_t ddt : { relayout_s8, relayout_u8, relayout_bf16, relayout_f32 }) {
                jit_case_t c;
                c.dims = dims;
                c.ddt = ddt;
                c.stag = "oihw";
                c.dtag = "OIhw4i16o4i";
                c.src_scale_mask = ddt == relayout_u8 ? 0 : 1;
                if (ddt == relayout_s8) {
                    c.extra_flags = s8s8;
                    c.comp_mask = 1;
                }
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            }
        // 8-bit weight packings stream from half the usual size (26 MB):
        // byte tiles (s8 bit copies) and row bytes, with compensation.
        for (data_type_t sdt : { relayout_s8, relayout_f32 }) {
            jit_case_t c;
            c.dims = { 1024, sdt == relayout_s8 ? 800 : 400, 4, 4 };
            c.sdt = sdt;
            c.ddt = relayout_s8;
            c.stag = "oihw";
            c.dtag = "OIhw4i16o4i";
            c.extra_flags = s8s8;
            c.comp_mask = 1;
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        }
    }
}

// 4-byte bit copies whose A is shorter than a tile use only its TA
// transposed rows: the row tiles (oihw -> OIhw8i8o, OIhw4i16o4i: any TA)
// and the full transpose tiles of an odd A (3x3 and 1x3 weights' hw to
// OIhw16o16i, ohwi) skip the other rows' shuffles, and the row tiles test
// the streamed flag once per tile. O and I around the blocks (edge
// tiles), odd src strides, s32, the value paths (scales, the sum: whole
// transposes), 2x2 and 5x5 (TA = 16: the whole transpose), cached and
// streamed.
TEST(jit_reorder, ShortATileRows) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    struct tag_case_t {
        const char *stag, *dtag, *strategy;
    };
    const tag_case_t tags[] = { { "oihw", "OIhw8i8o", ":interleave" },
        { "oihw", "OIhw4i16o4i", ":interleave" }, { "oihw", "OIhw16o16i", ":transpose" },
        { "oihw", "ohwi", ":transpose" } };
    const std::vector<std::vector<dim_t>> shapes = { { 16, 16, 3, 3 }, { 17, 24, 3, 3 },
        { 40, 72, 1, 3 }, { 33, 9, 3, 1 }, { 24, 16, 2, 2 }, { 16, 32, 5, 5 }, { 8, 8, 1, 7 } };
    int n = 0;
    for (const auto &t : tags)
        for (const auto &dims : shapes)
            for (int variant = 0; variant < 5; ++variant) {
                jit_case_t c = jit_case_t::of(dims, relayout_f32, relayout_f32, t.stag, t.dtag);
                switch (variant) {
                    case 0: break;
                    case 1: c.src_scale_mask = 1; break; // (the value path)
                    case 2: c.beta = 0.5f; break;
                    case 3: c.sdt = c.ddt = relayout_s32; break;
                    default:
                        // Odd src strides: rows of I x hw + 3 elements.
                        c.sstrides = { dims[1] * dims[2] * dims[3] + 3, dims[2] * dims[3], dims[3],
                            1 };
                        break;
                }
                std::string impl;
                EXPECT_TRUE(run_jit_case(c, isa, &impl, ++n)) << c.str();
                // (Per-o scales of 8i8o: a transpose.)
                const bool whole = dims[0] % 16 == 0 && dims[1] % 16 == 0;
                if (whole && (variant == 0 || variant == 3)) {
                    EXPECT_NE(impl.find(t.strategy), std::string::npos) << c.str() << " " << impl;
                }
            }
    // Past the streaming threshold: the row tiles' streamed stores.
    for (const char *dtag : { "OIhw8i8o", "OIhw16o16i" }) {
        jit_case_t c =
                jit_case_t::of({ 1000, 1016, 3, 3 }, relayout_f32, relayout_f32, "oihw", dtag);
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
    }
}

// Byte-tile interleaves whose 4-lane groups are whole src lines (s8 / u8
// oihw -> OIhw4i16o4i of 16 hw positions: 4x4, 2x8, 1x16) load each line
// once and transpose its 128-bit lanes (jit_byte_lines); 3x3 and 5x5 keep
// the 16-byte loads. O and I around the blocks (B edges, padded I), odd
// src strides (lines not 64-byte aligned; an i stride of 17: no lines),
// both compensations; a streamed problem (26 MB) with and without s8s8.
TEST(jit_reorder, ByteLinesInterleave) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    int n = 0;
    for (data_type_t dt : { relayout_s8, relayout_u8 })
        for (auto hw : { std::vector<dim_t>{ 4, 4 }, std::vector<dim_t>{ 2, 8 },
                     std::vector<dim_t>{ 1, 16 }, std::vector<dim_t>{ 3, 3 },
                     std::vector<dim_t>{ 5, 5 } })
            for (dim_t O : { 16, 17, 48, 70 })
                for (dim_t I : { 4, 13, 32 })
                    for (uint64_t flags : { uint64_t(0), s8s8, zp, s8s8 | zp }) {
                        if (flags && dt != relayout_s8) continue;
                        const dim_t HW = hw[0] * hw[1];
                        jit_case_t c = jit_case_t::of(
                                { O, I, hw[0], hw[1] }, dt, dt, "oihw", "OIhw4i16o4i");
                        if (!flags && O == 48 && I == 32) {
                            x64::jit_reorder_desc_t d;
                            ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
                            EXPECT_TRUE(d.byte_tile) << c.str();
                            EXPECT_EQ(x64::jit_byte_lines(d), HW == 16) << c.str();
                        }
                        c.set_comp(flags, 1);
                        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                        for (dim_t is : { HW, HW + 1 }) {
                            c.sstrides = { I * is + 3, is, hw[1], 1 };
                            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                        }
                    }
    for (uint64_t flags : { uint64_t(0), s8s8 }) {
        jit_case_t c = jit_case_t::of(
                { 1024, 800, 4, 4 }, relayout_s8, relayout_s8, "oihw", "OIhw4i16o4i");
        x64::jit_reorder_desc_t d;
        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
        EXPECT_TRUE(d.nt && x64::jit_byte_lines(d));
        c.set_comp(flags, 1);
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
}

// Interleaves of 1-byte bit copies whose next loop is too long to bake
// whole split it (jit_split_interleaves): the largest divisor of its count that
// keeps the call within the bake limit is baked (oihw -> OIhw4i16o4i 4x4:
// 8 of 32 I blocks; 12 blocks: 6; 7: all), none when only 1 divides (13)
// or the driver would keep too few calls for the threads (3 O blocks);
// padded O (250: B edges in the driver); conversions (f32 -> s8) split on
// AVX-512 only, 2-byte dsts keep their calls. Large conversions keep the
// prefetch two calls ahead through the split (3x3: the flattened rows).
// Both ISAs, bit-exact, with s8s8 and zero-point compensation and scales.
TEST(jit_reorder, SplitInterleaveCalls) {
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        const struct {
            dim_t O, I;
            const char *loops; // the kernel plan's baked loops
        } cases[] = { { 256, 512, "loops:[8 256 4096 d1*16][4 64 64 d1*4]" },
            { 250, 512, "loops:[8 256 4096 d1*16][4 64 64 d1*4]" },
            { 256, 192, "loops:[6 256 4096 d1*16][4 64 64 d1*4]" },
            { 256, 112, "loops:[7 256 4096 d1*16][4 64 64 d1*4]" }, // (baked whole)
            { 256, 208, "loops:[4 64 64 d1*4] driver" },
            { 48, 512, "loops:[4 64 64 d1*4] driver" } };
        for (const auto &k : cases)
            for (data_type_t sdt : { relayout_s8, relayout_f32 }) {
                jit_case_t c =
                        jit_case_t::of({ k.O, k.I, 4, 4 }, sdt, relayout_s8, "oihw", "OIhw4i16o4i");
                std::string kplan;
                ASSERT_NO_FATAL_FAILURE(case_kplan(c, isa, kplan));
                const bool split = sdt == relayout_s8 || isa == cpu_isa_t::avx512_core;
                const char *loops = split || k.I == 112 ? k.loops : "loops:[4 64 64 d1*4] driver";
                EXPECT_NE(kplan.find(loops), std::string::npos) << c.str() << ": " << kplan;
                for (uint64_t flags : { uint64_t(0), s8s8, s8s8 | zp }) {
                    c.set_comp(flags, 1);
                    c.src_scale_mask = sdt == relayout_f32 ? 1 : -1;
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                }
                c.set_comp(0, 0);
                c.src_scale_mask = -1;
                c.ddt = relayout_u8;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            }
        jit_case_t c = jit_case_t::of(
                { 256, 512, 4, 4 }, relayout_f32, relayout_bf16, "oihw", "OIhw4i16o4i");
        std::string kplan;
        ASSERT_NO_FATAL_FAILURE(case_kplan(c, isa, kplan));
        EXPECT_NE(kplan.find("loops:[4 64 64 d1*4] driver"), std::string::npos) << kplan;
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        if (isa != cpu_isa_t::avx512_core) continue;
        // Large (streamed) f32 -> s8 3x3: 8 of the 64 I blocks a call, the
        // flattened rows to bytes prefetched two blocks ahead.
        c = jit_case_t::of({ 1024, 1024, 3, 3 }, relayout_f32, relayout_s8, "oihw", "OIhw4i16o4i");
        ASSERT_NO_FATAL_FAILURE(case_kplan(c, isa, kplan));
        EXPECT_NE(kplan.find("loops:[8 144 2304 d1*16][4 36 64 d1*4]"), std::string::npos) << kplan;
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_TRUE(d.nt) << c.str();
        EXPECT_EQ(d.flat_bytes, 144) << c.str();
        EXPECT_EQ(d.flat_pf, 2 * 144 * 4) << c.str();
        c.src_scale_mask = 1;
        c.set_comp(s8s8, 1);
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
    }
}

// AVX-512 full tiles of an A shorter than a tile (TA < 16 lanes of each
// src row, not 8) load their rows unmasked where the whole vector ends
// within the tile's src (desc.a_rows_unmasked): the 16 x 16 tiles (oihw ->
// OIhw16i16o of 2- and 1-byte types, value paths, A = 2 .. 15) and the
// row tiles (oihw -> OIhw8i8o, OIhw4i16o4i to f32). Bit-exact with the
// extra lanes of other rows (contiguous and with gaps between the rows),
// scales and zero points (the extra lanes convert to other values), the
// sum, s8s8 compensation, edges (I and O not whole blocks), padding, the
// last full tile at the end of the src, and streamed.
TEST(jit_reorder, ShortAUnmaskedRows) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    int n = 0;
    // (Small problems tile o: O whole blocks put the last full tile at the
    // end of the src.)
    const std::vector<std::vector<dim_t>> dims_list = { { 17, 32, 3, 3 }, { 32, 32, 3, 3 },
        { 20, 35, 3, 3 }, { 16, 48, 2, 2 }, { 19, 32, 1, 3 }, { 17, 32, 3, 5 }, { 16, 48, 3, 5 },
        { 33, 16, 1, 7 }, { 18, 32, 2, 1 }, { 17, 64, 1, 13 }, { 32, 16, 1, 11 } };
    for (const auto &dims : dims_list)
        for (data_type_t sdt : { relayout_bf16, relayout_f16, relayout_s8, relayout_u8,
                     relayout_s16, relayout_f32 })
            for (data_type_t ddt : { sdt, relayout_f32, relayout_bf16 })
                for (int variant = 0; variant < 4; ++variant) {
                    if (sdt == relayout_f32 && ddt == relayout_f32 && variant == 0) continue;
                    if (variant && (sdt != relayout_s8 && sdt != relayout_f32)) continue;
                    jit_case_t c = jit_case_t::of(dims, sdt, ddt, "oihw", "OIhw16i16o");
                    set_scale_variant(c, variant, 1);
                    const x64::jit_reorder_desc_t d = desc_of(c, isa);
                    const dim_t A = dims[2] * dims[3];
                    EXPECT_EQ(d.a_rows_unmasked, d.isa == isa && A < 16) << c.str();
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
                }
    // The sum and s8s8 compensation (bit copies of s8 with the
    // compensation, summed per lane by the kernel).
    for (const auto &dims : dims_list) {
        jit_case_t c = jit_case_t::of(dims, relayout_f32, relayout_f32, "oihw", "OIhw16i16o");
        c.beta = 0.5f;
        c.src_scale_mask = 1;
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
        c = jit_case_t::of(dims, relayout_s8, relayout_s8, "oihw", "OIhw16i16o");
        c.set_comp(s8s8, 1);
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
    }
    // Gaps between the src rows (the extra lanes read them) and odd row
    // strides.
    for (dim_t gap : { 1, 7, 16 }) {
        jit_case_t c = jit_case_t::of({ 17, 32, 3, 3 }, relayout_bf16, relayout_bf16, "", "");
        c.sstrides = { 32 * (9 + gap) + 3, 9 + gap, 3, 1 };
        c.dtag = "OIhw16i16o";
        EXPECT_TRUE(desc_of(c, isa).a_rows_unmasked) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
        c.sdt = c.ddt = relayout_s8;
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
    }
    // Row tiles: 8i8o (f32: 8 o x 8 i lanes per row; O whole blocks) and
    // 4i16o4i to f32.
    std::vector<std::vector<dim_t>> row_dims = dims_list;
    for (const auto &dims : { std::vector<dim_t>{ 24, 32, 3, 3 }, { 64, 64, 3, 3 },
                 { 24, 16, 1, 13 }, { 40, 32, 3, 5 }, { 8, 48, 1, 2 } })
        row_dims.push_back(dims);
    for (const auto &dims : row_dims)
        for (const char *dtag : { "OIhw8i8o", "OIhw4i16o4i" })
            for (int variant = 0; variant < 4; ++variant) {
                jit_case_t c = jit_case_t::of(dims, relayout_f32, relayout_f32, "oihw", dtag);
                set_scale_variant(c, variant, 1);
                std::string impl;
                EXPECT_TRUE(run_jit_case(c, isa, &impl, ++n)) << c.str();
                // (Per-o scales make 8i8o a transpose.)
                if (dims[0] % 8 == 0 && dims[1] % 16 == 0 && variant < 2) {
                    EXPECT_NE(impl.find(":interleave"), std::string::npos) << c.str() << impl;
                }
                c.sdt = relayout_bf16;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
            }
    // Streamed (past the non-temporal threshold), the last tile at the end.
    for (data_type_t sdt : { relayout_bf16, relayout_s8 }) {
        jit_case_t c = jit_case_t::of({ 1024, 1024, 3, 3 }, sdt, sdt, "oihw", "OIhw16i16o");
        EXPECT_TRUE(desc_of(c, isa).a_rows_unmasked) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
    }
    jit_case_t c =
            jit_case_t::of({ 2048, 1024, 3, 3 }, relayout_f32, relayout_bf16, "oihw", "OIhw16i16o");
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
    // Not: A of half a tile (ymm loads), whole tiles, AVX2.
    c = jit_case_t::of({ 32, 32, 2, 4 }, relayout_bf16, relayout_bf16, "oihw", "OIhw16i16o");
    EXPECT_FALSE(desc_of(c, isa).a_rows_unmasked) << c.str();
    c.dims = { 32, 32, 4, 4 };
    EXPECT_FALSE(desc_of(c, isa).a_rows_unmasked) << c.str();
    c.dims = { 32, 32, 3, 3 };
    EXPECT_FALSE(desc_of(c, cpu_isa_t::avx2).a_rows_unmasked) << c.str();
}

// Conversions of plain weights to 4i16o4i bytes with a short A (3x3,
// 5x5, 2x2: not a whole 16 A positions; the i loop baked): each call's 16 o rows are
// converted along their flattened (i, hw) run into a byte stage and byte
// tiles assemble the dst rows (desc.flat_bytes). Bit-exact for s8 / u8
// dsts from f32, s8 and bf16, with common and per-o scales (expanded),
// dst scales, zero points, s8s8 and zero-point compensation, odd src
// strides, outer baked loops, edge calls (O not whole blocks: the usual tiles), and
// streamed (large, with the L2 prefetch); only where it applies.
TEST(jit_reorder, FlatRowsToBytes) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "avx512_core not available";
    int n = 0;
    jit_case_t c;
    c.stag = "oihw";
    c.dtag = "OIhw4i16o4i";
    c.ddt = relayout_s8;
    const struct {
        std::vector<dim_t> dims;
        dim_t flat;
    } flat_cases[] = { { { 64, 32, 3, 3 }, 144 }, { { 64, 64, 5, 5 }, 400 },
        { { 32, 64, 2, 2 }, 64 }, { { 40, 32, 3, 3 }, 144 } };
    for (const auto &fc : flat_cases)
        for (data_type_t sdt : { relayout_f32, relayout_s8, relayout_bf16 })
            for (data_type_t ddt : { relayout_s8, relayout_u8 })
                for (int variant = 0; variant < 5; ++variant) {
                    c = jit_case_t();
                    c.stag = "oihw";
                    c.dtag = "OIhw4i16o4i";
                    c.dims = fc.dims;
                    c.sdt = sdt;
                    c.ddt = ddt;
                    // (desc_of has no attributes: s8 -> s8 is a bit copy.)
                    const bool bits = sdt == relayout_s8 && ddt == relayout_s8;
                    if (variant == 0) {
                        EXPECT_EQ(desc_of(c, isa).flat_bytes, bits ? 0 : fc.flat) << c.str();
                    }
                    switch (variant) {
                        case 0: break;
                        case 1: c.src_scale_mask = 0; break;
                        case 2: c.src_scale_mask = 1, c.dst_scale_mask = 1; break;
                        case 3: c.dst_scale_mask = 0, c.src_zp = 3, c.dst_zp = -2; break;
                        default:
                            if (ddt != relayout_s8) continue;
                            c.src_scale_mask = 1;
                            c.src_zp = 3;
                            c.set_comp(variant == 4 ? s8s8 : s8s8 | zp, 1);
                            break;
                    }
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
                }
    c = jit_case_t();
    c.stag = "oihw";
    c.dtag = "OIhw4i16o4i";
    c.ddt = relayout_s8;
    // Odd src strides: rows of 64 x 9 + 5 elements.
    c.dims = { 32, 64, 3, 3 };
    c.sstrides = { 64 * 9 + 5, 9, 3, 1 };
    c.src_scale_mask = 1;
    c.set_comp(s8s8, 1);
    EXPECT_EQ(desc_of(c, isa).flat_bytes, 144) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
    c.sstrides.clear();
    // Large: streamed rows, each src line prefetched two calls ahead.
    c.dims = { 1024, 1024, 3, 3 };
    EXPECT_EQ(desc_of(c, isa).flat_pf, 2 * 144 * 4) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << c.str();
    c.dims = { 64, 32, 3, 3 };
    EXPECT_EQ(desc_of(c, isa).flat_pf, 0) << c.str();
    // Not flattened: whole A tiles (4x4), bit copies (byte tiles), wider
    // dsts, 1x1 (one A position: lanes), on AVX2.
    for (const auto &dims :
            { std::vector<dim_t>{ 64, 64, 4, 4 }, std::vector<dim_t>{ 64, 64, 1, 1 } }) {
        c.dims = dims;
        EXPECT_EQ(desc_of(c, isa).flat_bytes, 0) << c.str();
    }
    c.dims = { 64, 32, 3, 3 };
    c.sdt = relayout_s8;
    EXPECT_EQ(desc_of(c, isa).flat_bytes, 0) << c.str();
    c.sdt = relayout_f32;
    c.ddt = relayout_bf16;
    c.set_comp(0, 0); // (no s8s8 compensation to bf16)
    EXPECT_EQ(desc_of(c, isa).flat_bytes, 0) << c.str();
    c.ddt = relayout_s8;
    EXPECT_EQ(desc_of(c, cpu_isa_t::avx2).flat_bytes, 0) << c.str();
}

namespace relayout {
namespace impl {
namespace test {
namespace {

// Code pages are never writable and executable at once: after building
// kernels of every strategy, no mapping of the process is rwx.
TEST(jit_generator, NoWritableExecutablePages) {
    std::vector<std::unique_ptr<x64::jit_reorder_t>> keep;
    for (x64::cpu_isa_t isa : { x64::cpu_isa_t::avx512_core, x64::cpu_isa_t::avx2 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (auto tags : { std::make_pair("ab", "ba"), std::make_pair("ab", "ab") }) {
            jit_case_t c;
            c.dims = { 33, 17 };
            c.stag = tags.first;
            c.dtag = tags.second;
            memory_desc_t s, d;
            ASSERT_EQ(make_md(s, c, true), status_t::success);
            ASSERT_EQ(make_md(d, c, false), status_t::success);
            plan_t p;
            ASSERT_EQ(plan_create(p, s, d, attr_t()), status_t::success);
            std::unique_ptr<x64::jit_reorder_t> r;
            ASSERT_EQ(x64::jit_reorder_create(p, isa, r), status_t::success);
            keep.push_back(std::move(r));
        }
    }
    FILE *f = std::fopen("/proc/self/maps", "r");
    if (!f) GTEST_SKIP() << "no /proc/self/maps";
    char line[512];
    while (std::fgets(line, sizeof(line), f)) {
        char perms[8] = { 0 };
        if (std::sscanf(line, "%*s %7s", perms) == 1) {
            EXPECT_FALSE(perms[1] == 'w' && perms[2] == 'x') << line;
        }
    }
    std::fclose(f);
}

// AVX2 transposes of large 4-byte dsts whose rows are whole lines apart
// run 8 x 16 tiles (desc.ymm_b16), each dst row one streamed line.
// Bit-exact with B edges (lanes past the last 16, through the 8x8 tiles),
// a shifted last A tile, padded blocks, scales along B (vectors, the right
// tile's at +8 lanes) and along A, zero points, conversions to f32 and
// s32; and only where the rows are whole lines apart, streamed, on AVX2.
TEST(jit_reorder, YmmB16Tiles) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    // Takes the 8x16 tiles and matches the reference.
    auto on_b16 = [&](const jit_case_t &k) {
        EXPECT_TRUE(desc_of(k, isa).ymm_b16) << k.str();
        EXPECT_TRUE(run_jit_case(k, isa));
    };
    jit_case_t c;
    // ab -> ba: B = 2995 = 187 x 16 + 3 lanes, A = 2999 (shifted last
    // tile), dst rows 3008 f32 apart.
    c.dims = { 2995, 2999 };
    c.sstrides = { 2999, 1 };
    c.dstrides = { 1, 3008 };
    EXPECT_TRUE(desc_of(c, isa).ymm_b16) << c.str();
    EXPECT_FALSE(desc_of(c, cpu_isa_t::avx512_core).ymm_b16) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa));
    c.dstrides = { 1, 3000 }; // rows half a line off: not streamed
    EXPECT_FALSE(desc_of(c, isa).ymm_b16) << c.str();
    c.dstrides = { 1, 3008 };
    c.src_scale_mask = 1; // along B: vector scales
    c.sdt = relayout_bf16;
    EXPECT_TRUE(run_jit_case(c, isa));
    c.sstrides.clear();
    c.dstrides.clear();
    c.src_scale_mask = -1;
    c.sdt = relayout_f32;
    // nchw <-> nChw16c, 67 channels: a padded last block (zero lanes
    // written; padded src lanes skipped).
    c.dims = { 4, 67, 250, 160 };
    c.stag = "nchw";
    c.dtag = "nChw16c";
    c.src_scale_mask = 2;
    c.ddt = relayout_s32;
    c.dst_zp = 3;
    on_b16(c);
    c.dst_zp = 0;
    c.src_scale_mask = -1;
    c.ddt = relayout_f32;
    std::swap(c.stag, c.dtag);
    on_b16(c);
    // nhwc -> nchw: A = 67 channels (shifted last A tile), scales along A.
    c.stag = "nhwc";
    c.sdt = relayout_s8;
    c.src_zp = -5;
    c.src_scale_mask = 2;
    on_b16(c);
    // Not: the sum, 1-byte dsts (2-byte ones: YmmB16WordTiles), dst rows
    // of half a line (nChw8c: the 8x8 tiles' rows are adjacent already),
    // small problems.
    c.src_zp = 0;
    c.src_scale_mask = -1;
    c.sdt = relayout_f32;
    x64::jit_reorder_desc_t d = desc_of(c, isa);
    d.beta = 0.5f;
    EXPECT_FALSE(x64::jit_ymm_b16_tiles(d, isa)) << c.str();
    c.ddt = relayout_s8;
    EXPECT_FALSE(desc_of(c, isa).ymm_b16) << c.str();
    c.ddt = relayout_f32;
    c.stag = "nchw";
    c.dtag = "nChw8c";
    EXPECT_FALSE(desc_of(c, isa).ymm_b16) << c.str();
    c.dtag = "nhwc";
    c.dims = { 2, 64, 32, 32 };
    EXPECT_FALSE(desc_of(c, isa).ymm_b16) << c.str();
}

// AVX2 conversions of f32 to bf16 / f16 on those tiles (ymm_b16 with
// 2-byte dsts: 8 A rows x 32 B lanes, jit_ymm_b16_lanes), each dst row
// one streamed line. Bit-exact on every class of f32 pattern (NaN
// anywhere in a tile takes the out-of-line rounding, ymm_bf16_round):
// nhwc -> nchw B-outer (64 channels, ymm_b16_pf of 32 rows; hw = 40000:
// edge calls A-outer), 67 channels (a shifted last A tile, B edges past
// the last 32 lanes), nChw16c -> nchw with a padded last block, scales
// along A and along B, the src against a guard page. Not: far src rows
// (nchw -> nhwc: the narrow rows), bit copies, f32 -> s8, AVX-512.
// ctest runs it again with RELAYOUT_JIT_YMM_W32=0 (the rule off: the same
// problems bit-exact on the path before it) and RELAYOUT_JIT_YMM_BF16_GROUP=0
// (each vector rounded on its own).
TEST(jit_reorder, YmmB16WordTiles) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    const bool words = getenv_int("RELAYOUT_JIT_YMM_W32", 1) != 0;
    const std::vector<uint32_t> bits = f32_pattern_classes();
    int n = 0;
    for (data_type_t ddt : { relayout_bf16, relayout_f16 }) {
        jit_case_t c = jit_case_t::of({ 4, 64, 250, 160 }, relayout_f32, ddt, "nhwc", "nchw");
        c.src_bits = bits;
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_EQ(d.ymm_b16, words) << c.str();
        EXPECT_EQ(x64::jit_ymm_b16_lanes(d), 32) << c.str();
        if (words) {
            EXPECT_EQ(d.ymm_b16_pf, 32 * 64 * 4) << c.str();
        }
        EXPECT_FALSE(desc_of(c, cpu_isa_t::avx512_core).ymm_b16) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.src_scale_mask = 2; // along A: broadcast per dst row
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.src_scale_mask = 12; // along B (h, w): vectors, 8 lanes per transpose
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.src_scale_mask = -1;
        c.dims = { 4, 67, 250, 160 };
        c.guard_src = true;
        EXPECT_EQ(desc_of(c, isa).ymm_b16, words) << c.str();
        EXPECT_EQ(desc_of(c, isa).ymm_b16_pf, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.guard_src = false;
        c.stag = "nChw16c";
        EXPECT_EQ(desc_of(c, isa).ymm_b16, words) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.src_scale_mask = 2;
        c.dst_scale_mask = 12;
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.src_scale_mask = c.dst_scale_mask = -1;
        // Not: far src rows, f32 -> s8, 2-byte bit copies.
        c.stag = "nchw";
        c.dtag = "nhwc";
        EXPECT_FALSE(desc_of(c, isa).ymm_b16) << c.str();
        c.stag = "nhwc";
        c.dtag = "nchw";
        c.ddt = relayout_s8;
        EXPECT_FALSE(desc_of(c, isa).ymm_b16) << c.str();
        c.sdt = c.ddt = ddt;
        EXPECT_FALSE(desc_of(c, isa).ymm_b16) << c.str();
    }
}

// Their nChw16c -> nchw calls (jit_ymm_w32_block_plane): 512 B positions
// (8192 elements) per call, both A tiles' src block in the L1, for f32 ->
// bf16 / f16 from 48 MiB (src + dst); bit-exact with B not a multiple of
// 512 (the last call shorter), a padded last block and scales. Not below
// that size, for dst rows not whole lines apart (no word tiles), nChw8c
// (one A tile), f32 dsts or on AVX-512; the usual
// 2048 with the knob at 0 (ctest entry).
TEST(jit_reorder, YmmW32BlockPlane) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    const bool on = getenv_int("RELAYOUT_JIT_YMM_W32_PLANE", 8192) > 0;
    auto call_b = [&](const jit_case_t &c, cpu_isa_t at) {
        plan_t p;
        case_plan(c, p);
        kernel_plan_t kp;
        EXPECT_EQ(kernel_plan_create(kp, p, x64::jit_plan_params(at, p)), status_t::success);
        return kp.micro[1].n;
    };
    int n = 0;
    for (data_type_t ddt : { relayout_bf16, relayout_f16 }) {
        jit_case_t c = jit_case_t::of({ 8, 48, 160, 138 }, relayout_f32, ddt, "nChw16c", "nchw");
        EXPECT_EQ(call_b(c, isa), on ? 512 : 2048) << c.str();
        EXPECT_EQ(call_b(c, cpu_isa_t::avx512_core), 2048) << c.str();
        EXPECT_TRUE(desc_of(c, isa).ymm_b16) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.dims = { 11, 35, 160, 138 }; // (a padded last block)
        c.src_scale_mask = 2;
        EXPECT_EQ(call_b(c, isa), on ? 512 : 2048) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.src_scale_mask = -1;
        c.dims = { 2, 48, 160, 138 }; // (below 48 MiB)
        EXPECT_EQ(call_b(c, isa), 2048) << c.str();
        c.dims = { 8, 48, 161, 137 }; // (dst rows not whole lines apart)
        EXPECT_EQ(call_b(c, isa), 2048) << c.str();
        c.dims = { 8, 48, 160, 138 };
        c.stag = "nChw8c";
        EXPECT_NE(call_b(c, isa), 512) << c.str();
        c.stag = "nChw16c";
        c.ddt = relayout_f32;
        EXPECT_NE(call_b(c, isa), 512) << c.str();
    }
}

// AVX2 8x16 tiles of weights to hwio (A = kh * kw, not whole 8-row
// tiles): the shifted last A tile stores only the rows it adds
// (jit_ymm_shift_new_rows). Bit-exact for A = 9 (one new row), 10, 15 and
// 25, B edges (o = 726: 6 lanes past the last 16), scales along B and an
// s32 dst with a zero point; not for A of whole tiles.
TEST(jit_reorder, YmmShiftNewRows) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    auto on_new_rows = [&](const jit_case_t &k) {
        const x64::jit_reorder_desc_t d = desc_of(k, isa);
        EXPECT_TRUE(d.ymm_b16 && x64::jit_ymm_shift_new_rows(d)) << k.str();
        EXPECT_TRUE(run_jit_case(k, isa));
    };
    jit_case_t c = jit_case_t::of({ 726, 1000, 3, 3 }, relayout_f32, relayout_f32, "oihw", "hwio");
    on_new_rows(c);
    c.dims = { 720, 1000, 2, 5 };
    c.src_scale_mask = 1;
    on_new_rows(c);
    c.dims = { 464, 1000, 3, 5 };
    c.ddt = relayout_s32;
    c.dst_zp = 3;
    on_new_rows(c);
    c.dims = { 304, 900, 5, 5 };
    c.src_scale_mask = -1;
    c.ddt = relayout_f32;
    c.dst_zp = 0;
    on_new_rows(c);
    c.dims = { 400, 1000, 4, 4 }; // A = 16: whole tiles
    EXPECT_FALSE(x64::jit_ymm_shift_new_rows(desc_of(c, isa))) << c.str();
    EXPECT_FALSE(x64::jit_ymm_shift_new_rows(desc_of(c, cpu_isa_t::avx512_core))) << c.str();
}

// Whether the innermost driver node of `k`'s kernel plan at `at` walks
// `dim` (o blocks: " d0*16").
bool driver_innermost(const jit_case_t &k, cpu_isa_t at, const char *dim = " d0*16") {
    std::string kplan;
    case_kplan(k, at, kplan);
    return kplan.find(dim, kplan.rfind('[')) != std::string::npos;
}

// AVX2 tiles of A split into blocks that continue the src run along A
// (hwio -> OIhw4i16o4i: A = 16 o, src stride 1) under a driver node
// jumping a page or more in the src (the i blocks, rows of 4 KiB): the A
// blocks are the innermost driver node (kernel_plan_params_t::
// a_blocks_inner). Bit-exact with padded o and i blocks (1000, 200), scales
// (common, per o), s8s8 and zero-point compensation and an f32 src of
// short rows (near: kept); not on AVX-512 nor for A not split (oihw ->
// hwio: A = hw, the i loop a different dim).
TEST(jit_reorder, AvxBlocksInner) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    jit_case_t c =
            jit_case_t::of({ 1000, 1000, 3, 3 }, relayout_f32, relayout_s8, "hwio", "OIhw4i16o4i");
    EXPECT_TRUE(driver_innermost(c, isa)) << c.str();
    if (x64::isa_allowed(cpu_isa_t::avx512_core)) { // (conversions: CvtABlocksInner)
        c.ddt = relayout_f32;
        EXPECT_FALSE(driver_innermost(c, cpu_isa_t::avx512_core)) << c.str();
        c.ddt = relayout_s8;
    }
    for (int mask : { -1, 0, 1 }) {
        c.src_scale_mask = mask;
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
    c.src_scale_mask = 0;
    c.dims = { 1024, 200, 2, 5 };
    c.set_comp(s8s8 | zp, 1);
    EXPECT_TRUE(driver_innermost(c, isa)) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    c = jit_case_t::of({ 1000, 1000, 3, 3 }, relayout_f32, relayout_f32, "oihw", "hwio");
    EXPECT_FALSE(driver_innermost(c, isa, " d1")) << c.str(); // (the i loop: src stride 9 = A)
    c = jit_case_t::of({ 64, 40, 3, 3 }, relayout_f32, relayout_s8, "hwio", "OIhw4i16o4i");
    EXPECT_FALSE(driver_innermost(c, isa)) << c.str(); // i rows of 256 B
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
}

// AVX-512 tiles converting f32 to narrower types take the A blocks
// innermost too (jit_cvt_a_blocks_inner): hwio -> OIhw4i16o4i to s8 / u8
// and hwio -> OIhw8i16o2i to bf16, padded o and i blocks (1000, 200),
// scales (common, per o), s8s8 and zero-point compensation (the bf16
// ones run the 8x8 tiles at avx512_core); not f32 bit copies (kept as they were), short i rows (64
// x 40: 256 B) nor A not split (oihw -> hwio). Bit-exact.
TEST(jit_reorder, CvtABlocksInner) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    uint32_t seed = 4300;
    for (data_type_t ddt : { relayout_s8, relayout_u8, relayout_bf16 }) {
        jit_case_t c = jit_case_t::of({ 1000, 1000, 3, 3 }, relayout_f32, ddt, "hwio",
                ddt == relayout_bf16 ? "OIhw8i16o2i" : "OIhw4i16o4i");
        EXPECT_TRUE(driver_innermost(c, isa)) << c.str();
        for (int mask : { -1, 0, 1 }) {
            c.src_scale_mask = mask;
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
        }
        c.ddt = relayout_f32;
        c.src_scale_mask = -1;
        EXPECT_FALSE(driver_innermost(c, isa)) << c.str();
        c.ddt = ddt;
        c.dims = { 64, 40, 3, 3 };
        EXPECT_FALSE(driver_innermost(c, isa)) << c.str(); // i rows of 256 B
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
    }
    jit_case_t c =
            jit_case_t::of({ 1024, 200, 2, 5 }, relayout_f32, relayout_s8, "hwio", "OIhw4i16o4i");
    c.src_scale_mask = 0;
    c.set_comp(s8s8 | zp, 1);
    // (Not driver_innermost: the o loop is baked, jit_few_b_run_loop, with
    // the compensation too; FewBBytesCompensated.)
    EXPECT_FALSE(driver_innermost(c, isa)) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
    c = jit_case_t::of({ 1000, 1000, 3, 3 }, relayout_f32, relayout_s8, "oihw", "hwio");
    EXPECT_FALSE(driver_innermost(c, isa, " d1")) << c.str(); // (the i loop: src stride 9 = A)
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed)) << c.str();
}

// Not under B's own blocks (ab -> ba, src rows of 16 KiB: the B blocks
// jump pages): they stay the innermost driver node, so consecutive calls
// continue each dst row and the AVX2 f32 line pairs carry the rows from
// call to call (A = 4100: blocks of 2048 and a last one of 4; B = 1601
// and 1603: dst rows 1601 / 1603 elements apart, not whole lines, a last
// B call of 1 / 3 lanes; 52 MB: streamed). Bit-exact.
TEST(jit_reorder, AvxBlocksInnerNotUnderB) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    for (dim_t rows : { 1601, 1603 }) {
        const jit_case_t c = jit_case_t::of({ rows, 4100 }, relayout_f32, relayout_f32, "ab", "ba");
        std::string kplan;
        case_kplan(c, isa, kplan);
        const std::string last = kplan.substr(kplan.rfind('['));
        EXPECT_NE(last.find(" d0*16 /1"), std::string::npos) << c.str() << ": " << kplan;
        EXPECT_TRUE(desc_of(c, isa).f32_lines) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// AVX2 8x16 tiles whose B src rows are near (nhwc -> nchw, nChw32c ->
// nchw): calls without edges run B-outer with an L2 prefetch of the next
// B tile (desc.ymm_b16_pf); calls with edges (hw = 40000: the last B
// block of each image) the A-outer tiles. Bit-exact with scales along A
// and along B, a zero point and an s32 dst; only for whole 8-row A tiles.
TEST(jit_reorder, YmmB16NearRowsBOuter) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    jit_case_t c = jit_case_t::of({ 4, 64, 250, 160 }, relayout_f32, relayout_f32, "nhwc", "nchw");
    EXPECT_EQ(desc_of(c, isa).ymm_b16_pf, 16 * 64 * 4) << c.str();
    EXPECT_EQ(desc_of(c, cpu_isa_t::avx512_core).ymm_b16_pf, 0) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa));
    c.src_scale_mask = 2; // along A: broadcast per dst row
    c.ddt = relayout_s32;
    c.dst_zp = 7;
    EXPECT_TRUE(run_jit_case(c, isa));
    c.src_scale_mask = 12; // along B (h, w): vectors
    c.ddt = relayout_f32;
    c.dst_zp = 0;
    EXPECT_TRUE(run_jit_case(c, isa));
    c.src_scale_mask = -1;
    c.dims = { 4, 96, 256, 160 };
    c.stag = "nChw32c";
    EXPECT_EQ(desc_of(c, isa).ymm_b16_pf, 16 * 32 * 4) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa));
    // A of 68 channels (a shifted last A tile; B = 480): A-outer only.
    c.dims = { 4, 68, 250, 160 };
    c.stag = "nhwc";
    EXPECT_EQ(desc_of(c, isa).ymm_b16_pf, 0) << c.str();
}

// AVX2 far-row pairs (jit_far_rows_pair on the 8x16 tiles): large 4-byte
// bit copies whose B src rows are a page or more apart and whose dst rows
// are 1 KiB or more and whole lines apart take B = 32 rows per call (two
// tile pairs per A tile; no src-row prefetch, desc.pf_row, on AVX2).
// Bit-exact with A edges (2203 = 2048 + 155: a shifted last A tile), B
// edges (3001 = 93 x 32 + 25: a call of one tile pair and 9 lanes of 8x8
// tiles), odd src strides, the src ending at a guard page, nchw -> nhwc
// of 256 channels, s32; not where the dst rows are not whole lines apart
// (the line pairs keep 16 lanes), nor under the knob's 0
// (RELAYOUT_JIT_YMM_FAR_PAIRS: ctest runs it both ways).
TEST(jit_reorder, YmmFarRowsPairs) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    const char *knob = std::getenv("RELAYOUT_JIT_YMM_FAR_PAIRS");
    const bool on = !knob || std::atoi(knob) > 0;
    auto expect = [&](const jit_case_t &k, bool rule) {
        plan_t p;
        ASSERT_NO_FATAL_FAILURE(case_plan(k, p));
        kernel_plan_t kp;
        ASSERT_EQ(kernel_plan_create(kp, p, x64::jit_plan_params(isa, p)), status_t::success);
        x64::jit_reorder_desc_t d;
        x64::jit_reorder_desc_init(d, isa, p, kp);
        const bool z = rule && on;
        EXPECT_EQ(kp.micro[1].n, z ? 32 : 16) << k.str();
        EXPECT_EQ(d.pf_row, 0) << k.str();
        EXPECT_EQ(d.ymm_b16, rule) << k.str();
    };
    jit_case_t c;
    c.dims = { 3001, 2203 };
    c.sstrides = { 2209, 1 };
    c.dstrides = { 1, 3008 };
    for (data_type_t dt : { relayout_f32, relayout_s32 }) {
        c.sdt = c.ddt = dt;
        expect(c, true);
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
    c.sdt = c.ddt = relayout_f32;
    c.guard_src = true;
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    c.guard_src = false;
    c.dstrides = { 1, 3004 }; // dst rows 12016 B apart: the line pairs
    expect(c, false);
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    c = jit_case_t::of({ 2, 256, 131, 133 }, relayout_f32, relayout_f32, "nchw", "nhwc");
    expect(c, true);
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
}

// AVX2 B-outer 8x16 tiles of near B src rows 512 B to under 1 KiB apart
// (f32 nhwc -> nchw of 128 to 255 channels, bit copies): two B tiles per
// A tile (desc.ymm_b16_pair), the prefetch a pair ahead. Bit-exact for
// 128 and 200 channels (A of 25 tiles) with calls of 256 / 160 B
// positions whose last call of each image is shorter (64 positions: the
// A-outer tiles), s32; not for 1 KiB
// rows, conversions (s32 -> f32), nor under the knob's 0
// (RELAYOUT_JIT_YMM_B_PAIRS: ctest runs it both ways).
TEST(jit_reorder, YmmB16NearPairs) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    const char *knob = std::getenv("RELAYOUT_JIT_YMM_B_PAIRS");
    const bool on = !knob || std::atoi(knob) > 0;
    jit_case_t c = jit_case_t::of({ 3, 128, 250, 160 }, relayout_f32, relayout_f32, "nhwc", "nchw");
    for (dim_t C : { 128, 200 }) {
        c.dims = C == 128 ? std::vector<dim_t>{ 3, 128, 250, 160 }
                          : std::vector<dim_t>{ 9, 200, 64, 61 };
        for (data_type_t dt : { relayout_f32, relayout_s32 }) {
            c.sdt = c.ddt = dt;
            const x64::jit_reorder_desc_t d = desc_of(c, isa);
            EXPECT_EQ(d.ymm_b16_pair, on) << c.str();
            EXPECT_EQ(d.ymm_b16_pf, (on ? 2 : 1) * 16 * C * 4) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
        }
    }
    c.sdt = relayout_s32; // a conversion: one B tile per A tile
    c.ddt = relayout_f32;
    EXPECT_FALSE(desc_of(c, isa).ymm_b16_pair) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    c.sdt = relayout_f32;
    c.dims = { 2, 256, 250, 160 }; // 1 KiB rows
    EXPECT_FALSE(desc_of(c, isa).ymm_b16_pair) << c.str();
    EXPECT_EQ(desc_of(c, isa).ymm_b16_pf, 16 * 256 * 4) << c.str();
}

// The few-B cases of both levels (FewBLanesPermuted, FewBLanesYmm): every
// B of `Cs` on planes `hws` (f32, s32, odd src strides: w its own node
// under a baked h loop), streamed (calls line-aligned and not: 521 x 3 f32
// per row), conversions (`conv_Cs`): scales along A (w) load as vectors,
// those along B (c) broadcast per row; zero points; narrower srcs.
void few_b_shapes(cpu_isa_t isa, const std::vector<dim_t> &Cs,
        const std::vector<std::vector<dim_t>> &hws, const std::vector<dim_t> &conv_Cs, int &n) {
    const dim_t T = isa == cpu_isa_t::avx512_core ? 16 : 8;
    for (dim_t C : Cs)
        for (const std::vector<dim_t> &hw : hws) {
            jit_case_t c = jit_case_t::of(
                    { 2, C, hw[0], hw[1] }, relayout_f32, relayout_f32, "nchw", "nhwc");
            EXPECT_EQ(desc_of(c, isa).few_b, C) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            c.sdt = c.ddt = relayout_s32;
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            c.sdt = c.ddt = relayout_f32;
            const dim_t plane = hw[0] * (hw[1] + 2) + 9;
            c.sstrides = { C * plane + 1, plane, hw[1] + 2, 1 };
            c.dstrides = { C * hw[0] * hw[1], 1, hw[1] * C, C };
            if (hw[1] >= T) {
                EXPECT_EQ(desc_of(c, isa).few_b, C) << c.str();
            }
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        }
    for (dim_t w : { 520, 521 }) {
        jit_case_t c = jit_case_t::of({ 8, 3, 512, w }, relayout_f32, relayout_f32, "nchw", "nhwc");
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_EQ(d.few_b, 3) << c.str();
        EXPECT_TRUE(d.nt) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
    for (dim_t C : conv_Cs) {
        jit_case_t c = jit_case_t::of({ 2, C, 5, 37 }, relayout_f32, relayout_s32, "nchw", "nhwc");
        EXPECT_EQ(desc_of(c, isa).few_b, C) << c.str();
        c.src_scale_mask = 8;
        c.dst_scale_mask = 2;
        c.src_zp = 3;
        c.dst_zp = -2;
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.ddt = relayout_f32;
        c.sdt = relayout_bf16;
        c.src_scale_mask = 2;
        c.dst_scale_mask = 8;
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
}

// Not with the sum (it reads the dst): `c` with it runs on other tiles.
void few_b_not_with_sum(jit_case_t c, cpu_isa_t isa, int &n) {
    c.beta = 0.5f;
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    x64::jit_reorder_desc_t d = desc_of(c, isa);
    d.beta = 0.5f;
    EXPECT_EQ(x64::jit_few_b_tiles(d), 0) << c.str();
}

// Transposes of a few B lanes dense in the dst over A (nchw -> nhwc of 2
// to 7 channels, hwio -> OIhw4i16o4i): whole 16-position A tiles
// permuted into B whole dst vectors (desc.few_b), edges on the 16x16
// tile. Bit-exact for every B, A of one tile, of tiles and a tail,
// shorter than a tile, a baked loop (odd src strides: A = w under an h
// loop), s32, streamed (large; calls line-aligned and not: 521 x 3 f32
// per row), conversions with scales along A and B and zero points, 1-byte
// dsts of 4 lanes. Not: 2-byte dsts, 1-byte ones of other B (but see
// FewBNarrowLanes), the sum, padded or strided dst rows, 8 channels.
TEST(jit_reorder, FewBLanesPermuted) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    int n = 0;
    few_b_shapes(isa, { 2, 3, 4, 5, 7 },
            { { 1, 16 }, { 5, 7 }, { 3, 37 }, { 16, 16 }, { 1, 15 }, { 2, 33 } }, { 3, 4 }, n);
    // 1-byte dsts of 4 lanes, a line per tile (hwio -> OIhw4i16o4i: B =
    // 4 i, A = 16 o): common and per-o (along A) scales, u8, padded i
    // (20: the edge tiles), a 1-byte bit copy; nchw -> nhwc of 4 channels.
    for (data_type_t dd : { relayout_s8, relayout_u8 })
        for (dim_t i : { 32, 20 }) {
            jit_case_t c = jit_case_t::of({ 48, i, 3, 3 }, relayout_f32, dd, "hwio", "OIhw4i16o4i");
            EXPECT_EQ(desc_of(c, isa).few_b, 4) << c.str();
            c.src_scale_mask = 0;
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            c.src_scale_mask = 1;
            c.dst_scale_mask = 0;
            c.dst_zp = 7;
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            c.sdt = c.ddt = dd;
            c.src_scale_mask = c.dst_scale_mask = -1;
            c.dst_zp = 0;
            EXPECT_EQ(desc_of(c, isa).few_b, 4) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        }
    {
        jit_case_t c = jit_case_t::of({ 2, 4, 5, 37 }, relayout_f32, relayout_u8, "nchw", "nhwc");
        c.src_scale_mask = 8;
        EXPECT_EQ(desc_of(c, isa).few_b, 4) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        // 1-byte dsts of other B, 2-byte dsts: only as the narrowed
        // vectors (FewBNarrowLanes); not the sum.
        const bool narrow = getenv_int("RELAYOUT_JIT_FEW_B_NARROW", 1) != 0;
        c.dims[1] = 3;
        EXPECT_EQ(desc_of(c, isa).few_b, narrow ? 3 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.ddt = relayout_bf16;
        EXPECT_EQ(desc_of(c, isa).few_b, narrow ? 3 : 0) << c.str();
        c.ddt = relayout_f32;
        few_b_not_with_sum(c, isa, n);
    }
    jit_case_t c = jit_case_t::of({ 2, 3, 5, 37 }, relayout_f32, relayout_f32, "nchw", "nhwc");
    c.src_scale_mask = 0;
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    c.src_scale_mask = -1;
    c.sdt = c.ddt = relayout_bf16;
    EXPECT_EQ(desc_of(c, isa).few_b, 0) << c.str();
    c.sdt = c.ddt = relayout_f32;
    c.dtag = "nChw16c";
    EXPECT_EQ(desc_of(c, isa).few_b, 0) << c.str();
    c.dtag = "nhwc";
    c.dims[1] = 8;
    EXPECT_EQ(desc_of(c, isa).few_b, 0) << c.str();
    c.dims[1] = 3;
    c.dstrides = { 5 * 37 * 4, 1, 37 * 4, 4 }; // rows of 3 lanes 4 apart
    EXPECT_EQ(desc_of(c, isa).few_b, 0) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
}

// Few-B tiles narrowing f32 to bf16 / f16 / s8 / u8 (jit_few_b_narrow:
// nchw -> nhwc of 3 to 7 channels, an RGB model input; 2-byte dsts of 4
// lanes too): each permuted vector narrowed as it is stored. Bit-exact
// for every B, both ISA levels of bf16 (the AVX512_BF16 rounding and the
// integer one), A of one tile, of tiles and a tail, shorter than a tile,
// a baked h loop under odd src strides, the scale variants (common, per
// channel, a dst scale, zero points) and scales along w, streamed calls
// (8 x 3 x 512 x 521: the pieces stored cached). The desc: few_b = C
// with the knob on (and on AVX-512), 0 with RELAYOUT_JIT_FEW_B_NARROW=0
// (ctest runs it again so): the AVX2 8x8 tiles then.
TEST(jit_reorder, FewBNarrowLanes) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const bool on = getenv_int("RELAYOUT_JIT_FEW_B_NARROW", 1) != 0;
    uint32_t seed = 7100;
    for (data_type_t ddt : { relayout_bf16, relayout_f16, relayout_s8, relayout_u8 })
        for (dim_t C : { 3, 4, 5, 6, 7 }) {
            // (1-byte dsts of 4 lanes: the packed line, FewBBytesPacked)
            const bool packed = data_type_size(ddt) == 1 && C == 4;
            for (const std::vector<dim_t> &hw :
                    std::vector<std::vector<dim_t>>{ { 1, 16 }, { 5, 7 }, { 3, 37 }, { 2, 33 } }) {
                jit_case_t c =
                        jit_case_t::of({ 2, C, hw[0], hw[1] }, relayout_f32, ddt, "nchw", "nhwc");
                set_row_scale_variant(c, (int)(seed % 5));
                const x64::jit_reorder_desc_t d = desc_of(c, isa);
                if (!packed) {
                    EXPECT_EQ(d.few_b, on ? C : 0) << c.str();
                    EXPECT_EQ(d.isa, on ? cpu_isa_t::avx512_core : cpu_isa_t::avx2) << c.str();
                }
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
                // (the bf16 level declines the AVX2 tiles: knob off)
                if (on && ddt == relayout_bf16 && x64::isa_allowed(cpu_isa_t::avx512_core_bf16)) {
                    EXPECT_TRUE(run_jit_case(c, cpu_isa_t::avx512_core_bf16, nullptr, ++seed));
                }
            }
            jit_case_t c = jit_case_t::of({ 2, C, 5, 37 }, relayout_f32, ddt, "nchw", "nhwc");
            const dim_t plane = 5 * 39 + 9;
            c.sstrides = { C * plane + 1, plane, 39, 1 };
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
        }
    for (data_type_t ddt : { relayout_bf16, relayout_u8 }) {
        jit_case_t c = jit_case_t::of({ 8, 3, 512, 521 }, relayout_f32, ddt, "nchw", "nhwc");
        c.src_scale_mask = 0;
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_EQ(d.few_b, on ? 3 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
    }
}

// Few-B tiles to bytes (B = 4 lanes, a line per tile: hwio ->
// OIhw4i16o4i) narrow the four rows by saturating packs and one byte
// shuffle: only the upper clamp, so NaN, -inf and values below lo must
// give lo, and values past hi saturate (every f32 pattern class: NaN
// payloads, infinities, denormals, ties), s8 and u8, f32 and bf16 srcs,
// common and per-o / per-i scales and a dst zero point, A edges (40 o:
// the last O block padded) and padded i (20), 1x1 / 3x3 / 5x5, strided
// src rows; 1-byte bit copies (zero-extended bytes) unsigned. Their calls
// bake the O loop innermost (jit_few_b_run_loop: a call reads its i rows
// whole, 1-byte srcs too): not with the sum, compensation along i, nor
// for other dst types.
TEST(jit_reorder, FewBBytesPacked) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const std::vector<uint32_t> bits = f32_pattern_classes();
    int n = 0;
    for (data_type_t ddt : { relayout_s8, relayout_u8 })
        for (const std::vector<dim_t> &dims : std::vector<std::vector<dim_t>>{
                     { 48, 32, 3, 3 }, { 40, 20, 3, 3 }, { 64, 16, 1, 1 }, { 32, 36, 5, 5 } }) {
            jit_case_t c = jit_case_t::of(dims, relayout_f32, ddt, "hwio", "OIhw4i16o4i");
            const x64::jit_reorder_desc_t d = desc_of(c, isa);
            EXPECT_EQ(d.few_b, 4) << c.str();
            // (the innermost baked loop: the O blocks, 16 o on in the src;
            // padded dims keep their loops in the driver)
            if (dims[0] % 16 == 0 && dims[1] % 16 == 0) {
                ASSERT_GE(d.nloops, 1) << c.str();
                EXPECT_EQ(d.loop_is[d.nloops - 1], 16) << c.str();
            }
            for (data_type_t sdt : { relayout_f32, relayout_bf16 }) {
                c.sdt = sdt;
                c.src_bits = bits;
                c.src_scale_mask = c.dst_scale_mask = -1;
                c.dst_zp = 0;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                c.src_scale_mask = 0;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                c.src_scale_mask = 1; // per o: vectors along A
                c.dst_scale_mask = 2; // per i: broadcast per row
                c.dst_zp = 3;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            }
            c = jit_case_t::of(dims, ddt, ddt, "hwio", "OIhw4i16o4i");
            EXPECT_EQ(desc_of(c, isa).few_b, 4) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        }
    {
        // Strided src rows (each i row of 48 o 67 elements apart), random values.
        jit_case_t c = jit_case_t::of({ 48, 32, 3, 3 }, relayout_f32, relayout_s8, "", "");
        c.dtag = "OIhw4i16o4i";
        c.sstrides = { 1, 67, 3 * 32 * 67 + 5, 32 * 67 + 2 };
        EXPECT_EQ(desc_of(c, isa).few_b, 4) << c.str();
        c.src_scale_mask = 0;
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
    plan_t p;
    jit_case_t c =
            jit_case_t::of({ 48, 32, 3, 3 }, relayout_f32, relayout_s8, "hwio", "OIhw4i16o4i");
    ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
    EXPECT_TRUE(x64::jit_few_b_run_loop(isa, p));
    EXPECT_FALSE(x64::jit_few_b_run_loop(cpu_isa_t::avx2, p));
    p.beta = 0.5f;
    EXPECT_FALSE(x64::jit_few_b_run_loop(isa, p));
    for (data_type_t ddt : { relayout_bf16, relayout_s32 }) {
        c.ddt = ddt;
        ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
        EXPECT_FALSE(x64::jit_few_b_run_loop(isa, p)) << c.str();
    }
    c.sdt = c.ddt = relayout_s8;
    ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
    EXPECT_TRUE(x64::jit_few_b_run_loop(isa, p)) << c.str();
    c.sdt = relayout_bf16; // (2-byte srcs: as they were)
    ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
    EXPECT_FALSE(x64::jit_few_b_run_loop(isa, p)) << c.str();
}

// hwio -> OIhw4i16o4i with s8s8 and / or zero-point compensation (one sum
// per o): the few-B tiles sum each dst line as they store it, the 16x16
// edge tiles theirs from the dst, into the call's sums at the tile's o
// (desc.comp_a, jit_few_b_comp), and the O loop is baked innermost
// (jit_few_b_run_loop). Bit-exact for s8s8, zero points and both; f32
// (common and per-o scales flush against a guard page, a dst zero point,
// NaN / inf / out-of-range values: saturated before they are summed),
// bf16, s8 and u8 srcs (bit copies), s8 and u8 dsts; o tails (40, 33: the
// last O block padded), padded i quads (20, 7, 1), 1x1 / 3x3 / 5x5,
// strided src rows, groups (hwigo -> gOIhw4i16o4i, compensation per g and
// o: the driver's index changes with g), a streamed problem (2 threads).
// Not: compensation along i (the driver sums the dst back), AVX2.
TEST(jit_reorder, FewBBytesCompensated) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const std::vector<uint32_t> bits = f32_pattern_classes();
    uint32_t n = 7100;
    for (data_type_t ddt : { relayout_s8, relayout_u8 })
        for (const std::vector<dim_t> &dims : std::vector<std::vector<dim_t>>{ { 48, 32, 3, 3 },
                     { 40, 20, 3, 3 }, { 64, 16, 1, 1 }, { 33, 36, 5, 5 }, { 16, 7, 1, 3 },
                     { 32, 1, 3, 3 }, { 128, 36, 3, 3 } })
            for (uint64_t flags : { s8s8, zp, s8s8 | zp }) {
                if (ddt == relayout_u8 && (flags & s8s8)) continue; // (s8 dsts only)
                jit_case_t c = jit_case_t::of(dims, relayout_f32, ddt, "hwio", "OIhw4i16o4i");
                c.set_comp(flags, 1);
                const x64::jit_reorder_desc_t d = desc_of(c, isa);
                EXPECT_EQ(d.few_b, 4) << c.str();
                EXPECT_TRUE(d.comp_a) << c.str();
                if (dims[0] % 16 == 0 && dims[1] % 16 == 0) { // (the O blocks baked innermost)
                    ASSERT_GE(d.nloops, 1) << c.str();
                    EXPECT_EQ(d.loop_is[d.nloops - 1], 16) << c.str();
                    EXPECT_EQ(d.loop_cs[d.nloops - 1], 16) << c.str();
                }
                c.src_scale_mask = 0;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                c.src_bits = bits;
                c.src_scale_mask = 1; // per o, against a guard page
                c.guard_scales = true;
                c.dst_zp = 3;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                c.sdt = relayout_bf16;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                // Bit copies; whole calls of O blocks in fours (few_b_quads).
                EXPECT_FALSE(d.few_b_quads) << c.str();
                c = jit_case_t::of(dims, ddt, ddt, "hwio", "OIhw4i16o4i");
                c.set_comp(flags, 1);
                const x64::jit_reorder_desc_t q = desc_of(c, isa);
                EXPECT_TRUE(q.comp_a) << c.str();
                EXPECT_EQ(q.few_b_quads, dims[0] % 64 == 0) << c.str();
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            }
    {
        // Strided src rows (each i row of 48 o 67 elements apart).
        jit_case_t c = jit_case_t::of({ 48, 32, 3, 3 }, relayout_f32, relayout_s8, "", "");
        c.dtag = "OIhw4i16o4i";
        c.sstrides = { 1, 67, 3 * 32 * 67 + 5, 32 * 67 + 2 };
        c.set_comp(s8s8 | zp, 1);
        EXPECT_TRUE(desc_of(c, isa).comp_a) << c.str();
        c.src_scale_mask = 0;
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
    for (data_type_t sdt : { relayout_f32, relayout_s8 })
        for (const std::vector<dim_t> &dims :
                std::vector<std::vector<dim_t>>{ { 3, 32, 48, 3, 3 }, { 2, 40, 20, 1, 3 } }) {
            jit_case_t c =
                    jit_case_t::of(dims, sdt, relayout_s8, "hwigo", "gOIhw4i16o4i"); // groups
            c.set_comp(s8s8 | zp, 3);
            EXPECT_TRUE(desc_of(c, isa).comp_a) << c.str();
            if (sdt == relayout_f32) c.src_scale_mask = 3; // per g and o
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        }
    {
        // Streamed (2 threads: each its share of the I blocks and hw).
        jit_case_t c = jit_case_t::of(
                { 1024, 1280, 3, 3 }, relayout_f32, relayout_s8, "hwio", "OIhw4i16o4i");
        c.set_comp(s8s8, 1);
        c.src_scale_mask = 1;
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_TRUE(d.comp_a && d.nt) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
    // Not: compensation along i (mask 2), nor the AVX2 tiles.
    jit_case_t c =
            jit_case_t::of({ 48, 32, 3, 3 }, relayout_f32, relayout_s8, "hwio", "OIhw4i16o4i");
    c.set_comp(s8s8, 2);
    EXPECT_FALSE(desc_of(c, isa).comp_a) << c.str();
    plan_t p;
    ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
    EXPECT_FALSE(x64::jit_few_b_run_loop(isa, p));
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    c.set_comp(s8s8, 1);
    EXPECT_FALSE(desc_of(c, cpu_isa_t::avx2).comp_a) << c.str();
}

// Few-B compensation is declared by the rules that sum it
// (jit_comp_a_declared): a field another rule sets after comp_a was chosen
// refuses it (tiles, lines, stages, prefetches), the declared ones keep it.
TEST(jit_reorder, FewBCompDeclared) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    jit_case_t c =
            jit_case_t::of({ 64, 16, 3, 3 }, relayout_s8, relayout_s8, "hwio", "OIhw4i16o4i");
    c.set_comp(s8s8, 1);
    const x64::jit_reorder_desc_t d = desc_of(c, isa);
    ASSERT_TRUE(d.comp_a && d.few_b_quads && d.few_b_quad_steps == 4) << c.str();
    x64::jit_reorder_desc_t before;
    std::memcpy(&before, &d, sizeof(d)); // (padding too: the check compares bytes)
    before.few_b_quads = false;
    before.few_b_quad_steps = 0;
    before.nt = !d.nt;
    before.loop_n[0] = 0;
    EXPECT_TRUE(x64::jit_comp_a_declared(before, d));
    auto refused = [&](const std::function<void(x64::jit_reorder_desc_t &)> &rule) {
        x64::jit_reorder_desc_t e;
        std::memcpy(&e, &d, sizeof(d));
        rule(e);
        return !x64::jit_comp_a_declared(d, e);
    };
    EXPECT_TRUE(refused([](x64::jit_reorder_desc_t &e) { e.flat_a = 1; }));
    EXPECT_TRUE(refused([](x64::jit_reorder_desc_t &e) { e.byte_tile = true; }));
    EXPECT_TRUE(refused([](x64::jit_reorder_desc_t &e) { e.b_outer = true; }));
    EXPECT_TRUE(refused([](x64::jit_reorder_desc_t &e) { e.dst_stage_row = 64; }));
    EXPECT_TRUE(refused([](x64::jit_reorder_desc_t &e) { e.pf_ahead = 2; }));
    EXPECT_TRUE(refused([](x64::jit_reorder_desc_t &e) { e.packed_rows = true; }));
    EXPECT_FALSE(
            refused([](x64::jit_reorder_desc_t &e) { e.fence_in_driver = !e.fence_in_driver; }));
    // The layouts whose kernels sum it keep it; the others do not take it.
    c.sdt = relayout_f32;
    EXPECT_TRUE(desc_of(c, isa).comp_a) << c.str();
    c.stag = "oihw";
    EXPECT_FALSE(desc_of(c, isa).comp_a) << c.str();
    c.sdt = relayout_s8;
    EXPECT_FALSE(desc_of(c, isa).comp_a) << c.str();
}

// Whole calls of s8 / u8 hwio -> OIhw4i16o4i (few_b_quads) run four i
// quads inside each step of four O blocks (few_b_quad_steps; the i quads'
// loop, or i quads and hw merged, steps four at a time; the sums added
// once per step): bit-exact with and without s8s8 / zero-point
// compensation, s8 and u8, 1x1 to 5x5, O of 64 .. 256 (80: no quads),
// padded I (4, 8, 20, 36: the i quads in the driver, one step), odd src
// row strides, the src ending at a guard page; groups.
TEST(jit_reorder, FewBQuadSteps) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    uint32_t n = 7300;
    for (data_type_t dt : { relayout_s8, relayout_u8 })
        for (const std::vector<dim_t> &dims : std::vector<std::vector<dim_t>>{ { 64, 16, 1, 1 },
                     { 64, 16, 3, 3 }, { 128, 32, 3, 3 }, { 192, 48, 1, 3 }, { 256, 20, 3, 3 },
                     { 64, 8, 5, 5 }, { 64, 4, 2, 2 }, { 64, 36, 3, 1 }, { 80, 16, 3, 3 } })
            for (uint64_t flags : { uint64_t(0), s8s8, zp, s8s8 | zp }) {
                if (dt == relayout_u8 && (flags & s8s8)) continue; // (s8 dsts only)
                jit_case_t c = jit_case_t::of(dims, dt, dt, "hwio", "OIhw4i16o4i");
                if (flags) c.set_comp(flags, 1);
                const x64::jit_reorder_desc_t d = desc_of(c, isa);
                const bool quads = dims[0] % 64 == 0;
                EXPECT_EQ(d.few_b_quads, quads) << c.str();
                // (I a multiple of 16: the i quads baked)
                EXPECT_EQ(d.few_b_quad_steps, quads && dims[1] % 16 == 0 ? 4 : 0) << c.str();
                EXPECT_EQ(d.comp_a, flags != 0) << c.str();
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                c.guard_src = true; // (a read past the last row faults)
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            }
    {
        // Odd src row strides (each i row of 128 o 131 elements apart).
        jit_case_t c = jit_case_t::of({ 128, 32, 3, 3 }, relayout_s8, relayout_s8, "", "");
        c.dtag = "OIhw4i16o4i";
        c.sstrides = { 1, 131, 3 * 32 * 131 + 5, 32 * 131 + 3 };
        c.set_comp(s8s8 | zp, 1);
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_TRUE(d.comp_a && d.few_b_quad_steps == 4) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
    {
        // Groups (compensation per g and o).
        jit_case_t c = jit_case_t::of(
                { 3, 64, 32, 3, 3 }, relayout_s8, relayout_s8, "hwigo", "gOIhw4i16o4i");
        c.set_comp(s8s8, 3);
        EXPECT_TRUE(desc_of(c, isa).comp_a) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
}

// s8 / u8 ohwi -> OIhw4i16o4i and its relatives (i innermost in the src:
// each dst dword is one src dword): whole calls run 16 x 16 dword lane
// tiles (desc.lane_tiles: 64 bytes of each of 16 o rows, each tile row
// one dst line), the tile's steps of the I blocks' loop (4i16o4i: 4 I
// blocks of 4 i quads) or 16 i quads (16i16o4i), the compensation summed
// per o over the call. Bit-exact with and without s8s8 / zero-point
// compensation, s8 and u8, 1x1 / 2x2 / 3x3 / 5x5 (small: the I blocks in
// the driver, no tiles), O tails (40: the last O block padded, its calls
// on the lanes), padded I (20: no tiles), odd src strides, the
// src ending at a guard page, groups (gohwi, compensation per g and o), a
// streamed problem (2 threads). The rule is proved to run by the desc
// (and wrong lines or sums fail the comparison). f32 srcs likewise,
// converted row by row (scales common or per o). With the knob at 0
// (ctest) no desc takes it and the lanes run every case.
TEST(jit_reorder, LaneTiles) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const bool on = getenv_int("RELAYOUT_JIT_LANE_TILES", 1) != 0;
    uint32_t n = 7500;
    struct shape_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        int k; // expected desc.lane_tiles (0: none)
    };
    const std::vector<shape_t> shapes = {
        { { 64, 64, 3, 3 }, "ohwi", "OIhw4i16o4i", 4 },
        { { 32, 128, 1, 1 }, "ohwi", "OIhw4i16o4i", 1 }, // (I and the i quads merged)
        { { 32, 128, 2, 2 }, "ohwi", "OIhw4i16o4i", 4 },
        { { 48, 64, 5, 5 }, "ohwi", "OIhw4i16o4i", 0 }, // (the I blocks in the driver)
        { { 40, 64, 3, 3 }, "ohwi", "OIhw4i16o4i", 4 },
        { { 32, 20, 3, 3 }, "ohwi", "OIhw4i16o4i", 0 },
        { { 32, 64, 3, 3 }, "ohwi", "OIhw16i16o4i", 1 },
        { { 48, 128, 1, 3 }, "ohwi", "OIhw16i16o4i", 1 },
        { { 2, 32, 64, 3, 3 }, "gohwi", "gOIhw4i16o4i", 4 },
    };
    // Every s8 / u8 dst of `list` from `sdt` (none: the dst's type) with
    // each compensation (per o: mask 1, groups 3), `body(case, shape, o_mask)`.
    auto each_case = [&](const std::vector<shape_t> &list, data_type_t sdt,
                             const std::function<void(jit_case_t &, const shape_t &, int)> &body) {
        for (data_type_t ddt : { relayout_s8, relayout_u8 })
            for (const shape_t &sh : list)
                for (uint64_t flags : { uint64_t(0), s8s8, zp, s8s8 | zp }) {
                    if (ddt == relayout_u8 && (flags & s8s8)) continue; // (s8 dsts only)
                    const int o_mask = sh.dims.size() == 5 ? 3 : 1;
                    jit_case_t c = jit_case_t::of(sh.dims,
                            sdt == relayout_data_type_undef ? ddt : sdt, ddt, sh.stag, sh.dtag);
                    if (flags) c.set_comp(flags, o_mask);
                    body(c, sh, o_mask);
                }
    };
    each_case(shapes, relayout_data_type_undef, [&](jit_case_t &c, const shape_t &sh, int) {
        EXPECT_EQ(desc_of(c, isa).lane_tiles, on ? sh.k : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.guard_src = true; // (a read past the last row faults)
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    });
    // f32 -> s8 / u8 (lane_cvt_tile): common and per-o scales (against a
    // guard page), NaN / inf / out-of-range values saturated before they
    // are summed, zero points; per-i scales keep the lanes. (Small O keeps
    // the I blocks in the driver for the threads: no tiles, 64x64x3x3.)
    const std::vector<uint32_t> bits = f32_pattern_classes();
    const std::vector<shape_t> cvt_shapes = {
        { { 256, 256, 3, 3 }, "ohwi", "OIhw4i16o4i", 4 },
        { { 32, 512, 1, 1 }, "ohwi", "OIhw4i16o4i", 1 },
        { { 64, 64, 3, 3 }, "ohwi", "OIhw4i16o4i", 0 },
        { { 64, 256, 3, 3 }, "ohwi", "OIhw16i16o4i", 1 },
        { { 2, 64, 256, 3, 3 }, "gohwi", "gOIhw4i16o4i", 4 },
    };
    each_case(cvt_shapes, relayout_f32, [&](jit_case_t &c, const shape_t &sh, int o_mask) {
        x64::jit_reorder_desc_t d;
        for (int mask : { 0, o_mask }) {
            c.src_scale_mask = mask;
            ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
            EXPECT_EQ(d.lane_tiles, on ? sh.k : 0) << c.str();
            EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            c.guard_scales = true;
            c.src_bits = bits;
            c.dst_zp = c.zp_comp_mask ? 3 : 0;
        }
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
        c.src_scale_mask = o_mask == 3 ? 4 : 2; // (per i)
        ASSERT_NO_FATAL_FAILURE(case_desc(c, isa, d));
        EXPECT_EQ(d.lane_tiles, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    });
    {
        // Odd src strides (o rows 219 apart, w 69).
        jit_case_t c = jit_case_t::of({ 64, 64, 1, 3 }, relayout_s8, relayout_s8, "", "");
        c.dtag = "OIhw4i16o4i";
        c.sstrides = { 219, 1, 212, 69 };
        c.set_comp(s8s8 | zp, 1);
        EXPECT_EQ(desc_of(c, isa).lane_tiles, on ? 4 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
    {
        // Streamed (2 threads, each its share of the O and I blocks).
        jit_case_t c = jit_case_t::of(
                { 1024, 2048, 3, 3 }, relayout_s8, relayout_s8, "ohwi", "OIhw4i16o4i");
        c.set_comp(s8s8, 1);
        const x64::jit_reorder_desc_t d = desc_of(c, isa);
        EXPECT_EQ(d.lane_tiles, on ? 4 : 0) << c.str();
        EXPECT_TRUE(d.nt) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
}

// Few-B tiles to bf16 / f16 of 2 lanes (hwio -> OIhw8i16o2i: 16 o x 2 i,
// a line per tile): the two rows' words paired into dwords (word_pair),
// on both AVX-512 levels (integer rounding; vcvtne2ps2bf16 with its
// denormal path), every f32 pattern class, f32 and s32 srcs, common and
// per-o / per-i scales, A edges and padded i (40 x 20), 1x1 and 5x5;
// their calls bake the O loop innermost too. Not bit copies (bf16 ->
// bf16 keeps the other tiles).
TEST(jit_reorder, FewBWordPairs) {
    const std::vector<uint32_t> bits = f32_pattern_classes();
    int n = 0;
    for (cpu_isa_t isa : { cpu_isa_t::avx512_core, cpu_isa_t::avx512_core_bf16 }) {
        if (!x64::isa_allowed(isa)) continue;
        for (data_type_t ddt : { relayout_bf16, relayout_f16 })
            for (const std::vector<dim_t> &dims : std::vector<std::vector<dim_t>>{
                         { 48, 32, 3, 3 }, { 40, 20, 3, 3 }, { 64, 16, 1, 1 }, { 32, 36, 5, 5 } }) {
                // (the bf16 level takes conversions to bf16 only)
                if (isa == cpu_isa_t::avx512_core_bf16 && ddt != relayout_bf16) continue;
                jit_case_t c = jit_case_t::of(dims, relayout_f32, ddt, "hwio", "OIhw8i16o2i");
                const x64::jit_reorder_desc_t d = desc_of(c, isa);
                EXPECT_EQ(d.few_b, 2) << c.str();
                EXPECT_EQ(d.bf16_ne, isa == cpu_isa_t::avx512_core_bf16 && ddt == relayout_bf16)
                        << c.str();
                if (dims[0] % 16 == 0 && dims[1] % 16 == 0) {
                    ASSERT_GE(d.nloops, 1) << c.str();
                    EXPECT_EQ(d.loop_is[d.nloops - 1], 16) << c.str();
                }
                c.src_bits = bits;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << x64::isa2str(isa);
                c.src_scale_mask = 1; // per o: vectors along A
                c.dst_scale_mask = 2; // per i: broadcast per row
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << x64::isa2str(isa);
                c.src_bits.clear();
                c.sdt = relayout_s32;
                c.src_scale_mask = 0;
                c.dst_scale_mask = -1;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n)) << x64::isa2str(isa);
            }
        jit_case_t c = jit_case_t::of(
                { 48, 32, 3, 3 }, relayout_bf16, relayout_bf16, "hwio", "OIhw8i16o2i");
        EXPECT_EQ(desc_of(c, isa).few_b, 0) << c.str();
    }
    if (n == 0) GTEST_SKIP() << "no avx512_core";
}

// The same on AVX2 (odd B, 4-byte dsts): whole 8-position A tiles, each
// row permuted once and the B dst vectors blended (gen_few_b_ymm). Every
// odd B, A of one tile, of tiles and a tail (the shifted last A tile,
// stored cached, streamed calls too), shorter than a tile, odd src
// strides under a baked loop, s32, streamed (w 520 / 521),
// conversions with scales along A and B and zero points. Not: even B,
// 1-byte dsts, the sum.
TEST(jit_reorder, FewBLanesYmm) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    int n = 0;
    few_b_shapes(isa, { 3, 5, 7 },
            { { 1, 8 }, { 5, 7 }, { 3, 37 }, { 8, 8 }, { 1, 15 }, { 2, 17 }, { 1, 9 } }, { 3, 5 },
            n);
    // Streamed with a shifted last A tile (511 x 521 positions per call),
    // stored cached: its dst is not 32-byte aligned.
    jit_case_t c = jit_case_t::of({ 9, 3, 511, 521 }, relayout_f32, relayout_f32, "nchw", "nhwc");
    EXPECT_TRUE(desc_of(c, isa).nt) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    c.dims = { 2, 3, 5, 37 };
    for (dim_t C : { 2, 4, 6 }) {
        c.dims[1] = C;
        EXPECT_EQ(desc_of(c, isa).few_b, 0) << c.str();
    }
    c.dims[1] = 3;
    c.ddt = relayout_u8;
    EXPECT_EQ(desc_of(c, isa).few_b, 0) << c.str();
    c.ddt = relayout_f32;
    few_b_not_with_sum(c, isa, n);
}

// Streamed f32 transposes whose B is padded in the dst (nchw -> nChw16c
// of 3, 19 channels): whole tiles of A and of stored lanes load their
// value rows and stream whole lines (desc.pad_b); bit-exact with A tails
// (224 x 225 positions per image), a last block of 3 value lanes and
// whole blocks next to it. Not: small problems (cached), conversions.
TEST(jit_reorder, PaddedBWholeTiles) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    for (dim_t C : { 3, 19 }) {
        jit_case_t c = jit_case_t::of(
                { C == 3 ? 16 : 6, C, 224, 225 }, relayout_f32, relayout_f32, "nchw", "nChw16c");
        EXPECT_TRUE(desc_of(c, isa).pad_b) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa));
    }
    jit_case_t c = jit_case_t::of({ 2, 3, 24, 25 }, relayout_f32, relayout_f32, "nchw", "nChw16c");
    EXPECT_FALSE(desc_of(c, isa).pad_b) << c.str();
    c.dims = { 16, 3, 224, 225 };
    c.ddt = relayout_s32;
    EXPECT_FALSE(desc_of(c, isa).pad_b) << c.str();
}

// The same on AVX2's 8x16 tile pairs (desc.pad_b with ymm_b16): bit-exact
// with A tails (the shifted last A tile), a last block of 3 value lanes
// after whole blocks, blocks of 1 and 15 value lanes, odd src strides,
// streamed (large). Not: small problems (cached), conversions.
TEST(jit_reorder, PaddedBWholeTilesYmm) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    int n = 0;
    for (dim_t C : { 3, 19, 1, 15 }) {
        jit_case_t c = jit_case_t::of(
                { C == 19 ? 6 : 16, C, 224, 225 }, relayout_f32, relayout_f32, "nchw", "nChw16c");
        EXPECT_TRUE(desc_of(c, isa).pad_b) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    }
    jit_case_t c =
            jit_case_t::of({ 16, 3, 224, 225 }, relayout_f32, relayout_f32, "nchw", "nChw16c");
    c.sstrides = { 3 * 224 * 227 + 5, 224 * 227 + 1, 227, 1 };
    EXPECT_TRUE(desc_of(c, isa).pad_b) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    c.sstrides.clear();
    c.dims = { 2, 3, 24, 25 };
    EXPECT_FALSE(desc_of(c, isa).pad_b) << c.str();
    c.dims = { 16, 3, 224, 225 };
    c.ddt = relayout_s32;
    EXPECT_FALSE(desc_of(c, isa).pad_b) << c.str();
}

// AVX2 weights to plain whose call's B is not whole 8-lane tiles (B = 9,
// 10, 15 hw): the last B tile moves back and runs as a full tile
// (jit_ymm_shift_b). Bit-exact for OIhw8i8o / OIhw16o16i -> oihw with O
// and I of whole blocks and padded (A padding, the edge tiles), odd src
// strides, conversions with per-o scales and zero points, s8 and bf16
// dsts; large (calls split by the driver). Not: B of whole tiles (4x4), B under 8
// lanes, the sum, compensation.
TEST(jit_reorder, ShiftedLastBTileYmm) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    int n = 0;
    for (const char *stag : { "OIhw8i8o", "OIhw16o16i" })
        for (const std::vector<dim_t> &hw :
                std::vector<std::vector<dim_t>>{ { 3, 3 }, { 2, 5 }, { 3, 5 } })
            for (dim_t O : { 16, 20 }) {
                jit_case_t c = jit_case_t::of(
                        { O, 24, hw[0], hw[1] }, relayout_f32, relayout_f32, stag, "oihw");
                EXPECT_TRUE(x64::jit_ymm_shift_b(desc_of(c, isa))) << c.str();
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                // Conversions: per-o scales, a zero point on either side.
                c.src_scale_mask = 1;
                for (const std::pair<data_type_t, data_type_t> &dts :
                        { std::make_pair(relayout_s8, relayout_bf16),
                                std::make_pair(relayout_f32, relayout_s8) }) {
                    std::tie(c.sdt, c.ddt) = dts;
                    (c.sdt == relayout_s8 ? c.src_zp : c.dst_zp) = 3;
                    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                }
            }
    jit_case_t c = jit_case_t::of({ 48, 40, 3, 3 }, relayout_f32, relayout_f32, "oihw", "hwio");
    c.sstrides = { 40 * 9 + 7, 9, 3, 1 };
    c.stag = "strided";
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    c = jit_case_t::of({ 512, 512, 3, 3 }, relayout_f32, relayout_f32, "OIhw8i8o", "oihw");
    EXPECT_TRUE(x64::jit_ymm_shift_b(desc_of(c, isa))) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    c.dims = { 16, 24, 4, 4 };
    EXPECT_FALSE(x64::jit_ymm_shift_b(desc_of(c, isa))) << c.str();
    c.dims = { 16, 24, 1, 3 };
    EXPECT_FALSE(x64::jit_ymm_shift_b(desc_of(c, isa))) << c.str();
    c.dims = { 16, 24, 3, 3 };
    c.beta = 0.5f;
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
    x64::jit_reorder_desc_t d = desc_of(c, isa);
    d.beta = 0.5f;
    EXPECT_FALSE(x64::jit_ymm_shift_b(d)) << c.str();
    d.beta = 0.f;
    d.comp_lanes = true;
    EXPECT_FALSE(x64::jit_ymm_shift_b(d)) << c.str();
}

// AVX2 OIhw8i8o -> oihw whose dst rows continue over the i and I block
// loops (jit_ymm_flat_steps): 8x16 tile pairs over G I blocks per step
// (3x3: 2 blocks, 144 positions; 5x5: 400; 2x5: one block, 80), cached
// and streamed (1024^2), O padded (the last block's calls: the generic
// tiles), dst rows 5 elements off (o stride 9 I + 5: cached); not where
// the I blocks per call are odd (17, 5) or B is whole tiles (4x4).
// Bit-exact. (Whole calls only: the tiles read only the call's
// src positions.)
TEST(jit_reorder, YmmFlatSteps) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    struct step_case_t {
        std::vector<dim_t> dims;
        dim_t step;
        bool offset = false;
    };
    const step_case_t cases[] = {
        { { 24, 48, 3, 3 }, 144 }, // (the O blocks baked too)
        { { 512, 512, 3, 3 }, 144 },
        { { 1024, 1024, 3, 3 }, 144 },
        { { 20, 48, 3, 3 }, 144 },
        { { 20, 48, 3, 3 }, 144, true },
        { { 256, 512, 5, 5 }, 400 },
        { { 256, 512, 2, 5 }, 80 },
        { { 512, 136, 3, 3 }, 0 },
        { { 20, 40, 3, 3 }, 0 },
        { { 32, 64, 4, 4 }, 0 },
    };
    for (const step_case_t &sc : cases) {
        jit_case_t c = jit_case_t::of(sc.dims, relayout_f32, relayout_f32, "OIhw8i8o", "oihw");
        if (sc.offset) { // each o row 5 elements off a line
            const dim_t I = sc.dims[1], H = sc.dims[2], W = sc.dims[3];
            c.dstrides = { I * H * W + 5, H * W, W, 1 };
        }
        EXPECT_EQ(desc_of(c, isa).ymm_flat_step, sc.step) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// AVX2 OIhw16o16i -> oihw, large (streamed), B of 9 to 15 hw
// (jit_ymm_packed_rows): each call's 16 i x B dst elements packed through
// the stack and stored as whole lines; O padded (the last block's calls:
// the generic tiles); not in the caches, for B of whole tiles (4x4) or
// under 8 lanes (1x7). Bit-exact. (The loads stay in the call's src; only
// the L2 prefetch reaches 128 bytes past its lines.)
TEST(jit_reorder, YmmPackedRows) {
    const cpu_isa_t isa = cpu_isa_t::avx2;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx2";
    const std::pair<std::vector<dim_t>, bool> cases[] = {
        { { 1024, 1024, 3, 3 }, true },
        { { 1024, 1024, 3, 5 }, true },
        { { 1000, 1024, 2, 5 }, true },
        { { 64, 64, 3, 3 }, false },
        { { 1024, 1024, 4, 4 }, false },
        { { 1024, 1024, 1, 7 }, false },
    };
    for (const auto &pc : cases) {
        jit_case_t c = jit_case_t::of(pc.first, relayout_f32, relayout_f32, "OIhw16o16i", "oihw");
        EXPECT_EQ(desc_of(c, isa).ymm_packed, pc.second) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa)) << c.str();
    }
}

// AVX2 transposes of short calls (oihw <-> OIhw8i8o 3x3: 8 o x 8 i x 9 hw
// = 576 elements) bake a block of the next loop as copies do
// (kernel_plan_params_t::short_tiles_split): the I blocks, 32 of 128 per
// call. AVX-512 keeps its call shapes.
TEST(jit_reorder, ShortTilesSplitYmm) {
    for (const auto &tags : std::vector<std::pair<const char *, const char *>>{
                 { "oihw", "OIhw8i8o" }, { "OIhw8i8o", "oihw" } }) {
        jit_case_t c = jit_case_t::of(
                { 1024, 1024, 3, 3 }, relayout_f32, relayout_f32, tags.first, tags.second);
        plan_t p;
        ASSERT_NO_FATAL_FAILURE(case_plan(c, p));
        const cpu_isa_t isa = cpu_isa_t::avx2;
        kernel_plan_t kp;
        ASSERT_EQ(kernel_plan_create(kp, p, x64::jit_plan_params(isa, p)), status_t::success);
        ASSERT_EQ(kp.loops.size(), 2u) << kp.dump(p);
        EXPECT_EQ(kp.loops[0].n, 32) << kp.dump(p);
        EXPECT_FALSE(x64::jit_plan_params(cpu_isa_t::avx512_core, p).short_tiles_split);
        if (!x64::isa_allowed(isa)) continue;
        c.dims = { 64, 256, 3, 3 };
        EXPECT_TRUE(run_jit_case(c, isa));
    }
}

} // namespace
} // namespace test
} // namespace impl
} // namespace relayout

// Depthwise int8 weights (goihw -> Goihw16g / 8g / 4g, goiw -> Goiw16g /
// 8g, goidhw -> Goidhw16g): calls of many group blocks
// (jit_dw_block_call), run as 64 groups per step of byte transposes
// (jit_dw_tiles; 8 and 4 groups a block: the rows' pieces interleaved,
// dw_rows) and a tail step of the blocks left, whose per-group
// compensation the kernel stores itself (comp_direct); the rest (padded
// groups, 4 groups of fewer than 4 positions) keep the generic tiles,
// their sums stepping with the block loop (jit_comp_span). Sizes around
// the blocks, the steps and a tail's partial 16 groups, spatial sizes 1
// to 121 (chunks of 16 rows; the last one started early for whole runs
// of 16 / W rows), a src ending at a guard page; against the knobs
// (ctest entries) each path alone. `which`: the cases whose rule a knob
// turns off (the tiles: all; the span: its cases; the block calls: the
// large ones; narrow: 8 and 4 groups a block; tails: a tail step).
enum class dw_cases_t { all, span, calls, narrow, tails };
void depthwise_cases(dw_cases_t which) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const bool call_on = getenv_int("RELAYOUT_JIT_DW_CALL", 8192) > 0;
    const bool tiles_on = getenv_int("RELAYOUT_JIT_DW_TILES", 1) != 0;
    const bool span_on = getenv_int("RELAYOUT_JIT_DW_COMP", 1) != 0;
    const bool narrow_on = getenv_int("RELAYOUT_JIT_DW_NARROW", 1) != 0;
    const bool tails_on = getenv_int("RELAYOUT_JIT_DW_TAIL", 1) != 0;
    struct dw_case_t {
        std::vector<dim_t> dims;
        const char *stag, *dtag;
        int W;  // groups a block
        int dw; // desc.dw with every knob on (0: not the depthwise tiles)
    };
    const dw_case_t cases[] = { { { 4096, 1, 1, 3, 3 }, "goihw", "Goihw16g", 16, 9 },
        { { 64, 1, 1, 3, 3 }, "goihw", "Goihw16g", 16, 9 }, // one step
        { { 192, 1, 1, 5, 5 }, "goihw", "Goihw16g", 16, 25 },
        { { 256, 1, 1, 7, 7 }, "goihw", "Goihw16g", 16, 49 },
        { { 128, 1, 1, 11, 11 }, "goihw", "Goihw16g", 16, 121 },
        { { 512, 1, 1, 1, 1 }, "goihw", "Goihw16g", 16, 0 }, // a copy
        { { 128, 1, 1, 2, 4 }, "goihw", "Goihw16g", 16, 8 }, // (not the 8x8 tiles)
        { { 8192, 1, 1, 3 }, "goiw", "Goiw16g", 16, 3 },
        { { 1024, 1, 1, 3, 3, 3 }, "goidhw", "Goidhw16g", 16, 27 },
        { { 80, 1, 1, 3, 3 }, "goihw", "Goihw16g", 16, 9 },   // 5 blocks: a tail of 1
        { { 48, 1, 1, 5, 5 }, "goihw", "Goihw16g", 16, 25 },  // 3 blocks: the tail alone
        { { 4100, 1, 1, 3, 3 }, "goihw", "Goihw16g", 16, 0 }, // padded groups
        { { 72, 1, 1, 3, 3 }, "goihw", "Goihw16g", 16, 0 },
        { { 4096, 1, 1, 3, 3 }, "goihw", "Goihw8g", 8, 9 },
        { { 64, 1, 1, 3, 3 }, "goihw", "Goihw8g", 8, 9 },   // one step
        { { 40, 1, 1, 3, 3 }, "goihw", "Goihw8g", 8, 9 },   // 5 blocks
        { { 200, 1, 1, 7, 7 }, "goihw", "Goihw8g", 8, 49 }, // last chunk from 47 (A odd)
        { { 136, 1, 1, 17 }, "goiw", "Goiw8g", 8, 17 },     // ... from 15: one new row
        { { 8192, 1, 1, 3 }, "goiw", "Goiw8g", 8, 3 },
        { { 24, 1, 1, 1, 2 }, "goihw", "Goihw8g", 8, 2 },   // A = 2: one run of 2 rows
        { { 4100, 1, 1, 3, 3 }, "goihw", "Goihw8g", 8, 0 }, // padded
        { { 4096, 1, 1, 3, 3 }, "goihw", "Goihw4g", 4, 9 },
        { { 64, 1, 1, 3, 3 }, "goihw", "Goihw4g", 4, 9 },   // one step
        { { 96, 1, 1, 3, 3 }, "goihw", "Goihw4g", 4, 9 },   // a tail of 8 blocks
        { { 4100, 1, 1, 3, 3 }, "goihw", "Goihw4g", 4, 9 }, // ... of 13: 4 groups of 16
        { { 20, 1, 1, 5, 5 }, "goihw", "Goihw4g", 4, 25 },
        { { 44, 1, 1, 11, 11 }, "goihw", "Goihw4g", 4, 121 }, // last chunk from 112
        { { 12, 1, 1, 17 }, "goiw", "Goiw4g", 4, 17 },        // ... from 13
        { { 36, 1, 1, 2, 2 }, "goihw", "Goihw4g", 4, 4 },     // A = 4: one run of 4 rows
        { { 8192, 1, 1, 3 }, "goiw", "Goiw4g", 4, 0 },        // A < 4: the span
        { { 4094, 1, 1, 3, 3 }, "goihw", "Goihw4g", 4, 0 } }; // padded
    uint32_t seed = 2000;
    for (const dw_case_t &dc : cases)
        for (data_type_t dt : { relayout_s8, relayout_u8 })
            for (uint64_t flags : { uint64_t(0), s8s8, zp, s8s8 | zp }) {
                if (dt == relayout_u8 && (flags & s8s8)) continue; // (s8 dsts only)
                const bool large = dc.dims[0] * 16 * std::max(dc.dw, 1) > 32768;
                const bool narrow = dc.W < 16, tail = dc.dims[0] % 64 != 0;
                // The blocks baked, in steps of 64 / W, in every call.
                const bool baked = call_on || dc.dims[0] * dc.dw <= 32768;
                const int want = tiles_on && baked && (narrow_on || !narrow) && (tails_on || !tail)
                                         ? dc.dw
                                         : 0;
                if ((which == dw_cases_t::span && (want != 0 || flags == 0))
                        || (which == dw_cases_t::calls && !large)
                        || (which == dw_cases_t::narrow && (!narrow || dc.dw == 0))
                        || (which == dw_cases_t::tails && (!tail || dc.dw == 0)))
                    continue;
                jit_case_t c = jit_case_t::of(dc.dims, dt, dt, dc.stag, dc.dtag);
                c.set_comp(flags, 1);
                std::string kplan;
                case_kplan(c, isa, kplan);
                const x64::jit_reorder_desc_t d = desc_of(c, isa);
                EXPECT_EQ(d.dw, want) << c.str() << ": " << kplan;
                EXPECT_EQ(d.comp_direct, d.dw != 0 && flags != 0) << c.str();
                // The span: blocks baked (not padded), compensation, not
                // the tiles.
                const bool span = span_on && flags != 0 && d.dw == 0 && dc.dims[0] % dc.W == 0
                                  && kplan.find("loops:[") != std::string::npos;
                EXPECT_EQ(d.comp_span, span) << c.str() << ": " << kplan;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
                c.guard_src = true;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
            }
    if (which != dw_cases_t::all) return;
    // Two threads, each its own calls' sums; not with other O or I (a
    // grouped layout whose sums gather several calls), nor on AVX2.
    for (const char *dtag : { "Goihw16g", "Goihw4g" }) {
        jit_case_t c =
                jit_case_t::of({ 65536, 1, 1, 3, 3 }, relayout_s8, relayout_s8, "goihw", dtag);
        c.set_comp(s8s8 | zp, 1);
        const bool on = tiles_on && call_on && (narrow_on || dtag[5] == '1');
        EXPECT_EQ(desc_of(c, isa).dw, on ? 9 : 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
        EXPECT_EQ(desc_of(c, cpu_isa_t::avx2).dw, 0) << c.str();
        EXPECT_TRUE(run_jit_case(c, cpu_isa_t::avx2, nullptr, ++seed));
    }
    jit_case_t c =
            jit_case_t::of({ 64, 2, 1, 3, 3 }, relayout_s8, relayout_s8, "goihw", "gOIhw16i16o");
    c.set_comp(s8s8, 1);
    EXPECT_EQ(desc_of(c, isa).dw, 0) << c.str();
    EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++seed));
}

TEST(jit_reorder, DepthwiseTiles) {
    depthwise_cases(dw_cases_t::all);
}

TEST(jit_reorder, DepthwiseCompSpan) {
    depthwise_cases(dw_cases_t::span);
}

TEST(jit_reorder, DepthwiseBlockCalls) {
    depthwise_cases(dw_cases_t::calls);
}

TEST(jit_reorder, DepthwiseNarrowBlocks) {
    depthwise_cases(dw_cases_t::narrow);
}

TEST(jit_reorder, DepthwiseTailSteps) {
    depthwise_cases(dw_cases_t::tails);
}

// Grouped 4i16o4i weights with per-group compensation (mask 1: one sum
// per call) take the few-B tiles and their sums per A position
// (jit_few_b_comp_reduced), the driver adding them to the call's index;
// mask 3 keeps one sum per o. Knob RELAYOUT_JIT_FEW_B_COMP1=0 (ctest): the
// 16 x 16 tiles summing per lane, as before.
TEST(jit_reorder, FewBCompPerGroup) {
    const cpu_isa_t isa = cpu_isa_t::avx512_core;
    if (!x64::isa_allowed(isa)) GTEST_SKIP() << "no avx512_core";
    const bool on = getenv_int("RELAYOUT_JIT_FEW_B_COMP1", 1) != 0;
    uint32_t n = 2100;
    for (data_type_t sdt : { relayout_f32, relayout_s8 })
        for (const std::vector<dim_t> &dims : std::vector<std::vector<dim_t>>{
                     { 3, 32, 48, 3, 3 }, { 2, 40, 20, 1, 3 }, { 4, 64, 64, 3, 3 } })
            for (uint64_t flags : { s8s8, zp, s8s8 | zp }) {
                jit_case_t c = jit_case_t::of(dims, sdt, relayout_s8, "hwigo", "gOIhw4i16o4i");
                c.set_comp(flags, 1);
                const x64::jit_reorder_desc_t d = desc_of(c, isa);
                EXPECT_EQ(d.comp_a, on) << c.str();
                EXPECT_EQ(d.few_b, on ? 4 : 0) << c.str();
                EXPECT_EQ(d.comp_lanes, !on) << c.str();
                if (sdt == relayout_f32) c.src_scale_mask = 1; // per g
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
                c.guard_src = true;
                EXPECT_TRUE(run_jit_case(c, isa, nullptr, ++n));
            }
}

} // namespace
} // namespace test
} // namespace impl
} // namespace relayout
