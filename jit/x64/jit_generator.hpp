// Base of every x86-64 code generator (DESIGN §4).
//
// A generator is built, emits its code in the derived constructor (or a
// generate() it calls), then finalize() switches the pages from read+write
// to read+execute: code memory is never writable and executable at once
// (the pages are created without the RWE mode Xbyak would otherwise set).
// Code memory comes from a process-wide pool of page blocks: blocks of
// destroyed kernels are reused (one mprotect back to read+write) instead of
// being unmapped and mapped again.
// Xbyak 6.68 cannot emit again after readyRE()/reset(), so a generator is
// used for exactly one kernel and owns that kernel's code for its lifetime.
#ifndef RELAYOUT_JIT_X64_JIT_GENERATOR_HPP
#define RELAYOUT_JIT_X64_JIT_GENERATOR_HPP

#include <string>

#include "common/status.hpp"
#include "jit/x64/xbyak.hpp"

namespace relayout {
namespace impl {
namespace x64 {

class jit_generator_t : public Xbyak::CodeGenerator {
public:
    jit_generator_t(const std::string &name, size_t max_code_size);
    ~jit_generator_t() override = default;

    // Checks Xbyak's error state, makes the code read+execute and, with
    // RELAYOUT_JIT_DUMP=1, writes the bytes to relayout_jit_<n>_<name>.bin.
    status_t finalize();

    const void *entry() const { return getCode(); }
    const std::string &name() const { return name_; }
    // Xbyak error of the last emission (0: none), e.g. code too big.
    int error() const { return error_; }

protected:
    // System V prologue/epilogue: saves the callee-saved registers the
    // kernels use (rbx, rbp, r12-r15) and reserves `stack_bytes` of
    // 64-byte aligned scratch at [rsp].
    void preamble(int stack_bytes);
    void postamble();

private:
    std::string name_;
    int error_ = 0;
    int stack_bytes_ = 0;
};

// Whether RELAYOUT_JIT_DUMP is set (read once).
bool jit_dump_enabled();

} // namespace x64
} // namespace impl
} // namespace relayout

#endif
