"""The Starlette application: HTTP lobby and replay routes, the WebSocket, the lifespan.

``create_app`` takes everything it needs (settings, registry, optionally a store) and keeps
it on ``app.state``: no module-level globals, so tests can build as many apps as they like.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from domain import REVIEW, SPECTATOR, GameType, Registry, default_registry, seat_viewer
from protocol.http import (
    NAME_MAX_CHARS,
    AddBot,
    BotAdded,
    CreatedGame,
    CreateGame,
    EventsReply,
    GameList,
    GameSummary,
    GameTypes,
    Health,
    ImportLog,
    JoinSeat,
    PlayNow,
    PlayNowReply,
    RequestError,
    SeatGranted,
    VerifyReply,
    ViewReply,
    decode_request,
)

from . import fairness, metrics
from .bots import BotRunner
from .cache import GameCache
from .clocks import PLATFORM_OPTIONS, ClockKeeper
from .config import Settings
from .embedded import DataFolderLock, EmbeddedRedis
from .errors import STORE_ERRORS, UNAVAILABLE, ServiceError
from .games import GameRecord, GameService, SeatClaim
from .hub import Hub, legal_for, wire_events
from .hub import view_at as view_of
from .limits import BodyLimit
from .lobby import STATUSES, Lobby, lobby_for
from .openapi import Operation, Query, openapi, operation
from .store.base import EventStore
from .ws import RawSend, game_socket

__all__ = ["create_app"]

log = logging.getLogger("cloister.app")

SERVER_VERSION = "0.1.0"

T = TypeVar("T")
Handler = Callable[[Request], Awaitable[Response]]


class ORJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def _error(exc: ServiceError, headers: dict[str, str] | None = None) -> Response:
    body = {"error": {"code": exc.code, "message": exc.message}}
    return ORJSONResponse(body, exc.status, headers=headers)


def _json(raw: bytes, limit: int) -> Any:
    if len(raw) > limit:
        raise ServiceError("too_large", f"the body is limited to {limit} bytes", 413)
    if not raw:
        return {}
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ServiceError("bad_json", "the body is not valid JSON") from None


async def _decode(request: Request, cls: type[T], limit: int | None = None) -> T:
    """The body as a ``protocol.http`` request class (strict: wrong types and unknown
    fields are refused with ``bad_request`` naming the field)."""
    return _parse(await request.body(), cls, limit or request.app.state.settings.max_body_bytes)


def _parse(raw: bytes, cls: type[T], limit: int) -> T:
    try:
        return decode_request(_json(raw, limit), cls)
    except RequestError as exc:
        raise ServiceError("bad_request", exc.message) from None


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


async def _game(request: Request) -> GameRecord:
    return await _service(request).load(request.path_params["game_id"])


async def _audience_seat(request: Request, rec: GameRecord) -> int | None:
    auth = request.headers.get("authorization", "")
    if not auth:
        return None
    if not auth.lower().startswith("bearer "):
        raise ServiceError("bad_token", "use 'Authorization: Bearer <seat token>'", 401)
    return await _service(request).authenticate(rec, auth[7:].strip())


def endpoint(op: Operation) -> Callable[[Handler], Handler]:
    """An HTTP endpoint: ServiceError becomes the JSON error reply; ``op`` describes it
    for the OpenAPI document."""

    def wrap(fn: Handler) -> Handler:
        async def wrapper(request: Request) -> Response:
            try:
                return await fn(request)
            except ServiceError as exc:
                return _error(exc)

        wrapper.__name__ = fn.__name__
        wrapper.__doc__ = fn.__doc__
        return operation(op)(wrapper)

    return wrap


def _name(raw: str) -> str:
    name = raw.strip()
    if not 1 <= len(name) <= NAME_MAX_CHARS:
        raise ServiceError(
            "bad_request", f"'name' must be a string of 1-{NAME_MAX_CHARS} characters"
        )
    if name.lower().endswith("(bot)"):
        raise ServiceError("bad_request", "'(bot)' marks the server's bots: choose another name")
    return name


@endpoint(Operation("Is the server up, and its Redis?", {200: Health, 503: Health}, errors=()))
async def health(request: Request) -> Response:
    store = request.app.state.store
    status = "ok"
    try:
        if hasattr(store, "redis"):
            # A stalled Redis (paused, overloaded) is "down" here within 2 s.
            await asyncio.wait_for(store.redis.ping(), 2.0)
    except Exception:
        status = "unavailable"
    code = 200 if status == "ok" else 503
    return ORJSONResponse({"status": status, "redis": status, "version": SERVER_VERSION}, code)


@endpoint(Operation("The game types, their options and bot levels", {200: GameTypes}, errors=()))
async def game_types(request: Request) -> Response:
    registry: Registry = request.app.state.registry
    out = []
    for t in registry.values():
        out.append(
            {
                "name": t.name,
                "title": t.game.title,
                "demo": t.demo,
                "options": [
                    {
                        "name": o.name,
                        "default": o.default,
                        "choices": list(o.choices),
                        "label": o.label or o.name,
                        "description": o.description,
                        "applies_when": dict(o.applies_when) if o.applies_when else None,
                    }
                    for o in t.game.option_specs
                ]
                + [dict(o) for o in PLATFORM_OPTIONS],
                "bots": sorted({"random", *t.bots}),
                "default_bot": t.bot(None).name,
            }
        )
    return ORJSONResponse({"game_types": out})


@endpoint(
    Operation(
        "Printed name, kind and rules text of every component of a game type, by id",
        {200: "application/json"},
        errors=(),
    )
)
async def glossary(request: Request) -> Response:
    """Printed name, kind and rules text of every component of a game type, by id."""
    name = request.path_params["type_name"]
    gtype = _service(request).game_type(name)
    cache: dict[str, bytes] = request.app.state.glossaries
    body = cache.get(name)
    if body is None:  # static content: encoded once per process
        entries = gtype.game.glossary()
        body = cache[name] = orjson.dumps(
            {k: {"name": e.name, "kind": e.kind, "text": e.text} for k, e in entries.items()}
        )
    return Response(body, media_type="application/json")


def _bot_claim(rec_type: GameType, seat: int | None, level: str | None) -> SeatClaim:
    try:
        bot = rec_type.bot(level)
    except KeyError as exc:
        raise ServiceError("unknown_bot", str(exc.args[0])) from None
    return SeatClaim(None, seat, bot.name)  # named in the append, from the game's world


def _gtype(request: Request, name: str) -> GameType:
    return _service(request).game_type(name)


def _seed(seed: str | int | None) -> str | None:
    return None if seed is None else str(seed)


@endpoint(
    Operation(
        "Create a game, optionally with bots and the caller's seat (one append)",
        {201: CreatedGame},
        request=CreateGame,
        errors=(400, 409, 413),
    )
)
async def create_game(request: Request) -> Response:
    body = await _decode(request, CreateGame)
    gtype = _gtype(request, body.type)
    claims = [] if body.join is None else [SeatClaim(_name(body.join.name), body.join.seat)]
    claims += [_bot_claim(gtype, b.seat, b.level) for b in body.bots]
    rec, seats = await _service(request).create_table(
        body.type, body.options, _seed(body.seed), claims
    )
    out = rec.summary()
    if body.join is not None:
        seat, token = seats[0]
        out["you"] = {"seat": seat, "token": token}
    return ORJSONResponse(out, 201)


@endpoint(
    Operation(
        "Play now / Play with a friend: a ready game in one request",
        {201: PlayNowReply},
        request=PlayNow,
        errors=(400, 413),
    )
)
async def play_now(request: Request) -> Response:
    """Create a game with sensible defaults: the caller in the first seat, with ``friend``
    the second seat kept free, bots in every other seat (the game's strongest level unless
    ``level`` says otherwise)."""
    body = await _decode(request, PlayNow)
    service = _service(request)
    gtype = _gtype(request, body.type)
    options = service.validated_options(body.type, body.options)
    seats = gtype.game.seat_count(options)
    if body.friend and seats < 2:
        raise ServiceError(
            "no_seat_for_friend",
            f"this {gtype.game.title} game has one seat with these options: no room for a friend",
        )
    first_bot = 2 if body.friend else 1
    claims = [SeatClaim(_name(body.name), 0)]
    claims += [_bot_claim(gtype, seat, body.level) for seat in range(first_bot, seats)]
    rec, placed = await service.create_table(body.type, options, None, claims)
    seat, token = placed[0]
    base = str(request.base_url).rstrip("/")
    page = f"{base}/#/game/{rec.id}"
    return ORJSONResponse(
        {
            "game": rec.summary(),
            "seat": seat,
            "token": token,
            "play_url": page,
            "invite_url": page if body.friend else None,
        },
        201,
    )


@endpoint(
    Operation(
        "Create a new game from a finished game's full log",
        {201: GameSummary},
        request=ImportLog,
        errors=(400, 413),
    )
)
async def import_game(request: Request) -> Response:
    limit = request.app.state.settings.max_import_bytes
    raw = await request.body()  # counted while it streams in (``BodyLimit``)
    # Parsed and re-decided in worker threads: the loop keeps serving everyone else.
    body = await asyncio.to_thread(_parse, raw, ImportLog, limit)
    rec = await _service(request).import_log(body.events)
    return ORJSONResponse(rec.summary(), 201)


@endpoint(
    Operation(
        "Re-decide a finished game from its revealed seed: is every event what the rules make?",
        {200: VerifyReply},
        errors=(409,),
    )
)
async def verify_game(request: Request) -> Response:
    rec = await _game(request)
    if not rec.terminal:
        raise ServiceError(
            "game_not_finished",
            "the seed is revealed only when the game ends: verify it then",
            409,
        )
    events = [{"version": e.version, "type": e.type, "data": e.data} for e in rec.log]
    try:
        reply = await asyncio.to_thread(fairness.report, _service(request).registry, events)
    except fairness.VerifyError as exc:
        raise ServiceError("game_not_finished", exc.message, 409) from None
    return ORJSONResponse(reply)


LIST_LIMIT, LIST_MAX = 500, 1000


@endpoint(
    Operation(
        "List games (500 unless limit says otherwise), newest first",
        {200: GameList},
        query=(
            Query(
                "status",
                {"enum": list(STATUSES)},
                "only games in this status (open: seats free; running; finished)",
            ),
            Query(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": LIST_MAX},
                f"at most this many games (default {LIST_LIMIT})",
            ),
        ),
    )
)
async def list_games(request: Request) -> Response:
    """Served from the lobby projection (``server.lobby``): no game is loaded."""
    wanted = request.query_params.get("status")
    if wanted is not None and wanted not in STATUSES:
        raise ServiceError(
            "bad_request", f"'status' must be one of {', '.join(STATUSES)}, not {wanted!r}"
        )
    limit = _int_param(request, "limit", LIST_LIMIT)
    if not 1 <= limit <= LIST_MAX:
        raise ServiceError("bad_request", f"'limit' must be 1 to {LIST_MAX}, not {limit}")
    lobby: Lobby = request.app.state.lobby
    await lobby.flush()  # this process's own latest appends first
    blobs = await lobby.listing(wanted, limit)
    return Response(b'{"games":[' + b",".join(blobs) + b"]}", media_type="application/json")


@endpoint(Operation("One game's summary", {200: GameSummary}, errors=()))
async def get_game(request: Request) -> Response:
    rec = await _game(request)
    async with rec.lock:
        await _service(request).catch_up(rec)
    return ORJSONResponse(rec.summary())


@endpoint(
    Operation(
        "Take a seat as a person (the token is shown only here)",
        {201: SeatGranted},
        request=JoinSeat,
        errors=(400, 409, 413),
    )
)
async def join(request: Request) -> Response:
    rec = await _game(request)
    body = await _decode(request, JoinSeat)
    seat, token = await _service(request).take_seat(rec, body.seat, _name(body.name))
    return ORJSONResponse({"seat": seat, "token": token}, 201)


@endpoint(
    Operation(
        "Put a bot in a seat",
        {201: BotAdded},
        request=AddBot,
        errors=(400, 409, 413),
    )
)
async def add_bot(request: Request) -> Response:
    rec = await _game(request)
    body = await _decode(request, AddBot)
    claim = _bot_claim(rec.gtype, body.seat, body.level)
    seat, _ = await _service(request).take_seat(rec, claim.seat, None, claim.bot)
    info = rec.seats[seat]
    name = info.name if info is not None else None
    return ORJSONResponse({"seat": seat, "level": claim.bot, "name": name}, 201)


def _viewer(rec: GameRecord, seat: int | None) -> Any:
    if rec.terminal:
        return REVIEW
    return SPECTATOR if seat is None else seat_viewer(seat)


@endpoint(
    Operation(
        "The log as the caller may see it (a finished game's: everything)",
        {200: EventsReply},
        query=(Query("since", {"type": "integer", "minimum": 0}, "only events after it"),),
        token=True,
        errors=(400, 401, 403),
    )
)
async def events(request: Request) -> Response:
    rec = await _game(request)
    seat = await _audience_seat(request, rec)
    since = _int_param(request, "since", 0)
    viewer = _viewer(rec, seat)
    wire = wire_events(rec, rec.log[since:], viewer)
    return ORJSONResponse(
        {
            "version": rec.version,
            "audience": str(viewer),
            "events": [
                {"version": e.version, "type": e.type, "data": e.data, "text": e.text} for e in wire
            ],
        }
    )


def _int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ServiceError("bad_request", f"'{name}' must be an integer") from None
    if value < 0:
        raise ServiceError("bad_request", f"'{name}' must not be negative")
    return value


@endpoint(
    Operation(
        "The view at a version (default: now), for replays",
        {200: ViewReply},
        query=(
            Query(
                "version",
                {"type": "integer", "minimum": 0},
                "0 … the game's version; without it, the current view",
            ),
        ),
        token=True,
        errors=(400, 401, 403),
    )
)
async def view_at(request: Request) -> Response:
    rec = await _game(request)
    seat = await _audience_seat(request, rec)
    version = _int_param(request, "version", rec.version)
    if version > rec.version:
        raise ServiceError(
            "bad_version",
            f"the game is at version {rec.version}; 'version' must be 0 to {rec.version}, "
            f"not {version}",
        )
    viewer = _viewer(rec, seat)
    state = rec.state_at(version)
    view = rec.codec.encode_view(view_of(rec, state, viewer)) if state is not None else None
    to_act: list[int] = []
    if state is not None and not rec.game.is_terminal(state):
        to_act = sorted(rec.game.to_act(state))
    return ORJSONResponse(
        {
            "version": version,
            "latest": rec.version,
            "audience": str(viewer),
            "view": view,
            "to_act": to_act,
            "legal": legal_for(rec, seat) if version == rec.version else [],
            "table": request.app.state.clocks.wire(rec) if version == rec.version else None,
        }
    )


@endpoint(Operation("Prometheus metrics", {200: "text/plain"}, errors=(), tag="operations"))
async def prometheus(request: Request) -> Response:
    return PlainTextResponse(
        metrics.render(request.app.state.service, request.app.state.hub),
        media_type="text/plain; version=0.0.4",
    )


@endpoint(
    Operation(
        "This document: the OpenAPI 3.1 description of the HTTP API",
        {200: "application/json"},
        errors=(),
        tag="operations",
    )
)
async def openapi_document(request: Request) -> Response:
    doc = request.app.state.openapi
    if doc is None:
        doc = request.app.state.openapi = openapi(request.app.routes, SERVER_VERSION)
    return ORJSONResponse(doc)


async def store_unavailable(request: Request, exc: Exception) -> Response:
    """A Redis outage met by a request: 503 ``unavailable`` (retry), not a 500."""
    log.warning("%s %s: store unavailable (%s)", request.method, request.url.path, exc)
    return _error(ServiceError("unavailable", UNAVAILABLE, 503), {"Retry-After": "1"})


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no route, wrong method, no such static file) as JSON
    errors of the documented shape, instead of its plain-text defaults."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return _error(ServiceError("not_found", f"nothing at {request.url.path}", 404))
    if exc.status_code == 405:
        allowed = _allowed_methods(request)
        return _error(
            ServiceError(
                "method_not_allowed",
                f"{request.method} is not allowed on {request.url.path}; "
                f"allowed: {', '.join(allowed)}",
                405,
            ),
            {"Allow": ", ".join(allowed)},
        )
    code = "http_error"
    headers = dict(exc.headers) if exc.headers else None
    return _error(ServiceError(code, str(exc.detail), exc.status_code), headers)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route takes on this path (two Routes may share a path)."""
    methods: set[str] = set()
    for route in request.app.routes:
        if isinstance(route, Route) and route.path_regex.match(request.url.path):
            methods |= route.methods or set()
    return sorted(methods or {"GET", "HEAD"})  # else the web client's static files


def _web_dir() -> Path | None:
    try:
        path = Path(str(resources.files("clients").joinpath("web")))
    except (ModuleNotFoundError, TypeError):
        return None
    return path if (path / "index.html").exists() else None


async def _backfill(lobby: Lobby, service: GameService) -> None:
    try:
        await lobby.backfill(service)
    except Exception:  # the next start scans again
        log.exception("lobby scan failed")


async def _trim(cache: GameCache, interval: float) -> None:
    """Games grow while cached: re-check the cache's memory bound now and then."""
    while True:
        await asyncio.sleep(interval)
        cache.trim()


def create_app(
    settings: Settings | None = None,
    registry: Registry | None = None,
    store: EventStore | None = None,
    data_lock: DataFolderLock | None = None,
    now: Callable[[], int] | None = None,
) -> Starlette:
    """The app. With no ``store`` it connects to ``settings.redis_url``, or (None) starts an
    embedded Redis on ``settings.data_dir``, holding that folder's lock: ``data_lock`` if
    the caller took it already (``cloister serve`` does, before binding its port), else
    one taken here, so two servers never share one folder's Redis data. ``now`` is the
    clocks' time source (milliseconds since the epoch; tests pass their own)."""
    settings = settings or Settings.from_env()
    registry = registry if registry is not None else default_registry()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        embedded = None
        own_lock = None
        own_store = store
        if own_store is None:
            from .store.redis import RedisStore

            url = settings.redis_url
            if url is None:
                lock = data_lock
                if lock is None:
                    lock = own_lock = DataFolderLock(settings.data_dir)
                    lock.acquire()
                embedded = EmbeddedRedis(settings.data_dir, lock)
                try:
                    url = await asyncio.to_thread(embedded.start)
                except BaseException:
                    if own_lock is not None:
                        own_lock.release()
                    raise
                lock.record(redis=url)  # for people (and tests) looking at the folder
                log.info("embedded Redis on %s, data in %s", url, embedded.data_dir)
            own_store = RedisStore(url, settings.key_prefix)
            # A wrong URL form (redis:// to a cluster node) fails the start with its
            # advice; a Redis that is down now is only retried later, as before.
            try:
                await own_store.probe()
            except (ConnectionError, OSError):
                pass
            except BaseException:
                await own_store.close()  # nothing else will: the start fails here
                raise
        service = GameService(own_store, registry)
        hub = Hub(service)
        if now is not None:
            service.now = now
        clocks = ClockKeeper(service, settings.clock_tick, settings.clock_watch)
        hub.table = clocks.wire
        bots = BotRunner(service, settings.bot_delay)
        service.games = GameCache(
            settings.cache_games,
            settings.cache_bytes,
            # Never dropped while played here: a game would be held twice by one process.
            # A running turn clock counts as play: dropped, it would expire only when
            # something loaded the game again.
            in_use=lambda gid, rec: (
                bool(hub.connections.get(gid))
                or bots.busy(gid, len(rec.seats))
                or gid in clocks.tables
            ),
        )
        lobby = lobby_for(own_store)
        service.listeners.append(lobby.on_entries)
        app.state.settings = settings
        app.state.registry = registry
        app.state.store = own_store
        app.state.service = service
        app.state.hub = hub
        app.state.bots = bots
        app.state.clocks = clocks
        app.state.lobby = lobby
        app.state.glossaries = {}
        tasks = [
            asyncio.create_task(hub.follow_doorbells()),
            asyncio.create_task(hub.reconcile(settings.reconcile_seconds)),
            asyncio.create_task(clocks.run()),
            asyncio.create_task(lobby.run()),
            asyncio.create_task(_backfill(lobby, service)),
            asyncio.create_task(_trim(service.games, settings.reconcile_seconds)),
        ]
        try:
            yield
        finally:
            await bots.close()
            await lobby.close()
            await clocks.close()
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if store is None:
                await own_store.close()
            if embedded is not None:
                embedded.stop()
            if own_lock is not None:
                own_lock.release()

    routes: list[Any] = [
        Route("/api/health", health),
        Route("/api/game-types", game_types),
        Route("/api/types/{type_name}/glossary", glossary),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games/import", import_game, methods=["POST"]),
        Route("/api/play", play_now, methods=["POST"]),
        Route("/api/games/{game_id}", get_game),
        Route("/api/games/{game_id}/seats", join, methods=["POST"]),
        Route("/api/games/{game_id}/bots", add_bot, methods=["POST"]),
        Route("/api/games/{game_id}/events", events),
        Route("/api/games/{game_id}/view", view_at),
        Route("/api/games/{game_id}/verify", verify_game),
        WebSocketRoute("/api/games/{game_id}/ws", game_socket),
        Route("/api/openapi.json", openapi_document),
        Route("/metrics", prometheus),
    ]
    from .undo_api import ROUTES as TABLE_ROUTES  # undo, fork, report (imports this module)

    routes[-3:-3] = TABLE_ROUTES
    web = _web_dir()
    if web is not None:
        routes.append(Mount("/", StaticFiles(directory=str(web), html=True), name="web"))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            # Body limits first: nothing behind them sees a byte over the limit.
            Middleware(
                BodyLimit,
                default=settings.max_body_bytes,
                per_path={"/api/games/import": settings.max_import_bytes},
            ),
            Middleware(RawSend),
        ],
        exception_handlers={
            HTTPException: http_error,
            **dict.fromkeys(STORE_ERRORS, store_unavailable),
        },
    )
    app.state.openapi = None
    return app
