"""Fleets of recordings on Dask: each file read by a worker, its costs aggregated.

    from distributed import Client, LocalCluster
    import readperf.dask as rpd

    client = Client(LocalCluster(n_workers=2))          # or Client("tcp://scheduler:8786")
    fleet = rpd.fleet_costs(paths, hosts=names, client=client, buildid_dir="/srv/debug")
    fleet.costs          # period and samples per (event, dso, symbol) over every readable file
    fleet.per_host       # the same per host
    fleet.errors         # one row per file that could not be read: path, host, offset, message
    rpd.top_functions(fleet.costs, 10)
    rpd.hosts_above_median(fleet.per_host, "leaf")

    ddf = rpd.read_samples(paths, hosts=names)           # a dask DataFrame, one partition a file
    merged = rpd.merge(paths, client=client)             # one collapsed profile of every file
    open("fleet.folded", "w").write(merged.profile)      # flamegraph.pl fleet.folded > fleet.svg
    pb = rpd.merge(paths, client=client, format="pprof")  # one pprof profile of every file
    open("fleet.pb.gz", "wb").write(pb.profile)          # pprof -top fleet.pb.gz

Workers need only this package and the files (paths on shared storage): each opens its own;
or with ship=True the client reads the files and sends their bytes to the workers.
A file that fails to read gives an error row and the job goes on without its samples.
"""

import os
from collections import namedtuple

import numpy as np
import pandas as pd

import readperf

__all__ = ["read_samples", "fleet_costs", "file_costs", "top_functions", "hosts_above_median",
           "merge", "FleetCosts", "MergedProfile"]

COST_KEYS = ["event", "dso", "symbol"]
ERROR_COLUMNS = ["path", "host", "offset", "message"]

FleetCosts = namedtuple("FleetCosts", ["costs", "per_host", "errors"])
MergedProfile = namedtuple("MergedProfile", ["profile", "errors"])


def _host_of(path):
    return os.path.basename(os.path.dirname(os.path.abspath(path))) or path


def _hosts(paths, hosts):
    # Absolute: a worker's working directory is not the caller's (on shared storage, the
    # same absolute path names the same file everywhere).
    paths = [os.path.abspath(os.fspath(p)) for p in paths]
    if hosts is None:
        hosts = [_host_of(p) for p in paths]
    hosts = list(hosts)
    if len(hosts) != len(paths):
        raise ValueError("hosts must name one host per path")
    return paths, hosts


def _open(path, open_kw, data=None):
    """The recording at `path`, or in `data` (its bytes, shipped) named `path`."""
    if data is None:
        return readperf.open(path, **open_kw)
    return readperf.open_bytes(data, name=path, **open_kw)


def _shipped(paths, client, ship):
    """With `ship`, each file's bytes read here and scattered to the workers (one file in this
    process's memory at a time), for workers that cannot read the files; else None each. A
    directory (`perf record --threads`) or a file unreadable here is not shipped: its worker
    opens the path, and reports it if it cannot."""
    if not ship:
        return [None] * len(paths)
    if client is None:
        raise ValueError("ship=True needs a client: the bytes go to its workers")
    out = []
    for p in paths:
        try:
            with open(p, "rb") as f:
                data = f.read()
        except OSError:  # a directory, or not readable here
            out.append(None)
            continue
        out.append(client.scatter(data))
    return out


def _sample_frame(path, host, open_kw, time=None, data=None):
    """One file's samples (those of `time` only, a time filter, when given) with host and path
    columns (names as plain strings, so that partitions of different files concatenate), or an
    empty frame when it cannot be read."""
    if time is not None:
        open_kw = dict(open_kw, time=time)
    try:
        df = _open(path, open_kw, data).samples()
    except readperf.ReadError:
        return _empty_samples()
    out = pd.DataFrame({"host": host, "path": path}, index=df.index)
    for col in df.columns:
        s = df[col]
        out[col] = s.astype(object) if isinstance(s.dtype, pd.CategoricalDtype) else s
    return out


def _empty_samples():
    return pd.DataFrame({
        "host": pd.Series(dtype=object), "path": pd.Series(dtype=object),
        "time": pd.Series(dtype=np.uint64), "pid": pd.Series(dtype=np.int32),
        "tid": pd.Series(dtype=np.int32), "cpu": pd.Series(dtype=np.uint32),
        "event": pd.Series(dtype=object), "period": pd.Series(dtype=np.uint64),
        "comm": pd.Series(dtype=object), "dso": pd.Series(dtype=object),
        "symbol": pd.Series(dtype=object), "stack_id": pd.Series(dtype=np.uint32),
    })


def _size_of(path):
    """The bytes of a recording: a file's, or a `perf record --threads` directory's files'."""
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path)
                   if os.path.isfile(os.path.join(path, f)))
    return os.path.getsize(path)


def _time_windows(path, chunk_bytes):
    """Time filters ("start,stop", perf's --time syntax to the nanosecond) that split the
    recording's samples into about size / chunk_bytes partitions of equal time spans, from the
    first and last sample times its header states (HEADER_SAMPLE_TIME); [None] (one partition)
    for a smaller file, one without those times (a pipe, an older perf) or one unreadable here
    (its worker then reports it)."""
    try:
        n = -(-_size_of(path) // chunk_bytes)
    except OSError:
        return [None]
    if n <= 1:
        return [None]
    try:
        header = readperf._open(path, None, None, None, True, False, False, 127, False).header
    except readperf.ReadError:
        return [None]
    first, last = header.get("sample_time") or (0, 0)
    if not first or last <= first:
        return [None]
    span = last - first + 1
    n = min(n, span)
    bounds = [first + span * i // n for i in range(n + 1)]
    stamp = lambda ns: "%d.%09d" % divmod(ns, 10**9)
    # Windows are inclusive at both ends: each ends a nanosecond before the next begins.
    return ["%s,%s" % (stamp(bounds[i]), stamp(bounds[i + 1] - 1)) for i in range(n)]


def read_samples(paths, hosts=None, chunk_bytes=None, client=None, ship=False, **open_kw):
    """A dask DataFrame of every file's samples, with `host` (default: the file's directory
    name) and `path` columns: one partition per file, or with `chunk_bytes`, files larger than
    that split into about size / chunk_bytes partitions by time (each worker reads the whole
    file, resolving only its window's samples: the work of a large file spread over workers;
    not with a `time` filter of your own). A `stack_id` numbers the stacks of its partition
    (Recording.stacks() of that file, or of that window). Files that cannot be read give no
    rows (fleet_costs() reports them). ship=True (with `client`): the files' bytes are sent
    to the workers, for workers without the files."""
    import dask
    import dask.dataframe as dd
    paths, hosts = _hosts(paths, hosts)
    parts = []
    for p, h, d in zip(paths, hosts, _shipped(paths, client, ship)):
        windows = [None]
        if chunk_bytes and "time" not in open_kw:
            windows = _time_windows(p, chunk_bytes)
        parts += [dask.delayed(_sample_frame)(p, h, open_kw, w, d) for w in windows]
    return dd.from_delayed(parts, meta=_empty_samples(), verify_meta=False)


def file_costs(path, host=None, data=None, **open_kw):
    """(costs, error) of one file: its samples' period and count per (event, dso, symbol) of
    their own frames, and None; or an empty table and the error row when it cannot be read.
    `data`: the file's bytes (read elsewhere), named `path`."""
    host = _host_of(path) if host is None else host
    try:
        rec = _open(path, open_kw, data)
    except readperf.ReadError as e:
        return _empty_costs(), _error_row(path, host, e)
    df = rec.samples()
    g = df.groupby(COST_KEYS, observed=True, dropna=False)["period"].agg(["sum", "count"])
    g = g.rename(columns={"sum": "period", "count": "samples"}).reset_index()
    for k in COST_KEYS:
        g[k] = g[k].astype(object)
    g["period"] = g["period"].astype(np.int64)
    g["samples"] = g["samples"].astype(np.int64)
    g.insert(0, "host", host)
    return g, None


def _empty_costs():
    return pd.DataFrame({"host": pd.Series(dtype=object), "event": pd.Series(dtype=object),
                         "dso": pd.Series(dtype=object), "symbol": pd.Series(dtype=object),
                         "period": pd.Series(dtype=np.int64),
                         "samples": pd.Series(dtype=np.int64)})


def fleet_costs(paths, hosts=None, client=None, ship=False, **open_kw):
    """Reads every file on the Dask scheduler (`client`'s, else dask's default) and sums the
    costs of their functions: FleetCosts(costs, per_host, errors), costs sorted by period.
    ship=True (with `client`): the files' bytes are sent to the workers."""
    import dask
    paths, hosts = _hosts(paths, hosts)
    tasks = [dask.delayed(file_costs, pure=False)(p, h, d, **open_kw)
             for p, h, d in zip(paths, hosts, _shipped(paths, client, ship))]
    if client is not None:
        results = client.gather(client.compute(tasks))
    else:
        results = dask.compute(*tasks)
    tables = [t for t, _ in results]
    errors = pd.DataFrame([e for _, e in results if e is not None], columns=ERROR_COLUMNS)
    every = pd.concat([_empty_costs()] + tables, ignore_index=True)
    per_host = (every.groupby(["host"] + COST_KEYS, dropna=False)[["period", "samples"]].sum()
                .reset_index())
    costs = (every.groupby(COST_KEYS, dropna=False)
             .agg(period=("period", "sum"), samples=("samples", "sum"),
                  hosts=("host", "nunique"))
             .reset_index()
             .sort_values(["period"] + COST_KEYS, ascending=[False, True, True, True])
             .reset_index(drop=True))
    return FleetCosts(costs, per_host, errors)


def top_functions(costs, n=10, event=None):
    """The `n` functions with the most period (of `event`, if given) in a costs table."""
    c = costs if event is None else costs[costs["event"] == event]
    c = c.groupby(["dso", "symbol"], dropna=False)[["period", "samples"]].sum().reset_index()
    return c.sort_values(["period", "symbol"], ascending=[False, True]).head(n).reset_index(
        drop=True)


def hosts_above_median(per_host, symbol, event=None):
    """Hosts whose share of period in `symbol` is above the fleet's median share: host,
    share, median, sorted by share."""
    c = per_host if event is None else per_host[per_host["event"] == event]
    total = c.groupby("host")["period"].sum()
    mine = c[c["symbol"] == symbol].groupby("host")["period"].sum()
    share = (mine.reindex(total.index, fill_value=0) / total).rename("share")
    median = share.median()
    out = share[share > median].sort_values(ascending=False).reset_index()
    out["median"] = median
    return out


def _folded_counts(path, host, open_kw, data=None):
    """({stack: count}, None) of one file's collapsed export, or ({}, error row)."""
    try:
        text = _open(path, open_kw, data).collapsed()
    except readperf.ReadError as e:
        return {}, _error_row(path, host, e)
    counts = {}
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        counts[stack] = counts.get(stack, 0) + int(count)
    return counts, None


def _sum_folded(a, b):
    """Two (counts, [errors]) summed."""
    counts = dict(a[0])
    for stack, n in b[0].items():
        counts[stack] = counts.get(stack, 0) + n
    return counts, a[1] + b[1]


def _file_folded(path, host, open_kw, data=None):
    counts, err = _folded_counts(path, host, open_kw, data)
    return counts, [err] if err is not None else []


def _error_row(path, host, e):
    offset = getattr(e, "offset", None)
    return {"path": os.fspath(path), "host": host, "offset": offset, "message": str(e)}


def _file_pprof(path, host, open_kw, data=None):
    """(bare profile.proto of one file or None, [its path and host], [error rows])."""
    try:
        profile = _open(path, open_kw, data).pprof(gzip=False)
    except readperf.ReadError as e:
        return None, [], [_error_row(path, host, e)]
    return profile, [(os.fspath(path), host)], []


def _merge_pprofs(a, b):
    """Two (profile, files, errors) merged. A side that cannot be added (a profile of another
    tool that does not decode) becomes error rows of its files."""
    if a[0] is None or b[0] is None:
        kept = a if b[0] is None else b
        return kept[0], kept[1], a[2] + b[2]
    try:
        merged = readperf.merge_pprof([a[0], b[0]], gzip=False)
    except ValueError as e:
        message = "not merged: %s" % (str(e).replace("profile 1: ", "", 1),)
        rows = [{"path": p, "host": h, "offset": None, "message": message} for p, h in b[1]]
        return a[0], a[1], a[2] + b[2] + rows
    return merged, a[1] + b[1], a[2] + b[2]


def _tree(level, combine):
    """The delayed values of `level` combined pairwise, as a tree (on the workers)."""
    import dask
    while len(level) > 1:
        level = [dask.delayed(combine)(level[i], level[i + 1]) if i + 1 < len(level)
                 else level[i] for i in range(0, len(level), 2)]
    return level[0]


def merge(paths, hosts=None, client=None, format="collapsed", ship=False, **open_kw):  # pylint: disable=redefined-builtin
    """One profile of many recordings, merged pairwise on the workers (only the merged profile
    comes back). MergedProfile(profile, errors), errors one row per file left out (path, host,
    offset, message): one that could not be read.
    - format="collapsed": each file's `readperf export --format collapsed`
      (Recording.collapsed()), the stacks' counts summed; `profile` the folded stacks, sorted
      as the export sorts them, for flamegraph.pl or speedscope.
    - format="pprof": each file's `readperf export --format pprof` (Recording.pprof()),
      merged as `pprof -proto` merges (readperf.merge_pprof()); `profile` the gzipped
      profile.proto bytes, for `pprof` and profile viewers (b"" without any readable file).
    ship=True (with `client`): the files' bytes are sent to the workers.
    """
    import dask
    if format not in ("collapsed", "pprof"):
        raise ValueError("merge: format %r is not supported ('collapsed' or 'pprof')" % (format,))
    paths, hosts = _hosts(paths, hosts)
    pprof = format == "pprof"
    one = _file_pprof if pprof else _file_folded
    level = [dask.delayed(one, pure=False)(p, h, open_kw, d)
             for p, h, d in zip(paths, hosts, _shipped(paths, client, ship))]
    if not level:
        return MergedProfile(b"" if pprof else "", pd.DataFrame([], columns=ERROR_COLUMNS))
    top = _tree(level, _merge_pprofs if pprof else _sum_folded)
    result = client.compute(top).result() if client is not None else top.compute()
    if pprof:
        profile, _, errors = result
        # The one gzip at the end: the workers pass bare protobuf between them.
        profile = readperf.merge_pprof([profile]) if profile is not None else b""
        return MergedProfile(profile, pd.DataFrame(errors, columns=ERROR_COLUMNS))
    counts, errors = result
    # stackcollapse-perf.pl's order: the stacks sorted as byte strings.
    stacks = sorted(counts, key=lambda st: st.encode("utf-8", "surrogateescape"))
    profile = "".join("%s %d\n" % (st, counts[st]) for st in stacks)
    return MergedProfile(profile, pd.DataFrame(errors, columns=ERROR_COLUMNS))
