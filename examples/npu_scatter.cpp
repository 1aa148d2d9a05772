// Scatter an NCHW tensor into a BM1684X aligned layout, print its DMA
// program, gather it back and check the round trip.
#include <cstdio>
#include <vector>

#include "relayout/relayout_npu.hpp"

int main() {
    using namespace relayout;
    using dt = memory::data_type;
    try {
        engine cpu(engine::kind::cpu, 0);
        engine npu_eng = npu::make_engine("bm1684x"); // 64 NPUs x 256 KiB, 64-byte eu
        stream s(npu_eng);

        const memory::dims dims = { 2, 70, 7, 7 }; // N, C, H, W
        std::vector<float> host(2 * 70 * 7 * 7), back(host.size());
        for (size_t i = 0; i < host.size(); ++i)
            host[i] = float(i);
        memory::desc host_md(dims, dt::f32, memory::format_tag::nchw);
        memory src(host_md, cpu, host.data()), dst(host_md, cpu, back.data());

        // Address 0x4000 = NPU 0, offset 16 KiB; 70 channels wrap to 2 lane-rows.
        memory::desc local_md =
                npu::local_desc(npu_eng, 0x4000, dims, dt::f32, npu::layout::aligned);
        memory local(local_md, npu_eng);

        reorder::primitive_desc s2l(cpu, host_md, npu_eng, local_md);
        std::printf("impl: %s\nplan: %s\n%s", s2l.impl_info_str().c_str(), s2l.plan_str().c_str(),
                npu::program_listing(s2l).c_str());
        reorder(s2l).execute(s, src, local);

        const npu::local_info info = npu::query(local_md);
        const npu::location at = npu::element_location(local_md, 1, 65, 2, 3);
        std::printf("start npu %d, offset %lld, %lld channels/NPU, strides N=%lld C=%lld, "
                    "element (1,65,2,3) at NPU %d + %lld\n",
                info.start_npu, (long long)info.start_offset, (long long)info.channels_per_npu,
                (long long)info.strides[0], (long long)info.strides[1], at.npu,
                (long long)at.offset);

        reorder(local, dst).execute(s, local, dst); // gather back
        for (size_t i = 0; i < host.size(); ++i)
            if (back[i] != host[i]) {
                std::printf("mismatch at %zu\n", i);
                return 1;
            }
        std::printf("round trip OK\n");
    } catch (const error &e) {
        std::printf("%s\n", e.what());
        return 1;
    }
    return 0;
}
