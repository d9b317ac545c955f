"""``evolve``'s handlers of the events of a turn: from its start to its end, with the
sections, monks, books, guests and tasks it brings (see ``evolve.py``)."""

from __future__ import annotations

from ..values import replace
from . import changes
from . import events as E
from .changes import Handlers, reconcile
from .content import ACTIONS, TASKS
from .geometry import components
from .queries import building_area, uncovered_wooden
from .state import PILES, Monk, Phase, Stage, State, Turn

__all__ = ["TURN_HANDLERS"]

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
    t = changes.current_turn(state)
    if e.source == "hut" and not t.free:
        large = ACTIONS[t.card].large
        requeued = tuple(sorted((*state.queue, (large, e.seat, Stage.HUT))))
        return replace(state, queue=requeued, turn=None)
    return changes.set_turn(state, stage=Stage.ACT, source=e.source)


@_on(E.BegDeclared)
def _beg_declared(state: State, e: E.BegDeclared) -> State:
    beg = tuple(sorted((*state.beg_queue, (changes.current_turn(state).key, e.seat))))
    return replace(state, beg_queue=beg, turn=None)


@_on(E.Begged)
def _begged(state: State, e: E.Begged) -> State:
    state = changes.gain(state, e.seat, e.tiles, True)
    state = state.with_player(e.seat, replace(state.players[e.seat], begged=True))
    return changes.set_turn(state, stage=Stage.END)


@_on(E.TilesExchanged)
def _tiles_exchanged(state: State, e: E.TilesExchanged) -> State:
    return changes.gain(changes.pay(state, e.seat, e.give), e.seat, (e.take,), False)


@_on(E.TilesGained)
def _tiles_gained(state: State, e: E.TilesGained) -> State:
    return changes.gain(state, e.seat, e.tiles, e.reason != "exchange")


@_on(E.SectionTaken)
def _section_taken(state: State, e: E.SectionTaken) -> State:
    state = changes.pay(state, e.seat, e.pay)
    if e.source == "hut":
        state = replace(state, hut=state.hut - {e.section})
    else:
        state = replace(state, bag=state.bag - {e.section})
    if e.via == "special":
        turn = Turn(seat=e.seat, card="", stage=Stage.PLACE, via="special", holding=e.section)
        return replace(state, turn=turn)
    return changes.set_turn(state, stage=Stage.PLACE, holding=e.section)


@_on(E.ReconstructionStarted)
def _reconstruction_started(state: State, e: E.ReconstructionStarted) -> State:
    state = changes.fulfil(state, e.seat, e.card, e.pay)
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
    t = changes.current_turn(state)
    mask = changes.cells_mask(e.cells)
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
    monk = Monk(
        e.seat, e.kind, section=e.section, building=e.building, gap=changes.cells_mask(e.cells)
    )
    state = changes.place_monk(state, monk, e.replaces)
    t = state.turn
    if t is None:
        return state
    if e.kind == "lazy":
        owed = t.owed[1:]
        state = replace(state, turn=replace(t, owed=owed))
        return state if owed else changes.action_done(state)
    if e.kind in ("grass", "guest") and e.building:
        areas = t.person_areas | {building_area(e.building)}
        return replace(state, turn=replace(t, person_areas=areas))
    return state


@_on(E.BuildingCompleted)
def _building_completed(state: State, e: E.BuildingCompleted) -> State:
    t = changes.current_turn(state)
    t = replace(t, completed=(*t.completed, e.building))
    if state.level == 1 and t.via == "action" and changes.any_parchment(state):
        t = replace(t, stage=Stage.FLIP, flips=t.flips + 1)
    return replace(state, turn=t)


@_on(E.FlipDeclined)
def _flip_declined(state: State, e: E.FlipDeclined) -> State:
    return changes.after_flip_prompt(state)


@_on(E.GapsChecked)
def _gaps_checked(state: State, e: E.GapsChecked) -> State:
    if not e.each_placed:
        for gap in e.gaps:  # a log written before the DD-16 choice (see the event)
            state = changes.place_monk(state, Monk(e.seat, "lazy", gap=changes.cells_mask(gap)))
        return changes.set_turn(state, stage=Stage.END)
    if e.gaps:
        owed = tuple(changes.cells_mask(gap) for gap in e.gaps)
        return changes.set_turn(state, stage=Stage.LAZY_MONK, owed=owed)
    return changes.action_done(state)


@_on(E.BuildForfeited)
def _build_forfeited(state: State, e: E.BuildForfeited) -> State:
    return changes.action_done(state)


@_on(E.BookProduced)
def _book_produced(state: State, e: E.BookProduced) -> State:
    state = changes.pay(state, e.seat, e.pay)
    p = state.players[e.seat]
    sel = None if p.selected == e.card else p.selected
    state = state.with_player(e.seat, replace(p, library=(*p.library, e.card), selected=sel))
    others = [b for b in p.library if b != e.card]
    return changes.set_turn(state, book=True, stage=Stage.RESCORE, rescore_left=min(2, len(others)))


@_on(E.GuestArrived)
def _guest_arrived(state: State, e: E.GuestArrived) -> State:
    state = changes.pay(state, e.seat, e.pay)
    p = state.players[e.seat]
    sel = None if p.selected == e.card else p.selected
    state = state.with_player(e.seat, replace(p, guests=(*p.guests, e.card), selected=sel))
    return changes.set_turn(state, stage=Stage.RESCORE, rescore_left=min(1, len(p.guests)))


@_on(E.CardRescored)
def _card_rescored(state: State, e: E.CardRescored) -> State:
    if state.event is not None and state.phase is Phase.EVENT:
        return state  # feast / study day: the reward is the TilesGained that follows
    t = changes.current_turn(state)
    return changes.set_turn(state, rescore_left=t.rescore_left - 1, rescored=(*t.rescored, e.card))


@_on(E.RescoreFinished)
def _rescore_finished(state: State, e: E.RescoreFinished) -> State:
    if state.phase is Phase.EVENT and state.event is not None:
        ev = state.event
        return replace(state, event=replace(ev, queue=ev.queue[1:]))
    return changes.action_done(state)


@_on(E.ExchangesFinished)
def _exchanges_finished(state: State, e: E.ExchangesFinished) -> State:
    return changes.set_turn(state, stage=Stage.END)


@_on(E.UnfinishedTaken)
def _unfinished_taken(state: State, e: E.UnfinishedTaken) -> State:
    state = changes.pay(state, e.seat, e.pay)
    i = PILES.index(e.pile)
    piles = (*state.unfinished[:i], state.unfinished[i][1:], *state.unfinished[i + 1 :])
    state = replace(state, unfinished=piles)
    stage = Stage.SOURCE if ACTIONS[e.card].kind == "double" else Stage.ACT
    return changes.set_turn(state, card=e.card, free=True, stage=stage)


@_on(E.TaskFulfilled)
def _task_fulfilled(state: State, e: E.TaskFulfilled) -> State:
    state = changes.fulfil(state, e.seat, e.card, e.pay)
    if e.pay:
        return replace(state, turn=changes.turn_or_special(state, e.seat, Stage.END))
    if TASKS[e.card].kind == "alms":
        return changes.set_turn(state, stage=Stage.ALMS)
    return state


@_on(E.AlmsChosen)
def _alms_chosen(state: State, e: E.AlmsChosen) -> State:
    return changes.set_turn(changes.gain(state, e.seat, e.tiles, True), stage=Stage.END)


@_on(E.CordonRemoved)
def _cordon_removed(state: State, e: E.CordonRemoved) -> State:
    state = replace(changes.fulfil(state, e.seat, e.card, e.pay), cordon="")
    return replace(state, turn=changes.turn_or_special(state, e.seat, Stage.END))


@_on(E.TurnEnded)
def _turn_ended(state: State, e: E.TurnEnded) -> State:
    t = changes.current_turn(state)
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
