"""Training: the contract model of the ``learned`` bidder, fitted to the values of search.

    python scripts/train_bidding.py [--seed 0] [--tables heuristic,learned] [--rounds 2]
        [--min-hands 50] [--deals 200] [--hands FILE]

The labels are bid charts' hands (``whist-sim bid-chart --no-check``, four players, rule-book
defaults, ``learned`` play): each hand's every legal contract played on the same ``--deals``
sampled deals, its value the mean score. There is one chart per table of ``--tables`` (every
seat of the chart's deals bids that strategy; table ``i`` is charted with seed ``--seed + i``),
so the model is fitted to the tables it meets, not to one. Training goes in ``--rounds``: round
1 fits the tables of the hand-written strategies; each later round writes its weights, charts
the ``learned`` table with them (the bidder against itself), and fits all the tables again.

The model (:mod:`whist_sim.core.bid_features`) values every legal contract from the hand's
features; its weights are fitted to those values by a softmax over the legal contracts
(temperature ``--tau`` points) minimising the expected regret (the hand's best value less the
chosen contract's) plus ``--l2`` times the squared weights, by L-BFGS with the gradient written
out (:func:`values`) from fixed starting weights, on 80 % of each table's hands (split by
``--seed``); the other 20 % measure it. The weights are rounded to integers of 1 / ``SCALE`` and
measured again as rounded, by the reference engine's own
:func:`~whist_sim.engine.learned_bidding.contract_values`, against the heuristic's contracts on the
same held-out hands.

Writes ``whist_sim/core/bid_model.py`` (the weights) and ``docs/BID_MODEL.md`` (the data card);
then, unless ``--no-measure``, measures every deck's model in a field of ``heuristic`` bidders
(``scripts/measure_bidding.py``, a fresh process) and puts the figures in the card's strength
section (``--measure-only``: that alone, no training).
Deterministic from ``--seed`` and the options. ``make train`` runs it after the play's
training: about 26 minutes on two cores for the four decks.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from whist_sim.core.rules import DECK_WORDS  # the rules alone: nothing compiles here

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "whist_sim" / "core" / "bid_model.py"
CARD = ROOT / "docs" / "BID_MODEL.md"
HELD_OUT = 0.2


def deck_rules(deck: str):
    """The rules of a deck of :data:`~whist_sim.core.bid_features.DECKS` (rule-book defaults
    otherwise) and the chart's options that set them."""
    from whist_sim.core.rules import deck_rules as rules_of

    rules = rules_of(deck)
    return rules, rules.flags().split()


def chart_hands(seed: int, min_hands: int, deals: int, bid: str = "heuristic",
                deck: str = "four") -> Path:
    """Run the bid chart that labels the hands of a table of ``deck`` where every seat bids
    ``bid``; return its ``hands.parquet``."""
    out = Path(tempfile.mkdtemp(prefix="train-bidding-"))
    cmd = [sys.executable, "-m", "whist_sim", "bid-chart", "--min-hands", str(min_hands),
           "--deals", str(deals), "--no-check", "--seed", str(seed), "--bid", bid,
           *deck_rules(deck)[1], "--no-progress", "--out", str(out)]
    print("labels:", " ".join(cmd[2:]), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return out / "hands.parquet"


def table(path: Path, rules):
    """The hands of a chart of ``rules`` as arrays: features, position class, over known, legal
    mask, values (NaN: illegal), and the heuristic's contract."""
    import pandas as pd

    from whist_sim.core.bid_features import CLASS_DECLARER, CLASS_LAST, position_class
    from whist_sim.engine.learned_bidding import contract_features
    from whist_sim.engine.policies import contract_from_estimate, est_q

    h = pd.read_parquet(path)
    n_tricks = rules.n_tricks
    players = rules.players
    ev = h[[f"ev_{b}" for b in range(n_tricks + 1)]].to_numpy(float)
    feats, cls, over, heur = [], [], [], []
    before = h[[f"earlier_{k}" for k in range(players)]].to_numpy()
    for hand, trump, pos, level, row in zip(h["hand"], h["trump"], h["position"], h["level"],
                                            before, strict=True):
        hand, trump, pos = int(hand), int(trump), int(pos)
        earlier = [int(x) for x in row[:pos]]
        c = position_class(pos == 0, pos, players)
        q = est_q(hand, trump, rules)
        feats.append(contract_features(hand, trump, earlier, q, rules))
        cls.append(c)
        over.append((1 if sum(earlier) > n_tricks else 0) if c == CLASS_LAST else -1)
        legal = [b for b in range(n_tricks + 1) if not np.isnan(ev[len(heur), b])]
        heur.append(contract_from_estimate(q, n_tricks, c == CLASS_DECLARER, int(level), legal))
    return (np.array(feats, dtype=float), np.array(cls), np.array(over), ~np.isnan(ev), ev,
            np.array(heur))


def values(theta: np.ndarray, F: np.ndarray, cls: np.ndarray, over: np.ndarray, n: int,
           grad: np.ndarray | None = None, rules=None):
    """Every contract's model value (hands x contracts), the formula of
    :func:`whist_sim.engine.learned_bidding.contract_values` at the default scoring, vectorised;
    ``theta``: the rows of weights in real units (3 x row length). With ``grad`` (the loss's
    derivative by each value, hands x contracts) returns ``(values, d loss / d theta)`` instead:
    the chain rule through the normal's cut points and the zero's logistic, written out."""
    from scipy.special import erfc

    from whist_sim.core.bid_features import (
        COL_LOG_SPREAD,
        COL_OVER,
        COL_STEER,
        COL_T,
        COL_Z,
        N_BID_FEATURES,
        ZERO_FAIL_EXTRA,
    )
    from whist_sim.core.rules import Rules
    from whist_sim.core.scoring import score

    r = rules if rules is not None else Rules()
    rows = theta.reshape(3, -1)
    W = rows[cls]
    t = (F * W[:, COL_T:COL_T + N_BID_FEATURES]).sum(1)
    z = (F * W[:, COL_Z:COL_Z + N_BID_FEATURES]).sum(1)
    steer = W[:, COL_STEER]
    spread = np.exp(W[:, COL_LOG_SPREAD])
    b = np.arange(n + 1, dtype=float)
    mean = t[:, None] + steer[:, None] * (b[None, :] - t[:, None])
    k = np.arange(n + 1, dtype=float)
    edge = np.where(k < n, k + 0.5, np.inf)
    u = (edge[None, None, :] - mean[:, :, None]) / spread[:, None, None]
    cdf = 0.5 * erfc(-u / np.sqrt(2.0))
    p = np.diff(np.concatenate([np.zeros(cdf.shape[:2] + (1,)), cdf], axis=2), axis=2)
    table = np.array([[score(bb, kk, False, r) for kk in range(n + 1)] for bb in range(n + 1)],
                     dtype=float)
    out = (p * table[None]).sum(2)
    p0 = 1.0 / (1.0 + np.exp(-z))
    share = 1.0 / (1.0 + np.exp(-W[:, COL_OVER]))
    over_made, under_made = score(0, 0, True, r), score(0, 0, False, r)
    made = np.where(over >= 0, np.where(over == 1, over_made, under_made),
                    share * over_made + (1 - share) * under_made)
    first = score(0, 1, False, r)
    failed = first + (score(0, 2, False, r) - first) * ZERO_FAIL_EXTRA
    out[:, 0] = p0 * made + (1 - p0) * failed
    if grad is None:
        return out
    # d cdf_k / d mean = -phi(u_k) / spread and d cdf_k / d log spread = -phi(u_k) u_k (0 at the
    # last, infinite cut); a value is sum_k cdf_k (S[b, k] - S[b, k + 1]) with S[b, n + 1] = 0
    phi = np.where(np.isfinite(u), np.exp(-0.5 * np.where(np.isfinite(u), u, 0.0) ** 2)
                   / np.sqrt(2.0 * np.pi), 0.0)
    step = table - np.concatenate([table[:, 1:], np.zeros((n + 1, 1))], axis=1)
    d_mean = -(phi * step[None]).sum(2) / spread[:, None]
    d_log_spread = -(phi * np.where(np.isfinite(u), u, 0.0) * step[None]).sum(2)
    g = grad.copy()
    g[:, 0] = 0.0  # the zero's value is not the normal's
    g_mean = g * d_mean
    g_t = (g_mean * (1.0 - steer[:, None])).sum(1)
    g_steer = (g_mean * (b[None, :] - t[:, None])).sum(1)
    g_ls = (g * d_log_spread).sum(1)
    g0 = grad[:, 0]
    g_z = g0 * p0 * (1.0 - p0) * (made - failed)
    g_over = np.where(over >= 0, 0.0, g0 * p0 * share * (1.0 - share) * (over_made - under_made))
    out_grad = np.zeros_like(rows)
    for c in range(rows.shape[0]):
        m = cls == c
        out_grad[c, COL_T:COL_T + N_BID_FEATURES] = g_t[m] @ F[m]
        out_grad[c, COL_Z:COL_Z + N_BID_FEATURES] = g_z[m] @ F[m]
        out_grad[c, COL_STEER] = g_steer[m].sum()
        out_grad[c, COL_LOG_SPREAD] = g_ls[m].sum()
        out_grad[c, COL_OVER] = g_over[m].sum()
    return out, out_grad.ravel()


def start() -> np.ndarray:
    """The fixed starting weights (real units): a trick a quarter-trick estimate of 4, steer
    0.5, spread 1, a zero made when the estimate is low."""
    from whist_sim.core.bid_features import (
        B_ESTIMATE_Q,
        B_ONE,
        COL_STEER,
        COL_T,
        COL_Z,
        ROW_LENGTH,
    )
    w = np.zeros((3, ROW_LENGTH))
    w[:, COL_T + B_ESTIMATE_Q] = 0.25
    w[:, COL_STEER] = 0.5
    w[:, COL_Z + B_ONE] = 1.0
    w[:, COL_Z + B_ESTIMATE_Q] = -0.25
    return w.ravel()


def fit(F, cls, over, legal, ev, idx, tau: float, l2: float, maxiter: int, rules=None,
        starts: tuple = ()) -> np.ndarray:
    """The weights (real units) minimising the softmax-expected regret on hands ``idx``, by
    L-BFGS with the loss's gradient written out (:func:`values`). The search runs over the
    weights times each feature's spread over the hands (a step in every direction then moves
    the values alike), the penalty on the weights themselves. The loss is not convex: the
    search starts from :func:`start` and from each of ``starts`` (weights in real units) and
    keeps the lowest loss. ``rules``: the scoring and deck of the hands (default: the rule
    book's)."""
    from scipy.optimize import minimize

    from whist_sim.core.bid_features import COL_T, COL_Z, N_BID_FEATURES

    n = legal.shape[1] - 1
    evf = np.where(legal, ev, 0.0)
    best = np.where(legal, ev, -np.inf).max(1)
    regret = np.where(legal[idx], best[idx, None] - evf[idx], 0.0)
    F, cls, over, ok = F[idx], cls[idx], over[idx], legal[idx]
    h = len(idx)
    spread = np.maximum(F.std(0), 1.0)
    unit = np.ones((3, len(start()) // 3))
    unit[:, COL_T:COL_T + N_BID_FEATURES] = spread
    unit[:, COL_Z:COL_Z + N_BID_FEATURES] = spread
    unit = unit.ravel()

    def loss(scaled):
        theta = scaled / unit
        v = values(theta, F, cls, over, n, rules=rules)
        s = np.where(ok, v / tau, -np.inf)
        s -= s.max(1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(1, keepdims=True)
        expected = (p * regret).sum(1)
        # d loss / d value: p (regret - expected regret) / (tau * hands)
        dv = p * (regret - expected[:, None]) / (tau * h)
        _, g = values(theta, F, cls, over, n, grad=dv, rules=rules)
        return (expected.mean() + l2 * (theta ** 2).sum(),
                (g + 2.0 * l2 * theta) / unit)

    best = None
    for begin in (start(), *starts):
        r = minimize(loss, np.asarray(begin, dtype=float) * unit, jac=True, method="L-BFGS-B",
                     options={"maxiter": maxiter})
        if best is None or r.fun < best.fun:
            best = r
    return best.x / unit


def measure(weights, F, cls, over, legal, ev, heur, idx, rules) -> dict:
    """Held-out regret and agreement with each hand's own best of the rounded ``weights`` (by
    the reference engine's formula) and of the heuristic's contracts, overall and per class."""
    from whist_sim.core.bid_features import CLASSES
    from whist_sim.engine.learned_bidding import contract_values

    chosen = []
    for i in idx:
        lg = [b for b in range(legal.shape[1]) if legal[i, b]]
        v = contract_values([int(x) for x in F[i]], int(cls[i]), lg, rules.n_tricks,
                            int(over[i]), rules, weights)
        chosen.append(max(v, key=v.__getitem__))  # as the bidder: ties to the smaller number
    chosen = np.array(chosen)
    evf = np.where(legal, ev, -np.inf)
    best = evf.max(1)[idx]
    own = evf.argmax(1)[idx]
    model_regret = best - ev[idx, chosen]
    heur_regret = best - ev[idx, heur[idx]]
    out = {"hands": len(idx), "model_regret": model_regret.mean(),
           "heuristic_regret": heur_regret.mean(), "model_own": (chosen == own).mean(),
           "heuristic_own": (heur[idx] == own).mean(), "classes": {}}
    for c, name in enumerate(CLASSES):
        m = cls[idx] == c
        out["classes"][name] = (int(m.sum()), model_regret[m].mean(), heur_regret[m].mean())
    return out


def read_model(path: Path) -> tuple[dict, dict]:
    """The models of a model file by deck, in today's columns, and their notes ({} when the
    file does not exist)."""
    from whist_sim.core.bid_features import weight_rows

    if not Path(path).exists():
        return {}, {}
    space: dict = {}
    exec(compile(Path(path).read_text(), str(path), "exec"), space)  # our own data file
    models = {d: weight_rows(rows, space["FEATURES"]) for d, rows in space["MODELS"].items()}
    return models, dict(space.get("NOTES", {}))


def write_model(path: Path, deck: str, weights, note: str) -> None:
    """Write ``weights`` as the model of ``deck`` into the model file, keeping the other decks'
    models (a deck never trained gets the four-player weights, its note says so)."""
    from whist_sim.core.bid_features import BID_FEATURES, DECKS

    models, notes = read_model(path)
    models[deck] = weights
    notes[deck] = note
    for d in DECKS:
        if d not in models:
            models[d] = models.get("four", weights)
        notes.setdefault(d, "not trained yet: the four-player weights")
    doc = Path(path).read_text().split('"""')[1] if Path(path).exists() else (
        "The weights of the ``learned`` bidder's contract model.")
    names = ", ".join(f'"{f}"' for f in BID_FEATURES)
    body = []
    for d in DECKS:
        rows = "\n".join("        (" + ", ".join(str(int(x)) for x in row) + "),"
                         for row in models[d])
        body.append(f'    "{d}": (\n{rows}\n    ),')
    note_lines = "\n".join(f'    "{d}": "{notes[d]}",' for d in DECKS)
    Path(path).write_text(
        f'"""{doc}"""\n\n#: the features the weights were fitted with, in the order of their '
        f"columns\nFEATURES: tuple[str, ...] = ({names})\n#: how each deck's model was "
        f"trained\nNOTES: dict[str, str] = {{\n{note_lines}\n}}\n"
        "MODELS: dict[str, tuple[tuple[int, ...], ...]] = {\n" + "\n".join(body) + "\n}\n")


def card_sections(text: str) -> dict[str, str]:
    """The held-out section of each deck in a data card's text (its ``### `` heading to the
    next heading), by deck."""
    import re

    out = {}
    for deck, words in DECK_WORDS.items():
        m = re.search(rf"^### {re.escape(words)}\n.*?(?=^##|\Z)", text, re.S | re.M)
        if m:
            out[deck] = m.group(0).rstrip("\n")
    return out


def write_card(path: Path, opts, results: dict, seconds: float) -> None:
    """The data card: what every deck's model was fitted on, and its held-out figures
    (``results``: deck -> (measures, table sizes)). A deck not trained in this run keeps its
    section as the card holds it (its model is kept in the model file too)."""
    from whist_sim.core.bid_features import BID_FEATURES_TABLE

    before = Path(path).read_text() if Path(path).exists() else ""
    kept = card_sections(before)
    strength = strength_section(before)  # kept until measured again

    lines = [
        "# The `learned` bidder's contract model: data card",
        "",
        "Written by `scripts/train_bidding.py` (`make train`); the model is stated in",
        "`whist_sim/core/bid_features.py`, its weights are `whist_sim/core/bid_model.py` (one "
        "model per deck: four players, and three with each deck option).",
        "",
        "| | |",
        "| --- | --- |",
        "| teacher | every legal contract of a hand played on the same sampled deals, its value "
        "the mean score (`whist-sim bid-chart --no-check`) |",
        f"| hands | `--min-hands {opts.min_hands}` per chart, {opts.deals} deals each; rule-book "
        "defaults but the deck, `learned` play |",
        f"| tables | one chart per table, every seat bidding one strategy: {opts.tables} "
        f"(table `i` charted with seed {opts.seed} + `i`) |",
        f"| rounds | {opts.rounds}: round 1 fits the hand-written tables; each later round charts "
        "the `learned` table with the weights of the round before and fits every table again |",
        f"| fit | softmax over the legal contracts (temperature {opts.tau} points), expected "
        f"regret + {opts.l2} x squared weights, L-BFGS with the gradient written out, at most "
        f"{opts.maxiter} steps from fixed weights (a three-player deck: also from the "
        "four-player model, the lower loss kept); "
        f"{1 - HELD_OUT:.0%} of each table's hands, the other "
        f"{HELD_OUT:.0%} held out (split by the seed) |",
        f"| training time | {seconds:.0f} s on two cores (the charts and the fits of "
        f"{', '.join(DECK_WORDS[d] for d in results)}; the last run of `make train`'s part) |",
        "| what it decides | the contract; auction calls and Frisch passes are the heuristic's |",
        "| the rules | the deck picks the model; the scoring numbers are read from the rules of "
        "the deal; the other options (Frisch, bid order, redeal) use the deck's model as "
        "fitted at the defaults |",
        "",
        "## Held-out figures",
        "",
        "Regret: the hand's own best value less the value of the contract chosen, points per "
        "decision; own best: how often the contract chosen is the hand's own best.",
    ]
    for deck in DECK_WORDS:
        if deck not in results:
            if deck in kept:
                lines += ["", kept[deck]]
            continue
        m, sizes = results[deck]
        tables = ", ".join(f"`{t}` (seed {seed}, {n:,} hands)" for t, (seed, n) in sizes.items())
        lines += [
            "",
            f"### {DECK_WORDS[deck]}",
            "",
            f"Tables: {tables}.",
            "",
            "| contracts by | hands | regret | own best |",
            "| --- | ---: | ---: | ---: |",
            f"| `learned` (rounded weights) | {m['hands']:,} | {m['model_regret']:.2f} | "
            f"{m['model_own']:.1%} |",
            f"| `heuristic` | {m['hands']:,} | {m['heuristic_regret']:.2f} | "
            f"{m['heuristic_own']:.1%} |",
        ]
        for name, (n, mr, hr) in m["classes"].items():
            lines.append(f"| {name}: `learned` / `heuristic` | {n:,} | {mr:.2f} / {hr:.2f} | |")
        for name, t in m["tables"].items():
            lines.append(f"| table `{name}`: `learned` / `heuristic` | {t['hands']:,} | "
                         f"{t['model_regret']:.2f} / {t['heuristic_regret']:.2f} | |")
    lines += ["", "## Features", "", "| feature | holds |", "| --- | --- |"]
    lines += [f"| `{f.name}` | {f.doc} |" for f in BID_FEATURES_TABLE]
    lines.append("")
    text = "\n".join(lines)
    Path(path).write_text(put_strength(text, strength) if strength else text)


STRENGTH = "## Strength at the table"


def measured() -> str:
    """The strength section's table: scripts/measure_bidding.py in a fresh process (the bidder
    compiles with the weights in place), every deck at its default size and seed."""
    print("measuring: scripts/measure_bidding.py", flush=True)
    return json.loads(subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "measure_bidding.py")], cwd=ROOT, check=True,
        stdout=subprocess.PIPE, text=True).stdout)["markdown"]


def strength_section(text: str) -> str | None:
    """The strength section of a data card's text (its heading to the next section), or None."""
    import re

    m = re.search(rf"^{re.escape(STRENGTH)}\n.*?(?=^## )", text, flags=re.S | re.M)
    return m.group(0) if m else None


def put_strength(text: str, section: str) -> str:
    """A data card's ``text`` with the strength ``section`` before its features, in place of
    the one it held."""
    old = strength_section(text)
    if old is not None:
        text = text.replace(old, "", 1)
    if "## Features" not in text:
        raise ValueError("the data card has no '## Features' section to put the strength before")
    return text.replace("## Features", section + "## Features", 1)


def write_strength(path: Path, table: str) -> None:
    """Put the strength section (``table`` under :data:`STRENGTH`) into the data card at
    ``path`` (:func:`put_strength`)."""
    section = (f"{STRENGTH}\n\nOne `learned` bidder among `heuristic` ones, `learned` play at "
               "every seat, duplicate, the `learned` bidder in each position in turn (`python "
               "scripts/measure_bidding.py`; sizes and seeds in the table, neither a training "
               f"seed):\n\n{table}\n\n")
    Path(path).write_text(put_strength(Path(path).read_text(), section))


class Labels:
    """One table's labelled hands (the arrays of :func:`table`) and their split."""

    def __init__(self, name: str, seed: int, path: Path, split_seed: int, rules):
        self.name, self.seed = name, seed
        self.arrays = table(path, rules)
        n = len(self.arrays[0])
        perm = np.random.default_rng(split_seed).permutation(n)
        cut = int((1 - HELD_OUT) * n)
        self.train, self.test = np.sort(perm[:cut]), np.sort(perm[cut:])


def joined(labels: list[Labels]):
    """The tables' arrays end to end, with the training and held-out rows of each (offsets)."""
    arrays = tuple(np.concatenate([lab.arrays[i] for lab in labels]) for i in range(6))
    train, test, spans, off = [], [], {}, 0
    for lab in labels:
        train.append(lab.train + off)
        test.append(lab.test + off)
        spans[lab.name] = lab.test + off
        off += len(lab.arrays[0])
    return arrays, np.concatenate(train), np.concatenate(test), spans


def rounded(theta: np.ndarray) -> tuple[tuple[int, ...], ...]:
    from whist_sim.core.bid_features import SCALE

    return tuple(tuple(int(round(x * SCALE)) for x in row) for row in theta.reshape(3, -1))


def train_deck(deck: str, opts, tables: list[str]) -> tuple[dict, dict]:
    """Fit the model of ``deck`` in rounds (module doc), write it into the model file; its
    held-out measures and the tables' (seed, hands)."""
    from whist_sim.core.bid_features import SCALE

    rules, _ = deck_rules(deck)
    seeds = {t: opts.seed + i for i, t in enumerate(tables)}
    fixed = [t for t in tables if t != "learned"]
    labels = [Labels(t, seeds[t], opts.hands if opts.hands and deck == "four"
                     and t == tables[0] else
                     chart_hands(seeds[t], opts.min_hands, opts.deals, t, deck), opts.seed, rules)
              for t in fixed]
    rounds = opts.rounds if "learned" in tables else 1
    weights = None
    # a three-player deck's search also starts from the four-player model (fitted first in the
    # same run: DECKS order), whose weights were a better start than the fixed one on no_low
    four = read_model(opts.model)[0].get("four") if deck != "four" else None
    starts = (np.array(four, dtype=float).ravel() / SCALE,) if four else ()
    for r in range(1, rounds + 1):
        if r > 1:
            write_model(opts.model, deck, weights, f"round {r - 1} of seed {opts.seed}")
            labels = [lab for lab in labels if lab.name != "learned"]
            labels.append(Labels("learned", seeds["learned"], chart_hands(
                seeds["learned"], opts.min_hands, opts.deals, "learned", deck), opts.seed, rules))
        (F, cls, over, legal, ev, heur), train, _, _ = joined(labels)
        weights = rounded(fit(F, cls, over, legal, ev, train, opts.tau, opts.l2, opts.maxiter,
                              rules, starts))
        print(f"{deck}, round {r}: fitted on {len(train):,} hands of {len(labels)} table(s)",
              flush=True)
    (F, cls, over, legal, ev, heur), _, test, spans = joined(labels)
    m = measure(weights, F, cls, over, legal, ev, heur, test, rules)
    m["tables"] = {name: measure(weights, F, cls, over, legal, ev, heur, idx, rules)
                   for name, idx in spans.items()}
    print(f"{deck}: held out, learned regret {m['model_regret']:.2f}, heuristic "
          f"{m['heuristic_regret']:.2f} points per decision ({m['hands']} hands)", flush=True)
    sizes = {lab.name: (lab.seed, len(lab.arrays[0])) for lab in labels}
    write_model(opts.model, deck, weights, f"seed {opts.seed}, {rounds} round(s), tables "
                + ", ".join(f"{t} ({n} hands)" for t, (_, n) in sizes.items())
                + f", {opts.deals} deals each")
    return m, sizes


def main(argv: list[str] | None = None) -> int:
    from whist_sim.core.bid_features import DECKS

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--decks", default=",".join(DECKS),
                    help="the decks to fit a model for: " + ", ".join(DECKS))
    ap.add_argument("--tables", default="heuristic,learned",
                    help="bidding strategies whose tables label hands (one chart each)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--min-hands", type=int, default=50)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--hands", type=Path, help="the four-player first table's hands.parquet of "
                    "a bid chart (skips that chart run)")
    ap.add_argument("--tau", type=float, default=2.0)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--maxiter", type=int, default=300)
    ap.add_argument("--model", type=Path, default=MODEL)
    ap.add_argument("--card", type=Path, default=CARD)
    ap.add_argument("--no-measure", action="store_true",
                    help="skip the field measurement (scripts/measure_bidding.py) after training")
    ap.add_argument("--measure-only", action="store_true",
                    help="no training: measure the package's model and renew the data card's "
                    "strength section")
    opts = ap.parse_args(argv)
    if opts.measure_only:
        write_strength(opts.card, measured())
        return 0
    tables = [t.strip() for t in opts.tables.split(",") if t.strip()]
    decks = [d.strip() for d in opts.decks.split(",") if d.strip()]
    if not decks or any(d not in DECKS for d in decks) or len(set(decks)) != len(decks):
        ap.error(f"--decks: distinct decks of {', '.join(DECKS)}")
    if not [t for t in tables if t != "learned"] or len(set(tables)) != len(tables):
        ap.error("--tables: distinct bidding strategies, at least one hand-written one (round 1 "
                 "fits those)")
    if opts.rounds < 1:
        ap.error("--rounds: at least 1")
    if "learned" in tables and opts.model.resolve() != MODEL.resolve():
        ap.error("--model: a `learned` table is charted with the package's model file; write "
                 "to it, or leave `learned` out of --tables")
    opts.tables = ", ".join(f"`{t}`" for t in tables)
    t0 = time.perf_counter()
    results = {deck: train_deck(deck, opts, tables) for deck in decks}
    write_card(opts.card, opts, results, time.perf_counter() - t0)
    if not opts.no_measure and opts.model.resolve() == MODEL.resolve():
        write_strength(opts.card, measured())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
