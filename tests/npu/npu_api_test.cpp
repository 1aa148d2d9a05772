// The NPU engine through the public API only (relayout_npu.h / .hpp, linked
// against the shared library as a user would): engines, local descriptors
// and their queries, reorders cpu <-> npu and npu -> npu, the DMA program
// query, and the errors a user can make.
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "relayout/relayout_npu.hpp"

namespace {

using namespace relayout;
using dt = memory::data_type;
using tag = memory::format_tag;

constexpr uint8_t k_garbage = 0xA5;

size_t dt_bytes(dt t) {
    return memory::data_type_size(t);
}

// Distinct bytes for every element, so a misplaced element shows.
std::vector<uint8_t> pattern(size_t bytes, uint32_t seed = 1) {
    std::vector<uint8_t> v(bytes);
    uint32_t x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < bytes; ++i) {
        x = x * 1103515245u + 12345u;
        v[i] = uint8_t(x >> 16);
    }
    return v;
}

// Expected location of (n, c, h, w) straight from the seed document
// (tpu_local_memory_layout.txt), independent of the library's formula:
// NPU (Q+c) mod X, byte R + ((Q+c) div X)*Cs*d + n*Ns*d + h*Hs*d + w*Ws*d,
// strides from the layout's definition.
struct seed_loc_t {
    int npu;
    int64_t off;
};
seed_loc_t seed_location(int64_t X, int64_t S, int64_t eu, int64_t A, const memory::dims &dims,
        int64_t d, const std::string &layout, int64_t n, int64_t c, int64_t h, int64_t w) {
    const int64_t Q = A / S, R = A % S;
    const int64_t C = dims[1], H = dims[2], W = dims[3];
    const int64_t cpn = (Q + C + X - 1) / X;
    int64_t Ws = 1, Hs = W, Cs = H * W;
    if (layout == "aligned") Cs = (H * W + eu / d - 1) / (eu / d) * (eu / d);
    if (layout == "line_aligned") {
        Hs = (W + eu / d - 1) / (eu / d) * (eu / d);
        Cs = H * Hs;
    }
    const int64_t Ns = cpn * Cs;
    return { int((Q + c) % X), R + ((Q + c) / X) * Cs * d + n * Ns * d + h * Hs * d + w * Ws * d };
}

struct fixture_t {
    engine cpu{ engine::kind::cpu, 0 };
    engine eng;
    stream strm;
    explicit fixture_t(const std::string &cfg) : eng(npu::make_engine(cfg)), strm(eng) {}

    void reorder_run(const memory &src, const memory &dst, const primitive_attr &a = {}) {
        reorder(src, dst, a).execute(strm, src, dst);
    }
};

// Host buffer + memory for a cpu descriptor.
struct host_t {
    std::vector<uint8_t> buf;
    memory mem;
    host_t(const memory::desc &md, const engine &cpu, uint8_t fill = 0)
            : buf(std::max<size_t>(md.get_size(), 1), fill), mem(md, cpu, buf.data()) {}
};

// ---- engines ----------------------------------------------------------------

TEST(NpuApiEngine, CountAndPresetsByIndex) {
    EXPECT_EQ(engine::get_count(engine::kind::npu), 4u);
    const char *names[] = { "bm1684", "bm1684x", "bm1688", "bm1690" };
    const int npus[] = { 64, 64, 32, 64 };
    const int64_t lmem[] = { 512 * 1024, 256 * 1024, 128 * 1024, 256 * 1024 };
    for (size_t i = 0; i < 4; ++i) {
        engine e(engine::kind::npu, i);
        EXPECT_EQ(e.get_kind(), engine::kind::npu);
        const npu::config c = npu::get_config(e);
        EXPECT_STREQ(c.name, names[i]);
        EXPECT_EQ(c.npu_num, npus[i]);
        EXPECT_EQ(c.lmem_bytes, lmem[i]);
    }
    relayout_engine_t e = nullptr;
    EXPECT_EQ(relayout_engine_create(&e, relayout_npu, 4), relayout_invalid_arguments);
    EXPECT_EQ(e, nullptr);
    EXPECT_NE(std::string(relayout_get_last_error_message()).find("bm1690"), std::string::npos);
}

TEST(NpuApiEngine, FromConfigString) {
    const npu::config c = npu::get_config(npu::make_engine("custom:4:1024:128"));
    EXPECT_STREQ(c.name, "custom");
    EXPECT_EQ(c.npu_num, 4);
    EXPECT_EQ(c.lmem_bytes, 1024);
    EXPECT_EQ(c.eu_bytes, 128);
    relayout_engine_t e = nullptr;
    EXPECT_EQ(relayout_npu_engine_create(&e, "bm9999"), relayout_invalid_arguments);
    EXPECT_NE(std::string(relayout_get_last_error_message()).find("bm9999"), std::string::npos);
    EXPECT_EQ(relayout_npu_engine_create(&e, nullptr), relayout_invalid_arguments);
    EXPECT_NE(std::string(relayout_get_last_error_message()).find("config"), std::string::npos);
    relayout_npu_config_t cfg;
    engine cpu(engine::kind::cpu, 0);
    EXPECT_EQ(relayout_npu_engine_get_config(cpu.get(), &cfg), relayout_invalid_arguments);
}

TEST(NpuApiEngine, LaneAccessIsBoundsChecked) {
    engine e = npu::make_engine("custom:4:1024:128");
    const uint8_t in[4] = { 1, 2, 3, 4 };
    npu::write_lane(e, 3, 1020, in, 4);
    EXPECT_EQ(npu::read_lane(e, 3, 1020, 4), std::vector<uint8_t>(in, in + 4));
    EXPECT_EQ(relayout_npu_engine_write_lane(e.get(), 3, 1021, in, 4), relayout_invalid_arguments);
    EXPECT_EQ(relayout_npu_engine_read_lane(e.get(), 4, 0, nullptr, 0), relayout_invalid_arguments);
}

// ---- descriptors and queries --------------------------------------------------

// The seed's worked examples (X = 4, S = 1024, 128-byte alignment).
TEST(NpuApiDesc, SeedWorkedExamplesStrides) {
    engine e = npu::make_engine("custom:4:1024:128");
    // aligned fp32 (2,3,4,5) at NPU 0: Cs 32, Ns 32; at NPU 2: Cs 32, Ns 64.
    auto a0 = npu::query(npu::local_desc(e, 0, { 2, 3, 4, 5 }, dt::f32));
    EXPECT_EQ(a0.strides[1], 32);
    EXPECT_EQ(a0.strides[0], 32);
    EXPECT_EQ(a0.channels_per_npu, 1);
    auto a2 = npu::query(npu::local_desc(e, 2 * 1024, { 2, 3, 4, 5 }, dt::f32));
    EXPECT_EQ(a2.start_npu, 2);
    EXPECT_EQ(a2.strides[1], 32);
    EXPECT_EQ(a2.strides[0], 64);
    EXPECT_EQ(a2.channels_per_npu, 2);
    // compact: Cs = H*W = 20.
    auto c2 =
            npu::query(npu::local_desc(e, 2 * 1024, { 2, 3, 4, 5 }, dt::f32, npu::layout::compact));
    EXPECT_EQ(c2.strides[1], 20);
    EXPECT_EQ(c2.strides[0], 40);
    // Addresses A = 340, B = 1472, C = 2300, D = 3088 -> (Q, R).
    const int64_t addrs[] = { 340, 1472, 2300, 3088 };
    const int qs[] = { 0, 1, 2, 3 };
    const int64_t rs[] = { 340, 448, 252, 16 };
    for (int i = 0; i < 4; ++i) {
        auto q = npu::query(
                npu::local_desc(e, addrs[i], { 1, 1, 1, 1 }, dt::f32, npu::layout::compact));
        EXPECT_EQ(q.start_npu, qs[i]);
        EXPECT_EQ(q.start_offset, rs[i]);
    }
    // C = X + 2 at NPU X - 1: 3 channels per NPU.
    EXPECT_EQ(
            npu::query(npu::local_desc(e, 3 * 1024, { 1, 6, 1, 1 }, dt::f32)).channels_per_npu, 3);
    // Matrix 2x40 fp32: W = 40 -> 1 channel of 64 blocks; W = 15 -> 3 channels, the last
    // holds 10 columns; W = 8 -> 5 channels, 2 per NPU.
    auto m40 = npu::query(npu::matrix_desc(e, 0, 2, 40, 40, dt::f32));
    EXPECT_EQ(m40.packed_dims[1], 1);
    EXPECT_EQ(m40.strides[1], 64);
    auto m15 = npu::query(npu::matrix_desc(e, 0, 2, 40, 15, dt::f32));
    EXPECT_EQ(m15.packed_dims[1], 3);
    EXPECT_EQ(m15.npus_used, 3);
    EXPECT_EQ(m15.matrix_w, 15);
    auto m8 = npu::query(npu::matrix_desc(e, 0, 2, 40, 8, dt::f32));
    EXPECT_EQ(m8.channels_per_npu, 2);
    // 4N int8 (6,5,4,5) -> int8x4 shape (2,5,4,5).
    auto q4 = npu::query(npu::local_desc(
            e, 0, { 6, 5, 4, 5 }, dt::s8, npu::layout::aligned, npu::storage::mode_4n));
    EXPECT_EQ(q4.packed_dims[0], 2);
    EXPECT_EQ(q4.elem_bytes, 4);
    // 2N int16 (3,5,4,5) -> (2,5,4,5); 2IC f32 [I=3,O,H,W] -> (2,O,H,W).
    EXPECT_EQ(npu::query(npu::local_desc(e, 0, { 3, 5, 4, 5 }, dt::s16, npu::layout::aligned,
                                 npu::storage::mode_2n))
                      .packed_dims[0],
            2);
    auto q2ic = npu::query(npu::local_desc(
            e, 0, { 3, 2, 1, 1 }, dt::f32, npu::layout::aligned, npu::storage::mode_2ic));
    EXPECT_EQ(q2ic.packed_dims[0], 2);
    EXPECT_EQ(q2ic.elem_bytes, 8);
}

TEST(NpuApiDesc, ElementLocationMatchesSeedFormula) {
    struct case_t {
        const char *cfg;
        int64_t X, S, eu;
        int64_t addr;
        memory::dims dims;
        dt t;
        npu::layout l;
        const char *lname;
    };
    const case_t cases[] = {
        { "custom:4:1024:128", 4, 1024, 128, 0, { 2, 5, 3, 4 }, dt::f32, npu::layout::aligned,
                "aligned" },
        { "custom:4:1024:128", 4, 1024, 128, 1024 + 128, { 2, 3, 1, 10 }, dt::f32,
                npu::layout::aligned, "aligned" },
        { "custom:4:1024:128", 4, 1024, 128, 3 * 1024 + 8, { 2, 6, 2, 3 }, dt::f32,
                npu::layout::compact, "compact" },
        { "custom:4:1024:128", 4, 1024, 128, 2 * 1024, { 1, 5, 3, 5 }, dt::s16,
                npu::layout::line_aligned, "line_aligned" },
        { "bm1684x", 64, 262144, 64, 5 * 262144 + 4096, { 2, 70, 7, 7 }, dt::f32,
                npu::layout::aligned, "aligned" },
        { "bm1688", 32, 131072, 16, 31 * 131072 + 64, { 3, 33, 5, 3 }, dt::u8, npu::layout::compact,
                "compact" },
        { "bm1684", 64, 524288, 128, 128, { 1, 3, 3, 33 }, dt::bf16, npu::layout::line_aligned,
                "line_aligned" },
    };
    for (const auto &k : cases) {
        engine e = npu::make_engine(k.cfg);
        memory::desc md = npu::local_desc(e, k.addr, k.dims, k.t, k.l);
        const int64_t d = int64_t(dt_bytes(k.t));
        for (int64_t n = 0; n < k.dims[0]; ++n)
            for (int64_t c = 0; c < k.dims[1]; ++c)
                for (int64_t h = 0; h < k.dims[2]; ++h)
                    for (int64_t w = 0; w < k.dims[3]; ++w) {
                        const auto got = npu::element_location(md, n, c, h, w);
                        const auto exp = seed_location(
                                k.X, k.S, k.eu, k.addr, k.dims, d, k.lname, n, c, h, w);
                        ASSERT_EQ(got.npu, exp.npu) << k.cfg << " " << k.lname;
                        ASSERT_EQ(got.offset, exp.off) << k.cfg << " " << k.lname;
                    }
    }
}

TEST(NpuApiDesc, DescriptorBasics) {
    engine e = npu::make_engine("bm1684x");
    memory::desc md = npu::local_desc(e, 0, { 2, 3, 4, 5 }, dt::f32);
    EXPECT_EQ(md.get_format_kind(), memory::format_kind::npu_local);
    EXPECT_EQ(md.get_ndims(), 4);
    EXPECT_EQ(md.get_dims(), (memory::dims{ 2, 3, 4, 5 }));
    EXPECT_EQ(md.get_data_type(), dt::f32);
    const auto info = npu::query(md);
    EXPECT_EQ(md.get_size(), size_t(info.bytes_per_npu * info.npus_used));
    EXPECT_EQ(info.npus_used, 3);
    EXPECT_EQ(md, npu::local_desc(e, 0, { 2, 3, 4, 5 }, dt::f32));
    EXPECT_NE(md, npu::local_desc(e, 64, { 2, 3, 4, 5 }, dt::f32));
    EXPECT_NE(md, npu::local_desc(e, 0, { 2, 3, 4, 5 }, dt::f32, npu::layout::compact));
    // The same tensor on another config is another descriptor.
    EXPECT_NE(md, npu::local_desc(npu::make_engine("bm1690"), 0, { 2, 3, 4, 5 }, dt::f32));
    // Queries of a blocked descriptor are refused.
    memory::desc plain({ 2, 3, 4, 5 }, dt::f32, tag::nchw);
    relayout_npu_local_info_t info2;
    EXPECT_EQ(
            relayout_memory_desc_query_npu_local(plain.get(), &info2), relayout_invalid_arguments);
    // Free strides: checked for overlap.
    memory::desc fs = npu::local_desc(e, 0, { 2, 3, 4, 5 }, dt::f32, npu::layout::free_strides,
            npu::storage::mode_1n, { 24, 48, 6, 1 });
    EXPECT_EQ(npu::query(fs).strides[2], 6);
}

// ---- errors -------------------------------------------------------------------

// Runs `f`, expects relayout::error with `status` and every `words` in the message.
void expect_error(
        const std::function<void()> &f, relayout_status_t status, std::vector<std::string> words) {
    try {
        f();
        ADD_FAILURE() << "no error";
    } catch (const error &err) {
        EXPECT_EQ(err.status, status) << err.what();
        for (const auto &w : words)
            EXPECT_NE(std::string(err.what()).find(w), std::string::npos)
                    << "'" << w << "' not in: " << err.what();
    }
}

TEST(NpuApiErrors, DescDoesNotFitTheLane) {
    engine e = npu::make_engine("custom:4:1024:128");
    expect_error(
            [&] {
                npu::local_desc(e, 0, { 8, 4, 8, 8 }, dt::f32);
            },
            relayout_invalid_arguments, { "does not fit in the lane", "lmem_bytes 1024" });
    expect_error(
            [&] {
                npu::local_desc(e, 4 * 1024, { 1, 1, 1, 1 }, dt::f32);
            },
            relayout_invalid_arguments, { "outside local memory" });
}

TEST(NpuApiErrors, MisalignedAddress) {
    engine e = npu::make_engine("bm1684x");
    expect_error(
            [&] {
                npu::local_desc(e, 32, { 1, 2, 3, 4 }, dt::f32);
            },
            relayout_invalid_arguments, { "start offset 32", "multiple of 64", "aligned" });
    expect_error(
            [&] {
                npu::local_desc(e, 2, { 1, 2, 3, 4 }, dt::f32, npu::layout::compact);
            },
            relayout_invalid_arguments, { "multiple of 4", "compact" });
}

TEST(NpuApiErrors, StorageModeNeedsItsDataType) {
    engine e = npu::make_engine("bm1684x");
    expect_error(
            [&] {
                npu::local_desc(
                        e, 0, { 4, 2, 3, 4 }, dt::f32, npu::layout::aligned, npu::storage::mode_4n);
            },
            relayout_invalid_arguments, { "4N", "s8 or u8", "f32" });
    expect_error(
            [&] {
                npu::local_desc(
                        e, 0, { 4, 2, 3, 4 }, dt::s8, npu::layout::aligned, npu::storage::mode_2ic);
            },
            relayout_invalid_arguments, { "2IC" });
}

TEST(NpuApiErrors, BadArguments) {
    engine e = npu::make_engine("bm1684x");
    engine cpu(engine::kind::cpu, 0);
    expect_error(
            [&] {
                npu::local_desc(cpu, 0, { 1, 2, 3, 4 }, dt::f32);
            },
            relayout_invalid_arguments, { "not an npu engine" });
    expect_error(
            [&] {
                npu::local_desc(e, 0, { 1, 2, 3, 4 }, dt::f32, npu::layout::free_strides);
            },
            relayout_invalid_arguments, { "strides is NULL" });
    expect_error(
            [&] {
                npu::local_desc(e, 0, { 2, 3, 4, 5 }, dt::f32, npu::layout::free_strides,
                        npu::storage::mode_1n, { 1, 1, 1, 1 });
            },
            relayout_invalid_arguments, { "overlap" });
    expect_error([&] { npu::matrix_desc(e, 0, 2, 40, 41, dt::f32); }, relayout_invalid_arguments,
            { "matrix_w 41" });
    expect_error(
            [&] {
                npu::local_desc(e, 0, { 1, 2, 3, 4 }, dt::f32, npu::layout::matrix);
            },
            relayout_invalid_arguments, { "create_npu_matrix" });
}

TEST(NpuApiErrors, WrongEnginePairing) {
    fixture_t f("bm1684x");
    memory::desc local = npu::local_desc(f.eng, 0, { 1, 2, 3, 4 }, dt::f32);
    memory::desc plain({ 1, 2, 3, 4 }, dt::f32, tag::nchw);
    // An npu_local descriptor with the cpu engine (both sides cpu).
    expect_error([&] { reorder::primitive_desc(f.cpu, plain, f.cpu, local); },
            relayout_invalid_arguments, { "npu_local", "device engine" });
    // An npu_local src passed with a cpu src engine.
    expect_error([&] { reorder::primitive_desc(f.cpu, local, f.eng, local); },
            relayout_invalid_arguments,
            { "src is an npu_local descriptor but src_engine is a cpu" });
    // A blocked descriptor on the npu side.
    expect_error([&] { reorder::primitive_desc(f.cpu, plain, f.eng, plain); },
            relayout_invalid_arguments, { "not an npu_local descriptor" });
    // A descriptor of another config.
    engine small = npu::make_engine("bm1688");
    memory::desc local_small = npu::local_desc(small, 0, { 1, 2, 3, 4 }, dt::f32);
    expect_error([&] { reorder::primitive_desc(f.cpu, plain, f.eng, local_small); },
            relayout_invalid_arguments, { "made for engine bm1688" });
    expect_error([&] { memory(local_small, f.eng); }, relayout_invalid_arguments,
            { "made for engine bm1688" });
    // Memory objects: an npu_local desc on the cpu, a blocked desc or a host pointer on the npu.
    expect_error([&] { memory(local, f.cpu); }, relayout_invalid_arguments, { "npu_local" });
    expect_error([&] { memory(plain, f.eng); }, relayout_invalid_arguments,
            { "not an npu_local descriptor" });
    std::vector<float> host(24);
    expect_error([&] { memory(local, f.eng, host.data()); }, relayout_invalid_arguments,
            { "RELAYOUT_MEMORY_ALLOCATE" });
    memory m(local, f.eng);
    expect_error([&] { m.set_data_handle(host.data()); }, relayout_invalid_arguments,
            { "cannot be replaced" });
    // Dims that do not match.
    memory::desc plain_bad({ 1, 2, 3, 5 }, dt::f32, tag::nchw);
    expect_error([&] { reorder::primitive_desc(f.cpu, plain_bad, f.eng, local); },
            relayout_invalid_arguments, { "do not match" });
    // L2L onto overlapping local memory.
    memory::desc overlap = npu::local_desc(f.eng, 0, { 1, 2, 3, 4 }, dt::f32, npu::layout::compact);
    expect_error([&] { reorder::primitive_desc(f.eng, local, f.eng, overlap); },
            relayout_invalid_arguments, { "share local memory" });
    // The program query of a cpu reorder.
    reorder::primitive_desc cpu_pd(
            f.cpu, plain, f.cpu, memory::desc({ 1, 2, 3, 4 }, dt::f32, tag::nhwc));
    expect_error(
            [&] { npu::program_listing(cpu_pd); }, relayout_invalid_arguments, { "not npu:dma" });
}

// ---- reorders -----------------------------------------------------------------

// Scatters `src_md` (filled with a pattern) into `local_md`, checks every element's
// bytes at the place element_location() names and (for 1N) the seed formula, checks
// that nothing else in local memory changed, gathers back into `back_md` and
// compares logical values.
void round_trip(fixture_t &f, const memory::desc &src_md, const memory::desc &local_md,
        const memory::desc &back_md, int64_t expect_cmds = -1) {
    npu::fill(f.eng, k_garbage);
    const npu::config cfg = npu::get_config(f.eng);
    const auto info = npu::query(local_md);
    const memory::dims dims(info.dims, info.dims + 4);
    host_t src(src_md, f.cpu);
    const auto pat = pattern(src.buf.size());
    std::memcpy(src.buf.data(), pat.data(), pat.size());
    // The logical value of element (n,c,h,w), read from the plain copy (nchw, same dt).
    const memory::desc ref_md(memory::dims(dims.begin(), dims.begin() + (src_md.get_ndims())),
            local_md.get_data_type(),
            src_md.get_ndims() == 2 ? std::string("ab") : std::string("abcd"));
    host_t ref(ref_md, f.cpu);
    f.reorder_run(src.mem, ref.mem);

    memory local(local_md, f.eng);
    reorder::primitive_desc pd(f.cpu, src_md, f.eng, local_md);
    EXPECT_EQ(pd.impl_info_str(), "npu:dma");
    if (expect_cmds >= 0) {
        EXPECT_EQ(npu::program_size(pd), expect_cmds) << npu::program_listing(pd);
    }
    reorder(pd).execute(f.strm, src.mem, local);

    // Every element where the query says, and nothing else written.
    std::vector<std::vector<uint8_t>> lanes(size_t(cfg.npu_num));
    for (int q = 0; q < cfg.npu_num; ++q)
        lanes[q] = npu::read_lane(f.eng, q, 0, size_t(cfg.lmem_bytes));
    std::vector<std::vector<bool>> touched(
            size_t(cfg.npu_num), std::vector<bool>(size_t(cfg.lmem_bytes)));
    const size_t d = dt_bytes(local_md.get_data_type());
    int64_t i = 0;
    for (int64_t n = 0; n < dims[0]; ++n)
        for (int64_t c = 0; c < dims[1]; ++c)
            for (int64_t h = 0; h < dims[2]; ++h)
                for (int64_t w = 0; w < dims[3]; ++w, ++i) {
                    const auto loc = npu::element_location(local_md, n, c, h, w);
                    ASSERT_EQ(0, std::memcmp(&lanes[loc.npu][size_t(loc.offset)],
                                         ref.buf.data() + size_t(i) * d, d))
                            << "element (" << n << "," << c << "," << h << "," << w << ") at NPU "
                            << loc.npu << " +" << loc.offset;
                    for (size_t b = 0; b < d; ++b)
                        touched[loc.npu][size_t(loc.offset) + b] = true;
                }
    // Packed modes: the dummy slots of the last word are zero.
    const int k = info.storage == relayout_npu_storage_4n   ? 4
                  : info.storage == relayout_npu_storage_1n ? 1
                                                            : 2;
    int64_t dummies = 0;
    for (int64_t q = 0; q < cfg.npu_num; ++q)
        for (int64_t b = 0; b < cfg.lmem_bytes; ++b)
            if (!touched[q][b] && lanes[q][b] != k_garbage) {
                const bool in_tensor =
                        b >= info.start_offset && b < info.start_offset + info.bytes_per_npu;
                ASSERT_TRUE(k > 1 && in_tensor && lanes[q][b] == 0)
                        << "byte NPU " << q << " +" << b << " changed outside the tensor";
                ++dummies;
            }
    if (k > 1 && dims[0] % k) {
        EXPECT_GT(dummies, 0);
    }

    // Gather back.
    host_t back(back_md, f.cpu, 0x5A);
    reorder::primitive_desc gpd(f.eng, local_md, f.cpu, back_md);
    reorder(gpd).execute(f.strm, local, back.mem);
    host_t back_plain(ref_md, f.cpu);
    f.reorder_run(back.mem, back_plain.mem);
    EXPECT_EQ(back_plain.buf, ref.buf);
}

TEST(NpuApiReorder, ScatterNchwIntoBm1684xAlignedAndGatherBack) {
    fixture_t f("bm1684x");
    const memory::dims dims = { 2, 70, 7, 7 };
    memory::desc host_md(dims, dt::f32, tag::nchw);
    round_trip(f, host_md, npu::local_desc(f.eng, 0x4000, dims, dt::f32), host_md, 1);
    // At another start NPU and offset.
    round_trip(f, host_md, npu::local_desc(f.eng, 63 * 262144 + 1024, dims, dt::f32), host_md, 1);
}

TEST(NpuApiReorder, HostSourcesAndDestinationsOfAnyLayout) {
    fixture_t f("custom:4:4096:128");
    const memory::dims dims = { 2, 17, 3, 5 };
    memory::desc local = npu::local_desc(f.eng, 1024 + 128, dims, dt::f32);
    memory::desc nchw(dims, dt::f32, tag::nchw);
    memory::desc nhwc(dims, dt::f32, tag::nhwc);
    memory::desc blocked(dims, dt::f32, tag::nChw16c);
    memory::desc strided(dims, dt::f32, memory::dims{ 17 * 3 * 8, 3 * 8, 8, 1 });
    // nhwc and strided are DMA-expressible (1 command), blocked needs a host step.
    round_trip(f, nhwc, local, nchw, 1);
    round_trip(f, strided, local, strided, 1);
    round_trip(f, blocked, local, blocked, 1);
    reorder::primitive_desc pd(f.cpu, blocked, f.eng, local);
    EXPECT_NE(pd.plan_str().find("host_reorder"), std::string::npos) << pd.plan_str();
    EXPECT_NE(npu::program_listing(pd).find("host_reorder"), std::string::npos);
    reorder::primitive_desc pd2(f.cpu, nhwc, f.eng, local);
    EXPECT_EQ(pd2.plan_str().find("host_reorder"), std::string::npos) << pd2.plan_str();
}

TEST(NpuApiReorder, EveryLayoutAndStorageMode) {
    fixture_t f("custom:4:8192:128");
    struct case_t {
        memory::dims dims;
        dt t;
        npu::layout l;
        npu::storage s;
        memory::dims strides;
    };
    const case_t cases[] = {
        { { 2, 5, 3, 4 }, dt::f32, npu::layout::aligned, npu::storage::mode_1n, {} },
        { { 2, 5, 3, 4 }, dt::f16, npu::layout::compact, npu::storage::mode_1n, {} },
        { { 3, 6, 3, 5 }, dt::s8, npu::layout::line_aligned, npu::storage::mode_1n, {} },
        { { 2, 5, 3, 4 }, dt::f32, npu::layout::free_strides, npu::storage::mode_1n,
                { 40, 200, 12, 3 } },
        { { 6, 5, 4, 5 }, dt::s8, npu::layout::aligned, npu::storage::mode_4n, {} },
        { { 5, 3, 2, 3 }, dt::u8, npu::layout::compact, npu::storage::mode_4n, {} },
        { { 3, 5, 4, 5 }, dt::s16, npu::layout::aligned, npu::storage::mode_2n, {} },
        { { 4, 3, 2, 3 }, dt::u16, npu::layout::line_aligned, npu::storage::mode_2n, {} },
        { { 3, 6, 3, 3 }, dt::f32, npu::layout::aligned, npu::storage::mode_2ic, {} },
    };
    for (const auto &k : cases) {
        SCOPED_TRACE(testing::Message() << "layout " << int(k.l) << " storage " << int(k.s));
        memory::desc local =
                npu::local_desc(f.eng, 2 * 8192 + 256, k.dims, k.t, k.l, k.s, k.strides);
        memory::desc nchw(k.dims, k.t, tag::nchw);
        round_trip(f, nchw, local, nchw);
        if (k.s != npu::storage::mode_1n) {
            // The DDR layout of the same packing (Abcd4a / Abcd2a) moves as words:
            // no host repack.
            const std::string packed = k.s == npu::storage::mode_4n ? "Abcd4a" : "Abcd2a";
            if (k.dims[0] % (k.s == npu::storage::mode_4n ? 4 : 2) == 0) {
                memory::desc ddr(k.dims, k.t, packed);
                reorder::primitive_desc pd(f.cpu, ddr, f.eng, local);
                EXPECT_EQ(pd.plan_str().find("host"), std::string::npos) << pd.plan_str();
                round_trip(f, ddr, local, ddr);
            }
            memory::desc ddr_pad(k.dims, k.t, packed); // padded when N % k != 0
            round_trip(f, nchw, local, ddr_pad);
        }
    }
}

TEST(NpuApiReorder, Matrix) {
    fixture_t f("custom:4:4096:128");
    for (int64_t wm : { 40, 20, 15, 8, 6 }) {
        SCOPED_TRACE(wm);
        memory::desc m = npu::matrix_desc(f.eng, 1024, 2, 40, wm, dt::f32);
        memory::desc ab({ 2, 40 }, dt::f32, tag::ab);
        memory::desc ba({ 2, 40 }, dt::f32, tag::ba);
        round_trip(f, ab, m, ab, 40 % wm ? 2 : 1);
        round_trip(f, ba, m, ab);
        // The 4D view {rows, cols, 1, 1} works too.
        memory::desc ab4({ 2, 40, 1, 1 }, dt::f32, tag::abcd);
        round_trip(f, ab4, m, ab4);
    }
}

TEST(NpuApiReorder, LocalToLocal) {
    fixture_t f("custom:4:4096:128");
    const memory::dims dims = { 2, 5, 3, 4 };
    host_t src(memory::desc(dims, dt::f32, tag::nchw), f.cpu);
    const auto pat = pattern(src.buf.size(), 7);
    std::memcpy(src.buf.data(), pat.data(), pat.size());
    memory::desc compact = npu::local_desc(f.eng, 0, dims, dt::f32, npu::layout::compact);
    struct case_t {
        memory::desc dst;
        bool direct;
    };
    const case_t cases[] = {
        { npu::local_desc(f.eng, 1024, dims, dt::f32, npu::layout::aligned), true },
        { npu::local_desc(f.eng, 2 * 4096 + 2048, dims, dt::f32, npu::layout::line_aligned), true },
        { npu::local_desc(f.eng, 3 * 4096 + 1024, dims, dt::f32, npu::layout::compact), true },
        // Another data type: through the host.
        { npu::local_desc(f.eng, 1024, dims, dt::bf16, npu::layout::aligned), false },
    };
    for (const auto &k : cases) {
        npu::fill(f.eng, k_garbage);
        memory a(compact, f.eng), b(k.dst, f.eng);
        f.reorder_run(src.mem, a);
        reorder::primitive_desc pd(f.eng, compact, f.eng, k.dst);
        EXPECT_EQ(pd.plan_str().find("host") == std::string::npos, k.direct) << pd.plan_str();
        reorder(pd).execute(f.strm, a, b);
        // Gather the dst back to f32 nchw and compare with the source.
        host_t back(memory::desc(dims, dt::f32, tag::nchw), f.cpu);
        f.reorder_run(b, back.mem);
        host_t exp(memory::desc(dims, k.dst.get_data_type(), tag::nchw), f.cpu);
        f.reorder_run(src.mem, exp.mem);
        host_t exp_f32(memory::desc(dims, dt::f32, tag::nchw), f.cpu);
        f.reorder_run(exp.mem, exp_f32.mem);
        EXPECT_EQ(back.buf, exp_f32.buf);
    }
    // 1N -> 4N in local memory goes through the host repack.
    memory::desc s8 = npu::local_desc(f.eng, 0, { 5, 3, 2, 2 }, dt::s8, npu::layout::aligned);
    memory::desc s8_4n = npu::local_desc(
            f.eng, 2048, { 5, 3, 2, 2 }, dt::s8, npu::layout::aligned, npu::storage::mode_4n);
    reorder::primitive_desc pd(f.eng, s8, f.eng, s8_4n);
    EXPECT_EQ(npu::program_size(pd), 2);
}

TEST(NpuApiReorder, LocalToLocalAcrossTwoEngines) {
    // bm1684x local memory -> bm1688 local memory (another lane count and
    // size): out through the host and in again, with and without a
    // conversion, scales and a sum; the src engine's memory is only read.
    fixture_t f("bm1684x");
    engine other = npu::make_engine("bm1688");
    stream other_strm(other);
    const memory::dims dims = { 2, 40, 3, 5 };
    memory::desc nchw(dims, dt::f32, tag::nchw);
    host_t src(nchw, f.cpu), old(nchw, f.cpu);
    auto *sv = reinterpret_cast<float *>(src.buf.data());
    auto *ov = reinterpret_cast<float *>(old.buf.data());
    for (size_t i = 0; i < src.buf.size() / 4; ++i) {
        sv[i] = float(int(i % 97) - 48) * 0.75f;
        ov[i] = float(int(i % 13) - 6);
    }
    memory::desc a_md = npu::local_desc(f.eng, 4096, dims, dt::f32, npu::layout::compact);
    memory a(a_md, f.eng);
    f.reorder_run(src.mem, a);
    const auto cfg = npu::get_config(f.eng);
    std::vector<std::vector<uint8_t>> before;
    for (int q = 0; q < cfg.npu_num; ++q)
        before.push_back(npu::read_lane(f.eng, q, 0, size_t(cfg.lmem_bytes)));
    struct case_t {
        memory::desc dst;
        bool convert, sum;
    };
    const case_t cases[] = {
        { npu::local_desc(other, 0, dims, dt::f32, npu::layout::aligned), false, false },
        { npu::local_desc(other, 1024, dims, dt::bf16, npu::layout::aligned), true, false },
        { npu::local_desc(other, 2048, dims, dt::s8, npu::layout::compact), true, true },
    };
    for (const auto &k : cases) {
        npu::fill(other, k_garbage);
        memory b(k.dst, other);
        primitive_attr attr;
        if (k.convert) attr.set_scales(RELAYOUT_ARG_SRC, 2, std::vector<float>(40, 0.5f));
        if (k.sum) attr.set_post_ops_sum(2.f);
        // dst's old values (for the sum) and the cpu oracle's
        memory::desc d_nchw(dims, k.dst.get_data_type(), tag::nchw);
        host_t exp(d_nchw, f.cpu);
        reorder(old.mem, b).execute(other_strm, old.mem, b);
        reorder(old.mem, exp.mem).execute(f.strm, old.mem, exp.mem);
        reorder::primitive_desc pd(f.eng, a_md, other, k.dst, attr);
        EXPECT_EQ(pd.impl_info_str(), "npu:dma");
        EXPECT_NE(pd.plan_str().find("across_engines"), std::string::npos) << pd.plan_str();
        EXPECT_EQ(pd.plan_str().find("host_reorder") != std::string::npos, k.convert)
                << pd.plan_str();
        const std::string listing = npu::program_listing(pd);
        EXPECT_NE(listing.find("# on the dst engine"), std::string::npos) << listing;
        reorder(pd).execute(f.strm, a, b);
        reorder(reorder::primitive_desc(f.cpu, nchw, f.cpu, d_nchw, attr))
                .execute(f.strm, src.mem, exp.mem);
        host_t got(d_nchw, f.cpu);
        reorder(b, got.mem).execute(other_strm, b, got.mem);
        EXPECT_EQ(got.buf, exp.buf) << pd.plan_str();
    }
    for (int q = 0; q < cfg.npu_num; ++q)
        ASSERT_EQ(npu::read_lane(f.eng, q, 0, size_t(cfg.lmem_bytes)), before[size_t(q)])
                << "the src engine's lane " << q << " changed";
    // Executed with a dst on the src's engine: its descriptor is another.
    reorder::primitive_desc pd(f.eng, a_md, other, cases[0].dst);
    memory wrong(npu::local_desc(f.eng, 0, dims, dt::f32, npu::layout::aligned), f.eng);
    expect_error([&] { reorder(pd).execute(f.strm, a, wrong); }, relayout_invalid_arguments,
            { "does not match the primitive's dst" });
}

TEST(NpuApiReorder, ConversionScalesAndSum) {
    fixture_t f("bm1688");
    const memory::dims dims = { 2, 40, 3, 3 };
    memory::desc nchw(dims, dt::f32, tag::nchw);
    memory::desc local = npu::local_desc(f.eng, 0, dims, dt::s8);
    host_t src(nchw, f.cpu);
    auto *sv = reinterpret_cast<float *>(src.buf.data());
    for (size_t i = 0; i < src.buf.size() / 4; ++i)
        sv[i] = float(int(i % 97) - 48) * 0.75f;
    primitive_attr attr;
    attr.set_scales(RELAYOUT_ARG_SRC, 0, { 2.f });
    memory loc(local, f.eng);
    f.reorder_run(src.mem, loc, attr);
    // The same with a cpu s8 destination is the oracle.
    memory::desc s8_nchw(dims, dt::s8, tag::nchw);
    host_t exp(s8_nchw, f.cpu), got(s8_nchw, f.cpu);
    f.reorder_run(src.mem, exp.mem, attr);
    f.reorder_run(loc, got.mem);
    EXPECT_EQ(got.buf, exp.buf);
    // Sum post-op into local memory: dst = 2*src + 1*dst_old.
    primitive_attr sum;
    sum.set_scales(RELAYOUT_ARG_SRC, 0, { 2.f });
    sum.set_post_ops_sum(1.f);
    f.reorder_run(src.mem, loc, sum);
    f.reorder_run(src.mem, exp.mem, sum);
    f.reorder_run(loc, got.mem);
    EXPECT_EQ(got.buf, exp.buf);
    // L2S with a dst scale into f32 nhwc.
    primitive_attr ds;
    ds.set_scales(RELAYOUT_ARG_DST, 0, { 4.f });
    memory::desc nhwc(dims, dt::f32, tag::nhwc);
    host_t a(nhwc, f.cpu), b(nhwc, f.cpu);
    f.reorder_run(loc, a.mem, ds);
    f.reorder_run(got.mem, b.mem, ds);
    EXPECT_EQ(a.buf, b.buf);
}

TEST(NpuApiReorder, ProgramDependsOnTheAddress) {
    // Two descriptors that differ only in the address must not share a cached kernel.
    fixture_t f("custom:4:1024:128");
    const memory::dims dims = { 1, 4, 2, 2 };
    memory::desc nchw(dims, dt::f32, tag::nchw);
    host_t src(nchw, f.cpu);
    std::iota(reinterpret_cast<float *>(src.buf.data()),
            reinterpret_cast<float *>(src.buf.data()) + 16, 1.f);
    for (int64_t addr : { 0, 128, 256 }) {
        npu::fill(f.eng, 0);
        memory::desc local = npu::local_desc(f.eng, addr, dims, dt::f32);
        memory m(local, f.eng);
        f.reorder_run(src.mem, m);
        const auto loc = npu::element_location(local, 0, 1, 0, 0);
        float v = 0;
        npu::read_lane(f.eng, loc.npu, loc.offset, &v, 4);
        EXPECT_EQ(v, 5.f) << addr;
        reorder::primitive_desc pd(f.cpu, nchw, f.eng, local);
        char want[32];
        std::snprintf(want, sizeof(want), "local=0x%04llx", (long long)addr);
        EXPECT_NE(npu::program_listing(pd).find(want), std::string::npos)
                << npu::program_listing(pd);
    }
}

TEST(NpuApiReorder, ZeroVolume) {
    fixture_t f("bm1684x");
    memory::desc local = npu::local_desc(f.eng, 0, { 0, 3, 4, 5 }, dt::f32);
    EXPECT_EQ(local.get_size(), 0u);
    memory::desc nchw({ 0, 3, 4, 5 }, dt::f32, tag::nchw);
    memory m(local, f.eng), h(nchw, f.cpu);
    f.reorder_run(h, m);
    f.reorder_run(m, h);
}

TEST(NpuApiReorder, VerboseLinesNameTheImplementation) {
    fixture_t f("bm1684x");
    const memory::dims dims = { 1, 8, 4, 4 };
    memory::desc nchw(dims, dt::f32, tag::nchw);
    memory::desc local = npu::local_desc(f.eng, 0x8000, dims, dt::f32);
    host_t h(nchw, f.cpu);
    memory m(local, f.eng);
    set_verbose(1);
    testing::internal::CaptureStdout();
    f.reorder_run(h.mem, m);
    const std::string out = testing::internal::GetCapturedStdout();
    set_verbose(0);
    EXPECT_NE(out.find("reorder,npu:dma,src:f32:abcd:1x8x4x4,dst:f32:npu_local:1x8x4x4"),
            std::string::npos)
            << out;
    EXPECT_NE(out.find("plan:S2L 1 DMA cmd"), std::string::npos) << out;
    EXPECT_NE(out.find("relayout_verbose,exec,reorder,npu:dma"), std::string::npos) << out;
}

TEST(NpuApiReorder, ConcurrentReordersOnOneEngine) {
    fixture_t f("bm1684x");
    const memory::dims dims = { 2, 64, 8, 8 };
    constexpr int nthr = 4;
    std::vector<std::thread> threads;
    std::vector<int> ok(nthr, 0);
    for (int t = 0; t < nthr; ++t)
        threads.emplace_back([&, t] {
            stream s(f.eng);
            memory::desc nchw(dims, dt::f32, tag::nchw);
            host_t src(nchw, f.cpu), back(nchw, f.cpu);
            const auto pat = pattern(src.buf.size(), uint32_t(t + 3));
            std::memcpy(src.buf.data(), pat.data(), pat.size());
            memory::desc local = npu::local_desc(f.eng, t * 0x2000, dims, dt::f32);
            memory m(local, f.eng);
            bool good = true;
            for (int it = 0; it < 20 && good; ++it) {
                reorder(src.mem, m).execute(s, src.mem, m);
                reorder(m, back.mem).execute(s, m, back.mem);
                good = back.buf == src.buf;
            }
            ok[t] = good;
        });
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < nthr; ++t)
        EXPECT_TRUE(ok[t]) << t;
}

// The C++ wrapper over the whole flow, as the README shows it.
TEST(NpuApiCpp, WrapperFlow) {
    engine cpu(engine::kind::cpu, 0);
    engine eng = npu::make_engine("bm1684x");
    stream s(eng);
    const memory::dims dims = { 1, 3, 2, 2 };
    std::vector<float> host(12), back(12, 0.f);
    std::iota(host.begin(), host.end(), 0.f);
    memory::desc host_md(dims, memory::data_type::f32, memory::format_tag::nchw);
    memory src(host_md, cpu, host.data()), dst(host_md, cpu, back.data());
    memory::desc md = npu::local_desc(eng, 0, dims, memory::data_type::f32, npu::layout::aligned);
    memory local(md, eng);
    EXPECT_NE(local.get_data_handle(), nullptr);
    EXPECT_EQ(local.get_desc(), md);
    reorder::primitive_desc pd(cpu, host_md, eng, md);
    const std::string listing = npu::program_listing(pd);
    EXPECT_NE(listing.find("tpu_gdma_cpy_S2L"), std::string::npos) << listing;
    EXPECT_EQ(npu::program_size(pd), 1);
    reorder(pd).execute(s, src, local);
    s.wait();
    reorder(local, dst).execute(s, local, dst);
    EXPECT_EQ(back, host);
    // Element (0, 2, 1, 1): NPU 2, byte (1*2 + 1) * 4.
    const auto loc = npu::element_location(md, 0, 2, 1, 1);
    EXPECT_EQ(loc.npu, 2);
    EXPECT_EQ(loc.offset, 12);
    float v = 0;
    npu::read_lane(eng, loc.npu, loc.offset, &v, sizeof(v));
    EXPECT_EQ(v, 11.f);
    try {
        npu::local_desc(eng, 1, dims, memory::data_type::f32);
        FAIL();
    } catch (const error &e) {
        EXPECT_EQ(e.status, relayout_invalid_arguments);
        EXPECT_NE(std::string(e.what()).find("RELAYOUT_VERBOSE"), std::string::npos);
    }
}

} // namespace
