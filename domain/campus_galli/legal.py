"""Legal-move generation: exactly the commands ``decide`` accepts, for one seat."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement, product
from typing import assert_never

from ..errors import RuleViolation
from ..viewers import Seat
from .commands import (
    Beg,
    BringGuest,
    ChooseLazyMonk,
    ChooseSource,
    ChooseTiles,
    Command,
    DeclareBeg,
    DeclineEvent,
    DrawFromBag,
    EndTurn,
    ExchangeTiles,
    FlipBuilding,
    ForfeitBuild,
    PassSpecial,
    PayEvent,
    PlaceSection,
    ProduceBook,
    Rescore,
    RespondFeastDay,
    RespondStudyDay,
    SelectActionCard,
    SpecialBuyFromBag,
    SpecialBuyFromHut,
    SpecialExpand,
    SpecialFulfillTask,
    SpecialReconstruct,
    SpecialRemoveHalt,
    TakeFromHut,
    TakeUnfinished,
)
from .content import ACTIONS, COLOURS, PLAN, SECTIONS, TASKS, ActionCard
from .queries import (
    ALL_LETTERS,
    bag_options,
    bag_shapes,
    card_can_build,
    card_cost,
    dice_cost,
    hut_options,
    is_complete,
    lazy_candidates,
    legal_placements,
    master_builder_allowed,
    payments,
    reward_options,
    take_choices,
)
from .state import PILES, Phase, Stage, State, Turn

__all__ = [
    "EXCHANGE_STAGES",
    "SIMULTANEOUS_EVENTS",
    "legal_commands",
    "listed",
    "rescore_candidates",
    "special_seat",
    "to_act",
    "wrong_step",
]

SIMULTANEOUS_EVENTS = ("fire", "epidemic", "new_arrivals", "feast", "study")
"""Events every concerned player answers at once, secretly (DD-22, DD-47)."""

EXCHANGE_STAGES = frozenset(
    {Stage.SOURCE, Stage.ACT, Stage.PLACE, Stage.FLIP, Stage.RESCORE, Stage.EXCHANGE, Stage.ALMS}
)
"""Turn stages where a 3-for-1 exchange is offered ("At any point during your turn")."""


def wrong_step(what: str) -> RuleViolation:
    """A command that exists but belongs to another step of the turn or round."""
    return RuleViolation(what, code="wrong_step")


def listed(state: State, seat: Seat, command: Command, message: str, code: str) -> None:
    """Refuse ``command`` with ``code`` unless it is among ``seat``'s legal commands: the
    checks ``decide`` makes before this one name the common mistakes, this one the rest."""
    if command not in legal_commands(state, seat):
        raise RuleViolation(message, code=code)


def special_seat(state: State) -> int | None:
    order = state.special_order
    for i in range(len(order)):
        seat = order[(state.special_next + i) % len(order)]
        if not state.players[seat].passed:
            return seat
    return None


def rescore_candidates(state: State) -> list[str]:
    t = state.turn
    assert t is not None
    p = state.players[t.seat]
    pool = p.library if ACTIONS[t.card].kind == "book" else p.guests
    return [c for c in pool if c != t.card and c not in t.rescored]


def to_act(state: State) -> frozenset[Seat]:
    match state.phase:
        case Phase.SELECT:
            return state.choices.waiting_on
        case Phase.EVENT:
            ev = state.event
            if ev is None or not ev.queue:
                return frozenset()
            if ev.kind in SIMULTANEOUS_EVENTS:
                return state.choices.waiting_on
            return frozenset({ev.queue[0]})
        case Phase.TURNS | Phase.SPECIAL:
            if state.turn is not None:
                return frozenset({state.turn.seat})
            seat = special_seat(state) if state.phase is Phase.SPECIAL else None
            return frozenset() if seat is None else frozenset({seat})
        case Phase.SETUP | Phase.ROUND_START | Phase.FILL | Phase.SCORING | Phase.OVER:
            return frozenset()
        case _:
            assert_never(state.phase)


def exchanges(state: State, seat: Seat) -> list[Command]:
    tiles = state.players[seat].tiles
    out: list[Command] = []
    for give in combinations_with_replacement(COLOURS, 3):
        if all(give.count(c) <= tiles[i] for i, c in enumerate(COLOURS)):
            out += [
                ExchangeTiles(give, t) for t in COLOURS if state.tile_supply[COLOURS.index(t)] > 0
            ]
    return out


def score_answers(pool: tuple[str, ...]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Feast / study day answers: up to 2 distinct cards of ``pool`` in pool order, each with
    one of its reward choices, as (cards, rewards); the empty answer first."""
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = [((), ())]
    for k in (1, 2):
        for cards in combinations(pool, k):
            for rewards in product(*(reward_options(ACTIONS[c]) for c in cards)):
                out.append((cards, rewards))
    return out


def guest_monks(state: State, seat: Seat, card_id: str) -> int:
    """How many guest monks bringing this guest would place (0, 1 or 2)."""
    b = ACTIONS[card_id].guest_building
    if b not in state.construction:
        return 0
    return min(2 if is_complete(state, b) else 1, state.players[seat].supply)


def legal_commands(state: State, seat: Seat) -> list[Command]:
    if seat not in to_act(state):
        return []
    if state.phase is Phase.SELECT:
        return [SelectActionCard(c) for c in state.players[seat].hand]
    if state.phase is Phase.EVENT:
        return _event_commands(state, seat)
    if state.turn is None:
        return _special_commands(state, seat)
    return _turn_commands(state, seat, state.turn)


def _turn_commands(state: State, seat: Seat, t: Turn) -> list[Command]:
    p = state.players[seat]
    card = ACTIONS[t.card] if t.card else None
    out: list[Command] = []
    if state.level > 1 and t.stage in EXCHANGE_STAGES:
        out += exchanges(state, seat)
    can_beg = card is not None and card.kind != "angel" and not t.free
    if t.stage in (Stage.SOURCE, Stage.ACT) and state.level > 1 and can_beg:
        out.append(DeclareBeg())
    match t.stage:
        case Stage.SOURCE:
            assert card is not None
            for source in ("bag", "hut"):
                opts = (
                    bag_options(state, card, source)
                    if source == "bag"
                    else hut_options(state, card, source)
                )
                if opts and payments(card_cost(state, t, source), p.tiles):
                    out.append(ChooseSource(source))
            if not any(isinstance(c, ChooseSource | DeclareBeg) for c in out) and (
                state.level == 1 or t.free
            ):
                out.append(ForfeitBuild())
            return out
        case Stage.ACT:
            assert card is not None
            return out + _act_commands(state, seat, t, card)
        case Stage.PLACE:
            shape = SECTIONS[t.holding].shape
            master = state.level == 1 and t.via == "action" and p.supply > 0
            for pl in legal_placements(state, shape, t.moving):
                out.append(PlaceSection(pl.x, pl.y, pl.orientation))
                if master and master_builder_allowed(t.holding, pl.mask):
                    out.append(PlaceSection(pl.x, pl.y, pl.orientation, master_builder=False))
            return out
        case Stage.FLIP:
            for b in ALL_LETTERS:
                if b not in state.construction:
                    out.append(FlipBuilding(b))
                    if p.supply > 0:
                        out.append(FlipBuilding(b, master_builder=False))
            return [*out, FlipBuilding("")]
        case Stage.RESCORE:
            for c in rescore_candidates(state):
                out += [Rescore(c, tile) for tile in reward_options(ACTIONS[c])]
            return [*out, EndTurn()]
        case Stage.EXCHANGE:
            return [*out, EndTurn()]
        case Stage.LAZY_MONK:
            return [ChooseLazyMonk(k) for k in lazy_candidates(state, seat)]
        case Stage.ALMS:
            return [*out, *(ChooseTiles(c) for c in take_choices(state.tile_supply, 2))]
        case Stage.BEG:
            return [Beg(c) for c in take_choices(state.tile_supply, 2)]
        case Stage.HUT | Stage.LAZY | Stage.END:
            return []  # automatic stages (a turn never rests at HUT: it runs as ACT)
        case _:
            assert_never(t.stage)


def _act_commands(state: State, seat: Seat, t: Turn, card: ActionCard) -> list[Command]:
    """The commands of the card's action itself (exchanges and begging aside)."""
    p = state.players[seat]
    out: list[Command] = []
    if card.kind == "book":
        for pay in payments(card_cost(state, t, ""), p.tiles):
            out += [ProduceBook(pay, tile) for tile in reward_options(card)]
        return out
    if card.kind == "guest":
        optional = guest_monks(state, seat, card.id) > 0
        for pay in payments(card_cost(state, t, ""), p.tiles):
            for tile in reward_options(card):
                out.append(BringGuest(pay, tile))
                if optional:
                    out.append(BringGuest(pay, tile, monks=False))
        return out
    if card.kind == "unfinished":
        pays = payments(card_cost(state, t, ""), p.tiles)
        for i, pile in enumerate(PILES):
            if state.unfinished[i] and _doable(state, state.unfinished[i][0]):
                out += [TakeUnfinished(pile, pay) for pay in pays]
        return out
    source = t.source
    pays = payments(card_cost(state, t, source), p.tiles)
    for s in hut_options(state, card, source):
        out += [TakeFromHut(s, pay) for pay in pays]
    for sh in bag_options(state, card, source):
        out += [DrawFromBag(sh, pay) for pay in pays]
    if not out and (state.level == 1 or card.kind == "angel" or t.free):
        out.append(ForfeitBuild())
    return out


def _doable(state: State, card_id: str) -> bool:
    """An unfinished card can be taken only if its action can be carried out (DD-31)."""
    card = ACTIONS[card_id]
    if card.kind in ("book", "guest"):
        return True
    return card_can_build(state, card)


def _event_commands(state: State, seat: Seat) -> list[Command]:
    ev = state.event
    assert ev is not None
    p = state.players[seat]
    task = TASKS[ev.card]
    out: list[Command] = []
    if ev.kind == "feast":
        return [RespondFeastDay(c, r) for c, r in score_answers(p.guests)]
    if ev.kind == "study":
        return [RespondStudyDay(c, r) for c, r in score_answers(p.library)]
    if ev.kind == "new_arrivals":
        letters = [b for b in ALL_LETTERS if PLAN.buildings[b].area == task.area]
        for pay in payments(task.cost, p.tiles):
            out += [PayEvent(pay, b) for b in letters]
        return [*out, DeclineEvent("")]
    faces = next(d for s, d in ev.dice if s == seat)
    out += [PayEvent(pay) for pay in payments(dice_cost(faces), p.tiles)]
    if ev.kind == "fire":
        out += [DeclineEvent(b) for b in p.library]
    elif ev.kind == "epidemic":
        letters = sorted(
            {
                m.building
                for m in state.monks
                if m.owner == seat
                and m.kind == "guest"
                and PLAN.buildings[m.building].area in task.areas
            }
        )
        out += [DeclineEvent(b) for b in letters]
    else:
        out.append(DeclineEvent(""))
    return out


def _special_commands(state: State, seat: Seat) -> list[Command]:
    p = state.players[seat]
    out: list[Command] = exchanges(state, seat)
    for card_id, status in state.board:
        task = TASKS[card_id]
        if status == "open" and task.kind == "tile_task":
            out += [SpecialFulfillTask(card_id, pay) for pay in payments(task.cost, p.tiles)]
        if status == "halt":
            out += [SpecialRemoveHalt(pay) for pay in payments(task.cost, p.tiles)]
        if status == "open" and task.kind == "reconstruction":
            pays = payments(task.cost, p.tiles)
            if pays:
                for s, _ in state.placed:
                    if SECTIONS[s].shape == task.shape and legal_placements(state, task.shape, s):
                        out += [SpecialReconstruct(card_id, s, pay) for pay in pays]
    for b in ALL_LETTERS:
        if b not in state.construction and payments(PLAN.buildings[b].expansion_cost, p.tiles):
            out.append(SpecialExpand(b))
            if p.supply > 0:
                out.append(SpecialExpand(b, master_builder=False))
    for s in sorted(state.hut):
        sec = SECTIONS[s]
        if legal_placements(state, sec.shape):
            cost = (sec.colour,) * 3 + ("?", "?")
            out += [SpecialBuyFromHut(s, pay) for pay in payments(cost, p.tiles)]
    for sh in sorted(bag_shapes(state)):
        if legal_placements(state, sh):
            out += [
                SpecialBuyFromBag(sh, pay) for pay in payments(("R", "B", "G", "Y", "?"), p.tiles)
            ]
    out.append(PassSpecial())
    return out
