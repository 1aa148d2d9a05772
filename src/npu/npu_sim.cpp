#include "npu/npu_sim.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "common/threading.hpp"
#include "npu/npu_desc.hpp"

namespace relayout {
namespace impl {
namespace npu {

namespace {

// Element addressing of one side of a command.
struct side_ptr_t {
    const dma_side_t *s;
    uint8_t *base; // lane 0 for a local side, the system buffer otherwise
    size_t lane_bytes;
    int npu_num;
    int64_t eb;

    // Start of channel c's data (n = h = w = 0).
    uint8_t *channel(int64_t c) const {
        if (s->is_local) {
            const int64_t t = s->npu + c;
            return base + (size_t)(t % npu_num) * lane_bytes + s->addr
                   + (t / npu_num) * s->stride[1] * eb;
        }
        return base + s->addr + c * s->stride[1] * eb;
    }
    int64_t off(int64_t n, int64_t h, int64_t w) const {
        return (n * s->stride[0] + h * s->stride[2] + w * s->stride[3]) * eb;
    }
};

bool ranges_intersect(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi) {
    return alo < ahi && blo < bhi && alo < bhi && blo < ahi;
}

} // namespace

npu_sim_t::npu_sim_t(const npu_config_t &cfg)
        : cfg_(cfg), lane_bytes_((size_t)cfg.lmem_bytes),
          mem_((size_t)cfg.npu_num * (size_t)cfg.lmem_bytes, 0) {}

status_t npu_sim_t::create(std::unique_ptr<npu_sim_t> &sim, const npu_config_t &cfg) {
    RL_CHECK(validate_config(cfg));
    try {
        sim.reset(new npu_sim_t(cfg));
    } catch (const std::bad_alloc &) {
        return failf(status_t::out_of_memory,
                "npu simulator: cannot allocate %d x %lld bytes of local "
                "memory",
                cfg.npu_num, (long long)cfg.lmem_bytes);
    }
    return status_t::success;
}

void npu_sim_t::fill(uint8_t byte) {
    std::memset(mem_.data(), byte, mem_.size());
}

status_t npu_sim_t::write_lane(int npu, int64_t offset, const void *src, size_t n) {
    if (npu < 0 || npu >= cfg_.npu_num || offset < 0
            || (uint64_t)offset + n > (uint64_t)cfg_.lmem_bytes)
        return failf(status_t::invalid_arguments,
                "npu simulator: write of %zu bytes at NPU %d offset %lld is "
                "outside local memory",
                n, npu, (long long)offset);
    if (n) std::memcpy(lane(npu) + offset, src, n);
    return status_t::success;
}

status_t npu_sim_t::read_lane(int npu, int64_t offset, void *dst, size_t n) const {
    if (npu < 0 || npu >= cfg_.npu_num || offset < 0
            || (uint64_t)offset + n > (uint64_t)cfg_.lmem_bytes)
        return failf(status_t::invalid_arguments,
                "npu simulator: read of %zu bytes at NPU %d offset %lld is "
                "outside local memory",
                n, npu, (long long)offset);
    if (n) std::memcpy(dst, lane(npu) + offset, n);
    return status_t::success;
}

status_t npu_sim_t::execute(const dma_program_t &prog, const void *sys, size_t sys_bytes) {
    for (size_t i = 0; i < prog.cmds.size(); ++i) {
        const dma_dir_t d = prog.cmds[i].dir;
        if (d == dma_dir_t::l2s || d == dma_dir_t::s2s)
            return failf(status_t::invalid_arguments,
                    "DMA command %zu (%s) writes system memory, but the "
                    "system buffer is read-only",
                    i, dma_dir_name(d));
    }
    return execute(prog, const_cast<void *>(sys), sys_bytes);
}

status_t npu_sim_t::execute(const dma_program_t &prog, void *sys, size_t sys_bytes) {
    if (sys == nullptr && sys_bytes != 0)
        return failf(status_t::invalid_arguments,
                "npu simulator: system buffer is NULL but sys_bytes is %zu", sys_bytes);
    // Everything is checked before the first byte moves.
    RL_CHECK(validate_program(cfg_, prog, (int64_t)sys_bytes));
    try {
        for (const auto &c : prog.cmds)
            run(c, static_cast<uint8_t *>(sys));
    } catch (const std::bad_alloc &) {
        // Only the staging buffer of an overlapping command allocates.
        return failf(status_t::out_of_memory,
                "npu simulator: out of memory staging an overlapping DMA "
                "command");
    }
    return status_t::success;
}

void npu_sim_t::run(const dma_cmd_t &c, uint8_t *sys) {
    const int64_t N = c.shape[0], C = c.shape[1], H = c.shape[2], W = c.shape[3];
    if (N == 0 || C == 0 || H == 0 || W == 0) return;
    const int64_t eb = dma_fmt_bytes(c.fmt);
    const int X = cfg_.npu_num;
    const side_ptr_t src{ &c.src, c.src.is_local ? mem_.data() : sys, lane_bytes_, X, eb };
    const side_ptr_t dst{ &c.dst, c.dst.is_local ? mem_.data() : sys, lane_bytes_, X, eb };

    // Source and destination in the same memory may share bytes.
    bool staged = false;
    if (c.src.is_local == c.dst.is_local) {
        int64_t slo, shi, dlo, dhi;
        side_byte_range(cfg_, c, c.src, slo, shi);
        side_byte_range(cfg_, c, c.dst, dlo, dhi);
        staged = ranges_intersect(slo, shi, dlo, dhi);
    }
    // Destination elements that overlap each other: run serially.
    int64_t cnt[4] = { N, C, H, W };
    if (c.dst.is_local) cnt[1] = (c.dst.npu + C - 1) / X + 1;
    int64_t ast[4];
    for (int i = 0; i < 4; ++i)
        ast[i] = std::llabs(c.dst.stride[i]);
    const bool serial = !boxes_disjoint(4, cnt, ast);

    // Channels are grouped by the lane they live in (destination lane when
    // the destination is local, else source lane), one task per lane group.
    const dma_side_t *part = c.dst.is_local ? &c.dst : (c.src.is_local ? &c.src : nullptr);
    const int part_npu = part ? part->npu : 0;
    auto for_channels = [&](const auto &fn) {
        if (serial) {
            for (int64_t ch = 0; ch < C; ++ch)
                fn(ch);
            return;
        }
        // A static balanced split of the lanes over the library's threads
        // (common/threading: RELAYOUT_NUM_THREADS applies, and
        // ThreadSanitizer builds see the split).
        const int nthr = std::max(1, std::min(X, max_threads()));
        parallel(nthr, [&](int ithr, int n) {
            int64_t l0, l1;
            balance211(X, n, ithr, l0, l1);
            for (int64_t lane = l0; lane < l1; ++lane) {
                int64_t ch = ((lane - part_npu) % X + X) % X;
                for (; ch < C; ch += X)
                    fn(ch);
            }
        });
    };
    const bool rows = c.src.stride[3] == 1 && c.dst.stride[3] == 1;
    const size_t row_bytes = (size_t)(W * eb);

    if (!staged) {
        for_channels([&](int64_t ch) {
            uint8_t *s0 = src.channel(ch);
            uint8_t *d0 = dst.channel(ch);
            for (int64_t n = 0; n < N; ++n)
                for (int64_t h = 0; h < H; ++h) {
                    if (rows) {
                        std::memmove(d0 + dst.off(n, h, 0), s0 + src.off(n, h, 0), row_bytes);
                        continue;
                    }
                    for (int64_t w = 0; w < W; ++w)
                        std::memmove(d0 + dst.off(n, h, w), s0 + src.off(n, h, w), (size_t)eb);
                }
        });
        return;
    }
    // Staged: read the whole source, then write the destination.
    std::vector<uint8_t> tmp((size_t)(N * C * H * W * eb));
    auto tmp_at = [&](int64_t ch, int64_t n, int64_t h) {
        return tmp.data() + (size_t)((((ch * N) + n) * H + h) * W * eb);
    };
    for_channels([&](int64_t ch) {
        uint8_t *s0 = src.channel(ch);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t h = 0; h < H; ++h)
                for (int64_t w = 0; w < W; ++w)
                    std::memcpy(tmp_at(ch, n, h) + w * eb, s0 + src.off(n, h, w), (size_t)eb);
    });
    for_channels([&](int64_t ch) {
        uint8_t *d0 = dst.channel(ch);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t h = 0; h < H; ++h)
                for (int64_t w = 0; w < W; ++w)
                    std::memcpy(d0 + dst.off(n, h, w), tmp_at(ch, n, h) + w * eb, (size_t)eb);
    });
}

} // namespace npu
} // namespace impl
} // namespace relayout
