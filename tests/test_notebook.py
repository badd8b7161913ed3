"""The example notebook (docs/examples/) runs from top to bottom on a small dataset."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "examples" / "analyse_dataset.ipynb"


def test_example_notebook_runs(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from whist_sim.runs.simulate import simulate

    data = tmp_path / "run"
    simulate(data, 300, seed=3, threads=1, progress=False)
    monkeypatch.setenv("WHIST_SIM_DATA", str(data))
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's inline backend shows charts
    root = str(Path(__file__).resolve().parents[1])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH")) if p))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("300 deals" in o.get("text", "") for o in outputs)
    html = [o for o in outputs if "data" in o and "text/html" in o["data"]]
    assert len(html) >= 3  # df.head() and the two tables
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the chart
