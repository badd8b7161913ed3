"""The executor layer (whist_sim.runs.executors): dynamic hand-out, bounded in-flight, errors."""

from __future__ import annotations

import threading
import time

import pytest

from whist_sim.runs.executors import (
    IN_FLIGHT_PER_SLOT,
    ExecutorError,
    ThreadExecutor,
    make_executor,
    parse_cluster,
)


def square(x: int) -> int:
    return x * x


def test_thread_executor_runs_every_item_once():
    with ThreadExecutor(3) as ex:
        got = list(ex.map_unordered(square, range(50)))
    assert sorted(got) == [(i, i * i) for i in range(50)]
    assert ex.description == "threads:3" and ex.slots() == 3


def test_thread_executor_keeps_a_bounded_number_in_flight():
    pulled = 0
    max_ahead = 0
    consumed = 0

    def items():
        nonlocal pulled
        for i in range(40):
            pulled += 1
            yield i

    ex = ThreadExecutor(2)
    for _ in ex.map_unordered(square, items()):
        consumed += 1
        max_ahead = max(max_ahead, pulled - consumed)
    assert consumed == 40
    assert max_ahead <= IN_FLIGHT_PER_SLOT * 2


def test_thread_executor_runs_in_parallel_threads():
    seen = set()
    barrier = threading.Barrier(2, timeout=10)

    def task(i):
        seen.add(threading.get_ident())
        barrier.wait()  # deadlocks (and times out) unless two tasks run at once
        return i

    assert sorted(i for i, _ in ThreadExecutor(2).map_unordered(task, range(4))) == [0, 1, 2, 3]
    assert len(seen) == 2


def test_thread_executor_error_propagates_and_stops_handing_out():
    started = []

    def task(i):
        started.append(i)
        if i == 3:
            raise RuntimeError("chunk 3 broke")
        time.sleep(0.01)
        return i

    with pytest.raises(RuntimeError, match="chunk 3 broke"):
        list(ThreadExecutor(2).map_unordered(task, range(1000)))
    assert len(started) < 50


def test_closing_the_iteration_cancels_queued_tasks():
    started = []

    def task(i):
        started.append(i)
        return i

    it = ThreadExecutor(2).map_unordered(task, range(1000))
    next(it)
    it.close()  # what Ctrl-C in the consumer does
    time.sleep(0.05)
    assert len(started) <= 1 + IN_FLIGHT_PER_SLOT * 2


def test_executor_options_are_checked():
    with pytest.raises(ExecutorError, match="threads must be a whole number >= 1"):
        ThreadExecutor(0)
    with pytest.raises(ExecutorError, match="not both"):
        make_executor(scheduler="tcp://127.0.0.1:1", cluster="local:2")
    with pytest.raises(ExecutorError, match="threads cannot be set"):
        make_executor(threads=2, scheduler="tcp://127.0.0.1:1")
    assert parse_cluster("local:3") == 3
    for bad in ("local:0", "local", "remote:2", "local:x"):
        with pytest.raises(ExecutorError, match="use local:N"):
            parse_cluster(bad)
    assert isinstance(make_executor(threads=2), ThreadExecutor)
