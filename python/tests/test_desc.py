"""relayout.desc: construction from tags (enum, name, string) and strides, queries, equality."""
import numpy as np
import pytest

import relayout


def test_plain_tag_desc():
    d = relayout.desc([2, 3, 4, 5], "f32", "abcd")
    assert d.dims == [2, 3, 4, 5]
    assert d.padded_dims == [2, 3, 4, 5]
    assert d.strides == [60, 20, 5, 1]
    assert d.size == 2 * 3 * 4 * 5 * 4
    assert d.dtype == relayout.data_type.f32
    assert d.is_plain


def test_enum_name_and_string_tags_agree():
    by_enum = relayout.desc([2, 17, 5, 3], relayout.f32, relayout.format_tag.nChw16c)
    by_name = relayout.desc([2, 17, 5, 3], "f32", "nChw16c")
    by_string = relayout.desc([2, 17, 5, 3], np.float32, "aBcd16b")
    assert by_enum == by_name == by_string
    assert by_string.padded_dims == [2, 32, 5, 3]
    assert by_string.inner_blks == [16]
    assert by_string.inner_idxs == [1]
    assert by_string.size == 2 * 32 * 5 * 3 * 4
    assert not by_string.is_plain


def test_nhwc_strides():
    d = relayout.desc([2, 3, 4, 5], "s8", "nhwc")
    assert d.strides == [60, 1, 15, 3]
    assert d == relayout.desc([2, 3, 4, 5], "s8", [60, 1, 15, 3])
    assert d != relayout.desc([2, 3, 4, 5], "s8", "nchw")
    assert d != relayout.desc([2, 3, 4, 5], "u8", "nhwc")


def test_row_major_default_and_gaps():
    assert relayout.desc([3, 4], "f16") == relayout.desc([3, 4], "f16", "ab")
    gap = relayout.desc([3, 4], "f32", [8, 1])
    assert gap.size == 3 * 8 * 4  # DESIGN 2.1: outer extent x stride, gaps count


def test_numpy_dtypes_map():
    for np_dt, dt in [(np.float16, "f16"), (np.float32, "f32"), (np.int32, "s32"),
                      (np.int8, "s8"), (np.uint8, "u8"), (np.int16, "s16"),
                      (np.uint16, "u16")]:
        assert relayout.desc([4], np_dt, "a").dtype == getattr(relayout.data_type, dt)
        assert relayout.numpy_dtype(dt) == np.dtype(np_dt)
    assert relayout.numpy_dtype("bf16") == np.dtype(np.uint16)


def test_x_meta_letter():
    assert relayout.desc([2, 3, 4, 5, 6], "f32", "abx") == relayout.desc([2, 3, 4, 5, 6], "f32", "abcde")


def test_submemory_reshape_permute():
    d = relayout.desc([4, 6], "f32", "ab")
    v = d.submemory([2, 3], [1, 2])
    assert v.dims == [2, 3]
    assert v.offset0 == 1 * 6 + 2
    assert d.reshape([24]) == relayout.desc([24], "f32", "a")
    assert d.permute_axes([1, 0]) == relayout.desc([6, 4], "f32", "ba")


def test_zero_volume():
    d = relayout.desc([3, 0, 2], "f32", "abc")
    assert d.size == 0


def test_with_compensation_grows_size():
    d = relayout.desc([16, 8], "s8", "ab")
    c = d.with_compensation(s8s8_mask=1)
    assert c.size == 16 * 8 + 16 * 4
    assert c != d


def test_repr_names_layout():
    assert "aBcd16b" in repr(relayout.desc([2, 17, 5, 3], "f32", "aBcd16b"))
