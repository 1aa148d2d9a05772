// A value built on first use, once, safely from several threads: the
// strings and copies that only some callers need (plan strings for verbose
// mode and queries) stay off the creation path.
#ifndef RELAYOUT_COMMON_LAZY_HPP
#define RELAYOUT_COMMON_LAZY_HPP

#include <atomic>
#include <mutex>
#include <utility>

namespace relayout {
namespace impl {

template <typename T>
class lazy_t {
public:
    lazy_t() = default;
    // A copy carries the value when it is built already, else builds its
    // own. A built value never changes, so the copy takes no lock (and may
    // be made from inside the source's own make()).
    lazy_t(const lazy_t &o) {
        if (o.done_.load(std::memory_order_acquire)) {
            v_ = o.v_;
            done_.store(true, std::memory_order_relaxed);
        }
    }
    // Like any assignment, not concurrent with readers of *this.
    lazy_t &operator=(const lazy_t &o) {
        if (this == &o) return *this;
        const bool done = o.done_.load(std::memory_order_acquire);
        v_ = done ? o.v_ : T{};
        done_.store(done, std::memory_order_release);
        return *this;
    }

    // The value, built by `make()` on the first call; later calls (from any
    // thread) return the same object without locking.
    template <typename F>
    const T &get(F &&make) const {
        if (done_.load(std::memory_order_acquire)) return v_;
        std::lock_guard<std::mutex> lock(m_);
        if (!done_.load(std::memory_order_relaxed)) {
            v_ = make();
            done_.store(true, std::memory_order_release);
        }
        return v_;
    }

private:
    mutable std::mutex m_;
    mutable std::atomic<bool> done_{ false };
    mutable T v_{};
};

} // namespace impl
} // namespace relayout

#endif
