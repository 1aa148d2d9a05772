// Strided buffer -> strided buffer on the OpenCL device, up to 6 dims,
// f32 / f16 on either side: every element exact (f32 -> f16 rounds to
// nearest even), gaps of the destination untouched.
#include <string>
#include <vector>

#include "ocl/ocl_api.hpp"
#include "ocl_test_utils.hpp"

namespace rl_ocl_test {
namespace {

struct copy_case_t {
    const char *name;
    std::vector<int64_t> dims;
    std::vector<int> src_order; // empty: row-major
    std::vector<int> dst_order;
    bool src_gaps, dst_gaps; // odd strides with gaps and an offset
    relayout_data_type_t sdt, ddt;
};

buffer_desc_t make_desc(const std::vector<int64_t> &dims, const std::vector<int> &order, bool gaps,
        relayout_data_type_t dt) {
    const int n = static_cast<int>(dims.size());
    buffer_desc_t d;
    EXPECT_EQ(buffer_desc_init(&d, n, dims.data(), dt, order.empty() ? nullptr : order.data()),
            status_t::success);
    if (gaps) {
        // Same physical order, each stride padded: s' = s * 2 + 1 pattern.
        std::vector<int> ord(n);
        for (int i = 0; i < n; ++i)
            ord[i] = order.empty() ? i : order[i];
        std::vector<int64_t> st(n);
        int64_t s = 3;
        for (int i = n - 1; i >= 0; --i) {
            st[ord[i]] = s;
            s = s * dims[ord[i]] + 1;
        }
        EXPECT_EQ(
                buffer_desc_init_strided(&d, n, dims.data(), st.data(), dt, 11), status_t::success);
    }
    return d;
}

const copy_case_t copy_cases[] = {
    { "plain_f32", { 5, 7 }, {}, {}, false, false, relayout_f32, relayout_f32 },
    { "nchw_to_nhwc_f32", { 2, 3, 5, 7 }, {}, { 0, 2, 3, 1 }, false, false, relayout_f32,
            relayout_f32 },
    { "nhwc_to_nchw_f32_to_f16", { 2, 3, 5, 7 }, { 0, 2, 3, 1 }, {}, false, false, relayout_f32,
            relayout_f16 },
    { "f16_to_f32_transposed", { 4, 9 }, {}, { 1, 0 }, false, false, relayout_f16, relayout_f32 },
    { "f16_bits_strided", { 3, 4, 5 }, { 2, 0, 1 }, { 1, 2, 0 }, true, true, relayout_f16,
            relayout_f16 },
    { "six_dims_reversed_gaps", { 2, 3, 1, 4, 2, 3 }, {}, { 5, 4, 3, 2, 1, 0 }, false, true,
            relayout_f32, relayout_f32 },
    { "six_dims_f32_to_f16_gaps", { 3, 2, 2, 3, 2, 5 }, { 1, 0, 3, 2, 5, 4 }, {}, true, true,
            relayout_f32, relayout_f16 },
    { "one_dim", { 37 }, {}, {}, true, false, relayout_f32, relayout_f16 },
    { "single_element", { 1, 1, 1 }, {}, {}, true, true, relayout_f32, relayout_f32 },
};

class ocl_copy_test : public ::testing::TestWithParam<copy_case_t> {};

TEST_P(ocl_copy_test, elements_exact_gaps_untouched) {
    RL_OCL_GET_CONTEXT(ctx);
    const copy_case_t &c = GetParam();
    const buffer_desc_t sd = make_desc(c.dims, c.src_order, c.src_gaps, c.sdt);
    const buffer_desc_t dd = make_desc(c.dims, c.dst_order, c.dst_gaps, c.ddt);
    const int n = sd.ndims;
    const int64_t ss = data_type_size(sd.dt), ds = data_type_size(dd.dt);
    std::vector<unsigned char> src(buffer_desc_span_bytes(sd), 0x7f);
    std::vector<unsigned char> dst(buffer_desc_span_bytes(dd), 0x6b);
    const std::vector<unsigned char> dst0 = dst;

    // Values: f16-exact for f16 sources, inexact for f32 sources.
    const int64_t total = buffer_desc_nelems(sd);
    std::vector<int64_t> idx(n, 0);
    std::vector<int64_t> soffs, doffs;
    for (int64_t lin = 0; lin < total; ++lin) {
        int64_t r = lin, so = sd.offset0, dof = dd.offset0;
        for (int d = n - 1; d >= 0; --d) {
            const int64_t i = r % sd.dims[d];
            r /= sd.dims[d];
            so += i * sd.strides[d];
            dof += i * dd.strides[d];
        }
        soffs.push_back(so);
        doffs.push_back(dof);
        const float v = sd.dt == relayout_f16 ? static_cast<float>(lin % 1000 - 500) * 0.25f
                                              : static_cast<float>(lin) * 0.0171f - 2.0f / 3.0f;
        if (sd.dt == relayout_f32) {
            std::memcpy(&src[so * 4], &v, 4);
        } else {
            const uint16_t h = f32_to_f16(v);
            std::memcpy(&src[so * 2], &h, 2);
        }
    }
    cl_ref_t<cl_mem> sb, db;
    ASSERT_EQ(create_buffer(*ctx, src.size(), &sb, src.data()), status_t::success);
    ASSERT_EQ(create_buffer(*ctx, dst.size(), &db, dst.data()), status_t::success);
    ASSERT_EQ(copy_buffer(*ctx, sd, sb.get(), dd, db.get()), status_t::success)
            << last_error_message();
    ASSERT_EQ(clEnqueueReadBuffer(ctx->queue(), db.get(), CL_TRUE, 0, dst.size(), dst.data(), 0,
                      nullptr, nullptr),
            CL_SUCCESS);

    std::vector<bool> written(dst.size(), false);
    int errors = 0;
    for (int64_t lin = 0; lin < total; ++lin) {
        uint32_t sbits = 0, dbits = 0;
        std::memcpy(&sbits, &src[soffs[lin] * ss], ss);
        std::memcpy(&dbits, &dst[doffs[lin] * ds], ds);
        for (int64_t b = 0; b < ds; ++b)
            written[doffs[lin] * ds + b] = true;
        uint32_t want = sbits;
        if (sd.dt == relayout_f32 && dd.dt == relayout_f16)
            want = f32_to_f16(bits_f32(sbits));
        else if (sd.dt == relayout_f16 && dd.dt == relayout_f32)
            want = f32_bits(f16_to_f32(static_cast<uint16_t>(sbits)));
        if (dbits != want && ++errors <= 5)
            ADD_FAILURE() << "element " << lin << ": got 0x" << std::hex << dbits << " want 0x"
                          << want;
    }
    for (size_t b = 0; b < dst.size(); ++b)
        if (!written[b] && dst[b] != dst0[b] && ++errors <= 5)
            ADD_FAILURE() << "gap byte " << b << " was written";
    EXPECT_EQ(errors, 0);
}

INSTANTIATE_TEST_SUITE_P(layouts, ocl_copy_test, ::testing::ValuesIn(copy_cases),
        [](const ::testing::TestParamInfo<copy_case_t> &i) { return std::string(i.param.name); });

TEST(ocl_copy, in_place_refused) {
    RL_OCL_GET_CONTEXT(ctx);
    const int64_t dims[2] = { 4, 4 };
    buffer_desc_t d;
    ASSERT_EQ(buffer_desc_init(&d, 2, dims, relayout_f32), status_t::success);
    cl_ref_t<cl_mem> b;
    ASSERT_EQ(create_buffer(*ctx, 64, &b), status_t::success);
    EXPECT_EQ(copy_buffer(*ctx, d, b.get(), d, b.get()), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("in-place"), std::string::npos);
}

TEST(ocl_copy, overlapping_destination_refused) {
    RL_OCL_GET_CONTEXT(ctx);
    const int64_t dims[2] = { 4, 4 };
    const int64_t st[2] = { 1, 1 };
    buffer_desc_t s, d;
    ASSERT_EQ(buffer_desc_init(&s, 2, dims, relayout_f32), status_t::success);
    ASSERT_EQ(buffer_desc_init_strided(&d, 2, dims, st, relayout_f32), status_t::success);
    std::unique_ptr<kernel_t> k;
    EXPECT_EQ(kernel_t::create_copy(*ctx, s, d, &k), status_t::invalid_arguments);
    EXPECT_NE(last_error_message().find("destination buffer"), std::string::npos)
            << last_error_message();
}

} // namespace
} // namespace rl_ocl_test
