// relayout for Python (pybind11 + numpy). A thin layer over the public C++
// API (relayout.hpp) and the DLPack header: every check and message comes
// from the library; this file only converts Python values.
//
//   import numpy as np, relayout
//   x = np.random.rand(2, 17, 5, 3).astype(np.float32)
//   t = relayout.reorder(x, "abcd", "aBcd16b")      # blocked: a relayout.Tensor
//   y = t.to_numpy()                                 # back to plain abcd
//   q = relayout.reorder(x, None, "acdb", dtype="s8", dst_scale=0.05)
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "relayout/relayout.hpp"
#include "relayout/relayout_dlpack.h"

namespace py = pybind11;
using namespace relayout;
using dt_t = memory::data_type;

namespace {

// ---- errors ---------------------------------------------------------------

PyObject *g_error_type = nullptr; // relayout.Error

[[noreturn]] void throw_invalid(const std::string &msg) {
    throw error(relayout_invalid_arguments, msg);
}

// ---- engine / stream --------------------------------------------------------

const engine &cpu_engine() {
    static const engine e(engine::kind::cpu, 0);
    return e;
}
const stream &cpu_stream() {
    thread_local const stream s(cpu_engine());
    return s;
}

// ---- data types ---------------------------------------------------------------

const std::map<std::string, dt_t> &dt_names() {
    static const std::map<std::string, dt_t> m = { { "f16", dt_t::f16 }, { "float16", dt_t::f16 },
        { "bf16", dt_t::bf16 }, { "bfloat16", dt_t::bf16 }, { "f32", dt_t::f32 },
        { "float32", dt_t::f32 }, { "s32", dt_t::s32 }, { "int32", dt_t::s32 }, { "s8", dt_t::s8 },
        { "int8", dt_t::s8 }, { "u8", dt_t::u8 }, { "uint8", dt_t::u8 }, { "s16", dt_t::s16 },
        { "int16", dt_t::s16 }, { "u16", dt_t::u16 }, { "uint16", dt_t::u16 } };
    return m;
}

// numpy dtype -> relayout data type (uint16 is u16; bf16 must be asked for).
dt_t dt_from_numpy(const py::dtype &d) {
    const std::string order = py::str(d.attr("byteorder"));
    if (order == ">")
        throw error(relayout_unimplemented,
                "numpy dtype " + std::string(py::str(static_cast<const py::handle &>(d)))
                        + " is big-endian; convert with .astype(dtype.newbyteorder('='))");
    const char k = d.kind();
    const auto n = d.itemsize();
    if (k == 'f' && n == 2) return dt_t::f16;
    if (k == 'f' && n == 4) return dt_t::f32;
    if (k == 'i' && n == 4) return dt_t::s32;
    if (k == 'i' && n == 1) return dt_t::s8;
    if (k == 'u' && n == 1) return dt_t::u8;
    if (k == 'i' && n == 2) return dt_t::s16;
    if (k == 'u' && n == 2) return dt_t::u16;
    throw error(relayout_unimplemented,
            "numpy dtype " + std::string(py::str(static_cast<const py::handle &>(d)))
                    + " has no relayout data type "
                      "(float16, float32, int32, int8, uint8, int16, uint16; bf16 is uint16 "
                      "storage with dtype='bf16')");
}

py::dtype numpy_dtype(dt_t dt) {
    switch (dt) {
        case dt_t::f16: return py::dtype("float16");
        case dt_t::bf16: return py::dtype("uint16"); // bf16 bits
        case dt_t::f32: return py::dtype("float32");
        case dt_t::s32: return py::dtype("int32");
        case dt_t::s8: return py::dtype("int8");
        case dt_t::u8: return py::dtype("uint8");
        case dt_t::s16: return py::dtype("int16");
        case dt_t::u16: return py::dtype("uint16");
        default: throw_invalid("data type undef has no numpy dtype");
    }
}

// A relayout.data_type, a name ("f32", "bf16", "int8") or a numpy dtype.
dt_t to_dt(py::handle h) {
    if (py::isinstance<dt_t>(h)) return h.cast<dt_t>();
    if (py::isinstance<py::str>(h)) {
        const std::string s = h.cast<std::string>();
        auto it = dt_names().find(s);
        if (it != dt_names().end()) return it->second;
        throw_invalid("data type '" + s + "' is not one of f16, bf16, f32, s32, s8, u8, s16, u16");
    }
    try {
        return dt_from_numpy(py::dtype::from_args(py::reinterpret_borrow<py::object>(h)));
    } catch (const py::error_already_set &) {
        throw_invalid("data type " + std::string(py::repr(h))
                      + " is not a relayout.data_type, a name or a numpy dtype");
    }
}

// ---- format tags ----------------------------------------------------------------

const std::map<std::string, relayout_format_tag_t> &tag_names() {
    static const std::map<std::string, relayout_format_tag_t> m = [] {
        std::map<std::string, relayout_format_tag_t> r;
#define RELAYOUT_TAG(name, str) r[#name] = relayout_##name;
#define RELAYOUT_TAG_ALIAS(alias, name) r[#alias] = relayout_##alias;
#include "relayout/relayout_format_tags.h"
#undef RELAYOUT_TAG
#undef RELAYOUT_TAG_ALIAS
        return r;
    }();
    return m;
}

bool is_tag(py::handle h) {
    return py::isinstance<py::str>(h) || py::isinstance<memory::format_tag>(h);
}

// A desc from dims and a tag: a relayout.format_tag, an enum name ("nchw",
// "OIhw16i16o") or any string tag ("aBcd16b", "abx").
memory::desc desc_from_tag(const memory::dims &dims, dt_t dt, py::handle tag) {
    if (py::isinstance<memory::format_tag>(tag))
        return memory::desc(dims, dt, tag.cast<memory::format_tag>());
    const std::string s = tag.cast<std::string>();
    auto it = tag_names().find(s);
    if (it != tag_names().end())
        return memory::desc(dims, dt, static_cast<memory::format_tag>(it->second));
    return memory::desc(dims, dt, s);
}

memory::dims to_dims(py::handle h, const char *what) {
    try {
        return h.cast<memory::dims>();
    } catch (const py::cast_error &) {
        throw_invalid(
                std::string(what) + " must be a sequence of ints, got " + std::string(py::repr(h)));
    }
}

// dims, dtype, then a tag, a strides sequence or None (row-major).
memory::desc make_desc(py::handle dims_h, py::handle dt_h, py::handle layout) {
    const memory::dims dims = to_dims(dims_h, "dims");
    const dt_t dt = to_dt(dt_h);
    if (layout.is_none()) return memory::desc(dims, dt, memory::dims{});
    if (is_tag(layout)) return desc_from_tag(dims, dt, layout);
    return memory::desc(dims, dt, to_dims(layout, "strides"));
}

bool is_plain(const memory::desc &md) {
    if (md.is_zero()) return false;
    return relayout_memory_desc_is_dlpack_compatible(md.get()) != 0;
}

std::string format_kind_str(memory::format_kind k) {
    switch (k) {
        case memory::format_kind::blocked: return "blocked";
        case memory::format_kind::any: return "any";
        case memory::format_kind::image2d: return "image2d";
        case memory::format_kind::npu_local: return "npu_local";
        default: return "undef";
    }
}

// ---- tensors ------------------------------------------------------------------------

// What a Tensor holds: the memory, plus whatever keeps a foreign buffer
// alive (a DLPack producer's tensor, a numpy array).
struct tensor_state_t {
    memory mem;
    std::shared_ptr<void> keepalive;
    py::object py_keepalive; // only touched with the GIL held
    ~tensor_state_t() {
        if (py_keepalive) {
            py::gil_scoped_acquire gil;
            py_keepalive = py::object();
        }
    }
};

struct tensor_t {
    std::shared_ptr<tensor_state_t> st;

    memory::desc desc() const { return st->mem.get_desc(); }
    void *data() const { return st->mem.get_data_handle(); }

    // A numpy array over `count` elements from `byte_off`, shape/strides as
    // given, keeping this tensor's state alive.
    py::array view(dt_t dt, std::vector<py::ssize_t> shape, std::vector<py::ssize_t> strides,
            size_t byte_off) const {
        auto *keep = new std::shared_ptr<tensor_state_t>(st);
        py::capsule base(
                keep, [](void *p) { delete static_cast<std::shared_ptr<tensor_state_t> *>(p); });
        char *ptr = static_cast<char *>(data());
        if (!ptr) {
            static char dummy[64];
            ptr = dummy; // zero-volume: numpy wants a pointer anyway
            byte_off = 0;
        }
        return py::array(numpy_dtype(dt), shape, strides, ptr + byte_off, base);
    }
};

tensor_t new_tensor(const memory::desc &md) {
    tensor_t t;
    t.st = std::make_shared<tensor_state_t>();
    t.st->mem = memory(md, cpu_engine()); // zero-filled by the library
    return t;
}

// The whole physical buffer as a 1-D array typed by the element type.
py::array tensor_buffer(const tensor_t &t) {
    const memory::desc md = t.desc();
    const dt_t dt = md.get_data_type();
    const size_t es = memory::data_type_size(dt);
    const size_t n = md.get_size() / es;
    return t.view(dt, { static_cast<py::ssize_t>(n) }, { static_cast<py::ssize_t>(es) }, 0);
}

// A zero-copy numpy view with the logical shape; plain layouts only.
py::array tensor_view(const tensor_t &t) {
    const memory::desc md = t.desc();
    if (!is_plain(md))
        throw error(relayout_unimplemented,
                "Tensor " + md.str()
                        + " is not a plain strided layout; numpy cannot view it "
                          "(use to_numpy() to reorder it to a plain layout)");
    const dt_t dt = md.get_data_type();
    const auto es = static_cast<py::ssize_t>(memory::data_type_size(dt));
    std::vector<py::ssize_t> shape, strides;
    for (auto d : md.get_dims())
        shape.push_back(d);
    for (auto s : md.get_strides())
        strides.push_back(s * es);
    return t.view(dt, shape, strides, static_cast<size_t>(md.get_offset0() * es));
}

py::array compensation(const tensor_t &t, uint64_t flag) {
    const memory::desc md = t.desc();
    const uint64_t flags = md.get_extra_flags();
    if (!(flags & flag))
        throw error(relayout_not_required,
                std::string("the descriptor has no ")
                        + (flag == relayout_extra_flag_compensation_conv_s8s8 ? "s8s8"
                                                                              : "zero-point")
                        + " compensation buffer");
    // Layout: [data][round_up 4][s8s8 comp][zp comp]; counts from the masks
    // over the padded dims.
    const memory::dims pd = md.get_padded_dims();
    int cmask = 0, zmask = 0;
    relayout_memory_desc_query(md.get(), relayout_query_compensation_mask_s32, &cmask);
    relayout_memory_desc_query(md.get(), relayout_query_asymm_compensation_mask_s32, &zmask);
    auto count = [&](int mask) {
        int64_t c = 1;
        for (size_t d = 0; d < pd.size(); ++d)
            if (mask & (1 << d)) c *= pd[d];
        return c;
    };
    const int64_t nc = (flags & relayout_extra_flag_compensation_conv_s8s8) ? count(cmask) : 0;
    const int64_t nz =
            (flags & relayout_extra_flag_compensation_conv_asymmetric_src) ? count(zmask) : 0;
    const size_t total = md.get_size();
    const size_t comp_bytes = static_cast<size_t>(nc + nz) * 4;
    size_t off = total - comp_bytes;
    int64_t n = nc;
    if (flag == relayout_extra_flag_compensation_conv_asymmetric_src) {
        off += static_cast<size_t>(nc) * 4;
        n = nz;
    }
    return t.view(dt_t::s32, { static_cast<py::ssize_t>(n) }, { 4 }, off);
}

// ---- sources ---------------------------------------------------------------------------

// A numpy array's layout as a desc (shape + element strides).
memory::desc desc_of_array(const py::array &a, dt_t dt) {
    const auto es = a.itemsize();
    memory::dims dims, strides;
    for (py::ssize_t i = 0; i < a.ndim(); ++i) {
        dims.push_back(a.shape(i));
        const auto s = a.strides(i);
        if (a.shape(i) > 1 && (s < 0 || s % es != 0))
            throw error(relayout_unimplemented,
                    "array strides[" + std::to_string(i) + "] is " + std::to_string(s)
                            + " bytes; relayout needs non-negative multiples of the item size "
                              "(use np.ascontiguousarray)");
        strides.push_back(a.shape(i) > 1 ? s / es : 0);
    }
    if (dims.empty()) { // a numpy scalar array
        dims.push_back(1);
        strides.push_back(1);
    }
    return memory::desc(dims, dt, strides);
}

// The source of a reorder as a tensor (wrapping numpy data without a copy).
tensor_t src_tensor(py::handle src, py::handle src_tag, py::handle dims_h, py::handle src_dt_h) {
    if (py::isinstance<tensor_t>(src)) {
        if (!src_tag.is_none())
            throw_invalid("src_tag must be None when the source is a relayout.Tensor "
                          "(the Tensor carries its descriptor)");
        return src.cast<tensor_t>();
    }
    py::array a = py::array::ensure(src);
    if (!a) throw_invalid("the source must be a numpy array, a buffer or a relayout.Tensor");
    const dt_t dt = src_dt_h.is_none() ? dt_from_numpy(a.dtype()) : to_dt(src_dt_h);
    memory::desc md;
    if (src_tag.is_none()) {
        if (static_cast<size_t>(a.itemsize()) != memory::data_type_size(dt))
            throw_invalid("src_dtype has " + std::to_string(memory::data_type_size(dt))
                          + "-byte elements but the array's items have "
                          + std::to_string(a.itemsize()) + " bytes");
        try {
            md = desc_of_array(a, dt);
        } catch (const error &) {
            // Strides relayout does not take (negative, not a multiple of
            // the item size, interleaved): a source is only read, so a
            // compact copy gives the same values.
            a = py::array::ensure(a, py::array::c_style);
            if (!a) throw py::error_already_set();
            md = desc_of_array(a, dt);
        }
    } else {
        if (!(a.flags() & py::array::c_style))
            throw_invalid("with src_tag the array is the physical buffer and must be "
                          "C-contiguous (use np.ascontiguousarray)");
        memory::dims dims;
        if (!dims_h.is_none()) {
            dims = to_dims(dims_h, "dims");
        } else {
            for (py::ssize_t i = 0; i < a.ndim(); ++i)
                dims.push_back(a.shape(i));
        }
        md = is_tag(src_tag) ? desc_from_tag(dims, dt, src_tag)
                             : memory::desc(dims, dt, to_dims(src_tag, "src strides"));
        if (static_cast<size_t>(a.nbytes()) < md.get_size())
            throw_invalid("the source buffer has " + std::to_string(a.nbytes())
                          + " bytes; the source descriptor " + md.str() + " needs "
                          + std::to_string(md.get_size()));
    }
    // A memory over a user buffer gets its padding zero-filled: never write
    // into a read-only array, copy it first.
    bool padded = md.get_padded_dims() != md.get_dims();
    if (padded && !a.writeable()) {
        py::module_ np = py::module_::import("numpy");
        a = np.attr("array")(a, py::arg("copy") = true);
    }
    tensor_t t;
    t.st = std::make_shared<tensor_state_t>();
    t.st->py_keepalive = a;
    t.st->mem = memory(md, cpu_engine(), const_cast<void *>(a.data()));
    return t;
}

// ---- reorder ---------------------------------------------------------------------------

void set_scale(primitive_attr &attr, int arg, py::handle h, const char *name) {
    if (h.is_none()) return;
    if (py::isinstance<py::tuple>(h) || py::isinstance<py::list>(h)) {
        auto seq = h.cast<py::sequence>();
        if (seq.size() != 2)
            throw_invalid(std::string(name) + " as a sequence must be (mask, values)");
        const int mask = seq[0].cast<int>();
        py::array_t<float, py::array::c_style | py::array::forcecast> v(
                py::reinterpret_borrow<py::object>(seq[1]));
        std::vector<float> vals(v.data(), v.data() + v.size());
        attr.set_scales(arg, mask, vals);
        return;
    }
    attr.set_scales(arg, 0, { h.cast<float>() });
}

py::object finish(const tensor_t &t, bool as_tensor) {
    if (as_tensor || !is_plain(t.desc())) return py::cast(t);
    return tensor_view(t);
}

py::object do_reorder(py::handle src, py::handle src_tag, py::handle dst, py::handle dims,
        py::handle src_dtype, py::handle dtype, py::handle src_scale, py::handle dst_scale,
        int32_t src_zp, int32_t dst_zp, float sum_beta, py::handle s8s8_comp_mask,
        py::handle zp_comp_mask, py::handle scale_adjust, py::handle out, bool as_tensor) {
    tensor_t s = src_tensor(src, src_tag, dims, src_dtype);
    const memory::desc smd = s.desc();

    memory::desc dmd;
    tensor_t d;
    const bool have_out = !out.is_none();
    if (have_out) {
        if (!py::isinstance<tensor_t>(out)) throw_invalid("out must be a relayout.Tensor");
        d = out.cast<tensor_t>();
        dmd = d.desc();
        if (!dst.is_none()
                && (!py::isinstance<memory::desc>(dst) || dst.cast<memory::desc>() != dmd))
            throw_invalid("dst and out disagree: pass one of them");
    } else if (py::isinstance<memory::desc>(dst)) {
        dmd = dst.cast<memory::desc>();
    } else {
        const dt_t ddt = dtype.is_none() ? smd.get_data_type() : to_dt(dtype);
        if (dst.is_none())
            dmd = memory::desc(smd.get_dims(), ddt, memory::dims{});
        else if (is_tag(dst))
            dmd = desc_from_tag(smd.get_dims(), ddt, dst);
        else
            dmd = memory::desc(smd.get_dims(), ddt, to_dims(dst, "dst strides"));
    }
    if (!dtype.is_none() && to_dt(dtype) != dmd.get_data_type())
        throw_invalid("dtype disagrees with the destination descriptor's data type");
    if (!s8s8_comp_mask.is_none() || !zp_comp_mask.is_none() || !scale_adjust.is_none()) {
        if (have_out) throw_invalid("compensation arguments need dst, not out");
        uint64_t flags = 0;
        int cm = 0, zm = 0;
        float adj = 1.f;
        if (!s8s8_comp_mask.is_none()) {
            flags |= relayout_extra_flag_compensation_conv_s8s8;
            cm = s8s8_comp_mask.cast<int>();
        }
        if (!zp_comp_mask.is_none()) {
            flags |= relayout_extra_flag_compensation_conv_asymmetric_src;
            zm = zp_comp_mask.cast<int>();
        }
        if (!scale_adjust.is_none()) {
            flags |= relayout_extra_flag_scale_adjust;
            adj = scale_adjust.cast<float>();
        }
        dmd = dmd.with_extra(flags, cm, zm, adj);
    }
    if (!have_out) d = new_tensor(dmd);

    primitive_attr attr;
    set_scale(attr, RELAYOUT_ARG_SRC, src_scale, "src_scale");
    set_scale(attr, RELAYOUT_ARG_DST, dst_scale, "dst_scale");
    if (src_zp) attr.set_zero_points(RELAYOUT_ARG_SRC, src_zp);
    if (dst_zp) attr.set_zero_points(RELAYOUT_ARG_DST, dst_zp);
    if (sum_beta != 0.f) attr.set_post_ops_sum(sum_beta);

    {
        py::gil_scoped_release nogil;
        reorder::primitive_desc pd(cpu_engine(), smd, cpu_engine(), dmd, attr);
        reorder(pd).execute(cpu_stream(), s.st->mem, d.st->mem);
    }
    if (have_out) return py::reinterpret_borrow<py::object>(out);
    return finish(d, as_tensor);
}

// ---- DLPack ----------------------------------------------------------------------------

const char *k_capsule = "dltensor";
const char *k_used_capsule = "used_dltensor";

py::capsule export_dlpack(const tensor_t &t, py::handle stream) {
    if (!stream.is_none()) throw_invalid("__dlpack__: stream must be None for CPU tensors");
    auto *owner = new std::shared_ptr<tensor_state_t>(t.st);
    DLManagedTensor *mt = nullptr;
    relayout_status_t st = relayout_memory_export_dlpack_with_owner(
            t.st->mem.get(), owner,
            [](void *p) { delete static_cast<std::shared_ptr<tensor_state_t> *>(p); }, &mt);
    if (st != relayout_success) {
        delete owner;
        error::wrap_c_api(st, "Tensor.__dlpack__");
    }
    // The capsule destructor frees the tensor only if nobody consumed it.
    PyObject *cap = PyCapsule_New(mt, k_capsule, [](PyObject *c) {
        if (PyCapsule_IsValid(c, k_capsule)) {
            auto *m = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(c, k_capsule));
            if (m && m->deleter) m->deleter(m);
        }
    });
    if (!cap) {
        mt->deleter(mt);
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::capsule>(cap);
}

tensor_t import_dlpack(py::object obj) {
    py::object cap = obj;
    if (py::hasattr(obj, "__dlpack__")) {
        if (py::hasattr(obj, "__dlpack_device__")) {
            auto dev = obj.attr("__dlpack_device__")().cast<py::tuple>();
            if (dev.size() >= 1 && dev[0].cast<int>() != kDLCPU)
                throw error(relayout_unimplemented,
                        "from_dlpack: __dlpack_device__() is (" + std::to_string(dev[0].cast<int>())
                                + ", ...); only kDLCPU (1) tensors are supported");
        }
        cap = obj.attr("__dlpack__")();
    }
    if (!PyCapsule_CheckExact(cap.ptr()))
        throw_invalid("from_dlpack: expected an object with __dlpack__ or a DLPack capsule");
    if (!PyCapsule_IsValid(cap.ptr(), k_capsule))
        throw_invalid("from_dlpack: the capsule is not named 'dltensor' (already consumed?)");
    auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap.ptr(), k_capsule));
    // From here we own the producer's tensor: rename the capsule so its
    // destructor leaves it alone, and release it with the Tensor.
    PyCapsule_SetName(cap.ptr(), k_used_capsule);
    std::shared_ptr<void> keep(mt, [](void *p) {
        auto *m = static_cast<DLManagedTensor *>(p);
        if (m->deleter) m->deleter(m);
    });
    tensor_t t;
    t.st = std::make_shared<tensor_state_t>();
    t.st->keepalive = keep;
    t.st->mem = dlpack::make_memory(mt->dl_tensor, cpu_engine());
    return t;
}

std::string dims_str(const memory::dims &d) {
    std::string s = "(";
    for (size_t i = 0; i < d.size(); ++i)
        s += (i ? ", " : "") + std::to_string(d[i]);
    return s + (d.size() == 1 ? ",)" : ")");
}

std::string dt_str(dt_t dt) {
    return relayout_dt2str(static_cast<relayout_data_type_t>(dt));
}

} // namespace

PYBIND11_MODULE(relayout, m) {
    m.doc() = "relayout: tensor layout conversion (reorders) with run-time generated kernels";

    // relayout.Error(RuntimeError): .status (int), .status_name, .message
    py::object error_type = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
            "relayout.Error", "A relayout call failed: .status, .status_name, .message",
            PyExc_RuntimeError, nullptr));
    m.attr("Error") = error_type;
    g_error_type = error_type.ptr();
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const relayout::error &e) {
            py::object type = py::reinterpret_borrow<py::object>(g_error_type);
            py::object exc = type(e.message);
            exc.attr("status") = static_cast<int>(e.status);
            exc.attr("status_name") = relayout_status2str(e.status);
            exc.attr("message") = e.message;
            PyErr_SetObject(g_error_type, exc.ptr());
        }
    });

    py::enum_<dt_t>(m, "data_type")
            .value("f16", dt_t::f16)
            .value("bf16", dt_t::bf16)
            .value("f32", dt_t::f32)
            .value("s32", dt_t::s32)
            .value("s8", dt_t::s8)
            .value("u8", dt_t::u8)
            .value("s16", dt_t::s16)
            .value("u16", dt_t::u16)
            .export_values();

    {
        py::enum_<memory::format_tag> tags(m, "format_tag");
        for (const auto &kv : tag_names())
            tags.value(kv.first.c_str(), static_cast<memory::format_tag>(kv.second));
    }

    py::enum_<relayout_cpu_isa_t>(m, "cpu_isa")
            .value("default", relayout_cpu_isa_default)
            .value("none", relayout_cpu_isa_none)
            .value("avx2", relayout_cpu_isa_avx2)
            .value("avx512_core", relayout_cpu_isa_avx512_core)
            .value("avx512_core_bf16", relayout_cpu_isa_avx512_core_bf16)
            .value("all", relayout_cpu_isa_all);

    m.def(
            "set_max_cpu_isa",
            [](py::handle isa) {
                if (py::isinstance<py::str>(isa)) {
                    const std::string s = isa.cast<std::string>();
                    const std::map<std::string, relayout_cpu_isa_t> names = {
                        { "default", relayout_cpu_isa_default }, { "none", relayout_cpu_isa_none },
                        { "avx2", relayout_cpu_isa_avx2 },
                        { "avx512_core", relayout_cpu_isa_avx512_core },
                        { "avx512_core_bf16", relayout_cpu_isa_avx512_core_bf16 },
                        { "all", relayout_cpu_isa_all }
                    };
                    auto it = names.find(s);
                    if (it == names.end()) throw_invalid("cpu isa '" + s + "' is not a known isa");
                    set_max_cpu_isa(it->second);
                } else {
                    set_max_cpu_isa(isa.cast<relayout_cpu_isa_t>());
                }
            },
            py::arg("isa"), "Caps the ISA of kernels created from now on ('none' = reference).");
    m.def("get_effective_cpu_isa", [] { return get_effective_cpu_isa(); });
    m.def("set_num_threads", &set_num_threads, py::arg("nthr"));
    m.def("set_verbose", &set_verbose, py::arg("level"));
    m.def("set_primitive_cache_capacity", &set_primitive_cache_capacity, py::arg("capacity"));
    m.def("get_primitive_cache_capacity", &get_primitive_cache_capacity);
    m.def("version", [] {
        const auto *v = relayout_version();
        return py::make_tuple(v->major, v->minor, v->patch);
    });
    m.def(
            "numpy_dtype", [](py::handle dt) { return numpy_dtype(to_dt(dt)); }, py::arg("dtype"),
            "The numpy storage dtype of a relayout data type (bf16 -> uint16).");

    py::class_<memory::desc>(m, "desc", "A memory descriptor: dims, data type and layout.")
            .def(py::init([](py::handle dims, py::handle dtype, py::handle layout) {
                return make_desc(dims, dtype, layout);
            }),
                    py::arg("dims"), py::arg("dtype"), py::arg("tag_or_strides") = py::none(),
                    "desc(dims, dtype, tag_or_strides): a format tag (relayout.format_tag, "
                    "'nchw', 'aBcd16b', 'abx'), a strides sequence (elements), or None for "
                    "row-major.")
            .def_property_readonly("ndims", &memory::desc::get_ndims)
            .def_property_readonly("dims", &memory::desc::get_dims)
            .def_property_readonly("padded_dims", &memory::desc::get_padded_dims)
            .def_property_readonly("strides", &memory::desc::get_strides)
            .def_property_readonly("offset0", &memory::desc::get_offset0)
            .def_property_readonly("inner_blks", &memory::desc::get_inner_blks)
            .def_property_readonly("inner_idxs", &memory::desc::get_inner_idxs)
            .def_property_readonly("dtype", &memory::desc::get_data_type)
            .def_property_readonly("data_type", &memory::desc::get_data_type)
            .def_property_readonly("format_kind",
                    [](const memory::desc &d) { return format_kind_str(d.get_format_kind()); })
            .def_property_readonly("size", &memory::desc::get_size,
                    "Bytes of a buffer: padding and compensation included.")
            .def_property_readonly("is_plain", &is_plain,
                    "True for plain strided layouts (numpy / DLPack can view them).")
            .def_property_readonly("extra_flags", &memory::desc::get_extra_flags)
            .def(
                    "submemory",
                    [](const memory::desc &d, py::handle dims, py::handle offsets) {
                        return d.submemory_desc(to_dims(dims, "dims"), to_dims(offsets, "offsets"));
                    },
                    py::arg("dims"), py::arg("offsets"))
            .def(
                    "reshape",
                    [](const memory::desc &d, py::handle dims) {
                        return d.reshape(to_dims(dims, "dims"));
                    },
                    py::arg("dims"))
            .def(
                    "permute_axes",
                    [](const memory::desc &d, const std::vector<int> &perm) {
                        return d.permute_axes(perm);
                    },
                    py::arg("perm"))
            .def(
                    "with_compensation",
                    [](const memory::desc &d, py::handle s8s8_mask, py::handle zp_mask,
                            py::handle scale_adjust) {
                        uint64_t flags = 0;
                        int cm = 0, zm = 0;
                        float adj = 1.f;
                        if (!s8s8_mask.is_none()) {
                            flags |= relayout_extra_flag_compensation_conv_s8s8;
                            cm = s8s8_mask.cast<int>();
                        }
                        if (!zp_mask.is_none()) {
                            flags |= relayout_extra_flag_compensation_conv_asymmetric_src;
                            zm = zp_mask.cast<int>();
                        }
                        if (!scale_adjust.is_none()) {
                            flags |= relayout_extra_flag_scale_adjust;
                            adj = scale_adjust.cast<float>();
                        }
                        return d.with_extra(flags, cm, zm, adj);
                    },
                    py::arg("s8s8_mask") = py::none(), py::arg("zp_mask") = py::none(),
                    py::arg("scale_adjust") = py::none())
            .def("__eq__",
                    [](const memory::desc &a, py::handle b) {
                        return py::isinstance<memory::desc>(b) && a == b.cast<memory::desc>();
                    })
            .def("__ne__",
                    [](const memory::desc &a, py::handle b) {
                        return !(py::isinstance<memory::desc>(b) && a == b.cast<memory::desc>());
                    })
            .def("__str__", &memory::desc::str)
            .def("__repr__",
                    [](const memory::desc &d) { return "relayout.desc(" + d.str() + ")"; });
    m.attr("desc").attr("__hash__") = py::none();

    py::class_<tensor_t>(m, "Tensor",
            "A descriptor and its buffer. Plain layouts view as numpy arrays and export "
            "through DLPack; blocked ones come back with to_numpy().")
            .def(py::init([](const memory::desc &d) { return new_tensor(d); }), py::arg("desc"))
            .def_property_readonly("desc", &tensor_t::desc)
            .def_property_readonly("dims", [](const tensor_t &t) { return t.desc().get_dims(); })
            .def_property_readonly(
                    "dtype", [](const tensor_t &t) { return t.desc().get_data_type(); })
            .def_property_readonly("size", [](const tensor_t &t) { return t.desc().get_size(); })
            .def_property_readonly("is_plain", [](const tensor_t &t) { return is_plain(t.desc()); })
            .def_property_readonly("buffer", &tensor_buffer,
                    "The physical buffer (1-D, element-typed, bf16 as uint16, compensation "
                    "included), shared with the Tensor.")
            .def("numpy", &tensor_view, "Zero-copy numpy view (plain layouts only).")
            .def(
                    "to_numpy",
                    [](const tensor_t &t, py::handle tag, py::handle dtype) {
                        py::object r = do_reorder(py::cast(t), py::none(),
                                tag.is_none() ? py::object(py::none())
                                              : py::reinterpret_borrow<py::object>(tag),
                                py::none(), py::none(), dtype, py::none(), py::none(), 0, 0, 0.f,
                                py::none(), py::none(), py::none(), py::none(), false);
                        return r.cast<py::array>();
                    },
                    py::arg("tag") = py::none(), py::arg("dtype") = py::none(),
                    "A new numpy array with the logical shape in plain layout `tag` (default "
                    "row-major), optionally converted to `dtype`.")
            .def(
                    "compensation",
                    [](const tensor_t &t) {
                        return compensation(t, relayout_extra_flag_compensation_conv_s8s8);
                    },
                    "The s8s8 compensation buffer (int32), shared with the Tensor.")
            .def(
                    "zp_compensation",
                    [](const tensor_t &t) {
                        return compensation(
                                t, relayout_extra_flag_compensation_conv_asymmetric_src);
                    },
                    "The zero-point compensation buffer (int32), shared with the Tensor.")
            .def(
                    "__array__",
                    [](const tensor_t &t, py::handle dtype) {
                        py::array a = is_plain(t.desc())
                                              ? tensor_view(t)
                                              : do_reorder(py::cast(t), py::none(), py::none(),
                                                      py::none(), py::none(), py::none(),
                                                      py::none(), py::none(), 0, 0, 0.f, py::none(),
                                                      py::none(), py::none(), py::none(), false)
                                                        .cast<py::array>();
                        if (!dtype.is_none()) return py::array(a.attr("astype")(dtype));
                        return a;
                    },
                    py::arg("dtype") = py::none())
            .def("__dlpack__", &export_dlpack, py::arg("stream") = py::none())
            .def("__dlpack_device__",
                    [](const tensor_t &) { return py::make_tuple(static_cast<int>(kDLCPU), 0); })
            .def("__repr__", [](const tensor_t &t) {
                const memory::desc d = t.desc();
                return "relayout.Tensor(" + d.str() + ", dims=" + dims_str(d.get_dims())
                       + ", dtype=" + dt_str(d.get_data_type()) + ")";
            });

    m.def("from_dlpack", &import_dlpack, py::arg("obj"),
            "A relayout.Tensor viewing (not copying) any object with __dlpack__ (numpy >= "
            "1.22 arrays, torch tensors, relayout.Tensor) or a 'dltensor' capsule.");

    m.def(
            "reorder",
            [](py::handle src, py::handle src_tag, py::handle dst, py::handle dims,
                    py::handle src_dtype, py::handle dtype, py::handle src_scale,
                    py::handle dst_scale, int32_t src_zp, int32_t dst_zp, float sum_beta,
                    py::handle s8s8_comp_mask, py::handle zp_comp_mask, py::handle scale_adjust,
                    py::handle out, bool as_tensor) {
                return do_reorder(src, src_tag, dst, dims, src_dtype, dtype, src_scale, dst_scale,
                        src_zp, dst_zp, sum_beta, s8s8_comp_mask, zp_comp_mask, scale_adjust, out,
                        as_tensor);
            },
            py::arg("src"), py::arg("src_tag") = py::none(), py::arg("dst") = py::none(),
            py::kw_only(), py::arg("dims") = py::none(), py::arg("src_dtype") = py::none(),
            py::arg("dtype") = py::none(), py::arg("src_scale") = py::none(),
            py::arg("dst_scale") = py::none(), py::arg("src_zp") = 0, py::arg("dst_zp") = 0,
            py::arg("sum_beta") = 0.f, py::arg("s8s8_comp_mask") = py::none(),
            py::arg("zp_comp_mask") = py::none(), py::arg("scale_adjust") = py::none(),
            py::arg("out") = py::none(), py::arg("as_tensor") = false,
            R"doc(reorder(src, src_tag=None, dst=None, *, dims=None, src_dtype=None, dtype=None,
        src_scale=None, dst_scale=None, src_zp=0, dst_zp=0, sum_beta=0.0,
        s8s8_comp_mask=None, zp_comp_mask=None, scale_adjust=None, out=None,
        as_tensor=False)

Copies src into a new destination, converting layout and data type.

src: a numpy array / buffer or a relayout.Tensor. With src_tag None an array is
  read through its own shape and strides; with a src_tag (tag or strides) the
  array is the physical buffer (C-contiguous) and dims defaults to its shape.
  src_dtype overrides the array's dtype ('bf16' for uint16 storage).
dst: a tag, a strides sequence, a relayout.desc, or None (row-major); dtype
  is the destination data type (default: the source's).
src_scale / dst_scale: a float, or (mask, values) for per-dimension scales.
  Per element: v = src_scale*(src - src_zp) [+ sum_beta*(dst_old - dst_zp)];
  dst = v / dst_scale + dst_zp, saturated, round half to even.
s8s8_comp_mask / zp_comp_mask / scale_adjust: int8 weights compensation.
out: an existing relayout.Tensor to write (needed for sum_beta).
Returns a numpy array (logical shape, strides of the layout) when the
destination is plain, else a relayout.Tensor (or always with as_tensor).)doc");
}
