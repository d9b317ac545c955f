"""What each viewer sees; events are redacted by the kernel from their declarations."""

from __future__ import annotations

from typing import Any

from ..viewers import Viewer
from .describe import prompt
from .state import State

__all__ = ["hidden_values", "view"]


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    return {
        "phase": state.phase,
        "round": state.round,
        "turn": state.turn,
        "scores": list(state.scores),
        "deck_count": len(state.deck),
        "discard": list(state.discard),
        "hands": [
            list(hand) if viewer.sees_seat(s) else None for s, hand in enumerate(state.hands)
        ],
        "hand_counts": [len(h) for h in state.hands],
        "choices": state.choices.visible_to(viewer),
        "prompt": prompt(state, viewer),
        **({"deck": list(state.deck)} if viewer.omniscient else {}),
    }


def hidden_values(state: State, viewer: Viewer) -> frozenset[str]:
    if viewer.omniscient:
        return frozenset()
    hidden = set(state.deck)
    for seat, hand in enumerate(state.hands):
        if not viewer.sees_seat(seat):
            hidden.update(hand)
    return frozenset(hidden)
