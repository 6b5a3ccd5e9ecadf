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
kmodule-comp/make.py writes its recording with the functions here.
Usage: make.py default/perf.data kmodule/perf.data [PHASE]"""
import struct
import sys

MODULE_BASE = 0xffffffffc0a00000
MODULE_LEN = 0x4000
MODULE_PATH = b"/lib/modules/6.18.44-fc-v657/kernel/fake/fakemod.ko"
PERF_RECORD_MISC_MMAP_BUILD_ID = 1 << 14


def records(d, end):
    """(offset, type, misc, size) of each record of the data section, up to `end`."""
    doff = struct.unpack_from("<Q", d, 40)[0]
    p = doff
    while p < end:
        t, m, s = struct.unpack_from("<IHH", d, p)
        yield p, t, m, s
        p += s


def data_end(d):
    doff, dsize = struct.unpack_from("<QQ", d, 40)
    return doff + dsize


def module_mmap(path, base, length, trailer, build_id=None):
    """A kernel MMAP record of a module (pid -1); with a build-id, the MMAP2 that carries it
    (PERF_RECORD_MISC_MMAP_BUILD_ID), as perf 6.1 record --buildid-mmap writes."""
    name = path + b"\0" * (8 - len(path) % 8)
    if build_id is None:
        body = struct.pack("<iIQQQ", -1, 0, base, length, 0) + name + trailer
        return struct.pack("<IHH", 1, 1, 8 + len(body)) + body
    bid = build_id + b"\0" * (20 - len(build_id))
    body = (struct.pack("<iIQQQ", -1, 0, base, length, 0) +
            struct.pack("<BBH", len(build_id), 0, 0) + bid + struct.pack("<II", 0, 0) + name +
            trailer)
    return struct.pack("<IHH", 10, 1 | PERF_RECORD_MISC_MMAP_BUILD_ID, 8 + len(body)) + body


def insert_after_kernel_mmap(d, recs):
    """Inserts the records made by recs(trailer) after the kernel's MMAP, moving the feature
    sections; trailer is that MMAP's sample_id_all (TID, TIME)."""
    doff, dsize = struct.unpack_from("<QQ", d, 40)
    feats = struct.unpack_from("<4Q", d, 72)
    nfeat = sum(bin(w).count("1") for w in feats)
    kernel_mmap = None
    for p, t, m, s in records(d, doff + dsize):
        if t == 1 and d[p + 40:p + 57] == b"[kernel.kallsyms]":
            kernel_mmap = (p, s)
            break
    assert kernel_mmap, "no kernel MMAP"
    kp, ks = kernel_mmap
    rec = b"".join(recs(bytes(d[kp + ks - 16:kp + ks])))
    d[kp + ks:kp + ks] = rec
    delta = len(rec)
    struct.pack_into("<Q", d, 48, dsize + delta)
    ft = doff + dsize + delta
    for i in range(nfeat):
        o, sz = struct.unpack_from("<QQ", d, ft + 16 * i)
        struct.pack_into("<Q", d, ft + 16 * i, o + delta)


def move_kernel_samples(d, phase, place):
    """Every third kernel sample (IP first: sample_type IP|TID|TIME|PERIOD), the phase-th of
    each three, gets the ip place(n) for the n-th moved."""
    k = 0
    for p, t, m, s in records(d, data_end(d)):
        if t == 9 and (m & 7) == 1:
            if k % 3 == phase:
                struct.pack_into("<Q", d, p + 8, place(k // 3))
            k += 1


def main():
    src, dst = sys.argv[1], sys.argv[2]
    phase = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    d = bytearray(open(src, "rb").read())
    insert_after_kernel_mmap(
        d, lambda trailer: [module_mmap(MODULE_PATH, MODULE_BASE, MODULE_LEN, trailer)])
    move_kernel_samples(d, phase, lambda n: MODULE_BASE + (n * 29) % 0x140)
    open(dst, "wb").write(d)


if __name__ == "__main__":
    main()
