// Guard pages: every source and destination buffer sits between two
// PROT_NONE pages, flush against the trailing guard (a read or write one
// byte past get_size() faults) or against the leading one (one byte before
// the handle faults); the source is also made read-only before execution (a
// write to it faults). Each case runs in a forked child so that a fault is
// reported as that case's failure, with the signal, and the other cases
// still run. The child checks the result bit for bit against the same
// problem run by the reference (ISA cap none) in ordinary buffers.
//
// The parent process never calls the library (TBB threads do not survive
// fork): each child starts it fresh.
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "relayout/relayout.hpp"

namespace {

using namespace relayout;
using dt = memory::data_type;
using tag = memory::format_tag;

// ---- a buffer between two PROT_NONE pages ----------------------------------

class guarded_buffer_t {
public:
    guarded_buffer_t(size_t bytes, bool flush_end) : bytes_(bytes) {
        page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        data_pages_ = (bytes + page_ - 1) / page_;
        map_bytes_ = (data_pages_ + 2) * page_;
        void *p = mmap(
                nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            perror("mmap");
            _exit(3);
        }
        base_ = static_cast<char *>(p);
        mprotect(base_, page_, PROT_NONE);
        mprotect(base_ + (data_pages_ + 1) * page_, page_, PROT_NONE);
        char *first = base_ + page_;
        data_ = flush_end ? first + data_pages_ * page_ - bytes : first;
    }
    ~guarded_buffer_t() { munmap(base_, map_bytes_); }
    char *data() const { return data_; }
    void make_read_only() {
        if (data_pages_) mprotect(base_ + page_, data_pages_ * page_, PROT_READ);
    }

private:
    size_t bytes_, page_, data_pages_, map_bytes_;
    char *base_, *data_;
};

// ---- the problems -----------------------------------------------------------

struct problem_t {
    std::string name;
    std::function<memory::desc()> src, dst;
    std::function<void(primitive_attr &)> attr = [](primitive_attr &) {};
    // Sub-memory views: the view descriptor lives inside a parent buffer.
};

memory::desc strided(const memory::dims &d, dt t, const memory::dims &s) {
    return memory::desc(d, t, s);
}

std::vector<problem_t> problems() {
    const memory::dims act{ 2, 17, 5, 3 }, wei{ 20, 35, 3, 3 }, gwei{ 2, 20, 35, 3, 3 };
    std::vector<problem_t> p;
    auto add = [&](std::string n, std::function<memory::desc()> s, std::function<memory::desc()> d,
                       std::function<void(primitive_attr &)> a = nullptr) {
        problem_t pr{ std::move(n), std::move(s), std::move(d) };
        if (a) pr.attr = std::move(a);
        p.push_back(std::move(pr));
    };
    // plain <-> blocked with tails
    add(
            "nchw_to_nChw16c", [=] { return memory::desc(act, dt::f32, tag::nchw); },
            [=] { return memory::desc(act, dt::f32, tag::nChw16c); });
    add(
            "nChw16c_to_nchw", [=] { return memory::desc(act, dt::f32, tag::nChw16c); },
            [=] { return memory::desc(act, dt::f32, tag::nchw); });
    add(
            "nhwc_to_nChw8c", [=] { return memory::desc(act, dt::f32, tag::nhwc); },
            [=] { return memory::desc(act, dt::f32, "aBcd8b"); });
    // Short copies (desc.short_copy): whole lines assembled from two
    // 8-channel runs, and from four 16-byte runs, up to the buffers' ends.
    add(
            "nChw16c_to_nChw8c_short_lines",
            [=] {
                return memory::desc({ 2, 32, 4, 8 }, dt::f32, "aBcd16b");
            },
            [=] {
                return memory::desc({ 2, 32, 4, 8 }, dt::f32, "aBcd8b");
            });
    add(
            "nChw16c_to_nhwc_s8_short_lines",
            [=] {
                return memory::desc({ 2, 64, 4, 4 }, dt::s8, "aBcd16b");
            },
            [=] {
                return memory::desc({ 2, 64, 4, 4 }, dt::s8, tag::nhwc);
            });
    add(
            "nChw8c_to_nChw16c_s8",
            [=] {
                return memory::desc({ 3, 20, 3, 3 }, dt::s8, "aBcd8b");
            },
            [=] {
                return memory::desc({ 3, 20, 3, 3 }, dt::s8, "aBcd16b");
            });
    add(
            "nchw_to_nChw16c_large",
            [=] {
                return memory::desc({ 2, 67, 33, 29 }, dt::f32, tag::nchw);
            },
            [=] {
                return memory::desc({ 2, 67, 33, 29 }, dt::f32, tag::nChw16c);
            });
    // transposes
    add(
            "ab_to_ba_f32",
            [] {
                return memory::desc({ 33, 47 }, dt::f32, tag::ab);
            },
            [] {
                return memory::desc({ 33, 47 }, dt::f32, tag::ba);
            });
    add(
            "ab_to_ba_large",
            [] {
                return memory::desc({ 517, 263 }, dt::f32, tag::ab);
            },
            [] {
                return memory::desc({ 517, 263 }, dt::f32, tag::ba);
            });
    add(
            "nchw_to_nhwc_f32",
            [=] {
                return memory::desc({ 2, 19, 7, 5 }, dt::f32, tag::nchw);
            },
            [=] {
                return memory::desc({ 2, 19, 7, 5 }, dt::f32, tag::nhwc);
            });
    // 3 channels: the few-lane permute tiles (two whole A tiles of 16
    // positions and a tail of 5 per image), both buffers against a page.
    add(
            "nchw_to_nhwc_f32_3c",
            [=] {
                return memory::desc({ 2, 3, 37, 1 }, dt::f32, tag::nchw);
            },
            [=] {
                return memory::desc({ 2, 3, 37, 1 }, dt::f32, tag::nhwc);
            });
    add(
            "nhwc_to_nchw_s8",
            [=] {
                return memory::desc({ 2, 19, 7, 5 }, dt::s8, tag::nhwc);
            },
            [=] {
                return memory::desc({ 2, 19, 7, 5 }, dt::s8, tag::nchw);
            });
    add(
            "abc_to_cba_bf16",
            [] {
                return memory::desc({ 9, 17, 13 }, dt::bf16, tag::abc);
            },
            [] {
                return memory::desc({ 9, 17, 13 }, dt::bf16, tag::cba);
            });
    // multi-level blocked weights
    add(
            "oihw_to_OIhw16i16o", [=] { return memory::desc(wei, dt::f32, tag::oihw); },
            [=] { return memory::desc(wei, dt::f32, "ABcd16b16a"); });
    add(
            "oihw_to_OIhw4i16o4i", [=] { return memory::desc(wei, dt::f32, tag::oihw); },
            [=] { return memory::desc(wei, dt::f32, "ABcd4b16a4b"); });
    add(
            "OIhw8i16o2i_to_oihw_bf16", [=] { return memory::desc(wei, dt::bf16, "ABcd8b16a2b"); },
            [=] { return memory::desc(wei, dt::bf16, tag::oihw); });
    add(
            "goihw_to_gOIhw16i16o", [=] { return memory::desc(gwei, dt::f32, tag::goihw); },
            [=] { return memory::desc(gwei, dt::f32, "aBCde16c16b"); });
    // blocked weights to plain, flattened short-B tiles: 7x7 in the tile
    // loop (cached, odd O), large 5x5x5 in the loop and 2x2 lanes (streamed,
    // the next block prefetched, edge calls)
    add(
            "OIhw16i16o_to_oihw_7x7",
            [] {
                return memory::desc({ 57, 64, 7, 7 }, dt::f32, "ABcd16b16a");
            },
            [] {
                return memory::desc({ 57, 64, 7, 7 }, dt::f32, tag::oihw);
            });
    add(
            "OIdhw16i16o_to_oidhw_5x5x5_large",
            [] {
                return memory::desc({ 200, 256, 5, 5, 5 }, dt::f32, "ABcde16b16a");
            },
            [] {
                return memory::desc({ 200, 256, 5, 5, 5 }, dt::f32, tag::oidhw);
            });
    add(
            "OIhw16i16o_to_oihw_2x2_large",
            [] {
                return memory::desc({ 1271, 1280, 2, 2 }, dt::f32, "ABcd16b16a");
            },
            [] {
                return memory::desc({ 1271, 1280, 2, 2 }, dt::f32, tag::oihw);
            });
    // AVX2 weights to plain (av16): OIhw8i8o flattened steps (the O
    // blocks baked too), large OIhw16o16i packed rows (their src lines
    // prefetched two lines on)
    add(
            "OIhw8i8o_to_oihw_flat_steps",
            [] {
                return memory::desc({ 24, 48, 3, 3 }, dt::f32, "ABcd8b8a");
            },
            [] {
                return memory::desc({ 24, 48, 3, 3 }, dt::f32, tag::oihw);
            });
    add(
            "OIhw16o16i_to_oihw_packed_large",
            [] {
                return memory::desc({ 1024, 1024, 3, 3 }, dt::f32, "ABcd16a16b");
            },
            [] {
                return memory::desc({ 1024, 1024, 3, 3 }, dt::f32, tag::oihw);
            });
    add(
            "BA16a64b4a",
            [] {
                return memory::desc({ 70, 130 }, dt::s8, tag::ab);
            },
            [] {
                return memory::desc({ 70, 130 }, dt::s8, "BA16a64b4a");
            });
    // int8 with compensation
    add(
            "oihw_to_OIhw4i16o4i_s8_s8s8comp",
            [=] { return memory::desc(wei, dt::f32, tag::oihw); },
            [=] {
                return memory::desc(wei, dt::s8, "ABcd4b16a4b")
                        .with_extra(relayout_extra_flag_compensation_conv_s8s8, 1);
            },
            [](primitive_attr &a) { a.set_scales(RELAYOUT_ARG_DST, 0, { 0.05f }); });
    add(
            "goihw_s8_zpcomp_s8s8comp", [=] { return memory::desc(gwei, dt::f32, tag::goihw); },
            [=] {
                return memory::desc(gwei, dt::s8, "aBCde16c16b")
                        .with_extra(relayout_extra_flag_compensation_conv_s8s8
                                            | relayout_extra_flag_compensation_conv_asymmetric_src,
                                3, 3);
            });
    add(
            "matmul_s8_comp_mask2",
            [] {
                return memory::desc({ 35, 70 }, dt::f32, tag::ab);
            },
            [] {
                return memory::desc({ 35, 70 }, dt::s8, "BA16a64b4a")
                        .with_extra(relayout_extra_flag_compensation_conv_s8s8
                                            | relayout_extra_flag_scale_adjust,
                                2, 0, 0.5f);
            });
    // data-type conversions, scales, zero points, sum
    add(
            "f32_to_bf16", [] { return memory::desc({ 1031 }, dt::f32, tag::a); },
            [] { return memory::desc({ 1031 }, dt::bf16, tag::a); });
    // The paths that narrow to bf16 (vcvtne(2)ps2bf16 at avx512_core_bf16):
    // one vector per position (nhwc -> nChw16c), the A pairs (nchw ->
    // nChw16c, A of 64), the narrow rows (32 B lanes), bf16 with a scale.
    auto plain = [](memory::dims d, dt t, std::string tg) {
        return [=] { return memory::desc(d, t, tg); };
    };
    const memory::dims nhwc16{ 1, 32, 4, 8 }, pairs{ 1, 32, 8, 8 }, rows{ 1, 70, 33, 3 };
    add("nhwc_to_nChw16c_f32_bf16", plain(nhwc16, dt::f32, "acdb"),
            plain(nhwc16, dt::bf16, "aBcd16b"));
    add("nchw_to_nChw16c_f32_bf16_pairs", plain(pairs, dt::f32, "abcd"),
            plain(pairs, dt::bf16, "aBcd16b"));
    add("nchw_to_nhwc_f32_bf16_rows", plain(rows, dt::f32, "abcd"), plain(rows, dt::bf16, "acdb"));
    // The byte quads (u8 nchw -> nChw16c, A of 64: whole src lines).
    add("nchw_to_nChw16c_u8_quads", plain(pairs, dt::u8, "abcd"), plain(pairs, dt::u8, "aBcd16b"));
    add("bf16_scaled_transpose", plain({ 37, 29 }, dt::bf16, "ab"),
            plain({ 37, 29 }, dt::bf16, "ba"),
            [](primitive_attr &a) { a.set_scales(RELAYOUT_ARG_SRC, 0, { 0.5f }); });
    add(
            "f32_to_f16_transpose",
            [] {
                return memory::desc({ 37, 29 }, dt::f32, tag::ab);
            },
            [] {
                return memory::desc({ 37, 29 }, dt::f16, tag::ba);
            });
    add(
            "f16_to_f32",
            [] {
                return memory::desc({ 3, 333 }, dt::f16, tag::ab);
            },
            [] {
                return memory::desc({ 3, 333 }, dt::f32, tag::ab);
            });
    add(
            "s32_to_u8_zp",
            [] {
                return memory::desc({ 5, 77 }, dt::s32, tag::ab);
            },
            [] {
                return memory::desc({ 5, 77 }, dt::u8, tag::ab);
            },
            [](primitive_attr &a) {
                a.set_zero_points(RELAYOUT_ARG_DST, 7);
                a.set_scales(RELAYOUT_ARG_SRC, 0, { 0.25f });
            });
    add(
            "u8_to_f32_per_channel",
            [] {
                return memory::desc({ 4, 16, 3, 3 }, dt::u8, tag::nhwc);
            },
            [] {
                return memory::desc({ 4, 16, 3, 3 }, dt::f32, tag::nchw);
            },
            [](primitive_attr &a) {
                std::vector<float> s(16);
                for (int i = 0; i < 16; ++i)
                    s[i] = 0.5f + i;
                a.set_scales(RELAYOUT_ARG_SRC, 2, s);
                a.set_zero_points(RELAYOUT_ARG_SRC, 3);
            });
    add(
            "s16_to_u16_sum",
            [] {
                return memory::desc({ 7, 45 }, dt::s16, tag::ab);
            },
            [] {
                return memory::desc({ 7, 45 }, dt::u16, tag::ba);
            },
            [](primitive_attr &a) { a.set_post_ops_sum(0.5f); });
    add(
            "f32_to_s8_nChw16c", [=] { return memory::desc(act, dt::f32, tag::nchw); },
            [=] { return memory::desc(act, dt::s8, tag::nChw16c); },
            [](primitive_attr &a) { a.set_scales(RELAYOUT_ARG_DST, 0, { 0.1f }); });
    // Staged byte and word tiles of wide groups (jit_wide_stage): the last
    // call's A (200 bytes, 100 words) is a partial group, not staged.
    add(
            "ab_to_ba_s8_wide_stage",
            [] {
                return memory::desc({ 4096, 1224 }, dt::s8, tag::ab);
            },
            [] {
                return memory::desc({ 4096, 1224 }, dt::s8, tag::ba);
            });
    add(
            "ab_to_ba_bf16_wide_stage",
            [] {
                return memory::desc({ 2048, 2148 }, dt::bf16, tag::ab);
            },
            [] {
                return memory::desc({ 2048, 2148 }, dt::bf16, tag::ba);
            });
    // ... of dst rows under 1 KiB apart (nchw -> nhwc): the last call's A
    // (256 of 1280 positions) is one whole group, staged up to the src's end.
    add(
            "nchw_to_nhwc_s8_wide_stage_near",
            [] {
                return memory::desc({ 1, 64, 32, 40 }, dt::s8, tag::nchw);
            },
            [] {
                return memory::desc({ 1, 64, 32, 40 }, dt::s8, tag::nhwc);
            });
    // ... of two word tiles per call (jit_word_rows64, dst rows whole lines
    // apart): the last call's 34 B lanes (one word tile, not staged: the
    // stage's 64 rows would read past the src) end at the src's guard page.
    add(
            "ab_to_ba_bf16_word_rows64",
            [] {
                return memory::desc({ 4130, 2148 }, dt::bf16, tag::ab);
            },
            [] {
                return strided({ 4130, 2148 }, dt::bf16, { 1, 4160 });
            });
    // ... and of dst rows 512 B to a page apart (jit_word_rows64, nchw
    // -> nhwc): the last call's 8 channels (32-bit tiles, not staged) end
    // at the src's guard page, the last position's 200 at the dst's.
    add(
            "nchw_to_nhwc_bf16_word_near_rows64",
            [] {
                return memory::desc({ 3, 200, 130, 131 }, dt::bf16, tag::nchw);
            },
            [] {
                return memory::desc({ 3, 200, 130, 131 }, dt::bf16, tag::nhwc);
            });
    // Near src rows whose dst rows are a multiple of 512 B apart
    // (jit_word_aliased_dst, nhwc -> nchw): the usual split's calls.
    add(
            "nhwc_to_nchw_bf16_word_aliased_dst",
            [] {
                return memory::desc({ 4, 100, 160, 200 }, dt::bf16, tag::nhwc);
            },
            [] {
                return memory::desc({ 4, 100, 160, 200 }, dt::bf16, tag::nchw);
            });
    // Streamed narrow rows to bf16 of near src rows rounded in integers
    // (jit_bf16_int_near_rows): the last call ends at both guard pages.
    add(
            "nhwc_to_nchw_f32_bf16_int_rows",
            [] {
                return memory::desc({ 4, 100, 160, 132 }, dt::f32, tag::nhwc);
            },
            [] {
                return memory::desc({ 4, 100, 160, 132 }, dt::bf16, tag::nchw);
            });
    // ... of two byte tiles per call (jit_byte_rows128): the last call's 64
    // B lanes (one byte tile, not staged: the stage's 128 rows would read
    // past the src) end at the src's guard page, its 4 A positions at the
    // dst's.
    add(
            "ab_to_ba_s8_byte_rows128",
            [] {
                return memory::desc({ 4160, 4100 }, dt::s8, tag::ab);
            },
            [] {
                return memory::desc({ 4160, 4100 }, dt::s8, tag::ba);
            });
    // Flattened interleave lanes (2x2 weights to plain, streamed, quad
    // loads, jit_flat_b_lanes): whole calls up to the last src block and
    // dst line.
    add(
            "OIhw16i16o_to_oihw_2x2_lanes",
            [] {
                return memory::desc({ 1280, 1280, 2, 2 }, dt::f32, "ABcd16b16a");
            },
            [] {
                return memory::desc({ 1280, 1280, 2, 2 }, dt::f32, tag::oihw);
            });
    // ... and whole B tiles flattened (4x4 weights to plain, streamed,
    // jit_flat_b_tiles).
    add(
            "OIhw16i16o_to_oihw_4x4_flat",
            [] {
                return memory::desc({ 1024, 528, 4, 4 }, dt::f32, "ABcd16b16a");
            },
            [] {
                return memory::desc({ 1024, 528, 4, 4 }, dt::f32, tag::oihw);
            });
    // oihw -> hwio (3x3, streamed): a block of 16 i baked, the flattened
    // short-A tiles of the far-row pairs' 32 o rows (jit_a_run_split),
    // each row's last vector flush against the src's guard page; and
    // oihw -> OIhw8i8o with 32 I blocks per call (jit_min_tile_call).
    auto add_f32 = [&](const char *name, const memory::dims &d, const char *stag,
                           const char *dtag) {
        add(
                name, [=] { return memory::desc(d, dt::f32, stag); },
                [=] { return memory::desc(d, dt::f32, dtag); });
    };
    add_f32("oihw_to_hwio_flat_pairs", { 1024, 768, 3, 3 }, "abcd", "cdba");
    add_f32("oihw_to_OIhw8i8o_long_calls", { 512, 512, 3, 3 }, "abcd", "ABcd8b8a");
    // 16o16i weights to plain (3x3, streamed): the tiles' rows packed
    // through the stack (jit_packed_rows), each tile's dst 9 whole lines,
    // the last one flush against the dst's guard page; padded O: the last
    // o block's calls shorter. (A padded I of a 3x3 is not streamed, so
    // not packed: the edge tiles on a 2x5, 1000 x 10 f32 per o.)
    add(
            "OIhw16o16i_to_oihw_packed_rows",
            [] {
                return memory::desc({ 1000, 1024, 3, 3 }, dt::f32, "ABcd16a16b");
            },
            [] {
                return memory::desc({ 1000, 1024, 3, 3 }, dt::f32, tag::oihw);
            });
    add(
            "OIhw16o16i_to_oihw_packed_rows_edge",
            [] {
                return memory::desc({ 1024, 1000, 2, 5 }, dt::f32, "ABcd16a16b");
            },
            [] {
                return memory::desc({ 1024, 1000, 2, 5 }, dt::f32, tag::oihw);
            });
    // A shorter than a tile on AVX-512 (jit_a_rows_unmasked): full tiles
    // load their src rows unmasked where the vector ends within the tile's
    // src; the last full tile ends flush against the src's guard page (O
    // and I whole blocks), so its last rows stay masked. 16 x 16 tiles
    // of 2- and 1-byte srcs and of a value path, and row tiles (8i8o).
    add(
            "oihw_to_OIhw16i16o_bf16_unmasked_rows",
            [] {
                return memory::desc({ 32, 32, 3, 3 }, dt::bf16, tag::oihw);
            },
            [] {
                return memory::desc({ 32, 32, 3, 3 }, dt::bf16, "ABcd16b16a");
            });
    add(
            "oihw_to_OIhw16i16o_s8_unmasked_rows",
            [] {
                return memory::desc({ 16, 32, 1, 13 }, dt::s8, tag::oihw);
            },
            [] {
                return memory::desc({ 16, 32, 1, 13 }, dt::s8, "ABcd16b16a");
            });
    add(
            "oihw_to_OIhw16i16o_f32_scaled_unmasked_rows",
            [] {
                return memory::desc({ 32, 16, 3, 3 }, dt::f32, tag::oihw);
            },
            [] {
                return memory::desc({ 32, 16, 3, 3 }, dt::f32, "ABcd16b16a");
            },
            [](primitive_attr &a) { a.set_scales(RELAYOUT_ARG_SRC, 0, { 0.25f }); });
    add(
            "oihw_to_OIhw8i8o_unmasked_rows",
            [] {
                return memory::desc({ 24, 32, 3, 3 }, dt::f32, tag::oihw);
            },
            [] {
                return memory::desc({ 24, 32, 3, 3 }, dt::f32, "ABcd8b8a");
            });
    add(
            "oihw_to_OIhw4i16o4i_f32_unmasked_rows",
            [] {
                return memory::desc({ 16, 32, 1, 13 }, dt::f32, tag::oihw);
            },
            [] {
                return memory::desc({ 16, 32, 1, 13 }, dt::f32, "ABcd4b16a4b");
            });
    // f32 line pairs (jit_f32_line_pairs, the rows assembled in registers:
    // gen_f32_line_pair_regs; streamed, dst rows 3001 elements apart): the last
    // A row ends flush against the dst's guard page, its last call of 25 B
    // lanes (single tiles) after 93 pairs whose tails it continues.
    add(
            "ab_to_ba_f32_line_pairs",
            [] {
                return memory::desc({ 3001, 2200 }, dt::f32, tag::ab);
            },
            [] {
                return memory::desc({ 3001, 2200 }, dt::f32, tag::ba);
            });
    // Far-row blocks (jit_far_rows_blocks: streamed, dst rows 3008
    // elements apart, calls of 256 x 128; the last B block of 64 rows, the
    // last A block of 155 positions): the last dst row ends flush against
    // the dst's guard page; the tiles' prefetch of the next B block runs
    // past the src's end (a prefetch, which does not fault).
    add(
            "ab_to_ba_f32_far_blocks",
            [] {
                return memory::desc({ 3008, 2203 }, dt::f32, tag::ab);
            },
            [] {
                return memory::desc({ 3008, 2203 }, dt::f32, tag::ba);
            });
    // strided src / dst (gaps)
    add(
            "strided_gaps",
            [] {
                return strided({ 6, 7, 5 }, dt::f32, { 100, 12, 2 });
            },
            [] {
                return strided({ 6, 7, 5 }, dt::f32, { 1, 60, 9 });
            });
    add(
            "broadcast_src",
            [] {
                return strided({ 8, 33 }, dt::f32, { 0, 1 });
            },
            [] {
                return memory::desc({ 8, 33 }, dt::f32, tag::ba);
            });
    // sub-memory views (offset0)
    add(
            "submemory_src",
            [] {
                return memory::desc({ 4, 32, 6, 6 }, dt::f32, tag::nChw16c)
                        .submemory_desc({ 2, 16, 3, 5 }, { 1, 16, 2, 1 });
            },
            [] {
                return memory::desc({ 2, 16, 3, 5 }, dt::f32, tag::nchw);
            });
    add(
            "submemory_dst",
            [] {
                return memory::desc({ 2, 16, 3, 5 }, dt::f32, tag::nhwc);
            },
            [] {
                return memory::desc({ 4, 32, 6, 6 }, dt::f32, tag::nchw)
                        .submemory_desc({ 2, 16, 3, 5 }, { 2, 5, 3, 1 });
            });
    add(
            "submemory_tail_dst",
            [] {
                return memory::desc({ 2, 17, 3, 3 }, dt::f32, tag::nchw);
            },
            [] {
                return memory::desc({ 2, 33, 3, 3 }, dt::f32, tag::nChw16c)
                        .submemory_desc({ 2, 17, 3, 3 }, { 0, 16, 0, 0 });
            });
    // zero volume: the handles sit right against a guard page
    add(
            "zero_volume",
            [] {
                return memory::desc({ 2, 0, 3 }, dt::f32, tag::abc);
            },
            [] {
                return memory::desc({ 2, 0, 3 }, dt::f32, tag::cba);
            });
    add(
            "zero_volume_blocked",
            [] {
                return memory::desc({ 0, 17, 3, 3 }, dt::f32, tag::nchw);
            },
            [] {
                return memory::desc({ 0, 17, 3, 3 }, dt::s8, tag::nChw16c);
            });
    return p;
}

// ---- the child: run the problem guarded and compare ------------------------

std::vector<char> source_bytes(const memory::desc &md) {
    const size_t n = md.get_size();
    std::vector<char> b(n);
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> u(-300.f, 300.f);
    const dt t = md.get_data_type();
    const size_t es = memory::data_type_size(t);
    for (size_t i = 0; i + es <= n; i += es) {
        const float v = u(rng);
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        switch (t) {
            case dt::f32: std::memcpy(&b[i], &v, 4); break;
            case dt::s32: {
                int32_t x = int32_t(v * 1000);
                std::memcpy(&b[i], &x, 4);
                break;
            }
            case dt::bf16: {
                uint16_t x = uint16_t(bits >> 16);
                std::memcpy(&b[i], &x, 2);
                break;
            }
            case dt::f16: {
                uint16_t x = uint16_t(rng() & 0xFBFF);
                std::memcpy(&b[i], &x, 2);
                break;
            }
            case dt::s16:
            case dt::u16: {
                uint16_t x = uint16_t(rng());
                std::memcpy(&b[i], &x, 2);
                break;
            }
            default: b[i] = char(rng()); break;
        }
    }
    return b;
}

// Runs the reorder with src/dst at the given addresses (buffers already
// filled); returns a non-empty message on a library error.
std::string run(const problem_t &p, const memory::desc &smd, const memory::desc &dmd, void *src,
        void *dst, const std::function<void()> &before_execute) {
    try {
        engine eng(engine::kind::cpu, 0);
        stream s(eng);
        memory sm(smd, eng, src), dm(dmd, eng, dst);
        primitive_attr attr;
        p.attr(attr);
        reorder::primitive_desc pd(eng, smd, eng, dmd, attr);
        reorder r(pd);
        before_execute();
        r.execute(s, sm, dm);
        return "";
    } catch (const error &e) {
        return e.what();
    }
}

int child_main(const problem_t &p, relayout_cpu_isa_t isa, bool flush_end) {
    const memory::desc smd = p.src(), dmd = p.dst();
    const size_t ss = smd.get_size(), ds = dmd.get_size();
    const std::vector<char> src_init = source_bytes(smd);
    std::vector<char> dst_init(ds);
    for (size_t i = 0; i < ds; ++i)
        dst_init[i] = char(0xA5 ^ (i * 7));

    // Reference: ISA cap none, ordinary buffers.
    set_max_cpu_isa(relayout_cpu_isa_none);
    std::vector<char> rsrc(src_init), rdst(dst_init);
    std::string err = run(p, smd, dmd, rsrc.data(), rdst.data(), [] {});
    if (!err.empty()) {
        fprintf(stderr, "reference failed: %s\n", err.c_str());
        return 2;
    }

    // Under test: the ISA cap, guarded buffers, read-only source.
    set_max_cpu_isa(isa);
    guarded_buffer_t gsrc(ss, flush_end), gdst(ds, flush_end);
    if (ss) std::memcpy(gsrc.data(), src_init.data(), ss);
    if (ds) std::memcpy(gdst.data(), dst_init.data(), ds);
    err = run(p, smd, dmd, gsrc.data(), gdst.data(), [&] { gsrc.make_read_only(); });
    if (!err.empty()) {
        fprintf(stderr, "guarded run failed: %s\n", err.c_str());
        return 2;
    }
    if (getenv("RELAYOUT_GUARD_PAGE_SHOW_IMPL")) {
        primitive_attr attr;
        p.attr(attr);
        fprintf(stderr, "%s: %s\n", p.name.c_str(),
                reorder::primitive_desc(
                        engine(engine::kind::cpu, 0), smd, engine(engine::kind::cpu, 0), dmd, attr)
                        .impl_info_str()
                        .c_str());
    }
    if (ss && std::memcmp(gsrc.data(), rsrc.data(), ss) != 0) {
        fprintf(stderr, "the source changed\n");
        return 1;
    }
    for (size_t i = 0; i < ds; ++i)
        if (gdst.data()[i] != rdst[i]) {
            fprintf(stderr, "dst byte %zu of %zu differs from the reference: %02x vs %02x\n", i, ds,
                    (unsigned char)gdst.data()[i], (unsigned char)rdst[i]);
            return 1;
        }
    return 0;
}

struct isa_t {
    relayout_cpu_isa_t isa;
    const char *name;
};

const isa_t k_isas[] = { { relayout_cpu_isa_none, "none" }, { relayout_cpu_isa_avx2, "avx2" },
    { relayout_cpu_isa_avx512_core, "avx512_core" },
    { relayout_cpu_isa_avx512_core_bf16, "avx512_core_bf16" } };

// Whether the machine has an ISA: asked in a child so the parent stays
// library-free.
bool machine_has(relayout_cpu_isa_t isa) {
    pid_t pid = fork();
    if (pid == 0) {
        set_max_cpu_isa(isa);
        _exit(get_effective_cpu_isa() == isa ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

struct param_t {
    size_t problem;
    int isa;
    bool flush_end;
};

std::vector<param_t> params() {
    std::vector<param_t> v;
    const size_t n = problems().size();
    for (size_t p = 0; p < n; ++p)
        for (int i = 0; i < (int)(sizeof(k_isas) / sizeof(*k_isas)); ++i)
            for (bool e : { true, false })
                v.push_back({ p, i, e });
    return v;
}

void PrintTo(const param_t &p, std::ostream *os) {
    *os << "{problem " << p.problem << ", isa " << k_isas[p.isa].name << ", "
        << (p.flush_end ? "end" : "begin") << "}";
}

class GuardPage : public ::testing::TestWithParam<param_t> {};

TEST_P(GuardPage, StaysInsideItsBuffers) {
    const param_t prm = GetParam();
    const isa_t isa = k_isas[prm.isa];
    if (isa.isa != relayout_cpu_isa_none && !machine_has(isa.isa))
        GTEST_SKIP() << "the CPU has no " << isa.name;
    const problem_t p = problems()[prm.problem];
    // (avx512_core_bf16 names the conversions to bf16 only: avx512_core
    // runs the rest, tested there.)
    if (isa.isa == relayout_cpu_isa_avx512_core_bf16 && p.name.find("bf16") == std::string::npos)
        GTEST_SKIP() << "no bf16";
    fflush(nullptr);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) _exit(child_main(p, isa.isa, prm.flush_end));
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status))
        FAIL() << p.name << " at isa " << isa.name << " ("
               << (prm.flush_end ? "flush against the trailing guard"
                                 : "flush against the leading guard")
               << ") died with signal " << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status))
               << "): an access outside [handle, handle + get_size()) or a write to the source";
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0)
            << p.name << " at isa " << isa.name << ": see the child's message above";
}

std::string param_name(const ::testing::TestParamInfo<param_t> &info) {
    return problems()[info.param.problem].name + "_" + k_isas[info.param.isa].name
           + (info.param.flush_end ? "_end" : "_begin");
}

INSTANTIATE_TEST_SUITE_P(Problems, GuardPage, ::testing::ValuesIn(params()), param_name);

} // namespace
