"""Apply one event. Never validates, never rolls: folding a log again gives the same state."""

from __future__ import annotations

from typing import Any

import attrs

from ..simultaneous import ChoiceCommitted, ChoicesRevealed, SecretChoices
from .content import ACTIONS, COLOURS, SECTIONS, TASKS
from .events import (
    ActionCardsDrawn,
    ActionPileFormed,
    ActionPileReformed,
    AlmsChosen,
    BegDeclared,
    Begged,
    BookProduced,
    BuildForfeited,
    BuildingCompleted,
    BuildingFlipped,
    CardRescored,
    CordonRemoved,
    DuesPaid,
    EventDeclined,
    EventEnded,
    EventPaid,
    EventStarted,
    ExchangesFinished,
    FlipDeclined,
    GameEnded,
    GameStarted,
    GapsChecked,
    GuestArrived,
    MonkPlaced,
    ReconstructionStarted,
    RescoreFinished,
    RoundEnded,
    RoundStarted,
    SectionPlaced,
    SectionRemoved,
    SectionTaken,
    SourceChosen,
    SpecialPassed,
    SpecialsStarted,
    StartingTileDrawn,
    TaskDeckShuffled,
    TaskFulfilled,
    TaskRevealed,
    TilesExchanged,
    TilesGained,
    TurnEnded,
    TurnStarted,
    UnfinishedPileFormed,
    UnfinishedTaken,
)
from .geometry import components
from .queries import (
    ALL_LETTERS,
    building_area,
    can_exchange,
    monk_key,
    popcount,
    uncovered_wooden,
)
from .state import EventPrompt, Monk, State, Turn, add_tiles

PILES = ("R", "B", "G", "Y")


def _gain(state: State, seat: int, tiles: tuple[str, ...], received: bool) -> State:
    p = state.players[seat]
    state = state.with_player(seat, attrs.evolve(p, tiles=add_tiles(p.tiles, tiles)))
    state = attrs.evolve(state, tile_supply=add_tiles(state.tile_supply, tiles, -1))
    if received and state.turn is not None and state.turn.seat == seat and tiles:
        state = attrs.evolve(
            state, turn=attrs.evolve(state.turn, received=state.turn.received | set(tiles))
        )
    return state


def _pay(state: State, seat: int, tiles: tuple[str, ...]) -> State:
    if not tiles:
        return state
    p = state.players[seat]
    state = state.with_player(seat, attrs.evolve(p, tiles=add_tiles(p.tiles, tiles, -1)))
    return attrs.evolve(state, tile_supply=add_tiles(state.tile_supply, tiles))


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
                monks.append(attrs.evolve(m, gap=k))
                keep = True
        if not keep and not m.marker:
            p = players[m.owner]
            players[m.owner] = attrs.evolve(p, supply=p.supply + 1)
    return attrs.evolve(state, monks=tuple(monks), players=tuple(players))


def _set_turn(state: State, **changes: Any) -> State:
    assert state.turn is not None
    return attrs.evolve(state, turn=attrs.evolve(state.turn, **changes))


def _place_monk(state: State, monk: Monk, replaces: str = "") -> State:
    p = state.players[monk.owner]
    if p.supply > 0:
        state = state.with_player(monk.owner, attrs.evolve(p, supply=p.supply - 1))
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
            state = attrs.evolve(state, monks=state.monks[:i] + state.monks[i + 1 :])
        else:
            monk = attrs.evolve(monk, marker=True)
    else:
        return state
    return attrs.evolve(state, monks=(*state.monks, monk))


def _board_remove(state: State, card: str, taken: bool) -> State:
    board = list(state.board)
    for i, (c, _) in enumerate(board):
        if c == card:
            if taken:
                board[i] = (c, "taken")
            else:
                del board[i]
            break
    return attrs.evolve(state, board=tuple(board))


def _fulfil(state: State, seat: int, card: str, pay: tuple[str, ...] = ()) -> State:
    status = next((s for c, s in state.board if c == card), "open")
    # A taken event card keeps its slot until tidy-up (DD-23); a task's slot empties.
    state = _board_remove(state, card, taken=status in ("event",))
    state = _pay(state, seat, pay)
    p = state.players[seat]
    return state.with_player(seat, attrs.evolve(p, fulfilled=(*p.fulfilled, card)))


def _return_section(state: State, section: str) -> State:
    mask = next(m for s, m in state.placed if s == section)
    placed = tuple((s, m) for s, m in state.placed if s != section)
    monks = tuple(m for m in state.monks if not (m.kind == "section" and m.section == section))
    players = list(state.players)
    for m in state.monks:
        if m.kind == "section" and m.section == section:
            players[m.owner] = attrs.evolve(players[m.owner], supply=players[m.owner].supply + 1)
    state = attrs.evolve(
        state, placed=placed, cover=state.cover & ~mask, monks=monks, players=tuple(players)
    )
    if SECTIONS[section].origin == "hut":
        state = attrs.evolve(state, hut=state.hut | {section})
    else:
        state = attrs.evolve(state, bag=state.bag | {section})
    return reconcile(state)


def _flip(state: State, building: str) -> State:
    return reconcile(attrs.evolve(state, construction=state.construction | {building}))


def _turn_or_special(state: State, seat: int, **changes: Any) -> Turn:
    if state.turn is not None:
        return attrs.evolve(state.turn, **changes)
    return Turn(seat=seat, card="", via="special", **changes)


def evolve(state: State, event: Any) -> State:
    t: Turn | None
    match event:
        case TaskDeckShuffled(order=order):
            return attrs.evolve(state, task_deck=tuple(order or ()))
        case ActionPileFormed(seat=seat, cards=cards):
            return state.with_player(
                seat, attrs.evolve(state.players[seat], this_year=tuple(cards or ()))
            )
        case UnfinishedPileFormed(pile=pile, cards=cards):
            i = PILES.index(pile)
            piles = (*state.unfinished[:i], tuple(cards or ()), *state.unfinished[i + 1 :])
            return attrs.evolve(state, unfinished=piles)
        case StartingTileDrawn(seat=seat, tile=tile):
            return _gain(state, seat, (*COLOURS, tile), False)
        case GameStarted():
            dealt: set[str] = set()
            for pl in state.players:
                dealt.update(pl.this_year)
            for cards_left in state.unfinished:
                dealt.update(cards_left)
            box = tuple(c for c in ACTIONS if c not in dealt and ACTIONS[c].level <= state.level)
            return attrs.evolve(state, box=box, phase="round_start", priority=tuple(range(state.n)))
        case RoundStarted(round_no=round_no, year=year):
            return attrs.evolve(state, round_no=round_no, year=year, phase="fill")
        case TaskRevealed(card=card, status=status):
            state = attrs.evolve(state, task_deck=state.task_deck[1:])
            if status == "set_aside":
                return attrs.evolve(state, set_aside=(*state.set_aside, card))
            if status == "discarded":
                return attrs.evolve(state, task_discard=(*state.task_discard, card))
            state = attrs.evolve(state, board=(*state.board, (card, status)))
            if status == "halt":
                state = attrs.evolve(state, cordon=TASKS[card].building)
            return state
        case BuildingFlipped(building=b, reason=reason, seat=seat, pay=pay):
            state = _flip(state, b)
            if reason == "expansion" and seat is not None:
                state = _pay(state, seat, pay)
                state = attrs.evolve(state, turn=_turn_or_special(state, seat, stage="end"))
            elif reason == "completion" and state.turn is not None:
                state = _after_flip_prompt(state)
            return state
        case FlipDeclined():
            return _after_flip_prompt(state)
        case DuesPaid(seat=seat, kept=kept):
            p = state.players[seat]
            supply = tuple(s + t for s, t in zip(state.tile_supply, p.tiles, strict=True))
            state = attrs.evolve(state, tile_supply=supply)
            state = state.with_player(seat, attrs.evolve(p, tiles=(0, 0, 0, 0)))
            return _gain(state, seat, kept, False)
        case EventStarted(card=card, seats=seats, dice=dice, target=target):
            prompt = EventPrompt(
                card=card,
                kind=TASKS[card].kind,
                queue=seats,
                dice=tuple(zip(seats, dice, strict=False)) if dice else (),
                target=target,
            )
            last = tuple(f for d in dice for f in d)
            state = attrs.evolve(
                state, phase="event", event=prompt, last_dice=last or state.last_dice
            )
            if prompt.kind in ("fire", "epidemic", "new_arrivals", "feast", "study"):
                # Answered secretly and applied together (DD-22).
                state = attrs.evolve(state, choices=SecretChoices.open(seats))
            return state
        case EventPaid(seat=seat, pay=pay, reward=reward, building=building):
            ev = state.event
            assert ev is not None
            state = _pay(state, seat, pay)
            if reward == "card":
                state = _fulfil(state, seat, ev.card)
            elif reward == "coop":
                extra = 2 if ev.kind == "collapse" else 1
                p = state.players[seat]
                state = state.with_player(seat, attrs.evolve(p, good_coop=p.good_coop + extra))
            elif reward == "monk":
                state = _place_monk(state, Monk(seat, "guest", building=building))
            queue = () if ev.kind == "collapse" else ev.queue[1:]
            ev = attrs.evolve(ev, queue=queue, prevented=True, successes=ev.successes + 1)
            return attrs.evolve(state, event=ev)
        case EventDeclined(seat=seat, lose=lose):
            ev = state.event
            assert ev is not None
            if ev.kind == "fire" and lose:
                p = state.players[seat]
                lib = tuple(b for b in p.library if b != lose)
                state = state.with_player(seat, attrs.evolve(p, library=lib))
                state = attrs.evolve(state, box=(*state.box, lose))
            elif ev.kind == "epidemic" and lose:
                i = next(
                    i
                    for i, m in enumerate(state.monks)
                    if m.owner == seat and m.kind == "guest" and m.building == lose
                )
                state = attrs.evolve(state, monks=state.monks[:i] + state.monks[i + 1 :])
                p = state.players[seat]
                state = state.with_player(seat, attrs.evolve(p, supply=p.supply + 1))
            return attrs.evolve(state, event=attrs.evolve(ev, queue=ev.queue[1:]))
        case CardRescored(seat=seat, card=card):
            if state.event is not None and state.phase == "event":
                return state  # feast / study day: the reward is the TilesGained that follows
            assert state.turn is not None
            t = state.turn
            return _set_turn(state, rescore_left=t.rescore_left - 1, rescored=(*t.rescored, card))
        case RescoreFinished():
            if state.phase == "event" and state.event is not None:
                ev = state.event
                return attrs.evolve(state, event=attrs.evolve(ev, queue=ev.queue[1:]))
            return _action_done(state)
        case ExchangesFinished():
            return _set_turn(state, stage="end")
        case EventEnded(card=card):
            ev = state.event
            assert ev is not None
            if ev.kind == "collapse" and not ev.prevented and ev.target:
                state = _return_section(state, ev.target)
                state = _board_remove(state, card, taken=True)
                state = attrs.evolve(state, reminders=(*state.reminders, card))
            # The answers were revealed before (ChoicesRevealed); a feast or study day of a log
            # written before those were secret never opened choices to close.
            return attrs.evolve(state, phase="fill", event=None, choices=SecretChoices(frozenset()))
        case SectionRemoved(section=section):
            return _return_section(state, section)
        case ActionPileReformed(seat=seat, cards=cards):
            p = state.players[seat]
            return state.with_player(
                seat, attrs.evolve(p, this_year=tuple(cards or ()), next_year=())
            )
        case ActionCardsDrawn(seat=seat, count=count, cards=cards):
            p = state.players[seat]
            drawn = tuple(cards) if cards is not None else p.this_year[:count]
            state = state.with_player(
                seat, attrs.evolve(p, hand=drawn, this_year=p.this_year[len(drawn) :])
            )
            if seat == state.n - 1:
                state = attrs.evolve(
                    state, phase="select", choices=SecretChoices.open(range(state.n))
                )
            return state
        case ChoiceCommitted(seat=seat, choice=choice):
            return attrs.evolve(state, choices=state.choices.commit(seat, tuple(choice or ())))
        case ChoicesRevealed() if state.phase == "event":
            return attrs.evolve(state, choices=SecretChoices(frozenset()))
        case ChoicesRevealed(choices=choices):
            players = list(state.players)
            entries: list[tuple[int, int, str]] = []
            for seat, choice in choices:
                card = choice[0]
                p = players[seat]
                players[seat] = attrs.evolve(
                    p,
                    selected=card,
                    hand=(),
                    next_year=p.next_year + tuple(c for c in p.hand if c != card),
                )
                a = ACTIONS[card]
                entries.append((a.number, seat, "source" if a.kind == "double" else "act"))
            return attrs.evolve(
                state,
                players=tuple(players),
                queue=tuple(sorted(entries)),
                choices=SecretChoices(frozenset()),
                phase="turns",
                order=(),
            )
        case TurnStarted(seat=seat, card=card, stage=stage):
            if stage == "beg":
                key = state.beg_queue[0][0]
                state = attrs.evolve(state, beg_queue=state.beg_queue[1:])
            else:
                key = state.queue[0][0]
                state = attrs.evolve(state, queue=state.queue[1:])
            source = "hut" if stage == "hut" else ""
            return attrs.evolve(
                state,
                turn=Turn(
                    seat=seat,
                    card=card,
                    selected=card,
                    stage="act" if stage == "hut" else stage,
                    source=source,
                    key=key,
                ),
            )
        case SourceChosen(seat=seat, source=source):
            t = state.turn
            assert t is not None
            if source == "hut" and not t.free:
                large = ACTIONS[t.card].large
                requeued = tuple(sorted((*state.queue, (large, seat, "hut"))))
                return attrs.evolve(state, queue=requeued, turn=None)
            return _set_turn(state, stage="act", source=source)
        case BegDeclared(seat=seat):
            t = state.turn
            assert t is not None
            beg = tuple(sorted((*state.beg_queue, (t.key, seat))))
            return attrs.evolve(state, beg_queue=beg, turn=None)
        case Begged(seat=seat, tiles=tiles):
            state = _gain(state, seat, tiles, True)
            state = state.with_player(seat, attrs.evolve(state.players[seat], begged=True))
            return _set_turn(state, stage="end")
        case TilesExchanged(seat=seat, give=give, take=take):
            state = _pay(state, seat, give)
            return _gain(state, seat, (take,), False)
        case SectionTaken(seat=seat, section=section, source=source, pay=pay, via=via):
            state = _pay(state, seat, pay)
            if source == "hut":
                state = attrs.evolve(state, hut=state.hut - {section})
            else:
                state = attrs.evolve(state, bag=state.bag - {section})
            if via == "special":
                return attrs.evolve(
                    state,
                    turn=Turn(seat=seat, card="", stage="place", via="special", holding=section),
                )
            return _set_turn(state, stage="place", holding=section)
        case ReconstructionStarted(seat=seat, card=card, section=section, pay=pay):
            state = _fulfil(state, seat, card, pay)
            return attrs.evolve(
                state,
                turn=Turn(
                    seat=seat,
                    card="",
                    stage="place",
                    via="reconstruct",
                    holding=section,
                    moving=section,
                ),
            )
        case SectionPlaced(section=section, cells=cells):
            t = state.turn
            assert t is not None
            mask = sum(1 << c for c in cells)
            placed = state.placed
            cover = state.cover
            if t.moving:
                old = next(m for s, m in placed if s == t.moving)
                placed = tuple((s, m) for s, m in placed if s != t.moving)
                cover &= ~old
            before = components(uncovered_wooden(state))
            state = attrs.evolve(state, placed=(*placed, (section, mask)), cover=cover | mask)
            state = _set_turn(
                state,
                stage="lazy",
                holding="",
                moving="",
                laid=(*t.laid, (section, mask)),
                before=before,
            )
            return reconcile(state)
        case MonkPlaced(
            seat=seat, kind=kind, section=section, building=building, cells=cells, replaces=rep
        ):
            state = _place_monk(
                state,
                Monk(
                    seat, kind, section=section, building=building, gap=sum(1 << c for c in cells)
                ),
                rep,
            )
            if kind == "lazy" and state.turn is not None:
                owed = state.turn.owed[1:]
                state = _set_turn(state, owed=owed)
                return state if owed else _action_done(state)
            if kind in ("grass", "guest") and state.turn is not None and building:
                areas = state.turn.person_areas | {building_area(building)}
                state = _set_turn(state, person_areas=areas)
            return state
        case TilesGained(seat=seat, tiles=tiles, reason=reason):
            return _gain(state, seat, tiles, reason != "exchange")
        case BuildingCompleted(building=b):
            t = state.turn
            assert t is not None
            state = _set_turn(state, completed=(*t.completed, b))
            if state.level == 1 and t.via == "action" and _parchment(state):
                state = _set_turn(state, stage="flip", flips=state.turn.flips + 1)  # type: ignore[union-attr]
            return state
        case GapsChecked(seat=seat, gaps=gaps, each_placed=False):
            for gap in gaps:  # a log written before the DD-16 choice (see the event)
                state = _place_monk(state, Monk(seat, "lazy", gap=sum(1 << c for c in gap)))
            return _set_turn(state, stage="end")
        case GapsChecked(gaps=gaps):
            if gaps:
                owed = tuple(sum(1 << c for c in gap) for gap in gaps)
                return _set_turn(state, stage="lazy_monk", owed=owed)
            return _action_done(state)
        case BuildForfeited():
            return _action_done(state)
        case BookProduced(seat=seat, card=card, pay=pay):
            state = _pay(state, seat, pay)
            p = state.players[seat]
            sel = None if p.selected == card else p.selected
            state = state.with_player(
                seat, attrs.evolve(p, library=(*p.library, card), selected=sel)
            )
            others = [b for b in p.library if b != card]
            return _set_turn(state, book=True, stage="rescore", rescore_left=min(2, len(others)))
        case GuestArrived(seat=seat, card=card, pay=pay):
            state = _pay(state, seat, pay)
            p = state.players[seat]
            sel = None if p.selected == card else p.selected
            state = state.with_player(seat, attrs.evolve(p, guests=(*p.guests, card), selected=sel))
            return _set_turn(state, stage="rescore", rescore_left=min(1, len(p.guests)))
        case UnfinishedTaken(seat=seat, pile=pile, card=card, pay=pay):
            state = _pay(state, seat, pay)
            i = PILES.index(pile)
            piles = (*state.unfinished[:i], state.unfinished[i][1:], *state.unfinished[i + 1 :])
            state = attrs.evolve(state, unfinished=piles)
            stage = "source" if ACTIONS[card].kind == "double" else "act"
            return _set_turn(state, card=card, free=True, stage=stage)
        case TaskFulfilled(seat=seat, card=card, pay=pay):
            state = _fulfil(state, seat, card, pay)
            if pay:
                state = attrs.evolve(state, turn=_turn_or_special(state, seat, stage="end"))
            elif TASKS[card].kind == "alms":
                state = _set_turn(state, stage="alms")
            return state
        case AlmsChosen(seat=seat, tiles=tiles):
            state = _gain(state, seat, tiles, True)
            return _set_turn(state, stage="end")
        case CordonRemoved(seat=seat, card=card, pay=pay):
            state = _fulfil(state, seat, card, pay)
            state = attrs.evolve(state, cordon="")
            return attrs.evolve(state, turn=_turn_or_special(state, seat, stage="end"))
        case TurnEnded(seat=seat):
            t = state.turn
            assert t is not None
            p = state.players[seat]
            spent = p.used
            for c in dict.fromkeys((t.selected, t.card)):
                if c and c not in p.library and c not in p.guests:
                    spent = (*spent, c)
            if t.via == "action":
                p = attrs.evolve(p, used=spent, selected=None)
                state = state.with_player(seat, p)
                return attrs.evolve(state, turn=None, order=(*state.order, seat))
            nxt = state.special_order.index(seat) + 1
            return attrs.evolve(state, turn=None, special_next=nxt)
        case SpecialsStarted(order=order):
            return attrs.evolve(state, phase="special", special_order=order, special_next=0)
        case SpecialPassed(seat=seat):
            state = state.with_player(seat, attrs.evolve(state.players[seat], passed=True))
            return attrs.evolve(state, special_next=state.special_order.index(seat) + 1)
        case RoundEnded():
            board = []
            discard = list(state.task_discard)
            for c, status in state.board:
                if status in ("open", "halt"):
                    board.append((c, status))
                elif status in ("brown", "event"):
                    discard.append(c)
            reset = tuple(attrs.evolve(pl, passed=False, begged=False) for pl in state.players)
            state = attrs.evolve(
                state,
                board=tuple(board),
                task_discard=tuple(discard),
                players=reset,
                queue=(),
                beg_queue=(),
                priority=state.order or state.priority,
                special_order=(),
                special_next=0,
            )
            if all(not pl.this_year for pl in reset):
                if state.year == 1:
                    return attrs.evolve(state, year=2, phase="round_start")
                return attrs.evolve(state, phase="scoring")
            return attrs.evolve(state, phase="round_start")
        case GameEnded(scores=scores, team_score=team, pigment=pig, outcome=outcome, qualified=q):
            return attrs.evolve(
                state,
                phase="over",
                final_scores=tuple(scores),
                team_score=team,
                pigment=pig,
                outcome=outcome,
                qualified=q,
            )
    raise TypeError(f"not a Campus Galli event: {event!r}")


def _action_done(state: State) -> State:
    """The action of the turn is complete. Level II+ action turns then offer a last chance to
    exchange tiles before the end-of-turn tasks are judged, when an exchange is possible."""
    t = state.turn
    assert t is not None
    if state.level > 1 and t.via == "action" and can_exchange(state, t.seat):
        return _set_turn(state, stage="exchange")
    return _set_turn(state, stage="end")


def _parchment(state: State) -> list[str]:
    return [b for b in ALL_LETTERS if b not in state.construction]


def _after_flip_prompt(state: State) -> State:
    t = state.turn
    assert t is not None
    flips = t.flips - 1
    if flips <= 0 or not _parchment(state):
        return _set_turn(state, flips=0, stage="lazy")
    return _set_turn(state, flips=flips)


__all__ = ["PILES", "evolve", "reconcile"]
