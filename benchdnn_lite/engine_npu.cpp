// benchdnn_lite — the NPU engine driver (see engine_npu.hpp).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "relayout/relayout_npu.h"

#include "driver.hpp"
#include "engine_npu.hpp"
#include "fill.hpp"
#include "layout.hpp"
#include "parser.hpp"
#include "perf.hpp"
#include "reference.hpp"

namespace bdl {

namespace {

constexpr int max_printed_errors = 10;
constexpr uint8_t lane_garbage = 0xA5; // local memory before a run
constexpr int64_t l2l_gap_align = 256; // default L2L dst: after the src, aligned

struct local_spec_t {
    relayout_npu_layout_t layout = relayout_npu_layout_aligned;
    relayout_npu_storage_t storage = relayout_npu_storage_1n;
    int64_t matrix_w = 0;
    relayout_dim_t strides[4] = { 0, 0, 0, 0 };
};

bool parse_i64(const std::string &s, int64_t &v) {
    if (s.empty()) return false;
    char *end = nullptr;
    const long long r = std::strtoll(s.c_str(), &end, 0);
    if (*end != '\0') return false;
    v = r;
    return true;
}

bool parse_local_tag(const std::string &tag, local_spec_t &sp, std::string &err) {
    auto f = split(tag, ':');
    if (f.size() < 2 || f[0] != "npu") {
        err = "'" + tag + "' is not an npu layout tag";
        return false;
    }
    size_t i = 1;
    const std::string &l = f[i++];
    if (l == "aligned")
        sp.layout = relayout_npu_layout_aligned;
    else if (l == "compact")
        sp.layout = relayout_npu_layout_compact;
    else if (l == "line_aligned")
        sp.layout = relayout_npu_layout_line_aligned;
    else if (l == "matrix") {
        sp.layout = relayout_npu_layout_matrix;
        if (i >= f.size() || !parse_i64(f[i++], sp.matrix_w)) {
            err = "'" + tag + "': npu:matrix needs its W (npu:matrix:W)";
            return false;
        }
    } else if (l == "free") {
        sp.layout = relayout_npu_layout_free_strides;
        for (int d = 0; d < 4; ++d)
            if (i >= f.size() || !parse_i64(f[i++], sp.strides[d])) {
                err = "'" + tag + "': npu:free needs 4 strides (npu:free:Ns:Cs:Hs:Ws)";
                return false;
            }
    } else {
        err = "'" + tag
              + "': bad npu layout (aligned, compact, line_aligned, matrix:W, "
                "free:Ns:Cs:Hs:Ws)";
        return false;
    }
    if (i < f.size()) {
        const std::string &s = f[i++];
        if (s == "1n")
            sp.storage = relayout_npu_storage_1n;
        else if (s == "4n")
            sp.storage = relayout_npu_storage_4n;
        else if (s == "2n")
            sp.storage = relayout_npu_storage_2n;
        else if (s == "2ic")
            sp.storage = relayout_npu_storage_2ic;
        else {
            err = "'" + tag + "': bad storage mode '" + s + "' (1n, 4n, 2n, 2ic)";
            return false;
        }
    }
    if (i != f.size()) {
        err = "'" + tag + "': unexpected fields after the storage mode";
        return false;
    }
    return true;
}

struct npu_ctx_t {
    api::engine_t eng;
    api::stream_t strm;
    relayout_npu_config_t cfg;
};

npu_ctx_t &get_npu_engine(const std::string &preset) {
    static std::map<std::string, npu_ctx_t> cache;
    auto it = cache.find(preset);
    if (it != cache.end()) return it->second;
    npu_ctx_t ctx;
    if (preset.empty() || std::isdigit((unsigned char)preset[0])) {
        const size_t index = preset.empty() ? 0 : size_t(std::stoul(preset));
        if (api::engine_count(relayout_npu) <= index)
            throw api::error(relayout_unimplemented, "no npu engine " + preset);
        ctx.eng = api::make_engine(relayout_npu, index);
    } else {
        relayout_engine_t e = nullptr;
        api::check(relayout_npu_engine_create(&e, preset.c_str()), "npu_engine_create");
        ctx.eng.h = api::own<relayout_engine_t, relayout_engine_destroy>(e);
    }
    api::check(relayout_npu_engine_get_config(ctx.eng.get(), &ctx.cfg), "npu_engine_get_config");
    ctx.strm = api::make_stream(ctx.eng);
    return cache.emplace(preset, ctx).first->second;
}

api::md_t make_local_md(
        const npu_ctx_t &E, const local_spec_t &sp, int64_t addr, const dims_t &dims, dt_t dt) {
    relayout_memory_desc_t md = nullptr;
    if (sp.layout == relayout_npu_layout_matrix) {
        api::check(relayout_memory_desc_create_npu_matrix(
                           &md, E.eng.get(), addr, dims[0], dims[1], sp.matrix_w, dt),
                "memory_desc_create_npu_matrix");
    } else {
        relayout_dim_t d4[4];
        for (int i = 0; i < 4; ++i)
            d4[i] = i < int(dims.size()) ? dims[size_t(i)] : 1;
        api::check(relayout_memory_desc_create_npu_local(&md, E.eng.get(), addr, d4, dt, sp.layout,
                           sp.storage,
                           sp.layout == relayout_npu_layout_free_strides ? sp.strides : nullptr),
                "memory_desc_create_npu_local");
    }
    api::md_t r;
    r.h = api::own<relayout_memory_desc_t, relayout_memory_desc_destroy>(md);
    return r;
}

relayout_npu_local_info_t query_local(const api::md_t &md) {
    relayout_npu_local_info_t info;
    api::check(relayout_memory_desc_query_npu_local(md.get(), &info), "query_npu_local");
    return info;
}

api::md_t plain_md(const dims_t &dims, dt_t dt) {
    std::string tag;
    for (size_t d = 0; d < dims.size(); ++d)
        tag += char('a' + d);
    return api::md_with_string_tag(dims, dt, tag);
}

int pack_k(relayout_npu_storage_t s) {
    return s == relayout_npu_storage_4n ? 4 : s == relayout_npu_storage_1n ? 1 : 2;
}

int64_t rup(int64_t a, int64_t b) {
    return (a + b - 1) / b * b;
}

// The strides the seed document defines for a fixed layout (packed elements).
bool seed_strides(const relayout_npu_local_info_t &in, int64_t out[4]) {
    const int64_t eu = std::max<int64_t>(1, in.config.eu_bytes / in.elem_bytes);
    const int64_t H = in.packed_dims[2], W = in.packed_dims[3];
    int64_t hs = W, cs = H * W;
    switch (in.layout) {
        case relayout_npu_layout_aligned:
        case relayout_npu_layout_matrix: cs = rup(H * W, eu); break;
        case relayout_npu_layout_compact: break;
        case relayout_npu_layout_line_aligned:
            hs = rup(W, eu);
            cs = H * hs;
            break;
        default: return false; // free strides: the user's
    }
    out[0] = in.channels_per_npu * cs;
    out[1] = cs;
    out[2] = hs;
    out[3] = 1;
    return true;
}

// Where the seed formula puts logical element pos (n, c, h, w).
void seed_location(
        const relayout_npu_local_info_t &in, const int64_t *pos, int &npu, int64_t &off) {
    const int64_t X = in.config.npu_num, Q = in.start_npu;
    const int k = pack_k(in.storage);
    const int64_t d = in.elem_bytes / k;
    int64_t c = pos[1], h = pos[2], w = pos[3];
    if (in.layout == relayout_npu_layout_matrix) {
        c = pos[1] / in.matrix_w;
        h = 0;
        w = pos[1] % in.matrix_w;
    }
    const int64_t n = pos[0];
    npu = int((Q + c) % X);
    off = in.start_offset
          + (((Q + c) / X) * in.strides[1] + (n / k) * in.strides[0] + h * in.strides[2]
                    + w * in.strides[3])
                    * in.elem_bytes
          + (n % k) * d;
}

struct lanes_t {
    std::vector<std::vector<uint8_t>> b;
    void read(const npu_ctx_t &E) {
        b.resize(size_t(E.cfg.npu_num));
        for (int q = 0; q < E.cfg.npu_num; ++q) {
            b[size_t(q)].resize(size_t(E.cfg.lmem_bytes));
            api::check(relayout_npu_engine_read_lane(
                               E.eng.get(), q, 0, b[size_t(q)].data(), b[size_t(q)].size()),
                    "npu_engine_read_lane");
        }
    }
};

std::string pos_str(const int64_t *p, size_t nd) {
    std::string s = "(";
    for (size_t d = 0; d < nd; ++d)
        s += (d ? "," : "") + std::to_string(p[d]);
    return s + ")";
}

res_t failed(const std::string &why) {
    res_t r;
    r.state = state_t::failed;
    r.reason = why;
    return r;
}

} // namespace

bool is_npu_tag(const std::string &tag) {
    return tag.compare(0, 4, "npu:") == 0;
}

bool check_npu_addr(const std::string &v, std::string &err) {
    if (v.empty()) return true;
    const auto f = split(v, ':');
    int64_t a;
    for (const auto &x : f)
        if (f.size() > 2 || !parse_i64(x, a) || a < 0) {
            err = "--npu-addr: bad value '" + v + "' (expected A or SRC_A:DST_A, e.g. 0x4000)";
            return false;
        }
    return true;
}

res_t run_npu_problem(const prb_t &prb, int idx) {
    res_t res;
    const bool src_local = is_npu_tag(prb.stag), dst_local = is_npu_tag(prb.dtag);
    const size_t nd = prb.dims.size();
    local_spec_t ssp, dsp;
    std::string err;
    if (!src_local && !dst_local) {
        res.state = state_t::unimplemented;
        res.reason = "--engine=npu needs a local layout tag, e.g. --dtag=npu:aligned";
        return res;
    }
    if ((src_local && !parse_local_tag(prb.stag, ssp, err))
            || (dst_local && !parse_local_tag(prb.dtag, dsp, err)))
        return failed(err);
    if (nd > 4) {
        res.state = state_t::unimplemented;
        res.reason = "npu tensors have at most 4 dims";
        return res;
    }
    int64_t addr[2] = { 0, -1 };
    {
        const auto f = split(prb.npu_addr, ':');
        if (!prb.npu_addr.empty()) {
            parse_i64(f[0], addr[0]);
            if (f.size() > 1) parse_i64(f[1], addr[1]);
        }
    }

    // ---- creation ------------------------------------------------------
    api::engine_t cpu = api::make_engine(relayout_cpu, 0);
    npu_ctx_t *E = nullptr;
    api::md_t src_md, dst_md;
    api::pd_t pd;
    int64_t n_cmds = 0;
    try {
        E = &get_npu_engine(prb.engine_preset);
        if (src_local)
            src_md = make_local_md(*E, ssp, addr[0], prb.dims, prb.sdt);
        else
            src_md = make_md(prb.dims, prb.sdt, prb.stag, prb.src_strides);
        if (dst_local) {
            int64_t a = src_local ? addr[1] : addr[0];
            if (src_local && a < 0) { // right after the src, in its lane
                const auto si = query_local(src_md);
                a = si.start_npu * E->cfg.lmem_bytes
                    + rup(si.start_offset + si.bytes_per_npu, l2l_gap_align);
            }
            dst_md = make_local_md(*E, dsp, std::max<int64_t>(a, 0), prb.dims, prb.ddt);
        } else {
            dst_md = make_md(prb.dims, prb.ddt, prb.dtag, prb.dst_strides);
        }
        if (prb.oflag.any())
            dst_md = dst_md.with_extra(prb.oflag.flags(), std::max(0, prb.oflag.s8s8_mask),
                    std::max(0, prb.oflag.zp_mask), prb.oflag.scale_adjust);
        const api::attr_t attr = make_attr(prb);
        pd = api::make_reorder_pd(
                src_local ? E->eng : cpu, src_md, dst_local ? E->eng : cpu, dst_md, &attr);
        res.impl = pd.impl();
        const char *listing = nullptr;
        api::check(relayout_primitive_desc_query_npu_program(pd.get(), &listing, &n_cmds),
                "primitive_desc_query_npu_program");
        if (verbose >= 2) {
            printf("%d:  src: %s\n%d:  dst: %s\n%d:  plan: %s\n", idx, src_md.str().c_str(), idx,
                    dst_md.str().c_str(), idx, pd.plan().c_str());
            printf("%s", listing);
        }
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
        return failed("expected an invalid_arguments error, but creation succeeded (impl "
                      + res.impl + ")");
    if (prb.mode == mode_t::list) {
        res.state = state_t::listed;
        return res;
    }

    const api::reorder_t prim = api::make_reorder(pd);
    const api::stream_t &strm = E->strm;
    // Host sides: the cpu descriptor itself, or a plain shadow of a local one.
    const api::md_t src_host_md = src_local ? plain_md(prb.dims, prb.sdt) : src_md;
    const api::md_t dst_host_md = dst_local ? plain_md(prb.dims, prb.ddt) : dst_md;
    const layout_t src_l = make_layout(src_host_md), dst_l = make_layout(dst_host_md);
    buffer_t src_buf(src_l.size), dst_buf(dst_l.size);
    const api::memory_t src_host = api::make_memory(src_host_md, cpu, src_buf.data());
    const api::memory_t dst_host = api::make_memory(dst_host_md, cpu, dst_buf.data());
    const api::memory_t src_mem =
            src_local ? api::make_memory(src_md, E->eng, RELAYOUT_MEMORY_ALLOCATE) : src_host;
    const api::memory_t dst_mem =
            dst_local ? api::make_memory(dst_md, E->eng, RELAYOUT_MEMORY_ALLOCATE) : dst_host;
    auto move = [&](const api::md_t &from_md, const api::engine_t &from_eng,
                        const api::memory_t &from, const api::md_t &to_md,
                        const api::engine_t &to_eng, const api::memory_t &to) {
        api::make_reorder(api::make_reorder_pd(from_eng, from_md, to_eng, to_md, nullptr))
                .execute(strm, from, to);
        strm.wait();
    };
    auto run = [&]() {
        prim.execute(strm, src_mem, dst_mem);
        strm.wait();
    };
    const int64_t vol = volume(prb.dims);

    // ---- correctness -----------------------------------------------------
    const bool check = prb.mode == mode_t::correctness || prb.mode == mode_t::both;
    if (check && !prb.zero_volume()) {
        api::check(relayout_npu_engine_fill(E->eng.get(), lane_garbage), "npu_engine_fill");
        fill_src(src_l, src_buf.data(), src_buf.capacity());
        fill_dst(dst_l, dst_buf.data(), dst_buf.capacity(), prb.attr.has_sum);
        buffer_t dst_old(dst_buf.capacity());
        std::memcpy(dst_old.data(), dst_buf.data(), dst_buf.capacity());
        if (src_local) move(src_host_md, cpu, src_host, src_md, E->eng, src_mem);
        if (dst_local && prb.attr.has_sum)
            move(dst_host_md, cpu, dst_host, dst_md, E->eng, dst_mem);
        lanes_t before;
        if (dst_local) before.read(*E);
        run();

        std::vector<uint32_t> exp;
        compute_ref(prb, src_l, src_buf.data(), dst_l, dst_old.data(), exp);
        const bool bit_copy = prb.is_bit_copy();
        auto report_err = [&](const std::string &msg) {
            if (res.errors < max_printed_errors) printf("%d:  %s\n", idx, msg.c_str());
            ++res.errors;
        };
        if (dst_local) {
            // (1) gathered back through the library.
            std::memset(dst_buf.data(), dst_garbage_byte, dst_buf.capacity());
            move(dst_md, E->eng, dst_mem, dst_host_md, cpu, dst_host);
            // (2) the bytes in local memory, at the queried and the seed location.
            lanes_t after;
            after.read(*E);
            const auto info = query_local(dst_md);
            int64_t ss[4];
            if (seed_strides(info, ss))
                for (int d = 0; d < 4; ++d)
                    if (ss[d] != info.strides[d])
                        report_err("stride[" + std::to_string(d) + "] queried "
                                   + std::to_string(info.strides[d]) + ", seed formula "
                                   + std::to_string(ss[d]));
            const size_t dsz = dt_size(prb.ddt);
            std::vector<std::vector<bool>> mine(after.b.size());
            for (size_t q = 0; q < after.b.size(); ++q)
                mine[q].assign(after.b[q].size(), false);
            int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 }, i = 0;
            do {
                int64_t p4[4] = { 0, 0, 0, 0 };
                for (size_t d = 0; d < nd; ++d)
                    p4[d] = pos[d];
                int qnpu = 0, snpu = 0;
                int64_t qoff = 0, soff = 0;
                api::check(relayout_memory_desc_npu_element_location(
                                   dst_md.get(), p4[0], p4[1], p4[2], p4[3], &qnpu, &qoff),
                        "npu_element_location");
                seed_location(info, p4, snpu, soff);
                const std::string where = "pos:" + pos_str(pos, nd);
                if (qnpu != snpu || qoff != soff)
                    report_err(where + " queried at NPU " + std::to_string(qnpu) + "+"
                               + std::to_string(qoff) + ", seed formula NPU " + std::to_string(snpu)
                               + "+" + std::to_string(soff));
                const uint32_t g1 = load_bits(dst_buf.data(), dst_l.dt, dst_l.off(pos));
                if (!bits_match(exp[size_t(i)], g1, dst_l.dt, bit_copy))
                    report_err(where + " gathered exp:" + dt_bits_str(exp[size_t(i)], dst_l.dt)
                               + " got:" + dt_bits_str(g1, dst_l.dt));
                uint32_t g2 = 0;
                std::memcpy(&g2, &after.b[size_t(snpu)][size_t(soff)], dsz);
                if (!bits_match(exp[size_t(i)], g2, dst_l.dt, bit_copy))
                    report_err(where + " in local memory NPU " + std::to_string(snpu) + "+"
                               + std::to_string(soff)
                               + " exp:" + dt_bits_str(exp[size_t(i)], dst_l.dt)
                               + " got:" + dt_bits_str(g2, dst_l.dt));
                for (size_t b = 0; b < dsz; ++b)
                    mine[size_t(snpu)][size_t(soff) + b] = true;
                ++i;
                ++res.total;
            } while (next_pos(pos, prb.dims.data(), int(nd)));
            // (3) nothing else changed; dummy slots of packed words are zero.
            const bool packed = pack_k(info.storage) > 1;
            for (size_t q = 0; q < after.b.size(); ++q)
                for (size_t b = 0; b < after.b[q].size(); ++b) {
                    if (mine[q][b] || after.b[q][b] == before.b[q][b]) continue;
                    const bool dummy_ok = packed && after.b[q][b] == 0
                                          && int64_t(b) >= info.start_offset
                                          && int64_t(b) < info.start_offset + info.bytes_per_npu;
                    if (!dummy_ok)
                        report_err("local memory NPU " + std::to_string(q) + "+" + std::to_string(b)
                                   + " changed outside the tensor");
                }
        } else {
            int64_t pos[RELAYOUT_MAX_NDIMS] = { 0 }, i = 0;
            do {
                const uint32_t got = load_bits(dst_buf.data(), dst_l.dt, dst_l.off(pos));
                if (!bits_match(exp[size_t(i)], got, dst_l.dt, bit_copy))
                    report_err("pos:" + pos_str(pos, nd)
                               + " exp:" + dt_bits_str(exp[size_t(i)], dst_l.dt)
                               + " got:" + dt_bits_str(got, dst_l.dt));
                ++i;
                ++res.total;
            } while (next_pos(pos, prb.dims.data(), int(nd)));
            // Padding of a blocked host destination is zero.
            dims_t box(nd);
            for (size_t d = 0; d < nd; ++d)
                box[d] = dst_l.padded_dims[d];
            std::fill(pos, pos + nd, 0);
            do {
                bool in_pad = false;
                for (size_t d = 0; d < nd; ++d)
                    in_pad |= pos[d] >= dst_l.dims[d];
                if (!in_pad) continue;
                ++res.total;
                if (load_bits(dst_buf.data(), dst_l.dt, dst_l.off(pos)) != 0)
                    report_err("padding pos:" + pos_str(pos, nd) + " is not zero");
            } while (next_pos(pos, box.data(), int(nd)));
        }
        if (res.errors) {
            res.state = state_t::failed;
            return res;
        }
    }

    // ---- performance -----------------------------------------------------
    if (prb.mode == mode_t::performance || prb.mode == mode_t::both) {
        if (!prb.zero_volume()) {
            const size_t sb = size_t(vol) * dt_size(prb.sdt), db = size_t(vol) * dt_size(prb.ddt);
            buffer_t host_src(sb), scratch(db);
            std::memset(host_src.data(), 0x3f, host_src.capacity());
            res.perf = measure(run, host_src.data(), sb, scratch.data(), db, prb.fix_times);
            res.has_perf = true;
            printf("%d:npu: %s dma_cmds:%lld sim:%.2f GB/s (%.5f ms) %s\n", idx, E->cfg.name,
                    (long long)n_cmds, res.perf.gbps(), res.perf.min_ms, pd.plan().c_str());
        }
        if (!check) res.state = state_t::executed;
    } else if (verbose) {
        printf("%d:npu: %s dma_cmds:%lld %s\n", idx, E->cfg.name, (long long)n_cmds,
                pd.plan().c_str());
    }
    return res;
}

} // namespace bdl
