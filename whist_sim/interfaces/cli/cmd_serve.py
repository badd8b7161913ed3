"""``whist-sim serve``: the web page at the table: the advisor, the charts and a seat against the
bots, in the browser (whist-sim docs web).

Starts a local web server (Starlette on uvicorn, the ``web`` extra) bound to 127.0.0.1 by
default; open http://127.0.0.1:8000. The JSON API is under /api/ (whist-sim docs web).

Before it says where to open the page, it checks what it can: the state folder is made and
must be writable, it is locked (one server per state folder: a second is refused, naming the
running one's pid), and the address and port can be listened on; each refusal is one line naming
the option.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import click


def default_state_dir() -> Path:
    """Where ``serve`` keeps the tables of play: ``$XDG_STATE_HOME/whist-sim/tables``, by
    default ``~/.local/state/whist-sim/tables``."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "whist-sim" / "tables"


def _reports(values: tuple[str, ...]) -> dict[str, Path]:
    """``--reports [NAME=]DIR`` -> ``{name: folder}``; ``results`` first when it exists."""
    out: dict[str, Path] = {}
    if Path("results").is_dir():
        out["results"] = Path("results")
    for v in values:
        name, sep, folder = v.partition("=")
        if not sep:
            name, folder = Path(v).name or "reports", v
        path = Path(folder)
        if not path.is_dir():
            raise click.BadParameter(f"{folder} is not a folder", param_hint="--reports")
        if not name or "/" in name:
            raise click.BadParameter(f"{v!r}: the name must be a word", param_hint="--reports")
        out[name] = path
    return out


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on (the default is this machine only)")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="port to listen on")
@click.option("--max-deals", type=click.IntRange(min=1), default=50_000, show_default=True,
              help="most sampled deals one advice request may ask for")
@click.option("--reports", multiple=True, metavar="[NAME=]DIR",
              help="a folder of reports for the charts page besides ./results (repeatable), "
                   "e.g. a dataset's report folder: mine=data/results")
@click.option("--workers", type=click.IntRange(1, 64), default=4, show_default=True,
              help="threads that run advice and the bots (off the event loop)")
@click.option("--state-dir", type=click.Path(file_okay=False), default=None,
              help="folder the tables of play are kept in, so a restart resumes every game "
                   "[default: $XDG_STATE_HOME/whist-sim/tables, or "
                   "~/.local/state/whist-sim/tables]")
def command(host: str, port: int, max_deals: int, reports: tuple[str, ...],
            workers: int, state_dir: str | None) -> None:
    """Serve the web page: the hand advisor, the report charts and play against the bots
    (whist-sim docs web). Stop it with Ctrl-C."""
    roots = _reports(reports)
    if state_dir is not None and not state_dir.strip():
        raise click.UsageError("--state-dir '': give a folder")
    state = Path(state_dir) if state_dir is not None else default_state_dir()
    writable_state_folder(state)
    from ..web.server import ListenError, check_listen

    try:
        port = check_listen(host, port)
    except ListenError as e:
        shown = host if e.option == "--host" else port
        raise click.UsageError(f"{e.option} {shown}: {e}") from None
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as e:
        raise click.ClickException(
            f"the web page needs the web extra ({e.name} is missing): "
            "pip install 'whist-sim[web]'") from None
    from ...runs.lock import FolderLock

    try:  # one server per state folder: two would overwrite each other's tables
        lock = FolderLock(state, "whist-sim serve", what="state folder").acquire()
    except ValueError as e:  # the lock's refusal: the folder and the running server's pid
        raise click.ClickException(f"--state-dir: {e}") from None
    try:
        # a save cut short (a crash, kill -9) leaves its temporary file; the table's own file
        # is whole (it is replaced by a rename), and no other server writes here: tidy up
        # (only the server's own temporary names: the folder may hold the user's files too)
        for leftover in state.glob(".tmp-*"):
            if re.fullmatch(r"\.tmp-([0-9a-f]{32}\.json\.\d+\.\d+|write-check-.*)",
                            leftover.name):
                with contextlib.suppress(OSError):
                    leftover.unlink()
        app = create_app(max_deals=max_deals, reports=roots, workers=workers, state_dir=state)
        # one line per refused or failed request (the app's log), beside uvicorn's own
        import logging

        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("whist-sim serve: %(message)s"))
        web_log = logging.getLogger("whist_sim.interfaces.web")
        web_log.addHandler(handler)
        web_log.setLevel(logging.INFO)
        where = f"[{host}]" if ":" in host else (host or "localhost")
        click.echo(f"whist-sim serve: open http://{where}:{port}/ (Ctrl-C stops); tables of "
                   f"play kept in {state}", err=True)
        with _sigterm_exits():
            uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        lock.release()


@contextlib.contextmanager
def _sigterm_exits() -> Iterator[None]:
    """While serving, SIGTERM ends the process by ``SystemExit`` (status 143, as a process
    killed by it) instead of killing it outright: uvicorn stops gracefully on it, then sends it
    again, and the default action would skip the ``finally`` that lets go of the state
    folder's lock and its file."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def writable_state_folder(state: Path) -> None:
    """Make the state folder (with its parents) and check that a file can be written in it, as
    every table's file will be; a refusal is a one-line usage error naming ``--state-dir``, the
    folder and the reason (nothing is left behind by the check)."""
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise click.UsageError(f"--state-dir {state}: cannot create the folder "
                               f"({e.strerror or e})") from None
    try:
        # a real write, not the permission bits: root writes where they say no, and a
        # read-only mount refuses where they say yes
        fd, probe = tempfile.mkstemp(prefix=".tmp-write-check-", dir=state)
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(probe)
    except OSError as e:
        raise click.UsageError(f"--state-dir {state}: the folder cannot be written "
                               f"({e.strerror or e})") from None
