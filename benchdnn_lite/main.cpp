// benchdnn_lite — a benchdnn-compatible driver for the relayout reorder.
//
//   benchdnn_lite [--reorder] [knobs] PROBLEM... [--batch=FILE]...
//
// Knobs form a state applied to the problems that follow them (see
// usage()). Exit code: 0 when nothing failed, 1 on a failed problem, 2 on
// a command-line error.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "driver.hpp"
#include "parser.hpp"
#include "report.hpp"

namespace bdl {
int run_self_test(); // self_test.cpp
}

namespace {

using namespace bdl;

void usage() {
    printf("usage: benchdnn_lite [--reorder] [KNOBS] PROBLEM... [--batch=FILE]\n"
           "  PROBLEM               dims, e.g. 2x17x5x3 (0 allowed)\n"
           "  --sdt=, --ddt=DT[,..] f32 bf16 f16 s32 s16 u16 s8 u8   (default f32)\n"
           "  --stag=, --dtag=TAG   nchw, nChw16c, OIhw4i16o4i, aBcd16b, abx, any (default abx)\n"
           "  --strides=S:D         per-dim strides, x-separated; either side may be empty\n"
           "  --attr-scales=src:common:2+dst:per_dim_1:0.5\n"
           "  --attr-oscale=common:2           (= src scale)\n"
           "  --attr-zero-points=src:common:3+dst:common:-2\n"
           "  --attr-post-ops=sum[:BETA]\n"
           "  --oflag=s8s8_comp:M+zp_comp:M+scale_adjust:F\n"
           "  --engine=cpu|ocl|npu[:preset]   --mode=C|P|CP|L\n"
           "  npu: --engine=npu:bm1684x|npu:custom:X:S:EU  --dtag=/--stag=npu:aligned|compact|\n"
           "       line_aligned|matrix:W|free:Ns:Cs:Hs:Ws[:4n|2n|2ic]  --npu-addr=A[:B]\n"
           "  ocl: --engine=ocl[:INDEX]  --dtag=/--stag=image:TYPE[:b2|b4|b6] (pixel type = "
           "ddt/sdt)\n"
           "       --cross-engine=cpu2gpu|gpu2cpu|none   buffers: where src/dst live (default\n"
           "       cpu2gpu; none = both on the device, one generated kernel)\n"
           "  --max-cpu-isa=avx2|avx512_core|avx512_core_bf16|all|none\n"
           "  --perf-template=STR   fields %%prb%% %%impl%% %%engine%% %%min_ms%% %%avg_ms%%\n"
           "                        %%gbps%% %%copy_gbps%% %%copy_pct%% %%copy_ms%% %%iters%%\n"
           "                        %%bytes%% %%sdt%% %%ddt%% %%stag%% %%dtag%% %%dims%%\n"
           "  --fix-times-per-prb=N iterations in P mode (0 = auto, ~200 ms)\n"
           "  --expect=invalid|pass creation must fail with invalid_arguments\n"
           "  --reset  --batch=FILE  -v|--verbose[=N]  --self-test  --help\n"
           "Comma lists iterate (cartesian product). '#' starts a comment in batches.\n");
}

struct run_state_t {
    settings_t settings;
    stats_t stats;
    int next_idx = 0;
    int batch_depth = 0;
};

bool file_exists(const std::string &p) {
    FILE *f = fopen(p.c_str(), "r");
    if (f) fclose(f);
    return f != nullptr;
}

std::string dir_of(const std::string &path) {
    const size_t s = path.rfind('/');
    return s == std::string::npos ? "" : path.substr(0, s + 1);
}

bool process_args(
        run_state_t &st, const std::vector<std::string> &args, const std::string &base_dir);

bool run_batch(run_state_t &st, const std::string &file, const std::string &base_dir) {
    constexpr int max_depth = 16; // a batch including itself
    // Relative paths: first the including batch's directory, then the cwd.
    std::string path = file;
    if (!file.empty() && file[0] != '/' && !base_dir.empty() && file_exists(base_dir + file))
        path = base_dir + file;
    std::vector<std::string> tokens;
    std::string err;
    if (st.batch_depth >= max_depth) err = "batch files nested too deep at '" + file + "'";
    if (!err.empty() || !read_batch_tokens(path, tokens, err)) {
        fprintf(stderr, "benchdnn_lite: error: %s\n", err.c_str());
        return false;
    }
    ++st.batch_depth;
    const bool ok = process_args(st, tokens, dir_of(path));
    --st.batch_depth;
    return ok;
}

bool process_args(
        run_state_t &st, const std::vector<std::string> &args, const std::string &base_dir) {
    for (const auto &arg : args) {
        std::string err;
        if (arg == "--reset") {
            st.settings = settings_t();
        } else if (arg.compare(0, 8, "--batch=") == 0) {
            if (!run_batch(st, arg.substr(8), base_dir)) return false;
        } else if (arg == "-v" || arg == "--verbose") {
            verbose = 1;
        } else if (arg.compare(0, 10, "--verbose=") == 0
                   || (arg.size() == 3 && arg[0] == '-' && arg[1] == 'v')) {
            verbose = std::atoi(arg.c_str() + (arg[1] == 'v' ? 2 : 10));
        } else if (is_problem_arg(arg)) {
            std::vector<prb_t> prbs;
            if (!expand_problems(st.settings, arg, prbs, err)) {
                fprintf(stderr, "benchdnn_lite: error: %s\n", err.c_str());
                return false;
            }
            for (const auto &p : prbs) {
                const int idx = st.next_idx++;
                report(idx, p, run_problem(p, idx), st.stats);
            }
        } else if (!parse_knob(st.settings, arg, err)) {
            fprintf(stderr, "benchdnn_lite: error: %s\n", err.c_str());
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    for (const auto &a : args) {
        if (a == "--help" || a == "-h") {
            usage();
            return 0;
        }
        if (a == "--self-test") return bdl::run_self_test();
    }
    if (args.empty()) {
        usage();
        return 2;
    }
    run_state_t st;
    const bool ok = process_args(st, args, "");
    print_summary(st.stats);
    if (!ok) return 2;
    return st.stats.failed ? 1 : 0;
}
