"""Derived facts about a state: the plan, options a card allows, payments, tasks, scores."""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache
from itertools import combinations_with_replacement

from ..viewers import Seat
from .content import (
    ACTIONS,
    COLOURS,
    PLAN,
    SECTIONS,
    TABLES,
    TASKS,
    ActionCard,
    Section,
    TaskCard,
)
from .geometry import CANDIDATES, Placement, components, ring
from .state import CI, Monk, State, Turn

BUILDING_MASK = {letter: b.mask for letter, b in PLAN.buildings.items()}
ALL_LETTERS = tuple(sorted(PLAN.buildings))
TOWER_MASK = sum(1 << c for c in PLAN.tower)
SYMBOL_MASK = {c: sum(1 << cell for cell, s in PLAN.symbols.items() if s == c) for c in COLOURS}
ALL_BUILDING_MASK = sum(BUILDING_MASK.values())
FACES = ("R", "B", "G", "Y", "WHITE", "BLACK")


def popcount(mask: int) -> int:
    return mask.bit_count()


@lru_cache(maxsize=64)
def _side_mask(construction: frozenset[str]) -> int:
    return sum(BUILDING_MASK[b] for b in construction)


def wooden_mask(state: State) -> int:
    return _side_mask(state.construction)


def uncovered_wooden(state: State) -> int:
    return wooden_mask(state) & ~state.cover


def blocked_mask(state: State, ignore: str = "") -> int:
    cover = state.cover
    if ignore:
        cover &= ~section_mask(state, ignore)
    blocked = cover | (ALL_BUILDING_MASK & ~wooden_mask(state))
    if state.cordon:
        blocked |= BUILDING_MASK[state.cordon]
    return blocked


def section_mask(state: State, section: str) -> int:
    for s, m in state.placed:
        if s == section:
            return m
    return 0


@lru_cache(maxsize=8192)
def _legal(shape: str, blocked: int) -> tuple[Placement, ...]:
    return tuple(p for p in CANDIDATES[shape] if not p.mask & blocked)


def legal_placements(state: State, shape: str, ignore: str = "") -> tuple[Placement, ...]:
    out = _legal(shape, blocked_mask(state, ignore))
    if ignore:
        old = section_mask(state, ignore)
        out = tuple(p for p in out if p.mask != old)
    return out


def placement_problem(state: State, p: Placement, ignore: str = "") -> str | None:
    """Why a candidate placement breaks a building rule now (None if legal)."""
    cover = state.cover & ~section_mask(state, ignore) if ignore else state.cover
    if p.mask & cover:
        return "occupied"
    if p.mask & ALL_BUILDING_MASK & ~wooden_mask(state):
        return "parchment"
    if state.cordon and p.mask & BUILDING_MASK[state.cordon]:
        return "construction_halt"
    if ignore and p.mask == section_mask(state, ignore):
        return "same_position"
    return None


def is_complete(state: State, letter: str) -> bool:
    m = BUILDING_MASK[letter]
    return letter in state.construction and state.cover & m == m


# -- what a card allows ----------------------------------------------------------------------
def card_cost(state: State, turn: Turn, source: str) -> tuple[str, ...]:
    if state.level == 1 or turn.free:
        return ()
    card = ACTIONS[turn.card]
    if card.kind == "double":
        return ("R",) if source == "hut" else ("B",)
    return card.cost


def hut_allows(card: ActionCard, source: str, section: str) -> bool:
    sec = SECTIONS[section]
    if card.kind == "red":
        return card.grand or sec.colour in card.colours
    if card.kind == "double":
        return source == "hut" and sec.shape == card.shapes[0]
    return card.kind == "angel"


def bag_allows(card: ActionCard, source: str, shape: str) -> bool:
    if card.kind == "blue":
        return shape in card.shapes
    if card.kind == "double":
        return source == "bag" and shape == card.shapes[0]
    return card.kind == "angel"


def bag_shapes(state: State) -> frozenset[str]:
    return frozenset(SECTIONS[s].shape for s in state.bag)


def hut_options(state: State, card: ActionCard, source: str) -> list[str]:
    return sorted(
        s
        for s in state.hut
        if hut_allows(card, source, s) and legal_placements(state, SECTIONS[s].shape)
    )


def bag_options(state: State, card: ActionCard, source: str) -> list[str]:
    shapes = bag_shapes(state)
    return sorted(
        sh for sh in shapes if bag_allows(card, source, sh) and legal_placements(state, sh)
    )


def card_can_build(state: State, card: ActionCard) -> bool:
    if card.kind == "double":
        return bool(hut_options(state, card, "hut") or bag_options(state, card, "bag"))
    return bool(hut_options(state, card, "") or bag_options(state, card, ""))


# -- payments ----------------------------------------------------------------------------------
def matches(cost: tuple[str, ...], pay: tuple[str, ...]) -> bool:
    if len(cost) != len(pay):
        return False
    left = [0, 0, 0, 0]
    for c in pay:
        if c not in CI:
            return False
        left[CI[c]] += 1
    for t in cost:
        if t in CI:
            left[CI[t]] -= 1
            if left[CI[t]] < 0:
                return False
    pairs = sum(t == "pair" for t in cost)
    return _pairs(tuple(left), pairs)


def _pairs(left: tuple[int, ...], pairs: int) -> bool:
    if pairs == 0:
        return True
    for i, v in enumerate(left):
        if v >= 2 and _pairs((*left[:i], v - 2, *left[i + 1 :]), pairs - 1):
            return True
    return False


@lru_cache(maxsize=4096)
def payments(cost: tuple[str, ...], tiles: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """Every payment (colours in R, B, G, Y order) of ``cost`` the holder of ``tiles`` can make."""
    out = []
    for combo in combinations_with_replacement(COLOURS, len(cost)):
        if any(combo.count(c) > tiles[CI[c]] for c in COLOURS):
            continue
        if matches(cost, combo):
            out.append(combo)
    return tuple(out)


def canonical(tiles: tuple[str, ...]) -> bool:
    return all(t in CI for t in tiles) and list(tiles) == sorted(tiles, key=lambda t: CI[t])


def can_have(tiles: tuple[int, ...], colours: tuple[str, ...]) -> bool:
    return all(colours.count(c) <= tiles[CI[c]] for c in COLOURS)


def take_choices(supply: tuple[int, ...], k: int) -> list[tuple[str, ...]]:
    """Ways to take ``k`` tiles of free choice from the supply (fewer if it runs short)."""
    k = min(k, sum(supply))
    return [c for c in combinations_with_replacement(COLOURS, k) if can_have(supply, c)]


def capped(supply: tuple[int, ...], tiles: tuple[str, ...]) -> tuple[str, ...]:
    """The part of ``tiles`` the supply can give (a tile not in stock is lost, DD-15)."""
    left = list(supply)
    out = []
    for t in tiles:
        if t in CI and left[CI[t]] > 0:
            left[CI[t]] -= 1
            out.append(t)
    return tuple(out)


def reward_options(card: ActionCard) -> tuple[str, ...]:
    """Tile choices for producing/re-scoring a book or a guest ("" = nothing)."""
    if card.kind == "book":
        return COLOURS if card.book_tile == "?" else (card.book_tile,)
    return card.guest_rewards or ("",)


# -- tiles for a lay --------------------------------------------------------------------------
def tiles_for_lay(section: str, mask: int) -> tuple[str, ...]:
    sec = SECTIONS[section]
    out: list[str] = []
    if sec.joker:
        for c in COLOURS:
            out += [c] * popcount(mask & SYMBOL_MASK[c])
        return tuple(out)
    if mask & ~ALL_BUILDING_MASK == 0:
        out.append(sec.colour)
    out += [sec.colour] * popcount(mask & SYMBOL_MASK[sec.colour])
    return tuple(out)


def master_builder_allowed(section: str, mask: int) -> bool:
    sec = SECTIONS[section]
    return bool(mask & SYMBOL_MASK.get(sec.colour, 0)) and mask & ~ALL_BUILDING_MASK == 0


# -- empty spaces -----------------------------------------------------------------------------
def new_gaps(state: State, turn: Turn) -> tuple[int, ...]:
    before = set(turn.before)
    laid = 0
    for _, lm in turn.laid:
        laid |= lm
    near = ring(laid)
    monked = 0
    for m in state.monks:
        if m.kind == "lazy":
            monked |= m.gap
    return tuple(
        k
        for k in components(uncovered_wooden(state))
        if popcount(k) <= 3 and k not in before and k & near and not k & monked
    )


# -- tasks ------------------------------------------------------------------------------------
def building_area(letter: str) -> str:
    return PLAN.buildings[letter].area


def impossible(state: State, card: TaskCard) -> bool:
    k = card.kind
    if k in ("progress", "letter_shape"):
        return is_complete(state, card.building)
    if k == "direction":
        return all(is_complete(state, b) for b in card.buildings)
    cells = sum(1 << c for c in card.cells)
    if k == "expansion":
        return is_complete(state, card.building) or state.cover & cells == cells
    if k == "connection":
        return all(is_complete(state, b) for b in card.buildings) or state.cover & cells == cells
    return False


def _adjacent_sections(state: State, mask: int) -> list[str]:
    near = ring(mask)
    return [s for s, m in state.placed if m & near]


def _group(state: State, start: int) -> int:
    """Cells of all sections edge-connected to ``start`` (including it)."""
    group = start
    changed = True
    while changed:
        changed = False
        near = ring(group)
        for _, m in state.placed:
            if m & near and not m & group:
                group |= m
                changed = True
    return group


LAY_TASKS = ("progress", "colour_combo", "shape_combo", "direction", "letter_shape")
"""Task kinds met by one lay on its own (see ``lay_meets``)."""


def lay_meets(card: TaskCard, sec: Section, mask: int, touching: Collection[str]) -> bool:
    """Whether laying ``sec`` on the cells ``mask`` meets a task of a ``LAY_TASKS`` kind.

    ``touching`` holds the colours and shapes of the sections edge-adjacent to the lay (only
    the combination tasks read it; colour and shape names never coincide, so one set serves
    both). The greedy bot calls this too, with its own faster adjacency.
    """
    k = card.kind
    if k == "progress":
        return bool(mask & BUILDING_MASK[card.building])
    if k in ("colour_combo", "shape_combo"):
        mine = sec.colour if k == "colour_combo" else sec.shape
        return (mine in card.a and any(x in touching for x in card.b)) or (
            mine in card.b and any(x in touching for x in card.a)
        )
    if k == "direction":
        return sec.colour in card.colours and any(mask & BUILDING_MASK[b] for b in card.buildings)
    if k == "letter_shape":
        return sec.shape == card.shape and bool(mask & BUILDING_MASK[card.building])
    raise ValueError(f"{k} is not a task met by one lay")


def _touching(state: State, mask: int) -> frozenset[str]:
    adjacent = [SECTIONS[o] for o in _adjacent_sections(state, mask)]
    return frozenset(x for sec in adjacent for x in (sec.colour, sec.shape))


def satisfied(state: State, seat: Seat, card: TaskCard, turn: Turn) -> bool:
    k = card.kind
    laid = [(SECTIONS[s], m) for s, m in turn.laid]
    if k in LAY_TASKS:
        combo = k.endswith("_combo")
        return any(lay_meets(card, sec, m, _touching(state, m) if combo else ()) for sec, m in laid)
    tiles = state.players[seat].tiles
    if k == "long_hours":
        return tiles[CI[card.colours[0]]] == 0
    if k == "alms":
        return sum(tiles) <= 2
    if k == "complete":
        return bool(turn.completed)
    if k == "new_book":
        return turn.book
    if k == "new_person":
        return card.area in turn.person_areas
    if k == "all_together":
        return all(c in turn.received for c in card.colours)
    cells = sum(1 << c for c in card.cells)
    if k == "expansion":
        return any(m & cells and m & BUILDING_MASK[card.building] for _, m in laid)
    if k == "connection":
        a, b = card.buildings
        for _, m in laid:
            if m & cells:
                g = _group(state, m)
                if g & BUILDING_MASK[a] and g & BUILDING_MASK[b]:
                    return True
        return False
    return False


def next_task(state: State, seat: Seat, turn: Turn) -> str | None:
    for card_id, status in state.board:
        if status == "open" and satisfied(state, seat, TASKS[card_id], turn):
            return card_id
    return None


# -- monks and areas --------------------------------------------------------------------------
def monk_areas(state: State, seat: Seat, kinds: tuple[str, ...]) -> set[str]:
    areas: set[str] = set()
    for m in state.monks:
        if m.owner != seat or m.kind not in kinds:
            continue
        if m.building:
            areas.add(building_area(m.building))
        elif m.section:
            mask = section_mask(state, m.section)
            for letter, bm in BUILDING_MASK.items():
                if mask & bm:
                    areas.add(building_area(letter))
    return areas


def monk_key(m: Monk) -> str:
    """A non-lazy monk's stable name: ``section:<id>``, ``grass:<letter>``, ``guest:<letter>``.

    Monks with the same name are interchangeable (same owner, kind and place)."""
    return f"{m.kind}:{m.section or m.building}"


def lazy_candidates(state: State, seat: Seat) -> list[str]:
    """The own monks on the plan that can become a lazy monk when the supply is empty (DD-16),
    most recently placed first (the first one is the default)."""
    keys = [monk_key(m) for m in state.monks if m.owner == seat and m.kind != "lazy"]
    return list(dict.fromkeys(reversed(keys)))


def can_exchange(state: State, seat: Seat) -> bool:
    """A 3-for-1 exchange is possible: 3 tiles in hand and a colour in stock."""
    return sum(state.players[seat].tiles) >= 3 and any(state.tile_supply)


def collapse_target(state: State, card: TaskCard) -> str:
    if len(state.placed) < 3:
        return ""
    for shape in card.shapes:
        cands = [s for s, _ in state.placed if SECTIONS[s].shape == shape]
        if not cands:
            continue
        if len(cands) > 1:
            for colour in card.colours:
                cc = [s for s in cands if SECTIONS[s].colour == colour]
                if cc:
                    cands = cc
                    break
        if len(cands) > 1:
            cands = [s for s in cands if SECTIONS[s].origin == "hut"] or cands
        return sorted(cands)[0]
    return ""


def storm_sections(state: State) -> list[str]:
    if state.cover & TOWER_MASK != TOWER_MASK:
        return []
    return [s for s, m in state.placed if m & TOWER_MASK]


def dice_cost(faces: tuple[str, ...]) -> tuple[str, ...]:
    out = tuple(f if f in CI else "?" for f in faces if f != "WHITE")
    return tuple(sorted(out, key=lambda t: CI.get(t, 9)))


# -- scoring ----------------------------------------------------------------------------------
def tile_set_points(t: tuple[int, ...]) -> int:
    return max(k + sum((v - k) // 3 for v in t) for k in range(min(t) + 1))


def player_score(state: State, seat: Seat) -> int:
    p = state.players[seat]
    monks = sum(1 for m in state.monks if m.owner == seat and m.kind != "lazy")
    lazy = sum(1 for m in state.monks if m.owner == seat and m.kind == "lazy")
    whole = sum(TASKS[c].seals for c in p.fulfilled)
    if state.level == 1:
        return monks - lazy + whole
    halves = sum(TASKS[c].half_seals for c in p.fulfilled)
    halves += sum(1 for b in p.library if not ACTIONS[b].monastery_plan)
    plan = sum(1 for b in p.library if ACTIONS[b].monastery_plan)
    return monks - lazy + whole + halves // 2 + plan + p.good_coop + tile_set_points(p.tiles)


def team_score(state: State, scores: tuple[int, ...]) -> int:
    total = sum(scores)
    unc = uncovered_wooden(state)
    big = [k for k in components(unc) if popcount(k) >= 4]
    parchment = [b for b in ALL_LETTERS if b not in state.construction]
    total += -3 * len(big) - 6 * len(parchment)
    if state.level == 3:
        total -= len(state.reminders)
        if not parchment and not unc:
            total += 5
    return total


def pigment(level: int, score: int) -> tuple[str, str, bool]:
    band = TABLES["pigments"][str(level)][0]
    for row in TABLES["pigments"][str(level)]:
        if score >= row[0]:
            band = row
    return str(band[1]), str(band[2]), bool(band[3])
