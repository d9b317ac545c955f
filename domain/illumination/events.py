"""Events: everything that happens, with every random outcome written in.

``side`` is 0 for Reverent, 1 for Irreverent. ``pos`` is a physical Book position and
``cell`` a Book square ``row * 5 + col`` (south frame). Fields marked *secret* are None in
the redacted copy a viewer without access receives.
"""

from __future__ import annotations

from typing import get_args

from ..secrets import event, secret

__all__ = ["EVENT_TYPES", "Event", "is_horizon"]


# -- setup -----------------------------------------------------------------------------------
@event
class BooksArranged:
    layouts: tuple[str, ...]
    drolleries: tuple[int, ...]


@event
class AbbotPlaced:
    station: int


@event
class DifficultyMarkersPlaced:
    side: int
    counts: tuple[int, ...]
    """Mystic Monk markers per Battle card (AD, KD, MR, DS)."""


@event
class TileStacksFormed:
    side: int
    count: int
    stacks: tuple[tuple[str, ...], ...] | None = secret()
    """Secret from everyone (server only)."""


@event
class ArchwaysFilled:
    side: int
    stacks_used: tuple[int, ...]
    archways: tuple[str | None, ...]


@event
class DeckShuffled:
    side: int
    size: int
    order: tuple[str, ...] | None = secret()
    """Secret from everyone (server only)."""


@event
class DiscardReshuffled:
    side: int
    size: int
    order: tuple[str, ...] | None = secret()
    """Secret from everyone (server only)."""


@event
class CardDrawn:
    side: int
    seat: int | None
    """The seat playing ``side``, who alone sees the card."""
    reason: str
    """``setup`` | ``bought`` | ``consolation``."""
    card: str | None = secret(owner="seat")
    """Secret: visible to the drawing side only."""


@event
class ConsolationForfeited:
    side: int


@event
class CrusadeDealt:
    side: int
    seat: int | None
    card: str | None = secret(owner="seat")
    """Secret: visible to the owner only until the end of the game."""


# -- turn flow -------------------------------------------------------------------------------
@event
class TurnStarted:
    side: int
    turn_no: int


@event
class Passed:
    side: int
    forced: bool


@event
class LineChosen:
    side: int
    kind: str
    index: int
    pos: int
    tiles: tuple[str, ...]


@event
class CoinsGained:
    side: int
    amount: int
    reason: str


@event
class TokenGained:
    side: int
    ritual: int
    reason: str


@event
class TilePlaced:
    side: int
    tile: str
    pos: int
    cell: int
    how: str
    """``quill`` | ``scriptum`` | ``motus`` | ``exilium`` | ``monk``."""
    gold_leaf: tuple[str, ...] = ()


@event
class TileLifted:
    side: int
    """The tile's owner."""
    tile: str
    pos: int
    cell: int


@event
class ExilePending:
    side: int
    """The owner, who chooses the new Quill."""
    tile: str
    pos: int
    origin_pos: int
    origin_cell: int


@event
class ActiveTileMoved:
    side: int
    tile: str
    from_pos: int
    to_pos: int
    payment: tuple[int, ...]


@event
class TileToSheepPen:
    side: int
    tile: str
    auto: bool


@event
class AbbotMoved:
    station: int
    side: int
    payment: tuple[int, ...]
    card: str | None = None
    """The Motus card when moved by Motus."""


@event
class CardBought:
    side: int
    payment: tuple[int, ...]


@event
class RitualClaimed:
    side: int
    ritual: int
    size: int
    points: int
    paid: bool
    """False for the Mystic Monk, who pays no tokens."""


@event
class MarkersRebalanced:
    """FAQ (run out of Markers): one Marker of each side leaves Battle card ``pair``."""

    pair: int


@event
class MarkersReclaimed:
    """FAQ, from two cards: one of ``side``'s Markers leaves Battle card ``own_pair`` and
    one of the other side's leaves ``other_pair``; each card keeps its leader (D-25)."""

    side: int
    own_pair: int
    other_pair: int


@event
class MarkerForgone:
    """``side`` has no Marker left and none can be freed: what the Marker would have
    claimed is forgone (D-25). ``what`` is ``ritual`` (``ritual``, ``size``), ``book``
    (``pos``) or ``battle`` (``pair``)."""

    side: int
    what: str
    ritual: int = -1
    size: int = 0
    pos: int = -1
    pair: int = -1


@event
class BattleResolved:
    pos: int
    pair: int
    cells: tuple[int, ...]
    strengths: tuple[int, int]
    """REV strength, IRR strength."""
    winner: int
    flipped: tuple[str, ...]
    marker: bool = True
    """False when the winner had no Marker to place on the card (D-25, MarkerForgone)."""


@event
class BattleTied:
    pos: int
    pair: int
    cells: tuple[int, ...]
    strength: int


@event
class BookClosed:
    pos: int
    side: int


@event
class BookMarkerPlaced:
    pos: int
    side: int


@event
class TokenChoicePending:
    side: int


@event
class TokenChosen:
    side: int
    ritual: int


@event
class CardPlayed:
    side: int
    card: str


@event
class ArchwaysSwapped:
    side: int
    first: int
    second: int


@event
class LinesSwapped:
    side: int
    kind: str
    first: int
    second: int


@event
class DiscardRequired:
    side: int
    count: int


@event
class ItemDiscarded:
    side: int
    item: int
    """-1 for a coin, else the ritual index."""


@event
class StackFlipped:
    side: int
    stack: int
    tiles: tuple[str, ...]
    cells: tuple[int, ...]
    """Archway index per tile (None-free); leftovers go back on top of the stacks."""


@event
class GameEnded:
    scores: tuple[int, int]
    """Per side (REV, IRR)."""
    breakdown: tuple[tuple[int, ...], tuple[int, ...]]
    """Per side: monastery, battle cards, books, crusade, sheep pen, monk books, gold leaf."""
    crusades: tuple[str | None, str | None]
    winners: tuple[int, ...]


# -- Mystic Monk -----------------------------------------------------------------------------
@event
class MonkDieRolled:
    value: int
    kind: str
    index: int
    rerolled: bool


@event
class MonkTrackAdvanced:
    ritual: int
    position: int
    fired: bool


@event
class MonkRitualNoSet:
    ritual: int


@event
class MonkStackFormed:
    pos: int
    tiles: tuple[str, ...]


@event
class GoldLeafPending:
    tile: str


@event
class MonkTileDiscarded:
    tile: str


Event = (
    BooksArranged
    | AbbotPlaced
    | DifficultyMarkersPlaced
    | TileStacksFormed
    | ArchwaysFilled
    | DeckShuffled
    | DiscardReshuffled
    | CardDrawn
    | ConsolationForfeited
    | CrusadeDealt
    | TurnStarted
    | Passed
    | LineChosen
    | CoinsGained
    | TokenGained
    | TilePlaced
    | TileLifted
    | ExilePending
    | ActiveTileMoved
    | TileToSheepPen
    | AbbotMoved
    | CardBought
    | RitualClaimed
    | MarkersRebalanced
    | MarkersReclaimed
    | MarkerForgone
    | BattleResolved
    | BattleTied
    | BookClosed
    | BookMarkerPlaced
    | TokenChoicePending
    | TokenChosen
    | CardPlayed
    | ArchwaysSwapped
    | LinesSwapped
    | DiscardRequired
    | ItemDiscarded
    | StackFlipped
    | GameEnded
    | MonkDieRolled
    | MonkTrackAdvanced
    | MonkRitualNoSet
    | MonkStackFormed
    | GoldLeafPending
    | MonkTileDiscarded
)
"""Every Illumination event: what ``evolve`` applies and ``decide`` emits."""

EVENT_TYPES: tuple[type, ...] = get_args(Event)
"""The event classes in the order of ``Event`` (the codec registers them by class name)."""

HORIZON_EVENTS: tuple[type, ...] = (
    # set-up: every random placement
    BooksArranged,
    AbbotPlaced,
    DifficultyMarkersPlaced,
    TileStacksFormed,
    # a face-down tile or card comes to light, or a deck is (re)shuffled
    ArchwaysFilled,
    DeckShuffled,
    DiscardReshuffled,
    CardDrawn,
    CrusadeDealt,
    StackFlipped,
    MonkStackFormed,
    MonkTileDiscarded,
    # a card from a hand shown to the table
    CardPlayed,
    # a roll of the Mystic Monk's die
    MonkDieRolled,
    # the turn passes: the other side's turn begins
    TurnStarted,
    GameEnded,
)
"""Information horizons (``domain.undo``) by type; ``is_horizon`` adds the Abbot moved by a
Motus card (the card is shown)."""


def is_horizon(event: object) -> bool:
    if isinstance(event, AbbotMoved):
        return event.card is not None
    return isinstance(event, HORIZON_EVENTS)
