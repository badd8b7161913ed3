"""The loop's ``mode`` is a named marker (``BASE``, ``FULL``, ``AUDITED``), one numba type each:
a kernel is compiled once per marker, and anything else (a plain ``0``) is refused by name when
it compiles."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from numba import njit, typeof
from numba.core.errors import TypingError

from whist_sim.compiled.ground.layout import ST_SIZE
from whist_sim.compiled.strategies.dispatch import (
    AUDITED,
    AUDITED_TYPE,
    BASE,
    BASE_TYPE,
    FULL,
    FULL_TYPE,
    LoopMode,
    audits,
    choose_frisch,
    loop_mode,
    marked,
)
from whist_sim.compiled.strategies.registry import PLAY_ROLLOUT
from whist_sim.compiled.strategies.seating import Seating


@njit
def _audits(mode, st):
    return audits(mode, st)


def test_each_marker_has_its_own_type_and_survives_pickling():
    assert [typeof(m) for m in (BASE, FULL, AUDITED)] == [BASE_TYPE, FULL_TYPE, AUDITED_TYPE]
    assert len({BASE_TYPE, FULL_TYPE, AUDITED_TYPE}) == 3
    for m in (BASE, FULL, AUDITED):
        assert isinstance(m, LoopMode) and pickle.loads(pickle.dumps(m)) is m
        assert repr(m) == m.name


def test_only_the_audited_loop_audits():
    """``AUDITED`` checks; ``FULL`` and ``BASE`` never: the loop of the unaudited runs,
    compiled for ``BASE``, holds no check, whatever the state holds."""
    st = np.zeros(ST_SIZE, dtype=np.int64)
    assert _audits(AUDITED, st) is True
    assert _audits(FULL, st) is False and _audits(BASE, st) is False
    st[:] = 1
    assert _audits(FULL, st) is False and _audits(BASE, st) is False


@pytest.mark.parametrize("value", [0, 1.0, True])
def test_a_value_that_is_not_a_marker_is_refused_by_name(value):
    with pytest.raises(TypingError, match="loop mode marker"):
        _audits(value, np.zeros(ST_SIZE, dtype=np.int64))


@njit
def _marked(mode):
    marked(mode)
    return 1


@njit
def _frisch(mode, pol, par, st, hm, rp, rng):
    return choose_frisch(mode, pol, par, st, hm, rp, 0, rng)


def test_the_decision_points_refuse_a_value_that_is_not_a_marker_by_name():
    """The decision points (``choose_*``) are the same in every mode; each refuses anything but
    a marker when its caller compiles."""
    assert _marked(BASE) == 1 and _marked(AUDITED) == 1
    with pytest.raises(TypingError, match="loop mode marker"):
        _marked(0)
    arrays = (np.zeros((2, 4), np.int64), np.zeros((2, 4, 8), np.float64),
              np.zeros(ST_SIZE, np.int64), np.zeros(8, np.uint64), np.zeros(8, np.int64),
              np.zeros(1, np.uint64))
    with pytest.raises(TypingError, match="loop mode marker"):
        _frisch(0, *arrays)


def test_the_mode_of_a_seating_is_a_marker():
    pol, _ = Seating.of(("heuristic",) * 4, ("expert",) * 4, 4).arrays()
    assert loop_mode(pol) is BASE and loop_mode(pol, audited=True) is AUDITED
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
    with pytest.raises(TypeError, match="BASE, FULL or AUDITED"):
        loop_address(0)


def test_each_run_has_a_table_of_the_loop_the_audit_switch_and_its_searches():
    """``loop_address(mode, pol)`` points at the loop table: the loop's C function (the audited
    loop's for ``AUDITED``, else the one loop), ``audited``, and the C functions of the
    searching strategies seated in ``pol`` (every one without ``pol``, none for ``BASE``); one
    table per such run and process."""
    import ctypes

    from whist_sim.compiled.entry.deal import base_loop_address, loop_address
    from whist_sim.compiled.ground.addresses import TABLE_WORDS

    def table(mode, pol=None):
        return list((ctypes.c_int64 * TABLE_WORDS).from_address(int(loop_address(mode, pol))))

    loop = int(base_loop_address())
    assert table(BASE) == [loop, 0, 0, 0]
    full = table(FULL)
    assert full[:2] == [loop, 0] and 0 not in full[2:] and len(set(full)) == 4
    audited = table(AUDITED)
    assert audited[0] not in (0, loop) and audited[1:] == [1, *full[2:]]
    pol, _ = Seating.of(("heuristic",) * 4, ("expert", "rollout", "expert", "expert"),
                        4).arrays()
    assert table(FULL, pol) == [loop, 0, full[2], 0]
    assert table(AUDITED, pol) == [audited[0], 1, full[2], 0]
    base_pol, _ = Seating.of(("heuristic",) * 4, ("expert",) * 4, 4).arrays()
    assert table(FULL, np.stack([base_pol, pol])) == [loop, 0, full[2], 0]  # a tournament's
    assert table(FULL, base_pol) == [loop, 0, 0, 0]
    assert loop_address(FULL) == loop_address(FULL)
    assert loop_address(FULL, pol) == loop_address(FULL, pol.copy())


def test_a_search_missing_from_the_table_is_an_error_not_a_silent_answer():
    """A seat whose searching strategy the run's table does not hold (a caller that passed
    another seating) stops the deal with an error, rather than playing another card."""
    from whist_sim.compiled.entry.batch import play_traces
    from whist_sim.compiled.entry.deal import loop_address, run_shared
    from whist_sim.compiled.ground.layout import (
        H_DEALT,
        H_HAND,
        PH_DONE,
        PH_PLAY,
        S_PHASE,
        S_UNLOADED,
        new_state,
        rules_array,
    )
    from whist_sim.compiled.loop.phases import begin_deal
    from whist_sim.core.rules import Rules

    rules = Rules()
    tr = play_traces(5, 0, 8, rules, ["heuristic"] * 4, ["heuristic"] * 4)
    j = int(np.flatnonzero(~tr["thrown_in"])[0])
    pol, par = Seating.of(("heuristic",) * 4, ("rollout:n=2",) * 4, 4).arrays()
    rp = rules_array(rules)
    st, hm, rng = new_state()
    begin_deal(st, hm, rp, int(tr["deal"][j]), int(tr["dealer"][j]))
    for s in range(4):
        hm[H_DEALT + s] = hm[H_HAND + s] = np.uint64(tr["dealt"][j][s])
    run_shared(loop_address(BASE), st, hm, rp, pol, par, rng, PH_PLAY)  # no search asked yet
    assert st[S_PHASE] == PH_PLAY
    with pytest.raises(RuntimeError, match="searching strategy was not loaded"):
        run_shared(loop_address(BASE), st, hm, rp, pol, par, rng, PH_DONE)
    assert st[S_UNLOADED] == 0  # cleared as it raised
