/* relayout_dlpack.h from C99 (-pedantic -Werror): a DLTensor in, a reorder,
 * the result out as a DLManagedTensor that owns the memory. */
#include <stdio.h>
#include <string.h>

#include "relayout/relayout_dlpack.h"

#define CHECK(call)                                                                                \
    do {                                                                                           \
        relayout_status_t st_ = (call);                                                            \
        if (st_ != relayout_success) {                                                             \
            fprintf(stderr, "%s failed: %s\n", #call, relayout_get_last_error_message());          \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void) {
    float src[6] = { 0, 1, 2, 3, 4, 5 };
    int64_t shape[2] = { 2, 3 };
    DLTensor t;
    relayout_engine_t eng = NULL;
    relayout_stream_t s = NULL;
    relayout_memory_t sm = NULL, dm = NULL;
    relayout_memory_desc_t dmd = NULL;
    relayout_primitive_desc_t pd = NULL;
    relayout_primitive_t prim = NULL;
    relayout_exec_arg_t args[2];
    DLManagedTensor *out = NULL;
    const float *o;
    relayout_dims_t dims = { 2, 3 };

    memset(&t, 0, sizeof(t));
    t.data = src;
    t.device.device_type = kDLCPU;
    t.ndim = 2;
    t.dtype.code = kDLFloat;
    t.dtype.bits = 32;
    t.dtype.lanes = 1;
    t.shape = shape;

    CHECK(relayout_engine_create(&eng, relayout_cpu, 0));
    CHECK(relayout_stream_create(&s, eng, 0));
    CHECK(relayout_memory_create_from_dlpack(&sm, &t, eng));
    CHECK(relayout_memory_desc_create_with_tag(&dmd, 2, dims, relayout_f32, relayout_ba));
    CHECK(relayout_memory_create(&dm, dmd, eng, RELAYOUT_MEMORY_ALLOCATE));
    {
        const_relayout_memory_desc_t smd = NULL;
        CHECK(relayout_memory_get_memory_desc(sm, &smd));
        CHECK(relayout_reorder_primitive_desc_create(&pd, smd, eng, dmd, eng, NULL));
    }
    CHECK(relayout_primitive_create(&prim, pd));
    args[0].arg = RELAYOUT_ARG_SRC;
    args[0].memory = sm;
    args[1].arg = RELAYOUT_ARG_DST;
    args[1].memory = dm;
    CHECK(relayout_primitive_execute(prim, s, 2, args));
    CHECK(relayout_memory_export_dlpack(dm, &out)); /* out owns dm now */
    o = (const float *)out->dl_tensor.data;
    if (out->dl_tensor.strides[0] != 1 || out->dl_tensor.strides[1] != 2 || o[1] != 3.f
            || o[2] != 1.f) {
        fprintf(stderr, "unexpected export\n");
        return 1;
    }
    out->deleter(out);
    relayout_primitive_destroy(prim);
    relayout_primitive_desc_destroy(pd);
    relayout_memory_desc_destroy(dmd);
    relayout_memory_destroy(sm);
    relayout_stream_destroy(s);
    relayout_engine_destroy(eng);
    printf("dlpack_c_test: OK\n");
    return 0;
}
