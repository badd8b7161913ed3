"""Transposition table of the double-dummy search (numba): layout, lookup, store.

An entry stores a proof about a trick-boundary position *pattern* (suit lengths, leader, question,
owners of the relevant cards; lower cards are wildcards, see ``canon``): for a counting question
a lower and an upper bound on the count from the start of the trick, for an exact question the
masks of makeable and unmakeable trick counts; and the best lead (layout ``W_*``, ``E_*``; see
``new_table`` and ``_tt_store``). Each (suit lengths, question) pair has a *home* bucket; entries
that do not fit there go to the bucket of their *top class* (how many top cards of each suit the
proof names, and their owners), so that a probe, which cannot know an entry's relevance, tries
the home and then the bucket of each class the home's presence row lists (``_tt_lookup``).
"""

from __future__ import annotations

import numba
import numpy as np

from ._bits import INLINE, NJIT, ctz, high_bit, popcount, prefetch
from .canon import SUIT_BITS, U, _top_run

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


def new_table(tt_bits: int = 20):
    """Allocate one thread's transposition table (``2**tt_bits`` entries).

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
    Entries carry a generation stamp: bumping the search's ``stats[ST_GEN]`` empties the table in
    O(1).
    Memory: 48 bytes per entry.
    """
    return np.zeros(((1 << tt_bits) // WAYS, BUCKET_WORDS), np.uint64)


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
