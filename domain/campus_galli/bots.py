"""A greedy bot: it values each option by what the lay is worth right now.

A placement is worth its master builder (level I) or tiles (level II+), the seals of the tasks
it fulfils (weighted up: a task taken is one the rivals lose), a completed building's master
builder, the lazy monks it sends home (an own one +1, a rival's against), a little for
covering wooden spaces, and minus the lazy monks it costs. A building flipped after a
completion is the one that sends the most own lazy monks home. Cards are
chosen by the best placement they allow; bag draws count the average over the bag.

It sees only its seat's view: :func:`public_state` rebuilds from it the public parts of the
state its valuations read (never another hand, a next-year pile or the task deck), and a
section being moved is laid where one of the seat's legal commands puts it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from ..bots import SeatView
from ..randomness import Rng
from ..viewers import Seat
from . import commands as C
from .content import ACTIONS, COLOURS, PLAN, SECTIONS, TASKS, TaskCard
from .geometry import Placement, cell_xy, components, mask_of, placement, ring_fast
from .queries import (
    ALL_BUILDING_MASK,
    ALL_LETTERS,
    BUILDING_MASK,
    LAY_TASKS,
    SYMBOL_MASK,
    bag_options,
    card_cost,
    hut_options,
    lay_meets,
    legal_placements,
    payments,
    popcount,
    satisfied,
    uncovered_wooden,
)
from .state import Monk, Phase, Player, Stage, State, Turn

__all__ = ["GreedyBot", "public_state"]

_XY_CELL = {cell_xy(c): c for c in range(PLAN.width * PLAN.height)}


def _mask(cells: Iterable[Sequence[int]]) -> int:
    return mask_of(_XY_CELL[(x, y)] for x, y in cells)


def public_state(view: dict[str, Any]) -> State:
    """The parts of the state the greedy bot's queries read, rebuilt from ``view`` alone.

    Everything it reads is public: the plan (sections laid, monks, the building sides, the
    cordon), the hut, the bag by shape and colour (any sections of that shape and colour
    will do: they are alike), the task board and each player's tiles and monks; the seat's
    own hand comes from its view. Other hands, next-year piles and the task deck stay empty.
    """
    placed = tuple((s["id"], _mask(s["cells"])) for s in view["sections_placed"])
    cover = 0
    for _, m in placed:
        cover |= m
    hut = frozenset(view["hut"])
    taken = hut | {s for s, _ in placed}
    bag: set[str] = set()
    for shape, colours in view["bag"]["by_shape"].items():
        for colour, count in colours.items():
            alike = sorted(
                s
                for s, sec in SECTIONS.items()
                if sec.shape == shape and sec.colour == colour and s not in taken
            )
            bag.update(alike[:count])
    players = tuple(
        Player(
            hand=tuple(p["hand"] or ()),
            selected=p["selected"],
            used=tuple(p["used"]),
            library=tuple(p["library"]),
            guests=tuple(p["guests"]),
            fulfilled=tuple(p["fulfilled"]),
            good_coop=p["good_coop"],
            tiles=tuple(p["tiles"][c] for c in COLOURS),
            supply=p["monks_in_supply"],
            passed=p["passed_special"],
            begged=p["begged"],
        )
        for p in view["players"]
    )
    monks = tuple(
        Monk(
            owner=m["owner"],
            kind=m["kind"],
            section=m["section"] or "",
            building=m["building"] or "",
            gap=_mask(m["cells"]),
        )
        for m in view["monks"]
    )
    t = view["turn"]
    turn = None
    if t is not None:
        turn = Turn(
            seat=t["seat"],
            card=t["card"] or "",
            stage=Stage(t["stage"]),
            selected=t["selected"] or "",
            source=t["source"] or "",
            holding=t["holding"] or "",
            via=t["via"],
            flips=t["flips_pending"],
            rescore_left=t["rescore_left"],
        )
    return State(
        level=view["level"],
        n=view["players_count"],
        mode=view["mode"],
        phase=Phase(view["phase"]),
        round_no=view["round"],
        year=view["year"],
        players=players,
        construction=frozenset(
            b["letter"] for b in view["buildings"] if b["side"] == "construction"
        ),
        placed=placed,
        cover=cover,
        monks=monks,
        cordon=view["cordon"] or "",
        hut=hut,
        bag=frozenset(bag),
        board=tuple((b["card"], b["status"]) for b in view["task_board"]),
        task_discard=tuple(view["task_discard"]),
        set_aside=tuple(view["set_aside"]),
        reminders=tuple(view["collapse_reminders"]),
        tile_supply=tuple(view["tile_supply"][c] for c in COLOURS),
        turn=turn,
    )


@cache
def _static(p: Placement) -> tuple[int, int, tuple[int, ...], int]:
    grass = popcount(p.mask & ~ALL_BUILDING_MASK)
    wooden = popcount(p.mask & ALL_BUILDING_MASK)
    syms = tuple(popcount(p.mask & SYMBOL_MASK[c]) for c in COLOURS)
    return grass, wooden, syms, ring_fast(p.mask)


TASK_WEIGHT = 1.3
"""A task's seals count more than a master builder's point: the task board is shared, so a
task the seat takes is also one its rivals cannot (and they are most of a level I score)."""


class _Plan:
    """What every placement of one decision is measured against (all of it public)."""

    def __init__(self, state: State, seat: Seat) -> None:
        self.unc = uncovered_wooden(state)
        monked = 0
        lazy: list[tuple[int, float]] = []
        for m in state.monks:
            if m.kind == "lazy":
                monked |= m.gap
                rest = m.gap & self.unc
                if rest:
                    lazy.append((rest, 1 if m.owner == seat else -_rival_weight(state)))
        self.monked = monked
        self.lazy = lazy
        """Each lazy monk's remaining empty space, and what closing it is worth to the seat:
        its owner gets the monk back (+1 for an own monk, a rival's point otherwise)."""
        self.small_before = {k for k in components(self.unc) if popcount(k) <= 3}
        p = state.players[seat]
        # Level I: completing a building flips another one, with a master builder (step d).
        parchment = len(state.construction) < len(ALL_LETTERS)
        self.completion = 1.0 if state.level == 1 and p.supply > 1 and parchment else 0.0
        if state.level > 1:
            # Level II+: a "complete" task on the board is met by completing a building.
            self.completion = sum(
                TASKS[c].seals + 0.5 * TASKS[c].half_seals
                for c, status in state.board
                if status == "open" and TASKS[c].kind == "complete"
            )
        self.open_buildings = [u for b in state.construction if (u := self.unc & BUILDING_MASK[b])]

    def bonus(self, mask: int) -> float:
        """What the lay gains beyond the section itself: a completed building, monks freed
        by a closed empty space (an own one +1, a rival's counted against)."""
        v = 0.0
        if self.completion and any(u & mask == u for u in self.open_buildings if u & mask):
            v += self.completion
        for rest, worth in self.lazy:
            if rest & mask == rest:
                v += worth
        return v

    def new_gaps(self, mask: int, near: int) -> int:
        """Empty spaces of 1-3 cells the lay leaves next to it that owe a lazy monk: not one
        that was there before, nor one that a lazy monk already lies in."""
        rest = self.unc & ~mask
        near &= rest
        gaps = 0
        while near:
            low = near & -near
            comp = low
            frontier = low
            while frontier and comp.bit_count() <= 3:
                frontier = ring_fast(comp) & rest
                comp |= frontier
            near &= ~comp
            if comp.bit_count() <= 3 and not comp & self.monked and comp not in self.small_before:
                gaps += 1
        return gaps


def _rival_weight(state: State) -> float:
    """A rival's point against the seat's own: all of it with one rival, less with more."""
    return 1.0 if state.n == 2 else 1.0 / (state.n - 1) if state.n > 2 else 0.0


def _task_context(state: State) -> tuple[list[tuple[TaskCard, float]], dict[str, int]]:
    """Open placement tasks with their worth, and the placed cells per colour and shape."""
    tasks = [
        (TASKS[c], TASKS[c].seals + 0.5 * TASKS[c].half_seals)
        for c, status in state.board
        if status == "open" and TASKS[c].kind in _LAY_TASKS
    ]
    by_attr: dict[str, int] = {}
    for s, m in state.placed:
        sec = SECTIONS[s]
        by_attr[sec.colour] = by_attr.get(sec.colour, 0) | m
        by_attr[sec.shape] = by_attr.get(sec.shape, 0) | m
    return tasks, by_attr


def _task_value(
    state: State,
    seat: Seat,
    section: str,
    p: Placement,
    near: int,
    ctx: tuple[list[tuple[TaskCard, float]], dict[str, int]],
) -> float:
    sec = SECTIONS[section]
    tasks, by_attr = ctx
    touching = {x for x, cells in by_attr.items() if near & cells}
    value = 0.0
    for task, worth in tasks:
        if task.kind in LAY_TASKS:
            ok = lay_meets(task, sec, p.mask, touching)
        else:
            turn = Turn(seat=seat, card="", stage=Stage.END, laid=((section, p.mask),))
            ok = satisfied(state, seat, task, turn)
        if ok:
            value += TASK_WEIGHT * worth
    return value


def _cheap_value(
    state: State,
    seat: Seat,
    section: str,
    p: Placement,
    ctx: tuple[list[tuple[TaskCard, float]], dict[str, int]],
    plan: _Plan,
) -> float:
    """The value before lazy monks: an upper bound of the full value."""
    sec = SECTIONS[section]
    grass, wooden, syms, near = _static(p)
    value = 0.05 * wooden - 0.2 * grass + plan.bonus(p.mask)
    if sec.joker:
        if state.level > 1:
            value += 0.4 * sum(syms)
    else:
        mine = syms[COLOURS.index(sec.colour)]
        if state.level == 1:
            if mine and not grass and state.players[seat].supply > 0:
                value += 1.0
        else:
            value += 0.4 * (mine + (0 if grass else 1))
    return value + _task_value(state, seat, section, p, near, ctx)


_LAY_TASKS = {
    "progress",
    "colour_combo",
    "shape_combo",
    "direction",
    "letter_shape",
    "expansion",
    "connection",
}


class _Memo:
    """One decision's valuations: the plan's measures, and the best lay per colour and shape
    (sections alike in both are worth alike)."""

    def __init__(self, state: State, seat: Seat) -> None:
        self.plan = _Plan(state, seat)
        self.values: dict[str, float] = {}


def _best_placement(
    state: State, seat: Seat, section: str, placements: tuple[Placement, ...], plan: _Plan
) -> tuple[float, Placement | None]:
    # Branch and bound: the lazy-monk penalty only lowers a value, so stop once the cheap
    # upper bound cannot beat the best full value.
    ctx = _task_context(state)
    ranked = sorted(
        ((_cheap_value(state, seat, section, p, ctx, plan), i) for i, p in enumerate(placements)),
        reverse=True,
    )
    best: tuple[float, Placement | None] = (-9.0, None)
    for cheap, i in ranked:
        if cheap <= best[0]:
            break
        p = placements[i]
        v = cheap - plan.new_gaps(p.mask, _static(p)[3])
        if v > best[0]:
            best = (v, p)
    return best


def _memo_best(state: State, seat: Seat, section: str, memo: _Memo) -> float:
    sec = SECTIONS[section]
    key = f"{sec.colour}-{sec.shape}"
    if key not in memo.values:
        placements = legal_placements(state, sec.shape)
        memo.values[key] = _best_placement(state, seat, section, placements, memo.plan)[0]
    return memo.values[key]


def _bag_value(state: State, seat: Seat, shape: str, memo: _Memo) -> float:
    sections = sorted(s for s in state.bag if SECTIONS[s].shape == shape)
    if not sections:
        return -9.0
    total = 0.0
    for s in sections:
        total += _memo_best(state, seat, s, memo)
    return total / len(sections)


def _card_value(state: State, seat: Seat, card_id: str, memo: _Memo) -> float:
    card = ACTIONS[card_id]
    tiles = state.players[seat].tiles
    if card.kind in ("book", "guest"):
        return 0.8 if state.level > 1 and payments(card.cost, tiles) else 0.2
    if card.kind == "unfinished":
        return 0.5 if sum(tiles) else 0.2
    best = -1.0
    for source in ("hut", "bag") if card.kind == "double" else ("",):
        fake = Turn(seat=seat, card=card_id, stage=Stage.ACT, source=source)
        if state.level > 1 and not payments(card_cost(state, fake, source), tiles):
            continue
        for s in hut_options(state, card, source):
            best = max(best, _memo_best(state, seat, s, memo))
        for shape in bag_options(state, card, source):
            best = max(best, _bag_value(state, seat, shape, memo))
    # Keep the flexible cards (angels, grand cards) for later: in the first year the card
    # not chosen goes to next year's pile; in the second it is out of the game.
    if (card.kind == "angel" or card.grand) and state.year == 1:
        best -= 0.3
    return best


def _flip_value(state: State, seat: Seat, building: str) -> float:
    """A new wooden building next to an empty space can grow it beyond 3 spaces: the lazy
    monk in it goes home (+1 for an own monk, a rival's point against)."""
    unc = (uncovered_wooden(state) | BUILDING_MASK[building]) & ~state.cover
    grown = [k for k in components(unc) if popcount(k) > 3]
    value = 0.0
    for m in state.monks:
        if m.kind == "lazy" and any(k & m.gap for k in grown):
            value += 1.0 if m.owner == seat else -_rival_weight(state)
    return value


class GreedyBot:
    name = "greedy"

    def choose(self, seen: SeatView, rng: Rng) -> Any:
        legal = list(seen.legal)
        if len(legal) == 1:
            return legal[0]
        seat = seen.seat
        state = public_state(seen.view)
        first = legal[0]
        memo = _Memo(state, seat)
        if isinstance(first, C.SelectActionCard):
            return max(legal, key=lambda c: _card_value(state, seat, c.card, memo))
        if isinstance(first, C.PlaceSection) and state.turn is not None:
            section = state.turn.holding
            shape = SECTIONS[section].shape
            placements = tuple(
                p
                for c in legal
                if isinstance(c, C.PlaceSection)
                and (p := placement(shape, c.x, c.y, c.orientation)) is not None
            )
            _, best = _best_placement(state, seat, section, placements, memo.plan)
            if best is not None:
                return C.PlaceSection(best.x, best.y, best.orientation)
            return rng.choice(legal)
        builds = [c for c in legal if isinstance(c, C.TakeFromHut | C.DrawFromBag)]
        if builds:

            def build_value(c: C.TakeFromHut | C.DrawFromBag) -> float:
                if isinstance(c, C.TakeFromHut):
                    v = _memo_best(state, seat, c.section, memo)
                else:
                    v = _bag_value(state, seat, c.shape, memo)
                return v - 0.01 * len(c.pay)

            return max(builds, key=build_value)
        sources = [c for c in legal if isinstance(c, C.ChooseSource)]
        if sources and state.turn is not None:
            card = ACTIONS[state.turn.card]

            def source_value(c: C.ChooseSource) -> float:
                v = -9.0
                for s in hut_options(state, card, c.source):
                    v = max(v, _memo_best(state, seat, s, memo))
                for sh in bag_options(state, card, c.source):
                    v = max(v, _bag_value(state, seat, sh, memo))
                return v

            return max(sources, key=source_value)
        for kind in (
            C.SpecialFulfillTask,
            C.SpecialRemoveHalt,
            C.PayEvent,
            C.ProduceBook,
            C.BringGuest,
            C.TakeUnfinished,
            C.Rescore,
        ):
            options = [c for c in legal if isinstance(c, kind)]
            if options:
                return options[0]
        days = [c for c in legal if isinstance(c, C.RespondFeastDay | C.RespondStudyDay)]
        if days:  # score as many cards as allowed; the first reward choice of each
            return max(days, key=lambda c: len(c.rewards))
        if isinstance(first, C.ChooseLazyMonk):
            return first  # the most recently placed monk, the documented default
        flips = [c for c in legal if isinstance(c, C.FlipBuilding) and c.building]
        if flips:
            return max(
                flips, key=lambda c: (c.master_builder, _flip_value(state, seat, c.building))
            )
        for last in (C.PassSpecial, C.EndTurn, C.DeclareBeg, C.ForfeitBuild):
            fallback = [c for c in legal if isinstance(c, last)]
            if fallback:
                return fallback[0]
        others = [c for c in legal if not isinstance(c, C.ExchangeTiles)]
        return rng.choice(others or legal)
