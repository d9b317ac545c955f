"""What each viewer may see: views and the leak-test secrets (§5); events are redacted by the
kernel (``domain.secrets``) from their declarations."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import attrs

from ..secrets import secret
from ..simultaneous import ChoicesView
from ..values import replace
from ..viewers import SPECTATOR, Viewer, seat_viewer
from ..views import ByAudience, internal, public, view_part
from .content import COLORS, content
from .legal import to_act
from .state import StageKind, State

__all__ = ["RoadPanel", "RoadView", "Slot", "StageView", "full_view", "hidden_values"]


@cache
def _card_info(card: str) -> dict[str, Any]:
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
def _static_cities() -> tuple[dict[str, Any], ...]:
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
    religion: Any = public()
    treasury_limit: Any = public()
    upkeep: Any = public()
    army: Any = public()
    navy: Any = public()
    powers: Any = public()
    eliminated: Any = public()
    coins: Any = public()
    score: Any = public()
    sci: Any = public()
    art: Any = public()
    sci_locked: Any = public()
    art_locked: Any = public()
    medallions: list[str]
    hand_size: int
    hand: list[str] | None = secret(owner="seat")
    hand_count: int
    deck_count: int
    discard: list[str]
    mat: list[str]
    aside: list[str]
    slots: list[Slot]
    plan: list[list[Any]] | None = secret(owner="seat")
    peek: list[str] | None = secret(owner="seat")
    peek_count: int
    extra_picks: Any = public()
    russia_used: Any = public()
    shortfall: Any = public()
    owed_picks: Any = public()


def _stage_data_seen(stage: StageView, viewer: Viewer) -> bool:
    """An accepted offer's terms: the two seats of the deal only."""
    return stage.kind is not StageKind.ACCEPT or viewer.seat in (stage.seat, stage.other)


@view_part
class StageView:
    kind: str
    seat: Any = public()
    other: Any = public()
    n: Any = public()
    data: Any = secret(visible=_stage_data_seen, blank="")
    waiting: Any = public()


@view_part
class RoadView:
    game: str
    length: Any = public()
    turn: Any = public()
    final_turn: Any = public()
    chits: Any = public()
    stage: StageView
    to_act: list[int]
    slot: Any = public()
    queue: Any = public()
    order: Any = public()
    religion: Any = public()
    medallions: Any = public()
    diplomacy: Any = public()
    cities: Any = public()
    players: tuple[RoadPanel, ...]
    rows: Any = public()
    piles: Any = public()
    box: Any = public()
    vault_count: int
    combat: Any = public()
    census: Any = public()
    choices: ChoicesView
    revealed_choices: Any = public()
    over: Any = public()
    ranking: Any = public()
    piles_order: dict[str, list[str]] = secret(omit=True)
    decks: dict[str, list[str]] = secret(omit=True)
    vault: list[str] = secret(omit=True)
    cards: ByAudience[dict[str, Any]]
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
    combat = None
    if state.combat is not None:
        cb = state.combat
        combat = {
            **attrs.asdict(cb),
            "def_cards": show(cb.def_cards),
            "support_queue": list(cb.support_queue),
            "dice": list(cb.dice),
        }
    cities = [
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

    def own(p: Any) -> set[str]:
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


def _cards(seen: set[str]) -> dict[str, Any]:
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
