// benchdnn_lite — a minimal RAII layer over the public C API (relayout.h).
//
// Why not relayout.hpp: the driver must only rely on the ABI, and the C++
// wrapper is header-only convenience on top of it; going through the C
// functions directly keeps the driver working whatever happens to the
// wrapper (and exercises the C boundary every framework uses).
#ifndef BENCHDNN_LITE_API_HPP
#define BENCHDNN_LITE_API_HPP

#include <memory>
#include <string>
#include <vector>

#include "relayout/relayout.h"

namespace bdl {
namespace api {

using dims_t = std::vector<int64_t>;

struct error : public std::exception {
    relayout_status_t status;
    std::string message;
    error(relayout_status_t s, std::string m) : status(s), message(std::move(m)) {}
    const char *what() const noexcept override { return message.c_str(); }
};

// Throws api::error with the library's message when status is not success.
void check(relayout_status_t status, const char *what);

template <typename T, relayout_status_t (*destroy)(T)>
std::shared_ptr<typename std::remove_pointer<T>::type> own(T h) {
    return { h, [](T p) {
                if (p) destroy(p);
            } };
}

struct md_t {
    std::shared_ptr<relayout_memory_desc> h;
    const_relayout_memory_desc_t get() const { return h.get(); }
    size_t size() const { return relayout_memory_desc_get_size(get()); }
    std::string str() const;
    md_t with_extra(uint64_t flags, int comp_mask, int asymm_mask, float scale_adjust) const;
};

md_t md_with_tag(const dims_t &dims, relayout_data_type_t dt, relayout_format_tag_t tag);
md_t md_with_string_tag(const dims_t &dims, relayout_data_type_t dt, const std::string &tag);
md_t md_with_strides(const dims_t &dims, relayout_data_type_t dt, const dims_t &strides);
md_t md_clone(const_relayout_memory_desc_t md);

struct engine_t {
    std::shared_ptr<relayout_engine> h;
    relayout_engine_t get() const { return h.get(); }
};
engine_t make_engine(relayout_engine_kind_t kind, size_t index);
size_t engine_count(relayout_engine_kind_t kind);

struct stream_t {
    std::shared_ptr<relayout_stream> h;
    relayout_stream_t get() const { return h.get(); }
    void wait() const;
};
stream_t make_stream(const engine_t &eng);

struct memory_t {
    std::shared_ptr<relayout_memory> h;
    relayout_memory_t get() const { return h.get(); }
};
// handle: a user buffer, or RELAYOUT_MEMORY_ALLOCATE.
memory_t make_memory(const md_t &md, const engine_t &eng, void *handle);

struct attr_t {
    std::shared_ptr<relayout_primitive_attr> h;
    attr_t();
    relayout_primitive_attr_t get() const { return h.get(); }
    void set_scales(int arg, int mask, const std::vector<float> &values);
    void set_zero_point(int arg, int32_t zp);
    void set_sum(float beta);
};

struct pd_t {
    std::shared_ptr<relayout_primitive_desc> h;
    const_relayout_primitive_desc_t get() const { return h.get(); }
    std::string impl() const;
    std::string plan() const;
    md_t md(int which) const;
};
pd_t make_reorder_pd(const engine_t &src_eng, const md_t &src, const engine_t &dst_eng,
        const md_t &dst, const attr_t *attr);

struct reorder_t {
    std::shared_ptr<relayout_primitive> h;
    relayout_primitive_t get() const { return h.get(); }
    void execute(const stream_t &s, const memory_t &src, const memory_t &dst) const;
};
reorder_t make_reorder(const pd_t &pd);

} // namespace api
} // namespace bdl

#endif
