"""Progress bars: drawn only when stderr is a terminal (a log file gets no ``\\r`` frames), unless
``--progress`` asks for them; ``TQDM_DISABLE`` turns the default off; every command with a bar
offers ``--progress/--no-progress`` with the same default."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner

from whist_sim.interfaces.cli import main
from whist_sim.interfaces.cli import options as options_module
from whist_sim.interfaces.cli.options import show_progress

COMMANDS_WITH_BARS = ("simulate", "report", "tournament", "bid-chart", "advise", "export", "dd")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def stderr(monkeypatch):
    """Set what stderr is: ``stderr(True)`` a terminal, ``stderr(False)`` a file."""
    monkeypatch.delenv("TQDM_DISABLE", raising=False)

    def set_to(terminal: bool):
        monkeypatch.setattr(options_module.sys, "stderr", Terminal() if terminal else io.StringIO())

    return set_to


def test_the_default_is_a_bar_on_a_terminal_only(stderr):
    stderr(True)
    assert show_progress(None)
    stderr(False)
    assert not show_progress(None)


def test_the_flags_decide_whatever_stderr_is(stderr):
    for terminal in (True, False):
        stderr(terminal)
        assert show_progress(True) and not show_progress(False)


@pytest.mark.parametrize("value, bars", [("1", False), ("True", False), ("yes", False),
                                         ("0", True), ("false", True), ("", True)])
def test_tqdm_disable_turns_the_default_off(stderr, monkeypatch, value, bars):
    stderr(True)
    monkeypatch.setenv("TQDM_DISABLE", value)
    assert show_progress(None) is bars
    assert show_progress(True)  # an explicit --progress still draws them


@pytest.mark.parametrize("command", COMMANDS_WITH_BARS)
def test_every_command_with_a_bar_documents_the_default(command):
    r = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "--progress / --no-progress" in text
    assert "[default: when stderr is a terminal and TQDM_DISABLE is not set]" in text


def test_a_run_whose_stderr_is_a_file_draws_no_bar(tmp_path):
    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["simulate", "--deals", "40", "--seed", "3", "--chunk-size",
                                  "10", "--threads", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "\r" not in r.output and "deal/s" not in r.output
    forced = CliRunner().invoke(main, ["simulate", "--deals", "40", "--seed", "3",
                                       "--chunk-size", "10", "--threads", "1", "--out",
                                       str(tmp_path / "forced"), "--progress"])
    assert forced.exit_code == 0, forced.output
    assert "simulate" in forced.output and "100%" in forced.output
