"""Shared test fixtures (small and generic)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


def _chunk_bytes(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(Path(directory).glob("chunk-*.parquet"))}


@pytest.fixture
def chunk_bytes() -> Callable[[Path], dict[str, bytes]]:
    """``chunk_bytes(dir)``: the bytes of every ``chunk-*.parquet`` file of a dataset, by name."""
    return _chunk_bytes
