"""The ``--json`` output of the commands: one JSON object on stdout, plain JSON types only.

Numbers that are not finite (NaN: a rate with no observations) become ``null``; numpy scalars
become Python numbers; tables become lists of row objects (index levels first, then columns).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import click
import numpy as np
import pandas as pd


def plain(x: Any) -> Any:
    """``x`` with numpy and pandas values turned into JSON types (NaN -> None)."""
    if isinstance(x, pd.DataFrame):
        return table_rows(x)
    if isinstance(x, Mapping):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [plain(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(float(x)) else None
    if x is None or isinstance(x, str):
        return x
    if x is pd.NA or x is pd.NaT:
        return None
    return str(x)


def table_rows(df: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as a list of row objects: the index levels (by name) first, then the columns."""
    flat = df.reset_index()
    flat.columns = ["_".join(map(str, c)) if isinstance(c, tuple) else str(c)
                    for c in flat.columns]
    return [plain(row) for row in flat.to_dict(orient="records")]


def echo_json(obj: Mapping[str, Any]) -> None:
    """Print one JSON object (a line) on stdout."""
    click.echo(json.dumps(plain(obj), allow_nan=False))
