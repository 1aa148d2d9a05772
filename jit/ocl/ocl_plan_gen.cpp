#include "jit/ocl/ocl_plan_gen.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

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
        os << value_type(dt) << " rl_to_int(float v) {\n"
           << "    if (!(v >= " << lo << ")) v = " << lo << ";\n"
           << "    if (v > " << hi << ") v = " << hi << ";\n"
           << "    return convert_" << value_type(dt) << "(rint(v));\n"
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
    int64_t rest = 1;
    for (int k = 0; k + 1 < K; ++k)
        rest *= p.nodes[k].n;

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
    os << "__kernel void rl_reorder(__global const " << st << " *src, __global " << dt << " *dst"
       << (comp ? ", __global int *acc" : "") << ") {\n"
       << "    const long i" << (K > 0 ? K - 1 : 0) << " = get_global_id(0);\n"
       << "    long r = get_global_id(1);\n"
       << "    if (i" << (K > 0 ? K - 1 : 0) << " >= " << inner_n << " || r >= " << rest
       << ") return;\n";
    for (int k = K - 2; k >= 0; --k) {
        if (k > 0)
            os << "    const long i" << k << " = r % " << p.nodes[k].n << "; r /= " << p.nodes[k].n
               << ";\n";
        else
            os << "    const long i0 = r;\n";
    }
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
    os << "    const long doff = " << doff << ";\n";
    bool any_check = false;
    for (int d = 0; d < p.ndims; ++d) {
        if (!p.check[d]) continue;
        any_check = true;
        const std::string e = pos[d].empty() ? "0" : pos[d];
        os << "    const long p" << d << " = " << e << ";\n"
           << "    if (p" << d << " >= " << p.dst_padded[d] << ") return;\n";
    }
    if (any_check) {
        os << "    if (0";
        for (int d = 0; d < p.ndims; ++d)
            if (p.check[d]) os << " || p" << d << " >= " << p.dims[d];
        os << ") {\n";
        if (p.ddt == relayout_f16 && !p.bit_copy)
            os << "        vstore_half_rte(0.0f, doff, dst);\n";
        else
            os << "        dst[doff] = 0;\n"; // +0 in every type, bf16 included
        os << "        return;\n    }\n";
    }
    os << "    const long soff = " << soff << ";\n";
    if (p.bit_copy) {
        os << "    dst[doff] = src[soff];\n";
    } else {
        // numerics.hpp compute_value, step for step; zero points only when
        // non-zero (x + 0 would turn -0 into +0).
        auto scale = [&](bool per_dim, const char *tab, const std::string &idx, float v) {
            return per_dim ? std::string(tab) + "[" + idx + "]" : float_literal(v);
        };
        os << "    float v = " << load_expr(p.sdt, "src", "soff") << ";\n";
        if (p.src_zp) os << "    v = v - " << float_literal(float(p.src_zp)) << ";\n";
        if (src_scales)
            os << "    v = "
               << scale(attr.src_scales.values.size() > 1, "ssc", sidx, attr.src_scales.values[0])
               << " * v;\n";
        if (p.beta != 0.f)
            os << "    v = v + " << float_literal(p.beta) << " * ("
               << load_expr(p.ddt, "dst", "doff") << " - " << float_literal(float(p.dst_zp))
               << ");\n";
        if (dst_scales)
            os << "    v = v / "
               << scale(attr.dst_scales.values.size() > 1, "dsc", didx, attr.dst_scales.values[0])
               << ";\n";
        if (p.dst_zp) os << "    v = v + " << float_literal(float(p.dst_zp)) << ";\n";
        if (p.scale_adjust != 1.f) os << "    v = v * " << float_literal(p.scale_adjust) << ";\n";
        os << "    " << store_stmt(p.ddt, "v") << "\n";
    }
    if (comp) {
        // The sums of the values as stored (DESIGN §8), in 32-bit atomics:
        // the result is taken mod 2^32 like the cpu's int64 sums cast to
        // int32, whatever the order.
        os << "    const int q = (int)"
           << (p.bit_copy && p.ddt == relayout_s8 ? "as_char(dst[doff])" : "dst[doff]") << ";\n";
        if (p.s8s8_comp) os << "    atomic_add(&acc[" << cidx << "], q);\n";
        if (p.zp_comp) os << "    atomic_add(&acc[" << zidx << "], q);\n";
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
    out->global[0] = static_cast<size_t>(inner_n);
    out->global[1] = static_cast<size_t>(rest);
    return status_t::success;
}

} // namespace ocl
} // namespace impl
} // namespace relayout
