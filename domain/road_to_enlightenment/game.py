"""Road to Enlightenment as a game of the platform contract (a Decider)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar

from ..game import GameBase, Options, OptionSpec, Result
from ..narration import GlossaryEntry, Names, ScoreLine, Standing
from ..randomness import Context
from ..viewers import Seat, Viewer
from .commands import COMMAND_TYPES, Command
from .content import content
from .decide import decide
from .describe import QUIET, final_lines
from .describe import narrate as _narrate
from .describe import prompt as _prompt
from .describe import summary as _summary
from .events import EVENT_TYPES, Event
from .events import is_horizon as _is_horizon
from .evolve import evolve
from .glossary import build_glossary
from .legal import legal_commands, to_act
from .setup import fork_reshuffle_events, setup_events
from .state import State
from .view import RoadView, full_view, hidden_values

__all__ = ["RoadToEnlightenment"]


class RoadToEnlightenment(GameBase[State, Command, Event]):
    name: ClassVar[str] = "road-to-enlightenment"
    title: ClassVar[str] = "Road to Enlightenment"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", 3, (2, 3, 4, 5, 6, 7), "Players"),
        OptionSpec(
            "length",
            "short",
            ("short", "long"),
            "Length",
            "short: 5 turns, scored after turn 5; long: 9 turns, scored after turns 5 and 9",
        ),
        OptionSpec(
            "nations",
            "seats",
            ("seats", "random"),
            "Nations",
            "seats: choose a nation by choosing its seat; random: nations are dealt to the seats "
            "at random when the game starts",
        ),
    )
    command_types: ClassVar[tuple[type, ...]] = COMMAND_TYPES
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES
    quiet_events: ClassVar[tuple[type, ...]] = QUIET

    def is_horizon(self, event: Event) -> bool:
        """Information horizons (``domain.undo``): ``events.is_horizon``."""
        return _is_horizon(event)

    # Envoys and ministers of the age, none of them a luminary card.
    bot_names: ClassVar[tuple[str, ...]] = (
        "Marquis de Bonnac",
        "Count Harrach",
        "Madame de Lambert",
        "Baron Kaunitz",
        "Chancellor Zamoyski",
        "Lord Chesterfield",
        "Prince Golitsyn",
    )

    def seat_count(self, options: Options) -> int:
        return int(options["players"])

    def seat_labels(self, options: Options) -> tuple[str, ...]:
        n = int(options["players"])
        if options.get("nations", "seats") == "random":
            return tuple(f"Player {i + 1}" for i in range(n))  # the nation is dealt at setup
        c = content()
        return tuple(c.nations[x].name for x in c.nations_for(n))

    def initial_state(self, options: Options) -> State:
        length = str(options.get("length", "short"))
        final = int(content().rules["turns"][length])
        return State(
            players_n=int(options.get("players", 3)),
            length=length,
            final_turn=final,
            nations=str(options.get("nations", "seats")),
        )

    def setup(self, state: State, ctx: Context) -> Sequence[Event]:
        return setup_events(state, ctx.rng)

    def fork_reshuffle(self, state: State, ctx: Context) -> Sequence[Any]:
        return fork_reshuffle_events(state, ctx.rng)

    # -- deciding ---------------------------------------------------------------------------
    def decide(self, state: State, seat: Seat, command: Command, ctx: Context) -> Sequence[Event]:
        return decide(state, seat, command, ctx.rng)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    # -- queries ----------------------------------------------------------------------------
    def is_terminal(self, state: State) -> bool:
        return state.over

    def to_act(self, state: State) -> frozenset[Seat]:
        return to_act(state)

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        return legal_commands(state, seat)

    def result(self, state: State) -> Result | None:
        if not state.over:
            return None
        scores = tuple(p.score for p in state.players)
        winner = state.ranking[0]
        labels = self.table_labels(state, ())
        standings = tuple(
            Standing.of(labels[s], s, (ScoreLine(k, v) for k, v in final_lines(state, s)))
            for s in state.ranking
        )
        return Result(scores, (winner,), _summary(scores, state.ranking, labels), standings)

    def table_labels(self, state: State, labels: tuple[str, ...]) -> tuple[str, ...]:
        """Each seat by its nation once they are assigned (random nations are dealt at set-up,
        the seats having been "Player 1" … until then)."""
        if not state.players:
            return labels
        c = content()
        return tuple(c.nations[p.nation].name for p in state.players)

    def full_view(self, state: State) -> RoadView:
        return full_view(state, _prompt)

    def hidden_values(self, state: State, viewer: Viewer) -> frozenset[str]:
        return hidden_values(state, viewer)

    def narrate(self, event: Event, names: Names) -> str | None:
        return _narrate(event, names)

    def glossary(self) -> dict[str, GlossaryEntry]:
        return dict(_glossary())


@cache
def _glossary() -> dict[str, GlossaryEntry]:
    return build_glossary()
