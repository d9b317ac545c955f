"""One line in words per event, for the game log."""

from __future__ import annotations

from typing import Any

from . import events as ev
from .content import CONTENT

__all__ = ["describe"]

NAMES = CONTENT.side_names
POS = ("left", "middle", "right")


def _tile(tile: str) -> str:
    info = CONTENT.tiles[tile]
    if info.is_coin:
        return "a Two-Coin tile"
    return f"{NAMES[info.side]} {info.colour}-{info.faction}"


def _sq(cell: int) -> str:
    return f"({cell // 5},{cell % 5})"


def describe(e: Any) -> str:
    match e:
        case ev.BooksArranged(layouts=layouts):
            return f"Books laid out: {', '.join(layouts)}"
        case ev.AbbotPlaced(station=s):
            return f"The Abbot starts on station S{s}"
        case ev.DifficultyMarkersPlaced(counts=counts):
            return f"The Mystic Monk's markers on the Battle cards: {list(counts)}"
        case ev.TileStacksFormed(side=side, count=n):
            return f"{NAMES[side]} forms {n} face-down stacks of tiles"
        case ev.ArchwaysFilled(side=side):
            return f"{NAMES[side]} fills the archways"
        case ev.DeckShuffled(side=side) | ev.DiscardReshuffled(side=side):
            return f"{NAMES[side]} shuffles the Scriptorium deck"
        case ev.CardDrawn(side=side, reason=reason):
            return f"{NAMES[side]} draws a Scriptorium card ({reason})"
        case ev.ConsolationForfeited(side=side):
            return f"{NAMES[side]} has no card left to draw"
        case ev.CrusadeDealt(side=side):
            return f"{NAMES[side]} takes a secret Crusade card"
        case ev.TurnStarted(side=side, turn_no=n):
            return f"Turn {n}: {NAMES[side]}"
        case ev.Passed(side=side, forced=forced):
            return f"{NAMES[side]} passes{' (no tiles left)' if forced else ''}"
        case ev.LineChosen(side=side, kind=kind, index=i, tiles=tiles):
            return f"{NAMES[side]} takes {kind} {i}: {', '.join(_tile(t) for t in tiles)}"
        case ev.CoinsGained(side=side, amount=n, reason=reason):
            return f"{NAMES[side]} gains {n} coin{'s' if n > 1 else ''} ({reason})"
        case ev.TokenGained(side=side, ritual=r, reason=reason):
            return f"{NAMES[side]} gains a {CONTENT.rituals[r]} token ({reason})"
        case ev.TilePlaced(tile=tile, pos=pos, cell=cell, how=how, gold_leaf=gold):
            extra = f" with {len(gold)} gold leaf" if gold else ""
            return f"{_tile(tile)} placed in the {POS[pos]} Book at {_sq(cell)} ({how}){extra}"
        case ev.TileLifted(tile=tile, pos=pos, cell=cell):
            return f"{_tile(tile)} lifted from the {POS[pos]} Book at {_sq(cell)}"
        case ev.ExilePending(side=side, pos=pos):
            return f"{NAMES[side]} must place the exiled tile in the {POS[pos]} Book"
        case ev.ActiveTileMoved(tile=tile, to_pos=pos):
            return f"{_tile(tile)} moved to the {POS[pos]} Book's margin"
        case ev.TileToSheepPen(side=side, tile=tile):
            return f"{_tile(tile)} goes to {NAMES[side]}'s Sheep Pen"
        case ev.AbbotMoved(station=s, card=card):
            return f"The Abbot moves to station S{s}{' (Motus)' if card else ''}"
        case ev.CardBought(side=side):
            return f"{NAMES[side]} buys a Scriptorium card"
        case ev.RitualClaimed(side=side, ritual=r, size=size, points=pts):
            return f"{NAMES[side]} performs the {CONTENT.rituals[r]} ritual of {size} ({pts} pts)"
        case ev.MarkersRebalanced(pair=p):
            return f"One marker of each side leaves the {CONTENT.pairs[p][0]} Battle card"
        case ev.BattleResolved(pair=p, strengths=st, winner=w, flipped=flipped):
            return (
                f"Bounded Battle {CONTENT.pairs[p][1]}s vs {CONTENT.pairs[p][2]}s "
                f"{st[0]}-{st[1]}: {NAMES[w]} wins, {len(flipped)} tiles flipped"
            )
        case ev.BattleTied(pair=p, strength=n):
            return f"Bounded Battle {CONTENT.pairs[p][0]} tied {n}-{n}"
        case ev.BookClosed(pos=pos, side=side):
            return f"{NAMES[side]} completes the {POS[pos]} Book; it is closed"
        case ev.BookMarkerPlaced(pos=pos, side=side):
            return f"{NAMES[side]} marks the {POS[pos]} Book on the Monastery mat"
        case ev.TokenChoicePending(side=side):
            return f"{NAMES[side]} chooses a Ritual token"
        case ev.TokenChosen(side=side, ritual=r):
            return f"{NAMES[side]} takes a {CONTENT.rituals[r]} token"
        case ev.CardPlayed(side=side, card=card):
            return f"{NAMES[side]} plays {card.split('-')[1].capitalize()}"
        case ev.ArchwaysSwapped(side=side):
            return f"{NAMES[side]} exchanges two archway tiles"
        case ev.LinesSwapped(side=side, kind=kind, first=a, second=b):
            return f"{NAMES[side]} exchanges {kind}s {a} and {b}"
        case ev.DiscardRequired(side=side, count=n):
            return f"{NAMES[side]} must discard {n} item(s)"
        case ev.ItemDiscarded(side=side, item=i):
            return f"{NAMES[side]} discards a {'coin' if i < 0 else CONTENT.rituals[i] + ' token'}"
        case ev.StackFlipped(side=side, tiles=tiles):
            return f"{NAMES[side]} refills: {', '.join(_tile(t) for t in tiles)}"
        case ev.GameEnded(scores=scores, winners=winners):
            who = " and ".join(NAMES[w] for w in winners)
            return f"Game over: Reverent {scores[0]}, Irreverent {scores[1]}; {who} wins"
        case ev.MonkDieRolled(value=v, kind=kind, index=i):
            return f"The Mystic Monk rolls {v}: {kind} {i}"
        case ev.MonkTrackAdvanced(ritual=r, position=p, fired=fired):
            name = CONTENT.rituals[r]
            return f"Mystic Monk's {name} track {'fires' if fired else f'moves to {p}'}"
        case ev.MonkRitualNoSet(ritual=r):
            return f"No {CONTENT.rituals[r]} set is left for the Mystic Monk"
        case ev.MonkStackFormed(pos=pos, tiles=tiles):
            return f"The Mystic Monk stacks {len(tiles)} tiles by the {POS[pos]} Book"
        case ev.GoldLeafPending(tile=tile):
            return "The Mystic Monk readies gold leaf"
        case ev.MonkTileDiscarded(tile=tile):
            return f"{_tile(tile)} is discarded: no Quill left"
    return type(e).__name__
