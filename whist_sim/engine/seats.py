"""Seats of the reference engine: a bidding policy and a play policy, looked up by name.

A reference policy (:data:`whist_sim.engine.policies.POLICIES`, read from the registry that the
compiled engine reads too, :mod:`whist_sim.core.registry`) answers every decision of a deal.
A seat ``BID/PLAY`` takes the auction, Frisch and contract decisions from the policy ``BID`` and
the cards from the policy ``PLAY`` (:func:`seat_policy`); ``BID/BID`` is the policy ``BID``
itself, so its deals are the same as before. Only the policies the reference engine has can
play here; the compiled engine has more (``simulate``).
"""

from __future__ import annotations

from collections.abc import Callable

from .policies import POLICIES, Policy
from .state import DealState


class SeatError(ValueError):
    """A policy the reference engine does not have."""


def reference_policy(name: str, what: str = "policy") -> Policy:
    """The reference policy ``name``; :class:`SeatError` naming the ones there are."""
    if name not in POLICIES:
        raise SeatError(
            f"{what} {name!r} has no reference version in the readable engine (it has: "
            f"{', '.join(sorted(POLICIES))}); the compiled engine plays it: use simulate"
        )
    return POLICIES[name]


def seat_policy(bid: str, play: str) -> Policy:
    """The reference policy of a seat: ``bid``'s calls, Frisch cards and contract, ``play``'s
    cards. ``bid == play`` gives the policy itself."""
    bid_policy = reference_policy(bid, "bidding strategy")
    play_policy = reference_policy(play, "play policy")
    if bid == play:
        return bid_policy

    def policy(state: DealState, rng) -> int:
        chosen: Callable = play_policy if state.phase == "play" else bid_policy
        return chosen(state, rng)

    policy.__name__ = f"{bid}/{play}"
    return policy


__all__ = ["SeatError", "reference_policy", "seat_policy"]
