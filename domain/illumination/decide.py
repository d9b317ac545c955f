"""Checking a command against the rules and deciding the events it causes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

from ..errors import GameOver, InvalidCommand, NotYourTurn, RuleViolation, UnknownCommand
from ..randomness import Rng
from . import commands as cmd
from . import events as ev
from .board import monk_search
from .content import CONTENT
from .evolve import line_cells
from .state import MODE_DUEL, PHASE_OVER, PHASE_PLAY, PendingKind, Phase, State
from .turn import Turn

__all__ = ["book_name", "decide", "decide_turn"]

TILES = CONTENT.tiles
ROMAN = ("I", "II", "III")
ITEMS = ("coin", *CONTENT.rituals)


def book_name(state: State, side: int, pos: int) -> str:
    number = pos + 1 if side == state.south else 3 - pos
    return f"Book {ROMAN[number - 1]}"


# -- field validation (malformed → InvalidCommand) ------------------------------------------
def _int(value: object, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise InvalidCommand(f"{what} must be a whole number from {low} to {high}")
    return value


def _tile(value: object) -> str:
    if not isinstance(value, str) or value not in TILES:
        raise InvalidCommand("that is not an Illumination tile")
    return value


def _ritual(value: object) -> int:
    if not isinstance(value, str) or value not in CONTENT.rituals:
        raise InvalidCommand(f"a ritual is one of {', '.join(CONTENT.rituals)}")
    return CONTENT.rituals.index(value)


def _kind(value: object) -> str:
    if value not in ("row", "col"):
        raise InvalidCommand('a line is a "row" or a "col"')
    return str(value)


def _cell(row: object, col: object) -> int:
    return _int(row, 0, 4, "row") * 5 + _int(col, 0, 4, "col")


def _archway(value: object) -> int:
    if not isinstance(value, tuple) or len(value) != 2:
        raise InvalidCommand("an archway is (row, col) with row and col from 1 to 3")
    return (_int(value[0], 1, 3, "archway row") - 1) * 3 + _int(value[1], 1, 3, "archway col") - 1


_PAYMENT_SHAPE = "a payment is (coins, Candle, Bell, Wine, Bread), each 0 or more"


def _payment(state: State, side: int, payment: object, cost: int) -> tuple[int, ...]:
    if not isinstance(payment, tuple) or len(payment) != 5:
        raise InvalidCommand(_PAYMENT_SHAPE)
    for x in payment:  # a loop, not any() over a generator: checked on every payment
        if type(x) is not int or x < 0:
            raise InvalidCommand(_PAYMENT_SHAPE)
    total = sum(payment)
    if total != cost:
        raise RuleViolation(
            f"this costs {cost} coin{'s' if cost != 1 else ''}; the payment adds up to {total}",
            code="wrong_payment",
        )
    player = state.players[side]
    held = player.tokens
    if (
        payment[0] > player.coins
        or payment[1] > held[0]
        or payment[2] > held[1]
        or payment[3] > held[2]
        or payment[4] > held[3]
    ):
        raise RuleViolation(
            "you do not hold the coins and tokens of that payment", code="cannot_pay"
        )
    return payment


def _card(state: State, side: int, kind: str) -> str:
    for card in state.players[side].hand:
        if card.split("-")[1] == kind:
            return card
    raise RuleViolation(f"you hold no {kind.capitalize()} card", code="no_card")


def _own_active(state: State, side: int, tile: str) -> int:
    pos = state.active_pos(tile)
    if pos is None or TILES[tile].side != side:
        raise RuleViolation("that tile is not one of your active tiles", code="not_active")
    return pos


def _open_book(state: State, side: int, pos: int, suffix: str = "") -> None:
    if state.books[pos].closed:
        raise RuleViolation(f"{book_name(state, side, pos)} is closed{suffix}", code="book_closed")


# -- the decider -----------------------------------------------------------------------------
def decide(state: State, seat: int, command: cmd.Command, rng: Rng) -> list[ev.Event]:
    """The events ``command`` from ``seat`` causes, the automatic ones after it included."""
    return decide_turn(state, seat, command, rng).events


def decide_turn(state: State, seat: int, command: cmd.Command, rng: Rng) -> Turn:
    """:func:`decide`'s transaction: its events and the state they lead to (a bot looking
    one ply ahead reads ``state`` rather than folding the events again)."""
    # Compared with the members held as module globals (state.py: an enum member read off
    # its class costs about five global look-ups), the play phase first: every move's.
    phase = state.phase
    if phase is not PHASE_PLAY:
        if phase is PHASE_OVER:
            raise GameOver("the game is over")
        if phase is Phase.SETUP:
            raise RuleViolation("the game has not been set up yet", code="not_started")
        assert_never(phase)
    seats = 2 if state.mode is MODE_DUEL else 1
    if type(seat) is not int or not 0 <= seat < seats:
        raise NotYourTurn(f"there is no seat {seat!r} in this game")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        if not isinstance(command, cmd.COMMAND_TYPES):
            raise UnknownCommand(f"Illumination has no command {type(command).__name__}")
        handler = _handler_of(command)
    side = state.side_of(seat)
    name = CONTENT.side_names
    pending = state.pending
    if pending is not None:
        if pending.side != side:
            raise NotYourTurn(f"waiting for {name[pending.side]} to make a choice")
        wanted: type[cmd.Command]
        match pending.kind:
            case PendingKind.EXILE:
                wanted, what = cmd.ChooseExiliumSpace, "the exiled tile's new Quill"
            case PendingKind.TOKEN:
                wanted, what = cmd.ChooseCompletionToken, "your Ritual token"
            case _:
                assert_never(pending.kind)
        if not isinstance(command, wanted):
            raise RuleViolation(f"first choose {what}", code="decision_pending")
    elif isinstance(command, _CHOICES):
        raise RuleViolation("there is no choice waiting for you", code="no_pending_decision")
    elif side != state.turn:
        raise NotYourTurn(f"it is {name[state.turn]}'s turn")
    elif state.discarding > 0 and not isinstance(command, cmd.DiscardItem):
        raise RuleViolation(
            f"discard {state.discarding} more coin(s) or token(s) to end your turn",
            code="discard_pending",
        )
    elif state.discarding == 0 and isinstance(command, cmd.DiscardItem):
        raise RuleViolation("you have nothing to discard now", code="no_discard_needed")
    turn = Turn(state, rng)
    handler(turn, side, command)
    return turn


def _pass(t: Turn, side: int, c: cmd.Pass) -> None:
    if t.state.acted:
        raise RuleViolation(
            "you may pass only at the beginning of your turn", code="pass_after_acting"
        )
    t.emit(ev.Passed(side, False))
    t.finish_turn(side, played=False)


def _choose_line(t: Turn, side: int, c: cmd.ChooseLine) -> None:
    kind = _kind(c.kind)
    index = _int(c.index, 1, 3, "the line number")
    state = t.state
    if state.line_chosen:
        raise RuleViolation(
            "you have already chosen a row or column this turn", code="line_already_chosen"
        )
    arch = state.players[side].archways
    tiles = tuple(tile for i in line_cells(kind, index) if (tile := arch[i]) is not None)
    if not tiles:
        raise RuleViolation("that line of your archways is empty", code="empty_line")
    pos = state.book_pos(side, index)
    t.emit(ev.LineChosen(side, kind, index, pos, tiles))
    coins = sum(1 for tile in tiles if TILES[tile].is_coin)
    if coins:
        t.gain_coins(side, coins * CONTENT.two_coin_value, "two_coin")


def _place_tile(t: Turn, side: int, c: cmd.PlaceTile) -> None:
    tile = _tile(c.tile)
    cell = _cell(c.row, c.col)
    pos = _own_active(t.state, side, tile)
    _open_book(t.state, side, pos, ": move the tile to an open Book or to your Sheep Pen")
    book = t.state.books[pos]
    if not book.is_quill(cell):
        raise RuleViolation(
            "tiles are placed on Quills, not on text (Scriptum allows text)", code="not_a_quill"
        )
    if book.cells[cell] is not None:
        raise RuleViolation("that Quill is already covered", code="quill_covered")
    t.place(side, tile, pos, cell, "quill")


def _move_active(t: Turn, side: int, c: cmd.MoveActiveTile) -> None:
    tile = _tile(c.tile)
    to_pos = _int(c.to_pos, 0, 2, "the Book position")
    pos = _own_active(t.state, side, tile)
    if to_pos == pos:
        raise RuleViolation("the tile is already on that Book's margin", code="same_book")
    _open_book(t.state, side, to_pos, ": no tile may be moved to it")
    payment = _payment(t.state, side, c.payment, abs(to_pos - pos))
    t.emit(ev.ActiveTileMoved(side, tile, pos, to_pos, payment))


def _sheep_pen(t: Turn, side: int, c: cmd.SendToSheepPen) -> None:
    tile = _tile(c.tile)
    pos = _own_active(t.state, side, tile)
    if not t.state.books[pos].closed:
        raise RuleViolation(
            "only a tile assigned to a closed Book may go to the Sheep Pen", code="book_open"
        )
    t.emit(ev.TileToSheepPen(side, tile, False))


def _move_abbot(t: Turn, side: int, c: cmd.MoveAbbot) -> None:
    station = _int(c.station, 0, len(CONTENT.stations) - 1, "the station")
    if station == t.state.abbot:
        raise RuleViolation("the Abbot is already on that station", code="abbot_already_there")
    cost = CONTENT.station_distance(t.state.abbot, station)
    payment = _payment(t.state, side, c.payment, cost)
    t.emit(ev.AbbotMoved(station, side, payment))


def _buy_card(t: Turn, side: int, c: cmd.BuyCard) -> None:
    player = t.state.players[side]
    if not player.deck and not player.discard:
        raise RuleViolation("your Scriptorium deck and discards are empty", code="deck_empty")
    payment = _payment(t.state, side, c.payment, CONTENT.card_cost)
    t.emit(ev.CardBought(side, payment))
    t.draw(side, "bought")


def _claim_ritual(t: Turn, side: int, c: cmd.ClaimRitual) -> None:
    ritual = _ritual(c.ritual)
    size = _int(c.size, 3, 5, "the set size")
    name = CONTENT.rituals[ritual]
    state = t.state
    if state.abbot != CONTENT.ritual_station(ritual):
        raise RuleViolation(f"the Abbot must be on the {name} station", code="abbot_elsewhere")
    if state.ritual_spaces[ritual * 3 + size - 3] is not None:
        raise RuleViolation(f"the {name} set of {size} is already claimed", code="set_claimed")
    if state.players[side].tokens[ritual] < size:
        raise RuleViolation(f"you need {size} {name} tokens for that set", code="not_enough_tokens")
    points = CONTENT.ritual_spaces[size - 3][1]
    if not t.prepare_marker(side):
        raise RuleViolation(
            "you have no Marker left, and none can be taken back from the Battle cards "
            "without changing who leads one",
            code="no_marker",
        )
    t.emit(ev.RitualClaimed(side, ritual, size, points, True))
    t.consolation(side)


def _motus(t: Turn, side: int, c: cmd.PlayMotus) -> None:
    tile = _tile(c.tile)
    to_pos = _int(c.to_pos, 0, 2, "the Book position")
    cell = _cell(c.row, c.col)
    card = _card(t.state, side, "MOTUS")
    state = t.state
    where = state.find_tile(tile)
    if where is None or TILES[tile].side != side or tile in state.facedown:
        raise RuleViolation(
            "Motus moves one of your faceup tiles in a Book", code="not_your_placed_tile"
        )
    from_pos, from_cell = where
    _open_book(state, side, from_pos, ": its tiles may no longer move")
    _open_book(state, side, to_pos, ": no tile may be moved to it")
    book = state.books[to_pos]
    if not book.is_quill(cell):
        raise RuleViolation("Motus moves a tile to an open Quill, not to text", code="not_a_quill")
    if (to_pos, cell) == (from_pos, from_cell):
        raise RuleViolation("the tile must move to a new Quill", code="same_space")
    if book.cells[cell] is not None:
        raise RuleViolation("that Quill is already covered", code="quill_covered")
    t.emit(ev.CardPlayed(side, card))
    t.emit(ev.TileLifted(side, tile, from_pos, from_cell))
    t.place(side, tile, to_pos, cell, "motus")
    t.resolve_battles(from_pos)


def _motus_abbot(t: Turn, side: int, c: cmd.PlayMotusAbbot) -> None:
    station = _int(c.station, 0, len(CONTENT.stations) - 1, "the station")
    card = _card(t.state, side, "MOTUS")
    if station == t.state.abbot:
        raise RuleViolation("the Abbot is already on that station", code="abbot_already_there")
    t.emit(ev.CardPlayed(side, card))
    t.emit(ev.AbbotMoved(station, side, (0, 0, 0, 0, 0), card))


def _mutatio(t: Turn, side: int, c: cmd.PlayMutatio) -> None:
    a, b = _archway(c.first), _archway(c.second)
    card = _card(t.state, side, "MUTATIO")
    if a == b:
        raise RuleViolation("choose two different archways", code="same_archway")
    arch = t.state.players[side].archways
    if arch[a] is None or arch[b] is None:
        raise RuleViolation(
            "Mutatio exchanges two tiles: that archway is empty", code="empty_archway"
        )
    t.emit(ev.CardPlayed(side, card))
    t.emit(ev.ArchwaysSwapped(side, a, b))


def _exilium(t: Turn, side: int, c: cmd.PlayExilium) -> None:
    tile = _tile(c.tile)
    to_pos = _int(c.to_pos, 0, 2, "the Book position")
    card = _card(t.state, side, "EXILIUM")
    state = t.state
    where = state.find_tile(tile)
    owner = TILES[tile].side
    if where is None or owner == side or tile in state.facedown:
        raise RuleViolation(
            "Exilium targets one of your opponent's faceup tiles in a Book",
            code="not_opponent_tile",
        )
    from_pos, from_cell = where
    _open_book(state, side, from_pos, ": its tiles may no longer move")
    _open_book(state, side, to_pos, ": no tile may be moved to it")
    if not state.books[to_pos].open_quills():
        raise RuleViolation(
            f"{book_name(state, side, to_pos)} has no other open Quill", code="no_open_quill"
        )
    t.emit(ev.CardPlayed(side, card))
    t.emit(ev.TileLifted(owner, tile, from_pos, from_cell))
    if t.state.players[owner].human:
        t.emit(ev.ExilePending(owner, tile, to_pos, from_pos, from_cell))
        return
    # Solo: the Mystic Monk places it in that Book only, by his own rules (D-44).
    spot = monk_search(t.state, tile, to_pos, only=to_pos, exclude=(from_pos, from_cell))
    assert spot is not None
    t.place(owner, tile, spot[0], spot[1], "exilium")
    t.resolve_battles(from_pos)


def _porticus(t: Turn, side: int, c: cmd.PlayPorticus) -> None:
    kind = _kind(c.kind)
    a = _int(c.first, 1, 3, "the first line")
    b = _int(c.second, 1, 3, "the second line")
    card = _card(t.state, side, "PORTICUS")
    if a == b:
        raise RuleViolation("choose two different lines", code="same_line")
    t.emit(ev.CardPlayed(side, card))
    t.emit(ev.LinesSwapped(side, kind, a, b))


def _scriptum(t: Turn, side: int, c: cmd.PlayScriptum) -> None:
    tile = _tile(c.tile)
    cell = _cell(c.row, c.col)
    card = _card(t.state, side, "SCRIPTUM")
    pos = _own_active(t.state, side, tile)
    _open_book(t.state, side, pos)
    book = t.state.books[pos]
    if book.is_quill(cell):
        raise RuleViolation("Scriptum places a tile on text, not on a Quill", code="not_text")
    if cell == book.drollery:
        raise RuleViolation("a Drollery occupies that text space", code="drollery_space")
    if book.cells[cell] is not None:
        raise RuleViolation("that text space is already covered", code="text_covered")
    t.emit(ev.CardPlayed(side, card))
    t.place(side, tile, pos, cell, "scriptum")


def _ritus(t: Turn, side: int, c: cmd.PlayRitus) -> None:
    ritual = _ritual(c.ritual)
    card = _card(t.state, side, "RITUS")
    t.emit(ev.CardPlayed(side, card))
    t.gain_token(side, ritual, "ritus")


def _end_turn(t: Turn, side: int, c: cmd.EndTurn) -> None:
    state = t.state
    if not state.line_chosen:
        raise RuleViolation(
            "choose a row or column before ending your turn (or pass)", code="no_line_chosen"
        )
    for _, pos in state.active:
        if not state.books[pos].closed:
            raise RuleViolation(
                f"place every active tile in its Book first ({book_name(state, side, pos)})",
                code="tiles_unplaced",
            )
    t.end_turn(side)


def _discard(t: Turn, side: int, c: cmd.DiscardItem) -> None:
    if c.item not in ITEMS:
        raise InvalidCommand(f"an item is one of {', '.join(ITEMS)}")
    item = ITEMS.index(c.item) - 1
    player = t.state.players[side]
    held = player.coins if item < 0 else player.tokens[item]
    if held <= 0:
        raise RuleViolation(f"you hold no {c.item}", code="not_held")
    t.emit(ev.ItemDiscarded(side, item))
    if t.state.discarding == 0:
        t.finish_turn(side, played=True)


def _exile_space(t: Turn, side: int, c: cmd.ChooseExiliumSpace) -> None:
    cell = _cell(c.row, c.col)
    pending = t.state.pending
    assert pending is not None and pending.tile is not None
    book = t.state.books[pending.pos]
    if (pending.pos, cell) == (pending.origin_pos, pending.origin_cell):
        raise RuleViolation(
            "the tile may not return to the space it came from", code="origin_space"
        )
    if not book.is_quill(cell):
        raise RuleViolation("the exiled tile goes on an open Quill", code="not_a_quill")
    if book.cells[cell] is not None:
        raise RuleViolation("that Quill is already covered", code="quill_covered")
    t.place(side, pending.tile, pending.pos, cell, "exilium")
    t.resolve_battles(pending.origin_pos)


def _completion_token(t: Turn, side: int, c: cmd.ChooseCompletionToken) -> None:
    ritual = _ritual(c.ritual)
    if t.state.supply[ritual] <= 0:
        raise RuleViolation(f"the {c.ritual} supply is empty", code="supply_empty")
    t.emit(ev.TokenChosen(side, ritual))


_Handler = Callable[[Turn, int, Any], None]
_CHOICES = (cmd.ChooseExiliumSpace, cmd.ChooseCompletionToken)

_HANDLERS: dict[type, _Handler] = {
    cmd.Pass: _pass,
    cmd.ChooseLine: _choose_line,
    cmd.PlaceTile: _place_tile,
    cmd.MoveActiveTile: _move_active,
    cmd.SendToSheepPen: _sheep_pen,
    cmd.MoveAbbot: _move_abbot,
    cmd.BuyCard: _buy_card,
    cmd.ClaimRitual: _claim_ritual,
    cmd.PlayMotus: _motus,
    cmd.PlayMotusAbbot: _motus_abbot,
    cmd.PlayMutatio: _mutatio,
    cmd.PlayExilium: _exilium,
    cmd.PlayPorticus: _porticus,
    cmd.PlayScriptum: _scriptum,
    cmd.PlayRitus: _ritus,
    cmd.EndTurn: _end_turn,
    cmd.DiscardItem: _discard,
    cmd.ChooseExiliumSpace: _exile_space,
    cmd.ChooseCompletionToken: _completion_token,
}
"""Each command's rule by its class: one look-up, where a ``match`` over the nineteen
classes tried them in turn (an isinstance each, half of them on average)."""
assert set(_HANDLERS) == set(cmd.COMMAND_TYPES), "a command without its rule"


def _handler_of(command: cmd.Command) -> _Handler:
    """The rule of an instance of a subclass of a command class (never made by the codec):
    its first base's with one."""
    for base in type(command).__mro__:
        if base in _HANDLERS:
            return _HANDLERS[base]
    raise AssertionError(f"no rule for {type(command).__name__}")  # COMMAND_TYPES has each
