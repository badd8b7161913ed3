"""Reports on simulation datasets: tables (pure pandas), charts and renderers.

Tables are pure functions of a result DataFrame (what :func:`whist_sim.load` returns) or of a
:class:`Tally`, the additive counts of a dataset that :func:`tally_dataset` accumulates one chunk
file at a time (so datasets larger than memory work)::

    import whist_sim
    from whist_sim.analyses import reports

    df = whist_sim.load("data/default")
    reports.contract_success(df, by="position")      # n, made, rate, ci_low, ci_high

    t = reports.tally_dataset("data/default")        # streamed; same tables, any size
    reports.zero_value_by_hcp(t)

Data made with ``whist-sim simulate --dd`` also has double-dummy tables (:mod:`.dd_tables`:
``dd_summary``, ``dd_contract_range``, ...) and a "Double dummy" report section.

How a report words things for a card player (intervals, seats, rules, a glossary) is in
:mod:`.wording`: ``share_interval``, ``points_interval``, ``seat_name``,
``bidding_position_name``, ``rules_in_words``, ``glossary_rows``, ``glossary_markdown``.

Renderers are separate: :func:`build_report` assembles the tables and charts of a full report,
:func:`write_report` writes it as Markdown, CSV, PNG and a self-contained HTML page. See
docs/REPORTS.md.
"""

from .dd_tables import (
    DD_GROUP_KEYS,
    dd_contract_range,
    dd_contract_vs_max,
    dd_summary,
    dd_tricks_vs_max,
    dd_unsolved,
    dd_zero_bids,
)
from .render import (
    FORMATS,
    glossary_markdown,
    html_table,
    markdown_table,
    parse_formats,
    render_html,
    render_markdown,
    table_cells,
    write_report,
)
from .report import (
    ChartItem,
    Report,
    Section,
    TableItem,
    build_report,
    dd_section,
    play_section,
    provenance,
)
from .tables import (
    DEFAULT_HCP_BANDS,
    GROUP_KEYS,
    bid_sum_distribution,
    calibration_error,
    compare_summaries,
    contract_success,
    contract_vs_tricks,
    failed_zero_outcomes,
    frisch_distribution,
    frisch_effect,
    hooked_cost,
    level_distribution,
    misses_per_deal,
    over_under,
    play_headline,
    score_distribution,
    score_summary,
    strain_distribution,
    summary,
    zero_bids,
    zero_success,
    zero_value_by_hcp,
)
from .tally import ReportError, Tally, as_tally, hcp, needed_columns, tally_dataset
from .wording import (
    GLOSSARY_TITLE,
    MINUS,
    TERMS,
    bidding_position_name,
    glossary_rows,
    points_interval,
    points_text,
    rules_in_words,
    seat_name,
    share_interval,
    share_text,
    signed,
)

__all__ = [
    "FORMATS",
    "ChartItem",
    "Report",
    "Section",
    "TableItem",
    "build_report",
    "dd_section",
    "DD_GROUP_KEYS",
    "dd_contract_range",
    "dd_contract_vs_max",
    "dd_summary",
    "dd_tricks_vs_max",
    "dd_unsolved",
    "dd_zero_bids",
    "html_table",
    "markdown_table",
    "parse_formats",
    "provenance",
    "render_html",
    "render_markdown",
    "table_cells",
    "write_report",
    "DEFAULT_HCP_BANDS",
    "GROUP_KEYS",
    "ReportError",
    "Tally",
    "as_tally",
    "bid_sum_distribution",
    "calibration_error",
    "compare_summaries",
    "contract_success",
    "contract_vs_tricks",
    "failed_zero_outcomes",
    "frisch_distribution",
    "frisch_effect",
    "hcp",
    "hooked_cost",
    "level_distribution",
    "misses_per_deal",
    "needed_columns",
    "over_under",
    "play_headline",
    "play_section",
    "score_distribution",
    "score_summary",
    "strain_distribution",
    "summary",
    "tally_dataset",
    "zero_bids",
    "zero_success",
    "zero_value_by_hcp",
    "GLOSSARY_TITLE",
    "MINUS",
    "TERMS",
    "bidding_position_name",
    "glossary_markdown",
    "glossary_rows",
    "points_interval",
    "points_text",
    "rules_in_words",
    "seat_name",
    "share_interval",
    "share_text",
    "signed",
]
