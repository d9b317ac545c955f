"""What each viewer sees: the full view, its secrets declared on its type (``domain.views``);
the kernel redacts it per viewer, as it redacts events from their declarations."""

from __future__ import annotations

from ..secrets import secret
from ..simultaneous import ChoicesView
from ..viewers import SPECTATOR, Seat, Viewer, seat_viewer
from ..views import ByAudience, Owned, view_part
from .describe import prompt
from .state import State

__all__ = ["HighCardView", "full_view", "hidden_values"]


@view_part
class HighCardView:
    phase: str
    round: int
    turn: Seat
    scores: list[int]
    deck_count: int
    discard: list[str]
    hands: tuple[Owned[list[str]], ...]  # each seat sees its own hand only
    hand_counts: list[int]
    choices: ChoicesView
    prompt: ByAudience[str]
    deck: list[str] = secret(omit=True)  # the order: for the review after the game only


def full_view(state: State) -> HighCardView:
    return HighCardView(
        phase=state.phase,
        round=state.round,
        turn=state.turn,
        scores=list(state.scores),
        deck_count=len(state.deck),
        discard=list(state.discard),
        hands=tuple(Owned(s, list(hand)) for s, hand in enumerate(state.hands)),
        hand_counts=[len(h) for h in state.hands],
        choices=state.choices.view(),
        prompt=ByAudience(
            tuple(prompt(state, seat_viewer(s)) for s in range(state.players)),
            prompt(state, SPECTATOR),
        ),
        deck=list(state.deck),
    )


def hidden_values(state: State, viewer: Viewer) -> frozenset[str]:
    if viewer.omniscient:
        return frozenset()
    hidden = set(state.deck)
    for seat, hand in enumerate(state.hands):
        if not viewer.sees_seat(seat):
            hidden.update(hand)
    return frozenset(hidden)
