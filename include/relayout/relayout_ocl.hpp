/*
 * relayout — C++ conveniences for OpenCL images and interop (header-only,
 * over relayout_image.h and relayout_ocl.h).
 *
 *   using namespace relayout;
 *   engine gpu(engine::kind::ocl, 0);
 *   auto img_md = image_desc(image_type::in_out_channel, {1, 3, 224, 224},
 *                            memory::data_type::f16);
 *   memory img(img_md, gpu);                     // an RGBA half image
 *   cl_mem m = ocl_interop::get_mem_object(img);
 */
#ifndef RELAYOUT_RELAYOUT_OCL_HPP
#define RELAYOUT_RELAYOUT_OCL_HPP

#include <string>
#include <utility>

#include "relayout/relayout.hpp"
#include "relayout/relayout_image.h"
#include "relayout/relayout_ocl.h"

namespace relayout {

/** The MACE buffer types (relayout_image.h has the layouts). */
enum class image_type {
    in_out_channel = relayout_image_in_out_channel,
    in_out_height = relayout_image_in_out_height,
    in_out_width = relayout_image_in_out_width,
    conv2d_filter = relayout_image_conv2d_filter,
    dw_conv2d_filter = relayout_image_dw_conv2d_filter,
    argument = relayout_image_argument,
    weight_height = relayout_image_weight_height,
    weight_width = relayout_image_weight_width,
    winograd_filter = relayout_image_winograd_filter,
};

/** A descriptor of `type` holding a tensor of logical dims `dims`
 *  (N,C,H,W for activations, O,I,H,W for filters, L for arguments) in
 *  pixels of `pixel_dt` (f32 or f16); winograd_b for winograd_filter. */
inline memory::desc image_desc(
        image_type type, const memory::dims &dims, memory::data_type pixel_dt, int winograd_b = 0) {
    relayout_dims_t d;
    detail::to_c_dims(dims, d, "image_desc");
    relayout_memory_desc_t md = nullptr;
    error::wrap_c_api(
            relayout_memory_desc_create_image2d(&md, static_cast<relayout_image_type_t>(type),
                    static_cast<int>(dims.size()), d, static_cast<relayout_data_type_t>(pixel_dt),
                    winograd_b),
            "image_desc");
    return memory::desc(md);
}

/** {width, height} of an image descriptor, in pixels. */
inline std::pair<int64_t, int64_t> image_shape(const memory::desc &md) {
    int64_t w = 0, h = 0;
    error::wrap_c_api(relayout_memory_desc_query_image_shape(md.get(), &w, &h), "image_shape");
    return { w, h };
}

inline const char *to_string(image_type t) {
    return relayout_image_type2str(static_cast<relayout_image_type_t>(t));
}

/** Parses "in_out_channel" or "IN_OUT_CHANNEL". */
inline image_type str2image_type(const std::string &s) {
    relayout_image_type_t t = relayout_image_type_undef;
    error::wrap_c_api(relayout_str2image_type(s.c_str(), &t), "str2image_type");
    return static_cast<image_type>(t);
}

namespace ocl_interop {

/** An ocl engine on the application's context and device (queue optional). */
inline engine make_engine(
        cl_device_id device, cl_context context, cl_command_queue queue = nullptr) {
    relayout_engine_t e = nullptr;
    error::wrap_c_api(
            relayout_ocl_engine_create(&e, device, context, queue), "ocl_interop::make_engine");
    return engine(e);
}

inline cl_context get_context(const engine &e) {
    cl_context c = nullptr;
    error::wrap_c_api(relayout_ocl_engine_get_context(e.get(), &c), "ocl_interop::get_context");
    return c;
}
inline cl_device_id get_device(const engine &e) {
    cl_device_id d = nullptr;
    error::wrap_c_api(relayout_ocl_engine_get_device(e.get(), &d), "ocl_interop::get_device");
    return d;
}
inline cl_command_queue get_queue(const engine &e) {
    cl_command_queue q = nullptr;
    error::wrap_c_api(relayout_ocl_engine_get_queue(e.get(), &q), "ocl_interop::get_queue");
    return q;
}

/** A memory over the application's cl_mem (retained while used). */
inline memory make_memory(const memory::desc &md, const engine &e, cl_mem mem_object) {
    return memory(md, e, static_cast<void *>(mem_object));
}

inline cl_mem get_mem_object(const memory &m) {
    cl_mem mem = nullptr;
    error::wrap_c_api(
            relayout_ocl_memory_get_mem_object(m.get(), &mem), "ocl_interop::get_mem_object");
    return mem;
}

inline void set_mem_object(const memory &m, cl_mem mem_object) {
    error::wrap_c_api(
            relayout_ocl_memory_set_mem_object(m.get(), mem_object), "ocl_interop::set_mem_object");
}

/** The OpenCL C an ocl:gen reorder generates (see relayout_ocl.h). */
inline std::string get_source(const reorder::primitive_desc &pd) {
    const char *s = nullptr;
    error::wrap_c_api(
            relayout_ocl_primitive_desc_query_source(pd.get(), &s), "ocl_interop::get_source");
    return s ? s : "";
}

} // namespace ocl_interop
} // namespace relayout

#endif
