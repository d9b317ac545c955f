"""The automatic parts of a round: filling the task board, events, drawing, turn order,
end-of-turn tasks, tidy-up and scoring. ``auto_events`` returns the next automatic events, or
nothing when the game waits for a player."""

from __future__ import annotations

from typing import assert_never

from ..randomness import Context
from .content import ACTIONS, COLOURS, TABLES, TASKS
from .events import (
    ActionCardsDrawn,
    ActionPileReformed,
    BuildingFlipped,
    DuesPaid,
    Event,
    EventEnded,
    EventStarted,
    ExchangesFinished,
    GameEnded,
    GapsChecked,
    MonkPlaced,
    RescoreFinished,
    RoundEnded,
    RoundStarted,
    SectionRemoved,
    SpecialsStarted,
    TaskFulfilled,
    TaskRevealed,
    TilesGained,
    TurnEnded,
    TurnStarted,
)
from .geometry import cells_of
from .queries import (
    FACES,
    can_exchange,
    capped,
    collapse_target,
    impossible,
    is_complete,
    lazy_candidates,
    monk_areas,
    new_gaps,
    next_task,
    pigment,
    player_score,
    storm_sections,
    team_score,
)
from .state import Phase, Stage, State, Turn

__all__ = ["auto_events", "special_seat"]


def special_seat(state: State) -> int | None:
    order = state.special_order
    for i in range(len(order)):
        seat = order[(state.special_next + i) % len(order)]
        if not state.players[seat].passed:
            return seat
    return None


def board_size(state: State) -> int:
    return int(TABLES["board_size"][str(state.level)][state.n - 1])


def auto_events(state: State, ctx: Context) -> list[Event]:
    match state.phase:
        case Phase.SETUP | Phase.SELECT | Phase.OVER:
            return []  # set-up is the game's; selecting waits on the players
        case Phase.ROUND_START:
            return [RoundStarted(state.round_no + 1, state.year)]
        case Phase.FILL:
            occupied = sum(1 for _, s in state.board if s != "discarded")
            if occupied < board_size(state) and state.task_deck:
                return _reveal(state, ctx)
            return _draw(state, ctx)
        case Phase.EVENT:
            ev = state.event
            assert ev is not None
            return [] if ev.queue else [EventEnded(ev.card)]
        case Phase.TURNS | Phase.SPECIAL:
            if state.turn is None:
                return _between_turns(state)
            return _in_turn(state, state.turn)
        case Phase.SCORING:
            scores = tuple(player_score(state, s) for s in range(state.n))
            team = team_score(state, scores)
            if state.cooperative:
                pig, outcome, qualified = pigment(state.level, team)
            else:
                pig, outcome, qualified = "", "", False
            return [GameEnded(scores, team, pig, outcome, qualified)]
        case _:
            assert_never(state.phase)


def _between_turns(state: State) -> list[Event]:
    """No turn runs: start the next one, the special actions, or the round's end."""
    if state.phase is Phase.SPECIAL:
        return [RoundEnded(state.round_no)] if special_seat(state) is None else []
    if state.queue:
        _, seat, stage = state.queue[0]
        return [TurnStarted(seat, state.players[seat].selected or "", stage.value)]
    if state.beg_queue:
        _, seat = state.beg_queue[0]
        return [TurnStarted(seat, state.players[seat].selected or "", Stage.BEG.value)]
    if state.level == 1:
        return [RoundEnded(state.round_no)]
    order = tuple(s for s in state.order if not state.players[s].begged)
    return [SpecialsStarted(order)] if order else [RoundEnded(state.round_no)]


def _in_turn(state: State, t: Turn) -> list[Event]:
    """What follows by itself at this stage of the turn (nothing: the player acts)."""
    match t.stage:
        case Stage.LAZY:
            gaps = tuple(cells_of(g) for g in new_gaps(state, t))
            return [GapsChecked(t.seat, gaps, each_placed=True)]
        case Stage.LAZY_MONK:
            # DD-16: with an empty supply the player chooses which own monk lies down, unless
            # there is at most one candidate (then no question is asked).
            cells = cells_of(t.owed[0])
            if state.players[t.seat].supply > 0:
                return [MonkPlaced(t.seat, "lazy", cells=cells)]
            candidates = lazy_candidates(state, t.seat)
            if len(candidates) <= 1:
                return [MonkPlaced(t.seat, "lazy", cells=cells, replaces="".join(candidates))]
            return []
        case Stage.EXCHANGE:
            return [] if can_exchange(state, t.seat) else [ExchangesFinished(t.seat)]
        case Stage.RESCORE:
            if t.rescore_left <= 0 or not rescore_candidates(state):
                return [RescoreFinished(t.seat)]
            return []
        case Stage.END:
            card = next_task(state, t.seat, t) if state.level > 1 or t.laid else None
            if card is None:
                return [TurnEnded(t.seat)]
            out: list[Event] = [TaskFulfilled(t.seat, card)]
            task = TASKS[card]
            if task.kind == "long_hours":
                gained = capped(state.tile_supply, task.colours)
                if gained:
                    out.append(TilesGained(t.seat, gained, "task"))
            return out
        case (
            Stage.SOURCE | Stage.ACT | Stage.HUT | Stage.BEG | Stage.PLACE | Stage.FLIP | Stage.ALMS
        ):
            return []  # the player acts
        case _:
            assert_never(t.stage)


def rescore_candidates(state: State) -> list[str]:
    t = state.turn
    assert t is not None
    p = state.players[t.seat]
    pool = p.library if ACTIONS[t.card].kind == "book" else p.guests
    return [c for c in pool if c != t.card and c not in t.rescored]


def _reveal(state: State, ctx: Context) -> list[Event]:
    card_id = state.task_deck[0]
    card = TASKS[card_id]
    if impossible(state, card):
        return [TaskRevealed(card_id, "set_aside")]
    flips = [
        BuildingFlipped(b, "task")
        for b in dict.fromkeys(card.flips())
        if b not in state.construction
    ]
    k = card.kind
    prio = state.priority
    if card.border == "brown":
        out: list[Event] = [TaskRevealed(card_id, "brown")]
        if k == "dues":
            for s in prio:
                tiles = state.players[s].tiles
                if sum(tiles) > 7:
                    # Supply after the return; a colour nobody left in stock is not given.
                    back = tuple(sup + t for sup, t in zip(state.tile_supply, tiles, strict=True))
                    kept = tuple(c for i, c in enumerate(COLOURS) if back[i] > 0)
                    out.append(DuesPaid(s, kept))
        else:
            pool = "guests" if k == "feast" else "library"
            seats = tuple(s for s in prio if getattr(state.players[s], pool))
            if seats:
                out.append(EventStarted(card_id, seats, ()))
        return out
    if card.border != "event":
        return [TaskRevealed(card_id, "open"), *flips]
    if k == "fire":
        seats = tuple(s for s in prio if state.players[s].library)
        if not seats:
            return [TaskRevealed(card_id, "discarded")]
        dice: tuple[tuple[str, ...], ...] = tuple((ctx.rng.choice(FACES),) for _ in seats)
        return [TaskRevealed(card_id, "event"), EventStarted(card_id, seats, dice)]
    if k == "epidemic":
        seats = tuple(s for s in prio if monk_areas(state, s, ("guest",)) & set(card.areas))
        if not seats:
            return [TaskRevealed(card_id, "discarded")]
        dice = tuple((ctx.rng.choice(FACES), ctx.rng.choice(FACES)) for _ in seats)
        return [TaskRevealed(card_id, "event"), EventStarted(card_id, seats, dice)]
    if k == "collapse":
        target = collapse_target(state, card)
        if not target:
            return [TaskRevealed(card_id, "discarded")]
        faces = tuple(ctx.rng.choice(FACES) for _ in range(3))
        seats = tuple(prio)
        return [
            TaskRevealed(card_id, "event"),
            EventStarted(card_id, seats, (faces,) * len(seats), target),
        ]
    if k == "storm":
        secs = storm_sections(state)
        if not secs:
            return [TaskRevealed(card_id, "discarded")]
        return [TaskRevealed(card_id, "event"), *(SectionRemoved(s, "storm") for s in secs)]
    if k == "halt":
        if state.cordon or is_complete(state, card.building):
            return [TaskRevealed(card_id, "discarded")]
        return [TaskRevealed(card_id, "halt")]
    if k == "new_arrivals":
        seats = tuple(
            s
            for s in prio
            if card.area in monk_areas(state, s, ("guest", "section", "grass"))
            and state.players[s].supply > 0
        )
        if not seats:
            return [TaskRevealed(card_id, "discarded")]
        return [TaskRevealed(card_id, "event"), EventStarted(card_id, seats, ())]
    return [TaskRevealed(card_id, "discarded")]


def _draw(state: State, ctx: Context) -> list[Event]:
    k = int(TABLES["draw"][str(state.level)])
    out: list[Event] = []
    for seat, p in enumerate(state.players):
        pile = p.this_year
        if not pile:
            pile = ctx.rng.shuffled(p.next_year)
            out.append(ActionPileReformed(seat, len(pile), pile))
        n = min(k, len(pile))
        if 0 < len(pile) - n < k:
            n = len(pile)
        out.append(ActionCardsDrawn(seat, n, tuple(pile[:n])))
    return out
