"""Reading the table (docs/STRATEGIES.md, "Reading the table"): a searching seat weighs each
sampled layout by ``eps ** k``, ``k`` the others' calls and contracts that the model would have
made otherwise with the layout's hands.

* the compiled count equals its readable twin on the reference engine at every kind of decision
  (auction, contracts, play; with Frisches; three players);
* the layouts a search keeps never break a void or a Frisch pass;
* on small endings, where every layout can be listed, the layouts a search keeps follow the
  exact posterior under the model (chi-square);
* the searches' parameters parse, and their choices depend only on (seed, deal) and the seating.
"""

import itertools

import numpy as np
import pytest
from scipy import stats

from whist_sim.compiled.entry.batch import play_batch, play_traces
from whist_sim.compiled.ground.layout import (
    H_DEALT,
    H_FRISCH,
    H_HAND,
    H_PLAYED,
    H_TRICK,
    HM_SIZE,
    N_PARAMS,
    PH_PLAY,
    R_DECK_MASK,
    R_DIR,
    S_NFRISCH,
    S_PHASE,
    S_REMOVED,
    S_TURN,
    S_VOIDS,
    ST_SIZE,
    new_state,
    rules_array,
    sampler_scratch,
)
from whist_sim.compiled.ground.rng import stream_start
from whist_sim.compiled.ground.sampler import Sampler
from whist_sim.compiled.loop.phases import (
    apply_call,
    apply_card,
    apply_contract,
    apply_frisch,
    begin_deal,
)
from whist_sim.compiled.search.inference import (
    MODEL_TABLE,
    Replay,
    mismatches,
    model_rows,
    resample,
)
from whist_sim.compiled.search.rollout import Draw, Drawn, draw_pool
from whist_sim.compiled.strategies import parse_play, parse_strategy
from whist_sim.compiled.strategies.registry import BID_HEURISTIC
from whist_sim.compiled.strategies.seating import Seating
from whist_sim.core.rules import Rules
from whist_sim.engine.inference import mismatches as twin_mismatches
from whist_sim.engine.state import DealState


def _replay(tr, j, rules, steps):
    """Deal ``j`` of the traces after its first ``steps`` decisions (calls, Frisch passes,
    contracts, cards), in both engines: ``(st, hm, rp, state)``."""
    p = rules.players
    rp = rules_array(rules)
    st, hm, _ = new_state()
    begin_deal(st, hm, rp, int(tr["deal"][j]), int(tr["dealer"][j]))
    for s in range(p):
        hm[H_DEALT + s] = hm[H_HAND + s] = tr["dealt"][j, s]
    st[S_REMOVED] = tr["removed_card"][j]
    state = DealState(rules, int(tr["dealer"][j]), [int(h) for h in tr["dealt"][j, :p]],
                      int(tr["removed_card"][j]))
    calls = iter(int(c) for c in tr["calls"][j, : tr["n_calls"][j]])
    plays = iter(int(c) for c in tr["plays"][j])
    frisch = 0
    for _ in range(steps):
        seat = int(st[S_TURN])
        if st[S_PHASE] == 0:
            a = next(calls)
            apply_call(st, hm, rp, seat, a)
        elif st[S_PHASE] == 1:
            a = int(tr["frisch"][j, frisch, seat])
            apply_frisch(st, hm, rp, seat, np.uint64(a))
            frisch += st[S_PHASE] == 0
        elif st[S_PHASE] == 2:
            a = int(tr["contracts"][j, seat])
            apply_contract(st, rp, seat, a)
        elif st[S_PHASE] == PH_PLAY:
            a = next(plays)
            apply_card(st, hm, rp, seat, a)
        else:
            break
        state.apply(a)
    return st, hm, rp, state


def _model(rules, bid="heuristic"):
    p = rules.players
    pol, par = _arrays([bid] * p, ["heuristic"] * p, p)
    mpol = np.empty((2, p), dtype=np.int64)
    mpar = np.zeros((2, p, N_PARAMS), dtype=np.float64)
    model_rows(pol, par, p, np.int64(MODEL_TABLE), mpol, mpar)
    return mpol, mpar


def _scratch():
    return (np.zeros(ST_SIZE, np.int64), np.zeros(HM_SIZE, np.uint64), np.zeros(1, np.uint64))


def _random_layout(hm, p, seat, rng):
    """The others' cards now, dealt again at random with each seat's count (no conditions)."""
    pool = [c for o in range(p) if o != seat for c in range(52) if int(hm[H_HAND + o]) >> c & 1]
    rng.shuffle(pool)
    lay = np.zeros(HM_SIZE, dtype=np.uint64)
    lay[H_HAND + seat] = hm[H_HAND + seat]
    i = 0
    for o in range(p):
        if o == seat:
            continue
        n = int(hm[H_HAND + o]).bit_count()
        lay[H_HAND + o] = np.uint64(sum(1 << c for c in pool[i:i + n]))
        i += n
    return lay


@pytest.mark.parametrize("rules", [
    Rules(),
    Rules(players=3, three_player_deck="one_random"),
    Rules(frisch_directions=("across", "left", "right")),
], ids=["four", "three-one_random", "across-first"])
def test_compiled_count_equals_the_readable_twin(rules):
    """At auction calls, contracts and cards (Frisch rounds included), for every seat to act and
    random layouts of the others' hands, the compiled count is the twin's."""
    p = rules.players
    tr = play_traces(11, 0, 40 if p == 4 else 200, rules, ["heuristic"] * p, ["heuristic"] * p)
    mpol, mpar = _model(rules)
    rst, rhm, rrng = _scratch()
    rng = np.random.default_rng(5)
    kinds = set()
    frisches = 0
    checked = 0
    for j in np.flatnonzero(~tr["thrown_in"]):
        total = int(tr["n_calls"][j]) + p * int(tr["n_frisch"][j]) + p + rules.n_tricks * p
        for steps in sorted(set(int(x) for x in rng.integers(1, total, 6))):
            st, hm, rp, state = _replay(tr, j, rules, steps)
            if st[S_PHASE] > PH_PLAY or st[S_PHASE] == 1:
                continue
            seat = int(st[S_TURN])
            kinds.add(int(st[S_PHASE]))
            frisches += int(st[S_NFRISCH]) > 0
            for _ in range(3):
                lay = _random_layout(hm, p, seat, rng)
                got = mismatches(st, hm, rp, seat, lay, mpol, mpar, rst, rhm, rrng)
                want = twin_mismatches(state, seat, [int(lay[H_HAND + o]) for o in range(p)])
                assert got == want, (j, steps, seat)
                checked += 1
    assert kinds == {0, 2, PH_PLAY} and checked > 150
    assert frisches > 0 or p == 3  # three players rarely pass a whole round (RULES §8)


def test_the_true_layout_explains_the_bids_of_a_model_table():
    """Every seat bids as the model: the true hands explain every call and contract (k = 0)."""
    rules = Rules()
    tr = play_traces(3, 0, 30, rules, ["heuristic"] * 4, ["heuristic"] * 4)
    mpol, mpar = _model(rules)
    rst, rhm, rrng = _scratch()
    for j in np.flatnonzero(~tr["thrown_in"]):
        st, hm, rp, _ = _replay(tr, j, rules, 200)  # to the end: the whole record
        for seat in range(4):
            lay = np.zeros(HM_SIZE, dtype=np.uint64)
            for o in range(4):
                lay[H_HAND + o] = hm[H_HAND + o]
            assert mismatches(st, hm, rp, seat, lay, mpol, mpar, rst, rhm, rrng) == 0


def test_a_model_by_name_and_searching_or_random_seats():
    """model=NAME: that strategy's defaults at every seat; montecarlo is read as the heuristic;
    a random seat tells nothing (its decisions are not counted)."""
    pol, par = _arrays(["montecarlo", "random", "hcp", "heuristic"], ["expert"] * 4, 4)
    mpol = np.empty((2, 4), np.int64)
    mpar = np.zeros((2, 4, N_PARAMS))
    model_rows(pol, par, 4, np.int64(MODEL_TABLE), mpol, mpar)
    assert list(mpol[0]) == [BID_HEURISTIC, -1, 2, BID_HEURISTIC]
    assert list(mpar[0, 2, :8]) == list(par[0, 2, :8])
    model_rows(pol, par, 4, np.int64(BID_HEURISTIC), mpol, mpar)
    assert list(mpol[0]) == [BID_HEURISTIC] * 4
    assert mpar[0, 1, 0] == 1.0  # the heuristic's defaults (nt = 1)


def test_systematic_resampling():
    """Index i is kept floor or ceil of n * w_i / sum(w) times; the effective sample size."""
    w = np.array([0.0, 1.0, 3.0, 0.0, 4.0])
    picks = np.empty(8, dtype=np.int64)
    for u in (0.0, 0.3, 0.999):
        ess = resample(w, 5, 8, u, picks)
        counts = np.bincount(picks, minlength=5)
        assert list(counts) == [0, 1, 3, 0, 4]
        assert list(picks) == sorted(picks)
    assert ess == pytest.approx(64 / 26)


def _ending(rules, tr, cards_left):
    """States of the traces' deals with ``cards_left`` cards in each hand, the seat to lead."""
    out = []
    for j in np.flatnonzero(~tr["thrown_in"]):
        p = rules.players
        steps = int(tr["n_calls"][j]) + p * int(tr["n_frisch"][j]) + p
        steps += p * (rules.n_tricks - cards_left)
        out.append(_replay(tr, j, rules, steps))
    return out


def _consistent_layouts(st, hm, rp, seat, p):
    """Every layout of the cards ``seat`` cannot see that meets what it knows (hand sizes, the
    voids shown, its last Frisch passes at their receiver)."""
    pool = [c for c in range(52) if int(rp[R_DECK_MASK]) >> c & 1
            and not (int(hm[H_PLAYED]) | int(hm[H_TRICK]) | int(hm[H_HAND + seat])) >> c & 1]
    others = [o for o in range(p) if o != seat]
    need = [int(hm[H_HAND + o]).bit_count() for o in others]
    pinned = 0
    to = -1
    if st[S_NFRISCH] > 0:
        f = int(st[S_NFRISCH]) - 1
        to = (seat + int(rp[R_DIR + f])) % p
        pinned = int(hm[H_FRISCH + 4 * f + seat])
    voids = int(st[S_VOIDS])
    layouts = []
    for first in itertools.combinations(pool, need[0]):
        rest = [c for c in pool if c not in first]
        for second in itertools.combinations(rest, need[1]):
            third = tuple(c for c in rest if c not in second)
            hands = dict(zip(others, (first, second, third), strict=True))
            ok = True
            for o, cards in hands.items():
                mask = sum(1 << c for c in cards)
                if any(voids >> (4 * o + c // 13) & 1 for c in cards):
                    ok = False
                if o != to and mask & pinned:
                    ok = False
            if ok:
                layouts.append({o: sum(1 << c for c in cards) for o, cards in hands.items()})
    return layouts


def test_kept_layouts_follow_the_exact_posterior_on_small_endings():
    """With three cards a hand left, every consistent layout is listed and weighted
    ``eps ** k``; the layouts a search keeps (drawn, weighted, picked, each counted as often
    as it was picked) are distributed as that posterior (chi-square over the classes of equal
    k, and over who holds the highest hidden card), and none breaks a void or a Frisch pass.
    The pool is large here (1,024 draws per kept layout): resampling a finite pool is exact
    only in the limit, and a search's pool of 8 x 16 under-represents layouts the table makes
    likely but the sampler rarely deals (the effective sample size says how far)."""
    rules = Rules()
    tr = play_traces(17, 0, 12, rules, ["heuristic"] * 4, ["heuristic"] * 4)
    mpol, mpar = _model(rules)
    rst, rhm, rrng = _scratch()
    eps = 0.25
    tested = 0
    for st, hm, rp, _ in _ending(rules, tr, 3):
        seat = int(st[S_TURN])
        layouts = _consistent_layouts(st, hm, rp, seat, 4)
        lay = np.zeros(HM_SIZE, dtype=np.uint64)
        lay[H_HAND + seat] = hm[H_HAND + seat]
        ks = []
        for layout in layouts:
            for o, mask in layout.items():
                lay[H_HAND + o] = np.uint64(mask)
            ks.append(mismatches(st, hm, rp, seat, lay, mpol, mpar, rst, rhm, rrng))
        ks = np.array(ks)
        if len(set(ks)) < 2:
            continue  # the table says nothing here: nothing to test
        w = eps ** ks
        post = w / w.sum()
        top = max(c for c in range(52) if any(m >> c & 1 for lo in layouts for m in lo.values()))
        holder = np.array([next(o for o, m in lo.items() if m >> top & 1) for lo in layouts])
        index = {tuple(sorted(lo.items())): i for i, lo in enumerate(layouts)}
        draws = 1500
        work, tab = sampler_scratch()
        sub = np.zeros(1, dtype=np.uint64)
        out = np.zeros(HM_SIZE, dtype=np.uint64)
        pool = 1024
        lays = np.zeros((pool, 4), np.uint64)
        r0s = np.zeros(pool, np.uint64)
        wts = np.zeros(pool)
        n_picks = 2  # two picks for the one layout asked: counts that can differ
        picks = np.zeros(n_picks, np.int64)
        mult = np.zeros(n_picks, np.int64)
        seen = np.zeros(len(layouts))
        for i in range(draws):
            sub[0] = stream_start(np.uint64(23), np.uint64(i))
            for k in range(HM_SIZE):
                out[k] = hm[k]
            _ess, count = draw_pool(st, hm, rp, seat, Sampler(sub, work, tab), out,
                                    Draw(1, True, pool, eps, n_picks),
                                    Replay(mpol, mpar, rst, rhm, rrng),
                                    Drawn(lays, r0s, wts, picks, mult))
            assert mult[:count].sum() == n_picks
            for j in range(count):  # each layout picked, as often as it was picked
                key = tuple(sorted((o, int(lays[j, o])) for o in range(4) if o != seat))
                assert key in index, "a kept layout breaks a void, a Frisch pass or a hand size"
                seen[index[key]] += mult[j]
        for classes in (ks, holder):
            labels = sorted(set(classes))
            obs = np.array([seen[classes == c].sum() for c in labels])
            exp = np.array([post[classes == c].sum() for c in labels]) * draws * n_picks
            keep = exp >= 5
            obs = np.append(obs[keep], obs[~keep].sum())
            exp = np.append(exp[keep], exp[~keep].sum())
            if exp[-1] == 0:
                obs, exp = obs[:-1], exp[:-1]
            if len(obs) < 2:
                continue
            p_value = stats.chisquare(obs, exp).pvalue
            assert p_value > 1e-3, (classes is ks, obs, exp)
        tested += 1
        if tested == 3:
            break
    assert tested >= 2


def test_search_parameters_parse():
    """rollout's infer, model, eps, pool, picks and montecarlo's play, infer, model, eps."""
    spec = parse_play("rollout:n=16:infer=1:model=hcp:eps=0.2:pool=8:picks=1")
    assert spec.text == "rollout:n=16:infer=1:model=hcp:eps=0.2:pool=8:picks=1"
    assert parse_play("rollout:model=table").text == "rollout:model=table"
    assert parse_strategy("montecarlo:n=8:play=heuristic:infer=0").text == \
        "montecarlo:n=8:play=heuristic:infer=0"
    assert parse_strategy("montecarlo:play=own").values()["play"] == -1
    for bad, what in (("rollout:infer=2", "infer"), ("rollout:eps=1.5", "eps"),
                      ("rollout:model=nobody", "model"), ("rollout:n=0", "n"),
                      ("rollout:pool=0", "pool"), ("rollout:picks=0", "picks"),
                      ("rollout:picks=1.5", "picks")):
        with pytest.raises(ValueError, match=what):
            parse_play(bad)
    with pytest.raises(ValueError, match="does not search"):
        parse_strategy("montecarlo:play=rollout")


def test_inferring_searches_depend_only_on_the_deal():
    """The same deals whatever the chunks, for rollout and montecarlo reading the table."""
    rules = Rules()
    bid = ["montecarlo:n=4", "heuristic", "cautious", "heuristic"]
    play = ["rollout:n=4:infer=1", "rollout:n=4:infer=1:model=heuristic:eps=0.05",
            "expert", "rollout:n=2"]
    whole = play_batch(5, 0, 6, rules, bid, play)
    tail = play_batch(5, 3, 3, rules, bid, play)
    for col in tail:
        assert np.array_equal(whole[col][3:], tail[col]), col


def _arrays(bid, play, players):
    """``(pol, par)`` of a seating given by spec texts."""
    return Seating.of(bid, play, players).arrays()
