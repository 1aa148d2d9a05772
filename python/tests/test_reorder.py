"""relayout.reorder against numpy oracles: transposes, blocked layouts,
int8 quantization (np.round is half-to-even), f16/bf16 conversions, scales,
zero points, compensation, strided sources, every ISA cap."""
import numpy as np
import pytest

import relayout

RNG = np.random.default_rng(2026)


def rand(*shape, lo=-4.0, hi=4.0):
    return RNG.uniform(lo, hi, size=shape).astype(np.float32)


# ---- numpy oracles -----------------------------------------------------------

def block_dim(x, axis, blk):
    """Pads `axis` to a multiple of blk with zeros and splits it into
    (axis/blk, blk); returns the array with the block index appended last."""
    pad = (-x.shape[axis]) % blk
    widths = [(0, 0)] * x.ndim
    widths[axis] = (0, pad)
    x = np.pad(x, widths)
    shape = list(x.shape)
    shape[axis:axis + 1] = [shape[axis] // blk, blk]
    x = x.reshape(shape)
    return np.moveaxis(x, axis + 1, -1)


def nchw16c(x):
    return block_dim(x, 1, 16).ravel()


def oihw16i16o(w):
    """OIhw16i16o = ABcd16b16a: inner (i, o) with o innermost."""
    O, I, H, W = w.shape
    Op, Ip = -(-O // 16) * 16, -(-I // 16) * 16
    w = np.pad(w, [(0, Op - O), (0, Ip - I), (0, 0), (0, 0)])
    w = w.reshape(Op // 16, 16, Ip // 16, 16, H, W)  # Ob o Ib i H W
    return w.transpose(0, 2, 4, 5, 3, 1).ravel()    # Ob Ib H W i o


def quantize(x, scale=1.0, zp=0, dt=np.int8):
    info = np.iinfo(dt)
    v = x.astype(np.float32) / np.float32(scale) + np.float32(zp)
    return np.round(np.clip(v, info.min, info.max)).astype(dt)


def to_bf16_bits(x):
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    r = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    return r.astype(np.uint16)


def from_bf16_bits(b):
    return (b.astype(np.uint32) << 16).view(np.float32)


# ---- layouts -----------------------------------------------------------------

@pytest.mark.parametrize("perm,tag", [((0, 2, 3, 1), "acdb"), ((1, 2, 3, 0), "bcda"),
                                      ((0, 1, 3, 2), "abdc"), ((3, 2, 0, 1), "dcab")])
def test_transposes_are_np_transpose(perm, tag):
    x = rand(2, 19, 7, 5)
    y = relayout.reorder(x, "abcd", tag)
    assert isinstance(y, np.ndarray)
    np.testing.assert_array_equal(y, x)                   # logical values
    phys = y.transpose(perm)
    assert phys.flags.c_contiguous                        # physical order
    np.testing.assert_array_equal(phys.ravel(), np.transpose(x, perm).ravel())
    back = relayout.reorder(np.ascontiguousarray(np.transpose(x, perm)), tag, "abcd", dims=x.shape)
    np.testing.assert_array_equal(back, x)


def test_strided_numpy_source():
    big = rand(6, 40, 9)
    view = big[1:5, ::3, 2:8]                 # gaps in every dim
    y = relayout.reorder(view, None, "cba")
    np.testing.assert_array_equal(y, view)


@pytest.mark.parametrize("shape", [(2, 17, 5, 3), (1, 16, 1, 1), (3, 33, 2, 4), (1, 1, 3, 3)])
def test_nchw16c_matches_numpy(shape):
    x = rand(*shape)
    t = relayout.reorder(x, "nchw", "nChw16c")
    assert isinstance(t, relayout.Tensor)
    assert t.desc == relayout.desc(shape, "f32", "aBcd16b")
    np.testing.assert_array_equal(t.buffer, nchw16c(x))   # padding is zero
    np.testing.assert_array_equal(t.to_numpy(), x)
    np.testing.assert_array_equal(np.asarray(t), x)
    # The physical bytes go back in as a source buffer with its tag.
    y = relayout.reorder(t.buffer.copy(), "aBcd16b", "abcd", dims=shape)
    np.testing.assert_array_equal(y, x)


def test_weights_oihw16i16o_and_back():
    w = rand(20, 35, 3, 3)
    t = relayout.reorder(w, "oihw", "OIhw16i16o")
    np.testing.assert_array_equal(t.buffer, oihw16i16o(w))
    np.testing.assert_array_equal(t.to_numpy("abcd"), w)
    nhwc = t.to_numpy("acdb")
    np.testing.assert_array_equal(nhwc, w)
    assert nhwc.transpose(0, 2, 3, 1).flags.c_contiguous


def test_blocked_to_blocked():
    x = rand(2, 40, 3, 3)
    a = relayout.reorder(x, "abcd", "aBcd8b")
    b = relayout.reorder(a, None, "aBcd16b")
    np.testing.assert_array_equal(b.buffer, nchw16c(x))


# ---- numerics ----------------------------------------------------------------

@pytest.mark.parametrize("dt", [np.int8, np.uint8])
def test_int8_quantization(dt):
    x = rand(3, 32, 4, 4, lo=-40, hi=300)
    x[0, 0, 0, :4] = [0.5, 1.5, 2.5, -2.5]       # ties: half to even
    y = relayout.reorder(x, "abcd", "acdb", dtype=dt)
    assert y.dtype == dt
    np.testing.assert_array_equal(y, quantize(x, dt=dt))
    s = 0.37
    y = relayout.reorder(x, "abcd", "abcd", dtype=dt, dst_scale=s, dst_zp=3)
    np.testing.assert_array_equal(y, quantize(x, s, 3, dt))


def test_int8_blocked_weights_with_s8s8_compensation():
    w = rand(20, 24, 3, 3, lo=-2, hi=2)
    s = 0.02
    t = relayout.reorder(w, "oihw", "OIhw16i16o", dtype="s8", dst_scale=s, s8s8_comp_mask=1)
    q = quantize(w, s)
    np.testing.assert_array_equal(t.buffer[:oihw16i16o(q).size], oihw16i16o(q))
    comp = t.compensation()
    want = -128 * q.astype(np.int32).sum(axis=(1, 2, 3))
    np.testing.assert_array_equal(comp[:20], want)
    np.testing.assert_array_equal(comp[20:], 0)           # padded output channels
    np.testing.assert_array_equal(t.to_numpy(), q)


def test_per_channel_scales():
    x = rand(2, 8, 3, 3, lo=-10, hi=10)
    scales = np.linspace(0.05, 0.4, 8).astype(np.float32)
    y = relayout.reorder(x, "abcd", "acdb", dtype="s8", dst_scale=(2, scales))
    want = np.round(np.clip(x / scales[None, :, None, None], -128, 127)).astype(np.int8)
    np.testing.assert_array_equal(y, want)


def test_dequantize_with_src_scale_and_zp():
    q = RNG.integers(-128, 128, size=(4, 16, 5, 5), dtype=np.int8)
    y = relayout.reorder(q, "abcd", "acdb", dtype="f32", src_scale=0.125, src_zp=-3)
    np.testing.assert_array_equal(y, np.float32(0.125) * (q.astype(np.float32) + 3))


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_f16_is_numpy_astype():
    x = rand(3, 70, 5, lo=-70000, hi=70000)
    x[0, 0, :3] = [np.nan, np.inf, -0.0]
    y = relayout.reorder(x, "abc", "acb", dtype="f16")
    assert y.dtype == np.float16
    np.testing.assert_array_equal(y, x.astype(np.float16))
    back = relayout.reorder(y, None, "abc", dtype="f32")
    np.testing.assert_array_equal(back, x.astype(np.float16).astype(np.float32))


def test_bf16_is_uint16_storage():
    x = rand(5, 33, lo=-1e3, hi=1e3)
    y = relayout.reorder(x, "ab", "ba", dtype="bf16")
    assert y.dtype == np.uint16
    np.testing.assert_array_equal(y, to_bf16_bits(x))
    back = relayout.reorder(y, None, "ab", src_dtype="bf16", dtype="f32")
    np.testing.assert_array_equal(back, from_bf16_bits(to_bf16_bits(x)))


def test_sum_post_op_into_out():
    x = rand(2, 16, 3, 3)
    out = relayout.reorder(x, "abcd", "aBcd16b")          # out = x
    relayout.reorder(x, "abcd", None, out=out, src_scale=2.0, sum_beta=0.5)
    np.testing.assert_array_equal(out.to_numpy(), np.float32(2) * x + np.float32(0.5) * x)


def test_source_is_never_written_and_readonly_ok():
    x = rand(2, 5, 3, 3)
    padded = relayout.reorder(x, "abcd", "aBcd16b").buffer.copy()
    padded.flags.writeable = False
    y = relayout.reorder(padded, "aBcd16b", "abcd", dims=x.shape)
    np.testing.assert_array_equal(y, x)
    x.flags.writeable = False
    np.testing.assert_array_equal(relayout.reorder(x, None, "acdb"), x)


def test_zero_volume():
    x = np.zeros((2, 0, 3), np.float32)
    y = relayout.reorder(x, "abc", "acb")
    assert y.shape == (2, 0, 3)


def test_tensor_buffer_is_shared():
    t = relayout.Tensor(relayout.desc([2, 3], "f32", "ab"))
    t.buffer[:] = np.arange(6, dtype=np.float32)
    np.testing.assert_array_equal(t.numpy(), np.arange(6, dtype=np.float32).reshape(2, 3))
    v = t.numpy()
    del t
    np.testing.assert_array_equal(v, np.arange(6, dtype=np.float32).reshape(2, 3))


@pytest.mark.parametrize("isa", ["none", "avx2", "avx512_core", "avx512_core_bf16", "default"])
def test_every_isa_cap_gives_the_same_bits(isa):
    relayout.set_max_cpu_isa(isa)
    try:
        x = rand(3, 37, 6, 5, lo=-300, hi=300)
        np.testing.assert_array_equal(relayout.reorder(x, "abcd", "aBcd16b").buffer, nchw16c(x))
        np.testing.assert_array_equal(relayout.reorder(x, "abcd", "acdb", dtype="s8", dst_scale=3.0),
                                      quantize(x, 3.0))
        np.testing.assert_array_equal(relayout.reorder(x, "abcd", "cdab", dtype="f16"),
                                      x.astype(np.float16))
    finally:
        relayout.set_max_cpu_isa("default")


def test_dst_as_desc_and_strides():
    x = rand(3, 5, 7)
    d = relayout.desc([3, 5, 7], "f32", "bca")
    y = relayout.reorder(x, None, d)
    np.testing.assert_array_equal(y, x)
    assert y.transpose(1, 2, 0).flags.c_contiguous
    gaps = relayout.reorder(x, None, [80, 8, 1], as_tensor=True)    # padded rows
    assert gaps.desc.strides == [80, 8, 1]
    np.testing.assert_array_equal(gaps.numpy(), x)
    np.testing.assert_array_equal(gaps.to_numpy(), x)


def test_to_numpy_converts_dtype_and_layout():
    x = rand(2, 20, 3, 3)
    t = relayout.reorder(x, "nchw", "nChw16c", dtype="bf16")
    got = t.to_numpy("nhwc", dtype="f32")
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, from_bf16_bits(to_bf16_bits(x)))


def test_empty_tensor_is_zero_filled_and_writable():
    t = relayout.Tensor(relayout.desc([2, 17, 2, 2], "s8", "nChw16c"))
    assert t.size == 2 * 32 * 2 * 2
    assert not t.buffer.any()
    x = RNG.integers(-5, 5, size=(2, 17, 2, 2), dtype=np.int8)
    relayout.reorder(x, "nchw", None, out=t)
    np.testing.assert_array_equal(np.asarray(t), x)


def test_submemory_view_as_destination():
    whole = relayout.Tensor(relayout.desc([4, 6], "f32", "ab"))
    view = relayout.desc([4, 6], "f32", "ab").submemory([2, 3], [1, 2])
    # A Tensor of a view descriptor owns a buffer covering offset0 + the view;
    # only the view's elements are written, numpy sees them at offset0.
    part = relayout.reorder(np.ones((2, 3), np.float32), None, view, as_tensor=True)
    assert part.desc == view
    np.testing.assert_array_equal(part.numpy(), np.ones((2, 3), np.float32))
    phys = part.buffer
    assert phys.sum() == 6 and phys[1 * 6 + 2] == 1 and phys[0] == 0
    assert whole.buffer.sum() == 0
