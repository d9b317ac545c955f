"""Check a command against the rules and return the events it causes, automatic ones included."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

import attrs

from ..errors import GameOver, InvalidCommand, NotYourTurn, RuleViolation, UnknownCommand
from ..randomness import Context
from ..simultaneous import ChoiceCommitted
from ..viewers import Seat
from . import commands as C
from .content import ACTIONS, COLOURS, PLAN, SECTIONS, SHAPES, TASKS
from .events import (
    AlmsChosen,
    BegDeclared,
    Begged,
    BookProduced,
    BuildForfeited,
    BuildingCompleted,
    BuildingFlipped,
    CardRescored,
    CordonRemoved,
    EventDeclined,
    EventPaid,
    ExchangesFinished,
    FlipDeclined,
    GuestArrived,
    MonkPlaced,
    ReconstructionStarted,
    RescoreFinished,
    SectionPlaced,
    SectionTaken,
    SourceChosen,
    SpecialPassed,
    TaskFulfilled,
    TilesExchanged,
    TilesGained,
    UnfinishedTaken,
)
from .evolve import PILES, evolve
from .flow import auto_events, special_seat
from .geometry import cells_of, geometry_problem, placement
from .legal import EXCHANGE_STAGES, SIMULTANEOUS_EVENTS, guest_monks, legal_commands, to_act
from .queries import (
    ALL_LETTERS,
    BUILDING_MASK,
    canonical,
    capped,
    card_cost,
    is_complete,
    master_builder_allowed,
    matches,
    placement_problem,
    reward_options,
    tiles_for_lay,
)
from .state import State, Turn, add_tiles

__all__ = ["advance", "decide"]

_MAX_AUTO = 10_000
_SOURCE_NAMES = {"hut": "builders' hut", "bag": "prayer pouch"}


def advance(state: State, events: list[Any], ctx: Context) -> tuple[State, list[Any]]:
    """Apply ``events`` and then every automatic event until a player must act."""
    for e in events:
        state = evolve(state, e)
    out = list(events)
    for _ in range(_MAX_AUTO):
        more = auto_events(state, ctx)
        if not more:
            return state, out
        for e in more:
            state = evolve(state, e)
        out += more
    raise RuntimeError("Campus Galli automatic phases did not settle")


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _is_tiles(v: Any) -> bool:
    return isinstance(v, tuple) and all(isinstance(x, str) for x in v)


def _checker(tp: Any) -> Callable[[Any], bool]:
    if tp is str:
        return _is_str
    if tp is int:
        return _is_int
    if tp is bool:
        return _is_bool
    return _is_tiles


_FIELD_CHECKS: dict[type, tuple[tuple[str, Callable[[Any], bool]], ...]] = {
    cls: tuple((name, _checker(tp)) for name, tp in typing.get_type_hints(cls).items())
    for cls in C.COMMAND_TYPES
}


def _check_fields(command: Any) -> None:
    for name, check in _FIELD_CHECKS[type(command)]:
        if not check(getattr(command, name)):
            raise InvalidCommand(f"field {name!r} of {type(command).__name__} has the wrong type")


def _tiles_ok(tiles: tuple[str, ...]) -> None:
    if not canonical(tiles):
        raise InvalidCommand(
            "tiles are named R, B, G or Y and listed in the order R, B, G, Y", code="bad_tiles"
        )


def _listed(state: State, seat: Seat, command: Any, message: str, code: str) -> None:
    if command not in legal_commands(state, seat):
        raise RuleViolation(message, code=code)


def _who(state: State) -> str:
    seats = sorted(to_act(state))
    return ", ".join(f"player {s + 1}" for s in seats) or "nobody"


def decide(state: State, seat: Seat, command: Any, ctx: Context) -> list[Any]:
    if state.phase == "over":
        raise GameOver("the game is over")
    if type(command) not in C.COMMAND_TYPES:
        raise UnknownCommand(f"Campus Galli has no command {type(command).__name__}")
    _check_fields(command)
    if not isinstance(seat, int) or not 0 <= seat < state.n:
        raise InvalidCommand(f"there is no seat {seat!r}")
    for f in attrs.fields(type(command)):
        if f.name in ("pay", "tiles", "give"):
            _tiles_ok(getattr(command, f.name))
    if isinstance(command, C.SelectActionCard) != (state.phase == "select"):
        raise _wrong(
            "select an action card first"
            if state.phase == "select"
            else "action cards are selected only at the start of a round"
        )
    if state.phase == "select":
        events = _select(state, seat, command)
    else:
        if seat not in to_act(state):
            # The same code as every game's for a seat the game is not waiting on.
            if state.phase == "event" and seat in state.choices.committed_seats:
                raise NotYourTurn("you have already answered this event")
            raise NotYourTurn(f"the game is waiting for {_who(state)}")
        events = _handle(state, seat, command, ctx)
    _, out = advance(state, events, ctx)
    return out


def _select(state: State, seat: Seat, cmd: C.SelectActionCard) -> list[Any]:
    if seat not in state.choices.waiting_on:
        raise NotYourTurn("you have already selected your action card this round")
    if cmd.card not in state.players[seat].hand:
        raise RuleViolation("that card is not among the action cards you drew", code="not_in_hand")
    choices = state.choices.commit(seat, (cmd.card,))
    events: list[Any] = [ChoiceCommitted(seat, (cmd.card,))]
    if choices.complete:
        events.append(choices.revealed())
    return events


def _wrong(what: str) -> RuleViolation:
    return RuleViolation(what, code="wrong_step")


def _handle(state: State, seat: Seat, cmd: Any, ctx: Context) -> list[Any]:
    if state.phase == "event":
        return _event(state, seat, cmd)
    t = state.turn
    if t is None:
        return _special(state, seat, cmd, ctx)
    p = state.players[seat]
    card = ACTIONS[t.card] if t.card else None
    match cmd:
        case C.SelectActionCard():
            raise _wrong("action cards are selected only at the start of a round")
        case C.ExchangeTiles(give=give, take=take):
            if state.level == 1:
                raise RuleViolation("there are no tiles in level I", code="no_tiles")
            if t.stage not in EXCHANGE_STAGES:
                raise _wrong("tiles are exchanged during your own turn, not while begging")
            _exchange_checks(state, seat, give, take)
            return [TilesExchanged(seat, give, take)]
        case C.DeclareBeg():
            if state.level == 1:
                raise RuleViolation("there is no begging in level I", code="no_begging")
            if card is not None and card.kind == "angel":
                raise RuleViolation("angels cost nothing: you cannot beg", code="angel_cannot_beg")
            if t.stage not in ("source", "act") or t.free:
                raise _wrong("you can only beg before you pay for your action")
            return [BegDeclared(seat)]
        case C.ChooseSource(source=source):
            if t.stage != "source":
                raise _wrong("only a double-coloured card chooses between bag and hut")
            if source not in ("hut", "bag"):
                raise InvalidCommand("source must be 'hut' or 'bag'")
            _listed(
                state,
                seat,
                cmd,
                f"you cannot use the {_SOURCE_NAMES[source]} now: no allowed section "
                "can be laid or you lack the tile",
                "source_unavailable",
            )
            return [SourceChosen(seat, source)]
        case C.TakeFromHut(section=section, pay=pay):
            _build_stage(t, card)
            assert card is not None
            if section not in SECTIONS:
                raise InvalidCommand(f"there is no building section {section!r}")
            if section not in state.hut:
                raise RuleViolation("that section is not in the builders' hut", code="not_in_hut")
            _pay_ok(state, t, seat, pay, t.source)
            _listed(
                state,
                seat,
                cmd,
                "your action card does not allow that section, or it fits nowhere on the plan",
                "section_not_allowed",
            )
            return [SectionTaken(seat, section, "hut", pay)]
        case C.DrawFromBag(shape=shape, pay=pay):
            _build_stage(t, card)
            if shape not in SHAPES:
                raise InvalidCommand(f"there is no shape {shape!r}")
            if not any(SECTIONS[s].shape == shape for s in state.bag):
                raise RuleViolation("no section of that shape is left in the bag", code="bag_empty")
            _pay_ok(state, t, seat, pay, t.source)
            _listed(
                state,
                seat,
                cmd,
                "your action card does not allow that shape, or it fits nowhere on the plan",
                "shape_not_allowed",
            )
            drawn = ctx.rng.choice(sorted(s for s in state.bag if SECTIONS[s].shape == shape))
            return [SectionTaken(seat, drawn, "bag", pay)]
        case C.ForfeitBuild():
            _listed(state, seat, cmd, "you can still lay a section, so you must", "build_possible")
            return [BuildForfeited(seat)]
        case C.PlaceSection(x=x, y=y, orientation=o, master_builder=master):
            if t.stage != "place":
                raise _wrong("you have no building section to lay")
            return _place(state, seat, t, x, y, o, master)
        case C.FlipBuilding(building=b, master_builder=master):
            if t.stage != "flip":
                raise _wrong("you may flip a building only after completing one in level I")
            if not master and (b == "" or p.supply == 0):
                raise RuleViolation(
                    "no master builder would be placed: there is nothing to decline",
                    code="no_master_builder",
                )
            if b == "":
                return [FlipDeclined(seat)]
            if b not in PLAN.buildings:
                raise InvalidCommand(f"there is no monastery building {b!r}")
            if b in state.construction:
                raise RuleViolation(
                    "that building already shows its construction side", code="not_parchment"
                )
            out: list[Any] = [BuildingFlipped(b, "completion", seat)]
            if p.supply > 0 and master:
                out.append(MonkPlaced(seat, "grass", building=b))
            return out
        case C.ProduceBook(pay=pay, tile=tile) | C.BringGuest(pay=pay, tile=tile):
            kind = "book" if isinstance(cmd, C.ProduceBook) else "guest"
            if t.stage != "act" or card is None or card.kind != kind:
                raise _wrong(f"your action card is not a {kind} card")
            _pay_ok(state, t, seat, pay, "")
            if tile not in reward_options(card):
                raise RuleViolation("that tile is not the card's reward", code="wrong_reward")
            gained = capped(state.tile_supply, (tile,) if tile else ())
            if isinstance(cmd, C.ProduceBook):
                return [BookProduced(seat, card.id, pay), TilesGained(seat, gained, "book")]
            monks = guest_monks(state, seat, card.id)
            if not cmd.monks and not monks:
                raise RuleViolation(
                    "this guest brings no monk (its building is not built, or your supply is "
                    "empty): there is nothing to decline",
                    code="no_guest_monk",
                )
            out = [GuestArrived(seat, card.id, pay), TilesGained(seat, gained, "guest")]
            if cmd.monks:
                b = card.guest_building
                out += [MonkPlaced(seat, "guest", building=b)] * monks
            return out
        case C.Rescore(card=c, tile=tile):
            if t.stage != "rescore":
                raise _wrong("you may score earlier cards again only after a book or guest")
            _listed(state, seat, cmd, "you cannot score that card again now", "cannot_rescore")
            return [
                CardRescored(seat, c),
                TilesGained(seat, capped(state.tile_supply, (tile,) if tile else ()), "rescore"),
            ]
        case C.EndTurn():
            if t.stage == "exchange":
                return [ExchangesFinished(seat)]
            if t.stage != "rescore":
                raise _wrong("there is nothing to finish now")
            return [RescoreFinished(seat)]
        case C.ChooseLazyMonk(monk=monk):
            if t.stage != "lazy_monk":
                raise _wrong("no lazy monk is owed now")
            _listed(
                state,
                seat,
                cmd,
                "name one of your own master builders or guest monks on the plan",
                "not_your_monk",
            )
            return [MonkPlaced(seat, "lazy", cells=cells_of(t.owed[0]), replaces=monk)]
        case C.TakeUnfinished(pile=pile, pay=pay):
            if t.stage != "act" or card is None or card.kind != "unfinished":
                raise _wrong("only the unfinished-tasks card takes from that board")
            if pile not in PILES:
                raise InvalidCommand("pile must be R, B, G or Y")
            if not state.unfinished[PILES.index(pile)]:
                raise RuleViolation("that unfinished-tasks pile is empty", code="pile_empty")
            _pay_ok(state, t, seat, pay, "")
            _listed(state, seat, cmd, "that card's action cannot be carried out now", "not_doable")
            return [UnfinishedTaken(seat, pile, state.unfinished[PILES.index(pile)][0], pay)]
        case C.ChooseTiles(tiles=tiles):
            if t.stage != "alms":
                raise _wrong("only the Alms task lets you choose tiles now")
            _listed(state, seat, cmd, "choose 2 tiles that are in the supply", "not_in_supply")
            return [AlmsChosen(seat, tiles)]
        case C.Beg(tiles=tiles):
            if t.stage != "beg":
                raise _wrong("it is not your begging turn")
            _listed(state, seat, cmd, "choose 2 tiles that are in the supply", "not_in_supply")
            return [Begged(seat, tiles)]
    raise _wrong(f"{type(cmd).__name__} is not possible at this point of your turn")


def _build_stage(t: Turn, card: Any) -> None:
    if t.stage != "act" or card is None or card.kind not in ("red", "blue", "double", "angel"):
        raise _wrong("your action card does not let you take a building section now")


def _pay_ok(state: State, t: Turn, seat: Seat, pay: tuple[str, ...], source: str) -> None:
    cost = card_cost(state, t, source)
    if not matches(cost, pay):
        raise RuleViolation(
            f"this action costs {' + '.join(cost) or 'nothing'}; pay exactly that",
            code="wrong_payment",
        )
    tiles = state.players[seat].tiles
    if any(pay.count(c) > tiles[i] for i, c in enumerate(COLOURS)):
        raise RuleViolation("you do not have those tiles", code="missing_tiles")


def _exchange_checks(state: State, seat: Seat, give: tuple[str, ...], take: str) -> None:
    if len(give) != 3:
        raise InvalidCommand("give exactly 3 tiles")
    if take not in COLOURS:
        raise InvalidCommand("take must be R, B, G or Y")
    tiles = state.players[seat].tiles
    if any(give.count(c) > tiles[i] for i, c in enumerate(COLOURS)):
        raise RuleViolation("you do not have those tiles", code="missing_tiles")
    if state.tile_supply[COLOURS.index(take)] == 0:
        raise RuleViolation("no tile of that colour is left in the supply", code="not_in_supply")


def _place(
    state: State, seat: Seat, t: Turn, x: int, y: int, o: int, master: bool = True
) -> list[Any]:
    shape = SECTIONS[t.holding].shape
    pl = placement(shape, x, y, o)
    if pl is None:
        problem = geometry_problem(shape, x, y, o)
        messages = {
            "bad_orientation": "that orientation does not exist for this shape",
            "off_plan": "the section would stick out of the monastery plan",
            "tree": "you can build over grass, but not over trees",
            "no_wooden_space": "a section must replace at least 1 space of a wooden building",
        }
        assert problem is not None
        if problem in ("bad_orientation", "off_plan"):
            raise InvalidCommand(messages[problem], code=problem)
        raise RuleViolation(messages[problem], code=problem)
    problem = placement_problem(state, pl, t.moving)
    if problem is not None:
        messages = {
            "occupied": "you cannot lay building sections on other building sections",
            "parchment": "you cannot lay building sections on the parchment side of a building",
            "construction_halt": "construction is halted there: the cordon blocks that building",
            "same_position": "the section must move to a new position",
        }
        raise RuleViolation(messages[problem], code=problem)
    section = t.holding
    would_place = (
        state.level == 1
        and t.via == "action"
        and master_builder_allowed(section, pl.mask)
        and state.players[seat].supply > 0
    )
    if not master and not would_place:
        raise RuleViolation(
            "no master builder would be placed on this lay (level I, both conditions of "
            "step b, a monk in supply): there is nothing to decline",
            code="no_master_builder",
        )
    out: list[Any] = [SectionPlaced(seat, section, x, y, o, pl.cells)]
    after = evolve(state, out[0])
    if t.via == "action":
        if state.level == 1:
            if would_place and master:
                out.append(MonkPlaced(seat, "section", section=section))
        else:
            gained = capped(state.tile_supply, tiles_for_lay(section, pl.mask))
            if gained:
                out.append(TilesGained(seat, gained, "lay"))
    for b in ALL_LETTERS:
        if BUILDING_MASK[b] & pl.mask and is_complete(after, b):
            out.append(BuildingCompleted(b))
    return out


def _event(state: State, seat: Seat, cmd: Any) -> list[Any]:
    ev = state.event
    assert ev is not None
    match cmd:
        case C.RespondFeastDay(guests=cards, rewards=rewards) if ev.kind == "feast":
            pool = state.players[seat].guests
            _score_day_checks(cards, rewards, pool, "guests")
            _listed(state, seat, cmd, "that is not a reward of that guest", "wrong_reward")
            return _answer(state, seat, _score_choice(cards, rewards))
        case C.RespondStudyDay(books=cards, rewards=rewards) if ev.kind == "study":
            pool = state.players[seat].library
            _score_day_checks(cards, rewards, pool, "books")
            _listed(state, seat, cmd, "that is not a reward of that book", "wrong_reward")
            return _answer(state, seat, _score_choice(cards, rewards))
        case C.PayEvent(pay=pay, building=building) if ev.kind not in ("feast", "study"):
            _listed(
                state,
                seat,
                cmd,
                "that is not what the event asks you to spend (or you lack the tiles)",
                "wrong_payment",
            )
            if ev.kind in SIMULTANEOUS_EVENTS:
                return _answer(state, seat, ("pay", building, *pay))
            return [EventPaid(seat, pay, "card", building)]
        case C.DeclineEvent(lose=lose) if ev.kind not in ("feast", "study"):
            _listed(
                state,
                seat,
                cmd,
                "name a book (fire) or a building with your guest monk (epidemic) to lose",
                "bad_loss",
            )
            if ev.kind in SIMULTANEOUS_EVENTS:
                return _answer(state, seat, ("decline", lose))
            return [EventDeclined(seat, lose)]
    raise _wrong(f"answer the {TASKS[ev.card].kind.replace('_', ' ')} card first")


def _score_day_checks(
    cards: tuple[str, ...], rewards: tuple[str, ...], pool: tuple[str, ...], what: str
) -> None:
    if len(cards) != len(rewards):
        raise InvalidCommand(f"give one reward per card: {len(cards)} {what}, {len(rewards)}")
    if len(cards) > 2:
        raise RuleViolation(f"each player can score up to 2 of their {what}", code="too_many")
    if len(set(cards)) != len(cards):
        raise RuleViolation("each card scores at most once (DD-47)", code="scored_twice")
    if any(c not in pool for c in cards):
        raise RuleViolation(f"you can score only your own {what}", code=f"not_your_{what[:-1]}")
    if list(cards) != [c for c in pool if c in cards]:
        raise InvalidCommand(f"list the {what} in the order you hold them", code="bad_order")


def _score_choice(cards: tuple[str, ...], rewards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{c}:{r}" for c, r in zip(cards, rewards, strict=True))


def _answer(state: State, seat: Seat, answer: tuple[str, ...]) -> list[Any]:
    """Fire, epidemic, new arrivals, feast and study day are answered secretly and applied
    together in priority order (DD-22, DD-47)."""
    ev = state.event
    assert ev is not None
    choices = state.choices.commit(seat, answer)
    events: list[Any] = [ChoiceCommitted(seat, answer)]
    if not choices.complete:
        return events
    events.append(choices.revealed())
    if ev.kind in ("feast", "study"):
        # Each player's cards pay their rewards again; a tile out of stock is lost (DD-15).
        supply = state.tile_supply
        for s in ev.queue:
            for entry in choices.choice_of(s) or ():
                card, _, tile = entry.partition(":")
                gained = capped(supply, (tile,) if tile else ())
                supply = add_tiles(supply, gained, -1)
                events += [CardRescored(s, card), TilesGained(s, gained, ev.kind)]
            events.append(RescoreFinished(s))
        return events
    successes = ev.successes
    for s in ev.queue:  # priority order: the first success takes the card itself
        a = choices.choice_of(s) or ("decline", "")
        if a[0] == "pay":
            reward = "card" if successes == 0 else "coop"
            successes += 1
            if ev.kind == "new_arrivals":
                reward = "monk"
            events.append(EventPaid(s, tuple(a[2:]), reward, a[1]))
        else:
            events.append(EventDeclined(s, a[1]))
    return events


def _special(state: State, seat: Seat, cmd: Any, ctx: Context) -> list[Any]:
    if state.phase != "special" or special_seat(state) != seat:
        raise NotYourTurn(f"the game is waiting for {_who(state)}")
    p = state.players[seat]
    match cmd:
        case C.PassSpecial():
            return [SpecialPassed(seat)]
        case C.ExchangeTiles(give=give, take=take):
            _exchange_checks(state, seat, give, take)
            return [TilesExchanged(seat, give, take)]
        case C.SpecialFulfillTask(task=task, pay=pay):
            if not any(c == task and s == "open" for c, s in state.board):
                raise RuleViolation("that task is not open on the task board", code="not_on_board")
            if TASKS[task].kind != "tile_task":
                raise RuleViolation(
                    "that task is not fulfilled by spending tiles", code="not_tile_task"
                )
            _listed(state, seat, cmd, "pay exactly the tiles the task shows", "wrong_payment")
            return [TaskFulfilled(seat, task, pay)]
        case C.SpecialExpand(building=b, master_builder=master):
            if b not in PLAN.buildings:
                raise InvalidCommand(f"there is no monastery building {b!r}")
            if b in state.construction:
                raise RuleViolation(
                    "that building already shows its construction side", code="not_parchment"
                )
            cost = tuple(sorted(PLAN.buildings[b].expansion_cost, key=COLOURS.index))
            if any(cost.count(c) > p.tiles[i] for i, c in enumerate(COLOURS)):
                raise RuleViolation(
                    f"expanding costs the 3 tiles on its parchment side: {' '.join(cost)}",
                    code="missing_tiles",
                )
            if not master and p.supply == 0:
                raise RuleViolation(
                    "you have no monk in supply: there is no master builder to decline",
                    code="no_master_builder",
                )
            out: list[Any] = [BuildingFlipped(b, "expansion", seat, cost)]
            if p.supply > 0 and master:
                out.append(MonkPlaced(seat, "grass", building=b))
            return out
        case C.SpecialBuyFromHut(section=section, pay=pay):
            if section not in state.hut:
                raise RuleViolation("that section is not in the builders' hut", code="not_in_hut")
            _listed(
                state,
                seat,
                cmd,
                "a section costs 3 tiles of its colour plus 2 of any colour, and must fit",
                "wrong_payment",
            )
            return [SectionTaken(seat, section, "hut", pay, "special")]
        case C.SpecialBuyFromBag(shape=shape, pay=pay):
            if not any(SECTIONS[s].shape == shape for s in state.bag):
                raise RuleViolation("no section of that shape is left in the bag", code="bag_empty")
            _listed(
                state,
                seat,
                cmd,
                "the prayer pouch costs 1 tile of each colour plus 1 of any colour",
                "wrong_payment",
            )
            drawn = ctx.rng.choice(sorted(s for s in state.bag if SECTIONS[s].shape == shape))
            return [SectionTaken(seat, drawn, "bag", pay, "special")]
        case C.SpecialRemoveHalt(pay=pay):
            halt = next((c for c, s in state.board if s == "halt"), None)
            if halt is None:
                raise RuleViolation("there is no construction halt to remove", code="no_halt")
            _listed(state, seat, cmd, "pay exactly the tiles the halt card shows", "wrong_payment")
            return [CordonRemoved(seat, halt, pay)]
        case C.SpecialReconstruct(task=task, section=section, pay=pay):
            if not any(c == task and s == "open" for c, s in state.board):
                raise RuleViolation("that task is not open on the task board", code="not_on_board")
            _listed(
                state,
                seat,
                cmd,
                "reconstruction moves a laid section of the card's shape to a new legal spot",
                "cannot_reconstruct",
            )
            return [ReconstructionStarted(seat, task, section, pay)]
    raise _wrong(f"{type(cmd).__name__} is not a special action")
