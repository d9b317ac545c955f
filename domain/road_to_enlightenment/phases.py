"""Phases 1 and 2 of a turn: assigning luminaries, the action cursor, the actions other than
an attack (§7.1, §7.4–§7.7: the census, reorganize, a luminary's action, diplomacy and the
exchange) and the census of phase 2c; an attack is ``combat.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..simultaneous import ChoiceCommitted
from .content import (
    ANTI,
    CATH,
    card_stat,
    content,
    power_n,
    power_type,
    stat,
)
from .effects import (
    Tx,
    advance,
    exhaust,
    prompt,
    remove,
    retreat,
    reveal,
    shift_religion,
)
from .events import (
    ActionDeclared,
    CensusJoined,
    CensusResolved,
    CoinsChanged,
    CursorSet,
    DiceRolled,
    DiplomacyChanged,
    ExtraPickGranted,
    LuminariesMoved,
    OffersRevealed,
    PowerUsed,
    PrestigeChanged,
    SlotPlanned,
    StacksLocked,
)
from .state import StageKind, State, religion_of
from .turn_end import phase3

__all__ = [
    "arrest_choice",
    "begin_slot",
    "census_contribution",
    "census_phase",
    "confirm_slots",
    "declare_census",
    "declare_diplomacy",
    "declare_luminary_action",
    "declare_reorganize",
    "exchange_decision",
    "exchange_offer",
    "finish_action",
    "forge",
    "gift",
    "next_actor",
    "plan_slot",
    "reorganize_pick",
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


# -- the actions of phase 2 (§7.1, §7.4-§7.7) ----------------------------------------
def declare_census(tx: Tx, seat: int) -> None:
    reveal(tx, seat, 2)
    tx.emit(ActionDeclared(seat, 2, "CENSUS"), CensusJoined(seat))
    next_actor(tx)


def declare_reorganize(tx: Tx, seat: int, enhancement: str | None) -> None:
    slot = tx.state.slot
    reveal(tx, seat, slot)
    tx.emit(ActionDeclared(seat, slot, "REORGANIZE", enhancement=enhancement))
    view = int(content().rules["reorganize_view"])
    if power_type(enhancement) == "SCHOLAR":
        assert enhancement is not None
        view += power_n(enhancement)
    deck = tx.state.players[seat].deck
    n = min(view, len(deck))
    if n == 0:
        finish_action(tx, seat)
        return
    tx.emit(LuminariesMoved(seat, deck[:n], n, "deck", "peek", "owner", "reorganize peek"))
    prompt(tx, StageKind.REORGANIZE, seat)


def reorganize_pick(tx: Tx, seat: int, card: str | None) -> None:
    peek = tx.state.players[seat].peek
    if card is not None:
        tx.emit(LuminariesMoved(seat, (card,), 1, "peek", "hand", "owner", "reorganize pick"))
    rest = tuple(c for c in peek if c != card)
    if rest:
        order = tx.rng.shuffled(rest)
        tx.emit(LuminariesMoved(seat, order, len(order), "peek", "deck", "server", "to bottom"))
    finish_action(tx, seat)


def declare_luminary_action(
    tx: Tx, seat: int, card: str, enhancement: str | None, victim: int, cost: Sequence[str] = ()
) -> None:
    slot = tx.state.slot
    reveal(tx, seat, slot)
    tx.emit(ActionDeclared(seat, slot, "LUMINARY_ACTION", card, enhancement, victim=victim))
    power = content().luminaries[card].power
    assert power is not None
    if cost:
        # DD-05: the named luminaries are exhausted at once; those from the stack leave it.
        stack = tx.state.players[seat].slots[slot - 1]
        exhaust(tx, seat, [x for x in cost if x in stack], f"slot{slot}")
        exhaust(tx, seat, [x for x in cost if x not in stack], "hand")
    nation = content().nations[tx.state.players[seat].nation]
    removed: list[str] = []
    if power.type == "ADVANCE":
        assert power.track is not None
        n = power.n
        if power_type(enhancement) == "RENOWN":
            assert enhancement is not None
            n += power_n(enhancement)
        advance(tx, seat, power.track, n)
    elif power.type == "PIETY":
        shift_religion(tx, nation.religion, power.n)
    elif power.type == "TAX":
        tx.emit(CoinsChanged(seat, power.n, "tax"))
    elif power.type == "PATRON":
        tx.emit(PrestigeChanged(seat, power.n, "patron"))
        removed.append(card)
    elif power.type == "COLONY":
        if nation.colonial:
            costs = content().rules["costs"]
            tx.emit(
                CoinsChanged(seat, costs["colony_coins"], "colony"),
                PrestigeChanged(seat, costs["colony_prestige"], "colony"),
            )
        removed.append(card)
    elif power.type == "SETBACK":
        assert power.track is not None
        retreat(tx, victim, power.track, power.n)
    elif power.type == "ARREST":
        hand = tx.state.players[victim].hand
        if any(not content().luminaries[c].favorite for c in hand):
            prompt(tx, StageKind.ARREST, victim, other=seat)
            return
    finish_action(tx, seat, removed)


def arrest_choice(tx: Tx, victim: int, card: str) -> None:
    actor = tx.state.stage.other
    tx.emit(
        LuminariesMoved(victim, (card,), 1, "hand", "box", "public", "arrested"),
        ExtraPickGranted(victim),
    )
    finish_action(tx, actor)


# -- diplomacy --------------------------------------------------------------------------------
def declare_diplomacy(tx: Tx, seat: int) -> None:
    slot = tx.state.slot
    reveal(tx, seat, slot)
    tx.emit(ActionDeclared(seat, slot, "DIPLOMACY"))
    prompt(tx, StageKind.FORGE, seat)


def forge(tx: Tx, seat: int, nation: str, cards: Sequence[str]) -> None:
    exhaust(tx, seat, cards, f"slot{tx.state.slot}")
    tx.emit(DiplomacyChanged(tx.state.players[seat].nation, nation, "ALLY", "forged"))
    prompt(tx, StageKind.GIFT, seat)


def gift(tx: Tx, seat: int, ally: int, cards: Sequence[str]) -> None:
    exhaust(tx, seat, cards, f"slot{tx.state.slot}")
    tx.emit(
        CoinsChanged(seat, -content().rules["costs"]["gift_coins"], "gift"),
        PrestigeChanged(seat, 1, "gift"),
        PrestigeChanged(ally, 1, "gift"),
    )
    prompt(tx, StageKind.OFFER, seat, other=ally, waiting=(seat, ally))


def exchange_offer(tx: Tx, seat: int, card: str | None) -> None:
    tx.emit(ChoiceCommitted(seat, (card,) if card else ()))
    if not tx.state.choices.complete:
        return
    st = tx.state.stage
    offers = dict(tx.state.choices.committed)
    a, b = offers.get(st.seat, ()), offers.get(st.other, ())
    tx.emit(OffersRevealed(st.seat, a[0] if a else None, st.other, b[0] if b else None))
    if a and b:
        prompt(
            tx,
            StageKind.ACCEPT,
            st.seat,
            other=st.other,
            waiting=(st.seat, st.other),
            data=f"{a[0]}|{b[0]}",
        )
    else:
        finish_action(tx, st.seat)


def exchange_decision(tx: Tx, seat: int, accept: bool) -> None:
    tx.emit(ChoiceCommitted(seat, ("yes",) if accept else ("no",)))
    if not tx.state.choices.complete:
        return
    st = tx.state.stage
    revealed = tx.state.choices.revealed()
    tx.emit(revealed)
    if all(c == ("yes",) for _, c in revealed.choices):
        card_a, card_b = st.data.split("|")
        tx.emit(
            LuminariesMoved(st.seat, (card_a,), 1, "discard", "box", "public", "exchange"),
            LuminariesMoved(st.other, (card_a,), 1, "box", "hand", "public", "exchange"),
            LuminariesMoved(st.other, (card_b,), 1, "discard", "box", "public", "exchange"),
            LuminariesMoved(st.seat, (card_b,), 1, "box", "hand", "public", "exchange"),
        )
    finish_action(tx, st.seat)
