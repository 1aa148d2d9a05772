// libFuzzer harness over the public C API: string tag parsing, descriptor
// construction (dims / strides / blocking / submemory / reshape /
// permute_axes), reorder primitive descriptor creation and execution of
// small problems at every ISA cap (none = reference, avx2, avx512_core,
// avx512_core_bf16).
//
// Oracles: ASan/UBSan for the library's C++ code; guard pages around the
// source and destination buffers for the JIT code (ASan cannot see accesses
// from generated code), a read-only source, and a differential check: the
// destination bytes at each ISA cap must equal the reference's bit for bit
// (DESIGN §8). Any violation traps, which libFuzzer reports as a crash.
//
// Built with clang (RELAYOUT_BUILD_FUZZ=ON, scripts/fuzz.sh) as a libFuzzer
// binary; the same file with fuzz_replay_main.cpp is an ordinary program
// that replays a corpus (the ctest hardening_fuzz_replay does that with the
// seed corpus and the crash regressions).
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "relayout/relayout.h"

namespace {

// ---- input reader -----------------------------------------------------------

struct reader_t {
    const uint8_t *p;
    size_t n;
    uint8_t u8() {
        if (!n) return 0;
        --n;
        return *p++;
    }
    uint32_t u32() {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i)
            v |= uint32_t(u8()) << (8 * i);
        return v;
    }
    int64_t i64() {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i)
            v |= uint64_t(u8()) << (8 * i);
        return int64_t(v);
    }
    float f32() {
        uint32_t b = u32();
        float f;
        std::memcpy(&f, &b, 4);
        return f;
    }
    // Small values most of the time, anything sometimes.
    int64_t dim(int64_t small_max) {
        const uint8_t sel = u8();
        if (sel < 240) return sel % (small_max + 1);
        if (sel < 248) return -int64_t(u8());
        return i64();
    }
    std::string str(size_t max_len) {
        const size_t len = u8() % (max_len + 1);
        std::string s;
        for (size_t i = 0; i < len && n; ++i)
            s.push_back(char(u8()));
        return s;
    }
};

[[noreturn]] void die(const char *what) {
    fprintf(stderr, "fuzz_reorder: %s\n", what);
    fflush(stderr);
    __builtin_trap();
}

// ---- guard-page buffers ---------------------------------------------------------

struct guarded_t {
    char *base = nullptr, *data = nullptr;
    size_t map = 0, pages = 0, page = 0;
    guarded_t(size_t bytes, bool flush_end) {
        page = size_t(sysconf(_SC_PAGESIZE));
        pages = (bytes + page - 1) / page;
        map = (pages + 2) * page;
        void *m = mmap(nullptr, map, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) die("mmap failed");
        base = static_cast<char *>(m);
        if (pages) mprotect(base + page, pages * page, PROT_READ | PROT_WRITE);
        data = flush_end ? base + page + pages * page - bytes : base + page;
    }
    void read_only() {
        if (pages) mprotect(base + page, pages * page, PROT_READ);
    }
    ~guarded_t() { munmap(base, map); }
};

// ---- pieces -------------------------------------------------------------------------

const char *const k_tags[] = { "a", "ab", "ba", "abc", "acb", "cba", "bca", "abcd", "acdb", "bcda",
    "cdba", "abdc", "aBcd16b", "aBcd8b", "aBcd4b", "ABcd16b16a", "ABcd4b16a4b", "ABcd8b16a2b",
    "BAcd16a16b", "Acdb16a", "aBCde16c16b", "aBCde4c16b4c", "BA16a64b4a", "AB16b16a", "Ab16a",
    "aB16b", "abcde", "acdeb", "aBcde16b", "abx", "aBx16b", "xba", "ABcde8b8a", "Abcd8a", "aBdc16b",
    "ABcd2a8b8a2b" };
constexpr int k_ntags = sizeof(k_tags) / sizeof(k_tags[0]);

const relayout_data_type_t k_dts[] = { relayout_f32, relayout_bf16, relayout_f16, relayout_s32,
    relayout_s8, relayout_u8, relayout_s16, relayout_u16 };

std::string tag_for(reader_t &r) {
    const uint8_t sel = r.u8();
    if (sel < 224) return k_tags[sel % k_ntags];
    return r.str(24); // any string
}

void check_desc(const_relayout_memory_desc_t md) {
    char buf[256];
    relayout_memory_desc_to_string(md, buf, sizeof(buf));
    (void)relayout_memory_desc_get_size(md);
    int nd = 0;
    relayout_memory_desc_query(md, relayout_query_ndims_s32, &nd);
    if (nd < 0 || nd > RELAYOUT_MAX_NDIMS) die("ndims out of range");
    (void)relayout_memory_desc_equal(md, md);
}

// Mode 0: a string tag over fuzzed dims.
void fuzz_tag(reader_t &r) {
    const int ndims = r.u8() % (RELAYOUT_MAX_NDIMS + 2);
    relayout_dims_t dims;
    for (int d = 0; d < RELAYOUT_MAX_NDIMS; ++d)
        dims[d] = r.dim(70);
    const std::string tag = r.str(40);
    relayout_memory_desc_t md = nullptr;
    if (relayout_memory_desc_create_with_string_tag(
                &md, ndims, dims, k_dts[r.u8() % 8], tag.c_str())
            == relayout_success) {
        check_desc(md);
        relayout_memory_desc_destroy(md);
    } else if (md) {
        die("failed create left a handle");
    }
}

// Mode 1: descriptors from strides / blocking and the descriptor operations.
void fuzz_desc(reader_t &r) {
    const int ndims = r.u8() % (RELAYOUT_MAX_NDIMS + 2);
    const relayout_data_type_t dt = k_dts[r.u8() % 8];
    relayout_dims_t dims, strides, blks, idxs, sub_dims, offs;
    for (int d = 0; d < RELAYOUT_MAX_NDIMS; ++d) {
        dims[d] = r.dim(40);
        strides[d] = r.dim(255);
    }
    relayout_memory_desc_t md = nullptr;
    const uint8_t how = r.u8() % 3;
    relayout_status_t st;
    if (how == 0) {
        st = relayout_memory_desc_create_with_strides(&md, ndims, dims, dt, strides);
    } else if (how == 1) {
        st = relayout_memory_desc_create_with_strides(&md, ndims, dims, dt, nullptr);
    } else {
        const int nblks = r.u8() % 5;
        for (int i = 0; i < RELAYOUT_MAX_NDIMS; ++i) {
            blks[i] = r.dim(32);
            idxs[i] = r.dim(6);
        }
        st = relayout_memory_desc_create_with_blocking(
                &md, ndims, dims, dt, strides, nblks, blks, idxs);
    }
    if (st != relayout_success) return;
    check_desc(md);
    for (int d = 0; d < RELAYOUT_MAX_NDIMS; ++d) {
        sub_dims[d] = r.dim(40);
        offs[d] = r.dim(40);
    }
    relayout_memory_desc_t out = nullptr;
    if (relayout_memory_desc_create_submemory(&out, md, sub_dims, offs) == relayout_success) {
        check_desc(out);
        relayout_memory_desc_destroy(out);
    }
    const int rnd = r.u8() % (RELAYOUT_MAX_NDIMS + 1);
    if (relayout_memory_desc_reshape(&out, md, rnd, sub_dims) == relayout_success) {
        check_desc(out);
        relayout_memory_desc_destroy(out);
    }
    int perm[RELAYOUT_MAX_NDIMS];
    for (int d = 0; d < RELAYOUT_MAX_NDIMS; ++d)
        perm[d] = int(r.dim(12));
    if (relayout_memory_desc_permute_axes(&out, md, perm) == relayout_success) {
        check_desc(out);
        relayout_memory_desc_destroy(out);
    }
    if (relayout_memory_desc_set_extra(md, r.u8() & 0xB, r.u8() & 0x7, r.u8() & 0x7, r.f32())
            == relayout_success)
        check_desc(md);
    relayout_memory_desc_destroy(md);
}

struct problem_t {
    relayout_memory_desc_t src = nullptr, dst = nullptr;
    relayout_primitive_attr_t attr = nullptr;
    ~problem_t() {
        relayout_memory_desc_destroy(src);
        relayout_memory_desc_destroy(dst);
        relayout_primitive_attr_destroy(attr);
    }
};

relayout_engine_t cpu() {
    static relayout_engine_t e = [] {
        relayout_engine_t x = nullptr;
        if (relayout_engine_create(&x, relayout_cpu, 0) != relayout_success) die("no cpu engine");
        return x;
    }();
    return e;
}

// Runs the problem at one ISA cap in guarded buffers; returns false when
// the library declines it (status != success), dst bytes in `out`.
bool run_at(const problem_t &p, relayout_cpu_isa_t isa, const std::vector<char> &src_bytes,
        bool flush_end, std::vector<char> &out, std::string &dst_str) {
    relayout_set_max_cpu_isa(isa);
    relayout_primitive_desc_t pd = nullptr;
    if (relayout_reorder_primitive_desc_create(&pd, p.src, cpu(), p.dst, cpu(), p.attr)
            != relayout_success)
        return false;
    const_relayout_memory_desc_t dmd = nullptr;
    relayout_primitive_desc_query_md(pd, RELAYOUT_ARG_DST, &dmd); // resolves 'any'
    char buf[512];
    relayout_memory_desc_to_string(dmd, buf, sizeof(buf));
    dst_str = buf;
    const size_t ss = relayout_memory_desc_get_size(p.src);
    const size_t ds = relayout_memory_desc_get_size(dmd);
    guarded_t gs(ss, flush_end), gd(ds, flush_end);
    if (ss) std::memcpy(gs.data, src_bytes.data(), ss);
    for (size_t i = 0; i < ds; ++i)
        gd.data[i] = char(0x5A ^ i);
    relayout_memory_t sm = nullptr, dm = nullptr;
    relayout_primitive_t prim = nullptr;
    relayout_stream_t s = nullptr;
    bool ok = relayout_memory_create(&sm, p.src, cpu(), gs.data) == relayout_success
              && relayout_memory_create(&dm, dmd, cpu(), gd.data) == relayout_success
              && relayout_primitive_create(&prim, pd) == relayout_success
              && relayout_stream_create(&s, cpu(), 0) == relayout_success;
    if (ok) {
        std::vector<char> src_after_create(gs.data, gs.data + ss); // padding zeroed
        gs.read_only();                                            // a write to the source faults
        relayout_exec_arg_t args[2] = { { RELAYOUT_ARG_SRC, sm }, { RELAYOUT_ARG_DST, dm } };
        ok = relayout_primitive_execute(prim, s, 2, args) == relayout_success;
        if (ss && std::memcmp(src_after_create.data(), gs.data, ss) != 0) die("source written");
        out.assign(gd.data, gd.data + ds);
    }
    relayout_stream_destroy(s);
    relayout_primitive_destroy(prim);
    relayout_memory_destroy(sm);
    relayout_memory_destroy(dm);
    relayout_primitive_desc_destroy(pd);
    return ok;
}

// Replaces src and dst by descriptors made with permute_axes: a tag over
// permuted dims, relabelled back to `dims` (layouts no tag names).
void permute_both(reader_t &r, problem_t &p, int ndims, const relayout_dims_t dims,
        relayout_data_type_t sdt, relayout_data_type_t ddt, const std::string &stag,
        const std::string &dtag) {
    int perm[RELAYOUT_MAX_NDIMS];
    for (int d = 0; d < ndims; ++d)
        perm[d] = d;
    for (int d = ndims - 1; d > 0; --d) { // Fisher-Yates from fuzz bytes
        const int k = r.u8() % (d + 1);
        std::swap(perm[d], perm[k]);
    }
    relayout_dims_t in_dims; // out.dims[perm[i]] = in.dims[i]
    for (int i = 0; i < ndims; ++i)
        in_dims[i] = dims[perm[i]];
    relayout_memory_desc_t s0 = nullptr, d0 = nullptr, s1 = nullptr, d1 = nullptr;
    if (relayout_memory_desc_create_with_string_tag(&s0, ndims, in_dims, sdt, stag.c_str())
                    == relayout_success
            && relayout_memory_desc_create_with_string_tag(&d0, ndims, in_dims, ddt, dtag.c_str())
                       == relayout_success
            && relayout_memory_desc_permute_axes(&s1, s0, perm) == relayout_success
            && relayout_memory_desc_permute_axes(&d1, d0, perm) == relayout_success) {
        relayout_memory_desc_destroy(p.src);
        relayout_memory_desc_destroy(p.dst);
        p.src = s1;
        p.dst = d1;
        s1 = d1 = nullptr;
    }
    relayout_memory_desc_destroy(s0);
    relayout_memory_desc_destroy(d0);
    relayout_memory_desc_destroy(s1);
    relayout_memory_desc_destroy(d1);
}

// Mode 2: a small reorder at every ISA cap, differential against the
// reference.
void fuzz_reorder(reader_t &r) {
    const int ndims = 1 + r.u8() % 5;
    relayout_dims_t dims;
    int64_t volume = 1;
    for (int d = 0; d < ndims; ++d) {
        dims[d] = r.u8() % 24; // 0 allowed: zero volume
        volume *= dims[d] ? dims[d] : 1;
    }
    if (volume > 6000) return; // keep executions cheap
    problem_t p;
    const relayout_data_type_t sdt = k_dts[r.u8() % 8], ddt = k_dts[r.u8() % 8];
    const std::string stag = tag_for(r), dtag = tag_for(r);
    if (relayout_memory_desc_create_with_string_tag(&p.src, ndims, dims, sdt, stag.c_str())
            != relayout_success)
        return;
    const uint8_t dsel = r.u8();
    relayout_status_t st;
    if (dsel < 16) { // a strided destination with gaps
        relayout_dims_t strides;
        int64_t s = 1 + r.u8() % 3;
        for (int d = ndims - 1; d >= 0; --d) {
            strides[d] = s;
            s *= (dims[d] ? dims[d] : 1) + r.u8() % 3;
        }
        st = relayout_memory_desc_create_with_strides(&p.dst, ndims, dims, ddt, strides);
    } else if (dsel < 24) {
        st = relayout_memory_desc_create_with_tag(
                &p.dst, ndims, dims, ddt, relayout_format_tag_any);
    } else {
        st = relayout_memory_desc_create_with_string_tag(&p.dst, ndims, dims, ddt, dtag.c_str());
    }
    if (st != relayout_success) return;
    if (r.u8() < 64) { // a sub-memory view of the source
        relayout_dims_t sub, off;
        for (int d = 0; d < ndims; ++d) {
            off[d] = dims[d] ? r.u8() % dims[d] : 0;
            sub[d] = dims[d] - off[d] ? 1 + r.u8() % (dims[d] - off[d]) : 0;
        }
        relayout_memory_desc_t view = nullptr;
        if (relayout_memory_desc_create_submemory(&view, p.src, sub, off) == relayout_success) {
            // The destination must have the view's dims.
            relayout_memory_desc_t nd = nullptr;
            if (relayout_memory_desc_create_with_string_tag(&nd, ndims, sub, ddt, dtag.c_str())
                    == relayout_success) {
                relayout_memory_desc_destroy(p.src);
                relayout_memory_desc_destroy(p.dst);
                p.src = view;
                p.dst = nd;
                view = nullptr;
            }
            relayout_memory_desc_destroy(view);
        }
    }
    if (r.u8() < 48) permute_both(r, p, ndims, dims, sdt, ddt, stag, dtag);
    const uint8_t extra = r.u8();
    if (extra < 48 && (ddt == relayout_s8 || ddt == relayout_u8)) {
        relayout_memory_desc_set_extra(p.dst, extra & 0xB, r.u8() % 16, r.u8() % 16, r.f32());
    }
    if (relayout_primitive_attr_create(&p.attr) != relayout_success) die("attr");
    const uint8_t a = r.u8();
    if (a & 1) {
        const int mask = r.u8() % (1 << ndims);
        int64_t count = 1;
        for (int d = 0; d < ndims; ++d)
            if (mask & (1 << d)) count *= dims[d];
        if (r.u8() < 16) count = r.u8(); // sometimes wrong on purpose
        std::vector<float> sc(size_t(count > 0 && count < 100000 ? count : 1));
        for (auto &v : sc)
            v = r.u8() < 240 ? 0.25f * (1 + r.u8() % 16) : r.f32();
        relayout_primitive_attr_set_scales(
                p.attr, (a & 2) ? RELAYOUT_ARG_DST : RELAYOUT_ARG_SRC, count, mask, sc.data());
    }
    if (a & 4) relayout_primitive_attr_set_zero_point(p.attr, RELAYOUT_ARG_SRC, int8_t(r.u8()));
    if (a & 8) relayout_primitive_attr_set_zero_point(p.attr, RELAYOUT_ARG_DST, int8_t(r.u8()));
    if (a & 16) relayout_primitive_attr_set_post_ops_sum(p.attr, r.u8() < 200 ? 0.5f : r.f32());
    const bool flush_end = a & 32;

    const size_t ss = relayout_memory_desc_get_size(p.src);
    std::vector<char> src(ss);
    for (size_t i = 0; i < ss; ++i)
        src[i] = char(r.u8() ^ (i * 131));

    std::vector<char> ref, got;
    std::string ref_dst, got_dst;
    const bool ref_ok = run_at(p, relayout_cpu_isa_none, src, flush_end, ref, ref_dst);
    const relayout_cpu_isa_t caps[] = { relayout_cpu_isa_avx2, relayout_cpu_isa_avx512_core,
        relayout_cpu_isa_avx512_core_bf16 };
    for (auto cap : caps) {
        relayout_set_max_cpu_isa(cap);
        if (relayout_get_effective_cpu_isa() != cap) continue; // not on this CPU
        const bool ok = run_at(p, cap, src, flush_end, got, got_dst);
        // A format_kind 'any' destination may resolve differently per ISA
        // (e.g. aBcd8b for avx2, aBcd16b for avx512_core): compare only
        // the same layouts.
        if (ok && ref_ok && got_dst != ref_dst) continue;
        // A JIT may decline (unimplemented) and fall back; when both ran,
        // the bytes must agree.
        if (ok && !ref_ok) die("the JIT accepted a problem the reference refused");
        if (ok && ref_ok && got.size() != ref.size()) die("JIT and reference dst sizes differ");
        if (ok && ref_ok && got != ref) {
            size_t i = 0;
            while (i < got.size() && got[i] == ref[i])
                ++i;
            fprintf(stderr,
                    "fuzz_reorder: isa %d differs from the reference at dst byte %zu "
                    "of %zu: %02x vs %02x\n",
                    int(cap), i, got.size(), (unsigned char)got[i], (unsigned char)ref[i]);
            char b1[256], b2[256];
            relayout_memory_desc_to_string(p.src, b1, sizeof(b1));
            relayout_memory_desc_to_string(p.dst, b2, sizeof(b2));
            fprintf(stderr, "fuzz_reorder: src %s dst %s\n", b1, b2);
            die("JIT and reference disagree");
        }
    }
    relayout_set_max_cpu_isa(relayout_cpu_isa_default);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bool init = [] {
        relayout_set_num_threads(1); // deterministic and cheap
        relayout_set_primitive_cache_capacity(64);
        return true;
    }();
    (void)init;
    reader_t r{ data, size };
    switch (r.u8() % 3) {
        case 0: fuzz_tag(r); break;
        case 1: fuzz_desc(r); break;
        default: fuzz_reorder(r); break;
    }
    return 0;
}
