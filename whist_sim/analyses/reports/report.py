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
from .labels import ordinal, position_label
from .report_check_section import check_section, zero_table
from .tally import Tally, as_tally


def _rules_text(manifest: Mapping[str, Any] | None) -> str:
    if not manifest or not isinstance(manifest.get("rules"), Mapping):
        return "unknown"
    try:
        return str(Rules.from_dict(dict(manifest["rules"])))
    except (RulesError, TypeError):
        return "invalid rules in manifest"


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
    meta["policies by seat"] = ", ".join(f"{s}: {p}" for s, p in enumerate(t.policies))
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

    headline = Section(
        "Headline numbers",
        "Rates are fractions of the observations in `n` (players or deals) with 95 % confidence "
        "intervals (Wilson for rates, Student t for means). Scores are game points (RULES §6).",
        (TableItem("summary", "Headline numbers", T.summary(t)),),
    )
    success = Section(
        "Contract success",
        "A contract is made when the player takes exactly the tricks he bid (RULES §6). Bidding "
        f"position: 1st = the declarer, who bids first, .. {ordinal(P)} = the last bidder, who is "
        "'hooked' (his contract may not make the sum equal the tricks in the deal, RULES §4). "
        "Counted over played deals, one entry per player.",
        (
            TableItem("success_by_contract", "Success rate by contract", success_contract),
            ChartItem("success_by_contract", "Success rate by contract",
                      lambda: charts.success_by_contract(success_contract)),
            TableItem("success_by_position", "Success rate by bidding position",
                      T.contract_success(t, "position")),
            TableItem("success_by_trump", "Success rate by trump strain",
                      T.contract_success(t, "trump")),
            TableItem("success_by_role", "Declarer vs. others", T.contract_success(t, "role")),
            TableItem("declarer_success_by_trump", "Declarer's success by trump strain",
                      T.contract_success(t, ["role", "trump"]).xs("declarer", level="role")),
            TableItem("score_by_seat", "Mean score per deal by seat", T.score_summary(t, "seat"),
                      "points per played deal"),
            TableItem("score_by_position", "Mean score per deal by bidding position", score_pos,
                      "points per played deal"),
            ChartItem("score_by_position", "Mean score by bidding position",
                      lambda: charts.score_by_position(score_pos, P)),
            TableItem("score_distribution", "Score distribution by contract", score_dist,
                      "points; quantiles are scores that occurred"),
            ChartItem("score_distribution", "Score distribution by contract",
                      lambda: charts.score_distribution(score_dist)),
        ),
    )
    overunder = Section(
        "Over and under deals",
        f"A deal is *over* when the contracts sum to more than {N} tricks and *under* when they "
        f"sum to less; {N} itself is impossible (RULES §4). Shares are of played deals.",
        (
            TableItem("over_under", "Over vs. under deals", T.over_under(t)),
            TableItem("bid_sum", "Distribution of the sum of contracts", bid_sums),
            ChartItem("bid_sum", "Sum of contracts per deal",
                      lambda: charts.bid_sum_histogram(bid_sums, N)),
            TableItem("success_by_over_position", "Success by bidding position, under vs. over",
                      success_over_pos),
            ChartItem("success_by_over_position", "Success by position, under vs. over",
                      lambda: charts.over_under_by_position(success_over_pos, P)),
            TableItem("misses_per_deal", "Players missing their contract per deal",
                      T.misses_per_deal(t), "share of the deals of that kind"),
            TableItem("hooked_cost", "The cost of being the last (hooked) bidder",
                      T.hooked_cost(t),
                      f"hooked = the {position_label(P - 1, P).split()[0]} (last) bidder; others "
                      "= the non-declarers before him; cost = mean score of the others minus "
                      "the hooked bidder's, in points per deal"),
        ),
    )
    zeros = Section(
        "Zero bids",
        "Zero contracts among non-declarers (the declarer's contract is at least his auction "
        "level). A zero is made with no trick at all; it scores +50 under and +25 over by default, "
        "a failed zero -50 for the first trick and +10 back for each further trick (RULES §6). "
        "HCP: A=4 K=3 Q=2 J=1 of the hand at the start of play.",
        (
            TableItem("zero_bids_by_position", "How often zero is bid, by over/under and position",
                      T.zero_bids(t, ["over", "position"])),
            TableItem("zero_success", "Zero bids made, under vs. over", T.zero_success(t, "over")),
            *((zero_table(t, check, label or _policies_text(t)),) if check is not None else ()),
            *((TableItem("zero_value_paired",
                         "Zero vs. the best non-zero bid on the same hands and deals (paired)",
                         zero_paired[0],
                         "zero's mean score minus the best other contract's on the same hand and "
                         "the same sampled deals (the advisor's method), points per deal, by "
                         "position and HCP band; positive: bid zero. " + zero_paired[1]),)
              if zero_paired is not None else ()),
            TableItem("zero_value_by_hcp", "Zero vs. non-zero bids as the strategy chose them "
                      "(not a like-for-like comparison)", zero_hcp,
                      "mean score per deal (points) by HCP band of the zero bids and the "
                      "non-zero bids the bidding strategy made: it bids zero on the hands where "
                      "zero looks best, so the difference measures its choices (a selection "
                      "effect), not what zero is worth on a given hand"
                      + ("; see the paired table above" if zero_paired is not None else "")),
            ChartItem("zero_value_by_hcp", "Zero and non-zero bids as the strategy chose them, "
                      "by HCP band", lambda: charts.zero_value_by_hcp(zero_hcp)),
            TableItem("failed_zeros", "Failed zero bids: tricks taken", T.failed_zero_outcomes(t)),
        ),
    )
    auction = Section(
        "Auction and Frisch",
        "The winning bid's strain and level (RULES §2); Frisch = all four passed, three cards "
        "passed and a new auction with a higher minimum (RULES §3). After a third Frisch four "
        "passes throw the deal in.",
        (
            TableItem("trump", "Trump strain of played deals", T.strain_distribution(t)),
            TableItem("level", "Auction level of played deals", T.level_distribution(t)),
            TableItem("frisch", "Frisches per deal and thrown-in deals", T.frisch_distribution(t)),
            TableItem("frisch_effect", "How Frisch changes levels and success", fr_effect),
            ChartItem("frisch_effect", "Success by number of Frisches",
                      lambda: charts.frisch_effect(fr_effect)),
        ),
    )
    calibration = Section(
        "Calibration",
        "How well contracts predict the tricks taken: rows are contracts, columns tricks taken "
        "(counts of players); the error is tricks minus contract.",
        (
            TableItem("contract_vs_tricks", "Contract vs. tricks taken (players)", heat),
            ChartItem("contract_vs_tricks", "Contract vs. tricks taken",
                      lambda: charts.contract_vs_tricks(heat)),
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
    )


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
        f"beside a companion run under `{other_label}` play ({o.n_deals:,} deals, policies by "
        f"seat {', '.join(o.policies)}). "
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
