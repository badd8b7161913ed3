"""The report files the charts page browses, and the Markdown they are written in, as HTML.

Report folders (``results/`` and user datasets' report folders, ``serve --reports``) are
*roots*, each with a short name. :func:`list_reports` finds their Markdown files (``report.md``,
``README.md``, ...); :func:`render_markdown` turns one into HTML with the subset of Markdown the
reports use (headings, paragraphs, lists, pipe tables, fenced code, images, links, emphasis,
inline code), every text HTML-escaped; relative links and images point into ``/files/<root>/``,
links to other Markdown files to the charts page itself. :func:`safe_path` refuses any path that
leaves its root.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_REPORT_BYTES = 2_000_000  # a Markdown file larger than this is not rendered
SKIP_DIRS = {".git", "__pycache__", ".venv", "node_modules"}


def safe_path(root: Path, rel: str) -> Path | None:
    """``root / rel`` when it stays inside ``root`` (no ``..``, no absolute path), else None."""
    if not rel or rel.startswith(("/", "\\")) or "\\" in rel:
        return None
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return None
    path = (root / rel).resolve()
    try:
        path.relative_to(root.resolve())
    except ValueError:
        return None
    return path


def _title(path: Path) -> str:
    try:
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    except (OSError, UnicodeDecodeError):
        pass
    return path.stem


def list_reports(roots: dict[str, Path], max_depth: int = 4) -> list[dict[str, Any]]:
    """Every Markdown file under the roots (at most ``max_depth`` folders down), sorted by root
    and path: ``{root, path, title}``."""
    out = []
    for name, root in roots.items():
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.md")):
            rel = path.relative_to(root)
            if len(rel.parts) > max_depth or SKIP_DIRS & set(rel.parts):
                continue
            out.append({"root": name, "path": rel.as_posix(), "title": _title(path)})
    return out


# ---------------------------------------------------------------------------- Markdown
_INLINE = re.compile(
    r"(?P<code>`[^`]+`)"
    r"|(?P<img>!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)\))"
    r"|(?P<link>\[(?P<text>[^\]]+)\]\((?P<href>[^)\s]+)\))"
    r"|(?P<bold>\*\*(?P<btext>.+?)\*\*)"
    r"|(?P<em>(?<![\w*])\*(?P<etext>[^*\s][^*]*?)\*(?![\w*]))"
)


def _inline(text: str, url: Callable[[str, bool], str]) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        pos = m.end()
        if m.group("code"):
            out.append(f"<code>{html.escape(m.group('code')[1:-1])}</code>")
        elif m.group("img"):
            out.append(f'<img src="{html.escape(url(m.group("src"), True))}" '
                       f'alt="{html.escape(m.group("alt"))}">')
        elif m.group("link"):
            out.append(f'<a href="{html.escape(url(m.group("href"), False))}">'
                       f"{_inline(m.group('text'), url)}</a>")
        elif m.group("bold"):
            out.append(f"<strong>{_inline(m.group('btext'), url)}</strong>")
        else:
            out.append(f"<em>{_inline(m.group('etext'), url)}</em>")
    out.append(html.escape(text[pos:]))
    return "".join(out)


def _cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", line)]


def _cell(tag: str, text: str, k: int, aligns: list[str],
          url: Callable[[str, bool], str]) -> str:
    a = aligns[k] if k < len(aligns) else ""
    style = f' style="text-align:{a}"' if a else ""
    return f"<{tag}{style}>{_inline(text, url)}</{tag}>"


_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_LIST = re.compile(r"^\s*([-*+]|\d+[.)])\s+(.*)$")


def render_markdown(text: str, url: Callable[[str, bool], str] = lambda u, img: u) -> str:
    """HTML of the Markdown ``text`` (see the module doc); ``url(target, is_image)`` rewrites
    link and image targets."""
    lines = text.splitlines()
    out: list[str] = []
    para: list[str] = []
    i = 0

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para), url)}</p>")
            para.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            code = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                code.append(lines[i])
                i += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(code))}</code></pre>")
            i += 1
            continue
        if not stripped:
            flush()
            i += 1
            continue
        m = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if m:
            flush()
            n = len(m.group(1))
            out.append(f"<h{n}>{_inline(m.group(2).rstrip('#').strip(), url)}</h{n}>")
            i += 1
            continue
        if re.match(r"^(-{3,}|\*{3,})$", stripped):
            flush()
            out.append("<hr>")
            i += 1
            continue
        if "|" in stripped and i + 1 < len(lines) and _RULE.match(lines[i + 1]):
            flush()
            head = _cells(stripped)
            aligns = ["right" if c.strip().endswith(":") and not c.strip().startswith(":")
                      else "center" if c.strip().startswith(":") and c.strip().endswith(":")
                      else "" for c in _cells(lines[i + 1])]
            i += 2
            rows = []
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                rows.append(_cells(lines[i]))
                i += 1
            body = "".join("<tr>" + "".join(_cell("td", c, k, aligns, url)
                                            for k, c in enumerate(r)) + "</tr>" for r in rows)
            out.append("<table><thead><tr>"
                       + "".join(_cell("th", c, k, aligns, url) for k, c in enumerate(head))
                       + f"</tr></thead><tbody>{body}</tbody></table>")
            continue
        m = _LIST.match(line)
        if m:
            flush()
            ordered = m.group(1)[0].isdigit()
            items: list[str] = []
            while i < len(lines):
                m = _LIST.match(lines[i])
                if m:
                    items.append(m.group(2))
                elif lines[i].startswith((" ", "\t")) and lines[i].strip() and items:
                    items[-1] += " " + lines[i].strip()
                else:
                    break
                i += 1
            tag = "ol" if ordered else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{_inline(x, url)}</li>" for x in items)
                       + f"</{tag}>")
            continue
        if stripped.startswith(">"):
            flush()
            quote = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                quote.append(lines[i].strip()[1:].strip())
                i += 1
            out.append(f"<blockquote>{_inline(' '.join(quote), url)}</blockquote>")
            continue
        para.append(stripped)
        i += 1
    flush()
    return "\n".join(out)


def report_html(root_name: str, root: Path, rel: str) -> dict[str, Any] | None:
    """``{root, path, title, html}`` of one Markdown file of a root, or None when it is not
    there (or not inside the root, or too large)."""
    path = safe_path(root, rel)
    if path is None or path.suffix != ".md" or not path.is_file():
        return None
    if path.stat().st_size > MAX_REPORT_BYTES:
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    folder = posixpath.dirname(rel)

    def url(target: str, image: bool) -> str:
        if re.match(r"^[a-zA-Z][\w+.-]*:", target) or target.startswith(("#", "/")):
            return target
        base, _, anchor = target.partition("#")
        joined = posixpath.normpath(posixpath.join(folder, base)) if base else rel
        if joined.startswith(".."):
            return "#"
        if joined.endswith(".md") and not image:
            return f"/charts#{root_name}/{joined}"
        return f"/files/{root_name}/{joined}"

    return {"root": root_name, "path": rel, "title": _title(path),
            "html": render_markdown(text, url)}
