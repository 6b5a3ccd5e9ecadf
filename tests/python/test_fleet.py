"""readperf.dask on a real distributed LocalCluster: copies of golden recordings under several
host names plus one damaged file: 40 recordings. The fleet's totals must be the sum of each
file's `readperf report` totals, exactly; the damaged file gives an error row with its offset
and the job goes on."""

import gzip
import os
import re
import shutil
import subprocess

import pandas as pd
import pytest

import readperf
import readperf.dask as rpd
from damage import damaged_copy

distributed = pytest.importorskip("distributed")

GOLDEN = os.environ.get("READPERF_GOLDEN",
                        os.path.join(os.path.dirname(__file__), "..", "golden"))
BUILDID = os.path.join(GOLDEN, "buildid")
READPERF = os.environ.get("READPERF") or os.path.join(
    os.path.dirname(__file__), "..", "..", "build", "readperf")
CASES = ["spin-fp", "default", "zstd"]
HOSTS = 13  # copies of each case: with the damaged file, 40 recordings


def report_total(case):
    """The sum of the `Event count` lines `readperf report --stdio` prints for the case."""
    out = subprocess.run(
        [READPERF, "--buildid-dir", BUILDID, "report", "--stdio", "-i",
         os.path.join(GOLDEN, case, "perf.data")],
        check=True, capture_output=True, text=True, errors="surrogateescape",
        env=dict(os.environ, DEBUGINFOD_URLS="")).stdout
    counts = [int(n) for n in re.findall(r"^# Event count \(approx.\): (\d+)$", out, re.M)]
    assert counts, case
    return sum(counts)


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    root = tmp_path_factory.mktemp("fleet")
    paths, hosts = [], []
    for h in range(HOSTS):
        for case in CASES:
            host = "host-%02d" % h
            d = root / host / case
            d.mkdir(parents=True)
            shutil.copy(os.path.join(GOLDEN, case, "perf.data"), d / "perf.data")
            paths.append(str(d / "perf.data"))
            hosts.append(host)
    # A damaged recording: read, it stops with an error (its samples are not counted).
    bad = root / "host-bad" / "perf.data"
    bad.parent.mkdir()
    at = damaged_copy(GOLDEN, str(bad))
    paths.append(str(bad))
    hosts.append("host-bad")
    return paths, hosts, str(bad), at


@pytest.fixture(scope="module")
def client():
    # Two worker processes: each imports readperf and opens its files itself.
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    # Two processes of their own, not threads of this one.
    pids = c.run(os.getpid)
    assert len(pids) == 2 and os.getpid() not in pids.values()
    yield c
    c.close()
    cluster.close()


def test_fleet_totals_are_the_sum_of_the_files(fleet, client):
    paths, hosts, bad, at = fleet
    result = rpd.fleet_costs(paths, hosts=hosts, client=client, buildid_dir=BUILDID)
    want = HOSTS * sum(report_total(c) for c in CASES)
    assert int(result.costs["period"].sum()) == want
    # Each file alone, read here, adds up to the same.
    alone = sum(int(readperf.open(p, buildid_dir=BUILDID).samples()["period"].sum())
                for p in paths if p != bad)
    assert alone == want
    # Every host has every case's functions; the damaged file gave none.
    assert set(result.per_host["host"]) == {"host-%02d" % h for h in range(HOSTS)}
    assert len(result.errors) == 1
    err = result.errors.iloc[0]
    assert err["path"] == bad and err["host"] == "host-bad" and err["offset"] == at
    assert hex(at) in err["message"]
    # Every function's fleet cost is the sum of its costs in the files, read one by one here;
    # spin-fp's leaf is on every host.
    local = pd.concat([readperf.open(p, buildid_dir=BUILDID).samples() for p in paths if p != bad])
    local = local.groupby(["dso", "symbol"], observed=True)["period"].sum()
    top = rpd.top_functions(result.costs, 3)
    assert len(top) == 3
    for row in top.itertuples():
        assert int(row.period) == int(local[(row.dso, row.symbol)])
    assert int(top["period"].iloc[0]) == int(local.max())
    leaf = result.costs[result.costs["symbol"] == "leaf"]
    assert int(leaf["hosts"].iloc[0]) == HOSTS


def test_hosts_above_median(fleet, client):
    paths, hosts, bad, _ = fleet
    # host-00 records spin-fp twice: it spends more in leaf than the fleet's median host.
    paths = paths + [paths[0]]
    hosts = hosts + [hosts[0]]
    result = rpd.fleet_costs(paths, hosts=hosts, client=client, buildid_dir=BUILDID)
    above = rpd.hosts_above_median(result.per_host, "leaf")
    assert list(above["host"]) == ["host-00"]
    assert (above["share"] > above["median"]).all()


def test_read_samples_has_a_partition_per_file(fleet, client):
    paths, hosts, bad, _ = fleet
    ddf = rpd.read_samples(paths, hosts=hosts, buildid_dir=BUILDID)
    assert ddf.npartitions == len(paths)
    per_host = client.compute(ddf.groupby("host")["period"].sum()).result()
    assert "host-bad" not in per_host.index
    assert int(per_host.sum()) == HOSTS * sum(report_total(c) for c in CASES)


def test_read_samples_splits_large_files_by_time(fleet, client):
    paths, hosts, bad, _ = fleet
    # Two hosts' files and the damaged one; files over 20 kB in about size / 20 kB windows.
    some = [i for i, h in enumerate(hosts) if h in ("host-00", "host-01", "host-bad")]
    ps, hs = [paths[i] for i in some], [hosts[i] for i in some]
    whole = rpd.read_samples(ps, hosts=hs, buildid_dir=BUILDID)
    split = rpd.read_samples(ps, hosts=hs, chunk_bytes=20000, buildid_dir=BUILDID)
    sizes = {p: os.path.getsize(p) for p in ps}
    assert split.npartitions > whole.npartitions == len(ps)
    assert split.npartitions >= sum(-(-s // 20000) for p, s in sizes.items() if p != bad) // 2
    a, b = client.compute([whole, split], sync=True)
    # Every sample once, in the same rows: the windows split the samples without a gap or an
    # overlap. (A stack_id numbers the stacks of its partition's model.)
    key = ["path", "time", "tid", "cpu", "event", "period", "symbol", "dso"]
    a = a.drop(columns="stack_id").sort_values(key, kind="stable").reset_index(drop=True)
    b = b.drop(columns="stack_id").sort_values(key, kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    assert len(a) > 0
    # A time filter of the caller's: no windows of our own.
    assert rpd.read_samples(ps, hosts=hs, chunk_bytes=20000, time="0%-50%",
                            buildid_dir=BUILDID).npartitions == len(ps)


def test_shipped_bytes_for_workers_without_the_files(fleet, client, tmp_path):
    paths, hosts, bad, at = fleet
    # Copies the workers will not find: shipped when the graph is made, then deleted.
    some = [(p, h) for p, h in zip(paths, hosts) if h in ("host-00", "host-bad")]
    copies, names = [], []
    for i, (p, h) in enumerate(some):
        c = tmp_path / ("%d.data" % i)
        shutil.copy(p, c)
        copies.append(str(c))
        names.append(h)
    ddf = rpd.read_samples(copies, hosts=names, client=client, ship=True, buildid_dir=BUILDID)
    want = rpd.read_samples([p for p, _ in some], hosts=names, buildid_dir=BUILDID)
    for c in copies:
        os.remove(c)
    got, want = client.compute([ddf, want], sync=True)
    assert len(got) == len(want) > 0
    assert int(got["period"].sum()) == int(want["period"].sum())
    assert set(got["path"]) == set(copies[:-1])  # the damaged copy gives no rows
    # fleet_costs and merge take the bytes too; the damaged file is still an error row, named
    # by its path, with its offset.
    for c, (p, _) in zip(copies, some):
        shutil.copy(p, c)
    shipped = rpd.fleet_costs(copies, hosts=names, client=client, ship=True, buildid_dir=BUILDID)
    local = rpd.fleet_costs([p for p, _ in some], hosts=names, client=client, buildid_dir=BUILDID)
    pd.testing.assert_frame_equal(shipped.costs, local.costs)
    assert list(shipped.errors["path"]) == [copies[-1]]
    assert int(shipped.errors["offset"].iloc[0]) == at
    merged = rpd.merge(copies, hosts=names, client=client, ship=True, buildid_dir=BUILDID)
    assert merged.profile == rpd.merge([p for p, _ in some], hosts=names, client=client,
                                       buildid_dir=BUILDID).profile
    with pytest.raises(ValueError, match="needs a client"):
        rpd.fleet_costs(copies, ship=True)


def folded(text):
    """{stack: count} of a collapsed profile."""
    counts = {}
    for line in text.splitlines():
        stack, _, n = line.rpartition(" ")
        assert stack and n.isdigit(), line
        counts[stack] = counts.get(stack, 0) + int(n)
    return counts


def test_merge_is_the_sum_of_the_files_collapsed(fleet, client):
    paths, hosts, bad, at = fleet
    merged = rpd.merge(paths, hosts=hosts, client=client, buildid_dir=BUILDID)
    # Each file's `readperf export --format collapsed`, summed here.
    want = {}
    for p in paths:
        if p == bad:
            continue
        out = subprocess.run(
            [READPERF, "--buildid-dir", BUILDID, "export", "--format", "collapsed", "-i", p],
            check=True, capture_output=True, text=True, errors="surrogateescape",
            env=dict(os.environ, DEBUGINFOD_URLS="")).stdout
        for stack, n in folded(out).items():
            want[stack] = want.get(stack, 0) + n
    assert want
    got = folded(merged.profile)
    assert got == want
    # One line per stack, in the export's (byte) order.
    lines = merged.profile.splitlines()
    assert len(lines) == len(want)
    stacks = [l.rpartition(" ")[0].encode("utf-8", "surrogateescape") for l in lines]
    assert stacks == sorted(stacks)
    # The damaged file is an error row; the rest is merged.
    assert list(merged.errors["path"]) == [bad]
    assert int(merged.errors["offset"].iloc[0]) == at


def test_merge_pprof_is_the_sum_of_the_files_pprof(fleet, client):
    import pprof_decode
    paths, hosts, bad, at = fleet
    merged = rpd.merge(paths, hosts=hosts, client=client, format="pprof", buildid_dir=BUILDID)
    # Each file's `readperf export --format pprof`, decoded and summed here.
    want, names = {}, []
    for p in paths:
        if p == bad:
            continue
        out = subprocess.run(
            [READPERF, "--buildid-dir", BUILDID, "export", "--format", "pprof", "-i", p],
            check=True, capture_output=True, env=dict(os.environ, DEBUGINFOD_URLS="")).stdout
        totals, types = pprof_decode.totals(out)
        want = pprof_decode.add(want, totals)
        names += [n for n in types if n not in names]
    assert want
    got, got_names = pprof_decode.totals(merged.profile)
    assert got == want
    assert sorted(got_names) == sorted(names)
    assert list(merged.errors["path"]) == [bad]
    assert int(merged.errors["offset"].iloc[0]) == at
    # One file: its own export.
    one = rpd.merge(paths[:1], client=client, format="pprof", buildid_dir=BUILDID)
    assert gzip.decompress(one.profile) == readperf.open(
        paths[0], buildid_dir=BUILDID).pprof(gzip=False)
    # Only the damaged file: no profile, its error row.
    none = rpd.merge([bad], client=client, format="pprof")
    assert none.profile == b"" and list(none.errors["path"]) == [bad]


def test_merge_of_one_file_is_its_collapsed(fleet, client):
    paths, hosts, _, _ = fleet
    one = rpd.merge(paths[:1], hosts=hosts[:1], client=client, buildid_dir=BUILDID)
    assert one.profile == readperf.open(paths[0], buildid_dir=BUILDID).collapsed()
    assert one.profile and one.errors.empty
    with pytest.raises(ValueError):
        rpd.merge(paths[:1], client=client, format="svg")
