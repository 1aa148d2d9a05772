#include "jit/x64/jit_generator.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <sys/mman.h>

#include "common/env.hpp"
#include "common/utils.hpp"

namespace relayout {
namespace impl {
namespace x64 {

namespace {

// Code memory for every generator. Creating a kernel used to cost four
// system calls and a page fault per page touched (mmap, mprotect RE; at
// destruction mprotect RW, munmap); in a VM that was ~15 us of a ~70 us
// cold creation. Blocks of freed kernels are kept (up to `max_pooled_bytes`)
// and reused: a reused block costs one mprotect back to read+write, its
// pages are populated already, and destruction costs nothing. Each block
// is followed by an inaccessible guard page, so that it stays a mapping of
// its own: an mprotect of the whole block then neither splits nor merges
// mappings (half the cost) and code never runs into a neighbour. A block
// is read+write while its generator emits and read+execute once finalized
// (jit_generator_t::finalize), never both.
class code_pool_t : public Xbyak::Allocator {
public:
    static constexpr size_t max_pooled_bytes = size_t(8) << 20;

    uint8_t *alloc(size_t size) override {
        size = round_up(std::max<size_t>(size, 1), page_size);
        uint8_t *p = nullptr;
        {
            std::lock_guard<std::mutex> lock(m_);
            auto it = free_.find(size);
            if (it != free_.end() && !it->second.empty()) {
                p = it->second.back();
                it->second.pop_back();
                pooled_bytes_ -= size;
            }
        }
        if (p) {
            // The block may be executable (a freed kernel): writable again.
            if (mprotect(p, size, PROT_READ | PROT_WRITE) != 0) {
                munmap(p, size + page_size);
                p = nullptr;
            }
        }
        if (!p) {
            void *q = mmap(nullptr, size + page_size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (q == MAP_FAILED) return nullptr;
            p = static_cast<uint8_t *>(q);
            if (mprotect(p + size, page_size, PROT_NONE) != 0) {
                munmap(p, size + page_size);
                return nullptr;
            }
        }
        std::lock_guard<std::mutex> lock(m_);
        live_[p] = size;
        return p;
    }

    void free(uint8_t *p) override {
        if (!p) return;
        size_t size = 0;
        {
            std::lock_guard<std::mutex> lock(m_);
            auto it = live_.find(p);
            if (it == live_.end()) return;
            size = it->second;
            live_.erase(it);
            if (pooled_bytes_ + size <= max_pooled_bytes) {
                free_[size].push_back(p); // stays read+execute until reused
                pooled_bytes_ += size;
                return;
            }
        }
        munmap(p, size + page_size);
    }

    // finalize() switches the protection itself (once, to read+execute);
    // Xbyak must not set RWE at construction nor RW at destruction.
    bool useProtect() const override { return false; }

private:
    static constexpr size_t page_size = 4096;
    std::mutex m_;
    std::unordered_map<uint8_t *, size_t> live_;
    std::map<size_t, std::vector<uint8_t *>> free_; // by block size
    size_t pooled_bytes_ = 0;
};

code_pool_t &code_pool() {
    // Never destroyed: kernels in the primitive cache may outlive statics.
    static code_pool_t *pool = new code_pool_t();
    return *pool;
}

} // namespace

bool jit_dump_enabled() {
    static const bool on = getenv_int("RELAYOUT_JIT_DUMP", 0) != 0;
    return on;
}

jit_generator_t::jit_generator_t(const std::string &name, size_t max_code_size)
        // DontSetProtectRWE: the pages stay read+write while code is emitted.
        : Xbyak::CodeGenerator(max_code_size, Xbyak::DontSetProtectRWE, &code_pool()), name_(name) {
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
    // A jump to a label never placed is left as a jump to nowhere (Xbyak
    // reports it only when asked): a generator bug, never run.
    if (hasUndefinedLabel())
        return fail(status_t::runtime_error,
                "jit " + name_ + ": code generation failed: a jump to a label never placed");
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
