"""The High Card state, and its phases."""

from __future__ import annotations

import enum

import attrs

from ..simultaneous import SecretChoices
from ..viewers import Seat

__all__ = ["Phase", "State", "winners"]


class Phase(enum.StrEnum):
    """Where a round stands. A ``StrEnum``: the value is what views and logs always showed."""

    SETUP = "setup"
    """Before the deal."""
    DRAW = "draw"
    """In seat order, each seat draws the top card or passes."""
    PLAY = "play"
    """Every seat holding a card secretly commits one."""
    OVER = "over"


@attrs.frozen
class State:
    players: int
    deck: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    discard: tuple[str, ...] = ()
    scores: tuple[int, ...] = ()
    round: int = 1
    phase: Phase = Phase.SETUP
    turn: Seat = 0
    """The seat to draw or pass (draw phase)."""
    choices: SecretChoices = SecretChoices(frozenset())
    """The play phase's secret choices."""


def winners(scores: tuple[int, ...]) -> tuple[Seat, ...]:
    """The seats with the highest score (ties share the win)."""
    top = max(scores)
    return tuple(s for s, v in enumerate(scores) if v == top)
