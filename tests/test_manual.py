"""The manual an installed user has: ``whist-sim rules [SECTION]`` and ``whist-sim docs [PAGE]``
print the pages shipped with the package (the repository's docs/*.md, copied by the build), and
no help text sends the user to a file that an installed package lacks."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from whist_sim.interfaces import manual
from whist_sim.interfaces.cli import _modules, main

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")


def run(*args: str):
    return CliRunner().invoke(main, list(args), terminal_width=200)


def test_rules_prints_the_rule_book():
    r = run("rules")
    assert r.exit_code == 0 and r.output == RULES


@pytest.mark.parametrize("which, heading", [
    ("3", "## 3. Frisch"), ("§3", "## 3. Frisch"), ("8a", "## 8a. Where the pages differ"),
    ("8", "## 8. Three-player variants"), ("frisch", "## 3. Frisch"),
])
def test_rules_prints_one_section_by_number_or_words(which, heading):
    r = run("rules", which)
    assert r.exit_code == 0, r.output
    assert r.output.startswith(heading) and r.output.count("\n## ") == 0
    assert r.output in RULES


def test_words_may_match_several_sections():
    out = run("rules", "game", "record").output
    assert "## 10. Game record" in out and "## 11. Game record" in out


def test_an_unknown_section_or_page_lists_what_there_is():
    r = run("rules", "99")
    assert r.exit_code == 2 and "no section '99'" in r.output and "3. Frisch" in r.output
    r = run("docs", "nosuch")
    assert r.exit_code == 2 and "no page 'nosuch'" in r.output and "rules" in r.output


def test_docs_lists_and_prints_the_reference_pages():
    names = run("docs").output.split()
    assert names[0] == "rules" and {"engine", "advisor", "pbn", "json"} <= set(names)
    for name in names:
        assert run("docs", name).output == (ROOT / "docs" / f"{name.upper()}.md").read_text(
            encoding="utf-8")
    assert run("rules", "--list").output.splitlines()[1] == "1. Table, cards, deal"


@pytest.mark.parametrize("command", sorted(_modules()))
def test_no_help_text_points_to_a_file_an_installed_user_lacks(command):
    text = run(command, "--help").output
    assert "docs/" not in text and "RULES.md" not in text.replace("RULES.md, shipped", "")


def test_the_built_package_ships_the_pages_equal_to_docs(tmp_path):
    # the wheel pip would install: the build copies docs/*.md into whist_sim/interfaces/_manual/
    # (built from a copy of the sources, so that the build leaves nothing in the working tree)
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "examples")
    shutil.copytree(ROOT / "whist_sim", src / "whist_sim", ignore=skip)
    shutil.copytree(ROOT / "docs", src / "docs", ignore=skip)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                        "--quiet", "-w", str(tmp_path), str(src)], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    (whl,) = tmp_path.glob("whist_sim-*.whl")
    with zipfile.ZipFile(whl) as z:
        shipped = {Path(n).stem for n in z.namelist()
                   if n.startswith("whist_sim/interfaces/_manual/")}
        assert "RULES" in shipped
        for stem in shipped:
            assert stem in manual.PAGES
            assert z.read(f"whist_sim/interfaces/_manual/{stem}.md") == (
                ROOT / "docs" / f"{stem}.md").read_bytes()
    assert shipped == {p for p in manual.PAGES if (ROOT / "docs" / f"{p}.md").is_file()}
