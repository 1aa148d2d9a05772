// Local and system descriptors: every worked example of the TPU local
// memory document as a golden table (X = 4, S = 1024, 128-byte alignment),
// and every validation error.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npu_test_utils.hpp"

namespace relayout {
namespace impl {
namespace npu {
namespace test {

// ---- Address of a tensor in local memory -----------------------------------

struct address_case_t {
    const char *name;
    int64_t addr;
    int npu;
    int64_t offset;
};

class NpuSeedAddress : public ::testing::TestWithParam<address_case_t> {};

TEST_P(NpuSeedAddress, SplitsIntoNpuAndOffset) {
    const auto &p = GetParam();
    const npu_config_t cfg = seed_cfg();
    const int64_t dims[4] = { 1, 1, 1, 1 };
    const auto d = make_local_desc(p.addr, dims, relayout_f32, npu_layout_t::compact);
    ASSERT_OK(validate_local(cfg, d));
    EXPECT_EQ(start_npu(cfg, d), p.npu);
    EXPECT_EQ(start_offset(cfg, d), p.offset);
    int npu = -1;
    int64_t off = -1;
    ASSERT_OK(element_location(cfg, d, 0, 0, 0, 0, npu, off));
    EXPECT_EQ(npu, p.npu);
    EXPECT_EQ(off, p.offset);
}

INSTANTIATE_TEST_SUITE_P(Seed, NpuSeedAddress,
        ::testing::Values(address_case_t{ "A340", 340, 0, 340 },
                address_case_t{ "B1472", 1472, 1, 448 }, address_case_t{ "C2300", 2300, 2, 252 },
                address_case_t{ "D3088", 3088, 3, 16 }),
        [](const auto &info) { return std::string(info.param.name); });

// ---- Scatter features to different NPUs -----------------------------------

struct scatter_case_t {
    const char *name;
    int q; // start NPU
    int c; // channels
    int64_t cpn;
    // (npu, lane-row) of each channel
    std::vector<std::pair<int, int>> where;
    std::vector<int> empty_npus;
};

class NpuSeedScatter : public ::testing::TestWithParam<scatter_case_t> {};

TEST_P(NpuSeedScatter, PlacesEveryFeature) {
    const auto &p = GetParam();
    const npu_config_t cfg = seed_cfg();
    // Compact f32, H = W = 1: one 4-byte block per feature, so the lane-row
    // of channel c is at byte 4 * row, and batch n at 4 * n * cpn.
    const int64_t dims[4] = { 2, p.c, 1, 1 };
    const auto d = make_local_desc(p.q * cfg.lmem_bytes, dims, relayout_f32, npu_layout_t::compact);
    ASSERT_OK(validate_local(cfg, d));
    EXPECT_EQ(channels_per_npu(cfg, d), p.cpn);
    ASSERT_EQ((int)p.where.size(), p.c);
    std::vector<bool> used(cfg.npu_num, false);
    for (int n = 0; n < 2; ++n)
        for (int c = 0; c < p.c; ++c) {
            int npu = -1;
            int64_t off = -1;
            ASSERT_OK(element_location(cfg, d, n, c, 0, 0, npu, off));
            // Features (*, c) share one NPU.
            EXPECT_EQ(npu, p.where[c].first) << "feature " << n << "," << c;
            EXPECT_EQ(off, 4 * (p.where[c].second + n * p.cpn));
            used[npu] = true;
        }
    for (int e : p.empty_npus)
        EXPECT_FALSE(used[e]) << "NPU " << e << " should hold nothing";
}

// X = 4: C = X-1 from NPU 0 / 1, C = X+2 from NPU 0 / X-1.
INSTANTIATE_TEST_SUITE_P(Seed, NpuSeedScatter,
        ::testing::Values(
                scatter_case_t{ "CxMinus1From0", 0, 3, 1, { { 0, 0 }, { 1, 0 }, { 2, 0 } }, { 3 } },
                scatter_case_t{ "CxMinus1From1", 1, 3, 1, { { 1, 0 }, { 2, 0 }, { 3, 0 } }, { 0 } },
                scatter_case_t{ "CxPlus2From0", 0, 6, 2,
                        { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 }, { 0, 1 }, { 1, 1 } }, {} },
                scatter_case_t{ "CxPlus2FromXMinus1", 3, 6, 3,
                        { { 3, 0 }, { 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 0, 2 } }, {} }),
        [](const auto &info) { return std::string(info.param.name); });

TEST(NpuScatter, SameNpuIffSameChannelModX) {
    for (const char *s : { "custom:4:1024:128", "bm1688", "bm1684x" }) {
        const npu_config_t cfg = cfg_of(s);
        const int X = cfg.npu_num;
        for (int q : { 0, 1, X - 1 }) {
            const int64_t dims[4] = { 1, 2 * X + 3, 1, 1 };
            const auto d =
                    make_local_desc(q * cfg.lmem_bytes, dims, relayout_f32, npu_layout_t::compact);
            ASSERT_OK(validate_local(cfg, d));
            EXPECT_EQ(channels_per_npu(cfg, d), t_div_up(q + 2 * X + 3, X));
            for (int c0 = 0; c0 < dims[1]; ++c0)
                for (int c1 = 0; c1 < dims[1]; ++c1) {
                    int n0, n1;
                    int64_t o0, o1;
                    ASSERT_OK(element_location(cfg, d, 0, c0, 0, 0, n0, o0));
                    ASSERT_OK(element_location(cfg, d, 0, c1, 0, 0, n1, o1));
                    EXPECT_EQ(n0 == n1, c0 % X == c1 % X);
                }
        }
    }
}

// ---- Layout golden table ---------------------------------------------------

struct elem_t {
    int64_t n, c, h, w;
    int npu;
    int64_t off;
};

struct layout_case_t {
    const char *name;
    npu_local_desc_t desc;
    int64_t cpn;
    int64_t strides[4];
    int64_t bytes_per_npu;
    std::vector<elem_t> elems;
};

npu_local_desc_t desc4(int64_t addr, std::initializer_list<int64_t> dims, relayout_data_type_t dt,
        npu_layout_t l, npu_storage_t st = npu_storage_t::mode_1n) {
    std::vector<int64_t> v(dims);
    return make_local_desc(addr, v.data(), dt, l, st);
}

npu_local_desc_t free4(
        int64_t addr, std::initializer_list<int64_t> dims, std::initializer_list<int64_t> strides) {
    std::vector<int64_t> v(dims), s(strides);
    return make_local_free(addr, v.data(), relayout_f32, s.data());
}

class NpuSeedLayout : public ::testing::TestWithParam<layout_case_t> {};

TEST_P(NpuSeedLayout, MatchesTheDocument) {
    const auto &p = GetParam();
    const npu_config_t cfg = seed_cfg();
    ASSERT_OK(validate_local(cfg, p.desc));
    EXPECT_EQ(channels_per_npu(cfg, p.desc), p.cpn);
    int64_t st[4];
    local_strides(cfg, p.desc, st);
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(st[i], p.strides[i]) << "stride " << i;
    EXPECT_EQ(bytes_per_npu(cfg, p.desc), p.bytes_per_npu);
    for (const auto &e : p.elems) {
        int npu = -1;
        int64_t off = -1;
        ASSERT_OK(element_location(cfg, p.desc, e.n, e.c, e.h, e.w, npu, off));
        EXPECT_EQ(npu, e.npu) << e.n << "," << e.c << "," << e.h << "," << e.w;
        EXPECT_EQ(off, e.off) << e.n << "," << e.c << "," << e.h << "," << e.w;
        const t_loc_t f = formula_location(cfg, p.desc, e.n, e.c, e.h, e.w);
        EXPECT_EQ(f.npu, e.npu);
        EXPECT_EQ(f.off, e.off);
    }
}

const layout_case_t k_layout_cases[] = {
    // Strides in local memory: N=2,C=5,H=3,W=4 fp32 from NPU 0 with
    // W/H/C/N strides 2/16/56/120.
    { "LocalStrides0", free4(0, { 2, 5, 3, 4 }, { 120, 56, 16, 2 }), 2, { 120, 56, 16, 2 },
            4 * (120 + 56 + 2 * 16 + 3 * 2 + 1),
            { { 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 1, 0, 8 }, { 0, 0, 1, 0, 0, 64 },
                    { 0, 4, 0, 0, 0, 224 }, { 1, 0, 0, 0, 0, 480 }, { 1, 4, 2, 3, 0, 856 },
                    { 0, 3, 2, 3, 3, 152 } } },
    // N=2,C=3,H=1,W=10 from NPU 1, W stride 2, N stride 120; the H and C
    // strides make no sense (H = 1, one channel per NPU) and are 0.
    { "LocalStrides1", free4(1024, { 2, 3, 1, 10 }, { 120, 0, 0, 2 }), 1, { 120, 0, 0, 2 },
            4 * (120 + 18 + 1),
            { { 0, 0, 0, 0, 1, 0 }, { 1, 2, 0, 9, 3, 552 }, { 1, 1, 0, 4, 2, 512 } } },
    // 128-byte aligned N=2,C=3,H=4,W=5 fp32: C stride ceil(20/32)*32.
    { "AlignedFrom0", desc4(0, { 2, 3, 4, 5 }, relayout_f32, npu_layout_t::aligned), 1,
            { 32, 32, 5, 1 }, 2 * 32 * 4,
            { { 0, 0, 0, 0, 0, 0 }, { 1, 2, 3, 4, 2, 204 }, { 0, 1, 2, 3, 1, 52 } } },
    { "AlignedFrom2", desc4(2048, { 2, 3, 4, 5 }, relayout_f32, npu_layout_t::aligned), 2,
            { 64, 32, 5, 1 }, 2 * 64 * 4,
            { { 0, 0, 0, 0, 2, 0 }, { 0, 1, 0, 0, 3, 0 }, { 0, 2, 0, 0, 0, 128 },
                    { 1, 2, 3, 4, 0, 460 }, { 1, 0, 0, 0, 2, 256 } } },
    { "CompactFrom0", desc4(0, { 2, 3, 4, 5 }, relayout_f32, npu_layout_t::compact), 1,
            { 20, 20, 5, 1 }, 2 * 20 * 4,
            { { 1, 2, 3, 4, 2, 4 * (20 + 19) }, { 0, 1, 1, 1, 1, 24 } } },
    { "CompactFrom2", desc4(2048, { 2, 3, 4, 5 }, relayout_f32, npu_layout_t::compact), 2,
            { 40, 20, 5, 1 }, 2 * 40 * 4,
            { { 0, 2, 0, 0, 0, 80 }, { 1, 2, 3, 4, 0, 4 * (20 + 40 + 19) },
                    { 1, 1, 0, 0, 3, 160 } } },
    // Line-aligned: H stride round_up(5, 32) = 32, C stride 4 * 32.
    { "LineAlignedFrom0", desc4(0, { 2, 3, 4, 5 }, relayout_f32, npu_layout_t::line_aligned), 1,
            { 128, 128, 32, 1 }, 2 * 128 * 4, { { 1, 2, 3, 4, 2, 4 * (128 + 96 + 4) } } },
    // Matrix 2 x 40 fp32 with W = 40, 20, 10, 8, 15, 6.
    { "MatrixW40", make_local_matrix(0, 2, 40, 40, relayout_f32), 1, { 64, 64, 40, 1 }, 2 * 64 * 4,
            { { 0, 39, 0, 0, 0, 156 }, { 1, 0, 0, 0, 0, 256 } } },
    { "MatrixW20", make_local_matrix(0, 2, 40, 20, relayout_f32), 1, { 32, 32, 20, 1 }, 2 * 32 * 4,
            { { 0, 19, 0, 0, 0, 76 }, { 0, 20, 0, 0, 1, 0 }, { 1, 39, 0, 0, 1, 128 + 76 } } },
    { "MatrixW10", make_local_matrix(0, 2, 40, 10, relayout_f32), 1, { 32, 32, 10, 1 }, 2 * 32 * 4,
            { { 0, 35, 0, 0, 3, 20 }, { 1, 9, 0, 0, 0, 128 + 36 } } },
    { "MatrixW8", make_local_matrix(0, 2, 40, 8, relayout_f32), 2, { 64, 32, 8, 1 }, 2 * 64 * 4,
            { { 0, 32, 0, 0, 0, 128 }, { 1, 39, 0, 0, 0, 256 + 128 + 28 },
                    { 1, 31, 0, 0, 3, 256 + 28 } } },
    { "MatrixW15", make_local_matrix(0, 2, 40, 15, relayout_f32), 1, { 32, 32, 15, 1 }, 2 * 32 * 4,
            { { 0, 30, 0, 0, 2, 0 }, { 1, 39, 0, 0, 2, 128 + 36 }, { 0, 14, 0, 0, 0, 56 } } },
    { "MatrixW6", make_local_matrix(0, 2, 40, 6, relayout_f32), 2, { 64, 32, 6, 1 }, 2 * 64 * 4,
            { { 0, 36, 0, 0, 2, 128 }, { 1, 39, 0, 0, 2, 256 + 128 + 12 } } },
    // 4N: N=6,C=5,H=4,W=5 int8, aligned: (2,5,4,5) of int8x4, C stride
    // 32 words, 2 channels per NPU.
    { "Aligned4N",
            desc4(0, { 6, 5, 4, 5 }, relayout_s8, npu_layout_t::aligned, npu_storage_t::mode_4n), 2,
            { 64, 32, 5, 1 }, 2 * 64 * 4,
            { { 4, 0, 0, 0, 0, 256 }, { 5, 0, 0, 0, 0, 257 }, { 3, 4, 3, 4, 0, 4 * (32 + 19) + 3 },
                    { 1, 1, 0, 1, 1, 4 + 1 } } },
    // 2N: N=3 int16 (the document's "int8" means int16 there).
    { "Aligned2N",
            desc4(0, { 3, 5, 4, 5 }, relayout_s16, npu_layout_t::aligned, npu_storage_t::mode_2n),
            2, { 64, 32, 5, 1 }, 2 * 64 * 4,
            { { 2, 0, 0, 0, 0, 256 }, { 1, 0, 0, 0, 0, 2 },
                    { 2, 4, 3, 4, 0, 4 * (64 + 32 + 19) } } },
    // 2IC: fp32 weights [I=3, O=5, 3, 3] -> (2, 5, 3, 3) of fp32x2;
    // C stride round_up(9, 128/8) = 16.
    { "Aligned2ICOddI",
            desc4(0, { 3, 5, 3, 3 }, relayout_f32, npu_layout_t::aligned, npu_storage_t::mode_2ic),
            2, { 32, 16, 3, 1 }, 2 * 32 * 8,
            { { 2, 0, 1, 1, 0, 8 * (32 + 4) }, { 1, 4, 2, 2, 0, 8 * 24 + 4 },
                    { 0, 3, 0, 0, 3, 0 } } },
};

INSTANTIATE_TEST_SUITE_P(Seed, NpuSeedLayout, ::testing::ValuesIn(k_layout_cases),
        [](const auto &info) { return std::string(info.param.name); });

TEST(NpuMatrix, LastChannelHoldsTheRemainder) {
    struct {
        int64_t w, channels, last;
    } cases[] = { { 40, 1, 40 }, { 20, 2, 20 }, { 10, 4, 10 }, { 8, 5, 8 }, { 15, 3, 10 },
        { 6, 7, 4 } };
    for (const auto &c : cases) {
        const auto d = make_local_matrix(0, 2, 40, c.w, relayout_f32);
        int64_t pd[4];
        packed_dims(d, pd);
        EXPECT_EQ(pd[1], c.channels) << "W=" << c.w;
        EXPECT_EQ(pd[3], c.w);
        EXPECT_EQ(matrix_channel_cols(d, c.channels - 1), c.last);
    }
}

// ---- Validation errors -----------------------------------------------------

struct local_error_case_t {
    const char *name;
    npu_local_desc_t desc;
    const char *message_part;
};

npu_local_desc_t with_layout(npu_local_desc_t d, int layout) {
    d.layout = (npu_layout_t)layout;
    return d;
}
npu_local_desc_t with_storage(npu_local_desc_t d, int st) {
    d.storage = (npu_storage_t)st;
    return d;
}
npu_local_desc_t with_dt(npu_local_desc_t d, int dt) {
    d.data_type = (relayout_data_type_t)dt;
    return d;
}

const npu_local_desc_t k_ok = desc4(0, { 2, 3, 4, 5 }, relayout_f32, npu_layout_t::aligned);

class NpuLocalError : public ::testing::TestWithParam<local_error_case_t> {};

TEST_P(NpuLocalError, IsInvalidWithAClearMessage) {
    const auto &p = GetParam();
    clear_last_error_message();
    EXPECT_EQ(validate_local(seed_cfg(), p.desc), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find(p.message_part), std::string::npos) << last_error_message();
}

INSTANTIATE_TEST_SUITE_P(Errors, NpuLocalError,
        ::testing::Values(local_error_case_t{ "UnknownLayout", with_layout(k_ok, 9), "layout 9" },
                local_error_case_t{ "UnknownStorage", with_storage(k_ok, 7), "storage mode 7" },
                local_error_case_t{ "UndefDataType", with_dt(k_ok, 0), "data_type 0" },
                local_error_case_t{ "FourNOnF32", with_storage(k_ok, (int)npu_storage_t::mode_4n),
                        "4N needs data_type s8 or u8, got f32" },
                local_error_case_t{ "TwoNOnS8",
                        desc4(0, { 2, 3, 4, 5 }, relayout_s8, npu_layout_t::aligned,
                                npu_storage_t::mode_2n),
                        "2N needs data_type s16 or u16, got s8" },
                local_error_case_t{ "TwoICOnF16",
                        desc4(0, { 2, 3, 4, 5 }, relayout_f16, npu_layout_t::aligned,
                                npu_storage_t::mode_2ic),
                        "2IC needs data_type f32" },
                local_error_case_t{ "NegativeDim",
                        desc4(0, { 2, 3, -4, 5 }, relayout_f32, npu_layout_t::aligned),
                        "dims[2] (H) = -4" },
                local_error_case_t{ "AddressPastEnd",
                        desc4(4096, { 1, 1, 1, 1 }, relayout_f32, npu_layout_t::aligned),
                        "address 4096 is outside local memory" },
                local_error_case_t{ "NegativeAddress",
                        desc4(-4, { 1, 1, 1, 1 }, relayout_f32, npu_layout_t::aligned),
                        "address -4" },
                local_error_case_t{ "AlignedNotOnEu",
                        desc4(64, { 1, 1, 1, 1 }, relayout_f32, npu_layout_t::aligned),
                        "start offset 64 in NPU 0 (address 64) is not a "
                        "multiple of 128 (eu_bytes), as the aligned layout" },
                local_error_case_t{ "LineAlignedNotOnEu",
                        desc4(1024 + 4, { 1, 1, 1, 1 }, relayout_f32, npu_layout_t::line_aligned),
                        "line_aligned layout" },
                local_error_case_t{ "CompactNotOn4",
                        desc4(2, { 1, 1, 1, 1 }, relayout_s8, npu_layout_t::compact),
                        "not a multiple of 4 (4 bytes)" },
                local_error_case_t{ "FreeNotOnElement",
                        make_local_free(2, std::vector<int64_t>{ 1, 1, 1, 1 }.data(), relayout_f32,
                                std::vector<int64_t>{ 1, 1, 1, 1 }.data()),
                        "free_strides layout" },
                local_error_case_t{ "DoesNotFit",
                        desc4(0, { 9, 3, 4, 5 }, relayout_f32, npu_layout_t::aligned),
                        "does not fit in the lane: start offset 0 + 1152 "
                        "bytes per NPU > lmem_bytes 1024" },
                local_error_case_t{ "DoesNotFitFromOffset",
                        desc4(896, { 1, 1, 4, 10 }, relayout_f32, npu_layout_t::aligned),
                        "start offset 896 + 256" },
                local_error_case_t{ "FreeStridesOverlap",
                        free4(0, { 1, 1, 4, 4 }, { 16, 16, 2, 1 }),
                        "free strides N=16 C=16 H=2 W=1 make elements overlap" },
                local_error_case_t{ "FreeChannelRowsOverlap",
                        free4(0, { 1, 5, 1, 4 }, { 8, 2, 4, 1 }), "overlap" },
                local_error_case_t{
                        "FreeZeroStride", free4(0, { 2, 1, 1, 4 }, { 0, 4, 4, 1 }), "overlap" },
                local_error_case_t{ "FreeNegativeStride", free4(0, { 2, 1, 1, 4 }, { 8, 4, 4, -1 }),
                        "strides[3] (W stride) = -1" },
                local_error_case_t{ "FreeDoesNotFit", free4(0, { 2, 1, 1, 4 }, { 300, 4, 4, 1 }),
                        "does not fit" },
                local_error_case_t{ "MatrixWZero", make_local_matrix(0, 2, 40, 0, relayout_f32),
                        "matrix_w 0 is out of range [1, cols = 40]" },
                local_error_case_t{ "MatrixWTooBig", make_local_matrix(0, 2, 40, 41, relayout_f32),
                        "matrix_w 41" },
                local_error_case_t{ "MatrixWithH",
                        desc4(0, { 2, 40, 2, 1 }, relayout_f32, npu_layout_t::matrix),
                        "a matrix has dims {rows, cols, 1, 1}" },
                local_error_case_t{ "Matrix4N",
                        with_storage(make_local_matrix(0, 4, 8, 4, relayout_s8),
                                (int)npu_storage_t::mode_4n),
                        "matrix layout takes storage mode 1N only" }),
        [](const auto &info) { return std::string(info.param.name); });

TEST(NpuLocalDesc, ZeroVolumeIsValidAndEmpty) {
    const auto d = desc4(0, { 0, 3, 4, 5 }, relayout_f32, npu_layout_t::aligned);
    EXPECT_OK(validate_local(seed_cfg(), d));
    EXPECT_EQ(bytes_per_npu(seed_cfg(), d), 0);
    EXPECT_TRUE(local_is_zero_volume(d));
}

TEST(NpuLocalDesc, ElementIndexOutOfRange) {
    int npu;
    int64_t off;
    EXPECT_EQ(
            element_location(seed_cfg(), k_ok, 0, 3, 0, 0, npu, off), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("index C = 3"), std::string::npos);
}

TEST(NpuLocalDesc, InterleavedFreeStridesThatDoNotOverlapAreAccepted) {
    // Offsets {0,2,4} + {0,3}: the sorted-stride test fails, the exact test
    // shows no two elements meet.
    EXPECT_OK(validate_local(seed_cfg(), free4(0, { 1, 1, 2, 3 }, { 8, 8, 3, 2 })));
}

TEST(NpuLocalDesc, Describes) {
    EXPECT_EQ(local_desc_str(
                      seed_cfg(), desc4(2048, { 2, 3, 4, 5 }, relayout_f32, npu_layout_t::aligned)),
            "npu_local:aligned:1N:f32:A=2048(npu2+0x0):2x3x4x5:strides=64,32,"
            "5,1");
}

// ---- System descriptor -----------------------------------------------------

TEST(NpuSysDesc, ContinuousStridesAndSize) {
    const int64_t dims[4] = { 2, 3, 4, 5 };
    const auto s = make_sys_continuous(dims, relayout_f32);
    EXPECT_EQ(s.strides[0], 60);
    EXPECT_EQ(s.strides[1], 20);
    EXPECT_EQ(s.strides[2], 5);
    EXPECT_EQ(s.strides[3], 1);
    EXPECT_EQ(sys_required_bytes(s), 480);
    EXPECT_EQ(sys_element_offset(s, 1, 2, 3, 4), 4 * 119);
    const int64_t d4[4] = { 6, 5, 4, 5 };
    const auto p = make_sys_continuous(d4, relayout_u8, npu_storage_t::mode_4n);
    EXPECT_EQ(p.strides[0], 100);
    EXPECT_EQ(sys_required_bytes(p), 2 * 100 * 4);
    EXPECT_EQ(sys_element_offset(p, 5, 0, 0, 1), 400 + 4 + 1);
}

struct sys_error_case_t {
    const char *name;
    npu_sys_desc_t desc;
    bool for_write;
    const char *message_part;
};

npu_sys_desc_t sys4(std::initializer_list<int64_t> dims, std::initializer_list<int64_t> strides,
        int64_t offset = 0, relayout_data_type_t dt = relayout_f32,
        npu_storage_t st = npu_storage_t::mode_1n) {
    std::vector<int64_t> d(dims), s(strides);
    return make_sys_strided(d.data(), dt, s.data(), st, offset);
}

class NpuSysError : public ::testing::TestWithParam<sys_error_case_t> {};

TEST_P(NpuSysError, IsInvalidWithAClearMessage) {
    const auto &p = GetParam();
    EXPECT_EQ(validate_sys(p.desc, p.for_write), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find(p.message_part), std::string::npos) << last_error_message();
}

INSTANTIATE_TEST_SUITE_P(Errors, NpuSysError,
        ::testing::Values(sys_error_case_t{ "OverlapAsDestination",
                                  sys4({ 2, 3, 4, 5 }, { 0, 20, 5, 1 }), true,
                                  "(destination): strides N=0 C=20 H=5 W=1 make "
                                  "elements overlap" },
                sys_error_case_t{ "NegativeStride", sys4({ 2, 3, 4, 5 }, { 60, 20, -5, 1 }), false,
                        "strides[2] (H stride) = -5" },
                sys_error_case_t{ "NegativeOffset", sys4({ 2, 3, 4, 5 }, { 60, 20, 5, 1 }, -1),
                        false, "offset -1" },
                sys_error_case_t{ "FourNOnS16",
                        sys4({ 2, 3, 4, 5 }, { 60, 20, 5, 1 }, 0, relayout_s16,
                                npu_storage_t::mode_4n),
                        false, "4N needs data_type s8 or u8, got s16" }),
        [](const auto &info) { return std::string(info.param.name); });

TEST(NpuSysDesc, BroadcastSourceIsValid) {
    EXPECT_OK(validate_sys(sys4({ 2, 3, 4, 5 }, { 0, 20, 5, 1 }), false));
}

} // namespace test
} // namespace npu
} // namespace impl
} // namespace relayout
