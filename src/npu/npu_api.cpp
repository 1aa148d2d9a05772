#include "npu/npu_api.hpp"

#include <vector>

namespace relayout {
namespace impl {
namespace npu {

int64_t npu_transfer_t::sys_bytes() const {
    return dir == dma_dir_t::l2l ? 0 : sys_required_bytes(sys);
}

std::string npu_transfer_t::listing() const {
    std::string s;
    if (staged && dir == dma_dir_t::s2l)
        s += "host_repack(" + sys_desc_str(sys) + " -> staging " + sys_desc_str(staging) + ")\n";
    s += prog.listing();
    if (staged && dir == dma_dir_t::l2s)
        s += "host_repack(staging " + sys_desc_str(staging) + " -> " + sys_desc_str(sys) + ")\n";
    return s;
}

status_t plan_s2l(const npu_config_t &cfg, const npu_sys_desc_t &src, const npu_local_desc_t &dst,
        npu_transfer_t &t) {
    RL_CHECK(validate_config(cfg));
    RL_CHECK(validate_sys(src, false));
    RL_CHECK(validate_local(cfg, dst));
    npu_transfer_t r;
    r.cfg = cfg;
    r.dir = dma_dir_t::s2l;
    r.sys = src;
    r.local_dst = dst;
    r.staged = src.storage != dst.storage;
    if (r.staged) {
        r.staging = make_sys_continuous(src.dims, src.data_type, dst.storage);
        RL_CHECK(check_storage(dst.storage, src.data_type, "npu scatter"));
        RL_CHECK(gen_s2l(cfg, r.staging, dst, r.prog));
    } else {
        RL_CHECK(gen_s2l(cfg, src, dst, r.prog));
    }
    t = std::move(r);
    return status_t::success;
}

status_t plan_l2s(const npu_config_t &cfg, const npu_local_desc_t &src, const npu_sys_desc_t &dst,
        npu_transfer_t &t) {
    RL_CHECK(validate_config(cfg));
    RL_CHECK(validate_local(cfg, src));
    RL_CHECK(validate_sys(dst, true));
    npu_transfer_t r;
    r.cfg = cfg;
    r.dir = dma_dir_t::l2s;
    r.sys = dst;
    r.local_src = src;
    r.staged = src.storage != dst.storage;
    if (r.staged) {
        r.staging = make_sys_continuous(dst.dims, dst.data_type, src.storage);
        RL_CHECK(check_storage(src.storage, dst.data_type, "npu gather"));
        RL_CHECK(gen_l2s(cfg, src, r.staging, r.prog));
    } else {
        RL_CHECK(gen_l2s(cfg, src, dst, r.prog));
    }
    t = std::move(r);
    return status_t::success;
}

status_t plan_l2l(const npu_config_t &cfg, const npu_local_desc_t &src, const npu_local_desc_t &dst,
        npu_transfer_t &t) {
    npu_transfer_t r;
    r.cfg = cfg;
    r.dir = dma_dir_t::l2l;
    r.local_src = src;
    r.local_dst = dst;
    RL_CHECK(gen_l2l(cfg, src, dst, r.prog));
    t = std::move(r);
    return status_t::success;
}

status_t execute_transfer(const npu_transfer_t &t, npu_sim_t &sim, const void *sys_src,
        void *sys_dst, size_t sys_bytes) {
    if (sim.config() != t.cfg)
        return failf(status_t::invalid_arguments, "npu transfer: planned for %s, run on %s",
                config_str(t.cfg).c_str(), config_str(sim.config()).c_str());
    switch (t.dir) {
        case dma_dir_t::l2l: {
            const void *none = nullptr;
            return sim.execute(t.prog, none, 0);
        }
        case dma_dir_t::s2l: {
            if (!t.staged) return sim.execute(t.prog, sys_src, sys_bytes);
            const int64_t need = sys_required_bytes(t.staging);
            std::vector<uint8_t> staging;
            try {
                staging.resize((size_t)need);
            } catch (const std::bad_alloc &) {
                return failf(status_t::out_of_memory,
                        "npu scatter: cannot allocate a %lld-byte staging "
                        "buffer",
                        (long long)need);
            }
            RL_CHECK(repack(t.sys, sys_src, sys_bytes, t.staging, staging.data(), staging.size()));
            const void *cstaging = staging.data();
            return sim.execute(t.prog, cstaging, staging.size());
        }
        case dma_dir_t::l2s: {
            if (!t.staged) return sim.execute(t.prog, sys_dst, sys_bytes);
            const int64_t need = sys_required_bytes(t.staging);
            if ((int64_t)sys_bytes < t.sys_bytes() || sys_dst == nullptr)
                return failf(status_t::invalid_arguments,
                        "npu gather: destination buffer of %zu bytes is "
                        "smaller than the %lld its descriptor needs",
                        sys_bytes, (long long)t.sys_bytes());
            std::vector<uint8_t> staging;
            try {
                staging.resize((size_t)need);
            } catch (const std::bad_alloc &) {
                return failf(status_t::out_of_memory,
                        "npu gather: cannot allocate a %lld-byte staging "
                        "buffer",
                        (long long)need);
            }
            RL_CHECK(sim.execute(t.prog, staging.data(), staging.size()));
            return repack(t.staging, staging.data(), staging.size(), t.sys, sys_dst, sys_bytes);
        }
        default: break;
    }
    return failf(status_t::invalid_arguments, "npu transfer: direction %s is not s2l, l2s or l2l",
            dma_dir_name(t.dir));
}

status_t scatter(const npu_sys_desc_t &sys_desc, const void *sys_ptr, size_t sys_bytes,
        const npu_local_desc_t &local, npu_sim_t &sim, npu_transfer_t *plan) {
    npu_transfer_t t;
    RL_CHECK(plan_s2l(sim.config(), sys_desc, local, t));
    RL_CHECK(execute_transfer(t, sim, sys_ptr, nullptr, sys_bytes));
    if (plan) *plan = std::move(t);
    return status_t::success;
}

status_t gather(const npu_local_desc_t &local, npu_sim_t &sim, const npu_sys_desc_t &sys_desc,
        void *sys_ptr, size_t sys_bytes, npu_transfer_t *plan) {
    npu_transfer_t t;
    RL_CHECK(plan_l2s(sim.config(), local, sys_desc, t));
    RL_CHECK(execute_transfer(t, sim, nullptr, sys_ptr, sys_bytes));
    if (plan) *plan = std::move(t);
    return status_t::success;
}

status_t move_local(const npu_local_desc_t &src, const npu_local_desc_t &dst, npu_sim_t &sim,
        npu_transfer_t *plan) {
    npu_transfer_t t;
    RL_CHECK(plan_l2l(sim.config(), src, dst, t));
    RL_CHECK(execute_transfer(t, sim, nullptr, nullptr, 0));
    if (plan) *plan = std::move(t);
    return status_t::success;
}

} // namespace npu
} // namespace impl
} // namespace relayout
