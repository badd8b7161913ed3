"""The ``whist-sim`` command line: a thin click layer over the library.

Each command lives in its own module ``whist_sim/interfaces/cli/cmd_<name>.py`` exposing a click
command named ``command``; this group discovers them, so adding a command touches no other file. A
command parses its options, calls one library function, and renders the result.

The group loads a command's module only when that command runs (or its own ``--help`` is asked
for): ``whist-sim --help`` lists the commands from the first line of each module's docstring,
read without importing it, so it starts in a fraction of a second. Command modules import the
heavy libraries (pandas, scipy, matplotlib, the compiled kernels) inside their functions where they
can.
"""

from __future__ import annotations

import ast
import errno
import importlib
import os
import pkgutil
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

import click

from ...core.version import __version__

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

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run the command line; in standalone mode (the program, and ``CliRunner``) every
        failure the user can mend ends in one line on stderr, ``Error: ...``, never a usage
        block or a traceback: a bad option or input (exit 2 for usage errors, else 1), a
        failed write to stdout or a file (full disk, no permission: exit 1), Ctrl-C
        (``interrupted``, exit 130). Stdout is flushed before the exit status is decided, so a
        write that fails only when the buffer is flushed fails the command too. A closed pipe
        (``| head``) ends the command quietly with exit status 141, as Unix tools do."""
        if not standalone_mode:
            try:
                return super().main(args, prog_name, complete_var, False, **extra)
            except _OutputFailed as e:
                raise e.error from None
        try:
            try:
                rv = super().main(args, prog_name, complete_var, False, **extra)
            finally:
                _flush(sys.stdout)
        except click.exceptions.Abort as e:
            if isinstance(e.__cause__, KeyboardInterrupt):
                _fail("interrupted", 130, prefix="")
            _fail("aborted", 1)
        except KeyboardInterrupt:
            _fail("interrupted", 130, prefix="")
        except click.ClickException as e:
            _fail(_one_line(e), e.exit_code)
        except _OutputFailed as e:
            _fail_write(e.error)
        except OSError as e:
            _fail_write(e)
        sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        # an OSError is handed to main() wrapped: click's own handling of a closed pipe would
        # exit with status 1
        try:
            return super().invoke(ctx)
        except OSError as e:
            raise _OutputFailed(e) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # always the module's summary, whether the command was loaded already or not: the
        # listing must not change with what ran before in the same process
        rows = [(name, _short_help(_modules()[name])) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class _OutputFailed(Exception):
    """An ``OSError`` of a command (a failed write, a closed pipe) on its way to ``main``."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def _one_line(e: click.ClickException) -> str:
    """The message of a click error as one line: a usage error names the option (``Invalid
    value for '--deals': ...``) and, instead of click's usage block, the help to read."""
    text = " ".join(part.strip() for part in e.format_message().splitlines() if part.strip())
    if isinstance(e, click.UsageError) and e.ctx is not None:
        text += f" (see '{e.ctx.command_path} -h')"
    return text


def _flush(stream: Any) -> None:
    """Flush ``stream`` (stdout): a write that failed only in the buffer fails here."""
    flush = getattr(stream, "flush", None)
    if flush is not None:
        flush()


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at the null device, so that Python's own flush at exit
    neither fails nor warns."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


def _fail(message: str, code: int, prefix: str = "Error: ") -> NoReturn:
    try:
        click.echo(f"{prefix}{message}", err=True)
    except OSError:
        pass
    sys.exit(code)


def _fail_write(e: OSError) -> NoReturn:
    """An ``OSError`` no command caught: a closed pipe ends quietly (exit 141); any other is a
    failed write or read, said in one line naming the file when the error names one."""
    if e.errno == errno.EPIPE:
        _quiet_stdout()
        sys.exit(128 + 13)  # as a process killed by SIGPIPE
    what = e.strerror or str(e) or type(e).__name__
    if e.filename:
        _fail(f"{e.filename}: {what}", 1)
    _fail(f"cannot write the output: {what}", 1)


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
        _fail("\ninterrupted", 130, prefix="")
