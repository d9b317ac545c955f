"""What each viewer may see: views and the leak-test secrets (§5); events are redacted by the
kernel (``domain.secrets``) from their declarations."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TypedDict

from ..secrets import secret
from ..simultaneous import ChoicesView
from ..values import replace
from ..viewers import SPECTATOR, Viewer, seat_viewer
from ..views import ByAudience, internal, public, view_part
from .content import COLORS, content
from .legal import to_act
from .state import CombatStep, Player, StageKind, State

__all__ = ["RoadPanel", "RoadView", "Slot", "StageView", "full_view", "hidden_values"]


class PowerInfo(TypedDict):
    type: str
    kind: str
    n: int
    track: str | None


class CardInfo(TypedDict):
    """What is printed on a luminary card."""

    name: str
    color: str
    favorite: bool
    stats: dict[str, int]
    power: PowerInfo | None


class CityPrint(TypedDict):
    id: str
    name: str
    home: str
    sea: str | None
    arcs: dict[str, int]
    links: list[str]
    icon: str
    """The religion printed on the city."""


class CityView(CityPrint):
    occupant: str | None
    controller: str
    religion: str
    """Its religion now: its occupier's, else the printed one."""


class Relation(TypedDict):
    a: str
    b: str
    status: str


class CombatView(TypedDict):
    """An attack in progress (``state.Combat``, all of it public)."""

    attacker: int
    defender: str
    defender_seat: int
    city: str
    route: str
    enhancement: str | None
    coins: int
    step: CombatStep
    def_cards: list[str]
    def_coins: int
    att_support: int
    def_support: int
    extra_dice: int
    fortify: int
    support_queue: list[int]
    support_side: str
    dice: list[int]


@cache
def _card_info(card: str) -> CardInfo:
    lum = content().luminaries[card]
    p = lum.power
    return {
        "name": lum.name,
        "color": lum.color,
        "favorite": lum.favorite,
        "stats": dict(lum.stats),
        "power": None
        if p is None
        else {"type": p.type, "kind": p.kind, "n": p.n, "track": p.track},
    }


@cache
def _static_cities() -> tuple[CityPrint, ...]:
    return tuple(
        {
            "id": city.id,
            "name": city.name,
            "home": city.home,
            "sea": city.sea,
            "arcs": dict(city.arcs),
            "links": sorted(city.links),
            "icon": city.religion,
        }
        for city in content().cities.values()
    )


def _slot_seen(slot: Slot, viewer: Viewer) -> bool:
    return slot.revealed or viewer.sees_seat(slot.seat)


@view_part
class Slot:
    count: int
    revealed: bool
    cards: list[str] | None = secret(visible=_slot_seen)
    """Face down until revealed: its owner's only."""
    seat: int = internal()


@view_part
class RoadPanel:
    seat: int
    nation: str
    name: str
    religion: str = public()
    treasury_limit: int = public()
    upkeep: int = public()
    army: int = public()
    navy: int = public()
    powers: list[str] = public()
    eliminated: bool = public()
    coins: int = public()
    score: int = public()
    sci: int = public()
    art: int = public()
    sci_locked: bool = public()
    art_locked: bool = public()
    medallions: list[str]
    hand_size: int
    hand: list[str] | None = secret(owner="seat")
    hand_count: int
    deck_count: int
    discard: list[str]
    mat: list[str]
    aside: list[str]
    slots: list[Slot]
    plan: list[list[str | int]] | None = secret(owner="seat")
    """``[card, slot]`` per card planned."""
    peek: list[str] | None = secret(owner="seat")
    peek_count: int
    extra_picks: int = public()
    russia_used: bool = public()
    shortfall: int = public()
    owed_picks: int = public()


def _stage_data_seen(stage: StageView, viewer: Viewer) -> bool:
    """An accepted offer's terms: the two seats of the deal only."""
    return stage.kind is not StageKind.ACCEPT or viewer.seat in (stage.seat, stage.other)


@view_part
class StageView:
    kind: str
    seat: int = public()
    other: int = public()
    n: int = public()
    data: str = secret(visible=_stage_data_seen, blank="")
    waiting: list[int] = public()


@view_part
class RoadView:
    game: str
    length: str = public()
    turn: int = public()
    final_turn: int = public()
    chits: list[str] = public()
    stage: StageView
    to_act: list[int]
    slot: int = public()
    queue: list[int] = public()
    order: list[int] = public()
    religion: int = public()
    medallions: dict[str, int | None] = public()
    """Each medallion's holder, ``None`` while on its printed space."""
    diplomacy: list[Relation] = public()
    cities: list[CityView] = public()
    players: tuple[RoadPanel, ...]
    rows: dict[str, list[str]] = public()
    piles: dict[str, int] = public()
    box: list[str] = public()
    vault_count: int
    combat: CombatView | None = public()
    census: list[int] = public()
    choices: ChoicesView
    revealed_choices: list[list[int | list[str]]] = public()
    """``[seat, cards]`` per revealed choice."""
    over: bool = public()
    ranking: list[int] = public()
    piles_order: dict[str, list[str]] = secret(omit=True)
    decks: dict[str, list[str]] = secret(omit=True)
    vault: list[str] = secret(omit=True)
    cards: ByAudience[dict[str, CardInfo]]
    """What is printed on every card the audience sees."""
    prompt: ByAudience[str]


def full_view(state: State, prompt: Callable[[State, Viewer], str]) -> RoadView:
    """Everything any audience may be shown; the kernel redacts it per viewer."""
    c = content()
    seen: set[str] = set()  # the cards every audience sees

    def show(cards: tuple[str, ...]) -> list[str]:
        seen.update(cards)
        return list(cards)

    players = []
    for p in state.players:
        slots = [
            Slot(len(stack), p.revealed[i], show(stack) if p.revealed[i] else list(stack), p.seat)
            for i, stack in enumerate(p.slots)
        ]
        nation = c.nations[p.nation]
        players.append(
            RoadPanel(
                seat=p.seat,
                nation=p.nation,
                name=nation.name,
                religion=nation.religion,
                treasury_limit=nation.treasury_limit,
                upkeep=nation.upkeep + len(state.foreign(p.seat)),
                army=nation.army,
                navy=nation.navy,
                powers=list(nation.powers),
                eliminated=p.eliminated,
                coins=p.coins,
                score=p.score,
                sci=p.sci,
                art=p.art,
                sci_locked=p.sci_locked,
                art_locked=p.art_locked,
                medallions=sorted(m for m, s in state.medallions.items() if s == p.seat),
                hand_size=state.hand_size(p.seat),
                hand=list(p.hand),
                hand_count=len(p.hand),
                deck_count=len(p.deck),
                discard=show(p.discard),
                mat=show(p.mat),
                aside=show(p.aside),
                slots=slots,
                plan=[[card, s] for card, s in p.plan],
                peek=list(p.peek),
                peek_count=len(p.peek),
                extra_picks=p.extra_picks,
                russia_used=p.russia_used,
                shortfall=state.shortfall[p.seat] if state.shortfall else 0,
                owed_picks=state.owed[p.seat] if state.owed else 0,
            )
        )
    combat: CombatView | None = None
    if state.combat is not None:
        cb = state.combat
        combat = {  # the Combat's fields in their order, as attrs.asdict gave them
            "attacker": cb.attacker,
            "defender": cb.defender,
            "defender_seat": cb.defender_seat,
            "city": cb.city,
            "route": cb.route,
            "enhancement": cb.enhancement,
            "coins": cb.coins,
            "step": cb.step,
            "def_cards": show(cb.def_cards),
            "def_coins": cb.def_coins,
            "att_support": cb.att_support,
            "def_support": cb.def_support,
            "extra_dice": cb.extra_dice,
            "fortify": cb.fortify,
            "support_queue": list(cb.support_queue),
            "support_side": cb.support_side,
            "dice": list(cb.dice),
        }
    cities: list[CityView] = [
        {
            **static,
            "occupant": state.occupant.get(static["id"]),
            "controller": state.controller(static["id"]),
            "religion": state.city_religion(static["id"]),
        }
        for static in _static_cities()
    ]
    stage = state.stage
    seats = range(len(state.players))
    view = RoadView(
        game="road-to-enlightenment",
        length=state.length,
        turn=state.turn,
        final_turn=state.final_turn,
        chits=list(state.chits),
        stage=StageView(
            kind=stage.kind,
            seat=stage.seat,
            other=stage.other,
            n=stage.n,
            data=stage.data,
            waiting=list(stage.waiting),
        ),
        to_act=sorted(to_act(state)),
        slot=state.slot,
        queue=list(state.queue),
        order=list(state.order),
        religion=state.religion,
        medallions={m: state.medallions.get(m) for m in c.medallions},
        diplomacy=[
            {"a": k.split("|")[0], "b": k.split("|")[1], "status": v}
            for k, v in sorted(state.diplomacy.items())
        ],
        cities=cities,
        players=tuple(players),
        rows={col: show(state.rows.get(col, ())) for col in COLORS},
        piles={col: len(state.piles.get(f"pile:{col}", ())) for col in COLORS},
        box=show(state.box),
        vault_count=len(state.vault),
        combat=combat,
        census=list(state.census),
        choices=state.choices.view(),
        revealed_choices=[[s, list(ch)] for s, ch in state.p3],
        over=state.over,
        ranking=list(state.ranking),
        piles_order={k: list(v) for k, v in state.piles.items()},
        decks={str(p.seat): list(p.deck) for p in state.players},
        vault=list(state.vault),
        cards=ByAudience((), {}),
        prompt=ByAudience(
            tuple(prompt(state, seat_viewer(s)) for s in seats), prompt(state, SPECTATOR)
        ),
    )

    def own(p: Player) -> set[str]:
        return seen.union(p.hand, p.peek, *p.slots)

    by_seat = {p.seat: own(p) for p in state.players}
    review = seen.union(state.vault, *(p.deck for p in state.players))
    for cards in by_seat.values():
        review |= cards
    return replace(
        view,
        cards=ByAudience(
            tuple(_cards(by_seat.get(s, seen)) for s in seats), _cards(seen), _cards(review)
        ),
    )


def _cards(seen: set[str]) -> dict[str, CardInfo]:
    return {card: _card_info(card) for card in sorted(seen)}


def hidden_values(state: State, viewer: Viewer) -> frozenset[str]:
    if viewer.omniscient:
        return frozenset()
    hidden: set[str] = set(state.vault)
    for pile in state.piles.values():
        hidden.update(pile)
    for p in state.players:
        hidden.update(p.deck)
        if not viewer.sees_seat(p.seat):
            hidden.update(p.hand)
            hidden.update(p.peek)
            for i, stack in enumerate(p.slots):
                if not p.revealed[i]:
                    hidden.update(stack)
    return frozenset(hidden - state.exposed)
