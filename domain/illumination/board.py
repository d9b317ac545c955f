"""Book geometry: placement benefits, conflicts and Bounded Battles, the Monk's search."""

from __future__ import annotations

import attrs

from .content import CONTENT
from .state import Book, State

__all__ = [
    "Conflict",
    "benefits",
    "bounded",
    "conflicts",
    "monk_search",
    "strength",
]

NEIGHBOURS = CONTENT.neighbours
TILES = CONTENT.tiles
PAIR_OF: dict[str, int] = {f: i for i, (_, a, b) in enumerate(CONTENT.pairs) for f in (a, b)}
FACTION_SIDE: dict[str, int] = {f: s for s in (0, 1) for f in CONTENT.factions[s]}


@attrs.frozen
class Conflict:
    pair: int
    cells: tuple[int, ...]
    """Member squares, in reading order."""


def faceup_faction(state: State, book: Book, cell: int) -> str | None:
    tile = book.cells[cell]
    if tile is None or tile in state.facedown:
        return None
    return TILES[tile].faction


def benefits(state: State, pos: int, cell: int, tile: str) -> tuple[int, list[int]]:
    """(Quill coin 0/1, ritual tokens) for placing ``tile`` at ``cell`` on the current board.

    Rules A, B, C: a Quill of the tile's colour gives a coin; each faceup neighbour of the
    same colour (any owner) gives a token of that colour; an adjacent Drollery gives one more.
    """
    book = state.books[pos]
    info = TILES[tile]
    colour = info.colour
    assert colour is not None
    layout = CONTENT.layouts[book.layout].cells
    coin = 1 if layout[cell] == colour else 0
    ritual = CONTENT.ritual_of_colour(colour)
    tokens: list[int] = []
    for n in NEIGHBOURS[cell]:
        other = book.cells[n]
        if other is not None and other not in state.facedown and TILES[other].colour == colour:
            tokens.append(ritual)
    if book.drollery in NEIGHBOURS[cell]:
        tokens.append(ritual)
    return coin, tokens


_TILE_PAIR: dict[str, int] = {
    t: PAIR_OF[i.faction] for t, i in TILES.items() if i.faction is not None
}
"""Each faction tile's pair (Battle card); Two-Coin tiles have none."""
_TILE_SIDE_BIT: dict[str, int] = {
    t: 1 << FACTION_SIDE[i.faction] for t, i in TILES.items() if i.faction is not None
}
"""Each faction tile's side as a bit: a component holding both sides' bits (3) is a
conflict."""


_ALL_SQUARES = range(25)


def conflicts(state: State, book: Book, near: int | None = None) -> list[Conflict]:
    """Every conflict (connected faceup tiles of one pair, both factions present), in order
    of their first squares.

    ``near``: only the conflicts holding that square or a neighbour of it, those a tile just
    placed there can have made or bounded (it joins only its own pair's component, and it
    fills an empty square only its neighbours touch); every other component is as it was
    before the placement. After a placement on a Book settled by the last one (see
    ``Turn.place``) the rest cannot hold a Bounded Battle not already fought or reported
    tied, so only those few components are walked instead of all 25 squares."""
    # Each component walked once from its first square, its squares marked as seen, its
    # sides or'ed as bits (a component holding both sides' bits, 3, is a conflict).
    down = state.facedown
    cells = book.cells
    seen: set[int] = set()
    out: list[Conflict] = []
    for start in _ALL_SQUARES if near is None else (near, *NEIGHBOURS[near]):
        if start in seen:
            continue
        tile = cells[start]
        if tile is None or tile in down or (pair := _TILE_PAIR.get(tile)) is None:
            continue
        seen.add(start)
        comp = [start]
        sides = _TILE_SIDE_BIT[tile]
        i = 0
        while i < len(comp):
            for n in NEIGHBOURS[comp[i]]:
                if n in seen:
                    continue
                t = cells[n]
                if t is not None and _TILE_PAIR.get(t) == pair and t not in down:
                    seen.add(n)
                    comp.append(n)
                    sides |= _TILE_SIDE_BIT[t]
            i += 1
        if sides == 3:
            comp.sort()
            out.append(Conflict(pair, tuple(comp)))
    return out


def bounded(book: Book, conflict: Conflict) -> bool:
    """No empty Quill touches any member of the conflict."""
    layout = CONTENT.layouts[book.layout].cells
    for c in conflict.cells:
        for n in NEIGHBOURS[c]:
            if layout[n] != "T" and book.cells[n] is None:
                return False
    return True


def strength(state: State, book: Book, conflict: Conflict, side: int) -> int:
    """Tiles of ``side`` in the conflict, each gold leaf beneath one counting +1."""
    total = 0
    for c in conflict.cells:
        tile = book.cells[c]
        assert tile is not None
        if TILES[tile].side == side:
            total += 1 + len(state.gold_of(tile))
    return total


def monk_search(
    state: State,
    tile: str,
    start: int,
    only: int | None = None,
    exclude: tuple[int, int] | None = None,
) -> tuple[int, int, str] | None:
    """Where the Mystic Monk places ``tile`` (reference §6): (pos, cell, step) or None.

    Quills are scanned in reading order in each Book (D-33); Books in the human's number
    order starting at ``start`` (physical positions 0→1→2→0 are the human's I→II→III).
    """
    faction = TILES[tile].faction
    colour = TILES[tile].colour
    assert faction is not None
    enemy = CONTENT.enemy(faction)
    order = [only] if only is not None else [start, (start + 1) % 3, (start + 2) % 3]

    def open_quills(pos: int) -> list[int]:
        book = state.books[pos]
        if book.closed:
            return []
        return [q for q in book.open_quills() if (pos, q) != exclude]

    def next_to(pos: int, q: int, f: str) -> bool:
        book = state.books[pos]
        return any(faceup_faction(state, book, n) == f for n in NEIGHBOURS[q])

    for pos in order:
        quills = open_quills(pos)
        for q in quills:
            if next_to(pos, q, enemy):
                return pos, q, "a"
        for q in quills:
            if next_to(pos, q, faction):
                return pos, q, "b"
    for i, pos in enumerate(order):
        layout = CONTENT.layouts[state.books[pos].layout].cells
        for q in open_quills(pos):
            if layout[q] == colour:
                return pos, q, "d" if i == 0 else "e"
    for pos in order:
        for q in open_quills(pos):
            return pos, q, "f"
    return None
