"""Bots choose a command for a seat, from what that seat may see and nothing else.

A bot is handed a :class:`SeatView`: the seat, the view a player in that seat would be
sent (``game.view(state, Viewer(seat=seat))``, already stripped of every secret the seat
may not see) and the seat's legal commands. It never receives the state, so hidden hands,
deck order and other players' unrevealed choices cannot reach it: a bot that wants to look
ahead must rebuild what it needs from the view (each game's ``bots.py`` does).

:func:`seat_view` is the only place a state is turned into a bot's input; the server's
``BotRunner``, the benches and the tests all go through it (or :func:`bot_move`).
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from .game import Game
from .randomness import Rng
from .viewers import Seat, Viewer

__all__ = ["Bot", "RandomBot", "SeatView", "bot_move", "legal_list", "seat_view"]


@attrs.frozen
class SeatView:
    """Everything a bot may know when it is to act: what its seat sees and may do."""

    seat: Seat
    view: Any
    """The seat's view, exactly as a player in the seat receives it."""
    legal: tuple[Any, ...]
    """``game.legal_commands(state, seat)``: the bot must return one of them."""


class Bot(Protocol):
    """Picks one of ``seen.legal``, from ``seen`` alone."""

    name: str

    def choose(self, seen: SeatView, rng: Rng) -> Any: ...


def seat_view(game: Game[Any, Any, Any], state: Any, seat: Seat) -> SeatView:
    """What ``seat`` may know at ``state``; a bot asked to move with no command is a bug."""
    legal = tuple(game.legal_commands(state, seat))
    if not legal:
        raise LookupError(f"seat {seat} has no legal command")
    return SeatView(seat=seat, view=game.view(state, Viewer(seat=seat)), legal=legal)


def bot_move(bot: Bot, game: Game[Any, Any, Any], state: Any, seat: Seat, rng: Rng) -> Any:
    """The bot's command for ``seat`` at ``state``: the state stops here, the view goes on."""
    return bot.choose(seat_view(game, state, seat), rng)


def legal_list(seen: SeatView) -> list[Any]:
    return list(seen.legal)


class RandomBot:
    """Uniform among the legal commands."""

    name = "random"

    def choose(self, seen: SeatView, rng: Rng) -> Any:
        return rng.choice(list(seen.legal))
