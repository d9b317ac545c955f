"""Applying one event to the state. Never validates, never rolls."""

from __future__ import annotations

from typing import TypeVar, assert_never

from ..simultaneous import ChoiceCommitted, ChoicesRevealed, SecretChoices
from ..values import replace
from .content import ROUNDS
from .events import CardDrawn, CardsDealt, DeckShuffled, Event, GameEnded, Passed, RoundWon
from .state import Phase, State

__all__ = ["evolve"]

T = TypeVar("T")


def evolve(state: State, event: Event) -> State:
    match event:
        case DeckShuffled(order=order):
            return replace(state, deck=tuple(order or ()))
        case CardsDealt(seat=seat, cards=cards):
            cards = tuple(cards or ())
            hands = _replace(state.hands, seat, state.hands[seat] + cards)
            deck = state.deck[len(cards) :]
            done = seat == state.players - 1
            return replace(state, hands=hands, deck=deck, phase=Phase.DRAW if done else state.phase)
        case CardDrawn(seat=seat, card=card):
            hands = _replace(state.hands, seat, (*state.hands[seat], str(card)))
            return _next_drawer(replace(state, hands=hands, deck=state.deck[1:]))
        case Passed():
            return _next_drawer(state)
        case ChoiceCommitted(seat=seat, choice=choice):
            return replace(state, choices=state.choices.commit(seat, tuple(choice or ())))
        case ChoicesRevealed(choices=choices):
            played = {s: c[0] for s, c in choices}
            return replace(
                state,
                hands=tuple(
                    tuple(x for x in hand if x != played.get(s))
                    for s, hand in enumerate(state.hands)
                ),
                discard=state.discard + tuple(played.values()),
                choices=SecretChoices(frozenset()),
            )
        case RoundWon(seat=seat, points=points):
            scores = _replace(state.scores, seat, state.scores[seat] + points)
            return replace(state, scores=scores, round=state.round + 1, phase=Phase.DRAW, turn=0)
        case GameEnded(scores=scores):
            return replace(state, scores=tuple(scores), phase=Phase.OVER, round=ROUNDS)
        case _:
            assert_never(event)


def _next_drawer(state: State) -> State:
    if state.turn + 1 < state.players:
        return replace(state, turn=state.turn + 1)
    holding = [s for s in range(state.players) if state.hands[s]]
    return replace(state, phase=Phase.PLAY, choices=SecretChoices.open(holding))


def _replace(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])
