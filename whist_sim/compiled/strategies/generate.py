"""The deal loop's dispatch, written from the registry: ``decisions.py`` beside this module.

The decision points of the loop (:mod:`.dispatch`) ask four functions, ``base_call``,
``base_frisch``, ``base_contract`` and ``base_card``, which switch on the seat's policy id. They
are generated from the registry's entries (:mod:`whist_sim.core.registry`: each names its compiled
decision functions, or a searching strategy its word of the loop table) rather than written by
hand, so that a new strategy is its own file plus its entry, and no entry can be left out of
the switch. The code is written to a file, not made at import (``exec``), because numba's
on-disk cache needs the source file of what it caches; ``tests/test_dispatch_table.py`` fails
when the file is stale.

Run ``python -m whist_sim.compiled.strategies.generate`` (``make dispatch``) after adding,
removing or changing an entry's decision functions; ``--check`` exits with status 1 when the file
is stale, without writing it.

The branches keep the registry's order, one per function (entries that share a function share
a branch: ``cautious`` and ``aggressive``); the entry of id 0 (``random``) is the last, with no
test, because every id that reaches the loop is registered (policies are chosen by name,
:func:`whist_sim.core.registry.seat_ids`, and the loop's entry points refuse an id with no entry,
:func:`whist_sim.compiled.entry.deal.loop_address`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...core.registry import (
    BID,
    DECISIONS,
    PLAY,
    PolicyError,
    PolicyInfo,
    check_entries,
    get_info,
    policy_names,
    registry_key,
)

#: the generated module, beside this one
TARGET = Path(__file__).with_name("decisions.py")

#: per decision: the function's arguments after the seat's (the decision point's legal
#: choices), the base function's name and docstring, the kind of policy that decides it, and
#: for a searching strategy the ``kind`` and choices its C function is asked with (None: no
#: strategy searches it)
_POINTS: dict[str, tuple[str, str, str, str | None]] = {
    "call": ("lo, hi", "Auction call", BID, "(np.int64(K_CALL), lo, hi)"),
    "frisch": ("", "The three cards passed in a Frisch", BID, None),
    "contract": ("lo, forbidden", "Contract", BID, "(np.int64(K_CONTRACT), lo, forbidden)"),
    "card": ("legal", "Card", PLAY, "(np.int64(K_CARD), np.int64(legal), np.int64(0))"),
}

_HEAD = '''"""The deal loop's dispatch: which compiled function decides, by the seat's policy id.

GENERATED from the registry (whist_sim/core/registry.py) by
``python -m whist_sim.compiled.strategies.generate`` (``make dispatch``): do not edit by hand;
tests/test_dispatch_table.py fails when it is stale, and
:mod:`whist_sim.compiled.strategies.dispatch` refuses to load it then.

Each ``base_*`` function is compiled once and inlined by LLVM (``forceinline``) into the loop's
decision points (:mod:`whist_sim.compiled.strategies.dispatch`); the registry's decision functions
it calls are inlined into it by numba. ``pol[0, seat]`` is the seat's bidding strategy id,
``pol[1, seat]`` its play policy id; the last branch, with no test, is the entry of id 0.
"""

from __future__ import annotations

import numpy as np

from ..ground._numba import jit
'''


def _entries(kind: str) -> list[PolicyInfo]:
    """The entries of ``kind``, in registry order."""
    return [get_info(name, kind) for name in policy_names(kind)]


def _function(info: PolicyInfo, decision: str) -> tuple[str, str]:
    """``(module, function)`` of ``info``'s ``decision``, checked to be a name of a module of
    this package (the function itself is checked when the generated module is imported)."""
    name = info.decide.named(decision)
    if name is None:  # check_entries refuses it first; said again here for a direct call
        raise PolicyError(f"{info.kind} policy {info.name!r} has no compiled {decision} function")
    module, _, func = name.partition(":")
    path = Path(__file__).parent.joinpath(*module.split("."))
    if not path.with_suffix(".py").is_file() and not (path / "__init__.py").is_file():
        raise PolicyError(f"{info.kind} policy {info.name!r}: its {decision} function {name!r} "
                          f"names no module of whist_sim.compiled.strategies")
    if not func.isidentifier():
        raise PolicyError(f"{info.kind} policy {info.name!r}: {func!r} is not a function name")
    return module, func


def _fill(head: str, parts: list[str], sep: str, tail: str, indent: int) -> list[str]:
    """``head + parts joined by sep + tail`` in lines of at most 99 characters, the parts of a
    continued line aligned under the first (``indent``: its column)."""
    lines, line = [], head
    for k, part in enumerate(parts):
        piece = part + (sep if k < len(parts) - 1 else tail)
        if len(line) + len(piece) > 99 and line.strip() != head.strip():
            lines.append(line.rstrip())
            line = " " * indent
        line += piece
    return lines + [line]


def _call_lines(prefix: str, call: str) -> list[str]:
    """``prefix + call`` (``name(arg, ...)``), wrapped after its commas."""
    name, _, args = call.partition("(")
    head = f"{prefix}{name}("
    return _fill(head, args[:-1].split(", "), ", ", ")", len(head))


def _base(decision: str) -> str:
    """The source of ``base_<decision>``."""
    after, what, kind, search = _POINTS[decision]
    row = 0 if kind == BID else 1
    args = "st, hm, rp, seat, " + (f"{after}, " if after else "") + "rng, par"
    signature = "pol, par, st, hm, rp, seat, " + (f"{after}, " if after else "") + "rng"
    entries = _entries(kind)
    last = [i for i in entries if i.id == 0]
    if not last or last[0].searches:
        raise PolicyError(f"the {kind} policy of id 0 (the last branch of base_{decision}) must "
                          f"be registered and must not search")
    fallback = last[0]
    # one branch per function (or per search word), in registry order
    branches: list[tuple[list[PolicyInfo], str]] = []
    for info in entries:
        if info is fallback:
            continue
        if info.searches and decision in DECISIONS[kind] and search is not None:
            call = (f"searched(st, hm, rp, pol, par, rng, seat, np.int64({info.decide.word}), "
                    f"{search})")
        else:
            call = f"{_function(info, decision)[1]}({args})"
        for ids, existing in branches:
            if existing == call:
                ids.append(info)
                break
        else:
            branches.append(([info], call))
    lines = ["", "", "@jit(forceinline=True)", f"def base_{decision}({signature}):",
             f'    """{what} by the seat\'s {"bidding strategy" if kind == BID else "play policy"}'
             f' (generated)."""',
             f"    pid = pol[{row}, seat]"]
    for n, (infos, call) in enumerate(branches):
        lines.append(f"    # {', '.join(i.name for i in infos)}")
        word = "if" if n == 0 else "elif"
        tests = [f"pid == {i.id}" for i in infos]
        if len(f"    {word} {' or '.join(tests)}:") <= 99:
            lines.append(f"    {word} {' or '.join(tests)}:")
        else:
            lines += _fill(f"    {word} (", tests, " or ", "):", len(word) + 6)
        lines += _call_lines("        return ", call)
    lines.append(f"    # {fallback.name}: id 0, the last branch")
    lines += _call_lines("    return ", f"{_function(fallback, decision)[1]}({args})")
    return "\n".join(lines) + "\n"


def source() -> str:
    """The text of the generated module, from the registry as it is now; :class:`PolicyError`
    naming an entry that lacks a decision function or names one that is not there."""
    check_entries()
    imports: dict[str, set[str]] = {}
    owner: dict[str, str] = {}
    for kind, decisions in DECISIONS.items():
        for info in _entries(kind):
            for decision in decisions:
                if info.decide.named(decision) is None:
                    continue
                module, func = _function(info, decision)
                if owner.setdefault(func, module) != module:
                    raise PolicyError(f"two decision functions named {func!r} (in {module} and "
                                      f"{owner[func]}): give them names of their own")
                imports.setdefault(module, set()).add(func)
    out = [_HEAD]
    if any(i.searches for kind in DECISIONS for i in _entries(kind)):
        out.append("from ..ground.addresses import K_CALL, K_CARD, K_CONTRACT, searched\n")
    for module in sorted(imports):
        names = sorted(imports[module])
        line = f"from .{module} import {', '.join(names)}\n"
        if len(line) > 100:
            line = f"from .{module} import (\n" + "".join(f"    {n},\n" for n in names) + ")\n"
        out.append(line)
    out.append("\n#: the registry this module was generated from "
               "(whist_sim.core.registry.registry_key)\n")
    rows = []
    for row in registry_key():
        rows += _fill("    (", [repr(x) for x in row], ", ", "),", 5)
    out.append("REGISTRY_KEY = (\n" + "\n".join(rows) + "\n)\n")
    out += [_base(d) for d in ("call", "frisch", "contract", "card")]
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    """Write the generated module (``--check``: only say whether it is stale, status 1 if so)."""
    parser = argparse.ArgumentParser(prog="python -m whist_sim.compiled.strategies.generate",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 when decisions.py is stale; write nothing")
    args = parser.parse_args(argv)
    text = source()
    current = TARGET.read_text(encoding="utf-8") if TARGET.is_file() else ""
    if args.check:
        if current != text:
            print(f"{TARGET.name} is stale: run python -m whist_sim.compiled.strategies.generate",
                  file=sys.stderr)
            return 1
        return 0
    if current != text:
        TARGET.write_text(text, encoding="utf-8")
        print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
