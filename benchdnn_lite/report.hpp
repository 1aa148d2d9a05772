// benchdnn_lite — result lines, perf template, summary.
#ifndef BENCHDNN_LITE_REPORT_HPP
#define BENCHDNN_LITE_REPORT_HPP

#include <string>
#include <vector>

#include "perf.hpp"
#include "problem.hpp"

namespace bdl {

extern int verbose; // -v / --verbose[=N]

enum class state_t { passed, failed, skipped, unimplemented, listed, executed };

struct res_t {
    state_t state = state_t::passed;
    int64_t errors = 0, total = 0;
    std::string reason; // why it failed / was skipped / is unimplemented
    std::string impl;
    bool has_perf = false;
    perf_res_t perf;
};

struct stats_t {
    int tests = 0, passed = 0, skipped = 0, unimplemented = 0, failed = 0;
};

// Default perf line: perf,<engine>,<impl>,<prb>,min_ms,avg_ms,gbps,copy_gbps,pct
extern const char *default_perf_template;
std::string format_perf(const std::string &tmpl, const prb_t &prb, const res_t &res, int idx);

void report(int idx, const prb_t &prb, const res_t &res, stats_t &stats);
void print_summary(const stats_t &stats);

} // namespace bdl

#endif
