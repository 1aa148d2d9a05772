// benchdnn_lite — command-line and batch-file parsing (benchdnn's knob
// state machine). Pure functions over strings; unit-tested by --self-test.
#ifndef BENCHDNN_LITE_PARSER_HPP
#define BENCHDNN_LITE_PARSER_HPP

#include <string>
#include <vector>

#include "problem.hpp"

namespace bdl {

std::vector<std::string> split(const std::string &s, char sep);

// Each returns false and sets err on a malformed value.
bool parse_dims(const std::string &s, dims_t &dims, std::string &err);
bool parse_strides(const std::string &s, dims_t &src, dims_t &dst, std::string &err);
bool parse_scales(const std::string &s, attr_t &attr, std::string &err);
bool parse_oscale(const std::string &s, attr_t &attr, std::string &err);
bool parse_zero_points(const std::string &s, attr_t &attr, std::string &err);
bool parse_post_ops(const std::string &s, attr_t &attr, std::string &err);
bool parse_oflag(const std::string &s, oflag_t &oflag, std::string &err);
bool parse_mode(const std::string &s, mode_t &mode, std::string &err);
bool parse_engine(const std::string &s, std::string &kind, std::string &preset, std::string &err);
bool parse_isa(const std::string &s, relayout_cpu_isa_t &isa, std::string &err);

// Is the argument a problem descriptor ("2x17x5x3")?
bool is_problem_arg(const std::string &arg);

// Applies one knob to the settings. Returns false with err set for an
// unknown knob or a bad value. Knobs handled by the caller (--batch,
// --reset, -v, --self-test) are not recognised here.
bool parse_knob(settings_t &s, const std::string &arg, std::string &err);

// The problems a descriptor expands to under the current settings (the
// cartesian product of every list knob), each with its repro line.
bool expand_problems(const settings_t &s, const std::string &dims_arg, std::vector<prb_t> &prbs,
        std::string &err);

// Tokens of a batch file: whitespace separated, '#' comments to line end.
bool read_batch_tokens(const std::string &path, std::vector<std::string> &tokens, std::string &err);

} // namespace bdl

#endif
