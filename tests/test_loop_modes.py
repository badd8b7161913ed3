"""The loop's ``mode`` is a named marker (``BASE``, ``FULL``, ``CHECKED``), one numba type each:
a kernel is compiled once per marker, and anything else (a plain ``0``) is refused by name when
it compiles."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from numba import njit, typeof
from numba.core.errors import TypingError

from whist_sim.compiled.ground.layout import S_CHECK, ST_SIZE
from whist_sim.compiled.strategies.dispatch import (
    BASE,
    BASE_TYPE,
    CHECKED,
    CHECKED_TYPE,
    FULL,
    FULL_TYPE,
    LoopMode,
    checks,
    loop_mode,
)
from whist_sim.compiled.strategies.registry import PLAY_ROLLOUT
from whist_sim.compiled.strategies.seating import Seating


@njit
def _checks(mode, st):
    return checks(mode, st)


def test_each_marker_has_its_own_type_and_survives_pickling():
    assert [typeof(m) for m in (BASE, FULL, CHECKED)] == [BASE_TYPE, FULL_TYPE, CHECKED_TYPE]
    assert len({BASE_TYPE, FULL_TYPE, CHECKED_TYPE}) == 3
    for m in (BASE, FULL, CHECKED):
        assert isinstance(m, LoopMode) and pickle.loads(pickle.dumps(m)) is m
        assert repr(m) == m.name


def test_only_the_checked_loop_checks():
    """``CHECKED`` checks; ``FULL`` checks while the shared loop's checked entry has set
    ``st[S_CHECK]`` (one compiled full loop serves both); ``BASE`` never."""
    st = np.zeros(ST_SIZE, dtype=np.int64)
    assert _checks(CHECKED, st) is True
    assert _checks(FULL, st) is False and _checks(BASE, st) is False
    st[S_CHECK] = 1
    assert _checks(FULL, st) is True and _checks(BASE, st) is False


@pytest.mark.parametrize("value", [0, 1.0, True])
def test_a_value_that_is_not_a_marker_is_refused_by_name(value):
    with pytest.raises(TypingError, match="loop mode marker"):
        _checks(value, np.zeros(ST_SIZE, dtype=np.int64))


def test_the_mode_of_a_seating_is_a_marker():
    pol, _ = Seating.of(("heuristic",) * 4, ("expert",) * 4, 4).arrays()
    assert loop_mode(pol) is BASE and loop_mode(pol, checked=True) is CHECKED
    pol[1, 2] = PLAY_ROLLOUT
    assert loop_mode(pol) is FULL


def test_threads_that_ask_for_the_shared_loop_at_once_get_one_address():
    """The loop of a mode is compiled (or loaded) once per process, whichever thread asks first;
    numba's typing is not safe across threads, so the others wait."""
    from concurrent.futures import ThreadPoolExecutor

    from whist_sim.compiled.entry.deal import loop_address

    with ThreadPoolExecutor(4) as ex:
        addresses = set(ex.map(lambda _: int(loop_address(BASE)), range(8)))
    assert len(addresses) == 1 and addresses.pop() != 0
    with pytest.raises(TypeError, match="BASE, FULL or CHECKED"):
        loop_address(0)


def test_each_mode_has_a_table_of_its_loop_the_base_loop_and_the_check_switch():
    """``loop_address(mode)`` points at three words: the loop's C function (``CHECKED`` runs the
    ``FULL`` one), the base loop's (where the full loop's searches play their rollouts) and
    ``checked``."""
    import ctypes

    from whist_sim.compiled.entry.deal import base_loop_address, loop_address

    def table(mode):
        return list((ctypes.c_int64 * 3).from_address(int(loop_address(mode))))

    base = int(base_loop_address())
    assert table(BASE) == [base, base, 0]
    full = table(FULL)
    assert full[0] not in (0, base) and full[1:] == [base, 0]
    assert table(CHECKED) == [full[0], base, 1]
    assert loop_address(FULL) == loop_address(FULL)  # one table per mode and process
