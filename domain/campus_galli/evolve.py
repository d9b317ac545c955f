"""Apply one event. Never validates, never rolls: folding a log again gives the same state.

One small handler per event type, found through a table keyed by the event's class
(``_HANDLERS``): a rebuild folds every event of a game, and one dict look-up is much cheaper
than trying forty-six patterns in turn. Copies go through ``domain.values.replace``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..simultaneous import ChoiceCommitted, ChoicesRevealed, SecretChoices
from ..values import replace
from . import changes
from . import events as E
from .changes import reconcile
from .content import ACTIONS, COLOURS, TASKS
from .events import Event
from .geometry import components
from .queries import building_area, uncovered_wooden
from .state import EventPrompt, Monk, Phase, Stage, State, Turn

__all__ = ["PILES", "evolve", "reconcile"]

PILES = ("R", "B", "G", "Y")

_STAGES = {stage.value: stage for stage in Stage}
"""A stored stage name's member: a dict look-up is much cheaper than calling ``Stage``."""

EvT = TypeVar("EvT")
_HANDLERS: dict[type, Callable[[State, Any], State]] = {}


def _on(cls: type[EvT]) -> Callable[[Callable[[State, EvT], State]], Callable[[State, EvT], State]]:
    """Register the decorated function as the handler of event class ``cls``."""

    def register(handler: Callable[[State, EvT], State]) -> Callable[[State, EvT], State]:
        _HANDLERS[cls] = handler
        return handler

    return register


def evolve(state: State, event: Event) -> State:
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not a Campus Galli event: {event!r}")
    return handler(state, event)


# -- set-up -----------------------------------------------------------------------------------
@_on(E.TaskDeckShuffled)
def _task_deck_shuffled(state: State, e: E.TaskDeckShuffled) -> State:
    return replace(state, task_deck=tuple(e.order or ()))


@_on(E.ActionPileFormed)
def _action_pile_formed(state: State, e: E.ActionPileFormed) -> State:
    return state.with_player(e.seat, replace(state.players[e.seat], this_year=tuple(e.cards or ())))


@_on(E.UnfinishedPileFormed)
def _unfinished_pile_formed(state: State, e: E.UnfinishedPileFormed) -> State:
    i = PILES.index(e.pile)
    piles = (*state.unfinished[:i], tuple(e.cards or ()), *state.unfinished[i + 1 :])
    return replace(state, unfinished=piles)


@_on(E.StartingTileDrawn)
def _starting_tile_drawn(state: State, e: E.StartingTileDrawn) -> State:
    return changes.gain(state, e.seat, (*COLOURS, e.tile), False)


@_on(E.GameStarted)
def _game_started(state: State, e: E.GameStarted) -> State:
    dealt: set[str] = set()
    for pl in state.players:
        dealt.update(pl.this_year)
    for cards_left in state.unfinished:
        dealt.update(cards_left)
    box = tuple(c for c in ACTIONS if c not in dealt and ACTIONS[c].level <= state.level)
    return replace(state, box=box, phase=Phase.ROUND_START, priority=tuple(range(state.n)))


# -- the round's automatic parts --------------------------------------------------------------
@_on(E.RoundStarted)
def _round_started(state: State, e: E.RoundStarted) -> State:
    return replace(state, round_no=e.round_no, year=e.year, phase=Phase.FILL)


@_on(E.TaskRevealed)
def _task_revealed(state: State, e: E.TaskRevealed) -> State:
    state = replace(state, task_deck=state.task_deck[1:])
    if e.status == "set_aside":
        return replace(state, set_aside=(*state.set_aside, e.card))
    if e.status == "discarded":
        return replace(state, task_discard=(*state.task_discard, e.card))
    state = replace(state, board=(*state.board, (e.card, e.status)))
    if e.status == "halt":
        state = replace(state, cordon=TASKS[e.card].building)
    return state


@_on(E.BuildingFlipped)
def _building_flipped(state: State, e: E.BuildingFlipped) -> State:
    state = reconcile(replace(state, construction=state.construction | {e.building}))
    if e.reason == "expansion" and e.seat is not None:
        state = changes.pay(state, e.seat, e.pay)
        return replace(state, turn=changes.turn_or_special(state, e.seat, Stage.END))
    if e.reason == "completion" and state.turn is not None:
        return changes.after_flip_prompt(state)
    return state


@_on(E.DuesPaid)
def _dues_paid(state: State, e: E.DuesPaid) -> State:
    p = state.players[e.seat]
    supply = tuple(s + t for s, t in zip(state.tile_supply, p.tiles, strict=True))
    state = replace(state, tile_supply=supply)
    state = state.with_player(e.seat, replace(p, tiles=(0, 0, 0, 0)))
    return changes.gain(state, e.seat, e.kept, False)


@_on(E.RoundEnded)
def _round_ended(state: State, e: E.RoundEnded) -> State:
    board = []
    discard = list(state.task_discard)
    for c, status in state.board:
        if status in ("open", "halt"):
            board.append((c, status))
        elif status in ("brown", "event"):
            discard.append(c)
    reset = tuple(replace(pl, passed=False, begged=False) for pl in state.players)
    year, phase = state.year, Phase.ROUND_START
    if not any(pl.this_year for pl in reset):  # the year's piles are used up
        if state.year == 1:
            year = 2
        else:
            phase = Phase.SCORING
    return replace(
        state,
        board=tuple(board),
        task_discard=tuple(discard),
        players=reset,
        queue=(),
        beg_queue=(),
        priority=state.order or state.priority,
        special_order=(),
        special_next=0,
        year=year,
        phase=phase,
    )


@_on(E.GameEnded)
def _game_ended(state: State, e: E.GameEnded) -> State:
    return replace(
        state,
        phase=Phase.OVER,
        final_scores=tuple(e.scores),
        team_score=e.team_score,
        pigment=e.pigment,
        outcome=e.outcome,
        qualified=e.qualified,
    )


# -- events (task cards with a black border) and feast / study days ---------------------------
@_on(E.EventStarted)
def _event_started(state: State, e: E.EventStarted) -> State:
    prompt = EventPrompt(
        card=e.card,
        kind=TASKS[e.card].kind,
        queue=e.seats,
        dice=tuple(zip(e.seats, e.dice, strict=False)) if e.dice else (),
        target=e.target,
    )
    last = tuple(f for d in e.dice for f in d)
    state = replace(state, phase=Phase.EVENT, event=prompt, last_dice=last or state.last_dice)
    if prompt.kind in ("fire", "epidemic", "new_arrivals", "feast", "study"):
        # Answered secretly and applied together (DD-22).
        state = replace(state, choices=SecretChoices.open(e.seats))
    return state


@_on(E.EventPaid)
def _event_paid(state: State, e: E.EventPaid) -> State:
    ev = changes.current_event(state)
    state = changes.pay(state, e.seat, e.pay)
    if e.reward == "card":
        state = changes.fulfil(state, e.seat, ev.card)
    elif e.reward == "coop":
        extra = 2 if ev.kind == "collapse" else 1
        p = state.players[e.seat]
        state = state.with_player(e.seat, replace(p, good_coop=p.good_coop + extra))
    elif e.reward == "monk":
        state = changes.place_monk(state, Monk(e.seat, "guest", building=e.building))
    queue = () if ev.kind == "collapse" else ev.queue[1:]
    ev = replace(ev, queue=queue, prevented=True, successes=ev.successes + 1)
    return replace(state, event=ev)


@_on(E.EventDeclined)
def _event_declined(state: State, e: E.EventDeclined) -> State:
    ev = changes.current_event(state)
    seat, lose = e.seat, e.lose
    if ev.kind == "fire" and lose:
        p = state.players[seat]
        lib = tuple(b for b in p.library if b != lose)
        state = state.with_player(seat, replace(p, library=lib))
        state = replace(state, box=(*state.box, lose))
    elif ev.kind == "epidemic" and lose:
        i = next(
            i
            for i, m in enumerate(state.monks)
            if m.owner == seat and m.kind == "guest" and m.building == lose
        )
        state = replace(state, monks=state.monks[:i] + state.monks[i + 1 :])
        p = state.players[seat]
        state = state.with_player(seat, replace(p, supply=p.supply + 1))
    return replace(state, event=replace(ev, queue=ev.queue[1:]))


@_on(E.EventEnded)
def _event_ended(state: State, e: E.EventEnded) -> State:
    ev = changes.current_event(state)
    if ev.kind == "collapse" and not ev.prevented and ev.target:
        state = changes.return_section(state, ev.target)
        state = changes.board_remove(state, e.card, taken=True)
        state = replace(state, reminders=(*state.reminders, e.card))
    # The answers were revealed before (ChoicesRevealed); a feast or study day of a log
    # written before those were secret never opened choices to close.
    return replace(state, phase=Phase.FILL, event=None, choices=changes.EMPTY_CHOICES)


@_on(E.SectionRemoved)
def _section_removed(state: State, e: E.SectionRemoved) -> State:
    return changes.return_section(state, e.section)


# -- drawing and selecting action cards -------------------------------------------------------
@_on(E.ActionPileReformed)
def _action_pile_reformed(state: State, e: E.ActionPileReformed) -> State:
    p = state.players[e.seat]
    return state.with_player(e.seat, replace(p, this_year=tuple(e.cards or ()), next_year=()))


@_on(E.ActionCardsDrawn)
def _action_cards_drawn(state: State, e: E.ActionCardsDrawn) -> State:
    p = state.players[e.seat]
    drawn = tuple(e.cards) if e.cards is not None else p.this_year[: e.count]
    state = state.with_player(e.seat, replace(p, hand=drawn, this_year=p.this_year[len(drawn) :]))
    if e.seat == state.n - 1:
        state = replace(state, phase=Phase.SELECT, choices=SecretChoices.open(range(state.n)))
    return state


@_on(ChoiceCommitted)
def _choice_committed(state: State, e: ChoiceCommitted) -> State:
    return replace(state, choices=state.choices.commit(e.seat, tuple(e.choice or ())))


@_on(ChoicesRevealed)
def _choices_revealed(state: State, e: ChoicesRevealed) -> State:
    if state.phase == Phase.EVENT:  # the answers to an event: EventPaid etc. follow
        return replace(state, choices=changes.EMPTY_CHOICES)
    players = list(state.players)
    entries: list[tuple[int, int, Stage]] = []
    for seat, choice in e.choices:
        card = choice[0]
        p = players[seat]
        players[seat] = replace(
            p,
            selected=card,
            hand=(),
            next_year=p.next_year + tuple(c for c in p.hand if c != card),
        )
        a = ACTIONS[card]
        entries.append((a.number, seat, Stage.SOURCE if a.kind == "double" else Stage.ACT))
    return replace(
        state,
        players=tuple(players),
        queue=tuple(sorted(entries)),
        choices=changes.EMPTY_CHOICES,
        phase=Phase.TURNS,
        order=(),
    )


# -- a turn -----------------------------------------------------------------------------------
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
    if state.event is not None and state.phase == Phase.EVENT:
        return state  # feast / study day: the reward is the TilesGained that follows
    t = changes.current_turn(state)
    return changes.set_turn(state, rescore_left=t.rescore_left - 1, rescored=(*t.rescored, e.card))


@_on(E.RescoreFinished)
def _rescore_finished(state: State, e: E.RescoreFinished) -> State:
    if state.phase == Phase.EVENT and state.event is not None:
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


# -- special actions (level II+) --------------------------------------------------------------
@_on(E.SpecialsStarted)
def _specials_started(state: State, e: E.SpecialsStarted) -> State:
    return replace(state, phase=Phase.SPECIAL, special_order=e.order, special_next=0)


@_on(E.SpecialPassed)
def _special_passed(state: State, e: E.SpecialPassed) -> State:
    state = state.with_player(e.seat, replace(state.players[e.seat], passed=True))
    return replace(state, special_next=state.special_order.index(e.seat) + 1)
