"""Phases 1 to 3 of a turn: assigning luminaries, the action cursor, the census and the
economy (income, upkeep, allies' help, abandoned cities, turn order).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..simultaneous import ChoiceCommitted
from .content import (
    ANTI,
    CATH,
    card_stat,
    content,
    stat,
)
from .draft import phase4
from .effects import Tx, eliminate, exhaust, prompt, remove, reveal
from .events import (
    CensusResolved,
    CitiesAbandoned,
    CoinsChanged,
    CursorSet,
    DiceRolled,
    PowerUsed,
    PrestigeChanged,
    ShortfallSet,
    SlotPlanned,
    StacksLocked,
    TurnOrderSet,
)
from .state import StageKind, State, religion_of
from .tracks import advance, shift_religion

__all__ = [
    "abandon_city",
    "begin_slot",
    "census_contribution",
    "census_phase",
    "confirm_slots",
    "finish_action",
    "help_upkeep",
    "next_actor",
    "phase3",
    "phase3_choice",
    "phase3_resolve",
    "plan_slot",
    "resolve_census",
    "russia_move",
]


# -- phase 1 ----------------------------------------------------------------------------------


def plan_slot(tx: Tx, seat: int, card: str, slot: int) -> None:
    tx.emit(SlotPlanned(seat, card, slot))
    if seat in tx.state.choices.committed_seats:  # DD-38: a revision re-commits at once
        plan = tx.state.players[seat].plan
        tx.emit(ChoiceCommitted(seat, tuple(sorted(f"{s}:{c}" for c, s in plan))))


def confirm_slots(tx: Tx, seat: int) -> None:
    plan = tx.state.players[seat].plan
    tx.emit(ChoiceCommitted(seat, tuple(sorted(f"{s}:{c}" for c, s in plan))))
    if tx.state.choices.complete:
        counts = tuple(
            tuple(sum(1 for _, s in p.plan if s == k) for k in (1, 2, 3)) for p in tx.state.players
        )
        tx.emit(StacksLocked(counts))
        begin_slot(tx, 1)


# -- phase 2 ----------------------------------------------------------------------------------
def begin_slot(tx: Tx, slot: int) -> None:
    tx.emit(CursorSet(slot, tuple(tx.state.order)))
    next_actor(tx)


def next_actor(tx: Tx) -> None:
    if tx.state.over:
        return
    q = tx.state.queue
    if not q:
        if tx.state.slot == 1:
            begin_slot(tx, 2)
        else:
            census_phase(tx)
        return
    seat = q[0]
    tx.emit(CursorSet(tx.state.slot, q[1:]))
    prompt(tx, StageKind.DECLARE, seat, n=tx.state.slot)


def finish_action(tx: Tx, seat: int, removed: Sequence[str] = ()) -> None:
    """A_CLEANUP and A_POST: exhaust the acting stack, then Russia's movement power."""
    if tx.state.over:
        return
    slot = tx.state.slot
    src = f"slot{slot}"
    stack = tx.state.players[seat].slots[slot - 1]
    gone = [c for c in removed if c in stack]
    remove(tx, seat, gone, src)
    exhaust(tx, seat, [c for c in stack if c not in gone], src)
    p = tx.state.players[seat]
    westernization = "WESTERNIZATION" in content().nations["RUS"].powers
    if p.nation == "RUS" and westernization and not p.russia_used and not p.eliminated:
        prompt(tx, StageKind.RUSSIA, seat)
        return
    next_actor(tx)


def russia_move(tx: Tx, seat: int, track: str | None) -> None:
    if track is not None:
        tx.emit(PowerUsed(seat, "WESTERNIZATION"))
        advance(tx, seat, track, 1, "WESTERNIZATION")
    next_actor(tx)


# -- phase 2c: census (§8.3) ------------------------------------------------------------------
def census_phase(tx: Tx) -> None:
    tx.emit(CursorSet(0, ()))
    st = tx.state
    kind = st.chits[st.turn - 1]
    if kind in ("SCIENCE", "ART", "RELIGION"):
        resolve_census(tx, kind)
    for seat in tx.state.census:
        exhaust(tx, seat, tx.state.players[seat].slots[1], "slot2")
    phase3(tx)


def census_contribution(state: State, seat: int, kind: str) -> int:
    stack = state.players[seat].slots[1]
    if kind == "SCIENCE":
        return min(stat(stack, "SCI"), stat(stack, "IDE"))
    if kind == "ART":
        return min(stat(stack, "ART"), stat(stack, "WEA"))
    rel = religion_of(state, seat)
    mine, other = ("CAT", "ANT") if rel == CATH else ("ANT", "CAT")
    ok = [x for x in stack if card_stat(x, other) == 0]
    return min(stat(ok, "POL"), stat(ok, mine))


def resolve_census(tx: Tx, kind: str) -> None:
    st = tx.state
    contrib = {s: census_contribution(st, s, kind) for s in st.census}
    if kind in ("SCIENCE", "ART"):
        track = "SCI" if kind == "SCIENCE" else "ART"
        ranked = sorted(
            (s for s in contrib if contrib[s] >= 1), key=lambda s: (-contrib[s], st.order.index(s))
        )
        steps = []
        for s in st.order:
            if s in ranked:
                r = ranked.index(s)
                n = contrib[s] // 5 + (4 if r == 0 else 2 if r == 1 else 0)
                steps.append((s, n))
        tx.emit(CensusResolved(kind, tuple(sorted(contrib.items())), tuple(steps)))
        for s, n in steps:
            if not tx.state.players[s].eliminated:
                advance(tx, s, track, n, "CENSUS")
        return
    tot = {CATH: 0, ANTI: 0}
    for s, v in contrib.items():
        tot[religion_of(st, s)] += v
    n_c = sum(1 for s in st.active if religion_of(st, s) == CATH)
    n_a = len(st.active) - n_c
    if n_c != n_a:
        minority = CATH if n_c < n_a else ANTI
        dice = tuple(tx.rng.die(6) for _ in range(3))
        tx.emit(DiceRolled("RELIGION_MINORITY", dice, minority))
        tot[minority] += sum(dice)
    steps_r: tuple[tuple[int, int], ...] = ()
    tx.emit(CensusResolved(kind, tuple(sorted(contrib.items())), steps_r))
    if tot[CATH] != tot[ANTI]:
        win = CATH if tot[CATH] > tot[ANTI] else ANTI
        margin = abs(tot[CATH] - tot[ANTI])
        shift_religion(tx, win, 3 + margin // 5)


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
