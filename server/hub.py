"""Fan-out: push each new event to every local connection, as its viewer may see it.

The hub listens to the game service (own appends and catch-ups alike). For each batch of new
entries it groups the game's connections by audience and computes the redacted events, the
view and the legal commands once per audience, encodes them once, and queues the same bytes
to every connection of that audience. A slow connection only grows its own queue.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from typing import Any

import attrs

from domain import REVIEW, SPECTATOR, Names, Viewer, seat_viewer
from protocol import PROTOCOL_VERSION, GameOverMessage, Update, Welcome, WireEvent, encode

from .games import PLATFORM, GameRecord, GameService, LogEntry

__all__ = ["Connection", "Hub"]

log = logging.getLogger("cloister.hub")

MAX_QUEUE = 2000

ORIGIN: contextvars.ContextVar[Connection | None] = contextvars.ContextVar("origin", default=None)
"""The connection whose command is being executed in this task (set by the WebSocket)."""


@attrs.define(eq=False)
class Connection:
    """One WebSocket as the hub sees it: an audience and an outbox."""

    game_id: str
    seat: int | None
    outbox: asyncio.Queue[bytes | None] = attrs.field(factory=asyncio.Queue)
    version: int = 0
    closed: bool = False
    acked: str | None = None
    """The command id its last update carried (so no separate ``accepted`` is sent)."""

    def push(self, data: bytes) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= MAX_QUEUE:
            # A client this far behind is gone or hostile; it can reconnect and resume.
            self.closed = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(data)


def audience(rec: GameRecord, seat: int | None) -> Viewer:
    if rec.terminal:
        return REVIEW  # post-game review: the whole log for everyone
    return SPECTATOR if seat is None else seat_viewer(seat)


def names_for(rec: GameRecord, viewer: Viewer) -> Names:
    """How this audience's log names the seats: "Ann (France)", for ``viewer``'s reading."""
    labels = rec.labels
    if rec.state is not None:
        labels = rec.game.table_labels(rec.state, labels)
    players = tuple(None if s is None else s.log_name for s in rec.seats)
    return Names(tuple(labels), players, viewer)


def wire_events(rec: GameRecord, entries: list[LogEntry], viewer: Viewer) -> list[WireEvent]:
    """The entries as ``viewer`` may see them, each with its log sentence (``text``; empty
    for bookkeeping with no sentence and for events the viewer may not see at all)."""
    game = rec.game
    names = names_for(rec, viewer)
    out = []
    for e in entries:
        if e.event is None:
            out.append(WireEvent(e.version, e.type, e.data, platform_text(rec, e, names)))
            continue
        red = game.redact(e.event, viewer)
        if red is None:
            out.append(WireEvent(e.version, "Hidden", {}, ""))
        elif red is e.event:
            out.append(WireEvent(e.version, e.type, e.data, game.narrate(red, names) or ""))
        else:
            out.append(
                WireEvent(
                    e.version,
                    type(red).__name__,
                    rec.codec.encode_event(red),
                    game.narrate(red, names) or "",
                )
            )
    return out


def platform_text(rec: GameRecord, e: LogEntry, names: Names) -> str:
    """The log sentence of a platform event (``cloister.*``); empty if it has none."""
    kind = e.type[len(PLATFORM) :]
    if kind == "SeatTaken":
        seat = e.data["seat"]
        who = e.data["name"]
        if e.data.get("bot") and not who.endswith("(bot)"):
            who += " (bot)"  # logs written before bots had names of their own
        # The label the seat was created with: stable, whenever the sentence is made.
        return f"{who} sits down as {rec.labels[seat]}"
    if kind == "GameStarted":
        return "All seats are taken: the game begins"
    if kind == "GameCreated":
        return f"A new game of {rec.game.title}"
    if kind == "Chat":
        return f"{names.seat(e.data['seat'])} says: {e.data['text']}"
    return ""


def current_view(rec: GameRecord, viewer: Viewer) -> Any:
    """The raw view object; ``GameCodec.message_bytes`` encodes it."""
    if rec.state is None:
        return None
    return rec.game.view(rec.state, viewer)


def legal_for(rec: GameRecord, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or rec.state is None or rec.terminal:
        return []
    return [rec.codec.encode_command(c) for c in rec.game.legal_commands(rec.state, seat)]


class Hub:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.connections: dict[str, set[Connection]] = {}
        service.listeners.append(self.on_entries)

    def watched(self) -> list[str]:
        return [g for g, conns in self.connections.items() if conns]

    def attach(self, rec: GameRecord, conn: Connection, since: int | None) -> None:
        """Queue the welcome and register, with no await in between, so the connection
        gets every later event exactly once."""
        viewer = audience(rec, conn.seat)
        events: list[WireEvent] = []
        if since is not None:
            events = wire_events(rec, rec.log[max(since, 0) :], viewer)
        welcome = Welcome(
            v=PROTOCOL_VERSION,
            game=rec.id,
            game_type=rec.gtype.name,
            seat=conn.seat,
            status=rec.status,
            version=rec.version,
            view=current_view(rec, viewer),
            legal=legal_for(rec, conn.seat),
            to_act=rec.to_act(),
            events=events,
        )
        conn.version = rec.version
        conn.push(rec.codec.message_bytes(welcome))
        self.connections.setdefault(rec.id, set()).add(conn)

    def detach(self, conn: Connection) -> None:
        conns = self.connections.get(conn.game_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.connections[conn.game_id]

    def resync(self, rec: GameRecord, conn: Connection, since: int) -> None:
        viewer = audience(rec, conn.seat)
        update = Update(
            version=rec.version,
            events=wire_events(rec, rec.log[max(since, 0) :], viewer),
            view=current_view(rec, viewer),
            legal=legal_for(rec, conn.seat),
            to_act=rec.to_act(),
            status=rec.status,
        )
        conn.version = rec.version
        conn.push(rec.codec.message_bytes(update))

    def on_entries(
        self, rec: GameRecord, entries: list[LogEntry], command_id: str | None = None
    ) -> None:
        conns = self.connections.get(rec.id)
        if not conns:
            return
        origin = ORIGIN.get() if command_id is not None else None
        first = entries[0].version
        to_act, status = rec.to_act(), rec.status
        cache: dict[tuple[Viewer, int | None], bytes] = {}
        game_over = None
        if rec.terminal and any(e.version > 0 for e in entries):
            result = rec.game.result(rec.state)
            game_over = encode(GameOverMessage(rec.version, attrs.asdict(result) if result else {}))
        for conn in list(conns):
            if conn.version >= rec.version:
                continue
            viewer = audience(rec, conn.seat)
            # Seats differ in their legal commands, so the cache key includes the seat.
            key = (viewer, conn.seat)
            data = cache.get(key)
            skip = conn.version - first + 1
            own = conn is origin
            if data is None or skip > 0 or own:
                batch = entries[skip:] if skip > 0 else entries
                data = rec.codec.message_bytes(
                    Update(
                        version=rec.version,
                        events=wire_events(rec, batch, viewer),
                        view=current_view(rec, viewer),
                        legal=legal_for(rec, conn.seat),
                        to_act=to_act,
                        status=status,
                        command_id=command_id if own else None,
                    )
                )
                if own:
                    conn.acked = command_id
                elif skip <= 0:
                    cache[key] = data
            conn.version = rec.version
            conn.push(data)
            if game_over is not None:
                conn.push(game_over)

    async def follow_doorbells(self) -> None:
        """Catch up watched games when any node appends (runs for the app's lifetime)."""
        async for game_id, head in self.service.store.doorbells():
            try:
                if game_id == "*":
                    for gid in self.watched():
                        await self._catch_up(gid)
                    continue
                rec = self.service.games.get(game_id)
                if rec is not None and head > rec.version:
                    await self._catch_up(game_id)
            except Exception:
                log.exception("catch-up of %s failed", game_id)

    async def reconcile(self, interval: float) -> None:
        """Doorbells are best effort: poll watched games now and then as well."""
        while True:
            await asyncio.sleep(interval)
            for gid in self.watched():
                try:
                    await self._catch_up(gid)
                except Exception:
                    log.exception("reconcile of %s failed", gid)

    async def _catch_up(self, game_id: str) -> None:
        rec = self.service.games.get(game_id)
        if rec is None:
            return
        async with rec.lock:
            await self.service.catch_up(rec)
