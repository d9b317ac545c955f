"""Commands a player sends. Books are physical positions 0..2 (left to right from south);
Book squares are ``row, col`` 0..4 in the south frame; archways are ``(row, col)`` 1..3 from
the mat owner's view. A payment is ``(coins, Candle, Bell, Wine, Bread)``."""

from __future__ import annotations

from typing import get_args

import attrs

__all__ = [
    "COMMAND_TYPES",
    "BuyCard",
    "ChooseCompletionToken",
    "ChooseExiliumSpace",
    "ChooseLine",
    "ClaimRitual",
    "Command",
    "DiscardItem",
    "EndTurn",
    "MoveAbbot",
    "MoveActiveTile",
    "Pass",
    "PlaceTile",
    "PlayExilium",
    "PlayMotus",
    "PlayMotusAbbot",
    "PlayMutatio",
    "PlayPorticus",
    "PlayRitus",
    "PlayScriptum",
    "SendToSheepPen",
]

Payment = tuple[int, ...]


@attrs.frozen
class Pass:
    """Pass for the rest of the game (only as the first command of a turn)."""


@attrs.frozen
class ChooseLine:
    """Take row or column ``index`` (1..3) of your archways to your Book ``index``."""

    kind: str
    index: int


@attrs.frozen
class PlaceTile:
    """Place an active tile on an open Quill of the Book whose margin it is on."""

    tile: str
    row: int
    col: int


@attrs.frozen
class MoveActiveTile:
    """Move an active tile to another Book's margin: one coin per Book away."""

    tile: str
    to_pos: int
    payment: Payment


@attrs.frozen
class SendToSheepPen:
    """Put an active tile on a closed Book's margin into your Sheep Pen."""

    tile: str


@attrs.frozen
class MoveAbbot:
    """Move the Abbot: one coin per station."""

    station: int
    payment: Payment


@attrs.frozen
class BuyCard:
    """Draw a Scriptorium card for two coins."""

    payment: Payment


@attrs.frozen
class ClaimRitual:
    """Spend ``size`` tokens of ``ritual`` on the Ritual space of that size."""

    ritual: str
    size: int


@attrs.frozen
class PlayMotus:
    """Motus: move one of your placed tiles to an open Quill in any open Book."""

    tile: str
    to_pos: int
    row: int
    col: int


@attrs.frozen
class PlayMotusAbbot:
    """Motus: move the Abbot to any station."""

    station: int


@attrs.frozen
class PlayMutatio:
    """Mutatio: exchange the tiles of two archways ``(row, col)``."""

    first: tuple[int, int]
    second: tuple[int, int]


@attrs.frozen
class PlayExilium:
    """Exilium: an opponent's tile in a Book must move to Book ``to_pos``."""

    tile: str
    to_pos: int


@attrs.frozen
class PlayPorticus:
    """Porticus: exchange two rows (or two columns) of your archways."""

    kind: str
    first: int
    second: int


@attrs.frozen
class PlayScriptum:
    """Scriptum: place an active tile on an empty text space of its Book."""

    tile: str
    row: int
    col: int


@attrs.frozen
class PlayRitus:
    """Ritus: gain one Ritual token of your choice."""

    ritual: str


@attrs.frozen
class EndTurn:
    """End your turn (all active tiles placed)."""


@attrs.frozen
class DiscardItem:
    """Discard one coin (``"coin"``) or Ritual token down to the 7-item limit."""

    item: str


@attrs.frozen
class ChooseExiliumSpace:
    """As the owner of an exiled tile, choose its new Quill."""

    row: int
    col: int


@attrs.frozen
class ChooseCompletionToken:
    """Take the Ritual token for completing a Book."""

    ritual: str


Command = (
    Pass
    | ChooseLine
    | PlaceTile
    | MoveActiveTile
    | SendToSheepPen
    | MoveAbbot
    | BuyCard
    | ClaimRitual
    | PlayMotus
    | PlayMotusAbbot
    | PlayMutatio
    | PlayExilium
    | PlayPorticus
    | PlayScriptum
    | PlayRitus
    | EndTurn
    | DiscardItem
    | ChooseExiliumSpace
    | ChooseCompletionToken
)
"""Every command a player may send (``decide`` refuses anything else)."""

COMMAND_TYPES: tuple[type, ...] = get_args(Command)
"""The command classes in the order of ``Command``."""
