"""The narrator and the prompt: High Card in sentences, seats by their labels."""

from __future__ import annotations

from typing import assert_never

from ..narration import Names, join_words
from ..simultaneous import ChoiceCommitted, ChoicesRevealed
from ..viewers import Viewer
from .content import HAND, card_name
from .events import CardDrawn, CardsDealt, DeckShuffled, Event, GameEnded, Passed, RoundWon
from .state import Phase, State, winners

__all__ = ["narrate", "prompt", "summary"]


def summary(scores: tuple[int, ...]) -> str:
    """The winners in one sentence: "Player 2 wins with 11"."""
    won = winners(scores)
    who = join_words(f"Player {s + 1}" for s in won)
    return f"{who} win{'s' if len(won) == 1 else ''} with {scores[won[0]]}"


def narrate(event: Event, names: Names) -> str:
    match event:
        case DeckShuffled():
            return "The deck is shuffled"
        case CardsDealt(seat=seat, cards=cards):
            if cards:
                return f"{names.seat(seat)} is dealt {join_words(map(card_name, cards))}"
            return f"{names.seat(seat)} is dealt {HAND} cards"
        case CardDrawn(seat=seat, card=card):
            drawn = card_name(card) if card else "a card"
            return f"{names.seat(seat)} draws {drawn}"
        case Passed(seat=seat):
            return f"{names.seat(seat)} passes"
        case ChoiceCommitted(seat=seat):
            return f"{names.seat(seat)} chooses a card"
        case ChoicesRevealed(choices=choices):
            return "Revealed: " + join_words(
                f"{names.seat(s)} plays {card_name(c[0])}" for s, c in choices
            )
        case RoundWon(seat=seat, points=points):
            return f"{names.seat(seat)} wins the round for {points}"
        case GameEnded(scores=scores):
            return f"Game over: {summary(scores)}"
        case _:
            assert_never(event)


def prompt(state: State, viewer: Viewer) -> str:
    """What the game waits for, in one sentence for this viewer."""
    match state.phase:
        case Phase.OVER:
            return f"Game over: {summary(state.scores)}"
        case Phase.DRAW:
            if viewer.seat == state.turn:
                return "Draw the top card of the deck, or pass"
            return f"Player {state.turn + 1} draws or passes"
        case Phase.PLAY:
            if viewer.seat is not None and viewer.seat in state.choices.waiting_on:
                return "Choose a card to play this round"
            waiting = join_words(f"Player {s + 1}" for s in sorted(state.choices.waiting_on))
            return f"Waiting for {waiting} to choose a card"
        case Phase.SETUP:
            return "The cards are dealt"
        case _:
            assert_never(state.phase)
