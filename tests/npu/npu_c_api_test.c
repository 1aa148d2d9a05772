/* relayout_npu.h compiles as C99 and its functions work from C: scatter a
 * tensor into local memory, read one element back from its lane and print
 * the DMA program. Exit code 0 on success. */
#include <stdio.h>
#include <string.h>

#include "relayout/relayout_npu.h"

#define CHECK(call)                                                                                \
    do {                                                                                           \
        relayout_status_t st_ = (call);                                                            \
        if (st_ != relayout_success) {                                                             \
            printf("%s failed: %s\n", #call, relayout_get_last_error_message());                   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void) {
    relayout_engine_t cpu = NULL, npu = NULL;
    relayout_stream_t strm = NULL;
    relayout_memory_desc_t host_md = NULL, local_md = NULL;
    relayout_memory_t host = NULL, local = NULL;
    relayout_primitive_desc_t pd = NULL;
    relayout_primitive_t prim = NULL;
    relayout_npu_local_info_t info;
    const relayout_dims_t dims = { 2, 5, 3, 4 };
    const relayout_dim_t ldims[4] = { 2, 5, 3, 4 };
    float buf[2 * 5 * 3 * 4], v = 0.f;
    const char *listing = NULL;
    int64_t n_cmds = 0, off = 0;
    int i, q = 0;
    relayout_exec_arg_t args[2];

    for (i = 0; i < 2 * 5 * 3 * 4; ++i)
        buf[i] = (float)i;
    CHECK(relayout_engine_create(&cpu, relayout_cpu, 0));
    CHECK(relayout_npu_engine_create(&npu, "custom:4:1024:128"));
    CHECK(relayout_stream_create(&strm, npu, 0));
    CHECK(relayout_memory_desc_create_with_tag(&host_md, 4, dims, relayout_f32, relayout_nchw));
    CHECK(relayout_memory_desc_create_npu_local(&local_md, npu, 2 * 1024 + 128, ldims, relayout_f32,
            relayout_npu_layout_aligned, relayout_npu_storage_1n, NULL));
    CHECK(relayout_memory_desc_query_npu_local(local_md, &info));
    if (info.start_npu != 2 || info.start_offset != 128 || info.channels_per_npu != 2) return 1;
    CHECK(relayout_memory_create(&host, host_md, cpu, buf));
    CHECK(relayout_memory_create(&local, local_md, npu, RELAYOUT_MEMORY_ALLOCATE));
    CHECK(relayout_reorder_primitive_desc_create(&pd, host_md, cpu, local_md, npu, NULL));
    CHECK(relayout_primitive_desc_query_npu_program(pd, &listing, &n_cmds));
    printf("%s", listing);
    CHECK(relayout_primitive_create(&prim, pd));
    args[0].arg = RELAYOUT_ARG_SRC;
    args[0].memory = host;
    args[1].arg = RELAYOUT_ARG_DST;
    args[1].memory = local;
    CHECK(relayout_primitive_execute(prim, strm, 2, args));
    /* Element (1, 3, 2, 1) = value 1*60 + 3*12 + 2*4 + 1 = 105. */
    CHECK(relayout_memory_desc_npu_element_location(local_md, 1, 3, 2, 1, &q, &off));
    CHECK(relayout_npu_engine_read_lane(npu, q, off, &v, sizeof(v)));
    if (n_cmds != 1 || v != 105.f) {
        printf("n_cmds %lld, value %g\n", (long long)n_cmds, (double)v);
        return 1;
    }
    relayout_primitive_destroy(prim);
    relayout_primitive_desc_destroy(pd);
    relayout_memory_destroy(local);
    relayout_memory_destroy(host);
    relayout_memory_desc_destroy(local_md);
    relayout_memory_desc_destroy(host_md);
    relayout_stream_destroy(strm);
    relayout_engine_destroy(npu);
    relayout_engine_destroy(cpu);
    printf("npu C API OK\n");
    return 0;
}
