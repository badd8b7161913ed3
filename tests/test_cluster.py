"""Dask cluster runs with a real LocalCluster of worker processes on the loopback.

Identity: a cluster run writes byte-for-byte the chunk files of the embedded run, whatever the
number of workers. Faults: a worker killed mid-run loses and duplicates no chunk; an aborted
cluster run resumes (here on local threads) to the identical dataset.
"""

from __future__ import annotations

import math
import operator
import os
import signal

import pytest

from whist_sim.runs.dataset import load_manifest
from whist_sim.runs.executors import DaskExecutor
from whist_sim.runs.simulate import simulate

distributed = pytest.importorskip("distributed")

SEED = 11
DEALS = 60_000
CHUNK = 6_000  # 10 chunks, each long enough (tens of ms) to be running when a worker dies


def _transitions(dask_scheduler) -> list[tuple[str, str, str]]:
    """(key, from, to) of the scheduler's task transitions for chunk tasks so far."""
    return [(str(t[0]), t[1], t[2]) for t in dask_scheduler.transition_log
            if "run_chunk" in str(t[0])]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        # no dashboard; the scheduler's health/metrics HTTP server on a free loopback port,
        # not the fixed default 8787 (which a second cluster on this machine would find taken)
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )
    c = distributed.Client(cluster)
    c.wait_for_workers(2, timeout=60)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    path = tmp_path_factory.mktemp("embedded") / "run"
    simulate(path, DEALS, SEED, chunk_size=CHUNK, threads=2, progress=False)
    return path


def test_dask_executor_maps_every_item(client):
    ex = DaskExecutor(client=client)
    assert ex.slots() == 2
    assert sorted(ex.map_unordered(operator.neg, range(20))) == [(i, -i) for i in range(20)]
    with pytest.raises(ValueError, match="math domain error"):
        list(ex.map_unordered(math.sqrt, [4, -1, 9]))


def test_cluster_run_writes_the_embedded_files(client, embedded, tmp_path, chunk_bytes):
    ref = chunk_bytes(embedded)
    assert len(ref) == DEALS // CHUNK
    m = simulate(tmp_path / "run", DEALS, SEED, chunk_size=CHUNK, progress=False,
                 executor=DaskExecutor(client=client))
    assert m["status"] == "complete" and m["sessions"][0]["executor"].startswith("dask:")
    assert chunk_bytes(tmp_path / "run") == ref
    # on one worker only: the same bytes again
    one = DaskExecutor(client=client, workers=sorted(client.nthreads())[:1])
    assert one.slots() == 1
    simulate(tmp_path / "one", DEALS, SEED, chunk_size=CHUNK, progress=False, executor=one)
    assert chunk_bytes(tmp_path / "one") == ref


def test_aborted_cluster_run_resumes_to_the_same_dataset(client, embedded, tmp_path, chunk_bytes):
    path = tmp_path / "run"
    seen = []

    def abort(receipt):
        seen.append(receipt.index)
        if len(seen) == 3:
            raise KeyboardInterrupt  # what Ctrl-C does on the client

    with pytest.raises(KeyboardInterrupt):
        simulate(path, DEALS, SEED, chunk_size=CHUNK, progress=False,
                 executor=DaskExecutor(client=client), on_chunk=abort)
    assert load_manifest(path)["status"] == "interrupted"
    m = simulate(path, DEALS, SEED, chunk_size=CHUNK, threads=2, progress=False, resume=True)
    assert m["status"] == "complete" and m["deals_done"] == DEALS
    assert chunk_bytes(path) == chunk_bytes(embedded)


def test_killed_worker_loses_and_duplicates_nothing(client, embedded, tmp_path, chunk_bytes):
    """Kill one worker process after the first chunk: Dask reschedules its tasks."""
    ex = DaskExecutor(client=client)
    pids = ex.worker_pids()
    assert len(pids) == 2
    victim = sorted(pids.values())[0]
    finished = []

    def kill_once(receipt):
        finished.append(receipt.index)
        if len(finished) == 1:
            os.kill(victim, signal.SIGKILL)

    before = client.run_on_scheduler(_transitions)
    m = simulate(tmp_path / "run", DEALS, SEED, chunk_size=CHUNK, progress=False, executor=ex,
                 on_chunk=kill_once)
    log = client.run_on_scheduler(_transitions)[len(before):]
    rescheduled = {key for key, old, new in log if old == "processing" and new != "memory"}
    assert rescheduled  # the killed worker was running (or holding) chunks: they were run again
    assert sorted(finished) == list(range(DEALS // CHUNK))  # every chunk reported exactly once
    assert m["status"] == "complete" and m["chunks_done"] == DEALS // CHUNK
    assert victim not in ex.worker_pids().values()
    assert chunk_bytes(tmp_path / "run") == chunk_bytes(embedded)
    assert not list((tmp_path / "run").glob(".tmp-*"))


@pytest.mark.slow
def test_bench_cluster_reports_three_rates():
    from whist_sim.analyses.bench.cluster import bench_cluster

    rates = bench_cluster(deals=4_000, chunk_size=1_000, threads=2)
    assert set(rates) == {"embedded", "cluster_1w", "cluster_2w"}
    assert all(r > 0 for r in rates.values())
