// The DMA program generator: golden listings, command counts, splitting at
// the hardware limits, the W stride rule, and the program checks.
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npu_test_utils.hpp"

namespace relayout {
namespace impl {
namespace npu {
namespace test {

namespace {

// Every command respects the limits of `cfg`.
void expect_within_limits(const npu_config_t &cfg, const dma_program_t &p) {
    for (size_t i = 0; i < p.cmds.size(); ++i) {
        const auto &c = p.cmds[i];
        EXPECT_LE(c.shape[0], 65535) << i;
        EXPECT_LE(c.shape[1], 4095) << i;
        EXPECT_LE(c.shape[2], 65535) << i;
        EXPECT_LE(c.shape[3], 65535) << i;
        if (cfg.dma_w_stride_one && c.shape[3] > 1) {
            EXPECT_EQ(c.src.stride[3], 1) << i;
            EXPECT_EQ(c.dst.stride[3], 1) << i;
        }
    }
}

// Scatters a pattern, checks every element at its formula address, gathers
// it back and compares.
void roundtrip(const npu_config_t &cfg, const npu_sys_desc_t &sys, const npu_local_desc_t &local,
        size_t *ncmds = nullptr) {
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg));
    const int64_t bytes = sys_required_bytes(sys);
    std::vector<uint8_t> src((size_t)bytes);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = (uint8_t)(i * 131 + 7);
    npu_transfer_t t;
    ASSERT_OK(scatter(sys, src.data(), src.size(), local, *sim, &t));
    if (ncmds) *ncmds = t.prog.size();
    expect_within_limits(cfg, t.prog);
    const int sd = t_scalar(local.data_type);
    for (int64_t n = 0; n < local.dims[0]; ++n)
        for (int64_t c = 0; c < local.dims[1]; ++c)
            for (int64_t h = 0; h < local.dims[2]; ++h)
                for (int64_t w = 0; w < local.dims[3]; ++w) {
                    const t_loc_t l = formula_location(cfg, local, n, c, h, w);
                    ASSERT_EQ(0, std::memcmp(sim->lane(l.npu) + l.off,
                                         src.data() + sys_element_offset(sys, n, c, h, w), sd))
                            << n << "," << c << "," << h << "," << w;
                }
    std::vector<uint8_t> back(src.size(), 0);
    ASSERT_OK(gather(local, *sim, sys, back.data(), back.size()));
    for (int64_t n = 0; n < sys.dims[0]; ++n)
        for (int64_t c = 0; c < sys.dims[1]; ++c)
            for (int64_t h = 0; h < sys.dims[2]; ++h)
                for (int64_t w = 0; w < sys.dims[3]; ++w) {
                    const int64_t o = sys_element_offset(sys, n, c, h, w);
                    ASSERT_EQ(0, std::memcmp(&back[o], &src[o], sd));
                }
}

} // namespace

// ---- Golden listings -------------------------------------------------------

struct listing_case_t {
    const char *name;
    std::function<status_t(const npu_config_t &, dma_program_t &)> gen;
    const char *listing;
};

class NpuListing : public ::testing::TestWithParam<listing_case_t> {};

TEST_P(NpuListing, IsExactly) {
    dma_program_t p;
    ASSERT_OK(GetParam().gen(seed_cfg(), p));
    EXPECT_EQ(p.listing(), GetParam().listing);
}

const int64_t k_2345[4] = { 2, 3, 4, 5 };

INSTANTIATE_TEST_SUITE_P(Golden, NpuListing,
        ::testing::Values(listing_case_t{ "CompactS2LFromNpu1",
                                  [](const npu_config_t &cfg, dma_program_t &p) {
                                      return gen_s2l(cfg, make_sys_continuous(k_2345, relayout_f32),
                                              make_local_desc(1024 + 0x140, k_2345, relayout_f32,
                                                      npu_layout_t::compact),
                                              p);
                                  },
                                  "tpu_gdma_cpy_S2L(local=0x0140 npu=1, sys=+0x0000, "
                                  "shape=[2,3,4,5], sstride=[60,20,5,1], "
                                  "dstride=[20,20,5,1], fmt=FP32)\n" },
                listing_case_t{ "AlignedL2SFromNpu2",
                        [](const npu_config_t &cfg, dma_program_t &p) {
                            return gen_l2s(cfg,
                                    make_local_desc(
                                            2048, k_2345, relayout_f32, npu_layout_t::aligned),
                                    make_sys_continuous(
                                            k_2345, relayout_f32, npu_storage_t::mode_1n, 0x40),
                                    p);
                        },
                        "tpu_gdma_cpy_L2S(sys=+0x0040, local=0x0000 npu=2, "
                        "shape=[2,3,4,5], sstride=[64,32,5,1], "
                        "dstride=[60,20,5,1], fmt=FP32)\n" },
                listing_case_t{ "CompactToAlignedL2L",
                        [](const npu_config_t &cfg, dma_program_t &p) {
                            return gen_l2l(cfg,
                                    make_local_desc(0, k_2345, relayout_f32, npu_layout_t::compact),
                                    make_local_desc(1024 + 512, k_2345, relayout_f32,
                                            npu_layout_t::aligned),
                                    p);
                        },
                        "tpu_gdma_cpy_L2L(local=0x0200 npu=1, local=0x0000 "
                        "npu=0, shape=[2,3,4,5], sstride=[20,20,5,1], "
                        "dstride=[32,32,5,1], fmt=FP32)\n" },
                // Matrix 2 x 40, W = 15: two full channels + a 10-column one.
                listing_case_t{ "MatrixW15",
                        [](const npu_config_t &cfg, dma_program_t &p) {
                            const int64_t d[4] = { 2, 40, 1, 1 };
                            return gen_s2l(cfg, make_sys_continuous(d, relayout_f32),
                                    make_local_matrix(0, 2, 40, 15, relayout_f32), p);
                        },
                        "tpu_gdma_cpy_S2L(local=0x0000 npu=0, sys=+0x0000, "
                        "shape=[2,2,1,15], sstride=[40,15,15,1], "
                        "dstride=[32,32,15,1], fmt=FP32)\n"
                        "tpu_gdma_cpy_S2L(local=0x0000 npu=2, sys=+0x0078, "
                        "shape=[2,1,1,10], sstride=[40,15,15,1], "
                        "dstride=[32,32,15,1], fmt=FP32)\n" },
                listing_case_t{ "FourNWords",
                        [](const npu_config_t &cfg, dma_program_t &p) {
                            const int64_t d[4] = { 6, 5, 4, 5 };
                            return gen_s2l(cfg,
                                    make_sys_continuous(d, relayout_s8, npu_storage_t::mode_4n),
                                    make_local_desc(0, d, relayout_s8, npu_layout_t::aligned,
                                            npu_storage_t::mode_4n),
                                    p);
                        },
                        "tpu_gdma_cpy_S2L(local=0x0000 npu=0, sys=+0x0000, "
                        "shape=[2,5,4,5], sstride=[100,20,5,1], "
                        "dstride=[64,32,5,1], fmt=INT8x4)\n" },
                listing_case_t{ "TwoICElements",
                        [](const npu_config_t &cfg, dma_program_t &p) {
                            const int64_t d[4] = { 3, 5, 3, 3 };
                            return gen_l2s(cfg,
                                    make_local_desc(0, d, relayout_f32, npu_layout_t::aligned,
                                            npu_storage_t::mode_2ic),
                                    make_sys_continuous(d, relayout_f32, npu_storage_t::mode_2ic),
                                    p);
                        },
                        "tpu_gdma_cpy_L2S(sys=+0x0000, local=0x0000 npu=0, "
                        "shape=[2,5,3,3], sstride=[32,16,3,1], "
                        "dstride=[45,9,3,1], fmt=FP32x2)\n" }),
        [](const auto &info) { return std::string(info.param.name); });

// ---- Command counts --------------------------------------------------------

TEST(NpuDmaGen, WholeAlignedTensorIsOneCommand) {
    for (const char *s : { "custom:4:1024:128", "bm1684", "bm1684x", "bm1688" }) {
        const npu_config_t cfg = cfg_of(s);
        const int64_t d[4] = { 2, 2 * cfg.npu_num + 1, 3, 5 };
        dma_program_t p;
        ASSERT_OK(gen_s2l(cfg, make_sys_continuous(d, relayout_f16),
                make_local_desc(cfg.lmem_bytes, d, relayout_f16, npu_layout_t::aligned), p));
        EXPECT_EQ(p.size(), 1u) << s << "\n" << p.listing();
        EXPECT_EQ(p.elements(), 2 * d[1] * 3 * 5);
    }
}

TEST(NpuDmaGen, ZeroVolumeIsAnEmptyProgram) {
    const int64_t d[4] = { 2, 0, 4, 5 };
    dma_program_t p;
    ASSERT_OK(gen_s2l(seed_cfg(), make_sys_continuous(d, relayout_f32),
            make_local_desc(0, d, relayout_f32, npu_layout_t::aligned), p));
    EXPECT_EQ(p.size(), 0u);
    EXPECT_EQ(p.listing(), "");
}

// W = 70000 with N and H in use and rows that are not contiguous
// (line-aligned): the W dim has no free slot, so it splits.
TEST(NpuDmaGen, SplitsWAtTheHardwareLimit) {
    const npu_config_t cfg = cfg_of("custom:2:2048K:128");
    const int64_t d[4] = { 2, 2, 2, 70000 };
    const auto local = make_local_desc(0, d, relayout_f32, npu_layout_t::line_aligned);
    ASSERT_OK(validate_local(cfg, local));
    size_t n = 0;
    roundtrip(cfg, make_sys_continuous(d, relayout_f32), local, &n);
    EXPECT_GT(n, 1u);
}

// A long W row with nothing else: refactored into two exact factors, so a
// single command still does it.
TEST(NpuDmaGen, RefactorsALongRowIntoOneCommand) {
    const npu_config_t cfg = cfg_of("custom:2:512K:128");
    const int64_t d[4] = { 1, 1, 1, 70000 };
    dma_program_t p;
    ASSERT_OK(gen_s2l(cfg, make_sys_continuous(d, relayout_s8),
            make_local_desc(0, d, relayout_s8, npu_layout_t::compact), p));
    ASSERT_EQ(p.size(), 1u) << p.listing();
    EXPECT_EQ(p.cmds[0].shape[2] * p.cmds[0].shape[3], 70000);
    roundtrip(cfg, make_sys_continuous(d, relayout_s8),
            make_local_desc(0, d, relayout_s8, npu_layout_t::compact));
}

// A prime-length row (no exact factors) with a free slot: body + tail.
TEST(NpuDmaGen, SplitsAPrimeRowIntoBodyAndTail) {
    const npu_config_t cfg = cfg_of("custom:2:512K:128");
    const int64_t d[4] = { 1, 1, 1, 131071 }; // prime
    const auto local = make_local_desc(0, d, relayout_s8, npu_layout_t::compact);
    dma_program_t p;
    ASSERT_OK(gen_s2l(cfg, make_sys_continuous(d, relayout_s8), local, p));
    EXPECT_EQ(p.size(), 2u) << p.listing();
    roundtrip(cfg, make_sys_continuous(d, relayout_s8), local);
}

TEST(NpuDmaGen, SplitsChannelsAt4095) {
    const npu_config_t cfg = cfg_of("custom:4:64K:16");
    const int64_t d[4] = { 1, 5000, 1, 3 };
    const auto local =
            make_local_desc(2 * cfg.lmem_bytes + 16, d, relayout_f32, npu_layout_t::aligned);
    ASSERT_OK(validate_local(cfg, local));
    size_t n = 0;
    roundtrip(cfg, make_sys_continuous(d, relayout_f32), local, &n);
    EXPECT_EQ(n, 2u);
}

// bm1684 needs W stride 1: a local W stride of 2 cannot use the W slot.
TEST(NpuDmaGen, HonoursTheWStrideRule) {
    const npu_config_t cfg = cfg_of("bm1684");
    const int64_t d[4] = { 2, 5, 3, 4 };
    const int64_t st[4] = { 120, 56, 16, 2 };
    const auto local = make_local_free(0, d, relayout_f32, st);
    dma_program_t p;
    ASSERT_OK(gen_s2l(cfg, make_sys_continuous(d, relayout_f32), local, p));
    expect_within_limits(cfg, p);
    EXPECT_GT(p.size(), 1u);
    roundtrip(cfg, make_sys_continuous(d, relayout_f32), local);
    // The same on bm1684x is one command.
    ASSERT_OK(gen_s2l(cfg_of("bm1684x"), make_sys_continuous(d, relayout_f32), local, p));
    EXPECT_EQ(p.size(), 1u);
}

TEST(NpuDmaGen, MergesContiguousDimsWhenALimitIsHit) {
    // Compact from NPU 0 with one channel per NPU: N, H and W are
    // contiguous on both sides when C == 1, so 70000 x 2 rows fold.
    const npu_config_t cfg = cfg_of("custom:2:2048K:128");
    const int64_t d[4] = { 3, 1, 2, 70000 };
    dma_program_t p;
    ASSERT_OK(gen_s2l(cfg, make_sys_continuous(d, relayout_u8),
            make_local_desc(0, d, relayout_u8, npu_layout_t::compact), p));
    EXPECT_EQ(p.size(), 1u) << p.listing();
    roundtrip(cfg, make_sys_continuous(d, relayout_u8),
            make_local_desc(0, d, relayout_u8, npu_layout_t::compact));
}

TEST(NpuDmaGen, SysToSys) {
    const npu_config_t cfg = seed_cfg();
    const int64_t d[4] = { 2, 3, 4, 5 };
    const int64_t nhwc[4] = { 60, 1, 15, 3 };
    auto src = make_sys_continuous(d, relayout_f32);
    auto dst = make_sys_strided(d, relayout_f32, nhwc, npu_storage_t::mode_1n, 480);
    dma_program_t p;
    ASSERT_OK(gen_s2s(cfg, src, dst, p));
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg));
    std::vector<float> buf(240, -1.f);
    std::iota(buf.begin(), buf.begin() + 120, 0.f);
    ASSERT_OK(sim->execute(p, buf.data(), buf.size() * 4));
    for (int n = 0; n < 2; ++n)
        for (int c = 0; c < 3; ++c)
            for (int h = 0; h < 4; ++h)
                for (int w = 0; w < 5; ++w)
                    EXPECT_EQ(buf[120 + n * 60 + h * 15 + w * 3 + c],
                            (float)(n * 60 + c * 20 + h * 5 + w));
}

// ---- Generator errors ------------------------------------------------------

struct gen_error_case_t {
    const char *name;
    std::function<status_t(dma_program_t &)> gen;
    status_t status;
    const char *message_part;
};

class NpuGenError : public ::testing::TestWithParam<gen_error_case_t> {};

TEST_P(NpuGenError, IsRejected) {
    dma_program_t p;
    EXPECT_EQ(GetParam().gen(p), GetParam().status);
    EXPECT_NE(last_error_message().find(GetParam().message_part), std::string::npos)
            << last_error_message();
}

INSTANTIATE_TEST_SUITE_P(Errors, NpuGenError,
        ::testing::Values(
                gen_error_case_t{ "DimsDiffer",
                        [](dma_program_t &p) {
                            const int64_t d2[4] = { 2, 3, 4, 6 };
                            return gen_s2l(seed_cfg(), make_sys_continuous(d2, relayout_f32),
                                    make_local_desc(0, k_2345, relayout_f32, npu_layout_t::aligned),
                                    p);
                        },
                        status_t::invalid_arguments,
                        "source dims 2x3x4x6 differ from destination dims "
                        "2x3x4x5" },
                gen_error_case_t{ "TypesDiffer",
                        [](dma_program_t &p) {
                            return gen_s2l(seed_cfg(), make_sys_continuous(k_2345, relayout_s32),
                                    make_local_desc(0, k_2345, relayout_f32, npu_layout_t::aligned),
                                    p);
                        },
                        status_t::unimplemented, "does not convert data types" },
                gen_error_case_t{ "StorageDiffers",
                        [](dma_program_t &p) {
                            return gen_s2l(seed_cfg(), make_sys_continuous(k_2345, relayout_s8),
                                    make_local_desc(0, k_2345, relayout_s8, npu_layout_t::aligned,
                                            npu_storage_t::mode_4n),
                                    p);
                        },
                        status_t::unimplemented,
                        "storage modes differ (source 1N, destination 4N)" },
                gen_error_case_t{ "L2LOverlap",
                        [](dma_program_t &p) {
                            return gen_l2l(seed_cfg(),
                                    make_local_desc(0, k_2345, relayout_f32, npu_layout_t::compact),
                                    make_local_desc(
                                            128, k_2345, relayout_f32, npu_layout_t::aligned),
                                    p);
                        },
                        status_t::invalid_arguments, "share local memory" },
                gen_error_case_t{ "S2SOverlap",
                        [](dma_program_t &p) {
                            return gen_s2s(seed_cfg(), make_sys_continuous(k_2345, relayout_f32),
                                    make_sys_continuous(
                                            k_2345, relayout_f32, npu_storage_t::mode_1n, 40),
                                    p);
                        },
                        status_t::invalid_arguments, "overlap" },
                gen_error_case_t{ "MatrixToTensorL2L",
                        [](dma_program_t &p) {
                            const int64_t d[4] = { 2, 40, 1, 1 };
                            return gen_l2l(seed_cfg(),
                                    make_local_matrix(0, 2, 40, 10, relayout_f32),
                                    make_local_desc(
                                            1024 * 3 + 512, d, relayout_f32, npu_layout_t::compact),
                                    p);
                        },
                        status_t::unimplemented, "a matrix moves to or from system memory" },
                gen_error_case_t{ "BadLocal",
                        [](dma_program_t &p) {
                            return gen_s2l(seed_cfg(), make_sys_continuous(k_2345, relayout_f32),
                                    make_local_desc(
                                            64, k_2345, relayout_f32, npu_layout_t::aligned),
                                    p);
                        },
                        status_t::invalid_arguments, "not a multiple of 128" },
                gen_error_case_t{ "OverlappingSysDestination",
                        [](dma_program_t &p) {
                            const int64_t st[4] = { 0, 20, 5, 1 };
                            return gen_l2s(seed_cfg(),
                                    make_local_desc(0, k_2345, relayout_f32, npu_layout_t::aligned),
                                    make_sys_strided(k_2345, relayout_f32, st), p);
                        },
                        status_t::invalid_arguments, "(destination): strides N=0" }),
        [](const auto &info) { return std::string(info.param.name); });

// ---- Program checks --------------------------------------------------------

dma_cmd_t s2l_cmd() {
    dma_cmd_t c{};
    c.dir = dma_dir_t::s2l;
    c.fmt = dma_fmt_t::fp32;
    c.shape[0] = 1;
    c.shape[1] = 4;
    c.shape[2] = 2;
    c.shape[3] = 8;
    c.src.is_local = 0;
    c.src.stride[0] = 64;
    c.src.stride[1] = 16;
    c.src.stride[2] = 8;
    c.src.stride[3] = 1;
    c.dst.is_local = 1;
    c.dst.npu = 0;
    c.dst.addr = 0;
    c.dst.stride[0] = 16;
    c.dst.stride[1] = 16;
    c.dst.stride[2] = 8;
    c.dst.stride[3] = 1;
    return c;
}

struct cmd_error_case_t {
    const char *name;
    std::function<void(dma_cmd_t &)> mutate;
    const char *message_part;
};

class NpuCmdError : public ::testing::TestWithParam<cmd_error_case_t> {};

TEST_P(NpuCmdError, RejectsTheProgramAndWritesNothing) {
    const npu_config_t cfg = seed_cfg();
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg));
    sim->fill(0xA5);
    dma_program_t p;
    p.cfg = cfg;
    p.cmds.push_back(s2l_cmd()); // a good command first
    p.cmds.push_back(s2l_cmd());
    GetParam().mutate(p.cmds[1]);
    std::vector<float> sys(64, 1.f);
    EXPECT_EQ(sim->execute(p, sys.data(), sys.size() * 4), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find(GetParam().message_part), std::string::npos)
            << last_error_message();
    EXPECT_NE(last_error_message().find("DMA command 1"), std::string::npos)
            << last_error_message();
    for (int l = 0; l < cfg.npu_num; ++l)
        for (int64_t i = 0; i < cfg.lmem_bytes; ++i)
            ASSERT_EQ(sim->lane(l)[i], 0xA5) << "lane " << l << " byte " << i;
}

INSTANTIATE_TEST_SUITE_P(Errors, NpuCmdError,
        ::testing::Values(
                cmd_error_case_t{ "LocalPastLaneEnd", [](dma_cmd_t &c) { c.dst.addr = 1024 - 32; },
                        "destination touches bytes [992, 1056), outside the "
                        "lane [0, 1024)" },
                cmd_error_case_t{ "LaneRowsPastEnd",
                        [](dma_cmd_t &c) {
                            c.shape[1] = 4 * 20;
                            c.src.stride[1] = 0;
                        },
                        "outside the lane" },
                cmd_error_case_t{ "SysPastBufferEnd", [](dma_cmd_t &c) { c.src.addr = 8; },
                        "source touches bytes [8, 264), outside the system "
                        "buffer [0, 256)" },
                cmd_error_case_t{ "NegativeStrideBeforeStart",
                        [](dma_cmd_t &c) { c.dst.stride[2] = -8; },
                        "destination touches bytes [-32," },
                cmd_error_case_t{ "BadStartNpu", [](dma_cmd_t &c) { c.dst.npu = 4; },
                        "start NPU 4 is out of range [0, 4)" },
                cmd_error_case_t{ "TooManyChannels", [](dma_cmd_t &c) { c.shape[1] = 4096; },
                        "C count 4096 is out of the hardware range [0, 4095]" },
                cmd_error_case_t{
                        "WTooLong", [](dma_cmd_t &c) { c.shape[3] = 65536; }, "W count 65536" },
                cmd_error_case_t{ "SidesDoNotMatchDirection",
                        [](dma_cmd_t &c) { c.dir = dma_dir_t::l2s; },
                        "sides do not match the direction" },
                cmd_error_case_t{ "UnknownFormat", [](dma_cmd_t &c) { c.fmt = (dma_fmt_t)99; },
                        "element format 99" },
                cmd_error_case_t{ "HugeStride",
                        [](dma_cmd_t &c) { c.src.stride[0] = int64_t(1) << 50; },
                        "source N stride" }),
        [](const auto &info) { return std::string(info.param.name); });

TEST(NpuCmdCheck, WStrideRuleOfTheConfig) {
    const npu_config_t cfg = cfg_of("custom:4:1024:128:w1");
    dma_cmd_t c = s2l_cmd();
    c.dst.stride[3] = 2;
    c.dst.stride[2] = 16;
    c.dst.stride[1] = 32;
    EXPECT_EQ(validate_cmd(cfg, c, 256, 0), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("needs W stride 1 on both sides"), std::string::npos)
            << last_error_message();
    EXPECT_OK(validate_cmd(seed_cfg(), c, 256, 0));
}

TEST(NpuCmdCheck, ProgramForAnotherConfig) {
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg_of("bm1688")));
    dma_program_t p;
    p.cfg = seed_cfg();
    p.cmds.push_back(s2l_cmd());
    std::vector<float> sys(64);
    EXPECT_EQ(sim->execute(p, sys.data(), 256), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("generated for 4 NPUs"), std::string::npos);
}

} // namespace test
} // namespace npu
} // namespace impl
} // namespace relayout
