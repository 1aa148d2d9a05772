// CPU ISA detection and the cap (DESIGN §4): the API cap wins over
// RELAYOUT_MAX_CPU_ISA, which wins over the CPU's best.
#ifndef RELAYOUT_JIT_X64_CPU_ISA_HPP
#define RELAYOUT_JIT_X64_CPU_ISA_HPP

#include "relayout/relayout_types.h"

namespace relayout {
namespace impl {
namespace x64 {

// avx512_core_bf16: avx512_core kernels that also convert to bf16 with
// vcvtne(2)ps2bf16 (AVX512_BF16); every other kernel is the avx512_core one.
enum class cpu_isa_t { none = 0, avx2 = 1, avx512_core = 2, avx512_core_bf16 = 3 };

// The vector register family of `isa`, which the kernel plan and the desc
// rules see: avx512_core for both AVX-512 levels.
inline cpu_isa_t vector_isa(cpu_isa_t isa) {
    return isa == cpu_isa_t::avx512_core_bf16 ? cpu_isa_t::avx512_core : isa;
}

// The levels' order, explicit: none < avx2 < avx512_core < avx512_core_bf16
// < all (the public relayout_cpu_isa_t values are not in that order: all =
// 4, avx512_core_bf16 = 5). A cap's rank (default: all's; an unknown
// value: none's).
int cap_rank(relayout_cpu_isa_t cap);
// A level's rank on the same scale.
int isa_rank(cpu_isa_t isa);
// Whether a cap admits `isa` (ignoring the CPU).
inline bool cap_allows(relayout_cpu_isa_t cap, cpu_isa_t isa) {
    return isa_rank(isa) <= cap_rank(cap);
}

const char *isa2str(cpu_isa_t isa);
// What the CPU supports (ignoring caps).
bool cpu_has(cpu_isa_t isa);
// Whether the CPU is an Intel one (rules tuned on one vendor only).
bool cpu_is_intel();
// The value of a vendor-gated experiment knob: the knob's own when set
// (>= 0; it then decides on any CPU), else `intel` on Intel CPUs and
// `other` elsewhere (docs/ARCHITECTURE.md §11, "Vendor gates").
inline int by_vendor(int knob, int intel, int other) {
    return knob >= 0 ? knob : cpu_is_intel() ? intel : other;
}
// Whether kernels may use `isa` now (CPU support and caps).
bool isa_allowed(cpu_isa_t isa);
// The best ISA allowed now.
cpu_isa_t effective_isa();

} // namespace x64
} // namespace impl
} // namespace relayout

#endif
