#!/usr/bin/env python3
"""Makes the small seed corpora of fuzz/corpus/<target>/ from real recordings.

    fuzz/make_seeds.py OUT_DIR RECORDING...   # e.g. ../shared/corpus/*/*/perf.data* tests/golden/*/perf.data*

Seeds stay a few KB: a file keeps its header, attrs and feature sections but only the first
records of its data; a pipe only its first records. From the same recordings come the inputs
of the narrower targets: samples with their attr (sample_decoder), feature sections
(features), and compressed payloads (decompressor). Only little-endian recordings are used.
"""
import hashlib
import os
import struct
import sys

MAX_DATA = 3000   # bytes of records kept in a file seed
MAX_PIPE = 4000   # bytes of records kept in a pipe seed
MAX_SEED = 8192   # larger seeds are dropped


def records(buf, start, end):
    pos = start
    while pos + 8 <= end:
        typ, misc, size = struct.unpack_from('<IHH', buf, pos)
        if size < 8 or pos + size > end:
            return
        yield pos, typ, misc, size
        pos += size


def save(out, target, data):
    if len(data) > MAX_SEED:
        return
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), 'wb') as f:
        f.write(data)


def attr_prefix(attr):
    sample_type, read_format, flags = struct.unpack_from('<QQQ', attr, 24)
    period = struct.unpack_from('<Q', attr, 16)[0]
    branch = regs_user = regs_intr = 0
    if len(attr) >= 80:
        branch = struct.unpack_from('<Q', attr, 72)[0]
    if len(attr) >= 88:
        regs_user = struct.unpack_from('<Q', attr, 80)[0]
    if len(attr) >= 104:
        regs_intr = struct.unpack_from('<Q', attr, 96)[0]
    sid_all = 2 if flags >> 18 & 1 else 0
    return sample_type, read_format, regs_user, regs_intr, branch, period, sid_all


def sample_seeds(out, attr, buf, recs):
    st, rf, ru, ri, br, period, sid_all = attr_prefix(attr)
    n = 0
    for pos, typ, misc, size in recs:
        if typ > 21 or n >= 3:
            continue
        if typ != 9 and not sid_all:
            continue
        kind = 1 if typ == 9 else typ * 2
        prefix = struct.pack('<BBH6Q', sid_all, kind, misc, st, rf, ru, ri, br, period)
        save(out, 'sample_decoder', prefix + buf[pos + 8:pos + size])
        n += 1


def compressed_seeds(out, buf, recs):
    chunks = b''
    for pos, typ, misc, size in recs:
        if typ not in (81, 83):
            continue
        payload = buf[pos + 8:pos + size]
        if typ == 83:
            payload = payload[8:8 + struct.unpack_from('<Q', payload)[0]]
        for i in range(0, len(payload), 4096):
            chunks += struct.pack('<H', len(payload[i:i + 4096])) + payload[i:i + 4096]
        if len(chunks) > 4000:
            break
    if chunks:
        save(out, 'decompressor', chunks)


def from_file(out, buf):
    (magic, hsize, attr_size, a_off, a_size, d_off, d_size, _, _) = struct.unpack_from('<8s8Q', buf)
    feats = int.from_bytes(buf[72:104], 'little')
    nr_feat = bin(feats).count('1')
    table = d_off + d_size
    recs = list(records(buf, d_off, d_off + d_size))
    attrs = [buf[a_off + i * attr_size:a_off + (i + 1) * attr_size - 16]
             for i in range(a_size // attr_size)] if attr_size else []
    nr_events = len(attrs)
    # Feature sections: each becomes a features seed, and all move behind the shortened data.
    sections = []
    for i, feat in enumerate(f for f in range(256) if feats >> f & 1):
        off, size = struct.unpack_from('<QQ', buf, table + 16 * i)
        sections.append((feat, off, size))
        save(out, 'features', bytes([feat, min(nr_events, 63) << 2]) + buf[off:off + size])
    keep = 0
    for pos, typ, misc, size in recs:
        if pos + size - d_off > MAX_DATA:
            break
        keep = pos + size - d_off
    head = bytearray(buf[:d_off + keep])
    struct.pack_into('<Q', head, 48, keep)
    new_table = bytearray()
    body = b''
    at = len(head) + 16 * nr_feat
    for feat, off, size in sections:
        new_table += struct.pack('<QQ', at + len(body), size)
        body += buf[off:off + size]
    save(out, 'perf_file', bytes(head) + bytes(new_table) + body)
    if len(attrs) == 1:
        sample_seeds(out, attrs[0], buf, recs)
    compressed_seeds(out, buf, recs)


def from_pipe(out, buf):
    recs = list(records(buf, 16, len(buf)))
    keep = 16
    for pos, typ, misc, size in recs:
        if pos + size > MAX_PIPE and keep > 16:
            break
        keep = pos + size
    save(out, 'perf_pipe', buf[:keep])
    save(out, 'perf_file', buf[:keep])
    attrs = [buf[pos + 8:pos + size] for pos, typ, misc, size in recs if typ == 64]
    if len(attrs) == 1:
        n = struct.unpack_from('<I', attrs[0], 4)[0] or 64
        sample_seeds(out, attrs[0][:n], buf, recs)
    compressed_seeds(out, buf, recs)


def main():
    out = sys.argv[1]
    for path in sys.argv[2:]:
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            buf = f.read()
        if len(buf) < 16 or buf[:8] != b'PERFILE2':
            continue
        if struct.unpack_from('<Q', buf, 8)[0] == 16:
            from_pipe(out, buf)
        elif len(buf) >= 104:
            from_file(out, buf)


if __name__ == '__main__':
    main()
