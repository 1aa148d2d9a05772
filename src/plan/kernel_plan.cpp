#include "plan/kernel_plan.hpp"

#include <algorithm>
#include <cstddef>

namespace relayout {
namespace impl {

namespace {

kloop_t to_kloop(const node_t &n) {
    kloop_t k;
    k.n = n.n;
    k.is = n.is;
    k.os = n.os;
    k.ss = n.ss;
    k.ds = n.ds;
    k.cs = n.cs;
    k.zs = n.zs;
    k.dim = n.dim;
    k.mult = n.mult;
    k.tab = n.tab;
    k.split_of = -1;
    k.total = n.n;
    k.in_n = 1;
    k.in_is = k.in_os = k.in_ss = k.in_ds = k.in_cs = k.in_zs = 0;
    return k;
}

kloop_t unit_kloop() {
    node_t n{ 1, 0, 0, -1, 1, 0, 0, 0, 0, -1 };
    return to_kloop(n);
}

std::string kloop2str(const plan_t &p, const kloop_t &l) {
    std::string s = "[" + std::to_string(l.n);
    if (l.tab >= 0)
        s += " tab";
    else
        s += " " + std::to_string(l.is) + " " + std::to_string(l.os);
    if (l.dim >= 0) {
        s += " d" + std::to_string(l.dim);
        if (l.mult != 1) s += "*" + std::to_string(l.mult);
        if (p.check[l.dim]) s += " pad";
    }
    if (l.split_of >= 0) s += " /" + std::to_string(l.split_of);
    if (l.in_n > 1) s += " x" + std::to_string(l.in_n) + ":" + std::to_string(l.in_is);
    return s + "]";
}

// A loop continuing the src run of micro A (src stride 1): its src stride
// is A's extent, so A's next elements (not an offset table).
bool continues_a_run(const kernel_plan_t &kp, const kloop_t &l) {
    return l.tab < 0 && l.is == kp.micro[0].n;
}

// Moves the first loop of `rest` (the driver's nodes, innermost last) that
// `pred` takes, other than the innermost one, to the innermost place.
template <typename Pred>
void move_innermost(std::vector<kloop_t> &rest, Pred pred) {
    for (size_t j = 0; j + 1 < rest.size(); ++j) {
        if (!pred(rest[j])) continue;
        const kloop_t l = rest[j];
        rest.erase(rest.begin() + (std::ptrdiff_t)j);
        rest.push_back(l);
        return;
    }
}

// The outer part of `l` split in blocks of b: every stride times b.
void scale_strides(kloop_t &l, dim_t b) {
    l.is *= b;
    l.os *= b;
    l.ss *= b;
    l.ds *= b;
    l.cs *= b;
    l.zs *= b;
    l.mult *= b;
}

dim_t round_down(dim_t a, dim_t b) {
    return a / b * b;
}

} // namespace

const char *strategy2str(kernel_strategy_t s) {
    switch (s) {
        case kernel_strategy_t::copy: return "copy";
        case kernel_strategy_t::transpose: return "transpose";
        case kernel_strategy_t::scalar: return "scalar";
        case kernel_strategy_t::interleave: return "interleave";
    }
    return "?";
}

std::string kernel_plan_t::dump(const plan_t &p) const {
    std::string s = strategy2str(strategy);
    for (int m = 0; m < nmicro; ++m)
        s += std::string(" ") + (nmicro == 2 ? (m == 0 ? "A" : "B") : "V") + kloop2str(p, micro[m]);
    s += " loops:";
    for (const auto &l : loops)
        s += kloop2str(p, l);
    s += " driver:";
    for (const auto &l : driver)
        s += kloop2str(p, l);
    if (serial) s += " serial";
    if (src_scale_expand > 1) s += " ssc_x" + std::to_string(src_scale_expand);
    if (dst_scale_expand > 1) s += " dsc_x" + std::to_string(dst_scale_expand);
    return s;
}

status_t kernel_plan_create(
        kernel_plan_t &kp, const plan_t &p, const kernel_plan_params_t &params) {
    kp = kernel_plan_t();
    const auto &nodes = p.nodes;
    const int K = (int)nodes.size();
    auto checked = [&](const node_t &n) { return n.dim >= 0 && p.check[n.dim]; };
    // Scales are read as vectors along the lanes (dst-contiguous node):
    // their index must be constant or unit-stride there.
    auto lane_ok = [&](const node_t &n) {
        return (p.src_scale_mask < 0 || n.ss == 0 || n.ss == 1)
               && (p.dst_scale_mask < 0 || n.ds == 0 || n.ds == 1);
    };

    int mi[2] = { -1, -1 };
    int b1 = -1;            // interleave: the folded inner B node
    bool virtual_a = false; // interleave of one A position (no A node)
    if (K > 0) {
        const node_t &in = nodes[K - 1];
        // A short dst-contiguous node (4i, 2i) and the one above it (16o)
        // fill the lanes together: interleave, along A (`a`, or one
        // position when null).
        auto try_fold = [&](const node_t *a) {
            if (K < 2 || in.n >= params.vlen || params.vlen % in.n != 0 || checked(in)) return;
            const node_t &b2 = nodes[K - 2];
            // The folded level's scale index: constant like B's, running
            // along the lanes, or constant under B's (0 and 1: each scale
            // repeated over in.n lanes, see *_scale_expand).
            auto fold_ok = [&](dim_t s1, dim_t s2, bool set) {
                return !set || (s1 == 0 && (s2 == 0 || s2 == 1)) || (s1 == 1 && s2 == in.n);
            };
            if (b2.tab >= 0 || b2.os != in.n || b2.is == 1) return;
            if (a && checked(b2) && checked(*a) && a->dim == b2.dim) return;
            if (!fold_ok(in.ss, b2.ss, p.src_scale_mask >= 0)
                    || !fold_ok(in.ds, b2.ds, p.dst_scale_mask >= 0))
                return;
            kp.strategy = kernel_strategy_t::interleave;
            kp.nmicro = 2;
            mi[1] = K - 2;
            b1 = K - 1;
            if (p.src_scale_mask >= 0 && in.ss == 0 && b2.ss == 1) kp.src_scale_expand = in.n;
            if (p.dst_scale_mask >= 0 && in.ds == 0 && b2.ds == 1) kp.dst_scale_expand = in.n;
        };
        if (in.tab < 0 && in.is == 1 && in.os == 1 && lane_ok(in)) {
            kp.strategy = kernel_strategy_t::copy;
            kp.nmicro = 1;
            mi[0] = K - 1;
            // A copy run shorter than a vector under a dst-contiguous node
            // (1x1 VNNI packings: [16 o][4 i], no unit-stride A): gather
            // the lanes, groups of in.n elements (2 to 16 bytes).
            const size_t gb = size_t(in.n) * data_type_size(p.sdt);
            if (gb == 2 || gb == 4 || gb == 8 || gb == 16) {
                try_fold(nullptr);
                if (kp.strategy == kernel_strategy_t::interleave) {
                    mi[0] = -1;
                    virtual_a = true;
                }
            }
        } else if (in.tab < 0 && in.os == 1 && lane_ok(in)) {
            for (int k = K - 2; k >= 0; --k) {
                const node_t &a = nodes[k];
                if (a.tab >= 0 || a.is != 1) continue;
                if (checked(a) && checked(in) && a.dim == in.dim) continue;
                kp.strategy = kernel_strategy_t::transpose;
                kp.nmicro = 2;
                mi[0] = k;
                mi[1] = K - 1;
                break;
            }
            if (mi[1] == K - 1 && K >= 3 && mi[0] != K - 2) try_fold(&nodes[mi[0]]);
        }
    }
    if (mi[0] < 0 && !virtual_a) {
        kp.strategy = kernel_strategy_t::scalar;
        kp.nmicro = 1;
        for (int k = K - 1; k >= 0; --k)
            if (nodes[k].tab < 0) {
                mi[0] = k;
                break;
            }
    }

    // Micro blocks (cache blocking and threading granularity).
    dim_t blk[2] = { 1, 1 };
    const dim_t vlen = params.vlen;
    for (int m = 0; m < kp.nmicro; ++m) {
        if (mi[m] < 0) {
            kp.micro[m] = unit_kloop();
            blk[m] = 1;
            continue;
        }
        kp.micro[m] = to_kloop(nodes[mi[m]]);
        blk[m] = kp.micro[m].n;
    }
    if (b1 >= 0) {
        kloop_t &B = kp.micro[1];
        const node_t &in = nodes[b1];
        B.in_n = in.n;
        B.in_is = in.is;
        B.in_os = in.os;
        B.in_ss = in.ss;
        B.in_ds = in.ds;
        B.in_cs = in.cs;
        B.in_zs = in.zs;
    }
    switch (kp.strategy) {
        case kernel_strategy_t::copy: blk[0] = std::min(blk[0], params.copy_block); break;
        case kernel_strategy_t::transpose: {
            // B (dst rows) at least a line per row; A as long as the plane
            // allows (long src runs); a short A gives B the rest.
            const dim_t min_b = std::min(blk[1], params.tile_b);
            const dim_t a = std::max(vlen, round_down(params.tile_plane / min_b, vlen));
            blk[0] = std::min(blk[0], a);
            const dim_t b = params.tile_b_max
                                    ? min_b
                                    : std::max(min_b, round_down(params.tile_plane / blk[0], vlen));
            blk[1] = std::min(blk[1], b);
            break;
        }
        case kernel_strategy_t::interleave: {
            const dim_t in_n = kp.micro[1].in_n;
            blk[1] = std::min(blk[1], std::max<dim_t>(1, 64 / in_n));
            dim_t a = std::max(vlen, round_down(params.tile_plane / (blk[1] * in_n), vlen));
            blk[0] = std::min(blk[0], a);
            break;
        }
        case kernel_strategy_t::scalar: blk[0] = std::min<dim_t>(blk[0], 4096); break;
    }

    // The remaining nodes in plan order; a split micro node leaves its outer
    // part where it was.
    std::vector<kloop_t> rest;
    for (int k = 0; k < K; ++k) {
        if (k == b1) continue;
        int m = k == mi[0] ? 0 : (kp.nmicro == 2 && k == mi[1]) ? 1 : -1;
        if (m < 0) {
            rest.push_back(to_kloop(nodes[k]));
            continue;
        }
        kloop_t &mk = kp.micro[m];
        if (blk[m] < mk.n) {
            kloop_t o = mk;
            o.n = div_up(mk.n, blk[m]);
            scale_strides(o, blk[m]);
            o.split_of = m;
            o.total = mk.n;
            rest.push_back(o);
        }
        mk.total = mk.n;
        mk.n = blk[m];
    }

    // A loop continuing A's src run (OIhw16o16i -> oihw: the o loop of src
    // stride 16 over A = 16 i) baked innermost when the plan order put
    // another one there (the I blocks, of src stride 2304): a call then
    // reads one dense src block instead of a line per 1 KiB.
    if ((params.a_run_loop || params.a_run_split) && kp.strategy == kernel_strategy_t::transpose
            && rest.size() >= 2 && kp.micro[0].is == 1 && kp.micro[0].n == kp.micro[0].total
            && rest.back().is > kp.micro[0].n) {
        const dim_t work0 = kp.micro[0].n * kp.micro[1].n;
        auto runs_a = [&](const kloop_t &l) {
            return continues_a_run(kp, l) && l.split_of < 0 && !(l.dim >= 0 && p.check[l.dim]);
        };
        if (params.a_run_loop) {
            move_innermost(rest, [&](const kloop_t &l) {
                return runs_a(l) && work0 * l.n <= params.bake_limit;
            });
        }
        // Too long to bake whole under a short A (oihw -> hwio 3x3: A = 9
        // hw, the i loop of src stride 9 and 1024 i): a block of 16 of it
        // (the flattened tiles' positions per step, AVX2 too), so that each
        // B row of a call is A whole tiles of src (the flattened tiles); its
        // outer part goes innermost in the driver: the next call continues
        // the same src rows. (Left where the loop was, the o blocks
        // innermost, it was even on a Xeon.)
        const dim_t run_blk = 16;
        if (params.a_run_split && kp.micro[0].n < run_blk && !continues_a_run(kp, rest.back())) {
            for (size_t j = 0; j + 1 < rest.size(); ++j) {
                const kloop_t l = rest[j];
                if (!runs_a(l) || l.n % run_blk != 0 || work0 * run_blk > params.bake_limit)
                    continue;
                kloop_t in = l, out = l;
                in.n = run_blk;
                out.n = l.n / run_blk;
                scale_strides(out, run_blk);
                rest.erase(rest.begin() + (std::ptrdiff_t)j);
                rest.push_back(out);
                rest.push_back(in);
                break;
            }
        }
    }

    // The same for a copy (OIhw16o16i -> ohwi: the o loop of src stride 16
    // over a run of 16 i, the I blocks of src stride 2304 innermost): a
    // call reads whole src blocks ([16 o][16 i], 1 KiB) instead of a line
    // of each of 576, and writes a run of each of the 16 o rows. Only a
    // blocked dim's loop (weights' o; not the spatial loop of nChw16c ->
    // nhwc), when the loop innermost is a blocked dim's too (not the
    // spatial loop of nhwc -> nChw16c under its C blocks: weights with
    // both dims blocked), of far dst rows (a page or more) under a run
    // baked whole of whole lines (runs of 8 f32 store each dst line in
    // halves far apart: hwio -> OIhw8i8o lost, 1.3 -> 0.9x oneDNN).
    const dim_t dsz = (dim_t)data_type_size(p.ddt);
    auto blocked = [&](const kloop_t &l) {
        return l.dim >= 0 && std::count_if(nodes.begin(), nodes.end(), [&](const node_t &n) {
            return n.dim == l.dim;
        }) >= 2;
    };
    if (params.copy_run_loop && kp.strategy == kernel_strategy_t::copy && rest.size() >= 2
            && kp.micro[0].is == 1 && kp.micro[0].n == kp.micro[0].total
            && kp.micro[0].n * dsz % 64 == 0 && rest.back().is > kp.micro[0].n
            && blocked(rest.back())) {
        const dim_t page = 4096 / dsz;
        // (Not a loop the call bakes anyway, under the loops inside it:
        // 1x1, OIhw16o16i -> ohwi lost, 0.88x.)
        auto baked_anyway = [&](const kloop_t &l) {
            dim_t w = kp.micro[0].n;
            for (const kloop_t *q = &l; q != rest.data() + rest.size(); ++q)
                w *= q->n;
            return w <= params.bake_limit;
        };
        move_innermost(rest, [&](const kloop_t &l) {
            return continues_a_run(kp, l) && l.split_of < 0 && blocked(l) && !p.check[l.dim]
                   && l.os >= page && kp.micro[0].n * l.n <= params.bake_limit && !baked_anyway(l);
        });
    }

    dim_t work = 1;
    for (int m = 0; m < kp.nmicro; ++m)
        work *= kp.micro[m].n * kp.micro[m].in_n;
    dim_t rest_total = 1;
    for (const auto &l : rest)
        rest_total *= l.n;
    const size_t bytes = size_t(p.nelems()) * (data_type_size(p.sdt) + data_type_size(p.ddt));
    kp.serial = bytes < params.serial_bytes;

    // Whole src rows (nhwc -> nChw8c: a run of 8 c, under the spatial
    // loop of the dst blocks, src rows of 256 c, 1 KiB apart, and the C
    // blocks in the driver): each call read 32 bytes of each of 4096 rows,
    // the next call (the next C block) the rows' other halves. A call
    // takes a block of h rows and all their C blocks instead: runs of
    // half or a quarter dst line [rows / u][C blocks][u], each row read
    // whole and in order, a whole line of each C block's dst per u rows
    // (jit_short_unroll assembles them); whole lines (nChw16c, u = 1)
    // [C blocks][rows]. The row blocks go to the driver.
    bool rows_baked = false;
    if (params.copy_src_rows > 0 && kp.strategy == kernel_strategy_t::copy && rest.size() >= 2
            && kp.micro[0].n == kp.micro[0].total && kp.micro[0].dim >= 0) {
        const kloop_t &v = kp.micro[0];
        const dim_t ssz = (dim_t)data_type_size(p.sdt);
        const dim_t piece = v.n * (p.bit_copy ? ssz : dsz), u = piece > 0 ? 64 / piece : 0;
        const kloop_t &d = rest.back();
        auto plain = [&](const kloop_t &l) {
            return l.tab < 0 && l.split_of < 0 && !(l.dim >= 0 && p.check[l.dim]);
        };
        // The C blocks: continuing the run in the src, each row their
        // whole extent (a row of at least 256 bytes: channels-last).
        size_t s = rest.size();
        for (size_t j = 0; j + 1 < rest.size(); ++j)
            if (plain(rest[j]) && rest[j].dim == v.dim && rest[j].is == v.n
                    && d.is == rest[j].n * v.n)
                s = j;
        // (Not a blocked dim's rows: hwio -> OIhw16i16o, whose i rows
        // copy_run_loop reads whole.)
        if ((u == 1 || u == 2 || u == 4) && 64 % piece == 0 && s < rest.size() && plain(d)
                && !blocked(d) && d.dim != v.dim && d.os == v.n && d.is * ssz >= 256
                && d.n % u == 0) {
            const kloop_t c = rest[s];
            // Rows per call: the largest divisor of the count, a multiple
            // of u, that keeps the call within the limit (a prime count
            // keeps the old plan: calls of one row).
            dim_t h = std::min(d.n, params.copy_src_rows / (v.n * c.n)) / u * u;
            while (h >= u && d.n % h != 0)
                h -= u;
            const dim_t others = rest_total / (d.n * c.n);
            if (h >= u && v.n * c.n * h >= params.min_call
                    && (kp.serial || others * (d.n / h) >= params.min_driver)) {
                kloop_t rows = d, in = d, out = d;
                rows.n = h / u;
                scale_strides(rows, u);
                in.n = u;
                out.n = d.n / h;
                scale_strides(out, h);
                rest.erase(rest.begin() + (std::ptrdiff_t)s);
                rest.back() = out;
                if (out.n == 1) rest.pop_back();
                // (Whole lines, u = 1: the C blocks outermost, each writing
                // a run of h lines; against the rows outermost, 2 threads,
                // 16x256x64x64 f32 1.39x. Half lines: 0.82x.)
                kp.loops = u == 1 ? std::vector<kloop_t>{ c, rows }
                                  : std::vector<kloop_t>{ rows, c, in };
                work *= h * c.n;
                rest_total = others * out.n;
                rows_baked = true;
            }
        }
    }

    // Bake the innermost remaining loops while a call stays small and the
    // driver keeps enough iterations for the threads.
    while (!rows_baked && !rest.empty() && (int)kp.loops.size() < params.max_loops) {
        kloop_t &l = rest.back();
        if (l.tab >= 0 || l.split_of >= 0 || (l.dim >= 0 && p.check[l.dim])) break;
        if (work * l.n > params.bake_limit) {
            // Copies this short (a run of 16 elements per call: nhwc ->
            // nChw16c, nChw8c -> nChw16c) cost more in the driver than in
            // the kernel: bake a block of the loop, the largest divisor of
            // its count that keeps the call within the limit (no tail), and
            // leave the blocks to the driver. (Tiles keep their measured
            // call shapes: 2x2 weights to plain, 1024 elements per call.)
            // (Tiles below min_tile_call likewise: 8i8o weights, 576
            // elements per call; AVX2 transposes below min_call with
            // short_tiles_split; interleaves to bytes whatever their call
            // size with split_interleaves.)
            const bool tiles = kp.strategy == kernel_strategy_t::transpose
                               || kp.strategy == kernel_strategy_t::interleave;
            const bool as_copy =
                    kp.strategy == kernel_strategy_t::copy
                    || (params.short_tiles_split && kp.strategy == kernel_strategy_t::transpose);
            const bool split = as_copy ? work < params.min_call
                                       : (kp.strategy == kernel_strategy_t::interleave
                                                 && params.split_interleaves)
                                                 || (tiles && work < params.min_tile_call);
            if (!split) break;
            const dim_t limit = tiles && !as_copy && params.tile_call_max ? params.tile_call_max
                                                                          : params.bake_limit;
            dim_t b = limit / work;
            while (b > 1 && l.n % b != 0)
                --b;
            const dim_t outer = l.n / b;
            if (b < 2 || (!kp.serial && rest_total / l.n * outer < params.min_driver)) break;
            kloop_t in = l;
            in.n = b;
            l.n = outer;
            scale_strides(l, b);
            work *= b;
            rest_total = rest_total / b;
            kp.loops.insert(kp.loops.begin(), in);
            break;
        }
        if (!kp.serial && rest_total / l.n < params.min_driver) break;
        work *= l.n;
        rest_total /= l.n;
        kp.loops.insert(kp.loops.begin(), l);
        rest.pop_back();
    }
    // Tiles of A split into blocks whose src continues along A (hwio ->
    // OIhw4i16o4i: A = 16 o of src stride 1, the o blocks 16 apart) when
    // the innermost driver node jumps a page or more in the src (the i
    // blocks, 16 rows of 4 KiB): each call then reads the next lines of
    // the same src rows instead of as many new pages. Not when that node is
    // B's own blocks (ab -> ba): consecutive calls then continue each dst
    // row (whole dst lines, the f32 line pairs' carried rows); A blocks
    // inside them write every dst row's lines a call at a time, a B sweep
    // apart (8191x8192 f32 AVX2: 3x slower).
    // Copies the same (copy_blocks_inner; hwio -> OIhw16i16o 3x3: a run of
    // 16 o per position, the o blocks of src stride 16 outside the i
    // blocks of 16 rows 4 KiB apart): each call then reads the next line
    // of the same 144 src rows instead of a line of as many new pages.
    const bool blocks_inner =
            (params.a_blocks_inner && kp.nmicro == 2)
            || (params.copy_blocks_inner && kp.strategy == kernel_strategy_t::copy);
    if (blocks_inner && rest.size() >= 2 && kp.micro[0].is == 1 && rest.back().tab < 0
            && rest.back().split_of != 1 && rest.back().is * (dim_t)data_type_size(p.sdt) >= 4096) {
        move_innermost(rest, [&](const kloop_t &l) {
            return continues_a_run(kp, l) && l.dim >= 0 && l.dim == kp.micro[0].dim;
        });
    }
    kp.driver = std::move(rest);
    kp.driver_total = rest_total;

    // Expanded scales: index e * (scale index) + folded position.
    auto expand = [&](dim_t e, dim_t kloop_t::*s, dim_t kloop_t::*in_s) {
        if (e == 1) return;
        for (int m = 0; m < kp.nmicro; ++m)
            kp.micro[m].*s *= e;
        for (auto &l : kp.loops)
            l.*s *= e;
        for (auto &l : kp.driver)
            l.*s *= e;
        kp.micro[1].*in_s = 1;
    };
    expand(kp.src_scale_expand, &kloop_t::ss, &kloop_t::in_ss);
    expand(kp.dst_scale_expand, &kloop_t::ds, &kloop_t::in_ds);
    return status_t::success;
}

} // namespace impl
} // namespace relayout
