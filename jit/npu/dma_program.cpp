#include "jit/npu/dma_program.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace relayout {
namespace impl {
namespace npu {

namespace {

constexpr int64_t k_max_sys_addr = int64_t(1) << 50;

std::string side_str(const dma_side_t &s) {
    char buf[64];
    if (s.is_local)
        std::snprintf(buf, sizeof(buf), "local=0x%04" PRIx64 " npu=%d", (uint64_t)s.addr, s.npu);
    else
        std::snprintf(buf, sizeof(buf), "sys=+0x%04" PRIx64, (uint64_t)s.addr);
    return buf;
}

std::string vec_str(const int64_t v[4]) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "[%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "]", v[0], v[1],
            v[2], v[3]);
    return buf;
}

bool dir_ok(dma_dir_t d) {
    return d >= dma_dir_t::s2l && d <= dma_dir_t::s2s;
}

const char *side_role(bool src) {
    return src ? "source" : "destination";
}

} // namespace

int dma_fmt_bytes(dma_fmt_t f) {
    switch (f) {
        case dma_fmt_t::int8:
        case dma_fmt_t::uint8: return 1;
        case dma_fmt_t::int16:
        case dma_fmt_t::uint16:
        case dma_fmt_t::fp16:
        case dma_fmt_t::bf16: return 2;
        case dma_fmt_t::int32:
        case dma_fmt_t::fp32:
        case dma_fmt_t::int8x4:
        case dma_fmt_t::uint8x4:
        case dma_fmt_t::int16x2:
        case dma_fmt_t::uint16x2: return 4;
        case dma_fmt_t::fp32x2: return 8;
    }
    return 0;
}

const char *dma_fmt_name(dma_fmt_t f) {
    switch (f) {
        case dma_fmt_t::int8: return "INT8";
        case dma_fmt_t::uint8: return "UINT8";
        case dma_fmt_t::int16: return "INT16";
        case dma_fmt_t::uint16: return "UINT16";
        case dma_fmt_t::fp16: return "FP16";
        case dma_fmt_t::bf16: return "BF16";
        case dma_fmt_t::int32: return "INT32";
        case dma_fmt_t::fp32: return "FP32";
        case dma_fmt_t::int8x4: return "INT8x4";
        case dma_fmt_t::uint8x4: return "UINT8x4";
        case dma_fmt_t::int16x2: return "INT16x2";
        case dma_fmt_t::uint16x2: return "UINT16x2";
        case dma_fmt_t::fp32x2: return "FP32x2";
    }
    return "UNKNOWN";
}

const char *dma_dir_name(dma_dir_t d) {
    switch (d) {
        case dma_dir_t::s2l: return "S2L";
        case dma_dir_t::l2s: return "L2S";
        case dma_dir_t::l2l: return "L2L";
        case dma_dir_t::s2s: return "S2S";
    }
    return "???";
}

std::string dma_cmd_str(const dma_cmd_t &c) {
    std::string s = "tpu_gdma_cpy_";
    s += dma_dir_name(c.dir);
    s += "(" + side_str(c.dst) + ", " + side_str(c.src);
    s += ", shape=" + vec_str(c.shape);
    s += ", sstride=" + vec_str(c.src.stride);
    s += ", dstride=" + vec_str(c.dst.stride);
    s += ", fmt=";
    s += dma_fmt_name(c.fmt);
    s += ")";
    return s;
}

std::string dma_program_t::listing() const {
    std::string s;
    for (const auto &c : cmds)
        s += dma_cmd_str(c) + "\n";
    return s;
}

int64_t dma_program_t::elements() const {
    int64_t e = 0;
    for (const auto &c : cmds)
        e += c.shape[0] * c.shape[1] * c.shape[2] * c.shape[3];
    return e;
}

void side_byte_range(const npu_config_t &cfg, const dma_cmd_t &c, const dma_side_t &s, int64_t &lo,
        int64_t &hi) {
    const int64_t eb = dma_fmt_bytes(c.fmt);
    lo = hi = s.addr;
    for (int i = 0; i < 4; ++i)
        if (c.shape[i] == 0) return;
    int64_t cnt[4] = { c.shape[0], c.shape[1], c.shape[2], c.shape[3] };
    // On a local side the C dim walks lanes: only lane-rows add offsets.
    if (s.is_local) cnt[1] = (s.npu + c.shape[1] - 1) / cfg.npu_num + 1;
    int64_t mn = 0, mx = 0;
    for (int i = 0; i < 4; ++i) {
        const int64_t span = (cnt[i] - 1) * s.stride[i];
        mn += std::min<int64_t>(0, span);
        mx += std::max<int64_t>(0, span);
    }
    lo = s.addr + mn * eb;
    hi = s.addr + mx * eb + eb;
}

status_t validate_cmd(
        const npu_config_t &cfg, const dma_cmd_t &c, int64_t sys_bytes, size_t index) {
    if (!dir_ok(c.dir))
        return failf(status_t::invalid_arguments,
                "DMA command %zu: direction %d is not S2L, L2S, L2L or S2S", index, (int)c.dir);
    const char *dn = dma_dir_name(c.dir);
    const int eb = dma_fmt_bytes(c.fmt);
    if (eb == 0)
        return failf(status_t::invalid_arguments,
                "DMA command %zu (%s): element format %d is unknown", index, dn, (int)c.fmt);
    const bool src_local = c.dir == dma_dir_t::l2s || c.dir == dma_dir_t::l2l;
    const bool dst_local = c.dir == dma_dir_t::s2l || c.dir == dma_dir_t::l2l;
    if ((c.src.is_local != 0) != src_local || (c.dst.is_local != 0) != dst_local)
        return failf(status_t::invalid_arguments,
                "DMA command %zu (%s): sides do not match the direction "
                "(source %s, destination %s)",
                index, dn, c.src.is_local ? "local" : "system",
                c.dst.is_local ? "local" : "system");
    static const char *names[4] = { "N", "C", "H", "W" };
    for (int i = 0; i < 4; ++i) {
        const int64_t lim = i == 1 ? k_dma_max_c : k_dma_max_nhw;
        if (c.shape[i] < 0 || c.shape[i] > lim)
            return failf(status_t::invalid_arguments,
                    "DMA command %zu (%s): %s count %lld is out of the "
                    "hardware range [0, %lld]",
                    index, dn, names[i], (long long)c.shape[i], (long long)lim);
    }
    for (int side = 0; side < 2; ++side) {
        const dma_side_t &s = side == 0 ? c.src : c.dst;
        for (int i = 0; i < 4; ++i)
            if (s.stride[i] < -k_dma_max_stride || s.stride[i] > k_dma_max_stride)
                return failf(status_t::invalid_arguments,
                        "DMA command %zu (%s): %s %s stride %lld exceeds "
                        "2^40 elements",
                        index, dn, side_role(side == 0), names[i], (long long)s.stride[i]);
    }
    if (cfg.dma_w_stride_one && c.shape[3] > 1 && (c.src.stride[3] != 1 || c.dst.stride[3] != 1))
        return failf(status_t::invalid_arguments,
                "DMA command %zu (%s): %s needs W stride 1 on both sides, "
                "got source %lld, destination %lld",
                index, dn, cfg.name, (long long)c.src.stride[3], (long long)c.dst.stride[3]);
    for (int side = 0; side < 2; ++side) {
        const dma_side_t &s = side == 0 ? c.src : c.dst;
        const char *role = side_role(side == 0);
        if (s.is_local) {
            if (s.npu < 0 || s.npu >= cfg.npu_num)
                return failf(status_t::invalid_arguments,
                        "DMA command %zu (%s): %s start NPU %d is out of "
                        "range [0, %d)",
                        index, dn, role, s.npu, cfg.npu_num);
            if (s.addr < 0 || s.addr >= cfg.lmem_bytes)
                return failf(status_t::invalid_arguments,
                        "DMA command %zu (%s): %s local offset %lld is "
                        "outside the %lld-byte lane",
                        index, dn, role, (long long)s.addr, (long long)cfg.lmem_bytes);
        } else if (s.addr < 0 || s.addr > k_max_sys_addr) {
            return failf(status_t::invalid_arguments,
                    "DMA command %zu (%s): %s system address %lld is out "
                    "of range [0, 2^50]",
                    index, dn, role, (long long)s.addr);
        }
        int64_t lo, hi;
        side_byte_range(cfg, c, s, lo, hi);
        if (lo == hi) continue; // nothing moves
        const int64_t limit = s.is_local ? cfg.lmem_bytes : sys_bytes;
        if (lo < 0 || hi > limit)
            return failf(status_t::invalid_arguments,
                    "DMA command %zu (%s): %s touches bytes [%lld, %lld), "
                    "outside %s [0, %lld)",
                    index, dn, role, (long long)lo, (long long)hi,
                    s.is_local ? "the lane" : "the system buffer", (long long)limit);
    }
    return status_t::success;
}

status_t validate_program(const npu_config_t &cfg, const dma_program_t &p, int64_t sys_bytes) {
    if (p.cfg.npu_num != cfg.npu_num || p.cfg.lmem_bytes != cfg.lmem_bytes)
        return failf(status_t::invalid_arguments,
                "DMA program: generated for %d NPUs x %lld bytes, run on "
                "%d NPUs x %lld bytes",
                p.cfg.npu_num, (long long)p.cfg.lmem_bytes, cfg.npu_num, (long long)cfg.lmem_bytes);
    for (size_t i = 0; i < p.cmds.size(); ++i)
        RL_CHECK(validate_cmd(cfg, p.cmds[i], sys_bytes, i));
    return status_t::success;
}

} // namespace npu
} // namespace impl
} // namespace relayout
