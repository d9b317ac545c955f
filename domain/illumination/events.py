"""Events: everything that happens, with every random outcome written in.

``side`` is 0 for Reverent, 1 for Irreverent. ``pos`` is a physical Book position and
``cell`` a Book square ``row * 5 + col`` (south frame). Fields marked *secret* are None in
the redacted copy a viewer without access receives.
"""

from __future__ import annotations

import attrs

__all__ = ["EVENT_TYPES"]


# -- setup -----------------------------------------------------------------------------------
@attrs.frozen
class BooksArranged:
    layouts: tuple[str, ...]
    drolleries: tuple[int, ...]


@attrs.frozen
class AbbotPlaced:
    station: int


@attrs.frozen
class DifficultyMarkersPlaced:
    side: int
    counts: tuple[int, ...]
    """Mystic Monk markers per Battle card (AD, KD, MR, DS)."""


@attrs.frozen
class TileStacksFormed:
    side: int
    count: int
    stacks: tuple[tuple[str, ...], ...] | None
    """Secret from everyone (server only)."""


@attrs.frozen
class ArchwaysFilled:
    side: int
    stacks_used: tuple[int, ...]
    archways: tuple[str | None, ...]


@attrs.frozen
class DeckShuffled:
    side: int
    size: int
    order: tuple[str, ...] | None
    """Secret from everyone (server only)."""


@attrs.frozen
class DiscardReshuffled:
    side: int
    size: int
    order: tuple[str, ...] | None
    """Secret from everyone (server only)."""


@attrs.frozen
class CardDrawn:
    side: int
    seat: int | None
    """The seat playing ``side``, who alone sees the card."""
    reason: str
    """``setup`` | ``bought`` | ``consolation``."""
    card: str | None
    """Secret: visible to the drawing side only."""


@attrs.frozen
class ConsolationForfeited:
    side: int


@attrs.frozen
class CrusadeDealt:
    side: int
    seat: int | None
    card: str | None
    """Secret: visible to the owner only until the end of the game."""


# -- turn flow -------------------------------------------------------------------------------
@attrs.frozen
class TurnStarted:
    side: int
    turn_no: int


@attrs.frozen
class Passed:
    side: int
    forced: bool


@attrs.frozen
class LineChosen:
    side: int
    kind: str
    index: int
    pos: int
    tiles: tuple[str, ...]


@attrs.frozen
class CoinsGained:
    side: int
    amount: int
    reason: str


@attrs.frozen
class TokenGained:
    side: int
    ritual: int
    reason: str


@attrs.frozen
class TilePlaced:
    side: int
    tile: str
    pos: int
    cell: int
    how: str
    """``quill`` | ``scriptum`` | ``motus`` | ``exilium`` | ``monk``."""
    gold_leaf: tuple[str, ...] = ()


@attrs.frozen
class TileLifted:
    side: int
    """The tile's owner."""
    tile: str
    pos: int
    cell: int


@attrs.frozen
class ExilePending:
    side: int
    """The owner, who chooses the new Quill."""
    tile: str
    pos: int
    origin_pos: int
    origin_cell: int


@attrs.frozen
class ActiveTileMoved:
    side: int
    tile: str
    from_pos: int
    to_pos: int
    payment: tuple[int, ...]


@attrs.frozen
class TileToSheepPen:
    side: int
    tile: str
    auto: bool


@attrs.frozen
class AbbotMoved:
    station: int
    side: int
    payment: tuple[int, ...]
    card: str | None = None
    """The Motus card when moved by Motus."""


@attrs.frozen
class CardBought:
    side: int
    payment: tuple[int, ...]


@attrs.frozen
class RitualClaimed:
    side: int
    ritual: int
    size: int
    points: int
    paid: bool
    """False for the Mystic Monk, who pays no tokens."""


@attrs.frozen
class MarkersRebalanced:
    pair: int


@attrs.frozen
class BattleResolved:
    pos: int
    pair: int
    cells: tuple[int, ...]
    strengths: tuple[int, int]
    """REV strength, IRR strength."""
    winner: int
    flipped: tuple[str, ...]


@attrs.frozen
class BattleTied:
    pos: int
    pair: int
    cells: tuple[int, ...]
    strength: int


@attrs.frozen
class BookClosed:
    pos: int
    side: int


@attrs.frozen
class BookMarkerPlaced:
    pos: int
    side: int


@attrs.frozen
class TokenChoicePending:
    side: int


@attrs.frozen
class TokenChosen:
    side: int
    ritual: int


@attrs.frozen
class CardPlayed:
    side: int
    card: str


@attrs.frozen
class ArchwaysSwapped:
    side: int
    first: int
    second: int


@attrs.frozen
class LinesSwapped:
    side: int
    kind: str
    first: int
    second: int


@attrs.frozen
class DiscardRequired:
    side: int
    count: int


@attrs.frozen
class ItemDiscarded:
    side: int
    item: int
    """-1 for a coin, else the ritual index."""


@attrs.frozen
class StackFlipped:
    side: int
    stack: int
    tiles: tuple[str, ...]
    cells: tuple[int, ...]
    """Archway index per tile (None-free); leftovers go back on top of the stacks."""


@attrs.frozen
class GameEnded:
    scores: tuple[int, int]
    """Per side (REV, IRR)."""
    breakdown: tuple[tuple[int, ...], tuple[int, ...]]
    """Per side: monastery, battle cards, books, crusade, sheep pen, monk books, gold leaf."""
    crusades: tuple[str | None, str | None]
    winners: tuple[int, ...]


# -- Mystic Monk -----------------------------------------------------------------------------
@attrs.frozen
class MonkDieRolled:
    value: int
    kind: str
    index: int
    rerolled: bool


@attrs.frozen
class MonkTrackAdvanced:
    ritual: int
    position: int
    fired: bool


@attrs.frozen
class MonkRitualNoSet:
    ritual: int


@attrs.frozen
class MonkStackFormed:
    pos: int
    tiles: tuple[str, ...]


@attrs.frozen
class GoldLeafPending:
    tile: str


@attrs.frozen
class MonkTileDiscarded:
    tile: str


EVENT_TYPES: tuple[type, ...] = (
    BooksArranged,
    AbbotPlaced,
    DifficultyMarkersPlaced,
    TileStacksFormed,
    ArchwaysFilled,
    DeckShuffled,
    DiscardReshuffled,
    CardDrawn,
    ConsolationForfeited,
    CrusadeDealt,
    TurnStarted,
    Passed,
    LineChosen,
    CoinsGained,
    TokenGained,
    TilePlaced,
    TileLifted,
    ExilePending,
    ActiveTileMoved,
    TileToSheepPen,
    AbbotMoved,
    CardBought,
    RitualClaimed,
    MarkersRebalanced,
    BattleResolved,
    BattleTied,
    BookClosed,
    BookMarkerPlaced,
    TokenChoicePending,
    TokenChosen,
    CardPlayed,
    ArchwaysSwapped,
    LinesSwapped,
    DiscardRequired,
    ItemDiscarded,
    StackFlipped,
    GameEnded,
    MonkDieRolled,
    MonkTrackAdvanced,
    MonkRitualNoSet,
    MonkStackFormed,
    GoldLeafPending,
    MonkTileDiscarded,
)

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
