"""Training: the weights of the ``learned`` play policy, fitted to the values of search.

    python scripts/train_play.py [--seed 11] [--rounds 3] [--deals 24000] [--layouts 32]
                                 [--tables heuristic,learned,cautious,hcp,ltc]

Each round plays ``--deals`` deals (every seat bidding ``heuristic``, or the ``--tables`` in
turn by blocks of 500 deals) and values every card decision of the play with more than one
legal card by search
(:func:`whist_sim.compiled.search.values.card_values`: every candidate card played on the same
``--layouts`` layouts of the unseen cards, drawn with the inference of the calls and contracts,
and finished with ``--finisher`` at every seat). Round 0 plays ``rollout:n=64`` at every seat and
finishes with ``expert``; every later round plays ``learned`` with the weights of the round
before, so the later rounds value the decisions the policy itself meets, and finishes with
``--finisher`` (``learned``: those same weights). After each round the weights are fitted to
every round's decisions so far: a softmax over the legal cards of each decision, scores
``features . W[context]`` (docs/ENGINE.md §8), minimising the expected regret (the best
candidate's value less the chosen card's, in points) plus ``--l2`` times the squared weights,
from weights 0; the weights are rounded to integers (x 1000) and written to
``whist_sim/core/play_model.py``. A round's last 15 % of deals are held out of the fit and
measure it.

Everything is determined by ``--seed`` and the options: the deals, the layouts (each decision has
its own stream), the fit (L-BFGS from fixed starting weights). The rounds run the collection in
fresh processes (``--jobs``), so each compiles the policy with the weights of the round before.

Writes ``whist_sim/core/play_model.py`` (the weights), ``docs/PLAY_MODEL.md`` (the data card:
teacher, deals, seed, features, regret against the held-out values, agreement with the teacher,
strength and speed) and ``--work`` (default ``data/train``: each round's decisions, untracked).
``make train`` runs it with the defaults: about half an hour on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from whist_sim.core.rules import DECKS  # the rules alone: nothing compiles here

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "whist_sim" / "core" / "play_model.py"
CARD = ROOT / "docs" / "PLAY_MODEL.md"
TEACHER0 = "rollout:n=64"
#: the tables the deals are bid at: every seat of a table bids the same strategy, and the
#: tables take turns by blocks of :data:`STEP` deals (deal ``d`` is bid at
#: ``tables[d // STEP % len(tables)]``), so that the play does not depend on one way of bidding
#: (``--tables``; one table of ``heuristic`` bidders by default: a mix of five tables was tried,
#: docs/JOURNAL.md 2026-12-08)
TABLES = ("heuristic",)
HELD_OUT = 0.15  # the share of a round's deals kept out of the fit
SCALE = 1000  # weights are rounded to integers of 1/SCALE
STEP = 500  # deals per trace batch


# ------------------------------------------------------------------------------ collection

def table_of(deal: int, tables: tuple[str, ...]) -> str:
    """The bidding strategy of every seat of deal ``deal`` (:data:`TABLES`)."""
    return tables[deal // STEP % len(tables)]


def blocks(start: int, count: int):
    """``(first deal, deals)`` of the blocks of :data:`STEP` deals that cover ``start ..
    start + count``, cut at the multiples of STEP (a block is bid at one table, whatever the
    split of the deals between the processes)."""
    s0, end = start, start + count
    while s0 < end:
        s1 = min(end, (s0 // STEP + 1) * STEP)
        yield s0, s1 - s0
        s0 = s1


def collect(seed: int, start: int, count: int, play: str, layouts: int, finisher: str,
            out: Path, deck: str = "four", tables: tuple[str, ...] = TABLES) -> None:
    """Play deals ``start .. start + count`` of ``seed`` under ``play`` at every seat, each
    block of deals bid at its table (:func:`table_of`), value
    every decision with the deals finished by ``finisher``, and write every valued decision's
    rows to ``out`` (``.npz``: ``deal``, ``decision``, ``chosen``,
    ``value``, ``context``, ``features``)."""
    from whist_sim.compiled.entry.batch import play_traces
    from whist_sim.compiled.entry.deal import loop_address
    from whist_sim.compiled.entry.decide import KernelSeats
    from whist_sim.compiled.ground.layout import (
        MAX_HAND,
        PH_AUCTION,
        PH_CONTRACTS,
        PH_FRISCH,
        PH_PLAY,
        S_LOOP_TABLE,
        S_NFRISCH,
        S_PHASE,
        S_SCORE,
        S_TURN,
    )
    from whist_sim.compiled.loop.phases import legal_cards
    from whist_sim.compiled.search.rollout import _separators
    from whist_sim.compiled.search.values import card_values
    from whist_sim.compiled.strategies.dispatch import BASE
    from whist_sim.compiled.strategies.play.learned import decision_rows
    from whist_sim.compiled.strategies.registry import get_info
    from whist_sim.core.play_features import N_FEATURES
    from whist_sim.core.rules import deck_rules

    rules = deck_rules(deck)
    p = rules.players
    rows = np.zeros((MAX_HAND, 3 + N_FEATURES), np.int64)  # a row per legal card at most
    cands = np.zeros(MAX_HAND, np.int64)
    totals = np.zeros(MAX_HAND, np.int64)
    table = loop_address(BASE)
    finish = np.int64(get_info(finisher, "play").id)
    cols: dict[str, list] = {k: [] for k in ("deal", "decision", "chosen", "value", "context",
                                              "expert", "features")}
    n_dec = 0
    t0 = time.time()
    for s0, n in blocks(start, count):
        bid = table_of(s0, tables)
        tr = play_traces(seed, s0, n, rules, [bid] * p, [play] * p)
        for j in range(len(tr["deal"])):
            if tr["thrown_in"][j]:
                continue
            d = int(tr["deal"][j])
            ks = KernelSeats(rules, [bid] * p, ["expert"] * p, int(tr["dealer"][j]),
                             [int(x) for x in tr["dealt"][j]], (seed * 1_000_003 + d) % 2**63,
                             int(tr["removed_card"][j]), d)
            ks.st[S_LOOP_TABLE] = table
            calls = iter(int(c) for c in tr["calls"][j, : tr["n_calls"][j]])
            plays = iter(int(c) for c in tr["plays"][j, : tr["n_plays"][j]])
            while True:
                phase, seat = int(ks.st[S_PHASE]), int(ks.st[S_TURN])
                if phase == PH_AUCTION:
                    ks.apply(next(calls))
                elif phase == PH_FRISCH:
                    ks.apply(int(tr["frisch"][j, int(ks.st[S_NFRISCH]), seat]))
                elif phase == PH_CONTRACTS:
                    ks.apply(int(tr["contracts"][j, seat]))
                elif phase == PH_PLAY:
                    card = next(plays)
                    legal = np.uint64(legal_cards(ks.st, ks.hm, seat))
                    if int(legal) & (int(legal) - 1):
                        n_dec += _value_decision(ks, seat, legal, card, layouts, finish, rows,
                                                 cands, totals, d, n_dec, cols, card_values,
                                                 decision_rows, _separators)
                    ks.apply(card)
                else:
                    break
            if tuple(ks.st[S_SCORE:S_SCORE + p]) != tuple(tr["scores"][j]):
                raise RuntimeError(f"deal {d}: the replay does not score as the trace")
        print(f"  deals {s0 + n - start}/{count} ({bid} table): {n_dec} decisions, "
              f"{time.time() - t0:.0f} s",
              file=sys.stderr, flush=True)
    arrays = {k: np.array(v, dtype=np.int64 if k != "features" else np.int16)
              for k, v in cols.items()}
    np.savez_compressed(out, picks=np.int64(2 * layouts),
                        key=np.array(collect_key(seed, start, count, play, layouts, finisher,
                                                deck, tables)),
                        **arrays)


def collect_key(seed: int, start: int, count: int, play: str, layouts: int,
                finisher: str, deck: str = "four", tables: tuple[str, ...] = TABLES) -> str:
    """What a round's file was collected from: its options and the weights it played with (a
    hash of ``whist_sim/core/play_model.py``). A file is reused only when its key is this."""
    import hashlib

    weights = hashlib.sha256(MODEL.read_bytes()).hexdigest()[:16]
    return (f"seed={seed} start={start} count={count} play={play} layouts={layouts} "
            f"finisher={finisher} deck={deck} tables={','.join(tables)} w={weights}")


def _reusable(path: Path, key: str) -> bool:
    """True when ``path`` holds a complete collection made with ``key`` (verified, not
    trusted: a file of other options or weights, or one that cannot be read, is collected
    again)."""
    if not path.exists():
        return False
    try:
        with np.load(path) as z:
            ok = str(z["key"]) == key and all(k in z for k in ("decision", "value", "expert",
                                                              "features"))
    except (OSError, ValueError, KeyError):
        ok = False
    if not ok:
        print(f"  {path.name}: other options, other weights or unreadable: collecting again",
              file=sys.stderr, flush=True)
    return ok


def _value_decision(ks, seat, legal, card, layouts, finish, rows, cands, totals, d, n_dec,
                    cols, card_values, decision_rows, separators) -> int:
    """Value one decision; append its rows to ``cols``; 1 when it had two candidates or more."""
    from whist_sim.compiled.search.values import Valuing
    n = card_values(ks.pol, ks.par, ks.st, ks.hm, ks.rp, np.int64(seat), legal, ks.rng,
                    Valuing(np.int64(layouts), finish, cands, totals))
    if n < 2:
        return 0
    sep = int(separators(ks.hm, ks.rp, np.int64(seat)))
    value = {_run(int(cands[i]), sep): int(totals[i]) for i in range(n)}
    k = decision_rows(ks.st, ks.hm, ks.rp, np.int64(seat), legal, ks.rng, rows)
    for i in range(k):
        c = int(rows[i, 0])
        cols["deal"].append(d)
        cols["decision"].append(n_dec)
        cols["chosen"].append(int(_run(c, sep) == _run(card, sep)))
        cols["value"].append(value[_run(c, sep)])
        cols["context"].append(int(rows[i, 1]))
        cols["expert"].append(int(rows[i, 2]))
        cols["features"].append(rows[i, 3:].copy())
    return 1


def _run(card: int, sep: int) -> int:
    """The run of ``card``: its suit and the number of cards of ``sep`` above it in its suit (the
    cards still out or on the current trick, ``rollout._separators``; two cards of a run cannot
    differ)."""
    s = card // 13
    return 16 * s + bin(sep >> (card + 1) & ((1 << (13 * (s + 1) - card - 1)) - 1)).count("1")


# ------------------------------------------------------------------------------ fit

class Decisions:
    """The rows of many decisions, in decision order, with their regrets (points); the features
    are kept sorted by context, so that scores and gradients are one matrix product per
    context."""

    def __init__(self, parts: list[dict[str, np.ndarray]], n_contexts: int):
        dec, off = [], 0
        for part in parts:
            dec.append(part["decision"] + off)
            off += int(part["decision"].max()) + 1 if len(part["decision"]) else 0
        self.did = np.concatenate(dec)
        self.n = int(self.did.max()) + 1
        value = np.concatenate([p["value"] / float(p["picks"]) for p in parts])
        ctx = np.concatenate([p["context"] for p in parts])
        X = np.concatenate([p["features"] for p in parts])
        self.expert = np.concatenate([p["expert"] for p in parts]).astype(bool)
        self.chosen = np.concatenate([p["chosen"] for p in parts]).astype(bool)
        self.starts = np.flatnonzero(np.r_[1, np.diff(self.did)])
        self.reg = np.maximum.reduceat(value, self.starts)[self.did] - value
        self.order = np.argsort(ctx, kind="stable")
        self.Xo = X[self.order].astype(float)
        cs = ctx[self.order]
        bounds = np.flatnonzero(np.r_[1, np.diff(cs)])
        self.blocks = [(int(cs[b]), int(b), int(e))
                       for b, e in zip(bounds, np.r_[bounds[1:], len(cs)], strict=True)]
        self.n_contexts = n_contexts

    def scores(self, W: np.ndarray) -> np.ndarray:
        so = np.empty(len(self.did))
        for c, b, e in self.blocks:
            so[b:e] = self.Xo[b:e] @ W[c]
        s = np.empty_like(so)
        s[self.order] = so
        return s

    def _first_top(self, W: np.ndarray) -> np.ndarray:
        """The row played by weights ``W`` in each decision (ties: the first row, the lowest
        card)."""
        s = self.scores(W)
        top = s >= np.maximum.reduceat(s, self.starts)[self.did] - 1e-9
        idx = np.flatnonzero(top)
        return idx[np.r_[True, np.diff(self.did[idx]) != 0]]

    def regret(self, W: np.ndarray) -> float:
        """Mean regret per decision of the card with the top score."""
        return float(self.reg[self._first_top(W)].mean())

    def chosen_regret(self) -> float:
        """Mean regret of the card the trace played (the round's play)."""
        return float(self.reg[self.chosen].mean())

    def expert_regret(self) -> float:
        """Mean regret of ``expert``'s card (the rows flagged ``expert``, one a decision)."""
        return float(self.reg[self.expert].mean())

    def expert_agreement(self) -> float:
        """Share of decisions where ``expert``'s card is in the run the trace played."""
        return float(self.chosen[self.expert].mean())

    def agreement(self, W: np.ndarray) -> float:
        """Share of decisions where the top score is in the run the trace played."""
        return float(self.chosen[self._first_top(W)].mean())

    def loss(self, w: np.ndarray, w0: np.ndarray, l2: float) -> tuple[float, np.ndarray]:
        """Expected regret of the softmax policy per decision, plus the L2 pull to ``w0``."""
        W = w.reshape(self.n_contexts, -1)
        s = self.scores(W)
        e = np.exp(s - np.maximum.reduceat(s, self.starts)[self.did])
        pi = e / np.add.reduceat(e, self.starts)[self.did]
        er = np.add.reduceat(pi * self.reg, self.starts)
        go = (pi * (self.reg - er[self.did]) / self.n)[self.order]
        G = np.zeros_like(W)
        for c, b, e_ in self.blocks:
            G[c] = go[b:e_] @ self.Xo[b:e_]
        dw = w - w0
        return float(er.sum() / self.n + l2 * (dw @ dw)), G.ravel() + 2 * l2 * dw


def fit(data: Decisions, start: np.ndarray, l2: float, maxiter: int) -> np.ndarray:
    from scipy.optimize import minimize

    w0 = np.zeros(data.n_contexts * data.Xo.shape[1])
    r = minimize(data.loss, start.ravel(), args=(w0, l2), jac=True, method="L-BFGS-B",
                 options={"maxiter": maxiter})
    return r.x.reshape(data.n_contexts, -1)


def read_model(path: Path) -> tuple[dict, dict]:
    """The weights of a model file by deck, a row per situation (rows the file leaves out are
    zeros), and their notes ({} when the file does not exist). The first format (one
    four-player ``WEIGHTS``) reads as the four-player model."""
    if not Path(path).exists():
        return {}, {}
    space: dict = {}
    exec(compile(Path(path).read_text(), str(path), "exec"), space)  # our own data file
    if "MODELS" not in space:
        return {"four": tuple(space["WEIGHTS"])}, {"four": space.get("NOTE", "")}
    models = {}
    for d, rows in space["MODELS"].items():
        if isinstance(rows, dict):  # the rows with weights, by situation
            rows = tuple(rows.get(i, (0,) * space["COLUMNS"]) for i in range(space["SITUATIONS"]))
        models[d] = tuple(tuple(r) for r in rows)
    return models, dict(space.get("NOTES", {}))


def write_model(path: Path, deck: str, W, note: str) -> None:
    """Write ``W`` (a row per situation) as the weights of ``deck`` into the model file, keeping
    the other decks' (a deck never trained gets the four-player weights, and its note says so).
    Only rows with a weight are written (a situation never met in training weighs 0), so the
    file stays short."""
    from whist_sim.core.rules import DECKS

    models, notes = read_model(path)
    models[deck] = tuple(tuple(int(x) for x in row) for row in W)
    notes[deck] = note
    for d in DECKS:
        if d not in models:
            models[d] = models.get("four", models[deck])
            notes[d] = "not trained yet: the four-player weights"
    # a deck fitted before a feature was added weighs it 0 (as the policy reads it: the rows
    # are padded with zeros, whist_sim.core.play_features.weight_rows)
    columns = max(len(m[0]) for m in models.values())
    models = {d: tuple(r + (0,) * (columns - len(r)) for r in m) for d, m in models.items()}
    shapes = {(len(m), len(m[0])) for m in models.values()}
    if len(shapes) != 1:
        raise SystemExit(f"error: {path}: the decks' models differ in shape: {sorted(shapes)}")
    situations, columns = shapes.pop()
    body = []
    for d in DECKS:
        rows = "\n".join(f"        {i}: (" + ", ".join(str(int(x)) for x in row) + "),"
                         for i, row in enumerate(models[d]) if any(row))
        body.append(f'    "{d}": {{\n{rows}\n    }},')
    note_lines = "\n".join(f'    "{d}": "{notes[d]}",' for d in DECKS)
    Path(path).write_text(
        '"""The weights of the ``learned`` play policy, one model per deck (four players, and\n'
        "three with each ``three_player_deck``: :data:`whist_sim.core.rules.DECKS`): written by\n"
        "``scripts/train_play.py`` (``make train``); its data card is docs/PLAY_MODEL.md. Row: a\n"
        "situation (``context``), column: a card feature, in the order of docs/ENGINE.md §8; the\n"
        "score of a card is the sum of its features times its row. A model lists the rows of\n"
        'the situations that have weights; every other situation weighs 0."""\n\n'
        f"#: the situations of a model and the columns of its rows (the features it was fitted "
        f"with)\nSITUATIONS = {situations}\nCOLUMNS = {columns}\n"
        f"#: how each deck's weights were trained\nNOTES: dict[str, str] = {{\n{note_lines}\n}}\n"
        "#: the rows with weights of each deck's model, by situation\n"
        "MODELS: dict[str, dict[int, tuple[int, ...]]] = {\n" + "\n".join(body) + "\n}\n"
        "#: the four-player weights, a row per situation (the name the package had before one "
        "model\n#: per deck)\n"
        'WEIGHTS = tuple(MODELS["four"].get(i, (0,) * COLUMNS) for i in range(SITUATIONS))\n')


# ------------------------------------------------------------------------------ driver

def run_round(args, r: int, work: Path) -> list[Path]:
    """Collect round ``r``'s decisions in ``--jobs`` fresh processes; returns their files."""
    play = play_of(args, r)
    finisher = finisher_of(args, r)
    seed = args.seed + r
    jobs, files, procs = max(1, args.jobs), [], []
    for k in range(jobs):
        lo, hi = args.deals * k // jobs, args.deals * (k + 1) // jobs
        out = work / f"round{r}_{k}.npz"
        files.append(out)
        key = collect_key(seed, lo, hi - lo, play, args.layouts, finisher, args.deck,
                          args.tables)
        if not args.fresh and _reusable(out, key):
            continue
        cmd = [sys.executable, __file__, "--collect", str(seed), str(lo), str(hi - lo), play,
               str(args.layouts), finisher, str(out), args.deck, ",".join(args.tables)]
        procs.append(subprocess.Popen(cmd, cwd=ROOT))
    for pr in procs:
        if pr.wait() != 0:
            raise SystemExit(f"error: round {r}: a collecting process failed")
    return files


def bidding_text(args) -> str:
    """How the data card names the training's bidding: "`heuristic` bidding", or the
    tables in turn."""
    tables = getattr(args, "tables", TABLES)
    if len(tables) == 1:
        return f"`{tables[0]}` bidding"
    return (f"bid at tables of {', '.join(f'`{t}`' for t in tables)} bidders in turn (blocks of "
            f"{STEP} deals)")


def _tables(text: str) -> tuple[str, ...]:
    """``--tables``: bidding strategies by name, each known to the registry (a bad one is a
    one-line error naming the option)."""
    from whist_sim.core.registry import policy_names

    names = tuple(t.strip() for t in text.split(",") if t.strip())
    known = policy_names("bid")
    bad = [t for t in names if t not in known]
    if not names or bad:
        raise argparse.ArgumentTypeError(
            f"{','.join(bad) or 'nothing'}: not a bidding strategy (one of {', '.join(known)})")
    return names


def play_of(args, r: int) -> str:
    """The play of round ``r``'s deals: the teacher ``rollout:n=64`` in round 0 of a training
    from weights 0, ``learned`` (the weights of the round before, or the start's) otherwise."""
    return TEACHER0 if r == 0 and args.start == "zero" else "learned"


def finisher_of(args, r: int) -> str:
    """The play policy that finishes the valued deals of round ``r``: ``expert`` in round 0 of
    a training from weights 0 (no weights yet), ``--finisher`` otherwise."""
    return "expert" if r == 0 and args.start == "zero" else args.finisher


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deck", choices=DECKS, default="four", help="the deck whose model is "
                    "trained (its rules: four players, or three with that three_player_deck); "
                    "the model file keeps the other decks' weights")
    ap.add_argument("--start", choices=("zero",) + DECKS, default=None, help="the weights the "
                    "training starts from: zero (round 0 played by rollout:n=64), or a deck's "
                    "model (every round played by learned) [default: zero for four, four for "
                    "the three-player decks]")
    ap.add_argument("--seed", type=int, default=None, help="[default: 11 for four, 21, 31, 41 "
                    "for no_suit, no_low, one_random]")
    ap.add_argument("--rounds", type=int, default=None, help="[default: 4 for four, 5 for "
                    "no_low, 3 for no_suit and one_random]")
    ap.add_argument("--deals", type=int, default=None, help="deals per round [default: 24000 "
                    "for four, 12000 for the three-player decks]")
    ap.add_argument("--layouts", type=int, default=32, help="layouts per valued decision")
    ap.add_argument("--finisher", choices=("expert", "learned"), default="learned",
                    help="the play that finishes the valued deals after round 0 (learned: the "
                    "weights of the round before)")
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--maxiter", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--eval-deals", type=int, default=20000, help="duplicate deals of the "
                    "strength check (learned against expert)")
    ap.add_argument("--work", type=Path, default=ROOT / "data" / "train")
    ap.add_argument("--fresh", action="store_true", help="collect again what --work holds")
    ap.add_argument("--model", type=Path, default=MODEL, help="where the weights go (the "
                    "rounds after the first play the package's own weights: other paths are "
                    "for tests)")
    ap.add_argument("--card", type=Path, default=CARD, help="where the data card goes")
    ap.add_argument("--no-measure", action="store_true", help="skip the strength and speed "
                    "measurement (scripts/measure_play.py) of the data card")
    ap.add_argument("--rollout-deals", type=int, default=2000, help="deals of the match "
                    "against rollout:n=16")
    ap.add_argument("--measure-only", action="store_true", help="train nothing: measure the "
                    "weights in place and write the data card with the rounds of the last "
                    "training (--work/rounds.json), after a change of the policy's code")
    ap.add_argument("--tables", type=_tables, default=TABLES, help="the bidding strategies "
                    "of the tables the deals are bid at, comma-separated, taking turns by "
                    f"blocks of {STEP} deals [default: {','.join(TABLES)}]")
    ap.add_argument("--collect", nargs=9, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.collect:
        seed, start, count, play, layouts, finisher, out, deck, tables = args.collect
        collect(int(seed), int(start), int(count), play, int(layouts), finisher, Path(out),
                deck, tuple(tables.split(",")))
        return
    _deck_defaults(args)
    if args.measure_only:
        last = json.loads((args.work / "rounds.json").read_text())
        if isinstance(last, list):  # the first format: the rounds alone
            last = {"rounds": last, "minutes": None}
        write_card(args, last["rounds"], measure(args), last["minutes"])
        return
    from whist_sim.compiled.strategies.play.learned import N_CONTEXTS
    from whist_sim.core.play_features import N_FEATURES, weight_rows

    args.work.mkdir(parents=True, exist_ok=True)
    if args.start == "zero":
        W = np.zeros((N_CONTEXTS, N_FEATURES))
        note = "weights 0 (the start of the training)"
    else:
        models, _ = read_model(args.model)
        if args.start not in models:
            raise SystemExit(f"error: --start {args.start}: {args.model} has no weights for "
                             f"that deck")
        W = np.array(weight_rows(models[args.start]), dtype=float) / SCALE
        note = f"the {args.start} weights (the start of the training)"
    write_model(args.model, args.deck, np.round(W * SCALE), note)
    train_parts: list[dict] = []
    rounds = []
    t0 = time.time()
    for r in range(args.rounds):
        print(f"{args.deck}, round {r}: collecting", file=sys.stderr, flush=True)
        parts = [dict(np.load(f)) for f in run_round(args, r, args.work)]
        part = _concat(parts)
        cut = np.quantile(np.unique(part["deal"]), 1 - HELD_OUT)
        train_parts.append(_rows(part, part["deal"] < cut))
        held = Decisions([_rows(part, part["deal"] >= cut)], N_CONTEXTS)
        print(f"{args.deck}, round {r}: fitting {sum(len(p['decision']) for p in train_parts)} "
              "rows", file=sys.stderr, flush=True)
        W = fit(Decisions(train_parts, N_CONTEXTS), W, args.l2, args.maxiter)
        Wi = np.round(W * SCALE)
        rounds.append({
            "round": r, "play": play_of(args, r), "seed": args.seed + r,
            "finisher": finisher_of(args, r),
            "deals": args.deals, "held_out_decisions": held.n,
            "regret_expert": held.expert_regret(),
            "regret_played": held.chosen_regret(),
            "regret_fitted": held.regret(Wi / SCALE),
            "agreement_fitted_with_played": held.agreement(Wi / SCALE),
            "agreement_expert_with_played": held.expert_agreement(),
        })
        print(json.dumps(rounds[-1]), file=sys.stderr, flush=True)
        start = "" if args.start == "zero" else f" from the {args.start} weights"
        write_model(args.model, args.deck, Wi, f"seed {args.seed}, {r + 1} rounds of "
                    f"{args.deals} deals, {args.layouts} layouts a decision{start}")
    minutes = (time.time() - t0) / 60
    (args.work / "rounds.json").write_text(json.dumps({"rounds": rounds, "minutes": minutes},
                                                      indent=1))
    print(f"trained in {minutes:.0f} min; measuring", file=sys.stderr, flush=True)
    measured = {"markdown": "(not measured: --no-measure)"} if args.no_measure else measure(args)
    write_card(args, rounds, measured, minutes)


#: the options of a deck's training when not given: (seed, rounds, deals per round, start)
DECK_DEFAULTS = {"four": (11, 4, 24000, "zero"), "no_suit": (21, 3, 12000, "four"),
                 "no_low": (31, 5, 12000, "four"), "one_random": (41, 3, 12000, "four")}


def _deck_defaults(args) -> None:
    """Fill the options not given with the deck's defaults (:data:`DECK_DEFAULTS`); a
    three-player deck's rounds are collected under ``--work``/deck."""
    seed, rounds, deals, start = DECK_DEFAULTS[args.deck]
    args.seed = seed if args.seed is None else args.seed
    args.rounds = rounds if args.rounds is None else args.rounds
    args.deals = deals if args.deals is None else args.deals
    args.start = start if args.start is None else args.start
    if args.start == args.deck:
        raise SystemExit(f"error: --start {args.start}: a deck cannot start from itself")
    if args.deck != "four":
        args.work = args.work / args.deck


def measure(args) -> dict:
    """scripts/measure_play.py in a fresh process (the policy compiles with the weights in
    place)."""
    return json.loads(subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "measure_play.py"), "--deals",
         str(args.eval_deals), "--rollout-deals", str(args.rollout_deals), "--deck", args.deck],
        cwd=ROOT,
        check=True, stdout=subprocess.PIPE, text=True).stdout)


def _rows(part: dict, keep: np.ndarray) -> dict:
    """The rows ``keep`` of ``part`` (whole decisions), decisions numbered from 0."""
    out = {k: (v[keep] if k != "picks" else v) for k, v in part.items() if k != "key"}
    if len(out["decision"]):
        out["decision"] = np.unique(out["decision"], return_inverse=True)[1]
    return out


def _concat(parts: list[dict]) -> dict:
    off = 0
    dec = []
    for p in parts:
        dec.append(p["decision"] + off)
        off += int(p["decision"].max()) + 1 if len(p["decision"]) else 0
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]
           if k not in ("picks", "key")}
    out["decision"] = np.concatenate(dec)
    out["picks"] = parts[0]["picks"]
    return out


def write_card(args, rounds: list[dict], m: dict, minutes: float | None) -> None:
    """Write the data card: the four-player part (:func:`data_card`) and a section per
    three-player deck (:func:`deck_section`); the trained deck's part is written anew, the
    others are kept as the card holds them."""
    parts = card_parts(args.card.read_text() if args.card.exists() else "")
    if args.deck == "four":
        parts["four"] = data_card(args, rounds, m, minutes)
    else:
        parts[args.deck] = deck_section(args, rounds, m, minutes)
    text = parts.get("four", "# The `learned` play policy: data card\n")
    for d in DECKS[1:]:
        if d in parts:
            text = text.rstrip("\n") + "\n\n" + parts[d]
    args.card.write_text(text.rstrip("\n") + "\n")


def card_parts(text: str) -> dict[str, str]:
    """The parts of a data card by deck: ``four`` (everything before the first deck section)
    and each three-player deck's section (between its markers, markers included)."""
    import re

    parts = {}
    sections = list(re.finditer(r"<!-- deck: (\w+) -->\n.*?<!-- /deck: \1 -->\n?", text,
                                re.S))
    head = text[: sections[0].start()] if sections else text
    if head.strip():
        parts["four"] = head.rstrip("\n") + "\n"
    for sec in sections:
        parts[sec.group(1)] = sec.group(0).rstrip("\n") + "\n"
    return parts


def deck_section(args, rounds: list[dict], m: dict, minutes: float | None) -> str:
    """The data card's section of a three-player deck's model."""
    from whist_sim import __version__

    lines = [
        f"<!-- deck: {args.deck} -->",
        f"## Three players, the `{args.deck}` deck",
        "",
        f"Trained by `python scripts/train_play.py --deck {args.deck}` (`make train`) on deals "
        f"of three players with `--three-player-deck {args.deck}`; the weights are "
        f"`MODELS[\"{args.deck}\"]` in the same file.",
        "",
        "| item | value |",
        "| --- | --- |",
        f"| teacher | as for four players: {args.layouts} layouts a decision, every candidate "
        f"finished at every seat by `{args.finisher}` with the weights of the round before |",
        f"| deals | {args.rounds} rounds of {args.deals:,} deals, {bidding_text(args)}, every "
        "round played by `learned` with the weights of the round before (round 0: the start "
        "weights) |",
        f"| start | the `{args.start}` weights |" if args.start != "zero" else
        "| start | weights 0 |",
        f"| seed | {args.seed} (round r: seed + r) |",
        f"| fit | as for four players, from the start weights: expected regret + {args.l2:g} x "
        f"squared weights, at most {args.maxiter} iterations |",
        f"| training time | {minutes:.0f} min on {args.jobs} cores |" if minutes is not None
        else "| training time | - |",
        f"| version | whist-sim {__version__} |",
        "",
        "| round | played by | decisions | regret: expert | played | learned | agreement: "
        "learned | expert |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines += [_round_row(r) for r in rounds]
    lines += ["", m["markdown"], "", f"<!-- /deck: {args.deck} -->"]
    return "\n".join(lines) + "\n"


def _round_row(r: dict) -> str:
    """A row of the data card's table of rounds."""
    return (f"| {r['round']} | `{r['play']}` | {r['held_out_decisions']:,} | "
            f"{r['regret_expert']:.2f} | {r['regret_played']:.2f} | {r['regret_fitted']:.2f} | "
            f"{100 * r['agreement_fitted_with_played']:.1f} % | "
            f"{100 * r['agreement_expert_with_played']:.1f} % |")


def data_card(args, rounds: list[dict], m: dict, minutes: float | None) -> str:
    from whist_sim import __version__
    from whist_sim.compiled.strategies.play.learned import N_CONTEXTS
    from whist_sim.core.play_features import FEATURES

    lines = [
        "# The `learned` play policy: data card",
        "",
        "Written by `scripts/train_play.py` (`make train`); the weights are",
        "`whist_sim/core/play_model.py`, the policy is docs/ENGINE.md §8. The file holds one",
        "model per deck: this part is the four-player model's (`MODELS[\"four\"]`), each",
        "three-player deck's model has its section at the end (started from the four-player",
        "weights and fitted on that deck's deals).",
        "",
        "| item | value |",
        "| --- | --- |",
        f"| teacher | the value of every candidate card by search: {args.layouts} layouts of the "
        "unseen cards a decision (drawn with the inference of the calls and contracts), every "
        "candidate (the lowest card of each run: no card still out or on the trick between "
        "them) finished at every seat by the round's finisher (`card_values`): "
        + ("`expert`" if args.finisher == "expert" else
           "`expert` in round 0, then `learned` with the weights of the round before")
        + " |",
        f"| deals | {args.rounds} rounds of {args.deals:,} deals, {bidding_text(args)}; round 0 "
        f"played by `{TEACHER0}` at every seat, each later round by `learned` with the weights "
        "of the round before |",
        f"| seed | {args.seed} (round r: seed + r); every run with the same options writes the "
        "same weights |",
        f"| fit | softmax over the legal cards, expected regret + {args.l2:g} x squared "
        f"weights, L-BFGS from weights 0, at most {args.maxiter} iterations; weights x "
        f"{SCALE}, rounded |",
        f"| features | {len(FEATURES)} per card: " + ", ".join(f"`{f}`" for f in FEATURES)
        + f"; {N_CONTEXTS} situations |",
        f"| size | {args.model.stat().st_size:,} bytes |",
        f"| training time | {minutes:.0f} min on {args.jobs} cores |" if minutes is not None
        else "| training time | - |",
        f"| version | whist-sim {__version__} |",
        "",
        "Held-out decisions of each round (the last 15 % of its deals): the mean regret per "
        "decision (points the seat loses against the best candidate, by the teacher's values) "
        "of `expert`, of the card the round's play chose, and of the fitted weights; and how "
        "often the fitted weights and `expert` pick the run of cards the round's play chose.",
        "",
        "| round | played by | decisions | regret: expert | played | learned | agreement: "
        "learned | expert |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines += [_round_row(r) for r in rounds]
    lines += ["", m["markdown"], ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
