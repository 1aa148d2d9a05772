// Helpers of the NPU tests. The formula here is written from the seed's
// text (DESIGN.md §7), independently of src/npu, so that the tests check
// the library against the specification rather than against itself.
#ifndef RELAYOUT_TESTS_NPU_TEST_UTILS_HPP
#define RELAYOUT_TESTS_NPU_TEST_UTILS_HPP

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "common/status.hpp"
#include "npu/npu_api.hpp"

namespace relayout {
namespace impl {
namespace npu {
namespace test {

inline npu_config_t cfg_of(const std::string &s) {
    npu_config_t c{};
    EXPECT_EQ(parse_config(c, s), status_t::success) << s << ": " << last_error_message();
    return c;
}

// The seed's illustration: X = 4, S = 1024, 128-byte alignment.
inline npu_config_t seed_cfg() {
    return cfg_of("custom:4:1024:128");
}

inline int64_t t_div_up(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

inline int t_scalar(relayout_data_type_t dt) {
    switch (dt) {
        case relayout_s8:
        case relayout_u8: return 1;
        case relayout_s16:
        case relayout_u16:
        case relayout_f16:
        case relayout_bf16: return 2;
        default: return 4;
    }
}

inline int t_pack(npu_storage_t s) {
    return s == npu_storage_t::mode_4n ? 4 : s == npu_storage_t::mode_1n ? 1 : 2;
}

struct t_loc_t {
    int npu;
    int64_t off;
};

// Location of logical element (n, c, h, w) by the seed's formulas.
inline t_loc_t formula_location(const npu_config_t &cfg, const npu_local_desc_t &d, int64_t n,
        int64_t c, int64_t h, int64_t w) {
    const int64_t X = cfg.npu_num, S = cfg.lmem_bytes, eu = cfg.eu_bytes;
    const int64_t k = t_pack(d.storage);
    const int64_t sd = t_scalar(d.data_type), ed = sd * k;
    const int64_t Q = d.addr / S, R = d.addr % S;
    int64_t C = d.dims[1], H = d.dims[2], W = d.dims[3];
    if (d.layout == npu_layout_t::matrix) {
        const int64_t col = c;
        c = col / d.matrix_w;
        w = col % d.matrix_w;
        h = 0;
        C = t_div_up(d.dims[1], d.matrix_w);
        H = 1;
        W = d.matrix_w;
    }
    const int64_t cpn = t_div_up(Q + C, X);
    int64_t ns = 0, cs = 0, hs = 0, ws = 0;
    switch (d.layout) {
        case npu_layout_t::aligned:
        case npu_layout_t::matrix:
            ws = 1;
            hs = W;
            cs = t_div_up(H * W * ed, eu) * eu / ed;
            ns = cpn * cs;
            break;
        case npu_layout_t::compact:
            ws = 1;
            hs = W;
            cs = H * W;
            ns = cpn * cs;
            break;
        case npu_layout_t::line_aligned:
            ws = 1;
            hs = t_div_up(W * ed, eu) * eu / ed;
            cs = H * hs;
            ns = cpn * cs;
            break;
        case npu_layout_t::free_strides:
            ns = d.strides[0];
            cs = d.strides[1];
            hs = d.strides[2];
            ws = d.strides[3];
            break;
    }
    t_loc_t l;
    l.npu = (int)((Q + c) % X);
    l.off = R + ((Q + c) / X * cs + (n / k) * ns + h * hs + w * ws) * ed + (n % k) * sd;
    return l;
}

#define EXPECT_OK(expr)                                                                            \
    do {                                                                                           \
        const ::relayout::impl::status_t st_ = (expr);                                             \
        EXPECT_EQ(st_, ::relayout::impl::status_t::success)                                        \
                << ::relayout::impl::last_error_message();                                         \
    } while (0)
#define ASSERT_OK(expr)                                                                            \
    do {                                                                                           \
        const ::relayout::impl::status_t st_ = (expr);                                             \
        ASSERT_EQ(st_, ::relayout::impl::status_t::success)                                        \
                << ::relayout::impl::last_error_message();                                         \
    } while (0)

} // namespace test
} // namespace npu
} // namespace impl
} // namespace relayout

#endif
