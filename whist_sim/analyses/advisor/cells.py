"""Cells of the advisor's output: numbers for the JSON form and fixed-width text for the tables.

Shared by the advice (:mod:`whist_sim.analyses.advisor.render`) and its double-dummy view
(:mod:`whist_sim.analyses.advisor.dd_view`). Conventions: a missing value (``None`` or NaN) becomes
``None`` in JSON and a dash in text; JSON numbers keep 7 significant digits; a share in text is a
percentage with one decimal, 6 characters wide (``" 12.5%"``).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["json_number", "pct_cell"]


def json_number(x: Any) -> float | None:
    """``x`` as a float with 7 significant digits for JSON; ``None`` and NaN become ``None``."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else float(f"{x:.7g}")


def pct_cell(x: float | None) -> str:
    """A share as a percentage cell, ``" 12.5%"``; ``None`` and NaN give ``"   -  "``."""
    return "   -  " if x is None or math.isnan(x) else f"{100 * x:5.1f}%"
