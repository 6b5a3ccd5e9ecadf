"""Recording.records() on the golden recordings, against what perf 6.1 printed for them
(tests/golden/<case>/expected/*.txt.gz: script, data convert --to-json, report --stats,
report -D). Run by ctest (python/records) with PYTHONPATH=build/python and
READPERF_GOLDEN=tests/golden."""

import collections
import gc
import json
import os
import re

import pytest

import readperf
from damage import damaged_copy
from test_readperf import BUILDID, GOLDEN, golden, recording, symbol_options


SCRIPT_HEAD = re.compile(r"^\s*(?P<comm>.+?)\s+(?P<tid>-?\d+)(?:\s+\[(?P<cpu>\d+)\])?\s+"
                         r"(?P<time>\d+\.\d{6}):\s+(?:(?P<period>\d+)\s+)?(?P<event>\S+):"
                         r"\s*(?P<trace>.*)$")


def perf_script(case):
    """perf script's samples as dicts: comm, tid, cpu, time, period, event, trace (the
    tracepoint's formatted fields), chain (the call-chain lines: "addr sym+off (dso)")."""
    out = []
    for block in golden(case, "script").split("\n\n"):
        lines = [l for l in block.split("\n") if l]
        for line in lines:
            m = SCRIPT_HEAD.match(line)
            if not m:
                out[-1]["chain"].append(line.strip())
                continue
            out.append(dict(m.groupdict(), chain=[]))
    return out


def open_case(case, **kw):
    """The case opened as the golden runner reads it: with its symbol-options (cases whose
    binaries are at no build-id read them from the case's folder, never from this machine)."""
    return readperf.open(recording(case), buildid_dir=BUILDID, **{**symbol_options(case)[1], **kw})


def perf_json(case):
    """perf data convert --to-json's samples."""
    return json.loads(golden(case, "json"))["samples"]


def script_time(t):
    """perf script's time: seconds and microseconds, truncated."""
    return "%d.%06d" % (t // 10**9, t % 10**9 // 1000)


def chain_text(frame):
    """A call-chain entry as perf script prints it, less the address: "sym+0xoff (dso)"."""
    if "sym" in frame:
        sym = "%s+0x%x" % (frame["sym"]["name"], frame["sym_off"])
    else:
        sym = "[unknown]"
    return "%s (%s)" % (sym, frame.get("dso", "[unknown]"))


def script_chain(lines):
    """perf script's call-chain lines less their addresses. An inline frame's dso, which perf
    prints "(inlined)", is the dso of the frame it was inlined into."""
    out = [line.split(" ", 1)[1] for line in lines]
    for i in reversed(range(len(out) - 1)):
        if out[i].endswith(" (inlined)"):
            out[i] = out[i][:-len("(inlined)")] + out[i + 1].rsplit(" ", 1)[1]
    return out


@pytest.mark.parametrize("case", ["spin-fp", "sideband", "tracepoint", "dwarf-cxx"])
def test_samples_are_perf_scripts(case):
    want = perf_script(case)
    got = [ev for ev in open_case(case).records() if ev.type == "SAMPLE"]
    assert len(got) == len(want) > 0
    for i, (ev, w) in enumerate(zip(got, want)):
        assert (ev.comm, ev.tid, script_time(ev.time), ev.event) == (
            w["comm"], int(w["tid"]), w["time"], w["event"]), i
        if w["cpu"] is not None:
            assert ev.cpu == int(w["cpu"]), i
        if w["period"] is not None:
            assert ev.period == int(w["period"]), i
        if w["chain"]:
            assert [chain_text(f) for f in ev.callchain] == script_chain(w["chain"]), i
        if ev.callchain:
            # The sample's own address is its chain's leaf, its symbol that address's (the
            # frames before it with the same address are the functions inlined there).
            leaf = ev.callchain[0]
            assert ev.ip == leaf["ip"]
            own = [f for f in ev.callchain if f["ip"] == ev.ip][-1]
            assert ev.symbol == own.get("sym", {}).get("name")
            assert ev.dso == own.get("dso")
            assert ev.symoff == own.get("sym_off")


@pytest.mark.parametrize("case", ["spin-fp", "tracepoint", "zstd"])
def test_samples_are_perfs_json(case):
    """pid, cpu, the exact time and the call chain's addresses, symbols and dsos as perf data
    convert --to-json gives them (the sample's own address without a call chain)."""
    want = perf_json(case)
    got = list(open_case(case).records("SAMPLE"))
    assert len(got) == len(want) > 0
    for i, (ev, w) in enumerate(zip(got, want)):
        assert (ev.time, ev.pid, ev.tid, ev.comm) == (
            w["timestamp"], w["pid"], w["tid"], w["comm"]), i
        assert ev.cpu == w.get("cpu", ev.cpu), i
        frames = [(f["ip"], f.get("sym", {}).get("name"), f.get("dso")) for f in ev.callchain]
        chain = [{k: v for k, v in (("ip", "%#x" % ip), ("symbol", sym),
                                     ("dso", dso and os.path.basename(dso))) if v is not None}
                 for ip, sym, dso in frames or [(ev.ip, ev.symbol, ev.dso)]]
        assert chain == w["callchain"], i


def test_tracepoint_fields_are_perfs():
    """A tracepoint sample's fields decoded from its raw data: every field perf script's
    trace text prints as a number or a string has that value."""
    want = perf_script("tracepoint")
    got = list(open_case("tracepoint").records("SAMPLE"))
    assert len(got) == len(want) > 0
    checked = collections.Counter()
    for i, (ev, w) in enumerate(zip(got, want)):
        f = ev.fields
        assert f["common_pid"] == ev.tid or ev.tid == -1, i
        assert f["common_type"] > 0, i
        for key, text in re.findall(r"(\w+)=(\S+)", w["trace"]):
            if key not in f:
                continue
            value = f[key]
            if isinstance(value, str):
                assert value == text, (i, key)
            elif re.fullmatch(r"-?\d+", text):
                assert value == int(text), (i, key)
            else:
                continue  # printed symbolically (prev_state=S)
            checked[w["event"], key] += 1
    # Every event's fields were compared, strings and numbers.
    assert {e for e, _ in checked} == {"sched:sched_switch", "sched:sched_process_exec",
                                       "sched:sched_process_fork"}
    for key in ("prev_comm", "prev_pid", "prev_prio", "next_comm", "next_pid", "next_prio"):
        assert checked["sched:sched_switch", key] == 325
    assert checked["sched:sched_process_exec", "filename"] == 2
    assert checked["sched:sched_process_fork", "child_pid"] == 4
    # Other samples have none.
    ev = next(iter(open_case("spin-fp").records("SAMPLE")))
    assert ev.fields == {}


STATS_LINE = re.compile(r"^\s+(\w+) events:\s+(\d+)", re.M)


@pytest.mark.parametrize("case", ["spin-fp", "sideband", "tracepoint", "zstd", "pipe"])
def test_record_counts_are_perfs_stats(case):
    """Every kernel record comes once: the counts per type are report --stats' (the
    aggregated block: records of types below 64)."""
    text = golden(case, "stats").split("Aggregated stats:")[1]
    want = {}
    for name, n in STATS_LINE.findall(text.split(" stats:")[0]):
        t = readperf.RECORD_TYPES.get(name)
        if t is not None and t < 64:
            want[name] = want.get(name, 0) + int(n)
    assert want
    got = collections.Counter(ev.type for ev in open_case(case).records(callchains=False))
    assert dict(got) == want


def cx(v):
    """C's %#x: no prefix for 0."""
    return "%#x" % v if v else "0"


def dump_line(ev):
    """The line perf report -D prints for a side-band record (event.c perf_event__fprintf)."""
    f = ev.fields
    head = "%d %s [%s]: PERF_RECORD_" % (ev.time if ev.time != 2**64 - 1 else 0,
                                          cx(ev.file_offset), cx(len(ev.raw)))
    if ev.type == "COMM":
        return head + "COMM%s: %s:%d/%d" % (" exec" if f["exec"] else "", f["comm"], f["pid"],
                                             f["tid"])
    if ev.type in ("FORK", "EXIT"):
        return head + "%s(%d:%d):(%d:%d)" % (ev.type, f["pid"], f["tid"], f["ppid"], f["ptid"])
    if ev.type == "MMAP2":
        prot = "".join(c if f["prot"] & b else "-" for c, b in (("r", 1), ("w", 2), ("x", 4)))
        prot += "s" if f["flags"] & 1 else "p"
        return head + "MMAP2 %d/%d: [%s(%s) @ %s %02x:%02x %d %d]: %s %s" % (
            f["pid"], f["tid"], cx(f["start"]), cx(f["len"]), cx(f["pgoff"]), f["maj"], f["min"], f["ino"],
            f["ino_generation"], prot, f["filename"])
    return None


def test_side_band_fields_are_perfs_dump():
    rec = open_case("spin-fp")
    want = set(l for l in golden("spin-fp", "dump").splitlines()
               if re.search(r"PERF_RECORD_(COMM|FORK|EXIT|MMAP2)\b", l))
    got = set(dump_line(ev) for ev in rec.records(types=("COMM", "FORK", "EXIT", "MMAP2")))
    assert len(want) >= 7
    assert got == want


def test_filters():
    rec = open_case("sideband")
    every = list(rec.records(callchains=False))
    samples = list(rec.records(types="SAMPLE"))
    assert len(samples) == sum(ev.type == "SAMPLE" for ev in every)
    switches = list(rec.records(types=["SWITCH"]))
    assert [ev.time for ev in switches] == [ev.time for ev in every if ev.type == "SWITCH"]
    assert all("out" in ev.fields for ev in switches)
    assert not list(rec.records(types="SAMPLE", callchains=False))[0].callchain
    assert len(list(rec.records(events=rec.events[0]["name"]))) == len(every)
    with pytest.raises(ValueError):
        rec.records(types="NO_SUCH_TYPE")
    with pytest.raises(ValueError):
        rec.records(events="no-such-event")


def test_as_dict_is_perfs_param_dict():
    ev = next(iter(open_case("spin-fp").records("SAMPLE")))
    d = ev.as_dict()
    assert set(d) == {"ev_name", "sample", "raw_buf", "comm", "dso", "dso_map_start",
                      "dso_map_end", "symbol", "symoff", "callchain"}
    assert d["ev_name"] == ev.event and d["comm"] == ev.comm and d["symbol"] == ev.symbol
    assert set(d["sample"]) >= {"pid", "tid", "cpu", "ip", "time", "period", "addr", "weight"}
    assert d["sample"]["period"] == ev.period and d["callchain"] == ev.callchain


def test_records_outlive_their_iteration():
    rec = open_case("spin-fp")
    kept = list(rec.records("SAMPLE"))
    gc.collect()
    assert [ev.comm for ev in kept] == [w["comm"] for w in perf_script("spin-fp")]
    # An iteration abandoned halfway stops its reader.
    it = rec.records()
    first = next(it)
    it.close()
    assert list(it) == []
    del it
    assert first.type


def test_damage_raises_after_the_records_before_it(tmp_path):
    path = str(tmp_path / "damaged.data")
    at = damaged_copy(GOLDEN, path)
    rec = readperf.open(path, buildid_dir=BUILDID, partial=True)
    seen = 0
    with pytest.raises(readperf.ReadError) as err:
        for ev in readperf.Recording(rec._raw).records("SAMPLE"):
            seen += 1
    assert err.value.offset == at
    assert seen == len(rec)
    # With partial=True the iteration ends there.
    assert len(list(rec.records("SAMPLE"))) == len(rec)
    assert rec.errors[-1]["offset"] == at


@pytest.mark.parametrize("case", ["spin-fp", "tracepoint", "pipe", "threads-dir"])
def test_records_without_the_model(case):
    """readperf.records(path) (no profile model read first) gives rec.records()' records."""
    def key(ev):
        return (ev.type, ev.time, ev.pid, ev.tid, ev.cpu, ev.event, ev.comm, ev.dso, ev.symbol,
                ev.period, ev.raw, ev.fields, ev.callchain)
    rec = open_case(case)
    options = symbol_options(case)[1]
    want = [key(ev) for ev in rec.records()]
    got = [key(ev) for ev in readperf.records(recording(case), buildid_dir=BUILDID, **options)]
    assert got == want and len(got) > 0
    event = rec.events[-1]["name"]
    assert [key(ev) for ev in readperf.records(recording(case), buildid_dir=BUILDID,
                                               events=event, **options)] == \
        [key(ev) for ev in rec.records(events=event)]


def test_tracepoint_fields_table_is_perfs():
    """rec.tracepoint_fields(event): one row a sample of the tracepoint, its fields as numpy
    columns, equal to what perf script prints of each sample."""
    import numpy as np
    import pandas as pd
    rec = open_case("tracepoint")
    script = perf_script("tracepoint")
    # (event, {field: the name perf's print format gives it}, numeric fields, string fields)
    for event, printed, ints, strs in (
            ("sched:sched_switch", {}, ("prev_pid", "prev_prio", "next_pid", "next_prio"),
             ("prev_comm", "next_comm")),
            ("sched:sched_process_fork", {"parent_comm": "comm", "parent_pid": "pid"},
             ("parent_pid", "child_pid"), ("parent_comm", "child_comm")),
            ("sched:sched_process_exec", {}, ("pid", "old_pid"), ("filename",))):
        want = [w for w in script if w["event"] == event]
        df = rec.tracepoint_fields(event)
        assert len(df) == len(want) > 0
        assert list(df.columns[:9]) == ["common_time", "common_cpu", "common_tgid", "common_tid",
                                        "common_comm", "common_type", "common_flags",
                                        "common_preempt_count", "common_pid"]
        for k in ints:
            assert df[k].dtype == np.int64
        for k in strs:
            assert isinstance(df[k].dtype, pd.CategoricalDtype)
        for i, (row, w) in enumerate(zip(df.to_dict("records"), want)):
            assert (script_time(int(row["common_time"])), row["common_tid"], row["common_cpu"],
                    row["common_comm"]) == (w["time"], int(w["tid"]), int(w["cpu"]),
                                            w["comm"]), i
            trace = dict(re.findall(r"(\w+)=(\S+)", w["trace"]))
            assert [int(trace[printed.get(k, k)]) for k in ints] == [row[k] for k in ints], i
            assert [trace[printed.get(k, k)] for k in strs] == [row[k] for k in strs], i
        # The same values as records() gives.
        ev = next(e for e in rec.records("SAMPLE") if e.event == event)
        assert {k: v for k, v in df.iloc[0].items() if k in ev.fields} == ev.fields
    with pytest.raises(ValueError, match="not a tracepoint"):
        open_case("spin-fp").tracepoint_fields("cpu-clock:pppH")
    with pytest.raises(ValueError, match="no event"):
        rec.tracepoint_fields("sched:nothing")
