"""What happened. Secret payloads are ``None`` in every redacted copy."""

from __future__ import annotations

import attrs

from ..simultaneous import ChoiceCommitted, ChoicesRevealed
from ..viewers import Seat

__all__ = ["EVENT_TYPES", "Event"]


@attrs.frozen
class TaskDeckShuffled:
    count: int
    order: tuple[str, ...] | None  # server only


@attrs.frozen
class ActionPileFormed:
    """A player's shuffled face-down "this year" pile (unknown even to its owner)."""

    seat: Seat
    count: int
    cards: tuple[str, ...] | None  # server only


@attrs.frozen
class UnfinishedPileFormed:
    pile: str
    count: int
    face_up: str
    cards: tuple[str, ...] | None  # server only


@attrs.frozen
class StartingTileDrawn:
    seat: Seat
    tile: str


@attrs.frozen
class GameStarted:
    level: int
    players: int
    mode: str


@attrs.frozen
class RoundStarted:
    round_no: int
    year: int


@attrs.frozen
class TaskRevealed:
    """The top task card; status open | brown | event | halt | discarded | set_aside."""

    card: str
    status: str


@attrs.frozen
class BuildingFlipped:
    building: str
    reason: str  # task | completion | expansion
    seat: Seat | None = None
    pay: tuple[str, ...] = ()


@attrs.frozen
class DuesPaid:
    """All tiles go back to the supply; ``kept`` (one of each colour in stock) comes back."""

    seat: Seat
    kept: tuple[str, ...] = ("R", "B", "G", "Y")


@attrs.frozen
class EventStarted:
    """An event card needs answers from ``seats`` in this order; dice are per seat."""

    card: str
    seats: tuple[Seat, ...]
    dice: tuple[tuple[str, ...], ...]
    target: str = ""


@attrs.frozen
class EventPaid:
    seat: Seat
    pay: tuple[str, ...]
    reward: str  # card | coop | monk
    building: str = ""


@attrs.frozen
class EventDeclined:
    seat: Seat
    lose: str = ""


@attrs.frozen
class EventEnded:
    card: str


@attrs.frozen
class SectionRemoved:
    section: str
    reason: str  # collapse | storm


@attrs.frozen
class ActionPileReformed:
    seat: Seat
    count: int
    cards: tuple[str, ...] | None  # server only


@attrs.frozen
class ActionCardsDrawn:
    seat: Seat
    count: int
    cards: tuple[str, ...] | None  # the seat only


@attrs.frozen
class TurnStarted:
    seat: Seat
    card: str
    stage: str  # source | act | hut | beg


@attrs.frozen
class SourceChosen:
    seat: Seat
    source: str


@attrs.frozen
class BegDeclared:
    seat: Seat


@attrs.frozen
class Begged:
    seat: Seat
    tiles: tuple[str, ...]


@attrs.frozen
class TilesExchanged:
    seat: Seat
    give: tuple[str, ...]
    take: str


@attrs.frozen
class SectionTaken:
    seat: Seat
    section: str
    source: str  # hut | bag
    pay: tuple[str, ...] = ()
    via: str = "action"  # action | special


@attrs.frozen
class SectionPlaced:
    seat: Seat
    section: str
    x: int
    y: int
    orientation: int
    cells: tuple[int, ...]


@attrs.frozen
class MonkPlaced:
    """A monk goes onto the plan. A lazy monk placed with an empty supply is the own monk
    ``replaces`` names (``kind:section-or-letter``) taken off the plan (DD-16); with
    ``replaces`` empty and no monk on the plan, a piece-less marker."""

    seat: Seat
    kind: str  # section | grass | guest | lazy
    section: str = ""
    building: str = ""
    cells: tuple[int, ...] = ()
    replaces: str = ""


@attrs.frozen
class TilesGained:
    seat: Seat
    tiles: tuple[str, ...]
    reason: str


@attrs.frozen
class BuildingCompleted:
    building: str


@attrs.frozen
class FlipDeclined:
    seat: Seat


@attrs.frozen
class GapsChecked:
    """The lazy monks this lay owes, one per new empty space of 1-3 wooden spaces.

    ``each_placed`` (every log written since the DD-16 choice): each is then placed by its own
    ``MonkPlaced``, in this order. Without it (logs written before): this event placed them
    itself, an empty supply giving up the most recently placed own monk; folding such a log
    still does exactly that, so old games replay unchanged."""

    seat: Seat
    gaps: tuple[tuple[int, ...], ...]
    each_placed: bool = False


@attrs.frozen
class BuildForfeited:
    seat: Seat


@attrs.frozen
class BookProduced:
    seat: Seat
    card: str
    pay: tuple[str, ...]


@attrs.frozen
class GuestArrived:
    seat: Seat
    card: str
    pay: tuple[str, ...]


@attrs.frozen
class CardRescored:
    seat: Seat
    card: str


@attrs.frozen
class RescoreFinished:
    seat: Seat


@attrs.frozen
class ExchangesFinished:
    """The player ends the turn after the last exchanges: the end-of-turn tasks are judged."""

    seat: Seat


@attrs.frozen
class UnfinishedTaken:
    seat: Seat
    pile: str
    card: str
    pay: tuple[str, ...]


@attrs.frozen
class TaskFulfilled:
    seat: Seat
    card: str
    pay: tuple[str, ...] = ()


@attrs.frozen
class AlmsChosen:
    seat: Seat
    tiles: tuple[str, ...]


@attrs.frozen
class TurnEnded:
    seat: Seat


@attrs.frozen
class SpecialsStarted:
    order: tuple[Seat, ...]


@attrs.frozen
class SpecialPassed:
    seat: Seat


@attrs.frozen
class CordonRemoved:
    seat: Seat
    card: str
    pay: tuple[str, ...]


@attrs.frozen
class ReconstructionStarted:
    seat: Seat
    card: str
    section: str
    pay: tuple[str, ...]


@attrs.frozen
class RoundEnded:
    round_no: int


@attrs.frozen
class GameEnded:
    scores: tuple[int, ...]
    team_score: int
    pigment: str
    outcome: str
    qualified: bool


Event = (
    TaskDeckShuffled
    | ActionPileFormed
    | UnfinishedPileFormed
    | StartingTileDrawn
    | GameStarted
    | RoundStarted
    | TaskRevealed
    | BuildingFlipped
    | DuesPaid
    | EventStarted
    | EventPaid
    | EventDeclined
    | EventEnded
    | SectionRemoved
    | ActionPileReformed
    | ActionCardsDrawn
    | ChoiceCommitted
    | ChoicesRevealed
    | TurnStarted
    | SourceChosen
    | BegDeclared
    | Begged
    | TilesExchanged
    | SectionTaken
    | SectionPlaced
    | MonkPlaced
    | TilesGained
    | BuildingCompleted
    | FlipDeclined
    | GapsChecked
    | BuildForfeited
    | BookProduced
    | GuestArrived
    | CardRescored
    | RescoreFinished
    | ExchangesFinished
    | UnfinishedTaken
    | TaskFulfilled
    | AlmsChosen
    | TurnEnded
    | SpecialsStarted
    | SpecialPassed
    | CordonRemoved
    | ReconstructionStarted
    | RoundEnded
    | GameEnded
)

EVENT_TYPES: tuple[type, ...] = (
    TaskDeckShuffled,
    ActionPileFormed,
    UnfinishedPileFormed,
    StartingTileDrawn,
    GameStarted,
    RoundStarted,
    TaskRevealed,
    BuildingFlipped,
    DuesPaid,
    EventStarted,
    EventPaid,
    EventDeclined,
    EventEnded,
    SectionRemoved,
    ActionPileReformed,
    ActionCardsDrawn,
    ChoiceCommitted,
    ChoicesRevealed,
    TurnStarted,
    SourceChosen,
    BegDeclared,
    Begged,
    TilesExchanged,
    SectionTaken,
    SectionPlaced,
    MonkPlaced,
    TilesGained,
    BuildingCompleted,
    FlipDeclined,
    GapsChecked,
    BuildForfeited,
    BookProduced,
    GuestArrived,
    CardRescored,
    RescoreFinished,
    ExchangesFinished,
    UnfinishedTaken,
    TaskFulfilled,
    AlmsChosen,
    TurnEnded,
    SpecialsStarted,
    SpecialPassed,
    CordonRemoved,
    ReconstructionStarted,
    RoundEnded,
    GameEnded,
)

HORIZON_EVENTS: tuple[type, ...] = (
    # set-up: shuffles and random tiles
    TaskDeckShuffled,
    ActionPileFormed,
    UnfinishedPileFormed,
    StartingTileDrawn,
    GameStarted,
    # a hidden card or tile comes to light, or a pile is reshuffled
    TaskRevealed,
    BuildingFlipped,
    EventStarted,
    ActionPileReformed,
    ActionCardsDrawn,
    ChoicesRevealed,
    TurnStarted,
    UnfinishedTaken,
    # a turn, a phase or a round closes
    ExchangesFinished,
    TurnEnded,
    SpecialsStarted,
    RoundStarted,
    RoundEnded,
    GameEnded,
)
"""Information horizons (``domain.undo``): what a player can never take back. Taking a
section from the bag (not the hut) draws blind: ``CampusGalli.is_horizon`` adds it."""
