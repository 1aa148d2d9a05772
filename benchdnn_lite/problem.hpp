// benchdnn_lite — the knob state (settings_t) and one concrete problem
// (prb_t) expanded from it.
#ifndef BENCHDNN_LITE_PROBLEM_HPP
#define BENCHDNN_LITE_PROBLEM_HPP

#include <string>
#include <vector>

#include "common.hpp"

namespace bdl {

// One scale: mask 0 = common value; otherwise bit d = one value per index of
// logical dim d. Per-dim values are generated around `value` at run time.
struct scale_t {
    bool present = false;
    int mask = 0;
    float value = 1.f;
};

struct attr_t {
    scale_t src_scale, dst_scale;
    int32_t src_zp = 0, dst_zp = 0;
    bool has_sum = false;
    float sum_beta = 0.f;
};

// dst descriptor extra section (--oflag).
struct oflag_t {
    int s8s8_mask = -1; // -1: no s8s8 compensation
    int zp_mask = -1;   // -1: no asymmetric-src compensation
    bool has_scale_adjust = false;
    float scale_adjust = 1.f;
    uint64_t flags() const;
    bool any() const { return s8s8_mask >= 0 || zp_mask >= 0 || has_scale_adjust; }
};

enum class mode_t { correctness, performance, both, list };
enum class expect_t { pass, invalid };

// Knob values as typed by the user; list knobs iterate (cartesian product).
struct settings_t {
    std::vector<std::string> sdt{ "f32" }, ddt{ "f32" };
    std::vector<std::string> stag{ "abx" }, dtag{ "abx" };
    std::vector<std::string> strides{ "" };
    std::vector<std::string> scales{ "" }, oscale{ "" }, zero_points{ "" };
    std::vector<std::string> post_ops{ "" }, oflag{ "" };
    std::string engine = "cpu";
    // Where src and dst live with a device engine (benchdnn's names):
    // cpu2gpu (src on the cpu; the default here), gpu2cpu, none (both on
    // the device).
    std::string cross_engine = "cpu2gpu";
    std::string mode = "C";
    std::string max_cpu_isa = ""; // "" = no cap requested
    std::string expect = "";
    std::string perf_template = "";
    int fix_times = 0;         // 0 = auto (~200 ms)
    std::string npu_addr = ""; // --npu-addr=A[:B] (engine_npu.hpp)
};

// One problem, fully parsed.
struct prb_t {
    dims_t dims;
    dt_t sdt = relayout_f32, ddt = relayout_f32;
    std::string stag, dtag;
    dims_t src_strides, dst_strides; // empty: use the tag
    attr_t attr;
    oflag_t oflag;
    std::string engine_kind = "cpu", engine_preset;
    std::string cross_engine = "cpu2gpu"; // settings_t::cross_engine
    std::string npu_addr;                 // local addresses, --engine=npu only
    mode_t mode = mode_t::correctness;
    expect_t expect = expect_t::pass;
    std::string max_cpu_isa;
    std::string perf_template;
    int fix_times = 0;
    std::string repro; // knobs differing from defaults + the problem

    bool zero_volume() const {
        for (auto d : dims)
            if (d == 0) return true;
        return false;
    }
    // Per-dim (or common) scale values for a problem's dims.
    std::vector<float> scale_values(const scale_t &s) const;
    // True when the destination must be a bit copy of the source.
    bool is_bit_copy() const;
};

} // namespace bdl

#endif
