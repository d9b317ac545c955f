"""Re-deciding a finished game's log: ``cloister verify``, the verify route and imports.

A finished log carries everything needed to decide it again: ``cloister.GameCreated`` its
type, options and a commitment to the seed; each ``cloister.CommandAccepted`` the seat and
the command as decided; ``cloister.SeedRevealed`` the seed. :func:`replay` runs the log
through the game's ``setup`` and ``decide`` with the same contexts the server used
(``Context.for_version(seed, V)`` for a command appended at head version V, and the version
before the last ``SeatTaken`` for the set-up), and checks that every event in the log is
exactly one the rules produce, in order, and that the seed matches the commitment.

Pure: no I/O, no clock. The server runs it off its event loop (``asyncio.to_thread``).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

import attrs
import orjson

from domain import Context, Names, Registry
from domain.game import fold, fork_reshuffle
from protocol import CHAT_MAX_CHARS, GameCodec
from protocol.http import NAME_MAX_CHARS

from .games import (
    BOT_SUFFIX,
    CHAT,
    COMMAND_ACCEPTED,
    GAME_CREATED,
    GAME_STARTED,
    PLATFORM,
    SEAT_HANDED,
    SEAT_RETAKEN,
    SEAT_TAKEN,
    SEED_HASH,
    SEED_REVEALED,
    checked_options,
)
from .undo import UNDONE, fold_log, undo_options

__all__ = ["Mismatch", "Replayed", "Unfinished", "Unverifiable", "VerifyError", "replay"]

IMPORTED = " (imported)"
NAME_LIMIT = NAME_MAX_CHARS + len(IMPORTED)
"""A person's name as an exported log may hold it (an imported game's names carry a mark)."""
COMMAND_ID_LIMIT = 200
DIGEST = re.compile(r"[0-9a-f]{64}")
CLOCK_EXPIRED = PLATFORM + "ClockExpired"
HAND_REASONS = ("clock", "absent", "left")
_KNOWN_PLATFORM = (
    GAME_CREATED,
    SEAT_TAKEN,
    GAME_STARTED,
    CHAT,
    COMMAND_ACCEPTED,
    SEED_REVEALED,
    CLOCK_EXPIRED,
    SEAT_HANDED,
    SEAT_RETAKEN,
)


class VerifyError(Exception):
    """The log cannot be shown to be one the rules produce. ``code`` is stable."""

    code = "log_mismatch"

    def __init__(self, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.version = version


class Mismatch(VerifyError):
    """The first place where the log differs from what the rules produce."""

    code = "log_mismatch"


class Unverifiable(VerifyError):
    """A log written before commands and seeds were recorded: nothing to re-decide from."""

    code = "unverifiable_log"


class Unfinished(VerifyError):
    """The game has not ended, so its seed is not revealed (and must not be)."""

    code = "unfinished_log"


@attrs.define
class Replayed:
    """A log that re-decided exactly: what it is, and its events as the rules made them."""

    type_name: str
    options: dict[str, Any]
    seed: str
    commands: int
    events: list[tuple[str, dict[str, Any], Any]]
    """(type, data, domain event or None), in log order: the log, re-decided."""
    state: Any
    fork: dict[str, Any] | None = None
    """A forked game's source: its position was taken from there, not re-decided."""

    @property
    def versions(self) -> int:
        return len(self.events)


def _norm(data: Any) -> Any:
    """JSON as it travels: tuples are lists, keys are strings."""
    return orjson.loads(orjson.dumps(data))


def _show(type_: str, data: Any) -> str:
    text = f"{type_} {orjson.dumps(data).decode()}"
    return text if len(text) <= 240 else text[:237] + "..."


def _name_problem(name: Any) -> str | None:
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LIMIT:
        return f"a name of 1 to {NAME_LIMIT} characters"
    if name != name.strip() or any(unicodedata.category(c) == "Cc" for c in name):
        return "a name without surrounding spaces or control characters"
    return None


@attrs.frozen
class _Entry:
    """A replayed event as ``server.undo`` reads a log entry."""

    version: int
    type: str
    data: dict[str, Any]
    event: Any


class _Replay:
    def __init__(self, registry: Registry, events: Sequence[Any], forks: bool = True) -> None:
        self.registry = registry
        self.forks = forks
        self.fork: dict[str, Any] | None = None
        self.log = events
        self.out: list[tuple[str, dict[str, Any], Any]] = []
        self.i = 0

    # -- reading the log ---------------------------------------------------------------------
    def _event(self, i: int) -> tuple[str, dict[str, Any]]:
        e = self.log[i]
        v = i + 1
        if not isinstance(e, dict):
            raise Mismatch(f"version {v}: not an event object", v)
        type_, data = e.get("type"), e.get("data")
        if not isinstance(type_, str) or not isinstance(data, dict):
            raise Mismatch(f"version {v}: an event needs a string 'type' and an object 'data'", v)
        if "version" in e and e["version"] != v:
            raise Mismatch(
                f"version {v}: the event there says it is version {e['version']!r} "
                "(an event is missing, repeated or out of place)",
                v,
            )
        if type_ == "Hidden":
            raise Unverifiable(
                f"version {v} is hidden: only a finished game's full log (exported after "
                "the end, when everyone sees everything) can be verified",
                v,
            )
        return type_, data

    def expect(self, type_: str, data: dict[str, Any], event: Any = None) -> None:
        """The next event must be exactly (type_, data)."""
        v = self.i + 1
        if self.i >= len(self.log):
            raise Mismatch(
                f"version {v}: the rules produce {_show(type_, data)}, but the log ends before it",
                v,
            )
        found_type, found = self._event(self.i)
        want = _norm(data)
        if found != want:
            found = _norm(found)  # as it travels (the server's own records hold tuples)
        if found_type != type_ or found != want:
            raise Mismatch(
                f"version {v}: the rules produce {_show(type_, want)}, "
                f"the log has {_show(found_type, found)}",
                v,
            )
        self.out.append((type_, found, event))
        self.i += 1

    def take(self, data: dict[str, Any]) -> None:
        type_, _ = self._event(self.i)
        self.out.append((type_, data, None))
        self.i += 1

    # -- the replay ----------------------------------------------------------------------------
    def run(self) -> Replayed:
        if not self.log:
            raise Mismatch("the log is empty: a game log starts with cloister.GameCreated", 1)
        type_, created = self._event(0)
        if type_ != GAME_CREATED:
            raise Mismatch(f"version 1: a game log starts with {GAME_CREATED}, not {type_}", 1)
        type_name = created.get("type")
        gtype = self.registry.get(str(type_name))
        if gtype is None:
            raise Mismatch(f"version 1: this server knows no game type {type_name!r}", 1)
        game = gtype.game
        codec = GameCodec.for_game(game)
        unknown = set(created) - {"type", "options", "labels", "created", "seed_commitment", "fork"}
        if unknown:
            raise Mismatch(f"version 1: {GAME_CREATED} has unknown fields {sorted(unknown)}", 1)
        try:
            options = checked_options(game, created.get("options"))
        except Exception as exc:
            message = getattr(exc, "message", None) or str(exc)
            raise Mismatch(f"version 1: the options are not {game.title}'s: {message}", 1) from None
        if _norm(options) != created.get("options"):
            raise Mismatch(
                f"version 1: the options are not as the server stores them "
                f"(expected {_show('options', options)})",
                1,
            )
        labels = list(game.seat_labels(options))
        if created.get("labels") != labels:
            raise Mismatch(
                f"version 1: the seats of this {game.title} game are {labels}, "
                f"the log says {created.get('labels')!r}",
                1,
            )
        if not isinstance(created.get("created", 0), int | float):
            raise Mismatch("version 1: 'created' is not a time", 1)
        commitment = created.get("seed_commitment")
        if commitment is None:
            raise Unverifiable(
                "this log was recorded before games committed to their seed and recorded "
                "their commands: there is nothing to re-decide it from",
                1,
            )
        if (
            not isinstance(commitment, dict)
            or commitment.get("hash") != SEED_HASH
            or set(commitment) != {"hash", "digest"}
            or not isinstance(commitment.get("digest"), str)
            or not DIGEST.fullmatch(commitment["digest"])
        ):
            raise Mismatch(
                f"version 1: the seed commitment must be {{hash: {SEED_HASH}, digest: 64 "
                f"lowercase hex digits}}, not {_show('', commitment).strip()}",
                1,
            )
        fork = created.get("fork")
        if fork is not None:
            if (
                not isinstance(fork, dict)
                or set(fork) - {"fresh"} != {"game", "version", "events"}
                or fork.get("fresh", True) is not True  # absent in forks made before it
                or not isinstance(fork["game"], str)
                or not isinstance(fork["version"], int)
                or not isinstance(fork["events"], list)
                or not all(
                    isinstance(e, list)
                    and len(e) == 2
                    and isinstance(e[0], str)
                    and not e[0].startswith(PLATFORM)
                    and isinstance(e[1], dict)
                    for e in fork["events"]
                )
            ):
                raise Mismatch(
                    "version 1: a fork is {game, version, events: [[type, data]…], fresh: true}",
                    1,
                )
            if not self.forks:
                raise Unverifiable(
                    f"this game was forked from game {fork['game'][:40]} at version "
                    f"{fork['version']}: its starting position comes from that game's log, "
                    "not from its own seed, so it cannot be re-decided on its own",
                    1,
                )
            self.fork = fork
        seed = self._revealed_seed(commitment["digest"])
        self.out.append((GAME_CREATED, created, None))
        self.i = 1

        seats: list[str | None] = [None] * len(labels)
        bots = [False] * len(labels)
        handed: set[int] = set()
        state: Any = None
        command_ids: dict[str, int] = {}
        commands = 0
        while self.i < len(self.log):
            v = self.i + 1
            type_, data = self._event(self.i)
            if type_ == SEAT_TAKEN:
                if state is not None:
                    raise Mismatch(f"version {v}: a seat is taken after the game began", v)
                seat = self._seat(data, v, {"seat", "name", "bot"}, labels)
                if seats[seat] is not None:
                    raise Mismatch(f"version {v}: seat {seat} is taken twice", v)
                name, bot = data["name"], data["bot"]
                if bot is not None:
                    try:
                        gtype.bot(bot)
                    except KeyError as exc:
                        raise Mismatch(f"version {v}: {exc.args[0]}", v) from None
                    allowed = {b + BOT_SUFFIX for b in game.bot_names} | {labels[seat] + BOT_SUFFIX}
                    if name not in allowed or name in seats:
                        raise Mismatch(
                            f"version {v}: a bot is named by the server from the game's "
                            f"names, not {_show('', name)[:80].strip()}",
                            v,
                        )
                else:
                    problem = _name_problem(name)
                    if problem is not None or name.lower().endswith("(bot)"):
                        raise Mismatch(
                            f"version {v}: a person at the table needs "
                            f"{problem or 'a name that does not end in (bot)'}",
                            v,
                        )
                seats[seat], bots[seat] = name, bot is not None
                self.take(data)
                if all(s is not None for s in seats):
                    # Dealt as the server deals it: the version before the last SeatTaken.
                    self._started(v + 1)
                    state = game.initial_state(options)
                    if self.fork is not None:
                        # A fork (``server.fork``) starts from the source's position: its
                        # events follow GameStarted as GameCreated lists them.
                        for t, d in self.fork["events"]:
                            try:
                                e = codec.decode_event(t, d)
                            except Exception as exc:
                                raise Mismatch(
                                    f"version 1: the forked position holds an event that "
                                    f"cannot be read ({t}): {exc}"[:300],
                                    1,
                                ) from None
                            self.expect(t, d, e)
                            state = game.evolve(state, e)
                        if self.fork.get("fresh"):
                            # What is hidden, dealt anew from this game's seed (server.fork).
                            ctx = Context.for_version(seed, v - 1)
                            for e in fork_reshuffle(game, state, ctx):
                                self.expect(type(e).__name__, codec.encode_event(e), e)
                                state = game.evolve(state, e)
                        continue
                    ctx = Context.for_version(seed, v - 1)
                    for e in game.setup(state, ctx):
                        self.expect(type(e).__name__, codec.encode_event(e), e)
                        state = game.evolve(state, e)
            elif type_ == COMMAND_ACCEPTED:
                if state is None:
                    raise Mismatch(f"version {v}: a command before the game began", v)
                if game.is_terminal(state):
                    raise Mismatch(f"version {v}: a command after the game ended", v)
                seat = self._seat(data, v, {"seat", "command", "command_id", "at"}, labels)
                cid, at, raw = data["command_id"], data["at"], data["command"]
                if not isinstance(cid, str) or not 0 < len(cid) <= COMMAND_ID_LIMIT:
                    raise Mismatch(f"version {v}: a command id is a string of 1 to 200 chars", v)
                if cid in command_ids:
                    raise Mismatch(
                        f"version {v}: command id {cid!r} was already used at version "
                        f"{command_ids[cid]} (the server applies a command once)",
                        v,
                    )
                command_ids[cid] = v
                if not isinstance(at, int) or isinstance(at, bool) or at < 0:
                    raise Mismatch(f"version {v}: 'at' is not a time in milliseconds", v)
                try:
                    command = codec.decode_command(raw)
                except Exception as exc:
                    raise Mismatch(f"version {v}: the command cannot be read: {exc}", v) from None
                if _norm(codec.encode_command(command)) != _norm(raw):
                    raise Mismatch(f"version {v}: the command is not as the server records it", v)
                try:
                    produced = game.decide(state, seat, command, Context.for_version(seed, v - 1))
                except Exception as exc:
                    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
                    raise Mismatch(
                        f"version {v}: the rules refuse {labels[seat]}'s command "
                        f"{raw.get('type')!r}: {message}",
                        v,
                    ) from None
                if not produced:
                    raise Mismatch(f"version {v}: the command changes nothing", v)
                self.take(data)
                commands += 1
                for e in produced:
                    self.expect(type(e).__name__, codec.encode_event(e), e)
                state = fold(game, state, produced)
                if game.is_terminal(state):
                    self.expect(SEED_REVEALED, {"seed": seed, "at": at})
            elif type_ in (CLOCK_EXPIRED, SEAT_HANDED, SEAT_RETAKEN):
                # Clocks and absent players (``server.clocks``): who plays a seat, never the
                # game's state; checked for shape and order, then taken as they are.
                if state is None or game.is_terminal(state):
                    raise Mismatch(f"version {v}: {type_} outside the game's play", v)
                if type_ == CLOCK_EXPIRED:
                    seat = self._seat(data, v, {"seat", "at"}, labels)
                    self._time(data, v)
                    nxt = self.log[self.i + 1] if self.i + 1 < len(self.log) else None
                    if (
                        not isinstance(nxt, dict)
                        or nxt.get("type") != SEAT_HANDED
                        or not isinstance(nxt.get("data"), dict)
                        or nxt["data"].get("reason") != "clock"
                        or nxt["data"].get("seat") != seat
                    ):
                        raise Mismatch(
                            f"version {v + 1}: a clock that runs out hands the seat to a bot "
                            "in the same breath; the log does not",
                            v + 1,
                        )
                    if seat in handed or bots[seat]:
                        raise Mismatch(f"version {v}: a clock of a seat no person plays", v)
                    self.take(data)
                    continue
                if type_ == SEAT_HANDED:
                    keys = {"seat", "reason", "bot", "name", "at"}
                    seat = self._seat(data, v, keys, labels)
                    self._time(data, v)
                    if data["reason"] not in HAND_REASONS:
                        raise Mismatch(f"version {v}: no such reason to hand a seat over", v)
                    if data["reason"] == "clock" and (
                        not self.out or self.out[-1][0] != CLOCK_EXPIRED
                    ):
                        raise Mismatch(
                            f"version {v}: handed over for a clock that did not run out", v
                        )
                    if seat in handed or bots[seat]:
                        raise Mismatch(f"version {v}: the seat is not a person's in play", v)
                    try:
                        gtype.bot(data["bot"])
                    except (KeyError, TypeError):
                        raise Mismatch(
                            f"version {v}: no such bot {data['bot']!r}"[:200], v
                        ) from None
                    if _name_problem(data["name"]) is not None:
                        raise Mismatch(
                            f"version {v}: a stand-in needs {_name_problem(data['name'])}", v
                        )
                    handed.add(seat)
                else:
                    seat = self._seat(data, v, {"seat", "at"}, labels)
                    self._time(data, v)
                    if seat not in handed:
                        raise Mismatch(f"version {v}: a seat retaken that no bot was playing", v)
                    handed.discard(seat)
                self.take(data)
            elif type_ == CHAT:
                seat = self._seat(data, v, {"seat", "text"}, labels)
                if seats[seat] is None:
                    raise Mismatch(f"version {v}: a chat line from an empty seat", v)
                text = data["text"]
                if (
                    not isinstance(text, str)
                    or not text.strip()
                    or text != text.strip()
                    or len(text) > CHAT_MAX_CHARS
                    or any(unicodedata.category(c) == "Cc" and c != "\n" for c in text)
                ):
                    raise Mismatch(f"version {v}: a chat line the server would refuse", v)
                self.take(data)
            elif type_ == UNDONE:
                # An undo (``server.undo``): one the server allowed there; then the state
                # of its target, the undone events skipped.
                if state is None or game.is_terminal(state):
                    raise Mismatch(f"version {v}: an undo outside the game's play", v)
                seat = self._seat(data, v, {"to_version", "seat", "commands", "at"}, labels)
                self._time(data, v)
                entries = [_Entry(i, t, d, o) for i, (t, d, o) in enumerate(self.out, 1)]
                may = undo_options(game, entries, seat, Names(tuple(labels)))
                target, count = data["to_version"], data["commands"]
                if target not in may.targets or count != may.targets.index(target) + 1:
                    raise Mismatch(
                        f"version {v}: an undo the server refuses there ({may.reason})", v
                    )
                self.take(data)
                state = fold_log(game, options, entries, target)
            elif type_ in _KNOWN_PLATFORM:
                raise Mismatch(f"version {v}: {type_} where the rules produce none", v)
            elif type_.startswith(PLATFORM):
                raise Mismatch(
                    f"version {v}: {type_} is a platform event this verifier does not know, "
                    "so it cannot re-decide the game past it",
                    v,
                )
            else:
                raise Mismatch(
                    f"version {v}: {type_} was not produced by any command "
                    "(every game event follows the command that caused it)",
                    v,
                )
        if state is None or not game.is_terminal(state):
            raise Unfinished(
                f"the log ends at version {len(self.log)} with the game "
                f"{'open' if state is None else 'running'}: only a finished game can be "
                "re-decided",
                len(self.log),
            )
        return Replayed(gtype.name, options, seed, commands, self.out, state, self.fork)

    def _started(self, v: int) -> None:
        """``cloister.GameStarted``: ``{}`` or ``{at}`` (when play began, for the clocks)."""
        if self.i >= len(self.log):
            raise Mismatch(
                f"version {v}: every seat is taken, but the log ends before the start", v
            )
        type_, data = self._event(self.i)
        if type_ != GAME_STARTED or not (data == {} or set(data) == {"at"}):
            raise Mismatch(
                f"version {v}: the rules produce {GAME_STARTED} {{at}}, "
                f"the log has {_show(type_, data)}",
                v,
            )
        if data:
            self._time(data, v)
        self.take(data)

    @staticmethod
    def _time(data: dict[str, Any], v: int) -> None:
        at = data["at"]
        if not isinstance(at, int) or isinstance(at, bool) or at < 0:
            raise Mismatch(f"version {v}: 'at' is not a time in milliseconds", v)

    def _seat(self, data: dict[str, Any], v: int, keys: set[str], labels: list[str]) -> int:
        if set(data) != keys:
            raise Mismatch(f"version {v}: the fields must be {sorted(keys)}, not {sorted(data)}", v)
        seat = data["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(labels):
            raise Mismatch(
                f"version {v}: seat must be 0 to {len(labels) - 1}, "
                f"not {_show('', seat).strip()[:40]}",
                v,
            )
        return seat

    def _revealed_seed(self, digest: str) -> str:
        revealed = [
            (i, e)
            for i, e in enumerate(self.log)
            if isinstance(e, dict) and e.get("type") == SEED_REVEALED
        ]
        if not revealed:
            raise Unfinished(
                "the log has no cloister.SeedRevealed: the seed is revealed only when the "
                "game ends, and only a finished game can be re-decided",
                len(self.log),
            )
        i, e = revealed[0]
        seed = e.get("data", {}).get("seed") if isinstance(e.get("data"), dict) else None
        if not isinstance(seed, str):
            raise Mismatch(f"version {i + 1}: the revealed seed is not a string", i + 1)
        found = hashlib.sha256(seed.encode()).hexdigest()
        if found != digest:
            raise Mismatch(
                f"version {i + 1}: the revealed seed does not match the commitment: its "
                f"SHA-256 digest is {found}, GameCreated promised {digest}",
                i + 1,
            )
        return seed


def replay(registry: Registry, events: Sequence[Any], forks: bool = True) -> Replayed:
    """Re-decide an exported finished log (``{version?, type, data}`` dicts, GameCreated
    first). Returns it re-decided, or raises :class:`Mismatch` at the first difference,
    :class:`Unverifiable` for a log recorded before commands and seeds were, and
    :class:`Unfinished` for a game that has not ended.

    A forked game's starting position is taken as its ``GameCreated`` lists it (the source
    game verifies on its own); everything after it is re-decided. ``forks`` False: refuse
    forks as unverifiable (an import must not store a position nobody re-decided)."""
    return _Replay(registry, events, forks).run()


def report(registry: Registry, events: Sequence[Any]) -> dict[str, Any]:
    """The verdict on a finished log, as ``GET /api/games/{id}/verify`` answers it
    (``protocol.http.VerifyReply``). Raises :class:`Unfinished` for a game not over."""
    created = events[0].get("data") if events and isinstance(events[0], dict) else None
    commitment = created.get("seed_commitment") if isinstance(created, dict) else None
    digest = commitment.get("digest") if isinstance(commitment, dict) else None
    try:
        done = replay(registry, events)
    except Unfinished:
        raise
    except VerifyError as exc:
        return {
            "verified": False,
            "code": exc.code,
            "message": exc.message,
            "version": exc.version,
            "commands": 0,
            "seed": None,
            "commitment": digest if isinstance(digest, str) else None,
        }
    return {
        "verified": True,
        "code": None,
        "message": (
            f"verified: all {done.versions} events are exactly what the rules produce from "
            f"{done.commands} commands, and the revealed seed matches the commitment made "
            "when the game was created"
            + (
                f" (its starting position was forked from game {done.fork['game']} at "
                f"version {done.fork['version']}; verify that game for the moves before it)"
                if done.fork
                else ""
            )
        ),
        "version": None,
        "commands": done.commands,
        "seed": done.seed,
        "commitment": digest,
    }
