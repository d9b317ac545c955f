"""Campus Galli as a game of the platform contract."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ..errors import InvalidOptions
from ..game import GameBase, Options, OptionSpec, Result
from ..randomness import Context
from ..viewers import Seat, Viewer
from . import view as _view
from .commands import COMMAND_TYPES
from .content import ACTIONS, COLOURS, PLAN, SECTIONS, TABLES, TASKS
from .describe import describe
from .events import (
    EVENT_TYPES,
    ActionPileFormed,
    GameStarted,
    StartingTileDrawn,
    TaskDeckShuffled,
    UnfinishedPileFormed,
)
from .rules.decide import advance
from .rules.decide import decide as _decide
from .rules.evolve import evolve as _evolve
from .rules.legal import legal_commands as _legal
from .rules.legal import to_act as _to_act
from .state import Player, State

__all__ = ["CampusGalli"]

LEVEL_NAMES = {1: "Ora et Labora", 2: "Libri et Hospites", 3: "Eventus et Periculi"}


class CampusGalli(GameBase):
    name: ClassVar[str] = "campus-galli"
    title: ClassVar[str] = "Campus Galli"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "level",
            1,
            (1, 2, 3),
            "Level",
            "I Ora et Labora, II Libri et Hospites, III Eventus et Periculi",
        ),
        OptionSpec("players", 2, (1, 2, 3, 4), "Players"),
        OptionSpec(
            "mode",
            "competitive",
            ("competitive", "cooperative"),
            "Mode",
            "Solo is always cooperative",
        ),
    )
    command_types: ClassVar[tuple[type, ...]] = COMMAND_TYPES
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES

    def check_options(self, options: Options) -> None:
        if (
            int(options.get("players", 2)) == 1
            and options.get("mode", "competitive") != "cooperative"
        ):
            raise InvalidOptions(
                "solo Campus Galli is played cooperatively: choose mode 'cooperative' for 1 player"
            )

    def seat_count(self, options: Options) -> int:
        return int(options.get("players", 2))

    def seat_labels(self, options: Options) -> tuple[str, ...]:
        return tuple(f"Monk {i + 1}" for i in range(self.seat_count(options)))

    def initial_state(self, options: Options) -> State:
        level = int(options.get("level", 1))
        n = int(options.get("players", 2))
        mode = str(options.get("mode", "competitive"))
        if n == 1:
            mode = "cooperative"
        bag = frozenset(
            s for s, sec in SECTIONS.items() if sec.origin == "bag" and (level > 1 or not sec.joker)
        )
        hut = frozenset(s for s, sec in SECTIONS.items() if sec.origin == "hut")
        tiles = int(TABLES["tiles_per_colour"]) if level > 1 else 0
        return State(
            level=level,
            n=n,
            mode=mode,
            players=tuple(Player(supply=int(TABLES["monks_per_player"])) for _ in range(n)),
            construction=frozenset(PLAN.start_construction[level]),
            hut=hut,
            bag=bag,
            tile_supply=(tiles,) * 4,
        )

    def setup(self, state: State, ctx: Context) -> Sequence[Any]:
        rng = ctx.rng
        level, n = state.level, state.n
        tasks = rng.shuffled(sorted(t for t, c in TASKS.items() if c.level <= level))
        events: list[Any] = [TaskDeckShuffled(len(tasks), tasks)]
        deal = TABLES["deal"][str(level)][str(n)]
        piles: list[list[str]] = [[] for _ in range(n)]
        angels = rng.shuffled(sorted(c for c, a in ACTIONS.items() if a.level == 0))
        for seat in range(n):
            piles[seat].append(angels[seat])
        leftovers: list[str] = []
        for lvl in (1, 2, 3):
            deck = rng.shuffled(sorted(c for c, a in ACTIONS.items() if a.level == lvl))
            each = int(deal[lvl - 1])
            if lvl > level:
                continue
            for seat in range(n):
                piles[seat] += deck[seat * each : (seat + 1) * each]
            if lvl < 3:
                leftovers += deck[n * each :]
        for seat in range(n):
            pile = rng.shuffled(piles[seat])
            events.append(ActionPileFormed(seat, len(pile), pile))
        if level == 3:
            sorted_piles: dict[str, list[str]] = {c: [] for c in ("R", "B", "G", "Y")}
            kind_pile = {"red": "R", "blue": "B", "book": "G", "guest": "Y"}
            for c in sorted(leftovers):
                kind = ACTIONS[c].kind
                if kind == "double":
                    target = "R" if len(sorted_piles["R"]) <= len(sorted_piles["B"]) else "B"
                    sorted_piles[target].append(c)
                else:
                    sorted_piles[kind_pile[kind]].append(c)
            for pile_name, cards in sorted_piles.items():
                order = rng.shuffled(cards)
                events.append(
                    UnfinishedPileFormed(pile_name, len(order), order[0] if order else "", order)
                )
        if level > 1:
            supply = [state.tile_supply[i] - n for i in range(4)]
            for seat in range(n):
                physical = [c for i, c in enumerate(COLOURS) for _ in range(supply[i])]
                tile = rng.choice(physical)
                supply[COLOURS.index(tile)] -= 1
                events.append(StartingTileDrawn(seat, tile))
        events.append(GameStarted(level, n, state.mode))
        _, out = advance(state, events, ctx)
        return out

    def decide(self, state: State, seat: Seat, command: Any, ctx: Context) -> Sequence[Any]:
        return _decide(state, seat, command, ctx)

    def evolve(self, state: State, event: Any) -> State:
        return _evolve(state, event)

    def is_terminal(self, state: State) -> bool:
        return state.phase == "over"

    def to_act(self, state: State) -> frozenset[Seat]:
        return _to_act(state)

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Any]:
        return _legal(state, seat)

    def view(self, state: State, viewer: Viewer) -> Any:
        return _view.view(state, viewer)

    def redact(self, event: Any, viewer: Viewer) -> Any:
        return _view.redact(event, viewer)

    def hidden_values(self, state: State, viewer: Viewer) -> frozenset[str]:
        return _view.hidden_values(state, viewer)

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        scores = state.final_scores
        level = LEVEL_NAMES[state.level]
        if state.cooperative:
            success = state.outcome != "try again"
            winners = tuple(range(state.n)) if success else ()
            summary = (
                f"Level {state.level} ({level}), cooperative: team score {state.team_score} — "
                f"{state.pigment}, {state.outcome}"
            )
            return Result(scores, winners, summary)
        top = max(scores)
        winners = tuple(s for s, v in enumerate(scores) if v == top)
        names = ", ".join(f"Monk {s + 1}" for s in winners)
        return Result(scores, winners, f"{names} win{'s' if len(winners) == 1 else ''} with {top}")

    def describe(self, event: Any) -> str:
        return describe(event)
