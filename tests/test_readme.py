"""The README and the docs are references (docs/CONTRIBUTING.md, "Standards"): the README's layout
section is what the code says, every module the README and the docs name is where they say, the
README's table cells stay short, and no issue number appears in the code, the docs or the curated
results (history, numbers included, lives in docs/JOURNAL.md)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
JOURNAL = ROOT / "docs" / "JOURNAL.md"

#: An issue cited by number: "issue 30", "Issues 5, 31", "issue #12", "(#12)", "PR 7", a link to
#: ".../issues/12". Not: a hex colour ("#444444", "color:#222"), a seat label
#: ("heuristic/expert#1"), a rule section ("§4").
ISSUE_NUMBER = re.compile(
    r"\b(?:issues?|PR|pull request)\s*#?\d+"
    r"|(?:^|[\s(\[])#\d{1,5}\b(?![0-9a-fA-F])"
    r"|/(?:issues|pull)/\d+",
    re.IGNORECASE | re.MULTILINE,
)

CELL_LIMIT = 200


def _load_layout_script():
    path = ROOT / "scripts" / "readme_layout.py"
    spec = importlib.util.spec_from_file_location("readme_layout", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("readme_layout", mod)
    spec.loader.exec_module(mod)
    return mod


def _checked_files() -> list[Path]:
    files = [README, *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "whist_sim").rglob("*.py")),
             *sorted((ROOT / "scripts").glob("*.py")), *sorted((ROOT / "tests").glob("*.py")),
             *sorted((ROOT / "results").rglob("*.md"))]
    this = Path(__file__).resolve()  # it spells out the forms it looks for
    return [f for f in files if f != JOURNAL and f.resolve() != this]


def _table_cells(text: str) -> list[tuple[int, str]]:
    """(line number, cell text) of every cell of every Markdown table row (a line starting '|')."""
    cells = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("|"):
            row = line.strip().removeprefix("|").removesuffix("|")
            cells += [(number, c.strip()) for c in re.split(r"(?<!\\)\|", row)]
    return cells


def test_the_readme_layout_section_is_what_the_code_says():
    layout = _load_layout_script()
    readme = README.read_text(encoding="utf-8")
    assert layout.section(readme) == layout.layout(ROOT), (
        "README.md's layout section is stale: run python scripts/readme_layout.py")


def test_the_layout_names_every_package_and_module():
    text = _load_layout_script().layout(ROOT)
    for path in (ROOT / "whist_sim").rglob("*.py"):
        if "__pycache__" not in path.parts and path.name != "__init__.py":
            assert f"`{path.stem}`" in text, path
    for pkg in (ROOT / "whist_sim").rglob("__init__.py"):
        if pkg.parent.name != "whist_sim":
            assert f"`{pkg.parent.name}/`" in text, pkg


#: Names of the form ``whist_sim.x`` or ``whist_sim/x`` in the docs that are not modules or files
NOT_MODULES = {
    "whist_sim.no_such_name",  # the README's example of a name the type checker refuses
    "whist_sim.chunk",  # a chunk's Parquet metadata key (docs/JSON.md)
    "whist_sim/dd/__pycache__",  # numba's cache, made at run time (docs/DD.md)
}
_PATH = re.compile(r"whist_sim(?:/[A-Za-z_][\w.]*)+(?![\w<])")
_DOTTED = re.compile(r"\bwhist_sim(?:\.[A-Za-z_]\w*)+")


def _module_file(parts: list[str]) -> Path | None:
    path = ROOT.joinpath(*parts)
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else None


def _stale_names(text: str) -> list[str]:
    """The module paths and dotted names in ``text`` that the code does not have: a path must
    exist (``x.*``: some file), a dotted name must be a module or a name its module spells."""
    stale = []
    for m in _PATH.finditer(text):
        name = m.group().rstrip(".")
        if name in NOT_MODULES:
            continue
        if text.startswith(".*", m.end()) or text.startswith("*", m.end()):
            if not list(ROOT.glob(name + "*")):
                stale.append(name)
        elif not (ROOT / name).exists():
            stale.append(name)
    for m in _DOTTED.finditer(text):
        parts = m.group().split(".")
        if m.group() in NOT_MODULES:
            continue
        k = next(k for k in range(len(parts), 0, -1) if _module_file(parts[:k]) or k == 1)
        module, rest = _module_file(parts[:k]), parts[k:]
        if module is None or len(rest) > 1 or (
                rest and not re.search(rf"\b{rest[0]}\b", module.read_text(encoding="utf-8"))):
            stale.append(m.group())
    return stale


def test_every_module_the_readme_and_docs_name_is_where_they_say():
    pages = [README, *(p for p in sorted((ROOT / "docs").glob("*.md")) if p != JOURNAL)]
    stale = [f"{p.name}: {name}" for p in pages for name in _stale_names(p.read_text("utf-8"))]
    assert not stale, f"modules or names that moved or are gone: {stale}"


def test_a_moved_module_is_found():
    assert _stale_names("see `whist_sim/compiled/no_such.py` and whist_sim.core.nowhere.f") == [
        "whist_sim/compiled/no_such.py", "whist_sim.core.nowhere.f"]
    assert _stale_names("`whist_sim.core.rules.Rules`, whist_sim/core/, whist_sim.load") == []


def test_every_readme_table_cell_is_under_200_characters():
    cells = _table_cells(README.read_text(encoding="utf-8"))
    assert len(cells) > 50  # the README's tables were found
    long = [(n, len(c), c[:60]) for n, c in cells if len(c) >= CELL_LIMIT]
    assert not long, f"README.md table cells of {CELL_LIMIT}+ characters (line, length): {long}"


@pytest.mark.parametrize("text", [
    "as issue 30 asked", "(issue 5)", "Issues 5, 31", "see issue #12", "fixed in (#12)",
    "PR 7 did it", "https://example.org/o/r/issues/12",
])
def test_the_pattern_finds_an_issue_number(text):
    assert ISSUE_NUMBER.search(text)


@pytest.mark.parametrize("text", [
    "edgecolor='#444444'", "body{color:#222}", "heuristic/expert#1", "RULES §4",
    "the issue's yardstick", "tissue 3", "#define", "rows 1-12",
])
def test_the_pattern_leaves_legitimate_text_alone(text):
    assert not ISSUE_NUMBER.search(text)


def test_no_issue_numbers_in_code_or_docs():
    found = []
    for path in _checked_files():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        for m in ISSUE_NUMBER.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append(f"{rel}:{line}: {m.group().strip()}")
    assert not found, "issue numbers (state the fact; history goes to docs/JOURNAL.md):\n" + \
        "\n".join(found)
