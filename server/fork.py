"""Fork a finished game at a version, and report a problem (issue 13, item 6).

**Fork here.** A new game of the same type and options whose ``cloister.GameCreated``
carries ``fork`` {``game``, ``version``, ``events``}: the source's rule events up to that
version, undone ones left out, and ``fresh`` true. When its seats are filled,
``cloister.GameStarted`` is followed by those events in place of a set-up, so every fold,
replay and export of the new game works as for any other.

Only a finished game is forked: its whole log is public by then (the review audience), so
the order of every face-down deck, pile and tile stack in the position could be read from
it, and with it every future draw. So, after the copied events, the game's
``fork_reshuffle`` (``domain.game.fork_reshuffle``) deals what is hidden anew: each
face-down zone shuffled again, everything public and every hand as it was. Those events
are decided, like a set-up, from the new game's own seed (secret until its end, committed
to in its ``GameCreated``), so ``cloister verify`` re-decides them; everything after is
decided from that seed too: fresh dice, draws and reshuffles. (A fork made before
``fresh`` existed has none: its decks kept the source's order.)

**Report a problem.** A document of what the reporter may see right now — the view and the
log of the audience their token gives them, a spectator's without one — and nothing more,
with their description and the server time, to attach to an issue.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from domain import REVIEW, SPECTATOR, Viewer, seat_viewer

from .errors import ServiceError
from .undo import GAME_STARTED, now_ms, undone_versions

if TYPE_CHECKING:
    from .games import GameRecord, GameService, SeatClaim

__all__ = ["fork_created", "fork_events", "fork_game", "report"]


def fork_events(rec: GameRecord, version: int) -> list[tuple[str, dict[str, Any]]]:
    """The rule events that rebuild the position after ``version`` (checked: a finished
    game, a version inside its play). Raises ServiceError ``bad_version`` or
    ``game_not_finished``."""
    if not rec.terminal:
        raise ServiceError(
            "game_not_finished",
            "only a finished game can be forked (its log is public by then); this one is "
            f"{rec.status}",
            409,
        )
    if not 0 <= version <= rec.version:
        raise ServiceError("bad_version", f"'version' must be 0 to {rec.version}, not {version}")
    state = rec.state_at(version)
    if state is None:
        raise ServiceError(
            "bad_version",
            f"the game had not started at version {version}: fork from a version after its set-up",
        )
    if rec.game.is_terminal(state):
        raise ServiceError(
            "bad_version", f"the game was over at version {version}: fork from an earlier one"
        )
    skip = undone_versions(rec.log, version)
    started = False
    out: list[tuple[str, dict[str, Any]]] = []
    for e in rec.log[:version]:
        if e.type == GAME_STARTED:
            started = True
        elif started and e.version not in skip and not e.type.startswith("cloister."):
            out.append((e.type, rec.codec.encode_event(e.event)))
    return out


async def fork_game(
    service: GameService, rec: GameRecord, version: int, claims: Sequence[SeatClaim]
) -> tuple[GameRecord, list[tuple[int, str | None]]]:
    """Create the forked game (seats filled by ``claims`` at once; the rest open)."""
    events = fork_events(rec, version)
    fork = {"game": rec.id, "version": version, "events": [list(e) for e in events], "fresh": True}
    # A new random seed (create_table's): nothing after the fork is dealt as it was, and
    # ``fresh`` has what is hidden in the position dealt anew from it.
    return await service.create_table(rec.gtype.name, rec.options, None, claims, fork)


def fork_created(data: dict[str, Any]) -> dict[str, Any]:
    """A forked game's ``cloister.GameCreated`` as a player or spectator of it sees it:
    the source and version, not the events (their secrets are the new game's secrets, and
    the same events follow ``GameStarted``, redacted as usual)."""
    fork = data["fork"]
    return {**data, "fork": {"game": fork["game"], "version": fork["version"]}}


def _audience(rec: GameRecord, seat: int | None) -> Viewer:
    if rec.terminal:
        return REVIEW
    return SPECTATOR if seat is None else seat_viewer(seat)


def report(rec: GameRecord, seat: int | None, text: str) -> dict[str, Any]:
    """The problem report for the audience of ``seat`` (None: a spectator)."""
    from .hub import current_view, wire_events

    viewer = _audience(rec, seat)
    view = current_view(rec, viewer)
    return {
        "game": rec.id,
        "type": rec.gtype.name,
        "version": rec.version,
        "audience": str(viewer),
        "text": text,
        "at": now_ms(),
        "summary": rec.summary(),
        "view": rec.codec.encode_view(view) if view is not None else None,
        "events": [
            {"version": e.version, "type": e.type, "data": e.data, "text": e.text}
            for e in wire_events(rec, rec.log, viewer)
        ],
    }
