"""Phases 4 and 5 of a turn: scoring, the draft, refilling hands and the next round."""

from __future__ import annotations

from collections.abc import Sequence

from .content import (
    ANTI,
    CATH,
    COLORS,
    content,
    forbidden_color,
)
from .effects import Tx, draw, end_game, prompt
from .events import (
    CursorSet,
    DraftOwed,
    DraftPickForgone,
    LuminariesMoved,
    PrestigeChanged,
    ScoringApplied,
    TurnBegan,
)
from .state import DraftRound, StageKind, State, religion_of

__all__ = [
    "draft_finish",
    "draft_pick",
    "draft_start",
    "legal_draft",
    "phase4",
    "refill",
    "score",
    "score_deltas",
    "start_assign",
]


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
