"""Who is looking: a seat, a spectator, or everyone after the game (post-game review)."""

from __future__ import annotations

import attrs

__all__ = ["REVIEW", "SPECTATOR", "Seat", "Viewer", "seat_viewer"]

Seat = int
"""Seats are numbered 0..n-1 in the order the game type gives them."""


@attrs.frozen
class Viewer:
    """An audience for ``view`` and ``redact``.

    ``seat`` is the seat the viewer plays, or ``None`` for a spectator. ``omniscient`` is the
    post-game review audience: it sees everything, including other hands and deck orders.
    """

    seat: Seat | None = None
    omniscient: bool = False

    @property
    def is_spectator(self) -> bool:
        return self.seat is None and not self.omniscient

    def sees_seat(self, seat: Seat) -> bool:
        """Whether this viewer may see what is private to ``seat``."""
        return self.omniscient or self.seat == seat

    def __str__(self) -> str:
        if self.omniscient:
            return "review"
        return "spectator" if self.seat is None else f"seat {self.seat}"


SPECTATOR = Viewer()
"""Public information only."""

REVIEW = Viewer(omniscient=True)
"""Everything: for finished games and for tests."""


def seat_viewer(seat: Seat) -> Viewer:
    return Viewer(seat=seat)
