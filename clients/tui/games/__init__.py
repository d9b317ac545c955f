"""One terminal module per game type: board drawing, the status sentence and move words.

``ui_for(game_type)`` returns the module for a type; an unknown type gets the generic one,
which lists the view's fields and names commands by their fields (it works for any game).
"""

from __future__ import annotations

from .base import BOARD_WIDTH, Block, GameUI
from .campus_galli import CampusGalliUI
from .high_card import HighCardUI
from .illumination import IlluminationUI
from .road import RoadUI

__all__ = ["BOARD_WIDTH", "UIS", "Block", "GameUI", "ui_for"]

UIS: dict[str, GameUI] = {
    "high-card": HighCardUI(),
    "illumination": IlluminationUI(),
    "road-to-enlightenment": RoadUI(),
    "campus-galli": CampusGalliUI(),
}


def ui_for(game_type: str) -> GameUI:
    return UIS.get(game_type) or GameUI()
