"""The Books as every viewer sees them (their squares, margins and numbers): a part of
Illumination's view (``view.py``), shared by every audience, each piece kept while the Book
it was made from is the very same object."""

from __future__ import annotations

from typing import Any

from ..memo import REUSE_MAX, Reused
from .content import CONTENT
from .state import Book, State

__all__ = ["NO_TILES", "SIDE_KEYS", "TILES", "book_views", "tile_view"]

TILES = CONTENT.tiles
SIDE_KEYS = ("REV", "IRR")

NO_TILES: list[dict[str, Any]] = []
"""Every empty margin's and Sheep Pen's list (views are never mutated)."""

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


_TILE_VIEWS: dict[tuple[str, bool, tuple[str, ...]], dict[str, Any]] = {}
"""One dict per tile, face and gold leaf (a few hundred in all), shared by every view."""


def tile_view(state: State, tile: str) -> dict[str, Any]:
    gold = state.gold_of(tile) if state.gold else ()
    key = (tile, tile not in state.facedown, gold)
    view = _TILE_VIEWS.get(key)
    if view is None:
        if len(_TILE_VIEWS) >= 4 * REUSE_MAX:
            _TILE_VIEWS.clear()
        view = _TILE_VIEWS[key] = {**_STATIC[tile], "faceup": key[1], "gold_leaf": list(gold)}
    return view


_BOOKS: Reused[dict[str, Any]] = Reused()
"""Book views by book: a move changes one book at most, so the others are reused."""
_BOOK_LISTS: Reused[list[dict[str, Any]]] = Reused()
"""The list of the three, by the state's tuple of books (new only when a book changed)."""


def book_views(state: State) -> list[dict[str, Any]]:
    # Everything a book's view reads besides the book itself: its position, which side
    # sits south, the tiles' faces and gold leaf (tile_view), the active tiles on margins.
    books = state.books
    inputs = (state.south, state.facedown, state.gold, state.active)
    views = _BOOK_LISTS.find(books, inputs)
    if views is None:
        views = _BOOK_LISTS.keep(
            books, inputs, [_book_view(state, pos, book) for pos, book in enumerate(books)]
        )
    return views


def _book_view(state: State, pos: int, book: Book) -> dict[str, Any]:
    # Only this book's margin: placing a tile on one book keeps the others' views.
    active = state.active
    margin = tuple([t for t, p in active if p == pos]) if active else ()
    inputs = (pos, state.south, state.facedown, state.gold, margin)
    view = _BOOKS.find(book, inputs)
    if view is None:
        view = _BOOKS.keep(book, inputs, _make_book_view(state, pos, book, margin))
    return view


_EMPTY_CELLS: dict[tuple[str, int], tuple[dict[str, Any], ...]] = {}
"""The 25 uncovered cells of a layout with its Drollery (a few layouts in all)."""
_COVERED: dict[tuple[int, int], tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {}
"""A covered cell by the identities of its uncovered form and its tile's view (both shared
and kept alive in the entry, so that no id is reused). Keyed by pieces every game shares,
not by one game's state: a plain dict, started afresh when full."""


def _empty_cells(layout_id: str, drollery: int) -> tuple[dict[str, Any], ...]:
    cells = _EMPTY_CELLS.get((layout_id, drollery))
    if cells is None:
        layout = CONTENT.layouts[layout_id].cells
        cells = _EMPTY_CELLS[(layout_id, drollery)] = tuple(
            {
                "row": cell // 5,
                "col": cell % 5,
                "quill": None if layout[cell] == "T" else layout[cell],
                "drollery": cell == drollery,
                "tile": None,
            }
            for cell in range(25)
        )
    return cells


def _covered(empty: dict[str, Any], tile: dict[str, Any]) -> dict[str, Any]:
    key = (id(empty), id(tile))
    hit = _COVERED.get(key)
    if hit is not None and hit[0] is empty and hit[1] is tile:
        return hit[2]
    if len(_COVERED) >= 16 * REUSE_MAX:
        _COVERED.clear()
    view = {**empty, "tile": tile}  # the same keys in the same order, "tile" filled in
    _COVERED[key] = (empty, tile, view)
    return view


_CELLS: Reused[list[dict[str, Any]]] = Reused()
"""A Book's 25 cells by book, apart from the rest of its view: a line chosen puts tiles on
the margins, which is a new view of each Book it touches (a fifth of all moves) with the
very same cells, made once, which the hub's diff then skips by identity."""


def _book_cells(state: State, book: Book) -> list[dict[str, Any]]:
    # What tile_view reads besides the tile: its face and its gold leaf.
    inputs = (state.facedown, state.gold)
    cells = _CELLS.find(book, inputs)
    if cells is None:
        empty = _empty_cells(book.layout, book.drollery)
        cells = _CELLS.keep(
            book,
            inputs,
            [
                empty[cell]
                if (tile := book.cells[cell]) is None
                else _covered(empty[cell], tile_view(state, tile))
                for cell in range(25)
            ],
        )
    return cells


def _make_book_view(state: State, pos: int, book: Book, margin: tuple[str, ...]) -> dict[str, Any]:
    return {
        "pos": pos,
        "layout": book.layout,
        "number": _NUMBERS[state.south][pos],
        "closed": book.closed,
        "completed_by": None if book.completed_by is None else SIDE_KEYS[book.completed_by],
        "cells": _book_cells(state, book),
        "margin": [tile_view(state, t) for t in margin] if margin else NO_TILES,
    }


_NUMBERS = tuple(
    tuple({SIDE_KEYS[s]: (pos + 1 if s == south else 3 - pos) for s in (0, 1)} for pos in range(3))
    for south in (0, 1)
)
"""A Book's number for each side, by the side south and its position (six dicts in all),
shared by every Book view: a view made anew (its margin changed) keeps the very same dict,
which the hub's diff skips by identity instead of comparing."""
