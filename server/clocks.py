"""Turn clocks and absent players: platform state folded from the log's times.

The domain knows nothing of time. Every platform event carries ``at`` (server time, integer
milliseconds since the epoch, see ``cloister.CommandAccepted``), so the time of every append
is in the log, and a clock is a fold over it:

* ``move:<seconds>``: each decision has a limit. A seat's decision starts when it becomes
  one of the seats to act (``Game.to_act``) or when its own previous command was accepted
  and it still has to act.
* ``fischer:<minutes>+<seconds>``: a bank per seat, spent while the seat is to act, with
  the increment added to it for each of its own accepted commands.

In a simultaneous phase every seat that still has to act is to act, so every such clock
runs. A seat a bot stands in for (``cloister.SeatHandedToBot``) has no running clock; when
its player takes it back (``cloister.SeatRetaken``) a spent fischer bank is raised to
:data:`RETAKE_GRACE_MS`.

When a running clock passes its deadline the node that notices appends
``cloister.ClockExpired`` and ``cloister.SeatHandedToBot`` in one append with the expected
version and the command id ``clock:<seat>:<version>``: with several processes exactly one
append succeeds (the others get ``conflict`` or ``dup`` and see the seat handed over). A
game whose processes all restarted folds its clocks again from the log the first time it is
loaded, and a deadline passed meanwhile expires at once.

A game nobody loads must time out too, so every process keeps a *deadline index* in the
store (``set_due``/``due_games``: on Redis a sorted set of game id -> the next time somebody
must look at the game, see ``server.store.redis``): after each look at the games it holds,
a process writes, for each running game whose next look changed, the earliest of its
clocks' deadlines, the times its absent players' ``absent`` runs out, and (a bot or stand-in
to move) the time of the game's last append; a finished game leaves the index. Every
process reads the index at start-up and every ``watch`` seconds, and loads the games that
are due and that it does not hold: the load folds their clocks and schedules their bots,
and the next look times them out (with several processes each may load it; the
expected-version append still lets exactly one hand a seat over). An entry that is too
early (a player another process sees connected) costs a needless load, after which the
entry moves on; an entry is written with the game's version and an older one never
overwrites a newer one.

The index is derived from the logs, like the lobby index. A game missing from it (created
before it existed, or its process died between an append and the index write) is found at
start-up by :meth:`ClockKeeper.rebuild`: in batches of the lobby's game ids, one pipelined
read per batch asks the store for the games with no entry whose index version is missing
or below their stream's head (``index_gaps``: the head entry of each stream, never its
log). A gap whose head event reveals the seed is a finished game: its entry is written as
dropped at the head. Every other gap is written due now, so the sweep loads it (at most
:data:`SWEEP_BATCH` per look, spread over the processes), folds its clocks from the log
and writes its real next look. A dropped entry keeps its version, so a game the scan found
open or finished is no gap at the next start unless its stream moved on. A game that has an
entry is not a gap even if the entry lags its stream (the index is written when a game's
next look changes, not at every append): it is loaded at that entry's time and refolded
then, so an append that moved its next look earlier and died before its index write makes
it late by that difference at most, never forgotten.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from domain.narration import Names

from .errors import ServiceError
from .games import (
    COMMAND_ACCEPTED,
    GAME_CREATED,
    GAME_STARTED,
    PLATFORM,
    SEAT_HANDED,
    SEAT_RETAKEN,
    SEED_REVEALED,
    GameRecord,
    GameService,
    LogEntry,
)

__all__ = [
    "ABSENT_DEFAULT",
    "CLOCK_EXPIRED",
    "PLATFORM_OPTIONS",
    "RETAKE_GRACE_MS",
    "ClockKeeper",
    "ClockSpec",
    "TableClock",
    "absent_seconds",
    "clock_text",
    "split_options",
]

log = logging.getLogger("cloister.clocks")

CLOCK_EXPIRED = PLATFORM + "ClockExpired"
UNDONE = PLATFORM + "Undone"
"""An undo (``server.undo``): the state goes back to an earlier version's."""
_WAKING = frozenset((GAME_STARTED, SEAT_HANDED, SEAT_RETAKEN, UNDONE))
"""Entries that make the clock loop look at once even in a game without a clock."""

RETAKE_GRACE_MS = 15_000
"""A fischer bank below this is raised to it when its player takes the seat back."""

ABSENT_DEFAULT = 300
"""Seconds a seated player may be disconnected, while the game waits on their seat, before
a bot plays for them."""

ABSENT_MAX = 7 * 24 * 3600
MOVE_MAX = 24 * 3600
SWEEP_BATCH = 200
"""Due games loaded per read of the deadline index."""
GONE = 1 << 53
"""The version a vanished game's index entry is dropped with (above any real one)."""
FISCHER_MAX_MINUTES = 24 * 60
INCREMENT_MAX = 3600

_MOVE = re.compile(r"move:(\d{1,6})")
_FISCHER = re.compile(r"fischer:(\d{1,5})\+(\d{1,5})")

PLATFORM_OPTIONS: tuple[dict[str, Any], ...] = (
    {
        "name": "clock",
        "default": "none",
        "choices": ["none", "move:30", "move:60", "move:120", "fischer:5+5", "fischer:10+10"],
        "label": "Clock",
        "description": (
            "move:<seconds>: a limit per decision; fischer:<minutes>+<seconds>: a bank per "
            "seat plus an increment per move. When it runs out, a bot plays on for the seat."
        ),
        "applies_when": None,
    },
    {
        "name": "absent",
        "default": ABSENT_DEFAULT,
        "choices": [60, 120, ABSENT_DEFAULT, 900, 3600],
        "label": "Absent after (seconds)",
        "description": (
            "A player disconnected this long while the game waits on them is replaced by a "
            "bot until they come back."
        ),
        "applies_when": None,
    },
)
"""The options every game type has, on top of its own (``GET /api/game-types`` lists
them after the game's). They are kept in a game's options only when not the default."""


@attrs.frozen
class ClockSpec:
    """A parsed ``clock`` option."""

    kind: str
    """``none``, ``move`` or ``fischer``."""
    limit_ms: int = 0
    """move: the time for one decision; fischer: the starting bank."""
    increment_ms: int = 0

    @classmethod
    def parse(cls, value: object) -> ClockSpec:
        """The spec of an option value, or ServiceError ``bad_option`` saying the forms."""
        forms = (
            "'none', 'move:<seconds>' (e.g. move:30) or "
            "'fischer:<minutes>+<seconds>' (e.g. fischer:5+3)"
        )
        if value == "none":
            return cls("none")
        if isinstance(value, str):
            m = _MOVE.fullmatch(value)
            if m:
                seconds = int(m.group(1))
                if not 1 <= seconds <= MOVE_MAX:
                    raise ServiceError(
                        "bad_option",
                        f"option 'clock': a move clock has 1 to {MOVE_MAX} seconds, not {seconds}",
                    )
                return cls("move", seconds * 1000)
            m = _FISCHER.fullmatch(value)
            if m:
                minutes, inc = int(m.group(1)), int(m.group(2))
                if not 1 <= minutes <= FISCHER_MAX_MINUTES:
                    raise ServiceError(
                        "bad_option",
                        f"option 'clock': a fischer bank has 1 to {FISCHER_MAX_MINUTES} "
                        f"minutes, not {minutes}",
                    )
                if inc > INCREMENT_MAX:
                    raise ServiceError(
                        "bad_option",
                        f"option 'clock': the increment is 0 to {INCREMENT_MAX} seconds, not {inc}",
                    )
                return cls("fischer", minutes * 60_000, inc * 1000)
        raise ServiceError("bad_option", f"option 'clock' must be {forms}, not {value!r}")

    @property
    def on(self) -> bool:
        return self.kind != "none"


def _absent(value: object) -> int:
    if type(value) is not int or not 1 <= value <= ABSENT_MAX:
        raise ServiceError(
            "bad_option",
            f"option 'absent' must be a whole number of seconds from 1 to {ABSENT_MAX}, "
            f"not {value!r}",
        )
    return value


def split_options(raw: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(the game's own options, the platform options)``; the platform ones are checked
    (ServiceError ``bad_option``) and kept only when they differ from their default."""
    game = dict(raw or {})
    platform: dict[str, Any] = {}
    if "clock" in game:
        value = game.pop("clock")
        if ClockSpec.parse(value).on:
            platform["clock"] = value
    if "absent" in game:
        value = _absent(game.pop("absent"))
        if value != ABSENT_DEFAULT:
            platform["absent"] = value
    return game, platform


NO_CLOCK = ClockSpec("none")


def clock_spec(options: Mapping[str, Any]) -> ClockSpec:
    # Asked several times per move (listener, the messages' table field): a game with no
    # clock, the usual one, is answered without parsing.
    value = options.get("clock", "none")
    return NO_CLOCK if value == "none" else ClockSpec.parse(value)


def absent_seconds(options: Mapping[str, Any]) -> int:
    return int(options.get("absent", ABSENT_DEFAULT))


def stamp(entry: LogEntry) -> int | None:
    """The entry's ``at``, if it is a platform event that has one."""
    if not entry.type.startswith(PLATFORM):
        return None
    at = entry.data.get("at")
    return at if isinstance(at, int) else None


@attrs.define
class SeatClock:
    running_since: int | None = None
    """When the seat's current stretch of being to act began (None: not running)."""
    bank: int = 0
    """fischer: what is left, as of ``running_since`` (or now, when not running)."""
    started: int = 0
    """move: when the current decision began."""


class TableClock:
    """One game's clocks, folded from its log (own fold of the game's state, so that the
    seats to act are known after every append, also when a catch-up brings several)."""

    def __init__(self, rec: GameRecord, spec: ClockSpec) -> None:
        self.spec = spec
        self.game = rec.game
        self.options = rec.options
        self.state: Any = None
        self.t = int(rec.created * 1000)
        self.seats = [SeatClock(bank=spec.limit_ms) for _ in rec.seats]
        self.stood_in: set[int] = set()
        self.version = 0
        self.log = rec.log
        """The record's log (the same list, growing): an undo refolds the state from it."""

    # -- folding ------------------------------------------------------------------------------
    def feed(self, entries: Iterable[LogEntry], now: int) -> None:
        """Fold entries after ``self.version``. An append with no ``at`` at all (a log
        written before platform events carried times) is taken to happen at ``now``."""
        fresh = [e for e in entries if e.version > self.version]
        if not fresh:
            return
        if all(stamp(e) is None for e in fresh):
            self._boundary(max(now, self.t))
        for e in fresh:
            at = stamp(e)
            if at is not None:
                self._boundary(at)
            self._apply(e)
            self.version = e.version
        self._settle()

    def _boundary(self, at: int) -> None:
        """A new append begins at ``at``: the previous one's changes happened at ``self.t``."""
        self._settle()
        self.t = max(at, self.t)

    def _apply(self, e: LogEntry) -> None:
        if e.type == GAME_CREATED:
            self.t = int(float(e.data.get("created", 0)) * 1000) or self.t
        elif e.type == GAME_STARTED:
            self.state = self.game.initial_state(self.options)
        elif e.type == COMMAND_ACCEPTED:
            seat = e.data.get("seat")
            if isinstance(seat, int) and 0 <= seat < len(self.seats):
                c = self.seats[seat]
                if c.running_since is not None:
                    c.bank += self.spec.increment_ms - (self.t - c.running_since)
                    c.running_since = self.t
                c.started = self.t
        elif e.type == SEAT_HANDED:
            seat = e.data["seat"]
            self._stop(seat)
            self.stood_in.add(seat)
        elif e.type == SEAT_RETAKEN:
            seat = e.data["seat"]
            self.stood_in.discard(seat)
            c = self.seats[seat]
            if self.spec.kind == "fischer":
                c.bank = max(c.bank, RETAKE_GRACE_MS)
            c.started = self.t
        elif e.type == UNDONE:
            # Time spent stays spent; who is to act is that of the restored state.
            self.state = self._fold(int(e.data["to_version"]), e.version - 1)
        elif e.event is not None and self.state is not None:
            self.state = self.game.evolve(self.state, e.event)

    def _fold(self, upto: int, before: int) -> Any:
        """The game's state after version ``upto`` as the log up to ``before`` has it
        (undone events skipped: ``server.undo``, when this build has it)."""
        log = self.log[:before]
        try:
            undo: Any = importlib.import_module(".undo", __package__)
        except ImportError:
            undo = None
        fold_log = getattr(undo, "fold_log", None)
        if fold_log is not None:
            return fold_log(self.game, self.options, log, upto)
        state = None
        for entry in log[:upto]:
            if entry.type == GAME_STARTED:
                state = self.game.initial_state(self.options)
            elif entry.event is not None and state is not None:
                state = self.game.evolve(state, entry.event)
        return state

    def _stop(self, seat: int) -> None:
        c = self.seats[seat]
        if c.running_since is not None:
            c.bank -= self.t - c.running_since
            c.running_since = None

    def acting(self) -> set[int]:
        if self.state is None or self.game.is_terminal(self.state):
            return set()
        return set(self.game.to_act(self.state)) - self.stood_in

    def _settle(self) -> None:
        acting = self.acting()
        for seat, c in enumerate(self.seats):
            if seat in acting and c.running_since is None:
                c.running_since = c.started = self.t
            elif seat not in acting and c.running_since is not None:
                self._stop(seat)

    # -- reading ------------------------------------------------------------------------------
    def deadline(self, seat: int) -> int | None:
        c = self.seats[seat]
        if c.running_since is None:
            return None
        if self.spec.kind == "move":
            return c.started + self.spec.limit_ms
        return c.running_since + c.bank

    def remaining(self, seat: int, now: int) -> int:
        deadline = self.deadline(seat)
        if deadline is not None:
            return max(0, deadline - now)
        if self.spec.kind == "move":
            return self.spec.limit_ms
        return max(0, self.seats[seat].bank)

    def due(self) -> list[tuple[int, int]]:
        """(deadline, seat) of every running clock."""
        out = []
        for seat in range(len(self.seats)):
            d = self.deadline(seat)
            if d is not None:
                out.append((d, seat))
        return out


def clock_text(rec: GameRecord, e: LogEntry, names: Names) -> str:
    """Log sentences of the clock and absence events (``hub.platform_text`` asks here)."""
    kind = e.type[len(PLATFORM) :]
    data = e.data
    if kind == "ClockExpired":
        return f"{names.seat(data['seat'])} ran out of time"
    if kind == "SeatHandedToBot":
        why = {
            "clock": "whose time ran out",
            "absent": "who is away",
            "left": "who left the table",
        }.get(str(data.get("reason")), "who is away")
        bot = str(data.get("name") or "A bot")
        return f"{bot} plays on for {names.seat(data['seat'])}, {why}"
    if kind == "SeatRetaken":
        return f"{names.seat(data['seat'])} is back and takes the seat again"
    return ""


Decision = tuple[list[tuple[str, dict[str, Any], Any]], dict[str, str]]


class ClockKeeper:
    """Watches the clocks and absences of every running game this node holds, and hands a
    seat to the game's best bot when its clock runs out or its player stays away.

    Its time source is the service's (``GameService.now``, the one ``at`` is stamped
    with). Presence is shared between processes through the game's meta hash
    (``seen:<seat>``: the last time a process saw the seat's player connected); each
    process refreshes it for the seats it has connections of, every third of the game's
    ``absent`` time (at most every 30 s).
    """

    def __init__(self, service: GameService, tick: float = 1.0, watch: float = 5.0) -> None:
        self.service = service
        self.now = service.now
        self.tick = tick
        self.watch = watch
        """Seconds between two reads of the deadline index (and one at start-up)."""
        self._indexed: dict[str, int | None] = {}
        """game -> the next look this node last wrote to the deadline index."""
        self._unhostable: set[str] = set()
        """Due games this node cannot load (a game type it does not have): not retried."""
        self.tables: dict[str, TableClock] = {}
        self.local: dict[tuple[str, int], int] = {}
        """(game, seat) -> connections on this node."""
        self._seen: dict[tuple[str, int], int] = {}
        """(game, seat) -> last time this node knows the player was connected somewhere."""
        self._refreshed: dict[str, tuple[int, int]] = {}
        """game -> (when this node last wrote/read its presence)."""
        self._wake = asyncio.Event()
        self._busy: set[tuple[str, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._handed: set[str] = set()
        """Games where a bot stood in for somebody: their messages keep a ``table``."""
        self._over: set[str] = set()
        """Games this node found finished (a finished game stays so: its moves are final, no
        undo reaches past its end): every look passes over them without asking the rules.
        A node holds many more finished games than running ones (its cache keeps up to
        2,000, and their players' pages stay open on the review), and each look walked
        them all."""
        self._since: dict[tuple[str, int], int] = {}
        """(game, seat) -> the game's start or the seat's last retake (from the log)."""
        service.listeners.append(self.on_entries)

    # -- folding ------------------------------------------------------------------------------
    def on_entries(
        self, rec: GameRecord, entries: list[LogEntry], command_id: str | None = None
    ) -> None:
        waking = False
        for e in entries:
            if e.type not in _WAKING:  # nearly every entry: a move's
                continue
            waking = True
            if e.type == SEAT_HANDED:
                self._handed.add(rec.id)
            if e.type in (GAME_STARTED, SEAT_RETAKEN):
                at = stamp(e)
                for seat in range(len(rec.seats)):
                    if e.type == GAME_STARTED or e.data.get("seat") == seat:
                        self._since[(rec.id, seat)] = at if at is not None else self.now()
        spec = clock_spec(rec.options)
        if spec.on:
            table = self.tables.get(rec.id)
            if table is None:
                table = self.tables[rec.id] = TableClock(rec, spec)
                entries = rec.log
            table.feed(entries, self.now())
            if rec.terminal:
                del self.tables[rec.id]
            self._wake.set()  # the deadlines moved
        elif waking:
            self._wake.set()
        # A move of a game without a clock wakes nothing: absence is measured in seconds
        # and the next tick looks at it. Waking per move made every move pay a pass over
        # all of the node's games and connections (4% of the CPU at 100 matches).

    def table(self, rec: GameRecord) -> TableClock | None:
        table = self.tables.get(rec.id)
        if table is None and clock_spec(rec.options).on and rec.state is not None:
            table = self.tables[rec.id] = TableClock(rec, clock_spec(rec.options))
            table.feed(rec.log, self.now())
        if table is not None and table.version < rec.version:
            table.feed(rec.log[table.version :], self.now())
        return table

    def wire(self, rec: GameRecord) -> dict[str, Any] | None:
        """The ``table`` field of welcome and update messages (None: nothing to show)."""
        gid = rec.id
        if gid not in self.tables and gid not in self._handed and not clock_spec(rec.options).on:
            # No clock and no bot ever stood in (every move of most games): nothing to show
            # unless a bot stands in now, as below finds, without building its lists.
            for s in rec.seats:
                if s is not None and s.stand_in:
                    break
            else:
                return None
        stood = [s.stand_in if s is not None else None for s in rec.seats]
        table = self.table(rec) if not rec.terminal else None
        if any(stood):
            self._handed.add(rec.id)
        if table is None and rec.id not in self._handed:
            return None
        now = self.now()
        seats = []
        for seat in range(len(rec.seats)):
            item: dict[str, Any] = {"seat": seat, "bot": stood[seat]}
            if table is not None:
                deadline = table.deadline(seat)
                item.update(
                    remaining=table.remaining(seat, now),
                    running=deadline is not None,
                    deadline=deadline,
                )
            seats.append(item)
        return {"now": now, "clock": rec.options.get("clock", "none"), "seats": seats}

    # -- presence -----------------------------------------------------------------------------
    def connected(self, rec: GameRecord, seat: int) -> None:
        key = (rec.id, seat)
        self.local[key] = self.local.get(key, 0) + 1
        self._seen[key] = self.now()
        self._spawn(self._write_seen(rec.id, [seat]))

    def disconnected(self, rec: GameRecord, seat: int) -> None:
        key = (rec.id, seat)
        left = self.local.get(key, 0) - 1
        if left > 0:
            self.local[key] = left
            return
        self.local.pop(key, None)
        self._seen[key] = self.now()
        self._spawn(self._write_seen(rec.id, [seat]))
        self._wake.set()

    async def _write_seen(self, game_id: str, seats: list[int]) -> None:
        set_meta = getattr(self.service.store, "set_meta", None)
        if set_meta is None:
            return
        now = str(self.now())
        try:
            for seat in seats:
                await set_meta(game_id, f"seen:{seat}", now)
        except Exception:
            log.warning("presence of %s not written", game_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _last_seen(self, rec: GameRecord, seat: int, interval: int) -> int:
        """When the seat's player was last seen connected (on any node)."""
        key = (rec.id, seat)
        now = self.now()
        if key in self.local:
            return now
        seen = self._seen.get(key, 0)
        last_read = self._refreshed.get(rec.id, (0, 0))[1]
        if now - last_read >= interval:
            fields = [f"seen:{s}" for s in range(len(rec.seats))]
            values = await self.service.store.get_meta_many(rec.id, fields)
            self._refreshed[rec.id] = (self._refreshed.get(rec.id, (0, 0))[0], now)
            for s, v in enumerate(values):
                if v is not None and v.isdigit():
                    k = (rec.id, s)
                    self._seen[k] = max(self._seen.get(k, 0), int(v))
            seen = self._seen.get(key, 0)
        since = self._since.get(key)
        if since is None:
            since = self._since[key] = _since(rec, seat)
        return max(seen, since)

    async def _heartbeat(self) -> None:
        now = self.now()
        by_game: dict[str, list[int]] = {}
        over = self._over
        for gid, seat in self.local:
            if gid not in over:
                by_game.setdefault(gid, []).append(seat)
        peek = self._peeker()
        for gid, seats in by_game.items():
            rec = peek(gid)
            if rec is None or rec.state is None:
                continue
            wrote = self._refreshed.get(gid, (0, 0))[0]
            # Due first, then over: most games at most looks are not due, and the rules
            # need not be asked about them.
            if now - wrote < _interval(rec):
                continue
            if rec.terminal:
                over.add(gid)
            else:
                self._refreshed[gid] = (now, self._refreshed.get(gid, (0, 0))[1])
                for seat in seats:  # what the deadline index counts absence from
                    self._seen[(gid, seat)] = now
                await self._write_seen(gid, seats)

    def _peek(self, game_id: str) -> GameRecord | None:
        """The record if this node holds it, without counting as a use of the cache."""
        return self._peeker()(game_id)

    def _peeker(self) -> Callable[[str], GameRecord | None]:
        """``_peek`` as one function, for a loop over every game."""
        games = self.service.games
        peek: Callable[[str], GameRecord | None] | None = getattr(games, "peek", None)
        return peek if peek is not None else games.get

    # -- acting -------------------------------------------------------------------------------
    def wake(self) -> None:
        """Look at the clocks now (tests that move their time source call it)."""
        self._wake.set()

    async def run(self) -> None:
        """The node's loop: sleep until the next deadline (at most ``tick``), act on it;
        read the deadline index at start and every ``watch`` seconds."""
        loop = asyncio.get_running_loop()
        next_sweep = loop.time()
        rebuilt = False
        while True:
            try:
                if loop.time() >= next_sweep:
                    next_sweep = loop.time() + self.watch
                    if not rebuilt:  # once, before the first sweep; again if it failed
                        await self.rebuild()
                        rebuilt = True
                    await self.sweep()
                await self._heartbeat()
                await self.check()
                await self.index()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock check failed")
            self._wake.clear()
            wait = self.tick
            upcoming = [d for t in self.tables.values() for d, _ in t.due()]
            if upcoming:
                wait = min(wait, max(0.0, (min(upcoming) - self.now()) / 1000))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(wait, 0.005))

    # -- the deadline index ---------------------------------------------------------------
    def next_look(self, rec: GameRecord) -> int | None:
        """When somebody must next look at this game (ms; None: not running): its earliest
        clock deadline, absence running out, or (a bot to move) its last append's time."""
        state = rec.state
        # rec.terminal and rec.to_act() asking the rules once each (every game this node
        # holds, every look): the order of the seats does not matter for the earliest.
        if state is None or rec.game.is_terminal(state):
            return None
        looks = [d for d, _ in table.due()] if (table := self.table(rec)) is not None else []
        limit = absent_seconds(rec.options) * 1000
        for seat in rec.game.to_act(state):
            info = rec.seats[seat]
            if info is None:
                continue
            if info.bot is not None or info.stand_in is not None:
                looks.append(_last_at(rec))
                continue
            key = (rec.id, seat)
            since = self._since.get(key)
            if since is None:
                since = self._since[key] = _since(rec, seat)
            looks.append(max(self._seen.get(key, 0), since) + limit)
        return min(looks) if looks else None

    async def index(self) -> int:
        """Write the next look of every game this node holds whose next look changed since
        this node last wrote it; returns how many entries were written."""
        set_due = getattr(self.service.store, "set_due", None)
        if set_due is None:
            return 0
        items: list[tuple[str, int, int | None]] = []
        held = set()
        peek = self._peeker()
        over, indexed = self._over, self._indexed
        for gid in list(self.service.games):
            if gid in over and gid in indexed and indexed[gid] is None:
                held.add(gid)  # finished, and its entry says so already
                continue
            rec = peek(gid)
            if rec is None:
                continue
            held.add(gid)
            look = self.next_look(rec)
            if gid not in self._indexed or self._indexed[gid] != look:
                items.append((gid, rec.version, look))
        gone = [g for g in self._indexed if g not in held]
        for gid in gone:
            del self._indexed[gid]  # dropped from the cache: written again when loaded
        if gone:
            self._let_go(held)
        if items:
            await set_due(items)
            for gid, _, look in items:
                self._indexed[gid] = look
        return len(items)

    def _let_go(self, held: set[str]) -> None:
        """Forget what this node keeps per game of the games it no longer holds: presence
        is read again from the store and start times folded again from the log if one is
        loaded again. Kept, they grew by every game the process ever held (a process
        serving for weeks); rebuilt only when the cache dropped a game since the last
        look, not at every look."""
        local = self.local
        self._over = {g for g in self._over if g in held}
        self._seen = {k: v for k, v in self._seen.items() if k[0] in held or k in local}
        self._since = {k: v for k, v in self._since.items() if k[0] in held}
        self._refreshed = {g: v for g, v in self._refreshed.items() if g in held}

    async def rebuild(self) -> int:
        """Put back the deadline-index entries that the logs say may be missing (see the
        module's notes); returns how many games were written due now."""
        store = self.service.store
        index_gaps = getattr(store, "index_gaps", None)
        set_due = getattr(store, "set_due", None)
        if index_gaps is None or set_due is None:
            return 0
        ids = await store.game_ids()
        due = finished = 0
        for i in range(0, len(ids), SWEEP_BATCH):
            items: list[tuple[str, int, int | None]] = []
            for gid, head, last in await index_gaps(ids[i : i + SWEEP_BATCH]):
                # The seed is revealed by the append that ends the game: nothing to look at.
                over = last == SEED_REVEALED
                items.append((gid, head, None if over else self.now()))
                finished += over
                due += not over
            if items:
                await set_due(items)
        if due or finished:
            log.info(
                "deadline index: %d game(s) put back to be looked at, %d finished one(s) noted",
                due,
                finished,
            )
        return due

    async def sweep(self) -> list[str]:
        """Load the games the deadline index says are due and this node does not hold;
        returns their ids. The next ``check`` times them out; the load schedules bots."""
        due_games = getattr(self.service.store, "due_games", None)
        if due_games is None:
            return []
        loaded = []
        now = self.now()
        for gid in await due_games(now, SWEEP_BATCH):
            if gid in self._unhostable:
                continue
            if self._peek(gid) is not None:
                look = self._indexed.get(gid, now)
                if look is None or look > now:
                    # The stored entry is not the one this node wrote (the start-up scan
                    # marked the game due): write ours again, or it would stay due.
                    self._indexed.pop(gid, None)
                continue
            try:
                await self.service.load(gid)
            except ServiceError as exc:
                set_due = getattr(self.service.store, "set_due", None)
                if exc.code == "game_not_found" and set_due is not None:
                    await set_due([(gid, GONE, None)])  # deleted: drop its entry
                else:
                    log.warning("due game %s not loaded: %s", gid, exc.message)
                    self._unhostable.add(gid)
                continue
            loaded.append(gid)
        if loaded:
            log.info("deadline index: loaded %d due game(s)", len(loaded))
            self._wake.set()
        return loaded

    async def check(self) -> list[tuple[str, int, str]]:
        """Hand over every seat whose clock ran out or whose player is away; returns
        (game, seat, reason) of those this node appended."""
        now = self.now()
        due: list[tuple[GameRecord, int, str]] = []
        for gid, table in list(self.tables.items()):
            rec = self._peek(gid)
            if rec is None:  # dropped from this node's cache: folded again when loaded
                del self.tables[gid]
                continue
            for deadline, seat in table.due():
                if deadline <= now:
                    due.append((rec, seat, "clock"))
        peek = self._peeker()
        local = self.local
        over = self._over
        for gid in list(self.service.games):
            if gid in over:
                continue
            rec = peek(gid)
            # rec.terminal and rec.to_act(), asking the rules once each: every game this
            # node holds, every look.
            state = None if rec is None else rec.state
            if rec is None or state is None:
                continue
            if rec.game.is_terminal(state):
                over.add(gid)
                continue
            limit = absent_seconds(rec.options) * 1000
            for seat in sorted(rec.game.to_act(state)):
                if (gid, seat) in local:  # the usual case: a player connected here
                    continue
                info = rec.seats[seat]
                if info is None or info.bot is not None or info.stand_in is not None:
                    continue
                if any(r is rec and s == seat for r, s, _ in due):
                    continue
                if now - await self._last_seen(rec, seat, _interval(rec)) >= limit:
                    due.append((rec, seat, "absent"))
        done = []
        for rec, seat, reason in due:
            if (rec.id, seat) in self._busy:
                continue
            self._busy.add((rec.id, seat))
            try:
                if await self.hand_over(rec, seat, reason):
                    done.append((rec.id, seat, reason))
            finally:
                self._busy.discard((rec.id, seat))
        return done

    async def hand_over(self, rec: GameRecord, seat: int, reason: str) -> bool:
        """Append the handover of ``seat`` to the game's best bot (with ``ClockExpired``
        first for ``reason`` "clock"); False if it was no longer due (another process
        did it, the player moved or came back)."""
        level = rec.gtype.bot(None).name
        at = self.now()

        def decide(r: GameRecord) -> Decision:
            info = r.seats[seat]
            if (
                r.state is None
                or r.terminal
                or info is None
                or info.bot is not None
                or info.stand_in is not None
            ):
                raise ServiceError("not_due", "the seat is not a person's seat in play")
            if reason != "left" and seat not in r.to_act():
                raise ServiceError("not_due", "the seat has nothing to do")
            if reason == "clock":
                table = self.table(r)
                deadline = table.deadline(seat) if table is not None else None
                if deadline is None or deadline > at:
                    raise ServiceError("not_due", "the clock has time left")
            events: list[tuple[str, dict[str, Any], Any]] = []
            if reason == "clock":
                events.append((CLOCK_EXPIRED, {"seat": seat, "at": at}, None))
            name = _stand_in_name(r, seat)
            data = {"seat": seat, "reason": reason, "bot": level, "name": name, "at": at}
            events.append((SEAT_HANDED, data, None))
            return events, {}

        try:
            _, dup = await self.service.append_platform(
                rec, f"{reason}:{seat}:{rec.version}", decide
            )
        except ServiceError as exc:
            if exc.code != "not_due":
                raise
            return False
        if not dup:
            log.info("%s: seat %d handed to %s (%s)", rec.id, seat, level, reason)
        return not dup

    async def retake(self, rec: GameRecord, seat: int, command_id: str) -> tuple[int, bool]:
        """The player takes their seat back from the bot standing in for them."""
        at = self.now()
        self._seen[(rec.id, seat)] = at

        def decide(r: GameRecord) -> Decision:
            info = r.seats[seat]
            if info is None or info.stand_in is None:
                raise ServiceError("not_handed", "no bot is playing for you: the seat is yours")
            if r.terminal:
                raise ServiceError("game_over", "the game is over")
            return [(SEAT_RETAKEN, {"seat": seat, "at": at}, None)], {f"seen:{seat}": str(at)}

        return await self.service.append_platform(rec, command_id, decide, seat, "retake")

    async def leave(self, rec: GameRecord, seat: int, command_id: str) -> tuple[int, bool]:
        """The player leaves the table: the game's best bot plays on for them."""
        at = self.now()
        level = rec.gtype.bot(None).name

        def decide(r: GameRecord) -> Decision:
            info = r.seats[seat]
            if r.state is None:
                raise ServiceError("game_not_started", "the game has not started yet")
            if r.terminal:
                raise ServiceError("game_over", "the game is over")
            if info is None or info.stand_in is not None:
                raise ServiceError("already_handed", "a bot is already playing for you")
            data = {
                "seat": seat,
                "reason": "left",
                "bot": level,
                "name": _stand_in_name(r, seat),
                "at": at,
            }
            return [(SEAT_HANDED, data, None)], {}

        return await self.service.append_platform(rec, command_id, decide, seat, "leave")

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def _stand_in_name(rec: GameRecord, seat: int) -> str:
    from .games import bot_name

    return bot_name(rec, seat)


def _last_at(rec: GameRecord) -> int:
    """The time of the game's last append that says when it was (its creation if none)."""
    for e in reversed(rec.log[-64:]):
        at = stamp(e)
        if at is not None:
            return at
    return int(rec.created * 1000)


def _interval(rec: GameRecord) -> int:
    """How often presence is refreshed for this game, in ms."""
    return max(500, min(30_000, absent_seconds(rec.options) * 1000 // 3))


def _since(rec: GameRecord, seat: int) -> int:
    """The earliest a seat's absence can count from: the game's start, or the seat's last
    retake (times from the log)."""
    since = int(rec.created * 1000)
    for e in reversed(rec.log):
        if e.type == GAME_STARTED or (e.type == SEAT_RETAKEN and e.data.get("seat") == seat):
            at = stamp(e)
            if at is not None:
                since = max(since, at)
            break
    return since
