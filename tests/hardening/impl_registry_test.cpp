// The implementation registry (src/runtime/impl_list): registrations made
// while other threads create reorders. A list a reader holds must never
// change under it, a registered implementation must be tried ahead of the
// built-in ones, and descriptors remembered from before a registration must
// not be reused after it. Run it under ThreadSanitizer too (.ci/run).
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/status.hpp"
#include "ref/ref_reorder.hpp"
#include "relayout/relayout.hpp"
#include "runtime/impl_list.hpp"

namespace {

using namespace relayout;
using dt = memory::data_type;
using tag = memory::format_tag;
namespace ri = relayout::impl;

std::atomic<int> declined_calls{ 0 };

ri::status_t decline_init(relayout_primitive_desc &) {
    declined_calls++;
    return ri::fail(ri::status_t::unimplemented, "test:declines declines everything");
}
ri::status_t no_kernel(const relayout_primitive_desc &, std::shared_ptr<const ri::kernel_t> &) {
    return ri::status_t::runtime_error;
}
const ri::reorder_impl_t declines = { "test:declines", decline_init, no_kernel };

// Accepts only problems whose first dim is 3, and runs them on the
// reference planner's executor.
class ref_kernel_t : public ri::kernel_t {
public:
    explicit ref_kernel_t(const ri::plan_t &p) : plan_(p) {}
    ri::status_t execute(const ri::exec_ctx_t &ctx) const override {
        return ri::ref_reorder_execute(plan_, ctx);
    }

private:
    ri::plan_t plan_;
};
ri::status_t accept_init(relayout_primitive_desc &pd) {
    if (pd.src_md.ndims < 1 || pd.src_md.dims[0] != 3)
        return ri::fail(ri::status_t::unimplemented, "test:accepts wants dims[0] == 3");
    return ri::status_t::success;
}
ri::status_t accept_create(
        const relayout_primitive_desc &pd, std::shared_ptr<const ri::kernel_t> &k) {
    k = std::make_shared<ref_kernel_t>(pd.plan);
    return ri::status_t::success;
}
const ri::reorder_impl_t accepts = { "test:accepts", accept_init, accept_create };

// One nchw -> nChw16c reorder of the given batch; returns the impl name and
// checks the values against the index formula.
std::string run_one(memory::dim n) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::dims d = { n, 20, 3, 5 };
    memory::desc smd(d, dt::f32, tag::nchw), dmd(d, dt::f32, tag::nChw16c);
    reorder::primitive_desc pd(eng, smd, eng, dmd);
    memory src(smd, eng), dst(dmd, eng);
    float *sp = static_cast<float *>(src.get_data_handle());
    for (memory::dim i = 0; i < n * 20 * 15; i++)
        sp[i] = static_cast<float>(i);
    reorder(pd).execute(s, src, dst);
    const float *dp = static_cast<const float *>(dst.get_data_handle());
    for (memory::dim in = 0; in < n; in++)
        for (memory::dim c = 0; c < 20; c++)
            for (memory::dim hw = 0; hw < 15; hw++) {
                const memory::dim o = ((in * 2 + c / 16) * 15 + hw) * 16 + c % 16;
                EXPECT_EQ(dp[o], static_cast<float>((in * 20 + c) * 15 + hw))
                        << "n " << in << " c " << c << " hw " << hw;
            }
    return pd.impl_info_str();
}

TEST(ImplRegistry, RegistrationsWhileCreating) {
    const ri::impl_list_t builtin = ri::reorder_impl_list();
    ASSERT_FALSE(builtin.empty());
    EXPECT_STREQ(builtin.back()->name, "ref:any");
    const uint64_t gen0 = ri::reorder_impl_list_generation();
    // A list published by a registration, held (as a creation walking it
    // would) while later registrations publish others.
    ri::register_reorder_impl(&declines, 1000);
    const ri::impl_list_t &held = ri::reorder_impl_list();
    const ri::impl_list_t snapshot = held;
    ASSERT_EQ(snapshot.size(), builtin.size() + 1);
    EXPECT_EQ(snapshot.front(), &declines);

    // Remembered before the registrations (per-thread descriptor memo).
    const std::string builtin3 = run_one(3), builtin2 = run_one(2);
    EXPECT_NE(builtin3, "test:accepts");

    std::atomic<bool> stop{ false };
    std::atomic<int> runs{ 0 };
    std::vector<std::thread> creators;
    for (int t = 0; t < 3; t++)
        creators.emplace_back([&, t] {
            while (!stop.load()) {
                run_one(1 + t % 2); // never 3: the built-in impls run these
                runs++;
            }
        });
    constexpr int registrations = 40;
    for (int i = 0; i < registrations; i++) {
        ri::register_reorder_impl(&declines, i);
        std::this_thread::yield();
    }
    while (runs.load() < 20)
        std::this_thread::yield();
    stop = true;
    for (auto &t : creators)
        t.join();

    // The list held from before did not change under its reader.
    EXPECT_EQ(held, snapshot);
    EXPECT_EQ(ri::reorder_impl_list_generation(), gen0 + registrations + 1);
    const ri::impl_list_t &now = ri::reorder_impl_list();
    ASSERT_EQ(now.size(), builtin.size() + registrations + 1);
    for (int i = 0; i <= registrations; i++)
        EXPECT_EQ(now[i], &declines) << i;
    EXPECT_TRUE(std::equal(builtin.begin(), builtin.end(), now.begin() + registrations + 1));
    EXPECT_GT(declined_calls.load(), 0);

    // A registration ahead of the built-in ones wins where it accepts, and
    // the descriptor remembered for the same problem before is not reused.
    ri::register_reorder_impl(&accepts, -1);
    EXPECT_EQ(ri::reorder_impl_list().front(), &accepts);
    EXPECT_EQ(run_one(3), "test:accepts");
    EXPECT_EQ(run_one(2), builtin2);
}

} // namespace
