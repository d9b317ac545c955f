"""The decision builder and the effects every rule emits through it.

Every rule takes a :class:`Tx`, reads ``tx.state`` and changes it only by emitting events
(which ``evolve`` folds at once), so the log is the single source of truth. The flow is a
chain of continuations: each step either emits a ``StageSet`` naming the decision the game
now waits for and returns, or calls the next step. Automatic steps (census, income, refresh,
scoring, end of game) therefore run inside the command that completes the step before them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..randomness import Rng
from ..transaction import Transaction
from .content import (
    content,
)
from .events import (
    CityTaken,
    CursorSet,
    Event,
    GameEnded,
    LuminariesMoved,
    MedallionTaken,
    PlayerEliminated,
    StackRevealed,
    StageSet,
)
from .evolve import evolve
from .state import Stage, StageKind, State

__all__ = ["Tx", "draw", "eliminate", "end_game", "exhaust", "prompt", "remove", "reveal"]


class Tx(Transaction[State, Event]):
    """A decision of Road to Enlightenment in progress: the kernel's transaction over
    Road's ``evolve``, whose every decision has randomness at hand (reshuffles, dice)."""

    __slots__ = ()
    rng: Rng

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, evolve, rng)


def exhaust(tx: Tx, seat: int, cards: Sequence[str], src: str) -> None:
    """Favorites go face up to the mat, lessers to the personal discard (both public)."""
    if not cards:
        return
    lums = content().luminaries
    favs = tuple(c for c in cards if lums[c].favorite)
    lesser = tuple(c for c in cards if not lums[c].favorite)
    if favs:
        tx.emit(LuminariesMoved(seat, favs, len(favs), src, "mat", "public", "exhausted"))
    if lesser:
        tx.emit(LuminariesMoved(seat, lesser, len(lesser), src, "discard", "public", "exhausted"))


def remove(tx: Tx, seat: int, cards: Sequence[str], src: str) -> None:
    """Removed by its own effect: set aside (one extra draft pick each)."""
    if cards:
        tx.emit(LuminariesMoved(seat, tuple(cards), len(cards), src, "aside", "public", "removed"))


def prompt(
    tx: Tx,
    kind: StageKind,
    seat: int = -1,
    *,
    other: int = -1,
    n: int = 0,
    data: str = "",
    waiting: tuple[int, ...] = (),
) -> None:
    """Wait for ``kind`` (see :class:`StageKind` for what the other fields mean)."""
    tx.emit(StageSet(Stage(kind, seat, other, n, data, waiting)))


def draw(tx: Tx, seat: int, n: int) -> None:
    """Draw lessers from the personal deck, reshuffling the discard when it runs out."""
    while n > 0:
        p = tx.state.players[seat]
        if not p.deck:
            if not p.discard:
                return
            order = tx.rng.shuffled(p.discard)
            tx.emit(
                LuminariesMoved(seat, order, len(order), "discard", "deck", "server", "reshuffle")
            )
            p = tx.state.players[seat]
        k = min(n, len(p.deck))
        cards = p.deck[:k]
        tx.emit(LuminariesMoved(seat, cards, k, "deck", "hand", "owner", "draw"))
        n -= k


def reveal(tx: Tx, seat: int, slot: int) -> tuple[str, ...]:
    cards = tx.state.players[seat].slots[slot - 1]
    tx.emit(StackRevealed(seat, slot, cards))
    return cards


# -- elimination ------------------------------------------------------------------------------
def eliminate(tx: Tx, seat: int, cause: str) -> None:
    st = tx.state
    nation = st.players[seat].nation
    for city, occ in sorted(st.occupant.items()):
        if occ == nation:
            tx.emit(CityTaken(city, None, "elimination"))
    for m, holder in sorted(st.medallions.items()):
        if holder == seat:
            tx.emit(MedallionTaken(m, -1, "ELIMINATION"))
    p = tx.state.players[seat]
    zones = [
        ("hand", p.hand),
        ("deck", p.deck),
        ("discard", p.discard),
        ("mat", p.mat),
        ("aside", p.aside),
        ("peek", p.peek),
    ]
    zones += [(f"slot{i + 1}", s) for i, s in enumerate(p.slots)]
    for zone, cards in zones:
        if cards:
            tx.emit(LuminariesMoved(seat, cards, len(cards), zone, "vault", "server", "eliminated"))
    tx.emit(PlayerEliminated(seat, cause))
    if len(tx.state.active) < 2:
        end_game(tx)


def end_game(tx: Tx) -> None:
    st = tx.state
    ranking = sorted(st.order, key=lambda s: (-st.players[s].score, st.order.index(s)))
    fallen = sorted(
        (p.seat for p in st.players if p.eliminated), key=lambda s: (-st.players[s].score, s)
    )
    tx.emit(CursorSet(0, ()))
    tx.emit(GameEnded(tuple(p.score for p in st.players), tuple(ranking + fallen)))
