// NPU configs: the four presets, custom configs, the config-string parser
// and every rejection.
#include <string>

#include <gtest/gtest.h>

#include "npu_test_utils.hpp"

namespace relayout {
namespace impl {
namespace npu {
namespace test {

struct preset_case_t {
    const char *name;
    int npu_num;
    int64_t lmem_bytes;
    int eu_bytes;
    int w1;
};

class NpuPreset : public ::testing::TestWithParam<preset_case_t> {};

TEST_P(NpuPreset, HasTheDocumentedShape) {
    const auto &p = GetParam();
    npu_config_t c{};
    ASSERT_OK(parse_config(c, p.name));
    EXPECT_STREQ(c.name, p.name);
    EXPECT_EQ(c.npu_num, p.npu_num);
    EXPECT_EQ(c.lmem_bytes, p.lmem_bytes);
    EXPECT_EQ(c.eu_bytes, p.eu_bytes);
    EXPECT_EQ(c.dma_w_stride_one, p.w1);
    EXPECT_OK(validate_config(c));
    npu_config_t c2{};
    ASSERT_OK(config_from_preset(c2, p.name));
    EXPECT_TRUE(c == c2);
}

INSTANTIATE_TEST_SUITE_P(Presets, NpuPreset,
        ::testing::Values(preset_case_t{ "bm1684", 64, 512 * 1024, 128, 1 },
                preset_case_t{ "bm1684x", 64, 256 * 1024, 64, 0 },
                preset_case_t{ "bm1688", 32, 128 * 1024, 16, 0 },
                preset_case_t{ "bm1690", 64, 256 * 1024, 64, 0 }),
        [](const auto &info) { return std::string(info.param.name); });

TEST(NpuConfig, CustomSeedIllustration) {
    const npu_config_t c = seed_cfg();
    EXPECT_STREQ(c.name, "custom");
    EXPECT_EQ(c.npu_num, 4);
    EXPECT_EQ(c.lmem_bytes, 1024);
    EXPECT_EQ(c.eu_bytes, 128);
    EXPECT_EQ(c.banks, 16);
    EXPECT_EQ(c.dma_w_stride_one, 0);
}

TEST(NpuConfig, CustomWithKSuffixBanksAndW1) {
    npu_config_t c{};
    ASSERT_OK(parse_config(c, "custom:8:64K:32:4:w1"));
    EXPECT_EQ(c.npu_num, 8);
    EXPECT_EQ(c.lmem_bytes, 65536);
    EXPECT_EQ(c.eu_bytes, 32);
    EXPECT_EQ(c.banks, 4);
    EXPECT_EQ(c.dma_w_stride_one, 1);
    ASSERT_OK(parse_config(c, "custom:2:4096:16:w1"));
    EXPECT_EQ(c.banks, 16);
    EXPECT_EQ(c.dma_w_stride_one, 1);
    EXPECT_EQ(config_str(c), "custom(npu_num=2,lmem=4096,eu=16,banks=16,w1=1)");
}

struct bad_config_case_t {
    const char *name;
    const char *str;
    const char *message_part;
};

class NpuBadConfig : public ::testing::TestWithParam<bad_config_case_t> {};

TEST_P(NpuBadConfig, IsRejectedWithAMessageNamingTheField) {
    const auto &p = GetParam();
    npu_config_t c{};
    c.npu_num = 77; // must stay untouched
    EXPECT_EQ(parse_config(c, p.str), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find(p.message_part), std::string::npos) << last_error_message();
    EXPECT_EQ(c.npu_num, 77);
}

INSTANTIATE_TEST_SUITE_P(Errors, NpuBadConfig,
        ::testing::Values(bad_config_case_t{ "UnknownPreset", "bm9999", "unknown preset" },
                bad_config_case_t{ "Empty", "", "unknown preset" },
                bad_config_case_t{ "TooFewFields", "custom:4:1024", "expected custom:X:S:EU" },
                bad_config_case_t{ "NotANumber", "custom:4:abc:128", "S (lmem_bytes)" },
                bad_config_case_t{ "ZeroNpus", "custom:0:1024:128", "npu_num 0" },
                bad_config_case_t{ "TooManyNpus", "custom:5000:1024:128", "too large" },
                bad_config_case_t{ "EuNotPow2", "custom:4:1024:96", "eu_bytes 96" },
                bad_config_case_t{ "EuTooSmall", "custom:4:1024:2", "eu_bytes 2" },
                bad_config_case_t{ "LmemNotMultiple", "custom:4:1000:128", "lmem_bytes 1000" },
                bad_config_case_t{ "LmemTooLarge", "custom:64:2097152K:128", "lmem_bytes" },
                bad_config_case_t{ "BanksDontDivide", "custom:4:1024:128:3", "banks 3" },
                bad_config_case_t{ "W1NotLast", "custom:4:1024:128:w1:4", "'w1' must be the last" },
                bad_config_case_t{ "JunkField", "custom:4:1024:128:8:x", "field 5" }),
        [](const auto &info) { return std::string(info.param.name); });

TEST(NpuConfig, ValidateRejectsHandBuiltConfigs) {
    npu_config_t c = seed_cfg();
    c.dma_w_stride_one = 2;
    EXPECT_EQ(validate_config(c), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("dma_w_stride_one"), std::string::npos);
    c = seed_cfg();
    c.lmem_bytes = int64_t(1) << 30;
    c.npu_num = 8;
    EXPECT_EQ(validate_config(c), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("exceeds"), std::string::npos);
}

} // namespace test
} // namespace npu
} // namespace impl
} // namespace relayout
