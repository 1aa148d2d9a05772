#include "md/memory_desc.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace relayout {
namespace impl {

namespace {

constexpr uint64_t known_extra_flags = relayout_extra_flag_compensation_conv_s8s8
                                       | relayout_extra_flag_scale_adjust
                                       | relayout_extra_flag_compensation_conv_asymmetric_src;

status_t check_dims(int ndims, const dim_t *dims, data_type_t dt) {
    if (ndims < 1 || ndims > max_ndims)
        return failf(status_t::invalid_arguments, "ndims is %d; it must be in [1, %d]", ndims,
                max_ndims);
    if (!dims) return fail(status_t::invalid_arguments, "dims is NULL");
    for (int d = 0; d < ndims; ++d)
        if (dims[d] < 0)
            return failf(status_t::invalid_arguments, "dims[%d] is %lld; dims must not be negative",
                    d, (long long)dims[d]);
    dim_t volume = 1;
    for (int d = 0; d < ndims; ++d)
        if (!mul_no_overflow(volume, std::max<dim_t>(dims[d], 1), volume))
            return fail(status_t::invalid_arguments,
                    "dims " + dims2str(dims, ndims) + " overflow 64 bits");
    if (!is_valid_data_type(dt))
        return failf(status_t::invalid_arguments, "data_type %d is not a valid data type", (int)dt);
    return status_t::success;
}

void init_common(memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt) {
    md = zero_md();
    md.ndims = ndims;
    md.data_type = dt;
    md.format_kind = relayout_blocked;
    for (int d = 0; d < ndims; ++d) {
        md.dims[d] = dims[d];
        md.padded_dims[d] = dims[d];
    }
    md.extra.scale_adjust = 1.f;
}

// Strides must not make two elements share an address. Dims of one outer
// index and broadcast (0-stride) dims are ignored; the rest, sorted by
// stride, must each step past everything the dims inside it can reach:
// stride_k > sum_{j<k} (count_j - 1) * stride_j + (inner block - 1). Then
// every element has a unique offset (like digits of a mixed radix), which
// also admits interleaved views such as numpy's x[:, ::2] (3x3, strides
// 5, 2).
status_t check_no_overlap(const memory_desc_t &md) {
    const auto &bd = md.blocking;
    dim_t blocks[max_ndims];
    md_compute_blocks(md, blocks);
    dim_t inner = 1;
    for (int i = 0; i < bd.inner_nblks; ++i)
        inner *= bd.inner_blks[i];
    struct item_t {
        dim_t stride, count;
        int d;
    };
    item_t items[max_ndims];
    int n = 0;
    for (int d = 0; d < md.ndims; ++d) {
        const dim_t count = md.padded_dims[d] / blocks[d];
        if (count <= 1 || bd.strides[d] == 0) continue;
        items[n++] = { bd.strides[d], count, d };
    }
    // Insertion sort by stride (at most 12 items).
    for (int i = 1; i < n; ++i)
        for (int k = i; k > 0 && items[k].stride < items[k - 1].stride; --k)
            std::swap(items[k], items[k - 1]);
    dim_t reach = inner; // one past the largest offset of the dims so far
    for (int i = 0; i < n; ++i) {
        if (items[i].stride < reach)
            return failf(status_t::invalid_arguments,
                    "strides[%d] = %lld overlaps the elements of the dims inside it "
                    "(which reach offset %lld)",
                    items[i].d, (long long)items[i].stride, (long long)(reach - 1));
        // The reach, and the size formula's count * stride in bytes, must
        // both fit in 64 bits.
        dim_t step, ext;
        if (!mul_no_overflow(items[i].stride, items[i].count - 1, step)
                || __builtin_add_overflow(reach, step, &reach)
                || !mul_no_overflow(items[i].stride, items[i].count, ext)
                || !mul_no_overflow(ext, 16, ext))
            return fail(status_t::invalid_arguments, "strides overflow 64 bits");
    }
    return status_t::success;
}

} // namespace

memory_desc_t zero_md() {
    memory_desc_t md;
    std::memset(&md, 0, sizeof(md));
    md.data_type = relayout_data_type_undef;
    md.format_kind = relayout_format_kind_undef;
    md.extra.scale_adjust = 1.f;
    return md;
}

bool is_zero_md(const memory_desc_t &md) {
    return md.ndims == 0;
}

bool has_zero_dim(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] == 0) return true;
    return false;
}

void md_compute_blocks(const memory_desc_t &md, dim_t *blocks) {
    for (int d = 0; d < max_ndims; ++d)
        blocks[d] = 1;
    if (md.format_kind != relayout_blocked) return;
    const auto &bd = md.blocking;
    for (int i = 0; i < bd.inner_nblks; ++i)
        blocks[bd.inner_idxs[i]] *= bd.inner_blks[i];
}

status_t md_init_by_strides(
        memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt, const dim_t *strides) {
    RL_CHECK(check_dims(ndims, dims, dt));
    memory_desc_t r;
    init_common(r, ndims, dims, dt);
    if (strides) {
        for (int d = 0; d < ndims; ++d) {
            if (strides[d] < 0)
                return failf(status_t::invalid_arguments,
                        "strides[%d] is %lld; strides must not be negative", d,
                        (long long)strides[d]);
            r.blocking.strides[d] = strides[d];
        }
    } else {
        dim_t s = 1;
        for (int d = ndims - 1; d >= 0; --d) {
            r.blocking.strides[d] = s;
            s *= std::max<dim_t>(dims[d], 1);
        }
    }
    RL_CHECK(check_no_overlap(r));
    md = r;
    return status_t::success;
}

status_t md_init_by_blocking(memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt,
        const dim_t *strides, int inner_nblks, const dim_t *inner_blks, const dim_t *inner_idxs) {
    RL_CHECK(check_dims(ndims, dims, dt));
    if (inner_nblks < 0 || inner_nblks > max_ndims)
        return failf(status_t::invalid_arguments, "inner_nblks is %d; it must be in [0, %d]",
                inner_nblks, max_ndims);
    if (!strides) return fail(status_t::invalid_arguments, "strides is NULL");
    if (inner_nblks > 0 && (!inner_blks || !inner_idxs))
        return fail(status_t::invalid_arguments, "inner_blks or inner_idxs is NULL");
    memory_desc_t r;
    init_common(r, ndims, dims, dt);
    auto &bd = r.blocking;
    bd.inner_nblks = inner_nblks;
    dim_t inner = 1;
    for (int i = 0; i < inner_nblks; ++i) {
        if (inner_blks[i] < 1)
            return failf(status_t::invalid_arguments,
                    "inner_blks[%d] is %lld; blocks must be positive", i, (long long)inner_blks[i]);
        if (inner_idxs[i] < 0 || inner_idxs[i] >= ndims)
            return failf(status_t::invalid_arguments,
                    "inner_idxs[%d] is %lld; it must name a dim in [0, %d)", i,
                    (long long)inner_idxs[i], ndims);
        bd.inner_blks[i] = inner_blks[i];
        bd.inner_idxs[i] = inner_idxs[i];
        if (!mul_no_overflow(inner, inner_blks[i], inner))
            return fail(status_t::invalid_arguments, "inner blocks overflow 64 bits");
    }
    dim_t blocks[max_ndims];
    md_compute_blocks(r, blocks);
    for (int d = 0; d < ndims; ++d) {
        r.padded_dims[d] = round_up(dims[d], blocks[d]);
        if (strides[d] < 0)
            return failf(status_t::invalid_arguments,
                    "strides[%d] is %lld; strides must not be negative", d, (long long)strides[d]);
        bd.strides[d] = strides[d];
    }
    RL_CHECK(check_no_overlap(r));
    md = r;
    return status_t::success;
}

status_t md_init_by_order(memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt,
        const int *outer_order, int inner_nblks, const dim_t *inner_blks, const dim_t *inner_idxs) {
    RL_CHECK(check_dims(ndims, dims, dt));
    dim_t blocks[max_ndims];
    for (int d = 0; d < max_ndims; ++d)
        blocks[d] = 1;
    dim_t inner = 1;
    for (int i = 0; i < inner_nblks; ++i) {
        if (inner_blks[i] < 1)
            return failf(status_t::invalid_arguments,
                    "inner block %d is %lld; blocks must be positive", i, (long long)inner_blks[i]);
        blocks[inner_idxs[i]] *= inner_blks[i];
        if (!mul_no_overflow(inner, inner_blks[i], inner))
            return fail(status_t::invalid_arguments, "inner blocks overflow 64 bits");
    }
    // Innermost outer dim gets the product of the inner blocks; each next
    // outer dim multiplies by the previous one's outer extent.
    dim_t strides[max_ndims];
    dim_t s = inner;
    for (int k = ndims - 1; k >= 0; --k) {
        const int d = outer_order[k];
        strides[d] = s;
        const dim_t outer = std::max<dim_t>(div_up(dims[d], blocks[d]), 1);
        if (!mul_no_overflow(s, outer, s))
            return fail(status_t::invalid_arguments,
                    "dims " + dims2str(dims, ndims) + " overflow 64 bits when padded");
    }
    return md_init_by_blocking(md, ndims, dims, dt, strides, inner_nblks, inner_blks, inner_idxs);
}

status_t md_init_any(memory_desc_t &md, int ndims, const dim_t *dims, data_type_t dt) {
    RL_CHECK(check_dims(ndims, dims, dt));
    init_common(md, ndims, dims, dt);
    md.format_kind = relayout_format_kind_any;
    return status_t::success;
}

dim_t md_off_l(const memory_desc_t &md, const dim_t *pos) {
    const auto &bd = md.blocking;
    dim_t p[max_ndims];
    for (int d = 0; d < md.ndims; ++d)
        p[d] = pos[d] + md.padded_offsets[d];
    dim_t off = 0, blk_stride = 1;
    for (int i = bd.inner_nblks - 1; i >= 0; --i) {
        const int d = static_cast<int>(bd.inner_idxs[i]);
        const dim_t blk = bd.inner_blks[i];
        off += (p[d] % blk) * blk_stride;
        p[d] /= blk;
        blk_stride *= blk;
    }
    off += md.offset0;
    for (int d = 0; d < md.ndims; ++d)
        off += p[d] * bd.strides[d];
    return off;
}

size_t md_data_size(const memory_desc_t &md) {
    if (md.ndims == 0 || has_zero_dim(md)) return 0;
    if (md.format_kind == relayout_format_kind_image2d
            || md.format_kind == relayout_format_kind_npu_local)
        return md.payload.size_bytes;
    if (md.format_kind != relayout_blocked) return 0;
    const auto &bd = md.blocking;
    dim_t blocks[max_ndims];
    md_compute_blocks(md, blocks);
    dim_t max_size = 0;
    for (int d = 0; d < md.ndims; ++d) {
        const dim_t outer = md.padded_dims[d] / blocks[d];
        const dim_t eff_stride = outer == 1 ? 1 : bd.strides[d];
        max_size = std::max(max_size, outer * eff_stride);
    }
    // A single outer block (or all-broadcast strides) still holds the whole
    // inner block.
    dim_t inner = 1;
    for (int i = 0; i < bd.inner_nblks; ++i)
        inner *= bd.inner_blks[i];
    if (max_size < inner) max_size = inner;
    if (md.offset0 == 0) return size_t(max_size) * data_type_size(md.data_type);
    // A view (submemory) starts offset0 elements into its parent's buffer:
    // its size runs from the handle to one past its last element, so that
    // [handle, handle + size) covers exactly what the view can touch.
    dim_t last = md.offset0 + inner;
    for (int d = 0; d < md.ndims; ++d)
        last += (md.padded_dims[d] / blocks[d] - 1) * bd.strides[d];
    return size_t(last) * data_type_size(md.data_type);
}

dim_t md_compensation_count(const memory_desc_t &md, int mask) {
    dim_t n = 1;
    for (int d = 0; d < md.ndims; ++d)
        if (mask & (1 << d)) n *= md.padded_dims[d];
    return n;
}

size_t md_compensation_offset(const memory_desc_t &md) {
    return round_up<size_t>(md_data_size(md), 4);
}

size_t md_size(const memory_desc_t &md) {
    const size_t data = md_data_size(md);
    if (data == 0) return 0;
    const uint64_t f = md.extra.flags;
    const bool s8s8 = f & relayout_extra_flag_compensation_conv_s8s8;
    const bool zp = f & relayout_extra_flag_compensation_conv_asymmetric_src;
    if (!s8s8 && !zp) return data;
    size_t extra = 0;
    if (s8s8) extra += sizeof(int32_t) * md_compensation_count(md, md.extra.compensation_mask);
    if (zp) extra += sizeof(int32_t) * md_compensation_count(md, md.extra.asymm_compensation_mask);
    return md_compensation_offset(md) + extra;
}

bool md_has_padding(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d]) return true;
    return false;
}

bool md_equal(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims == 0 || b.ndims == 0) return a.ndims == b.ndims;
    if (a.ndims != b.ndims || a.data_type != b.data_type || a.format_kind != b.format_kind
            || a.offset0 != b.offset0)
        return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] != b.dims[d] || a.padded_dims[d] != b.padded_dims[d]
                || a.padded_offsets[d] != b.padded_offsets[d])
            return false;
    if (a.format_kind == relayout_format_kind_image2d
            || a.format_kind == relayout_format_kind_npu_local)
        return a.payload.size_bytes == b.payload.size_bytes
               && std::memcmp(a.payload.bytes, b.payload.bytes, sizeof(a.payload.bytes)) == 0;
    if (a.format_kind == relayout_blocked) {
        const auto &x = a.blocking, &y = b.blocking;
        if (x.inner_nblks != y.inner_nblks) return false;
        for (int i = 0; i < x.inner_nblks; ++i)
            if (x.inner_blks[i] != y.inner_blks[i] || x.inner_idxs[i] != y.inner_idxs[i])
                return false;
        dim_t blocks[max_ndims];
        md_compute_blocks(a, blocks);
        for (int d = 0; d < a.ndims; ++d) {
            // The stride of a dim with a single outer index is never used.
            if (a.padded_dims[d] / blocks[d] == 1) continue;
            if (x.strides[d] != y.strides[d]) return false;
        }
    }
    return a.extra.flags == b.extra.flags && a.extra.compensation_mask == b.extra.compensation_mask
           && a.extra.asymm_compensation_mask == b.extra.asymm_compensation_mask
           && a.extra.scale_adjust == b.extra.scale_adjust;
}

status_t md_submemory(
        memory_desc_t &out, const memory_desc_t &parent, const dim_t *dims, const dim_t *offsets) {
    if (parent.ndims == 0)
        return fail(status_t::invalid_arguments, "submemory_desc: parent is a zero descriptor");
    if (parent.format_kind != relayout_blocked)
        return fail(
                status_t::invalid_arguments, "submemory_desc: parent must have a blocked layout");
    if (!dims || !offsets)
        return fail(status_t::invalid_arguments, "submemory_desc: dims or offsets is NULL");
    if (parent.extra.flags != 0)
        return fail(status_t::invalid_arguments,
                "submemory_desc: parent has compensation (extra flags); a view "
                "of it has no compensation buffer of its own");
    dim_t blocks[max_ndims];
    md_compute_blocks(parent, blocks);
    memory_desc_t r = parent;
    dim_t pos[max_ndims];
    for (int d = 0; d < parent.ndims; ++d) {
        if (dims[d] < 0 || offsets[d] < 0 || offsets[d] + dims[d] > parent.dims[d])
            return failf(status_t::invalid_arguments,
                    "submemory_desc: dims[%d] = %lld at offsets[%d] = %lld does "
                    "not fit in the parent's %lld",
                    d, (long long)dims[d], d, (long long)offsets[d], (long long)parent.dims[d]);
        if (offsets[d] % blocks[d] != 0)
            return failf(status_t::invalid_arguments,
                    "submemory_desc: offsets[%d] = %lld is not a multiple of the "
                    "block %lld of that dim",
                    d, (long long)offsets[d], (long long)blocks[d]);
        if (dims[d] % blocks[d] != 0 && offsets[d] + dims[d] != parent.dims[d])
            return failf(status_t::invalid_arguments,
                    "submemory_desc: dims[%d] = %lld is not a multiple of the "
                    "block %lld and does not end at the parent's tail",
                    d, (long long)dims[d], (long long)blocks[d]);
        r.dims[d] = dims[d];
        r.padded_dims[d] = round_up(dims[d], blocks[d]);
        pos[d] = offsets[d];
    }
    // The region starts where the parent keeps logical point `offsets`.
    r.offset0 = md_off_l(parent, pos);
    out = r;
    return status_t::success;
}

status_t md_reshape(memory_desc_t &out, const memory_desc_t &in, int ndims, const dim_t *dims) {
    if (in.ndims == 0) return fail(status_t::invalid_arguments, "reshape: zero descriptor");
    if (in.format_kind != relayout_blocked)
        return fail(status_t::invalid_arguments, "reshape: the layout must be blocked");
    if (in.extra.flags != 0)
        return fail(status_t::invalid_arguments,
                "reshape: descriptors with compensation cannot be reshaped");
    RL_CHECK(check_dims(ndims, dims, in.data_type));
    dim_t vin = 1, vout = 1;
    for (int d = 0; d < in.ndims; ++d)
        vin *= in.dims[d];
    for (int d = 0; d < ndims; ++d)
        vout *= dims[d];
    if (vin != vout)
        return fail(status_t::invalid_arguments, "reshape: dims " + dims2str(dims, ndims)
                                                         + " have another volume than "
                                                         + dims2str(in.dims, in.ndims));
    if (vin == 0) {
        bool same = ndims == in.ndims;
        for (int d = 0; same && d < ndims; ++d)
            same = dims[d] == in.dims[d];
        if (!same)
            return fail(status_t::unimplemented,
                    "reshape: zero-volume descriptors can only be reshaped to themselves");
        out = in;
        return status_t::success;
    }

    dim_t blocks[max_ndims];
    md_compute_blocks(in, blocks);
    const auto &ib = in.blocking;
    memory_desc_t r = in;
    r.ndims = ndims;
    int old_to_new[max_ndims];
    for (int d = 0; d < max_ndims; ++d)
        old_to_new[d] = -1;

    int i = 0, j = 0;
    while (i < in.ndims || j < ndims) {
        const bool old_one = i < in.ndims && in.dims[i] == 1 && in.padded_dims[i] == 1;
        const bool new_one = j < ndims && dims[j] == 1;
        if (i < in.ndims && j < ndims && in.dims[i] == dims[j]) {
            // Same size: the dim moves as is, blocks and padding included.
            r.dims[j] = in.dims[i];
            r.padded_dims[j] = in.padded_dims[i];
            r.padded_offsets[j] = in.padded_offsets[i];
            r.blocking.strides[j] = ib.strides[i];
            old_to_new[i] = j;
            ++i;
            ++j;
            continue;
        }
        if (old_one) { // remove a size-1 dim
            ++i;
            continue;
        }
        if (new_one) { // add a size-1 dim; its stride is never used
            r.dims[j] = r.padded_dims[j] = 1;
            r.padded_offsets[j] = 0;
            r.blocking.strides[j] = 1;
            ++j;
            continue;
        }
        if (i >= in.ndims || j >= ndims)
            return fail(status_t::invalid_arguments, "reshape: dims do not match");
        // Split or join: a group of old dims and new dims of equal volume.
        int i1 = i, j1 = j;
        dim_t po = in.dims[i1++], pn = dims[j1++];
        while (po != pn) {
            if (po < pn) {
                if (i1 >= in.ndims) break;
                po *= in.dims[i1++];
            } else {
                if (j1 >= ndims) break;
                pn *= dims[j1++];
            }
        }
        if (po != pn)
            return fail(status_t::invalid_arguments,
                    "reshape: dims " + dims2str(dims, ndims)
                            + " cannot be formed by splitting or joining "
                            + dims2str(in.dims, in.ndims));
        // The old group must be dense, in order, unblocked and unpadded.
        for (int k = i; k < i1; ++k) {
            if (blocks[k] != 1 || in.padded_dims[k] != in.dims[k] || in.padded_offsets[k] != 0)
                return failf(status_t::invalid_arguments,
                        "reshape: dim %d is blocked or padded and cannot be split "
                        "or joined",
                        k);
            if (k + 1 < i1 && in.dims[k + 1] != 1 && in.dims[k] != 1
                    && ib.strides[k] != ib.strides[k + 1] * in.dims[k + 1])
                return failf(status_t::invalid_arguments,
                        "reshape: dims %d and %d are not dense in order (strides "
                        "%lld, %lld) and cannot be joined",
                        k, k + 1, (long long)ib.strides[k], (long long)ib.strides[k + 1]);
        }
        // Innermost non-1 old dim gives the base stride.
        dim_t s = 1;
        for (int k = i1 - 1; k >= i; --k)
            if (in.dims[k] != 1) {
                s = ib.strides[k];
                break;
            }
        for (int k = j1 - 1; k >= j; --k) {
            r.dims[k] = r.padded_dims[k] = dims[k];
            r.padded_offsets[k] = 0;
            r.blocking.strides[k] = s;
            s *= dims[k];
        }
        i = i1;
        j = j1;
    }
    for (int d = ndims; d < max_ndims; ++d) {
        r.dims[d] = r.padded_dims[d] = r.padded_offsets[d] = 0;
        r.blocking.strides[d] = 0;
    }
    for (int b = 0; b < ib.inner_nblks; ++b) {
        const int nd = old_to_new[ib.inner_idxs[b]];
        if (nd < 0)
            return failf(status_t::invalid_arguments,
                    "reshape: blocked dim %d cannot be split, joined or removed",
                    (int)ib.inner_idxs[b]);
        r.blocking.inner_idxs[b] = nd;
    }
    out = r;
    return status_t::success;
}

status_t md_permute_axes(memory_desc_t &out, const memory_desc_t &in, const int *perm) {
    if (in.ndims == 0) return fail(status_t::invalid_arguments, "permute_axes: zero descriptor");
    if (!perm) return fail(status_t::invalid_arguments, "permute_axes: permutation is NULL");
    bool seen[max_ndims] = {};
    for (int d = 0; d < in.ndims; ++d) {
        if (perm[d] < 0 || perm[d] >= in.ndims || seen[perm[d]])
            return failf(status_t::invalid_arguments,
                    "permute_axes: permutation[%d] = %d is out of range or repeated", d, perm[d]);
        seen[perm[d]] = true;
    }
    memory_desc_t r = in;
    for (int d = 0; d < in.ndims; ++d) {
        r.dims[perm[d]] = in.dims[d];
        r.padded_dims[perm[d]] = in.padded_dims[d];
        r.padded_offsets[perm[d]] = in.padded_offsets[d];
        r.blocking.strides[perm[d]] = in.blocking.strides[d];
    }
    for (int b = 0; b < in.blocking.inner_nblks; ++b)
        r.blocking.inner_idxs[b] = perm[in.blocking.inner_idxs[b]];
    auto permute_mask = [&](int m) {
        int o = 0;
        for (int d = 0; d < in.ndims; ++d)
            if (m & (1 << d)) o |= 1 << perm[d];
        return o;
    };
    r.extra.compensation_mask = permute_mask(in.extra.compensation_mask);
    r.extra.asymm_compensation_mask = permute_mask(in.extra.asymm_compensation_mask);
    out = r;
    return status_t::success;
}

status_t md_set_extra(
        memory_desc_t &md, uint64_t flags, int comp_mask, int asymm_mask, float scale_adjust) {
    if (md.ndims == 0) return fail(status_t::invalid_arguments, "set_extra: zero descriptor");
    if (flags & ~known_extra_flags)
        return failf(status_t::invalid_arguments, "extra flags 0x%llx hold unknown bits",
                (unsigned long long)flags);
    const int all = (1 << md.ndims) - 1;
    const bool s8s8 = flags & relayout_extra_flag_compensation_conv_s8s8;
    const bool zp = flags & relayout_extra_flag_compensation_conv_asymmetric_src;
    if (s8s8 && (comp_mask <= 0 || (comp_mask & ~all)))
        return failf(status_t::invalid_arguments,
                "compensation_mask %d must name some of the %d dims", comp_mask, md.ndims);
    if (zp && (asymm_mask <= 0 || (asymm_mask & ~all)))
        return failf(status_t::invalid_arguments,
                "asymm_compensation_mask %d must name some of the %d dims", asymm_mask, md.ndims);
    if ((s8s8 || zp) && md.data_type != relayout_s8 && md.data_type != relayout_u8)
        return failf(status_t::invalid_arguments,
                "compensation needs an s8 or u8 descriptor, not %s", dt2str(md.data_type));
    if (s8s8 && md.data_type != relayout_s8)
        return fail(status_t::invalid_arguments, "s8s8 compensation needs an s8 descriptor");
    if (!(scale_adjust > 0.f) || !std::isfinite(scale_adjust))
        return fail(status_t::invalid_arguments, "scale_adjust must be positive and finite");
    md.extra.flags = flags;
    md.extra.compensation_mask = s8s8 ? comp_mask : 0;
    md.extra.asymm_compensation_mask = zp ? asymm_mask : 0;
    md.extra.scale_adjust = (flags & relayout_extra_flag_scale_adjust) ? scale_adjust : 1.f;
    return status_t::success;
}

status_t md_validate(const memory_desc_t &md, const char *what) {
    if (md.ndims == 0) return status_t::success;
    if (md.ndims < 0 || md.ndims > max_ndims)
        return failf(status_t::invalid_arguments, "%s: ndims %d is out of range", what, md.ndims);
    if (md.format_kind == relayout_blocked || md.format_kind == relayout_format_kind_any
            || md.format_kind == relayout_format_kind_image2d
            || md.format_kind == relayout_format_kind_npu_local)
        return status_t::success;
    return failf(status_t::unimplemented, "%s: format kind %d is not supported here", what,
            (int)md.format_kind);
}

std::string md2tag(const memory_desc_t &md) {
    if (md.format_kind != relayout_blocked || md.ndims == 0) return "";
    const auto &bd = md.blocking;
    dim_t blocks[max_ndims];
    md_compute_blocks(md, blocks);
    // Outer order: by decreasing stride; ties resolved by logical order.
    int order[max_ndims];
    std::iota(order, order + md.ndims, 0);
    std::stable_sort(
            order, order + md.ndims, [&](int a, int b) { return bd.strides[a] > bd.strides[b]; });
    // Rebuild from the order and compare: only dense tag layouts match.
    memory_desc_t ref;
    if (md_init_by_order(ref, md.ndims, md.dims, md.data_type, order, bd.inner_nblks, bd.inner_blks,
                bd.inner_idxs)
            != status_t::success)
        return "";
    ref.offset0 = md.offset0;
    ref.extra = md.extra;
    for (int d = 0; d < md.ndims; ++d)
        ref.padded_offsets[d] = md.padded_offsets[d];
    if (!md_equal(ref, md)) return "";
    std::string s;
    for (int k = 0; k < md.ndims; ++k) {
        const int d = order[k];
        s += char((blocks[d] > 1 ? 'A' : 'a') + d);
    }
    for (int i = 0; i < bd.inner_nblks; ++i)
        s += std::to_string(bd.inner_blks[i]) + char('a' + bd.inner_idxs[i]);
    return s;
}

std::string md2str(const memory_desc_t &md) {
    if (md.ndims == 0) return "undef";
    std::string s = dt2str(md.data_type);
    s += ':';
    if (md.format_kind == relayout_format_kind_any) {
        s += "any";
    } else if (md.format_kind == relayout_format_kind_image2d) {
        s += "image2d";
    } else if (md.format_kind == relayout_format_kind_npu_local) {
        s += "npu_local";
    } else if (md.format_kind != relayout_blocked) {
        s += "kind" + std::to_string((int)md.format_kind);
    } else {
        std::string tag = md2tag(md);
        if (!tag.empty()) {
            s += tag;
        } else {
            s += "strides";
            for (int d = 0; d < md.ndims; ++d)
                s += (d ? "x" : "=") + std::to_string(md.blocking.strides[d]);
            for (int i = 0; i < md.blocking.inner_nblks; ++i)
                s += (i ? "" : ",blk=") + std::to_string(md.blocking.inner_blks[i])
                     + char('a' + md.blocking.inner_idxs[i]);
        }
    }
    s += ':' + dims2str(md.dims, md.ndims);
    if (md.offset0) s += ":off" + std::to_string(md.offset0);
    if (md.extra.flags) {
        s += ":extra";
        if (md.extra.flags & relayout_extra_flag_compensation_conv_s8s8)
            s += "+s8s8_comp" + std::to_string(md.extra.compensation_mask);
        if (md.extra.flags & relayout_extra_flag_compensation_conv_asymmetric_src)
            s += "+zp_comp" + std::to_string(md.extra.asymm_compensation_mask);
        if (md.extra.flags & relayout_extra_flag_scale_adjust)
            s += "+adj" + std::to_string(md.extra.scale_adjust);
    }
    return s;
}

} // namespace impl
} // namespace relayout
