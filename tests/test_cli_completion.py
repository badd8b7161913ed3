"""Shell completion as the README documents it: ``_WHIST_SIM_COMPLETE=bash_source whist-sim``
prints the script, and completing words lists the commands and options (click's completion)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
PROGRAM = [sys.executable, "-c", "from whist_sim.interfaces.cli import run; run()"]


def complete(*env: tuple[str, str]) -> str:
    r = subprocess.run(PROGRAM, env={**os.environ, **dict(env)}, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_readme_documents_the_completion_of_each_shell(shell):
    assert f"_WHIST_SIM_COMPLETE={shell}_source whist-sim" in README.read_text()
    script = complete(("_WHIST_SIM_COMPLETE", f"{shell}_source"))
    assert "_WHIST_SIM_COMPLETE" in script and "whist-sim" in script


def test_completion_lists_commands_and_options():
    words = complete(("_WHIST_SIM_COMPLETE", "bash_complete"), ("COMP_WORDS", "whist-sim tourn"),
                     ("COMP_CWORD", "1"))
    assert "plain,tournament" in words.split()
    words = complete(("_WHIST_SIM_COMPLETE", "bash_complete"),
                     ("COMP_WORDS", "whist-sim simulate --after-third-frisch "),
                     ("COMP_CWORD", "3"))
    assert {"plain,pass", "plain,redeal"} <= set(words.split())
