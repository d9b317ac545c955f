"""Commands a seat sends."""

from __future__ import annotations

from typing import get_args

import attrs

__all__ = ["COMMAND_TYPES", "Command", "Draw", "Pass", "PlayCard"]


@attrs.frozen
class Draw:
    """Take the top card of the deck (draw phase, on your turn)."""


@attrs.frozen
class Pass:
    """Take no card (draw phase, on your turn)."""


@attrs.frozen
class PlayCard:
    """Secretly choose the card to play this round (play phase)."""

    card: str


Command = Draw | Pass | PlayCard
COMMAND_TYPES: tuple[type, ...] = get_args(Command)
