// Reorder layouts through the public API: plain <-> blocked with tails,
// blocked <-> blocked, multi-level and non-nesting blocks, permutations,
// strided and submemory operands, zero-volume and one-element tensors,
// format_tag::any, set_data_handle, verbose output and the primitive cache.
// Spec: DESIGN §2.3 (padding written with zeros, offset0, zero volume),
// §3.3 (cache), §11 (writes stay inside the destination, src never written).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <unistd.h>

#include "api_test_utils.hpp"

using namespace api_test;

namespace {

constexpr uint8_t sentinel = 0xEE;
constexpr size_t guard = 4096;

// A buffer with guard zones on both sides to catch writes out of bounds.
struct guarded_t {
    std::vector<uint8_t> raw;
    size_t size;
    explicit guarded_t(size_t n, uint8_t fill = sentinel)
            : raw(n + 2 * guard + 64, fill), size(n) {}
    uint8_t *data() {
        auto a = reinterpret_cast<uintptr_t>(raw.data() + guard);
        return raw.data() + guard + ((64 - a % 64) % 64);
    }
    void fill(uint8_t v) { std::fill(raw.begin(), raw.end(), v); }
    bool guards_intact() {
        const uint8_t *d = data();
        for (const uint8_t *p = raw.data(); p < d; ++p)
            if (*p != sentinel) return false;
        for (const uint8_t *p = d + size; p < raw.data() + raw.size(); ++p)
            if (*p != sentinel) return false;
        return true;
    }
};

uint16_t f16_bits_of_small(float v) {
    // Exact for the small integers the tests store.
    if (v == 0.f) return 0;
    int e;
    const float m = std::frexp(std::fabs(v), &e); // v = m * 2^e, m in [0.5, 1)
    const uint16_t mant = uint16_t((m * 2.f - 1.f) * 1024.f);
    return uint16_t((v < 0 ? 0x8000 : 0) | ((e - 1 + 15) << 10) | mant);
}

void store_value(dt t, void *p, double v) {
    switch (t) {
        case dt::f32: {
            float f = (float)v;
            std::memcpy(p, &f, 4);
            break;
        }
        case dt::bf16: {
            uint16_t b = uint16_t(f2u((float)v) >> 16);
            std::memcpy(p, &b, 2);
            break;
        }
        case dt::f16: {
            uint16_t h = f16_bits_of_small((float)v);
            std::memcpy(p, &h, 2);
            break;
        }
        case dt::s32: {
            int32_t i = (int32_t)v;
            std::memcpy(p, &i, 4);
            break;
        }
        case dt::s16: {
            int16_t i = (int16_t)v;
            std::memcpy(p, &i, 2);
            break;
        }
        case dt::u16: {
            uint16_t i = (uint16_t)v;
            std::memcpy(p, &i, 2);
            break;
        }
        case dt::s8: {
            int8_t i = (int8_t)v;
            std::memcpy(p, &i, 1);
            break;
        }
        case dt::u8: {
            uint8_t i = (uint8_t)v;
            std::memcpy(p, &i, 1);
            break;
        }
        default: break;
    }
}

double logical_value(dim_t l, dt sdt, dt ddt) {
    if (sdt == dt::f32 && ddt == dt::f32) return double(l + 1);
    return double((l * 7) % 127 + 1); // 1..127: exact in every type
}

bool all_zero(const void *p, size_t n) {
    const auto *b = static_cast<const uint8_t *>(p);
    for (size_t i = 0; i < n; ++i)
        if (b[i]) return false;
    return true;
}

// Reorders s -> d and checks: every logical element arrives; every padded
// element of d is zero (d starts as garbage); every byte of d that no padded
// position addresses is untouched; nothing outside d is written; the source
// is unchanged. `dst_parent_size` > 0 when d is a view into a larger buffer.
void check_reorder(const memory::desc &s, const memory::desc &d, size_t dst_buf_size = 0,
        size_t src_buf_size = 0) {
    const layout_t ls = layout_of(s), ld = layout_of(d);
    const dt sdt = s.get_data_type(), ddt = d.get_data_type();
    guarded_t src(src_buf_size ? src_buf_size : s.get_size(), 0x7F);
    guarded_t dst(dst_buf_size ? dst_buf_size : d.get_size());
    src.fill(sentinel);
    for_each_pos(ls.dims, [&](const dims_t &p, dim_t l) {
        store_value(sdt, elem_ptr(src.data(), ls, p), logical_value(l, sdt, ddt));
    });
    memory sm(s, cpu_engine(), src.data()), dm(d, cpu_engine(), dst.data());
    // Garbage everywhere in dst, padding included, after the memory exists.
    dst.fill(sentinel);
    const std::vector<uint8_t> src_before = src.raw;
    run_reorder(sm, dm);

    EXPECT_TRUE(src.raw == src_before) << "the source was written";
    EXPECT_TRUE(dst.guards_intact()) << "a write landed outside the destination buffer";
    std::vector<bool> touched(dst.size, false);
    int errors = 0;
    for_each_pos(ld.padded, [&](const dims_t &p, dim_t) {
        const dim_t off = offset_of(ld, p);
        const size_t byte = size_t(off) * ld.esz;
        ASSERT_LE(byte + ld.esz, dst.size);
        for (size_t k = 0; k < ld.esz; ++k)
            touched[byte + k] = true;
        const uint8_t *e = dst.data() + byte;
        if (is_padding(ld, p)) {
            if (!all_zero(e, ld.esz) && errors++ < 5)
                ADD_FAILURE() << "padding not zero at offset " << off;
        } else {
            dim_t l = 0;
            for (int k = 0; k < ld.ndims; ++k)
                l = l * ld.dims[k] + p[k];
            const double want = logical_value(l, sdt, ddt), got = value_at(ddt, e);
            if (got != want && errors++ < 5)
                ADD_FAILURE() << "element " << l << " at offset " << off << ": got " << got
                              << " want " << want;
        }
    });
    size_t untouched_changed = 0;
    for (size_t b = 0; b < dst.size; ++b)
        if (!touched[b] && dst.data()[b] != sentinel) ++untouched_changed;
    EXPECT_EQ(untouched_changed, 0u) << "bytes outside the tensor's positions were written";
    EXPECT_EQ(errors, 0) << s.str() << " -> " << d.str();
}

struct layout_case_t {
    const char *name;
    dims_t dims;
    std::string stag, dtag;
    dt sdt, ddt;
};
API_TEST_PRINT_BY_NAME(layout_case_t)

} // namespace

class ReorderLayout : public ::testing::TestWithParam<layout_case_t> {};

TEST_P(ReorderLayout, MovesEveryElementAndZeroesThePadding) {
    const auto &c = GetParam();
    check_reorder(memory::desc(c.dims, c.sdt, c.stag), memory::desc(c.dims, c.ddt, c.dtag));
}

const layout_case_t layout_cases[] = {
    { "nchw_to_aBcd16b_tail", { 2, 17, 5, 3 }, "nchw", "aBcd16b", dt::f32, dt::f32 },
    { "aBcd16b_to_nchw_tail", { 2, 17, 5, 3 }, "aBcd16b", "nchw", dt::f32, dt::f32 },
    { "nchw_to_nChw8c", { 2, 17, 5, 3 }, "nchw", "nChw8c", dt::f32, dt::f32 },
    { "nChw8c_to_nChw16c", { 2, 17, 5, 3 }, "nChw8c", "nChw16c", dt::f32, dt::f32 },
    { "nChw16c_to_nChw8c", { 2, 17, 5, 3 }, "nChw16c", "nChw8c", dt::f32, dt::f32 },
    { "nhwc_to_nChw16c", { 3, 33, 2, 5 }, "nhwc", "nChw16c", dt::f32, dt::f32 },
    { "nChw16c_to_nhwc", { 3, 33, 2, 5 }, "nChw16c", "nhwc", dt::f32, dt::f32 },
    { "oihw_to_OIhw4i16o4i", { 20, 17, 3, 3 }, "oihw", "OIhw4i16o4i", dt::f32, dt::f32 },
    { "OIhw4i16o4i_to_OIhw16i16o", { 20, 17, 3, 3 }, "OIhw4i16o4i", "OIhw16i16o", dt::f32,
            dt::f32 },
    { "OIhw16i16o_to_OIhw4i16o4i", { 20, 17, 3, 3 }, "OIhw16i16o", "OIhw4i16o4i", dt::f32,
            dt::f32 },
    { "OIhw8i16o2i_to_OIhw16i16o", { 20, 17, 3, 3 }, "OIhw8i16o2i", "OIhw16i16o", dt::f32,
            dt::f32 },
    { "OIhw16i16o_to_OIhw8i16o2i", { 20, 17, 3, 3 }, "OIhw16i16o", "OIhw8i16o2i", dt::f32,
            dt::f32 },
    { "OIhw4i16o4i_to_OIhw8i16o2i", { 33, 18, 1, 2 }, "OIhw4i16o4i", "OIhw8i16o2i", dt::s8,
            dt::s8 },
    { "OIhw16i16o_to_OIhw16o16i", { 20, 17, 3, 3 }, "OIhw16i16o", "OIhw16o16i", dt::f32, dt::f32 },
    { "BA16a64b4a_to_BA16a48b4a", { 70, 100 }, "BA16a64b4a", "BA16a48b4a", dt::f32, dt::f32 },
    { "BA16a48b4a_to_BA16a64b4a", { 70, 100 }, "BA16a48b4a", "BA16a64b4a", dt::f32, dt::f32 },
    { "ab_to_BA16a48b4a_s8", { 65, 49 }, "ab", "BA16a48b4a", dt::s8, dt::s8 },
    { "goihw_to_gOIhw16i16o", { 2, 20, 17, 3, 3 }, "goihw", "gOIhw16i16o", dt::f32, dt::f32 },
    { "gOIhw4i16o4i_to_goihw", { 2, 20, 17, 1, 3 }, "gOIhw4i16o4i", "goihw", dt::f32, dt::f32 },
    { "nchw_to_nhwc", { 2, 3, 4, 5 }, "nchw", "nhwc", dt::f32, dt::f32 },
    { "nhwc_to_nchw", { 2, 3, 4, 5 }, "nhwc", "nchw", dt::f32, dt::f32 },
    { "chwn_to_nchw", { 2, 3, 4, 5 }, "chwn", "nchw", dt::f32, dt::f32 },
    { "abcdef_to_defcab", { 2, 3, 4, 5, 2, 3 }, "abcdef", "defcab", dt::f32, dt::f32 },
    { "defcab_to_abcdef", { 2, 3, 4, 5, 2, 3 }, "defcab", "abcdef", dt::f32, dt::f32 },
    { "ncdhw_to_ndhwc", { 2, 5, 3, 4, 3 }, "ncdhw", "ndhwc", dt::f32, dt::f32 },
    { "string_ABcd4b16a4b", { 19, 35, 2, 1 }, "abcd", "ABcd4b16a4b", dt::f32, dt::f32 },
    { "string_x_meta", { 2, 21, 3, 2 }, "abx", "aBx8b", dt::f32, dt::f32 },
    { "one_element_1d", { 1 }, "a", "a", dt::f32, dt::f32 },
    { "one_element_to_blocked", { 1, 1, 1, 1 }, "nchw", "nChw16c", dt::f32, dt::f32 },
    { "one_element_from_blocked", { 1, 1, 1, 1 }, "OIhw16i16o", "oihw", dt::f32, dt::f32 },
    { "f32_to_bf16_blocked", { 2, 17, 3, 3 }, "nchw", "nChw16c", dt::f32, dt::bf16 },
    { "s8_to_f16_blocked", { 2, 17, 3, 3 }, "nChw16c", "nhwc", dt::s8, dt::f16 },
    { "u8_to_s32_permuted", { 4, 5, 6 }, "abc", "cab", dt::u8, dt::s32 },
    { "f32_to_s8_weights", { 20, 17, 3, 3 }, "oihw", "OIhw4i16o4i", dt::f32, dt::s8 },
    { "large_threaded", { 8, 64, 32, 32 }, "nchw", "nChw16c", dt::f32, dt::f32 },
    { "large_threaded_tail", { 4, 70, 33, 31 }, "nChw16c", "nhwc", dt::f32, dt::f32 },
};
INSTANTIATE_TEST_SUITE_P(Cases, ReorderLayout, ::testing::ValuesIn(layout_cases),
        [](const ::testing::TestParamInfo<layout_case_t> &i) { return std::string(i.param.name); });

// ---- strided operands with gaps ----------------------------------------------------

TEST(ReorderStrided, GapsInTheDestinationAreNotWritten) {
    // dst rows of 4 with stride 8: elements 4..7 of each row are a gap.
    check_reorder(memory::desc({ 3, 4 }, dt::f32, tag::ab),
            memory::desc({ 3, 4 }, dt::f32, dims_t{ 8, 1 }));
    // Transposed with gaps on both axes.
    check_reorder(memory::desc({ 3, 4 }, dt::f32, dims_t{ 10, 2 }),
            memory::desc({ 3, 4 }, dt::f32, dims_t{ 1, 7 }));
    check_reorder(memory::desc({ 2, 3, 4 }, dt::s8, tag::abc),
            memory::desc({ 2, 3, 4 }, dt::s8, dims_t{ 40, 12, 2 }));
}

TEST(ReorderStrided, BroadcastSourceIsRead) {
    // A 0-stride source dim repeats one row.
    const memory::desc s({ 3, 4 }, dt::f32, dims_t{ 0, 1 }), d({ 3, 4 }, dt::f32, tag::ab);
    std::vector<float> src = { 1, 2, 3, 4 }, dst(12, -1.f);
    memory sm(s, cpu_engine(), src.data()), dm(d, cpu_engine(), dst.data());
    run_reorder(sm, dm);
    EXPECT_EQ(dst, (std::vector<float>{ 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4 }));
}

TEST(ReorderStrided, BroadcastDestinationIsRejected) {
    const memory::desc s({ 3, 4 }, dt::f32, tag::ab), d({ 3, 4 }, dt::f32, dims_t{ 0, 1 });
    expect_error(relayout_invalid_arguments,
            [&] { reorder::primitive_desc(cpu_engine(), s, cpu_engine(), d); });
}

// ---- submemory operands ---------------------------------------------------------------

TEST(ReorderSubmemory, DestinationViewHonoursOffset0AndLeavesNeighbours) {
    const memory::desc parent({ 2, 8, 6, 5 }, dt::f32, tag::nchw);
    const memory::desc view = parent.submemory_desc({ 1, 4, 3, 5 }, { 1, 4, 2, 0 });
    ASSERT_EQ(view.get_offset0(), 370);
    check_reorder(memory::desc({ 1, 4, 3, 5 }, dt::f32, tag::nhwc), view, parent.get_size());
}

TEST(ReorderSubmemory, BlockedDestinationView) {
    const memory::desc parent({ 2, 40, 4, 4 }, dt::f32, tag::nChw16c);
    check_reorder(memory::desc({ 2, 16, 4, 4 }, dt::f32, tag::nchw),
            parent.submemory_desc({ 2, 16, 4, 4 }, { 0, 16, 0, 0 }), parent.get_size());
    // The tail block: its padding (channels 40..47) is the parent's padding.
    check_reorder(memory::desc({ 1, 8, 2, 4 }, dt::f32, tag::nchw),
            parent.submemory_desc({ 1, 8, 2, 4 }, { 1, 32, 2, 0 }), parent.get_size());
}

TEST(ReorderSubmemory, SourceViewReadsTheRegion) {
    const dims_t pdims = { 2, 40, 4, 4 }, offs = { 0, 16, 1, 0 }, vdims = { 2, 16, 2, 4 };
    const memory::desc parent(pdims, dt::f32, tag::nChw16c);
    const memory::desc view = parent.submemory_desc(vdims, offs);
    const layout_t lp = layout_of(parent);
    // Slack after the parent: see AdjacentBuffersAreNotAnOverlap for why.
    std::vector<float> pbuf((parent.get_size() + view.get_size()) / 4, 0.f);
    for_each_pos(pdims, [&](const dims_t &p, dim_t l) { pbuf[offset_of(lp, p)] = float(l); });
    const memory::desc dmd(vdims, dt::f32, tag::nchw);
    std::vector<float> dst(volume(vdims), -1.f);
    memory sm(view, cpu_engine(), pbuf.data()), dm(dmd, cpu_engine(), dst.data());
    const std::vector<float> before = pbuf;
    run_reorder(sm, dm);
    EXPECT_TRUE(pbuf == before);
    for_each_pos(vdims, [&](const dims_t &p, dim_t l) {
        dims_t pp = p;
        dim_t pl = 0;
        for (int d = 0; d < 4; ++d) {
            pp[d] += offs[d];
            pl = pl * pdims[d] + pp[d];
        }
        ASSERT_EQ(dst[l], float(pl)) << "view element " << l;
    });
}

// A view addresses only its parent's buffer: a buffer that starts right
// after the parent's get_size() bytes does not overlap it.
TEST(ReorderSubmemory, AdjacentBuffersAreNotAnOverlap) {
    const memory::desc parent({ 2, 40, 4, 4 }, dt::f32, tag::nChw16c);
    const memory::desc view = parent.submemory_desc({ 2, 16, 4, 4 }, { 0, 16, 0, 0 });
    const memory::desc plain({ 2, 16, 4, 4 }, dt::f32, tag::nchw);
    const size_t psize = parent.get_size();
    std::vector<float> one((psize + plain.get_size()) / 4, 1.f);
    void *parent_buf = one.data();
    void *after = one.data() + psize / 4;
    // The last element of the view is inside the parent.
    const layout_t lv = layout_of(view);
    EXPECT_LT(size_t(offset_of(lv, { 1, 15, 3, 3 })) * 4, psize);
    {
        memory src(view, cpu_engine(), parent_buf), dst(plain, cpu_engine(), after);
        EXPECT_NO_THROW(run_reorder(src, dst)) << "view as src, dst right after the parent";
    }
    {
        memory src(plain, cpu_engine(), after), dst(view, cpu_engine(), parent_buf);
        EXPECT_NO_THROW(run_reorder(src, dst)) << "view as dst, src right after the parent";
    }
}

TEST(ReorderSubmemory, ViewToView) {
    const memory::desc sparent({ 4, 6 }, dt::f32, tag::ab), dparent({ 5, 7 }, dt::f32, tag::ba);
    const memory::desc sv = sparent.submemory_desc({ 2, 3 }, { 1, 2 });
    const memory::desc dv = dparent.submemory_desc({ 2, 3 }, { 3, 4 });
    std::vector<float> src(24), dst(35, -1.f);
    for (int i = 0; i < 24; ++i)
        src[i] = float(i);
    memory sm(sv, cpu_engine(), src.data()), dm(dv, cpu_engine(), dst.data());
    run_reorder(sm, dm);
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 7; ++j) {
            const float got = dst[j * 5 + i]; // ba
            const bool in = i >= 3 && i < 5 && j >= 4 && j < 7;
            const float want = in ? float((i - 3 + 1) * 6 + (j - 4 + 2)) : -1.f;
            EXPECT_EQ(got, want) << i << "," << j;
        }
}

// ---- zero volume ------------------------------------------------------------------------

TEST(ReorderZeroVolume, NeverTouchesTheHandles) {
    // Handles that would crash if dereferenced.
    void *dangling_src = reinterpret_cast<void *>(uintptr_t(0x10));
    void *dangling_dst = reinterpret_cast<void *>(uintptr_t(0x20));
    const std::vector<std::pair<std::string, std::string>> tags = { { "abc", "acb" },
        { "abc", "aBc16b" }, { "aBc8b", "cba" } };
    for (const auto &t : tags) {
        for (const dims_t &dims : { dims_t{ 2, 0, 3 }, dims_t{ 0, 17, 3 }, dims_t{ 0, 0, 0 } }) {
            const memory::desc s(dims, dt::f32, t.first), d(dims, dt::s8, t.second);
            EXPECT_EQ(s.get_size(), 0u);
            EXPECT_EQ(d.get_size(), 0u);
            memory sm(s, cpu_engine(), dangling_src), dm(d, cpu_engine(), dangling_dst);
            primitive_attr a;
            a.set_scales(RELAYOUT_ARG_SRC, 0, { 2.f });
            a.set_post_ops_sum(1.f);
            EXPECT_NO_THROW(run_reorder(sm, dm, a)) << t.first << " -> " << t.second;
            EXPECT_EQ(dm.get_data_handle(), dangling_dst);
        }
    }
}

TEST(ReorderZeroVolume, AllocatedMemoryWorksToo) {
    const memory::desc md({ 3, 0 }, dt::f32, tag::ab);
    memory a(md, cpu_engine()), b(md, cpu_engine());
    EXPECT_NO_THROW(run_reorder(a, b));
}

// ---- format_tag::any --------------------------------------------------------------------

TEST(ReorderAny, DestinationAnyResolvesToAConcreteLayout) {
    const dims_t dims = { 2, 17, 5, 3 };
    const memory::desc s(dims, dt::f32, tag::nhwc), any(dims, dt::bf16, tag::any);
    const reorder::primitive_desc pd(cpu_engine(), s, cpu_engine(), any);
    const memory::desc d = pd.dst_desc();
    EXPECT_EQ(d.get_format_kind(), memory::format_kind::blocked);
    EXPECT_EQ(d.get_dims(), dims);
    EXPECT_EQ(d.get_data_type(), dt::bf16);
    EXPECT_GT(d.get_size(), 0u);
    EXPECT_TRUE(pd.src_desc() == s);
    check_reorder(s, d);
    // A memory cannot be made from an `any` descriptor.
    expect_error(relayout_invalid_arguments, [&] { memory(any, cpu_engine()); });
}

TEST(ReorderAny, PreferredLayoutFollowsDataTypeAndIsa) {
    const dims_t dims = { 2, 17, 5, 3 };
    const engine eng = cpu_engine();
    const auto tag_of = [&](dt t) {
        const memory::desc p = memory::desc(dims, t, tag::any).preferred(eng);
        EXPECT_EQ(p.get_format_kind(), memory::format_kind::blocked);
        return p;
    };
    // int8 activations: channels last.
    EXPECT_TRUE(tag_of(dt::s8) == memory::desc(dims, dt::s8, tag::nhwc));
    EXPECT_TRUE(tag_of(dt::u8) == memory::desc(dims, dt::u8, tag::nhwc));
    // s32 and 2-D tensors: plain.
    EXPECT_TRUE(tag_of(dt::s32) == memory::desc(dims, dt::s32, tag::nchw));
    EXPECT_TRUE(memory::desc({ 7, 9 }, dt::f32, tag::any).preferred(eng)
                == memory::desc({ 7, 9 }, dt::f32, tag::ab));
    // Floating point: channels blocked by the vector width of the ISA.
    relayout::set_max_cpu_isa(relayout_cpu_isa_avx2);
    EXPECT_TRUE(tag_of(dt::f32) == memory::desc(dims, dt::f32, tag::nChw8c));
    relayout::set_max_cpu_isa(relayout_cpu_isa_default);
    const relayout_cpu_isa_t eff = relayout::get_effective_cpu_isa();
    const bool avx512 =
            eff == relayout_cpu_isa_avx512_core || eff == relayout_cpu_isa_avx512_core_bf16;
    EXPECT_TRUE(
            tag_of(dt::bf16) == memory::desc(dims, dt::bf16, avx512 ? tag::nChw16c : tag::nChw8c));
    // A concrete descriptor comes back unchanged.
    const memory::desc plain(dims, dt::f32, tag::nhwc);
    EXPECT_TRUE(plain.preferred(eng) == plain);
    // A reorder into `any` uses the preferred layout.
    const reorder::primitive_desc pd(eng, plain, eng, memory::desc(dims, dt::s8, tag::any));
    EXPECT_TRUE(pd.dst_desc() == memory::desc(dims, dt::s8, tag::nhwc));
}

TEST(ReorderAny, NpuEngineHasNoPreferredLayout) {
    const engine npu(engine::kind::npu, 1);
    const std::string what = expect_error(relayout_invalid_arguments, [&] {
        memory::desc({ 1, 4, 2, 2 }, dt::f32, tag::any).preferred(npu);
    });
    EXPECT_NE(what.find("address"), std::string::npos) << what;
}

// ---- chains of reorders ----------------------------------------------------------------------

// Runs src_md -> mid_md -> dst_md as two reorders and as the fused chain;
// both destinations must be byte-identical.
void expect_chain_matches_steps(const memory::desc &a, const memory::desc &b, const memory::desc &c,
        const primitive_attr &last) {
    const engine &eng = cpu_engine();
    std::vector<uint8_t> src(a.get_size());
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = uint8_t((i * 37 + 11) % 97);
    if (a.get_data_type() == dt::f32)
        for (size_t i = 0; i < src.size() / 4; ++i) {
            const float v = float(int(i % 41) - 20) * 0.75f;
            std::memcpy(&src[i * 4], &v, 4);
        }
    memory ma(a, eng, src.data()), mb(b, eng), mc1(c, eng), mc2(c, eng);
    reorder(ma, mb).execute(cpu_stream(), ma, mb);
    reorder(reorder::primitive_desc(eng, b, eng, c, last)).execute(cpu_stream(), mb, mc1);
    const auto pd =
            reorder::primitive_desc::chain(eng, { a, b, c }, eng, { primitive_attr(), last });
    EXPECT_EQ(pd.plan_str().rfind("chain of 2 fused", 0), 0u) << pd.plan_str();
    EXPECT_TRUE(pd.src_desc() == a);
    EXPECT_TRUE(pd.dst_desc() == c);
    reorder(pd).execute(cpu_stream(), ma, mc2);
    EXPECT_EQ(std::memcmp(mc1.get_data_handle(), mc2.get_data_handle(), c.get_size()), 0);
}

TEST(ReorderChain, LayoutStepsFuseIntoOneReorder) {
    const dims_t dims = { 2, 19, 5, 3 };
    primitive_attr scale;
    scale.set_scales(RELAYOUT_ARG_SRC, 0, { 0.5f });
    expect_chain_matches_steps(memory::desc(dims, dt::f32, tag::nchw),
            memory::desc(dims, dt::f32, tag::nChw16c), memory::desc(dims, dt::s8, tag::nhwc),
            scale);
}

TEST(ReorderChain, ExactWideningFuses) {
    const dims_t dims = { 3, 17, 4, 2 };
    primitive_attr none;
    expect_chain_matches_steps(memory::desc(dims, dt::s8, tag::nhwc),
            memory::desc(dims, dt::f32, tag::nChw8c), memory::desc(dims, dt::s8, tag::nchw), none);
}

TEST(ReorderChain, ValueChangesBeforeTheLastStepAreRefused) {
    const engine &eng = cpu_engine();
    const dims_t dims = { 2, 8, 3, 3 };
    const memory::desc a(dims, dt::f32, tag::nchw), b(dims, dt::f32, tag::nhwc),
            c(dims, dt::s8, tag::nChw8c);
    primitive_attr scale, none;
    scale.set_scales(RELAYOUT_ARG_SRC, 0, { 2.f });
    std::string what = expect_error(relayout_unimplemented, [&] {
        reorder::primitive_desc::chain(eng, { a, b, c }, eng, { scale, none });
    });
    EXPECT_TRUE(contains_ci(what, "step 0")) << what;
    // f32 -> s8 -> f32 loses the fractions.
    const memory::desc lossy(dims, dt::s8, tag::nhwc), back(dims, dt::f32, tag::nchw);
    what = expect_error(relayout_unimplemented, [&] {
        reorder::primitive_desc::chain(eng, { a, lossy, back }, eng);
    });
    EXPECT_TRUE(contains_ci(what, "exactly")) << what;
    // f16 -> f32 -> f16: fused it would copy bits the chain converts.
    const memory::desc h(dims, dt::f16, tag::nchw), f(dims, dt::f32, tag::nhwc),
            h2(dims, dt::f16, tag::nChw8c);
    expect_error(relayout_unimplemented, [&] {
        reorder::primitive_desc::chain(eng, { h, f, h2 }, eng);
    });
    // Mismatched dims are the caller's error.
    const memory::desc other({ 2, 8, 3, 4 }, dt::f32, tag::nchw);
    expect_error(relayout_invalid_arguments, [&] {
        reorder::primitive_desc::chain(eng, { a, other, c }, eng);
    });
}

// ---- set_data_handle and user buffers ------------------------------------------------------

TEST(MemoryHandle, SetDataHandleZeroFillsThePadding) {
    const memory::desc md({ 1, 17, 2, 1 }, dt::f32, tag::nChw16c);
    const layout_t l = layout_of(md);
    std::vector<uint8_t> buf(md.get_size(), 0xFF);
    memory m(md, cpu_engine(), nullptr);
    EXPECT_EQ(m.get_data_handle(), nullptr);
    m.set_data_handle(buf.data());
    EXPECT_EQ(m.get_data_handle(), buf.data());
    int pad = 0;
    for_each_pos(l.padded, [&](const dims_t &p, dim_t) {
        const uint8_t *e = buf.data() + offset_of(l, p) * 4;
        if (is_padding(l, p)) {
            ++pad;
            EXPECT_TRUE(all_zero(e, 4)) << "padding c=" << p[1];
        } else {
            EXPECT_EQ(e[0], 0xFF) << "data c=" << p[1] << " was modified";
        }
    });
    EXPECT_EQ(pad, 15 * 2);
    // Again on a dirty buffer, through the stream overload.
    std::fill(buf.begin(), buf.end(), 0xFF);
    m.set_data_handle(buf.data(), cpu_stream());
    for_each_pos(l.padded, [&](const dims_t &p, dim_t) {
        if (is_padding(l, p)) {
            EXPECT_TRUE(all_zero(buf.data() + offset_of(l, p) * 4, 4));
        }
    });
}

TEST(MemoryHandle, CreationOnAUserBufferZeroFillsThePadding) {
    const memory::desc md({ 3, 5 }, dt::s8, tag::AB16b16a);
    std::vector<uint8_t> buf(md.get_size(), 0x11);
    memory m(md, cpu_engine(), buf.data());
    const layout_t l = layout_of(md);
    for_each_pos(l.padded, [&](const dims_t &p, dim_t) {
        EXPECT_EQ(buf[offset_of(l, p)], is_padding(l, p) ? 0 : 0x11);
    });
}

TEST(MemoryHandle, LibraryAllocatedMemoryHasZeroPadding) {
    const memory::desc md({ 2, 17, 5, 3 }, dt::f32, tag::nChw16c);
    memory m(md, cpu_engine());
    ASSERT_NE(m.get_data_handle(), nullptr);
    EXPECT_TRUE(m.get_desc() == md);
    const layout_t l = layout_of(md);
    for_each_pos(l.padded, [&](const dims_t &p, dim_t) {
        if (is_padding(l, p)) {
            ASSERT_TRUE(all_zero(elem_ptr(m.get_data_handle(), l, p), 4));
        }
    });
    EXPECT_EQ(m.get_engine().get_kind(), engine::kind::cpu);
}

// ---- verbose -----------------------------------------------------------------------------

namespace {
std::vector<std::string> lines_of(const std::string &s) {
    std::vector<std::string> r;
    std::istringstream is(s);
    for (std::string l; std::getline(is, l);)
        r.push_back(l);
    return r;
}
std::vector<std::string> with_prefix(const std::vector<std::string> &ls, const std::string &p) {
    std::vector<std::string> r;
    for (const auto &l : ls)
        if (l.rfind(p, 0) == 0) r.push_back(l);
    return r;
}

// Creates and runs a reorder of a shape no other test uses.
void create_and_run(const dims_t &dims, bool run = true) {
    const memory::desc s(dims, dt::f32, tag::abc), d(dims, dt::f32, tag::cab);
    memory sm(s, cpu_engine()), dm(d, cpu_engine());
    reorder r(reorder::primitive_desc(cpu_engine(), s, cpu_engine(), d));
    if (run) r.execute(cpu_stream(), sm, dm);
}

struct verbose_guard_t {
    verbose_guard_t() { relayout::set_verbose(1); }
    ~verbose_guard_t() { relayout::set_verbose(0); }
};
} // namespace

TEST(Verbose, PrintsACreationAndAnExecutionLine) {
    std::string out;
    {
        verbose_guard_t v;
        testing::internal::CaptureStdout();
        create_and_run({ 3, 29, 7 });
        out = testing::internal::GetCapturedStdout();
    }
    const auto ls = lines_of(out);
    const auto created = with_prefix(ls, "relayout_verbose,create:");
    const auto executed = with_prefix(ls, "relayout_verbose,exec,");
    ASSERT_EQ(created.size(), 1u) << out;
    ASSERT_EQ(executed.size(), 1u) << out;
    EXPECT_NE(created[0].find("3x29x7"), std::string::npos) << created[0];
    EXPECT_NE(executed[0].find("3x29x7"), std::string::npos) << executed[0];

    // Level 0 prints nothing.
    testing::internal::CaptureStdout();
    create_and_run({ 3, 29, 7 });
    EXPECT_EQ(with_prefix(lines_of(testing::internal::GetCapturedStdout()), "relayout_verbose")
                      .size(),
            0u);
}

// The environment variable turns verbose on: run one test of this binary in
// a child process with RELAYOUT_VERBOSE=1.
TEST(Verbose, DISABLED_ChildRunsOneReorder) {
    create_and_run({ 5, 3, 31 });
}

TEST(Verbose, EnvironmentVariableEnablesIt) {
    char exe[4096] = {};
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0) GTEST_SKIP() << "no /proc/self/exe";
    const std::string cmd = std::string("RELAYOUT_VERBOSE=1 '") + exe
                            + "' --gtest_also_run_disabled_tests "
                              "--gtest_filter=Verbose.DISABLED_ChildRunsOneReorder";
    FILE *p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[512];
    while (fgets(buf, sizeof(buf), p))
        out += buf;
    EXPECT_EQ(pclose(p), 0) << out;
    const auto ls = lines_of(out);
    EXPECT_EQ(with_prefix(ls, "relayout_verbose,create:").size(), 1u) << out;
    EXPECT_EQ(with_prefix(ls, "relayout_verbose,exec,").size(), 1u) << out;
}

TEST(Verbose, LevelOutOfRangeIsRejected) {
    expect_error(relayout_invalid_arguments, [] { relayout::set_verbose(3); });
    expect_error(relayout_invalid_arguments, [] { relayout::set_verbose(-1); });
}

// ---- primitive cache ---------------------------------------------------------------------

namespace {
struct capacity_guard_t {
    int saved = relayout::get_primitive_cache_capacity();
    ~capacity_guard_t() { relayout::set_primitive_cache_capacity(saved); }
};

std::vector<std::string> creation_lines(const std::function<void()> &f) {
    verbose_guard_t v;
    testing::internal::CaptureStdout();
    f();
    return with_prefix(
            lines_of(testing::internal::GetCapturedStdout()), "relayout_verbose,create:");
}
bool is_hit(const std::string &l) {
    return l.find("cache_hit") != std::string::npos;
}
bool is_miss(const std::string &l) {
    return l.find("cache_miss") != std::string::npos;
}
} // namespace

TEST(PrimitiveCache, SecondCreationIsAHit) {
    capacity_guard_t g;
    relayout::set_primitive_cache_capacity(16);
    const auto ls = creation_lines([] {
        create_and_run({ 7, 2, 23 }, false);
        create_and_run({ 7, 2, 23 }, false);
    });
    ASSERT_EQ(ls.size(), 2u);
    EXPECT_TRUE(is_miss(ls[0])) << ls[0];
    EXPECT_TRUE(is_hit(ls[1])) << ls[1];
}

TEST(PrimitiveCache, CapacityZeroDisablesIt) {
    capacity_guard_t g;
    relayout::set_primitive_cache_capacity(0);
    EXPECT_EQ(relayout::get_primitive_cache_capacity(), 0);
    const auto ls = creation_lines([] {
        create_and_run({ 7, 3, 23 }, false);
        create_and_run({ 7, 3, 23 }, false);
    });
    ASSERT_EQ(ls.size(), 2u);
    EXPECT_TRUE(is_miss(ls[0])) << ls[0];
    EXPECT_TRUE(is_miss(ls[1])) << ls[1];
}

TEST(PrimitiveCache, LeastRecentlyUsedIsEvicted) {
    capacity_guard_t g;
    relayout::set_primitive_cache_capacity(1);
    const auto ls = creation_lines([] {
        create_and_run({ 7, 4, 23 }, false); // miss
        create_and_run({ 7, 4, 23 }, false); // hit
        create_and_run({ 7, 5, 23 }, false); // miss, evicts the first
        create_and_run({ 7, 4, 23 }, false); // miss again
    });
    ASSERT_EQ(ls.size(), 4u);
    EXPECT_TRUE(is_miss(ls[0]));
    EXPECT_TRUE(is_hit(ls[1]));
    EXPECT_TRUE(is_miss(ls[2]));
    EXPECT_TRUE(is_miss(ls[3]));
}

TEST(PrimitiveCache, CapacityQueryAndSet) {
    capacity_guard_t g;
    EXPECT_GE(relayout::get_primitive_cache_capacity(), 0);
    relayout::set_primitive_cache_capacity(7);
    EXPECT_EQ(relayout::get_primitive_cache_capacity(), 7);
    const std::string what = expect_error(
            relayout_invalid_arguments, [] { relayout::set_primitive_cache_capacity(-1); });
    EXPECT_TRUE(contains_ci(what, "capacity")) << what;
    EXPECT_EQ(relayout::get_primitive_cache_capacity(), 7);
}

TEST(PrimitiveCache, CachedPrimitivesComputeTheSame) {
    capacity_guard_t g;
    relayout::set_primitive_cache_capacity(16);
    const memory::desc s({ 2, 17, 3, 3 }, dt::f32, tag::nchw),
            d({ 2, 17, 3, 3 }, dt::f32, tag::nChw16c);
    check_reorder(s, d);
    check_reorder(s, d); // the second run goes through the cached kernel
}
