"""readperf: perf.data recordings as numpy columns and pandas DataFrames.

    import readperf
    rec = readperf.open("perf.data", buildid_dir="~/.debug")
    rec.header["hostname"], [e["name"] for e in rec.events]
    df = rec.samples()            # one row per sample: time, pid, tid, cpu, event, period,
                                  # comm, dso, symbol, stack_id (categoricals share names)
    rec.frames(), rec.stacks()    # the model's frame and stack tables
    rec.function_costs()          # period per (event, comm, dso, symbol) of the leaf frames
    rec.report()                  # `readperf report --stdio --no-children`'s entries
    rec.collapsed()               # `readperf export --format collapsed`, as a string
    for ev in rec.records():      # every record in perf's order (a `perf script -s`
        ...                       # replacement): ev.comm, ev.symbol, ev.period, ...
    for ev in readperf.records("perf.data"):   # the same without reading the model first
        ...
    rec.to_pprof("p.pb.gz"), rec.to_sqlite("p.db")   # `export --format pprof|sqlite -o`

Every sample is resolved once in C++ (the same resolver as `readperf report` and `script`);
the columns are numpy arrays over the library's own memory, no Python object per sample.
A damaged file raises ReadError, which carries the offset of the damage and the recording
read up to it; open(..., partial=True) returns that recording instead, its error in
`rec.errors`.
"""

import os as _os

from . import _readperf

__all__ = ["open", "open_bytes", "records", "merge_pprof", "Recording", "Record", "ReadError"]


class _Numpy:
    """numpy, imported when first used: a loop over records() needs none of it (and its
    import is most of a small script's start-up)."""

    def __getattr__(self, name):
        import numpy
        return getattr(numpy, name)


_np = _Numpy()

Record = _readperf.Record
# Record type numbers by perf's names ("SAMPLE": 9, "MMAP2": 10, ...).
RECORD_TYPES = dict(_readperf.RECORD_TYPES)

FLAG_HAS_SYMBOL = _readperf.FLAG_HAS_SYMBOL
FLAG_INLINED = _readperf.FLAG_INLINED
FLAG_UNWOUND = _readperf.FLAG_UNWOUND
FLAG_USER_DSO = _readperf.FLAG_USER_DSO


class ReadError(Exception):
    """A recording that could not be read whole.

    Attributes: path, offset (the file offset of the damage, or None), what (what was wrong),
    recording (a Recording of what was read before the damage; None when nothing could be).
    """

    def __init__(self, message, path, offset, what, recording):
        super().__init__(message)
        self.path = path
        self.offset = offset
        self.what = what
        self.recording = recording


def _path(p):
    return None if p is None else _os.fspath(_os.path.expanduser(_os.fspath(p)))


def open(path, buildid_dir=None, symfs=None, kallsyms=None, partial=False, lines=False,
         srclines=False, max_stack=127, time=None, cpu=None, comms=None, pids=None, tids=None,
         dsos=None, symbols=None, vmlinux=None):  # pylint: disable=redefined-builtin
    """Reads the recording at `path` (a perf.data file, a `perf record --threads` directory
    or a pipe-mode stream saved to a file) and resolves its samples.

    buildid_dir: the build-id cache (default $PERF_BUILDID_DIR or ~/.debug); symfs: a root
    prepended to the binaries' paths; kallsyms: a kallsyms file for the kernel's symbols;
    vmlinux: a vmlinux for them (perf's -k; kallsyms wins), else the one perf would find.
    lines: look up each frame's source file and line (DWARF); srclines: perf's srcline of each
    frame (slower: addr2line's answer). partial: return what was read before damage instead
    of raising ReadError.

    The samples kept, as perf's filters of the same names keep them (readperf script's and the
    exports' --time, -C, --comms, --pid, --tid, --dsos, --symbols): time ("start,stop" in
    seconds, several windows, or percent forms such as "0%-50%"), cpu ("0-1,3"), comms, pids,
    tids, dsos and symbols (a list, or a comma-separated string; a symbol may be a hexadecimal
    address). A filter the recording cannot take raises ValueError with perf's message.
    """
    filters = _filters(time=time, cpu=cpu, comms=comms, pids=pids, tids=tids, dsos=dsos,
                       symbols=symbols)
    return _open(path, buildid_dir, symfs, kallsyms, partial, lines, srclines, max_stack, True,
                 filters, vmlinux)


def _filters(**given):
    out = {}
    for name, value in given.items():
        if value is None:
            continue
        if name in ("time", "cpu"):
            out[name] = str(value)
            continue
        items = value.split(",") if isinstance(value, str) else list(value)
        if name in ("pids", "tids"):
            items = [int(v) for v in items]
        else:
            items = [str(v) for v in items]
        out[name] = items
    return out


def records(path, buildid_dir=None, symfs=None, kallsyms=None, partial=False, max_stack=127,
            types=None, events=None, callchains=True, vmlinux=None):
    """`open(path, ...).records(types, events, callchains)` without reading the profile model
    first (which open() does): the fastest way through a recording's records, for a script
    that replaces `perf script -s`. The arguments are open()'s and Recording.records()'."""
    rec = _open(path, buildid_dir, symfs, kallsyms, partial, False, False, max_stack, False,
                vmlinux=vmlinux)
    return rec.records(types=types, events=events, callchains=callchains)


class _MemoryFile:
    """Bytes as a file (memfd_create: in memory, no file system) at a path the library opens
    like any other, /proc/self/fd/N, as long as this object lives."""

    def __init__(self, data):
        self._fd = _os.memfd_create("readperf", _os.MFD_CLOEXEC)
        view = memoryview(data).cast("B")
        while view:
            view = view[_os.write(self._fd, view):]
        self.path = "/proc/self/fd/%d" % self._fd

    def __del__(self):
        if getattr(self, "_fd", None) is not None:
            _os.close(self._fd)
            self._fd = None


def open_bytes(data, name="<bytes>", **open_kw):
    """open() of a recording held in memory (bytes, bytearray, memoryview of a perf.data file
    or a saved pipe stream), e.g. shipped to a worker that cannot read the file: `name` stands
    for its path in the Recording and its errors. The keywords are open()'s."""
    mem = _MemoryFile(data)
    try:
        rec = open(mem.path, **open_kw)
    except ReadError as e:
        if e.recording is not None:
            e.recording._memory = mem
            e.recording.path = name
        raise ReadError(str(e).replace(mem.path, name), name, e.offset, e.what,
                        e.recording) from None
    rec._memory = mem  # the recording's exports and records() read the path again
    rec.path = name
    return rec


def merge_pprof(profiles, gzip=True):
    """One pprof profile of many (bytes of Recording.pprof() or of `readperf export --format
    pprof` files, gzipped or bare), as `pprof -proto a.pb.gz b.pb.gz` merges them: equal
    samples (same stack, comm and pid) summed, DurationNanos summed; profiles of other events
    give the union of their sample types (pprof refuses them). The profiles must be symbolized
    (not `--no-symbolize`); ValueError names the first that is not, or does not decode (its
    index). Merging one profile gives its bytes back."""
    return _readperf.merge_pprof([bytes(p) for p in profiles], gzip=gzip)


def _open(path, buildid_dir, symfs, kallsyms, partial, lines, srclines, max_stack, model,
          filters=None, vmlinux=None):
    raw = _readperf.open_recording(_path(path), buildid_dir=_path(buildid_dir),
                                   symfs=_path(symfs), kallsyms=_path(kallsyms), lines=lines,
                                   srclines=srclines, max_stack=max_stack, model=model,
                                   filters=filters or {}, vmlinux=_path(vmlinux))
    if not raw.opened:
        err = raw.error
        raise ReadError(err["message"], _os.fspath(path), err["offset"], err["what"], None)
    rec = Recording(raw, partial)
    if raw.error is not None and not partial:
        err = raw.error
        raise ReadError(err["message"], _os.fspath(path), err["offset"], err["what"], rec)
    return rec


class Recording:
    """One recording read into readperf's profile model."""

    def __init__(self, raw, partial=False):
        self._raw = raw
        self._partial = partial
        self.path = raw.path
        self.header = raw.header
        self.events = raw.events
        # Damage read past (a data section cut short), then what stopped the reading: dicts
        # of message, offset and what.
        self.errors = list(raw.warnings) + ([raw.error] if raw.error is not None else [])
        self._strings = None
        self._own = None
        self._labels = None

    def __repr__(self):
        return "<readperf.Recording %r: %d samples, %d events>" % (
            self.path, len(self), len(self.events))

    def __len__(self):
        return len(self._raw.sample_columns()["time"])

    @property
    def strings(self):
        """The model's string table: every name, interned once (index 0 is '')."""
        if self._strings is None:
            self._strings = _np.array(self._raw.strings, dtype=object)
        return self._strings

    def bytes_per_sample(self):
        """The memory the sample columns take per sample, in bytes."""
        return self._raw.bytes_per_sample()

    def sample_columns(self):
        """The sample columns as read-only numpy arrays (views of the library's memory):
        time, pid, tid, cpu, event (index into events), period, stack_id, comm (string id),
        and addr and weight when the recording has them."""
        return self._raw.sample_columns()

    def _categorical(self, codes):
        return _compact_categorical(codes, self.strings)

    def _own_frames(self, stack_ids):
        """The frame each sample is charged to by `report --no-children`: its stack's leaf, or
        with inline frames (DWARF), the function they were inlined into (perf's hist entry
        takes the sample address's symbol, not an inline name). -1 for the empty stack 0."""
        if self._own is None:
            stacks = self._raw.stack_columns()
            frame = stacks["frame"].astype(_np.int64)
            parent = stacks["parent"].astype(_np.int64)
            inlined = (self._raw.frame_columns()["flags"] & FLAG_INLINED) != 0
            own = _np.arange(len(frame), dtype=_np.int64)  # per stack node: its own node
            while True:
                step = inlined[frame[own]] & (parent[own] != 0)
                if not step.any():
                    break
                own[step] = parent[own[step]] - 1
            self._own = _np.concatenate([[-1], frame[own]])
        return self._own[stack_ids.astype(_np.int64)]

    def _symbol_labels(self):
        """perf report's symbol column of each frame, as a categorical's (codes, names): the
        symbol's name, or without one the address perf prints (sort.c
        _hist_entry__sym_snprintf: `%#-*llx`, 16 digits, of the map-relative address)."""
        if self._labels is None:
            import pandas as pd
            f = self._raw.frame_columns()
            names = self.strings[f["symbol"]]
            addr = _np.where(f["mapping"] != 0, f["rel_address"], f["address"])
            no_sym = _np.flatnonzero((f["flags"] & FLAG_HAS_SYMBOL) == 0)
            names = names.copy()
            names[no_sym] = ["0x%016x" % int(a) for a in addr[no_sym]]
            self._labels = pd.factorize(names)
        return self._labels

    def samples(self):
        """A pandas DataFrame, one row per sample, in perf's order: time, pid, tid, cpu, event,
        period, comm, dso and symbol (of the frame `report --no-children` charges: the
        sample's address, not an inline frame; an address when there is no symbol),
        stack_id, and addr and weight when recorded. Names are categoricals."""
        import pandas as pd
        c = self.sample_columns()
        frames = self._raw.frame_columns()
        own = self._own_frames(c["stack_id"])
        has = own >= 0
        safe = _np.maximum(own, 0)
        dso = _np.where(has, frames["dso"][safe].astype(_np.int64), -1)
        label_codes, label_names = self._symbol_labels()
        sym = _np.where(has, label_codes[safe], -1)
        events = pd.Categorical.from_codes(c["event"].astype(_np.int64),
                                           categories=_unique_names(self.events))
        data = {
            "time": c["time"],
            "pid": c["pid"],
            "tid": c["tid"],
            "cpu": c["cpu"],
            "event": events,
            "period": c["period"],
            "comm": self._categorical(c["comm"].astype(_np.int64)),
            "dso": self._categorical(dso),
            "symbol": _compact_categorical(sym, label_names),
            "stack_id": c["stack_id"],
        }
        for opt in ("addr", "weight"):
            if opt in c:
                data[opt] = c[opt]
        return pd.DataFrame(data, copy=False)

    def frames(self):
        """The frame table, indexed by frame id: address (as recorded), rel_address
        (map-relative), dso (script's name: a path), symbol, short_dso (report's name), offset, srcline, file, line, inlined, unwound, has_symbol,
        user_dso (perf prints rel_address for those, address for the others), mapping."""
        import pandas as pd
        f = self._raw.frame_columns()
        s = self.strings
        flags = f["flags"]
        df = pd.DataFrame({
            "address": f["address"],
            "rel_address": f["rel_address"],
            "dso": self._categorical(f["dso"].astype(_np.int64)),
            "symbol": self._categorical(f["symbol"].astype(_np.int64)),
            "short_dso": self._categorical(f["short_dso"].astype(_np.int64)),
            "offset": f["offset"],
            "srcline": s[f["srcline"]],
            "file": s[f["file"]],
            "line": f["line"],
            "inlined": (flags & FLAG_INLINED) != 0,
            "unwound": (flags & FLAG_UNWOUND) != 0,
            "has_symbol": (flags & FLAG_HAS_SYMBOL) != 0,
            "user_dso": (flags & FLAG_USER_DSO) != 0,
            "mapping": f["mapping"],
        })
        df.index.name = "frame_id"
        return df

    def stacks(self):
        """The stack table, indexed by stack id (from 1): frame (the stack's leaf frame id)
        and parent (its caller's stack id, 0 at the root)."""
        import pandas as pd
        st = self._raw.stack_columns()
        df = pd.DataFrame({"frame": st["frame"], "parent": st["parent"]},
                          index=_np.arange(1, len(st["frame"]) + 1))
        df.index.name = "stack_id"
        return df

    def stack(self, stack_id):
        """The frame ids of one stack, leaf first."""
        st = self._raw.stack_columns()
        out = []
        s = int(stack_id)
        while s:
            out.append(int(st["frame"][s - 1]))
            s = int(st["parent"][s - 1])
        return out

    def report(self, sort=("comm", "dso", "sym"), children=False):
        """`readperf report --stdio --sort SORT --no-children --no-group` as a DataFrame (with
        children=True, `--children`): one row per report entry, in the report's order.

        sort: the sort keys, perf's names or prefixes ("comm", "dso", "sym", "pid", "cpu",
        "srcline", "trace", "parent", "time", ...), a sequence or a comma-separated string.
        Columns: event, then children and self (percent; with children=True) or overhead
        (percent), period, samples (of the entry's own samples), children_period (with
        children=True), then one column per sort key as the report prints it (named by the
        key: comm, dso, symbol, pid, ...; the symbol's level "." or "k" apart, in `level`).
        Percentages are of the event's total period, as the report's. Entries are computed by
        the library's report pipeline, the same as the CLI's. Each event of a group has its
        own rows. children=True on a recording without call chains (or a pipe, as perf)
        gives children equal to self.
        """
        import pandas as pd
        order = sort if isinstance(sort, str) else ",".join(sort)
        cols = self._raw.report(order, bool(children))
        values = ["children", "self"] if children else ["overhead"]
        values += ["period", "samples"] + (["children_period"] if children else [])
        keys = [k for k in cols if k not in values and k != "event"]
        data = {"event": pd.Categorical(cols["event"])}
        for v in values:
            data[v] = cols[v]
        for k in keys:
            data[k] = pd.Categorical(cols[k])
        return pd.DataFrame(data)

    def records(self, types=None, events=None, callchains=True):
        """Every kernel record of the recording in perf's order (what `perf script` and its
        Python scripting see), as readperf.Record objects: samples (type "SAMPLE") and the
        side-band records (MMAP, MMAP2, COMM, FORK, EXIT, LOST, SWITCH, THROTTLE, ...).

            for ev in rec.records(types="SAMPLE"):
                totals[ev.comm, ev.symbol] += ev.period

        A sample has perf's scripting fields as attributes, made when read: event (perf's
        ev_name), time, pid, tid, cpu, ip, addr, period, phys_addr, weight, transaction,
        cpumode, comm, dso, symbol, symoff, dso_map_start, dso_map_end (None when unknown),
        callchain (perf's list of dicts, leaf first), raw (raw_buf); `ev.as_dict()` is the
        param_dict perf's process_event() gets. Another record has type, time, pid, tid, cpu
        (its sample_id), misc, raw (its bytes) and `fields` (its own fields by name).

        types: record type names (a string or a sequence) to hand out; events: event names
        whose samples to hand out (others are not resolved); callchains=False skips the call
        chains (faster). The file is read again, in a thread of its own, while the loop runs;
        damage raises ReadError after the records before it (with partial=True, the
        iteration just ends there, the error in `rec.errors`).
        """
        type_ids = []
        if types is not None:
            for t in ([types] if isinstance(types, str) else types):
                if t not in RECORD_TYPES:
                    raise ValueError("unknown record type %r (one of %s)" % (
                        t, ", ".join(sorted(RECORD_TYPES))))
                type_ids.append(RECORD_TYPES[t])
        event_ids = []
        if events is not None:
            names = [e["name"] for e in self.events]
            for e in ([events] if isinstance(events, str) else events):
                if e not in names:
                    raise ValueError("no event %r in this recording (%s)" % (e, ", ".join(names)))
                event_ids.extend(i for i, n in enumerate(names) if n == e)

        def on_error(err):
            message, what, offset = err
            if self._partial:
                e = {"message": message, "what": what, "offset": offset}
                if e not in self.errors:
                    self.errors.append(e)
                return
            raise ReadError(message, self.path, offset, what, self)

        return self._raw.records(type_ids, event_ids, bool(callchains), on_error)

    def tracepoint_fields(self, event):
        """A pandas DataFrame of the samples of the tracepoint `event` ("sched:sched_switch"),
        one row a sample in perf's order: the sample's common_time, common_cpu, common_tgid
        (its pid), common_tid and common_comm (named as perf's tracepoint handlers name theirs:
        fields are often called pid or comm), then every field of the event's format decoded
        from the sample's raw data (common_type, common_flags, common_preempt_count,
        common_pid, then the event's own, as Record.fields has them): numbers as int64
        (signed fields) or uint64 columns, strings as categoricals, other arrays as object
        columns (bytes, or lists of numbers). The file is read again."""
        import pandas as pd
        ids = [i for i, e in enumerate(self.events) if e["name"] == event]
        if not ids:
            raise ValueError("no event %r in this recording (%s)" % (
                event, ", ".join(e["name"] for e in self.events)))
        if any(self.events[i]["type"] != 2 for i in ids):  # PERF_TYPE_TRACEPOINT
            raise ValueError("%r is not a tracepoint" % event)
        out = self._raw.tracepoint_columns(ids)
        if out["error"] is not None:
            message, what, offset = out["error"]
            self._check({"message": message, "what": what, "offset": offset})
        data = {}
        for name, col in out["columns"].items():
            if isinstance(col, tuple):
                col = pd.Categorical.from_codes(col[0], categories=col[1])
            elif isinstance(col, list):
                col = pd.Series(col, dtype=object)
            data[name] = col
        return pd.DataFrame(data, copy=False)

    def _check(self, err):
        """Raises ReadError for an export stopped by damage in the recording (unless opened
        with partial=True: the export then holds what precedes the damage), OSError for one
        that could not write its output."""
        if err is None:
            return
        if err["offset"] is None:
            raise OSError(err["message"])
        if not self._partial:
            raise ReadError(err["message"], self.path, err["offset"], err["what"], self)

    def collapsed(self, pid=False, tid=False, kernel=False, jit=False, addrs=False, event=None,
                  count=False):
        """The folded stacks of `readperf export --format collapsed` (the pipeline
        `perf script | stackcollapse-perf.pl`), as a string: "comm;root;...;leaf period" a
        line, sorted. The options are the script's: pid and tid in the comm, kernel ("_[k]")
        and jit ("_[j]") annotations, addresses for unresolved frames, only `event` (as perf
        script names it; default: the first one seen), count samples instead of periods."""
        out, err = self._raw.collapsed(pid=pid, tid=tid, kernel=kernel, jit=jit, addrs=addrs,
                                       event=event or "", count=count)
        self._check(err)
        return out.decode("utf-8", "surrogateescape")

    def pprof(self, gzip=True):
        """The bytes `readperf export --format pprof` writes: a gzipped profile.proto (bare
        protobuf with gzip=False). readperf.merge_pprof() merges such profiles."""
        out, err = self._raw.pprof(gzip=gzip)
        self._check(err)
        return out

    def to_pprof(self, path, gzip=True):
        """Writes `readperf export --format pprof -o PATH`: a gzipped profile.proto (bare
        protobuf with gzip=False), for `pprof` and other profile viewers."""
        self._check(self._raw.to_pprof(_path(path), gzip=gzip))

    def to_sqlite(self, path, callchains=True):
        """Writes `readperf export --format sqlite -o PATH`: a database shaped as perf's
        export-to-sqlite.py (docs/sqlite.md), replacing any file there. callchains: the
        call_paths table from the samples' call chains."""
        self._check(self._raw.to_sqlite(_path(path), callchains=callchains))

    def function_costs(self):
        """Period and sample count per (event, comm, dso, symbol) of the samples' own frames:
        `report --no-children --sort comm,dso,sym` as a DataFrame, largest first: the same
        rows, periods and sample counts as readperf's (and perf's) report."""
        df = self.samples()
        # report's "Shared Object" column: the dso's short name (the file name, a module's
        # "[name]"), where samples() has script's (the path).
        frames = self._raw.frame_columns()
        own = self._own_frames(self.sample_columns()["stack_id"])
        short = frames["short_dso"][_np.maximum(own, 0)].astype(_np.int64)
        df["dso"] = self._categorical(_np.where(own >= 0, short, -1))
        g = df.groupby(["event", "comm", "dso", "symbol"], observed=True, dropna=False)
        out = g["period"].agg(["sum", "count"]).rename(
            columns={"sum": "period", "count": "samples"}).reset_index()
        return out.sort_values("period", ascending=False, kind="stable").reset_index(drop=True)


def _compact_categorical(codes, names):
    """A Categorical of `codes` into `names` keeping only the names used (-1: missing)."""
    import pandas as pd
    used = _np.unique(codes[codes >= 0]) if len(codes) else _np.array([], dtype=_np.int64)
    remap = _np.full(len(names), -1, dtype=_np.int64)
    remap[used] = _np.arange(len(used))
    new_codes = _np.where(codes >= 0, remap[_np.maximum(codes, 0)], -1)
    return pd.Categorical.from_codes(new_codes, categories=list(_np.asarray(names)[used]))


def _unique_names(events):
    """Event names as categories: pandas wants them unique, perf's need not be."""
    seen = {}
    out = []
    for e in events:
        n = e["name"]
        if n in seen:
            seen[n] += 1
            n = "%s#%d" % (n, seen[n])
        else:
            seen[n] = 0
        out.append(n)
    return out
