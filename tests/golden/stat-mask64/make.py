#!/usr/bin/python3
"""Writes stat-mask64/perf.data from stat/perf.data: its CPU_MAP record (a list holding -1)
becomes a 64-bit mask of CPUs 0 and 33 (perf_record_mask_cpu_map64: u16 nr, u16 long_size 8,
4 bytes of padding, u64 words), what perf writes for a CPU set above 31 with holes; the STAT
records' cpu -1 becomes 0. The data section and the feature sections after it move by the
record's growth. Usage: make.py stat/perf.data stat-mask64/perf.data 0x200000001"""
import struct, sys
src, dst, mask = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
d = bytearray(open(src, 'rb').read())
doff, dsize = struct.unpack_from('<QQ', d, 40)
feats = struct.unpack_from('<4Q', d, 72)
nfeat = sum(bin(w).count('1') for w in feats)
p = doff
while p < doff + dsize:
    t, m, s = struct.unpack_from('<IHH', d, p)
    if t == 74: break
    p += s
body = struct.pack('<HHHIQ', 1, 1, 8, 0, mask)
rec = struct.pack('<IHH', 74, 0, 8 + len(body) + 6) + body + b'\0' * 6
delta = len(rec) - s
d[p:p + s] = rec
struct.pack_into('<Q', d, 48, dsize + delta)
ft = doff + dsize + delta
for i in range(nfeat):
    o, sz = struct.unpack_from('<QQ', d, ft + 16 * i)
    struct.pack_into('<Q', d, ft + 16 * i, o + delta)
open(dst, 'wb').write(d)
# STAT records name cpu -1 (a per-thread count): give them the map's first cpu.
d = bytearray(open(dst, 'rb').read())
doff, dsize = struct.unpack_from('<QQ', d, 40)
first = (mask & -mask).bit_length() - 1
p = doff
while p < doff + dsize:
    t, m, s = struct.unpack_from('<IHH', d, p)
    if t == 76:
        struct.pack_into('<i', d, p + 16, first)
    p += s
open(dst, 'wb').write(d)
