"""Datasets prove their integrity: every chunk carries its run identity (seed, options hash,
chunk index) in its Parquet metadata and its checksum in the manifest, and every reader
(``load``, ``iter_chunks``, ``report``, ``export``) and ``--resume`` verify each chunk they read.
One test per kind of damage: each is refused in one line naming the file and what is wrong, and
``--resume`` plays the damaged chunk again, back to the bytes of the undamaged run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from whist_sim.interfaces.cli import main
from whist_sim.runs.dataset import (
    CHUNK_META_KEY,
    DatasetError,
    UnverifiedChunksWarning,
    chunk_name,
    iter_chunks,
    load,
    load_manifest,
    manifest_path,
    write_manifest,
)
from whist_sim.runs.simulate import simulate

OPTS = dict(bid="random", play="random", chunk_size=20, progress=False)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("integrity") / "run"
    simulate(out, 60, 7, **OPTS)
    return out


@pytest.fixture
def run(pristine, tmp_path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(pristine, out)
    return out


def chunk(run: Path, i: int) -> Path:
    return run / chunk_name(i)


def refused(run: Path, *fragments: str) -> str:
    """Every reader refuses the dataset with the same one-line reason naming the file."""
    with pytest.raises(DatasetError) as e:
        load(run)
    text = str(e.value)
    assert "\n" not in text
    for f in fragments:
        assert f in text, text
    with pytest.raises(DatasetError):
        for _ in iter_chunks(run, columns=["score_0"]):
            pass
    for args in (["report", str(run), "--no-progress"],
                 ["export", str(run), "--pbn", str(run.parent / "out.pbn")]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 1
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
        assert all(f in lines[0] for f in fragments), lines[0]
    return text


def resumed_to_pristine(run: Path, pristine: Path) -> None:
    m = simulate(run, 60, 7, resume=True, **OPTS)
    assert m["status"] == "complete"
    for i in range(3):
        assert chunk(run, i).read_bytes() == chunk(pristine, i).read_bytes()
    assert load(run).equals(load(pristine))


def test_a_sound_dataset_records_identity_and_checksums(pristine):
    m = load_manifest(pristine)
    assert sorted(m["chunks"]) == [chunk_name(i) for i in range(3)]
    info = json.loads(pq.read_schema(chunk(pristine, 1)).metadata[CHUNK_META_KEY])
    assert info["chunk"] == 1 and info["start"] == 20 and info["seed"] == 7
    assert len(info["options"]) == 16
    assert len(load(pristine)) == 60


def test_a_flipped_byte(run, pristine):
    data = bytearray(chunk(run, 1).read_bytes())
    data[len(data) // 3] ^= 0x01
    chunk(run, 1).write_bytes(bytes(data))
    refused(run, chunk_name(1), "checksum")
    resumed_to_pristine(run, pristine)


def test_a_truncated_chunk(run, pristine):
    data = chunk(run, 2).read_bytes()
    chunk(run, 2).write_bytes(data[: len(data) - 100])
    refused(run, chunk_name(2), "checksum")
    resumed_to_pristine(run, pristine)


def test_swapped_chunks(run, pristine):
    a, b = chunk(run, 0).read_bytes(), chunk(run, 1).read_bytes()
    chunk(run, 0).write_bytes(b)
    chunk(run, 1).write_bytes(a)
    refused(run, chunk_name(0), "it is chunk 1", "not chunk 0")
    resumed_to_pristine(run, pristine)


def test_a_duplicated_chunk(run, pristine):
    shutil.copyfile(chunk(run, 0), chunk(run, 2))
    refused(run, chunk_name(2), "it is chunk 0", "not chunk 2")
    resumed_to_pristine(run, pristine)


def test_a_foreign_chunk(run, pristine, tmp_path):
    other = tmp_path / "other"
    simulate(other, 60, 8, **OPTS)  # another seed, the same options
    shutil.copyfile(chunk(other, 1), chunk(run, 1))
    refused(run, chunk_name(1), "seed 8, not 7")
    resumed_to_pristine(run, pristine)
    third = tmp_path / "third"
    simulate(third, 60, 7, **{**OPTS, "bid": "heuristic"})  # the same seed, other options
    shutil.copyfile(chunk(third, 1), chunk(run, 1))
    refused(run, chunk_name(1), "other options")


def test_edited_values(run, pristine):
    table = pq.read_table(chunk(run, 1))
    i = table.schema.get_field_index("score_0")
    table = table.set_column(i, table.schema.field(i), pc.add(table.column(i), 1).cast("int16"))
    pq.write_table(table, chunk(run, 1))  # its metadata (identity, place) kept
    refused(run, chunk_name(1), "checksum")
    resumed_to_pristine(run, pristine)


@pytest.mark.parametrize("edit, fragment", [
    ({"n_chunks": 2}, "n_chunks"),
    ({"n_chunks": "3"}, "n_chunks"),
    ({"seed": 8}, "seed 7, not 8"),
    ({"rules": {"zero_over": 30}}, "other options"),
    ({"deals": 50}, "deals"),
    ({"status": "done"}, "status"),
    ({"chunks": {"chunk-00009.parquet": {}}}, "chunk-00009"),
])
def test_an_edited_manifest(run, edit, fragment):
    m = load_manifest(run)
    rules = m["rules"]
    m.update(edit)
    if "rules" in edit:
        m["rules"] = {**rules, **edit["rules"]}
    write_manifest(run, m)  # the edit, in the manifest a run writes (_manifest.parquet)
    assert manifest_path(run) == run / "_manifest.parquet"
    refused(run, fragment)


def test_a_missing_chunk(run, pristine):
    chunk(run, 1).unlink()
    refused(run, "incomplete", chunk_name(1), "missing")
    assert len(load(run, partial=True)) == 40
    resumed_to_pristine(run, pristine)


def test_a_checksum_dropped_from_the_manifest_of_a_finished_run(run):
    m = load_manifest(run)
    del m["chunks"][chunk_name(2)]
    write_manifest(run, m)
    refused(run, chunk_name(2), "no checksum")


def test_an_older_dataset_without_checksums_is_read_with_a_warning(run, pristine):
    # the manifest of the versions before checksums: plain JSON in _manifest.json
    m = load_manifest(run)
    del m["chunks"]
    (run / "_manifest.parquet").unlink()
    (run / "_manifest.json").write_text(json.dumps(m))
    assert manifest_path(run) == run / "_manifest.json"
    with pytest.warns(UnverifiedChunksWarning, match="without chunk checksums"):
        assert load(run).equals(load(pristine))
    # --resume records them (and adds no chunk), in the manifest of this version
    m = simulate(run, 60, 7, resume=True, **OPTS)
    assert m["chunks"] == load_manifest(pristine)["chunks"]
    assert manifest_path(run) == run / "_manifest.parquet"
    assert not (run / "_manifest.json").exists()
    assert load_manifest(run)["chunks"] == m["chunks"]


def test_export_refuses_an_event_tag_of_two_lines(pristine, tmp_path):
    r = CliRunner().invoke(main, ["export", str(pristine), "--pbn", str(tmp_path / "a.pbn"),
                                  "--event", "line one\nline two"])
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "--event" in lines[0]
    assert not (tmp_path / "a.pbn").exists()


def test_a_folder_deleted_during_a_run_is_said_so(tmp_path):
    from whist_sim.runs.simulate import SimulationError

    out = tmp_path / "run"

    def delete(receipt):
        # moved away at once, then deleted: a chunk the worker thread is writing meanwhile
        # lands in the moved folder instead of racing the deletion
        gone = tmp_path / "gone"
        out.rename(gone)
        shutil.rmtree(gone, ignore_errors=True)

    with pytest.raises(SimulationError, match="disappeared during the run") as e:
        simulate(out, 60, 7, **{**OPTS, "threads": 1}, on_chunk=delete)
    assert "cluster" not in str(e.value) and "shared" not in str(e.value)
