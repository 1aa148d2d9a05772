/*
 * relayout — header-only C++ API over the C API (relayout.h).
 *
 * Handles are reference counted (std::shared_ptr with the matching destroy
 * function); every failure throws relayout::error carrying the status and a
 * message that names the bad argument.
 *
 *   using namespace relayout;
 *   engine eng(engine::kind::cpu, 0);
 *   stream s(eng);
 *   memory::desc src_md({2, 17, 5, 3}, memory::data_type::f32,
 *           memory::format_tag::nchw);
 *   memory::desc dst_md({2, 17, 5, 3}, memory::data_type::f32,
 *           memory::format_tag::nChw16c);
 *   memory src(src_md, eng), dst(dst_md, eng);
 *   reorder(src, dst).execute(s, src, dst);
 */
#ifndef RELAYOUT_RELAYOUT_HPP
#define RELAYOUT_RELAYOUT_HPP

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "relayout/relayout.h"

namespace relayout {

/** The exception every failed call throws. */
struct error : public std::exception {
    relayout_status_t status;
    std::string message;

    error(relayout_status_t status, const std::string &what) : status(status), message(what) {}

    const char *what() const noexcept override { return message.c_str(); }

    /** Throws if status is not success; `what` names the failed call. */
    static void wrap_c_api(relayout_status_t status, const char *what) {
        if (status == relayout_success) return;
        std::string msg = std::string(what) + ": " + relayout_status2str(status);
        const char *detail = relayout_get_last_error_message();
        if (detail && *detail) msg += ": " + std::string(detail);
        msg += " (run with RELAYOUT_VERBOSE=all for details)";
        throw error(status, msg);
    }
};

namespace detail {
template <typename T, relayout_status_t (*destroy)(T)>
std::shared_ptr<typename std::remove_pointer<T>::type> make_handle(T h) {
    return std::shared_ptr<typename std::remove_pointer<T>::type>(h, [](T p) { destroy(p); });
}
template <typename C>
void to_c_dims(const C &v, relayout_dims_t out, const char *what) {
    if (v.size() > RELAYOUT_MAX_NDIMS)
        throw error(relayout_invalid_arguments, std::string(what) + ": more than 12 dimensions");
    for (size_t i = 0; i < v.size(); ++i)
        out[i] = static_cast<relayout_dim_t>(v[i]);
}
} // namespace detail

/** Caps the ISA of kernels created from now on (wins over the env var). */
inline void set_max_cpu_isa(relayout_cpu_isa_t isa) {
    error::wrap_c_api(relayout_set_max_cpu_isa(isa), "set_max_cpu_isa");
}
inline relayout_cpu_isa_t get_effective_cpu_isa() {
    return relayout_get_effective_cpu_isa();
}
inline void set_verbose(int level) {
    error::wrap_c_api(relayout_set_verbose(level), "set_verbose");
}
inline void set_num_threads(int nthr) {
    error::wrap_c_api(relayout_set_num_threads(nthr), "set_num_threads");
}
inline void set_primitive_cache_capacity(int capacity) {
    error::wrap_c_api(
            relayout_set_primitive_cache_capacity(capacity), "set_primitive_cache_capacity");
}
inline int get_primitive_cache_capacity() {
    int c = 0;
    error::wrap_c_api(relayout_get_primitive_cache_capacity(&c), "get_primitive_cache_capacity");
    return c;
}

/** An execution engine: the CPU, an OpenCL device or an NPU. */
struct engine {
    enum class kind {
        any = relayout_any_engine,
        cpu = relayout_cpu,
        ocl = relayout_ocl,
        npu = relayout_npu,
    };

    engine() = default;
    engine(kind akind, size_t index) {
        relayout_engine_t e = nullptr;
        error::wrap_c_api(
                relayout_engine_create(&e, static_cast<relayout_engine_kind_t>(akind), index),
                "engine create");
        handle_ = detail::make_handle<relayout_engine_t, relayout_engine_destroy>(e);
    }
    /** Wraps a C handle; `weak` does not take ownership. */
    explicit engine(relayout_engine_t e, bool weak = false) {
        if (weak)
            handle_ = std::shared_ptr<relayout_engine>(e, [](relayout_engine_t) {});
        else
            handle_ = detail::make_handle<relayout_engine_t, relayout_engine_destroy>(e);
    }

    static size_t get_count(kind akind) {
        size_t n = 0;
        error::wrap_c_api(relayout_engine_get_count(static_cast<relayout_engine_kind_t>(akind), &n),
                "engine get_count");
        return n;
    }

    kind get_kind() const {
        relayout_engine_kind_t k;
        error::wrap_c_api(relayout_engine_get_kind(get(), &k), "engine get_kind");
        return static_cast<kind>(k);
    }

    relayout_engine_t get() const {
        if (!handle_) throw error(relayout_invalid_arguments, "engine: empty object");
        return handle_.get();
    }
    explicit operator bool() const { return bool(handle_); }

private:
    std::shared_ptr<relayout_engine> handle_;
};

/** An execution stream on an engine. CPU streams are in-order and
 *  execution is blocking. */
struct stream {
    stream() = default;
    explicit stream(const engine &aengine, unsigned flags = 0) {
        relayout_stream_t s = nullptr;
        error::wrap_c_api(relayout_stream_create(&s, aengine.get(), flags), "stream create");
        handle_ = detail::make_handle<relayout_stream_t, relayout_stream_destroy>(s);
    }
    stream &wait() {
        error::wrap_c_api(relayout_stream_wait(get()), "stream wait");
        return *this;
    }
    relayout_stream_t get() const {
        if (!handle_) throw error(relayout_invalid_arguments, "stream: empty object");
        return handle_.get();
    }

private:
    std::shared_ptr<relayout_stream> handle_;
};

/** A memory object: a descriptor, an engine and a buffer. */
struct memory {
    using dim = int64_t;
    using dims = std::vector<dim>;

    enum class data_type {
        undef = relayout_data_type_undef,
        f16 = relayout_f16,
        bf16 = relayout_bf16,
        f32 = relayout_f32,
        s32 = relayout_s32,
        s8 = relayout_s8,
        u8 = relayout_u8,
        s16 = relayout_s16,
        u16 = relayout_u16,
    };

    enum class format_kind {
        undef = relayout_format_kind_undef,
        any = relayout_format_kind_any,
        blocked = relayout_blocked,
        image2d = relayout_format_kind_image2d,
        npu_local = relayout_format_kind_npu_local,
    };

    enum class format_tag {
        undef = relayout_format_tag_undef,
        any = relayout_format_tag_any,
#define RELAYOUT_TAG(name, str) name = relayout_##name,
#define RELAYOUT_TAG_ALIAS(alias, name) alias = relayout_##alias,
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
    };

    /** Size of one element of `dt` in bytes. */
    static size_t data_type_size(data_type dt) {
        return relayout_data_type_size(static_cast<relayout_data_type_t>(dt));
    }

    /** A memory descriptor: logical dims, data type and physical layout. */
    struct desc {
        /** A zero (empty) descriptor. */
        desc() = default;

        desc(const memory::dims &adims, memory::data_type adt, format_tag atag,
                bool allow_empty = false) {
            relayout_dims_t d;
            detail::to_c_dims(adims, d, "memory::desc");
            relayout_memory_desc_t md = nullptr;
            auto st = relayout_memory_desc_create_with_tag(&md, static_cast<int>(adims.size()), d,
                    static_cast<relayout_data_type_t>(adt),
                    static_cast<relayout_format_tag_t>(atag));
            finish(st, md, allow_empty, "memory::desc (tag)");
        }

        desc(const memory::dims &adims, memory::data_type adt, const std::string &atag,
                bool allow_empty = false) {
            relayout_dims_t d;
            detail::to_c_dims(adims, d, "memory::desc");
            relayout_memory_desc_t md = nullptr;
            auto st =
                    relayout_memory_desc_create_with_string_tag(&md, static_cast<int>(adims.size()),
                            d, static_cast<relayout_data_type_t>(adt), atag.c_str());
            finish(st, md, allow_empty, "memory::desc (string tag)");
        }
        desc(const memory::dims &adims, memory::data_type adt, const char *atag,
                bool allow_empty = false)
                : desc(adims, adt, std::string(atag ? atag : ""), allow_empty) {}

        desc(const memory::dims &adims, memory::data_type adt, const memory::dims &strides,
                bool allow_empty = false) {
            relayout_dims_t d, s;
            detail::to_c_dims(adims, d, "memory::desc");
            if (!strides.empty() && strides.size() != adims.size())
                throw error(relayout_invalid_arguments,
                        "memory::desc: strides has " + std::to_string(strides.size())
                                + " values for " + std::to_string(adims.size()) + " dims");
            detail::to_c_dims(strides, s, "memory::desc");
            relayout_memory_desc_t md = nullptr;
            auto st = relayout_memory_desc_create_with_strides(&md, static_cast<int>(adims.size()),
                    d, static_cast<relayout_data_type_t>(adt), strides.empty() ? nullptr : s);
            finish(st, md, allow_empty, "memory::desc (strides)");
        }

        /** Wraps a C handle and takes ownership of it. */
        explicit desc(relayout_memory_desc_t md) {
            if (md)
                handle_ = detail::make_handle<relayout_memory_desc_t, relayout_memory_desc_destroy>(
                        md);
        }

        desc submemory_desc(const memory::dims &adims, const memory::dims &offsets,
                bool allow_empty = false) const {
            relayout_dims_t d, o;
            detail::to_c_dims(adims, d, "submemory_desc");
            detail::to_c_dims(offsets, o, "submemory_desc");
            if (adims.size() != offsets.size() || (int)adims.size() != get_ndims())
                return fail_or_empty(allow_empty, "submemory_desc: memory::dims and offsets "
                                                  "must both have ndims values");
            relayout_memory_desc_t md = nullptr;
            auto st = relayout_memory_desc_create_submemory(&md, get(), d, o);
            desc r;
            r.finish(st, md, allow_empty, "submemory_desc");
            return r;
        }

        desc reshape(const memory::dims &adims, bool allow_empty = false) const {
            relayout_dims_t d;
            detail::to_c_dims(adims, d, "reshape");
            relayout_memory_desc_t md = nullptr;
            auto st = relayout_memory_desc_reshape(&md, get(), static_cast<int>(adims.size()), d);
            desc r;
            r.finish(st, md, allow_empty, "reshape");
            return r;
        }

        desc permute_axes(const std::vector<int> &permutation, bool allow_empty = false) const {
            if ((int)permutation.size() != get_ndims())
                return fail_or_empty(
                        allow_empty, "permute_axes: permutation must have ndims values");
            relayout_memory_desc_t md = nullptr;
            auto st = relayout_memory_desc_permute_axes(&md, get(), permutation.data());
            desc r;
            r.finish(st, md, allow_empty, "permute_axes");
            return r;
        }

        /** The layout `aengine` prefers for this descriptor when it is
         *  format_tag::any (see relayout_memory_desc_create_preferred);
         *  other descriptors come back unchanged. */
        desc preferred(const engine &aengine) const {
            relayout_memory_desc_t md = nullptr;
            error::wrap_c_api(relayout_memory_desc_create_preferred(&md, get(false), aengine.get()),
                    "memory::desc preferred");
            return desc(md);
        }

        /** A copy with the extra section set (int8 weights compensation). */
        desc with_extra(uint64_t flags, int compensation_mask, int asymm_compensation_mask = 0,
                float scale_adjust = 1.f) const {
            relayout_memory_desc_t md = nullptr;
            error::wrap_c_api(relayout_memory_desc_clone(&md, get()), "with_extra");
            desc r(md);
            error::wrap_c_api(relayout_memory_desc_set_extra(md, flags, compensation_mask,
                                      asymm_compensation_mask, scale_adjust),
                    "with_extra");
            return r;
        }

        int get_ndims() const { return handle_ ? query_int(relayout_query_ndims_s32) : 0; }
        memory::dims get_dims() const { return query_dims(relayout_query_dims); }
        memory::dims dims() const { return get_dims(); }
        memory::dims get_padded_dims() const { return query_dims(relayout_query_padded_dims); }
        memory::dims get_padded_offsets() const {
            return query_dims(relayout_query_padded_offsets);
        }
        memory::dims get_strides() const { return query_dims(relayout_query_strides); }
        dim get_offset0() const {
            if (!handle_) return 0;
            relayout_dim_t v = 0;
            error::wrap_c_api(relayout_memory_desc_query(get(), relayout_query_offset0_s64, &v),
                    "desc query");
            return v;
        }
        int get_inner_nblks() const {
            return handle_ ? query_int(relayout_query_inner_nblks_s32) : 0;
        }
        memory::dims get_inner_blks() const {
            return query_n(relayout_query_inner_blks, get_inner_nblks());
        }
        memory::dims get_inner_idxs() const {
            return query_n(relayout_query_inner_idxs, get_inner_nblks());
        }
        memory::data_type get_data_type() const {
            if (!handle_) return memory::data_type::undef;
            relayout_data_type_t dt;
            error::wrap_c_api(
                    relayout_memory_desc_query(get(), relayout_query_data_type, &dt), "desc query");
            return static_cast<memory::data_type>(dt);
        }
        memory::data_type data_type() const { return get_data_type(); }
        memory::format_kind get_format_kind() const {
            if (!handle_) return memory::format_kind::undef;
            relayout_format_kind_t k;
            error::wrap_c_api(relayout_memory_desc_query(get(), relayout_query_format_kind, &k),
                    "desc query");
            return static_cast<memory::format_kind>(k);
        }
        uint64_t get_extra_flags() const {
            if (!handle_) return 0;
            uint64_t f = 0;
            error::wrap_c_api(relayout_memory_desc_query(get(), relayout_query_extra_flags_u64, &f),
                    "desc query");
            return f;
        }

        /** Bytes of a buffer for this descriptor (padding, compensation). */
        size_t get_size() const { return handle_ ? relayout_memory_desc_get_size(get()) : 0; }
        bool is_zero() const { return get_ndims() == 0; }

        std::string str() const {
            if (!handle_) return "undef";
            char buf[512];
            error::wrap_c_api(
                    relayout_memory_desc_to_string(get(), buf, sizeof(buf)), "desc to_string");
            return buf;
        }

        bool operator==(const desc &other) const {
            return relayout_memory_desc_equal(
                           handle_ ? get() : nullptr, other.handle_ ? other.get() : nullptr)
                   != 0;
        }
        bool operator!=(const desc &other) const { return !(*this == other); }

        /** The C handle (nullptr for a zero descriptor). */
        const_relayout_memory_desc_t get(bool allow_empty = true) const {
            if (!handle_ && !allow_empty)
                throw error(relayout_invalid_arguments, "memory::desc: empty object");
            return handle_.get();
        }

    private:
        void finish(relayout_status_t st, relayout_memory_desc_t md, bool allow_empty,
                const char *what) {
            if (st != relayout_success) {
                if (allow_empty) return;
                error::wrap_c_api(st, what);
            }
            handle_ = detail::make_handle<relayout_memory_desc_t, relayout_memory_desc_destroy>(md);
        }
        static desc fail_or_empty(bool allow_empty, const char *what) {
            if (allow_empty) return desc();
            throw error(relayout_invalid_arguments, what);
        }
        int query_int(relayout_query_t q) const {
            int v = 0;
            error::wrap_c_api(relayout_memory_desc_query(get(), q, &v), "desc query");
            return v;
        }
        memory::dims query_n(relayout_query_t q, int n) const {
            if (!handle_) return {};
            const relayout_dim_t *p = nullptr;
            error::wrap_c_api(relayout_memory_desc_query(get(), q, &p), "desc query");
            return memory::dims(p, p + n);
        }
        memory::dims query_dims(relayout_query_t q) const { return query_n(q, get_ndims()); }

        std::shared_ptr<relayout_memory_desc> handle_;
    };

    memory() = default;

    /** A memory whose buffer the library allocates (and owns). */
    memory(const desc &md, const engine &aengine) : memory(md, aengine, RELAYOUT_MEMORY_ALLOCATE) {}

    /** A memory over a user buffer; its padding area is zero-filled. */
    memory(const desc &md, const engine &aengine, void *handle) {
        relayout_memory_t m = nullptr;
        error::wrap_c_api(
                relayout_memory_create(&m, md.get(), aengine.get(), handle), "memory create");
        handle_ = detail::make_handle<relayout_memory_t, relayout_memory_destroy>(m);
    }

    desc get_desc() const {
        const_relayout_memory_desc_t md = nullptr;
        error::wrap_c_api(relayout_memory_get_memory_desc(get(), &md), "memory get_desc");
        if (!md) return desc();
        relayout_memory_desc_t copy = nullptr;
        error::wrap_c_api(relayout_memory_desc_clone(&copy, md), "memory get_desc");
        return desc(copy);
    }
    engine get_engine() const {
        relayout_engine_t e = nullptr;
        error::wrap_c_api(relayout_memory_get_engine(get(), &e), "memory get_engine");
        return engine(e, true);
    }
    void *get_data_handle() const {
        void *h = nullptr;
        error::wrap_c_api(relayout_memory_get_data_handle(get(), &h), "memory get_data_handle");
        return h;
    }
    /** Sets the buffer and zero-fills its padding area. */
    void set_data_handle(void *handle) const {
        error::wrap_c_api(relayout_memory_set_data_handle(get(), handle), "memory set_data_handle");
    }
    void set_data_handle(void *handle, const stream &) const {
        set_data_handle(handle);
    }

    relayout_memory_t get() const {
        if (!handle_) throw error(relayout_invalid_arguments, "memory: empty object");
        return handle_.get();
    }
    explicit operator bool() const {
        return bool(handle_);
    }

private:
    std::shared_ptr<relayout_memory> handle_;
};

/** Primitive attributes: scales, zero points and the sum post-op. */
struct primitive_attr {
    primitive_attr() {
        relayout_primitive_attr_t a = nullptr;
        error::wrap_c_api(relayout_primitive_attr_create(&a), "primitive_attr create");
        handle_ =
                detail::make_handle<relayout_primitive_attr_t, relayout_primitive_attr_destroy>(a);
    }

    /** arg: RELAYOUT_ARG_SRC or RELAYOUT_ARG_DST. mask 0: one common value. */
    void set_scales(int arg, int mask, const std::vector<float> &scales) {
        error::wrap_c_api(relayout_primitive_attr_set_scales(get(), arg,
                                  static_cast<int64_t>(scales.size()), mask, scales.data()),
                "primitive_attr set_scales");
    }
    /** oneDNN 2.x spelling: output scales are source scales here. */
    void set_output_scales(int mask, const std::vector<float> &scales) {
        set_scales(RELAYOUT_ARG_SRC, mask, scales);
    }
    void set_zero_points(int arg, int32_t zero_point) {
        error::wrap_c_api(relayout_primitive_attr_set_zero_point(get(), arg, zero_point),
                "primitive_attr set_zero_points");
    }
    /** dst = ... + beta * (dst_old - dst_zp). */
    void set_post_ops_sum(float beta) {
        error::wrap_c_api(relayout_primitive_attr_set_post_ops_sum(get(), beta),
                "primitive_attr set_post_ops_sum");
    }

    relayout_primitive_attr_t get() const { return handle_.get(); }

private:
    std::shared_ptr<relayout_primitive_attr> handle_;
};

/** The reorder primitive: copies src into dst, converting the layout and
 *  the data type and applying the attributes. */
struct reorder {
    struct primitive_desc {
        primitive_desc() = default;

        // The forms without an attribute pass none to the C API: a default
        // primitive_attr would cost two allocations on every creation.
        primitive_desc(const engine &src_engine, const memory::desc &src_md,
                const engine &dst_engine, const memory::desc &dst_md, bool allow_empty = false) {
            init(src_engine, src_md, dst_engine, dst_md, nullptr, allow_empty);
        }
        primitive_desc(const engine &src_engine, const memory::desc &src_md,
                const engine &dst_engine, const memory::desc &dst_md, const primitive_attr &attr,
                bool allow_empty = false) {
            init(src_engine, src_md, dst_engine, dst_md, attr.get(), allow_empty);
        }

        /** Wraps a C handle and takes ownership of it. */
        explicit primitive_desc(relayout_primitive_desc_t pd) {
            if (pd)
                handle_ = detail::make_handle<relayout_primitive_desc_t,
                        relayout_primitive_desc_destroy>(pd);
        }

        primitive_desc(const memory &src, const memory &dst, bool allow_empty = false)
                : primitive_desc(src.get_engine(), src.get_desc(), dst.get_engine(), dst.get_desc(),
                        allow_empty) {}
        primitive_desc(const memory &src, const memory &dst, const primitive_attr &attr,
                bool allow_empty = false)
                : primitive_desc(src.get_engine(), src.get_desc(), dst.get_engine(), dst.get_desc(),
                        attr, allow_empty) {}

        /** The chain mds[0] -> ... -> mds[n-1] as one reorder when that is
         *  equivalent (see relayout_reorder_chain_primitive_desc_create);
         *  `attrs` is empty or has one attribute per step. */
        static primitive_desc chain(const engine &src_engine, const std::vector<memory::desc> &mds,
                const engine &dst_engine, const std::vector<primitive_attr> &attrs = {}) {
            std::vector<const_relayout_memory_desc_t> c_mds;
            for (const auto &m : mds)
                c_mds.push_back(m.get(false));
            std::vector<const_relayout_primitive_attr_t> c_attrs;
            for (const auto &a : attrs)
                c_attrs.push_back(a.get());
            if (!attrs.empty() && attrs.size() + 1 != mds.size())
                throw error(relayout_invalid_arguments,
                        "reorder chain: attrs must be empty or have one entry per step");
            relayout_primitive_desc_t pd = nullptr;
            error::wrap_c_api(relayout_reorder_chain_primitive_desc_create(&pd,
                                      static_cast<int>(c_mds.size()), c_mds.data(),
                                      attrs.empty() ? nullptr : c_attrs.data(), src_engine.get(),
                                      dst_engine.get()),
                    "reorder chain");
            return primitive_desc(pd);
        }

        /** Implementation name, e.g. "jit:avx512_core:transpose". */
        std::string impl_info_str() const {
            const char *s = nullptr;
            error::wrap_c_api(relayout_primitive_desc_query_impl_info(get(), &s), "impl_info_str");
            return s ? s : "";
        }
        /** The plan in one line. */
        std::string plan_str() const {
            const char *s = nullptr;
            error::wrap_c_api(relayout_primitive_desc_query_plan(get(), &s), "plan_str");
            return s ? s : "";
        }
        memory::desc src_desc() const { return query_md(RELAYOUT_ARG_SRC); }
        memory::desc dst_desc() const { return query_md(RELAYOUT_ARG_DST); }

        const_relayout_primitive_desc_t get() const {
            if (!handle_)
                throw error(relayout_invalid_arguments, "reorder::primitive_desc: empty object");
            return handle_.get();
        }
        explicit operator bool() const { return bool(handle_); }

    private:
        void init(const engine &src_engine, const memory::desc &src_md, const engine &dst_engine,
                const memory::desc &dst_md, const_relayout_primitive_attr_t attr,
                bool allow_empty) {
            relayout_primitive_desc_t pd = nullptr;
            auto st = relayout_reorder_primitive_desc_create(
                    &pd, src_md.get(), src_engine.get(), dst_md.get(), dst_engine.get(), attr);
            if (st != relayout_success) {
                if (allow_empty) return;
                error::wrap_c_api(st, "reorder primitive_desc create");
            }
            handle_ =
                    detail::make_handle<relayout_primitive_desc_t, relayout_primitive_desc_destroy>(
                            pd);
        }
        memory::desc query_md(int which) const {
            const_relayout_memory_desc_t md = nullptr;
            error::wrap_c_api(
                    relayout_primitive_desc_query_md(get(), which, &md), "primitive_desc query_md");
            relayout_memory_desc_t copy = nullptr;
            if (md)
                error::wrap_c_api(relayout_memory_desc_clone(&copy, md), "primitive_desc query_md");
            return memory::desc(copy);
        }
        std::shared_ptr<relayout_primitive_desc> handle_;
    };

    reorder() = default;

    explicit reorder(const primitive_desc &pd) {
        relayout_primitive_t p = nullptr;
        error::wrap_c_api(relayout_primitive_create(&p, pd.get()), "reorder create");
        handle_ = detail::make_handle<relayout_primitive_t, relayout_primitive_destroy>(p);
    }

    reorder(const memory &src, const memory &dst) : reorder(primitive_desc(src, dst)) {}
    reorder(const memory &src, const memory &dst, const primitive_attr &attr)
            : reorder(primitive_desc(src, dst, attr)) {}

    void execute(const stream &astream, const memory &src, const memory &dst) const {
        relayout_exec_arg_t args[2] = { { RELAYOUT_ARG_SRC, src.get() },
            { RELAYOUT_ARG_DST, dst.get() } };
        error::wrap_c_api(
                relayout_primitive_execute(get(), astream.get(), 2, args), "reorder execute");
    }
    void execute(const stream &astream, const std::unordered_map<int, memory> &args) const {
        std::vector<relayout_exec_arg_t> c_args;
        for (const auto &a : args)
            c_args.push_back({ a.first, a.second.get() });
        error::wrap_c_api(relayout_primitive_execute(get(), astream.get(),
                                  static_cast<int>(c_args.size()), c_args.data()),
                "reorder execute");
    }

    primitive_desc get_primitive_desc() const {
        const_relayout_primitive_desc_t pd = nullptr;
        error::wrap_c_api(relayout_primitive_get_primitive_desc(get(), &pd), "get_primitive_desc");
        relayout_primitive_desc_t copy = nullptr;
        error::wrap_c_api(relayout_primitive_desc_clone(&copy, pd), "get_primitive_desc");
        return primitive_desc(copy);
    }

    relayout_primitive_t get() const {
        if (!handle_) throw error(relayout_invalid_arguments, "reorder: empty object");
        return handle_.get();
    }

private:
    std::shared_ptr<relayout_primitive> handle_;
};

} // namespace relayout

#endif /* RELAYOUT_RELAYOUT_HPP */
