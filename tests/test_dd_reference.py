"""Bridge mode against the reference double-dummy solver, DDS (Bo Haglund's).

Two layers:

* pinned tables: full 13-card deals whose tables were computed with DDS (through the ``endplay``
  package, version 0.5.12, ``calc_dd_table``); they run everywhere;
* live comparison (skipped unless ``endplay`` is installed: ``pip install whist-sim[dds]``): random
  endings and full deals solved by both.

Table convention (the bridge world's): ``table[X][d]`` = tricks of declarer ``d``'s side in strain
``X`` when the player on ``d``'s left leads. Trick play is RULES §5.
"""

from __future__ import annotations

import numpy as np
import pytest

from whist_sim.core.cards import format_hand, parse_deal
from whist_sim.dd import bridge_table, solve_batch

# (deal, DDS table). The first is a classic symmetric layout, the second a random deal
# (numpy default_rng(2026), second draw).
PINNED = [
    (
        "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
        {"C": [5, 7, 5, 7], "D": [7, 5, 7, 5], "H": [5, 7, 5, 7], "S": [7, 5, 7, 5],
         "NT": [5, 5, 5, 5]},
    ),
    (
        "N:53.754.Q862.AQ93 KJ987.J93.A95.86 AQ.QT.KJT43.JT54 T642.AK862.7.K72",
        {"C": [9, 3, 9, 3], "D": [10, 3, 10, 3], "H": [4, 9, 4, 9], "S": [4, 9, 4, 9],
         "NT": [7, 6, 7, 6]},
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("deal", "table"), PINNED)
def test_pinned_dds_tables(deal, table):
    assert bridge_table(parse_deal(deal)) == table


def _dds():
    return pytest.importorskip("endplay.dds"), pytest.importorskip("endplay.types")


def _dds_table(pbn: str) -> dict[str, list[int]]:
    dds, types = _dds()
    t = dds.calc_dd_table(types.Deal(pbn))
    denoms = {"C": types.Denom.clubs, "D": types.Denom.diamonds, "H": types.Denom.hearts,
              "S": types.Denom.spades, "NT": types.Denom.nt}
    players = [types.Player.north, types.Player.east, types.Player.south, types.Player.west]
    return {k: [t[v, players[d]] for d in range(4)] for k, v in denoms.items()}


def _dds_solves(pbn: str) -> dict[str, list[int]]:
    """The same table from one DDS solve per strain and declarer (``calc_dd_table`` assumes full
    13-card hands, so endings go through ``analyse_start``)."""
    dds, types = _dds()
    denoms = {"C": types.Denom.clubs, "D": types.Denom.diamonds, "H": types.Denom.hearts,
              "S": types.Denom.spades, "NT": types.Denom.nt}
    players = [types.Player.north, types.Player.east, types.Player.south, types.Player.west]
    return {
        k: [dds.analyse_start(types.Deal(pbn, first=players[(d + 1) % 4], trump=v))
            for d in range(4)]
        for k, v in denoms.items()
    }


def _random_hands(rng, cards):
    perm = rng.permutation(52)[: 4 * cards]
    hands = []
    for s in range(4):
        m = 0
        for c in perm[s * cards : (s + 1) * cards]:
            m |= 1 << int(c)
        hands.append(m)
    return hands


def test_live_dds_endings():
    # random endings of 5..8 cards per hand, every strain and declarer
    _dds()
    rng = np.random.default_rng(7)
    for i in range(24):
        hands = _random_hands(rng, 5 + i % 4)
        pbn = "N:" + " ".join(format_hand(h) for h in hands)
        assert bridge_table(hands) == _dds_solves(pbn), pbn


@pytest.mark.slow
def test_live_dds_full_deal():
    _dds()
    rng = np.random.default_rng(11)
    hands = _random_hands(rng, 13)
    pbn = "N:" + " ".join(format_hand(h) for h in hands)
    # NT and spades rows only, to keep the test short (a full table is 20 solves)
    ref = _dds_table(pbn)
    rows = np.array([hands] * 8, dtype=np.uint64)
    trump = np.array([4] * 4 + [3] * 4, dtype=np.int8)
    declarer = np.array([0, 1, 2, 3] * 2, dtype=np.int8)
    got = solve_batch(rows, trump, (declarer + 1) % 4, "bridge", declarer, threads=1)
    assert list(got[:4]) == ref["NT"], pbn
    assert list(got[4:]) == ref["S"], pbn
