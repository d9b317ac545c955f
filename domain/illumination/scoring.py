"""Final scoring (rulebook "Final Scoring", Mystic Monk bonuses) and the tie-breaks."""

from __future__ import annotations

from ..memo import Kept, Reused
from ..views import ByAudience
from .content import CONTENT, SIDES
from .state import PHASE_OVER, Book, Mode, State

__all__ = [
    "CRUSADE_FACTION",
    "battle_cards_won",
    "breakdown",
    "breakdowns",
    "crusade_points",
    "score_preview",
    "winners",
]

CRUSADE = 3
TILES = CONTENT.tiles
SPACE_POINTS = tuple(points for _, points in CONTENT.ritual_spaces)
"""The Crusade's place in :func:`breakdown`."""

CRUSADE_FACTION: dict[str, str] = {
    card: card.split("-", 2)[2].capitalize() for side in CONTENT.crusades for card in side
}


def crusade_points(defeated: int) -> int:
    table = CONTENT.crusade_points
    return table[min(defeated, len(table) - 1)]


_Tally = tuple[tuple[int, int], tuple[int, int], dict[str, int]]
_TALLIES: Kept[int, tuple[Book, frozenset[str], object, _Tally]] = Kept(1024)
"""Each Book's share of the scores by book (its identity, kept alive in the entry, so that
no id is reused), with the faces and gold leaf it was counted with: a move changes one
Book at most, and the view scores both sides after every move."""


def _tally(state: State, book: Book) -> _Tally:
    """(faceup tiles per side, gold leaf beneath them per side, face-down tiles per
    faction) in ``book``."""
    hit = _TALLIES.get(id(book))
    if hit is not None and hit[0] is book and hit[1] is state.facedown and hit[2] is state.gold:
        return hit[3]
    tiles, gold = [0, 0], [0, 0]
    down: dict[str, int] = {}
    facedown = state.facedown
    leaf = dict(state.gold) if state.gold else None  # hosts' gold leaf (solo only)
    for tile in book.cells:
        if tile is None:
            continue
        info = TILES[tile]
        if tile in facedown:
            if info.faction is not None:
                down[info.faction] = down.get(info.faction, 0) + 1
            continue
        tiles[info.side] += 1
        if leaf is not None and tile in leaf:
            gold[info.side] += len(leaf[tile])
    tally: _Tally = ((tiles[0], tiles[1]), (gold[0], gold[1]), down)
    _TALLIES.put(id(book), (book, state.facedown, state.gold, tally))
    return tally


def _facedown_of(state: State, faction: str) -> int:
    return sum(_tally(state, book)[2].get(faction, 0) for book in state.books)


def battle_cards_won(state: State, side: int) -> int:
    return sum(1 for card in state.battle if card[side] > card[1 - side])


def breakdown(state: State, side: int, *, with_crusade: bool = True) -> tuple[int, ...]:
    """(monastery, battle cards, books, crusade, sheep pen, monk books, gold leaf)."""
    player = state.players[side]
    monastery = 0
    for index, owner in enumerate(state.ritual_spaces):
        if owner == side:
            monastery += CONTENT.ritual_spaces[index % 3][1]
    battles = CONTENT.battle_card_points * battle_cards_won(state, side)
    books = 0
    gold = 0
    for book in state.books:
        tally = _tally(state, book)
        books += tally[0][side]
        gold += tally[1][side]
    crusade = 0
    if with_crusade:
        if player.human:
            if player.crusade is not None:
                crusade = crusade_points(_facedown_of(state, CRUSADE_FACTION[player.crusade]))
        else:
            # D-41: the faction of which he has defeated the most tiles.
            crusade = crusade_points(
                max(_facedown_of(state, f) for f in CONTENT.factions[1 - side])
            )
    sheep = -len(player.sheep_pen)
    monk_books = 0 if player.human else CONTENT.monk_book_points * len(player.books_completed)
    gold_points = 0 if player.human else CONTENT.monk_gold_leaf_points * gold
    return (monastery, battles, books, crusade, sheep, monk_books, gold_points)


def breakdowns(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Both sides' :func:`breakdown` (their Crusades counted), each Book's tally and the
    face-down tiles per faction read once for the two (the view scores both sides after
    every move that changes a Book)."""
    monastery = [0, 0]
    for index, owner in enumerate(state.ritual_spaces):
        if owner is not None:
            monastery[owner] += SPACE_POINTS[index % 3]
    won = [0, 0]
    for rev, irr in state.battle:
        if rev > irr:
            won[0] += 1
        elif irr > rev:
            won[1] += 1
    books, gold = [0, 0], [0, 0]
    down: dict[str, int] = {}
    for book in state.books:
        (t0, t1), (g0, g1), d = _tally(state, book)
        books[0] += t0
        books[1] += t1
        gold[0] += g0
        gold[1] += g1
        for faction, n in d.items():
            down[faction] = down.get(faction, 0) + n
    out: list[tuple[int, ...]] = []
    for side in (0, 1):
        player = state.players[side]
        if player.human:
            crusade = (
                0
                if player.crusade is None
                else crusade_points(down.get(CRUSADE_FACTION[player.crusade], 0))
            )
            monk_books = gold_points = 0
        else:
            # D-41: the faction of which he has defeated the most tiles.
            crusade = crusade_points(max(down.get(f, 0) for f in CONTENT.factions[1 - side]))
            monk_books = CONTENT.monk_book_points * len(player.books_completed)
            gold_points = CONTENT.monk_gold_leaf_points * gold[side]
        out.append(
            (
                monastery[side],
                CONTENT.battle_card_points * won[side],
                books[side],
                crusade,
                -len(player.sheep_pen),
                monk_books,
                gold_points,
            )
        )
    return out[0], out[1]


def winners(state: State, scores: tuple[int, int]) -> tuple[int, ...]:
    """Winning sides. Solo: the Mystic Monk wins ties. Duel: battle cards, then items."""
    if state.mode is Mode.SOLO:
        human = state.human_side
        return (human,) if scores[human] > scores[1 - human] else (1 - human,)
    if scores[0] != scores[1]:
        return (0,) if scores[0] > scores[1] else (1,)
    won = (battle_cards_won(state, 0), battle_cards_won(state, 1))
    if won[0] != won[1]:
        return (0,) if won[0] > won[1] else (1,)
    stuff = tuple(p.coins + sum(p.tokens) + len(p.hand) for p in state.players)
    if stuff[0] != stuff[1]:
        return (0,) if stuff[0] > stuff[1] else (1,)
    return (0, 1)


_SCORES: Reused[ByAudience[dict[str, int]]] = Reused()
"""Score previews by the state's tuple of books, with the rest of what scoring reads."""


def score_preview(state: State, seats: range) -> ByAudience[dict[str, int]]:
    # What scoring.breakdown reads besides the books, and whose Crusade is open to whom.
    rev, irr = state.players
    inputs = (
        state.facedown,
        state.gold,
        state.ritual_spaces,
        state.battle,
        state.phase,
        state.mode,
        state.human_side,
        seats,
        rev.human,
        rev.crusade,
        rev.sheep_pen,
        rev.books_completed,
        irr.human,
        irr.crusade,
        irr.sheep_pen,
        irr.books_completed,
    )
    preview = _SCORES.find(state.books, inputs)
    if preview is None:
        preview = _SCORES.keep(state.books, inputs, _make_score_preview(state, seats))
    return preview


def _make_score_preview(state: State, seats: range) -> ByAudience[dict[str, int]]:
    """Each side's score so far, its Crusade counted for those who may see it: its own
    player, everyone once the game is over, and always for the Monk (open on the table)."""
    if not state.books:
        zero = {k: 0 for k in SIDES}
        return ByAudience(tuple(zero for _ in seats), zero)
    scores = breakdowns(state)
    full = [sum(b) for b in scores]
    bare = [f - b[CRUSADE] for f, b in zip(full, scores, strict=True)]
    open_ = [state.phase is PHASE_OVER or not state.players[s].human for s in (0, 1)]

    def seen_by(seat: int | None) -> dict[str, int]:
        return _scores(
            *(full[s] if open_[s] or state.seat_of(s) == seat else bare[s] for s in (0, 1))
        )

    return ByAudience(tuple(seen_by(s) for s in seats), seen_by(None), _scores(*full))


_SCORE_DICTS: dict[tuple[int, int], dict[str, int]] = {}
"""One dict per pair of scores (a few thousand in all), shared by every preview: most moves
score nothing, and the next preview then holds the very same dicts, which the hub's diff
skips by identity instead of comparing them (views are never mutated)."""


def _scores(rev: int, irr: int) -> dict[str, int]:
    view = _SCORE_DICTS.get((rev, irr))
    if view is None:
        if len(_SCORE_DICTS) >= 4096:
            _SCORE_DICTS.clear()
        view = _SCORE_DICTS[(rev, irr)] = {SIDES[0]: rev, SIDES[1]: irr}
    return view
