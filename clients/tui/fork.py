"""Who takes each seat of a fork ("fork here" on a finished game's replay, key ``f``).

The server's fork (``POST …/fork``, ``server/fork.py``) takes the caller's own seat
(``join``), bots by seat and level (``bots``), and leaves every other seat open for a person
to take with the new game's link or ``cloister join``. :class:`ForkPlan` is that choice per
seat, as the web page's "Fork here" offers it: me (in one seat at most), a person, or a bot
of one of the game's levels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from .frame import Seat

__all__ = ["ME", "PERSON", "ForkPlan", "strongest"]

ME = "me"
PERSON = "person"


def strongest(levels: Sequence[str]) -> str:
    """The level a bot seat starts at: the strongest the type offers (not "random")."""
    return next((b for b in levels if b != "random"), levels[0] if levels else "random")


@attrs.define
class ForkPlan:
    """One choice per seat: ``ME``, ``PERSON`` or a bot level."""

    seats: tuple[Seat, ...]
    levels: tuple[str, ...]
    """The game type's bot levels (``/api/game-types``' ``bots``)."""
    choice: list[str] = attrs.field(factory=list)

    @classmethod
    def default(cls, seats: Sequence[Seat], levels: Sequence[str]) -> ForkPlan:
        """Me in the first seat, the strongest bot in the others (what ``f`` did before)."""
        bot = strongest(levels)
        return cls(tuple(seats), tuple(levels), [ME] + [bot] * (len(seats) - 1))

    def options(self, i: int) -> list[str]:
        """What seat ``i`` may be: me (unless another seat is mine), a person, each level."""
        mine = ME not in self.choice or self.choice[i] == ME
        return [*([ME] if mine else []), PERSON, *self.levels]

    def cycle(self, i: int) -> None:
        """Seat ``i``'s next choice (the seat's number key on the fork screen)."""
        opts = self.options(i)
        now = self.choice[i]
        self.choice[i] = opts[(opts.index(now) + 1) % len(opts)] if now in opts else opts[0]

    def words(self, i: int) -> str:
        c = self.choice[i]
        if c == ME:
            return "me"
        if c == PERSON:
            return "a person (the seat is left open)"
        return f"a bot ({c})"

    @property
    def me(self) -> int | None:
        return self.choice.index(ME) if ME in self.choice else None

    @property
    def open_seats(self) -> list[Seat]:
        return [s for s, c in zip(self.seats, self.choice, strict=True) if c == PERSON]

    def bots(self) -> list[dict[str, Any]]:
        """The fork request's ``bots``."""
        return [
            {"seat": s.seat, "level": c}
            for s, c in zip(self.seats, self.choice, strict=True)
            if c not in (ME, PERSON)
        ]
