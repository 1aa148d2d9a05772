// The planner + reference against the most obvious code there is: a loop
// over logical points with the descriptor offset formula (md_off_l). Any
// refinement, fold or table mistake in the planner shows here.
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "md/format_tag.hpp"
#include "plan/attr.hpp"
#include "ref/numerics.hpp"
#include "ref/ref_reorder.hpp"

namespace relayout {
namespace impl {
namespace {

// Expected dst (bytes) from logical points; padding zero; untouched bytes
// keep the fill pattern.
std::vector<uint8_t> naive(const memory_desc_t &src, const std::vector<uint8_t> &sbuf,
        const memory_desc_t &dst, const std::vector<uint8_t> &dinit) {
    std::vector<uint8_t> out = dinit;
    const size_t ssz = data_type_size(src.data_type), dsz = data_type_size(dst.data_type);
    const int nd = src.ndims;
    dim_t pos[max_ndims] = {};
    dim_t total = 1;
    for (int d = 0; d < nd; ++d)
        total *= dst.padded_dims[d];
    for (dim_t e = 0; e < total; ++e) {
        bool pad = false;
        for (int d = 0; d < nd; ++d)
            pad |= pos[d] >= dst.dims[d];
        const dim_t doff = md_off_l(dst, pos);
        if (pad) {
            std::memset(&out[doff * dsz], 0, dsz);
        } else {
            const float v = load_f32(src.data_type, sbuf.data(), md_off_l(src, pos));
            (void)ssz;
            if (src.data_type == dst.data_type)
                std::memcpy(&out[doff * dsz], &sbuf[md_off_l(src, pos) * ssz], dsz);
            else
                store_f32(dst.data_type, out.data(), doff, v);
        }
        for (int d = nd - 1; d >= 0; --d) {
            if (++pos[d] < dst.padded_dims[d]) break;
            pos[d] = 0;
        }
    }
    return out;
}

std::string random_tag(std::mt19937 &rng, int nd) {
    std::vector<int> order(nd);
    for (int d = 0; d < nd; ++d)
        order[d] = d;
    std::shuffle(order.begin(), order.end(), rng);
    const int kind = rng() % 4;
    std::string s;
    std::string blocks;
    int b1 = rng() % nd, b2 = rng() % nd;
    const int sizes[] = { 2, 3, 4, 8, 16 };
    if (kind >= 1) blocks += std::to_string(sizes[rng() % 5]) + char('a' + b1);
    if (kind >= 2) blocks += std::to_string(sizes[rng() % 5]) + char('a' + b2);
    if (kind >= 3) blocks += std::to_string(sizes[rng() % 4]) + char('a' + b1);
    for (int k = 0; k < nd; ++k) {
        const int d = order[k];
        const bool blk = kind >= 1 && (d == b1 || (kind >= 2 && d == b2));
        s += char((blk ? 'A' : 'a') + d);
    }
    return s + blocks;
}

TEST(ref_vs_naive, random_layout_pairs) {
    std::mt19937 rng(1234);
    const data_type_t dts[] = { relayout_f32, relayout_s8, relayout_bf16, relayout_s32 };
    int cases = 0;
    for (int it = 0; it < 400; ++it) {
        const int nd = 1 + rng() % 5;
        std::vector<dim_t> dims(nd);
        for (auto &d : dims)
            d = 1 + rng() % 7;
        const std::string st = random_tag(rng, nd), dt = random_tag(rng, nd);
        const data_type_t sdt = dts[rng() % 4], ddt = dts[rng() % 4];
        memory_desc_t src, dst;
        ASSERT_EQ(md_init_by_tag(src, nd, dims.data(), sdt, st), status_t::success) << st;
        ASSERT_EQ(md_init_by_tag(dst, nd, dims.data(), ddt, dt), status_t::success) << dt;
        std::vector<uint8_t> sbuf(md_size(src)), dbuf(md_size(dst), 0xA5);
        for (size_t i = 0; i < sbuf.size(); ++i)
            sbuf[i] = uint8_t(rng() % 120);
        const auto want = naive(src, sbuf, dst, dbuf);
        plan_t p;
        ASSERT_EQ(plan_create(p, src, dst, attr_t()), status_t::success);
        exec_ctx_t ctx{ sbuf.data(), dbuf.data(), nullptr, nullptr };
        ASSERT_EQ(ref_reorder_execute(p, ctx), status_t::success);
        ASSERT_EQ(dbuf, want) << st << " -> " << dt << " dims " << dims2str(dims.data(), nd)
                              << " plan " << p.dump();
        ++cases;
    }
    EXPECT_EQ(cases, 400);
}

TEST(zero_pad, writes_only_padding) {
    memory_desc_t md;
    const dim_t dims[4] = { 2, 17, 3, 3 };
    ASSERT_EQ(md_init_by_tag(md, 4, dims, relayout_f32, std::string("aBcd16b")), status_t::success);
    std::vector<float> buf(md_size(md) / 4, 7.f);
    ASSERT_EQ(zero_pad(md, buf.data()), status_t::success);
    size_t zeros = 0;
    for (float v : buf)
        zeros += v == 0.f;
    EXPECT_EQ(zeros, size_t(2 * 15 * 9)); // 15 padded channels per image
}

} // namespace
} // namespace impl
} // namespace relayout
