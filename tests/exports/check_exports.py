#!/usr/bin/env python3
"""readperf's own views against `readperf report` on the golden recordings.

For one case folder of tests/golden (its recording read as the golden runner reads it), checks:
  summary      `readperf FILE` (the default command): per event, samples and period equal
               report's sample count and "Event count", every row's percent equals report
               --sort dso,sym's percent for that dso and symbol
  csv          results.csv periods sum to report's "Event count" per event, samples to its
               sample count, percents equal report's; processes.csv sums the same; stat.csv
               equals report --stats' record counts; overview.csv has one row per record,
               kernel records in time order
  sqlite       export --format sqlite: count(*) and sum(period) of samples per event equal
               report's; per-symbol periods equal report's percentages
usage: check_exports.py --readperf PATH --golden DIR --case NAME
"""
import argparse
import csv
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(readperf, golden, case, args):
    """readperf --buildid-dir golden/buildid ARGS, reading the case's recording."""
    folder = os.path.join(golden, case)
    cmd = [readperf, "--buildid-dir", os.path.join(golden, "buildid")] + args
    pipe = os.path.join(folder, "perf.data.pipe")
    # No subcommand: `readperf FILE`, the default one.
    flag = ["-i"] if args else []
    if os.path.exists(pipe):
        with open(pipe, "rb") as f:
            out = subprocess.run(cmd + flag + ["-"], stdin=f, capture_output=True, cwd=folder)
    else:
        out = subprocess.run(cmd + flag + ["perf.data"], capture_output=True, cwd=folder)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr.decode()}")
    return out.stdout.decode(errors="replace")


def short_name(binary):
    """The name report prints for a binary (dso->short_name)."""
    return binary if binary.startswith("[") else os.path.basename(binary)


def parse_report(text):
    """{event: {"period": P, "samples": N or None, "rows": {(dso, sym): percent string}}}"""
    events, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"# Samples: (\d+)(\S?)\s+of event '(.*)'$", line)
        if m:
            cur = events.setdefault(m.group(3), {"rows": {}})
            cur["samples"] = int(m.group(1)) if not m.group(2) else None
            continue
        m = re.match(r"# Event count \(approx\.\): (\d+)$", line)
        if m:
            cur["period"] = int(m.group(1))
            continue
        # A dso may have spaces ("memfd:x (deleted)"): it runs up to the "[.] " or "[k] ".
        m = re.match(r"^\s+([\d.]+)%\s+(.*?)\s+\[.\] (.*?)\s*$", line)
        if m and cur is not None:
            cur["rows"][(m.group(2), m.group(3))] = m.group(1)
    return events


def parse_stats(text):
    """Record counts per type ("Aggregated stats") and SAMPLE counts per event."""
    types, samples, event = {}, {}, None
    for line in text.splitlines():
        m = re.match(r"^(.*) stats:$", line)
        if m and not line.startswith("Aggregated"):
            event = m.group(1)
            continue
        m = re.match(r"^\s*(\S+) events:\s+(\d+)", line)
        if not m:
            continue
        if event is None:
            types[m.group(1)] = int(m.group(2))
        elif m.group(1) == "SAMPLE":
            samples[event] = int(m.group(2))
    return types, samples


def close(percent, expected):
    """A percent with more digits against report's two-digit one."""
    return abs(float(percent) - float(expected)) <= 0.005 + 1e-9


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]


def check_summary(report, text):
    event = None
    seen = set()
    for line in text.splitlines():
        m = re.match(r"Event '(.*)': (\d+) samples, period (\d+), (\d+) functions?$", line)
        if m:
            event = m.group(1)
            seen.add(event)
            rep = report.get(event)
            check(rep is not None, f"summary: event {event} not in report")
            if rep:
                check(int(m.group(3)) == rep["period"], f"summary: {event} period {m.group(3)}"
                      f" != report's Event count {rep['period']}")
                check(int(m.group(2)) == rep["samples_total"],
                      f"summary: {event} samples {m.group(2)} != {rep['samples_total']}")
            continue
        m = re.match(r"^\s*([\d.]+)%\s+(\d+)\s+(\d+)\s+\[.\] (.*?)\s{2,}(.+?)\s{2,}\S+$", line)
        if m and event in report:
            dso, name = short_name(m.group(5)), m.group(4)
            want = report[event]["rows"].get((dso, name))
            if want is None and name.endswith("..."):
                # A long name is cut to keep the columns: it is the report row it begins.
                cut = [v for (d, n), v in report[event]["rows"].items()
                       if d == dso and n.startswith(name[:-3])]
                want = m.group(1) if m.group(1) in cut else None
            key = (dso, name)
            check(want == m.group(1), f"summary: {event} {key} {m.group(1)}% != report's {want}%")
    check(seen == set(e for e in report if report[e]["period"]),
          f"summary: events {sorted(seen)} != report's {sorted(report)}")


def check_csv(report, types, out):
    _, results = read_csv(os.path.join(out, "results.csv"))
    by_event = {}
    for r in results:
        e = by_event.setdefault(r["event"], {"period": 0, "samples": 0, "rows": {}})
        e["period"] += int(r["period"])
        e["samples"] += int(r["samples"])
        key = (short_name(r["binary"]), r["function"])
        e["rows"][key] = e["rows"].get(key, 0.0) + float(r["percent"])
    check(set(by_event) == set(e for e in report if report[e]["period"]),
          f"results.csv: events {sorted(by_event)} != report's {sorted(report)}")
    for name, e in by_event.items():
        rep = report.get(name)
        if not rep:
            continue
        check(e["period"] == rep["period"],
              f"results.csv: {name} periods sum to {e['period']} != Event count {rep['period']}")
        check(e["samples"] == rep["samples_total"],
              f"results.csv: {name} samples sum to {e['samples']} != {rep['samples_total']}")
        check(set(e["rows"]) == set(rep["rows"]),
              f"results.csv: {name} functions differ from report's: "
              f"{sorted(set(e['rows']) ^ set(rep['rows']))[:5]}")
        for key, pct in e["rows"].items():
            if key in rep["rows"]:
                check(close(pct, rep["rows"][key]),
                      f"results.csv: {name} {key} {pct} != report's {rep['rows'][key]}%")

    _, procs = read_csv(os.path.join(out, "processes.csv"))
    sums = {}
    for p in procs:
        if p["event"]:
            s = sums.setdefault(p["event"], [0, 0])
            s[0] += int(p["samples"])
            s[1] += int(p["period"])
    for name, (samples, period) in sums.items():
        rep = report.get(name, {"period": None, "samples_total": None})
        check(period == rep["period"], f"processes.csv: {name} period {period} != {rep['period']}")
        check(samples == rep["samples_total"],
              f"processes.csv: {name} samples {samples} != {rep['samples_total']}")

    _, stat = read_csv(os.path.join(out, "stat.csv"))
    got = {r["type"]: int(r["count"]) for r in stat}
    want = {t: n for t, n in types.items() if t != "TOTAL"}
    check(got == want, f"stat.csv {got} != report --stats {want}")

    header, overview = read_csv(os.path.join(out, "overview.csv"))
    check(header == ["nr", "type", "pid", "tid", "time", "info"], f"overview.csv header {header}")
    check(len(overview) == types.get("TOTAL"),
          f"overview.csv: {len(overview)} rows != {types.get('TOTAL')} records")
    check(sum(1 for r in overview if r["type"] == "SAMPLE") == types.get("SAMPLE", 0),
          "overview.csv: SAMPLE rows != report --stats SAMPLE count")
    check([int(r["nr"]) for r in overview] == list(range(1, len(overview) + 1)),
          "overview.csv: nr is not 1, 2, 3, ...")
    times = [int(r["time"]) for r in overview if r["time"]]
    late = [i for i in range(1, len(times)) if times[i] < times[i - 1]]
    check(not late, f"overview.csv: {len(late)} records earlier than the one before them")
    return by_event


def check_sqlite(report, db):
    con = sqlite3.connect(db)
    q = ("SELECT e.name, count(*), sum(s.period) FROM samples s "
         "JOIN selected_events e ON e.id = s.evsel_id GROUP BY e.name")
    got = {name: (n, p) for name, n, p in con.execute(q)}
    check(set(got) == set(e for e in report if report[e]["period"]),
          f"sqlite: events {sorted(got)} != report's {sorted(report)}")
    for name, (n, period) in got.items():
        rep = report.get(name)
        if not rep:
            continue
        check(n == rep["samples_total"], f"sqlite: {name} count(*) {n} != {rep['samples_total']}")
        check(period == rep["period"], f"sqlite: {name} sum(period) {period} != {rep['period']}")
        q = ("SELECT d.short_name, y.name, sum(s.period) FROM samples s "
             "JOIN selected_events e ON e.id = s.evsel_id JOIN symbols y ON y.id = s.symbol_id "
             "JOIN dsos d ON d.id = s.dso_id WHERE e.name = ? AND s.symbol_id != 0 "
             "GROUP BY s.dso_id, s.symbol_id")
        for dso, sym, p in con.execute(q, (name,)):
            want = rep["rows"].get((dso, sym))
            pct = 100.0 * p / rep["period"]
            check(want is not None and close(pct, want),
                  f"sqlite: {name} ({dso}, {sym}) {pct:.4f}% != report's {want}%")
    total = con.execute("SELECT count(*) FROM samples").fetchone()[0]
    want = sum(r["samples_total"] for r in report.values())
    check(total == want, f"sqlite: select count(*) from samples = {total} != {want}")
    # Every call path's parent exists, and the root is id 0.
    orphans = con.execute("SELECT count(*) FROM call_paths c WHERE c.id != 0 AND NOT EXISTS "
                          "(SELECT 1 FROM call_paths p WHERE p.id = c.parent_id)").fetchone()[0]
    check(orphans == 0, f"sqlite: {orphans} call paths without a parent")
    con.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--case", required=True)
    a = ap.parse_args()
    rp, golden, case = os.path.abspath(a.readperf), os.path.abspath(a.golden), a.case

    report = parse_report(run(rp, golden, case, ["report", "--stdio", "--no-children",
                                                 "--no-call-graph", "--sort", "dso,sym"]))
    types, samples = parse_stats(run(rp, golden, case, ["report", "--stats"]))
    for name, e in report.items():
        # report prints 1001 and more samples as "1K": --stats has the exact count.
        e["samples_total"] = samples.get(name, e["samples"])
    if not report:
        # A recording without samples (perf stat record): the views say so and hold none.
        check("no samples" in run(rp, golden, case, []), "summary: no 'no samples' line")
        with tempfile.TemporaryDirectory() as tmp:
            run(rp, golden, case, ["csv", "-o", os.path.join(tmp, "csv")])
            _, results = read_csv(os.path.join(tmp, "csv", "results.csv"))
            check(not results, "results.csv: rows for a recording without samples")
            db = os.path.join(tmp, "out.db")
            run(rp, golden, case, ["export", "--format", "sqlite", "-o", db])
            n = sqlite3.connect(db).execute("SELECT count(*) FROM samples").fetchone()[0]
            check(n == 0, f"sqlite: {n} samples in a recording without samples")
        for f in failures:
            print("FAIL:", f)
        print(f"exports/{case}: no samples, {len(failures)} failure(s)")
        return 1 if failures else 0

    check_summary(report, run(rp, golden, case, []))
    with tempfile.TemporaryDirectory() as tmp:
        run(rp, golden, case, ["csv", "-o", os.path.join(tmp, "csv")])
        check_csv(report, types, os.path.join(tmp, "csv"))
        db = os.path.join(tmp, "out.db")
        run(rp, golden, case, ["export", "--format", "sqlite", "-o", db])
        check_sqlite(report, db)

    for f in failures:
        print("FAIL:", f)
    print(f"exports/{case}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
