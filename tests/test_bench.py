"""Smoke test of the speed benchmark (tiny budget; no timing assertions)."""

import json

import pytest
from click.testing import CliRunner

from whist_sim.analyses.bench import (
    SECTIONS,
    BenchContext,
    bench_section,
    format_results,
    run_bench,
)
from whist_sim.interfaces.cli import main

REQUIRED = ("random_1t", "heuristic_1t", "random_all", "heuristic_all", "reference_1t",
            "compile_s", "random_vs_reference")


def test_bench_json_has_the_agreed_keys():
    result = CliRunner().invoke(main, ["bench", "--json", "--seconds", "0.05", "--threads", "2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in REQUIRED:
        assert key in data
        assert data[key] > 0
    assert data["threads"] == 2


def test_bench_text_output_and_sections():
    result = CliRunner().invoke(main, ["bench", "--seconds", "0.02", "--only", "compile"])
    assert result.exit_code == 0, result.output
    assert "compile_s" in result.output and "random_1t" not in result.output


def test_bench_rejects_bad_input():
    runner = CliRunner()
    bad = runner.invoke(main, ["bench", "--only", "nonsense"])
    assert bad.exit_code != 0 and "nonsense" in bad.output
    assert runner.invoke(main, ["bench", "--seconds", "0"]).exit_code != 0
    with pytest.raises(ValueError, match="seconds"):
        run_bench(seconds=-1)


def test_a_section_can_be_added():
    @bench_section("test_extra", default=False, help="a test section")
    def _extra(ctx: BenchContext):
        return {"extra_rate": ctx.threads * 1.0, "saw_compile": "compile_s" in ctx.results}

    try:
        out = run_bench(seconds=0.01, threads=1, only=["compile", "test_extra"])
        assert out["extra_rate"] == 1.0 and out["saw_compile"] is True
        assert "test_extra" not in [n for n, s in SECTIONS.items() if s.default]
    finally:
        SECTIONS.pop("test_extra", None)


def test_text_output_gives_each_figure_its_unit():
    text = format_results({
        "random_1t": 1234.0, "dd_bridge_median_ms": 12.34, "dd_whist_max_batch_100k_x4_hours": 1.84,
        "dd_whist_max_batch_unsolved_share": 0.08, "dd_whist_max_batch_vs_dds_bridge": 1.01,
        "dd_whist_max_batch_unsolved_mean_range": 1.24, "dd_node_limit": 1e6,
    })
    lines = dict(line.split(None, 1) for line in text.splitlines())
    assert lines["random_1t"] == "1,234 deals/s"
    assert lines["dd_bridge_median_ms"] == "12.3 ms"
    assert lines["dd_whist_max_batch_100k_x4_hours"] == "1.8 h"
    assert lines["dd_whist_max_batch_unsolved_share"] == "8%"
    assert lines["dd_whist_max_batch_vs_dds_bridge"] == "1.01x"
    assert lines["dd_whist_max_batch_unsolved_mean_range"] == "1.24 tricks"
    assert lines["dd_node_limit"] == "1,000,000"


def test_the_play_section_times_every_play_policy():
    """``bench --only play``: deals/s of each registered play policy and its ratio to heuristic
    play in the same run; not part of the default run."""
    from whist_sim.compiled.strategies import play_names

    data = run_bench(seconds=0.01, only=["play"])
    for name in play_names():
        assert data[f"play_{name}_1t"] > 0
        assert data[f"play_{name}_vs_heuristic"] > 0
    assert data["play_heuristic_vs_heuristic"] == 1.0
    assert data["play_rollout_infer_1t"] > 0 and data["play_rollout_infer_vs_rollout"] > 0
    assert 1.0 <= data["play_rollout_infer_ess"] <= 128.0  # of a pool of 8 x 16 layouts
    assert not SECTIONS["play"].default


def test_fixed_size_sections_scale_with_the_budget_below_the_default():
    """``dd`` solves fixed counts of deals: the full counts at the default ``--seconds``, fewer
    in proportion below it (never fewer than the floor), never more above it."""
    from whist_sim.analyses.bench import DEFAULT_SECONDS
    from whist_sim.core.rules import Rules

    def ctx(seconds):
        return BenchContext(seconds=seconds, threads=1, rules=Rules())

    assert ctx(DEFAULT_SECONDS).scaled(20, 2) == 20
    assert ctx(4 * DEFAULT_SECONDS).scaled(100, 4) == 100
    assert ctx(DEFAULT_SECONDS / 2).scaled(100, 4) == 50
    assert ctx(0.05).scaled(20, 2) == 2 and ctx(0.05).scaled(100, 4) == 4


def test_the_dd_section_solves_fewer_deals_on_a_small_budget():
    out = run_bench(seconds=0.05, threads=1, only=["dd"])
    assert out["dd_deals"] == 2 and out["dd_whist_max_batch_deals"] == 4
    assert out["dd_bridge_median_ms"] > 0


def test_the_check_cost_section_sets_each_check_beside_its_answer():
    """``bench --only check_cost``: a bid chart's and a tournament's time, their checks' times
    and the ratios, measured in one run (tiny sizes and a two-rollout check here; the section
    runs the README's sizes and is not part of the default run)."""
    from whist_sim.analyses.bench.check_cost import bench_check_cost

    out = bench_check_cost(threads=1, play="rollout:n=2", chart_sizes=(10, 4, 2000),
                           tournament_deals=200)
    assert out["check_bid_chart_check_vs_chart"] == pytest.approx(
        out["check_bid_chart_check_s"] / out["check_bid_chart_s"])
    assert out["check_tournament_check_vs_tournament"] == pytest.approx(
        out["check_tournament_check_s"] / out["check_tournament_s"])
    assert out["check_bid_chart_checked_cells"] + out["check_bid_chart_screened_cells"] > 0
    assert out["check_tournament_check_deals"] >= 1
    assert not SECTIONS["check_cost"].default
    lines = dict(line.split(None, 1) for line in format_results(out).splitlines())
    assert lines["check_bid_chart_check_vs_chart"].endswith("x")
    assert "deals/s" not in lines["check_bid_chart_checked_cells"]
