"""Deciding a command: the checks every command passes, its dispatch to the rule that
handles it, and the rules of the actions that are not combat (§7.1, §7.4–§7.7).

A command is accepted if and only if ``legal_commands`` lists it (``diagnose`` words the
rejection of the rest); the rule it reaches then only emits (``effects.Tx``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from ..errors import GameOver, InvalidCommand, NotYourTurn, UnknownCommand
from ..randomness import Rng
from ..simultaneous import ChoiceCommitted
from ..viewers import Seat
from .combat import (
    declare_attack,
    defend_with,
    defense_done,
    parley_answer,
    pay_war,
    reroll,
    respond,
    support_finish,
    support_next,
    support_with,
)
from .commands import (
    COMMAND_TYPES,
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
from .content import content, power_n, power_type
from .diagnose import diagnose
from .draft import draft_pick, refill
from .effects import Tx, exhaust, prompt, reveal
from .events import (
    ActionDeclared,
    CensusJoined,
    CoinsChanged,
    DiplomacyChanged,
    Event,
    ExtraPickGranted,
    LuminariesMoved,
    OffersRevealed,
    PrestigeChanged,
)
from .legal import legal_commands, may_act
from .phases import (
    abandon_city,
    confirm_slots,
    finish_action,
    help_upkeep,
    next_actor,
    phase3_choice,
    plan_slot,
    russia_move,
)
from .state import StageKind, State, replace
from .tracks import advance, retreat, shift_religion

__all__ = ["decide"]


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
    """The events ``command`` from ``seat`` causes, or the rejection it earns."""
    if type(command) not in COMMAND_TYPES:
        raise UnknownCommand(f"Road to Enlightenment has no command {type(command).__name__}")
    if state.over:
        raise GameOver("the game is over")
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise InvalidCommand(f"there is no seat {seat!r}")
    if not may_act(state, seat):
        raise NotYourTurn(f"the game is not waiting for {state.players[seat].nation} now")
    legal = legal_commands(state, seat)
    try:
        accepted = command in legal
        canonical = _normalise(command)
    except Exception:  # malformed field values that cannot even be compared
        raise InvalidCommand("malformed command") from None
    if not accepted:
        if canonical != command and canonical in legal:
            raise InvalidCommand("list the cards in sorted order", code="unsorted_cards")
        raise diagnose(state, seat, command)
    tx = Tx(state, rng)
    _apply(tx, seat, command)
    return tx.events


def _apply(tx: Tx, seat: int, cmd: Command) -> None:
    match cmd:
        case PlaceLuminary(card=card, slot=slot):
            plan_slot(tx, seat, card, slot)
        case ConfirmSlots():
            confirm_slots(tx, seat)
        case DeclareAttack(target=t, route=r, coins=k, enhancement=e):
            declare_attack(tx, seat, t, r, k, e)
        case PayWarCost(cards=cards):
            pay_war(tx, seat, cards)
        case DeclareDiplomacy():
            declare_diplomacy(tx, seat)
        case ForgeAlliance(nation=nation, cards=cards):
            forge(tx, seat, nation, cards)
        case SkipForge():
            prompt(tx, StageKind.GIFT, seat)
        case GiveGift(ally=ally, cards=cards):
            gift(tx, seat, ally, cards)
        case SkipGift():
            finish_action(tx, seat)
        case ExchangeOffer(card=card):
            exchange_offer(tx, seat, card)
        case ExchangeDecision(accept=accept):
            exchange_decision(tx, seat, accept)
        case DeclareReorganize(enhancement=e):
            declare_reorganize(tx, seat, e)
        case ReorganizePick(card=card):
            reorganize_pick(tx, seat, card)
        case DeclareLuminaryAction(card=card, enhancement=e, victim=v, cost=cost):
            declare_luminary_action(tx, seat, card, e, v, cost)
        case DeclareCensus():
            declare_census(tx, seat)
        case ArrestChoice(card=card):
            arrest_choice(tx, seat, card)
        case RussiaMove(track=track):
            russia_move(tx, seat, track)
        case Respond(cards=cards):
            respond(tx, seat, cards)
        case ParleyAnswer(pay=pay):
            parley_answer(tx, seat, pay)
        case DefendWith(card=card):
            defend_with(tx, seat, card)
        case DefenseDone(coins=k):
            defense_done(tx, seat, k)
        case SupportPass():
            support_next(tx)
        case SupportWith(side=side, card=card):
            support_with(tx, seat, side, card)
        case SupportFinish(side=side, coins=k):
            support_finish(tx, seat, side, k)
        case Reroll(index=i):
            reroll(tx, seat, i)
        case Phase3Choices(catholicism_as=c, anti_as=a):
            phase3_choice(tx, seat, c, a)
        case HelpUpkeep(coins=k):
            help_upkeep(tx, seat, k)
        case AbandonCity(city=city):
            abandon_city(tx, seat, city)
        case DraftPick(card=card):
            draft_pick(tx, seat, card)
        case RefillHand(favorites=favs):
            refill(tx, seat, favs)
        case unreachable:
            assert_never(unreachable)


def _normalise(command: Command) -> Command:
    """The canonical form: card lists sorted (their order carries no meaning)."""
    changes: dict[str, tuple[str, ...]] = {}
    for name in ("cards", "favorites", "cost"):
        value = getattr(command, name, None)
        if isinstance(value, tuple) and all(isinstance(x, str) for x in value):
            changes[name] = tuple(sorted(value))
    return replace(command, **changes) if changes else command


# -- the actions of phase 2 (§7.1, §7.4-§7.7) ----------------------------------------
def declare_census(tx: Tx, seat: int) -> None:
    reveal(tx, seat, 2)
    tx.emit(ActionDeclared(seat, 2, "CENSUS"), CensusJoined(seat))
    next_actor(tx)


def declare_reorganize(tx: Tx, seat: int, enhancement: str | None) -> None:
    slot = tx.state.slot
    reveal(tx, seat, slot)
    tx.emit(ActionDeclared(seat, slot, "REORGANIZE", enhancement=enhancement))
    view = int(content().rules["reorganize_view"])
    if power_type(enhancement) == "SCHOLAR":
        assert enhancement is not None
        view += power_n(enhancement)
    deck = tx.state.players[seat].deck
    n = min(view, len(deck))
    if n == 0:
        finish_action(tx, seat)
        return
    tx.emit(LuminariesMoved(seat, deck[:n], n, "deck", "peek", "owner", "reorganize peek"))
    prompt(tx, StageKind.REORGANIZE, seat)


def reorganize_pick(tx: Tx, seat: int, card: str | None) -> None:
    peek = tx.state.players[seat].peek
    if card is not None:
        tx.emit(LuminariesMoved(seat, (card,), 1, "peek", "hand", "owner", "reorganize pick"))
    rest = tuple(c for c in peek if c != card)
    if rest:
        order = tx.rng.shuffled(rest)
        tx.emit(LuminariesMoved(seat, order, len(order), "peek", "deck", "server", "to bottom"))
    finish_action(tx, seat)


def declare_luminary_action(
    tx: Tx, seat: int, card: str, enhancement: str | None, victim: int, cost: Sequence[str] = ()
) -> None:
    slot = tx.state.slot
    reveal(tx, seat, slot)
    tx.emit(ActionDeclared(seat, slot, "LUMINARY_ACTION", card, enhancement, victim=victim))
    power = content().luminaries[card].power
    assert power is not None
    if cost:
        # DD-05: the named luminaries are exhausted at once; those from the stack leave it.
        stack = tx.state.players[seat].slots[slot - 1]
        exhaust(tx, seat, [x for x in cost if x in stack], f"slot{slot}")
        exhaust(tx, seat, [x for x in cost if x not in stack], "hand")
    nation = content().nations[tx.state.players[seat].nation]
    removed: list[str] = []
    if power.type == "ADVANCE":
        assert power.track is not None
        n = power.n
        if power_type(enhancement) == "RENOWN":
            assert enhancement is not None
            n += power_n(enhancement)
        advance(tx, seat, power.track, n)
    elif power.type == "PIETY":
        shift_religion(tx, nation.religion, power.n)
    elif power.type == "TAX":
        tx.emit(CoinsChanged(seat, power.n, "tax"))
    elif power.type == "PATRON":
        tx.emit(PrestigeChanged(seat, power.n, "patron"))
        removed.append(card)
    elif power.type == "COLONY":
        if nation.colonial:
            costs = content().rules["costs"]
            tx.emit(
                CoinsChanged(seat, costs["colony_coins"], "colony"),
                PrestigeChanged(seat, costs["colony_prestige"], "colony"),
            )
        removed.append(card)
    elif power.type == "SETBACK":
        assert power.track is not None
        retreat(tx, victim, power.track, power.n)
    elif power.type == "ARREST":
        hand = tx.state.players[victim].hand
        if any(not content().luminaries[c].favorite for c in hand):
            prompt(tx, StageKind.ARREST, victim, other=seat)
            return
    finish_action(tx, seat, removed)


def arrest_choice(tx: Tx, victim: int, card: str) -> None:
    actor = tx.state.stage.other
    tx.emit(
        LuminariesMoved(victim, (card,), 1, "hand", "box", "public", "arrested"),
        ExtraPickGranted(victim),
    )
    finish_action(tx, actor)


# -- diplomacy --------------------------------------------------------------------------------
def declare_diplomacy(tx: Tx, seat: int) -> None:
    slot = tx.state.slot
    reveal(tx, seat, slot)
    tx.emit(ActionDeclared(seat, slot, "DIPLOMACY"))
    prompt(tx, StageKind.FORGE, seat)


def forge(tx: Tx, seat: int, nation: str, cards: Sequence[str]) -> None:
    exhaust(tx, seat, cards, f"slot{tx.state.slot}")
    tx.emit(DiplomacyChanged(tx.state.players[seat].nation, nation, "ALLY", "forged"))
    prompt(tx, StageKind.GIFT, seat)


def gift(tx: Tx, seat: int, ally: int, cards: Sequence[str]) -> None:
    exhaust(tx, seat, cards, f"slot{tx.state.slot}")
    tx.emit(
        CoinsChanged(seat, -content().rules["costs"]["gift_coins"], "gift"),
        PrestigeChanged(seat, 1, "gift"),
        PrestigeChanged(ally, 1, "gift"),
    )
    prompt(tx, StageKind.OFFER, seat, other=ally, waiting=(seat, ally))


def exchange_offer(tx: Tx, seat: int, card: str | None) -> None:
    tx.emit(ChoiceCommitted(seat, (card,) if card else ()))
    if not tx.state.choices.complete:
        return
    st = tx.state.stage
    offers = dict(tx.state.choices.committed)
    a, b = offers.get(st.seat, ()), offers.get(st.other, ())
    tx.emit(OffersRevealed(st.seat, a[0] if a else None, st.other, b[0] if b else None))
    if a and b:
        prompt(
            tx,
            StageKind.ACCEPT,
            st.seat,
            other=st.other,
            waiting=(st.seat, st.other),
            data=f"{a[0]}|{b[0]}",
        )
    else:
        finish_action(tx, st.seat)


def exchange_decision(tx: Tx, seat: int, accept: bool) -> None:
    tx.emit(ChoiceCommitted(seat, ("yes",) if accept else ("no",)))
    if not tx.state.choices.complete:
        return
    st = tx.state.stage
    revealed = tx.state.choices.revealed()
    tx.emit(revealed)
    if all(c == ("yes",) for _, c in revealed.choices):
        card_a, card_b = st.data.split("|")
        tx.emit(
            LuminariesMoved(st.seat, (card_a,), 1, "discard", "box", "public", "exchange"),
            LuminariesMoved(st.other, (card_a,), 1, "box", "hand", "public", "exchange"),
            LuminariesMoved(st.other, (card_b,), 1, "discard", "box", "public", "exchange"),
            LuminariesMoved(st.seat, (card_b,), 1, "box", "hand", "public", "exchange"),
        )
    finish_action(tx, st.seat)
