"""What each viewer may see: the view and the secrets they must not see (events are redacted
by the kernel, ``domain.secrets``, from their declarations)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Literal, TypedDict

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
from .state import Phase, Stage, State

__all__ = ["CampusPanel", "CampusView", "card_info", "full_view", "hidden_values"]


_XY = [list(cell_xy(c)) for c in range(21 * 14)]

XY = list[list[int]]
"""Cells as ``[column, row]`` pairs, 0-based from the north-west corner."""


class ActionInfo(TypedDict):
    """What is printed on an action card."""

    kind: str
    level: int
    number: int
    large: int | None
    colours: list[str]
    shapes: list[str]
    cost: list[str]
    grand: bool
    name: str
    book_tile: str | None
    guest_building: str | None
    guest_rewards: list[str]


class TaskInfo(TypedDict):
    """What is printed on a task card."""

    kind: str
    level: int
    border: str
    seals: int
    half_seals: int
    building: str | None
    buildings: list[str]
    colours: list[str]
    a: list[str]
    b: list[str]
    shape: str | None
    shapes: list[str]
    area: str | None
    areas: list[str]
    cost: list[str]
    cells: XY
    name: str


CardInfo = ActionInfo | TaskInfo


class PlanView(TypedDict):
    width: int
    height: int
    terrain: list[str]
    symbols: list[list[str | None]]
    north_tower: XY


class BuildingView(TypedDict):
    letter: str
    name: str
    area: str
    expansion_cost: list[str]
    cells: XY
    side: Literal["construction", "parchment"]
    complete: bool


class SectionView(TypedDict):
    id: str
    colour: str
    shape: str
    origin: str
    cells: XY


class MonkView(TypedDict):
    owner: int
    kind: str
    section: str | None
    building: str | None
    cells: XY


class BagView(TypedDict):
    count: int
    by_shape: dict[str, dict[str, int]]
    """Sections in the prayer pouch by shape, then colour."""


class TaskSlot(TypedDict):
    card: str
    status: str


class UnfinishedView(TypedDict):
    pile: str
    face_up: str | None
    count: int


class TurnView(TypedDict):
    seat: int
    card: str | None
    selected: str | None
    stage: Stage
    source: str | None
    holding: str | None
    via: str
    flips_pending: int
    rescore_left: int
    lazy_owed: int


class SpecialView(TypedDict):
    order: list[int]
    current: int | None


class EventView(TypedDict):
    card: str
    kind: str
    waiting_on: list[int]
    dice: list[list[int | list[str]]]
    """``[seat, faces]`` per seat that rolled."""
    target: str | None


class ResultView(TypedDict):
    scores: list[int]
    team_score: int | None
    pigment: str | None
    outcome: str | None
    qualified_for_next_level: bool


def _xy(cells: Iterable[int]) -> XY:
    return [_XY[c] for c in cells]


def _tiles(t: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(COLOURS, t, strict=True))


@cache
def _card_info(card: str) -> CardInfo:
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


def card_info(card: str) -> CardInfo:
    """What is printed on an action or task card (a fresh copy: callers may mutate it)."""
    return _card_info(card).copy()


_PLAN: PlanView = {
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


def _building(b: str, construction: bool, complete: bool) -> BuildingView:
    return {
        "letter": b,
        "name": PLAN.buildings[b].name,
        "area": PLAN.buildings[b].area,
        "expansion_cost": list(PLAN.buildings[b].expansion_cost),
        "cells": _BUILDING_CELLS[b],
        "side": "construction" if construction else "parchment",
        "complete": complete,
    }


_BUILDING_CELLS = {b: _xy(sorted(PLAN.buildings[b].cells)) for b in ALL_LETTERS}


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
    plan: PlanView = public()
    buildings: list[BuildingView] = public()
    cordon: str | None = public()
    sections_placed: list[SectionView] = public()
    monks: list[MonkView] = public()
    hut: list[str] = public()
    bag: BagView = public()
    task_deck_count: int = public()
    task_board: list[TaskSlot] = public()
    task_discard: list[str] = public()
    set_aside: list[str] = public()
    collapse_reminders: list[str] = public()
    tile_supply: dict[str, int] = public()
    unfinished: list[UnfinishedView] = public()
    selection: ChoicesView
    queue: list[list[int | Stage]] = public()
    """Turns still to come: ``[number, seat, stage]``."""
    beg_queue: list[list[int]] = public()
    turn: TurnView | None = public()
    special: SpecialView = public()
    event: EventView | None = public()
    last_dice: list[str] = public()
    players: tuple[CampusPanel, ...]
    result: ResultView | None = public()
    task_deck: list[str] = secret(omit=True)
    this_year: list[list[str]] = secret(omit=True)
    unfinished_piles: list[list[str]] = secret(omit=True)
    cards: ByAudience[dict[str, CardInfo]]
    """What is printed on every card the audience sees."""
    prompt: ByAudience[str]


def full_view(state: State, prompt: Callable[[State, Viewer], str]) -> CampusView:
    """Everything any audience may be shown; the kernel redacts it per viewer."""
    shown: set[str] = set()  # the cards every audience sees

    def show(cards: Iterable[str]) -> list[str]:
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
    for s in sorted(state.bag):  # a frozenset: its order differs between processes
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
            _building(b, b in state.construction, is_complete(state, b)) for b in ALL_LETTERS
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


def _cards(shown: set[str]) -> dict[str, CardInfo]:
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
