"""Renderers of reports and tables: text cells, Markdown, CSV, PNG and self-contained HTML.

Formatting conventions (tables keep raw numbers; only the renderers round):

* a column whose name contains ``rate`` or ``share`` is a fraction, shown in percent
  (``54.0 %``); in a table with a ``unit`` column, every non-count number of a ``share`` row is;
* a statistic ``X`` with columns ``X_ci_low``/``X_ci_high`` (or the table's main statistic with
  ``ci_low``/``ci_high``) is shown as one cell ``X (low to high)``, the unit on every number
  (``−13.2 % (−17.8 % to −8.6 %)``), its header marked ``(95 % interval)``;
* negative numbers have a real minus sign (U+2212; :mod:`.wording`);
* counts get thousands separators; missing values show as ``-``;
* index values are labelled (bidding positions as ``declarer`` .. ``fourth bidder (hooked)``,
  over as ``over``/``under``);
* a report's ``summary`` comes first, before the provenance lines; its ``glossary`` last, one
  table of terms and their meanings.
"""

from __future__ import annotations

import base64
import html
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .charts import figure_png
from .labels import header, value_label
from .report import Report, TableItem
from .tally import ReportError
from .wording import GLOSSARY_TITLE, decimals_for, glossary_rows, number_text, share_text

FORMATS = ("md", "csv", "png", "html")
_MAIN = ("rate", "share", "mean", "mae", "value")


def parse_formats(text: str | Iterable[str]) -> tuple[str, ...]:
    """``"md,png"`` -> ``("md", "png")``; unknown names raise :class:`ReportError`."""
    items = text.split(",") if isinstance(text, str) else list(text)
    out = []
    for f in (i.strip().lower() for i in items):
        if not f:
            continue
        f = {"markdown": "md", "htm": "html"}.get(f, f)
        if f not in FORMATS:
            raise ReportError(f"unknown report format {f!r} (use any of {', '.join(FORMATS)})")
        if f not in out:
            out.append(f)
    if not out:
        raise ReportError(f"no report format given (use any of {', '.join(FORMATS)})")
    return tuple(out)


def _is_pct(name: str) -> bool:
    tokens = str(name).split("_")
    return "rate" in tokens or "share" in tokens


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _decimals(v, lo, hi, pct: bool) -> int:
    """Decimals that show a value and its interval apart
    (:func:`whist_sim.analyses.reports.wording.decimals_for`)."""
    return decimals_for(v, lo, hi, share=pct)


def _num(x, pct: bool, integer: bool = False, decimals: int | None = None) -> str:
    if _missing(x):
        return "-"
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, str):
        return x
    if pct:
        return share_text(x, decimals)
    if integer or (isinstance(x, (int, np.integer))):
        return number_text(int(x), 0)
    v = float(x)
    if v.is_integer() and abs(v) >= 1000:
        return number_text(v, 0)
    d = _decimals(v, None, None, False) if decimals is None else decimals
    return number_text(v, d)


def _ci(lo, hi, pct: bool, decimals: int) -> str:
    if _missing(lo) or _missing(hi):
        return ""
    if pct:
        return f" ({share_text(lo, decimals)} to {share_text(hi, decimals)})"
    return f" ({number_text(lo, decimals)} to {number_text(hi, decimals)})"


def table_cells(df: pd.DataFrame, players: int = 4) -> tuple[list[str], list[list[str]]]:
    """Headers and text cells of a table, following the module's formatting conventions."""
    cols = [str(c) for c in df.columns]
    raw = list(df.columns)
    main = next((c for c in _MAIN if c in cols), None)
    ci_of: dict[str, tuple[str, str]] = {}
    for c in cols:
        if f"{c}_ci_low" in cols and f"{c}_ci_high" in cols:
            ci_of[c] = (f"{c}_ci_low", f"{c}_ci_high")
    if main and "ci_low" in cols and "ci_high" in cols and main not in ci_of:
        ci_of[main] = ("ci_low", "ci_high")
    hidden = {b for pair in ci_of.values() for b in pair}
    shown = [c for c in cols if c not in hidden]
    per_row_unit = "unit" in cols
    names = [n for n in df.index.names]
    heads = [header(n) if n else "" for n in names]
    if df.columns.name and len(heads) == 1:
        heads[0] = f"{heads[0]} \\ {header(df.columns.name)}"
    for c in shown:
        h = header(c)
        if c in ci_of:
            h += " (95 % interval)"
        heads.append(h)
    rows = []
    for idx, (_, rec) in zip(df.index, df.iterrows(), strict=True):
        key = idx if isinstance(idx, tuple) else (idx,)
        cells = [value_label(n, v, players) for n, v in zip(names, key, strict=True)]
        unit = rec["unit"] if per_row_unit else None
        for c, rc in zip(cols, raw, strict=True):
            if c in hidden:
                continue
            v = rec[rc]
            integer = pd.api.types.is_integer_dtype(df[rc].dtype) or (unit == "count")
            # a row of shares shows every number but its counts in percent
            pct = _is_pct(c) or (unit == "share" and c != "unit" and not
                                 pd.api.types.is_integer_dtype(df[rc].dtype))
            if c == "over" and isinstance(v, (bool, np.bool_)):
                text = "over" if v else "under"
            elif c in ci_of and not integer and not _missing(v):
                lo, hi = rec[ci_of[c][0]], rec[ci_of[c][1]]
                d = _decimals(v, lo, hi, pct)
                text = _num(v, pct, decimals=d) + _ci(lo, hi, pct, d)
            else:
                text = _num(v, pct, integer)
            cells.append(text)
        rows.append(cells)
    return heads, rows


def markdown_table(df: pd.DataFrame, players: int = 4) -> str:
    """A table as GitHub-flavoured Markdown."""
    heads, rows = table_cells(df, players)

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    align = ["---"] * len(df.index.names) + ["---:"] * (len(heads) - len(df.index.names))
    return "\n".join([line(heads), "| " + " | ".join(align) + " |", *map(line, rows)])


def markdown_text_table(df: pd.DataFrame, align: Sequence[str] | None = None) -> str:
    """A table of ready-made text cells (a DataFrame of strings; the index is not shown, the
    columns are the headers) as compact GitHub-flavoured Markdown.

    ``align``: per column ``"left"`` or ``"right"`` (default: all left), written ``---`` /
    ``---:`` without padding. For tables whose cells a caller formats itself (tournaments);
    :func:`markdown_table` formats raw numbers by this module's conventions.
    """
    marks = "".join("r" if a == "right" else "l" for a in (align or ["left"] * len(df.columns)))
    return markdown_rows([str(c) for c in df.columns], df.itertuples(index=False, name=None),
                         marks)


def markdown_rows(heads: Sequence[str], rows: Iterable[Sequence[object]],
                  align: str | None = None) -> str:
    """Compact GitHub-flavoured Markdown of a header and rows of ready-made cells (``str`` of
    each; a ``|`` in a cell is escaped). ``align``: one letter per column, ``l`` (``---``) or
    ``r`` (``---:``); default all left."""
    marks = align if align is not None else "l" * len(heads)
    if len(marks) != len(heads) or set(marks) - {"l", "r"}:
        raise ValueError(f"alignment {marks!r} for {len(heads)} columns (one l or r each)")

    def line(cells: Sequence[object]) -> str:
        if len(cells) != len(heads):
            raise ValueError(f"a row of {len(cells)} cells under {len(heads)} headers")
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    sep = "|" + "|".join("---:" if m == "r" else "---" for m in marks) + "|"
    return "\n".join([line(heads), sep, *(line(r) for r in rows)])


def html_table(df: pd.DataFrame, players: int = 4) -> str:
    """A table as an HTML ``<table>`` (escaped)."""
    heads, rows = table_cells(df, players)
    k = len(df.index.names)
    th = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    body = []
    for r in rows:
        tds = "".join(
            f"<td class=\"{'k' if i < k else 'v'}\">{html.escape(c)}</td>" for i, c in enumerate(r)
        )
        body.append(f"<tr>{tds}</tr>")
    return f"<table><thead><tr>{th}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def render_markdown(report: Report, chart_dir: str | None = "charts",
                    csv_dir: str | None = "tables") -> str:
    """The report as Markdown; charts are linked as ``<chart_dir>/<name>.png`` (relative), tables
    are linked to ``<csv_dir>/<name>.csv``. ``None`` leaves out the charts or the CSV links."""
    out = [f"# {report.title}", ""]
    if report.summary:
        out += [report.summary.strip(), ""]
    for k, v in report.meta.items():
        val = f"`{v}`" if k in ("command", "dataset") else v
        out.append(f"- **{k}**: {val}")
    out.append("")
    for sec in report.sections:
        out += [f"## {sec.title}", "", sec.text, ""]
        for item in sec.items:
            if isinstance(item, TableItem):
                if not _same_heading(item.title, sec.title):
                    out += [f"### {item.title}", ""]
                if item.note:
                    out += [f"*{item.note}*", ""]
                out.append(markdown_table(item.data, report.players))
                if csv_dir is not None:
                    out += ["", f"[CSV]({csv_dir}/{item.name}.csv)"]
                out.append("")
            elif chart_dir is not None:
                out += [f"![{item.title}]({chart_dir}/{item.name}.png)", ""]
    if report.glossary:
        out += [f"## {GLOSSARY_TITLE}", "", markdown_rows(["term", "meaning"], report.glossary),
                ""]
    return "\n".join(out).rstrip() + "\n"



def _same_heading(a: str, b: str) -> bool:
    """Whether a table's title only repeats its section's (then the table gets no heading)."""
    return a.strip().casefold() == b.strip().casefold()


_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]]+)\]\(([^)\s]+)\)")


def inline_html(text: str) -> str:
    """The inline Markdown the reports use (code, bold, italics, links) as escaped HTML."""
    e = html.escape
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(e(text[pos:m.start()]))
        code, bold, em, label, url = m.groups()
        if code is not None:
            out.append(f"<code>{e(code)}</code>")
        elif bold is not None:
            out.append(f"<strong>{inline_html(bold)}</strong>")
        elif em is not None:
            out.append(f"<em>{inline_html(em)}</em>")
        else:
            out.append(f'<a href="{e(url)}">{inline_html(label)}</a>')
        pos = m.end()
    out.append(e(text[pos:]))
    return "".join(out)


def paragraphs_html(text: str, cls: str | None = None) -> str:
    """Markdown text as HTML paragraphs (blank lines separate them; ``- `` lines make a list)."""
    attr = f' class="{cls}"' if cls else ""
    parts = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [ln.strip() for ln in block.splitlines() if ln.strip()]
        if not lines:
            continue
        if all(ln.startswith(("- ", "* ")) for ln in lines):
            items = "".join(f"<li>{inline_html(ln[2:])}</li>" for ln in lines)
            parts.append(f"<ul{attr}>{items}</ul>")
        else:
            parts.append(f"<p{attr}>{inline_html(' '.join(lines))}</p>")
    return "\n".join(parts)


_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em}th{background:#f2f2f2}
td.v{text-align:right;font-variant-numeric:tabular-nums}td.k{font-weight:600}
img{max-width:100%;border:1px solid #eee;margin:.5em 0 1.5em}
.note{color:#555;font-style:italic}dt{font-weight:600;float:left;clear:left;width:11em}
dd{margin-left:12em}code{background:#f4f4f4;padding:0 .2em;border-radius:3px;font-size:.92em}
"""


def render_html(report: Report, dpi: int = 100) -> str:
    """The report as one self-contained HTML page (charts embedded as base64 PNG)."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(report.title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{e(report.title)}</h1>",
    ]
    if report.summary:
        parts.append(paragraphs_html(report.summary))
    parts.append("<dl>")
    parts += [
        f"<dt>{e(k)}</dt><dd>" + (f"<code>{e(str(v))}</code>" if k in ("command", "dataset")
                                   else inline_html(str(v))) + "</dd>"
        for k, v in report.meta.items()
    ]
    parts.append("</dl>")
    for sec in report.sections:
        parts += [f"<h2>{e(sec.title)}</h2>", paragraphs_html(sec.text)]
        for item in sec.items:
            if isinstance(item, TableItem):
                if not _same_heading(item.title, sec.title):
                    parts.append(f"<h3>{e(item.title)}</h3>")
                if item.note:
                    parts.append(paragraphs_html(item.note, "note"))
                parts.append(html_table(item.data, report.players))
            else:
                png = base64.b64encode(figure_png(item.draw(), dpi)).decode("ascii")
                parts.append(f'<img alt="{e(item.title)}" src="data:image/png;base64,{png}">')
    if report.glossary:
        rows = "".join(f"<tr><td class=\"k\">{inline_html(t)}</td><td>{inline_html(d)}</td></tr>"
                       for t, d in report.glossary)
        parts += [f"<h2>{e(GLOSSARY_TITLE)}</h2>",
                  f"<table><thead><tr><th>term</th><th>meaning</th></tr></thead><tbody>{rows}"
                  "</tbody></table>"]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(
    report: Report,
    out: str | Path,
    formats: str | Iterable[str] = FORMATS,
    dpi: int = 100,
    md_name: str = "report.md",
) -> list[Path]:
    """Write ``report`` into directory ``out`` (created if needed); returns the files written.

    Layout: ``report.md`` (charts linked from ``charts/``, tables from ``tables/`` when those
    formats are written too), ``tables/<name>.csv``, ``charts/<name>.png`` (``dpi`` dots per
    inch) and ``report.html`` (self-contained).
    """
    fmts = parse_formats(formats)
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise ReportError(f"{out} exists and is not a directory")
    root.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if "csv" in fmts:
        (root / "tables").mkdir(exist_ok=True)
        for item in report.tables():
            p = root / "tables" / f"{item.name}.csv"
            item.data.to_csv(p, float_format="%.6g")
            written.append(p)
    if "png" in fmts:
        (root / "charts").mkdir(exist_ok=True)
        for item in report.charts():
            p = root / "charts" / f"{item.name}.png"
            p.write_bytes(figure_png(item.draw(), dpi))
            written.append(p)
    if "md" in fmts:
        p = root / md_name
        p.write_text(render_markdown(report, "charts" if "png" in fmts else None,
                                     "tables" if "csv" in fmts else None), encoding="utf-8")
        written.append(p)
    if "html" in fmts:
        p = root / "report.html"
        p.write_text(render_html(report, dpi), encoding="utf-8")
        written.append(p)
    return written


def glossary_markdown(terms: Iterable[str], extra: Mapping[str, str] | None = None,
                      heading: str | None = GLOSSARY_TITLE) -> str:
    """The glossary of a report as Markdown: ``## heading`` (None: no heading) and one table of
    the terms (:func:`glossary_rows`) and what they mean."""
    rows = glossary_rows(terms, extra)
    table = markdown_rows(["term", "meaning"], rows)
    return table if heading is None else f"## {heading}\n\n{table}"
