// The C API's error paths, function by function (relayout.h): NULL
// out-pointers and handles, invalid enums, mismatched descriptors, bad
// execution arguments, unavailable engines, out-of-range settings.
// Every case checks the exact status AND that the thread's last error
// message names the problem; nothing may crash. Then the C++ wrapper:
// relayout::error carries the status and the message.
// Spec: relayout.h header comments, DESIGN §11.
#include <gtest/gtest.h>

#include <functional>
#include <thread>
#include <type_traits>

#include "api_test_utils.hpp"

using namespace api_test;

namespace {

// Valid objects the cases are built from.
struct world_t {
    relayout_engine_t eng = nullptr;
    relayout_stream_t strm = nullptr;
    relayout_memory_desc_t md = nullptr, md_other = nullptr, md_any = nullptr, md_3d = nullptr;
    relayout_memory_t src = nullptr, dst = nullptr, other = nullptr, nobuf = nullptr;
    relayout_primitive_attr_t attr = nullptr;
    relayout_primitive_desc_t pd = nullptr;
    relayout_primitive_t prim = nullptr;

    world_t() {
        relayout_dims_t d = { 2, 3 }, d3 = { 2, 3, 1 }, od = { 3, 2 };
        EXPECT_EQ(relayout_engine_create(&eng, relayout_cpu, 0), relayout_success);
        EXPECT_EQ(relayout_stream_create(&strm, eng, 0), relayout_success);
        EXPECT_EQ(relayout_memory_desc_create_with_tag(&md, 2, d, relayout_f32, relayout_ab),
                relayout_success);
        EXPECT_EQ(relayout_memory_desc_create_with_tag(&md_other, 2, od, relayout_f32, relayout_ab),
                relayout_success);
        EXPECT_EQ(relayout_memory_desc_create_with_tag(
                          &md_any, 2, d, relayout_f32, relayout_format_tag_any),
                relayout_success);
        EXPECT_EQ(relayout_memory_desc_create_with_tag(&md_3d, 3, d3, relayout_f32, relayout_abc),
                relayout_success);
        EXPECT_EQ(
                relayout_memory_create(&src, md, eng, RELAYOUT_MEMORY_ALLOCATE), relayout_success);
        EXPECT_EQ(
                relayout_memory_create(&dst, md, eng, RELAYOUT_MEMORY_ALLOCATE), relayout_success);
        EXPECT_EQ(relayout_memory_create(&other, md_other, eng, RELAYOUT_MEMORY_ALLOCATE),
                relayout_success);
        EXPECT_EQ(relayout_memory_create(&nobuf, md, eng, RELAYOUT_MEMORY_NONE), relayout_success);
        EXPECT_EQ(relayout_primitive_attr_create(&attr), relayout_success);
        EXPECT_EQ(relayout_reorder_primitive_desc_create(&pd, md, eng, md, eng, nullptr),
                relayout_success);
        EXPECT_EQ(relayout_primitive_create(&prim, pd), relayout_success);
    }
    ~world_t() {
        relayout_primitive_destroy(prim);
        relayout_primitive_desc_destroy(pd);
        relayout_primitive_attr_destroy(attr);
        for (auto m : { src, dst, other, nobuf })
            relayout_memory_destroy(m);
        for (auto m : { md, md_other, md_any, md_3d })
            relayout_memory_desc_destroy(m);
        relayout_stream_destroy(strm);
        relayout_engine_destroy(eng);
    }
};

world_t &w() {
    static world_t *x = new world_t; // lives for the process: cases share it
    return *x;
}

struct error_case_t {
    const char *name;
    std::function<relayout_status_t()> call;
    relayout_status_t status;
    const char *keyword; // the message names the problem
};
API_TEST_PRINT_BY_NAME(error_case_t)

relayout_dims_t dims23 = { 2, 3 };
relayout_dims_t strides23 = { 3, 1 };
const float one = 1.f;
const int perm01[] = { 0, 1 };

#define CASE(name, status, keyword, ...)                                                           \
    error_case_t {                                                                                 \
        name, [] { return __VA_ARGS__; }, status, keyword                                          \
    }

const relayout_status_t inv = relayout_invalid_arguments;
const relayout_status_t unimp = relayout_unimplemented;

std::vector<error_case_t> cases() {
    relayout_exec_arg_t *none = nullptr;
    (void)none;
    return {
        // ---- library settings
        CASE("set_verbose_3", inv, "verbose", relayout_set_verbose(3)),
        CASE("set_verbose_negative", inv, "verbose", relayout_set_verbose(-1)),
        CASE("set_max_cpu_isa_invalid", inv, "isa",
                relayout_set_max_cpu_isa(static_cast<relayout_cpu_isa_t>(99))),
        CASE("set_num_threads_negative", inv, "threads", relayout_set_num_threads(-2)),
        CASE("set_cache_capacity_negative", inv, "capacity",
                relayout_set_primitive_cache_capacity(-1)),
        CASE("get_cache_capacity_null", inv, "capacity",
                relayout_get_primitive_cache_capacity(nullptr)),
        // ---- descriptor creation
        CASE("create_with_tag_null_out", inv, "memory_desc",
                relayout_memory_desc_create_with_tag(
                        nullptr, 2, dims23, relayout_f32, relayout_ab)),
        CASE("create_with_tag_null_dims", inv, "dims",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_tag(
                            &m, 2, nullptr, relayout_f32, relayout_ab);
                }()),
        CASE("create_with_tag_bad_tag", inv, "tag",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_tag(
                            &m, 2, dims23, relayout_f32, static_cast<relayout_format_tag_t>(77777));
                }()),
        CASE("create_with_tag_wrong_rank", inv, "dims",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_tag(
                            &m, 2, dims23, relayout_f32, relayout_nchw);
                }()),
        CASE("create_with_tag_bad_dt", inv, "data",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_tag(
                            &m, 2, dims23, static_cast<relayout_data_type_t>(42), relayout_ab);
                }()),
        CASE("create_with_tag_ndims_0", inv, "ndims",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_tag(
                            &m, 0, dims23, relayout_f32, relayout_a);
                }()),
        CASE("create_with_string_tag_null_tag", inv, "tag",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_string_tag(
                            &m, 2, dims23, relayout_f32, nullptr);
                }()),
        CASE("create_with_string_tag_null_out", inv, "memory_desc",
                relayout_memory_desc_create_with_string_tag(
                        nullptr, 2, dims23, relayout_f32, "ab")),
        CASE("create_with_strides_null_out", inv, "memory_desc",
                relayout_memory_desc_create_with_strides(
                        nullptr, 2, dims23, relayout_f32, strides23)),
        CASE("create_with_strides_null_dims", inv, "dims",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_strides(
                            &m, 2, nullptr, relayout_f32, strides23);
                }()),
        CASE("create_with_strides_overlap", inv, "overlap",
                [] {
                    relayout_memory_desc_t m;
                    relayout_dims_t s = { 2, 1 };
                    return relayout_memory_desc_create_with_strides(&m, 2, dims23, relayout_f32, s);
                }()),
        CASE("create_with_strides_negative_dim", inv, "dims",
                [] {
                    relayout_memory_desc_t m;
                    relayout_dims_t d = { 2, -1 };
                    return relayout_memory_desc_create_with_strides(
                            &m, 2, d, relayout_f32, nullptr);
                }()),
        CASE("create_with_blocking_null_strides", inv, "strides",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_blocking(
                            &m, 2, dims23, relayout_f32, nullptr, 0, nullptr, nullptr);
                }()),
        CASE("create_with_blocking_bad_nblks", inv, "inner_nblks",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_blocking(
                            &m, 2, dims23, relayout_f32, strides23, -1, nullptr, nullptr);
                }()),
        CASE("create_with_blocking_null_blocks", inv, "inner",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_with_blocking(
                            &m, 2, dims23, relayout_f32, strides23, 1, nullptr, nullptr);
                }()),
        CASE("create_with_blocking_bad_idx", inv, "inner_idxs",
                [] {
                    relayout_memory_desc_t m;
                    relayout_dims_t b = { 4 }, i = { 5 };
                    return relayout_memory_desc_create_with_blocking(
                            &m, 2, dims23, relayout_f32, strides23, 1, b, i);
                }()),
        CASE("create_with_blocking_zero_block", inv, "inner_blks",
                [] {
                    relayout_memory_desc_t m;
                    relayout_dims_t b = { 0 }, i = { 1 };
                    return relayout_memory_desc_create_with_blocking(
                            &m, 2, dims23, relayout_f32, strides23, 1, b, i);
                }()),
        CASE("create_submemory_null_out", inv, "memory_desc",
                relayout_memory_desc_create_submemory(nullptr, w().md, dims23, dims23)),
        CASE("create_submemory_null_parent", inv, "parent",
                [] {
                    relayout_memory_desc_t m;
                    relayout_dims_t o = { 0, 0 };
                    return relayout_memory_desc_create_submemory(&m, nullptr, dims23, o);
                }()),
        CASE("create_submemory_null_offsets", inv, "offsets",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_create_submemory(&m, w().md, dims23, nullptr);
                }()),
        CASE("create_submemory_out_of_range", inv, "offsets",
                [] {
                    relayout_memory_desc_t m;
                    relayout_dims_t o = { 1, 0 };
                    return relayout_memory_desc_create_submemory(&m, w().md, dims23, o);
                }()),
        CASE("reshape_null_out", inv, "out_memory_desc",
                relayout_memory_desc_reshape(nullptr, w().md, 2, dims23)),
        CASE("reshape_null_in", inv, "in_memory_desc",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_reshape(&m, nullptr, 2, dims23);
                }()),
        CASE("reshape_null_dims", inv, "dims",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_reshape(&m, w().md, 2, nullptr);
                }()),
        CASE("reshape_ndims_13", inv, "ndims",
                [] {
                    relayout_memory_desc_t m;
                    int64_t d[13] = { 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
                    return relayout_memory_desc_reshape(&m, w().md, 13, d);
                }()),
        CASE("permute_axes_null_out", inv, "out_memory_desc",
                relayout_memory_desc_permute_axes(nullptr, w().md, perm01)),
        CASE("permute_axes_null_in", inv, "in_memory_desc",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_permute_axes(&m, nullptr, perm01);
                }()),
        CASE("permute_axes_null_perm", inv, "permutation",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_permute_axes(&m, w().md, nullptr);
                }()),
        CASE("set_extra_null", inv, "memory_desc",
                relayout_memory_desc_set_extra(nullptr, 0, 0, 0, 1.f)),
        CASE("set_extra_on_f32", inv, "s8",
                relayout_memory_desc_set_extra(
                        w().md, relayout_extra_flag_compensation_conv_s8s8, 1, 0, 1.f)),
        CASE("clone_null_out", inv, "memory_desc", relayout_memory_desc_clone(nullptr, w().md)),
        CASE("clone_null_in", inv, "existing_memory_desc",
                [] {
                    relayout_memory_desc_t m;
                    return relayout_memory_desc_clone(&m, nullptr);
                }()),
        // ---- descriptor queries
        CASE("query_null_desc", inv, "memory_desc",
                [] {
                    int n;
                    return relayout_memory_desc_query(nullptr, relayout_query_ndims_s32, &n);
                }()),
        CASE("query_null_result", inv, "result",
                relayout_memory_desc_query(w().md, relayout_query_ndims_s32, nullptr)),
        CASE("query_invalid_kind", inv, "query",
                [] {
                    int n;
                    return relayout_memory_desc_query(
                            w().md, static_cast<relayout_query_t>(999), &n);
                }()),
        CASE("to_string_null_buf", inv, "buf", relayout_memory_desc_to_string(w().md, nullptr, 10)),
        CASE("to_string_size_0", inv, "size",
                [] {
                    char b[4];
                    return relayout_memory_desc_to_string(w().md, b, 0);
                }()),
        // ---- engines and streams
        CASE("engine_get_count_null", inv, "count",
                relayout_engine_get_count(relayout_cpu, nullptr)),
        CASE("engine_get_count_bad_kind", inv, "kind",
                [] {
                    size_t n;
                    return relayout_engine_get_count(static_cast<relayout_engine_kind_t>(42), &n);
                }()),
        CASE("engine_create_null", inv, "engine", relayout_engine_create(nullptr, relayout_cpu, 0)),
        CASE("engine_create_cpu_index_1", inv, "index",
                [] {
                    relayout_engine_t e;
                    return relayout_engine_create(&e, relayout_cpu, 1);
                }()),
        CASE("engine_create_bad_kind", inv, "kind",
                [] {
                    relayout_engine_t e;
                    return relayout_engine_create(&e, static_cast<relayout_engine_kind_t>(42), 0);
                }()),
        CASE("engine_create_npu_bad_index", inv, "npu",
                [] {
                    relayout_engine_t e;
                    return relayout_engine_create(&e, relayout_npu, 99);
                }()),
        CASE("engine_get_kind_null_engine", inv, "engine",
                [] {
                    relayout_engine_kind_t k;
                    return relayout_engine_get_kind(nullptr, &k);
                }()),
        CASE("engine_get_kind_null_kind", inv, "kind", relayout_engine_get_kind(w().eng, nullptr)),
        CASE("stream_create_null_out", inv, "stream", relayout_stream_create(nullptr, w().eng, 0)),
        CASE("stream_create_null_engine", inv, "engine",
                [] {
                    relayout_stream_t s;
                    return relayout_stream_create(&s, nullptr, 0);
                }()),
        CASE("stream_get_engine_null_stream", inv, "stream",
                [] {
                    relayout_engine_t e;
                    return relayout_stream_get_engine(nullptr, &e);
                }()),
        CASE("stream_get_engine_null_out", inv, "engine",
                relayout_stream_get_engine(w().strm, nullptr)),
        CASE("stream_wait_null", inv, "stream", relayout_stream_wait(nullptr)),
        // ---- memory objects
        CASE("memory_create_null_out", inv, "memory",
                relayout_memory_create(nullptr, w().md, w().eng, RELAYOUT_MEMORY_ALLOCATE)),
        CASE("memory_create_null_desc", inv, "memory_desc",
                [] {
                    relayout_memory_t m;
                    return relayout_memory_create(&m, nullptr, w().eng, RELAYOUT_MEMORY_ALLOCATE);
                }()),
        CASE("memory_create_null_engine", inv, "engine",
                [] {
                    relayout_memory_t m;
                    return relayout_memory_create(&m, w().md, nullptr, RELAYOUT_MEMORY_ALLOCATE);
                }()),
        CASE("memory_create_any_desc", inv, "any",
                [] {
                    relayout_memory_t m;
                    return relayout_memory_create(
                            &m, w().md_any, w().eng, RELAYOUT_MEMORY_ALLOCATE);
                }()),
        CASE("memory_get_desc_null_memory", inv, "memory",
                [] {
                    const_relayout_memory_desc_t m;
                    return relayout_memory_get_memory_desc(nullptr, &m);
                }()),
        CASE("memory_get_desc_null_out", inv, "memory_desc",
                relayout_memory_get_memory_desc(w().src, nullptr)),
        CASE("memory_get_engine_null", inv, "memory",
                [] {
                    relayout_engine_t e;
                    return relayout_memory_get_engine(nullptr, &e);
                }()),
        CASE("memory_get_engine_null_out", inv, "engine",
                relayout_memory_get_engine(w().src, nullptr)),
        CASE("memory_get_data_handle_null", inv, "memory",
                [] {
                    void *h;
                    return relayout_memory_get_data_handle(nullptr, &h);
                }()),
        CASE("memory_get_data_handle_null_out", inv, "handle",
                relayout_memory_get_data_handle(w().src, nullptr)),
        CASE("memory_set_data_handle_null_memory", inv, "memory",
                relayout_memory_set_data_handle(nullptr, nullptr)),
        CASE("memory_set_data_handle_allocate", inv, "ALLOCATE",
                relayout_memory_set_data_handle(w().nobuf, RELAYOUT_MEMORY_ALLOCATE)),
        // ---- attributes
        CASE("attr_create_null", inv, "attr", relayout_primitive_attr_create(nullptr)),
        CASE("attr_clone_null_out", inv, "attr", relayout_primitive_attr_clone(nullptr, w().attr)),
        CASE("attr_clone_null_in", inv, "existing_attr",
                [] {
                    relayout_primitive_attr_t a;
                    return relayout_primitive_attr_clone(&a, nullptr);
                }()),
        CASE("set_scales_null_attr", inv, "attr",
                relayout_primitive_attr_set_scales(nullptr, RELAYOUT_ARG_SRC, 1, 0, &one)),
        CASE("set_scales_bad_arg", inv, "arg",
                relayout_primitive_attr_set_scales(w().attr, 5, 1, 0, &one)),
        CASE("set_scales_count_0", inv, "count",
                relayout_primitive_attr_set_scales(w().attr, RELAYOUT_ARG_SRC, 0, 0, &one)),
        CASE("set_scales_common_two_values", inv, "mask",
                [] {
                    const float v[2] = { 1.f, 2.f };
                    return relayout_primitive_attr_set_scales(w().attr, RELAYOUT_ARG_SRC, 2, 0, v);
                }()),
        CASE("set_scales_negative_mask", inv, "mask",
                relayout_primitive_attr_set_scales(w().attr, RELAYOUT_ARG_SRC, 1, -1, &one)),
        CASE("set_scales_null_values", inv, "scales",
                relayout_primitive_attr_set_scales(w().attr, RELAYOUT_ARG_SRC, 1, 0, nullptr)),
        CASE("set_scales_nan", inv, "finite",
                [] {
                    const float v = NAN;
                    return relayout_primitive_attr_set_scales(w().attr, RELAYOUT_ARG_SRC, 1, 0, &v);
                }()),
        CASE("set_scales_dst_zero", inv, "zero",
                [] {
                    const float v = 0.f;
                    return relayout_primitive_attr_set_scales(w().attr, RELAYOUT_ARG_DST, 1, 0, &v);
                }()),
        CASE("set_zero_point_null_attr", inv, "attr",
                relayout_primitive_attr_set_zero_point(nullptr, RELAYOUT_ARG_SRC, 1)),
        CASE("set_zero_point_bad_arg", inv, "arg",
                relayout_primitive_attr_set_zero_point(w().attr, 3, 1)),
        CASE("set_post_ops_sum_null_attr", inv, "attr",
                relayout_primitive_attr_set_post_ops_sum(nullptr, 1.f)),
        CASE("set_post_ops_sum_inf", inv, "beta",
                relayout_primitive_attr_set_post_ops_sum(w().attr, INFINITY)),
        // ---- reorder primitive descriptor
        CASE("pd_create_null_out", inv, "reorder_primitive_desc",
                relayout_reorder_primitive_desc_create(
                        nullptr, w().md, w().eng, w().md, w().eng, nullptr)),
        CASE("pd_create_null_src", inv, "src_desc",
                [] {
                    relayout_primitive_desc_t p;
                    return relayout_reorder_primitive_desc_create(
                            &p, nullptr, w().eng, w().md, w().eng, nullptr);
                }()),
        CASE("pd_create_null_dst", inv, "dst_desc",
                [] {
                    relayout_primitive_desc_t p;
                    return relayout_reorder_primitive_desc_create(
                            &p, w().md, w().eng, nullptr, w().eng, nullptr);
                }()),
        CASE("pd_create_null_src_engine", inv, "src_engine",
                [] {
                    relayout_primitive_desc_t p;
                    return relayout_reorder_primitive_desc_create(
                            &p, w().md, nullptr, w().md, w().eng, nullptr);
                }()),
        CASE("pd_create_null_dst_engine", inv, "dst_engine",
                [] {
                    relayout_primitive_desc_t p;
                    return relayout_reorder_primitive_desc_create(
                            &p, w().md, w().eng, w().md, nullptr, nullptr);
                }()),
        CASE("pd_create_mismatched_dims", inv, "dims",
                [] {
                    relayout_primitive_desc_t p;
                    return relayout_reorder_primitive_desc_create(
                            &p, w().md, w().eng, w().md_other, w().eng, nullptr);
                }()),
        CASE("pd_create_mismatched_ndims", inv, "dims",
                [] {
                    relayout_primitive_desc_t p;
                    return relayout_reorder_primitive_desc_create(
                            &p, w().md, w().eng, w().md_3d, w().eng, nullptr);
                }()),
        CASE("pd_create_src_any", inv, "any",
                [] {
                    relayout_primitive_desc_t p;
                    return relayout_reorder_primitive_desc_create(
                            &p, w().md_any, w().eng, w().md, w().eng, nullptr);
                }()),
        CASE("pd_create_scale_count_mismatch", inv, "scales",
                [] {
                    relayout_primitive_attr_t a;
                    relayout_primitive_attr_create(&a);
                    const float v[2] = { 1.f, 2.f };
                    relayout_primitive_attr_set_scales(a, RELAYOUT_ARG_SRC, 2, 2, v); // dim 1 has 3
                    relayout_primitive_desc_t p;
                    const auto st = relayout_reorder_primitive_desc_create(
                            &p, w().md, w().eng, w().md, w().eng, a);
                    relayout_primitive_attr_destroy(a);
                    return st;
                }()),
        CASE("pd_query_impl_info_null_pd", inv, "primitive_desc",
                [] {
                    const char *s;
                    return relayout_primitive_desc_query_impl_info(nullptr, &s);
                }()),
        CASE("pd_query_impl_info_null_out", inv, "impl_info",
                relayout_primitive_desc_query_impl_info(w().pd, nullptr)),
        CASE("pd_query_plan_null_pd", inv, "primitive_desc",
                [] {
                    const char *s;
                    return relayout_primitive_desc_query_plan(nullptr, &s);
                }()),
        CASE("pd_query_plan_null_out", inv, "plan",
                relayout_primitive_desc_query_plan(w().pd, nullptr)),
        CASE("pd_query_md_bad_which", inv, "which",
                [] {
                    const_relayout_memory_desc_t m;
                    return relayout_primitive_desc_query_md(w().pd, 7, &m);
                }()),
        CASE("pd_query_md_null_out", inv, "memory_desc",
                relayout_primitive_desc_query_md(w().pd, RELAYOUT_ARG_SRC, nullptr)),
        CASE("pd_clone_null_out", inv, "primitive_desc",
                relayout_primitive_desc_clone(nullptr, w().pd)),
        CASE("pd_clone_null_in", inv, "existing_primitive_desc",
                [] {
                    relayout_primitive_desc_t p;
                    return relayout_primitive_desc_clone(&p, nullptr);
                }()),
        // ---- primitive
        CASE("primitive_create_null_out", inv, "primitive",
                relayout_primitive_create(nullptr, w().pd)),
        CASE("primitive_create_null_pd", inv, "primitive_desc",
                [] {
                    relayout_primitive_t p;
                    return relayout_primitive_create(&p, nullptr);
                }()),
        CASE("get_primitive_desc_null_primitive", inv, "primitive",
                [] {
                    const_relayout_primitive_desc_t p;
                    return relayout_primitive_get_primitive_desc(nullptr, &p);
                }()),
        CASE("get_primitive_desc_null_out", inv, "primitive_desc",
                relayout_primitive_get_primitive_desc(w().prim, nullptr)),
        // ---- execute
        CASE("execute_null_primitive", inv, "primitive",
                [] {
                    relayout_exec_arg_t a[2] = { { RELAYOUT_ARG_SRC, w().src },
                        { RELAYOUT_ARG_DST, w().dst } };
                    return relayout_primitive_execute(nullptr, w().strm, 2, a);
                }()),
        CASE("execute_null_stream", inv, "stream",
                [] {
                    relayout_exec_arg_t a[2] = { { RELAYOUT_ARG_SRC, w().src },
                        { RELAYOUT_ARG_DST, w().dst } };
                    return relayout_primitive_execute(w().prim, nullptr, 2, a);
                }()),
        CASE("execute_negative_nargs", inv, "nargs",
                relayout_primitive_execute(w().prim, w().strm, -1, nullptr)),
        CASE("execute_null_args", inv, "args",
                relayout_primitive_execute(w().prim, w().strm, 2, nullptr)),
        CASE("execute_missing_dst", inv, "dst",
                [] {
                    relayout_exec_arg_t a[1] = { { RELAYOUT_ARG_SRC, w().src } };
                    return relayout_primitive_execute(w().prim, w().strm, 1, a);
                }()),
        CASE("execute_missing_src", inv, "src",
                [] {
                    relayout_exec_arg_t a[1] = { { RELAYOUT_ARG_DST, w().dst } };
                    return relayout_primitive_execute(w().prim, w().strm, 1, a);
                }()),
        CASE("execute_no_args", inv, "missing",
                relayout_primitive_execute(w().prim, w().strm, 0, nullptr)),
        CASE("execute_unknown_arg_id", inv, "arg",
                [] {
                    relayout_exec_arg_t a[3] = { { RELAYOUT_ARG_SRC, w().src },
                        { RELAYOUT_ARG_DST, w().dst }, { 42, w().dst } };
                    return relayout_primitive_execute(w().prim, w().strm, 3, a);
                }()),
        CASE("execute_null_dst_memory", inv, "dst",
                [] {
                    relayout_exec_arg_t a[2] = { { RELAYOUT_ARG_SRC, w().src },
                        { RELAYOUT_ARG_DST, nullptr } };
                    return relayout_primitive_execute(w().prim, w().strm, 2, a);
                }()),
        CASE("execute_dst_desc_differs", inv, "match",
                [] {
                    relayout_exec_arg_t a[2] = { { RELAYOUT_ARG_SRC, w().src },
                        { RELAYOUT_ARG_DST, w().other } };
                    return relayout_primitive_execute(w().prim, w().strm, 2, a);
                }()),
        CASE("execute_src_desc_differs", inv, "match",
                [] {
                    relayout_exec_arg_t a[2] = { { RELAYOUT_ARG_SRC, w().other },
                        { RELAYOUT_ARG_DST, w().dst } };
                    return relayout_primitive_execute(w().prim, w().strm, 2, a);
                }()),
        CASE("execute_dst_without_buffer", inv, "buffer",
                [] {
                    relayout_exec_arg_t a[2] = { { RELAYOUT_ARG_SRC, w().src },
                        { RELAYOUT_ARG_DST, w().nobuf } };
                    return relayout_primitive_execute(w().prim, w().strm, 2, a);
                }()),
    };
}

} // namespace

class CApiError : public ::testing::TestWithParam<error_case_t> {};

TEST_P(CApiError, ReturnsTheStatusAndNamesTheProblem) {
    const auto &c = GetParam();
    (void)w();
    const relayout_status_t st = c.call();
    EXPECT_EQ(st, c.status) << relayout_status2str(st);
    const std::string msg = last_error();
    EXPECT_FALSE(msg.empty()) << "no message";
    EXPECT_TRUE(contains_ci(msg, c.keyword))
            << "message \"" << msg << "\" does not mention " << c.keyword;
}

INSTANTIATE_TEST_SUITE_P(AllFunctions, CApiError, ::testing::ValuesIn(cases()),
        [](const ::testing::TestParamInfo<error_case_t> &i) { return std::string(i.param.name); });

// ---- out-pointers on failure --------------------------------------------------

TEST(CApiOutPointers, FailedCreationsSetTheHandleToNull) {
    auto bogus = [](auto &h) {
        h = reinterpret_cast<std::remove_reference_t<decltype(h)>>(uintptr_t(0x8));
    };
    relayout_memory_desc_t md;
    bogus(md);
    EXPECT_NE(relayout_memory_desc_create_with_string_tag(&md, 2, dims23, relayout_f32, "a!"),
            relayout_success);
    EXPECT_EQ(md, nullptr);
    relayout_engine_t e;
    bogus(e);
    EXPECT_EQ(relayout_engine_create(&e, relayout_npu, 99), relayout_invalid_arguments);
    EXPECT_EQ(e, nullptr);
    // No such OpenCL device: invalid_arguments with a device, unimplemented
    // without one (or without OpenCL); the handle is NULL either way.
    bogus(e);
    EXPECT_NE(relayout_engine_create(&e, relayout_ocl, 1000), relayout_success);
    EXPECT_EQ(e, nullptr);
    EXPECT_TRUE(contains_ci(relayout_get_last_error_message(), "ocl"))
            << relayout_get_last_error_message();
    relayout_memory_t m;
    bogus(m);
    EXPECT_NE(relayout_memory_create(&m, w().md_any, w().eng, RELAYOUT_MEMORY_ALLOCATE),
            relayout_success);
    EXPECT_EQ(m, nullptr);
    relayout_primitive_desc_t pd;
    bogus(pd);
    EXPECT_NE(relayout_reorder_primitive_desc_create(
                      &pd, w().md, w().eng, w().md_other, w().eng, nullptr),
            relayout_success);
    EXPECT_EQ(pd, nullptr);
    relayout_primitive_attr_t a;
    bogus(a);
    EXPECT_NE(relayout_primitive_attr_clone(&a, nullptr), relayout_success);
    EXPECT_EQ(a, nullptr);
    relayout_primitive_t p;
    bogus(p);
    EXPECT_NE(relayout_primitive_create(&p, nullptr), relayout_success);
    EXPECT_EQ(p, nullptr);
}

TEST(CApiOutPointers, FailedQueriesWriteNothing) {
    int n = -7;
    EXPECT_NE(relayout_memory_desc_query(w().md, static_cast<relayout_query_t>(999), &n),
            relayout_success);
    EXPECT_EQ(n, -7);
    size_t count = 99;
    EXPECT_NE(relayout_engine_get_count(static_cast<relayout_engine_kind_t>(42), &count),
            relayout_success);
    EXPECT_EQ(count, 99u);
}

// ---- the happy path of the same objects (so the cases above test errors only)

TEST(CApiBasics, ValidCallsSucceed) {
    EXPECT_EQ(relayout_set_verbose(0), relayout_success);
    EXPECT_EQ(relayout_set_num_threads(0), relayout_success);
    relayout_exec_arg_t a[2] = { { RELAYOUT_ARG_SRC, w().src }, { RELAYOUT_ARG_DST, w().dst } };
    EXPECT_EQ(relayout_primitive_execute(w().prim, w().strm, 2, a), relayout_success);
    EXPECT_EQ(relayout_stream_wait(w().strm), relayout_success);
    const char *impl = nullptr;
    EXPECT_EQ(relayout_primitive_desc_query_impl_info(w().pd, &impl), relayout_success);
    ASSERT_NE(impl, nullptr);
    EXPECT_GT(std::strlen(impl), 0u);
    size_t count = 0;
    EXPECT_EQ(relayout_engine_get_count(relayout_cpu, &count), relayout_success);
    EXPECT_EQ(count, 1u);
    EXPECT_EQ(relayout_engine_get_count(relayout_ocl, &count), relayout_success);
    relayout_engine_kind_t k;
    EXPECT_EQ(relayout_engine_get_kind(w().eng, &k), relayout_success);
    EXPECT_EQ(k, relayout_cpu);
    const relayout_version_t *v = relayout_version();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->major, RELAYOUT_VERSION_MAJOR);
    EXPECT_EQ(v->minor, RELAYOUT_VERSION_MINOR);
}

TEST(CApiBasics, NamesOfEnums) {
    EXPECT_STREQ(relayout_status2str(relayout_success), "success");
    EXPECT_STREQ(relayout_status2str(relayout_invalid_arguments), "invalid_arguments");
    EXPECT_STREQ(relayout_status2str(relayout_unimplemented), "unimplemented");
    EXPECT_STREQ(relayout_dt2str(relayout_bf16), "bf16");
    EXPECT_EQ(relayout_data_type_size(relayout_data_type_undef), 0u);
    EXPECT_EQ(relayout_data_type_size(static_cast<relayout_data_type_t>(100)), 0u);
    EXPECT_EQ(relayout_fmt_tag2str(static_cast<relayout_format_tag_t>(-5)), nullptr);
}

TEST(CApiBasics, DestroyingNullIsHarmless) {
    EXPECT_EQ(relayout_memory_desc_destroy(nullptr), relayout_success);
    EXPECT_EQ(relayout_memory_destroy(nullptr), relayout_success);
    EXPECT_EQ(relayout_engine_destroy(nullptr), relayout_success);
    EXPECT_EQ(relayout_stream_destroy(nullptr), relayout_success);
    EXPECT_EQ(relayout_primitive_attr_destroy(nullptr), relayout_success);
    EXPECT_EQ(relayout_primitive_desc_destroy(nullptr), relayout_success);
    EXPECT_EQ(relayout_primitive_destroy(nullptr), relayout_success);
}

TEST(CApiBasics, MessagesAreKeptPerThread) {
    EXPECT_EQ(relayout_set_verbose(9), relayout_invalid_arguments);
    const std::string mine = last_error();
    std::string theirs = "unset";
    std::thread t([&] { theirs = last_error(); });
    t.join();
    EXPECT_TRUE(contains_ci(mine, "verbose"));
    EXPECT_EQ(theirs, "");
}

// ---- the C++ wrapper -----------------------------------------------------------

TEST(CppWrapper, ThrowsErrorWithStatusAndMessage) {
    std::string what =
            expect_error(relayout_invalid_arguments, [] { engine(engine::kind::npu, 99); });
    EXPECT_TRUE(contains_ci(what, "npu")) << what;
    EXPECT_TRUE(contains_ci(what, "RELAYOUT_VERBOSE")) << what;

    what = expect_error(relayout_invalid_arguments, [] { memory::desc({ 2, 3 }, dt::f32, "a!"); });
    EXPECT_TRUE(contains_ci(what, "a!")) << what;

    what = expect_error(relayout_invalid_arguments, [] {
        reorder::primitive_desc(cpu_engine(), memory::desc({ 2, 3 }, dt::f32, tag::ab),
                cpu_engine(), memory::desc({ 3, 2 }, dt::f32, tag::ab));
    });
    EXPECT_TRUE(contains_ci(what, "dims")) << what;

    // Executing with a memory whose descriptor differs from the pd's.
    const memory::desc a({ 2, 3 }, dt::f32, tag::ab), b({ 2, 3 }, dt::f32, tag::ba);
    memory ma(a, cpu_engine()), mb(b, cpu_engine());
    reorder r(reorder::primitive_desc(cpu_engine(), a, cpu_engine(), a));
    what = expect_error(relayout_invalid_arguments, [&] { r.execute(cpu_stream(), ma, mb); });
    EXPECT_TRUE(contains_ci(what, "dst")) << what;

    // Errors carry their status as a field and through what().
    try {
        relayout::set_verbose(5);
        FAIL() << "no throw";
    } catch (const relayout::error &e) {
        EXPECT_EQ(e.status, relayout_invalid_arguments);
        EXPECT_EQ(std::string(e.what()), e.message);
        EXPECT_TRUE(contains_ci(e.what(), "verbose")) << e.what();
    }
}

// allow_empty turns a failed creation into an empty pd, with or without an
// attribute (the two forms reach the C API through different overloads).
TEST(CppWrapper, AllowEmptyGivesAnEmptyPrimitiveDesc) {
    const memory::desc a({ 2, 3 }, dt::f32, tag::ab), b({ 3, 2 }, dt::f32, tag::ab);
    EXPECT_FALSE(bool(reorder::primitive_desc(cpu_engine(), a, cpu_engine(), b, true)));
    primitive_attr attr;
    attr.set_scales(RELAYOUT_ARG_SRC, 0, { 2.f });
    EXPECT_FALSE(bool(reorder::primitive_desc(cpu_engine(), a, cpu_engine(), b, attr, true)));
    memory ma(a, cpu_engine()), mb(b, cpu_engine());
    EXPECT_FALSE(bool(reorder::primitive_desc(ma, mb, true)));
    EXPECT_FALSE(bool(reorder::primitive_desc(ma, mb, attr, true)));
    // The same problems that can be created give a pd either way.
    EXPECT_TRUE(bool(reorder::primitive_desc(cpu_engine(), a, cpu_engine(), a, true)));
    EXPECT_TRUE(bool(reorder::primitive_desc(ma, ma, attr, true)));
    // A bad attribute without allow_empty still throws and names the field.
    primitive_attr bad;
    bad.set_scales(RELAYOUT_ARG_SRC, 1, { 1.f, 2.f, 3.f, 4.f }); // dim 0 has 2, not 4
    const std::string what = expect_error(relayout_invalid_arguments,
            [&] { reorder::primitive_desc(cpu_engine(), a, cpu_engine(), a, bad); });
    EXPECT_TRUE(contains_ci(what, "scale")) << what;
}

TEST(CppWrapper, EmptyObjectsThrowInsteadOfCrashing) {
    expect_error(relayout_invalid_arguments, [] { memory().get_data_handle(); });
    expect_error(relayout_invalid_arguments, [] { reorder().get_primitive_desc(); });
    expect_error(relayout_invalid_arguments, [] { stream().wait(); });
    expect_error(relayout_invalid_arguments, [] { engine().get_kind(); });
    expect_error(relayout_invalid_arguments, [] { reorder::primitive_desc().impl_info_str(); });
    // A zero descriptor cannot back a memory.
    expect_error(relayout_invalid_arguments, [] { memory(memory::desc(), cpu_engine()); });
}
