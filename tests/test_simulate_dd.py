"""``simulate --dd``: double-dummy columns in the dataset, embedded and on a cluster.

The columns must be exactly what :func:`whist_sim.dd.solve_batch` says for the hands at the start
of play, the deal's trump and the declarer on lead (RULES §5), with -1 where a solve is over the
node limit or the deal was thrown in (RULES §3), and the same whatever the chunk size, threads or
Dask workers. Small runs and small node limits keep this fast: full deals are slow to solve.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from whist_sim.compiled.entry.batch import play_batch
from whist_sim.core.rules import Rules
from whist_sim.dd import SOLVER_VERSION, solve_batch
from whist_sim.interfaces.cli import main
from whist_sim.runs.dataset import (
    DatasetError,
    iter_chunks,
    load,
    load_manifest,
    write_manifest,
)
from whist_sim.runs.dd_columns import DDColumnsError, dd_column_names, dd_columns
from whist_sim.runs.simulate import (
    DEFAULT_DD_CHUNK_SIZE,
    SimulationError,
    default_dd_chunk_size,
    simulate,
)

SEED = 14
DEALS = 12
RULES = Rules(frisch=False)  # four passes throw the deal in (RULES §3): deal 8 of this seed
THROWN = 8
LIMIT = 200_000  # card plays per solve: some whist-max solves fit, others do not
OBJECTIVES = (("max", "whist-max"), ("min", "whist-min"))


def run(path, **kw):
    kw.setdefault("deals", DEALS)
    kw.setdefault("seed", SEED)
    kw.setdefault("rules", RULES)
    kw.setdefault("progress", False)
    kw.setdefault("dd", True)
    kw.setdefault("play", "heuristic")  # the runs compared with play_batch play heuristic cards
    if kw["dd"]:
        kw.setdefault("dd_node_limit", LIMIT)
    return simulate(path, **kw)


def frame(path) -> pd.DataFrame:
    df = load(path)
    df.attrs = {}
    return df


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A --dd run in chunks of 5 deals on 2 threads; the other runs are compared with it."""
    path = tmp_path_factory.mktemp("dd") / "run"
    manifest = run(path, chunk_size=5, threads=2)
    return path, manifest


# --------------------------------------------------------------------------- the columns


def test_dd_columns_are_the_solver_answers(reference):
    df = frame(reference[0])
    assert bool(df.loc[THROWN, "thrown_in"]) and (~df["thrown_in"]).sum() == DEALS - 1
    played = ~df["thrown_in"].to_numpy()
    hands = df[[f"hand_{s}" for s in range(4)]].to_numpy(np.uint64)[played]
    trump = df["trump"].to_numpy()[played]
    leader = df["declarer"].to_numpy()[played]  # the declarer leads to the first trick
    k = len(hands)
    rows = np.repeat(hands, 4, axis=0)
    seat = np.tile(np.arange(4), k)
    solved_any = unsolved_any = False
    for tag, objective in OBJECTIVES:
        value, lo, hi = solve_batch(rows, np.repeat(trump, 4), np.repeat(leader, 4), objective,
                                    seat, threads=1, node_limit=LIMIT, return_bounds=True)
        for name, want in (("", value), ("_lo", lo), ("_hi", hi)):
            got = np.stack([df[f"dd_{tag}{name}_{s}"].to_numpy()[played] for s in range(4)], 1)
            np.testing.assert_array_equal(got.ravel(), want, err_msg=f"dd_{tag}{name}")
        solved = value >= 0
        solved_any |= bool(solved.any())
        unsolved_any |= bool((~solved).any())
        assert (value[~solved] == -1).all()  # -1 exactly where unsolved
        assert (lo[solved] == value[solved]).all() and (hi[solved] == value[solved]).all()
        assert ((0 <= lo) & (lo <= hi) & (hi <= 13)).all()
    assert solved_any and unsolved_any  # the run exercises both cases
    # a thrown-in deal has no play: -1 in every dd column
    assert (df.loc[THROWN, dd_column_names()] == -1).all()
    for c in dd_column_names():
        assert df[c].dtype == np.int8


def test_the_other_columns_are_the_plain_run(reference):
    df = frame(reference[0])
    direct = pd.DataFrame(play_batch(SEED, 0, DEALS, RULES, ["heuristic"] * 4, ["heuristic"] * 4))
    pd.testing.assert_frame_equal(df.drop(columns=dd_column_names()), direct)
    # dd columns come after the schema's other columns
    assert list(df.columns[-24:]) == dd_column_names()


def test_manifest_records_the_dd_options(reference, tmp_path):
    path, m = reference
    assert m["dd"] == {"solver_version": SOLVER_VERSION, "node_limit": LIMIT, "tt_bits": 20,
                       "objectives": ["whist-max", "whist-min"]}
    assert load_manifest(path) == m
    counts = m["sessions"][0]["dd"]
    assert counts["solves"] == 4 * (DEALS - 1)
    df = frame(path)
    played = ~df["thrown_in"]
    for tag, objective in OBJECTIVES:
        cols = [f"dd_{tag}_{s}" for s in range(4)]
        assert counts["unsolved"][objective] == int((df.loc[played, cols] < 0).to_numpy().sum())
    # without --dd: no dd columns, and "dd": null in the manifest
    plain = run(tmp_path / "plain", dd=False, chunk_size=5)
    assert plain["dd"] is None and "dd" not in plain["sessions"][0]
    assert not any(c.startswith("dd_") for c in load(tmp_path / "plain").columns)


def test_whist_min_has_its_own_node_limit(reference, tmp_path):
    # --dd-min-node-limit: whist-min's solves stop sooner; whist-max's columns do not change, and
    # the manifest records the second limit (only when it differs, so older runs keep their
    # identity)
    path = tmp_path / "run"
    m = run(path, chunk_size=5, dd_min_node_limit=2_000)
    assert m["dd"]["min_node_limit"] == 2_000 and m["dd"]["node_limit"] == LIMIT
    assert run(tmp_path / "same", deals=2, dd_min_node_limit=LIMIT)["dd"] == reference[1]["dd"]
    df, ref = frame(path), frame(reference[0])
    played = ~df["thrown_in"].to_numpy()
    for s in range(4):
        for c in (f"dd_max_{s}", f"dd_max_lo_{s}", f"dd_max_hi_{s}"):
            np.testing.assert_array_equal(df[c], ref[c], err_msg=c)
    hands = df[[f"hand_{s}" for s in range(4)]].to_numpy(np.uint64)[played]
    k = len(hands)
    value, lo, hi = solve_batch(np.repeat(hands, 4, axis=0),
                                np.repeat(df["trump"].to_numpy()[played], 4),
                                np.repeat(df["declarer"].to_numpy()[played], 4), "whist-min",
                                np.tile(np.arange(4), k), threads=1, node_limit=2_000,
                                return_bounds=True)
    for name, want in (("", value), ("_lo", lo), ("_hi", hi)):
        got = np.stack([df[f"dd_min{name}_{s}"].to_numpy()[played] for s in range(4)], 1)
        np.testing.assert_array_equal(got.ravel(), want, err_msg=f"dd_min{name}")
    # the lower limit proves less: bounds at least as wide as the reference's, some wider
    width = np.stack([(df[f"dd_min_hi_{s}"] - df[f"dd_min_lo_{s}"]).to_numpy()[played]
                      for s in range(4)])
    ref_width = np.stack([(ref[f"dd_min_hi_{s}"] - ref[f"dd_min_lo_{s}"]).to_numpy()[played]
                          for s in range(4)])
    assert (width >= ref_width).all() and (width > ref_width).any()
    counts = m["sessions"][0]["dd"]["unsolved"]
    assert counts["whist-max"] == reference[1]["sessions"][0]["dd"]["unsolved"]["whist-max"]
    with pytest.raises(SimulationError, match="dd.min_node_limit: run 2000, now None"):
        run(path, chunk_size=5, resume=True)
    assert run(path, chunk_size=5, dd_min_node_limit=2_000, resume=True)["status"] == "complete"


def test_smaller_default_chunk_size_with_dd(tmp_path):
    m = run(tmp_path / "run", deals=3, dd_node_limit=5_000)
    # a small run is cut into chunks of one deal, so that every thread has work
    assert m["chunk_size"] == 1 and m["n_chunks"] == 3
    assert [default_dd_chunk_size(n) for n in (1, 16, 17, 1600, 1601, 10**6)] == \
        [1, 1, 2, 100, DEFAULT_DD_CHUNK_SIZE, DEFAULT_DD_CHUNK_SIZE]
    assert run(tmp_path / "plain", deals=3, dd=False)["chunk_size"] == 250_000


def test_load_and_iter_chunks_read_the_dd_columns(reference, tmp_path):
    path = reference[0]
    full = frame(path)
    part = load(path, columns=["deal", "dd_max_2", "dd_min_hi_3"])
    assert list(part.columns) == ["deal", "dd_max_2", "dd_min_hi_3"]
    assert part["dd_max_2"].equals(full["dd_max_2"])
    chunks = list(iter_chunks(path, columns=["dd_min_lo_0"]))
    assert [len(c) for c in chunks] == [5, 5, 2]
    assert pd.concat(chunks, ignore_index=True)["dd_min_lo_0"].equals(full["dd_min_lo_0"])
    run(tmp_path / "plain", deals=5, dd=False)
    with pytest.raises(DatasetError, match="unknown column.*'dd_max_0'"):
        load(tmp_path / "plain", columns=["dd_max_0"])


# --------------------------------------------------------------------------- identity


def test_threads_and_chunk_sizes_do_not_change_the_data(reference, tmp_path, chunk_bytes):
    ref_path = reference[0]
    run(tmp_path / "t1", chunk_size=5, threads=1)
    assert chunk_bytes(tmp_path / "t1") == chunk_bytes(ref_path)
    ref = frame(ref_path)
    for size in (DEALS, 4):
        run(tmp_path / f"c{size}", chunk_size=size, threads=2)
        pd.testing.assert_frame_equal(frame(tmp_path / f"c{size}"), ref)


def test_local_cluster_writes_the_same_files(reference, tmp_path, chunk_bytes):
    """`--cluster local:2`: a real LocalCluster of two worker processes on the loopback."""
    pytest.importorskip("distributed")
    out = tmp_path / "cluster"
    r = CliRunner().invoke(main, [
        "simulate", "--deals", str(DEALS), "--seed", str(SEED), "--no-frisch", "--dd",
        "--dd-node-limit", str(LIMIT), "--chunk-size", "5", "--cluster", "local:2",
        "--out", str(out), "--no-progress", "--play", "heuristic",
    ], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "double dummy: 44 solves per objective" in r.output
    m = load_manifest(out)
    assert m["sessions"][0]["executor"] == "dask-local:2x1"
    assert m["sessions"][0]["dd"] == reference[1]["sessions"][0]["dd"]
    assert chunk_bytes(out) == chunk_bytes(reference[0])


# --------------------------------------------------------------------------- resume


def test_interrupted_dd_run_resumes_to_the_same_files(reference, tmp_path, chunk_bytes):
    path = tmp_path / "run"
    seen = []

    def stop(receipt):
        seen.append(receipt.index)
        if len(seen) == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(path, chunk_size=5, threads=1, on_chunk=stop)
    assert load_manifest(path)["status"] == "interrupted"
    redone = []
    m = run(path, chunk_size=5, threads=2, resume=True, on_chunk=redone.append)
    assert m["status"] == "complete"
    # the session counts the solves of the chunks it computed
    assert m["sessions"][1]["dd"]["solves"] == sum(r.dd_solves for r in redone)
    thrown = frame(reference[0])["thrown_in"].to_numpy()
    assert sum(r.dd_solves for r in redone) == sum(
        4 * int((~thrown[r.start:r.start + r.count]).sum()) for r in redone)
    assert chunk_bytes(path) == chunk_bytes(reference[0])


def test_resume_with_other_dd_options_is_refused(tmp_path):
    path = tmp_path / "run"
    run(path, deals=4, chunk_size=2, dd_node_limit=5_000)
    with pytest.raises(SimulationError, match="dd.node_limit: run 5000, now 6000"):
        run(path, deals=4, chunk_size=2, dd_node_limit=6_000, resume=True)
    # work of another solver version (which rows fit the limit changes with the search) is
    # never mixed into a run
    m = load_manifest(path)
    m["dd"]["solver_version"] = SOLVER_VERSION - 1
    write_manifest(path, m)
    with pytest.raises(SimulationError, match="dd.solver_version"):
        run(path, deals=4, chunk_size=2, dd_node_limit=5_000, resume=True)
    with pytest.raises(SimulationError,
                       match=r"run has double-dummy columns \(--dd\), now --dd is not given"):
        run(path, deals=4, chunk_size=2, dd=False, resume=True)
    plain = tmp_path / "plain"
    run(plain, deals=4, chunk_size=2, dd=False)
    with pytest.raises(SimulationError, match="run has no double-dummy columns, now --dd"):
        run(plain, deals=4, chunk_size=2, dd_node_limit=5_000, resume=True)
    # a manifest written before the dd option existed (no "dd" key) resumes without --dd
    m = load_manifest(plain)
    del m["dd"]
    write_manifest(plain, m)
    assert run(plain, deals=4, chunk_size=2, dd=False, resume=True)["status"] == "complete"


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"rules": Rules(players=3)}, "need four-player deals"),
        ({"dd_node_limit": 0}, "node limit must be a whole number >= 1, got 0"),
        ({"dd_node_limit": 2.5}, "node limit must be a whole number >= 1"),
        ({"dd": False, "dd_node_limit": 10}, "node limit was given without dd"),
        ({"dd": False, "dd_min_node_limit": 10}, "node limit was given without dd"),
        ({"dd_min_node_limit": 0}, "node limit must be a whole number >= 1, got 0"),
    ],
)
def test_bad_dd_options_are_refused(tmp_path, kw, message):
    with pytest.raises(SimulationError, match=message):
        run(tmp_path / "run", **kw)
    assert not (tmp_path / "run").exists()


def test_dd_columns_function():
    a = play_batch(SEED, 0, 3, RULES, ["heuristic"] * 4, ["heuristic"] * 4)
    hands = [a[f"hand_{s}"] for s in range(4)]
    trump = a["trump"].copy()
    leader = a["declarer"].copy()
    trump[1] = leader[1] = -1  # as if deal 1 were thrown in
    one = dd_columns(hands, trump, leader, 20_000, threads=1)
    two = dd_columns(hands, trump, leader, 20_000, threads=2)
    assert list(one) == dd_column_names()
    for c in one:
        np.testing.assert_array_equal(one[c], two[c])
        assert one[c][1] == -1 and one[c].dtype == np.int8
    with pytest.raises(DDColumnsError, match="four-player deals"):
        dd_columns(hands[:3], trump, leader, 1000)
    bad = leader.copy()
    bad[0] = -1
    with pytest.raises(DDColumnsError, match="deal 0: trump .* disagree"):
        dd_columns(hands, trump, bad, 1000)
    with pytest.raises(DDColumnsError, match="one value per deal"):
        dd_columns(hands, trump[:2], leader, 1000)


D = ["--deals", "3", "--seed", "1"]


@pytest.mark.parametrize(
    "args, message",
    [
        ([*D, "--dd", "--players", "3"], "double-dummy columns need four players"),
        ([*D, "--dd-node-limit", "1000"], "--dd-node-limit needs --dd"),
        ([*D, "--dd-min-node-limit", "1000"], "--dd-min-node-limit needs --dd"),
        ([*D, "--dd", "--dd-min-node-limit", "0"], "0 is not in the range x>=1"),
        ([*D, "--dd", "--dd-node-limit", "0"], "0 is not in the range x>=1"),
        ([*D, "--dd", "--dd-node-limit", "many"], "'many' is not a valid integer"),
    ],
)
def test_cli_errors(tmp_path, args, message):
    r = CliRunner().invoke(main, ["simulate", *args, "--out", str(tmp_path / "run"),
                                  "--no-progress"])
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert not (tmp_path / "run").exists()


def test_cli_resume_mismatch_names_the_dd_option(tmp_path):
    args = ["simulate", *D, "--out", str(tmp_path / "run"), "--dd", "--dd-node-limit", "3000",
            "--no-progress"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert "unsolved (over the node limit of 3,000 card plays" in r.output
    r = CliRunner().invoke(main, [*args[:-3], "--dd-node-limit", "4000", "--resume",
                                  "--no-progress"])
    assert r.exit_code == 1
    assert "dd.node_limit: run 3000, now 4000" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["simulate", *D, "--out", str(tmp_path / "two"), "--dd",
                                  "--dd-node-limit", "3000", "--dd-min-node-limit", "500",
                                  "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "over the node limits of 3,000 / 500 card plays" in r.output
    assert load_manifest(tmp_path / "two")["dd"]["min_node_limit"] == 500


def test_compile_notice_comes_after_the_checks(tmp_path, monkeypatch):
    # a first --dd run compiles the solver for a minute or two: simulate tells its notify why,
    # but only once every option has been checked (a refused run never waits for a compile)
    import whist_sim.dd as dd_pkg

    calls = []

    def fake_warm_up(notify):
        calls.append(1)
        if notify is not None:
            notify("compiling")

    monkeypatch.setattr(dd_pkg, "warm_up", fake_warm_up)
    path = tmp_path / "run"
    run(path, deals=2, chunk_size=1, dd_node_limit=2_000)
    with pytest.raises(SimulationError, match="dd.node_limit"):
        run(path, deals=2, chunk_size=1, dd_node_limit=3_000, resume=True, notify=print)
    assert calls == [1]
    notes = []
    run(tmp_path / "second", deals=2, chunk_size=1, dd_node_limit=2_000, notify=notes.append)
    assert notes == ["compiling"]
    # a finished run has nothing left to solve: no compile
    run(tmp_path / "second", deals=2, chunk_size=1, dd_node_limit=2_000, resume=True,
        notify=notes.append)
    assert notes == ["compiling"]


@pytest.mark.parametrize(("rate", "shown"), [(0.23, "0.23 deals/s"), (3.5, "3.5 deals/s"),
                                             (1234.0, "1,234 deals/s")])
def test_cli_summary_shows_slow_rates(tmp_path, monkeypatch, rate, shown):
    # a --dd run makes a few deals a second: the summary must not round that to "0 deals/s"
    from whist_sim.interfaces.cli import cmd_simulate

    def fake_simulate(options, **kw):
        return {"timings": {"wall_s": 9.0, "deals_per_s": rate}, "deals_done": options.deals,
                "n_chunks": 1, "sessions": []}

    monkeypatch.setattr(cmd_simulate, "simulate", fake_simulate)
    r = CliRunner().invoke(main, ["simulate", *D, "--out", str(tmp_path / "run"), "--dd",
                                  "--no-progress"])
    assert r.exit_code == 0, r.output
    assert f"(9.0 s, {shown})" in r.output
