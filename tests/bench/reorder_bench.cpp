// Reorder benchmarks (DESIGN §10): each problem runs relayout, oneDNN (when
// built with it) and a streaming-copy baseline of the same bytes, all in
// this process, interleaved iteration by iteration, so that the ratios
// (% of copy, speed-up over oneDNN) hold on a noisy shared machine even
// when absolute GB/s move.
//
// Counters per problem: rl_GBps (bytes read + written / relayout time),
// copy_pct (relayout bandwidth as % of the copy's), dnnl_x (oneDNN time /
// relayout time: > 1 means relayout is faster), impl (in the label).
// scripts/perf_report.py turns the JSON output into a markdown table.
//
// --cold: each contender's timed call starts with its source and
// destination flushed out of every cache level (untimed), so the rows
// measure memory-bound speed whatever the host's last-level cache holds:
// a 134 MB problem is 4x a 32 MiB L3 but fits a 480 MiB one, where the
// default (warm) rows partly measure the cache instead.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <cpuid.h>
#include <immintrin.h>
#include <unistd.h>

#include "relayout/relayout.h"
#include "relayout/relayout.hpp"

#include "common/threading.hpp"
#include "perf.hpp" // benchdnn_lite: the streaming copy

#ifdef RELAYOUT_BENCH_ONEDNN
#include <dnnl.hpp>
#endif

namespace {

using clk = std::chrono::steady_clock;
using rl_dt = relayout::memory::data_type;

struct problem_t {
    const char *family;
    std::vector<int64_t> dims;
    rl_dt sdt, ddt;
    const char *stag, *dtag; // string tags (relayout) = oneDNN tags by name
    bool src_scale = false;  // src scale 0.5 (common), or per dim (scale_mask)
    bool s8s8_comp = false;  // dst s8s8 compensation (comp_mask)
    int scale_mask = 0;      // src scales over these dims ("scale:M"; 0: common)
    int s8s8_mask = -1;      // the compensation mask ("s8s8:M"; -1: comp_mask's)
};

// The compensation mask a user passes for weights (oneDNN's): over O, and
// over G and O for grouped ones (a dst tag starting with g). Depthwise
// weights (Goihw16g, Goiw8g, ...: O = I = 1 per group) keep one sum per
// group, mask 1, as oneDNN's depthwise convolutions ask for.
int comp_mask(const problem_t &pb) {
    if (pb.s8s8_mask >= 0) return pb.s8s8_mask;
    return pb.dtag[0] == 'g' ? 3 : 1;
}

// The src scales ("scale": one, 0.5; "scale:M": one per position of the
// masked dims, 0.25 to 1 in steps of 1/4 so every product is exact in
// both libraries).
std::vector<float> src_scales(const problem_t &pb) {
    size_t n = 1;
    for (size_t d = 0; d < pb.dims.size(); ++d)
        if (pb.scale_mask & (1 << d)) n *= size_t(pb.dims[d]);
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = pb.scale_mask ? 0.25f * float(1 + i % 4) : 0.5f;
    return v;
}

double seconds(clk::time_point a, clk::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// The streaming-copy roofline (benchdnn_lite's: non-temporal stores from
// 40 MiB on, memcpy below) over the library's own threads, split the same
// static way as a reorder. It moves the reorder's bytes (DESIGN §10: read
// src + write dst): a conversion that reads 4 bytes per element and
// writes 1 is measured against reading `sbytes` and writing `dbytes`, not
// against a copy that writes as much as it reads.
void copy_baseline(char *dst, size_t dbytes, const char *src, size_t sbytes) {
    const int nthr = sbytes + dbytes < (2u << 20) ? 1 : relayout::impl::max_threads();
    relayout::impl::parallel(nthr,
            [&](int ithr, int nt) { bdl::stream_copy_slice(src, sbytes, dst, dbytes, ithr, nt); });
}

bool cold = false;          // --cold (see the top of the file)
bool user_min_time = false; // --benchmark_min_time given: rows take it

// clflushopt (CPUID.7.0:EBX[23]) is not ordered against other flushes:
// 64 MiB of dirty lines leave in 3-11 ms instead of clflush's 120-145 ms.
__attribute__((target("clflushopt"))) void flush_lines_opt(const char *c, size_t b, size_t e) {
    for (size_t l = b; l < e; ++l)
        _mm_clflushopt(const_cast<char *>(c + l * 64));
}

void flush_lines(const char *c, size_t b, size_t e) {
    for (size_t l = b; l < e; ++l)
        _mm_clflush(c + l * 64);
}

bool has_clflushopt() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 23 & 1u);
}

// Writes back and invalidates every cache line of [p, p + bytes) on all
// threads, then fences, so the next access of the range comes from memory.
void evict(const void *p, size_t bytes) {
    if (!cold) return;
    static const bool opt = has_clflushopt();
    const auto *c = static_cast<const char *>(p);
    const size_t lines = (bytes + 63) / 64;
    relayout::impl::parallel(relayout::impl::max_threads(), [&](int ithr, int nt) {
        const size_t b = lines * ithr / nt, e = lines * (ithr + 1) / nt;
        (opt ? flush_lines_opt : flush_lines)(c, b, e);
        _mm_mfence();
    });
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0. : v[v.size() / 2];
}

#ifdef RELAYOUT_BENCH_ONEDNN
dnnl::memory::data_type to_dnnl(rl_dt dt) {
    switch (dt) {
        case rl_dt::f32: return dnnl::memory::data_type::f32;
        case rl_dt::bf16: return dnnl::memory::data_type::bf16;
        case rl_dt::f16: return dnnl::memory::data_type::f16;
        case rl_dt::s32: return dnnl::memory::data_type::s32;
        case rl_dt::s8: return dnnl::memory::data_type::s8;
        case rl_dt::u8: return dnnl::memory::data_type::u8;
        default: return dnnl::memory::data_type::undef;
    }
}

// oneDNN's tag of the same name (relayout accepts every oneDNN tag name as a
// string tag). Tags not listed are undef, which makes oneDNN refuse the
// problem (its row then reports no ratio).
dnnl::memory::format_tag dnnl_tag(const std::string &t) {
    using ft = dnnl::memory::format_tag;
#define RELAYOUT_BENCH_TAG(x)                                                                      \
    { #x, ft::x }
    static const std::pair<const char *, ft> tags[] = { RELAYOUT_BENCH_TAG(a),
        RELAYOUT_BENCH_TAG(ab), RELAYOUT_BENCH_TAG(ba), RELAYOUT_BENCH_TAG(abc),
        RELAYOUT_BENCH_TAG(acb), RELAYOUT_BENCH_TAG(abcd), RELAYOUT_BENCH_TAG(acdb),
        RELAYOUT_BENCH_TAG(abcde), RELAYOUT_BENCH_TAG(acdeb), RELAYOUT_BENCH_TAG(nchw),
        RELAYOUT_BENCH_TAG(nhwc), RELAYOUT_BENCH_TAG(chwn), RELAYOUT_BENCH_TAG(ncdhw),
        RELAYOUT_BENCH_TAG(ndhwc), RELAYOUT_BENCH_TAG(nChw4c), RELAYOUT_BENCH_TAG(nChw8c),
        RELAYOUT_BENCH_TAG(nChw16c), RELAYOUT_BENCH_TAG(nCdhw16c), RELAYOUT_BENCH_TAG(NChw16n16c),
        RELAYOUT_BENCH_TAG(oihw), RELAYOUT_BENCH_TAG(hwio), RELAYOUT_BENCH_TAG(ohwi),
        RELAYOUT_BENCH_TAG(iohw), RELAYOUT_BENCH_TAG(oidhw), RELAYOUT_BENCH_TAG(OIhw8i8o),
        RELAYOUT_BENCH_TAG(OIhw16i16o), RELAYOUT_BENCH_TAG(OIhw16o16i),
        RELAYOUT_BENCH_TAG(IOhw16o16i), RELAYOUT_BENCH_TAG(Ohwi16o),
        RELAYOUT_BENCH_TAG(OIhw4i16o4i), RELAYOUT_BENCH_TAG(OIhw8i16o2i),
        RELAYOUT_BENCH_TAG(OIdhw16i16o), RELAYOUT_BENCH_TAG(goihw), RELAYOUT_BENCH_TAG(gOIhw16i16o),
        RELAYOUT_BENCH_TAG(gOIhw4i16o4i), RELAYOUT_BENCH_TAG(hwigo), RELAYOUT_BENCH_TAG(goiw),
        RELAYOUT_BENCH_TAG(goidhw), RELAYOUT_BENCH_TAG(Goihw16g), RELAYOUT_BENCH_TAG(Goihw8g),
        RELAYOUT_BENCH_TAG(Goihw4g), RELAYOUT_BENCH_TAG(Goiw16g), RELAYOUT_BENCH_TAG(Goiw8g),
        RELAYOUT_BENCH_TAG(Goidhw16g), RELAYOUT_BENCH_TAG(OIhw8o8i), RELAYOUT_BENCH_TAG(gOIhw8i8o),
        RELAYOUT_BENCH_TAG(gOIhw8o8i), RELAYOUT_BENCH_TAG(OIhw16i16o4i),
        RELAYOUT_BENCH_TAG(gOIhw16i16o4i), RELAYOUT_BENCH_TAG(gohwi) };
#undef RELAYOUT_BENCH_TAG
    for (const auto &x : tags)
        if (t == x.first) return x.second;
    return ft::undef;
}
#endif

void bm_reorder(benchmark::State &state, problem_t pb) {
    using namespace relayout;
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    memory::desc smd(pb.dims, pb.sdt, pb.stag), dmd(pb.dims, pb.ddt, pb.dtag);
    if (pb.s8s8_comp)
        error::wrap_c_api(
                relayout_memory_desc_set_extra(const_cast<relayout_memory_desc_t>(dmd.get()),
                        relayout_extra_flag_compensation_conv_s8s8, comp_mask(pb), 0, 1.f),
                "set_extra");
    primitive_attr attr;
    if (pb.src_scale) attr.set_scales(RELAYOUT_ARG_SRC, pb.scale_mask, src_scales(pb));
    reorder::primitive_desc pd(eng, smd, eng, dmd, attr);
    reorder r(pd);
    memory src(smd, eng), dst(pd.dst_desc(), eng);
    const size_t sbytes = smd.get_size(), dbytes = pd.dst_desc().get_size();
    {
        // Small integers: valid in every type, no NaN/denormal slow paths.
        auto *s = static_cast<uint8_t *>(src.get_data_handle());
        const size_t esz = memory::data_type_size(pb.sdt);
        for (size_t i = 0; i < sbytes; ++i)
            s[i] = (i % esz == esz - 1 && esz > 1) ? 0x3f : uint8_t(i * 7);
        std::memset(dst.get_data_handle(), 0, dbytes);
    }
    // The copy reads the reorder's own source (oneDNN reads it too), so
    // each contender finds the source in whatever cache state the one
    // before it left. With a separate copy source a last-level cache that
    // holds the problem (480 MiB on some Xeons) gave the reorder a hot
    // source and the copy a cold one, and copy_pct read far above 100%.
    const auto *csrc = static_cast<const char *>(src.get_data_handle());
    std::vector<char> cdst(dbytes, 0);

#ifdef RELAYOUT_BENCH_ONEDNN
    // A problem oneDNN cannot express or refuses (a tag without a oneDNN
    // name, a type pair it lacks) is measured without it: no ratio.
    dnnl::engine deng(dnnl::engine::kind::cpu, 0);
    dnnl::stream dstrm(deng);
    dnnl::reorder dr;
    dnnl::memory dsrc, ddst;
    std::string dnnl_impl;
    bool dnnl_ok = dnnl_tag(pb.stag) != dnnl::memory::format_tag::undef
                   && dnnl_tag(pb.dtag) != dnnl::memory::format_tag::undef;
    if (dnnl_ok) try {
            dnnl::memory::dims ddims(pb.dims.begin(), pb.dims.end());
            dnnl::memory::desc dsmd(ddims, to_dnnl(pb.sdt), dnnl_tag(pb.stag));
            dnnl::memory::desc ddmd(ddims, to_dnnl(pb.ddt), dnnl_tag(pb.dtag));
            if (pb.s8s8_comp) {
                ddmd.data.extra.flags = dnnl_memory_extra_flag_compensation_conv_s8s8;
                ddmd.data.extra.compensation_mask = comp_mask(pb);
            }
            dnnl::primitive_attr dattr;
            if (pb.src_scale) dattr.set_output_scales(pb.scale_mask, src_scales(pb));
            dnnl::reorder::primitive_desc dpd(deng, dsmd, deng, ddmd, dattr);
            dr = dnnl::reorder(dpd);
            dsrc = dnnl::memory(dsmd, deng, src.get_data_handle());
            ddst = dnnl::memory(ddmd, deng);
            std::memset(ddst.get_data_handle(), 0, ddmd.get_size());
            dnnl_impl = dpd.impl_info_str();
        } catch (const dnnl::error &) {
            dnnl_ok = false;
        }
#endif

    // Warm up: page faults, code, caches.
    for (int i = 0; i < 2; ++i) {
        r.execute(strm, src, dst);
        copy_baseline(cdst.data(), dbytes, csrc, sbytes);
#ifdef RELAYOUT_BENCH_ONEDNN
        if (dnnl_ok) dr.execute(dstrm, dsrc, ddst);
#endif
    }
    std::vector<double> t_rl, t_copy, t_dnnl;
    for (auto _ : state) {
        evict(csrc, sbytes);
        evict(cdst.data(), dbytes);
        auto a = clk::now();
        copy_baseline(cdst.data(), dbytes, csrc, sbytes);
        auto b = clk::now();
        evict(csrc, sbytes);
        evict(dst.get_data_handle(), dbytes);
        auto b1 = clk::now();
        r.execute(strm, src, dst);
        auto c = clk::now();
#ifdef RELAYOUT_BENCH_ONEDNN
        if (dnnl_ok) {
            evict(csrc, sbytes);
            evict(ddst.get_data_handle(), ddst.get_desc().get_size());
        }
#endif
        auto c1 = clk::now();
#ifdef RELAYOUT_BENCH_ONEDNN
        if (dnnl_ok) {
            dr.execute(dstrm, dsrc, ddst);
            dstrm.wait();
        }
#endif
        auto d = clk::now();
        t_copy.push_back(seconds(a, b));
        t_rl.push_back(seconds(b1, c));
        t_dnnl.push_back(seconds(c1, d));
        state.SetIterationTime(seconds(b1, c));
    }
    const double bytes = double(sbytes + dbytes);
    const double rl = median(t_rl), cp = median(t_copy);
    state.counters["rl_GBps"] = bytes / rl * 1e-9;
    state.counters["copy_GBps"] = bytes / cp * 1e-9;
    state.counters["copy_pct"] = 100. * cp / rl;
    state.counters["MB"] = bytes * 1e-6;
    std::string label = pb.family + std::string(" ") + pd.impl_info_str();
#ifdef RELAYOUT_BENCH_ONEDNN
    if (dnnl_ok) {
        const double dn = median(t_dnnl);
        state.counters["dnnl_GBps"] = bytes / dn * 1e-9;
        state.counters["dnnl_x"] = dn / rl;
        label += " | onednn " + dnnl_impl;
    } else {
        label += " | onednn -";
    }
#endif
    state.SetLabel(label);
}

// Latency of a tiny reorder on the calling thread (execute only).
void bm_tiny_execute(benchmark::State &state) {
    using namespace relayout;
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    memory::desc smd({ 1, 16, 7, 7 }, rl_dt::f32, "nchw"),
            dmd({ 1, 16, 7, 7 }, rl_dt::f32, "nChw16c");
    reorder r(reorder::primitive_desc(eng, smd, eng, dmd));
    memory src(smd, eng), dst(dmd, eng);
    for (auto _ : state)
        r.execute(strm, src, dst);
    state.SetLabel(reorder::primitive_desc(eng, smd, eng, dmd).impl_info_str());
}

// Creation latency (issue 3), three costs kept apart, each timed per
// iteration around the calls alone (descriptors are built outside the
// timed region): real_time is the mean, the median_us counter the median
// (scripts/perf_report.py prints both):
//   hit_primitive     reorder(pd) from an existing primitive_desc whose
//                     kernel is in the cache: what a framework pays per
//                     primitive it re-creates;
//   hit_pd_primitive  primitive_desc + primitive of a cached problem:
//                     planning and dispatch included;
//   cold_pd_primitive primitive_desc + primitive of a new shape each time
//                     (plan + JIT, and, once the cache is full, the
//                     eviction of the oldest kernel).
enum class create_case_t { hit_primitive, hit_pd_primitive, cold_pd_primitive };

void bm_create(benchmark::State &state, create_case_t what) {
    using namespace relayout;
    engine eng(engine::kind::cpu, 0);
    const memory::desc hsmd({ 1, 16, 7, 7 }, rl_dt::f32, "nchw"),
            hdmd({ 1, 16, 7, 7 }, rl_dt::f32, "nChw16c");
    const reorder::primitive_desc hpd(eng, hsmd, eng, hdmd);
    { reorder warm(hpd); } // the kernel is in the cache from here on
    std::vector<double> t;
    t.reserve(1 << 16);
    // Static: google-benchmark calls this function several times (to pick
    // the iteration count); a fresh counter would revisit cached shapes.
    static int64_t n = 0;
    for (auto _ : state) {
        clk::time_point a, b;
        if (what == create_case_t::hit_primitive) {
            a = clk::now();
            reorder r(hpd);
            b = clk::now();
            benchmark::DoNotOptimize(r);
        } else if (what == create_case_t::hit_pd_primitive) {
            a = clk::now();
            reorder r(reorder::primitive_desc(eng, hsmd, eng, hdmd));
            b = clk::now();
            benchmark::DoNotOptimize(r);
        } else {
            // 17.. channels: never the warm 16, a new kernel each time.
            const int64_t c = 17 + (n++ % 100000);
            memory::desc smd({ 1, c, 7, 7 }, rl_dt::f32, "nchw"),
                    dmd({ 1, c, 7, 7 }, rl_dt::f32, "nChw16c");
            a = clk::now();
            reorder r(reorder::primitive_desc(eng, smd, eng, dmd));
            b = clk::now();
            benchmark::DoNotOptimize(r);
        }
        const double s = seconds(a, b);
        if (t.size() < t.capacity()) t.push_back(s);
        state.SetIterationTime(s);
    }
    // The median: a shared machine adds rare long outliers to the mean.
    state.counters["median_us"] = median(t) * 1e6;
    static const char *const labels[] = { "cache hit: primitive from an existing pd",
        "cache hit: pd + primitive", "cold: pd + primitive, new shape (plan + jit)" };
    state.SetLabel(labels[(int)what]);
}

const problem_t problems[] = {
    // blocked activations and weights, >= 4x L3 (32 MiB)
    { "blocked", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::f32, "nchw", "nChw16c" },
    { "blocked", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::f32, "nChw16c", "nchw" },
    { "blocked", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::f32, "nchw", "nChw8c" },
    { "blocked", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::f32, "nChw8c", "nchw" },
    { "blocked", { 1024, 1024, 4, 4 }, rl_dt::f32, rl_dt::f32, "oihw", "OIhw16i16o" },
    { "blocked", { 1024, 1024, 4, 4 }, rl_dt::f32, rl_dt::f32, "OIhw16i16o", "oihw" },
    { "blocked", { 2048, 2048, 3, 3 }, rl_dt::f32, rl_dt::f32, "OIhw16i16o", "oihw" },
    { "blocked", { 1024, 1024, 5, 5 }, rl_dt::f32, rl_dt::f32, "OIhw16i16o", "oihw" },
    // Other kernel sizes take other paths (ARCHITECTURE §11): 2x2 runs as an
    // interleave, 7x7 and 5x5x5 loop over their flattened tiles.
    { "blocked", { 2048, 2048, 2, 2 }, rl_dt::f32, rl_dt::f32, "OIhw16i16o", "oihw" },
    { "blocked", { 512, 1024, 7, 7 }, rl_dt::f32, rl_dt::f32, "OIhw16i16o", "oihw" },
    { "blocked", { 512, 512, 5, 5, 5 }, rl_dt::f32, rl_dt::f32, "OIdhw16i16o", "oidhw" },
    // transposes
    { "transpose", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::f32, "nchw", "nhwc" },
    { "transpose", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::f32, "nhwc", "nchw" },
    { "transpose", { 4096, 4096 }, rl_dt::f32, rl_dt::f32, "ab", "ba" },
    { "transpose", { 8192, 8192 }, rl_dt::f32, rl_dt::f32, "ab", "ba" },
    // Odd shapes: dst rows that are not whole cache lines apart.
    { "transpose", { 8191, 8192 }, rl_dt::f32, rl_dt::f32, "ab", "ba" },
    // conversions with scales
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::bf16, "nchw", "nchw", true },
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::f16, "nchw", "nchw", true },
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::s8, "nchw", "nchw", true },
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::u8, "nchw", "nchw", true },
    // Conversions that change the layout too (the bf16 training layouts,
    // int8 activations in nhwc).
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::bf16, "nchw", "nhwc", true },
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::s8, "nchw", "nhwc", true },
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::bf16, "nchw", "nChw16c" },
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::bf16, "nChw16c", "nchw" },
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::bf16, "nhwc", "nchw", true },
    { "convert", { 16, 256, 64, 64 }, rl_dt::f32, rl_dt::s8, "nchw", "nChw16c", true },
    // 16-bit bit copies.
    { "bf16", { 8192, 8192 }, rl_dt::bf16, rl_dt::bf16, "ab", "ba" },
    { "bf16", { 16, 256, 64, 64 }, rl_dt::bf16, rl_dt::bf16, "nchw", "nhwc" },
    { "bf16", { 16, 256, 64, 64 }, rl_dt::bf16, rl_dt::bf16, "nchw", "nChw16c" },
    // int8
    { "int8", { 8192, 8192 }, rl_dt::s8, rl_dt::s8, "ab", "ba" },
    { "int8", { 16, 256, 64, 64 }, rl_dt::u8, rl_dt::u8, "nhwc", "nchw" },
    { "int8", { 16, 256, 64, 64 }, rl_dt::s8, rl_dt::s8, "nchw", "nhwc" },
    // Twice the size: away from the byte tiles' 32 MiB streaming threshold.
    { "int8", { 32, 256, 64, 64 }, rl_dt::s8, rl_dt::s8, "nchw", "nhwc" },
    { "int8", { 1024, 1024, 4, 4 }, rl_dt::s8, rl_dt::s8, "oihw", "OIhw4i16o4i", false, true },
    { "int8", { 1024, 1024, 4, 4 }, rl_dt::f32, rl_dt::s8, "oihw", "OIhw4i16o4i", true, true },
};

// One in-cache problem per kernel family of the manifest
// (jit/x64/jit_kernels.inc), at that family's ISA (through the cap): the
// kernels' own speed, without DRAM in the way.
struct family_t {
    relayout_cpu_isa_t isa;
    const char *isa_name, *strategy;
};
const family_t families[] = {
#define RELAYOUT_JIT_KERNEL(isa, strategy, tile) { relayout_cpu_isa_##isa, #isa, #strategy },
#include "jit/x64/jit_kernels.inc"
#undef RELAYOUT_JIT_KERNEL
};

void bm_family(benchmark::State &state, family_t f) {
    using namespace relayout;
    problem_t pb{ "kernel", { 256, 1024 }, rl_dt::f32, rl_dt::s8, "ab", "ab", true };
    const std::string s = f.strategy;
    if (s == "transpose") pb = { "kernel", { 512, 512 }, rl_dt::f32, rl_dt::f32, "ab", "ba" };
    if (s == "interleave")
        pb = { "kernel", { 256, 256, 3, 3 }, rl_dt::s8, rl_dt::s8, "oihw", "OIhw4i16o4i" };
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    relayout_set_max_cpu_isa(f.isa);
    memory::desc smd, dmd;
    if (s == "scalar") {
        // Strided on both sides: no unit stride anywhere (gather).
        smd = memory::desc({ 256, 256 }, rl_dt::f32, memory::dims{ 2 * 256 + 1, 2 });
        dmd = memory::desc({ 256, 256 }, rl_dt::f32, memory::dims{ 2, 2 * 256 + 3 });
    } else {
        smd = memory::desc(pb.dims, pb.sdt, pb.stag);
        dmd = memory::desc(pb.dims, pb.ddt, pb.dtag);
    }
    primitive_attr attr;
    if (pb.src_scale) attr.set_scales(RELAYOUT_ARG_SRC, pb.scale_mask, src_scales(pb));
    reorder::primitive_desc pd(eng, smd, eng, dmd, attr);
    reorder r(pd);
    relayout_set_max_cpu_isa(relayout_cpu_isa_default);
    memory src(smd, eng), dst(dmd, eng);
    std::memset(src.get_data_handle(), 0, smd.get_size());
    for (auto _ : state)
        r.execute(strm, src, dst);
    const double bytes = double(smd.get_size() + dmd.get_size());
    state.counters["GBps"] =
            benchmark::Counter(bytes * state.iterations(), benchmark::Counter::kIsRate);
    state.SetLabel(pd.impl_info_str());
}

// Problems from a file (--problems=FILE), one per line, '#' comments:
//   DIMS SDT:STAG>DDT:DTAG [scale[:MASK]] [s8s8[:MASK]]
// (scale:MASK: one src scale per position of the masked dims, e.g.
// scale:1 per group; s8s8:MASK: that compensation mask instead of
// comp_mask's) e.g. "16x256x64x64 f32:nChw8c>f32:nchw" or "1024x1024x3x3
// f32:oihw>s8:OIhw4i16o4i scale s8s8": any shape and tag pair, against
// oneDNN and the copy like the table above (rows named extra/...).
std::vector<problem_t> read_problems(const char *path) {
    std::vector<problem_t> out;
    FILE *f = std::fopen(path, "r");
    if (!f) {
        std::fprintf(stderr, "reorder_bench: cannot open --problems file %s\n", path);
        std::exit(2);
    }
    static std::vector<std::unique_ptr<std::string>> strings; // tags outlive the problems
    auto keep = [](const std::string &x) {
        strings.emplace_back(new std::string(x));
        return strings.back()->c_str();
    };
    auto dt_of = [&](const std::string &x, int line) {
        static const std::pair<const char *, rl_dt> dts[] = { { "f32", rl_dt::f32 },
            { "bf16", rl_dt::bf16 }, { "f16", rl_dt::f16 }, { "s32", rl_dt::s32 },
            { "s8", rl_dt::s8 }, { "u8", rl_dt::u8 } };
        for (const auto &d : dts)
            if (x == d.first) return d.second;
        std::fprintf(
                stderr, "reorder_bench: %s:%d: unknown data type '%s'\n", path, line, x.c_str());
        std::exit(2);
    };
    char buf[512];
    for (int line = 1; std::fgets(buf, sizeof(buf), f); ++line) {
        std::string l(buf);
        l = l.substr(0, l.find('#'));
        std::vector<std::string> w;
        for (size_t i = 0; i < l.size();) {
            const size_t j = l.find_first_of(" \t\r\n", i);
            const size_t e = j == std::string::npos ? l.size() : j;
            if (e > i) w.push_back(l.substr(i, e - i));
            i = e + 1;
        }
        if (w.empty()) continue;
        const size_t gt = w.size() > 1 ? w[1].find('>') : std::string::npos;
        const size_t c1 = w.size() > 1 ? w[1].find(':') : std::string::npos;
        const size_t c2 = gt == std::string::npos ? gt : w[1].find(':', gt);
        if (gt == std::string::npos || c1 > gt || c2 == std::string::npos) {
            std::fprintf(stderr,
                    "reorder_bench: %s:%d: expected 'DIMS SDT:STAG>DDT:DTAG [scale[:M]] "
                    "[s8s8[:M]]'\n",
                    path, line);
            std::exit(2);
        }
        problem_t pb{ "extra", {}, dt_of(w[1].substr(0, c1), line),
            dt_of(w[1].substr(gt + 1, c2 - gt - 1), line), keep(w[1].substr(c1 + 1, gt - c1 - 1)),
            keep(w[1].substr(c2 + 1)) };
        for (size_t i = 0; i < w[0].size();) {
            const size_t x = w[0].find('x', i);
            const size_t e = x == std::string::npos ? w[0].size() : x;
            pb.dims.push_back(std::atoll(w[0].substr(i, e - i).c_str()));
            i = e + 1;
        }
        for (size_t k = 2; k < w.size(); ++k) {
            if (w[k] == "scale") {
                pb.src_scale = true;
            } else if (w[k].rfind("scale:", 0) == 0) {
                pb.src_scale = true;
                pb.scale_mask = std::atoi(w[k].c_str() + 6);
            } else if (w[k] == "s8s8") {
                pb.s8s8_comp = true;
            } else if (w[k].rfind("s8s8:", 0) == 0) {
                pb.s8s8_comp = true;
                pb.s8s8_mask = std::atoi(w[k].c_str() + 5);
            } else {
                std::fprintf(stderr, "reorder_bench: %s:%d: unknown option '%s'\n", path, line,
                        w[k].c_str());
                std::exit(2);
            }
        }
        out.push_back(pb);
    }
    std::fclose(f);
    return out;
}

void register_problem(const problem_t &p) {
    std::string name = std::string(p.family) + "/";
    for (size_t i = 0; i < p.dims.size(); ++i)
        name += (i ? "x" : "") + std::to_string(p.dims[i]);
    name += std::string("/") + relayout_dt2str(static_cast<relayout_data_type_t>(p.sdt)) + ":"
            + p.stag + ">" + relayout_dt2str(static_cast<relayout_data_type_t>(p.ddt)) + ":"
            + p.dtag;
    auto *b = benchmark::RegisterBenchmark(name.c_str(), bm_reorder, p)
                      ->UseManualTime()
                      ->Unit(benchmark::kMillisecond);
    // A per-benchmark minimum would override --benchmark_min_time.
    if (!user_min_time) b->MinTime(0.5);
}

void register_all() {
    for (const auto &f : families)
        benchmark::RegisterBenchmark(
                (std::string("kernel/") + f.isa_name + "/" + f.strategy).c_str(), bm_family, f)
                ->UseRealTime()
                ->Unit(benchmark::kMicrosecond);
    for (const auto &p : problems)
        register_problem(p);
    benchmark::RegisterBenchmark("latency/tiny_1x16x7x7_execute", bm_tiny_execute)
            ->Unit(benchmark::kMicrosecond);
    // Manual time: the per-iteration timings exclude descriptor set-up.
    const std::pair<const char *, create_case_t> creates[] = {
        { "latency/create/hit_primitive", create_case_t::hit_primitive },
        { "latency/create/hit_pd_primitive", create_case_t::hit_pd_primitive },
        { "latency/create/cold_pd_primitive", create_case_t::cold_pd_primitive },
    };
    for (const auto &c : creates)
        benchmark::RegisterBenchmark(c.first, bm_create, c.second)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
}

} // namespace

int main(int argc, char **argv) {
#ifdef RELAYOUT_BENCH_ONEDNN
    // Debian's oneDNN runs on OpenMP, whose threads by default spin for
    // milliseconds after each parallel region: on two cores they take the
    // cores from the relayout and copy iterations that follow (measured:
    // -30% on both). Passive waiting keeps each library off the other's
    // time and costs oneDNN one futex wake per reorder (microseconds
    // against milliseconds). libgomp reads the variable when it loads, so
    // set it and start again.
    if (!std::getenv("OMP_WAIT_POLICY")) {
        setenv("OMP_WAIT_POLICY", "passive", 1);
        execv("/proc/self/exe", argv);
        std::fprintf(stderr, "reorder_bench: could not restart with OMP_WAIT_POLICY=passive\n");
    }
    benchmark::AddCustomContext("OMP_WAIT_POLICY", std::getenv("OMP_WAIT_POLICY"));
#endif
    // --problems=FILE: extra rows (see read_problems); --cold (see the top
    // of the file). Both are taken out of argv before Google Benchmark
    // parses it.
    std::vector<const char *> problem_files;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--cold") == 0) {
            cold = true;
            benchmark::AddCustomContext(
                    "cache_state", "cold: src and dst flushed before each call");
        } else if (std::strncmp(argv[i], "--problems=", 11) == 0) {
            problem_files.push_back(argv[i] + 11);
        } else {
            user_min_time |= std::strncmp(argv[i], "--benchmark_min_time", 20) == 0;
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    register_all();
    for (const char *f : problem_files)
        for (const problem_t &p : read_problems(f))
            register_problem(p);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
