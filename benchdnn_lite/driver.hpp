// benchdnn_lite — runs one problem against the library: create, fill,
// execute, compare with the reference and/or time.
#ifndef BENCHDNN_LITE_DRIVER_HPP
#define BENCHDNN_LITE_DRIVER_HPP

#include "api.hpp"
#include "problem.hpp"
#include "report.hpp"

namespace bdl {

res_t run_problem(const prb_t &prb, int idx);

// Creates a descriptor from a tag name: enum names (nchw, OIhw4i16o4i, ...)
// through the enum constructor, anything else through the string-tag one.
api::md_t make_md(const dims_t &dims, dt_t dt, const std::string &tag, const dims_t &strides);

// The primitive attributes of prb (scales, zero points, sum).
api::attr_t make_attr(const prb_t &prb);

} // namespace bdl

#endif
