"""Click options shared by several commands: every rule option of
:class:`whist_sim.core.rules.Rules`, ``--rules FILE`` (a TOML file of them), and
``--progress/--no-progress`` with its default (a bar only when stderr is a terminal)."""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import sys
from pathlib import Path

import click

from ..core.rules import (
    AFTER_THIRD_FRISCH,
    BID_ORDERS,
    THREE_PLAYER_DECKS,
    Rules,
    RulesError,
    load_rules_file,
    rule_ranges,
)

#: key of ``click.Context.meta`` holding the ``--rules`` file of the command (``None`` without)
RULES_FILE_META = "whist_sim.rules_file"

_CHOICES = {
    "bid_order": BID_ORDERS,
    "after_third_frisch": AFTER_THIRD_FRISCH,
    "three_player_deck": THREE_PLAYER_DECKS,
}

_HELP = {
    "pass_is_final": "a seat that passed may not bid again in that auction (RULES §2)",
    "bid_order": "what a bid must beat: number (more tricks first) or suit (strain first) "
                 "(RULES §2)",
    "after_third_frisch": "four passes after the third Frisch: pass (thrown in, next dealer) or "
                          "redeal (same dealer deals again) (RULES §3)",
    "frisch": "four passes lead to a Frisch; --no-frisch throws the deal in (RULES §3)",
    "frisch_raises_minimum": "each Frisch raises the minimum bid by one (RULES §3)",
    "frisch_directions": "receivers of Frisch 1,2,3, e.g. left,across,right (RULES §3)",
    "made_bonus": "points added to t*t for a made contract (RULES §6)",
    "miss_per_trick": "points lost per trick over or under a missed contract (RULES §6)",
    "zero_under": "points for a made zero in an under deal (RULES §6)",
    "zero_over": "points for a made zero in an over deal (RULES §6)",
    "zero_fail_first": "points for a missed zero, first trick (RULES §6)",
    "zero_fail_refund": "points back per trick after the first on a missed zero (RULES §6)",
    "revoke_penalty": "points a proven revoke costs (RULES §5)",
    "target": "game target score (RULES §7)",
    "players": "3 or 4 players (RULES §8)",
    "three_player_deck": "deck for three players (RULES §8)",
}


def rule_options(func):
    """Decorate a click command with one option per rule field and ``--rules FILE``; passes
    ``rules=Rules(...)``: the rule book's defaults, then the file's options, then the flags given.

    The file's path (as given) is left in ``click.get_current_context().meta[RULES_FILE_META]``
    for commands that record it.
    """
    defaults = Rules()
    fields = dataclasses.fields(Rules)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        rules_file = kwargs.pop("rules_file")
        values = {f.name: kwargs.pop(f.name) for f in fields}
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

    for f in reversed(fields):
        name = f.name.replace("_", "-")
        default = getattr(defaults, f.name)
        help_text = _HELP[f.name]
        if isinstance(default, bool):
            opt = click.option(
                f"--{name}/--no-{name}",
                f.name,
                default=None,
                help=f"{help_text} [default: {default}]",
            )
        elif f.name in _CHOICES:
            opt = click.option(
                f"--{name}",
                f.name,
                type=click.Choice(_CHOICES[f.name]),
                default=None,
                help=f"{help_text} [default: {default}]",
            )
        elif f.name == "frisch_directions":
            opt = click.option(
                f"--{name}",
                f.name,
                default=None,
                help=f"{help_text} [default: {','.join(default)}]",
            )
        else:
            lo, hi = rule_ranges()[f.name]
            opt = click.option(
                f"--{name}",
                f.name,
                type=click.IntRange(lo, hi),
                default=None,
                help=f"{help_text} [default: {default}; {lo}..{hi}]",
            )
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


def check_options(unit: str = "deals", default_rule: str = "the answer's deals / 25, at least "
                  "200, at most the answer's"):
    """``--check PLAY`` (default :data:`whist_sim.check.DEFAULT_CHECK_PLAY`), ``--no-check`` and
    ``--check-deals N``: pass ``check`` (the spec text), ``no_check`` and ``check_deals``;
    :func:`checked_play` turns the first two into the check play or ``None``."""
    from ..check import DEFAULT_CHECK_PLAY

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
                 "same deals and say whether it holds")(func)

    return decorate


def checked_play(check: str, no_check: bool, check_deals: int | None = None) -> str | None:
    """The canonical check play, or ``None`` with ``--no-check``; a bad spec is refused in one
    line naming ``--check``."""
    from ..check import DEFAULT_CHECK_PLAY
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
    return play_spec(check, "--check").text
