// benchdnn_lite — the OpenCL image problems (see engine_ocl.hpp).
#include "engine_ocl.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>

#include "relayout/relayout_image.h"

#include "driver.hpp"
#include "fill.hpp"
#include "layout.hpp"
#include "reference.hpp"

#ifdef BDL_WITH_OCL
#include "relayout/relayout_ocl.h"
#endif

namespace bdl {

bool is_image_tag(const std::string &tag) {
    return tag.compare(0, 6, "image:") == 0;
}

#ifndef BDL_WITH_OCL

bool ocl_available() {
    return false;
}

res_t run_ocl_problem(const prb_t &, int) {
    res_t r;
    r.state = state_t::skipped;
    r.reason = "benchdnn_lite was built without OpenCL";
    return r;
}

#else

namespace {

constexpr int max_printed_errors = 10;

struct image_spec_t {
    relayout_image_type_t type = relayout_image_type_undef;
    int b = 0;
};

// "image:TYPE[:bB]"
bool parse_image_tag(const std::string &tag, image_spec_t &s, std::string &err) {
    std::string rest = tag.substr(6), name = rest, opt;
    const size_t c = rest.find(':');
    if (c != std::string::npos) {
        name = rest.substr(0, c);
        opt = rest.substr(c + 1);
    }
    if (relayout_str2image_type(name.c_str(), &s.type) != relayout_success) {
        err = "bad image type in '" + tag + "'";
        return false;
    }
    if (!opt.empty()) {
        if (opt.size() < 2 || opt[0] != 'b') {
            err = "bad option '" + opt + "' in '" + tag + "' (expected bN)";
            return false;
        }
        s.b = std::atoi(opt.c_str() + 1);
    } else if (s.type == relayout_image_winograd_filter) {
        s.b = 2;
    }
    return true;
}

int64_t r4(int64_t v) {
    return (v + 3) / 4;
}

// DESIGN §6: the G matrices as rationals.
float winograd_g(int b, int r, int c) {
    static const int g2[4][3][2] = { { { 1, 1 }, { 0, 1 }, { 0, 1 } },
        { { 1, 2 }, { 1, 2 }, { 1, 2 } }, { { 1, 2 }, { -1, 2 }, { 1, 2 } },
        { { 0, 1 }, { 0, 1 }, { 1, 1 } } };
    static const int g4[6][3][2] = { { { 1, 4 }, { 0, 1 }, { 0, 1 } },
        { { -1, 6 }, { -1, 6 }, { -1, 6 } }, { { -1, 6 }, { 1, 6 }, { -1, 6 } },
        { { 1, 24 }, { 1, 12 }, { 1, 6 } }, { { 1, 24 }, { -1, 12 }, { 1, 6 } },
        { { 0, 1 }, { 0, 1 }, { 1, 1 } } };
    static const int g6[8][3][2] = { { { 1, 1 }, { 0, 1 }, { 0, 1 } },
        { { -2, 9 }, { -2, 9 }, { -2, 9 } }, { { -2, 9 }, { 2, 9 }, { -2, 9 } },
        { { 1, 90 }, { 1, 45 }, { 2, 45 } }, { { 1, 90 }, { -1, 45 }, { 2, 45 } },
        { { 1, 45 }, { 1, 90 }, { 1, 180 } }, { { 1, 45 }, { -1, 90 }, { 1, 180 } },
        { { 0, 1 }, { 0, 1 }, { 1, 1 } } };
    const int *e = b == 2 ? g2[r][c] : b == 4 ? g4[r][c] : g6[r][c];
    return float(double(e[0]) / e[1]);
}

// The reference image: width, height and pixels (f32) of a tensor given by
// at(logical position); where[] (optional) gets, per pixel lane, the
// logical position's row-major index or -1 (a tail lane / a transform).
struct ref_image_t {
    int64_t w = 0, h = 0;
    std::vector<float> px;
    std::vector<int64_t> where;
};

ref_image_t reference_image(
        const image_spec_t &s, const dims_t &d, const std::function<float(const int64_t *)> &at) {
    ref_image_t r;
    const auto t = s.type;
    const bool act = t == relayout_image_in_out_channel || t == relayout_image_in_out_height
                     || t == relayout_image_in_out_width;
    int64_t N = 1, C = 1, H = 1, W = 1, O = 1, I = 1, L = 1;
    if (act) {
        N = d[0], C = d[1];
        if (d.size() == 4) H = d[2], W = d[3];
    } else if (t == relayout_image_argument) {
        L = d[0];
    } else {
        O = d[0], I = d[1], H = d[2], W = d[3];
    }
    const int64_t HW = H * W, Hb = r4(H), Wb = r4(W), Ib = r4(I);
    switch (t) {
        case relayout_image_in_out_channel: r.w = r4(C) * W, r.h = N * H; break;
        case relayout_image_in_out_height: r.w = W * C, r.h = N * Hb; break;
        case relayout_image_in_out_width: r.w = Wb * C, r.h = N * H; break;
        case relayout_image_conv2d_filter: r.w = I, r.h = HW * r4(O); break;
        case relayout_image_dw_conv2d_filter: r.w = O * HW, r.h = r4(I); break;
        case relayout_image_argument: r.w = r4(L), r.h = 1; break;
        case relayout_image_weight_height: r.w = I * HW, r.h = r4(O); break;
        case relayout_image_weight_width: r.w = Ib * HW, r.h = O; break;
        case relayout_image_winograd_filter: r.w = Ib, r.h = O * (s.b + 2) * (s.b + 2); break;
        default: break;
    }
    const size_t n = size_t(r.w * r.h * 4);
    r.px.assign(n, 0.f);
    r.where.assign(n, -1);
    const int nd = int(d.size());
    auto lin = [&](const int64_t *p) {
        int64_t l = 0;
        for (int i = 0; i < nd; ++i)
            l = l * d[size_t(i)] + p[i];
        return l;
    };
    if (t == relayout_image_winograd_filter) {
        const int T = s.b + 2;
        for (int64_t o = 0; o < O; ++o)
            for (int64_t i = 0; i < I; ++i) {
                float g[3][3], gg[8][3];
                for (int a = 0; a < 3; ++a)
                    for (int c = 0; c < 3; ++c) {
                        const int64_t p[4] = { o, i, a, c };
                        g[a][c] = at(p);
                    }
                for (int rr = 0; rr < T; ++rr)
                    for (int c = 0; c < 3; ++c)
                        gg[rr][c] = (winograd_g(s.b, rr, 0) * g[0][c]
                                            + winograd_g(s.b, rr, 1) * g[1][c])
                                    + winograd_g(s.b, rr, 2) * g[2][c];
                for (int rr = 0; rr < T; ++rr)
                    for (int ss = 0; ss < T; ++ss) {
                        const float u = (gg[rr][0] * winograd_g(s.b, ss, 0)
                                                + gg[rr][1] * winograd_g(s.b, ss, 1))
                                        + gg[rr][2] * winograd_g(s.b, ss, 2);
                        const int64_t x = i / 4, y = (rr * T + ss) * O + o;
                        r.px[size_t((y * r.w + x) * 4 + i % 4)] = u;
                    }
            }
        return r;
    }
    for (int64_t y = 0; y < r.h; ++y)
        for (int64_t x = 0; x < r.w; ++x)
            for (int k = 0; k < 4; ++k) {
                int64_t p[4] = { 0, 0, 0, 0 };
                bool ok = true;
                switch (t) {
                    case relayout_image_in_out_channel: // p = n, c, h, w
                        p[0] = y / H, p[2] = y % H, p[3] = x % W, p[1] = 4 * (x / W) + k;
                        ok = p[1] < C;
                        break;
                    case relayout_image_in_out_height:
                        p[0] = y / Hb, p[2] = 4 * (y % Hb) + k, p[3] = x % W, p[1] = x / W;
                        ok = p[2] < H;
                        break;
                    case relayout_image_in_out_width:
                        p[0] = y / H, p[2] = y % H, p[3] = 4 * (x % Wb) + k, p[1] = x / Wb;
                        ok = p[3] < W;
                        break;
                    case relayout_image_conv2d_filter: // p = o, i, kh, kw
                        p[0] = 4 * (y / HW) + k, p[1] = x, p[2] = (y % HW) / W, p[3] = (y % HW) % W;
                        ok = p[0] < O;
                        break;
                    case relayout_image_dw_conv2d_filter:
                        p[0] = x / HW, p[1] = 4 * y + k, p[2] = (x % HW) / W, p[3] = x % W;
                        ok = p[1] < I;
                        break;
                    case relayout_image_argument:
                        p[0] = 4 * x + k;
                        ok = p[0] < L;
                        break;
                    case relayout_image_weight_height:
                        p[0] = 4 * y + k, p[1] = x % I, p[2] = (x / I) / W, p[3] = (x / I) % W;
                        ok = p[0] < O;
                        break;
                    case relayout_image_weight_width:
                        p[0] = y, p[1] = 4 * (x % Ib) + k, p[2] = (x / Ib) / W, p[3] = (x / Ib) % W;
                        ok = p[1] < I;
                        break;
                    default: ok = false; break;
                }
                if (!ok) continue;
                const size_t i = size_t((y * r.w + x) * 4 + k);
                r.px[i] = at(p);
                r.where[i] = lin(p);
            }
    return r;
}

struct ocl_state_t {
    api::engine_t cpu, gpu;
    api::stream_t strm;
    cl_command_queue queue = nullptr;
    cl_context ctx = nullptr;
};

ocl_state_t &state(size_t index) {
    static std::map<size_t, ocl_state_t> m;
    auto it = m.find(index);
    if (it == m.end()) {
        ocl_state_t s;
        s.cpu = api::make_engine(relayout_cpu, 0);
        s.gpu = api::make_engine(relayout_ocl, index);
        s.strm = api::make_stream(s.gpu);
        api::check(relayout_ocl_engine_get_queue(s.gpu.get(), &s.queue), "ocl_engine_get_queue");
        api::check(relayout_ocl_engine_get_context(s.gpu.get(), &s.ctx), "ocl_engine_get_context");
        it = m.emplace(index, s).first;
    }
    return it->second;
}

api::md_t image_md(const image_spec_t &s, const dims_t &dims, dt_t pixel_dt) {
    relayout_memory_desc_t md = nullptr;
    relayout_dims_t d = { 0 };
    for (size_t i = 0; i < dims.size() && i < RELAYOUT_MAX_NDIMS; ++i)
        d[i] = dims[i];
    api::check(relayout_memory_desc_create_image2d(&md, s.type, int(dims.size()), d, pixel_dt, s.b),
            "memory_desc_create_image2d");
    api::md_t r;
    r.h = api::own<relayout_memory_desc_t, relayout_memory_desc_destroy>(md);
    return r;
}

cl_mem mem_object(const api::memory_t &m) {
    cl_mem mem = nullptr;
    api::check(relayout_ocl_memory_get_mem_object(m.get(), &mem), "ocl_memory_get_mem_object");
    return mem;
}

// Pixels as raw bits (f32: 4 bytes, f16: 2 bytes per lane) <-> the queue.
bool image_io(ocl_state_t &st, cl_mem img, int64_t w, int64_t h, void *bits, bool write) {
    const size_t origin[3] = { 0, 0, 0 }, region[3] = { size_t(w), size_t(h), 1 };
    const cl_int err = write ? clEnqueueWriteImage(st.queue, img, CL_TRUE, origin, region, 0, 0,
                               bits, 0, nullptr, nullptr)
                             : clEnqueueReadImage(st.queue, img, CL_TRUE, origin, region, 0, 0,
                                     bits, 0, nullptr, nullptr);
    return err == CL_SUCCESS;
}

uint32_t pixel_bits(float v, dt_t pdt) {
    return pdt == relayout_f16 ? f32_to_f16(v) : f32_bits(v);
}

bool same_bits(uint32_t a, uint32_t b, dt_t dt) {
    return a == b || (dt_bits_is_nan(a, dt) && dt_bits_is_nan(b, dt));
}

res_t skip(const std::string &why) {
    res_t r;
    r.state = state_t::skipped;
    r.reason = why;
    return r;
}
res_t failed(const std::string &why) {
    res_t r;
    r.state = state_t::failed;
    r.reason = why;
    return r;
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count();
}

} // namespace

bool ocl_available() {
    size_t n = 0;
    return relayout_engine_get_count(relayout_ocl, &n) == relayout_success && n > 0;
}

res_t run_ocl_problem(const prb_t &prb, int idx) {
    if (!ocl_available()) return skip("no OpenCL device");
    const bool pack = is_image_tag(prb.dtag);
    const bool unpack = is_image_tag(prb.stag);
    res_t res;
    size_t index = 0;
    if (!prb.engine_preset.empty())
        index = size_t(std::strtoul(prb.engine_preset.c_str(), nullptr, 10));
    if (!pack && !unpack) {
        res.state = state_t::unimplemented;
        res.reason = "engine_ocl handles image problems only";
        return res;
    }
    if (pack && unpack) return failed("image -> image problems are not supported by the driver");
    if (prb.oflag.any()) {
        res.state = state_t::unimplemented;
        res.reason = "compensation flags are for int8 weight buffers, not with an image";
        return res;
    }
    // Attributes: the image side's values go through the reference's
    // pipeline (ref_elem) like any other element.
    const bool has_attr = prb.attr.src_scale.present || prb.attr.dst_scale.present
                          || prb.attr.src_zp || prb.attr.dst_zp || prb.attr.has_sum;
    const api::attr_t attr = make_attr(prb);
    const ref_attr_t ref_attr(prb);
    image_spec_t spec;
    std::string err;
    if (!parse_image_tag(pack ? prb.dtag : prb.stag, spec, err)) return failed(err);

    ocl_state_t *st = nullptr;
    api::md_t buf_md, img_md;
    api::pd_t pd;
    const dt_t pdt = pack ? prb.ddt : prb.sdt;
    try {
        st = &state(index);
        img_md = image_md(spec, prb.dims, pdt);
        buf_md = pack ? make_md(prb.dims, prb.sdt, prb.stag, prb.src_strides)
                      : make_md(prb.dims, prb.ddt, prb.dtag, prb.dst_strides);
        pd = pack ? api::make_reorder_pd(st->cpu, buf_md, st->gpu, img_md, &attr)
                  : api::make_reorder_pd(st->gpu, img_md, st->cpu, buf_md, &attr);
        res.impl = pd.impl();
        if (verbose >= 2) printf("%d:  plan: %s\n", idx, pd.plan().c_str());
        const char *source = nullptr;
        if (verbose >= 3
                && relayout_ocl_primitive_desc_query_source(pd.get(), &source) == relayout_success)
            printf("%d:  OpenCL C:\n%s", idx, source);
    } catch (const api::error &e) {
        if (prb.expect == expect_t::invalid && e.status == relayout_invalid_arguments) {
            if (verbose) printf("%d:  rejected as expected: %s\n", idx, e.message.c_str());
            return res;
        }
        res.reason = e.message;
        res.state = e.status == relayout_unimplemented ? state_t::unimplemented : state_t::failed;
        return res;
    }
    if (prb.expect == expect_t::invalid)
        return failed("expected an invalid_arguments error, but creation succeeded");
    if (prb.mode == mode_t::list) {
        res.state = state_t::listed;
        return res;
    }
    int64_t w = 0, h = 0;
    api::check(relayout_memory_desc_query_image_shape(img_md.get(), &w, &h), "query_image_shape");
    const layout_t bl = make_layout(buf_md);
    const size_t lanes = size_t(w * h * 4);
    const api::reorder_t prim = api::make_reorder(pd);
    const api::memory_t img = api::make_memory(img_md, st->gpu, RELAYOUT_MEMORY_ALLOCATE);
    const bool check = prb.mode == mode_t::correctness || prb.mode == mode_t::both;
    const int nd = bl.ndims;
    auto report_err = [&](const std::string &m) {
        if (res.errors < max_printed_errors) printf("%d:  %s\n", idx, m.c_str());
        ++res.errors;
    };

    buffer_t buf(std::max<size_t>(bl.size, 1));
    const api::memory_t bmem = api::make_memory(buf_md, st->cpu, buf.data());

    // Old values of a destination image (read by the sum), exact in f16.
    auto old_val = [&](const int64_t *p) {
        int64_t l = 0;
        for (int i = 0; i < nd; ++i)
            l = l * prb.dims[size_t(i)] + p[i];
        return float(int(l % 37) - 18) * 0.5f;
    };
    if (check && pack && !prb.zero_volume()) {
        fill_src(bl, buf.data(), buf.capacity());
        if (prb.attr.has_sum) {
            // The image starts as old_val, packed by the library (checked
            // without attributes by the problems that have none).
            const api::md_t plain = make_md(
                    prb.dims, relayout_f32, std::string("abcdef").substr(0, size_t(nd)), {});
            buffer_t ob(size_t(volume(prb.dims)) * sizeof(float));
            const layout_t ol = make_layout(plain);
            int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 };
            do {
                store_bits(ob.data(), relayout_f32, ol.off(pos),
                        f32_to_dt_bits(old_val(pos), relayout_f32));
            } while (next_pos(pos, prb.dims.data(), nd));
            const api::memory_t om = api::make_memory(plain, st->cpu, ob.data());
            api::make_reorder(api::make_reorder_pd(st->cpu, plain, st->gpu, img_md, nullptr))
                    .execute(st->strm, om, img);
        }
        prim.execute(st->strm, bmem, img);
        st->strm.wait();
        auto src_at = [&](const int64_t *p) {
            return dt_bits_to_f32(load_bits(buf.data(), bl.dt, bl.off(p)), bl.dt);
        };
        // The expected pixel: the pipeline's f32 value, rounded once to
        // the pixel type (pixel_bits), as a direct store would round it.
        auto at = [&](const int64_t *p) {
            if (!has_attr) return src_at(p);
            const float old = pdt == relayout_f16 ? f16_to_f32(f32_to_f16(old_val(p))) : old_val(p);
            return dt_bits_to_f32(
                    ref_elem(src_at(p), old, ref_attr.at(p), relayout_f32), relayout_f32);
        };
        const ref_image_t ref = reference_image(spec, prb.dims, at);
        if (ref.w != w || ref.h != h)
            return failed("image shape " + std::to_string(w) + "x" + std::to_string(h)
                          + " != reference " + std::to_string(ref.w) + "x" + std::to_string(ref.h));
        buffer_t got(lanes * dt_size(pdt));
        if (!image_io(*st, mem_object(img), w, h, got.data(), false))
            return failed("clEnqueueReadImage failed");
        for (size_t i = 0; i < lanes; ++i) {
            const uint32_t g = load_bits(got.data(), pdt, int64_t(i));
            const uint32_t e = pixel_bits(ref.px[i], pdt);
            ++res.total;
            if (has_attr ? !bits_match(e, g, pdt, false) : !same_bits(e, g, pdt))
                report_err("pixel (" + std::to_string(i / 4 % size_t(w)) + ","
                           + std::to_string(i / 4 / size_t(w)) + ") lane " + std::to_string(i % 4)
                           + " exp:" + dt_bits_str(e, pdt) + " got:" + dt_bits_str(g, pdt));
        }
        // Back through the library (types with an inverse).
        if (!res.errors && !has_attr && spec.type != relayout_image_dw_conv2d_filter
                && spec.type != relayout_image_winograd_filter) {
            buffer_t back(std::max<size_t>(bl.size, 1));
            std::memset(back.data(), 0, back.capacity());
            const api::memory_t bk = api::make_memory(buf_md, st->cpu, back.data());
            api::make_reorder(api::make_reorder_pd(st->gpu, img_md, st->cpu, buf_md, nullptr))
                    .execute(st->strm, img, bk);
            int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 };
            do {
                const float v = at(pos);
                const float pv = pdt == relayout_f16 ? f16_to_f32(f32_to_f16(v)) : v;
                const uint32_t e = f32_to_dt_bits(pv, bl.dt);
                const uint32_t g = load_bits(back.data(), bl.dt, bl.off(pos));
                ++res.total;
                if (!same_bits(e, g, bl.dt))
                    report_err("round trip pos:" + dims2str(dims_t(pos, pos + nd), ',')
                               + " exp:" + dt_bits_str(e, bl.dt) + " got:" + dt_bits_str(g, bl.dt));
            } while (next_pos(pos, prb.dims.data(), nd));
        }
    } else if (check && unpack && !prb.zero_volume()) {
        // Reference pixels of a logical tensor the driver makes up.
        auto val = [&](const int64_t *p) {
            int64_t l = 0;
            for (int i = 0; i < nd; ++i)
                l = l * prb.dims[size_t(i)] + p[i];
            return float(int(l % 251) - 125) * 0.25f; // exact in f16
        };
        const ref_image_t ref = reference_image(spec, prb.dims, val);
        buffer_t px(lanes * dt_size(pdt));
        for (size_t i = 0; i < lanes; ++i)
            store_bits(px.data(), pdt, int64_t(i), pixel_bits(ref.px[i], pdt));
        if (!image_io(*st, mem_object(img), w, h, px.data(), true))
            return failed("clEnqueueWriteImage failed");
        fill_dst(bl, buf.data(), buf.capacity(), prb.attr.has_sum);
        buffer_t old(buf.capacity());
        std::memcpy(old.data(), buf.data(), buf.capacity());
        prim.execute(st->strm, img, bmem);
        st->strm.wait();
        int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 };
        do {
            const float o = prb.attr.has_sum ? dt_bits_to_f32(
                                    load_bits(old.data(), bl.dt, bl.off(pos)), bl.dt)
                                             : 0.f;
            const uint32_t e = has_attr ? ref_elem(val(pos), o, ref_attr.at(pos), bl.dt)
                                        : f32_to_dt_bits(val(pos), bl.dt);
            const uint32_t g = load_bits(buf.data(), bl.dt, bl.off(pos));
            ++res.total;
            if (has_attr ? !bits_match(e, g, bl.dt, false) : !same_bits(e, g, bl.dt))
                report_err("pos:" + dims2str(dims_t(pos, pos + nd), ',')
                           + " exp:" + dt_bits_str(e, bl.dt) + " got:" + dt_bits_str(g, bl.dt));
        } while (next_pos(pos, prb.dims.data(), nd));
    }
    if (res.errors) {
        res.state = state_t::failed;
        return res;
    }

    if ((prb.mode == mode_t::performance || prb.mode == mode_t::both) && !prb.zero_volume()) {
        // Device-only problem: the buffer side on the device.
        const api::memory_t dbuf = api::make_memory(buf_md, st->gpu, RELAYOUT_MEMORY_ALLOCATE);
        const api::reorder_t dev_prim = api::make_reorder(
                pack ? api::make_reorder_pd(st->gpu, buf_md, st->gpu, img_md, &attr)
                     : api::make_reorder_pd(st->gpu, img_md, st->gpu, buf_md, &attr));
        if (pack) {
            std::memset(buf.data(), 0, buf.capacity());
            api::make_reorder(api::make_reorder_pd(st->cpu, buf_md, st->gpu, buf_md, nullptr))
                    .execute(st->strm, bmem, dbuf);
        }
        const size_t img_bytes = img_md.size();
        const size_t bytes = bl.size + img_bytes;
        const size_t half = std::max<size_t>(bytes / 2, 4);
        cl_int e1 = CL_SUCCESS, e2 = CL_SUCCESS;
        cl_mem ca = clCreateBuffer(st->ctx, CL_MEM_READ_WRITE, half, nullptr, &e1);
        cl_mem cb = clCreateBuffer(st->ctx, CL_MEM_READ_WRITE, half, nullptr, &e2);
        if (e1 != CL_SUCCESS || e2 != CL_SUCCESS) {
            if (ca) clReleaseMemObject(ca);
            if (cb) clReleaseMemObject(cb);
            return failed("clCreateBuffer for the copy roofline failed");
        }
        auto run_kernel = [&]() {
            const double t0 = now_ms();
            if (pack)
                dev_prim.execute(st->strm, dbuf, img);
            else
                dev_prim.execute(st->strm, img, dbuf);
            st->strm.wait();
            return now_ms() - t0;
        };
        auto run_copy = [&]() {
            const double t0 = now_ms();
            clEnqueueCopyBuffer(st->queue, ca, cb, 0, 0, half, 0, nullptr, nullptr);
            clFinish(st->queue);
            return now_ms() - t0;
        };
        run_kernel();
        run_copy();
        int iters = prb.fix_times;
        if (iters <= 0) {
            const double one = std::max(run_kernel() + run_copy(), 1e-3);
            iters = int(std::min(1000., std::max(5., 200. / one)));
        }
        perf_res_t p;
        p.iters = iters;
        p.min_ms = p.copy_min_ms = 1e30;
        for (int i = 0; i < iters; ++i) {
            const double k = run_kernel(), c = run_copy();
            p.min_ms = std::min(p.min_ms, k);
            p.avg_ms += k / iters;
            p.copy_min_ms = std::min(p.copy_min_ms, c);
            p.copy_avg_ms += c / iters;
        }
        p.bytes = double(bytes);
        clReleaseMemObject(ca);
        clReleaseMemObject(cb);
        res.perf = p;
        res.has_perf = true;
        if (!check) res.state = state_t::executed;
    }
    return res;
}

#endif

} // namespace bdl
