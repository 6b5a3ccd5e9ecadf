#!/usr/bin/env python3
"""Checks one viewer export of a golden recording against `readperf report`'s totals.

usage: check_exports.py --readperf BIN --case DIR --format FORMAT [--keep OUT]

With --browser the flame graph page is also opened in headless Chromium
(flamegraph_browser.mjs), and --diff-self checks a differential page against the same file.
FORMAT is pprof, speedscope, chrome, gecko or flamegraph. For each event, `report --stdio -n` gives
the number of samples and the event count (the sum of the periods); the export must carry the
same totals:
  pprof       decoded with `protoc --decode` against tests/data/pprof/profile.proto: the
              `samples/count` values add up to every event's samples, each event's values to
              its event count; ids referenced exist, string_table[0] is "".
  speedscope  each event's profile weights add up to its event count, endValue equals it;
              the file is valid against the speedscope package's schema (tests/viewers,
              `npm ci` there; without it the schema check is skipped: exit 77).
  chrome      the `sample` instant events add up to the flame-charted event's samples and
              periods, tracepoint events are one instant event per sample; each E closes the B
              of the same name on its thread, in time order.
  gecko       valid against gecko-profile.schema.json (written from the Firefox Profiler's
              importer types; ajv, `npm ci` in tests/viewers), every table index in range,
              sample times in order; the drawn event's samples per thread equal `report --sort
              pid`'s, its weights (threadCPUDelta) per leaf function equal the period `csv`'s
              results.csv gives each function (unresolved addresses together), and each
              tracepoint event has as many markers as samples (--expect-lines: some frames
              carry a source line).
  flamegraph  the page's embedded tree: each event's root equals its event count, children
              never exceed their parent; the page links the other viewers (the Firefox Profiler).
Exits 0 when the export matches, 1 when not, 77 when a tool it needs is missing.
"""
import argparse
import csv
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SKIP = 77
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def recording(case):
    for name in ("perf.data", "perf.data.pipe"):
        path = os.path.join(case, name)
        if os.path.exists(path):
            return path
    sys.exit("no recording in " + case)


def run_readperf(args, readperf, case, **kw):
    rec = recording(case)
    buildid = os.path.join(os.path.dirname(case), "buildid")
    cmd = [readperf, "--buildid-dir", buildid] + args
    if rec.endswith(".pipe"):
        with open(rec, "rb") as f:
            return subprocess.run(cmd + ["-i", "-"], stdin=f, check=True, cwd=case, **kw)
    return subprocess.run(cmd + ["-i", rec], check=True, cwd=case, **kw)


def report_sections(readperf, case, sort):
    """(event, line) for each line of `report --stdio -n --sort SORT`, line None at the start
    of each event's section."""
    out = run_readperf(["report", "--stdio", "--no-children", "--sort", sort, "-n",
                        "--no-call-graph"], readperf, case, capture_output=True,
                       text=True).stdout
    event = None
    for line in out.splitlines():
        m = re.match(r"# Samples: \S+\s+of event '(.*)'", line)
        if m:
            event = m.group(1)
            yield event, None
        elif event:
            yield event, line


def report_totals(readperf, case):
    """{event: (samples, event count)} from `report --stdio -n --sort comm`."""
    totals = {}
    for event, line in report_sections(readperf, case, "comm"):
        if line is None:
            totals[event] = [0, 0]
            continue
        m = re.match(r"# Event count \(approx\.\): (\d+)", line)
        if m:
            totals[event][1] = int(m.group(1))
            continue
        m = re.match(r"\s+[\d.]+%\s+(\d+)\s", line)
        if m:
            totals[event][0] += int(m.group(1))
    return {e: tuple(v) for e, v in totals.items() if v[0]}


def check_pprof(path, totals):
    protoc = shutil.which("protoc")
    if not protoc:
        print("skip: no protoc (Debian protobuf-compiler)")
        sys.exit(SKIP)
    with open(path, "rb") as f:
        raw = f.read()
    check(raw[:2] == b"\x1f\x8b", "pprof output is gzipped")
    proto_dir = os.path.join(ROOT, "tests", "data", "pprof")
    text = subprocess.run([protoc, "--proto_path=" + proto_dir,
                           "--decode=perftools.profiles.Profile",
                           os.path.join(proto_dir, "profile.proto")],
                          input=gzip.decompress(raw), capture_output=True, check=True).stdout
    text = text.decode("utf-8", "replace")
    strings = [json.loads(s) if s.startswith('"') and "\\" not in s else s.strip('"')
               for s in re.findall(r'^string_table: (".*")$', text, re.M)]
    check(strings and strings[0] == "", 'string_table[0] is ""')
    types = re.findall(r"^sample_type \{\n  type: (\d+)\n  unit: (\d+)\n\}", text, re.M)
    names = [(strings[int(t)], strings[int(u)]) for t, u in types]
    check(names and names[0] == ("samples", "count"), "first sample type is samples/count")
    sums = [0] * len(names)
    location_refs = set()
    for body in re.findall(r"^sample \{\n(.*?)^\}", text, re.M | re.S):
        values = [int(v) for v in re.findall(r"^  value: (-?\d+)$", body, re.M)]
        check(len(values) == len(names), "every sample has one value per sample type")
        for i, v in enumerate(values[: len(sums)]):
            sums[i] += v
        location_refs.update(int(x) for x in re.findall(r"^  location_id: (\d+)$", body, re.M))
    location_ids = set(int(x) for x in re.findall(r"^location \{\n  id: (\d+)$", text, re.M))
    function_ids = set(int(x) for x in re.findall(r"^function \{\n  id: (\d+)$", text, re.M))
    mapping_ids = set(int(x) for x in re.findall(r"^mapping \{\n  id: (\d+)$", text, re.M))
    check(location_refs <= location_ids, "every sample's location exists")
    check(set(int(x) for x in re.findall(r"^    function_id: (\d+)$", text, re.M)) <= function_ids,
          "every line's function exists")
    check(set(int(x) for x in re.findall(r"^  mapping_id: (\d+)$", text, re.M)) <= mapping_ids,
          "every location's mapping exists")
    check(sums[0] == sum(s for s, _ in totals.values()),
          "samples/count %d == report's samples %d" % (sums[0], sum(s for s, _ in totals.values())))
    for (event, unit), total in zip(names[1:], sums[1:]):
        check(event in totals, "event %s is in the report" % event)
        if event in totals:
            check(total == totals[event][1],
                  "%s/%s %d == report's event count %d" % (event, unit, total, totals[event][1]))
    check(len(names) - 1 == len(totals), "one sample type per reported event")
    print("pprof: %d sample types, %d locations, %d functions, %d mappings" %
          (len(names), len(location_ids), len(function_ids), len(mapping_ids)))


def check_speedscope(path, totals):
    with open(path) as f:
        doc = json.load(f)
    frames = doc["shared"]["frames"]
    seen = {}
    for p in doc["profiles"]:
        check(p["type"] == "sampled", "sampled profile")
        weight = sum(p["weights"])
        check(len(p["samples"]) == len(p["weights"]), "one weight per sample")
        check(all(0 <= i < len(frames) for s in p["samples"] for i in s), "frame indices in range")
        check(p["endValue"] == weight, "endValue is the total weight")
        seen[p["name"]] = weight
    for event, (_, count) in totals.items():
        check(seen.get(event) == count,
              "speedscope %s weights %s == report's event count %d" % (event, seen.get(event), count))
    check(len(seen) == len(totals), "one profile per reported event")
    validator = os.path.join(HERE, "validate_speedscope.mjs")
    modules = os.path.join(HERE, "node_modules")
    if not (shutil.which("node") and os.path.isdir(os.path.join(modules, "ajv")) and
            os.path.isdir(os.path.join(modules, "speedscope"))):
        print("skip: schema check needs node and `npm ci` in tests/viewers")
        return SKIP
    r = subprocess.run(["node", validator, path], capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    check(r.returncode == 0, "valid against speedscope's file-format-schema.json")
    return 0


def check_chrome(path, totals):
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    stacks = {}
    samples = {}  # event -> [samples, period] from the `sample` instants
    instants = {}
    last_ts = {}
    cats = set()  # the flame-charted event, each B's category
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if e["ph"] in ("B", "E", "i"):
            check(e["ts"] >= last_ts.get(key, 0), "events in time order on their thread")
            last_ts[key] = e["ts"]
        if e["ph"] == "B":
            stacks.setdefault(key, []).append(e["name"])
            cats.add(e["cat"])
        elif e["ph"] == "E":
            open_frames = stacks.get(key, [])
            check(open_frames and open_frames[-1] == e["name"], "E closes its B, same name")
            if open_frames:
                open_frames.pop()
        elif e["ph"] == "i" and e["name"] == "sample":
            s = samples.setdefault(e["cat"], [0, 0])
            s[0] += 1
            s[1] += e["args"]["period"]
        elif e["ph"] == "i" and not e["name"].startswith("switch-"):
            instants[e["name"]] = instants.get(e["name"], 0) + 1
    check(all(not s for s in stacks.values()), "every B is closed")
    check(len(cats) <= 1 and cats <= set(samples), "one flame-charted event, with its samples")
    for ev in instants:
        check(ev in totals and instants[ev] == totals[ev][0],
              "chrome %s: %d instant events == report's samples %s" %
              (ev, instants[ev], totals.get(ev)))
    for ev, got in samples.items():
        check(tuple(got) == totals.get(ev),
              "chrome %s: samples/period %s == report's %s" % (ev, tuple(got), totals.get(ev)))
    charted = sorted(cats)
    print("chrome: %d trace events, flame-charted %s, instants %s" %
          (len(events), charted, sorted(instants)))


def report_threads(readperf, case):
    """{event: {tid: samples}} from `report --sort pid -n` (perf's pid key is the thread)."""
    threads = {}
    for event, line in report_sections(readperf, case, "pid"):
        per_event = threads.setdefault(event, {})
        m = re.match(r"\s+[\d.]+%\s+(\d+)\s+(-?\d+):", line or "")
        if m:
            tid = int(m.group(2))
            per_event[tid] = per_event.get(tid, 0) + int(m.group(1))
    return threads


def tracepoint_events(readperf, case):
    """The names of the recording's tracepoint events (type 2 in the header's event lines)."""
    out = run_readperf(["report", "--header-only"], readperf, case, capture_output=True,
                       text=True).stdout
    return re.findall(r"^# event : name = ([^,]+), .*\btype = 2,", out, re.M)


def csv_function_periods(readperf, case, tmp):
    """{event: {(function, binary basename) or "unresolved": period}} from results.csv."""
    out = os.path.join(tmp, "csv")
    run_readperf(["csv", "-o", out], readperf, case, capture_output=True)
    periods = {}
    with open(os.path.join(out, "results.csv"), newline="") as f:
        for row in csv.DictReader(f):
            name = row["function"]
            key = "unresolved" if re.match(r"0x[0-9a-f]+$", name) else \
                (name, os.path.basename(row["binary"]))
            per_event = periods.setdefault(row["event"], {})
            per_event[key] = per_event.get(key, 0) + int(row["period"])
    return periods


def gecko_leaf(strings, frames, stacks, stack):
    """The sample's own function: its leaf frame past inline frames, as (name, library)."""
    while stack is not None:
        prefix, frame = stacks[stack]
        location = strings[frames[frame][0]]
        m = re.match(r"^(.*) \(in ([^)]*)\)$", location)
        if m and m.group(1).endswith(" (inlined)"):
            stack = prefix
            continue
        return (m.group(1), m.group(2)) if m else "unresolved"
    return "unresolved"


def check_gecko(path, totals, readperf, case, tmp, expect_lines):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    categories = doc["meta"]["categories"]
    threads = [t for p in doc["processes"] for t in p["threads"]] + doc["threads"]
    samples, weights, markers, lines = {}, {}, {}, 0
    for t in threads:
        strings = t["stringTable"]
        frames = t["frameTable"]["data"]
        stacks = t["stackTable"]["data"]
        check(all(0 <= f[0] < len(strings) and 0 <= f[6] < len(categories) for f in frames),
              "thread %d: frame locations and categories in range" % t["tid"])
        check(all((p is None or 0 <= p < i) and 0 <= fr < len(frames)
                  for i, (p, fr) in enumerate(stacks)),
              "thread %d: stack prefixes come first, frames in range" % t["tid"])
        times = [s[1] for s in t["samples"]["data"]]
        check(times == sorted(times), "thread %d: samples in time order" % t["tid"])
        lines += sum(1 for f in frames if f[4])
        for s in t["samples"]["data"]:
            check(s[0] is not None and 0 <= s[0] < len(stacks), "sample stack in range")
            samples[t["tid"]] = samples.get(t["tid"], 0) + 1
            leaf = gecko_leaf(strings, frames, stacks, s[0])
            weights[leaf] = weights.get(leaf, 0) + s[3]
        for m in t["markers"]["data"]:
            check(0 <= m[0] < len(strings), "marker name in range")
            markers[strings[m[0]]] = markers.get(strings[m[0]], 0) + 1
    total = sum(samples.values())
    drawn = [e for e, (n, _) in totals.items() if n == total and e not in markers]
    check(total == 0 or len(drawn) >= 1, "gecko's %d samples are one reported event's" % total)
    if total:
        event = drawn[0]
        check(sum(weights.values()) == totals[event][1],
              "gecko %s weights %d == report's event count %d"
              % (event, sum(weights.values()), totals[event][1]))
        per_thread = report_threads(readperf, case).get(event, {})
        check(samples == per_thread,
              "gecko %s samples per thread == report --sort pid's (%d threads)"
              % (event, len(per_thread)))
        periods = csv_function_periods(readperf, case, tmp).get(event, {})
        wrong = {k: (weights.get(k), periods.get(k)) for k in set(weights) | set(periods)
                 if weights.get(k, 0) != periods.get(k, 0)}
        check(not wrong, "gecko %s period per function == results.csv's (%d functions)%s"
              % (event, len(periods), "" if not wrong else ": " + str(list(wrong.items())[:5])))
    for ev in tracepoint_events(readperf, case):
        if ev in totals:
            check(markers.get(ev, 0) == totals[ev][0], "gecko %s: %s markers == report's %d samples"
                  % (ev, markers.get(ev), totals[ev][0]))
    if expect_lines:
        check(lines > 0, "frames carry source lines (%d)" % lines)
    print("gecko: %d threads, %d samples, markers %s, %d frames with lines"
          % (len(threads), total, markers, lines))
    modules = os.path.join(HERE, "node_modules")
    if not (shutil.which("node") and os.path.isdir(os.path.join(modules, "ajv"))):
        print("skip: schema check needs node and `npm ci` in tests/viewers")
        return SKIP
    r = subprocess.run(["node", os.path.join(HERE, "validate_gecko.mjs"), path],
                       capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    check(r.returncode == 0, "valid against gecko-profile.schema.json")
    return 0


def flamegraph_data(path):
    with open(path, encoding="utf-8") as f:
        page = f.read()
    m = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


def check_flamegraph(path, totals):
    data = flamegraph_data(path)
    check("<script src" not in open(path).read() and "http" not in
          open(path).read().replace("https://", "").replace("http://", ""),
          "no network resources")
    check("https://profiler.firefox.com/" in open(path).read() and "--format gecko" in
          open(path).read(), "the page links the Firefox Profiler and says how to export for it")

    def walk(n):
        kids = sum(c[1] for c in n[3])
        check(kids <= n[1], "children within their parent in " + data["names"][n[0]])
        for c in n[3]:
            walk(c)

    seen = {}
    for e in data["events"]:
        walk(e["tree"])
        seen[e["name"]] = e["total"]
        check(e["tree"][1] == e["total"], "tree root is the total")
    for event, (_, count) in totals.items():
        check(seen.get(event) == count,
              "flamegraph %s total %s == report's event count %d" % (event, seen.get(event), count))
    check(len(seen) == len(totals), "one graph per reported event")


def check_flamegraph_diff(path, base_path):
    """A graph against itself: every frame's base value is its value, every delta zero."""
    data = flamegraph_data(path)
    check(data["diff"] is not None, "the page is a differential one")

    def walk(n):
        check(n[2] == n[1], "base value %d == value %d in %s" % (n[2], n[1], data["names"][n[0]]))
        for c in n[3]:
            walk(c)

    for e in data["events"]:
        check(e["otherTotal"] == e["total"], "base total == total for " + e["name"])
        walk(e["tree"])


def run_browser(page, shot):
    modules = os.path.join(HERE, "node_modules", "playwright-core")
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not (shutil.which("node") and os.path.isdir(modules) and os.path.exists(chromium)):
        print("skip: the browser check needs node, `npm ci` in tests/viewers and chromium")
        return SKIP
    r = subprocess.run(["node", os.path.join(HERE, "flamegraph_browser.mjs"), page, shot],
                       capture_output=True, text=True, timeout=300)
    print(r.stdout + r.stderr, end="")
    if r.returncode == SKIP:
        return SKIP
    check(r.returncode == 0, "the page works in headless Chromium")
    print("screenshots: %s-initial.png %s-zoomed.png" % (shot, shot))
    return 0


def run_speedscope_app(export, shot):
    modules = os.path.join(HERE, "node_modules")
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not (shutil.which("node") and os.path.isdir(os.path.join(modules, "playwright-core")) and
            os.path.isdir(os.path.join(modules, "speedscope")) and os.path.exists(chromium)):
        print("skip: loading into speedscope needs node, `npm ci` in tests/viewers and chromium")
        return SKIP
    # speedscope names the profile after the file: give it one that says what it is.
    named = os.path.join(os.path.dirname(export), os.path.basename(shot) + ".json")
    shutil.copy(export, named)
    r = subprocess.run(["node", os.path.join(HERE, "speedscope_import.mjs"), named, shot + ".png"],
                       capture_output=True, text=True, timeout=300)
    print(r.stdout + r.stderr, end="")
    if r.returncode == SKIP:
        return SKIP
    check(r.returncode == 0, "speedscope's app loads the export without a warning")
    print("screenshot: %s.png" % shot)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readperf", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--format", required=True,
                    choices=["pprof", "speedscope", "chrome", "gecko", "flamegraph"])
    ap.add_argument("--expect-lines", action="store_true",
                    help="gecko: some frames must carry a source line")
    ap.add_argument("--keep", help="keep the export at this path")
    ap.add_argument("--diff-self", action="store_true",
                    help="flamegraph: also check --diff against the same recording")
    ap.add_argument("--diff-with", metavar="CASE",
                    help="flamegraph: also check --diff against CASE's recording: the base totals "
                         "are CASE's report totals")
    ap.add_argument("--speedscope-app", metavar="SHOT",
                    help="speedscope, chrome: load the export into the speedscope app in headless "
                         "Chromium, screenshot SHOT.png")
    ap.add_argument("--browser", metavar="SHOT",
                    help="flamegraph: open the page in headless Chromium, screenshots SHOT-*.png")
    a = ap.parse_args()
    readperf = os.path.abspath(a.readperf)
    case = os.path.abspath(a.case)
    totals = report_totals(readperf, case)
    print("report:", totals)
    tmp = tempfile.mkdtemp()
    # A page needs its .html suffix: Chromium shows a file:// without it as text.
    out = a.keep or os.path.join(tmp, "out.html" if a.format == "flamegraph" else "out")
    if a.format == "flamegraph":
        run_readperf(["flamegraph", "-o", out], readperf, case)
    else:
        run_readperf(["export", "--format", a.format, "-o", out], readperf, case)
    rc = 0
    if a.format == "pprof":
        check_pprof(out, totals)
    elif a.format == "speedscope":
        rc = check_speedscope(out, totals)
    elif a.format == "chrome":
        check_chrome(out, totals)
    elif a.format == "gecko":
        rc = check_gecko(out, totals, readperf, case, tmp, a.expect_lines)
    else:
        check_flamegraph(out, totals)
        if a.diff_self:
            diff_out = os.path.join(tmp, "diff.html")
            run_readperf(["flamegraph", "-o", diff_out, "--diff", recording(case)], readperf,
                         case)
            check_flamegraph_diff(diff_out, recording(case))
        if a.diff_with:
            other = os.path.abspath(a.diff_with)
            other_totals = report_totals(readperf, other)
            out = os.path.join(tmp, "diff-with.html")
            run_readperf(["flamegraph", "-o", out, "--diff", recording(other)], readperf, case)
            data = flamegraph_data(out)
            for e in data["events"]:
                want = other_totals.get(e["name"], (0, 0))[1]
                check(e["otherTotal"] == want, "diff %s: base total %d == %s's event count %d" %
                      (e["name"], e["otherTotal"], other, want))
                check(e["tree"][2] == e["otherTotal"], "the event root holds the base total")
        if a.browser:
            rc = run_browser(out, os.path.abspath(a.browser))
    if a.speedscope_app and a.format in ("speedscope", "chrome") and not failures:
        rc = run_speedscope_app(out, os.path.abspath(a.speedscope_app)) or rc
    shutil.rmtree(tmp)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("ok" if rc == 0 else "ok (a check that needs node or chromium skipped)")
    return rc


if __name__ == "__main__":
    sys.exit(main())
