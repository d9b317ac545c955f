"""Events, with their secrets declared (``domain.secrets``)."""

from __future__ import annotations

from typing import get_args

from ..secrets import event, secret
from ..simultaneous import ChoiceCommitted, ChoicesRevealed
from ..viewers import Seat

__all__ = [
    "EVENT_TYPES",
    "HORIZON_EVENTS",
    "CardDrawn",
    "CardsDealt",
    "ChoiceCommitted",
    "ChoicesRevealed",
    "DeckShuffled",
    "Event",
    "GameEnded",
    "Passed",
    "RoundWon",
]


@event
class DeckShuffled:
    order: tuple[str, ...] | None = secret()  # None for every client


@event
class CardsDealt:
    seat: Seat
    cards: tuple[str, ...] | None = secret(owner="seat")


@event
class CardDrawn:
    seat: Seat
    card: str | None = secret(owner="seat")


@event
class Passed:
    seat: Seat


@event
class RoundWon:
    seat: Seat
    points: int


@event
class GameEnded:
    scores: tuple[int, ...]


Event = (
    DeckShuffled
    | CardsDealt
    | CardDrawn
    | Passed
    | ChoiceCommitted
    | ChoicesRevealed
    | RoundWon
    | GameEnded
)
EVENT_TYPES: tuple[type, ...] = get_args(Event)

HORIZON_EVENTS: tuple[type, ...] = (
    DeckShuffled,
    CardsDealt,
    CardDrawn,
    ChoicesRevealed,
    RoundWon,
    GameEnded,
)
"""Information horizons (``domain.undo``): every draw, deal and reveal, and the end of a
round; a pass or a secret choice not yet revealed can be taken back."""
