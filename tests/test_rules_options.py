"""Each rule option is declared once, on its field of ``Rules`` (default, legal values, help and
RULES section; ``whist_sim.core.rules.rule_options``): the validation, the command-line flags,
``--rules`` files, the web form and the compiled engine's rule slots are derived from that
declaration, so every option, a new one included, reaches each of them without another list."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from whist_sim.core.rules import (
    Rules,
    RulesError,
    load_rules_file,
    rule_names,
    rule_options,
    scoring_names,
)
from whist_sim.interfaces.cli import main
from whist_sim.interfaces.cli.options import rule_options as rule_flags

OPTIONS = rule_options()
RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "RULES.md"


def other_value(o):
    """A legal value of option ``o`` that is not its default (with three players where the
    value needs them)."""
    if o.kind == "flag":
        return not o.default
    if o.kind == "number":
        lo, hi = o.range
        return o.default + 1 if o.default < hi else lo
    if o.kind == "choice":
        return next(c for c in o.choices if c != o.default)
    return ("right", "left", "right")


def changed_rules() -> dict:
    """Every option at a value other than its default."""
    return {o.name: other_value(o) for o in OPTIONS}


def test_every_field_declares_its_help_its_section_and_its_legal_values():
    sections = set(re.findall(r"^## (\d+a?)\. ", RULES_MD.read_text(), flags=re.M))
    assert tuple(o.name for o in OPTIONS) == rule_names()
    for o in OPTIONS:
        assert o.help and "RULES" not in o.help, o.name  # the section is added where shown
        assert o.section.startswith("§") and o.section[1:] in sections, o.name
        assert getattr(Rules(), o.name) == o.default
        if o.kind == "number":
            lo, hi = o.range
            assert lo <= o.default <= hi and not isinstance(o.default, bool)
        elif o.kind in ("choice", "directions"):
            assert o.choices and all(x in o.choices for x in
                                     (o.default if o.kind == "directions" else (o.default,)))
        else:
            assert o.kind == "flag" and isinstance(o.default, bool)


def test_validation_follows_the_declaration_of_each_option():
    for o in OPTIONS:
        bad = {"flag": "yes", "number": o.range[1] + 1, "choice": "nonsense",
               "directions": ("up", "left", "left")}[o.kind]
        with pytest.raises(RulesError) as e:
            Rules(**{o.name: bad})
        assert e.value.option == o.name


def test_every_option_changed_at_once_is_a_legal_rule_set():
    r = Rules(**changed_rules())
    assert r.changes().keys() == set(rule_names())


@pytest.mark.parametrize("command", ["simulate", "advise", "tournament", "deal", "game",
                                     "bid-chart"])
def test_every_command_with_rules_has_one_flag_per_option_with_its_help(command):
    cmd = main.get_command(click.Context(main), command)
    params = {p.name: p for p in cmd.params}
    if "pass_is_final" not in params:
        pytest.skip(f"{command} takes no rule options")
    for o in OPTIONS:
        p = params[o.name]
        assert o.flag in p.opts and p.help.startswith(o.help_line), o.name
        if o.kind == "number":
            assert isinstance(p.type, click.IntRange)
            assert (p.type.min, p.type.max) == o.range
        elif o.kind == "choice":
            assert tuple(p.type.choices) == o.choices


def test_the_flags_and_a_rules_file_reach_every_option(tmp_path):
    from click.testing import CliRunner

    values = changed_rules()
    lines = []
    for name, v in values.items():
        if isinstance(v, bool):
            lines.append(f"{name} = {str(v).lower()}")
        elif isinstance(v, tuple):
            lines.append(f"{name} = {list(v)!r}".replace("'", '"'))
        elif isinstance(v, str):
            lines.append(f'{name} = "{v}"')
        else:
            lines.append(f"{name} = {v}")
    f = tmp_path / "house.toml"
    f.write_text("\n".join(lines) + "\n")
    assert Rules(**load_rules_file(f)) == Rules(**values)

    args = []
    for o in OPTIONS:
        v = values[o.name]
        if o.kind == "flag":
            args.append(o.flag if v else f"--no-{o.flag[2:]}")
        else:
            args += [o.flag, ",".join(v) if isinstance(v, tuple) else str(v)]
    seen = {}

    @click.command()
    @rule_flags
    def probe(rules):
        seen["rules"] = rules

    r = CliRunner().invoke(probe, args)
    assert r.exit_code == 0, r.output
    assert seen["rules"] == Rules(**values)


def test_the_web_form_sends_every_option_and_reads_its_help():
    from webcall import call

    from whist_sim.interfaces.web.app import create_app
    from whist_sim.interfaces.web.requests import rules_of
    from whist_sim.interfaces.web.server import LocalServer

    values = changed_rules()
    form = {k: (",".join(v) if isinstance(v, tuple) else v if isinstance(v, bool) else str(v))
            for k, v in values.items()}  # a form's numbers arrive as text
    assert rules_of(form) == Rules(**values)
    with LocalServer(create_app()) as base:
        status, info = call(base, "/api/info")
    assert status == 200
    assert set(info["rule_help"]) == set(rule_names())
    for o in OPTIONS:
        assert info["rule_help"][o.name] == o.help_line
        if o.kind == "choice":
            assert info["rule_choices"][o.name] == list(o.choices)
        if o.kind == "number":
            assert info["rule_ranges"][o.name] == list(o.range)


def test_every_scoring_number_has_a_kernel_slot_of_its_own():
    from whist_sim.compiled.ground.layout import R_SCORING, RP_SIZE, rule_slot, rules_array

    names = scoring_names()
    assert names == tuple(o.name for o in OPTIONS if o.scoring)
    assert {o.section for o in OPTIONS if o.scoring} == {"§6"}
    slots = [rule_slot(n) for n in names]
    assert slots == list(range(R_SCORING, RP_SIZE))
    rules = Rules(**{n: other_value(o) for o in OPTIONS if o.scoring for n in (o.name,)})
    rp = rules_array(rules)
    for n in names:
        assert rp[rule_slot(n)] == getattr(rules, n), n
    with pytest.raises(KeyError, match="not a scoring number"):
        rule_slot("target")
