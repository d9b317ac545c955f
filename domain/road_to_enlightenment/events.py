"""Events of Road to Enlightenment. The wire name of each is its class name.

Events are small state deltas: every rule decision is taken in ``decide`` and written here,
every random outcome included, so ``evolve`` is a plain fold. Card movements carry a
visibility (``vis``): ``public``, ``owner`` (the seat only) or ``server`` (nobody; e.g. deck
orders).
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import attrs

from ..secrets import event, secret
from ..simultaneous import ChoiceCommitted, ChoicesRevealed
from ..viewers import Viewer
from .state import Combat, Stage, StageKind

__all__ = [
    "EVENT_TYPES",
    "ActionDeclared",
    "CensusJoined",
    "CensusResolved",
    "ChitsPlaced",
    "CitiesAbandoned",
    "CityTaken",
    "CoinsChanged",
    "CombatResolved",
    "CombatSet",
    "CursorSet",
    "DiceRolled",
    "DieRerolled",
    "DiplomacyChanged",
    "DraftOwed",
    "DraftPickForgone",
    "Event",
    "ExtraPickGranted",
    "GameEnded",
    "LuminariesMoved",
    "MarkerMoved",
    "MedallionTaken",
    "NationsAssigned",
    "OffersRevealed",
    "PileShuffled",
    "PlayerEliminated",
    "PowerUsed",
    "PrestigeChanged",
    "ReligionShifted",
    "ScoringApplied",
    "ShortfallSet",
    "SlotPlanned",
    "StackRevealed",
    "StacksLocked",
    "StageSet",
    "TurnBegan",
    "TurnOrderSet",
]


def _moved_visible(e: LuminariesMoved, viewer: Viewer) -> bool:
    """``vis``: public cards for everyone, ``owner`` cards for their seat, ``server`` none."""
    return e.vis == "public" or (e.vis == "owner" and viewer.sees_seat(e.seat))


def _stage_visible(e: StageSet, viewer: Viewer) -> bool:
    return e.stage.kind != StageKind.ACCEPT or viewer.seat in (e.stage.seat, e.stage.other)


def _stage_blank(e: StageSet) -> Stage:
    return attrs.evolve(e.stage, data="")  # the offers stay between the two


@event
class NationsAssigned:
    """Seat i plays ``nations[i]``; the table order of the nations is the starting turn order.

    ``method`` is ``SEATS`` (the seat was the choice) or ``RANDOM`` (a recorded permutation).
    """

    nations: tuple[str, ...]
    method: str = "SEATS"


@event
class ChitsPlaced:
    """The face-up event chit of each turn (index 0 = turn 1)."""

    chits: tuple[str, ...]


@event
class PileShuffled:
    """A lesser deck or a favorite pool is shuffled. ``cards`` (the order) is server-only."""

    pile: str
    cards: tuple[str, ...] | None = secret()
    count: int


@event
class LuminariesMoved:
    """Cards move between zones. ``seat`` owns the player zones named (-1: none).

    Zones: ``hand``, ``deck`` (taken from the top, added at the bottom), ``discard``,
    ``mat``, ``aside``, ``slot1``..``slot3``, ``peek``, ``defense`` (the defending stack),
    ``box`` (public), ``vault`` (the box, unseen), ``row:COLOR``, ``pile:COLOR``,
    ``fav:POOL``. ``vis`` is ``public``, ``owner`` or ``server``.
    """

    seat: int
    cards: tuple[str, ...] | None = secret(visible=_moved_visible)
    count: int
    src: str
    dst: str
    vis: str
    reason: str = ""


@event(private_to="seat")
class SlotPlanned:
    """Phase 1: ``seat`` tentatively puts ``card`` in slot 1..3 (0 = back in hand). Secret."""

    seat: int
    card: str
    slot: int


@event
class StacksLocked:
    """Everyone has committed: the planned stacks go face down; their sizes are public."""

    counts: tuple[tuple[int, ...], ...]


@event
class StackRevealed:
    seat: int
    slot: int
    cards: tuple[str, ...]


@event
class ActionDeclared:
    seat: int
    slot: int
    action: str
    card: str | None = None
    enhancement: str | None = None
    target: str | None = None
    route: str | None = None
    victim: int = -1


@event
class CoinsChanged:
    seat: int
    delta: int
    reason: str


@event
class PrestigeChanged:
    seat: int
    delta: int
    reason: str


@event
class DiplomacyChanged:
    a: str
    b: str
    status: str
    """ALLY (blue cube), WAR (red cube) or NONE."""
    reason: str = ""


@event
class StageSet:
    """The game now waits for this decision."""

    stage: Stage = secret(visible=_stage_visible, blank_from=_stage_blank)
    """An exchange's ``accept`` stage holds the offers: only its two players see them."""


@event
class CursorSet:
    """Which action slot is resolving (0 outside phase 2) and who is still to act in it."""

    slot: int
    queue: tuple[int, ...]


@event
class CombatSet:
    combat: Combat | None


@event
class DiceRolled:
    purpose: str
    values: tuple[int, ...]
    side: str = ""


@event
class DieRerolled:
    seat: int
    reason: str
    index: int
    old: int
    new: int


@event
class CombatResolved:
    city: str
    attack: int
    defense: int
    winner: str
    mode: str
    """FORCE, NEGOTIATION, TRIUMPH or CANCELLED."""
    negotiation: tuple[int, ...] = ()


@event
class CityTaken:
    """``city`` now has ``occupant``'s disk (None: vacant, controlled by its home)."""

    city: str
    occupant: str | None
    reason: str = "conquest"


@event
class CitiesAbandoned:
    seat: int
    cities: tuple[str, ...]


@event
class MarkerMoved:
    seat: int
    track: str
    to: int
    locked: bool
    cause: str
    wrapped: int = 0


MedallionHow = Literal["CROSS", "LAND", "BUMP", "ELIMINATION"]
"""How a medallion changes hands: a marker crosses or lands on its space, a bumping marker
steals it, or its holder is eliminated and it goes back to its space."""


@event
class MedallionTaken:
    """``seat`` takes ``medallion`` (-1: it returns to its printed space)."""

    medallion: str
    seat: int
    how: MedallionHow


@event
class ReligionShifted:
    to: int
    toward: str
    wraps: int = 0


@event
class CensusJoined:
    seat: int


@event
class CensusResolved:
    kind: str
    contributions: tuple[tuple[int, int], ...]
    steps: tuple[tuple[int, int], ...] = ()


@event
class OffersRevealed:
    """The two sealed exchange offers, shown to the two players only (None: no card)."""

    seat: int
    offer: str | None = secret(owners=("seat", "other"))
    other: int
    other_offer: str | None = secret(owners=("seat", "other"))
    hidden: bool = secret(owners=("seat", "other"), blank=True, default=False)
    """True in the redacted form that everyone else receives."""


@event
class ShortfallSet:
    shortfall: tuple[int, ...]


@event
class TurnOrderSet:
    order: tuple[int, ...]
    bids: tuple[tuple[int, int], ...]


@event
class ScoringApplied:
    deltas: tuple[tuple[int, int], ...]


@event
class PlayerEliminated:
    seat: int
    cause: str


@event
class ExtraPickGranted:
    seat: int


@event
class DraftOwed:
    owed: tuple[int, ...]


@event
class DraftPickForgone:
    seat: int


@event
class PowerUsed:
    seat: int
    power: str


@event
class TurnBegan:
    turn: int


@event
class GameEnded:
    scores: tuple[int, ...]
    ranking: tuple[int, ...]


Event: TypeAlias = (
    NationsAssigned
    | ChitsPlaced
    | PileShuffled
    | LuminariesMoved
    | SlotPlanned
    | ChoiceCommitted
    | ChoicesRevealed
    | StacksLocked
    | StackRevealed
    | ActionDeclared
    | CoinsChanged
    | PrestigeChanged
    | DiplomacyChanged
    | StageSet
    | CursorSet
    | CombatSet
    | DiceRolled
    | DieRerolled
    | CombatResolved
    | CityTaken
    | CitiesAbandoned
    | MarkerMoved
    | MedallionTaken
    | ReligionShifted
    | CensusJoined
    | CensusResolved
    | OffersRevealed
    | ShortfallSet
    | TurnOrderSet
    | ScoringApplied
    | PlayerEliminated
    | ExtraPickGranted
    | DraftOwed
    | DraftPickForgone
    | PowerUsed
    | TurnBegan
    | GameEnded
)
"""Every event of the game (``EVENT_TYPES`` as a type)."""

EVENT_TYPES: tuple[type[Event], ...] = (
    NationsAssigned,
    ChitsPlaced,
    PileShuffled,
    LuminariesMoved,
    SlotPlanned,
    ChoiceCommitted,
    ChoicesRevealed,
    StacksLocked,
    StackRevealed,
    ActionDeclared,
    CoinsChanged,
    PrestigeChanged,
    DiplomacyChanged,
    StageSet,
    CursorSet,
    CombatSet,
    DiceRolled,
    DieRerolled,
    CombatResolved,
    CityTaken,
    CitiesAbandoned,
    MarkerMoved,
    MedallionTaken,
    ReligionShifted,
    CensusJoined,
    CensusResolved,
    OffersRevealed,
    ShortfallSet,
    TurnOrderSet,
    ScoringApplied,
    PlayerEliminated,
    ExtraPickGranted,
    DraftOwed,
    DraftPickForgone,
    PowerUsed,
    TurnBegan,
    GameEnded,
)

HORIZON_EVENTS: tuple[type, ...] = (
    # set-up and shuffles
    NationsAssigned,
    ChitsPlaced,
    PileShuffled,
    # secret choices and stacks come to light
    ChoicesRevealed,
    StacksLocked,
    StackRevealed,
    OffersRevealed,
    TurnOrderSet,
    # dice
    DiceRolled,
    DieRerolled,
    CombatResolved,
    # a turn or the game closes
    ScoringApplied,
    PlayerEliminated,
    TurnBegan,
    GameEnded,
)
"""Information horizons (``domain.undo``) by type; ``luminaries_horizon`` adds the card
moves that show a card to somebody who did not see it."""

_OWNER_ZONES = frozenset({"hand", "slot1", "slot2", "slot3", "peek", "aside"})
_PUBLIC_ZONES = frozenset({"discard", "mat", "box"})


def luminaries_horizon(event: LuminariesMoved) -> bool:
    """A draw or peek (out of a zone its owner does not see), or a card of a hand or slot
    shown to the table."""
    src = event.src
    public = src in _PUBLIC_ZONES or src.startswith("row:")
    if not public and src not in _OWNER_ZONES:
        return event.vis != "server"  # out of a deck, a pile, a pool, the box unseen
    return src in _OWNER_ZONES and event.vis == "public"


def is_horizon(event: object) -> bool:
    if isinstance(event, LuminariesMoved):
        return luminaries_horizon(event)
    return isinstance(event, HORIZON_EVENTS)
