"""A bid chart keeps its finished tasks (``checkpoint``): interrupted after its first chart
tasks, ``resume`` finishes it to the chart of an uninterrupted run; a completed chart removes its
store; other options are refused."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from whist_sim.analyses.advisor.bidchart import ChartError, bid_chart
from whist_sim.runs.checkpoint import MANIFEST
from whist_sim.runs.executors import Executor, ThreadExecutor

OPTS = dict(hands=24, deals_per_hand=12, seed=31, chunk_size=7, progress=False)


class Breaks(Executor):
    """One local thread, which stops the run (as Ctrl-C would) after ``after`` results."""

    description = "threads:1 (breaks)"

    def __init__(self, after: int) -> None:
        self.inner, self.left = ThreadExecutor(1), after

    @property
    def slots(self) -> int:
        return 1

    def map_unordered(self, fn: Callable, items: Iterable) -> Iterator[tuple[Any, Any]]:
        for item, res in self.inner.map_unordered(fn, items):
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            yield item, res

    def close(self) -> None:
        self.inner.close()


@pytest.fixture(scope="module")
def reference():
    return bid_chart(**OPTS, threads=1)


def test_an_interrupted_chart_resumes_to_the_same_chart(reference, tmp_path):
    store = tmp_path / "chunks"
    with pytest.raises(KeyboardInterrupt):
        bid_chart(**OPTS, executor=Breaks(2), checkpoint=store)  # the screen, then one task
    assert (store / MANIFEST).is_file() and len(list(store.glob("*.npz"))) == 2
    with pytest.raises(ChartError, match="--resume"):
        bid_chart(**OPTS, threads=1, checkpoint=store)
    with pytest.raises(ChartError, match="seed"):
        bid_chart(**{**OPTS, "seed": 32}, threads=1, checkpoint=store, resume=True)
    df = bid_chart(**OPTS, threads=1, checkpoint=store, resume=True)
    pd_equal = df.reset_index(drop=True).equals(reference.reset_index(drop=True))
    assert pd_equal
    assert not store.exists()  # a finished chart keeps no store
