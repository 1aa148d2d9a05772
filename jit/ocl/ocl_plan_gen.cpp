#include "jit/ocl/ocl_plan_gen.hpp"

#include <sstream>

namespace relayout {
namespace impl {
namespace ocl {

namespace {

// Offset tables beyond this many bytes do not fit __constant memory safely
// (the minimum CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE is 64 KiB).
constexpr size_t max_table_bytes = 48 * 1024;

bool is_float(data_type_t dt) {
    return dt == relayout_f32 || dt == relayout_f16;
}

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

} // namespace

status_t plan_kernel_supported(const plan_t &p) {
    if (p.src_scale_mask >= 0 || p.dst_scale_mask >= 0 || p.src_zp || p.dst_zp || p.beta != 0.f
            || p.scale_adjust != 1.f || p.s8s8_comp || p.zp_comp)
        return fail(status_t::unimplemented,
                "ocl:gen: device-side reorders take no attributes (scales, zero points, sum, "
                "compensation); reorder through a cpu memory instead");
    if (!p.bit_copy && !(is_float(p.sdt) && is_float(p.ddt)))
        return failf(status_t::unimplemented,
                "ocl:gen: device-side reorders convert f32 <-> f16 only (or copy equal types), "
                "not %s -> %s",
                dt2str(p.sdt), dt2str(p.ddt));
    if (p.bit_copy && bits_type(p.sdt) == nullptr)
        return failf(status_t::unimplemented, "ocl:gen: data type %s", dt2str(p.sdt));
    size_t tab_bytes = 0;
    for (const auto &t : p.tabs)
        tab_bytes += (t.src.size() + t.dst.size()) * sizeof(int64_t);
    if (tab_bytes > max_table_bytes)
        return failf(status_t::unimplemented,
                "ocl:gen: the plan's offset tables need %zu bytes of __constant memory "
                "(limit %zu)",
                tab_bytes, max_table_bytes);
    return status_t::success;
}

status_t gen_plan_kernel(const plan_t &p, kernel_source_t *out) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "gen_plan_kernel: null out");
    RL_CHECK(plan_kernel_supported(p));
    if (p.zero_volume)
        return fail(status_t::invalid_arguments,
                "ocl kernel generator: zero-volume tensor needs no kernel");
    const int K = static_cast<int>(p.nodes.size());
    const int64_t inner_n = K > 0 ? p.nodes[K - 1].n : 1;
    int64_t rest = 1;
    for (int k = 0; k + 1 < K; ++k)
        rest *= p.nodes[k].n;

    const char *st = p.bit_copy ? bits_type(p.sdt) : (p.sdt == relayout_f16 ? "half" : "float");
    const char *dt = p.bit_copy ? bits_type(p.ddt) : (p.ddt == relayout_f16 ? "half" : "float");

    std::ostringstream os;
    os << "// relayout ocl:gen reorder " << p.dump() << "\n"
       << "#pragma OPENCL FP_CONTRACT OFF\n";
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
    os << "__kernel void rl_reorder(__global const " << st << " *src, __global " << dt
       << " *dst) {\n"
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
    for (int k = 0; k < K; ++k) {
        const node_t &nd = p.nodes[k];
        const std::string i = "i" + std::to_string(k);
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
            os << "        dst[doff] = 0;\n";
        os << "        return;\n    }\n";
    }
    os << "    const long soff = " << soff << ";\n";
    if (p.bit_copy)
        os << "    dst[doff] = src[soff];\n";
    else if (p.sdt == relayout_f16 && p.ddt == relayout_f32)
        os << "    dst[doff] = vload_half(soff, src);\n";
    else if (p.sdt == relayout_f32 && p.ddt == relayout_f16)
        os << "    vstore_half_rte(src[soff], doff, dst);\n";
    else if (p.sdt == relayout_f16 && p.ddt == relayout_f16)
        os << "    vstore_half_rte(vload_half(soff, src), doff, dst);\n";
    else
        os << "    dst[doff] = src[soff];\n";
    os << "}\n";
    out->name = "rl_reorder";
    out->source = os.str();
    out->work_dim = 2;
    out->global[0] = static_cast<size_t>(inner_n);
    out->global[1] = static_cast<size_t>(rest);
    return status_t::success;
}

} // namespace ocl
} // namespace impl
} // namespace relayout
