// The README example: nchw f32 -> nChw16c f32 and back.
#include <cstdio>
#include <vector>

#include "relayout/relayout.hpp"

int main() {
    using namespace relayout;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory::dims dims = { 2, 17, 5, 3 };
    memory::desc src_md(dims, memory::data_type::f32, memory::format_tag::nchw);
    memory::desc dst_md(dims, memory::data_type::f32, memory::format_tag::nChw16c);
    std::vector<float> data(2 * 17 * 5 * 3, 1.f);
    memory src(src_md, eng, data.data()), dst(dst_md, eng);
    reorder(src, dst).execute(s, src, dst);

    // The destination holds 32 channels: 17 real ones and 15 of zero
    // padding. Channel 17 of image 0 sits in the second 16-channel block.
    const float *out = static_cast<const float *>(dst.get_data_handle());
    const float pad = out[16 * 5 * 3 + 1];
    std::printf("dst bytes %zu, first %g, padding %g\n", dst_md.get_size(), out[0], pad);
    return out[0] == 1.f && pad == 0.f ? 0 : 1;
}
