"""Science and art tracks (bumping, locking, wrapping, medallions) and the religion track."""

from __future__ import annotations

from typing import Protocol

from .content import CATH, content
from .events import MarkerMoved, MedallionTaken, PrestigeChanged, ReligionShifted
from .state import State

__all__ = ["advance", "shift_religion"]


class Emitter(Protocol):
    state: State

    def emit(self, *events: object) -> None: ...


def advance(tx: Emitter, seat: int, track: str, n: int, cause: str = "ADVANCE") -> None:
    """Move ``seat``'s marker up ``track`` (SCI or ART) by ``n`` steps, with every side effect.

    The move is simulated on local copies and written as events afterwards: final positions
    (``MarkerMoved``), medallion changes (``MedallionTaken``) and wrap prestige.
    """
    if n <= 0:
        return
    st = tx.state
    attr = "sci" if track == "SCI" else "art"
    length = content().track_length
    med_at = {space: m for m, (t, space) in content().medallions.items() if t == track}
    live = [p for p in st.players if not p.eliminated]
    pos = {p.seat: getattr(p, attr) for p in live}
    locked = {p.seat: bool(getattr(p, attr + "_locked")) for p in live}
    before = dict(pos), dict(locked)
    holder = {m: st.medallions.get(m, -1) for m in med_at.values()}
    how: dict[str, str] = {}

    def take(space: int, who: int, kind: str) -> None:
        m = med_at.get(space)
        if m is not None and holder[m] != who:
            holder[m] = who
            how[m] = kind

    def steal(bumper: int, victim: int) -> None:
        for m in med_at.values():
            if holder[m] == victim:
                holder[m] = bumper
                how[m] = "BUMP"

    def occupant(space: int, exclude: int) -> int | None:
        if space <= 0:
            return None  # DD-32: space 0 holds any number of markers
        for s, q in pos.items():
            if q == space and s != exclude:
                return s
        return None

    def move_back(x: int, frm: int) -> None:
        q = frm - 1
        while True:
            if q <= 0:
                pos[x] = 0
                return
            o = occupant(q, x)
            if o is None:
                pos[x] = q
                return
            if locked[o]:
                q -= 1  # slide past a locked marker
                continue
            pos[x] = q
            steal(x, o)  # DD-31: any bumper steals
            x, q = o, q - 1

    locked[seat] = True
    cur = pos[seat]
    pos[seat] = -99  # lifted off the track while it moves
    wraps = 0
    path = []
    for _ in range(n):
        if cur == length:
            cur = 0
            wraps += 1
        else:
            cur += 1
        path.append(cur)
    for space in path[:-1]:
        if space:
            take(space, seat, "CROSS")
    target = path[-1]
    o = occupant(target, seat)
    if o is None:
        pos[seat] = target
        take(target, seat, "LAND")
    elif not locked[o]:
        pos[seat] = target
        take(target, seat, "LAND")
        steal(seat, o)
        move_back(o, target)
    else:
        move_back(seat, target)

    old_pos, old_locked = before
    events: list[object] = []
    if wraps:
        events.append(PrestigeChanged(seat, 5 * wraps, f"{track} track wrap"))
    for s in pos:
        if s == seat or pos[s] != old_pos[s] or locked[s] != old_locked[s]:
            kind = cause if s == seat else "BUMP"
            events.append(MarkerMoved(s, track, pos[s], locked[s], kind, wraps if s == seat else 0))
    for m, k in how.items():
        if holder[m] != st.medallions.get(m, -1):
            events.append(MedallionTaken(m, holder[m], k))
    tx.emit(*events)


def shift_religion(tx: Emitter, side: str, n: int) -> None:
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
    events: list[object] = [ReligionShifted(rel, side, wraps)]
    if wraps:
        cn = content().nations
        for s in tx.state.active:
            if cn[tx.state.players[s].nation].religion == side:
                events.append(PrestigeChanged(s, 3 * wraps, "religion track wrap"))
    tx.emit(*events)
