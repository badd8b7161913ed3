"""The package's folders are its floors (docs/ENGINE.md, "The map"): a module imports only from
its own floor and the floors below it, no two modules import each other through any chain, the top
level stays small, and the names of the modules that moved still import the same module."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import whist_sim

PACKAGE = Path(whist_sim.__file__).resolve().parent

#: the floors from the ground up; a module's floor is the longest prefix of its name listed here
FLOORS = (
    "whist_sim.core",
    "whist_sim.compiled.ground",
    "whist_sim.compiled.strategies",
    "whist_sim.compiled.loop",
    "whist_sim.compiled.search",
    "whist_sim.compiled.entry",
    "whist_sim.engine",
    "whist_sim.dd",
    "whist_sim.runs",
    "whist_sim.analyses.answer_check",
    "whist_sim.analyses.reports",
    "whist_sim.analyses.advisor",
    "whist_sim.analyses.tournament",
    "whist_sim.analyses.bench",
    "whist_sim.interfaces",
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    path = PACKAGE.parent / name.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imports() -> list[tuple[str, str, int]]:
    """Every import of a whist_sim module by a whist_sim module, those inside functions too:
    ``(importer, imported, line)``; ``from PACKAGE import module`` counts as the module."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if not target.startswith("whist_sim"):
                    continue
                subs = [f"{target}.{a.name}" for a in node.names
                        if _is_module(f"{target}.{a.name}")]
                out += [(name, t, node.lineno) for t in (subs or [target])]
            elif isinstance(node, ast.Import):
                out += [(name, a.name, node.lineno) for a in node.names
                        if a.name.startswith("whist_sim")]
    return out


def _floor(name: str) -> int | None:
    found = None
    for i, floor in enumerate(FLOORS):
        if name == floor or name.startswith(floor + "."):
            found = i
    return found


def test_every_module_sits_on_a_floor():
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    loose = {m for m in modules if _floor(m) is None}
    # the package itself, its entry for ``python -m`` and the folders' own docstrings only
    assert loose <= {"whist_sim", "whist_sim.__main__", "whist_sim.compiled",
                     "whist_sim.analyses"}, loose


def test_no_module_imports_from_a_floor_above_its_own():
    upward = [f"{a}:{line} imports {b}" for a, b, line in _imports()
              if _floor(a) is not None and _floor(b) is not None and _floor(b) > _floor(a)]
    assert upward == []


def test_no_two_modules_import_each_other_through_any_chain():
    graph: dict[str, set[str]] = {}
    for a, b, _line in _imports():
        graph.setdefault(a, set()).add(b)
    # a module that reaches itself is in a cycle (package __init__ files that import their own
    # modules are edges like any other)
    cycles = []
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            m = todo.pop()
            if m == start:
                cycles.append(start)
                break
            if m not in seen:
                seen.add(m)
                todo += graph.get(m, ())
    assert cycles == []


def test_the_top_level_holds_at_most_ten_entries():
    entries = sorted(p.name for p in PACKAGE.iterdir()
                     if p.name not in {"__pycache__", "_manual"} and not p.name.endswith(".pyc"))
    assert len(entries) <= 10, entries


def test_no_module_is_longer_than_900_lines():
    long = {_module_name(p): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 900}
    assert long == {}


#: module names from before the package was cut into floors, removed with the import hook that
#: kept them (CHANGELOG.md, 0.2.0): each is now an ImportError, not a second name of a module
OLD_NAMES = ["advisor", "bench", "check", "reports", "tournament", "cli", "manual", "openspiel",
             "web", "_cache", "kernels", "kernels.batch", "kernels.loop", "strategies",
             "strategies.play.rollout", "strategies.bidding.montecarlo", "advisor.sampling"]


@pytest.mark.parametrize("old", OLD_NAMES)
def test_an_old_module_name_is_gone(old):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"whist_sim.{old}")


def test_the_package_installs_no_import_hook():
    import sys

    hooks = [f for f in sys.meta_path if getattr(f, "__module__", "").startswith("whist_sim")]
    assert hooks == []
    assert not hasattr(whist_sim, "MOVED")


#: decorators that make a compiled function (numba's, and the package's ``jit`` wrapper)
COMPILERS = {"jit", "njit", "overload", "overload_method", "intrinsic", "register_jitable",
             "cfunc", "generated_jit", "vectorize"}
#: the double-dummy solver is parked (docs/DD.md): its search's flat signatures are its speed,
#: measured and left as they are; its functions are exempt from the limit on arguments
PARKED = ("dd",)
#: the C functions reached by address and the views of their arguments: their parameters are
#: the C signatures (compiled.ground.addresses: LOOP_SIGNATURE, DECISION_SIGNATURE), pointers
#: and lengths, which a C call cannot pass as a tuple
C_SIGNATURES = {"compiled.entry.deal._shared_base", "compiled.entry.deal._shared_audited",
                "compiled.entry.deal._search_rollout", "compiled.entry.deal._search_montecarlo",
                "compiled.ground.addresses._views"}


def _decorator_name(node: ast.expr) -> str:
    node = node.func if isinstance(node, ast.Call) else node
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def _widths(limit_compiled: int, limit_public: int) -> dict[str, int]:
    """Every function over its limit: compiled ones (every function of ``whist_sim/compiled``,
    and every function of the package a numba decorator compiles) over ``limit_compiled``
    arguments, public ones over ``limit_public`` parameters. An intrinsic's ``typingctx`` is
    numba's, not an argument; ``*args`` / ``**keywords`` count as none (they pass an options
    object's fields)."""
    wide = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        if rel.parts[0] in PARKED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            decorators = {_decorator_name(d) for d in node.decorator_list}
            a = node.args
            n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) - ("intrinsic" in decorators)
            compiled = rel.parts[0] == "compiled" or bool(decorators & COMPILERS)
            name = ".".join((*rel.parts, node.name))
            if name in C_SIGNATURES:
                continue
            if (compiled and n > limit_compiled) or (
                    not node.name.startswith("_") and n > limit_public):
                wide[name] = n
    return wide


def test_no_compiled_function_takes_more_than_ten_arguments_nor_a_public_one_twelve():
    """Options are objects: a kernel's arrays and scalars come bundled in named tuples (the
    entry points' ``Table``, ``Deal``, ``Sampling``; the searches' ``Sampler``, ``Draw``,
    ``Replay``, ...), a public function's options in an options type (``RunOptions``,
    ``AdviseOptions``), so that a call names what it passes."""
    assert _widths(10, 12) == {}


def test_the_widths_test_sees_a_wide_function():
    """The scan above finds what it looks for: with lower limits it finds compiled and public
    functions, the parked solver has functions over ten arguments, and the exempt C functions
    are still there (remove a name once it is gone)."""
    found = _widths(3, 3)
    assert any(name.startswith("compiled.") for name in found)
    assert any(name.startswith(("runs.", "analyses.")) for name in found)
    parked = [node for path in (PACKAGE / "dd").rglob("*.py")
              for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.FunctionDef) and len(node.args.args) > 10]
    assert parked
    names = {".".join((*p.relative_to(PACKAGE).with_suffix("").parts, n.name))
             for p in PACKAGE.rglob("*.py")
             for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(n, ast.FunctionDef)}
    assert C_SIGNATURES <= names


def test_no_entry_kernel_takes_more_than_ten_arguments():
    """The entry points' arrays come bundled in named tuples (``Table``, ``Deal``, ``Sampling``,
    the outputs), so that a call names what it passes."""
    wide = {}
    for path in sorted((PACKAGE / "compiled" / "entry").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.decorator_list \
                    and len(node.args.args) > 10:
                wide[f"{path.stem}.{node.name}"] = len(node.args.args)
    assert wide == {}
