"""The docs cannot drift from what they describe (docs/CONTRIBUTING.md, "Standards"): every
generated block of the README and docs/ (``scripts/make_docs.py``, ``make docs``) is what its
source renders now, and a stale block, or a block whose markers are missing, is found."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def make_docs():
    path = ROOT / "scripts" / "make_docs.py"
    spec = importlib.util.spec_from_file_location("make_docs", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_docs", mod)
    spec.loader.exec_module(mod)
    return mod


def test_no_generated_block_is_stale(make_docs):
    assert make_docs.stale(ROOT) == [], "run make docs"


def test_every_block_sits_in_its_file_once(make_docs):
    names = [b.name for b in make_docs.BLOCKS]
    assert len(set(names)) == len(names)
    for block in make_docs.BLOCKS:
        text = (ROOT / block.file).read_text(encoding="utf-8")
        assert text.count(block.begin) == 1 and text.count(block.end) == 1, block.name


def _copy(make_docs, tmp_path: Path) -> Path:
    """The files the blocks live in and are rendered from (every results/ source of a block),
    copied under ``tmp_path``."""
    results = [b.source for b in make_docs.BLOCKS if b.source.startswith("results/")]
    for name in ("README.md", "docs", *results, "whist_sim", "scripts"):
        src, dst = ROOT / name, tmp_path / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, dst)
    return tmp_path


def test_an_edited_source_makes_its_block_stale_and_make_docs_renews_it(make_docs, tmp_path):
    root = _copy(make_docs, tmp_path)
    report = root / "results" / "tournament" / "report.md"
    report.write_text(report.read_text(encoding="utf-8").replace("| 14.07 |", "| 14.08 |", 1),
                      encoding="utf-8")
    assert make_docs.stale(root) == ["tournament-field (README.md)"]
    assert make_docs.stale(root, write=True) == ["tournament-field (README.md)"]
    assert "14.08 (+14.00 to +14.13)" in (root / "README.md").read_text(encoding="utf-8")
    assert make_docs.stale(root) == []


def test_a_block_edited_by_hand_is_stale(make_docs, tmp_path):
    root = _copy(make_docs, tmp_path)
    engine = root / "docs" / "ENGINE.md"
    engine.write_text(engine.read_text(encoding="utf-8").replace("| `wins` |", "| `win` |"),
                      encoding="utf-8")
    assert make_docs.stale(root) == ["learned-features (docs/ENGINE.md)"]


def test_a_missing_marker_is_an_error_naming_the_file(make_docs, tmp_path):
    root = _copy(make_docs, tmp_path)
    engine = root / "docs" / "ENGINE.md"
    engine.write_text(engine.read_text(encoding="utf-8").replace("<!-- end: learned-features -->",
                                                                 ""), encoding="utf-8")
    with pytest.raises(ValueError, match="docs/ENGINE.md: expected the markers of block "
                                         "'learned-features'"):
        make_docs.stale(root)
