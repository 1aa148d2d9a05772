// benchdnn_lite — printing.
#include <cstdio>

#include "report.hpp"

namespace bdl {

int verbose = 0;

const char *default_perf_template =
        "perf,%engine%,%impl%,%prb%,%min_ms%,%avg_ms%,%gbps%,%copy_gbps%,%copy_pct%";

namespace {
std::string fmt(const char *f, double v) {
    char buf[64];
    snprintf(buf, sizeof(buf), f, v);
    return buf;
}

std::string field(const std::string &name, const prb_t &prb, const res_t &res, int idx) {
    const perf_res_t &p = res.perf;
    const std::string prb_str =
            prb.repro.compare(0, 10, "--reorder ") == 0 ? prb.repro.substr(10) : prb.repro;
    if (name == "prb") return prb_str;
    if (name == "impl") return res.impl;
    if (name == "engine") return prb.engine_kind;
    if (name == "idx") return std::to_string(idx);
    if (name == "min_ms") return fmt("%.5f", p.min_ms);
    if (name == "avg_ms") return fmt("%.5f", p.avg_ms);
    if (name == "gbps") return fmt("%.2f", p.gbps());
    if (name == "copy_ms") return fmt("%.5f", p.copy_min_ms);
    if (name == "copy_gbps") return fmt("%.2f", p.copy_gbps());
    if (name == "copy_pct") return fmt("%.1f", p.pct_of_copy());
    if (name == "iters") return std::to_string(p.iters);
    if (name == "bytes") return fmt("%.0f", p.bytes);
    if (name == "sdt") return dt2name(prb.sdt);
    if (name == "ddt") return dt2name(prb.ddt);
    if (name == "stag") return prb.stag;
    if (name == "dtag") return prb.dtag;
    if (name == "dims") return dims2str(prb.dims);
    return "%" + name + "%"; // unknown: left as written
}
} // namespace

std::string format_perf(const std::string &tmpl, const prb_t &prb, const res_t &res, int idx) {
    std::string out;
    for (size_t i = 0; i < tmpl.size(); ++i) {
        const size_t close = tmpl[i] == '%' ? tmpl.find('%', i + 1) : std::string::npos;
        if (close == std::string::npos) {
            out += tmpl[i];
            continue;
        }
        out += field(tmpl.substr(i + 1, close - i - 1), prb, res, idx);
        i = close;
    }
    return out;
}

void report(int idx, const prb_t &prb, const res_t &res, stats_t &stats) {
    ++stats.tests;
    const char *repro = prb.repro.c_str();
    switch (res.state) {
        case state_t::passed:
            ++stats.passed;
            if (verbose && !res.impl.empty()) printf("%d:impl: %s\n", idx, res.impl.c_str());
            printf("%d:PASSED __REPRO: %s\n", idx, repro);
            break;
        case state_t::executed:
            ++stats.passed;
            printf("%d:EXECUTED __REPRO: %s\n", idx, repro);
            break;
        case state_t::listed:
            ++stats.passed;
            printf("%d:LISTED (impl:%s) __REPRO: %s\n", idx, res.impl.c_str(), repro);
            break;
        case state_t::failed:
            ++stats.failed;
            if (!res.reason.empty()) printf("%d:error: %s\n", idx, res.reason.c_str());
            printf("%d:FAILED (errors:%lld total:%lld) __REPRO: %s\n", idx, (long long)res.errors,
                    (long long)res.total, repro);
            break;
        case state_t::unimplemented:
            ++stats.unimplemented;
            if (verbose && !res.reason.empty())
                printf("%d:unimplemented: %s\n", idx, res.reason.c_str());
            printf("%d:UNIMPLEMENTED __REPRO: %s\n", idx, repro);
            break;
        case state_t::skipped:
            ++stats.skipped;
            printf("%d:SKIPPED (%s) __REPRO: %s\n", idx, res.reason.c_str(), repro);
            break;
    }
    if (res.has_perf) {
        static bool header_done = false;
        if (!header_done) {
            printf("%-5s %11s %11s %9s %9s %7s  %-28s %s\n", "#idx", "min_ms", "avg_ms", "GB/s",
                    "copyGB/s", "%copy", "impl", "problem");
            header_done = true;
        }
        const perf_res_t &p = res.perf;
        printf("%-5d %11.5f %11.5f %9.2f %9.2f %6.1f%%  %-28s %s\n", idx, p.min_ms, p.avg_ms,
                p.gbps(), p.copy_gbps(), p.pct_of_copy(), res.impl.c_str(),
                field("prb", prb, res, idx).c_str());
        const std::string &t =
                prb.perf_template.empty() ? std::string(default_perf_template) : prb.perf_template;
        printf("%s\n", format_perf(t, prb, res, idx).c_str());
    }
    fflush(stdout);
}

void print_summary(const stats_t &s) {
    printf("tests:%d passed:%d skipped:%d unimplemented:%d failed:%d\n", s.tests, s.passed,
            s.skipped, s.unimplemented, s.failed);
    printf("benchdnn_lite: %d passed, %d failed\n", s.passed, s.failed);
    fflush(stdout);
}

} // namespace bdl
