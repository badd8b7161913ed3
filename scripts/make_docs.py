"""The generated blocks of the README and docs/: counts, tables and figures rendered from the code
and from results/, so that the docs cannot drift from what they describe (``make docs``).

    python scripts/make_docs.py            # rewrite every stale block in place
    python scripts/make_docs.py --check    # exit 1, naming each stale block, if any differs

A block is the text between two marker lines in a Markdown file:

    <!-- generated: NAME by scripts/make_docs.py from SOURCE; edit the source, not this block -->
    ...
    <!-- end: NAME -->

and :data:`BLOCKS` says which function renders it. Prose stays written by hand and explains; the
numbers it needs are in the blocks beside it. ``tests/test_docs_generated.py`` fails when a block
is stale, so an edit of the source (a feature of ``learned``, a strategy of the registry, a new
results/ run) is a ``make docs`` away from docs that say it. The README's layout section has its
own generator (``scripts/readme_layout.py``), which this script runs as one more block.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"


@dataclass(frozen=True)
class Block:
    """A generated block: its ``name`` (unique), the ``file`` it lives in (relative to the
    repository), the ``source`` it is rendered from (named in its marker) and its renderer."""

    name: str
    file: str
    source: str
    render: Callable[[Path], str]

    @property
    def begin(self) -> str:
        return (f"<!-- generated: {self.name} by scripts/make_docs.py from {self.source}; "
                "edit the source, not this block -->")

    @property
    def end(self) -> str:
        return f"<!-- end: {self.name} -->"


def _script(name: str):
    """A module of scripts/ (they import each other by name)."""
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    return __import__(name)


def _rows(header: list[str], rows: list[list[str]], align: str) -> str:
    from whist_sim.analyses.reports.render import markdown_rows

    return markdown_rows(header, rows, align)


# ------------------------------------------------------------------------------ the renderers


def learned_features(root: Path) -> str:
    """docs/ENGINE.md §8: the features of ``learned``, from whist_sim/core/play_features.py."""
    from whist_sim.core.play_features import FEATURES_TABLE

    return (f"{len(FEATURES_TABLE)} features, in the order of a row of weights:\n\n"
            + _rows(["feature", "value"], [[f"`{f.name}`", f.doc] for f in FEATURES_TABLE],
                    "ll"))


def _policy_table(kind: str, what: str) -> str:
    """The policies of ``kind`` in the registry: name, ``what`` it does (its description), its
    parameters (defaults)."""
    from whist_sim.core.registry import get_info, policy_names

    rows = []
    for name in policy_names(kind):
        info = get_info(name, kind)
        params = ", ".join(f"`{p.name}` = {_default(p)}" for p in info.params) or "-"
        rows.append([f"`{name}`", info.description, params])
    return _rows(["name", what, "parameters (defaults)"], rows, "lll")


def play_policies(root: Path) -> str:
    """The play policies of the registry: name, what it plays, its parameters (defaults)."""
    return _policy_table("play", "plays")


def bidding_strategies(root: Path) -> str:
    """The bidding strategies of the registry: name, how it bids, its parameters (defaults)."""
    return _policy_table("bid", "bids")


def _default(p) -> str:
    """A parameter's default as a user writes it: a policy's name for a policy-valued one."""
    if p.names is None:
        return f"{p.default:g}"
    from whist_sim.core.registry import get_info, policy_names

    if p.default < 0 and p.word:
        return f"`{p.word}`"
    return next(f"`{n}`" for n in policy_names(p.names)
                if get_info(n, p.names).id == int(p.default))


def play_ladder(root: Path) -> str:
    """README: each step up the play ladder, from results/play/ladder.json."""
    data = json.loads((root / "results" / "play" / "ladder.json").read_text(encoding="utf-8"))
    ladder = _script("play_ladder")
    return (f"Seed {data['seed']}, every seat bidding `{data['bid']}`, every seating "
            f"(results/play/ladder.json):\n\n" + ladder.steps_table(data["steps"]))


#: the field table's columns in results/tournament/report.md that the README shows
_FIELD_COLUMNS = ("rank", "strategy", "mean score / deal", "95% CI",
                  "gain over heuristic (paired)", "hit rate", "zero bids (made)")


def tournament_field(root: Path) -> str:
    """README: the field ranking (each strategy against three heuristic players), from the
    field table of results/tournament/report.md."""
    text = (root / "results" / "tournament" / "report.md").read_text(encoding="utf-8")
    header, rows = _first_table_after(text, "## Field")
    ci = [i for i, h in enumerate(header) if h == "95% CI"]
    out = []
    for r in rows:
        cell = dict(zip(header, r, strict=True))
        gain = cell["gain over heuristic (paired)"]
        if len(ci) > 1 and r[ci[1]] != "-":
            gain = f"{gain} ({r[ci[1]]})"
        check = cell.get("check: gain over heuristic", "-")
        if cell.get("check: 95% CI", "-") != "-":
            check = f"{check} ({cell['check: 95% CI']})"
        out.append([cell["rank"], cell["strategy"],
                    f"{cell['mean score / deal']} ({r[ci[0]]})", gain, check,
                    cell.get("check: verdict", "-"), cell["hit rate"],
                    cell["zero bids (made)"]])
    return _rows(["rank", "strategy", "mean score / deal (95% CI)",
                  "gain over heuristic (paired 95% CI)",
                  "with every seat searching: gain (95% CI)", "check: verdict", "hit rate",
                  "zero bids (made)"],
                 out, "rlllllrr")


def other_seats(root: Path) -> str:
    """README: what a wrong assumption about the other seats' bidding costs, and the default it
    decides, from results/other_seats/summary.json."""
    data = json.loads((root / "results" / "other_seats" / "summary.json").read_text(
        encoding="utf-8"))
    mod = _script("other_seats")
    return mod.cost_table(data["tables"]) + "\n\n" + mod.decision_text(data["decision"])


def _first_table_after(text: str, heading: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the first Markdown table after the line starting ``heading``."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), None)
    if start is None:
        raise ValueError(f"no section {heading!r}")
    table = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            table.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])])
        elif table:
            break
    if len(table) < 3:
        raise ValueError(f"no table in section {heading!r}")
    return table[0], table[2:]


def readme_layout(root: Path) -> str:
    """README: the layout section (scripts/readme_layout.py)."""
    return _script("readme_layout").layout(root)


#: every generated block
BLOCKS: tuple[Block, ...] = (
    Block("learned-features", "docs/ENGINE.md", "whist_sim/core/play_features.py",
          learned_features),
    Block("play-policies", "docs/STRATEGIES.md", "the registry", play_policies),
    Block("bidding-strategies", "docs/STRATEGIES.md", "the registry", bidding_strategies),
    Block("play-ladder", "README.md", "results/play/ladder.json", play_ladder),
    Block("tournament-field", "README.md", "results/tournament/report.md", tournament_field),
    Block("other-seats", "README.md", "results/other_seats/summary.json", other_seats),
)


# ------------------------------------------------------------------------------ reading, writing


def replace_block(text: str, block: Block, body: str, where: str = "") -> str:
    """``text`` with the body of ``block`` replaced by ``body``; a file without the block's
    markers, or with them twice, is an error naming the file."""
    if text.count(block.begin) != 1 or text.count(block.end) != 1:
        raise ValueError(f"{where or block.file}: expected the markers of block {block.name!r} "
                         f"once each:\n  {block.begin}\n  {block.end}")
    start = text.index(block.begin) + len(block.begin)
    end = text.index(block.end)
    if end < start:
        raise ValueError(f"{where or block.file}: the end of block {block.name!r} comes first")
    return text[:start] + "\n" + body.rstrip("\n") + "\n" + text[end:]


def stale(root: Path = ROOT, write: bool = False) -> list[str]:
    """The names of the blocks whose text differs from what their source renders now (the
    README's layout section as ``readme-layout``); with ``write``, rewrite them."""
    out = []
    texts: dict[str, str] = {}
    for block in BLOCKS:
        path = root / block.file
        text = texts.get(block.file) or path.read_text(encoding="utf-8")
        new = replace_block(text, block, block.render(root), block.file)
        if new != text:
            out.append(f"{block.name} ({block.file})")
        texts[block.file] = new
    layout = _script("readme_layout")
    readme = texts.get("README.md") or (root / "README.md").read_text(encoding="utf-8")
    if layout.section(readme) != layout.layout(root):
        out.append("readme-layout (README.md)")
        start = readme.index(layout.BEGIN) + len(layout.BEGIN) + 1
        end = readme.index(layout.END, start)
        texts["README.md"] = readme[:start] + layout.layout(root) + readme[end:]
    if write:
        for name, text in texts.items():
            path = root / name
            if path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming each stale block")
    args = parser.parse_args(argv)
    names = stale(ROOT, write=not args.check)
    if args.check:
        if names:
            print("stale generated blocks (run make docs): " + ", ".join(names),
                  file=sys.stderr)
            return 1
        print(f"{len(BLOCKS) + 1} generated blocks, none stale")
        return 0
    print(f"rewrote {len(names)} block(s)" + (": " + ", ".join(names) if names else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
