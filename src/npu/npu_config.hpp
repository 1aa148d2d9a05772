// The NPU model: X lanes ("NPUs") of S bytes of local memory each, with an
// alignment unit (eu_bytes) for the aligned layouts. See DESIGN.md §7.
#ifndef RELAYOUT_NPU_NPU_CONFIG_HPP
#define RELAYOUT_NPU_NPU_CONFIG_HPP

#include <cstdint>
#include <string>

#include "common/status.hpp"

namespace relayout {
namespace impl {
namespace npu {

// Limits a config must respect (the simulator allocates X * S bytes).
constexpr int k_max_npu_num = 1024;
constexpr int64_t k_max_lmem_bytes = int64_t(1) << 30;  // 1 GiB per lane
constexpr int64_t k_max_total_bytes = int64_t(1) << 32; // 4 GiB in all
constexpr int k_max_eu_bytes = 4096;
constexpr int k_max_banks = 1024;

// Plain data: embeddable in an engine object and comparable with ==.
struct npu_config_t {
    char name[32];            // "bm1684x", or "custom" for a user config
    int32_t npu_num;          // X: number of lanes
    int32_t eu_bytes;         // alignment unit of the aligned layouts (power of 2)
    int64_t lmem_bytes;       // S: local memory per lane, in bytes
    int32_t banks;            // banks per lane (informational: bank = S / banks)
    int32_t dma_w_stride_one; // 1: a DMA command's W stride must be 1
};

bool operator==(const npu_config_t &a, const npu_config_t &b);
inline bool operator!=(const npu_config_t &a, const npu_config_t &b) {
    return !(a == b);
}

// Checks a config: X in [1, 1024], eu_bytes a power of two in [4, 4096],
// S a multiple of eu_bytes in [eu_bytes, 1 GiB], X * S <= 4 GiB,
// banks in [1, 1024] dividing S.
status_t validate_config(const npu_config_t &cfg);

// Fills `cfg` from a preset name: bm1684, bm1684x, bm1688, bm1690.
status_t config_from_preset(npu_config_t &cfg, const std::string &name);

// A custom config, validated.
status_t make_custom_config(npu_config_t &cfg, int npu_num, int64_t lmem_bytes, int eu_bytes,
        int banks = 16, bool dma_w_stride_one = false);

// Parses "bm1684x" (a preset) or "custom:X:S:EU[:BANKS][:w1]", e.g.
// "custom:4:1024:128" (the seed's illustrations). S accepts a K suffix
// (KiB): "custom:64:256K:64". ":w1" makes DMA require W stride 1.
status_t parse_config(npu_config_t &cfg, const std::string &str);

// "bm1684x(npu_num=64,lmem=262144,eu=64,banks=16,w1=0)".
std::string config_str(const npu_config_t &cfg);

} // namespace npu
} // namespace impl
} // namespace relayout

#endif
