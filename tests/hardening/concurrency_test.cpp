// Many threads through the shared kernel cache: 16 std::threads create and
// execute reorders of the same and of different problems while the cache
// is small (evictions all the time), while another thread resizes it and
// moves the ISA cap. Every result is checked bit for bit against the same
// problem computed alone beforehand. Run it under ThreadSanitizer with the
// tsan preset (see tests/hardening/README.md); that build runs parallel
// regions on std::threads (RELAYOUT_STD_THREADS), which the sanitizer can
// see, instead of Debian's uninstrumented oneTBB, so the threads of one
// reorder are checked too.
#include <atomic>
#include <chrono>
#include <mutex>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "relayout/relayout.hpp"

#if defined(__SANITIZE_THREAD__)
#define RELAYOUT_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RELAYOUT_UNDER_TSAN 1
#endif
#endif

namespace {

using namespace relayout;
using dt = memory::data_type;
using tag = memory::format_tag;

struct problem_t {
    memory::desc src, dst;
    std::function<void(primitive_attr &)> attr;
    std::vector<char> src_data, expected;
};

std::vector<char> fill(const memory::desc &md, unsigned seed) {
    std::vector<char> b(md.get_size());
    std::mt19937 rng(seed);
    const dt t = md.get_data_type();
    const size_t es = memory::data_type_size(t);
    std::uniform_real_distribution<float> u(-100.f, 100.f);
    for (size_t i = 0; i + es <= b.size(); i += es) {
        if (t == dt::f32) {
            float v = u(rng);
            std::memcpy(&b[i], &v, 4);
        } else {
            for (size_t k = 0; k < es; ++k)
                b[i + k] = char(rng() & 0x3f);
        }
    }
    return b;
}

std::vector<char> run(const problem_t &p, const engine &eng, const stream &s) {
    std::vector<char> src(p.src_data), dst(p.dst.get_size(), 0);
    memory sm(p.src, eng, src.data()), dm(p.dst, eng, dst.data());
    primitive_attr attr;
    if (p.attr) p.attr(attr);
    reorder r(reorder::primitive_desc(eng, p.src, eng, p.dst, attr));
    r.execute(s, sm, dm);
    return dst;
}

std::vector<problem_t> make_problems(const engine &eng, const stream &s) {
    std::vector<problem_t> v;
    auto add = [&](memory::desc a, memory::desc b, std::function<void(primitive_attr &)> at = {}) {
        problem_t p{ a, b, at, {}, {} };
        p.src_data = fill(a, unsigned(v.size() + 1));
        v.push_back(p);
    };
    const memory::dims act{ 2, 33, 9, 7 }, wei{ 40, 24, 3, 3 };
    add(memory::desc(act, dt::f32, tag::nchw), memory::desc(act, dt::f32, tag::nChw16c));
    add(memory::desc(act, dt::f32, tag::nChw16c), memory::desc(act, dt::f32, tag::nhwc));
    add(memory::desc(act, dt::f32, tag::nchw), memory::desc(act, dt::s8, tag::nhwc),
            [](primitive_attr &a) { a.set_scales(RELAYOUT_ARG_DST, 0, { 0.5f }); });
    add(memory::desc(wei, dt::f32, tag::oihw), memory::desc(wei, dt::f32, "ABcd16b16a"));
    add(memory::desc(wei, dt::f32, tag::oihw),
            memory::desc(wei, dt::s8, "ABcd4b16a4b")
                    .with_extra(relayout_extra_flag_compensation_conv_s8s8, 1));
    add(memory::desc({ 129, 65 }, dt::f32, tag::ab), memory::desc({ 129, 65 }, dt::bf16, tag::ba));
    add(memory::desc({ 129, 65 }, dt::f32, tag::ab), memory::desc({ 129, 65 }, dt::f16, tag::ab));
    add(memory::desc({ 300, 300 }, dt::f32, tag::ab), memory::desc({ 300, 300 }, dt::f32, tag::ba));
    add(memory::desc({ 4, 64, 28, 28 }, dt::f32, tag::nchw),
            memory::desc({ 4, 64, 28, 28 }, dt::f32, tag::nhwc));
    // above the serial threshold: split over the threads of one reorder,
    // with per-thread compensation sums and per-dim scales
    const memory::dims big_wei{ 128, 96, 3, 3 };
    add(memory::desc(big_wei, dt::f32, tag::oihw),
            memory::desc(big_wei, dt::s8, "ABcd4b16a4b")
                    .with_extra(relayout_extra_flag_compensation_conv_s8s8, 1),
            [](primitive_attr &a) {
                std::vector<float> sc(128);
                for (size_t o = 0; o < sc.size(); ++o)
                    sc[o] = 0.5f + 0.0625f * float(o % 7);
                a.set_scales(RELAYOUT_ARG_SRC, 1, sc);
            });
    add(memory::desc({ 2, 48, 40, 40 }, dt::f32, tag::nchw),
            memory::desc({ 2, 48, 40, 40 }, dt::bf16, tag::nChw16c));
    for (auto &p : v)
        p.expected = run(p, eng, s);
    return v;
}

struct cache_capacity_guard_t {
    int saved = get_primitive_cache_capacity();
    ~cache_capacity_guard_t() {
        set_primitive_cache_capacity(saved);
        set_max_cpu_isa(relayout_cpu_isa_default);
        set_num_threads(0);
    }
};

constexpr int k_threads = 16;

// Each thread loops over problems (a different starting point per thread)
// and checks every result; failures are counted, not asserted, off the
// main thread.
void hammer(const std::vector<problem_t> &probs, int iters, bool same_problem,
        std::atomic<int> &failures, std::atomic<int> &errors, std::string &first_error) {
    engine eng(engine::kind::cpu, 0);
    std::vector<std::thread> threads;
    std::atomic<int> ready{ 0 };
    std::mutex m;
    for (int t = 0; t < k_threads; ++t)
        threads.emplace_back([&, t] {
            stream s(eng);
            ready++;
            while (ready.load() < k_threads)
                std::this_thread::yield();
            for (int i = 0; i < iters; ++i) {
                const size_t k = same_problem ? 0 : size_t(t + i) % probs.size();
                try {
                    if (run(probs[k], eng, s) != probs[k].expected) failures++;
                } catch (const error &e) {
                    std::lock_guard<std::mutex> lock(m);
                    if (errors++ == 0) first_error = e.what();
                }
            }
        });
    for (auto &th : threads)
        th.join();
}

// k_threads threads execute the primitives, `iters` times each, thread t
// taking prims[(t + i) % n] at step i (so that all of them run at once),
// each on its problem's data; the results are checked. Returns the number
// of failures.
int execute_from_threads(const engine &eng, const std::vector<problem_t> &probs,
        const std::vector<reorder> &prims, int iters) {
    std::atomic<int> failures{ 0 };
    std::vector<std::thread> threads;
    for (int t = 0; t < k_threads; ++t)
        threads.emplace_back([&, t] {
            stream s(eng);
            for (int i = 0; i < iters; ++i) {
                const size_t k = size_t(t + i) % prims.size();
                const problem_t &p = probs[k];
                std::vector<char> src(p.src_data), dst(p.dst.get_size(), 0);
                try {
                    memory sm(p.src, eng, src.data()), dm(p.dst, eng, dst.data());
                    prims[k].execute(s, sm, dm);
                } catch (const error &) {
                    failures++;
                }
                if (dst != p.expected) failures++;
            }
        });
    for (auto &th : threads)
        th.join();
    return failures.load();
}

class Concurrency : public ::testing::Test {
protected:
    void SetUp() override {
        // Two threads per reorder at least, on any machine: the split of
        // one reorder is raced too (RELAYOUT_STD_THREADS builds make it
        // visible to ThreadSanitizer).
        set_num_threads(2);
        eng_ = engine(engine::kind::cpu, 0);
        s_ = stream(eng_);
        probs_ = make_problems(eng_, s_);
    }
    engine eng_;
    stream s_;
    std::vector<problem_t> probs_;
};

TEST_F(Concurrency, SameProblemFromEveryThread) {
    cache_capacity_guard_t guard;
    set_primitive_cache_capacity(0); // start cold: every thread races to build
    set_primitive_cache_capacity(4);
    std::atomic<int> failures{ 0 }, errors{ 0 };
    std::string first;
    hammer(probs_, 20, true, failures, errors, first);
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(errors.load(), 0) << first;
}

TEST_F(Concurrency, DifferentProblemsWithEvictions) {
    cache_capacity_guard_t guard;
    set_primitive_cache_capacity(2); // fewer slots than problems
    std::atomic<int> failures{ 0 }, errors{ 0 };
    std::string first;
    hammer(probs_, 30, false, failures, errors, first);
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(errors.load(), 0) << first;
}

TEST_F(Concurrency, WhileCapacityAndIsaCapChange) {
    cache_capacity_guard_t guard;
    std::atomic<bool> stop{ false };
    std::thread knob([&] {
        const int caps[] = { 0, 1, 3, 1024, 2 };
        const relayout_cpu_isa_t isas[] = { relayout_cpu_isa_none, relayout_cpu_isa_avx2,
            relayout_cpu_isa_default, relayout_cpu_isa_avx512_core };
        for (int i = 0; !stop.load(); ++i) {
            set_primitive_cache_capacity(caps[i % 5]);
            set_max_cpu_isa(isas[i % 4]);
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    });
    std::atomic<int> failures{ 0 }, errors{ 0 };
    std::string first;
    hammer(probs_, 25, false, failures, errors, first);
    stop = true;
    knob.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(errors.load(), 0) << first;
}

TEST_F(Concurrency, ReferenceAndJitSplitOverThreads) {
    // Every problem through the reference (C++ over the threads of each
    // reorder: visible to ThreadSanitizer, unlike generated code) and then
    // through the JIT, from 4 threads at once.
    cache_capacity_guard_t guard;
    for (const relayout_cpu_isa_t isa : { relayout_cpu_isa_none, relayout_cpu_isa_default }) {
        set_max_cpu_isa(isa);
        std::atomic<int> failures{ 0 }, errors{ 0 };
        std::vector<std::thread> threads;
        std::mutex m;
        std::string first;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (size_t k = 0; k < probs_.size(); ++k) {
                    const problem_t &p = probs_[(k + size_t(t)) % probs_.size()];
                    try {
                        if (run(p, eng_, s_) != p.expected) failures++;
                    } catch (const error &e) {
                        std::lock_guard<std::mutex> lock(m);
                        if (errors++ == 0) first = e.what();
                    }
                }
            });
        for (auto &th : threads)
            th.join();
        EXPECT_EQ(failures.load(), 0) << "isa " << int(isa);
        EXPECT_EQ(errors.load(), 0) << first;
    }
}

TEST_F(Concurrency, OnePrimitiveExecutedByManyThreads) {
    // A primitive is immutable once created: many threads may execute it.
    const problem_t &p = probs_[3];
    const reorder r(reorder::primitive_desc(eng_, p.src, eng_, p.dst));
    EXPECT_EQ(execute_from_threads(eng_, { p }, { r }, 10), 0);
}

TEST_F(Concurrency, PrimitivesSharingAKernelWithTheirOwnScales) {
    // Per-o scales of int8 weights: one kernel (scale values are not part
    // of its key), which the JIT runs with scales expanded over the folded
    // lanes, prepared by each primitive. Every thread executes all of them
    // in turn; each result must be that of its own scales (the reference).
    cache_capacity_guard_t guard;
    const memory::dims dims{ 64, 32, 3, 3 };
    problem_t base{ memory::desc(dims, dt::f32, tag::oihw),
        memory::desc(dims, dt::s8, "ABcd4b16a4b")
                .with_extra(relayout_extra_flag_compensation_conv_s8s8, 1),
        {}, fill(memory::desc(dims, dt::f32, tag::oihw), 99), {} };
    constexpr int k_prims = 4;
    std::vector<problem_t> probs(k_prims, base);
    set_max_cpu_isa(relayout_cpu_isa_none);
    for (int k = 0; k < k_prims; ++k) {
        probs[k].attr = [k](primitive_attr &a) {
            std::vector<float> sc(64);
            for (size_t o = 0; o < sc.size(); ++o)
                sc[o] = 0.25f * float(k + 1) + 0.03125f * float(o % 9);
            a.set_scales(RELAYOUT_ARG_SRC, 1, sc);
        };
        probs[k].expected = run(probs[k], eng_, s_);
    }
    set_max_cpu_isa(relayout_cpu_isa_default);
    std::vector<reorder> prims;
    for (const auto &p : probs) {
        primitive_attr a;
        p.attr(a);
        const reorder::primitive_desc pd(eng_, p.src, eng_, p.dst, a);
        const std::string impl = pd.impl_info_str();
        if (impl.rfind("jit:", 0) == 0) {
            EXPECT_NE(impl.find(":interleave"), std::string::npos) << impl;
        }
        prims.emplace_back(pd);
    }
    EXPECT_EQ(execute_from_threads(eng_, probs, prims, 12), 0);
}

} // namespace
