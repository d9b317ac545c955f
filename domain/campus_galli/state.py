"""The game state: small frozen values rebuilt by folding events."""

from __future__ import annotations

import enum

import attrs

from ..simultaneous import SecretChoices
from ..values import replace
from ..viewers import Seat
from .content import COLOURS

__all__ = ["PILES", "EventPrompt", "Monk", "Phase", "Player", "Stage", "State", "Turn"]

CI = {c: i for i, c in enumerate(COLOURS)}

PILES = ("R", "B", "G", "Y")
"""The unfinished-tasks board's piles, in the order of ``State.unfinished``."""


def add_tiles(tiles: tuple[int, ...], colours: tuple[str, ...], sign: int = 1) -> tuple[int, ...]:
    out = list(tiles)
    for c in colours:
        out[CI[c]] += sign
    return tuple(out)


class Phase(enum.StrEnum):
    """Where the round is. The values are the names views and stored logs have always used."""

    SETUP = "setup"
    ROUND_START = "round_start"
    FILL = "fill"
    """Revealing tasks until the board is full, then drawing action cards."""
    EVENT = "event"
    """An event (or a feast or study day) waits for answers."""
    SELECT = "select"
    """Every player secretly selects an action card."""
    TURNS = "turns"
    SPECIAL = "special"
    """Level II+: special actions in turn order."""
    SCORING = "scoring"
    OVER = "over"


class Stage(enum.StrEnum):
    """Where a turn (``Turn.stage``) is."""

    SOURCE = "source"
    """A double-coloured card chooses between the prayer pouch and the builders' hut."""
    ACT = "act"
    HUT = "hut"
    """Only a queued turn's start: a double card that chose the hut, acting at its large
    number; the turn then runs as ``ACT`` with the hut as its source."""
    BEG = "beg"
    PLACE = "place"
    FLIP = "flip"
    LAZY = "lazy"
    """The lay is done: the new empty spaces are checked for lazy monks."""
    LAZY_MONK = "lazy_monk"
    """A lazy monk is owed and the player names which own monk lies down (DD-16)."""
    RESCORE = "rescore"
    EXCHANGE = "exchange"
    ALMS = "alms"
    END = "end"


@attrs.frozen(slots=False)  # a dict, not slots: domain.values.replace copies it in one update
class Monk:
    owner: Seat
    kind: str  # section | grass | guest | lazy
    section: str = ""
    building: str = ""
    gap: int = 0  # lazy: mask of the empty space's cells
    marker: bool = False  # lazy monk recorded without a piece (DD-16)


@attrs.frozen(slots=False)
class Player:
    this_year: tuple[str, ...] = ()
    next_year: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    selected: str | None = None
    used: tuple[str, ...] = ()
    library: tuple[str, ...] = ()
    guests: tuple[str, ...] = ()
    fulfilled: tuple[str, ...] = ()
    good_coop: int = 0
    tiles: tuple[int, ...] = (0, 0, 0, 0)
    supply: int = 15
    passed: bool = False
    begged: bool = False


@attrs.frozen(slots=False)
class Turn:
    """Scratch for the turn in progress (an action turn or one special action)."""

    seat: Seat
    card: str  # the card being performed ("" for a special action)
    stage: Stage
    key: int = 0  # the card number this turn runs at
    selected: str = ""  # the card played this round (differs from card for unfinished tasks)
    free: bool = False  # an unfinished-tasks card already paid for this action
    source: str = ""
    holding: str = ""  # section taken and not yet laid
    moving: str = ""  # reconstruction: the section being moved
    via: str = "action"  # action | special | reconstruct
    laid: tuple[tuple[str, int], ...] = ()  # (section, cell mask) laid this turn
    completed: tuple[str, ...] = ()
    received: frozenset[str] = frozenset()
    book: bool = False
    person_areas: frozenset[str] = frozenset()
    flips: int = 0
    before: tuple[int, ...] = ()  # empty spaces before the lay (component masks)
    rescore_left: int = 0
    rescored: tuple[str, ...] = ()
    owed: tuple[int, ...] = ()  # lazy monks still to place: the gaps' cell masks, in order


@attrs.frozen(slots=False)
class EventPrompt:
    """An event (or feast/study day) waiting for answers from ``queue`` (priority order)."""

    card: str
    kind: str
    queue: tuple[Seat, ...]
    dice: tuple[tuple[Seat, tuple[str, ...]], ...] = ()
    target: str = ""
    prevented: bool = False
    successes: int = 0


@attrs.frozen(slots=False)
class State:
    level: int
    n: int
    mode: str
    phase: Phase = Phase.SETUP
    round_no: int = 0
    year: int = 1
    players: tuple[Player, ...] = ()
    construction: frozenset[str] = frozenset()
    placed: tuple[tuple[str, int], ...] = ()  # (section, cell mask), in laying order
    cover: int = 0
    monks: tuple[Monk, ...] = ()
    cordon: str = ""
    hut: frozenset[str] = frozenset()
    bag: frozenset[str] = frozenset()
    box: tuple[str, ...] = ()
    task_deck: tuple[str, ...] = ()
    board: tuple[tuple[str, str], ...] = ()  # (card, status open|brown|event|halt|taken)
    task_discard: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()
    reminders: tuple[str, ...] = ()
    tile_supply: tuple[int, ...] = (0, 0, 0, 0)
    unfinished: tuple[tuple[str, ...], ...] = ((), (), (), ())
    choices: SecretChoices = SecretChoices(frozenset())
    queue: tuple[tuple[int, Seat, Stage], ...] = ()
    """Action turns still to run: (card number, seat, SOURCE | ACT | HUT), in order."""
    beg_queue: tuple[tuple[int, Seat], ...] = ()
    order: tuple[Seat, ...] = ()
    priority: tuple[Seat, ...] = ()
    turn: Turn | None = None
    special_order: tuple[Seat, ...] = ()
    special_next: int = 0
    event: EventPrompt | None = None
    last_dice: tuple[str, ...] = ()
    final_scores: tuple[int, ...] = ()
    team_score: int = 0
    pigment: str = ""
    outcome: str = ""
    qualified: bool = False

    def player(self, seat: Seat) -> Player:
        return self.players[seat]

    def with_player(self, seat: Seat, player: Player) -> State:
        players = (*self.players[:seat], player, *self.players[seat + 1 :])
        return replace(self, players=players)

    @property
    def cooperative(self) -> bool:
        return self.mode == "cooperative"
