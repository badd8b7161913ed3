"""The double-dummy bench reports every figure it promises (tiny sizes; no timing is judged)."""

from __future__ import annotations

from whist_sim.analyses.bench.dd_solves import run_bench


def test_dd_bench_figures():
    out = run_bench(deals=2, endings=1, ending_cards=2, node_limit=2_000, batch_deals=3,
                    threads=2)
    for key in ("dd_bridge_median_ms", "dd_whist_max_mean_ms", "dd_whist_min_mean_ms",
                "dd_whist_exact_mean_ms",
                "dd_ending_median_ms", "dd_bruteforce_ending_ms", "dd_whist_max_100k_x4_hours",
                "dd_whist_max_batch_100k_x4_hours"):
        assert out[key] > 0, key
    assert out["dd_whist_max_batch_deals"] == 3
    for key in ("dd_whist_max_unsolved_share", "dd_whist_min_unsolved_share",
                "dd_whist_exact_unsolved_share",
                "dd_whist_max_batch_unsolved_share"):
        assert 0 <= out[key] <= 1, key
    # an unsolved whist-max row keeps proved bounds at least one trick apart
    assert out["dd_whist_max_batch_unsolved_share"] > 0
    assert 1 <= out["dd_whist_max_batch_unsolved_mean_range"] <= 13
    # at 2,000 card plays a full-deal whist-min solve never finishes
    assert out["dd_whist_min_unsolved_share"] == 1
    # DDS's times of the same bridge deals (timed beside this solver's) only with endplay
    try:
        import endplay  # noqa: F401
    except ImportError:
        assert "dd_bridge_vs_dds" not in out
        assert "dd_whist_max_batch_vs_dds_bridge" not in out
    else:
        for key in ("dds_bridge_median_ms", "dd_bridge_vs_dds", "dd_bridge_vs_dds_by_row",
                    "dds_bridge_batch_100k_x4_hours", "dd_whist_max_batch_vs_dds_bridge"):
            assert out[key] > 0, key
        assert out["dd_whist_max_batch_vs_dds_bridge"] == (
            out["dd_whist_max_batch_100k_x4_hours"] / out["dds_bridge_batch_100k_x4_hours"])
