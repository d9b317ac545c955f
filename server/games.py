"""The game service: load, decide, append, apply. The hot path of every command.

Each node caches every game it touches as a :class:`GameRecord` (state, version, log) and
keeps it current by applying its own appends directly and other nodes' appends by catching up
with the stream (``catch_up``). A command is decided on the cached state and appended with the
cached version as the expected head; if another node got there first the store answers
``conflict``, the record catches up, and the command is decided again on the new state. So
the common case costs one Redis round trip and no re-read of the log.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import logging
import secrets
import time
import unicodedata
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from domain import Context, DomainError, GameType, Registry, RuleViolation
from domain.errors import IllegalCommand
from domain.game import validate_options
from protocol import CHAT_MAX_CHARS, GameCodec

from .errors import ServiceError
from .store.base import EventStore, NewEvent, StoredEvent

__all__ = ["GameRecord", "GameService", "LogEntry", "SeatInfo"]

log = logging.getLogger("cloister.games")

PLATFORM = "cloister."
GAME_CREATED = PLATFORM + "GameCreated"
SEAT_TAKEN = PLATFORM + "SeatTaken"
GAME_STARTED = PLATFORM + "GameStarted"
CHAT = PLATFORM + "Chat"
MAX_CONFLICT_RETRIES = 8


BOT_SUFFIX = " (bot)"


@attrs.define
class SeatInfo:
    name: str
    bot: str | None = None

    @property
    def log_name(self) -> str:
        """The name in log sentences: a bot's "Brother Anselm (bot)" reads "Brother Anselm
        (Reverent)" there, the lobby and the seat line already saying it is a bot."""
        return self.name.removesuffix(BOT_SUFFIX) if self.bot else self.name


@attrs.frozen
class LogEntry:
    """One event of a game's log as this node holds it."""

    version: int
    type: str
    data: dict[str, Any]
    event: Any  # the domain event object, or None for a platform event


@attrs.define(eq=False)
class GameRecord:
    id: str
    gtype: GameType
    codec: GameCodec[Any]
    options: dict[str, Any]
    labels: tuple[str, ...]
    seed: str
    created: float
    seats: list[SeatInfo | None]
    version: int = 0
    state: Any = None
    log: list[LogEntry] = attrs.field(factory=list)
    uuids: dict[int, str] = attrs.field(factory=dict)
    commands: dict[str, int] = attrs.field(factory=dict)
    """command id -> head version it produced: answers a retry without asking Redis."""
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)

    @property
    def game(self) -> Any:
        return self.gtype.game

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def status(self) -> str:
        if self.state is None:
            return "open"
        return "finished" if self.game.is_terminal(self.state) else "running"

    @property
    def terminal(self) -> bool:
        return self.state is not None and self.game.is_terminal(self.state)

    def to_act(self) -> list[int]:
        if self.state is None or self.terminal:
            return []
        return sorted(self.game.to_act(self.state))

    def summary(self) -> dict[str, Any]:
        result = self.game.result(self.state) if self.terminal else None
        # Once set up, seats carry the game's labels (Road's dealt nations, not "Player 2").
        labels = self.labels
        if self.state is not None:
            labels = tuple(self.game.table_labels(self.state, self.labels))
        return {
            "id": self.id,
            "type": self.gtype.name,
            "title": self.game.title,
            "options": self.options,
            "status": self.status,
            "seats": [
                {
                    "seat": i,
                    "label": labels[i],
                    "taken": s is not None,
                    "name": s.name if s else None,
                    "bot": s.bot if s else None,
                }
                for i, s in enumerate(self.seats)
            ],
            "version": self.version,
            "to_act": self.to_act(),
            "result": attrs.asdict(result) if result is not None else None,
            "created": self.created,
        }

    def state_at(self, version: int) -> Any:
        """The domain state after ``version`` (None before the game started)."""
        state = None
        for entry in self.log[:version]:
            if entry.type == GAME_STARTED:
                state = self.game.initial_state(self.options)
            elif entry.event is not None and state is not None:
                state = self.game.evolve(state, entry.event)
        return state


Listener = Callable[[GameRecord, list[LogEntry], str | None], None]
"""Called with the new entries, and the command id when they are this node's own append."""


def chat_text(text: str) -> str:
    """The chat text as stored (trimmed), or ServiceError naming what is wrong with it."""
    text = text.strip()
    if not text:
        raise ServiceError("chat_empty", "say something: the chat text is empty")
    if len(text) > CHAT_MAX_CHARS:
        raise ServiceError(
            "chat_too_long", f"chat texts are limited to {CHAT_MAX_CHARS} characters"
        )
    if any(unicodedata.category(ch) == "Cc" and ch != "\n" for ch in text):
        raise ServiceError("chat_bad_text", "chat texts may not contain control characters")
    return text


def bot_name(rec: GameRecord, seat: int) -> str:
    """A name from the game's world that no one at the table has: "Brother Anselm (bot)"."""
    taken = {s.name for s in rec.seats if s is not None}
    for base in rec.game.bot_names:
        if base + BOT_SUFFIX not in taken:
            return base + BOT_SUFFIX
    return rec.labels[seat] + BOT_SUFFIX  # more bots than names: the seat's own label


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class GameService:
    def __init__(self, store: EventStore, registry: Registry) -> None:
        self.store = store
        self.registry = registry
        self.games: dict[str, GameRecord] = {}
        self._loading: dict[str, asyncio.Future[GameRecord]] = {}
        self.listeners: list[Listener] = []
        # One codec per game type: building a cattrs converter generates code, which cost
        # a sixth of the server's CPU when it was done per game.
        self._codecs: dict[str, GameCodec[Any]] = {}
        # Event ids only need to be unique (they detect a history rewritten by a failover):
        # a random node prefix and a counter are unique and far cheaper than uuid4.
        self._node = secrets.token_hex(6)
        self._counter = itertools.count()

        self.stats = {"commands": 0, "rejected": 0, "conflicts": 0, "duplicates": 0, "chats": 0}

    def _event_id(self) -> str:
        return f"{self._node}-{next(self._counter):x}"

    # -- loading ----------------------------------------------------------------------------
    async def load(self, game_id: str) -> GameRecord:
        rec = self.games.get(game_id)
        if rec is not None:
            return rec
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[GameRecord] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = fut
        try:
            rec = await self._load(game_id)
            self.games[game_id] = rec
            fut.set_result(rec)
            return rec
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # mark retrieved: the caller below re-raises it
            raise
        finally:
            del self._loading[game_id]

    async def _load(self, game_id: str) -> GameRecord:
        stored = await self.store.read(game_id)
        if not stored or stored[0].type != GAME_CREATED:
            raise ServiceError("game_not_found", f"there is no game {game_id!r}", 404)
        seed = await self.store.get_meta(game_id, "seed") or ""
        rec = self._record(game_id, stored[0].data, seed)
        self._apply(rec, stored)
        return rec

    def _record(self, game_id: str, data: dict[str, Any], seed: str) -> GameRecord:
        gtype = self.registry.get(data["type"])
        if gtype is None:
            raise ServiceError(
                "unknown_game_type", f"this server cannot host {data['type']!r} games", 404
            )
        codec = self._codecs.get(gtype.name)
        if codec is None:
            codec = self._codecs[gtype.name] = GameCodec(gtype.game)
        return GameRecord(
            id=game_id,
            gtype=gtype,
            codec=codec,
            options=dict(data["options"]),
            labels=tuple(data["labels"]),
            seed=seed,
            created=float(data.get("created", 0.0)),
            seats=[None] * len(data["labels"]),
        )

    async def catch_up(self, rec: GameRecord) -> list[LogEntry]:
        """Apply whatever other nodes appended since our version."""
        stored = await self.store.read(rec.id, rec.version)
        if stored and rec.version and stored[0].version != rec.version + 1:
            raise RuntimeError(f"gap in {rec.id}: have {rec.version}, read {stored[0].version}")
        return self._apply(rec, stored)

    def _apply(self, rec: GameRecord, stored: Sequence[StoredEvent]) -> list[LogEntry]:
        entries = []
        for s in stored:
            if s.version <= rec.version:
                # Divergence check: the same version with another event means history was
                # rewritten under us (a failover lost writes); never fold over it.
                if rec.uuids.get(s.version, s.uuid) != s.uuid:
                    raise RuntimeError(f"history of {rec.id} diverged at {s.version}")
                continue
            event = None
            if not s.type.startswith(PLATFORM):
                event = rec.codec.decode_event(s.type, s.data, s.schema)
            entries.append(self._apply_one(rec, s.version, s.type, s.data, event, s.uuid))
            rec.commands[s.command_id] = s.version
        self._notify(rec, entries, None)
        return entries

    def _apply_one(
        self, rec: GameRecord, version: int, type_: str, data: dict[str, Any], event: Any, uid: str
    ) -> LogEntry:
        if type_ == SEAT_TAKEN:
            rec.seats[data["seat"]] = SeatInfo(data["name"], data.get("bot"))
        elif type_ == GAME_STARTED:
            rec.state = rec.game.initial_state(rec.options)
        elif event is not None:
            rec.state = rec.game.evolve(rec.state, event)
        entry = LogEntry(version, type_, data, event)
        rec.log.append(entry)
        rec.uuids[version] = uid
        rec.version = version
        return entry

    def _notify(self, rec: GameRecord, entries: list[LogEntry], command_id: str | None) -> None:
        if entries:
            for listener in self.listeners:
                listener(rec, entries, command_id)

    # -- writing ----------------------------------------------------------------------------
    async def _execute(
        self,
        rec: GameRecord,
        command_id: str,
        decide: Callable[
            [GameRecord], tuple[list[tuple[str, dict[str, Any], Any]], dict[str, str]]
        ],
    ) -> tuple[int, bool]:
        """Decide on the cached state, append, apply; on conflict catch up and decide again.

        Returns (version, duplicate). ``decide`` returns (events as (type, data, event obj),
        meta fields) or raises DomainError / ServiceError. The per-record lock serialises
        this node's writers so they do not conflict with each other.
        """
        async with rec.lock:
            for _ in range(MAX_CONFLICT_RETRIES):
                if command_id in rec.commands:
                    self.stats["duplicates"] += 1
                    return rec.commands[command_id], True
                try:
                    events, meta = decide(rec)
                except (DomainError, ServiceError):
                    # Refused on our cached state: make sure the cache was current (another
                    # node may have appended, or already applied this very command) before
                    # answering; this read happens only on the rejection path.
                    if not await self.catch_up(rec):
                        raise
                    continue
                new = [NewEvent(t, d, self._event_id()) for t, d, _ in events]
                result = await self.store.append(rec.id, rec.version, command_id, new, meta)
                if result.status == "ok":
                    base = rec.version
                    entries = [
                        self._apply_one(rec, base + i, t, d, e, n.uuid)
                        for i, ((t, d, e), n) in enumerate(zip(events, new, strict=True), 1)
                    ]
                    rec.commands[command_id] = result.version
                    self._notify(rec, entries, command_id)
                    return result.version, False
                await self.catch_up(rec)
                if result.status == "dup":
                    self.stats["duplicates"] += 1
                    return result.version, True
                self.stats["conflicts"] += 1
        raise ServiceError("conflict", "the game changed too often while deciding; retry", 409)

    async def create(
        self, type_name: str, options: dict[str, Any] | None, seed: str | None = None
    ) -> GameRecord:
        gtype = self.registry.get(type_name)
        if gtype is None:
            raise ServiceError(
                "unknown_game_type",
                f"no game type {type_name!r}; types: {sorted(self.registry)}",
                404,
            )
        try:
            opts = validate_options(gtype.game, options)
        except DomainError as exc:
            raise ServiceError(exc.code, exc.message) from None
        game_id = "g-" + uuid.uuid4().hex[:12]
        seed = seed or secrets.token_hex(16)
        data = {
            "type": type_name,
            "options": opts,
            "labels": list(gtype.game.seat_labels(opts)),
            "created": time.time(),
        }
        rec = self._record(game_id, data, seed)
        self.games[game_id] = rec
        await self._execute(
            rec, f"create:{game_id}", lambda r: ([(GAME_CREATED, data, None)], {"seed": seed})
        )
        return rec

    async def import_log(self, events: list[dict[str, Any]]) -> GameRecord:
        """Create a new game from an exported full log (``cloister export`` of a game seen
        by the review audience). The log is checked by decoding and folding every event;
        imported seats have no tokens, so an unfinished import is for watching only."""
        if not events or events[0].get("type") != GAME_CREATED:
            raise ServiceError("bad_log", "a game log starts with cloister.GameCreated")
        created = events[0].get("data") or {}
        gtype = self.registry.get(str(created.get("type")))
        if gtype is None:
            raise ServiceError("unknown_game_type", f"cannot host {created.get('type')!r}", 404)
        game_id = "g-" + uuid.uuid4().hex[:12]
        try:
            rec = self._record(game_id, created, secrets.token_hex(16))
            validate_options(gtype.game, rec.options)
            probe = self._record(game_id, created, "")
            batch = []
            for i, e in enumerate(events, 1):
                type_, data = str(e["type"]), dict(e["data"])
                if e.get("version", i) != i:
                    raise ValueError(f"event {i} has version {e.get('version')}")
                obj = None if type_.startswith(PLATFORM) else rec.codec.decode_event(type_, data)
                if type_ == SEAT_TAKEN and not data.get("bot"):
                    data = {**data, "name": str(data.get("name", "?"))[:40] + " (imported)"}
                elif type_ == CHAT:
                    seat = data.get("seat")
                    if not isinstance(seat, int) or not 0 <= seat < len(probe.seats):
                        raise ValueError(f"event {i}: chat from no seat")
                    if probe.seats[seat] is None:
                        raise ValueError(f"event {i}: chat from an empty seat")
                    try:
                        data = {"seat": seat, "text": chat_text(str(data.get("text", "")))}
                    except ServiceError as exc:
                        raise ValueError(f"event {i}: {exc.message}") from None
                elif type_.startswith(PLATFORM) and type_ not in (
                    GAME_CREATED,
                    SEAT_TAKEN,
                    GAME_STARTED,
                ):
                    raise ValueError(f"event {i}: unknown platform event {type_}")
                self._apply_one(probe, i, type_, data, obj, "")  # raises on a bad log
                batch.append((type_, data, obj))
        except ServiceError:
            raise
        except Exception as exc:
            raise ServiceError("bad_log", f"the log does not replay: {exc}") from None
        self.games[game_id] = rec
        await self._execute(rec, f"import:{game_id}", lambda r: (batch, {"seed": r.seed}))
        return rec

    async def take_seat(
        self, rec: GameRecord, seat: int | None, name: str | None, bot: str | None = None
    ) -> tuple[int, str | None]:
        """Claim a seat for a person (returns its token) or a bot (token None).

        A bot with no ``name`` gets the first of the game's bot names not yet at the table
        (chosen in ``decide``, so two bots added at once never share one)."""
        if name is None and bot is None:
            raise ValueError("a person taking a seat needs a name")
        token = None if bot else secrets.token_urlsafe(24)
        chosen: list[int] = []

        def decide(r: GameRecord) -> tuple[list[tuple[str, dict[str, Any], Any]], dict[str, str]]:
            if r.started:
                raise ServiceError("game_started", "all seats are taken", 409)
            if seat is None:
                free = [i for i, s in enumerate(r.seats) if s is None]
                if not free:
                    raise ServiceError("no_free_seat", "all seats are taken", 409)
                target = free[0]
            else:
                if not 0 <= seat < len(r.seats):
                    raise ServiceError(
                        "bad_seat", f"seat must be 0..{len(r.seats) - 1}, not {seat}"
                    )
                if r.seats[seat] is not None:
                    raise ServiceError("seat_taken", f"seat {seat} is taken", 409)
                target = seat
            chosen[:] = [target]
            who = name if name is not None else bot_name(r, target)
            events: list[tuple[str, dict[str, Any], Any]] = [
                (SEAT_TAKEN, {"seat": target, "name": who, "bot": bot}, None)
            ]
            if sum(s is None for s in r.seats) == 1:
                events.append((GAME_STARTED, {}, None))
                state = r.game.initial_state(r.options)
                ctx = Context.for_version(r.seed, r.version)
                for e in r.game.setup(state, ctx):
                    events.append((type(e).__name__, r.codec.encode_event(e), e))
            meta = {f"token:{target}": hash_token(token)} if token else {}
            return events, meta

        await self._execute(rec, "seat:" + uuid.uuid4().hex, decide)
        return chosen[0], token

    async def chat(
        self, rec: GameRecord, seat: int, command_id: str, text: str
    ) -> tuple[int, bool]:
        """Append a seated player's table talk to the log (outside the rules: the game's
        state never sees it). Raises ServiceError for an empty or oversized text."""
        text = chat_text(text)

        def decide(r: GameRecord) -> tuple[list[tuple[str, dict[str, Any], Any]], dict[str, str]]:
            return [(CHAT, {"seat": seat, "text": text}, None)], {}

        self.stats["chats"] += 1
        return await self._execute(rec, command_id, decide)

    async def authenticate(self, rec: GameRecord, token: str) -> int:
        digest = hash_token(token)
        hashes = await self.store.get_meta_many(
            rec.id, [f"token:{seat}" for seat in range(len(rec.seats))]
        )
        for seat, stored in enumerate(hashes):
            if stored is not None and hmac.compare_digest(stored, digest):
                return seat
        raise ServiceError("bad_token", "that token holds no seat in this game", 403)

    async def command(
        self, rec: GameRecord, seat: int, command_id: str, raw: dict[str, Any]
    ) -> tuple[int, bool]:
        """Decide and append one game command. Raises DomainError or ServiceError."""
        command = rec.codec.decode_command(raw)  # InvalidCommand / UnknownCommand

        def decide(r: GameRecord) -> tuple[list[tuple[str, dict[str, Any], Any]], dict[str, str]]:
            if r.state is None:
                raise IllegalCommand(
                    "the game has not started: seats are still free", code="game_not_started"
                )
            if r.game.is_terminal(r.state):
                raise IllegalCommand("the game is over", code="game_over")
            ctx = Context.for_version(r.seed, r.version)
            events = r.game.decide(r.state, seat, command, ctx)
            if not events:
                raise RuleViolation("that command would change nothing", code="no_effect")
            return [(type(e).__name__, r.codec.encode_event(e), e) for e in events], {}

        self.stats["commands"] += 1
        try:
            return await self._execute(rec, command_id, decide)
        except (DomainError, ServiceError):
            self.stats["rejected"] += 1
            raise
