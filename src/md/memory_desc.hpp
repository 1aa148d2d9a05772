// The memory descriptor (DESIGN §2.1) and its operations (§2.3, §2.4).
#ifndef RELAYOUT_MD_MEMORY_DESC_HPP
#define RELAYOUT_MD_MEMORY_DESC_HPP

#include <string>

#include "common/status.hpp"
#include "common/utils.hpp"
#include "md/data_type.hpp"

namespace relayout {
namespace impl {

using format_kind_t = relayout_format_kind_t;

// Outer strides (between blocks, elements) and the inner blocks, listed
// outermost to innermost. Inner blocks are always dense.
struct blocking_desc_t {
    dims_t strides;
    int inner_nblks;
    dims_t inner_blks;
    dims_t inner_idxs;
};

// int8 weights compensation and scale adjustment.
struct extra_desc_t {
    uint64_t flags;
    int compensation_mask;
    int asymm_compensation_mask;
    float scale_adjust;
};

// Descriptor of an engine-specific format kind (image2d, npu_local): the
// owning part (src/ocl, src/npu) writes its POD here and precomputes the
// size; md/ only copies and compares the bytes (which must be
// zero-initialised before the POD is written).
struct kind_payload_t {
    uint64_t size_bytes;
    alignas(8) unsigned char bytes[256];
};

struct memory_desc_t {
    int ndims;
    dims_t dims;
    data_type_t data_type;
    dims_t padded_dims;
    dims_t padded_offsets;
    dim_t offset0; // elements
    format_kind_t format_kind;
    blocking_desc_t blocking;
    extra_desc_t extra;
    kind_payload_t payload; // format_kind image2d and npu_local only
};

// A zero descriptor (ndims 0, undef everything).
memory_desc_t zero_md();
bool is_zero_md(const memory_desc_t &md);
// True if some dim is 0 (a legal zero-volume tensor).
bool has_zero_dim(const memory_desc_t &md);

// Construction. Each validates its inputs and names the bad one.
status_t md_init_by_strides(
        memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt, const dim_t *strides);
status_t md_init_by_blocking(memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt,
        const dim_t *strides, int inner_nblks, const dim_t *inner_blks, const dim_t *inner_idxs);
// Dense strides for a blocked layout whose outer dims appear in
// `outer_order` (outermost first). Used by tags.
status_t md_init_by_order(memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt,
        const int *outer_order, int inner_nblks, const dim_t *inner_blks, const dim_t *inner_idxs);
// format_kind any: the library picks the layout later.
status_t md_init_any(memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt);

// Product of the inner blocks of each dim.
void md_compute_blocks(const memory_desc_t &md, dim_t *blocks);

// Element offset of a logical point (DESIGN §2.1 formula), offset0 included.
dim_t md_off_l(const memory_desc_t &md, const dim_t *pos);

// Bytes of the data part (no compensation), and of the whole buffer.
size_t md_data_size(const memory_desc_t &md);
size_t md_size(const memory_desc_t &md);
// Number of int32 entries of each compensation buffer (0 if absent) and the
// byte offset at which the compensation buffers start.
dim_t md_compensation_count(const memory_desc_t &md, int mask);
size_t md_compensation_offset(const memory_desc_t &md);

bool md_has_padding(const memory_desc_t &md);
bool md_equal(const memory_desc_t &a, const memory_desc_t &b);

// Descriptor operations.
status_t md_submemory(
        memory_desc_t &out, const memory_desc_t &parent, const dim_t *dims, const dim_t *offsets);
status_t md_reshape(memory_desc_t &out, const memory_desc_t &in, int ndims, const dim_t *dims);
status_t md_permute_axes(memory_desc_t &out, const memory_desc_t &in, const int *perm);
status_t md_set_extra(
        memory_desc_t &md, uint64_t flags, int comp_mask, int asymm_mask, float scale_adjust);

// Checks a descriptor that came from outside (C API): fields consistent.
status_t md_validate(const memory_desc_t &md, const char *what);

// "f32:aBcd16b:2x17x5x3" when a tag matches, else strides/blocks spelled out.
std::string md2str(const memory_desc_t &md);
// The string tag of a blocked descriptor with dense strides, or "" if its
// strides are not those of any tag.
std::string md2tag(const memory_desc_t &md);

} // namespace impl
} // namespace relayout

#endif
