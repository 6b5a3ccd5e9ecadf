"""A profile.proto reader for the tests (protobuf's wire format, the fields readperf writes),
independent of readperf's own decoder: the samples' values by (comm, pid, stack), the stack
the function names of each location leaf first (inline frames first), "0x..." without one."""

import gzip


def _varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def _fields(b):
    i = 0
    while i < len(b):
        tag, i = _varint(b, i)
        num, wire = tag >> 3, tag & 7
        if wire == 0:
            v, i = _varint(b, i)
        elif wire == 2:
            n, i = _varint(b, i)
            v = b[i:i + n]
            i += n
        elif wire == 1:
            v, i = int.from_bytes(b[i:i + 8], "little"), i + 8
        elif wire == 5:
            v, i = int.from_bytes(b[i:i + 4], "little"), i + 4
        else:
            raise ValueError("wire type %d" % wire)
        yield num, wire, v


def _ints(wire, v):
    if wire == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = _varint(v, i)
        out.append(x)
    return out


def totals(data):
    """({(comm, pid, stack): {sample type: value}}, [sample types]) of a profile's bytes."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    strings, types, samples, locations, functions = [], [], [], {}, {}
    for num, wire, v in _fields(data):
        if num == 1:
            types.append(dict((n, x) for n, _, x in _fields(v)))
        elif num == 2:
            s = {"loc": [], "val": [], "labels": []}
            for n, w, x in _fields(v):
                if n == 1:
                    s["loc"] += _ints(w, x)
                elif n == 2:
                    s["val"] += _ints(w, x)
                elif n == 3:
                    s["labels"].append(dict((k, y) for k, _, y in _fields(x)))
            samples.append(s)
        elif num == 4:
            loc = {"lines": []}
            for n, _, x in _fields(v):
                if n == 1:
                    loc["id"] = x
                elif n == 3:
                    loc["address"] = x
                elif n == 4:
                    loc["lines"].append(dict((k, y) for k, _, y in _fields(x)))
            locations[loc["id"]] = loc
        elif num == 5:
            f = dict((n, x) for n, _, x in _fields(v))
            functions[f[1]] = f
        elif num == 6:
            strings.append(v.decode("utf-8", "surrogateescape"))
    names = ["%s/%s" % (strings[t.get(1, 0)], strings[t.get(2, 0)]) for t in types]
    out = {}
    for s in samples:
        stack = []
        for lid in s["loc"]:
            loc = locations[lid]
            if not loc["lines"]:
                stack.append("0x%x" % loc.get("address", 0))
            for line in loc["lines"]:
                stack.append(strings[functions[line.get(1, 0)].get(2, 0)])
        comm = pid = None
        for l in s["labels"]:
            if strings[l.get(1, 0)] == "comm":
                comm = strings[l.get(2, 0)]
            elif strings[l.get(1, 0)] == "pid":
                pid = l.get(3, 0)
        key = (comm, pid, tuple(stack))
        values = out.setdefault(key, {})
        for name, v in zip(names, s["val"]):
            if v:
                values[name] = values.get(name, 0) + v
    return out, names


def add(a, b):
    """Two totals() dicts summed."""
    out = {k: dict(v) for k, v in a.items()}
    for k, v in b.items():
        o = out.setdefault(k, {})
        for name, x in v.items():
            o[name] = o.get(name, 0) + x
    return out
