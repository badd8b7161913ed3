"""The user's manual that comes with the package: the rule book and the reference pages.

The pages are the repository's ``docs/*.md`` (the single source): the build copies them into the
package as ``whist_sim/interfaces/_manual/*.md`` (``setup.py``), so ``pip install whist-sim`` ships
them; a source tree or an editable install reads ``docs/`` itself. ``whist-sim rules [SECTION]``
prints the rule book or one of its sections, ``whist-sim docs [PAGE]`` any page.

Page names are the files' stems in lower case (``rules``, ``engine``, ``advisor``, ...). This
module uses the standard library only (the build imports it by path).
"""

from __future__ import annotations

import re
from pathlib import Path

#: the docs/*.md pages shipped, by stem: the references (the contributors' guide and the research
#: journal are for the repository only)
PAGES = ("RULES", "ENGINE", "STRATEGIES", "PLAY_MODEL", "ADVISOR", "REPORTS", "JSON", "PBN",
         "DD", "WEB", "CLUSTER", "OPENSPIEL")
SHIPPED = Path(__file__).resolve().parent / "_manual"  # in an installed package
SOURCE = Path(__file__).resolve().parents[2] / "docs"  # in a source tree (editable install)

_HEADING = re.compile(r"^(#{2,3}) +(.*)$")
_SECTION = re.compile(r"^§?\s*(\d+[a-z]?)\.?$", re.IGNORECASE)


class ManualError(LookupError):
    """A page or section the manual does not have; the message lists what it has."""


def _folder() -> Path:
    if SHIPPED.is_dir():
        return SHIPPED
    return SOURCE


def page_names() -> list[str]:
    """The pages this installation has, lower case, in :data:`PAGES` order."""
    folder = _folder()
    return [p.lower() for p in PAGES if (folder / f"{p}.md").is_file()]


def page(name: str) -> str:
    """The Markdown text of page ``name`` (``rules``, ``engine``, ...; case and a ``.md`` suffix
    are ignored)."""
    stem = name.strip().removesuffix(".md").removesuffix(".MD").upper()
    path = _folder() / f"{stem}.md"
    if stem not in PAGES or not path.is_file():
        raise ManualError(f"no page {name!r}; the pages are: {', '.join(page_names())}")
    return path.read_text(encoding="utf-8")


def sections(text: str) -> list[tuple[str, str]]:
    """The ``##`` sections of a page as ``(heading, text)`` pairs (the text from the heading to
    the next ``##`` heading; ``###`` headings stay inside their section)."""
    out: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        m = _HEADING.match(line)
        if m and len(m.group(1)) == 2:
            out.append((m.group(2).strip(), [line]))
        elif out:
            out[-1][1].append(line)
    return [(h, "\n".join(lines).rstrip() + "\n") for h, lines in out]


def section(text: str, which: str) -> str:
    """One ``##`` section of a page: by number (``3``, ``§3``, ``8a``: the heading that starts
    ``3.``) or by words every one of which is in the heading (``frisch``, ``game record``)."""
    parts = sections(text)
    want = which.strip()
    m = _SECTION.match(want)
    if m:
        number = m.group(1).lower()
        hits = [body for h, body in parts if h.lower().split(" ", 1)[0].rstrip(".") == number]
    else:
        words = want.lower().split()
        hits = [body for h, body in parts if words and all(w in h.lower() for w in words)]
    if not hits:
        heads = "; ".join(h for h, _ in parts)
        raise ManualError(f"no section {which!r}; the sections are: {heads}")
    return "\n".join(hits)


__all__ = ["PAGES", "ManualError", "page", "page_names", "section", "sections"]
