"""The legal commands as a player reads them: labelled moves and short typed moves.

Every game module (``clients.tui.games``) gives each legal command a *label* in the rulebook's
words ("Place the red Angel on Book 1, row 3, column 4"), a menu *group* ("Place a tile"),
and a list of *typed forms*, shortest first ("angel 3 4", "red angel 3 4"). This module turns
them into a :class:`MoveList` and answers what a typed line means:

* a typed line equal to one move's typed form (spaces, commas and case do not matter) is
  that move;
* a line whose words begin the forms of several moves ("row", "abbot 3") is a choice among
  them: the UI shows just those, in the menu;
* commands with the same label are the same move to a player (two identical tiles in one
  margin), so only the first is listed.

The forms of one command never depend on the order of the legal list, so a test can type the
form of any legal command and get exactly that command back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from .frame import Frame
    from .games.base import GameUI

__all__ = ["Move", "MoveList", "normalise"]

_SEPARATORS = re.compile(r"[\s,;:()]+")


def normalise(text: str) -> tuple[str, ...]:
    """``"Row 2"``, ``"row  2"``, ``"row,2"`` → ``("row", "2")``."""
    return tuple(w for w in _SEPARATORS.split(text.strip().lower()) if w)


@attrs.frozen
class Move:
    """One legal command with its words."""

    command: dict[str, Any]
    label: str
    group: str
    forms: tuple[str, ...]
    """Typed forms, shortest first; ``code`` is the shortest one no other move shares."""
    order: tuple[Any, ...] = ()
    code: str = ""
    confirm: str | None = None
    """A question to ask before sending (an irreversible move), or None."""


@attrs.frozen
class Match:
    """What a typed line means: exactly one move, several to choose from, or nothing."""

    moves: tuple[Move, ...]
    exact: bool

    @property
    def single(self) -> Move | None:
        return self.moves[0] if self.exact and len(self.moves) == 1 else None


class MoveList:
    """The frame's legal commands as moves, in the game's menu order."""

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves: tuple[Move, ...] = tuple(moves)

    @classmethod
    def build(cls, ui: GameUI, frame: Frame) -> MoveList:
        raw: list[Move] = []
        seen: set[str] = set()
        for command in frame.legal:
            label = ui.label(command, frame)
            if label in seen:
                continue  # the same move to a player (interchangeable components)
            seen.add(label)
            # The label itself is the last typed form: every move can be typed, even one
            # whose short forms another move shares.
            typed = [*ui.forms(command, frame), label]
            forms = tuple(dict.fromkeys(" ".join(normalise(f)) for f in typed))
            raw.append(
                Move(
                    command,
                    label,
                    ui.group(command, frame),
                    forms,
                    order=ui.order(command, frame),
                    confirm=ui.confirm(command, frame),
                )
            )
        owners: dict[str, int] = {}
        for m in raw:
            for f in set(m.forms):
                owners[f] = owners.get(f, 0) + 1
        moves = [
            attrs.evolve(m, code=next((f for f in m.forms if owners[f] == 1), "")) for m in raw
        ]
        order = {g: i for i, g in enumerate(dict.fromkeys(m.group for m in moves))}
        # Stable: inside a group the game's sort key, then the server's order.
        moves.sort(key=lambda m: (order[m.group], m.order))
        return cls(moves)

    def __len__(self) -> int:
        return len(self.moves)

    def __iter__(self) -> Any:
        return iter(self.moves)

    def match(self, text: str) -> Match:
        words = normalise(text)
        if not words:
            return Match(self.moves, exact=False)
        joined = " ".join(words)
        exact = tuple(m for m in self.moves if joined in m.forms)
        if exact:
            return Match(exact, exact=True)
        prefix = tuple(m for m in self.moves if any(_begins(words, f) for f in m.forms))
        if prefix:
            return Match(prefix, exact=False)
        # Last resort: the words anywhere in the label ("angel", "Book 2").
        found = tuple(m for m in self.moves if all(w in m.label.lower() for w in words))
        return Match(found, exact=False)

    def filter(self, text: str) -> tuple[Move, ...]:
        """Moves for a menu filtered by ``text`` (typed forms first, then label words)."""
        return self.match(text).moves


def _begins(words: tuple[str, ...], form: str) -> bool:
    """``("ab", "3")`` begins ``"abbot 3 pay 2 coins"``: each typed word starts the form's
    word in the same place."""
    fwords = form.split(" ")
    if len(words) > len(fwords):
        return False
    return all(f.startswith(w) for w, f in zip(words, fwords, strict=False))
