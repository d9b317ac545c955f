"""Phases 3 to 5 of a turn: the third action slot (income, upkeep, allies' help, abandoned
cities, treasury limits, turn order), cleanup (scoring, the end of the game) and recruiting
(the draft, refilling hands, the next turn).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..simultaneous import ChoiceCommitted
from .content import (
    ANTI,
    CATH,
    COLORS,
    content,
    forbidden_color,
    stat,
)
from .effects import (
    Tx,
    draw,
    eliminate,
    end_game,
    exhaust,
    prompt,
    reveal,
)
from .events import (
    CitiesAbandoned,
    CoinsChanged,
    CursorSet,
    DraftOwed,
    DraftPickForgone,
    LuminariesMoved,
    PrestigeChanged,
    ScoringApplied,
    ShortfallSet,
    TurnBegan,
    TurnOrderSet,
)
from .state import DraftRound, StageKind, State, religion_of

__all__ = [
    "abandon_city",
    "draft_finish",
    "draft_pick",
    "draft_start",
    "help_upkeep",
    "legal_draft",
    "phase3",
    "phase3_choice",
    "phase3_resolve",
    "phase4",
    "refill",
    "score",
    "score_deltas",
    "start_assign",
]


# -- phase 3 ----------------------------------------------------------------------------------
def phase3(tx: Tx) -> None:
    st = tx.state
    for seat in st.order:
        reveal(tx, seat, 3)
    choosers = []
    for seat in st.order:
        stack = tx.state.players[seat].slots[2]
        rel = religion_of(st, seat)
        if stat(stack, "CAT" if rel == CATH else "ANT") > 0:
            choosers.append(seat)
    if choosers:
        prompt(tx, StageKind.PHASE3, waiting=tuple(choosers))
    else:
        phase3_resolve(tx)


def phase3_choice(tx: Tx, seat: int, cath_as: str | None, anti_as: str | None) -> None:
    tx.emit(ChoiceCommitted(seat, (cath_as or "", anti_as or "")))
    if tx.state.choices.complete:
        tx.emit(tx.state.choices.revealed())
        phase3_resolve(tx)


def _choice(state: State, seat: int) -> tuple[str, str]:
    for s, c in state.p3:
        if s == seat and len(c) == 2:
            return c[0], c[1]
    return "", ""


def _slot3_value(st: State, seat: int, pair: tuple[str, str], religion: str) -> int:
    """The lesser of the slot-3 stack's two ``pair`` stats: income (WEA, POL) or the bid
    (MIL, SCI). A player of ``religion`` adds its religion stat ([Catholicism] to income,
    [Anti-Catholicism] to the bid) to the side chosen in ``Phase3Choices``."""
    stack = st.players[seat].slots[2]
    a, b = stat(stack, pair[0]), stat(stack, pair[1])
    if religion_of(st, seat) == religion:
        bonus = stat(stack, "CAT" if religion == CATH else "ANT")
        if _choice(st, seat)[0 if religion == CATH else 1] == pair[0]:
            a += bonus
        else:
            b += bonus
    return min(a, b)


def phase3_resolve(tx: Tx) -> None:
    st = tx.state
    for seat in st.order:
        income = _slot3_value(st, seat, ("WEA", "POL"), CATH)
        if income:
            tx.emit(CoinsChanged(seat, income, "income"))
    short = [0] * st.players_n
    for seat in tx.state.order:
        pl = tx.state.players[seat]
        due = content().nations[pl.nation].upkeep + len(tx.state.foreign(seat))
        paid = min(pl.coins, due)
        if paid:
            tx.emit(CoinsChanged(seat, -paid, "upkeep"))
        short[seat] = due - paid
    tx.emit(ShortfallSet(tuple(short)))
    recipients = tuple(s for s in tx.state.order if short[s] > 0)
    help_recipients(tx, recipients)


def _helpers(state: State, r: int) -> tuple[int, ...]:
    order = state.order
    i = order.index(r)
    rot = order[i + 1 :] + order[:i]
    me = state.players[r].nation
    return tuple(h for h in rot if state.allied(state.players[h].nation, me))


def help_recipients(tx: Tx, recipients: tuple[int, ...]) -> None:
    for k, r in enumerate(recipients):
        if tx.state.players[r].eliminated or tx.state.shortfall[r] == 0:
            continue
        if help_next(tx, r, _helpers(tx.state, r), recipients[k + 1 :]):
            return
    abandon_from(tx, tuple(s for s in tx.state.order if tx.state.shortfall[s] > 0))


def help_next(tx: Tx, r: int, helpers: tuple[int, ...], rest: tuple[int, ...]) -> bool:
    """Prompt the next ally able to help ``r``; False when nobody is left to ask."""
    for j, h in enumerate(helpers):
        st = tx.state
        if st.shortfall[r] == 0:
            return False
        if st.players[h].eliminated or st.players[h].coins == 0:
            continue
        prompt(
            tx, StageKind.HELP, h, other=r, waiting=helpers[j + 1 :], data=",".join(map(str, rest))
        )
        return True
    return False


def help_upkeep(tx: Tx, seat: int, coins: int) -> None:
    stage = tx.state.stage
    r = stage.other
    if coins:
        short = list(tx.state.shortfall)
        short[r] -= coins
        tx.emit(CoinsChanged(seat, -coins, "upkeep help"), ShortfallSet(tuple(short)))
    rest = tuple(int(x) for x in stage.data.split(",") if x)
    if help_next(tx, r, stage.waiting, rest):
        return
    help_recipients(tx, rest)


def abandon_from(tx: Tx, recipients: tuple[int, ...]) -> None:
    for k, r in enumerate(recipients):
        st = tx.state
        if st.players[r].eliminated:
            continue
        short = st.shortfall[r]
        foreign = sorted(st.foreign(r))
        n = min(short, len(foreign))
        if n and n == len(foreign):
            tx.emit(CitiesAbandoned(r, tuple(foreign)), _short(tx.state, r, short - n))
        elif n:
            prompt(tx, StageKind.ABANDON, r, n=n, waiting=recipients[k + 1 :])
            return
        penalty(tx, r)
        if tx.state.over:
            return
    phase3_finish(tx)


def _short(state: State, seat: int, value: int) -> ShortfallSet:
    short = list(state.shortfall)
    short[seat] = value
    return ShortfallSet(tuple(short))


def abandon_city(tx: Tx, seat: int, city: str) -> None:
    stage = tx.state.stage
    tx.emit(CitiesAbandoned(seat, (city,)), _short(tx.state, seat, tx.state.shortfall[seat] - 1))
    if stage.n > 1:
        prompt(tx, StageKind.ABANDON, seat, n=stage.n - 1, waiting=stage.waiting)
        return
    penalty(tx, seat)
    if tx.state.over:
        return
    abandon_from(tx, stage.waiting)


def penalty(tx: Tx, seat: int) -> None:
    short = tx.state.shortfall[seat]
    if short <= 0:
        return
    loss = math.ceil(short / 2)
    tx.emit(_short(tx.state, seat, 0))
    if tx.state.players[seat].score - loss < 0:
        eliminate(tx, seat, "UPKEEP")
    else:
        tx.emit(PrestigeChanged(seat, -loss, "upkeep shortfall"))


def phase3_finish(tx: Tx) -> None:
    st = tx.state
    for seat in st.order:
        p = st.players[seat]
        limit = content().nations[p.nation].treasury_limit
        if p.coins > limit:
            tx.emit(CoinsChanged(seat, limit - p.coins, "treasury limit"))
    bids = {}
    for seat in st.order:
        bids[seat] = _slot3_value(st, seat, ("MIL", "SCI"), ANTI)
    order = tuple(sorted(st.order, key=lambda s: (-bids[s], st.order.index(s))))
    tx.emit(TurnOrderSet(order, tuple(sorted(bids.items()))))
    for seat in order:
        exhaust(tx, seat, tx.state.players[seat].slots[2], "slot3")
    phase4(tx)


# -- phase 4 ----------------------------------------------------------------------------------
def phase4(tx: Tx) -> None:
    st = tx.state
    scoring_turns = content().rules["scoring_turns"][st.length]
    if st.turn in scoring_turns:
        score(tx)
    if st.turn >= st.final_turn:
        end_game(tx)
        return
    draft_start(tx)


def score_deltas(state: State) -> dict[int, int]:
    act = list(state.order)
    deltas = {}
    for seat in act:
        p = state.players[seat]
        d = len(state.foreign(seat))
        d -= 2 * sum(1 for c in state.home_cities(p.nation) if state.controller(c) != p.nation)
        for attr in ("sci", "art"):
            pos = getattr(p, attr)
            if 1 <= pos <= 8:
                d += 1
            elif pos >= 9:
                d += 2
            top = max(act, key=lambda q: (getattr(state.players[q], attr), -act.index(q)))
            if seat == top:
                d += 2
            if pos == min(getattr(state.players[q], attr) for q in act):
                d -= 1
        rel = content().nations[p.nation].religion
        if (state.religion < 0 and rel == CATH) or (state.religion > 0 and rel == ANTI):
            d += 2
        if p.nation == "RUS" and "STEPPE_PATIENCE" in content().nations["RUS"].powers:
            d += sum(1 for a in ("sci", "art") if getattr(p, a) >= 9)
        deltas[seat] = d
    return deltas


def score(tx: Tx) -> None:
    deltas = score_deltas(tx.state)
    tx.emit(ScoringApplied(tuple(sorted(deltas.items()))))
    for seat, d in deltas.items():
        now = tx.state.players[seat].score
        actual = max(0, now + d) - now  # DD-14: scoring floors at 0
        if actual:
            tx.emit(PrestigeChanged(seat, actual, "scoring"))


# -- phase 5 ----------------------------------------------------------------------------------
def draft_start(tx: Tx) -> None:
    base = 2 if tx.state.players_n <= 4 else 1  # DD-17: fixed by the player count at setup
    tx.emit(CursorSet(-1, tuple(tx.state.order) * base))
    draft_next(tx)


def legal_draft(state: State, seat: int) -> list[str]:
    banned = forbidden_color(religion_of(state, seat))
    return [c for col in COLORS if col != banned for c in state.rows.get(col, ())]


def draft_next(tx: Tx) -> None:
    while True:
        st = tx.state
        q = st.queue
        extra = st.slot == -2
        if q:
            seat = q[0]
            tx.emit(CursorSet(st.slot, q[1:]))
            if legal_draft(tx.state, seat):
                prompt(
                    tx,
                    StageKind.DRAFT,
                    seat,
                    data=(DraftRound.EXTRA if extra else DraftRound.BASE).value,
                )
                return
            tx.emit(DraftPickForgone(seat))
            if extra:
                owed = list(tx.state.owed)
                owed[seat] = 0
                tx.emit(DraftOwed(tuple(owed)))
            continue
        if not extra:
            owed_t = tuple(
                len(p.aside) + p.extra_picks if not p.eliminated else 0 for p in st.players
            )
            tx.emit(DraftOwed(owed_t))
        queue = tuple(s for s in tx.state.order if tx.state.owed[s] > 0)
        if not queue:
            draft_finish(tx)
            return
        tx.emit(CursorSet(-2, queue))


def draft_pick(tx: Tx, seat: int, card: str) -> None:
    color = content().luminaries[card].color
    tx.emit(LuminariesMoved(seat, (card,), 1, f"row:{color}", "hand", "public", "drafted"))
    if tx.state.slot == -2:
        owed = list(tx.state.owed)
        owed[seat] -= 1
        tx.emit(DraftOwed(tuple(owed)))
    draft_next(tx)


def draft_finish(tx: Tx) -> None:
    st = tx.state
    for p in st.players:
        if p.aside:
            tx.emit(
                LuminariesMoved(p.seat, p.aside, len(p.aside), "aside", "box", "public", "removed")
            )
    tx.emit(CursorSet(0, ()), DraftOwed((0,) * st.players_n))
    for col in COLORS:  # DD-47: undrafted cards to the bottom, row order
        row = tx.state.rows.get(col, ())
        if row:
            tx.emit(
                LuminariesMoved(
                    -1, row, len(row), f"row:{col}", f"pile:{col}", "public", "returned"
                )
            )
    for col in COLORS:
        top = tx.state.piles[f"pile:{col}"][:2]
        if top:
            tx.emit(
                LuminariesMoved(-1, top, len(top), f"pile:{col}", f"row:{col}", "public", "face up")
            )
    waiting = []
    for seat in tx.state.order:
        p = tx.state.players[seat]
        if p.mat and len(p.hand) < tx.state.hand_size(seat):
            waiting.append(seat)
        else:
            draw(tx, seat, tx.state.hand_size(seat) - len(p.hand))
    if waiting:
        prompt(tx, StageKind.REFILL, waiting=tuple(waiting))
    else:
        end_round(tx)


def refill(tx: Tx, seat: int, favorites: Sequence[str]) -> None:
    if favorites:
        tx.emit(
            LuminariesMoved(
                seat, tuple(favorites), len(favorites), "mat", "hand", "public", "reclaimed"
            )
        )
    p = tx.state.players[seat]
    draw(tx, seat, tx.state.hand_size(seat) - len(p.hand))
    waiting = tuple(s for s in tx.state.stage.waiting if s != seat)
    if waiting:
        prompt(tx, StageKind.REFILL, waiting=waiting)
    else:
        end_round(tx)


def end_round(tx: Tx) -> None:
    tx.emit(TurnBegan(tx.state.turn + 1))
    start_assign(tx)


def start_assign(tx: Tx) -> None:
    prompt(tx, StageKind.ASSIGN, waiting=tuple(tx.state.order))
