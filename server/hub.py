"""Fan-out: push each new event to every local connection, as its viewer may see it.

The hub listens to the game service (own appends and catch-ups alike). For each batch of new
entries it groups the game's connections by what they hold (the audience of their view) and
their seat, and sends each group one frame, encoded once:

* the events of the batch, redacted for the group's audience;
* a *delta* from the view the group holds to the view after the batch (``protocol.delta``),
  with ``base``, the version it applies to; the full view only when the hub has no view at
  that base (a connection that was behind) and on welcome and resync;
* the seat's legal commands in compact form (``protocol.legal``), only when they changed,
  and only ever non-empty for a seat that can act.

Views and legal commands are computed once per (state, audience) and kept in a
:class:`Projection` per game, so the welcome of a newcomer, a resync and the next batch's
delta all reuse them.

Frames go straight to the socket when the connection has a direct writer (``server.ws``),
else through an outbox drained by a sender task. A connection whose unsent frames pass a
bound is dropped; its client reconnects and resumes.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from typing import Any

import attrs
import orjson

from domain import REVIEW, SPECTATOR, Names, Viewer, seat_viewer
from domain.game import GameBase
from domain.secrets import UndeclaredSecrets
from domain.views import Memo, render
from protocol import PROTOCOL_VERSION, GameOverMessage, WireEvent, encode
from protocol.delta import diff
from protocol.legal import compact_legal, compact_segments

from .errors import STORE_ERRORS
from .fork import fork_created
from .games import COMMAND_ACCEPTED, PLATFORM, GameRecord, GameService, LogEntry
from .undo import undo_text

__all__ = ["Connection", "Hub", "Projection", "legal_for", "view_at", "wire_events"]

log = logging.getLogger("cloister.hub")

MAX_QUEUE = 2000
"""Frames queued for a connection without a direct writer before it is dropped."""

ORIGIN: contextvars.ContextVar[Connection | None] = contextvars.ContextVar("origin", default=None)
"""The connection whose command is being executed in this task (set by the WebSocket)."""

_UNSET: Any = object()

Writer = Callable[[bytes], bool]
"""Writes one text frame (UTF-8 bytes) to the socket now; False: the connection is too far
behind (its unsent bytes passed the bound) or already closing."""


@attrs.define(eq=False)
class Connection:
    """One WebSocket as the hub sees it: an audience, what it holds, and a way out.

    Invariant: a connection at ``version`` holds the view of ``holds`` at that version and
    the seat's legal commands at that version; every frame keeps it true.
    """

    game_id: str
    seat: int | None
    writer: Writer | None = None
    outbox: asyncio.Queue[bytes | None] | None = None
    on_drop: Callable[[], None] | None = None
    version: int = 0
    holds: Viewer | None = None
    closed: bool = False
    acked: str | None = None
    """The command id its last update carried (so no separate ``accepted`` is sent)."""

    def push(self, data: bytes) -> None:
        if self.closed:
            return
        if self.writer is not None:
            if not self.writer(data):
                self._drop()
            return
        if self.outbox is None:
            self.outbox = asyncio.Queue()
        if self.outbox.qsize() >= MAX_QUEUE:
            self._drop()
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(data)

    def cut(self) -> None:
        """Drop this connection now (close 4429 through the sender, or cut the socket)."""
        if self.closed:
            return
        self._drop()
        if self.outbox is not None:
            self.outbox.put_nowait(None)

    def _drop(self) -> None:
        # A client this far behind is gone or hostile; it can reconnect and resume.
        self.closed = True
        if self.on_drop is not None:
            self.on_drop()


def audience(rec: GameRecord, seat: int | None, terminal: bool | None = None) -> Viewer:
    if rec.terminal if terminal is None else terminal:
        return REVIEW  # post-game review: the whole log for everyone
    return SPECTATOR if seat is None else seat_viewer(seat)


Table = tuple[tuple[str, ...], tuple[str | None, ...]]
"""The seats' labels and players' names as the log says them (``table_names``)."""


def table_names(rec: GameRecord) -> Table:
    """The labels (as the game's state has them) and players' log names of the seats: the
    same for every audience of one batch of entries. Kept on the record (``names``) for
    a game with the default labels (the same in every state) until a seat changes."""
    table: Table | None = rec.names
    if table is not None:
        return table
    labels = rec.labels
    game = rec.game
    if rec.state is not None:
        labels = game.table_labels(rec.state, labels)
    players = tuple(None if s is None else s.log_name for s in rec.seats)
    table = tuple(labels), players
    if getattr(type(game), "table_labels", None) is GameBase.table_labels:
        rec.names = table
    return table


def names_for(rec: GameRecord, viewer: Viewer, table: Table | None = None) -> Names:
    """How this audience's log names the seats: "Ann (France)", for ``viewer``'s reading.
    ``table``: ``table_names(rec)``, when the caller has it."""
    return _names(table_names(rec) if table is None else table, viewer)


_NAMES: dict[tuple[int, int], tuple[Table, Viewer, Names]] = {}
"""Names by the identities of a table (kept on its record until a seat changes) and an
audience (the shared viewers ``audience`` gives), with both kept alive in the entry so that
no id is reused while it lives. Every move narrates its events once per audience: one
``Names`` each time was an attrs ``__init__`` per audience per move, and a new object every
time, which the games' narration caches (by identity first) could never find again."""
_NAMES_MAX = 4096


def _names(table: Table, viewer: Viewer) -> Names:
    key = (id(table), id(viewer))
    hit = _NAMES.get(key)
    if hit is not None and hit[0] is table and hit[1] is viewer:
        return hit[2]
    if len(_NAMES) >= _NAMES_MAX:
        _NAMES.clear()
    names = Names(table[0], table[1], viewer)
    _NAMES[key] = (table, viewer, names)
    return names


def wire_events(rec: GameRecord, entries: list[LogEntry], viewer: Viewer) -> list[WireEvent]:
    """The entries as ``viewer`` may see them, each with its log sentence (``text``; empty
    for bookkeeping with no sentence and for events the viewer may not see at all)."""
    return [WireEvent(**e) for e in _wire_dicts(rec, entries, viewer)]


def _wire_dicts(
    rec: GameRecord, entries: list[LogEntry], viewer: Viewer, table: Table | None = None
) -> list[dict[str, Any]]:
    """As ``wire_events``, as JSON-ready dicts (the fan-out encodes them once per audience).
    ``table``: ``table_names(rec)``, when the caller has it."""
    game = rec.game
    names = _names(table_names(rec) if table is None else table, viewer)
    out: list[dict[str, Any]] = []
    for e in entries:
        # LogEntry.data, without its property call when already parsed (an appended entry).
        data = e._data
        if type(data) is not dict:
            data = e.data
        if e.type == COMMAND_ACCEPTED:  # one per command: the commonest entry by far
            seat = data["seat"]
            if not viewer.omniscient and viewer.seat != seat:  # Viewer.sees_seat
                # A command can carry a choice still secret (a face-down pick): others
                # learn only who acted, and when.
                data = {"seat": seat, "at": data["at"]}
            # Its log sentence is none (platform_text says why).
            out.append({"version": e.version, "type": COMMAND_ACCEPTED, "data": data, "text": ""})
            continue
        event = e.event  # a property: asked once
        if event is None:
            text = platform_text(rec, e, names)
            if e.version == 1 and "fork" in data and viewer != REVIEW:
                data = fork_created(data)  # the position's secrets, as in its events
            out.append({"version": e.version, "type": e.type, "data": data, "text": text})
            continue
        try:
            red = game.redact(event, viewer)
        except UndeclaredSecrets:
            # Fail closed: an event type that never said what is secret in it is sent to
            # nobody (the contract suite makes this an error before it ships).
            log.error("%s not sent to %s: its type declares no secrets", e.type, viewer)
            red = None
        if red is None:
            out.append({"version": e.version, "type": "Hidden", "data": {}, "text": ""})
        elif red is event:
            text = game.narrate(red, names) or ""
            out.append({"version": e.version, "type": e.type, "data": data, "text": text})
        else:
            out.append(
                {
                    "version": e.version,
                    "type": type(red).__name__,
                    "data": rec.codec.encode_event(red),
                    "text": game.narrate(red, names) or "",
                }
            )
    return out


def platform_text(rec: GameRecord, e: LogEntry, names: Names) -> str:
    """The log sentence of a platform event (``cloister.*``); empty if it has none."""
    if e.type == COMMAND_ACCEPTED:
        # Bookkeeping, quiet like a game's quiet events: the events the command produced tell
        # right after what it did, in the rulebook's words, and a line "X makes a move" before
        # each of them doubled the log. Exports and ``cloister verify`` still carry it.
        return ""  # asked first: one per command, the commonest platform event by far
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
    if kind == "Undone":
        return undo_text(e.data, names)
    if kind == "SeedRevealed":
        return (
            "The random seed is revealed: anyone can now check every shuffle, draw and "
            "roll against the promise made when the game was created"
        )
    from .clocks import clock_text

    return clock_text(rec, e, names)


def current_view(rec: GameRecord, viewer: Viewer, proj: Projection | None = None) -> Any:
    """What ``viewer`` is sent of the game now (None before the start), JSON-ready.

    The kernel redacts the game's full view (``domain.views``); with ``proj``, the full view
    is built once per version and what every audience sees alike is converted once.
    Kept as rendered: ``diff`` compares it with ``==`` as is.
    """
    if rec.state is None:
        return None
    return view_at(rec, rec.state, viewer, proj)


def view_at(rec: GameRecord, state: Any, viewer: Viewer, proj: Projection | None = None) -> Any:
    """``viewer``'s view of ``state``; None (and an error logged) if the game's view is not
    made of declared view parts: fail closed, as for events."""
    try:
        if proj is None:
            return render(rec.game.full_view(state), viewer)
        if proj.full is None:
            proj.full = rec.game.full_view(state)
        return render(proj.full, viewer, proj.memo)
    except UndeclaredSecrets as exc:
        log.error(
            "view of %s (%s) not sent to %s: %s",
            rec.id,
            rec.gtype.name,
            viewer,
            exc,
            extra={"game": rec.id, "game_type": rec.gtype.name, "audience": str(viewer)},
        )
        return None


def legal_for(
    rec: GameRecord, seat: int | None, to_act: list[int] | None = None
) -> list[dict[str, Any]]:
    """The seat's legal commands, expanded (the HTTP view route); [] if it cannot act.
    ``to_act``: ``rec.to_act()``, when the caller has it."""
    commands = _legal_commands(rec, seat, to_act)
    return rec.codec.encode_commands(commands) if commands else []


def _legal_commands(rec: GameRecord, seat: int | None, to_act: list[int] | None) -> Any:
    """The seat's legal commands as the rules give them (domain objects); () if it
    cannot act."""
    if seat is None or not _may_act(rec, seat, to_act):
        return ()
    return rec.game.legal_commands(rec.state, seat)


def _may_act(rec: GameRecord, seat: int, to_act: list[int] | None) -> bool:
    """Whether ``seat`` is offered legal commands now (``to_act``: ``rec.to_act()``)."""
    if rec.state is None:
        return False
    if to_act is None:
        to_act = rec.to_act()  # [] once the game is over
    if seat not in to_act:
        return False
    info = rec.seats[seat]
    # A bot plays for a stood-in seat until its player retakes it (server.clocks).
    return info is None or info.stand_in is None


@attrs.define(init=False)
class Projection:
    """What the hub computed for one game at one version: views per audience, compact
    legal commands per seat. Replaced by a new one when the game moves on."""

    version: int
    views: dict[Viewer, Any]
    legal: dict[int | None, list[dict[str, Any]]]
    full: Any
    """The game's full view at this version, built once for all audiences."""
    memo: Memo
    known: dict[int, tuple[Any, list[dict[str, Any]]]]
    """Per seat, the last legal commands worked out (domain objects) and their compact
    form, handed on from projection to projection (``Hub.projection``): a seat offered
    the same commands as before (every turn of many games) reuses the compact form
    instead of encoding and grouping them again."""

    def __init__(
        self, version: int, known: dict[int, tuple[Any, list[dict[str, Any]]]] | None = None
    ) -> None:
        # Written out (one projection per move): attrs' generated ``__init__`` called a
        # factory per dict and tested a sentinel per argument.
        self.version = version
        self.views = {}
        self.legal = {}
        self.full = None
        self.memo = {}
        self.known = {} if known is None else known

    def view(self, rec: GameRecord, viewer: Viewer) -> Any:
        # Looked up, not caught: every audience misses once per version (a new projection
        # each move), and a raised KeyError costs more than the lookup.
        view = self.views.get(viewer, _UNSET)
        if view is _UNSET:
            # current_view(), without its call: once per audience per move.
            state = rec.state
            view = None if state is None else view_at(rec, state, viewer, self)
            self.views[viewer] = view
        return view

    def legal_of(
        self, rec: GameRecord, seat: int | None, to_act: list[int] | None = None
    ) -> list[dict[str, Any]]:
        legal = self.legal.get(seat)
        if legal is not None:
            return legal
        # A seat that cannot act has nothing to group (most seats, most of the time).
        legal = []
        if seat is not None and _may_act(rec, seat, to_act):
            game = rec.game
            # A game that lists its commands as memoized runs has them grouped a run at a
            # time (domain.game.legal_segments); the same groups either way.
            runs = getattr(game, "legal_segments", None)
            listed = game.legal_commands(rec.state, seat) if runs is None else runs(rec.state, seat)
            if listed:
                known = self.known.get(seat)
                # Equal commands (attrs equality: same types, equal fields) encode alike.
                if known is not None and known[0] == listed:
                    legal = known[1]
                elif runs is None:
                    legal = compact_legal(rec.codec.encode_commands(listed))
                    self.known[seat] = (listed, legal)
                else:
                    legal = compact_segments(rec.codec, listed)
                    self.known[seat] = (listed, legal)
        self.legal[seat] = legal
        return legal


class Hub:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.connections: dict[str, set[Connection]] = {}
        self.projections: dict[str, Projection] = {}
        self.table: Callable[[GameRecord], dict[str, Any] | None] = lambda rec: None
        """The clocks and stand-ins for messages' ``table`` field (``server.clocks``)."""
        service.listeners.append(self.on_entries)
        service.on_reset.append(self.drop_game)

    def drop_game(self, rec: GameRecord) -> None:
        """The game's history diverged and is being reloaded: every connection holds views
        of a history that is gone, so drop them all (as a client too far behind is dropped:
        close 4429 or a cut); they reconnect and are welcomed with the history Redis has."""
        for conn in list(self.connections.get(rec.id, ())):
            conn.cut()
        self.projections.pop(rec.id, None)

    def watched(self) -> list[str]:
        return [g for g, conns in self.connections.items() if conns]

    def projection(self, rec: GameRecord) -> Projection:
        """The projection at the record's current version (a fresh one if it moved on)."""
        proj = self.projections.get(rec.id)
        if proj is None or proj.version != rec.version:
            known = {} if proj is None else proj.known
            proj = self.projections[rec.id] = Projection(rec.version, known=known)
        return proj

    def attach(self, rec: GameRecord, conn: Connection, since: int | None) -> None:
        """Queue the welcome and register, with no await in between, so the connection
        gets every later event exactly once."""
        viewer = audience(rec, conn.seat)
        proj = self.projection(rec)
        events = [] if since is None else _wire_dicts(rec, rec.log[max(since, 0) :], viewer)
        welcome = {
            "type": "welcome",
            "v": PROTOCOL_VERSION,
            "game": rec.id,
            "game_type": rec.gtype.name,
            "seat": conn.seat,
            "status": rec.status,
            "version": rec.version,
            "view": proj.view(rec, viewer),
            "legal": proj.legal_of(rec, conn.seat),
            "to_act": rec.to_act(),
            "events": events,
        }
        if (table := self.table(rec)) is not None:
            welcome["table"] = table
        conn.version, conn.holds = rec.version, viewer
        conn.push(orjson.dumps(welcome, default=rec.codec.default))
        conns = self.connections.get(rec.id)
        if conns is None:
            conns = self.connections[rec.id] = set()
            # Bells only for games someone here watches (a per-game, sharded channel);
            # the confirmed subscription rings once more, covering any append in between.
            self.service.store.watch(rec.id)
        conns.add(conn)

    def detach(self, conn: Connection) -> None:
        conns = self.connections.get(conn.game_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.connections[conn.game_id]
                self.projections.pop(conn.game_id, None)
                self.service.store.unwatch(conn.game_id)

    def resync(self, rec: GameRecord, conn: Connection, since: int) -> None:
        """One update with every event after ``since`` and the full view."""
        viewer = audience(rec, conn.seat)
        proj = self.projection(rec)
        events = _wire_dicts(rec, rec.log[max(since, 0) :], viewer)
        conn.push(self._full(rec, proj, viewer, conn.seat, events))
        conn.version, conn.holds = rec.version, viewer

    def _full(
        self,
        rec: GameRecord,
        proj: Projection,
        viewer: Viewer,
        seat: int | None,
        events: list[dict[str, Any]],
        table: Any = _UNSET,
    ) -> bytes:
        to_act = rec.to_act()
        message = {
            "type": "update",
            "version": rec.version,
            "events": events,
            "view": proj.view(rec, viewer),
            "legal": proj.legal_of(rec, seat, to_act),
            "to_act": to_act,
            "status": rec.status,
        }
        if table is _UNSET:
            table = self.table(rec)
        if table is not None:
            message["table"] = table
        return orjson.dumps(message, default=rec.codec.default)

    def on_entries(
        self, rec: GameRecord, entries: list[LogEntry], command_id: str | None = None
    ) -> None:
        conns = self.connections.get(rec.id)
        if not conns:
            return
        origin = ORIGIN.get() if command_id is not None else None
        base = entries[0].version - 1
        version = rec.version
        old = self.projections.get(rec.id)
        # self.projection(rec), without its call and its second lookup.
        if old is not None and old.version == version:
            new = old
        else:
            new = self.projections[rec.id] = Projection(
                version, known=None if old is None else old.known
            )
        if old is not None and old.version != base:
            old = None
        # GameRecord's terminal, status and to_act, asking the rules once each.
        state = rec.state
        game = rec.game
        terminal = state is not None and game.is_terminal(state)
        status = "open" if state is None else "finished" if terminal else "running"
        to_act = sorted(game.to_act(state)) if state is not None and not terminal else []
        game_over = None
        if terminal and any(e.version > 0 for e in entries):
            result = rec.game.result(rec.state)
            game_over = encode(GameOverMessage(rec.version, attrs.asdict(result) if result else {}))
        # Keyed by the audiences' identity: they are the shared objects audience() gives
        # (an equal one elsewhere would only get a frame of its own), and a Viewer's hash is
        # a Python call, where an int's is not.
        frames: dict[tuple[int, int | None], bytes] = {}
        events_by_viewer: dict[int, list[dict[str, Any]]] = {}
        table: Any = _UNSET  # the same for every frame of the batch: made once, if needed
        names: Table | None = None  # likewise
        for conn in list(conns):
            if conn.version >= version:
                continue
            seat = conn.seat
            # audience() without the call: one per connection per move. While the game
            # runs, what the connection holds is its seat's audience already (attach,
            # resync and every frame set it so; only the end makes it REVIEW).
            holds = conn.holds
            if terminal:
                viewer = REVIEW
            elif holds is not None and holds is not REVIEW:
                viewer = holds
            else:
                viewer = SPECTATOR if seat is None else seat_viewer(seat)
            if table is _UNSET:
                table = self.table(rec)
            if conn.version != base:
                # Behind the batch (it should not happen): everything after what it has.
                data = self._full(
                    rec,
                    new,
                    viewer,
                    conn.seat,
                    _wire_dicts(rec, rec.log[conn.version :], viewer),
                    table,
                )
            else:
                key = (id(conn.holds), seat)
                shared = frames.get(key)
                if shared is None:
                    events = events_by_viewer.get(id(viewer))
                    if events is None:
                        if names is None:
                            names = table_names(rec)
                        events = _wire_dicts(rec, entries, viewer, names)
                        events_by_viewer[id(viewer)] = events
                    shared = frames[key] = self._delta(
                        rec, old, new, conn.holds, viewer, conn.seat, events, to_act, status, table
                    )
                data = shared
            if conn is origin:
                # The sender's own update doubles as its command's acceptance.
                data = data[:-1] + b',"command_id":' + orjson.dumps(command_id) + b"}"
                conn.acked = command_id
            conn.version, conn.holds = version, viewer
            writer = conn.writer
            if writer is not None and not conn.closed:
                # Connection.push without its call: one per connection per move.
                if not writer(data):
                    conn._drop()
            else:
                conn.push(data)
            if game_over is not None:
                conn.push(game_over)

    def _delta(
        self,
        rec: GameRecord,
        old: Projection | None,
        new: Projection,
        holds: Viewer | None,
        viewer: Viewer,
        seat: int | None,
        events: list[dict[str, Any]],
        to_act: list[int],
        status: str,
        table: dict[str, Any] | None,
    ) -> bytes:
        held = _UNSET if old is None or holds is None else old.views.get(holds, _UNSET)
        was = None if old is None else old.legal.get(seat)
        if held is _UNSET or was is None:
            return self._full(rec, new, viewer, seat, events, table)
        assert old is not None
        message: dict[str, Any] = {
            "type": "update",
            "version": rec.version,
            "base": old.version,
            "events": events,
            "delta": diff(held, new.view(rec, viewer)),
            "to_act": to_act,
            "status": status,
        }
        legal = new.legal_of(rec, seat, to_act)
        if legal is not was and legal != was:
            message["legal"] = legal
        if table is not None:
            message["table"] = table
        return orjson.dumps(message, default=rec.codec.default)

    async def follow_doorbells(self) -> None:
        """Catch up watched games when any node appends (runs for the app's lifetime).

        A bell with head 0 means "subscribed (again)": catch up, whatever the version."""
        projections = self.projections
        async for game_id, head in self.service.store.doorbells():
            # Most bells are this process's own appends: the game's projection (made at
            # its record's version, never past it) is at that head already, and the
            # record is not looked up (the game cache's get, an LRU touch, per move).
            proj = projections.get(game_id)
            if proj is not None and 0 < head <= proj.version:
                continue
            try:
                rec = self.service.games.get(game_id)
                if rec is not None and (head == 0 or head > rec.version):
                    await self._catch_up(game_id)
            except STORE_ERRORS as exc:
                log.warning("catch-up of %s: store unavailable (%s)", game_id, exc)
            except Exception:
                log.exception("catch-up of %s failed", game_id)

    async def reconcile(self, interval: float) -> None:
        """Doorbells are best effort: poll watched games now and then as well."""
        while True:
            await asyncio.sleep(interval)
            for gid in self.watched():
                try:
                    await self._catch_up(gid)
                except STORE_ERRORS as exc:
                    log.warning("reconcile of %s: store unavailable (%s)", gid, exc)
                    break  # one warning per round, not one per game
                except Exception:
                    log.exception("reconcile of %s failed", gid)

    async def _catch_up(self, game_id: str) -> None:
        rec = self.service.games.get(game_id)
        if rec is None:
            return
        async with rec.lock:
            await self.service.catch_up(rec)
