"""``--resume`` trusts no chunk it cannot prove: a chunk whose checksum the manifest does not
record (a dataset written before chunk checksums, a manifest whose ``chunks`` field was removed,
a finished run whose manifest lost an entry) is moved aside as ``<chunk>.unverified`` and played
again. The copy is removed when the fresh play proves it the same table, and kept (never deleted)
when it differs; the dataset ends equal to a fresh run's either way, and a warning says so."""

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
    MANIFEST_NAME,
    chunk_name,
    load,
    load_manifest,
    write_manifest,
)
from whist_sim.runs.simulate import simulate

OPTS = dict(bid="random", play="random", chunk_size=20, progress=False)
DEALS, SEED = 60, 7
ARGS = ["--deals", str(DEALS), "--seed", str(SEED), "--policy", "random", "--play", "random",
        "--chunk-size", "20", "--no-progress"]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("unverified") / "fresh"
    simulate(out, DEALS, SEED, **OPTS)
    return out


@pytest.fixture
def run(fresh, tmp_path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(fresh, out)
    return out


def edit_values(path: Path) -> None:
    """Change one column's values, keeping the chunk's metadata (identity, place): it passes
    every structural check, and only a checksum (or a fresh play) shows it."""
    table = pq.read_table(path)
    i = table.schema.get_field_index("score_0")
    table = table.set_column(i, table.schema.field(i), pc.add(table.column(i), 1).cast("int16"))
    pq.write_table(table, path)


def drop_checksums(run: Path, json_manifest: bool = False) -> None:
    m = load_manifest(run)
    del m["chunks"]
    if json_manifest:  # the manifest of the versions before checksums: plain JSON
        (run / MANIFEST_NAME).unlink()
        (run / "_manifest.json").write_text(json.dumps(m))
    else:
        write_manifest(run, m)


def same_as_fresh(run: Path, fresh: Path) -> None:
    for i in range(3):
        assert (run / chunk_name(i)).read_bytes() == (fresh / chunk_name(i)).read_bytes()
    assert load(run).equals(load(fresh))
    assert load_manifest(run)["chunks"] == load_manifest(fresh)["chunks"]


def test_resume_without_checksums_plays_an_edited_chunk_again(run, fresh, caplog):
    drop_checksums(run)
    edit_values(run / chunk_name(1))
    edited = (run / chunk_name(1)).read_bytes()
    m = simulate(run, DEALS, SEED, resume=True, **OPTS)
    assert m["status"] == "complete"
    same_as_fresh(run, fresh)  # the edited values are not kept
    # the edited file is kept aside, never deleted; the others were proven and their copies go
    assert (run / "chunk-00001.parquet.unverified").read_bytes() == edited
    assert sorted(p.name for p in run.glob("*.unverified*")) == ["chunk-00001.parquet.unverified"]
    session = m["sessions"][-1]
    assert session["chunks"] == 3  # every unproven chunk was played again
    assert session["unverified"] == {"same": 2, "differ": ["chunk-00001.parquet.unverified"]}
    assert [e["moved_to"] for e in session["moved_aside"]] == [
        f"{chunk_name(i)}.unverified" for i in range(3)]
    text = caplog.text
    assert "no checksum in the manifest" in text and "played again" in text
    assert "chunk-00001.parquet.unverified differs from a fresh play" in text


def test_an_unedited_older_dataset_resumes_to_the_same_files_and_no_copies(run, fresh):
    drop_checksums(run, json_manifest=True)
    m = simulate(run, DEALS, SEED, resume=True, **OPTS)
    assert m["sessions"][-1]["unverified"] == {"same": 3, "differ": []}
    same_as_fresh(run, fresh)
    assert not list(run.glob("*.unverified*"))
    assert (run / MANIFEST_NAME).is_file() and not (run / "_manifest.json").exists()


def test_a_finished_run_whose_manifest_lost_one_checksum(run, fresh):
    m = load_manifest(run)
    del m["chunks"][chunk_name(2)]
    write_manifest(run, m)
    edit_values(run / chunk_name(2))
    m = simulate(run, DEALS, SEED, resume=True, **OPTS)
    assert m["sessions"][-1]["chunks"] == 1  # the chunks with their checksums are kept
    same_as_fresh(run, fresh)
    assert (run / "chunk-00002.parquet.unverified").is_file()


def test_the_command_line_says_what_it_does(run, fresh):
    drop_checksums(run, json_manifest=True)
    edit_values(run / chunk_name(0))
    r = CliRunner().invoke(main, ["simulate", *ARGS, "--out", str(run), "--resume"])
    assert r.exit_code == 0, r.output
    said = [line for line in r.stderr.splitlines() if line.startswith("whist-sim: ")]
    assert any("3 chunk(s)" in line and "no checksum in the manifest" in line
               and "played again" in line for line in said), r.stderr
    assert any("chunk-00000.parquet.unverified differs from a fresh play" in line
               for line in said), r.stderr
    same_as_fresh(run, fresh)


def test_a_copy_left_by_an_interrupted_resume_is_settled_by_the_next(run, fresh):
    drop_checksums(run)
    edit_values(run / chunk_name(1))

    def stop(receipt):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(run, DEALS, SEED, resume=True, threads=1, on_chunk=stop, **OPTS)
    assert (run / "chunk-00001.parquet.unverified").is_file()
    simulate(run, DEALS, SEED, resume=True, **OPTS)
    same_as_fresh(run, fresh)
    # the edited copy stays, the proven ones went
    assert sorted(p.name for p in run.glob("*.unverified*")) == ["chunk-00001.parquet.unverified"]
