"""Illumination as a game of the platform contract."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..errors import InvalidOptions
from ..game import GameBase, Options, OptionSpec, Result
from ..narration import GlossaryEntry, Names, ScoreLine, Standing
from ..randomness import Context, Rng
from ..viewers import Seat, Viewer
from . import events as ev
from .commands import COMMAND_TYPES, Command
from .content import CONTENT
from .decide import decide as _decide
from .decide import decide_turn
from .describe import narrate as _narrate
from .describe import prompt as _prompt
from .describe import summary as _summary
from .evolve import apply
from .glossary import WORDS, build_glossary
from .legal import legal_commands as _legal
from .legal import legal_segments as _segments
from .scoring import breakdown as _breakdown
from .state import PHASE_OVER, PHASE_PLAY, Mode, Player, State
from .turn import Turn
from .view import IlluminationView
from .view import full_view as _full_view
from .view import hidden_values as _hidden

__all__ = ["GAME", "Illumination"]

SIDE_OPTION = {"reverent": 0, "irreverent": 1}


def _marker_choices() -> tuple[str, ...]:
    """Every legal placement of the Monk's difficulty markers, as the marker count on each
    Battle card in canonical order (AD, KD, MR, DS): "Assign 1-4 Markers" at most one per
    card, or 5-8 with every card holding one or two (reference §1.2, D-37)."""
    out = []
    for n in range(16):
        bits = [(n >> (3 - i)) & 1 for i in range(4)]
        if any(bits):
            out.append("".join(map(str, bits)))
    for n in range(1, 16):
        out.append("".join(str(1 + ((n >> (3 - i)) & 1)) for i in range(4)))
    return ("random", *sorted(out, key=lambda c: (sum(map(int, c)), c)))


def _mode(options: Options) -> Mode:
    return Mode(str(options.get("mode", Mode.DUEL)))


MARKER_CHOICES = _marker_choices()
SOLO: tuple[tuple[str, str], ...] = (("mode", "solo"),)
"""The options against the Mystic Monk mean nothing in a duel (see OptionSpec.applies_when)."""


class Illumination(GameBase[State, Command, ev.Event]):
    name: ClassVar[str] = "illumination"
    title: ClassVar[str] = "Illumination"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "mode", "duel", ("duel", "solo"), "Mode", "Two players, or solo vs the Mystic Monk"
        ),
        OptionSpec(
            "side",
            "reverent",
            ("reverent", "irreverent"),
            "Your side (solo)",
            "The solo player's side; the Reverent side always starts",
            SOLO,
        ),
        OptionSpec(
            "difficulty",
            2,
            (1, 2, 3, 4, 5, 6, 7, 8),
            "Difficulty (solo)",
            "Mystic Monk markers on Battle cards: 1 Postulant … 4 Master, 5-8 harder",
            SOLO,
        ),
        OptionSpec(
            "markers",
            "random",
            MARKER_CHOICES,
            "Monk's markers (solo)",
            "Markers per Battle card in order Angels/Demons, Knights/Dragons, Monks/Rabbits, "
            "Dogs/Squirrels (e.g. 1100), adding up to the difficulty; or random",
            SOLO,
        ),
        OptionSpec(
            "books",
            "standard",
            ("standard", "random"),
            "Book arrangement",
            "standard: 1A, 2A, 3A; random: random order and sides, recorded",
        ),
    )
    command_types: ClassVar[tuple[type, ...]] = COMMAND_TYPES
    event_types: ClassVar[tuple[type, ...]] = ev.EVENT_TYPES

    def is_horizon(self, event: ev.Event) -> bool:
        """Information horizons (``domain.undo``): ``events.is_horizon``."""
        return ev.is_horizon(event)

    bot_names: ClassVar[tuple[str, ...]] = (
        "Brother Anselm",
        "Sister Ende",
        "Brother Eadfrith",
        "Sister Guda",
    )

    def check_options(self, options: Options) -> None:
        if options.get("mode", Mode.DUEL) not in tuple(Mode):
            raise InvalidOptions("mode must be duel or solo")
        markers = str(options.get("markers", "random"))
        difficulty = int(options.get("difficulty", 2))
        if markers != "random" and sum(map(int, markers)) != difficulty:
            raise InvalidOptions(
                f"markers {markers} place {sum(map(int, markers))} markers, but the "
                f"difficulty is {difficulty}: they must agree"
            )

    def seat_count(self, options: Options) -> int:
        return 2 if _mode(options) is Mode.DUEL else 1

    def seat_labels(self, options: Options) -> tuple[str, ...]:
        if _mode(options) is Mode.DUEL:
            return CONTENT.side_names
        return (CONTENT.side_names[SIDE_OPTION[str(options.get("side", "reverent"))]],)

    def initial_state(self, options: Options) -> State:
        mode = _mode(options)
        human_side = SIDE_OPTION[str(options.get("side", "reverent"))] if mode is Mode.SOLO else 0
        players = []
        for side in (0, 1):
            human = mode is Mode.DUEL or side == human_side
            if human:
                players.append(
                    Player(
                        side=side,
                        human=True,
                        coins=CONTENT.starting_coins[side],
                        markers=CONTENT.markers_per_side,
                        boxed=CONTENT.tile_ids[side],
                        card_box=CONTENT.cards[side],
                    )
                )
            else:
                players.append(
                    Player(
                        side=side,
                        human=False,
                        markers=CONTENT.markers_per_side - CONTENT.monk_track_markers,
                        boxed=CONTENT.tile_ids[side],
                        card_box=CONTENT.cards[side],
                    )
                )
        return State(
            mode=mode,
            human_side=human_side,
            difficulty=int(options.get("difficulty", 2)),
            books_option=str(options.get("books", "standard")),
            markers_option=str(options.get("markers", "random")),
            players=(players[0], players[1]),
            supply=(CONTENT.ritual_tokens_each,) * 4,
        )

    def setup(self, state: State, ctx: Context) -> Sequence[ev.Event]:
        rng = ctx.rng
        t = Turn(state, rng)
        if state.books_option == "random":
            mats = rng.shuffled(range(len(CONTENT.mats)))
            layouts = tuple(CONTENT.mats[m][rng.randint(0, 1)] for m in mats)
        else:
            layouts = CONTENT.default_arrangement
        t.emit(ev.BooksArranged(layouts, tuple(CONTENT.layouts[lid].drollery for lid in layouts)))
        blanks = [i for i, s in enumerate(CONTENT.stations) if s is None]
        t.emit(ev.AbbotPlaced(rng.choice(blanks)))
        if state.mode is Mode.SOLO:
            if state.markers_option == "random":
                counts = _difficulty_counts(state.difficulty, rng)
            else:  # the player's own placement ("Assign 1-4 Markers")
                counts = tuple(int(c) for c in state.markers_option)
            t.emit(ev.DifficultyMarkersPlaced(1 - state.human_side, counts))
        h = CONTENT.stack_height
        for side in (0, 1):
            order = rng.shuffled(CONTENT.tile_ids[side])
            stacks = tuple(tuple(order[i : i + h]) for i in range(0, len(order), h))
            t.emit(ev.TileStacksFormed(side, len(stacks), stacks))
            used = rng.sample(range(len(stacks)), 3)
            arch = tuple(tile for i in used for tile in stacks[i])
            t.emit(ev.ArchwaysFilled(side, tuple(used), arch))
            if t.state.players[side].human:
                deck = rng.shuffled(CONTENT.cards[side])
                t.emit(ev.DeckShuffled(side, len(deck), tuple(deck)))
                for _ in range(CONTENT.starting_hand):
                    t.emit(
                        ev.CardDrawn(
                            side, t.state.seat_of(side), "setup", t.state.players[side].deck[0]
                        )
                    )
                t.emit(
                    ev.CrusadeDealt(side, t.state.seat_of(side), rng.choice(CONTENT.crusades[side]))
                )
        t.start_turn(0)  # "The Reverent player always begins the game!"
        return t.events

    def fork_reshuffle(self, state: State, ctx: Context) -> Sequence[ev.Event]:
        return _fork_reshuffle(state, ctx.rng)

    def decide(
        self, state: State, seat: Seat, command: Command, ctx: Context
    ) -> Sequence[ev.Event]:
        return _decide(state, seat, command, ctx.rng)

    def decide_state(
        self, state: State, seat: Seat, command: Command, ctx: Context
    ) -> tuple[Sequence[ev.Event], State]:
        # The turn folded every event as it emitted it: its state is the replay's.
        turn = decide_turn(state, seat, command, ctx.rng)
        return turn.events, turn.state

    def evolve(self, state: State, event: ev.Event) -> State:
        return apply(state, event)

    def is_terminal(self, state: State) -> bool:
        return state.phase is PHASE_OVER

    def to_act(self, state: State) -> frozenset[Seat]:
        if state.phase is not PHASE_PLAY:
            return frozenset()
        side = state.pending.side if state.pending is not None else state.turn
        seat = state.seat_of(side)
        return _NOBODY if seat is None else _ONLY[seat]

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        return _legal(state, seat)

    def legal_segments(self, state: State, seat: Seat) -> Sequence[tuple[Command, ...]]:
        """``legal_commands`` as its runs (see ``domain.game.legal_segments``)."""
        return _segments(state, seat)

    def full_view(self, state: State) -> IlluminationView:
        seats = self.to_act(state)
        return _full_view(state, _SEATS_LISTED.get(seats) or sorted(seats), _prompt)

    def result(self, state: State) -> Result | None:
        if state.final is None:
            return None
        names = CONTENT.side_names
        human = None if state.mode is Mode.DUEL else state.human_side
        summary = _summary(state.final, state.winners, human)
        standings = tuple(
            Standing.of(
                names[side] if state.players[side].human else "the Mystic Monk",
                state.seat_of(side),
                _score_lines(state, side),
            )
            for side in (0, 1)
        )
        if human is None:
            scores = (state.final[0], state.final[1])
            return Result(scores, tuple(state.winners), summary, standings)
        mine = state.final[human]
        won = (0,) if human in state.winners else ()
        ordered = (standings[human], standings[1 - human])
        return Result((mine,), won, summary, ordered)

    def hidden_values(self, state: State, viewer: Viewer) -> frozenset[str]:
        return _hidden(state, viewer)

    def narrate(self, event: ev.Event, names: Names) -> str | None:
        return _narrate(event, names)

    def glossary(self) -> dict[str, GlossaryEntry]:
        return dict(_GLOSSARY)


_GLOSSARY = build_glossary()
_NOBODY: frozenset[Seat] = frozenset()
_ONLY = (frozenset({0}), frozenset({1}))
"""``to_act``'s answers, made once: the server asks it several times a move."""
_SEATS_LISTED: dict[frozenset[Seat], list[int]] = {s: sorted(s) for s in (_ONLY[0], _ONLY[1])}
"""The view's ``to_act`` list of each answer with a seat, one list for every state and game
(views are never mutated): the next view holds the very same list, which the hub's diff
skips by identity instead of comparing (most moves leave the seat to act as it was)."""

_CATEGORIES = ("monastery", "battle", "books", "crusade", "sheep_pen", "monk_books", "gold_leaf")


def _score_lines(state: State, side: int) -> tuple[ScoreLine, ...]:
    """Final scoring in the rulebook's order; the Mystic Monk has no Sheep Pen, a person no
    Book-completion or gold-leaf bonus."""
    points = _breakdown(state, side)
    human = state.players[side].human
    skip = {"monk_books", "gold_leaf"} if human else {"sheep_pen"}
    return tuple(
        ScoreLine(WORDS.scoring[key], value)
        for key, value in zip(_CATEGORIES, points, strict=True)
        if key not in skip
    )


def _difficulty_counts(difficulty: int, rng: Rng) -> tuple[int, ...]:
    """Which Battle cards get the Mystic Monk's markers (random, recorded; D-37)."""
    cards = list(range(4))
    if difficulty <= 4:
        chosen = set(rng.sample(cards, difficulty))
        return tuple(1 if i in chosen else 0 for i in cards)
    extra = set(rng.sample(cards, difficulty - 4))
    return tuple(2 if i in extra else 1 for i in cards)


def _fork_reshuffle(state: State, rng: Rng) -> list[ev.Event]:
    """A fork's fresh randomness: each side's face-down tile stacks mixed again and each
    Scriptorium deck shuffled. Only full stacks are face down and unknown: a shorter one is
    what a flipped stack left over, seen by everyone, and stays as it lies. Hands, Crusade
    cards and discards are known to their owners (or to all) and stay."""
    out: list[ev.Event] = []
    h = CONTENT.stack_height
    for side, p in enumerate(state.players):
        full = [i for i, st in enumerate(p.stacks) if len(st) == h]
        if len(full) > 1:
            mixed = iter(rng.shuffled([t for i in full for t in p.stacks[i]]))
            stacks = tuple(
                tuple(next(mixed) for _ in range(h)) if len(st) == h else st for st in p.stacks
            )
            out.append(ev.TileStacksFormed(side, len(full), stacks))
        if len(p.deck) > 1:
            out.append(ev.DeckShuffled(side, len(p.deck), rng.shuffled(p.deck)))
    return out


GAME = Illumination()
