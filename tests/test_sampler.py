"""The one sampler of hidden hands (whist_sim.compiled.ground.sampler): invariants as property
tests, exact uniformity against an enumeration of the layouts, determinism for a fixed stream.

RULES §5: a seat that did not follow a suit holds none of it, so a sampled layout gives it none;
every seat holds as many cards as it has; cards known to be somewhere (the Frisch cards a seat
passed, RULES §3) stay there; with the ``one_random`` deck one card is out of play (RULES §8).
"""

from __future__ import annotations

import collections
import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs
from scipy import stats as sps

from whist_sim.compiled.ground.rng import stream_start
from whist_sim.compiled.ground.sampler import NO_LAYOUT, TAB_SIZE, W_NEED, WORK_SIZE, deal_pool

ALPHA = 1e-4  # chi-square threshold: a correct sampler fails it at a fixed seed with p = 1e-4


class Pool:
    """Python driver of :func:`deal_pool` on one problem: ``p`` seats, ``pool`` (cards),
    ``pinned`` and ``need`` per seat, ``voids`` as a set of (seat, suit)."""

    def __init__(self, p, pool, pinned, need, voids=()):
        self.p = p
        self.pool = np.uint64(sum(1 << c for c in pool) | sum(pinned))
        self.pinned = list(pinned)
        self.need = list(need)
        self.voids = np.int64(sum(1 << (4 * s + t) for s, t in set(voids)))
        self.work = np.zeros(WORK_SIZE, dtype=np.int64)
        self.tab = np.zeros(TAB_SIZE, dtype=np.float64)
        self.out = np.zeros(8, dtype=np.uint64)
        self.rng = np.zeros(1, dtype=np.uint64)

    def start(self, seed: int, deal: int = 0) -> None:
        self.rng[0] = stream_start(np.uint64(seed), np.uint64(deal))

    def draw(self, fresh: bool = True) -> tuple[tuple[int, ...], int]:
        """One layout: the hands and the leftover mask (``NO_LAYOUT`` when there is none)."""
        for s in range(self.p):
            self.out[s] = self.pinned[s]
            self.work[W_NEED + s] = self.need[s]
        left = deal_pool(self.p, self.pool, self.out, 0, self.voids, self.work, self.tab, fresh,
                         self.rng)
        return tuple(int(self.out[s]) for s in range(self.p)), int(left)


def suit_of(c: int) -> int:
    return c // 13


def layouts(p, pool, pinned, need, voids):
    """Every layout meeting the conditions, as (hands, leftover mask), by enumeration."""
    cards = sorted(set(pool) - {c for m in pinned for c in range(52) if m >> c & 1})
    rem = [need[s] - pinned[s].bit_count() for s in range(p)]
    places = [s for s in range(p) for _ in range(rem[s])] + [p] * (len(cards) - sum(rem))
    found = set()
    for perm in set(itertools.permutations(places)):
        hands = list(pinned)
        left = 0
        ok = True
        for c, s in zip(cards, perm, strict=True):
            if s == p:
                left |= 1 << c
            elif (s, suit_of(c)) in voids:
                ok = False
                break
            else:
                hands[s] |= 1 << c
        if ok:
            found.add((tuple(hands), left))
    return found


# --------------------------------------------------------------------------- invariants


@hs.composite
def problems(draw):
    """A random problem that has at least one layout: a true layout is drawn first, and the
    voids, pinned cards and needs are read off it."""
    p = draw(hs.integers(3, 4))
    spare = draw(hs.integers(0, 1)) if p == 3 else 0
    cards = draw(hs.lists(hs.integers(0, 51), min_size=1, max_size=40, unique=True))
    owner = [draw(hs.integers(0, p - 1 + (1 if spare else 0))) for _ in cards]
    if spare and p not in owner:
        owner[-1] = p
    if spare:  # one leftover card at most
        first = owner.index(p)
        owner = [o if o != p or i == first else 0 for i, o in enumerate(owner)]
    hands = [sum(1 << c for c, o in zip(cards, owner, strict=True) if o == s) for s in range(p)]
    pinned = [sum(1 << c for c in range(52)
                  if h >> c & 1 and draw(hs.booleans(), label="pin")) for h in hands]
    voids = set()
    for s in range(p):
        for t in range(4):
            if hands[s] & (0x1FFF << 13 * t) == pinned[s] & (0x1FFF << 13 * t) and draw(
                    hs.booleans(), label="void"):
                voids.add((s, t))
    return p, cards, pinned, [h.bit_count() for h in hands], voids


def _check_layout(p, cards, pinned, need, voids, hands, left):
    union = 0
    for s in range(p):
        assert hands[s].bit_count() == need[s], "needs met"
        assert hands[s] & pinned[s] == pinned[s], "pinned cards stay"
        assert union & hands[s] == 0, "no card twice"
        union |= hands[s]
        for t in range(4):
            if (s, t) in voids:
                assert hands[s] & ~pinned[s] & (0x1FFF << 13 * t) == 0, "no card of a void"
    pool = sum(1 << c for c in cards)
    assert union & left == 0 and union | left == pool, "every card once, or left over"
    assert left.bit_count() == len(cards) - sum(need)


@settings(max_examples=150, deadline=None)
@given(problem=problems(), seed=hs.integers(0, 2**64 - 1))
def test_layouts_meet_what_is_known(problem, seed):
    """Every pool card dealt exactly once or left over; needs met; no card of a shown void;
    pinned cards where they belong; the same stream gives the same layouts."""
    p, cards, pinned, need, voids = problem
    places = sum(1 for s in range(p) if need[s] > pinned[s].bit_count()) + (
        len(cards) > sum(need))
    d = Pool(p, cards, pinned, need, voids)
    d.start(seed)
    got = [d.draw(fresh=i == 0) for i in range(5)]
    for hands, left in got:
        if left == NO_LAYOUT:  # only when a void binds with more than four places
            assert places > 4
            continue
        _check_layout(p, cards, pinned, need, voids, list(hands), left)
    d.start(seed)
    assert [d.draw(fresh=True) for _ in range(5)] == got, "deterministic, table reused or not"


# --------------------------------------------------------------------------- exact law


def _chi2_uniform(counts: collections.Counter, support: set) -> float:
    assert set(counts) <= support, "only layouts that meet the conditions"
    obs = np.array([counts.get(x, 0) for x in sorted(support)], dtype=float)
    return float(sps.chisquare(obs).pvalue)


def test_no_void_is_uniform_and_pinned():
    """Without voids every layout is equally likely (210 = 7! / (3! 2! 2!) minus a pinned card)."""
    pool = [0, 1, 2, 13, 14, 26, 27, 40]
    pinned, need = [0, 1 << 40, 0], [3, 3, 2]
    support = layouts(3, pool, pinned, need, set())
    d = Pool(3, pool, pinned, need)
    d.start(11)
    counts = collections.Counter(d.draw() for _ in range(30 * len(support)))
    assert len(support) == 210
    assert _chi2_uniform(counts, support) > ALPHA


def test_voids_keep_the_layouts_uniform():
    """With voids (seat 0 has shown none of clubs, seat 1 none of hearts) and a leftover card,
    the sampled layouts are uniform over exactly those meeting the voids."""
    pool = [0, 1, 2, 13, 14, 26, 27, 39]
    voids = {(0, 0), (1, 2)}
    need = [3, 2, 2]
    support = layouts(3, pool, [0, 0, 0], need, voids)
    d = Pool(3, pool, [0, 0, 0], need, voids)
    d.start(12)
    counts = collections.Counter(d.draw(fresh=False) if i else d.draw() for i in range(
        40 * len(support)))
    assert _chi2_uniform(counts, support) > ALPHA


def test_two_bound_suits_and_four_seats():
    """Three receiving seats and a void in two suits each: still uniform over the support."""
    pool = [0, 1, 2, 13, 14, 15, 26, 27, 39, 40]
    voids = {(1, 0), (2, 1), (3, 0), (3, 2)}
    need = [0, 4, 3, 3]
    support = layouts(4, pool, [0, 0, 0, 0], need, voids)
    d = Pool(4, pool, [0, 0, 0, 0], need, voids)
    d.start(13)
    counts = collections.Counter(d.draw() for _ in range(30 * len(support)))
    assert _chi2_uniform(counts, support) > ALPHA


def test_a_suit_length_follows_the_law_under_voids():
    """A bigger problem than the enumeration can handle: 3 hidden hands of 10, clubs void at
    seat 1. Seat 2's club count is hypergeometric among the 20 places at seats 2 and 3."""
    clubs = list(range(0, 8))
    others = list(range(13, 13 + 22))
    need = [0, 10, 10, 10]
    d = Pool(4, clubs + others, [0] * 4, need, {(1, 0)})
    d.start(14)
    n = 6000
    hist = np.zeros(9, dtype=np.int64)
    for i in range(n):
        hands, _ = d.draw(fresh=i == 0)
        assert hands[1] & 0xFF == 0
        hist[(hands[2] & 0xFF).bit_count()] += 1
    law = sps.hypergeom(20, 8, 10).pmf(np.arange(9))
    keep = law * n >= 5
    obs = np.append(hist[keep], hist[~keep].sum())
    exp = np.append(law[keep], law[~keep].sum()) * n
    assert sps.chisquare(obs, exp).pvalue > ALPHA


def test_impossible_voids_say_so():
    """Every club must go to a seat void in clubs: no layout."""
    d = Pool(3, [0, 1, 13], [0, 0, 0], [0, 2, 1], {(1, 0), (2, 0)})
    d.start(1)
    assert d.draw()[1] == NO_LAYOUT
