"""Training: the contract model of the ``learned`` bidder, fitted to the values of search.

    python scripts/train_bidding.py [--seed 0] [--min-hands 50] [--deals 200] [--hands FILE]

The labels are a bid chart's hands (``whist-sim bid-chart --no-check``, four players, rule-book
defaults, ``heuristic`` bidding at the other seats, ``learned`` play): each hand's every legal
contract played on the same ``--deals`` sampled deals, its value the mean score. The model
(:mod:`whist_sim.core.bid_features`) values every legal contract from the hand's features; its
weights are fitted to those values by a softmax over the legal contracts (temperature
``--tau`` points) minimising the expected regret (the hand's best value less the chosen
contract's) plus ``--l2`` times the squared weights, by L-BFGS from fixed starting weights, on
80 % of the hands (split by ``--seed``); the other 20 % measure it. The weights are rounded to
integers of 1 / ``SCALE`` and measured again as rounded, by the reference engine's own
:func:`~whist_sim.engine.learned_bidding.contract_values`, against the heuristic's contracts on the
same held-out hands.

Writes ``whist_sim/core/bid_model.py`` (the weights) and ``docs/BID_MODEL.md`` (the data card).
Deterministic from ``--seed`` and the options. ``make train`` runs it after the play's
training: a few minutes on two cores.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "whist_sim" / "core" / "bid_model.py"
CARD = ROOT / "docs" / "BID_MODEL.md"
HELD_OUT = 0.2


def chart_hands(seed: int, min_hands: int, deals: int) -> Path:
    """Run the bid chart that labels the hands; return its ``hands.parquet``."""
    out = Path(tempfile.mkdtemp(prefix="train-bidding-"))
    cmd = [sys.executable, "-m", "whist_sim", "bid-chart", "--min-hands", str(min_hands),
           "--deals", str(deals), "--no-check", "--seed", str(seed), "--out", str(out)]
    print("labels:", " ".join(cmd[2:]), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return out / "hands.parquet"


def table(path: Path):
    """The hands of a chart as arrays: features, position class, over known, legal mask,
    values (NaN: illegal), and the heuristic's contract."""
    import pandas as pd

    from whist_sim.core.bid_features import CLASS_DECLARER, CLASS_LAST, position_class
    from whist_sim.core.rules import Rules
    from whist_sim.engine.learned_bidding import contract_features
    from whist_sim.engine.policies import contract_from_estimate, est_q

    h = pd.read_parquet(path)
    rules = Rules()
    n_tricks = rules.n_tricks
    players = rules.players
    ev = h[[f"ev_{b}" for b in range(n_tricks + 1)]].to_numpy(float)
    feats, cls, over, heur = [], [], [], []
    for hand, trump, pos, earlier, level in zip(h["hand"], h["trump"], h["position"],
                                               h["earlier_sum"], h["level"], strict=True):
        hand, trump, pos, earlier = int(hand), int(trump), int(pos), int(earlier)
        c = position_class(pos == 0, pos, players)
        q = est_q(hand, trump, rules)
        feats.append(contract_features(hand, trump, earlier, q, rules))
        cls.append(c)
        over.append((1 if earlier > n_tricks else 0) if c == CLASS_LAST else -1)
        legal = [b for b in range(n_tricks + 1) if not np.isnan(ev[len(heur), b])]
        heur.append(contract_from_estimate(q, n_tricks, c == CLASS_DECLARER, int(level), legal))
    return (np.array(feats, dtype=float), np.array(cls), np.array(over), ~np.isnan(ev), ev,
            np.array(heur))


def values(theta: np.ndarray, F: np.ndarray, cls: np.ndarray, over: np.ndarray, n: int):
    """Every contract's model value (hands x contracts), the formula of
    :func:`whist_sim.engine.learned_bidding.contract_values` at the default scoring, vectorised;
    ``theta``: the rows of weights in real units (3 x row length)."""
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

    r = Rules()
    W = theta.reshape(3, -1)[cls]
    t = (F * W[:, COL_T:COL_T + N_BID_FEATURES]).sum(1)
    z = (F * W[:, COL_Z:COL_Z + N_BID_FEATURES]).sum(1)
    steer = W[:, COL_STEER]
    spread = np.exp(W[:, COL_LOG_SPREAD])
    b = np.arange(n + 1, dtype=float)
    mean = t[:, None] + steer[:, None] * (b[None, :] - t[:, None])
    k = np.arange(n + 1, dtype=float)
    edge = np.where(k < n, k + 0.5, np.inf)
    cdf = 0.5 * erfc((mean[:, :, None] - edge[None, None, :])
                     / (spread[:, None, None] * np.sqrt(2.0)))
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
    out[:, 0] = p0 * made + (1 - p0) * (first + (score(0, 2, False, r) - first) * ZERO_FAIL_EXTRA)
    return out


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


def fit(F, cls, over, legal, ev, idx, tau: float, l2: float, maxiter: int) -> np.ndarray:
    """The weights (real units) minimising the softmax-expected regret on hands ``idx``."""
    from scipy.optimize import minimize

    n = legal.shape[1] - 1
    evf = np.where(legal, ev, 0.0)
    best = np.where(legal, ev, -np.inf).max(1)
    regret = np.where(legal[idx], best[idx, None] - evf[idx], 0.0)

    def loss(theta):
        s = np.where(legal[idx], values(theta, F[idx], cls[idx], over[idx], n) / tau, -np.inf)
        s -= s.max(1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(1, keepdims=True)
        return (p * regret).sum(1).mean() + l2 * (theta ** 2).sum()

    r = minimize(loss, start(), method="L-BFGS-B", options={"maxiter": maxiter})
    return r.x


def measure(weights, F, cls, over, legal, ev, heur, idx) -> dict:
    """Held-out regret and agreement with each hand's own best of the rounded ``weights`` (by
    the reference engine's formula) and of the heuristic's contracts, overall and per class."""
    from whist_sim.core.bid_features import CLASSES
    from whist_sim.core.rules import Rules
    from whist_sim.engine.learned_bidding import contract_values

    rules = Rules()
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


def write_model(path: Path, weights, note: str) -> None:
    rows = "\n".join("    (" + ", ".join(str(int(x)) for x in row) + ")," for row in weights)
    doc = Path(path).read_text().split('"""')[1] if Path(path).exists() else (
        "The weights of the ``learned`` bidder's contract model.")
    Path(path).write_text(f'"""{doc}"""\n\n#: {note}\nWEIGHTS: tuple[tuple[int, ...], ...] = (\n'
                          f"{rows}\n)\n")


def write_card(path: Path, opts, m: dict, hands: int, seconds: float) -> None:
    from whist_sim.core.bid_features import BID_FEATURES_TABLE

    lines = [
        "# The `learned` bidder's contract model: data card",
        "",
        "Written by `scripts/train_bidding.py` (`make train`); the model is stated in",
        "`whist_sim/core/bid_features.py`, its weights are `whist_sim/core/bid_model.py`.",
        "",
        "| | |",
        "| --- | --- |",
        "| teacher | every legal contract of a hand played on the same sampled deals, its value "
        "the mean score (`whist-sim bid-chart --no-check`) |",
        f"| hands | {hands:,} (`--min-hands {opts.min_hands}`), {opts.deals} deals each, "
        f"seed {opts.seed}; four players, rule-book defaults |",
        "| table | `heuristic` bidding at the other seats, `learned` play everywhere |",
        f"| fit | softmax over the legal contracts (temperature {opts.tau} points), expected "
        f"regret + {opts.l2} x squared weights, L-BFGS; {1 - HELD_OUT:.0%} of the hands, the "
        f"other {HELD_OUT:.0%} held out (split by the seed) |",
        f"| training time | {seconds:.0f} s on two cores ("
        + ("the fit; the labels, a bid chart of these sizes, about a minute more) |"
           if opts.hands else "the labels and the fit) |"),
        "| what it decides | the contract; auction calls and Frisch passes are the heuristic's |",
        "| trained on | four players, default rules; other rule sets use the same weights, "
        "with their own scoring numbers and trick counts (not measured yet) |",
        "",
        "## Held-out figures",
        "",
        "Regret: the hand's own best value less the value of the contract chosen, points per "
        "decision; own best: how often the contract chosen is the hand's own best.",
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
    lines += ["", "## Features", "", "| feature | holds |", "| --- | --- |"]
    lines += [f"| `{f.name}` | {f.doc} |" for f in BID_FEATURES_TABLE]
    lines.append("")
    Path(path).write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--min-hands", type=int, default=50)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--hands", type=Path, help="a bid chart's hands.parquet to fit (skips the "
                    "chart run)")
    ap.add_argument("--tau", type=float, default=2.0)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--maxiter", type=int, default=300)
    ap.add_argument("--model", type=Path, default=MODEL)
    ap.add_argument("--card", type=Path, default=CARD)
    opts = ap.parse_args(argv)
    from whist_sim.core.bid_features import SCALE

    t0 = time.perf_counter()
    path = opts.hands or chart_hands(opts.seed, opts.min_hands, opts.deals)
    F, cls, over, legal, ev, heur = table(path)
    perm = np.random.default_rng(opts.seed).permutation(len(F))
    cut = int((1 - HELD_OUT) * len(F))
    train, test = np.sort(perm[:cut]), np.sort(perm[cut:])
    theta = fit(F, cls, over, legal, ev, train, opts.tau, opts.l2, opts.maxiter)
    weights = tuple(tuple(int(round(x * SCALE)) for x in row) for row in theta.reshape(3, -1))
    seconds = time.perf_counter() - t0
    m = measure(weights, F, cls, over, legal, ev, heur, test)
    print(f"held out: learned regret {m['model_regret']:.2f}, heuristic "
          f"{m['heuristic_regret']:.2f} points per decision ({m['hands']} hands)")
    write_model(opts.model, weights, f"seed {opts.seed}, {len(F)} hands of a bid chart, "
                f"{opts.deals} deals each")
    write_card(opts.card, opts, m, len(F), seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
