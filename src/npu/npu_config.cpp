#include "npu/npu_config.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace relayout {
namespace impl {
namespace npu {

namespace {

struct preset_t {
    const char *name;
    int npu_num;
    int64_t lmem_bytes;
    int eu_bytes;
    int banks;
    bool w_stride_one;
};

// BM1684's GDMA moves a W row with unit stride only; the later chips take
// a W stride.
constexpr preset_t k_presets[] = {
    { "bm1684", 64, 512 * 1024, 128, 8, true },
    { "bm1684x", 64, 256 * 1024, 64, 16, false },
    { "bm1688", 32, 128 * 1024, 16, 16, false },
    { "bm1690", 64, 256 * 1024, 64, 16, false },
};

void set_name(npu_config_t &cfg, const char *name) {
    std::memset(cfg.name, 0, sizeof(cfg.name));
    std::strncpy(cfg.name, name, sizeof(cfg.name) - 1);
}

bool is_pow2(int64_t v) {
    return v > 0 && (v & (v - 1)) == 0;
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t b = 0;
    for (;;) {
        size_t e = s.find(sep, b);
        out.push_back(s.substr(b, e == std::string::npos ? e : e - b));
        if (e == std::string::npos) break;
        b = e + 1;
    }
    return out;
}

// Parses a decimal integer with an optional K (x1024) suffix.
bool parse_int(const std::string &s, int64_t &v) {
    if (s.empty() || s.size() > 18) return false;
    int64_t mult = 1;
    std::string digits = s;
    if (digits.back() == 'K' || digits.back() == 'k') {
        mult = 1024;
        digits.pop_back();
    }
    if (digits.empty()) return false;
    int64_t r = 0;
    for (char ch : digits) {
        if (ch < '0' || ch > '9') return false;
        r = r * 10 + (ch - '0');
    }
    v = r * mult;
    return true;
}

} // namespace

bool operator==(const npu_config_t &a, const npu_config_t &b) {
    return std::strncmp(a.name, b.name, sizeof(a.name)) == 0 && a.npu_num == b.npu_num
           && a.eu_bytes == b.eu_bytes && a.lmem_bytes == b.lmem_bytes && a.banks == b.banks
           && a.dma_w_stride_one == b.dma_w_stride_one;
}

status_t validate_config(const npu_config_t &cfg) {
    if (cfg.npu_num < 1 || cfg.npu_num > k_max_npu_num)
        return failf(status_t::invalid_arguments, "npu config: npu_num %d is out of range [1, %d]",
                cfg.npu_num, k_max_npu_num);
    if (!is_pow2(cfg.eu_bytes) || cfg.eu_bytes < 4 || cfg.eu_bytes > k_max_eu_bytes)
        return failf(status_t::invalid_arguments,
                "npu config: eu_bytes %d must be a power of two in [4, %d]", cfg.eu_bytes,
                k_max_eu_bytes);
    if (cfg.lmem_bytes < cfg.eu_bytes || cfg.lmem_bytes > k_max_lmem_bytes
            || cfg.lmem_bytes % cfg.eu_bytes != 0)
        return failf(status_t::invalid_arguments,
                "npu config: lmem_bytes %lld must be a multiple of eu_bytes "
                "(%d) in [%d, %lld]",
                (long long)cfg.lmem_bytes, cfg.eu_bytes, cfg.eu_bytes, (long long)k_max_lmem_bytes);
    if (cfg.lmem_bytes * cfg.npu_num > k_max_total_bytes)
        return failf(status_t::invalid_arguments,
                "npu config: npu_num * lmem_bytes = %lld exceeds %lld bytes",
                (long long)(cfg.lmem_bytes * cfg.npu_num), (long long)k_max_total_bytes);
    if (cfg.banks < 1 || cfg.banks > k_max_banks || cfg.lmem_bytes % cfg.banks != 0)
        return failf(status_t::invalid_arguments,
                "npu config: banks %d must be in [1, %d] and divide "
                "lmem_bytes %lld",
                cfg.banks, k_max_banks, (long long)cfg.lmem_bytes);
    if (cfg.dma_w_stride_one != 0 && cfg.dma_w_stride_one != 1)
        return failf(status_t::invalid_arguments,
                "npu config: dma_w_stride_one must be 0 or 1, got %d", cfg.dma_w_stride_one);
    return status_t::success;
}

status_t config_from_preset(npu_config_t &cfg, const std::string &name) {
    for (const auto &p : k_presets) {
        if (name != p.name) continue;
        npu_config_t c{};
        set_name(c, p.name);
        c.npu_num = p.npu_num;
        c.lmem_bytes = p.lmem_bytes;
        c.eu_bytes = p.eu_bytes;
        c.banks = p.banks;
        c.dma_w_stride_one = p.w_stride_one ? 1 : 0;
        cfg = c;
        return status_t::success;
    }
    return failf(status_t::invalid_arguments,
            "npu config: unknown preset '%s' (known: bm1684, bm1684x, "
            "bm1688, bm1690, or custom:X:S:EU)",
            name.c_str());
}

status_t make_custom_config(npu_config_t &cfg, int npu_num, int64_t lmem_bytes, int eu_bytes,
        int banks, bool dma_w_stride_one) {
    npu_config_t c{};
    set_name(c, "custom");
    c.npu_num = npu_num;
    c.lmem_bytes = lmem_bytes;
    c.eu_bytes = eu_bytes;
    c.banks = banks;
    c.dma_w_stride_one = dma_w_stride_one ? 1 : 0;
    RL_CHECK(validate_config(c));
    cfg = c;
    return status_t::success;
}

status_t parse_config(npu_config_t &cfg, const std::string &str) {
    const std::string prefix = "custom:";
    if (str.compare(0, prefix.size(), prefix) != 0) return config_from_preset(cfg, str);
    auto f = split(str.substr(prefix.size()), ':');
    if (f.size() < 3 || f.size() > 5)
        return failf(status_t::invalid_arguments,
                "npu config '%s': expected custom:X:S:EU[:BANKS][:w1]", str.c_str());
    static const char *names[] = { "X (npu_num)", "S (lmem_bytes)", "EU (eu_bytes)", "BANKS" };
    int64_t v[4] = { 0, 0, 0, 16 };
    bool w1 = false;
    for (size_t i = 0; i < f.size(); ++i) {
        if (i >= 3 && f[i] == "w1") {
            if (i + 1 != f.size())
                return failf(status_t::invalid_arguments,
                        "npu config '%s': 'w1' must be the last field", str.c_str());
            w1 = true;
            continue;
        }
        if (i == 4 || !parse_int(f[i], v[i]) || v[i] > k_max_total_bytes)
            return failf(status_t::invalid_arguments,
                    "npu config '%s': field %zu (%s) '%s' is not a "
                    "valid number",
                    str.c_str(), i + 1, i < 4 ? names[i] : "w1", f[i].c_str());
    }
    if (v[0] > k_max_npu_num || v[2] > k_max_eu_bytes || v[3] > k_max_banks)
        return failf(status_t::invalid_arguments, "npu config '%s': X, EU or BANKS is too large",
                str.c_str());
    return make_custom_config(cfg, (int)v[0], v[1], (int)v[2], (int)v[3], w1);
}

std::string config_str(const npu_config_t &cfg) {
    char buf[160];
    std::snprintf(buf, sizeof(buf), "%s(npu_num=%d,lmem=%lld,eu=%d,banks=%d,w1=%d)", cfg.name,
            cfg.npu_num, (long long)cfg.lmem_bytes, cfg.eu_bytes, cfg.banks, cfg.dma_w_stride_one);
    return buf;
}

} // namespace npu
} // namespace impl
} // namespace relayout
