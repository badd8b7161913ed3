"""``whist-sim serve``: the web page at the table: the advisor, the charts and a seat against the
bots, in the browser (whist-sim docs web).

Starts a local web server (Starlette on uvicorn, the ``web`` extra) bound to 127.0.0.1 by
default; open http://127.0.0.1:8000. The JSON API is under /api/ (whist-sim docs web).
"""

from __future__ import annotations

import os
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
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="folder the tables of play are kept in, so a restart resumes every game "
                   "[default: $XDG_STATE_HOME/whist-sim/tables, or "
                   "~/.local/state/whist-sim/tables]")
def command(host: str, port: int, max_deals: int, reports: tuple[str, ...],
            workers: int, state_dir: Path | None) -> None:
    """Serve the web page: the hand advisor, the report charts and play against the bots
    (whist-sim docs web). Stop it with Ctrl-C."""
    roots = _reports(reports)
    state = state_dir if state_dir is not None else default_state_dir()
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as e:
        raise click.ClickException(
            f"the web page needs the web extra ({e.name} is missing): "
            "pip install 'whist-sim[web]'") from None
    app = create_app(max_deals=max_deals, reports=roots, workers=workers, state_dir=state)
    # one line per refused or failed request (the app's log), beside uvicorn's own
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("whist-sim serve: %(message)s"))
    web_log = logging.getLogger("whist_sim.interfaces.web")
    web_log.addHandler(handler)
    web_log.setLevel(logging.INFO)
    click.echo(f"whist-sim serve: open http://{host}:{port}/ (Ctrl-C stops); tables of play "
               f"kept in {state}", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
