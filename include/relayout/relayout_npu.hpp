/*
 * relayout — header-only C++ conveniences for the NPU engine, over
 * relayout_npu.h and relayout.hpp. Failures throw relayout::error.
 *
 *   auto eng = relayout::npu::make_engine("bm1684x");
 *   relayout::memory::desc md = relayout::npu::local_desc(eng, 0,
 *           {2, 3, 4, 5}, relayout::memory::data_type::f32,
 *           relayout::npu::layout::aligned);
 *   relayout::memory local(md, eng);                 // names the tensor
 *   relayout::reorder::primitive_desc pd(cpu, host_md, eng, md);
 *   std::cout << relayout::npu::program_listing(pd);
 */
#ifndef RELAYOUT_RELAYOUT_NPU_HPP
#define RELAYOUT_RELAYOUT_NPU_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "relayout/relayout.hpp"
#include "relayout/relayout_npu.h"

namespace relayout {
namespace npu {

enum class layout {
    aligned = relayout_npu_layout_aligned,
    compact = relayout_npu_layout_compact,
    line_aligned = relayout_npu_layout_line_aligned,
    matrix = relayout_npu_layout_matrix,
    free_strides = relayout_npu_layout_free_strides,
};

enum class storage {
    mode_1n = relayout_npu_storage_1n,
    mode_4n = relayout_npu_storage_4n,
    mode_2n = relayout_npu_storage_2n,
    mode_2ic = relayout_npu_storage_2ic,
};

using config = relayout_npu_config_t;
using local_info = relayout_npu_local_info_t;

/** An NPU engine from "bm1684x" (a preset) or "custom:X:S:EU[:BANKS][:w1]". */
inline engine make_engine(const std::string &config_str) {
    relayout_engine_t e = nullptr;
    error::wrap_c_api(relayout_npu_engine_create(&e, config_str.c_str()), "npu::make_engine");
    return engine(e);
}

inline config get_config(const engine &eng) {
    config c;
    error::wrap_c_api(relayout_npu_engine_get_config(eng.get(), &c), "npu::get_config");
    return c;
}

namespace detail {
inline void to4(const memory::dims &v, relayout_dim_t out[4], const char *what) {
    if (v.size() != 4)
        throw error(relayout_invalid_arguments, std::string(what)
                                                        + ": needs 4 values (N, C, H, W), got "
                                                        + std::to_string(v.size()));
    for (int i = 0; i < 4; ++i)
        out[i] = static_cast<relayout_dim_t>(v[i]);
}
} // namespace detail

/** A tensor (N, C, H, W) at local `address` of `eng`. `strides` only for
 *  layout::free_strides (N, C, H, W in packed elements). */
inline memory::desc local_desc(const engine &eng, int64_t address, const memory::dims &dims,
        memory::data_type dt, layout l = layout::aligned, storage s = storage::mode_1n,
        const memory::dims &strides = {}) {
    relayout_dim_t d[4], st[4];
    detail::to4(dims, d, "npu::local_desc dims");
    if (!strides.empty()) detail::to4(strides, st, "npu::local_desc strides");
    relayout_memory_desc_t md = nullptr;
    error::wrap_c_api(
            relayout_memory_desc_create_npu_local(&md, eng.get(), address, d,
                    static_cast<relayout_data_type_t>(dt), static_cast<relayout_npu_layout_t>(l),
                    static_cast<relayout_npu_storage_t>(s), strides.empty() ? nullptr : st),
            "npu::local_desc");
    return memory::desc(md);
}

/** A rows x cols matrix in the matrix layout with W = matrix_w. */
inline memory::desc matrix_desc(const engine &eng, int64_t address, int64_t rows, int64_t cols,
        int64_t matrix_w, memory::data_type dt) {
    relayout_memory_desc_t md = nullptr;
    error::wrap_c_api(relayout_memory_desc_create_npu_matrix(&md, eng.get(), address, rows, cols,
                              matrix_w, static_cast<relayout_data_type_t>(dt)),
            "npu::matrix_desc");
    return memory::desc(md);
}

/** Start NPU, offset, strides, channels and bytes per NPU, ... */
inline local_info query(const memory::desc &md) {
    local_info info;
    error::wrap_c_api(relayout_memory_desc_query_npu_local(md.get(), &info), "npu::query");
    return info;
}

/** (NPU, byte offset in that NPU) of logical element (n, c, h, w). */
struct location {
    int npu;
    int64_t offset;
};
inline location element_location(
        const memory::desc &md, int64_t n, int64_t c, int64_t h, int64_t w) {
    location l{ 0, 0 };
    error::wrap_c_api(
            relayout_memory_desc_npu_element_location(md.get(), n, c, h, w, &l.npu, &l.offset),
            "npu::element_location");
    return l;
}

/** Host access to the simulated local memory of one lane. */
inline void write_lane(const engine &eng, int npu, int64_t offset, const void *src, size_t size) {
    error::wrap_c_api(
            relayout_npu_engine_write_lane(eng.get(), npu, offset, src, size), "npu::write_lane");
}
inline void read_lane(const engine &eng, int npu, int64_t offset, void *dst, size_t size) {
    error::wrap_c_api(
            relayout_npu_engine_read_lane(eng.get(), npu, offset, dst, size), "npu::read_lane");
}
inline std::vector<uint8_t> read_lane(const engine &eng, int npu, int64_t offset, size_t size) {
    std::vector<uint8_t> v(size);
    read_lane(eng, npu, offset, v.data(), size);
    return v;
}
inline void fill(const engine &eng, uint8_t value) {
    error::wrap_c_api(relayout_npu_engine_fill(eng.get(), value), "npu::fill");
}

/** The DMA program of an npu:dma reorder, one command per line. */
inline std::string program_listing(const reorder::primitive_desc &pd) {
    const char *s = nullptr;
    error::wrap_c_api(relayout_primitive_desc_query_npu_program(pd.get(), &s, nullptr),
            "npu::program_listing");
    return s ? s : "";
}
/** The number of DMA commands of an npu:dma reorder. */
inline int64_t program_size(const reorder::primitive_desc &pd) {
    int64_t n = 0;
    error::wrap_c_api(
            relayout_primitive_desc_query_npu_program(pd.get(), nullptr, &n), "npu::program_size");
    return n;
}

} // namespace npu
} // namespace relayout

#endif /* RELAYOUT_RELAYOUT_NPU_HPP */
