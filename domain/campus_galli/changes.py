"""State changes for ``evolve``: the changes several events share (paying, gaining tiles,
placing monks, returning a section, ending an action), the table of handlers, and the
handlers of the events of a turn, from its start to its end, with the sections, monks,
books, guests and tasks it brings (the round's are in ``evolve.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..simultaneous import SecretChoices
from ..values import replace
from . import events as E
from .content import ACTIONS, SECTIONS, TASKS
from .geometry import components
from .queries import ALL_LETTERS, building_area, can_exchange, monk_key, popcount, uncovered_wooden
from .state import PILES, EventPrompt, Monk, Phase, Stage, State, Turn, add_tiles

__all__ = [
    "EMPTY_CHOICES",
    "TURN_HANDLERS",
    "Handlers",
    "action_done",
    "after_flip_prompt",
    "any_parchment",
    "board_remove",
    "cells_mask",
    "current_event",
    "current_turn",
    "fulfil",
    "gain",
    "pay",
    "place_monk",
    "reconcile",
    "return_section",
    "set_turn",
    "turn_or_special",
]


EMPTY_CHOICES = SecretChoices(frozenset())

EvT = TypeVar("EvT")


class Handlers:
    """A table of ``evolve``'s handlers by event class, filled by the ``on`` decorator;
    ``mypy`` checks each handler against the event class it is registered for."""

    def __init__(self) -> None:
        self.table: dict[type, Callable[[State, Any], State]] = {}

    def on(
        self, cls: type[EvT]
    ) -> Callable[[Callable[[State, EvT], State]], Callable[[State, EvT], State]]:
        def register(handler: Callable[[State, EvT], State]) -> Callable[[State, EvT], State]:
            self.table[cls] = handler
            return handler

        return register


def current_turn(state: State) -> Turn:
    t = state.turn
    assert t is not None
    return t


def current_event(state: State) -> EventPrompt:
    ev = state.event
    assert ev is not None
    return ev


def set_turn(state: State, **changes: Any) -> State:
    return replace(state, turn=replace(current_turn(state), **changes))


def gain(state: State, seat: int, tiles: tuple[str, ...], received: bool) -> State:
    p = state.players[seat]
    state = replace(
        state.with_player(seat, replace(p, tiles=add_tiles(p.tiles, tiles))),
        tile_supply=add_tiles(state.tile_supply, tiles, -1),
    )
    t = state.turn
    if received and t is not None and t.seat == seat and tiles:
        state = replace(state, turn=replace(t, received=t.received | set(tiles)))
    return state


def pay(state: State, seat: int, tiles: tuple[str, ...]) -> State:
    if not tiles:
        return state
    p = state.players[seat]
    state = state.with_player(seat, replace(p, tiles=add_tiles(p.tiles, tiles, -1)))
    return replace(state, tile_supply=add_tiles(state.tile_supply, tiles))


def reconcile(state: State) -> State:
    """Lazy monks leave when their empty space is closed or grows beyond 3 (DD-26)."""
    if not any(m.kind == "lazy" for m in state.monks):
        return state
    unc = uncovered_wooden(state)
    comps = components(unc)
    monks: list[Monk] = []
    players = list(state.players)
    for m in state.monks:
        if m.kind != "lazy":
            monks.append(m)
            continue
        rest = m.gap & unc
        keep = False
        if rest:
            low = rest & -rest
            k = next(c for c in comps if c & low)
            if popcount(k) <= 3:
                monks.append(replace(m, gap=k))
                keep = True
        if not keep and not m.marker:
            p = players[m.owner]
            players[m.owner] = replace(p, supply=p.supply + 1)
    return replace(state, monks=tuple(monks), players=tuple(players))


def place_monk(state: State, monk: Monk, replaces: str = "") -> State:
    p = state.players[monk.owner]
    if p.supply > 0:
        state = state.with_player(monk.owner, replace(p, supply=p.supply - 1))
    elif monk.kind == "lazy":
        # No piece left (DD-16): the named own non-lazy monk (the most recently placed one of
        # that name; by default the most recently placed of all) leaves the plan for the gap.
        own = [
            i
            for i, m in enumerate(state.monks)
            if m.owner == monk.owner
            and m.kind != "lazy"
            and (not replaces or monk_key(m) == replaces)
        ]
        if own:
            i = own[-1]
            state = replace(state, monks=state.monks[:i] + state.monks[i + 1 :])
        else:
            monk = replace(monk, marker=True)
    else:
        return state
    return replace(state, monks=(*state.monks, monk))


def board_remove(state: State, card: str, taken: bool) -> State:
    board = list(state.board)
    for i, (c, _) in enumerate(board):
        if c == card:
            if taken:
                board[i] = (c, "taken")
            else:
                del board[i]
            break
    return replace(state, board=tuple(board))


def fulfil(state: State, seat: int, card: str, tiles: tuple[str, ...] = ()) -> State:
    """``seat`` fulfils the task ``card``, paying ``tiles``."""
    status = next((s for c, s in state.board if c == card), "open")
    # A taken event card keeps its slot until tidy-up (DD-23); a task's slot empties.
    state = board_remove(state, card, taken=status == "event")
    state = pay(state, seat, tiles)
    p = state.players[seat]
    return state.with_player(seat, replace(p, fulfilled=(*p.fulfilled, card)))


def return_section(state: State, section: str) -> State:
    mask = next(m for s, m in state.placed if s == section)
    placed = tuple((s, m) for s, m in state.placed if s != section)
    monks = tuple(m for m in state.monks if not (m.kind == "section" and m.section == section))
    players = list(state.players)
    for m in state.monks:
        if m.kind == "section" and m.section == section:
            players[m.owner] = replace(players[m.owner], supply=players[m.owner].supply + 1)
    state = replace(
        state, placed=placed, cover=state.cover & ~mask, monks=monks, players=tuple(players)
    )
    if SECTIONS[section].origin == "hut":
        state = replace(state, hut=state.hut | {section})
    else:
        state = replace(state, bag=state.bag | {section})
    return reconcile(state)


def turn_or_special(state: State, seat: int, stage: Stage) -> Turn:
    if state.turn is not None:
        return replace(state.turn, stage=stage)
    return Turn(seat=seat, card="", via="special", stage=stage)


def action_done(state: State) -> State:
    """The action of the turn is complete. Level II+ action turns then offer a last chance to
    exchange tiles before the end-of-turn tasks are judged, when an exchange is possible."""
    t = current_turn(state)
    if state.level > 1 and t.via == "action" and can_exchange(state, t.seat):
        return set_turn(state, stage=Stage.EXCHANGE)
    return set_turn(state, stage=Stage.END)


def any_parchment(state: State) -> bool:
    return any(b not in state.construction for b in ALL_LETTERS)


def after_flip_prompt(state: State) -> State:
    flips = current_turn(state).flips - 1
    if flips <= 0 or not any_parchment(state):
        return set_turn(state, flips=0, stage=Stage.LAZY)
    return set_turn(state, flips=flips)


def cells_mask(cells: tuple[int, ...]) -> int:
    return sum(1 << c for c in cells)


# -- the handlers of a turn's events ----------------------------------------------------------
TURN_HANDLERS = Handlers()
_on = TURN_HANDLERS.on

_STAGES = {stage.value: stage for stage in Stage}
"""A stored stage name's member: a dict look-up is much cheaper than calling ``Stage``."""


@_on(E.TurnStarted)
def _turn_started(state: State, e: E.TurnStarted) -> State:
    stage = _STAGES[e.stage]
    if stage is Stage.BEG:
        key = state.beg_queue[0][0]
        state = replace(state, beg_queue=state.beg_queue[1:])
    else:
        key = state.queue[0][0]
        state = replace(state, queue=state.queue[1:])
    hut = stage is Stage.HUT
    turn = Turn(
        seat=e.seat,
        card=e.card,
        selected=e.card,
        stage=Stage.ACT if hut else stage,
        source="hut" if hut else "",
        key=key,
    )
    return replace(state, turn=turn)


@_on(E.SourceChosen)
def _source_chosen(state: State, e: E.SourceChosen) -> State:
    t = current_turn(state)
    if e.source == "hut" and not t.free:
        large = ACTIONS[t.card].large
        requeued = tuple(sorted((*state.queue, (large, e.seat, Stage.HUT))))
        return replace(state, queue=requeued, turn=None)
    return set_turn(state, stage=Stage.ACT, source=e.source)


@_on(E.BegDeclared)
def _beg_declared(state: State, e: E.BegDeclared) -> State:
    beg = tuple(sorted((*state.beg_queue, (current_turn(state).key, e.seat))))
    return replace(state, beg_queue=beg, turn=None)


@_on(E.Begged)
def _begged(state: State, e: E.Begged) -> State:
    state = gain(state, e.seat, e.tiles, True)
    state = state.with_player(e.seat, replace(state.players[e.seat], begged=True))
    return set_turn(state, stage=Stage.END)


@_on(E.TilesExchanged)
def _tiles_exchanged(state: State, e: E.TilesExchanged) -> State:
    return gain(pay(state, e.seat, e.give), e.seat, (e.take,), False)


@_on(E.TilesGained)
def _tiles_gained(state: State, e: E.TilesGained) -> State:
    return gain(state, e.seat, e.tiles, e.reason != "exchange")


@_on(E.SectionTaken)
def _section_taken(state: State, e: E.SectionTaken) -> State:
    state = pay(state, e.seat, e.pay)
    if e.source == "hut":
        state = replace(state, hut=state.hut - {e.section})
    else:
        state = replace(state, bag=state.bag - {e.section})
    if e.via == "special":
        turn = Turn(seat=e.seat, card="", stage=Stage.PLACE, via="special", holding=e.section)
        return replace(state, turn=turn)
    return set_turn(state, stage=Stage.PLACE, holding=e.section)


@_on(E.ReconstructionStarted)
def _reconstruction_started(state: State, e: E.ReconstructionStarted) -> State:
    state = fulfil(state, e.seat, e.card, e.pay)
    turn = Turn(
        seat=e.seat,
        card="",
        stage=Stage.PLACE,
        via="reconstruct",
        holding=e.section,
        moving=e.section,
    )
    return replace(state, turn=turn)


@_on(E.SectionPlaced)
def _section_placed(state: State, e: E.SectionPlaced) -> State:
    t = current_turn(state)
    mask = cells_mask(e.cells)
    placed = state.placed
    cover = state.cover
    if t.moving:
        old = next(m for s, m in placed if s == t.moving)
        placed = tuple((s, m) for s, m in placed if s != t.moving)
        cover &= ~old
    before = components(uncovered_wooden(state))
    turn = replace(
        t,
        stage=Stage.LAZY,
        holding="",
        moving="",
        laid=(*t.laid, (e.section, mask)),
        before=before,
    )
    return reconcile(
        replace(state, placed=(*placed, (e.section, mask)), cover=cover | mask, turn=turn)
    )


@_on(E.MonkPlaced)
def _monk_placed(state: State, e: E.MonkPlaced) -> State:
    monk = Monk(e.seat, e.kind, section=e.section, building=e.building, gap=cells_mask(e.cells))
    state = place_monk(state, monk, e.replaces)
    t = state.turn
    if t is None:
        return state
    if e.kind == "lazy":
        owed = t.owed[1:]
        state = replace(state, turn=replace(t, owed=owed))
        return state if owed else action_done(state)
    if e.kind in ("grass", "guest") and e.building:
        areas = t.person_areas | {building_area(e.building)}
        return replace(state, turn=replace(t, person_areas=areas))
    return state


@_on(E.BuildingCompleted)
def _building_completed(state: State, e: E.BuildingCompleted) -> State:
    t = current_turn(state)
    t = replace(t, completed=(*t.completed, e.building))
    if state.level == 1 and t.via == "action" and any_parchment(state):
        t = replace(t, stage=Stage.FLIP, flips=t.flips + 1)
    return replace(state, turn=t)


@_on(E.FlipDeclined)
def _flip_declined(state: State, e: E.FlipDeclined) -> State:
    return after_flip_prompt(state)


@_on(E.GapsChecked)
def _gaps_checked(state: State, e: E.GapsChecked) -> State:
    if not e.each_placed:
        for gap in e.gaps:  # a log written before the DD-16 choice (see the event)
            state = place_monk(state, Monk(e.seat, "lazy", gap=cells_mask(gap)))
        return set_turn(state, stage=Stage.END)
    if e.gaps:
        owed = tuple(cells_mask(gap) for gap in e.gaps)
        return set_turn(state, stage=Stage.LAZY_MONK, owed=owed)
    return action_done(state)


@_on(E.BuildForfeited)
def _build_forfeited(state: State, e: E.BuildForfeited) -> State:
    return action_done(state)


@_on(E.BookProduced)
def _book_produced(state: State, e: E.BookProduced) -> State:
    state = pay(state, e.seat, e.pay)
    p = state.players[e.seat]
    sel = None if p.selected == e.card else p.selected
    state = state.with_player(e.seat, replace(p, library=(*p.library, e.card), selected=sel))
    others = [b for b in p.library if b != e.card]
    return set_turn(state, book=True, stage=Stage.RESCORE, rescore_left=min(2, len(others)))


@_on(E.GuestArrived)
def _guest_arrived(state: State, e: E.GuestArrived) -> State:
    state = pay(state, e.seat, e.pay)
    p = state.players[e.seat]
    sel = None if p.selected == e.card else p.selected
    state = state.with_player(e.seat, replace(p, guests=(*p.guests, e.card), selected=sel))
    return set_turn(state, stage=Stage.RESCORE, rescore_left=min(1, len(p.guests)))


@_on(E.CardRescored)
def _card_rescored(state: State, e: E.CardRescored) -> State:
    if state.event is not None and state.phase is Phase.EVENT:
        return state  # feast / study day: the reward is the TilesGained that follows
    t = current_turn(state)
    return set_turn(state, rescore_left=t.rescore_left - 1, rescored=(*t.rescored, e.card))


@_on(E.RescoreFinished)
def _rescore_finished(state: State, e: E.RescoreFinished) -> State:
    if state.phase is Phase.EVENT and state.event is not None:
        ev = state.event
        return replace(state, event=replace(ev, queue=ev.queue[1:]))
    return action_done(state)


@_on(E.ExchangesFinished)
def _exchanges_finished(state: State, e: E.ExchangesFinished) -> State:
    return set_turn(state, stage=Stage.END)


@_on(E.UnfinishedTaken)
def _unfinished_taken(state: State, e: E.UnfinishedTaken) -> State:
    state = pay(state, e.seat, e.pay)
    i = PILES.index(e.pile)
    piles = (*state.unfinished[:i], state.unfinished[i][1:], *state.unfinished[i + 1 :])
    state = replace(state, unfinished=piles)
    stage = Stage.SOURCE if ACTIONS[e.card].kind == "double" else Stage.ACT
    return set_turn(state, card=e.card, free=True, stage=stage)


@_on(E.TaskFulfilled)
def _task_fulfilled(state: State, e: E.TaskFulfilled) -> State:
    state = fulfil(state, e.seat, e.card, e.pay)
    if e.pay:
        return replace(state, turn=turn_or_special(state, e.seat, Stage.END))
    if TASKS[e.card].kind == "alms":
        return set_turn(state, stage=Stage.ALMS)
    return state


@_on(E.AlmsChosen)
def _alms_chosen(state: State, e: E.AlmsChosen) -> State:
    return set_turn(gain(state, e.seat, e.tiles, True), stage=Stage.END)


@_on(E.CordonRemoved)
def _cordon_removed(state: State, e: E.CordonRemoved) -> State:
    state = replace(fulfil(state, e.seat, e.card, e.pay), cordon="")
    return replace(state, turn=turn_or_special(state, e.seat, Stage.END))


@_on(E.TurnEnded)
def _turn_ended(state: State, e: E.TurnEnded) -> State:
    t = current_turn(state)
    seat = e.seat
    p = state.players[seat]
    if t.via == "action":
        spent = p.used
        for c in dict.fromkeys((t.selected, t.card)):
            if c and c not in p.library and c not in p.guests:
                spent = (*spent, c)
        state = state.with_player(seat, replace(p, used=spent, selected=None))
        return replace(state, turn=None, order=(*state.order, seat))
    return replace(state, turn=None, special_next=state.special_order.index(seat) + 1)
