"""The information horizon: which events a player can never take back (issue 13, item 3).

A player may undo their own last commands, back to but never past the newest *horizon*: an
event that revealed something to somebody who did not know it (a draw, a roll, a flip, the
reveal of a secret choice), or that closed a turn or phase where the game says so. (Events
from another seat's command and the platform's own events are horizons too; the platform
knows those, see ``server.undo``.)

Each game declares its horizons as a class variable ``horizon_events``: the event types
that are horizons (usually ``HORIZON_EVENTS`` in its ``events.py``). A game may also define
``is_horizon(event) -> bool`` for a finer rule. A game that declares neither has every
event as a horizon, so nothing of it can be undone: safe by default.
"""

from __future__ import annotations

from typing import Any

__all__ = ["is_horizon"]


def is_horizon(game: Any, event: Any) -> bool:
    """Whether ``event`` of ``game`` is an information horizon (see the module docstring)."""
    rule = getattr(game, "is_horizon", None)
    if rule is not None:
        return bool(rule(event))
    declared = getattr(game, "horizon_events", None)
    if declared is None:
        return True
    return isinstance(event, tuple(declared))
