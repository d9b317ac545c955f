"""The automatic parts of a round: filling the task board, events, drawing, turn order,
end-of-turn tasks, tidy-up and scoring. ``auto_events`` returns the next automatic events, or
nothing when the game waits for a player."""

from __future__ import annotations

from typing import Any

from ..randomness import Context
from .content import ACTIONS, COLOURS, TABLES, TASKS
from .events import (
    ActionCardsDrawn,
    ActionPileReformed,
    BuildingFlipped,
    DuesPaid,
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
    lazy_candidates,
    monk_areas,
    new_gaps,
    next_task,
    pigment,
    player_score,
    storm_sections,
    team_score,
)
from .state import State

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


def auto_events(state: State, ctx: Context) -> list[Any]:
    phase = state.phase
    if phase == "round_start":
        return [RoundStarted(state.round_no + 1, state.year)]
    if phase == "fill":
        occupied = sum(1 for _, s in state.board if s != "discarded")
        if occupied < board_size(state) and state.task_deck:
            return _reveal(state, ctx)
        return _draw(state, ctx)
    if phase == "event":
        ev = state.event
        assert ev is not None
        if not ev.queue:
            return [EventEnded(ev.card)]
        return []
    if phase in ("turns", "special"):
        t = state.turn
        if t is None:
            if phase == "turns":
                if state.queue:
                    _, seat, stage = state.queue[0]
                    return [TurnStarted(seat, state.players[seat].selected or "", stage.value)]
                if state.beg_queue:
                    _, seat = state.beg_queue[0]
                    return [TurnStarted(seat, state.players[seat].selected or "", "beg")]
                if state.level == 1:
                    return [RoundEnded(state.round_no)]
                order = tuple(s for s in state.order if not state.players[s].begged)
                if not order:
                    return [RoundEnded(state.round_no)]
                return [SpecialsStarted(order)]
            if special_seat(state) is None:
                return [RoundEnded(state.round_no)]
            return []
        if t.stage == "lazy":
            gaps = tuple(cells_of(g) for g in new_gaps(state, t))
            return [GapsChecked(t.seat, gaps, each_placed=True)]
        if t.stage == "lazy_monk":
            # DD-16: with an empty supply the player chooses which own monk lies down, unless
            # there is at most one candidate (then no question is asked).
            cells = cells_of(t.owed[0])
            if state.players[t.seat].supply > 0:
                return [MonkPlaced(t.seat, "lazy", cells=cells)]
            candidates = lazy_candidates(state, t.seat)
            if len(candidates) <= 1:
                return [MonkPlaced(t.seat, "lazy", cells=cells, replaces="".join(candidates))]
            return []
        if t.stage == "exchange" and not can_exchange(state, t.seat):
            return [ExchangesFinished(t.seat)]
        if t.stage == "rescore" and (t.rescore_left <= 0 or not rescore_candidates(state)):
            return [RescoreFinished(t.seat)]
        if t.stage == "end":
            card = next_task(state, t.seat, t) if state.level > 1 or t.laid else None
            if card is None:
                return [TurnEnded(t.seat)]
            out: list[Any] = [TaskFulfilled(t.seat, card)]
            task = TASKS[card]
            if task.kind == "long_hours":
                gained = capped(state.tile_supply, task.colours)
                if gained:
                    out.append(TilesGained(t.seat, gained, "task"))
            return out
        return []
    if phase == "scoring":
        scores = tuple(player_score(state, s) for s in range(state.n))
        team = team_score(state, scores)
        if state.cooperative:
            pig, outcome, qualified = pigment(state.level, team)
        else:
            pig, outcome, qualified = "", "", False
        return [GameEnded(scores, team, pig, outcome, qualified)]
    return []


def rescore_candidates(state: State) -> list[str]:
    t = state.turn
    assert t is not None
    p = state.players[t.seat]
    pool = p.library if ACTIONS[t.card].kind == "book" else p.guests
    return [c for c in pool if c != t.card and c not in t.rescored]


def _reveal(state: State, ctx: Context) -> list[Any]:
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
        out: list[Any] = [TaskRevealed(card_id, "brown")]
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
        from .queries import is_complete

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


def _draw(state: State, ctx: Context) -> list[Any]:
    k = int(TABLES["draw"][str(state.level)])
    out: list[Any] = []
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
