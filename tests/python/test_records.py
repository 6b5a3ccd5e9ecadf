"""Recording.records() on the golden recordings, against what perf 6.1 printed for them
(tests/golden/<case>/expected/*.txt.gz: script, report --stats, report -D). Run by ctest
(python/readperf) with PYTHONPATH=build/python and READPERF_GOLDEN=tests/golden."""

import collections
import gc
import re

import pytest

import readperf
from damage import damaged_copy
from test_readperf import BUILDID, GOLDEN, golden, open_case, script_samples


def chain_text(frame):
    """A call-chain entry as perf script prints it, less the address: "sym+0xoff (dso)"."""
    if "sym" in frame:
        sym = "%s+0x%x" % (frame["sym"]["name"], frame["sym_off"])
    else:
        sym = "[unknown]"
    return "%s (%s)" % (sym, frame.get("dso", "[unknown]"))


@pytest.mark.parametrize("case", ["spin-fp", "sideband"])
def test_samples_are_perf_scripts(case):
    want = script_samples(case)
    got = [ev for ev in open_case(case).records() if ev.type == "SAMPLE"]
    assert len(got) == len(want) > 0
    for i, (ev, (comm, tid, period, chain)) in enumerate(zip(got, want)):
        assert (ev.comm, ev.tid, ev.period) == (comm, tid, period), i
        assert [chain_text(f) for f in ev.callchain] == \
            [line.split(" ", 1)[1] for line in chain], i
        # The sample's own symbol and dso are its chain's leaf's.
        leaf = ev.callchain[0]
        assert ev.symbol == leaf.get("sym", {}).get("name")
        assert ev.dso == leaf.get("dso")
        assert ev.symoff == leaf.get("sym_off")
        assert ev.ip == leaf["ip"]


def test_samples_are_the_sample_columns():
    rec = open_case("dwarf-cxx")
    cols = rec.sample_columns()
    events = [e["name"] for e in rec.events]
    got = [ev for ev in rec.records("SAMPLE")]
    assert len(got) == len(cols["time"]) > 0
    for i, ev in enumerate(got):
        assert (ev.time, ev.pid, ev.tid, ev.cpu, ev.period) == (
            cols["time"][i], cols["pid"][i], cols["tid"][i], cols["cpu"][i], cols["period"][i])
        assert ev.event == events[cols["event"][i]]
        assert ev.comm == rec.strings[cols["comm"][i]]


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
    assert [ev.comm for ev in kept] == [c for c, _, _, _ in script_samples("spin-fp")]
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
