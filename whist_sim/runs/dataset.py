"""Simulation datasets on disk: the result schema, chunk files, the manifest and :func:`load`.

A dataset is a directory written by :func:`whist_sim.runs.simulate.simulate`::

    DIR/_manifest.parquet      the run: options (seed, deals, chunk size, rules, policies),
                               the versions of whist-sim, Python and the libraries that write
                               the chunks, deal counts, status and timings (JSON, in the
                               metadata of a Parquet file with no rows; :func:`load_manifest`)
    DIR/chunk-00000.parquet    deals 0 .. chunk_size-1
    DIR/chunk-00001.parquet    deals chunk_size .. 2*chunk_size-1
    ...

Every chunk file holds one row per deal, in deal order, with the columns of :data:`SCHEMA`
(one row group; the ``deal`` column is the deal index in the run, whose random stream is
``(seed, deal)``). Chunk files are written atomically (a temporary file in the same directory,
then ``os.replace``) with fixed writer options and no timestamps, so a chunk is byte-for-byte the
same whichever thread, process or Dask worker wrote it (with the same pyarrow version). Runs with
different chunk sizes give different files but the same table: the chunks concatenated in index
order are identical.

Every file of a finished dataset is Parquet, so any Parquet reader reads the folder as it is:
``pd.read_parquet(DIR)``, ``pyarrow.dataset.dataset(DIR)``, Dask, polars (``pl.read_parquet(DIR)``,
which refuses a folder holding any other kind of file, hidden ones too) and DuckDB
(``read_parquet('DIR/*.parquet')``). The manifest is a Parquet file with the dataset's columns and
no rows, the manifest's JSON text in its key-value metadata (key ``whist_sim.manifest``), like the
``_common_metadata`` file of Dask and Spark datasets: pyarrow, pandas and Dask skip it (its name
starts with ``_``), polars and DuckDB read its zero rows. Datasets written before (with
``_manifest.json``, or an older ``manifest.json``) still load and resume; a resumed run replaces
their manifest with ``_manifest.parquet``. A run holds the lock file ``DIR/.whist-sim.lock`` while
it writes, so two runs never write one folder, and removes it when it ends.

Result schema (one row per deal; ``P = rules.players``; per-seat columns ``<name>_s`` exist for
seats ``s = 0..P-1`` only; encodings as in docs/ENGINE.md §1):

=============== ======== ===================================================================
column          dtype    meaning
=============== ======== ===================================================================
deal            int64    deal index in the run (random stream ``(seed, deal)``)
dealer          int8     seat of the dealer, ``deal % P``
declarer        int8     seat of the declarer; -1 if thrown in
trump           int8     0..3 = C, D, H, S; 4 = NT; -1 if thrown in
level           int8     auction level of the winning bid; 0 if thrown in
frisch          int8     number of Frisches played, 0..3
thrown_in       bool     the deal was thrown in (RULES §3)
n_calls         int16    number of auction calls across all rounds
removed_card    int8     card removed by ``three_player_deck=one_random``, else -1
hand_s          uint64   hand of seat s at the start of play (after Frisch), a card bitmask
contract_s      int8     contract of seat s; -1 if thrown in
tricks_s        int8     tricks taken by seat s; -1 if thrown in
score_s         int16    score of seat s (RULES §6); 0 if thrown in
bid_sum         int8     sum of the contracts; -1 if thrown in
over            bool     ``bid_sum > n_tricks`` (False if thrown in)
dealt_s         uint64   only with ``store_dealt``: hand of seat s as dealt, before Frisch
redeals         int8     only with ``after_third_frisch=redeal``: times the deal was cancelled
                         after the third Frisch and dealt again by the same dealer (RULES §3)
dd_max_s        int8     only with ``dd``: whist-max of seat s (docs/DD.md) for ``hand_*``, the
                         deal's trump and the declarer on lead (RULES §5); -1 if thrown in or
                         unsolved (over the node limit)
dd_min_s        int8     only with ``dd``: whist-min of seat s, likewise
dd_max_lo_s     int8     only with ``dd``: lower bound proved on ``dd_max_s`` (= it when solved;
                         -1 if thrown in)
dd_max_hi_s     int8     only with ``dd``: upper bound proved on ``dd_max_s``
dd_min_lo_s     int8     only with ``dd``: lower bound proved on ``dd_min_s``
dd_min_hi_s     int8     only with ``dd``: upper bound proved on ``dd_min_s``
=============== ======== ===================================================================

The ``dd`` columns exist only in runs made with ``dd`` (``simulate --dd``, four players only;
see :mod:`whist_sim.runs.dd_columns`); the manifest's ``dd`` entry records their options (``null``
for a run without them).

The bidding position of seat ``s`` (0 = declarer ... P-1 = the hooked last bidder) is
``(s - declarer) % P``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

MANIFEST_NAME = "_manifest.parquet"  # no rows: the schema, and the manifest in its metadata
JSON_MANIFEST_NAME = "_manifest.json"  # the manifest of earlier versions (plain JSON)
LEGACY_MANIFEST_NAME = "manifest.json"  # the manifest of the first versions (plain JSON)
#: every manifest name, newest first: a folder's manifest is the first of these it holds
MANIFEST_NAMES = (MANIFEST_NAME, JSON_MANIFEST_NAME, LEGACY_MANIFEST_NAME)
MANIFEST_META_KEY = b"whist_sim.manifest"
LOCK_NAME = ".whist-sim.lock"  # held by the run writing the folder (also skipped by readers)
FORMAT_NAME = "whist-sim-dataset"
FORMAT_VERSION = 1
CHUNK_RE = re.compile(r"^chunk-(\d{5,})\.parquet$")
TEMP_PREFIX = ".tmp-"  # temporary files of atomic writes: .tmp-<target name>.<unique>
CHUNK_META_KEY = b"whist_sim.chunk"


class DatasetError(ValueError):
    """A dataset directory that is missing, incomplete, corrupt or not a whist-sim dataset."""


@dataclass(frozen=True)
class Column:
    """One column of the result schema.

    ``per_seat`` columns are stored as ``<name>_0`` .. ``<name>_{P-1}``; ``store_dealt`` columns
    exist only in runs made with ``store_dealt=True``, ``dd`` columns only in runs with
    double-dummy columns (``simulate --dd``), ``redeal`` columns only in runs with the rule
    ``after_third_frisch=redeal``.
    """

    name: str
    dtype: str
    description: str
    per_seat: bool = False
    store_dealt: bool = False
    dd: bool = False
    redeal: bool = False


#: The result schema, in file column order (see the module docstring for the table).
SCHEMA: tuple[Column, ...] = (
    Column("deal", "int64", "deal index in the run; its random stream is (seed, deal)"),
    Column("dealer", "int8", "seat of the dealer, deal % P"),
    Column("declarer", "int8", "seat of the declarer; -1 if thrown in"),
    Column("trump", "int8", "0..3 = C, D, H, S; 4 = NT; -1 if thrown in"),
    Column("level", "int8", "auction level of the winning bid; 0 if thrown in"),
    Column("frisch", "int8", "number of Frisches played, 0..3"),
    Column("thrown_in", "bool", "the deal was thrown in"),
    Column("n_calls", "int16", "number of auction calls across all rounds"),
    Column("removed_card", "int8", "card removed by three_player_deck=one_random, else -1"),
    Column("hand", "uint64", "hand of the seat at the start of play (after Frisch)", per_seat=True),
    Column("contract", "int8", "contract of the seat; -1 if thrown in", per_seat=True),
    Column("tricks", "int8", "tricks taken by the seat; -1 if thrown in", per_seat=True),
    Column("score", "int16", "score of the seat (RULES §6); 0 if thrown in", per_seat=True),
    Column("bid_sum", "int8", "sum of the contracts; -1 if thrown in"),
    Column("over", "bool", "bid_sum > n_tricks (False if thrown in)"),
    Column(
        "dealt", "uint64", "hand of the seat as dealt, before Frisch",
        per_seat=True, store_dealt=True,
    ),
    Column("redeals", "int8", "times the deal was dealt again after the third Frisch", redeal=True),
    Column(
        "dd_max", "int8",
        "whist-max of the seat for its hand, trump and declarer on lead; -1 if thrown in or "
        "unsolved", per_seat=True, dd=True,
    ),
    Column(
        "dd_min", "int8",
        "whist-min of the seat for its hand, trump and declarer on lead; -1 if thrown in or "
        "unsolved", per_seat=True, dd=True,
    ),
    Column("dd_max_lo", "int8", "lower bound proved on dd_max; -1 if thrown in",
           per_seat=True, dd=True),
    Column("dd_max_hi", "int8", "upper bound proved on dd_max; -1 if thrown in",
           per_seat=True, dd=True),
    Column("dd_min_lo", "int8", "lower bound proved on dd_min; -1 if thrown in",
           per_seat=True, dd=True),
    Column("dd_min_hi", "int8", "upper bound proved on dd_min; -1 if thrown in",
           per_seat=True, dd=True),
)


def columns(
    players: int, store_dealt: bool = False, dd: bool = False, redeal: bool = False
) -> list[tuple[str, np.dtype]]:
    """The ``(name, numpy dtype)`` of every stored column, in file order, for ``players`` seats
    (``dd``: with the double-dummy columns, four players only)."""
    if players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, got {players!r}")
    if dd and players != 4:
        raise ValueError(f"double-dummy columns need four players, got players={players}")
    out: list[tuple[str, np.dtype]] = []
    for col in SCHEMA:
        if ((col.store_dealt and not store_dealt) or (col.dd and not dd)
                or (col.redeal and not redeal)):
            continue
        names = [f"{col.name}_{s}" for s in range(players)] if col.per_seat else [col.name]
        out.extend((n, np.dtype(col.dtype)) for n in names)
    return out


def arrow_schema(
    players: int, store_dealt: bool = False, dd: bool = False, redeal: bool = False
) -> pa.Schema:
    """The Arrow schema of a chunk file (no metadata)."""
    cols = columns(players, store_dealt, dd, redeal)
    return pa.schema([pa.field(n, pa.from_numpy_dtype(dt), nullable=False) for n, dt in cols])


# --------------------------------------------------------------------------- file names


def chunk_name(index: int) -> str:
    """File name of chunk ``index`` (0-based): ``chunk-00000.parquet``."""
    return f"chunk-{index:05d}.parquet"


def chunk_bounds(index: int, deals: int, chunk_size: int) -> tuple[int, int]:
    """``(start, count)``: chunk ``index`` holds deals ``start .. start+count-1``."""
    start = index * chunk_size
    return start, min(chunk_size, deals - start)


def n_chunks(deals: int, chunk_size: int) -> int:
    """Number of chunks of a run of ``deals`` deals in chunks of ``chunk_size``."""
    return -(-deals // chunk_size)


def _temp_path(target: Path) -> Path:
    return target.with_name(f"{TEMP_PREFIX}{target.name}.{os.getpid()}.{uuid.uuid4().hex}")


def atomic_write_bytes(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` atomically: temporary file beside it, fsync, ``os.replace``."""
    target = Path(target)
    tmp = _temp_path(target)
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def remove_temp_files(directory: Path) -> list[Path]:
    """Delete leftovers of interrupted atomic writes (``.tmp-*`` files) in ``directory``."""
    removed = []
    for p in Path(directory).glob(f"{TEMP_PREFIX}*"):
        with contextlib.suppress(OSError):
            p.unlink()
            removed.append(p)
    return removed


# --------------------------------------------------------------------------- chunk files

# Fixed writer options: the bytes of a chunk depend only on its contents and the pyarrow version.
_WRITE_OPTIONS: dict[str, Any] = dict(
    version="2.6",
    use_dictionary=True,
    compression="zstd",
    compression_level=3,
    write_statistics=True,
    data_page_version="1.0",
    store_schema=True,
    write_page_checksum=True,
)


def chunk_table(
    arrays: Mapping[str, np.ndarray],
    players: int,
    store_dealt: bool,
    index: int,
    start: int,
    dd: bool = False,
    redeal: bool = False,
) -> pa.Table:
    """The Arrow table of one chunk from the kernel's column arrays (and, with ``dd``, the
    double-dummy columns), checking names and values.

    Arrays are cast to the schema dtypes with a safe cast (a value that does not fit is an error).
    """
    cols = columns(players, store_dealt, dd, redeal)
    names = [n for n, _ in cols]
    missing = [n for n in names if n not in arrays]
    extra = sorted(set(arrays) - set(names))
    if missing or extra:
        raise ValueError(
            f"chunk {index}: result columns do not match the schema "
            f"(missing: {', '.join(missing) or '-'}; unexpected: {', '.join(extra) or '-'})"
        )
    lengths = {len(arrays[n]) for n in names}
    if len(lengths) != 1:
        raise ValueError(f"chunk {index}: result columns have different lengths {sorted(lengths)}")
    count = lengths.pop()
    schema = arrow_schema(players, store_dealt, dd, redeal)
    data = [pa.array(np.asarray(arrays[n]), type=schema.field(n).type) for n in names]
    meta = json.dumps({"chunk": index, "start": start, "count": count}, sort_keys=True)
    return pa.Table.from_arrays(data, schema=schema.with_metadata({CHUNK_META_KEY: meta.encode()}))


def write_chunk(path: Path, table: pa.Table) -> int:
    """Write one chunk table to ``path`` atomically with the fixed options; return the file size."""
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, row_group_size=max(1, table.num_rows), **_WRITE_OPTIONS)
    data = sink.getvalue().to_pybytes()
    atomic_write_bytes(Path(path), data)
    return len(data)


def check_chunk(
    path: Path, index: int, start: int, count: int, players: int, store_dealt: bool,
    dd: bool = False, redeal: bool = False,
) -> str | None:
    """Validate a chunk file; return ``None`` if it is sound, else the reason it is not.

    Sound means: readable with every page checksum verified, the expected columns and dtypes,
    ``count`` rows, and a ``deal`` column equal to ``start .. start+count-1``.
    """
    path = Path(path)
    if not path.is_file():
        return "missing"
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        if pf.metadata.num_rows != count:
            return f"holds {pf.metadata.num_rows} rows, expected {count}"
        expected = arrow_schema(players, store_dealt, dd, redeal)
        if not pf.schema_arrow.remove_metadata().equals(expected):
            return "its columns do not match the run's schema"
        table = pf.read()
    except (OSError, pa.ArrowException, ValueError) as e:  # truncated, garbled, not Parquet
        first = str(e).splitlines()[0] if str(e) else ""
        return f"unreadable: {type(e).__name__}: {first}"
    deal = table.column("deal").to_numpy()
    if not np.array_equal(deal, np.arange(start, start + count, dtype=np.int64)):
        return f"its deal column is not the range {start}..{start + count - 1}"
    return None


# --------------------------------------------------------------------------- manifest


def manifest_path(directory: str | Path) -> Path | None:
    """The manifest file of the dataset in ``directory`` (``_manifest.parquet``, or an earlier
    version's ``_manifest.json`` or ``manifest.json``); ``None`` if it has none."""
    for name in MANIFEST_NAMES:
        f = Path(directory) / name
        if f.is_file():
            return f
    return None


def manifest_schema(manifest: Mapping[str, Any]) -> pa.Schema:
    """The Arrow schema of the chunks of the dataset described by ``manifest``."""
    return arrow_schema(manifest["rules"]["players"], manifest["store_dealt"], has_dd(manifest),
                        has_redeals(manifest))


def write_manifest(directory: Path, manifest: Mapping[str, Any]) -> None:
    """Write ``_manifest.parquet`` atomically: a Parquet file with the dataset's columns and no
    rows, the manifest as JSON (sorted keys, indented) in its key-value metadata. The manifests of
    earlier versions (``_manifest.json``, ``manifest.json``) are removed once it is in place."""
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    schema = manifest_schema(manifest).with_metadata({MANIFEST_META_KEY: text.encode()})
    sink = pa.BufferOutputStream()
    pq.write_table(schema.empty_table(), sink, **_WRITE_OPTIONS)
    atomic_write_bytes(Path(directory) / MANIFEST_NAME, sink.getvalue().to_pybytes())
    for name in MANIFEST_NAMES[1:]:
        with contextlib.suppress(FileNotFoundError):
            (Path(directory) / name).unlink()


def _manifest_text(mf: Path) -> str:
    """The JSON text of manifest file ``mf`` (Parquet metadata, or a plain JSON file)."""
    if mf.name != MANIFEST_NAME:
        return mf.read_text()
    try:
        meta = pq.read_schema(mf).metadata or {}
    except (OSError, pa.ArrowException) as e:
        raise DatasetError(f"{mf} is unreadable: {e}") from None
    if MANIFEST_META_KEY not in meta:
        raise DatasetError(f"{mf} is not a whist-sim dataset manifest (no "
                           f"{MANIFEST_META_KEY.decode()} metadata)")
    return meta[MANIFEST_META_KEY].decode()


def load_manifest(path: str | Path) -> dict[str, Any]:
    """The manifest of the dataset in directory ``path`` (a dict; see
    :mod:`whist_sim.runs.simulate`)."""
    p = Path(path)
    if not p.exists():
        raise DatasetError(f"{p}: no such directory")
    mf = manifest_path(p)
    if mf is None:
        raise DatasetError(f"{p} is not a whist-sim dataset: it has no {MANIFEST_NAME}")
    try:
        manifest = json.loads(_manifest_text(mf))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise DatasetError(f"{mf} is unreadable: {e}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise DatasetError(f"{mf} is not a whist-sim dataset manifest")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise DatasetError(
            f"{mf} has dataset format version {manifest.get('format_version')!r}; "
            f"this whist-sim reads version {FORMAT_VERSION}"
        )
    return manifest


# --------------------------------------------------------------------------- reading


def has_dd(manifest: Mapping[str, Any]) -> bool:
    """Whether the dataset of ``manifest`` has the double-dummy columns (``simulate --dd``)."""
    return bool(manifest.get("dd"))


def has_redeals(manifest: Mapping[str, Any]) -> bool:
    """Whether the dataset of ``manifest`` has the ``redeals`` column (its rules redeal after
    the third Frisch)."""
    return manifest["rules"].get("after_third_frisch", "pass") == "redeal"


def _dataset_columns(manifest: Mapping[str, Any]) -> list[str]:
    return [n for n, _ in columns(manifest["rules"]["players"], manifest["store_dealt"],
                                  has_dd(manifest), has_redeals(manifest))]


def _select(manifest: Mapping[str, Any], cols: Sequence[str] | None) -> list[str] | None:
    if cols is None:
        return None
    if isinstance(cols, str):
        cols = [cols]
    available = _dataset_columns(manifest)
    unknown = [c for c in cols if c not in available]
    if unknown:
        raise DatasetError(
            f"unknown column(s) {', '.join(map(repr, unknown))}; "
            f"this dataset has: {', '.join(available)}"
        )
    return list(cols)


def _chunk_files(path: Path, manifest: Mapping[str, Any], partial: bool) -> list[Path]:
    total = manifest["n_chunks"]
    files = [path / chunk_name(i) for i in range(total)]
    present = [f for f in files if f.is_file()]
    if len(present) < total and not partial:
        raise DatasetError(
            f"{path}: the run is incomplete ({len(present)} of {total} chunks); finish it with "
            "`whist-sim simulate ... --resume`, or read only the finished chunks (`whist-sim "
            "report --partial`; in Python `load(..., partial=True)`)"
        )
    return present


def iter_chunks(
    path: str | Path, columns: Sequence[str] | None = None, partial: bool = False
) -> Iterator[pd.DataFrame]:
    """Yield the dataset one chunk at a time, in deal order (memory bounded by one chunk).

    ``columns`` projects (only those columns are read). Each frame has the manifest in
    ``df.attrs["manifest"]``. With ``partial=True`` an unfinished run yields its finished chunks.
    """
    p = Path(path)
    manifest = load_manifest(p)
    cols = _select(manifest, columns)
    for f in _chunk_files(p, manifest, partial):
        df = _read_table(f, cols).to_pandas()
        df.attrs["manifest"] = manifest
        yield df


def _read_table(f: Path, cols: list[str] | None) -> pa.Table:
    try:
        return pq.read_table(f, columns=cols).replace_schema_metadata(None)
    except (OSError, pa.ArrowException) as e:
        raise DatasetError(f"{f} is unreadable ({e}); re-run with --resume to repair it") from None


def load(
    path: str | Path, columns: Sequence[str] | None = None, partial: bool = False
) -> pd.DataFrame:
    """Load a simulation dataset as one DataFrame, one row per deal in deal order.

    ``path`` is the directory written by ``simulate``; ``columns`` reads only those columns (use it
    for large runs: a 100-million-deal run is ~4 GB in full, 100 MB per int8 column). The manifest
    (a dict: seed, deals, rules, policies, ...) is in ``df.attrs["manifest"]``. An unfinished run is
    an error unless ``partial=True``, which reads the finished chunks only.
    """
    p = Path(path)
    manifest = load_manifest(p)
    cols = _select(manifest, columns)
    files = _chunk_files(p, manifest, partial)
    if files:
        table = pa.concat_tables([_read_table(f, cols) for f in files])
        df = table.to_pandas(self_destruct=True, split_blocks=True)
        del table
    else:
        names = cols if cols is not None else _dataset_columns(manifest)
        df = manifest_schema(manifest).empty_table().select(names).to_pandas()
    df.attrs["manifest"] = manifest
    return df
