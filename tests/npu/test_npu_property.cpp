// Property tests over random configs, layouts, storage modes and shapes:
//  - every element lands at the address the seed's formula gives (computed
//    here, independently of src/npu);
//  - gather after scatter is the identity, for any pair of system layouts;
//  - dummy slots of 4N / 2N / 2IC are zero;
//  - nothing outside the tensor's footprint changes (local memory is
//    prefilled with a pattern that must survive), in local memory and in
//    the system destination;
//  - a local -> local move puts every element at the destination formula.
#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npu_test_utils.hpp"

namespace relayout {
namespace impl {
namespace npu {
namespace test {

namespace {

const char *k_configs[] = { "custom:4:1024:128", "custom:4:4096:128", "custom:3:2048:16:w1",
    "custom:5:8192:8", "bm1688", "custom:8:16K:64:w1", "custom:1:4096:32" };

struct rng_t {
    std::mt19937_64 g;
    explicit rng_t(uint64_t seed) : g(seed) {}
    int64_t uni(int64_t lo, int64_t hi) { // [lo, hi]
        return std::uniform_int_distribution<int64_t>(lo, hi)(g);
    }
    bool coin(int num, int den) { return uni(0, den - 1) < num; }
};

uint8_t pattern(int lane, int64_t off) {
    return (uint8_t)(lane * 31 + off * 7 + 0x5A);
}

// Strides over `n` (4 dims) in a random nesting order with random gaps.
void random_strides(rng_t &r, const int64_t n[4], int64_t st[4]) {
    int order[4] = { 0, 1, 2, 3 };
    std::shuffle(order, order + 4, r.g);
    int64_t extent = 1;
    bool first = true;
    for (int i : order) {
        const int64_t gap = r.coin(1, 2) ? 0 : r.uni(1, 3);
        st[i] = first ? r.uni(1, 2) : extent + gap;
        if (first) extent = 1;
        extent = extent + (n[i] - 1) * st[i];
        first = false;
    }
}

npu_storage_t random_storage(rng_t &r, relayout_data_type_t dt) {
    if ((dt == relayout_s8 || dt == relayout_u8) && r.coin(1, 2)) return npu_storage_t::mode_4n;
    if ((dt == relayout_s16 || dt == relayout_u16) && r.coin(1, 2)) return npu_storage_t::mode_2n;
    if (dt == relayout_f32 && r.coin(1, 3)) return npu_storage_t::mode_2ic;
    return npu_storage_t::mode_1n;
}

// A random valid local descriptor for dims/dt/storage, or false.
bool random_local(rng_t &r, const npu_config_t &cfg, const int64_t dims[4], relayout_data_type_t dt,
        npu_storage_t st, bool allow_matrix, int64_t matrix_w, npu_local_desc_t &out) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        npu_layout_t layout = (npu_layout_t)r.uni(0, 4);
        if (layout == npu_layout_t::matrix && !allow_matrix) layout = npu_layout_t::compact;
        if (allow_matrix && matrix_w > 0) layout = npu_layout_t::matrix;
        const int64_t ed = t_scalar(dt) * t_pack(st);
        int64_t align = 4;
        if (layout == npu_layout_t::aligned || layout == npu_layout_t::line_aligned
                || layout == npu_layout_t::matrix)
            align = cfg.eu_bytes;
        if (layout == npu_layout_t::free_strides) align = std::min<int64_t>(ed, 4);
        const int64_t q = r.uni(0, cfg.npu_num - 1);
        const int64_t rr = r.uni(0, cfg.lmem_bytes / 2 / align) * align;
        npu_local_desc_t d;
        if (layout == npu_layout_t::matrix) {
            d = make_local_matrix(q * cfg.lmem_bytes + rr, dims[0], dims[1], matrix_w, dt);
        } else if (layout == npu_layout_t::free_strides) {
            const int64_t k = t_pack(st);
            const int64_t n[4] = { t_div_up(dims[0], k), t_div_up(q + dims[1], cfg.npu_num),
                dims[2], dims[3] };
            int64_t s[4];
            random_strides(r, n, s);
            d = make_local_free(q * cfg.lmem_bytes + rr, dims, dt, s, st);
        } else {
            d = make_local_desc(q * cfg.lmem_bytes + rr, dims, dt, layout, st);
        }
        if (validate_local(cfg, d) == status_t::success) {
            out = d;
            return true;
        }
    }
    return false;
}

npu_sys_desc_t random_sys(
        rng_t &r, const int64_t dims[4], relayout_data_type_t dt, npu_storage_t st) {
    const int64_t sd = t_scalar(dt);
    const int64_t off = r.uni(0, 16) * sd;
    if (r.coin(1, 3)) return make_sys_continuous(dims, dt, st, off);
    const int64_t n[4] = { t_div_up(dims[0], t_pack(st)), dims[1], dims[2], dims[3] };
    int64_t s[4];
    random_strides(r, n, s);
    return make_sys_strided(dims, dt, s, st, off);
}

template <typename F>
void for_each_element(const int64_t dims[4], F f) {
    for (int64_t n = 0; n < dims[0]; ++n)
        for (int64_t c = 0; c < dims[1]; ++c)
            for (int64_t h = 0; h < dims[2]; ++h)
                for (int64_t w = 0; w < dims[3]; ++w)
                    f(n, c, h, w);
}

// Dummy slots: batches N .. round_up(N, k) of every (c, h, w).
template <typename F>
void for_each_dummy(const int64_t dims[4], npu_storage_t st, F f) {
    const int64_t k = t_pack(st);
    for (int64_t n = dims[0]; n < t_div_up(dims[0], k) * k; ++n)
        for (int64_t c = 0; c < dims[1]; ++c)
            for (int64_t h = 0; h < dims[2]; ++h)
                for (int64_t w = 0; w < dims[3]; ++w)
                    f(n, c, h, w);
}

class sims_t {
public:
    npu_sim_t &get(const npu_config_t &cfg) {
        auto &p = sims_[cfg.name + std::string(":") + std::to_string(cfg.npu_num) + ":"
                        + std::to_string(cfg.lmem_bytes) + ":" + std::to_string(cfg.eu_bytes) + ":"
                        + std::to_string(cfg.dma_w_stride_one)];
        if (!p) EXPECT_OK(npu_sim_t::create(p, cfg));
        return *p;
    }

private:
    std::map<std::string, std::unique_ptr<npu_sim_t>> sims_;
};

void prefill(npu_sim_t &sim) {
    const auto &cfg = sim.config();
    for (int l = 0; l < cfg.npu_num; ++l)
        for (int64_t i = 0; i < cfg.lmem_bytes; ++i)
            sim.lane(l)[i] = pattern(l, i);
}

} // namespace

TEST(NpuProperty, RandomTransfersAreExactAndStayInTheirFootprint) {
    rng_t r(20240607);
    sims_t sims;
    const relayout_data_type_t dts[] = { relayout_f32, relayout_s32, relayout_f16, relayout_bf16,
        relayout_s16, relayout_u16, relayout_s8, relayout_u8 };
    int done = 0, moved = 0, staged = 0;
    for (int it = 0; it < 300; ++it) {
        const npu_config_t cfg = cfg_of(k_configs[r.uni(0, 6)]);
        const int X = cfg.npu_num;
        const relayout_data_type_t dt = dts[r.uni(0, 7)];
        const npu_storage_t st = random_storage(r, dt);
        const bool matrix = st == npu_storage_t::mode_1n && r.coin(1, 5);
        int64_t dims[4] = { r.uni(1, 9), r.uni(1, 2 * X + 3), r.uni(1, 4), r.uni(1, 9) };
        int64_t mw = 0;
        if (matrix) {
            dims[1] = r.uni(1, 40);
            dims[2] = dims[3] = 1;
            mw = r.uni(1, dims[1]);
        }
        npu_local_desc_t local;
        if (!random_local(r, cfg, dims, dt, st, matrix, mw, local)) continue;
        const npu_storage_t sys_st = r.coin(1, 2) ? st : npu_storage_t::mode_1n;
        const npu_sys_desc_t sys = random_sys(r, dims, dt, sys_st);
        std::ostringstream trace;
        trace << "case " << it << " " << config_str(cfg) << " " << local_desc_str(cfg, local) << " "
              << sys_desc_str(sys);
        SCOPED_TRACE(trace.str());

        npu_sim_t &sim = sims.get(cfg);
        prefill(sim);
        const int sd = t_scalar(dt);
        std::vector<uint8_t> host((size_t)sys_required_bytes(sys));
        for (auto &b : host)
            b = (uint8_t)r.uni(0, 255);
        for_each_dummy(dims, sys_st, [&](int64_t n, int64_t c, int64_t h, int64_t w) {
            std::memset(&host[sys_element_offset(sys, n, c, h, w)], 0, sd);
        });

        npu_transfer_t t;
        ASSERT_OK(scatter(sys, host.data(), host.size(), local, sim, &t));
        staged += t.staged;
        for (const auto &c : t.prog.cmds) {
            ASSERT_LE(c.shape[1], 4095);
            if (cfg.dma_w_stride_one && c.shape[3] > 1) {
                ASSERT_EQ(c.src.stride[3], 1);
                ASSERT_EQ(c.dst.stride[3], 1);
            }
        }

        // Every element at its formula address; record the footprint.
        std::vector<uint8_t> touched((size_t)(X * cfg.lmem_bytes), 0);
        bool ok = true;
        for_each_element(local.dims, [&](int64_t n, int64_t c, int64_t h, int64_t w) {
            if (!ok) return;
            const t_loc_t f = formula_location(cfg, local, n, c, h, w);
            int npu;
            int64_t off;
            ASSERT_OK(element_location(cfg, local, n, c, h, w, npu, off));
            ASSERT_EQ(npu, f.npu);
            ASSERT_EQ(off, f.off);
            ASSERT_GE(f.off, 0);
            ASSERT_LE(f.off + sd, cfg.lmem_bytes);
            const uint8_t *want = &host[sys_element_offset(sys, n, c, h, w)];
            if (std::memcmp(sim.lane(f.npu) + f.off, want, sd) != 0) {
                ok = false;
                ADD_FAILURE() << "element " << n << "," << c << "," << h << "," << w << "\n"
                              << t.listing();
            }
            for (int b = 0; b < sd; ++b) {
                auto &m = touched[(size_t)(f.npu * cfg.lmem_bytes + f.off + b)];
                if (m) {
                    ok = false;
                    ADD_FAILURE() << "two elements share a byte";
                }
                m = 1;
            }
        });
        ASSERT_TRUE(ok);
        for_each_dummy(local.dims, st, [&](int64_t n, int64_t c, int64_t h, int64_t w) {
            const t_loc_t f = formula_location(cfg, local, n, c, h, w);
            for (int b = 0; b < sd; ++b) {
                EXPECT_EQ(sim.lane(f.npu)[f.off + b], 0) << "dummy " << n;
                touched[(size_t)(f.npu * cfg.lmem_bytes + f.off + b)] = 1;
            }
        });
        for (int l = 0; l < X; ++l)
            for (int64_t i = 0; i < cfg.lmem_bytes; ++i)
                if (!touched[(size_t)(l * cfg.lmem_bytes + i)] && sim.lane(l)[i] != pattern(l, i)) {
                    FAIL() << "byte " << i << " of NPU " << l << " changed outside the footprint\n"
                           << t.listing();
                }

        // Gather into another system layout: identity on elements, zero
        // dummies, nothing else written.
        const npu_storage_t st2 = r.coin(1, 2) ? st : npu_storage_t::mode_1n;
        const npu_sys_desc_t sys2 = random_sys(r, dims, dt, st2);
        std::vector<uint8_t> back((size_t)sys_required_bytes(sys2), 0xCD);
        std::vector<uint8_t> back_touched(back.size(), 0);
        ASSERT_OK(gather(local, sim, sys2, back.data(), back.size()));
        for_each_element(dims, [&](int64_t n, int64_t c, int64_t h, int64_t w) {
            const int64_t o2 = sys_element_offset(sys2, n, c, h, w);
            ASSERT_EQ(0, std::memcmp(&back[o2], &host[sys_element_offset(sys, n, c, h, w)], sd))
                    << n << "," << c << "," << h << "," << w;
            std::fill_n(&back_touched[o2], sd, 1);
        });
        for_each_dummy(dims, st2, [&](int64_t n, int64_t c, int64_t h, int64_t w) {
            const int64_t o2 = sys_element_offset(sys2, n, c, h, w);
            for (int b = 0; b < sd; ++b)
                EXPECT_EQ(back[o2 + b], 0);
            std::fill_n(&back_touched[o2], sd, 1);
        });
        for (size_t i = 0; i < back.size(); ++i) {
            if (!back_touched[i]) {
                ASSERT_EQ(back[i], 0xCD) << "byte " << i;
            }
        }
        ++done;

        // Local -> local to a random non-overlapping place.
        npu_local_desc_t dst;
        if (!random_local(r, cfg, dims, dt, st, matrix, mw, dst)) continue;
        npu_transfer_t mt;
        if (plan_l2l(cfg, local, dst, mt) != status_t::success) {
            ASSERT_NE(last_error_message().find("share local memory"), std::string::npos)
                    << last_error_message();
            continue;
        }
        std::vector<uint8_t> before(sim.lane(0), sim.lane(0) + X * cfg.lmem_bytes);
        ASSERT_OK(execute_transfer(mt, sim, nullptr, nullptr, 0));
        std::vector<uint8_t> dst_touched(before.size(), 0);
        for_each_element(dims, [&](int64_t n, int64_t c, int64_t h, int64_t w) {
            const t_loc_t s = formula_location(cfg, local, n, c, h, w);
            const t_loc_t d = formula_location(cfg, dst, n, c, h, w);
            ASSERT_EQ(0, std::memcmp(sim.lane(d.npu) + d.off,
                                 &before[(size_t)(s.npu * cfg.lmem_bytes + s.off)], sd))
                    << "L2L " << n << "," << c << "," << h << "," << w << "\n"
                    << local_desc_str(cfg, dst) << "\n"
                    << mt.prog.listing();
            std::fill_n(&dst_touched[(size_t)(d.npu * cfg.lmem_bytes + d.off)], sd, 1);
        });
        for_each_dummy(dims, st, [&](int64_t n, int64_t c, int64_t h, int64_t w) {
            const t_loc_t d = formula_location(cfg, dst, n, c, h, w);
            for (int b = 0; b < sd; ++b)
                EXPECT_EQ(sim.lane(d.npu)[d.off + b], 0);
            std::fill_n(&dst_touched[(size_t)(d.npu * cfg.lmem_bytes + d.off)], sd, 1);
        });
        for (size_t i = 0; i < before.size(); ++i)
            if (!dst_touched[i] && sim.lane(0)[i] != before[i])
                FAIL() << "L2L changed byte " << i % cfg.lmem_bytes << " of NPU "
                       << i / cfg.lmem_bytes;
        ++moved;
    }
    // The generator of cases must actually exercise things.
    EXPECT_GT(done, 200);
    EXPECT_GT(moved, 50);
    EXPECT_GT(staged, 20);
}

} // namespace test
} // namespace npu
} // namespace impl
} // namespace relayout
