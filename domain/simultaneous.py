"""Simultaneous secret choices: commit, then one reveal.

Campus Galli's card selection and Road to Enlightenment's slot assignment are the same
primitive. Each seat commits a choice; the commit is public as a fact (``ChoiceCommitted``
with the seat) but its content is visible only to that seat; a seat may change its choice
until all have committed; then a single ``ChoicesRevealed`` event makes all choices public
at once.

A choice is a tuple of strings (card ids, or ``"slot:card"`` pairs), which keeps it trivially
serialisable and hashable.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from .secrets import event, secret
from .viewers import Seat, Viewer
from .views import ByAudience, render, view_part

__all__ = ["Choice", "ChoiceCommitted", "ChoicesRevealed", "ChoicesView", "SecretChoices"]

Choice = tuple[str, ...]


@event
class ChoiceCommitted:
    """``seat`` has committed (or changed) its choice. ``choice`` is None when redacted."""

    seat: Seat
    choice: Choice | None = secret(owner="seat")


@event
class ChoicesRevealed:
    """All choices, made public together, in seat order."""

    choices: tuple[tuple[Seat, Choice], ...]


@view_part
class ChoicesView:
    """What is shown of the choices: who has committed, each seat its own choice, and all
    of them to the review audience only."""

    committed: list[Seat]
    waiting_on: list[Seat]
    mine: ByAudience[list[str] | None]
    all: dict[str, list[str]] = secret(omit=True)


@attrs.frozen
class SecretChoices:
    """Choices collected so far from the seats in ``waiting_on``."""

    seats: frozenset[Seat]
    committed: tuple[tuple[Seat, Choice], ...] = ()

    @classmethod
    def open(cls, seats: Iterable[Seat]) -> SecretChoices:
        return cls(frozenset(seats))

    def choice_of(self, seat: Seat) -> Choice | None:
        for s, c in self.committed:
            if s == seat:
                return c
        return None

    @property
    def committed_seats(self) -> frozenset[Seat]:
        return frozenset(s for s, _ in self.committed)

    @property
    def waiting_on(self) -> frozenset[Seat]:
        return self.seats - self.committed_seats

    @property
    def complete(self) -> bool:
        return not self.waiting_on

    def commit(self, seat: Seat, choice: Choice) -> SecretChoices:
        """Record (or replace) ``seat``'s choice. Pure; the caller checks legality."""
        rest = tuple((s, c) for s, c in self.committed if s != seat)
        return attrs.evolve(self, committed=tuple(sorted((*rest, (seat, choice)))))

    def revealed(self) -> ChoicesRevealed:
        return ChoicesRevealed(tuple(sorted(self.committed)))

    def view(self) -> ChoicesView:
        """The full view of the choices (the kernel shows each viewer its part)."""
        mine = dict(self.committed)
        seats = max(self.seats | mine.keys(), default=-1) + 1
        return ChoicesView(
            sorted(mine),
            sorted(self.waiting_on),
            ByAudience(tuple(list(mine[s]) if s in mine else None for s in range(seats)), None),
            {str(s): list(c) for s, c in self.committed},
        )

    def visible_to(self, viewer: Viewer) -> dict[str, object]:
        """What ``viewer`` may know: who has committed, and its own choice only."""
        shown: dict[str, object] = render(self.view(), viewer)
        return shown

    @staticmethod
    def redact(event: ChoiceCommitted, viewer: Viewer) -> ChoiceCommitted:
        if viewer.sees_seat(event.seat):
            return event
        return ChoiceCommitted(event.seat, None)
