#!/usr/bin/env python3
"""Writes Tests/HandyStreamTests/Fixtures/powers-of-five.txt: the 128-bit approximations of 5^q for q in -342...308
that the Eisel-Lemire algorithm reads (the same construction as the fast_float library's), one power a line, high
word first. PowersOfFive.swift builds the same table as the library loads; the tests compare the two word for word."""
import pathlib

SMALLEST, LARGEST = -342, 308
rows = []
for q in range(SMALLEST, 0):
    power5 = 5 ** -q
    z = power5.bit_length()
    if q >= -27:
        c = 2 ** (z + 127) // power5 + 1
    else:
        c = 2 ** (2 * z + 128) // power5 + 1
        while c >= 1 << 128:
            c //= 2
    rows.append((q, c))
for q in range(0, LARGEST + 1):
    power5 = 5 ** q
    while power5 < 1 << 127:
        power5 *= 2
    while power5 >= 1 << 128:
        power5 //= 2
    rows.append((q, power5))

lines = [f"{q} {c >> 64:016X} {c & ((1 << 64) - 1):016X}" for q, c in rows]
out = pathlib.Path(__file__).resolve().parent.parent / "Tests/HandyStreamTests/Fixtures/powers-of-five.txt"
out.write_text("\n".join(lines) + "\n")
print(f"wrote {len(rows)} powers to {out}")
