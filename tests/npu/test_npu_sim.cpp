// The simulator: host access to the lanes, read-only system buffers,
// overlapping commands, and the 4N / 2N / 2IC host packing with dummies.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npu_test_utils.hpp"

namespace relayout {
namespace impl {
namespace npu {
namespace test {

TEST(NpuSim, LaneAccessIsBoundsChecked) {
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, seed_cfg()));
    const uint32_t v = 0xdeadbeef;
    EXPECT_OK(sim->write_lane(3, 1020, &v, 4));
    uint32_t r = 0;
    EXPECT_OK(sim->read_lane(3, 1020, &r, 4));
    EXPECT_EQ(r, v);
    EXPECT_EQ(sim->write_lane(3, 1021, &v, 4), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("NPU 3 offset 1021"), std::string::npos);
    EXPECT_EQ(sim->read_lane(4, 0, &r, 4), status_t::invalid_arguments);
}

TEST(NpuSim, CreateRejectsABadConfig) {
    std::unique_ptr<npu_sim_t> sim;
    npu_config_t c = seed_cfg();
    c.eu_bytes = 3;
    EXPECT_EQ(npu_sim_t::create(sim, c), status_t::invalid_arguments);
    EXPECT_EQ(sim, nullptr);
}

TEST(NpuSim, ReadOnlySystemBufferRejectsL2S) {
    const npu_config_t cfg = seed_cfg();
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg));
    const int64_t d[4] = { 1, 2, 1, 4 };
    dma_program_t p;
    ASSERT_OK(gen_l2s(cfg, make_local_desc(0, d, relayout_f32, npu_layout_t::compact),
            make_sys_continuous(d, relayout_f32), p));
    const std::vector<float> sys(8, 0.f);
    const void *ro = sys.data();
    EXPECT_EQ(sim->execute(p, ro, 32), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("read-only"), std::string::npos);
}

TEST(NpuSim, NullSystemBufferWithBytes) {
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, seed_cfg()));
    dma_program_t p;
    p.cfg = seed_cfg();
    void *none = nullptr;
    EXPECT_EQ(sim->execute(p, none, 16), status_t::invalid_arguments);
}

// A hand-written L2L command whose source and destination overlap in one
// lane behaves like memmove.
TEST(NpuSim, OverlappingLocalMoveIsAMemmove) {
    const npu_config_t cfg = seed_cfg();
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg));
    for (int l = 0; l < 4; ++l)
        for (int i = 0; i < 64; ++i)
            sim->lane(l)[i] = (uint8_t)(l * 64 + i);
    dma_cmd_t c{};
    c.dir = dma_dir_t::l2l;
    c.fmt = dma_fmt_t::int8;
    c.shape[0] = 1;
    c.shape[1] = 4;
    c.shape[2] = 1;
    c.shape[3] = 32;
    c.src.is_local = c.dst.is_local = 1;
    c.src.addr = 0;
    c.dst.addr = 8; // shifts each lane's first 32 bytes up by 8
    c.src.stride[3] = c.dst.stride[3] = 1;
    dma_program_t p;
    p.cfg = cfg;
    p.cmds.push_back(c);
    const void *none = nullptr;
    ASSERT_OK(sim->execute(p, none, 0));
    for (int l = 0; l < 4; ++l) {
        for (int i = 0; i < 8; ++i)
            EXPECT_EQ(sim->lane(l)[i], l * 64 + i);
        for (int i = 0; i < 32; ++i)
            EXPECT_EQ(sim->lane(l)[8 + i], l * 64 + i) << l << "," << i;
        for (int i = 40; i < 64; ++i)
            EXPECT_EQ(sim->lane(l)[i], l * 64 + i);
    }
}

// A move to another start NPU: channel c goes from lane c to lane c + 1.
TEST(NpuSim, LocalMoveAcrossLanes) {
    const npu_config_t cfg = seed_cfg();
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg));
    const int64_t d[4] = { 2, 3, 4, 5 };
    const auto src = make_local_desc(0, d, relayout_f32, npu_layout_t::compact);
    const auto dst = make_local_desc(1024 + 512, d, relayout_f32, npu_layout_t::aligned);
    std::vector<float> host(120);
    for (int i = 0; i < 120; ++i)
        host[i] = (float)i;
    ASSERT_OK(scatter(make_sys_continuous(d, relayout_f32), host.data(), 480, src, *sim));
    npu_transfer_t t;
    ASSERT_OK(move_local(src, dst, *sim, &t));
    EXPECT_EQ(t.prog.size(), 1u);
    for (int n = 0; n < 2; ++n)
        for (int c = 0; c < 3; ++c)
            for (int h = 0; h < 4; ++h)
                for (int w = 0; w < 5; ++w) {
                    const t_loc_t l = formula_location(cfg, dst, n, c, h, w);
                    EXPECT_EQ(l.npu, c + 1);
                    float v;
                    std::memcpy(&v, sim->lane(l.npu) + l.off, 4);
                    EXPECT_EQ(v, (float)(n * 60 + c * 20 + h * 5 + w));
                }
}

// ---- Host packing ------------------------------------------------------------

TEST(NpuPack, FourNInterleavesBatchesAndZeroesDummies) {
    const int64_t d[4] = { 6, 5, 4, 5 };
    std::vector<int8_t> src(6 * 100);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = (int8_t)(i % 251 - 125);
    std::vector<int8_t> packed(8 * 100, 0x55);
    ASSERT_OK(pack_4n(d, relayout_s8, src.data(), packed.data()));
    for (int n = 0; n < 8; ++n)
        for (int chw = 0; chw < 100; ++chw) {
            const int8_t got = packed[(n / 4) * 400 + chw * 4 + n % 4];
            EXPECT_EQ(got, n < 6 ? src[n * 100 + chw] : 0) << n << "," << chw;
        }
    std::vector<int8_t> back(src.size(), 0);
    ASSERT_OK(unpack_4n(d, relayout_s8, packed.data(), back.data()));
    EXPECT_EQ(back, src);
}

TEST(NpuPack, TwoNInterleavesPairs) {
    const int64_t d[4] = { 3, 5, 4, 5 };
    std::vector<uint16_t> src(300);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = (uint16_t)(i * 977 + 3);
    std::vector<uint16_t> packed(400, 0x5555);
    ASSERT_OK(pack_2n(d, relayout_u16, src.data(), packed.data()));
    for (int n = 0; n < 4; ++n)
        for (int chw = 0; chw < 100; ++chw)
            EXPECT_EQ(packed[(n / 2) * 200 + chw * 2 + n % 2], n < 3 ? src[n * 100 + chw] : 0);
    std::vector<uint16_t> back(300);
    ASSERT_OK(unpack_2n(d, relayout_u16, packed.data(), back.data()));
    EXPECT_EQ(back, src);
}

TEST(NpuPack, TwoICPairsInputChannels) {
    const int64_t d[4] = { 3, 2, 3, 3 }; // [I, O, H, W], odd I
    std::vector<float> src(3 * 18);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = 0.5f + (float)i;
    std::vector<float> packed(4 * 18, -7.f);
    ASSERT_OK(pack_2ic(d, src.data(), packed.data()));
    for (int i = 0; i < 4; ++i)
        for (int ohw = 0; ohw < 18; ++ohw)
            EXPECT_EQ(packed[(i / 2) * 36 + ohw * 2 + i % 2], i < 3 ? src[i * 18 + ohw] : 0.f);
    std::vector<float> back(src.size());
    ASSERT_OK(unpack_2ic(d, packed.data(), back.data()));
    EXPECT_EQ(back, src);
}

TEST(NpuPack, RejectsWrongTypes) {
    const int64_t d[4] = { 3, 2, 3, 3 };
    std::vector<float> a(64), b(64);
    EXPECT_EQ(pack_4n(d, relayout_f32, a.data(), b.data()), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("4N needs data_type s8 or u8"), std::string::npos);
    EXPECT_EQ(pack_2n(d, relayout_s8, a.data(), b.data()), status_t::invalid_arguments);
    EXPECT_EQ(pack_4n(d, relayout_s8, nullptr, b.data()), status_t::invalid_arguments);
}

TEST(NpuPack, RepackChecksBufferSizes) {
    const int64_t d[4] = { 4, 1, 1, 4 };
    const auto s = make_sys_continuous(d, relayout_s8);
    const auto p = make_sys_continuous(d, relayout_s8, npu_storage_t::mode_4n);
    std::vector<int8_t> a(16), b(16);
    EXPECT_EQ(repack(s, a.data(), 15, p, b.data(), 16), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("source buffer of 15 bytes"), std::string::npos);
    EXPECT_EQ(repack(s, a.data(), 16, p, b.data(), 12), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("destination buffer of 12 bytes"), std::string::npos);
    EXPECT_EQ(repack(s, a.data(), 16, p, a.data(), 16), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("overlap"), std::string::npos);
}

// A 1N s8 host tensor scattered into a 4N local tensor goes through a host
// repack; the local dummy bytes are zero.
TEST(NpuScatter, FourNFromPlainHostTensor) {
    const npu_config_t cfg = seed_cfg();
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg));
    sim->fill(0xEE);
    const int64_t d[4] = { 6, 5, 4, 5 };
    const auto local =
            make_local_desc(0, d, relayout_s8, npu_layout_t::aligned, npu_storage_t::mode_4n);
    std::vector<int8_t> host(600);
    for (size_t i = 0; i < host.size(); ++i)
        host[i] = (int8_t)(i * 7 + 1);
    npu_transfer_t t;
    ASSERT_OK(scatter(
            make_sys_continuous(d, relayout_s8), host.data(), host.size(), local, *sim, &t));
    EXPECT_TRUE(t.staged);
    EXPECT_NE(t.listing().find("host_repack("), std::string::npos);
    EXPECT_NE(t.listing().find("fmt=INT8x4"), std::string::npos);
    // The document's example: element (4,0,0,0) and (5,0,0,0) share the
    // int8x4 word (1,0,0,0) with two zero dummies.
    EXPECT_EQ((int8_t)sim->lane(0)[256], host[400]);
    EXPECT_EQ((int8_t)sim->lane(0)[257], host[500]);
    EXPECT_EQ(sim->lane(0)[258], 0);
    EXPECT_EQ(sim->lane(0)[259], 0);
    // The aligned padding between channels is not written.
    EXPECT_EQ(sim->lane(0)[80], 0xEE);
    std::vector<int8_t> back(600, 0);
    ASSERT_OK(gather(local, *sim, make_sys_continuous(d, relayout_s8), back.data(), back.size()));
    EXPECT_EQ(back, host);
}

TEST(NpuScatter, TwoICOddIFromHostWeights) {
    const npu_config_t cfg = seed_cfg();
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg));
    sim->fill(0xEE);
    const int64_t d[4] = { 3, 5, 3, 3 };
    const auto local =
            make_local_desc(0, d, relayout_f32, npu_layout_t::aligned, npu_storage_t::mode_2ic);
    std::vector<float> host(135);
    for (size_t i = 0; i < host.size(); ++i)
        host[i] = (float)i + 0.25f;
    ASSERT_OK(scatter(
            make_sys_continuous(d, relayout_f32), host.data(), host.size() * 4, local, *sim));
    for (int o = 0; o < 5; ++o)
        for (int hw = 0; hw < 9; ++hw) {
            const t_loc_t l = formula_location(cfg, local, 2, o, hw / 3, hw % 3);
            float v, dummy;
            std::memcpy(&v, sim->lane(l.npu) + l.off, 4);
            std::memcpy(&dummy, sim->lane(l.npu) + l.off + 4, 4);
            EXPECT_EQ(v, host[2 * 45 + o * 9 + hw]);
            EXPECT_EQ(dummy, 0.f);
            uint32_t bits;
            std::memcpy(&bits, &dummy, 4);
            EXPECT_EQ(bits, 0u);
        }
}

TEST(NpuScatter, TooSmallHostBufferIsAnErrorAndWritesNothing) {
    const npu_config_t cfg = seed_cfg();
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg));
    sim->fill(0x11);
    const int64_t d[4] = { 2, 3, 4, 5 };
    std::vector<float> host(120);
    EXPECT_EQ(scatter(make_sys_continuous(d, relayout_f32), host.data(), 476,
                      make_local_desc(0, d, relayout_f32, npu_layout_t::aligned), *sim),
            status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("system buffer [0, 476)"), std::string::npos)
            << last_error_message();
    for (int l = 0; l < 4; ++l)
        for (int i = 0; i < 1024; ++i)
            ASSERT_EQ(sim->lane(l)[i], 0x11);
}

TEST(NpuScatter, PlanForOneConfigRunOnAnother) {
    const int64_t d[4] = { 1, 1, 1, 4 };
    npu_transfer_t t;
    ASSERT_OK(plan_s2l(seed_cfg(), make_sys_continuous(d, relayout_f32),
            make_local_desc(0, d, relayout_f32, npu_layout_t::aligned), t));
    std::unique_ptr<npu_sim_t> sim;
    ASSERT_OK(npu_sim_t::create(sim, cfg_of("bm1688")));
    float host[4] = {};
    EXPECT_EQ(execute_transfer(t, *sim, host, nullptr, 16), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("planned for custom"), std::string::npos);
}

} // namespace test
} // namespace npu
} // namespace impl
} // namespace relayout
