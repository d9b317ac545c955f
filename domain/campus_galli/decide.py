"""Check a command against the rules and return the events it causes, automatic ones included.

Every decision is built on the kernel's :class:`~domain.transaction.Transaction`: a check
reads ``tx.state``, an event is emitted into ``tx`` (and folded at once), and ``settle``
then emits the automatic events until a player must act. The answers to events (fire,
feast day, ...) are in ``flow.py``.
"""

from __future__ import annotations

from ..errors import GameOver, InvalidCommand, NotYourTurn, RuleViolation, UnknownCommand
from ..randomness import Context
from ..simultaneous import ChoiceCommitted
from ..transaction import Transaction
from ..viewers import Seat
from . import commands as C
from .content import ACTIONS, COLOURS, PLAN, SECTIONS, SHAPES, TASKS, ActionCard
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
    Event,
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
from .evolve import evolve
from .flow import answer_event, auto_events
from .geometry import cells_of, geometry_problem, placement
from .legal import EXCHANGE_STAGES, guest_monks, listed, special_seat, to_act, wrong_step
from .queries import (
    ALL_LETTERS,
    BUILDING_MASK,
    capped,
    card_cost,
    is_complete,
    master_builder_allowed,
    matches,
    placement_problem,
    reward_options,
    tiles_for_lay,
)
from .state import PILES, Phase, Stage, State, Turn

__all__ = ["Tx", "advance", "decide", "settle"]

Tx = Transaction[State, Event]
"""A Campus Galli decision in progress."""

_MAX_AUTO = 10_000
_SOURCE_NAMES = {"hut": "builders' hut", "bag": "prayer pouch"}
_BUILDING_KINDS = ("red", "blue", "double", "angel")


def settle(tx: Tx, ctx: Context) -> None:
    """Emit every automatic event (refills, events, turn order, scoring) until a player
    must act."""
    for _ in range(_MAX_AUTO):
        more = auto_events(tx.state, ctx)
        if not more:
            return
        tx.extend(more)
    raise RuntimeError("Campus Galli automatic phases did not settle")


def advance(state: State, events: list[Event], ctx: Context) -> tuple[State, list[Event]]:
    """Apply ``events`` and then every automatic event until a player must act."""
    tx = Tx(state, evolve, ctx.rng)
    tx.extend(events)
    settle(tx, ctx)
    return tx.state, tx.events


def _who(state: State) -> str:
    seats = sorted(to_act(state))
    return ", ".join(f"player {s + 1}" for s in seats) or "nobody"


def decide(state: State, seat: Seat, command: C.Command, ctx: Context) -> list[Event]:
    if state.phase is Phase.OVER:
        raise GameOver("the game is over")
    if type(command) not in C.COMMAND_TYPES:
        raise UnknownCommand(f"Campus Galli has no command {type(command).__name__}")
    C.check_shape(command)
    if not isinstance(seat, int) or not 0 <= seat < state.n:
        raise InvalidCommand(f"there is no seat {seat!r}")
    selecting = state.phase is Phase.SELECT
    if isinstance(command, C.SelectActionCard) != selecting:
        raise wrong_step(
            "select an action card first"
            if selecting
            else "action cards are selected only at the start of a round"
        )
    tx = Tx(state, evolve, ctx.rng)
    if isinstance(command, C.SelectActionCard):
        _select(tx, seat, command)
    else:
        if seat not in to_act(state):
            # The same code as every game's for a seat the game is not waiting on.
            if state.phase is Phase.EVENT and seat in state.choices.committed_seats:
                raise NotYourTurn("you have already answered this event")
            raise NotYourTurn(f"the game is waiting for {_who(state)}")
        if state.phase is Phase.EVENT:
            answer_event(tx, seat, command)
        elif state.turn is None:
            _special(tx, seat, command, ctx)
        else:
            _turn_command(tx, seat, state.turn, command, ctx)
    settle(tx, ctx)
    return tx.events


def _select(tx: Tx, seat: Seat, cmd: C.SelectActionCard) -> None:
    state = tx.state
    if seat not in state.choices.waiting_on:
        raise NotYourTurn("you have already selected your action card this round")
    if cmd.card not in state.players[seat].hand:
        raise RuleViolation("that card is not among the action cards you drew", code="not_in_hand")
    tx.emit(ChoiceCommitted(seat, (cmd.card,)))
    if tx.state.choices.complete:
        tx.emit(tx.state.choices.revealed())


def _turn_command(tx: Tx, seat: Seat, t: Turn, cmd: C.Command, ctx: Context) -> None:
    """A command in the seat's own action turn (or a special action's follow-up)."""
    state = tx.state
    p = state.players[seat]
    card = ACTIONS[t.card] if t.card else None
    match cmd:
        case C.ExchangeTiles(give=give, take=take):
            if state.level == 1:
                raise RuleViolation("there are no tiles in level I", code="no_tiles")
            if t.stage not in EXCHANGE_STAGES:
                raise wrong_step("tiles are exchanged during your own turn, not while begging")
            _exchange_checks(state, seat, give, take)
            tx.emit(TilesExchanged(seat, give, take))
        case C.DeclareBeg():
            if state.level == 1:
                raise RuleViolation("there is no begging in level I", code="no_begging")
            if card is not None and card.kind == "angel":
                raise RuleViolation("angels cost nothing: you cannot beg", code="angel_cannot_beg")
            if t.stage not in (Stage.SOURCE, Stage.ACT) or t.free:
                raise wrong_step("you can only beg before you pay for your action")
            tx.emit(BegDeclared(seat))
        case C.ChooseSource(source=source):
            if t.stage is not Stage.SOURCE:
                raise wrong_step("only a double-coloured card chooses between bag and hut")
            if source not in ("hut", "bag"):
                raise InvalidCommand("source must be 'hut' or 'bag'")
            listed(
                state,
                seat,
                cmd,
                f"you cannot use the {_SOURCE_NAMES[source]} now: no allowed section "
                "can be laid or you lack the tile",
                "source_unavailable",
            )
            tx.emit(SourceChosen(seat, source))
        case C.TakeFromHut(section=section, pay=pay):
            _build_stage(t, card)
            if section not in SECTIONS:
                raise InvalidCommand(f"there is no building section {section!r}")
            if section not in state.hut:
                raise RuleViolation("that section is not in the builders' hut", code="not_in_hut")
            _pay_ok(state, t, seat, pay, t.source)
            listed(
                state,
                seat,
                cmd,
                "your action card does not allow that section, or it fits nowhere on the plan",
                "section_not_allowed",
            )
            tx.emit(SectionTaken(seat, section, "hut", pay))
        case C.DrawFromBag(shape=shape, pay=pay):
            _build_stage(t, card)
            if shape not in SHAPES:
                raise InvalidCommand(f"there is no shape {shape!r}")
            if not any(SECTIONS[s].shape == shape for s in state.bag):
                raise RuleViolation("no section of that shape is left in the bag", code="bag_empty")
            _pay_ok(state, t, seat, pay, t.source)
            listed(
                state,
                seat,
                cmd,
                "your action card does not allow that shape, or it fits nowhere on the plan",
                "shape_not_allowed",
            )
            drawn = ctx.rng.choice(sorted(s for s in state.bag if SECTIONS[s].shape == shape))
            tx.emit(SectionTaken(seat, drawn, "bag", pay))
        case C.ForfeitBuild():
            listed(state, seat, cmd, "you can still lay a section, so you must", "build_possible")
            tx.emit(BuildForfeited(seat))
        case C.PlaceSection(x=x, y=y, orientation=o, master_builder=master):
            if t.stage is not Stage.PLACE:
                raise wrong_step("you have no building section to lay")
            _place(tx, seat, t, x, y, o, master)
        case C.FlipBuilding(building=b, master_builder=master):
            if t.stage is not Stage.FLIP:
                raise wrong_step("you may flip a building only after completing one in level I")
            if not master and (b == "" or p.supply == 0):
                raise RuleViolation(
                    "no master builder would be placed: there is nothing to decline",
                    code="no_master_builder",
                )
            if b == "":
                tx.emit(FlipDeclined(seat))
                return
            if b not in PLAN.buildings:
                raise InvalidCommand(f"there is no monastery building {b!r}")
            if b in state.construction:
                raise RuleViolation(
                    "that building already shows its construction side", code="not_parchment"
                )
            tx.emit(BuildingFlipped(b, "completion", seat))
            if p.supply > 0 and master:
                tx.emit(MonkPlaced(seat, "grass", building=b))
        case C.ProduceBook(pay=pay, tile=tile) | C.BringGuest(pay=pay, tile=tile):
            kind = "book" if isinstance(cmd, C.ProduceBook) else "guest"
            if t.stage is not Stage.ACT or card is None or card.kind != kind:
                raise wrong_step(f"your action card is not a {kind} card")
            _pay_ok(state, t, seat, pay, "")
            if tile not in reward_options(card):
                raise RuleViolation("that tile is not the card's reward", code="wrong_reward")
            gained = capped(state.tile_supply, (tile,) if tile else ())
            if isinstance(cmd, C.ProduceBook):
                tx.emit(BookProduced(seat, card.id, pay), TilesGained(seat, gained, "book"))
                return
            monks = guest_monks(state, seat, card.id)
            if not cmd.monks and not monks:
                raise RuleViolation(
                    "this guest brings no monk (its building is not built, or your supply is "
                    "empty): there is nothing to decline",
                    code="no_guest_monk",
                )
            tx.emit(GuestArrived(seat, card.id, pay), TilesGained(seat, gained, "guest"))
            if cmd.monks:
                tx.extend([MonkPlaced(seat, "guest", building=card.guest_building)] * monks)
        case C.Rescore(card=c, tile=tile):
            if t.stage is not Stage.RESCORE:
                raise wrong_step("you may score earlier cards again only after a book or guest")
            listed(state, seat, cmd, "you cannot score that card again now", "cannot_rescore")
            gained = capped(state.tile_supply, (tile,) if tile else ())
            tx.emit(CardRescored(seat, c), TilesGained(seat, gained, "rescore"))
        case C.EndTurn():
            if t.stage is Stage.EXCHANGE:
                tx.emit(ExchangesFinished(seat))
            elif t.stage is Stage.RESCORE:
                tx.emit(RescoreFinished(seat))
            else:
                raise wrong_step("there is nothing to finish now")
        case C.ChooseLazyMonk(monk=monk):
            if t.stage is not Stage.LAZY_MONK:
                raise wrong_step("no lazy monk is owed now")
            listed(
                state,
                seat,
                cmd,
                "name one of your own master builders or guest monks on the plan",
                "not_your_monk",
            )
            tx.emit(MonkPlaced(seat, "lazy", cells=cells_of(t.owed[0]), replaces=monk))
        case C.TakeUnfinished(pile=pile, pay=pay):
            if t.stage is not Stage.ACT or card is None or card.kind != "unfinished":
                raise wrong_step("only the unfinished-tasks card takes from that board")
            if pile not in PILES:
                raise InvalidCommand("pile must be R, B, G or Y")
            cards = state.unfinished[PILES.index(pile)]
            if not cards:
                raise RuleViolation("that unfinished-tasks pile is empty", code="pile_empty")
            _pay_ok(state, t, seat, pay, "")
            listed(state, seat, cmd, "that card's action cannot be carried out now", "not_doable")
            tx.emit(UnfinishedTaken(seat, pile, cards[0], pay))
        case C.ChooseTiles(tiles=tiles):
            if t.stage is not Stage.ALMS:
                raise wrong_step("only the Alms task lets you choose tiles now")
            listed(state, seat, cmd, "choose 2 tiles that are in the supply", "not_in_supply")
            tx.emit(AlmsChosen(seat, tiles))
        case C.Beg(tiles=tiles):
            if t.stage is not Stage.BEG:
                raise wrong_step("it is not your begging turn")
            listed(state, seat, cmd, "choose 2 tiles that are in the supply", "not_in_supply")
            tx.emit(Begged(seat, tiles))
        case C.SelectActionCard():
            raise wrong_step("action cards are selected only at the start of a round")
        case _:
            raise wrong_step(f"{type(cmd).__name__} is not possible at this point of your turn")


def _build_stage(t: Turn, card: ActionCard | None) -> None:
    if t.stage is not Stage.ACT or card is None or card.kind not in _BUILDING_KINDS:
        raise wrong_step("your action card does not let you take a building section now")


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


_GEOMETRY_MESSAGES = {
    "bad_orientation": "that orientation does not exist for this shape",
    "off_plan": "the section would stick out of the monastery plan",
    "tree": "you can build over grass, but not over trees",
    "no_wooden_space": "a section must replace at least 1 space of a wooden building",
}
_PLACEMENT_MESSAGES = {
    "occupied": "you cannot lay building sections on other building sections",
    "parchment": "you cannot lay building sections on the parchment side of a building",
    "construction_halt": "construction is halted there: the cordon blocks that building",
    "same_position": "the section must move to a new position",
}


def _place(tx: Tx, seat: Seat, t: Turn, x: int, y: int, o: int, master: bool = True) -> None:
    state = tx.state
    shape = SECTIONS[t.holding].shape
    pl = placement(shape, x, y, o)
    if pl is None:
        problem = geometry_problem(shape, x, y, o)
        assert problem is not None
        if problem in ("bad_orientation", "off_plan"):
            raise InvalidCommand(_GEOMETRY_MESSAGES[problem], code=problem)
        raise RuleViolation(_GEOMETRY_MESSAGES[problem], code=problem)
    problem = placement_problem(state, pl, t.moving)
    if problem is not None:
        raise RuleViolation(_PLACEMENT_MESSAGES[problem], code=problem)
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
    tx.emit(SectionPlaced(seat, section, x, y, o, pl.cells))
    if t.via == "action":
        if state.level == 1:
            if would_place and master:
                tx.emit(MonkPlaced(seat, "section", section=section))
        else:
            gained = capped(state.tile_supply, tiles_for_lay(section, pl.mask))
            if gained:
                tx.emit(TilesGained(seat, gained, "lay"))
    # Neither a monk nor tiles change what is complete: the state after the lay decides.
    for b in ALL_LETTERS:
        if BUILDING_MASK[b] & pl.mask and is_complete(tx.state, b):
            tx.emit(BuildingCompleted(b))


def _special(tx: Tx, seat: Seat, cmd: C.Command, ctx: Context) -> None:
    state = tx.state
    if state.phase is not Phase.SPECIAL or special_seat(state) != seat:
        raise NotYourTurn(f"the game is waiting for {_who(state)}")
    p = state.players[seat]
    match cmd:
        case C.PassSpecial():
            tx.emit(SpecialPassed(seat))
        case C.ExchangeTiles(give=give, take=take):
            _exchange_checks(state, seat, give, take)
            tx.emit(TilesExchanged(seat, give, take))
        case C.SpecialFulfillTask(task=task, pay=pay):
            if not any(c == task and s == "open" for c, s in state.board):
                raise RuleViolation("that task is not open on the task board", code="not_on_board")
            if TASKS[task].kind != "tile_task":
                raise RuleViolation(
                    "that task is not fulfilled by spending tiles", code="not_tile_task"
                )
            listed(state, seat, cmd, "pay exactly the tiles the task shows", "wrong_payment")
            tx.emit(TaskFulfilled(seat, task, pay))
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
            tx.emit(BuildingFlipped(b, "expansion", seat, cost))
            if p.supply > 0 and master:
                tx.emit(MonkPlaced(seat, "grass", building=b))
        case C.SpecialBuyFromHut(section=section, pay=pay):
            if section not in state.hut:
                raise RuleViolation("that section is not in the builders' hut", code="not_in_hut")
            listed(
                state,
                seat,
                cmd,
                "a section costs 3 tiles of its colour plus 2 of any colour, and must fit",
                "wrong_payment",
            )
            tx.emit(SectionTaken(seat, section, "hut", pay, "special"))
        case C.SpecialBuyFromBag(shape=shape, pay=pay):
            if not any(SECTIONS[s].shape == shape for s in state.bag):
                raise RuleViolation("no section of that shape is left in the bag", code="bag_empty")
            listed(
                state,
                seat,
                cmd,
                "the prayer pouch costs 1 tile of each colour plus 1 of any colour",
                "wrong_payment",
            )
            drawn = ctx.rng.choice(sorted(s for s in state.bag if SECTIONS[s].shape == shape))
            tx.emit(SectionTaken(seat, drawn, "bag", pay, "special"))
        case C.SpecialRemoveHalt(pay=pay):
            halt = next((c for c, s in state.board if s == "halt"), None)
            if halt is None:
                raise RuleViolation("there is no construction halt to remove", code="no_halt")
            listed(state, seat, cmd, "pay exactly the tiles the halt card shows", "wrong_payment")
            tx.emit(CordonRemoved(seat, halt, pay))
        case C.SpecialReconstruct(task=task, section=section, pay=pay):
            if not any(c == task and s == "open" for c, s in state.board):
                raise RuleViolation("that task is not open on the task board", code="not_on_board")
            listed(
                state,
                seat,
                cmd,
                "reconstruction moves a laid section of the card's shape to a new legal spot",
                "cannot_reconstruct",
            )
            tx.emit(ReconstructionStarted(seat, task, section, pay))
        case _:
            raise wrong_step(f"{type(cmd).__name__} is not a special action")
