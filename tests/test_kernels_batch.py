"""play_batch (interface B): result schema (interface C), reproducibility, policy registry and
bad-input errors of the compiled engine."""

import numpy as np
import pytest

from whist_sim.compiled.entry.batch import play_batch, play_traces
from whist_sim.compiled.strategies.registry import (
    PolicyError,
    describe,
    get_info,
    policy_names,
    seat_ids,
)
from whist_sim.core.rules import Rules

R4, H4 = ("random",) * 4, ("heuristic",) * 4

DTYPES = {"deal": np.int64, "dealer": np.int8, "declarer": np.int8, "trump": np.int8,
          "level": np.int8, "frisch": np.int8, "thrown_in": np.bool_, "n_calls": np.int16,
          "removed_card": np.int8, "bid_sum": np.int8, "over": np.bool_}
SEAT_DTYPES = {"hand": np.uint64, "contract": np.int8, "tricks": np.int8, "score": np.int16,
               "dealt": np.uint64}


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, three_player_deck="one_random")],
                         ids=str)
def test_schema(rules):
    p = rules.players
    res = play_batch(5, 10, 50, rules, ("heuristic",) * p, ("random",) * p, store_dealt=True)
    expected = set(DTYPES) | {f"{k}_{s}" for k in SEAT_DTYPES for s in range(p)}
    assert set(res) == expected
    for k, v in res.items():
        assert len(v) == 50
        dt = DTYPES.get(k) or SEAT_DTYPES[k.rsplit("_", 1)[0]]
        assert v.dtype == dt, k
    assert (res["deal"] == np.arange(10, 60)).all()
    assert (res["dealer"] == res["deal"] % p).all()  # ENGINE §3: dealer of deal i = i % P
    ok = ~res["thrown_in"]
    contracts = np.stack([res[f"contract_{s}"] for s in range(p)])
    tricks = np.stack([res[f"tricks_{s}"] for s in range(p)])
    assert (contracts[:, ok].sum(0) == res["bid_sum"][ok]).all()
    assert (tricks[:, ok].sum(0) == rules.n_tricks).all()  # RULES §5, §8
    assert (res["over"][ok] == (res["bid_sum"][ok] > rules.n_tricks)).all()
    if rules.three_player_deck == "one_random" and p == 3:
        assert (res["removed_card"] >= 0).all()
    assert "dealt_0" not in play_batch(5, 10, 5, rules, ("random",) * p, ("random",) * p)


def test_thrown_in_conventions():
    res = play_batch(3, 0, 20000, Rules(), H4, H4)
    t = res["thrown_in"]
    assert t.any()
    assert (res["declarer"][t] == -1).all() and (res["trump"][t] == -1).all()
    assert (res["level"][t] == 0).all() and (res["bid_sum"][t] == -1).all()
    assert (res["frisch"][t] == 3).all() and not res["over"][t].any()
    for s in range(4):
        assert (res[f"contract_{s}"][t] == -1).all() and (res[f"tricks_{s}"][t] == -1).all()
        assert (res[f"score_{s}"][t] == 0).all()


def test_results_do_not_depend_on_batching():
    # deal i depends only on (seed, i)
    whole = play_batch(99, 0, 300, Rules(), ("heuristic", "random") * 2, R4)
    parts = [play_batch(99, a, b - a, Rules(), ("heuristic", "random") * 2, R4)
             for a, b in ((0, 1), (1, 120), (120, 300))]
    for k in whole:
        assert (whole[k] == np.concatenate([p[k] for p in parts])).all(), k
    again = play_batch(99, 0, 300, Rules(), ("heuristic", "random") * 2, R4)
    assert all((whole[k] == again[k]).all() for k in whole)


def test_traces_match_batch():
    rules = Rules(frisch_directions="left,across,right")
    res = play_batch(4, 7, 40, rules, H4, R4)
    tr = play_traces(4, 7, 40, rules, H4, R4)
    assert (tr["declarer"] == res["declarer"]).all() and (tr["n_calls"] == res["n_calls"]).all()
    for s in range(4):
        assert (tr["hands"][:, s] == res[f"hand_{s}"]).all()
        assert (tr["scores"][:, s] == res[f"score_{s}"]).all()


def test_zero_deals():
    res = play_batch(1, 0, 0, Rules(), R4, R4)
    assert all(len(v) == 0 for v in res.values())


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"bid": ("random",) * 3}, "3 name"),
        ({"play": ("random", "random", "random", "bogus")}, "bogus"),
        ({"bid": "random"}, "sequence"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"start": -5}, "start"),
        ({"count": 1.5}, "count"),
    ],
)
def test_bad_input_is_named(kwargs, match):
    args = {"seed": 1, "start": 0, "count": 3, "rules": Rules(), "bid": R4, "play": R4} | kwargs
    with pytest.raises((ValueError, PolicyError), match=match):
        play_batch(**args)


def test_rules_must_be_rules():
    with pytest.raises(TypeError, match="Rules"):
        play_batch(1, 0, 3, {"players": 4}, R4, R4)


def test_registry():
    # the built-ins come first with stable ids; later strategies append theirs
    assert policy_names("bid")[:2] == ["random", "heuristic"] == policy_names("play")[:2]
    assert get_info("heuristic", "bid").id == 1 and get_info("random", "play").id == 0
    assert (seat_ids(["heuristic", "random", "random"], "play", 3) == [1, 0, 0]).all()
    assert {"random", "heuristic"} <= {row["name"] for row in describe()}
    for kind in ("bid", "play"):
        ids = [get_info(n, kind).id for n in policy_names(kind)]
        assert len(set(ids)) == len(ids)  # ids are unique per kind
    with pytest.raises(PolicyError, match="kind"):
        policy_names("cards")


@pytest.mark.parametrize("players, store_dealt", [(4, False), (4, True), (3, True)])
def test_columns_are_the_dataset_schema(players, store_dealt):
    # interface C is documented and owned by whist_sim/runs/dataset.py: same names, order and dtypes
    from whist_sim.runs.dataset import columns

    rules = Rules(players=players)
    res = play_batch(2, 0, 4, rules, ("random",) * players, ("heuristic",) * players,
                     store_dealt=store_dealt)
    assert [(k, v.dtype) for k, v in res.items()] == [
        (name, np.dtype(dt)) for name, dt in columns(players, store_dealt)]
