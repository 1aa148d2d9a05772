// Packs an NCHW f32 tensor into an IN_OUT_CHANNEL half image on the OpenCL
// device (the README's example), then reads one pixel back through the
// interop API. Exits with 77 (skipped) when the machine has no OpenCL device.
#include <cstdio>
#include <vector>

#include "relayout/relayout_ocl.hpp"

using namespace relayout;

int main() {
    if (engine::get_count(engine::kind::ocl) == 0) {
        std::printf("ocl_pack_image: no OpenCL device, skipped\n");
        return 77;
    }
    std::vector<float> data(1 * 3 * 224 * 224);
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = float(i % 1000);

    // --- the README example -----------------------------------------------
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::ocl, 0);
    memory src({ { 1, 3, 224, 224 }, memory::data_type::f32, memory::format_tag::nchw }, cpu,
            data.data());
    memory img(image_desc(image_type::in_out_channel, { 1, 3, 224, 224 }, memory::data_type::f16),
            gpu);
    stream s(gpu);
    reorder(src, img).execute(s, src, img); // cl_mem: ocl_interop::get_mem_object(img)
    // -----------------------------------------------------------------------
    s.wait();

    const auto shape = image_shape(img.get_desc()); // r4(C)*W x N*H = 224 x 224
    // Pixel (x=5, y=7) holds channels 0..3 of (n=0, h=7, w=5); lane 3 is a tail.
    float px[4] = { 0, 0, 0, 0 };
    std::vector<unsigned short> half(4);
    const size_t origin[3] = { 5, 7, 0 }, region[3] = { 1, 1, 1 };
    if (clEnqueueReadImage(ocl_interop::get_queue(gpu), ocl_interop::get_mem_object(img), CL_TRUE,
                origin, region, 0, 0, half.data(), 0, nullptr, nullptr)
            != CL_SUCCESS)
        return 1;
    // Convert the three real lanes back with a cpu reorder f16 -> f32.
    memory hsrc({ { 3 }, memory::data_type::f16, memory::format_tag::a }, cpu, half.data());
    memory fdst({ { 3 }, memory::data_type::f32, memory::format_tag::a }, cpu, px);
    stream cs(cpu);
    reorder(hsrc, fdst).execute(cs, hsrc, fdst);
    const float want[3] = { data[7 * 224 + 5], data[224 * 224 + 7 * 224 + 5],
        data[2 * 224 * 224 + 7 * 224 + 5] };
    std::printf("image %lld x %lld, pixel (5,7) = %g %g %g (+ tail lane %u)\n",
            (long long)shape.first, (long long)shape.second, px[0], px[1], px[2], half[3]);
    for (int k = 0; k < 3; ++k)
        if (px[k] != want[k]) return 1;
    return half[3] == 0 ? 0 : 1;
}
