"""Illumination: two illuminators (or one against the Mystic Monk) fill three Books with tiles.

The package has the layout every game shares (``docs/kernel.md``): ``content`` (the
unprinted content is in ``data/``), ``state``, ``commands``, ``events``, ``decide``,
``evolve``, ``legal``, ``view``, ``describe`` (the narrator), ``glossary``, ``bots`` and
``game``; and three of its own: ``turn`` (the automatic procedures, on the kernel's
transaction), ``board`` (geometry, battles, the Monk's search) and ``scoring``.
"""

from __future__ import annotations

from ..bots import RandomBot
from ..game import GameType
from .bots import GreedyBot
from .game import GAME, Illumination

GAME_TYPE = GameType(GAME, bots={"random": RandomBot(), "greedy": GreedyBot()})

__all__ = ["GAME", "GAME_TYPE", "GreedyBot", "Illumination"]
