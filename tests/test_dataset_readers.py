"""A dataset folder is a Parquet dataset any reader opens; older datasets still load and resume;
the manifest records the library versions; one run at a time writes a folder."""

from __future__ import annotations

import json
import os

import pandas as pd
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest

from whist_sim.runs.dataset import (
    LEGACY_MANIFEST_NAME,
    LOCK_NAME,
    MANIFEST_NAME,
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
    assert MANIFEST_NAME.startswith("_")


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


def test_an_older_dataset_loads_and_resumes(tmp_path):
    path = tmp_path / "old"
    run(path)
    df = load(path)
    # the layout of earlier versions: manifest.json, and one chunk still to play
    os.replace(path / MANIFEST_NAME, path / LEGACY_MANIFEST_NAME)
    (path / "chunk-00002.parquet").unlink()
    m = json.loads((path / LEGACY_MANIFEST_NAME).read_text())
    assert load_manifest(path)["deals"] == DEALS
    assert len(load(path, partial=True)) == 2 * CHUNK
    with pytest.raises(SimulationError, match="already holds a whist-sim run"):
        run(path)
    resumed = run(path, resume=True)
    assert resumed["seed"] == m["seed"] and resumed["status"] == "complete"
    assert not (path / LEGACY_MANIFEST_NAME).exists() and (path / MANIFEST_NAME).is_file()
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

    from whist_sim.cli import main
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
