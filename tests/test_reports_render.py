"""Report renderers and charts: text cells, Markdown, CSV, PNG (headless Agg) and HTML."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pandas as pd
import pytest
from matplotlib.figure import Figure
from test_reports import MANIFEST, ROWS, frame  # the hand-worked synthetic dataset

from whist_sim.analyses import reports as R
from whist_sim.analyses.reports import charts
from whist_sim.analyses.reports.labels import position_label
from whist_sim.core.stats import wilson_interval
from whist_sim.interfaces.cli import cmd_report

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def tally():
    return R.Tally.from_frame(frame(ROWS * 10, MANIFEST))


def test_position_labels_rules_4():
    assert [position_label(p) for p in range(4)] == ["1st (declarer)", "2nd", "3rd", "4th (hooked)"]
    assert position_label(2, players=3) == "3rd (hooked)"


def test_table_cells_percent_ci_and_labels(tally):
    heads, rows = R.table_cells(R.contract_success(tally, "position"))
    assert heads == ["bidding position", "n", "made", "rate (95 % interval)"]
    lo, hi = wilson_interval(30, 40)
    assert rows[0] == ["declarer", "40", "30",
                       f"75.0 % ({100 * lo:.1f} % to {100 * hi:.1f} %)"]
    assert [r[0] for r in rows[1:]] == ["second bidder", "third bidder", "fourth bidder (hooked)"]
    heads, rows = R.table_cells(R.score_summary(tally, "position"))
    assert heads == ["bidding position", "n", "mean (95 % interval)", "sd"]
    assert re.fullmatch(r"32\.50 \(\d+\.\d\d to \d+\.\d\d\)", rows[0][2])
    heads, rows = R.table_cells(R.over_under(tally))
    assert [r[0] for r in rows] == ["under", "over"]


def test_table_cells_missing_values_and_counts(tally):
    _, rows = R.table_cells(R.frisch_effect(tally))
    assert rows[3][3] == "-"  # no played deal after three Frisches: no mean level
    _, rows = R.table_cells(pd.DataFrame({"n": [1234567]}, index=pd.Index([0], name="contract")))
    assert rows == [["0", "1,234,567"]]


def test_markdown_table(tally):
    md = R.markdown_table(R.contract_success(tally, "over"))
    lines = md.splitlines()
    assert lines[0] == "| deal | n | made | rate (95 % interval) |"
    assert lines[1] == "| --- | ---: | ---: | ---: |"
    assert lines[2].startswith("| under | 80 | 40 | 50.0 % (")


def test_parse_formats():
    assert R.parse_formats("md, PNG,markdown") == ("md", "png")
    assert cmd_report.FORMATS == R.FORMATS
    with pytest.raises(R.ReportError, match="unknown report format 'pdf'"):
        R.parse_formats("md,pdf")
    with pytest.raises(R.ReportError, match="no report format"):
        R.parse_formats(" , ")


CHARTS = [
    ("success_by_contract", lambda t: charts.success_by_contract(R.contract_success(t))),
    ("over_under_by_position",
     lambda t: charts.over_under_by_position(R.contract_success(t, ["over", "position"]))),
    ("bid_sum_histogram", lambda t: charts.bid_sum_histogram(R.bid_sum_distribution(t), 13)),
    ("zero_value_by_hcp", lambda t: charts.zero_value_by_hcp(R.zero_value_by_hcp(t), min_n=1)),
    ("contract_vs_tricks", lambda t: charts.contract_vs_tricks(R.contract_vs_tricks(t))),
    ("score_distribution", lambda t: charts.score_distribution(R.score_distribution(t))),
    ("score_by_position", lambda t: charts.score_by_position(R.score_summary(t, "position"))),
    ("frisch_effect", lambda t: charts.frisch_effect(R.frisch_effect(t))),
]


@pytest.mark.parametrize("name,draw", CHARTS, ids=[c[0] for c in CHARTS])
def test_charts_render_headless_with_labels(tally, name, draw):
    fig = draw(tally)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    png = charts.figure_png(fig, dpi=50)
    assert png.startswith(PNG_MAGIC) and len(png) > 1000


def test_charts_leave_the_global_backend_alone(tmp_path):
    # A notebook's backend must survive: the package draws on its own Agg canvas, never pyplot.
    code = textwrap.dedent(
        """
        import sys, matplotlib
        import whist_sim
        assert "matplotlib.pyplot" not in sys.modules
        from whist_sim.analyses.reports import charts
        import pandas as pd
        t = pd.DataFrame({"n": [10, 10], "made": [5, 9], "rate": [0.5, 0.9],
                          "ci_low": [0.2, 0.6], "ci_high": [0.8, 0.98]},
                         index=pd.Index([3, 4], name="contract"))
        png = charts.figure_png(charts.success_by_contract(t))
        assert png.startswith(b"\\x89PNG")
        assert "matplotlib.pyplot" not in sys.modules
        assert matplotlib.rcParams["backend"] == "svg", matplotlib.rcParams["backend"]
        print("ok")
        """
    )
    env = {"MPLBACKEND": "svg", "PATH": "", "MPLCONFIGDIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_importing_whist_sim_does_not_load_matplotlib():
    # matplotlib is loaded by whist_sim.analyses.reports (and `whist-sim report`) only when used
    code = ("import sys, whist_sim, whist_sim.interfaces.cli.cmd_report; "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_write_report_all_formats(tally, tmp_path):
    rep = R.build_report(tally, title="synthetic", source="data/x", command="whist-sim report x")
    written = R.write_report(rep, tmp_path / "rep", "md,csv,png,html", dpi=40)
    names = {p.relative_to(tmp_path / "rep").as_posix() for p in written}
    assert {"report.md", "report.html", "charts/success_by_contract.png",
            "charts/bid_sum.png", "charts/contract_vs_tricks.png",
            "charts/score_distribution.png",
            "charts/success_by_over_position.png", "tables/success_by_contract.csv"} <= names
    assert "charts/zero_value_by_hcp.png" not in names  # the selection-biased chart is gone
    md = (tmp_path / "rep" / "report.md").read_text()
    assert md.startswith("# synthetic\n")
    assert "- **command**: `whist-sim report x`" in md
    assert "- **seed**: 1" in md
    for link in re.findall(r"\]\(((?:charts|tables)/[^)]+)\)", md):
        assert (tmp_path / "rep" / link).is_file(), link
    for section in ("Contract success", "Over and under deals", "Zero bids", "Auction and Frisch",
                    "Calibration"):
        assert f"## {section}" in md
    # CSV keeps the raw numbers of the table
    csv = pd.read_csv(tmp_path / "rep" / "tables" / "success_by_position.csv", index_col=0)
    table = R.contract_success(tally, "position")
    assert csv["made"].tolist() == table["made"].tolist()
    assert csv["rate"].tolist() == pytest.approx(table["rate"].tolist(), rel=1e-5)
    # HTML is self-contained: every chart inline, nothing linked
    page = (tmp_path / "rep" / "report.html").read_text()
    assert page.count('src="data:image/png;base64,') == len(rep.charts())
    assert 'src="charts/' not in page and "<table>" in page


def test_write_report_markdown_only_has_no_dangling_links(tally, tmp_path):
    rep = R.build_report(tally)
    written = R.write_report(rep, tmp_path, "md")
    assert [p.name for p in written] == ["report.md"]
    md = written[0].read_text()
    assert "](charts/" not in md and "](tables/" not in md


def test_write_report_refuses_a_file_as_directory(tally, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(R.ReportError, match="not a directory"):
        R.write_report(R.build_report(tally), f, "md")


def test_decimals_adapt_to_the_interval():
    t = pd.DataFrame(
        {"n": [10**6, 10**6, 40, 10**6], "rate": [0.0029, 0.846, 0.5, 0.000104],
         "ci_low": [0.0028, 0.845, 0.3, 0.00008], "ci_high": [0.0030, 0.847, 0.7, 0.00013]},
        index=pd.Index(["a", "b", "c", "d"], name="metric"),
    )
    _, rows = R.table_cells(t)
    assert [r[2] for r in rows] == ["0.29 % (0.28 % to 0.30 %)", "84.6 % (84.5 % to 84.7 %)",
                                    "50.0 % (30.0 % to 70.0 %)", "0.010 % (0.008 % to 0.013 %)"]
    m = pd.DataFrame({"n": [10**6], "mean": [6.09], "ci_low": [6.088], "ci_high": [6.092]},
                     index=pd.Index([0], name="frisch"))
    assert R.table_cells(m)[1][0][2] == "6.090 (6.088 to 6.092)"


def test_markdown_rows_is_the_one_text_table_renderer():
    from whist_sim.analyses.reports.render import markdown_rows, markdown_text_table

    text = markdown_rows(["step", "gain"], [["`a` -> `b`", "+1.50"], ["x|y", 3]], "lr")
    assert text.splitlines() == ["| step | gain |", "|---|---:|", "| `a` -> `b` | +1.50 |",
                                 "| x\\|y | 3 |"]  # a pipe in a cell is escaped
    df = pd.DataFrame([["`a` -> `b`", "+1.50"], ["x|y", "3"]], columns=["step", "gain"])
    assert markdown_text_table(df, ["left", "right"]) == text  # the DataFrame form, same text
    assert markdown_rows(["a", "b"], []).splitlines() == ["| a | b |", "|---|---|"]
    with pytest.raises(ValueError, match="one l or r each"):
        markdown_rows(["a", "b"], [], "l")
    with pytest.raises(ValueError, match="a row of 1 cells under 2 headers"):
        markdown_rows(["a", "b"], [["only"]])
