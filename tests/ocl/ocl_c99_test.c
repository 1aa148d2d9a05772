/* relayout_image.h and relayout_ocl.h from C99: descriptors (no device
 * needed), then an engine and an image memory when a device exists. */
#include <stdio.h>
#include <string.h>

#include "relayout/relayout_ocl.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: %s\n", __FILE__, __LINE__, #cond,            \
                    relayout_get_last_error_message());                                            \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void) {
    relayout_memory_desc_t md = NULL;
    relayout_dims_t dims = { 8, 5, 3, 3 }; /* O, I, H, W */
    int64_t w = 0, h = 0;
    relayout_image_type_t t = relayout_image_type_undef;
    int b = 0;
    size_t n = 0;
    CHECK(relayout_memory_desc_create_image2d(
                  &md, relayout_image_winograd_filter, 4, dims, relayout_f16, 4)
            == relayout_success);
    CHECK(relayout_memory_desc_query_image_shape(md, &w, &h) == relayout_success);
    CHECK(w == 2 && h == 8 * 36); /* Ib x O*(b+2)^2 */
    CHECK(relayout_memory_desc_query_image_type(md, &t, &b) == relayout_success);
    CHECK(t == relayout_image_winograd_filter && b == 4);
    CHECK(relayout_memory_desc_get_size(md) == (size_t)(w * h * 4 * 2));
    CHECK(strcmp(relayout_image_type2str(t), "winograd_filter") == 0);
    CHECK(relayout_memory_desc_query_image_shape(NULL, &w, &h) == relayout_invalid_arguments);

    CHECK(relayout_engine_get_count(relayout_ocl, &n) == relayout_success);
    if (n > 0) {
        relayout_engine_t eng = NULL;
        relayout_memory_t mem = NULL;
        cl_context ctx = NULL;
        cl_mem image = NULL;
        CHECK(relayout_engine_create(&eng, relayout_ocl, 0) == relayout_success);
        CHECK(relayout_ocl_engine_get_context(eng, &ctx) == relayout_success && ctx != NULL);
        CHECK(relayout_memory_create(&mem, md, eng, RELAYOUT_MEMORY_ALLOCATE) == relayout_success);
        CHECK(relayout_ocl_memory_get_mem_object(mem, &image) == relayout_success && image != NULL);
        relayout_memory_destroy(mem);
        relayout_engine_destroy(eng);
    }
    relayout_memory_desc_destroy(md);
    printf("ocl_c99_test: ok (%zu OpenCL devices)\n", n);
    return 0;
}
