#include "jit/ocl/ocl_kernel_gen.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace relayout {
namespace impl {
namespace ocl {

namespace {

constexpr int64_t int_offset_limit = (int64_t(1) << 31) - 1;

std::string i64(int64_t v) {
    return std::to_string(v);
}

// Hex float literal: exact in the source, so the device sees the same bits.
std::string flit(float v) {
    char buf[64];
    if (v == 0.0f) return "0.0f";
    std::snprintf(buf, sizeof(buf), "%af", static_cast<double>(v));
    return buf;
}

const char *dt_name(relayout_data_type_t dt) {
    return dt == relayout_f16 ? "f16" : "f32";
}

// Largest offset (in elements, relative to offset0) a descriptor reaches.
int64_t max_rel_offset(int n, const int64_t *dims, const int64_t *strides) {
    int64_t m = 0;
    for (int i = 0; i < n; ++i)
        if (dims[i] > 0) m += (dims[i] - 1) * strides[i];
    return m;
}

// "b0 * 12 + b2 * 3 + b3" (terms with stride 0 dropped), "0" if none.
std::string offset_expr(const char *idx_t, const std::string *vars, const int64_t *strides, int n) {
    std::string e;
    for (int i = 0; i < n; ++i) {
        if (strides[i] == 0) continue;
        if (!e.empty()) e += " + ";
        e += "(" + std::string(idx_t) + ")" + vars[i];
        if (strides[i] != 1) e += " * " + i64(strides[i]);
    }
    return e.empty() ? "0" : e;
}

// How one image type maps pixel (x, y) lane k to a logical point: base
// indices b0..b3 (canonical 4D order) from x and y, and one dim `bd` that
// advances with the lane: point = (b0..b3) + k * e_bd, present iff
// b_bd + k < dims[bd].
struct lane_map_t {
    std::string base[4];
    int bd = 0;
};

lane_map_t lane_map(const image_desc_t &img) {
    int64_t d[4];
    image_desc_canonical_dims(img, d);
    auto r4 = [](int64_t v) { return (v + 3) / 4; };
    lane_map_t m;
    switch (img.type) {
        case image_type_t::in_out_channel: { // N H W C
            const std::string H = i64(d[1]), W = i64(d[2]);
            m.base[0] = "y / " + H;
            m.base[1] = "y % " + H;
            m.base[2] = "x % " + W;
            m.base[3] = "(x / " + W + ") * 4";
            m.bd = 3;
            break;
        }
        case image_type_t::in_out_height: {
            const std::string Hb = i64(r4(d[1])), W = i64(d[2]);
            m.base[0] = "y / " + Hb;
            m.base[1] = "(y % " + Hb + ") * 4";
            m.base[2] = "x % " + W;
            m.base[3] = "x / " + W;
            m.bd = 1;
            break;
        }
        case image_type_t::in_out_width: {
            const std::string H = i64(d[1]), Wb = i64(r4(d[2]));
            m.base[0] = "y / " + H;
            m.base[1] = "y % " + H;
            m.base[2] = "(x % " + Wb + ") * 4";
            m.base[3] = "x / " + Wb;
            m.bd = 2;
            break;
        }
        case image_type_t::conv2d_filter: { // O I KH KW
            const std::string HW = i64(d[2] * d[3]), KW = i64(d[3]);
            m.base[0] = "(y / " + HW + ") * 4";
            m.base[1] = "x";
            m.base[2] = "(y % " + HW + ") / " + KW;
            m.base[3] = "(y % " + HW + ") % " + KW;
            m.bd = 0;
            break;
        }
        case image_type_t::dw_conv2d_filter: { // M I KH KW
            const std::string HW = i64(d[2] * d[3]), KW = i64(d[3]);
            m.base[0] = "x / " + HW;
            m.base[1] = "y * 4";
            m.base[2] = "(x % " + HW + ") / " + KW;
            m.base[3] = "x % " + KW;
            m.bd = 1;
            break;
        }
        case image_type_t::argument:
            m.base[0] = "x * 4";
            m.base[1] = m.base[2] = m.base[3] = "0";
            m.bd = 0;
            break;
        case image_type_t::weight_height: {
            const std::string I = i64(d[1]), KW = i64(d[3]);
            m.base[0] = "y * 4";
            m.base[1] = "x % " + I;
            m.base[2] = "(x / " + I + ") / " + KW;
            m.base[3] = "(x / " + I + ") % " + KW;
            m.bd = 0;
            break;
        }
        case image_type_t::weight_width: {
            const std::string Ib = i64(r4(d[1])), KW = i64(d[3]);
            m.base[0] = "y";
            m.base[1] = "(x % " + Ib + ") * 4";
            m.base[2] = "(x / " + Ib + ") / " + KW;
            m.base[3] = "(x / " + Ib + ") % " + KW;
            m.bd = 1;
            break;
        }
        default: break;
    }
    return m;
}

void emit_header(
        std::ostringstream &os, const char *what, const image_desc_t *img, const buffer_desc_t &b) {
    os << "// relayout ocl:gen " << what;
    if (img) {
        int64_t w = 0, h = 0;
        image_desc_shape(*img, &w, &h);
        os << " " << image_type2str(img->type) << " dims";
        for (int i = 0; i < img->ndims; ++i)
            os << (i ? "x" : " ") << img->dims[i];
        if (img->type == image_type_t::winograd_filter) os << " b=" << img->winograd_b;
        os << " image " << w << "x" << h << " " << dt_name(img->pixel_dt);
    }
    os << " buffer " << dt_name(b.dt) << " strides";
    for (int i = 0; i < b.ndims; ++i)
        os << (i ? ":" : " ") << b.strides[i];
    os << "\n#pragma OPENCL FP_CONTRACT OFF\n";
}

// Round a float4 to half precision (nearest even) in place.
const char *round_to_half_code = "    {\n"
                                 "        ushort4 hb;\n"
                                 "        vstore_half4_rte(v, 0, (__private "
                                 "half *)&hb);\n"
                                 "        v = vload_half4(0, (__private const "
                                 "half *)&hb);\n"
                                 "    }\n";

std::string load_expr(relayout_data_type_t dt, const std::string &off) {
    if (dt == relayout_f16) return "vload_half(" + off + ", src)";
    return "src[" + off + "]";
}

std::string store_stmt(relayout_data_type_t dt, const std::string &off, const std::string &val) {
    if (dt == relayout_f16) return "vstore_half_rte(" + val + ", " + off + ", dst);";
    return "dst[" + off + "] = " + val + ";";
}

const char *ptr_type(relayout_data_type_t dt) {
    return dt == relayout_f16 ? "half" : "float";
}

// The G matrices of DESIGN §6 as rationals {p, q}.
struct frac_t {
    int p, q;
};
const frac_t g2[4][3] = { { { 1, 1 }, { 0, 1 }, { 0, 1 } }, { { 1, 2 }, { 1, 2 }, { 1, 2 } },
    { { 1, 2 }, { -1, 2 }, { 1, 2 } }, { { 0, 1 }, { 0, 1 }, { 1, 1 } } };
const frac_t g4[6][3] = { { { 1, 4 }, { 0, 1 }, { 0, 1 } }, { { -1, 6 }, { -1, 6 }, { -1, 6 } },
    { { -1, 6 }, { 1, 6 }, { -1, 6 } }, { { 1, 24 }, { 1, 12 }, { 1, 6 } },
    { { 1, 24 }, { -1, 12 }, { 1, 6 } }, { { 0, 1 }, { 0, 1 }, { 1, 1 } } };
const frac_t g6[8][3] = { { { 1, 1 }, { 0, 1 }, { 0, 1 } }, { { -2, 9 }, { -2, 9 }, { -2, 9 } },
    { { -2, 9 }, { 2, 9 }, { -2, 9 } }, { { 1, 90 }, { 1, 45 }, { 2, 45 } },
    { { 1, 90 }, { -1, 45 }, { 2, 45 } }, { { 1, 45 }, { 1, 90 }, { 1, 180 } },
    { { 1, 45 }, { -1, 90 }, { 1, 180 } }, { { 0, 1 }, { 0, 1 }, { 1, 1 } } };

status_t gen_winograd(const image_desc_t &img, const buffer_desc_t &src, const int64_t cs[4],
        kernel_source_t *out) {
    int64_t d[4];
    image_desc_canonical_dims(img, d);
    const int b = img.winograd_b, T = b + 2;
    const int64_t O = d[0], I = d[1], Ib = (I + 3) / 4;
    const bool use_int = max_rel_offset(4, d, cs) <= int_offset_limit;
    const char *idx_t = use_int ? "int" : "long";

    std::ostringstream os;
    emit_header(os, "pack", &img, src);
    os << "__constant float G[" << T * 3 << "] = {";
    for (int r = 0; r < T; ++r)
        for (int c = 0; c < 3; ++c)
            os << (r || c ? ", " : "") << flit(winograd_g(b, r, c));
    os << "};\n";
    os << "__kernel void rl_pack(__global const " << ptr_type(src.dt)
       << " *src, long src_off, __write_only image2d_t dst) {\n"
       << "    const int x = get_global_id(0);\n"
       << "    const int o = get_global_id(1);\n"
       << "    if (x >= " << Ib << " || o >= " << O << ") return;\n"
       << "    src += src_off;\n"
       << "    float gg[4][" << T * 3 << "];\n"
       << "    for (int k = 0; k < 4; ++k) {\n"
       << "        const int i = x * 4 + k;\n"
       << "        float g[9];\n"
       << "        for (int a = 0; a < 9; ++a) g[a] = 0.0f;\n"
       << "        if (i < " << I << ") {\n";
    const std::string vars[4] = { "o", "i", "(a / 3)", "(a % 3)" };
    os << "            for (int a = 0; a < 9; ++a) {\n"
       << "                const " << idx_t << " off = " << offset_expr(idx_t, vars, cs, 4) << ";\n"
       << "                g[a] = " << load_expr(src.dt, "off") << ";\n"
       << "            }\n"
       << "        }\n"
       << "        for (int r = 0; r < " << T << "; ++r)\n"
       << "            for (int c = 0; c < 3; ++c)\n"
       << "                gg[k][r * 3 + c] = (G[r * 3 + 0] * g[c]"
          " + G[r * 3 + 1] * g[3 + c]) + G[r * 3 + 2] * g[6 + c];\n"
       << "    }\n"
       << "    for (int r = 0; r < " << T << "; ++r) {\n"
       << "        for (int s = 0; s < " << T << "; ++s) {\n"
       << "            float4 v;\n";
    const char *lane[4] = { "s0", "s1", "s2", "s3" };
    for (int k = 0; k < 4; ++k) {
        os << "            v." << lane[k] << " = ";
        if (k > 0 && 4 * Ib - 4 + k >= I) // the lane may be a tail
            os << "(x * 4 + " << k << " >= " << I << ") ? 0.0f : ";
        os << "(gg[" << k << "][r * 3] * G[s * 3] + gg[" << k
           << "][r * 3 + 1] * G[s * 3 + 1]) + gg[" << k << "][r * 3 + 2] * G[s * 3 + 2];\n";
    }
    if (img.pixel_dt == relayout_f16) os << round_to_half_code;
    os << "            write_imagef(dst, (int2)(x, (r * " << T << " + s) * " << O << " + o), v);\n"
       << "        }\n"
       << "    }\n"
       << "}\n";
    out->name = "rl_pack";
    out->source = os.str();
    out->work_dim = 2;
    out->global[0] = static_cast<size_t>(Ib);
    out->global[1] = static_cast<size_t>(O);
    return status_t::success;
}

status_t check_zero_volume(const image_desc_t &img) {
    if (image_desc_is_zero_volume(img))
        return fail(status_t::invalid_arguments,
                "ocl kernel generator: zero-volume tensor needs no kernel");
    return status_t::success;
}

} // namespace

float winograd_g(int b, int row, int col) {
    const frac_t *m = nullptr;
    int rows = 0;
    switch (b) {
        case 2:
            m = &g2[0][0];
            rows = 4;
            break;
        case 4:
            m = &g4[0][0];
            rows = 6;
            break;
        case 6:
            m = &g6[0][0];
            rows = 8;
            break;
        default: return std::nanf("");
    }
    if (row < 0 || row >= rows || col < 0 || col >= 3) return std::nanf("");
    const frac_t f = m[row * 3 + col];
    return static_cast<float>(static_cast<double>(f.p) / f.q);
}

status_t gen_pack_kernel(const image_desc_t &img, const buffer_desc_t &src, kernel_source_t *out) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "gen_pack_kernel: null out");
    RL_CHECK(buffer_desc_validate(src, "source", false));
    int64_t cs[4];
    RL_CHECK(buffer_matches_image(src, img, "source", cs));
    RL_CHECK(check_zero_volume(img));
    if (img.type == image_type_t::winograd_filter) return gen_winograd(img, src, cs, out);

    int64_t d[4], w = 0, h = 0;
    image_desc_canonical_dims(img, d);
    RL_CHECK(image_desc_shape(img, &w, &h));
    const lane_map_t m = lane_map(img);
    const bool use_int = max_rel_offset(4, d, cs) <= int_offset_limit;
    const char *idx_t = use_int ? "int" : "long";
    const int64_t ext = d[m.bd];
    const bool full = ext % 4 == 0;

    std::ostringstream os;
    emit_header(os, "pack", &img, src);
    os << "__kernel void rl_pack(__global const " << ptr_type(src.dt)
       << " *src, long src_off, __write_only image2d_t dst) {\n"
       << "    const int x = get_global_id(0);\n"
       << "    const int y = get_global_id(1);\n"
       << "    if (x >= " << w << " || y >= " << h << ") return;\n"
       << "    src += src_off;\n";
    std::string vars[4];
    for (int i = 0; i < 4; ++i) {
        vars[i] = "b" + std::to_string(i);
        os << "    const int " << vars[i] << " = " << m.base[i] << ";\n";
    }
    os << "    const " << idx_t << " off = " << offset_expr(idx_t, vars, cs, 4) << ";\n";
    const int64_t ls = cs[m.bd]; // lane stride
    if (full && ls == 1) {
        os << "    float4 v = "
           << (src.dt == relayout_f16 ? "vload_half4(0, src + off)" : "vload4(0, src + off)")
           << ";\n";
    } else {
        os << "    float4 v = (float4)(0.0f);\n";
        const char *lane[4] = { "s0", "s1", "s2", "s3" };
        for (int k = 0; k < 4; ++k) {
            const std::string o = k == 0 ? std::string("off") : "off + " + i64(k * ls);
            os << "    ";
            if (!full) os << "if (" << vars[m.bd] << " + " << k << " < " << ext << ") ";
            os << "v." << lane[k] << " = " << load_expr(src.dt, o) << ";\n";
        }
    }
    if (img.pixel_dt == relayout_f16 && src.dt != relayout_f16) os << round_to_half_code;
    os << "    write_imagef(dst, (int2)(x, y), v);\n}\n";

    out->name = "rl_pack";
    out->source = os.str();
    out->work_dim = 2;
    out->global[0] = static_cast<size_t>(w);
    out->global[1] = static_cast<size_t>(h);
    return status_t::success;
}

status_t gen_unpack_kernel(
        const image_desc_t &img, const buffer_desc_t &dst, kernel_source_t *out) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "gen_unpack_kernel: null out");
    RL_CHECK(image_desc_validate(img));
    if (img.type == image_type_t::dw_conv2d_filter)
        return fail(status_t::unimplemented,
                "image -> buffer is not supported for dw_conv2d_filter "
                "(the reference runtime has no such conversion)");
    if (img.type == image_type_t::winograd_filter)
        return fail(status_t::unimplemented,
                "image -> buffer is not supported for winograd_filter: the "
                "transform U = G g G^T has no exact inverse");
    RL_CHECK(buffer_desc_validate(dst, "destination", true));
    int64_t cs[4];
    RL_CHECK(buffer_matches_image(dst, img, "destination", cs));
    RL_CHECK(check_zero_volume(img));

    int64_t d[4], w = 0, h = 0;
    image_desc_canonical_dims(img, d);
    RL_CHECK(image_desc_shape(img, &w, &h));
    const lane_map_t m = lane_map(img);
    const bool use_int = max_rel_offset(4, d, cs) <= int_offset_limit;
    const char *idx_t = use_int ? "int" : "long";
    const int64_t ext = d[m.bd];
    const bool full = ext % 4 == 0;

    std::ostringstream os;
    emit_header(os, "unpack", &img, dst);
    os << "__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | "
          "CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;\n"
       << "__kernel void rl_unpack(__read_only image2d_t src, __global " << ptr_type(dst.dt)
       << " *dst, long dst_off) {\n"
       << "    const int x = get_global_id(0);\n"
       << "    const int y = get_global_id(1);\n"
       << "    if (x >= " << w << " || y >= " << h << ") return;\n"
       << "    dst += dst_off;\n";
    std::string vars[4];
    for (int i = 0; i < 4; ++i) {
        vars[i] = "b" + std::to_string(i);
        os << "    const int " << vars[i] << " = " << m.base[i] << ";\n";
    }
    os << "    const " << idx_t << " off = " << offset_expr(idx_t, vars, cs, 4) << ";\n"
       << "    const float4 v = read_imagef(src, smp, (int2)(x, y));\n";
    const int64_t ls = cs[m.bd];
    if (full && ls == 1) {
        os << "    "
           << (dst.dt == relayout_f16 ? "vstore_half4_rte(v, 0, dst + off);"
                                      : "vstore4(v, 0, dst + off);")
           << "\n";
    } else {
        const char *lane[4] = { "s0", "s1", "s2", "s3" };
        for (int k = 0; k < 4; ++k) {
            const std::string o = k == 0 ? std::string("off") : "off + " + i64(k * ls);
            os << "    ";
            if (!full) os << "if (" << vars[m.bd] << " + " << k << " < " << ext << ") ";
            os << store_stmt(dst.dt, o, std::string("v.") + lane[k]) << "\n";
        }
    }
    os << "}\n";
    out->name = "rl_unpack";
    out->source = os.str();
    out->work_dim = 2;
    out->global[0] = static_cast<size_t>(w);
    out->global[1] = static_cast<size_t>(h);
    return status_t::success;
}

status_t gen_copy_kernel(const buffer_desc_t &src, const buffer_desc_t &dst, kernel_source_t *out) {
    if (out == nullptr) return fail(status_t::invalid_arguments, "gen_copy_kernel: null out");
    RL_CHECK(buffer_desc_validate(src, "source", false));
    RL_CHECK(buffer_desc_validate(dst, "destination", true));
    if (src.ndims != dst.ndims)
        return failf(status_t::invalid_arguments,
                "buffer copy: source ndims %d != destination ndims %d", src.ndims, dst.ndims);
    for (int i = 0; i < src.ndims; ++i)
        if (src.dims[i] != dst.dims[i])
            return failf(status_t::invalid_arguments,
                    "buffer copy: source dims[%d] = %" PRId64 " != destination dims[%d] = %" PRId64,
                    i, src.dims[i], i, dst.dims[i]);
    if (buffer_desc_nelems(src) == 0)
        return fail(status_t::invalid_arguments,
                "ocl kernel generator: zero-volume tensor needs no kernel");

    // Plan: drop size-1 dims, order by destination stride (outermost
    // first), merge neighbours that are contiguous in both buffers.
    struct node_t {
        int64_t n, is, os;
    };
    std::vector<node_t> nodes;
    for (int i = 0; i < src.ndims; ++i)
        if (src.dims[i] > 1) nodes.push_back({ src.dims[i], src.strides[i], dst.strides[i] });
    std::stable_sort(nodes.begin(), nodes.end(), [](const node_t &a, const node_t &b) {
        if (a.os != b.os) return a.os > b.os;
        return a.is > b.is;
    });
    std::vector<node_t> merged;
    for (const node_t &nd : nodes) {
        if (!merged.empty()) {
            node_t &outer = merged.back();
            if (outer.is == nd.n * nd.is && outer.os == nd.n * nd.os) {
                outer.n *= nd.n;
                outer.is = nd.is;
                outer.os = nd.os;
                continue;
            }
        }
        merged.push_back(nd);
    }
    if (merged.empty()) merged.push_back({ 1, 0, 0 });
    const int nn = static_cast<int>(merged.size());
    int64_t ns[max_buffer_ndims], iss[max_buffer_ndims], oss[max_buffer_ndims];
    for (int i = 0; i < nn; ++i) {
        ns[i] = merged[i].n;
        iss[i] = merged[i].is;
        oss[i] = merged[i].os;
    }
    const bool use_int = max_rel_offset(nn, ns, iss) <= int_offset_limit
                         && max_rel_offset(nn, ns, oss) <= int_offset_limit;
    const char *idx_t = use_int ? "int" : "long";
    int64_t rest = 1;
    for (int i = 0; i < nn - 1; ++i)
        rest *= ns[i];

    const bool same = src.dt == dst.dt;
    const char *st = same ? (src.dt == relayout_f16 ? "ushort" : "uint") : ptr_type(src.dt);
    const char *dt = same ? st : ptr_type(dst.dt);

    std::ostringstream os;
    os << "// relayout ocl:gen copy " << dt_name(src.dt) << " -> " << dt_name(dst.dt) << " plan";
    for (int i = 0; i < nn; ++i)
        os << " " << ns[i] << ":" << iss[i] << ":" << oss[i];
    os << "\n#pragma OPENCL FP_CONTRACT OFF\n"
       << "__kernel void rl_copy(__global const " << st << " *src, long src_off, __global " << dt
       << " *dst, long dst_off) {\n"
       << "    const " << idx_t << " i" << nn - 1 << " = get_global_id(0);\n"
       << "    long r = get_global_id(1);\n"
       << "    if (i" << nn - 1 << " >= " << ns[nn - 1] << " || r >= " << rest << ") return;\n"
       << "    src += src_off;\n"
       << "    dst += dst_off;\n";
    for (int i = nn - 2; i >= 0; --i) {
        if (i > 0)
            os << "    const " << idx_t << " i" << i << " = r % " << ns[i]
               << ";\n    r /= " << ns[i] << ";\n";
        else
            os << "    const " << idx_t << " i0 = r;\n";
    }
    std::string vars[max_buffer_ndims];
    for (int i = 0; i < nn; ++i)
        vars[i] = "i" + std::to_string(i);
    os << "    const " << idx_t << " so = " << offset_expr(idx_t, vars, iss, nn) << ";\n"
       << "    const " << idx_t << " do_ = " << offset_expr(idx_t, vars, oss, nn) << ";\n";
    if (same)
        os << "    dst[do_] = src[so];\n";
    else if (src.dt == relayout_f16)
        os << "    dst[do_] = vload_half(so, src);\n";
    else
        os << "    vstore_half_rte(src[so], do_, dst);\n";
    os << "}\n";

    out->name = "rl_copy";
    out->source = os.str();
    out->work_dim = 2;
    out->global[0] = static_cast<size_t>(ns[nn - 1]);
    out->global[1] = static_cast<size_t>(rest);
    return status_t::success;
}

} // namespace ocl
} // namespace impl
} // namespace relayout
