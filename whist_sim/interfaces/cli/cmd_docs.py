"""``whist-sim docs``: print a page of the manual shipped with the package (rules, engine,
advisor, ...), or one section of it.

``whist-sim docs`` lists the pages; ``whist-sim docs advisor`` prints one; ``whist-sim docs
advisor json`` the sections of that page whose heading holds every word given.
"""

from __future__ import annotations

import click

from .manual_pages import echo_page


@click.command("docs")
@click.argument("page", required=False)
@click.argument("section", nargs=-1)
@click.option("--list", "list_sections", is_flag=True, help="print the page's section headings")
def command(page: str | None, section: tuple[str, ...], list_sections: bool) -> None:
    """Print PAGE of the manual (without PAGE: the list of pages), or SECTION of it: a number
    (3, 8a) or words of its heading. The pages are the project's reference documentation:
    rules (the rule book, also `whist-sim rules`), engine, strategies, play_model (the data
    card of the learned play policy), advisor, reports, json, pbn, dd, web, cluster,
    openspiel."""
    from ..manual import page_names

    if page is None:
        click.echo("\n".join(page_names()))
        return
    echo_page(page, " ".join(section) or None, list_sections, "SECTION")
