"""The simulation runner (interface D): invariance, resume, refusals, corrupt chunks, manifest."""

from __future__ import annotations

import json
import logging

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from whist_sim import __version__
from whist_sim.compiled.entry.batch import play_batch
from whist_sim.compiled.ground._numba import engine_fingerprint
from whist_sim.core.rules import Rules
from whist_sim.runs.dataset import chunk_name, load, load_manifest, write_manifest
from whist_sim.runs.simulate import SimulationError, discard_stale_run, simulate

DEALS = 2_500


def run(path, **kw):
    kw.setdefault("deals", DEALS)
    kw.setdefault("seed", 7)
    kw.setdefault("progress", False)
    kw.setdefault("play", "heuristic")  # the runs compared with play_batch play heuristic cards
    return simulate(path, **kw)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """One uninterrupted run (chunks of 400, 2 threads) the other runs are compared with."""
    path = tmp_path_factory.mktemp("ref") / "run"
    manifest = run(path, chunk_size=400, threads=2)
    return path, manifest


def frame(path) -> pd.DataFrame:
    df = load(path)
    df.attrs = {}
    return df


# --------------------------------------------------------------------------- identity


def test_rows_are_the_kernel_results_in_deal_order(reference):
    """ENGINE.md §3: deal i of a run is played from stream (seed, i), dealer i % P."""
    path, _ = reference
    df = frame(path)
    direct = play_batch(7, 0, DEALS, Rules(), ["heuristic"] * 4, ["heuristic"] * 4)
    pd.testing.assert_frame_equal(df, pd.DataFrame(direct))
    assert (df["dealer"] == df["deal"] % 4).all()


def test_chunk_size_does_not_change_the_dataset(reference, tmp_path):
    ref = frame(reference[0])
    for size in (DEALS, 999):
        run(tmp_path / str(size), chunk_size=size, threads=2)
        pd.testing.assert_frame_equal(frame(tmp_path / str(size)), ref)
    run(tmp_path / "one", deals=30, chunk_size=1, threads=2)
    assert len(list((tmp_path / "one").glob("chunk-*.parquet"))) == 30
    pd.testing.assert_frame_equal(frame(tmp_path / "one"), ref.iloc[:30])


def test_thread_count_does_not_change_the_files(reference, tmp_path, chunk_bytes):
    ref = chunk_bytes(reference[0])
    assert len(ref) == 7  # 2500 deals in chunks of 400
    run(tmp_path / "t1", chunk_size=400, threads=1)
    run(tmp_path / "t3", chunk_size=400, threads=3)
    assert chunk_bytes(tmp_path / "t1") == ref
    assert chunk_bytes(tmp_path / "t3") == ref


def test_policies_and_rules_change_the_data(reference, tmp_path):
    ref = frame(reference[0])
    m = run(tmp_path / "p", deals=500, chunk_size=500, bid="heuristic", play="random")
    assert m["bid"] == ["heuristic"] * 4 and m["play"] == ["random"] * 4
    df = frame(tmp_path / "p")
    head = ref.iloc[:500]
    # same bidding, same deal: the contracts agree; the play differs
    assert (df["contract_0"] == head["contract_0"]).all()
    assert not (df["tricks_0"] == head["tricks_0"]).all()
    direct = play_batch(7, 0, 500, Rules(), ["heuristic"] * 4, ["random"] * 4)
    pd.testing.assert_frame_equal(df, pd.DataFrame(direct))
    m = run(tmp_path / "s", deals=300, chunk_size=100,
            bid=("heuristic", "random", "heuristic", "random"), play=None)
    assert m["play"] == ["learned", "random", "learned", "random"]  # the default play; random
    # is a whole random player


def test_three_players_and_store_dealt(tmp_path):
    """RULES §8 (three players: seats 0..2) and §3 (Frisch changes the hands as dealt)."""
    rules = Rules(players=3, three_player_deck="one_random")
    m = run(tmp_path / "r3", deals=600, chunk_size=250, rules=rules, store_dealt=True)
    assert m["rules"]["players"] == 3 and m["store_dealt"] is True
    df = load(tmp_path / "r3")
    assert "hand_3" not in df.columns and "dealt_2" in df.columns
    assert (df["dealer"] == df["deal"] % 3).all()
    assert (df["removed_card"] >= 0).all()  # one_random removes one card each deal
    no_frisch = df["frisch"] == 0
    for s in range(3):
        assert (df.loc[no_frisch, f"dealt_{s}"] == df.loc[no_frisch, f"hand_{s}"]).all()
    if (~no_frisch).any():
        changed = np.zeros(len(df), dtype=bool)
        for s in range(3):
            changed |= (df[f"dealt_{s}"] != df[f"hand_{s}"]).to_numpy()
        assert changed[~no_frisch.to_numpy()].all()


# --------------------------------------------------------------------------- manifest


def test_manifest_content(reference):
    path, m = reference
    assert load_manifest(path) == m
    stored = pq.read_schema(path / "_manifest.parquet").metadata[b"whist_sim.manifest"]
    assert json.loads(stored) == m
    assert m["format"] == "whist-sim-dataset" and m["package_version"] == __version__
    assert m["status"] == "complete"
    assert (m["seed"], m["deals"], m["chunk_size"], m["n_chunks"]) == (7, DEALS, 400, 7)
    assert m["deals_done"] == DEALS and m["chunks_done"] == 7
    assert m["rules"] == Rules().to_dict()
    assert m["bid"] == ["heuristic"] * 4 and m["play"] == ["heuristic"] * 4
    assert m["store_dealt"] is False
    (session,) = m["sessions"]
    assert session["executor"] == "threads:2"
    assert session["chunks"] == 7 and session["deals"] == DEALS
    assert session["wall_s"] > 0 and m["timings"]["deals_per_s"] > 0
    assert load(path, columns=["deal"]).attrs["manifest"] == m


# --------------------------------------------------------------------------- resume


def interrupt_after(n: int):
    seen = []

    def on_chunk(receipt):
        seen.append(receipt.index)
        if len(seen) == n:
            raise KeyboardInterrupt

    return on_chunk


def test_interrupted_run_resumes_to_the_identical_dataset(reference, tmp_path, chunk_bytes):
    path = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run(path, chunk_size=400, threads=1, on_chunk=interrupt_after(2))
    m = load_manifest(path)
    assert m["status"] == "interrupted"
    partial = chunk_bytes(path)
    assert 2 <= len(partial) < 7
    with pytest.raises(Exception, match="incomplete"):
        load(path)

    redone = []
    m = run(path, chunk_size=400, threads=2, resume=True, on_chunk=lambda r: redone.append(r.index))
    assert m["status"] == "complete" and m["deals_done"] == DEALS
    assert sorted(redone) == [i for i in range(7) if chunk_name(i) not in partial]  # none twice
    assert len(m["sessions"]) == 2 and m["sessions"][1]["chunks"] == len(redone)
    assert chunk_bytes(path) == chunk_bytes(reference[0])

    # resuming a complete run does nothing: not even a session is added to its manifest
    redone.clear()
    before = (path / "_manifest.parquet").read_bytes()
    m = run(path, chunk_size=400, resume=True, on_chunk=lambda r: redone.append(r.index))
    assert redone == [] and m["status"] == "complete" and len(m["sessions"]) == 2
    assert (path / "_manifest.parquet").read_bytes() == before


def test_resume_refuses_different_options_naming_them(reference, tmp_path):
    path = tmp_path / "run"
    run(path, deals=300, chunk_size=100)
    with pytest.raises(SimulationError) as e:
        run(path, deals=300, chunk_size=100, seed=8, rules=Rules(zero_over=30), resume=True)
    msg = str(e.value)
    assert "seed: run 7, now 8" in msg and "rules.zero_over: run 25, now 30" in msg
    assert "deals" not in msg.replace("deals=", "")  # only the differing options are named
    for kw, name in (({"deals": 301}, "deals"), ({"chunk_size": 50}, "chunk_size"),
                     ({"play": "random"}, "play"), ({"store_dealt": True}, "store_dealt")):
        args = {"deals": 300, "chunk_size": 100, **kw}
        with pytest.raises(SimulationError, match=f"{name}: run"):
            run(path, resume=True, **args)


def test_a_run_of_other_engine_code_is_neither_resumed_nor_reused(reference, tmp_path):
    path = tmp_path / "run"
    run(path, deals=300, chunk_size=100)
    m = load_manifest(path)
    assert m["engine"] == engine_fingerprint()
    assert not discard_stale_run(path) and path.is_dir()  # this code's run: kept
    m["engine"] = "0123456789abcdef"  # as if written before an edit of a strategy
    write_manifest(path, m)
    with pytest.raises(SimulationError, match="engine: the run was written by other engine"):
        run(path, deals=300, chunk_size=100, resume=True)
    (path / "notes.txt").write_text("mine")  # a file that is not the run's: nothing is deleted
    assert not discard_stale_run(path) and (path / "notes.txt").is_file()
    (path / "notes.txt").unlink()
    assert discard_stale_run(path) and not path.exists()
    run(path, deals=300, chunk_size=100, resume=True)  # simulated again, as new
    assert load(path).shape[0] == 300


def test_corrupt_chunk_is_moved_aside_and_replayed(reference, tmp_path, chunk_bytes, caplog):
    path = tmp_path / "run"
    run(path, chunk_size=400)
    good = chunk_bytes(path)
    bad = path / chunk_name(3)
    bad.write_bytes(good[chunk_name(3)][:1000])  # truncated: e.g. a disk full
    (path / chunk_name(5)).unlink()  # missing
    (path / ".tmp-chunk-00005.parquet.123.abc").write_bytes(b"half written")
    redone = []
    with caplog.at_level(logging.WARNING, logger="whist_sim"):
        m = run(path, chunk_size=400, resume=True, on_chunk=lambda r: redone.append(r.index))
    assert sorted(redone) == [3, 5]
    assert chunk_bytes(path) == good
    assert "chunk-00003.parquet is invalid (unreadable: " in caplog.text
    kept = path / "chunk-00003.parquet.corrupt"
    assert kept.read_bytes() == good[chunk_name(3)][:1000]  # user data is never deleted
    assert m["sessions"][-1]["moved_aside"][0]["file"] == "chunk-00003.parquet"
    assert not list(path.glob(".tmp-*"))


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"deals": 0}, "deals must be in 1..1000000000000, got 0"),
        ({"deals": 2.5}, "deals must be a whole number"),
        ({"chunk_size": 0}, "chunk size must be >= 1, got 0"),
        ({"seed": -1}, "seed must be in 0..18446744073709551615"),
        ({"threads": 0}, "threads must be >= 1"),
        ({"bid": "clever"}, "unknown bidding policy 'clever' for seat 0; known bidding policies"),
        ({"play": ["random"] * 3 + ["nope"]}, "unknown play policy 'nope' for seat 3"),
        ({"bid": ["random"] * 4, "rules": Rules(players=3)}, "players=3 needs one per seat"),
        ({"play": ["random"] * 3}, "play policies name 3 seat"),
    ],
)
def test_bad_options_are_refused_clearly(tmp_path, kw, message):
    with pytest.raises(SimulationError, match=message.replace("(", r"\(").replace(".", r"\.")):
        run(tmp_path / "run", **kw)
    assert not (tmp_path / "run").exists()  # nothing written for a refused run


def test_output_directory_checks(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(SimulationError, match="not empty and holds no whist-sim run.*notes.txt"):
        run(other, deals=10)
    with pytest.raises(SimulationError, match="not empty and holds no whist-sim run"):
        run(other, deals=10, resume=True)
    assert (other / "notes.txt").read_text() == "mine"
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(SimulationError, match="exists and is not a directory"):
        run(afile, deals=10)
    done = tmp_path / "done"
    run(done, deals=10, chunk_size=5)
    with pytest.raises(SimulationError, match="already holds a whist-sim run.*--resume"):
        run(done, deals=10, chunk_size=5)
    # --resume on a new (or empty) directory simply starts the run
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(empty, deals=10, chunk_size=5, resume=True)["status"] == "complete"
