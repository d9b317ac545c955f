"""Road to Enlightenment: nations of 17th-century Europe compete for prestige with luminaries.

See ``docs/games/road-to-enlightenment.md`` for the options, the view shape, the commands and
every design decision beyond the implementation reference.
"""

from __future__ import annotations

from ..bots import RandomBot
from ..game import GameType
from .bots import GreedyBot
from .game import RoadToEnlightenment

__all__ = ["GAME", "GAME_TYPE", "GreedyBot", "RoadToEnlightenment"]

GAME = RoadToEnlightenment()
GAME_TYPE = GameType(GAME, bots={"random": RandomBot(), "greedy": GreedyBot()})
