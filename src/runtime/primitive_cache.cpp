#include "runtime/primitive_cache.hpp"

#include <future>
#include <list>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "common/env.hpp"

namespace relayout {
namespace impl {

namespace {

struct result_t {
    status_t status;
    std::string message;
    kernel_ptr_t kernel;
};

class lru_cache_t {
public:
    lru_cache_t() : capacity_(getenv_int("RELAYOUT_CACHE_CAPACITY", 1024)) {
        if (capacity_ < 0) capacity_ = 0;
    }

    status_t get_or_create(const kernel_key_t &key,
            const std::function<status_t(kernel_ptr_t &)> &create, kernel_ptr_t &out, bool &hit) {
        std::shared_future<result_t> fut;
        // Only a builder needs one (a promise allocates its shared state).
        std::unique_ptr<std::promise<result_t>> promise;
        std::vector<std::shared_future<result_t>> evicted; // destroyed unlocked
        bool builder = false;
        {
            std::lock_guard<std::mutex> lock(m_);
            if (capacity_ == 0) {
                builder = true;
            } else {
                auto it = map_.find(key);
                if (it != map_.end()) {
                    lru_.splice(lru_.begin(), lru_, it->second.pos);
                    fut = it->second.fut;
                } else {
                    builder = true;
                    promise.reset(new std::promise<result_t>());
                    fut = promise->get_future().share();
                    auto ins = map_.emplace(key, entry_t{ fut, {} }).first;
                    lru_.push_front(&ins->first); // map nodes do not move
                    ins->second.pos = lru_.begin();
                    evict(evicted);
                }
            }
        }
        if (!builder) {
            hit = true;
            const result_t &r = fut.get();
            if (r.status != status_t::success) return fail(r.status, r.message);
            out = r.kernel;
            return status_t::success;
        }
        hit = false;
        result_t r;
        r.status = create(r.kernel);
        if (r.status != status_t::success) r.message = last_error_message();
        if (fut.valid()) {
            promise->set_value(r);
            if (r.status != status_t::success) {
                // Failures are not cached: a later call retries.
                std::lock_guard<std::mutex> lock(m_);
                auto it = map_.find(key);
                if (it != map_.end()) {
                    lru_.erase(it->second.pos);
                    map_.erase(it);
                }
            }
        }
        if (r.status != status_t::success) return fail(r.status, r.message);
        out = r.kernel;
        return status_t::success;
    }

    int capacity() {
        std::lock_guard<std::mutex> lock(m_);
        return capacity_;
    }
    void set_capacity(int c) {
        std::vector<std::shared_future<result_t>> evicted; // destroyed unlocked
        std::lock_guard<std::mutex> lock(m_);
        capacity_ = c;
        evict(evicted);
    }
    int size() {
        std::lock_guard<std::mutex> lock(m_);
        return (int)map_.size();
    }

private:
    // The list points at the keys held by the map, most recent first.
    using lru_t = std::list<const kernel_key_t *>;
    struct entry_t {
        std::shared_future<result_t> fut;
        lru_t::iterator pos;
    };
    // Kernels are destroyed by the caller once it has released the lock
    // (freeing a kernel's code and label tables is not free).
    void evict(std::vector<std::shared_future<result_t>> &evicted) {
        while ((int)map_.size() > capacity_) {
            auto it = map_.find(*lru_.back());
            lru_.pop_back();
            evicted.push_back(std::move(it->second.fut));
            map_.erase(it);
        }
    }
    std::mutex m_;
    int capacity_;
    lru_t lru_;
    std::unordered_map<kernel_key_t, entry_t, kernel_key_hash_t> map_;
};

lru_cache_t &cache() {
    static lru_cache_t c;
    return c;
}

} // namespace

int cache_capacity() {
    return cache().capacity();
}

status_t set_cache_capacity(int capacity) {
    if (capacity < 0)
        return failf(status_t::invalid_arguments, "cache capacity is %d; it must not be negative",
                capacity);
    cache().set_capacity(capacity);
    return status_t::success;
}

int cache_size() {
    return cache().size();
}

status_t cache_get_or_create(const kernel_key_t &key,
        const std::function<status_t(kernel_ptr_t &)> &create, kernel_ptr_t &out, bool &hit) {
    return cache().get_or_create(key, create, out, hit);
}

} // namespace impl
} // namespace relayout
