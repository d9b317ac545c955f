"""Legal-move generation: the exact, finite list of commands a seat may send now.

``decide`` accepts a command if and only if it is in this list, so the list is exact by
construction; ``diagnose`` only chooses the most helpful rejection for the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import assert_never

from .combat import can_support, needs_war
from .commands import (
    AbandonCity,
    ArrestChoice,
    Command,
    ConfirmSlots,
    DeclareAttack,
    DeclareCensus,
    DeclareDiplomacy,
    DeclareLuminaryAction,
    DeclareReorganize,
    DefendWith,
    DefenseDone,
    DraftPick,
    ExchangeDecision,
    ExchangeOffer,
    ForgeAlliance,
    GiveGift,
    HelpUpkeep,
    ParleyAnswer,
    PayWarCost,
    Phase3Choices,
    PlaceLuminary,
    RefillHand,
    ReorganizePick,
    Reroll,
    Respond,
    RussiaMove,
    SkipForge,
    SkipGift,
    SupportFinish,
    SupportPass,
    SupportWith,
)
from .content import ANTI, CATH, VICTIM_POWERS, content, forbidden_color, power_type, stat
from .state import StageKind, State, religion_of
from .turn_end import legal_draft

__all__ = ["EXPECTED", "attack_targets", "legal_commands", "may_act", "minimal_sets", "to_act"]

# Which command types each stage accepts (for the ``wrong_state`` rejection).
EXPECTED: dict[StageKind, tuple[type[Command], ...]] = {
    StageKind.ASSIGN: (PlaceLuminary, ConfirmSlots),
    StageKind.DECLARE: (
        DeclareAttack,
        DeclareDiplomacy,
        DeclareReorganize,
        DeclareLuminaryAction,
        DeclareCensus,
    ),
    StageKind.WAR: (PayWarCost,),
    StageKind.RESPOND: (Respond,),
    StageKind.PARLEY: (ParleyAnswer,),
    StageKind.DEFEND: (DefendWith, DefenseDone),
    StageKind.SUPPORT: (SupportPass, SupportWith, SupportFinish),
    StageKind.REROLL: (Reroll,),
    StageKind.FORGE: (ForgeAlliance, SkipForge),
    StageKind.GIFT: (GiveGift, SkipGift),
    StageKind.OFFER: (ExchangeOffer,),
    StageKind.ACCEPT: (ExchangeDecision,),
    StageKind.REORGANIZE: (ReorganizePick,),
    StageKind.ARREST: (ArrestChoice,),
    StageKind.RUSSIA: (RussiaMove,),
    StageKind.PHASE3: (Phase3Choices,),
    StageKind.HELP: (HelpUpkeep,),
    StageKind.ABANDON: (AbandonCity,),
    StageKind.DRAFT: (DraftPick,),
    StageKind.REFILL: (RefillHand,),
}


def to_act(state: State) -> frozenset[int]:
    st = state.stage
    match st.kind:
        case StageKind.OVER | StageKind.SETUP:
            return frozenset()
        case StageKind.ASSIGN | StageKind.PHASE3 | StageKind.OFFER | StageKind.ACCEPT:
            return state.choices.waiting_on  # the simultaneous stages
        case StageKind.REFILL:
            return frozenset(st.waiting)
        case (
            StageKind.DECLARE
            | StageKind.WAR
            | StageKind.RESPOND
            | StageKind.PARLEY
            | StageKind.DEFEND
            | StageKind.SUPPORT
            | StageKind.REROLL
            | StageKind.FORGE
            | StageKind.GIFT
            | StageKind.REORGANIZE
            | StageKind.ARREST
            | StageKind.RUSSIA
            | StageKind.HELP
            | StageKind.ABANDON
            | StageKind.DRAFT
        ):
            return frozenset({st.seat})
        case unreachable:
            assert_never(unreachable)


@lru_cache(maxsize=50_000)
def _minimal(
    cards: tuple[str, ...], needs: tuple[tuple[str, int], ...]
) -> tuple[tuple[str, ...], ...]:
    def ok(sub: Sequence[str]) -> bool:
        return all(stat(sub, k) >= n for k, n in needs)

    out: list[tuple[str, ...]] = []
    for size in range(1, len(cards) + 1):
        for sub in combinations(cards, size):
            if ok(sub) and not any(ok([x for x in sub if x != y]) for y in sub):
                out.append(sub)
    return tuple(out)


def minimal_sets(cards: Sequence[str], needs: dict[str, int]) -> tuple[tuple[str, ...], ...]:
    """Inclusion-minimal sets of ``cards`` that pay every stat in ``needs`` (DD-05).

    One luminary may count toward several stats. Only minimal sets are legal payments, which
    keeps the list of commands finite and small; paying more would only weaken the stack.
    """
    return _minimal(tuple(sorted(cards)), tuple(sorted(needs.items())))


def routes(state: State, seat: int, city: str, mine: list[str] | None = None) -> list[str]:
    c = content()
    nation = state.players[seat].nation
    target = c.cities[city]
    if mine is None:
        mine = [x for x in c.city_ids if state.controller(x) == nation]
    out = []
    if any(city in c.cities[x].links for x in mine):
        out.append("LAND")
    if target.sea and any(c.cities[x].sea == target.sea and x != city for x in mine):
        out.append("SEA")
    return out


def attack_targets(state: State, seat: int) -> list[tuple[str, str]]:
    """(city, route) pairs ``seat`` may attack, ignoring the war cost."""
    c = content()
    nation = state.players[seat].nation
    mine = [x for x in c.city_ids if state.controller(x) == nation]
    out = []
    for city in c.city_ids:
        if state.controller(city) == nation:
            continue
        cd = c.cities[city]
        if nation not in cd.arcs and cd.home != nation:
            continue
        for r in routes(state, seat, city, mine):
            out.append((city, r))
    return out


def _enhancements(stack: Sequence[str], types: tuple[str, ...]) -> list[str]:
    return [x for x in stack if power_type(x) in types]


def _declare(state: State, seat: int) -> list[Command]:
    slot = state.stage.n
    stack = state.players[seat].slots[slot - 1]
    out: list[Command] = [DeclareDiplomacy(), DeclareReorganize(None)]
    out += [DeclareReorganize(e) for e in _enhancements(stack, ("SCHOLAR",))]
    if slot == 2 and state.chits[state.turn - 1] in ("SCIENCE", "ART", "RELIGION"):
        out.append(DeclareCensus())
    lums = content().luminaries
    for card in stack:
        p = lums[card].power
        if p is None or p.kind != "ACTION":
            continue
        enhs: list[str | None] = [None]
        if p.type == "ADVANCE":
            enhs += [
                e
                for e in stack
                if e != card and power_type(e) == "RENOWN" and lums[e].power.track == p.track  # type: ignore[union-attr]
            ]
        victims = [v for v in state.active if v != seat] if p.type in VICTIM_POWERS else [-1]
        for e in enhs:
            costs: tuple[tuple[str, ...], ...] = ((),)
            if p.cost:
                # DD-05: a power's cost may be paid from the acting stack and/or the hand.
                payers = [x for x in stack if x not in (card, e)] + list(state.players[seat].hand)
                costs = minimal_sets(payers, dict(p.cost))
            for paid in costs:
                for v in victims:
                    out.append(DeclareLuminaryAction(card, e, v, paid))
    attack_enh = _enhancements(stack, ("MIGHT", "CASUS_BELLI", "TRIUMPH", "EXPEDITION"))
    coins = state.players[seat].coins
    for city, route in attack_targets(state, seat):
        war = needs_war(state, seat, city)
        for e in [None, *attack_enh]:
            if power_type(e) == "EXPEDITION" and route != "SEA":
                continue
            if war and power_type(e) != "CASUS_BELLI":
                rest = [x for x in stack if x != e]
                if not minimal_sets(rest, {"POL": 5}):
                    continue
            for k in range(coins + 1):
                out.append(DeclareAttack(city, route, k, e))
    return out


def _support(state: State, seat: int) -> list[Command]:
    c = state.combat
    assert c is not None
    p = state.players[seat]
    out: list[Command] = []
    if not c.support_side:
        out.append(SupportPass())
        for side in ("ATTACKER", "DEFENDER"):
            if can_support(state, seat, side):
                out += [SupportWith(side, x) for x in sorted(p.hand)]
                out += [SupportFinish(side, k) for k in range(1, p.coins + 1)]
    else:
        side = c.support_side
        out += [SupportWith(side, x) for x in sorted(p.hand)]
        out += [SupportFinish(side, k) for k in range(p.coins + 1)]
    return out


def _gift(state: State, seat: int) -> list[Command]:
    out: list[Command] = [SkipGift()]
    me = state.players[seat]
    costs = content().rules["costs"]
    if me.nation == "POL" or me.coins < costs["gift_coins"]:
        return out
    stack = me.slots[state.slot - 1]
    sets = minimal_sets(stack, {"IDE": costs["gift_ideas"], "ART": costs["gift_art"]})
    if not sets:
        return out
    for ally in state.active:
        other = state.players[ally].nation
        if ally == seat or other == "POL" or not state.allied(me.nation, other):
            continue
        out += [GiveGift(ally, s) for s in sets]
    return out


def _forge(state: State, seat: int) -> list[Command]:
    out: list[Command] = [SkipForge()]
    me = state.players[seat]
    stack = me.slots[state.slot - 1]
    sets = minimal_sets(stack, {"POL": content().rules["costs"]["alliance_politics"]})
    if not sets:
        return out
    for nation in content().nation_ids:
        if nation != me.nation and not state.allied(me.nation, nation):
            out += [ForgeAlliance(nation, s) for s in sets]
    return out


def _subsets(items: Sequence[str]) -> list[tuple[str, ...]]:
    items = sorted(items)
    return [s for k in range(len(items) + 1) for s in combinations(items, k)]


def _offer(state: State, seat: int) -> list[Command]:
    st = state.stage
    other = st.other if seat == st.seat else st.seat
    banned = forbidden_color(religion_of(state, other))
    lums = content().luminaries
    cards = sorted(
        {x for x in state.players[seat].discard if lums[x].color != banned and not lums[x].favorite}
    )
    return [ExchangeOffer(None), *(ExchangeOffer(x) for x in cards)]


def _phase3(state: State, seat: int) -> list[Command]:
    stack = state.players[seat].slots[2]
    rel = religion_of(state, seat)
    if rel == CATH:
        return (
            [Phase3Choices("WEA", None), Phase3Choices("POL", None)]
            if stat(stack, "CAT")
            else [Phase3Choices()]
        )
    if rel == ANTI and stat(stack, "ANT"):
        return [Phase3Choices(None, "MIL"), Phase3Choices(None, "SCI")]
    return [Phase3Choices()]


def _refill(state: State, seat: int) -> list[Command]:
    p = state.players[seat]
    room = state.hand_size(seat) - len(p.hand)
    return [RefillHand(s) for s in _subsets(p.mat) if len(s) <= room]


def _assign(state: State, seat: int) -> list[Command]:
    """Plan moves, and ConfirmSlots until committed.

    DD-38: a seat that has committed may still change its plan until the last seat commits;
    each change re-commits it at once.
    """
    p = state.players[seat]
    planned = dict(p.plan)
    out: list[Command] = []
    for card in sorted(p.hand):
        cur = planned.get(card, 0)
        out += [PlaceLuminary(card, s) for s in range(4) if s != cur]
    if seat in state.choices.waiting_on:
        out.append(ConfirmSlots())
    return out


def may_act(state: State, seat: int) -> bool:
    """Whether ``seat`` may send a command now: the seats waited for, plus committed seats
    revising their phase-1 plan (DD-38), whom the game does not wait for."""
    if seat in to_act(state):
        return True
    return state.stage.kind == StageKind.ASSIGN and seat in state.choices.seats


def _stage_commands(state: State, seat: int) -> list[Command]:
    st = state.stage
    kind = st.kind
    p = state.players[seat]
    c = state.combat
    match kind:
        case StageKind.ASSIGN:
            return _assign(state, seat)
        case StageKind.DECLARE:
            return _declare(state, seat)
        case StageKind.WAR:
            assert c is not None
            stack = [x for x in p.slots[state.slot - 1] if x != c.enhancement]
            return [PayWarCost(s) for s in minimal_sets(stack, {"POL": 5})]
        case StageKind.RESPOND:
            cards = [x for x in p.hand if power_type(x) in ("FORTIFY", "LEVY", "PARLEY")]
            return [Respond(s) for s in _subsets(cards)]
        case StageKind.PARLEY:
            cost = content().rules["costs"]["parley_coins"]
            return (
                [ParleyAnswer(True), ParleyAnswer(False)]
                if p.coins >= cost
                else [ParleyAnswer(False)]
            )
        case StageKind.DEFEND:
            return [
                *(DefendWith(x) for x in sorted(p.hand)),
                *(DefenseDone(k) for k in range(p.coins + 1)),
            ]
        case StageKind.SUPPORT:
            return _support(state, seat)
        case StageKind.REROLL:
            assert c is not None
            return [Reroll(None), *(Reroll(i) for i in range(len(c.dice)))]
        case StageKind.FORGE:
            return _forge(state, seat)
        case StageKind.GIFT:
            return _gift(state, seat)
        case StageKind.OFFER:
            return _offer(state, seat) if seat in state.choices.waiting_on else []
        case StageKind.ACCEPT:
            return (
                [ExchangeDecision(True), ExchangeDecision(False)]
                if seat in state.choices.waiting_on
                else []
            )
        case StageKind.REORGANIZE:
            return [ReorganizePick(None), *(ReorganizePick(x) for x in sorted(p.peek))]
        case StageKind.ARREST:
            lums = content().luminaries
            return [ArrestChoice(x) for x in sorted(p.hand) if not lums[x].favorite]
        case StageKind.RUSSIA:
            return [RussiaMove(None), RussiaMove("SCI"), RussiaMove("ART")]
        case StageKind.PHASE3:
            return _phase3(state, seat) if seat in state.choices.waiting_on else []
        case StageKind.HELP:
            return [HelpUpkeep(k) for k in range(min(p.coins, state.shortfall[st.other]) + 1)]
        case StageKind.ABANDON:
            return [AbandonCity(x) for x in sorted(state.foreign(seat))]
        case StageKind.DRAFT:
            return [DraftPick(x) for x in sorted(legal_draft(state, seat))]
        case StageKind.REFILL:
            return _refill(state, seat)
        case StageKind.SETUP | StageKind.OVER:
            return []
        case unreachable:
            assert_never(unreachable)


def legal_commands(state: State, seat: int) -> list[Command]:
    if not 0 <= seat < len(state.players) or not may_act(state, seat):
        return []
    if state.players[seat].eliminated:
        return []
    return _stage_commands(state, seat)
