"""State changes several events share (paying, gaining tiles, placing monks, returning a
section, ending an action), for the handlers of ``evolve``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..simultaneous import SecretChoices
from ..values import replace
from .content import SECTIONS
from .geometry import components
from .queries import ALL_LETTERS, can_exchange, monk_key, popcount, uncovered_wooden
from .state import EventPrompt, Monk, Stage, State, Turn, add_tiles

__all__ = [
    "EMPTY_CHOICES",
    "Handlers",
    "action_done",
    "after_flip_prompt",
    "any_parchment",
    "board_remove",
    "cells_mask",
    "current_event",
    "current_turn",
    "fulfil",
    "gain",
    "pay",
    "place_monk",
    "reconcile",
    "return_section",
    "set_turn",
    "turn_or_special",
]

EMPTY_CHOICES = SecretChoices(frozenset())

EvT = TypeVar("EvT")


class Handlers:
    """A table of ``evolve``'s handlers by event class, filled by the ``on`` decorator;
    ``mypy`` checks each handler against the event class it is registered for."""

    def __init__(self) -> None:
        self.table: dict[type, Callable[[State, Any], State]] = {}

    def on(
        self, cls: type[EvT]
    ) -> Callable[[Callable[[State, EvT], State]], Callable[[State, EvT], State]]:
        def register(handler: Callable[[State, EvT], State]) -> Callable[[State, EvT], State]:
            self.table[cls] = handler
            return handler

        return register


def current_turn(state: State) -> Turn:
    t = state.turn
    assert t is not None
    return t


def current_event(state: State) -> EventPrompt:
    ev = state.event
    assert ev is not None
    return ev


def set_turn(state: State, **changes: Any) -> State:
    return replace(state, turn=replace(current_turn(state), **changes))


def gain(state: State, seat: int, tiles: tuple[str, ...], received: bool) -> State:
    p = state.players[seat]
    state = replace(
        state.with_player(seat, replace(p, tiles=add_tiles(p.tiles, tiles))),
        tile_supply=add_tiles(state.tile_supply, tiles, -1),
    )
    t = state.turn
    if received and t is not None and t.seat == seat and tiles:
        state = replace(state, turn=replace(t, received=t.received | set(tiles)))
    return state


def pay(state: State, seat: int, tiles: tuple[str, ...]) -> State:
    if not tiles:
        return state
    p = state.players[seat]
    state = state.with_player(seat, replace(p, tiles=add_tiles(p.tiles, tiles, -1)))
    return replace(state, tile_supply=add_tiles(state.tile_supply, tiles))


def reconcile(state: State) -> State:
    """Lazy monks leave when their empty space is closed or grows beyond 3 (DD-26)."""
    if not any(m.kind == "lazy" for m in state.monks):
        return state
    unc = uncovered_wooden(state)
    comps = components(unc)
    monks: list[Monk] = []
    players = list(state.players)
    for m in state.monks:
        if m.kind != "lazy":
            monks.append(m)
            continue
        rest = m.gap & unc
        keep = False
        if rest:
            low = rest & -rest
            k = next(c for c in comps if c & low)
            if popcount(k) <= 3:
                monks.append(replace(m, gap=k))
                keep = True
        if not keep and not m.marker:
            p = players[m.owner]
            players[m.owner] = replace(p, supply=p.supply + 1)
    return replace(state, monks=tuple(monks), players=tuple(players))


def place_monk(state: State, monk: Monk, replaces: str = "") -> State:
    p = state.players[monk.owner]
    if p.supply > 0:
        state = state.with_player(monk.owner, replace(p, supply=p.supply - 1))
    elif monk.kind == "lazy":
        # No piece left (DD-16): the named own non-lazy monk (the most recently placed one of
        # that name; by default the most recently placed of all) leaves the plan for the gap.
        own = [
            i
            for i, m in enumerate(state.monks)
            if m.owner == monk.owner
            and m.kind != "lazy"
            and (not replaces or monk_key(m) == replaces)
        ]
        if own:
            i = own[-1]
            state = replace(state, monks=state.monks[:i] + state.monks[i + 1 :])
        else:
            monk = replace(monk, marker=True)
    else:
        return state
    return replace(state, monks=(*state.monks, monk))


def board_remove(state: State, card: str, taken: bool) -> State:
    board = list(state.board)
    for i, (c, _) in enumerate(board):
        if c == card:
            if taken:
                board[i] = (c, "taken")
            else:
                del board[i]
            break
    return replace(state, board=tuple(board))


def fulfil(state: State, seat: int, card: str, tiles: tuple[str, ...] = ()) -> State:
    """``seat`` fulfils the task ``card``, paying ``tiles``."""
    status = next((s for c, s in state.board if c == card), "open")
    # A taken event card keeps its slot until tidy-up (DD-23); a task's slot empties.
    state = board_remove(state, card, taken=status == "event")
    state = pay(state, seat, tiles)
    p = state.players[seat]
    return state.with_player(seat, replace(p, fulfilled=(*p.fulfilled, card)))


def return_section(state: State, section: str) -> State:
    mask = next(m for s, m in state.placed if s == section)
    placed = tuple((s, m) for s, m in state.placed if s != section)
    monks = tuple(m for m in state.monks if not (m.kind == "section" and m.section == section))
    players = list(state.players)
    for m in state.monks:
        if m.kind == "section" and m.section == section:
            players[m.owner] = replace(players[m.owner], supply=players[m.owner].supply + 1)
    state = replace(
        state, placed=placed, cover=state.cover & ~mask, monks=monks, players=tuple(players)
    )
    if SECTIONS[section].origin == "hut":
        state = replace(state, hut=state.hut | {section})
    else:
        state = replace(state, bag=state.bag | {section})
    return reconcile(state)


def turn_or_special(state: State, seat: int, stage: Stage) -> Turn:
    if state.turn is not None:
        return replace(state.turn, stage=stage)
    return Turn(seat=seat, card="", via="special", stage=stage)


def action_done(state: State) -> State:
    """The action of the turn is complete. Level II+ action turns then offer a last chance to
    exchange tiles before the end-of-turn tasks are judged, when an exchange is possible."""
    t = current_turn(state)
    if state.level > 1 and t.via == "action" and can_exchange(state, t.seat):
        return set_turn(state, stage=Stage.EXCHANGE)
    return set_turn(state, stage=Stage.END)


def any_parchment(state: State) -> bool:
    return any(b not in state.construction for b in ALL_LETTERS)


def after_flip_prompt(state: State) -> State:
    flips = current_turn(state).flips - 1
    if flips <= 0 or not any_parchment(state):
        return set_turn(state, flips=0, stage=Stage.LAZY)
    return set_turn(state, flips=flips)


def cells_mask(cells: tuple[int, ...]) -> int:
    return sum(1 << c for c in cells)
