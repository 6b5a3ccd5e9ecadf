#!/usr/bin/python3
"""Writes kmodule/perf.data from default/perf.data: a kernel module's MMAP record (as perf
record synthesizes one for each module, named by its path under /lib/modules) is added after
the kernel's, and every third kernel sample moves into that module, at offsets that fall in
its .text, between its functions and past the end of its .text. The data section and the
feature sections after it move by the record's size. The module is fakemod.ko (fakemod.c,
`gcc -O2 -c -fno-asynchronous-unwind-tables -fno-pic`), found under root/ with --symfs root;
kallsyms is the recorded kernel's table (buildid/) with the module's lines added, as
/proc/kallsyms lists them. PHASE (0 or 1) picks which third of the kernel samples moves: with 0
the first kernel-mode sample is the module's, with 1 the kernel's (kmodule-late), which
decides whether perf loads the module before the kernel's kallsyms.
Usage: make.py default/perf.data kmodule/perf.data [PHASE]"""
import struct
import sys

MODULE_BASE = 0xffffffffc0a00000
MODULE_LEN = 0x4000
MODULE_PATH = b"/lib/modules/6.18.44-fc-v657/kernel/fake/fakemod.ko"

src, dst = sys.argv[1], sys.argv[2]
phase = int(sys.argv[3]) if len(sys.argv) > 3 else 0
d = bytearray(open(src, "rb").read())
doff, dsize = struct.unpack_from("<QQ", d, 40)
feats = struct.unpack_from("<4Q", d, 72)
nfeat = sum(bin(w).count("1") for w in feats)

p = doff
kernel_mmap = None
while p < doff + dsize:
    t, m, s = struct.unpack_from("<IHH", d, p)
    if t == 1 and d[p + 40:p + 57] == b"[kernel.kallsyms]":
        kernel_mmap = (p, s)
        break
    p += s
assert kernel_mmap, "no kernel MMAP"
kp, ks = kernel_mmap
trailer = bytes(d[kp + ks - 16:kp + ks])  # sample_id_all: TID, TIME
name = MODULE_PATH + b"\0" * (8 - len(MODULE_PATH) % 8)
body = struct.pack("<iIQQQ", -1, 0, MODULE_BASE, MODULE_LEN, 0) + name + trailer
rec = struct.pack("<IHH", 1, 1, 8 + len(body)) + body
d[kp + ks:kp + ks] = rec
delta = len(rec)
struct.pack_into("<Q", d, 48, dsize + delta)
ft = doff + dsize + delta
for i in range(nfeat):
    o, sz = struct.unpack_from("<QQ", d, ft + 16 * i)
    struct.pack_into("<Q", d, ft + 16 * i, o + delta)

# Every third kernel sample (IP first: sample_type IP|TID|TIME|PERIOD) into the module.
p, k = doff, 0
while p < doff + dsize + delta:
    t, m, s = struct.unpack_from("<IHH", d, p)
    if t == 9 and (m & 7) == 1:
        if k % 3 == phase:
            struct.pack_into("<Q", d, p + 8, MODULE_BASE + (k // 3 * 29) % 0x140)
        k += 1
    p += s
open(dst, "wb").write(d)
