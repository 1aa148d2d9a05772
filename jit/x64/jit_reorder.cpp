#include "jit/x64/jit_reorder.hpp"

#include <algorithm>
#include <vector>

#include <immintrin.h>

#include "common/env.hpp"
#include "common/threading.hpp"
#include "jit/x64/jit_reorder_kernel.hpp"
#include "ref/numerics.hpp"

namespace relayout {
namespace impl {
namespace x64 {

namespace {

// The driver: walks the kernel plan's driver nodes (a static balanced
// split over the threads), computes each call's base offsets and the
// value/zero extents of the micro nodes, and calls the generated kernel.
class jit_reorder_impl_t : public jit_reorder_t {
public:
    // `fence`: the kernel's calls end without an sfence (desc
    // fence_in_driver), each thread fences after its last call.
    // `comp_a`: the kernel sums the compensation per A position (desc
    // comp_a, jit_few_b_comp); `comp_span`: per lane and position of its
    // baked loops (desc.comp_span, jit_comp_span); `comp_direct`: the
    // kernel stores the final values in the dst's buffers (desc
    // comp_direct, jit_dw_tiles).
    jit_reorder_impl_t(const plan_t &p, const kernel_plan_t &kp,
            std::unique_ptr<jit_generator_t> gen, int lines = 0, bool fence = false,
            bool comp_a = false, bool comp_span = false, bool comp_direct = false)
            : p_(p), kp_(kp), gen_(std::move(gen)), fence_(fence), comp_direct_(comp_direct) {
        fn_ = reinterpret_cast<jit_kernel_fn_t>(const_cast<void *>(gen_->entry()));
        ssz_ = data_type_size(p_.sdt);
        dsz_ = data_type_size(p_.ddt);
        for (int m = 0; m < kp_.nmicro; ++m) {
            const kloop_t &mk = kp_.micro[m];
            micro_checked_[m] = mk.dim >= 0 && p_.check[mk.dim];
        }
        // Checked dims walked only by driver nodes decide per call.
        for (int d = 0; d < p_.ndims; ++d) {
            if (!p_.check[d]) continue;
            bool in_micro = false;
            for (int m = 0; m < kp_.nmicro; ++m)
                if (kp_.micro[m].dim == d) in_micro = true;
            if (!in_micro) driver_checked_.push_back(d);
        }
        // f32 line pairs (desc.f32_lines): consecutive calls of a B sweep
        // carry each dst row's last 64 bytes in the thread's scratch when B
        // is the innermost driver node and nothing is checked per call.
        // `lines`: the B lanes of a tile pair (32; AVX2: 16), 0: none.
        lines_ = lines > 0 && kp_.nmicro == 2 && !kp_.driver.empty()
                 && kp_.driver.back().split_of == 1 && driver_checked_.empty() && !micro_checked_[0]
                 && !micro_checked_[1];
        lines_any_ = lines > 0;
        pair_lanes_ = lines;
        comp_in_kernel_ = jit_comp_in_kernel(p_, kp_) && !comp_a && !comp_span && !comp_direct;
        if (comp_in_kernel_) comp_nl_ = jit_comp_lanes(kp_);
        if (comp_a) comp_a_span_ = jit_few_b_comp_span(kp_);
        // (Its sums of one index per call: jit_few_b_comp_reduced.)
        const kloop_t &A = kp_.micro[0];
        comp_a_step_ = (p_.s8s8_comp ? A.cs : A.zs) != 0 ? 1 : 0;
        if (comp_span) comp_span_ = jit_comp_span_entries(kp_);
        // A thread's compensation scratch: the sums, then the lane sums
        // (int32, a quarter more for the 4-lane groups; desc.comp_a: the
        // span of a call), whole lines each.
        comp_sums_ = round_up<size_t>(size_t(p_.s8s8_count + p_.zp_count), 8);
        const size_t lane_words = comp_in_kernel_ ? size_t(comp_nl_ + comp_nl_ / 4 + 1) / 2
                                  : comp_a        ? size_t(comp_a_span_ + 1) / 2
                                                  : size_t(comp_span_ + 1) / 2;
        comp_stride_ = comp_sums_ + round_up<size_t>(lane_words, 8);
    }

    std::string dump() const override { return kp_.dump(p_); }

    status_t prepare(
            const exec_ctx_t &ctx, std::shared_ptr<const exec_prepared_t> &out) const override {
        out.reset();
        const bool se = kp_.src_scale_expand > 1 && ctx.src_scales;
        const bool de = kp_.dst_scale_expand > 1 && ctx.dst_scales;
        if (!se && !de) return status_t::success;
        auto pre = std::make_shared<prepared_scales_t>();
        pre->owner = this;
        pre->src_in = ctx.src_scales;
        pre->dst_in = ctx.dst_scales;
        if (se) expand_scales(ctx.src_scales, p_.src_scale_mask, kp_.src_scale_expand, pre->src);
        if (de) expand_scales(ctx.dst_scales, p_.dst_scale_mask, kp_.dst_scale_expand, pre->dst);
        out = std::move(pre);
        return status_t::success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        if (p_.zero_volume) return status_t::success;
        const dim_t total = kp_.driver_total;
        int nthr = kp_.serial ? 1 : max_threads();
        if (nthr > total) nthr = (int)std::max<dim_t>(total, 1);
        const bool comp = (p_.s8s8_comp || p_.zp_comp) && !comp_direct_;
        // Compensation: per-thread integer sums of the stored values (and
        // the kernel's per-lane sums), in the calling thread's scratch.
        comp_scratch_t scratch(comp ? size_t(nthr) * comp_stride_ : 0);
        int64_t *acc = scratch.data();
        // Scales repeated over the folded lanes (kernel_plan_t::*_expand):
        // the primitive's, prepared at its creation for these very arrays,
        // or built here (callers without a primitive).
        std::vector<float> sexp, dexp;
        exec_ctx_t c = ctx;
        const prepared_scales_t *pre =
                ctx.prepared && ctx.prepared->owner == this
                        ? static_cast<const prepared_scales_t *>(ctx.prepared)
                        : nullptr;
        if (pre && (pre->src_in != ctx.src_scales || pre->dst_in != ctx.dst_scales)) pre = nullptr;
        if (kp_.src_scale_expand > 1 && ctx.src_scales)
            c.src_scales = pre ? pre->src.data()
                               : expand_scales(ctx.src_scales, p_.src_scale_mask,
                                       kp_.src_scale_expand, sexp);
        if (kp_.dst_scale_expand > 1 && ctx.dst_scales)
            c.dst_scales = pre ? pre->dst.data()
                               : expand_scales(ctx.dst_scales, p_.dst_scale_mask,
                                       kp_.dst_scale_expand, dexp);
        if (nthr <= 1) {
            run(c, 0, total, acc);
            if (fence_) _mm_sfence();
        } else {
            parallel(nthr, [&](int ithr, int nt) {
                dim_t start, end;
                balance211(total, nt, ithr, start, end);
                if (start < end)
                    run(c, start, end, acc ? acc + size_t(ithr) * comp_stride_ : nullptr);
                if (fence_) _mm_sfence(); // the calls' streaming stores
            });
        }
        if (comp) plan_store_compensation(p_, acc, nthr, comp_stride_, ctx.dst);
        return status_t::success;
    }

private:
    struct prepared_scales_t : exec_prepared_t {
        const float *src_in = nullptr, *dst_in = nullptr; // what was expanded
        std::vector<float> src, dst;
    };

    // The calling thread's scratch (zeroed), kept between executes up to
    // keep_max entries so that execute does not allocate. An execute
    // nested in another on the same thread (a thread waiting in a parallel
    // region may run another task) or a larger one gets its own.
    class comp_scratch_t {
    public:
        explicit comp_scratch_t(size_t n) {
            if (n == 0) return;
            thread_local std::vector<int64_t> buf;
            thread_local bool busy = false;
            if (!busy && n <= keep_max) {
                if (buf.size() < n) buf.resize(n);
                busy = true;
                busy_ = &busy;
                p_ = buf.data();
            } else {
                own_.resize(n);
                p_ = own_.data();
            }
            std::fill_n(p_, n, 0);
        }
        ~comp_scratch_t() {
            if (busy_) *busy_ = false;
        }
        comp_scratch_t(const comp_scratch_t &) = delete;
        comp_scratch_t &operator=(const comp_scratch_t &) = delete;
        int64_t *data() const { return p_; }

    private:
        static constexpr size_t keep_max = size_t(1) << 17; // 1 MiB
        int64_t *p_ = nullptr;
        bool *busy_ = nullptr;
        std::vector<int64_t> own_;
    };

    // `s` (the scales of `mask`) with every value repeated `e` times.
    const float *expand_scales(const float *s, int mask, dim_t e, std::vector<float> &out) const {
        dim_t n = 1;
        for (int d = 0; d < p_.ndims; ++d)
            if (mask & (1 << d)) n *= p_.dims[d];
        out.resize(size_t(n * e));
        for (dim_t j = 0; j < n; ++j)
            std::fill_n(out.begin() + j * e, e, s[j]);
        return out.data();
    }

    // Adds the values a call stored (its baked loops around the micro
    // tile; the data is still in L1/L2) to the compensation sums.
    template <typename T>
    void accumulate_t(
            const T *dst, dim_t ci, dim_t zi, const jit_call_args_t &a, int64_t *acc, int l) const {
        if (l < (int)kp_.loops.size()) {
            const kloop_t &lp = kp_.loops[l];
            for (dim_t i = 0; i < lp.n; ++i)
                accumulate_t(dst + i * lp.os, ci + i * lp.cs, zi + i * lp.zs, a, acc, l + 1);
            return;
        }
        const kloop_t &A = kp_.micro[0];
        const bool two = kp_.nmicro > 1;
        const dim_t vb = two ? a.v[1] : 1;
        const kloop_t &B = kp_.micro[1];
        if (two && B.in_n > 1) {
            // Interleave: lane ib = (ib / in_n, ib % in_n) of (B, B.in).
            int64_t *zacc2 = acc + p_.s8s8_count;
            const dim_t vb = a.v[1];
            if (B.in_os == 1 && B.os == B.in_n && B.in_cs == 0 && B.in_zs == 0 && A.cs == 0
                    && A.zs == 0 && vb <= 64) {
                // Lanes contiguous, one sum per B position (4i16o4i: per o),
                // the same for every row: sum the rows first (int32 is
                // exact: at most 64 x rows x 255).
                int32_t grp[64] = { 0 };
                const dim_t ng = div_up(vb, B.in_n);
                for (dim_t ia = 0; ia < a.v[0]; ++ia) {
                    const T *row = dst + ia * A.os;
                    if (vb == ng * B.in_n && B.in_n == 4) {
                        for (dim_t g = 0; g < ng; ++g)
                            grp[g] += row[4 * g] + row[4 * g + 1] + row[4 * g + 2] + row[4 * g + 3];
                    } else {
                        for (dim_t ib = 0; ib < vb; ++ib)
                            grp[ib / B.in_n] += row[ib];
                    }
                }
                const bool s8s8 = p_.s8s8_comp, zp = p_.zp_comp;
                for (dim_t g = 0; g < ng; ++g) {
                    if (s8s8) acc[ci + g * B.cs] += grp[g];
                    if (zp) zacc2[zi + g * B.zs] += grp[g];
                }
                return;
            }
            for (dim_t ia = 0; ia < a.v[0]; ++ia)
                for (dim_t i2 = 0; i2 * B.in_n < vb; ++i2) {
                    const T *p = dst + ia * A.os + i2 * B.os;
                    const dim_t n1 = std::min(B.in_n, vb - i2 * B.in_n);
                    if (p_.s8s8_comp) {
                        int64_t *c = acc + ci + ia * A.cs + i2 * B.cs;
                        for (dim_t i1 = 0; i1 < n1; ++i1)
                            c[i1 * B.in_cs] += p[i1 * B.in_os];
                    }
                    if (p_.zp_comp) {
                        int64_t *c = zacc2 + zi + ia * A.zs + i2 * B.zs;
                        for (dim_t i1 = 0; i1 < n1; ++i1)
                            c[i1 * B.in_zs] += p[i1 * B.in_os];
                    }
                }
            return;
        }
        const dim_t bos = two ? B.os : 0, bcs = two ? B.cs : 0, bzs = two ? B.zs : 0;
        int64_t *zacc = acc + p_.s8s8_count;
        for (dim_t ia = 0; ia < a.v[0]; ++ia) {
            const T *row = dst + ia * A.os;
            const dim_t c0 = ci + ia * A.cs, z0 = zi + ia * A.zs;
            if (p_.s8s8_comp) {
                if (bcs == 0) {
                    int64_t s = 0;
                    for (dim_t ib = 0; ib < vb; ++ib)
                        s += row[ib * bos];
                    acc[c0] += s;
                } else {
                    for (dim_t ib = 0; ib < vb; ++ib)
                        acc[c0 + ib * bcs] += row[ib * bos];
                }
            }
            if (p_.zp_comp) {
                if (bzs == 0) {
                    int64_t s = 0;
                    for (dim_t ib = 0; ib < vb; ++ib)
                        s += row[ib * bos];
                    zacc[z0] += s;
                } else {
                    for (dim_t ib = 0; ib < vb; ++ib)
                        zacc[z0 + ib * bzs] += row[ib * bos];
                }
            }
        }
    }
    void accumulate(
            const char *dst, dim_t ci, dim_t zi, const jit_call_args_t &a, int64_t *acc) const {
        if (p_.ddt == relayout_s8)
            accumulate_t(reinterpret_cast<const int8_t *>(dst), ci, zi, a, acc, 0);
        else if (p_.ddt == relayout_u8)
            accumulate_t(reinterpret_cast<const uint8_t *>(dst), ci, zi, a, acc, 0);
    }

    // Adds the per-lane sums the kernel left in `lanes` (lanes of B, then
    // the sums of 4-lane groups) to the compensation sums, and clears them.
    void distribute(
            int32_t *lanes, dim_t ci, dim_t zi, const jit_call_args_t &a, int64_t *acc) const {
        const kloop_t &B = kp_.micro[1];
        const dim_t n1 = B.in_n, vb = a.v[1], zb = a.z[1];
        int32_t *grp = lanes + comp_nl_;
        int64_t *zacc = acc + p_.s8s8_count;
        for (dim_t l = 0; l < vb; ++l) {
            int32_t s = lanes[l];
            if (l % 4 == 0 && n1 % 4 == 0) s += grp[l / 4];
            if (s == 0) continue;
            const dim_t o = l / n1, i = l % n1;
            if (p_.s8s8_comp) acc[ci + o * B.cs + i * B.in_cs] += s;
            if (p_.zp_comp) zacc[zi + o * B.zs + i * B.in_zs] += s;
        }
        std::fill(lanes, lanes + zb, 0);
        std::fill(grp, grp + div_up<dim_t>(zb, 4), 0);
    }

    // desc.comp_a: adds the sums the calls of compensation indices ci / zi
    // left in `sums` (index k: ci + k, zi + k) and clears them.
    void distribute_a(int32_t *sums, dim_t ci, dim_t zi, int64_t *acc) const {
        int64_t *zacc = acc + p_.s8s8_count;
        for (dim_t k = 0; k < comp_a_span_; ++k) {
            const int32_t s = sums[k];
            if (s == 0) continue;
            if (p_.s8s8_comp) acc[ci + k * comp_a_step_] += s;
            if (p_.zp_comp) zacc[zi + k * comp_a_step_] += s;
            sums[k] = 0;
        }
    }

    // desc.comp_span: adds the lane sums of each position of the baked
    // loops (comp_span_pitch entries each, the innermost loop fastest) to
    // the sums of its index, and clears them.
    void distribute_span(
            int32_t *sums, dim_t ci, dim_t zi, const jit_call_args_t &a, int64_t *acc) const {
        const int L = (int)kp_.loops.size();
        int64_t *zacc = acc + p_.s8s8_count;
        dim_t ctr[jit_reorder_desc_t::max_loops] = {};
        for (dim_t pos = 0; pos * comp_span_pitch < comp_span_; ++pos) {
            int32_t *s = sums + pos * comp_span_pitch;
            for (dim_t l = 0; l < a.z[1]; ++l) {
                if (p_.s8s8_comp) acc[ci + l] += s[l];
                if (p_.zp_comp) zacc[zi + l] += s[l];
            }
            std::fill_n(s, comp_span_pitch, 0);
            for (int k = L - 1; k >= 0; --k) {
                const kloop_t &lp = kp_.loops[k];
                ci += lp.cs;
                zi += lp.zs;
                if (++ctr[k] < lp.n) break;
                ci -= lp.n * lp.cs;
                zi -= lp.n * lp.zs;
                ctr[k] = 0;
            }
        }
    }

    // `acc`: this thread's block of the compensation scratch (comp_stride_
    // entries: the sums, then the kernel's per-lane sums), or nullptr.
    void run(const exec_ctx_t &ctx, dim_t start, dim_t end, int64_t *acc) const {
        const int K = (int)kp_.driver.size();
        int32_t *lp = acc && (comp_in_kernel_ || comp_a_span_ || comp_span_)
                              ? reinterpret_cast<int32_t *>(acc + comp_sums_)
                              : nullptr;
        // desc.comp_a: the compensation indices of the calls summed in lp.
        bool a_sums = false;
        dim_t a_ci = 0, a_zi = 0;
        dim_t ctr[2 * max_ndims + 2];
        {
            dim_t idx = start;
            for (int k = K - 1; k >= 0; --k) {
                ctr[k] = idx % kp_.driver[k].n;
                idx /= kp_.driver[k].n;
            }
        }
        const char *src = static_cast<const char *>(ctx.src);
        char *dst = static_cast<char *>(ctx.dst);
        jit_call_args_t a;
        // f32 line pairs: 64 bytes per A position of a call. run() calls no
        // other execute on this thread while it uses the buffer.
        a.lines = nullptr;
        a.lines_io = 0;
        if (lines_any_) {
            thread_local std::vector<char> lines_buf;
            const size_t need = size_t(kp_.micro[0].n) * 64 + 64;
            if (lines_buf.size() < need) lines_buf.resize(need);
            const uintptr_t at = reinterpret_cast<uintptr_t>(lines_buf.data());
            a.lines = lines_buf.data() + (64 - at % 64) % 64;
        }
        bool lines_next = false; // the previous call left its rows for this one
        for (dim_t it = start; it < end; ++it) {
            dim_t soff = p_.src_off0, doff = p_.dst_off0, si = 0, di = 0, ci = 0, zi = 0;
            dim_t pos[max_ndims] = { 0 };
            dim_t outer[2] = { 0, 0 };
            for (int k = 0; k < K; ++k) {
                const kloop_t &l = kp_.driver[k];
                const dim_t i = ctr[k];
                if (l.tab >= 0) {
                    soff += p_.tabs[l.tab].src[i];
                    doff += p_.tabs[l.tab].dst[i];
                } else {
                    soff += i * l.is;
                    doff += i * l.os;
                }
                si += i * l.ss;
                di += i * l.ds;
                ci += i * l.cs;
                zi += i * l.zs;
                if (l.dim >= 0) pos[l.dim] += i * l.mult;
                if (l.split_of >= 0) outer[l.split_of] = i * kp_.micro[l.split_of].n;
            }
            bool skip = false, zero = false;
            for (int d : driver_checked_) {
                if (pos[d] >= p_.dst_padded[d]) skip = true;
                if (pos[d] >= p_.dims[d]) zero = true;
            }
            if (!skip) {
                for (int m = 0; m < 2; ++m) {
                    if (m >= kp_.nmicro) {
                        a.v[m] = a.z[m] = 1;
                        continue;
                    }
                    const kloop_t &mk = kp_.micro[m];
                    const dim_t cnt = std::min(mk.n, mk.total - outer[m]);
                    dim_t v = cnt, z = cnt;
                    if (micro_checked_[m]) {
                        const dim_t P = pos[mk.dim];
                        v = std::max<dim_t>(0, std::min(cnt, div_up(p_.dims[mk.dim] - P, mk.mult)));
                        z = std::max<dim_t>(
                                0, std::min(cnt, div_up(p_.dst_padded[mk.dim] - P, mk.mult)));
                    }
                    a.v[m] = zero ? 0 : v * mk.in_n;
                    a.z[m] = z * mk.in_n;
                    if (z <= 0) skip = true;
                }
            }
            if (!skip) {
                a.src = src + soff * ssz_;
                a.dst = dst + doff * dsz_;
                a.nt = (reinterpret_cast<uintptr_t>(a.dst) & 63) == 0;
                // A padding position of the driver (`zero`) has scale
                // indices past the end of the scales: the kernel reads no
                // scale then (v = 0), and the pointers stay in the arrays.
                a.src_scales = ctx.src_scales ? ctx.src_scales + (zero ? 0 : si) : nullptr;
                a.dst_scales = ctx.dst_scales ? ctx.dst_scales + (zero ? 0 : di) : nullptr;
                // (desc.comp_direct: the call's entries of the dst's buffers.)
                a.comp = comp_direct_ ? reinterpret_cast<int32_t *>(dst + p_.comp_offset_bytes)
                                                + (p_.s8s8_comp ? ci : zi)
                                      : lp;
                if (lines_) {
                    // This call continues the previous one; the next call
                    // (the next B block of the same rows, with a pair) this one.
                    const kloop_t &B = kp_.micro[1];
                    const bool next = a.nt && it + 1 < end && ctr[K - 1] + 1 < kp_.driver[K - 1].n
                                      && a.v[1] == B.n * B.in_n
                                      && B.total - (outer[1] + B.n) >= pair_lanes_;
                    a.lines_io = (lines_next ? 1 : 0) | (next ? 2 : 0);
                    lines_next = next;
                }
                if (comp_a_span_ && a_sums && (ci != a_ci || zi != a_zi)) {
                    distribute_a(lp, a_ci, a_zi, acc);
                    a_sums = false;
                }
                fn_(&a);
                if (comp_a_span_ && lp) {
                    a_sums = true;
                    a_ci = ci;
                    a_zi = zi;
                } else if (lp && comp_span_)
                    distribute_span(lp, ci, zi, a, acc);
                else if (lp)
                    distribute(lp, ci, zi, a, acc);
                else if (acc)
                    accumulate(static_cast<const char *>(a.dst), ci, zi, a, acc);
            }
            for (int k = K - 1; k >= 0; --k) {
                if (++ctr[k] < kp_.driver[k].n) break;
                ctr[k] = 0;
            }
        }
        if (a_sums) distribute_a(lp, a_ci, a_zi, acc);
    }

    plan_t p_;
    kernel_plan_t kp_;
    std::unique_ptr<jit_generator_t> gen_;
    bool fence_ = false;       // sfence after a thread's calls (desc.fence_in_driver)
    bool comp_direct_ = false; // the kernel stores the compensation (desc.comp_direct)
    jit_kernel_fn_t fn_;
    size_t ssz_, dsz_;
    bool micro_checked_[2] = { false, false };
    std::vector<int> driver_checked_;
    bool lines_ = false, lines_any_ = false; // desc.f32_lines: carried rows / a scratch
    int pair_lanes_ = 0;                     // ... the B lanes of a tile pair
    bool comp_in_kernel_ = false;            // the kernel sums the compensation per lane
    dim_t comp_nl_ = 0;
    dim_t comp_a_span_ = 0; // desc.comp_a: the sums of a call (0: not comp_a)
    dim_t comp_span_ = 0;   // desc.comp_span: the same (0: not comp_span)
    dim_t comp_a_step_ = 1; // desc.comp_a: the index step of its sums (0: one index per call)
    size_t comp_sums_ = 0, comp_stride_ = 0; // int64 entries of a thread's scratch
};

// A zero-volume reorder: nothing to run, nothing to generate.
class jit_noop_t : public jit_reorder_t {
public:
    status_t execute(const exec_ctx_t &) const override { return status_t::success; }
    std::string dump() const override { return "zero-volume"; }
};

// "jit:<isa>:<strategy>" (every primitive_desc creation names its
// implementation): the known pairs are formatted once.
std::string jit_impl_name(cpu_isa_t isa, kernel_strategy_t s) {
    auto format = [](cpu_isa_t i, kernel_strategy_t k) {
        return std::string("jit:") + isa2str(i) + ":" + strategy2str(k);
    };
    constexpr int nisa = 4, nstrategy = 4; // interleave is the last strategy
    static const std::vector<std::string> names = [&] {
        std::vector<std::string> v;
        for (int i = 0; i < nisa; ++i)
            for (int k = 0; k < nstrategy; ++k)
                v.push_back(format(cpu_isa_t(i), kernel_strategy_t(k)));
        return v;
    }();
    const int i = int(isa), k = int(s);
    if (i < 0 || i >= nisa || k < 0 || k >= nstrategy) return format(isa, s);
    return names[size_t(i * nstrategy + k)];
}

} // namespace

kernel_plan_params_t jit_plan_params(cpu_isa_t isa, const plan_t &p) {
    isa = vector_isa(isa);
    kernel_plan_params_t prm;
    prm.vlen = isa == cpu_isa_t::avx512_core ? 16 : 8;
    // A call writes whole cache lines of each dst row: a line written in
    // pieces by calls far apart is read for ownership again each time.
    // But the B src rows of a tile are read together, each its own stream:
    // rows a page or more apart (which alias in the cache sets for
    // power-of-2 strides, and whose prefetched lines then evict each other)
    // stay at 16 per call, 3x faster at 200 MB (f32 -> s8/bf16 nchw ->
    // nhwc); the calls completing a line follow each other (the B split is
    // the innermost driver node). Byte and word tiles stage their rows instead
    // (jit_word_tile_params).
    const dim_t dsz = (dim_t)std::max<size_t>(1, data_type_size(p.ddt));
    const node_t *inner = p.nodes.empty() ? nullptr : &p.nodes.back();
    const bool far_rows = inner && inner->os == 1
                          && inner->is * (dim_t)data_type_size(p.sdt) >= 4096
                          && !(p.bit_copy && dsz == 1);
    // Conversions to 2- and 1-byte dsts that take narrow rows (AVX-512)
    // read each src row once per tile along A, a line at a time, with an
    // L2 prefetch ahead: far rows then take a whole dst line's 32 or 64 per
    // call (f32 -> bf16 nchw -> nhwc: 31% -> ~80% of a copy), near rows of
    // 2-byte dsts the same (see jit_narrow_rows_lanes).
    // (AVX2: jit_ymm_narrow_rows_lanes, far rows only.)
    const dim_t narrow = jit_narrow_rows_lanes(isa, p) + jit_ymm_narrow_rows_lanes(isa, p);
    prm.tile_b = narrow ? narrow : far_rows ? 16 : std::max<dim_t>(16, 64 / dsz);
    prm.tile_b_max = far_rows || narrow;
    // Their streamed far rows: calls longer along A (see the function).
    if (const dim_t plane = jit_narrow_far_rows_plane(isa, p)) prm.tile_plane = plane;
    jit_word_tile_params(isa, p, prm);
    // AVX2 words of far rows: a dst line's 32 lanes, staged and streamed.
    if (jit_ymm_word_lines(isa, p)) prm.tile_b = 32;
    // AVX2 conversions to words from one-line src blocks: calls whose src
    // block both A tiles read from L1 (jit_ymm_w32_block_plane).
    if (const dim_t plane = jit_ymm_w32_block_plane(isa, p)) prm.tile_plane = plane;
    // Byte tiles of far src rows and far whole-line dst rows, streamed:
    // two B tiles (128 rows) per call, 512 A positions (jit_byte_rows128);
    // near dst rows of line pairs: a whole 64 x 64 plane (Intel,
    // jit_byte_plane_pairs).
    if (jit_byte_rows128(isa, p)) {
        prm.tile_b = 128;
        prm.tile_b_max = true;
        prm.tile_plane = 128 * (jit_byte_plane_pairs(isa, p) ? 4096 : 512);
    } else if (jit_byte_plane_calls(isa, p)) {
        // Near dst rows of large byte tiles: calls of a whole 64 x 64 plane
        // (Intel, jit_byte_plane_calls).
        prm.tile_b = 64;
        prm.tile_b_max = true;
        prm.tile_plane = 64 * 4096;
    }
    // AVX2 byte lines of far src rows, dst rows of line pairs: two lines
    // of each dst row per group (jit_ymm_byte_line_pairs).
    if (jit_ymm_byte_line_pairs(isa, p)) {
        prm.tile_b = 128;
        prm.tile_b_max = true;
        prm.tile_plane = 128 * 512;
    }
    if (far_rows && jit_far_rows_pair(isa, p)) {
        prm.tile_b = 32;
        prm.tile_plane = jit_far_rows_pair_plane();
        if (jit_far_rows_blocks(isa, p)) {
            prm.tile_b = far_block_b;
            prm.tile_plane = far_block_a * far_block_b;
        }
    }
    // AVX2 few-B tiles (odd B of 4-byte dsts, jit_few_b_tiles): calls of a
    // multiple of 16 positions, so that every call's dst (B * 4 bytes per
    // position) is whole lines and streams (10920 x 3 f32 was not: every
    // other call of nchw -> nhwc stored cached).
    if (isa == cpu_isa_t::avx2 && inner && inner->os == 1 && inner->tab < 0 && inner->n % 2 == 1
            && inner->n >= 3 && inner->n <= 7 && dsz == 4)
        prm.tile_plane = prm.tile_plane / inner->n / 16 * 16 * inner->n;
    // (f32 bit copies, as measured: the byte and word tiles keep their call shapes.)
    // (AVX-512 only: AVX2 lost on 512x512x3x3, 0.94 -> 0.77x oneDNN.)
    const bool zmm_dword_copy = isa == cpu_isa_t::avx512_core && p.bit_copy
                                && data_type_size(p.sdt) == 4 && data_type_size(p.ddt) == 4;
    prm.a_run_loop = zmm_dword_copy;
    prm.copy_run_loop = zmm_dword_copy && jit_copy_run_loop();
    // A block of it when too long (B of at most two tiles: the flattened
    // tiles take it, jit_flat_a_tiles; not the far-row blocks' 128 lanes).
    // AVX2 f32 bit copies the split alone, for far B rows (B = 16: the
    // flattened tiles' rows). oihw -> hwio 1024x1024x3x3: 16 o x 9 hw per
    // call (36 bytes of each o row, 9 lines 4 MiB apart), the i loop in the
    // driver, outside the o blocks.
    const bool ymm_dword_copy = isa == cpu_isa_t::avx2 && p.bit_copy && data_type_size(p.sdt) == 4
                                && data_type_size(p.ddt) == 4;
    if ((prm.a_run_loop && prm.tile_b <= 32)
            || (ymm_dword_copy && prm.tile_b_max && prm.tile_b == 16))
        prm.a_run_split = jit_a_run_split();
    // AVX-512 conversions to bytes of 4 lanes take the loop (not its split:
    // A is a whole tile there), see jit_few_b_run_loop.
    if (jit_few_b_run_loop(isa, p)) prm.a_run_loop = true;
    // The driver's A blocks innermost where its innermost node jumps pages
    // (kernel_plan_create). AVX2 (AVX-512 kernels as they were), 4-byte
    // src or dst. hwio -> OIhw4i16o4i f32 -> s8 1024x1024x3x3, x oneDNN,
    // AVX2 on both sides, 2 rounds interleaved, busy: single-thread 0.43 /
    // 0.42 -> 1.10 / 1.02, 2 threads 0.50 / 0.54 -> 0.82 / 1.04. AVX-512
    // conversions of f32 to narrower types too (jit_cvt_a_blocks_inner).
    prm.a_blocks_inner =
            (isa == cpu_isa_t::avx2 && (data_type_size(p.sdt) == 4 || data_type_size(p.ddt) == 4))
            || jit_cvt_a_blocks_inner(isa, p);
    // AVX-512 f32 bit copies: tiny tile calls take a block of the next
    // loop (jit_min_tile_call).
    if (zmm_dword_copy) prm.min_tile_call = jit_min_tile_call();
    // (Run tiles: calls of more than one block, jit_run_deal_min_call.)
    if (const dim_t run_call = jit_run_deal_min_call(isa, p))
        prm.min_tile_call = std::max(prm.min_tile_call, run_call);
    // Calls of exactly a block of many (O, I) or group blocks, at least
    // and at most that many elements: the flattened quad tiles of
    // OIhw16i16o weights (jit_o16_block_call), the row windows of OIhw8o8i
    // (jit_o8i_block_call), depthwise weights (jit_dw_block_call). Their
    // layouts exclude each other: at most one applies.
    for (const dim_t call :
            { jit_o16_block_call(isa, p), jit_o8i_block_call(isa, p), jit_dw_block_call(isa, p) })
        if (call) {
            prm.min_tile_call = std::max(prm.min_tile_call, call);
            prm.tile_call_max = call;
        }
    // AVX-512 f32 bit copies: the copy's run blocks likewise (hwio ->
    // OIhw16i16o 3x3: consecutive calls read the next line of the same src
    // rows, not one line of each of 144 new ones), and f32 conversions to
    // narrower types (jit_cvt_blocks_inner).
    prm.copy_blocks_inner = zmm_dword_copy || jit_cvt_blocks_inner(isa, p);
    // Channels-last src rows read whole, a line of each dst block per call
    // (jit_copy_src_rows).
    prm.copy_src_rows = jit_copy_src_rows(isa, p);
    prm.short_tiles_split = isa == cpu_isa_t::avx2;
    prm.split_interleaves = jit_split_interleaves(isa, p);
    // Tuning knobs (experiments only; part of no cache key).
    static const int tb = getenv_int("RELAYOUT_JIT_TILE_B", 0);
    static const int tp = getenv_int("RELAYOUT_JIT_TILE_PLANE", 0);
    if (tb > 0) prm.tile_b = tb;
    if (tp > 0) prm.tile_plane = tp;
    return prm;
}

status_t jit_reorder_accept(const plan_t &p, cpu_isa_t isa, std::string &name, std::string *kplan) {
    if (!isa_allowed(isa))
        return failf(status_t::unimplemented, "%s is not available (cpu or cap)", isa2str(isa));
    if (!is_valid_data_type(p.sdt) || !is_valid_data_type(p.ddt))
        return fail(status_t::unimplemented, "jit: data types not supported");
    if ((p.s8s8_comp || p.zp_comp) && p.ddt != relayout_s8 && p.ddt != relayout_u8)
        return fail(status_t::unimplemented, "jit: compensation needs an s8 or u8 dst");
    // The bf16 level names the kernels that convert with AVX512_BF16; the
    // avx512_core ones run everything else.
    if (isa == cpu_isa_t::avx512_core_bf16 && (p.bit_copy || p.ddt != relayout_bf16))
        return fail(status_t::unimplemented,
                "avx512_core_bf16: no conversion to bf16 (avx512_core runs it)");
    if (p.zero_volume) {
        name = jit_impl_name(isa, kernel_strategy_t::copy);
        return status_t::success;
    }
    if ((int)p.nodes.size() > 2 * max_ndims)
        return fail(status_t::unimplemented, "jit: too many nodes");
    kernel_plan_t kp;
    RL_CHECK(kernel_plan_create(kp, p, jit_plan_params(isa, p)));
    jit_reorder_desc_t d;
    jit_reorder_desc_init(d, isa, p, kp);
    RL_CHECK(jit_reorder_desc_check(d));
    if (isa == cpu_isa_t::avx512_core_bf16 && !d.bf16_ne)
        return fail(status_t::unimplemented,
                d.isa == cpu_isa_t::avx512_core
                        ? "avx512_core_bf16: the kernel rounds in integers (avx512_core runs it)"
                        : "avx512_core_bf16: the kernel runs avx2 code");
    name = jit_impl_name(isa, kp.strategy);
    if (kplan) *kplan = kp.dump(p);
    return status_t::success;
}

status_t jit_reorder_create(const plan_t &p, cpu_isa_t isa, std::unique_ptr<jit_reorder_t> &out) {
    if (p.zero_volume) {
        out.reset(new jit_noop_t());
        return status_t::success;
    }
    kernel_plan_t kp;
    RL_CHECK(kernel_plan_create(kp, p, jit_plan_params(isa, p)));
    jit_reorder_desc_t d;
    jit_reorder_desc_init(d, isa, p, kp);
    std::unique_ptr<jit_generator_t> gen;
    RL_CHECK(jit_reorder_generate(d, gen));
    const int pair_lanes = d.isa == cpu_isa_t::avx512_core ? 32 : 16; // (desc.isa: the family)
    out.reset(new jit_reorder_impl_t(p, kp, std::move(gen), d.f32_lines ? pair_lanes : 0,
            d.fence_in_driver, d.comp_a, d.comp_span, d.comp_direct));
    return status_t::success;
}

} // namespace x64
} // namespace impl
} // namespace relayout
