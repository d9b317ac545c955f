"""Helpers shared by the Illumination tests: scenario states, playouts and invariant checks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import attrs
import orjson

from domain.bots import RandomBot, bot_move
from domain.game import fold
from domain.illumination import GAME
from domain.illumination.board import bounded, conflicts, strength
from domain.illumination.content import CONTENT
from domain.illumination.state import Book, State
from domain.illumination.turn import Turn
from domain.randomness import Context, Rng
from domain.viewers import SPECTATOR, Viewer
from protocol.codec import GameCodec
from tests.state_views import StateViews

CODEC = GameCodec(GAME)
TILES = CONTENT.tiles


def tid(name: str, copy: int = 0) -> str:
    """``"Y-Knight"`` → the id of that colour and faction (copy 0/1); ``"Knight"`` with
    ``copy`` 0..7 → the copy-th Knight of any colour (for fillers)."""
    if "-" in name:
        colour, faction = name.split("-")
        found = [t for t, i in TILES.items() if i.faction == faction and i.colour == colour]
    else:
        found = [t for t, i in TILES.items() if i.faction == name]
    return sorted(found)[copy]


def coin_tile(side: int, copy: int = 0) -> str:
    return sorted(t for t, i in TILES.items() if i.is_coin and i.side == side)[copy]


def cell(row: int, col: int) -> int:
    return row * 5 + col


def started(mode: str = "duel", side: str = "reverent", seed: str = "s", **opts: Any) -> State:
    options = {"mode": mode, "side": side, "difficulty": 2, "books": "standard", **opts}
    state = GAME.initial_state(options)
    return fold(GAME, state, GAME.setup(state, Context.seeded(seed)))


def scenario(mode: str = "duel", side: str = "reverent", turn: int | None = None) -> State:
    """Reference §9 fixture: Books 1A/2A/3A empty, Abbot on S1, no coins or tokens."""
    state = started(mode, side)
    books = tuple(Book(b.layout, b.drollery) for b in state.books)
    players = tuple(attrs.evolve(p, coins=0, tokens=(0, 0, 0, 0)) for p in state.players)
    return attrs.evolve(
        state,
        books=books,
        players=players,
        abbot=1,
        turn=state.turn if turn is None else turn,
        line_chosen=False,
        acted=False,
        active=(),
        discarding=0,
        pending=None,
    )


def put(state: State, pos: int, placements: dict[tuple[int, int], str]) -> State:
    cells = list(state.books[pos].cells)
    for (r, c), tile in placements.items():
        cells[cell(r, c)] = tile
    books = list(state.books)
    books[pos] = attrs.evolve(books[pos], cells=tuple(cells))
    return attrs.evolve(state, books=tuple(books))


def fill(state: State, pos: int, keep_open: set[tuple[int, int]], faction: str = "Dog") -> State:
    """Cover every open Quill of Book ``pos`` except ``keep_open`` with filler tiles."""
    book = state.books[pos]
    placements = {}
    n = 0
    for q in book.open_quills():
        if (q // 5, q % 5) in keep_open:
            continue
        placements[(q // 5, q % 5)] = tid(faction, n % 8)
        n += 1
    return put(state, pos, placements)


def with_player(state: State, side: int, **changes: Any) -> State:
    players = list(state.players)
    players[side] = attrs.evolve(players[side], **changes)
    return attrs.evolve(state, players=(players[0], players[1]))


def active(state: State, *tiles: tuple[str, int]) -> State:
    return attrs.evolve(state, active=tuple(tiles), line_chosen=True, acted=True)


def run(state: State, seat: int, command: Any, seed: str = "x") -> tuple[State, list[Any]]:
    events = list(GAME.decide(state, seat, command, Context.seeded(seed)))
    return fold(GAME, state, events), events


def types(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


class ScriptedRng:
    """An Rng whose die rolls and randint results are scripted (for Mystic Monk examples)."""

    def __init__(self, dice: list[int], seed: str = "scripted") -> None:
        self.dice = list(dice)
        self.rng = Rng(seed)

    def die(self, sides: int = 6) -> int:
        return self.dice.pop(0) if self.dice else self.rng.die(sides)

    def randint(self, low: int, high: int) -> int:
        return low

    def shuffled(self, items: Any) -> tuple[Any, ...]:
        return tuple(items)

    def choice(self, items: Any) -> Any:
        return items[0]

    def sample(self, items: Any, k: int) -> tuple[Any, ...]:
        return tuple(list(items)[:k])


def monk_turn(state: State, dice: list[int]) -> tuple[State, list[Any]]:
    t = Turn(state, ScriptedRng(dice))
    t.monk_turn()
    return t.state, t.events


# -- invariants ------------------------------------------------------------------------------
ALL_TILES = frozenset(TILES)
ALL_CARDS = (sorted(CONTENT.cards[0]), sorted(CONTENT.cards[1]))


def tile_locations(state: State) -> list[str]:
    found: list[str] = []
    for p in state.players:
        for stack in p.stacks:
            found.extend(stack)
        found.extend(t for t in p.archways if t is not None)
        found.extend(p.sheep_pen)
        found.extend(p.boxed)
        found.extend(p.pending_gold)
    found.extend(t for t, _ in state.active)
    for book in state.books:
        found.extend(t for t in book.cells if t is not None)
    for _, coins in state.gold:
        found.extend(coins)
    if state.lifted is not None:
        found.append(state.lifted)
    return found


def check_conservation(state: State) -> None:
    """All 72 tiles, 24 cards, 48 tokens, 14 coins and 32 markers accounted for."""
    tiles = tile_locations(state)
    assert len(tiles) == len(ALL_TILES) and set(tiles) == ALL_TILES, "tiles not conserved"
    for side, p in enumerate(state.players):
        cards = sorted((*p.deck, *p.hand, *p.discard, *p.card_box))
        assert cards == ALL_CARDS[side], f"cards of side {side} not conserved"
        assert 0 <= p.coins <= CONTENT.coins_per_side
        assert min(p.tokens) >= 0
        if not p.human:
            assert p.coins == 0 and sum(p.tokens) == 0 and not p.hand
        placed = (
            state.ritual_spaces.count(side)
            + state.book_spaces.count(side)
            + sum(card[side] for card in state.battle)
            + (0 if p.human else CONTENT.monk_track_markers)
        )
        assert p.markers + placed == CONTENT.markers_per_side, f"markers of side {side}"
    tokens = sum(state.supply) + sum(sum(p.tokens) for p in state.players)
    assert tokens == 4 * CONTENT.ritual_tokens_each, "tokens not conserved"
    assert min(state.supply) >= 0


# (The two R/I forms share their first letter: one branch for both finds the same ids as
# "CR-…|[RI]-…|[RI]dd" in about two thirds of the time, and the search is most of a check.)
ID_PATTERN = re.compile(r"CR-[A-Z]+-[A-Z]+|[RI](?:-[A-Z]+-[0-9]+|[0-9][0-9])")


def check_board(state: State, closed: dict[Any, Any]) -> None:
    """Reference §2.6: no decided Bounded Battle is left standing after a command; a closed
    Book never changes again; archways are full at the start of a turn while stacks remain."""
    for pos, book in enumerate(state.books):
        key = ("seen", pos)
        if closed.get(key) == (book, state.facedown):
            continue  # unchanged since the last check
        closed[key] = (book, state.facedown)
        for conflict in conflicts(state, book):
            if bounded(book, conflict):
                rev = strength(state, book, conflict, 0)
                assert rev == strength(state, book, conflict, 1), "unresolved Bounded Battle"
        snapshot = (book.cells, frozenset(t for t in book.cells if t in state.facedown))
        if book.closed:
            assert closed.setdefault(pos, snapshot) == snapshot, "a closed Book changed"
    player = state.players[state.turn]
    if state.phase == "play" and not state.acted and player.stacks and player.human:
        assert all(a is not None for a in player.archways), "archways not refilled"


def viewers(state: State) -> list[Viewer]:
    seats = 2 if state.mode == "duel" else 1
    return [Viewer(seat=s) for s in range(seats)] + [SPECTATOR]


def check_no_leak(
    state: State, events: list[Any], *, views: bool = True, seen: StateViews | None = None
) -> None:
    """``seen``: the state's views, computed once for this check and the next bot."""
    seen = seen or StateViews(GAME, state)
    for viewer in viewers(state):
        hidden = GAME.hidden_values(state, viewer)
        if not hidden:
            continue
        texts = []
        if views:
            texts.append(orjson.dumps(seen(viewer)).decode())
        for e in events:
            red = GAME.redact(e, viewer)
            if red is not None:
                texts.append(orjson.dumps(CODEC.encode_event(red)).decode())
        blob = "\n".join(texts)
        # One regex pass finds every id-shaped substring (tiles R01/I36, cards R-MOTUS-1,
        # Crusades CR-REV-DEMON) wherever it occurs; none may be a hidden one.
        leaked = hidden.intersection(ID_PATTERN.findall(blob))
        assert not leaked, f"{viewer} sees {sorted(leaked)[:3]}"


def random_game(
    options: dict[str, Any], seed: int, *, check: bool = True, leak_views: int = 1
) -> tuple[State, list[Any], State]:
    """``leak_views``: render and search the views after every n-th command (0: never)."""
    """Play a game with random legal moves; check invariants after every event."""
    initial = GAME.initial_state(options)
    state = initial
    log: list[Any] = []
    if check:
        check_conservation(state)
    setup = list(GAME.setup(state, Context.seeded(f"setup-{seed}")))
    for e in setup:
        state = GAME.evolve(state, e)
        if check:
            check_conservation(state)
    log.extend(setup)
    bot = RandomBot()
    rng = Rng(seed)
    steps = 0
    closed: dict[Any, Any] = {}
    seen = StateViews(GAME, state)
    while not GAME.is_terminal(state):
        to_act = GAME.to_act(state)
        assert to_act, "deadlock: nobody to act"
        seat = min(to_act)
        # bot_move(bot, GAME, state, seat, rng), with the view the leak check rendered
        command = seen.bot_move(bot, seat, rng)
        events = list(GAME.decide(state, seat, command, Context.seeded(f"{seed}-{steps}")))
        for e in events:
            state = GAME.evolve(state, e)
            if check:
                check_conservation(state)
        seen = StateViews(GAME, state)
        if check:
            check_board(state, closed)
            views = leak_views > 0 and (steps % leak_views == 0 or GAME.is_terminal(state))
            check_no_leak(state, events, views=views, seen=seen)
        log.extend(events)
        steps += 1
        assert steps < 3000, "game does not terminate"
    return initial, log, state


def iter_states(options: dict[str, Any], seed: int, every: int = 1) -> Iterator[State]:
    initial = GAME.initial_state(options)
    state = fold(GAME, initial, GAME.setup(initial, Context.seeded(f"setup-{seed}")))
    bot = RandomBot()
    rng = Rng(seed)
    steps = 0
    while not GAME.is_terminal(state):
        rare = (
            state.pending is not None
            or state.discarding > 0
            or any(state.books[pos].closed for _, pos in state.active)
        )
        if steps % every == 0 or rare:
            yield state
        seat = min(GAME.to_act(state))
        command = bot_move(bot, GAME, state, seat, rng)
        state = fold(GAME, state, GAME.decide(state, seat, command, Context.seeded(f"{steps}")))
        steps += 1
