"""What each viewer may see: views and the leak-test secrets (§5); events are redacted by the
kernel (``domain.secrets``) from their declarations."""

from __future__ import annotations

from functools import cache
from typing import Any

import attrs

from ..viewers import Viewer
from .content import COLORS, content
from .legal import to_act
from .state import State

__all__ = ["hidden_values", "view"]


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


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    c = content()
    seen: set[str] = set()

    def show(cards: tuple[str, ...]) -> list[str]:
        seen.update(cards)
        return list(cards)

    players = []
    for p in state.players:
        mine = viewer.sees_seat(p.seat)
        slots = []
        for i, stack in enumerate(p.slots):
            visible = mine or p.revealed[i]
            slots.append(
                {
                    "count": len(stack),
                    "revealed": p.revealed[i],
                    "cards": show(stack) if visible else None,
                }
            )
        nation = c.nations[p.nation]
        players.append(
            {
                "seat": p.seat,
                "nation": p.nation,
                "name": nation.name,
                "religion": nation.religion,
                "treasury_limit": nation.treasury_limit,
                "upkeep": nation.upkeep + len(state.foreign(p.seat)),
                "army": nation.army,
                "navy": nation.navy,
                "powers": list(nation.powers),
                "eliminated": p.eliminated,
                "coins": p.coins,
                "score": p.score,
                "sci": p.sci,
                "art": p.art,
                "sci_locked": p.sci_locked,
                "art_locked": p.art_locked,
                "medallions": sorted(m for m, s in state.medallions.items() if s == p.seat),
                "hand_size": state.hand_size(p.seat),
                "hand": show(p.hand) if mine else None,
                "hand_count": len(p.hand),
                "deck_count": len(p.deck),
                "discard": show(p.discard),
                "mat": show(p.mat),
                "aside": show(p.aside),
                "slots": slots,
                "plan": [[card, s] for card, s in p.plan] if mine else None,
                "peek": show(p.peek) if mine else None,
                "peek_count": len(p.peek),
                "extra_picks": p.extra_picks,
                "russia_used": p.russia_used,
                "shortfall": state.shortfall[p.seat] if state.shortfall else 0,
                "owed_picks": state.owed[p.seat] if state.owed else 0,
            }
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
    out: dict[str, Any] = {
        "game": "road-to-enlightenment",
        "length": state.length,
        "turn": state.turn,
        "final_turn": state.final_turn,
        "chits": list(state.chits),
        "stage": {
            "kind": stage.kind,
            "seat": stage.seat,
            "other": stage.other,
            "n": stage.n,
            "data": stage.data
            if stage.kind != "accept"
            or viewer.omniscient
            or viewer.seat in (stage.seat, stage.other)
            else "",
            "waiting": list(stage.waiting),
        },
        "to_act": sorted(to_act(state)),
        "slot": state.slot,
        "queue": list(state.queue),
        "order": list(state.order),
        "religion": state.religion,
        "medallions": {m: state.medallions.get(m) for m in c.medallions},
        "diplomacy": [
            {"a": k.split("|")[0], "b": k.split("|")[1], "status": v}
            for k, v in sorted(state.diplomacy.items())
        ],
        "cities": cities,
        "players": players,
        "rows": {col: show(state.rows.get(col, ())) for col in COLORS},
        "piles": {col: len(state.piles.get(f"pile:{col}", ())) for col in COLORS},
        "box": show(state.box),
        "vault_count": len(state.vault),
        "combat": combat,
        "census": list(state.census),
        "choices": state.choices.visible_to(viewer),
        "revealed_choices": [[s, list(ch)] for s, ch in state.p3],
        "over": state.over,
        "ranking": list(state.ranking),
    }
    if viewer.omniscient:
        out["piles_order"] = {k: list(v) for k, v in state.piles.items()}
        out["decks"] = {str(p.seat): show(p.deck) for p in state.players}
        out["vault"] = show(state.vault)
    out["cards"] = {card: _card_info(card) for card in sorted(seen)}
    return out


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
