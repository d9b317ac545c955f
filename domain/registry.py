"""The game types this server offers, with the bots that can fill their seats."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .bots import Bot, RandomBot
from .game import Game

__all__ = ["GameType", "Registry", "default_registry", "make_registry"]


@attrs.frozen
class GameType:
    game: Game[Any, Any, Any]
    bots: Mapping[str, Bot] = attrs.field(factory=dict)
    demo: bool = False
    """A small game for demos and platform tests, not a published board game."""

    @property
    def name(self) -> str:
        return self.game.name

    def bot(self, level: str | None) -> Bot:
        """The bot for ``level`` (default: the strongest there is)."""
        if level is None:
            level = "greedy" if "greedy" in self.bots else "random"
        if level == "random" and "random" not in self.bots:
            return RandomBot()
        try:
            return self.bots[level]
        except KeyError:
            raise KeyError(
                f"{self.game.title} has no bot level {level!r}; "
                f"levels: {sorted({'random', *self.bots})}"
            ) from None


Registry = Mapping[str, GameType]


def make_registry(*types: GameType) -> dict[str, GameType]:
    return {t.name: t for t in types}


def default_registry() -> dict[str, GameType]:
    """Every game this build ships. Imported lazily so the domain kernel stays light."""
    from . import campus_galli, highcard, illumination, road_to_enlightenment

    types = [
        illumination.GAME_TYPE,
        campus_galli.GAME_TYPE,
        road_to_enlightenment.GAME_TYPE,
        highcard.GAME_TYPE,
    ]
    return make_registry(*types)
