"""The benchmark's own game, the same one the peers play (``bench/peers/``).

Two seats, a private hand of five cards each, a hidden deck of the rest. On your turn you
swap one card of your hand with the top card of the deck (the given card goes to the bottom);
a match is 200 moves. It exists only to compare servers on the same work: it is registered
only in the benchmark's server (``bench/serve.py``), never in ``default_registry``. It is a
Decider like every game; its view's and its events' secrets are declared on their types
(``domain.views``, ``domain.secrets``) and the kernel's redactors apply them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from domain.errors import GameOver, NotYourTurn, RuleViolation, UnknownCommand
from domain.game import GameBase, Options, Result
from domain.narration import Names
from domain.randomness import Context
from domain.registry import GameType
from domain.secrets import event, secret
from domain.viewers import Seat, Viewer
from domain.views import Owned, view_part

HAND = 5
MOVES = 200
CARDS: tuple[str, ...] = tuple(f"k{n:02d}" for n in range(1, 31))  # not hex, unlike ids


@attrs.frozen
class Swap:
    """Give the hand card at ``index`` (0-based) to the bottom of the deck, take its top."""

    index: int


@event
class Dealt:
    deck: tuple[str, ...] | None = secret()  # the shuffled order: nobody's
    hands: tuple[tuple[str, ...] | None, ...] = secret(by_seat=True)  # each its seat's


@event
class Swapped:
    seat: Seat
    index: int
    given: str | None = secret(owner="seat")
    taken: str | None = secret(owner="seat")


SwapEvent = Dealt | Swapped

SWAPS = tuple(Swap(i) for i in range(HAND))
"""Every legal command of the seat to move, the same objects every turn (as a game whose
commands do not depend on the position can list them): the server finds them unchanged
without comparing them field by field."""


@view_part
class SwapView:
    hands: tuple[Owned[tuple[str, ...]], ...]  # each seat sees its own hand only (a list)
    deck_count: int
    moves: int
    turn: Seat


@attrs.frozen
class State:
    deck: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ((), ())
    moves: int = 0
    turn: Seat = 0
    last_given: tuple[Seat, str] | None = None
    """Who gave which card at the last move: that seat knows it is at the deck's bottom."""


class SwapGame(GameBase[State, Swap, SwapEvent]):
    name: ClassVar[str] = "bench-swap"
    title: ClassVar[str] = "Swap (benchmark)"
    command_types: ClassVar[tuple[type, ...]] = (Swap,)
    event_types: ClassVar[tuple[type, ...]] = (Dealt, Swapped)

    def seat_count(self, options: Options) -> int:
        return 2

    def initial_state(self, options: Options) -> State:
        return State()

    def setup(self, state: State, ctx: Context) -> Sequence[SwapEvent]:
        order = ctx.rng.shuffled(CARDS)
        hands = (order[:HAND], order[HAND : 2 * HAND])
        return [Dealt(order[2 * HAND :], hands)]

    def decide(self, state: State, seat: Seat, command: Swap, ctx: Context) -> Sequence[SwapEvent]:
        if state.moves >= MOVES:
            raise GameOver("the match is over")
        if not isinstance(command, Swap):
            raise UnknownCommand(f"Swap has no command {type(command).__name__}")
        if seat != state.turn:
            raise NotYourTurn(f"it is player {state.turn + 1}'s turn")
        if not 0 <= command.index < HAND:
            raise RuleViolation(f"the hand has cards 1 to {HAND}", code="no_such_card")
        hand = state.hands[seat]
        return [Swapped(seat, command.index, hand[command.index], state.deck[0])]

    def evolve(self, state: State, event: SwapEvent) -> State:
        if isinstance(event, Dealt):
            hands = tuple(tuple(h or ()) for h in event.hands)
            return attrs.evolve(state, deck=tuple(event.deck or ()), hands=hands)
        seat, i = event.seat, event.index
        hand = state.hands[seat]
        new_hand = (*hand[:i], str(event.taken), *hand[i + 1 :])
        hands = tuple(new_hand if s == seat else h for s, h in enumerate(state.hands))
        return State(
            deck=(*state.deck[1:], str(event.given)),
            hands=hands,
            moves=state.moves + 1,
            turn=1 - seat,
            last_given=(seat, str(event.given)),
        )

    def is_terminal(self, state: State) -> bool:
        return state.moves >= MOVES

    def to_act(self, state: State) -> frozenset[Seat]:
        return frozenset() if state.moves >= MOVES else frozenset({state.turn})

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Swap]:
        if state.moves >= MOVES or seat != state.turn:
            return []
        return SWAPS

    def full_view(self, state: State) -> SwapView:
        first, second = state.hands  # two seats; the kernel sends each tuple as a list
        return SwapView(
            hands=(Owned(0, first), Owned(1, second)),
            deck_count=len(state.deck),
            moves=state.moves,
            turn=state.turn,
        )

    def hidden_values(self, state: State, viewer: Viewer) -> frozenset[str]:
        if viewer.omniscient:
            return frozenset()
        hidden = set(state.deck)
        for seat, hand in enumerate(state.hands):
            if not viewer.sees_seat(seat):
                hidden.update(hand)
        if state.last_given is not None and viewer.sees_seat(state.last_given[0]):
            hidden.discard(state.last_given[1])  # it just gave that card away itself
        return frozenset(hidden)

    def result(self, state: State) -> Result | None:
        if state.moves < MOVES:
            return None
        return Result((0, 0), (), "200 moves played")

    def narrate(self, event: SwapEvent, names: Names) -> str:
        if isinstance(event, Swapped):
            return f"{names.seat(event.seat)} swaps card {event.index + 1}"
        return "The cards are dealt"


GAME = SwapGame()
GAME_TYPE = GameType(GAME, demo=True)


def bench_registry() -> dict[str, GameType]:
    """Every game of the build, plus the benchmark's swap game."""
    from domain import default_registry

    return {**default_registry(), GAME.name: GAME_TYPE}
