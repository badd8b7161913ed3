"""Build hook: the package ships the user's manual, the repository's docs/*.md pages listed in
whist_sim/interfaces/manual.py (PAGES), as whist_sim/interfaces/_manual/*.md; docs/ stays their
single source. Every other setting is in pyproject.toml."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _pages() -> tuple[str, ...]:
    spec = importlib.util.spec_from_file_location("_whist_sim_manual", ROOT / "whist_sim" /
                                                  "interfaces" / "manual.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.PAGES)


class BuildWithManual(build_py):
    """``build_py``, then the manual's pages copied into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads docs/ in place
        target = Path(self.build_lib) / "whist_sim" / "interfaces" / "_manual"
        target.mkdir(parents=True, exist_ok=True)
        for name in _pages():
            source = ROOT / "docs" / f"{name}.md"
            if source.is_file():
                shutil.copyfile(source, target / source.name)


setup(cmdclass={"build_py": BuildWithManual})
