"""The weights of the ``learned`` bidder's contract model: written by ``scripts/train_bidding.py``
(``make train``); its data card is docs/BID_MODEL.md. Row: a position class (declarer, middle,
last), columns as in :mod:`whist_sim.core.bid_features`, in units of 1 / ``SCALE``."""

#: the features the weights were fitted with, in the order of their columns
FEATURES: tuple[str, ...] = ("one", "estimate_q", "hcp", "trumps", "trump_top", "side_aces", "short", "earlier", "no_trump", "n_earlier", "earlier_zeros")
#: seed 0, 2 round(s), tables heuristic (12347 hands), learned (12377 hands), 200 deals each
WEIGHTS: tuple[tuple[int, ...], ...] = (
    (7752, 1687, 1186, -388, -1024, -1235, 1544, 0, 5024, 0, 0, -6624, -9968, 9542, -2498, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (-16554, 1106, 1405, 5533, 361, 665, -961, -619, 22833, 3147, 2967, -9998, -5715, 38195, -494, -2510, -12177, -17679, -7084, 3485, -164, -24225, 6638, -1876, -8967),
    (-389, 752, 1949, 6317, -456, -203, -607, -1005, 20184, -1058, 2514, -5791, -4924, 11425, -672, -2897, -13731, -21388, -2543, 5766, 2451, -28628, 5106, 2788, 0),
)
