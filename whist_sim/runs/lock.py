"""One writer per output: the lock every whist-sim command holds on the folder (or file) it writes.

Every command that writes a folder (``simulate``, ``tournament``, ``bid-chart``, ``report``,
``export``, ``serve --state-dir``) takes :func:`folder_lock` on it before writing anything and
holds it until it is done, so that a second command on the same output is refused at once, in
one line naming the output and the process that writes it::

    another whist-sim run is writing /data/t1 (pid 1234, `whist-sim tournament`); wait for it
    to finish, or choose another directory

The lock is an OS lock (``flock``) on the file :data:`LOCK_NAME` (``.whist-sim.lock``) in the
folder, or ``<file>.whist-sim.lock`` beside a single output file (:func:`lock_path`). It is the
same kind of lock as ``filelock.FileLock`` on that file, so either sees the other. The holder
writes its pid, host and command into the file once it holds the lock; a refused process reads
them from there. The lock dies with its process: a holder killed outright (``kill -9``, a power
cut) blocks nobody, and since only the live holder writes the file, the pid in a refusal is
always that of a running process. The lock file is removed when the lock is released, so a
finished dataset folder holds its Parquet files only (a killed run may leave it behind; readers
skip it and the next writer reuses it).

Where the OS has no ``flock`` (Windows) the lock is ``filelock.FileLock`` and a refusal cannot
name the holder's pid.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .dataset import LOCK_NAME

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: suffix of the lock file of an output that is a single file (``out.pbn.whist-sim.lock``)
FILE_LOCK_SUFFIX = ".whist-sim.lock"
_MAX_HOLDER_BYTES = 4096


class FolderLockError(ValueError):
    """The output is being written by another whist-sim process (``busy``), or cannot be locked
    at all (it cannot be created, no permission: not ``busy``); the message is one line naming
    the output.

    ``holder`` is what the lock file says of the running writer (``pid``, ``host``,
    ``command``; empty when it could not be read)."""

    def __init__(self, message: str, holder: dict[str, Any] | None = None,
                 busy: bool = False) -> None:
        super().__init__(message)
        self.holder = holder or {}
        self.busy = busy


def lock_path(out: str | Path, is_file: bool = False) -> Path:
    """The lock file of output ``out``: ``out/.whist-sim.lock`` for a folder, or
    ``out.whist-sim.lock`` beside it for a single output file (``is_file``)."""
    out = Path(out)
    return out.with_name(out.name + FILE_LOCK_SUFFIX) if is_file else out / LOCK_NAME


def describe_holder(holder: dict[str, Any]) -> str:
    """``"pid 1234, `whist-sim tournament`"`` from a lock file's record (``"pid 1234 on host h,
    ..."`` when the holder runs on another machine); ``""`` when the record says nothing."""
    parts = []
    pid = holder.get("pid")
    if isinstance(pid, int) and not isinstance(pid, bool):
        host = holder.get("host")
        on = f" on host {host}" if isinstance(host, str) and host != socket.gethostname() else ""
        parts.append(f"pid {pid}{on}")
    command = holder.get("command")
    if isinstance(command, str) and command:
        parts.append(f"`{command}`")
    return ", ".join(parts)


def _read_holder(fd: int) -> dict[str, Any]:
    try:
        data = os.pread(fd, _MAX_HOLDER_BYTES, 0)
        holder = json.loads(data.decode("utf-8"))
    except (OSError, ValueError):  # not written yet (the holder is just starting), or foreign
        return {}
    return holder if isinstance(holder, dict) else {}


def _refusal(out: Path, what: str, holder: dict[str, Any]) -> FolderLockError:
    who = describe_holder(holder)
    return FolderLockError(
        f"another whist-sim run is writing {out}" + (f" ({who})" if who else "")
        + f"; wait for it to finish, or choose another {what}", holder, busy=True)


class FolderLock:
    """The lock on one output (see the module docstring); :func:`folder_lock` is the usual way.

    ``out``: the folder (or, with ``is_file``, the single file) written; ``command``: what the
    holder is, for the refusal (``"whist-sim tournament"``); ``what``: the word for the output in
    the refusal's advice ("directory", "file", "state folder"). :meth:`acquire` raises
    :class:`FolderLockError` when another process holds it, and when the lock file cannot be
    created (no such folder, no permission)."""

    def __init__(self, out: str | Path, command: str, *, is_file: bool = False,
                 what: str | None = None, create: bool = False) -> None:
        self.out = Path(out)
        self.create = create and not is_file
        self._created: Path | None = None
        self.path = lock_path(self.out, is_file)
        self.command = command
        self.what = what or ("file" if is_file else "directory")
        self._fd: int | None = None
        self._fallback: Any = None

    @property
    def held(self) -> bool:
        return self._fd is not None or self._fallback is not None

    def acquire(self) -> FolderLock:
        """Take the lock at once or raise :class:`FolderLockError`; returns ``self``."""
        if self.held:
            return self
        if self.create:
            self._make_folder()
        try:
            return self._acquire()
        except BaseException:
            self._remove_created()
            raise

    def _make_folder(self) -> None:
        if self.out.exists() and not self.out.is_dir():
            raise FolderLockError(f"output {self.out} exists and is not a directory")
        top = self.out
        while not top.parent.exists() and top.parent != top:
            top = top.parent  # the first folder this lock creates, removed again if left empty
        try:
            existed = self.out.is_dir()
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise FolderLockError(
                f"cannot create output directory {self.out}: {e.strerror or e}") from None
        self._created = None if existed else top

    def _remove_created(self) -> None:
        """Remove the folders this lock created if they are still empty (a refused or failed
        command leaves no empty folder behind)."""
        if self._created is None:
            return
        d = self.out
        while True:
            try:
                d.rmdir()  # only an empty folder
            except OSError:
                break
            if d == self._created or d.parent == d:
                break
            d = d.parent
        self._created = None

    def _acquire(self) -> FolderLock:
        if fcntl is None:  # pragma: no cover - Windows
            return self._acquire_filelock()
        for _ in range(100):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise FolderLockError(
                    f"cannot lock {self.out}: {e.strerror or e} ({self.path})") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(fd)
                os.close(fd)
                raise _refusal(self.out, self.what, holder) from None
            except OSError as e:
                os.close(fd)
                raise FolderLockError(
                    f"cannot lock {self.out}: {e.strerror or e} ({self.path})") from None
            # The holder before us removes the file while it still holds it: a lock taken on
            # the removed file locks nothing anyone else sees. Take the file now at the path.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except OSError:
                same = False
            if not same:
                os.close(fd)
                continue
            self._fd = fd
            self._write_holder()
            return self
        raise FolderLockError(f"cannot lock {self.out}: its lock file {self.path} keeps "
                              "changing (another process is taking and removing it)")

    def _write_holder(self) -> None:
        assert self._fd is not None
        record = json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                             "command": self.command}) + "\n"
        with contextlib.suppress(OSError):  # the lock holds without its note (a full disk)
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, record.encode(), 0)

    def _acquire_filelock(self) -> FolderLock:  # pragma: no cover - Windows
        from filelock import FileLock, Timeout

        lock = FileLock(str(self.path), timeout=0)
        try:
            lock.acquire()
        except Timeout:
            raise _refusal(self.out, self.what, {}) from None
        except OSError as e:
            raise FolderLockError(f"cannot lock {self.out}: {e}") from None
        self._fallback = lock
        return self

    def release(self, remove: bool = True) -> None:
        """Release the lock; with ``remove`` (the default) delete the lock file first, while it
        is still held (a writer starting meanwhile then locks a new file, and finds everything
        this one wrote)."""
        if not self.held:
            return
        if remove:
            with contextlib.suppress(OSError):  # Windows cannot remove an open file: it stays
                self.path.unlink()
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the only descriptor releases the flock
        if self._fallback is not None:  # pragma: no cover - Windows
            lock, self._fallback = self._fallback, None
            lock.release()
        if remove:
            self._remove_created()

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextlib.contextmanager
def folder_lock(out: str | Path, command: str, *, is_file: bool = False,
                what: str | None = None, create: bool = False) -> Iterator[FolderLock]:
    """Hold the lock on output ``out`` for the ``with`` block: the one lock every whist-sim
    writer takes (module docstring).

    ``out``: the folder written (it must exist: create it first), or with ``is_file`` a single
    output file (the lock file goes beside it, in its folder, which must exist). ``command``:
    the holder as a refusal names it, e.g. ``"whist-sim tournament"``. ``what``: the output's
    word in the refusal's advice (default "directory", or "file"). ``create``: make the folder
    (and its parents) first when missing, and remove them again at the end if they are still
    empty (a refused or failed command leaves nothing behind). Raises
    :class:`FolderLockError` at once, naming ``out`` and the running writer (``pid``,
    command), when another process holds it; the lock of a dead process never blocks. The lock
    file is removed when the block ends.

    Example::

        with folder_lock(state_dir, "whist-sim serve", what="state folder"):
            ...  # write into state_dir
    """
    lock = FolderLock(out, command, is_file=is_file, what=what, create=create).acquire()
    try:
        yield lock
    finally:
        lock.release()


__all__ = ["FILE_LOCK_SUFFIX", "FolderLock", "FolderLockError", "describe_holder",
           "folder_lock", "lock_path"]
