"""The advisor under a searching play policy: every bid is screened with the base
policy on the sampled deals, and only the best few per strain are searched on the *same* deals.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from whist_sim import advise
from whist_sim.analyses.advisor import AdviceError
from whist_sim.interfaces.cli import main

HAND = "AKQ2.K3.QJ54.872"
ROLL = "rollout:n=4"
ARGS = dict(trump="S", declarer=3, bids="6", deals=24, seed=5)


@pytest.fixture(scope="module")
def screened():
    return advise(HAND, play=ROLL, screen=2, **ARGS)


def test_the_searched_bids_are_the_base_policys_best_per_strain(screened):
    base = advise(HAND, play="expert", **ARGS)
    t = screened.table
    assert t["searched"].sum() == 2
    best_two = base.table["ev"].sort_values(ascending=False, kind="stable").index[:2]
    assert set(t.index[t["searched"]]) == set(best_two)
    # the bids left out keep the base policy's numbers, on the same deals
    out = t.index[~t["searched"]]
    cols = ["ev", "p_make", "e_tricks"]
    assert np.allclose(t.loc[out, cols].to_numpy(), base.table.loc[out, cols].to_numpy())
    assert screened.screen_play == "expert" and screened.screen == 2


def test_a_searched_bid_is_played_as_if_every_bid_were_searched(screened):
    full = advise(HAND, play=ROLL, screen=0, **ARGS)
    assert full.table["searched"].all() and full.screen == 0
    rows = screened.table.index[screened.table["searched"]]
    cols = ["ev", "p_make", "e_tricks", "p_over"]
    assert np.allclose(screened.table.loc[rows, cols].to_numpy(),
                       full.table.loc[rows, cols].to_numpy())


def test_only_a_searched_bid_is_recommended(screened):
    t = screened.table
    assert t.loc[screened.recommended, "searched"]
    assert screened.runner_up is None or t.loc[screened.runner_up, "searched"]
    assert screened.recommended == t.index[t["searched"]][np.argmax(t["ev"][t["searched"]])]


def test_auction_mode_screens_per_strain():
    a = advise(HAND, play=ROLL, screen=1, deals=12, seed=3)
    kept = a.table["searched"].groupby(level="strain").sum()
    assert (kept == 1).all()
    for strain, r in a.strains.iterrows():
        assert a.table.loc[(strain, int(r["bid"])), "searched"]


def test_screening_a_policy_that_does_not_search_is_refused():
    with pytest.raises(AdviceError, match="searching play policy"):
        advise(HAND, play="expert", screen=3, **ARGS)
    advise(HAND, play="expert", screen=0, **ARGS)  # no screening: allowed


def test_cli_json_names_the_screen_and_the_searched_bids():
    r = CliRunner().invoke(main, ["advise", HAND, "--trump", "S", "--declarer", "3",
                                  "--bids", "6", "--deals", "16", "--play", ROLL, "--json",
                                  "--no-progress"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["screen"] == {"play": "expert", "kept_per_strain": 3}
    assert sum(b["searched"] for b in out["bids"]) == 3
    r = CliRunner().invoke(main, ["advise", HAND, "--trump", "S", "--deals", "16", "--json"])
    assert json.loads(r.stdout)["screen"] is None
    r = CliRunner().invoke(main, ["advise", HAND, "--trump", "S", "--deals", "16",
                                  "--screen", "2"])
    assert r.exit_code == 2 and "--screen" in r.output and "Traceback" not in r.output
