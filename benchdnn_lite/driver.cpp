// benchdnn_lite — the per-problem driver.
#include <cstdio>
#include <cstring>
#include <map>
#include <algorithm>
#include <cctype>
#include <new>

#include "driver.hpp"
#include "engine_npu.hpp"
#include "engine_ocl.hpp"
#include "fill.hpp"
#include "layout.hpp"
#include "parser.hpp"
#include "reference.hpp"

namespace bdl {

namespace {

constexpr size_t guard_bytes = 64; // after get_size(): must stay untouched
constexpr int max_printed_errors = 10;

const std::map<std::string, relayout_format_tag_t> &enum_tags() {
    static const std::map<std::string, relayout_format_tag_t> m = {
#define RELAYOUT_TAG(name, str) { #name, relayout_##name },
#define RELAYOUT_TAG_ALIAS(alias, name) { #alias, relayout_##alias },
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
        { "any", relayout_format_tag_any },
    };
    return m;
}

struct engine_ctx_t {
    api::engine_t eng;
    api::stream_t strm;
};

engine_ctx_t &get_engine(relayout_engine_kind_t kind, size_t index) {
    static std::map<std::pair<int, size_t>, engine_ctx_t> cache;
    const auto key = std::make_pair(int(kind), index);
    auto it = cache.find(key);
    if (it == cache.end()) {
        if (kind != relayout_cpu && api::engine_count(kind) <= index)
            throw api::error(relayout_unimplemented, "no such device");
        engine_ctx_t ctx;
        ctx.eng = api::make_engine(kind, index);
        ctx.strm = api::make_stream(ctx.eng);
        it = cache.emplace(key, ctx).first;
    }
    return it->second;
}

void apply_isa(const std::string &isa_name) {
    static std::string applied; // "" = the library's default
    if (isa_name == applied) return;
    relayout_cpu_isa_t isa;
    std::string err;
    parse_isa(isa_name, isa, err); // validated by the parser
    api::check(relayout_set_max_cpu_isa(isa), "set_max_cpu_isa");
    applied = isa_name;
}

std::string pos2str(const int64_t *pos, int nd) {
    std::string s = "(";
    for (int d = 0; d < nd; ++d)
        s += (d ? "," : "") + std::to_string(pos[d]);
    return s + ")";
}

// Largest element offset of the descriptor, padding included, +1.
int64_t data_extent(const layout_t &l) {
    if (l.zero_volume()) return 0;
    int64_t pos[RELAYOUT_MAX_NDIMS];
    for (int d = 0; d < l.ndims; ++d)
        pos[d] = l.padded_dims[d] - 1 - l.padded_offsets[d];
    return l.off(pos) + 1;
}

void note(int idx, const char *fmt_str, const std::string &a) {
    printf("%d:  ", idx);
    printf(fmt_str, a.c_str());
    printf("\n");
}

// Compares the destination with the reference. Returns the error count.
int64_t check_dst(const prb_t &prb, const layout_t &src_l, const void *src, const layout_t &dst_l,
        const void *dst_old, const void *dst, int idx, int64_t &total) {
    std::vector<uint32_t> exp;
    compute_ref(prb, src_l, src, dst_l, dst_old, exp);
    const bool bit_copy = prb.is_bit_copy();
    const int nd = dst_l.ndims;
    int64_t errors = 0;
    auto report_err = [&](const std::string &msg) {
        if (errors < max_printed_errors) printf("%d:  %s\n", idx, msg.c_str());
        ++errors;
    };

    // 1. Every logical point.
    int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 }, i = 0;
    do {
        const int64_t off = dst_l.off(pos);
        const uint32_t got = load_bits(dst, dst_l.dt, off);
        if (!bits_match(exp[size_t(i)], got, dst_l.dt, bit_copy))
            report_err("[" + std::to_string(i) + "] pos:" + pos2str(pos, nd)
                       + " dst_off:" + std::to_string(off)
                       + " src:" + dt_bits_str(load_bits(src, src_l.dt, src_l.off(pos)), src_l.dt)
                       + " exp:" + dt_bits_str(exp[size_t(i)], dst_l.dt)
                       + " got:" + dt_bits_str(got, dst_l.dt));
        ++i;
        ++total;
    } while (next_pos(pos, prb.dims.data(), nd));

    // 2. Every padded point (some coordinate in [dims, padded_dims)) is 0.
    bool padded = false;
    for (int d = 0; d < nd; ++d)
        padded |= dst_l.padded_dims[d] != dst_l.dims[d];
    if (padded) {
        dims_t box(static_cast<size_t>(nd));
        for (int d = 0; d < nd; ++d)
            box[d] = dst_l.padded_dims[d] - dst_l.padded_offsets[d];
        std::fill(pos, pos + nd, 0);
        do {
            bool in_pad = false;
            for (int d = 0; d < nd; ++d)
                in_pad |= pos[d] >= dst_l.dims[d];
            if (!in_pad) continue;
            ++total;
            const int64_t off = dst_l.off(pos);
            const uint32_t got = load_bits(dst, dst_l.dt, off);
            if (got != 0)
                report_err("padding pos:" + pos2str(pos, nd) + " dst_off:" + std::to_string(off)
                           + " exp:0 got:" + dt_bits_str(got, dst_l.dt));
        } while (next_pos(pos, box.data(), nd));
    }

    // 3. Compensation buffers, from the values actually stored.
    auto check_comp = [&](const char *name, int mask, int32_t factor, int64_t byte_off) {
        std::vector<int32_t> comp;
        compute_comp(dst_l, dst, mask, factor, comp);
        const auto *base = static_cast<const uint8_t *>(dst) + byte_off;
        for (size_t m = 0; m < comp.size(); ++m) {
            int32_t got;
            std::memcpy(&got, base + 4 * m, 4);
            ++total;
            if (got != comp[m])
                report_err(std::string(name) + "[" + std::to_string(m)
                           + "] exp:" + std::to_string(comp[m]) + " got:" + std::to_string(got));
        }
    };
    if (dst_l.has_s8s8()) check_comp("s8s8_comp", dst_l.comp_mask, -128, dst_l.s8s8_byte_offset());
    if (dst_l.has_zp_comp()) check_comp("zp_comp", dst_l.asymm_mask, -1, dst_l.zp_byte_offset());
    return errors;
}

res_t fail(const std::string &why) {
    res_t r;
    r.state = state_t::failed;
    r.reason = why;
    return r;
}

res_t run_problem_impl(const prb_t &prb, int idx) {
    res_t res;
    apply_isa(prb.max_cpu_isa);
    const bool cross_default = prb.cross_engine == settings_t().cross_engine;
    if (prb.engine_kind == "cpu" && !cross_default)
        return fail("--cross-engine=" + prb.cross_engine + " needs a device engine (--engine=ocl)");
    if (prb.engine_kind == "npu") {
        if (!cross_default) {
            res.state = state_t::unimplemented;
            res.reason = "npu problems move cpu memory into local memory (--cross-engine=cpu2gpu)";
            return res;
        }
        return run_npu_problem(prb, idx); // engine_npu.cpp
    }
    if (prb.engine_kind == "ocl"
            && (is_image_tag(prb.stag) || is_image_tag(prb.dtag) || !ocl_available())) {
        if (!cross_default && ocl_available()) {
            res.state = state_t::unimplemented;
            res.reason = "image problems take their engines from the tags (no --cross-engine)";
            return res;
        }
        return run_ocl_problem(prb, idx); // engine_ocl.cpp (images; skips without a device)
    }

    // ---- creation ------------------------------------------------------
    api::md_t src_md, dst_md;
    api::pd_t pd;
    engine_ctx_t *cpu = nullptr, *dev = nullptr;
    try {
        cpu = &get_engine(relayout_cpu, 0);
        if (prb.engine_kind != "cpu") {
            const auto kind = prb.engine_kind == "ocl" ? relayout_ocl : relayout_npu;
            size_t index = 0;
            if (!prb.engine_preset.empty() && std::isdigit((unsigned char)prb.engine_preset[0]))
                index = size_t(std::stoul(prb.engine_preset));
            else if (!prb.engine_preset.empty() && verbose)
                note(idx,
                        "engine preset '%s' is not reachable through the public "
                        "API; using device 0",
                        prb.engine_preset);
            dev = &get_engine(kind, index);
        }
        src_md = make_md(prb.dims, prb.sdt, prb.stag, prb.src_strides);
        dst_md = make_md(prb.dims, prb.ddt, prb.dtag, prb.dst_strides);
        if (prb.oflag.any())
            dst_md = dst_md.with_extra(prb.oflag.flags(), std::max(0, prb.oflag.s8s8_mask),
                    std::max(0, prb.oflag.zp_mask), prb.oflag.scale_adjust);

        const api::attr_t attr = make_attr(prb);

        const auto &src_eng = dev && prb.cross_engine != "cpu2gpu" ? dev->eng : cpu->eng;
        const auto &dst_eng = dev && prb.cross_engine != "gpu2cpu" ? dev->eng : cpu->eng;
        pd = api::make_reorder_pd(src_eng, src_md, dst_eng, dst_md, &attr);
        res.impl = pd.impl();
        // format_tag::any: the library chose; take its descriptors.
        if (prb.stag == "any") src_md = pd.md(RELAYOUT_ARG_SRC);
        if (prb.dtag == "any") dst_md = pd.md(RELAYOUT_ARG_DST);
        if (verbose >= 2) {
            note(idx, "src: %s", src_md.str());
            note(idx, "dst: %s", dst_md.str());
            note(idx, "plan: %s", pd.plan());
        }
    } catch (const api::error &e) {
        if (prb.expect == expect_t::invalid && e.status == relayout_invalid_arguments) {
            res.state = state_t::passed;
            if (verbose) note(idx, "rejected as expected: %s", e.message);
            return res;
        }
        res.reason = e.message;
        res.state = e.status == relayout_unimplemented ? state_t::unimplemented : state_t::failed;
        return res;
    }
    if (prb.expect == expect_t::invalid)
        return fail("expected an invalid_arguments error, but creation succeeded (impl " + res.impl
                    + ")");
    if (prb.mode == mode_t::list) {
        res.state = state_t::listed;
        return res;
    }

    const api::reorder_t prim = api::make_reorder(pd);
    const layout_t src_l = make_layout(src_md), dst_l = make_layout(dst_md);
    if (src_l.dims != prb.dims || dst_l.dims != prb.dims)
        return fail("a descriptor reports dims " + dims2str(src_l.dims) + " / "
                    + dims2str(dst_l.dims) + ", not " + dims2str(prb.dims));
    for (const layout_t *l : { &src_l, &dst_l })
        if (size_t(data_extent(*l)) * dt_size(l->dt) > l->data_bytes())
            return fail("get_size() " + std::to_string(l->size)
                        + " is smaller than the layout's extent: " + std::to_string(data_extent(*l))
                        + " elements + " + std::to_string(l->comp_bytes()) + " compensation bytes");

    // ---- buffers ---------------------------------------------------------
    buffer_t src_buf(src_l.size + guard_bytes), dst_buf(dst_l.size + guard_bytes);
    const api::memory_t src_host = api::make_memory(src_md, cpu->eng, src_buf.data());
    const api::memory_t dst_host = api::make_memory(dst_md, cpu->eng, dst_buf.data());
    // The memories the primitive reads and writes: the host buffers, or
    // device buffers (--cross-engine).
    const bool src_dev = dev && prb.cross_engine != "cpu2gpu";
    const bool dst_dev = dev && prb.cross_engine != "gpu2cpu";
    const api::memory_t src_mem =
            src_dev ? api::make_memory(src_md, dev->eng, RELAYOUT_MEMORY_ALLOCATE) : src_host;
    const api::memory_t dst_mem =
            dst_dev ? api::make_memory(dst_md, dev->eng, RELAYOUT_MEMORY_ALLOCATE) : dst_host;
    const api::stream_t &strm = dev ? dev->strm : cpu->strm;
    // Moves the host buffers to the device and dst back (identity reorders).
    auto upload = [&]() {
        if (src_dev)
            api::make_reorder(api::make_reorder_pd(cpu->eng, src_md, dev->eng, src_md, nullptr))
                    .execute(strm, src_host, src_mem);
        if (dst_dev)
            api::make_reorder(api::make_reorder_pd(cpu->eng, dst_md, dev->eng, dst_md, nullptr))
                    .execute(strm, dst_host, dst_mem);
        strm.wait();
    };
    auto download = [&]() {
        if (!dst_dev) return;
        api::make_reorder(api::make_reorder_pd(dev->eng, dst_md, cpu->eng, dst_md, nullptr))
                .execute(strm, dst_mem, dst_host);
        strm.wait();
    };
    auto run = [&]() {
        prim.execute(strm, src_mem, dst_mem);
        strm.wait();
    };

    // ---- correctness -----------------------------------------------------
    const bool check = prb.mode == mode_t::correctness || prb.mode == mode_t::both;
    if (check) {
        // Filled after the memory objects exist: creating a memory over a
        // user buffer zero-fills its padding, which would hide a reorder
        // that forgets to.
        fill_src(src_l, src_buf.data(), src_buf.capacity());
        fill_dst(dst_l, dst_buf.data(), dst_buf.capacity(), prb.attr.has_sum);
        buffer_t src_copy(src_buf.capacity()), dst_old(dst_buf.capacity());
        std::memcpy(src_copy.data(), src_buf.data(), src_buf.capacity());
        std::memcpy(dst_old.data(), dst_buf.data(), dst_buf.capacity());
        upload();
        run();
        download();

        if (std::memcmp(src_copy.data(), src_buf.data(), src_buf.capacity()) != 0)
            return fail("the reorder wrote into its source buffer");
        if (std::memcmp(dst_old.data() + dst_l.size, dst_buf.data() + dst_l.size,
                    dst_buf.capacity() - dst_l.size)
                != 0)
            return fail("the reorder wrote past get_size() of the destination ("
                        + std::to_string(dst_l.size) + " bytes)");
        if (prb.zero_volume()) {
            if (std::memcmp(dst_old.data(), dst_buf.data(), dst_buf.capacity()) != 0)
                return fail("zero-volume reorder touched the destination buffer");
        } else {
            res.errors = check_dst(prb, src_l, src_buf.data(), dst_l, dst_old.data(),
                    dst_buf.data(), idx, res.total);
            if (res.errors) {
                res.state = state_t::failed;
                return res;
            }
        }
    }

    // ---- performance -----------------------------------------------------
    if (prb.mode == mode_t::performance || prb.mode == mode_t::both) {
        if (!check) { // values do not matter here; keep them cheap and finite
            std::memset(src_buf.data(), 0x3f, src_buf.capacity());
            std::memset(dst_buf.data(), 0x3f, dst_buf.capacity());
            upload();
        }
        if (!prb.zero_volume()) {
            buffer_t scratch(dst_l.size);
            res.perf = measure(
                    run, src_buf.data(), src_l.size, scratch.data(), dst_l.size, prb.fix_times);
            res.has_perf = true;
        }
        if (!check) res.state = state_t::executed;
    }
    return res;
}

} // namespace

api::attr_t make_attr(const prb_t &prb) {
    api::attr_t attr;
    for (int arg : { RELAYOUT_ARG_SRC, RELAYOUT_ARG_DST }) {
        const scale_t &s = arg == RELAYOUT_ARG_SRC ? prb.attr.src_scale : prb.attr.dst_scale;
        if (s.present) attr.set_scales(arg, s.mask, prb.scale_values(s));
    }
    if (prb.attr.src_zp) attr.set_zero_point(RELAYOUT_ARG_SRC, prb.attr.src_zp);
    if (prb.attr.dst_zp) attr.set_zero_point(RELAYOUT_ARG_DST, prb.attr.dst_zp);
    if (prb.attr.has_sum) attr.set_sum(prb.attr.sum_beta);
    return attr;
}

api::md_t make_md(const dims_t &dims, dt_t dt, const std::string &tag, const dims_t &strides) {
    if (!strides.empty()) return api::md_with_strides(dims, dt, strides);
    const auto &tags = enum_tags();
    const auto it = tags.find(tag);
    if (it != tags.end()) return api::md_with_tag(dims, dt, it->second);
    return api::md_with_string_tag(dims, dt, tag);
}

res_t run_problem(const prb_t &prb, int idx) {
    try {
        return run_problem_impl(prb, idx);
    } catch (const api::error &e) {
        res_t r = fail(e.message);
        if (e.status == relayout_unimplemented) r.state = state_t::unimplemented;
        return r;
    } catch (const std::bad_alloc &) {
        res_t r;
        r.state = state_t::skipped;
        r.reason = "not enough memory";
        return r;
    }
}

} // namespace bdl
