"""The Starlette app of ``whist-sim serve`` (docs/WEB.md): pages, static files and the JSON API.

Every computation runs on a thread pool, never on the event loop: advice on its own pool, the
tables (the bots' moves, hints) on another, so play never waits behind advice (the compiled
kernels release the GIL). An advice whose client goes away is cancelled (:mod:`.jobs`).
Every error of a request is a JSON object ``{"error": ..., "field": ...}`` with a 4xx status;
an action at a table that cannot be saved in the state folder is a 503 that says so and changes
nothing (:meth:`whist_sim.interfaces.web.tables.GameTables.change`); an unexpected failure is a
500 with a one-line message, never a stack trace; the log (``whist_sim.interfaces.web``) gets
one line per refused or failed request.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ...core.rules import Rules, rule_options
from .jobs import Jobs
from .reports import list_reports, report_html, safe_path
from .requests import (
    MAX_BODY_BYTES,
    PLAY_FIELDS,
    RequestError,
    advice_kwargs,
    chart_kwargs,
    check_fields,
    parse_body,
    rules_of,
)
from .tables import (
    OPPONENT_LEVELS,
    GameTable,
    GameTables,
    SaveError,
    StaleMove,
    TableStore,
)
from .warmth import Warmth, default_record

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "index.html", "/advisor": "advisor.html", "/charts": "charts.html",
         "/play": "play.html"}
DEFAULT_MAX_DEALS = 50_000
HINT_ADVICE_DEALS = 400  # sampled deals of the advisor's answer in a contract hint
log = logging.getLogger("whist_sim.interfaces.web")


def _error(message: str, status: int = 400, field: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "field": field}, status_code=status)


def create_app(max_deals: int = DEFAULT_MAX_DEALS, reports: dict[str, Path] | None = None,
               workers: int = 4, state_dir: Path | str | None = None) -> Starlette:
    """The app. ``max_deals`` caps the sampled deals of one advice; ``reports``: the report
    folders of the charts page by name (default: ``results`` in the current folder);
    ``workers``: threads that run the computations; ``state_dir``: the folder the tables of
    play are kept in (a restart resumes them; ``None``: in memory only)."""
    pool = ThreadPoolExecutor(workers, thread_name_prefix="whist-web")  # tables, hints
    advice_pool = ThreadPoolExecutor(workers, thread_name_prefix="whist-advice")
    jobs = Jobs(advice_pool)
    tables = GameTables(TableStore(state_dir) if state_dir is not None else None)
    warmth = Warmth(record=default_record())
    roots = {k: Path(v) for k, v in (reports if reports is not None
                                     else {"results": Path("results")}).items()}

    async def off_loop(fn: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, fn)

    async def body_of(request: Request) -> Any:
        size = request.headers.get("content-length", "")
        if size.isdigit() and int(size) > MAX_BODY_BYTES:
            raise RequestError(f"the request body is over {MAX_BODY_BYTES:,} bytes")
        return parse_body(await request.body())

    def page(name: str) -> Callable:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name)
        return endpoint

    # ------------------------------------------------------------------ advice
    async def info(request: Request) -> Response:
        from ...analyses.advisor import DEFAULT_DEALS
        from ...analyses.advisor.sampling import MODEL_BID_POLICIES
        from ...compiled.strategies.registry import BID, DEFAULT_PLAY, PLAY, policy_names

        return JSONResponse({
            "max_deals": max_deals, "default_deals": min(DEFAULT_DEALS, max_deals),
            "default_play": DEFAULT_PLAY, "play_policies": policy_names(PLAY),
            "bid_policies": policy_names(BID), "model_bid_policies": list(MODEL_BID_POLICIES),
            "rules": Rules().to_dict(), "opponent_levels": OPPONENT_LEVELS,
            "tables_on_disk": state_dir is not None,
            "rule_choices": {o.name: list(o.choices) for o in rule_options()
                             if o.choices and o.kind != "directions"},
            "rule_help": {o.name: o.help_line for o in rule_options()},
            "rule_ranges": {o.name: list(o.range) for o in rule_options() if o.kind == "number"},
        })

    def run_advice(kwargs: dict[str, Any], on_deals: Callable[[int], None] | None = None
                   ) -> str:
        from ...analyses.advisor import advise

        with warmth.using("advice"):
            return advise(kwargs["hand"], kwargs["options"], on_deals=on_deals).to_json()

    async def status(request: Request) -> Response:
        """``GET /api/status``: is the engine ready, or starting (compiling or loading) and
        for how long so far (whist_sim.interfaces.web.warmth)."""
        return JSONResponse({"engine": warmth.status(), "measured": warmth.estimates()})

    # ------------------------------------------------------------------ the chart lookup
    async def chart_lookup(request: Request) -> Response:
        """``POST /api/chart``: the hand's cell of the committed bid chart, its best bid and
        runner-up (``whist-sim chart --json``), its sentences (``text``) and the deal as the
        lookup read it (``scenario``: the page's link to the advisor is made of it)."""
        from ...analyses.advisor.chart_lookup import lookup, render_text, to_json
        from ...analyses.advisor.scenario import resolve_scenario

        kwargs = chart_kwargs(await body_of(request))

        def answer() -> dict[str, Any]:
            a = lookup(resolve_scenario(**kwargs))
            s = a.scenario
            out = to_json(a)
            out["text"] = render_text(a)
            out["scenario"] = {"declarer": s.declarer, "level": s.level, "seat": s.seat,
                               "bids": list(s.bids), "forbidden": s.forbidden}
            return out

        return JSONResponse(await off_loop(answer))

    async def chart_cells(request: Request) -> Response:
        """``GET /api/chart/cells?players=4``: every cell of the committed bid chart (the
        table view of its heat maps)."""
        from ...analyses.advisor.chart_lookup import (
            ChartLookupError,
            chart_name,
            default_chart,
            load_cells,
        )

        players = request.query_params.get("players", "4")
        if players not in ("3", "4"):
            raise RequestError(f"expected 3 or 4, got {players!r}", "players")
        try:
            folder = default_chart(int(players))
            cells = await off_loop(lambda: load_cells(folder))
        except ChartLookupError as e:
            return _error(str(e), 404, "players")
        keep = ("position", "panel", "hcp_band", "trump_class", "hands", "best_bid",
                "second_bid", "separated")
        return JSONResponse({"chart": chart_name(folder), "players": int(players),
                             "cells": [{k: getattr(c, k) for k in keep} for c in cells]})

    async def advise_now(request: Request) -> Response:
        """``POST /api/advise``: the advice JSON (as ``whist-sim advise --json``), run as a job
        that is cancelled if the client goes away before it is done."""
        kwargs = advice_kwargs(await body_of(request), max_deals)
        job = jobs.submit(kwargs["options"].deals,
                          lambda j: {"text": run_advice(kwargs, j.progress)})
        while job.finished is None:
            if await request.is_disconnected():
                jobs.cancel(job.id)
                log.info("POST /api/advise: the client went away; advice cancelled")
                return Response(status_code=499)
            job.touch()
            await asyncio.sleep(0.1)
        if job.state != "done" or job.result is None:
            if (job.error or "").startswith("internal error"):
                raise RuntimeError(job.error)
            raise RequestError(job.error or job.state)
        return Response(job.result["text"], media_type="application/json")

    async def job_start(request: Request) -> Response:
        """``POST /api/jobs``: start an advice (same fields), answer its job at once."""
        kwargs = advice_kwargs(await body_of(request), max_deals)
        job = jobs.submit(kwargs["options"].deals,
                          lambda j: json.loads(run_advice(kwargs, j.progress)))
        return JSONResponse(job.to_dict(), status_code=202)

    async def job_get(request: Request) -> Response:
        job = jobs.get(request.path_params["job"])
        if job is None:
            return _error("no such job (finished jobs are kept ten minutes)", 404)
        return JSONResponse(job.to_dict())

    async def job_cancel(request: Request) -> Response:
        job = jobs.cancel(request.path_params["job"])
        if job is None:
            return _error("no such job", 404)
        return JSONResponse(job.to_dict())

    # ------------------------------------------------------------------ reports
    async def report_list(request: Request) -> Response:
        return JSONResponse({"roots": list(roots), "reports": list_reports(roots)})

    async def report_get(request: Request) -> Response:
        name, rel = request.query_params.get("root", ""), request.query_params.get("path", "")
        if name not in roots:
            return _error(f"unknown report folder {name!r}; known: {', '.join(roots)}", 404,
                          "root")
        out = report_html(name, roots[name], rel)
        if out is None:
            return _error(f"no report {rel!r} in {name}", 404, "path")
        return JSONResponse(out)

    async def files(request: Request) -> Response:
        name, rel = request.path_params["root"], request.path_params["path"]
        path = safe_path(roots[name], rel) if name in roots else None
        if path is None or not path.is_file():
            return _error("no such file", 404)
        return FileResponse(path)

    # ------------------------------------------------------------------ play
    async def table_of(request: Request) -> GameTable:
        """The table of the path, from memory or read back from the state folder (its deal
        replayed, so on a worker)."""
        table_id = request.path_params["table"]

        def get() -> GameTable | None:
            if not tables.on_disk(table_id):
                return tables.get(table_id)
            with warmth.using("play"):
                return tables.get(table_id)

        g = await off_loop(get)
        if g is None:
            raise HTTPException(404, "no such table (it was not kept: the server keeps tables "
                                "on disk only with a state folder)")
        return g

    def seq_of(body: Any) -> int | None:
        seq = body.get("seq") if isinstance(body, dict) else None
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
            raise RequestError(f"expected the table's move number, got {seq!r}", "seq")
        return seq

    async def play_new(request: Request) -> Response:
        body = check_fields(await body_of(request), PLAY_FIELDS)
        rules = rules_of({k: v for k, v in body.items()
                          if k not in ("seat", "seats", "seed", "level")})
        seats = body.get("seats", "heuristic")
        if "level" in body:
            if "seats" in body:
                raise RequestError("give a level or seats, not both", "level")
            level = body["level"]
            if not isinstance(level, str) or level not in OPPONENT_LEVELS:
                raise RequestError(f"unknown level {level!r}; known: "
                                   f"{', '.join(OPPONENT_LEVELS)}", "level")
            seats = OPPONENT_LEVELS[level]
        if isinstance(seats, str):
            seats = [x.strip() for x in seats.split(",")]
            if len(seats) == 1:
                seats = seats * rules.players
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RequestError(f"expected a spec per seat, got {seats!r}", "seats")
        seat, seed = body.get("seat", 0), body.get("seed", 0)
        for name, v in (("seat", seat), ("seed", seed)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0 or v >= 1 << 64:
                raise RequestError(f"expected a whole number >= 0, got {v!r}", name)

        def make() -> GameTable:
            try:
                with warmth.using("play"):
                    return GameTable(rules, seat, seats, seed)
            except ValueError as e:
                field = "seats" if "seat" in str(e) and ":" not in str(e)[:6] else None
                raise RequestError(str(e), field) from None

        g = await off_loop(make)
        try:
            await off_loop(lambda: tables.add(g))
        except SaveError as e:
            raise Unsaved(f"{e}, so the new game was not started") from None
        return JSONResponse(g.view())

    async def at_table(g: GameTable, work: Callable[[], Any], prefix: str = "",
                       field: str | None = None) -> Any:
        """``work()`` on a worker, holding the table's lock (a move may be under way there: wait
        on the worker, not on the loop); a refused action (``ValueError``) becomes a 400."""
        def locked() -> Any:
            with g.lock, warmth.using("play"):
                try:
                    return work()
                except StaleMove:
                    raise
                except ValueError as e:
                    raise RequestError(f"{prefix}{e}", field) from None

        return await off_loop(locked)

    async def played(g: GameTable, work: Callable[[GameTable], Any], what: str,
                     prefix: str = "", field: str | None = None) -> Response:
        """A person's action at the table (``work(table)``), made on a copy that is saved and
        only then becomes the table (:meth:`GameTables.change`): a repeated one (a stale
        ``seq``) is a 409 with the table's view as it stands; one that cannot be saved is a
        503 saying that ``what`` was not made, the table as it was."""
        def act() -> dict[str, Any]:
            tables.change(g, work)
            return g.view()

        try:
            return JSONResponse(await at_table(g, act, prefix, field))
        except StaleMove as e:
            return JSONResponse({"error": str(e), "field": "seq", "stale": True,
                                 "view": await at_table(g, g.view)}, status_code=409)
        except SaveError as e:
            raise Unsaved(f"{e}, so {what} was not made: the table is as it was") from None

    async def play_get(request: Request) -> Response:
        g = await table_of(request)
        return JSONResponse(await at_table(g, g.view))

    async def play_move(request: Request) -> Response:
        g = await table_of(request)
        body = check_fields(await body_of(request), ("move", "seq"))
        seq = seq_of(body)
        move = body.get("move")
        if isinstance(move, int) and not isinstance(move, bool):
            move = str(move)
        if not isinstance(move, str) or not move.strip():
            raise RequestError("give your move, e.g. {\"move\": \"AS\"}", "move")

        return await played(g, lambda t: t.move(move.strip(), seq), "your move", "refused, ",
                            "move")

    async def play_hint(request: Request) -> Response:
        g = await table_of(request)
        return JSONResponse(await at_table(
            g, lambda: g.hint(min(HINT_ADVICE_DEALS, max_deals))))

    async def play_next(request: Request) -> Response:
        g = await table_of(request)
        body = (check_fields(await body_of(request), ("seq",))
                if (await request.body()).strip() else {})
        seq = seq_of(body)
        return await played(g, lambda t: t.next_deal(seq), "the next deal")

    async def play_record(request: Request) -> Response:
        g = await table_of(request)
        rec = await at_table(g, g.record)
        name = f"whist-deal-{g.seed}-{g.deal_index}.json"
        return Response(json.dumps(rec, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    # ------------------------------------------------------------------ errors
    def refused(request: Request, text: str, status: int) -> None:
        log.info("refused %s %s (%d): %s", request.method, request.url.path, status,
                 " ".join(text.split()))

    async def request_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        refused(request, exc.to_dict()["error"], 400)
        return JSONResponse(exc.to_dict(), status_code=400)

    async def value_error(request: Request, exc: Exception) -> Response:
        # AdviceError, NotationError, StrategyError, RulesError: bad input, said by the library
        refused(request, str(exc), 400)
        return _error(str(exc), 400)

    async def unsaved(request: Request, exc: Exception) -> Response:
        # the server's disk, not the request, is at fault: 503, and the action was not made
        refused(request, str(exc), 503)
        return _error(str(exc), 503)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        refused(request, str(exc.detail), exc.status_code)
        return _error(str(exc.detail), exc.status_code)

    routes: list[BaseRoute] = [Route(path, page(name)) for path, name in PAGES.items()]
    routes += [
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/info", info),
        Route("/api/status", status),
        Route("/api/advise", advise_now, methods=["POST"]),
        Route("/api/chart", chart_lookup, methods=["POST"]),
        Route("/api/chart/cells", chart_cells),
        Route("/api/jobs", job_start, methods=["POST"]),
        Route("/api/jobs/{job}", job_get),
        Route("/api/jobs/{job}", job_cancel, methods=["DELETE"]),
        Route("/api/jobs/{job}/cancel", job_cancel, methods=["POST"]),
        Route("/api/reports", report_list),
        Route("/api/report", report_get),
        Route("/files/{root}/{path:path}", files),
        Route("/api/play", play_new, methods=["POST"]),
        Route("/api/play/{table}", play_get),
        Route("/api/play/{table}/move", play_move, methods=["POST"]),
        Route("/api/play/{table}/hint", play_hint, methods=["POST"]),
        Route("/api/play/{table}/next", play_next, methods=["POST"]),
        Route("/api/play/{table}/record", play_record),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={
        RequestError: request_error, ValueError: value_error, HTTPException: http_error,
        Unsaved: unsaved,
    }, middleware=[Middleware(OneLineErrors)])
    app.state.pool = pool
    app.state.warmth = warmth
    app.state.advice_pool = advice_pool
    return app


class Unsaved(Exception):
    """An action at a table that was not made because the table could not be saved (answered
    503 with the message)."""


class OneLineErrors:
    """An unexpected failure of a request: a 500 with a one-line JSON error and one log line,
    never a stack trace (Starlette's own handler would log one)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as e:  # noqa: BLE001 - every failure is answered, none kills the server
            text = f"internal error: {type(e).__name__}: {' '.join(str(e).split())}"
            log.error("failed %s %s: %s", scope.get("method"), scope.get("path"), text)
            if not started:
                await JSONResponse({"error": text, "field": None}, status_code=500)(
                    scope, receive, send)
