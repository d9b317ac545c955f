"""Legal-move generation, kept separate from deciding (python-chess style).

``legal_commands`` lists exactly the commands ``decide`` accepts; a property test holds the
two together.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar, assert_never, cast

from . import commands as cmd
from .content import CONTENT
from .evolve import line_cells
from .memo import Kept
from .state import MODE_DUEL, PHASE_PLAY, Book, PendingKind, State
from .turn import marker_remedy

__all__ = ["legal_commands", "payments"]

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
        if kind is cmd.PlaceTile:
            hit = tuple(_the(cmd.PlaceTile, tile, q // 5, q % 5) for q in quills)
        else:
            hit = tuple(_the(cmd.PlayMotus, tile, pos, q // 5, q % 5) for q in quills)
        _ON_QUILLS[key] = hit
    return hit


_LINES: dict[tuple[str | None, ...], tuple[cmd.Command, ...]] = {}
"""The lines one may choose, by the archways (a value: the same tiles, the same lines)."""


def _lines(archways: tuple[str | None, ...]) -> tuple[cmd.Command, ...]:
    hit = _LINES.get(archways)
    if hit is None:
        if len(_LINES) >= 8192:
            _LINES.clear()
        hit = _LINES[archways] = tuple(
            _the(cmd.ChooseLine, kind, index)
            for kind in ("row", "col")
            for index in (1, 2, 3)
            if any(archways[i] is not None for i in line_cells(kind, index))
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
    hit = _PAID[key] = tuple(made)
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


def legal_commands(state: State, seat: int) -> list[cmd.Command]:
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
                    _the(cmd.ChooseExiliumSpace, q // 5, q % 5)
                    for q in book.open_quills()
                    if (pending.pos, q) != (pending.origin_pos, pending.origin_cell)
                ]
            case PendingKind.TOKEN:
                return [
                    _the(cmd.ChooseCompletionToken, RITUALS[r])
                    for r in range(4)
                    if state.supply[r] > 0
                ]
            case _:
                assert_never(pending.kind)
    if side != state.turn:
        return []
    player = state.players[side]
    if state.discarding > 0:
        out: list[cmd.Command] = []
        if player.coins > 0:
            out.append(_the(cmd.DiscardItem, "coin"))
        out.extend(_the(cmd.DiscardItem, RITUALS[r]) for r in range(4) if player.tokens[r] > 0)
        return out
    out = []
    if not state.acted:
        out.append(_the(cmd.Pass))
    if not state.line_chosen:
        out.extend(_lines(player.archways))
    books = state.books
    open_quills = [_open_quills(b) for b in books]
    for tile, pos in state.active:
        if books[pos].closed:
            out.append(_the(cmd.SendToSheepPen, tile))
        else:
            out.extend(_on_quills(cmd.PlaceTile, tile, pos, open_quills[pos]))
        for to_pos in range(3):
            if to_pos != pos and not books[to_pos].closed:
                out.extend(_moves(tile, to_pos, payments(state, side, abs(to_pos - pos))))
    stations = len(CONTENT.stations)
    out.extend(_paid(cmd.MoveAbbot, state, side))
    if player.deck or player.discard:
        out.extend(_paid(cmd.BuyCard, state, side))
    here = CONTENT.stations[state.abbot]
    if here is not None and marker_remedy(state, side) is not None:
        r = RITUALS.index(here)
        for size in (3, 4, 5):
            if state.ritual_spaces[r * 3 + size - 3] is None and player.tokens[r] >= size:
                out.append(_the(cmd.ClaimRitual, here, size))
    kinds = _kinds(player.hand)
    if "MOTUS" in kinds:
        for book in books:
            if book.closed:
                continue
            for placed in book.cells:
                if placed is None or TILES[placed].side != side or placed in state.facedown:
                    continue
                for to_pos in range(3):
                    out.extend(_on_quills(cmd.PlayMotus, placed, to_pos, open_quills[to_pos]))
        out.extend(_the(cmd.PlayMotusAbbot, s) for s in range(stations) if s != state.abbot)
    if "MUTATIO" in kinds:
        full = [i for i in range(9) if player.archways[i] is not None]
        for a in full:
            for b in full:
                if a != b:
                    out.append(
                        _the(cmd.PlayMutatio, (a // 3 + 1, a % 3 + 1), (b // 3 + 1, b % 3 + 1))
                    )
    if "EXILIUM" in kinds:
        for book in books:
            if book.closed:
                continue
            for placed in book.cells:
                if placed is None or TILES[placed].side == side or placed in state.facedown:
                    continue
                out.extend(
                    _the(cmd.PlayExilium, placed, to_pos)
                    for to_pos in range(3)
                    if open_quills[to_pos]
                )
    if "PORTICUS" in kinds:
        for kind in ("row", "col"):
            for a in (1, 2, 3):
                for b in (1, 2, 3):
                    if a != b:
                        out.append(_the(cmd.PlayPorticus, kind, a, b))
    if "SCRIPTUM" in kinds:
        for tile, pos in state.active:
            book = books[pos]
            if book.closed:
                continue
            layout = CONTENT.layouts[book.layout].cells
            for cell in range(25):
                if layout[cell] == "T" and cell != book.drollery and book.cells[cell] is None:
                    out.append(_the(cmd.PlayScriptum, tile, cell // 5, cell % 5))
    if "RITUS" in kinds:
        out.extend(_the(cmd.PlayRitus, r) for r in RITUALS)
    if state.line_chosen and all(books[pos].closed for _, pos in state.active):
        out.append(_the(cmd.EndTurn))
    return out
