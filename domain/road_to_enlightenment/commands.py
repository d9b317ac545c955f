"""Commands of Road to Enlightenment. The wire name of each is its class name.

Choices that would multiply into huge lists (slot assignment, the defending stack, support)
are sequences of small commands, so ``legal_commands`` stays a short exact list.
Card lists are sorted tuples of card ids.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

__all__ = [
    "COMMAND_TYPES",
    "AbandonCity",
    "ArrestChoice",
    "Command",
    "ConfirmSlots",
    "DeclareAttack",
    "DeclareCensus",
    "DeclareDiplomacy",
    "DeclareLuminaryAction",
    "DeclareReorganize",
    "DefendWith",
    "DefenseDone",
    "DraftPick",
    "ExchangeDecision",
    "ExchangeOffer",
    "ForgeAlliance",
    "GiveGift",
    "HelpUpkeep",
    "ParleyAnswer",
    "PayWarCost",
    "Phase3Choices",
    "PlaceLuminary",
    "RefillHand",
    "ReorganizePick",
    "Reroll",
    "Respond",
    "RussiaMove",
    "SkipForge",
    "SkipGift",
    "SupportFinish",
    "SupportPass",
    "SupportWith",
]


@attrs.frozen
class PlaceLuminary:
    """Phase 1: put a card of your hand in action slot 1..3 (0 takes it back to hand)."""

    card: str
    slot: int


@attrs.frozen
class ConfirmSlots:
    """Phase 1: commit your three stacks (secret until you reveal each in turn order)."""


@attrs.frozen
class DeclareAttack:
    target: str
    route: str
    """LAND or SEA."""
    coins: int = 0
    enhancement: str | None = None


@attrs.frozen
class PayWarCost:
    """Exhaust these cards of the attacking stack (>= 5 [politics], inclusion-minimal)."""

    cards: tuple[str, ...]


@attrs.frozen
class DeclareDiplomacy:
    pass


@attrs.frozen
class ForgeAlliance:
    nation: str
    cards: tuple[str, ...]


@attrs.frozen
class SkipForge:
    pass


@attrs.frozen
class GiveGift:
    ally: int
    """The ally's seat."""
    cards: tuple[str, ...]


@attrs.frozen
class SkipGift:
    pass


@attrs.frozen
class ExchangeOffer:
    card: str | None = None


@attrs.frozen
class ExchangeDecision:
    accept: bool


@attrs.frozen
class DeclareReorganize:
    enhancement: str | None = None


@attrs.frozen
class ReorganizePick:
    card: str | None = None


@attrs.frozen
class DeclareLuminaryAction:
    card: str
    enhancement: str | None = None
    victim: int = -1
    """ARREST and SETBACK only: the victim's seat."""
    cost: tuple[str, ...] = ()
    """A power with an "exhaust N [stat]" cost only: the luminaries that pay it, from the acting
    stack and/or the hand (sorted; an inclusion-minimal set, DD-05)."""


@attrs.frozen
class DeclareCensus:
    pass


@attrs.frozen
class ArrestChoice:
    card: str


@attrs.frozen
class RussiaMove:
    track: str | None = None


@attrs.frozen
class Respond:
    """Defending player: play these response cards from hand (may be empty)."""

    cards: tuple[str, ...] = ()


@attrs.frozen
class ParleyAnswer:
    pay: bool


@attrs.frozen
class DefendWith:
    """Add one card from hand to the face-up defending stack."""

    card: str


@attrs.frozen
class DefenseDone:
    coins: int = 0


@attrs.frozen
class SupportPass:
    pass


@attrs.frozen
class SupportWith:
    """Exhaust one card from hand in support of ATTACKER or DEFENDER."""

    side: str
    card: str


@attrs.frozen
class SupportFinish:
    """End your support with this many coins (>= 1 if you gave no card)."""

    side: str
    coins: int = 0


@attrs.frozen
class Reroll:
    index: int | None = None


@attrs.frozen
class Phase3Choices:
    catholicism_as: str | None = None
    """WEA or POL (Catholics with [Catholicism] in slot 3)."""
    anti_as: str | None = None
    """MIL or SCI (Anti-Catholics with [Anti-Catholicism] in slot 3)."""


@attrs.frozen
class HelpUpkeep:
    coins: int


@attrs.frozen
class AbandonCity:
    city: str


@attrs.frozen
class DraftPick:
    card: str


@attrs.frozen
class RefillHand:
    favorites: tuple[str, ...] = ()


Command: TypeAlias = (
    PlaceLuminary
    | ConfirmSlots
    | DeclareAttack
    | PayWarCost
    | DeclareDiplomacy
    | ForgeAlliance
    | SkipForge
    | GiveGift
    | SkipGift
    | ExchangeOffer
    | ExchangeDecision
    | DeclareReorganize
    | ReorganizePick
    | DeclareLuminaryAction
    | DeclareCensus
    | ArrestChoice
    | RussiaMove
    | Respond
    | ParleyAnswer
    | DefendWith
    | DefenseDone
    | SupportPass
    | SupportWith
    | SupportFinish
    | Reroll
    | Phase3Choices
    | HelpUpkeep
    | AbandonCity
    | DraftPick
    | RefillHand
)
"""Every command of the game (``COMMAND_TYPES`` as a type)."""

COMMAND_TYPES: tuple[type, ...] = (
    PlaceLuminary,
    ConfirmSlots,
    DeclareAttack,
    PayWarCost,
    DeclareDiplomacy,
    ForgeAlliance,
    SkipForge,
    GiveGift,
    SkipGift,
    ExchangeOffer,
    ExchangeDecision,
    DeclareReorganize,
    ReorganizePick,
    DeclareLuminaryAction,
    DeclareCensus,
    ArrestChoice,
    RussiaMove,
    Respond,
    ParleyAnswer,
    DefendWith,
    DefenseDone,
    SupportPass,
    SupportWith,
    SupportFinish,
    Reroll,
    Phase3Choices,
    HelpUpkeep,
    AbandonCity,
    DraftPick,
    RefillHand,
)
