"""Applying one event to the state. Never validates, never rolls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..values import replace
from . import events as ev
from .content import CONTENT
from .state import Book, Pending, PendingKind, Phase, Player, State

__all__ = ["apply"]

_evolve = replace  # the kernel's checked copy


def _set_player(state: State, side: int, **changes: object) -> State:
    p = _evolve(state.players[side], **changes)
    players = (p, state.players[1]) if side == 0 else (state.players[0], p)
    return _evolve(state, players=players)


def _players_with(state: State, side: int, player: Player) -> tuple[Player, Player]:
    """``state.players`` with ``player`` at ``side``: for the handlers that change a player
    and other fields of the state in one copy of it (each copy is a ``replace``, the
    commonest call of a decision)."""
    return (player, state.players[1]) if side == 0 else (state.players[0], player)


def _books_with(state: State, pos: int, book: Book) -> tuple[Book, ...]:
    books = list(state.books)  # three: a copy and a store, not a generator over them
    books[pos] = book
    return tuple(books)


def _set_book(state: State, pos: int, book: Book) -> State:
    return _evolve(state, books=_books_with(state, pos, book))


def _set_cell(book: Book, cell: int, tile: str | None) -> Book:
    cells = list(book.cells)
    cells[cell] = tile
    return _evolve(book, cells=tuple(cells))


def _pay(state: State, side: int, payment: tuple[int, ...], **changes: object) -> State:
    """``payment`` moved from ``side`` (coins to nowhere, tokens back to the supply), with
    ``changes`` to the state in the same copy of it."""
    p = state.players[side]
    coins, candle, bell, wine, bread = payment
    if candle or bell or wine or bread:  # most payments are coins alone
        # Four items each, unpacked (a mismatched length raises, as a strict zip did):
        # the two generator expressions this replaces cost more than the copies.
        t0, t1, t2, t3 = p.tokens
        s0, s1, s2, s3 = state.supply
        tokens = (t0 - candle, t1 - bell, t2 - wine, t3 - bread)
        changes["supply"] = (s0 + candle, s1 + bell, s2 + wine, s3 + bread)
        p = _evolve(p, coins=p.coins - coins, tokens=tokens)
    else:  # the tokens and the supply kept as they are (equal, and the same objects)
        p = _evolve(p, coins=p.coins - coins)
    return _evolve(state, players=_players_with(state, side, p), **changes)


def _marker(state: State, side: int) -> State:
    return _set_player(state, side, markers=state.players[side].markers - 1)


def _books_arranged(s: State, e: ev.BooksArranged) -> State:
    books = tuple(
        Book(layout=lid, drollery=d) for lid, d in zip(e.layouts, e.drolleries, strict=True)
    )
    return _evolve(s, books=books)


def _abbot_placed(s: State, e: ev.AbbotPlaced) -> State:
    return _evolve(s, abbot=e.station)


def _difficulty(s: State, e: ev.DifficultyMarkersPlaced) -> State:
    battle = tuple(
        (r + (n if e.side == 0 else 0), i + (n if e.side == 1 else 0))
        for (r, i), n in zip(s.battle, e.counts, strict=True)
    )
    s = _evolve(s, battle=battle)
    return _set_player(s, e.side, markers=s.players[e.side].markers - sum(e.counts))


def _stacks_formed(s: State, e: ev.TileStacksFormed) -> State:
    stacks = tuple(e.stacks or ())
    stacked = {t for stack in stacks for t in stack}
    boxed = tuple(t for t in s.players[e.side].boxed if t not in stacked)
    return _set_player(s, e.side, stacks=stacks, boxed=boxed)


def _archways_filled(s: State, e: ev.ArchwaysFilled) -> State:
    p = s.players[e.side]
    used = set(e.stacks_used)
    stacks = tuple(st for i, st in enumerate(p.stacks) if i not in used)
    return _set_player(s, e.side, stacks=stacks, archways=tuple(e.archways))


def _deck_shuffled(s: State, e: ev.DeckShuffled) -> State:
    deck = tuple(e.order or ())
    card_box = tuple(c for c in s.players[e.side].card_box if c not in deck)
    return _set_player(s, e.side, deck=deck, card_box=card_box)


def _discard_reshuffled(s: State, e: ev.DiscardReshuffled) -> State:
    return _set_player(s, e.side, deck=tuple(e.order or ()), discard=())


def _card_drawn(s: State, e: ev.CardDrawn) -> State:
    p = s.players[e.side]
    card = e.card if e.card is not None else (p.deck[0] if p.deck else "?")
    return _set_player(s, e.side, deck=p.deck[1:], hand=(*p.hand, card))


def _forfeited(s: State, e: ev.ConsolationForfeited) -> State:
    return s


def _crusade(s: State, e: ev.CrusadeDealt) -> State:
    return _set_player(s, e.side, crusade=e.card)


def _turn_started(s: State, e: ev.TurnStarted) -> State:
    return _evolve(
        s,
        phase=Phase.PLAY,
        turn=e.side,
        turn_no=e.turn_no,
        line_chosen=False,
        acted=False,
        active=(),
        discarding=0,
    )


def _passed(s: State, e: ev.Passed) -> State:
    return _set_player(s, e.side, passed=True)


def _line_chosen(s: State, e: ev.LineChosen) -> State:
    p = s.players[e.side]
    arch = list(p.archways)
    for i in _line_cells(e.kind, e.index):
        arch[i] = None
    coins = tuple(t for t in e.tiles if CONTENT.tiles[t].is_coin)
    active = s.active + tuple((t, e.pos) for t in e.tiles if not CONTENT.tiles[t].is_coin)
    p = _evolve(p, archways=tuple(arch), boxed=p.boxed + coins)
    return _evolve(
        s, players=_players_with(s, e.side, p), active=active, line_chosen=True, acted=True
    )


def _line_cells(kind: str, index: int) -> tuple[int, int, int]:
    if kind == "row":
        b = (index - 1) * 3
        return (b, b + 1, b + 2)
    return (index - 1, index + 2, index + 5)


def _coins(s: State, e: ev.CoinsGained) -> State:
    return _set_player(s, e.side, coins=s.players[e.side].coins + e.amount)


def _token(s: State, e: ev.TokenGained) -> State:
    p = s.players[e.side]
    tokens = list(p.tokens)
    tokens[e.ritual] += 1
    supply = list(s.supply)
    supply[e.ritual] -= 1
    p = _evolve(p, tokens=tuple(tokens))
    return _evolve(s, players=_players_with(s, e.side, p), supply=tuple(supply))


def _tile_placed(s: State, e: ev.TilePlaced) -> State:
    active = s.active
    tile = e.tile
    for i, (t, _) in enumerate(active):
        if t == tile:  # the margin holds a tile once: the rest kept as it is
            active = (*active[:i], *active[i + 1 :])
            break
    book = _set_cell(s.books[e.pos], e.cell, tile)
    # One copy of the state for the Book, the margin and the rest.
    changes: dict[str, object] = {"active": active, "books": _books_with(s, e.pos, book)}
    if s.lifted == e.tile:
        changes["lifted"] = None
    if s.pending is not None and s.pending.kind is PendingKind.EXILE and s.pending.tile == e.tile:
        changes["pending"] = None
    if e.gold_leaf:
        changes["gold"] = (*s.gold, (e.tile, tuple(e.gold_leaf)))
    s = _evolve(s, **changes)
    if e.gold_leaf:
        p = s.players[e.side]
        s = _set_player(
            s, e.side, pending_gold=tuple(g for g in p.pending_gold if g not in e.gold_leaf)
        )
    return s


def _tile_lifted(s: State, e: ev.TileLifted) -> State:
    s = _set_book(s, e.pos, _set_cell(s.books[e.pos], e.cell, None))
    return _evolve(s, lifted=e.tile)


def _exile_pending(s: State, e: ev.ExilePending) -> State:
    return _evolve(
        s,
        pending=Pending(PendingKind.EXILE, e.side, e.tile, e.pos, e.origin_pos, e.origin_cell),
    )


def _active_moved(s: State, e: ev.ActiveTileMoved) -> State:
    active = tuple((t, e.to_pos if t == e.tile else p) for t, p in s.active)
    return _pay(s, e.side, e.payment, active=active, acted=True)


def _sheep(s: State, e: ev.TileToSheepPen) -> State:
    active = tuple(a for a in s.active if a[0] != e.tile)
    s = _evolve(s, active=active)
    p = s.players[e.side]
    return _set_player(s, e.side, sheep_pen=(*p.sheep_pen, e.tile))


def _abbot_moved(s: State, e: ev.AbbotMoved) -> State:
    # One copy of the state for the payment, the Abbot and ``acted`` (a copy each cost
    # a quarter of the fold of the commonest move after a placement).
    changes: dict[str, object] = {"abbot": e.station}
    if s.players[e.side].human:
        changes["acted"] = True
    if any(e.payment):
        return _pay(s, e.side, e.payment, **changes)
    return _evolve(s, **changes)


def _card_bought(s: State, e: ev.CardBought) -> State:
    return _pay(s, e.side, e.payment, acted=True)


def _ritual_claimed(s: State, e: ev.RitualClaimed) -> State:
    if e.paid:
        payment = [0, 0, 0, 0, 0]
        payment[1 + e.ritual] = e.size
        s = _evolve(_pay(s, e.side, tuple(payment)), acted=True)
    spaces = list(s.ritual_spaces)
    spaces[e.ritual * 3 + e.size - 3] = e.side
    return _marker(_evolve(s, ritual_spaces=tuple(spaces)), e.side)


def _rebalanced(s: State, e: ev.MarkersRebalanced) -> State:
    battle = list(s.battle)
    r, i = battle[e.pair]
    battle[e.pair] = (r - 1, i - 1)
    s = _evolve(s, battle=tuple(battle))
    s = _set_player(s, 0, markers=s.players[0].markers + 1)
    return _set_player(s, 1, markers=s.players[1].markers + 1)


def _reclaimed(s: State, e: ev.MarkersReclaimed) -> State:
    battle = [list(b) for b in s.battle]
    battle[e.own_pair][e.side] -= 1
    battle[e.other_pair][1 - e.side] -= 1
    s = _evolve(s, battle=tuple((r, i) for r, i in battle))
    s = _set_player(s, 0, markers=s.players[0].markers + 1)
    return _set_player(s, 1, markers=s.players[1].markers + 1)


def _forgone(s: State, e: ev.MarkerForgone) -> State:
    return s  # a record for the log: nothing is placed


def _battle(s: State, e: ev.BattleResolved) -> State:
    battle = list(s.battle)
    r, i = battle[e.pair]
    if not e.marker:
        return _evolve(s, facedown=s.facedown | frozenset(e.flipped))
    battle[e.pair] = (r + 1, i) if e.winner == 0 else (r, i + 1)
    s = _evolve(s, battle=tuple(battle), facedown=s.facedown | frozenset(e.flipped))
    return _marker(s, e.winner)


def _tied(s: State, e: ev.BattleTied) -> State:
    return _evolve(s, ties=s.ties | {(e.pos, e.pair, tuple(e.cells))})


def _book_closed(s: State, e: ev.BookClosed) -> State:
    return _set_book(s, e.pos, _evolve(s.books[e.pos], closed=True, completed_by=e.side))


def _book_marker(s: State, e: ev.BookMarkerPlaced) -> State:
    spaces = list(s.book_spaces)
    spaces[e.pos] = e.side
    s = _marker(_evolve(s, book_spaces=tuple(spaces)), e.side)
    p = s.players[e.side]
    if not p.human:
        s = _set_player(s, e.side, books_completed=(*p.books_completed, e.pos))
    return s


def _token_pending(s: State, e: ev.TokenChoicePending) -> State:
    return _evolve(s, pending=Pending(PendingKind.TOKEN, e.side))


def _token_chosen(s: State, e: ev.TokenChosen) -> State:
    s = _token(s, ev.TokenGained(e.side, e.ritual, "completion"))
    return _evolve(s, pending=None)


def _card_played(s: State, e: ev.CardPlayed) -> State:
    p = s.players[e.side]
    hand = list(p.hand)
    hand.remove(e.card)
    p = _evolve(p, hand=tuple(hand), discard=(*p.discard, e.card))
    return _evolve(s, players=_players_with(s, e.side, p), acted=True)


def _archways_swapped(s: State, e: ev.ArchwaysSwapped) -> State:
    arch = list(s.players[e.side].archways)
    arch[e.first], arch[e.second] = arch[e.second], arch[e.first]
    return _set_player(s, e.side, archways=tuple(arch))


def _lines_swapped(s: State, e: ev.LinesSwapped) -> State:
    arch = list(s.players[e.side].archways)
    for a, b in zip(_line_cells(e.kind, e.first), _line_cells(e.kind, e.second), strict=True):
        arch[a], arch[b] = arch[b], arch[a]
    return _set_player(s, e.side, archways=tuple(arch))


def _discard_required(s: State, e: ev.DiscardRequired) -> State:
    return _evolve(s, discarding=e.count)


def _item_discarded(s: State, e: ev.ItemDiscarded) -> State:
    payment = [0, 0, 0, 0, 0]
    payment[e.item + 1] = 1
    return _pay(s, e.side, tuple(payment), discarding=s.discarding - 1)


def _stack_flipped(s: State, e: ev.StackFlipped) -> State:
    p = s.players[e.side]
    arch = list(p.archways)
    for tile, cell in zip(e.tiles, e.cells, strict=False):
        arch[cell] = tile
    leftover = e.tiles[len(e.cells) :]
    stacks = [st for i, st in enumerate(p.stacks) if i != e.stack]
    if leftover:
        stacks.insert(0, tuple(leftover))
    return _set_player(s, e.side, archways=tuple(arch), stacks=tuple(stacks))


def _game_ended(s: State, e: ev.GameEnded) -> State:
    for side in (0, 1):
        p = s.players[side]
        if p.pending_gold:
            s = _set_player(s, side, boxed=p.boxed + p.pending_gold, pending_gold=())
    return _evolve(
        s, phase=Phase.OVER, final=tuple(e.scores), winners=tuple(e.winners), pending=None
    )


def _die(s: State, e: ev.MonkDieRolled) -> State:
    side = 1 - s.human_side
    return _set_player(s, side, last_die=e.value)


def _track(s: State, e: ev.MonkTrackAdvanced) -> State:
    side = 1 - s.human_side
    track = list(s.players[side].track)
    track[e.ritual] = e.position
    return _set_player(s, side, track=tuple(track))


def _no_set(s: State, e: ev.MonkRitualNoSet) -> State:
    return s


def _monk_stack(s: State, e: ev.MonkStackFormed) -> State:
    side = 1 - s.human_side
    arch = tuple(None if t in e.tiles else t for t in s.players[side].archways)
    s = _set_player(s, side, archways=arch)
    return _evolve(s, active=s.active + tuple((t, e.pos) for t in e.tiles))


def _gold_pending(s: State, e: ev.GoldLeafPending) -> State:
    side = CONTENT.tiles[e.tile].side
    s = _evolve(s, active=tuple(a for a in s.active if a[0] != e.tile))
    p = s.players[side]
    return _set_player(s, side, pending_gold=(*p.pending_gold, e.tile))


def _monk_discard(s: State, e: ev.MonkTileDiscarded) -> State:
    side = CONTENT.tiles[e.tile].side
    s = _evolve(s, active=tuple(a for a in s.active if a[0] != e.tile))
    p = s.players[side]
    return _set_player(s, side, boxed=(*p.boxed, e.tile))


# By type rather than a ``match``: a dictionary look-up is what keeps a long fold fast, and
# the value's event type depends on its key, which no static type can say;
# tests/illumination/test_shape.py checks that every ``ev.Event`` class has its handler.
_HANDLERS: dict[type, Callable[[State, Any], State]] = {
    ev.BooksArranged: _books_arranged,
    ev.AbbotPlaced: _abbot_placed,
    ev.DifficultyMarkersPlaced: _difficulty,
    ev.TileStacksFormed: _stacks_formed,
    ev.ArchwaysFilled: _archways_filled,
    ev.DeckShuffled: _deck_shuffled,
    ev.DiscardReshuffled: _discard_reshuffled,
    ev.CardDrawn: _card_drawn,
    ev.ConsolationForfeited: _forfeited,
    ev.CrusadeDealt: _crusade,
    ev.TurnStarted: _turn_started,
    ev.Passed: _passed,
    ev.LineChosen: _line_chosen,
    ev.CoinsGained: _coins,
    ev.TokenGained: _token,
    ev.TilePlaced: _tile_placed,
    ev.TileLifted: _tile_lifted,
    ev.ExilePending: _exile_pending,
    ev.ActiveTileMoved: _active_moved,
    ev.TileToSheepPen: _sheep,
    ev.AbbotMoved: _abbot_moved,
    ev.CardBought: _card_bought,
    ev.RitualClaimed: _ritual_claimed,
    ev.MarkersRebalanced: _rebalanced,
    ev.MarkersReclaimed: _reclaimed,
    ev.MarkerForgone: _forgone,
    ev.BattleResolved: _battle,
    ev.BattleTied: _tied,
    ev.BookClosed: _book_closed,
    ev.BookMarkerPlaced: _book_marker,
    ev.TokenChoicePending: _token_pending,
    ev.TokenChosen: _token_chosen,
    ev.CardPlayed: _card_played,
    ev.ArchwaysSwapped: _archways_swapped,
    ev.LinesSwapped: _lines_swapped,
    ev.DiscardRequired: _discard_required,
    ev.ItemDiscarded: _item_discarded,
    ev.StackFlipped: _stack_flipped,
    ev.GameEnded: _game_ended,
    ev.MonkDieRolled: _die,
    ev.MonkTrackAdvanced: _track,
    ev.MonkRitualNoSet: _no_set,
    ev.MonkStackFormed: _monk_stack,
    ev.GoldLeafPending: _gold_pending,
    ev.MonkTileDiscarded: _monk_discard,
}


def apply(state: State, event: ev.Event) -> State:
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not an Illumination event: {event!r}")
    return handler(state, event)


def line_cells(kind: str, index: int) -> tuple[int, int, int]:
    """Archway indices of row/col ``index`` (1..3), in order (left→right, top→bottom)."""
    return _line_cells(kind, index)
