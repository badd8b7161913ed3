"""The public API is typed for checkers: mypy finds the installed package (from outside the
source tree), sees the lazily loaded names with their types, refuses a name the package does not
have, and passes ``--strict`` on the README's Python examples."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import whist_sim

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"^```python\n(.*?)^```", README, flags=re.MULTILINE | re.DOTALL)


def mypy(tmp_path: Path, **files: str) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` on ``files`` (name -> source), run in ``tmp_path``: outside the source
    tree, so the package is found as installed, not as a folder beside the files."""
    paths = []
    for name, source in files.items():
        (tmp_path / f"{name}.py").write_text(source)
        paths.append(f"{name}.py")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", "",
         "--cache-dir", str(tmp_path / ".mypy_cache"), *paths],
        cwd=tmp_path, capture_output=True, text=True, timeout=600)


def _type_checking_names() -> set[str]:
    tree = ast.parse((ROOT / "whist_sim" / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            return {a.asname or a.name for imp in node.body if isinstance(imp, ast.ImportFrom)
                    for a in imp.names}
    raise AssertionError("whist_sim/__init__.py has no `if TYPE_CHECKING:` block")


def test_every_lazy_name_is_imported_for_type_checkers():
    lazy = set(whist_sim._LAZY)
    assert _type_checking_names() == lazy
    assert set(whist_sim.__all__) == lazy | {"__version__"}
    for name in lazy:  # and each resolves at run time to the object the checker sees
        module, attr = whist_sim._LAZY[name]
        assert getattr(whist_sim, name) is getattr(__import__(module, fromlist=[attr]), attr)


def test_an_unknown_name_is_an_error_at_run_time():
    with pytest.raises(AttributeError, match="no_such_name"):
        whist_sim.no_such_name  # noqa: B018


def test_the_readme_has_python_examples():
    assert len(EXAMPLES) >= 2
    assert any("whist_sim.load(" in e for e in EXAMPLES)
    assert any("whist_sim.advise(" in e for e in EXAMPLES)


PROBE = "\n".join([
    "import whist_sim",
    "reveal_type(whist_sim.load)",
    "reveal_type(whist_sim.Rules())",
    "reveal_type(whist_sim.score(5, 5, over=False))",
    "reveal_type(whist_sim.advise)",
    "whist_sim.no_such_name",
    "whist_sim.score('5', 5, over=False)",
]) + "\n"


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """One ``mypy --strict`` run over the probe and the README's examples (mypy is slow)."""
    files = {"probe": PROBE, **{f"example_{i}": code for i, code in enumerate(EXAMPLES)}}
    return mypy(tmp_path_factory.mktemp("mypy"), **files).stdout


def test_mypy_finds_the_package_and_its_types(checked):
    out = checked
    assert "import-not-found" not in out and "Cannot find implementation" not in out, out
    assert 'Revealed type is "def (path: str | pathlib.Path' in out
    assert 'Revealed type is "whist_sim.core.rules.Rules"' in out
    assert 'probe.py:4: note: Revealed type is "int"' in out
    assert "-> whist_sim.analyses.advisor.evaluate.Advice" in out
    assert 'probe.py:6: error: Module has no attribute "no_such_name"  [attr-defined]' in out
    assert "probe.py:7: error: Argument 1 to \"score\" has incompatible type" in out
    assert f"Found 2 errors in 1 file (checked {1 + len(EXAMPLES)} source files)" in out, out


def test_the_readme_examples_pass_mypy_strict(checked):
    # every error is the probe's: the examples are clean under --strict
    errors = [line for line in checked.splitlines() if ": error:" in line]
    assert errors and all(line.startswith("probe.py:") for line in errors), checked
