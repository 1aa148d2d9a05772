// DLPack interop (relayout_dlpack.h): DLTensor -> descriptor / memory, plain
// memories -> DLManagedTensor, and a clear error for every field relayout
// cannot express.
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "relayout/relayout_dlpack.h"

namespace {

using namespace relayout;
using dt = memory::data_type;

DLTensor make_tensor(void *data, std::vector<int64_t> &shape, int64_t *strides, DLDataType dtype,
        uint64_t byte_offset = 0) {
    DLTensor t;
    t.data = data;
    t.device = { kDLCPU, 0 };
    t.ndim = static_cast<int>(shape.size());
    t.dtype = dtype;
    t.shape = shape.data();
    t.strides = strides;
    t.byte_offset = byte_offset;
    return t;
}

const DLDataType f32_t{ kDLFloat, 32, 1 };

// Expects status `st` and a message containing every one of `needles`.
void expect_error(relayout_status_t got, relayout_status_t st, std::vector<std::string> needles) {
    EXPECT_EQ(got, st) << relayout_get_last_error_message();
    const std::string msg = relayout_get_last_error_message();
    for (const auto &n : needles)
        EXPECT_NE(msg.find(n), std::string::npos) << "message '" << msg << "' lacks '" << n << "'";
}

TEST(DlpackDesc, CompactRowMajorWhenStridesNull) {
    std::vector<int64_t> shape{ 2, 3, 4 };
    std::vector<float> buf(24);
    DLTensor t = make_tensor(buf.data(), shape, nullptr, f32_t);
    memory::desc md = dlpack::to_desc(t);
    EXPECT_EQ(md, memory::desc({ 2, 3, 4 }, dt::f32, memory::format_tag::abc));
    EXPECT_EQ(md.get_size(), 24 * sizeof(float));
}

TEST(DlpackDesc, ExplicitStridesAreElements) {
    std::vector<int64_t> shape{ 2, 3, 4 };
    int64_t strides[] = { 1, 8, 2 }; // acb-like with gaps
    std::vector<float> buf(64);
    DLTensor t = make_tensor(buf.data(), shape, strides, f32_t);
    memory::desc md = dlpack::to_desc(t);
    EXPECT_EQ(md.get_strides(), (memory::dims{ 1, 8, 2 }));
    EXPECT_EQ(md, memory::desc({ 2, 3, 4 }, dt::f32, memory::dims{ 1, 8, 2 }));
}

TEST(DlpackDesc, EveryDtypeMaps) {
    struct {
        DLDataType t;
        dt want;
    } table[] = { { { kDLFloat, 16, 1 }, dt::f16 }, { { kDLFloat, 32, 1 }, dt::f32 },
        { { kDLBfloat, 16, 1 }, dt::bf16 }, { { kDLInt, 8, 1 }, dt::s8 },
        { { kDLInt, 16, 1 }, dt::s16 }, { { kDLInt, 32, 1 }, dt::s32 },
        { { kDLUInt, 8, 1 }, dt::u8 }, { { kDLUInt, 16, 1 }, dt::u16 } };
    std::vector<int64_t> shape{ 5 };
    std::vector<char> buf(64);
    for (const auto &e : table) {
        DLTensor t = make_tensor(buf.data(), shape, nullptr, e.t);
        EXPECT_EQ(dlpack::to_desc(t).get_data_type(), e.want);
        DLDataType back;
        ASSERT_EQ(relayout_data_type_to_dlpack(static_cast<relayout_data_type_t>(e.want), &back),
                relayout_success);
        EXPECT_EQ(back.code, e.t.code);
        EXPECT_EQ(back.bits, e.t.bits);
        EXPECT_EQ(back.lanes, 1);
    }
}

TEST(DlpackDesc, ScalarIsOneElement) {
    std::vector<int64_t> shape;
    float v = 3.f;
    DLTensor t = make_tensor(&v, shape, nullptr, f32_t);
    memory::desc md = dlpack::to_desc(t);
    EXPECT_EQ(md.get_dims(), (memory::dims{ 1 }));
}

TEST(DlpackDesc, ZeroVolumeWithNullData) {
    std::vector<int64_t> shape{ 3, 0 };
    DLTensor t = make_tensor(nullptr, shape, nullptr, f32_t);
    memory::desc md = dlpack::to_desc(t);
    EXPECT_EQ(md.get_size(), 0u);
}

TEST(DlpackDesc, StrideOfSizeOneDimIgnored) {
    std::vector<int64_t> shape{ 1, 4 };
    int64_t strides[] = { -7, 1 };
    std::vector<float> buf(4);
    DLTensor t = make_tensor(buf.data(), shape, strides, f32_t);
    EXPECT_EQ(dlpack::to_desc(t), memory::desc({ 1, 4 }, dt::f32, memory::format_tag::ab));
}

struct bad_case_t {
    const char *name;
    relayout_status_t status;
    std::vector<std::string> needles;
    void (*mutate)(DLTensor &t);
};

int64_t g_neg_strides[] = { -4, 1 };
int64_t g_overlap_strides[] = { 1, 1 };

TEST(DlpackDesc, ErrorsNameTheField) {
    const bad_case_t table[] = {
        { "cuda device", relayout_unimplemented, { "device.device_type", "kDLCPU" },
                [](DLTensor &t) { t.device.device_type = kDLCUDA; } },
        { "lanes", relayout_unimplemented, { "lanes" }, [](DLTensor &t) { t.dtype.lanes = 4; } },
        { "f64", relayout_unimplemented, { "dtype", "kDLFloat", "64" },
                [](DLTensor &t) {
                    t.dtype = { kDLFloat, 64, 1 };
                } },
        { "complex", relayout_unimplemented, { "dtype", "kDLComplex" },
                [](DLTensor &t) {
                    t.dtype = { kDLComplex, 64, 1 };
                } },
        { "u32", relayout_unimplemented, { "dtype", "kDLUInt" },
                [](DLTensor &t) {
                    t.dtype = { kDLUInt, 32, 1 };
                } },
        { "byte_offset", relayout_invalid_arguments, { "byte_offset", "multiple" },
                [](DLTensor &t) { t.byte_offset = 6; } },
        { "negative stride", relayout_unimplemented, { "strides[0]", "negative" },
                [](DLTensor &t) { t.strides = g_neg_strides; } },
        { "overlap", relayout_invalid_arguments, { "strides" },
                [](DLTensor &t) { t.strides = g_overlap_strides; } },
        { "negative shape", relayout_invalid_arguments, { "shape[1]" },
                [](DLTensor &t) { t.shape[1] = -2; } },
        { "too many dims", relayout_unimplemented, { "ndim" }, [](DLTensor &t) { t.ndim = 13; } },
        { "null shape", relayout_invalid_arguments, { "shape is NULL" },
                [](DLTensor &t) { t.shape = nullptr; } },
        { "null data", relayout_invalid_arguments, { "data is NULL" },
                [](DLTensor &t) { t.data = nullptr; } },
    };
    std::vector<float> buf(64);
    for (const auto &c : table) {
        SCOPED_TRACE(c.name);
        std::vector<int64_t> shape{ 3, 4 };
        DLTensor t = make_tensor(buf.data(), shape, nullptr, f32_t);
        c.mutate(t);
        relayout_memory_desc_t md = reinterpret_cast<relayout_memory_desc_t>(&buf);
        expect_error(relayout_memory_desc_create_from_dlpack(&md, &t), c.status, c.needles);
        EXPECT_EQ(md, nullptr);
    }
    relayout_memory_desc_t md = nullptr;
    expect_error(relayout_memory_desc_create_from_dlpack(&md, nullptr), relayout_invalid_arguments,
            { "tensor is NULL" });
}

TEST(DlpackMemory, ByteOffsetMovesTheHandle) {
    std::vector<int64_t> shape{ 2, 3 };
    std::vector<float> buf(10);
    std::iota(buf.begin(), buf.end(), 0.f);
    DLTensor t = make_tensor(buf.data(), shape, nullptr, f32_t, 4 * sizeof(float));
    engine eng(engine::kind::cpu, 0);
    memory m = dlpack::make_memory(t, eng);
    EXPECT_EQ(m.get_data_handle(), buf.data() + 4);
    // Reorder the view to a transposed plain tensor and check the values.
    memory::desc dst_md({ 2, 3 }, dt::f32, memory::format_tag::ba);
    memory dst(dst_md, eng);
    stream s(eng);
    reorder(m, dst).execute(s, m, dst);
    const float *o = static_cast<const float *>(dst.get_data_handle());
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_EQ(o[j * 2 + i], buf[4 + i * 3 + j]);
}

TEST(DlpackMemory, CApiCreateAndEngineChecks) {
    std::vector<int64_t> shape{ 4 };
    std::vector<float> buf(4);
    DLTensor t = make_tensor(buf.data(), shape, nullptr, f32_t);
    relayout_engine_t eng = nullptr;
    ASSERT_EQ(relayout_engine_create(&eng, relayout_cpu, 0), relayout_success);
    relayout_memory_t m = nullptr;
    ASSERT_EQ(relayout_memory_create_from_dlpack(&m, &t, eng), relayout_success);
    void *h = nullptr;
    relayout_memory_get_data_handle(m, &h);
    EXPECT_EQ(h, buf.data());
    relayout_memory_destroy(m);
    expect_error(relayout_memory_create_from_dlpack(&m, &t, nullptr), relayout_invalid_arguments,
            { "engine" });
    EXPECT_EQ(m, nullptr);
    relayout_engine_destroy(eng);
}

TEST(DlpackExport, PlainMemoryRoundTrips) {
    engine eng(engine::kind::cpu, 0);
    memory::desc md({ 2, 3, 4 }, dt::s8, memory::format_tag::acb);
    memory m(md, eng);
    DLManagedTensor *mt = dlpack::to_dlpack(m);
    ASSERT_NE(mt, nullptr);
    const DLTensor &t = mt->dl_tensor;
    EXPECT_EQ(t.data, m.get_data_handle());
    EXPECT_EQ(t.device.device_type, kDLCPU);
    EXPECT_EQ(t.ndim, 3);
    EXPECT_EQ(t.dtype.code, kDLInt);
    EXPECT_EQ(t.dtype.bits, 8);
    EXPECT_EQ(t.dtype.lanes, 1);
    EXPECT_EQ(std::vector<int64_t>(t.shape, t.shape + 3), (std::vector<int64_t>{ 2, 3, 4 }));
    EXPECT_EQ(std::vector<int64_t>(t.strides, t.strides + 3), (std::vector<int64_t>{ 12, 1, 3 }));
    EXPECT_EQ(t.byte_offset, 0u);
    EXPECT_EQ(dlpack::to_desc(t), md);
    mt->deleter(mt);
}

TEST(DlpackExport, DeleterKeepsMemoryAlive) {
    engine eng(engine::kind::cpu, 0);
    DLManagedTensor *mt = nullptr;
    {
        memory m(memory::desc({ 64 }, dt::f32, memory::format_tag::a), eng);
        float *p = static_cast<float *>(m.get_data_handle());
        for (int i = 0; i < 64; ++i)
            p[i] = float(i);
        mt = dlpack::to_dlpack(m);
    } // the last user reference is gone; the tensor still holds one
    const float *p = static_cast<const float *>(mt->dl_tensor.data);
    for (int i = 0; i < 64; ++i)
        EXPECT_EQ(p[i], float(i)); // ASan: use-after-free otherwise
    mt->deleter(mt);
}

TEST(DlpackExport, CApiHandsTheMemoryOver) {
    relayout_engine_t eng = nullptr;
    ASSERT_EQ(relayout_engine_create(&eng, relayout_cpu, 0), relayout_success);
    relayout_dims_t dims = { 3, 5 };
    relayout_memory_desc_t md = nullptr;
    ASSERT_EQ(relayout_memory_desc_create_with_tag(&md, 2, dims, relayout_bf16, relayout_ab),
            relayout_success);
    relayout_memory_t m = nullptr;
    ASSERT_EQ(relayout_memory_create(&m, md, eng, RELAYOUT_MEMORY_ALLOCATE), relayout_success);
    DLManagedTensor *mt = nullptr;
    ASSERT_EQ(relayout_memory_export_dlpack(m, &mt), relayout_success);
    EXPECT_EQ(mt->dl_tensor.dtype.code, kDLBfloat);
    EXPECT_EQ(mt->dl_tensor.dtype.bits, 16);
    mt->deleter(mt); // destroys m (LeakSanitizer checks it is freed)
    relayout_memory_desc_destroy(md);
    relayout_engine_destroy(eng);
}

TEST(DlpackExport, SubmemoryCarriesByteOffset) {
    engine eng(engine::kind::cpu, 0);
    memory::desc parent({ 4, 6 }, dt::f32, memory::format_tag::ab);
    memory::desc view = parent.submemory_desc({ 2, 3 }, { 1, 2 });
    memory pm(parent, eng);
    memory vm(view, eng, pm.get_data_handle());
    DLManagedTensor *mt = dlpack::to_dlpack(vm);
    EXPECT_EQ(mt->dl_tensor.data, pm.get_data_handle());
    EXPECT_EQ(mt->dl_tensor.byte_offset, (1 * 6 + 2) * sizeof(float));
    EXPECT_EQ(std::vector<int64_t>(mt->dl_tensor.strides, mt->dl_tensor.strides + 2),
            (std::vector<int64_t>{ 6, 1 }));
    mt->deleter(mt);
}

TEST(DlpackExport, BlockedAndCompensatedLayoutsAreRefused) {
    engine eng(engine::kind::cpu, 0);
    struct {
        const char *name;
        memory::desc md;
        const char *needle;
    } table[] = {
        { "blocked", memory::desc({ 2, 17, 3, 3 }, dt::f32, "aBcd16b"), "inner blocks" },
        { "compensation",
                memory::desc({ 16, 16 }, dt::s8, memory::format_tag::ab)
                        .with_extra(relayout_extra_flag_compensation_conv_s8s8, 1),
                "compensation" },
    };
    for (auto &c : table) {
        SCOPED_TRACE(c.name);
        EXPECT_EQ(relayout_memory_desc_is_dlpack_compatible(c.md.get()), 0);
        memory m(c.md, eng);
        DLManagedTensor *mt = reinterpret_cast<DLManagedTensor *>(&m);
        expect_error(relayout_memory_export_dlpack_with_owner(m.get(), nullptr, nullptr, &mt),
                relayout_unimplemented, { "dlpack export", c.needle });
        EXPECT_EQ(mt, nullptr);
        try {
            dlpack::to_dlpack(m);
            ADD_FAILURE() << "no exception";
        } catch (const error &e) {
            EXPECT_EQ(e.status, relayout_unimplemented);
            EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(relayout_memory_desc_is_dlpack_compatible(
                      memory::desc({ 2, 3 }, dt::f32, memory::format_tag::ba).get()),
            1);
}

} // namespace
