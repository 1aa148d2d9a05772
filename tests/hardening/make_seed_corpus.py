#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_reorder.cpp into fuzz_corpus/seed_*.

The byte layout follows the reader in fuzz_reorder.cpp: the first byte picks
the mode (0 tag parsing, 1 descriptors, 2 reorder); the rest is consumed in
the order the harness reads it. Crash regressions live beside the seeds as
fuzz_corpus/crash_* and are never rewritten by this script.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fuzz_corpus")

TAGS = ["a", "ab", "ba", "abc", "acb", "cba", "bca", "abcd", "acdb",
        "bcda", "cdba", "abdc", "aBcd16b", "aBcd8b", "aBcd4b", "ABcd16b16a", "ABcd4b16a4b",
        "ABcd8b16a2b", "BAcd16a16b", "Acdb16a", "aBCde16c16b", "aBCde4c16b4c", "BA16a64b4a",
        "AB16b16a", "Ab16a", "aB16b", "abcde", "acdeb", "aBcde16b", "abx", "aBx16b", "xba",
        "ABcde8b8a", "Abcd8a", "aBdc16b", "ABcd2a8b8a2b"]
DTS = ["f32", "bf16", "f16", "s32", "s8", "u8", "s16", "u16"]


def tag_string(s):
    return bytes([len(s)]) + s.encode()


def seed_tag(dims, tag, dt="f32"):
    b = bytes([0, len(dims)]) + bytes(d for d in dims) + bytes(12 - len(dims))
    return b + tag_string(tag) + bytes([DTS.index(dt)])


def seed_desc(dims, strides):
    b = bytes([1, len(dims), 0])
    dd = list(dims) + [1] * (12 - len(dims))
    ss = list(strides) + [1] * (12 - len(strides))
    for d, s in zip(dd, ss):
        b += bytes([d, s])
    b += bytes([0])  # how: strides
    for d in dd:
        b += bytes([max(d // 2, 1), 0])  # submemory dims / offsets
    return b + bytes(40)


def seed_reorder(dims, sdt, ddt, stag, dtag, attr=0, extra=255, scale_mask=None, perm=None):
    b = bytes([2, len(dims) - 1]) + bytes(dims)
    b += bytes([DTS.index(sdt), DTS.index(ddt), TAGS.index(stag), TAGS.index(dtag)])
    b += bytes([200, 255])  # dst by string tag, no view
    if perm is None:
        b += bytes([255])  # no permute_axes
    else:
        b += bytes([0]) + bytes(perm)  # Fisher-Yates swap choices, last dim first
    b += bytes([extra])
    if extra < 48:
        b += bytes([1, 0]) + struct.pack("<f", 1.0)  # s8s8 mask 1
    b += bytes([attr])
    if attr & 1:
        b += bytes([scale_mask or 0, 255]) + bytes([4] * 64)
    if attr & 4:
        b += bytes([3])
    if attr & 8:
        b += bytes([5])
    if attr & 16:
        b += bytes([1])
    return b + bytes(range(256)) * 8


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = {
        "tag_nChw16c": seed_tag([2, 17, 5, 3], "aBcd16b"),
        "tag_multi_level": seed_tag([20, 35, 3, 3], "ABcd4b16a4b", "s8"),
        "tag_x": seed_tag([2, 3, 4, 5, 6], "aBx16b"),
        "tag_bad": seed_tag([2, 3], "aZ16"),
        "tag_repeat": seed_tag([4, 4], "abab"),
        "desc_gaps": seed_desc([3, 4, 5], [40, 10, 2]),
        "desc_overlap": seed_desc([3, 4], [1, 1]),
        "reorder_plain_blocked": seed_reorder([2, 17, 5, 3], "f32", "f32", "abcd", "aBcd16b"),
        "reorder_blocked_plain": seed_reorder([2, 17, 5, 3], "f32", "f32", "aBcd16b", "acdb"),
        "reorder_transpose": seed_reorder([13, 21], "f32", "f32", "ab", "ba"),
        "reorder_transpose_s8": seed_reorder([19, 23], "s8", "s8", "ab", "ba"),
        "reorder_weights": seed_reorder([20, 19, 3, 3], "f32", "f32", "abcd", "ABcd4b16a4b"),
        "reorder_int8_comp": seed_reorder([20, 19, 3, 3], "f32", "s8", "abcd", "ABcd16b16a",
                                          extra=1),
        "reorder_bf16": seed_reorder([3, 40], "f32", "bf16", "ab", "ba"),
        "reorder_f16": seed_reorder([3, 40], "f16", "f32", "ab", "AB16b16a"),
        "reorder_scales": seed_reorder([2, 16, 3, 3], "f32", "u8", "abcd", "acdb", attr=1 | 2 | 8,
                                       scale_mask=2),
        "reorder_sum": seed_reorder([4, 9], "s32", "s16", "ab", "ba", attr=16 | 4),
        "reorder_zero_volume": seed_reorder([3, 0, 2], "f32", "f32", "abc", "cba"),
        "reorder_5d": seed_reorder([2, 20, 9, 3, 3], "f32", "f32", "abcde", "aBCde16c16b"),
        "reorder_matmul": seed_reorder([20, 70], "s8", "s8", "ab", "BA16a64b4a"),
        "reorder_permuted": seed_reorder([3, 18, 5, 4], "f32", "bf16", "aBcd16b", "acdb",
                                         perm=[1, 0, 1]),
    }
    for name, data in seeds.items():
        with open(os.path.join(OUT, "seed_" + name), "wb") as f:
            f.write(data)
    print(f"wrote {len(seeds)} seeds to {OUT}")


if __name__ == "__main__":
    main()
