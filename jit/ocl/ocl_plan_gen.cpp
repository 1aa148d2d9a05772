#include "jit/ocl/ocl_plan_gen.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <sstream>

#include "common/utils.hpp"
#include "md/data_type.hpp"

namespace relayout {
namespace impl {
namespace ocl {

namespace {

// Offset tables beyond this many bytes do not fit __constant memory safely
// (the minimum CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE is 64 KiB).
constexpr size_t max_table_bytes = 48 * 1024;

// An unsigned type of the element's size, for bit copies.
const char *bits_type(data_type_t dt) {
    switch (impl::data_type_size(dt)) {
        case 1: return "uchar";
        case 2: return "ushort";
        case 4: return "uint";
        case 8: return "ulong";
        default: return nullptr;
    }
}

// The OpenCL C element type of a converted side (bf16 travels as bits).
const char *value_type(data_type_t dt) {
    switch (dt) {
        case relayout_f32: return "float";
        case relayout_f16: return "half";
        case relayout_bf16: return "ushort";
        case relayout_s32: return "int";
        case relayout_s16: return "short";
        case relayout_u16: return "ushort";
        case relayout_s8: return "char";
        case relayout_u8: return "uchar";
        default: return nullptr;
    }
}

// A float as an exact OpenCL C constant expression (hex float literal).
std::string float_literal(float v) {
    if (std::isnan(v)) return "NAN";
    if (std::isinf(v)) return v < 0 ? "(-INFINITY)" : "INFINITY";
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%af", static_cast<double>(v));
    return std::string("(") + buf + ")";
}

// Element `off` of buffer `buf` (data type dt) as a float: exact for every
// type but s32, which rounds to nearest even (numerics.hpp load_f32).
std::string load_expr(data_type_t dt, const char *buf, const char *off) {
    const std::string b = buf, o = off;
    switch (dt) {
        case relayout_f32: return b + "[" + o + "]";
        case relayout_f16: return "vload_half(" + o + ", " + b + ")";
        case relayout_bf16: return "as_float((uint)" + b + "[" + o + "] << 16)";
        case relayout_s32: return "convert_float_rte(" + b + "[" + o + "])";
        default: return "(float)" + b + "[" + o + "]";
    }
}

// The bounds that saturate in float before rounding: the cpu's own
// (md/data_type.hpp int_limits), so both sides clamp to the same floats.
template <data_type_t dt>
void int_bounds_of(float *lo, float *hi) {
    *lo = int_limits<dt>::lo;
    *hi = int_limits<dt>::hi;
}
void int_bounds(data_type_t dt, std::string *lo, std::string *hi) {
    float l = 0.f, h = 0.f;
    switch (dt) {
        case relayout_s32: int_bounds_of<relayout_s32>(&l, &h); break;
        case relayout_s16: int_bounds_of<relayout_s16>(&l, &h); break;
        case relayout_u16: int_bounds_of<relayout_u16>(&l, &h); break;
        case relayout_s8: int_bounds_of<relayout_s8>(&l, &h); break;
        default: int_bounds_of<relayout_u8>(&l, &h); break;
    }
    *lo = float_literal(l);
    *hi = float_literal(h);
}

// Helpers that store a float as dt exactly as numerics.hpp store_f32 does:
// bf16 and integers round to nearest even, integers saturate first and
// take their lowest value for NaN; f16 through vstore_half_rte.
std::string store_helpers(data_type_t dt) {
    std::ostringstream os;
    if (dt == relayout_bf16)
        os << "ushort rl_to_bf16(float f) {\n"
           << "    uint u = as_uint(f);\n"
           << "    if ((u & 0x7fffffffu) > 0x7f800000u) return (ushort)((u >> 16) | 0x40u);\n"
           << "    u += 0x7fffu + ((u >> 16) & 1u);\n"
           << "    return (ushort)(u >> 16);\n"
           << "}\n";
    if (dt == relayout_s32 || dt == relayout_s16 || dt == relayout_u16 || dt == relayout_s8
            || dt == relayout_u8) {
        std::string lo, hi;
        int_bounds(dt, &lo, &hi);
        // fmax(NaN, lo) is lo: NaN saturates to the lowest value as on
        // the cpu, without branches.
        os << value_type(dt) << " rl_to_int(float v) {\n"
           << "    return convert_" << value_type(dt) << "(rint(fmin(fmax(v, " << lo << "), " << hi
           << ")));\n"
           << "}\n";
    }
    return os.str();
}

std::string store_stmt(data_type_t dt, const std::string &v) {
    switch (dt) {
        case relayout_f32: return "dst[doff] = " + v + ";";
        case relayout_f16: return "vstore_half_rte(" + v + ", doff, dst);";
        case relayout_bf16: return "dst[doff] = rl_to_bf16(" + v + ");";
        default: return "dst[doff] = rl_to_int(" + v + ");";
    }
}

// A transposing plan runs in tiles: each work item loads up to
// tile_edge x tile_edge positions of nodes a (the src's most contiguous
// node but the innermost) and b (the innermost: the dst's most
// contiguous) along a, then stores them along b. One position per item
// instead reads or writes every element with a stride (PoCL: f32 nchw ->
// nhwc 8x64x32x32 2.5 GB/s one per item, 9-15 GB/s in 16 x 16 tiles).
constexpr int64_t tile_edge = 16;
// Tiled kernels are loops: few items per group on a CPU device (PoCL
// vectorises a group's items across lanes, which only pays for one
// position per item).
constexpr size_t tile_items_per_group = 8;

struct tile_t {
    int a = -1; // node loaded along; -1: no tiles
    int64_t ta = 1, tb = 1;
};

tile_t pick_tile(const plan_t &p) {
    tile_t t;
    const int K = static_cast<int>(p.nodes.size());
    if (K < 2) return t;
    const node_t &nb = p.nodes[K - 1];
    int a = -1;
    for (int k = 0; k + 1 < K; ++k) {
        const node_t &nd = p.nodes[k];
        if (nd.n < 2 || nd.tab >= 0 || nd.is == 0) continue;
        if (a < 0 || std::llabs(nd.is) < std::llabs(p.nodes[a].is)) a = k;
    }
    // Tiles pay when src is more contiguous along a than along b.
    if (a < 0 || nb.n < 2 || (nb.tab < 0 && std::llabs(nb.is) <= std::llabs(p.nodes[a].is)))
        return t;
    t.a = a;
    t.ta = std::min<int64_t>(tile_edge, p.nodes[a].n);
    t.tb = std::min<int64_t>(tile_edge, nb.n);
    return t;
}

size_t scale_table_bytes(const plan_t &p, const attr_t &attr) {
    size_t n = 0;
    if (p.src_scale_mask >= 0) n += attr.src_scales.values.size();
    if (p.dst_scale_mask >= 0) n += attr.dst_scales.values.size();
    return n * sizeof(float);
}

} // namespace

bool plan_kernel_divides(const plan_t &p) {
    return !p.bit_copy && p.dst_scale_mask >= 0;
}

status_t plan_kernel_supported(const plan_t &p, const attr_t &attr) {
    if ((p.s8s8_comp || p.zp_comp) && p.ddt != relayout_s8 && p.ddt != relayout_u8)
        return failf(status_t::unimplemented,
                "ocl:gen: compensation of a %s destination (device-side compensation is for s8 "
                "and u8 weights)",
                dt2str(p.ddt));
    if ((p.s8s8_comp || p.zp_comp) && p.comp_offset_bytes % sizeof(int32_t) != 0)
        return failf(status_t::unimplemented,
                "ocl:gen: the compensation buffer starts at byte %zu of dst, not a multiple of 4",
                p.comp_offset_bytes);
    if (value_type(p.sdt) == nullptr || value_type(p.ddt) == nullptr)
        return failf(status_t::unimplemented, "ocl:gen: data types %s -> %s", dt2str(p.sdt),
                dt2str(p.ddt));
    if (p.src_scale_mask >= 0 && !attr.src_scales.is_set())
        return fail(status_t::invalid_arguments, "ocl:gen: the plan has src scales but no values");
    if (p.dst_scale_mask >= 0 && !attr.dst_scales.is_set())
        return fail(status_t::invalid_arguments, "ocl:gen: the plan has dst scales but no values");
    size_t tab_bytes = 0;
    for (const auto &t : p.tabs)
        tab_bytes += (t.src.size() + t.dst.size()) * sizeof(int64_t);
    const size_t sc_bytes = scale_table_bytes(p, attr);
    if (tab_bytes + sc_bytes > max_table_bytes)
        return failf(status_t::unimplemented,
                "ocl:gen: the plan's offset tables (%zu bytes) and per-dim scales (%zu bytes) "
                "need more __constant memory than %zu bytes; reorder through a cpu memory "
                "instead",
                tab_bytes, sc_bytes, max_table_bytes);
    return status_t::success;
}

status_t gen_plan_kernel(const plan_t &p, kernel_source_t *out, const attr_t &attr) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "gen_plan_kernel: null out");
    RL_CHECK(plan_kernel_supported(p, attr));
    if (p.zero_volume)
        return fail(status_t::invalid_arguments,
                "ocl kernel generator: zero-volume tensor needs no kernel");
    const int K = static_cast<int>(p.nodes.size());
    const int64_t inner_n = K > 0 ? p.nodes[K - 1].n : 1;

    const char *st = p.bit_copy ? bits_type(p.sdt) : value_type(p.sdt);
    const char *dt = p.bit_copy ? bits_type(p.ddt) : value_type(p.ddt);
    const bool src_scales = !p.bit_copy && p.src_scale_mask >= 0;
    const bool dst_scales = !p.bit_copy && p.dst_scale_mask >= 0;

    std::ostringstream os;
    // No contraction: every step of the value pipeline rounds on its own,
    // like the reference (numerics.hpp compute_value).
    os << "// relayout ocl:gen reorder " << p.dump() << "\n"
       << "#pragma OPENCL FP_CONTRACT OFF\n";
    if (!p.bit_copy) os << store_helpers(p.ddt);
    // Per-dim scales are __constant tables; a common one is a literal.
    for (int side = 0; side < 2; ++side) {
        const bool on = side == 0 ? src_scales : dst_scales;
        const scales_t &sc = side == 0 ? attr.src_scales : attr.dst_scales;
        if (!on || sc.values.size() == 1) continue;
        os << "__constant float " << (side == 0 ? "ssc" : "dsc") << "[" << sc.values.size()
           << "] = {";
        for (size_t i = 0; i < sc.values.size(); ++i)
            os << (i ? "," : "") << float_literal(sc.values[i]);
        os << "};\n";
    }
    for (size_t t = 0; t < p.tabs.size(); ++t) {
        for (int side = 0; side < 2; ++side) {
            const auto &v = side == 0 ? p.tabs[t].src : p.tabs[t].dst;
            os << "__constant long tab" << t << (side == 0 ? "s" : "d") << "[" << v.size()
               << "] = {";
            for (size_t i = 0; i < v.size(); ++i)
                os << (i ? "," : "") << v[i];
            os << "};\n";
        }
    }
    const bool comp = p.s8s8_comp || p.zp_comp;
    const tile_t tl = pick_tile(p);
    const bool tiled = tl.a >= 0;
    os << "__kernel void rl_reorder(__global const " << st << " *src, __global " << dt << " *dst"
       << (comp ? ", __global int *acc" : "") << ") {\n";
    // Work-item indices: the outer nodes flattened into dim 1, innermost
    // first; a tiled kernel's dim 0 counts tiles of node a and dim 1 starts
    // with the tiles of node b.
    int64_t rest = 1;
    for (int k = 0; k + 1 < K; ++k)
        if (!tiled || k != tl.a) rest *= p.nodes[k].n;
    const int64_t nta = tiled ? div_up<int64_t>(p.nodes[tl.a].n, tl.ta) : inner_n;
    const int64_t ntb = tiled ? div_up<int64_t>(inner_n, tl.tb) : 1;
    const std::string g0 = tiled ? "ta" : "i" + std::to_string(K > 0 ? K - 1 : 0);
    os << "    const long " << g0 << " = get_global_id(0);\n"
       << "    long r = get_global_id(1);\n"
       << "    if (" << g0 << " >= " << nta << " || r >= " << rest * ntb << ") return;\n";
    if (tiled) os << "    const long tb = r % " << ntb << "; r /= " << ntb << ";\n";
    const int outermost = tiled && tl.a == 0 ? 1 : 0;
    for (int k = K - 2; k >= outermost; --k) {
        if (tiled && k == tl.a) continue;
        if (k > outermost)
            os << "    const long i" << k << " = r % " << p.nodes[k].n << "; r /= " << p.nodes[k].n
               << ";\n";
        else
            os << "    const long i" << k << " = r;\n";
    }
    // Offsets, scale and compensation indices and the checked dims'
    // positions, as expressions of the node indices i0 ... i(K-1).
    std::string soff = std::to_string(p.src_off0), doff = std::to_string(p.dst_off0);
    std::string pos[max_ndims];
    std::string sidx = "0", didx = "0", cidx = "0", zidx = std::to_string(p.s8s8_count);
    for (int k = 0; k < K; ++k) {
        const node_t &nd = p.nodes[k];
        const std::string i = "i" + std::to_string(k);
        if (nd.cs) cidx += " + " + i + " * " + std::to_string(nd.cs);
        if (nd.zs) zidx += " + " + i + " * " + std::to_string(nd.zs);
        if (nd.ss) sidx += " + " + i + " * " + std::to_string(nd.ss);
        if (nd.ds) didx += " + " + i + " * " + std::to_string(nd.ds);
        if (nd.tab >= 0) {
            soff += " + tab" + std::to_string(nd.tab) + "s[" + i + "]";
            doff += " + tab" + std::to_string(nd.tab) + "d[" + i + "]";
        } else {
            if (nd.is) soff += " + " + i + " * " + std::to_string(nd.is);
            if (nd.os) doff += " + " + i + " * " + std::to_string(nd.os);
        }
        if (nd.dim >= 0 && p.check[nd.dim]) {
            std::string &e = pos[nd.dim];
            e += (e.empty() ? "" : " + ") + i
                 + (nd.mult != 1 ? " * " + std::to_string(nd.mult) : "");
        }
    }
    bool any_check = false;
    for (int d = 0; d < p.ndims; ++d)
        any_check = any_check || p.check[d];
    // The checked dims' positions; `beyond` is the condition of a position
    // past the dims (dst padding, or past it).
    auto positions = [&](const std::string &ind) {
        std::string s;
        for (int d = 0; d < p.ndims; ++d)
            if (p.check[d])
                s += ind + "const long p" + std::to_string(d) + " = "
                     + (pos[d].empty() ? "0" : pos[d]) + ";\n";
        return s;
    };
    std::string beyond = "0";
    for (int d = 0; d < p.ndims; ++d)
        if (p.check[d]) beyond += " || p" + std::to_string(d) + " >= " + std::to_string(p.dims[d]);
    // One position's store: dst padding (zeros), then the value `val` (an
    // element of src, not yet converted) through the reference's pipeline.
    // `skip` leaves the position.
    auto store_position = [&](const std::string &ind, const std::string &val,
                                  const std::string &skip) {
        std::ostringstream e;
        e << ind << "const long doff = " << doff << ";\n";
        if (any_check) {
            e << positions(ind);
            for (int d = 0; d < p.ndims; ++d)
                if (p.check[d])
                    e << ind << "if (p" << d << " >= " << p.dst_padded[d] << ") " << skip << "\n";
            e << ind << "if (" << beyond << ") {\n";
            if (p.ddt == relayout_f16 && !p.bit_copy)
                e << ind << "    vstore_half_rte(0.0f, doff, dst);\n";
            else
                e << ind << "    dst[doff] = 0;\n"; // +0 in every type, bf16 included
            e << ind << "    " << skip << "\n" << ind << "}\n";
        }
        if (p.bit_copy) {
            e << ind << "dst[doff] = " << val << ";\n";
        } else {
            // numerics.hpp compute_value, step for step; zero points only
            // when non-zero (x + 0 would turn -0 into +0).
            auto scale = [&](bool per_dim, const char *tab, const std::string &idx, float v) {
                return per_dim ? std::string(tab) + "[" + idx + "]" : float_literal(v);
            };
            e << ind << "float v = " << val << ";\n";
            if (p.src_zp) e << ind << "v = v - " << float_literal(float(p.src_zp)) << ";\n";
            if (src_scales)
                e << ind << "v = "
                  << scale(attr.src_scales.values.size() > 1, "ssc", sidx,
                             attr.src_scales.values[0])
                  << " * v;\n";
            if (p.beta != 0.f)
                e << ind << "v = v + " << float_literal(p.beta) << " * ("
                  << load_expr(p.ddt, "dst", "doff") << " - " << float_literal(float(p.dst_zp))
                  << ");\n";
            if (dst_scales)
                e << ind << "v = v / "
                  << scale(attr.dst_scales.values.size() > 1, "dsc", didx,
                             attr.dst_scales.values[0])
                  << ";\n";
            if (p.dst_zp) e << ind << "v = v + " << float_literal(float(p.dst_zp)) << ";\n";
            if (p.scale_adjust != 1.f)
                e << ind << "v = v * " << float_literal(p.scale_adjust) << ";\n";
            e << ind << store_stmt(p.ddt, "v") << "\n";
        }
        if (comp) {
            // The sums of the values as stored (DESIGN §8), in 32-bit
            // atomics: the result is taken mod 2^32 like the cpu's int64
            // sums cast to int32, whatever the order.
            e << ind << "const int q = (int)"
              << (p.bit_copy && p.ddt == relayout_s8 ? "as_char(dst[doff])" : "dst[doff]") << ";\n";
            if (p.s8s8_comp) e << ind << "atomic_add(&acc[" << cidx << "], q);\n";
            if (p.zp_comp) e << ind << "atomic_add(&acc[" << zidx << "], q);\n";
        }
        return e.str();
    };
    const std::string sval =
            p.bit_copy ? std::string("src[soff]") : load_expr(p.sdt, "src", "soff");
    if (!tiled) {
        os << "    const long soff = " << soff << ";\n" << store_position("    ", sval, "return;");
    } else {
        // Load a TB x TA block along node a (src order) into private
        // memory, then store it along node b (dst order).
        const std::string a = "i" + std::to_string(tl.a), b = "i" + std::to_string(K - 1);
        const bool tail_a = p.nodes[tl.a].n % tl.ta != 0, tail_b = inner_n % tl.tb != 0;
        if (tail_a)
            os << "    const int la = (int)min((long)" << tl.ta << ", " << p.nodes[tl.a].n
               << " - ta * " << tl.ta << ");\n";
        if (tail_b)
            os << "    const int lb = (int)min((long)" << tl.tb << ", " << inner_n << " - tb * "
               << tl.tb << ");\n";
        const std::string ja_end = tail_a ? "la" : std::to_string(tl.ta);
        const std::string jb_end = tail_b ? "lb" : std::to_string(tl.tb);
        const std::string ia = "            const long " + a + " = ta * " + std::to_string(tl.ta)
                               + " + ja, " + b + " = tb * " + std::to_string(tl.tb) + " + jb;\n";
        os << "    " << (p.bit_copy ? st : "float") << " t[" << tl.tb << "][" << tl.ta << "];\n"
           << "    for (int jb = 0; jb < " << jb_end << "; ++jb) {\n"
           << "        for (int ja = 0; ja < " << ja_end << "; ++ja) {\n"
           << ia;
        if (any_check)
            os << positions("            ") << "            if (" << beyond << ") continue;\n";
        os << "            const long soff = " << soff << ";\n"
           << "            t[jb][ja] = " << sval << ";\n"
           << "        }\n    }\n"
           << "    for (int ja = 0; ja < " << ja_end << "; ++ja) {\n"
           << "        for (int jb = 0; jb < " << jb_end << "; ++jb) {\n"
           << ia << store_position("            ", "t[jb][ja]", "continue;")
           << "        }\n    }\n";
    }
    os << "}\n";
    if (comp) {
        // plan_store_compensation: s8s8 = -128 * sum, zp = -sum, as int32.
        const int64_t n = p.s8s8_count + p.zp_count;
        os << "__kernel void rl_compensate(__global const int *acc, __global uchar *dst) {\n"
           << "    const long m = get_global_id(0);\n"
           << "    if (m >= " << n << ") return;\n"
           << "    const uint s = (uint)acc[m];\n"
           << "    ((__global int *)(dst + " << p.comp_offset_bytes << "))[m] = m < "
           << p.s8s8_count << " ? (int)(s * 0xffffff80u) : (int)(0u - s);\n"
           << "}\n";
        out->comp_entries = static_cast<size_t>(n);
    }
    out->name = "rl_reorder";
    if (!comp) out->comp_entries = 0;
    out->source = os.str();
    // The dst scale divides: it must round like the cpu's division.
    out->options = plan_kernel_divides(p) ? "-cl-fp32-correctly-rounded-divide-sqrt" : "";
    out->work_dim = 2;
    out->global[0] = static_cast<size_t>(nta);
    out->global[1] = static_cast<size_t>(rest * ntb);
    out->cpu_max_local = tiled ? tile_items_per_group : 0;
    return status_t::success;
}

} // namespace ocl
} // namespace impl
} // namespace relayout
