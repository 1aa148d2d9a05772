// benchdnn_lite — knob parsing.
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "engine_npu.hpp"
#include "parser.hpp"

namespace bdl {

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        const size_t p = s.find(sep, start);
        out.push_back(s.substr(start, p == std::string::npos ? p : p - start));
        if (p == std::string::npos) break;
        start = p + 1;
    }
    return out;
}

namespace {

bool parse_int64(const std::string &s, int64_t &v) {
    if (s.empty()) return false;
    char *end = nullptr;
    errno = 0;
    const long long r = std::strtoll(s.c_str(), &end, 10);
    if (errno || *end != '\0') return false;
    v = r;
    return true;
}

bool parse_float(const std::string &s, float &v) {
    if (s.empty()) return false;
    char *end = nullptr;
    errno = 0;
    const float r = std::strtof(s.c_str(), &end);
    if (errno || *end != '\0') return false;
    v = r;
    return true;
}

bool starts_with(const std::string &s, const std::string &prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

// "common" -> 0; "per_dim_1" -> 1 << 1; "per_dim_01" -> 0b11.
bool parse_policy(const std::string &s, int &mask, std::string &err) {
    if (s == "common") {
        mask = 0;
        return true;
    }
    const std::string pfx = "per_dim_";
    if (starts_with(s, pfx) && s.size() > pfx.size()) {
        mask = 0;
        for (size_t i = pfx.size(); i < s.size(); ++i) {
            if (!std::isdigit((unsigned char)s[i])) break;
            mask |= 1 << (s[i] - '0');
            if (i + 1 == s.size()) return true;
        }
    }
    err = "bad policy '" + s + "' (expected common or per_dim_N)";
    return false;
}

// "policy[:value]" into a scale.
bool parse_one_scale(
        const std::vector<std::string> &f, size_t first, scale_t &sc, std::string &err) {
    if (f.size() <= first || f.size() > first + 2) {
        err = "expected POLICY[:VALUE]";
        return false;
    }
    if (!parse_policy(f[first], sc.mask, err)) return false;
    sc.value = 1.f;
    if (f.size() == first + 2 && !parse_float(f[first + 1], sc.value)) {
        err = "bad scale value '" + f[first + 1] + "'";
        return false;
    }
    sc.present = true;
    return true;
}

} // namespace

bool parse_dims(const std::string &s, dims_t &dims, std::string &err) {
    dims.clear();
    for (const auto &t : split(s, 'x')) {
        int64_t v;
        if (!parse_int64(t, v) || v < 0) {
            err = "bad problem descriptor '" + s + "' (expected dims like 2x17x5x3)";
            return false;
        }
        dims.push_back(v);
    }
    if (dims.empty() || dims.size() > RELAYOUT_MAX_NDIMS) {
        err = "problem '" + s + "' must have 1.." + std::to_string(RELAYOUT_MAX_NDIMS) + " dims";
        return false;
    }
    return true;
}

bool parse_strides(const std::string &s, dims_t &src, dims_t &dst, std::string &err) {
    src.clear();
    dst.clear();
    if (s.empty()) return true;
    const auto sides = split(s, ':');
    if (sides.size() != 2) {
        err = "--strides expects SRC:DST (either side may be empty), got '" + s + "'";
        return false;
    }
    for (int i = 0; i < 2; ++i) {
        if (sides[i].empty()) continue;
        dims_t &out = i == 0 ? src : dst;
        for (const auto &t : split(sides[i], 'x')) {
            int64_t v;
            if (!parse_int64(t, v) || v < 0) {
                err = "bad stride '" + t + "' in --strides=" + s;
                return false;
            }
            out.push_back(v);
        }
    }
    return true;
}

bool parse_scales(const std::string &s, attr_t &attr, std::string &err) {
    if (s.empty()) return true;
    for (const auto &entry : split(s, '+')) {
        const auto f = split(entry, ':');
        scale_t *sc = nullptr;
        if (f[0] == "src")
            sc = &attr.src_scale;
        else if (f[0] == "dst")
            sc = &attr.dst_scale;
        else {
            err = "--attr-scales: bad argument '" + f[0] + "' (expected src or dst)";
            return false;
        }
        if (!parse_one_scale(f, 1, *sc, err)) {
            err = "--attr-scales=" + s + ": " + err;
            return false;
        }
    }
    return true;
}

bool parse_oscale(const std::string &s, attr_t &attr, std::string &err) {
    if (s.empty()) return true;
    if (!parse_one_scale(split(s, ':'), 0, attr.src_scale, err)) {
        err = "--attr-oscale=" + s + ": " + err;
        return false;
    }
    return true;
}

bool parse_zero_points(const std::string &s, attr_t &attr, std::string &err) {
    if (s.empty()) return true;
    for (const auto &entry : split(s, '+')) {
        const auto f = split(entry, ':');
        int32_t *zp = nullptr;
        if (f[0] == "src") zp = &attr.src_zp;
        if (f[0] == "dst") zp = &attr.dst_zp;
        int64_t v = 0;
        if (!zp || f.size() != 3 || f[1] != "common" || !parse_int64(f[2], v) || v < INT32_MIN
                || v > INT32_MAX) {
            err = "--attr-zero-points: bad entry '" + entry
                  + "' (expected src:common:Z or dst:common:Z)";
            return false;
        }
        *zp = int32_t(v);
    }
    return true;
}

bool parse_post_ops(const std::string &s, attr_t &attr, std::string &err) {
    if (s.empty()) return true;
    const auto f = split(s, ':');
    if (f[0] != "sum" || f.size() > 2) {
        err = "--attr-post-ops: bad value '" + s + "' (only sum[:BETA])";
        return false;
    }
    attr.sum_beta = 1.f;
    if (f.size() == 2 && !parse_float(f[1], attr.sum_beta)) {
        err = "--attr-post-ops: bad beta '" + f[1] + "'";
        return false;
    }
    attr.has_sum = attr.sum_beta != 0.f; // the API: beta 0 removes the sum
    return true;
}

bool parse_oflag(const std::string &s, oflag_t &o, std::string &err) {
    if (s.empty()) return true;
    for (const auto &entry : split(s, '+')) {
        const auto f = split(entry, ':');
        int64_t m = 0;
        if (f.size() == 2 && f[0] == "scale_adjust") {
            o.has_scale_adjust = true;
            if (parse_float(f[1], o.scale_adjust)) continue;
        } else if (f.size() == 2 && (f[0] == "s8s8_comp" || f[0] == "zp_comp")
                   && parse_int64(f[1], m) && m >= 0 && m < (1 << RELAYOUT_MAX_NDIMS)) {
            (f[0] == "s8s8_comp" ? o.s8s8_mask : o.zp_mask) = int(m);
            continue;
        }
        err = "--oflag: bad entry '" + entry
              + "' (expected s8s8_comp:MASK, zp_comp:MASK or scale_adjust:F)";
        return false;
    }
    return true;
}

bool parse_mode(const std::string &s, mode_t &mode, std::string &err) {
    std::string u;
    for (char c : s)
        u += char(std::toupper((unsigned char)c));
    if (u == "C")
        mode = mode_t::correctness;
    else if (u == "P")
        mode = mode_t::performance;
    else if (u == "CP" || u == "PC")
        mode = mode_t::both;
    else if (u == "L")
        mode = mode_t::list;
    else {
        err = "--mode: bad value '" + s + "' (expected C, P, CP or L)";
        return false;
    }
    return true;
}

bool parse_engine(const std::string &s, std::string &kind, std::string &preset, std::string &err) {
    const size_t p = s.find(':');
    kind = s.substr(0, p);
    preset = p == std::string::npos ? "" : s.substr(p + 1);
    if (kind != "cpu" && kind != "ocl" && kind != "npu") {
        err = "--engine: bad kind '" + kind + "' (expected cpu, ocl or npu)";
        return false;
    }
    return true;
}

bool parse_isa(const std::string &s, relayout_cpu_isa_t &isa, std::string &err) {
    if (s == "" || s == "default")
        isa = relayout_cpu_isa_default;
    else if (s == "none" || s == "ref")
        isa = relayout_cpu_isa_none;
    else if (s == "avx2")
        isa = relayout_cpu_isa_avx2;
    else if (s == "avx512_core")
        isa = relayout_cpu_isa_avx512_core;
    else if (s == "avx512_core_bf16")
        isa = relayout_cpu_isa_avx512_core_bf16;
    else if (s == "all")
        isa = relayout_cpu_isa_all;
    else {
        err = "--max-cpu-isa: bad value '" + s
              + "' (expected avx2, avx512_core, avx512_core_bf16, all or "
                "none)";
        return false;
    }
    return true;
}

bool is_problem_arg(const std::string &arg) {
    return !arg.empty() && std::isdigit((unsigned char)arg[0]);
}

bool parse_knob(settings_t &s, const std::string &arg, std::string &err) {
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string val = has_value ? arg.substr(eq + 1) : "";
    auto need_value = [&]() {
        if (!has_value) err = "knob " + key + " needs a value (" + key + "=...)";
        return has_value;
    };
    // A list knob: validate every element now, so a typo stops the run at
    // the knob and not at the next problem.
    auto list = [&](std::vector<std::string> &dst,
                        bool (*check)(const std::string &, std::string &)) {
        if (!need_value()) return false;
        auto items = split(val, ',');
        for (const auto &it : items)
            if (!check(it, err)) return false;
        dst = items;
        return true;
    };
    using check_fn = bool (*)(const std::string &, std::string &);
    check_fn check_dt = [](const std::string &v, std::string &e) {
        dt_t dt;
        if (name2dt(v, dt)) return true;
        e = "bad data type '" + v + "' (f32, bf16, f16, s32, s16, u16, s8, u8)";
        return false;
    };
    check_fn check_tag = [](const std::string &v, std::string &e) {
        if (!v.empty()) return true; // the library parses tags
        e = "empty format tag";
        return false;
    };
    check_fn check_strides = [](const std::string &v, std::string &e) {
        dims_t a, b;
        return parse_strides(v, a, b, e);
    };
    check_fn check_scales = [](const std::string &v, std::string &e) {
        attr_t a;
        return parse_scales(v, a, e);
    };
    check_fn check_oscale = [](const std::string &v, std::string &e) {
        attr_t a;
        return parse_oscale(v, a, e);
    };
    check_fn check_zp = [](const std::string &v, std::string &e) {
        attr_t a;
        return parse_zero_points(v, a, e);
    };
    check_fn check_po = [](const std::string &v, std::string &e) {
        attr_t a;
        return parse_post_ops(v, a, e);
    };
    check_fn check_oflag = [](const std::string &v, std::string &e) {
        oflag_t o;
        return parse_oflag(v, o, e);
    };

    if (key == "--reorder" || key == "--driver") return true; // the only driver
    if (key == "--sdt") return list(s.sdt, check_dt);
    if (key == "--ddt") return list(s.ddt, check_dt);
    if (key == "--stag") return list(s.stag, check_tag);
    if (key == "--dtag") return list(s.dtag, check_tag);
    if (key == "--strides") return list(s.strides, check_strides);
    if (key == "--attr-scales") return list(s.scales, check_scales);
    if (key == "--attr-oscale") return list(s.oscale, check_oscale);
    if (key == "--attr-zero-points") return list(s.zero_points, check_zp);
    if (key == "--attr-post-ops") return list(s.post_ops, check_po);
    if (key == "--oflag") return list(s.oflag, check_oflag);
    if (key == "--engine") {
        std::string k, p;
        if (!need_value() || !parse_engine(val, k, p, err)) return false;
        s.engine = val;
        return true;
    }
    if (key == "--cross-engine") {
        if (!need_value()) return false;
        if (val != "cpu2gpu" && val != "gpu2cpu" && val != "none") {
            err = "--cross-engine: bad value '" + val + "' (expected cpu2gpu, gpu2cpu or none)";
            return false;
        }
        s.cross_engine = val;
        return true;
    }
    if (key == "--mode") {
        mode_t m;
        if (!need_value() || !parse_mode(val, m, err)) return false;
        s.mode = val;
        return true;
    }
    if (key == "--max-cpu-isa") {
        relayout_cpu_isa_t isa;
        if (!need_value() || !parse_isa(val, isa, err)) return false;
        s.max_cpu_isa = val;
        return true;
    }
    if (key == "--expect") {
        if (!need_value()) return false;
        if (val != "pass" && val != "invalid") {
            err = "--expect: bad value '" + val + "' (expected pass or invalid)";
            return false;
        }
        s.expect = val == "pass" ? "" : val;
        return true;
    }
    if (key == "--npu-addr") {
        if (!need_value() || !check_npu_addr(val, err)) return false;
        s.npu_addr = val;
        return true;
    }
    if (key == "--perf-template") {
        if (!need_value()) return false;
        s.perf_template = val;
        return true;
    }
    if (key == "--fix-times-per-prb") {
        int64_t n;
        if (!need_value()) return false;
        if (!parse_int64(val, n) || n < 0 || n > 1000000) {
            err = "--fix-times-per-prb: bad value '" + val + "'";
            return false;
        }
        s.fix_times = int(n);
        return true;
    }
    if (key == "--compare") {
        if (!need_value()) return false;
        err = "--compare=" + val
              + ": unsupported (benchdnn_lite is built without a oneDNN baseline)";
        return false;
    }
    err = "unknown knob '" + arg + "' (see --help)";
    return false;
}

namespace {
// "--knob=value" when the value differs from the default.
void add_knob(std::string &repro, const char *key, const std::string &val, const std::string &def) {
    if (val == def) return;
    repro += " ";
    repro += key;
    repro += "=" + val;
}
} // namespace

bool expand_problems(const settings_t &s, const std::string &dims_arg, std::vector<prb_t> &prbs,
        std::string &err) {
    dims_t dims;
    if (!parse_dims(dims_arg, dims, err)) return false;
    const settings_t def;
    prb_t base;
    base.dims = dims;
    if (!parse_engine(s.engine, base.engine_kind, base.engine_preset, err)) return false;
    if (!parse_mode(s.mode, base.mode, err)) return false;
    base.expect = s.expect == "invalid" ? expect_t::invalid : expect_t::pass;
    base.max_cpu_isa = s.max_cpu_isa;
    base.perf_template = s.perf_template;
    base.fix_times = s.fix_times;
    base.npu_addr = s.npu_addr;
    base.cross_engine = s.cross_engine;

    for (const auto &sdt : s.sdt)
        for (const auto &ddt : s.ddt)
            for (const auto &stag : s.stag)
                for (const auto &dtag : s.dtag)
                    for (const auto &strides : s.strides)
                        for (const auto &oscale : s.oscale)
                            for (const auto &scales : s.scales)
                                for (const auto &zp : s.zero_points)
                                    for (const auto &po : s.post_ops)
                                        for (const auto &oflag : s.oflag) {
                                            prb_t p = base;
                                            name2dt(sdt, p.sdt);
                                            name2dt(ddt, p.ddt);
                                            p.stag = stag;
                                            p.dtag = dtag;
                                            if (!parse_strides(
                                                        strides, p.src_strides, p.dst_strides, err))
                                                return false;
                                            for (const dims_t *st :
                                                    { &p.src_strides, &p.dst_strides })
                                                if (!st->empty() && st->size() != dims.size()) {
                                                    err = "--strides=" + strides + " has "
                                                          + std::to_string(st->size())
                                                          + " values for the "
                                                          + std::to_string(dims.size())
                                                          + "-d problem " + dims_arg;
                                                    return false;
                                                }
                                            if (!parse_oscale(oscale, p.attr, err)
                                                    || !parse_scales(scales, p.attr, err)
                                                    || !parse_zero_points(zp, p.attr, err)
                                                    || !parse_post_ops(po, p.attr, err)
                                                    || !parse_oflag(oflag, p.oflag, err))
                                                return false;
                                            for (const scale_t *sc :
                                                    { &p.attr.src_scale, &p.attr.dst_scale })
                                                if (sc->mask >> dims.size()) {
                                                    err = "scale mask " + std::to_string(sc->mask)
                                                          + " names a dim beyond the "
                                                          + std::to_string(dims.size())
                                                          + "-d problem " + dims_arg;
                                                    return false;
                                                }

                                            std::string r = "--reorder";
                                            add_knob(r, "--engine", s.engine, def.engine);
                                            add_knob(r, "--cross-engine", s.cross_engine,
                                                    def.cross_engine);
                                            add_knob(r, "--max-cpu-isa", s.max_cpu_isa,
                                                    def.max_cpu_isa);
                                            add_knob(r, "--sdt", sdt, def.sdt[0]);
                                            add_knob(r, "--ddt", ddt, def.ddt[0]);
                                            add_knob(r, "--stag", stag, def.stag[0]);
                                            add_knob(r, "--dtag", dtag, def.dtag[0]);
                                            add_knob(r, "--strides", strides, "");
                                            add_knob(r, "--attr-oscale", oscale, "");
                                            add_knob(r, "--attr-scales", scales, "");
                                            add_knob(r, "--attr-zero-points", zp, "");
                                            add_knob(r, "--attr-post-ops", po, "");
                                            add_knob(r, "--oflag", oflag, "");
                                            add_knob(r, "--npu-addr", s.npu_addr, def.npu_addr);
                                            add_knob(r, "--expect", s.expect, def.expect);
                                            p.repro = r + " " + dims_arg;
                                            prbs.push_back(std::move(p));
                                        }
    return true;
}

bool read_batch_tokens(
        const std::string &path, std::vector<std::string> &tokens, std::string &err) {
    std::ifstream f(path);
    if (!f) {
        err = "cannot open batch file '" + path + "'";
        return false;
    }
    std::string line;
    while (std::getline(f, line)) {
        const size_t hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        std::istringstream ss(line);
        std::string t;
        while (ss >> t)
            tokens.push_back(t);
    }
    return true;
}

} // namespace bdl
