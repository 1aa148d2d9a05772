// Property: for random shapes, random layout pairs (plain permutations and
// one-, two- and three-level blockings) and lossless data-type pairs,
//   A -> B -> A gives back the original, bit for bit, and
//   every padded element of every destination is zero.
// Deterministic: the seed is fixed (RELAYOUT_TEST_SEED overrides it) and
// every failure prints the case so that it can be replayed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "api_test_utils.hpp"

using namespace api_test;

namespace {

// A small deterministic generator (same sequence on every platform).
struct rng_t {
    uint64_t s;
    explicit rng_t(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint32_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return uint32_t(s >> 33);
    }
    int uniform(int lo, int hi) { return lo + int(next() % uint32_t(hi - lo + 1)); }
    template <typename T>
    const T &pick(const std::vector<T> &v) {
        return v[next() % v.size()];
    }
};

std::string random_permutation(rng_t &r, int nd) {
    std::string s;
    for (int d = 0; d < nd; ++d)
        s += char('a' + d);
    for (int i = nd - 1; i > 0; --i)
        std::swap(s[i], s[r.uniform(0, i)]);
    return s;
}

// A random tag: a permutation, then 0..3 inner blocks on random dims.
std::string random_tag(rng_t &r, int nd) {
    static const std::vector<std::string> templates = { "aBx4b", "aBx8b", "aBx16b", "ABx16b16a",
        "ABx4b16a4b", "ABx8b16a2b", "Abx16a", "BAx16a16b", "BAx16a64b4a", "xba" };
    const int kind = r.uniform(0, 4);
    if (kind == 0 && nd >= 2) return r.pick(templates);
    std::string t = random_permutation(r, nd);
    if (kind == 1) return t; // plain
    static const std::vector<int> sizes = { 2, 3, 4, 8, 16 };
    const int nblks = kind == 4 ? 3 : kind - 1; // 1, 2 or 3 levels
    std::string blocks;
    int first = -1;
    for (int b = 0; b < nblks; ++b) {
        // Three levels repeat the first dim outside (like 4b16a4b).
        const int d = (b == 2 && first >= 0) ? first : r.uniform(0, nd - 1);
        if (b == 0) first = d;
        t[t.find(char('a' + d)) != std::string::npos ? t.find(char('a' + d))
                                                     : t.find(char('A' + d))] = char('A' + d);
        blocks += std::to_string(r.pick(sizes)) + char('a' + d);
    }
    return t + blocks;
}

struct dt_pair_t {
    dt a, b;
};
// A -> B is exact for every value of A, so A -> B -> A is the identity.
const std::vector<dt_pair_t> lossless_pairs = { { dt::f32, dt::f32 }, { dt::bf16, dt::bf16 },
    { dt::f16, dt::f16 }, { dt::s32, dt::s32 }, { dt::s16, dt::s16 }, { dt::u16, dt::u16 },
    { dt::s8, dt::s8 }, { dt::u8, dt::u8 }, { dt::s8, dt::s16 }, { dt::s8, dt::s32 },
    { dt::s8, dt::f32 }, { dt::s8, dt::f16 }, { dt::s8, dt::bf16 }, { dt::u8, dt::s16 },
    { dt::u8, dt::u16 }, { dt::u8, dt::s32 }, { dt::u8, dt::f32 }, { dt::u8, dt::f16 },
    { dt::u8, dt::bf16 }, { dt::s16, dt::s32 }, { dt::s16, dt::f32 }, { dt::u16, dt::s32 },
    { dt::u16, dt::f32 }, { dt::bf16, dt::f32 }, { dt::f16, dt::f32 } };

bool is_nan_bits(dt t, const uint8_t *p) {
    if (t == dt::bf16 || t == dt::f16) return std::isnan(value_at(t, p));
    if (t == dt::f32) return std::isnan(value_at(t, p));
    return false;
}

// Random element of type t; NaN only where the trip is a bit copy.
void random_element(rng_t &r, dt t, bool allow_nan, uint8_t *p) {
    const size_t n = dt_size(t);
    do {
        for (size_t k = 0; k < n; ++k)
            p[k] = uint8_t(r.next());
    } while (!allow_nan && is_nan_bits(t, p));
}

struct case_t {
    dims_t dims;
    std::string tag_a, tag_b;
    dt_pair_t types;
    std::string str() const {
        std::ostringstream os;
        os << "dims=";
        for (size_t i = 0; i < dims.size(); ++i)
            os << (i ? "x" : "") << dims[i];
        os << " A=" << dt_name(types.a) << ":" << tag_a << " B=" << dt_name(types.b) << ":"
           << tag_b;
        return os.str();
    }
};

dim_t padded_volume(const memory::desc &md) {
    return volume(md.get_padded_dims());
}

// Counts mismatches; the first failing cases report a few of theirs.
int g_failed_cases = 0;
struct checker_t {
    int errors = 0;
    std::string where;
    void fail(const std::string &what) {
        if (errors++ < 3 && g_failed_cases < 6) ADD_FAILURE() << where << ": " << what;
    }
};

void check_padding_zero(const memory::desc &md, uint8_t *buf, checker_t &c, const char *which) {
    const layout_t l = layout_of(md);
    for_each_pos(l.padded, [&](const dims_t &p, dim_t) {
        if (!is_padding(l, p)) return;
        const uint8_t *e = static_cast<uint8_t *>(elem_ptr(buf, l, p));
        for (size_t k = 0; k < l.esz; ++k)
            if (e[k]) {
                c.fail(std::string(which) + ": padding not zero at offset "
                        + std::to_string(offset_of(l, p)));
                return;
            }
    });
}

std::string hex(const uint8_t *p, size_t n) {
    static const char *digits = "0123456789abcdef";
    std::string r = "0x";
    for (size_t k = n; k-- > 0;)
        r += std::string(1, digits[p[k] >> 4]) + digits[p[k] & 15];
    return r;
}

// Returns false if the case failed.
bool run_case(const case_t &k, rng_t &r) {
    const memory::desc ma(k.dims, k.types.a, k.tag_a), mb(k.dims, k.types.b, k.tag_b);
    const layout_t la = layout_of(ma), lb = layout_of(mb);
    const bool bit_copy = k.types.a == k.types.b;

    buffer_t src(ma.get_size()), mid(mb.get_size()), back(ma.get_size());
    for (auto &b : src.bytes)
        b = uint8_t(r.next());
    memory msrc(ma, cpu_engine(), src.data()), mmid(mb, cpu_engine(), mid.data()),
            mback(ma, cpu_engine(), back.data());
    for_each_pos(la.dims, [&](const dims_t &p, dim_t) {
        random_element(r, k.types.a, bit_copy, static_cast<uint8_t *>(elem_ptr(src.data(), la, p)));
    });
    // Destinations start as garbage, padding included.
    mid.fill(0xA5);
    back.fill(0x5A);

    run_reorder(msrc, mmid);
    run_reorder(mmid, mback);

    checker_t c;
    c.where = k.str();
    for_each_pos(la.dims, [&](const dims_t &p, dim_t l) {
        const auto *s = static_cast<const uint8_t *>(elem_ptr(src.data(), la, p));
        const auto *m = static_cast<const uint8_t *>(elem_ptr(mid.data(), lb, p));
        const auto *b = static_cast<const uint8_t *>(elem_ptr(back.data(), la, p));
        if (bit_copy) {
            if (std::memcmp(s, m, la.esz) != 0)
                c.fail("A->B element " + std::to_string(l) + " differs");
        } else {
            const double vs = value_at(k.types.a, s), vm = value_at(k.types.b, m);
            if (vs != vm || std::signbit(vs) != std::signbit(vm))
                c.fail("A->B element " + std::to_string(l) + ": " + std::to_string(vm)
                        + " != " + std::to_string(vs));
        }
        if (std::memcmp(s, b, la.esz) != 0)
            c.fail("A->B->A element " + std::to_string(l) + " differs from the original: "
                    + hex(s, la.esz) + " -> " + hex(m, lb.esz) + " -> " + hex(b, la.esz));
    });
    check_padding_zero(mb, mid.data(), c, "B");
    check_padding_zero(ma, back.data(), c, "A again");
    if (c.errors) ++g_failed_cases;
    return c.errors == 0;
}

uint64_t seed() {
    const char *s = std::getenv("RELAYOUT_TEST_SEED");
    return s && *s ? std::strtoull(s, nullptr, 10) : 20240601ull;
}

} // namespace

TEST(ReorderProperty, RoundTripIsIdentityAndPaddingIsZero) {
    constexpr int n_cases = 400;
    constexpr dim_t max_padded = 60000;
    rng_t r(seed());
    int ran = 0, blocked = 0;
    for (int i = 0; i < n_cases; ++i) {
        case_t k;
        const int nd = r.uniform(1, 6);
        k.dims.resize(nd);
        for (auto &d : k.dims)
            d = r.uniform(1, 20);
        k.tag_a = random_tag(r, nd);
        k.tag_b = random_tag(r, nd);
        k.types = r.pick(lossless_pairs);
        // Keep the padded tensors small: shrink the largest dim.
        for (;;) {
            const memory::desc a(k.dims, dt::u8, k.tag_a), b(k.dims, dt::u8, k.tag_b);
            if (std::max(padded_volume(a), padded_volume(b)) <= max_padded) break;
            *std::max_element(k.dims.begin(), k.dims.end()) /= 2;
        }
        if (k.tag_a.find_first_of("0123456789") != std::string::npos
                || k.tag_b.find_first_of("0123456789") != std::string::npos)
            ++blocked;
        if (!run_case(k, r) && g_failed_cases <= 6)
            std::printf("failed case %d: %s\n", i, k.str().c_str());
        ++ran;
    }
    EXPECT_EQ(ran, n_cases);
    EXPECT_EQ(g_failed_cases, 0) << "of " << n_cases << " cases (seed " << seed() << ")";
    EXPECT_GT(blocked, n_cases / 2) << "the generator should mostly produce blocked layouts";
}

// The generator itself: every tag it makes is accepted by the library.
TEST(ReorderProperty, GeneratedTagsAreValid) {
    rng_t r(seed() + 1);
    for (int i = 0; i < 2000; ++i) {
        const int nd = r.uniform(1, 6);
        const std::string t = random_tag(r, nd);
        EXPECT_NO_THROW(memory::desc(dims_t(nd, 5), dt::f32, t)) << t << " for " << nd << " dims";
    }
}
