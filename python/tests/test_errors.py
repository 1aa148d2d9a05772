"""Errors are relayout.Error (a RuntimeError) with the status and the library's message."""
import numpy as np
import pytest

import relayout


def test_error_is_runtime_error_with_status():
    assert issubclass(relayout.Error, RuntimeError)
    with pytest.raises(relayout.Error) as e:
        relayout.desc([2, 3], "f32", "aZ")
    err = e.value
    assert err.status == 2 and err.status_name == "invalid_arguments"
    assert "RELAYOUT_VERBOSE" in err.message
    assert isinstance(err, RuntimeError)


def test_bad_tag_names_the_character():
    with pytest.raises(relayout.Error, match="aBcd16q|position|character"):
        relayout.desc([2, 32, 3, 3], "f32", "aBcd16q")


def test_bad_dtype_names_it():
    with pytest.raises(relayout.Error, match="f64"):
        relayout.desc([2], "f64", "a")
    with pytest.raises(relayout.Error, match="float64"):
        relayout.reorder(np.zeros(3), None, "a")


def test_overlapping_strides_rejected():
    with pytest.raises(relayout.Error, match="stride"):
        relayout.desc([4, 4], "f32", [1, 1])


def test_small_buffer_is_refused():
    with pytest.raises(relayout.Error, match="bytes"):
        relayout.reorder(np.zeros(10, np.float32), "aBcd16b", "abcd", dims=[1, 3, 2, 2])


def test_non_contiguous_buffer_with_tag_refused():
    with pytest.raises(relayout.Error, match="C-contiguous"):
        relayout.reorder(np.zeros((4, 4), np.float32)[:, ::2], "ab", "ba")


def test_sources_with_foreign_strides_are_read_through_a_copy():
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(relayout.reorder(x[::-1], None, "a"), x[::-1])


def test_from_dlpack_negative_strides_named():
    if not hasattr(np, "from_dlpack"):
        pytest.skip("numpy < 1.22")
    with pytest.raises(relayout.Error, match=r"strides\[0\].*negative"):
        relayout.from_dlpack(np.arange(8, dtype=np.float32)[::-1])


def test_scale_count_mismatch():
    with pytest.raises(relayout.Error):
        relayout.reorder(np.zeros((2, 8), np.float32), "ab", "ba", dtype="s8",
                         dst_scale=(2, np.ones(3, np.float32)))


def test_isa_name_checked():
    with pytest.raises(relayout.Error, match="sse9"):
        relayout.set_max_cpu_isa("sse9")


def test_big_endian_arrays_refused():
    with pytest.raises(relayout.Error, match="big-endian"):
        relayout.reorder(np.zeros(4, dtype=">f4"), None, "a")
