"""Who the game waits on, and exactly the commands ``decide`` accepts from each seat."""

from __future__ import annotations

from typing import assert_never

from ..viewers import Seat
from .commands import Command, Draw, Pass, PlayCard
from .state import Phase, State

__all__ = ["legal_commands", "to_act"]


def to_act(state: State) -> frozenset[Seat]:
    match state.phase:
        case Phase.DRAW:
            return frozenset({state.turn})
        case Phase.PLAY:
            return state.choices.waiting_on
        case Phase.SETUP | Phase.OVER:
            return frozenset()
        case _:
            assert_never(state.phase)


def legal_commands(state: State, seat: Seat) -> list[Command]:
    match state.phase:
        case Phase.DRAW:
            if seat != state.turn:
                return []
            if not state.deck:
                return [Pass()]
            return [Draw(), Pass()] if state.hands[seat] else [Draw()]
        case Phase.PLAY:
            return [PlayCard(c) for c in state.hands[seat]]
        case Phase.SETUP | Phase.OVER:
            return []
        case _:
            assert_never(state.phase)
