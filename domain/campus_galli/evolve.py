"""Apply one event. Never validates, never rolls: folding a log again gives the same state.

One small handler per event type, found through a table keyed by the event's class
(``_HANDLERS``): a rebuild folds every event of a game, and one dict look-up is much cheaper
than trying forty-six patterns in turn. Copies go through ``domain.values.replace``. The
handlers of a turn's own events are in ``changes.py``.
"""

from __future__ import annotations

from ..simultaneous import ChoiceCommitted, ChoicesRevealed, SecretChoices
from ..values import replace
from . import changes
from . import events as E
from .changes import TURN_HANDLERS, Handlers, reconcile
from .content import ACTIONS, COLOURS, TASKS
from .events import Event
from .state import PILES, EventPrompt, Monk, Phase, Stage, State

__all__ = ["PILES", "evolve", "reconcile"]

_ROUND_HANDLERS = Handlers()
_on = _ROUND_HANDLERS.on


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
    if state.phase is Phase.EVENT:  # the answers to an event: EventPaid etc. follow
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


# -- special actions (level II+) --------------------------------------------------------------
@_on(E.SpecialsStarted)
def _specials_started(state: State, e: E.SpecialsStarted) -> State:
    return replace(state, phase=Phase.SPECIAL, special_order=e.order, special_next=0)


@_on(E.SpecialPassed)
def _special_passed(state: State, e: E.SpecialPassed) -> State:
    state = state.with_player(e.seat, replace(state.players[e.seat], passed=True))
    return replace(state, special_next=state.special_order.index(e.seat) + 1)


_HANDLERS = {**_ROUND_HANDLERS.table, **TURN_HANDLERS.table}
"""Every event class's handler (``tests/campus_galli/test_evolve.py`` holds it complete)."""
assert len(_HANDLERS) == len(_ROUND_HANDLERS.table) + len(TURN_HANDLERS.table)
