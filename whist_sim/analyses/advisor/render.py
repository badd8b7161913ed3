"""The outputs of an advice: the text ``whist-sim advise`` prints, the JSON form and the plot.

:class:`AdviceOutput` gives :class:`whist_sim.analyses.advisor.evaluate.Advice` its output methods
(``str(advice)``, :meth:`~AdviceOutput.to_dict`, :meth:`~AdviceOutput.to_json`,
:meth:`~AdviceOutput.figure`, :meth:`~AdviceOutput.plot`); they read the advice's fields
(``scenario``, ``table``, ``strains``, ``recommended`` ...), its ``mode``, ``acceptance`` and
``bids_table()``, and hand the double-dummy part to ``advice.dd`` (its ``lines``, ``to_dict`` and
``draw``), so this module needs neither the evaluation nor the double-dummy module.

Conventions: numbers are rounded only here (the tables keep raw values); in JSON a missing value
is ``null`` and numbers keep 7 significant digits (:mod:`whist_sim.analyses.advisor.cells`); the
schema is documented in docs/ADVISOR.md (:data:`JSON_SCHEMA`). matplotlib is imported only to plot.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pandas as pd

from ...core.cards import STRAINS, format_hand
from ...engine.state import call_str
from .cells import json_number, pct_cell
from .scenario import AdviceError, auction_text

__all__ = ["JSON_SCHEMA", "AdviceOutput", "render_text"]

JSON_SCHEMA = "whist-sim/advice/1"


class AdviceOutput:
    """The output methods of an advice (mixed into
    :class:`whist_sim.analyses.advisor.evaluate.Advice`)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form documented in docs/ADVISOR.md (NaN becomes ``None``)."""
        s = self.scenario
        n = s.rules.n_tricks

        def bid_rows(df: pd.DataFrame) -> list[dict[str, Any]]:
            rows = []
            for b, r in df.iterrows():
                rows.append({
                    "bid": int(b),
                    "p_make": json_number(r["p_make"]),
                    "p_make_ci": [json_number(r["p_make_lo"]), json_number(r["p_make_hi"])],
                    "ev": json_number(r["ev"]),
                    "ev_ci": [json_number(r["ev_lo"]), json_number(r["ev_hi"])],
                    "e_tricks": json_number(r["e_tricks"]),
                    "p_over": json_number(r["p_over"]),
                    "tricks": [json_number(r[f"t{t}"]) for t in range(n + 1)],
                    "searched": bool(r["searched"]),
                })
            return rows

        out: dict[str, Any] = {
            "schema": JSON_SCHEMA,
            "mode": s.mode,
            "hand": format_hand(s.hand),
            "seat": s.seat,
            "declarer": s.declarer,
            "trump": STRAINS[s.trump] if s.trump >= 0 else None,
            "level": s.level,
            "earlier_bids": list(s.bids),
            "auction": [call_str(c) for c in s.calls] if s.calls else None,
            "dealer": s.dealer if s.calls else None,
            "position": s.position,
            "forbidden": s.forbidden,
            "recommended": self.recommended,
            "runner_up": self.runner_up,
            "ev_diff": json_number(self.ev_diff),
            "ev_diff_ci": (None if self.ev_diff_ci is None
                           else [json_number(x) for x in self.ev_diff_ci]),
            "confidence": self.confidence,
            "bids": bid_rows(self.bids_table()),
            "deals": self.deals,
            "deals_tried": self.tries,
            "acceptance_rate": json_number(self.acceptance),
            "seed": self.seed,
            "play": self.play,
            "screen": (None if not self.screen else
                       {"play": self.screen_play, "kept_per_strain": self.screen}),
            "bid_policy": self.bid_policy,
            "consistent": self.infer.on,  # the schema's old name of infer (docs/ADVISOR.md)
            "infer": self.infer.on,
            "model": self.infer.model or self.bid_policy,
            "eps": self.infer.eps,
            "effective_deals": self.deals,
            "constraints": list(s.constraints),
            "known": {str(seat): format_hand(m) for seat, m in enumerate(s.known)
                      if m and seat != s.seat},
            "rules": s.rules.to_dict(),
            "best_call": self.best_call,
            "close_call": self.close_call is not None,
            "close_call_bids": (None if self.close_call is None
                                else [self.recommended, self.runner_up]),
            "close_call_why": self.close_call,
            "strains": None,
        }
        if self.strains is not None:
            out["strains"] = [
                {
                    "strain": strain,
                    "best_bid": int(r["bid"]),
                    "ev": json_number(r["ev"]),
                    "ev_ci": [json_number(r["ev_lo"]), json_number(r["ev_hi"])],
                    "p_make": json_number(r["p_make"]),
                    "e_tricks": json_number(r["e_tricks"]),
                    "tricks": [json_number(r[f"t{t}"]) for t in range(n + 1)],
                    "bids": bid_rows(self.table.xs(strain, level="strain")),
                }
                for strain, r in self.strains.iterrows()
            ]
        if self.check is not None:  # only when checked against search: other keys unchanged
            out["check"] = self.check.to_dict()
        if self.dd is not None:  # only with the double-dummy evaluation: other keys unchanged
            out["eval"] = self.evaluation
            out["dd"] = self.dd.to_dict()
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def __str__(self) -> str:
        return render_text(self)

    def figure(self):
        """A matplotlib figure (Agg canvas, no pyplot): expected score per bid with CI bars."""
        from ..reports.charts import new_figure

        fig = new_figure(7.0, 4.2) if self.dd is None else new_figure(7.0, 7.6)
        ax = fig.add_subplot() if self.dd is None else fig.add_subplot(2, 1, 1)
        pct = round(self.confidence * 100)
        if self.mode == "contract":
            df = self.table
            x = df.index.to_numpy()
            ev = df["ev"].to_numpy(float)
            err = np.nan_to_num(np.vstack([ev - df["ev_lo"], df["ev_hi"] - ev]))
            colors = ["#d62728" if b == self.recommended else "#4c72b0" for b in x]
            ax.bar(x, ev, yerr=err, capsize=3, color=colors, error_kw={"elinewidth": 1})
            ax.set_xticks(x)
            title = (f"{format_hand(self.scenario.hand)}: trump {STRAINS[self.scenario.trump]}, "
                     f"position {self.scenario.position + 1}")
        else:
            for strain in STRAINS:
                part = self.table.xs(strain, level="strain")
                x = part.index.to_numpy()
                ev = part["ev"].to_numpy(float)
                err = np.nan_to_num(np.vstack([ev - part["ev_lo"], part["ev_hi"] - ev]))
                ax.errorbar(x, ev, yerr=err, marker="o", ms=3, capsize=2, label=strain)
            ax.legend(title="trump", fontsize=8)
            title = f"{format_hand(self.scenario.hand)}: declaring in each strain"
        ax.axhline(0, color="0.6", lw=0.8)
        ax.set_xlabel("contract (tricks bid)")
        ax.set_ylabel("expected score (points)")
        ax.set_title(title, fontsize=10)
        ax.text(0.99, 0.02, f"{self.deals:,} deals; bars: {pct}% CI", transform=ax.transAxes,
                ha="right", va="bottom", fontsize=8, color="0.35")
        if self.dd is not None:
            self.dd.draw(fig.add_subplot(2, 1, 2), self.mode)
        return fig

    def plot(self, path: str) -> None:
        """Write :meth:`figure` to ``path`` (the format follows the extension, e.g. ``.png``)."""
        fig = self.figure()
        try:
            fig.savefig(path, dpi=100)
        except (OSError, ValueError) as e:
            raise AdviceError(f"cannot write the plot {path!r}: {e}") from None


def _ci_text(lo: float, hi: float, pct: bool) -> str:
    if math.isnan(lo) or math.isnan(hi):
        return "[   -   ]"
    if pct:
        return f"[{100 * lo:5.1f}, {100 * hi:5.1f}]"
    return f"[{lo:7.1f}, {hi:7.1f}]"


def _bid_lines(df: pd.DataFrame, n_tricks: int, mark: int | None) -> list[str]:
    lines = [f"  {'bid':>3}  {'P(make)':>7} {'CI':>14}  {'E[score]':>8} {'CI':>18}  "
             f"{'E[tricks]':>9}  {'P(over)':>7}"]
    for b, r in df.iterrows():
        star = " <" if b == mark else ("" if r["searched"] else " ~")
        make_ci = _ci_text(r["p_make_lo"], r["p_make_hi"], True)
        lines.append(
            f"  {int(b):>3}  {pct_cell(r['p_make']):>7} {make_ci}"
            f"  {r['ev']:8.1f} {_ci_text(r['ev_lo'], r['ev_hi'], False)}  {r['e_tricks']:9.2f}"
            f"  {pct_cell(r['p_over']):>7}{star}"
        )
    lines.append("")
    lines.append("  tricks taken (%) by bid:")
    head = "  bid " + "".join(f"{t:>4}" for t in range(n_tricks + 1))
    lines.append(head)
    for b, r in df.iterrows():
        cells = []
        for t in range(n_tricks + 1):
            v = r[f"t{t}"]
            cells.append(f"{'.':>4}" if v == 0 else f"{min(99, round(100 * v)):>4}"
                         if v >= 0.005 else f"{'0':>4}")
        lines.append(f"  {int(b):>3} " + "".join(cells))
    return lines


def render_text(a: AdviceOutput) -> str:
    """The advice as readable text (what ``whist-sim advise`` prints)."""
    s = a.scenario
    n = s.rules.n_tricks
    p = s.rules.players
    from ..reports.labels import position_label

    lines = [f"hand {format_hand(s.hand)} ({format_hand(s.hand, style='suits')}), seat {s.seat}"]
    if s.mode == "contract":
        earlier = ", ".join(map(str, s.bids)) if s.bids else "none"
        lines.append(
            f"contract phase: declarer seat {s.declarer}, trump {STRAINS[s.trump]}, level "
            f"{s.level}; earlier bids {earlier}; you bid {position_label(s.position, p)}"
            + (f" and may not bid {s.forbidden}" if s.forbidden is not None else "")
        )
    else:
        lines.append(f"auction: declaring in each strain, contracts {s.level}..{n}")
    cond = []
    if s.constraints:
        cond.append("constraints " + ", ".join(s.constraints))
    for seat, m in enumerate(s.known):
        if m and seat != s.seat:
            cond.append(f"seat {seat} holds {format_hand(m)}")
    if s.calls:
        lines.append(f"auction (dealer seat {s.dealer}): {auction_text(s.calls)}")
    if a.reads_table:
        what = " and ".join((["the earlier bids"] if s.bids else [])
                            + (["the calls"] if s.calls else []))
        cond.append(f"reading {what} as {a.infer.model or a.bid_policy} would "
                    f"(eps {a.infer.eps:g})")
    lines.append(
        f"{a.deals:,} sampled deals (seed {a.seed}), play {a.play}, others bid {a.bid_policy}"
        + (f"; {'; '.join(cond)}; acceptance {a.acceptance:.2%} of {a.tries:,} deals dealt"
           if cond else "")
    )
    lines.append("")
    if s.mode == "auction":
        lines.append("  strain  best bid  E[score]        CI            P(make)  E[tricks]")
        for strain, r in a.strains.iterrows():
            star = " <" if strain == STRAINS[a.best_strain] else ""
            lines.append(
                f"  {strain:>6}  {int(r['bid']):>8}  {r['ev']:8.1f} "
                f"{_ci_text(r['ev_lo'], r['ev_hi'], False)}  {pct_cell(r['p_make']):>7}"
                f"  {r['e_tricks']:9.2f}{star}"
            )
        lines.append("")
        lines.append(f"trump {STRAINS[a.best_strain]}, contracts if you declare:")
    lines.extend(_bid_lines(a.bids_table(), n, a.recommended))
    if a.screen and not a.table["searched"].all():
        lines.append(f"  ~ screened out: played with {a.screen_play} on the same deals, these "
                     f"were not among the {a.screen} best of their strain, so {a.play} did not "
                     "search them (their numbers are "
                     f"{a.screen_play}'s; --screen 0 searches every bid)")
    lines.append("")
    pct = round(a.confidence * 100)
    rec = a.bids_table().loc[a.recommended]
    text = f"recommended bid: {a.recommended} (expected score {rec['ev']:.1f} points"
    if a.runner_up is not None and a.ev_diff_ci is not None:
        lo, hi = a.ev_diff_ci
        sure = "clearly better" if lo > 0 else "not clearly better"
        text += (f"; {a.ev_diff:+.1f} vs. the runner-up {a.runner_up}, {pct}% CI "
                 f"[{lo:+.1f}, {hi:+.1f}] paired over the same deals: {sure})")
    else:
        text += ")"
    lines.append(text)
    if a.close_call is not None:
        lines.append(f"a close call between {a.recommended} and {a.runner_up}: {a.close_call}; "
                     "either is a sound bid")
    if s.mode == "auction":
        if a.best_call == "pass":
            lines.append("best call: pass (declaring loses points on average in every strain)")
        else:
            lines.append(
                f"best call: {a.best_call} (compete up to {a.recommended}"
                f"{STRAINS[a.best_strain]}: the contract with the best expected score)"
            )
    if a.check is not None:
        lines.extend(a.check.lines(a.play, s.mode == "auction"))
    if a.dd is not None:
        lines.extend(a.dd.lines(s.mode))
    return "\n".join(lines)

