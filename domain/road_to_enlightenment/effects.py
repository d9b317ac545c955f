"""The decision builder and the effects every rule emits through it, the moves on the tracks
included.

Every rule takes a :class:`Tx`, reads ``tx.state`` and changes it only by emitting events
(which ``evolve`` folds at once), so the log is the single source of truth. The flow is a
chain of continuations: each step either emits a ``StageSet`` naming the decision the game
now waits for and returns, or calls the next step. Automatic steps (census, income, refresh,
scoring, end of game) therefore run inside the command that completes the step before them.
The science and art tracks (bumping, locking, wrapping, medallions) and the religion track
move here (``advance``, ``retreat``, ``shift_religion``), for every rule that moves them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..randomness import Rng
from ..transaction import Transaction
from .content import (
    CATH,
    content,
)
from .events import (
    CityTaken,
    CursorSet,
    Event,
    GameEnded,
    LuminariesMoved,
    MarkerMoved,
    MedallionHow,
    MedallionTaken,
    PlayerEliminated,
    PrestigeChanged,
    ReligionShifted,
    StackRevealed,
    StageSet,
)
from .evolve import evolve
from .state import Stage, StageKind, State

__all__ = [
    "Tx",
    "advance",
    "draw",
    "eliminate",
    "end_game",
    "exhaust",
    "prompt",
    "remove",
    "retreat",
    "reveal",
    "shift_religion",
]


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


# -- the tracks (§8) -------------------------------------------------------------------------
class _Track:
    """One track's markers and medallions, simulated on local copies.

    A move is worked out here and written as events afterwards (``emit``): final positions
    (``MarkerMoved``), medallion changes (``MedallionTaken``) and wrap prestige.
    """

    def __init__(self, state: State, track: str) -> None:
        self.state = state
        self.track = track
        self.attr = "sci" if track == "SCI" else "art"
        self.length = content().track_length
        self.med_at = {space: m for m, (t, space) in content().medallions.items() if t == track}
        live = [p for p in state.players if not p.eliminated]
        self.pos = {p.seat: int(getattr(p, self.attr)) for p in live}
        self.locked = {p.seat: bool(getattr(p, self.attr + "_locked")) for p in live}
        self.old_pos, self.old_locked = dict(self.pos), dict(self.locked)
        self.holder = {m: state.medallions.get(m, -1) for m in self.med_at.values()}
        self.how: dict[str, MedallionHow] = {}

    def take(self, space: int, who: int, kind: MedallionHow) -> None:
        m = self.med_at.get(space)
        if m is not None and self.holder[m] != who:
            self.holder[m] = who
            self.how[m] = kind

    def steal(self, bumper: int, victim: int) -> None:
        for m in self.med_at.values():
            if self.holder[m] == victim:
                self.holder[m] = bumper
                self.how[m] = "BUMP"

    def occupant(self, space: int, exclude: int) -> int | None:
        if space <= 0:
            return None  # DD-32: space 0 holds any number of markers
        for s, q in self.pos.items():
            if q == space and s != exclude:
                return s
        return None

    def move_back(self, x: int, frm: int) -> None:
        """Backward movement (§8.1): never locks, never takes a medallion by space."""
        q = frm - 1
        while True:
            if q <= 0:
                self.pos[x] = 0
                return
            o = self.occupant(q, x)
            if o is None:
                self.pos[x] = q
                return
            if self.locked[o]:
                q -= 1  # slide past a locked marker
                continue
            self.pos[x] = q
            self.steal(x, o)  # DD-31: any bumper steals
            x, q = o, q - 1

    def emit(self, tx: Tx, seat: int, cause: str, wraps: int = 0) -> None:
        events: list[Event] = []
        if wraps:
            events.append(PrestigeChanged(seat, 5 * wraps, f"{self.track} track wrap"))
        for s in self.pos:
            if s == seat or self.pos[s] != self.old_pos[s] or self.locked[s] != self.old_locked[s]:
                kind = cause if s == seat else "BUMP"
                events.append(
                    MarkerMoved(
                        s, self.track, self.pos[s], self.locked[s], kind, wraps if s == seat else 0
                    )
                )
        for m, k in self.how.items():
            if self.holder[m] != self.state.medallions.get(m, -1):
                events.append(MedallionTaken(m, self.holder[m], k))
        tx.emit(*events)


def advance(tx: Tx, seat: int, track: str, n: int, cause: str = "ADVANCE") -> None:
    """Move ``seat``'s marker up ``track`` (SCI or ART) by ``n`` steps, with every side effect."""
    if n <= 0:
        return
    t = _Track(tx.state, track)
    t.locked[seat] = True
    cur = t.pos[seat]
    t.pos[seat] = -99  # lifted off the track while it moves
    wraps = 0
    path = []
    for _ in range(n):
        if cur == t.length:
            cur = 0
            wraps += 1
        else:
            cur += 1
        path.append(cur)
    for space in path[:-1]:
        if space:
            t.take(space, seat, "CROSS")
    target = path[-1]
    o = t.occupant(target, seat)
    if o is None:
        t.pos[seat] = target
        t.take(target, seat, "LAND")
    elif not t.locked[o]:
        t.pos[seat] = target
        t.take(target, seat, "LAND")
        t.steal(seat, o)
        t.move_back(o, target)
    else:
        t.move_back(seat, target)
    t.emit(tx, seat, cause, wraps)


def retreat(tx: Tx, seat: int, track: str, n: int, cause: str = "SETBACK") -> None:
    """Move ``seat``'s marker ``n`` steps *down* ``track`` by a card effect (§8.1).

    "Lift the marker, then move_back from pos - n + 1": it stops on the first free space at or
    below ``pos - n``, bumps unlocked markers down in a chain (the bumper steals their
    medallions, DD-31), slides past locked ones, takes no medallion by space (DD-33) and never
    wraps below space 0. A backward move does not lock the marker; a marker already locked
    this round stays locked, and keeps its medallions.
    """
    t = _Track(tx.state, track)
    start = t.pos.get(seat, 0)
    if n <= 0 or start <= 0:
        return
    t.pos[seat] = -99  # lifted off the track while it moves
    t.move_back(seat, start - n + 1)
    t.emit(tx, seat, cause)


def shift_religion(tx: Tx, side: str, n: int) -> None:
    """Move the white marker ``n`` steps toward ``side``'s end, wrapping past +-5 (+3 each)."""
    if n <= 0:
        return
    rules = content().rules["religion_track"]
    top: int = rules["max"]
    step = -1 if side == CATH else 1
    rel = tx.state.religion
    wraps = 0
    for _ in range(n):
        nxt = rel + step
        if nxt > top:
            rel, wraps = 1, wraps + 1
        elif nxt < -top:
            rel, wraps = -1, wraps + 1
        else:
            rel = nxt
    events: list[Event] = [ReligionShifted(rel, side, wraps)]
    if wraps:
        cn = content().nations
        for s in tx.state.active:
            if cn[tx.state.players[s].nation].religion == side:
                events.append(PrestigeChanged(s, 3 * wraps, "religion track wrap"))
    tx.emit(*events)
