"""One line in words per event, for the game log (never names a secret)."""

from __future__ import annotations

from typing import Any

from ..simultaneous import ChoiceCommitted, ChoicesRevealed
from . import events as E
from .content import PLAN


def _p(seat: int | None) -> str:
    return "Nobody" if seat is None else f"Monk {seat + 1}"


def _tiles(tiles: tuple[str, ...]) -> str:
    return " ".join(tiles) if tiles else "nothing"


def describe(event: Any) -> str:
    match event:
        case E.TaskDeckShuffled(count=n):
            return f"The {n} task cards are shuffled"
        case E.ActionPileFormed(seat=s, count=n):
            return f"{_p(s)} gets an action pile of {n} cards"
        case E.UnfinishedPileFormed(pile=pile, count=n, face_up=up):
            return f"Unfinished tasks pile {pile}: {n} cards, {up or 'none'} face up"
        case E.StartingTileDrawn(seat=s, tile=t):
            return f"{_p(s)} starts with R B G Y and a random {t}"
        case E.GameStarted(level=lvl, players=n, mode=mode):
            return f"Level {lvl} starts: {n} player(s), {mode}"
        case E.RoundStarted(round_no=r, year=y):
            return f"Round {r} (year {y}) begins"
        case E.TaskRevealed(card=c, status=st):
            return f"Task {c} is revealed ({st.replace('_', ' ')})"
        case E.BuildingFlipped(building=b, reason=r, seat=s):
            who = f" by {_p(s)}" if s is not None else ""
            return f"{PLAN.buildings[b].name} ({b}) is flipped to its construction side{who} ({r})"
        case E.DuesPaid(seat=s):
            return f"{_p(s)} pays dues and keeps one tile of each colour"
        case E.EventStarted(card=c, seats=seats, dice=dice):
            rolled = f"; dice {[list(d) for d in dice]}" if dice else ""
            return f"Event {c} concerns {', '.join(_p(s) for s in seats)}{rolled}"
        case E.EventPaid(seat=s, pay=pay, reward=r):
            return f"{_p(s)} spends {_tiles(pay)} against the event ({r})"
        case E.EventDeclined(seat=s, lose=lose):
            return f"{_p(s)} does not pay" + (f" and loses {lose}" if lose else "")
        case E.EventEnded(card=c):
            return f"Event {c} is over"
        case E.SectionRemoved(section=sec, reason=r):
            return f"Section {sec} is removed ({r})"
        case E.ActionPileReformed(seat=s, count=n):
            return f"{_p(s)} shuffles next year's {n} cards into a new pile"
        case E.ActionCardsDrawn(seat=s, count=n):
            return f"{_p(s)} draws {n} action cards"
        case ChoiceCommitted(seat=s):
            return f"{_p(s)} makes a secret choice"
        case ChoicesRevealed(choices=choices):
            return "Revealed: " + ", ".join(f"{_p(s)} {' '.join(c)}" for s, c in choices)
        case E.TurnStarted(seat=s, card=c, stage=st):
            return f"{_p(s)}'s turn with {c}" + (" (begging)" if st == "beg" else "")
        case E.SourceChosen(seat=s, source=src):
            return f"{_p(s)} chooses the {'builders hut' if src == 'hut' else 'prayer pouch'}"
        case E.BegDeclared(seat=s):
            return f"{_p(s)} will beg"
        case E.Begged(seat=s, tiles=t):
            return f"{_p(s)} begs for {_tiles(t)}"
        case E.TilesExchanged(seat=s, give=g, take=t):
            return f"{_p(s)} exchanges {_tiles(g)} for {t}"
        case E.SectionTaken(seat=s, section=sec, source=src, pay=pay):
            where = "takes" if src == "hut" else "draws from the bag"
            return f"{_p(s)} {where} {sec}" + (f", paying {_tiles(pay)}" if pay else "")
        case E.SectionPlaced(seat=s, section=sec, x=x, y=y):
            return f"{_p(s)} lays {sec} at ({x},{y})"
        case E.MonkPlaced(seat=s, kind=k, building=b, replaces=r):
            what = {
                "section": "a master builder",
                "grass": "a master builder",
                "guest": "a guest monk",
                "lazy": "a lazy monk",
            }[k]
            if r:
                return f"{_p(s)} is out of monks: the {r.replace(':', ' monk at ')} lies down lazy"
            return f"{_p(s)} places {what}" + (f" at {b}" if b else "")
        case E.TilesGained(seat=s, tiles=t, reason=r):
            return f"{_p(s)} receives {_tiles(t)} ({r})"
        case E.BuildingCompleted(building=b):
            return f"{PLAN.buildings[b].name} ({b}) is complete"
        case E.FlipDeclined(seat=s):
            return f"{_p(s)} flips no building"
        case E.GapsChecked(seat=s, gaps=gaps):
            return f"{_p(s)} leaves {len(gaps)} new small empty space(s)"
        case E.BuildForfeited(seat=s):
            return f"{_p(s)} cannot build anything"
        case E.BookProduced(seat=s, card=c):
            return f"{_p(s)} produces book {c}"
        case E.GuestArrived(seat=s, card=c):
            return f"{_p(s)} brings guest {c} to the monastery"
        case E.CardRescored(seat=s, card=c):
            return f"{_p(s)} scores {c} again"
        case E.RescoreFinished(seat=s):
            return f"{_p(s)} is done scoring"
        case E.ExchangesFinished(seat=s):
            return f"{_p(s)} makes no more exchanges; the end-of-turn tasks are judged"
        case E.UnfinishedTaken(seat=s, card=c):
            return f"{_p(s)} takes unfinished task {c}"
        case E.TaskFulfilled(seat=s, card=c):
            return f"{_p(s)} fulfils task {c}"
        case E.AlmsChosen(seat=s, tiles=t):
            return f"{_p(s)} takes alms {_tiles(t)}"
        case E.TurnEnded(seat=s):
            return f"{_p(s)} ends the turn"
        case E.SpecialsStarted():
            return "Special actions begin"
        case E.SpecialPassed(seat=s):
            return f"{_p(s)} passes"
        case E.CordonRemoved(seat=s):
            return f"{_p(s)} lifts the construction halt"
        case E.ReconstructionStarted(seat=s, section=sec):
            return f"{_p(s)} moves {sec}"
        case E.RoundEnded(round_no=r):
            return f"Round {r} ends"
        case E.GameEnded(scores=scores, team_score=team, pigment=pig):
            return f"Game over: scores {list(scores)}" + (f", team {team} ({pig})" if pig else "")
    return type(event).__name__
