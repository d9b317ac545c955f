"""The automatic parts of a round and the answers to its events.

``auto_events`` returns the next automatic events (filling the task board, events, drawing,
turn order, end-of-turn tasks, tidy-up and scoring), or nothing when the game waits for a
player. ``answer_event`` checks a player's answer to an event card (fire, epidemic, new
arrivals, collapse) or to a feast or study day and emits it into the decision: fire,
epidemic, new arrivals, feast and study day are answered secretly and applied together in
priority order once every concerned player has answered (DD-22, DD-47); a collapse is
answered in turn, and the first payment prevents it.
"""

from __future__ import annotations

from typing import assert_never

from ..errors import InvalidCommand, RuleViolation
from ..randomness import Context
from ..simultaneous import ChoiceCommitted
from ..transaction import Transaction
from ..viewers import Seat
from . import commands as C
from .content import COLOURS, TABLES, TASKS
from .events import (
    ActionCardsDrawn,
    ActionPileReformed,
    BuildingFlipped,
    CardRescored,
    DuesPaid,
    Event,
    EventDeclined,
    EventEnded,
    EventPaid,
    EventReward,
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
from .legal import SIMULTANEOUS_EVENTS, listed, rescore_candidates, special_seat, wrong_step
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
from .state import EventPrompt, Phase, Stage, State, Turn

__all__ = ["answer_event", "auto_events"]


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


# -- the answers to an event ------------------------------------------------------------------
_SCORE_DAYS = ("feast", "study")


def answer_event(tx: Transaction[State, Event], seat: Seat, cmd: C.Command) -> None:
    """``seat`` answers the event waiting in ``tx.state``."""
    state = tx.state
    ev = state.event
    assert ev is not None
    match cmd:
        case C.RespondFeastDay(guests=cards, rewards=rewards) if ev.kind == "feast":
            _score_day_checks(cards, rewards, state.players[seat].guests, "guests")
            listed(state, seat, cmd, "that is not a reward of that guest", "wrong_reward")
            _answer(tx, ev, seat, _score_choice(cards, rewards))
        case C.RespondStudyDay(books=cards, rewards=rewards) if ev.kind == "study":
            _score_day_checks(cards, rewards, state.players[seat].library, "books")
            listed(state, seat, cmd, "that is not a reward of that book", "wrong_reward")
            _answer(tx, ev, seat, _score_choice(cards, rewards))
        case C.PayEvent(pay=pay, building=building) if ev.kind not in _SCORE_DAYS:
            listed(
                state,
                seat,
                cmd,
                "that is not what the event asks you to spend (or you lack the tiles)",
                "wrong_payment",
            )
            if ev.kind in SIMULTANEOUS_EVENTS:
                _answer(tx, ev, seat, ("pay", building, *pay))
            else:
                tx.emit(EventPaid(seat, pay, "card", building))
        case C.DeclineEvent(lose=lose) if ev.kind not in _SCORE_DAYS:
            listed(
                state,
                seat,
                cmd,
                "name a book (fire) or a building with your guest monk (epidemic) to lose",
                "bad_loss",
            )
            if ev.kind in SIMULTANEOUS_EVENTS:
                _answer(tx, ev, seat, ("decline", lose))
            else:
                tx.emit(EventDeclined(seat, lose))
        case _:
            raise wrong_step(f"answer the {TASKS[ev.card].kind.replace('_', ' ')} card first")


def _score_day_checks(
    cards: tuple[str, ...], rewards: tuple[str, ...], pool: tuple[str, ...], what: str
) -> None:
    if len(cards) != len(rewards):
        raise InvalidCommand(f"give one reward per card: {len(cards)} {what}, {len(rewards)}")
    if len(cards) > 2:
        raise RuleViolation(f"each player can score up to 2 of their {what}", code="too_many")
    if len(set(cards)) != len(cards):
        raise RuleViolation("each card scores at most once (DD-47)", code="scored_twice")
    if any(c not in pool for c in cards):
        raise RuleViolation(f"you can score only your own {what}", code=f"not_your_{what[:-1]}")
    if list(cards) != [c for c in pool if c in cards]:
        raise InvalidCommand(f"list the {what} in the order you hold them", code="bad_order")


def _score_choice(cards: tuple[str, ...], rewards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{c}:{r}" for c, r in zip(cards, rewards, strict=True))


def _answer(
    tx: Transaction[State, Event], ev: EventPrompt, seat: Seat, answer: tuple[str, ...]
) -> None:
    """Commit ``seat``'s secret answer; the last one reveals them all and applies them."""
    tx.emit(ChoiceCommitted(seat, answer))
    choices = tx.state.choices
    if not choices.complete:
        return
    tx.emit(choices.revealed())
    if ev.kind in _SCORE_DAYS:
        # Each player's cards pay their rewards again; a tile out of stock is lost (DD-15).
        for s in ev.queue:
            for entry in choices.choice_of(s) or ():
                card, _, tile = entry.partition(":")
                gained = capped(tx.state.tile_supply, (tile,) if tile else ())
                tx.emit(CardRescored(s, card), TilesGained(s, gained, ev.kind))
            tx.emit(RescoreFinished(s))
        return
    for s in ev.queue:  # priority order: the first success takes the card itself
        a = choices.choice_of(s) or ("decline", "")
        if a[0] != "pay":
            tx.emit(EventDeclined(s, a[1]))
            continue
        now = tx.state.event
        assert now is not None
        reward: EventReward = (
            "monk" if ev.kind == "new_arrivals" else "card" if now.successes == 0 else "coop"
        )
        tx.emit(EventPaid(s, tuple(a[2:]), reward, a[1]))
