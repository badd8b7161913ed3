"""The ``whist-sim`` command line: a thin click layer over the library.

Each command lives in its own module ``whist_sim/cli/cmd_<name>.py`` exposing a click command named
``command``; this group discovers them, so adding a command touches no other file. A command parses
its options, calls one library function, and renders the result.
"""

from __future__ import annotations

import importlib
import pkgutil

import click

from .. import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="whist-sim")
def main() -> None:
    """Monte Carlo strategy analyser for Israeli Whist (rules: RULES.md, engine: docs/ENGINE.md)."""


def _register_commands() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("cmd_"):
            module = importlib.import_module(f"{__name__}.{info.name}")
            main.add_command(module.command)


_register_commands()
