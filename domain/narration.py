"""The game's words: how a log names the seats, printed names with rules text, score lines.

Each game narrates its own events (``Game.narrate(event, names)``): the sentence is in the
rulebook's vocabulary, names players as :class:`Names` gives them, and is ``None`` for pure
bookkeeping (a stage or cursor change) that no person needs to read. The platform builds one
:class:`Names` per audience, because a sentence may depend on who reads it: Illumination
numbers its Books and squares from the reader's own seat, as the board it draws does.

>>> names = Names(("France", "England"), ("Ann", None))
>>> names.seat(0), names.seat(1)
('Ann (France)', 'England')
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from .viewers import SPECTATOR, Seat, Viewer

__all__ = ["GlossaryEntry", "Names", "ScoreLine", "Standing", "join_words", "plural"]


@attrs.frozen
class Names:
    """How one audience's log names the seats.

    ``labels`` are the seat labels the game gives ("France", "Reverent", "Monk 2");
    ``players`` the names the people (or bots) at those seats chose, ``None`` where unknown.
    ``viewer`` is who reads: a game may number things from the reader's seat.
    """

    labels: tuple[str, ...]
    players: tuple[str | None, ...] = ()
    viewer: Viewer = SPECTATOR

    def seat(self, seat: Seat) -> str:
        """The seat in a sentence: ``"Ann (France)"``, or ``"France"`` with no name known."""
        label = self.label(seat)
        player = self.player(seat)
        if player is None or player == label:
            return label
        return f"{player} ({label})"

    def label(self, seat: Seat) -> str:
        if 0 <= seat < len(self.labels):
            return self.labels[seat]
        return "an unknown seat"  # a programming error upstream; never a number in a sentence

    def player(self, seat: Seat) -> str | None:
        if 0 <= seat < len(self.players):
            return self.players[seat]
        return None

    def with_labels(self, labels: tuple[str, ...]) -> Names:
        return attrs.evolve(self, labels=labels)


@attrs.frozen
class GlossaryEntry:
    """What a page shows for a card, tile, task, building …: its printed name, what kind of
    component it is, and the rulebook's text for what it does."""

    name: str
    kind: str
    text: str


@attrs.frozen
class ScoreLine:
    """One scoring category as the rulebook scores it, e.g. ``("Battle cards", 10)``."""

    label: str
    points: int
    detail: str = ""
    """Optional words on how the points came about ("2 of 4 cards")."""


@attrs.frozen
class Standing:
    """One scorer's final breakdown: a seat, or a scorer with no seat (the Mystic Monk,
    a cooperative team). ``total`` is the sum of the lines' points."""

    name: str
    seat: Seat | None
    total: int
    lines: tuple[ScoreLine, ...]

    @classmethod
    def of(cls, name: str, seat: Seat | None, lines: Iterable[ScoreLine]) -> Standing:
        lines = tuple(lines)
        return cls(name, seat, sum(line.points for line in lines), lines)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``plural(1, "coin") == "1 coin"``, ``plural(3, "coin") == "3 coins"``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def join_words(items: Iterable[str], last: str = "and") -> str:
    """``join_words(["a", "b", "c"]) == "a, b and c"``; an empty list is ``"nothing"``."""
    items = list(items)
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"
