"""The weights of the ``learned`` bidder's contract model: written by ``scripts/train_bidding.py``
(``make train``); its data card is docs/BID_MODEL.md. Row: a position class (declarer, middle,
last), columns as in :mod:`whist_sim.core.bid_features`, in units of 1 / ``SCALE``."""

#: seed 0, 12347 hands of a bid chart, 200 deals each
WEIGHTS: tuple[tuple[int, ...], ...] = (
    (1407, 1641, 1629, -703, -1432, -1064, 1496, 0, 2552, -8457, -6667, 9975, -2494, 0, 0, 0, 0, 0, 0, 0, 0),
    (-10405, 1181, 1184, 5073, 987, 1249, -486, -695, 22452, -23583, -14710, 15394, -945, -2380, -11114, -8609, -10734, 3142, 3159, -10277, -1195),
    (3931, 1199, 1653, 5347, -1673, -1563, -4526, -1333, 17179, -12690, -11071, 9706, -7973, -1998, -13962, -4388, 143, 1207, 7062, -788, 0),
)
