"""Campus Galli as a game of the platform contract."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..errors import InvalidOptions
from ..game import GameBase, Options, OptionSpec, Result
from ..narration import GlossaryEntry, Names, ScoreLine, Standing
from ..randomness import Context
from ..viewers import Seat, Viewer
from . import view as _view
from .commands import COMMAND_TYPES, Command
from .content import ACTIONS, COLOURS, PLAN, SECTIONS, TABLES, TASKS
from .decide import advance
from .decide import decide as _decide
from .describe import narrate as _narrate
from .describe import prompt as _prompt
from .describe import summary as _summary
from .events import (
    EVENT_TYPES,
    HORIZON_EVENTS,
    ActionPileFormed,
    Event,
    GameStarted,
    SectionTaken,
    StartingTileDrawn,
    TaskDeckShuffled,
    UnfinishedPileFormed,
)
from .evolve import evolve as _evolve
from .geometry import components
from .glossary import WORDS, build_glossary
from .legal import legal_commands as _legal
from .legal import to_act as _to_act
from .queries import ALL_LETTERS, popcount, tile_set_points, uncovered_wooden
from .state import PILES, Phase, Player, State

__all__ = ["CampusGalli"]

LEVEL_NAMES = {1: "Ora et Labora", 2: "Libri et Hospites", 3: "Eventus et Periculi"}


class CampusGalli(GameBase[State, Command, Event]):
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

    def is_horizon(self, event: Event) -> bool:
        """Information horizons (``domain.undo``): ``HORIZON_EVENTS``, and a section taken
        from the bag (a blind draw)."""
        if isinstance(event, SectionTaken):
            return event.source == "bag"
        return isinstance(event, HORIZON_EVENTS)

    # Monks of St Gall, from its annals.
    bot_names: ClassVar[tuple[str, ...]] = (
        "Brother Notker",
        "Brother Tuotilo",
        "Brother Ratpert",
        "Brother Wolfcoz",
    )

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

    def setup(self, state: State, ctx: Context) -> Sequence[Event]:
        rng = ctx.rng
        level, n = state.level, state.n
        tasks = rng.shuffled(sorted(t for t, c in TASKS.items() if c.level <= level))
        events: list[Event] = [TaskDeckShuffled(len(tasks), tasks)]
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

    def full_view(self, state: State) -> _view.CampusView:
        return _view.full_view(state, _prompt)

    def hidden_values(self, state: State, viewer: Viewer) -> frozenset[str]:
        return _view.hidden_values(state, viewer)

    def result(self, state: State) -> Result | None:
        if state.phase is not Phase.OVER:
            return None
        scores = state.final_scores
        summary = _summary(state.mode, scores, state.team_score, state.pigment, state.outcome)
        standings = [
            Standing.of(f"Monk {s + 1}", s, _score_lines(state, s)) for s in range(state.n)
        ]
        if state.cooperative:
            success = state.outcome != "try again"
            winners = tuple(range(state.n)) if success else ()
            team = Standing.of("The team", None, _team_lines(state, scores))
            return Result(scores, winners, summary, (*standings, team))
        top = max(scores)
        winners = tuple(s for s, v in enumerate(scores) if v == top)
        return Result(scores, winners, summary, tuple(standings))

    def narrate(self, event: Event, names: Names) -> str | None:
        return _narrate(event, names)

    def glossary(self) -> dict[str, GlossaryEntry]:
        return dict(_GLOSSARY)


_GLOSSARY = build_glossary()


def _fork_reshuffle(state: State, ctx: Context) -> list[Event]:
    """A fork's fresh randomness: the face-down task deck, each player's face-down "this
    year" pile and, below their face-up card, the unfinished task piles are shuffled again.
    Hands, "next year" piles, the bag (drawn from at random when drawn) and everything on
    the table stay."""
    rng = ctx.rng
    out: list[Event] = []
    if len(state.task_deck) > 1:
        out.append(TaskDeckShuffled(len(state.task_deck), rng.shuffled(state.task_deck)))
    for seat, p in enumerate(state.players):
        if len(p.this_year) > 1:
            out.append(ActionPileFormed(seat, len(p.this_year), rng.shuffled(p.this_year)))
    for pile, cards in zip(PILES, state.unfinished, strict=True):
        if len(cards) > 2:
            order = (cards[0], *rng.shuffled(cards[1:]))
            out.append(UnfinishedPileFormed(pile, len(order), order[0], order))
    return out


def _score_lines(state: State, seat: Seat) -> tuple[ScoreLine, ...]:
    """A player's points as the level's scoring section counts them (same sums as
    ``player_score``)."""
    label = WORDS.raw["scoring"]
    p = state.players[seat]
    mine = [m for m in state.monks if m.owner == seat]
    builders = sum(1 for m in mine if m.kind in ("section", "grass"))
    guests = sum(1 for m in mine if m.kind == "guest")
    lazy = sum(1 for m in mine if m.kind == "lazy")
    lines = [ScoreLine(label["master_builders"], builders)]
    if state.level > 1:
        lines.append(ScoreLine(label["guest_monks"], guests))
    lines += [
        ScoreLine(label["lazy_monks"], -lazy),
        ScoreLine(label["seals"], sum(TASKS[c].seals for c in p.fulfilled)),
    ]
    if state.level > 1:
        halves = sum(TASKS[c].half_seals for c in p.fulfilled)
        halves += sum(1 for b in p.library if not ACTIONS[b].monastery_plan)
        plan = sum(1 for b in p.library if ACTIONS[b].monastery_plan)
        lines += [
            ScoreLine(label["halves"], halves // 2, f"{halves} halves"),
            ScoreLine(label["plan_book"], plan),
        ]
        if state.level == 3:
            lines.append(ScoreLine(label["good_coop"], p.good_coop))
        lines.append(ScoreLine(label["tile_sets"], tile_set_points(p.tiles)))
    return tuple(lines)


def _team_lines(state: State, scores: tuple[int, ...]) -> tuple[ScoreLine, ...]:
    """The cooperative modifiers on top of the players' points (same sum as team_score)."""
    label = WORDS.raw["scoring"]
    big = [k for k in components(uncovered_wooden(state)) if popcount(k) >= 4]
    parchment = [b for b in ALL_LETTERS if b not in state.construction]
    lines = [
        ScoreLine(label["players"], sum(scores)),
        ScoreLine(label["large_gaps"], -3 * len(big), f"{len(big)} × -3"),
        ScoreLine(label["parchment"], -6 * len(parchment), f"{len(parchment)} × -6"),
    ]
    if state.level == 3:
        lines.append(ScoreLine(label["collapses"], -len(state.reminders)))
        complete = not parchment and not uncovered_wooden(state)
        lines.append(ScoreLine(label["complete"], 5 if complete else 0))
    return tuple(lines)
