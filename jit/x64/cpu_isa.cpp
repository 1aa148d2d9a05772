#include "jit/x64/cpu_isa.hpp"

#include "relayout/relayout.h"

#include <string>

#include "common/env.hpp"
#include "jit/x64/xbyak.hpp"

namespace relayout {
namespace impl {

int api_cpu_isa_cap(); // api/c_api.cpp

namespace x64 {

namespace {

const Xbyak::util::Cpu &cpu() {
    static const Xbyak::util::Cpu c;
    return c;
}

// The cap as a relayout_cpu_isa_t value (compared through cap_rank only).
int cap() {
    const int api = api_cpu_isa_cap();
    if (api != relayout_cpu_isa_default) return api;
    static const int env = [] {
        const std::string v = getenv_str("RELAYOUT_MAX_CPU_ISA", "");
        if (v == "none" || v == "NONE" || v == "ref") return (int)relayout_cpu_isa_none;
        if (v == "avx2" || v == "AVX2") return (int)relayout_cpu_isa_avx2;
        if (v == "avx512_core" || v == "AVX512_CORE") return (int)relayout_cpu_isa_avx512_core;
        if (v == "avx512_core_bf16" || v == "AVX512_CORE_BF16")
            return (int)relayout_cpu_isa_avx512_core_bf16;
        return (int)relayout_cpu_isa_all;
    }();
    return env;
}

} // namespace

int cap_rank(relayout_cpu_isa_t cap) {
    switch (cap) {
        case relayout_cpu_isa_none: return 0;
        case relayout_cpu_isa_avx2: return 1;
        case relayout_cpu_isa_avx512_core: return 2;
        case relayout_cpu_isa_avx512_core_bf16: return 3;
        case relayout_cpu_isa_default:
        case relayout_cpu_isa_all: return 4;
    }
    return 0;
}

int isa_rank(cpu_isa_t isa) {
    switch (isa) {
        case cpu_isa_t::none: return 0;
        case cpu_isa_t::avx2: return 1;
        case cpu_isa_t::avx512_core: return 2;
        case cpu_isa_t::avx512_core_bf16: return 3;
    }
    return 0;
}

const char *isa2str(cpu_isa_t isa) {
    switch (isa) {
        case cpu_isa_t::avx2: return "avx2";
        case cpu_isa_t::avx512_core: return "avx512_core";
        case cpu_isa_t::avx512_core_bf16: return "avx512_core_bf16";
        default: return "none";
    }
}

bool cpu_has(cpu_isa_t isa) {
    using C = Xbyak::util::Cpu;
    const auto &c = cpu();
    switch (isa) {
        case cpu_isa_t::none: return true;
        case cpu_isa_t::avx2:
            return c.has(C::tAVX2) && c.has(C::tFMA) && c.has(C::tF16C) && c.has(C::tBMI2);
        case cpu_isa_t::avx512_core:
            return cpu_has(cpu_isa_t::avx2) && c.has(C::tAVX512F) && c.has(C::tAVX512BW)
                   && c.has(C::tAVX512VL) && c.has(C::tAVX512DQ);
        case cpu_isa_t::avx512_core_bf16:
            return cpu_has(cpu_isa_t::avx512_core) && c.has(C::tAVX512_BF16);
    }
    return false;
}

bool isa_allowed(cpu_isa_t isa) {
    if (!cpu_has(isa)) return false;
    return cap_allows((relayout_cpu_isa_t)cap(), isa);
}

cpu_isa_t effective_isa() {
    if (isa_allowed(cpu_isa_t::avx512_core_bf16)) return cpu_isa_t::avx512_core_bf16;
    if (isa_allowed(cpu_isa_t::avx512_core)) return cpu_isa_t::avx512_core;
    if (isa_allowed(cpu_isa_t::avx2)) return cpu_isa_t::avx2;
    return cpu_isa_t::none;
}

bool cpu_is_intel() {
    return cpu().has(Xbyak::util::Cpu::tINTEL);
}

} // namespace x64
} // namespace impl
} // namespace relayout

extern "C" RELAYOUT_API relayout_cpu_isa_t relayout_get_effective_cpu_isa(void) {
    using namespace relayout::impl::x64;
    switch (effective_isa()) {
        case cpu_isa_t::avx512_core_bf16: return relayout_cpu_isa_avx512_core_bf16;
        case cpu_isa_t::avx512_core: return relayout_cpu_isa_avx512_core;
        case cpu_isa_t::avx2: return relayout_cpu_isa_avx2;
        default: return relayout_cpu_isa_none;
    }
}
