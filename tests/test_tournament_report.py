"""The tournament report is written for a card player: it opens with a summary in sentences with
numbers (what was played, who scored most and least, whether the top two are told apart, what the
check says), writes the rules in words and intervals as "11.7 (11.6 to 11.8) points", and ends
with a glossary of every term it uses (a small tournament: heuristic and random bidding)."""

from __future__ import annotations

import re

import pytest

from whist_sim.analyses.reports.wording import GLOSSARY_TITLE, TERMS
from whist_sim.analyses.tournament import tournament
from whist_sim.analyses.tournament.render import (
    TOURNAMENT_TERMS,
    glossary_terms,
    render_markdown,
    summary_sentences,
    tournament_report,
)


@pytest.fixture(scope="module")
def summary():
    return tournament(["heuristic", "random"], 30, 3, play="heuristic", check="rollout:n=2",
                      check_deals=6, progress=False, threads=1)


def test_the_report_opens_with_a_summary_in_sentences_with_numbers(summary):
    md = render_markdown(summary)
    heads = re.findall(r"^## (.+)$", md, flags=re.M)
    assert heads[0] == "Summary" and heads[-1] == GLOSSARY_TITLE
    opening = md.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert opening == " ".join(summary_sentences(summary))
    assert "2 strategies played 30 duplicate deals" in opening
    assert "`heuristic/heuristic` scored most" in opening  # random bidding scores far less
    assert re.search(r"by \+\d+\.\d \(\+\d+\.\d to \+\d+\.\d\) points per deal", opening)
    assert "the rule book's rules, four players" in opening
    v = summary["check"]["verdict"]
    assert f"the ranking is {v}" in opening and "Rules(" not in md


def test_the_report_ends_with_a_glossary_of_every_term_it_uses(summary):
    md = render_markdown(summary)
    glossary = md.split(f"## {GLOSSARY_TITLE}", 1)[1]
    terms = glossary_terms(summary)
    assert {"check", "confirmed", "not contradicted", "contradicted"} <= set(terms)
    for t in terms:
        assert f"| {t} | {({**TERMS, **TOURNAMENT_TERMS})[t]} |" in glossary
    # no SPRT and no games in this tournament: not defined
    assert "SPRT" not in terms and "games won" not in terms


def test_the_csv_and_html_report_carries_the_same_summary_and_glossary(summary):
    r = tournament_report(summary)
    assert r.summary == " ".join(summary_sentences(summary))
    assert [t for t, _ in r.glossary] == glossary_terms(summary)


def test_intervals_are_written_low_to_high_with_real_minus_signs(summary):
    md = render_markdown(summary)
    assert "[" not in md.split("## Pairwise differences", 1)[1].split("## Checked", 1)[0]
    assert re.search(r"\| \u2212?\d+\.\d\d to \u2212?\d+\.\d\d \|", md)
