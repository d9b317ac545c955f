"""Illumination: two illuminators (or one against the Mystic Monk) fill three Books with tiles.

The rules are in ``decide``/``turn`` (deciding), ``evolve`` (applying), ``legal`` (move
generation), ``board`` (geometry, battles, the Monk's search), ``scoring``, ``view``
(secrets) and ``bots``; the unprinted content is in ``data/`` (see ``content``).
"""

from __future__ import annotations

from ..bots import RandomBot
from ..game import GameType
from .bots import GreedyBot
from .game import GAME, Illumination

GAME_TYPE = GameType(GAME, bots={"random": RandomBot(), "greedy": GreedyBot()})

__all__ = ["GAME", "GAME_TYPE", "GreedyBot", "Illumination"]
