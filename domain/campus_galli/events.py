"""What happened. Secret payloads are ``None`` in every redacted copy."""

from __future__ import annotations

from typing import Literal, get_args

from ..secrets import event, secret
from ..simultaneous import ChoiceCommitted, ChoicesRevealed
from ..viewers import Seat

__all__ = ["EVENT_TYPES", "Event"]

TaskStatus = Literal["open", "brown", "event", "halt", "discarded", "set_aside"]
"""What a revealed task card does: joins the board, takes effect at once (brown), starts an
event, closes a building (halt), or is discarded or set aside."""
FlipReason = Literal["task", "completion", "expansion"]
EventReward = Literal["card", "coop", "monk"]
"""What paying against an event gives: its card, a good cooperation card, another monk."""
RemovalReason = Literal["collapse", "storm"]


@event
class TaskDeckShuffled:
    count: int
    order: tuple[str, ...] | None = secret()  # server only


@event
class ActionPileFormed:
    """A player's shuffled face-down "this year" pile (unknown even to its owner)."""

    seat: Seat
    count: int
    cards: tuple[str, ...] | None = secret()  # server only


@event
class UnfinishedPileFormed:
    pile: str
    count: int
    face_up: str
    cards: tuple[str, ...] | None = secret()  # server only


@event
class StartingTileDrawn:
    seat: Seat
    tile: str


@event
class GameStarted:
    level: int
    players: int
    mode: str


@event
class RoundStarted:
    round_no: int
    year: int


@event
class TaskRevealed:
    """The top task card; status open | brown | event | halt | discarded | set_aside."""

    card: str
    status: TaskStatus


@event
class BuildingFlipped:
    building: str
    reason: FlipReason
    seat: Seat | None = None
    pay: tuple[str, ...] = ()


@event
class DuesPaid:
    """All tiles go back to the supply; ``kept`` (one of each colour in stock) comes back."""

    seat: Seat
    kept: tuple[str, ...] = ("R", "B", "G", "Y")


@event
class EventStarted:
    """An event card needs answers from ``seats`` in this order; dice are per seat."""

    card: str
    seats: tuple[Seat, ...]
    dice: tuple[tuple[str, ...], ...]
    target: str = ""


@event
class EventPaid:
    seat: Seat
    pay: tuple[str, ...]
    reward: EventReward
    building: str = ""


@event
class EventDeclined:
    seat: Seat
    lose: str = ""


@event
class EventEnded:
    card: str


@event
class SectionRemoved:
    section: str
    reason: RemovalReason


@event
class ActionPileReformed:
    seat: Seat
    count: int
    cards: tuple[str, ...] | None = secret()  # server only


@event
class ActionCardsDrawn:
    seat: Seat
    count: int
    cards: tuple[str, ...] | None = secret(owner="seat")  # the seat only


@event
class TurnStarted:
    seat: Seat
    card: str
    stage: str  # source | act | hut | beg


@event
class SourceChosen:
    seat: Seat
    source: str


@event
class BegDeclared:
    seat: Seat


@event
class Begged:
    seat: Seat
    tiles: tuple[str, ...]


@event
class TilesExchanged:
    seat: Seat
    give: tuple[str, ...]
    take: str


@event
class SectionTaken:
    seat: Seat
    section: str
    source: str  # hut | bag
    pay: tuple[str, ...] = ()
    via: str = "action"  # action | special


@event
class SectionPlaced:
    seat: Seat
    section: str
    x: int
    y: int
    orientation: int
    cells: tuple[int, ...]


@event
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


@event
class TilesGained:
    seat: Seat
    tiles: tuple[str, ...]
    reason: str


@event
class BuildingCompleted:
    building: str


@event
class FlipDeclined:
    seat: Seat


@event
class GapsChecked:
    """The lazy monks this lay owes, one per new empty space of 1-3 wooden spaces.

    ``each_placed`` (every log written since the DD-16 choice): each is then placed by its own
    ``MonkPlaced``, in this order. Without it (logs written before): this event placed them
    itself, an empty supply giving up the most recently placed own monk; folding such a log
    still does exactly that, so old games replay unchanged."""

    seat: Seat
    gaps: tuple[tuple[int, ...], ...]
    each_placed: bool = False


@event
class BuildForfeited:
    seat: Seat


@event
class BookProduced:
    seat: Seat
    card: str
    pay: tuple[str, ...]


@event
class GuestArrived:
    seat: Seat
    card: str
    pay: tuple[str, ...]


@event
class CardRescored:
    seat: Seat
    card: str


@event
class RescoreFinished:
    seat: Seat


@event
class ExchangesFinished:
    """The player ends the turn after the last exchanges: the end-of-turn tasks are judged."""

    seat: Seat


@event
class UnfinishedTaken:
    seat: Seat
    pile: str
    card: str
    pay: tuple[str, ...]


@event
class TaskFulfilled:
    seat: Seat
    card: str
    pay: tuple[str, ...] = ()


@event
class AlmsChosen:
    seat: Seat
    tiles: tuple[str, ...]


@event
class TurnEnded:
    seat: Seat


@event
class SpecialsStarted:
    order: tuple[Seat, ...]


@event
class SpecialPassed:
    seat: Seat


@event
class CordonRemoved:
    seat: Seat
    card: str
    pay: tuple[str, ...]


@event
class ReconstructionStarted:
    seat: Seat
    card: str
    section: str
    pay: tuple[str, ...]


@event
class RoundEnded:
    round_no: int


@event
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

EVENT_TYPES: tuple[type, ...] = get_args(Event)

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
