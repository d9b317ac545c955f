"""Legal-move generation, kept separate from deciding (python-chess style).

``legal_commands`` lists exactly the commands ``decide`` accepts; a property test holds the
two together. ``legal_segments`` is the same list as the consecutive runs it is made of: the
very same tuples from one state to the next wherever the run is the same (the Quills of an
unchanged Book, the ways to pay with unchanged coins), for a reader that works a run out
once by its identity (the server's encoding and grouping, ``protocol.legal``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import chain
from operator import itemgetter
from typing import TypeVar, assert_never, cast

from ..memo import Kept
from . import commands as cmd
from .content import CONTENT
from .evolve import line_cells
from .state import MODE_DUEL, PHASE_PLAY, Book, PendingKind, State
from .turn import marker_remedy

__all__ = ["legal_commands", "legal_segments", "payments"]

TILES = CONTENT.tiles
RITUALS = CONTENT.rituals
C = TypeVar("C", bound=cmd.Command)

_INTERNED: dict[tuple[object, ...], cmd.Command] = {}
"""Commands by their class and fields: the legal list of one state is mostly that of the
last (the same Quills, the same ways to pay), and a command is a frozen value, so the very
same objects are listed again instead of new ones: no construction, and the codec finds
their encoded form by identity. Bounded: starts afresh when full."""
_INTERNED_MAX = 50_000


def _the(cls: Callable[..., C], *fields: object) -> C:
    """The one ``cls(*fields)`` (see ``_INTERNED``)."""
    key = (cls, *fields)
    command = _INTERNED.get(key)
    if command is None:
        if len(_INTERNED) >= _INTERNED_MAX:
            _INTERNED.clear()
        command = _INTERNED[key] = cls(*fields)
    return cast(C, command)  # the key starts with its class


_OPEN_QUILLS: Kept[int, tuple[Book, tuple[int, ...]]] = Kept(1024)
"""Open Quills by book (its identity; the entry keeps it alive): a move changes one book."""


def _open_quills(book: Book) -> tuple[int, ...]:
    hit = _OPEN_QUILLS.get(id(book))
    if hit is not None and hit[0] is book:
        return hit[1]
    quills = () if book.closed else tuple(book.open_quills())
    _OPEN_QUILLS.put(id(book), (book, quills))
    return quills


_CELLS: dict[tuple[object, ...], tuple[cmd.Command, ...]] = {}
"""The command that puts one tile on each of the 25 cells (place it; move it to one Book by
Motus), by the command type, the tile (and the Book, for Motus): a run over some Quills is
then picked out of it in C (``_on_quills``), not made a command at a time. At most a few
hundred tables (a tile's, and its Motus to each Book); bounded all the same."""


def _cells(
    kind: type[cmd.PlaceTile] | type[cmd.PlayMotus], tile: str, pos: int
) -> tuple[cmd.Command, ...]:
    key = (kind, tile) if kind is cmd.PlaceTile else (kind, tile, pos)
    table = _CELLS.get(key)
    if table is None:
        if len(_CELLS) >= 4096:
            _CELLS.clear()
        if kind is cmd.PlaceTile:
            table = tuple(_the(cmd.PlaceTile, tile, q // 5, q % 5) for q in range(25))
        else:
            table = tuple(_the(cmd.PlayMotus, tile, pos, q // 5, q % 5) for q in range(25))
        _CELLS[key] = table
    return table


_ON_QUILLS: dict[tuple[object, ...], tuple[cmd.Command, ...]] = {}
"""The commands that put one tile on each of some Quills (place it, move it by Motus), by
the command type, the tile, the Book and the Quills: a move changes one Book's Quills and
the margins, so most of one state's runs are the last state's, and a run is one look-up
instead of a command per Quill."""


def _on_quills(
    kind: type[cmd.PlaceTile] | type[cmd.PlayMotus], tile: str, pos: int, quills: tuple[int, ...]
) -> tuple[cmd.Command, ...]:
    key = (kind, tile, pos, quills)
    hit = _ON_QUILLS.get(key)
    if hit is None:
        if len(_ON_QUILLS) >= 8192:
            _ON_QUILLS.clear()
        # A new Book's Quills make a new run for every tile bound for that Book (and every
        # Motus-able tile): picked from the tile's table by one itemgetter (a tuple for two
        # Quills or more, the bare item for one), not a ``_the`` per Quill.
        table = _cells(kind, tile, pos)
        many = len(quills) > 1
        hit = itemgetter(*quills)(table) if many else tuple([table[q] for q in quills])
        _ON_QUILLS[key] = hit
    return hit


_LINES: dict[tuple[str | None, ...], tuple[cmd.Command, ...]] = {}
"""The lines one may choose, by the archways (a value: the same tiles, the same lines)."""


def _lines(archways: tuple[str | None, ...]) -> tuple[cmd.Command, ...]:
    hit = _LINES.get(archways)
    if hit is None:
        if len(_LINES) >= 8192:
            _LINES.clear()
        # The same lines for other tiles: the same tuple (``_seg``).
        hit = _LINES[archways] = _seg(
            tuple(
                _the(cmd.ChooseLine, kind, index)
                for kind in ("row", "col")
                for index in (1, 2, 3)
                if any(archways[i] is not None for i in line_cells(kind, index))
            )
        )
    return hit


_MOVES: dict[tuple[object, ...], tuple[cmd.Command, ...]] = {}
"""Every way to pay for moving one active tile to one Book, by the tile, the Book and the
ways to pay (``payments``' own tuple, the same for the same coins and tokens)."""


def _moves(tile: str, to_pos: int, pays: tuple[tuple[int, ...], ...]) -> tuple[cmd.Command, ...]:
    key = (tile, to_pos, pays)
    hit = _MOVES.get(key)
    if hit is None:
        if len(_MOVES) >= 8192:
            _MOVES.clear()
        hit = _MOVES[key] = tuple(_the(cmd.MoveActiveTile, tile, to_pos, pay) for pay in pays)
    return hit


_PAID: dict[tuple[object, ...], tuple[cmd.Command, ...]] = {}
"""Every way to make one paid move (move the Abbot to a station, buy a card), by what it
depends on: the coins and tokens held and the move."""


def _paid(
    kind: type[cmd.MoveAbbot] | type[cmd.BuyCard], state: State, side: int
) -> tuple[cmd.Command, ...]:
    player = state.players[side]
    key = (kind, state.abbot if kind is cmd.MoveAbbot else 0, player.coins, player.tokens)
    hit = _PAID.get(key)
    if hit is not None:
        return hit
    made: list[cmd.Command] = []
    if kind is cmd.MoveAbbot:
        for station in range(len(CONTENT.stations)):
            if station != state.abbot:
                cost = CONTENT.station_distance(state.abbot, station)
                made.extend(
                    _the(cmd.MoveAbbot, station, pay) for pay in payments(state, side, cost)
                )
    else:
        made.extend(_the(cmd.BuyCard, pay) for pay in payments(state, side, CONTENT.card_cost))
    if len(_PAID) >= 4096:
        _PAID.clear()
    # More coins than any way to pay uses make the same ways: the same tuple (``_seg``).
    hit = _PAID[key] = _seg(tuple(made))
    return hit


_KINDS: dict[tuple[str, ...], frozenset[str]] = {}
"""The card types in a hand, by the hand (a value: a few hundred hands in all)."""


def _kinds(hand: tuple[str, ...]) -> frozenset[str]:
    kinds = _KINDS.get(hand)
    if kinds is None:
        if len(_KINDS) >= 4096:
            _KINDS.clear()
        kinds = _KINDS[hand] = frozenset(card.split("-")[1] for card in hand)
    return kinds


@lru_cache(maxsize=4096)
def _payments(coins: int, tokens: tuple[int, ...], cost: int) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    caps = (coins, *tokens)

    def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
        if i == 4:
            if left <= caps[4]:
                out.append((*acc, left))
            return
        for x in range(min(left, caps[i]) + 1):
            rec(i + 1, left - x, (*acc, x))

    rec(0, cost, ())
    return tuple(out)


def payments(state: State, side: int, cost: int) -> tuple[tuple[int, ...], ...]:
    """Every way ``side`` can pay ``cost`` (tokens count as coins, never the reverse)."""
    player = state.players[side]
    return _payments(player.coins, player.tokens, cost)


Segment = tuple[cmd.Command, ...]
"""A run of consecutive legal commands (see ``legal_segments``)."""

_SEGMENTS: dict[Segment, Segment] = {}
"""Runs made afresh (rare paths: a pending choice, a discard) by their value: the same run
is then the same tuple from state to state, as the memoized runs are."""


def _seg(run: Segment) -> Segment:
    """The one tuple equal to ``run`` (see ``_SEGMENTS``)."""
    hit = _SEGMENTS.get(run)
    if hit is None:
        if len(_SEGMENTS) >= 8192:
            _SEGMENTS.clear()
        hit = _SEGMENTS[run] = run
    return hit


def _one(cls: Callable[..., C], *fields: object) -> Segment:
    """The run of the one command ``cls(*fields)``."""
    return _seg((_the(cls, *fields),))


_PASS = (_the(cmd.Pass),)
_END_TURN = (_the(cmd.EndTurn),)
_PORTICUS = tuple(
    _the(cmd.PlayPorticus, kind, a, b)
    for kind in ("row", "col")
    for a in (1, 2, 3)
    for b in (1, 2, 3)
    if a != b
)
_RITUS = tuple(_the(cmd.PlayRitus, r) for r in RITUALS)
_MOTUS_ABBOT = tuple(
    tuple(_the(cmd.PlayMotusAbbot, s) for s in range(len(CONTENT.stations)) if s != abbot)
    for abbot in range(len(CONTENT.stations))
)
"""``PlayMotusAbbot`` to every other station, by the Abbot's station."""

_MUTATIO: dict[tuple[str | None, ...], Segment] = {}
"""Every ``PlayMutatio``, by the archways (a value)."""


def _mutatio(archways: tuple[str | None, ...]) -> Segment:
    hit = _MUTATIO.get(archways)
    if hit is None:
        if len(_MUTATIO) >= 8192:
            _MUTATIO.clear()
        full = [i for i in range(9) if archways[i] is not None]
        hit = _MUTATIO[archways] = tuple(
            _the(cmd.PlayMutatio, (a // 3 + 1, a % 3 + 1), (b // 3 + 1, b % 3 + 1))
            for a in full
            for b in full
            if a != b
        )
    return hit


_FREE_TEXT: Kept[int, tuple[Book, tuple[int, ...]]] = Kept(1024)
"""A Book's free text cells (for ``PlayScriptum``) by the Book's identity (kept alive)."""


def _free_text(book: Book) -> tuple[int, ...]:
    hit = _FREE_TEXT.get(id(book))
    if hit is not None and hit[0] is book:
        return hit[1]
    layout = CONTENT.layouts[book.layout].cells
    free = tuple(
        cell
        for cell in range(25)
        if layout[cell] == "T" and cell != book.drollery and book.cells[cell] is None
    )
    _FREE_TEXT.put(id(book), (book, free))
    return free


_BY_CELLS: dict[tuple[object, ...], Segment] = {}
"""``PlayScriptum`` of one tile on some cells, and ``PlayExilium`` of one tile to some
Books, by the command type, the tile and the cells or Books."""


def _by_cells(
    kind: type[cmd.PlayScriptum] | type[cmd.PlayExilium], tile: str, where: tuple[int, ...]
) -> Segment:
    key = (kind, tile, where)
    hit = _BY_CELLS.get(key)
    if hit is None:
        if len(_BY_CELLS) >= 8192:
            _BY_CELLS.clear()
        if kind is cmd.PlayScriptum:
            hit = tuple(_the(cmd.PlayScriptum, tile, c // 5, c % 5) for c in where)
        else:
            hit = tuple(_the(cmd.PlayExilium, tile, to_pos) for to_pos in where)
        _BY_CELLS[key] = hit
    return hit


def legal_commands(state: State, seat: int) -> list[cmd.Command]:
    """Every command ``seat`` may send at ``state``, in order."""
    return list(chain.from_iterable(legal_segments(state, seat)))


def legal_segments(state: State, seat: int) -> list[Segment]:
    """``legal_commands`` as the runs it is made of, in order (some may be empty): the same
    run of the next state is the very same tuple (memoized by what it depends on)."""
    if state.phase is not PHASE_PLAY:
        return []
    if not 0 <= seat < (2 if state.mode is MODE_DUEL else 1):
        return []
    side = state.side_of(seat)
    pending = state.pending
    if pending is not None:
        if pending.side != side:
            return []
        match pending.kind:
            case PendingKind.EXILE:
                book = state.books[pending.pos]
                return [
                    _seg(
                        tuple(
                            _the(cmd.ChooseExiliumSpace, q // 5, q % 5)
                            for q in book.open_quills()
                            if (pending.pos, q) != (pending.origin_pos, pending.origin_cell)
                        )
                    )
                ]
            case PendingKind.TOKEN:
                return [
                    _seg(
                        tuple(
                            _the(cmd.ChooseCompletionToken, RITUALS[r])
                            for r in range(4)
                            if state.supply[r] > 0
                        )
                    )
                ]
            case _:
                assert_never(pending.kind)
    if side != state.turn:
        return []
    player = state.players[side]
    if state.discarding > 0:
        items = [RITUALS[r] for r in range(4) if player.tokens[r] > 0]
        if player.coins > 0:
            items.insert(0, "coin")
        return [_seg(tuple(_the(cmd.DiscardItem, item) for item in items))]
    out: list[Segment] = []
    if not state.acted:
        out.append(_PASS)
    if not state.line_chosen:
        out.append(_lines(player.archways))
    books = state.books
    open_quills = [_open_quills(b) for b in books]
    for tile, pos in state.active:
        if books[pos].closed:
            out.append(_one(cmd.SendToSheepPen, tile))
        else:
            out.append(_on_quills(cmd.PlaceTile, tile, pos, open_quills[pos]))
        for to_pos in range(3):
            if to_pos != pos and not books[to_pos].closed:
                out.append(_moves(tile, to_pos, payments(state, side, abs(to_pos - pos))))
    out.append(_paid(cmd.MoveAbbot, state, side))
    if player.deck or player.discard:
        out.append(_paid(cmd.BuyCard, state, side))
    here = CONTENT.stations[state.abbot]
    if here is not None and marker_remedy(state, side) is not None:
        r = RITUALS.index(here)
        for size in (3, 4, 5):
            if state.ritual_spaces[r * 3 + size - 3] is None and player.tokens[r] >= size:
                out.append(_one(cmd.ClaimRitual, here, size))
    kinds = _kinds(player.hand)
    if "MOTUS" in kinds:
        for book in books:
            if book.closed:
                continue
            for placed in book.cells:
                if placed is None or TILES[placed].side != side or placed in state.facedown:
                    continue
                for to_pos in range(3):
                    out.append(_on_quills(cmd.PlayMotus, placed, to_pos, open_quills[to_pos]))
        out.append(_MOTUS_ABBOT[state.abbot])
    if "MUTATIO" in kinds:
        out.append(_mutatio(player.archways))
    if "EXILIUM" in kinds:
        open_books = tuple(to_pos for to_pos in range(3) if open_quills[to_pos])
        for book in books:
            if book.closed:
                continue
            for placed in book.cells:
                if placed is None or TILES[placed].side == side or placed in state.facedown:
                    continue
                out.append(_by_cells(cmd.PlayExilium, placed, open_books))
    if "PORTICUS" in kinds:
        out.append(_PORTICUS)
    if "SCRIPTUM" in kinds:
        for tile, pos in state.active:
            book = books[pos]
            if not book.closed:
                out.append(_by_cells(cmd.PlayScriptum, tile, _free_text(book)))
    if "RITUS" in kinds:
        out.append(_RITUS)
    if state.line_chosen and all(books[pos].closed for _, pos in state.active):
        out.append(_END_TURN)
    return out
