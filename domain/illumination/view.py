"""What each viewer sees (the hidden-information matrix, reference §4); events are redacted by
the kernel (``domain.secrets``) from their declarations."""

from __future__ import annotations

from typing import Any

from ..viewers import Viewer
from .content import CONTENT
from .scoring import breakdown
from .state import Mode, PendingKind, Phase, State

__all__ = ["hidden_values", "view"]

TILES = CONTENT.tiles
SIDE_KEYS = ("REV", "IRR")


def _sees(state: State, viewer: Viewer, side: int) -> bool:
    if viewer.omniscient or state.phase is Phase.OVER:
        return True
    return viewer.seat is not None and state.seat_of(side) == viewer.seat


_STATIC: dict[str, dict[str, Any]] = {
    t: {
        "id": t,
        "side": SIDE_KEYS[i.side],
        "faction": i.faction,
        "colour": i.colour,
        "two_coin": i.is_coin,
    }
    for t, i in TILES.items()
}


def tile_view(state: State, tile: str) -> dict[str, Any]:
    gold = state.gold_of(tile) if state.gold else ()
    return {**_STATIC[tile], "faceup": tile not in state.facedown, "gold_leaf": list(gold)}


def _book_view(state: State, pos: int) -> dict[str, Any]:
    book = state.books[pos]
    layout = CONTENT.layouts[book.layout].cells
    cells = [
        {
            "row": cell // 5,
            "col": cell % 5,
            "quill": None if layout[cell] == "T" else layout[cell],
            "drollery": cell == book.drollery,
            "tile": None if (tile := book.cells[cell]) is None else tile_view(state, tile),
        }
        for cell in range(25)
    ]
    numbers = {SIDE_KEYS[s]: (pos + 1 if s == state.south else 3 - pos) for s in (0, 1)}
    return {
        "pos": pos,
        "layout": book.layout,
        "number": numbers,
        "closed": book.closed,
        "completed_by": None if book.completed_by is None else SIDE_KEYS[book.completed_by],
        "cells": cells,
        "margin": [tile_view(state, t) for t, p in state.active if p == pos],
    }


def _player_view(state: State, viewer: Viewer, side: int) -> dict[str, Any]:
    p = state.players[side]
    sees = _sees(state, viewer, side)
    arch = [
        [None if (t := p.archways[r * 3 + c]) is None else tile_view(state, t) for c in range(3)]
        for r in range(3)
    ]
    out: dict[str, Any] = {
        "side": SIDE_KEYS[side],
        "name": CONTENT.side_names[side],
        "seat": state.seat_of(side),
        "human": p.human,
        "coins": p.coins,
        "tokens": {CONTENT.rituals[r]: p.tokens[r] for r in range(4)},
        "items": p.items,
        "archways": arch,
        "stacks_remaining": len(p.stacks),
        "sheep_pen": [tile_view(state, t) for t in p.sheep_pen],
        "hand": list(p.hand) if sees else None,
        "hand_count": len(p.hand),
        "deck_count": len(p.deck),
        "discard": list(p.discard),
        "has_crusade": p.crusade is not None,
        "crusade": p.crusade if sees else None,
        "markers": p.markers,
        "passed": p.passed,
        "boxed": list(p.boxed),
    }
    if not p.human:
        out["monk"] = {
            "track": {CONTENT.rituals[r]: p.track[r] for r in range(4)},
            "track_length": CONTENT.monk_track_length,
            "pending_gold_leaf": list(p.pending_gold),
            "books_completed": list(p.books_completed),
            "last_die": p.last_die,
        }
    if viewer.omniscient or state.phase is Phase.OVER:
        out["stacks"] = [list(s) for s in p.stacks]
        out["deck"] = list(p.deck)
    return out


def view(state: State, viewer: Viewer, to_act: list[int]) -> dict[str, Any]:
    seat_side = None if viewer.seat is None else state.side_of(viewer.seat)
    pending = state.pending
    result = None
    if state.final is not None:
        result = {
            "scores": {SIDE_KEYS[s]: state.final[s] for s in (0, 1)},
            "winners": [SIDE_KEYS[s] for s in state.winners],
            "breakdown": {SIDE_KEYS[s]: list(breakdown(state, s)) for s in (0, 1)},
        }
    preview = {}
    for s in (0, 1):
        show = _sees(state, viewer, s) or not state.players[s].human
        preview[SIDE_KEYS[s]] = sum(breakdown(state, s, with_crusade=show)) if state.books else 0
    return {
        "game": "illumination",
        "mode": state.mode,
        "phase": state.phase,
        "you": None if seat_side is None else SIDE_KEYS[seat_side],
        "south": SIDE_KEYS[state.south],
        "turn": SIDE_KEYS[state.turn],
        "turn_no": state.turn_no,
        "to_act": to_act,
        "line_chosen": state.line_chosen,
        "can_pass": state.phase is Phase.PLAY and not state.acted and pending is None,
        "discarding": state.discarding,
        "pending": None
        if pending is None
        else {
            "kind": pending.kind,
            "side": SIDE_KEYS[pending.side],
            "tile": None if pending.tile is None else tile_view(state, pending.tile),
            "pos": pending.pos,
            "origin": [pending.origin_pos, pending.origin_cell // 5, pending.origin_cell % 5],
            "spaces": _pending_spaces(state),
        },
        "books": [_book_view(state, pos) for pos in range(len(state.books))],
        "players": [_player_view(state, viewer, s) for s in (0, 1)],
        "monastery": {
            "abbot": state.abbot,
            "stations": list(CONTENT.stations),
            "ritual_spaces": [
                {
                    "ritual": CONTENT.rituals[i // 3],
                    "size": CONTENT.ritual_spaces[i % 3][0],
                    "points": CONTENT.ritual_spaces[i % 3][1],
                    "owner": None if o is None else SIDE_KEYS[o],
                }
                for i, o in enumerate(state.ritual_spaces)
            ],
            "book_spaces": [None if o is None else SIDE_KEYS[o] for o in state.book_spaces],
        },
        "battle_cards": [
            {
                "pair": CONTENT.pairs[i][0],
                "factions": [CONTENT.pairs[i][1], CONTENT.pairs[i][2]],
                "REV": r,
                "IRR": irr,
            }
            for i, (r, irr) in enumerate(state.battle)
        ],
        "supply": {CONTENT.rituals[r]: state.supply[r] for r in range(4)},
        "difficulty": state.difficulty if state.mode is Mode.SOLO else None,
        "score_preview": preview,
        "result": result,
    }


def _pending_spaces(state: State) -> list[list[int]]:
    """Where the pending choice may go: open Quills ([row, col]) or rituals."""
    pending = state.pending
    assert pending is not None
    if pending.kind is PendingKind.EXILE:
        origin = (pending.origin_pos, pending.origin_cell)
        return [
            [q // 5, q % 5]
            for q in state.books[pending.pos].open_quills()
            if (pending.pos, q) != origin
        ]
    return []


def hidden_values(state: State, viewer: Viewer) -> frozenset[str]:
    if viewer.omniscient or state.phase is Phase.OVER:
        return frozenset()
    hidden: set[str] = set()
    for side in (0, 1):
        p = state.players[side]
        for stack in p.stacks:
            hidden.update(stack)
        hidden.update(p.deck)
        mine = _sees(state, viewer, side)
        if not mine:
            hidden.update(p.hand)
        crusades = set(CONTENT.crusades[side])
        if mine and p.crusade is not None:
            crusades.discard(p.crusade)
        hidden |= crusades
    return frozenset(hidden)
