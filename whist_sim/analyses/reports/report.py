"""The full report of a dataset: which tables and charts, in which sections, with what provenance.

:func:`build_report` is pure (a tally in, a :class:`Report` value out: tables as DataFrames and
charts as functions that draw a figure); :mod:`whist_sim.analyses.reports.render` writes it out as
Markdown, CSV, PNG and HTML (:func:`write_report`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ...core.rules import Rules, RulesError
from ...core.version import __version__
from . import charts, dd_tables, tables
from .items import ChartItem, Report, Section, TableItem
from .report_check_section import check_section, zero_table
from .tally import Tally, as_tally
from .wording import (
    bidding_position_name,
    glossary_rows,
    points_interval,
    rules_in_words,
    seat_name,
    share_interval,
    share_text,
)


def _rules_text(manifest: Mapping[str, Any] | None) -> str:
    if not manifest or not isinstance(manifest.get("rules"), Mapping):
        return "unknown"
    try:
        return rules_in_words(Rules.from_dict(dict(manifest["rules"])))
    except (RulesError, TypeError):
        return "invalid rules in manifest"


def _policies_line(t: Tally) -> str:
    """Who bids and plays how: ``every seat: heuristic bidding, learned play``, or seat by seat
    (seat ``s`` deals the ``s``-th deal; the deal moves to the left)."""
    m = t.manifest or {}
    src = m.get("policies", m) if isinstance(m.get("policies", m), Mapping) else m
    bid, play = src.get("bid"), src.get("play")
    if isinstance(bid, list) and isinstance(play, list) and len(bid) == len(play) == t.players:
        pairs = [f"{b} bidding, {p} play" for b, p in zip(bid, play, strict=True)]
        if len(set(pairs)) == 1:
            return f"every seat: {pairs[0]}"
        return "; ".join(f"seat {s}: {x}" for s, x in enumerate(pairs)) + \
            " (seat 0 deals first; the deal moves to the left)"
    if len(set(t.policies)) == 1:
        return f"every seat: {t.policies[0]}"
    return ", ".join(f"seat {s}: {p}" for s, p in enumerate(t.policies))


def provenance(
    t: Tally,
    source: str | None = None,
    command: str | None = None,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The lines that say where a report comes from: run options, versions, command, ``extra``."""
    m = t.manifest or {}
    meta: dict[str, str] = {}
    if source:
        meta["dataset"] = source
    if command:
        meta["command"] = command
    for key, label in (("deals", "deals in run"), ("seed", "seed")):
        if key in m:
            meta[label] = f"{m[key]:,}" if key == "deals" else str(m[key])
    if m.get("status") and m.get("status") != "complete":
        meta["run status"] = f"{m['status']} (a partial run: only its finished chunks are counted)"
    meta["deals reported"] = f"{t.n_deals:,}"
    meta["rules"] = _rules_text(m)
    meta["bidding and play"] = _policies_line(t)
    ver = m.get("package_version") or m.get("version")
    if ver:
        meta["simulated with"] = f"whist-sim {ver}"
    meta["reported with"] = f"whist-sim {__version__}"
    meta.update(extra or {})
    return meta


def build_report(
    data: pd.DataFrame | Tally,
    title: str = "whist-sim report",
    source: str | None = None,
    command: str | None = None,
    extra_meta: Mapping[str, str] | None = None,
    compare: tuple[str, pd.DataFrame | Tally] | None = None,
    label: str | None = None,
    zero_paired: tuple[pd.DataFrame, str] | None = None,
    check: tuple[str, pd.DataFrame | Tally] | None = None,
) -> Report:
    """Assemble every table and chart of the standard report from a DataFrame or a tally.

    ``source`` (the dataset as the user named it), ``command`` (the command line that made the
    report) and ``extra_meta`` (more label -> text lines) go into the provenance lines; pass
    relative paths. ``compare``: ``(label, data)`` of a companion dataset (the same deals and
    options under another play policy): a section "Play model" sets the headline numbers of
    the two side by side (:func:`whist_sim.analyses.reports.tables.compare_summaries`), the
    companion first; ``label`` names this dataset there (default: its policies). ``zero_paired``:
    ``(table, how)``, the paired zero-bid value by position and HCP band
    (:func:`whist_sim.analyses.advisor.bidchart.paired_zero_value`) and a line saying how it was
    made; the "Zero bids" section shows it beside the heuristic's own choices. ``check``: ``(play,
    data)`` of a check run (the first deals of this run with every seat playing the searching
    ``play``): a section "Checked against search" sets the headline numbers side by side with
    whether each holds, and the "Zero bids" section the zero bids made against both fields
    (:mod:`whist_sim.analyses.reports.report_check_section`).
    """
    t = as_tally(data)
    P, N = t.players, t.n_tricks
    T = tables

    success_contract = T.contract_success(t, "contract")
    success_over_pos = T.contract_success(t, ["over", "position"])
    score_pos = T.score_summary(t, "position")
    score_dist = T.score_distribution(t, "contract")
    bid_sums = T.bid_sum_distribution(t)
    zero_hcp = T.zero_value_by_hcp(t)
    heat = T.contract_vs_tricks(t)
    fr_effect = T.frisch_effect(t)
    positions = ", ".join(bidding_position_name(p, P) for p in range(P))
    places = ", ".join(seat_name(p, P) for p in range(P))

    headline = Section(
        "Headline numbers",
        "Shares are of the observations in `n` (players or deals), with their 95 % intervals "
        "(Wilson for shares, Student t for means). Scores are game points per player and "
        "deal (RULES §6).",
        (TableItem("summary", "Headline numbers", T.summary(t)),),
    )
    c_title = "Share of contracts made, by the number of tricks bid"
    p_title = f"Mean score per deal by bidding position ({positions})"
    d_title = "Spread of the score per deal, by the number of tricks bid"
    seat_items: tuple[TableItem, ...] = ()
    if (t.player_counts["place"] >= 0).all():
        seat_items = (TableItem("score_by_seat", f"Mean score per deal by seat at the table "
                                f"({places})", T.score_summary(t, "place"),
                                "points per played deal; second is the dealer's left, who "
                                "calls first in the trump auction"),)
    success = Section(
        "Contract success",
        "A contract is made when the player takes exactly the tricks he bid (RULES §6). Bidding "
        f"positions: {positions}: the declarer bids first, the last bidder is hooked (his "
        "contract may not make the sum equal the tricks in the deal, RULES §4). Counted over "
        "played deals, one entry per player.",
        (
            TableItem("success_by_contract", c_title, success_contract),
            ChartItem("success_by_contract", c_title,
                      lambda: charts.success_by_contract(success_contract, title=c_title)),
            TableItem("success_by_position", "Share of contracts made by bidding position",
                      T.contract_success(t, "position")),
            TableItem("success_by_trump", "Share of contracts made by trump suit",
                      T.contract_success(t, "trump")),
            TableItem("success_by_role", "Declarer and the other players",
                      T.contract_success(t, "role")),
            TableItem("declarer_success_by_trump", "Declarer's contracts made, by trump suit",
                      T.contract_success(t, ["role", "trump"]).xs("declarer", level="role")),
            *seat_items,
            TableItem("score_by_position", "Mean score per deal by bidding position", score_pos,
                      "points per played deal"),
            ChartItem("score_by_position", p_title,
                      lambda: charts.score_by_position(score_pos, P, title=p_title)),
            TableItem("score_distribution", d_title, score_dist,
                      "points; quantiles are scores that occurred"),
            ChartItem("score_distribution", d_title,
                      lambda: charts.score_distribution(score_dist, title=d_title)),
        ),
    )
    b_title = (f"How often the contracts of a deal add up to each total (above {N}: over deal, "
               f"below: under deal)")
    o_title = "Share of contracts made by bidding position, in under and over deals"
    overunder = Section(
        "Over and under deals",
        f"A deal is *over* when the contracts sum to more than {N} tricks and *under* when they "
        f"sum to less; {N} itself is impossible (RULES §4). Shares are of played deals.",
        (
            TableItem("over_under", "Over and under deals", T.over_under(t)),
            TableItem("bid_sum", "The sum of the contracts of a deal", bid_sums),
            ChartItem("bid_sum", b_title,
                      lambda: charts.bid_sum_histogram(bid_sums, N, title=b_title)),
            TableItem("success_by_over_position", o_title, success_over_pos),
            ChartItem("success_by_over_position", o_title,
                      lambda: charts.over_under_by_position(success_over_pos, P,
                                                            title=o_title)),
            TableItem("misses_per_deal", "Players missing their contract per deal",
                      T.misses_per_deal(t), "share of the deals of that kind"),
            TableItem("hooked_cost", "The cost of being hooked (the last bidder)",
                      T.hooked_cost(t),
                      "hooked = the last bidder; others = the "
                      "non-declarers before him; cost = mean score of the others minus the "
                      "hooked bidder's, in points per deal: above 0, the hook costs him points"),
        ),
    )
    z_title = ("Paired value of a zero bid: zero minus the best other bid for the same hand, by "
               "high-card points and bidding position")
    zero_items: list[TableItem | ChartItem] = [
        TableItem("zero_bids_by_position", "How often zero is bid, by deal and bidding position",
                  T.zero_bids(t, ["over", "position"])),
        TableItem("zero_success", "Zero bids made, in under and over deals",
                  T.zero_success(t, "over")),
    ]
    if check is not None:
        zero_items.append(zero_table(t, check, label or _policies_text(t)))
    if zero_paired is not None:
        paired = zero_paired[0]
        zero_items += [
            TableItem("zero_value_paired", "Zero against the best other bid on the same hands "
                      "and deals (paired)", paired,
                      "zero's mean score minus the best other contract's on the same hand and "
                      "the same sampled deals (the advisor's method), points per deal, by "
                      "bidding position and HCP band; above 0: bid zero. " + zero_paired[1]),
            ChartItem("zero_value_paired", z_title,
                      lambda: charts.zero_value_paired(paired, P, title=_two_lines(z_title))),
        ]
    zero_items += [
        TableItem("zero_value_by_hcp", "Zero and non-zero bids as the strategy chose them "
                  "(not a like-for-like comparison)", zero_hcp,
                  "mean score per deal (points) by HCP band of the zero bids and the "
                  "non-zero bids the bidding strategy made: it bids zero on the hands where "
                  "zero looks best, so the difference measures its choices (a selection "
                  "effect), not what zero is worth on a given hand"
                  + ("; the paired table and chart above say that" if zero_paired is not None
                     else "")),
        TableItem("failed_zeros", "Failed zero bids: tricks taken", T.failed_zero_outcomes(t)),
    ]
    zeros = Section(
        "Zero bids",
        "Zero contracts among non-declarers (the declarer's contract is at least his auction "
        "level). A zero is made with no trick at all; it scores +50 under and +25 over by "
        "default, a failed zero −50 for the first trick and +10 back for each further trick "
        "(RULES §6). HCP: A=4 K=3 Q=2 J=1 of the hand at the start of play.",
        tuple(zero_items),
    )
    f_title = "Share of contracts made, by the number of Frisches before the auction was won"
    auction = Section(
        "Auction and Frisch",
        "The winning bid's strain and level (RULES §2); Frisch = all four passed, three cards "
        "passed and a new auction with a higher minimum (RULES §3). After a third Frisch four "
        "passes throw the deal in.",
        (
            TableItem("trump", "Trump suit of played deals", T.strain_distribution(t)),
            TableItem("level", "Auction level of played deals", T.level_distribution(t)),
            TableItem("frisch", "Frisches per deal and thrown-in deals", T.frisch_distribution(t)),
            TableItem("frisch_effect", "How Frisch changes levels and success", fr_effect),
            ChartItem("frisch_effect", f_title,
                      lambda: charts.frisch_effect(fr_effect, title=f_title)),
        ),
    )
    h_title = "Tricks taken against tricks bid (share of each contract's players)"
    calibration = Section(
        "Calibration",
        "How well contracts predict the tricks taken: rows are contracts, columns tricks taken "
        "(counts of players); the error is tricks minus contract.",
        (
            TableItem("contract_vs_tricks", "Contract and tricks taken (players)", heat),
            ChartItem("contract_vs_tricks", h_title,
                      lambda: charts.contract_vs_tricks(heat, title=h_title)),
            TableItem("calibration_by_policy", "Mean absolute error by policy",
                      T.calibration_error(t, "policy"), "tricks per player and deal"),
            TableItem("calibration_by_position", "Mean absolute error by bidding position",
                      T.calibration_error(t, "position"), "tricks per player and deal"),
        ),
    )
    sections = [headline, success, overunder, zeros, auction, calibration]
    if compare is not None:
        sections.insert(1, play_section(t, compare, label))
    if check is not None:
        sections.insert(1, check_section(t, check, label or _policies_text(t)))
    if t.has_dd:
        sections.append(dd_section(t))
    return Report(
        title,
        provenance(t, source, command, extra_meta),
        tuple(sections),
        players=P,
        n_tricks=N,
        summary=report_summary(t, zero_paired[0] if zero_paired is not None else None,
                               check, label),
        glossary=tuple(glossary_rows(report_terms(t, zero_paired is not None,
                                                  check is not None, compare is not None))),
    )


def _two_lines(title: str) -> str:
    """A long chart title broken after its colon (two lines over the plot)."""
    head, sep, tail = title.partition(": ")
    return f"{head}:\n{tail}" if sep else title


def report_terms(t: Tally, paired: bool = False, checked: bool = False,
                 compared: bool = False) -> list[str]:
    """The terms a dataset's report uses, in the order its glossary lists them
    (:data:`whist_sim.analyses.reports.wording.TERMS`)."""
    terms = ["dealer, second, third, fourth", "declarer", "bidding position", "hooked",
             "cost of being hooked", "contract", "made", "over deal", "under deal", "zero bid"]
    if paired:
        terms.append("paired value of a zero")
    terms += ["HCP", "Frisch", "thrown in", "bid sum", "points", "95 % interval"]
    if compared or checked:
        terms.append("play")
    if checked:
        terms += ["check", "not contradicted", "contradicted"]
    if t.has_dd:
        terms.append("double dummy")
    return terms


def _pays_up_to(paired: pd.DataFrame, players: int) -> tuple[list[str], list[int], list[int]]:
    """Per bidding position of the paired zero table: its name, the top HCP of the bands (from
    the weakest up, without a gap) where a zero clearly pays (interval above 0; -1: none), and
    the lowest HCP from which it clearly loses (interval below 0; -1: never)."""
    names, up_to, loses = [], [], []
    for pos in sorted({int(p) for p in paired.index.get_level_values(0)}):
        part = paired.xs(pos, level=0)
        top, first_loss = -1, -1
        clear = True
        for band, r in part.iterrows():
            lo_edge, _, hi_edge = str(band).partition("-")
            lo_edge = lo_edge.rstrip("+")
            if clear and r["zero_diff_ci_low"] > 0:
                top = int(hi_edge) if hi_edge else int(lo_edge)
            else:
                clear = False
            if first_loss < 0 and r["zero_diff_ci_high"] < 0:
                first_loss = int(lo_edge)
        names.append(bidding_position_name(pos, players))
        up_to.append(top)
        loses.append(first_loss)
    return names, up_to, loses


def _range_text(values: list[int]) -> str:
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else f"{lo}–{hi}"


def report_summary(t: Tally, paired: pd.DataFrame | None = None,
                   check: tuple[str, pd.DataFrame | Tally] | None = None,
                   label: str | None = None) -> str:
    """What a dataset's report finds, in sentences with numbers, for a card player: contracts
    made by the declarer and the others, their scores, over and under deals, the hook, the zero
    bids (with the paired table: up to which hand strength a zero pays) and, with a check run,
    what the check finds."""
    P, N = t.players, t.n_tricks
    s = tables.summary(t)

    def share(metric: str) -> str:
        r = s.loc[metric]
        return share_interval(r["value"], r["ci_low"], r["ci_high"])

    def points(metric: str) -> str:
        r = s.loc[metric]
        return points_interval(r["value"], r["ci_low"], r["ci_high"], sign=False)

    lines = [f"**In short.** {t.n_deals:,} deals under {_rules_text(t.manifest)} "
             f"({_policies_line(t).replace('every seat: ', 'every seat with ')}).", ""]
    if "declarer makes contract" in s.index:
        lines.append(f"Declarers make their contract {share('declarer makes contract')} of the "
                     f"time; the other players make theirs {share('others make contract')}.")
        lines.append(f"A declarer scores {points('mean score, declarer (points/deal)')} per "
                     f"deal on average, the other players "
                     f"{points('mean score, other (points/deal)')}.")
        lines.append(f"{share('over deals (of played)')} of the played deals are over deals "
                     f"(the contracts add up to more than {N} tricks, so someone must fall "
                     "short); the rest are under deals.")
        lines.append("")
        hc = tables.hooked_cost(t)
        a = hc.loc["all"]
        mine = points_interval(a["mean_last"], a["mean_last_ci_low"], a["mean_last_ci_high"],
                               sign=False)
        theirs = points_interval(a["mean_other"], a["mean_other_ci_low"],
                                 a["mean_other_ci_high"], sign=False)
        if a["cost_ci_high"] < 0:
            verdict = ("on the whole the hook costs him nothing: he scores "
                       f"{points_interval(-a['cost'], -a['cost_ci_high'], -a['cost_ci_low'], sign=False)}"  # noqa: E501
                       " more per deal than they do")
        elif a["cost_ci_low"] > 0:
            verdict = ("the hook costs him "
                       f"{points_interval(a['cost'], a['cost_ci_low'], a['cost_ci_high'], sign=False)}"  # noqa: E501
                       " per deal")
        else:
            verdict = ("the hook makes no clear difference "
                       f"({points_interval(a['cost'], a['cost_ci_low'], a['cost_ci_high'])})")
        text = (f"The last bidder, who is hooked (his contract may not make the contracts add "
                f"up to {N}), scores {mine} per deal, the other non-declarers {theirs}; "
                f"{verdict}")
        u = hc.loc["under"]
        if u["cost_ci_low"] > 0 and not a["cost_ci_low"] > 0:
            text += (f"; in under deals it costs him "
                     f"{points_interval(u['cost'], u['cost_ci_low'], u['cost_ci_high'], sign=False)}")  # noqa: E501
        lines += [text + ".", ""]
        lines += [f"Non-declarers bid zero on {share('zero bids (of non-declarer contracts)')}"
                  f" of their hands and make it {share('zero bids made')} of the time."]
    if paired is not None and len(paired):
        names, up_to, loses = _pays_up_to(paired, P)
        pays = [u for u in up_to if u >= 0]
        if pays:
            each = ", ".join(f"{n} {u}" if u >= 0 else f"{n}: never clearly"
                             for n, u in zip(names, up_to, strict=True))
            text = (f"Set against the best other bid for the same hand, a zero pays with up to "
                    f"about {_range_text(pays)} high-card points ({each})")
        else:
            text = ("Set against the best other bid for the same hand, a zero pays clearly at "
                    "no hand strength")
        losing = [x for x in loses if x >= 0]
        if losing:
            text += f" and costs points from about {_range_text(losing)} on"
        lines += [text + ".", ""]
    lines.append("")
    if check is not None:
        play, data = check
        c = as_tally(data)
        from .report_check_section import check_headline

        mine = label or _policies_text(t)
        head = check_headline(t, c, mine, play)
        moved = [m for m, h in head["holds"].items() if not h]
        text = (f"A check replays the first {c.n_deals:,} deals with every seat searching; its "
                f"play is {_check_name(t, play)}. ")
        if not moved:
            text += (f"It contradicts none of the {len(head)} headline numbers (none changes "
                     "clearly)")
        else:
            parts = []
            for m in moved:
                r = head.loc[m]
                fmt = (share_text if r["unit"] == "share" else
                       (lambda x: points_interval(x, float("nan"), float("nan"), sign=False)))
                parts.append(f"{m}: {fmt(r[head.columns[2]])} in this run, "
                             f"{fmt(r[head.columns[5]])} in the check")
            text += (f"It contradicts {len(moved)} of the {len(head)} headline numbers: "
                     + "; ".join(parts))
        lines.append(text + ".")
    paragraphs: list[list[str]] = [[]]
    for line in lines:  # "" ends a paragraph
        if line:
            paragraphs[-1].append(line)
        else:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


def _answer_play(t: Tally) -> str | None:
    m = t.manifest or {}
    src = m.get("policies", m) if isinstance(m.get("policies", m), Mapping) else m
    play = src.get("play")
    if isinstance(play, list) and len(set(play)) == 1:
        return str(play[0])
    return None


def _check_name(t: Tally, play: str) -> str:
    """The check play with the ladder's measured edge over the run's play, or as another play
    (:func:`whist_sim.analyses.answer_check.check_label`)."""
    from ..answer_check import check_label

    answer = _answer_play(t)
    if answer is None:
        return f"another play, {play}"
    try:
        return check_label(play, answer)
    except Exception:  # noqa: BLE001  an unknown spec: name it as it is
        return f"another play, {play}"


def _policies_text(t: Tally) -> str:
    names = sorted(set(t.policies))
    return names[0] if len(names) == 1 else ", ".join(t.policies)


def play_section(t: Tally, compare: tuple[str, pd.DataFrame | Tally],
                 label: str | None = None) -> Section:
    """The "Play model" section: the headline numbers of ``t`` beside those of the companion
    dataset ``compare`` (``(label, data)``), the companion first."""
    other_label, other = compare
    o = as_tally(other)
    mine = label or _policies_text(t)
    if mine == other_label:
        mine = f"{mine} (this run)"
    table = tables.compare_summaries([(other_label, o), (mine, t)])
    same = o.n_deals == t.n_deals and (o.manifest or {}).get("seed") == (t.manifest or {}).get(
        "seed")
    text = (
        f"How much the card play moves the answers: the headline numbers of this run (`{mine}`) "
        f"beside a companion run under `{other_label}` play ({o.n_deals:,} deals; "
        f"{_policies_line(o)}). "
        + ("Both runs play the same deals with the same seed and rules, and the bidding does "
           "not depend on the play, so the contracts are the same: only the play differs. "
           if same else "")
        + "Change = this run minus the companion (for shares in percentage points), with a "
        "95 % interval that treats the runs as independent samples (conservative: on the same "
        "deals they are positively correlated)."
    )
    return Section("Play model", text, (
        TableItem("play_comparison", f"Headline numbers under {other_label} and {mine} play",
                  table),))


def _dd_limit_text(t: Tally) -> str:
    dd = (t.manifest or {}).get("dd")
    if isinstance(dd, Mapping) and isinstance(dd.get("node_limit"), int):
        text = f"{dd['node_limit']:,} card plays"
        if isinstance(dd.get("min_node_limit"), int):
            text += f" ({dd['min_node_limit']:,} for whist-min)"
        return text
    return "the run's node limit"


def dd_section(t: Tally) -> Section:
    """The "Double dummy" section of a report on data made with ``simulate --dd``."""
    D = dd_tables
    unsolved = D.dd_unsolved(t)
    vs_contract = D.dd_contract_vs_max(t)
    vs_tricks = D.dd_tricks_vs_max(t)
    counts = {o: (int(unsolved.loc[o, "unsolved"]), int(unsolved.loc[o, "n"]))
              for o in ("whist-max", "whist-min")}
    left_out = "; ".join(f"{o}: {u:,} of {n:,}" for o, (u, n) in counts.items())
    return Section(
        "Double dummy",
        "Each seat's whist-max (dd_max: the most tricks it can guarantee when the other three "
        "play together against it) and whist-min (dd_min: the fewest it can hold itself to when "
        "they push tricks on it), for its hand at the start of play, the deal's trump and the "
        "declarer on lead (RULES §5), with every card in view (docs/DD.md). A contract is "
        "made only with exactly the tricks bid (RULES §6). Every solve ran under a node limit of "
        f"{_dd_limit_text(t)}; solves over it are unsolved ({left_out}), but still prove "
        "bounds on their value. The comparisons of contracts with whist-max and whist-min count "
        "every seat the solved value or those bounds decide (by bounds = how many of them have "
        "a needed value unsolved); the differences and means need exact values and "
        "count the seats with whist-max solved (each table's n says how many seats it counts), "
        "except the headline's two \"all seats\" means of tricks - dd_max, which count every "
        "seat, an unsolved one by its proved upper (low end) or lower (high end) bound: the mean "
        "over all the seats lies between them. "
        "Neither set is a random sample: quick-to-solve deals are over-represented among the "
        "solved seats, and a comparison stays undecided more often when the contract is close "
        "to an unsolved value.",
        (
            TableItem("dd_summary", "Double-dummy headline numbers", D.dd_summary(t),
                      "n = solves; for the comparisons, seats the values or their proved "
                      "bounds decide; for the means, seats with whist-max solved (all seats: "
                      "every seat, by its bounds when unsolved)"),
            TableItem("dd_unsolved", "Solves left unsolved (over the node limit)", unsolved,
                      "one solve per player and played deal and objective"),
            TableItem("dd_unsolved_by_position", "Unsolved solves by bidding position",
                      D.dd_unsolved(t, by="position")),
            TableItem("dd_contract_range", "Contracts against whist-max and whist-min",
                      D.dd_contract_range(t),
                      "seats compared (base) = those the solved values or the proved bounds "
                      "decide; by bounds = of n, the seats with a needed value unsolved (counted "
                      "only thanks to the bounds); share = n / base; rate = contracts made"),
            TableItem("dd_contract_range_by_position",
                      "Contracts against the double-dummy range, by bidding position",
                      D.dd_contract_range(t, by="position")),
            TableItem("dd_contract_vs_max", "Contract minus whist-max", vs_contract,
                      "seats with whist-max solved; > 0: more than perfect play guarantees"),
            TableItem("dd_tricks_vs_max", "Tricks taken minus whist-max", vs_tricks,
                      "seats with whist-max solved; < 0: fewer tricks than the seat could "
                      "force, > 0: the others did not play perfectly together against it"),
            ChartItem("dd_differences", "Contract and tricks taken against whist-max",
                      lambda: charts.dd_differences(vs_contract, vs_tricks)),
            TableItem("dd_zero_bids", "Zero bids against whist-min (non-declarers)",
                      D.dd_zero_bids(t),
                      "whist-min 0: the seat can lose every trick against three players "
                      "pushing tricks on it; rate = zero bids made; score in points"),
        ),
    )
