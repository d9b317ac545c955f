"""What the terminal UI draws: one :class:`Frame`, a snapshot of a game as one viewer sees it.

A frame is built from what the connection layer holds (``GameClient``: the full current view,
the legal commands, the log) or, in a replay, from the server's view at a version. The board
modules (``clients.tui.games``) are pure functions of a frame, so the same drawing serves
``play``, ``watch``, ``replay`` and the line mode, and is tested on stored views.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import attrs

from protocol import WireEvent

__all__ = ["Frame", "Mode", "Seat", "log_lines", "seats_from_summary"]

Mode = Literal["play", "watch", "replay"]


@attrs.frozen
class Seat:
    """One seat of the game as the lobby lists it (``GameSummary.seats``)."""

    seat: int
    label: str
    """The seat's name in the game: "Reverent", "France", "Monk 2"."""
    name: str | None = None
    """Who sits there: the name given at ``join``, or the bot's name."""
    bot: str | None = None


def seats_from_summary(summary: dict[str, Any] | None) -> tuple[Seat, ...]:
    if not summary:
        return ()
    return tuple(
        Seat(
            int(s["seat"]),
            str(s.get("label") or f"Player {int(s['seat']) + 1}"),
            s.get("name"),
            s.get("bot"),
        )
        for s in summary.get("seats", [])
    )


@attrs.frozen
class Frame:
    """A game at one version, as one viewer may see it."""

    game_id: str
    game_type: str
    mode: Mode
    version: int
    view: Any
    legal: Sequence[dict[str, Any]] = ()
    to_act: Sequence[int] = ()
    status: str = "running"
    """``open`` (seats free), ``running`` or ``finished``."""
    seat: int | None = None
    """The viewer's seat; None for a spectator (and in a replay of a finished game)."""
    seats: tuple[Seat, ...] = ()
    result: dict[str, Any] | None = None
    events: Sequence[WireEvent] = ()
    """The log up to ``version``, as this viewer may see it."""
    last_version: int = 0
    """Replay: the newest version there is (the end of the timeline)."""

    @property
    def my_turn(self) -> bool:
        return (
            self.mode == "play"
            and self.seat is not None
            and self.seat in self.to_act
            and bool(self.legal)
        )

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    def seat_info(self, seat: int) -> Seat | None:
        for s in self.seats:
            if s.seat == seat:
                return s
        return None

    def label_of(self, seat: int) -> str:
        """The seat's name in the game's words ("Reverent"), never "seat 0"."""
        info = self.seat_info(seat)
        return info.label if info else f"Player {seat + 1}"

    def who(self, seat: int) -> str:
        """ "Reverent (ann)", "Irreverent (you)": the seat label and who sits there."""
        label = self.label_of(seat)
        if seat == self.seat:
            return f"{label} (you)"
        info = self.seat_info(seat)
        if info and info.name and info.name != label:
            return f"{label} ({info.name})"
        return label


def log_lines(events: Sequence[WireEvent], upto: int | None = None) -> list[tuple[int, str]]:
    """``(version, sentence)`` for every event that has a sentence (the narrator's
    ``WireEvent.text``). Bookkeeping events come with no text and are no log lines; an event
    name is never shown in its place. A move taken back by an undo (``cloister.Undone``)
    keeps its line, marked "(taken back)"."""
    undone: set[int] = set()
    for e in events:
        if e.type == "cloister.Undone" and isinstance(e.data.get("to_version"), int):
            undone.update(range(e.data["to_version"] + 1, e.version))
    return [
        (e.version, f"{e.text} (taken back)" if e.version in undone else e.text)
        for e in events
        if e.text and e.type != "Hidden" and (upto is None or e.version <= upto)
    ]
