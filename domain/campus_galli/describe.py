"""The narrator: one sentence per event in the rulebook's words, never naming a secret.

Cards go by their printed names ("Master builder 49", "Merchant", "Colour combination: red
and blue"), sections by what they look like ("the red domino"), buildings by name and the
letter on the plan ("the Church (A)"), places on the plan by column and row counted from 1
at the north-west corner, as the page's buttons count them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from ..narration import Names, join_words, plural
from ..simultaneous import ChoiceCommitted, ChoicesRevealed
from ..viewers import Seat, Viewer
from . import events as E
from .content import ACTIONS, PLAN, SECTIONS, TASKS
from .events import Event
from .geometry import cell_xy
from .glossary import WORDS
from .legal import special_seat
from .state import EventPrompt, Phase, Stage, State, Turn

__all__ = ["narrate", "prompt", "summary"]

LEVELS = {1: "I", 2: "II", 3: "III"}
LEVEL_NAMES = {1: "Ora et Labora", 2: "Libri et Hospites", 3: "Eventus et Periculi"}
PILE_NAMES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _card(card: str) -> str:
    return WORDS.card(card)


def _tiles(tiles: Sequence[str]) -> str:
    return WORDS.tiles(tiles)


def _section(section: str) -> str:
    return f"the {WORDS.section(section)}"


def _building(letter: str) -> str:
    return f"the {WORDS.building(letter)}"


def _where(cells: Sequence[int]) -> str:
    """Where a lay went: "at column 8, row 4, on the Church (A) and grass"."""
    x, y = min((cell_xy(c) for c in cells), key=lambda xy: (xy[1], xy[0]))
    letters = sorted({PLAN.building_of[c] for c in cells if c in PLAN.building_of})
    grass = any(c not in PLAN.building_of for c in cells)
    on = [_building(b) for b in letters] + (["grass"] if grass else [])
    return f"at column {x + 1}, row {y + 1}, on {join_words(on)}"


def summary(mode: str, scores: Sequence[int], team: int, pigment: str, outcome: str) -> str:
    """The result in one sentence, naming the seats as the lobby does ("Monk 2")."""
    if mode == "cooperative":
        return f"The team scores {plural(team, 'point')}: {pigment}, {outcome}"
    top = max(scores)
    winners = [f"Monk {s + 1}" for s, v in enumerate(scores) if v == top]
    verb = "wins" if len(winners) == 1 else "share the victory"
    return f"{join_words(winners)} {verb} with {plural(top, 'point')}"


def _monk_kind(kind: str, where: str) -> str:
    if kind == "section":
        return f"the master builder on {_section(where)}"
    if kind == "grass":
        return f"the master builder next to {_building(where)}"
    return f"the guest monk at {_building(where)}"


def narrate(event: Event, names: Names) -> str:
    """The event's line; the match names every ``Event`` class, so mypy fails on a new one
    without a case."""
    return _cap(_sentence(event, names))


def _sentence(event: Event, names: Names) -> str:
    who = names.seat
    match event:
        case E.TaskDeckShuffled(count=n):
            return f"The {n} task cards are shuffled face down"
        case E.ActionPileFormed(seat=s, count=n):
            return f"{who(s)}'s action pile of {n} cards is shuffled face down"
        case E.UnfinishedPileFormed(pile=pile, count=n, face_up=up):
            top = f", {_card(up)} face up" if up else ""
            colour = PILE_NAMES.get(pile, "")
            return f"Unfinished tasks board, {colour} pile: {plural(n, 'card')}{top}"
        case E.StartingTileDrawn(seat=s, tile=t):
            return (
                f"{who(s)} starts with a tile of each colour and draws "
                f"{WORDS.tiles((t,))} as the fifth"
            )
        case E.GameStarted(level=lvl, players=n, mode=mode):
            return f"Level {LEVELS[lvl]}, {LEVEL_NAMES[lvl]}: {plural(n, 'player')}, {mode}"
        case E.RoundStarted(round_no=r, year=y):
            return f"Year {y} of construction, round {r} begins"
        case E.TaskRevealed(card=c, status=st):
            name = _card(c)
            if st == "open":
                return f"New task on the task board: {name}"
            if st == "brown":
                return f"{name} is revealed and takes effect at once"
            if st == "event":
                return f"Event: {name}"
            if st == "halt":
                return f"{name}: the cordon closes the building"
            if st == "set_aside":
                return f"{name} is revealed but can no longer be fulfilled: it is set aside"
            return f"{name} is revealed but concerns nobody: it is discarded"
        case E.BuildingFlipped(building=b, reason=r, seat=s, pay=pay):
            side = f"{_building(b)} turns to its construction side"
            if r == "expansion" and s is not None:
                paid = f", paying {_tiles(pay)}" if pay else ""
                return f"{who(s)} expands the monastery{paid}: {side}"
            if r == "completion" and s is not None:
                return f"{who(s)} completed a building: {side}"
            return f"{_cap(side)}, as a task needs it"
        case E.DuesPaid(seat=s, kept=kept):
            return (
                f"Dues: {who(s)} holds more than 7 tiles, returns them all and receives "
                f"{_tiles(kept)}"
            )
        case E.EventStarted(card=c, seats=seats, dice=dice, target=target):
            name = _card(c)
            if target:
                faces = dice[0] if dice else ()
                rolled = join_words(WORDS.die(f) for f in faces)
                return (
                    f"{name}: {_section(target)} collapses unless someone spends the tiles "
                    f"rolled ({rolled})"
                )
            if dice:
                rolls = join_words(
                    f"{who(s)} rolls {join_words(WORDS.die(f) for f in d)}"
                    for s, d in zip(seats, dice, strict=False)
                )
                return f"{name}: {rolls}"
            return f"{name} concerns {join_words(who(s) for s in seats)}"
        case E.EventPaid(seat=s, pay=pay, reward=r, building=b):
            spent = f"spends {_tiles(pay)}" if pay else "needs to spend nothing"
            if r == "monk":
                return f"{who(s)} {spent} and places another monk at {_building(b)}"
            gain = "takes the card" if r == "card" else "takes a good cooperation card"
            return f"{who(s)} {spent} against the event and {gain}"
        case E.EventDeclined(seat=s, lose=lose):
            if lose in ACTIONS:
                return f"{who(s)} does not pay and returns {_card(lose)} to the box"
            if lose in PLAN.buildings:
                return f"{who(s)} does not pay: a guest monk leaves {_building(lose)}"
            return f"{who(s)} does not pay"
        case E.EventEnded(card=c):
            return f"{_card(c)} is over"
        case E.SectionRemoved(section=sec, reason=r):
            home = WORDS.source(SECTIONS[sec].origin)
            if r == "storm":
                return f"The storm brings down {_section(sec)} of the north tower: back to {home}"
            return f"{_cap(_section(sec))} collapses and goes back to {home}"
        case E.ActionPileReformed(seat=s, count=n):
            return f"{who(s)} shuffles next year's {n} cards into a new action pile"
        case E.ActionCardsDrawn(seat=s, count=n, cards=cards):
            if cards:
                return f"{who(s)} draws {join_words(_card(c) for c in cards)}"
            return f"{who(s)} draws {plural(n, 'action card')}"
        case ChoiceCommitted(seat=s, choice=choice):
            if choice and len(choice) == 1 and choice[0] in ACTIONS:
                return f"{who(s)} secretly selects {_card(choice[0])}"
            return f"{who(s)} makes a secret choice"
        case ChoicesRevealed(choices=revealed):
            if revealed and all(len(c) == 1 and c[0] in ACTIONS for _, c in revealed):
                listed = join_words(f"{who(s)} {_card(c[0])}" for s, c in revealed)
                return f"The selected action cards are revealed: {listed}"
            return "The secret answers are revealed"
        case E.TurnStarted(seat=s, card=c, stage=st):
            if st == "beg":
                return f"{who(s)} begs instead of playing {_card(c)}"
            return f"{who(s)}'s turn with {_card(c)}"
        case E.SourceChosen(seat=s, source=src):
            if src == "hut":
                return f"{who(s)} chooses the builders' hut and acts at the large number"
            return f"{who(s)} chooses the prayer pouch and acts now"
        case E.BegDeclared(seat=s):
            return f"{who(s)} will beg after the other turns"
        case E.Begged(seat=s, tiles=t):
            return f"{who(s)} begs and takes {_tiles(t)}"
        case E.TilesExchanged(seat=s, give=g, take=t):
            return f"{who(s)} exchanges {_tiles(g)} for {_tiles((t,))}"
        case E.SectionTaken(seat=s, section=sec, source=src, pay=pay, via=via):
            paid = f", paying {_tiles(pay)}" if pay else ""
            verb = "buys" if via == "special" else "takes"
            if src == "hut":
                return f"{who(s)} {verb} {_section(sec)} from the builders' hut{paid}"
            return f"{who(s)} feels in the prayer pouch and draws {_section(sec)}{paid}"
        case E.SectionPlaced(seat=s, section=sec, cells=cells):
            return f"{who(s)} lays {_section(sec)} {_where(cells)}"
        case E.MonkPlaced(seat=s, kind=k, section=sec, building=b, replaces=r):
            if r:
                kind, _, where = r.partition(":")
                return f"{who(s)} is out of monks: {_monk_kind(kind, where)} lies down lazy"
            if k == "lazy":
                return f"{who(s)} lays down a lazy monk in the small empty space"
            if k == "section":
                return f"{who(s)} places a master builder on {_section(sec)}"
            if k == "grass":
                return f"{who(s)} places a master builder next to {_building(b)}"
            return f"A guest monk of {who(s)} moves into {_building(b)}"
        case E.TilesGained(seat=s, tiles=t, reason=r):
            why = {
                "book": "for the book",
                "guest": "from the guest",
                "rescore": "for scoring a card again",
                "lay": "for the lay",
                "task": "with the task",
                "feast": "on the feast day",
                "study": "on the study day",
            }.get(r, "")
            if not t:
                return f"{who(s)} receives no tile {why}: none is left in the supply".replace(
                    "  ", " "
                )
            return f"{who(s)} receives {_tiles(t)}" + (f" {why}" if why else "")
        case E.BuildingCompleted(building=b):
            return f"{_cap(_building(b))} is complete in stone"
        case E.FlipDeclined(seat=s):
            return f"{who(s)} flips no building"
        case E.GapsChecked(seat=s, gaps=gaps):
            if not gaps:
                return f"{who(s)} leaves no small empty space: no lazy monk"
            return (
                f"{who(s)} leaves {plural(len(gaps), 'small empty space')}: "
                f"{plural(len(gaps), 'lazy monk')} to lay down"
            )
        case E.BuildForfeited(seat=s):
            return f"{who(s)} cannot lay any allowed section: the card is spent without effect"
        case E.BookProduced(seat=s, card=c, pay=pay):
            return f"{who(s)} produces {_card(c)} for the library, spending {_tiles(pay)}"
        case E.GuestArrived(seat=s, card=c, pay=pay):
            return f"{who(s)} brings the {_card(c)} to the monastery, spending {_tiles(pay)}"
        case E.CardRescored(seat=s, card=c):
            return f"{who(s)} scores {_card(c)} again"
        case E.RescoreFinished(seat=s):
            return f"{who(s)} is done scoring earlier cards"
        case E.ExchangesFinished(seat=s):
            return f"{who(s)} makes no more exchanges: the end-of-turn tasks are judged"
        case E.UnfinishedTaken(seat=s, card=c, pay=pay):
            return (
                f"{who(s)} spends {_tiles(pay)} to take {_card(c)} from the unfinished tasks board"
            )
        case E.TaskFulfilled(seat=s, card=c, pay=pay):
            paid = f", spending {_tiles(pay)}" if pay else ""
            seals = WORDS.seals(c)
            worth = f" ({seals})" if seals else ""
            return f"{who(s)} fulfils the task {_card(c)}{worth}{paid}"
        case E.AlmsChosen(seat=s, tiles=t):
            return f"{who(s)} takes {_tiles(t)} as alms"
        case E.TurnEnded(seat=s):
            return f"{who(s)}'s turn ends"
        case E.SpecialsStarted(order=order):
            if not order:
                return "Special actions begin"
            return f"Special actions begin: {join_words((who(s) for s in order), 'then')}"
        case E.SpecialPassed(seat=s):
            return f"{who(s)} passes: no more special actions this round"
        case E.CordonRemoved(seat=s, pay=pay):
            return f"{who(s)} removes the construction halt, spending {_tiles(pay)}"
        case E.ReconstructionStarted(seat=s, section=sec, pay=pay):
            return f"{who(s)} spends {_tiles(pay)} to move {_section(sec)} (Reconstruction)"
        case E.RoundEnded(round_no=r):
            return f"Round {r} ends"
        case E.GameEnded(scores=scores, team_score=team, pigment=pig, outcome=outcome):
            mode = "cooperative" if pig else "competitive"
            return f"Game over: {summary(mode, scores, team, pig, outcome)}"
        case _:
            assert_never(event)


def prompt(state: State, viewer: Viewer) -> str:
    """What the game waits for, in one sentence for ``viewer``."""
    names = Names(tuple(f"Monk {i + 1}" for i in range(state.n)), (), viewer)
    seat = viewer.seat
    t = state.turn
    match state.phase:
        case Phase.OVER:
            return "Game over: " + summary(
                state.mode,
                state.final_scores,
                state.team_score,
                state.pigment,
                state.outcome,
            )
        case Phase.SELECT:
            waiting = sorted(state.choices.waiting_on)
            if seat in waiting:
                return "Choose your action card for this round (secretly; final once chosen)"
            who = join_words(names.seat(s) for s in waiting)
            return f"Waiting for {who} to choose an action card"
        case Phase.EVENT if state.event is not None:
            return _event_prompt(state, state.event, names, seat)
        case Phase.TURNS | Phase.SPECIAL if t is not None:
            return _turn_prompt(state, t, names, seat)
        case Phase.SPECIAL:
            current = special_seat(state)
            if current is None:
                return "The special actions are over"
            if current == seat:
                return "Take a special action (spend tiles), or pass for the rest of the round"
            return f"{names.seat(current)} may take a special action or pass"
        case (
            Phase.SETUP | Phase.ROUND_START | Phase.FILL | Phase.EVENT | Phase.TURNS | Phase.SCORING
        ):
            return "The task board is filled and the action cards are drawn"
        case _:
            assert_never(state.phase)


def _event_prompt(state: State, ev: EventPrompt, names: Names, seat: Seat | None) -> str:
    name = _card(ev.card)
    if ev.kind in ("feast", "study", "fire", "epidemic", "new_arrivals"):
        waiting = sorted(state.choices.waiting_on)
        if seat in waiting:
            return {
                "feast": "Feast day: choose up to 2 of your guests to score again",
                "study": "Study day: choose up to 2 of your books to score again",
                "fire": "Fire hazard: spend the tile you rolled, or lose one of your books",
                "epidemic": (
                    "Risk of epidemic: spend the 2 tiles you rolled, or lose a guest monk"
                ),
                "new_arrivals": (
                    f"New arrivals: spend {_tiles(TASKS[ev.card].cost)} to place another "
                    "monk, or decline"
                ),
            }[ev.kind]
        who = join_words(names.seat(s) for s in waiting)
        return f"{name}: waiting for {who} to answer"
    first = ev.queue[0] if ev.queue else None
    if first is None:
        return f"{name} is resolved"
    if first == seat:
        return f"{name}: spend the tiles rolled to prevent it, or decline"
    return f"{name}: {names.seat(first)} decides whether to prevent it"


def _act(state: State, t: Turn) -> tuple[str, str]:
    """The card's action: (what the seat is asked to do, how others read it)."""
    card = ACTIONS[t.card]
    beg = "" if state.level == 1 or card.kind == "angel" or t.free else ", or beg"
    if card.kind == "book":
        return f"produce the book (spend a green tile){beg}", "produces a book"
    if card.kind == "guest":
        return f"bring the guest (spend a yellow tile){beg}", "brings a guest"
    if card.kind == "unfinished":
        return (
            f"take a card from the unfinished tasks board (spend any 1 tile){beg}",
            "takes a card from the unfinished tasks board",
        )
    where = {
        "red": "the builders' hut",
        "blue": "the prayer pouch",
        "hut": "the builders' hut",
        "bag": "the prayer pouch",
    }.get(t.source or card.kind, "the builders' hut or the prayer pouch")
    return f"take a section from {where}{beg}", f"takes a section from {where}"


_STAGE_WORDS: dict[Stage, tuple[str, str]] = {
    Stage.BEG: ("beg: take any 2 tiles", "begs for 2 tiles"),
    Stage.FLIP: (
        "flip a parchment building to its construction side, or none",
        "may flip a parchment building",
    ),
    Stage.LAZY_MONK: (
        "out of monks: choose which of your monks on the plan lies down lazy",
        "chooses which monk lies down lazy",
    ),
    Stage.EXCHANGE: (
        "exchange 3 tiles for 1, or end your turn (the end-of-turn tasks are judged)",
        "may exchange tiles before ending the turn",
    ),
    Stage.ALMS: ("choose the 2 tiles the Alms task gives you", "chooses 2 tiles as alms"),
}
"""What the acting seat is asked, and how the others read it, at the stages that say only
that."""


def _turn_prompt(state: State, t: Turn, names: Names, seat: Seat | None) -> str:
    """The acting seat is told what to do; the others read what is going on."""
    who = names.seat(t.seat)
    card = _card(t.card) if t.card else ""
    match t.stage:
        case Stage.PLACE if t.holding:
            mine, theirs = (
                f"lay {_section(t.holding)} on the monastery plan: choose a highlighted spot",
                f"lays {_section(t.holding)}",
            )
        case Stage.ACT if t.card:
            mine, theirs = _act(state, t)
        case Stage.SOURCE if t.card:
            a = ACTIONS[t.card]
            mine, theirs = (
                f"feel in the prayer pouch now (number {a.number}) or take from the builders' "
                f"hut later (number {a.large})",
                "chooses the prayer pouch or the builders' hut",
            )
        case Stage.RESCORE:
            mine, theirs = (
                f"score up to {plural(t.rescore_left, 'earlier card')} again, or stop",
                "scores earlier cards again",
            )
        case Stage.BEG | Stage.FLIP | Stage.LAZY_MONK | Stage.EXCHANGE | Stage.ALMS:
            mine, theirs = _STAGE_WORDS[t.stage]
        case Stage.PLACE | Stage.ACT | Stage.SOURCE | Stage.HUT | Stage.LAZY | Stage.END:
            mine, theirs = "finish your turn", "is finishing the turn"
        case _:
            assert_never(t.stage)
    if t.via == "special":
        mine, theirs = f"special action: {mine}", f"{theirs} (special action)"
    if t.seat == seat:
        return _cap(f"{card}: {mine}" if card and t.stage is not Stage.PLACE else mine)
    playing = f" ({card})" if card and t.stage is not Stage.PLACE else ""
    return f"{who}{playing} {theirs}"
