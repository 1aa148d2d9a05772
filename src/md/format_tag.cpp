#include "md/format_tag.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

namespace relayout {
namespace impl {

namespace {

struct tag_entry_t {
    const char *name;
    format_tag_t tag;
};

// Every name, tags and aliases, for str2fmt_tag.
const tag_entry_t tag_table[] = {
#define RELAYOUT_TAG(name, str) { #name, relayout_##name },
#define RELAYOUT_TAG_ALIAS(alias, name) { #alias, relayout_##alias },
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
};

// The canonical strings in enum order: the tags are numbered from the one
// after relayout_format_tag_any, in the order the manifest declares them.
const char *const canonical_table[] = {
#define RELAYOUT_TAG(name, str) str,
#define RELAYOUT_TAG_ALIAS(alias, name)
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
};
constexpr int first_tag = relayout_format_tag_any + 1;
static_assert(
        first_tag + sizeof(canonical_table) / sizeof(*canonical_table) == relayout_format_tag_last,
        "the manifest's tags are numbered consecutively");

// tag_table sorted by name, built once (about 1100 names: a binary search
// keeps descriptor creation by name independent of the manifest's length).
const std::vector<const tag_entry_t *> &names_sorted() {
    static const std::vector<const tag_entry_t *> sorted = [] {
        std::vector<const tag_entry_t *> v;
        for (const auto &e : tag_table)
            v.push_back(&e);
        std::sort(v.begin(), v.end(), [](const tag_entry_t *a, const tag_entry_t *b) {
            return std::strcmp(a->name, b->name) < 0;
        });
        return v;
    }();
    return sorted;
}

} // namespace

const char *fmt_tag2str(format_tag_t tag) {
    const int i = static_cast<int>(tag) - first_tag;
    if (i < 0 || i >= static_cast<int>(sizeof(canonical_table) / sizeof(*canonical_table)))
        return nullptr;
    return canonical_table[i];
}

format_tag_t str2fmt_tag(const std::string &name) {
    const auto &v = names_sorted();
    const auto it = std::lower_bound(v.begin(), v.end(), name.c_str(),
            [](const tag_entry_t *e, const char *n) { return std::strcmp(e->name, n) < 0; });
    if (it != v.end() && name == (*it)->name) return (*it)->tag;
    return relayout_format_tag_undef;
}

status_t parse_tag(const std::string &tag_in, int ndims, parsed_tag_t &out) {
    if (ndims < 1 || ndims > max_ndims)
        return failf(status_t::invalid_arguments, "ndims is %d; it must be in [1, %d]", ndims,
                max_ndims);
    // Enum names (domain aliases such as nChw16c) first.
    std::string tag = tag_in;
    const format_tag_t e = str2fmt_tag(tag_in);
    if (e != relayout_format_tag_undef) tag = fmt_tag2str(e);
    if (tag.empty()) return fail(status_t::invalid_arguments, "format tag is empty");

    auto bad = [&](size_t pos, const char *why) {
        return failf(status_t::invalid_arguments, "format tag \"%s\": character %zu ('%c') %s",
                tag_in.c_str(), pos, pos < tag.size() ? tag[pos] : '?', why);
    };

    // Outer part: letters (and at most one 'x').
    size_t p = 0;
    int letters[max_ndims + 1];
    bool blocked[max_ndims + 1];
    int nletters = 0, x_at = -1;
    bool used[max_ndims] = {};
    while (p < tag.size() && std::isalpha(static_cast<unsigned char>(tag[p]))) {
        const char c = tag[p];
        if (c == 'x' || c == 'X') {
            if (x_at >= 0) return bad(p, "repeats the 'x' meta-letter");
            x_at = nletters;
            letters[nletters] = -1;
            blocked[nletters] = false;
            ++nletters;
            ++p;
            continue;
        }
        const char lc = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lc < 'a' || lc > 'l') return bad(p, "is not a dim letter (a..l or x)");
        const int d = lc - 'a';
        if (d >= ndims) {
            return failf(status_t::invalid_arguments,
                    "format tag \"%s\": character %zu ('%c') names dim %d but the "
                    "tensor has %d dims",
                    tag_in.c_str(), p, c, d, ndims);
        }
        if (used[d]) return bad(p, "names a dim a second time");
        if (nletters >= max_ndims) return bad(p, "makes the tag too long");
        used[d] = true;
        letters[nletters] = d;
        blocked[nletters] = std::isupper(static_cast<unsigned char>(c)) != 0;
        ++nletters;
        ++p;
    }
    if (nletters == 0) return bad(0, "does not start the tag with a dim letter");
    if (p < tag.size() && !std::isdigit(static_cast<unsigned char>(tag[p])))
        return bad(p, "is neither a dim letter nor the start of a block size");

    // Expand 'x' to the dims the tag does not name, in logical order.
    int order[max_ndims];
    bool is_blocked[max_ndims] = {};
    int n = 0;
    for (int k = 0; k < nletters; ++k) {
        if (k == x_at) {
            for (int d = 0; d < ndims; ++d)
                if (!used[d]) {
                    if (n >= max_ndims) break;
                    order[n++] = d;
                }
            continue;
        }
        if (n >= max_ndims) return bad(0, "names more dims than the tensor has");
        is_blocked[letters[k]] = blocked[k];
        order[n++] = letters[k];
    }
    if (n != ndims)
        return failf(status_t::invalid_arguments,
                "format tag \"%s\" describes %d dims but the tensor has %d", tag_in.c_str(), n,
                ndims);

    // Inner blocks: <number><lower-case letter>, outermost first.
    out.ndims = ndims;
    out.inner_nblks = 0;
    bool has_block[max_ndims] = {};
    while (p < tag.size()) {
        const size_t start = p;
        dim_t blk = 0;
        while (p < tag.size() && std::isdigit(static_cast<unsigned char>(tag[p]))) {
            blk = blk * 10 + (tag[p] - '0');
            if (blk > (dim_t(1) << 30)) return bad(start, "starts a block that is too large");
            ++p;
        }
        if (p == start) return bad(p, "should be a block size (digits)");
        if (p >= tag.size()) return bad(p - 1, "ends a block size with no dim letter");
        const char c = tag[p];
        if (c < 'a' || c > 'l')
            return bad(p, "should be a lower-case dim letter after a block size");
        const int d = c - 'a';
        if (d >= ndims) return bad(p, "names a block on a dim the tensor does not have");
        if (!is_blocked[d])
            return bad(p, "blocks a dim whose letter is lower-case in the outer part");
        if (blk < 1) return bad(start, "starts a block of size 0");
        if (out.inner_nblks >= max_ndims) return bad(p, "adds too many blocks");
        out.inner_blks[out.inner_nblks] = blk;
        out.inner_idxs[out.inner_nblks] = d;
        ++out.inner_nblks;
        has_block[d] = true;
        ++p;
    }
    for (int d = 0; d < ndims; ++d)
        if (is_blocked[d] && !has_block[d])
            return failf(status_t::invalid_arguments,
                    "format tag \"%s\": dim '%c' is upper-case but has no inner block",
                    tag_in.c_str(), char('A' + d));
    for (int k = 0; k < ndims; ++k)
        out.outer_order[k] = order[k];
    return status_t::success;
}

status_t md_init_by_tag(
        memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt, const std::string &tag) {
    if (tag == "any") return md_init_any(md, ndims, dims, dt);
    parsed_tag_t pt;
    RL_CHECK(parse_tag(tag, ndims, pt));
    return md_init_by_order(
            md, ndims, dims, dt, pt.outer_order, pt.inner_nblks, pt.inner_blks, pt.inner_idxs);
}

status_t md_init_by_tag(
        memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt, format_tag_t tag) {
    if (tag == relayout_format_tag_any) return md_init_any(md, ndims, dims, dt);
    const char *s = fmt_tag2str(tag);
    if (!s) return failf(status_t::invalid_arguments, "format tag %d is not a known tag", (int)tag);
    return md_init_by_tag(md, ndims, dims, dt, std::string(s));
}

} // namespace impl
} // namespace relayout
