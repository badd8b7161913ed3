"""Report polish: HTML renders the reports' Markdown, no heading repeats, every colour bar has a
label, and the contract-vs-tricks colours show every row."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from test_reports import MANIFEST, ROWS, frame  # the hand-worked synthetic dataset

from whist_sim.analyses import reports as R
from whist_sim.analyses.reports import charts
from whist_sim.analyses.reports.render import inline_html, paragraphs_html


@pytest.fixture(scope="module")
def report():
    return R.build_report(R.Tally.from_frame(frame(ROWS * 10, MANIFEST)), title="T",
                          source="runs/a", command="whist-sim report runs/a")


def test_inline_markdown_becomes_html():
    assert inline_html("use `--resume` **now**, *see* [docs](docs/DD.md) <b>") == (
        'use <code>--resume</code> <strong>now</strong>, <em>see</em> '
        '<a href="docs/DD.md">docs</a> &lt;b&gt;')
    assert paragraphs_html("one\nline\n\n- a\n- `b`") == (
        "<p>one line</p>\n<ul><li>a</li><li><code>b</code></li></ul>")


def test_html_shows_no_markdown_and_no_repeated_heading(report):
    page = R.render_html(report)
    text = re.sub(r"<[^>]+>", "", re.sub(r'src="data:[^"]+"', "", page))
    assert "`" not in text and "**" not in text
    headings = re.findall(r"<h[23]>(.*?)</h[23]>", page)
    for a, b in zip(headings, headings[1:], strict=False):
        assert a.casefold() != b.casefold()
    md = R.render_markdown(report)
    titles = re.findall(r"^#{2,3} (.*)$", md, flags=re.M)
    for a, b in zip(titles, titles[1:], strict=False):
        assert a.casefold() != b.casefold()


def _colorbars(fig):
    return [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]


def test_contract_vs_tricks_colours_every_row():
    # a zero row made 95 % of the time and a spread-out row: both rows reach the top colour
    table = pd.DataFrame([[95, 5, 0, 0], [10, 30, 40, 20]], index=pd.Index([0, 1]),
                         columns=pd.Index([0, 1, 2, 3]))
    fig = charts.contract_vs_tricks(table)
    image = fig.axes[0].images[0].get_array()
    assert np.allclose(np.asarray(image).max(axis=1), 100)
    bars = _colorbars(fig)
    assert bars and all(b.get_ylabel() for b in bars)


def test_every_colour_bar_has_a_label(report):
    for item in report.charts():
        fig = item.draw()
        for bar in _colorbars(fig):
            assert bar.get_ylabel(), item.name
