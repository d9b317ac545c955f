"""Checking a command and deciding the events it causes."""

from __future__ import annotations

from ..errors import GameOver, NotYourTurn, RuleViolation, UnknownCommand
from ..randomness import Context
from ..transaction import Transaction
from ..viewers import Seat
from .commands import Command, Draw, Pass, PlayCard
from .content import DECK, HAND, ROUNDS, value
from .events import (
    CardDrawn,
    CardsDealt,
    ChoiceCommitted,
    DeckShuffled,
    Event,
    GameEnded,
    Passed,
    RoundWon,
)
from .evolve import evolve
from .state import Phase, State

__all__ = ["decide", "fork_reshuffle", "setup"]


def setup(state: State, ctx: Context) -> list[Event]:
    """Shuffle the deck and deal each seat its hand."""
    order = ctx.rng.shuffled(DECK)
    t = Transaction(state, evolve, ctx.rng)
    t.emit(DeckShuffled(order))
    for seat in range(state.players):
        t.emit(CardsDealt(seat, order[seat * HAND : (seat + 1) * HAND]))
    return t.events


def fork_reshuffle(state: State, ctx: Context) -> list[Event]:
    """At a fork the face-down deck is shuffled again; hands and the discard stay."""
    if len(state.deck) < 2:
        return []
    return [DeckShuffled(ctx.rng.shuffled(state.deck))]


def decide(state: State, seat: Seat, command: Command, ctx: Context) -> list[Event]:
    if state.phase is Phase.OVER:
        raise GameOver("the game is over")
    t = Transaction(state, evolve, ctx.rng)
    match command:
        case Draw() | Pass():
            if state.phase is not Phase.DRAW:
                raise RuleViolation("cards are drawn only in the draw phase", code="wrong_phase")
            if seat != state.turn:
                raise NotYourTurn(f"it is Player {state.turn + 1}'s turn to draw or pass")
            if isinstance(command, Draw):
                if not state.deck:
                    raise RuleViolation("the deck is empty", code="deck_empty")
                t.emit(CardDrawn(seat, state.deck[0]))
                return t.events
            if state.deck and not state.hands[seat]:
                raise RuleViolation(
                    "with an empty hand you must draw while the deck has cards",
                    code="must_draw",
                )
            t.emit(Passed(seat))
            if seat == state.players - 1 and not any(state.hands):
                t.emit(GameEnded(t.state.scores))  # nobody can play a card
        case PlayCard(card=card):
            if state.phase is not Phase.PLAY:
                raise RuleViolation("cards are played only in the play phase", code="wrong_phase")
            if seat not in state.choices.seats:
                raise NotYourTurn("you have no card to play this round")
            if card not in state.hands[seat]:
                raise RuleViolation("you do not hold that card", code="card_not_in_hand")
            t.emit(ChoiceCommitted(seat, (card,)))
            if t.state.choices.complete:
                revealed = t.state.choices.revealed()
                best_seat, best = max(
                    ((s, c[0]) for s, c in revealed.choices), key=lambda sc: value(sc[1])
                )
                t.emit(revealed, RoundWon(best_seat, value(best)))
                if state.round == ROUNDS:
                    t.emit(GameEnded(t.state.scores))
        case _:
            raise UnknownCommand(f"High Card has no command {type(command).__name__}")
    return t.events
