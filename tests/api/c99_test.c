/*
 * The C API from strict C99 (-std=c99 -pedantic -Werror): descriptors by
 * tag, string tag and strides; queries; an nchw -> nChw16c reorder with a
 * scale attribute checked element by element; a few error codes.
 * Exits non-zero on any failure and ends with "c99: N passed, M failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relayout/relayout.h"

static int g_passed = 0;
static int g_failed = 0;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (cond) {                                                                                \
            ++g_passed;                                                                            \
        } else {                                                                                   \
            ++g_failed;                                                                            \
            printf("c99: FAILED %s:%d: %s (last error: %s)\n", __FILE__, __LINE__, #cond,          \
                    relayout_get_last_error_message());                                            \
        }                                                                                          \
    } while (0)

#define N 2
#define C 17
#define H 3
#define W 3
#define CB 16 /* channel block */
#define CP 32 /* channels padded to the block */

static void test_descriptors(void) {
    relayout_dims_t dims = { N, C, H, W };
    relayout_dims_t strides = { C * H * W, H * W, W, 1 };
    relayout_memory_desc_t by_tag = NULL, by_string = NULL, by_strides = NULL, blocked = NULL;
    int ndims = 0;
    const relayout_dim_t *qdims = NULL, *qpadded = NULL;
    relayout_data_type_t dt = relayout_data_type_undef;
    size_t size = 0;
    char text[128];

    CHECK(relayout_memory_desc_create_with_tag(&by_tag, 4, dims, relayout_f32, relayout_nchw)
            == relayout_success);
    CHECK(relayout_memory_desc_create_with_string_tag(&by_string, 4, dims, relayout_f32, "abcd")
            == relayout_success);
    CHECK(relayout_memory_desc_create_with_strides(&by_strides, 4, dims, relayout_f32, strides)
            == relayout_success);
    CHECK(relayout_memory_desc_equal(by_tag, by_string) == 1);
    CHECK(relayout_memory_desc_equal(by_tag, by_strides) == 1);

    CHECK(relayout_memory_desc_query(by_tag, relayout_query_ndims_s32, &ndims) == relayout_success);
    CHECK(ndims == 4);
    CHECK(relayout_memory_desc_query(by_tag, relayout_query_dims, &qdims) == relayout_success);
    CHECK(qdims != NULL && qdims[0] == N && qdims[1] == C && qdims[2] == H && qdims[3] == W);
    CHECK(relayout_memory_desc_query(by_tag, relayout_query_data_type, &dt) == relayout_success);
    CHECK(dt == relayout_f32);
    CHECK(relayout_memory_desc_get_size(by_tag) == sizeof(float) * N * C * H * W);

    CHECK(relayout_memory_desc_create_with_tag(&blocked, 4, dims, relayout_f32, relayout_nChw16c)
            == relayout_success);
    CHECK(relayout_memory_desc_equal(by_tag, blocked) == 0);
    CHECK(relayout_memory_desc_query(blocked, relayout_query_padded_dims, &qpadded)
            == relayout_success);
    CHECK(qpadded != NULL && qpadded[1] == CP);
    CHECK(relayout_memory_desc_query(blocked, relayout_query_size_s64, &size) == relayout_success);
    CHECK(size == sizeof(float) * N * CP * H * W);
    CHECK(relayout_memory_desc_to_string(blocked, text, sizeof(text)) == relayout_success);
    CHECK(strcmp(text, "f32:aBcd16b:2x17x3x3") == 0);

    relayout_memory_desc_destroy(by_tag);
    relayout_memory_desc_destroy(by_string);
    relayout_memory_desc_destroy(by_strides);
    relayout_memory_desc_destroy(blocked);
}

static void test_reorder_with_scale(void) {
    relayout_dims_t dims = { N, C, H, W };
    relayout_memory_desc_t src_md = NULL, dst_md = NULL;
    relayout_engine_t eng = NULL;
    relayout_stream_t strm = NULL;
    relayout_memory_t src_mem = NULL, dst_mem = NULL;
    relayout_primitive_attr_t attr = NULL;
    relayout_primitive_desc_t pd = NULL;
    relayout_primitive_t prim = NULL;
    relayout_exec_arg_t args[2];
    const float scale = 0.5f;
    float *src, *dst;
    size_t dst_elems = (size_t)N * CP * H * W, i;
    int n, c, h, w, bad = 0;

    src = (float *)malloc(sizeof(float) * N * C * H * W);
    dst = (float *)malloc(sizeof(float) * dst_elems);
    if (!src || !dst) {
        CHECK(!"allocation");
        free(src);
        free(dst);
        return;
    }
    for (i = 0; i < (size_t)N * C * H * W; ++i)
        src[i] = (float)(2 * i + 2);

    CHECK(relayout_memory_desc_create_with_tag(&src_md, 4, dims, relayout_f32, relayout_nchw)
            == relayout_success);
    CHECK(relayout_memory_desc_create_with_string_tag(&dst_md, 4, dims, relayout_f32, "nChw16c")
            == relayout_success);
    CHECK(relayout_engine_create(&eng, relayout_cpu, 0) == relayout_success);
    CHECK(relayout_stream_create(&strm, eng, 0) == relayout_success);
    CHECK(relayout_memory_create(&src_mem, src_md, eng, src) == relayout_success);
    CHECK(relayout_memory_create(&dst_mem, dst_md, eng, dst) == relayout_success);
    /* Garbage in the whole destination, padding included. */
    memset(dst, 0xFF, sizeof(float) * dst_elems);

    CHECK(relayout_primitive_attr_create(&attr) == relayout_success);
    CHECK(relayout_primitive_attr_set_scales(attr, RELAYOUT_ARG_SRC, 1, 0, &scale)
            == relayout_success);
    CHECK(relayout_reorder_primitive_desc_create(&pd, src_md, eng, dst_md, eng, attr)
            == relayout_success);
    CHECK(relayout_primitive_create(&prim, pd) == relayout_success);
    args[0].arg = RELAYOUT_ARG_SRC;
    args[0].memory = src_mem;
    args[1].arg = RELAYOUT_ARG_DST;
    args[1].memory = dst_mem;
    CHECK(relayout_primitive_execute(prim, strm, 2, args) == relayout_success);
    CHECK(relayout_stream_wait(strm) == relayout_success);

    /* nChw16c: ((n * 2 + c / 16) * H * W + h * W + w) * 16 + c % 16. */
    for (n = 0; n < N; ++n)
        for (c = 0; c < CP; ++c)
            for (h = 0; h < H; ++h)
                for (w = 0; w < W; ++w) {
                    const size_t off =
                            ((size_t)(n * (CP / CB) + c / CB) * H * W + h * W + w) * CB + c % CB;
                    const float want = c < C ? scale * src[((n * C + c) * H + h) * W + w] : 0.f;
                    if (dst[off] != want) ++bad;
                }
    CHECK(bad == 0);

    relayout_primitive_destroy(prim);
    relayout_primitive_desc_destroy(pd);
    relayout_primitive_attr_destroy(attr);
    relayout_memory_destroy(src_mem);
    relayout_memory_destroy(dst_mem);
    relayout_stream_destroy(strm);
    relayout_engine_destroy(eng);
    relayout_memory_desc_destroy(src_md);
    relayout_memory_desc_destroy(dst_md);
    free(src);
    free(dst);
}

static void test_errors(void) {
    relayout_dims_t dims = { 2, 3 };
    relayout_dims_t overlap = { 2, 1 };
    relayout_memory_desc_t md = NULL;
    relayout_engine_t eng = NULL;
    relayout_primitive_attr_t attr = NULL;
    const float zero = 0.f;

    CHECK(relayout_memory_desc_create_with_string_tag(&md, 2, dims, relayout_f32, "aB")
            == relayout_invalid_arguments);
    CHECK(md == NULL);
    CHECK(strlen(relayout_get_last_error_message()) > 0);
    CHECK(relayout_memory_desc_create_with_strides(&md, 2, dims, relayout_f32, overlap)
            == relayout_invalid_arguments);
    CHECK(relayout_memory_desc_create_with_tag(NULL, 2, dims, relayout_f32, relayout_ab)
            == relayout_invalid_arguments);
    CHECK(relayout_engine_create(&eng, relayout_npu, 99) == relayout_invalid_arguments);
    CHECK(eng == NULL);
    CHECK(relayout_set_verbose(7) == relayout_invalid_arguments);
    CHECK(strstr(relayout_get_last_error_message(), "verbose") != NULL);
    CHECK(relayout_primitive_attr_create(&attr) == relayout_success);
    CHECK(relayout_primitive_attr_set_scales(attr, RELAYOUT_ARG_DST, 1, 0, &zero)
            == relayout_invalid_arguments);
    relayout_primitive_attr_destroy(attr);
    CHECK(strcmp(relayout_status2str(relayout_unimplemented), "unimplemented") == 0);
    CHECK(relayout_data_type_size(relayout_bf16) == 2);
    CHECK(relayout_fmt_tag2str(relayout_OIhw4i16o4i) != NULL
            && strcmp(relayout_fmt_tag2str(relayout_OIhw4i16o4i), "ABcd4b16a4b") == 0);
}

int main(void) {
    test_descriptors();
    test_reorder_with_scale();
    test_errors();
    printf("c99: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
