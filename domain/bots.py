"""Bots choose a command for a seat. They live in the domain: pure functions of the state."""

from __future__ import annotations

from typing import Any, Protocol

from .game import Game
from .randomness import Rng
from .viewers import Seat

__all__ = ["Bot", "RandomBot", "legal_list"]


class Bot(Protocol):
    """Picks one of ``game.legal_commands(state, seat)``."""

    name: str

    def choose(self, game: Game[Any, Any, Any], state: Any, seat: Seat, rng: Rng) -> Any: ...


def legal_list(game: Game[Any, Any, Any], state: Any, seat: Seat) -> list[Any]:
    """The seat's legal commands; a bot asked to move with none is a caller's bug."""
    legal = list(game.legal_commands(state, seat))
    if not legal:
        raise LookupError(f"seat {seat} has no legal command")
    return legal


class RandomBot:
    """Uniform among the legal commands."""

    name = "random"

    def choose(self, game: Game[Any, Any, Any], state: Any, seat: Seat, rng: Rng) -> Any:
        return rng.choice(legal_list(game, state, seat))
