"""The compiled double-dummy search (numba; plain arrays and ``uint64`` masks only).

Conventions (docs/DD.md tells the whole story):

* A position is four hand masks (bit ``13 * suit + rank``, docs/ENGINE.md §1) at a trick boundary,
  the seat on lead and the trump (0..3, or 4 = no-trump).
* Inside the search the hands are kept in **canonical form**: in every suit the cards still in play
  are moved to the top ranks (the highest live card gets rank 12, the next rank 11, ...). Only the
  order of cards within a suit matters to the play (RULES §5), so a position and its canonical form
  have the same game tree. After each trick the four played cards are squeezed out again. Cards that
  are touching in canonical form are equivalent (equivalent-rank reduction); the transposition table
  is keyed on the canonical form, which merges positions that differ only in played-out ranks.
* **Counting question** (mode 0): the seats ``win`` (bit mask) have their tricks counted, the seats
  ``mx`` try to make that count large and the others try to make it small. ``_search`` answers the
  null-window question "is the count at least ``target``?"; ``solve_count`` finds the value with a
  few such searches (MTD(f)). Bridge: ``win = mx = {s, s+2}``; whist-max of p: ``win = mx = {p}``;
  whist-min of p: ``win = {p}``, ``mx`` = the other three.
* **Exact question** (mode 1): "can seat p make exactly ``need`` more tricks when the other three
  play together against it?" An AND/OR search: the question is not monotone in ``need``.

The search is iterative (an explicit stack of card plays, one row per depth of the workspace), so
no numba function calls itself.
"""

from __future__ import annotations

import numba
import numpy as np

from ._bits import INLINE, NJIT, ctz, high_bit, popcount, prefetch

U = np.uint64
SUIT_BITS = U(0x1FFF)
SUITM = np.array([U(0x1FFF) << U(13 * s) for s in range(4)], dtype=np.uint64)
_TOPS = 0
for _s in range(4):
    _TOPS |= 1 << (13 * _s + 12)
NOT_TOPS = U(((1 << 52) - 1) & ~_TOPS)
FULL = U((1 << 52) - 1)

MAX_DEPTH = 56  # card plays in a deal (52) plus slack: rows of the workspace
MOVE_SLOTS = 16  # a hand has at most 13 distinct moves

# workspace columns (int64)
C_K = 0  # position in the trick of the player to move (0 = leader)
C_LD = 1  # leader of the current trick
C_TG = 2  # target (mode 0) or need (mode 1) counted from the start of the current trick
C_N = 3  # number of candidate moves
C_I = 4  # index of the move being searched
C_PLAYS = 5  # card plays counter (stats[ST_PLAYS]) when a searched trick-boundary node was entered
C_R = 6  # tricks remaining at a trick boundary
C_CARD = 7  # card played at this depth
C_PHASE = 8  # move phase of a probed node: 0 plain, 1 probing, 2 deferred moves
C_DEFER = 9  # moves of a probed node whose probe ran out of plays (bit i: move i)
C_ACC = 10  # mode 0, fail-soft: the best bound of the moves searched so far that did not cut
# killer move (leads only): the lead that most recently cut at this depth, by leader, when it was
# not the first lead tried (four columns, ``C_KILL + leader``); -1 for none. Reset at the start of
# every search.
C_KILL = 11
N_COLS = 15

# stats slots
ST_NODES = 0  # trick-boundary nodes searched (after the cheap cut-offs)
ST_TT_HITS = 1  # trick-boundary nodes answered by a transposition table
ST_GEN = 2  # current generation of the transposition tables (see ``new_tables``)
ST_PLAYS = 3  # card plays tried
ST_FLAGS = 4  # input, bit 0: store proofs for exact positions only (no rank patterns; for tests);
# bit 1: no probing of p's leads in whist-max (``PROBE_PLAYS``; for tests)
ST_LIMIT = 5  # input: most card plays per row (0 = no limit); a row over it is left unsolved
ST_STOP = 6  # the value of ST_PLAYS at which the current row's search gives up (0 = never)
ST_BOUND = 7  # output of a mode-0 search: the bound it proved (fail-soft, see ``_search``)
N_STATS = 8

UNSOLVED = -1  # result of a row whose search ran over ``stats[ST_LIMIT]`` card plays

MODE_COUNT = 0
MODE_EXACT = 1

# [probe] whist-max: when p is on lead with at least PROBE_MIN_TRICKS tricks to go, every lead is
# first searched with a budget of PROBE_PLAYS card plays; a lead proved good ends the node at
# once, a lead proved bad is done, and only the leads whose probe ran out are then searched in
# full, in their order. A costly proof of p's often hangs on one lead among many that the move
# ordering cannot pick out and a cheap probe often can (hard whist-max full deals, two sets of 20
# deals x 4 seats at 10,000,000 plays: 52.7 M -> 40.8 M and 76.8 M -> 68.3 M card plays). Tried
# and not kept: probing the three's leads or p's plays inside a trick; bridge, whist-min and
# the exact searches (more plays in every case).
PROBE_MIN_TRICKS = 6
PROBE_PLAYS = 300

# [climb then cap] whist-max's null-window searches climb from the lower bound with this share
# (per cent) of a row's node limit and spend the rest on "no" searches from the top
# (:func:`_climb_then_cap`; shares of 35 to 90 % measured, 50 % as good as any).
CLIMB_SHARE_PCT = 50
# Whist-min's climb keeps most of a row's plays: its lower bound is the one the report and the
# advisor use most (a zero bid is hopeless once whist-min >= 1; whist-min > whist-max), while the
# first "no" searches from the top are cheap and lower its weak static upper bound by 2-3 tricks
# (40 random full deals at 1,000,000 plays, mean lo / hi of the unsolved: 3.90 / 10.82 climbing
# only, 3.83 / 8.35 at 85 %, 3.65 / 8.12 at 50 %)
MIN_CLIMB_SHARE_PCT = 85
# Whist-exact under a node limit: whist-max gets at most this share of a row's plays, so that a
# row whose whist-max runs over it still has plays to prove whist-min above whist-max's proved
# upper bound (then nothing is makeable exactly; 60 random full deals at 1,000,000 plays: 54
# decided instead of 52, with fewer plays)
EXACT_MAX_SHARE_PCT = 90


# --------------------------------------------------------------------------- tables

WAYS = 16  # entries per bucket of the transposition table
# a bucket is BUCKET_WORDS uint64 words (``table[bucket, word]``, 768 bytes):
W_KEYS = 0  # words 0-7: the 32-bit keys (``_entry_key``) of ways 2i and 2i + 1 in word i (one line)
W_PRES = 8  # words 8-11: the presence row of this bucket's number (the top classes stored outside
# their home for the (lengths, question) pairs whose home it is, see ``_tt_lookup``) and word 12 its
# generation
W_GEN = 12
W_WORK = 13  # words 13-14: the work byte (replacement priority) of each way, 8 per word (15: spare)
W_ENTRY = 16  # words 16 + 5 j ..: way j's entry, fields E_*
ENTRY_WORDS = 5
E_SIG = 0  # suit lengths of the four hands (16 nibbles)
E_REL = 1  # relevant cards (canonical positions)
E_OLO = 2  # owner low bit of the relevant cards
E_OHI = 3  # owner high bit of the relevant cards
E_DATA = 4  # a (16 bits) | b << 16 | (best lead + 1) << 32, see _tt_store
BUCKET_WORDS = W_ENTRY + ENTRY_WORDS * WAYS
GEN_BITS = 16  # generation bits in a key: the table is emptied when they wrap (``solve_rows``)
TOP_DEPTH = 3  # a top class names at most this many top cards of each suit
# TOP_CLASS_MASK[c]: the cards named by the top class ``c`` (bits 2s, 2s + 1: how many top cards of
# suit s, 0..TOP_DEPTH), see ``_top_class``
_TCM = np.zeros(256, dtype=np.uint64)
for _c in range(256):
    for _s in range(4):
        for _i in range((_c >> (2 * _s)) & 3):
            _TCM[_c] |= U(1 << (13 * _s + 12 - _i))
TOP_CLASS_MASK = _TCM
# CLASS_BY_WEIGHT[n, w]: the classes ``64 * w + j`` (bit j) that name ``n`` top cards in all; a
# lookup probes the classes in this order (see ``_tt_lookup``)
_CBW = np.zeros((13, 4), dtype=np.uint64)  # 4 suits x at most 3 top cards
for _c in range(256):
    _CBW[sum((_c >> (2 * _s)) & 3 for _s in range(4)), _c // 64] |= U(1 << (_c % 64))
CLASS_BY_WEIGHT = _CBW
# CLASS_UP_TO_WEIGHT[n, w]: the classes ``64 * w + j`` naming at most ``n`` top cards
CLASS_UP_TO_WEIGHT = np.bitwise_or.accumulate(_CBW, axis=0)


def new_tables(tt_bits: int = 20):
    """Allocate one thread's transposition table (``2**tt_bits`` entries) and stats array.

    An entry holds a proof about a trick-boundary position *pattern*: the suit lengths of every
    hand, the leader, the question, and the owners of only the cards that mattered to the proof
    (the top cards of each suit down to the lowest that won a trick by rank); lower cards are
    wildcards.
    The table is one ``uint64`` array ``[bucket, word]`` (layout ``W_*``, ``E_*``): a probe reads
    the 16 keys of a bucket (one cache line), then only the entries whose key matches (each 40
    contiguous bytes), and the search holds a single array (numba reference counts each array it
    unpacks). Sixteen ways rather than eight: the entries of a class bucket share their suit
    lengths, question, top class and its owners, and with eight ways a bridge solve of a hard deal
    evicted a live entry on about a quarter of its stores (16 ways: up to -30 % card plays there).
    Entries carry a generation stamp: bumping ``stats[ST_GEN]`` empties the table in O(1).
    Memory: 48 bytes per entry.
    """
    table = np.zeros(((1 << tt_bits) // WAYS, BUCKET_WORDS), np.uint64)
    stats = np.zeros(N_STATS, np.int64)
    return table, stats


# --------------------------------------------------------------------------- small helpers


@numba.njit(**INLINE)
def _suit(card):
    """The suit of a card ``0..51`` (``card // 13`` without the sign handling of a signed
    division: exact for ``0 <= card < 64``)."""
    return (card * 5042) >> 16


@numba.njit(**INLINE)
def _bit(card):
    return U(1) << U(card)


@numba.njit(**NJIT)
def canonical(abs_hands):
    """Canonical form of four disjoint hands (``uint64[4]``): each suit's live cards at the top."""
    out = np.zeros(4, np.uint64)
    for s in range(4):
        pos = 12
        for r in range(12, -1, -1):
            b = U(1) << U(13 * s + r)
            for q in range(4):
                if abs_hands[q] & b:
                    out[q] |= U(1) << U(13 * s + pos)
                    pos -= 1
                    break
    return out


@numba.njit(**INLINE)
def _squeeze_one(h, c):
    """Close the hole of card ``c`` in canonical mask ``h``: the suit's lower cards move up one."""
    below = ((U(1) << U(c)) - U(1)) & SUITM[_suit(c)]
    return (h & ~below) | ((h & below) << U(1))


@numba.njit(**INLINE)
def _squeeze_trick(h0, h1, h2, h3, c0, c1, c2, c3):
    """The four canonical hands with the holes of a trick's four cards closed (``_squeeze_one``
    of each card, lowest first, so that a card's position is not moved before its own hole is
    closed); each card's mask of lower cards is computed once for the four hands."""
    a0, a1, a2, a3 = _sort4(c0, c1, c2, c3)
    for cc in (a0, a1, a2, a3):
        below = ((U(1) << U(cc)) - U(1)) & SUITM[_suit(cc)]
        keep = ~below
        h0 = (h0 & keep) | ((h0 & below) << U(1))
        h1 = (h1 & keep) | ((h1 & below) << U(1))
        h2 = (h2 & keep) | ((h2 & below) << U(1))
        h3 = (h3 & keep) | ((h3 & below) << U(1))
    return h0, h1, h2, h3


@numba.njit(**INLINE)
def _unsqueeze_one(h, c):
    """Inverse of ``_squeeze_one``: open a hole at ``c`` (the suit's cards at or below go down)."""
    le = ((U(2) << U(c)) - U(1)) & SUITM[_suit(c)]
    return (h & ~le) | ((h & le) >> U(1))


@numba.njit(**INLINE)
def _sort4(a0, a1, a2, a3):
    if a0 > a1:
        a0, a1 = a1, a0
    if a2 > a3:
        a2, a3 = a3, a2
    if a0 > a2:
        a0, a2 = a2, a0
    if a1 > a3:
        a1, a3 = a3, a1
    if a1 > a2:
        a1, a2 = a2, a1
    return a0, a1, a2, a3


@numba.njit(**INLINE)
def _beats(c, w, trump):
    """Does card ``c`` beat the card ``w`` currently winning the trick (RULES §5)?"""
    cs = _suit(c)
    ws = _suit(w)
    if cs == ws:
        return c > w
    return cs == trump


@numba.njit(**INLINE)
def _winning_so_far(k, t0, t1, t2, trump):
    """``(card, index)``: the card winning a trick of which ``k >= 1`` cards ``t0..`` are on the
    table, and its index in play order (0 = the lead)."""
    w = t0
    wi = 0
    if k > 1 and _beats(t1, w, trump):
        w = t1
        wi = 1
    if k > 2 and _beats(t2, w, trump):
        w = t2
        wi = 2
    return w, wi


@numba.njit(**INLINE)
def _trick(c0, c1, c2, c3, trump):
    """(index in play order of the winning card, relevance mask) of a complete trick.

    The relevance mask holds the winning card when it beat another card of its own suit by rank
    (then its rank matters to the result); a card that won alone in its suit needs no rank.
    """
    w = c0
    wi = 0
    if _beats(c1, w, trump):
        w = c1
        wi = 1
    if _beats(c2, w, trump):
        w = c2
        wi = 2
    if _beats(c3, w, trump):
        w = c3
        wi = 3
    ws = _suit(w)
    n_same = (_suit(c0) == ws) + (_suit(c1) == ws) + (_suit(c2) == ws) + (_suit(c3) == ws)
    rel = _bit(w) if n_same > 1 else U(0)
    return wi, rel


@numba.njit(**INLINE)
def _close_up(rel, h0, h1, h2, h3):
    """Close a relevance mask upwards in each suit: every live card above a relevant one too.

    Inside a trick the relevant cards may include cards already on the table (not in any hand):
    they are kept.
    """
    out = rel
    live = h0 | h1 | h2 | h3
    for s in range(4):
        x = rel & SUITM[s]
        if x:
            low = U(ctz(x))
            out |= live & SUITM[s] & ~((U(1) << low) - U(1))
    return out


@numba.njit(**INLINE)
def _legal(h, led):
    """Legal cards of hand ``h`` when suit ``led`` was led (-1: leading), RULES §5."""
    if led < 0:
        return h
    follow = h & SUITM[led]
    return follow if follow else h


@numba.njit(**INLINE)
def _extend_runs(rel, legal):
    """Extend the closed relevance ``rel`` of a node whose moves were all searched.

    The search tried one card of each run of touching legal cards. Below the relevant cards every
    card is a wildcard and any one stands for any other, but a run that crosses the lowest relevant
    card was searched as one move only because its cards touch: the whole run becomes relevant.
    """
    out = rel
    for s in range(4):
        x = rel & SUITM[s]
        if x == 0:
            continue
        low = ctz(x)
        if low == 13 * s or not (legal >> U(low)) & U(1) or not (legal >> U(low - 1)) & U(1):
            continue
        gaps = ~legal & ((U(1) << U(low)) - U(1)) & SUITM[s]
        bottom = high_bit(gaps) + 1 if gaps else 13 * s
        out |= ((U(1) << U(low)) - U(1)) & ~((U(1) << U(bottom)) - U(1))
    return out


@numba.njit(**INLINE)
def _note_wild(wild, c, rel):
    """Update ``wild`` after move ``c`` was searched and failed with relevance ``rel``.

    ``wild`` packs, per suit ``s`` (bits ``8s..8s+7``), a rank threshold: every card of suit ``s``
    below it is a *wildcard sibling* of a move already searched (see ``_is_wild``). When ``c`` lies
    below the lowest card of its suit in ``rel`` (the threshold ``T``; 13 if ``rel`` names no card
    of the suit), the suit's threshold becomes at least ``T``.
    """
    s = _suit(c)
    x = rel & SUITM[s]
    t = (ctz(x) - 13 * s) if x else 13
    if c - 13 * s < t:
        old = np.int64((wild >> U(8 * s)) & U(0xFF))
        if t > old:
            wild = (wild & ~(U(0xFF) << U(8 * s))) | (U(t) << U(8 * s))
    return wild


@numba.njit(**INLINE)
def _is_wild(wild, c):
    """Does move ``c`` fail for the same reason as a sibling already searched (``_note_wild``)?

    Soundness (wildcard siblings): sibling ``c0`` of suit ``s`` was searched and failed, its proof
    relying on the owners of the cards ``R`` (closed up: every card of ``s`` from its threshold
    ``T`` upward) and on the suit lengths. When ``c0`` and ``c`` both lie below ``T``, the position
    after ``c`` differs from the one after ``c0`` only in those two cards (one on the table, the
    other in the mover's hand), neither in ``R``, with every suit length the same: it matches the
    pattern of ``c0``'s proof, so ``c`` fails too, with the same relevance (already gathered). A
    card below ``T`` cannot have won the trick by rank either (the winner by rank is in ``R``).
    """
    s = _suit(c)
    return c - 13 * s < np.int64((wild >> U(8 * s)) & U(0xFF))


@numba.njit(**INLINE)
def _len_sig(h0, h1, h2, h3):
    """The 16 suit lengths of the four hands, one nibble each."""
    sig = U(0)
    for s in range(4):
        m = SUITM[s]
        sig |= U(popcount(h0 & m)) << U(16 * s)
        sig |= U(popcount(h1 & m)) << U(16 * s + 4)
        sig |= U(popcount(h2 & m)) << U(16 * s + 8)
        sig |= U(popcount(h3 & m)) << U(16 * s + 12)
    return sig


@numba.njit(**INLINE)
def _sig_after(sig, leader, c0, c1, c2, c3):
    """The suit lengths (``_len_sig``) after a trick: ``sig`` with one card fewer in the suit of
    ``c{i}`` for seat ``leader + i``. (Squeezing keeps every suit length, so the next trick's
    signature is updated, not recounted.)"""
    for i, c in enumerate((c0, c1, c2, c3)):
        sig -= U(1) << U(16 * (_suit(c)) + 4 * ((leader + i) & 3))
    return sig


@numba.njit(**INLINE)
def _top_class(rel):
    """The top class (0..255) of a relevance mask: in each suit ``s``, how many of the top cards
    are relevant (the run of relevant cards down from rank 12, at most ``TOP_DEPTH``), in bits
    ``2s, 2s + 1``. ``TOP_CLASS_MASK[c]`` is a subset of ``rel``.
    """
    c = 0
    for s in range(4):
        n = _top_run((rel >> U(13 * s)) & SUIT_BITS)
        c |= min(n, TOP_DEPTH) << (2 * s)
    return c


@numba.njit(**INLINE)
def _bucket(sig, meta, olo, ohi, cls, n_buckets):
    """Bucket of a position for top class ``cls``: a hash of the suit lengths, the question,
    ``cls`` and the owners of the top cards that class names (``TOP_CLASS_MASK[cls]``).

    An entry whose relevance has top class ``c`` is stored in the bucket of class ``c``: every
    position matching the entry agrees with it on the owners of those cards (they are relevant),
    so it computes the same bucket. The probe tries the bucket of every class stored for its
    (lengths, question) (``_tt_lookup``); the full pattern is checked on every probe.
    """
    tm = TOP_CLASS_MASK[cls]
    top = ((olo & tm) << U(1)) ^ ((ohi & tm) * U(3))
    h = (sig * U(0x9E3779B97F4A7C15)) ^ (meta * U(0xC2B2AE3D27D4EB4F))
    h ^= (top + U(cls + 1)) * U(0xFF51AFD7ED558CCD)
    h ^= h >> U(29)
    h *= U(0x94D049BB133111EB)
    h ^= h >> U(32)
    return np.int64(h & U(n_buckets - 1))


@numba.njit(**INLINE)
def _entry_key(sig, meta, gen):
    """The 32-bit key of an entry (``W_KEYS``): the question (8 bits), 8 bits of a hash of the suit
    lengths (so that a probe rarely reads ``E_SIG`` of another position's entry) and the low
    ``GEN_BITS`` bits of the generation (never 0: see ``solve_rows``), so that an emptied way
    (key 0) matches nothing."""
    return (meta | (((sig * U(0x9E3779B97F4A7C15)) >> U(56)) << U(8))
            | ((gen & U((1 << GEN_BITS) - 1)) << U(16)))


@numba.njit(**INLINE)
def _key_at(table, bk, j):
    """The key of way ``j`` of bucket ``bk``."""
    return (table[bk, W_KEYS + (j >> 1)] >> U(32 * (j & 1))) & U(0xFFFFFFFF)


@numba.njit(**INLINE)
def _set_key(table, bk, j, key):
    """Write the key of way ``j`` of bucket ``bk``."""
    i = W_KEYS + (j >> 1)
    sh = U(32 * (j & 1))
    table[bk, i] = (table[bk, i] & ~(U(0xFFFFFFFF) << sh)) | (key << sh)


@numba.njit(**INLINE)
def _work_at(table, bk, j):
    """The work byte (replacement priority, see ``_tt_store``) of way ``j`` of bucket ``bk``."""
    return np.int64((table[bk, W_WORK + (j >> 3)] >> U(8 * (j & 7))) & U(0xFF))


@numba.njit(**INLINE)
def _set_work(table, bk, j, wk):
    """Write the work byte of way ``j`` of bucket ``bk``."""
    i = W_WORK + (j >> 3)
    sh = U(8 * (j & 7))
    table[bk, i] = (table[bk, i] & ~(U(0xFF) << sh)) | (U(wk) << sh)


@numba.njit(**INLINE)
def _pres_row(sig, meta, n_buckets):
    """Presence row (a bucket number, words ``W_PRES``) of the positions with suit lengths ``sig``
    and question ``meta``."""
    h = (sig * U(0xD6E8FEB86659FD93)) ^ (meta * U(0x9E3779B97F4A7C15))
    h ^= h >> U(31)
    h *= U(0xBF58476D1CE4E5B9)
    h ^= h >> U(29)
    return np.int64(h & U(n_buckets - 1))


@numba.njit(**INLINE)
def _top_run(x):
    """Length of the run of set bits of the 13-bit suit ``x`` downwards from rank 12."""
    y = (~x) & SUIT_BITS
    if y == 0:
        return 13
    return 12 - high_bit(y)


@numba.njit(**INLINE)
def _above(b):
    """Mask of the bits strictly above bit ``b`` (all 52 bits when ``b < 0``)."""
    if b < 0:
        return FULL
    return FULL & ~((U(2) << U(b)) - U(1))


@numba.njit(**INLINE)
def _hand(h0, h1, h2, h3, q):
    if q == 0:
        return h0
    if q == 1:
        return h1
    if q == 2:
        return h2
    return h3


@numba.njit(**NJIT)
def _quick_tricks(h0, h1, h2, h3, leader, trump, opp_mask):
    """``(tricks, relevance)``: what the leader can cash at once from the top of his suits.

    ``opp_mask``: the seats (bit mask) whose winning a trick would not count for the leader. In a
    suit contract a side-suit winner counts only while every such seat holding a trump must follow.
    The relevance mask holds the cashed top cards.
    """
    h = _hand(h0, h1, h2, h3, leader)
    opp_trumps = False
    if trump < 4:
        for q in range(4):
            if (opp_mask >> q) & 1 and _hand(h0, h1, h2, h3, q) & SUITM[trump]:
                opp_trumps = True
    qt = 0
    rel = U(0)
    for s in range(4):
        run = _top_run((h >> U(13 * s)) & SUIT_BITS)
        if run == 0:
            continue
        if trump == 4 or s == trump or not opp_trumps:
            cnt = run
        else:
            cnt = run
            for q in range(4):
                hq = _hand(h0, h1, h2, h3, q)
                if (opp_mask >> q) & 1 and hq & SUITM[trump]:
                    ln = popcount(hq & SUITM[s])
                    if ln < cnt:
                        cnt = ln
        if cnt > 0:
            qt += cnt
            rel |= U(1) << U(13 * s + 13 - run)  # the lowest card of the run (closed up later)
    return qt, rel


@numba.njit(**INLINE)
def _seat_trump_floor(h0, h1, h2, h3, q, trump, opp_mask):
    """``(tricks, relevance)``: ``_trump_floor`` of the single seat ``q`` against the trumps of
    the seats ``opp_mask`` (tricks won by q's side, however anyone plays; see ``_trump_floor``)."""
    if trump >= 4:
        return 0, U(0)
    tm = SUITM[trump]
    opp = U(0)
    for o in range(4):
        if (opp_mask >> o) & 1:
            opp |= _hand(h0, h1, h2, h3, o) & tm
    m = _hand(h0, h1, h2, h3, q) & tm
    best = 0
    rel = U(0)
    k = 0
    while m:
        t = high_bit(m)
        m ^= U(1) << U(t)
        k += 1
        n = k - popcount(opp & _above(t))
        if n > best:
            best = n
            rel = U(1) << U(t)
    if opp == 0:
        rel = U(0)
    return best, rel


@numba.njit(**NJIT)
def _trump_floor(h0, h1, h2, h3, trump, side_mask):
    """``(tricks, relevance)``: tricks the seats ``side_mask`` must win with their trumps, however
    anyone plays (a bound for every objective: it needs nobody's cooperation).

    Trump-length argument: take one player q of the side and his ``k`` highest trumps, the lowest
    of them ``t``. Every card is played before the deal ends, one card of q per trick, so those
    trumps fall in ``k`` different tricks. A trick holding a trump is won by a trump at least as
    high; if the winner is not on the side, it is an opposing trump above ``t``, and each opposing
    card lies in one trick only. So the side wins at least ``k - (opposing trumps above t)`` of
    those tricks. The best q and ``k`` are taken (the old "trumps above every opposing trump" is
    the case with no opposing trump above ``t``). Two players' trumps may fall in the same trick,
    so the side's players are not added up.
    Relevance: the trump ``t`` (closed up later: the owners of every trump from ``t`` up fix q's
    ``k`` trumps and the opposing count above ``t``).
    """
    best = 0
    rel = U(0)
    for q in range(4):
        if (side_mask >> q) & 1:
            n, nrel = _seat_trump_floor(h0, h1, h2, h3, q, trump, 15 ^ side_mask)
            if n > best:
                best = n
                rel = nrel
    return best, rel


@numba.njit(**INLINE)
def _ruff_safe(h0, h1, h2, h3, s, trump, bad):
    """Rounds of suit ``s`` that every seat of ``bad`` holding a trump must follow (99: no limit).

    In no-trump, or in the trump suit itself, nobody can ruff. Otherwise a seat of ``bad`` with a
    trump could ruff once void in ``s``; until then it must follow suit (RULES §5), so it neither
    ruffs nor discards (its other suits keep their lengths).
    """
    if trump == 4 or s == trump:
        return 99
    safe = 99
    for q in range(4):
        hq = _hand(h0, h1, h2, h3, q)
        if (bad >> q) & 1 and hq & SUITM[trump]:
            ln = popcount(hq & SUITM[s])
            if ln < safe:
                safe = ln
    return safe


@numba.njit(**INLINE)
def _drop_high(x, n):
    """``x`` without its ``n`` highest set bits."""
    for _ in range(n):
        if x:
            x ^= U(1) << U(high_bit(x))
    return x


@numba.njit(**INLINE)
def _drop_low(x, n):
    """``x`` without its ``n`` lowest set bits."""
    for _ in range(n):
        x &= x - U(1)
    return x


@numba.njit(**INLINE)
def _cash_rounds(h0, h1, h2, h3, q, s, side, bad, safe, pre, pl):
    """``(rounds, card)``: how many rounds of suit ``s`` seat ``q`` (on lead) surely wins and keeps
    the lead with, leading its highest cards of ``s`` from the top while the other seats of
    ``side`` follow with their lowest; ``card`` = the last (lowest) card ``q`` cashes, or -1.

    Round ``j`` is won by ``q`` when its ``j``-th highest card of ``s`` is above every card of the
    seats ``bad`` in ``s`` and above the ``j``-th lowest card of each other seat of ``side`` (a
    seat out of ``s`` discards); at most ``safe`` rounds (``_ruff_safe``). Only the ranks at or
    above ``card`` decide this (a follower's ``j``-th lowest card is either below ``card`` in both
    positions of a pattern, or the same card), so ``card`` is the relevance of the count.
    ``pre`` > 0: count from after ``pre`` rounds of ``s`` already cashed this way by seat ``pl``
    (its ``pre`` highest cards and every other side seat's ``pre`` lowest are gone).
    """
    m = SUITM[s]
    opp = U(0)
    for o in range(4):
        if (bad >> o) & 1:
            opp |= _hand(h0, h1, h2, h3, o)
    bmax = high_bit(opp & m)
    lead = U(0)
    f0 = U(0)
    f1 = U(0)
    f2 = U(0)
    nf = 0
    for o in range(4):
        if not (side >> o) & 1:
            continue
        fm = _hand(h0, h1, h2, h3, o) & m
        if pre > 0:
            fm = _drop_high(fm, pre) if o == pl else _drop_low(fm, pre)
        if o == q:
            lead = fm
        elif nf == 0:
            f0 = fm
            nf = 1
        elif nf == 1:
            f1 = fm
            nf = 2
        else:
            f2 = fm
    k = 0
    card = -1
    while lead and k < safe:
        c = high_bit(lead)
        if c < bmax:
            break
        if (f0 and ctz(f0) > c) or (f1 and ctz(f1) > c) or (f2 and ctz(f2) > c):
            break
        lead ^= U(1) << U(c)
        f0 &= f0 - U(1)
        f1 &= f1 - U(1)
        f2 &= f2 - U(1)
        k += 1
        card = c
    return k, card


@numba.njit(**NJIT)
def _side_quick_tricks(h0, h1, h2, h3, leader, trump, side, r):
    """``(tricks, relevance)``: tricks the seats ``side`` (the leader among them, all playing
    together; every other seat against them) surely take at once by cashing top cards, with at
    most one transfer of the lead to a partner (DDS-style quick tricks with an entry).

    The plan: (A) the leader cashes ``_cash_rounds`` in some suits, keeping the lead; (B) he leads
    his lowest card of a suit ``t`` where a partner ``Q`` wins round 1 of ``_cash_rounds`` (the
    entry; the leader's lowest card is then a follower's 1st lowest); (C) ``Q`` cashes
    ``_cash_rounds`` in ``t`` and in other suits not used in (A). Without (B), (A) in every suit
    is the leader's own quick tricks. [unblock] The leader may first cash his (A) rounds of ``t``
    and then lead his lowest card left in ``t`` (``_cash_rounds`` with ``pre``).

    Soundness: every counted round is won by a card above all opposing cards of its suit, led
    while no opponent holding a trump can be void in it (``_ruff_safe``), so no opponent wins it;
    the followers of ``side`` never overtake (the ``_cash_rounds`` condition). Followers keep what
    the plan needs: a seat void in the suit led discards its highest card of some suit (every
    lower card, and so each ``j``-th lowest, stays where it was); ``Q`` during (A) discards a
    card it does not need later: its highest in an (A) suit, any card of an unused suit, or in
    ``t`` / a (C) suit a card between the lowest ones it follows the leader's rounds with and the
    ones it cashes. Such a card exists while (A) + (C) <= r; if the plan counts more, the leader
    cashes fewer (A) rounds, so the result is capped at ``r``.
    Valid whenever the seats ``side`` cooperate and the seats outside it are the only ones whose
    tricks count the other way: lower bound with side = win (win within mx, leader in it), upper
    bound ``r - tricks`` with side = the seats outside win (none in mx, leader in it).
    Relevance: the lowest card cashed in each suit used (closed up later).
    """
    bad = 15 ^ side
    # per suit s: rounds in bits 8s..8s+3, the relevant card in bits 32+8s.. (no arrays: hot path)
    pa = 0
    total_a = 0
    rel_a = U(0)
    for s in range(4):
        safe = _ruff_safe(h0, h1, h2, h3, s, trump, bad)
        k, c = _cash_rounds(h0, h1, h2, h3, leader, s, side, bad, safe, 0, 0)
        if k > 0:
            pa |= (k << (8 * s)) | (c << (32 + 8 * s))
            total_a += k
            rel_a |= U(1) << U(c)
    best = total_a
    best_rel = rel_a
    if best >= r:
        return r, best_rel
    lh = _hand(h0, h1, h2, h3, leader)
    for qq in range(4):
        if qq == leader or not (side >> qq) & 1:
            continue
        pc = 0
        for s in range(4):
            safe = _ruff_safe(h0, h1, h2, h3, s, trump, bad)
            k, c = _cash_rounds(h0, h1, h2, h3, qq, s, side, bad, safe, 0, 0)
            if k > 0:
                pc |= (k << (8 * s)) | (c << (32 + 8 * s))
        # the rest: every suit by the better of (A) and (C); the entry suit t by (C)
        base = 0
        for s in range(4):
            base += max((pa >> (8 * s)) & 15, (pc >> (8 * s)) & 15)
        for t in range(4):
            lt = popcount(lh & SUITM[t])
            if lt == 0:
                continue
            at = (pa >> (8 * t)) & 15
            kt = (pc >> (8 * t)) & 15
            trel = U(1) << U((pc >> (32 + 8 * t)) & 63)
            if at > 0 and lt > at:
                # [unblock] the leader first cashes his ``at`` rounds of t, then leads his lowest
                # card left in t to Q's winners (same plan; t's cards in play are the rest)
                safe = _ruff_safe(h0, h1, h2, h3, t, trump, bad) - at
                k, c = _cash_rounds(h0, h1, h2, h3, qq, t, side, bad, safe, at, leader)
                if k > 0 and at + k > kt:
                    kt = at + k
                    trel = (U(1) << U(c)) | (U(1) << U((pa >> (32 + 8 * t)) & 63))
            if kt == 0:
                continue
            tot = base - max(at, (pc >> (8 * t)) & 15) + kt
            if tot > best:
                best = tot
                best_rel = trel
                for s in range(4):
                    if s == t:
                        continue
                    a = (pa >> (8 * s)) & 15
                    b = (pc >> (8 * s)) & 15
                    if b > a:
                        best_rel |= U(1) << U((pc >> (32 + 8 * s)) & 63)
                    elif a > 0:
                        best_rel |= U(1) << U((pa >> (32 + 8 * s)) & 63)
    if best > r:
        best = r
    return best, best_rel


@numba.njit(**NJIT)
def _wins_this_trick(h0, h1, h2, h3, leader, trump, x):
    """``(yes, relevance)``: do the seats ``x`` (not the leader; playing together) surely win the
    trick the leader is about to lead, whatever the others do (DDS's "later tricks", simplest case)?

    Yes when every suit the leader holds is covered: its top card (canonical rank 12) belongs to
    ``x`` and no seat outside ``x`` can ruff it (no-trump, the trump suit, or every such seat has
    a card of the suit or no trump: it must follow or cannot trump), or a seat of ``x`` is void in
    it and holds the top trump (its ruff cannot be beaten). The holder plays that card and the
    other seats of ``x`` do not overtake. Relevance: the top cards relied on; the rest is lengths.
    """
    lh = _hand(h0, h1, h2, h3, leader)
    rel = U(0)
    top_tr = U(0)
    if trump < 4:
        top_tr = U(1) << U(13 * trump + 12)
    for s in range(4):
        m = SUITM[s]
        if not lh & m:
            continue
        top = U(1) << U(13 * s + 12)
        ok = False
        for q in range(4):
            if (x >> q) & 1 and _hand(h0, h1, h2, h3, q) & top:
                ok = True
        if ok and trump < 4 and s != trump:
            for q in range(4):
                hq = _hand(h0, h1, h2, h3, q)
                if not (x >> q) & 1 and not hq & m and hq & SUITM[trump]:
                    ok = False
        if ok:
            rel |= top
            continue
        if trump < 4 and s != trump:
            for q in range(4):
                hq = _hand(h0, h1, h2, h3, q)
                if (x >> q) & 1 and not hq & m and hq & top_tr:
                    ok = True
        if not ok:
            return False, U(0)
        rel |= top_tr
    return True, rel


@numba.njit(**INLINE)
def _ruff_threat(h0, h1, h2, h3, s, trump, skip):
    """Is some seat other than ``skip`` void in suit ``s`` (not trumps) and holding trumps?"""
    if trump < 4 and s != trump:
        for q in range(4):
            hq = _hand(h0, h1, h2, h3, q)
            if q != skip and hq & SUITM[s] == 0 and hq & SUITM[trump]:
                return True
    return False


@numba.njit(**NJIT)
def _win_then_cash(h0, h1, h2, h3, p, leader, trump):
    """``(tricks, relevance)``: a floor on p's tricks (p playing for tricks against the other
    three) when another seat leads: p holds the top card of every suit the leader holds.

    Soundness: whatever suit s is led, p follows with its top card, which wins unless somebody
    void in s ruffs; that is excluded (s is trumps, or no other seat void in s holds trumps). Then
    p leads with his quick tricks (``_quick_tricks`` against the three) at least one fewer than
    now: his top run in s is at most one shorter, the other runs are not shorter (cards only
    leave), the others' trump holders all followed s (none is void in s) so their lengths in the
    other suits are unchanged and in s one shorter, and the set of trump holders only shrinks. So
    p makes at least 1 + (quick tricks - 1) = his quick tricks as counted now.
    Relevance: the top card of each suit the leader holds (p's), and the quick tricks' cards.
    """
    hp = _hand(h0, h1, h2, h3, p)
    hl = _hand(h0, h1, h2, h3, leader)
    rel = U(0)
    for s in range(4):
        if hl & SUITM[s] == 0:
            continue
        top = U(1) << U(13 * s + 12)
        if hp & top == 0:
            return 0, U(0)
        if _ruff_threat(h0, h1, h2, h3, s, trump, p):
            return 0, U(0)
        rel |= top
    qt, qrel = _quick_tricks(h0, h1, h2, h3, p, trump, 15 ^ (1 << p))
    return qt, rel | qrel


@numba.njit(**INLINE)
def _first_trump_trick(h0, h1, h2, h3, p, leader, trump):
    """``(yes, relevance)``: must p (playing for tricks against the other three) take at least
    one trick with his trumps? A sharper form, for one trick, of ``_trump_floor`` that counts
    where the higher trumps sit.

    Take p's ``k`` highest trumps (the lowest of them ``c``), the ``g = n - k`` trumps he holds
    below them (his guards), and the opposing trumps above ``c``: ``mr`` of them held by p's
    right-hand opponent ``(p + 3) % 4``, ``mo`` by the two others. Claim: if p is not on lead or
    holds a card outside trumps, and ``k > max(mo, mo + mr - g)``, p wins a trick.
    Soundness, while p has won no trick: he never leads again (at the first trick he leads
    outside trumps), so his right-hand opponent plays before him in every trick. p plays a trump
    only when he must (trumps led, or only trumps left; void in a side suit he discards outside
    trumps): his lowest trump if a trump above his highest is already in the trick, else his
    highest. Each of his ``k`` trumps that loses is beaten by a distinct opposing trump above
    ``c`` in its trick: one played after p (never the right-hand opponent's, so at most ``mo``
    of these), or one played before p when he had no guard left to play instead. Each guard he
    plays uses up another opposing trump above ``c`` the same way. So if none of the right-hand
    opponent's trumps beats one of the ``k``, at most ``mo`` of them lose; if one does, p's
    ``g`` guards are gone and at most ``mo + mr - g`` of them lose. Every card is played before
    the deal ends, so one of the ``k`` wins. With ``mr = 0`` this is the one-trick case of
    ``_trump_floor``; with ``mo = 0`` and ``k = 1``: every higher trump sits on p's right and he
    holds as many guards as there are such trumps.
    Relevance: ``c`` (closed up: the owners of every trump from ``c`` upward); the trump lengths
    and the leader are in every table key.
    """
    if trump >= 4 or p == leader and _hand(h0, h1, h2, h3, p) & ~SUITM[trump] == 0:
        return False, U(0)
    tm = SUITM[trump]
    tp = _hand(h0, h1, h2, h3, p) & tm
    rho = _hand(h0, h1, h2, h3, (p + 3) & 3) & tm
    others = (h0 | h1 | h2 | h3) & tm & ~tp & ~rho
    n = popcount(tp)
    m = tp
    k = 0
    while m:
        c = high_bit(m)
        m ^= U(1) << U(c)
        k += 1
        mo = popcount(others & _above(c))
        mr = popcount(rho & _above(c))
        if k > mo and k > mo + mr - (n - k):
            return True, U(1) << U(c)
    return False, U(0)


@numba.njit(**INLINE)
def _boss_outlasts(h0, h1, h2, h3, p, leader, trump):
    """``(n, relevance)``: a lower bound on the tricks of p (playing for tricks against the
    other three) when the three are on lead and hold no trumps: ``n`` is 0 (no bound) or p's
    trumps plus winners of side suits that the three cannot avoid leading.

    Let ``B`` be the side suits in which p holds the top card and the three hold a card, ``W``
    his winners in them (his cards above every card of theirs in the suit), and ``L`` the most
    tricks the three can lead in the other suits: a suit ``t`` can be led at most as often as
    the longest of their holdings in it (each trick led in ``t`` takes a card of ``t`` from each
    of them still holding one, the leader included, and a discard only shortens it). Claim: if
    none of the three holds a trump and ``L + |B| <= r``, p takes his trumps and
    ``w = min(W, r - L)`` tricks more.
    Soundness: every trump of p wins whenever he plays it (nobody else holds one, so nobody can
    lead one either), and he plays them all before the deal ends. p keeps ``w`` of his winners
    (the top card of each suit of ``B`` and others of ``W``) until he is on lead or the three
    lead a suit of ``B`` (then he plays its top card, which wins and puts him on lead); on lead
    he cashes the winners he kept, each a trick, because nobody holds a higher card of its suit
    or a trump. Void in a suit led he discards another card, or ruffs (and is on lead). He would
    have to throw a kept winner only with nothing but those ``w`` cards left, so at trick
    ``r - w + 1`` or later, never having been on lead: the three would have led that many
    tricks, none in ``B``, which ``L + w <= r`` forbids.
    Relevance: the kept winners, from the top of each suit of ``B`` (their owner and ranks);
    every suit length, so the trump lengths too, is in every table key.
    """
    hp = _hand(h0, h1, h2, h3, p)
    live = h0 | h1 | h2 | h3
    if leader == p or trump < 4 and live & ~hp & SUITM[trump]:
        return 0, U(0)
    r = popcount(hp)
    lead_room = 0
    n_boss = 0
    wins = U(0)  # p's winners in the suits of B
    for s in range(4):
        longest = 0
        for q in range(4):
            if q != p:
                longest = max(longest, popcount(_hand(h0, h1, h2, h3, q) & SUITM[s]))
        if longest == 0:
            continue
        m = live & SUITM[s]
        c = high_bit(m)
        if (hp >> U(c)) & U(1):
            n_boss += 1
            wins |= hp & m & _above(high_bit(m & ~hp))
        else:
            lead_room += longest
    if n_boss == 0 or lead_room + n_boss > r:
        return 0, U(0)
    # p keeps w_s winners of each suit of B, at least one: at most r - L in all
    keep = min(popcount(wins), r - lead_room)
    extra = keep - n_boss  # winners kept beyond each suit's top card
    rel = U(0)
    for s in range(4):
        run = wins & SUITM[s]
        while run:
            c = high_bit(run)
            run ^= U(1) << U(c)
            rel |= U(1) << U(c)
            if run == 0 or extra == 0:
                break
            extra -= 1
    n = keep
    if trump < 4:
        n += popcount(hp & SUITM[trump])
    return n, rel


@numba.njit(**NJIT)
def _cash_then_floor(h0, h1, h2, h3, leader, trump, side):
    """``(tricks, relevance)``: the seats ``side`` (the leader among them, playing together; the
    others against them) surely take the leader's side-suit quick tricks AND then the trump floor
    of one of their seats. Suit contracts only (0 otherwise).

    The plan: the leader cashes ``_cash_rounds`` in every suit but trumps (his own winners, the
    other seats of ``side`` following low), then anything goes.
    Soundness: every cashed round is won by the leader (``_cash_rounds``: above every opposing
    card, led while each opponent holding a trump must follow, ``_ruff_safe``; the partners do not
    overtake), so he keeps the lead and the rounds add up over the suits. A partner void in the
    suit led discards the highest card of a non-trump suit (it has one: a partner with fewer
    non-trump cards than rounds makes the bound give up), which keeps every ``j``-th lowest card
    the plan relies on. After the cashing: the opponents holding trumps only followed suit, so
    the opposing trumps are the same cards; a seat ``q`` of ``side`` that played only non-trump
    cards (the leader, or a partner with at least as many non-trump cards as rounds) keeps all its
    trumps. So ``q``'s trump floor (``_seat_trump_floor``: a bound however anyone plays) is the
    same in the position after the cashing, and the side takes rounds + floor tricks. (That is at
    most the tricks left: q's trumps fall in tricks after the cashing, one per trick.)
    Relevance: the lowest card cashed in each suit and the floor's trump (closed up later).
    """
    if trump >= 4:
        return 0, U(0)
    bad = 15 ^ side
    cnt = 0
    rel = U(0)
    for s in range(4):
        if s == trump:
            continue
        safe = _ruff_safe(h0, h1, h2, h3, s, trump, bad)
        k, c = _cash_rounds(h0, h1, h2, h3, leader, s, side, bad, safe, 0, 0)
        if k > 0:
            cnt += k
            rel |= U(1) << U(c)
    best = -1
    frel = U(0)
    for q in range(4):
        if not (side >> q) & 1:
            continue
        hq = _hand(h0, h1, h2, h3, q)
        nontrump = popcount(hq & ~SUITM[trump])
        if q != leader and nontrump < cnt:
            if cnt > 0:
                return 0, U(0)  # this partner might have to ruff a cashed winner: give up
            continue
        f, fr = _seat_trump_floor(h0, h1, h2, h3, q, trump, bad)
        if f > best:
            best = f
            frel = fr
    return cnt + best, rel | frel


@numba.njit(**NJIT)
def _seat_cash_floor(h0, h1, h2, h3, w, trump):
    """Seat ``w``'s own cash-then-floor count against the other three (``_cash_then_floor`` with
    side {w}; in no-trump its quick tricks), and its relevance."""
    if trump >= 4:
        return _quick_tricks(h0, h1, h2, h3, w, trump, 15 ^ (1 << w))
    return _cash_then_floor(h0, h1, h2, h3, w, trump, 1 << w)


@numba.njit(**INLINE)
def _cash_floor_cap(h0, h1, h2, h3, w, trump):
    """Most tricks ``_seat_cash_floor`` of seat ``w`` can count (a cheap gate): in every suit but
    trumps w's cards above every card the other seats hold in it (the cashing plans and the quick
    tricks count no others), plus w's trumps (the floor is at most his trump count)."""
    hw = _hand(h0, h1, h2, h3, w)
    others = (h0 | h1 | h2 | h3) & ~hw
    n = 0
    for s in range(4):
        m = SUITM[s]
        if s == trump:
            n += popcount(hw & m)
        else:
            n += popcount(hw & m & _above(high_bit(others & m)))
    return n


@numba.njit(**NJIT)
def _trick_then_cash(h0, h1, h2, h3, k, leader, t0, t1, t2, trump, x, need):
    """``(tricks, relevance)``: inside a trick (``k`` >= 1 cards ``t0..`` on the table), a floor
    on the tricks of the seats ``x`` (playing together) from the start of this trick: some seat w
    of ``x`` surely wins it with the highest card of the suit led s (held by w, still to play, or
    already on the table and winning), and then takes w's ``_seat_cash_floor`` as counted now.

    Conditions: the trick is not ruffed so far, and no seat still to play but w is void in s and
    holds a trump (``_ruff_threat`` for those seats); then nobody can beat w's card.
    Soundness (the others of ``x`` count as opponents in w's count, which only weakens it: w's plan
    wins against every play of the other three): w's card is the highest of s, and nobody can
    trump it (the trick is not ruffed so far; a seat still to play that could ruff would be void
    in s with a trump, excluded), so w wins the trick and leads next. The seats still to play that
    hold trumps follow s, so every trump holder's lengths in the other suits and the opposing
    trumps are as now (the seats that played already are counted as they are now; the set of
    trump holders only shrinks). Then ``_cash_then_floor`` (side = {w}) applies: (a) s a side
    suit: w's run in s and the trump holders' lengths in s drop by at most one, so the cash count
    drops by at most one; w's trumps and the opposing ones are unchanged, so is the floor. (b) s
    the trump suit and w plays its top trump now: the side-suit counts are unchanged; for each
    ``k`` the ``k - 1`` highest trumps w has left have the same lowest one ``t`` and no more
    opposing trumps above it, so the floor drops by at most one. (No-trump: ``_quick_tricks``, as
    (a).) So w's side takes at least 1 + (count - 1) tricks from the start of this trick.
    Relevance: w's winning card (closed up: every card of s above it) and the count's.
    ``need``: the count the caller needs; when ``_cash_floor_cap`` shows w cannot count that many,
    the count is not computed (0 is returned: the answer to the caller is the same).
    """
    s = _suit(t0)
    w_card, wi = _winning_so_far(k, t0, t1, t2, trump)
    if _suit(w_card) != s:
        return 0, U(0)
    hb = high_bit((h0 | h1 | h2 | h3) & SUITM[s])
    if hb > w_card:
        w = -1
        for j in range(k, 4):
            q = (leader + j) & 3
            if _hand(h0, h1, h2, h3, q) & (U(1) << U(hb)):
                w = q
        if w < 0 or not (x >> w) & 1:
            return 0, U(0)
        rel = U(1) << U(hb)
    else:
        w = (leader + wi) & 3
        if not (x >> w) & 1:
            return 0, U(0)
        rel = U(1) << U(w_card)
    if trump < 4 and s != trump:
        for j in range(k, 4):
            q = (leader + j) & 3
            hq = _hand(h0, h1, h2, h3, q)
            if q != w and hq & SUITM[s] == 0 and hq & SUITM[trump]:
                return 0, U(0)
    if _cash_floor_cap(h0, h1, h2, h3, w, trump) < need:
        return 0, U(0)
    n, nrel = _seat_cash_floor(h0, h1, h2, h3, w, trump)
    return n, rel | nrel


@numba.njit(**INLINE)
def _forced_ruffer(h0, h1, h2, h3, s, trump, side):
    """Is some seat of ``side`` void in suit ``s`` (not trumps) with nothing but trumps left?

    Such a seat must ruff when ``s`` is led (RULES §5); any other seat of ``side`` either follows
    suit or may discard a card of a plain suit (which never wins the trick).
    """
    if trump < 4 and s != trump:
        for q in range(4):
            hq = _hand(h0, h1, h2, h3, q)
            if (side >> q) & 1 and hq and hq & SUITM[s] == 0 and hq & ~SUITM[trump] == 0:
                return True
    return False


@numba.njit(**NJIT)
def _min_floor(h0, h1, h2, h3, p, leader, trump):
    """``(tricks, relevance)``: whist-min (the other three push tricks on p), tricks p surely
    takes from here because of the current trick alone (0 or 1; ``r`` in the case below).

    A suit ``s`` *forces* p when p holds cards of ``s``, every card of ``s`` the other three hold
    is below p's lowest one, and none of them is void in ``s`` with only trumps left (a forced
    ruff). Then, ``s`` being led, the others follow below p or discard a plain card, and whatever
    card of ``s`` p plays is the highest of the suit with no trump in the trick (or is a trump
    above every other trump): p wins. A lower bound needs one plan of the pushing side only:
    * another seat leads and holds a forcing suit: it leads it -> 1 trick;
    * p leads and every suit p holds forces p -> 1 trick; with no-trump, or no trump among the
      other three, nothing ever changes that (cards only leave; nobody can ruff): p wins all ``r``.
    Relevance: p's lowest card of each forcing suit used (closed up by the caller: the owners of
    every card of ``s`` from there up, with the suit lengths, fix that p's cards of ``s`` are
    exactly those and the others' are all below); the forced-ruff test needs only lengths.
    """
    hp = _hand(h0, h1, h2, h3, p)
    side = 15 ^ (1 << p)
    oth = U(0)
    for q in range(4):
        if q != p:
            oth |= _hand(h0, h1, h2, h3, q)
    if leader != p:
        hl = _hand(h0, h1, h2, h3, leader)
        for s in range(4):
            m = SUITM[s]
            if hl & m == 0 or hp & m == 0:
                continue
            low = ctz(hp & m)
            if high_bit(oth & m) < low and not _forced_ruffer(h0, h1, h2, h3, s, trump, side):
                return 1, U(1) << U(low)
        return 0, U(0)
    rel = U(0)
    for s in range(4):
        m = SUITM[s]
        if hp & m == 0:
            continue
        low = ctz(hp & m)
        if high_bit(oth & m) >= low or _forced_ruffer(h0, h1, h2, h3, s, trump, side):
            return 0, U(0)
        rel |= U(1) << U(low)
    if trump == 4 or oth & SUITM[trump] == 0:
        return popcount(hp), rel
    return 1, rel


@numba.njit(**NJIT)
def _min_duck(h0, h1, h2, h3, p, leader, trump):
    """``(yes, relevance)``: whist-min, can p surely lose the current trick (an upper bound of
    ``r - 1`` on p's tricks)?

    * p leads: p holds a card below every card of suit ``s`` of some other seat ``q`` holding
      ``s``. p leads its lowest card of ``s``; ``q`` must follow with a higher card of ``s``, so p
      loses (a trump by anyone else beats it too). Relevance: ``q``'s lowest card of ``s`` (closed
      up: ``q``'s cards of ``s`` are exactly those named, p's count above it is fixed, so p still
      has a card below it).
    * another seat leads: for every suit ``s`` the leader holds, p holds a card of ``s`` below the
      leader's lowest one (p plays it under the card led), or p is void in ``s`` and can discard a
      card that cannot win (``s`` is trumps, no-trump, or p holds a plain card). Relevance: the
      leader's lowest card of each suit where p follows (closed up, as above); the rest is lengths.
    """
    hp = _hand(h0, h1, h2, h3, p)
    if leader == p:
        for q in range(4):
            if q == p:
                continue
            hq = _hand(h0, h1, h2, h3, q)
            for s in range(4):
                m = SUITM[s]
                if hq & m and hp & m and ctz(hp & m) < ctz(hq & m):
                    return True, U(1) << U(ctz(hq & m))
        return False, U(0)
    hl = _hand(h0, h1, h2, h3, leader)
    rel = U(0)
    plain = trump == 4 or hp & ~SUITM[trump] != 0
    for s in range(4):
        m = SUITM[s]
        if hl & m == 0:
            continue
        if hp & m:
            low = ctz(hl & m)
            if ctz(hp & m) > low:
                return False, U(0)
            rel |= U(1) << U(low)
        elif not (s == trump or plain):
            return False, U(0)
    return True, rel


@numba.njit(**NJIT)
def _min_zero(h0, h1, h2, h3, p, leader, trump):
    """``(yes, relevance)``: whist-min, can p surely lose every remaining trick (an upper bound of
    0 on p's tricks)?

    Yes when another seat is on lead, p holds no trump (or the deal is no-trump), and in every suit
    ``s`` p's ``j``-th lowest card is below the others' ``j``-th lowest card of ``s`` for every
    ``j`` up to the shorter of the two holdings. p's plan: follow suit with his lowest card;
    when void, discard his highest card of any suit (a plain card: it never wins). As long as p
    wins nothing he never leads, so the ``j``-th lead of ``s`` comes from the others after they
    have played at least ``j - 1`` cards of ``s``: the card led is at least their original
    ``j``-th lowest, and p's lowest left is his ``j``-th lowest (his discards take his highest
    cards), so p plays under the card led and loses the trick. Once they are out of ``s`` it is
    never led again.
    Relevance: p's lowest card of each suit both sides hold, the lowest of that suit (closed up by
    the caller: the owners of the whole suit); the rest is lengths.
    """
    if leader == p:
        return False, U(0)
    hp = _hand(h0, h1, h2, h3, p)
    if trump < 4 and hp & SUITM[trump]:
        return False, U(0)
    oth = U(0)
    for q in range(4):
        if q != p:
            oth |= _hand(h0, h1, h2, h3, q)
    rel = U(0)
    for s in range(4):
        mp = hp & SUITM[s]
        mo = oth & SUITM[s]
        if mp == 0 or mo == 0:
            continue
        rel |= U(1) << U(ctz(mp))
        while mp and mo:
            if ctz(mp) > ctz(mo):
                return False, U(0)
            mp &= mp - U(1)
            mo &= mo - U(1)
    return True, rel


@numba.njit(**INLINE)
def _most_trumps(h0, h1, h2, h3, trump, side):
    """Trumps held by the longest trump holder of the seats ``side`` (``trump`` < 4)."""
    n = 0
    for q in range(4):
        if (side >> q) & 1:
            x = popcount(_hand(h0, h1, h2, h3, q) & SUITM[trump])
            if x > n:
                n = x
    return n


@numba.njit(**INLINE)
def _cash_cap(h0, h1, h2, h3, leader, trump, side):
    """Most rounds that cashing top cards can win for the seats ``side`` (``leader`` among them):
    no plan of ``_quick_tricks`` or ``_side_quick_tricks`` counts more, so when this cannot
    decide a question neither can they (a cheap gate, ``_bounds``).

    Each round those plans count in a suit is won by a card of the leader or of the one partner
    they use that is above every card of the other seats in that suit, at most ``_ruff_safe``
    rounds: so per suit at most min(safe, the leader's such cards + the most any partner has).
    """
    bad = 15 ^ side
    opp = U(0)
    for q in range(4):
        if (bad >> q) & 1:
            opp |= _hand(h0, h1, h2, h3, q)
    hl = _hand(h0, h1, h2, h3, leader)
    n = 0
    for s in range(4):
        m = SUITM[s]
        o = opp & m
        above = m
        if o:
            above &= ~((U(2) << U(high_bit(o))) - U(1))
        c = popcount(hl & above)
        best_q = 0
        for q in range(4):
            if q != leader and (side >> q) & 1:
                x = popcount(_hand(h0, h1, h2, h3, q) & above)
                if x > best_q:
                    best_q = x
        c += best_q
        if c > 0:
            safe = _ruff_safe(h0, h1, h2, h3, s, trump, bad)
            if c > safe:
                c = safe
        n += c
    return n


@numba.njit(**NJIT)
def _bounds(h0, h1, h2, h3, leader, trump, win, mx, r, want_lo, want_hi):
    """Cheap sure bounds ``(lo, lo_rel, hi, hi_rel)`` on the tricks of the seats ``win``.

    The leader's quick tricks count only when he wants them (a maximiser in ``win``, or a
    minimiser outside it). ``*_rel``: the cards each bound relies on.
    The search only asks whether ``lo >= want_lo`` or ``hi <= want_hi``: a quick-tricks or
    trump-floor bound that surely cannot get there (``_cash_cap``, ``_most_trumps``) is not
    computed. That changes no such answer
    nor the relevance it comes with (the skipped bound would not have been the deciding one);
    ``want_lo = 0, want_hi = r`` computes every bound.
    """
    lo = 0
    lo_rel = U(0)
    hi = r
    hi_rel = U(0)
    if trump < 4:
        # a side's trump floor is at most the trumps of its longest holder
        if _most_trumps(h0, h1, h2, h3, trump, win) >= want_lo:
            lo, lo_rel = _trump_floor(h0, h1, h2, h3, trump, win)
        if r - _most_trumps(h0, h1, h2, h3, trump, 15 ^ win) <= want_hi:
            f, hi_rel = _trump_floor(h0, h1, h2, h3, trump, 15 ^ win)
            hi = r - f
    in_win = (win >> leader) & 1
    in_mx = (mx >> leader) & 1
    if in_win and in_mx and _cash_cap(h0, h1, h2, h3, leader, trump, win) >= max(want_lo, lo + 1):
        if win & ~mx:
            qt, qrel = _quick_tricks(h0, h1, h2, h3, leader, trump, 15 ^ win)
        else:
            # [side quick tricks] the seats win all cooperate (win within mx)
            qt, qrel = _side_quick_tricks(h0, h1, h2, h3, leader, trump, win, r)
        if qt > lo:
            lo = qt
            lo_rel = qrel
    elif (not in_win and not in_mx
          and r - _cash_cap(h0, h1, h2, h3, leader, trump, 15 ^ win) <= min(want_hi, hi - 1)):
        if mx & ~win:
            qt, qrel = _quick_tricks(h0, h1, h2, h3, leader, trump, win)
        else:
            # [side quick tricks] the seats outside win all cooperate (mx within win)
            qt, qrel = _side_quick_tricks(h0, h1, h2, h3, leader, trump, 15 ^ win, r)
        if r - qt < hi:
            hi = r - qt
            hi_rel = qrel
    # [later tricks] the cooperating side not on lead surely takes this trick: for the seats win
    # (all in mx) a lower bound of 1, for the others (none in mx) an upper bound of r - 1
    if lo < 1 and not in_win and not win & ~mx:
        yes, wrel = _wins_this_trick(h0, h1, h2, h3, leader, trump, win)
        if yes:
            lo = 1
            lo_rel = wrel
    if hi > r - 1 and in_win and not mx & ~win:
        yes, wrel = _wins_this_trick(h0, h1, h2, h3, leader, trump, 15 ^ win)
        if yes:
            hi = r - 1
            hi_rel = wrel
    if mx == win and popcount(U(win)) == 1:
        # whist-max with another seat on lead: p wins the first trick, then cashes (see helper)
        p = ctz(U(win))
        if leader != p:
            n, nrel = _win_then_cash(h0, h1, h2, h3, p, leader, trump)
            if n > lo:
                lo = n
                lo_rel = nrel
        if lo < 1 and want_lo <= 1:
            # p's trumps must win a trick, counting where the higher ones sit (see helper)
            yes, trel = _first_trump_trick(h0, h1, h2, h3, p, leader, trump)
            if yes:
                lo = 1
                lo_rel = trel
        if leader != p:
            # p's trumps and the winners of suits the three must lead before the end (see
            # helper)
            n, brel = _boss_outlasts(h0, h1, h2, h3, p, leader, trump)
            if n > lo:
                lo = n
                lo_rel = brel
    if mx == 15 ^ win and popcount(U(win)) == 1:
        # [whist-min] p's tricks forced by the current trick / p's sure loser (see the helpers)
        p = ctz(U(win))
        n, nrel = _min_floor(h0, h1, h2, h3, p, leader, trump)
        if n > lo:
            lo = n
            lo_rel = nrel
        if hi > 0:
            # p ducks every trick from here (see the helper)
            yes, zrel = _min_zero(h0, h1, h2, h3, p, leader, trump)
            if yes:
                hi = 0
                hi_rel = zrel
        if hi > r - 1:
            yes, drel = _min_duck(h0, h1, h2, h3, p, leader, trump)
            if yes:
                hi = r - 1
                hi_rel = drel
    return lo, lo_rel, hi, hi_rel


@numba.njit(**INLINE)
def _tt_probe(table, bk, sig, key, olo, ohi, a_or, a_rel, b_or, b_rel, lo, lo_rel, hi, hi_rel,
              best, stop_lo, stop_hi):
    """Combine every entry of bucket ``bk`` matching a position into ``(a_or, a_rel, b_or, b_rel,
    lo, lo_rel, hi, hi_rel, best)`` (given the values so far, returns the new ones).

    ``key``: the question and generation (``_entry_key``). Mode 0 entries give the tightest
    ``lo``/``hi`` bounds (with the relevance of the entry that gave each), except that once a bound
    answers the caller's question (``lo >= stop_lo``, ``hi < stop_hi``) it is replaced only by an
    entry that also answers it with fewer relevant cards: the answer then holds for more positions
    (a smaller relevance at this node keeps its parents' patterns general; bridge about -7 % card
    plays). Mode 1 entries give the union of proved makeable (``a``) and unmakeable (``b``) masks,
    with the union of their relevances.
    """
    m = 0
    for i in range(WAYS // 2):  # one cache line, no branches
        w = table[bk, W_KEYS + i]
        m |= ((np.int64((w & U(0xFFFFFFFF)) == key) << (2 * i))
              | (np.int64((w >> U(32)) == key) << (2 * i + 1)))
    while m:
        j = ctz(U(m))
        m &= m - 1
        e = W_ENTRY + ENTRY_WORDS * j
        if table[bk, e + E_SIG] != sig:
            continue
        rel = table[bk, e + E_REL]
        if ((olo ^ table[bk, e + E_OLO]) | (ohi ^ table[bk, e + E_OHI])) & rel:
            continue
        data = table[bk, e + E_DATA]
        a = np.int64(data & U(0xFFFF))
        b = np.int64((data >> U(16)) & U(0xFFFF))
        if (key >> U(7)) & U(1):
            if a:
                a_or |= a
                a_rel |= rel
            if b:
                b_or |= b
                b_rel |= rel
        else:
            if lo >= stop_lo and lo >= 0:
                if a >= stop_lo and popcount(rel) < popcount(lo_rel):
                    lo = a
                    lo_rel = rel
            elif a > lo:
                lo = a
                lo_rel = rel
            if hi < stop_hi and hi < 99:
                if b < stop_hi and popcount(rel) < popcount(hi_rel):
                    hi = b
                    hi_rel = rel
            elif b < hi:
                hi = b
                hi_rel = rel
        bl = np.int64((data >> U(32)) & U(0xFF)) - 1
        if bl >= 0:
            best = bl
    return a_or, a_rel, b_or, b_rel, lo, lo_rel, hi, hi_rel, best


@numba.njit(**INLINE)
def _tt_lookup(table, gen, sig, meta, olo, ohi, stop_lo, stop_hi, stop_bit):
    """Combine the stored entries matching a position: ``(a_or, a_rel, b_or, b_rel, lo, lo_rel,
    hi, hi_rel, best)`` (see ``_tt_probe``). Probes the *home* bucket of (``sig``, ``meta``) (the
    bucket of its presence row, which holds that pair's first entries whatever their top class,
    see ``_tt_store``), then the bucket of each top class that the presence row names, and stops
    early once the caller's question is answered: ``lo >= stop_lo``, ``hi < stop_hi`` or
    ``(a_or | b_or) & stop_bit`` (the other values may then miss entries not yet visited; each
    value returned is still proved by the entries it names). After the home, the classes naming
    the fewest top cards come first (``CLASS_BY_WEIGHT``): their entries tend to rely on the fewest
    cards, so the answer found first is the most general one. About half of the lookups are
    answered by the home bucket alone, whose keys lie next to the presence row.
    """
    nb = table.shape[0]
    row = _pres_row(sig, meta, nb)
    a_or, a_rel, b_or, b_rel, lo, lo_rel, hi, hi_rel, best = (
        0, U(0), 0, U(0), -1, U(0), 99, U(0), -1
    )
    if table[row, W_GEN] != gen:
        return a_or, a_rel, b_or, b_rel, lo, lo_rel, hi, hi_rel, best
    key = _entry_key(sig, meta, gen)
    a_or, a_rel, b_or, b_rel, lo, lo_rel, hi, hi_rel, best = _tt_probe(
        table, row, sig, key, olo, ohi, a_or, a_rel, b_or, b_rel, lo, lo_rel, hi,
        hi_rel, best, stop_lo, stop_hi,
    )
    if lo >= stop_lo or hi < stop_hi or (a_or | b_or) & stop_bit:
        return a_or, a_rel, b_or, b_rel, lo, lo_rel, hi, hi_rel, best
    words = 0  # the presence words with classes still to probe (bit w; the loop ends with them)
    for w in range(4):
        if table[row, W_PRES + w]:
            words |= 1 << w
    for weight in range(4 * TOP_DEPTH + 1):
        if words == 0:
            break
        for w in range(4):
            if not (words >> w) & 1:
                continue
            pw = table[row, W_PRES + w]
            if pw & ~CLASS_UP_TO_WEIGHT[weight, w] == 0:
                words ^= 1 << w
            x = pw & CLASS_BY_WEIGHT[weight, w]
            while x:
                hb = high_bit(x)
                x ^= U(1) << U(hb)
                bk = _bucket(sig, meta, olo, ohi, 64 * w + hb, nb)
                if bk == row:
                    continue
                a_or, a_rel, b_or, b_rel, lo, lo_rel, hi, hi_rel, best = _tt_probe(
                    table, bk, sig, key, olo, ohi, a_or, a_rel, b_or, b_rel, lo, lo_rel, hi,
                    hi_rel, best, stop_lo, stop_hi,
                )
                if lo >= stop_lo or hi < stop_hi or (a_or | b_or) & stop_bit:
                    return a_or, a_rel, b_or, b_rel, lo, lo_rel, hi, hi_rel, best
    return a_or, a_rel, b_or, b_rel, lo, lo_rel, hi, hi_rel, best


@numba.njit(**INLINE)
def _tt_prefetch(table, gen, sig, meta, olo, ohi):
    """Start loading the buckets ``_tt_lookup`` will probe for this position (a hint: the search
    calls it before computing the static bounds, whose time then hides the memory latency)."""
    nb = table.shape[0]
    row = _pres_row(sig, meta, nb)
    prefetch(table, row * BUCKET_WORDS + W_KEYS)
    if table[row, W_GEN] != gen:
        return
    for w in range(4):
        x = table[row, W_PRES + w]
        while x:
            hb = high_bit(x)
            x ^= U(1) << U(hb)
            prefetch(table, _bucket(sig, meta, olo, ohi, 64 * w + hb, nb) * BUCKET_WORDS + W_KEYS)


@numba.njit(**INLINE)
def _store_way(table, bk, key, sig, rel, plo, phi, by_work):
    """``(way, same)``: where ``_tt_store`` writes the pattern (``rel`` with owners ``plo``/``phi``)
    in bucket ``bk``: the way that holds it already (``same``), else the first way of an older
    generation, else with ``by_work`` the way whose proof cost the fewest card plays, else -1."""
    victim = -1
    vr = 99  # the work of the victim so far (-1: a stale way)
    for j in range(WAYS):
        kj = _key_at(table, bk, j)
        if (kj >> U(16)) != (key >> U(16)):
            if vr > -1:
                victim = j
                vr = -1
            continue
        e = W_ENTRY + ENTRY_WORDS * j
        if kj == key and table[bk, e + E_SIG] == sig \
                and table[bk, e + E_REL] == rel and table[bk, e + E_OLO] == plo \
                and table[bk, e + E_OHI] == phi:
            return j, True
        if by_work:
            jr = _work_at(table, bk, j)
            if jr < vr:
                victim = j
                vr = jr
    return victim, False


@numba.njit(**NJIT)
def _tt_store(table, gen, sig, meta, olo, ohi, rel, r, work, is_exact, val, tg, best):
    """Record that the question ``meta`` has answer ``val`` at ``tg`` for the pattern ``rel``.

    Where: an entry of the same pattern is updated where it is; otherwise a new entry goes to the
    *home* bucket of (``sig``, ``meta``) (``_pres_row``) while it has a way left by an older
    generation, and else to the bucket of its top class (``_bucket``), which the presence row then
    names. A lookup probes the home first, so a (lengths, question) pair with few entries costs one
    bucket; the pairs of a hard deal with hundreds of entries spread over their class buckets as
    before. (Replacing the cheapest live home entry by a costlier one instead: more card plays.)

    Entry data: mode 0: ``a`` = lower bound, ``b`` = upper bound; mode 1: ``a`` = mask of makeable
    ``k``, ``b`` = mask of unmakeable ``k``; the best lead; the work: the bit length of the card
    plays ``work`` its proofs took (replacement priority: the cheapest entry goes first, so costly
    proofs stay).
    """
    nb = table.shape[0]
    cls = _top_class(rel)
    row = _pres_row(sig, meta, nb)
    if table[row, W_GEN] != gen:
        for w in range(4):
            table[row, W_PRES + w] = U(0)
        table[row, W_GEN] = gen
    key = _entry_key(sig, meta, gen)
    plo = olo & rel
    phi = ohi & rel
    # [home] the bucket of the presence row first: the same pattern there, else a stale way (a
    # class the presence row already names may hold the pattern: then its bucket)
    bk = row
    victim, same = _store_way(table, bk, key, sig, rel, plo, phi, False)
    if not same and (victim < 0 or (table[row, W_PRES + (cls >> 6)] >> U(cls & 63)) & U(1)):
        table[row, W_PRES + (cls >> 6)] |= U(1) << U(cls & 63)
        bk = _bucket(sig, meta, olo, ohi, cls, nb)
        victim, same = _store_way(table, bk, key, sig, rel, plo, phi, True)
    j = victim
    e = W_ENTRY + ENTRY_WORDS * j
    if same:
        data = table[bk, e + E_DATA]
        a = np.int64(data & U(0xFFFF))
        b = np.int64((data >> U(16)) & U(0xFFFF))
        bl = np.int64((data >> U(32)) & U(0xFF)) - 1
        wk = _work_at(table, bk, j)
    else:
        table[bk, e + E_SIG] = sig
        _set_key(table, bk, j, key)
        table[bk, e + E_REL] = rel
        table[bk, e + E_OLO] = plo
        table[bk, e + E_OHI] = phi
        a = 0
        b = 0 if is_exact else r
        bl = -1
        wk = 0
    wl = high_bit(U(work)) + 1  # bit length (0 for no work)
    if wl > wk:
        wk = wl
    if is_exact:
        if val:
            a |= 1 << tg
        else:
            b |= 1 << tg
    else:
        if val:
            if tg > a:
                a = tg
        elif tg - 1 < b:
            b = tg - 1
    if best >= 0:
        bl = best
    table[bk, e + E_DATA] = U(a) | (U(b) << U(16)) | (U(bl + 1) << U(32))
    _set_work(table, bk, j, wk)


# --------------------------------------------------------------------------- move ordering


@numba.njit(**INLINE)
def _can_beat(hq, x, led, trump):
    """Could a player holding ``hq`` beat card ``x`` in a trick led in suit ``led``?"""
    xs = _suit(x)
    follow = hq & SUITM[led]
    if follow:
        if xs != led:
            return False  # x is a ruff; q must follow suit
        return high_bit(follow) > x
    if trump == 4:
        return False
    tr = hq & SUITM[trump]
    if tr == 0:
        return False
    if xs == trump:
        return high_bit(tr) > x
    return True


@numba.njit(**INLINE)
def _push_lead_bonus(h0, h1, h2, h3, c, good):
    """Move-ordering bonus (only a hint) for a lead by a seat that wants the single seat ``good``
    to win the trick (whist-min: the three pushing tricks on p): +3000 when p must win a lead of
    ``c``'s suit (p holds the suit and every other card of it is below p's lowest), -1500 when p
    is void in it (p discards). (A bonus for p's leads under a seat that must overtake was tried:
    no gain.)
    """
    if popcount(U(good)) != 1:
        return 0
    m = SUITM[_suit(c)]
    hg = _hand(h0, h1, h2, h3, ctz(U(good)))
    if hg & m == 0:
        return -1500
    if high_bit((h0 | h1 | h2 | h3) & ~hg & m) < ctz(hg & m):
        return 3000
    return 0


@numba.njit(**INLINE)
def _pair_lead_score(h0, h1, h2, h3, player, c, trump):
    """Ordering score of leading card ``c`` (canonical) for a seat playing with its partner
    (``player ^ 2``) against the other two (bridge); higher is tried first. Only the speed
    depends on it, never a result.

    Order (tuned on card plays of random deals): give the partner a ruff that no opponent void in
    the suit can overruff; lead low to the partner's top card; cash one's own top card (the trump
    ace a little earlier; in a suit contract only after the partner's ruff and near the partner's
    top under a ruff risk, and level with the low leads when an opponent could ruff the cash); then,
    when an opponent could ruff, lead to the partner's top anyway; then the other suits, low cards
    first, suits where the side holds more cards first, later when the fourth hand holds one of the
    suit's two top cards, sooner when the second hand holds the top card and the partner the next
    (bridge -2 to -4 % card plays), and much sooner when an opponent holds the top card and the
    side the next two (after one round the side holds the top; bridge -5 to -12 %); underleading
    one's own top card next to last; a suit both opponents are void in last of all.
    """
    s = _suit(c)
    r = c - 13 * s
    m = SUITM[s]
    hp = _hand(h0, h1, h2, h3, player)
    pt = _hand(h0, h1, h2, h3, player ^ 2)
    lho = _hand(h0, h1, h2, h3, (player + 1) & 3)
    rho = _hand(h0, h1, h2, h3, (player + 3) & 3)
    top = U(1) << U(13 * s + 12)
    ruffable = trump < 4 and s != trump
    tm = SUITM[trump] if trump < 4 else U(0)
    lho_ruff = ruffable and not lho & m and lho & tm
    rho_ruff = ruffable and not rho & m and rho & tm
    risk = lho_ruff or rho_ruff
    if not (lho | rho) & m:
        # both opponents are void in the suit: each may discard any card, so every trick of it
        # widens the proof by all their discards. Lead it last (a winner stays a winner): on one
        # deal, running such a suit early took over 1,000 times the plays (DDS has a term like
        # it); bridge -10 to -22 % card plays
        return 500 - r
    if hp & top:
        if r == 12:
            sc = 7500 if not risk else 5000
            if trump < 4:
                sc -= 2000  # in a suit contract: after a ruff for the partner (round 2)
            if s == trump:
                sc += 200
            return sc
        return 2000 - r  # underleading one's own top card
    if pt & top:
        return (8000 if not risk else 4500) - r
    if ruffable and not pt & m and pt & tm:
        # the partner ruffs: it stands unless an opponent void in s overruffs
        ptop = high_bit(pt & tm)
        over = (lho_ruff and high_bit(lho & tm) > ptop) or (rho_ruff and high_bit(rho & tm) > ptop)
        if not over:
            return 7800 - r
    sc = 3000 - r + 20 * popcount((hp | pt) & m & ~(U(1) << U(c)))
    if risk:
        sc -= 500
    # an opponent holds the top card here. A lead is at a trick boundary, where the live cards of
    # each suit hold its highest ranks (``canonical``): the next two cards are the two ranks below
    # the top (a bit nobody holds when the suit has fewer live cards)
    second = top >> U(1)
    third = top >> U(2)
    # later when the fourth hand holds one of the two top cards (he plays over whatever comes;
    # unless it is his only card of the suit), sooner when the second hand holds the top card and
    # the partner the next (unless the partner's card is his only one)
    if rho & (top | second):
        if popcount(rho & m) != 1:
            sc -= 800
    elif lho & top and pt & second and popcount(pt & m) != 1:
        sc += 1500
    if (hp | pt) & second and (hp | pt) & third:
        sc += 2000  # the side holds the 2nd and 3rd cards: the top after one round
    return sc


@numba.njit(**INLINE)
def _stands(h0, h1, h2, h3, leader, k, w, led, trump, good):
    """Does card ``w`` (winning the trick so far) stand against every seat still to play after
    position ``k`` (0 = the leader) that is not in ``good``?"""
    for j in range(k + 1, 4):
        q = (leader + j) & 3
        if not (good >> q) & 1 and _can_beat(_hand(h0, h1, h2, h3, q), w, led, trump):
            return False
    return True


@numba.njit(**INLINE)
def _partner_covers(h0, h1, h2, h3, leader, t0, led, trump):
    """Second hand (pair): can the fourth hand (the mover's partner) beat the led card ``t0``
    with a card that the third hand (the leader's partner) cannot beat? Order only."""
    p4 = _hand(h0, h1, h2, h3, (leader + 3) & 3)
    p3 = _hand(h0, h1, h2, h3, (leader + 2) & 3)
    f = p4 & SUITM[led]
    if f:
        x = high_bit(f)
    elif trump < 4 and p4 & SUITM[trump]:
        x = high_bit(p4 & SUITM[trump])
    else:
        return False
    return _beats(x, t0, trump) and not _can_beat(p3, x, led, trump)


@numba.njit(**INLINE)
def _stop_lead_score(h0, h1, h2, h3, player, c, trump, good):
    """Ordering score of leading card ``c`` (canonical) for one of three seats that keep the lone
    seat ``15 ^ good`` from tricks (whist-max; whist-exact while p wants tricks); higher is tried
    first. Only the speed depends on it, never a result.

    The three need no tricks of their own, only to beat the lone seat. Tried first: a side suit he
    is void in and cannot ruff (he discards); then a suit where they hold two or more cards above
    his highest (safe, and a guard is left); then a side suit he can ruff (it shortens his trumps);
    then a suit where a single card of theirs is above his (that promotes his top card); then
    trumps when he has none (they only free his winners); last a lead he wins. Low cards first.
    (Tuned on card plays of whist-max full deals: 5-18 % fewer than the general order.)
    """
    s = _suit(c)
    r = c - 13 * s
    m = SUITM[s]
    q = ctz(U(15 ^ good))
    hq = _hand(h0, h1, h2, h3, q)
    f = hq & m
    if f == 0:
        if s == trump:
            return 3500 - r  # he has no trumps: drawing theirs only frees his winners
        if trump == 4 or hq & SUITM[trump] == 0:
            return 9500 - r
        return 6000 - r
    x = high_bit(f)
    above = (h0 | h1 | h2 | h3) & ~hq & m & ~((U(2) << U(x)) - U(1))
    if c < x and above & ~_hand(h0, h1, h2, h3, player) == 0:
        return 1000 - r  # no partner can beat his top card: he wins this lead
    if popcount(above) >= 2:
        return 8000 - r
    return 4000 - r


@numba.njit(**INLINE)
def _gen_moves(h0, h1, h2, h3, k, leader, t0, t1, t2, trump, good, best_card, kill_card, WM, d,
               scores):
    """Write the ordered candidate cards of the player to move into ``WM[d]``; return their
    number. (The workspace array and the depth are passed, not the view ``WM[d]``: a view costs
    reference counting on every node; the helper is inlined into the search.)

    Only one card of each run of touching cards is listed (equivalent ranks). ``t0..t2``: the
    cards already played to this trick (``k`` of them). ``good``: the seats the mover would like
    to see win this trick. ``best_card``: a card to try first (from the transposition table) or
    -1. ``kill_card``: the killer move, the lead that most recently cut at this depth with the
    same leader after the first lead tried had failed (-1 for none; only leads have one), tried
    before ``best_card``. The order only affects speed, never a result.
    """
    player = (leader + k) & 3
    h = _hand(h0, h1, h2, h3, player)
    led = -1
    if k == 0:
        legal = h
    else:
        led = _suit(t0)
        legal = h & SUITM[led]
        if legal == 0:
            legal = h
    reps = legal & ~((legal >> U(1)) & NOT_TOPS)  # the top card of every run
    mover_good = (good >> player) & 1
    w = -1
    w_good = 0
    if k > 0:
        w, wi = _winning_so_far(k, t0, t1, t2, trump)
        w_good = (good >> ((leader + wi) & 3)) & 1
    # [ord] whist objectives (one seat against three): a partner's winning card that the lone
    # opponent still to play can beat is no sure winner; the mover then plays as if the trick
    # were lost so far (a card that surely wins, else the highest that beats, else the lowest).
    # Order only: the set of moves searched is unchanged.
    threat = (w_good == 1 and popcount(U(good)) == 3
              and not _stands(h0, h1, h2, h3, leader, k, w, led, trump, good))
    # bridge (the mover and his partner against the other two): own orderings, marked [pair]
    pair = popcount(U(good)) == 2
    n = 0
    m = reps
    while m:
        c = ctz(m)
        m &= m - U(1)
        s = _suit(c)
        r = c - 13 * s
        if c == kill_card:
            sc = 110000
        elif c == best_card:
            sc = 100000
        elif k == 0 and pair:
            sc = _pair_lead_score(h0, h1, h2, h3, player, c, trump)  # [pair] leads
        elif k == 0 and mover_good and popcount(U(good)) == 3:
            sc = _stop_lead_score(h0, h1, h2, h3, player, c, trump, good)  # [stop] leads
        elif k == 0:
            top_bit = U(1) << U(13 * s + 12)
            top_owner = -1
            for q in range(4):
                if _hand(h0, h1, h2, h3, q) & top_bit:
                    top_owner = q
            top_good = top_owner >= 0 and (good >> top_owner) & 1
            # can a seat we do not want to win ruff this suit?
            ruff_risk = False
            if trump < 4 and s != trump:
                for q in range(4):
                    if q != player and not (good >> q) & 1:
                        hq = _hand(h0, h1, h2, h3, q)
                        if hq & SUITM[s] == 0 and hq & SUITM[trump]:
                            ruff_risk = True
            if mover_good:
                # the lone seat wanting tricks (bridge pairs and the three have their own orders
                # above): cash a top card, else lead low, from a suit where he has more cards
                if top_owner == player and r == 12:
                    sc = 9000 if not ruff_risk else 5000
                    if s == trump:
                        sc += 200
                else:
                    sc = 3000 - r + 20 * popcount(h & SUITM[s] & ~(U(1) << U(c)))
                    if ruff_risk:
                        sc -= 500
            else:
                # the mover wants someone else to take the trick: lead low, into their winners
                sc = 5000 - 2 * r
                if top_good:
                    sc += 1000
                sc += _push_lead_bonus(h0, h1, h2, h3, c, good)
        else:
            b = _beats(c, w, trump)
            last = k == 3
            # would the card stand against the players still to play who should not win?
            sure = b
            if b and not last:
                for j in range(k + 1, 4):
                    q = (leader + j) & 3
                    if not (good >> q) & 1 and _can_beat(_hand(h0, h1, h2, h3, q), c, led, trump):
                        sure = False
            if (pair and k == 2 and w_good
                    and not _stands(h0, h1, h2, h3, leader, k, w, led, trump, good)):
                # [pair] third hand: the partner's card would be beaten by the fourth hand, so
                # play as if the trick were lost so far (win cheaply if sure, else high, else low)
                if sure:
                    sc = 9000 - r
                elif b:
                    sc = 5000 + r
                else:
                    sc = 4000 - r
            elif pair and k == 1 and not sure and _partner_covers(
                    h0, h1, h2, h3, leader, t0, led, trump):
                # [pair] second hand: the partner (fourth hand) can win over anything the third
                # hand plays, so play low (do not waste a card that cannot win surely)
                sc = 6000 - r - (2000 if b else 0)
            elif mover_good:
                if w_good and not threat:
                    # a partner is winning: play low, do not overtake
                    sc = 6000 - r - (2000 if b else 0)
                elif (not b and not w_good and popcount(U(good)) == 3 and k < 3
                      and not _stands(h0, h1, h2, h3, leader, k, w, led, trump, 15 ^ good)):
                    sc = 9500 - r  # a partner still to play beats the lone seat's card: duck
                elif sure:
                    sc = 9000 - r  # the cheapest card that surely wins
                elif b and popcount(U(good)) == 1:
                    # the lone seat (whist-max; whist-exact while he wants tricks) tries the
                    # cheapest card that beats the trick so far but may be beaten after him
                    # (the highest first, as the three do, took about 10 % more whist-max plays)
                    sc = 5000 - r
                elif b and pair and k == 1:
                    sc = 5000 - r  # [pair] second hand: the cheapest beater first
                elif b:
                    sc = 5000 + r  # try to win: highest first
                else:
                    sc = 4000 - r
                    if s != led and popcount(U(good)) == 1:
                        # the lone seat's discards: keep his trumps (ruffs may come), throw
                        # first from a suit where the others hold as many cards above his
                        # highest as he holds (about -2 % whist-max plays)
                        if s == trump:
                            sc -= 100
                        else:
                            mine = h & SUITM[s]
                            theirs = (h0 | h1 | h2 | h3) & SUITM[s] & ~mine
                            if popcount(theirs & _above(high_bit(mine))) >= popcount(mine):
                                sc += 20
            else:
                if not b:
                    sc = 8000 + r  # dump the highest card that does not win
                else:
                    sc = 3000 - r
        if pair and k > 0 and s != led and s != trump and c != best_card:
            # [pair] a discard: from the mover's longest suit first (then the lowest card)
            sc += 13 * popcount(h & SUITM[s])
        j = n
        while j > 0 and scores[j - 1] < sc:
            scores[j] = scores[j - 1]
            WM[d, j] = WM[d, j - 1]
            j -= 1
        scores[j] = sc
        WM[d, j] = c
        n += 1
    return n


# --------------------------------------------------------------------------- the search


@numba.njit(**INLINE)
def _meta(leader, mx, flip, mode):
    return U(leader) | (U(mx) << U(2)) | (U(flip) << U(6)) | (U(mode) << U(7))


@numba.njit(**INLINE)
def _bound_cut(h0, h1, h2, h3, ld, trump, win, mx, r, tg):
    """The cheap bounds (``_bounds``) at a trick-boundary node of a count search that still needs
    ``tg`` tricks: ``(resolved, val, bnd, rel)``, the answer and its proof when a bound settles the
    question."""
    blo, blo_rel, bhi, bhi_rel = _bounds(h0, h1, h2, h3, ld, trump, win, mx, r, tg, tg - 1)
    if blo >= tg:
        return True, True, blo, _close_up(blo_rel, h0, h1, h2, h3)
    if bhi < tg:
        return True, False, bhi, _close_up(bhi_rel, h0, h1, h2, h3)
    return False, False, 0, U(0)


@numba.njit(**NJIT)
def _search(mode, root, leader, target, trump, win, mx, p, ws, table, stats):
    """One null-window search from the canonical position ``root`` (``uint64[4]``).

    Mode 0: can the seats ``mx`` make the seats ``win`` take at least ``target`` tricks?
    Mode 1: can seat ``p`` make exactly ``target`` tricks against the other three?
    Returns 1 (yes), 0 (no) or ``UNSOLVED`` when the card plays reach ``stats[ST_STOP]``.
    ``ws``: the workspace (``new_workspace``); ``table``: the transposition table.

    Mode 0 is *fail-soft*: every resolved node also yields a bound on the count (from the start of
    its trick) that its proof shows, which may go beyond the question: a "yes" proves at least
    ``bnd >= target``, a "no" at most ``bnd < target``. A node whose moves all fail takes the best
    of their bounds, a cut takes its cutting move's, and the table stores the bound proved. The
    root's bound is left in ``stats[ST_BOUND]``; ``solve_count`` uses it to skip searches.

    Every resolved node also yields a *relevance* mask: the cards whose ranks the answer depends on
    (see docs/DD.md); a trick-boundary node stores its answer for every position that agrees with
    it on those cards and on the suit lengths.
    """
    WH, WI, WM, SC, WR, WK = ws
    for i in range(MAX_DEPTH):
        for j in range(4):
            WI[i, C_KILL + j] = -1  # killers start afresh: each search's plays depend on it alone
    gen = U(stats[ST_GEN])
    full_keys = stats[ST_FLAGS] & 1
    me = 1 << p
    if mode == MODE_EXACT:
        win = me
        mx = me
    flip = np.int64(win != mx)
    # [table first] whist-max looks a trick-boundary position up in the table before it computes
    # the cheap bounds: most positions its costly searches reach (the children of the three's
    # all-move nodes) are answered by the table (about -10 % time; the other objectives gain
    # nothing from it, whist-min's card plays rise)
    table_first = mode == MODE_COUNT and win == mx and popcount(U(win)) == 1
    # the card plays counter and the stop value, in registers (written back on return)
    plays = stats[ST_PLAYS]
    stop = stats[ST_STOP]
    if stop == 0:
        stop = np.int64(0x7FFFFFFFFFFFFFFF)  # no limit
    # [probe] whist-max: p's leads are probed (see PROBE_PLAYS)
    probing = (mode == MODE_COUNT and win == mx and popcount(U(win)) == 1
               and not stats[ST_FLAGS] & 2)
    probe_d = -1  # the node whose moves are being probed (-1: none)
    probe_stop = 0  # the value of ``plays`` at which the current probe gives up
    deferring = False
    d = 0
    for q in range(4):
        WH[0, q] = root[q]
    WI[0, C_K] = 0
    WI[0, C_LD] = leader
    WI[0, C_TG] = target
    WK[0, 0] = _len_sig(root[0], root[1], root[2], root[3])
    val = False
    bnd = 0
    rel = U(0)
    idx = 0
    while True:
        # ---------------------------------------------------------------- enter the node at d
        h0 = WH[d, 0]
        h1 = WH[d, 1]
        h2 = WH[d, 2]
        h3 = WH[d, 3]
        k = WI[d, C_K]
        ld = WI[d, C_LD]
        tg = WI[d, C_TG]
        resolved = False
        best = -1
        if probe_d >= 0 and plays >= probe_stop:
            # the probe ran out of card plays: back to the probed node, the move is deferred
            d = probe_d + 1
            resolved = True
            deferring = True
        elif k == 0:
            r = popcount(_hand(h0, h1, h2, h3, ld))
            WI[d, C_R] = r
            rel = U(0)
            if mode == MODE_COUNT:
                if tg <= 0:
                    resolved = True
                    val = True
                    bnd = 0
                elif tg > r:
                    resolved = True
                    val = False
                    bnd = r
            elif tg < 0 or tg > r:
                resolved = True
                val = False
            elif r == 0:
                resolved = True
                val = True
            if not resolved and r == 1:
                c0 = ctz(_hand(h0, h1, h2, h3, ld))
                c1 = ctz(_hand(h0, h1, h2, h3, (ld + 1) & 3))
                c2 = ctz(_hand(h0, h1, h2, h3, (ld + 2) & 3))
                c3 = ctz(_hand(h0, h1, h2, h3, (ld + 3) & 3))
                wi, rel = _trick(c0, c1, c2, c3, trump)
                got = (win >> ((ld + wi) & 3)) & 1
                resolved = True
                val = got >= tg if mode == MODE_COUNT else got == tg
                bnd = got
            if not resolved:
                sig = WK[d, 0]  # the suit lengths, kept up to date by the plays (``_sig_after``)
                olo = h1 | h3
                ohi = h2 | h3
            if not resolved and mode == MODE_COUNT:
                meta = _meta(ld, mx, flip, MODE_COUNT)
                WK[d, 0] = sig
                WK[d, 1] = meta
                if not table_first:
                    # the cheap bounds first, while the table's buckets load: a cut by them saves
                    # a table lookup (each cut is sound on its own, so the order changes only
                    # which proof and relevance is used)
                    _tt_prefetch(table, gen, sig, meta, olo, ohi)
                    resolved, val, bnd, rel = _bound_cut(h0, h1, h2, h3, ld, trump, win, mx, r, tg)
                if not resolved:
                    _, _, _, _, lo, lo_rel, hi, hi_rel, best = _tt_lookup(
                        table, gen, sig, meta, olo, ohi, tg, tg, 0
                    )
                    if lo >= tg:
                        resolved = True
                        val = True
                        bnd = lo
                        rel = lo_rel
                        stats[ST_TT_HITS] += 1
                    elif hi < tg:
                        resolved = True
                        val = False
                        bnd = hi
                        rel = hi_rel
                        stats[ST_TT_HITS] += 1
                    elif table_first:
                        resolved, val, bnd, rel = _bound_cut(h0, h1, h2, h3, ld, trump, win, mx, r,
                                                             tg)
            elif not resolved:
                # exact: sure tricks either way
                f, frel = _trump_floor(h0, h1, h2, h3, trump, me)
                if tg < f:
                    resolved = True
                    val = False
                    rel = _close_up(frel, h0, h1, h2, h3)
                if not resolved:
                    f, frel = _trump_floor(h0, h1, h2, h3, trump, 15 ^ me)
                    if tg > r - f:
                        resolved = True
                        val = False
                        rel = _close_up(frel, h0, h1, h2, h3)
                if not resolved and ld == p:
                    qt, qrel = _quick_tricks(h0, h1, h2, h3, ld, trump, 15 ^ me)
                    if qt == r:
                        # every card of p wins whatever he leads: he takes them all
                        resolved = True
                        val = tg == r
                        rel = _close_up(qrel, h0, h1, h2, h3)
                if not resolved:
                    # bounds known from the whist-max / whist-min searches of this position
                    meta = _meta(ld, me, 0, MODE_COUNT)
                    _, _, _, _, lo, lo_rel, hi, hi_rel, _ = _tt_lookup(
                        table, gen, sig, meta, olo, ohi, 99, tg, 0
                    )
                    if tg > hi:
                        resolved = True
                        val = False
                        rel = hi_rel
                if not resolved:
                    meta = _meta(ld, 15 ^ me, 1, MODE_COUNT)
                    _, _, _, _, lo, lo_rel, hi, hi_rel, _ = _tt_lookup(
                        table, gen, sig, meta, olo, ohi, tg + 1, -99, 0
                    )
                    if tg < lo:
                        resolved = True
                        val = False
                        rel = lo_rel
                if not resolved:
                    meta = _meta(ld, me, 0, MODE_EXACT)
                    WK[d, 0] = sig
                    WK[d, 1] = meta
                    a_or, a_rel, b_or, b_rel, _, _, _, _, _ = _tt_lookup(
                        table, gen, sig, meta, olo, ohi, 99, -99, 1 << tg
                    )
                    if (a_or >> tg) & 1:
                        resolved = True
                        val = True
                        rel = a_rel
                        stats[ST_TT_HITS] += 1
                    elif (b_or >> tg) & 1:
                        resolved = True
                        val = False
                        rel = b_rel
                        stats[ST_TT_HITS] += 1
            if not resolved:
                stats[ST_NODES] += 1
                WI[d, C_PLAYS] = plays
        elif mode == MODE_COUNT:
            # [trick then cash] inside a trick: a cooperating side surely wins it, then cashes
            # (see ``_trick_then_cash``); ``tg`` counts from the start of this trick
            t0 = WI[d - k, C_CARD]
            t1 = WI[d - k + 1, C_CARD] if k > 1 else -1
            t2 = WI[d - k + 2, C_CARD] if k > 2 else -1
            if not win & ~mx:
                n, nrel = _trick_then_cash(h0, h1, h2, h3, k, ld, t0, t1, t2, trump, win, tg)
                if n >= tg:
                    resolved = True
                    val = True
                    bnd = n
                    rel = _close_up(nrel, h0, h1, h2, h3)
            if not resolved and not mx & ~win:
                n, nrel = _trick_then_cash(h0, h1, h2, h3, k, ld, t0, t1, t2, trump, 15 ^ win,
                                           WI[d - k, C_R] - tg + 1)
                if WI[d - k, C_R] - n < tg:
                    resolved = True
                    val = False
                    bnd = WI[d - k, C_R] - n
                    rel = _close_up(nrel, h0, h1, h2, h3)
        if not resolved:
            player = (ld + k) & 3
            if mode == MODE_COUNT:
                good = win if (mx >> player) & 1 else 15 ^ win
            else:
                # if p still wants tricks he tries to win this one and the others try to stop
                # him; if he wants none, the roles turn round
                p_wants = tg > 0
                if player == p:
                    good = me if p_wants else 15 ^ me
                else:
                    good = 15 ^ me if p_wants else me
            t0 = WI[d - k, C_CARD] if k > 0 else -1
            t1 = WI[d - k + 1, C_CARD] if k > 1 else -1
            t2 = WI[d - k + 2, C_CARD] if k > 2 else -1
            kill = WI[d, C_KILL + ld] if k == 0 else -1
            n = _gen_moves(h0, h1, h2, h3, k, ld, t0, t1, t2, trump, good, best, kill, WM, d, SC)
            WI[d, C_N] = n
            WI[d, C_I] = 0
            WR[d] = U(0)
            WK[d, 2] = U(0)  # wildcard thresholds of the moves searched here (``_note_wild``)
            WI[d, C_PHASE] = 0
            WI[d, C_ACC] = -1 if (mx >> player) & 1 else 99
            if (probing and probe_d < 0 and k == 0 and n >= 2 and (mx >> ld) & 1
                    and WI[d, C_R] >= PROBE_MIN_TRICKS):
                WI[d, C_PHASE] = 1
                WI[d, C_DEFER] = 0
                probe_d = d
                probe_stop = plays + PROBE_PLAYS
            idx = 0
        else:
            # ------------------------------------------------------------ return (val, rel) upwards
            found = False
            while not found:
                if d == 0:
                    stats[ST_PLAYS] = plays
                    stats[ST_BOUND] = bnd
                    return 1 if val else 0
                d -= 1
                k = WI[d, C_K]
                ld = WI[d, C_LD]
                n = WI[d, C_N]
                player = (ld + k) & 3
                maxi = (mx >> player) & 1 == 1
                step = False  # go on with the next move of this node
                if deferring:
                    # [probe] the probe of this move ran out of card plays: search it later
                    deferring = False
                    WI[d, C_DEFER] |= np.int64(1) << WI[d, C_I]
                    step = True
                else:
                    if k == 3:
                        # the child is the next trick's position: map its relevance back to this
                        # trick's ranks and add the rank that won this trick, if one did
                        c0 = WI[d - 3, C_CARD]
                        c1 = WI[d - 2, C_CARD]
                        c2 = WI[d - 1, C_CARD]
                        c3 = WI[d, C_CARD]
                        a0, a1, a2, a3 = _sort4(c0, c1, c2, c3)
                        rel = _unsqueeze_one(rel, a3)
                        rel = _unsqueeze_one(rel, a2)
                        rel = _unsqueeze_one(rel, a1)
                        rel = _unsqueeze_one(rel, a0)
                        twi, trel = _trick(c0, c1, c2, c3, trump)
                        rel |= trel
                        # the child's bound counts from the next trick: add this trick
                        bnd += (win >> ((ld + twi) & 3)) & 1
                    if val == maxi:
                        cut = WM[d, WI[d, C_I]]
                        if WI[d, C_I] > 0:
                            # [killer] (read at leads only): a refutation the order missed; a
                            # first move that cut leaves the killer as it was (bridge -6 to -9 %
                            # plays against replacing it at every cut)
                            WI[d, C_KILL + ld] = cut
                        if WI[d, C_PHASE] == 1:
                            probe_d = -1  # [probe] a probe proved the cut: probing is over
                    else:
                        WR[d] |= rel
                        WK[d, 2] = _note_wild(WK[d, 2], WM[d, WI[d, C_I]], rel)
                        # fail-soft: the node's bound is the best of its moves' bounds (a
                        # wildcard sibling skipped later shares the proof, and so the bound, of
                        # the move that made it wild)
                        if maxi:
                            if bnd > WI[d, C_ACC]:
                                WI[d, C_ACC] = bnd
                        elif bnd < WI[d, C_ACC]:
                            WI[d, C_ACC] = bnd
                        step = True
                if step:
                    # the next move: a move that fails like a sibling already searched is skipped
                    # (no search needed); a probed node first tries every move with a budget of
                    # card plays, then searches the deferred ones in full
                    ph = WI[d, C_PHASE]
                    idx = WI[d, C_I] + 1
                    if ph != 2:
                        while idx < n and _is_wild(WK[d, 2], WM[d, idx]):
                            idx += 1
                        if ph == 1:
                            if idx < n:
                                probe_stop = plays + PROBE_PLAYS
                            else:
                                # every move probed: the deferred ones now, in full
                                probe_d = -1
                                ph = 2
                                WI[d, C_PHASE] = 2
                                idx = 0
                    if ph == 2:
                        while idx < n and (not (WI[d, C_DEFER] >> idx) & 1
                                           or _is_wild(WK[d, 2], WM[d, idx])):
                            idx += 1
                    if idx < n:
                        WI[d, C_I] = idx
                        found = True
                        break
                    cut = -1
                    val = not maxi
                    bnd = WI[d, C_ACC]
                    # every move was needed: the answer also relies on the merged equal ranks
                    led = _suit(WI[d - k, C_CARD]) if k > 0 else -1
                    rel = _close_up(WR[d], WH[d, 0], WH[d, 1], WH[d, 2], WH[d, 3])
                    rel = _extend_runs(rel, _legal(WH[d, player], led))
                if k == 0:
                    # a trick-boundary node resolved by search: store what it proved
                    h0 = WH[d, 0]
                    h1 = WH[d, 1]
                    h2 = WH[d, 2]
                    h3 = WH[d, 3]
                    if full_keys:
                        rel = h0 | h1 | h2 | h3
                    else:
                        rel = _close_up(rel, h0, h1, h2, h3)
                    if mode == MODE_EXACT:
                        stg = WI[d, C_TG]
                    else:
                        # fail-soft: store the bound proved, which may be stronger than the
                        # question asked (``_tt_store`` records "at least stg" / "below stg")
                        stg = bnd if val else bnd + 1
                    _tt_store(table, gen, WK[d, 0], WK[d, 1], h1 | h3, h2 | h3,
                              rel, WI[d, C_R], plays - WI[d, C_PLAYS],
                              mode == MODE_EXACT, val, stg, cut)
            h0 = WH[d, 0]
            h1 = WH[d, 1]
            h2 = WH[d, 2]
            h3 = WH[d, 3]
            k = WI[d, C_K]
            ld = WI[d, C_LD]
            tg = WI[d, C_TG]
        # ---------------------------------------------------------------- play move idx at d
        player = (ld + k) & 3
        c = WM[d, idx]
        WI[d, C_CARD] = c
        plays += 1
        if plays >= stop:  # (a search started at or past the stop gives up at its first play)
            stats[ST_PLAYS] = plays
            return UNSOLVED
        b = _bit(c)
        if player == 0:
            h0 ^= b
        elif player == 1:
            h1 ^= b
        elif player == 2:
            h2 ^= b
        else:
            h3 ^= b
        if k == 3:
            c0 = WI[d - 3, C_CARD]
            c1 = WI[d - 2, C_CARD]
            c2 = WI[d - 1, C_CARD]
            wi, _ = _trick(c0, c1, c2, c, trump)
            wseat = (ld + wi) & 3
            h0, h1, h2, h3 = _squeeze_trick(h0, h1, h2, h3, c0, c1, c2, c)
            WK[d + 1, 0] = _sig_after(WK[d - 3, 0], ld, c0, c1, c2, c)
            WI[d + 1, C_K] = 0
            WI[d + 1, C_LD] = wseat
            WI[d + 1, C_TG] = tg - ((win >> wseat) & 1)
        else:
            WI[d + 1, C_K] = k + 1
            WI[d + 1, C_LD] = ld
            WI[d + 1, C_TG] = tg
        WH[d + 1, 0] = h0
        WH[d + 1, 1] = h1
        WH[d + 1, 2] = h2
        WH[d + 1, 3] = h3
        d += 1


# --------------------------------------------------------------------------- drivers


@numba.njit(**NJIT)
def new_workspace():
    """The search's workspace: one row per depth (see ``_search``), allocated once per batch."""
    return (
        np.zeros((MAX_DEPTH, 4), np.uint64),  # hands by depth
        np.zeros((MAX_DEPTH, N_COLS), np.int64),  # integer columns by depth
        np.zeros((MAX_DEPTH, MOVE_SLOTS), np.int64),  # ordered candidate moves by depth
        np.zeros(MOVE_SLOTS, np.int64),  # move scores (scratch)
        np.zeros(MAX_DEPTH, np.uint64),  # relevance gathered by depth
        np.zeros((MAX_DEPTH, 3), np.uint64),  # table key (lengths, meta), wildcard thresholds
    )


@numba.njit(**NJIT)
def _ask(hands, leader, t, trump, win, mx, lo, hi, ws, table, stats):
    """One null-window search of :func:`solve_count`, "at least ``t``?": ``(got, lo, hi)``, the
    answer (``UNSOLVED`` when it ran out of card plays) and the bounds narrowed by it. Fail-soft:
    the search may prove more than the question asked (``stats[ST_BOUND]``)."""
    got = _search(MODE_COUNT, hands, leader, t, trump, win, mx, 0, ws, table, stats)
    if got == UNSOLVED:
        return got, lo, hi
    if got:
        return got, max(t, stats[ST_BOUND]), hi
    return got, lo, min(t - 1, stats[ST_BOUND])


@numba.njit(**NJIT)
def _climb_then_cap(hands, leader, trump, win, mx, share, lo, hi, ws, table, stats):
    """The whist objectives' driver for :func:`solve_count` (seat bit ``win``, maximised by
    the seats ``mx``; ``lo``/``hi`` the static bounds; ``share``: the climb's per cent of a node
    limit): ``(value, lo, hi)`` as there. Described for whist-max (``CLIMB_SHARE_PCT``); whist-min
    climbs the same way with ``MIN_CLIMB_SHARE_PCT``.

    First it climbs: "at least lo + 1?", and so on up. The "yes" searches below the value are
    cheap and leave in the table much of what the last two (the costly "yes" at the value and
    "no" above it) need, so on random deals it takes fewer card plays than starting in the middle
    of the bounds. But a climb stopped by the node limit proves only a lower bound, and the
    report's comparisons of contracts with whist-max mostly need the upper one. So under a node
    limit the climb gets ``CLIMB_SHARE_PCT`` % of the row's plays; a row it leaves unsolved spends
    the rest on "at least hi?" searches from the top, which each lower ``hi`` when they fail (and
    end at the climb's stopped question, resumed with the table's help, once ``hi = lo + 1``).
    Without a node limit it only climbs.
    """
    row_stop = stats[ST_STOP]
    if row_stop != 0:
        left = row_stop - stats[ST_PLAYS]
        stats[ST_STOP] = stats[ST_PLAYS] + max(1, left * share // 100)
    while lo < hi:
        got, lo, hi = _ask(hands, leader, lo + 1, trump, win, mx, lo, hi, ws, table, stats)
        if got == UNSOLVED:
            break
    stats[ST_STOP] = row_stop
    if row_stop != 0 and stats[ST_PLAYS] >= row_stop:
        return UNSOLVED, lo, hi  # no card plays left (a limit of 1: the climb took it)
    while lo < hi:
        got, lo, hi = _ask(hands, leader, hi, trump, win, mx, lo, hi, ws, table, stats)
        if got == UNSOLVED:
            return UNSOLVED, lo, hi
    return lo, lo, hi


@numba.njit(**INLINE)
def _pair_first_target(h0, h1, h2, h3, leader, trump, win, lo, hi):
    """Bridge's first MTD target for a full deal (13 tricks left): an estimate of the pair
    ``win``'s tricks, a little high. Only the speed depends on it, never a result.

    A search far from the value costs card plays (on random deals, starting at the true value
    would save about 10-13 % of bridge's plays against starting in the middle of the static
    bounds ``lo..hi``), and a first guess one too high costs about the same as the exact value,
    one too low much more. The estimate is a least-squares fit of the tricks on 500 random deals
    (seed 100, not the deals the speed was measured on): the pair's high-card points (A 4, K 3,
    Q 2, J 1), its trumps minus the opponents', whether it leads, no-trump, the static bounds,
    its short side suits (0-2 cards in the shorter hand, in a suit contract) and its longest
    combined suit; residual 1.1 tricks. Rounded up by half a trick it saves 1-5 % of the card
    plays on four other sets of random deals.
    """
    a = (win & 1) == 0  # the pair is seats 1 and 3
    ha = h1 if a else h0
    hb = h3 if a else h2
    hcp = 0
    longest = 0
    short = 0
    for s in range(4):
        ma = ha & SUITM[s]
        mb = hb & SUITM[s]
        both = ma | mb
        top = 13 * s + 12
        hcp += (4 * ((both >> U(top)) & U(1)) + 3 * ((both >> U(top - 1)) & U(1))
                + 2 * ((both >> U(top - 2)) & U(1)) + ((both >> U(top - 3)) & U(1)))
        la = popcount(ma)
        lb = popcount(mb)
        longest = max(longest, la + lb)
        if trump < 4 and s != trump:
            short += max(0, 2 - min(la, lb))
    est = -1.66 + 0.34 * hcp + 0.23 * lo + 0.23 * hi - 0.12 * longest
    if trump < 4:
        ours = popcount((ha | hb) & SUITM[trump])
        est += 0.44 * (2 * ours - 13) + 0.29 * short
    else:
        est += 0.08
    if (win >> leader) & 1:
        est -= 0.50
    return np.int64(np.floor(est + 0.5))


@numba.njit(**NJIT)
def solve_count(hands, leader, trump, win, mx, ws, table, stats):
    """Tricks of the seats ``win`` from the canonical position ``hands`` when the seats ``mx``
    maximise them and the others minimise them; MTD(f)-style null-window searches sharing the
    table.

    Returns ``(value, lo, hi)``: ``value`` is ``UNSOLVED`` when a search runs out of card plays
    (``stats[ST_STOP]``); ``lo <= value <= hi`` are the bounds proved so far (equal when solved).
    """
    r = popcount(hands[leader])
    if r == 0:
        return 0, 0, 0
    lo, _, hi, _ = _bounds(hands[0], hands[1], hands[2], hands[3], leader, trump, win, mx, r, 0, r)
    if win == mx and popcount(U(win)) == 1:
        # whist-max: climb, then cap from the top with what a node limit leaves
        return _climb_then_cap(hands, leader, trump, win, mx, CLIMB_SHARE_PCT, lo, hi, ws, table,
                               stats)
    if mx == 15 ^ win and popcount(U(win)) == 1:
        # whist-min: proving "at least t" is cheap (the pushing side shows one way), proving
        # "fewer than t" the costly part (every way of pushing must fail). Climbing from below
        # needs just one costly search, and a search stopped by a node limit still leaves a
        # useful lower bound; most of a limit goes to the climb, the rest caps from the top
        return _climb_then_cap(hands, leader, trump, win, mx, MIN_CLIMB_SHARE_PCT, lo, hi, ws,
                               table, stats)
    # bridge (the only objective left here) starts at an estimate on a full deal, else in the
    # middle (climbing took +9 % card plays on random deals)
    guess = (lo + hi + 1) // 2
    if r == 13:
        guess = _pair_first_target(hands[0], hands[1], hands[2], hands[3], leader, trump, win,
                                   lo, hi)
    while lo < hi:
        t = guess
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        got, lo, hi = _ask(hands, leader, t, trump, win, mx, lo, hi, ws, table, stats)
        if got == UNSOLVED:
            return UNSOLVED, lo, hi
        guess = lo + 1 if got else hi
    return lo, lo, hi


@numba.njit(**NJIT)
def _min_past(hands, leader, trump, me, cap, ws, table, stats):
    """Whist-min of seat bit ``me``, climbed from below only as far as whist-exact needs:
    ``(got, lo, hi)``.

    ``got`` = 1 when decided: either ``lo == hi`` (the value) or ``lo > cap`` (whist-min is
    proved above ``cap``, the value itself left open); ``UNSOLVED`` when a search runs out of card
    plays first. The climb is :func:`solve_count`'s for whist-min, stopped early: its costly
    searches are the last two, at and just above the value (docs/DD.md), and whist-exact with
    ``cap`` = whist-max needs neither when whist-min > whist-max (then p can make no number of
    tricks exactly), which is the common case on full deals.
    """
    r = popcount(hands[leader])
    if r == 0:
        return 1, 0, 0
    win = me
    mx = 15 ^ me
    lo, _, hi, _ = _bounds(hands[0], hands[1], hands[2], hands[3], leader, trump, win, mx, r, 0, r)
    while lo < hi and lo <= cap:
        got, lo, hi = _ask(hands, leader, lo + 1, trump, win, mx, lo, hi, ws, table, stats)
        if got == UNSOLVED:
            return UNSOLVED, lo, hi
    return 1, lo, hi


@numba.njit(**NJIT)
def solve_exact(hands, leader, trump, p, lo, hi, out, ws, table, stats):
    """Fill ``out[k]`` (int8): 1 if seat ``p`` can make exactly ``k`` tricks from here, else 0
    (``UNSOLVED`` for every ``k`` when a search runs out of card plays).

    ``lo``/``hi`` are p's whist-min and whist-max; outside them the answer is always 0.
    """
    for k in range(out.shape[0]):
        out[k] = 0
    for k in range(lo, hi + 1):
        got = _search(MODE_EXACT, hands, leader, k, trump, 1 << p, 1 << p, p, ws, table, stats)
        if got == UNSOLVED:
            for j in range(out.shape[0]):
                out[j] = UNSOLVED
            return
        out[k] = got


OBJ_BRIDGE = 0
OBJ_WHIST_MAX = 1
OBJ_WHIST_MIN = 2
OBJ_WHIST_EXACT = 3


@numba.njit(**NJIT)
def solve_rows(hands, trump, leader, seat, objective, out, out_lo, out_hi, out_exact, table, stats):
    """Solve every row of ``hands`` (``uint64[n, 4]``, real cards) for one objective.

    ``out[i]``: the tricks (int8) for bridge / whist-max / whist-min; for whist-exact ``out`` gets
    whist-max and ``out_exact[i, k]`` (int8) whether seat ``seat[i]`` can make exactly ``k`` tricks
    (decided, all 0, even with whist-max unsolved when whist-min is proved above its bounds).
    With ``stats[ST_LIMIT] > 0`` a row whose searches need more card plays than that is left
    ``UNSOLVED`` (``out[i]`` and, for whist-exact, every ``out_exact[i, k]``). ``out_lo[i]`` /
    ``out_hi[i]``: the bounds proved on the tricks (equal to ``out[i]`` for a solved row; for
    whist-exact, the bounds on whist-max).
    Consecutive rows with the same hands and trump share the transposition table (a table of
    strains x leaders, or the four seats of one deal, costs much less than independent solves).
    """
    n = hands.shape[0]
    ws = new_workspace()
    for i in range(n):
        same = (
            i > 0
            and trump[i] == trump[i - 1]
            and hands[i, 0] == hands[i - 1, 0]
            and hands[i, 1] == hands[i - 1, 1]
            and hands[i, 2] == hands[i - 1, 2]
            and hands[i, 3] == hands[i - 1, 3]
        )
        if not same:
            stats[ST_GEN] += 1
            if stats[ST_GEN] & ((1 << GEN_BITS) - 1) == 0:
                # the keys' generation bits wrap: empty the table for real (once in 65,535 groups)
                table[:] = U(0)
                stats[ST_GEN] += 1
        stats[ST_STOP] = stats[ST_PLAYS] + stats[ST_LIMIT] if stats[ST_LIMIT] > 0 else 0
        canon = canonical(hands[i])
        ld = np.int64(leader[i])
        tr = np.int64(trump[i])
        s = np.int64(seat[i])
        me = np.int64(1) << s
        if objective == OBJ_BRIDGE:
            team = me | (np.int64(1) << ((s + 2) & 3))
            v, lo, hi = solve_count(canon, ld, tr, team, team, ws, table, stats)
        elif objective == OBJ_WHIST_MAX:
            v, lo, hi = solve_count(canon, ld, tr, me, me, ws, table, stats)
        elif objective == OBJ_WHIST_MIN:
            v, lo, hi = solve_count(canon, ld, tr, me, 15 ^ me, ws, table, stats)
        else:
            row_stop = stats[ST_STOP]
            if row_stop != 0:
                stats[ST_STOP] = stats[ST_PLAYS] + max(
                    1, (row_stop - stats[ST_PLAYS]) * EXACT_MAX_SHARE_PCT // 100)
            v, lo, hi = solve_count(canon, ld, tr, me, me, ws, table, stats)
            stats[ST_STOP] = row_stop
            # whist-min only as far as needed: once proved above whist-max's upper bound hi,
            # nothing is made exactly (decided even when whist-max itself is not)
            got, mn, _ = _min_past(canon, ld, tr, me, hi, ws, table, stats)
            if got != UNSOLVED and mn > hi:
                for k in range(out_exact.shape[1]):
                    out_exact[i, k] = 0
            elif got == UNSOLVED or v == UNSOLVED:
                v = UNSOLVED
                for k in range(out_exact.shape[1]):
                    out_exact[i, k] = UNSOLVED
            else:
                # mn: whist-min (at most v here)
                solve_exact(canon, ld, tr, s, mn, v, out_exact[i], ws, table, stats)
                if out_exact[i, 0] == UNSOLVED:
                    v = UNSOLVED
        out[i] = v
        out_lo[i] = lo
        out_hi[i] = hi
