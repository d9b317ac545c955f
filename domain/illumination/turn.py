"""The automatic procedures of a turn: placement pipeline, battles, completion, the end of a
turn, refills, the Mystic Monk's turn and the end of the game.

A :class:`Turn` is the kernel's :class:`~domain.transaction.Transaction` (events emitted so
far, and the state they fold into, so every later step sees what a replay will see) with the
facts of the Mystic Monk's turn that the procedures below consult.
"""

from __future__ import annotations

from typing import Literal

from ..randomness import Rng
from ..transaction import Transaction
from . import events as ev
from .board import benefits, bounded, conflicts, monk_search, strength
from .content import CONTENT
from .evolve import apply, line_cells
from .scoring import breakdown, winners
from .state import State

__all__ = ["Remedy", "Turn", "marker_remedy"]


def _leader(counts: tuple[int, int] | list[int]) -> int:
    return (counts[0] > counts[1]) - (counts[0] < counts[1])


def _keeps_leader(card: tuple[int, int], side: int) -> bool:
    """Whether one of ``side``'s Markers can leave ``card`` without changing who leads it."""
    if card[side] < 1:
        return False
    after = list(card)
    after[side] -= 1
    return _leader(after) == _leader(card)


Remedy = Literal[True] | ev.MarkersRebalanced | ev.MarkersReclaimed | None
"""What :func:`marker_remedy` finds: a Marker in supply, the event that frees one, or none."""


def marker_remedy(state: State, side: int) -> Remedy:
    """How ``side`` gets a Marker to place (D-25): ``True`` when it has one in supply;
    else the event that frees one by the FAQ ("Remove an equal number of Markers belonging
    to each player from one or more Battle cards, maintaining the existing power-balance on
    the card"): one of each side from one card (its balance unchanged), or else one of
    each side from two cards, each keeping its leader (or its tie); ``None`` when neither
    is possible."""
    if state.players[side].markers > 0:
        return True
    for pair, (rev, irr) in enumerate(state.battle):
        if rev >= 1 and irr >= 1:
            return ev.MarkersRebalanced(pair)
    for own, card in enumerate(state.battle):
        if not _keeps_leader(card, side):
            continue
        for other, card2 in enumerate(state.battle):
            if other != own and _keeps_leader(card2, 1 - side):
                return ev.MarkersReclaimed(side, own, other)
    return None


TILES = CONTENT.tiles
NO_PAYMENT = (0, 0, 0, 0, 0)
_SETTLED = frozenset({"quill", "scriptum", "monk"})
"""Placements made with no tile lifted in the same decision (``Turn.place``)."""


class Turn(Transaction[State, ev.Event]):
    """Events being decided, with the state they lead to, and the Mystic Monk's turn flags."""

    __slots__ = ("in_monk_turn", "monk_completed")

    rng: Rng
    """Never ``None`` here: refills, reshuffles and the Monk's die draw from it."""

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, apply, rng)
        self.in_monk_turn = False
        """Inside the Monk's placements, a Book he completes waits for step 5 (D-36)."""
        self.monk_completed: list[int] = []

    # -- gains ----------------------------------------------------------------------------
    def gain_coins(self, side: int, amount: int, reason: str) -> None:
        player = self.state.players[side]
        if not player.human:
            return  # "The Mystic Monk never gains Coins."
        # D-11: only 7 coins exist per player; the rest of a gain is lost.
        amount = min(amount, CONTENT.coins_per_side - player.coins)
        if amount > 0:
            self.emit(ev.CoinsGained(side, amount, reason))

    def gain_token(self, side: int, ritual: int, reason: str) -> None:
        if not self.state.players[side].human:
            return
        if self.state.supply[ritual] > 0:
            self.emit(ev.TokenGained(side, ritual, reason))
        else:
            self.gain_coins(side, 1, "supply_empty")  # FAQ: claim a Coin instead

    def draw(self, side: int, reason: str) -> None:
        player = self.state.players[side]
        if not player.human:
            return
        if not player.deck:
            if not player.discard:
                self.emit(ev.ConsolationForfeited(side))  # D-26
                return
            order = self.rng.shuffled(player.discard)
            self.emit(ev.DiscardReshuffled(side, len(order), tuple(order)))
        self.emit(
            ev.CardDrawn(side, self.state.seat_of(side), reason, self.state.players[side].deck[0])
        )

    def consolation(self, placer: int) -> None:
        """The opponent of whoever placed a Monastery marker draws a card."""
        if self.state.players[1 - placer].human:
            self.draw(1 - placer, "consolation")

    def prepare_marker(self, side: int) -> bool:
        """Make sure ``side`` has a Marker to place (FAQ "run out of Markers", D-25).

        Frees one if needed, recording which Markers left which card; ``False`` when even
        the FAQ's remedy is impossible: the caller forgoes the claim (MarkerForgone)."""
        remedy = marker_remedy(self.state, side)
        if remedy is None:
            return False
        if remedy is not True:
            self.emit(remedy)
        return True

    # -- placement pipeline (E-PLACE) -------------------------------------------------------
    def place(self, side: int, tile: str, pos: int, cell: int, how: str) -> None:
        player = self.state.players[side]
        coin, tokens = benefits(self.state, pos, cell, tile)
        gold = player.pending_gold if how == "monk" else ()
        self.emit(ev.TilePlaced(side, tile, pos, cell, how, gold))
        if player.human:
            if coin:
                self.gain_coins(side, 1, "quill")
            for ritual in tokens:
                self.gain_token(side, ritual, "adjacent")
        # A placement on a settled Book (no tile lifted from it in this decision: only
        # Motus and Exilium lift, and both place with their own ``how``) can start a
        # Bounded Battle only around its square; a Book a tile left may hold new ones
        # anywhere (a component split by the lift), so it is searched whole.
        self.resolve_battles(pos, cell if how in _SETTLED else None)
        self.check_completion(pos, side)

    def resolve_battles(self, pos: int, near: int | None = None) -> None:
        """Fight the Bounded Battles of Book ``pos`` (each tie reported once), in order of
        pair and first square; ``near``: only those around that square, the Book being
        otherwise settled (every other Bounded Battle fought or reported tied)."""
        book = self.state.books[pos]
        battles = [c for c in conflicts(self.state, book, near) if bounded(book, c)]
        battles.sort(key=lambda c: (c.pair, c.cells[0]))
        for conflict in battles:
            book = self.state.books[pos]
            rev = strength(self.state, book, conflict, 0)
            irr = strength(self.state, book, conflict, 1)
            if rev == irr:
                key = (pos, conflict.pair, conflict.cells)
                if key not in self.state.ties:
                    self.emit(ev.BattleTied(pos, conflict.pair, conflict.cells, rev))
                continue
            winner = 0 if rev > irr else 1
            flipped = tuple(
                t
                for c in conflict.cells
                if (t := book.cells[c]) is not None and TILES[t].side != winner
            )
            marker = self.prepare_marker(winner)
            if not marker:
                self.emit(ev.MarkerForgone(winner, "battle", pair=conflict.pair))
            self.emit(
                ev.BattleResolved(
                    pos, conflict.pair, conflict.cells, (rev, irr), winner, flipped, marker
                )
            )
            self.gain_coins(1 - winner, len(flipped), "battle")

    def check_completion(self, pos: int, side: int) -> None:
        book = self.state.books[pos]
        if book.closed or book.has_open_quill():
            return
        self.emit(ev.BookClosed(pos, side))
        if self.in_monk_turn and not self.state.players[side].human:
            self.monk_completed.append(pos)  # his marker comes at step 5 (D-36)
            return
        self.book_marker(pos, side)

    def book_marker(self, pos: int, side: int) -> None:
        marker = self.prepare_marker(side)
        if marker:
            self.emit(ev.BookMarkerPlaced(pos, side))
        else:
            self.emit(ev.MarkerForgone(side, "book", pos=pos))  # and the Monk's 5 points
        if self.state.players[side].human:  # the token comes with the Book, not the Marker
            if any(self.state.supply):
                self.emit(ev.TokenChoicePending(side))
            else:
                self.gain_coins(side, 1, "completion")  # D-27
        if marker:
            self.consolation(side)  # only a Marker on the Monastery mat earns it

    # -- end of turn (E-ENDTURN) ------------------------------------------------------------
    def end_turn(self, side: int) -> None:
        for tile, pos in self.state.active:
            if self.state.books[pos].closed:
                self.emit(ev.TileToSheepPen(side, tile, True))
        excess = self.state.players[side].items - CONTENT.item_limit
        if excess > 0:
            self.emit(ev.DiscardRequired(side, excess))
            return
        self.finish_turn(side, played=True)

    def finish_turn(self, side: int, *, played: bool) -> None:
        state = self.state
        if all(b.closed for b in state.books) or all(p.passed for p in state.players):
            self.end_game()
            return
        if played:
            self.refill(side)
        other = 1 - side
        self.start_turn(side if self.state.players[other].passed else other)

    def start_turn(self, side: int) -> None:
        self.emit(ev.TurnStarted(side, self.state.turn_no + 1))
        player = self.state.players[side]
        if not player.human:
            self.monk_turn()
            return
        if all(a is None for a in player.archways) and not player.stacks:
            self.emit(ev.Passed(side, True))  # D-13
            self.finish_turn(side, played=False)

    def refill(self, side: int) -> None:
        player = self.state.players[side]
        empty = [i for i, a in enumerate(player.archways) if a is None]
        if not player.stacks or not empty:
            return
        index = self.rng.randint(0, len(player.stacks) - 1)
        tiles = player.stacks[index]
        self.emit(ev.StackFlipped(side, index, tiles, tuple(empty[: len(tiles)])))

    def end_game(self) -> None:
        state = self.state
        parts = (breakdown(state, 0), breakdown(state, 1))
        scores = (sum(parts[0]), sum(parts[1]))
        self.emit(
            ev.GameEnded(
                scores,
                parts,
                (state.players[0].crusade, state.players[1].crusade),
                winners(state, scores),
            )
        )

    # -- the Mystic Monk (reference §6) -----------------------------------------------------
    def monk_turn(self) -> None:
        state = self.state
        mm = 1 - state.human_side
        player = state.players[mm]
        if all(a is None for a in player.archways):
            if not player.stacks:
                self.emit(ev.Passed(mm, True))  # D-34
                self.finish_turn(mm, played=False)
                return
            self.refill(mm)
        rerolled = False
        while True:
            value = self.rng.die(6)
            kind, index = CONTENT.monk_die_lines[value - 1]
            self.emit(ev.MonkDieRolled(value, kind, index, rerolled))
            arch = self.state.players[mm].archways
            tiles = tuple(t for i in line_cells(kind, index) if (t := arch[i]) is not None)
            if tiles:
                break
            rerolled = True  # D-34: an empty line is rolled again
        self.advance_tracks(mm, tiles)
        pos = self.state.book_pos(self.state.human_side, index)
        self.emit(ev.MonkStackFormed(pos, tiles))
        self.in_monk_turn = True
        self.monk_completed = []
        for tile in tiles:
            if TILES[tile].is_coin:
                self.emit(ev.GoldLeafPending(tile))
                continue
            spot = monk_search(self.state, tile, pos)
            if spot is None:
                self.emit(ev.MonkTileDiscarded(tile))
                continue
            self.place(mm, tile, spot[0], spot[1], "monk")
        self.in_monk_turn = False
        for book_pos in self.monk_completed:
            self.book_marker(book_pos, mm)
        self.finish_turn(mm, played=True)

    def advance_tracks(self, mm: int, tiles: tuple[str, ...]) -> None:
        length = CONTENT.monk_track_length
        for name in CONTENT.monk_track_order:
            ritual = CONTENT.rituals.index(name)
            colour = CONTENT.ritual_colour[ritual]
            steps = sum(1 for t in tiles if TILES[t].colour == colour)
            position = self.state.players[mm].track[ritual]
            while steps > 0:
                move = min(steps, length - position)
                position += move
                steps -= move
                if position == length:
                    position = 0
                    self.emit(ev.MonkTrackAdvanced(ritual, 0, True))
                    self.monk_ritual(mm, ritual)
                else:
                    self.emit(ev.MonkTrackAdvanced(ritual, position, False))

    def monk_ritual(self, mm: int, ritual: int) -> None:
        station = CONTENT.ritual_station(ritual)
        if self.state.abbot != station:
            self.emit(ev.AbbotMoved(station, mm, NO_PAYMENT))
        for size, points in reversed(CONTENT.ritual_spaces):
            if self.state.ritual_spaces[ritual * 3 + size - 3] is None:
                if not self.prepare_marker(mm):
                    self.emit(ev.MarkerForgone(mm, "ritual", ritual=ritual, size=size))
                    return
                self.emit(ev.RitualClaimed(mm, ritual, size, points, False))
                self.consolation(mm)
                return
        self.emit(ev.MonkRitualNoSet(ritual))  # D-32
