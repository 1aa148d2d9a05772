#!/usr/bin/env python3
"""relayout as a framework's layout backend: a worked example.

A tiny framework runs a 2-layer conv net (conv 3->16, ReLU, conv 16->32, 3x3
kernels) on the CPU. Its kernels want blocked layouts: activations in
nChw16c, f32 weights in OIhw16i16o, int8 weights in OIhw4i16o4i with
per-output-channel scales and the s8s8 compensation the int8 kernel adds
back, activations quantized to u8 NHWC with a zero point. relayout packs
every tensor into those layouts and unpacks them; numpy checks each step.

Run from a build tree:  PYTHONPATH=<build>/python python3 examples/python_framework_example.py
"""
import numpy as np

import relayout

rng = np.random.default_rng(7)


def conv2d_nchw(x, w):
    """Reference direct convolution (valid padding, stride 1) in float64."""
    n, c, h, wd = x.shape
    o, i, kh, kw = w.shape
    out = np.zeros((n, o, h - kh + 1, wd - kw + 1))
    for dy in range(kh):
        for dx in range(kw):
            patch = x[:, :, dy:dy + out.shape[2], dx:dx + out.shape[3]].astype(np.float64)
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, dy, dx].astype(np.float64))
    return out


def nchw16c_oracle(x):
    """nChw16c with numpy: pad C to 16, split it, move the block innermost."""
    n, c, h, w = x.shape
    cp = -(-c // 16) * 16
    x = np.pad(x, [(0, 0), (0, cp - c), (0, 0), (0, 0)])
    return x.reshape(n, cp // 16, 16, h, w).transpose(0, 1, 3, 4, 2).ravel()


def oihw4i16o4i_oracle(w):
    """OIhw4i16o4i = ABcd4b16a4b: (i/4, o, i%4) inside 16x16 blocks."""
    o, i, kh, kw = w.shape
    op, ip = -(-o // 16) * 16, -(-i // 16) * 16
    w = np.pad(w, [(0, op - o), (0, ip - i), (0, 0), (0, 0)])
    w = w.reshape(op // 16, 16, ip // 16, 4, 4, kh, kw)       # Ob o Ib i4 i1 H W
    return w.transpose(0, 2, 5, 6, 3, 1, 4).ravel()             # Ob Ib H W i4 o i1


# ---- the model -----------------------------------------------------------------
x = rng.standard_normal((2, 3, 12, 12)).astype(np.float32)              # NCHW input
w1 = (rng.standard_normal((16, 3, 3, 3)) * 0.3).astype(np.float32)      # OIHW
w2 = (rng.standard_normal((32, 16, 3, 3)) * 0.1).astype(np.float32)

# ---- 1. activations: NCHW -> nChw16c and back ------------------------------------
x_blk = relayout.reorder(x, "nchw", "nChw16c")
assert isinstance(x_blk, relayout.Tensor) and not x_blk.is_plain
assert x_blk.desc.padded_dims == [2, 16, 12, 12]                      # C padded 3 -> 16
np.testing.assert_array_equal(x_blk.buffer, nchw16c_oracle(x))         # padding is zeros
np.testing.assert_array_equal(x_blk.to_numpy(), x)
print(f"input      {x.shape} -> {x_blk.desc}  ({x_blk.size} bytes, zero-padded)")

# ---- 2. f32 weights: OIHW -> OIhw16i16o; unpack to HWIO for another consumer --------
w1_blk = relayout.reorder(w1, "oihw", "OIhw16i16o")
hwio = w1_blk.to_numpy("cdba")                      # logical OIHW, physical HWIO
np.testing.assert_array_equal(hwio, w1)
assert hwio.transpose(2, 3, 1, 0).flags.c_contiguous
print(f"conv1 w    {w1.shape} -> {w1_blk.desc}")

# ---- 3. int8 weights with per-output-channel scales and s8s8 compensation ----------
w2_scale = (np.abs(w2).max(axis=(1, 2, 3)) / 127.0).astype(np.float32)   # one per O
w2_q = relayout.reorder(w2, "oihw", "OIhw4i16o4i", dtype="s8",
                        dst_scale=(1, w2_scale), s8s8_comp_mask=1)
q_oracle = np.round(np.clip(w2 / w2_scale[:, None, None, None], -128, 127)).astype(np.int8)
data_bytes = q_oracle.size + 0  # no padding: O=32, I=16 are multiples of 16
np.testing.assert_array_equal(w2_q.buffer[:data_bytes], oihw4i16o4i_oracle(q_oracle))
np.testing.assert_array_equal(w2_q.compensation(),
                              -128 * q_oracle.astype(np.int32).sum(axis=(1, 2, 3)))
# Unpack the int8 weights back to f32 (dequantize: per-channel src scale).
w2_deq = relayout.reorder(w2_q.to_numpy(), "oihw", "oihw", dtype="f32", src_scale=(1, w2_scale))
np.testing.assert_array_equal(w2_deq, q_oracle.astype(np.float32) * w2_scale[:, None, None, None])
assert np.max(np.abs(w2_deq - w2)) <= w2_scale.max() / 2 + 1e-6
print(f"conv2 w    {w2.shape} -> {w2_q.desc}  int8, comp[0:4]={w2_q.compensation()[:4]}")

# ---- 4. run layer 1 (numpy stands in for the framework's kernel) ---------------------
y1 = np.maximum(conv2d_nchw(x_blk.to_numpy(), hwio), 0).astype(np.float32)

# ---- 5. activations to u8 NHWC with a zero point, and back -------------------------
a_scale, a_zp = np.float32(y1.max() / 200.0), 20
y1_u8 = relayout.reorder(y1, "nchw", "nhwc", dtype="u8", dst_scale=a_scale, dst_zp=a_zp)
assert y1_u8.dtype == np.uint8
np.testing.assert_array_equal(
    y1_u8, np.round(np.clip(y1 / a_scale + np.float32(a_zp), 0, 255)).astype(np.uint8))
y1_back = relayout.reorder(y1_u8, None, "nchw", dtype="f32", src_scale=a_scale, src_zp=a_zp)
assert np.max(np.abs(y1_back - y1)) <= a_scale / 2 + 1e-5
print(f"act1       {y1.shape} -> u8 nhwc (scale {a_scale:.4f}, zp {a_zp}), max err "
      f"{np.max(np.abs(y1_back - y1)):.4f}")

# ---- 6. layer 2 from the int8 path vs the f32 path --------------------------------
y2_f32 = conv2d_nchw(y1, w2)
y2_int8 = conv2d_nchw(y1_back, w2_deq)
rel = np.max(np.abs(y2_int8 - y2_f32)) / np.max(np.abs(y2_f32))
assert rel < 0.05, rel
print(f"layer 2    int8 path vs f32 path: max relative error {rel:.4f}")

# ---- 7. bf16 weights (uint16 storage) ----------------------------------------------
w1_bf16 = relayout.reorder(w1, "oihw", "OIhw16i16o", dtype="bf16")
back = w1_bf16.to_numpy(dtype="f32")
assert np.max(np.abs(back - w1) / np.maximum(np.abs(w1), 1e-30)) <= 2 ** -8
print(f"bf16 w1    {w1_bf16.desc}, max abs error {np.max(np.abs(back - w1)):.2e}")

# ---- 8. zero-copy hand-off through DLPack -------------------------------------------
if hasattr(np, "from_dlpack"):
    out = relayout.reorder(y1, "nchw", "nhwc", as_tensor=True)       # plain: exportable
    view = np.from_dlpack(out)                                       # numpy sees relayout memory
    np.testing.assert_array_equal(view, y1)
    t_in = relayout.from_dlpack(y1)                                  # relayout sees numpy memory
    np.testing.assert_array_equal(relayout.reorder(t_in, None, "nChw16c").to_numpy(), y1)
    try:
        x_blk.__dlpack__()
        raise AssertionError("a blocked layout must not export")
    except relayout.Error as e:
        assert e.status_name == "unimplemented"
    print("dlpack     plain tensors shared both ways; blocked ones refused with a clear error")

print("python_framework_example: OK")
