"""The readperf Python package on the golden recordings, against what perf 6.1 printed for
them (tests/golden/<case>/expected/*.txt.gz). Run by ctest (python/readperf) with
PYTHONPATH=build/python and READPERF_GOLDEN=tests/golden."""

import collections
import gzip
import os
import re
import subprocess

import numpy as np
import pandas as pd
import pytest

import readperf
from damage import damaged_copy

GOLDEN = os.environ.get("READPERF_GOLDEN",
                        os.path.join(os.path.dirname(__file__), "..", "golden"))
BUILDID = os.path.join(GOLDEN, "buildid")
READPERF = os.environ.get("READPERF") or os.path.join(
    os.path.dirname(__file__), "..", "..", "build", "readperf")


def golden(case, kind):
    with gzip.open(os.path.join(GOLDEN, case, "expected", kind + ".txt.gz"), "rt",
                   errors="surrogateescape") as f:
        return f.read()


def recording(case):
    path = os.path.join(GOLDEN, case, "perf.data")
    return path if os.path.exists(path) else path + ".pipe"


def open_case(case, **kw):
    return readperf.open(recording(case), buildid_dir=BUILDID, **kw)


def test_header_is_perfs():
    rec = open_case("spin-fp")
    text = golden("spin-fp", "header")
    want = dict(re.findall(r"^# (hostname|os release|perf version|arch) : (.*)$", text, re.M))
    assert rec.header["hostname"] == want["hostname"]
    assert rec.header["os_release"] == want["os release"]
    assert rec.header["version"] == want["perf version"]
    assert rec.header["arch"] == want["arch"]
    assert rec.header["data_size"] == int(re.search(r"# data size\s+: (\d+)", text).group(1))
    assert rec.header["container"] == "file"
    assert isinstance(rec.header["features"], list) and rec.header["features"]


def test_samples_match_report_totals():
    rec = open_case("spin-fp")
    report = golden("spin-fp", "report")
    n = int(re.search(r"# Samples: (\d+)", report).group(1))
    total = int(re.search(r"# Event count \(approx.\): (\d+)", report).group(1))
    event = re.search(r"of event '([^']+)'", report).group(1)
    df = rec.samples()
    assert len(rec) == n == len(df)
    assert int(df["period"].sum()) == total
    assert [e["name"] for e in rec.events] == [event]
    assert set(df["event"].astype(str)) == {event}
    # Numeric columns are numpy dtypes, names categoricals: no Python object per row.
    assert df["time"].dtype == np.uint64 and df["pid"].dtype == np.int32
    assert isinstance(df["symbol"].dtype, pd.CategoricalDtype)


def test_function_costs_are_reports_entries():
    # report --no-children --sort comm,dso,sym: "    98.93%  spin     spin   [.] leaf"
    rec = open_case("spin-fp")
    report = golden("spin-fp", "report")
    want = {}
    for pct, comm, dso, sym in re.findall(
            r"^\s+(\d+\.\d+)%\s+(\S+)\s+(\S+)\s+\[.\] (.+?)\s*$", report, re.M):
        want[(comm, dso, sym)] = pct
    assert want
    costs = rec.function_costs()
    total = costs["period"].sum()
    got = {}
    for row in costs.itertuples():
        got[(row.comm, row.dso, row.symbol)] = "%.2f" % (100.0 * row.period / total)
    assert got == want


REPORT_LINE = re.compile(
    r"^\s+\d+\.\d+%\s+(\d+)\s+(\d+)\s+(.*?)\s{2,}(.*?)\s{2,}\[.\] (.*?)\s*$")


def readperf_report(path):
    """readperf report --no-children's entries: {(event, comm, dso, symbol): (period, samples)}."""
    out = subprocess.run(
        [READPERF, "--buildid-dir", BUILDID, "report", "-i", path, "--stdio", "--no-children",
         "--sort", "comm,dso,sym", "-F", "overhead,period,sample,comm,dso,sym", "-g", "none"],
        check=True, capture_output=True, text=True, errors="surrogateescape",
        env=dict(os.environ, DEBUGINFOD_URLS="")).stdout
    entries, event = collections.Counter(), None
    for line in out.splitlines():
        m = re.match(r"# Samples: \S+\s+of event '(.*)'$", line)
        if m:
            event = m.group(1)
            continue
        m = REPORT_LINE.match(line)
        if m:
            key = (event, m.group(3), m.group(4), m.group(5))
            entries[key + ("period",)] += int(m.group(1))
            entries[key + ("samples",)] += int(m.group(2))
    return entries


# Files, pipes, directories, DWARF and inline frames, kernel modules, addresses without a
# symbol, several events, tracepoints.
REPORT_CASES = ["spin-fp", "default", "dwarf-cxx", "dwarf-absent", "pipe", "threads-dir", "zstd",
                "plt-sec", "raw-3.4", "sideband", "tracepoint", "tracepoint-only",
                "piped.header_features-4.16"]


@pytest.mark.parametrize("case", REPORT_CASES)
def test_function_costs_are_readperf_reports(case):
    want = readperf_report(recording(case))
    assert want
    got = collections.Counter()
    for row in open_case(case).function_costs().itertuples():
        key = (row.event, row.comm, row.dso, row.symbol)
        got[key + ("period",)] += int(row.period)
        got[key + ("samples",)] += int(row.samples)
    assert got == want


def script_samples(case):
    """perf script's samples: (comm, tid, period, [frame lines])."""
    out = []
    for block in golden(case, "script").split("\n\n"):
        lines = [l for l in block.split("\n") if l]
        if not lines:
            continue
        head = lines[0].split()
        out.append((head[0], int(head[1]), int(head[3]),
                    [l.strip() for l in lines[1:]]))
    return out


def test_stacks_and_frames_are_perf_scripts():
    rec = open_case("spin-fp")
    df = rec.samples()
    frames = rec.frames()
    want = script_samples("spin-fp")
    assert len(want) == len(df)
    for i, (comm, tid, period, chain) in enumerate(want):
        assert df["comm"].iloc[i] == comm
        assert df["tid"].iloc[i] == tid
        assert df["period"].iloc[i] == period
        got = []
        for fid in rec.stack(df["stack_id"].iloc[i]):
            f = frames.loc[fid]
            addr = f.rel_address if f.user_dso else f.address
            sym = f.symbol + ("+0x%x" % f.offset if f.has_symbol else "")
            got.append("%x %s (%s)" % (addr, sym, f.dso))
        assert got == chain, i
        # The sample's own symbol is its stack's leaf.
        assert df["symbol"].iloc[i] == chain[0].split(" ")[1].split("+0x")[0]


def test_stacks_are_shared():
    rec = open_case("spin-fp")
    stacks = rec.stacks()
    depth = sum(len(rec.stack(s)) for s in rec.samples()["stack_id"])
    assert depth > 2000
    assert len(stacks) < 100
    assert (stacks["parent"] < stacks.index).all()  # callers come first
    assert rec.bytes_per_sample() <= 48


def test_sample_columns_are_views():
    rec = open_case("spin-fp")
    cols = rec.sample_columns()
    assert not cols["period"].flags.writeable
    assert cols["period"].base is not None
    again = rec.sample_columns()
    assert np.shares_memory(cols["time"], again["time"])


def test_lines_and_inline_frames():
    rec = open_case("dwarf-cxx", lines=True, srclines=True)
    frames = rec.frames()
    assert frames["inlined"].any()
    assert ((frames["file"] != "") & (frames["line"] > 0)).any()
    assert (frames["srcline"] != "").any()


def test_damaged_file_raises_with_offset(tmp_path):
    path = str(tmp_path / "damaged.data")
    at = damaged_copy(GOLDEN, path)
    whole = len(open_case("dwarf-cxx"))
    with pytest.raises(readperf.ReadError) as err:
        readperf.open(path, buildid_dir=BUILDID)
    assert err.value.offset == at
    assert hex(at) in str(err.value)
    assert 0 < len(err.value.recording) < whole
    rec = readperf.open(path, buildid_dir=BUILDID, partial=True)
    assert rec.errors[-1]["offset"] == at
    assert len(rec.samples()) == len(err.value.recording)


def test_not_a_recording(tmp_path):
    path = tmp_path / "not.data"
    path.write_bytes(b"hello, this is not perf data at all" * 10)
    with pytest.raises(readperf.ReadError) as err:
        readperf.open(str(path))
    assert err.value.recording is None
    with pytest.raises(readperf.ReadError):
        readperf.open(str(tmp_path / "missing.data"))


def test_pipe_and_directory_recordings():
    for case, container in (("pipe", "pipe"), ("threads-dir", "directory")):
        rec = open_case(case)
        assert rec.header["container"] == container
        total = sum(period for _, _, period, _ in script_samples(case))
        assert int(rec.samples()["period"].sum()) == total, case


def report_entries(path, sort, children):
    """The entry lines of `readperf report --stdio -n --show-total-period --no-group` (call
    graphs included, as perf prints by default; they are not entry lines): [(event, percents,
    samples, period, [key texts])], in the report's order."""
    out = subprocess.run(
        [READPERF, "--buildid-dir", BUILDID, "report", "-i", path, "--stdio", "-n",
         "--show-total-period", "--no-group", "--sort", sort,
         "--children" if children else "--no-children"],
        check=True, capture_output=True, text=True, errors="surrogateescape",
        env=dict(os.environ, DEBUGINFOD_URLS="")).stdout
    nkeys = len(sort.split(","))
    entries, event, npct, line_re = [], None, 1, None
    for line in out.splitlines():
        if line.startswith("# ") and line.split()[1] in ("Children", "Overhead"):
            # Without call chains `--children` shows one column: children are self.
            npct = 2 if line.split()[1] == "Children" else 1
            line_re = re.compile(r"^ +" + r"(\d+\.\d+)%\s+" * npct + r"(\d+)\s+(\d+)\s+(\S.*)$")
            continue
        m = re.match(r"# Samples: \S+\s+of events? '(.*)'$", line)
        if m:
            event = m.group(1)
            continue
        m = line_re.match(line) if line_re else None
        if m:
            keys = re.split(r"\s{2,}", m.group(npct + 3).rstrip(), maxsplit=nkeys - 1)
            pcts = tuple(m.groups()[:npct])
            if children and npct == 1:
                pcts = pcts * 2
            entries.append((event, pcts, int(m.group(npct + 1)),
                            int(m.group(npct + 2)), keys))
    return entries


def report_rows(rec, sort, children):
    """Recording.report() in report_entries()'s terms: the symbol with its "[level] "."""
    df = rec.report(sort=sort, children=children)
    rows = []
    for row in df.to_dict("records"):
        pcts = ("children", "self") if children else ("overhead",)
        keys = []
        for key in sort.split(","):
            name = {"sym": "symbol"}.get(key, key)
            value = row[name]
            keys.append("[%s] %s" % (row["level"], value) if name == "symbol" else value)
        rows.append((row["event"], tuple("%.2f" % row[p] for p in pcts), row["samples"],
                     row["period"], keys))
    return rows


# Call chains (frame pointers, DWARF, inline frames), pipes, directories, kernel modules,
# several events, a group, tracepoints, files from older and newer perfs.
REPORT_TABLE_CASES = ["spin-fp", "default", "dwarf-cxx", "dwarf-absent", "pipe", "threads-dir",
                      "plt-sec", "group-sw", "tracepoint", "piped.header_features-4.16",
                      "cxx-perf72"]


@pytest.mark.parametrize("case", REPORT_TABLE_CASES)
@pytest.mark.parametrize("children", [False, True])
def test_report_is_the_text_report(case, children):
    want = report_entries(recording(case), "comm,dso,sym", children)
    assert want
    got = report_rows(open_case(case), "comm,dso,sym", children)
    assert got == want


@pytest.mark.parametrize("sort", ["pid,sym", "dso", "cpu,comm", "srcline"])
def test_report_other_sort_keys(sort):
    want = report_entries(recording("dwarf-cxx"), sort, False)
    assert want
    assert report_rows(open_case("dwarf-cxx"), sort, False) == want


def test_kernel_symbols_from_a_vmlinux():
    """vmlinux= is perf's -k: the kernel's symbols from that file alone (golden/vmlinux's
    debug-package-style vmlinux of threads-dir's kernel, with a section of its own)."""
    path = recording("threads-dir")

    def kernel_rows(**kw):
        costs = readperf.open(path, buildid_dir=BUILDID, **kw).function_costs()
        return costs[costs.dso.str.startswith("[kernel.kallsyms]")]

    vmlinux = os.path.join(GOLDEN, "vmlinux", "vmlinux")
    rows = kernel_rows(vmlinux=vmlinux)
    assert "clear_page_erms" in set(rows.symbol)
    assert "[kernel.kallsyms].sched.text" in set(rows.dso)
    # Another kernel's vmlinux is refused, and with it all kernel symbols.
    other = kernel_rows(vmlinux=os.path.join(GOLDEN, "vmlinux", "vmlinux-other"))
    assert "clear_page_erms" not in set(other.symbol)
    # Without it, the build-id cache's kallsyms: no section maps.
    assert "[kernel.kallsyms].sched.text" not in set(kernel_rows().dso)


def test_report_columns_and_totals():
    rec = open_case("spin-fp")
    df = rec.report(children=True)
    assert list(df.columns) == ["event", "children", "self", "period", "samples",
                                "children_period", "comm", "dso", "level", "symbol"]
    # Self periods add up to the event's total, children cover the callers.
    assert int(df["period"].sum()) == int(rec.samples()["period"].sum())
    assert (df["children_period"] >= df["period"]).all()
    assert (df["children_period"] > df["period"]).any()
    with pytest.raises(ValueError, match="nosuchkey"):
        rec.report(sort="comm,nosuchkey")


def symbol_options(case):
    """The case's `symbol-options` (tests/golden/README.md): the CLI's arguments and open()'s
    keywords, paths made absolute. Cases whose binaries are at no build-id read them there,
    never from this machine's files."""
    path = os.path.join(GOLDEN, case, "symbol-options")
    if not os.path.exists(path):
        return [], {}
    with open(path) as f:
        words = re.sub(r"#.*", "", f.read()).split()
    args, kw = [], {}
    for name, value in zip(words[::2], words[1::2]):
        value = os.path.join(GOLDEN, case, value)
        args += [name, value]
        kw[name[2:]] = value
    return args, kw


def readperf_export(path, fmt, *args, output=None):
    """`readperf export --format FMT` of `path`: its standard output's bytes, or with
    `output`, written there."""
    cmd = [READPERF, "--buildid-dir", BUILDID, "export", "--format", fmt, "-i", path]
    cmd += list(args) + (["-o", output] if output else [])
    run = subprocess.run(cmd, capture_output=True, env=dict(os.environ, DEBUGINFOD_URLS=""))
    return run.stdout


# Recordings with call chains (without, the collapsed export is empty).
EXPORT_CASES = ["spin-fp", "dwarf-cxx", "pipe", "threads-dir", "plt-sec", "group-sw",
                "dwarf-absent", "cxx-perf72"]


@pytest.mark.parametrize("case", EXPORT_CASES)
def test_collapsed_is_the_export(case):
    want = readperf_export(recording(case), "collapsed")
    assert want.count(b"\n") > 0
    got = open_case(case).collapsed()
    assert isinstance(got, str)
    assert got.encode("utf-8", "surrogateescape") == want


@pytest.mark.parametrize("options", [("--include-pid", "--kernel"),
                                     ("--include-tid", "--addrs", "--count"),
                                     ("--event", "cpu-clock")])
def test_collapsed_options(options):
    want = readperf_export(recording("group-sw"), "collapsed", *options)
    assert want
    kw = {}
    for i, opt in enumerate(options):
        if opt == "--event":
            kw["event"] = options[i + 1]
        elif opt.startswith("--"):
            kw[opt[2:].removeprefix("include-")] = True
    rec = open_case("group-sw")
    assert rec.collapsed(**kw).encode("utf-8", "surrogateescape") == want
    assert rec.collapsed(**kw) != rec.collapsed()


@pytest.mark.parametrize("case", ["spin-fp", "dwarf-cxx", "pipe", "group-sw"])
def test_pprof_is_the_export(case, tmp_path):
    want = str(tmp_path / "cli.pb.gz")
    args, kw = symbol_options(case)
    readperf_export(recording(case), "pprof", *args, output=want)
    got = str(tmp_path / "py.pb.gz")
    rec = open_case(case, **kw)
    rec.to_pprof(got)
    want_bytes = open(want, "rb").read()
    assert open(got, "rb").read() == want_bytes
    # The bare protobuf is what the gzip holds; and it names the recording's functions.
    rec.to_pprof(tmp_path / "py.pb", gzip=False)
    raw = (tmp_path / "py.pb").read_bytes()
    assert raw == gzip.decompress(want_bytes)
    leaf = rec.function_costs()["symbol"].iloc[0]
    assert leaf.encode("utf-8", "surrogateescape") in raw


def sqlite_dump(path):
    import sqlite3
    con = sqlite3.connect(path)
    try:
        return list(con.iterdump())
    finally:
        con.close()


@pytest.mark.parametrize("case", ["spin-fp", "dwarf-cxx", "pipe"])
def test_sqlite_is_the_export(case, tmp_path):
    want = str(tmp_path / "cli.db")
    readperf_export(recording(case), "sqlite", output=want)
    got = tmp_path / "py.db"
    got.write_bytes(b"an older file, replaced")
    rec = open_case(case)
    rec.to_sqlite(got)
    dump = sqlite_dump(str(got))
    assert dump == sqlite_dump(want)
    import sqlite3
    con = sqlite3.connect(str(got))
    (n,) = con.execute("select count(*) from samples").fetchone()
    con.close()
    assert n == len(rec)


def test_exports_of_a_damaged_recording(tmp_path):
    # What precedes the damage, as the CLI writes it before its error.
    path = str(tmp_path / "damaged.data")
    damaged_copy(GOLDEN, path)
    rec = readperf.open(path, buildid_dir=BUILDID, partial=True)
    want = readperf_export(path, "collapsed")
    assert want
    assert rec.collapsed().encode("utf-8", "surrogateescape") == want
    whole = open_case("dwarf-cxx").collapsed()
    assert len(rec.collapsed()) < len(whole)
    # Opened whole, then damaged: the export raises with the damage's offset.
    copy = str(tmp_path / "later.data")
    import shutil
    shutil.copy(recording("dwarf-cxx"), copy)
    rec = readperf.open(copy, buildid_dir=BUILDID)
    at = damaged_copy(GOLDEN, copy)
    with pytest.raises(readperf.ReadError) as err:
        rec.collapsed()
    assert err.value.offset == at
    with pytest.raises(readperf.ReadError):
        rec.to_pprof(tmp_path / "p.pb.gz")


@pytest.mark.parametrize("case", ["spin-fp", "dwarf-cxx", "pipe", "group-sw", "zstd"])
def test_pprof_bytes_and_a_merge_of_one(case, tmp_path):
    want = str(tmp_path / "cli.pb.gz")
    args, kw = symbol_options(case)
    readperf_export(recording(case), "pprof", *args, output=want)
    rec = open_case(case, **kw)
    bare = rec.pprof(gzip=False)
    assert bare == gzip.decompress(open(want, "rb").read())
    # Merged alone, a profile is built again into the same bytes.
    assert readperf.merge_pprof([bare], gzip=False) == bare
    assert gzip.decompress(readperf.merge_pprof([rec.pprof()])) == bare


def test_merge_pprof_sums_equal_samples_and_unites_sample_types():
    import pprof_decode
    a = open_case("spin-fp").pprof()
    b = open_case("default").pprof(gzip=False)
    c = open_case("group-sw").pprof()
    (ta, na), (tb, nb), (tc, nc) = (pprof_decode.totals(p) for p in (a, b, c))
    merged, names = pprof_decode.totals(readperf.merge_pprof([a, b, c, a]))
    assert merged == pprof_decode.add(pprof_decode.add(pprof_decode.add(ta, tb), tc), ta)
    # The first profile's types, then each new one in the order seen.
    want = list(na)
    for n in nb + nc:
        if n not in want:
            want.append(n)
    assert names == want and len(set(na + nb + nc)) > len(na)
    # The same samples twice: each value doubled, no sample added.
    twice, _ = pprof_decode.totals(readperf.merge_pprof([a, a]))
    assert twice.keys() == ta.keys()
    assert all(twice[k] == {n: 2 * v for n, v in ta[k].items()} for k in ta)


def test_merge_pprof_names_the_profile_it_cannot_take(tmp_path):
    good = open_case("spin-fp").pprof(gzip=False)
    with pytest.raises(ValueError, match="^profile 1: "):
        readperf.merge_pprof([good, good[: len(good) // 2]])
    with pytest.raises(ValueError, match="^profile 0: offset 0x28: gzip: cut short"):
        readperf.merge_pprof([gzip.compress(good)[:40], good])
    unsymbolized = str(tmp_path / "u.pb.gz")
    readperf_export(recording("spin-fp"), "pprof", "--no-symbolize", output=unsymbolized)
    with pytest.raises(ValueError, match="^profile 2: an unsymbolized profile"):
        readperf.merge_pprof([good, good, open(unsymbolized, "rb").read()])
    # Nothing to merge: a profile without samples.
    import pprof_decode
    assert pprof_decode.totals(readperf.merge_pprof([])) == ({}, [])


def test_open_bytes_reads_a_recording_held_in_memory(tmp_path):
    path = recording("spin-fp")
    data = open(path, "rb").read()
    rec = readperf.open_bytes(data, name="shipped/spin-fp", buildid_dir=BUILDID)
    want = readperf.open(path, buildid_dir=BUILDID)
    pd.testing.assert_frame_equal(rec.samples(), want.samples())
    assert rec.path == "shipped/spin-fp" and "shipped/spin-fp" in repr(rec)
    # What reads the file again (the exports, records()) reads the same bytes.
    assert rec.collapsed() == want.collapsed()
    assert rec.pprof() == want.pprof()
    assert sum(1 for _ in rec.records(types="SAMPLE")) == len(want)
    # Damage: ReadError names the recording by `name`, with the offset.
    bad = str(tmp_path / "bad.data")
    at = damaged_copy(GOLDEN, bad)
    with pytest.raises(readperf.ReadError) as err:
        readperf.open_bytes(open(bad, "rb").read(), name="shipped/bad")
    assert err.value.path == "shipped/bad" and err.value.offset == at
    assert "/proc/self/fd" not in str(err.value)
    partial = readperf.open_bytes(memoryview(open(bad, "rb").read()), partial=True)
    assert partial.errors and len(partial) > 0


def test_export_to_a_bad_path(tmp_path):
    rec = open_case("spin-fp")
    with pytest.raises(OSError, match="cannot create"):
        rec.to_pprof(tmp_path / "no" / "such" / "dir.pb.gz")


def stub_signatures(module):
    """{name: [parameter names]} of the functions and methods of `module`'s .pyi stub (methods
    as "Class.name"), and {class: [attribute names]}."""
    import ast
    path = os.path.splitext(module.__file__)[0] + ".pyi"
    tree = ast.parse(open(path).read())
    funcs, attrs = {}, {}

    def params(f):
        a = f.args
        names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
        return names + (["**" + a.kwarg.arg] if a.kwarg else [])

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            funcs[node.name] = params(node)
        elif isinstance(node, ast.ClassDef):
            attrs[node.name] = []
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    funcs[node.name + "." + item.name] = params(item)
                elif isinstance(item, ast.AnnAssign):
                    attrs[node.name].append(item.target.id)
    return funcs, attrs


def code_signature(f):
    import inspect
    return [("**" + p.name) if p.kind == p.VAR_KEYWORD else p.name
            for p in inspect.signature(f).parameters.values()]


@pytest.mark.parametrize("module", ["readperf", "readperf.dask"])
def test_type_stubs_are_the_code(module):
    import importlib
    mod = importlib.import_module(module)
    funcs, attrs = stub_signatures(mod)
    assert os.path.exists(os.path.join(os.path.dirname(mod.__file__), "py.typed"))
    # Every public function and method has its stub, with the same parameters.
    want = {}
    for name in mod.__all__:
        obj = getattr(mod, name)
        if callable(obj) and not isinstance(obj, type):
            want[name] = code_signature(obj)
    if module == "readperf":
        for name, member in vars(readperf.Recording).items():
            if name.startswith("_") and name not in ("__len__",):
                continue
            if isinstance(member, property):
                assert name in attrs["Recording"] or "Recording." + name in funcs, name
            elif callable(member):
                want["Recording." + name] = code_signature(member)
        want["ReadError.__init__"] = code_signature(readperf.ReadError.__init__)
        rec = open_case("spin-fp")
        public = {k for k in vars(rec) if not k.startswith("_")}
        assert public == set(attrs["Recording"])
        assert set(vars(readperf.ReadError("m", "p", 1, "w", None))) - {"args"} == \
            set(attrs["ReadError"])
    got = {k: v for k, v in funcs.items() if k in want}
    assert got == want
    assert set(want) <= set(funcs)


@pytest.mark.parametrize("case,kw,cli", [
    ("tracepoint", {"comms": "perf,workload"}, ["--comms", "perf,workload"]),
    ("tracepoint", {"cpu": "1"}, ["-C", "1"]),
    ("tracepoint", {"time": "10%-40%"}, ["--time", "10%-40%"]),
    ("tracepoint", {"comms": ["perf"], "cpu": "0"}, ["--comms", "perf", "-C", "0"]),
    ("default", {"dsos": ["[kernel.kallsyms]"]}, ["--dsos", "[kernel.kallsyms]"]),
    ("spin-fp", {"symbols": "leaf,recurse"}, ["-S", "leaf,recurse"]),
    ("sideband", {"pids": [3055]}, ["--pid", "3055"]),
    ("sideband", {"tids": "3064"}, ["--tid", "3064"]),
])
def test_filters_are_scripts(case, kw, cli):
    # open()'s filters keep the samples perf's filters of the same names keep: those
    # `readperf script` prints with them (checked against perf 6.1 by the options matrix).
    out = subprocess.run([READPERF, "--buildid-dir", BUILDID, "script", "-F", "tid,period",
                          "-i", recording(case)] + cli, check=True, capture_output=True).stdout
    want = [line.split() for line in out.decode().splitlines()]
    df = open_case(case, **kw).samples()
    assert len(want) > 0
    assert len(df) == len(want) < len(open_case(case).samples())
    assert int(df["period"].sum()) == sum(int(p) for _, p in want)
    assert sorted(df["tid"].tolist()) == sorted(int(t) for t, _ in want)


def test_bad_filters_raise_perfs_message():
    with pytest.raises(ValueError, match="Invalid time string"):
        open_case("spin-fp", time="garbage")
    with pytest.raises(ValueError, match="does not contain CPU events"):
        open_case("default", cpu="0")
