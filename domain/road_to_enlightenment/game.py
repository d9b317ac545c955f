"""Road to Enlightenment as a game of the platform contract (a Decider), with its set-up (§1)
and the score sheet of its result."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar

from ..game import GameBase, Options, OptionSpec, Result
from ..narration import GlossaryEntry, Names, ScoreLine, Standing
from ..randomness import Context, Rng
from ..viewers import Seat, Viewer
from .commands import COMMAND_TYPES, Command
from .content import ANTI, CATH, COLORS, content, forbidden_color
from .decide import decide
from .describe import QUIET
from .describe import narrate as _narrate
from .describe import prompt as _prompt
from .describe import summary as _summary
from .effects import Tx
from .events import (
    EVENT_TYPES,
    ChitsPlaced,
    Event,
    LuminariesMoved,
    NationsAssigned,
    PileShuffled,
)
from .events import is_horizon as _is_horizon
from .evolve import evolve
from .glossary import build_glossary, words
from .legal import legal_commands, to_act
from .state import State, religion_of
from .turn_end import start_assign
from .view import RoadView, full_view, hidden_values

__all__ = [
    "RoadToEnlightenment",
    "final_lines",
    "fork_reshuffle_events",
    "score_parts",
    "setup_events",
]


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


def score_parts(state: State, seat: int) -> list[tuple[str, int]]:
    """The scoring of phase 4a for ``seat`` at ``state``, category by category as the
    rulebook lists it (same sum as ``turn_end.score_deltas``)."""
    label = words().raw["scoring"]
    act = list(state.order)
    p = state.players[seat]
    parts = [
        (label["foreign"], len(state.foreign(seat))),
        (
            label["lost"],
            -2 * sum(1 for c in state.home_cities(p.nation) if state.controller(c) != p.nation),
        ),
    ]
    for attr, key in (("sci", "sci"), ("art", "art")):
        pos = getattr(p, attr)
        half = 1 if 1 <= pos <= 8 else 2 if pos >= 9 else 0
        top = max(act, key=lambda q: (getattr(state.players[q], attr), -act.index(q)))
        low = pos == min(getattr(state.players[q], attr) for q in act)
        parts += [
            (label[f"{key}_half"], half),
            (label[f"{key}_top"], 2 if seat == top else 0),
            (label[f"{key}_bottom"], -1 if low else 0),
        ]
    rel = content().nations[p.nation].religion
    ours = (state.religion < 0 and rel == CATH) or (state.religion > 0 and rel == ANTI)
    parts.append((label["religion"], 2 if ours else 0))
    if p.nation == "RUS" and "STEPPE_PATIENCE" in content().nations["RUS"].powers:
        parts.append((label["steppe"], sum(1 for a in ("sci", "art") if getattr(p, a) >= 9)))
    return parts


def final_lines(state: State, seat: int) -> list[tuple[str, int]]:
    """A player's final prestige as lines that add up to it: what they held before the last
    scoring, then that scoring's categories (the final turn is always a scoring turn); a
    game ended early by elimination has no final scoring to show."""
    label = words().raw["scoring"]
    p = state.players[seat]
    if p.eliminated:
        return [(label["eliminated"], p.score)]
    scoring_turns = content().rules["scoring_turns"][state.length]
    if state.turn not in scoring_turns or state.turn < state.final_turn:
        return [(label["total"], p.score)]
    parts = score_parts(state, seat)
    delta = sum(v for _, v in parts)
    before = p.score - delta
    floor = 0
    if before < 0:  # DD-14: the scoring floors prestige at 0
        floor, before = -before, 0
    lines = [(label["before"], before), *parts]
    if floor:
        lines.append((label["floor"], floor))
    return lines


# -- set-up -----------------------------------------------------------------------------------
def setup_events(state: State, rng: Rng) -> list[Event]:
    c = content()
    tx = Tx(state, rng)
    nations = c.nations_for(state.players_n)
    if state.nations == "random":
        # "If players can't agree, assign them randomly" (§6 R1): the permutation is recorded.
        tx.emit(NationsAssigned(rng.shuffled(nations), "RANDOM"))
    else:
        tx.emit(NationsAssigned(nations))
    chit_rules = c.rules["chits"][state.length]
    chits = ["NONE"] * state.final_turn
    for t, v in chit_rules["fixed"].items():
        chits[int(t) - 1] = v
    for key, turns in (("early", chit_rules["early_turns"]), ("later", chit_rules["later_turns"])):
        if turns:
            perm = rng.shuffled(c.rules["chits"][key])
            for t, v in zip(turns, perm, strict=True):
                chits[t - 1] = v
    tx.emit(ChitsPlaced(tuple(chits)))
    lums = c.luminaries.values()
    pools = {
        "fav:PURPLE": ("PURPLE",),
        "fav:PINK": ("PINK",),
        "fav:REDBLUE": ("RED", "BLUE"),
        "fav:ORANGEGREEN": ("ORANGE", "GREEN"),
    }
    for pool, colors in pools.items():
        cards = tuple(x.id for x in lums if x.favorite and x.color in colors)
        order = rng.shuffled(cards)
        tx.emit(PileShuffled(pool, order, len(order)))
    order_seats = tx.state.order
    for step in ("religion", "fav:REDBLUE", "fav:ORANGEGREEN"):
        for seat in order_seats:
            pool = step
            if step == "religion":
                pool = "fav:PURPLE" if religion_of(tx.state, seat) == CATH else "fav:PINK"
            card = tx.state.piles[pool][0]
            tx.emit(LuminariesMoved(seat, (card,), 1, pool, "hand", "owner", "favorite dealt"))
    for pool in pools:
        rest = tx.state.piles[pool]
        tx.emit(LuminariesMoved(-1, rest, len(rest), pool, "vault", "server", "unused favorites"))
    for color in COLORS:
        cards = tuple(x.id for x in lums if not x.favorite and x.color == color)
        order = rng.shuffled(cards)
        tx.emit(PileShuffled(f"pile:{color}", order, len(order)))
    for color in COLORS:
        top = tx.state.piles[f"pile:{color}"][:2]
        tx.emit(
            LuminariesMoved(-1, top, len(top), f"pile:{color}", f"row:{color}", "public", "face up")
        )
    for seat in order_seats:
        banned = forbidden_color(religion_of(tx.state, seat))
        for color in COLORS:
            if color == banned:
                continue
            top = tx.state.piles[f"pile:{color}"][:1]
            tx.emit(LuminariesMoved(seat, top, len(top), f"pile:{color}", "hand", "owner", "deal"))
    start_assign(tx)
    return tx.events


def fork_reshuffle_events(state: State, rng: Rng) -> list[Event]:
    """A fork's fresh randomness: every lesser deck and every personal draw deck shuffled
    again (their order is secret even from the owners). The face-up rows, hands, discards,
    a Reorganize's peeked cards and the unseen favorites in the box stay."""
    tx = Tx(state, rng)
    for pile, cards in sorted(state.piles.items()):
        if len(cards) > 1:
            tx.emit(PileShuffled(pile, rng.shuffled(cards), len(cards)))
    for seat, p in enumerate(state.players):
        if len(p.deck) > 1:
            order = rng.shuffled(p.deck)
            tx.emit(LuminariesMoved(seat, order, len(order), "deck", "deck", "server", "shuffled"))
    return tx.events
