"""A dataset folder is a Parquet dataset any reader opens; older datasets still load and resume;
the manifest records the library versions; one run at a time writes a folder."""

from __future__ import annotations

import json
import os

import pandas as pd
import polars as pl
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest

from whist_sim.runs.dataset import (
    JSON_MANIFEST_NAME,
    LEGACY_MANIFEST_NAME,
    LOCK_NAME,
    MANIFEST_NAME,
    DatasetError,
    load,
    load_manifest,
)
from whist_sim.runs.simulate import SimulationError, simulate

DEALS, CHUNK = 300, 100


def run(path, **kw):
    kw.setdefault("deals", DEALS)
    kw.setdefault("seed", 11)
    kw.setdefault("chunk_size", CHUNK)
    kw.setdefault("threads", 1)
    kw.setdefault("progress", False)
    return simulate(path, **kw)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    path = tmp_path_factory.mktemp("readers") / "run"
    run(path)
    return path


def test_the_manifest_is_hidden_from_parquet_readers(dataset):
    names = sorted(os.listdir(dataset))
    assert MANIFEST_NAME in names and LEGACY_MANIFEST_NAME not in names
    assert JSON_MANIFEST_NAME not in names
    assert MANIFEST_NAME.startswith("_")


def test_a_finished_folder_holds_parquet_files_only(dataset):
    # polars refuses a folder with any other file in it (hidden ones too): no lock file is left
    assert all(name.endswith(".parquet") for name in os.listdir(dataset))
    assert not (dataset / LOCK_NAME).exists()


def test_the_manifest_is_a_parquet_file_with_no_rows_and_the_datasets_columns(dataset):
    mf = pq.read_table(dataset / MANIFEST_NAME)
    assert mf.num_rows == 0
    assert mf.schema.names == list(load(dataset).columns)
    text = mf.schema.metadata[b"whist_sim.manifest"].decode()
    assert json.loads(text) == load_manifest(dataset)


def test_polars_reads_the_folder_as_it_is(dataset):
    expected = load(dataset)
    df = pl.read_parquet(dataset).sort("deal")
    assert df.height == DEALS and df.columns == list(expected.columns)
    assert df["deal"].to_list() == list(range(DEALS))
    assert df.to_pandas().equals(expected)
    assert pl.scan_parquet(dataset).select(pl.len()).collect().item() == DEALS


def test_pandas_reads_the_folder_as_one_table(dataset):
    expected = load(dataset)
    df = pd.read_parquet(dataset).sort_values("deal", ignore_index=True)
    assert len(df) == DEALS
    pd.testing.assert_frame_equal(df[list(expected.columns)], expected, check_like=False,
                                  check_dtype=True, check_index_type=False)


def test_pyarrow_dataset_reads_the_folder(dataset):
    table = pads.dataset(dataset, format="parquet").to_table()
    assert table.num_rows == DEALS
    assert sorted(table.column("deal").to_pylist()) == list(range(DEALS))
    assert pq.read_table(dataset).num_rows == DEALS


def test_versions_are_recorded(dataset):
    m = load_manifest(dataset)
    for key in ("python", "numpy", "numba", "pandas", "pyarrow", "whist_sim"):
        assert m["versions"][key]
        assert m["sessions"][-1]["versions"][key] == m["versions"][key]


@pytest.mark.parametrize("old_name", [JSON_MANIFEST_NAME, LEGACY_MANIFEST_NAME])
def test_an_older_dataset_loads_and_resumes(tmp_path, old_name):
    path = tmp_path / "old"
    run(path)
    df = load(path)
    # the layout of earlier versions: a JSON manifest, and one chunk still to play
    m = load_manifest(path)
    (path / old_name).write_text(json.dumps(m, indent=2, sort_keys=True) + "\n")
    (path / MANIFEST_NAME).unlink()
    (path / "chunk-00002.parquet").unlink()
    assert load_manifest(path) == m
    assert len(load(path, partial=True)) == 2 * CHUNK
    with pytest.raises(SimulationError, match="already holds a whist-sim run"):
        run(path)
    resumed = run(path, resume=True)
    assert resumed["seed"] == m["seed"] and resumed["status"] == "complete"
    assert not (path / old_name).exists() and (path / MANIFEST_NAME).is_file()
    pd.testing.assert_frame_equal(load(path), df)
    assert len(pd.read_parquet(path)) == DEALS


def test_a_second_run_on_a_locked_folder_is_refused(tmp_path):
    from filelock import FileLock

    path = tmp_path / "busy"
    path.mkdir()
    with FileLock(str(path / LOCK_NAME)):
        with pytest.raises(SimulationError, match="another whist-sim run is writing"):
            run(path)
    assert not (path / MANIFEST_NAME).exists()  # the refused run wrote nothing
    assert run(path)["status"] == "complete"  # the lock file alone does not block a run


def test_cluster_options_without_the_extra_name_it(tmp_path, monkeypatch):
    import importlib.util

    from click.testing import CliRunner

    from whist_sim.interfaces.cli import main
    from whist_sim.runs import executors

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "distributed" else real(name, *a))
    with pytest.raises(executors.ExecutorError, match=r"whist-sim\[cluster\]"):
        executors.check_executor_options(cluster="local:2")
    for option in (["--cluster", "local:2"], ["--scheduler", "tcp://127.0.0.1:1"]):
        r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--seed", "1", "--out",
                                      str(tmp_path / "c"), *option])
        assert r.exit_code == 1
        assert "pip install 'whist-sim[cluster]'" in r.output
        assert "Traceback" not in r.output
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("content", [b"not parquet", None])
def test_a_broken_manifest_is_refused_with_its_name(tmp_path, dataset, content):
    import shutil

    path = tmp_path / "broken"
    shutil.copytree(dataset, path)
    if content is None:  # a Parquet file without the manifest metadata
        pq.write_table(pq.read_table(path / "chunk-00000.parquet").slice(0, 0)
                       .replace_schema_metadata(None), path / MANIFEST_NAME)
    else:
        (path / MANIFEST_NAME).write_bytes(content)
    with pytest.raises(DatasetError, match="_manifest.parquet"):
        load(path)
