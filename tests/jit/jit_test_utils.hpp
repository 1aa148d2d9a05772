// Differential harness: a reorder problem run by the reference (the oracle)
// and by a JIT kernel at a given ISA, compared byte for byte over the whole
// destination buffer plus guard bytes on both sides.
#ifndef RELAYOUT_TESTS_JIT_JIT_TEST_UTILS_HPP
#define RELAYOUT_TESTS_JIT_JIT_TEST_UTILS_HPP

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "jit/x64/jit_reorder.hpp"
#include "md/format_tag.hpp"
#include "plan/attr.hpp"
#include "ref/numerics.hpp"
#include "ref/ref_reorder.hpp"

namespace relayout {
namespace impl {
namespace test {

// The dst compensation flags the int8 weight cases set in extra_flags.
constexpr uint64_t s8s8 = relayout_extra_flag_compensation_conv_s8s8;
constexpr uint64_t zp = relayout_extra_flag_compensation_conv_asymmetric_src;

struct jit_case_t {
    std::vector<dim_t> dims;
    data_type_t sdt = relayout_f32, ddt = relayout_f32;
    std::string stag, dtag; // used when the strides are empty
    std::vector<dim_t> sstrides, dstrides;
    int src_scale_mask = -1, dst_scale_mask = -1; // -1: none
    int32_t src_zp = 0, dst_zp = 0;
    float beta = 0.f;
    uint64_t extra_flags = 0; // dst compensation / scale adjust
    int comp_mask = 0, zp_comp_mask = 0;
    float scale_adjust = 1.f;
    // Scales end flush against a PROT_NONE page: a read past them faults.
    bool guard_scales = false;
    // The src ends flush against a PROT_NONE page: a read past it faults.
    bool guard_src = false;
    // f32 / bf16 srcs: these f32 bit patterns (bf16: their high halves),
    // cycled over the src buffer, instead of random values.
    std::vector<uint32_t> src_bits;

    // A case of `dims` from `stag` to `dtag`.
    static jit_case_t of(const std::vector<dim_t> &dims, data_type_t sdt, data_type_t ddt,
            const std::string &stag, const std::string &dtag) {
        jit_case_t c;
        c.dims = dims;
        c.sdt = sdt, c.ddt = ddt;
        c.stag = stag, c.dtag = dtag;
        return c;
    }

    // The dst compensations of `flags` (s8s8, zero points, scale adjust)
    // over the dims of `mask`.
    void set_comp(uint64_t flags, int mask) {
        extra_flags = flags;
        comp_mask = flags & relayout_extra_flag_compensation_conv_s8s8 ? mask : 0;
        zp_comp_mask = flags & relayout_extra_flag_compensation_conv_asymmetric_src ? mask : 0;
        scale_adjust = flags & relayout_extra_flag_scale_adjust ? 0.5f : 1.f;
    }

    std::string str() const {
        std::string s = std::string(dt2str(sdt)) + ">" + dt2str(ddt) + " ";
        for (size_t i = 0; i < dims.size(); ++i)
            s += (i ? "x" : "") + std::to_string(dims[i]);
        s += " " + (sstrides.empty() ? stag : std::string("strided")) + ">"
             + (dstrides.empty() ? dtag : std::string("strided"));
        if (src_scale_mask >= 0) s += " ssc:" + std::to_string(src_scale_mask);
        if (dst_scale_mask >= 0) s += " dsc:" + std::to_string(dst_scale_mask);
        if (src_zp) s += " szp:" + std::to_string(src_zp);
        if (dst_zp) s += " dzp:" + std::to_string(dst_zp);
        if (beta != 0.f) s += " sum:" + std::to_string(beta);
        if (extra_flags) s += " extra:" + std::to_string(extra_flags);
        return s;
    }
};

inline uint32_t f32_bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// Values that exercise rounding, saturation and the special cases.
inline void fill_random(data_type_t dt, void *buf, size_t nelems, std::mt19937 &rng) {
    static const float specials[] = { 0.f, -0.f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 127.5f, 128.f,
        -128.5f, 255.5f, 256.f, -1e10f, 1e10f, 65504.f, 65520.f, 1e-40f, -1e-40f, 3e-39f, 6e-8f,
        2147483648.f, -2147483904.f, 1.f / 0.f, -1.f / 0.f, 32767.5f, -32768.5f, 65535.5f,
        1.00390625f, 1.0078125f };
    for (size_t i = 0; i < nelems; ++i) {
        const uint32_t r = rng();
        switch (dt) {
            case relayout_f32: {
                float v;
                const int k = r % 10;
                if (k < 6)
                    v = (float)((int)(rng() % 1601) - 800) / 4.f
                        + (float)(rng() % 1000) / 1000.f * (k == 0);
                else if (k < 8)
                    v = specials[rng() % (sizeof(specials) / sizeof(*specials))];
                else if (k < 9) {
                    uint32_t u = rng();
                    std::memcpy(&v, &u, 4);
                } else {
                    // NaNs, quiet and signalling, with payloads.
                    uint32_t u = 0x7f800000u | (rng() & 0x807fffffu) | 1u;
                    std::memcpy(&v, &u, 4);
                }
                static_cast<float *>(buf)[i] = v;
                break;
            }
            case relayout_s32:
                static_cast<int32_t *>(buf)[i] =
                        (r % 4 == 0) ? (int32_t)rng() : (int32_t)(rng() % 601) - 300;
                break;
            case relayout_bf16:
            case relayout_f16:
            case relayout_s16:
            case relayout_u16: static_cast<uint16_t *>(buf)[i] = (uint16_t)r; break;
            case relayout_s8:
            case relayout_u8: static_cast<uint8_t *>(buf)[i] = (uint8_t)r; break;
            default: break;
        }
    }
}

// The src or dst descriptor of `c`; the dst with its extras (compensation,
// scale adjust) where `c.extra_flags` is set.
inline status_t make_md(memory_desc_t &md, const jit_case_t &c, bool src) {
    const auto &st = src ? c.sstrides : c.dstrides;
    const data_type_t dt = src ? c.sdt : c.ddt;
    const status_t s =
            !st.empty() ? md_init_by_strides(md, (int)c.dims.size(), c.dims.data(), dt, st.data())
                        : md_init_by_tag(
                                md, (int)c.dims.size(), c.dims.data(), dt, src ? c.stag : c.dtag);
    if (s != status_t::success || src || !c.extra_flags) return s;
    return md_set_extra(md, c.extra_flags, c.comp_mask, c.zp_comp_mask, c.scale_adjust);
}

// A copy of `v` whose last element ends exactly at a PROT_NONE page, so
// that reading one element past the array faults (SIGSEGV) instead of
// silently reading the next heap bytes.
template <typename T>
class guarded_copy_t {
public:
    explicit guarded_copy_t(const std::vector<T> &v) {
        if (v.empty()) return;
        const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
        const size_t bytes = v.size() * sizeof(T);
        len_ = (bytes + pg - 1) / pg * pg + pg;
        void *m = mmap(nullptr, len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            len_ = 0;
            return;
        }
        base_ = static_cast<char *>(m);
        char *guard = base_ + len_ - pg;
        if (mprotect(guard, pg, PROT_NONE) != 0) {
            munmap(base_, len_);
            base_ = nullptr;
            len_ = 0;
            return;
        }
        data_ = reinterpret_cast<T *>(guard - bytes);
        std::memcpy(data_, v.data(), bytes);
    }
    ~guarded_copy_t() {
        if (base_) munmap(base_, len_);
    }
    guarded_copy_t(const guarded_copy_t &) = delete;
    guarded_copy_t &operator=(const guarded_copy_t &) = delete;
    bool ok() const { return len_ != 0; }
    const T *data() const { return data_; }

private:
    char *base_ = nullptr;
    size_t len_ = 0;
    T *data_ = nullptr;
};
using guarded_floats_t = guarded_copy_t<float>;

inline std::vector<float> make_scales(int mask, const jit_case_t &c, std::mt19937 &rng) {
    if (mask < 0) return {};
    size_t n = 1;
    for (size_t d = 0; d < c.dims.size(); ++d)
        if (mask & (1 << d)) n *= c.dims[d];
    static const float pool[] = { 0.5f, 2.f, 3.f, 0.3f, 1.5f, 0.1f, 7.f, 0.25f, 1.f, 1.1f };
    std::vector<float> v(n);
    for (auto &x : v)
        x = pool[rng() % 10];
    return v;
}

// Runs `c` through the reference and through the JIT at `isa`; fills
// `strategy` with the strategy the kernel plan picked.
inline ::testing::AssertionResult run_jit_case(const jit_case_t &c, x64::cpu_isa_t isa,
        std::string *impl_name = nullptr, uint32_t seed = 1) {
    memory_desc_t smd, dmd;
    if (make_md(smd, c, true) != status_t::success)
        return ::testing::AssertionFailure() << "bad src desc: " << last_error_message();
    if (make_md(dmd, c, false) != status_t::success)
        return ::testing::AssertionFailure() << "bad dst desc: " << last_error_message();
    std::mt19937 rng(seed);
    attr_t attr;
    std::vector<float> ssc = make_scales(c.src_scale_mask, c, rng);
    std::vector<float> dsc = make_scales(c.dst_scale_mask, c, rng);
    if (c.src_scale_mask >= 0) {
        attr.src_scales.mask = c.src_scale_mask;
        attr.src_scales.values = ssc;
    }
    if (c.dst_scale_mask >= 0) {
        attr.dst_scales.mask = c.dst_scale_mask;
        attr.dst_scales.values = dsc;
    }
    attr.src_zp = c.src_zp;
    attr.dst_zp = c.dst_zp;
    attr.beta = c.beta;
    plan_t p;
    if (plan_create(p, smd, dmd, attr) != status_t::success)
        return ::testing::AssertionFailure() << "plan: " << last_error_message();
    std::string name;
    if (x64::jit_reorder_accept(p, isa, name) != status_t::success)
        return ::testing::AssertionFailure()
               << c.str() << ": jit declined: " << last_error_message();
    if (impl_name) *impl_name = name;
    std::unique_ptr<x64::jit_reorder_t> jit;
    if (x64::jit_reorder_create(p, isa, jit) != status_t::success)
        return ::testing::AssertionFailure()
               << c.str() << ": jit create failed: " << last_error_message();

    const size_t guard = 64;
    const size_t ssize = md_size(smd), dsize = md_size(dmd);
    std::vector<uint8_t> sbuf(ssize + 2 * guard);
    fill_random(c.sdt, sbuf.data(), sbuf.size() / data_type_size(c.sdt), rng);
    if (!c.src_bits.empty() && (c.sdt == relayout_f32 || c.sdt == relayout_bf16)) {
        const size_t n = sbuf.size() / data_type_size(c.sdt);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t b = c.src_bits[i % c.src_bits.size()];
            if (c.sdt == relayout_f32)
                std::memcpy(sbuf.data() + 4 * i, &b, 4);
            else
                reinterpret_cast<uint16_t *>(sbuf.data())[i] = uint16_t(b >> 16);
        }
    }
    // The dst starts 64-byte aligned (as library allocations do), so that
    // the aligned-only paths (non-temporal stores) run too.
    std::vector<uint8_t> init(dsize + 2 * guard);
    fill_random(relayout_u8, init.data(), init.size(), rng);
    if (c.beta != 0.f) {
        // The sum reads dst: keep it finite-ish but varied.
        fill_random(c.ddt, init.data() + guard, dsize / data_type_size(c.ddt), rng);
    }
    std::vector<uint8_t> rbuf(init.size() + 64), jbuf(init.size() + 64);
    auto aligned_start = [&](std::vector<uint8_t> &b) {
        const uintptr_t p = reinterpret_cast<uintptr_t>(b.data() + guard);
        return (size_t)((64 - p % 64) % 64);
    };
    const size_t ro = aligned_start(rbuf), jo = aligned_start(jbuf);
    std::memcpy(rbuf.data() + ro, init.data(), init.size());
    std::memcpy(jbuf.data() + jo, init.data(), init.size());
    const std::vector<uint8_t> sref = sbuf;

    exec_ctx_t ctx;
    ctx.src = sbuf.data() + guard;
    ctx.src_scales = ssc.empty() ? nullptr : ssc.data();
    ctx.dst_scales = dsc.empty() ? nullptr : dsc.data();
    std::unique_ptr<guarded_floats_t> gssc, gdsc;
    if (c.guard_scales) {
        gssc.reset(new guarded_floats_t(ssc));
        gdsc.reset(new guarded_floats_t(dsc));
        if ((!ssc.empty() && !gssc->ok()) || (!dsc.empty() && !gdsc->ok()))
            return ::testing::AssertionFailure() << "cannot map guarded scales";
        if (!ssc.empty()) ctx.src_scales = gssc->data();
        if (!dsc.empty()) ctx.dst_scales = gdsc->data();
    }
    std::unique_ptr<guarded_copy_t<uint8_t>> gsrc;
    if (c.guard_src) {
        gsrc.reset(new guarded_copy_t<uint8_t>(
                std::vector<uint8_t>(sbuf.begin() + guard, sbuf.begin() + guard + ssize)));
        if (!gsrc->ok()) return ::testing::AssertionFailure() << "cannot map the guarded src";
        ctx.src = gsrc->data();
    }
    ctx.dst = rbuf.data() + ro + guard;
    if (ref_reorder_execute(p, ctx) != status_t::success)
        return ::testing::AssertionFailure() << "ref failed: " << last_error_message();
    const std::vector<uint8_t> dref(rbuf.begin() + ro, rbuf.begin() + ro + init.size());
    // Unprepared (scales expanded per execution), then, when the kernel
    // prepares something for these scales (as a primitive does), prepared.
    std::shared_ptr<const exec_prepared_t> prepared;
    if (jit->prepare(ctx, prepared) != status_t::success)
        return ::testing::AssertionFailure() << "jit prepare failed: " << last_error_message();
    for (int pass = 0; pass < (prepared ? 2 : 1); ++pass) {
        std::memcpy(jbuf.data() + jo, init.data(), init.size());
        ctx.dst = jbuf.data() + jo + guard;
        ctx.prepared = pass ? prepared.get() : nullptr;
        if (jit->execute(ctx) != status_t::success)
            return ::testing::AssertionFailure() << "jit failed: " << last_error_message();
        const std::vector<uint8_t> djit(jbuf.begin() + jo, jbuf.begin() + jo + init.size());
        if (sbuf != sref) return ::testing::AssertionFailure() << c.str() << ": src was written";
        for (size_t i = 0; i < dref.size(); ++i) {
            if (dref[i] != djit[i]) {
                const long off = (long)i - (long)guard;
                return ::testing::AssertionFailure()
                       << c.str() << (pass ? " (prepared)" : "") << " [" << name << " "
                       << jit->dump() << "] plan " << p.dump() << ": first difference at dst byte "
                       << off << " (element " << off / (long)data_type_size(c.ddt) << " of "
                       << dsize / data_type_size(c.ddt) << "): ref 0x" << std::hex << (int)dref[i]
                       << " jit 0x" << (int)djit[i];
            }
        }
    }
    return ::testing::AssertionSuccess();
}

} // namespace test
} // namespace impl
} // namespace relayout

#endif
