"""Click options shared by several commands: every rule option of
:class:`whist_sim.core.rules.Rules`, ``--rules FILE`` (a TOML file of them), and
``--progress/--no-progress`` with its default (a bar only when stderr is a terminal); and
:func:`packed`, which hands a command its parsed options as one object."""

from __future__ import annotations

import functools
import math
import os
import sys
from pathlib import Path
from typing import Any

import click

from ...core.rules import Rules, RulesError, load_rules_file
from ...core.rules import rule_options as _declared_options


class Parsed:
    """A command's parsed options as one read-only object, each by its parameter's name
    (``o.deals``, ``o.rules``): what :func:`packed` hands the command."""

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any]) -> None:
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no option {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("the parsed options are read-only")

    def __repr__(self) -> str:
        return f"Parsed({self._values!r})"


def packed(func):
    """Decorate a click command whose callback takes its parsed options as one :class:`Parsed`
    (``def command(o)``) rather than one parameter per option: put it right above the ``def``,
    below the options (and below :func:`rule_options`, whose ``rules`` it then packs too). The
    command builds its own options object (``RunOptions``, ``AdviseOptions``) from it, once."""

    @functools.wraps(func)
    def callback(**options: Any) -> Any:
        return func(Parsed(options))

    return callback


#: key of ``click.Context.meta`` holding the ``--rules`` file of the command (``None`` without)
RULES_FILE_META = "whist_sim.rules_file"


def rule_options(func):
    """Decorate a click command with one option per rule field and ``--rules FILE``; passes
    ``rules=Rules(...)``: the rule book's defaults, then the file's options, then the flags given.

    The file's path (as given) is left in ``click.get_current_context().meta[RULES_FILE_META]``
    for commands that record it.
    """
    options = _declared_options()

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        rules_file = kwargs.pop("rules_file")
        values = {o.name: kwargs.pop(o.name) for o in options}
        values = {k: v for k, v in values.items() if v is not None}
        from_file = {}
        if rules_file is not None:
            try:
                from_file = load_rules_file(rules_file)
            except RulesError as e:
                raise click.BadParameter(str(e), param_hint="--rules") from None
        click.get_current_context().meta[RULES_FILE_META] = (
            None if rules_file is None else str(rules_file)
        )
        try:
            kwargs["rules"] = Rules(**{**from_file, **values})
        except RulesError as e:
            if e.option in values:
                hint = f"--{e.option.replace('_', '-')}"
            elif e.option is not None and rules_file is not None:
                hint = f"--rules ({rules_file}, key {e.option})"
            else:
                hint = "rule options" if rules_file is None else f"rule options (with {rules_file})"
            raise click.BadParameter(str(e), param_hint=hint) from None
        return func(*args, **kwargs)

    for o in reversed(options):
        help_text = o.help_line
        if o.kind == "flag":
            opt = click.option(f"{o.flag}/--no-{o.flag[2:]}", o.name, default=None,
                               help=f"{help_text} [default: {o.default}]")
        elif o.kind == "choice":
            opt = click.option(o.flag, o.name, type=click.Choice(o.choices), default=None,
                               help=f"{help_text} [default: {o.default}]")
        elif o.kind == "directions":
            opt = click.option(o.flag, o.name, default=None,
                               help=f"{help_text} [default: {','.join(o.default)}]")
        else:
            lo, hi = o.range
            opt = click.option(o.flag, o.name, type=click.IntRange(lo, hi), default=None,
                               help=f"{help_text} [default: {o.default}; {lo}..{hi}]")
        wrapper = opt(wrapper)
    return click.option(
        "--rules", "rules_file", type=NamedPath(path_type=Path, dir_okay=False), default=None,
        metavar="FILE",
        help="rule options from a TOML file (top-level keys are the options' names with "
             "underscores, e.g. zero_over = 30); flags given override it",
    )(wrapper)


#: values of the ``TQDM_DISABLE`` environment variable that do not disable the bars
_FALSE_WORDS = ("", "0", "false", "no", "off")


def progress_option(what: str = "a progress bar on stderr"):
    """``--progress/--no-progress``: passes ``progress`` as True, False or None (neither flag
    given; :func:`show_progress` then decides)."""
    return click.option(
        "--progress/--no-progress", "progress", default=None,
        help=f"{what} [default: when stderr is a terminal and TQDM_DISABLE is not set]",
    )


def show_progress(flag: bool | None) -> bool:
    """Whether to draw progress bars: the flag when given (``--progress`` draws them even into a
    file or with ``TQDM_DISABLE`` set), else only when stderr is a terminal and the environment
    variable ``TQDM_DISABLE`` is unset, empty or false (``0``, ``false``, ``no``, ``off``): a log
    file gets no ``\\r`` frames."""
    if flag is not None:
        return flag
    if os.environ.get("TQDM_DISABLE", "").strip().lower() not in _FALSE_WORDS:
        return False
    stream = sys.stderr
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False
class NamedPath(click.Path):
    """A ``click.Path`` that refuses an empty name: ``--out ""`` is not the current folder (give
    ``.`` for that), and no command guesses what an empty name meant."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("an empty name; give a file or folder name ('.' is the current folder)",
                      param, ctx)
        if isinstance(value, str) and "\0" in value:
            self.fail("a name with a NUL character", param, ctx)
        return super().convert(value, param, ctx)


class FiniteFloatRange(click.FloatRange):
    """A ``click.FloatRange`` that also refuses ``nan`` and ``inf`` (which compare false with
    every bound, so a range alone lets them through)."""

    def convert(self, value, param, ctx):
        rv = super().convert(value, param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return rv


def check_options(unit: str = "deals", default_rule: str = "enough to see 2 points per deal "
                  "between the top two bids 4 times in 5, at least 200, at most the answer's "
                  "deals and 2,000"):
    """``--check PLAY`` (default :data:`whist_sim.analyses.answer_check.DEFAULT_CHECK_PLAY`),
    ``--no-check`` and ``--check-deals N``: pass ``check`` (the spec text), ``no_check`` and
    ``check_deals``;
    :func:`checked_play` turns the first two into the check play or ``None``."""
    from ...analyses.answer_check import DEFAULT_CHECK_PLAY

    def decorate(func):
        func = click.option(
            "--check-deals", "check_deals", type=click.IntRange(min=1), default=None,
            metavar="N", help=f"{unit} of the check's subsample [default: {default_rule}]")(func)
        func = click.option(
            "--no-check", "no_check", is_flag=True,
            help="skip the check against search (the answer under --play only)")(func)
        return click.option(
            "--check", "check", default=DEFAULT_CHECK_PLAY, show_default=True, metavar="PLAY",
            help="check the answer against this (searching) play policy on a subsample of the "
                 "same deals: confirmed, not contradicted or contradicted")(func)

    return decorate


def checked_play(check: str, no_check: bool, check_deals: int | None = None) -> str | None:
    """The canonical check play, or ``None`` with ``--no-check``; a bad spec is refused in one
    line naming ``--check``. A check under a searching play starts the compile of its loop
    beside this process when it is not in the cache
    (:func:`~whist_sim.analyses.answer_check.compile_check_ahead`)."""
    from ...analyses.answer_check import DEFAULT_CHECK_PLAY, compile_check_ahead
    from .seats import play_spec

    if no_check:
        ctx = click.get_current_context(silent=True)
        given = (ctx is not None and ctx.get_parameter_source("check")
                 == click.core.ParameterSource.COMMANDLINE)
        if given or check != DEFAULT_CHECK_PLAY:
            raise click.UsageError("--check and --no-check contradict each other: give one")
        if check_deals is not None:
            raise click.UsageError("--check-deals applies to the check: drop --no-check")
        return None
    play = play_spec(check, "--check").text
    compile_check_ahead(play)
    return play
