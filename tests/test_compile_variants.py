"""The compiled loop is compiled once per mode, not once per constant.

numba compiles a jitted function again for every *literal* argument a jitted caller passes it: a
module constant (``PH_DONE``), a number or ``True`` typed as ``Literal[int](5)`` makes another full
copy of the function, cached beside the others (the deal loop was held seven times, once per mode
and ``until`` constant). The large cached functions below are therefore called with typed values
(``np.int64(PH_DONE)``, ``np.bool_(False)``), and this test reads every call of them in the
compiled floors and refuses a bare constant.
"""

from __future__ import annotations

import ast
from pathlib import Path

import whist_sim

#: cached functions that hold the loop or the sampler (each copy costs seconds of compile time),
#: and the strategies' functions that the searches call beside the loop
LARGE = {"run_base", "run_base_at", "steps_base", "run_shared", "play_deal_in",
         "deal_pool", "_deal_bound", "_count", "sample_layout", "draw_pool",
         "evaluate",
         "_sample", "eval_candidates", "_search", "_bounds", "_climb_then_cap",
         "heuristic_call", "heuristic_contract", "est_q_deck", "cached_q", "best_bid", "searched"}
#: the folders whose jitted code calls them (the benchmark's kernels too: the suite runs them)
FLOORS = ("compiled", "dd", "analyses/bench")


def _is_constant(node: ast.expr) -> bool:
    """A literal number or bool, or a module constant (an upper-case name)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int)):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    return isinstance(node, ast.Name) and node.id.isupper() and node.id not in {
        "BASE", "FULL", "AUDITED"}  # the mode markers are typed numpy scalars on purpose


def _calls(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else None
            if name in LARGE:
                yield name, node


def test_no_large_kernel_is_called_with_a_literal_argument():
    root = Path(whist_sim.__file__).parent
    bad = []
    seen = set()
    for floor in FLOORS:
        for path in sorted((root / floor).rglob("*.py")):
            for name, call in _calls(path):
                seen.add(name)
                # a bundle's items are arguments too: a literal in a tuple types the tuple
                items = [(i, a) for i, arg in enumerate(call.args)
                         for a in (arg.elts if isinstance(arg, ast.Tuple) else [arg])]
                for i, arg in items:
                    if _is_constant(arg):
                        bad.append(f"{path.relative_to(root)}:{call.lineno} {name} argument {i}: "
                                   f"{ast.unparse(arg)}")
    assert not bad, "literal arguments compile extra copies:\n" + "\n".join(bad)
    assert {"run_base_at", "run_shared", "deal_pool", "sample_layout"} <= seen  # read them


def test_the_check_sees_a_literal():
    src = "def f(st):\n    run_base(BASE, st, PH_DONE)\n    deal_pool(1, st, False)\n"
    tree = ast.parse(src)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    flagged = [ast.unparse(a) for c in calls for a in c.args if _is_constant(a)]
    assert flagged == ["PH_DONE", "1", "False"]
