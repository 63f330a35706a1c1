#!/usr/bin/env python3
"""Writes hostile-layout.png: a 6300x6300 grey page of 118 000 small random marks in rows.

Not a poem: an upload built to keep Tesseract's page layout analysis (which cannot be
stopped) busy for minutes, for LayoutTimeLimitTests. Rows of 6x10 marks 14 px apart, one
row every 24 px, on white. Standard library only; the bytes are the same on every run.
"""
import random
import struct
import zlib

SIDE = 6300


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def main():
    random.seed(1)
    # The draws the probe that found this page made first (for another page), so that the
    # marks are the same as the ones measured.
    for k in range(8):
        for _ in range(k % 3, SIDE, 6):
            random.random()
    marks = [bytearray(b"\xff" * SIDE) for _ in range(12)]
    for left in range(20, SIDE - 20, 14):
        shape = random.getrandbits(60)
        for y in range(10):
            for x in range(6):
                if shape >> (y * 6 + x) & 1:
                    marks[y + 1][left + x] = 0
    white = b"\xff" * SIDE
    packer = zlib.compressobj(9)
    body = []
    for y in range(SIDE):
        row = bytes(marks[y % 24]) if y % 24 < 12 else white
        body.append(packer.compress(b"\x00" + row))
    body.append(packer.flush())
    header = struct.pack(">IIBBBBB", SIDE, SIDE, 8, 0, 0, 0, 0)
    with open("hostile-layout.png", "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(body)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    main()
