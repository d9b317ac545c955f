"""The folded state of a game of Road to Enlightenment.

Every value is frozen. Mappings are plain dicts that are never mutated in place: ``evolve``
copies the one it changes, which keeps folding cheap.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TypeVar

import attrs

from ..simultaneous import SecretChoices
from ..values import replace  # re-exported: the kernel's checked copy
from .content import NEU, content

__all__ = [
    "SIMULTANEOUS",
    "Combat",
    "CombatStep",
    "DraftRound",
    "Player",
    "RerollReason",
    "Stage",
    "StageKind",
    "State",
    "pair_key",
    "religion_of",
    "replace",
]

T = TypeVar("T")


class StageKind(enum.StrEnum):
    """The decision the game waits for: a sub-state of the reference's §3.

    A ``StrEnum``: each member equals the string stored before it was typed, so views,
    wire messages and recorded logs read the same."""

    SETUP = "setup"
    """Before set-up: nobody acts."""
    ASSIGN = "assign"
    """Phase 1: every active seat plans its three stacks at once, in secret."""
    DECLARE = "declare"
    """Phase 2: ``seat`` declares the action of its stack in slot ``n``."""
    WAR = "war"
    """The attacker pays the war cost (>= 5 [politics] from the stack)."""
    RESPOND = "respond"
    """The defending player may respond once (fortify, levy, parley)."""
    PARLEY = "parley"
    """The attacker pays the parley or the attack is cancelled."""
    DEFEND = "defend"
    """The defending player builds the defending stack and adds coins."""
    SUPPORT = "support"
    """``seat`` may support a side (once around, from the attacker)."""
    REROLL = "reroll"
    """``seat`` may reroll a die; ``data`` is the :class:`RerollReason`."""
    FORGE = "forge"
    """Diplomacy: the actor may forge an alliance."""
    GIFT = "gift"
    """Diplomacy: the actor may give a gift to an ally (``other``)."""
    OFFER = "offer"
    """The exchange: the actor and ``other`` each offer a card, in secret."""
    ACCEPT = "accept"
    """The exchange: both accept or refuse the offers (``data`` = ``"mine|theirs"``)."""
    REORGANIZE = "reorganize"
    """The actor takes one of the peeked cards."""
    ARREST = "arrest"
    """``seat`` (the victim) gives up a lesser from hand to ``other``'s arrest."""
    RUSSIA = "russia"
    """Russia may move a marker one space (Westernization)."""
    PHASE3 = "phase3"
    """Phase 3: the seats with a religion stat choose its use, in secret."""
    HELP = "help"
    """Upkeep: ``seat`` may help ally ``other`` pay; ``data`` lists the seats still short."""
    ABANDON = "abandon"
    """Upkeep: ``seat`` abandons ``n`` foreign cities of its choice."""
    DRAFT = "draft"
    """Phase 5: ``seat`` drafts a card; ``data`` is the :class:`DraftRound`."""
    REFILL = "refill"
    """Phase 5: the seats in ``waiting`` reclaim favorites and refill their hands."""
    OVER = "over"
    """The game has ended."""


SIMULTANEOUS: frozenset[StageKind] = frozenset(
    {StageKind.ASSIGN, StageKind.PHASE3, StageKind.OFFER, StageKind.ACCEPT}
)
"""Stages whose seats answer at once, in secret (:class:`SecretChoices`)."""


class RerollReason(enum.StrEnum):
    """Why a reroll is offered (a ``reroll`` stage's ``data``), in the order of §7.3."""

    POLAND = "POLAND"
    """Poland's power: either side that is Poland may reroll one die."""
    IDEAS = "IDEAS"
    """The side with more [ideas] may reroll one die."""


class DraftRound(enum.StrEnum):
    """Which pick a ``draft`` stage asks for (its ``data``)."""

    BASE = "BASE"
    """The picks every seat makes (two each with up to four players, else one)."""
    EXTRA = "EXTRA"
    """A pick owed for a card removed by its own effect or an arrest."""


class CombatStep(enum.StrEnum):
    """Where an attack stands (§7.3); public, shown with the combat."""

    WAR = "war"
    RESPOND = "respond"
    PARLEY = "parley"
    DEFEND = "defend"
    SUPPORT = "support"
    POLAND = "poland"
    IDEAS = "ideas"


@attrs.frozen
class Stage:
    """The decision the game waits for (the reference's ``pending``) and its parameters.

    ``kind`` says which (:class:`StageKind`); ``seat`` acts in sequential stages;
    simultaneous stages use :class:`SecretChoices` or ``waiting``. The other fields mean
    what each kind's docstring says. Unused ones keep their defaults (``-1`` for no seat):
    they are on the wire and in every recorded log in this form.
    """

    kind: StageKind = StageKind.SETUP
    seat: int = -1
    other: int = -1
    n: int = 0
    data: str = ""
    waiting: tuple[int, ...] = ()


@attrs.frozen(slots=False)
class Player:
    seat: int
    nation: str
    coins: int = 0
    score: int = 5
    sci: int = 0
    art: int = 0
    sci_locked: bool = False
    art_locked: bool = False
    eliminated: bool = False
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    """Personal lesser draw deck, index 0 = top. Its order is secret even from the owner."""
    discard: tuple[str, ...] = ()
    mat: tuple[str, ...] = ()
    aside: tuple[str, ...] = ()
    """Removed by their own effect this turn: one extra draft pick each."""
    slots: tuple[tuple[str, ...], ...] = ((), (), ())
    revealed: tuple[bool, ...] = (False, False, False)
    plan: tuple[tuple[str, int], ...] = ()
    """Phase-1 tentative assignment (card, slot 1..3); secret to the owner."""
    peek: tuple[str, ...] = ()
    extra_picks: int = 0
    russia_used: bool = False


@attrs.frozen(slots=False)
class Combat:
    """An attack in progress (§7.2). All of it is public."""

    attacker: int
    defender: str
    defender_seat: int
    city: str
    route: str
    enhancement: str | None
    coins: int
    step: CombatStep = CombatStep.RESPOND
    def_cards: tuple[str, ...] = ()
    def_coins: int = 0
    att_support: int = 0
    def_support: int = 0
    extra_dice: int = 0
    fortify: int = 0
    support_queue: tuple[int, ...] = ()
    support_side: str = ""
    dice: tuple[int, ...] = ()


def pair_key(a: str, b: str) -> str:
    return f"{a}|{b}" if a < b else f"{b}|{a}"


@attrs.frozen(slots=False)
class State:
    players_n: int
    length: str
    final_turn: int
    nations: str = "seats"
    """How nations are assigned: ``seats`` (seat i plays the i-th nation of the table) or
    ``random`` (a recorded permutation, §6 R1)."""
    players: tuple[Player, ...] = ()
    turn: int = 0
    chits: tuple[str, ...] = ()
    order: tuple[int, ...] = ()
    occupant: Mapping[str, str] = attrs.field(factory=dict)
    diplomacy: Mapping[str, str] = attrs.field(factory=dict)
    religion: int = 0
    medallions: Mapping[str, int] = attrs.field(factory=dict)
    piles: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    rows: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    box: tuple[str, ...] = ()
    vault: tuple[str, ...] = ()
    stage: Stage = Stage()
    slot: int = 0
    queue: tuple[int, ...] = ()
    choices: SecretChoices = SecretChoices(frozenset())
    combat: Combat | None = None
    census: tuple[int, ...] = ()
    p3: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """The last revealed sealed choices (phase-3 allocations, exchange decisions)."""
    shortfall: tuple[int, ...] = ()
    owed: tuple[int, ...] = ()
    exposed: frozenset[str] = frozenset()
    ranking: tuple[int, ...] = ()

    # -- derived ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.stage.kind == StageKind.OVER

    def seat_of(self, nation: str) -> int:
        """The active seat playing ``nation``, or -1 (uncontrolled, eliminated or NEU)."""
        for p in self.players:
            if p.nation == nation and not p.eliminated:
                return p.seat
        return -1

    def nation(self, seat: int) -> str:
        return self.players[seat].nation

    def controller(self, city: str) -> str:
        occ = self.occupant.get(city)
        return occ if occ is not None else content().cities[city].home

    def city_religion(self, city: str) -> str:
        occ = self.occupant.get(city)
        c = content()
        return c.nations[occ].religion if occ is not None else c.cities[city].religion

    def relation(self, a: str, b: str) -> str:
        if a in (NEU, b) or b == NEU:
            return "NONE"
        return self.diplomacy.get(pair_key(a, b), "NONE")

    def allied(self, a: str, b: str) -> bool:
        return self.relation(a, b) == "ALLY"

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if not p.eliminated)

    def foreign(self, seat: int) -> list[str]:
        nat = self.players[seat].nation
        cities = content().cities
        return [c for c, occ in self.occupant.items() if occ == nat and cities[c].home != nat]

    def home_cities(self, nation: str) -> list[str]:
        return [c.id for c in content().cities.values() if c.home == nation]

    def hand_size(self, seat: int) -> int:
        base: int = content().rules["hand_size"]
        return base + sum(1 for s in self.medallions.values() if s == seat)

    def is_leader(self, seat: int) -> bool:
        top = max(self.players[s].score for s in self.active)
        return self.players[seat].score == top


def religion_of(state: State, seat: int) -> str:
    return content().nations[state.players[seat].nation].religion
