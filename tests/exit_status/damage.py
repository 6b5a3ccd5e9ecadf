#!/usr/bin/python3
"""Writes a copy of a perf.data file whose Nth record of the data section declares a size of 4
(smaller than a record header): perf 6.1 stops there with "failed to process type"."""
import struct
import sys

src, dst, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = bytearray(open(src, "rb").read())
offset, size = struct.unpack_from("<QQ", data, 40)
pos = offset
for _ in range(nth):
    _, _, rec_size = struct.unpack_from("<IHH", data, pos)
    pos += rec_size
if pos >= offset + size:
    sys.exit(f"{src} has fewer than {nth + 1} records")
struct.pack_into("<H", data, pos + 6, 4)
open(dst, "wb").write(data)
