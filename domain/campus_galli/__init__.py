"""Campus Galli: build the monastery of St. Gall, in three levels, solo to four players."""

from __future__ import annotations

from ..bots import RandomBot
from ..game import GameType
from .bots import GreedyBot
from .game import CampusGalli

__all__ = ["GAME", "GAME_TYPE", "CampusGalli"]

GAME = CampusGalli()
GAME_TYPE = GameType(GAME, bots={"random": RandomBot(), "greedy": GreedyBot()})
