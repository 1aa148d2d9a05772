#include "jit/x64/jit_reorder_kernel.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "common/env.hpp"

namespace relayout {
namespace impl {
namespace x64 {

namespace {

using namespace Xbyak;

// Stack scratch, at [rsp] (64-byte aligned).
constexpr int buf_src = 0; // AVX2 tails: elements gathered into a vector
constexpr int buf_old = 64;
constexpr int buf_ssc = 128;
constexpr int buf_dsc = 192;
constexpr int buf_dst = 256;
constexpr int s_cnt_load = 320; // lanes loaded from a src row
constexpr int s_cnt_v = 328;    // lanes holding values
constexpr int s_cnt_z = 336;    // lanes stored
constexpr int s_v0 = 344;       // v[0], v[1], z[0], z[1] of the call
constexpr int s_z0 = 360;
constexpr int s_loop = 376;  // baked loop counters (3)
constexpr int s_row_v = 400; // transpose: rows holding values
constexpr int s_row_z = 408; // transpose: rows stored
constexpr int s_nt = 416;    // non-temporal stores allowed for this call
constexpr int s_comp = 424;  // compensation sums of the call (jit_call_args_t::comp)
constexpr int s_shift = 432; // AVX2 transpose: rows the shifted last A tile repeats
constexpr int s_pf = 448;    // transpose: next src line to prefetch (desc.pf_ahead)
constexpr int s_dst = 456;   // dst of the call while the tiles write the stage (dst_stage_row)
constexpr int stack_bytes = 464;
constexpr int s_lines = 464;    // jit_call_args_t::lines (desc.f32_lines)
constexpr int s_lines_io = 472; // jit_call_args_t::lines_io
// Byte tiles of long A runs: 64 src rows x 64 bytes staged contiguously
// (see gen_byte_tile), after the scratch above.
constexpr int s_stage_ok = 440; // the stage holds the current 64-column group
constexpr int buf_stage = 512;
constexpr int stack_bytes_stage = buf_stage + 64 * 64;
// AVX2 byte tiles of far src rows: a B tile's 16 src lines, after a
// group's dst lines (jit_ymm_byte_src_stage).
constexpr int buf_ysrc = buf_stage + 2 * 64 * 64;
// Transposes staging their dst rows (dst_stage_row): at most this many
// bytes of the call's dst, at buf_stage.
constexpr int dst_stage_bytes = 16 * 1024;

// Flattened tiles unrolled at most (more: gen_flat_b_loop, gen_ymm_flat_b_loop).
constexpr int64_t flat_unrolled_tiles = 32;
// Flattened short-B positions at most (the loop's table: 4 bytes each).
constexpr int64_t flat_b_looped_max = 2048;

bool fits32(int64_t v) {
    return v >= -(int64_t(1) << 30) && v < (int64_t(1) << 30);
}

// Run tiles in pairs along the innermost baked loop (see jit_run_pairs).
bool run_deal_fold(const jit_reorder_desc_t &d) {
    return d.run_pairs && d.n[1] == 16;
}

bool is_int(data_type_t dt) {
    return dt == relayout_s32 || dt == relayout_s16 || dt == relayout_u16 || dt == relayout_s8
           || dt == relayout_u8;
}

// The lines of a call of flattened word pairs (desc.flat_pairs): line m
// is hw a = m % n0 of i pair j = m / n0, at dst element a os_a + j os_j;
// the two words of its o come from each src row's elements k(m, 0) and
// k(m, 1) = k(m, 0) + n0 (i = 2j and 2j + 1). A row's 2 n0 nj elements
// are contiguous. Transposes (16i16o) place the words of i = 2j in the
// low half line: the transposed word pairs are split (`split`).
struct flat_pairs_t {
    int64_t n0 = 0, nj = 0, os_a = 0, os_j = 0;
    bool split = false;

    explicit flat_pairs_t(const jit_reorder_desc_t &d) {
        if (d.nloops < 1) return;
        const int L = d.nloops - 1;
        n0 = d.n[0];
        nj = d.in_n == 2 ? d.loop_n[L] : d.loop_n[L] / 2;
        os_a = d.os[0];
        os_j = d.in_n == 2 ? d.loop_os[L] : 2 * d.loop_os[L];
        split = d.in_n == 1;
    }
    int64_t lines() const { return n0 * nj; }
    int64_t row() const { return 2 * n0 * nj; }
    int64_t tiles() const { return (lines() + 15) / 16; }
    int64_t src(int64_t m, int h) const { return m / n0 * 2 * n0 + m % n0 + h * n0; }
    int64_t dst(int64_t m) const { return m % n0 * os_a + m / n0 * os_j; }
    // Tile t's lines m = 16 t .. read the row's elements [begin, end).
    int64_t begin(int64_t t) const { return src(16 * t, 0) / (2 * n0) * 2 * n0; }
    int64_t end(int64_t t) const {
        return (src(std::min(16 * t + 15, lines() - 1), 0) / (2 * n0) + 1) * 2 * n0;
    }
    // The words tile t loads from each row (32: one vector, 64: two) and
    // where (within the row: row() >= 64).
    int64_t width(int64_t t) const { return end(t) - begin(t) <= 32 ? 32 : 64; }
    int64_t window(int64_t t) const { return std::min(begin(t), row() - width(t)); }
};

class reorder_gen_t : public jit_generator_t {
public:
    reorder_gen_t(const jit_reorder_desc_t &d, const std::string &name, size_t size)
            : jit_generator_t(name, size), d_(d) {
        z_ = d.isa == cpu_isa_t::avx512_core;
        bf16_ne_ = d.bf16_ne && z_;
        W_ = z_ ? 16 : 8;
        ssz_ = (int)data_type_size(d.sdt);
        dsz_ = (int)data_type_size(d.ddt);
        comp_ = d.comp_lanes;
        // Bit copies zero-extend; the sums need the signed values of s8
        // (the AVX-512 store truncates, so sign-extending on load is free).
        sx_ = comp_ && d.bit_copy && z_ && d.ddt == relayout_s8;
        byte_pf_ = jit_byte_tile_pf(d);
        stage_ = d.byte_tile && (d.n[1] * d.in_n == 64 || d.byte_pair) && d.n[0] >= 64 && !byte_pf_;
        byte_lines_ = jit_byte_lines(d) && !stage_;
        // Word tiles of 64 lanes: two B tiles per call (jit_word_rows64).
        wstage_ = d.word_tile && d.n[0] >= 32
                  && (d.n[1] == 32 || (d.n[1] == 64 && jit_wide_stage(d)));
        wide_ = stage_ || wstage_ ? jit_wide_stage(d) : 0; // (the same conditions)
        bursts_ = d.line_bursts && ((stage_ && d.byte_pair) || (wstage_ && d.n[1] == 64));
        ysrc_pf_ = jit_ymm_byte_src_stage(d);
        ylines2_ = d.ymm_small_lines && d.ymm_small == 1 && d.n[1] == 128;
        ywide_ = ysrc_pf_ ? jit_ymm_byte_wide_src(d) : 0;
        rows_ = row_tiles(d);
        bytes_ = row_bytes(d);
        row_pf_ = d.nt ? row_bytes_pf_ : 0;
        generate();
    }

private:
    const jit_reorder_desc_t d_;
    bool z_; // AVX-512
    int W_;  // 32-bit lanes of a vector
    int ssz_, dsz_;
    bool comp_ = false, sx_ = false;
    int k5_lanes_ = 0;   // lanes of the constant A-row mask in k5 (0: none)
    bool shift_ = false; // AVX2 transpose: the last partial A tile moves back
    // Byte tiles stage 64 x 64 src bytes: one B tile per A step, long A.
    bool stage_ = false;
    // Groups the staging prefetches ahead.
    static constexpr int stage_pf_ = 4;
    // Byte tiles of near src rows: the next call's src block prefetched
    // this many bytes ahead (0: none; see jit_byte_tile_pf).
    int64_t byte_pf_ = 0;
    void byte_tile_prefetch();
    // Byte-tile interleaves whose 4-lane groups are whole src lines: full
    // tiles load each line once (jit_byte_lines).
    bool byte_lines_ = false;
    // Full byte tiles of cached large dsts: the 16 dst lines of the A tile
    // d_.byte_pfw tiles on, into L2 (jit_byte_dst_prefetch).
    void byte_dst_prefetch(int64_t osA) { dst_rows_prefetch(d_.byte_pfw, osA, dst_pf_t::first_l2); }
    // Word tiles stage 32 x 64 src bytes the same way (gen_word_tile).
    bool wstage_ = false;
    // Staged byte and word tiles: lines per src row of a wide stage (0:
    // one, the 64-byte groups of stage_src_group; see jit_wide_stage).
    int wide_ = 0;
    // Calls of two staged byte or word tiles per A tile: each dst row's two
    // lines stored back to back by the second (jit_line_bursts).
    bool bursts_ = false;
    // The first tile's dst rows wait here, after the widest stage.
    int burst_rows_at() const { return buf_stage + 64 * 64 * wide_ * 2; }
    void store_tile_half(int half, int lanes, int64_t osA, int first);
    void stage_src_wide(int rows, int esz, int64_t isB, bool next_ok, bool stage = true);
    // AVX2 byte tiles of far src rows: each B tile's 16 src lines staged
    // (0: not; else 1 + the groups its L2 prefetch runs ahead; see
    // jit_ymm_byte_src_stage).
    int ysrc_pf_ = 0;
    // AVX2 byte lines of 128-lane calls: two lines of each dst row per
    // group (jit_ymm_byte_line_pairs).
    bool ylines2_ = false;
    // ... and their src rows staged ywide_ lines at a time (0: one line
    // per group; see jit_ymm_byte_wide_src).
    int ywide_ = 0;
    // Interleaves of 64-lane rows (4i16o4i): the four 16-lane tiles of a
    // row unrolled, narrow dst rows assembled on the stack (gen_row_tiles).
    bool rows_ = false;
    // ... converted to s8 / u8 along A first (row_bytes).
    bool bytes_ = false;
    // Large row_bytes problems prefetch each src row this far ahead (into
    // L2): its 64 rows are 16 streams at once, more than the hardware
    // prefetchers keep up with (1024 x 1024 x 4 x 4 f32 -> s8: 1.3x).
    static constexpr int row_bytes_pf_ = 2048;
    int row_pf_ = 0; // the distance gen_row_bytes prefetches at (0: none)
    // gen_row_words: compute leaves f32 (the rounding to bf16 is its own).
    bool f32_out_ = false;
    // desc.bf16_ne: bf16 lanes stay f32 until they narrow (as f16's do),
    // rounded there by bf16_convert / bf16_convert2.
    bool bf16_ne_ = false;
    int tb_ = 8;             // first temporary vector register
    bool xmm_mode_ = false;  // scalar strategy: one lane in an xmm
    bool sat_packs_ = false; // gen_row_bytes: 8-bit dsts narrowed by packs
    // Lanes of the dst vector walk the B (transpose) or V (copy) node: the
    // scales are vectors there when their index advances by one per lane.
    bool ssc_vec_ = false, dsc_vec_ = false;

    Label c_onef_, c_szp_, c_dzp_, c_beta_, c_sa_, c_lo_, c_hi_, c_one_, c_7fff_, c_40_, c_iota_;
    Label c_ones8_, c_ones16_;        // byte tiles: 4-lane group sums
    Label c_rep4_;                    // few_b_comp_dst: a bit of each dword's 4 bytes
    Label c_qnan_, c_hmask_, c_widx_; // gen_row_words
    Label c_wint_;                    // ... bf16_ne: the words of two rows interleaved
    Label c_plo_, c_phi_;             // gen_pair_a: words of two rows

    // ---- registers -------------------------------------------------------
    Xmm vr(int i) const {
        if (xmm_mode_) return Xmm(i);
        return z_ ? Xmm(Zmm(i)) : Xmm(Ymm(i));
    }
    Xmm tmp(int i) const { return vr(tb_ + i); }
    Address cst(const Label &l) { return ptr[rip + l]; }
    // Loop invariants kept in spare vector registers (gen_copy): the
    // constants of the value pipeline and broadcast scales. -1: memory.
    struct hoisted_t {
        const Label *l;
        int reg;
    };
    hoisted_t hoisted_[8] = {};
    int nhoisted_ = 0;
    int ssc_reg_ = -1, dsc_reg_ = -1; // broadcast src/dst scale of the call
    // Calls f with the register holding constant `l`, or its address.
    template <typename F>
    void with_cst(const Label &l, F f) {
        for (int i = 0; i < nhoisted_; ++i)
            if (hoisted_[i].l == &l) return f(vr(hoisted_[i].reg));
        f(cst(l));
    }

    bool value_path() const { return !d_.bit_copy; }
    // AVX2 (ymm tiles, not AVX-512's xmm mode): f32 -> bf16 rounded in
    // integers (finalize_lanes), without the multiply by 1 before it.
    bool ymm_bf16_int() const { return !z_ && d_.ddt == relayout_bf16 && !bf16_ne_; }
    // ... left f32 by finalize_lanes, for ymm_bf16_round (knob
    // RELAYOUT_JIT_YMM_BF16_GROUP=0: each vector rounded on its own).
    bool bf16_group_ = false;
    void ymm_bf16_round(int v0, int n);
    // Runs emit (loads and compute of vectors v0 .. v0 + n - 1) with their
    // AVX2 bf16 rounding grouped (ymm_bf16_round).
    template <typename F>
    void ymm_bf16_grouped(int v0, int n, F emit) {
        static const bool on = getenv_int("RELAYOUT_JIT_YMM_BF16_GROUP", 1) != 0; // experiment knob
        bf16_group_ = on && ymm_bf16_int() && n % 2 == 0;
        emit();
        if (bf16_group_) ymm_bf16_round(v0, n);
        bf16_group_ = false;
    }

    // ---- element loads and stores -----------------------------------------
    // Loads lanes of `dt` at `a` (memory, or a register holding them packed)
    // into 32-bit lanes of vr(vi): values as f32 (value path) or
    // zero-extended bits (bit copy).
    void load_lanes(int vi, const Operand &a, const Opmask *k, data_type_t dt) {
        Xmm v = vr(vi);
        // The constant mask of half the lanes (TA = 8 on AVX-512: nChw8c ->
        // nchw): a ymm load, which zeroes the upper half as {z} does.
        // Masked loads from memory run at about 40% of unmasked ones on Zen
        // 4 unless software-prefetched (ARCHITECTURE §11, masked accesses):
        // single-thread nChw8c -> nchw 32 -> 84% of a streaming copy.
        if (k == &k5 && z_ && 2 * k5_lanes_ == W_) {
            v = Ymm(vi);
            k = nullptr;
        }
        Xmm vd = k ? (v | *k | T_z) : v;
        const int sz = (int)data_type_size(dt);
        const bool val = value_path();
        if (val && dt == relayout_f16) {
            vcvtph2ps(vd, a);
            return;
        }
        if (sz == 4)
            vmovups(vd, a);
        else if (sz == 2)
            (val && dt == relayout_s16) ? vpmovsxwd(vd, a) : vpmovzxwd(vd, a);
        else
            ((val || sx_) && dt == relayout_s8) ? vpmovsxbd(vd, a) : vpmovzxbd(vd, a);
        if (!val) return;
        if (dt == relayout_bf16)
            vpslld(v, v, 16);
        else if (is_int(dt))
            vcvtdq2ps(v, v);
    }

    // The mask of a full tile's load of the src row at `disp` bytes into
    // the tile, whose TA A lanes are values: k5 for TA < W_, or none where
    // the whole vector's bytes (W_ lanes of the src type) end within the
    // tile's src, at or before `reach` (the end of its farthest row's
    // values), so inside the src buffer; the extra lanes become the rows
    // TA .. W_ - 1 of the transposed tile, never stored (see
    // jit_a_rows_unmasked). Half the lanes keep k5 (a ymm load, exact).
    const Opmask *a_row_mask(int TA, int64_t disp, int64_t reach) const {
        if (TA == W_) return nullptr;
        const bool whole = d_.a_rows_unmasked && 2 * TA != W_ && disp + W_ * ssz_ <= reach;
        return whole ? nullptr : &k5;
    }

    // One element at `a` into lane 0 of xmm(vi) (scalar strategy).
    void load_elem(int vi, const Address &a, data_type_t dt) {
        const Xmm v = Xmm(vi);
        const int sz = (int)data_type_size(dt);
        const bool val = value_path();
        if (sz == 4) {
            vmovd(v, a);
        } else {
            if (sz == 2)
                (val && dt == relayout_s16) ? movsx(r13d, word[a.getRegExp()])
                                            : movzx(r13d, word[a.getRegExp()]);
            else
                (val && dt == relayout_s8) ? movsx(r13d, byte[a.getRegExp()])
                                           : movzx(r13d, byte[a.getRegExp()]);
            vmovd(v, r13d);
        }
        if (!val) return;
        if (dt == relayout_f16)
            vcvtph2ps(v, v);
        else if (dt == relayout_bf16)
            vpslld(v, v, 16);
        else if (is_int(dt))
            vcvtdq2ps(v, v);
    }

    // Stores the 32-bit lanes of vr(vi) (finalized) as `ddt` at `a`.
    void store_lanes(int vi, const Address &a, const Opmask *k) {
        const data_type_t dt = d_.ddt;
        const bool val = value_path();
        if (z_) {
            const Zmm v(vi);
            const Address ad = k ? (a | *k) : a;
            if (val && dt == relayout_f16)
                vcvtps2ph(ad, v, 0);
            else if (dsz_ == 4)
                vmovups(ad, v);
            else if (dsz_ == 2) {
                // Narrow in registers, then a plain store: the memory forms
                // of vpmov* are slow on Zen 4.
                const Ymm t(tb_ + 7);
                if (val && bf16_ne_)
                    bf16_convert(t, v, Zmm(tb_ + 7));
                else
                    vpmovdw(t, v);
                vmovdqu16(ad, t);
            } else {
                const Xmm t(tb_ + 7);
                vpmovdb(t, v);
                vmovdqu8(ad, t);
            }
            return;
        }
        const Ymm v(vi);
        const Xmm x(vi), t(tb_ + 7);
        if (val && dt == relayout_f16) {
            vcvtps2ph(x, v, 0);
            vmovdqu(a, x);
        } else if (dsz_ == 4) {
            vmovups(a, v);
        } else {
            vextracti128(t, v, 1);
            const bool sgn = val && (dt == relayout_s16 || dt == relayout_s8);
            sgn ? vpackssdw(x, x, t) : vpackusdw(x, x, t);
            if (dsz_ == 2) {
                vmovdqu(a, x);
            } else {
                sgn ? vpacksswb(x, x, x) : vpackuswb(x, x, x);
                vmovq(a, x);
            }
        }
    }

    // Lane 0 of xmm(vi) as one `ddt` element at `a`.
    void store_elem(int vi, const RegExp &a) {
        const data_type_t dt = d_.ddt;
        const bool val = value_path();
        const Xmm x(vi);
        if (dsz_ == 4) {
            vmovd(ptr[a], x);
            return;
        }
        if (val && dt == relayout_f16) {
            vcvtps2ph(x, x, 0);
        } else if (val && bf16_ne_) {
            bf16_convert(x, x, Xmm(tb_ + 7));
        } else {
            const bool sgn = val && (dt == relayout_s16 || dt == relayout_s8);
            sgn ? vpackssdw(x, x, x) : vpackusdw(x, x, x);
            if (dsz_ == 1) sgn ? vpacksswb(x, x, x) : vpackuswb(x, x, x);
        }
        vmovd(r13d, x);
        if (dsz_ == 2)
            mov(word[a], r13w);
        else
            mov(byte[a], r13b);
    }

    // ---- value pipeline (ref/numerics.hpp compute_value + store_f32) ----
    struct lane_src_t {
        Address old;      // dst element(s), for the sum post-op
        Address ssc, dsc; // scales of lane 0
        const Opmask *k;  // AVX-512: value lanes (zero-masked loads)
    };

    void load_scale(const Xmm &t, const Address &a, bool vec, const Opmask *k) {
        if (!vec || xmm_mode_)
            vbroadcastss(t, a);
        else if (k)
            vmovups(t | *k | T_z, a);
        else
            vmovups(t, a);
    }

    void compute(int vi, const lane_src_t &io) {
        const Xmm v = vr(vi);
        const Xmm t0 = tmp(0), t1 = tmp(1);
        if (d_.src_zp != 0.f) with_cst(c_szp_, [&](const Operand &c) { vsubps(v, v, c); });
        // The reference always multiplies by the src scale (1 when absent):
        // exact, but it quiets a signalling NaN, so keep it where the bits
        // of a NaN reach the dst and nothing else quiets it (onef_multiply).
        if (d_.src_scale && !ssc_vec_ && ssc_reg_ >= 0) {
            vmulps(v, vr(ssc_reg_), v);
        } else if (d_.src_scale) {
            load_scale(t0, io.ssc, ssc_vec_, io.k);
            vmulps(v, t0, v);
        } else if (onef_multiply()) {
            with_cst(c_onef_, [&](const Operand &c) { vmulps(v, v, c); });
        }
        if (d_.beta != 0.f) {
            if (xmm_mode_)
                load_elem(tb_ + 1, io.old, d_.ddt);
            else
                load_lanes(tb_ + 1, io.old, io.k, d_.ddt);
            if (d_.dst_zp != 0.f) vsubps(t1, t1, cst(c_dzp_));
            vmulps(t1, t1, cst(c_beta_));
            vaddps(v, v, t1);
        }
        if (d_.dst_scale && !dsc_vec_ && dsc_reg_ >= 0) {
            vdivps(v, v, vr(dsc_reg_));
        } else if (d_.dst_scale) {
            load_scale(t0, io.dsc, dsc_vec_, io.k);
            vdivps(v, v, t0);
        }
        // Zero points only when non-zero: x + 0 would turn -0 into +0.
        if (d_.dst_zp != 0.f) with_cst(c_dzp_, [&](const Operand &c) { vaddps(v, v, c); });
        if (d_.scale_adjust != 1.f) with_cst(c_sa_, [&](const Operand &c) { vmulps(v, v, c); });
        finalize_lanes(vi);
    }

    // Whether the pipeline multiplies by a missing src scale's 1: not for
    // integer dsts, whose clamps and vcvtps2dq treat a signalling NaN as a
    // quiet one (NaN -> lo) and every other value of x * 1 as x, in any
    // MXCSR mode (a denormal converts to 0 flushed or not); nor before any
    // bf16 rounding, which quiets NaN itself (the integer rounding ORs the
    // quiet bit in, vcvtne(2)ps2bf16 sets it) and keeps every other value
    // of x * 1 (denormals too, with the MXCSR's default DAZ off). One
    // instruction and one constant load fewer per vector.
    bool onef_multiply() const { return !is_int(d_.ddt) && d_.ddt != relayout_bf16; }

    // f32 -> the 32-bit lane form store_lanes expects.
    void finalize_lanes(int vi) {
        if (f32_out_) return;
        const Xmm v = vr(vi);
        if (is_int(d_.ddt) && sat_packs_) {
            // Narrowed by saturating packs (8-bit dsts): only the upper
            // clamp, NaN kept (the second operand wins), so that it, -inf
            // and anything below lo convert to INT_MIN or a value < lo,
            // which the packs saturate to lo.
            with_cst(c_hi_, [&](const Operand &c) { vminps(v, c, v); });
            vcvtps2dq(v, v);
        } else if (is_int(d_.ddt)) {
            // NaN -> lo: the second operand wins
            with_cst(c_lo_, [&](const Operand &c) { vmaxps(v, v, c); });
            with_cst(c_hi_, [&](const Operand &c) { vminps(v, v, c); });
            vcvtps2dq(v, v);
        } else if (d_.ddt == relayout_bf16 && !bf16_ne_) {
            // Round to nearest even in integers; NaN keeps its top bits,
            // quieted. (vcvtneps2bf16 flushes denormals: bf16_convert.)
            const Xmm t0 = tmp(2), t1 = tmp(3);
            if (z_ && !xmm_mode_) {
                bf16_round_int(t0, v, v);
            } else if (ymm_bf16_int() && bf16_group_) {
                // (rounded by ymm_bf16_round, vectors at a time)
            } else if (ymm_bf16_int()) {
                // AVX2: NaN quieted before the one shift (v | 0x00400000).
                vpsrld(t0, v, 16);
                with_cst(c_one_, [&](const Operand &c) { vpand(t0, t0, c); });
                with_cst(c_7fff_, [&](const Operand &c) { vpaddd(t0, t0, c); });
                vpaddd(t0, t0, v);
                const Xmm m = tmp(4);
                vcmpps(m, v, v, 3);
                with_cst(c_qnan_, [&](const Operand &c) { vpor(t1, v, c); });
                vblendvps(v, t0, t1, m);
                vpsrld(v, v, 16);
            } else {
                vpsrld(t0, v, 16);
                with_cst(c_one_, [&](const Operand &c) { vpand(t0, t0, c); });
                with_cst(c_7fff_, [&](const Operand &c) { vpaddd(t0, t0, c); });
                vpaddd(t0, t0, v);
                vpsrld(t0, t0, 16);
                const Xmm m = tmp(4);
                vcmpps(m, v, v, 3);
                vpsrld(t1, v, 16);
                with_cst(c_40_, [&](const Operand &c) { vpor(t1, t1, c); });
                vblendvps(v, t0, t1, m);
            }
        }
    }

    // AVX-512 opmask of the first `count` lanes (count in a stack slot).
    void mask_from_slot(const Opmask &k, int slot, int lanes) {
        mov(r14, -1);
        mov(r13, qword[rsp + slot]);
        bzhi(r14, r14, r13);
        if (lanes > 16)
            kmovq(k, r14);
        else
            kmovw(k, r14d);
    }
    // AVX2: all-ones in the first `count` lanes of tmp(5).
    void lane_mask_from_slot(int slot) {
        const Ymm m(tb_ + 5);
        vpbroadcastd(m, ptr[rsp + slot]);
        vpcmpgtd(m, m, cst(c_iota_));
    }
    void vpxord_or_xor(int vi) {
        if (z_)
            vpxord(Zmm(vi), Zmm(vi), Zmm(vi));
        else
            vpxor(Ymm(vi), Ymm(vi), Ymm(vi));
    }
    void zero_dead_lanes(int vi) {
        if (z_)
            vmovdqa32(vr(vi) | k2 | T_z, vr(vi));
        else
            vpand(vr(vi), vr(vi), tmp(5));
    }

    // Copies `count` (stack slot) elements of `esz` bytes between two
    // base-only addresses, one at a time (AVX2 tails). Uses r12, r13.
    void copy_elems(const RegExp &dst, const RegExp &src, int slot, int esz) {
        Label l, done;
        xor_(r12, r12);
        L(l);
        cmp(r12, qword[rsp + slot]);
        jge(done, T_NEAR);
        const RegExp s = src + r12 * esz, t = dst + r12 * esz;
        if (esz == 4) {
            mov(r13d, dword[s]);
            mov(dword[t], r13d);
        } else if (esz == 2) {
            mov(r13w, word[s]);
            mov(word[t], r13w);
        } else {
            mov(r13b, byte[s]);
            mov(byte[t], r13b);
        }
        inc(r12);
        jmp(l);
        L(done);
    }
    void zero_buf(int off) {
        for (int i = 0; i < 64; i += 8)
            mov(qword[rsp + off + i], 0);
    }
    // AVX2: `count` elements at r14-based address into a zeroed buffer.
    void gather_to_buf(int buf, const RegExp &src_addr, int slot, int esz) {
        zero_buf(buf);
        lea(r14, ptr[src_addr]);
        copy_elems(rsp + buf, r14, slot, esz);
    }

    // AVX2 (no masked loads): the value pipeline on the first s_cnt_v lanes
    // of vr(vi). What those lanes read along the vector (the old dst for the
    // sum, vector scales) at `old`, `ssc`, `dsc` is gathered into the stack
    // buffers first, so nothing past the values is read; a scale constant
    // along the lanes is read at `ssc` / `dsc` itself.
    void compute_partial(int vi, const RegExp &old, const RegExp &ssc, const RegExp &dsc) {
        if (d_.beta != 0.f) gather_to_buf(buf_old, old, s_cnt_v, dsz_);
        if (d_.src_scale && ssc_vec_) gather_to_buf(buf_ssc, ssc, s_cnt_v, 4);
        if (d_.dst_scale && dsc_vec_) gather_to_buf(buf_dsc, dsc, s_cnt_v, 4);
        compute(vi, lane_src_t{ ptr[rsp + buf_old], ssc_vec_ ? ptr[rsp + buf_ssc] : ptr[ssc],
                            dsc_vec_ ? ptr[rsp + buf_dsc] : ptr[dsc], nullptr });
    }

    // r = clamp(a - b, 0, hi) with a, b operands; uses r14.
    void clamp_diff(const Reg64 &r, const Operand &a, const Reg64 &b, int hi) {
        mov(r, a);
        sub(r, b);
        xor_(r14, r14);
        cmp(r, 0);
        cmovl(r, r14);
        mov(r14, hi);
        cmp(r, r14);
        cmovg(r, r14);
    }

    void add_imm(const Reg64 &r, int64_t v) {
        if (v == 0) return;
        if (fits32(v))
            add(r, (int)v);
        else {
            mov(r15, v);
            add(r, r15);
        }
    }

    // ---- compensation (in-kernel sums, per lane of B) ---------------------
    // The accumulator of a tile: its rows are summed lane by lane, then
    // added to comp[b0 ..] (r15 = b0) once per tile.
    Xmm comp_acc() const { return z_ ? Xmm(Zmm(31)) : Xmm(Ymm(tb_ + 6)); }
    void comp_zero() {
        if (!comp_) return;
        vpxord_or_xor(comp_acc().getIdx());
    }
    // acc += the int32 lanes of vr(vi) (finalized values, before the store).
    void comp_add_row(int vi) {
        if (!comp_) return;
        const Xmm acc = comp_acc();
        if (d_.bit_copy && d_.ddt == relayout_s8 && !sx_) {
            const Xmm t = tmp(0);
            vpslld(t, vr(vi), 24);
            vpsrad(t, t, 24);
            vpaddd(acc, acc, t);
        } else {
            vpaddd(acc, acc, vr(vi));
        }
    }
    // The same for row a of a tile: rows below s_shift were summed by the
    // tile before (a shifted last A tile).
    void comp_add_tile_row(int a) {
        if (!comp_) return;
        Label lskip;
        if (shift_ && a > 0) {
            cmp(qword[rsp + s_shift], a);
            jg(lskip, T_NEAR);
        } else if (shift_) {
            cmp(qword[rsp + s_shift], 0);
            jg(lskip, T_NEAR);
        }
        comp_add_row(a);
        L(lskip);
    }
    // `lane`: the tile's first lane after b0 (unrolled tiles of a row).
    void comp_flush(int lane = 0) {
        if (!comp_) return;
        const Xmm acc = comp_acc();
        mov(r14, qword[rsp + s_comp]);
        const Address sums = ptr[r14 + r15 * 4 + lane * 4];
        vpaddd(acc, acc, sums);
        if (z_)
            vmovdqu32(sums, Zmm(acc.getIdx()));
        else
            vmovdqu(sums, Ymm(acc.getIdx()));
    }

    // ---- strategies -------------------------------------------------------
    void gen_copy_bits();
    void gen_copy();
    void gen_short_copy(bool nt);
    void pack_lines(int nvec);
    void jump_unless_whole_call(int nmicro, const Label &l);
    // Jumps to `l` when pos + ext exceeds the count at [rsp + slot] (a tile
    // at pos would not be whole); r14 = pos + ext after it.
    void jump_if_past(const Reg64 &pos, int64_t ext, int slot, const Label &l) {
        lea(r14, ptr[pos + ext]);
        cmp(r14, qword[rsp + slot]);
        jg(l, T_NEAR);
    }
    void short_copy_calls(const std::function<void(int, const std::function<void()> &)> &loops,
            const Label &done);
    void hoist_invariants(bool scales = true);
    void gen_transpose();
    void gen_transpose_flat();
    void gen_transpose_flat_b();
    void ymm_tile_pair(const std::function<Address(int, int)> &src);
    void ymm_pair_lines(bool nt, const Reg64 &base, const std::function<int64_t(int)> &dst,
            bool new_rows_only = false);
    void gen_ymm_b16_tile(int64_t osA, int64_t ssA, int64_t dsA);
    void gen_ymm_w32_tile(int64_t osA, int64_t ssA, int64_t dsA);
    void gen_ymm_pad_b_tile(int64_t osA);
    void gen_ymm_b16_outer();
    void gen_f32_line_pair_regs(int64_t osA, const std::function<int64_t(int)> &row_disp);
    std::array<int, 16> transpose_tile_pool(std::deque<int> &pool);
    void gen_b_outer_pair(int64_t osA, const std::function<int64_t(int)> &row_disp);
    void gen_blk_lines(int TA, int64_t osA);
    void gen_ymm_blk_lines(int64_t osA);
    void f32_pair_tile(int h, const std::function<int64_t(int)> &row_disp, bool transpose = true);
    int f32_pair_lanes(int a) const;
    void f32_pair_cached(int64_t osA, const std::function<int64_t(int)> &row_disp);
    void f32_pair_heads_branch(const Label &whole, const Label &partial);
    void f32_pair_masked(const Address &at, uint32_t mask, const Zmm &v);
    void f32_pair_partial_heads(int64_t osA, const Zmm &r);
    void f32_pair_tails(
            int64_t osA, const Label &done, const std::function<Zmm(int)> &reg, const Zmm &r);
    void gen_ymm_f32_line_pair(int64_t osA);
    void ymm_line_rows(int p, int64_t osA, const Label &done);
    void ymm_copy_lanes(const RegExp &to, const RegExp &from, int lanes);
    void gen_flat_bytes();
    void flat_bytes_stage_row(int o, int64_t stage_row);
    void gen_run_deal();
    void gen_o8_chunks();
    void gen_o8i_rows();
    void o8i_window(int s, int from);
    void run_deal_init();
    void deal3(const int in[3], const int out[3]);
    Label c_deal3_; // gen_run_deal: lane i of row c takes element 3 i + c
    void gen_flat_pairs();
    Label c_fpairs_;     // gen_flat_pairs: each tile's word pairs in its window
    Label c_fsplit_;     // ... the transposed pairs of 16i16o split into half lines
    Label c_flat_perm_;  // gen_flat_bytes: the dwords of 4 packed vectors back in order
    Label c_flat_b_src_; // gen_flat_b_loop: each flattened position's src offset (bytes)
    void gen_flat_b_loop(bool nt);
    void gen_ymm_flat_b_loop(bool nt);
    void gen_ymm_flat_steps();
    void gen_ymm_packed_rows();
    void flat_b_tile_loop(const std::function<void()> &tile);
    // Quad-placing loads of full 16 x 16 tiles (d_.quad_ld).
    void quad_tile_masks();
    void quad_tile_row(int b, const RegExp &row);
    void quad_tile_transpose();
    // Flattened short-B position k's src offset (bytes): B position
    // k % n[1] of the folded loop's iteration k / n[1]; of an interleave
    // (jit_flat_b_lanes), lane k: folded position k % in_n of B position
    // k / in_n.
    int64_t flat_b_src(int64_t k) const {
        if (d_.in_n > 1) return ((k % d_.in_n) * d_.in_is + (k / d_.in_n) * d_.is[1]) * ssz_;
        return (k % d_.n[1]) * d_.is[1] * ssz_ + (k / d_.n[1]) * d_.loop_is[d_.nloops - 1] * ssz_;
    }
    Label c_ymm_perm_; // gen_copy (AVX2): the dwords of 4 packed ymm back in order
    void ymm_copy_lines(int e0);
    void gen_lanes();
    bool lanes_tile() const;
    void gen_ymm_small_tiles();
    void ymm_small_transpose(int e, int col[8][2]);
    void ymm_small_edge(int TA, int log_n1);
    void ymm_small_comp(bool shifted);
    void byte_pair_sums(const Xmm &acc, const Xmm &t, const Xmm &ones, const Xmm &row, bool first);
    // The columns (A positions) of the byte transpose's outputs, for the
    // compensation of a shifted tile: byte i of entry j is col[j][i / 16].
    int ysm_col_[8][2] = {};
    Label c_ysm_col_;
    void gen_scalar();
    void transpose_tile(int rows = 16);
    void transpose_tile_body(int rows = 16);
    Label l_transpose_;
    bool transpose_used_ = false;
    Label l_transpose_rows_; // the tile of transpose_rows_ < 16 rows used
    int transpose_rows_ = 0; // (0: none)
    // Code called by the kernel (transpose_tile), after the postamble.
    void emit_subroutines() {
        for (const auto &c : cold_)
            c();
        if (transpose_rows_) {
            L(l_transpose_rows_);
            transpose_tile_body(transpose_rows_);
            ret();
        }
        if (!transpose_used_) return;
        L(l_transpose_);
        transpose_tile_body();
        ret();
    }
    // Code out of the hot paths (bf16_convert's vectors with denormals),
    // emitted after the postamble; each piece jumps back.
    std::vector<std::function<void()>> cold_;
    std::deque<Label> cold_labels_; // (stable addresses: the pieces jump back to them)
    void bf16_round_int(const Xmm &t, const Xmm &v, const Xmm &out);
    void bf16_convert(const Xmm &to, const Xmm &v, const Xmm &scratch);
    void bf16_convert2(const Zmm &to, const Zmm &hi, const Zmm &lo, const Zmm &scratch);
    void dst_stage_begin();
    void dst_stage_flush();
    void prefetch_ahead_init();
    void prefetch_ahead_tile();
    void byte_transpose_16x16();
    void gen_byte_tile(bool a_partial, int half = -1);
    void comp_byte_groups(int rows);
    // The 16 dst rows of a byte or word tile, zmm first .. first + 15 (64
    // bytes each, osA bytes apart from rdx): streamed when the kernel and
    // the call may, rows up to s_row_z when `a_partial`.
    void store_a_rows(bool a_partial, int64_t osA, int first) {
        stores_streamed_or_cached(d_.nt && osA % 64 == 0, [&](bool stream, const Label &done) {
            for (int j = 0; j < 16; ++j) {
                if (a_partial) {
                    cmp(qword[rsp + s_row_z], j);
                    jle(done, T_NEAR);
                }
                const Address to = ptr[rdx + j * osA];
                stream ? vmovntdq(to, Zmm(first + j)) : vmovdqu8(to, Zmm(first + j));
            }
        });
    }
    // A tile of fewer than 16 A positions (rax a0): the positions to load
    // (s_cnt_load, mask k1) and the rows to store (s_row_z).
    void partial_a_counts() {
        clamp_diff(r13, qword[rsp + s_v0], rax, 16);
        mov(qword[rsp + s_cnt_load], r13);
        clamp_diff(r13, qword[rsp + s_z0], rax, 16);
        mov(qword[rsp + s_row_z], r13);
        mask_from_slot(k1, s_cnt_load, 16);
    }
    void word_transpose_8x8(int x, int y);
    void stage_group_open(int cols, const Label &lkeep, const Label &lpartial);
    void stage_src_group(
            int rows, int esz, const std::function<int64_t(int)> &row_disp, bool next_ok);
    // Loads zmm 0 .. 15 of a tile from the src stage: 128-bit lane g of
    // zmm r from rsp + buf_stage + r13 * scale + at(r, g).
    void load_staged_tile(int scale, const std::function<int64_t(int, int)> &at) {
        for (int r = 0; r < 16; ++r) {
            vmovdqu(Xmm(r), ptr[rsp + r13 * scale + buf_stage + at(r, 0)]);
            for (int g = 1; g < 4; ++g)
                vinserti32x4(Zmm(r), Zmm(r), ptr[rsp + r13 * scale + buf_stage + at(r, g)], g);
        }
    }
    void gen_word_tile(bool a_partial, int half = -1);
    void word_dst_prefetch(int64_t osA);
    void f32_dst_prefetch(int64_t osA);
    // Which lines of each 64-byte dst row dst_rows_prefetch fetches, how.
    enum class dst_pf_t { write_both, last_l2, first_l2 };
    void dst_rows_prefetch(int ahead, int64_t osA, dst_pf_t what);
    void whole_b_tiles(const Label &lb, int lanes, const std::function<void(bool)> &tile);
    void whole_b_tile_halves(
            const Label &lb, int lanes, const std::function<void(bool, int)> &tile);
    void gen_word_pair_tile();
    void word_pair_tiles(const Label &lb);
    Label c_wpair_; // gen_word_pair_tile: even and odd words of two rows
    // Stores dst rows 0 .. rows-1 of `rowb` bytes (whole 64-byte pieces) at
    // rdx + a * os[0]: streamed when `nt` and the call is aligned (s_nt),
    // cached otherwise. piece(a, c) gives the zmm of bytes c .. c + 63.
    template <typename F>
    void store_row_lines(int rows, int rowb, bool nt, F piece) {
        const int64_t osA = d_.os[0] * dsz_;
        stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
            for (int a = 0; a < rows; ++a)
                for (int c = 0; c < rowb; c += 64) {
                    const Zmm v = piece(a, c);
                    const Address to = ptr[rdx + a * osA + c];
                    stream ? vmovntdq(to, v) : vmovdqu8(to, v);
                }
        });
    }
    // Emits `stores(stream, done)` twice when `nt`: streamed if the call
    // may stream (s_nt: the driver found its dst line-aligned), cached
    // otherwise; once, cached, when not. `done` ends both (early exits).
    template <typename F>
    void stores_streamed_or_cached(bool nt, F stores) {
        stores_streamed_or_cached(nt, stores, [](const Label &) {});
    }
    // ... `also`: further conditions of the streamed branch, emitted after
    // the call's s_nt test, jumping to the cached branch (its label).
    template <class F, class G>
    void stores_streamed_or_cached(bool nt, F stores, G also) {
        Label lcached, ldone;
        if (nt) {
            cmp(qword[rsp + s_nt], 0);
            je(lcached, T_NEAR);
            also(lcached);
            stores(true, ldone);
            jmp(ldone, T_NEAR);
        }
        L(lcached);
        stores(false, ldone);
        L(ldone);
    }
    // Tiles whose lanes walk B (transposes, interleaves): temporaries
    // after the W tile registers, scales as vectors where their index
    // advances by one per lane. Returns log2 of B's inner positions.
    int begin_b_tiles() {
        tb_ = W_;
        ssc_vec_ = d_.ss[1] == 1;
        dsc_vec_ = d_.ds[1] == 1;
        int log_n1 = 0;
        while ((int64_t(1) << log_n1) < d_.in_n)
            ++log_n1;
        return log_n1;
    }
    static bool row_tiles(const jit_reorder_desc_t &d);
    static bool row_bytes(const jit_reorder_desc_t &d);
    void gen_row_tiles(int TA);
    void gen_row_bytes(int TA);
    void gen_narrow_half();
    void row_byte_groups(int g0, int g1, const Opmask *k);
    void gen_row_words(int TA);
    void word_rows(int j0, int j1, const Opmask *k);
    void gen_pair_a();
    void gen_quad_a();
    void gen_quad_bytes();
    void lanes_transpose_4x4(int r);
    void a_groups(int per, const std::function<void()> &step);
    void pair_a_step();
    void quad_a_step();
    void quad_bytes_step();
    // Row lanes (gen_row_bytes, gen_row_words): each src row is one lane,
    // so its scales are broadcast (a scale common to the tile held in
    // zmm 28 / 27); compute's temporaries at zmm 20, 21. end_row_lanes
    // restores what begin_row_lanes changed.
    struct row_lanes_t {
        bool svec, dvec;
        int tb;
    };
    row_lanes_t begin_row_lanes() {
        const row_lanes_t saved{ ssc_vec_, dsc_vec_, tb_ };
        ssc_vec_ = dsc_vec_ = false;
        tb_ = 20;
        if (d_.src_scale && d_.ss[1] == 0) {
            vbroadcastss(Zmm(28), ptr[rsi]);
            ssc_reg_ = 28;
        }
        if (d_.dst_scale && d_.ds[1] == 0) {
            vbroadcastss(Zmm(27), ptr[rdi]);
            dsc_reg_ = 27;
        }
        return saved;
    }
    void end_row_lanes(const row_lanes_t &saved) {
        ssc_vec_ = saved.svec;
        dsc_vec_ = saved.dvec;
        tb_ = saved.tb;
        ssc_reg_ = dsc_reg_ = -1;
    }
    row_lanes_t begin_row_bytes();
    void end_row_bytes(const row_lanes_t &saved);
    row_lanes_t begin_word_pairs();
    void end_word_pairs(const row_lanes_t &saved);
    void word_pair(int j, int h, const Address &a, const Opmask *k, int l);
    void gen_narrow_rows(int TA, const Label &lb);
    void gen_ymm_narrow(const Label &lb);
    void ymm_narrow_tile();
    void ymm_narrow_comp(int h);
    void ymm_block_lines(int rowb);
    void full_row_tile(int nl, int TA, const Label &lb, const std::function<void()> &tile);
    Label c_pack_; // gen_row_bytes: 4 x 4 byte transposes in each dword group
    void gen_few_b_tile();
    void few_b_rows();
    void few_b_ymm_stores();
    void few_b_word_pair();
    void few_b_comp(const Zmm &line);
    void gen_few_b_quad();
    void gen_dw_tiles();
    void dw_step(int groups);
    void dw_rows(int a, int s, int groups);
    void dw_comp_rows(int from, int rows, bool first, bool last);
    void dw_comp_store(int groups);
    void few_b_quad_lines(int64_t soff, int64_t doff, int64_t osL, bool first);
    static constexpr int few_b_ones_ = 18; // gen_few_b_quad's byte ones (zmm)
    void few_b_comp_dst();
    Label c_few_idx_; // gen_few_b_tile: the permute indices
    void gen_lane_tile();
    void lane_cvt_tile();
    void lane_tiles_comp(bool flush);
    void generate();
    void emit_constants();
};

// Only the constants the code refers to (a label gets its id at its first
// use): a bit copy needs none, and each costs 64 bytes of emission.
void reorder_gen_t::emit_constants() {
    auto f = [&](Label &l, float v) {
        if (l.getId() == 0) return;
        align(64);
        L(l);
        uint32_t u;
        std::memcpy(&u, &v, 4);
        for (int i = 0; i < 16; ++i)
            dd(u);
    };
    auto u = [&](Label &l, uint32_t v) {
        if (l.getId() == 0) return;
        align(64);
        L(l);
        for (int i = 0; i < 16; ++i)
            dd(v);
    };
    f(c_onef_, 1.f);
    f(c_szp_, d_.src_zp);
    f(c_dzp_, d_.dst_zp);
    f(c_beta_, d_.beta);
    f(c_sa_, d_.scale_adjust);
    float lo = 0, hi = 0;
    switch (d_.ddt) {
        case relayout_s32:
            lo = int_limits<relayout_s32>::lo, hi = int_limits<relayout_s32>::hi;
            break;
        case relayout_s16:
            lo = int_limits<relayout_s16>::lo, hi = int_limits<relayout_s16>::hi;
            break;
        case relayout_u16:
            lo = int_limits<relayout_u16>::lo, hi = int_limits<relayout_u16>::hi;
            break;
        case relayout_s8: lo = int_limits<relayout_s8>::lo, hi = int_limits<relayout_s8>::hi; break;
        case relayout_u8: lo = int_limits<relayout_u8>::lo, hi = int_limits<relayout_u8>::hi; break;
        default: break;
    }
    f(c_lo_, lo);
    f(c_hi_, hi);
    u(c_one_, 1);
    u(c_7fff_, 0x7fff);
    u(c_40_, 0x40);
    // A table of n entries emit(i), when used.
    auto table = [&](Label &l, int n, const std::function<void(int)> &emit) {
        if (l.getId() == 0) return;
        align(64);
        L(l);
        for (int i = 0; i < n; ++i)
            emit(i);
    };
    table(c_pack_, 64, [&](int i) { db(i / 16 * 16 + i % 4 * 4 + i % 16 / 4); });
    // Word pair tiles: row r even, row 8 + r even, r odd, 8 + r odd.
    table(c_wpair_, 32, [&](int i) { dw(uint16_t(i / 8 % 2 * 16 + i % 8 * 2 + i / 16)); });
    table(c_iota_, 16, [&](int i) { dd(i); });
    u(c_qnan_, 0x00400000);
    u(c_hmask_, 0xffff0000);
    table(c_widx_, 32, [&](int i) { dw(uint16_t(i / 2 + (i % 2) * 32)); });
    table(c_wint_, 32, [&](int i) { dw(uint16_t(i / 2 + (i % 2) * 16)); });
    table(c_plo_, 32, [&](int i) { dw(uint16_t(i / 16 * 32 + i % 16 * 2)); });
    table(c_phi_, 32, [&](int i) { dw(uint16_t(i / 16 * 32 + i % 16 * 2 + 1)); });
    // After vpackssdw (a, b), (c, d) and a byte pack, dword q of 128-bit
    // lane L holds elements 4 L .. 4 L + 3 of vector q (gen_flat_bytes).
    table(c_flat_perm_, 16, [&](int i) { dd(4 * (i % 4) + i / 4); });
    table(c_flat_b_src_, (int)d_.flat_b, [&](int k) { dd(uint32_t(flat_b_src(k))); });
    if (d_.flat_pairs) {
        const flat_pairs_t fp(d_);
        // Word 2 r + h of tile t: element h of line 16 t + r (a tile's
        // last lines past the call's repeat its last one).
        table(c_fpairs_, (int)(32 * fp.tiles()), [&](int i) {
            const int64_t t = i / 32, m = std::min(16 * t + i % 32 / 2, fp.lines() - 1);
            dw(uint16_t(fp.src(m, i % 2) - fp.window(t)));
        });
    }
    table(c_deal3_, 48, [&](int i) { dd(uint32_t(3 * (i % 16) + i / 16)); });
    table(c_fsplit_, 32, [&](int i) { dw(uint16_t(i % 16 * 2 + i / 16)); });
    table(c_ymm_perm_, 8, [&](int i) { dd(4 * (i % 2) + i / 2); });
    // Few B lanes: output vector j, step s (1 .. B - 1) of its permute
    // chain, lane l holds dst element f = 16 j + l: position p = f / B of
    // lane c = f % B. Step 1 picks c = 0 and 1 from rows 0 and 1, step s
    // >= 2 keeps the lanes so far and takes c = s from row s.
    const int fb = d_.few_b;
    if (z_)
        table(c_few_idx_, 16 * fb * (fb - 1), [&](int i) {
            const int j = i / 16 / (fb - 1), st = i / 16 % (fb - 1) + 1, l = i % 16;
            const int f = 16 * j + l, pos = f / fb, c = f % fb;
            dd(uint32_t(st == 1 ? (c == 1 ? 16 + pos : pos) : (c == st ? 16 + pos : l)));
        });
    // AVX2 (odd B): row c's permute moves position p to lane (B p + c) % 8,
    // so lane l takes position (l - c) / B mod 8 (B is odd: invertible mod
    // 8, B * B = 1 mod 8 for 3, 5, 7).
    else
        table(c_few_idx_, 8 * fb, [&](int i) {
            const int c = i / 8, l = i % 8;
            dd(uint32_t(((l - c + 8) * fb) % 8));
        });
    table(c_ysm_col_, 256, [&](int i) { db(ysm_col_[i / 32][i % 32 / 16]); });
    if (((d_.byte_tile || bytes_ || d_.flat_bytes || d_.ymm_small || d_.ymm_narrow || d_.lane_tiles)
                && d_.comp_lanes)
            || d_.comp_a) {
        u(c_ones8_, 0x01010101);
        u(c_ones16_, 0x00010001);
    }
    if (d_.comp_a) u(c_rep4_, 0x11111111);
}

// Bit copy with unit strides: bytes, four vectors per iteration.
void reorder_gen_t::gen_copy_bits() {
    const int VB = z_ ? 64 : 32; // bytes per vector
    const int U = 4;
    Label l4, l1, lt, lend;
    mov(rbx, qword[rsp + s_v0]);
    mov(rbp, qword[rsp + s_z0]);
    if (ssz_ > 1) {
        imul(rbx, rbx, ssz_);
        imul(rbp, rbp, ssz_);
    }
    xor_(rax, rax);
    auto vec = [&](int i) { return z_ ? Xmm(Zmm(i)) : Xmm(Ymm(i)); };
    if (d_.nt) {
        // Large dst (line-aligned call): whole lines, streamed (AVX2: two
        // ymm stores back to back per line).
        Label lnt, lnt_end;
        cmp(qword[rsp + s_nt], 0);
        je(lnt_end, T_NEAR);
        L(lnt);
        lea(rcx, ptr[rax + U * VB]);
        cmp(rcx, rbx);
        jg(lnt_end, T_NEAR);
        for (int j = 0; j < U; ++j)
            vmovups(vec(j), ptr[r8 + rax + j * VB]);
        for (int j = 0; j < U; ++j)
            vmovntdq(ptr[r9 + rax + j * VB], vec(j));
        add(rax, U * VB);
        jmp(lnt);
        L(lnt_end);
    }
    L(l4);
    lea(rcx, ptr[rax + U * VB]);
    cmp(rcx, rbx);
    jg(l1, T_NEAR);
    for (int j = 0; j < U; ++j)
        vmovups(vec(j), ptr[r8 + rax + j * VB]);
    for (int j = 0; j < U; ++j)
        vmovups(ptr[r9 + rax + j * VB], vec(j));
    add(rax, U * VB);
    jmp(l4);
    L(l1);
    lea(rcx, ptr[rax + VB]);
    cmp(rcx, rbx);
    jg(lt, T_NEAR);
    vmovups(vec(0), ptr[r8 + rax]);
    vmovups(ptr[r9 + rax], vec(0));
    add(rax, VB);
    jmp(l1);
    // Tail and zero padding: [rax, v) values, [v, z) zeros.
    L(lt);
    if (z_) {
        Label lz;
        L(lz);
        cmp(rax, rbp);
        jge(lend, T_NEAR);
        clamp_diff(rcx, rbx, rax, VB);
        mov(qword[rsp + s_cnt_v], rcx);
        clamp_diff(rdx, rbp, rax, VB);
        mov(qword[rsp + s_cnt_z], rdx);
        mask_from_slot(k1, s_cnt_v, 64);
        mask_from_slot(k3, s_cnt_z, 64);
        vmovdqu8(Zmm(0) | k1 | T_z, ptr[r8 + rax]);
        vmovdqu8(ptr[r9 + rax] | k3, Zmm(0));
        add(rax, VB);
        jmp(lz);
    } else {
        Label lv, lz;
        L(lv);
        cmp(rax, rbx);
        jge(lz, T_NEAR);
        mov(cl, byte[r8 + rax]);
        mov(byte[r9 + rax], cl);
        inc(rax);
        jmp(lv);
        L(lz);
        cmp(rax, rbp);
        jge(lend, T_NEAR);
        mov(byte[r9 + rax], 0);
        inc(rax);
        jmp(lz);
    }
    L(lend);
}

// Value path with unit strides: 32-bit lanes, converted per vector.
void reorder_gen_t::gen_copy() {
    tb_ = 8;
    ssc_vec_ = d_.ss[0] == 1;
    dsc_vec_ = d_.ds[0] == 1;
    const int U = 4;
    Label lu, l1, lt, lend;
    mov(rbx, qword[rsp + s_v0]);
    mov(rbp, qword[rsp + s_z0]);
    hoist_invariants();
    xor_(rax, rax);
    auto io = [&](int off, const Opmask *k) {
        lane_src_t s{ ptr[r9 + rax * dsz_ + off * dsz_],
            ssc_vec_ ? ptr[r10 + rax * 4 + off * 4] : ptr[r10],
            dsc_vec_ ? ptr[r11 + rax * 4 + off * 4] : ptr[r11], k };
        return s;
    };
    if (z_ && d_.nt) {
        // Large dst: 4 vectors packed into whole 64-byte lines, streamed.
        // 8-bit dsts narrow by saturating packs (jit_copy_packs).
        const bool packs = jit_copy_packs(d_);
        if (packs) vmovdqu32(Zmm(31), cst(c_flat_perm_));
        Label lnt, lnt_end;
        cmp(qword[rsp + s_nt], 0);
        je(lnt_end, T_NEAR);
        L(lnt);
        lea(rcx, ptr[rax + U * W_]);
        cmp(rcx, rbx);
        jg(lnt_end, T_NEAR);
        for (int j = 0; j < U; ++j)
            load_lanes(j, ptr[r8 + rax * ssz_ + j * W_ * ssz_], nullptr, d_.sdt);
        sat_packs_ = packs;
        for (int j = 0; j < U; ++j)
            compute(j, io(j * W_, nullptr));
        sat_packs_ = false;
        if (packs) {
            // Dword q of 128-bit lane L then holds elements 4 L .. 4 L + 3
            // of vector q; the dword permute puts them in order.
            const bool sgn = d_.ddt == relayout_s8;
            vpackssdw(Zmm(0), Zmm(0), Zmm(1));
            vpackssdw(Zmm(2), Zmm(2), Zmm(3));
            sgn ? vpacksswb(Zmm(0), Zmm(0), Zmm(2)) : vpackuswb(Zmm(0), Zmm(0), Zmm(2));
            vpermd(Zmm(0), Zmm(31), Zmm(0));
            vmovntdq(ptr[r9 + rax], Zmm(0));
        } else if (dsz_ == 4) {
            for (int j = 0; j < U; ++j)
                vmovntps(ptr[r9 + rax * 4 + j * 64], Zmm(j));
        } else {
            pack_lines(U);
            vmovntdq(ptr[r9 + rax * dsz_], Zmm(0));
            if (dsz_ == 2) vmovntdq(ptr[r9 + rax * 2 + 64], Zmm(2));
        }
        add(rax, U * W_);
        jmp(lnt);
        L(lnt_end);
    }
    if (!z_ && d_.nt) {
        // AVX2, large dst: 4 vectors packed into whole lines (8-bit dsts:
        // two groups of 4 per line, its halves stored back to back),
        // streamed. Cached, every store first read its line. AVX2,
        // 16x256x64x64 with a scale, 1 thread, % of a streaming copy (3
        // interleaved rounds): f32 -> s8 56-68 -> 76-86, -> bf16 68-70 ->
        // 79-91, -> f32 64-70 -> 92-97.
        const int G = dsz_ == 1 ? 2 : 1;
        Label lnt, lnt_end;
        cmp(qword[rsp + s_nt], 0);
        je(lnt_end, T_NEAR);
        L(lnt);
        lea(rcx, ptr[rax + G * U * W_]);
        cmp(rcx, rbx);
        jg(lnt_end, T_NEAR);
        for (int g = 0; g < G; ++g) {
            const int e0 = g * U * W_;
            ymm_bf16_grouped(0, U, [&] {
                for (int j = 0; j < U; ++j)
                    load_lanes(j, ptr[r8 + rax * ssz_ + (e0 + j * W_) * ssz_], nullptr, d_.sdt);
                for (int j = 0; j < U; ++j)
                    compute(j, io(e0 + j * W_, nullptr));
            });
            ymm_copy_lines(e0);
        }
        add(rax, G * U * W_);
        jmp(lnt);
        L(lnt_end);
    }
    for (int pass = 0; pass < 2; ++pass) {
        const int u = pass == 0 ? U : 1;
        Label &top = pass == 0 ? lu : l1;
        Label &next = pass == 0 ? l1 : lt;
        L(top);
        lea(rcx, ptr[rax + u * W_]);
        cmp(rcx, rbx);
        jg(next, T_NEAR);
        for (int j = 0; j < u; ++j)
            load_lanes(j, ptr[r8 + rax * ssz_ + j * W_ * ssz_], nullptr, d_.sdt);
        for (int j = 0; j < u; ++j) {
            compute(j, io(j * W_, nullptr));
            store_lanes(j, ptr[r9 + rax * dsz_ + j * W_ * dsz_], nullptr);
        }
        add(rax, u * W_);
        jmp(top);
    }
    L(lt);
    cmp(rax, rbp);
    jge(lend, T_NEAR);
    clamp_diff(rcx, rbx, rax, W_);
    mov(qword[rsp + s_cnt_v], rcx);
    clamp_diff(rdx, rbp, rax, W_);
    mov(qword[rsp + s_cnt_z], rdx);
    // A vector without value lanes (dst padding; the whole call when a
    // driver position is padding) stores zeros and reads nothing: its
    // scale index may be past the end of the scales (a padded row).
    Label lzero, lstore;
    if (z_) {
        mask_from_slot(k1, s_cnt_v, 16);
        mask_from_slot(k3, s_cnt_z, 16);
        kmovw(k2, k1);
        cmp(qword[rsp + s_cnt_v], 0);
        je(lzero, T_NEAR);
        load_lanes(0, ptr[r8 + rax * ssz_], &k1, d_.sdt);
        compute(0, io(0, &k2));
        zero_dead_lanes(0);
        jmp(lstore, T_NEAR);
        L(lzero);
        vpxord_or_xor(0);
        L(lstore);
        store_lanes(0, ptr[r9 + rax * dsz_], &k3);
    } else {
        cmp(qword[rsp + s_cnt_v], 0);
        je(lzero, T_NEAR);
        gather_to_buf(buf_src, r8 + rax * ssz_, s_cnt_v, ssz_);
        load_lanes(0, ptr[rsp + buf_src], nullptr, d_.sdt);
        compute_partial(0, r9 + rax * dsz_, ssc_vec_ ? r10 + rax * 4 : RegExp(r10),
                dsc_vec_ ? r11 + rax * 4 : RegExp(r11));
        lane_mask_from_slot(s_cnt_v);
        zero_dead_lanes(0);
        jmp(lstore, T_NEAR);
        L(lzero);
        vpxord_or_xor(0);
        L(lstore);
        store_lanes(0, ptr[rsp + buf_dst], nullptr);
        lea(r14, ptr[r9 + rax * dsz_]);
        copy_elems(r14, rsp + buf_dst, s_cnt_z, dsz_);
    }
    add(rax, W_);
    jmp(lt);
    L(lend);
    nhoisted_ = 0;
    ssc_reg_ = dsc_reg_ = -1;
}

// Narrows the finalized 32-bit lanes of zmm 0 .. nvec - 1 (elements in
// order) to the 2- or 1-byte ddt, packed into whole 64-byte lines: zmm 0,
// and zmm 2 for the second line of four vectors of 2-byte lanes.
void reorder_gen_t::pack_lines(int nvec) {
    if (dsz_ == 2 && bf16_ne_) {
        // (zmm 0 .. nvec - 1 f32; tmp(7) the slow paths' scratch)
        for (int j = 0; j + 1 < nvec; j += 2)
            bf16_convert2(Zmm(j), Zmm(j + 1), Zmm(j), Zmm(tb_ + 7));
        if (nvec % 2) bf16_convert(Ymm(nvec - 1), Zmm(nvec - 1), Zmm(tb_ + 7));
    } else if (dsz_ == 2) {
        for (int j = 0; j < nvec; ++j)
            (d_.ddt == relayout_f16) ? vcvtps2ph(Ymm(j), Zmm(j), 0) : vpmovdw(Ymm(j), Zmm(j));
        for (int j = 0; j + 1 < nvec; j += 2)
            vinserti64x4(Zmm(j), Zmm(j), Ymm(j + 1), 1);
    } else {
        for (int j = 0; j < nvec; ++j)
            vpmovdb(Xmm(j), Zmm(j));
        for (int j = 1; j < nvec; ++j)
            vinserti32x4(Zmm(0), Zmm(0), Xmm(j), j);
    }
}

// One position of a short copy (desc.short_copy): the run of n[0]
// elements from r8 to r9, straight-line. Bit copies move the bytes in the
// widest pieces that fit (vectors, then 32 .. 1 bytes); conversions n[0] /
// W whole vectors through the value pipeline. `nt`: whole 64-byte lines
// are streamed (the call is line-aligned, and the baked loops step by
// whole lines: desc.nt), others cached.
void reorder_gen_t::gen_short_copy(bool nt) {
    const int64_t n = d_.n[0];
    if (d_.short_unroll > 1 && !d_.bit_copy) {
        // Conversions to 2- and 1-byte dsts, one vector per position: u
        // positions along the innermost loop converted, narrowed and
        // packed into one line (AVX-512), as the streamed copy packs its
        // four vectors.
        const int u = d_.short_unroll, in = d_.nloops - 1;
        xor_(rax, rax);
        for (int j = 0; j < u; ++j)
            load_lanes(j, ptr[r8 + j * d_.loop_is[in] * ssz_], nullptr, d_.sdt);
        for (int j = 0; j < u; ++j) {
            lane_src_t s{ ptr[r9 + j * n * dsz_], ptr[r10 + j * d_.loop_ss[in] * 4],
                ptr[r11 + j * d_.loop_ds[in] * 4], nullptr };
            compute(j, s);
        }
        pack_lines(u);
        nt ? vmovntdq(ptr[r9], Zmm(0)) : vmovdqu64(ptr[r9], Zmm(0));
        return;
    }
    if (d_.short_unroll > 1) {
        // u runs of P bytes, one after the other in the dst, from src
        // positions loop_is[0] apart: one whole line (AVX-512: a zmm of u
        // pieces; AVX2: two ymm).
        const int u = d_.short_unroll, P = (int)(n * ssz_), per = (z_ ? 64 : 32) / P;
        const int64_t step = d_.loop_is[d_.nloops - 1] * ssz_;
        for (int v = 0; v < u / per; ++v) {
            const int j0 = v * per;
            const Xmm r = z_ ? Xmm(Zmm(v)) : Xmm(Ymm(v));
            vmovups(P == 32 ? Xmm(Ymm(v)) : Xmm(v), ptr[r8 + j0 * step]);
            for (int j = 1; j < per; ++j) {
                const Address a = ptr[r8 + (j0 + j) * step];
                if (P == 32)
                    vinserti64x4(Zmm(v), Zmm(v), a, j);
                else if (z_)
                    vinserti32x4(Zmm(v), Zmm(v), a, j);
                else
                    vinserti128(Ymm(v), Ymm(v), a, j);
            }
            nt ? vmovntps(ptr[r9 + v * (z_ ? 64 : 32)], r)
               : vmovups(ptr[r9 + v * (z_ ? 64 : 32)], r);
        }
        return;
    }
    if (d_.bit_copy) {
        const int VB = z_ ? 64 : 32;
        const int64_t bytes = n * ssz_;
        int64_t off = 0;
        for (int piece = VB; piece >= 1; piece /= 2)
            for (; bytes - off >= piece; off += piece) {
                const Address from = ptr[r8 + off], to = ptr[r9 + off];
                if (piece >= 16) {
                    const Xmm v = piece == 64 ? Xmm(Zmm(0)) : piece == 32 ? Xmm(Ymm(0)) : Xmm(0);
                    vmovups(v, from);
                    // (AVX2: the two halves of a line, back to back.)
                    const bool line = off % 64 == 0 ? bytes - off >= 64 : piece == 32 && !z_;
                    if (nt && line && piece >= 32)
                        vmovntps(to, v);
                    else
                        vmovups(to, v);
                } else {
                    const Reg r = piece == 8   ? Reg(rcx)
                                  : piece == 4 ? Reg(ecx)
                                  : piece == 2 ? Reg(cx)
                                               : Reg(cl);
                    mov(r, from);
                    mov(to, r);
                }
            }
        return;
    }
    const int nv = (int)(n / W_);
    xor_(rax, rax);
    for (int j = 0; j < nv; ++j)
        load_lanes(j, ptr[r8 + j * W_ * ssz_], nullptr, d_.sdt);
    for (int j = 0; j < nv; ++j) {
        lane_src_t s{ ptr[r9 + j * W_ * dsz_], ssc_vec_ ? ptr[r10 + j * W_ * 4] : ptr[r10],
            dsc_vec_ ? ptr[r11 + j * W_ * 4] : ptr[r11], nullptr };
        compute(j, s);
        if (nt && z_ && dsz_ == 4)
            vmovntps(ptr[r9 + j * 64], Zmm(j));
        else
            store_lanes(j, ptr[r9 + j * W_ * dsz_], nullptr);
    }
}

// Jumps to `l` unless the call is whole: each of the first `nmicro` micro
// nodes has its full extent of values and of stored positions (no edge,
// no padding; B counted in lanes, in_n per position).
void reorder_gen_t::jump_unless_whole_call(int nmicro, const Label &l) {
    for (int m = 0; m < nmicro; ++m) {
        const int full = (int)(m ? d_.n[1] * d_.in_n : d_.n[0]);
        cmp(qword[rsp + s_v0 + 8 * m], full);
        jne(l, T_NEAR);
        cmp(qword[rsp + s_z0 + 8 * m], full);
        jne(l, T_NEAR);
    }
}

// Whole calls of a short copy (every position n[0] values, no padding):
// `loops` runs the baked loops around a body; streamed where the call is
// line-aligned (s_nt), cached otherwise; then on to `done`. Other calls
// fall through to the general copy.
void reorder_gen_t::short_copy_calls(
        const std::function<void(int, const std::function<void()> &)> &loops, const Label &done) {
    Label lgeneric, lcached;
    jump_unless_whole_call(1, lgeneric);
    if (!d_.bit_copy) {
        tb_ = 8;
        ssc_vec_ = d_.ss[0] == 1;
        dsc_vec_ = d_.ds[0] == 1;
        // A scale constant along the run is hoisted only when the baked
        // loops keep it constant too (a scale per image: they step it).
        bool fixed = true;
        for (int l = 0; l < d_.nloops; ++l)
            if ((d_.src_scale && d_.loop_ss[l]) || (d_.dst_scale && d_.loop_ds[l])) fixed = false;
        mov(rbx, qword[rsp + s_v0]); // (a call with values: the scales are read)
        hoist_invariants(fixed);
    }
    if (d_.nt) {
        cmp(qword[rsp + s_nt], 0);
        je(lcached, T_NEAR);
        loops(d_.nloops, [&] { gen_short_copy(true); });
        jmp(done, T_NEAR);
    }
    L(lcached);
    loops(d_.nloops, [&] { gen_short_copy(false); });
    jmp(done, T_NEAR);
    L(lgeneric);
    nhoisted_ = 0;
    ssc_reg_ = dsc_reg_ = -1;
}

// Streams the finalized 32-bit lanes of ymm 0..3 (elements e0 .. e0 + 31
// of the call, rax the first) as `ddt`: f32 / 32-bit as four ymm, 16-bit
// packed into two, 8-bit into one, with the packs of store_lanes (the
// same saturation), then put back in element order.
void reorder_gen_t::ymm_copy_lines(int e0) {
    const data_type_t dt = d_.ddt;
    auto out = [&](int i) { return ptr[r9 + rax * dsz_ + e0 * dsz_ + 32 * i]; };
    const bool sgn = value_path() && (dt == relayout_s16 || dt == relayout_s8);
    if (dsz_ == 4) {
        for (int j = 0; j < 4; ++j)
            vmovntps(out(j), Ymm(j));
    } else if (value_path() && dt == relayout_f16) {
        for (int j = 0; j < 4; ++j)
            vcvtps2ph(Xmm(j), Ymm(j), 0);
        vinserti128(Ymm(0), Ymm(0), Xmm(1), 1);
        vinserti128(Ymm(2), Ymm(2), Xmm(3), 1);
        vmovntdq(out(0), Ymm(0));
        vmovntdq(out(1), Ymm(2));
    } else {
        // Per 128-bit lane: the low then the high four lanes of a vector.
        for (int j = 0; j < 4; j += 2)
            sgn ? vpackssdw(Ymm(j), Ymm(j), Ymm(j + 1)) : vpackusdw(Ymm(j), Ymm(j), Ymm(j + 1));
        if (dsz_ == 2) {
            for (int j = 0; j < 4; j += 2) {
                vpermq(Ymm(j), Ymm(j), 0xD8);
                vmovntdq(out(j / 2), Ymm(j));
            }
        } else {
            sgn ? vpacksswb(Ymm(0), Ymm(0), Ymm(2)) : vpackuswb(Ymm(0), Ymm(0), Ymm(2));
            vmovdqu(Ymm(tb_ + 7), ptr[rip + c_ymm_perm_]);
            vpermd(Ymm(0), Ymm(tb_ + 7), Ymm(0));
            vmovntdq(out(0), Ymm(0));
        }
    }
}

// ---- bf16 with AVX512_BF16 (desc.bf16_ne) ----------------------------------
// vcvtneps2bf16 and vcvtne2ps2bf16 round every f32 as the reference's
// f32_to_bf16 does (integer round to nearest even, overflow to inf, NaN:
// its top half quieted, bit 6 set; MXCSR not consulted) except denormal
// inputs, which they treat as zero (Intel SDM; checked on all 2^32 inputs,
// ARCHITECTURE §11). A vector with a denormal lane (vfpclassps 0x20)
// jumps out of line to the integer rounding of finalize_lanes and back.

// out = the bf16 bits of v's lanes, in their low words (AVX-512; t a
// temporary, not v; out may be t or v): round to nearest even in
// integers, the NaN case merged before the shift (as word_pair does): t =
// v + 0x7fff + bit 16 of v, NaN lanes v | quiet bit. 7 instructions
// instead of 10: f32 -> bf16 copies are bound by them (without the
// conversion at a copy's speed): 16x256x64x64 with a scale, % of a
// streaming copy, medians of 7 interleaved, single-thread 76 -> 85, two
// processes at once 71 -> 78. finalize_lanes' bf16 and bf16_convert's
// vectors with denormal lanes.
void reorder_gen_t::bf16_round_int(const Xmm &t, const Xmm &v, const Xmm &out) {
    vpsrld(t, v, 16);
    with_cst(c_one_, [&](const Operand &c) { vpandd(t, t, c); });
    with_cst(c_7fff_, [&](const Operand &c) { vpaddd(t, t, c); });
    vpaddd(t, t, v);
    vcmpps(k4, v, v, 3); // unordered: NaN
    with_cst(c_qnan_, [&](const Operand &c) { vpord(t | k4, v, c); });
    vpsrld(out, t, 16);
}

// AVX2 bf16 rounding of ymm v0 .. v0 + n - 1 (n even, f32 left by
// finalize_lanes; tmp(2..4) scratch) into the low words of their lanes:
// one NaN test for all (vcmpunordps of two vectors is true where either
// lane is NaN), then round to nearest even in integers, 5 instructions a
// vector; a NaN anywhere jumps out of line to finalize_lanes' rounding
// (NaN quieted, vblendvps: 3 uops on Intel's P-cores, 1 on Zen 4), 10
// uops a vector on Intel before.
void reorder_gen_t::ymm_bf16_round(int v0, int n) {
    cold_labels_.emplace_back();
    Label &cold = cold_labels_.back();
    cold_labels_.emplace_back();
    Label &back = cold_labels_.back();
    const Ymm m(tb_ + 2), m1(tb_ + 3), t(tb_ + 4);
    for (int j = 0; j < n; j += 2) {
        vcmpps(j == 0 ? m : m1, Ymm(v0 + j), Ymm(v0 + j + 1), 3); // unordered
        if (j > 0) vpor(m, m, m1);
    }
    vptest(m, m);
    jnz(cold, T_NEAR);
    for (int j = 0; j < n; ++j) {
        const Ymm v(v0 + j);
        vpsrld(t, v, 16);
        with_cst(c_one_, [&](const Operand &c) { vpand(t, t, c); });
        with_cst(c_7fff_, [&](const Operand &c) { vpaddd(t, t, c); });
        vpaddd(v, v, t);
        vpsrld(v, v, 16);
    }
    L(back);
    cold_.push_back([this, &cold, &back, v0, n, tb = tb_] {
        L(cold);
        const int tb_kernel = tb_;
        tb_ = tb;
        for (int j = 0; j < n; ++j)
            finalize_lanes(v0 + j);
        tb_ = tb_kernel;
        jmp(back, T_NEAR);
    });
}

// `to` (a ymm for a zmm v, an xmm for an xmm) = v's f32 lanes as bf16.
// `scratch` (v's width, not v; may be to's register): the slow path's.
void reorder_gen_t::bf16_convert(const Xmm &to, const Xmm &v, const Xmm &scratch) {
    cold_labels_.emplace_back();
    Label &cold = cold_labels_.back();
    cold_labels_.emplace_back();
    Label &back = cold_labels_.back();
    vfpclassps(k4, v, 0x20); // denormal lanes
    kortestw(k4, k4);
    jnz(cold, T_NEAR);
    vcvtneps2bf16(to, v, EvexEncoding);
    L(back);
    cold_.push_back([this, &cold, &back, to, v, scratch] {
        L(cold);
        bf16_round_int(scratch, v, scratch);
        vpmovdw(to, scratch);
        jmp(back, T_NEAR);
    });
}

// `to` = lo's 16 lanes as bf16 (words 0-15), then hi's (16-31). The slow
// path clobbers lo; `scratch` is neither lo nor hi.
void reorder_gen_t::bf16_convert2(const Zmm &to, const Zmm &hi, const Zmm &lo, const Zmm &scratch) {
    cold_labels_.emplace_back();
    Label &cold = cold_labels_.back();
    cold_labels_.emplace_back();
    Label &back = cold_labels_.back();
    vfpclassps(k4, lo, 0x20);
    vfpclassps(k0, hi, 0x20);
    kortestw(k4, k0);
    jnz(cold, T_NEAR);
    vcvtne2ps2bf16(to, hi, lo);
    L(back);
    cold_.push_back([this, &cold, &back, to, hi, lo, scratch] {
        L(cold);
        bf16_round_int(scratch, lo, scratch);
        vpmovdw(Ymm(lo.getIdx()), scratch);
        bf16_round_int(scratch, hi, scratch);
        vpmovdw(Ymm(scratch.getIdx()), scratch);
        vinserti64x4(to, lo, Ymm(scratch.getIdx()), 1);
        jmp(back, T_NEAR);
    });
}

// Loads the loop invariants of the value pipeline into spare registers
// (gen_copy: vectors 0..3 and tmp() 8..15 are in use): a common scale,
// broadcast once per call instead of once per vector, then the constants
// the pipeline reads. Candidates beyond the spare registers stay in
// memory. rbx = v[0]: a call without values reads no scale.
void reorder_gen_t::hoist_invariants(bool scales) {
    const int first = z_ ? 16 : 4, last = z_ ? 30 : 7;
    int r = first;
    if (scales && d_.src_scale && !ssc_vec_ && r <= last) ssc_reg_ = r++;
    if (scales && d_.dst_scale && !dsc_vec_ && r <= last) dsc_reg_ = r++;
    if (ssc_reg_ >= 0 || dsc_reg_ >= 0) {
        Label lnone;
        test(rbx, rbx);
        jz(lnone, T_NEAR);
        if (ssc_reg_ >= 0) vbroadcastss(vr(ssc_reg_), ptr[r10]);
        if (dsc_reg_ >= 0) vbroadcastss(vr(dsc_reg_), ptr[r11]);
        L(lnone);
    }
    const Label *cand[8];
    int n = 0;
    if (!d_.src_scale && onef_multiply()) cand[n++] = &c_onef_;
    if (d_.src_zp != 0.f) cand[n++] = &c_szp_;
    if (d_.dst_zp != 0.f) cand[n++] = &c_dzp_;
    if (d_.scale_adjust != 1.f) cand[n++] = &c_sa_;
    if (is_int(d_.ddt)) {
        cand[n++] = &c_lo_;
        cand[n++] = &c_hi_;
    } else if (d_.ddt == relayout_bf16 && !bf16_ne_) {
        cand[n++] = &c_one_;
        cand[n++] = &c_7fff_;
        cand[n++] = &c_qnan_;
    }
    nhoisted_ = 0;
    for (int i = 0; i < n && r <= last; ++i) {
        vmovups(vr(r), cst(*cand[i]));
        hoisted_[nhoisted_++] = hoisted_t{ cand[i], r++ };
    }
}

// Transposes the W x W 32-bit tile held in vr(0 .. W-1) (row b = lanes
// along A) into rows along B, in place; vr(W .. 2W-1) are scratch. On
// AVX-512, a subroutine shared by the full and the edge tiles, emitted
// once (at the end, emit_subroutines): its 64 shuffles were a fifth of
// the emission time of a cold transpose kernel; a call and a return per
// tile at run time. The 8x8 AVX2 tile (28 instructions) stays inline.
// `rows` < 16 (AVX-512): only vr(0 .. rows-1) are used after it, and the
// last stage skips the shuffles of the other rows (a subroutine of its
// own; one such row count per kernel).
void reorder_gen_t::transpose_tile(int rows) {
    if (!z_) {
        transpose_tile_body();
        return;
    }
    if (rows < 16 && (!transpose_rows_ || transpose_rows_ == rows)) {
        transpose_rows_ = rows;
        call(l_transpose_rows_);
        return;
    }
    call(l_transpose_);
    transpose_used_ = true;
}

// The last stage makes rows c, 8 + c of zmm 16, 18 and rows 4 + c, 12 + c
// of zmm 17, 19: a row not used (>= rows) is not made, nor a pair of
// temporaries that makes no used row (9 rows: 57 shuffles instead of 64).
void reorder_gen_t::transpose_tile_body(int rows) {
    if (z_) {
        for (int i = 0; i < 8; ++i) {
            vunpcklps(Zmm(16 + 2 * i), Zmm(2 * i), Zmm(2 * i + 1));
            vunpckhps(Zmm(17 + 2 * i), Zmm(2 * i), Zmm(2 * i + 1));
        }
        for (int k = 0; k < 4; ++k) {
            const int t = 16 + 4 * k;
            vshufps(Zmm(4 * k + 0), Zmm(t), Zmm(t + 2), 0x44);
            vshufps(Zmm(4 * k + 1), Zmm(t), Zmm(t + 2), 0xEE);
            vshufps(Zmm(4 * k + 2), Zmm(t + 1), Zmm(t + 3), 0x44);
            vshufps(Zmm(4 * k + 3), Zmm(t + 1), Zmm(t + 3), 0xEE);
        }
        auto used = [&](int row) { return row < rows; };
        for (int c = 0; c < 4; ++c) {
            const bool lo = used(c) || used(8 + c), hi = used(4 + c) || used(12 + c);
            if (lo) vshuff32x4(Zmm(16), Zmm(c), Zmm(4 + c), 0x88);
            if (hi) vshuff32x4(Zmm(17), Zmm(c), Zmm(4 + c), 0xDD);
            if (lo) vshuff32x4(Zmm(18), Zmm(8 + c), Zmm(12 + c), 0x88);
            if (hi) vshuff32x4(Zmm(19), Zmm(8 + c), Zmm(12 + c), 0xDD);
            if (used(c)) vshuff32x4(Zmm(c), Zmm(16), Zmm(18), 0x88);
            if (used(8 + c)) vshuff32x4(Zmm(8 + c), Zmm(16), Zmm(18), 0xDD);
            if (used(4 + c)) vshuff32x4(Zmm(4 + c), Zmm(17), Zmm(19), 0x88);
            if (used(12 + c)) vshuff32x4(Zmm(12 + c), Zmm(17), Zmm(19), 0xDD);
        }
    } else {
        for (int i = 0; i < 4; ++i) {
            vunpcklps(Ymm(8 + 2 * i), Ymm(2 * i), Ymm(2 * i + 1));
            vunpckhps(Ymm(9 + 2 * i), Ymm(2 * i), Ymm(2 * i + 1));
        }
        for (int k = 0; k < 2; ++k) {
            const int t = 8 + 4 * k;
            vshufps(Ymm(4 * k + 0), Ymm(t), Ymm(t + 2), 0x44);
            vshufps(Ymm(4 * k + 1), Ymm(t), Ymm(t + 2), 0xEE);
            vshufps(Ymm(4 * k + 2), Ymm(t + 1), Ymm(t + 3), 0x44);
            vshufps(Ymm(4 * k + 3), Ymm(t + 1), Ymm(t + 3), 0xEE);
        }
        for (int c = 0; c < 4; ++c) {
            vperm2f128(Ymm(8), Ymm(c), Ymm(4 + c), 0x20);
            vperm2f128(Ymm(4 + c), Ymm(c), Ymm(4 + c), 0x31);
            vmovaps(Ymm(c), Ymm(8));
        }
    }
}

// Transposes 16x16 bytes in every 128-bit lane of zmm 0..15 (row r of a
// lane in zmm r) into zmm 0..15 (zmm j = column j of each lane, rows in
// order): four unpack stages (bytes, words, dwords, qwords) ping-ponging
// between zmm 0..15 and zmm 16..31. The column each output holds is
// derived by running the same network on labels, so the code cannot
// silently mislabel a register.
void reorder_gen_t::byte_transpose_16x16() {
    struct lane_t {
        int lab[16]; // row * 16 + col of each byte
    };
    lane_t cur[16], nxt[16];
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c)
            cur[r].lab[c] = r * 16 + c;
    int base = 0; // registers of cur: base .. base + 15
    for (int st = 0; st < 4; ++st) {
        const int e = 1 << st; // element bytes of this stage
        const int out = base ^ 16;
        // Stage st pairs rows (i, i + e) within groups of 2e; the outputs
        // of pair k go to 2k (lo) and 2k + 1 (hi).
        int k = 0;
        for (int g = 0; g < 16; g += 2 * e)
            for (int i = g; i < g + e; ++i, ++k) {
                const int p = i, q = i + e;
                const Zmm a(base + p), b(base + q), lo(out + 2 * k), hi(out + 2 * k + 1);
                switch (st) {
                    case 0: vpunpcklbw(lo, a, b), vpunpckhbw(hi, a, b); break;
                    case 1: vpunpcklwd(lo, a, b), vpunpckhwd(hi, a, b); break;
                    case 2: vpunpckldq(lo, a, b), vpunpckhdq(hi, a, b); break;
                    default: vpunpcklqdq(lo, a, b), vpunpckhqdq(hi, a, b); break;
                }
                // Labels: interleave elements of e bytes from the low
                // (lo) or high (hi) half of each 16-byte lane.
                for (int half = 0; half < 2; ++half) {
                    lane_t &o = nxt[2 * k + half];
                    const int n = 8 / e; // elements per half
                    for (int j = 0; j < n; ++j)
                        for (int t = 0; t < e; ++t) {
                            o.lab[(2 * j) * e + t] = cur[p].lab[half * 8 + j * e + t];
                            o.lab[(2 * j + 1) * e + t] = cur[q].lab[half * 8 + j * e + t];
                        }
                }
            }
        for (int r = 0; r < 16; ++r)
            cur[r] = nxt[r];
        base = out;
    }
    // Expected: register j holds column j, rows 0..15 in order, in zmm j.
    bool ok = base == 0;
    for (int j = 0; j < 16; ++j)
        for (int r = 0; r < 16; ++r)
            ok = ok && cur[j].lab[r] == r * 16 + j;
    if (!ok) Xbyak::local::SetError(Xbyak::ERR_INTERNAL); // fails the generation
}

// acc = (first) or += the sums of the byte pairs of `row` as words (s8
// signed, u8 unsigned; ones: bytes of 1), t a temporary.
void reorder_gen_t::byte_pair_sums(
        const Xmm &acc, const Xmm &t, const Xmm &ones, const Xmm &row, bool first) {
    if (d_.ddt == relayout_s8)
        vpmaddubsw(first ? acc : t, ones, row);
    else
        vpmaddubsw(first ? acc : t, row, ones);
    if (!first) vpaddw(acc, acc, t);
}

// The compensation of byte rows zmm 0 .. rows-1 (64 lanes each), summed
// per 4 neighbouring lanes (one compensation index): bytes to word pairs
// (exact: |2 x 255| fits), rows summed in words (16 x 510 fits), then
// word pairs to dwords, once per tile, added to the group sums of lanes
// r15 ... Uses zmm 16 .. 18.
void reorder_gen_t::comp_byte_groups(int rows) {
    if (!comp_) return;
    const Zmm acc(16), t(17), ones(18);
    vmovdqu32(ones, ptr[rip + c_ones8_]);
    for (int j = 0; j < rows; ++j)
        byte_pair_sums(acc, t, ones, Zmm(j), j == 0);
    vpmaddwd(acc, acc, ptr[rip + c_ones16_]);
    mov(r14, qword[rsp + s_comp]);
    const int64_t goff = d_.comp_nl * 4;
    vpaddd(acc, acc, ptr[r14 + r15 + (int)goff]);
    vmovdqu32(ptr[r14 + r15 + (int)goff], acc);
}

// A byte tile of a 1-byte bit copy: 16 A positions x 64 B lanes. Zmm r
// gathers 16 src bytes (along A) of lanes r, 16 + r, 32 + r and 48 + r,
// one per 128-bit lane; after the in-lane transpose zmm j is the whole
// 64-byte dst row of A position j. `a_partial`: fewer than 16 A positions
// hold values (masked loads, zero columns) and rows up to the stored count
// are written. rcx src tile, rdx dst tile, r15 b0 (a multiple of 64).
void reorder_gen_t::gen_byte_tile(bool a_partial, int half) {
    const int64_t n1 = d_.in_n;
    auto row_disp = [&](int b) { return (b % n1) * d_.in_is + (b / n1) * d_.is[1]; };
    const int64_t osA = d_.os[0];
    // Src rows far apart in powers of two (a 2^k-byte row pitch) share
    // one L1 set: the 64 lines of a tile evict each other before the next
    // three A tiles read them again (measured: 2048^2 s8 transposes at a
    // fifth of the in-cache speed). With one B tile per A step, the first
    // tile of each 64-column group copies its 64 rows x 64 bytes to a
    // contiguous stack buffer with whole-line loads, and the group's four
    // tiles transpose from there. `half` >= 0: calls of two B tiles (128
    // rows, one stage, see jit_byte_rows128); the first tile stages both,
    // the second reads rows 64 .. 127 of the stage.
    Label lload_done;
    if (stage_ && !a_partial) {
        Label lstage_load;
        const int64_t next_b = d_.n[1] * d_.is[1];
        const int pitch = 64 * std::max(1, wide_); // bytes of a stage row
        const int rows = half >= 0 ? 128 : 64;
        const int64_t at = half > 0 ? 64 * pitch : 0;
        if (wide_)
            stage_src_wide(rows, 1, d_.is[1], fits32(rows * d_.is[1] + next_b + pitch), half <= 0);
        else
            stage_src_group(64, 1, row_disp, fits32(64 * (d_.in_is + d_.is[1]) + next_b));
        cmp(qword[rsp + s_stage_ok], 0);
        je(lstage_load, T_NEAR);
        mov(r13, rax);
        and_(r13, pitch - 1);
        load_staged_tile(1, [&](int r, int g) { return at + (16 * g + r) * pitch; });
        jmp(lload_done, T_NEAR);
        L(lstage_load);
    }
    if (a_partial) partial_a_counts();
    if (!a_partial) byte_tile_prefetch();
    for (int r = 0; r < 16; ++r) {
        const Zmm z(r);
        if (a_partial) {
            vmovdqu8(Xmm(r) | k1 | T_z, ptr[rcx + row_disp(r)]);
            for (int g = 1; g < 4; ++g) {
                vmovdqu8(Xmm(16 + g) | k1 | T_z, ptr[rcx + row_disp(16 * g + r)]);
                vinserti32x4(z, z, Xmm(16 + g), g);
            }
        } else if (!byte_lines_) {
            vmovdqu(Xmm(r), ptr[rcx + row_disp(r)]);
            for (int g = 1; g < 4; ++g)
                vinserti32x4(z, z, ptr[rcx + row_disp(16 * g + r)], g);
        }
    }
    if (!a_partial && byte_lines_) {
        // Line o (lanes 4 o .. 4 o + 3 at 16-byte steps) into zmm 4 (o %
        // 4) + o / 4, whose lane i then goes to lane o / 4 of zmm 4 (o %
        // 4) + i: the registers of the 16-byte loads above.
        for (int o = 0; o < 16; ++o)
            vmovdqu8(Zmm(4 * (o % 4) + o / 4), ptr[rcx + row_disp(4 * o)]);
        for (int q = 0; q < 4; ++q)
            lanes_transpose_4x4(4 * q);
    }
    L(lload_done);
    if (!a_partial) byte_dst_prefetch(osA);
    byte_transpose_16x16();
    comp_byte_groups(16);
    if (half >= 0)
        store_tile_half(half, 64, osA, 0);
    else
        store_a_rows(a_partial, osA, 0);
}

// The 16 dst rows (zmm first .. first + 15) of tile `half` of a call of
// two B tiles of `lanes` lanes (64 bytes of each row; rdx this tile's
// dst). With bursts_ and a whole call (both tiles run as whole tiles:
// whole_b_tile_halves), the first tile parks its rows on the stack and
// the second stores each row's two lines back to back, the parked one
// 64 bytes before its own; else each tile stores its rows.
void reorder_gen_t::store_tile_half(int half, int lanes, int64_t osA, int first) {
    if (!bursts_) return store_a_rows(false, osA, first);
    const int at = burst_rows_at();
    if (half == 0) {
        Label lalone, ldone;
        cmp(qword[rsp + s_v0 + 8], 2 * lanes);
        jl(lalone, T_NEAR);
        for (int j = 0; j < 16; ++j)
            vmovdqa64(ptr[rsp + at + 64 * j], Zmm(first + j));
        jmp(ldone, T_NEAR);
        L(lalone);
        store_a_rows(false, osA, first);
        L(ldone);
        return;
    }
    const int spare = first ^ 16; // the other half of the registers
    stores_streamed_or_cached(d_.nt && osA % 64 == 0, [&](bool stream, const Label &) {
        for (int j = 0; j < 16; ++j) {
            vmovdqa64(Zmm(spare + j), ptr[rsp + at + 64 * j]);
            for (int l = 0; l < 2; ++l) {
                const Address to = ptr[rdx + j * osA + 64 * (l - 1)];
                const Zmm v(l ? first + j : spare + j);
                stream ? vmovntdq(to, v) : vmovdqu8(to, v);
            }
        }
    });
}

void reorder_gen_t::byte_tile_prefetch() {
    if (!byte_pf_) return;
    mov(r14, rax);
    and_(r14, 48);
    imul(r14, r14, (int)d_.is[1]);
    add(r14, rcx);
    for (int r = 0; r < 16; ++r) {
        const Address a = ptr[r14 + r * d_.is[1] + byte_pf_];
        prefetcht1(a);
    }
}

// Transposes the 8 x 8 words of every 128-bit lane of zmm x .. x + 7 (row
// r of a lane in zmm x + r) into zmm y .. y + 7 (zmm y + j = column j of
// each lane, rows in order), with three unpack stages (words, dwords,
// qwords); zmm x .. x + 7 are clobbered.
void reorder_gen_t::word_transpose_8x8(int x, int y) {
    // y + 2k, y + 2k + 1: columns 0-3 and 4-7 of rows 2k, 2k + 1, pairwise
    for (int k = 0; k < 4; ++k) {
        vpunpcklwd(Zmm(y + 2 * k), Zmm(x + 2 * k), Zmm(x + 2 * k + 1));
        vpunpckhwd(Zmm(y + 2 * k + 1), Zmm(x + 2 * k), Zmm(x + 2 * k + 1));
    }
    // x + 4q + m: columns 2m, 2m + 1 of rows 4q .. 4q + 3
    for (int q = 0; q < 2; ++q)
        for (int h = 0; h < 2; ++h) {
            const Zmm a(y + 4 * q + h), b(y + 4 * q + 2 + h);
            vpunpckldq(Zmm(x + 4 * q + 2 * h), a, b);
            vpunpckhdq(Zmm(x + 4 * q + 2 * h + 1), a, b);
        }
    // y + 2m, y + 2m + 1: columns 2m, 2m + 1 of rows 0 .. 7
    for (int m = 0; m < 4; ++m) {
        vpunpcklqdq(Zmm(y + 2 * m), Zmm(x + m), Zmm(x + 4 + m));
        vpunpckhqdq(Zmm(y + 2 * m + 1), Zmm(x + m), Zmm(x + 4 + m));
    }
}

// Stages the src of byte and word tiles whose B src rows are far apart
// (see gen_byte_tile: rows 2^k bytes apart share an L1 set and evict
// each other between the A tiles of a line). The first tile of each group
// of 64 / esz columns (one line of each of the `rows` rows; rax a0, rcx
// src tile, B rows at row_disp(b) bytes) copies the group to the stack
// with whole-line loads, and prefetches the lines of the group stage_pf_
// groups ahead into L2: a tile's rows are on different pages, which the
// hardware prefetchers do not follow (8192^2 s8 transposes 1.5x). The
// first group of a call starts the pipeline; the last groups of a call
// prefetch the first groups of the next call instead (`next_ok`: their
// displacements fit), which the driver runs on the next B tile (its
// innermost node): group g + pf - groups of the next B rows, at rcx +
// 64 pf - esz v0 (8192^2 s8: 1.1-1.25x; the first group of a call waited
// for its lines). s_stage_ok: the stage holds the current group.
// The start of a staged group of `cols` columns: a tile not at a group's
// first column goes to `lkeep` (the stage holds its group or not, as
// s_stage_ok says); a group without `cols` value columns is not staged
// (s_stage_ok = 0) and goes to `lpartial`; else s_stage_ok = 1.
void reorder_gen_t::stage_group_open(int cols, const Label &lkeep, const Label &lpartial) {
    test(rax, cols - 1);
    jnz(lkeep, T_NEAR);
    mov(qword[rsp + s_stage_ok], 0);
    jump_if_past(rax, cols, s_v0, lpartial);
    mov(qword[rsp + s_stage_ok], 1);
}

void reorder_gen_t::stage_src_group(
        int rows, int esz, const std::function<int64_t(int)> &row_disp, bool next_ok) {
    const int cols = 64 / esz;
    Label lkeep, lpf_first, lpf_next, lpf_done;
    stage_group_open(cols, lkeep, lkeep);
    for (int b = 0; b < rows; ++b) {
        vmovdqu8(Zmm(b % 16), ptr[rcx + row_disp(b)]);
        vmovdqa32(ptr[rsp + buf_stage + b * 64], Zmm(b % 16));
    }
    test(rax, rax);
    jz(lpf_first, T_NEAR);
    jump_if_past(rax, cols * (stage_pf_ + 1), s_v0, lpf_next);
    for (int b = 0; b < rows; ++b)
        prefetcht1(ptr[rcx + row_disp(b) + 64 * stage_pf_]);
    jmp(lpf_done, T_NEAR);
    L(lpf_next);
    const int64_t next_b = d_.n[1] * d_.is[1] * esz;
    if (next_ok) {
        lea(r14, ptr[rcx + 64 * stage_pf_]);
        for (int i = 0; i < esz; ++i)
            sub(r14, qword[rsp + s_v0]);
        for (int b = 0; b < rows; ++b)
            prefetcht1(ptr[r14 + row_disp(b) + next_b]);
    }
    jmp(lpf_done, T_NEAR);
    L(lpf_first);
    for (int g = 1; g <= stage_pf_; ++g) {
        cmp(qword[rsp + s_v0], cols * (g + 1));
        jl(lpf_done, T_NEAR);
        for (int b = 0; b < rows; ++b)
            prefetcht1(ptr[rcx + row_disp(b) + 64 * g]);
    }
    L(lpf_done);
    L(lkeep);
}

// The wide stage of byte and word tiles (wide_ lines per src row, see
// jit_wide_stage): the first tile of each group of 64 wide_ / esz columns
// copies the group's `rows` rows (isB bytes apart, rcx the tile's src,
// rax a0) to the stack, each row's lines one after the other, and every
// tile of a staged group prefetches its share (16 / wide_ rows, wide_
// lines each) of the group `ahead` groups on into L2: in the call, or
// past its end in the next call (`next_ok`: its displacements fit), which
// the driver runs on the next B tile. `stage` false: the prefetch only
// (the second word tile of a 64-lane call or byte tile of a 128-lane
// call, whose rows the first staged); 64 rows of words and 128 of bytes
// are staged only in calls of that many value lanes (the last call's rows
// would be read past the src).
// s_stage_ok: the stage holds the current group.
void reorder_gen_t::stage_src_wide(int rows, int esz, int64_t isB, bool next_ok, bool stage) {
    const int G = wide_, cols = 64 * G / esz, tile_rows = 16 / G;
    Label lkeep, lpf_done;
    if (!stage) jmp(lkeep, T_NEAR);
    stage_group_open(cols, lkeep, lpf_done);
    if (rows > 16 * 4 / esz) {
        // Rows of two B tiles (word tiles of 64 lanes): only a whole call.
        Label lfull;
        cmp(qword[rsp + s_v0 + 8], rows);
        jge(lfull, T_NEAR);
        mov(qword[rsp + s_stage_ok], 0);
        jmp(lpf_done, T_NEAR);
        L(lfull);
    }
    for (int b = 0; b < rows; ++b)
        for (int l = 0; l < G; ++l) {
            const Zmm z((b * G + l) % 16);
            vmovdqu8(z, ptr[rcx + b * isB + 64 * l]);
            vmovdqa32(ptr[rsp + buf_stage + (b * G + l) * 64], z);
        }
    L(lkeep);
    cmp(qword[rsp + s_stage_ok], 0);
    je(lpf_done, T_NEAR);
    // r13: the tile's columns into its group; r14: its rows' lines in the
    // group `ahead` groups on (this call's, or past its end the next
    // call's: its src at next_b, columns from 0).
    static const int ahead = std::max(1, getenv_int("RELAYOUT_JIT_WIDE_PF", 2)); // knob
    Label lin_call;
    mov(r13, rax);
    and_(r13, cols - 1);
    mov(r14, rcx);
    for (int i = 0; i < esz; ++i)
        sub(r14, r13);
    add(r14, 64 * G * ahead);
    mov(r13, rax);
    and_(r13, -cols);
    add(r13, (ahead + 1) * cols);
    cmp(r13, qword[rsp + s_v0]);
    jle(lin_call, T_NEAR);
    if (!next_ok) jmp(lpf_done, T_NEAR);
    add(r14, (int)(d_.n[1] * isB));
    for (int i = 0; i < esz; ++i)
        sub(r14, qword[rsp + s_v0]);
    L(lin_call);
    mov(r13, rax);
    and_(r13, cols - 1);
    // The tile's first row: its columns into the group / G (16 / G rows
    // per tile, 16 columns).
    shr(r13, G == 4 ? 2 : G == 2 ? 1 : 0);
    imul(r13, r13, (int)isB);
    add(r14, r13);
    for (int j = 0; j < tile_rows; ++j)
        for (int l = 0; l < G; ++l)
            prefetcht1(ptr[r14 + j * isB + 64 * l]);
    L(lpf_done);
}

// A word tile of a 2-byte bit copy: 16 A positions x 32 B lanes. Zmm
// 8h + i gathers 8 src words (A positions 8h .. 8h + 7) of rows i, 8 + i,
// 16 + i and 24 + i, one per 128-bit lane; after the in-lane transposes
// zmm 16 + a is the whole 64-byte dst row of A position a (the 32-bit
// tiles wrote half lines, 2x the stores, and could not stream them).
// `a_partial`: fewer than 16 A positions hold values (masked loads, zero
// columns) and rows up to the stored count are written. rax a0, rcx src
// tile, rdx dst tile.
void reorder_gen_t::gen_word_tile(bool a_partial, int half) {
    const int64_t isB = d_.is[1] * 2, osA = d_.os[0] * 2;
    // Src bytes of zmm r's 128-bit lane g, relative to `base`.
    auto piece = [&](int r, int g, int64_t pitch) { return (8 * g + r % 8) * pitch + r / 8 * 16; };
    Label lload_done, lstage_load;
    if (wstage_ && !a_partial) {
        const int pitch = 64 * std::max(1, wide_); // bytes of a stage row
        // half >= 0: calls of two B tiles (64 rows, one stage, see
        // jit_word_rows64); the first tile stages both, the second
        // reads rows 32 .. 63 of the stage.
        const int rows = half >= 0 ? 64 : 32;
        const int64_t at = half > 0 ? 32 * pitch : 0;
        if (wide_)
            stage_src_wide(rows, 2, isB, fits32(rows * isB + d_.n[1] * isB + pitch), half <= 0);
        else
            stage_src_group(
                    32, 2, [&](int b) { return b * isB; }, fits32(32 * isB + d_.n[1] * isB));
        cmp(qword[rsp + s_stage_ok], 0);
        je(lstage_load, T_NEAR);
        mov(r13, rax);
        and_(r13, pitch / 2 - 1);
        load_staged_tile(2, [&](int r, int g) { return at + piece(r, g, pitch); });
        jmp(lload_done, T_NEAR);
        L(lstage_load);
    }
    if (a_partial) {
        partial_a_counts();
        kshiftrw(k2, k1, 8); // A positions 8 .. 15
    }
    for (int r = 0; r < 16; ++r) {
        const Zmm z(r);
        if (a_partial) {
            const Opmask &k = r < 8 ? k1 : k2;
            vmovdqu16(Xmm(r) | k | T_z, ptr[rcx + piece(r, 0, isB)]);
            for (int g = 1; g < 4; ++g) {
                vmovdqu16(Xmm(16 + g) | k | T_z, ptr[rcx + piece(r, g, isB)]);
                vinserti32x4(z, z, Xmm(16 + g), g);
            }
        } else {
            vmovdqu(Xmm(r), ptr[rcx + piece(r, 0, isB)]);
            for (int g = 1; g < 4; ++g)
                vinserti32x4(z, z, ptr[rcx + piece(r, g, isB)], g);
        }
    }
    L(lload_done);
    if (!a_partial) word_dst_prefetch(osA);
    word_transpose_8x8(0, 16);
    word_transpose_8x8(8, 24);
    if (half >= 0)
        store_tile_half(half, 32, osA, 16);
    else
        store_a_rows(a_partial, osA, 16);
}

// Cached word tiles of large problems (dst rows not whole lines apart:
// each stored row is the tail of one line and the head of the next, read
// for ownership): the dst lines of the A tile jit_word_dst_prefetch tiles
// ahead, while it is in the call, are prefetched for writing, so that
// their reads overlap (bf16 ab -> ba 8191 x 8192: 24% -> 31% of a copy,
// 4095 x 4096: 34% -> 43%, nchw -> nhwc of 250 channels 33% -> 38%).
void reorder_gen_t::word_dst_prefetch(int64_t osA) {
    dst_rows_prefetch(jit_word_dst_prefetch(d_), osA, dst_pf_t::write_both);
}

// The 16 dst rows (64 bytes each, osA bytes apart) of the A tile `ahead`
// tiles after this one (none: 0): both lines of each row for writing
// (rows not whole lines apart: word tiles) or the last one into L2 (f32
// tiles: the first is the last of the previous B tile), when that tile
// is a full tile of the call; or the first line into L2 (whole-line
// rows: byte tiles), past the call too, where the following calls write
// (s8 nchw -> nhwc 16x256x64x64 lost 6 points of a copy with the check).
// rax a0, rdx dst tile; r14 is clobbered.
void reorder_gen_t::dst_rows_prefetch(int ahead, int64_t osA, dst_pf_t what) {
    if (ahead == 0) return;
    Label lskip;
    if (what != dst_pf_t::first_l2) {
        jump_if_past(rax, 16 * (ahead + 1), s_v0, lskip);
    }
    for (int j = 0; j < 16; ++j) {
        const int64_t row = (16 * ahead + j) * osA;
        if (what == dst_pf_t::first_l2) {
            prefetcht1(ptr[rdx + row]);
        } else if (what == dst_pf_t::last_l2) {
            prefetcht1(ptr[rdx + row + 63]);
        } else {
            prefetchw(ptr[rdx + row]);
            prefetchw(ptr[rdx + row + 63]);
        }
    }
    L(lskip);
}

// Full 16x16 4-byte tiles of large AVX-512 bit copies whose dst rows are
// not whole lines apart (cached: each 64-byte row is the tail of one line
// and the head of the next, read for ownership): the last dst line of
// each row of the A tile jit_f32_dst_prefetch tiles ahead, while it is a
// full tile of the call, is prefetched into L2 (its first line is the
// last one of the B tile before it, or of the previous call). Single
// thread, best of 5 interleaved runs, % of a copy (2-3 rounds): ab -> ba
// 8191 x 8192 29-33 -> 37-42, 4095 x 4096 38-40 -> 45-46, nchw -> nhwc
// of 250 channels 39-46 -> 50-57, nhwc -> nchw 63 x 63 45-53 -> 58-61.
// prefetchw (into L1) lost at every distance (1: 32 -> 31, 4: 30 -> 26),
// both lines gained no more than the last, prefetcht2 less.
void reorder_gen_t::f32_dst_prefetch(int64_t osA) {
    dst_rows_prefetch(jit_f32_dst_prefetch(d_), osA, dst_pf_t::last_l2);
}

// Whole B tiles of `lanes` lanes as `tile(a_partial)` (any A count: a
// partial last A tile masked); B tails and B padding take the 32-bit
// tiles after them. lb: the next B tile.
void reorder_gen_t::whole_b_tiles(
        const Label &lb, int lanes, const std::function<void(bool)> &tile) {
    Label lrest, lpart;
    jump_if_past(r15, lanes, s_v0 + 8, lrest);
    jump_if_past(rax, 16, s_v0, lpart);
    tile(false);
    add(r15, lanes);
    jmp(lb, T_NEAR);
    L(lpart);
    tile(true);
    add(r15, lanes);
    jmp(lb, T_NEAR);
    L(lrest);
}

// Whole B tiles as whole_b_tiles, two per call that share one stage:
// `tile(a_partial, half)`, half 0 or 1 by the tile's lanes (a partial A
// tile: half -1, unstaged).
void reorder_gen_t::whole_b_tile_halves(
        const Label &lb, int lanes, const std::function<void(bool, int)> &tile) {
    whole_b_tiles(lb, lanes, [&](bool a_partial) {
        if (a_partial) return tile(true, -1);
        Label lsecond, ldone;
        test(r15, lanes);
        jnz(lsecond, T_NEAR);
        tile(false, 0);
        jmp(ldone, T_NEAR);
        L(lsecond);
        tile(false, 1);
        L(ldone);
    });
}

// Word pair tiles (d_.word_pair): 2-byte bit copies to 16-lane blocks
// whose dst rows are adjacent (nchw -> nChw16c: 32-byte rows), 32 A
// positions x 16 B lanes, two dst rows per zmm (a whole line). Zmm r of
// half h holds A positions 16h .. 16h + 15 of rows r and 8 + r; a word
// permutation puts the even positions of both rows in its low 128-bit
// lanes and the odd ones in its high lanes, so that after the in-lane
// 8 x 8 transposes zmm j holds A positions 2j and 2j + 1 of all 16 lanes:
// dst rows 2j and 2j + 1. Each src line (32 positions) is read by two
// loads back to back; 16 whole lines are stored (the 32-bit tiles wrote
// 32-byte rows, cached). rax a0 (a multiple of 32), rcx src tile, rdx dst
// tile.
void reorder_gen_t::gen_word_pair_tile() {
    const int64_t isB = d_.is[1] * 2;
    const Zmm perm(31);
    vmovdqu16(perm, ptr[rip + c_wpair_]);
    for (int h = 0; h < 2; ++h)
        for (int r = 0; r < 8; ++r) {
            const Zmm z(8 * h + r);
            vmovdqu(Ymm(8 * h + r), ptr[rcx + r * isB + 32 * h]);
            vinserti64x4(z, z, ptr[rcx + (8 + r) * isB + 32 * h], 1);
            vpermw(z, perm, z);
        }
    word_transpose_8x8(0, 16);
    word_transpose_8x8(8, 24); // zmm 31 (perm) is free now
    stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
        for (int j = 0; j < 16; ++j) {
            const Address to = ptr[rdx + j * 64];
            const Zmm v(16 + j);
            stream ? vmovntdq(to, v) : vmovdqu16(to, v);
        }
    });
}

// Whole 32-position A tiles of a whole 16-lane B tile as word pair tiles;
// the second 16-position A tile of each is done then. Others (A tails and
// padding) take the 32-bit tiles after them. lb: the next B tile.
void reorder_gen_t::word_pair_tiles(const Label &lb) {
    Label lrest, lfirst;
    jump_if_past(r15, 16, s_v0 + 8, lrest);
    test(rax, 16);
    jz(lfirst, T_NEAR);
    // the second half of a pair tile at rax - 16 (taken when rax + 16 <= v0)
    jump_if_past(rax, 16, s_v0, lrest);
    add(r15, 16);
    jmp(lb, T_NEAR);
    L(lfirst);
    jump_if_past(rax, 32, s_v0, lrest);
    gen_word_pair_tile();
    add(r15, 16);
    jmp(lb, T_NEAR);
    L(lrest);
}

// An interleave of one A position, its folded groups of in_n contiguous
// src elements (2 to 16 bytes) apart (1x1 filters: OIhw4i16o4i from oihw
// has no unit-stride A for a tile to run along).
bool reorder_gen_t::lanes_tile() const {
    const int64_t gb = d_.in_n * ssz_;
    return d_.strategy == kernel_strategy_t::interleave && d_.n[0] == 1 && d_.in_is == 1
           && (gb == 2 || gb == 4 || gb == 8 || gb == 16) && W_ % d_.in_n == 0;
}

// Each W-lane B tile is one dst row: its groups are copied into the stack
// buffer (groups without values: zeros), read as one vector, converted and
// stored like a tile row; masks (AVX-512) or the buffers (AVX2) keep the
// reads and writes to the value and stored lanes.
//   r15 b0 (lanes), rbx src of the tile, rdx dst, rsi / rdi scales.
void reorder_gen_t::gen_lanes() {
    const int log_n1 = begin_b_tiles();
    const int T = W_;
    const int64_t n1 = d_.in_n;
    const int gb = (int)(n1 * ssz_); // bytes of a group
    const int G = (int)(T / n1);     // groups of a tile
    const int64_t isB = d_.is[1] * ssz_;
    Label lb, lbend;
    xor_(r15, r15);
    L(lb);
    cmp(r15, qword[rsp + s_z0 + 8]);
    jge(lbend, T_NEAR);
    mov(rbx, r15);
    shr(rbx, log_n1);
    imul(rbx, rbx, (int)isB);
    add(rbx, r8);
    lea(rdx, ptr[r9 + r15 * dsz_]);
    if (d_.src_scale) ssc_vec_ ? lea(rsi, ptr[r10 + r15 * 4]) : mov(rsi, r10);
    if (d_.dst_scale) dsc_vec_ ? lea(rdi, ptr[r11 + r15 * 4]) : mov(rdi, r11);
    clamp_diff(r13, qword[rsp + s_v0 + 8], r15, T);
    mov(qword[rsp + s_cnt_v], r13); // value lanes
    clamp_diff(r13, qword[rsp + s_z0 + 8], r15, T);
    mov(qword[rsp + s_cnt_z], r13); // stored lanes
    {
        // A padding position of the driver (v[0] = 0): zeros only.
        Label lhas;
        cmp(qword[rsp + s_v0], 0);
        jne(lhas, T_NEAR);
        mov(qword[rsp + s_cnt_v], 0);
        L(lhas);
    }
    // Whole tiles: the groups are assembled in xmm0 / ymm0 / zmm0, 16 bytes
    // at a time. Others: group by group through the zeroed buffer.
    const int raw = T * ssz_; // bytes of the tile's src lanes
    Label ledge, lload;
    cmp(qword[rsp + s_cnt_v], T);
    jne(ledge, T_NEAR);
    for (int c = 0; c * 16 < raw; ++c) {
        const int g0 = c * 16 / gb, g1 = std::min(G, (c + 1) * 16 / gb);
        const Xmm x = c == 0 ? Xmm(0) : Xmm(1);
        auto at = [&](int g) { return ptr[rbx + g * isB]; };
        if (gb == 16) {
            if (c == 0)
                vmovdqu(Xmm(0), at(g0));
            else if (z_)
                vinserti32x4(Zmm(0), Zmm(0), at(g0), c);
            else
                vinserti128(Ymm(0), Ymm(0), at(g0), c);
            continue;
        }
        for (int g = g0; g < g1; ++g) {
            const int i = g - g0;
            if (gb == 8)
                i == 0 ? vmovq(x, at(g)) : vpinsrq(x, x, at(g), i);
            else if (gb == 4)
                i == 0 ? vmovd(x, at(g)) : vpinsrd(x, x, at(g), i);
            else if (i == 0) {
                vpxor(x, x, x);
                vpinsrw(x, x, at(g), 0);
            } else {
                vpinsrw(x, x, at(g), i);
            }
        }
        if (c > 0) z_ ? vinserti32x4(Zmm(0), Zmm(0), x, c) : vinserti128(Ymm(0), Ymm(0), x, c);
    }
    // Widened in place (a 64-byte store does not forward to the load on
    // Zen 4).
    load_lanes(0, raw == 64 ? Xmm(Zmm(0)) : raw == 32 ? Xmm(Ymm(0)) : Xmm(0), nullptr, d_.sdt);
    jmp(lload, T_NEAR);
    L(ledge);
    vpxor(Xmm(0), Xmm(0), Xmm(0));
    for (int i = 0; i < 64; i += 16)
        vmovdqu(ptr[rsp + buf_src + i], Xmm(0));
    for (int g = 0; g < G; ++g) {
        Label lskip;
        cmp(qword[rsp + s_cnt_v], g * n1);
        jle(lskip, T_NEAR);
        const Address from = ptr[rbx + g * isB], to = ptr[rsp + buf_src + g * gb];
        if (gb == 16) {
            vmovdqu(Xmm(0), from);
            vmovdqu(to, Xmm(0));
        } else if (gb == 8) {
            mov(r13, from);
            mov(to, r13);
        } else if (gb == 4) {
            mov(r13d, from);
            mov(to, r13d);
        } else {
            mov(r13w, from);
            mov(to, r13w);
        }
        L(lskip);
    }
    load_lanes(0, ptr[rsp + buf_src], nullptr, d_.sdt);
    L(lload);
    // Converts, sums and stores the row in vr(0). Edges (`part`) read and
    // write through masks (AVX-512) or the buffers lane by lane (AVX2);
    // whole rows directly.
    auto finish = [&](bool part) {
        if (z_ && part) {
            mask_from_slot(k2, s_cnt_v, 16);
            mask_from_slot(k3, s_cnt_z, 16);
            if (value_path()) compute(0, lane_src_t{ ptr[rdx], ptr[rsi], ptr[rdi], &k2 });
        } else if (value_path() && !part) {
            compute(0, lane_src_t{ ptr[rdx], ptr[rsi], ptr[rdi], nullptr });
        } else if (value_path()) {
            compute_partial(0, rdx, rsi, rdi);
            lane_mask_from_slot(s_cnt_v);
        }
        if (value_path() && part) zero_dead_lanes(0);
        comp_zero();
        comp_add_row(0);
        comp_flush();
        if (z_ && part) {
            store_lanes(0, ptr[rdx], &k3);
        } else if (!part) {
            store_lanes(0, ptr[rdx], nullptr);
        } else {
            store_lanes(0, ptr[rsp + buf_dst], nullptr);
            copy_elems(rdx, rsp + buf_dst, s_cnt_z, dsz_);
        }
    };
    {
        Label lpart, ldone;
        cmp(qword[rsp + s_cnt_v], T);
        jne(lpart, T_NEAR);
        cmp(qword[rsp + s_cnt_z], T);
        jne(lpart, T_NEAR);
        finish(false);
        jmp(ldone, T_NEAR);
        L(lpart);
        finish(true);
        L(ldone);
    }
    add(r15, T);
    jmp(lb, T_NEAR);
    L(lbend);
}

// AVX2 tiles of 1- and 2-byte bit copies (d_.ymm_small = e bytes per
// element): TA = 16 / e A positions (16 bytes of each src row) x 16 B
// lanes. Ymm r holds src rows r (low 128-bit lane) and 8 + r (high);
// three unpack stages transpose the 8 rows of each lane, after which each
// lane holds whole columns of its 8 rows (bytes: two columns, which a
// vpermq joins across the lanes into two 16-byte dst rows; words: one,
// the two lanes together the 32-byte dst row). These went through the
// 8x8 dword tile before (8 elements widened per load, 8 per store).
// A partial last A tile (no A padding) moves back to end at the last
// position; an A of fewer positions than a tile (no padding) loads only
// its bytes and stores only its rows; other tiles with fewer values (B
// edges, zero padding) copy element by element. The compensation of 4-lane byte groups (4i
// interleaves) is summed from each tile (ymm_small_comp) and per lane
// in the edges.
// A tiles outer, B tiles inner (the B tiles of an A tile complete the
// same dst lines back to back). rax a0, r15 b0, rcx src tile, rdx dst
// tile.
void reorder_gen_t::gen_ymm_small_tiles() {
    const int e = d_.ymm_small;
    const int TA = 16 / e;
    const int64_t n1 = d_.in_n;
    int log_n1 = 0;
    while ((int64_t(1) << log_n1) < n1)
        ++log_n1;
    auto row_disp = [&](int b) { return ((b % n1) * d_.in_is + (b / n1) * d_.is[1]) * e; };
    const int64_t isB = d_.is[1] * e, osA = d_.os[0] * e;
    // rcx, rdx: the src and dst of the tile at rax, r15
    auto tile_addr = [&]() {
        mov(rcx, r15);
        if (log_n1) shr(rcx, log_n1);
        imul(rcx, rcx, (int)isB);
        add(rcx, r8);
        lea(rcx, ptr[rcx + rax * e]);
        imul(rdx, rax, (int)osA);
        add(rdx, r9);
        lea(rdx, ptr[rdx + r15 * e]);
    };
    // The full tile `s` A tiles after rcx, rdx; `shifted`: the last A
    // tile moved back (r13: the positions already written, left out of
    // the compensation). Its dst rows at rdx + A position * osA, or in
    // the lines' stage at `stage` + A position * 64.
    // The first `bytes` of the src row at rcx + disp into x, zeros above:
    // 8-, 4-, 2- and 1-byte pieces, each at a multiple of its size.
    auto load_row_bytes = [&](const Xmm &x, int64_t disp, int bytes) {
        int at = bytes >= 8 ? 8 : bytes >= 4 ? 4 : 0;
        if (at == 8) vmovq(x, ptr[rcx + disp]);
        if (at == 4) vmovd(x, ptr[rcx + disp]);
        if (at == 0) vpxor(x, x, x);
        for (int piece = 4; piece >= 1; piece /= 2) {
            if (bytes - at < piece) continue;
            const Address src = ptr[rcx + disp + at];
            if (piece == 4) vpinsrd(x, x, src, at / 4);
            if (piece == 2) vpinsrw(x, x, src, at / 2);
            if (piece == 1) vpinsrb(x, x, src, at);
            at += piece;
        }
    };
    // `short_a` > 0: an A of fewer positions than a tile (3x3 weights: 9
    // bytes), each row loaded without reading past it, the dst rows of
    // the columns past it not stored (their zeros add nothing to the
    // compensation).
    // `src_stage`: the src rows staged at that register + `src_pitch` * row.
    // `stage_pitch`: the dst rows' pitch in the stage.
    auto tile = [&](int s, bool shifted, const Reg64 *stage = nullptr, int short_a = 0,
                        const Reg64 *src_stage = nullptr, int src_pitch = 64,
                        int stage_pitch = 64) {
        const Reg64 &to = stage ? *stage : rdx;
        const int64_t pitch = stage ? stage_pitch : osA;
        const int64_t so = s * 16, doff = s * TA * pitch;
        for (int r = 0; r < 8; ++r) {
            if (short_a) {
                load_row_bytes(Xmm(r), row_disp(r) + so, short_a * e);
                load_row_bytes(Xmm(8 + r), row_disp(8 + r) + so, short_a * e);
                vinserti128(Ymm(r), Ymm(r), Xmm(8 + r), 1);
                continue;
            }
            if (src_stage) {
                const Reg64 &sb = *src_stage;
                vmovdqu(Xmm(r), ptr[sb + r * src_pitch + (int)so]);
                vinserti128(Ymm(r), Ymm(r), ptr[sb + (8 + r) * src_pitch + (int)so], 1);
                continue;
            }
            vmovdqu(Xmm(r), ptr[rcx + row_disp(r) + so]);
            vinserti128(Ymm(r), Ymm(r), ptr[rcx + row_disp(8 + r) + so], 1);
        }
        int col[8][2];
        ymm_small_transpose(e, col);
        std::memcpy(ysm_col_, col, sizeof(col));
        ymm_small_comp(shifted);
        const int ncols = short_a ? short_a : TA;
        for (int j = 0; j < 8; ++j) {
            if (e == 1) {
                if (col[j][0] < ncols) vmovdqu(ptr[to + col[j][0] * pitch + doff], Xmm(j));
                if (col[j][1] < ncols) vextracti128(ptr[to + col[j][1] * pitch + doff], Ymm(j), 1);
            } else if (col[j][0] < ncols) {
                vmovdqu(ptr[to + col[j][0] * pitch + doff], Ymm(8 + j));
            }
        }
    };
    // A groups of 4 tiles (a whole line of each src row, consumed before
    // its set is needed again: rows 2^k bytes apart share one L1 set)
    // outer, B tiles inner (they complete the same dst lines back to back).
    const int GA = 4 * TA;
    Label la, laend, lb, lbend, lpart, lsub, lsubend, ledge, lsubnext, lnext, lshift, lshort;
    const bool short_a = d_.n[0] < TA; // (jit_ymm_small_tiles: A of one partial tile)
    xor_(rax, rax);
    L(la);
    cmp(rax, qword[rsp + s_z0]);
    jge(laend, T_NEAR);
    xor_(r15, r15);
    L(lb);
    cmp(r15, qword[rsp + s_z0 + 8]);
    jge(lbend, T_NEAR);
    jump_if_past(r15, 16, s_v0 + 8, lpart);
    jump_if_past(rax, GA, s_v0, lpart);
    // A dst line of B lanes (4 byte or 2 word B tiles; `nl` lines: 2 for
    // the byte-line pairs of jit_ymm_byte_line_pairs): the group's GA dst
    // rows of 64 nl bytes each complete in the stage (B tiles outer, as
    // above), then go out as whole lines, streamed when the call may; to
    // `lnot` past the call's last lines.
    auto lines_group = [&](int nl, const Label &lnot) {
        const int GB = 64 * nl / e, pitch = 64 * nl;
        jump_if_past(r15, GB, s_v0 + 8, lnot);
        tile_addr();
        lea(rsi, ptr[rsp + buf_stage]);
        // The group's B tiles, their src rows read from a stack stage (rdi)
        // when ysrc_pf_: `wide`, the group's block of ywide_ groups (r12:
        // the B tile's slot, r13: the group's offset in the block).
        auto b_tiles = [&](bool wide) {
            const int W = ywide_, spitch = wide ? 64 * W : 64;
            // The B tile's 16 src rows, `lines` lines each, copied to rdi
            // (a row per spitch), and the lines `ahead` bytes on prefetched
            // into L2 unless that group is past the call (`past`: the
            // extent jump_if_past tests).
            auto stage_rows = [&](int lines, int64_t ahead, int64_t past) {
                for (int r = 0; r < 16; ++r)
                    for (int h = 0; h < 2 * lines; ++h) {
                        const Ymm v((2 * lines * r + h) % 16);
                        vmovdqu(v, ptr[rcx + row_disp(r) + 32 * h]);
                        vmovdqu(ptr[rdi + r * spitch + 32 * h], v);
                    }
                if (!ahead) return;
                Label lno_pf;
                jump_if_past(rax, past, s_v0, lno_pf);
                for (int r = 0; r < 16; ++r)
                    for (int l = 0; l < lines; ++l)
                        prefetcht1(ptr[rcx + row_disp(r) + ahead + 64 * l]);
                L(lno_pf);
            };
            Label lbt;
            mov(ebx, GB / 16);
            L(lbt);
            if (wide) {
                // At the block's first group: the B tile's 16 src rows, W
                // lines each, to its slot (a row's lines back to back: one
                // DRAM page, a sequence for the L2 streamer), and the next
                // block's lines prefetched; the other groups read the slot.
                Label lcopied;
                mov(rdi, r12);
                test(r13, r13);
                jnz(lcopied, T_NEAR);
                stage_rows(W, 64 * W, 64 * W + 1);
                L(lcopied);
                add(rdi, r13);
                add(r12, 16 * spitch);
            } else if (ysrc_pf_) {
                // The B tile's 16 src lines (rows 2^k bytes apart, one L1 set:
                // 16 lines over 8 or 12 ways, evicted before the next of the 4
                // tiles reads them) copied whole to the stack, and the lines
                // ysrc_pf_ - 1 groups on prefetched into L2 within the call.
                lea(rdi, ptr[rsp + buf_ysrc]);
                stage_rows(1, 64 * (ysrc_pf_ - 1), GA * ysrc_pf_);
            }
            for (int s = 0; s < 4; ++s)
                tile(s, false, &rsi, 0, ysrc_pf_ ? &rdi : nullptr, spitch, pitch);
            add(rcx, (int)row_disp(16));
            add(rsi, 16 * e);
            dec(ebx);
            jnz(lbt, T_NEAR);
        };
        if (ywide_) {
            // Blocks of ywide_ groups whole in the call wide, the rest as
            // single groups (the slots at buf_ysrc: 16 rows of ywide_
            // lines per B tile).
            Label lnarrow, lwide_done;
            mov(r13, rax);
            and_(r13, 64 * ywide_ - 1);
            mov(r12, rax);
            sub(r12, r13);
            jump_if_past(r12, 64 * ywide_, s_v0, lnarrow);
            imul(r12, r15, 64 * ywide_);
            lea(r12, ptr[rsp + r12 + buf_ysrc]);
            b_tiles(true);
            jmp(lwide_done, T_NEAR);
            L(lnarrow);
            b_tiles(false);
            L(lwide_done);
        } else {
            b_tiles(false);
        }
        // (the loads match the stage's stores: 16-byte pieces for bytes,
        // which a 32-byte load could not take from the store buffer)
        stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
            Label lrow;
            lea(rsi, ptr[rsp + buf_stage]);
            mov(rdi, rdx);
            mov(ebx, GA / 4);
            L(lrow);
            for (int k = 0; k < 4; ++k)
                for (int h = 0; h < 2 * nl; ++h) {
                    const Ymm v((2 * nl * k + h) % 16);
                    const int at = k * pitch + 32 * h;
                    if (e == 1) {
                        vmovdqu(Xmm(v.getIdx()), ptr[rsi + at]);
                        vinserti128(v, v, ptr[rsi + at + 16], 1);
                    } else {
                        vmovdqu(v, ptr[rsi + at]);
                    }
                    const Address out = ptr[rdi + k * osA + 32 * h];
                    stream ? vmovntdq(out, v) : vmovdqu(out, v);
                }
            add(rsi, 4 * pitch);
            add(rdi, (int)(4 * osA));
            dec(ebx);
            jnz(lrow, T_NEAR);
        });
        add(r15, GB);
        jmp(lb, T_NEAR);
    };
    if (d_.ymm_small_lines) {
        // (a call's last 64 lanes of line pairs: one line)
        Label lsingle, lone;
        if (ylines2_) {
            lines_group(2, lone);
            L(lone);
        }
        lines_group(1, lsingle);
        L(lsingle);
    }
    tile_addr();
    for (int s = 0; s < 4; ++s)
        tile(s, false);
    jmp(lnext, T_NEAR);
    // The tiles of a partial group one by one (full ones, edges).
    L(lpart);
    mov(r12, rax);
    L(lsub);
    cmp(rax, qword[rsp + s_z0]);
    jge(lsubend, T_NEAR);
    lea(r14, ptr[r12 + GA]);
    cmp(rax, r14);
    jge(lsubend, T_NEAR);
    jump_if_past(r15, 16, s_v0 + 8, ledge);
    jump_if_past(rax, TA, s_v0, lshift);
    tile_addr();
    tile(0, false);
    jmp(lsubnext, T_NEAR);
    // A partial last A tile of whole B lanes, no A padding, A of a tile or
    // more: moved back to end at the last position and run as a full tile
    // (the rows before rewritten with the same values; 5x5 weights: 25 =
    // 16 + 9 positions, element by element 33 -> 18% of a copy).
    L(lshift);
    mov(r14, qword[rsp + s_v0]);
    cmp(r14, qword[rsp + s_z0]);
    jne(ledge, T_NEAR);
    sub(r14, TA);
    jl(short_a ? lshort : ledge, T_NEAR);
    mov(r13, rax);
    sub(r13, r14);
    mov(rax, r14);
    tile_addr();
    tile(0, true);
    jmp(lsubend, T_NEAR); // (rax back from r12)
    if (short_a) {
        // The whole A of the call, fewer positions than a tile (rax 0).
        L(lshort);
        cmp(qword[rsp + s_v0], (int)d_.n[0]);
        jne(ledge, T_NEAR);
        tile_addr();
        tile(0, false, nullptr, (int)d_.n[0]);
        jmp(lsubnext, T_NEAR);
    }
    L(ledge);
    ymm_small_edge(TA, log_n1);
    L(lsubnext);
    add(rax, TA);
    jmp(lsub, T_NEAR);
    L(lsubend);
    mov(rax, r12);
    L(lnext);
    add(r15, 16);
    jmp(lb, T_NEAR);
    L(lbend);
    add(rax, GA);
    jmp(la, T_NEAR);
    L(laend);
}

// The in-lane transpose of gen_ymm_small_tiles: ymm 0..7 hold rows r and
// 8 + r of 16 bytes (elements of e bytes); three unpack stages of 2, 4, 8
// elements... of e, 2e, 4e bytes pair rows (i, i + step) between ymm
// 0..7 and 8..15. Bytes end with two columns per lane in ymm 8..15, which
// a vpermq joins into ymm 0..7 (col[j][h]: the column of 128-bit half h
// of ymm j); words with one column per lane in ymm 8..15, whole (col[j][0]
// the column of ymm 8 + j). The columns come from running the network on
// labels, and the result is checked, so the code cannot mislabel a
// register.
void reorder_gen_t::ymm_small_transpose(int e, int col[8][2]) {
    struct reg_t {
        int lab[32]; // (row * 16 + src byte) of each byte; rows 8..15 in the high lane
    };
    reg_t cur[8], nxt[8];
    for (int r = 0; r < 8; ++r)
        for (int i = 0; i < 32; ++i)
            cur[r].lab[i] = (r + 8 * (i / 16)) * 16 + i % 16;
    int base = 0;
    for (int st = 0; st < 3; ++st) {
        const int u = e << st, step = 1 << st; // unit bytes, row distance
        const int out = base ^ 8;
        int k = 0;
        for (int g = 0; g < 8; g += 2 * step)
            for (int i = g; i < g + step; ++i, ++k) {
                const Ymm a(base + i), b(base + i + step), lo(out + 2 * k), hi(out + 2 * k + 1);
                switch (u) {
                    case 1: vpunpcklbw(lo, a, b), vpunpckhbw(hi, a, b); break;
                    case 2: vpunpcklwd(lo, a, b), vpunpckhwd(hi, a, b); break;
                    case 4: vpunpckldq(lo, a, b), vpunpckhdq(hi, a, b); break;
                    default: vpunpcklqdq(lo, a, b), vpunpckhqdq(hi, a, b); break;
                }
                for (int half = 0; half < 2; ++half)
                    for (int L = 0; L < 2; ++L)
                        for (int j = 0; j < 8 / u; ++j)
                            for (int t = 0; t < u; ++t) {
                                const int from = L * 16 + half * 8 + j * u + t;
                                nxt[2 * k + half].lab[L * 16 + 2 * j * u + t] = cur[i].lab[from];
                                nxt[2 * k + half].lab[L * 16 + (2 * j + 1) * u + t] =
                                        cur[i + step].lab[from];
                            }
            }
        for (int r = 0; r < 8; ++r)
            cur[r] = nxt[r];
        base = out;
    }
    bool ok = base == 8;
    for (int j = 0; j < 8; ++j) {
        if (e == 1) {
            // qwords 0 2 1 3: each 128-bit half one column, rows 0..15
            vpermq(Ymm(j), Ymm(8 + j), 0xD8);
            const int q[4] = { 0, 2, 1, 3 };
            reg_t p;
            for (int i = 0; i < 32; ++i)
                p.lab[i] = cur[j].lab[q[i / 8] * 8 + i % 8];
            for (int h = 0; h < 2; ++h) {
                col[j][h] = p.lab[16 * h] % 16;
                for (int r = 0; r < 16; ++r)
                    ok = ok && p.lab[16 * h + r] == r * 16 + col[j][h];
            }
        } else {
            col[j][0] = col[j][1] = cur[j].lab[0] % 16 / 2;
            for (int r = 0; r < 16; ++r)
                for (int t = 0; t < 2; ++t)
                    ok = ok && cur[j].lab[2 * r + t] == r * 16 + 2 * col[j][0] + t;
        }
    }
    if (!ok) Xbyak::local::SetError(Xbyak::ERR_INTERNAL); // fails the generation
}

// The compensation of a byte tile of gen_ymm_small_tiles (4-lane groups,
// d_.comp_group): ymm 0..7 hold two 16-byte dst rows each, 4 groups of 4
// lanes per row. Bytes to word pairs (exact: |2 x 255| fits), the 8
// registers summed in words (8 x 510 fits), word pairs to dwords, the two
// rows of each register added: the tile's 4 group sums, added to the
// group sums of lanes r15 .. r15 + 15. `shifted`: rows (A positions)
// below r13 are left out (zeroed by a compare with their columns). Uses
// ymm 8..13 (free after the transpose).
void reorder_gen_t::ymm_small_comp(bool shifted) {
    if (!comp_) return;
    const Ymm acc(8), t(9), ones(10), sh(11), m(12), x(13);
    vmovdqu(ones, ptr[rip + c_ones8_]);
    if (shifted) {
        vmovd(Xmm(sh.getIdx()), r13d);
        vpbroadcastb(sh, Xmm(sh.getIdx()));
    }
    for (int j = 0; j < 8; ++j) {
        Ymm row(j);
        if (shifted) {
            vpcmpgtb(m, sh, ptr[rip + c_ysm_col_ + 32 * j]); // column < r13
            vpandn(x, m, row);
            row = x;
        }
        byte_pair_sums(acc, t, ones, row, j == 0);
    }
    vpmaddwd(acc, acc, ptr[rip + c_ones16_]);
    vextracti128(Xmm(t.getIdx()), acc, 1);
    vpaddd(Xmm(acc.getIdx()), Xmm(acc.getIdx()), Xmm(t.getIdx()));
    mov(r14, qword[rsp + s_comp]);
    const Address sums = ptr[r14 + r15 + (int)(d_.comp_nl * 4)];
    vpaddd(Xmm(acc.getIdx()), Xmm(acc.getIdx()), sums);
    vmovdqu(sums, Xmm(acc.getIdx()));
}

// An edge tile of gen_ymm_small_tiles, element by element: A positions
// rax .. min(rax + TA, z0) - 1, lanes r15 .. min(r15 + 16, z1) - 1; values
// where both are below v, zeros elsewhere (padding).
void reorder_gen_t::ymm_small_edge(int TA, int log_n1) {
    const int e = d_.ymm_small;
    const int64_t n1 = d_.in_n;
    Label la, laend, lb, lbend, lstore;
    lea(rsi, ptr[rax + TA]);
    cmp(rsi, qword[rsp + s_z0]);
    cmovg(rsi, qword[rsp + s_z0]);
    lea(rdi, ptr[r15 + 16]);
    cmp(rdi, qword[rsp + s_z0 + 8]);
    cmovg(rdi, qword[rsp + s_z0 + 8]);
    mov(r13, rax);
    L(la);
    cmp(r13, rsi);
    jge(laend, T_NEAR);
    mov(r14, r15);
    L(lb);
    cmp(r14, rdi);
    jge(lbend, T_NEAR);
    xor_(ebx, ebx);
    cmp(r13, qword[rsp + s_v0]);
    jge(lstore, T_NEAR);
    cmp(r14, qword[rsp + s_v0 + 8]);
    jge(lstore, T_NEAR);
    // src: B position b / n1, inner lane b % n1, A position a
    mov(rcx, r14);
    if (log_n1) shr(rcx, log_n1);
    imul(rcx, rcx, (int)(d_.is[1] * e));
    if (n1 > 1) {
        mov(rdx, r14);
        and_(rdx, (int)(n1 - 1));
        imul(rdx, rdx, (int)(d_.in_is * e));
        add(rcx, rdx);
    }
    lea(rcx, ptr[rcx + r13 * e]);
    if (comp_) {
        // (1-byte elements) the value's compensation, per lane
        d_.ddt == relayout_s8 ? movsx(ebx, byte[r8 + rcx]) : movzx(ebx, byte[r8 + rcx]);
        mov(rcx, qword[rsp + s_comp]);
        add(dword[rcx + r14 * 4], ebx);
    } else {
        e == 1 ? movzx(ebx, byte[r8 + rcx]) : movzx(ebx, word[r8 + rcx]);
    }
    L(lstore);
    imul(rdx, r13, (int)(d_.os[0] * e));
    lea(rdx, ptr[rdx + r14 * e]);
    e == 1 ? mov(byte[r9 + rdx], bl) : mov(word[r9 + rdx], bx);
    inc(r14);
    jmp(lb, T_NEAR);
    L(lbend);
    inc(r13);
    jmp(la, T_NEAR);
    L(laend);
}

// Short B tiles (9 lanes of 3x3 filters) write partial lines of rows far
// apart, which alias in the cache sets (OIhw16i16o -> oihw: 16 rows
// 72 KiB apart, each line written in 4 pieces by calls of the i loop,
// evicted in between). With dst_stage_row the tiles write a stack buffer
// of the call's rows instead (r9 points there during the baked loops),
// and the call copies each row out as whole lines, streamed when large.
void reorder_gen_t::dst_stage_begin() {
    if (!d_.dst_stage_row) return;
    mov(qword[rsp + s_dst], r9);
    lea(r9, ptr[rsp + buf_stage]);
}

void reorder_gen_t::dst_stage_flush() {
    if (!d_.dst_stage_row) return;
    const int rb = (int)(d_.dst_stage_row * dsz_); // whole lines
    // rows written: z[0] (no padding: every stored row holds values)
    Label lrow, lend;
    xor_(rax, rax);
    L(lrow);
    cmp(rax, qword[rsp + s_z0]);
    jge(lend, T_NEAR);
    imul(rcx, rax, rb);
    lea(rcx, ptr[rsp + rcx + buf_stage]);
    imul(rdx, rax, (int)(d_.os[0] * dsz_));
    add(rdx, qword[rsp + s_dst]);
    for (int nt = 0; nt < 2; ++nt) {
        // Streamed when the call's dst is line-aligned (then every row is).
        Label lnext, lch;
        cmp(qword[rsp + s_nt], 0);
        nt ? je(lnext, T_NEAR) : jne(lnext, T_NEAR);
        xor_(rbx, rbx);
        L(lch);
        vmovups(Zmm(0), ptr[rcx + rbx]);
        nt ? vmovntps(ptr[rdx + rbx], Zmm(0)) : vmovups(ptr[rdx + rbx], Zmm(0));
        add(rbx, 64);
        cmp(rbx, rb);
        jl(lch, T_NEAR);
        L(lnext);
    }
    inc(rax);
    jmp(lrow, T_NEAR);
    L(lend);
}

// Blocked src rows of a tile are a line of each of T rows far apart
// (OIhw16i16o -> oihw: 1 KiB), in an order the hardware prefetchers do not
// follow; the calls read contiguous blocks one after the other. Each full
// tile prefetches the next tile's worth of lines of the block pf_ahead
// bytes ahead, in address order (2x at 134 MB; prefetching each tile's
// own rows of the next call, far apart, gained little).
void reorder_gen_t::prefetch_ahead_init() {
    if (!d_.pf_ahead) return;
    lea(r14, ptr[r8 + (int)d_.pf_ahead]);
    mov(qword[rsp + s_pf], r14);
}

void reorder_gen_t::prefetch_ahead_tile() {
    if (!d_.pf_ahead) return;
    const int bytes = (int)(std::min<dim_t>(d_.n[0], W_) * std::min<dim_t>(d_.n[1], W_) * ssz_);
    mov(r14, qword[rsp + s_pf]);
    for (int off = 0; off < bytes; off += 64)
        d_.pf_rows ? prefetcht1(ptr[r14 + off]) : prefetcht2(ptr[r14 + off]);
    // (Far-row blocks: a tile's bytes are one KiB, a row of the next block.)
    add(qword[rsp + s_pf], d_.pf_rows ? (int)d_.pf_rows : bytes);
}

// Row tiles: AVX-512 interleaves whose call covers one row of 64 lanes
// (4i16o4i: 16 B positions x 4 folded lanes) of a value conversion or a
// wider bit copy (1-byte bit copies take the byte tiles).
bool reorder_gen_t::row_tiles(const jit_reorder_desc_t &d) {
    return d.isa == cpu_isa_t::avx512_core && d.strategy == kernel_strategy_t::interleave
           && !d.byte_tile && !d.b_outer && d.n[1] * d.in_n == 64 && d.n[0] > 1;
}

// The four 16-lane tiles of a row of 64 lanes, TA A positions, unrolled:
// each src row load is its own instruction, so every load walks one src
// stream at a constant stride across the baked loops and the calls (the
// stride prefetcher follows it; one load instruction for all four tiles
// jumped between streams: f32 -> s8 oihw -> OIhw4i16o4i read its src at
// a quarter of a copy's speed). Dsts narrower than f32 assemble their
// 64-lane rows on the stack and store whole lines (streamed when the
// kernel streams). rax a0, r15 b0 = 0, rcx src tile, rdx dst tile, rsi /
// rdi scales of the tile.
void reorder_gen_t::gen_row_tiles(int TA) {
    const int T = W_;
    const int64_t n1 = d_.in_n;
    auto row_disp = [&](int b) { return ((b % n1) * d_.in_is + (b / n1) * d_.is[1]) * ssz_; };
    const int64_t osA = d_.os[0] * dsz_;
    const int64_t ssA = d_.ss[0] * 4, dsA = d_.ds[0] * 4;
    const int rowb = 64 * dsz_; // bytes of a dst row
    const bool staged = dsz_ < 4;
    const bool nt = d_.nt && osA % 64 == 0;
    // 4-byte bit copies (f32 weights): the transpose of the TA rows used
    // only, and one test of s_nt for the tile's TA stores, not one each.
    const bool dword_rows = d_.bit_copy && ssz_ == 4;
    int64_t reach = 0; // the end of the farthest src row's values
    for (int b = 0; b < 64; ++b)
        reach = std::max(reach, row_disp(b) + TA * ssz_);
    for (int t = 0; t < 64 / T; ++t) {
        const int lane0 = t * T;
        for (int b = 0; b < T; ++b) {
            const int64_t disp = row_disp(lane0 + b);
            load_lanes(b, ptr[rcx + disp], a_row_mask(TA, disp, reach), d_.sdt);
        }
        transpose_tile(dword_rows ? TA : T);
        comp_zero();
        auto store_row = [&](bool stream, int a) {
            const Address to = ptr[rdx + a * osA + lane0 * dsz_];
            stream ? vmovntps(to, vr(a)) : store_lanes(a, to, nullptr);
        };
        for (int a = 0; a < TA; ++a) {
            const int64_t dcol = lane0 * dsz_;
            if (value_path())
                compute(a, lane_src_t{ ptr[rdx + a * osA + dcol],
                                   ptr[rsi + a * ssA + lane0 * d_.ss[1] * 4],
                                   ptr[rdi + a * dsA + lane0 * d_.ds[1] * 4], nullptr });
            comp_add_row(a);
            if (staged)
                store_lanes(a, ptr[rsp + buf_stage + a * rowb + dcol], nullptr);
            else if (!dword_rows)
                stores_streamed_or_cached(
                        nt, [&](bool stream, const Label &) { store_row(stream, a); });
        }
        if (dword_rows) {
            stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
                for (int a = 0; a < TA; ++a)
                    store_row(stream, a);
            });
        }
        comp_flush(lane0);
    }
    if (!staged) return;
    store_row_lines(TA, rowb, nt, [&](int a, int c) {
        const Zmm v(a % 16);
        vmovdqu8(v, ptr[rsp + buf_stage + a * rowb + c]);
        return v;
    });
}

// Row tiles converting to bytes: conversions to s8 / u8 of 4-lane groups
// (4i16o4i) whose scales do not change along A. Each src row (one lane,
// A along its elements) is converted as it is loaded; four lanes of a
// group narrow together (saturating packs: the values are already
// clamped) into dwords of 4 bytes, one per A position, and a 16 x 16
// dword transpose turns the 16 groups into whole 64-byte dst rows.
bool reorder_gen_t::row_bytes(const jit_reorder_desc_t &d) {
    return row_tiles(d) && !d.bit_copy && (d.ddt == relayout_s8 || d.ddt == relayout_u8)
           && d.in_n == 4 && d.beta == 0.f && (!d.src_scale || d.ss[0] == 0)
           && (!d.dst_scale || d.ds[0] == 0) && (!d.comp_lanes || d.comp_group);
}

// rax a0, r15 b0 = 0, rcx src tile, rdx dst tile, rsi / rdi scales of the
// tile (lane l at l * ss[1] / ds[1]).
void reorder_gen_t::gen_row_bytes(int TA) {
    const int64_t osA = d_.os[0] * dsz_;
    const row_lanes_t saved = begin_row_bytes();
    row_byte_groups(0, 16, TA < W_ ? &k5 : nullptr);
    end_row_bytes(saved);
    transpose_tile();
    comp_byte_groups(TA);
    store_row_lines(TA, 64, d_.nt && osA % 64 == 0, [&](int a, int) { return Zmm(a); });
}

// The invariants of row_byte_groups in registers (the transpose clobbers
// them: once per row tile): the byte shuffle (zmm 30), the upper clamp
// (29), a scale common to the whole tile, the blend mask k7.
reorder_gen_t::row_lanes_t reorder_gen_t::begin_row_bytes() {
    vmovdqu8(Zmm(30), ptr[rip + c_pack_]);
    sat_packs_ = true;
    vmovups(Zmm(29), cst(c_hi_));
    hoisted_[0] = hoisted_t{ &c_hi_, 29 };
    nhoisted_ = 1;
    const row_lanes_t saved = begin_row_lanes();
    mov(r14d, 0x8888); // dword 3 of each 128-bit lane
    kmovw(k7, r14d);
    return saved;
}

void reorder_gen_t::end_row_bytes(const row_lanes_t &saved) {
    end_row_lanes(saved);
    sat_packs_ = false;
    nhoisted_ = 0;
}

// Groups g0 .. g1 - 1 of a row byte tile (lanes 4 g .. 4 g + 3, rows
// of A along their elements at rcx) converted into zmm g.
void reorder_gen_t::row_byte_groups(int g0, int g1, const Opmask *k) {
    const int64_t n1 = d_.in_n;
    auto row_disp = [&](int b) { return ((b % n1) * d_.in_is + (b / n1) * d_.is[1]) * ssz_; };
    const bool sgn = d_.ddt == relayout_s8;
    const Zmm pack(30);
    // Lane i of every group, then lane i + 1: each load walks one src
    // stream (a B position) and the 16 streams advance a line at a time
    // together (whole groups at a time, 4 lines of a stream back to back,
    // read the src 1.5x slower). Each group register g collects its four
    // lanes as it goes: dwords (i = 0), words (1), bytes with lane 2 twice
    // (2), lane 3 blended over the second copy (3). Dword i of 128-bit
    // lane L then holds lane i's bytes of A positions 4L .. 4L + 3, and
    // the shuffle makes each dword one A position's four lanes.
    const auto byte_pack = [&](const Zmm &d, const Zmm &a, const Zmm &b) {
        sgn ? vpacksswb(d, a, b) : vpackuswb(d, a, b);
    };
    for (int i = 0; i < 4; ++i)
        for (int g = g0; g < g1; ++g) {
            const int l = 4 * g + i;
            const Zmm r = i == 0 ? Zmm(g) : Zmm(16);
            if (row_pf_) prefetcht1(ptr[rcx + row_disp(l) + row_pf_]);
            load_lanes(r.getIdx(), ptr[rcx + row_disp(l)], k, d_.sdt);
            compute(r.getIdx(), lane_src_t{ ptr[rdx], ptr[rsi + l * d_.ss[1] * 4],
                                        ptr[rdi + l * d_.ds[1] * 4], nullptr });
            if (i == 1) {
                vpackssdw(Zmm(g), Zmm(g), r);
            } else if (i == 2) {
                vpackssdw(r, r, r);
                byte_pack(Zmm(g), Zmm(g), r);
            } else if (i == 3) {
                vpackssdw(r, r, r);
                byte_pack(r, r, r);
                vpblendmd(Zmm(g) | k7, Zmm(g), r);
                vpshufb(Zmm(g), Zmm(g), pack);
            }
        }
}

// Narrow rows in parts (d_.narrow_half, see jit_narrow_half): whole
// calls of one or two row tiles (src rows a page or more apart) in blocks
// of narrow_half A tiles, read in d_.narrow_parts passes over the block.
// The call's row tiles have 16 registers each (bytes: groups of 4 rows,
// gen_row_bytes; words: pairs of rows, gen_row_words), numbered on
// across the tiles; each pass converts the next 16 * tiles / parts of
// them for every tile of the block, the passes before the last park them
// on the stack (64 B a register), and the last one joins them: one
// transpose per row tile, 16 whole dst lines each. With two row tiles
// (line pairs) the first one's lines wait on the stack, and each dst row
// gets its two adjacent lines back to back. r8 src, r9 dst, r10 / r11
// scales of the call.
void reorder_gen_t::gen_narrow_half() {
    const int nb = d_.narrow_half;
    const int nl = d_.narrow_rows;
    const int ntiles = (int)(d_.n[1] / nl);
    const int regs = 16 * ntiles;
    const int per = regs / d_.narrow_parts; // registers a pass converts
    const int tile_stage = narrow_stage_bytes(d_) / nb;
    const int line_stage = buf_stage + narrow_stage_bytes(d_); // first lines of pairs
    const bool words = nl == 32;
    const int64_t osA = d_.os[0] * dsz_;
    const int64_t tile_src = nl * d_.is[1] * ssz_; // the second row tile's rows
    const bool nt = d_.nt && osA % 64 == 0;
    const int pf = row_pf_;
    row_pf_ = (int)d_.narrow_pf;
    begin_b_tiles();
    mov(rsi, r10);
    mov(rdi, r11);
    Label lblock;
    xor_(rax, rax);
    L(lblock);
    // The block's tiles (rcx, rdx at the first; the stage at rsp + rbx).
    auto tiles = [&](const std::function<void()> &tile) {
        Label l;
        lea(rcx, ptr[r8 + rax * ssz_]);
        imul(rdx, rax, (int)osA);
        add(rdx, r9);
        xor_(rbx, rbx);
        L(l);
        tile();
        add(rcx, 16 * ssz_);
        add(rdx, (int)(16 * osA));
        add(rbx, tile_stage);
        cmp(rbx, tile_stage * nb);
        jl(l, T_NEAR);
    };
    auto begin = [&] { return words ? begin_word_pairs() : begin_row_bytes(); };
    auto end = [&](const row_lanes_t &s) { words ? end_word_pairs(s) : end_row_bytes(s); };
    // Registers v0 .. v1 - 1 (one row tile's) converted into zmm v % 16.
    // (rcx and the scales of the second row tile: nl rows, lanes on.)
    const int64_t tile_step[3] = { tile_src, nl * d_.ss[1] * 4, nl * d_.ds[1] * 4 };
    const Reg64 tile_reg[3] = { rcx, rsi, rdi };
    auto convert = [&](int v0, int v1) {
        const int t = v0 / 16;
        for (int i = 0; i < 3 && t; ++i)
            if (tile_step[i]) add(tile_reg[i], (int)tile_step[i]);
        words ? word_rows(v0 % 16, v1 - 16 * t, nullptr)
              : row_byte_groups(v0 % 16, v1 - 16 * t, nullptr);
        for (int i = 0; i < 3 && t; ++i)
            if (tile_step[i]) sub(tile_reg[i], (int)tile_step[i]);
    };
    auto park = [&](int v0, int v1, bool store) {
        for (int v = v0; v < v1; ++v) {
            const Address at = ptr[rsp + rbx + buf_stage + 64 * v];
            store ? vmovdqu32(at, Zmm(v % 16)) : vmovdqu32(Zmm(v % 16), at);
        }
    };
    for (int v0 = 0; v0 + per < regs; v0 += per) {
        const row_lanes_t saved = begin();
        tiles([&] {
            convert(v0, v0 + per);
            park(v0, v0 + per, true);
        });
        end(saved);
    }
    tiles([&] {
        if (ntiles == 2) { // the first row tile, all parked: its lines wait
            park(0, 16, false);
            transpose_tile();
            for (int a = 0; a < 16; ++a)
                vmovdqu32(ptr[rsp + line_stage + 64 * a], Zmm(a));
        }
        const row_lanes_t held = begin();
        park(regs - 16, regs - per, false);
        convert(regs - per, regs);
        end(held);
        transpose_tile();
        if (ntiles == 1) {
            store_row_lines(16, 64, nt, [&](int a, int) { return Zmm(a); });
            return;
        }
        stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
            for (int a = 0; a < 16; ++a) {
                const Zmm first(16 + a % 2);
                vmovdqu32(first, ptr[rsp + line_stage + 64 * a]);
                for (int h = 0; h < 2; ++h) {
                    const Address to = ptr[rdx + a * osA + 64 * h];
                    const Zmm v = h ? Zmm(a) : first;
                    stream ? vmovntdq(to, v) : vmovdqu8(to, v);
                }
            }
        });
    });
    add(rax, 16 * nb);
    cmp(rax, (int)d_.n[0]);
    jl(lblock, T_NEAR);
    row_pf_ = pf;
}

// Narrow rows (d_.narrow_rows lanes of B, a whole dst line per A
// position) with every A position and lane a value and stored: the tile
// of gen_row_words (2-byte dsts) or gen_row_bytes (1-byte); the rest
// (edges, padding) falls through to the 16 x 16 tiles. rax a0, r15 b0.
void reorder_gen_t::gen_narrow_rows(int TA, const Label &lb) {
    const int nl = d_.narrow_rows;
    full_row_tile(nl, TA, lb, [&] {
        const int pf = row_pf_;
        row_pf_ = (int)d_.narrow_pf;
        nl == 64 ? gen_row_bytes(TA) : gen_row_words(TA);
        row_pf_ = pf;
    });
}

// A tile of nl B lanes (r15 ..) x TA A positions (rax ..) whose positions
// all hold values and are stored: `tile`, then on to the next B tile
// (lb); others fall through.
void reorder_gen_t::full_row_tile(
        int nl, int TA, const Label &lb, const std::function<void()> &tile) {
    Label lno;
    jump_if_past(r15, nl, s_v0 + 8, lno);
    cmp(r14, qword[rsp + s_z0 + 8]);
    jg(lno, T_NEAR);
    jump_if_past(rax, TA, s_v0, lno);
    tile();
    add(r15, nl);
    jmp(lb, T_NEAR);
    L(lno);
}

// AVX2 narrow rows (d_.ymm_narrow = L lanes, see jit_ymm_narrow_rows):
// a full tile of 8 A positions x a whole dst line of B lanes (r15 ..
// r15 + L - 1), K = L / 16 lanes per dword. Each src row is converted
// along A as it is loaded (per-lane scales broadcast) and K neighbouring
// lanes are packed into one dword per A position (bf16: low and high
// words; s8 / u8: saturating packs, so only the upper clamp as in
// gen_row_bytes, and a 4x4 byte shuffle), so that two 8x8 dword
// transposes leave each A position's line in two ymm (the first half on
// the stack), written back to back and streamed when large (the 8x8
// tiles wrote 16- or 8-byte pieces of each line, cached). Other tiles
// (edges, padding) fall through to the 8x8 tiles. rax a0, r15 b0, rcx
// src tile, rdx dst tile, rsi / rdi scales of the tile. Narrow blocks
// (16 lanes, jit_ymm_narrow_blocks) take one transpose of 8 (bf16) or 4
// (s8 / u8) dword rows: each A position's 32 or 16 bytes, the tile's 8
// adjacent in the dst, stored as whole lines (ymm_block_lines).
void reorder_gen_t::gen_ymm_narrow(const Label &lb) {
    full_row_tile(d_.ymm_narrow, 8, lb, [&] { ymm_narrow_tile(); });
}

void reorder_gen_t::ymm_narrow_tile() {
    const int K = 4 / dsz_;             // lanes per dword
    const int rows = d_.ymm_narrow / K; // dwords per A position: 16, 8 or 4
    const int halves = rows > 8 ? 2 : 1, J = std::min(rows, 8);
    const int64_t n1 = d_.in_n, osA = d_.os[0] * dsz_;
    // (interleaves: lane l is inner position l % n1 of B position l / n1)
    auto row_disp = [&](int l) { return ((l % n1) * d_.in_is + (l / n1) * d_.is[1]) * ssz_; };
    const bool svec = ssc_vec_, dvec = dsc_vec_;
    ssc_vec_ = dsc_vec_ = false; // (scales broadcast per lane)
    sat_packs_ = K == 4;
    const Ymm hi(12), t(13), u(14), pack(15);
    if (K == 4) {
        hoisted_[0] = hoisted_t{ &c_hi_, hi.getIdx() }; // (vminps takes no memory first)
        nhoisted_ = 1;
    }
    for (int h = 0; h < halves; ++h) {
        if (K == 4) {
            vmovdqu(pack, ptr[rip + c_pack_]);
            vmovups(hi, cst(c_hi_));
        }
        // Scales common to the lanes in registers the conversions leave
        // (the transposes clobber ymm 8-11: once per half).
        if (d_.src_scale && d_.ss[1] == 0) {
            ssc_reg_ = K == 4 ? 10 : 14;
            vbroadcastss(Ymm(ssc_reg_), ptr[rsi]);
        }
        if (d_.dst_scale && d_.ds[1] == 0) {
            dsc_reg_ = K == 4 ? 11 : 15;
            vbroadcastss(Ymm(dsc_reg_), ptr[rdi]);
        }
        for (int j = 0; j < J; ++j)
            for (int k = 0; k < K; ++k) {
                const int l = (8 * h + j) * K + k;
                const Ymm P(j), v(k == 0 ? j : k == 3 ? 14 : 13);
                load_lanes(v.getIdx(), ptr[rcx + row_disp(l)], nullptr, d_.sdt);
                compute(v.getIdx(), lane_src_t{ ptr[rdx], ptr[rsi + l * d_.ss[1] * 4],
                                            ptr[rdi + l * d_.ds[1] * 4], nullptr });
                if (K == 2 && k == 1) {
                    vpslld(t, t, 16);
                    vpor(P, P, t);
                } else if (K == 4 && k == 1) {
                    vpackssdw(P, P, t);
                } else if (K == 4 && k == 3) {
                    vpackssdw(t, t, u);
                    d_.ddt == relayout_s8 ? vpacksswb(P, P, t) : vpackuswb(P, P, t);
                    vpshufb(P, P, pack);
                }
            }
        transpose_tile();
        ymm_narrow_comp(h);
        if (h == 0 && halves == 2)
            for (int a = 0; a < 8; ++a)
                vmovups(ptr[rsp + buf_stage + 32 * a], Ymm(a));
    }
    sat_packs_ = false;
    nhoisted_ = 0;
    ssc_reg_ = dsc_reg_ = -1;
    ssc_vec_ = svec;
    dsc_vec_ = dvec;
    if (halves == 1)
        ymm_block_lines(rows * 4);
    else
        ymm_pair_lines(d_.nt && osA % 64 == 0, rdx, [&](int a) { return a * osA; });
}

// The 8 A positions' rows of a narrow block (rowb = 32 or 16 bytes: ymm a
// or its low half), adjacent in the dst from rdx, as 4 or 2 whole lines of
// back-to-back 32-byte stores: streamed when the call may (s_nt) and the
// tile starts on a line (a last A tile moved back may not), cached
// otherwise. The 8x8 tiles had stored 16 or 8 bytes a row, cached: each
// line read for ownership.
void reorder_gen_t::ymm_block_lines(int rowb) {
    const int n = rowb == 32 ? 8 : 4; // stores
    if (rowb == 16)
        for (int m = 0; m < 4; ++m)
            vinserti128(Ymm(2 * m), Ymm(2 * m), Xmm(2 * m + 1), 1);
    stores_streamed_or_cached(
            d_.nt,
            [&](bool stream, const Label &) {
                for (int i = 0; i < n; ++i) {
                    const Ymm v(rowb == 32 ? i : 2 * i);
                    stream ? vmovntps(ptr[rdx + 32 * i], v) : vmovups(ptr[rdx + 32 * i], v);
                }
            },
            [&](const Label &lcached) { // (the tile starts on a line)
                test(al, 64 / rowb - 1);
                jnz(lcached, T_NEAR);
            });
}

// The compensation of half h of ymm_narrow_tile (4-lane groups,
// d_.comp_group: 4i interleaves to bytes): ymm a holds A position a's
// groups 8h .. 8h + 7, a dword each; the rows are summed as word pairs
// (8 x 510 fits), then to dwords, added to the group sums of lanes r15 +
// 32h ... Rows a shifted last A tile repeats (below s_shift) are left
// out. Uses ymm 8-10.
void reorder_gen_t::ymm_narrow_comp(int h) {
    if (!comp_) return;
    const Ymm acc(8), t(9), ones(10);
    vmovdqu(ones, ptr[rip + c_ones8_]);
    vpxor(acc, acc, acc);
    for (int a = 0; a < 8; ++a) {
        Label lskip;
        if (shift_) {
            cmp(qword[rsp + s_shift], a);
            jg(lskip, T_NEAR);
        }
        byte_pair_sums(acc, t, ones, Ymm(a), false);
        L(lskip);
    }
    vpmaddwd(acc, acc, ptr[rip + c_ones16_]);
    mov(r14, qword[rsp + s_comp]);
    const Address sums = ptr[r14 + r15 + (int)(d_.comp_nl * 4 + 32 * h)];
    vpaddd(acc, acc, sums);
    vmovdqu(sums, acc);
}

// Word pairs (gen_row_words, gen_pair_a): 16 src rows of 16 lanes at `a`
// converted to bf16 / f16, two per zmm j as the low (h = 0) and the high
// (h = 1) words of its dwords; scales of lane l (broadcast). bf16 rounds
// in integers as finalize_lanes does, with the NaN case merged before
// the shift; f16 by vcvtps2ph and one vpermt2w. begin_word_pairs loads
// the invariants (zmm 22-26: the transpose clobbers them) and the row
// lanes' scales.
reorder_gen_t::row_lanes_t reorder_gen_t::begin_word_pairs() {
    f32_out_ = true;
    if (bf16_ne_) {
        vmovdqu16(Zmm(26), cst(c_wint_));
    } else if (d_.ddt == relayout_bf16) {
        vmovdqu32(Zmm(22), cst(c_one_));
        vmovdqu32(Zmm(23), cst(c_7fff_));
        vmovdqu32(Zmm(24), cst(c_qnan_));
        vmovdqu32(Zmm(25), cst(c_hmask_));
    } else {
        vmovdqu16(Zmm(26), cst(c_widx_));
    }
    return begin_row_lanes();
}

void reorder_gen_t::end_word_pairs(const row_lanes_t &saved) {
    f32_out_ = false;
    end_row_lanes(saved);
}

void reorder_gen_t::word_pair(int j, int h, const Address &a, const Opmask *k, int l) {
    const Zmm one(22), c7fff(23), qnan(24), hmask(25), widx(26), t(17), odd(16);
    const Zmm r = h == 0 ? Zmm(j) : odd;
    load_lanes(r.getIdx(), a, k, d_.sdt);
    compute(r.getIdx(), lane_src_t{ ptr[rdx], ptr[rsi + l * d_.ss[1] * 4],
                                ptr[rdi + l * d_.ds[1] * 4], nullptr });
    if (bf16_ne_) {
        // Row 2j's lanes in words 0-15, row 2j + 1's in 16-31, then
        // interleaved: words 2a, 2a + 1.
        if (h == 1) {
            bf16_convert2(Zmm(j), odd, Zmm(j), t);
            vpermw(Zmm(j), widx, Zmm(j));
        }
    } else if (d_.ddt == relayout_bf16) {
        // t = v + 0x7fff + bit 16 of v; NaN: v | quiet bit.
        vpsrld(t, r, 16);
        vpandd(t, t, one);
        vpaddd(t, t, r);
        vpaddd(t, t, c7fff);
        vcmpps(k4, r, r, 3); // unordered: NaN
        vpord(t | k4, r, qnan);
        if (h == 0)
            vpsrld(Zmm(j), t, 16);
        else
            vpternlogd(Zmm(j), t, hmask, 0xF8); // zmm j | (t & hmask)
    } else {
        vcvtps2ph(Ymm(r.getIdx()), r, 0);
        if (h == 1) vpermt2w(Zmm(j), widx, odd); // words 2a, 2a + 1
    }
}

// A pairs (d_.pair_a, see jit_pair_a): 32 A positions x the 16 B lanes
// of a block whose dst rows are adjacent (nchw -> nChw16c to bf16 / f16:
// rows of 32 bytes). Each src row's A positions a and a + 16 share a
// dword (word pairs), one transpose gives zmm a the lanes of positions a
// (low words) and a + 16 (high), and a word permute of two neighbours
// makes each whole line of positions (a, a + 1): 16 lines, streamed when
// large (the 16 x 16 tiles stored 32-byte halves, cached). Whole calls
// only; r8 src, r9 dst, r10 / r11 scales of the call (constant along A).
void reorder_gen_t::gen_pair_a() {
    a_groups(32, [&] { pair_a_step(); });
}

// The loop of the A pairs / quads over the call's A: `per` positions a
// step, rax a0, rcx src and rdx dst at a0, rsi / rdi the scales.
void reorder_gen_t::a_groups(int per, const std::function<void()> &step) {
    begin_b_tiles();
    mov(rsi, r10);
    mov(rdi, r11);
    Label la;
    xor_(rax, rax);
    L(la);
    lea(rcx, ptr[r8 + rax * ssz_]);
    imul(rdx, rax, (int)(d_.os[0] * dsz_));
    add(rdx, r9);
    step();
    add(rax, per);
    cmp(rax, (int)d_.n[0]);
    jl(la, T_NEAR);
}

void reorder_gen_t::pair_a_step() {
    const int64_t isB = d_.is[1] * ssz_;
    const bool nt = d_.nt;
    const row_lanes_t saved = begin_word_pairs();
    for (int b = 0; b < 16; ++b)
        for (int h = 0; h < 2; ++h) {
            const int64_t at = b * isB + h * 16 * ssz_;
            if (d_.narrow_pf) prefetcht1(ptr[rcx + at + d_.narrow_pf]);
            word_pair(b, h, ptr[rcx + at], nullptr, b);
        }
    end_word_pairs(saved);
    transpose_tile();
    const Zmm plo(30), phi(31);
    vmovdqu16(plo, cst(c_plo_));
    vmovdqu16(phi, cst(c_phi_));
    for (int a = 0; a < 16; a += 2) {
        const Zmm hi(16 + a / 2);
        vmovdqa32(hi, phi);
        vpermi2w(hi, Zmm(a), Zmm(a + 1));  // positions a + 16, a + 17
        vpermt2w(Zmm(a), plo, Zmm(a + 1)); // positions a, a + 1
    }
    stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
        for (int a = 0; a < 16; a += 2)
            for (const auto &x :
                    { std::make_pair(Zmm(a), a), std::make_pair(Zmm(16 + a / 2), a + 16) }) {
                const Address to = ptr[rdx + x.second * 32];
                stream ? vmovntdq(to, x.first) : vmovdqu16(to, x.first);
            }
    });
}

// A quads (d_.quad_a, see jit_quad_a): 64 A positions x the 16 B lanes
// of a block whose dst rows are adjacent (nchw -> nChw16c to s8 / u8:
// rows of 16 bytes, a quarter line). Each src row's positions a + 16 k
// (k = 0 .. 3) are converted and narrowed by saturating packs (only the
// upper clamp, as in gen_row_bytes) into zmm b: dword 4 L + k holds
// positions 16 k + 4 L .. + 3. After one dword transpose zmm j (= 4 L +
// k) holds those four positions of the 16 rows, a byte shuffle (c_pack_)
// makes each dword one position's bytes of four rows and a dword permute
// (c_flat_perm_) each 128-bit lane one position's 16 rows: the whole
// dst line of positions 16 k + 4 L .. + 3, streamed when large (the
// 16 x 16 tiles stored 16-byte quarters, cached). Whole calls only; r8
// src, r9 dst, r10 / r11 scales of the call (constant along A).
void reorder_gen_t::gen_quad_a() {
    a_groups(64, [&] { quad_a_step(); });
}

void reorder_gen_t::quad_a_step() {
    const int64_t isB = d_.is[1] * ssz_;
    const bool sgn = d_.ddt == relayout_s8;
    sat_packs_ = true;
    vmovups(Zmm(29), cst(c_hi_));
    hoisted_[0] = hoisted_t{ &c_hi_, 29 };
    nhoisted_ = 1;
    const row_lanes_t saved = begin_row_lanes();
    for (int b = 0; b < 16; ++b) {
        for (int k = 0; k < 4; ++k) {
            const int64_t at = b * isB + k * 16 * ssz_;
            if (d_.narrow_pf && (k * 16 * ssz_) % 64 == 0) prefetcht1(ptr[rcx + at + d_.narrow_pf]);
            load_lanes(16 + k, ptr[rcx + at], nullptr, d_.sdt);
            compute(16 + k, lane_src_t{ ptr[rdx], ptr[rsi + b * d_.ss[1] * 4],
                                    ptr[rdi + b * d_.ds[1] * 4], nullptr });
        }
        vpackssdw(Zmm(b), Zmm(16), Zmm(17));
        vpackssdw(Zmm(18), Zmm(18), Zmm(19));
        sgn ? vpacksswb(Zmm(b), Zmm(b), Zmm(18)) : vpackuswb(Zmm(b), Zmm(b), Zmm(18));
    }
    end_row_lanes(saved);
    sat_packs_ = false;
    nhoisted_ = 0;
    transpose_tile();
    const Zmm pack(30), perm(31);
    vmovdqu8(pack, ptr[rip + c_pack_]);
    vmovdqu32(perm, ptr[rip + c_flat_perm_]);
    for (int j = 0; j < 16; ++j) {
        vpshufb(Zmm(j), Zmm(j), pack);
        vpermd(Zmm(j), perm, Zmm(j));
    }
    stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
        for (int j = 0; j < 16; ++j) {
            const Address to = ptr[rdx + (16 * (j % 4) + 4 * (j / 4)) * 16];
            stream ? vmovntdq(to, Zmm(j)) : vmovdqu8(to, Zmm(j));
        }
    });
}

// Transposes the 128-bit lanes of zmm r .. r + 3 (lane g of zmm r + i
// becomes lane i of zmm r + g); zmm 16 .. 19 are clobbered.
void reorder_gen_t::lanes_transpose_4x4(int r) {
    const Zmm t[4] = { Zmm(16), Zmm(17), Zmm(18), Zmm(19) };
    vshufi64x2(t[0], Zmm(r), Zmm(r + 1), 0x44); // lanes 0, 1 of r, r + 1
    vshufi64x2(t[1], Zmm(r), Zmm(r + 1), 0xEE); // lanes 2, 3
    vshufi64x2(t[2], Zmm(r + 2), Zmm(r + 3), 0x44);
    vshufi64x2(t[3], Zmm(r + 2), Zmm(r + 3), 0xEE);
    vshufi64x2(Zmm(r), t[0], t[2], 0x88);     // lane g = 0 of each
    vshufi64x2(Zmm(r + 1), t[0], t[2], 0xDD); // g = 1
    vshufi64x2(Zmm(r + 2), t[1], t[3], 0x88); // g = 2
    vshufi64x2(Zmm(r + 3), t[1], t[3], 0xDD); // g = 3
}

// Byte quads (d_.quad_bytes, see jit_quad_bytes): the bit copy of the A
// quads, 64 A positions x the 16 B lanes of a block whose 16-byte dst rows
// are adjacent (s8 / u8 nchw -> nChw16c). Zmm b loads the whole 64-byte
// line of src row b; the in-lane 16 x 16 byte transpose leaves in 128-bit
// lane g of zmm j the dst row of position 16 g + j, and a 4 x 4 transpose
// of the lanes of each 4 registers (zmm 4 q + i, q fixed) makes lane i of
// one register the dst row of position 16 g + 4 q + i: dst line 4 g + q.
void reorder_gen_t::gen_quad_bytes() {
    a_groups(64, [&] { quad_bytes_step(); });
}

void reorder_gen_t::quad_bytes_step() {
    const int64_t isB = d_.is[1] * ssz_;
    for (int b = 0; b < 16; ++b) {
        if (d_.narrow_pf) prefetcht1(ptr[rcx + b * isB + d_.narrow_pf]);
        vmovdqu8(Zmm(b), ptr[rcx + b * isB]);
    }
    byte_transpose_16x16();
    for (int q = 0; q < 4; ++q)
        lanes_transpose_4x4(4 * q);
    stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
        for (int j = 0; j < 16; ++j) {
            const Address to = ptr[rdx + (4 * (j % 4) + j / 4) * 64];
            stream ? vmovntdq(to, Zmm(j)) : vmovdqu8(to, Zmm(j));
        }
    });
}

// 32 B lanes of a transpose to bf16 / f16: each src row (a lane, A along
// its elements) is converted as it is loaded, lanes 2j and 2j + 1 share
// zmm j as the low and high words of its dwords, and one 16 x 16 dword
// transpose makes zmm a the 64-byte dst row of A position a (the 16 x 16
// tiles need two transposes and narrow each row alone). bf16 rounds in
// integers as finalize_lanes does, with the NaN case merged before the
// shift. rax a0, r15 b0, rcx src tile, rdx dst tile, rsi / rdi scales of
// the tile (constant along A: lane l at l * ss[1] / ds[1]).
void reorder_gen_t::gen_row_words(int TA) {
    const int64_t osA = d_.os[0] * dsz_;
    const Opmask *k = TA < W_ ? &k5 : nullptr;
    const row_lanes_t saved = begin_word_pairs();
    word_rows(0, 16, k);
    end_word_pairs(saved);
    transpose_tile();
    store_row_lines(TA, 64, d_.nt && osA % 64 == 0, [&](int a, int) { return Zmm(a); });
}

// Registers j0 .. j1 - 1 of a row word tile (src rows 2j, 2j + 1 of A
// along their elements at rcx, each prefetched row_pf_ ahead) converted
// into zmm j (word_pair).
void reorder_gen_t::word_rows(int j0, int j1, const Opmask *k) {
    const int64_t isB = d_.is[1] * ssz_;
    for (int j = j0; j < j1; ++j)
        for (int h = 0; h < 2; ++h) {
            const int l = 2 * j + h;
            if (row_pf_) prefetcht1(ptr[rcx + l * isB + row_pf_]);
            word_pair(j, h, ptr[rcx + l * isB], k, l);
        }
}

// Register-tile transpose of the micro plane A x B.
//   rax a0, r15 b0, rbx src at b0, rbp dst at b0, rcx src tile, rdx dst
//   tile, rsi src scales of the tile, rdi dst scales of the tile.
void reorder_gen_t::gen_transpose() {
    const int log_n1 = begin_b_tiles();
    const int T = W_;
    // Src row b of a tile (lane b of B): B's lanes are in_n inner positions
    // (stride in_is) under B's own positions (stride is[1]).
    const int64_t n1 = d_.in_n;
    auto row_disp = [&](int b) { return ((b % n1) * d_.in_is + (b / n1) * d_.is[1]) * ssz_; };
    const int64_t isB = d_.is[1] * ssz_; // bytes per B position
    // bytes between dst rows (of the stage, see dst_stage_begin)
    const int64_t osA = (d_.dst_stage_row ? d_.dst_stage_row : d_.os[0]) * dsz_;
    const int64_t ssA = d_.ss[0] * 4, dsA = d_.ds[0] * 4;
    Label lb, lbend, la, laend, lgen, lnext;
    // A shorter than a tile on AVX-512 (3x3 filters: A = 9; large nChw8c ->
    // nchw: 8, see desc_init): full tiles are TA A rows x 16 B lanes,
    // loaded through a constant TA-lane mask (no reads past a row) and
    // stored as TA rows, instead of taking the edge tile every time.
    const int TA = z_ && d_.n[0] < T ? (int)d_.n[0] : T;
    if (TA < T) {
        mov(r14d, (1 << TA) - 1);
        kmovw(k5, r14d);
        k5_lanes_ = TA;
    }
    // B shorter than a tile on AVX-512 (3x3 filters to plain: B = 9): full
    // tiles of TB B rows, stored through a constant TB-lane mask, instead
    // of the edge tile every time (its run-time counts cost more than the
    // tile). Not with the compensation (dead lanes would be summed).
    const int TB = z_ && d_.n[1] < T && d_.in_n == 1 && !comp_ ? (int)d_.n[1] : T;
    if (TB < T) {
        mov(r14d, (1 << TB) - 1);
        kmovw(k6, r14d);
    }
    const Opmask *kb = TB < T ? &k6 : nullptr;

    auto open_a = [&]() {
        // A tiles outer, B tiles inner: the B tiles of one A tile complete
        // the same dst lines back to back (whole lines while they are in L1).
        xor_(rax, rax);
        L(la);
        cmp(rax, qword[rsp + s_z0]);
        jge(laend, T_NEAR);
        // AVX2 (no cheap masks): a last A tile with fewer than T value rows
        // moves back to end at the last value row when A has T of them, and
        // runs as a full tile; the rows it repeats are stored again with the
        // same values (not with the sum post-op, which reads the dst), and
        // the compensation skips them. 3x3 filters (A = 9) need this most.
        shift_ = !z_ && d_.beta == 0.f;
        if (shift_) {
            Label lns;
            mov(qword[rsp + s_shift], 0);
            lea(r14, ptr[rax + T]);
            cmp(r14, qword[rsp + s_v0]);
            jle(lns, T_NEAR);
            mov(r14, qword[rsp + s_v0]);
            cmp(r14, T);
            jl(lns, T_NEAR);
            cmp(rax, r14);
            jge(lns, T_NEAR);
            sub(r14, T);
            mov(r13, rax);
            sub(r13, r14);
            mov(qword[rsp + s_shift], r13);
            mov(rax, r14);
            L(lns);
        }
    };
    auto open_b = [&]() {
        xor_(r15, r15);
        L(lb);
        cmp(r15, qword[rsp + s_z0 + 8]);
        jge(lbend, T_NEAR);
    };
    // Near B src rows (d_.b_outer): B tiles outer, A tiles inner, so
    // that the src is read in order (see jit_reorder_desc_init).
    if (d_.b_outer) {
        open_b();
        open_a();
    } else {
        open_a();
        open_b();
    }
    Label lbody; // (jit_ymm_shift_b: the shifted last B tile starts over here)
    L(lbody);
    mov(rbx, r15);
    if (log_n1) shr(rbx, log_n1);
    imul(rbx, rbx, (int)isB);
    add(rbx, r8);
    lea(rbp, ptr[r9 + r15 * dsz_]);
    lea(rcx, ptr[rbx + rax * ssz_]);
    mov(rdx, rax);
    imul(rdx, rdx, (int)osA);
    add(rdx, rbp);
    if (d_.src_scale) {
        mov(rsi, r15);
        imul(rsi, rsi, (int)(d_.ss[1] * 4));
        mov(r14, rax);
        imul(r14, r14, (int)ssA);
        add(rsi, r14);
        add(rsi, r10);
    }
    if (d_.dst_scale) {
        mov(rdi, r15);
        imul(rdi, rdi, (int)(d_.ds[1] * 4));
        mov(r14, rax);
        imul(r14, r14, (int)dsA);
        add(rdi, r14);
        add(rdi, r11);
    }
    // Two B tiles per call (jit_byte_rows128), each its half of the stage.
    if (d_.byte_tile && stage_ && d_.byte_pair)
        whole_b_tile_halves(lb, 64, [&](bool a_partial, int h) { gen_byte_tile(a_partial, h); });
    else if (d_.byte_tile)
        whole_b_tiles(lb, 64, [&](bool a_partial) { gen_byte_tile(a_partial); });
    if (d_.word_tile && wstage_ && d_.n[1] == 64) {
        // Two B tiles per call (jit_word_rows64), each its half of the stage.
        whole_b_tile_halves(lb, 32, [&](bool a_partial, int h) { gen_word_tile(a_partial, h); });
    } else if (d_.word_tile) {
        whole_b_tiles(lb, 32, [&](bool a_partial) { gen_word_tile(a_partial); });
    }
    if (d_.word_pair) word_pair_tiles(lb);
    if (rows_) {
        // A whole row of lanes with every A position a value: the row
        // tiles; the rest (edges, padding) the tiles below.
        Label lno;
        cmp(qword[rsp + s_v0 + 8], 64);
        jl(lno, T_NEAR);
        cmp(qword[rsp + s_z0 + 8], 64);
        jl(lno, T_NEAR);
        jump_if_past(rax, TA, s_v0, lno);
        bytes_ ? gen_row_bytes(TA) : gen_row_tiles(TA);
        add(r15, 64);
        jmp(lb, T_NEAR);
        L(lno);
    }
    if (d_.few_b) {
        // A whole tile of A positions, every lane of B a value (B is one
        // tile: r15 = 0); edges and padding take the tiles below.
        Label lno;
        jump_if_past(rax, T, s_v0, lno);
        cmp(qword[rsp + s_v0 + 8], d_.few_b);
        jl(lno, T_NEAR);
        cmp(qword[rsp + s_z0 + 8], d_.few_b);
        jne(lno, T_NEAR);
        gen_few_b_tile();
        add(r15, T);
        jmp(lb, T_NEAR);
        L(lno);
    }
    if (d_.narrow_rows) gen_narrow_rows(TA, lb);
    if (d_.ymm_narrow) gen_ymm_narrow(lb);
    // Two full tiles side by side (lanes r15 .. r15 + 2T - 1) when both
    // are all values; B's last lanes take the tiles below.
    auto tile_pair = [&](const std::function<void()> &emit) {
        Label lno;
        jump_if_past(r15, 2 * T, s_v0 + 8, lno);
        jump_if_past(rax, T, s_v0, lno);
        emit();
        add(r15, 2 * T);
        jmp(lb, T_NEAR);
        L(lno);
    };
    // One-block src 8x16 tiles (AVX2 nChw16c -> nchw): ymm_blk_lines of
    // them per dst row visit where the B step has them all. An A of 16
    // (two A tiles) takes both in the first A tile's visit, while the
    // block is in L1, and the second A tile skips those B steps.
    if (d_.ymm_blk_lines) {
        const int TV = (int)d_.n[0]; // (8 or 16 rows per visit)
        Label lno, lskip;
        jump_if_past(r15, 16 * d_.ymm_blk_lines, s_v0 + 8, lno);
        cmp(qword[rsp + s_v0], TV);
        jl(lno, T_NEAR);
        if (TV > T) {
            test(al, T);
            jnz(lskip, T_NEAR);
        }
        gen_ymm_blk_lines(osA);
        L(lskip);
        add(r15, 16 * d_.ymm_blk_lines);
        jmp(lb, T_NEAR);
        L(lno);
    }
    // 8x8 tiles: each dst row one whole line (2-byte dsts: four tiles).
    if (d_.ymm_b16 && dsz_ == 4) tile_pair([&] { gen_ymm_b16_tile(osA, ssA, dsA); });
    if (d_.ymm_b16 && dsz_ == 2) {
        Label lno;
        jump_if_past(r15, 4 * T, s_v0 + 8, lno);
        jump_if_past(rax, T, s_v0, lno);
        gen_ymm_w32_tile(osA, ssA, dsA);
        add(r15, 4 * T);
        jmp(lb, T_NEAR);
        L(lno);
    }
    if (d_.pad_b && !z_) {
        // The same pair where B is padded (16 stored lanes, fewer values):
        // rows past the values zero (jit_pad_b_tiles).
        Label lno;
        jump_if_past(rax, T, s_v0, lno);
        jump_if_past(r15, 2 * T, s_z0 + 8, lno);
        gen_ymm_pad_b_tile(osA);
        add(r15, 2 * T);
        jmp(lb, T_NEAR);
        L(lno);
    }
    // 16x16 tiles: whole dst lines streamed.
    if (d_.f32_lines && z_) tile_pair([&] { gen_f32_line_pair_regs(osA, row_disp); });
    // 8x16 tiles (AVX2): the same, lines of two ymm.
    if (d_.f32_lines && !z_) tile_pair([&] { gen_ymm_f32_line_pair(osA); });
    // Near B src rows: two B tiles per A tile (b_outer_pairs) where the
    // B step has two full tiles (to `no` otherwise).
    const bool b_pairs = d_.b_outer_pair && TA == T && TB == T;
    auto unless_b_pair = [&](const Label &no) { jump_if_past(r15, 2 * T, s_v0 + 8, no); };
    if (b_pairs) {
        Label lno;
        unless_b_pair(lno);
        gen_b_outer_pair(osA, row_disp);
        jmp(lnext, T_NEAR);
        L(lno);
    }
    // One-block src tiles (nChw16c -> nchw): blk_lines B tiles per dst
    // row visit where the B step has them all (the tiles below otherwise).
    if (d_.blk_lines && TB == T) {
        Label lno;
        jump_if_past(r15, d_.blk_lines * T, s_v0 + 8, lno);
        jump_if_past(rax, TA, s_v0, lno);
        gen_blk_lines(TA, osA);
        add(r15, d_.blk_lines * T);
        jmp(lb, T_NEAR);
        L(lno);
    }
    if (d_.pad_b && z_ && TA == T && TB == T) {
        // A whole tile of A positions and of stored B lanes, not all of
        // them values (B padding): rows past the values stay zero.
        Label lno, lloaded;
        jump_if_past(rax, T, s_v0, lno);
        jump_if_past(r15, T, s_z0 + 8, lno);
        cmp(r14, qword[rsp + s_v0 + 8]);
        jle(lno, T_NEAR); // (every lane a value: the full tile below)
        mov(r13, qword[rsp + s_v0 + 8]);
        sub(r13, r15); // value rows (none when <= 0)
        for (int b = 0; b < T; ++b)
            vpxord_or_xor(b);
        for (int b = 0; b < T; ++b) {
            cmp(r13, b);
            jle(lloaded, T_NEAR);
            vmovups(Zmm(b), ptr[rcx + row_disp(b)]);
        }
        L(lloaded);
        transpose_tile();
        stores_streamed_or_cached(osA % 64 == 0, [&](bool stream, const Label &) {
            for (int a = 0; a < T; ++a)
                stream ? vmovntps(ptr[rdx + a * osA], Zmm(a)) : vmovups(ptr[rdx + a * osA], Zmm(a));
        });
        jmp(lnext, T_NEAR);
        L(lno);
    }
    // Full tile: every position a value.
    jump_if_past(rax, TA, s_v0, lgen);
    jump_if_past(r15, TB, s_v0 + 8, lgen);
    {
        // The same lines of the next B tile's rows into L2 (d_.pf_b: the
        // rows are near, so the calls of one B tile group read a contiguous
        // block that the hardware prefetchers do not fetch ahead in time).
        if (d_.pf_b)
            for (int b = 0; b < T; ++b)
                prefetcht1(ptr[rcx + row_disp(b) + d_.pf_b]);
        if (d_.pf_row)
            for (int b = 0; b < TB; ++b)
                prefetcht1(ptr[rcx + row_disp(b) + d_.pf_row]);
        int64_t reach = 0; // the end of the farthest src row's values
        for (int b = 0; b < TB; ++b)
            reach = std::max(reach, row_disp(b) + TA * ssz_);
        for (int b = 0; b < T; ++b) {
            if (b < TB)
                load_lanes(b, ptr[rcx + row_disp(b)], a_row_mask(TA, row_disp(b), reach), d_.sdt);
            else
                vpxord_or_xor(b);
        }
        prefetch_ahead_tile();
        if (TA == T && TB == T) f32_dst_prefetch(osA);
        // Only TA rows used: 4-byte bit copies of an odd A (3x3, 1x3
        // weights' hw) skip the others' shuffles (A of 8 or 4 channels,
        // other types as they were).
        transpose_tile(d_.bit_copy && ssz_ == 4 && TA % 2 ? TA : T);
        comp_zero();
        // (flat_b: the edge calls' tiles step by the folded loop, not
        // whole lines.)
        if (d_.packed_rows) {
            // The rows in order, each overwriting the dead lanes of the one
            // before it; the run back as whole lines.
            for (int a = 0; a < TA; ++a)
                vmovups(ptr[rsp + buf_stage + a * osA], Zmm(a));
            for (int l = 0; l < TB; ++l)
                vmovups(Zmm(l), ptr[rsp + buf_stage + l * 64]);
            store_row_lines(1, TB * 64, d_.nt, [&](int, int c) { return Zmm(c / 64); });
        }
        const bool nt = d_.nt && !d_.dst_stage_row && !d_.flat_b && TB == T && dsz_ == 4
                        && (z_ ? osA % 64 == 0 : osA == 4 * T);
        if (!d_.packed_rows)
            stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
                for (int a = 0; a < TA; ++a) {
                    if (value_path())
                        compute(a, lane_src_t{ ptr[rdx + a * osA], ptr[rsi + a * ssA],
                                           ptr[rdi + a * dsA], stream ? nullptr : kb });
                    if (stream) {
                        vmovntps(ptr[rdx + a * osA], vr(a));
                    } else {
                        comp_add_tile_row(a);
                        store_lanes(a, ptr[rdx + a * osA], kb);
                    }
                }
            });
        comp_flush();
    }
    jmp(lnext, T_NEAR);
    // Edge tile: counts of the tile.
    L(lgen);
    if (jit_ymm_shift_b(d_)) {
        // AVX2: a last B tile with fewer than T lanes (B = 9 hw of 3x3
        // weights to plain: one lane) moves back to end at the last lane
        // and runs as a full tile when A is whole, B has T values and no
        // padding; the lanes it repeats are stored again with the same
        // values (no sum, no compensation).
        Label lno;
        jump_if_past(rax, T, s_v0, lno);
        mov(r14, qword[rsp + s_v0 + 8]);
        cmp(r14, qword[rsp + s_z0 + 8]);
        jne(lno, T_NEAR);
        cmp(r14, T);
        jl(lno, T_NEAR);
        lea(r15, ptr[r14 - T]);
        jmp(lbody, T_NEAR);
        L(lno);
    }
    {
        clamp_diff(r13, qword[rsp + s_v0], rax, T);
        mov(qword[rsp + s_cnt_load], r13); // lanes of a src row (A)
        mov(qword[rsp + s_row_v], r13);    // dst rows with values
        clamp_diff(r13, qword[rsp + s_z0], rax, T);
        mov(qword[rsp + s_row_z], r13); // dst rows written
        clamp_diff(r13, qword[rsp + s_v0 + 8], r15, T);
        mov(qword[rsp + s_cnt_v], r13); // value lanes (B)
        clamp_diff(r13, qword[rsp + s_z0 + 8], r15, T);
        mov(qword[rsp + s_cnt_z], r13); // stored lanes
        {
            // No value lanes (B padding): every row is zeros, and no scale
            // of the tile is read (their indices may be past the end).
            Label lhas;
            cmp(qword[rsp + s_cnt_v], 0);
            jne(lhas, T_NEAR);
            mov(qword[rsp + s_row_v], 0);
            L(lhas);
        }
        if (z_) {
            mask_from_slot(k1, s_cnt_load, 16);
            mask_from_slot(k2, s_cnt_v, 16);
            mask_from_slot(k3, s_cnt_z, 16);
        }
        // The rows holding values are a prefix of the tile (cnt_v of
        // them), the stored rows with values a prefix of the stored rows
        // (row_v <= row_z): each unrolled row tests its index and leaves
        // through one label. A label pair per row made the labels a fifth
        // of the emission time of a cold kernel. Rows of B without values
        // are zeros (zero idioms: free at run time).
        for (int b = 0; b < T; ++b)
            vpxord_or_xor(b);
        Label lloaded;
        for (int b = 0; b < T; ++b) {
            cmp(qword[rsp + s_cnt_v], b);
            jle(lloaded, T_NEAR);
            if (z_) {
                load_lanes(b, ptr[rcx + row_disp(b)], &k1, d_.sdt);
            } else {
                gather_to_buf(buf_src, rcx + row_disp(b), s_cnt_load, ssz_);
                load_lanes(b, ptr[rsp + buf_src], nullptr, d_.sdt);
            }
        }
        L(lloaded);
        prefetch_ahead_tile();
        transpose_tile();
        comp_zero();
        if (!z_ && value_path()) lane_mask_from_slot(s_cnt_v);
        Label lvalues;
        for (int a = 0; a < T; ++a) {
            cmp(qword[rsp + s_row_v], a);
            jle(lvalues, T_NEAR);
            if (value_path()) {
                if (z_) {
                    compute(a, lane_src_t{ ptr[rdx + a * osA], ptr[rsi + a * ssA],
                                       ptr[rdi + a * dsA], &k2 });
                } else {
                    compute_partial(a, rdx + a * osA, rsi + a * ssA, rdi + a * dsA);
                }
                zero_dead_lanes(a);
            }
            comp_add_tile_row(a);
            if (z_) {
                store_lanes(a, ptr[rdx + a * osA], &k3);
            } else {
                store_lanes(a, ptr[rsp + buf_dst], nullptr);
                lea(r14, ptr[rdx + a * osA]);
                copy_elems(r14, rsp + buf_dst, s_cnt_z, dsz_);
            }
        }
        L(lvalues);
        {
            // Rows row_v .. row_z-1: zeros (A padding; every stored row
            // when B has no value lanes here), a run-time loop. They add
            // nothing to the compensation. The row index lives in
            // s_cnt_load (the loads are done; the AVX2 copy uses r12-r14).
            const int zr = tb_; // free after the transpose
            vpxord_or_xor(zr);
            if (!z_) store_lanes(zr, ptr[rsp + buf_dst], nullptr);
            Label lz, lzend;
            mov(r13, qword[rsp + s_row_v]);
            mov(qword[rsp + s_cnt_load], r13);
            L(lz);
            mov(r13, qword[rsp + s_cnt_load]);
            cmp(r13, qword[rsp + s_row_z]);
            jge(lzend, T_NEAR);
            imul(r14, r13, (int)osA);
            add(r14, rdx);
            if (z_)
                store_lanes(zr, ptr[r14], &k3);
            else
                copy_elems(r14, rsp + buf_dst, s_cnt_z, dsz_);
            inc(qword[rsp + s_cnt_load]);
            jmp(lz, T_NEAR);
            L(lzend);
        }
        comp_flush();
    }
    L(lnext);
    few_b_comp_dst();
    if (d_.b_outer) {
        add(rax, T);
        jmp(la, T_NEAR);
        L(laend);
        if (b_pairs) {
            // (the A tiles of this B step took two B tiles)
            Label lone;
            unless_b_pair(lone);
            add(r15, T);
            L(lone);
        }
        add(r15, T);
        jmp(lb, T_NEAR);
        L(lbend);
    } else {
        add(r15, T);
        jmp(lb, T_NEAR);
        L(lbend);
        add(rax, T);
        jmp(la, T_NEAR);
        L(laend);
    }
}

// Few B lanes (d_.few_b, see jit_few_b_tiles): the B src rows of 16 A
// positions (rcx + b * is[1]) are loaded (and converted along A: lanes
// walk A, so a scale is a vector where it advances by one per A position
// and broadcast per row otherwise) and become the tile's B dst vectors
// (rdx, dense) by a chain of two-table permutes each (vpermi2ps, indices
// c_few_idx_), stored whole, streamed when the call may. 1-byte dsts (B =
// 4) take no permutes: the four rows' saturating packs leave 128-bit lane
// L with bytes 4 L .. 4 L + 3 of each row, row after row, and one 4 x 4
// byte transpose per dword group (c_pack_) makes them the dst line's
// positions 4 L .. 4 L + 3, four lanes each (4 shuffles instead of 12
// permutes, 4 narrowings and 3 inserts).
void reorder_gen_t::gen_few_b_tile() {
    const int B = d_.few_b;
    // (narrower dsts of other B: jit_few_b_narrow, the chains below)
    const bool narrow = dsz_ < 4 && jit_few_b_narrow(d_);
    if (dsz_ == 2 && !narrow) {
        few_b_word_pair();
        return;
    }
    few_b_rows();
    if (!z_) {
        few_b_ymm_stores();
        return;
    }
    if (dsz_ == 1 && !narrow) {
        const Zmm t(16), u(17);
        vpackssdw(t, Zmm(0), Zmm(1));
        vpackssdw(u, Zmm(2), Zmm(3));
        // (bit copies: zero-extended bytes, which the unsigned pack keeps)
        value_path() && d_.ddt == relayout_s8 ? vpacksswb(t, t, u) : vpackuswb(t, t, u);
        vpshufb(t, t, ptr[rip + c_pack_]);
        few_b_comp(t);
        stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
            stream ? vmovntdq(ptr[rdx], t) : vmovdqu8(ptr[rdx], t);
        });
        return;
    }
    // (narrower dsts: each vector a piece of a line, cached, narrowed as
    // soon as its chain ends: zmm 16 - 19 only, store_lanes' scratch is 23)
    stores_streamed_or_cached(d_.nt && !narrow, [&](bool stream, const Label &) {
        for (int j = 0; j < B; ++j) {
            // (zmm 16 + 2j and 17 + 2j alternate along the chain)
            int cur = 16 + 2 * (narrow ? j % 2 : j);
            for (int st = 1; st < B; ++st) {
                const int nxt = st == 1 ? cur : cur ^ 1;
                vmovups(Zmm(nxt), ptr[rip + c_few_idx_ + 64 * (j * (B - 1) + st - 1)]);
                vpermi2ps(Zmm(nxt), Zmm(st == 1 ? 0 : cur), Zmm(st));
                cur = nxt;
            }
            if (narrow)
                store_lanes(cur, ptr[rdx + 16 * dsz_ * j], nullptr);
            else
                stream ? vmovntps(ptr[rdx + 64 * j], Zmm(cur))
                       : vmovups(ptr[rdx + 64 * j], Zmm(cur));
        }
    });
}

// desc.comp_a: the dword sums of the tile's dst line `line` (one per A
// position: its 4 lanes' bytes, signed for s8) added to the call's sums
// at A position rax (jit_few_b_comp). Uses zmm 17, 18, r14.
void reorder_gen_t::few_b_comp(const Zmm &line) {
    if (!d_.comp_a) return;
    const Zmm acc(17), ones(18);
    vmovdqu32(ones, ptr[rip + c_ones8_]);
    byte_pair_sums(acc, acc, ones, line, true);
    vpmaddwd(acc, acc, ptr[rip + c_ones16_]);
    mov(r14, qword[rsp + s_comp]);
    vpaddd(acc, acc, ptr[r14 + rax * 4]);
    vmovdqu32(ptr[r14 + rax * 4], acc);
}

// Four A tiles of a whole call's few-B bytes (desc.few_b_quads): steps j
// = 0 .. 3 of the innermost baked loop (the O blocks, 16 src bytes on),
// each one dst line (16 o x 4 i). r8 src, r9 dst of step 0.
// desc.few_b_quad_steps S: the four A tiles of S steps of the next-outer
// loop (the i quads), which steps S at a time; the sums of O block j
// summed in words over the steps (|4 x 2 x 255| fits) and added once.
void reorder_gen_t::gen_few_b_quad() {
    const int L = d_.nloops - 1;
    const int64_t osL = d_.loop_os[L] * dsz_;
    const int S = std::max(d_.few_b_quad_steps, 1);
    const int64_t isS = S > 1 ? d_.loop_is[L - 1] * ssz_ : 0;
    const int64_t osS = S > 1 ? d_.loop_os[L - 1] * dsz_ : 0;
    const Zmm ones(few_b_ones_), ones16(19);
    if (d_.comp_a) {
        // (few_b_comp's sums, the constants and the pointer loaded once)
        vmovdqu32(ones, ptr[rip + c_ones8_]);
        vmovdqu32(ones16, ptr[rip + c_ones16_]);
        mov(r14, qword[rsp + s_comp]);
    }
    for (int s = 0; s < S; ++s)
        few_b_quad_lines(s * isS, s * osS, osL, s == 0);
    if (!d_.comp_a) return;
    for (int j = 0; j < 4; ++j) {
        const Zmm acc(8 + j);
        vpmaddwd(acc, acc, ones16);
        const Address sums = ptr[r14 + (int)(j * d_.loop_cs[L] * 4)];
        vpaddd(acc, acc, sums);
        vmovdqu32(sums, acc);
    }
}

// One step of gen_few_b_quad: src rows at r8 + soff, the four lines at r9
// + doff + j osL; desc.comp_a: their byte pairs' word sums into zmm 8 + j
// (`first`: set; zmm 12 scratch, the ones at few_b_ones_, loaded by
// gen_few_b_quad).
void reorder_gen_t::few_b_quad_lines(int64_t soff, int64_t doff, int64_t osL, bool first) {
    for (int b = 0; b < 4; ++b)
        vmovdqu8(Zmm(b), ptr[r8 + (int)(soff + b * d_.is[1])]);
    // Lane l of each: o 16 l + 0..7 (lo) / 8..15 (hi), rows (0, 1) and (2, 3) paired.
    vpunpcklbw(Zmm(4), Zmm(0), Zmm(1));
    vpunpckhbw(Zmm(5), Zmm(0), Zmm(1));
    vpunpcklbw(Zmm(6), Zmm(2), Zmm(3));
    vpunpckhbw(Zmm(7), Zmm(2), Zmm(3));
    // u_k (zmm k): lane l holds o 16 l + 4 k .. + 3, each a dword of its 4 rows.
    vpunpcklwd(Zmm(0), Zmm(4), Zmm(6));
    vpunpckhwd(Zmm(1), Zmm(4), Zmm(6));
    vpunpcklwd(Zmm(2), Zmm(5), Zmm(7));
    vpunpckhwd(Zmm(3), Zmm(5), Zmm(7));
    // The 4 x 4 transpose of 128-bit lanes: line j = lane j of u0 .. u3.
    vshufi64x2(Zmm(4), Zmm(0), Zmm(1), 0x44);
    vshufi64x2(Zmm(5), Zmm(0), Zmm(1), 0xee);
    vshufi64x2(Zmm(6), Zmm(2), Zmm(3), 0x44);
    vshufi64x2(Zmm(7), Zmm(2), Zmm(3), 0xee);
    vshufi64x2(Zmm(0), Zmm(4), Zmm(6), 0x88);
    vshufi64x2(Zmm(1), Zmm(4), Zmm(6), 0xdd);
    vshufi64x2(Zmm(2), Zmm(5), Zmm(7), 0x88);
    vshufi64x2(Zmm(3), Zmm(5), Zmm(7), 0xdd);
    if (d_.comp_a)
        for (int j = 0; j < 4; ++j)
            byte_pair_sums(Zmm(8 + j), Zmm(12), Zmm(few_b_ones_), Zmm(j), first);
    stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
        for (int j = 0; j < 4; ++j) {
            const Address a = ptr[r9 + (int)(doff + j * osL)];
            stream ? vmovntdq(a, Zmm(j)) : vmovdqu8(a, Zmm(j));
        }
    });
}

// desc.comp_a: the same for a 16x16 tile (edges, padding; cached stores),
// from its dst line: the bytes of A positions and lanes holding values.
// Uses zmm 16 .. 18, k4, k7, r13, r14.
void reorder_gen_t::few_b_comp_dst() {
    if (!d_.comp_a) return;
    const int T = W_;
    clamp_diff(r13, qword[rsp + s_v0 + 8], r15, d_.few_b); // value lanes
    mov(r14, -1);
    bzhi(r14, r14, r13);
    imul(r14, ptr[rip + c_rep4_]); // (their bytes in every dword)
    kmovq(k4, r14);
    clamp_diff(r13, qword[rsp + s_v0], rax, T); // value positions
    shl(r13, 2);
    mov(r14, -1);
    bzhi(r14, r14, r13);
    kmovq(k7, r14);
    kandq(k7, k7, k4);
    vmovdqu8(Zmm(16) | k7 | T_z, ptr[rdx]);
    few_b_comp(Zmm(16));
}

// A lane tile (desc.lane_tiles): 64 bytes of each of the 16 B rows (o)
// at r8, dword j = 4-lane group (r, q) of step r of the run's loop and
// step q of the innermost one, transposed so that zmm j is the dst line
// at r9 + r osR + q 64 (16 o x 4 i). The compensation's byte pairs are
// summed in words over the 16 lines (16 x 2 x 255 fits), then into the
// call's per-o dwords in zmm 20 (lane_tiles_comp).
void reorder_gen_t::gen_lane_tile() {
    const int L = d_.nloops - 1, r = jit_lane_tiles_loop(d_);
    // (r < 0: 16 steps of the innermost loop, one line each)
    const int64_t nq = r >= 0 ? d_.loop_n[L] : 16, osR = r >= 0 ? d_.loop_os[r] * dsz_ : 0;
    // zmm j holds group g(j) (lane_cvt_tile: the packs' order).
    const bool cvt = !d_.bit_copy;
    auto group = [&](int j) { return cvt ? 4 * (j % 4) + j / 4 : j; };
    if (cvt) {
        lane_cvt_tile();
    } else {
        for (int b = 0; b < 16; ++b)
            quad_tile_row(b, r8 + (int)(b * d_.is[1] * ssz_));
        quad_tile_transpose();
    }
    if (comp_) {
        // (lane_cvt_tile's transpose clobbers zmm 16 .. 31: its tiles add
        // their sums to the call's at once)
        if (cvt) {
            vmovdqu32(Zmm(23), ptr[rip + c_ones8_]);
            vmovdqu32(Zmm(24), ptr[rip + c_ones16_]);
        }
        for (int j = 0; j < 16; ++j)
            byte_pair_sums(Zmm(21), Zmm(22), Zmm(23), Zmm(j), j == 0);
        vpmaddwd(Zmm(21), Zmm(21), Zmm(24));
        if (cvt) {
            vmovdqa32(Zmm(20), Zmm(21));
            lane_tiles_comp(true);
        } else {
            vpaddd(Zmm(20), Zmm(20), Zmm(21));
        }
    }
    stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
        for (int j = 0; j < 16; ++j) {
            const int64_t g = group(j);
            const Address a = ptr[r9 + (int)(g / nq * osR + g % nq * 64)];
            stream ? vmovntdq(a, Zmm(j)) : vmovdqu8(a, Zmm(j));
        }
    });
}

// The f32 -> s8 / u8 lane tile: each o row's 64 floats (4 vectors at r8
// + b is[1], scaled by its o's scale) converted and narrowed by saturating
// packs into zmm b, dword 4 l + m of which is group 4 m + l (128-bit lane
// l of vector m), then one 16 x 16 dword transpose (zmm j: dword j of
// every row). The pipeline is row_byte_groups' (only the upper clamp
// before the packs), so the values are the reference's.
void reorder_gen_t::lane_cvt_tile() {
    mov(rsi, r10);
    mov(rdi, r11);
    const row_lanes_t saved = begin_row_bytes();
    const bool sgn = d_.ddt == relayout_s8;
    for (int b = 0; b < 16; ++b) {
        if (d_.src_scale && d_.ss[1] != 0) {
            // (expanded: the o's scale at lane 4 b)
            vbroadcastss(Zmm(28), ptr[r10 + (int)(4 * b * d_.ss[1] * 4)]);
            ssc_reg_ = 28;
        }
        for (int m = 0; m < 4; ++m) {
            load_lanes(16 + m, ptr[r8 + (int)((b * d_.is[1] + 16 * m) * ssz_)], nullptr, d_.sdt);
            compute(16 + m, lane_src_t{ ptr[r9], ptr[r10], ptr[r11], nullptr });
        }
        vpackssdw(Zmm(16), Zmm(16), Zmm(17));
        vpackssdw(Zmm(18), Zmm(18), Zmm(19));
        sgn ? vpacksswb(Zmm(b), Zmm(16), Zmm(18)) : vpackuswb(Zmm(b), Zmm(16), Zmm(18));
    }
    end_row_bytes(saved);
    transpose_tile();
}

// The lane tiles' per-o sums (zmm 20; constants in zmm 23, 24): cleared
// before a call's tiles, added to its 4-lane group sums after them
// (`flush`; every lane tile call is one whole B tile: b0 = 0), after
// each tile for conversions.
void reorder_gen_t::lane_tiles_comp(bool flush) {
    if (!comp_) return;
    if (!flush) {
        vpxord(Zmm(20), Zmm(20), Zmm(20));
        vmovdqu32(Zmm(23), ptr[rip + c_ones8_]);
        vmovdqu32(Zmm(24), ptr[rip + c_ones16_]);
        return;
    }
    mov(r14, qword[rsp + s_comp]);
    const Address sums = ptr[r14 + (int)(d_.comp_nl * 4)];
    vpaddd(Zmm(20), Zmm(20), sums);
    vmovdqu32(sums, Zmm(20));
}

// 2-byte dsts (bf16 / f16, B = 2: hwio -> OIhw8i16o2i): the two rows'
// words paired into the dwords of zmm 0 (word_pair), the dst line of the
// tile's 16 positions.
void reorder_gen_t::few_b_word_pair() {
    const row_lanes_t saved = begin_word_pairs();
    ssc_vec_ = d_.ss[0] == 1;
    dsc_vec_ = d_.ds[0] == 1;
    for (int b = 0; b < 2; ++b)
        word_pair(0, b, ptr[rcx + b * d_.is[1] * ssz_], nullptr, b);
    end_word_pairs(saved);
    stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
        stream ? vmovntdq(ptr[rdx], Zmm(0)) : vmovdqu16(ptr[rdx], Zmm(0));
    });
}

// The tile's B src rows into vr(0 .. B-1), converted along A.
// 1-byte dsts: narrowed by saturating packs (gen_few_b_tile), so only the
// upper clamp, its constant in zmm 29 (vminps takes no memory first).
void reorder_gen_t::few_b_rows() {
    const bool ssc_vec = ssc_vec_, dsc_vec = dsc_vec_;
    ssc_vec_ = d_.ss[0] == 1;
    dsc_vec_ = d_.ds[0] == 1;
    const bool packs = z_ && dsz_ == 1 && value_path() && d_.few_b == 4;
    if (packs) {
        sat_packs_ = true;
        vmovups(Zmm(29), cst(c_hi_));
        hoisted_[0] = hoisted_t{ &c_hi_, 29 };
        nhoisted_ = 1;
    }
    for (int b = 0; b < d_.few_b; ++b) {
        load_lanes(b, ptr[rcx + b * d_.is[1] * ssz_], nullptr, d_.sdt);
        if (value_path())
            compute(b, lane_src_t{ ptr[rdx], ptr[rsi + b * d_.ss[1] * 4],
                               ptr[rdi + b * d_.ds[1] * 4], nullptr });
    }
    sat_packs_ = false;
    nhoisted_ = 0;
    ssc_vec_ = ssc_vec;
    dsc_vec_ = dsc_vec;
}

// AVX2 (odd B, 4-byte dsts): dst element f = B p + c of the tile (position
// p, lane c) belongs in lane f % 8 of dst vector f / 8. One vpermps per row
// moves each position p of row c to lane (B p + c) % 8 (a bijection for
// odd B), so dst vector j is a blend of the permuted rows, lane l from row
// (8 j + l) % B: B permutes and B (B - 1) blends per tile (3 channels: 9
// shuffles for 24 values), no 2-source permute needed. Streamed when the
// call may and the tile is not the shifted last one (its dst is not
// 32-byte aligned; it stores cached, rewriting the positions it repeats).
void reorder_gen_t::few_b_ymm_stores() {
    const int B = d_.few_b;
    const Ymm idx(15);
    for (int c = 0; c < B; ++c) {
        vmovups(idx, ptr[rip + c_few_idx_ + 32 * c]);
        vpermps(Ymm(c), idx, Ymm(c));
    }
    for (int j = 0; j < B; ++j) {
        const Ymm out(8 + j);
        int mask[8] = {};
        for (int l = 0; l < 8; ++l)
            mask[(8 * j + l) % B] |= 1 << l;
        const int c0 = 8 * j % B, c1 = (c0 + 1) % B;
        vblendps(out, Ymm(c0), Ymm(c1), mask[c1]);
        for (int c = (c1 + 1) % B; c != c0; c = (c + 1) % B)
            vblendps(out, out, Ymm(c), mask[c]);
    }
    Label lcached, ldone;
    if (d_.nt) {
        cmp(qword[rsp + s_nt], 0);
        je(lcached, T_NEAR);
        cmp(qword[rsp + s_shift], 0);
        jne(lcached, T_NEAR);
        for (int j = 0; j < B; ++j)
            vmovntps(ptr[rdx + 32 * j], Ymm(8 + j));
        jmp(ldone, T_NEAR);
    }
    L(lcached);
    for (int j = 0; j < B; ++j)
        vmovups(ptr[rdx + 32 * j], Ymm(8 + j));
    L(ldone);
}

// AVX2 tiles of 8 A rows x 16 B lanes (d_.ymm_b16, see
// jit_ymm_b16_tiles): the left 8x8 tile's rows wait on the stack while the
// right one is transposed, then each dst row is written as one whole
// 64-byte line, two stores back to back (streamed: a write-combining
// buffer fills at once; half lines far apart cost 2x streamed and a
// read-for-ownership each cached).
void reorder_gen_t::gen_ymm_b16_tile(int64_t osA, int64_t ssA, int64_t dsA) {
    const int64_t isB = d_.is[1] * ssz_;
    if (dsz_ == 2) {
        gen_ymm_w32_tile(osA, ssA, dsA);
        return;
    }
    for (int h = 0; h < 2; ++h) {
        for (int b = 0; b < 8; ++b)
            load_lanes(b, ptr[rcx + (8 * h + b) * isB], nullptr, d_.sdt);
        prefetch_ahead_tile();
        transpose_tile();
        for (int a = 0; a < 8; ++a) {
            if (value_path())
                compute(a, lane_src_t{ ptr[rdx + a * osA + 32 * h],
                                   ptr[rsi + a * ssA + 32 * h * d_.ss[1]],
                                   ptr[rdi + a * dsA + 32 * h * d_.ds[1]], nullptr });
            if (h == 0) vmovups(ptr[rsp + buf_stage + 32 * a], Ymm(a));
        }
    }
    ymm_pair_lines(
            d_.nt, rdx, [&](int a) { return a * osA; }, jit_ymm_shift_new_rows(d_));
}

// 2-byte dsts on those tiles (f32 -> bf16 / f16, see jit_ymm_b16_tiles):
// 8 A rows x 32 B lanes, four 8x8 transposes, so that each dst row is
// again one whole line. The rows of transposes h and h + 1 narrow into one
// vector of 16 words (bf16: vpackusdw of the rounded words and a vpermq;
// f16: two vcvtps2ph); the first pair's rows wait on the stack, the
// second pair's stay in ymm 0-7 for ymm_pair_lines. The 8x8 tiles had
// stored 16 bytes to each of 8 dst rows far apart (f32 nhwc -> bf16 nchw
// 16x256x64x64: 25% of a copy).
void reorder_gen_t::gen_ymm_w32_tile(int64_t osA, int64_t ssA, int64_t dsA) {
    const int64_t isB = d_.is[1] * ssz_;
    const int stage2 = buf_stage + 8 * 32; // transposes 0 and 2's rows
    for (int h = 0; h < 4; ++h) {
        for (int b = 0; b < 8; ++b)
            load_lanes(b, ptr[rcx + (8 * h + b) * isB], nullptr, d_.sdt);
        prefetch_ahead_tile();
        transpose_tile();
        const int held = h < 2 ? buf_stage : stage2;
        ymm_bf16_grouped(0, 8, [&] {
            for (int a = 0; a < 8; ++a)
                compute(a, lane_src_t{ ptr[rdx + a * osA + 16 * h],
                                   ptr[rsi + a * ssA + 32 * h * d_.ss[1]],
                                   ptr[rdi + a * dsA + 32 * h * d_.ds[1]], nullptr });
        });
        for (int a = 0; a < 8; ++a) {
            const Ymm v(a);
            const Address prev = ptr[rsp + held + 32 * a];
            if (d_.ddt == relayout_f16) {
                const Xmm x(a), t(tb_ + 7);
                if (h % 2 == 0) {
                    vcvtps2ph(prev, v, 0);
                } else {
                    vcvtps2ph(x, v, 0);
                    vmovdqu(t, prev);
                    vinserti128(v, Ymm(t.getIdx()), x, 1);
                }
            } else if (h % 2 == 0) {
                vmovdqu(prev, v);
            } else {
                // [h + 1 lo, h lo, h + 1 hi, h hi] -> h's 8 words, h + 1's
                vpackusdw(v, v, prev);
                vpermq(v, v, 0x8d);
            }
            if (h == 1) vmovdqu(ptr[rsp + buf_stage + 32 * a], v);
        }
    }
    ymm_pair_lines(
            d_.nt, rdx, [&](int a) { return a * osA; }, jit_ymm_shift_new_rows(d_));
}

// The 8x16 tile pair of a B padded in the dst (d_.pad_b on AVX2: nchw ->
// nChw16c of 3 channels, 3 value rows of 16): the value rows are loaded,
// the others zeroed (a half without values is not transposed), and each
// dst row is one whole line as in gen_ymm_b16_tile; the edge tile had
// gathered and stored every tile element by element, cached.
void reorder_gen_t::gen_ymm_pad_b_tile(int64_t osA) {
    const int64_t isB = d_.is[1] * ssz_;
    mov(r13, qword[rsp + s_v0 + 8]);
    sub(r13, r15); // value rows (none when <= 0)
    for (int h = 0; h < 2; ++h) {
        Label lloaded, lzero;
        for (int b = 0; b < 8; ++b)
            vpxord_or_xor(b);
        for (int b = 0; b < 8; ++b) {
            cmp(r13, 8 * h + b);
            jle(lloaded, T_NEAR);
            vmovups(Ymm(b), ptr[rcx + (8 * h + b) * isB]);
        }
        L(lloaded);
        cmp(r13, 8 * h);
        jle(lzero, T_NEAR);
        transpose_tile();
        L(lzero);
        if (h == 0)
            for (int a = 0; a < 8; ++a)
                vmovups(ptr[rsp + buf_stage + 32 * a], Ymm(a));
    }
    ymm_pair_lines(
            d_.nt, rdx, [&](int a) { return a * osA; }, jit_ymm_shift_new_rows(d_));
}

// Full pairs of 16x16 4-byte tiles (d_.f32_lines, see jit_f32_line_pairs):
// B lanes r15 .. r15 + 31 of the A tile, 128 bytes of each dst row. The
// rows are not whole lines apart: the single tiles store cached, each
// 64-byte row the tail of one line and the head of the next, read for
// ownership. Where the call is aligned (s_nt), row a starts m = a * os[0]
// mod 16 lanes into a line (rax and r15 are whole tiles), and its lines
// are assembled whole (valignd) and streamed: the head line from the
// row's previous 64 bytes (the pair before in this call, or the previous
// call's last pair: the scratch row at lines + 64 * (rax + a)) and the
// first tile, the middle line from both tiles; the second tile goes to
// the scratch row. Without a previous row (the first pair of a call that
// continues none) the head is a partial line, and after the call's last
// pair (unless the next call continues it) so is the tail: stored cached
// under a mask at the line's own address (a masked store whose 64 bytes
// reach into a streamed line, masked lanes or not, stalled the stream:
// 40 -> 2% of a copy). No dst prefetch (jit_f32_dst_prefetch): a
// streamed line found in the caches costs more than the prefetch gains
// (ab -> ba 8191 x 8192: 36-38% of a copy with it, 46-53 without). The
// head lines are stored as soon as the first tile is transposed, from its
// registers, before the second tile is loaded (as the whole-line tiles of
// 8192^2 interleave their stores with the next tile's loads); its rows
// wait on the stack for the middle lines (single-thread, 7 interleaved
// runs against all 32 stores after both tiles, medians: 8191 x 8192 47 ->
// 50% of a copy; 2 threads even, 50 / 48). What bounds the pairs below
// the whole-line tiles (8192^2 with dst rows 8192, 8208, 8320 or 8704
// elements apart: 55-72%, 8193: 41-49): measured with the kernel's
// stores changed (wrong values), the cached stores between the streamed
// ones: without the head lines 57-59%, heads stored to the middle
// line's address (the same number of streamed stores) 46-48, without
// the stack rows or without the scratch rows ~53-54 each; the scratch
// kept in L1, the valignd and its scratch load dropped, heads and
// middles stored row by row, and pf_row 512 / 1024 were even. Each tile
// prefetches its src rows as the full tiles do. These figures are the
// first version's, which parked the first tile's rows on the stack; the
// kernel is now gen_f32_line_pair_regs (below), the only AVX-512 one.

// The first tile of a pair (h = 0) or the second: its src rows
// prefetched along A (pf_row), loaded into zmm 0 .. 15 and transposed
// (unless not `transpose`).
void reorder_gen_t::f32_pair_tile(
        int h, const std::function<int64_t(int)> &row_disp, bool transpose) {
    if (d_.pf_row)
        for (int b = 0; b < 16; ++b)
            prefetcht1(ptr[rcx + row_disp(16 * h + b) + d_.pf_row]);
    for (int b = 0; b < 16; ++b)
        load_lanes(b, ptr[rcx + row_disp(16 * h + b)], nullptr, d_.sdt);
    if (transpose) transpose_tile();
}

// Where row a of an f32 line pair's A tile starts in its line (lanes).
int reorder_gen_t::f32_pair_lanes(int a) const {
    return (int)(((a * d_.os[0]) % 16 + 16) % 16);
}

// A cached f32 line pair (the call's dst not aligned): the first tile's
// rows wait on the stack, each dst row two 64-byte stores.
void reorder_gen_t::f32_pair_cached(int64_t osA, const std::function<int64_t(int)> &row_disp) {
    const Zmm t(tb_);
    auto first = [&](int a) { return ptr[rsp + buf_stage + 64 * a]; };
    f32_pair_tile(0, row_disp);
    for (int a = 0; a < 16; ++a)
        vmovups(first(a), Zmm(a));
    f32_pair_tile(1, row_disp);
    for (int a = 0; a < 16; ++a) {
        vmovups(t, first(a));
        vmovups(ptr[rdx + a * osA], t);
        vmovups(ptr[rdx + a * osA + 64], Zmm(a));
    }
}

// The heads of a streamed f32 line pair: to `whole` after a previous row
// (a pair before in the call, or the previous call's: lines_io bit 0),
// else to `partial`.
void reorder_gen_t::f32_pair_heads_branch(const Label &whole, const Label &partial) {
    test(r15, r15);
    jnz(whole, T_NEAR);
    test(byte[rsp + s_lines_io], 1);
    jz(partial, T_NEAR);
}

// Masked cached store of v's lanes `mask` at the line's own address (k7).
void reorder_gen_t::f32_pair_masked(const Address &at, uint32_t mask, const Zmm &v) {
    mov(r14d, mask);
    kmovw(k7, r14d);
    vmovups(at | k7, v);
}

// Partial head lines from the first tile (zmm 0 .. 15): no previous row.
void reorder_gen_t::f32_pair_partial_heads(int64_t osA, const Zmm &r) {
    for (int a = 0; a < 16; ++a) {
        const int m = f32_pair_lanes(a);
        if (m == 0) continue;
        valignd(r, Zmm(a), Zmm(a), 16 - m); // lanes m .. 15: the first tile's first 16 - m
        f32_pair_masked(ptr[rdx + a * osA - 4 * m], 0xffffu & ~((1u << m) - 1), r);
    }
}

// Tail lines, partial: after the call's last pair unless the next call
// continues it (lines_io bit 1), and before single tiles; the second
// tile's row a in reg(a).
void reorder_gen_t::f32_pair_tails(
        int64_t osA, const Label &done, const std::function<Zmm(int)> &reg, const Zmm &r) {
    Label ltail;
    lea(r14, ptr[r15 + 64]);
    cmp(r14, qword[rsp + s_v0 + 8]);
    jle(done, T_NEAR); // another pair follows
    lea(r14, ptr[r15 + 32]);
    cmp(r14, qword[rsp + s_v0 + 8]);
    jne(ltail, T_NEAR); // single tiles follow
    test(byte[rsp + s_lines_io], 2);
    jnz(done, T_NEAR);
    L(ltail);
    for (int a = 0; a < 16; ++a) {
        const int m = f32_pair_lanes(a);
        if (m == 0) continue;
        valignd(r, reg(a), reg(a), 16 - m); // lanes 0 .. m - 1: the second tile's last m
        f32_pair_masked(ptr[rdx + a * osA + 64 + 4 * (16 - m)], (1u << m) - 1, r);
    }
}

// Near B src rows, B-outer (d_.b_outer_pair, see jit_b_outer_pairs): the
// A tile at rax of B tiles r15 and r15 + 16, each a full 16x16 tile whose
// dst rows are whole lines (streamed when the call's dst is aligned), so
// that each visit of a dst row writes two adjacent lines; each tile
// prefetches the same lines of the next pair's rows into L2 (twice the
// single tiles' distance). rcx src tile, rdx dst tile.
void reorder_gen_t::gen_b_outer_pair(int64_t osA, const std::function<int64_t(int)> &row_disp) {
    for (int h = 0; h < 2; ++h) {
        for (int b = 0; b < 16; ++b)
            prefetcht1(ptr[rcx + row_disp(16 * h + b) + 2 * d_.pf_b]);
        for (int b = 0; b < 16; ++b)
            load_lanes(b, ptr[rcx + row_disp(16 * h + b)], nullptr, d_.sdt);
        transpose_tile();
        stores_streamed_or_cached(d_.nt && osA % 64 == 0, [&](bool stream, const Label &) {
            for (int a = 0; a < 16; ++a)
                stream ? vmovntps(ptr[rdx + a * osA + 64 * h], Zmm(a))
                       : vmovups(ptr[rdx + a * osA + 64 * h], Zmm(a));
        });
    }
}

// desc.blk_lines (jit_blk_lines): K = blk_lines full tiles (TA A rows x
// 16 B lanes) of one A tile, B tile k's src rows at rcx + k * 16 * isB
// (one contiguous block each), its dst lines at rdx + a * osA + 64 * k.
// Tiles 0 .. K-2 leave their rows in the stack (row a of tile k at
// buf_stage + (a (K-1) + k) 64); after the last tile each dst row a takes
// its K lines in order.
void reorder_gen_t::gen_blk_lines(int TA, int64_t osA) {
    const int K = d_.blk_lines;
    const int64_t isB = d_.is[1] * ssz_, tile = 16 * isB;
    auto staged = [&](int a, int k) { return ptr[rsp + buf_stage + (a * (K - 1) + k) * 64]; };
    for (int k = 0; k < K; ++k) {
        for (int b = 0; b < 16; ++b) // (TA = 8: rows of 8 lanes, k5)
            load_lanes(b, ptr[rcx + k * tile + b * isB], TA < 16 ? &k5 : nullptr, d_.sdt);
        transpose_tile();
        if (k + 1 < K)
            for (int a = 0; a < TA; ++a)
                vmovaps(staged(a, k), Zmm(a));
    }
    stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
        int t = 0; // (zmm 16 .. 31: free after the transpose)
        for (int a = 0; a < TA; ++a)
            for (int k = 0; k < K; ++k) {
                Zmm v(a);
                if (k + 1 < K) {
                    v = Zmm(16 + t++ % 16);
                    vmovaps(v, staged(a, k));
                }
                const Address to = ptr[rdx + a * osA + 64 * k];
                stream ? vmovntps(to, v) : vmovups(to, v);
            }
    });
}

// desc.ymm_blk_lines (jit_ymm_blk_lines): K = ymm_blk_lines 8x16 tiles
// (2K 8x8 transposes, h = 0 .. 2K-1) of 8 dst rows, the rows of
// transpose h at rcx + 8 h isB (K contiguous blocks), its dst half lines
// at rdx + a * osA + 32 h. Transposes 0 .. 2K-2 leave their rows in the
// stack (row a of transpose h at buf_stage + (a (2K-1) + h) 32); after
// the last one each dst row a takes its 2K halves in order. An A of 16
// (nChw16c) does this for both A tiles (the second one's src 32 bytes on,
// its dst rows 8 rows on).
void reorder_gen_t::gen_ymm_blk_lines(int64_t osA) {
    const int H = 2 * d_.ymm_blk_lines;
    const int64_t isB = d_.is[1] * ssz_;
    auto staged = [&](int a, int h) { return ptr[rsp + buf_stage + (a * (H - 1) + h) * 32]; };
    for (int at = 0; at < d_.n[0] / 8; ++at) {
        const int64_t src = at * 8 * ssz_, dst = at * 8 * osA;
        for (int h = 0; h < H; ++h) {
            for (int b = 0; b < 8; ++b)
                load_lanes(b, ptr[rcx + src + (8 * h + b) * isB], nullptr, d_.sdt);
            transpose_tile();
            if (h + 1 < H)
                for (int a = 0; a < 8; ++a)
                    vmovaps(staged(a, h), Ymm(a));
        }
        stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
            int t = 0; // (ymm 8 .. 15: free after the transpose)
            for (int a = 0; a < 8; ++a)
                for (int h = 0; h < H; ++h) {
                    Ymm v(a);
                    if (h + 1 < H) {
                        v = Ymm(8 + t++ % 8);
                        vmovaps(v, staged(a, h));
                    }
                    const Address to = ptr[rdx + dst + a * osA + 32 * h];
                    stream ? vmovntps(to, v) : vmovups(to, v);
                }
        });
    }
}

// The 16x16 tile transpose of transpose_tile_body (zmm r = src row r in,
// zmm map[a] = dst row a out) with its temporaries taken from `pool` (at
// least 4 registers) instead of zmm 16 .. 31: each step's outputs go to
// free registers and its inputs are freed after it. `pool` holds the
// free registers after.
std::array<int, 16> reorder_gen_t::transpose_tile_pool(std::deque<int> &pool) {
    auto take = [&]() {
        const int r = pool.front();
        pool.pop_front();
        return r;
    };
    std::array<int, 16> in, s, o, out;
    for (int i = 0; i < 16; ++i)
        in[i] = i;
    for (int i = 0; i < 8; ++i) {
        s[2 * i] = take();
        s[2 * i + 1] = take();
        vunpcklps(Zmm(s[2 * i]), Zmm(in[2 * i]), Zmm(in[2 * i + 1]));
        vunpckhps(Zmm(s[2 * i + 1]), Zmm(in[2 * i]), Zmm(in[2 * i + 1]));
        pool.push_back(in[2 * i]);
        pool.push_back(in[2 * i + 1]);
    }
    for (int k = 0; k < 4; ++k) {
        const int t = 4 * k;
        for (int j = 0; j < 4; ++j)
            o[t + j] = take();
        vshufps(Zmm(o[t + 0]), Zmm(s[t]), Zmm(s[t + 2]), 0x44);
        vshufps(Zmm(o[t + 1]), Zmm(s[t]), Zmm(s[t + 2]), 0xEE);
        vshufps(Zmm(o[t + 2]), Zmm(s[t + 1]), Zmm(s[t + 3]), 0x44);
        vshufps(Zmm(o[t + 3]), Zmm(s[t + 1]), Zmm(s[t + 3]), 0xEE);
        for (int j = 0; j < 4; ++j)
            pool.push_back(s[t + j]);
    }
    for (int c = 0; c < 4; ++c) {
        int x[4];
        for (int j = 0; j < 4; ++j)
            x[j] = take();
        vshuff32x4(Zmm(x[0]), Zmm(o[c]), Zmm(o[4 + c]), 0x88);
        vshuff32x4(Zmm(x[1]), Zmm(o[c]), Zmm(o[4 + c]), 0xDD);
        vshuff32x4(Zmm(x[2]), Zmm(o[8 + c]), Zmm(o[12 + c]), 0x88);
        vshuff32x4(Zmm(x[3]), Zmm(o[8 + c]), Zmm(o[12 + c]), 0xDD);
        for (int j = 0; j < 4; ++j)
            pool.push_back(o[4 * j + c]);
        for (int j = 0; j < 4; ++j)
            out[4 * j + c] = take();
        vshuff32x4(Zmm(out[c]), Zmm(x[0]), Zmm(x[2]), 0x88);
        vshuff32x4(Zmm(out[8 + c]), Zmm(x[0]), Zmm(x[2]), 0xDD);
        vshuff32x4(Zmm(out[4 + c]), Zmm(x[1]), Zmm(x[3]), 0x88);
        vshuff32x4(Zmm(out[12 + c]), Zmm(x[1]), Zmm(x[3]), 0xDD);
        for (int j = 0; j < 4; ++j)
            pool.push_back(x[j]);
    }
    return out;
}

// The f32 line pairs (described above) with every streamed line
// assembled in registers. Rows
// a and 16 - a of an A tile start m and 16 - m lanes into a line (m = a *
// os[0] mod 16; 0 and 0, or 8 and 8), so the lanes of the first tile that
// their middle lines need (row a's last m, row 16 - a's last 16 - m) fill
// one register together: p = row 16 - a rotated down by m, its top m
// lanes row a's (k7). The 7 such registers (and row 8's, m = 8) stay in
// zmm 24 .. 31 through the second tile, transposed with zmm 16 .. 23 as
// temporaries (transpose_tile_pool); the carried rows go to the scratch
// packed the same way (32 bytes per A position: lines + 32 * rax, slot
// a - 1 of the pair, 7 for row 8) and are read back by the next pair's
// heads, the rotated row serving both its head (middle) line and the
// packed register. Rows of m = 0 are whole lines. Per pair of rows two
// valignd, as before, and four masked moves; no stack rows, half the
// scratch. Calls not aligned store cached (f32_pair_cached).
void reorder_gen_t::gen_f32_line_pair_regs(
        int64_t osA, const std::function<int64_t(int)> &row_disp) {
    auto top_lanes = [&](int m) { // k7: lanes 16 - m .. 15
        mov(r14d, (0xffffu << (16 - m)) & 0xffffu);
        kmovw(k7, r14d);
    };
    // The groups: row a (1 .. 7) and its partner 16 - a, or row 8 alone
    // (partner -1); slot a - 1 of the packed registers and the scratch.
    struct group_t {
        int a, b, m, slot;
    };
    std::vector<group_t> groups;
    for (int a = 1; a <= 8; ++a) {
        const int m = f32_pair_lanes(a);
        if (m != 0) groups.push_back({ a, a == 8 ? -1 : 16 - a, m, a - 1 });
    }
    auto whole = [&](int a) { return f32_pair_lanes(a) == 0; };
    auto packed = [&](const group_t &g) { return Zmm(24 + g.slot); };
    // The first tile's lanes of the middle lines (k7 set when `masked`).
    auto pack = [&](const group_t &g, bool rotated) {
        if (g.b < 0) return vmovaps(packed(g), Zmm(g.a));
        if (!rotated) {
            valignd(packed(g), Zmm(g.b), Zmm(g.b), g.m);
            top_lanes(g.m);
        }
        vmovdqa32(packed(g) | k7, Zmm(g.a));
    };
    stores_streamed_or_cached(true, [&](bool stream, const Label &done) {
        if (!stream) return f32_pair_cached(osA, row_disp);
        f32_pair_tile(0, row_disp);
        mov(r13, rax);
        shl(r13, 5);
        add(r13, qword[rsp + s_lines]);
        const Zmm c(16), t(17);
        Label lwhole, lpartial, lheads;
        f32_pair_heads_branch(lwhole, lpartial);
        L(lwhole);
        for (const group_t &g : groups) {
            vmovups(c, ptr[r13 + 64 * g.slot]);
            valignd(t, Zmm(g.a), c, 16 - g.m); // row a: its carried m lanes first
            vmovntps(ptr[rdx + g.a * osA - 4 * g.m], t);
            if (g.b < 0) {
                pack(g, false);
                continue;
            }
            valignd(packed(g), Zmm(g.b), Zmm(g.b), g.m);
            top_lanes(g.m);
            vmovdqa32(c | k7, packed(g)); // row 16 - a: after its carried 16 - m lanes
            vmovntps(ptr[rdx + g.b * osA - 4 * (16 - g.m)], c);
            pack(g, true);
        }
        jmp(lheads, T_NEAR);
        L(lpartial);
        f32_pair_partial_heads(osA, t);
        for (const group_t &g : groups)
            pack(g, false);
        L(lheads);
        for (int a = 0; a < 16; ++a)
            if (whole(a)) vmovntps(ptr[rdx + a * osA], Zmm(a));
        f32_pair_tile(1, row_disp, false);
        std::deque<int> pool;
        for (int r = 16; r < 24; ++r)
            pool.push_back(r);
        const std::array<int, 16> z = transpose_tile_pool(pool);
        const Zmm u(pool[0]), v(pool[1]);
        // Middle lines, and the carried rows to the scratch.
        for (const group_t &g : groups) {
            valignd(u, Zmm(z[g.a]), packed(g), 16 - g.m);
            vmovntps(ptr[rdx + g.a * osA + 4 * (16 - g.m)], u);
            if (g.b < 0) {
                vmovups(ptr[r13 + 64 * g.slot], Zmm(z[g.a]));
                continue;
            }
            valignd(v, Zmm(z[g.b]), Zmm(z[g.b]), g.m);
            top_lanes(g.m);
            vmovdqa32(packed(g) | k7, v);
            vmovntps(ptr[rdx + g.b * osA + 4 * g.m], packed(g));
            vmovdqa32(v | k7, Zmm(z[g.a]));
            vmovups(ptr[r13 + 64 * g.slot], v);
        }
        for (int a = 0; a < 16; ++a)
            if (whole(a)) vmovntps(ptr[rdx + a * osA + 64], Zmm(z[a]));
        f32_pair_tails(
                osA, done, [&](int a) { return Zmm(z[a]); }, u);
    });
}

// AVX2 f32 line pairs (d_.f32_lines on the ymm tiles, see
// jit_ymm_f32_line_pairs): an 8x16 tile pair (the call's 16 B lanes of
// the A tile: 64 bytes of each dst row), whose rows are not whole lines
// apart. Where the call is aligned (s_nt) and the A tile starts on a
// multiple of 8 (the AVX2 last A tile moved back does not), row a starts
// m = a * os[0] mod 16 lanes into a line (a counted from the call's
// first row: the A tile's parity of 8 rows picks one of two unrolled
// versions), and its head line is assembled whole from the row's
// previous 64 bytes (the previous call's: the scratch row at lines + 64 *
// (rax + a), as the AVX-512 pairs carry theirs; lines_io bit 0) and the
// row's first 16 - m lanes (vperm2f128 and
// vpalignr windows of the four ymm), and streamed; the row goes to the
// scratch, its last m lanes the next pair's head. Without a previous row
// the head is partial, and so is the tail unless the next call
// continues this one (lines_io bit 1): stored cached, exactly the line's
// part of the row (no vmaskmov, slow on AMD). rax a0, rcx src tile, rdx
// dst tile; r13, r14 and ymm 8-15 are clobbered.
void reorder_gen_t::gen_ymm_f32_line_pair(int64_t osA) {
    const int64_t isB = d_.is[1] * ssz_;
    ymm_tile_pair([&](int h, int b) { return ptr[rcx + (8 * h + b) * isB]; });
    Label lcached, ldone, lodd;
    cmp(qword[rsp + s_nt], 0);
    je(lcached, T_NEAR);
    test(al, 7);
    jnz(lcached, T_NEAR);
    mov(r13, rax);
    shl(r13, 6);
    add(r13, qword[rsp + s_lines]);
    test(al, 8);
    jnz(lodd, T_NEAR);
    ymm_line_rows(0, osA, ldone);
    jmp(ldone, T_NEAR);
    L(lodd);
    ymm_line_rows(1, osA, ldone);
    jmp(ldone, T_NEAR);
    L(lcached);
    ymm_pair_lines(false, rdx, [&](int a) { return a * osA; });
    L(ldone);
}

// The rows of gen_ymm_f32_line_pair for an A tile of parity p (rax mod 16
// = 8 p), streamed; r13: the tile's scratch rows.
void reorder_gen_t::ymm_line_rows(int p, int64_t osA, const Label &done) {
    auto lanes_of = [&](int a) { return (int)((((8 * p + a) * d_.os[0]) % 16 + 16) % 16); };
    auto row = [&](int a) { return ptr[rsp + buf_stage + 32 * a]; }; // lanes 0-7; 8-15: Ymm(a)
    auto scratch = [&](int a) { return r13 + 64 * a; };
    const Ymm p0(8), p1(9), c0(10), mid(11), o0(12), o1(13);
    auto whole_row = [&](int a) {
        vmovups(c0, row(a));
        vmovntps(ptr[rdx + a * osA], c0);
        vmovntps(ptr[rdx + a * osA + 32], Ymm(a));
    };
    // Lanes o .. o + 7 of y[0] y[1] y[2] y[3] into w.
    auto window = [&](const Ymm &w, const Ymm *y, int o) {
        const int q = o / 8, r = o % 8;
        if (r == 0) {
            vmovaps(w, y[q]);
            return;
        }
        vperm2f128(mid, y[q], y[q + 1], 0x21); // y[q] lanes 4-7, y[q + 1] lanes 0-3
        if (r < 4)
            vpalignr(w, mid, y[q], 4 * r);
        else if (r == 4)
            vmovaps(w, mid);
        else
            vpalignr(w, y[q + 1], mid, 4 * (r - 4));
    };
    Label lpartial, lheads;
    test(byte[rsp + s_lines_io], 1);
    jz(lpartial, T_NEAR);
    for (int a = 0; a < 8; ++a) {
        const int m = lanes_of(a);
        if (m == 0) {
            whole_row(a);
            continue;
        }
        const int s = 16 - m; // the head line: lanes s .. s + 15 of P0 P1 C0 C1
        if (m > 8) vmovups(p0, ptr[scratch(a)]);
        vmovups(p1, ptr[scratch(a) + 32]);
        vmovups(c0, row(a));
        const Ymm y[4] = { p0, p1, c0, Ymm(a) };
        window(o0, y, s);
        window(o1, y, s + 8);
        vmovntps(ptr[rdx + a * osA - 4 * m], o0);
        vmovntps(ptr[rdx + a * osA - 4 * m + 32], o1);
        vmovups(ptr[scratch(a)], c0);
        vmovups(ptr[scratch(a) + 32], Ymm(a));
    }
    jmp(lheads, T_NEAR);
    L(lpartial);
    for (int a = 0; a < 8; ++a) {
        const int m = lanes_of(a);
        if (m == 0) {
            whole_row(a);
            continue;
        }
        vmovups(c0, row(a));
        vmovups(ptr[scratch(a)], c0);
        vmovups(ptr[scratch(a) + 32], Ymm(a));
        ymm_copy_lanes(rdx + a * osA, scratch(a), 16 - m); // the head line's part
    }
    L(lheads);
    // Tail lines, partial, unless the next call continues this one
    // (lines_io bit 1).
    test(byte[rsp + s_lines_io], 2);
    jnz(done, T_NEAR);
    for (int a = 0; a < 8; ++a) {
        const int m = lanes_of(a);
        if (m != 0) ymm_copy_lanes(rdx + a * osA + 4 * (16 - m), scratch(a) + 4 * (16 - m), m);
    }
}

// Copies `lanes` 4-byte lanes from `from` to `to` (cached; pieces of 8,
// 4, 2 and 1 lanes, each exactly within the range). ymm 14, r14.
void reorder_gen_t::ymm_copy_lanes(const RegExp &to, const RegExp &from, int lanes) {
    int off = 0;
    for (int piece = 8; piece >= 1; piece /= 2)
        if (lanes - off >= piece) {
            const Address s = ptr[from + 4 * off], t = ptr[to + 4 * off];
            if (piece == 8) {
                vmovups(Ymm(14), s);
                vmovups(t, Ymm(14));
            } else if (piece == 4) {
                vmovups(Xmm(14), s);
                vmovups(t, Xmm(14));
            } else if (piece == 2) {
                mov(r14, s);
                mov(t, r14);
            } else {
                mov(r14d, s);
                mov(t, r14d);
            }
            off += piece;
        }
}

// Calls of 8x16 tiles without edges whose B src rows are near
// (d_.ymm_b16_pf): B tiles outer, so that each src row is read along its
// length, and every tile prefetches the same lines of the next B tile's
// rows into L2 (the hardware prefetchers do not fetch the call's block,
// rows of at most a page, ahead in time).
void reorder_gen_t::gen_ymm_b16_outer() {
    begin_b_tiles();
    const int BW = jit_ymm_b16_lanes(d_);
    const int64_t isB = d_.is[1] * ssz_, osA = d_.os[0] * dsz_;
    const int64_t ssA = d_.ss[0] * 4, dsA = d_.ds[0] * 4;
    Label lb, la;
    xor_(r15, r15);
    L(lb);
    xor_(rax, rax);
    L(la);
    imul(rcx, r15, (int)isB);
    add(rcx, r8);
    lea(rcx, ptr[rcx + rax * ssz_]);
    imul(rdx, rax, (int)osA);
    add(rdx, r9);
    lea(rdx, ptr[rdx + r15 * dsz_]);
    if (d_.src_scale) {
        imul(rsi, r15, (int)(d_.ss[1] * 4));
        imul(r14, rax, (int)ssA);
        add(rsi, r14);
        add(rsi, r10);
    }
    if (d_.dst_scale) {
        imul(rdi, r15, (int)(d_.ds[1] * 4));
        imul(r14, rax, (int)dsA);
        add(rdi, r14);
        add(rdi, r11);
    }
    const int tiles = d_.ymm_b16_pair ? 2 : 1; // B tiles per A tile (bit copies)
    for (int b = 0; b < BW * tiles; ++b)
        prefetcht1(ptr[rcx + b * isB + d_.ymm_b16_pf]);
    for (int t = 0; t < tiles; ++t) {
        if (t) {
            add(rcx, (int)(BW * isB));
            add(rdx, BW * (int)dsz_);
        }
        gen_ymm_b16_tile(osA, ssA, dsA);
    }
    add(rax, 8);
    cmp(rax, (int)d_.n[0]);
    jl(la, T_NEAR);
    add(r15, BW * tiles);
    cmp(r15, (int)d_.n[1]);
    jl(lb, T_NEAR);
}

// Flattened short-A tiles (d_.flat_a, see jit_flat_a_tiles): each of the
// call's B src rows is flat_a contiguous elements (A under the baked
// loop), read as flat_a / 16 full vectors; flattened position k is A
// position k % n[0] of loop iteration k / n[0], so its dst row is at a
// constant offset. Whole tiles, unmasked loads of whole lines, and every
// dst row one zmm store. AVX2: 8 positions x 16 B rows per step (an 8x16
// tile pair: B rows 0-7, then 8-15), each dst row still one whole line.
void reorder_gen_t::gen_transpose_flat() {
    tb_ = W_;
    const int64_t nA = d_.n[0], isB = d_.is[1] * ssz_;
    const int64_t osL = d_.loop_os[d_.nloops - 1]; // the folded (innermost) loop
    // (Words: half-line rows, cached.)
    const bool nt = d_.nt && dsz_ == 4 && d_.os[0] * dsz_ % 64 == 0 && osL * dsz_ % 64 == 0;
    auto dst_of = [&](int64_t k) { return ((k % nA) * d_.os[0] + (k / nA) * osL) * dsz_; };
    if (!z_) {
        for (int64_t j = 0; j < d_.flat_a / 8; ++j) {
            ymm_tile_pair([&](int h, int b) {
                const int64_t row = (8 * h + b) * isB + j * 32;
                if (d_.flat_pf && j % 2 == 0) prefetcht1(ptr[r8 + row + d_.flat_pf]);
                return ptr[r8 + row];
            });
            ymm_pair_lines(nt, r9, [&](int a) { return dst_of(8 * j + a); });
        }
        return;
    }
    if (d_.quad_ld) quad_tile_masks();
    // (Words: 16-bit lanes zero-extended into the 32-bit tile, each src
    // line two tiles' rows, each dst row half a line.)
    const int64_t step = 16 * ssz_;
    // (B of two tiles: both halves of each 16 positions, so that a dst
    // row's two lines are stored back to back.)
    for (int64_t j = 0; j < d_.flat_a / 16; ++j)
        for (int64_t h = 0; h < d_.n[1] / 16; ++h) {
            for (int b = 0; b < 16; ++b) {
                const int64_t row = (16 * h + b) * isB + j * step;
                if (d_.flat_pf && j * step % 64 == 0) prefetcht1(ptr[r8 + row + d_.flat_pf]);
                if (d_.quad_ld)
                    quad_tile_row(b, r8 + row);
                else if (ssz_ == 4)
                    vmovups(Zmm(b), ptr[r8 + row]);
                else
                    load_lanes(b, ptr[r8 + row], nullptr, d_.sdt);
            }
            d_.quad_ld ? quad_tile_transpose() : transpose_tile();
            stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
                for (int a = 0; a < 16; ++a) {
                    const Address dst = ptr[r9 + dst_of(16 * j + a) + 16 * h * d_.os[1] * dsz_];
                    if (value_path())
                        compute(a, lane_src_t{ dst, dst, dst, nullptr }); // (no scales)
                    if (dsz_ == 4)
                        stream ? vmovntps(dst, Zmm(a)) : vmovups(dst, Zmm(a));
                    else
                        store_lanes(a, dst, nullptr);
                }
            });
        }
}

// Run tiles (d_.run_deal, see jit_run_deal): a tile's 16 B src rows of
// 9 elements are one run of 144, loaded as 9 whole vectors (element f in
// lane f % 16 of vector f / 16); its dst row a takes element 9 b + a into
// lane b. Two stride-3 deals get there: each vector triple's 48 elements
// by index mod 3 (element 48 p + 3 i + c into lane i of S[p][c]), then
// the triple S[0..2][c], whose 48 elements are 3 g + c for g = 16 p + i,
// the same way (3 (3 i + a) + c = 9 i + 3 a + c into lane i: dst row
// 3 a + c). 36 permutes per tile; each dst row one whole line. In pairs
// (d_.run_pairs, see jit_run_pairs) two tiles whose dst rows are
// adjacent lines are dealt together (the second in zmm 18-26) and each
// dst row takes its two lines back to back: the next 16 B of a call's
// B (ohwi), or the next o of the innermost baked loop (OIhw16o16i),
// which the tile loop then replaces (run_deal_fold).
void reorder_gen_t::gen_run_deal() {
    const int64_t osA = d_.os[0] * dsz_;
    const bool fold = run_deal_fold(d_);
    const int inner = d_.nloops - 1;
    // The call's tiles, the src step from one to the next (the dst's: a line).
    const int64_t tiles = fold ? d_.loop_n[inner] : d_.n[1] / 16;
    const int64_t step = (fold ? d_.loop_is[inner] : 16 * d_.is[1]) * ssz_;
    const int64_t per = d_.run_pairs ? 2 : 1, steps = tiles / per;
    const bool nt = d_.nt && osA % 64 == 0;
    stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
        // k tiles from rcx on (tile j's rows in zmm 18 j + a), stored row by row.
        auto deal_tiles = [&](int k) {
            for (int j = 0; j < k; ++j) {
                const int v = 18 * j;
                for (int r = 0; r < 9; ++r)
                    vmovups(Zmm(v + r), ptr[rcx + j * step + r * 64]);
                for (int p = 0; p < 3; ++p) { // S[p][c] in zmm 9 + 3 p + c
                    const int in[3] = { v + 3 * p, v + 3 * p + 1, v + 3 * p + 2 };
                    const int out[3] = { 9 + 3 * p, 10 + 3 * p, 11 + 3 * p };
                    deal3(in, out);
                }
                for (int c = 0; c < 3; ++c) { // dst row 3 a + c in zmm v + 3 a + c
                    const int in[3] = { 9 + c, 12 + c, 15 + c };
                    const int out[3] = { v + c, v + 3 + c, v + 6 + c };
                    deal3(in, out);
                }
            }
            for (int a = 0; a < 9; ++a)
                for (int j = 0; j < k; ++j) {
                    const Address to = ptr[rdx + a * osA + 64 * j];
                    stream ? vmovntps(to, Zmm(18 * j + a)) : vmovups(to, Zmm(18 * j + a));
                }
        };
        Label lt;
        mov(rcx, r8);
        mov(rdx, r9);
        if (steps > 1) {
            mov(r14, steps);
            L(lt);
        }
        deal_tiles((int)per);
        if (steps > 1 || tiles % per != 0) {
            add(rcx, (int)(per * step));
            add(rdx, (int)(per * 64));
        }
        if (steps > 1) {
            dec(r14);
            jnz(lt, T_NEAR);
        }
        if (tiles % per != 0) deal_tiles(1);
    });
}

// Chunk lines (d_.o8_chunks = A, see jit_o8_chunks): a block's 8 o rows
// (in_is apart) are runs of 8 A columns, column c = i A + hw. Chunk k
// (columns 8 k .. 8 k + 7) of rows r and r + 4 goes into the two halves
// of P[r] (a ymm load, a 256-bit insert); the 4 x 4 transposes within
// the 128-bit lanes of P[0..3] leave column 8 k + j in Q[k][j % 4],
// lanes h and h + 2 (h = j / 4: o 0-3 and 4-7). Dst line (hw, t) holds
// columns 2 t A + hw and the one A on: one 128-bit lane shuffle of their
// two Q. Each line is stored once the chunk of its second column is in;
// the Q of the chunks still needed (W) rotate through zmm 0 .. 4 W - 1.
// The lines come out t-major (4 passes over the block's dst, a line in
// 4); streamed in order (d_.o8_in_order, see jit_o8_in_order) they go
// to the stage, then out to the dst in address order.
void reorder_gen_t::gen_o8_chunks() {
    const int A = d_.o8_chunks, W = (A + 7) / 8 + 1;
    const int64_t rs = d_.in_is * ssz_, osA = d_.os[0] * dsz_;
    const bool nt = d_.nt && osA % 64 == 0;
    auto q = [&](int c) { return Zmm(4 * (c / 8 % W) + c % 4); };
    const int P = 4 * W, T = P + 4, L = T + 4; // temporaries
    auto dst_line = [&](int a, int t) { return ptr[r9 + a * osA + t * 64]; };
    auto stage_line = [&](int a, int t) { return ptr[rsp + buf_stage + (4 * a + t) * 64]; };
    stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
        const bool staged = stream && d_.o8_in_order;
        int line = 0;
        for (int k = 0; k < A; ++k) {
            for (int r = 0; r < 4; ++r) {
                vmovups(Ymm(P + r), ptr[r8 + r * rs + 32 * k]);
                vinsertf64x4(Zmm(P + r), Zmm(P + r), ptr[r8 + (r + 4) * rs + 32 * k], 1);
            }
            vunpcklps(Zmm(T), Zmm(P), Zmm(P + 1));
            vunpckhps(Zmm(T + 1), Zmm(P), Zmm(P + 1));
            vunpcklps(Zmm(T + 2), Zmm(P + 2), Zmm(P + 3));
            vunpckhps(Zmm(T + 3), Zmm(P + 2), Zmm(P + 3));
            vunpcklpd(q(8 * k), Zmm(T), Zmm(T + 2));
            vunpckhpd(q(8 * k + 1), Zmm(T), Zmm(T + 2));
            vunpcklpd(q(8 * k + 2), Zmm(T + 1), Zmm(T + 3));
            vunpckhpd(q(8 * k + 3), Zmm(T + 1), Zmm(T + 3));
            for (int c = 8 * k; c < 8 * k + 8; ++c) {
                if (c / A % 2 == 0) continue; // (a line's first column)
                const int a = c % A, t = c / A / 2, h0 = (c - A) % 8 / 4, h1 = c % 8 / 4;
                const Zmm v(L + line++ % 4);
                vshuff32x4(v, q(c - A), q(c), h0 | (h0 + 2) << 2 | h1 << 4 | (h1 + 2) << 6);
                if (staged)
                    vmovaps(stage_line(a, t), v);
                else
                    stream ? vmovntps(dst_line(a, t), v) : vmovups(dst_line(a, t), v);
            }
        }
        if (!staged) return;
        for (int a = 0; a < A; ++a)
            for (int t = 0; t < 4; ++t) {
                const Zmm v(L + (4 * a + t) % 4);
                vmovaps(v, stage_line(a, t));
                vmovntps(dst_line(a, t), v);
            }
    });
}

// Row windows (d_.o8i_rows = A, see jit_o8i_rows): o row r of a block is
// 8 groups of A (group i: i's A hw, column c = i A + hw), rows in_is...
// is[1] apart. Window s (columns s .. s + 7 of every group) of a row is
// 4 zmm, P[j] = group j's 8 columns (a ymm load) under group j + 4's (a
// 256-bit insert); the 4 x 4 transposes within their 128-bit lanes leave
// column s + c in U[c % 4], lanes c / 4 (groups 0-3) and c / 4 + 2
// (groups 4-7): that hw's 8 i of the row. Dst line (hw, t) is hw's i of
// rows 2 t and 2 t + 1: one 128-bit lane shuffle of the two rows' U. A
// window yields the lines of its 8 hw for every t (from column `from`
// on: the last window of an A that is not whole windows starts at A - 8
// and keeps its new columns only); streamed, they go to the stage and
// out in address order (2 KiB at a time), as the chunk lines' do.
void reorder_gen_t::o8i_window(int s, int from) {
    const int64_t rs = d_.is[1] * ssz_, gs = d_.in_is * ssz_, osA = d_.os[0] * dsz_;
    const bool nt = d_.nt && osA % 64 == 0;
    auto U = [&](int row, int c) { return Zmm(4 * (row % 2) + c); }; // (P, then U)
    const int T = 8, L = 16;                                         // temporaries, line registers
    auto dst_line = [&](int hw, int t) { return ptr[r9 + hw * osA + t * 64]; };
    auto stage_line = [&](int hw, int t) { return ptr[rsp + buf_stage + (4 * (hw - s) + t) * 64]; };
    auto need = [&](int c) {
        return s + c >= from || s + c + 4 >= from;
    }; // U[c] holds a new column
    stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
        const bool staged = stream && d_.o8i_staged;
        int line = 0;
        for (int t = 0; t < 4; ++t) {
            for (int row = 2 * t; row < 2 * t + 2; ++row) {
                const int64_t at = row * rs + s * ssz_;
                for (int j = 0; j < 4; ++j) {
                    vmovups(Ymm(U(row, j).getIdx()), ptr[r8 + at + j * gs]);
                    vinsertf64x4(U(row, j), U(row, j), ptr[r8 + at + (j + 4) * gs], 1);
                }
                const int P = 4 * (row % 2);
                if (need(0) || need(1)) {
                    vunpcklps(Zmm(T), Zmm(P), Zmm(P + 1));
                    vunpcklps(Zmm(T + 2), Zmm(P + 2), Zmm(P + 3));
                }
                if (need(2) || need(3)) {
                    vunpckhps(Zmm(T + 1), Zmm(P), Zmm(P + 1));
                    vunpckhps(Zmm(T + 3), Zmm(P + 2), Zmm(P + 3));
                }
                if (need(0)) vunpcklpd(U(row, 0), Zmm(T), Zmm(T + 2));
                if (need(1)) vunpckhpd(U(row, 1), Zmm(T), Zmm(T + 2));
                if (need(2)) vunpcklpd(U(row, 2), Zmm(T + 1), Zmm(T + 3));
                if (need(3)) vunpckhpd(U(row, 3), Zmm(T + 1), Zmm(T + 3));
            }
            for (int c = 0; c < 8; ++c) {
                const int hw = s + c, h = c / 4;
                if (hw < from) continue;
                const Zmm v(L + line++ % 8);
                vshuff32x4(v, U(0, c % 4), U(1, c % 4), h | (h + 2) << 2 | h << 4 | (h + 2) << 6);
                if (staged)
                    vmovaps(stage_line(hw, t), v);
                else
                    stream ? vmovntps(dst_line(hw, t), v) : vmovups(dst_line(hw, t), v);
            }
        }
        if (!staged) return;
        for (int hw = std::max(s, from); hw < s + 8; ++hw)
            for (int t = 0; t < 4; ++t) {
                const Zmm v(L + (4 * hw + t) % 8);
                vmovaps(v, stage_line(hw, t));
                vmovntps(dst_line(hw, t), v);
            }
    });
}

void reorder_gen_t::gen_o8i_rows() {
    const int A = d_.o8i_rows;
    for (int s = 0; s + 8 <= A; s += 8)
        o8i_window(s, s);
    if (A % 8) o8i_window(A - 8, A - A % 8);
}

// deal3's constants: the lane masks of the third vector's elements (3 i +
// c >= 32) and the indices.
void reorder_gen_t::run_deal_init() {
    mov(r14d, 0xf800);
    kmovw(k1, r14d);
    mov(r14d, 0xfc00);
    kmovw(k2, r14d);
    for (int c = 0; c < 3; ++c)
        vmovups(Zmm(29 + c), ptr[rip + c_deal3_ + 64 * c]);
}

// out[c] lane i = element 3 i + c of in[0..2] (48 elements): a two-table
// permute of in[0], in[1] (the index's low 5 bits), then the lanes past
// element 31 from in[2] (its low 4 bits; masks k1: lanes 11-15, k2:
// 10-15). Indices in zmm 29-31.
void reorder_gen_t::deal3(const int in[3], const int out[3]) {
    for (int c = 0; c < 3; ++c) {
        const Zmm o(out[c]), idx(29 + c);
        vmovaps(o, idx);
        vpermi2ps(o, Zmm(in[0]), Zmm(in[1]));
        vpermps(o | (c == 2 ? k2 : k1), idx, Zmm(in[2]));
    }
}

// Flattened word pairs (d_.flat_pairs, see jit_flat_pairs and
// flat_pairs_t): for every 16 of the call's dst lines, each of the 16 src
// rows (o) is loaded as the 32 or 64 words of the tile's window, and one
// word permute (c_fpairs_) makes dword r the two words of line 16 t + r;
// the dword transpose then leaves line r's 16 o in zmm r (16i16o: split
// into the two i's half lines, c_fsplit_), stored whole, streamed when
// large. Large problems prefetch each src line two calls ahead into L2
// (flat_pf), a tile's share of each row's lines.
void reorder_gen_t::gen_flat_pairs() {
    const flat_pairs_t fp(d_);
    const int64_t isB = d_.is[1] * ssz_, nlines = (fp.row() * ssz_ + 63) / 64;
    const Zmm idx(31), split(16), hi(20), scratch(30);
    for (int64_t t = 0; t < fp.tiles(); ++t) {
        const int64_t win = fp.window(t) * ssz_;
        const bool one = fp.width(t) == 32;
        vmovdqu16(idx, ptr[rip + c_fpairs_ + (int)(64 * t)]);
        for (int b = 0; b < 16; ++b) {
            const int64_t row = b * isB;
            if (d_.flat_pf)
                for (int64_t l = t * nlines / fp.tiles(); l < (t + 1) * nlines / fp.tiles(); ++l)
                    prefetcht1(ptr[r8 + row + l * 64 + d_.flat_pf]);
            if (ssz_ == 4) {
                // f32: the window's 32 or 64 values rounded into words.
                for (int v = 0; v < (one ? 2 : 4); ++v)
                    vmovups(Zmm(16 + v), ptr[r8 + row + win + v * 64]);
                bf16_convert2(Zmm(b), Zmm(17), Zmm(16), scratch);
                if (!one) bf16_convert2(hi, Zmm(19), Zmm(18), scratch);
                one ? vpermw(Zmm(b), idx, Zmm(b)) : vpermt2w(Zmm(b), idx, hi);
            } else if (one) {
                vpermw(Zmm(b), idx, ptr[r8 + row + win]);
            } else {
                vmovdqu16(Zmm(b), ptr[r8 + row + win]);
                vpermt2w(Zmm(b), idx, ptr[r8 + row + win + 64]);
            }
        }
        transpose_tile();
        const int nr = (int)std::min<int64_t>(16, fp.lines() - 16 * t);
        if (fp.split) {
            vmovdqu16(split, cst(c_fsplit_));
            for (int r = 0; r < nr; ++r)
                vpermw(Zmm(r), split, Zmm(r));
        }
        stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
            for (int r = 0; r < nr; ++r) {
                const Address to = ptr[r9 + fp.dst(16 * t + r) * 2];
                stream ? vmovntdq(to, Zmm(r)) : vmovdqu16(to, Zmm(r));
            }
        });
    }
}

// Flattened short-B tiles (d_.flat_b, see jit_flat_b_tiles): each of the
// call's 16 dst rows (A positions) is flat_b contiguous elements (B under
// the baked loop); flattened position k is B position k % n[1] of loop
// iteration k / n[1], so its src row (16 A positions, one line) is at a
// constant offset. Whole tiles, unmasked loads of whole lines, and every
// dst row one zmm store of a whole line. The call's src is one dense
// block: with pf_ahead each tile prefetches its share of the next one in
// address order (16 lines per tile). AVX2: each 16 positions as two 8x16
// tile pairs (the A halves: 32 bytes of each src line, the second from
// L1), each dst row still one whole line.
void reorder_gen_t::gen_transpose_flat_b() {
    tb_ = W_;
    const bool nt = d_.nt && d_.os[0] * dsz_ % 64 == 0;
    if (!z_ && d_.flat_b > 16 * flat_unrolled_tiles) {
        gen_ymm_flat_b_loop(nt);
        return;
    }
    if (!z_) {
        for (int64_t j = 0; j < d_.flat_b / 16; ++j)
            for (int o = 0; o < 2; ++o) {
                ymm_tile_pair([&](int h, int b) {
                    const int64_t k = 16 * j + 8 * h + b;
                    if (d_.pf_ahead && o == 0) prefetcht2(ptr[r8 + d_.pf_ahead + k * 64]);
                    return ptr[r8 + flat_b_src(k) + 32 * o];
                });
                ymm_pair_lines(
                        nt, r9, [&](int a) { return (8 * o + a) * d_.os[0] * dsz_ + j * 64; });
            }
        return;
    }
    if (d_.quad_ld) quad_tile_masks();
    if (d_.flat_b > 16 * flat_unrolled_tiles) {
        gen_flat_b_loop(nt);
        return;
    }
    for (int64_t j = 0; j < d_.flat_b / 16; ++j) {
        for (int b = 0; b < 16; ++b) {
            const int64_t k = 16 * j + b;
            if (d_.pf_ahead) prefetcht2(ptr[r8 + d_.pf_ahead + k * 64]);
            if (d_.quad_ld)
                quad_tile_row(b, r8 + flat_b_src(k));
            else
                vmovups(Zmm(b), ptr[r8 + flat_b_src(k)]);
        }
        d_.quad_ld ? quad_tile_transpose() : transpose_tile();
        stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
            for (int a = 0; a < 16; ++a) {
                const Address dst = ptr[r9 + a * d_.os[0] * dsz_ + j * 64];
                stream ? vmovntps(dst, Zmm(a)) : vmovups(dst, Zmm(a));
            }
        });
    }
}

// Flattened short-B tiles of more than flat_unrolled_tiles tiles (5x5x5:
// 2000 positions, 7x7: 784), AVX-512: the same tiles in a run-time loop,
// each position's src offset from a table (c_flat_b_src_, 4 bytes per
// position), the dst one line on per tile. The next block is prefetched
// in address order as the unrolled tiles do (16 lines per tile).
void reorder_gen_t::gen_flat_b_loop(bool nt) {
    flat_b_tile_loop([&] {
        for (int b = 0; b < 16; ++b) {
            if (d_.pf_ahead) prefetcht2(ptr[r14 + b * 64]);
            movsxd(rax, dword[rbx + b * 4]);
            if (d_.quad_ld)
                quad_tile_row(b, r8 + rax);
            else
                vmovups(Zmm(b), ptr[r8 + rax]);
        }
        d_.quad_ld ? quad_tile_transpose() : transpose_tile();
        stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
            for (int a = 0; a < 16; ++a) {
                const Address dst = ptr[r13 + a * d_.os[0] * dsz_];
                stream ? vmovntps(dst, Zmm(a)) : vmovups(dst, Zmm(a));
            }
        });
    });
}

// The run-time loop of gen_flat_b_loop and gen_ymm_flat_b_loop around
// `tile` (16 flattened positions): rbx their entries of the table, r13
// their dst (one line on per tile), r14 their share of the next block.
void reorder_gen_t::flat_b_tile_loop(const std::function<void()> &tile) {
    Label lp;
    lea(rbx, ptr[rip + c_flat_b_src_]);
    mov(r13, r9);
    if (d_.pf_ahead) lea(r14, ptr[r8 + (int)d_.pf_ahead]);
    mov(r12d, (uint32_t)(d_.flat_b / 16));
    L(lp);
    tile();
    add(rbx, 64);
    add(r13, 64);
    if (d_.pf_ahead) add(r14, 1024);
    dec(r12d);
    jnz(lp, T_NEAR);
}

// The same loop on AVX2 (7x7, 5x5x5; jit_flat_b_tiles): each 16
// positions as the unrolled AVX2 tiles take them, two 8x16 tile pairs (the
// A halves: 32 bytes of each src line, the second from L1), each dst row
// a whole line of two back-to-back stores; the table read again for the
// second half.
void reorder_gen_t::gen_ymm_flat_b_loop(bool nt) {
    flat_b_tile_loop([&] {
        for (int o = 0; o < 2; ++o) {
            ymm_tile_pair([&](int h, int b) {
                const int k = 8 * h + b;
                if (d_.pf_ahead && o == 0) prefetcht2(ptr[r14 + k * 64]);
                movsxd(rax, dword[rbx + k * 4]);
                return ptr[r8 + rax + 32 * o];
            });
            ymm_pair_lines(nt, r13, [&](int a) { return (8 * o + a) * d_.os[0] * dsz_; });
        }
    });
}

// AVX2 flattened steps (d_.ymm_flat_step, see jit_ymm_flat_steps): the
// two innermost baked loops (M outer, L inner) continue B in the dst, so
// each of the 8 dst rows of a call is one run; a run-time loop takes G =
// ymm_flat_step / (n[1] loop_n[L]) iterations of M per step, its
// positions k = 0 .. ymm_flat_step - 1 as 8x16 tile pairs (B position k
// % n[1], iteration (k / n[1]) % loop_n[L] of L and k / (n[1] loop_n[L])
// of M: the src row at a constant offset), each dst row one whole line
// per pair, streamed when large. r13 src, r14 dst of the step, r12d the
// steps left.
void reorder_gen_t::gen_ymm_flat_steps() {
    tb_ = W_;
    const int li = d_.nloops - 1, mi = li - 1; // (loops L, M)
    const int64_t F = d_.ymm_flat_step, nb = d_.n[1], nl = d_.loop_n[li];
    const int64_t G = F / (nb * nl);
    auto src = [&](int64_t k) {
        return ((k % nb) * d_.is[1] + (k / nb % nl) * d_.loop_is[li]
                       + k / (nb * nl) * d_.loop_is[mi])
               * ssz_;
    };
    const bool nt = d_.nt && d_.os[0] * dsz_ % 64 == 0;
    Label lp;
    mov(r13, r8);
    mov(r14, r9);
    mov(r12d, (uint32_t)(d_.loop_n[mi] / G));
    L(lp);
    for (int64_t j = 0; j < F / 16; ++j) {
        ymm_tile_pair([&](int h, int b) { return ptr[r13 + src(16 * j + 8 * h + b)]; });
        ymm_pair_lines(nt, r14, [&](int a) { return a * d_.os[0] * dsz_ + j * 64; });
    }
    add_imm(r13, G * d_.loop_is[mi] * ssz_);
    add_imm(r14, G * d_.loop_os[mi] * dsz_);
    dec(r12d);
    jnz(lp, T_NEAR);
}

// The prefetch distance of the AVX2 packed rows' src lines (see
// jit_ymm_packed_rows).
constexpr int ymm_packed_pf = 128;

// AVX2 packed rows (d_.ymm_packed, see jit_ymm_packed_rows): per A tile
// (8 rows, src 32 bytes on per tile) the full 8x8 tile of B 0 .. 7 and the
// one of B n[1] - 8 .. n[1] - 1 store their rows to the stack at the rows'
// dst offsets (row a at a n[1] elements: the overlap stored twice, the
// same values), then the call's 16 n[1] elements go to the dst as whole
// lines (streamed when the call is aligned).
void reorder_gen_t::gen_ymm_packed_rows() {
    tb_ = W_;
    const int64_t n1 = d_.n[1], isB = d_.is[1] * ssz_;
    for (int b = 0; b < n1; ++b) // (the src lines of the call after next: 2 o on)
        prefetcht1(ptr[r8 + b * isB + ymm_packed_pf]);
    for (int at = 0; at < 2; ++at)
        for (int64_t b0 : { int64_t(0), n1 - 8 }) {
            for (int b = 0; b < 8; ++b)
                vmovups(Ymm(b), ptr[r8 + (b0 + b) * isB + at * 32]);
            transpose_tile();
            for (int a = 0; a < 8; ++a)
                vmovups(ptr[rsp + buf_stage + ((8 * at + a) * n1 + b0) * 4], Ymm(a));
        }
    stores_streamed_or_cached(d_.nt, [&](bool stream, const Label &) {
        for (int q = 0; q < 2 * n1; ++q) {
            const Ymm v(q % 8);
            vmovups(v, ptr[rsp + buf_stage + 32 * q]);
            stream ? vmovntps(ptr[r9 + 32 * q], v) : vmovups(ptr[r9 + 32 * q], v);
        }
    });
}

// Quad-placing loads (d_.quad_ld): zmm 4 aq + bl receives, in 128-bit
// lane bq, quad aq (elements 4 aq .. 4 aq + 3) of src row b = 4 bq + bl,
// by broadcasts of the quad into the lanes of opmask k(4 + bq) (lane 0:
// all lanes, the row of bq = 0 comes first). The 4 x 4 blocks are then in
// place, and a 4 x 4 transpose within each lane of each group aq leaves
// dst row a = 4 aq + al in zmm a, as transpose_tile does; the loads take
// the lane-crossing half of its shuffles (see jit_quad_loads). Masks in
// k5 .. k7 (the flattened tiles use no others).
void reorder_gen_t::quad_tile_masks() {
    for (int q = 1; q < 4; ++q) {
        mov(r14d, 0xF << (4 * q));
        kmovw(Opmask(4 + q), r14d);
    }
}

void reorder_gen_t::quad_tile_row(int b, const RegExp &row) {
    const int bq = b / 4, bl = b % 4;
    for (int aq = 0; aq < 4; ++aq) {
        const Zmm z(4 * aq + bl);
        if (bq == 0)
            vbroadcastf32x4(z, ptr[row + 16 * aq]);
        else
            vbroadcastf32x4(z | Opmask(4 + bq), ptr[row + 16 * aq]);
    }
}

void reorder_gen_t::quad_tile_transpose() {
    for (int aq = 0; aq < 4; ++aq) {
        const int r = 4 * aq;
        vunpcklps(Zmm(16), Zmm(r), Zmm(r + 1));
        vunpckhps(Zmm(17), Zmm(r), Zmm(r + 1));
        vunpcklps(Zmm(18), Zmm(r + 2), Zmm(r + 3));
        vunpckhps(Zmm(19), Zmm(r + 2), Zmm(r + 3));
        vshufps(Zmm(r + 0), Zmm(16), Zmm(18), 0x44);
        vshufps(Zmm(r + 1), Zmm(16), Zmm(18), 0xEE);
        vshufps(Zmm(r + 2), Zmm(17), Zmm(19), 0x44);
        vshufps(Zmm(r + 3), Zmm(17), Zmm(19), 0xEE);
    }
}

// AVX2 tiles of 8 A rows x 16 B lanes for the flattened tiles: two 8x8
// transposes, row b of transpose h from `src(h, b)` (which may emit a
// prefetch first); the first one's rows wait on the stack, the second's
// stay in ymm 0-7 (as gen_ymm_b16_tile).
void reorder_gen_t::ymm_tile_pair(const std::function<Address(int, int)> &src) {
    for (int h = 0; h < 2; ++h) {
        for (int b = 0; b < 8; ++b)
            vmovups(Ymm(b), src(h, b));
        transpose_tile();
        if (h == 0)
            for (int a = 0; a < 8; ++a)
                vmovups(ptr[rsp + buf_stage + 32 * a], Ymm(a));
    }
}

// ... and its 8 dst rows (the 8x16 tiles' too: gen_ymm_b16_tile), row a
// one whole line at base + dst(a): two stores back to back (streamed: a
// write-combining buffer fills at once).
void reorder_gen_t::ymm_pair_lines(
        bool nt, const Reg64 &base, const std::function<int64_t(int)> &dst, bool new_rows_only) {
    stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
        const Ymm t(tb_);
        for (int a = 0; a < 8; ++a) {
            // (A shifted last A tile: rows below s_shift, stored by the
            // tile before, are skipped; s_shift < 8.)
            Label lskip;
            if (new_rows_only && shift_ && a < 7) {
                cmp(qword[rsp + s_shift], a);
                jg(lskip, T_NEAR);
            }
            const Address lo = ptr[base + dst(a)], hi = ptr[base + dst(a) + 32];
            vmovups(t, ptr[rsp + buf_stage + 32 * a]);
            stream ? vmovntps(lo, t) : vmovups(lo, t);
            stream ? vmovntps(hi, Ymm(a)) : vmovups(hi, Ymm(a));
            L(lskip);
        }
    });
}

// Stage bytes per B row of gen_flat_bytes: whole lines, with room for
// the last byte tile's reads past the row (columns past A, not stored).
int64_t flat_stage_row(int64_t flat) {
    return (flat + 15 + 63) / 64 * 64;
}

// Row o of the call (flat_bytes elements from r8 + o * is[1]) into the
// stage as bytes at rsp + buf_stage + o * stage_row: 16 elements per
// vector converted with the row's scales broadcast (one per B row:
// expanded or common), four vectors narrowed by saturating packs (so
// only the upper clamp, as in gen_row_bytes), their dwords put back in
// order. Large problems prefetch the row's lines two calls ahead.
void reorder_gen_t::flat_bytes_stage_row(int o, int64_t stage_row) {
    const int64_t F = d_.flat_bytes;
    const int64_t src = o * d_.is[1] * ssz_;
    const int stage = buf_stage + (int)(o * stage_row);
    if (d_.flat_pf)
        for (int64_t c = 0; c < F * ssz_; c += 64)
            prefetcht1(ptr[r8 + src + c + d_.flat_pf]);
    // Scales of lane 4 o (the row's group; ss[1]: lanes, 0 or 1).
    if (d_.src_scale) vbroadcastss(Zmm(28), ptr[r10 + (int)(o * d_.in_n * d_.ss[1] * 4)]);
    if (d_.dst_scale) vbroadcastss(Zmm(27), ptr[r11 + (int)(o * d_.in_n * d_.ds[1] * 4)]);
    const bool sgn = d_.ddt == relayout_s8;
    for (int64_t m0 = 0; m0 < F / 16; m0 += 4) {
        const int nv = (int)std::min<int64_t>(4, F / 16 - m0);
        for (int q = 0; q < nv; ++q) {
            load_lanes(q, ptr[r8 + src + (m0 + q) * 16 * ssz_], nullptr, d_.sdt);
            compute(q, lane_src_t{ ptr[r9], ptr[r10], ptr[r11], nullptr });
        }
        // Vectors past the row: any register (their bytes are not read).
        const Zmm v0(0), v1(nv > 1 ? 1 : 0), v2(nv > 2 ? 2 : 0), v3(nv > 3 ? 3 : 0);
        vpackssdw(v0, v0, v1);
        vpackssdw(Zmm(4), v2, v3);
        sgn ? vpacksswb(v0, v0, Zmm(4)) : vpackuswb(v0, v0, Zmm(4));
        vpermd(v0, Zmm(26), v0);
        vmovdqu8(ptr[rsp + stage + (int)(m0 * 16)], v0);
    }
}

// Flattened interleave to bytes (d_.flat_bytes, see jit_flat_bytes): the
// call's 16 B src rows (flattened position k = (4 q + j) * n[0] + a of
// i quad q, lane j, A position a) are converted to the stage as bytes
// (whole vectors: 9 per row of 3x3 instead of 64 rows of 9 lanes); each byte
// tile then gathers, for i quad q and 16 A positions from a0, lane
// (4 g + r / 4, r % 4) into 128-bit lane g of zmm r (16 stage bytes from
// position (4 q + r % 4) * n[0] + a0), and its in-lane transpose leaves
// the whole 64-byte dst row of A position a0 + c in zmm c. Calls whose
// every position holds a value only (see generate).
void reorder_gen_t::gen_flat_bytes() {
    tb_ = 20; // compute's temporaries: zmm 20, 21
    const int64_t F = d_.flat_bytes, nA = d_.n[0], n1 = d_.in_n;
    const int64_t SR = flat_stage_row(F);
    const int L = d_.nloops - 1; // the folded loop: i quads
    const int64_t osA = d_.os[0], osQ = d_.loop_os[L];
    sat_packs_ = true;
    vmovups(Zmm(29), cst(c_hi_));
    hoisted_[0] = hoisted_t{ &c_hi_, 29 };
    nhoisted_ = 1;
    ssc_vec_ = dsc_vec_ = false; // one scale per row, broadcast
    ssc_reg_ = d_.src_scale ? 28 : -1;
    dsc_reg_ = d_.dst_scale ? 27 : -1;
    vmovdqu32(Zmm(26), ptr[rip + c_flat_perm_]);
    for (int o = 0; o < 16; ++o)
        flat_bytes_stage_row(o, SR);
    sat_packs_ = false;
    nhoisted_ = 0;
    ssc_reg_ = dsc_reg_ = -1;
    xor_(r15, r15); // comp_byte_groups: the call's lanes from 0
    const bool nt = d_.nt && osA % 64 == 0 && osQ % 64 == 0;
    for (int64_t q = 0; q < d_.loop_n[L]; ++q)
        for (int64_t a0 = 0; a0 < nA; a0 += 16) {
            for (int r = 0; r < 16; ++r)
                for (int g = 0; g < 4; ++g) {
                    const int64_t off = (4 * g + r / 4) * SR + (n1 * q + r % 4) * nA + a0;
                    const Address at = ptr[rsp + buf_stage + (int)off];
                    g == 0 ? vmovdqu(Xmm(r), at) : vinserti32x4(Zmm(r), Zmm(r), at, g);
                }
            byte_transpose_16x16();
            const int cols = (int)std::min<int64_t>(16, nA - a0);
            comp_byte_groups(cols);
            stores_streamed_or_cached(nt, [&](bool stream, const Label &) {
                for (int c = 0; c < cols; ++c) {
                    const Address to = ptr[r9 + (a0 + c) * osA + q * osQ];
                    stream ? vmovntdq(to, Zmm(c)) : vmovdqu8(to, Zmm(c));
                }
            });
        }
}

// One element at a time along the micro node, any strides.
//   rax i, rbx v, rbp z, rcx src, rdx dst, rsi src scales, rdi dst scales.
void reorder_gen_t::gen_scalar() {
    xmm_mode_ = true;
    tb_ = 8;
    Label l, lzero, lnext, lend;
    mov(rbx, qword[rsp + s_v0]);
    mov(rbp, qword[rsp + s_z0]);
    mov(rcx, r8);
    mov(rdx, r9);
    mov(rsi, r10);
    mov(rdi, r11);
    xor_(rax, rax);
    L(l);
    cmp(rax, rbp);
    jge(lend, T_NEAR);
    cmp(rax, rbx);
    jge(lzero, T_NEAR);
    load_elem(0, ptr[rcx], d_.sdt);
    if (value_path()) compute(0, lane_src_t{ ptr[rdx], ptr[rsi], ptr[rdi], nullptr });
    store_elem(0, rdx);
    jmp(lnext, T_NEAR);
    L(lzero);
    if (dsz_ == 4)
        mov(dword[rdx], 0);
    else if (dsz_ == 2)
        mov(word[rdx], 0);
    else
        mov(byte[rdx], 0);
    L(lnext);
    add_imm(rcx, d_.is[0] * ssz_);
    add_imm(rdx, d_.os[0] * dsz_);
    if (d_.src_scale) add_imm(rsi, d_.ss[0] * 4);
    if (d_.dst_scale) add_imm(rdi, d_.ds[0] * 4);
    inc(rax);
    jmp(l, T_NEAR);
    L(lend);
    xmm_mode_ = false;
}

// Depthwise tiles (desc.dw): each step takes 64 groups, four units of 16
// (16 / W dst blocks of W groups each; W = n[1], 16, 8 or 4), unit L in
// 128-bit lane L of every register. Register r holds 16 src bytes of
// group r (positions s .. s + 15 of a chunk starting at s) of each unit,
// loaded as broadcast lanes; a 16 x 16 byte transpose per lane then
// leaves position s + a's 16 groups of unit L in lane L of register a:
// a dst row of 16 groups, or (W = 8, 4) 16 / W rows' W-byte pieces of
// 16 / W blocks, which unpacks of 16 / W consecutive positions turn into
// one 16-byte run of each block (dw_rows). A row's load never passes its
// unit's valid end (it starts at most 16 bytes before it; a shift within
// the lanes moves its bytes back), so a call reads nothing past its src.
// Compensation: per unit and lane, the rows' bytes summed as words (even
// and odd lanes apart), finished once per step (dw_comp_store). A block
// count not a multiple of a step's (64 / W) ends with one step of the
// remaining blocks (jit_dw_tiles' tails). rax: steps left; rbx, rbp:
// src, dst of the step; rdx: its sums.
void reorder_gen_t::gen_dw_tiles() {
    const int64_t A = d_.dw, step_blocks = 64 / d_.n[1];
    const int64_t steps = d_.loop_n[0] / step_blocks, tail = d_.loop_n[0] % step_blocks;
    mov(rbx, r8);
    mov(rbp, r9);
    if (d_.comp_direct) mov(rdx, qword[rsp + s_comp]);
    // Lane masks of the broadcasts (dwords 4 L .. 4 L + 3).
    for (int L = 1; L < 4; ++L) {
        mov(r13d, 0xf << (4 * L));
        kmovw(Opmask(L), r13d);
    }
    if (steps > 0) {
        mov(eax, (uint32_t)steps);
        Label lstep;
        L(lstep);
        dw_step(64);
        if (d_.comp_direct) add(rdx, 4 * 64);
        add(rbx, (int)(64 * A));
        add(rbp, (int)(64 * A));
        dec(eax);
        jnz(lstep, T_NEAR);
    }
    if (tail > 0) dw_step((int)(tail * d_.n[1]));
}

// One step of gen_dw_tiles of `groups` groups (64; a tail: fewer, whole
// blocks): the units past them neither loaded nor stored, a partial
// unit's loads ending at its last group (those that would pass it
// shifted apart and merged into their lane).
void reorder_gen_t::dw_step(int groups) {
    const int A = d_.dw, W = (int)d_.n[1], k = 16 / W;
    const int64_t blk = 16 * A; // bytes of a unit, both sides
    const int units = (groups + 15) / 16;
    auto valid = [&](int L) { return std::min(16, groups - 16 * L); }; // groups of unit L
    const int chunks = (A + 15) / 16;
    for (int c = 0; c < chunks; ++c) {
        // Positions s .. s + n - 1: the last chunk starts early enough
        // for whole runs of k rows (W < 16).
        const int s = std::min(16 * c, A - k), n = std::min(16, A - s);
        for (int r = 0; r < valid(0); ++r) {
            const int64_t off = int64_t(r) * A + s;
            auto at = [&](int L) { return std::min(off, int64_t(valid(L)) * A - 16); };
            const Zmm v(r);
            vbroadcasti32x4(v, ptr[rbx + at(0)]);
            for (int L = 1; L < units; ++L)
                if (r < valid(L) && at(L) == at(0))
                    vbroadcasti32x4(v | Opmask(L), ptr[rbx + L * blk + at(0)]);
            if (off != at(0)) vpsrldq(v, v, (int)(off - at(0)));
            for (int L = 1; L < units; ++L)
                if (r < valid(L) && at(L) != at(0)) {
                    const Zmm t(16);
                    vbroadcasti32x4(t, ptr[rbx + L * blk + at(L)]);
                    vpsrldq(t, t, (int)(off - at(L)));
                    vmovdqa32(v | Opmask(L), t);
                }
        }
        byte_transpose_16x16();
        for (int a0 = 0; a0 < n; a0 += k)
            dw_rows(std::min(a0, n - k), s, groups);
        if (d_.comp_direct) dw_comp_rows(16 * c - s, n, c == 0, c == chunks - 1);
    }
    if (d_.comp_direct) dw_comp_store(groups);
}

// Stores rows a .. a + k - 1 (zmm a .., positions s + a ..; k = 16 / W)
// of gen_dw_tiles: block b of each unit takes dword (W = 4) or qword (W =
// 8) b of the k rows, interleaved (zmm 25 .. 29), 16 bytes at its
// position s + a; the blocks past `groups` are not stored.
void reorder_gen_t::dw_rows(int a, int s, int groups) {
    const int A = d_.dw, W = (int)d_.n[1], k = 16 / W;
    const int64_t blk = 16 * A;
    const Zmm t0(25), t1(26), t2(27), t3(28), o(29);
    if (W == 4) {
        vpunpckldq(t0, Zmm(a), Zmm(a + 1));
        vpunpckhdq(t1, Zmm(a), Zmm(a + 1));
        vpunpckldq(t2, Zmm(a + 2), Zmm(a + 3));
        vpunpckhdq(t3, Zmm(a + 2), Zmm(a + 3));
    }
    for (int b = 0; b < k; ++b) {
        if (W == 8)
            b == 0 ? vpunpcklqdq(o, Zmm(a), Zmm(a + 1)) : vpunpckhqdq(o, Zmm(a), Zmm(a + 1));
        else if (W == 4) {
            const Zmm &x = b < 2 ? t0 : t1, &y = b < 2 ? t2 : t3;
            b % 2 == 0 ? vpunpcklqdq(o, x, y) : vpunpckhqdq(o, x, y);
        }
        const Zmm z(W == 16 ? a : o.getIdx());
        const int64_t row = int64_t(b) * W * A + int64_t(s + a) * W;
        for (int L = 0; L < 4 && (L * k + b) * W < groups; ++L)
            if (L == 0 && W == 16)
                vmovdqu(ptr[rbp + row], Xmm(z.getIdx()));
            else if (L == 0) // (zmm 29: EVEX)
                vmovdqu32(ptr[rbp + row], Xmm(z.getIdx()));
            else
                vextracti32x4(ptr[rbp + L * blk + row], z, L);
    }
}

// Adds the byte rows from .. rows - 1 (zmm from ..) to the word sums of
// even (zmm 16) and odd (zmm 17) lanes: zeroed first, kept on the stack
// between chunks (the transpose takes every register).
void reorder_gen_t::dw_comp_rows(int from, int rows, bool first, bool last) {
    const Zmm ev(16), od(17), t(18);
    const bool s8 = d_.ddt == relayout_s8;
    if (first) {
        vpxord(ev, ev, ev);
        vpxord(od, od, od);
    } else {
        vmovdqa64(ev, ptr[rsp + buf_src]);
        vmovdqa64(od, ptr[rsp + buf_ssc]);
    }
    for (int a = from; a < rows; ++a) {
        const Zmm row(a);
        vpsllw(t, row, 8);
        s8 ? vpsraw(t, t, 8) : vpsrlw(t, t, 8);
        vpaddw(ev, ev, t);
        s8 ? vpsraw(t, row, 8) : vpsrlw(t, row, 8);
        vpaddw(od, od, t);
    }
    if (!last) {
        vmovdqa64(ptr[rsp + buf_src], ev);
        vmovdqa64(ptr[rsp + buf_ssc], od);
    }
}

// The step's four units of 16 sums (words: even lanes in zmm 16, odd
// in zmm 17, unit L in lane L) as int32, -128 sum (s8s8) and -sum (zero
// point), stored at rdx (the zero-point buffer s8s8_count entries on);
// only the first `groups` (a tail step: a partial unit's through k4).
void reorder_gen_t::dw_comp_store(int groups) {
    const Zmm ev(16), od(17), lo(18), hi(19), p0(20), p1(21), zero(22), v(23), w(24);
    vpunpcklwd(lo, ev, od);       // lane L: groups 0 .. 7 of block L
    vpunpckhwd(hi, ev, od);       // ... 8 .. 15
    vshufi64x2(p0, lo, hi, 0x44); // lo0 lo1 hi0 hi1
    vshufi64x2(p0, p0, p0, 0xd8); // lo0 hi0 lo1 hi1
    vshufi64x2(p1, lo, hi, 0xee); // lo2 lo3 hi2 hi3
    vshufi64x2(p1, p1, p1, 0xd8);
    vpxord(zero, zero, zero);
    if (groups % 16 != 0) {
        mov(r13d, (1 << (groups % 16)) - 1);
        kmovw(k4, r13d);
    }
    for (int L = 0; L * 16 < groups; ++L) {
        const Zmm &p = L < 2 ? p0 : p1;
        const Address at = ptr[rdx + L * 64], zp_at = ptr[rdx + d_.dw_zp_disp + L * 64];
        const bool part = groups - 16 * L < 16;
        if (L % 2 == 0)
            vpmovsxwd(v, Ymm(p.getIdx()));
        else {
            vextracti64x4(Ymm(w.getIdx()), p, 1);
            vpmovsxwd(v, Ymm(w.getIdx()));
        }
        if (d_.dw_s8s8) {
            vpslld(w, v, 7);
            vpsubd(w, zero, w);
            part ? vmovdqu32(at | k4, w) : vmovdqu32(at, w);
        }
        if (d_.dw_zp_disp >= 0) {
            vpsubd(w, zero, v);
            part ? vmovdqu32(zp_at | k4, w) : vmovdqu32(zp_at, w);
        }
    }
}

void reorder_gen_t::generate() {
    int frame = stage_ || rows_ || wstage_ ? stack_bytes_stage
                : d_.dst_stage_row         ? buf_stage + dst_stage_bytes
                : d_.ymm_b16               ? buf_stage + 8 * 32 * (dsz_ == 2 ? 2 : 1)
                : d_.f32_lines             ? buf_stage + 16 * 64
                                           : stack_bytes;
    if (wide_) // the wide src stage
        frame = std::max(frame, buf_stage + 64 * 64 * wide_ * (d_.byte_pair ? 2 : 1));
    if (bursts_) frame = std::max(frame, burst_rows_at() + 16 * 64);     // the first tile's rows
    if (d_.ymm_packed) frame = std::max(frame, buf_stage + 16 * 16 * 4); // the call's rows
    if ((d_.flat_a || d_.flat_b || d_.ymm_flat_step) && !z_) // the AVX2 flattened 8x16 pairs
        frame = std::max(frame, buf_stage + 8 * 32);
    if (d_.flat_bytes)
        frame = std::max(frame, buf_stage + (int)(16 * flat_stage_row(d_.flat_bytes)));
    if (d_.ymm_narrow) frame = std::max(frame, buf_stage + 8 * 32); // the first half lines
    if (d_.narrow_half) // the row parts, a tile's first lines of line pairs
        frame = std::max(frame, buf_stage + narrow_stage_bytes(d_) + 16 * 64);
    if (d_.ymm_small_lines) // a group's dst lines
        frame = std::max(frame, buf_stage + 64 * 64 * (ylines2_ ? 2 : 1));
    if (ysrc_pf_) frame = std::max(frame, buf_ysrc + 16 * 64); // a B tile's src lines
    if (ywide_) // ... ywide_ lines of each src row of every B tile
        frame = std::max(frame, buf_ysrc + (int)d_.n[1] * 64 * ywide_);
    if (d_.o8_in_order) frame = std::max(frame, buf_stage + 256 * d_.o8_chunks); // a block's lines
    if (d_.o8i_staged) frame = std::max(frame, buf_stage + 256 * 8);             // a window's lines
    if (d_.packed_rows)
        frame = std::max(frame, buf_stage + 17 * 64); // 16 rows, the last one's dead lanes
    // The block lines' staged rows.
    if (d_.blk_lines) frame = std::max(frame, buf_stage + 64 * (int)d_.n[0] * (d_.blk_lines - 1));
    if (d_.ymm_blk_lines) frame = std::max(frame, buf_stage + 8 * 32 * (2 * d_.ymm_blk_lines - 1));
    preamble(frame);
    mov(r8, ptr[rdi + offsetof(jit_call_args_t, src)]);
    mov(r9, ptr[rdi + offsetof(jit_call_args_t, dst)]);
    mov(r10, ptr[rdi + offsetof(jit_call_args_t, src_scales)]);
    mov(r11, ptr[rdi + offsetof(jit_call_args_t, dst_scales)]);
    for (int m = 0; m < 2; ++m) {
        mov(rax, ptr[rdi + offsetof(jit_call_args_t, v) + 8 * m]);
        mov(qword[rsp + s_v0 + 8 * m], rax);
        mov(rax, ptr[rdi + offsetof(jit_call_args_t, z) + 8 * m]);
        mov(qword[rsp + s_z0 + 8 * m], rax);
    }
    mov(rax, ptr[rdi + offsetof(jit_call_args_t, nt)]);
    mov(qword[rsp + s_nt], rax);
    prefetch_ahead_init();
    dst_stage_begin();
    mov(rax, ptr[rdi + offsetof(jit_call_args_t, comp)]);
    mov(qword[rsp + s_comp], rax);
    if (d_.f32_lines) {
        mov(rax, ptr[rdi + offsetof(jit_call_args_t, lines)]);
        mov(qword[rsp + s_lines], rax);
        mov(rax, ptr[rdi + offsetof(jit_call_args_t, lines_io)]);
        mov(qword[rsp + s_lines_io], rax);
    }
    // Baked loops 0 .. nl-1 around the code of `body` (the last innermost).
    // u0 > 1: the body runs u0 positions of the innermost loop (nl >= 1),
    // which then steps u0 at a time (desc.short_unroll).
    // u1 > 1: ... and u1 positions of the next-outer loop (desc.few_b_quad_steps).
    auto baked_loops = [&](int nl, const std::function<void()> &body, int u0 = 1, int u1 = 1) {
        Label loops[jit_reorder_desc_t::max_loops];
        auto k = [&](int l) { return l == nl - 1 ? u0 : l == nl - 2 ? u1 : 1; };
        for (int l = 0; l < nl; ++l) {
            mov(qword[rsp + s_loop + 8 * l], (uint32_t)(d_.loop_n[l] / k(l)));
            L(loops[l]);
        }
        body();
        for (int l = nl - 1; l >= 0; --l) {
            const dim_t n = d_.loop_n[l] / k(l), is = d_.loop_is[l] * k(l),
                        os = d_.loop_os[l] * k(l), ss = d_.loop_ss[l] * k(l),
                        ds = d_.loop_ds[l] * k(l);
            // (desc.comp_a, comp_span: the sums' pointer steps with the
            // loops too.)
            const dim_t cs = d_.comp_a || d_.comp_span ? d_.loop_cs[l] * k(l) : 0;
            add_imm(r8, is * ssz_);
            add_imm(r9, os * dsz_);
            if (d_.src_scale) add_imm(r10, ss * 4);
            if (d_.dst_scale) add_imm(r11, ds * 4);
            if (cs) add(qword[rsp + s_comp], (int)(cs * 4));
            dec(qword[rsp + s_loop + 8 * l]);
            jnz(loops[l], T_NEAR);
            add_imm(r8, -n * is * ssz_);
            add_imm(r9, -n * os * dsz_);
            if (d_.src_scale) add_imm(r10, -n * ss * 4);
            if (d_.dst_scale) add_imm(r11, -n * ds * 4);
            if (cs) sub(qword[rsp + s_comp], (int)(n * cs * 4));
        }
    };
    // Variants for whole calls (no padding or edges: every call of a large
    // problem whose dims are whole blocks; B counted in lanes, in_n per
    // position) run their own loops; other calls go on to the generic tiles.
    Label lflat_done;
    // (`init`: once per call, before the loops.)
    auto whole_calls = [&](bool on, int nl, const std::function<void()> &body,
                               const std::function<void()> &init = nullptr) {
        if (!on) return;
        Label lgeneric;
        jump_unless_whole_call(2, lgeneric);
        if (init) init();
        baked_loops(nl, body);
        jmp(lflat_done, T_NEAR);
        L(lgeneric);
    };
    whole_calls(d_.dw != 0, 0, [&] { gen_dw_tiles(); }); // (runs the block loop itself)
    whole_calls(d_.ymm_b16_pf != 0, d_.nloops, [&] { gen_ymm_b16_outer(); }); // B-outer 8x16
    whole_calls(d_.pair_a, d_.nloops, [&] { gen_pair_a(); });
    whole_calls(d_.quad_a, d_.nloops, [&] { gen_quad_a(); });
    whole_calls(d_.narrow_half != 0, d_.nloops, [&] { gen_narrow_half(); });
    whole_calls(d_.quad_bytes, d_.nloops, [&] { gen_quad_bytes(); });
    // The flattened tiles replace the innermost baked loop.
    whole_calls(d_.flat_a != 0, d_.nloops - 1, [&] { gen_transpose_flat(); });
    // (Flattened interleave lanes: every baked loop around them.)
    whole_calls(d_.flat_b != 0, d_.nloops - (d_.in_n > 1 ? 0 : 1), [&] { gen_transpose_flat_b(); });
    whole_calls(d_.flat_bytes != 0, d_.nloops - 1, [&] { gen_flat_bytes(); });
    whole_calls(d_.ymm_flat_step != 0, d_.nloops - 2, [&] { gen_ymm_flat_steps(); });
    whole_calls(d_.ymm_packed, d_.nloops, [&] { gen_ymm_packed_rows(); });
    whole_calls(d_.flat_pairs != 0, d_.nloops - 1, [&] { gen_flat_pairs(); });
    whole_calls(
            d_.run_deal != 0, d_.nloops - (run_deal_fold(d_) ? 1 : 0), [&] { gen_run_deal(); },
            [&] { run_deal_init(); });
    whole_calls(d_.o8_chunks != 0, d_.nloops, [&] { gen_o8_chunks(); });
    whole_calls(d_.o8i_rows != 0, d_.nloops, [&] { gen_o8i_rows(); });
    if (d_.few_b_quads) {
        // (four steps of the innermost loop at a time)
        Label lgeneric;
        jump_unless_whole_call(2, lgeneric);
        baked_loops(
                d_.nloops, [&] { gen_few_b_quad(); }, 4, std::max(d_.few_b_quad_steps, 1));
        jmp(lflat_done, T_NEAR);
        L(lgeneric);
    }
    if (d_.lane_tiles) {
        // (the tile's steps of the loop continuing the rows' run)
        Label lgeneric;
        jump_unless_whole_call(2, lgeneric);
        quad_tile_masks();
        lane_tiles_comp(false);
        const int r = jit_lane_tiles_loop(d_), k = d_.lane_tiles;
        if (r < 0) // (16 steps of the innermost loop per tile)
            baked_loops(
                    d_.nloops, [&] { gen_lane_tile(); }, 16);
        else {
            const int nl = d_.nloops - 1; // (the tile spans the innermost loop)
            baked_loops(
                    nl, [&] { gen_lane_tile(); }, r == nl - 1 ? k : 1, r == nl - 2 ? k : 1);
        }
        if (d_.bit_copy) lane_tiles_comp(true); // (conversions: per tile)
        jmp(lflat_done, T_NEAR);
        L(lgeneric);
    }
    if (d_.short_copy)
        short_copy_calls(
                [&](int nl, const std::function<void()> &body) {
                    baked_loops(nl, body, d_.short_unroll);
                },
                lflat_done);
    baked_loops(d_.nloops, [&] {
        switch (d_.strategy) {
            case kernel_strategy_t::copy:
                if (d_.bit_copy)
                    gen_copy_bits();
                else
                    gen_copy();
                break;
            case kernel_strategy_t::transpose:
            case kernel_strategy_t::interleave:
                lanes_tile() ? gen_lanes() : d_.ymm_small ? gen_ymm_small_tiles() : gen_transpose();
                break;
            case kernel_strategy_t::scalar: gen_scalar(); break;
        }
    });
    L(lflat_done);
    dst_stage_flush();
    // Order the streaming stores before the caller's (or the driver does,
    // once per thread: fence_in_driver).
    if (d_.nt && !d_.fence_in_driver) sfence();
    postamble();
    emit_subroutines();
    emit_constants();
}

} // namespace

// Byte tiles whose B src rows are near (a line to under 1 KiB apart, plain:
// nhwc -> nchw from 64 to 1023 channels, nchw -> nhwc of short planes)
// read one contiguous src block per call (64 rows per B tile), 16 bytes of
// a line of each of 64 rows per tile, the four A tiles of a line one after
// the other: each row is a stream of at most a page, which the hardware
// prefetchers do not fetch ahead in time. Each full tile prefetches a
// quarter of its rows' lines (rows 16k .. 16k + 15 for the k-th A tile of
// a line) of the next call's block into L2, so that the call's tiles cover
// the next block once (the driver runs the next B tile next: the innermost
// node, one block on). Calls of one B tile (512 channels and more) no
// longer stage their rows then: staged, their rows' own lines 4 groups
// ahead came too late. Single-thread, % of a streaming copy (best of 5,
// noisy machine), u8 nhwc -> nchw 16x256x64x64: 58-63 -> 83-90,
// 64x256x64x64 (streamed): 42-44 -> 85-95, 256x64x64x64: 43 -> 65-73,
// 16x512x64x64: 57 -> 78-83. Rows 1 KiB apart lost unstaged (1024
// channels in the caches: 46 -> 34) and stay staged.
int64_t jit_byte_tile_pf(const jit_reorder_desc_t &d) {
    static const int knob = getenv_int("RELAYOUT_JIT_BYTE_PF", 1); // experiment knob
    if (!d.byte_tile || d.strategy != kernel_strategy_t::transpose || knob <= 0) return 0;
    if (d.in_n != 1 || d.n[0] < 64 || d.n[1] < 64) return 0;
    if (d.is[1] < 64 || d.is[1] >= 1024) return 0;
    const int64_t pf = knob * d.n[1] * d.is[1];
    return fits32(pf + 64 * d.is[1]) ? pf : 0;
}

// Byte-tile interleaves whose 4-lane groups are 16 A positions each, back
// to back (s8 / u8 oihw -> OIhw4i16o4i 4x4: each B row's 16 i x 16 hw
// bytes): a full tile reads 16 whole lines, one 64-byte load each, and a
// 4 x 4 transpose of the 128-bit lanes of each 4 registers puts the
// groups where the 16-byte loads and inserts put them (64 loads and 48
// lane inserts -> 16 loads and 32 lane shuffles). Single-thread, knob off
// / on, medians of 5 interleaved (Xeon, calls split by
// jit_split_interleaves): 1024x1024x4x4 1.03x, with s8s8 1.05x; in L2
// (256x256x4x4) even.
bool jit_byte_lines(const jit_reorder_desc_t &d) {
    return d.byte_tile && d.strategy == kernel_strategy_t::interleave && d.in_n == 4
           && d.in_is == 16 && d.is[0] == 1;
}

// Staged byte and word tiles (src rows 1 KiB / a page or more apart, one
// B tile per call; see gen_byte_tile and gen_word_tile) whose dst rows are
// a page or more apart (s8 / bf16 ab -> ba 8192^2) stage `wide` (4) lines
// of each src row per group, read one after the other, and spread the L2
// prefetch of the group two on over the tiles, 16 / wide rows each, rows
// in order: the 64-byte groups read a line of each of 64 (32) rows at
// once, the rows 2^k bytes apart, and prefetched the group four on in
// one burst at each group's start. A standalone model of the s8 pattern
// (thread CPU time, % of a streaming copy): 35-38 -> 43-46. Single-thread,
// best of 5 interleaved (knob 0 -> on), % of a streaming copy: s8 ab -> ba
// 8192^2 38-46 -> 53-71, 4096^2 82 -> 109, 4096 x 16384 43 -> 65; bf16
// 8192^2 48-56 -> 56-58, 4096^2 63 -> 72, 2048 x 8192 74 -> 82. Dst rows
// nearer lost (nchw -> nhwc: s8 16x256x64x64 121 -> 92, 4x1024x64x64
// 107 -> 83, bf16 78 -> 64, bf16 ab -> ba 512 x 32768 76 -> 64; s8 1024 x
// 32768 even). One group on instead of two: s8 8192^2 59 / 69, bf16 50 /
// 58; three: 44 / 59; wide 2: 68 / 55. Knob RELAYOUT_JIT_WIDE_STAGE: lines
// per row, 2 or 4 (0: off); RELAYOUT_JIT_WIDE_PF: groups ahead.
// Byte tiles whose dst rows are under 1 KiB apart (nchw -> nhwc up to 512
// channels) take the wide stage too, in calls of a whole group: on this
// host (Zen 5: 48 KiB 12-way L1D) the 64-byte groups ran them at about 40%
// of a copy, and a src pitch of a page (64 x 64 planes: the 64 rows of a
// group in one L1 set) some 10 points below 63 x 64 or a plane padded to
// 4160 B. The 64-byte groups -> the wide stage, % of a
// streaming copy, medians of 5 interleaved rounds (thread CPU time; the
// process's at 2 threads), single-thread / 2 threads: s8 nchw -> nhwc
// 32x256x64x64 41 -> 61 / 42 -> 66, 32x256x63x64 51 -> 64 / 53 -> 61,
// 32x256x56x56 49 -> 64 / 51 -> 67; benchdnn_lite --mode=P (4-5 rounds):
// u8 C = 64 (128x64x64x64) 40-48 -> 57-97 / 39-46 -> 58-64, C = 128 40 ->
// 66 / 33 -> 67, C = 512 35-40 -> 43-44 / 33-37 -> 39-44; in the caches
// 4x256x64x64 64-70 -> 80-83 / 65 -> 79-106, 8x256x64x64 64 -> 75 / 69
// -> 83. Dst rows 1 to 4 KiB apart lost (C = 1024, 2x1024x64x64: 60 ->
// 50; s8 ab -> ba 2048 x 4096: 53 -> 35): not taken; nor 2 lines per row
// (C = 256: 42 -> 41, C = 128: 40 -> 52 against 66 with 4), nor 32-lane
// word tiles (bf16 nchw -> nhwc 16x256x64x64 48 -> 46, 56 x 56 50 -> 46);
// 64-lane word calls take it (jit_word_rows64).
int jit_wide_stage(const jit_reorder_desc_t &d) {
    static const int knob = getenv_int("RELAYOUT_JIT_WIDE_STAGE", 4); // experiment knob
    if (knob != 2 && knob != 4) return 0;
    if (d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::transpose) return 0;
    const bool bytes = d.byte_tile && d.in_n == 1 && (d.n[1] == 64 || d.byte_pair) && d.n[0] >= 64
                       && !jit_byte_tile_pf(d);
    const bool words = d.word_tile && (d.n[1] == 32 || d.n[1] == 64) && d.n[0] >= 32;
    if (!bytes && !words) return 0;
    const int64_t dst_row = d.os[0] * (int64_t)data_type_size(d.ddt);
    const int64_t isB = d.is[1] * (int64_t)data_type_size(d.sdt);
    const bool near = bytes && dst_row < 1024 && d.n[0] >= 64 * knob;
    // Calls of 64 word lanes of far src rows (jit_word_rows64), dst rows
    // of 512 B on (jit_word_rows64).
    const bool near_words = words && d.n[1] == 64 && isB >= 4096 && dst_row >= 512;
    if (dst_row < 4096 && !near && !near_words) return 0;
    return fits32(64 * isB + 64 * 64 * knob) ? knob : 0;
}

// Byte-tile transposes of 4 MiB or more (src + dst) below the streaming
// size store each dst line cached, a whole line per store, and each
// store misses (reads the line for ownership) while the tiles' loads
// wait behind it. Each full tile prefetches into L2 the 16 dst lines
// that the tile `ahead` A tiles on writes (at the end of a call: rows
// past it, which a later call writes; dst_rows_prefetch). Single-thread, % of a streaming
// copy (best of 5 interleaved, off -> 4 tiles ahead): s8 nchw -> nhwc
// 16x256x64x64 55-66 -> 78-89, 4x256x64x64 61 -> 87, 2x256x64x64
// 38 -> 52, 16x1024x32x32 60 -> 71; u8 nhwc -> nchw 16x256x64x64 78 ->
// 95; s8 ab -> ba 2048^2 71 -> 92, 4096^2 66 -> 75. prefetchw and
// prefetcht0 did not help (64 -> 67); 2 tiles ahead 75, 8: 82. Streamed
// dsts lost (8192^2 49 -> 26), and so did the caches (512^2 138 -> 69;
// 2 MiB: 42 -> 41).
int jit_byte_dst_prefetch(const jit_reorder_desc_t &d, const plan_t &p) {
    static const int ahead = std::max(0, getenv_int("RELAYOUT_JIT_BYTE_PFW", 4)); // knob
    if (!d.byte_tile || d.strategy != kernel_strategy_t::transpose || d.nt || !ahead) return 0;
    if (size_t(p.nelems()) * 2 < (size_t(4) << 20) || d.n[0] < 16) return 0;
    return fits32((16 * ahead + 15) * d.os[0]) ? ahead : 0;
}

namespace {

// AVX-512 transposes whose A is 8 rows, with a large f32 dst whose rows
// are whole lines apart (nChw8c -> nchw): kept on the zmm tile (of TA = 8
// rows, see gen_transpose) so that each dst row streams as one line.
bool half_a_tile(const jit_reorder_desc_t &d) {
    return d.isa == cpu_isa_t::avx512_core && d.strategy == kernel_strategy_t::transpose
           && d.n[0] == 8 && d.in_n == 1 && d.n[1] >= 16 && d.nt && data_type_size(d.ddt) == 4
           && d.os[0] * 4 % 64 == 0;
}

// OIhw8i8o -> oihw 3x3: A = 8 o, B = 9 hw. As 8x8 tiles every A position
// took a second, one-lane edge tile through the stack, element by element;
// on the zmm tiles of 8 rows (k5) and 9 lanes (k6) it is one full tile.
// 4-byte bit copies (as measured; f32 <-> s32 conversions keep the 8x8
// tiles), B of 9 to 15 lanes (3x3, 2x5, 3x5 filters). Single
// thread, x oneDNN, medians of 3 interleaved (reorder_bench, busy):
// 1024x1024x3x3 0.88 -> 1.07, 512x512x3x3 1.01 -> 1.19, 256x128x3x3
// 0.95 -> 2.21, 1024x1024x2x5 0.51 -> 1.07.
bool short_b_zmm(const jit_reorder_desc_t &d) {
    return d.isa == cpu_isa_t::avx512_core && d.strategy == kernel_strategy_t::transpose
           && d.n[0] == 8 && d.in_n == 1 && d.n[1] > 8 && d.n[1] < 16 && d.bit_copy
           && data_type_size(d.sdt) == 4;
}

// AVX2 transpose tiles stream only when their 8 rows of 8 f32 are adjacent
// in the dst: 256 contiguous bytes, every line written by two back-to-back
// stores.
bool ymm_lines_streamable(const jit_reorder_desc_t &d) {
    const bool tile = d.strategy == kernel_strategy_t::transpose
                      || d.strategy == kernel_strategy_t::interleave;
    return tile && data_type_size(d.ddt) == 4 && d.os[0] == 8;
}

// The most of `rows` lines `pitch` bytes apart that fall into one set of
// a 64-set L1 with 64-byte lines (Zen 4 32 KiB 8-way, Zen 5 48 KiB
// 12-way, Intel cores since Sandy Bridge 32-48 KiB 8-12-way).
int dst_rows_per_l1_set(int64_t pitch, int rows) {
    int count[64] = {};
    int most = 0;
    for (int i = 0; i < rows; ++i)
        most = std::max(most, ++count[(i * pitch >> 6) & 63]);
    return most;
}

// A 1-byte to 1-byte bit copy without compensation or sum, src + dst of
// the tiles' streaming size or more, whose innermost node (dst-contiguous
// lanes) has `lanes` or more, from src rows `pitch` bytes or more apart.
bool streamed_far_byte_rows(const plan_t &p, dim_t lanes, dim_t pitch) {
    if (!p.bit_copy || data_type_size(p.sdt) != 1 || data_type_size(p.ddt) != 1 || p.s8s8_comp
            || p.zp_comp || p.beta != 0.f || p.nodes.empty())
        return false;
    const node_t &inner = p.nodes.back();
    return inner.os == 1 && inner.n >= lanes && inner.is >= pitch
           && size_t(p.nelems()) * 2 >= nt_tiles_threshold_bytes;
}

} // namespace

// AVX2 8x16 tiles (ymm_b16) whose A is not whole tiles (3x3 weights to
// hwio: A = 9 hw): the last A tile, shifted back to end at the last row,
// stored all 8 rows, 7 of them again (16 streamed lines per call for 9).
// It stores only the rows it adds. 1024x1024x3x3, AVX2 on both sides,
// x oneDNN, 3 rounds interleaved, busy: single-thread 0.57 / 0.59 / 0.65
// -> 0.86 / 0.97 / 0.73, 2 threads 0.62 / 0.52 / 0.62 -> 0.96 / 1.18 /
// 1.22 (7-8 -> 12-18% of a copy).
bool jit_ymm_shift_new_rows(const jit_reorder_desc_t &d) {
    return d.isa == cpu_isa_t::avx2 && d.ymm_b16 && d.n[0] > 8 && d.n[0] % 8 != 0;
}

// OIhw8i8o -> oihw, OIhw16o16i -> oihw 3x3 on AVX2: B = 9 hw, so every A
// tile took a full 8x8 tile and an edge tile of one lane (its src row
// gathered and its 8 dst elements stored one by one, cached); the edge now
// moves back and runs as a full tile. Only where the call's B is not
// whole tiles and more than one; not with the sum or compensation (the
// repeated lanes), B-outer tiles (the A loop inside keeps r15) or the line
// pairs (their rows carried between calls).
bool jit_ymm_shift_b(const jit_reorder_desc_t &d) {
    return d.isa == cpu_isa_t::avx2 && d.strategy == kernel_strategy_t::transpose && d.in_n == 1
           && d.beta == 0.f && !d.comp_lanes && !d.b_outer && !d.f32_lines && d.n[1] > 8
           && d.n[1] % 8 != 0 && !(d.nt && d.os[0] == 8);
}

// nchw -> nhwc, nhwc -> nchw, ab -> ba, nchw <-> nChw16c on AVX2: the 8x8
// tile's dst rows are half lines; a line's halves come from two tiles, far
// apart in time when streamed (2x slower than cached there), so these
// stayed cached. Two tiles side by side write whole lines.
int jit_ymm_small_tiles(const jit_reorder_desc_t &d, cpu_isa_t isa) {
    const int e = (int)data_type_size(d.sdt);
    if (isa != cpu_isa_t::avx2 || d.isa != cpu_isa_t::avx2 || !d.bit_copy || (e != 1 && e != 2)
            || (int)data_type_size(d.ddt) != e)
        return 0;
    if (d.strategy != kernel_strategy_t::transpose && d.strategy != kernel_strategy_t::interleave)
        return 0;
    // Compensation: summed per 4-lane group (byte tiles, 4i interleaves).
    if ((d.comp_lanes && (e != 1 || !d.comp_group)) || d.beta != 0.f || d.is[0] != 1
            || 16 % d.in_n != 0 || d.os[1] != d.in_n)
        return 0;
    // B edges copy element by element: only where they are a small part
    // (bf16 nchw -> nhwc with 24 channels, a 16-lane tile and an 8-lane
    // edge per A tile: 38-50% -> 17-20% of a copy with these tiles).
    const dim_t lanes = d.n[1] * d.in_n;
    // (An A of fewer positions than a tile, 16 bytes: one partial tile per
    // B tile, its rows loaded in pieces; 3x3 s8 weights to OIhw4i16o4i
    // had gone to the 8x8 dword tiles, 8 positions + 1 element by element.)
    if (lanes < 16 || (lanes % 16 != 0 && lanes < 64)) return 0;
    if (d.dst_stage_row || d.flat_a || d.flat_b || d.flat_bytes) return 0; // (whole-call paths)
    if (!fits32(16 * (d.in_is + d.is[1]) * e) || !fits32(16 * d.os[0] * e)) return 0;
    // A byte group's 64 dst rows complete their lines over 4 B tiles;
    // where their pitch packs them into few L1 sets (more than 16 per set,
    // beyond 8 or 12 ways: pitches of 2^k KiB from 4 KiB up), each line is
    // evicted before its next tile writes it, and the 8x8 dword tiles,
    // 8 rows at a time, run faster (AVX2, 2 threads, x oneDNN, 3 rounds
    // interleaved, Zen 5 host, before -> after: u8 nhwc -> nchw 64x64 planes
    // 0.57-0.74 -> 1.19-1.61; s8 ab -> ba 8192^2 1.29-1.33 -> 1.77-1.83,
    // 16384x4096 0.90-1.30 -> 1.46-1.50). Not for words, whose 32 rows lost
    // on the dword tiles (bf16 ab -> ba 8192x4096 36-39 -> 33-34, 64x64
    // planes mixed), nor 1 KiB pitches (16 rows per set; 32x32 planes
    // mixed).
    // (Not where the group's lines are staged: each written once, whole.)
    if (e == 1 && dst_rows_per_l1_set(d.os[0], 64) > 16 && !jit_ymm_small_lines(d, 0)) return 0;
    return e;
}

// The 16-byte (bytes) or 32-byte (words) pieces of dst rows that the
// tiles above store write each 64-byte line in 4 or 2 visits, read for
// ownership each time (cached; half lines far apart cannot stream), and
// where the dst pitch packs a group's rows into few L1 sets the line is
// evicted between visits. Staged: the B tiles of a dst line (64 bytes of
// B lanes) fill a stack stage of the group's 4 A tiles (64 byte rows, 32
// word rows), which goes out a whole line per row, streamed from the
// tiles' streaming size (jit_tiles_stream_from_l3). Below it only where
// the dst pitch packs the group's rows more than 16 to an L1 set: other
// cached dsts lost with the stage (AVX2, 2 threads, 9 rounds alternated,
// Intel host: s8 nchw -> nhwc 4x256x64x64 0.96x, 8x256x64x64 0.90x).
bool jit_ymm_small_lines(const jit_reorder_desc_t &d, size_t bytes) {
    const int64_t e = (int64_t)data_type_size(d.sdt);
    const int64_t GA = 4 * 16 / std::max<int64_t>(1, e), GB = 64 / std::max<int64_t>(1, e);
    return d.isa == cpu_isa_t::avx2 && d.strategy == kernel_strategy_t::transpose
           && (e == 1 || e == 2) && d.in_n == 1 && !d.comp_lanes && d.os[1] == 1
           && d.os[0] * e % 64 == 0 && d.n[0] >= GA && d.n[1] >= GB && fits32(GB * d.is[1] * e)
           && fits32(GA * d.os[0] * e)
           && (bytes >= nt_tiles_threshold_bytes || dst_rows_per_l1_set(d.os[0] * e, GA) > 16);
}

// The byte tiles of those lines whose 16 src rows of a B tile share one
// L1 set (row pitches of 4 KiB and up: 16 lines over 8 or 12 ways) read
// each line 16 bytes at a time in 4 tiles, every read after the first a
// miss: the B tile's lines are copied whole to a stack stage first (two
// loads and two stores a line), and the tiles read the stage; the lines
// RELAYOUT_JIT_YMM_SRC_PF (default 2) groups on are prefetched into L2
// (rows 2^k bytes apart: 64 pages per group, beyond the hardware
// prefetchers' streams). Knob RELAYOUT_JIT_YMM_SRC_STAGE=0: off.
int jit_ymm_byte_src_stage(const jit_reorder_desc_t &d) {
    static const int on = getenv_int("RELAYOUT_JIT_YMM_SRC_STAGE", 1); // experiment knob
    static const int pf = getenv_int("RELAYOUT_JIT_YMM_SRC_PF", 2);    // experiment knob
    if (!on || !d.ymm_small_lines || d.ymm_small != 1) return 0;
    if (dst_rows_per_l1_set(d.is[1], 16) <= 8) return 0;
    return fits32(16 * d.is[1] + 64 * (pf + 1)) ? 1 + std::max(0, pf) : 0;
}

// The src stage's rows (jit_ymm_byte_src_stage) read this many lines at
// a time (0: one line per group): every B tile of a call stages 16 rows x
// this many lines at the first group of each block of as many groups.
// Knob RELAYOUT_JIT_YMM_WIDE_SRC (lines, default 4; 0 or 1: off).
int jit_ymm_byte_wide_src(const jit_reorder_desc_t &d) {
    static const int knob = getenv_int("RELAYOUT_JIT_YMM_WIDE_SRC", 4); // experiment knob
    if (knob != 2 && knob != 4) return 0;
    if (!jit_ymm_byte_src_stage(d) || d.n[1] % 16 != 0 || d.n[1] * 64 * knob > 32 * 1024) return 0;
    return fits32(16 * d.is[1] + 64 * 2 * knob) && d.n[0] >= 64 * knob ? knob : 0;
}

// The byte lines' calls of far src rows (a KiB or more apart), streamed,
// whose dst rows are whole pairs of lines (s8 / u8 ab -> ba 8192^2, nchw
// -> nhwc of 128, 256, 384 ... channels): 128 lanes and 512 A positions
// per call, so that a group writes two adjacent lines of each of its 64
// dst rows instead of one (the AVX-512 byte tiles' jit_byte_rows128).
// AVX2 cap, 2 threads, noisy Intel host, 3 alternated rounds, calls of 64
// lanes -> 128 (benchdnn_lite, minimum times): s8 ab -> ba 8192^2
// 1.2-1.35x, s8 nchw -> nhwc 16x256x64x64 1.3-2x; whole-plane calls of
// 128 lanes (4096 A positions) ran as the 512. Knob
// RELAYOUT_JIT_YMM_LINE_PAIRS=0: the 64-lane calls.
bool jit_ymm_byte_line_pairs(cpu_isa_t isa, const plan_t &p) {
    static const int knob = getenv_int("RELAYOUT_JIT_YMM_LINE_PAIRS", 1); // experiment knob
    if (!knob || vector_isa(isa) != cpu_isa_t::avx2 || !streamed_far_byte_rows(p, 128, 1024))
        return false;
    for (const auto &nd : p.nodes)
        if (nd.is == 1 && nd.os % 128 == 0) return true;
    return false;
}

bool jit_ymm_word_lines(cpu_isa_t isa, const plan_t &p) {
    if (vector_isa(isa) != cpu_isa_t::avx2 || !p.bit_copy || p.nodes.empty()
            || data_type_size(p.sdt) != 2 || data_type_size(p.ddt) != 2)
        return false;
    const node_t &inner = p.nodes.back();
    bool a_lines = false; // the A node's dst rows whole lines apart
    for (const auto &nd : p.nodes)
        if (nd.is == 1 && nd.os * 2 % 64 == 0) a_lines = true;
    return inner.os == 1 && inner.is * 2 >= 4096 && a_lines
           && size_t(p.nelems()) * 4 >= nt_tiles_threshold_bytes;
}

int jit_ymm_b16_lanes(const jit_reorder_desc_t &d) {
    return data_type_size(d.ddt) == 2 ? 32 : 16;
}

bool jit_ymm_b16_tiles(const jit_reorder_desc_t &d, cpu_isa_t isa) {
    if (isa != cpu_isa_t::avx2 || d.isa != cpu_isa_t::avx2) return false;
    if (d.strategy != kernel_strategy_t::transpose || !d.nt || d.byte_tile || d.in_n != 1)
        return false;
    const int64_t ssz = (int64_t)data_type_size(d.sdt), dsz = (int64_t)data_type_size(d.ddt);
    // 2-byte dsts: f32 -> bf16 / f16 (gen_ymm_w32_tile), src rows under a
    // page apart (far ones take the narrow rows, jit_ymm_narrow_rows).
    static const bool words = getenv_int("RELAYOUT_JIT_YMM_W32", 1) != 0; // experiment knob
    const bool to_words = words && dsz == 2 && ssz == 4 && !d.bit_copy
                          && (d.ddt == relayout_bf16 || d.ddt == relayout_f16)
                          && d.is[1] * ssz < 4096;
    if (d.comp_lanes || d.beta != 0.f || (dsz != 4 && !to_words)) return false;
    const int64_t BW = jit_ymm_b16_lanes(d);
    return d.n[1] >= BW && d.os[1] == 1 && d.os[0] * dsz % 64 == 0 && fits32(BW * d.is[1] * ssz)
           && fits32(8 * d.os[0] * dsz);
}

// AVX2 conversions of f32 to bf16 / f16 whose src is blocks of 16 lanes,
// one line per B position (nChw16c -> nchw: the 8x32 word tiles,
// gen_ymm_w32_tile): the call's two A tiles (channels 0-7, 8-15) each
// sweep all of its B positions, reading half of every src line, so with
// the usual plane (2048 B positions: 128 KiB) the second sweep found none
// of them in the L1 (48 KiB) and the loads bound the kernel (timing
// variants, 16x256x64x64, single-thread: no stores as slow as the kernel,
// no loads 8x faster). Calls of 512 B positions (a 32 KiB block) read
// it once from memory. Experiment knob RELAYOUT_JIT_YMM_W32_PLANE:
// elements per call, 0 = off (the usual plane).
dim_t jit_ymm_w32_block_plane(cpu_isa_t isa, const plan_t &p) {
    static const int plane = getenv_int("RELAYOUT_JIT_YMM_W32_PLANE", 8192); // experiment knob
    if (plane <= 0 || vector_isa(isa) != cpu_isa_t::avx2 || p.bit_copy || p.nodes.size() < 2
            || data_type_size(p.sdt) != 4 || (p.ddt != relayout_bf16 && p.ddt != relayout_f16)
            || size_t(p.nelems()) * 6 < nt_threshold_bytes)
        return 0;
    const node_t &B = p.nodes.back(), &A = p.nodes[p.nodes.size() - 2];
    // (dst rows whole lines apart: the word tiles, jit_ymm_b16_tiles)
    return B.os == 1 && B.is == 16 && A.is == 1 && A.n == 16 && A.os * 2 % 64 == 0 ? plane : 0;
}

// Near B src rows 512 B to under 1 KiB apart on AVX2 (f32 nhwc -> nchw
// of 128 to 255 channels): two B tiles per A tile, as the AVX-512 B-outer
// pairs (b_outer_pairs); the prefetch then fetches the next pair (twice
// the distance). Xeon, single-thread, % of a streaming copy (thread CPU
// time, medians of 30, 3 alternated rounds, load ~9), off / on:
// 16x128x64x64 73-74 / 77-85, 16x192x64x64 even (37-44, another bound);
// 1 KiB rows lost (16x256x64x64 81-82 / 77-79: the pair's 32 KiB and the
// next pair prefetched overflow the L1). Experiment knob
// RELAYOUT_JIT_YMM_B_PAIRS=0: off.
bool jit_ymm_b16_near_pairs(const jit_reorder_desc_t &d, const kernel_plan_t &kp) {
    static const int knob = getenv_int("RELAYOUT_JIT_YMM_B_PAIRS", 1); // experiment knob
    if (knob <= 0 || !d.ymm_b16_pf || !d.bit_copy || !d.nt) return false;
    const int64_t row = kp.micro[1].is * 4;
    return row >= 512 && row < 1024 && kp.micro[1].n % 32 == 0
           && fits32(2 * d.ymm_b16_pf + 32 * row);
}

// Near B src rows on AVX2 (see near_rows_prefetch for AVX-512): f32
// 16xCx64x64, single-thread, % of a streaming copy, A-outer 8x16 tiles ->
// B-outer with the prefetch: nhwc -> nchw C = 96: 52 -> 90, 256: 68 -> 90,
// 512: 65 -> 79, C = 32: 75 -> 73 (noise); nChw32c -> nchw 52 -> 101.
int64_t jit_ymm_b16_near_rows(const jit_reorder_desc_t &d, const kernel_plan_t &kp) {
    if (!d.ymm_b16 || d.in_n != 1 || data_type_size(d.sdt) != 4) return 0;
    const kloop_t &A = kp.micro[0], &B = kp.micro[1];
    const int64_t row = B.is * 4;
    const int64_t BW = jit_ymm_b16_lanes(d);
    if (row < 128 || row >= 4096 || A.total < 32 || A.n % 8 != 0 || B.n % BW != 0) return 0;
    static const int groups = getenv_int("RELAYOUT_JIT_PF_GROUPS", 1);
    const int64_t pf = groups * BW * row;
    return groups > 0 && fits32(pf + BW * row) ? pf : 0;
}

namespace {

// Large AVX-512 transposes of 4-byte elements whose B src rows are near
// (128 B to under a page apart: nhwc -> nchw with 32 to 1023 channels,
// nChw32c -> nchw) and whose A has 32 positions or more: the tiles of one
// B tile (16 rows) read a contiguous block of the src, 16 lines a row
// apart at a time. In the usual A-outer order every line of a row is read
// by another A tile, in B-outer order the rows are read along their
// length, but either way the hardware prefetchers do not fetch the block
// ahead in time (each row is a stream of at most a page). B-outer order
// with an L2 prefetch of the next B tile's rows, single-thread, % of a
// streaming copy: f32 nhwc -> nchw C = 32: 56 -> 88, 96: 42 -> 76,
// 256: 50 -> 83, 512: 49 -> 95; nChw32c -> nchw 58 -> 74. (C = 16, one
// tile of A, reads its block in order already.)
// Returns the prefetch distance in bytes, 0 when the rule does not apply.
int64_t near_rows_prefetch(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    if (d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::transpose) return 0;
    if (!d.nt || d.byte_tile || d.in_n != 1 || d.comp_lanes) return 0;
    if (data_type_size(p.sdt) != 4 || data_type_size(p.ddt) != 4) return 0;
    const kloop_t &A = kp.micro[0], &B = kp.micro[1];
    const int64_t row = B.is * 4;
    if (row < 128 || row >= 4096 || A.total < 32 || A.n < 16 || B.n < 16) return 0;
    static const int groups = getenv_int("RELAYOUT_JIT_PF_GROUPS", 1);
    return groups > 0 ? groups * 16 * row : 0;
}

// Near B src rows in B-outer order (d.b_outer) of streamed f32 bit copies
// whose B src rows are 512 B to 1 KiB apart (nhwc -> nchw of 128 to 256
// channels): two B tiles per A tile, so that each dst row gets two
// adjacent lines per visit (the far-row pairs' idea, jit_far_rows_pair),
// the next pair prefetched; the pair's src block (32 rows) stays within
// L1's 32 KiB. Only where every call's A is whole tiles (A a multiple of
// 16, nothing checked: no edge A tile, which would take one B tile).
// Single-thread, % of a streaming copy, 5 interleaved runs, medians:
// 16x256x64x64 74 -> 88, 16x128x64x128 76 -> 92, 16x192x64x64 90 -> 112;
// two processes at once (both cores) 16x256x64x64 ~76 -> ~90. Lost:
// rows further apart (C = 384: 80 -> 76, 512: 78 -> 73; C = 1024 even),
// cached (2x256x64x64, 16 MB: 78 -> 67); C = 64 even (75 -> 79).
bool b_outer_pairs(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    if (!d.b_outer || !d.nt || !d.bit_copy || d.isa != cpu_isa_t::avx512_core) return false;
    const kloop_t &A = kp.micro[0], &B = kp.micro[1];
    for (int i = 0; i < p.ndims; ++i)
        if (p.check[i]) return false;
    const int64_t row = B.is * 4;
    return row >= 512 && row <= 1024 && A.n % 16 == 0 && A.total % 16 == 0 && B.n >= 32
           && fits32(2 * d.pf_b + 32 * row);
}

// The L2 prefetch distance of narrow rows (bytes; experiment knob
// RELAYOUT_JIT_NARROW_PF, 0 = off). Src rows far apart (nchw -> nhwc:
// each row a stream of its own along A, 32 or 64 of them at once) are
// prefetched ahead along A; near rows (nhwc -> nchw, nChw16c -> nchw:
// a tile's rows are one contiguous block, too short a stream each for
// the hardware prefetchers) a B tile ahead; calls of a few row tiles
// (jit_narrow_rows_lanes: `call_lanes`, 0 for the usual split) the next
// call's block.
int64_t narrow_rows_pf(const jit_reorder_desc_t &d, dim_t call_lanes) {
    static const int knob = getenv_int("RELAYOUT_JIT_NARROW_PF", -1);
    if ((!d.narrow_rows && !d.pair_a && !d.quad_a) || !d.nt) return 0;
    if (knob >= 0) return knob;
    const int64_t isB = d.is[1] * (int64_t)data_type_size(d.sdt);
    if (d.pair_a || d.quad_a) return isB >= 4096 ? 768 : 0;
    return isB < 4096 ? (call_lanes ? d.n[1] : d.narrow_rows) * isB : 768;
}

// Far B src rows (a page or more apart) of a large 4-byte bit copy with
// B = 32 per call (jit_far_rows_pair): each full tile prefetches its 16
// src rows this many bytes ahead along A into L2. The 32 rows of a call
// are more streams than the hardware prefetchers follow (without it, B =
// 32 runs at half the speed of B = 16); into L1 the rows, which alias in
// its sets, evict each other.
int64_t far_rows_prefetch(const jit_reorder_desc_t &d, const plan_t &p) {
    if (!jit_far_rows_pair(d.isa, p) || d.strategy != kernel_strategy_t::transpose || d.pf_rows)
        return 0;
    if (!d.nt || d.byte_tile || d.in_n != 1 || d.pf_b || d.n[1] < 32 || d.is[1] * 4 < 4096)
        return 0;
    if (d.isa != cpu_isa_t::avx512_core) return 0; // (AVX2: the pairs' shape alone)
    static const int dist = getenv_int("RELAYOUT_JIT_PF_ROW", 256); // experiment knob
    return dist;
}

// The element count of the dense block that (stride, count) pairs walk,
// or 0 when they leave holes or overlap (sorted by stride, each stride
// must be the product of the counts below it).
dim_t dense_extent(std::vector<std::pair<dim_t, dim_t>> &lv) {
    std::sort(lv.begin(), lv.end());
    dim_t vol = 1;
    for (const auto &x : lv) {
        if (x.first != vol) return 0;
        vol *= x.second;
    }
    return vol;
}

} // namespace

namespace {

// jit_src_prefetch_ahead; `flat`: the tiles are flattened (whole 16 x 16
// tiles whatever A and B, see jit_flat_b_prefetch_ahead).
dim_t src_block_prefetch(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp,
        bool flat, dim_t max_bytes = 64 * 1024) {
    // (Flattened interleave lanes, jit_flat_b_lanes: B's rows are the
    // folded lanes', in_is apart.)
    const bool lanes = flat && d.strategy == kernel_strategy_t::interleave && d.in_n > 1;
    if ((d.strategy != kernel_strategy_t::transpose && !lanes) || d.byte_tile
            || (d.in_n != 1 && !lanes))
        return 0;
    if (d.pf_b) return 0; // near rows: their own prefetch (near_rows_prefetch)
    if (size_t(p.nelems()) * (data_type_size(p.sdt) + data_type_size(p.ddt)) < nt_threshold_bytes)
        return 0;
    const dim_t T = d.isa == cpu_isa_t::avx512_core ? 16 : 8;
    const dim_t ssz = (dim_t)data_type_size(d.sdt);
    // Tiles of one size (the tiles walk the block in steps of whole
    // lines), B src rows apart (a row per tile line streams on its own).
    auto one_size = [&](dim_t n) { return flat || n % T == 0 || n < T; };
    const dim_t tile = std::min(d.n[0], T) * std::min(d.n[1], T) * ssz;
    const dim_t rows = lanes ? d.in_is : d.is[1];
    if (!one_size(d.n[0]) || !one_size(d.n[1]) || tile % 64 != 0 || rows * ssz < 256) return 0;
    // The src of a call (micro nodes and baked loops) is one dense block...
    std::vector<std::pair<dim_t, dim_t>> lv; // (stride, count)
    for (int m = 0; m < 2; ++m)
        lv.emplace_back(d.is[m], d.n[m]);
    if (lanes) lv.emplace_back(d.in_is, d.in_n);
    for (int l = 0; l < d.nloops; ++l)
        lv.emplace_back(d.loop_is[l], d.loop_n[l]);
    const dim_t vol = dense_extent(lv);
    if (vol == 0) return 0;
    // ... and the next call (the innermost driver node) reads the next one.
    if (kp.driver.empty()) return 0;
    const kloop_t &next = kp.driver.back();
    if (next.tab >= 0 || next.split_of >= 0 || next.is != vol || next.n < 2) return 0;
    const dim_t bytes = vol * ssz;
    if (bytes > max_bytes) return 0;
    return std::max<dim_t>(bytes, 16 * 1024);
}

} // namespace

dim_t jit_src_prefetch_ahead(
        const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    if (d.pf_rows) return d.n[1] * d.is[1] * (dim_t)data_type_size(d.sdt);
    return src_block_prefetch(d, p, kp, false);
}

// desc.pf_rows of far-row blocks (jit_far_rows_blocks): whole calls of
// 16 x 16 tiles, one KiB of each src row (a tile per next-block row), the
// next call (the innermost driver node) the next B block.
int64_t jit_far_block_rows(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    const int64_t ssz = (int64_t)data_type_size(d.sdt);
    if (!jit_far_rows_blocks(d.isa, p) || d.strategy != kernel_strategy_t::transpose || !d.nt
            || d.in_n != 1 || d.byte_tile || d.word_tile || d.word_pair || d.b_outer
            || d.nloops != 0 || d.n[0] * ssz != 1024 || d.n[1] % 16 != 0 || kp.driver.empty())
        return 0;
    const kloop_t &next = kp.driver.back();
    if (next.tab >= 0 || next.split_of != 1 || next.is != d.n[1] * d.is[1]) return 0;
    return fits32(d.n[1] * d.is[1] * ssz + 1024) ? d.is[1] * ssz : 0;
}

// Flattened short-B tiles are all whole 16 x 16 tiles of 16 src lines,
// also where B is more than a tile (5x5: 25, 3x3x3: 27), whose usual tiles
// (16 and 9 or 11 lanes) kept them from the prefetch of the next src block
// (16 rows 1 KiB apart, 25 lines each per call, which the hardware
// prefetchers do not fetch ahead). Prefetched one block ahead in address
// order (16 lines per tile, prefetcht2 as the 3x3 ones): 1024x1024x5x5,
// % of a streaming copy, single-thread 46 -> 67, 2 threads 40 -> 90;
// 512x512x3x3x3 46-53 -> 77, 2 threads 47 -> 88 (two blocks ahead: 2
// threads 59 on 5x5; prefetcht1 the same as t2, prefetcht0 less).
dim_t jit_flat_b_prefetch_ahead(
        const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    static const int knob = getenv_int("RELAYOUT_JIT_FLAT_B_PF", 1); // experiment knob
    if (!d.flat_b || d.pf_ahead || knob <= 0) return d.pf_ahead;
    // (The looped tiles' blocks, 5x5x5: 125 KiB, up to a quarter of the
    // L2 each: the next one fits beside the current one.)
    const dim_t max_bytes = d.flat_b > 16 * flat_unrolled_tiles ? 256 * 1024 : 64 * 1024;
    const dim_t pf = knob * src_block_prefetch(d, p, kp, true, max_bytes);
    return fits32(16 * d.flat_b * 4 + pf) ? pf : 0;
}

dim_t jit_dst_stage_row(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    if (d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::transpose || d.byte_tile
            || d.in_n != 1 || d.n[1] >= 16)
        return 0;
    // Only where the rows then stream as whole lines (in the caches, the
    // stage's extra pass costs more than the partial lines: 2.4 MB: 38%
    // -> 27%, 19 MB: 62% -> 34-46% of a copy).
    if (!d.nt || p.beta != 0.f || p.s8s8_comp || p.zp_comp) return 0;
    for (int m = 0; m < 2; ++m) {
        const kloop_t &k = kp.micro[m];
        if (k.dim >= 0 && p.check[k.dim]) return 0;
    }
    // B's total unsplit: every call's rows are n[1] x loops long.
    if (kp.micro[1].total != kp.micro[1].n) return 0;
    std::vector<std::pair<dim_t, dim_t>> lv; // dst (stride, count) of a row
    lv.emplace_back(d.os[1], d.n[1]);
    for (int l = 0; l < d.nloops; ++l)
        lv.emplace_back(d.loop_os[l], d.loop_n[l]);
    const dim_t row = dense_extent(lv);
    if (row == 0) return 0;
    const dim_t dsz = (dim_t)data_type_size(d.ddt);
    if (d.os[0] < row || row * d.n[0] * dsz > dst_stage_bytes) return 0;
    if (row * dsz % 64 != 0 || d.os[0] * dsz % 64 != 0) return 0;
    return row;
}

// 3x3 filters, oihw -> OIhw16i16o: A = 9 hw positions (src stride 1, dst
// rows 1 KiB apart), the baked i loop 16 x (src 9, dst 16), B = 16 o rows
// 72 KiB apart. The A tiles of 9 rows cost as much as full ones (16 per
// call); flattened, the call is 9 full tiles. (Whole A tiles, 4x4: only
// when large, see jit_reorder_desc_init.)
//
// Word weights (bf16 oihw -> OIhw16i16o 2x2, 3x3: A = 4, 9 hw), and f32
// -> bf16 without scales: the same on AVX-512 (16-bit lanes of the usual
// 16 x 16 tile, cached stores), where the usual tiles loaded 16 lanes of
// each row for 4 or 9 values and stored 4 or 9 of the 16 transposed rows
// per tile.
dim_t jit_flat_a_tiles(const jit_reorder_desc_t &d) {
    if (d.isa != cpu_isa_t::avx512_core && d.isa != cpu_isa_t::avx2) return 0;
    if (d.strategy != kernel_strategy_t::transpose) return 0;
    if (d.byte_tile || d.in_n != 1 || d.comp_lanes || d.beta != 0.f) return 0;
    const dim_t ssz = (dim_t)data_type_size(d.sdt), dsz = (dim_t)data_type_size(d.ddt);
    const bool zmm_words = d.isa == cpu_isa_t::avx512_core && !d.word_tile && !d.word_pair;
    const bool words = zmm_words && d.bit_copy && ssz == 2 && dsz == 2;
    const bool to_bf16 = zmm_words && !d.bit_copy && d.sdt == relayout_f32 && d.ddt == relayout_bf16
                         && !d.src_scale && !d.dst_scale && d.src_zp == 0.f && d.dst_zp == 0.f
                         && d.scale_adjust == 1.f;
    if (!(d.bit_copy && ssz == 4 && dsz == 4) && !words && !to_bf16) return 0;
    if (d.b_outer || d.pf_ahead || d.dst_stage_row) return 0;
    // (Two B tiles, the far-row pairs' 32 rows: AVX-512 f32, see jit_a_run_split.)
    const bool pair = d.n[1] == 32 && d.isa == cpu_isa_t::avx512_core && ssz == 4 && dsz == 4;
    if (d.nloops < 1 || (d.n[1] != 16 && !pair) || d.is[0] != 1) return 0;
    const int L = d.nloops - 1; // the innermost baked loop continues A
    if (d.loop_is[L] != d.n[0]) return 0;
    const dim_t flat = d.n[0] * d.loop_n[L];
    if (flat % 16 != 0 || flat * (d.n[1] / 16) > 16 * 32) return 0; // unrolled: at most 32 tiles
    if (!fits32((d.n[1] - 1) * d.is[1] * ssz + flat * ssz)
            || !fits32(((d.n[0] - 1) * d.os[0] + (d.loop_n[L] - 1) * d.loop_os[L]) * dsz))
        return 0;
    return flat;
}

// AVX2 ran the problems of more than 32 flattened tiles (7x7, 5x5x5) as
// 8x8 tiles with cached stores (rows of 49 / 125 f32 in pieces of lines);
// now gen_flat_b_loop's run-time loop of 8x16 tile pairs
// (gen_ymm_flat_b_loop), each dst row a whole line, streamed when large,
// the next block prefetched. Single-thread, best of 5 interleaved, % of a
// copy: 512x1024x7x7 33 -> 86, 512x512x5x5x5 36 -> 80 (without the
// prefetch 52, 49; two blocks ahead even); in the caches 256x256x7x7 47
// -> 51, 64x64x5x5x5 37 -> 55.
// (5x5, 3x3x3: B = 25, 27: the same, 25 or 27 full tiles instead of 32
// of which 16 partial, and the dst streamed, which the folded loop's
// steps of 25 elements kept cached.)
namespace {

// Whole B tiles (4x4 filters to oihw: B = 16 hw) have no partial tiles to
// save, but flattened (the same tiles in the same order, unrolled) they
// load quads and, streamed, fence in the driver (jit_quad_loads,
// jit_fence_in_driver), which the usual tiles' calls (16 KiB of src,
// each ending with an sfence) did not. AVX-512, streamed only (in the
// caches the unrolled flattened tiles lost for 4x4 oihw -> OIhw16i16o,
// see jit_reorder_desc_init). Single-thread, % of a copy, medians of 5
// interleaved, knob 0 -> 1: 1024x1024x4x4 75 -> 95, 83 -> 92, 92 -> 108,
// 512x1024x4x4 85 -> 105; against the usual tiles with the fence in the
// driver 86 -> 102; 2 threads (wall clock, 7 rounds) 101 -> 144 (noisy).
// Flattened, without the quads and the fence:
// 99 -> 119; quads with a fence per call 107 -> 112. The fence in the
// driver alone for the usual tiles: 85 -> 90, 86 -> 87, 83 -> 89 (2
// threads even).
bool flat_b_whole_tiles(const jit_reorder_desc_t &d) {
    return d.isa == cpu_isa_t::avx512_core && d.nt;
}

} // namespace

// 3x3 filters, OIhw16i16o -> oihw: A = 16 o (src stride 1, one line per
// src row), B = 9 hw (src rows 1 KiB apart, dst stride 1), the baked i
// loop 16 x (src 16, dst 9): each o row of the call is 144 contiguous dst
// elements. The tiles of 9 lanes cost as much as full ones (16 per call)
// and need the dst stage to write whole lines; flattened, the call is 9
// full tiles whose dst rows are whole lines.
dim_t jit_flat_b_tiles(const jit_reorder_desc_t &d) {
    if (d.isa != cpu_isa_t::avx512_core && d.isa != cpu_isa_t::avx2) return 0;
    if (d.strategy != kernel_strategy_t::transpose) return 0;
    if (!d.bit_copy || d.byte_tile || d.in_n != 1 || d.comp_lanes || d.beta != 0.f) return 0;
    if (data_type_size(d.sdt) != 4 || data_type_size(d.ddt) != 4) return 0;
    if (d.b_outer || d.nloops < 1 || d.n[0] != 16 || d.is[0] != 1 || d.os[1] != 1) return 0;
    if (d.n[1] % 16 == 0 && !flat_b_whole_tiles(d)) return 0;
    const int L = d.nloops - 1; // the innermost baked loop continues B in the dst
    if (d.loop_os[L] != d.n[1]) return 0;
    const dim_t flat = d.n[1] * d.loop_n[L];
    // Unrolled: at most 32 tiles; more in a loop, up to a table of
    // flat_b_looped_max positions (AVX2: gen_ymm_flat_b_loop).
    const dim_t max_flat = flat_b_looped_max;
    if (flat % 16 != 0 || flat > max_flat) return 0;
    // The body's src (16 A x B x the loop) one dense block of flat lines
    // (the prefetch ahead walks it in address order).
    std::vector<std::pair<dim_t, dim_t>> lv{ { 1, 16 }, { d.is[1], d.n[1] },
        { d.loop_is[L], d.loop_n[L] } };
    if (dense_extent(lv) != 16 * flat) return 0;
    if (!fits32(16 * flat * 4 + d.pf_ahead) || !fits32((15 * d.os[0] + flat) * 4)) return 0;
    return flat;
}

// OIhw8i8o -> oihw 3x3 on AVX2: A = 8 o (src stride 1, dst rows 9 Ki
// f32 apart), B = 9 hw (src stride 64), the baked loops i (8: src 8, dst
// 9) and I blocks (src 576, dst 72): each o row of a call is one run of
// 2304 f32. The 8x9 tiles (a full one and one shifted back, 16 cached
// rows of 32 bytes per 9 positions) become 8x16 pairs of whole lines,
// two I blocks (144 positions: 9 pairs) per step. Xeon, 1024x1024x3x3,
// single-thread, % of a streaming copy (thread CPU time, medians of 20,
// 3 interleaved rounds, load ~9): 55-56 -> 84-87. Structural (fewer
// shuffles and stores, whole lines): not vendor-gated. Knob
// RELAYOUT_JIT_YMM_FLAT_STEPS=0: off.
dim_t jit_ymm_flat_steps(const jit_reorder_desc_t &d) {
    static const bool on = getenv_int("RELAYOUT_JIT_YMM_FLAT_STEPS", 1) != 0; // experiment knob
    if (!on || d.isa != cpu_isa_t::avx2 || d.strategy != kernel_strategy_t::transpose) return 0;
    if (!d.bit_copy || d.in_n != 1 || d.comp_lanes || d.beta != 0.f) return 0;
    if (data_type_size(d.sdt) != 4 || data_type_size(d.ddt) != 4) return 0;
    if (d.n[0] != 8 || d.n[1] % 8 == 0 || d.os[1] != 1 || d.nloops < 2) return 0;
    if (d.b_outer || d.flat_a || d.flat_b || d.dst_stage_row || d.ymm_b16 || d.f32_lines) return 0;
    const int L = d.nloops - 1, M = L - 1;
    const dim_t run = d.n[1] * d.loop_n[L]; // (one iteration of M)
    if (d.loop_os[L] != d.n[1] || d.loop_os[M] != run) return 0;
    dim_t G = 1;
    while (G * run % 16 != 0)
        G *= 2;
    const dim_t F = G * run;
    if (d.loop_n[M] % G != 0 || F > 16 * flat_unrolled_tiles) return 0;
    const dim_t reach =
            (d.n[1] - 1) * d.is[1] + (d.loop_n[L] - 1) * d.loop_is[L] + (G - 1) * d.loop_is[M] + 8;
    if (!fits32(reach * 4) || !fits32(G * d.loop_is[M] * 4) || !fits32((7 * d.os[0] + F) * 4))
        return 0;
    return F;
}

// The flattened tiles' 16 x 16 transposes were much of their time
// (without the transposes, single thread, % of a copy: 2048x2048x3x3 to
// oihw 74 -> 80, 1024x1024x5x5 63 -> 79): with the quads placed by the
// loads, 2048x2048x3x3 68 -> 78, 1024x1024x5x5 76 -> 85, oihw ->
// OIhw16i16o 1024x1024x4x4 81 -> 86 (medians of 7 interleaved). The
// usual tiles (OIhw16i16o -> oihw 4x4, nchw -> nChw16c) were even: not
// taken. The flattened interleave lanes (2x2 to oihw, jit_flat_b_lanes:
// calls of 4 tiles, 4 KiB of src) too, which also lets their streamed
// calls end without the sfence (jit_fence_in_driver): single-thread,
// without -> with the quads, medians of 5 interleaved, % of a
// copy: 2048x2048x2x2 76 -> 95, 68 -> 84, 72 -> 88; 2048x1536x1x2 55 ->
// 88; 2 threads (wall clock, a copy on both cores, 7 rounds) 80 -> 94.
// Quads with a fence per call (RELAYOUT_JIT_CALL_FENCE=1) 73 -> 81.
bool jit_quad_loads(const jit_reorder_desc_t &d) {
    if (d.isa != cpu_isa_t::avx512_core) return false;
    if (d.strategy == kernel_strategy_t::interleave) return d.flat_b;
    // (The flattened word tiles load their rows zero-extended.)
    const bool flat_a = d.flat_a && data_type_size(d.sdt) == 4;
    return d.strategy == kernel_strategy_t::transpose && (flat_a || d.flat_b);
}

// Masked loads from memory are slow on Zen 4 whatever the mask: a stream
// of them (a standalone model, 256 MiB, one line per load) ran at about
// 40% of the same loads unmasked (zmm 12-16 vs 28-39 GB/s, ymm and
// vmaskmovps the same), as if the hardware prefetchers did not follow
// them; an L2 prefetch 512 B to 2 KiB ahead restored the speed, and in
// L1 / L2 a masked load costs what the unmasked one of its full width
// does (a line split included, masked off or not). The full tiles of an
// A shorter than a tile load their rows through k5 (TA lanes), every
// load of the stream masked; unmasked, the extra lanes read the next
// rows' bytes, inside the src wherever they end before the tile's
// farthest row does (all rows but the last one to three of contiguous
// rows), and land in transposed rows that are never stored. Knob off /
// on, single-thread / 2 threads, % of a copy, medians of 5 interleaved
// (benchdnn_lite): oihw -> OIhw16i16o 2048x2048x3x3 bf16 43 -> 56 / 37
// -> 59, f32 -> bf16 45 -> 50 / 42 -> 52, s8 38 -> 44 / 35 -> 36, f32
// oihw -> OIhw8i8o 38 -> 46 / 43 -> 66; in the caches (256x256x3x3)
// bf16 40 -> 44, OIhw8i8o 132 -> 138 / 176 -> 216. reorder_bench (x
// oneDNN, 5 rounds, busy): bf16 1.59 -> 1.68 / 1.54 -> 1.74, f32 ->
// bf16 1.41 -> 1.61 / 1.25 -> 1.44, s8 1.72 -> 2.68 / even, OIhw8i8o
// 0.82 -> 0.94 / 0.80 -> 0.87.
bool jit_a_rows_unmasked(const jit_reorder_desc_t &d) {
    return d.isa == cpu_isa_t::avx512_core && d.n[0] < 16 && 2 * d.n[0] != 16
           && (d.strategy == kernel_strategy_t::transpose
                   || d.strategy == kernel_strategy_t::interleave);
}

// OIhw16o16i -> oihw 3x3: A = 16 i (src stride 1, dst stride 9), B = 9
// hw (src rows 1 KiB apart, dst stride 1): the dst rows of a tile are
// adjacent, its 16 x 9 elements one dense run of 9 lines. The full tiles
// stored 16 masked rows of 9 lanes, cached (each dst line read for
// ownership); packed, the rows go to a stack buffer unmasked, in order
// (each row's dead lanes overwritten by the next row), and the run to
// the dst as 9 whole lines, streamed when large.
// OIhw16o16i -> ohwi 3x3 (a copy of 16 f32 per position): the baked hw and
// I loops read a line of each of 576 src blocks 9 KiB apart per call, the
// next call (o) the next line of each; with the o loop baked innermost a
// call reads 64 whole blocks (kernel_plan_params_t::copy_run_loop).
bool jit_copy_run_loop() {
    static const bool on = getenv_int("RELAYOUT_JIT_COPY_RUN_LOOP", 1) != 0; // experiment knob
    return on;
}

// oihw -> hwio 3x3 (A = 9 hw, B = o rows 36 KiB apart, 1024 i of src
// stride 9): the i loop was left to the driver, outside the o blocks, and
// each call (9 x 32) read 36 bytes of 32 rows and wrote 9 pairs of lines
// 4 MiB apart. With a block of 16 i baked, each row's 144 elements are 9
// whole tiles (jit_flat_a_tiles).
bool jit_a_run_split() {
    static const bool on = getenv_int("RELAYOUT_JIT_A_RUN_SPLIT", 1) != 0; // experiment knob
    return on;
}

// The copy blocks inner of AVX-512 f32 bit copies (jit_plan_params)
// for AVX-512 copies converting f32 to bf16 / f16 / s8 / u8
// (nhwc -> nChw16c: a run of 16 channels per position, the positions
// 1 KiB apart, the halves of a plane 2 MiB apart in the driver; hwio ->
// OIhw16i16o): consecutive calls read the next line of the same src rows.
// reorder_bench (Xeon, 2 threads, busy, knob off / on, 4 interleaved
// rounds, medians, x oneDNN): f32 -> bf16 nhwc -> nChw16c 16x256x64x64
// 1.20 -> 1.29, -> s8 1.10 -> 1.34, hwio -> OIhw16i16o bf16 1024^2x3x3
// 1.04 -> 1.25. Knob RELAYOUT_JIT_CVT_BLOCKS_INNER=0: off.
bool jit_cvt_blocks_inner(cpu_isa_t isa, const plan_t &p) {
    static const bool on = getenv_int("RELAYOUT_JIT_CVT_BLOCKS_INNER", 1) != 0; // experiment knob
    return on && isa == cpu_isa_t::avx512_core && !p.bit_copy && data_type_size(p.sdt) == 4
           && data_type_size(p.ddt) < 4;
}

// nhwc -> nChw8c / nChw16c (a run of 8 or 16 c per position, rows of
// 256 c 1 KiB apart): each call read one piece of each of 2048-4096 src
// rows and the C blocks of the same rows followed in other calls; a call
// now reads a block of whole rows and writes a line of each C block
// (kernel_plan_params_t::copy_src_rows). AVX-512 bit copies, and
// conversions of 16 4-byte elements per position (to 2- and 1-byte dsts
// the short copy assembles 2 or 4 positions into a line). (Not from
// bytes: s8 -> f32 nChw16c, 2 threads, 0.75-0.94x.)
dim_t jit_copy_src_rows(cpu_isa_t isa, const plan_t &p) {
    static const int call = getenv_int("RELAYOUT_JIT_SRC_ROWS", 32768); // experiment knob
    if (vector_isa(isa) != cpu_isa_t::avx512_core || p.nodes.empty()) return 0;
    return p.bit_copy || (data_type_size(p.sdt) == 4 && p.nodes.back().n == 16) ? call : 0;
}

// ... and their tiles' A blocks (kernel_plan_params_t::a_blocks_inner, as
// the AVX2 tiles take them): hwio -> OIhw4i16o4i f32 -> s8 3x3 read 16 o
// (one line) of 16 i rows 4 KiB apart x 9 hw 4 MiB apart per call and
// the next call as many new pages (the I blocks innermost); with the O
// blocks innermost it reads the next line of the same rows.
// reorder_bench (Xeon, 2 threads, load 9-13, knob off / on, 4
// alternated rounds, medians of the rl GB/s ratio; x oneDNN): s8
// 1024^2x3x3 1.47x (2.2 -> 3.3), 2048^2x3x3 with a scale 1.64x (3.0 ->
// 4.3), 512^2x3x3 (in L2) 1.03x; hwio -> OIhw8i16o2i bf16 1024^2x3x3
// 1.48x. Not measured on AMD (fewer pages per call: no host-specific
// choice). Knob RELAYOUT_JIT_CVT_A_BLOCKS_INNER=0: off.
bool jit_cvt_a_blocks_inner(cpu_isa_t isa, const plan_t &p) {
    static const bool on = getenv_int("RELAYOUT_JIT_CVT_A_BLOCKS_INNER", 1) != 0; // experiment knob
    return on && jit_cvt_blocks_inner(isa, p);
}

// oihw <-> OIhw8i8o 3x3: 8 o x 8 i x 9 hw = 576 elements (2.3 KiB) per
// call, 16384 calls for 1024 x 1024; the loop of the I blocks (continuing
// each o row in the src, or in the dst) then gives a block of its
// iterations to each call, as the short copies do.
dim_t jit_min_tile_call() {
    static const int v = getenv_int("RELAYOUT_JIT_MIN_TILE_CALL", 1024); // experiment knob
    return v;
}

bool jit_packed_rows(const jit_reorder_desc_t &d) {
    if (d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::transpose) return false;
    if (!d.bit_copy || d.byte_tile || d.in_n != 1 || d.comp_lanes || d.beta != 0.f) return false;
    if (data_type_size(d.sdt) != 4 || data_type_size(d.ddt) != 4) return false;
    if (d.flat_a || d.flat_b || d.dst_stage_row || d.f32_lines || d.few_b || d.b_outer)
        return false;
    // (Streamed kernels only: the gain is whole lines not read for
    // ownership. B of 8 runs on the 8x8 ymm tiles, whose adjacent rows are
    // whole streamed lines already.)
    return d.nt && d.n[0] >= 16 && d.n[1] > 8 && d.n[1] < 16 && d.os[0] == d.n[1] && d.os[1] == 1;
}

// OIhw16o16i -> oihw 3x3 on AVX2: the two A tiles' full and shifted 8x8
// tiles stored 32 rows of 8 f32, cached, for the call's 144 dense dst
// elements (every line read for ownership); packed through the stack they
// are 9 whole lines, streamed. A call (one o) reads one line per KiB of
// src, the calls of the next o the lines after them: each line read is
// prefetched 2 lines (o) on into L2 (ymm_packed_pf; 1, 3, 4 and 16
// lines on were slower). Xeon, 1024x1024x3x3, single-thread, % of a streaming
// copy (thread CPU time, medians of 20, interleaved rounds): 38-40 ->
// packed 45-46 -> with the prefetch 56-60. Knob RELAYOUT_JIT_YMM_PACKED=0:
// off.
bool jit_ymm_packed_rows(const jit_reorder_desc_t &d, bool nt) {
    static const bool on = getenv_int("RELAYOUT_JIT_YMM_PACKED", 1) != 0; // experiment knob
    if (!on || !nt || d.isa != cpu_isa_t::avx2 || d.strategy != kernel_strategy_t::transpose)
        return false;
    if (!d.bit_copy || d.in_n != 1 || d.comp_lanes || d.beta != 0.f) return false;
    if (data_type_size(d.sdt) != 4 || data_type_size(d.ddt) != 4) return false;
    if (d.flat_a || d.flat_b || d.dst_stage_row || d.f32_lines || d.few_b || d.b_outer
            || d.ymm_flat_step || d.ymm_b16)
        return false;
    return d.n[0] == 16 && d.is[0] == 1 && d.n[1] > 8 && d.n[1] < 16 && d.os[0] == d.n[1]
           && d.os[1] == 1 && fits32(d.n[1] * d.is[1] * 4);
}

// An sfence at the end of each call waits for the call's streaming stores
// to drain before the next call's loads can overlap them. Every streamed
// kernel leaves it to the driver, which fences each thread once after its
// last call. First for the short calls of the flattened tiles (3x3 to
// oihw: 9 KiB of src; single thread, quad loads on, medians of 7
// interleaved, % of a copy: 2048x2048x3x3 to oihw 80 -> 91, 1024x1024x5x5
// 75 -> 87) and the run tiles (single thread 1.20x); then for all (Xeon,
// 2 threads, 3 alternated rounds: 1024x1024x3x3 OIhw16o16i -> oihw 39 ->
// 50 GB/s, x oneDNN 0.95 -> 1.19-1.36; the other streamed f32 rows even
// to 1.02x). Knob RELAYOUT_JIT_CALL_FENCE=1: per call again.
bool jit_fence_in_driver(const jit_reorder_desc_t &d) {
    static const bool per_call = getenv_int("RELAYOUT_JIT_CALL_FENCE", 0) != 0; // experiment knob
    return !per_call && d.nt;
}

// The general copy loops over a call's run with run-time bounds and ends
// in a masked tail: per position of a baked loop, a run of 8 f32 (nChw8c
// -> nChw16c) went through the masked tail every time, and a run of 16
// (nhwc -> nChw16c) stored cached. Short runs (at most four vectors) of
// whole calls run straight-line instead, streamed as whole lines where the
// copy streams.
bool jit_short_copy(const jit_reorder_desc_t &d) {
    if (d.strategy != kernel_strategy_t::copy || d.nloops < 1) return false;
    const int W = d.isa == cpu_isa_t::avx512_core ? 16 : 8;
    if (d.bit_copy) return d.n[0] * (dim_t)data_type_size(d.sdt) <= 4 * W * 4;
    return d.n[0] % W == 0 && d.n[0] <= 4 * W;
}

// Runs of half or a quarter line (nChw8c -> nChw16c: 8 f32 from each of
// two src blocks; s8 nChw16c -> nhwc: 16 bytes from each of 16 blocks)
// whose dst continues along the innermost baked loop: each body assembles
// one whole line from that loop's positions, streamed where the copy
// streams, instead of cached pieces of lines.
int jit_short_unroll(const jit_reorder_desc_t &d) {
    const int in = d.nloops - 1; // the innermost baked loop
    if (in < 0 || d.loop_os[in] != d.n[0]) return 1;
    // Conversions (AVX-512): one vector per position into 2- or 1-byte
    // lanes (f32 -> bf16 nhwc -> nChw16c: 32 bytes per position).
    const dim_t dsz = (dim_t)data_type_size(d.ddt);
    if (!d.bit_copy && (d.isa != cpu_isa_t::avx512_core || d.n[0] != 16 || (dsz != 1 && dsz != 2)))
        return 1;
    const dim_t P = d.n[0] * (d.bit_copy ? (dim_t)data_type_size(d.sdt) : dsz);
    if (P != 16 && P != 32) return 1;
    const int u = (int)(64 / P);
    if (d.loop_n[in] % u != 0 || !fits32(u * d.loop_is[in] * (dim_t)data_type_size(d.sdt)))
        return 1;
    return u;
}

// 2x2 filters, OIhw16i16o -> oihw: an interleave, B = 16 i under 4
// folded hw lanes (src rows 1 KiB apart), the lanes dst-contiguous: each o
// row of the call is 64 contiguous elements. The usual tiles (row tiles)
// wrote them from 64-lane rows; flattened, lane k (hw k % 4 of i k / 4)
// reads its 16 o from one src line, the call is 4 whole 16 x 16 tiles
// whose dst rows are whole lines, streamed, with the next src block
// prefetched (jit_flat_b_prefetch_ahead).
namespace {

// The shapes the flattened interleave lanes take, on either ISA: f32
// bit-copy lanes of 16 src-contiguous rows whose in-block positions
// continue in the dst, streamed (`nt`; in the caches they were even or
// lost, single-thread, % of a copy, 512x512x2x2 75-77 -> 69-75,
// 1024x1024x2x2 71-80 -> 71-76), at most flat_unrolled_tiles tiles.
dim_t flat_b_lanes_shape(const jit_reorder_desc_t &d, bool nt) {
    if (d.strategy != kernel_strategy_t::interleave) return 0;
    if (!d.bit_copy || d.byte_tile || d.in_n < 2 || d.comp_lanes || d.beta != 0.f) return 0;
    if (data_type_size(d.sdt) != 4 || data_type_size(d.ddt) != 4) return 0;
    if (d.n[0] != 16 || d.is[0] != 1 || d.os[1] != d.in_n) return 0;
    if (!nt) return 0;
    const dim_t flat = d.n[1] * d.in_n;
    if (flat % 16 != 0 || flat > 16 * flat_unrolled_tiles) return 0;
    std::vector<std::pair<dim_t, dim_t>> lv{ { 1, 16 }, { d.is[1], d.n[1] }, { d.in_is, d.in_n } };
    if (dense_extent(lv) != 16 * flat) return 0;
    if (!fits32(16 * flat * 4 + 64 * 1024) || !fits32((15 * d.os[0] + flat) * 4)) return 0;
    return flat;
}

} // namespace

dim_t jit_flat_b_lanes(const jit_reorder_desc_t &d) {
    if (d.isa != cpu_isa_t::avx512_core) return 0;
    return flat_b_lanes_shape(d, d.nt);
}

// AVX2: the same lanes (flat_b_lanes_shape, with the AVX2 tiles'
// streaming decision before the ymm lines rule, `nt_lines`) as the AVX2
// flattened short-B tiles take them
// (gen_transpose_flat_b: each 16 lanes two 8x16 tile pairs, each dst row
// a whole line of two back-to-back stores). Single-thread, best of 5
// interleaved, % of a copy: 2048x2048x2x2 45 -> 86 (without the prefetch
// 48).
namespace {

dim_t jit_ymm_flat_b_lanes(const jit_reorder_desc_t &d, bool nt_lines) {
    if (d.isa != cpu_isa_t::avx2) return 0;
    return flat_b_lanes_shape(d, nt_lines);
}

} // namespace

// The calls of flattened tiles read 16 rows far apart (3x3: 72 KiB), 9
// lines of each, and the next call the next 9 lines of the same rows: 16
// short streams the hardware prefetchers do not fetch ahead in time (the
// first tile of each call waited for its loads). Large problems (dst
// streamed) prefetch each line two calls ahead into L2: 2048x2048x3x3,
// single-thread, % of a streaming copy: 72-75 -> 79-82 (one call ahead:
// 80, into L1: 61; in the caches no gain).
namespace {

// (Also the flattened rows to bytes, see jit_reorder_desc_init: the
// call's rows are `flat` elements, the next call's the next ones.)
// An AVX-512 split interleave's call (jit_split_interleaves) bakes a
// block of that node as its outermost loop, the driver keeps the blocks:
// the same distance then reaches two iterations ahead within the call,
// past its end into the next block's rows. The flattened short-A
// tiles' split calls likewise (jit_o16_block_call; 1024x1024x3x3,
// single-thread, calls of 16 blocks: 1.14x main without the prefetch,
// 1.16x with it). (Not the other split calls: AVX2 short tiles, the other
// f32 bit copies' min_tile_call; not measured.)
dim_t flat_rows_prefetch(const jit_reorder_desc_t &d, const kernel_plan_t &kp, dim_t flat) {
    if (!flat || !d.nt || kp.driver.empty()) return 0;
    const kloop_t &next = kp.driver.back();
    if (next.tab >= 0 || next.split_of >= 0) return 0;
    const bool split_calls = d.strategy == kernel_strategy_t::interleave
                             || (d.strategy == kernel_strategy_t::transpose && flat == d.flat_a);
    const bool split = d.isa == cpu_isa_t::avx512_core && split_calls && kp.loops.size() >= 2
                       && kp.loops.front().is == flat && kp.loops.front().n >= 2
                       && next.is == flat * kp.loops.front().n;
    if (!split && (next.is != flat || next.n < 2)) return 0;
    const dim_t ssz = (dim_t)data_type_size(d.sdt);
    const dim_t dist = 2 * flat * ssz;
    return fits32(15 * d.is[1] * ssz + flat * ssz + dist) ? dist : 0;
}

} // namespace

dim_t jit_flat_a_prefetch(const jit_reorder_desc_t &d, const kernel_plan_t &kp) {
    return flat_rows_prefetch(d, kp, d.flat_a);
}

// bf16 oihw -> OIhw16i16o 2x2 / 3x3 (A = 4 / 9 hw, the baked i loop of src
// stride A, dst 16: half lines) ran as the flattened short-A tiles: words
// zero-extended into the dword tile (a shuffle each), a 16 x 16 dword
// transpose per 16 positions and a narrowing half-line store (two
// shuffles) per position, cached: ~450 shuffles per 2 KiB. Paired, the
// same 2 KiB take 32 word permutes, two transposes and 32 permutes of
// the transposed lines (16i16o; none for 8i16o2i, whose dwords are
// already (i = 2j, 2j + 1) of one o), each dst line one whole store,
// streamed when large. OIhw8i16o2i (interleave: the i pair as two lanes
// of src stride A) had A masked rows of 32 lanes per line (9 of 16).
// Whole A tiles (4x4) keep their tiles.
// oihw -> OIhw16o16i 3x3 (A = 9 hw, src stride 1, dst rows 1 KiB apart;
// B = 16 i of src stride 9, dst-unit; the baked o loop) and oihw -> ohwi
// (B = the 1024 i): the tiles loaded each B row's 9 elements at 36-byte
// steps (half the loads across two lines) and transposed 16 x 16 for 9
// rows (57 shuffles). A tile's B rows are one run of 144 elements: 9
// aligned loads, 36 permutes (gen_run_deal). In L2 the tiles were faster
// (single-thread, knob off / on: 128x128x3x3 0.85x, 192x192 and 256x256
// 0.94-0.95x; 512x512, 19 MB: 1.20x): only from run_deal_min_bytes.
int jit_run_deal(const jit_reorder_desc_t &d, size_t bytes) {
    static const bool on = getenv_int("RELAYOUT_JIT_RUN_DEAL", 1) != 0; // experiment knob
    if (!on || bytes < run_deal_min_bytes || d.isa != cpu_isa_t::avx512_core
            || d.strategy != kernel_strategy_t::transpose)
        return 0;
    if (!d.bit_copy || d.byte_tile || d.in_n != 1 || d.comp_lanes || d.beta != 0.f) return 0;
    if (data_type_size(d.sdt) != 4 || data_type_size(d.ddt) != 4) return 0;
    if (d.n[0] != 9 || d.is[0] != 1 || d.is[1] != 9 || d.os[1] != 1 || d.n[1] % 16 != 0) return 0;
    if (d.flat_a || d.flat_b || d.dst_stage_row || d.b_outer || d.pf_ahead || d.f32_lines) return 0;
    return fits32(8 * d.os[0] * 4) && fits32(d.n[1] * 9 * 4) ? 9 : 0;
}

// oihw -> OIhw8i8o 3x3 (A = 9 hw, src stride 1, dst rows of 64 lanes;
// B = 8 i of src stride 9 over the 8 o lanes, 36 KiB apart at 1024 i):
// the row tiles loaded each of a row's 64 lanes as 16 elements at 36-byte
// steps (two thirds across two lines) for 9 and transposed 16 x 16 per
// 16 lanes. Each o row of a block is one run of 72: 9 aligned half-vector
// loads per row pair, 108 shuffles per 36 lines (gen_o8_chunks).
int jit_o8_chunks(const jit_reorder_desc_t &d) {
    static const bool on = getenv_int("RELAYOUT_JIT_O8_CHUNKS", 1) != 0; // experiment knob
    if (!on || d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::interleave)
        return 0;
    if (!d.bit_copy || d.byte_tile || d.comp_lanes || d.beta != 0.f) return 0;
    if (data_type_size(d.sdt) != 4 || data_type_size(d.ddt) != 4) return 0;
    if (d.in_n != 8 || d.n[1] != 8 || d.os[1] != 8 || d.is[0] != 1 || d.is[1] != d.n[0]) return 0;
    if (d.n[0] < 2 || d.n[0] > 32) return 0; // (the live chunks' registers)
    if (d.b_outer || d.flat_b || d.dst_stage_row || d.pf_ahead || d.narrow_rows) return 0;
    return fits32(8 * d.in_is * 4) && fits32(d.n[0] * (d.os[0] + 16) * 4) ? (int)d.n[0] : 0;
}

// AVX-512 f32 weights from plain oihw / goihw to blocks of o innermost
// (OIhw8i8o: the chunk lines; OIhw16i16o, gOIhw16i16o: the flattened
// short-A tiles with quad loads) stream from nt_threshold_bytes as the
// other bit copies do. Cached stores ran them at 1.00-1.02x oneDNN at
// 75 MB in a quiet window (session 17: the benchmark's dst, reused every
// iteration, stays in the 480 MiB L3 of the Xeon) but lost at every size
// measured, 75, 94 and 113 MB (Xeon, reorder_bench, busy host, 3
// alternated rounds, relayout GB/s cached / streamed, medians): 2
// threads OIhw8i8o 0.88, 0.61, 0.56, OIhw16i16o 0.45, 0.48, 0.35; 1
// thread 0.77, 0.54, 0.53 and 0.50, 0.45, 0.43; with the src and dst
// flushed before each run (a dst written once, --cold, 2 threads) 0.50,
// 0.52, 0.51 and 0.49, 0.46, 0.43. Not taken; the knob keeps the cached
// path for A/B: RELAYOUT_JIT_O_CACHED_MIB, cached below that many MiB
// (src + dst), on any CPU (default 0: never).
size_t jit_o_cached_bytes() {
    static const int knob = getenv_int("RELAYOUT_JIT_O_CACHED_MIB", 0); // experiment knob
    return size_t(std::max(knob, 0)) << 20;
}

bool jit_o_lines_cached(const jit_reorder_desc_t &d, size_t bytes) {
    if (!d.nt || bytes >= jit_o_cached_bytes() || d.isa != cpu_isa_t::avx512_core || !d.bit_copy)
        return false;
    if (data_type_size(d.sdt) != 4 || data_type_size(d.ddt) != 4) return false;
    if (d.o8_chunks) return true;
    return d.strategy == kernel_strategy_t::transpose && d.quad_ld && d.flat_a && d.is[0] == 1
           && d.os[1] == 1;
}

// The chunk lines come out t-major: per block (A = 9: 36 lines, 2304
// bytes) 4 passes over its dst, a line in 4 (256 bytes apart). Streamed,
// that order cost 15% against a copy: single-thread 1024x1024x3x3,
// timing-only, the same lines written in address order (wrong values)
// ran at 100% of a streaming copy, the kernel at 84-86%. So streamed
// calls stage a block's lines (L1, on the stack) and copy them out in
// address order: 36 more loads and stores per block in the L1 for
// streams that fill whole lines back to back. Measured on the Intel Xeon
// only (see docs/ARCHITECTURE.md §11): other CPUs keep the t-major
// stores. Knob RELAYOUT_JIT_O8_ORDER: 1 on, 0 off, unset: by vendor.
bool jit_o8_in_order(const jit_reorder_desc_t &d) {
    static const int knob = getenv_int("RELAYOUT_JIT_O8_ORDER", -1); // experiment knob
    return d.o8_chunks != 0 && d.nt && by_vendor(knob, 1, 0) != 0;
}

// oihw -> OIhw8o8i (goihw -> gOIhw8o8i; A = hw of src stride 1, dst
// lines of 8 o x 8 i per hw; B = 8 o, rows 36 KiB apart at 1024 i, over
// 8 i lanes of src stride A): the row tiles loaded 16 rows at 36-byte
// steps per 9 lines (3x3: two thirds across two lines), transposed 16 x
// 16 and stored each tile's lines t-major, a line in 4 of the block's
// dst. Each o row of a block is one run of 8 A: read in windows of 8
// columns of each i group (8 half-vector loads per row, 3 shuffles per
// line) and, streamed, stored in address order (gen_o8i_rows). A of 8
// to 64 (3x3, 4x4, 5x5, 7x7; 1x1 and 2x2 are other plans). Knob
// RELAYOUT_JIT_O8I_ROWS: 0 off, 1 on, 2 on without the stage (timing).
static int o8i_rows_knob() {
    static const int knob = getenv_int("RELAYOUT_JIT_O8I_ROWS", 1); // experiment knob
    return knob;
}

int jit_o8i_rows(const jit_reorder_desc_t &d) {
    if (o8i_rows_knob() == 0 || d.isa != cpu_isa_t::avx512_core
            || d.strategy != kernel_strategy_t::interleave)
        return 0;
    if (!d.bit_copy || d.byte_tile || d.comp_lanes || d.beta != 0.f) return 0;
    if (data_type_size(d.sdt) != 4 || data_type_size(d.ddt) != 4) return 0;
    if (d.in_n != 8 || d.in_is != d.n[0] || d.n[1] != 8 || d.os[1] != 8 || d.is[0] != 1) return 0;
    if (d.n[0] < 8 || d.n[0] > 64 || d.o8_chunks) return 0;
    if (d.b_outer || d.flat_b || d.dst_stage_row || d.pf_ahead || d.narrow_rows) return 0;
    return fits32(8 * d.is[1] * 4) && fits32(d.n[0] * (d.os[0] + 16) * 4) ? (int)d.n[0] : 0;
}

bool jit_o8i_staged(const jit_reorder_desc_t &d) {
    return d.o8i_rows != 0 && d.nt && o8i_rows_knob() != 2;
}

// The run tiles stored each tile's 9 dst rows, a line each, and went on
// to the next tile: 9 rows 4 KiB (ohwi) or 1 KiB (OIhw16o16i) apart
// visited per 64 bytes. In pairs each row visit stores two adjacent
// lines: ohwi's B tiles two by two (B of 32 or more; an odd last tile
// alone), OIhw16o16i's innermost baked loop (o: dst step a line) folded
// into the tile loop. Xeon, single-thread (benchdnn_lite min of 40, 3
// rounds, knob off / on): 1024x1024x3x3 ohwi and OIhw16o16i 1.14-1.16x.
// Not taken: the tiles in 3 passes of 3 rows each (src again from L1;
// ohwi 1.17x, OIhw16o16i 1.12x), 4 tiles per row visit in 3 passes
// (even with the pairs). Knob RELAYOUT_JIT_RUN_PAIRS=0: off.
bool jit_run_pairs(const jit_reorder_desc_t &d) {
    static const bool on = getenv_int("RELAYOUT_JIT_RUN_PAIRS", 1) != 0; // experiment knob
    if (!on || !d.run_deal) return false;
    if (d.n[1] >= 32) return fits32(2 * 16 * d.is[1] * 4);
    const int L = d.nloops - 1;
    return d.n[1] == 16 && L >= 0 && d.loop_os[L] * 4 == 64 && d.loop_n[L] >= 2
           && fits32(2 * d.loop_is[L] * 4);
}

// oihw -> OIhw16i16o 3x3 (the flattened short-A tiles with quad loads,
// jit_flat_a_tiles): a call was one (O, I) block, 16 o rows of 9 lines
// (9 KiB of src and dst, 4096 calls for 1024 x 1024), which cost about
// as much again as the tiles; a block of up to 32 I blocks per call
// (72 KiB of each row's run: 288 KiB), the rows' L2 prefetch running on
// through them (flat_rows_prefetch). Xeon, benchdnn_lite min of 40, 3-4
// alternated rounds against main, speedups of the medians: 1024x1024x3x3
// single-thread 1.17x (8 blocks 1.14x, 2: 1.09x), 2 threads 1.15x (8
// blocks); 2048x2048x3x3 1.37x / 1.16x, goihw 32x256x256x3x3 1.24x /
// 1.13x, 512x512x3x3 (in the caches) 1.07x / 1.11x. Fewer calls, the same
// loads and stores: not vendor-gated. Knob RELAYOUT_JIT_O16_BLOCKS: blocks
// per call, 0 off.
dim_t jit_o16_block_call(cpu_isa_t isa, const plan_t &p) {
    static const int knob = getenv_int("RELAYOUT_JIT_O16_BLOCKS", 32); // experiment knob
    if (knob <= 0 || vector_isa(isa) != cpu_isa_t::avx512_core || !p.bit_copy) return 0;
    if (data_type_size(p.sdt) != 4 || data_type_size(p.ddt) != 4 || p.nodes.size() < 3) return 0;
    // o (16, dst-unit) innermost, i (16, src stride A) next, hw (A, src-unit).
    const node_t &o = p.nodes.back(), &i = p.nodes[p.nodes.size() - 2];
    if (o.os != 1 || o.n != 16 || o.tab >= 0 || i.os != 16 || i.n != 16 || i.tab >= 0) return 0;
    for (const node_t &a : p.nodes)
        if (a.is == 1 && a.os == 256 && a.n == i.is && a.tab < 0) return dim_t(knob) * 256 * a.n;
    return 0;
}

// The row windows (jit_o8i_rows) of 5x5 and 7x7 (an (O, I) block of 6.4
// and 12.5 KiB) took one block per call, the I blocks in the driver (3x3:
// 32 per call, under the bake limit): a block of up to 32 I blocks per
// call, as the OIhw16i16o weights' (jit_o16_block_call). Knob
// RELAYOUT_JIT_O8I_BLOCKS: blocks per call, 0 off (also off with the
// row windows).
dim_t jit_o8i_block_call(cpu_isa_t isa, const plan_t &p) {
    static const int knob = getenv_int("RELAYOUT_JIT_O8I_BLOCKS", 32); // experiment knob
    if (knob <= 0 || o8i_rows_knob() == 0 || vector_isa(isa) != cpu_isa_t::avx512_core
            || !p.bit_copy)
        return 0;
    if (data_type_size(p.sdt) != 4 || data_type_size(p.ddt) != 4 || p.nodes.size() < 3) return 0;
    // i (8, dst-unit, src stride A) innermost, o (8, dst stride 8) next,
    // hw (A, src-unit, dst stride 64).
    const node_t &i = p.nodes.back(), &o = p.nodes[p.nodes.size() - 2];
    if (i.os != 1 || i.n != 8 || i.tab >= 0 || o.os != 8 || o.n != 8 || o.tab >= 0) return 0;
    for (const node_t &a : p.nodes)
        if (a.is == 1 && a.os == 64 && a.n == i.is && a.n >= 8 && a.tab < 0)
            return dim_t(knob) * 64 * a.n;
    return 0;
}

// Depthwise weights (goihw -> Goihw16g: 16 groups of A = kh * kw bytes a
// block, 16 x A bytes each side) as byte-transpose steps of four group
// blocks; their per-group sums, words (A <= 128: no overflow), stored by
// the kernel as the dst's final compensation (desc.comp_direct) when each
// index is written by one call, whole.
int jit_dw_tiles(
        cpu_isa_t isa, const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    static const bool on = getenv_int("RELAYOUT_JIT_DW_TILES", 1) != 0; // experiment knob
    // Blocks of 8 and 4 groups (Goihw8g, Goihw4g) on the same steps
    // (dw_rows), and block counts not a multiple of a step's (a tail step).
    static const bool narrow = getenv_int("RELAYOUT_JIT_DW_NARROW", 1) != 0; // experiment knob
    static const bool tails = getenv_int("RELAYOUT_JIT_DW_TAIL", 1) != 0;    // experiment knob
    if (!on || vector_isa(isa) != cpu_isa_t::avx512_core
            || d.strategy != kernel_strategy_t::transpose)
        return 0;
    if (!d.bit_copy || data_type_size(d.sdt) != 1 || d.in_n != 1 || d.beta != 0.f) return 0;
    // W groups a block; rows of 16 / W positions interleaved (A at least that).
    const int64_t A = d.n[0], W = d.n[1], blk = W * A;
    if (W != 16 && !(narrow && (W == 8 || W == 4) && A >= 16 / W)) return 0;
    if (d.os[1] != 1 || d.is[1] != A || d.is[0] != 1 || d.os[0] != W || A > 128) return 0;
    if (kp.loops.size() != 1 || kp.loops[0].is != blk || kp.loops[0].os != blk) return 0;
    if (kp.loops[0].n % (64 / W) != 0 && !tails) return 0;
    for (int k = 0; k < p.ndims; ++k)
        if (p.check[k]) return 0;
    if (p.s8s8_comp || p.zp_comp) {
        // Each index written by one call, whole: A reduced, B the lanes,
        // the loop the next blocks' lanes; every driver node a new index.
        const kloop_t &a = kp.micro[0], &b = kp.micro[1], &l = kp.loops[0];
        const bool both = p.s8s8_comp && p.zp_comp;
        const dim_t bs = p.s8s8_comp ? b.cs : b.zs, ls = p.s8s8_comp ? l.cs : l.zs;
        if (a.cs != 0 || a.zs != 0 || bs != 1 || ls != W || (both && (b.zs != 1 || l.zs != W)))
            return 0;
        for (const kloop_t &o : kp.driver)
            if ((p.s8s8_comp ? o.cs : o.zs) == 0 || (both && o.cs != o.zs)) return 0;
        if (!fits32(int64_t(p.s8s8_count) * 4 + 256)) return 0;
    }
    return (int)A;
}

// Depthwise weights (goihw -> Goihw16g 3x3: 144-byte tiles, one per call,
// 4096 groups 256 calls) cost more in the driver than in the tiles: calls
// of many group blocks, the blocks a baked loop (their compensation:
// jit_comp_span).
dim_t jit_dw_block_call(cpu_isa_t isa, const plan_t &p) {
    static const int knob = getenv_int("RELAYOUT_JIT_DW_CALL", 8192); // experiment knob
    if (knob <= 0 || isa == cpu_isa_t::none || data_type_size(p.ddt) != 1 || p.nodes.size() < 3)
        return 0;
    const size_t k = p.nodes.size();
    const node_t &b = p.nodes[k - 1], &a = p.nodes[k - 2], &g = p.nodes[k - 3];
    if (b.tab >= 0 || a.tab >= 0 || g.tab >= 0 || b.os != 1 || b.n > 16 || b.is != a.n) return 0;
    if (a.is != 1 || a.os != b.n || g.is != a.n * b.n || g.os != a.n * b.n) return 0;
    return b.dim >= 0 && b.dim == g.dim ? knob : 0;
}

// Their calls of one (O, I) block of OIhw16o16i (9 KiB of dst, 4096
// calls for 1024 x 1024) cost as much in the driver as the tiles' loads
// and stores: a block of the I blocks per call (8: 72 KiB).
dim_t jit_run_deal_min_call(cpu_isa_t isa, const plan_t &p) {
    static const int knob = getenv_int("RELAYOUT_JIT_RUN_CALL", 4096); // experiment knob
    if (knob <= 0 || vector_isa(isa) != cpu_isa_t::avx512_core || !p.bit_copy) return 0;
    if (data_type_size(p.sdt) != 4 || data_type_size(p.ddt) != 4 || p.nodes.size() < 2) return 0;
    const node_t &b = p.nodes.back();
    if (b.os != 1 || b.is != 9 || b.n % 16 != 0 || b.tab >= 0) return 0;
    for (const node_t &a : p.nodes)
        if (a.n == 9 && a.is == 1 && a.tab < 0) return knob;
    return 0;
}

dim_t jit_flat_pairs(const jit_reorder_desc_t &d, const kernel_plan_t &kp, bool bf16_isa) {
    if (d.isa != cpu_isa_t::avx512_core || d.nloops < 1) return 0;
    const bool words = d.bit_copy && data_type_size(d.sdt) == 2 && data_type_size(d.ddt) == 2;
    // f32 -> bf16 without scales or zero points: vcvtne2ps2bf16 (bf16_ne).
    const bool to_bf16 = bf16_isa && !d.bit_copy && d.sdt == relayout_f32 && d.ddt == relayout_bf16
                         && !d.src_scale && !d.dst_scale && d.src_zp == 0.f && d.dst_zp == 0.f
                         && d.scale_adjust == 1.f;
    if ((!words && !to_bf16) || d.beta != 0.f || d.comp_lanes) return 0;
    if (d.byte_tile || d.word_tile || d.word_pair || d.b_outer || d.pf_ahead || d.dst_stage_row
            || d.flat_b || d.narrow_rows || d.pair_a || d.quad_a || d.flat_bytes)
        return 0;
    const int L = d.nloops - 1;
    if (d.is[0] != 1 || d.n[1] != 16 || d.n[0] % 16 == 0) return 0;
    const kloop_t &B = kp.micro[1];
    if (d.strategy == kernel_strategy_t::transpose) {
        // i (the loop) continues A in the src; two i of one hw a line.
        if (d.in_n != 1 || d.os[1] != 1 || d.loop_is[L] != d.n[0] || d.loop_os[L] != 16
                || d.loop_n[L] % 2 != 0)
            return 0;
    } else if (d.strategy == kernel_strategy_t::interleave) {
        // The 2 lanes of an o (i, i + 1: src stride A) adjacent words, the
        // loop over i pairs continuing them.
        if (d.in_n != 2 || d.in_is != d.n[0] || B.os != 2 || B.in_os != 1
                || d.loop_is[L] != 2 * d.n[0] || d.loop_os[L] != 32)
            return 0;
    } else {
        return 0;
    }
    const flat_pairs_t fp(d);
    if (fp.row() < 64 || fp.tiles() > flat_unrolled_tiles) return 0;
    if (fp.os_a * 2 % 64 != 0 || fp.os_j * 2 % 64 != 0) return 0;
    for (int64_t t = 0; t < fp.tiles(); ++t)
        if (fp.end(t) - fp.begin(t) > 64) return 0;
    const int64_t ssz = (int64_t)data_type_size(d.sdt);
    if (!fits32(15 * d.is[1] * ssz + fp.row() * ssz) || !fits32(fp.dst(fp.lines() - 1) * 2 + 64))
        return 0;
    return fp.lines();
}

namespace {

// Whether the scales of an interleave's 4-lane groups are one per group:
// common, or expanded (every lane of a group reads its group's value).
bool group_scales(const jit_reorder_desc_t &d, const kernel_plan_t &kp) {
    return (!d.src_scale || d.ss[1] == 0 || kp.src_scale_expand == d.in_n)
           && (!d.dst_scale || d.ds[1] == 0 || kp.dst_scale_expand == d.in_n);
}

} // namespace

dim_t jit_flat_bytes(const jit_reorder_desc_t &d, const kernel_plan_t &kp) {
    if (d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::interleave) return 0;
    if (d.bit_copy || data_type_size(d.ddt) != 1 || d.in_n != 4 || d.n[1] != 16 || d.beta != 0.f)
        return 0;
    if (d.b_outer || d.pf_ahead || d.dst_stage_row || d.nloops < 1) return 0;
    if (d.comp_lanes && !d.comp_group) return 0;
    const kloop_t &B = kp.micro[1];
    // Whole 64-byte dst rows: 16 B positions of 4 lanes each.
    if (B.os != 4 || B.in_os != 1) return 0;
    // A, the lanes and the innermost loop: one contiguous src run.
    const int L = d.nloops - 1;
    if (d.is[0] != 1 || d.in_is != d.n[0] || d.loop_is[L] != 4 * d.n[0]) return 0;
    // Whole A tiles (4x4: A = 16) fill the row bytes' vectors already:
    // 1024x1024x4x4 f32 -> s8 76 -> 54% of a copy flattened.
    if (d.n[0] % 16 == 0) return 0;
    const dim_t flat = 4 * d.n[0] * d.loop_n[L];
    if (flat % 16 != 0 || flat > 512) return 0; // unrolled: at most 32 vectors a row
    // One scale per B row: common, or expanded (every lane of a group
    // reads its group's value), and none along A or the loop.
    if (!group_scales(d, kp) || (d.src_scale && (d.ss[0] != 0 || d.loop_ss[L] != 0))
            || (d.dst_scale && (d.ds[0] != 0 || d.loop_ds[L] != 0)))
        return 0;
    const int64_t ssz = (int64_t)data_type_size(d.sdt);
    if (!fits32(15 * d.is[1] * ssz + 2 * flat * ssz + 64)
            || !fits32((d.n[0] - 1) * d.os[0] + (d.loop_n[L] - 1) * d.loop_os[L]))
        return 0;
    return flat;
}

namespace {

// The B lanes per call of narrow rows whose src rows are a page or more
// apart (nchw -> nhwc): a whole dst line's `lanes`, each row a stream of
// its own along A. Streamed 4-byte srcs to 2-byte dsts (f32 -> bf16 /
// f16) take two row tiles (64 rows): each dst row then gets two adjacent
// lines back to back, half the visits of its page per line. Two cores
// at once (one whole problem each, CPU time), % of a streaming copy of
// the same traffic, f32 -> bf16 16x256x64x64, medians of 5 interleaved:
// 75 -> 79, 82 -> 89, 87 -> 92 (single-thread 88-92 -> 95); 128 rows
// lost (to 69-89), and so did 128 rows of 1-byte dsts (s8: 88-100 ->
// 83-91) and 64 rows cached (4x256x64x64 single-thread: 63 -> 47); bf16
// srcs were even. Not on Intel: there the 64 rows (64 pages, 16 KiB
// apart, per A tile) ran at about half the speed of 32 (Xeon, 2 threads,
// reorder_bench, knob on / off, interleaved, % of a copy: bf16 44-55 ->
// 82-99, f16 57-60 -> 86-89; ARCHITECTURE §11). Experiment knob
// RELAYOUT_JIT_NARROW_FAR2: 0 off, 1 on except on Intel, 2 on.
dim_t narrow_far_rows_lanes(cpu_isa_t isa, const plan_t &p, dim_t lanes, size_t bytes) {
    static const int knob = getenv_int("RELAYOUT_JIT_NARROW_FAR2", 1);
    static const bool two = knob == 2 || (knob == 1 && !cpu_is_intel());
    const bool streamed = data_type_size(p.sdt) == 4 && bytes >= jit_cvt_nt_threshold(isa, p);
    if (two && lanes == 32 && streamed) return 2 * lanes;
    // Line pairs (jit_narrow_pairs_on): two row tiles, read in parts by
    // whole calls of whole A tiles (calls of 4096 positions, the plane's
    // last one aside: jit_narrow_far_rows_plane); others would read the
    // two tiles' rows at once.
    dim_t a = 0;
    for (const node_t &k : p.nodes)
        if (k.is == 1 && k.os != 1) a = std::max(a, k.n);
    if (jit_narrow_pairs_on() && streamed && p.nodes.back().n >= 2 * lanes
            && (a % 16 == 0 || a > 4096))
        return 2 * lanes;
    return lanes;
}

} // namespace

// AVX-512 value conversions to narrower types (f32 -> bf16 / f16 / s8 /
// u8) stream from 32 MiB (src + dst) on Intel CPUs, not from
// nt_threshold_bytes (1.5x an AMD host's 32 MiB L3): on the Xeon (480 MiB
// L3 shared with other tenants) the cached stores of 36-42 MB problems
// missed (read for ownership) as soon as the other tenants were busy,
// while the streamed kernels (and what comes with them: the half rows,
// two row tiles per call of near rows, the far rows' long calls, the A
// quads) held. reorder_bench, 2 threads, main / this, alternated rounds,
// medians (ARCHITECTURE §11, Vendor gates). Not measured on AMD: there
// the 48 MiB stay. Knob RELAYOUT_JIT_CVT_NT_MIB: MiB, on any CPU.
size_t jit_cvt_nt_threshold(cpu_isa_t isa, const plan_t &p) {
    static const int knob = getenv_int("RELAYOUT_JIT_CVT_NT_MIB", -1);
    if (vector_isa(isa) != cpu_isa_t::avx512_core || p.bit_copy
            || data_type_size(p.ddt) >= data_type_size(p.sdt))
        return nt_threshold_bytes;
    return size_t(by_vendor(knob, 32, int(nt_threshold_bytes >> 20))) << 20;
}

// Streamed narrow rows of 4-byte srcs whose rows are a page or more apart
// (f32 nchw -> nhwc to bf16 / f16 / s8 / u8): calls of 4096 A positions
// (16 KiB of each src row) instead of the usual plane's 512. The call's
// rows (64 channels, 16 KiB apart) take the same L2 sets as every other
// channel block's, and the same rows' next A block is the call after the
// other blocks': the lines a call prefetched past its end (768 B of each
// row) are gone by then, so every call read its first 768 B per row
// without a prefetch, 37% of a 2 KiB block, 5% of 16 KiB. Measured (f32
// 16x256x64x64, noisy shared machine): 2 threads, wall clock, samples
// in which both cores ran the whole time, best GB/s (median): bf16 46
// (29) -> 51 (33), s8 41 (37) -> 40 (39) and 46 (42) -> 49 (42); single-
// thread, % of a copy of the same traffic, medians of 15 interleaved:
// bf16 93 -> 93, s8 86 -> 91. A small gain, near the noise (docs §11).
// Experiment knob RELAYOUT_JIT_NARROW_FAR_A: positions per call, 0 = the
// usual plane.
dim_t jit_narrow_far_rows_plane(cpu_isa_t isa, const plan_t &p) {
    static const int knob = getenv_int("RELAYOUT_JIT_NARROW_FAR_A", 4096);
    const dim_t lanes = jit_narrow_rows_lanes(isa, p);
    if (knob <= 0 || lanes == 0) return 0;
    const node_t &B = p.nodes.back();
    const size_t bytes = size_t(p.nelems()) * (data_type_size(p.sdt) + data_type_size(p.ddt));
    // B of a narrow row tile at least (a dst line: not the 16-lane blocks
    // of the A pairs and quads).
    if (data_type_size(p.sdt) != 4 || B.is * 4 < 4096 || bytes < jit_cvt_nt_threshold(isa, p)
            || B.n * (dim_t)data_type_size(p.ddt) < 64)
        return 0;
    return std::min(lanes, B.n) * knob;
}

dim_t jit_narrow_rows_lanes(cpu_isa_t isa, const plan_t &p) {
    if (isa != cpu_isa_t::avx512_core || p.bit_copy || p.beta != 0.f || p.s8s8_comp || p.zp_comp)
        return 0;
    if (p.nodes.empty()) return 0;
    // Scales may vary along B (the innermost dst node) only: the rows are
    // converted along A (jit_narrow_rows then takes the kernel).
    const int bdim = p.nodes.back().dim;
    for (int mask : { p.src_scale_mask, p.dst_scale_mask })
        if (mask > 0 && (bdim < 0 || mask != 1 << bdim)) return 0;
    dim_t lanes = 0;
    switch (p.ddt) {
        case relayout_bf16:
        case relayout_f16: lanes = 32; break;
        case relayout_s8:
        case relayout_u8: lanes = 64; break;
        default: return 0;
    }
    const node_t &B = p.nodes.back();
    if (B.os != 1) return 0;
    const dim_t row = B.is * (dim_t)data_type_size(p.sdt);
    // Far rows (a page or more apart): a call of a line's rows. Near rows
    // (128 B to under a page: nhwc -> nchw) of 2-byte dsts, A of 128 or
    // more: a call of one row tile too, whose block the prefetch of the
    // call before fetched (f32 nhwc -> bf16 nchw, C = 256: B = 128 per
    // call 60% -> 79% of a copy; s8 loses at 64: 74% -> 53%). Streamed
    // (large), two row tiles per call, the prefetch still the next call's
    // block (narrow_rows_pf): single-thread, C = 256, 67-76% -> 80-97%
    // (C = 128: 83 -> 92, C = 512: 70 -> 83); cached ones lost (C = 256,
    // 25 MB: 55 -> 44, 10 MB: 48 -> 40).
    const size_t bytes = size_t(p.nelems()) * (data_type_size(p.sdt) + data_type_size(p.ddt));
    if (row >= 4096) return narrow_far_rows_lanes(isa, p, lanes, bytes);
    dim_t a = 0; // the src-contiguous node's extent (A), calls of 32 x A
    for (const node_t &k : p.nodes)
        if (k.is == 1 && k.os != 1) a = std::max(a, k.n);
    if (row < 128 || lanes != 32 || a < 128) return 0;
    return bytes >= jit_cvt_nt_threshold(isa, p) ? 2 * lanes : lanes;
}

namespace {

// A pairs (2-byte dsts, `per` = 32) and A quads (1-byte dsts, 64): whole
// calls of `per` A positions at a time x 16 B lanes whose dst rows are
// adjacent, scales constant along A, no sum or compensation.
bool a_groups_desc(const jit_reorder_desc_t &d, int per, bool bits = false) {
    if (d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::transpose) return false;
    if (d.bit_copy != bits || d.in_n != 1 || d.comp_lanes || d.beta != 0.f || d.byte_tile)
        return false;
    if (d.b_outer || d.pf_ahead || d.dst_stage_row || d.flat_a || d.narrow_rows) return false;
    if ((d.src_scale && d.ss[0] != 0) || (d.dst_scale && d.ds[0] != 0)) return false;
    if (d.n[1] != 16 || d.os[0] != 16 || d.n[0] < per || d.n[0] % per != 0) return false;
    const int64_t ssz = (int64_t)data_type_size(d.sdt);
    return fits32(16 * d.is[1] * ssz + 65536) && fits32(16 * (d.ss[1] + d.ds[1]) * 4)
           && fits32(d.n[0] * 32);
}

} // namespace

bool jit_pair_a(const jit_reorder_desc_t &d) {
    return (d.ddt == relayout_bf16 || d.ddt == relayout_f16) && a_groups_desc(d, 32);
}

bool jit_quad_a(const jit_reorder_desc_t &d) {
    return (d.ddt == relayout_s8 || d.ddt == relayout_u8) && a_groups_desc(d, 64);
}

// Byte quads: see gen_quad_bytes.
bool jit_quad_bytes(const jit_reorder_desc_t &d) {
    return data_type_size(d.sdt) == 1 && data_type_size(d.ddt) == 1 && a_groups_desc(d, 64, true);
}

// Streamed AVX-512 copies converting to s8 / u8: the clamp to the upper
// bound only and saturating packs of the four vectors of a line (NaN,
// -inf and values below lo convert to INT_MIN or below lo, which the
// packs saturate to lo, as in gen_row_bytes), one dword permute, instead
// of both clamps, four vpmovdb and three inserts: the copies were bound
// by their instructions (f32 -> s8 without the conversion ran at a
// copy's speed, with it ~85%). 16x256x64x64, % of a streaming copy,
// knob off / on, medians of 5-7 interleaved: single-thread f32 -> s8
// with a scale 84 -> 91, f32 -> u8 85 -> 90; two processes at once
// (both cores) s8 84 -> 92.
bool jit_copy_packs(const jit_reorder_desc_t &d) {
    return d.isa == cpu_isa_t::avx512_core && d.strategy == kernel_strategy_t::copy && !d.bit_copy
           && (d.ddt == relayout_s8 || d.ddt == relayout_u8);
}

// nchw -> nhwc of 2 to 7 channels (images' first layers, 64x3x224x224),
// hwio -> OIhw4i16o4i: B is a few dst-unit lanes (src rows a plane apart), A src-unit and
// continuing B in the dst, so the 16 A positions x B lanes of a tile are
// B whole dst vectors. B of at most 8 lanes took the 8x8 tile, every tile
// its edge path (rows of B lanes, 12 bytes for 3 channels, gathered and
// stored by scalar moves, cached). Each output vector is a chain of B - 1
// two-table permutes of the rows (B (B - 1) per tile), stored whole and
// streamed when large. reorder_bench --problems, knob off / on, 3
// interleaved rounds, medians, % of a streaming copy (x oneDNN): 2
// threads 64x3x224x224 8 -> 96 (0.36 -> 4.9), 64x2x224x224 6 -> 93,
// 16x3x224x224 10 -> 117, 64x4x224x224 6-7 -> 28-41 (1.3-1.6x),
// 32x5x224x224 6 -> 90, 32x6x224x224 6 -> 81, 32x7x224x224 7 -> 29;
// single-thread 64x3 8 -> 129, 64x4 19 -> 98. 8 channels (the 8x8
// tiles' rows are whole half lines: 93% single-thread) were even or
// lost (93 -> 89) and keep them. Conversions take them too (scales
// constant or unit-stride along A), and 1-byte dsts of 4 lanes, one line
// per tile (hwio -> OIhw4i16o4i: B = 4 i, A = 16 o): f32 -> s8 with a
// scale, 2 threads, 1024x1024x3x3 2 -> 9% (0.47 -> 2.4x oneDNN),
// 256x256x3x3 7 -> 55% (0.56 -> 5.2x).
// f32 -> bf16 / f16 / s8 / u8 of 3 to 7 lanes (nchw -> nhwc of an RGB
// image, 64x3x224x224): the few-B tiles' permute chains on the converted
// 32-bit lanes, each of the B vectors narrowed as it is stored (a piece
// of 32 / 16 bytes, cached). They took the AVX2 8x8 tiles, every tile an
// edge tile (rows of 3 lanes): 8-10% of a copy, 0.26x / 0.50x oneDNN
// (single-thread, reorder_bench, main of session 21's start). Experiment
// knob RELAYOUT_JIT_FEW_B_NARROW=0: off.
bool jit_few_b_narrow(const jit_reorder_desc_t &d) {
    static const bool on = getenv_int("RELAYOUT_JIT_FEW_B_NARROW", 1) != 0; // experiment knob
    const size_t dsz = data_type_size(d.ddt);
    return on && !d.bit_copy && d.sdt == relayout_f32 && dsz < 4 && d.n[1] >= 3
           && !(dsz == 1 && d.n[1] == 4);
}

int jit_few_b_tiles(const jit_reorder_desc_t &d) {
    static const bool few_b_words =
            getenv_int("RELAYOUT_JIT_FEW_B_WORDS", 1) != 0; // experiment knob
    const bool ymm = d.isa == cpu_isa_t::avx2;
    if (d.strategy != kernel_strategy_t::transpose) return 0;
    if (d.isa != cpu_isa_t::avx512_core && !ymm) return 0;
    if (d.in_n != 1 || d.comp_lanes || d.beta != 0.f) return 0;
    if (d.n[1] < 2 || d.n[1] > 7 || d.os[1] != 1 || d.os[0] != d.n[1] || d.is[0] != 1) return 0;
    // 4-byte dsts, 1-byte ones of 4 lanes or bf16 / f16 conversions of 2
    // (a line per tile). AVX2: odd B, 4-byte dsts (gen_few_b_ymm).
    const size_t dsz = data_type_size(d.ddt);
    const bool words = !d.bit_copy && (d.ddt == relayout_bf16 || d.ddt == relayout_f16)
                       && d.n[1] == 2 && few_b_words;
    if (dsz != 4 && !(dsz == 1 && d.n[1] == 4) && !words && !jit_few_b_narrow(d)) return 0;
    if (ymm && (dsz != 4 || d.n[1] % 2 == 0)) return 0;
    // Scales: vectors along A (stride 1) or constant along it.
    if ((d.src_scale && d.ss[0] > 1) || (d.dst_scale && d.ds[0] > 1)) return 0;
    if (!fits32(d.n[1] * d.is[1] * 4) || !fits32(d.n[1] * (d.ss[1] + d.ds[1]) * 4)) return 0;
    return (int)d.n[1];
}

// hwio -> OIhw4i16o4i f32 -> s8 / u8 (few-B tiles of a line each: 16 o x
// 4 i) read one line of each of 144 src rows (16 i x 9 hw, each row its
// own 4 KiB page of 1024 o) per call, and the next call the next line of
// the same rows (the O blocks innermost in the driver, a_blocks_inner):
// more streams than the hardware prefetchers follow, and no longer calls
// or L2 prefetch (512 B ahead: even or lost, single-thread) fixed that.
// With the O loop baked innermost (a_run_loop) a call reads its 4 i rows
// whole, one after the other, the hw positions in the driver.
// reorder_bench (Xeon, 2 threads, load 9-13, alternated with main, 3-4
// rounds, medians; % of a copy, x oneDNN): s8 1024^2x3x3 12 -> 85 (2.3 ->
// 14), 2048^2x3x3 with a scale 39 -> 113, 1024^2x5x5 28 -> 106, 512^2x3x3
// 42 -> 86. The same for bf16 / f16 of 2 lanes (OIhw8i16o2i, few-B word
// pairs): bf16 1024^2x3x3 1.3x over the tiles alone, 512^2 1.7x. Not with
// compensation (s8s8: the 16 x 16 tiles; 1.14x, within the noise) or the
// sum. Knob RELAYOUT_JIT_FEW_B_RUN=0: off.
// With s8s8 / zero-point compensation (one sum per o) the tiles sum it
// themselves (jit_few_b_comp), and 1-byte srcs (s8 / u8 hwio, bit copies
// included: their calls read 16 bytes of each of 144 src rows 1 KiB apart)
// take the loop too.
bool jit_few_b_run_loop(cpu_isa_t isa, const plan_t &p) {
    static const bool on = getenv_int("RELAYOUT_JIT_FEW_B_RUN", 1) != 0; // experiment knob
    if (!on || isa != cpu_isa_t::avx512_core || p.nodes.empty() || p.beta != 0.f) return false;
    const node_t &in = p.nodes.back();
    if ((p.s8s8_comp || p.zp_comp) && (in.cs != 0 || in.zs != 0)) return false;
    const bool words = (p.ddt == relayout_bf16 || p.ddt == relayout_f16) && in.n == 2;
    const bool bytes = data_type_size(p.ddt) == 1 && in.n == 4;
    const size_t ssz = data_type_size(p.sdt);
    if (in.os != 1 || !(bytes || words)) return false;
    return (ssz == 4 && !p.bit_copy) || (ssz == 1 && bytes);
}

// hwio -> OIhw4i16o4i with s8s8 compensation (or a zero point's) went to
// the same tiles without the O loop inside the calls, and the driver
// summed each call's dst back element by element (accumulate): 7-16% of a
// copy. The few-B tiles sum each dst line as they store it (bytes to
// word pairs to dwords: one sum per o) into the call's int32 sums at the
// tile's A position; the 16x16 edge tiles (cached stores) sum their line
// from the dst. The O loop is then baked innermost as without
// compensation (jit_few_b_run_loop), and the driver adds the sums once
// per run of calls of one compensation index (the hw and I blocks of a
// thread: one run). Knob RELAYOUT_JIT_FEW_B_COMP=0: off.
bool jit_few_b_comp(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    static const bool on = getenv_int("RELAYOUT_JIT_FEW_B_COMP", 1) != 0; // experiment knob
    if (!on || (!p.s8s8_comp && !p.zp_comp) || d.comp_lanes) return false;
    if (d.isa != cpu_isa_t::avx512_core || d.few_b != 4 || data_type_size(d.ddt) != 1) return false;
    if (d.in_n != 1 || d.beta != 0.f) return false;
    const kloop_t &A = kp.micro[0], &B = kp.micro[1];
    if (B.cs != 0 || B.zs != 0) return false;
    // One sum per o (A index stride 1), or per call (mask 1 of grouped
    // weights, jit_few_b_comp_reduced: A and the loops reduced, stride 0).
    const dim_t as = p.s8s8_comp ? A.cs : A.zs;
    if (as > 1 || (p.s8s8_comp && p.zp_comp && A.cs != A.zs)) return false;
    for (const kloop_t &l : kp.loops)
        if ((p.s8s8_comp && p.zp_comp && l.cs != l.zs) || (as == 0 && (l.cs != 0 || l.zs != 0)))
            return false;
    return fits32(jit_few_b_comp_span(kp) * 4);
}

// hwigo -> gOIhw4i16o4i with per-group compensation (mask 1: A = 16 o,
// B = 4 i, the baked loops all reduce, one sum per call) was summed per
// lane (jit_comp_in_kernel), which the few-B tiles do not do: it ran the
// 16 x 16 tiles of 4 lanes (8x256x256x3x3 s8: 2% of a copy, 0.8x oneDNN).
// The few-B tiles' sums per A position (comp_a) serve it too, the driver
// adding them all to the call's one index. Knob RELAYOUT_JIT_FEW_B_COMP1=0:
// off.
bool jit_few_b_comp_reduced(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    static const bool on = getenv_int("RELAYOUT_JIT_FEW_B_COMP1", 1) != 0; // experiment knob
    if (!on || !d.comp_lanes || d.isa != cpu_isa_t::avx512_core || kp.nmicro != 2) return false;
    const kloop_t &A = kp.micro[0], &B = kp.micro[1];
    if (A.cs != 0 || A.zs != 0 || B.cs != 0 || B.zs != 0 || B.in_n != 1) return false;
    jit_reorder_desc_t e;
    std::memcpy(&e, &d, sizeof(e));
    e.comp_lanes = false;
    return jit_few_b_tiles(e) == 4 && data_type_size(d.ddt) == 1;
}

// s8 / u8 hwio -> OIhw4i16o4i (bit copies): each few-B tile widened its
// four rows' 16 bytes to dwords and packed them back (8 shuffles per dst
// line) plus the tile loop's bookkeeping, ~22 cycles a line single-thread
// (1024x1024x3x3: 8.6 ns per line, 29-35% of a copy with the O loop
// baked). Whole calls now take four O blocks per step of that loop: one
// 64-byte load of each i row, byte and word unpacks leave 128-bit lane L
// of four registers with o 16 L .. 16 L + 15 (4 o each), and a 4 x 4
// transpose of the 128-bit lanes makes lane L's 16 o the line of O block
// L: 16 shuffles for 4 lines. Knob RELAYOUT_JIT_FEW_B_QUADS=0: off.
bool jit_few_b_quads(const jit_reorder_desc_t &d) {
    static const bool on = getenv_int("RELAYOUT_JIT_FEW_B_QUADS", 1) != 0; // experiment knob
    if (!on || d.isa != cpu_isa_t::avx512_core || d.few_b != 4 || !d.bit_copy) return false;
    if (data_type_size(d.sdt) != 1 || d.n[0] != 16 || d.is[0] != 1 || d.os[0] != 4) return false;
    if (d.nloops < 1) return false;
    const int L = d.nloops - 1;
    return d.loop_is[L] == 16 && d.loop_n[L] % 4 == 0 && fits32(4 * d.loop_os[L])
           && fits32(4 * d.is[1]) && fits32(4 * d.loop_cs[L] * 4);
}

// The quads above took the i quads of a call (the next-outer baked loop,
// 4 steps of 4 src rows 1 KiB apart in 1024x1024x3x3) outside the O blocks:
// each step wrote one line in each of 64 O blocks 144 KiB apart, so each
// O block's 256 contiguous bytes were written in 4 passes over 64 pages,
// and with compensation each line's sums were read, added and stored
// back (a load and a store per line). Now each quad step runs four steps
// of the i quads' loop (unrolled; that loop, or the i quads and hw merged,
// steps four at a time outside): an O block's lines are written back to
// back, its byte pair sums add up in words over the steps, and the sums
// are added once per four. Knob RELAYOUT_JIT_FEW_B_QUAD_STEPS=0: off.
int jit_few_b_quad_steps(const jit_reorder_desc_t &d) {
    static const bool on = getenv_int("RELAYOUT_JIT_FEW_B_QUAD_STEPS", 1) != 0; // experiment knob
    constexpr int S = 4;
    if (!on || !d.few_b_quads || d.nloops < 2) return 0;
    const int L = d.nloops - 1;
    if (d.loop_n[L - 1] % S != 0 || (d.comp_a && d.loop_cs[L - 1] != 0)) return 0;
    const int64_t ssz = data_type_size(d.sdt), dsz = data_type_size(d.ddt);
    const bool fit = fits32(S * d.loop_is[L - 1] * ssz + 4 * d.is[1] * ssz)
                     && fits32(S * d.loop_os[L - 1] * dsz + 4 * d.loop_os[L] * dsz);
    return fit ? S : 0;
}

// ohwi -> OIhw4i16o4i (s8 / u8 bit copies, i innermost in the src): the
// 4 i of a dst dword are one src dword, so each call (16 o rows 9 KiB
// apart, a virtual A) assembled every 64-byte dst line from 16 dword
// inserts (gen_lanes), and summed its compensation per line. A dst line
// of the i quads' loop (the innermost, a dword on in each row) is one
// column of 16 o rows' dwords: 16 consecutive dwords of each row, 64
// bytes (the i quads and as many I blocks: the loop continuing the run),
// are 16 lines at once, one 16 x 16 dword transpose (the quad loads'
// half, quad_tile_*). Knob RELAYOUT_JIT_LANE_TILES=0: off.
int jit_lane_tiles_loop(const jit_reorder_desc_t &d) {
    const int L = d.nloops - 1;
    const int64_t nq = d.loop_n[L];
    if (nq % 16 == 0) return -1;
    for (int r = L - 1; r >= std::max(0, L - 2); --r)
        if (d.loop_is[r] == 4 * nq && d.loop_n[r] % (16 / nq) == 0) return r;
    return -2;
}

int jit_lane_tiles(const jit_reorder_desc_t &d, const kernel_plan_t &kp) {
    static const bool on = getenv_int("RELAYOUT_JIT_LANE_TILES", 1) != 0; // experiment knob
    if (!on || d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::interleave)
        return 0;
    if (data_type_size(d.ddt) != 1 || d.n[0] != 1 || d.in_n != 4 || d.in_is != 1 || d.n[1] != 16
            || (d.comp_lanes && !d.comp_group) || d.comp_a || d.nloops < 1)
        return 0;
    // Bit copies of bytes, or f32 converted to s8 / u8 with one src scale
    // per o row (lane_cvt_tile; no dst scale, no sum).
    const bool cvt = d.sdt == relayout_f32 && !d.bit_copy && d.beta == 0.f && !d.dst_scale
                     && group_scales(d, kp);
    if (!(d.bit_copy && d.sdt == d.ddt) && !cvt) return 0;
    const int L = d.nloops - 1;
    const int64_t nq = d.loop_n[L];
    if (d.loop_is[L] != 4 || d.loop_os[L] != 64 || nq < 1 || (16 % nq != 0 && nq % 16 != 0))
        return 0;
    const int r = jit_lane_tiles_loop(d);
    if (r == -2) return 0;
    // (one scale per o row within a tile: none along the loops it spans)
    if (d.src_scale && (d.loop_ss[L] != 0 || (r >= 0 && d.loop_ss[r] != 0))) return 0;
    const int k = r < 0 ? 1 : (int)(16 / nq);
    const int64_t ssz = (int64_t)data_type_size(d.sdt);
    const bool fit =
            fits32((15 * d.is[1] + 64) * ssz) && (r < 0 || fits32(k * d.loop_os[r] + 16 * 64));
    return fit ? k : 0;
}

dim_t jit_few_b_comp_span(const kernel_plan_t &kp) {
    dim_t span = round_up<dim_t>(kp.micro[0].n, 16);
    for (const kloop_t &l : kp.loops)
        span += (l.n - 1) * std::max(l.cs, l.zs);
    return span;
}

// nchw -> nChw16c of 3 channels (64x3x224x224): every tile of B is
// padded (3 value lanes of 16), so every tile took the edge path: run-time
// counts and masks, and cached stores, each line read for ownership
// although all 16 lanes are written. Whole tiles of A and of stored lanes
// now load their value rows (the rest zero, a bit copy) and stream 16
// whole dst lines. reorder_bench --problems, 2 threads, knob off / on, 3
// interleaved rounds, medians, % of a streaming copy (x oneDNN):
// 64x3x224x224 26 -> 112 (0.55 -> 1.48), 16x19x224x224 49 -> 94 (1.10
// -> 1.36); single-thread (benchdnn_lite, busy machine) 64x3x224x224
// 154 -> 43 ms.
bool jit_pad_b_tiles(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    // AVX2: on the 8x16 tile pairs (their lines streamed), A of 8 rows.
    const bool ymm = d.isa == cpu_isa_t::avx2 && d.ymm_b16;
    if ((d.isa != cpu_isa_t::avx512_core && !ymm) || d.strategy != kernel_strategy_t::transpose)
        return false;
    if (!d.nt || !d.bit_copy || data_type_size(d.sdt) != 4 || d.in_n != 1 || d.comp_lanes)
        return false;
    if (d.byte_tile || d.word_tile || d.word_pair || d.dst_stage_row || d.flat_a || d.flat_b)
        return false;
    const kloop_t &B = kp.micro[1];
    return d.n[0] >= (ymm ? 8 : 16) && d.n[1] >= 16 && B.dim >= 0 && p.check[B.dim];
}

int jit_narrow_rows(const jit_reorder_desc_t &d) {
    if (d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::transpose) return 0;
    if (d.bit_copy || d.in_n != 1 || d.comp_lanes || d.beta != 0.f || d.byte_tile) return 0;
    if (d.b_outer || d.pf_ahead || d.dst_stage_row || d.flat_a) return 0;
    if ((d.src_scale && d.ss[0] != 0) || (d.dst_scale && d.ds[0] != 0)) return 0;
    int L = 0;
    if (d.ddt == relayout_bf16 || d.ddt == relayout_f16)
        L = 32;
    else if (d.ddt == relayout_s8 || d.ddt == relayout_u8)
        L = 64;
    if (L == 0 || d.n[1] < L) return 0;
    const int64_t ssz = (int64_t)data_type_size(d.sdt);
    if (!fits32(2 * L * d.is[1] * ssz + 65536) || !fits32(16 * d.os[0] * 4)
            || !fits32(L * (d.ss[1] + d.ds[1]) * 4))
        return 0;
    return L;
}

// A tiles per block of the line pairs (jit_narrow_pairs_on): 8 and 32
// were slower (single-thread, 16x256x64x64 with a scale, medians of the
// best of 6-8 interleaved runs: f32 -> s8 3.86 ms at 8, 3.46 at 16; ->
// bf16 4.11 at 16, 4.33 at 32).
constexpr int narrow_pair_tiles = 16;

// Narrow rows to s8 / u8 of far src rows (f32 nchw -> nhwc: 64 rows 16
// KiB apart per call) read 64 streams at a time, a line of each per tile.
// On the Intel host (Xeon, 2 cores of a KVM guest) 64-row calls to 2-byte
// dsts ran at about half the speed of 32-row ones (narrow_far_rows_lanes),
// and the byte dsts, which need 64 rows for a whole dst line, stayed at
// ~50% of a copy. Whole calls convert them in halves over blocks of A
// tiles (gen_narrow_half): rows 0 .. 31 of a block's tiles, parked on the
// stack as packed bytes (512 B a tile), then rows 32 .. 63. reorder_bench,
// 2 threads, main / this, 3 interleaved rounds, medians, % of a copy (x
// oneDNN): 16x256x64x64 s8 with a scale 56 -> 91 (2.15 -> 3.65), u8 59
// -> 83 (2.04 -> 3.48), 16x512x64x64 s8 52 -> 93 (3.83 -> 6.12),
// 64x128x56x56 u8 64 -> 90 (2.58 -> 4.13); blocks of 4 or 64 tiles were
// even with 16. Not on other CPUs (the AMD hosts ran the 64 rows at
// 88-100% of a copy). The same order for two row tiles of 2-byte dsts
// (64-lane calls, one row tile over a block, then the other) lost to
// the 32-lane calls (bf16 87 -> 78-82%). Experiment knob
// RELAYOUT_JIT_NARROW_HALF: A tiles per block (at most 64), 0 = off, -1
// = 16 on Intel only; a positive value on any CPU.
// A tiles per block of the narrow rows' passes: the largest divisor of
// the A tiles (16 positions each) up to `want` (0: none).
static int narrow_blocks_of(const jit_reorder_desc_t &d, int want) {
    if (want <= 0) return 0;
    int nb = want;
    while ((d.n[0] / 16) % nb != 0)
        --nb;
    return nb;
}

int jit_narrow_half(const jit_reorder_desc_t &d) {
    static const int knob = getenv_int("RELAYOUT_JIT_NARROW_HALF", -1);
    const int L = d.narrow_rows;
    if (L == 0 || !d.nt || d.n[0] % 16 != 0) return 0;
    if (d.is[1] * (int64_t)data_type_size(d.sdt) < 4096) return jit_near_pairs(d);
    const bool pairs = d.n[1] == 2 * L && jit_narrow_pairs_on();
    if (!pairs && (L != 64 || d.n[1] != 64)) return 0;
    return narrow_blocks_of(d, pairs ? narrow_pair_tiles : std::min(by_vendor(knob, 16, 0), 64));
}

// Near-row line pairs (f32 nhwc -> bf16 / f16 nchw): streamed whole
// calls of two row tiles (64 B positions, src rows 128 B to under a page
// apart) in blocks of up to 16 A tiles, read in two passes, a row tile
// each (gen_narrow_half: the first pass reads rows 0 .. 31 of the block,
// one contiguous run, and parks them), so that each dst row gets its two
// adjacent lines back to back; the generic loop stored the first row
// tile's 16 lines, then the second's. Timing variants of the old kernel
// (single-thread, f32 -> bf16 16x256x64x64, benchdnn_lite min of 40, 3
// rounds): 4.41-4.61 ms, no src loads 1.84-1.87, no stores 2.68-2.84,
// neither 1.37, no conversion 3.90-4.02 (loads and stores add up rather
// than overlap). Knob off / blocks of 1, 2, 4, 16 tiles, 3 alternated
// rounds: 4.36-4.52 / 4.17-4.24 / 3.94-4.01 / 3.95-3.98 / 3.89-3.98 ms;
// the stores alone (no src loads) 1.84 -> 1.53 at one tile. Experiment
// knob RELAYOUT_JIT_NEAR_PAIRS: A tiles per block (at most 16), 0 = off,
// -1 = 16 on Intel only; a positive value on any CPU.
int jit_near_pairs(const jit_reorder_desc_t &d) {
    static const int knob = getenv_int("RELAYOUT_JIT_NEAR_PAIRS", -1);
    const int64_t isB = d.is[1] * (int64_t)data_type_size(d.sdt);
    if (d.sdt != relayout_f32 || d.narrow_rows != 32 || d.n[1] != 64 || !d.nt || isB < 128
            || isB >= 4096)
        return 0;
    return d.n[0] % 16 == 0 ? narrow_blocks_of(d, std::min(by_vendor(knob, 16, 0), 16)) : 0;
}

// The line pairs read 16 src rows a pass (the halves 32): see
// jit_narrow_pairs_on; the near ones a row tile a pass.
int jit_narrow_parts(const jit_reorder_desc_t &d) {
    if (!d.narrow_half) return 0;
    if (d.is[1] * (int64_t)data_type_size(d.sdt) < 4096) return 2;
    return d.n[1] == d.narrow_rows ? 2 : (int)(d.n[1] / 16); // (a src row a lane)
}

// Line pairs: streamed far-row conversions of f32 to bf16 / f16 / s8 / u8
// (nchw -> nhwc) take two row tiles per call (64 / 128 channels), so that
// each dst row gets two adjacent lines back to back, and read them in
// parts of 16 src rows over blocks of 16 A tiles (gen_narrow_half). On the
// Xeon, streamed stores of one line per dst row 512 or 256 B apart ran at
// half the speed of a sequential stream (single-thread, 32 / 16 MiB: 2.6
// / 1.3 ms against 1.4 / 0.7), two adjacent lines per row at its speed;
// and reading 64 rows at a time (what two row tiles read before) was the
// slow part of the 64-row calls (narrow_far_rows_lanes). Measured: see
// ARCHITECTURE §11 (*Line pairs*). Intel only (the AMD hosts ran 2-byte
// dsts' 64 rows at once: NARROW_FAR2). Experiment knob
// RELAYOUT_JIT_NARROW_PAIRS: 0 off, 1 on any CPU, -1 Intel.
bool jit_narrow_pairs_on() {
    static const int knob = getenv_int("RELAYOUT_JIT_NARROW_PAIRS", -1);
    return by_vendor(knob, 1, 0) > 0;
}

int narrow_stage_bytes(const jit_reorder_desc_t &d) {
    const int regs = 16 * (int)(d.n[1] / d.narrow_rows); // of the call's row tiles
    return d.narrow_half * 64 * (regs - regs / d.narrow_parts);
}

// Streamed narrow rows to bf16 whose src rows are 128 B to under a page
// apart (f32 nhwc -> bf16 nchw: each call a block of B rows read along
// their channels) round in integers (word_pair's 7 instructions) even
// where AVX512_BF16 is there: with vcvtne2ps2bf16, its denormal test
// (a branch on each loaded pair) and the vpermw of the two rows' words
// they ran at 2/3 of the speed. The avx512_core_bf16 level declines them
// (jit:avx512_core runs the same kernel as under that cap). GB/s, single
// thread, bf16 level -> integers, medians of 3 interleaved (benchdnn_lite
// --mode=P): 16x256x64x64 26.9 -> 39.2, with a src scale 26.7 -> 39.5,
// 8x256x64x64 33.7 -> 48.4, C = 64 (64x64x64x64) 28.3 -> 41.6, C = 128
// 27.0 -> 39.3, C = 512 28.3 -> 32.2, C = 1024 27.0 -> 29.9, 56 x 56
// planes 31.0 -> 43.3, 63 x 64 26.1 -> 41.6; reorder_bench (2 threads, 4
// interleaved rounds, % of a copy) 16x256x64x64 66 -> 88. Not taken: src
// rows of one stream (nChw16c -> nchw, 64 B apart: 2 threads 114 -> 105),
// far rows (nchw -> nhwc: 32.0 -> 32.8, even) and cached ones (2x256x64x64
// 30.5 -> 28.4).
bool jit_bf16_int_near_rows(const jit_reorder_desc_t &d) {
    const int64_t isB = d.is[1] * (int64_t)data_type_size(d.sdt);
    return d.narrow_rows == 32 && d.ddt == relayout_bf16 && d.nt && isB >= 128 && isB < 4096;
}

// Narrow blocks: AVX2 conversions of far src rows to a dst of 16-lane
// blocks (f32 nchw -> bf16 / s8 / u8 nChw16c: B the block's 16 channels,
// each A position's 32 or 16 bytes adjacent to the next one's) take the
// narrow rows' tiles with 16 lanes, so that the 8 A positions of a tile
// are whole lines, streamed. The 8x8 tiles stored 16 (8) bytes to each,
// cached, every dst line read for ownership before it was written.
// Experiment knob RELAYOUT_JIT_YMM_NARROW_BLK=0: off.
bool jit_ymm_narrow_blocks(const jit_reorder_desc_t &d) {
    static const bool on = getenv_int("RELAYOUT_JIT_YMM_NARROW_BLK", 1) != 0; // experiment knob
    return on && d.strategy == kernel_strategy_t::transpose && d.in_n == 1 && d.n[1] == 16
           && d.os[1] == 1 && d.os[0] == 16;
}

int jit_ymm_narrow_rows(const jit_reorder_desc_t &d, cpu_isa_t isa) {
    if (isa != cpu_isa_t::avx2 || d.isa != cpu_isa_t::avx2 || d.bit_copy || d.beta != 0.f) return 0;
    if (d.b_outer || d.pf_ahead || d.dst_stage_row || d.flat_a || d.flat_b || d.ymm_b16
            || d.f32_lines)
        return 0;
    if ((d.src_scale && d.ss[0] != 0) || (d.dst_scale && d.ds[0] != 0)) return 0;
    const int64_t ssz = (int64_t)data_type_size(d.sdt);
    const int line = d.ddt == relayout_bf16                         ? 32
                     : d.ddt == relayout_s8 || d.ddt == relayout_u8 ? 64
                                                                    : 0;
    const int L = line && jit_ymm_narrow_blocks(d) ? 16 : line;
    if (L == 0 || ssz != 4 || d.is[0] != 1 || d.n[1] * d.in_n < L || d.n[0] < 8) return 0;
    if (d.strategy == kernel_strategy_t::transpose) {
        // far src rows (nchw -> nhwc)
        if (d.in_n != 1 || d.comp_lanes || d.os[1] != 1 || d.is[1] * ssz < 4096) return 0;
    } else if (d.strategy == kernel_strategy_t::interleave) {
        // 4i16o4i to bytes: each 4-lane group one B position (o), whose
        // compensation is summed per group
        if (L != 64 || d.in_n != 4 || d.os[1] != 4 || (d.comp_lanes && !d.comp_group)) return 0;
    } else {
        return 0;
    }
    if (!fits32(L * (d.in_is + d.is[1]) * ssz) || !fits32(8 * d.os[0] * 4)
            || !fits32(L * (d.ss[1] + d.ds[1]) * 4))
        return 0;
    return L;
}

dim_t jit_ymm_narrow_rows_lanes(cpu_isa_t isa, const plan_t &p) {
    if (isa != cpu_isa_t::avx2 || p.bit_copy || p.beta != 0.f || p.s8s8_comp || p.zp_comp
            || p.nodes.empty() || data_type_size(p.sdt) != 4)
        return 0;
    const node_t &B = p.nodes.back();
    for (int mask : { p.src_scale_mask, p.dst_scale_mask })
        if (mask > 0 && (B.dim < 0 || mask != 1 << B.dim)) return 0;
    const dim_t L = p.ddt == relayout_bf16                         ? 32
                    : p.ddt == relayout_s8 || p.ddt == relayout_u8 ? 64
                                                                   : 0;
    if (L == 0 || B.os != 1 || B.is * 4 < 4096 || B.n < L) return 0;
    return L;
}

bool jit_word_tiles(cpu_isa_t isa, const plan_t &p) {
    return isa == cpu_isa_t::avx512_core && p.bit_copy && data_type_size(p.sdt) == 2
           && data_type_size(p.ddt) == 2;
}

// Far B src rows (a page or more apart) are staged a 32-column group at a
// time, which needs one B tile per call (bf16 ab -> ba 8192^2: 16% ->
// ~50% of a streaming copy single-thread; 64 rows per call: the same, 128:
// 30%, their lines 16 KiB apart overflow the L2 sets). Near rows (128 B
// and more: nhwc -> nchw) of large problems take one B tile per call too:
// the call's src block is then 32 rows read along their length (C = 256:
// 53% -> 72%, C = 96: 34% -> 60%); in the caches the calls would be too
// short (C = 64, 16 MB: 60% -> 40%).
void jit_word_tile_params(cpu_isa_t isa, const plan_t &p, kernel_plan_params_t &prm) {
    if (!jit_word_tiles(isa, p) || p.nodes.empty()) return;
    const node_t &inner = p.nodes.back();
    const dim_t row = inner.is * 2;
    const bool big = size_t(p.nelems()) * 4 >= nt_threshold_bytes;
    if (row < 4096 && jit_word_aliased_dst(p)) return;
    if (inner.os == 1 && (row >= 4096 || (row >= 128 && big))) {
        prm.tile_b = jit_word_rows64(p) ? 64 : 32;
        prm.tile_b_max = true;
    }
}

// Near src rows (under a page) whose dst rows are more than a page apart
// and a multiple of 512 B (bf16 nhwc -> nchw of 48 x 64 to 64 x 128
// planes) keep the usual split (B = 128 lanes for C = 256, 512 for C =
// 64): the one-tile calls of near rows above wrote one line of each of
// their dst rows per call and ran at half the speed there (some 23 GB/s
// single-thread, where dst rows 8064 or 6272 B apart ran at 45-55).
// Single-thread, GB/s, knob off / on, medians of 3 interleaved
// (benchdnn_lite --mode=P): 16x256x64x64 23.2 -> 37.5, 64x64x64x64 21.5
// -> 45.0, 32x96x64x64 22.6 -> 27.1, 8x512x64x64 23.1 -> 33.5,
// 16x256x48x64 23 -> 50, 16x256x60x64 20.1 -> 41.6, 16x256x72x64 21 ->
// 38, 8x256x64x128 23 -> 40. Other dst rows stay (they lost: 63 x 64
// planes 51.4 -> 41.9, 56 x 56 55 -> 50, 31 x 64 even, 32 x 64, a page,
// 51 -> 50, 36 x 64, 4608 B, 49 -> 46).
bool jit_word_aliased_dst(const plan_t &p) {
    if (p.nodes.empty() || p.nodes.back().os != 1) return false;
    for (const auto &nd : p.nodes)
        if (nd.is == 1 && nd.os * 2 > 4608 && nd.os * 2 % 512 == 0) return true;
    return false;
}

// Far src rows and dst rows a page or more apart and whole lines apart
// (bf16 ab -> ba 8192^2), streamed: calls of 64 B lanes (two word tiles per A tile, one wide
// stage of 64 rows, 16 KiB), so that each visit of a dst row's page writes
// two lines instead of one (with 32 lanes every 64-byte store was a page
// of its own, 16 KiB from the last). % of a streaming copy, 5 interleaved
// runs each against main, medians: single-thread 8192^2 55 -> 67, 4096^2
// 70 -> 82, 2048 x 8192 73 -> 82, 8192 x 2048 64 -> 78, 4096 x 16384 67
// -> 69; 2 threads (wall clock) 8192^2 50 -> 64. Calls of 1024 A positions
// instead of 512 (RELAYOUT_JIT_TILE_PLANE=65536: 70 -> 70, 2 threads 70
// -> 73), 2 lines per row (73 / 70) and one or three groups ahead (2
// threads 81 -> 61, 61 -> 78: noise) were even.
bool jit_word_rows64(const plan_t &p) {
    static const int wide = getenv_int("RELAYOUT_JIT_WIDE_STAGE", 4);
    if ((wide != 2 && wide != 4) || p.nodes.empty()) return false;
    const node_t &inner = p.nodes.back();
    const size_t bytes = size_t(p.nelems()) * 4;
    if (inner.os != 1 || inner.is * 2 < 4096 || bytes < nt_tiles_threshold_bytes) return false;
    // Dst rows whole lines apart (streamed): not 4095 x 4096 (cached, 40
    // -> 36; 8191 x 8192 30 -> 32). Dst rows of 512 B to a page too
    // (below).
    for (const auto &nd : p.nodes)
        if (nd.is == 1 && nd.os * 2 >= 512 && nd.os * 2 % 64 == 0) return true;
    return false;
}

// Far src rows and dst rows of 512 B to under a page (bf16 nchw -> nhwc
// of 256 to 1024 channels), streamed: the 64-lane calls above (two lines
// of each dst row per call, one wide stage of 64 rows) instead of one
// 32-lane tile per call staged a 64-byte group at a time. Single-thread,
// GB/s, knob off / on, medians of 3 interleaved (benchdnn_lite --mode=P):
// 16x256x64x64 24.3 -> 29.5, 8x512x64x64 24.3 -> 30.6, 4x1024x64x64 23.9
// -> 33.3, 16x256x56x56 25.3 -> 37.8, 16x256x63x64 25.2 -> 31.7. Dst rows
// nearer lost (C = 64: 41.2 -> 33.8, C = 128: 35.5 -> 32.7), and the
// 32-lane calls with the wide stage had lost too (see jit_wide_stage).

// Interleaves of 1-byte bit copies (s8 / u8 weight packings, 4i16o4i: a call of
// 16 hw x 64 lanes x the 4 i blocks of a 16-i block, 4 KiB) split the
// next loop too long to bake whole as short copies do (kernel_plan_create:
// its largest divisor that keeps the call within the bake limit, here 8 of
// the 64 I blocks: 32 KiB per call): the calls' fixed cost had bounded
// them at half a copy, their tiles' loads, shuffles and streamed stores
// alone (a standalone model of the pattern) at ~80%. AVX-512 conversions to bytes (f32 -> s8
// / u8) split too: their flattened tiles prefetch two calls ahead along
// the run the split's baked block now continues (flat_rows_prefetch).
// Knob RELAYOUT_JIT_SPLIT_ILV_CVT=0: off.
bool jit_split_interleaves(cpu_isa_t isa, const plan_t &p) {
    static const bool cvt = getenv_int("RELAYOUT_JIT_SPLIT_ILV_CVT", 1) != 0; // experiment knob
    if (data_type_size(p.ddt) != 1) return false;
    return p.bit_copy || (cvt && isa == cpu_isa_t::avx512_core);
}

// The byte tiles' analogue (s8 / u8 ab -> ba 8192^2): far src rows and
// dst rows a page or more apart and whole lines apart, streamed (32 MiB
// and more), no compensation: calls of 128 B lanes, 512 A positions (two
// byte tiles per A tile, one wide stage of 128 rows, 32 KiB), so that each
// visit of a dst row's page writes two lines instead of one. % of a streaming copy, interleaved
// runs against the 64-lane calls (benchdnn_lite --mode=P, 40 iterations
// each, medians): 2 threads (8 rounds) 8192^2 31 -> 54, 4096^2 56 -> 88;
// (6 rounds) 8192^2 28 -> 50, 4096^2 59 -> 76, nchw -> nhwc 2x4096x64x64
// 47 -> 59; single-thread (6 rounds) 8192^2 32 -> 56, 4096^2 55 -> 75,
// 4096 x 16384 43 -> 56, 16384 x 4096 42 -> 52, 2048 x 8192 49 -> 58,
// 8192 x 2048 60 -> 66. Calls of 256 A positions lost (2 threads 8192^2
// 50 -> 27); 1024 were even (2 threads 8192^2 61 / 54, 4096^2 74 / 83;
// single-thread 62 / 59, 88 / 80).
// The whole-plane byte calls (jit_byte_plane_calls) whose dst rows are
// whole pairs of lines (s8 / u8 nchw -> nhwc of 128, 256, 384, 512, 640,
// 768 or 896 channels) take them too, with calls of the whole plane (4096
// A positions): each A tile writes two adjacent lines of each of its 16
// dst rows instead of one (a call of 64 lanes wrote every fourth line of
// 256 B rows over the whole 1 MiB of a plane's dst). The tiles were bound
// by the dst stores (an experiment, session 18, 16x256x64x64 2 threads,
// relayout GB/s: dropping the byte shuffles 19.6 -> 19.7, loads from one
// src row 20.5, no stores 49, a tile's 16 stores to one contiguous KiB
// (wrong dst) 25). Knob RELAYOUT_JIT_BYTE_PLANE128=0: the 64-lane calls.
bool jit_byte_plane_pairs(cpu_isa_t isa, const plan_t &p) {
    static const int knob = getenv_int("RELAYOUT_JIT_BYTE_PLANE128", 1); // experiment knob
    if (!knob || !jit_byte_plane_calls(isa, p)) return false;
    for (const auto &nd : p.nodes)
        if (nd.is == 1 && nd.os >= 128 && nd.os < 1024 && nd.os % 128 == 0) return true;
    return false;
}

// The calls of two byte tiles (byte_pair) or word tiles (64 B lanes of
// words, jit_word_rows64) per A tile stored the first tile's 16 dst lines,
// then the second's: each dst row's two adjacent lines 16 rows apart in
// time. Now the first tile's rows wait on the stack (1 KiB, in L1) and
// the second stores each row's two lines back to back: c5's pattern model
// (session 20) streamed two adjacent lines per row at a sequential
// stream's speed back to back and 1.3x slower 16 rows apart.
bool jit_line_bursts(const jit_reorder_desc_t &d) {
    static const int knob = getenv_int("RELAYOUT_JIT_LINE_BURSTS", 1); // experiment knob
    if (!knob || d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::transpose)
        return false;
    if (d.byte_pair) return d.n[0] >= 64 && !jit_byte_tile_pf(d);
    return d.word_tile && d.n[1] == 64 && d.n[0] >= 32 && jit_wide_stage(d) != 0;
}

bool jit_byte_rows128(cpu_isa_t isa, const plan_t &p) {
    static const int wide = getenv_int("RELAYOUT_JIT_WIDE_STAGE", 4);
    if ((wide != 2 && wide != 4) || isa != cpu_isa_t::avx512_core || !p.bit_copy
            || data_type_size(p.sdt) != 1 || data_type_size(p.ddt) != 1 || p.s8s8_comp || p.zp_comp
            || p.beta != 0.f || p.nodes.empty())
        return false;
    if (jit_byte_plane_pairs(isa, p)) return true;
    const node_t &inner = p.nodes.back();
    const size_t bytes = size_t(p.nelems()) * 2;
    if (inner.os != 1 || inner.is < 4096 || bytes < nt_tiles_threshold_bytes) return false;
    for (const auto &nd : p.nodes)
        if (nd.is == 1 && nd.os >= 4096 && nd.os % 64 == 0) return true;
    return false;
}

// Large byte-tile transposes of src rows 1 KiB or more apart and dst
// rows under 1 KiB apart, with at least one whole 64-lane B tile (s8 / u8
// nchw -> nhwc of 64 to 1023 channels, 32 MiB and more: the near-dst wide
// stage; not the 16-lane blocks of quad_bytes) take calls of 4096 A
// positions (a whole 64 x 64 plane) instead of 512, one B tile each: each
// src row is read in one run of up to 4 KiB, not in 8 visits 4 calls
// apart. On the Xeon of session 15, knob off -> on, single-thread
// (benchdnn_lite --mode=P, 6 alternated rounds, ratio of the minimum
// times, medians; every round gained): s8 16x256x64x64 1.085x,
// 32x256x64x64 1.10x, 32x128x64x64 1.10x, u8 32x256x56x56 1.09x,
// 16x512x64x64 1.17x; in the caches (4x256x64x64, 8 MiB) such calls lost
// (0.94x) and keep 512. The kernel with all its byte shuffles dropped (an
// experiment) was no faster than the kernel: these transposes wait on
// memory, not on port 5. Intel only until measured on AMD (whose tuning
// gave the 512). Knob values: 1 on, 0 off, unset: by vendor.
bool jit_byte_plane_on() {
    static const int knob = getenv_int("RELAYOUT_JIT_BYTE_PLANE", -1); // experiment knob
    return by_vendor(knob, 1, 0) != 0;
}

bool jit_byte_plane_calls(cpu_isa_t isa, const plan_t &p) {
    if (!jit_byte_plane_on() || isa != cpu_isa_t::avx512_core
            || !streamed_far_byte_rows(p, 64, 1024))
        return false;
    for (const auto &nd : p.nodes)
        if (nd.is == 1 && nd.os < 1024) return true;
    return false;
}

// Byte, word and word pair tiles of 1- and 2-byte bit-copy transposes
// whose dst rows are whole lines (each row one whole-line store) stream
// from src + dst of the L3's size (32 MiB) on, instead of 1.5x that
// (nt_threshold_bytes): there the dst cannot stay in the L3 next to its
// src, and every cached store missed and read its line for ownership (the
// byte tiles' dst prefetch hid only part of it). % of a copy of the same
// bytes (memcpy at these sizes, which reads its dst lines for ownership
// too: hence above 100), cached -> streamed, best of 5 interleaved runs,
// two rounds each. 2 threads (the larger thread CPU time of each; the copy
// on 2 threads from the reorder's src, as the benchmark does): s8 nchw ->
// nhwc 16x256x64x64 68-86 -> 114-136 (75 -> 126), u8 nhwc -> nchw
// 16x256x64x64 93-110 -> 134-165 (110 -> 143), bf16 nchw -> nhwc 8x256x64x64
// 60-72 -> 109-127, bf16 nhwc -> nchw 8x256x64x64 98 -> 123, bf16 nchw ->
// nChw16c 8x256x64x64 91-92 -> 150-153, bf16 ab -> ba 4096x2048 87 -> 104.
// Single-thread (the copy single-thread from other buffers): 76-86 ->
// 107-121, 98 -> 134-158, 70-113 -> 130-157, 96-112 -> 188-197, 100 -> 111.
// Smaller problems lost (s8 nchw -> nhwc, 2 threads: 8 MiB 91 -> 65, 4 MiB
// 83 -> 41; 16 MiB about even: 81 -> 90, single-thread 93 -> 105). Rows
// not whole lines apart keep their cached stores and dst prefetches.
bool jit_tiles_stream_from_l3(const jit_reorder_desc_t &d, const plan_t &p) {
    const size_t dsz = data_type_size(p.ddt);
    const size_t bytes = size_t(p.nelems()) * (data_type_size(p.sdt) + dsz);
    if (d.isa != cpu_isa_t::avx512_core || d.strategy != kernel_strategy_t::transpose || !p.bit_copy
            || p.s8s8_comp || p.zp_comp || p.beta != 0.f || bytes < nt_tiles_threshold_bytes)
        return false;
    const bool whole_rows = (d.byte_tile || d.word_tile) && d.os[0] * dsz % 64 == 0;
    return whole_rows || d.word_pair || d.quad_bytes;
}

int jit_word_dst_prefetch(const jit_reorder_desc_t &d) {
    static const int ahead = std::max(0, getenv_int("RELAYOUT_JIT_WORD_PFW", 1));
    if (!d.word_tile || !d.nt || d.os[0] * 2 % 64 == 0) return 0;
    return fits32((16 * ahead + 15) * d.os[0] * 2 + 64) ? ahead : 0;
}

int jit_f32_dst_prefetch(const jit_reorder_desc_t &d) {
    static const int ahead = std::max(0, getenv_int("RELAYOUT_JIT_F32_PF", 4));
    if (d.isa != cpu_isa_t::avx512_core || !d.nt || !d.bit_copy || d.byte_tile || d.word_tile
            || d.word_pair || d.dst_stage_row || data_type_size(d.ddt) != 4 || d.os[0] * 4 % 64 == 0
            || d.n[0] < 16 * (ahead + 1) || d.n[1] * d.in_n < 16) // (no tile that far ahead)
        return 0;
    return fits32((16 * ahead + 15) * d.os[0] * 4 + 64) ? ahead : 0;
}

// ab -> ba 8191 x 8192 (dst rows 32764 B apart; calls of 32 B lanes).
bool jit_f32_line_pairs(const jit_reorder_desc_t &d) {
    return d.isa == cpu_isa_t::avx512_core && d.nt && d.bit_copy
           && d.strategy == kernel_strategy_t::transpose && d.in_n == 1
           && data_type_size(d.sdt) == 4 && data_type_size(d.ddt) == 4 && d.os[0] * 4 % 64 != 0
           && d.n[0] >= 16 && d.n[1] >= 32 && d.n[1] % 32 == 0 && d.nloops == 0 && !d.comp_lanes
           && !d.b_outer && !d.byte_tile && !d.word_tile && !d.word_pair && !d.dst_stage_row
           && !d.flat_a && !d.flat_b && !d.narrow_rows && !d.pair_a && !d.quad_a && !d.pf_ahead
           && !d.ymm_b16 && fits32(32 * 4 * d.is[1] + d.pf_row) && fits32(16 * 4 * d.os[0] + 128)
           && fits32(64 * d.n[0]);
}

// ab -> ba 8191 x 8192 under the AVX2 cap (cached 8x8 tiles: half lines,
// each read for ownership). Single-thread, best of 5 interleaved, % of a
// streaming copy: 8191 x 8192 21 -> 47, 8190 x 8192 22 -> 45, 4095 x 4096
// 23 -> 54, nchw -> nhwc 2x259x131x133 31 -> 49. Only far B src rows (a
// page or more apart: calls of one pair): near ones (nhwc -> nchw of 250
// channels, calls of 8 pairs) lost, 34-36 -> 29-32. Calls of one pair
// (16 B lanes; 32 lanes, RELAYOUT_JIT_TILE_B=32: 8191 x 8192 even, nchw
// -> nhwc of 259 channels 47 -> 24).
bool jit_ymm_f32_line_pairs(const jit_reorder_desc_t &d, cpu_isa_t isa, bool nt) {
    return isa == cpu_isa_t::avx2 && d.isa == cpu_isa_t::avx2 && nt && d.bit_copy
           && d.is[1] * 4 >= 4096 && d.beta == 0.f && d.strategy == kernel_strategy_t::transpose
           && d.in_n == 1 && data_type_size(d.sdt) == 4 && data_type_size(d.ddt) == 4
           && d.os[1] == 1 && d.os[0] * 4 % 64 != 0 && d.n[0] >= 8 && d.n[1] == 16 && d.nloops == 0
           && !d.comp_lanes && !d.b_outer && !d.byte_tile && !d.word_tile && !d.word_pair
           && !d.dst_stage_row && !d.flat_a && !d.flat_b && !d.pf_ahead && !d.ymm_b16
           && fits32(16 * 4 * d.is[1]) && fits32(8 * 4 * d.os[0] + 64) && fits32(64 * d.n[0]);
}

namespace {

// desc.word_tile: transposes (not interleaves) of 2-byte bit copies with at
// least one whole 32-lane B tile, on the zmm tiles (jit_word_tiles).
bool word_tile_desc(const jit_reorder_desc_t &d, const plan_t &p) {
    return jit_word_tiles(d.isa, p) && d.strategy == kernel_strategy_t::transpose && d.in_n == 1
           && d.n[1] >= 32 && fits32(32 * 2 * d.is[1]) && fits32(16 * 2 * d.os[0]);
}

// desc.word_pair: 2-byte bit-copy transposes to 16-lane blocks whose dst
// rows are adjacent (nchw -> nChw16c), A of at least 32 positions.
bool word_pair_desc(const jit_reorder_desc_t &d, const plan_t &p) {
    return jit_word_tiles(d.isa, p) && d.strategy == kernel_strategy_t::transpose && d.in_n == 1
           && d.n[1] == 16 && d.os[0] == 16 && d.n[0] >= 32 && fits32(16 * 2 * d.is[1]);
}

} // namespace

// (AVX2: A runs of at least this many positions; not the short A of
// weights, oihw -> hwio 3x3, whose flattened short-A tiles and A-run split
// take calls of 16 B lanes, jit_plan_params.)
constexpr dim_t ymm_far_pairs_min_a = 256;

// AVX2 (the 8x16 tiles, ymm_b16): two tile pairs per A tile, each dst row
// two adjacent whole lines per visit, without the src-row prefetch (it
// lost there). Only dst rows whole lines apart: the line pairs of 8191 x
// 8192 (jit_ymm_f32_line_pairs) keep one pair per call (two were even
// there and lost for 259 channels). Xeon, AVX2 on both sides, reorder_bench
// 2 threads, 3 alternated rounds, rl GB/s (x oneDNN), main / pairs with the
// prefetch 256 B ahead / pairs alone: ab -> ba 8192^2 12.4 / 8.2 / 7.7
// (3.5-3.7), 7.6 / 7.4 / 8.0 (3.5-3.8), 9.6 / 9.1 / 8.2 (4.3-4.7); 4096^2
// 11.1 / 8.5 / 10.8 (3.8-5.3), 11.1 / 11.6 / 11.4 (4.3-5.4), 11.8 / 8.4 /
// 8.4 (3.9-4.5); nchw -> nhwc 16x256x64x64 12.2 / 11.8 / 13.2 (2.4-3.2),
// 8.6 / 11.2 / 9.2 (2.3-2.6), 21.4 / 13.5 / 13.6 (2.4-3.5). Single-thread
// (thread CPU time, medians of 30, % of a streaming copy), prefetch 0 /
// 256 / 512 B: 8192^2 82-84 / 68 / 65-66, 4096^2 95-107 / 94 / 82-93,
// nchw -> nhwc 100-102 / 93-103 / 104-110; main's 8192^2 64-66. Knob
// RELAYOUT_JIT_YMM_FAR_PAIRS=0: off (B = 16 per call).
bool jit_far_rows_pair(cpu_isa_t isa, const plan_t &p) {
    static const int ymm_knob = getenv_int("RELAYOUT_JIT_YMM_FAR_PAIRS", 1); // experiment knob
    const bool ymm = isa == cpu_isa_t::avx2 && ymm_knob > 0;
    const size_t bytes = size_t(p.nelems()) * (data_type_size(p.sdt) + data_type_size(p.ddt));
    if ((isa != cpu_isa_t::avx512_core && !ymm) || !p.bit_copy || data_type_size(p.sdt) != 4
            || data_type_size(p.ddt) != 4 || p.beta != 0.f || bytes < nt_threshold_bytes)
        return false;
    // Dst rows (A positions) 1 KiB or more apart: nchw -> nhwc with 64
    // channels (256 B) lost (79 -> 72% of a copy, medians of 9), 256
    // channels gained (72 -> 80).
    for (const auto &nd : p.nodes)
        if (nd.is == 1 && nd.os * 4 >= 1024
                && (!ymm || (nd.os * 4 % 64 == 0 && nd.n >= ymm_far_pairs_min_a)))
            return true;
    return false;
}

// Far-row blocks (see the header). The pairs' calls (2048 A x 32 B) read
// 32 src rows 8 KiB each with the row prefetch 256 B ahead and write 128 B
// per dst row visit; a standalone model of ab -> ba 8192^2 (single-thread)
// ran its loads alone at 1.1x and its streamed stores alone at 1.2x a
// copy's time, together 1.7x (they barely overlap); dst runs of 256 B or
// more per visit took the stores alone to 0.85x, and the next block's
// rows prefetched in order (a 1 KiB row per tile) the whole to 80% of a
// copy (57 before; 512 KiB blocks 41-58). Knob off -> on, % of a
// streaming copy: reorder_bench, 2 threads, 6 interleaved rounds
// (medians; the machine shared, copies at 50-100 GB/s): 8192^2 55 -> 66,
// 4096^2 59 -> 70, 4096 x 8192 58 / 58, 2048 x 16384 59 / 58;
// single-thread (thread CPU time, 5 rounds) 8192^2 58 -> 65, 4096^2 62 ->
// 68, 4096 x 8192 57 -> 65, 2048 x 16384 62 / 62; nchw -> nhwc
// 4x1024x64x64 even (63 / 63, 2 threads 65 / 66). Measured and not taken:
// the shape alone (row prefetch kept: 54 -> 55), 64 or 256 B rows per
// call (single-thread 65 / 60 against 66), the block prefetch before the
// tile's loads, prefetcht0 or t2 (all within the noise). Knob
// RELAYOUT_JIT_FAR_BLOCKS=0: the pairs of 2048 A positions
// (jit_far_rows_pair_plane) as before.
//
// Not on Intel (Xeon, 2 cores of a KVM guest, 4 KiB pages), where the
// pairs were ahead: reorder_bench, 2 threads, ab -> ba, knob on / off,
// interleaved rounds on a busy machine (load 7-11), x oneDNN (% of a
// copy): 8192^2 3.55 / 3.90 / 3.59 / 3.72 / 3.61 / 3.83 -> 4.71 / 4.13 /
// 4.45 / 4.15 / 4.29 / 4.18 (60-72 -> 62-75), 4096^2 3.33 / 3.39 / 3.22
// -> 4.51 / 4.29 / 3.87, 4096 x 8192 4.31 / 3.74 / 3.53 -> 4.17 / 4.98 /
// 4.13. Knob values: 1 on, 0 off, unset: by vendor (jit_far_rows_blocks_on).
bool jit_far_rows_blocks_on() {
    static const int knob = getenv_int("RELAYOUT_JIT_FAR_BLOCKS", -1); // experiment knob
    return by_vendor(knob, 0, 1) != 0;
}

bool jit_far_rows_blocks(cpu_isa_t isa, const plan_t &p) {
    if (isa != cpu_isa_t::avx512_core || !jit_far_rows_blocks_on() || !jit_far_rows_pair(isa, p)
            || p.nodes.empty())
        return false;
    // Dst rows (A positions) a page or more apart and whole lines apart
    // (not the line pairs of 8191 x 8192), B src rows a page or more apart.
    const node_t &inner = p.nodes.back();
    if (inner.os != 1 || inner.is * 4 < 4096 || inner.n < far_block_b) return false;
    for (const auto &nd : p.nodes)
        if (nd.is == 1 && nd.os * 4 >= 4096 && nd.os * 4 % 64 == 0 && nd.n >= far_block_a)
            return true;
    return false;
}

// Streamed f32 nChw16c -> nchw: each full tile reads one contiguous KiB
// (16 B rows a line apart) and wrote one line to each of 16 dst rows (c
// planes) a plane apart. With K B tiles per visit the first K - 1 tiles'
// rows wait in the stack (L1) and each dst row then gets K adjacent
// lines back to back; nChw8c -> nchw (half-A tiles of 8 rows, 512 B of
// src each) likewise with 2K tiles. Only the channel dim as A (not
// weights' o blocks) and no other tile variant. On the Xeon (2 cores of a
// KVM guest, busy: load 8-15), 16x256x64x64, % of a streaming copy
// (thread CPU time, medians of 30, 4 interleaved rounds), knob 0 / 2 / 3
// / 4: single-thread nChw16c 86-89 / 97-105 / 95-100 / 96-101, nChw8c
// (2K tiles: K = 1 / 2) 83-87 / 88-99 (8-row tiles 2 / 3 per visit: 87-93,
// 88-92); two processes at once (3 rounds) nChw16c 86-88 / 93-102 (K = 4:
// 92-100), nChw8c 84-87 / 87-99. An L1 prefetch of the src 4 KiB ahead
// lost (K = 2: 97-105 -> 88-100). Not measured on AMD: Intel only
// (cpu_is_intel); knob values 0 (off) and K > 1 force it on any CPU.
constexpr int blk_lines_intel = 2;

int jit_blk_lines_tiles() {
    static const int knob = getenv_int("RELAYOUT_JIT_BLK_LINES", -1); // experiment knob
    const int tiles = by_vendor(knob, blk_lines_intel, 0);
    return tiles > 1 ? tiles : 0;
}

namespace {

// The block lines' shape (jit_blk_lines, jit_ymm_blk_lines): streamed f32
// bit-copy transposes of one A tile of 16 or 8 channels, each B tile's
// src one contiguous block, the dst rows whole lines apart, no padding,
// no other tile variant. The B tiles per visit: K, or 2K for 8 channels
// (half the bytes per tile); 0 where the shape does not apply.
int blk_lines_of(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp, int K) {
    if (!K || d.strategy != kernel_strategy_t::transpose) return 0;
    if (!d.nt || !d.bit_copy || d.in_n != 1 || d.comp_lanes || d.beta != 0.f) return 0;
    if (data_type_size(p.sdt) != 4 || data_type_size(p.ddt) != 4 || p.ndims < 3) return 0;
    if (d.byte_tile || d.word_tile || d.word_pair || d.b_outer || d.f32_lines || d.few_b || d.pad_b
            || d.flat_a || d.flat_b || d.dst_stage_row || d.packed_rows || d.pf_ahead || d.pf_row
            || d.pf_rows)
        return 0;
    const kloop_t &A = kp.micro[0], &B = kp.micro[1];
    if (A.dim != 1 || (A.n != 16 && A.n != 8) || A.total != A.n || A.is != 1 || B.is != A.n
            || B.os != 1)
        return 0;
    const int tiles = A.n == 8 ? 2 * K : K;
    if (A.os * 4 % 64 != 0 || B.n < 16 * tiles || !fits32(16 * tiles * B.is * 4)) return 0;
    for (int i = 0; i < p.ndims; ++i)
        if (p.check[i]) return 0;
    return tiles;
}

} // namespace

int jit_blk_lines(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    return d.isa == cpu_isa_t::avx512_core ? blk_lines_of(d, p, kp, jit_blk_lines_tiles()) : 0;
}

// The block lines on the AVX2 8x16 tiles (ymm_b16 streamed, f32
// nChw16c / nChw8c -> nchw): each tile wrote one line to each of its 8
// dst rows, c planes apart; K tiles per visit (2K for nChw8c) write K
// adjacent lines to each row, the first 2K - 1 transposes' rows waiting
// in the stack. nChw16c's two A tiles go in one visit (the src block,
// read in halves by the A tiles, once while in L1). Xeon, 16x256x64x64,
// single-thread, % of a streaming copy (thread CPU time, medians of 30,
// 3 interleaved rounds, load 9-10), knob 0 / 2 / 4: nChw16c 85-87 / 98-102
// / 92-94 (A tiles in separate visits, K = 2: 90-94), nChw8c (2K tiles)
// 96-98 / 102-106 (K = 1: 94-97). Not measured on AMD: Intel only as the
// AVX-512 block lines (cpu_is_intel); knob values 0 (off) and K > 1 force
// it on any CPU.
constexpr int ymm_blk_lines_intel = 2;

int jit_ymm_blk_lines_tiles() {
    static const int knob = getenv_int("RELAYOUT_JIT_YMM_BLK_LINES", -1); // experiment knob
    const int tiles = by_vendor(knob, ymm_blk_lines_intel, 0);
    return tiles > 1 ? tiles : 0;
}

int jit_ymm_blk_lines(const jit_reorder_desc_t &d, const plan_t &p, const kernel_plan_t &kp) {
    if (d.isa != cpu_isa_t::avx2 || !d.ymm_b16 || d.ymm_b16_pf || d.ymm_small || d.ymm_narrow
            || data_type_size(d.ddt) != 4)
        return 0;
    return blk_lines_of(d, p, kp, jit_ymm_blk_lines_tiles());
}

// ab -> ba 8192^2 at 2 threads (wall clock against a copy on both cores,
// best of 5 interleaved runs, % of a copy): 1024 A positions per call
// 60-70 -> 2048: 73-79 (three rounds); 4096: even.
dim_t jit_far_rows_pair_plane() {
    static const int plane = getenv_int("RELAYOUT_JIT_FAR_PLANE", 65536); // experiment knob
    return plane > 0 ? plane : 32768;
}

bool jit_comp_in_kernel(const plan_t &p, const kernel_plan_t &kp) {
    if (!p.s8s8_comp && !p.zp_comp) return false;
    if (kp.strategy != kernel_strategy_t::transpose && kp.strategy != kernel_strategy_t::interleave)
        return false;
    if (kp.micro[0].cs != 0 || kp.micro[0].zs != 0) return false;
    for (const auto &l : kp.loops)
        if (l.cs != 0 || l.zs != 0) return jit_comp_span(p, kp);
    return true;
}

// Depthwise weights with s8s8 or zero-point compensation (mask 1: one sum
// per group) ran one tile of a group block per call, the driver walking
// the blocks (4096 x 3x3: 256 calls of 144 bytes) and adding the call's
// 16 lane sums; with the blocks baked (jit_dw_block_call) the sums'
// index steps with the loop, which jit_comp_in_kernel's one set of lanes
// per call cannot hold, so the driver summed the whole dst back (2-4% of
// a copy). The kernel now sums each position's lanes into its own
// entries. B of at most comp_span_pitch lanes whose index is the lane
// (per-group index, stride 1), A reduced (stride 0); the loops any
// stride (0: reduced too), both buffers alike.
bool jit_comp_span(const plan_t &p, const kernel_plan_t &kp) {
    static const bool on = getenv_int("RELAYOUT_JIT_DW_COMP", 1) != 0; // experiment knob
    if (!on || (!p.s8s8_comp && !p.zp_comp) || kp.strategy != kernel_strategy_t::transpose)
        return false;
    const kloop_t &A = kp.micro[0], &B = kp.micro[1];
    if (A.cs != 0 || A.zs != 0 || B.in_n != 1 || B.n > comp_span_pitch) return false;
    if ((p.s8s8_comp && B.cs != 1) || (p.zp_comp && B.zs != 1)) return false;
    bool steps = false;
    for (const auto &l : kp.loops) {
        if (l.cs < 0 || l.zs < 0 || (p.s8s8_comp && p.zp_comp && l.cs != l.zs)) return false;
        steps = steps || l.cs != 0 || l.zs != 0;
    }
    return steps && fits32(jit_comp_span_entries(kp) * 4);
}

int64_t jit_comp_span_entries(const kernel_plan_t &kp) {
    int64_t n = comp_span_pitch;
    for (const auto &l : kp.loops)
        n *= l.n;
    return n;
}

// Few-B compensation (desc.comp_a) is summed by the few-B tiles, their
// quads (few_b_quads) and the 16x16 edge tiles only; any other tile, line
// or staging rule would store lines that nothing sums. So the rules after
// jit_few_b_comp keep comp_a only where every field they changed (`d`
// against `before`, the desc when comp_a was chosen) is declared here as
// summing it or as not choosing tiles; any other rule, present or future,
// refuses it by default (the driver then sums the dst back, cached).
bool jit_comp_a_declared(const jit_reorder_desc_t &before, const jit_reorder_desc_t &d) {
    jit_reorder_desc_t e;
    std::memcpy(&e, &before, sizeof(e));
    e.few_b_quads = d.few_b_quads;           // (sums its four lines: gen_few_b_quad)
    e.few_b_quad_steps = d.few_b_quad_steps; // (... of each step)
    // Not tiles: the stores' kind, the driver's fence, the baked loops (the
    // kernel plan's, copied).
    e.nt = d.nt;
    e.fence_in_driver = d.fence_in_driver;
    if (!d.short_copy) e.short_unroll = d.short_unroll; // (1: no short copies)
    for (int l = 0; l < jit_reorder_desc_t::max_loops; ++l) {
        e.loop_n[l] = d.loop_n[l];
        e.loop_is[l] = d.loop_is[l];
        e.loop_os[l] = d.loop_os[l];
        e.loop_ss[l] = d.loop_ss[l];
        e.loop_ds[l] = d.loop_ds[l];
    }
    return std::memcmp(&e, &d, sizeof(e)) == 0;
}

void jit_reorder_desc_init(
        jit_reorder_desc_t &d, cpu_isa_t isa, const plan_t &p, const kernel_plan_t &kp) {
    std::memset(&d, 0, sizeof(d));
    const bool bf16_isa = isa == cpu_isa_t::avx512_core_bf16;
    isa = vector_isa(isa); // (the rules below see the register family)
    d.isa = isa;
    d.strategy = kp.strategy;
    d.sdt = p.sdt;
    d.ddt = p.ddt;
    d.bit_copy = p.bit_copy;
    d.src_scale = !p.bit_copy && p.src_scale_mask >= 0;
    d.dst_scale = !p.bit_copy && p.dst_scale_mask >= 0;
    d.src_zp = (float)p.src_zp;
    d.dst_zp = (float)p.dst_zp;
    d.beta = p.beta;
    d.scale_adjust = p.scale_adjust;
    for (int m = 0; m < kp.nmicro; ++m) {
        d.n[m] = kp.micro[m].n;
        d.is[m] = kp.micro[m].is;
        d.os[m] = kp.micro[m].os;
        d.ss[m] = kp.micro[m].ss;
        d.ds[m] = kp.micro[m].ds;
    }
    d.in_n = 1;
    d.in_is = 0;
    // Bit copies stream too (measured 1.8x on f32 transposes at 134 MB);
    // compensation and the sum read the dst back, so they keep it cached.
    // Weight packings to 8 bits (interleaves) stream from half the usual
    // size on: packed once, consumed later, not by the next kernel
    // (s8 oihw -> OIhw4i16o4i with s8s8, 1024x1024x4x4 = 32 MiB: 57% ->
    // 107% of a copy of the same bytes, which is cached at that size).
    const size_t bytes = size_t(p.nelems()) * (data_type_size(p.sdt) + data_type_size(p.ddt));
    const size_t nt_min = kp.strategy == kernel_strategy_t::interleave && data_type_size(p.ddt) == 1
                                  ? nt_threshold_bytes / 2
                                  : jit_cvt_nt_threshold(isa, p);
    d.nt = bytes >= nt_min && !p.s8s8_comp && !p.zp_comp && p.beta == 0.f;
    // (Byte and word tiles lower the size once they are chosen below:
    // jit_tiles_stream_from_l3.)
    // Compensation summed in the kernel: nothing reads the dst back, so
    // it may stream as well.
    d.comp_lanes = jit_comp_in_kernel(p, kp);
    if (d.comp_lanes) {
        d.comp_nl = jit_comp_lanes(kp);
        const kloop_t &B = kp.micro[1];
        d.comp_group = B.in_n % 4 == 0 && B.in_cs == 0 && B.in_zs == 0;
        d.nt = bytes >= nt_min && p.beta == 0.f;
        // (Few-B tiles of one sum per call: their sums per A position.)
        if (jit_few_b_comp_reduced(d, p, kp)) d.comp_lanes = d.comp_group = false;
        // Entries per position of the baked loops (jit_comp_span).
        d.comp_span = d.comp_lanes && jit_comp_span(p, kp);
        int64_t pitch = comp_span_pitch;
        for (int l = (int)kp.loops.size() - 1; l >= 0 && d.comp_span; --l) {
            d.loop_cs[l] = pitch;
            pitch *= kp.loops[l].n;
        }
    }
    if (kp.strategy == kernel_strategy_t::interleave) {
        d.in_n = kp.micro[1].in_n;
        d.in_is = kp.micro[1].in_is;
        d.ss[1] = kp.micro[1].in_ss;
        d.ds[1] = kp.micro[1].in_ds;
    }
    // Byte tiles: 1-byte bit copies with at least one whole 64-lane B tile
    // (AVX-512); the compensation then needs 4-lane groups.
    d.byte_tile = isa == cpu_isa_t::avx512_core
                  && (kp.strategy == kernel_strategy_t::transpose
                          || kp.strategy == kernel_strategy_t::interleave)
                  && p.bit_copy && data_type_size(p.sdt) == 1 && d.n[1] * d.in_n >= 64
                  && (!d.comp_lanes || d.comp_group) && fits32(64 * (d.in_is + d.is[1]))
                  && fits32(16 * d.os[0]);
    // Tiles of at most 8 lanes (nChw8c, 8-wide blocks): the 8x8 ymm tile
    // does not waste half of every 16x16 one (measured 2x on Zen 4), except
    // where the zmm tile's 8 rows of 16 lanes stream whole lines and the
    // ymm tile's would be half lines far apart (nChw8c -> nchw, 134 MB:
    // 54% -> 103% of a streaming copy). An A of fewer than 8 rows (2x2
    // and 1x3 weights: A = 4, 3; nChw4c -> nchw) stays on the zmm tiles
    // of TA rows: every 8x8 tile would be an edge tile, which the 2- and
    // 1-byte AVX2 tiles fill element by element (vs oneDNN, 2 threads,
    // busy machine: bf16 / s8 oihw -> OIhw16i16o 2048x2048x2x2 0.23 /
    // 0.21x -> 1.19 / 1.18x; f32 nChw4c -> nchw 0.25 -> 1.37x; f32 2x2
    // 1.17 -> 1.41x).
    const bool short_a = d.n[0] < 8 && d.in_n == 1 && d.n[1] * d.in_n > 8;
    // (The depthwise tiles of 8 or 4 groups a block are zmm code: jit_dw_tiles.)
    const int dw = jit_dw_tiles(isa, d, p, kp);
    if (isa == cpu_isa_t::avx512_core
            && (kp.strategy == kernel_strategy_t::transpose
                    || kp.strategy == kernel_strategy_t::interleave)
            && (d.n[1] * d.in_n <= 8 || (d.n[0] <= 8 && d.in_n == 1)) && !half_a_tile(d) && !short_a
            && !short_b_zmm(d) && !jit_few_b_tiles(d) && !dw)
        d.isa = cpu_isa_t::avx2;
    d.few_b = jit_few_b_tiles(d);
    d.nloops = (int)kp.loops.size();
    // Few-B tiles summing their compensation: nothing reads the dst back.
    d.comp_a = jit_few_b_comp(d, p, kp);
    if (d.comp_a) {
        d.nt = bytes >= nt_min && p.beta == 0.f;
        for (int l = 0; l < d.nloops; ++l)
            d.loop_cs[l] = p.s8s8_comp ? kp.loops[l].cs : kp.loops[l].zs;
    }
    // (The rules below keep comp_a only where they declare it: see
    // jit_comp_a_declared.)
    jit_reorder_desc_t comp_rules;
    std::memcpy(&comp_rules, &d, sizeof(d));
    // Streaming stores only as whole 64-byte lines: zmm, or ymm pairs that
    // fill a line back to back (an 8x8 f32 tile whose rows are adjacent).
    // Half lines far apart are 2x slower than cached stores on Zen 4;
    // adjacent halves are 1.6x faster (nchw -> nChw8c, 134 MB).
    d.ymm_b16 = jit_ymm_b16_tiles(d, isa);
    const bool nt_lines = d.nt; // (AVX2 flattened short-B tiles: whole lines, see below)
    // (AVX2 few-B tiles: B dense vectors per tile, the call's dst one run.)
    if (d.isa != cpu_isa_t::avx512_core && !ymm_lines_streamable(d) && !d.ymm_b16 && !d.few_b
            && d.strategy != kernel_strategy_t::copy)
        d.nt = false;
    d.word_tile = word_tile_desc(d, p);
    d.word_pair = word_pair_desc(d, p);
    if (jit_tiles_stream_from_l3(d, p)) d.nt = true;
    d.byte_pair = d.byte_tile && d.nt && d.strategy == kernel_strategy_t::transpose && d.in_n == 1
                  && d.n[1] == 128 && d.n[0] >= 64 && !d.comp_lanes && jit_byte_rows128(isa, p);
    d.pf_b = near_rows_prefetch(d, p, kp);
    d.b_outer = d.pf_b != 0;
    d.b_outer_pair = b_outer_pairs(d, p, kp);
    for (int l = 0; l < d.nloops; ++l) {
        const auto &lp = kp.loops[l];
        d.loop_n[l] = lp.n;
        d.loop_is[l] = lp.is;
        d.loop_os[l] = lp.os;
        d.loop_ss[l] = lp.ss;
        d.loop_ds[l] = lp.ds;
    }
    d.pf_rows = jit_far_block_rows(d, p, kp);
    d.pf_row = far_rows_prefetch(d, p);
    d.pf_ahead = jit_src_prefetch_ahead(d, p, kp);
    d.dst_stage_row = jit_dst_stage_row(d, p, kp);
    d.flat_a = jit_flat_a_tiles(d);
    d.flat_pf = jit_flat_a_prefetch(d, kp);
    d.flat_b = jit_flat_b_tiles(d);
    if (!d.flat_b) d.flat_b = jit_flat_b_lanes(d);
    if (!d.flat_b) d.flat_b = jit_ymm_flat_b_lanes(d, nt_lines);
    if (d.flat_b) d.dst_stage_row = 0; // the flat tiles write whole lines; edge calls cached
    if (d.flat_b && d.isa == cpu_isa_t::avx2) d.nt = nt_lines; // lines of two ymm, back to back
    d.ymm_flat_step = jit_ymm_flat_steps(d);
    if (d.ymm_flat_step) d.nt = nt_lines;
    d.pf_ahead = jit_flat_b_prefetch_ahead(d, p, kp);
    d.narrow_rows = jit_narrow_rows(d);
    d.pair_a = jit_pair_a(d);
    // Streamed, or within the caches: 10-42 MB problems (cached stores,
    // the src from L3 or memory) lost with the quads, single-thread % of
    // a copy: f32 -> u8 4x256x64x64 92-102 -> 74-77, 8x256x64x64 60 ->
    // 40-46 (with an L2 prefetch along A about even); 2x128x64x64 (5 MB)
    // gained 44 -> 76.
    d.quad_a = jit_quad_a(d) && (d.nt || bytes <= quad_cached_max_bytes);
    d.quad_bytes = jit_quad_bytes(d);
    // They stream from the byte tiles' size on, as the byte tiles do: u8
    // 16x256x64x64, 2 threads, 87 -> 107% of a copy on Zen 5; on a Xeon
    // (480 MiB L3, busy, 6 interleaved rounds) x oneDNN u8 1.19 -> 1.34,
    // s8 1.18 -> 1.24 (medians).
    if (d.quad_bytes && jit_tiles_stream_from_l3(d, p)) d.nt = true;
    d.narrow_pf = narrow_rows_pf(d, jit_narrow_rows_lanes(isa, p));
    d.narrow_half = jit_narrow_half(d);
    d.narrow_parts = jit_narrow_parts(d);
    d.flat_bytes = jit_flat_bytes(d, kp);
    // Its 16 src rows are far apart too (3x3 f32, 2048 i: 72 KiB), 9 lines
    // of each per call: large problems prefetch each line two calls ahead
    // into L2 as the flattened tiles do (2048x2048x3x3 f32 -> s8,
    // single-thread: 46 -> 59-65% of a copy).
    d.flat_pf = std::max(d.flat_pf, flat_rows_prefetch(d, kp, d.flat_bytes));
    d.flat_pairs = jit_flat_pairs(d, kp, bf16_isa);
    if (d.flat_pairs) {
        d.flat_a = 0;
        // Weight packs: streamed from half the usual size, as the
        // interleaves to bytes are (packed once, consumed later).
        if (bytes >= nt_threshold_bytes / 2) d.nt = true;
        d.flat_pf = flat_rows_prefetch(d, kp, flat_pairs_t(d).row());
    }
    // Whole A tiles (4x4: A = 16) gain only from the prefetch; in the
    // caches their unrolled flat tiles lose (256x256x4x4: 75 -> 60-66% of
    // a copy). Large, 1024x1024x4x4, % of a copy: single-thread 79-83 ->
    // 85-88, 2 threads (benchdnn_lite) 85-92 -> 100-104.
    if (d.n[0] % 16 == 0 && !d.flat_pf) d.flat_a = 0;
    // AVX2 keeps its 8x16 tiles there (1024x1024x4x4, single-thread: 74
    // -> 55% of a copy flattened).
    if (d.n[0] % 16 == 0 && d.isa == cpu_isa_t::avx2) d.flat_a = d.flat_pf = 0;
    d.short_copy = jit_short_copy(d);
    d.short_unroll = d.short_copy ? jit_short_unroll(d) : 1;
    // The driver checks that a call's dst is line-aligned (the streamed
    // stores fault otherwise); the baked loops (or the stage's rows) must
    // keep it so (OIhw16i16o -> oihw 5x5: rows of 25 f32 apart). (Short
    // copies stepping loop 0 by whole lines stream; their general copy,
    // for the other calls, streams only runs of whole 256-byte groups,
    // which these runs are not.)
    const dim_t dsz = (dim_t)data_type_size(d.ddt);
    // (With flat_b the innermost loop is folded into the flattened tiles;
    // the edge calls' tiles do not stream.)
    // (AVX2 flattened steps: both loops folded.)
    const int folded = d.ymm_flat_step ? 2 : (d.flat_b && d.in_n == 1) || d.flat_pairs ? 1 : 0;
    if (!d.dst_stage_row)
        for (int l = 0; l < d.nloops - folded; ++l)
            if (d.loop_os[l] * (l == d.nloops - 1 ? d.short_unroll : 1) * dsz % 64 != 0)
                d.nt = false;
    // (Cached: the 8x8 tiles complete the lines too. AVX2 flattened tiles:
    // the edge calls' tiles step by the folded loop, not whole lines.)
    if (!d.nt || d.b_outer || d.flat_b) d.ymm_b16 = false;
    d.ymm_b16_pf = jit_ymm_b16_near_rows(d, kp);
    d.ymm_b16_pair = jit_ymm_b16_near_pairs(d, kp);
    if (d.ymm_b16_pair) d.ymm_b16_pf *= 2;
    d.byte_pfw = jit_byte_dst_prefetch(d, p);
    d.f32_lines = jit_f32_line_pairs(d);
    d.pad_b = jit_pad_b_tiles(d, p, kp);
    if (jit_ymm_f32_line_pairs(d, isa, nt_lines)) d.f32_lines = d.nt = true;
    d.ymm_small = jit_ymm_small_tiles(d, isa);
    d.ymm_small_lines = d.ymm_small && jit_ymm_small_lines(d, bytes);
    // Whole lines, streamed when large, where the baked loops step by
    // whole lines.
    auto loops_step_lines = [&]() {
        for (int l = 0; l < d.nloops; ++l)
            if (d.loop_os[l] * dsz % 64 != 0) return false;
        return true;
    };
    if (d.ymm_small_lines)
        d.nt = bytes >= nt_tiles_threshold_bytes && p.beta == 0.f && loops_step_lines();
    d.ymm_narrow = jit_ymm_narrow_rows(d, isa);
    if (d.ymm_narrow) d.nt = nt_lines && loops_step_lines();
    d.ymm_packed = jit_ymm_packed_rows(d, nt_lines);
    if (d.ymm_packed) d.nt = loops_step_lines();
    d.quad_ld = jit_quad_loads(d);
    d.run_deal = jit_run_deal(d, bytes);
    d.o8_chunks = jit_o8_chunks(d);
    if (jit_o_lines_cached(d, bytes)) d.nt = false;
    d.o8_in_order = jit_o8_in_order(d);
    d.o8i_rows = jit_o8i_rows(d);
    d.o8i_staged = jit_o8i_staged(d);
    d.run_pairs = jit_run_pairs(d);
    d.fence_in_driver = jit_fence_in_driver(d);
    d.a_rows_unmasked = jit_a_rows_unmasked(d);
    d.bf16_ne = bf16_isa && d.isa == cpu_isa_t::avx512_core && !d.bit_copy && d.ddt == relayout_bf16
                && !jit_bf16_int_near_rows(d);
    d.packed_rows = jit_packed_rows(d);
    d.line_bursts = jit_line_bursts(d);
    d.blk_lines = jit_blk_lines(d, p, kp);
    d.ymm_blk_lines = jit_ymm_blk_lines(d, p, kp);
    d.few_b_quads = jit_few_b_quads(d);
    d.few_b_quad_steps = jit_few_b_quad_steps(d);
    d.lane_tiles = jit_lane_tiles(d, kp);
    d.dw = dw;
    if (d.dw) {
        // (Its rows are 16-byte stores, cached; the sums final values.)
        d.nt = false;
        d.comp_direct = p.s8s8_comp || p.zp_comp;
        d.comp_lanes = d.comp_span = false;
        d.dw_s8s8 = p.s8s8_comp;
        d.dw_zp_disp = p.zp_comp ? int64_t(p.s8s8_count) * 4 : -1;
    }
    if (d.comp_a && !jit_comp_a_declared(comp_rules, d)) {
        d.comp_a = false;
        d.nt = false;
    }
}

status_t jit_reorder_desc_check(const jit_reorder_desc_t &d) {
    if (d.nloops > jit_reorder_desc_t::max_loops)
        return fail(status_t::unimplemented, "jit: too many baked loops");
    const int64_t ssz = data_type_size(d.sdt), dsz = data_type_size(d.ddt);
    const int64_t T = d.isa == cpu_isa_t::avx512_core ? 16 : 8;
    bool ok = true;
    ok = ok && fits32(d.in_is * ssz * T) && d.in_is >= 0 && T % d.in_n == 0;
    for (int m = 0; m < 2; ++m) {
        ok = ok && fits32(d.is[m] * ssz * T) && fits32(d.os[m] * dsz * T) && fits32(d.ss[m] * 4 * T)
             && fits32(d.ds[m] * 4 * T);
        ok = ok && d.is[m] >= 0 && d.os[m] >= 0 && d.ss[m] >= 0 && d.ds[m] >= 0;
    }
    for (int l = 0; l < d.nloops; ++l)
        ok = ok && fits32(d.loop_n[l]);
    ok = ok && fits32(d.pf_b + d.is[1] * ssz * T) && fits32(d.pf_row + d.is[1] * ssz * T);
    if (!ok)
        return fail(status_t::unimplemented,
                "jit: strides do not fit the kernel's 32-bit displacements");
    return status_t::success;
}

status_t jit_reorder_generate(const jit_reorder_desc_t &d, std::unique_ptr<jit_generator_t> &gen) {
    RL_CHECK(jit_reorder_desc_check(d));
    const cpu_isa_t level = d.bf16_ne ? cpu_isa_t::avx512_core_bf16 : d.isa;
    const std::string name = std::string("reorder_") + isa2str(level) + "_"
                             + strategy2str(d.strategy) + "_" + dt2str(d.sdt) + "_" + dt2str(d.ddt);
    // Twice (tiles) or four times (others) the largest kernel of the tests
    // and the ci batch (tiles: 7.9 KiB, bf16 and int8 conversions on AVX2;
    // copy and scalar: 2 KiB), and retry larger on overflow (a fresh
    // generator each time). Every page of the buffer costs at finalize
    // (mprotect) and in the code pool.
    const bool tile = d.strategy == kernel_strategy_t::transpose
                      || d.strategy == kernel_strategy_t::interleave;
    size_t size = tile ? 16 * 1024 : 8 * 1024;
    for (int attempt = 0; attempt < 3; ++attempt, size *= 4) {
        std::unique_ptr<reorder_gen_t> g(new (std::nothrow) reorder_gen_t(d, name, size));
        if (!g) return fail(status_t::out_of_memory, "jit: out of memory");
        const int err = Xbyak::GetError();
        if (err == Xbyak::ERR_CODE_IS_TOO_BIG) {
            Xbyak::ClearError();
            continue;
        }
        RL_CHECK(g->finalize());
        gen = std::move(g);
        return status_t::success;
    }
    return fail(status_t::runtime_error, "jit " + name + ": code too big");
}

} // namespace x64
} // namespace impl
} // namespace relayout
