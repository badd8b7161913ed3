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
import hashlib
import json
import os
import re
import uuid
import warnings
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


#: the manifest fields that define a run's data; a chunk carries their hash (its run identity)
IDENTITY_KEYS = ("seed", "deals", "chunk_size", "rules", "bid", "play", "store_dealt", "dd",
                 "engine")
STATUSES = ("running", "complete", "interrupted", "failed")
MAX_MANIFEST_BYTES = 512 * 1024 * 1024  # a run of a million chunks has a manifest of ~150 MB
#: most chunks (tasks) of one run: its manifest, with a checksum per chunk, stays readable
#: (~300 MB, under :data:`MAX_MANIFEST_BYTES`) and its lists of chunks fit in memory
MAX_CHUNKS = 2_000_000


class DatasetError(ValueError):
    """A dataset directory that is missing, incomplete, corrupt or not a whist-sim dataset."""


class UnverifiedChunksWarning(UserWarning):
    """A dataset written before chunks carried checksums: read, but checked by structure only."""


def options_hash(identity: Mapping[str, Any]) -> str:
    """The hash of a run's options (the :data:`IDENTITY_KEYS` but the seed, from a manifest or
    the identity of a new run): 16 hex digits of the SHA-256 of their sorted JSON."""
    d = {k: identity.get(k) for k in IDENTITY_KEYS if k != "seed"}
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def file_sha256(data: bytes) -> str:
    """The checksum of a chunk file's bytes recorded in the manifest (hex SHA-256)."""
    return hashlib.sha256(data).hexdigest()


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


def min_chunk_size(deals: int) -> int:
    """The smallest chunk size that cuts ``deals`` into at most :data:`MAX_CHUNKS` chunks."""
    return max(1, -(-deals // MAX_CHUNKS))


def too_many_chunks(deals: int, chunk_size: int, items: str = "deals",
                    option: str = "--deals") -> str | None:
    """Why ``deals`` items in chunks of ``chunk_size`` cannot be run (more than
    :data:`MAX_CHUNKS` chunks: the run's lists and manifest would not fit), in one line naming
    the options; ``None`` when they can."""
    n = n_chunks(deals, chunk_size)
    if n <= MAX_CHUNKS:
        return None
    return (f"{option} {deals:,} in chunks of --chunk-size {chunk_size:,} make {n:,} chunks; a "
            f"run has at most {MAX_CHUNKS:,}: give --chunk-size {min_chunk_size(deals):,} or "
            f"more (or fewer {items})")


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
    except BaseException as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(e, OSError) and e.errno is not None and e.filename in (None, str(tmp)):
            # the file the user asked for, not its temporary name (gone already), or none
            raise OSError(e.errno, e.strerror, str(target)) from e
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
    run: tuple[int, str] | None = None,
) -> pa.Table:
    """The Arrow table of one chunk from the kernel's column arrays (and, with ``dd``, the
    double-dummy columns), checking names and values. Its Parquet key-value metadata
    (:data:`CHUNK_META_KEY`) holds the chunk's place (``chunk``, ``start``, ``count``) and, with
    ``run = (seed, options_hash)``, its run's identity (``seed``, ``options``).

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
    info: dict[str, Any] = {"chunk": index, "start": start, "count": count}
    if run is not None:
        info.update(seed=int(run[0]), options=str(run[1]))
    meta = json.dumps(info, sort_keys=True)
    return pa.Table.from_arrays(data, schema=schema.with_metadata({CHUNK_META_KEY: meta.encode()}))


def write_chunk(path: Path, table: pa.Table) -> tuple[int, str]:
    """Write one chunk table to ``path`` atomically with the fixed options; return the file's
    size and checksum (:func:`file_sha256`)."""
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, row_group_size=max(1, table.num_rows), **_WRITE_OPTIONS)
    data = sink.getvalue().to_pybytes()
    atomic_write_bytes(Path(path), data)
    return len(data), file_sha256(data)


def check_chunk(
    path: Path, index: int, start: int, count: int, players: int, store_dealt: bool,
    dd: bool = False, redeal: bool = False, run: tuple[int, str] | None = None,
    sha256: str | None = None, legacy_ok: bool = True,
) -> str | None:
    """Validate a chunk file; return ``None`` if it is sound, else the reason it is not.

    Sound means: its checksum is ``sha256`` (when the manifest records one), it is readable with
    every page checksum verified, it has the expected columns and dtypes and ``count`` rows, its
    metadata names it chunk ``index`` of the run ``run = (seed, options_hash)`` (when given; with
    ``legacy_ok`` a chunk written before chunks carried their run is accepted without), and its
    ``deal`` column is ``start .. start+count-1``.
    """
    path = Path(path)
    if not path.is_file():
        return "missing"
    try:
        data = path.read_bytes()
    except OSError as e:
        return f"unreadable: {e.strerror or e}"
    expected = arrow_schema(players, store_dealt, dd, redeal)
    return chunk_problem(data, index, start, count, expected, run, sha256, legacy_ok=legacy_ok)[0]


_CHANGED = "its checksum differs from the manifest's (the file was changed or damaged)"


def chunk_problem(
    data: bytes, index: int, start: int, count: int, expected: pa.Schema,
    run: tuple[int, str] | None, sha256: str | None, columns: Sequence[str] | None = None,
    legacy_ok: bool = True,
) -> tuple[str | None, pa.Table | None]:
    """``(reason, None)`` when the bytes of chunk ``index`` are not sound (see
    :func:`check_chunk`), else ``(None, table)`` with the table (``columns`` only, no metadata)."""
    changed = sha256 is not None and file_sha256(data) != sha256
    try:
        pf = pq.ParquetFile(pa.BufferReader(data), page_checksum_verification=True)
        raw = (pf.schema_arrow.metadata or {}).get(CHUNK_META_KEY)
        info = json.loads(raw) if raw else {}
        if not isinstance(info, dict):
            return "its chunk metadata is not an object", None
        # where it belongs first (a chunk copied over another says so), then its checksum
        if raw and info.get("chunk") != index:
            return (f"it is chunk {info.get('chunk')} (deals from {info.get('start')}), not "
                    f"chunk {index} (deals from {start}): a chunk copied or renamed", None)
        if run is not None and ("seed" in info or "options" in info or not legacy_ok):
            if info.get("seed") != run[0]:
                return (f"it belongs to a run with seed {info.get('seed')}, not {run[0]} (a "
                        "chunk of another run, or an edited manifest)", None)
            if info.get("options") != run[1]:
                return ("it belongs to a run with other options (a chunk of another run, or an "
                        "edited manifest)", None)
        if changed:
            return _CHANGED, None
        if pf.metadata.num_rows != count:
            return f"holds {pf.metadata.num_rows} rows, expected {count}", None
        if not pf.schema_arrow.remove_metadata().equals(expected):
            return "its columns do not match the run's schema", None
        names = list(columns) if columns is not None else None
        if names is not None and "deal" not in names:
            names.append("deal")
        table = pf.read(columns=names)
    except (OSError, pa.ArrowException, ValueError) as e:  # truncated, garbled, not Parquet
        first = str(e).splitlines()[0] if str(e) else ""
        also = f" ({_CHANGED})" if changed else ""
        return f"unreadable: {type(e).__name__}: {first}{also}", None
    deal = table.column("deal").to_numpy()
    if not np.array_equal(deal, np.arange(start, start + count, dtype=np.int64)):
        return f"its deal column is not the range {start}..{start + count - 1}", None
    if columns is not None and "deal" not in columns:
        table = table.drop_columns(["deal"])
    return None, table.replace_schema_metadata(None)


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
        from ..core.jsonio import read_capped

        return read_capped(mf, MAX_MANIFEST_BYTES).decode()
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
    from ..core.jsonio import JsonInputError, parse_json

    try:
        manifest = parse_json(_manifest_text(mf))
    except (OSError, UnicodeDecodeError, JsonInputError) as e:
        raise DatasetError(f"{mf} is unreadable: {e}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise DatasetError(f"{mf} is not a whist-sim dataset manifest")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise DatasetError(
            f"{mf} has dataset format version {manifest.get('format_version')!r}; "
            f"this whist-sim reads version {FORMAT_VERSION}"
        )
    problem = manifest_problem(manifest)
    if problem is not None:
        raise DatasetError(f"{mf}: {problem} (the manifest was edited or damaged; a run writes "
                           "it, nothing else should)")
    return manifest


def _whole(v: Any, lo: int, hi: int | None = None) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool) and v >= lo
            and (hi is None or v <= hi))


def manifest_problem(m: Mapping[str, Any]) -> str | None:
    """What is wrong with a manifest's fields (its schema: docs/JSON.md), or ``None``.

    Checked: ``seed`` (0..2**64-1), ``deals`` (>= 1), ``chunk_size`` (>= 1), ``n_chunks`` (the
    chunks those make), ``rules`` (valid rule options), ``bid`` and ``play`` (one text per seat),
    ``store_dealt`` (true/false), ``dd`` (null or an object), ``status``, ``sessions`` (a list of
    objects), ``deals_done`` and ``chunks_done`` when present, and ``chunks`` when present (chunk
    file name -> ``{"sha256": 64 hex digits, "bytes": size}``)."""
    from ..core.rules import Rules, RulesError

    for key in ("seed", "deals", "chunk_size", "n_chunks", "rules", "bid", "play",
                "store_dealt", "status"):
        if key not in m:
            return f"the field {key!r} is missing"
    if not _whole(m["seed"], 0, (1 << 64) - 1):
        return f"seed must be a whole number in 0..2**64-1, got {m['seed']!r}"
    for key in ("deals", "chunk_size"):
        if not _whole(m[key], 1):
            return f"{key} must be a whole number >= 1, got {m[key]!r}"
    if not _whole(m["n_chunks"], 1) or m["n_chunks"] != n_chunks(m["deals"], m["chunk_size"]):
        return (f"n_chunks is {m['n_chunks']!r}, but {m['deals']} deals in chunks of "
                f"{m['chunk_size']} make {n_chunks(m['deals'], m['chunk_size'])}")
    if not isinstance(m["rules"], dict):
        return f"rules must be an object of rule options, got {m['rules']!r}"
    try:
        players = Rules.from_dict(m["rules"]).players
    except (RulesError, TypeError) as e:
        return f"rules: {e}"
    for key in ("bid", "play"):
        v = m[key]
        if (not isinstance(v, list) or len(v) != players
                or not all(isinstance(x, str) for x in v)):
            return f"{key} must be a list of {players} strategy names (one per seat), got {v!r}"
    if not isinstance(m["store_dealt"], bool):
        return f"store_dealt must be true or false, got {m['store_dealt']!r}"
    if m.get("dd") is not None and not isinstance(m["dd"], dict):
        return f"dd must be null or an object, got {m['dd']!r}"
    if m["status"] not in STATUSES:
        return f"status must be one of {', '.join(STATUSES)}, got {m['status']!r}"
    sessions = m.get("sessions", [])
    if not isinstance(sessions, list) or not all(isinstance(x, dict) for x in sessions):
        return "sessions must be a list of objects"
    for key, hi in (("deals_done", m["deals"]), ("chunks_done", m["n_chunks"])):
        if key in m and not _whole(m[key], 0, hi):
            return f"{key} must be a whole number in 0..{hi}, got {m[key]!r}"
    chunks = m.get("chunks")
    if chunks is not None:
        if not isinstance(chunks, dict):
            return "chunks must be an object: chunk file name -> its sha256 and bytes"
        for name, entry in chunks.items():
            found = CHUNK_RE.match(name)
            if not found or int(found.group(1)) >= m["n_chunks"]:
                return f"chunks: {name!r} is not a chunk file of this run"
            if (not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str)
                    or not re.fullmatch(r"[0-9a-f]{64}", entry["sha256"])
                    or not _whole(entry.get("bytes"), 0)):
                return f"chunks: {name!r} must be {{sha256: 64 hex digits, bytes: size}}"
    return None


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


def run_identity(manifest: Mapping[str, Any]) -> tuple[int, str]:
    """``(seed, options_hash)``: the run identity its chunks carry in their metadata."""
    return int(manifest["seed"]), options_hash(manifest)


def _chunk_files(path: Path, manifest: Mapping[str, Any],
                 partial: bool) -> list[tuple[int, Path]]:
    total = manifest["n_chunks"]
    files = [(i, path / chunk_name(i)) for i in range(total)]
    present = [(i, f) for i, f in files if f.is_file()]
    if len(present) < total and not partial:
        missing = next(f.name for _, f in files if not f.is_file())
        raise DatasetError(
            f"{path}: the run is incomplete ({len(present)} of {total} chunks; {missing} is "
            "missing); finish it with `whist-sim simulate ... --resume`, or read only the "
            "finished chunks (`whist-sim report --partial`; in Python `load(..., partial=True)`)"
        )
    if present and "chunks" not in manifest:
        warnings.warn(UnverifiedChunksWarning(
            f"{path}: written by an earlier whist-sim, without chunk checksums: its chunks are "
            "checked for their structure and deal ranges only (`whist-sim simulate ... --resume` "
            "with the run's options records the checksums)"), stacklevel=3)
    return present


def _read_chunk(index: int, f: Path, manifest: Mapping[str, Any],
                cols: list[str] | None) -> pa.Table:
    """Chunk ``index`` of the dataset, verified: its checksum (the manifest's), its page
    checksums, schema, run identity, place and deal range; a :class:`DatasetError` naming the
    file and the fault otherwise."""
    start, count = chunk_bounds(index, manifest["deals"], manifest["chunk_size"])
    try:
        data = f.read_bytes()
    except OSError as e:
        raise DatasetError(f"{f}: unreadable: {e.strerror or e}") from None
    sums = manifest.get("chunks")
    sha = None
    if sums is not None:
        entry = sums.get(f.name)
        if entry is not None:
            sha = entry["sha256"]
        elif manifest["status"] == "complete":
            raise DatasetError(f"{f}: the manifest of the finished run records no checksum for "
                               "it (an edited manifest?)")
    expected = arrow_schema(manifest["rules"]["players"], manifest["store_dealt"],
                            has_dd(manifest), has_redeals(manifest))
    reason, table = chunk_problem(data, index, start, count, expected, run_identity(manifest),
                                  sha, cols, legacy_ok=sums is None)
    if reason is not None or table is None:
        what = (f"{f} is unreadable: {reason[len('unreadable: '):]}"
                if reason and reason.startswith("unreadable: ") else f"{f}: {reason}")
        raise DatasetError(f"{what}; refusing to read it (`whist-sim simulate ... --resume` "
                           "with the run's options plays it again)")
    return table


def iter_chunks(
    path: str | Path, columns: Sequence[str] | None = None, partial: bool = False
) -> Iterator[pd.DataFrame]:
    """Yield the dataset one chunk at a time, in deal order (memory bounded by one chunk).

    ``columns`` projects (only those columns are converted). Each frame has the manifest in
    ``df.attrs["manifest"]``. With ``partial=True`` an unfinished run yields its finished chunks.
    Every chunk is verified as :func:`load` verifies it.
    """
    p = Path(path)
    manifest = load_manifest(p)
    cols = _select(manifest, columns)
    for i, f in _chunk_files(p, manifest, partial):
        df = _read_chunk(i, f, manifest, cols).to_pandas()
        df.attrs["manifest"] = manifest
        yield df


def load(
    path: str | Path, columns: Sequence[str] | None = None, partial: bool = False
) -> pd.DataFrame:
    """Load a simulation dataset as one DataFrame, one row per deal in deal order.

    ``path`` is the directory written by ``simulate``; ``columns`` reads only those columns (use it
    for large runs: a 100-million-deal run is ~4 GB in full, 100 MB per int8 column). The manifest
    (a dict: seed, deals, rules, policies, ...) is in ``df.attrs["manifest"]``. An unfinished run is
    an error unless ``partial=True``, which reads the finished chunks only.

    Every chunk read is verified: its bytes against the manifest's checksum, its Parquet page
    checksums, its columns, the run identity and place in its metadata (seed, options hash,
    chunk index) and its deal range; a damaged or foreign chunk is a :class:`DatasetError`
    naming the file and what is wrong. A dataset written before chunks had checksums is read
    with an :class:`UnverifiedChunksWarning`.
    """
    p = Path(path)
    manifest = load_manifest(p)
    cols = _select(manifest, columns)
    files = _chunk_files(p, manifest, partial)
    if files:
        table = pa.concat_tables([_read_chunk(i, f, manifest, cols) for i, f in files])
        df = table.to_pandas(self_destruct=True, split_blocks=True)
        del table
    else:
        names = cols if cols is not None else _dataset_columns(manifest)
        df = manifest_schema(manifest).empty_table().select(names).to_pandas()
    df.attrs["manifest"] = manifest
    return df
