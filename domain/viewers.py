"""Who is looking: a seat, a spectator, or everyone after the game (post-game review)."""

from __future__ import annotations

import attrs

__all__ = ["REVIEW", "SPECTATOR", "Seat", "Viewer", "seat_viewer"]

Seat = int
"""Seats are numbered 0..n-1 in the order the game type gives them."""


@attrs.frozen(cache_hash=True)
class Viewer:
    """An audience for ``view`` and ``redact``.

    ``seat`` is the seat the viewer plays, or ``None`` for a spectator. ``omniscient`` is the
    post-game review audience: it sees everything, including other hands and deck orders.

    Its hash is cached: the server looks views and frames up by audience many times a move.
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


_SEATS = tuple(Viewer(seat=s) for s in range(16))


def seat_viewer(seat: Seat) -> Viewer:
    """The viewer of ``seat`` (one shared object per seat for the usual seat numbers: equal
    to any other ``Viewer(seat=seat)``, and found in a dict without building one)."""
    if 0 <= seat < len(_SEATS):
        return _SEATS[seat]
    return Viewer(seat=seat)
