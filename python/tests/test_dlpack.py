"""DLPack: relayout.Tensor.__dlpack__ for plain layouts, relayout.from_dlpack
for any producer (numpy >= 1.22 here), zero-copy both ways."""
import numpy as np
import pytest

import relayout

NUMPY_HAS_DLPACK = hasattr(np, "from_dlpack")


@pytest.mark.skipif(not NUMPY_HAS_DLPACK, reason="numpy < 1.22 has no DLPack")
def test_numpy_consumes_a_plain_tensor_without_copy():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = relayout.reorder(x, "abc", "acb", as_tensor=True)
    assert t.__dlpack_device__() == (1, 0)
    y = np.from_dlpack(t)
    np.testing.assert_array_equal(y, x)
    t.buffer[0] = 100.0                       # shared memory
    assert y[0, 0, 0] == 100.0
    del t
    assert y[0, 0, 0] == 100.0                # the capsule keeps the buffer alive


@pytest.mark.skipif(not NUMPY_HAS_DLPACK, reason="numpy < 1.22 has no DLPack")
def test_from_dlpack_views_numpy_memory():
    x = np.arange(12, dtype=np.int8).reshape(3, 4)
    t = relayout.from_dlpack(x)
    assert t.desc == relayout.desc([3, 4], "s8", "ab")
    x[1, 1] = 77
    np.testing.assert_array_equal(t.to_numpy(), x)
    y = relayout.reorder(t, None, "ba")
    np.testing.assert_array_equal(y, x)


@pytest.mark.skipif(not NUMPY_HAS_DLPACK, reason="numpy < 1.22 has no DLPack")
def test_from_dlpack_strided_view_keeps_producer_alive():
    base = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    view = base[:, 1:, 1:4]
    t = relayout.from_dlpack(view)
    del base, view
    want = np.arange(60, dtype=np.float32).reshape(3, 4, 5)[:, 1:, 1:4]
    np.testing.assert_array_equal(t.to_numpy(), want)


def test_round_trip_through_relayout_capsule():
    x = np.arange(6, dtype=np.float16).reshape(2, 3)
    t = relayout.reorder(x, None, "ba", as_tensor=True)
    u = relayout.from_dlpack(t)               # relayout -> relayout
    np.testing.assert_array_equal(u.to_numpy(), x)
    cap = t.__dlpack__()
    v = relayout.from_dlpack(cap)             # a bare capsule works too
    np.testing.assert_array_equal(v.to_numpy(), x)
    with pytest.raises(relayout.Error, match="consumed"):
        relayout.from_dlpack(cap)


def test_blocked_tensor_cannot_be_exported():
    t = relayout.reorder(np.ones((1, 3, 2, 2), np.float32), "abcd", "aBcd16b")
    with pytest.raises(relayout.Error) as e:
        t.__dlpack__()
    assert e.value.status_name == "unimplemented"
    assert "inner blocks" in e.value.message


@pytest.mark.skipif(not NUMPY_HAS_DLPACK, reason="numpy < 1.22 has no DLPack")
def test_unsupported_numpy_dtype_is_named():
    with pytest.raises(relayout.Error, match="kDLFloat.*64"):
        relayout.from_dlpack(np.zeros(3, np.float64))


def test_unconsumed_capsule_is_freed():
    t = relayout.reorder(np.ones((4, 4), np.float32), None, "ba", as_tensor=True)
    for _ in range(100):
        t.__dlpack__()                         # dropped: the destructor frees it


@pytest.mark.skipif(not NUMPY_HAS_DLPACK, reason="numpy < 1.22 has no DLPack")
def test_from_dlpack_interleaved_view():
    base = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    view = base[:, 1:, ::2]                   # strides (20, 5, 2): no two elements overlap
    np.testing.assert_array_equal(relayout.from_dlpack(view).to_numpy(), view)
