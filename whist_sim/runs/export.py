"""Export a simulation dataset to other formats: PBN files of its deals (:func:`export_pbn`);
and a JSON deal or game record as a PBN file of whole boards (:func:`export_record_pbn`).

One PBN board per deal, in deal order: the export tags bridge tools expect (Board = deal index + 1,
Dealer, Deal with whist-sim seats 0..3 as N, E, S, W) and the ``Whist*`` tags of
:func:`whist_sim.core.pbn.whist_tags` with the deal's outcome. The dataset is read one chunk at a
time, so a dataset larger than memory exports in bounded memory; the file is written to a temporary
name beside the target and renamed when complete, so an interrupted export leaves no half file
(a target that is not a regular file, such as a pipe or a device, is written in place). While it
writes, an export holds the lock of its target file (``<file>.whist-sim.lock`` beside it,
:mod:`whist_sim.runs.lock`): a second export to the same file is refused.
"""

from __future__ import annotations

import contextlib
import glob
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from tqdm.auto import tqdm

from ..core.pbn import PBN_HEADER, board_tags, format_pbn, format_pbn_board, whist_tags
from ..core.rules import Rules
from .dataset import TEMP_PREFIX, DatasetError, iter_chunks, load_manifest

HANDS_CHOICES = ("auto", "dealt", "play")


class ExportError(ValueError):
    """Export options that do not fit the dataset (or an output that cannot be written)."""


def _resolve_hands(hands: str, manifest: dict[str, Any]) -> str:
    if hands not in HANDS_CHOICES:
        raise ExportError(f"hands must be one of {', '.join(HANDS_CHOICES)}, got {hands!r}")
    stored = bool(manifest.get("store_dealt"))
    if hands == "auto":
        return "dealt" if stored else "play"
    if hands == "dealt" and not stored:
        raise ExportError(
            "the dataset has no hands as dealt (it was simulated without --store-dealt); "
            "use --hands play for the hands at the start of play"
        )
    return hands


def export_pbn(
    data: str | Path,
    out: str | Path | IO[str],
    *,
    hands: str = "auto",
    start: int = 0,
    count: int | None = None,
    partial: bool = False,
    event: str | None = None,
    progress: bool = False,
    on_board: Callable[[int], None] | None = None,
) -> int:
    """Write the deals ``start .. start+count-1`` of dataset ``data`` as a PBN file; return the
    number of boards written.

    ``out``: a file path (written atomically) or an open text stream. ``hands``: ``dealt`` (as
    dealt, before Frisch: needs ``simulate --store-dealt``), ``play`` (at the start of play, after
    Frisch) or ``auto`` (dealt when stored, else play); the ``WhistHands`` tag says which.
    ``count``: ``None`` = to the end. ``partial``: export the finished chunks of an unfinished run.
    ``event``: the Event tag [default: ``whist-sim <data>``].
    """
    manifest = load_manifest(data)
    players = manifest["rules"]["players"]
    which = _resolve_hands(hands, manifest)
    if start < 0:
        raise ExportError(f"start must be >= 0, got {start}")
    if count is not None and count < 0:
        raise ExportError(f"count must be >= 0, got {count}")
    total = manifest["deals"]
    if start >= total and total > 0:
        raise ExportError(f"start {start} is past the dataset's last deal ({total - 1})")
    stop = total if count is None else min(total, start + count)
    prefix = "dealt" if which == "dealt" else "hand"
    cols = ["deal", "dealer", "thrown_in", "trump", "declarer"]
    for name in (prefix, "contract", "tricks", "score"):
        cols += [f"{name}_{s}" for s in range(players)]
    ev = event if event is not None else f"whist-sim {data}"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in ev):
        raise ExportError(f"the Event tag (--event) must be one line without control "
                          f"characters, got {ev!r}")

    def write(f: IO[str]) -> int:
        n = 0
        f.write(PBN_HEADER)
        bar = tqdm(total=stop - start, unit="deal", desc="export", file=sys.stderr,
                   disable=not progress, dynamic_ncols=True)
        try:
            for df in iter_chunks(data, columns=cols, partial=partial):
                deal = df["deal"].to_numpy()
                if len(deal) == 0 or deal[-1] < start or deal[0] >= stop:
                    continue
                sel = df[(df["deal"] >= start) & (df["deal"] < stop)]
                rows = {c: sel[c].to_numpy() for c in cols}
                for i in range(len(sel)):
                    seats = range(players)
                    played = not bool(rows["thrown_in"][i])
                    extra = whist_tags(
                        seed=manifest["seed"], deal=int(rows["deal"][i]), hands=which,
                        thrown_in=not played, trump=int(rows["trump"][i]),
                        declarer=int(rows["declarer"][i]),
                        contracts=[rows[f"contract_{s}"][i] for s in seats] if played else (),
                        tricks=[rows[f"tricks_{s}"][i] for s in seats] if played else (),
                        scores=[rows[f"score_{s}"][i] for s in seats] if played else (),
                    )
                    tags = board_tags(
                        [int(rows[f"{prefix}_{s}"][i]) for s in seats],
                        board=int(rows["deal"][i]) + 1, dealer=int(rows["dealer"][i]),
                        event=ev, extra=extra,
                    )
                    if n:
                        f.write("\n")
                    f.write(format_pbn_board(tags))
                    n += 1
                    if on_board is not None:
                        on_board(n)
                bar.update(len(sel))
        finally:
            bar.close()
        return n

    return _write_out(out, write)


def _write_out(out: str | Path | IO[str], write: Callable[[IO[str]], int]) -> int:
    """``write`` into the stream ``out``, or into the file ``out`` atomically (a temporary name
    beside it, renamed when complete)."""
    if not isinstance(out, (str, Path)):
        return write(out)
    target = Path(out)
    if target.is_dir():
        raise ExportError(f"{target} is a directory; give a file name such as deals.pbn")
    if target.exists() and not target.is_file():  # a device or a pipe: written in place
        with open(target, "w", encoding="utf-8", newline="\n") as f:
            return write(f)
    lock = None
    if target.parent.is_dir():  # else opening the temporary file says what is wrong
        from .lock import FolderLock, FolderLockError

        # one writer per file (the lock file beside it): a second export to the same file is
        # refused at once, naming the running one
        try:
            lock = FolderLock(target, "whist-sim export", is_file=True).acquire()
        except FolderLockError as e:
            raise ExportError(str(e)) from None
    try:
        # the temporary files of exports to this file that were killed (no one else writes it)
        for old in target.parent.glob(f"{TEMP_PREFIX}{glob.escape(target.name)}.*"):
            with contextlib.suppress(OSError):
                old.unlink()
        tmp = target.with_name(f"{TEMP_PREFIX}{target.name}.{os.getpid()}")
        try:
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                n = write(f)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
    finally:
        if lock is not None:
            lock.release()
    return n


def export_record_pbn(source: str | Path, out: str | Path | IO[str],
                      rules: Rules | None = None) -> int:
    """Write the JSON record in file ``source`` (a deal record, RULES §10, or a game record, §11)
    as a PBN file of whole boards (calls, Frisch passes, contracts, play: docs/PBN.md); return the
    number of boards. The record is checked first: one that breaks a rule raises
    :class:`~whist_sim.engine.record.RecordError` and nothing is written. ``rules``: for a record
    without its own."""
    from ..engine.pbn_record import game_boards, record_board
    from ..engine.record import RecordError, is_game_record, load_record

    record = load_record(source)
    if is_game_record(record):
        boards = game_boards(record, rules)
    elif isinstance(record, dict):
        boards = [record_board(record, rules, event=f"whist-sim record {Path(source).name}")]
    else:
        raise RecordError(f"a record must be a JSON object, got {type(record).__name__}")
    text = format_pbn(boards)

    def write(f: IO[str]) -> int:
        f.write(text)
        return len(boards)

    return _write_out(out, write)


__all__ = ["HANDS_CHOICES", "DatasetError", "ExportError", "export_pbn", "export_record_pbn"]
