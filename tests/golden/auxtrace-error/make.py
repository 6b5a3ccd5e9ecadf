#!/usr/bin/python3
"""Writes auxtrace-error/perf.data from default/perf.data with three PERF_RECORD_AUXTRACE_ERROR
records (lib/perf/include/perf/event.h perf_record_auxtrace_error) at the start of the data
section, what an Intel PT or CoreSight decoder's recording carries: format 1 with a time,
format 0 (the message where the time is now), both as long as their message (as
auxtrace_synth_error() sizes them), and format 2 (the whole struct) with a machine pid and vcpu, of
types 1 (instruction trace) and 7 (one perf does not name). The feature sections after the
data move by the records' size. Usage: make.py default/perf.data auxtrace-error/perf.data"""
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
d = bytearray(open(src, 'rb').read())
doff, dsize = struct.unpack_from('<QQ', d, 40)
feats = struct.unpack_from('<4Q', d, 72)
nfeat = sum(bin(w).count('1') for w in feats)


def error(misc, typ, code, cpu, pid, tid, fmt, ip, time, msg, machine_pid=0, vcpu=0):
    body = struct.pack('<IIIIIIQ', typ, code, cpu, pid, tid, fmt, ip)
    if fmt:
        body += struct.pack('<Q', time)
    if fmt >= 2:
        # The whole struct (auxtrace.c auxtrace_synth_error()).
        body += msg.encode().ljust(64, b'\0') + struct.pack('<II', machine_pid, vcpu)
    else:
        # Up to the message's NUL, 8-byte aligned.
        body += msg.encode() + b'\0'
        body = body.ljust((len(body) + 8 + 7) // 8 * 8 - 8, b'\0')
    return struct.pack('<IHH', 72, misc, 8 + len(body)) + body


recs = (error(2, 1, 6, 0, 1234, 1235, 1, 0x401136, 4692123456789,
              'Lost trace data') +
        error(1, 1, 2, 1, 4321, 4321, 0, 0, 0, 'Overflow packet') +
        error(1, 7, 3, 0xffffffff, 77, 78, 2, 0xffffffff81000000, 4692200000000,
              'Guest decode error', 99, 3))
d[doff:doff] = recs
delta = len(recs)
struct.pack_into('<Q', d, 48, dsize + delta)
ft = doff + dsize + delta
for i in range(nfeat):
    o, sz = struct.unpack_from('<QQ', d, ft + 16 * i)
    struct.pack_into('<Q', d, ft + 16 * i, o + delta)
open(dst, 'wb').write(d)
