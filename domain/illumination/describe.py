"""The narrator: one sentence per event, in the rulebook's words, for one reader.

Books and squares are numbered from the reader's seat, as the board and its buttons number
them: Book 1 is the reader's left Book, and the Irreverent duel player (who sits north)
reads rows and columns from the other side of the table. Spectators and the post-game
review read from the south seat. Tiles are named by what is printed on them ("a yellow
Knight"), never by id.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, assert_never

from ..memo import Kept
from ..narration import Names, join_words, plural
from ..viewers import Viewer
from . import events as ev
from .content import CONTENT
from .glossary import WORDS
from .state import Mode, PendingKind, Phase, State

__all__ = ["Reader", "narrate", "summary"]

SIDE_NAMES = CONTENT.side_names
MONK = "the Mystic Monk"


class Reader:
    """Who the sides are and how the reader numbers the Books, from a :class:`Names`.

    A duel has one seat per side (seat 0 Reverent, who sits south); a solo game has one seat,
    the human's, always south, and the other side is the Mystic Monk."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.seat_of: dict[int, int] = {
            SIDE_NAMES.index(label): seat
            for seat, label in enumerate(names.labels)
            if label in SIDE_NAMES
        }
        self.solo = len(names.labels) == 1
        seat = names.viewer.seat
        self.north = not self.solo and seat is not None and seat == self.seat_of.get(1)
        # Both sides' names, worked out once: nearly every sentence names a side, and
        # Names.seat (a label, a player and a comparison) cost a fifth of narrating.
        self._who = {side: self._name(side) for side in (0, 1)}

    def who(self, side: int) -> str:
        who = self._who.get(side)
        return self._name(side) if who is None else who

    def _name(self, side: int) -> str:
        seat = self.seat_of.get(side)
        return MONK if seat is None else self.names.seat(seat)

    def side_label(self, side: int) -> str:
        return SIDE_NAMES[side] if side in self.seat_of else MONK

    def is_monk(self, side: int) -> bool:
        return side not in self.seat_of

    def their(self, side: int) -> str:
        return "his" if self.is_monk(side) else "their"

    def book(self, pos: int) -> str:
        return f"Book {3 - pos if self.north else pos + 1}"

    def square(self, pos: int, cell: int) -> str:
        row, col = divmod(cell, 5)
        if self.north:
            row, col = 4 - row, 4 - col
        return f"row {row + 1}, column {col + 1} of {self.book(pos)}"


def a_tile(tile: str) -> str:
    return f"a {WORDS.tile(tile)}"


def the_tile(tile: str) -> str:
    return f"the {WORDS.tile(tile)}"


def tiles_list(tiles: Sequence[str]) -> str:
    return join_words(a_tile(t) for t in tiles)


def station(index: int) -> str:
    """A Monastery station by what is printed there: "the Wine station", or a blank one by
    its neighbours ("the blank station between Candle and Wine")."""
    stations = CONTENT.stations
    name = stations[index]
    if name is not None:
        return f"the {name} station"
    before = stations[(index - 1) % len(stations)]
    after = stations[(index + 1) % len(stations)]
    return f"the blank station between {before} and {after}"


def payment(pay: Sequence[int]) -> str:
    """``(coins, Candle, Bell, Wine, Bread)`` in words: "2 coins", "1 coin and 1 Bell token"."""
    parts = []
    if pay and pay[0]:
        parts.append(plural(pay[0], "coin"))
    for ritual, n in zip(CONTENT.rituals, pay[1:], strict=False):
        if n:
            parts.append(plural(n, f"{ritual} token"))
    return join_words(parts) if parts else "nothing"


def archway(index: int) -> str:
    row, col = divmod(index, 3)
    return f"row {row + 1}, column {col + 1}"


def line(kind: str, index: int) -> str:
    return f"{'row' if kind == 'row' else 'column'} {index}"


_COIN_REASONS = {
    "quill": "for a Quill of the tile's colour",
    "two_coin": "for the Two-Coin tile",
    "battle": "as a Consolation bonus for the tiles flipped",
    "supply_empty": "instead of a Ritual token: that supply is empty",
    "completion": "for completing a Book, no Ritual token being left",
}
_TOKEN_REASONS = {
    "adjacent": "for a matching neighbour",
    "ritus": "with Ritus",
    "completion": "for completing a Book",
}
_HOW = {
    "quill": "",
    "monk": "",
    "scriptum": ", with Scriptum",
    "motus": ", with Motus",
    "exilium": ", as Exilium demands",
}


def summary(scores: Sequence[int], winners: Sequence[int], human: int | None) -> str:
    """The winner in one sentence, as the lobby names sides (``human`` is the solo player's
    side, None in a duel). ``scores`` and ``winners`` are per side."""
    names = SIDE_NAMES
    if human is None:
        if len(winners) == 2:
            return f"Reverent and Irreverent share the victory at {scores[0]}"
        w = winners[0]
        return f"{names[w]} wins {scores[w]} to {scores[1 - w]}"
    mine, monk = scores[human], scores[1 - human]
    if human in winners:
        return f"{names[human]} beats the Mystic Monk {mine} to {monk}"
    return f"The Mystic Monk wins {monk} to {mine}"


_READERS: Kept[Names, Reader] = Kept(1024)
"""Readers by the names they read (a value): the server narrates every event of a move for
each audience, and a Reader costs about ten times the look-up."""


_BY_ID: dict[int, tuple[Names, Reader]] = {}
"""Readers by the identity of the Names they read (kept alive in the entry, so that no id
is reused while it lives): the server narrates every event of a move once per audience,
with the same Names object for an audience from move to move (``server.hub``), and finding
it in ``_READERS`` (a hash and an equality of a frozen class, both Python calls) cost a
quarter of narrating. One entry was not enough: a duel's two audiences take turns."""
_BY_ID_MAX = 1024


def narrate(e: ev.Event, names: Names) -> str:
    hit = _BY_ID.get(id(names))
    if hit is not None and hit[0] is names:
        reader = hit[1]
    else:
        found = _READERS.get(names)
        if found is None:
            found = Reader(names)
            _READERS.put(names, found)
        if len(_BY_ID) >= _BY_ID_MAX:
            _BY_ID.clear()
        _BY_ID[id(names)] = (names, found)
        reader = found
    return _cap(_sentence(e, reader))


def _factions(n: int, faction: str) -> str:
    return f"{n} {faction if n == 1 else WORDS.plurals[faction]}"


def _tile_placed(e: ev.TilePlaced, r: Reader) -> str:
    gold, how = e.gold_leaf, e.how
    leaf = f" over {plural(len(gold), 'gold leaf tile')}" if gold else ""
    where = r.square(e.pos, e.cell)
    if how == "scriptum":
        where = f"the text at {where}"
    return f"{r.who(e.side)} places {a_tile(e.tile)} on {where}{_HOW.get(how, '')}{leaf}"


def _abbot_moved(e: ev.AbbotMoved, r: Reader) -> str:
    side, pay = e.side, e.payment
    if e.card or r.is_monk(side) or not any(pay):
        return f"The Abbot moves to {station(e.station)}"
    return f"{r.who(side)} pays {payment(pay)} to move the Abbot to {station(e.station)}"


def _token_gained(e: ev.TokenGained, r: Reader) -> str:
    why = _TOKEN_REASONS.get(e.reason, "")
    token = f"a {CONTENT.rituals[e.ritual]} token"
    return f"{r.who(e.side)} collects {token}" + (f" {why}" if why else "")


def _turn_started(e: ev.TurnStarted, r: Reader) -> str:
    return f"Turn {e.turn_no}: {r.who(e.side)}"


def _line_chosen(e: ev.LineChosen, r: Reader) -> str:
    side = e.side
    return (
        f"{r.who(side)} takes {line(e.kind, e.index)} of {r.their(side)} archways "
        f"to {r.book(e.pos)}: {tiles_list(e.tiles)}"
    )


def _coins_gained(e: ev.CoinsGained, r: Reader) -> str:
    why = _COIN_REASONS.get(e.reason, "")
    return f"{r.who(e.side)} collects {plural(e.amount, 'coin')}" + (f" {why}" if why else "")


def _stack_flipped(e: ev.StackFlipped, r: Reader) -> str:
    return f"{r.who(e.side)} refills the archways from a stack: {tiles_list(e.tiles)}"


_COMMON: dict[type, Callable[[Any, Reader], str]] = {
    ev.TilePlaced: _tile_placed,
    ev.AbbotMoved: _abbot_moved,
    ev.TokenGained: _token_gained,
    ev.TurnStarted: _turn_started,
    ev.LineChosen: _line_chosen,
    ev.CoinsGained: _coins_gained,
    ev.StackFlipped: _stack_flipped,
}
"""The sentences of the commonest events of a move (nine in ten), found by type: a
``match`` tries its cases in order, each an isinstance and a getattr per field named."""


def _sentence(e: ev.Event, r: Reader) -> str:
    common = _COMMON.get(type(e))
    if common is not None:
        return common(e, r)
    match e:
        # The commonest of the rest first: the order changes nothing but the time.
        case ev.CardPlayed(side=side, card=card):
            return f"{r.who(side)} plays {WORDS.card(card)}"
        case ev.ActiveTileMoved(side=side, tile=tile, from_pos=a, to_pos=b, payment=pay):
            return (
                f"{r.who(side)} pays {payment(pay)} to move {the_tile(tile)} from the margin "
                f"of {r.book(a)} to {r.book(b)}"
            )
        case ev.CardDrawn(side=side, reason=reason, card=card):
            what = f": {WORDS.card(card)}" if card else ""
            if reason == "setup":
                return f"{r.who(side)} draws a starting Scriptorium card{what}"
            if reason == "bought":
                return f"{r.who(side)} draws the bought Scriptorium card{what}"
            return f"{r.who(side)} draws a Scriptorium card as a Consolation bonus{what}"
        case ev.CardBought(side=side, payment=pay):
            return f"{r.who(side)} pays {payment(pay)} for a Scriptorium card"
        case ev.BooksArranged(layouts=layouts):
            books = [
                f"{r.book(pos)} on mat {layout[0]}, side {layout[1:]}"
                for pos, layout in sorted(enumerate(layouts), key=lambda pl: r.book(pl[0]))
            ]
            return f"The Books are laid out: {'; '.join(books)}"
        case ev.AbbotPlaced(station=s):
            return f"The Abbot starts on {station(s)}"
        case ev.DifficultyMarkersPlaced(counts=counts):
            cards = [f"{n} on {WORDS.pair(p)}" for p, n in enumerate(counts) if n]
            return f"The Mystic Monk's Markers go on the Battle cards: {join_words(cards)}"
        case ev.TileStacksFormed(side=side, count=n):
            return f"{r.who(side)}: the tiles are mixed into {n} face-down stacks of 3"
        case ev.ArchwaysFilled(side=side, stacks_used=used):
            return f"{r.who(side)} fills the archways from {plural(len(used), 'stack')}"
        case ev.DeckShuffled(side=side):
            return f"{r.who(side)} shuffles the Scriptorium deck"
        case ev.DiscardReshuffled(side=side):
            return f"{r.who(side)} shuffles the discarded Scriptorium cards into a new deck"
        case ev.ConsolationForfeited(side=side):
            return f"{r.who(side)} has no Scriptorium card left to draw as a Consolation bonus"
        case ev.CrusadeDealt(side=side, card=card):
            what = f": {WORDS.crusade(card)}" if card else ""
            return f"{r.who(side)} takes a secret Crusade card{what}"
        case ev.Passed(side=side, forced=forced):
            if forced:
                return f"{r.who(side)} has no tiles left and passes"
            return f"{r.who(side)} passes for the rest of the game"
        case ev.TileLifted(tile=tile, pos=pos, cell=cell):
            return f"{_cap(the_tile(tile))} leaves {r.square(pos, cell)}"
        case ev.ExilePending(side=side, tile=tile, pos=pos):
            return (
                f"{r.who(side)} must move the exiled {WORDS.tile(tile)} to an open Quill "
                f"of {r.book(pos)}"
            )
        case ev.TileToSheepPen(side=side, tile=tile, auto=auto):
            why = ": its Book is closed" if auto else ""
            return f"{_cap(the_tile(tile))} goes to {r.who(side)}'s Sheep Pen{why}"
        case ev.RitualClaimed(side=side, ritual=ritual, size=size, points=pts, paid=paid):
            name = CONTENT.rituals[ritual]
            spent = f" with {size} {name} tokens" if paid else ""
            return (
                f"{r.who(side)} performs the {name} Ritual{spent}: a Marker on the set of "
                f"{size} ({plural(pts, 'point')})"
            )
        case ev.MarkersRebalanced(pair=p):
            return f"Markers run out: one Marker of each side leaves the {WORDS.pair(p)} card"
        case ev.MarkersReclaimed(side=side, own_pair=own, other_pair=other):
            return (
                f"Markers run out: one of {r.who(side)}'s Markers leaves the "
                f"{WORDS.pair(own)} card and one of {r.who(1 - side)}'s the "
                f"{WORDS.pair(other)} card; each card keeps its leader"
            )
        case ev.MarkerForgone(side=side, what=what, ritual=ritual, size=size, pos=pos, pair=p):
            claim = {
                "ritual": f"the {CONTENT.rituals[ritual]} set of {size} is not claimed",
                "book": f"no Marker goes on the Monastery mat for {r.book(pos)}",
                "battle": f"no Marker goes on the {WORDS.pair(p)} card",
            }.get(what, "the claim is forgone")
            return (
                f"{r.who(side)} has no Marker left and none can be taken back from the "
                f"Battle cards: {claim}"
            )
        case ev.BattleResolved(
            pos=pos, pair=p, strengths=st, winner=w, flipped=flipped, marker=marker
        ):
            _, rev, irr = CONTENT.pairs[p]
            win, lose = (rev, irr) if w == 0 else (irr, rev)
            n_tiles = plural(len(flipped), "tile")
            outcome = (
                f"wins, flips {n_tiles} face down and places a Marker on the {WORDS.pair(p)} card"
                if marker
                else f"wins and flips {n_tiles} face down"
            )
            return (
                f"Bounded Battle in {r.book(pos)}: {_factions(st[w], win)} against "
                f"{_factions(st[1 - w], lose)}; {r.who(w)} {outcome}"
            )
        case ev.BattleTied(pos=pos, pair=p, strength=n):
            _, rev, irr = CONTENT.pairs[p]
            return (
                f"A Bounded Battle in {r.book(pos)} is tied, {_factions(n, rev)} to "
                f"{_factions(n, irr)}: nothing is flipped"
            )
        case ev.BookClosed(pos=pos, side=side):
            return f"{r.who(side)} completes {r.book(pos)}: it is closed"
        case ev.BookMarkerPlaced(pos=pos, side=side):
            return f"{r.who(side)} places a Marker on the Monastery mat for {r.book(pos)}"
        case ev.TokenChoicePending(side=side):
            return f"{r.who(side)} chooses a Ritual token for the completed Book"
        case ev.TokenChosen(side=side, ritual=ritual):
            return f"{r.who(side)} takes a {CONTENT.rituals[ritual]} token for the completed Book"
        case ev.ArchwaysSwapped(side=side, first=a, second=b):
            return f"{r.who(side)} exchanges the archway tiles at {archway(a)} and {archway(b)}"
        case ev.LinesSwapped(side=side, kind=kind, first=a, second=b):
            lines = "rows" if kind == "row" else "columns"
            return f"{r.who(side)} exchanges {lines} {a} and {b} of {r.their(side)} archways"
        case ev.DiscardRequired(side=side, count=n):
            return (
                f"{r.who(side)} holds more than 7 items and must discard "
                f"{plural(n, 'coin or Ritual token', 'coins or Ritual tokens')}"
            )
        case ev.ItemDiscarded(side=side, item=i):
            what = "a coin" if i < 0 else f"a {CONTENT.rituals[i]} token"
            return f"{r.who(side)} discards {what}"
        case ev.GameEnded(scores=scores, winners=winners):
            human = None if not r.solo else next(iter(r.seat_of), None)
            return f"Game over: {summary(scores, winners, human)}"
        case ev.MonkDieRolled(value=v, kind=kind, index=i, rerolled=again):
            roll = "rolls again" if again else "rolls the die"
            return f"The Mystic Monk {roll}: {v}, {line(kind, i)} of his archways"
        case ev.MonkTrackAdvanced(ritual=ritual, position=p, fired=fired):
            name = CONTENT.rituals[ritual]
            if fired:
                return f"The Mystic Monk's {name} Marker reaches the Ritual symbol"
            return f"The Mystic Monk's {name} Marker advances to space {p} of its column"
        case ev.MonkRitualNoSet(ritual=ritual):
            return f"No {CONTENT.rituals[ritual]} set is left for the Mystic Monk"
        case ev.MonkStackFormed(pos=pos, tiles=tiles):
            return f"The Mystic Monk stacks {tiles_list(tiles)} on the margin of {r.book(pos)}"
        case ev.GoldLeafPending():
            return "The Mystic Monk keeps the Two-Coin tile as gold leaf for his next tile"
        case ev.MonkTileDiscarded(tile=tile):
            return f"No open Quill is left: the Mystic Monk's {WORDS.tile(tile)} is discarded"
        case (
            ev.TilePlaced()
            | ev.AbbotMoved()
            | ev.TokenGained()
            | ev.TurnStarted()
            | ev.LineChosen()
            | ev.CoinsGained()
            | ev.StackFlipped()
        ):
            # An instance of a subclass of one of them: its class's sentence.
            return next(_COMMON[c] for c in type(e).__mro__ if c in _COMMON)(e, r)
        case _:
            assert_never(e)


def table_names(state: State, viewer: Viewer) -> Names:
    """The seat labels of a game in progress (no player names: a view has none)."""
    labels = SIDE_NAMES if state.mode is Mode.DUEL else (SIDE_NAMES[state.human_side],)
    return Names(tuple(labels), (), viewer)


_TABLE_READERS: dict[tuple[Mode, int, Viewer], Reader] = {}
"""The prompts' Readers, by mode, the solo human's side and the viewer (a few in all)."""


def _table_reader(state: State, viewer: Viewer) -> Reader:
    key = (state.mode, state.human_side, viewer)
    reader = _TABLE_READERS.get(key)
    if reader is None:
        if len(_TABLE_READERS) >= 64:  # viewers beyond the shared ones (seat_viewer)
            _TABLE_READERS.clear()
        reader = _TABLE_READERS[key] = Reader(table_names(state, viewer))
    return reader


def _cap(text: str) -> str:
    first = text[:1]
    upper = first.upper()
    # Most sentences begin with a name, already capitalised: no new string then.
    return text if upper == first else upper + text[1:]


def prompt(state: State, viewer: Viewer) -> str:
    """What the game waits for, in one sentence for ``viewer``: an instruction to the seat
    that acts, a description for everyone else."""
    r = _table_reader(state, viewer)
    match state.phase:
        case Phase.OVER:
            human = None if state.mode is Mode.DUEL else state.human_side
            return f"Game over: {summary(state.final or (0, 0), state.winners, human)}"
        case Phase.SETUP:
            return "The game is being set up"
        case Phase.PLAY:
            pass
        case _:
            assert_never(state.phase)
    me = None if viewer.seat is None else state.side_of(viewer.seat)
    pending = state.pending
    if pending is not None:
        who = _cap(r.who(pending.side))
        match pending.kind:
            case PendingKind.EXILE:
                assert pending.tile is not None
                tile = WORDS.tile(pending.tile)
                if me == pending.side:
                    return f"Choose an open Quill of {r.book(pending.pos)} for your exiled {tile}"
                return f"{who} chooses where the exiled {tile} goes in {r.book(pending.pos)}"
            case PendingKind.TOKEN:
                if me == pending.side:
                    return "Choose a Ritual token for completing the Book"
                return f"{who} chooses a Ritual token for completing the Book"
            case _:
                assert_never(pending.kind)
    side = state.turn
    mine = me == side
    who = _cap(r.who(side))
    if state.discarding:
        n = state.discarding
        if mine:
            return (
                f"Discard {plural(n, 'coin or Ritual token', 'coins or Ritual tokens')}: "
                "you may keep 7 at the end of your turn"
            )
        return f"{who} discards down to 7 coins and Ritual tokens"
    if not state.line_chosen:
        if mine:
            pass_too = "" if state.acted else ", or pass for the rest of the game"
            return f"Choose a line of archways: a row or a column{pass_too}"
        return f"{who} is choosing a row or column of archways"
    by_book: dict[int, list[str]] = {}
    for tile, pos in state.active:
        by_book.setdefault(pos, []).append(tile)
    open_books = {pos: t for pos, t in by_book.items() if not state.books[pos].closed}
    stuck = [t for pos, ts in by_book.items() if state.books[pos].closed for t in ts]
    if mine:
        if open_books:
            places = join_words(
                f"{tiles_list(ts)} on {'an open Quill' if len(ts) == 1 else 'open Quills'} "
                f"of {r.book(pos)}"
                for pos, ts in sorted(open_books.items(), key=lambda pt: r.book(pt[0]))
            )
            return f"Place {places}"
        if stuck:
            return (
                f"{_cap(tiles_list(stuck))} cannot be placed (closed Book): pay to move "
                f"{'it' if len(stuck) == 1 else 'them'} to an open Book, or end your turn "
                "and send them to your Sheep Pen"
            )
        return "End your turn, or first spend coins and play Scriptorium cards"
    if open_books or stuck:
        return f"{who} is placing tiles"
    return f"{who} has placed the tiles and may still spend coins or play cards"
