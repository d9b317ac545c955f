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
import contextlib
import hashlib
import hmac
import itertools
import logging
import secrets
import time
import unicodedata
import uuid
from collections.abc import Callable, MutableMapping, Sequence
from typing import Any

import attrs
import orjson

from domain import Context, DomainError, GameType, Registry, RuleViolation
from domain.errors import IllegalCommand
from domain.game import decide_and_fold, fork_reshuffle, validate_options
from protocol import CHAT_MAX_CHARS, GameCodec

from .errors import ServiceError
from .logcache import LOG_CHUNK, decode_chunks, fits, log_chunks
from .snapshots import SNAPSHOT_EVERY, Snapshot, UuidChain, dumps_state, fingerprint, loads_state
from .store.base import EventStore, NewEvent, RawColumns, StoredEvent
from .undo import UNDONE, fold_log

__all__ = ["GameRecord", "GameService", "LogEntry", "SeatClaim", "SeatInfo"]

log = logging.getLogger("cloister.games")

PLATFORM = "cloister."
GAME_CREATED = PLATFORM + "GameCreated"
SEAT_TAKEN = PLATFORM + "SeatTaken"
GAME_STARTED = PLATFORM + "GameStarted"
CHAT = PLATFORM + "Chat"
COMMAND_ACCEPTED = PLATFORM + "CommandAccepted"
"""Every accepted command (seat, command, id, time), appended just before its events."""
SEED_REVEALED = PLATFORM + "SeedRevealed"
"""The game's seed, appended with the events that end the game (``server.fairness``)."""
SEED_HASH = "sha256"
SEAT_HANDED = PLATFORM + "SeatHandedToBot"
"""A bot stands in for a person's seat (clock ran out, away, left): ``server.clocks``."""
SEAT_RETAKEN = PLATFORM + "SeatRetaken"
MAX_CONFLICT_RETRIES = 8


BOT_SUFFIX = " (bot)"


@attrs.define
class SeatInfo:
    name: str
    bot: str | None = None
    stand_in: str | None = None
    """The bot level playing for this person's seat while they are away (``server.clocks``)."""

    @property
    def log_name(self) -> str:
        """The name in log sentences: a bot's "Brother Anselm (bot)" reads "Brother Anselm
        (Reverent)" there, the lobby and the seat line already saying it is a bot."""
        return self.name.removesuffix(BOT_SUFFIX) if self.bot else self.name


_UNDECODED: Any = object()


class LogEntry:
    """One event of a game's log as this node holds it.

    ``event`` is the domain event object (None for a platform event). Entries loaded behind
    a snapshot decode it on first use: nothing needs them to fold, and most never are.
    """

    __slots__ = ("_codec", "_data", "_event", "schema", "type", "version")

    def __init__(
        self,
        version: int,
        type: str,
        data: dict[str, Any] | bytes,
        event: Any = _UNDECODED,
        codec: GameCodec[Any] | None = None,
        schema: int = 1,
    ) -> None:
        self.version, self.type, self._data = version, type, data
        self._event, self._codec, self.schema = event, codec, schema

    @property
    def data(self) -> dict[str, Any]:
        """The payload (parsed on first use if it was loaded as JSON bytes)."""
        data = self._data
        if isinstance(data, bytes):
            data = self._data = orjson.loads(data)
        return data

    @property
    def event(self) -> Any:
        if self._event is _UNDECODED:
            if self.type.startswith(PLATFORM) or self._codec is None:
                self._event = None
            else:
                self._event = self._codec.decode_event(self.type, self.data, self.schema)
        return self._event

    def payload(self) -> bytes:
        """The payload as JSON (as loaded, or written again from the parsed data)."""
        data = self._data
        return data if isinstance(data, bytes) else orjson.dumps(data)

    def __repr__(self) -> str:
        return f"LogEntry({self.version}, {self.type!r}, {self.data!r})"


class RecordLock(asyncio.Lock):
    """A game record's lock: ``asyncio.Lock`` with its uncontended acquire callable
    without a coroutine (``take``), as every command takes it."""

    # asyncio.Lock's own state (CPython 3.11 to 3.13), read and set as its acquire does.
    _locked: bool
    _waiters: Any

    def take(self) -> bool:
        """Acquire the lock now if it is free and nobody waits for it (True); else False,
        and the caller awaits ``acquire`` (the waiters' order is kept)."""
        if self._locked or self._waiters:
            return False
        self._locked = True
        return True


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
    uuids: list[str] = attrs.field(factory=list)
    """The id of each event of the log, ``uuids[v - 1]`` that of version ``v`` (a list: a
    load takes the stream's column as it is, where a dict costs an insert per event)."""
    commands: dict[str, int] = attrs.field(factory=dict)
    """command id (as stored: a seat's scoped ``<seat>:<id>``) -> head version it produced:
    answers a retry without asking Redis."""
    digests: dict[str, str] = attrs.field(factory=dict)
    """command id -> digest of the command, where known (``command_digest``)."""
    lock: asyncio.Lock = attrs.field(factory=lambda: RecordLock())
    chain: UuidChain = attrs.field(factory=UuidChain)
    """A running hash of the event ids, to check a snapshot against the log."""
    snapshot_version: int = 0
    """The version of the newest snapshot of this game this node knows of."""
    log_cached: int = 0
    """The versions 1..n the snapshot's copy of the log holds, as far as this node knows
    (``server.logcache``): the next snapshot writes the chunks from there on."""
    fork: dict[str, Any] | None = None
    """For a game forked from another (``server.fork``): the source and the events that
    rebuild its position, played out in place of the set-up when the game starts."""
    names: Any = attrs.field(default=None, init=False, repr=False)
    """``server.hub.table_names(rec)``, kept while no seat changes (``_seat_event``
    clears it), for a game whose seat labels do not follow its state: every move's
    fan-out asks for it."""
    game: Any = attrs.field(init=False, repr=False)
    """``gtype.game``, held as an attribute: the rules are asked for it about fifteen times
    a move, and a property is a Python call each time."""

    def __attrs_post_init__(self) -> None:
        self.game = self.gtype.game

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
                    "stand_in": s.stand_in if s else None,
                }
                for i, s in enumerate(self.seats)
            ],
            "version": self.version,
            "to_act": self.to_act(),
            "result": attrs.asdict(result) if result is not None else None,
            "created": self.created,
        }

    def uuid_at(self, version: int) -> str | None:
        """The id of the event at ``version``, None if this record does not hold it."""
        return self.uuids[version - 1] if 0 < version <= len(self.uuids) else None

    def state_at(self, version: int) -> Any:
        """The domain state after ``version`` (None before the game started), without the
        events undone by then (``server.undo``)."""
        return fold_log(self.game, self.options, self.log, version)


@attrs.frozen
class SeatClaim:
    """A seat to fill when a game is created: a person (``bot`` None) or a bot level.

    ``seat`` None takes the first seat no other claim names."""

    name: str | None
    """None for a bot: it gets a name from the game's world (``bot_name``)."""
    seat: int | None = None
    bot: str | None = None


Listener = Callable[[GameRecord, list[LogEntry], str | None], None]
"""Called with the new entries, and the command id when they are this node's own append."""


def _positions(items: Sequence[str], wanted: tuple[str, ...]) -> list[int]:
    """The indexes of ``items`` holding one of ``wanted``, in order: a C search
    (``index``) per hit, for a few hits in a long column (seat events in a log)."""
    hits: list[int] = []
    for value in wanted:
        at = -1
        with contextlib.suppress(ValueError):
            while True:
                at = items.index(value, at + 1)
                hits.append(at)
    return sorted(hits)


def _module(rec: GameRecord) -> str:
    return type(rec.game).__module__


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


def bot_name(rec: GameRecord, seat: int, taken: set[str] | None = None) -> str:
    """A name from the game's world that no one at the table has: "Brother Anselm (bot)".

    ``taken``: the names at the table, when seats are being filled in one append (the
    record does not hold them yet)."""
    if taken is None:
        taken = {s.name for s in rec.seats if s is not None}
    base: str
    for base in rec.game.bot_names:
        if base + BOT_SUFFIX not in taken:
            return base + BOT_SUFFIX
    return rec.labels[seat] + BOT_SUFFIX  # more bots than names: the seat's own label


def scoped_id(seat: int, command_id: str) -> str:
    """The id a seat's command is stored under: each seat has its own ids, so no seat can
    take, block or answer for another's (issue 14)."""
    return f"{seat}:{command_id}"


def command_digest(kind: str, content: Any) -> str:
    """What a command was, to tell a resend (same digest) from another command sent under
    a used id."""
    # A move's kind's prefix made once (``kind.encode() + b"\0"``).
    prefix = _COMMAND_PREFIX if kind == "command" else kind.encode() + b"\0"
    data = prefix + orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
    # Most commands are ones sent before (a game has few distinct moves): their digest is
    # looked up, not hashed again (a SHA-256 and its hex cost more than the lookup).
    digest = _DIGESTS.get(data)
    if digest is None:
        if len(_DIGESTS) >= DIGESTS_KEPT:
            _DIGESTS.clear()
        digest = _DIGESTS[data] = hashlib.sha256(data).hexdigest()[:32]
    return digest


DIGESTS_KEPT = 1024
_COMMAND_PREFIX = b"command\0"
_DIGESTS: dict[bytes, str] = {}


def _reused(command_id: str) -> ServiceError:
    client_id = command_id.partition(":")[2] or command_id
    return ServiceError(
        "command_id_reused",
        f"command id {client_id!r} was used for another command: send a new id",
        409,
    )


_STATEFUL = frozenset((SEAT_TAKEN, SEAT_HANDED, SEAT_RETAKEN, GAME_STARTED, UNDONE))
"""Entry types that change a record beyond its log and folded state (``_apply_one``)."""


def _seat_event(rec: GameRecord, type_: str, data: dict[str, Any]) -> None:
    seat = data["seat"]
    rec.names = None  # the players' names change
    if type_ == SEAT_TAKEN:
        rec.seats[seat] = SeatInfo(data["name"], data.get("bot"))
    elif (info := rec.seats[seat]) is not None:
        rec.seats[seat] = attrs.evolve(info, stand_in=data["bot"] if type_ == SEAT_HANDED else None)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seed_commitment(seed: str) -> dict[str, str]:
    """What the public ``cloister.GameCreated`` says of the secret seed: its SHA-256 digest
    (of the seed's UTF-8 bytes), so that once ``cloister.SeedRevealed`` shows the seed
    anyone can check it is the one the game was created with."""
    return {"hash": SEED_HASH, "digest": hashlib.sha256(seed.encode()).hexdigest()}


def now_ms() -> int:
    """The server time a platform event is decided at: integer ms since the Unix epoch."""
    return time.time_ns() // 1_000_000


def checked_options(game: Any, options: dict[str, Any] | None) -> dict[str, Any]:
    """A game's options checked: its own (defaults filled in) and the platform's."""
    from .clocks import split_options

    own, platform = split_options(options)
    try:
        return {**validate_options(game, own), **platform}
    except DomainError as exc:
        raise ServiceError(exc.code, exc.message) from None


class GameService:
    def __init__(self, store: EventStore, registry: Registry) -> None:
        self.store = store
        self.registry = registry
        # The app replaces it with a bounded LRU (server.cache.GameCache).
        self.games: MutableMapping[str, GameRecord] = {}
        self._loading: dict[str, asyncio.Future[GameRecord]] = {}
        self.listeners: list[Listener] = []
        self.on_reset: list[Callable[[GameRecord], None]] = []
        """Called with a record about to be reloaded after its history diverged."""
        self.now: Callable[[], int] = now_ms
        """The time platform events are stamped with (``at``); tests move their own."""
        # One codec per game type (``GameCodec.for_game`` keeps them per process):
        # building a cattrs converter generates code, which cost a sixth of the server's
        # CPU when it was done per game.
        self._codecs: dict[str, GameCodec[Any]] = {}
        self._snapshot_tasks: set[asyncio.Task[None]] = set()
        self._state_types: dict[tuple[str, bytes], type] = {}
        """(game type, options) -> the type of its states, to check a snapshot's against
        (a new initial state per load was a tenth of a short game's load)."""
        # Event ids only need to be unique (they detect a history rewritten by a failover):
        # a random node prefix and a counter are unique and far cheaper than uuid4.
        self._node = secrets.token_hex(6)
        self._counter = itertools.count()

        self.stats = {
            "commands": 0,
            "rejected": 0,
            "conflicts": 0,
            "duplicates": 0,
            "chats": 0,
            "divergences": 0,
        }

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
        get_snapshot = getattr(self.store, "get_snapshot", None)
        read_columns = getattr(self.store, "read_columns", None)
        cols: RawColumns
        m = 0  # the versions 1..m taken from the snapshot's copy of the log
        hashed: UuidChain | None = None  # the hash of their ids
        if read_columns is not None and get_snapshot is not None:
            # The snapshot with its copy of the log (``server.logcache``) and the seed in one
            # round trip, then the stream from the last version the copy holds.
            fields, (seed,) = await asyncio.gather(
                get_snapshot(game_id), self.store.get_meta_many(game_id, ["seed"])
            )
            found = decode_chunks(fields) if fields else None
            m = len(found[0].versions) if found is not None else 0
            cols = await read_columns(game_id, max(m - 1, 0))
            if found is not None and fits(found[0], cols):
                cached, hashed = found
                cached.extend(cols.tail(1))
                cols = cached
            elif found is not None:
                log.info("log copy of %s to %d does not fit its stream: read whole", game_id, m)
                m = 0
                cols = await read_columns(game_id)
        else:
            fields = await get_snapshot(game_id) if get_snapshot is not None else None
            cols = RawColumns.from_rows(
                [
                    (s.version, s.type, s.schema, s.uuid, s.command_id, orjson.dumps(s.data))
                    for s in await self.store.read(game_id)
                ]
            )
            seed = await self.store.get_meta(game_id, "seed")
        if not cols.types or cols.types[0] != GAME_CREATED:
            raise ServiceError("game_not_found", f"there is no game {game_id!r}", 404)
        seed = seed or ""
        rec = self._record(game_id, orjson.loads(cols.payloads[0]), seed)
        snap = Snapshot.from_fields(fields) if fields else None
        restored = snap is not None and self._restore(rec, cols, snap, hashed)
        rec.log_cached = m
        tail = cols.rows(rec.version)
        stored = [StoredEvent(v, t, orjson.loads(d), e, c, s) for v, t, s, e, c, d in tail]
        if not self._apply(rec, stored) and restored:
            # Listeners (bots to schedule) hear of a loaded game even if the snapshot
            # covered all of it, as they do when the whole log is folded.
            self._notify(rec, rec.log[-1:], None)
        if snap is not None and not restored:
            log.info("snapshot of %s at %d does not fit its log: replaced", game_id, snap.version)
            self._maybe_snapshot(rec, force=True)
        elif rec.log_cached + LOG_CHUNK <= rec.version and read_columns is not None:
            # A whole chunk or more of the log is not in the copy (none written yet, or it
            # did not fit): write it, so that the next load reads less of the stream.
            self._maybe_snapshot(rec, force=True)
        return rec

    def _restore(
        self, rec: GameRecord, cols: RawColumns, snap: Snapshot, hashed: UuidChain | None = None
    ) -> bool:
        """Take the state from ``snap`` and the log before it without folding, if the
        snapshot belongs to this very log and this code (see ``server.snapshots``).
        ``hashed``: the ``UuidChain`` of a prefix of ``cols``, if known (not hashed again)."""
        n = snap.version
        if not 0 < n <= len(cols.versions) or snap.fold != fingerprint(_module(rec)):
            return False
        # Column by column (one C loop each), not row by row: this is most of a load.
        uuids = cols.uuids[:n]
        if hashed is not None and hashed.version <= n:
            chain = hashed
            chain.extend(uuids[hashed.version :])
        else:
            chain = UuidChain(uuids)
        # Versions only increase (stream order), so the n-th being n makes them 1..n.
        if chain.digest() != snap.prefix or cols.versions[n - 1] != n:
            return False
        try:
            state = loads_state(snap.state, _module(rec))
        except Exception:
            return False
        key = (rec.gtype.name, orjson.dumps(rec.options, option=orjson.OPT_SORT_KEYS))
        expected = self._state_types.get(key)
        if expected is None:
            expected = self._state_types[key] = type(rec.game.initial_state(rec.options))
        if type(state) is not expected:
            return False
        versions, types = cols.versions[:n], cols.types[:n]
        entries = list(
            map(
                LogEntry,
                versions,
                types,
                cols.payloads[:n],
                itertools.repeat(_UNDECODED),
                itertools.repeat(rec.codec),
                cols.schemas[:n],
            )
        )
        rec.log += entries
        for i in _positions(types, (SEAT_TAKEN, SEAT_HANDED, SEAT_RETAKEN)):
            _seat_event(rec, types[i], entries[i].data)
        rec.uuids = uuids  # a fresh slice: the record owns it
        rec.commands.update(zip(cols.commands[:n], versions, strict=True))
        rec.state, rec.version, rec.chain = state, n, chain
        rec.snapshot_version = n
        return True

    def _maybe_snapshot(
        self, rec: GameRecord, force: bool = False, terminal: bool | None = None
    ) -> None:
        """Write a snapshot in the background every SNAPSHOT_EVERY events and at the end
        (``force``: now, over one that does not fit). ``terminal``: whether the game is
        over, where the caller knows already (the rules are not asked again)."""
        if rec.state is None or (rec.version == rec.snapshot_version and not force):
            return
        if (
            not force
            and rec.version - rec.snapshot_version < SNAPSHOT_EVERY
            and not (rec.terminal if terminal is None else terminal)
        ):
            return
        put = getattr(self.store, "put_snapshot", None)
        if put is None:
            return
        rec.snapshot_version = rec.version
        snap = Snapshot(rec.version, rec.chain.digest(), fingerprint(_module(rec)), b"")
        state, game_id = rec.state, rec.id
        # The log's copy from the chunk the last one left short (``server.logcache``); the
        # lists as they are now: a reload after a divergence replaces them, not their items.
        start = rec.log_cached - rec.log_cached % LOG_CHUNK
        held = (rec.log, rec.uuids, rec.commands, start, rec.version)
        copy = getattr(self.store, "read_columns", None) is not None  # a store that reads it
        rec.log_cached = rec.version

        async def write() -> None:
            try:
                fields = attrs.evolve(snap, state=dumps_state(state)).to_fields()
                if copy:
                    fields.update(log_chunks(*held))
                await put(game_id, fields)
            except Exception:  # a cache: the next load folds a little more
                log.warning("snapshot of %s at %d not written", game_id, snap.version)

        task = asyncio.get_running_loop().create_task(write())
        self._snapshot_tasks.add(task)
        task.add_done_callback(self._snapshot_tasks.discard)

    def _record(self, game_id: str, data: dict[str, Any], seed: str) -> GameRecord:
        gtype = self.registry.get(data["type"])
        if gtype is None:
            raise ServiceError(
                "unknown_game_type", f"this server cannot host {data['type']!r} games", 404
            )
        codec = self._codecs.get(gtype.name)
        if codec is None:
            codec = self._codecs[gtype.name] = GameCodec.for_game(gtype.game)
        return GameRecord(
            id=game_id,
            gtype=gtype,
            codec=codec,
            options=dict(data["options"]),
            labels=tuple(data["labels"]),
            seed=seed,
            created=float(data.get("created", 0.0)),
            seats=[None] * len(data["labels"]),
            fork=data.get("fork"),
        )

    async def catch_up(self, rec: GameRecord) -> list[LogEntry]:
        """Apply whatever other nodes appended since our version.

        The read starts AT our version: if Redis no longer has the event we hold there, or
        has another one (a failover to a replica that lagged lost acknowledged writes), the
        history diverged and the game is reloaded from Redis (``_diverged``)."""
        if not rec.version:
            return self._apply(rec, await self.store.read(rec.id, 0))
        stored = await self.store.read(rec.id, rec.version - 1)
        ours = rec.uuid_at(rec.version)
        if not stored or stored[0].version != rec.version:
            return await self._diverged(rec, f"Redis has no event {rec.version}")
        if ours is not None and stored[0].uuid != ours:
            return await self._diverged(rec, f"Redis has another event {rec.version}")
        return self._apply(rec, stored[1:])

    async def _diverged(self, rec: GameRecord, why: str) -> list[LogEntry]:
        """The history in Redis is not the one this process holds: log it, count it, drop
        the game's connections (they reconnect and resume) and reload the record in place
        from Redis, so every holder of ``rec`` sees the history Redis has. Returns the
        reloaded log's last entry (truthy: "the record changed")."""
        held = rec.version
        self.stats["divergences"] += 1
        log.error(
            "history of %s diverged: this process held version %d, %s; reloading it from Redis",
            rec.id,
            held,
            why,
        )
        for hook in self.on_reset:
            hook(rec)
        if self.games.get(rec.id) is rec:
            del self.games[rec.id]
        listeners, self.listeners = self.listeners, []
        try:
            fresh = await self._load(rec.id)
        finally:
            self.listeners = listeners
        for field in attrs.fields(GameRecord):
            if field.name != "lock":
                setattr(rec, field.name, getattr(fresh, field.name))
        self.games[rec.id] = rec
        self._notify(rec, rec.log[-1:], None)
        return rec.log[-1:]

    def _apply(self, rec: GameRecord, stored: Sequence[StoredEvent]) -> list[LogEntry]:
        entries = []
        for s in stored:
            if s.version <= rec.version:
                # Divergence check: the same version with another event means history was
                # rewritten under us (a failover lost writes); never fold over it.
                if rec.uuid_at(s.version) not in (None, s.uuid):
                    raise RuntimeError(f"history of {rec.id} diverged at {s.version}")
                continue
            event = None
            if not s.type.startswith(PLATFORM):
                event = rec.codec.decode_event(s.type, s.data, s.schema)
            entry = self._apply_one(rec, s.version, s.type, s.data, event, s.uuid)
            entry.schema = s.schema  # as stored: the log's copy keeps it (server.logcache)
            entries.append(entry)
            rec.commands[s.command_id] = s.version
        self._notify(rec, entries, None)
        if entries:
            self._maybe_snapshot(rec)
        return entries

    def _apply_one(
        self,
        rec: GameRecord,
        version: int,
        type_: str,
        data: dict[str, Any],
        event: Any,
        uid: str,
        fold: bool = True,
    ) -> LogEntry:
        """Apply one entry; ``fold`` False: the caller sets the state the events lead to."""
        if type_ in (SEAT_TAKEN, SEAT_HANDED, SEAT_RETAKEN):
            _seat_event(rec, type_, data)
        elif type_ == GAME_STARTED:
            rec.state = rec.game.initial_state(rec.options)
        elif event is not None:
            if fold:
                rec.state = rec.game.evolve(rec.state, event)
        elif type_ == UNDONE:  # back to the state after ``to_version`` (server.undo)
            rec.state = fold_log(rec.game, rec.options, rec.log, data["to_version"])
        entry = LogEntry(version, type_, data, event)
        rec.log.append(entry)
        rec.uuids.append(uid)
        rec.chain.add(uid)
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
        *,
        digest: str = "",
        expected_version: int | None = None,
        reply_id: str | None = None,
        folded: list[tuple[Any, Any, bool]] | None = None,
        large: bool = False,
    ) -> tuple[int, bool]:
        """Decide on the cached state, append, apply; on conflict catch up and decide again.

        ``command_id`` is the id as stored (a seat's scoped by the seat, ``scoped_id``);
        ``digest`` what the command was (``command_digest``): the same id with another
        digest is refused ``command_id_reused``. ``expected_version``: refuse ``stale``
        unless the game is at exactly that version when appended. ``reply_id``: the id the
        listeners are told (the client's own, unscoped). ``folded``: where ``decide`` puts
        (the state it decided on, the state its events lead to, whether that one is over),
        so that the events are not folded a second time (nor asked whether the game is
        over) when they are applied. ``large``: a new game's whole log (an
        import), written by the store's ``append_large`` where it has one, in bounded
        pieces that do not hold Redis up for everyone.

        Returns (version, duplicate). ``decide`` returns (events as (type, data, event obj),
        meta fields) or raises DomainError / ServiceError. The per-record lock serialises
        this node's writers so they do not conflict with each other.
        """
        # ``async with rec.lock``, with acquire's fast path taken here (RecordLock.take):
        # its __aenter__, acquire and __aexit__ were three coroutines a move.
        lock = rec.lock
        if type(lock) is not RecordLock or not lock.take():
            await lock.acquire()
        try:
            for _ in range(MAX_CONFLICT_RETRIES):
                if command_id in rec.commands:
                    await self._check_reuse(rec, command_id, digest)
                    self.stats["duplicates"] += 1
                    return rec.commands[command_id], True
                if expected_version is not None and rec.version != expected_version:
                    if rec.version < expected_version and await self.catch_up(rec):
                        continue
                    raise ServiceError(
                        "stale",
                        f"the game is at version {rec.version}, not {expected_version}: "
                        "look at it again before you move",
                        409,
                    )
                try:
                    events, meta = decide(rec)
                except (DomainError, ServiceError):
                    # Refused on our cached state: make sure the cache was current (another
                    # node may have appended, or already applied this very command) before
                    # answering; this read happens only on the rejection path.
                    if not await self.catch_up(rec):
                        raise
                    continue
                # Each event's id: the node's prefix and its next count (in hex), made here
                # rather than by a method call per event.
                node, counter = self._node, self._counter
                new = [NewEvent(t, d, f"{node}-{next(counter):x}") for t, d, _ in events]
                append = getattr(self.store, "append_large", None) if large else None
                result = await (append or self.store.append)(
                    rec.id,
                    rec.version,
                    command_id,
                    new,
                    meta,
                    digest=digest,
                    # rec.uuid_at(rec.version), inline: one call fewer per move.
                    head_uuid=rec.uuids[rec.version - 1]
                    if 0 < rec.version <= len(rec.uuids)
                    else "",
                )
                if result.status == "diverged" or (
                    result.status == "conflict" and result.version < rec.version
                ):
                    # Never append on top of a history Redis does not have: reload, decide
                    # again on the history it does have.
                    await self._diverged(rec, f"the append found head {result.version}")
                    continue
                if result.status == "reused":
                    raise _reused(command_id)
                if result.status == "ok":
                    base = rec.version
                    # The state decide already folded, if it folded this very state (the
                    # lock held since, and decide runs once per attempt: the last entry).
                    last = folded[-1] if folded and folded[-1][0] is rec.state else None
                    after = last[1] if last is not None else None
                    entries: list[LogEntry] = []
                    log, uuids, chain, version = rec.log, rec.uuids, rec.chain, base
                    for (t, d, e), n in zip(events, new, strict=True):
                        version += 1
                        if after is None or t in _STATEFUL:
                            entries.append(
                                self._apply_one(rec, version, t, d, e, n.uuid, after is None)
                            )
                            continue
                        # _apply_one's work for an entry that changes nothing of the record
                        # but its log (the state is ``after``), inline: a call fewer each.
                        entry = LogEntry(version, t, d, e)
                        log.append(entry)
                        uuids.append(n.uuid)
                        chain.add(n.uuid)
                        entries.append(entry)
                    rec.version = version
                    if after is not None:
                        rec.state = after
                    rec.commands[command_id] = result.version
                    if digest:
                        rec.digests[command_id] = digest
                    if entries:  # _notify, inline
                        told = reply_id or command_id
                        for listener in self.listeners:
                            listener(rec, entries, told)
                    self._maybe_snapshot(rec, terminal=last[2] if last is not None else None)
                    return result.version, False
                await self.catch_up(rec)
                if result.status == "dup":
                    self.stats["duplicates"] += 1
                    return result.version, True
                self.stats["conflicts"] += 1
        finally:
            lock.release()
        raise ServiceError("conflict", "the game changed too often while deciding; retry", 409)

    async def _check_reuse(self, rec: GameRecord, command_id: str, digest: str) -> None:
        """Raise ``command_id_reused`` if ``command_id`` was appended for another command."""
        if not digest:
            return
        known = rec.digests.get(command_id)
        if known is None:  # learned from the stream: its digest is in the store
            lookup = getattr(self.store, "command_record", None)
            found = await lookup(rec.id, command_id) if lookup is not None else None
            known = rec.digests[command_id] = found[1] if found else ""
        if known and known != digest:
            raise _reused(command_id)

    async def append_platform(
        self,
        rec: GameRecord,
        command_id: str,
        decide: Callable[
            [GameRecord], tuple[list[tuple[str, dict[str, Any], Any]], dict[str, str]]
        ],
        seat: int | None = None,
        kind: str = "",
    ) -> tuple[int, bool]:
        """Append platform events (``cloister.*``) decided on the current record, with the
        same expected-version rule as commands (``server.clocks`` hands seats over so).

        ``seat``: a seat's own request (leave, retake) under its client id, scoped like its
        commands (``scoped_id``) so no seat can take or block another's ids; ``kind`` names
        the request for the reuse check."""
        if seat is None:
            return await self._execute(rec, command_id, decide)
        return await self._execute(
            rec,
            scoped_id(seat, command_id),
            decide,
            digest=command_digest(kind, {}),
            reply_id=command_id,
        )

    def validated_options(self, type_name: str, options: dict[str, Any] | None) -> dict[str, Any]:
        """The game type's options with defaults filled in, or ServiceError; the platform's
        own options (``clock``, ``absent``: ``server.clocks``) are checked there."""
        gtype = self.game_type(type_name)
        return checked_options(gtype.game, options)

    def game_type(self, type_name: str) -> GameType:
        """The registered type, or ServiceError ``unknown_game_type`` listing the types."""
        gtype = self.registry.get(type_name)
        if gtype is None:
            raise ServiceError(
                "unknown_game_type",
                f"no game type {type_name!r}; types: {sorted(self.registry)}",
                404,
            )
        return gtype

    async def create(
        self, type_name: str, options: dict[str, Any] | None, seed: str | None = None
    ) -> GameRecord:
        rec, _ = await self.create_table(type_name, options, seed)
        return rec

    async def create_table(
        self,
        type_name: str,
        options: dict[str, Any] | None,
        seed: str | None = None,
        claims: Sequence[SeatClaim] = (),
        fork: dict[str, Any] | None = None,
    ) -> tuple[GameRecord, list[tuple[int, str | None]]]:
        """Create a game with some seats already filled, in ONE append.

        Everything (type, options, seats, bot levels) is checked before anything is
        written, so a refused request leaves no half-set table behind. Returns the record
        and, per claim in order, ``(seat, token)`` (token None for a bot). When the claims
        fill every seat the game starts in the same append, dealt exactly as if the seats
        had been taken one request at a time.
        """
        gtype = self.game_type(type_name)
        opts = self.validated_options(type_name, options)
        labels = list(gtype.game.seat_labels(opts))
        placed = self._place(claims, len(labels), gtype.game.title)
        for claim in claims:
            if claim.bot is not None:
                try:
                    gtype.bot(claim.bot)
                except KeyError as exc:
                    raise ServiceError("unknown_bot", str(exc.args[0])) from None
        game_id = "g-" + uuid.uuid4().hex[:12]
        seed = seed or secrets.token_hex(16)
        data = {
            "type": type_name,
            "options": opts,
            "labels": labels,
            "created": self.now() / 1000,
            "seed_commitment": seed_commitment(seed),
        }
        if fork is not None:
            data["fork"] = fork
        tokens = [None if c.bot else secrets.token_urlsafe(24) for c in claims]
        rec = self._record(game_id, data, seed)
        self.games[game_id] = rec

        def decide(r: GameRecord) -> tuple[list[tuple[str, dict[str, Any], Any]], dict[str, str]]:
            events: list[tuple[str, dict[str, Any], Any]] = [(GAME_CREATED, data, None)]
            meta = {"seed": seed}
            taken = {c.name for c in claims if c.name is not None}
            for seat, claim, token in sorted(
                zip(placed, claims, tokens, strict=True), key=lambda t: t[0]
            ):
                who = claim.name if claim.name is not None else bot_name(r, seat, taken)
                taken.add(who)
                events.append((SEAT_TAKEN, {"seat": seat, "name": who, "bot": claim.bot}, None))
                if token is not None:
                    meta[f"token:{seat}"] = hash_token(token)
            if len(claims) == len(labels):
                # The version before the last SeatTaken, as take_seat would deal it.
                events.extend(self._start_events(r, len(events) - 1))
            return events, meta

        await self._execute(rec, f"create:{game_id}", decide)
        return rec, list(zip(placed, tokens, strict=True))

    @staticmethod
    def _place(claims: Sequence[SeatClaim], seats: int, title: str) -> list[int]:
        """The seat of each claim: named seats as asked, the others the lowest free ones."""
        if len(claims) > seats:
            raise ServiceError(
                "too_many_seats",
                f"this {title} game has {seats} seat{'s' if seats != 1 else ''}; "
                f"the request fills {len(claims)}",
            )
        named = [c.seat for c in claims if c.seat is not None]
        for seat in named:
            if not 0 <= seat < seats:
                raise ServiceError("bad_seat", f"seat must be 0..{seats - 1}, not {seat}")
        if len(set(named)) != len(named):
            dup = next(x for x in named if named.count(x) > 1)
            raise ServiceError("bad_seat", f"seat {dup} is asked for twice")
        free = iter(i for i in range(seats) if i not in named)
        return [c.seat if c.seat is not None else next(free) for c in claims]

    def _start_events(self, r: GameRecord, version: int) -> list[tuple[str, dict[str, Any], Any]]:
        """GameStarted and the set-up, dealt from the seed and ``version``."""
        # ``at``: when the game began, where clocks and absences start (``server.clocks``).
        events: list[tuple[str, dict[str, Any], Any]] = [(GAME_STARTED, {"at": self.now()}, None)]
        if r.fork is not None:  # the source's position instead of a set-up (server.fork)
            state = r.game.initial_state(r.options)
            for t, d in r.fork["events"]:
                e = r.codec.decode_event(t, d)
                events.append((t, d, e))
                state = r.game.evolve(state, e)
            if r.fork.get("fresh"):
                # What is hidden is dealt anew from this game's own seed (server.fork).
                ctx = Context.for_version(r.seed, version)
                for e in fork_reshuffle(r.game, state, ctx):
                    events.append((type(e).__name__, r.codec.encode_event(e), e))
            return events
        state = r.game.initial_state(r.options)
        ctx = Context.for_version(r.seed, version)
        for e in r.game.setup(state, ctx):
            events.append((type(e).__name__, r.codec.encode_event(e), e))
        return events

    async def import_log(self, events: list[dict[str, Any]]) -> GameRecord:
        """Create a new game from an exported finished log (``cloister export`` of a game
        seen by the review audience), re-decided by the rules (``server.imports``):
        ServiceError ``import_mismatch`` names the first event they would not produce."""
        from .imports import import_log  # imports builds on this module

        return await import_log(self, events)

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
                events.extend(self._start_events(r, r.version))
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
        return await self._execute(
            rec,
            scoped_id(seat, command_id),
            decide,
            digest=command_digest("chat", text),
            reply_id=command_id,
        )

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
        self,
        rec: GameRecord,
        seat: int,
        command_id: str,
        raw: dict[str, Any],
        expected_version: int | None = None,
    ) -> tuple[int, bool]:
        """Decide and append one game command. Raises DomainError or ServiceError.

        ``command_id`` is the seat's own (scoped by the seat); ``expected_version``, if
        given, makes it apply only to the game at exactly that version (else ``stale``)."""
        command = rec.codec.decode_command(raw)  # InvalidCommand / UnknownCommand
        folded: list[tuple[Any, Any, bool]] = []

        def decide(r: GameRecord) -> tuple[list[tuple[str, dict[str, Any], Any]], dict[str, str]]:
            if r.state is None:
                raise IllegalCommand(
                    "the game has not started: seats are still free", code="game_not_started"
                )
            if r.game.is_terminal(r.state):
                raise IllegalCommand("the game is over", code="game_over")
            ctx = Context.for_version(r.seed, r.version)
            # The events and the state they lead to, folded once (by the rules' own
            # transaction where the game has one), applied as is once appended.
            events, after = decide_and_fold(r.game, r.state, seat, command, ctx)
            if not events:
                raise RuleViolation("that command would change nothing", code="no_effect")
            at = self.now()
            # The command as decided, next to the events it produced, so that the log can be
            # re-decided (``cloister verify``); the seed follows the events that end the game.
            accepted = {
                "seat": seat,
                "command": r.codec.encode_command(command),
                "command_id": command_id,
                "at": at,
            }
            out: list[tuple[str, dict[str, Any], Any]] = [(COMMAND_ACCEPTED, accepted, None)]
            out.extend((type(e).__name__, r.codec.encode_event(e), e) for e in events)
            over = r.game.is_terminal(after)
            folded.append((r.state, after, over))
            if over:
                out.append((SEED_REVEALED, {"seed": r.seed, "at": at}, None))
            return out, {}

        self.stats["commands"] += 1
        try:
            return await self._execute(
                rec,
                f"{seat}:{command_id}",  # scoped_id(seat, command_id), inline
                decide,
                digest=command_digest("command", raw),
                expected_version=expected_version,
                reply_id=command_id,
                folded=folded,
            )
        except (DomainError, ServiceError):
            self.stats["rejected"] += 1
            raise
