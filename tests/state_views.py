"""The views of one state, each computed once, for the playouts' leak checks and bots.

A random playout asks for the same views of a state several times: the leak check renders
every audience's view after a command, then the random bot's ``seat_view`` renders the
acting seat's view of that very state again, and ``Game.view`` builds the whole full view
anew for each audience. :class:`StateViews` builds the full view once per state and renders
each audience's view from it once, with what ``Game.view`` does (``render(full_view(state),
viewer)``, no memo shared between audiences), so every check sees the very same views: only
the recomputation of a pure function of the state is saved.
"""

from __future__ import annotations

from typing import Any

from domain.bots import Bot, RandomBot, SeatView
from domain.game import Game
from domain.randomness import Rng
from domain.viewers import Viewer
from domain.views import render

__all__ = ["StateViews"]


class StateViews:
    """``views(viewer)`` is ``game.view(state, viewer)``, each computed at most once."""

    def __init__(self, game: Game[Any, Any, Any], state: Any) -> None:
        self.game, self.state = game, state
        self._full: Any = None
        self._views: dict[Viewer, Any] = {}

    def __call__(self, viewer: Viewer) -> Any:
        view = self._views.get(viewer)
        if view is None:
            if self._full is None:
                self._full = self.game.full_view(self.state)
            view = self._views[viewer] = render(self._full, viewer)
        return view

    def bot_move(self, bot: Bot, seat: int, rng: Rng) -> Any:
        """``domain.bots.bot_move(bot, game, state, seat, rng)``, with this seat's view."""
        legal = tuple(self.game.legal_commands(self.state, seat))
        if not legal:
            raise LookupError(f"seat {seat} has no legal command")
        viewer = Viewer(seat=seat)
        # The random bot picks from the legal list alone: the view it would never read is
        # handed over only if the leak check rendered it already. Rendering it anyway was two
        # fifths of a Road playout (the playouts' leak checks still render every audience's
        # view every few commands, and the contract suite every fourth step of its games).
        view = self._views.get(viewer) if type(bot) is RandomBot else self(viewer)
        return bot.choose(SeatView(seat=seat, view=view, legal=legal), rng)
