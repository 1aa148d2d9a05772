// benchdnn_lite — RAII layer over the C API.
#include "api.hpp"

namespace bdl {
namespace api {

void check(relayout_status_t status, const char *what) {
    if (status == relayout_success) return;
    std::string msg = std::string(what) + ": " + relayout_status2str(status);
    const char *detail = relayout_get_last_error_message();
    if (detail && *detail) msg += ": " + std::string(detail);
    throw error(status, msg);
}

namespace {
void to_c(const dims_t &v, relayout_dims_t out, const char *what) {
    if (v.size() > RELAYOUT_MAX_NDIMS)
        throw error(relayout_invalid_arguments, std::string(what) + ": too many dims");
    for (size_t i = 0; i < v.size(); ++i)
        out[i] = v[i];
}
md_t own_md(relayout_memory_desc_t md) {
    md_t r;
    r.h = own<relayout_memory_desc_t, relayout_memory_desc_destroy>(md);
    return r;
}
} // namespace

std::string md_t::str() const {
    char buf[512] = { 0 };
    check(relayout_memory_desc_to_string(get(), buf, sizeof(buf)), "memory_desc_to_string");
    return buf;
}

md_t md_t::with_extra(uint64_t flags, int comp_mask, int asymm_mask, float scale_adjust) const {
    md_t r = md_clone(get());
    check(relayout_memory_desc_set_extra(r.h.get(), flags, comp_mask, asymm_mask, scale_adjust),
            "memory_desc_set_extra");
    return r;
}

md_t md_with_tag(const dims_t &dims, relayout_data_type_t dt, relayout_format_tag_t tag) {
    relayout_dims_t d = { 0 };
    to_c(dims, d, "memory_desc_create_with_tag");
    relayout_memory_desc_t md = nullptr;
    check(relayout_memory_desc_create_with_tag(&md, int(dims.size()), d, dt, tag),
            "memory_desc_create_with_tag");
    return own_md(md);
}

md_t md_with_string_tag(const dims_t &dims, relayout_data_type_t dt, const std::string &tag) {
    relayout_dims_t d = { 0 };
    to_c(dims, d, "memory_desc_create_with_string_tag");
    relayout_memory_desc_t md = nullptr;
    check(relayout_memory_desc_create_with_string_tag(&md, int(dims.size()), d, dt, tag.c_str()),
            "memory_desc_create_with_string_tag");
    return own_md(md);
}

md_t md_with_strides(const dims_t &dims, relayout_data_type_t dt, const dims_t &strides) {
    relayout_dims_t d = { 0 }, s = { 0 };
    to_c(dims, d, "memory_desc_create_with_strides");
    to_c(strides, s, "memory_desc_create_with_strides");
    relayout_memory_desc_t md = nullptr;
    check(relayout_memory_desc_create_with_strides(&md, int(dims.size()), d, dt, s),
            "memory_desc_create_with_strides");
    return own_md(md);
}

md_t md_clone(const_relayout_memory_desc_t src) {
    relayout_memory_desc_t md = nullptr;
    check(relayout_memory_desc_clone(&md, src), "memory_desc_clone");
    return own_md(md);
}

engine_t make_engine(relayout_engine_kind_t kind, size_t index) {
    relayout_engine_t e = nullptr;
    check(relayout_engine_create(&e, kind, index), "engine_create");
    engine_t r;
    r.h = own<relayout_engine_t, relayout_engine_destroy>(e);
    return r;
}

size_t engine_count(relayout_engine_kind_t kind) {
    size_t n = 0;
    check(relayout_engine_get_count(kind, &n), "engine_get_count");
    return n;
}

void stream_t::wait() const {
    check(relayout_stream_wait(get()), "stream_wait");
}

stream_t make_stream(const engine_t &eng) {
    relayout_stream_t s = nullptr;
    check(relayout_stream_create(&s, eng.get(), 0), "stream_create");
    stream_t r;
    r.h = own<relayout_stream_t, relayout_stream_destroy>(s);
    return r;
}

memory_t make_memory(const md_t &md, const engine_t &eng, void *handle) {
    relayout_memory_t m = nullptr;
    check(relayout_memory_create(&m, md.get(), eng.get(), handle), "memory_create");
    memory_t r;
    r.h = own<relayout_memory_t, relayout_memory_destroy>(m);
    return r;
}

attr_t::attr_t() {
    relayout_primitive_attr_t a = nullptr;
    check(relayout_primitive_attr_create(&a), "primitive_attr_create");
    h = own<relayout_primitive_attr_t, relayout_primitive_attr_destroy>(a);
}

void attr_t::set_scales(int arg, int mask, const std::vector<float> &values) {
    check(relayout_primitive_attr_set_scales(
                  get(), arg, int64_t(values.size()), mask, values.data()),
            "primitive_attr_set_scales");
}

void attr_t::set_zero_point(int arg, int32_t zp) {
    check(relayout_primitive_attr_set_zero_point(get(), arg, zp), "primitive_attr_set_zero_point");
}

void attr_t::set_sum(float beta) {
    check(relayout_primitive_attr_set_post_ops_sum(get(), beta), "primitive_attr_set_post_ops_sum");
}

std::string pd_t::impl() const {
    const char *s = nullptr;
    check(relayout_primitive_desc_query_impl_info(get(), &s), "query_impl_info");
    return s ? s : "";
}

std::string pd_t::plan() const {
    const char *s = nullptr;
    check(relayout_primitive_desc_query_plan(get(), &s), "query_plan");
    return s ? s : "";
}

md_t pd_t::md(int which) const {
    const_relayout_memory_desc_t md = nullptr;
    check(relayout_primitive_desc_query_md(get(), which, &md), "query_md");
    return md_clone(md);
}

pd_t make_reorder_pd(const engine_t &src_eng, const md_t &src, const engine_t &dst_eng,
        const md_t &dst, const attr_t *attr) {
    relayout_primitive_desc_t pd = nullptr;
    check(relayout_reorder_primitive_desc_create(&pd, src.get(), src_eng.get(), dst.get(),
                  dst_eng.get(), attr ? attr->get() : nullptr),
            "reorder_primitive_desc_create");
    pd_t r;
    r.h = own<relayout_primitive_desc_t, relayout_primitive_desc_destroy>(pd);
    return r;
}

void reorder_t::execute(const stream_t &s, const memory_t &src, const memory_t &dst) const {
    const relayout_exec_arg_t args[2] = { { RELAYOUT_ARG_SRC, src.get() },
        { RELAYOUT_ARG_DST, dst.get() } };
    check(relayout_primitive_execute(get(), s.get(), 2, args), "primitive_execute");
}

reorder_t make_reorder(const pd_t &pd) {
    relayout_primitive_t p = nullptr;
    check(relayout_primitive_create(&p, pd.get()), "primitive_create");
    reorder_t r;
    r.h = own<relayout_primitive_t, relayout_primitive_destroy>(p);
    return r;
}

} // namespace api
} // namespace bdl
