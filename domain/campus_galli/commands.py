"""What a player can ask for. Payments list tile colours in the order R, B, G, Y."""

from __future__ import annotations

import attrs

__all__ = ["COMMAND_TYPES", "Command"]


@attrs.frozen
class SelectActionCard:
    """Secretly choose the action card for this round (final once sent)."""

    card: str


@attrs.frozen
class ChooseSource:
    """Double-coloured card: "bag" (act now, small number) or "hut" (act at the large number)."""

    source: str


@attrs.frozen
class DeclareBeg:
    """Level II+: do not pay for the card; beg after all other turns."""


@attrs.frozen
class Beg:
    """Take any 2 tiles on your beg turn."""

    tiles: tuple[str, ...]


@attrs.frozen
class ExchangeTiles:
    """Level II+: swap 3 tiles for 1 of any colour, during your own turn."""

    give: tuple[str, ...]
    take: str


@attrs.frozen
class TakeFromHut:
    section: str
    pay: tuple[str, ...] = ()


@attrs.frozen
class DrawFromBag:
    shape: str
    pay: tuple[str, ...] = ()


@attrs.frozen
class PlaceSection:
    """Lay the section in hand with its footprint's top-left cell at (x, y)."""

    x: int
    y: int
    orientation: int


@attrs.frozen
class ForfeitBuild:
    """No allowed section can be laid anywhere: the card is spent without effect."""


@attrs.frozen
class FlipBuilding:
    """Level I, after completing a building: flip a parchment building ("" = none)."""

    building: str


@attrs.frozen
class ProduceBook:
    pay: tuple[str, ...]
    tile: str


@attrs.frozen
class BringGuest:
    pay: tuple[str, ...]
    tile: str


@attrs.frozen
class Rescore:
    """Score one of your earlier books or guests again (or on feast/study day)."""

    card: str
    tile: str


@attrs.frozen
class EndTurn:
    """Stop re-scoring (after a book or guest, or on feast/study day)."""


@attrs.frozen
class TakeUnfinished:
    """Level III: take the face-up card of an unfinished-tasks pile for any 1 tile."""

    pile: str
    pay: tuple[str, ...]


@attrs.frozen
class ChooseTiles:
    """Choose the 2 tiles the Alms task gives you."""

    tiles: tuple[str, ...]


@attrs.frozen
class SpecialFulfillTask:
    task: str
    pay: tuple[str, ...]


@attrs.frozen
class SpecialExpand:
    building: str


@attrs.frozen
class SpecialBuyFromHut:
    section: str
    pay: tuple[str, ...]


@attrs.frozen
class SpecialBuyFromBag:
    shape: str
    pay: tuple[str, ...]


@attrs.frozen
class SpecialRemoveHalt:
    pay: tuple[str, ...]


@attrs.frozen
class SpecialReconstruct:
    task: str
    section: str
    pay: tuple[str, ...]


@attrs.frozen
class PassSpecial:
    """No more special actions this round."""


@attrs.frozen
class PayEvent:
    """Spend the tiles an event asks for (new arrivals: name the building for the monk)."""

    pay: tuple[str, ...]
    building: str = ""


@attrs.frozen
class DeclineEvent:
    """Do not pay: fire loses the named book, epidemic the guest monk at the named building."""

    lose: str = ""


Command = (
    SelectActionCard
    | ChooseSource
    | DeclareBeg
    | Beg
    | ExchangeTiles
    | TakeFromHut
    | DrawFromBag
    | PlaceSection
    | ForfeitBuild
    | FlipBuilding
    | ProduceBook
    | BringGuest
    | Rescore
    | EndTurn
    | TakeUnfinished
    | ChooseTiles
    | SpecialFulfillTask
    | SpecialExpand
    | SpecialBuyFromHut
    | SpecialBuyFromBag
    | SpecialRemoveHalt
    | SpecialReconstruct
    | PassSpecial
    | PayEvent
    | DeclineEvent
)

COMMAND_TYPES: tuple[type, ...] = (
    SelectActionCard,
    ChooseSource,
    DeclareBeg,
    Beg,
    ExchangeTiles,
    TakeFromHut,
    DrawFromBag,
    PlaceSection,
    ForfeitBuild,
    FlipBuilding,
    ProduceBook,
    BringGuest,
    Rescore,
    EndTurn,
    TakeUnfinished,
    ChooseTiles,
    SpecialFulfillTask,
    SpecialExpand,
    SpecialBuyFromHut,
    SpecialBuyFromBag,
    SpecialRemoveHalt,
    SpecialReconstruct,
    PassSpecial,
    PayEvent,
    DeclineEvent,
)
