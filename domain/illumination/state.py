"""The Illumination state: small frozen values, evolved by ``evolve.apply``.

Sides are indexed 0 = Reverent, 1 = Irreverent. Book positions 0..2 are the physical
left, middle and right Book as seen from the south seat (reference D-04); a Book cell is
``row * 5 + col`` in that frame. Archways are indexed ``(row - 1) * 3 + (col - 1)`` from
the mat owner's view.
"""

from __future__ import annotations

import enum
from typing import Final

import attrs

from .content import CONTENT

__all__ = [
    "MODE_DUEL",
    "MODE_SOLO",
    "PHASE_OVER",
    "PHASE_PLAY",
    "Book",
    "Mode",
    "Pending",
    "PendingKind",
    "Phase",
    "Player",
    "State",
    "replace_at",
]


class Mode(enum.StrEnum):
    """A duel, or one player against the Mystic Monk (the ``mode`` option's values)."""

    DUEL = "duel"
    SOLO = "solo"


class Phase(enum.StrEnum):
    """Where the game stands. ``StrEnum``s throughout the state, so that a view, a stored
    log and a replay still carry (and compare equal to) the strings they always did."""

    SETUP = "setup"
    """Before ``setup``'s events: the Books are not laid out yet."""
    PLAY = "play"
    """From the first ``TurnStarted``."""
    OVER = "over"
    """From ``GameEnded``."""


class PendingKind(enum.StrEnum):
    """The decision a :class:`Pending` waits for."""

    EXILE = "exile"
    """The owner of a tile moved by Exilium picks its new Quill."""
    TOKEN = "token"
    """Whoever completed a Book picks its Ritual token."""


REV, IRR = 0, 1

# The members the hot paths compare with, as module globals: in CPython 3.11 reading a
# member off its enum class (``Phase.OVER``) costs about five times a global's look-up, and
# the server asks is_terminal, to_act and seat_of many times a move.
MODE_DUEL: Final = Mode.DUEL
MODE_SOLO: Final = Mode.SOLO
PHASE_PLAY: Final = Phase.PLAY
PHASE_OVER: Final = Phase.OVER

# The state's classes keep their fields in a ``__dict__`` (``slots=False``), as Road's do:
# every event copies the state and a player or a Book (``domain.values.replace``), and a
# copy of a dict-backed value is one dict update instead of a Python loop over some twenty
# slots (bench.illumination_move: decide about 15% cheaper a move).
EMPTY_ARCHWAYS: tuple[str | None, ...] = (None,) * 9


def replace_at(items: tuple[object, ...], index: int, value: object) -> tuple[object, ...]:
    return (*items[:index], value, *items[index + 1 :])


@attrs.frozen(slots=False)
class Player:
    """One side: a duel player, the solo human, or the Mystic Monk (``human=False``)."""

    side: int
    human: bool
    coins: int = 0
    tokens: tuple[int, ...] = (0, 0, 0, 0)
    """Ritual tokens held, in ritual order Candle, Bell, Wine, Bread."""
    archways: tuple[str | None, ...] = EMPTY_ARCHWAYS
    stacks: tuple[tuple[str, ...], ...] = ()
    """Face-down stacks of tiles, index 0 = top tile; secret from everyone."""
    sheep_pen: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    card_box: tuple[str, ...] = ()
    """Scriptorium cards in the box: all before the deck is shuffled; the Mystic Monk's always."""
    crusade: str | None = None
    markers: int = 16
    passed: bool = False
    boxed: tuple[str, ...] = ()
    """Tiles in the box: all of them before the stacks are formed, then cashed Two-Coin
    tiles and Mystic Monk discards."""
    track: tuple[int, ...] = (0, 0, 0, 0)
    """Mystic Monk ritual tracks, in ritual order."""
    pending_gold: tuple[str, ...] = ()
    books_completed: tuple[int, ...] = ()
    last_die: int | None = None

    @property
    def items(self) -> int:
        return self.coins + sum(self.tokens)


@attrs.frozen(slots=False)
class Book:
    layout: str
    drollery: int
    cells: tuple[str | None, ...] = (None,) * 25
    closed: bool = False
    completed_by: int | None = None

    def is_quill(self, cell: int) -> bool:
        return CONTENT.layouts[self.layout].cells[cell] != "T"

    def quill_colour(self, cell: int) -> str:
        return CONTENT.layouts[self.layout].cells[cell]

    def open_quills(self) -> list[int]:
        cells = self.cells
        return [i for i in _QUILLS[self.layout] if cells[i] is None]

    def has_open_quill(self) -> bool:
        # Asked after every placement: a loop over the layout's Quills alone, not any()
        # over a generator reading all 25 squares' colours.
        cells = self.cells
        for i in _QUILLS[self.layout]:  # noqa: SIM110 (a loop: no generator frame)
            if cells[i] is None:
                return True
        return False


_QUILLS: dict[str, tuple[int, ...]] = {
    lid: tuple(i for i, colour in enumerate(layout.cells) if colour != "T")
    for lid, layout in CONTENT.layouts.items()
}
"""Each Book layout's Quill squares (all but text), in reading order."""


@attrs.frozen(slots=False)
class Pending:
    """A decision the game waits for before anything else happens."""

    kind: PendingKind
    side: int
    tile: str | None = None
    pos: int = 0
    origin_pos: int = 0
    origin_cell: int = 0


@attrs.frozen(slots=False)
class State:
    mode: Mode
    human_side: int
    """Solo: the human's side. Duel: 0."""
    difficulty: int
    books_option: str
    players: tuple[Player, Player]
    phase: Phase = Phase.SETUP
    markers_option: str = "random"
    """Solo: the player's placement of the Monk's markers on the Battle cards, or random."""
    books: tuple[Book, ...] = ()
    facedown: frozenset[str] = frozenset()
    gold: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Gold leaf: (host tile, coin tiles beneath it)."""
    abbot: int = 1
    ritual_spaces: tuple[int | None, ...] = (None,) * 12
    """Owner side of each ritual space, index ``ritual * 3 + (size - 3)``."""
    book_spaces: tuple[int | None, ...] = (None, None, None)
    battle: tuple[tuple[int, int], ...] = ((0, 0),) * 4
    supply: tuple[int, ...] = (12, 12, 12, 12)
    turn: int = 0
    turn_no: int = 0
    line_chosen: bool = False
    acted: bool = False
    active: tuple[tuple[str, int], ...] = ()
    """Active tiles on Book margins: (tile, pos)."""
    discarding: int = 0
    """Items the active player still has to discard to end the turn."""
    pending: Pending | None = None
    lifted: str | None = None
    """A tile between its lift and its new placement (Motus, Exilium)."""
    ties: frozenset[tuple[int, int, tuple[int, ...]]] = frozenset()
    """Tied Bounded Battles already reported: (pos, pair, cells)."""
    final: tuple[int, ...] | None = None
    """Final score per side once the game is over."""
    winners: tuple[int, ...] = ()
    """Winning sides once the game is over."""

    def player(self, side: int) -> Player:
        return self.players[side]

    def seat_of(self, side: int) -> int | None:
        if self.mode is MODE_DUEL:
            return side
        return 0 if side == self.human_side else None

    def side_of(self, seat: int) -> int:
        return seat if self.mode is MODE_DUEL else self.human_side

    @property
    def south(self) -> int:
        return REV if self.mode is MODE_DUEL else self.human_side

    def book_pos(self, side: int, number: int) -> int:
        """The physical position of ``side``'s Book ``number`` (1..3)."""
        return number - 1 if side == self.south else 3 - number

    def gold_of(self, tile: str) -> tuple[str, ...]:
        for host, coins in self.gold:
            if host == tile:
                return coins
        return ()

    def find_tile(self, tile: str) -> tuple[int, int] | None:
        for pos, book in enumerate(self.books):
            if tile in book.cells:
                return pos, book.cells.index(tile)
        return None

    def active_pos(self, tile: str) -> int | None:
        for t, pos in self.active:
            if t == tile:
                return pos
        return None
