"""Reading JSON that comes from outside (record files, manifests, web requests) with limits.

A JSON input is read up to a size cap (:data:`MAX_JSON_BYTES`: a file of zeros or a huge file is
refused, not read into memory), decoded as UTF-8 (a byte that is not is named), and parsed with
limits on nesting (:data:`MAX_DEPTH`) and on the length of a number (:data:`MAX_NUMBER_DIGITS`);
``NaN`` and ``Infinity`` are not JSON and are refused. Every failure is a :class:`JsonInputError`
with a one-line message. The size cap and the decoding (:func:`read_capped`, :func:`decode_utf8`)
also serve the other text inputs read from outside, such as PBN record files.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

MAX_JSON_BYTES = 16 * 1024 * 1024  # a game record of 2,000 deals is about 2 MB
MAX_DEPTH = 64  # objects and lists inside each other; the deepest whist-sim JSON has 5
MAX_NUMBER_DIGITS = 40  # a seed has at most 20 digits


class JsonInputError(ValueError):
    """JSON input that cannot be read or parsed within the limits."""


def read_capped(path: str | Path, max_bytes: int = MAX_JSON_BYTES) -> bytes:
    """The bytes of file ``path`` (``'-'``: standard input), refused beyond ``max_bytes``."""
    try:
        if str(path) == "-":
            raw = sys.stdin.buffer.read(max_bytes + 1)
        else:
            with open(path, "rb") as f:
                raw = f.read(max_bytes + 1)
    except OSError as e:
        raise JsonInputError(f"cannot read the file: {e.strerror or e}") from None
    if len(raw) > max_bytes:
        raise JsonInputError(f"larger than the {max_bytes:,} bytes an input may have")
    return raw


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _depth_ok(text: str, max_depth: int) -> bool:
    """Does no object or list in ``text`` nest deeper than ``max_depth``? (Brackets inside
    strings are skipped; the text need not be valid JSON.)"""
    depth = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            if depth > max_depth:
                return False
        else:
            depth -= 1
    return True


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise JsonInputError(f"a number of {len(text.lstrip('-')):,} digits (at most "
                             f"{MAX_NUMBER_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS + 10:
        raise JsonInputError(f"a number of {len(text):,} characters (at most "
                             f"{MAX_NUMBER_DIGITS + 10})")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonInputError(f"the number {text[:20]} is too large")
    return value


def _constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a JSON number")


def decode_utf8(data: bytes) -> str:
    """The text of the bytes ``data`` of an input read as UTF-8 (a leading byte-order mark
    dropped); a byte that is not UTF-8 is refused, naming its offset."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JsonInputError(f"not UTF-8 text (byte {e.start}: {e.reason})") from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_json(data: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """The value of JSON text ``data`` (bytes are decoded as UTF-8), within the limits."""
    text = decode_utf8(data) if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        text = text[1:]
    if not _depth_ok(text, max_depth):
        raise JsonInputError(f"not valid JSON: nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise JsonInputError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") \
            from None
    except RecursionError:
        raise JsonInputError(f"not valid JSON: nested deeper than {max_depth} levels") from None


def load_json_file(path: str | Path, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """:func:`parse_json` of file ``path`` (``'-'``: standard input), read by
    :func:`read_capped`."""
    return parse_json(read_capped(path, max_bytes))


__all__ = ["MAX_DEPTH", "MAX_JSON_BYTES", "MAX_NUMBER_DIGITS", "JsonInputError", "decode_utf8",
           "load_json_file", "parse_json", "read_capped"]
