/* The C API: nhwc u8 -> nchw f32 with a scale, errors checked. */
#include <stdio.h>
#include <stdlib.h>

#include "relayout/relayout.h"

#define CHECK(call)                                                                                \
    do {                                                                                           \
        relayout_status_t s_ = (call);                                                             \
        if (s_ != relayout_success) {                                                              \
            fprintf(stderr, "%s failed: %s\n", #call, relayout_get_last_error_message());          \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

int main(void) {
    relayout_engine_t eng;
    relayout_stream_t strm;
    relayout_memory_desc_t src_md, dst_md;
    relayout_memory_t src, dst;
    relayout_primitive_attr_t attr;
    relayout_primitive_desc_t pd;
    relayout_primitive_t prim;
    const relayout_dims_t dims = { 1, 3, 2, 2 };
    unsigned char pixels[12];
    float *out;
    const float scale = 1.f / 255.f;
    int i, ok;

    for (i = 0; i < 12; ++i)
        pixels[i] = (unsigned char)(i * 20);
    CHECK(relayout_engine_create(&eng, relayout_cpu, 0));
    CHECK(relayout_stream_create(&strm, eng, 0));
    CHECK(relayout_memory_desc_create_with_tag(&src_md, 4, dims, relayout_u8, relayout_nhwc));
    CHECK(relayout_memory_desc_create_with_tag(&dst_md, 4, dims, relayout_f32, relayout_nchw));
    CHECK(relayout_memory_create(&src, src_md, eng, pixels));
    CHECK(relayout_memory_create(&dst, dst_md, eng, RELAYOUT_MEMORY_ALLOCATE));
    CHECK(relayout_primitive_attr_create(&attr));
    CHECK(relayout_primitive_attr_set_scales(attr, RELAYOUT_ARG_SRC, 1, 0, &scale));
    CHECK(relayout_reorder_primitive_desc_create(&pd, src_md, eng, dst_md, eng, attr));
    CHECK(relayout_primitive_create(&prim, pd));
    {
        relayout_exec_arg_t args[2];
        args[0].arg = RELAYOUT_ARG_SRC;
        args[0].memory = src;
        args[1].arg = RELAYOUT_ARG_DST;
        args[1].memory = dst;
        CHECK(relayout_primitive_execute(prim, strm, 2, args));
    }
    CHECK(relayout_memory_get_data_handle(dst, (void **)&out));
    /* channel 1 of pixel (0,0) was pixels[1] = 20 */
    printf("c=1 h=0 w=0: %f\n", out[4]);
    ok = out[4] > 0.078f && out[4] < 0.079f; /* read before dst is freed */
    relayout_primitive_destroy(prim);
    relayout_primitive_desc_destroy(pd);
    relayout_primitive_attr_destroy(attr);
    relayout_memory_destroy(dst);
    relayout_memory_destroy(src);
    relayout_memory_desc_destroy(dst_md);
    relayout_memory_desc_destroy(src_md);
    relayout_stream_destroy(strm);
    relayout_engine_destroy(eng);
    return ok ? 0 : 1;
}
