"""Undo up to the information horizon (issue 13, item 3): ``cloister.Undone``.

A seated player may take back their own last commands, back to but never past the newest
*horizon*: an event the game declares as one (``domain.undo``: a draw, a roll, a flip, a
reveal, the end of a turn), a command of another seat, or any platform event other than a
chat (the set-up, a seat taken, a clock's timeout …). Commands are known from the log's
``cloister.CommandAccepted`` records; events with no such record (logs written before
commands were logged) are final.

An undo is a new event, ``cloister.Undone`` {``to_version``, ``seat``, ``commands``,
``at``}: the game's state becomes what it was after version ``to_version``, and the events
``to_version + 1 … version - 1`` are *undone*. The stream is never rewritten; every fold
(the service's state, ``GameRecord.state_at`` for ``view?version=`` and replays, imports)
skips undone events through :func:`fold_log`; ``cloister verify`` and imports re-check
each undo with :func:`undo_options` (``server.fairness``). The undone events stay in the log, so a
replay shows them (struck out), and every viewer reads the undo's sentence.

Rules of a well-formed log, which the service keeps and an import re-checks: the target of
an undo is one the seat was allowed at that point (:func:`undo_options`), so it is never
itself an undone event and undone ranges nest; a backward walk can jump over a whole undone
range at once.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from domain import Names, Viewer, seat_viewer
from domain.undo import is_horizon

from .errors import ServiceError

if TYPE_CHECKING:
    from .games import GameRecord, GameService

__all__ = [
    "UNDONE",
    "UndoOptions",
    "check_undo",
    "fold_log",
    "undo",
    "undo_options",
    "undo_text",
    "undone_versions",
]

UNDONE = "cloister.Undone"
COMMAND_ACCEPTED = "cloister.CommandAccepted"
CHAT = "cloister.Chat"
GAME_STARTED = "cloister.GameStarted"


class Entry(Protocol):
    """What undo reads of a log entry (``server.games.LogEntry``)."""

    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def event(self) -> Any: ...


def undone_versions(log: Sequence[Entry], upto: int | None = None) -> set[int]:
    """The versions undone by the ``cloister.Undone`` events among the first ``upto``
    entries (all of them by default). ``log[i]`` holds version ``i + 1``."""
    out: set[int] = set()
    i = (len(log) if upto is None else min(upto, len(log))) - 1
    while i >= 0:
        e = log[i]
        if e.type == UNDONE:
            target = int(e.data["to_version"])
            out.update(range(target + 1, e.version))
            i = target - 1  # everything in between is undone: jump over it
        else:
            i -= 1
    return out


def fold_log(game: Any, options: Any, log: Sequence[Entry], upto: int | None = None) -> Any:
    """The domain state after version ``upto`` (default: the whole log), skipping undone
    events; None before the game started."""
    upto = len(log) if upto is None else min(upto, len(log))
    skip = undone_versions(log, upto)
    state = None
    for e in log[:upto]:
        if skip and e.version in skip:
            continue
        if e.type == GAME_STARTED:
            state = game.initial_state(options)
        elif state is not None and not e.type.startswith("cloister."):
            state = game.evolve(state, e.event)
    return state


@attrs.frozen
class UndoOptions:
    """How far a seat may go back now."""

    targets: tuple[int, ...]
    """Versions it may undo to, newest first: ``targets[k]`` takes back ``k + 1`` commands."""
    reason: str
    """Why it may go no further back (the horizon), in words."""


def _horizon_reason(game: Any, e: Entry, viewer: Viewer, names: Names) -> str:
    red = game.redact(e.event, viewer)
    text = game.narrate(red, names) if red is not None else None
    what = f"“{text.rstrip('.')}”" if text else "an event you could not see"
    return (
        f"{what} (version {e.version}) revealed information or closed a turn, so nothing "
        "before it can be taken back"
    )


def undo_options(game: Any, log: Sequence[Entry], seat: int, names: Names) -> UndoOptions:
    """Walk back from the end of the log over ``seat``'s own commands to the horizon."""
    viewer = seat_viewer(seat)
    targets: list[int] = []
    orphan = False  # rule events seen whose command record is not found yet
    reason = ""
    i = len(log) - 1
    while i >= 0:
        e = log[i]
        if e.type == UNDONE:
            i = int(e.data["to_version"]) - 1
            continue
        if e.type == CHAT:
            i -= 1
            continue
        if e.type == COMMAND_ACCEPTED:
            who = int(e.data["seat"])
            if who != seat:
                reason = (
                    f"{names.seat(who)} moved at version {e.version + 1}, and another "
                    "seat's move is never taken back"
                )
                break
            orphan = False
            targets.append(e.version - 1)
            i -= 1
            continue
        if not e.type.startswith("cloister."):
            if is_horizon(game, e.event):
                reason = _horizon_reason(game, e, viewer, names)
                break
            orphan = True
            i -= 1
            continue
        if orphan:
            reason = (
                f"the moves before version {e.version + 1} were recorded without their "
                "commands (an older log), so they cannot be taken back"
            )
        elif e.type == GAME_STARTED:
            reason = "nothing before the game's set-up can be taken back"
        else:
            kind = e.type.removeprefix("cloister.")
            reason = f"the table's {kind} at version {e.version} cannot be taken back"
        break
    else:
        reason = "there is nothing before the start"
    return UndoOptions(tuple(targets), reason)


def check_undo(
    rec: GameRecord, seat: int, names: Names, to_version: int | None, steps: int | None = None
) -> tuple[int, int]:
    """The version to undo to and how many commands that takes back (the last one, the
    last ``steps``, or back to ``to_version``), or ServiceError ``undo_not_allowed`` saying
    why (which horizon)."""
    if rec.state is None:
        raise ServiceError("undo_not_allowed", "the game has not started: nothing to take back")
    if rec.terminal:
        raise ServiceError("undo_not_allowed", "the game is over: its moves are final", 409)
    options = undo_options(rec.game, rec.log, seat, names)
    if not options.targets:
        raise ServiceError(
            "undo_not_allowed", f"you have no move to take back: {options.reason}", 409
        )
    if steps is not None and to_version is not None:
        raise ServiceError("bad_request", "give 'steps' or 'to_version', not both")
    if steps is not None:
        if steps < 1:
            raise ServiceError("bad_request", f"'steps' must be 1 or more, not {steps}")
        if steps > len(options.targets):
            n = len(options.targets)
            raise ServiceError(
                "undo_not_allowed",
                f"you can take back {n} move{'s' if n != 1 else ''} now, not {steps}: "
                f"{options.reason}",
                409,
            )
        return options.targets[steps - 1], steps
    if to_version is None:
        return options.targets[0], 1
    if to_version in options.targets:
        return to_version, options.targets.index(to_version) + 1
    allowed = ", ".join(str(t) for t in options.targets)
    raise ServiceError(
        "undo_not_allowed",
        f"you cannot undo to version {to_version}: you may go back to version {allowed}; "
        f"{options.reason}",
        409,
    )


def undo_text(data: dict[str, Any], names: Names) -> str:
    """The log's sentence for a ``cloister.Undone`` (the same for every audience)."""
    count = int(data.get("commands", 1))
    moves = "their last move" if count == 1 else f"their last {count} moves"
    return f"{names.seat(int(data['seat']))} takes back {moves}"


def now_ms() -> int:
    return time.time_ns() // 1_000_000


async def undo(
    service: GameService,
    rec: GameRecord,
    seat: int,
    to_version: int | None = None,
    command_id: str | None = None,
    steps: int | None = None,
) -> tuple[int, bool]:
    """Append ``cloister.Undone`` for ``seat`` (its last command, its last ``steps``, or
    back to ``to_version``). Raises ServiceError ``undo_not_allowed``. Returns (version,
    duplicate) as ``GameService.command`` does. ``command_id``: a client's id (the
    WebSocket ``undo``), scoped to the seat like its commands, so a resend is applied once."""
    from .hub import names_for  # the hub imports this module for the log's sentence

    def decide(r: GameRecord) -> tuple[list[tuple[str, dict[str, Any], Any]], dict[str, str]]:
        names = names_for(r, seat_viewer(seat))
        target, count = check_undo(r, seat, names, to_version, steps)
        data = {"to_version": target, "seat": seat, "commands": count, "at": service.now()}
        return [(UNDONE, data, None)], {}

    if command_id is None:
        return await service._execute(rec, f"undo:{uuid.uuid4().hex}", decide)
    return await service.append_platform(rec, command_id, decide, seat, "undo")
