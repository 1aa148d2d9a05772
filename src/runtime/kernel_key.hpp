// The kernel cache key (DESIGN §3.3): everything a kernel bakes in,
// serialised as 64-bit words, with a 64-bit hash of them. Equality compares
// every word, so a hash collision costs a comparison, never a wrong kernel.
#ifndef RELAYOUT_RUNTIME_KERNEL_KEY_HPP
#define RELAYOUT_RUNTIME_KERNEL_KEY_HPP

#include <cstdint>
#include <cstring>
#include <vector>

namespace relayout {
namespace impl {

class kernel_key_t {
public:
    // Most keys (two blocked descriptors of up to 6 dims and an attribute)
    // fit without reallocation.
    static constexpr size_t typical_words = 96;

    kernel_key_t() { w_.reserve(typical_words); }

    void clear() {
        w_.clear();
        hash_ = seed;
    }
    // A cheap step per word (a bijection of the state for every word, so
    // keys that differ in one word never collide); mix() in hash() spreads
    // the bits once for the buckets.
    void add(uint64_t v) {
        w_.push_back(v);
        hash_ = (hash_ ^ v) * prime;
    }
    void add_f32(float f) {
        uint32_t bits;
        std::memcpy(&bits, &f, sizeof(bits));
        add(bits);
    }
    // Bytes, packed 8 to a word (the count first: "ab" + "" != "a" + "b").
    void add_bytes(const void *p, size_t n) {
        add(n);
        const unsigned char *b = static_cast<const unsigned char *>(p);
        for (size_t i = 0; i < n; i += 8) {
            uint64_t v = 0;
            std::memcpy(&v, b + i, n - i < 8 ? n - i : 8);
            add(v);
        }
    }
    void add_str(const char *s) { add_bytes(s, std::strlen(s)); }

    uint64_t hash() const { return mix(hash_); }
    size_t size() const { return w_.size(); }
    bool empty() const { return w_.empty(); }
    const uint64_t *data() const { return w_.data(); }

    bool operator==(const kernel_key_t &o) const {
        return hash_ == o.hash_ && w_.size() == o.w_.size()
               && std::memcmp(w_.data(), o.w_.data(), w_.size() * sizeof(uint64_t)) == 0;
    }
    bool operator!=(const kernel_key_t &o) const { return !(*this == o); }

private:
    static constexpr uint64_t seed = 0x9e3779b97f4a7c15ull;
    static constexpr uint64_t prime = 0x100000001b3ull;
    // murmur3's finaliser: every input bit reaches every output bit.
    static uint64_t mix(uint64_t v) {
        v ^= v >> 33;
        v *= 0xff51afd7ed558ccdull;
        v ^= v >> 33;
        v *= 0xc4ceb9fe1a85ec53ull;
        v ^= v >> 33;
        return v;
    }

    std::vector<uint64_t> w_;
    uint64_t hash_ = seed;
};

struct kernel_key_hash_t {
    size_t operator()(const kernel_key_t &k) const { return static_cast<size_t>(k.hash()); }
};

} // namespace impl
} // namespace relayout

#endif
