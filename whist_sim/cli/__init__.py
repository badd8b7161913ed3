"""The ``whist-sim`` command line: a thin click layer over the library.

Each command lives in its own module ``whist_sim/cli/cmd_<name>.py`` exposing a click command named
``command``; this group discovers them, so adding a command touches no other file. A command parses
its options, calls one library function, and renders the result.

The group loads a command's module only when that command runs (or its own ``--help`` is asked
for): ``whist-sim --help`` lists the commands from the first line of each module's docstring,
read without importing it, so it starts in a fraction of a second. Command modules import the
heavy libraries (pandas, scipy, matplotlib, the compiled kernels) inside their functions where they
can.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import sys
from functools import cache
from pathlib import Path

import click

from .. import __version__

_PREFIX = "cmd_"
_DOC_HEAD = re.compile(r"^``whist-sim [\w-]+``:\s*")


@cache
def _modules() -> dict[str, str]:
    """Command name -> module name (``cmd_bid_chart`` -> ``bid-chart``), without importing."""
    return {
        info.name[len(_PREFIX):].replace("_", "-"): info.name
        for info in pkgutil.iter_modules(__path__)
        if info.name.startswith(_PREFIX)
    }


@cache
def _short_help(module: str) -> str:
    """The first line of a command module's docstring, read from its source (no import)."""
    try:
        source = (Path(__file__).parent / f"{module}.py").read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(source)) or ""
    except (OSError, SyntaxError, UnicodeDecodeError):
        return ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ")
    return _DOC_HEAD.sub("", first).rstrip(".")


class LazyGroup(click.Group):
    """A click group whose commands are imported the first time they are needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(_modules()) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        module = _modules().get(cmd_name)
        if module is None:
            return None
        command = importlib.import_module(f"{__name__}.{module}").command
        self.add_command(command, cmd_name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # always the module's summary, whether the command was loaded already or not: the
        # listing must not change with what ran before in the same process
        rows = [(name, _short_help(_modules()[name])) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="whist-sim")
def main() -> None:
    """Monte Carlo strategy analyser for Israeli Whist.

    The rule book: whist-sim rules (RULES §3: whist-sim rules 3); the engine and the other
    reference pages: whist-sim docs."""


def run() -> None:
    """The ``whist-sim`` program: the command group, with Ctrl-C at any point (loading a command
    included) a one-line exit, never a traceback."""
    try:
        main(prog_name="whist-sim")
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(130)
