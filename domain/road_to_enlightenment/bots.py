"""A better-than-random bot for Road to Enlightenment."""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..randomness import Rng
from ..viewers import Seat

__all__ = ["GreedyBot"]


class GreedyBot:
    name = "greedy"

    def choose(self, game: Game[Any, Any, Any], state: Any, seat: Seat, rng: Rng) -> Any:
        legal = list(game.legal_commands(state, seat))
        return rng.choice(legal)
