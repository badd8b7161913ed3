"""The dataset layer: result schema (interface C), chunk files, validation, manifest, load()."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import whist_sim
from whist_sim.core.rules import Rules
from whist_sim.runs.dataset import (
    FORMAT_NAME,
    FORMAT_VERSION,
    SCHEMA,
    DatasetError,
    arrow_schema,
    check_chunk,
    chunk_bounds,
    chunk_name,
    chunk_table,
    columns,
    iter_chunks,
    load,
    load_manifest,
    n_chunks,
    remove_temp_files,
    run_identity,
    write_chunk,
    write_manifest,
)


def fake_arrays(start: int, count: int, players: int = 4, store_dealt: bool = False) -> dict:
    """Schema-shaped arrays with values derived from the deal index (not a simulation)."""
    deal = np.arange(start, start + count, dtype=np.int64)
    out = {}
    for name, dtype in columns(players, store_dealt):
        if name == "deal":
            out[name] = deal
        elif dtype == np.bool_:
            out[name] = (deal % 3) == 0
        elif dtype == np.uint64:
            out[name] = (deal.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(12)
        else:
            out[name] = (deal % 7).astype(dtype)
    return out


def make_dataset(path, deals: int, chunk_size: int, players: int = 4, store_dealt=False) -> dict:
    path.mkdir(parents=True, exist_ok=True)
    manifest = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "seed": 1,
        "deals": deals,
        "chunk_size": chunk_size,
        "rules": Rules(players=players).to_dict(),
        "bid": ["heuristic"] * players,
        "play": ["heuristic"] * players,
        "store_dealt": store_dealt,
        "n_chunks": n_chunks(deals, chunk_size),
        "status": "complete",
    }
    manifest["chunks"] = {}
    for i in range(manifest["n_chunks"]):
        start, count = chunk_bounds(i, deals, chunk_size)
        t = chunk_table(fake_arrays(start, count, players, store_dealt), players, store_dealt, i,
                        start, run=run_identity(manifest))
        nbytes, sha = write_chunk(path / chunk_name(i), t)
        manifest["chunks"][chunk_name(i)] = {"sha256": sha, "bytes": nbytes}
    write_manifest(path, manifest)
    return manifest


# --------------------------------------------------------------------------- schema


def test_schema_columns_four_players():
    names = [n for n, _ in columns(4)]
    assert names[:9] == ["deal", "dealer", "declarer", "trump", "level", "frisch", "thrown_in",
                         "n_calls", "removed_card"]
    for base in ("hand", "contract", "tricks", "score"):
        assert [n for n in names if n.startswith(base + "_")] == [f"{base}_{s}" for s in range(4)]
    assert names[-2:] == ["bid_sum", "over"]
    assert not any(n.startswith("dealt_") for n in names)
    dt = dict(columns(4))
    assert dt["deal"] == np.int64 and dt["hand_0"] == np.uint64 and dt["score_3"] == np.int16
    assert dt["n_calls"] == np.int16 and dt["thrown_in"] == np.bool_ and dt["level"] == np.int8


def test_schema_three_players_and_store_dealt():
    """RULES §8: with three players the seat columns exist for seats 0..2 only."""
    names = [n for n, _ in columns(3, store_dealt=True)]
    assert "hand_3" not in names and "hand_2" in names
    assert [n for n in names if n.startswith("dealt_")] == ["dealt_0", "dealt_1", "dealt_2"]
    assert len(names) == 11 + 5 * 3
    with pytest.raises(ValueError, match="players"):
        columns(5)


def test_schema_is_documented():
    doc = whist_sim.runs.dataset.__doc__
    for col in SCHEMA:
        assert col.description
        shown = f"{col.name}_s" if col.per_seat else col.name
        assert shown in doc, shown
    assert arrow_schema(4).names == [n for n, _ in columns(4)]


def test_chunk_bounds_cover_every_deal_once():
    deals, size = 1003, 100
    seen = []
    for i in range(n_chunks(deals, size)):
        start, count = chunk_bounds(i, deals, size)
        seen.extend(range(start, start + count))
    assert seen == list(range(deals))
    assert n_chunks(100, 100) == 1 and n_chunks(101, 100) == 2
    assert chunk_name(7) == "chunk-00007.parquet"


def test_chunk_table_rejects_wrong_columns_and_values():
    arrays = fake_arrays(0, 10)
    del arrays["over"]
    with pytest.raises(ValueError, match="missing: over"):
        chunk_table(arrays, 4, False, 0, 0)
    arrays = fake_arrays(0, 10)
    arrays["bogus"] = np.zeros(10)
    with pytest.raises(ValueError, match="unexpected: bogus"):
        chunk_table(arrays, 4, False, 0, 0)
    arrays = fake_arrays(0, 10)
    arrays["level"] = np.full(10, 1000, dtype=np.int64)  # does not fit int8
    with pytest.raises(Exception, match="(?i)overflow|out of bounds|integer value"):
        chunk_table(arrays, 4, False, 0, 0)


# --------------------------------------------------------------------------- chunk files


def test_chunk_files_are_byte_identical_for_the_same_contents(tmp_path):
    t1 = chunk_table(fake_arrays(100, 50), 4, False, 2, 100)
    t2 = chunk_table(fake_arrays(100, 50), 4, False, 2, 100)
    write_chunk(tmp_path / "a.parquet", t1)
    write_chunk(tmp_path / "b.parquet", t2)
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    assert not list(tmp_path.glob(".tmp-*"))  # the atomic write left no temporary file


def test_check_chunk_accepts_good_and_names_problems(tmp_path):
    p = tmp_path / chunk_name(1)
    write_chunk(p, chunk_table(fake_arrays(10, 10), 4, False, 1, 10))
    assert check_chunk(p, 1, 10, 10, 4, False) is None
    assert check_chunk(tmp_path / "nothing.parquet", 0, 0, 10, 4, False) == "missing"
    assert "rows" in check_chunk(p, 1, 10, 11, 4, False)
    assert "deal column" in check_chunk(p, 1, 20, 10, 4, False)
    assert "columns" in check_chunk(p, 1, 10, 10, 4, True)
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])  # truncated
    assert check_chunk(p, 1, 10, 10, 4, False).startswith("unreadable")
    p.write_bytes(b"not parquet at all")
    assert check_chunk(p, 1, 10, 10, 4, False).startswith("unreadable")


def test_check_chunk_detects_a_flipped_data_byte(tmp_path):
    p = tmp_path / chunk_name(0)
    write_chunk(p, chunk_table(fake_arrays(0, 2000), 4, False, 0, 0))
    data = bytearray(p.read_bytes())
    data[200] ^= 0xFF  # inside the first column's data pages, well before the footer
    p.write_bytes(bytes(data))
    assert check_chunk(p, 0, 0, 2000, 4, False) is not None


def test_remove_temp_files(tmp_path):
    (tmp_path / ".tmp-chunk-00000.parquet.1.abc").write_bytes(b"x")
    (tmp_path / "keep.txt").write_text("user data")
    removed = remove_temp_files(tmp_path)
    assert [p.name for p in removed] == [".tmp-chunk-00000.parquet.1.abc"]
    assert (tmp_path / "keep.txt").exists()


# --------------------------------------------------------------------------- load


def test_load_concatenates_in_deal_order_with_manifest(tmp_path):
    manifest = make_dataset(tmp_path / "run", deals=250, chunk_size=100)
    df = load(tmp_path / "run")
    assert len(df) == 250
    assert df["deal"].tolist() == list(range(250))
    assert df.attrs["manifest"]["seed"] == manifest["seed"]
    assert df["hand_0"].dtype == np.uint64 and df["level"].dtype == np.int8
    assert df["over"].dtype == np.bool_
    expected = pd.DataFrame(fake_arrays(0, 250))
    got = df.copy()
    got.attrs = {}
    pd.testing.assert_frame_equal(got, expected)


def test_load_column_projection(tmp_path):
    make_dataset(tmp_path / "run", deals=120, chunk_size=50)
    df = load(tmp_path / "run", columns=["deal", "score_0"])
    assert list(df.columns) == ["deal", "score_0"]
    assert len(df) == 120
    with pytest.raises(DatasetError, match="unknown column.*'score_4'.*this dataset has"):
        load(tmp_path / "run", columns=["score_4"])


def test_iter_chunks_one_chunk_at_a_time(tmp_path):
    make_dataset(tmp_path / "run", deals=120, chunk_size=50, players=3, store_dealt=True)
    frames = list(iter_chunks(tmp_path / "run", columns=["deal", "dealt_2"]))
    assert [len(f) for f in frames] == [50, 50, 20]
    assert frames[2]["deal"].tolist() == list(range(100, 120))
    assert all(f.attrs["manifest"]["rules"]["players"] == 3 for f in frames)


def test_load_refuses_incomplete_runs_unless_partial(tmp_path):
    make_dataset(tmp_path / "run", deals=120, chunk_size=50)
    (tmp_path / "run" / chunk_name(1)).unlink()
    with pytest.raises(DatasetError, match="incomplete.*2 of 3.*--resume"):
        load(tmp_path / "run")
    df = load(tmp_path / "run", partial=True)
    assert df["deal"].tolist() == list(range(50)) + list(range(100, 120))


def test_load_errors_name_the_problem(tmp_path):
    with pytest.raises(DatasetError, match="no such directory"):
        load(tmp_path / "missing")
    (tmp_path / "other").mkdir()
    with pytest.raises(DatasetError, match="not a whist-sim dataset"):
        load(tmp_path / "other")
    (tmp_path / "other" / "manifest.json").write_text("{not json")
    with pytest.raises(DatasetError, match="unreadable"):
        load_manifest(tmp_path / "other")
    (tmp_path / "other" / "manifest.json").write_text(json.dumps({"format": "x"}))
    with pytest.raises(DatasetError, match="not a whist-sim dataset manifest"):
        load_manifest(tmp_path / "other")
    make_dataset(tmp_path / "run", deals=20, chunk_size=10)
    (tmp_path / "run" / chunk_name(0)).write_bytes(b"garbage")
    with pytest.raises(DatasetError, match="chunk-00000.parquet is unreadable"):
        load(tmp_path / "run")
