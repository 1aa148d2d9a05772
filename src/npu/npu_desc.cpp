#include "npu/npu_desc.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "npu/npu_utils.hpp"

namespace relayout {
namespace impl {
namespace npu {

namespace {

constexpr int64_t k_max_dim = std::numeric_limits<int32_t>::max();
constexpr int64_t k_max_stride = int64_t(1) << 40;
constexpr int64_t k_max_sys_offset = int64_t(1) << 50;
constexpr int64_t k_max_exact_scan = int64_t(1) << 27;
constexpr const char *k_dim_names[4] = { "N", "C", "H", "W" };

bool layout_ok(npu_layout_t l) {
    return l >= npu_layout_t::aligned && l <= npu_layout_t::free_strides;
}
bool storage_ok(npu_storage_t s) {
    return s >= npu_storage_t::mode_1n && s <= npu_storage_t::mode_2ic;
}

status_t check_dims(const int64_t dims[4], const char *what) {
    for (int i = 0; i < 4; ++i)
        if (dims[i] < 0 || dims[i] > k_max_dim)
            return failf(status_t::invalid_arguments,
                    "%s: dims[%d] (%s) = %lld is out of range [0, %lld]", what, i, k_dim_names[i],
                    (long long)dims[i], (long long)k_max_dim);
    return status_t::success;
}

status_t check_strides(const int64_t strides[4], const char *what) {
    for (int i = 0; i < 4; ++i)
        if (strides[i] < 0 || strides[i] > k_max_stride)
            return failf(status_t::invalid_arguments,
                    "%s: strides[%d] (%s stride) = %lld is out of range "
                    "[0, 2^40]",
                    what, i, k_dim_names[i], (long long)strides[i]);
    return status_t::success;
}

// Extent in elements of a box: sum (n-1)*s + 1; 0 when empty.
int64_t box_extent(int ndims, const int64_t n[], const int64_t s[]) {
    int64_t e = 1;
    for (int i = 0; i < ndims; ++i) {
        if (n[i] == 0) return 0;
        e = sat_add(e, sat_mul(n[i] - 1, s[i]));
    }
    return e;
}

} // namespace

const char *layout_name(npu_layout_t l) {
    switch (l) {
        case npu_layout_t::aligned: return "aligned";
        case npu_layout_t::compact: return "compact";
        case npu_layout_t::line_aligned: return "line_aligned";
        case npu_layout_t::matrix: return "matrix";
        case npu_layout_t::free_strides: return "free_strides";
    }
    return "unknown";
}

const char *storage_name(npu_storage_t s) {
    switch (s) {
        case npu_storage_t::mode_1n: return "1N";
        case npu_storage_t::mode_4n: return "4N";
        case npu_storage_t::mode_2n: return "2N";
        case npu_storage_t::mode_2ic: return "2IC";
    }
    return "unknown";
}

npu_local_desc_t make_local_desc(int64_t addr, const int64_t dims[4], relayout_data_type_t dt,
        npu_layout_t layout, npu_storage_t storage) {
    npu_local_desc_t d{};
    d.addr = addr;
    std::copy(dims, dims + 4, d.dims);
    d.data_type = dt;
    d.layout = layout;
    d.storage = storage;
    return d;
}

npu_local_desc_t make_local_matrix(
        int64_t addr, int64_t rows, int64_t cols, int64_t matrix_w, relayout_data_type_t dt) {
    const int64_t dims[4] = { rows, cols, 1, 1 };
    npu_local_desc_t d = make_local_desc(addr, dims, dt, npu_layout_t::matrix);
    d.matrix_w = matrix_w;
    return d;
}

npu_local_desc_t make_local_free(int64_t addr, const int64_t dims[4], relayout_data_type_t dt,
        const int64_t strides[4], npu_storage_t storage) {
    npu_local_desc_t d = make_local_desc(addr, dims, dt, npu_layout_t::free_strides, storage);
    std::copy(strides, strides + 4, d.strides);
    return d;
}

int pack_factor(npu_storage_t s) {
    switch (s) {
        case npu_storage_t::mode_4n: return 4;
        case npu_storage_t::mode_2n:
        case npu_storage_t::mode_2ic: return 2;
        default: return 1;
    }
}

status_t check_storage(npu_storage_t s, relayout_data_type_t dt, const char *what) {
    if (!storage_ok(s))
        return failf(status_t::invalid_arguments,
                "%s: storage mode %d is not one of 1N, 4N, 2N, 2IC", what, (int)s);
    if (dt_size(dt) == 0)
        return failf(status_t::invalid_arguments, "%s: data_type %d is not a valid data type", what,
                (int)dt);
    bool ok = true;
    const char *need = "";
    switch (s) {
        case npu_storage_t::mode_4n:
            ok = dt == relayout_s8 || dt == relayout_u8;
            need = "s8 or u8";
            break;
        case npu_storage_t::mode_2n:
            ok = dt == relayout_s16 || dt == relayout_u16;
            need = "s16 or u16";
            break;
        case npu_storage_t::mode_2ic:
            ok = dt == relayout_f32;
            need = "f32 (conv weights)";
            break;
        default: break;
    }
    if (!ok)
        return failf(status_t::invalid_arguments, "%s: storage mode %s needs data_type %s, got %s",
                what, storage_name(s), need, dt_name(dt));
    return status_t::success;
}

bool boxes_disjoint(int ndims, const int64_t n_in[], const int64_t s_in[]) {
    std::vector<std::pair<int64_t, int64_t>> dims; // (stride, count)
    for (int i = 0; i < ndims; ++i) {
        if (n_in[i] == 0) return true;
        if (n_in[i] > 1) dims.emplace_back(s_in[i], n_in[i]);
    }
    std::sort(dims.begin(), dims.end());
    // Sorted test: each stride clears the extent of all smaller ones.
    int64_t extent = 1;
    bool sorted_ok = true;
    for (const auto &d : dims) {
        if (d.first < extent) sorted_ok = false;
        extent = sat_add(extent, sat_mul(d.second - 1, d.first));
    }
    if (sorted_ok) return true;
    int64_t count = 1;
    for (const auto &d : dims) {
        if (d.first == 0) return false;
        count = sat_mul(count, d.second);
    }
    if (count > extent) return false; // pigeonhole
    if (extent > k_max_exact_scan) return false;
    // Exact test: mark every position.
    std::vector<bool> seen((size_t)extent, false);
    std::vector<int64_t> idx(dims.size(), 0);
    for (;;) {
        int64_t pos = 0;
        for (size_t i = 0; i < dims.size(); ++i)
            pos += idx[i] * dims[i].first;
        if (seen[(size_t)pos]) return false;
        seen[(size_t)pos] = true;
        size_t i = 0;
        for (; i < dims.size(); ++i) {
            if (++idx[i] < dims[i].second) break;
            idx[i] = 0;
        }
        if (i == dims.size()) break;
    }
    return true;
}

// ---- local descriptor ----------------------------------------------------

int start_npu(const npu_config_t &cfg, const npu_local_desc_t &d) {
    return (int)(d.addr / cfg.lmem_bytes);
}
int64_t start_offset(const npu_config_t &cfg, const npu_local_desc_t &d) {
    return d.addr % cfg.lmem_bytes;
}
int scalar_bytes(const npu_local_desc_t &d) {
    return dt_size(d.data_type);
}
int elem_bytes(const npu_local_desc_t &d) {
    return dt_size(d.data_type) * pack_factor(d.storage);
}

void packed_dims(const npu_local_desc_t &d, int64_t out[4]) {
    if (d.layout == npu_layout_t::matrix) {
        const int64_t wm = d.matrix_w > 0 ? d.matrix_w : 1;
        out[0] = d.dims[0];
        out[1] = div_up(d.dims[1], wm);
        out[2] = 1;
        out[3] = d.dims[1] == 0 ? 0 : wm;
        return;
    }
    out[0] = div_up(d.dims[0], pack_factor(d.storage));
    out[1] = d.dims[1];
    out[2] = d.dims[2];
    out[3] = d.dims[3];
}

int64_t channels_per_npu(const npu_config_t &cfg, const npu_local_desc_t &d) {
    int64_t pd[4];
    packed_dims(d, pd);
    return div_up(start_npu(cfg, d) + pd[1], cfg.npu_num);
}

void local_strides(const npu_config_t &cfg, const npu_local_desc_t &d, int64_t out[4]) {
    if (d.layout == npu_layout_t::free_strides) {
        std::copy(d.strides, d.strides + 4, out);
        return;
    }
    int64_t pd[4];
    packed_dims(d, pd);
    const int64_t eb = elem_bytes(d);
    // Elements per alignment unit (at least 1: an 8-byte element with a
    // 4-byte unit is always aligned).
    const int64_t eu_elems = std::max<int64_t>(1, cfg.eu_bytes / eb);
    const int64_t hw = sat_mul(pd[2], pd[3]);
    int64_t hs = pd[3], cs = hw;
    switch (d.layout) {
        case npu_layout_t::aligned:
        case npu_layout_t::matrix: cs = round_up(hw, eu_elems); break;
        case npu_layout_t::line_aligned:
            hs = round_up(pd[3], eu_elems);
            cs = sat_mul(pd[2], hs);
            break;
        default: break;
    }
    out[3] = 1;
    out[2] = hs;
    out[1] = cs;
    out[0] = sat_mul(channels_per_npu(cfg, d), cs);
}

int64_t bytes_per_npu(const npu_config_t &cfg, const npu_local_desc_t &d) {
    int64_t pd[4], st[4];
    packed_dims(d, pd);
    local_strides(cfg, d, st);
    if (pd[0] == 0 || pd[1] == 0 || pd[2] == 0 || pd[3] == 0) return 0;
    if (d.layout != npu_layout_t::free_strides)
        return sat_mul(sat_mul(pd[0], st[0]), elem_bytes(d));
    const int64_t n[4] = { pd[0], channels_per_npu(cfg, d), pd[2], pd[3] };
    return sat_mul(box_extent(4, n, st), elem_bytes(d));
}

int64_t matrix_channel_cols(const npu_local_desc_t &d, int64_t c) {
    const int64_t wm = d.matrix_w;
    const int64_t full = d.dims[1] / wm;
    return c < full ? wm : d.dims[1] - wm * full;
}

status_t validate_local(const npu_config_t &cfg, const npu_local_desc_t &d) {
    const char *what = "npu local desc";
    if (!layout_ok(d.layout))
        return failf(status_t::invalid_arguments,
                "%s: layout %d is not one of aligned, compact, line_aligned, "
                "matrix, free_strides",
                what, (int)d.layout);
    RL_CHECK(check_storage(d.storage, d.data_type, what));
    RL_CHECK(check_dims(d.dims, what));
    const int64_t total = sat_mul(cfg.npu_num, cfg.lmem_bytes);
    if (d.addr < 0 || d.addr >= total)
        return failf(status_t::invalid_arguments,
                "%s: address %lld is outside local memory [0, %lld) "
                "(npu_num %d x lmem_bytes %lld)",
                what, (long long)d.addr, (long long)total, cfg.npu_num, (long long)cfg.lmem_bytes);
    if (d.layout == npu_layout_t::matrix) {
        if (d.storage != npu_storage_t::mode_1n)
            return failf(status_t::invalid_arguments,
                    "%s: the matrix layout takes storage mode 1N only, "
                    "got %s",
                    what, storage_name(d.storage));
        if (d.dims[2] != 1 || d.dims[3] != 1)
            return failf(status_t::invalid_arguments,
                    "%s: a matrix has dims {rows, cols, 1, 1}; got H = %lld, "
                    "W = %lld",
                    what, (long long)d.dims[2], (long long)d.dims[3]);
        const int64_t max_w = std::max<int64_t>(1, d.dims[1]);
        if (d.matrix_w < 1 || d.matrix_w > max_w)
            return failf(status_t::invalid_arguments,
                    "%s: matrix_w %lld is out of range [1, cols = %lld]", what,
                    (long long)d.matrix_w, (long long)d.dims[1]);
    }
    if (d.layout == npu_layout_t::free_strides) RL_CHECK(check_strides(d.strides, what));

    const int64_t r = start_offset(cfg, d);
    const int eb = elem_bytes(d);
    int64_t align = 1;
    const char *align_what = "";
    switch (d.layout) {
        case npu_layout_t::aligned:
        case npu_layout_t::line_aligned:
        case npu_layout_t::matrix:
            align = cfg.eu_bytes;
            align_what = "eu_bytes";
            break;
        case npu_layout_t::compact:
            align = 4;
            align_what = "4 bytes";
            break;
        case npu_layout_t::free_strides:
            align = std::min(eb, 4);
            align_what = "the element size (at most 4)";
            break;
    }
    if (r % align != 0)
        return failf(status_t::invalid_arguments,
                "%s: start offset %lld in NPU %d (address %lld) is not a "
                "multiple of %lld (%s), as the %s layout requires",
                what, (long long)r, start_npu(cfg, d), (long long)d.addr, (long long)align,
                align_what, layout_name(d.layout));
    if (local_is_zero_volume(d)) return status_t::success;

    if (d.layout == npu_layout_t::free_strides) {
        int64_t pd[4];
        packed_dims(d, pd);
        const int64_t n[4] = { pd[0], channels_per_npu(cfg, d), pd[2], pd[3] };
        if (!boxes_disjoint(4, n, d.strides))
            return failf(status_t::invalid_arguments,
                    "%s: free strides N=%lld C=%lld H=%lld W=%lld make "
                    "elements overlap (packed shape %lldx%lldx%lldx%lld, "
                    "%lld lane-rows of channels)",
                    what, (long long)d.strides[0], (long long)d.strides[1], (long long)d.strides[2],
                    (long long)d.strides[3], (long long)pd[0], (long long)pd[1], (long long)pd[2],
                    (long long)pd[3], (long long)n[1]);
    }
    const int64_t bytes = bytes_per_npu(cfg, d);
    if (sat_add(r, bytes) > cfg.lmem_bytes)
        return failf(status_t::invalid_arguments,
                "%s: tensor does not fit in the lane: start offset %lld + "
                "%lld bytes per NPU > lmem_bytes %lld",
                what, (long long)r, (long long)bytes, (long long)cfg.lmem_bytes);
    return status_t::success;
}

bool local_is_zero_volume(const npu_local_desc_t &d) {
    return d.dims[0] == 0 || d.dims[1] == 0 || d.dims[2] == 0 || d.dims[3] == 0;
}

status_t element_location(const npu_config_t &cfg, const npu_local_desc_t &d, int64_t n, int64_t c,
        int64_t h, int64_t w, int &npu, int64_t &byte_offset) {
    const int64_t idx[4] = { n, c, h, w };
    for (int i = 0; i < 4; ++i)
        if (idx[i] < 0 || idx[i] >= d.dims[i])
            return failf(status_t::invalid_arguments,
                    "npu local desc: element index %s = %lld is out of "
                    "range [0, %lld)",
                    k_dim_names[i], (long long)idx[i], (long long)d.dims[i]);
    int64_t pc = c, ph = h, pw = w;
    if (d.layout == npu_layout_t::matrix) {
        pc = c / d.matrix_w;
        ph = 0;
        pw = c % d.matrix_w;
    }
    const int k = pack_factor(d.storage);
    int64_t st[4];
    local_strides(cfg, d, st);
    const int64_t q = start_npu(cfg, d);
    const int64_t lane_row = (q + pc) / cfg.npu_num;
    npu = (int)((q + pc) % cfg.npu_num);
    byte_offset = start_offset(cfg, d)
                  + (lane_row * st[1] + (n / k) * st[0] + ph * st[2] + pw * st[3]) * elem_bytes(d)
                  + (n % k) * scalar_bytes(d);
    return status_t::success;
}

std::string local_desc_str(const npu_config_t &cfg, const npu_local_desc_t &d) {
    int64_t st[4];
    local_strides(cfg, d, st);
    char buf[320];
    int len = std::snprintf(buf, sizeof(buf),
            "npu_local:%s:%s:%s:A=%lld(npu%d+0x%llx):%lldx%lldx%lldx%lld:"
            "strides=%lld,%lld,%lld,%lld",
            layout_name(d.layout), storage_name(d.storage), dt_name(d.data_type), (long long)d.addr,
            start_npu(cfg, d), (long long)start_offset(cfg, d), (long long)d.dims[0],
            (long long)d.dims[1], (long long)d.dims[2], (long long)d.dims[3], (long long)st[0],
            (long long)st[1], (long long)st[2], (long long)st[3]);
    if (d.layout == npu_layout_t::matrix && len > 0 && len < (int)sizeof(buf))
        std::snprintf(buf + len, sizeof(buf) - len, ":w=%lld", (long long)d.matrix_w);
    return buf;
}

// ---- system descriptor ---------------------------------------------------

npu_sys_desc_t make_sys_continuous(
        const int64_t dims[4], relayout_data_type_t dt, npu_storage_t storage, int64_t offset) {
    npu_sys_desc_t d{};
    std::copy(dims, dims + 4, d.dims);
    d.data_type = dt;
    d.storage = storage;
    d.offset = offset;
    int64_t pd[4];
    sys_packed_dims(d, pd);
    d.strides[3] = 1;
    d.strides[2] = pd[3];
    d.strides[1] = sat_mul(pd[2], pd[3]);
    d.strides[0] = sat_mul(pd[1], d.strides[1]);
    return d;
}

npu_sys_desc_t make_sys_strided(const int64_t dims[4], relayout_data_type_t dt,
        const int64_t strides[4], npu_storage_t storage, int64_t offset) {
    npu_sys_desc_t d{};
    std::copy(dims, dims + 4, d.dims);
    std::copy(strides, strides + 4, d.strides);
    d.data_type = dt;
    d.storage = storage;
    d.offset = offset;
    return d;
}

int sys_scalar_bytes(const npu_sys_desc_t &d) {
    return dt_size(d.data_type);
}
int sys_elem_bytes(const npu_sys_desc_t &d) {
    return dt_size(d.data_type) * pack_factor(d.storage);
}

void sys_packed_dims(const npu_sys_desc_t &d, int64_t out[4]) {
    out[0] = div_up(d.dims[0], pack_factor(d.storage));
    out[1] = d.dims[1];
    out[2] = d.dims[2];
    out[3] = d.dims[3];
}

bool sys_is_zero_volume(const npu_sys_desc_t &d) {
    return d.dims[0] == 0 || d.dims[1] == 0 || d.dims[2] == 0 || d.dims[3] == 0;
}

status_t validate_sys(const npu_sys_desc_t &d, bool for_write) {
    const char *what = for_write ? "npu system desc (destination)" : "npu system desc (source)";
    RL_CHECK(check_storage(d.storage, d.data_type, what));
    RL_CHECK(check_dims(d.dims, what));
    RL_CHECK(check_strides(d.strides, what));
    if (d.offset < 0 || d.offset > k_max_sys_offset)
        return failf(status_t::invalid_arguments, "%s: offset %lld is out of range [0, 2^50]", what,
                (long long)d.offset);
    if (for_write && !sys_is_zero_volume(d)) {
        int64_t pd[4];
        sys_packed_dims(d, pd);
        if (!boxes_disjoint(4, pd, d.strides))
            return failf(status_t::invalid_arguments,
                    "%s: strides N=%lld C=%lld H=%lld W=%lld make elements "
                    "overlap",
                    what, (long long)d.strides[0], (long long)d.strides[1], (long long)d.strides[2],
                    (long long)d.strides[3]);
    }
    return status_t::success;
}

int64_t sys_element_offset(const npu_sys_desc_t &d, int64_t n, int64_t c, int64_t h, int64_t w) {
    const int k = pack_factor(d.storage);
    return d.offset
           + ((n / k) * d.strides[0] + c * d.strides[1] + h * d.strides[2] + w * d.strides[3])
                     * sys_elem_bytes(d)
           + (n % k) * sys_scalar_bytes(d);
}

int64_t sys_required_bytes(const npu_sys_desc_t &d) {
    if (sys_is_zero_volume(d)) return 0;
    int64_t pd[4];
    sys_packed_dims(d, pd);
    return sat_add(d.offset, sat_mul(box_extent(4, pd, d.strides), sys_elem_bytes(d)));
}

std::string sys_desc_str(const npu_sys_desc_t &d) {
    char buf[256];
    std::snprintf(buf, sizeof(buf),
            "npu_sys:%s:%s:+%lld:%lldx%lldx%lldx%lld:strides=%lld,%lld,%lld,"
            "%lld",
            storage_name(d.storage), dt_name(d.data_type), (long long)d.offset,
            (long long)d.dims[0], (long long)d.dims[1], (long long)d.dims[2], (long long)d.dims[3],
            (long long)d.strides[0], (long long)d.strides[1], (long long)d.strides[2],
            (long long)d.strides[3]);
    return buf;
}

} // namespace npu
} // namespace impl
} // namespace relayout
