#include "jit/x64/jit_generator.hpp"

#include <atomic>
#include <cstdio>

#include "common/env.hpp"

namespace relayout {
namespace impl {
namespace x64 {

bool jit_dump_enabled() {
    static const bool on = getenv_int("RELAYOUT_JIT_DUMP", 0) != 0;
    return on;
}

jit_generator_t::jit_generator_t(const std::string &name, size_t max_code_size)
        // DontSetProtectRWE: the pages stay read+write while code is emitted.
        : Xbyak::CodeGenerator(max_code_size, Xbyak::DontSetProtectRWE), name_(name) {
    Xbyak::ClearError();
}

void jit_generator_t::preamble(int stack_bytes) {
    using namespace Xbyak;
    push(rbx);
    push(rbp);
    push(r12);
    push(r13);
    push(r14);
    push(r15);
    stack_bytes_ = stack_bytes;
    if (stack_bytes_ > 0) {
        // Keep the old rsp in rbp's slot-free place: r-aligned scratch.
        mov(rax, rsp);
        sub(rsp, stack_bytes_ + 64 + 8);
        and_(rsp, -64);
        mov(ptr[rsp + stack_bytes_], rax);
    }
}

void jit_generator_t::postamble() {
    using namespace Xbyak;
    if (stack_bytes_ > 0) mov(rsp, ptr[rsp + stack_bytes_]);
    pop(r15);
    pop(r14);
    pop(r13);
    pop(r12);
    pop(rbp);
    pop(rbx);
    vzeroupper();
    ret();
}

status_t jit_generator_t::finalize() {
    error_ = Xbyak::GetError();
    if (error_) {
        const std::string msg = Xbyak::ConvertErrorToString(error_);
        Xbyak::ClearError();
        return fail(status_t::runtime_error, "jit " + name_ + ": code generation failed: " + msg);
    }
    if (jit_dump_enabled()) {
        static std::atomic<int> seq{ 0 };
        std::string fname = "relayout_jit_" + std::to_string(seq++) + "_";
        for (char c : name_)
            fname += (isalnum((unsigned char)c) ? c : '_');
        fname += ".bin";
        if (FILE *f = std::fopen(fname.c_str(), "wb")) {
            std::fwrite(getCode(), 1, getSize(), f);
            std::fclose(f);
        }
    }
    if (!setProtectModeRE(false)) {
        Xbyak::ClearError();
        return fail(status_t::runtime_error, "jit " + name_ + ": cannot make the code executable");
    }
    return status_t::success;
}

} // namespace x64
} // namespace impl
} // namespace relayout
