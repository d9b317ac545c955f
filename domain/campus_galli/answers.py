"""The answers to an event card (fire, epidemic, new arrivals, collapse) and to a feast or
study day: checked, then emitted into the decision (``decide.Tx``).

Fire, epidemic, new arrivals, feast and study day are answered secretly and applied
together in priority order once every concerned player has answered (DD-22, DD-47); a
collapse is answered in turn, and the first payment prevents it.
"""

from __future__ import annotations

from ..errors import InvalidCommand, RuleViolation
from ..simultaneous import ChoiceCommitted
from ..transaction import Transaction
from ..viewers import Seat
from . import commands as C
from .content import TASKS
from .events import (
    CardRescored,
    Event,
    EventDeclined,
    EventPaid,
    EventReward,
    RescoreFinished,
    TilesGained,
)
from .legal import SIMULTANEOUS_EVENTS, listed, wrong_step
from .queries import capped
from .state import EventPrompt, State

__all__ = ["answer_event"]

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
