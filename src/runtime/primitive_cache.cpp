#include "runtime/primitive_cache.hpp"

#include <future>
#include <list>
#include <mutex>
#include <unordered_map>

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

    status_t get_or_create(const std::string &key,
            const std::function<status_t(kernel_ptr_t &)> &create, kernel_ptr_t &out, bool &hit) {
        std::shared_future<result_t> fut;
        std::promise<result_t> promise;
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
                    fut = promise.get_future().share();
                    lru_.push_front(key);
                    map_[key] = { fut, lru_.begin() };
                    evict();
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
            promise.set_value(r);
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
        std::lock_guard<std::mutex> lock(m_);
        capacity_ = c;
        evict();
    }
    int size() {
        std::lock_guard<std::mutex> lock(m_);
        return (int)map_.size();
    }

private:
    struct entry_t {
        std::shared_future<result_t> fut;
        std::list<std::string>::iterator pos;
    };
    void evict() {
        while ((int)map_.size() > capacity_) {
            map_.erase(lru_.back());
            lru_.pop_back();
        }
    }
    std::mutex m_;
    int capacity_;
    std::list<std::string> lru_;
    std::unordered_map<std::string, entry_t> map_;
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

status_t cache_get_or_create(const std::string &key,
        const std::function<status_t(kernel_ptr_t &)> &create, kernel_ptr_t &out, bool &hit) {
    return cache().get_or_create(key, create, out, hit);
}

} // namespace impl
} // namespace relayout
