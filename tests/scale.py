"""How much the random-game tests play: the two knobs every game's tests share.

``CLOISTER_PLAYOUTS=N`` multiplies each playout count (N=100 is the 1,000-games-per-
combination soak of Campus Galli and Road to Enlightenment). ``CLOISTER_SOAK=1`` makes the
bot-strength tests play the issues' full samples instead of their quick defaults.
"""

from __future__ import annotations

import os

__all__ = ["SOAK", "games", "playouts"]

SOAK = os.environ.get("CLOISTER_SOAK") == "1"


def playouts(default: int) -> int:
    """``default`` random playouts, times ``CLOISTER_PLAYOUTS`` (which may be fractional)."""
    return int(default * float(os.environ.get("CLOISTER_PLAYOUTS", "1")))


def games(default: int, soak: int) -> int:
    """A bot-strength sample: ``soak`` games with ``CLOISTER_SOAK=1``, else ``default``."""
    return soak if SOAK else default
