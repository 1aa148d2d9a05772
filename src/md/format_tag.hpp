// Format tags (DESIGN §2.2): the enum table and the generic string parser.
#ifndef RELAYOUT_MD_FORMAT_TAG_HPP
#define RELAYOUT_MD_FORMAT_TAG_HPP

#include <string>

#include "md/memory_desc.hpp"

namespace relayout {
namespace impl {

using format_tag_t = relayout_format_tag_t;

// Canonical string of an enum tag ("aBcd16b"), or nullptr.
const char *fmt_tag2str(format_tag_t tag);
// Enum tag of a name ("nChw16c", "aBcd16b"); format_tag_undef if none.
format_tag_t str2fmt_tag(const std::string &name);

// The layout a string tag describes, parsed generically.
struct parsed_tag_t {
    int ndims;
    int outer_order[max_ndims]; // logical dims, outermost first
    int inner_nblks;
    dim_t inner_blks[max_ndims];
    dim_t inner_idxs[max_ndims];
};

// Parses a string tag for `ndims` dims. Accepts enum names too ("nchw").
// 'x' expands to the dims the tag does not name, in logical order.
status_t parse_tag(const std::string &tag, int ndims, parsed_tag_t &out);

status_t md_init_by_tag(
        memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt, const std::string &tag);
status_t md_init_by_tag(
        memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt, format_tag_t tag);

} // namespace impl
} // namespace relayout

#endif
