"""The Starlette application: HTTP lobby and replay routes, the WebSocket, the lifespan.

``create_app`` takes everything it needs (settings, registry, optionally a store) and keeps
it on ``app.state``: no module-level globals, so tests can build as many apps as they like.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from domain import REVIEW, SPECTATOR, Registry, default_registry, seat_viewer

from . import metrics
from .bots import BotRunner
from .config import Settings
from .errors import ServiceError
from .games import GameRecord, GameService
from .hub import Hub, legal_for, wire_events
from .store.base import EventStore
from .ws import game_socket

__all__ = ["create_app"]

log = logging.getLogger("cloister.app")

SERVER_VERSION = "0.1.0"


class ORJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def _error(exc: ServiceError) -> Response:
    return ORJSONResponse({"error": {"code": exc.code, "message": exc.message}}, exc.status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > request.app.state.settings.max_message_bytes:
        raise ServiceError("too_large", "request body too large", 413)
    if not raw:
        return {}
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ServiceError("bad_json", "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ServiceError("bad_request", "the body must be a JSON object")
    return body


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


def _handles_errors(fn: Any) -> Any:
    async def wrapper(request: Request) -> Response:
        try:
            return await fn(request)  # type: ignore[no-any-return]
        except ServiceError as exc:
            return _error(exc)

    wrapper.__name__ = fn.__name__
    return wrapper


@_handles_errors
async def health(request: Request) -> Response:
    store = request.app.state.store
    status = "ok"
    try:
        if hasattr(store, "redis"):
            await store.redis.ping()
    except Exception:
        status = "unavailable"
    code = 200 if status == "ok" else 503
    return ORJSONResponse({"status": status, "redis": status, "version": SERVER_VERSION}, code)


@_handles_errors
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
                    }
                    for o in t.game.option_specs
                ],
                "bots": sorted({"random", *t.bots}),
            }
        )
    return ORJSONResponse({"game_types": out})


@_handles_errors
async def glossary(request: Request) -> Response:
    """Printed name, kind and rules text of every component of a game type, by id."""
    registry: Registry = request.app.state.registry
    name = request.path_params["type_name"]
    gtype = registry.get(name)
    if gtype is None:
        raise ServiceError(
            "unknown_game_type", f"no game type {name!r}; types: {sorted(registry)}", 404
        )
    cache: dict[str, bytes] = request.app.state.glossaries
    body = cache.get(name)
    if body is None:  # static content: encoded once per process
        entries = gtype.game.glossary()
        body = cache[name] = orjson.dumps(
            {k: {"name": e.name, "kind": e.kind, "text": e.text} for k, e in entries.items()}
        )
    return Response(body, media_type="application/json")


@_handles_errors
async def create_game(request: Request) -> Response:
    body = await _body(request)
    type_ = body.get("type")
    if not isinstance(type_, str):
        raise ServiceError("bad_request", "'type' (the game type's name) is required")
    options = body.get("options")
    options = {} if options is None else options
    seed = body.get("seed")
    if not isinstance(options, dict) or (seed is not None and not isinstance(seed, (str, int))):
        raise ServiceError("bad_request", "'options' must be an object and 'seed' a string")
    rec = await _service(request).create(type_, options, str(seed) if seed is not None else None)
    return ORJSONResponse(rec.summary(), 201)


@_handles_errors
async def import_game(request: Request) -> Response:
    raw = await request.body()
    if len(raw) > 64 << 20:
        raise ServiceError("too_large", "a log is limited to 64 MiB", 413)
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ServiceError("bad_json", "the body is not valid JSON") from None
    events = body.get("events") if isinstance(body, dict) else None
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise ServiceError("bad_request", "'events' must be a list of exported events")
    rec = await _service(request).import_log(events)
    return ORJSONResponse(rec.summary(), 201)


@_handles_errors
async def list_games(request: Request) -> Response:
    service = _service(request)
    wanted = request.query_params.get("status")
    out = []
    for gid in (await service.store.game_ids())[:500]:
        try:
            rec = await service.load(gid)
        except ServiceError:
            continue
        if wanted is None or rec.status == wanted:
            out.append(rec.summary())
    return ORJSONResponse({"games": out})


@_handles_errors
async def get_game(request: Request) -> Response:
    rec = await _game(request)
    async with rec.lock:
        await _service(request).catch_up(rec)
    return ORJSONResponse(rec.summary())


def _name(body: dict[str, Any], key: str = "name", default: str | None = None) -> str:
    name = body.get(key, default)
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40:
        raise ServiceError("bad_request", f"'{key}' must be a string of 1-40 characters")
    return name.strip()


def _seat(body: dict[str, Any]) -> int | None:
    seat = body.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise ServiceError("bad_request", "'seat' must be an integer")
    return seat


@_handles_errors
async def join(request: Request) -> Response:
    rec = await _game(request)
    body = await _body(request)
    name = _name(body)
    if name.lower().endswith("(bot)"):
        raise ServiceError("bad_request", "'(bot)' marks the server's bots: choose another name")
    seat, token = await _service(request).take_seat(rec, _seat(body), name)
    return ORJSONResponse({"seat": seat, "token": token}, 201)


@_handles_errors
async def add_bot(request: Request) -> Response:
    rec = await _game(request)
    body = await _body(request)
    level = body.get("level")
    try:
        bot = rec.gtype.bot(level if isinstance(level, str) else None)
    except KeyError as exc:
        raise ServiceError("unknown_bot", str(exc.args[0])) from None
    seat, _ = await _service(request).take_seat(rec, _seat(body), None, bot.name)
    info = rec.seats[seat]
    name = info.name if info is not None else None
    return ORJSONResponse({"seat": seat, "level": bot.name, "name": name}, 201)


def _viewer(rec: GameRecord, seat: int | None) -> Any:
    if rec.terminal:
        return REVIEW
    return SPECTATOR if seat is None else seat_viewer(seat)


@_handles_errors
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


@_handles_errors
async def view_at(request: Request) -> Response:
    rec = await _game(request)
    seat = await _audience_seat(request, rec)
    version = min(_int_param(request, "version", rec.version), rec.version)
    viewer = _viewer(rec, seat)
    state = rec.state_at(version)
    view = rec.codec.encode_view(rec.game.view(state, viewer)) if state is not None else None
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
        }
    )


async def prometheus(request: Request) -> Response:
    return PlainTextResponse(
        metrics.render(request.app.state.service, request.app.state.hub),
        media_type="text/plain; version=0.0.4",
    )


def _web_dir() -> Path | None:
    try:
        path = Path(str(resources.files("clients").joinpath("web")))
    except (ModuleNotFoundError, TypeError):
        return None
    return path if (path / "index.html").exists() else None


def create_app(
    settings: Settings | None = None,
    registry: Registry | None = None,
    store: EventStore | None = None,
) -> Starlette:
    settings = settings or Settings.from_env()
    registry = registry if registry is not None else default_registry()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        embedded = None
        own_store = store
        if own_store is None:
            from .store.redis import RedisStore

            url = settings.redis_url
            if url is None:
                from .embedded import EmbeddedRedis

                embedded = EmbeddedRedis(settings.data_dir)
                url = await asyncio.to_thread(embedded.start)
                log.info("embedded Redis on %s, data in %s", url, embedded.data_dir)
            own_store = RedisStore(url, settings.key_prefix)
        service = GameService(own_store, registry)
        hub = Hub(service)
        bots = BotRunner(service, settings.bot_delay)
        app.state.settings = settings
        app.state.registry = registry
        app.state.store = own_store
        app.state.service = service
        app.state.hub = hub
        app.state.bots = bots
        app.state.glossaries = {}
        tasks = [
            asyncio.create_task(hub.follow_doorbells()),
            asyncio.create_task(hub.reconcile(settings.reconcile_seconds)),
        ]
        try:
            yield
        finally:
            await bots.close()
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if store is None:
                await own_store.close()
            if embedded is not None:
                embedded.stop()

    routes: list[Any] = [
        Route("/api/health", health),
        Route("/api/game-types", game_types),
        Route("/api/types/{type_name}/glossary", glossary),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games/import", import_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game),
        Route("/api/games/{game_id}/seats", join, methods=["POST"]),
        Route("/api/games/{game_id}/bots", add_bot, methods=["POST"]),
        Route("/api/games/{game_id}/events", events),
        Route("/api/games/{game_id}/view", view_at),
        WebSocketRoute("/api/games/{game_id}/ws", game_socket),
        Route("/metrics", prometheus),
    ]
    web = _web_dir()
    if web is not None:
        routes.append(Mount("/", StaticFiles(directory=str(web), html=True), name="web"))
    return Starlette(routes=routes, lifespan=lifespan)
