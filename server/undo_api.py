"""HTTP routes of undo, fork and report (``server.undo``, ``server.fork``; docs/api.md)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain import seat_viewer
from protocol.table import (
    REPORT_MAX_CHARS,
    ForkedGame,
    ForkGame,
    ReportProblem,
    ReportReply,
    UndoDone,
    UndoRequest,
    UndoStatus,
)

from .app import (
    ORJSONResponse,
    _audience_seat,
    _bot_claim,
    _decode,
    _game,
    _name,
    _service,
    endpoint,
)
from .errors import ServiceError
from .fork import fork_game, report
from .games import SeatClaim
from .hub import names_for
from .openapi import Operation
from .undo import undo, undo_options

__all__ = ["ROUTES"]


async def _seat(request: Request) -> int:
    rec = await _game(request)
    seat = await _audience_seat(request, rec)
    if seat is None:
        raise ServiceError(
            "bad_token", "undo needs your seat: 'Authorization: Bearer <token>'", 401
        )
    return seat


@endpoint(
    Operation(
        "How far the caller's seat may undo now (targets newest first, and why no further)",
        {200: UndoStatus},
        token=True,
        errors=(401, 403),
    )
)
async def undo_status(request: Request) -> Response:
    rec = await _game(request)
    seat = await _seat(request)
    async with rec.lock:
        await _service(request).catch_up(rec)
    if rec.state is None or rec.terminal:
        why = "the game has not started" if rec.state is None else "the game is over"
        targets: list[int] = []
    else:
        opts = undo_options(rec.game, rec.log, seat, names_for(rec, seat_viewer(seat)))
        targets, why = list(opts.targets), opts.reason
    return ORJSONResponse(
        {
            "version": rec.version,
            "allowed": bool(targets),
            "targets": targets,
            "reason": why,
            "steps": len(targets),
        }
    )


@endpoint(
    Operation(
        "Take back your last command(s), up to the information horizon",
        {200: UndoDone},
        request=UndoRequest,
        token=True,
        errors=(400, 401, 403, 409, 413),
    )
)
async def undo_route(request: Request) -> Response:
    rec = await _game(request)
    seat = await _seat(request)
    body = await _decode(request, UndoRequest)
    version, _ = await undo(_service(request), rec, seat, body.to_version, steps=body.steps)
    data = rec.log[version - 1].data
    return ORJSONResponse(
        {"version": version, "to_version": data["to_version"], "commands": data["commands"]}
    )


@endpoint(
    Operation(
        "Fork here: a new game from a version of a finished game, fresh randomness after it",
        {201: ForkedGame},
        request=ForkGame,
        errors=(400, 409, 413),
    )
)
async def fork_route(request: Request) -> Response:
    rec = await _game(request)
    body = await _decode(request, ForkGame)
    claims = [] if body.join is None else [SeatClaim(_name(body.join.name), body.join.seat)]
    claims += [_bot_claim(rec.gtype, b.seat, b.level) for b in body.bots]
    new, seats = await fork_game(_service(request), rec, body.version, claims)
    out = new.summary()
    out["forked_from"] = {"game": rec.id, "version": body.version}
    if body.join is not None:
        seat, token = seats[0]
        out["you"] = {"seat": seat, "token": token}
    return ORJSONResponse(out, 201)


@endpoint(
    Operation(
        "Report a problem: what the caller may see of the game now, and nothing more",
        {200: ReportReply},
        request=ReportProblem,
        token=True,
        errors=(400, 401, 403, 413),
    )
)
async def report_route(request: Request) -> Response:
    rec = await _game(request)
    seat = await _audience_seat(request, rec)
    body = await _decode(request, ReportProblem)
    text = body.text.strip()
    if len(text) > REPORT_MAX_CHARS:
        raise ServiceError(
            "report_too_long", f"a report's text is limited to {REPORT_MAX_CHARS} characters"
        )
    async with rec.lock:
        await _service(request).catch_up(rec)
    return ORJSONResponse(report(rec, seat, text))


ROUTES = [
    Route("/api/games/{game_id}/undo", undo_status, methods=["GET"]),
    Route("/api/games/{game_id}/undo", undo_route, methods=["POST"]),
    Route("/api/games/{game_id}/fork", fork_route, methods=["POST"]),
    Route("/api/games/{game_id}/report", report_route, methods=["POST"]),
]
