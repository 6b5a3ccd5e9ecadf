"""A damaged copy of a golden recording, shared by the Python tests."""

import os
import struct

FINISHED_ROUND = 68


def damaged_copy(golden, dest):
    """dwarf-cxx with the record after its second FINISHED_ROUND given a size of 4 (smaller
    than a record header): the samples the first rounds let out of perf's ordered queue come
    before the error. Returns the damage's offset."""
    data = bytearray(open(os.path.join(golden, "dwarf-cxx", "perf.data"), "rb").read())
    offset, size = struct.unpack_from("<QQ", data, 40)
    at, rounds = offset, 0
    while at < offset + size and rounds < 2:
        rtype, _, rsize = struct.unpack_from("<IHH", data, at)
        rounds += rtype == FINISHED_ROUND
        at += rsize
    assert rounds == 2
    struct.pack_into("<H", data, at + 6, 4)
    with open(dest, "wb") as f:
        f.write(bytes(data))
    return at
