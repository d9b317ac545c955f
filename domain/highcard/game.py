"""High Card as a game of the platform contract: the rules' modules tied together."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..game import GameBase, GameType, Options, OptionSpec, Result
from ..narration import GlossaryEntry, Names, ScoreLine, Standing
from ..randomness import Context
from ..viewers import Seat, Viewer
from .bots import BOTS
from .commands import COMMAND_TYPES, Command, Draw, Pass, PlayCard
from .content import DECK, HAND, ROUNDS, card_name, value
from .decide import decide as _decide
from .decide import fork_reshuffle as _fork_reshuffle
from .decide import setup as _setup
from .describe import narrate as _narrate
from .describe import summary as _summary
from .events import (
    EVENT_TYPES,
    HORIZON_EVENTS,
    CardDrawn,
    CardsDealt,
    DeckShuffled,
    Event,
    GameEnded,
    Passed,
    RoundWon,
)
from .evolve import evolve as _evolve
from .glossary import glossary as _glossary
from .legal import legal_commands as _legal
from .legal import to_act as _to_act
from .state import Phase, State, winners
from .view import HighCardView
from .view import full_view as _full_view
from .view import hidden_values as _hidden

__all__ = [
    "DECK",
    "GAME",
    "GAME_TYPE",
    "HAND",
    "ROUNDS",
    "CardDrawn",
    "CardsDealt",
    "Command",
    "DeckShuffled",
    "Draw",
    "Event",
    "GameEnded",
    "HighCard",
    "Pass",
    "Passed",
    "Phase",
    "PlayCard",
    "RoundWon",
    "State",
    "card_name",
    "value",
]


class HighCard(GameBase[State, Command, Event]):
    name: ClassVar[str] = "high-card"
    title: ClassVar[str] = "High Card (demo)"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", 2, (2, 3, 4), "Players"),
    )
    command_types: ClassVar[tuple[type, ...]] = COMMAND_TYPES
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    horizon_events: ClassVar[tuple[type, ...]] = HORIZON_EVENTS
    bot_names: ClassVar[tuple[str, ...]] = ("Ada", "Bert", "Cleo", "Dev")

    def seat_count(self, options: Options) -> int:
        return int(options["players"])

    def seat_labels(self, options: Options) -> tuple[str, ...]:
        return tuple(f"Player {i + 1}" for i in range(self.seat_count(options)))

    def initial_state(self, options: Options) -> State:
        n = int(options["players"])
        return State(players=n, hands=((),) * n, scores=(0,) * n)

    def setup(self, state: State, ctx: Context) -> Sequence[Event]:
        return _setup(state, ctx)

    def fork_reshuffle(self, state: State, ctx: Context) -> Sequence[Event]:
        return _fork_reshuffle(state, ctx)

    def decide(self, state: State, seat: Seat, command: Command, ctx: Context) -> Sequence[Event]:
        return _decide(state, seat, command, ctx)

    def evolve(self, state: State, event: Event) -> State:
        return _evolve(state, event)

    def is_terminal(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def to_act(self, state: State) -> frozenset[Seat]:
        return _to_act(state)

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        return _legal(state, seat)

    def result(self, state: State) -> Result | None:
        if state.phase is not Phase.OVER:
            return None
        return Result(
            state.scores,
            winners(state.scores),
            _summary(state.scores),
            tuple(
                Standing.of(f"Player {s + 1}", s, (ScoreLine("Rounds won", v),))
                for s, v in enumerate(state.scores)
            ),
        )

    def full_view(self, state: State) -> HighCardView:
        return _full_view(state)

    def hidden_values(self, state: State, viewer: Viewer) -> frozenset[str]:
        return _hidden(state, viewer)

    def narrate(self, event: Event, names: Names) -> str | None:
        return _narrate(event, names)

    def glossary(self) -> dict[str, GlossaryEntry]:
        return _glossary()


GAME = HighCard()
GAME_TYPE = GameType(GAME, bots=BOTS, demo=True)
