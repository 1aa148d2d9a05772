// Every one of the 2^32 f32 bit patterns converted to bf16 by the JIT at
// the machine's best ISA (avx512_core_bf16: vcvtne(2)ps2bf16 with the
// integer rounding for vectors with denormal lanes) and by the reference
// (cap none), compared bit for bit; with a src scale of 1 too (the value
// pipeline's other path: the copy's hoisted scale). Not a ctest test (a
// few seconds per ISA level): run by hand after changing the bf16
// rounding,
//   build/tests/jit/bf16_all_f32 [avx512_core_bf16|avx512_core|avx2]
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "relayout/relayout.hpp"

int main(int argc, char **argv) {
    using namespace relayout;
    const std::string level = argc > 1 ? argv[1] : "default";
    relayout_cpu_isa_t cap = relayout_cpu_isa_default;
    if (level == "avx512_core_bf16")
        cap = relayout_cpu_isa_avx512_core_bf16;
    else if (level == "avx512_core")
        cap = relayout_cpu_isa_avx512_core;
    else if (level == "avx2")
        cap = relayout_cpu_isa_avx2;
    else if (level != "default") {
        std::fprintf(stderr,
                "bf16_all_f32: unknown ISA level '%s' (avx512_core_bf16, avx512_core, avx2 or "
                "default)\n",
                level.c_str());
        return 2;
    }
    const memory::dim n = memory::dim(1) << 26; // patterns per chunk
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const memory::desc smd({ n }, memory::data_type::f32, "a");
    const memory::desc dmd({ n }, memory::data_type::bf16, "a");
    memory src(smd, eng), jit_dst(dmd, eng), ref_dst(dmd, eng);
    uint64_t mismatches = 0;
    for (int scaled = 0; scaled < 2; ++scaled) {
        primitive_attr attr;
        if (scaled) attr.set_scales(RELAYOUT_ARG_SRC, 0, { 1.f });
        set_max_cpu_isa(cap);
        reorder::primitive_desc jpd(eng, smd, eng, dmd, attr);
        reorder jit(jpd);
        set_max_cpu_isa(relayout_cpu_isa_none);
        reorder::primitive_desc rpd(eng, smd, eng, dmd, attr);
        reorder ref(rpd);
        set_max_cpu_isa(relayout_cpu_isa_default);
        std::printf("%s: jit %s, ref %s\n", scaled ? "scale 1" : "no scale",
                jpd.impl_info_str().c_str(), rpd.impl_info_str().c_str());
        auto *s = static_cast<uint32_t *>(src.get_data_handle());
        for (uint64_t base = 0; base < (uint64_t(1) << 32); base += uint64_t(n)) {
            for (memory::dim i = 0; i < n; ++i)
                s[i] = uint32_t(base + uint64_t(i));
            jit.execute(strm, src, jit_dst);
            ref.execute(strm, src, ref_dst);
            const auto *a = static_cast<const uint16_t *>(jit_dst.get_data_handle());
            const auto *b = static_cast<const uint16_t *>(ref_dst.get_data_handle());
            if (std::memcmp(a, b, size_t(n) * 2) == 0) continue;
            for (memory::dim i = 0; i < n; ++i)
                if (a[i] != b[i] && mismatches++ < 10)
                    std::printf("f32 0x%08x: jit 0x%04x ref 0x%04x\n", s[i], a[i], b[i]);
        }
    }
    std::printf("%s: %llu mismatches over 2 x 2^32 patterns\n", level.c_str(),
            (unsigned long long)mismatches);
    return mismatches != 0;
}
