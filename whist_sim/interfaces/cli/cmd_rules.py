"""``whist-sim rules``: print the rule book (RULES.md, shipped with the package), or one section.

``whist-sim rules`` prints the whole book; ``whist-sim rules 3`` (or ``§3``, ``8a``) the section
of that number; ``whist-sim rules frisch`` the sections whose heading holds every word given;
``--list`` the headings.
"""

from __future__ import annotations

import click

from .manual_pages import echo_page


@click.command("rules")
@click.argument("section", nargs=-1)
@click.option("--list", "list_sections", is_flag=True, help="print the section headings only")
def command(section: tuple[str, ...], list_sections: bool) -> None:
    """Print the rule book, or SECTION of it: a number (3, §3, 8a) or words of its heading
    (frisch, game record). The rule book is the reference every engine implements; the other
    pages of the manual: `whist-sim docs`."""
    echo_page("rules", " ".join(section) or None, list_sections, "SECTION")
