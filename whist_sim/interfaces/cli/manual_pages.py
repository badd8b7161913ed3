"""Printing the manual's pages for ``whist-sim rules`` and ``whist-sim docs`` (one renderer)."""

from __future__ import annotations

import click


def echo_page(name: str, section: str | None, list_sections: bool, hint: str) -> None:
    """Print page ``name``, its ``section`` (a number or words of a heading), or with
    ``list_sections`` its ``##`` headings; an unknown page or section is a usage error that
    lists what there is."""
    from ..manual import ManualError, page, sections
    from ..manual import section as pick

    try:
        text = page(name)
    except ManualError as e:
        raise click.BadParameter(str(e), param_hint="PAGE") from None
    if list_sections:
        click.echo("\n".join(h for h, _ in sections(text)))
        return
    if section is None:
        click.echo(text, nl=False)
        return
    try:
        click.echo(pick(text, section), nl=False)
    except ManualError as e:
        raise click.BadParameter(str(e), param_hint=hint) from None
