// Helpers shared by the unit tests of internal code.
#ifndef RELAYOUT_TESTS_UNIT_UNIT_TEST_UTILS_HPP
#define RELAYOUT_TESTS_UNIT_UNIT_TEST_UTILS_HPP

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "md/format_tag.hpp"

namespace relayout {
namespace impl {
namespace test {

// A descriptor from dims, a data type and a tag; a bad tag fails the test.
inline memory_desc_t make(std::vector<dim_t> dims, data_type_t dt, const std::string &tag) {
    memory_desc_t md;
    EXPECT_EQ(md_init_by_tag(md, (int)dims.size(), dims.data(), dt, tag), status_t::success)
            << last_error_message();
    return md;
}

} // namespace test
} // namespace impl
} // namespace relayout

#endif
