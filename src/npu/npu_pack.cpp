#include "npu/npu_pack.hpp"

#include <algorithm>
#include <cstring>

#include "common/threading.hpp"
#include "npu/npu_utils.hpp"

namespace relayout {
namespace impl {
namespace npu {

namespace {

status_t check_same_tensor(const npu_sys_desc_t &a, const npu_sys_desc_t &b) {
    for (int i = 0; i < 4; ++i)
        if (a.dims[i] != b.dims[i])
            return failf(status_t::invalid_arguments,
                    "npu repack: source and destination dims differ at "
                    "dims[%d] (%lld vs %lld)",
                    i, (long long)a.dims[i], (long long)b.dims[i]);
    if (a.data_type != b.data_type)
        return failf(status_t::invalid_arguments,
                "npu repack: source data_type %s differs from destination "
                "%s",
                dt_name(a.data_type), dt_name(b.data_type));
    return status_t::success;
}

status_t pack_dense(const int64_t dims[4], relayout_data_type_t dt, npu_storage_t from,
        npu_storage_t to, const void *src, void *dst) {
    if (dims == nullptr || src == nullptr || dst == nullptr)
        return fail(status_t::invalid_arguments, "npu pack: dims, src and dst must not be NULL");
    const npu_sys_desc_t s = make_sys_continuous(dims, dt, from);
    const npu_sys_desc_t d = make_sys_continuous(dims, dt, to);
    RL_CHECK(validate_sys(s, false));
    RL_CHECK(validate_sys(d, true));
    return repack(s, src, (size_t)sys_required_bytes(s), d, dst, (size_t)sys_required_bytes(d));
}

} // namespace

status_t repack(const npu_sys_desc_t &src, const void *src_ptr, size_t src_bytes,
        const npu_sys_desc_t &dst, void *dst_ptr, size_t dst_bytes) {
    RL_CHECK(validate_sys(src, false));
    RL_CHECK(validate_sys(dst, true));
    RL_CHECK(check_same_tensor(src, dst));
    const int64_t sneed = sys_required_bytes(src);
    const int64_t dneed = sys_required_bytes(dst);
    if ((int64_t)src_bytes < sneed || (sneed > 0 && src_ptr == nullptr))
        return failf(status_t::invalid_arguments,
                "npu repack: source buffer of %zu bytes is smaller than the "
                "%lld its descriptor needs",
                src_bytes, (long long)sneed);
    if ((int64_t)dst_bytes < dneed || (dneed > 0 && dst_ptr == nullptr))
        return failf(status_t::invalid_arguments,
                "npu repack: destination buffer of %zu bytes is smaller "
                "than the %lld its descriptor needs",
                dst_bytes, (long long)dneed);
    if (sys_is_zero_volume(src)) return status_t::success;
    const auto *s = static_cast<const uint8_t *>(src_ptr);
    auto *d = static_cast<uint8_t *>(dst_ptr);
    if (s < d + dneed && d < s + sneed)
        return fail(
                status_t::invalid_arguments, "npu repack: source and destination buffers overlap");
    const int64_t N = src.dims[0], C = src.dims[1], H = src.dims[2], W = src.dims[3];
    const size_t sd = (size_t)dt_size(src.data_type);
    // Dummy slots of a packed destination: batches N .. round_up(N, k).
    const int64_t n_all = round_up(N, pack_factor(dst.storage));
    // Planes of (n, c) split statically over the library's threads; small
    // tensors stay on the caller's.
    const int64_t planes = n_all * C;
    const int nthr =
            planes * H * W < (int64_t(1) << 14) ? 1 : (int)std::min<int64_t>(planes, max_threads());
    parallel(nthr, [&](int ithr, int n_thr) {
        int64_t p0, p1;
        balance211(planes, n_thr, ithr, p0, p1);
        for (int64_t nc = p0; nc < p1; ++nc) {
            const int64_t n = nc / C, c = nc % C;
            for (int64_t h = 0; h < H; ++h)
                for (int64_t w = 0; w < W; ++w) {
                    uint8_t *to = d + sys_element_offset(dst, n, c, h, w);
                    if (n < N)
                        std::memcpy(to, s + sys_element_offset(src, n, c, h, w), sd);
                    else
                        std::memset(to, 0, sd);
                }
        }
    });
    return status_t::success;
}

status_t pack_4n(const int64_t dims[4], relayout_data_type_t dt, const void *src, void *dst) {
    return pack_dense(dims, dt, npu_storage_t::mode_1n, npu_storage_t::mode_4n, src, dst);
}
status_t unpack_4n(const int64_t dims[4], relayout_data_type_t dt, const void *src, void *dst) {
    return pack_dense(dims, dt, npu_storage_t::mode_4n, npu_storage_t::mode_1n, src, dst);
}
status_t pack_2n(const int64_t dims[4], relayout_data_type_t dt, const void *src, void *dst) {
    return pack_dense(dims, dt, npu_storage_t::mode_1n, npu_storage_t::mode_2n, src, dst);
}
status_t unpack_2n(const int64_t dims[4], relayout_data_type_t dt, const void *src, void *dst) {
    return pack_dense(dims, dt, npu_storage_t::mode_2n, npu_storage_t::mode_1n, src, dst);
}
status_t pack_2ic(const int64_t dims[4], const void *src, void *dst) {
    return pack_dense(
            dims, relayout_f32, npu_storage_t::mode_1n, npu_storage_t::mode_2ic, src, dst);
}
status_t unpack_2ic(const int64_t dims[4], const void *src, void *dst) {
    return pack_dense(
            dims, relayout_f32, npu_storage_t::mode_2ic, npu_storage_t::mode_1n, src, dst);
}

} // namespace npu
} // namespace impl
} // namespace relayout
