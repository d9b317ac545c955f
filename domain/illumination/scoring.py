"""Final scoring (rulebook "Final Scoring", Mystic Monk bonuses) and the tie-breaks."""

from __future__ import annotations

from .content import CONTENT
from .state import Mode, State

__all__ = ["CRUSADE_FACTION", "battle_cards_won", "breakdown", "crusade_points", "winners"]

CRUSADE_FACTION: dict[str, str] = {
    card: card.split("-", 2)[2].capitalize() for side in CONTENT.crusades for card in side
}


def crusade_points(defeated: int) -> int:
    table = CONTENT.crusade_points
    return table[min(defeated, len(table) - 1)]


def _facedown_of(state: State, faction: str) -> int:
    n = 0
    for book in state.books:
        for tile in book.cells:
            if (
                tile is not None
                and tile in state.facedown
                and CONTENT.tiles[tile].faction == faction
            ):
                n += 1
    return n


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
        for tile in book.cells:
            if tile is None or tile in state.facedown or CONTENT.tiles[tile].side != side:
                continue
            books += 1
            gold += len(state.gold_of(tile))
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
