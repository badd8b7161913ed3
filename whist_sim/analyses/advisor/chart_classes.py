"""The hand classes of a bid chart, named once: the high-card-point bands and the trump classes
that make a chart's cells (with the bidding position and the panel), and a hand's class.

Light on purpose (no numpy, pandas or kernels): the chart lookup (``whist-sim chart``) reads it
to find a hand's cell in well under a second; :mod:`whist_sim.analyses.advisor.chart_strata`
(the stratified hands) and :mod:`whist_sim.analyses.advisor.bidchart` use the same names.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.cards import NT, suit_length

HCP_BANDS = (0, 3, 5, 7, 9, 11, 13, 16, 19)  # lower edges of the high-card-point bands
TRUMP_LENGTHS = ("0", "1", "2", "3", "4", "5", "6", "7+", "NT")  # columns of the heat maps
NT_CLASS = 8  # index of "NT" in TRUMP_LENGTHS
N_CLASSES = len(TRUMP_LENGTHS)
#: the two panels of a chart: the deal's own suit, and the same hand evaluated at no-trump
PANELS = ("suit", "NT")
_HCP = ((12, 4), (11, 3), (10, 2), (9, 1))  # (rank, points): A 4, K 3, Q 2, J 1


def band_labels(edges: Sequence[int] = HCP_BANDS) -> list[str]:
    """The label of each high-card-point band: ``0-2``, ``3-4``, ..., ``19+``."""
    out = []
    for i, lo in enumerate(edges):
        if i + 1 < len(edges):
            hi = edges[i + 1] - 1
            out.append(str(lo) if hi == lo else f"{lo}-{hi}")
        else:
            out.append(f"{lo}+")
    return out


def hand_hcp(hand: int) -> int:
    """High-card points of the hand mask ``hand`` (A 4, K 3, Q 2, J 1)."""
    return sum(w * (hand >> (13 * s + rank) & 1) for s in range(4) for rank, w in _HCP)


def band_label(hcp: int) -> str:
    """The label of the band that holds ``hcp`` points."""
    labels = band_labels()
    return labels[max(i for i, lo in enumerate(HCP_BANDS) if hcp >= lo)]


def trump_class(hand: int, trump: int) -> str:
    """The trump class of ``hand`` in strain ``trump`` (0..3: its length, ``7+`` from seven;
    4 = NT: ``NT``)."""
    if trump == NT:
        return TRUMP_LENGTHS[NT_CLASS]
    return TRUMP_LENGTHS[min(suit_length(hand, trump), 7)]
