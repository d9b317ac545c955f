"""What a player can ask for. Payments list tile colours in the order R, B, G, Y."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args, get_type_hints

import attrs

from ..errors import InvalidCommand
from .queries import canonical

__all__ = ["COMMAND_TYPES", "Command", "check_shape"]


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
    """Lay the section in hand with its footprint's top-left cell at (x, y).

    ``master_builder`` (level I): place a master builder on the section when the lay allows
    one (default yes); ``False`` is accepted only where one would be placed."""

    x: int
    y: int
    orientation: int
    master_builder: bool = True


@attrs.frozen
class ForfeitBuild:
    """No allowed section can be laid anywhere: the card is spent without effect."""


@attrs.frozen
class FlipBuilding:
    """Level I, after completing a building: flip a parchment building ("" = none).

    ``master_builder``: place a master builder next to it (default yes; ``False`` only when
    you have a monk in supply)."""

    building: str
    master_builder: bool = True


@attrs.frozen
class ProduceBook:
    pay: tuple[str, ...]
    tile: str


@attrs.frozen
class BringGuest:
    """``monks``: place the guest monk(s) the guest brings (default yes; ``False`` only when
    at least one would be placed). All or none."""

    pay: tuple[str, ...]
    tile: str
    monks: bool = True


@attrs.frozen
class Rescore:
    """Score one of your earlier books or guests again, after a new book or guest."""

    card: str
    tile: str


@attrs.frozen
class EndTurn:
    """Stop re-scoring (after a book or guest), or end the turn after the last exchanges:
    the end-of-turn tasks are judged then."""


@attrs.frozen
class RespondFeastDay:
    """Feast day, answered secretly: score up to 2 of your guests again.

    ``guests`` in the order of your guests, without repeats; ``rewards[i]`` is the tile
    chosen for ``guests[i]`` ("" for a guest without reward)."""

    guests: tuple[str, ...] = ()
    rewards: tuple[str, ...] = ()


@attrs.frozen
class RespondStudyDay:
    """Study day, answered secretly: score up to 2 of your books again.

    ``books`` in the order of your library, without repeats; ``rewards[i]`` is the tile
    chosen for ``books[i]``."""

    books: tuple[str, ...] = ()
    rewards: tuple[str, ...] = ()


@attrs.frozen
class ChooseLazyMonk:
    """Out of monks (DD-16): which of your monks on the plan becomes the lazy monk.

    ``monk`` is ``"section:<section id>"`` (master builder on a section),
    ``"grass:<letter>"`` (master builder next to a building) or ``"guest:<letter>"``."""

    monk: str


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
    """``master_builder``: place a master builder next to it (default yes; ``False`` only
    when you have a monk in supply)."""

    building: str
    master_builder: bool = True


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
    | RespondFeastDay
    | RespondStudyDay
    | ChooseLazyMonk
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

COMMAND_TYPES: tuple[type, ...] = get_args(Command)


def _is_str(v: object) -> bool:
    return isinstance(v, str)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_bool(v: object) -> bool:
    return isinstance(v, bool)


def _is_tiles(v: object) -> bool:
    return isinstance(v, tuple) and all(isinstance(x, str) for x in v)


def _checker(tp: object) -> Callable[[object], bool]:
    if tp is str:
        return _is_str
    if tp is int:
        return _is_int
    if tp is bool:
        return _is_bool
    return _is_tiles


_FIELD_CHECKS: dict[type, tuple[tuple[str, Callable[[object], bool]], ...]] = {
    cls: tuple((name, _checker(tp)) for name, tp in get_type_hints(cls).items())
    for cls in COMMAND_TYPES
}
_TILE_FIELDS = ("pay", "tiles", "give")


def check_shape(command: Command) -> None:
    """Refuse a malformed command (``InvalidCommand``): a field of the wrong type, or tiles
    not named R, B, G, Y in that order. The rules' checks come after."""
    checks = _FIELD_CHECKS[type(command)]
    for name, check in checks:
        if not check(getattr(command, name)):
            raise InvalidCommand(f"field {name!r} of {type(command).__name__} has the wrong type")
    for name, _ in checks:
        if name in _TILE_FIELDS and not canonical(getattr(command, name)):
            raise InvalidCommand(
                "tiles are named R, B, G or Y and listed in the order R, B, G, Y",
                code="bad_tiles",
            )
