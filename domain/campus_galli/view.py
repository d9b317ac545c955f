"""What each viewer may see: the view and the secrets they must not see (events are redacted
by the kernel, ``domain.secrets``, from their declarations)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from ..secrets import secret
from ..simultaneous import ChoicesView
from ..values import replace
from ..viewers import SPECTATOR, Viewer, seat_viewer
from ..views import ByAudience, internal, public, view_part
from .content import ACTIONS, COLOURS, PLAN, SECTIONS, TASKS
from .evolve import PILES
from .geometry import cell_xy, cells_of
from .legal import SIMULTANEOUS_EVENTS, to_act
from .queries import ALL_LETTERS, is_complete, player_score
from .state import Phase, State

__all__ = ["CampusPanel", "CampusView", "card_info", "full_view", "hidden_values"]


_XY = [list(cell_xy(c)) for c in range(21 * 14)]


def _xy(cells: Any) -> list[list[int]]:
    return [_XY[c] for c in cells]


def _tiles(t: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(COLOURS, t, strict=True))


@cache
def _card_info(card: str) -> dict[str, Any]:
    if card in ACTIONS:
        a = ACTIONS[card]
        return {
            "kind": a.kind,
            "level": a.level,
            "number": a.number,
            "large": a.large or None,
            "colours": list(a.colours),
            "shapes": list(a.shapes),
            "cost": list(a.cost),
            "grand": a.grand,
            "name": a.name,
            "book_tile": a.book_tile or None,
            "guest_building": a.guest_building or None,
            "guest_rewards": list(a.guest_rewards),
        }
    t = TASKS[card]
    return {
        "kind": t.kind,
        "level": t.level,
        "border": t.border,
        "seals": t.seals,
        "half_seals": t.half_seals,
        "building": t.building or None,
        "buildings": list(t.buildings),
        "colours": list(t.colours),
        "a": list(t.a),
        "b": list(t.b),
        "shape": t.shape or None,
        "shapes": list(t.shapes),
        "area": t.area or None,
        "areas": list(t.areas),
        "cost": list(t.cost),
        "cells": _xy(sorted(t.cells)),
        "name": t.name,
    }


def card_info(card: str) -> dict[str, Any]:
    """What is printed on an action or task card (a fresh copy: callers may mutate it)."""
    return dict(_card_info(card))


_PLAN = {
    "width": PLAN.width,
    "height": PLAN.height,
    # '.' grass, 'T' tree, a letter = a space of that building.
    "terrain": list(PLAN.terrain),
    # Per cell: "R"/"B"/"G"/"Y" for a coloured symbol, else null.
    "symbols": [
        [PLAN.symbols.get(y * PLAN.width + x) for x in range(PLAN.width)]
        for y in range(PLAN.height)
    ],
    "north_tower": _xy(sorted(PLAN.tower)),
}

_BUILDINGS = {
    b: {
        "letter": b,
        "name": PLAN.buildings[b].name,
        "area": PLAN.buildings[b].area,
        "expansion_cost": list(PLAN.buildings[b].expansion_cost),
        "cells": _xy(sorted(PLAN.buildings[b].cells)),
    }
    for b in ALL_LETTERS
}


def _others_next_year(p: CampusPanel) -> int:
    return p.others_next_year


def _others_hand(p: CampusPanel) -> int:
    return p.others_hand


@view_part
class CampusPanel:
    seat: int
    this_year_count: int
    next_year: list[str] | None = secret(owner="seat")
    next_year_count: int = secret(owner="seat", blank_from=_others_next_year)
    hand: list[str] | None = secret(owner="seat")
    hand_count: int = secret(owner="seat", blank_from=_others_hand)
    """The others see a committed chooser's hand laid out: empty, the rest on next year."""
    selection_face_down: bool
    selected: str | None
    used: list[str]
    library: list[str]
    guests: list[str]
    fulfilled: list[str]
    good_coop: int
    tiles: dict[str, int]
    monks_in_supply: int
    passed_special: bool
    begged: bool
    score: int
    others_next_year: int = internal()
    others_hand: int = internal()


@view_part
class CampusView:
    level: int
    mode: str
    players_count: int
    phase: str
    round: int
    year: int
    to_act: list[int]
    plan: Any = public()
    buildings: Any = public()
    cordon: Any = public()
    sections_placed: Any = public()
    monks: Any = public()
    hut: Any = public()
    bag: Any = public()
    task_deck_count: Any = public()
    task_board: Any = public()
    task_discard: Any = public()
    set_aside: Any = public()
    collapse_reminders: Any = public()
    tile_supply: Any = public()
    unfinished: Any = public()
    selection: ChoicesView
    queue: Any = public()
    beg_queue: Any = public()
    turn: Any = public()
    special: Any = public()
    event: Any = public()
    last_dice: Any = public()
    players: tuple[CampusPanel, ...]
    result: Any = public()
    task_deck: list[str] = secret(omit=True)
    this_year: list[list[str]] = secret(omit=True)
    unfinished_piles: list[list[str]] = secret(omit=True)
    cards: ByAudience[dict[str, Any]]
    """What is printed on every card the audience sees."""
    prompt: ByAudience[str]


def full_view(state: State, prompt: Callable[[State, Viewer], str]) -> CampusView:
    """Everything any audience may be shown; the kernel redacts it per viewer."""
    shown: set[str] = set()  # the cards every audience sees

    def show(cards: Any) -> list[str]:
        out = list(cards)
        shown.update(out)
        return out

    players = []
    committed = state.choices.committed_seats if state.phase is Phase.SELECT else frozenset()
    for seat, p in enumerate(state.players):
        # Rulebook: "Place your selected card face down on the space with the sundial. Place
        # the other card on the "next year" space." Once a chooser has committed, the others
        # see its hand empty, one card face down and the rest on its next-year pile.
        laid = seat in committed and bool(p.hand)
        players.append(
            CampusPanel(
                seat=seat,
                this_year_count=len(p.this_year),
                next_year=list(p.next_year),
                next_year_count=len(p.next_year),
                hand=list(p.hand),
                hand_count=len(p.hand),
                selection_face_down=seat in committed,
                selected=show([p.selected])[0] if p.selected else None,
                used=show(p.used),
                library=show(p.library),
                guests=show(p.guests),
                fulfilled=show(p.fulfilled),
                good_coop=p.good_coop,
                tiles=_tiles(p.tiles),
                monks_in_supply=p.supply,
                passed_special=p.passed,
                begged=p.begged,
                score=player_score(state, seat),
                others_next_year=len(p.next_year) + (len(p.hand) - 1 if laid else 0),
                others_hand=0 if laid else len(p.hand),
            )
        )
    bag: dict[str, dict[str, int]] = {}
    for s in state.bag:
        sec = SECTIONS[s]
        bag.setdefault(sec.shape, {}).setdefault(sec.colour, 0)
        bag[sec.shape][sec.colour] += 1
    t = state.turn
    ev = state.event
    view = CampusView(
        level=state.level,
        mode=state.mode,
        players_count=state.n,
        phase=state.phase,
        round=state.round_no,
        year=state.year,
        to_act=sorted(to_act(state)),
        plan=_PLAN,
        buildings=[
            {
                **_BUILDINGS[b],
                "side": "construction" if b in state.construction else "parchment",
                "complete": is_complete(state, b),
            }
            for b in ALL_LETTERS
        ],
        cordon=state.cordon or None,
        sections_placed=[
            {
                "id": s,
                "colour": SECTIONS[s].colour,
                "shape": SECTIONS[s].shape,
                "origin": SECTIONS[s].origin,
                "cells": _xy(cells_of(m)),
            }
            for s, m in state.placed
        ],
        monks=[
            {
                "owner": m.owner,
                "kind": m.kind,
                "section": m.section or None,
                "building": m.building or None,
                "cells": _xy(cells_of(m.gap)),
            }
            for m in state.monks
        ],
        hut=sorted(state.hut),
        bag={"count": len(state.bag), "by_shape": bag},
        task_deck_count=len(state.task_deck),
        task_board=[{"card": show([c])[0], "status": s} for c, s in state.board],
        task_discard=show(state.task_discard),
        set_aside=show(state.set_aside),
        collapse_reminders=show(state.reminders),
        tile_supply=_tiles(state.tile_supply),
        unfinished=[
            {"pile": pile, "face_up": show(cards[:1])[0] if cards else None, "count": len(cards)}
            for pile, cards in zip(PILES, state.unfinished, strict=True)
        ]
        if state.level == 3
        else [],
        selection=state.choices.view(),
        queue=[[k, s, st] for k, s, st in state.queue],
        beg_queue=[[k, s] for k, s in state.beg_queue],
        turn=None
        if t is None
        else {
            "seat": t.seat,
            "card": show([t.card])[0] if t.card else None,
            "selected": t.selected or None,
            "stage": t.stage,
            "source": t.source or None,
            "holding": t.holding or None,
            "via": t.via,
            "flips_pending": t.flips,
            "rescore_left": t.rescore_left,
            "lazy_owed": len(t.owed),
        },
        special={
            "order": list(state.special_order),
            "current": min(to_act(state), default=None) if state.phase is Phase.SPECIAL else None,
        },
        event=None
        if ev is None
        else {
            "card": ev.card,
            "kind": ev.kind,
            # Simultaneous answers: the seats that have not answered yet; otherwise the
            # queue in priority order (the first one answers now).
            "waiting_on": sorted(state.choices.waiting_on)
            if ev.kind in SIMULTANEOUS_EVENTS
            else list(ev.queue),
            "dice": [[s, list(d)] for s, d in ev.dice],
            "target": ev.target or None,
        },
        last_dice=list(state.last_dice),
        players=tuple(players),
        result=None
        if state.phase is not Phase.OVER
        else {
            "scores": list(state.final_scores),
            "team_score": state.team_score if state.cooperative else None,
            "pigment": state.pigment or None,
            "outcome": state.outcome or None,
            "qualified_for_next_level": state.qualified,
        },
        task_deck=list(state.task_deck),
        this_year=[list(p.this_year) for p in state.players],
        unfinished_piles=[list(c) for c in state.unfinished],
        cards=ByAudience((), {}),
        prompt=ByAudience(
            tuple(prompt(state, seat_viewer(s)) for s in range(state.n)), prompt(state, SPECTATOR)
        ),
    )
    shown.update(state.hut)
    seats = []
    for seat, p in enumerate(state.players):
        mine = state.choices.choice_of(seat) or ()
        seats.append(_cards(shown.union(p.hand, p.next_year, mine)))
    review = shown.union(state.task_deck, *(c for c in state.unfinished))
    for p in state.players:
        review.update(p.hand, p.next_year, p.this_year)
    return replace(view, cards=ByAudience(tuple(seats), _cards(shown), _cards(review)))


def _cards(shown: set[str]) -> dict[str, Any]:
    # The cached descriptions are shared, not copied: views are serialised, never mutated.
    return {c: _card_info(c) for c in sorted(shown) if c in ACTIONS or c in TASKS}


def hidden_values(state: State, viewer: Viewer) -> frozenset[str]:
    if viewer.omniscient:
        return frozenset()
    hidden: set[str] = set(state.task_deck)
    for seat, p in enumerate(state.players):
        if not viewer.sees_seat(seat):
            hidden.update(p.hand)
            hidden.update(p.next_year)
            hidden.update(p.this_year)
        elif state.year == 1:
            hidden.update(p.this_year)
    for pile in state.unfinished:
        hidden.update(pile[1:])
    hidden.update(c for c in state.box if not (state.level == 3 and ACTIONS[c].kind == "book"))
    return frozenset(hidden)
