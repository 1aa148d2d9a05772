// "ocl:gen": every reorder that touches an ocl memory, as a short recipe of
// steps over the user's src/dst and temporaries:
//
//   host    a cpu reorder (the library's own JIT/reference) between host
//           buffers: layouts, data types and attributes the device kernels
//           do not cover
//   upload  host -> device (blocking: the host buffer is free afterwards)
//   download device -> host (blocking)
//   pack / unpack / copy   generated OpenCL kernels (jit/ocl/ocl_kernel_gen)
//   reorder a generated kernel for a general blocked plan (jit/ocl/ocl_plan_gen)
//
// Recipes (S = src, D = dst, H = host temp, T = device temp):
//   cpu blocked -> ocl blocked   [D->H] host S->H, upload H->D  (or upload S->D
//                                when the layouts are equal and D is dense)
//   ocl blocked -> cpu blocked   download S->H, host H->D   (or download S->D)
//   ocl blocked -> ocl blocked   reorder S->D (copy S->D for one dense layout)
//   * blocked -> ocl image       pack (strided f32/f16 source; the transpose
//                                of an NCHW source folds into the kernel);
//                                other sources go through a plain temp first
//   ocl image -> * blocked       unpack (strided f32/f16 destination), else
//                                through a plain temp
//   ocl image -> ocl image       unpack S->T, pack T->D
//
// Synchronisation: steps that read or write host memory are blocking, so
// when execute() returns the user's host buffers are no longer used (they
// may be freed). Kernels on device memory are enqueued on the engine's
// in-order queue and may still run: relayout_stream_wait() waits for them.
// A cpu stream with an ocl reorder makes execute() wait for everything.
#include <cinttypes>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/utils.hpp"
#include "jit/ocl/ocl_plan_gen.hpp"
#include "md/format_tag.hpp"
#include "ocl/image_md.hpp"
#include "ocl/ocl_api.hpp"
#include "ocl/ocl_engine.hpp"
#include "runtime/impl_list.hpp"
#include "runtime/reorder.hpp"

namespace relayout {
namespace impl {
namespace ocl {

namespace {

// The cpu engine of the host steps (never destroyed: kernels in the
// primitive cache may outlive everything else).
relayout_engine *host_engine() {
    static relayout_engine *e = new relayout_engine(relayout_cpu, 0);
    return e;
}

bool attr_empty(const attr_t &a) {
    return !a.src_scales.is_set() && !a.dst_scales.is_set() && a.src_zp == 0 && a.dst_zp == 0
           && a.beta == 0.f;
}

bool is_float(data_type_t dt) {
    return dt == relayout_f32 || dt == relayout_f16;
}

// A blocked f32/f16 descriptor that is a plain strided view (no blocks, no
// padding, no compensation): the pack/unpack kernels take it directly.
bool is_strided_float(const memory_desc_t &md) {
    if (md.format_kind != relayout_blocked || !is_float(md.data_type)) return false;
    if (md.blocking.inner_nblks != 0 || md.extra.flags != 0 || md.ndims > max_buffer_ndims)
        return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d] || md.padded_offsets[d] != 0) return false;
    return true;
}

// No gaps: every byte of [0, size) belongs to an element, padding or
// compensation (uploading a whole host image of it changes nothing else).
bool is_dense(const memory_desc_t &md) {
    if (md.offset0 != 0) return false;
    dim_t n = 1;
    for (int d = 0; d < md.ndims; ++d)
        n *= md.padded_dims[d];
    return md_data_size(md) == size_t(n) * impl::data_type_size(md.data_type);
}

// The strided buffer_desc_t of a strided descriptor in the image's canonical
// order (N,H,W,C for activations).
buffer_desc_t to_buffer(const memory_desc_t &md, const image_desc_t *img) {
    int perm[4] = { 0, 1, 2, 3 };
    if (img) image_md_perm(img->type, md.ndims, perm);
    buffer_desc_t b;
    std::memset(&b, 0, sizeof(b));
    b.ndims = md.ndims;
    b.dt = md.data_type;
    for (int i = 0; i < md.ndims; ++i) {
        const int d = (img && i < 4) ? perm[i] : i;
        b.dims[i] = md.dims[d];
        b.strides[i] = md.blocking.strides[d];
    }
    b.offset0 = md.offset0;
    return b;
}

// Plain dense (abcd...) descriptor of the same logical tensor.
status_t plain_md(memory_desc_t &out, const memory_desc_t &like, data_type_t dt) {
    std::string tag;
    for (int d = 0; d < like.ndims; ++d)
        tag += char('a' + d);
    return md_init_by_tag(out, like.ndims, like.dims, dt, tag);
}

std::string dims_str(const memory_desc_t &md) {
    std::string s;
    for (int d = 0; d < md.ndims; ++d)
        s += (d ? "x" : "") + std::to_string(md.dims[d]);
    return s;
}

// A generated kernel for a general plan.
class plan_kernel_t {
public:
    static status_t create(context_t &ctx, const plan_t &p, const attr_t &attr,
            std::unique_ptr<plan_kernel_t> *out) {
        std::unique_ptr<plan_kernel_t> k(new plan_kernel_t(ctx));
        kernel_source_t ks;
        RL_CHECK(gen_plan_kernel(p, &ks, attr));
        RL_CHECK(ctx.get_kernel(ks.source, ks.name, &k->kernel_, nullptr, ks.options));
        k->global_[0] = ks.global[0];
        k->global_[1] = ks.global[1];
        if (ctx.info().type & CL_DEVICE_TYPE_CPU) k->max_local_ = ks.cpu_max_local;
        k->comp_entries_ = ks.comp_entries;
        if (ks.comp_entries) {
            RL_CHECK(ctx.get_kernel(
                    ks.source, "rl_compensate", &k->comp_kernel_, nullptr, ks.options));
            RL_CHECK(create_buffer(ctx, ks.comp_entries * sizeof(cl_int), &k->acc_));
        }
        *out = std::move(k);
        return status_t::success;
    }
    // Enqueued on the context's in-order queue; the sums buffer is the
    // kernel's own, zeroed first, so runs of one primitive follow each
    // other on it.
    status_t execute(cl_mem src, cl_mem dst) {
        std::lock_guard<std::mutex> lock(m_);
        cl_kernel k = kernel_.get();
        RL_CL_CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &src));
        RL_CL_CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &dst));
        if (comp_entries_ == 0) return ctx_.enqueue(k, 2, global_, nullptr, max_local_);
        cl_mem acc = acc_.get();
        const cl_int zero = 0;
        RL_CL_CHECK(clEnqueueFillBuffer(ctx_.queue(), acc, &zero, sizeof(zero), 0,
                comp_entries_ * sizeof(cl_int), 0, nullptr, nullptr));
        RL_CL_CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &acc));
        RL_CHECK(ctx_.enqueue(k, 2, global_, nullptr, max_local_));
        cl_kernel c = comp_kernel_.get();
        RL_CL_CHECK(clSetKernelArg(c, 0, sizeof(cl_mem), &acc));
        RL_CL_CHECK(clSetKernelArg(c, 1, sizeof(cl_mem), &dst));
        const size_t n[1] = { comp_entries_ };
        return ctx_.enqueue(c, 1, n);
    }

private:
    explicit plan_kernel_t(context_t &ctx) : ctx_(ctx) {}
    context_t &ctx_;
    cl_ref_t<cl_kernel> kernel_, comp_kernel_;
    cl_ref_t<cl_mem> acc_; // compensation sums (comp_entries_ int32)
    size_t comp_entries_ = 0;
    size_t global_[2] = { 1, 1 };
    size_t max_local_ = 0; // kernel_source_t::cpu_max_local on a CPU device
    std::mutex m_;
};

// Operands of a step.
enum class opnd_t { src, dst, htmp, dtmp0, dtmp1 };

struct step_t {
    enum class kind_t { host, upload, download, pack, unpack, copy, reorder } kind;
    opnd_t in, out;
    size_t bytes = 0; // upload / download
    std::string text; // for the plan string
    // host
    memory_desc_t host_src{}, host_dst{};
    std::shared_ptr<const impl::kernel_t> host_kernel;
    // pack / unpack / copy
    std::unique_ptr<ocl::kernel_t> dev_kernel;
    // reorder
    std::unique_ptr<plan_kernel_t> plan_kernel;
};

struct recipe_t {
    std::vector<std::unique_ptr<step_t>> steps;
    size_t htmp_bytes = 0;
    size_t dtmp_bytes[2] = { 0, 0 };
    std::string sources; // the generated OpenCL C of every device step
    std::string str() const {
        std::string s;
        for (const auto &st : steps)
            s += (s.empty() ? "" : " > ") + st->text;
        return s.empty() ? "nothing" : s;
    }
};

// Recipe builder: validates and describes (build == false) or also makes
// the kernels (build == true) on `ctx`.
class builder_t {
public:
    builder_t(const relayout_primitive_desc &pd, context_t &ctx, bool build, recipe_t &r)
            : pd_(pd), ctx_(ctx), build_(build), r_(r) {}

    status_t host(opnd_t in, const memory_desc_t &in_md, opnd_t out, const memory_desc_t &out_md,
            const attr_t &attr) {
        auto st = new_step(step_t::kind_t::host, in, out);
        st->host_src = in_md;
        st->host_dst = out_md;
        st->text = "cpu:" + md2str(in_md) + ">" + md2str(out_md);
        // Plan and dispatch on the cpu now (errors surface at creation).
        relayout_primitive_desc sub;
        RL_CHECK(reorder_pd_create(sub, in_md, host_engine(), out_md, host_engine(), attr));
        st->text = "cpu(" + sub.impl_name + "):" + md2str(in_md) + ">" + md2str(out_md);
        if (build_) {
            relayout_primitive *p = nullptr;
            RL_CHECK(primitive_create(p, sub));
            st->host_kernel = p->kernel;
            delete p;
        }
        return status_t::success;
    }
    void transfer(bool up, opnd_t in, opnd_t out, size_t bytes) {
        auto st = new_step(up ? step_t::kind_t::upload : step_t::kind_t::download, in, out);
        st->bytes = bytes;
        st->text = std::string(up ? "upload:" : "download:") + std::to_string(bytes) + "B";
    }
    void copy_buffer(size_t bytes) {
        auto st = new_step(step_t::kind_t::copy, opnd_t::src, opnd_t::dst);
        st->bytes = bytes;
        st->text = "copy:" + std::to_string(bytes) + "B";
    }
    status_t pack(opnd_t in, const memory_desc_t &in_md, opnd_t out, const image_desc_t &img) {
        auto st = new_step(step_t::kind_t::pack, in, out);
        const buffer_desc_t b = to_buffer(in_md, &img);
        RL_CHECK(buffer_desc_validate(b, "source", false));
        int64_t cs[4];
        RL_CHECK(buffer_matches_image(b, img, "source", cs));
        st->text = "pack:" + md2str(in_md) + ">" + image_str(img);
        RL_CHECK(check_shape(img));
        kernel_source_t ks;
        if (!image_desc_is_zero_volume(img)) RL_CHECK(gen_pack_kernel(img, b, &ks));
        add_source(st->text, ks.source);
        if (build_) RL_CHECK(ocl::kernel_t::create_pack(ctx_, b, img, &st->dev_kernel));
        return status_t::success;
    }
    status_t unpack(opnd_t in, const image_desc_t &img, opnd_t out, const memory_desc_t &out_md) {
        auto st = new_step(step_t::kind_t::unpack, in, out);
        const buffer_desc_t b = to_buffer(out_md, &img);
        st->text = "unpack:" + image_str(img) + ">" + md2str(out_md);
        if (img.type != image_type_t::dw_conv2d_filter && img.type != image_type_t::winograd_filter)
            RL_CHECK(check_shape(img));
        // Creation checks everything (and refuses dw / winograd); it needs
        // no device work beyond the program build.
        std::unique_ptr<ocl::kernel_t> k;
        if (build_ || img.type == image_type_t::dw_conv2d_filter
                || img.type == image_type_t::winograd_filter) {
            RL_CHECK(ocl::kernel_t::create_unpack(ctx_, img, b, &k));
        } else {
            RL_CHECK(buffer_desc_validate(b, "destination", true));
            int64_t cs[4];
            RL_CHECK(buffer_matches_image(b, img, "destination", cs));
        }
        kernel_source_t ks;
        if (!image_desc_is_zero_volume(img)) RL_CHECK(gen_unpack_kernel(img, b, &ks));
        add_source(st->text, ks.source);
        st->dev_kernel = std::move(k);
        return status_t::success;
    }
    // A generated kernel for in_md -> out_md with `attr` (the pd's plan
    // when given, which was made with the same attributes).
    status_t reorder(opnd_t in, const memory_desc_t &in_md, opnd_t out, const memory_desc_t &out_md,
            const plan_t *given, const attr_t &attr) {
        auto st = new_step(step_t::kind_t::reorder, in, out);
        plan_t p;
        if (given)
            p = *given;
        else
            RL_CHECK(plan_create(p, in_md, out_md, attr));
        RL_CHECK(plan_kernel_supported(p, attr));
        if (plan_kernel_divides(p) && !ctx_.info().fp32_correct_div)
            return failf(status_t::unimplemented,
                    "ocl:gen: dst scales divide, and device '%s' does not offer correctly "
                    "rounded f32 division (CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT); reorder "
                    "through a cpu memory instead",
                    ctx_.info().name.c_str());
        st->text = "gen:" + md2str(in_md) + ">" + md2str(out_md);
        if (!p.zero_volume) {
            kernel_source_t ks;
            RL_CHECK(gen_plan_kernel(p, &ks, attr));
            add_source(st->text, ks.source);
        }
        if (build_ && !p.zero_volume)
            RL_CHECK(plan_kernel_t::create(ctx_, p, attr, &st->plan_kernel));
        return status_t::success;
    }

    static std::string image_str(const image_desc_t &img) {
        int64_t w = 0, h = 0;
        image_desc_shape(img, &w, &h);
        std::string s = std::string(img.pixel_dt == relayout_f16 ? "f16" : "f32")
                        + ":image:" + image_type2str(img.type);
        if (img.type == image_type_t::winograd_filter) s += ":b" + std::to_string(img.winograd_b);
        return s + ":" + std::to_string(w) + "x" + std::to_string(h);
    }

private:
    void add_source(const std::string &step, const std::string &src) {
        r_.sources += "// ---- step " + std::to_string(r_.steps.size()) + ": " + step + "\n" + src;
    }
    // The device's CL_DEVICE_IMAGE2D_MAX_WIDTH / HEIGHT, checked at creation.
    status_t check_shape(const image_desc_t &img) {
        int64_t w = 0, h = 0;
        RL_CHECK(image_desc_shape(img, &w, &h));
        return ctx_.check_image_shape(w, h, image_type2str(img.type));
    }
    step_t *new_step(step_t::kind_t k, opnd_t in, opnd_t out) {
        r_.steps.emplace_back(new step_t());
        step_t *st = r_.steps.back().get();
        st->kind = k;
        st->in = in;
        st->out = out;
        return st;
    }

    const relayout_primitive_desc &pd_;
    context_t &ctx_;
    bool build_;
    recipe_t &r_;
};

// The ocl engine of the problem (checks that there is exactly one context).
status_t problem_engine(const relayout_primitive_desc &pd, const ocl_engine_t **out) {
    for (const relayout_engine *e : { pd.src_engine, pd.dst_engine })
        if (e->kind != relayout_cpu && e->kind != relayout_ocl)
            return fail(status_t::unimplemented,
                    "ocl:gen: reorders pair an ocl engine with a cpu or ocl engine only (not "
                    "with an npu engine)");
    const ocl_engine_t *s = as_ocl(pd.src_engine), *d = as_ocl(pd.dst_engine);
    if (s && d && &s->ctx() != &d->ctx())
        return fail(status_t::invalid_arguments,
                "ocl:gen: src and dst engines have different OpenCL contexts");
    *out = s ? s : d;
    if (!*out) return fail(status_t::unimplemented, "ocl:gen: no ocl engine in the problem");
    return status_t::success;
}

status_t check_kind_on_engine(const memory_desc_t &md, const relayout_engine *e, const char *what) {
    if (md.format_kind == relayout_format_kind_image2d && e->kind != relayout_ocl)
        return failf(status_t::invalid_arguments,
                "ocl:gen: %s is an image2d descriptor: it lives on an ocl engine, not on the "
                "%s engine",
                what, e->kind == relayout_cpu ? "cpu" : "npu");
    if (md.format_kind != relayout_format_kind_image2d && md.format_kind != relayout_blocked)
        return failf(status_t::unimplemented,
                "ocl:gen: %s has format kind %d (blocked or image2d expected)", what,
                (int)md.format_kind);
    return status_t::success;
}

status_t make_recipe(const relayout_primitive_desc &pd, context_t &ctx, bool build, recipe_t &r) {
    const memory_desc_t &s = pd.src_md, &d = pd.dst_md;
    RL_CHECK(check_kind_on_engine(s, pd.src_engine, "src"));
    RL_CHECK(check_kind_on_engine(d, pd.dst_engine, "dst"));
    const bool s_img = s.format_kind == relayout_format_kind_image2d;
    const bool d_img = d.format_kind == relayout_format_kind_image2d;
    const bool s_host = pd.src_engine->kind == relayout_cpu;
    const bool d_host = pd.dst_engine->kind == relayout_cpu;
    const attr_t &attr = pd.attr;
    const bool no_attr = attr_empty(attr);
    builder_t b(pd, ctx, build, r);

    if (s_img || d_img) {
        bool same = s.ndims == d.ndims;
        for (int i = 0; same && i < s.ndims; ++i)
            same = s.dims[i] == d.dims[i];
        if (!same)
            return failf(status_t::invalid_arguments,
                    "ocl:gen: src dims %s and dst dims %s differ (image descriptors take "
                    "logical dims: N,C,H,W for activations, O,I,H,W for filters)",
                    dims_str(s).c_str(), dims_str(d).c_str());
    }
    if (has_zero_dim(s) || has_zero_dim(d)) return status_t::success; // nothing to do

    // ---- blocked -> blocked --------------------------------------------
    if (!s_img && !d_img) {
        if (s_host) { // cpu -> ocl
            if (md_equal(s, d) && no_attr && is_dense(d) && d.extra.flags == 0) {
                b.transfer(true, opnd_t::src, opnd_t::dst, md_size(d));
                return status_t::success;
            }
            r.htmp_bytes = md_size(d);
            // The host image of dst starts as dst itself when the reorder
            // reads it (sum) or must leave its gaps alone.
            if (attr.beta != 0.f || !is_dense(d))
                b.transfer(false, opnd_t::dst, opnd_t::htmp, md_size(d));
            RL_CHECK(b.host(opnd_t::src, s, opnd_t::htmp, d, attr));
            b.transfer(true, opnd_t::htmp, opnd_t::dst, md_size(d));
            return status_t::success;
        }
        if (d_host) { // ocl -> cpu
            if (md_equal(s, d) && no_attr && is_dense(d)) {
                b.transfer(false, opnd_t::src, opnd_t::dst, md_size(s));
                return status_t::success;
            }
            r.htmp_bytes = md_size(s);
            b.transfer(false, opnd_t::src, opnd_t::htmp, md_size(s));
            return b.host(opnd_t::htmp, s, opnd_t::dst, d, attr);
        }
        if (md_equal(s, d) && no_attr && d.extra.flags == 0) {
            b.copy_buffer(md_size(d)); // same layout: the runtime's copy
            return status_t::success;
        }
        return b.reorder(opnd_t::src, s, opnd_t::dst, d, &pd.plan, attr);
    }

    image_desc_t si{}, di{};
    if (s_img) RL_CHECK(image_md_get(s, &si, "src"));
    if (d_img) RL_CHECK(image_md_get(d, &di, "dst"));

    // A sum into an image reads the image back first: the values reach
    // the image through a plain f32 temp, which starts as its unpacked
    // contents (exact for f16 and f32 pixels).
    const bool d_sum = d_img && attr.beta != 0.f;
    if (d_sum
            && (di.type == image_type_t::dw_conv2d_filter
                    || di.type == image_type_t::winograd_filter))
        return failf(status_t::unimplemented,
                "ocl:gen: a sum post-op into a %s image needs its old values, and that image "
                "type cannot be read back",
                image_type2str(di.type));

    // ---- image -> image ----------------------------------------------------
    if (s_img && d_img) {
        memory_desc_t t;
        RL_CHECK(plain_md(t, s, relayout_f32));
        r.dtmp_bytes[0] = md_size(t);
        RL_CHECK(b.unpack(opnd_t::src, si, opnd_t::dtmp0, t));
        if (no_attr) return b.pack(opnd_t::dtmp0, t, opnd_t::dst, di);
        // Attributes: a generated reorder between two f32 temps.
        r.dtmp_bytes[1] = md_size(t);
        if (d_sum) RL_CHECK(b.unpack(opnd_t::dst, di, opnd_t::dtmp1, t));
        RL_CHECK(b.reorder(opnd_t::dtmp0, t, opnd_t::dtmp1, t, nullptr, attr));
        return b.pack(opnd_t::dtmp1, t, opnd_t::dst, di);
    }

    // ---- blocked -> image ----------------------------------------------------
    if (d_img) {
        if (d_sum) {
            memory_desc_t t;
            RL_CHECK(plain_md(t, s, relayout_f32));
            r.dtmp_bytes[0] = md_size(t);
            RL_CHECK(b.unpack(opnd_t::dst, di, opnd_t::dtmp0, t));
            if (s_host) {
                r.htmp_bytes = md_size(t);
                b.transfer(false, opnd_t::dtmp0, opnd_t::htmp, md_size(t));
                RL_CHECK(b.host(opnd_t::src, s, opnd_t::htmp, t, attr));
                b.transfer(true, opnd_t::htmp, opnd_t::dtmp0, md_size(t));
            } else {
                RL_CHECK(b.reorder(opnd_t::src, s, opnd_t::dtmp0, t, nullptr, attr));
            }
            return b.pack(opnd_t::dtmp0, t, opnd_t::dst, di);
        }
        if (is_strided_float(s) && no_attr) {
            if (!s_host) return b.pack(opnd_t::src, s, opnd_t::dst, di);
            r.dtmp_bytes[0] = md_size(s);
            b.transfer(true, opnd_t::src, opnd_t::dtmp0, md_size(s));
            return b.pack(opnd_t::dtmp0, s, opnd_t::dst, di);
        }
        // Through a plain temp of a float type.
        const data_type_t tdt =
                s.data_type == relayout_f16 && no_attr ? relayout_f16 : relayout_f32;
        memory_desc_t t;
        RL_CHECK(plain_md(t, s, tdt));
        r.dtmp_bytes[0] = md_size(t);
        if (s_host) {
            r.htmp_bytes = md_size(t);
            RL_CHECK(b.host(opnd_t::src, s, opnd_t::htmp, t, attr));
            b.transfer(true, opnd_t::htmp, opnd_t::dtmp0, md_size(t));
        } else {
            RL_CHECK(b.reorder(opnd_t::src, s, opnd_t::dtmp0, t, nullptr, attr));
        }
        return b.pack(opnd_t::dtmp0, t, opnd_t::dst, di);
    }

    // ---- image -> blocked ----------------------------------------------------
    if (si.type == image_type_t::dw_conv2d_filter || si.type == image_type_t::winograd_filter) {
        memory_desc_t t;
        RL_CHECK(plain_md(t, s, si.pixel_dt));
        return b.unpack(opnd_t::src, si, opnd_t::dtmp0, t); // refuses with the reason
    }
    if (!d_host && is_strided_float(d) && no_attr) return b.unpack(opnd_t::src, si, opnd_t::dst, d);
    if (d_host && is_strided_float(d) && no_attr && is_dense(d)) {
        r.dtmp_bytes[0] = md_size(d);
        RL_CHECK(b.unpack(opnd_t::src, si, opnd_t::dtmp0, d));
        b.transfer(false, opnd_t::dtmp0, opnd_t::dst, md_size(d));
        return status_t::success;
    }
    memory_desc_t t;
    RL_CHECK(plain_md(t, s, si.pixel_dt));
    r.dtmp_bytes[0] = md_size(t);
    RL_CHECK(b.unpack(opnd_t::src, si, opnd_t::dtmp0, t));
    if (d_host) {
        r.htmp_bytes = md_size(t);
        b.transfer(false, opnd_t::dtmp0, opnd_t::htmp, md_size(t));
        return b.host(opnd_t::htmp, t, opnd_t::dst, d, attr);
    }
    return b.reorder(opnd_t::dtmp0, t, opnd_t::dst, d, nullptr, attr);
}

// The runtime's kernel: the recipe, built for one context.
class ocl_reorder_kernel_t : public impl::kernel_t {
public:
    ocl_reorder_kernel_t(std::shared_ptr<context_t> ctx, const relayout_primitive_desc &pd)
            : ctx_(std::move(ctx)), attr_(pd.attr), src_kind_(pd.src_engine->kind),
              dst_kind_(pd.dst_engine->kind) {}
    recipe_t &recipe() { return r_; }

    status_t execute(const exec_ctx_t &c) const override;

private:
    status_t check_memory(
            const relayout_memory *m, relayout_engine_kind_t kind, const char *what) const {
        if (m->engine->kind != kind)
            return failf(status_t::invalid_arguments,
                    "execute: the %s memory is on a %s engine, the primitive expects %s", what,
                    m->engine->kind == relayout_cpu   ? "cpu"
                    : m->engine->kind == relayout_ocl ? "ocl"
                                                      : "npu",
                    kind == relayout_cpu ? "cpu" : "ocl");
        if (m->engine->kind == relayout_cpu) return status_t::success;
        const ocl_engine_t *e = as_ocl(m->engine);
        if (!e || e->shared_ctx() != ctx_)
            return failf(status_t::invalid_arguments,
                    "execute: the %s memory is not on the primitive's ocl engine (context)", what);
        return status_t::success;
    }

    std::shared_ptr<context_t> ctx_;
    attr_t attr_;
    relayout_engine_kind_t src_kind_, dst_kind_;
    recipe_t r_;
};

status_t ocl_reorder_kernel_t::execute(const exec_ctx_t &c) const {
    if (r_.steps.empty()) return status_t::success;
    if (!c.src_mem || !c.dst_mem || !c.stream)
        return fail(status_t::invalid_arguments, "ocl:gen: execute needs memories and a stream");
    RL_CHECK(check_memory(c.src_mem, src_kind_, "src"));
    RL_CHECK(check_memory(c.dst_mem, dst_kind_, "dst"));
    const relayout_engine *se = c.stream->engine;
    if (se->kind == relayout_ocl && as_ocl(se)->shared_ctx() != ctx_)
        return fail(status_t::invalid_arguments,
                "execute: the stream's ocl engine has another OpenCL context than the "
                "primitive's");
    if (se->kind != relayout_ocl && se->kind != relayout_cpu)
        return fail(
                status_t::invalid_arguments, "execute: an ocl reorder needs an ocl or cpu stream");
    context_t &ctx = *ctx_;

    // Temporaries (device ones are released right after their last
    // enqueue: OpenCL keeps them until the commands using them finish).
    struct host_buf_t {
        void *p = nullptr;
        ~host_buf_t() { aligned_free(p); }
    } htmp;
    if (r_.htmp_bytes) {
        htmp.p = aligned_malloc(r_.htmp_bytes);
        if (!htmp.p)
            return failf(status_t::out_of_memory, "ocl:gen: cannot allocate %zu host bytes",
                    r_.htmp_bytes);
        std::memset(htmp.p, 0, r_.htmp_bytes);
    }
    cl_ref_t<cl_mem> dtmp[2];
    auto dev = [&](opnd_t o, const void *init, cl_mem *out) -> status_t {
        switch (o) {
            case opnd_t::src: *out = static_cast<cl_mem>(const_cast<void *>(c.src)); break;
            case opnd_t::dst: *out = static_cast<cl_mem>(c.dst); break;
            case opnd_t::dtmp0:
            case opnd_t::dtmp1: {
                const int i = o == opnd_t::dtmp0 ? 0 : 1;
                if (!dtmp[i]) RL_CHECK(create_buffer(ctx, r_.dtmp_bytes[i], &dtmp[i], init));
                *out = dtmp[i].get();
                break;
            }
            default: return fail(status_t::runtime_error, "ocl:gen: bad device operand");
        }
        return status_t::success;
    };
    auto host = [&](opnd_t o) -> void * {
        switch (o) {
            case opnd_t::src: return const_cast<void *>(c.src);
            case opnd_t::dst: return c.dst;
            case opnd_t::htmp: return htmp.p;
            default: return nullptr;
        }
    };

    for (const auto &stp : r_.steps) {
        const step_t &st = *stp;
        switch (st.kind) {
            case step_t::kind_t::host: {
                exec_ctx_t hc;
                hc.src = host(st.in);
                hc.dst = host(st.out);
                hc.src_scales =
                        attr_.src_scales.is_set() ? attr_.src_scales.values.data() : nullptr;
                hc.dst_scales =
                        attr_.dst_scales.is_set() ? attr_.dst_scales.values.data() : nullptr;
                RL_CHECK(st.host_kernel->execute(hc));
                break;
            }
            case step_t::kind_t::upload: {
                const void *h = host(st.in);
                if (st.out == opnd_t::dst) {
                    cl_mem m = nullptr;
                    RL_CHECK(dev(st.out, nullptr, &m));
                    RL_CL_CHECK(clEnqueueWriteBuffer(
                            ctx.queue(), m, CL_TRUE, 0, st.bytes, h, 0, nullptr, nullptr));
                } else {
                    // A fresh temporary is created with the data; one that
                    // an earlier step made is written.
                    const int i = st.out == opnd_t::dtmp0 ? 0 : 1;
                    const bool fresh = !dtmp[i];
                    cl_mem m = nullptr;
                    RL_CHECK(dev(st.out, h, &m));
                    if (!fresh)
                        RL_CL_CHECK(clEnqueueWriteBuffer(
                                ctx.queue(), m, CL_TRUE, 0, st.bytes, h, 0, nullptr, nullptr));
                }
                break;
            }
            case step_t::kind_t::download: {
                cl_mem m = nullptr;
                RL_CHECK(dev(st.in, nullptr, &m));
                RL_CL_CHECK(clEnqueueReadBuffer(
                        ctx.queue(), m, CL_TRUE, 0, st.bytes, host(st.out), 0, nullptr, nullptr));
                break;
            }
            case step_t::kind_t::copy: {
                cl_mem a = nullptr, b = nullptr;
                RL_CHECK(dev(st.in, nullptr, &a));
                RL_CHECK(dev(st.out, nullptr, &b));
                if (a != b) // in place with one layout: nothing to do
                    RL_CL_CHECK(clEnqueueCopyBuffer(
                            ctx.queue(), a, b, 0, 0, st.bytes, 0, nullptr, nullptr));
                break;
            }
            case step_t::kind_t::pack:
            case step_t::kind_t::unpack: {
                cl_mem a = nullptr, b = nullptr;
                RL_CHECK(dev(st.in, nullptr, &a));
                RL_CHECK(dev(st.out, nullptr, &b));
                if (st.dev_kernel) RL_CHECK(st.dev_kernel->execute(a, b));
                break;
            }
            case step_t::kind_t::reorder: {
                cl_mem a = nullptr, b = nullptr;
                RL_CHECK(dev(st.in, nullptr, &a));
                RL_CHECK(dev(st.out, nullptr, &b));
                if (st.plan_kernel) RL_CHECK(st.plan_kernel->execute(a, b));
                break;
            }
        }
    }
    if (se->kind == relayout_cpu) return ctx.finish();
    return status_t::success;
}

status_t gen_init(relayout_primitive_desc &pd) {
    const ocl_engine_t *e = nullptr;
    RL_CHECK(problem_engine(pd, &e));
    recipe_t r;
    RL_CHECK(make_recipe(pd, e->ctx(), false, r));
    pd.plan_str = r.str();
    return status_t::success;
}

status_t gen_create(const relayout_primitive_desc &pd, std::shared_ptr<const impl::kernel_t> &k) {
    const ocl_engine_t *e = nullptr;
    RL_CHECK(problem_engine(pd, &e));
    auto kernel = std::make_shared<ocl_reorder_kernel_t>(e->shared_ctx(), pd);
    RL_CHECK(make_recipe(pd, e->ctx(), true, kernel->recipe()));
    k = kernel;
    return status_t::success;
}

} // namespace

const reorder_impl_t ocl_gen_impl = { "ocl:gen", gen_init, gen_create };

status_t ocl_reorder_sources(const relayout_primitive_desc &pd, std::string *out) {
    if (pd.impl != &ocl_gen_impl)
        return fail(status_t::invalid_arguments,
                "primitive_desc: not an ocl:gen reorder (impl " + pd.impl_name + ")");
    const ocl_engine_t *e = nullptr;
    RL_CHECK(problem_engine(pd, &e));
    recipe_t r;
    RL_CHECK(make_recipe(pd, e->ctx(), false, r));
    *out = r.sources;
    return status_t::success;
}

} // namespace ocl
} // namespace impl
} // namespace relayout
