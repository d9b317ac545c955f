"""Deciding a command: the checks every command passes, its dispatch to the rule that
handles it, and the most helpful rejection for a command that is not legal now.

A command is accepted if and only if ``legal_commands`` lists it; ``diagnose`` only names the
broken rule for the rest (its messages never mention a card the sender cannot see). The rule
a command reaches then only emits (``effects.Tx``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from ..errors import (
    DomainError,
    GameOver,
    InvalidCommand,
    NotYourTurn,
    RuleViolation,
    UnknownCommand,
)
from ..randomness import Rng
from ..viewers import Seat
from .combat import (
    declare_attack,
    defend_with,
    defense_done,
    needs_war,
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
from .content import NEU, VICTIM_POWERS, content, forbidden_color, power_type, stat
from .effects import Tx, prompt
from .events import (
    Event,
)
from .legal import EXPECTED, legal_commands, may_act, routes
from .phases import (
    arrest_choice,
    confirm_slots,
    declare_census,
    declare_diplomacy,
    declare_luminary_action,
    declare_reorganize,
    exchange_decision,
    exchange_offer,
    finish_action,
    forge,
    gift,
    plan_slot,
    reorganize_pick,
    russia_move,
)
from .state import StageKind, State, religion_of, replace
from .turn_end import abandon_city, draft_pick, help_upkeep, phase3_choice, refill

__all__ = ["decide", "diagnose"]


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


# -- the rejection of a command not legal now -------------------------------------------------
def _v(message: str, code: str) -> RuleViolation:
    return RuleViolation(message, code=code)


def diagnose(state: State, seat: int, cmd: Command) -> DomainError:
    kind = state.stage.kind
    if type(cmd) not in EXPECTED.get(kind, ()):
        return _v(
            f"{type(cmd).__name__} does not fit now: the game waits for a {kind} decision",
            "wrong_state",
        )
    try:
        found = _specific(state, seat, cmd)
    except Exception:  # a malformed field: the generic answer below is right
        found = None
    return found or _v(f"that {type(cmd).__name__} is not legal now", "illegal_command")


def _specific(state: State, seat: int, cmd: Command) -> DomainError | None:
    c = content()
    p = state.players[seat]
    lums = c.luminaries
    stack = p.slots[state.slot - 1] if state.slot in (1, 2, 3) else ()
    for name in ("card", "enhancement"):
        value = getattr(cmd, name, None)
        if value is not None and (not isinstance(value, str) or value not in lums):
            return InvalidCommand(f"there is no luminary {value!r}")
    match cmd:
        case PlaceLuminary(card=card, slot=slot):
            if slot not in (0, 1, 2, 3):
                return InvalidCommand("slots are numbered 1 to 3 (0 takes a card back)")
            if card not in p.hand:
                return _v("that luminary is not in your hand", "card_not_in_zone")
        case DeclareAttack(target=t, route=r, coins=k, enhancement=e):
            if t not in c.cities:
                return InvalidCommand(f"there is no city {t!r}")
            if r not in ("LAND", "SEA"):
                return InvalidCommand("the route is LAND or SEA")
            if state.controller(t) == p.nation:
                return _v("you already control that city", "own_city")
            city = c.cities[t]
            if p.nation not in city.arcs and city.home != p.nation:
                return _v(f"{city.name} has no arc of your colour", "no_arc")
            if r not in routes(state, seat, t):
                return _v(
                    f"none of your cities is connected to {city.name} by {r.lower()}",
                    "not_connected",
                )
            if not isinstance(k, int) or k < 0 or k > p.coins:
                return _v("you do not have that many coins", "insufficient_coins")
            if e is not None and (
                e not in stack
                or power_type(e) not in ("MIGHT", "CASUS_BELLI", "TRIUMPH", "EXPEDITION")
                or (power_type(e) == "EXPEDITION" and r != "SEA")
            ):
                return _v(
                    "that enhancement does not apply to this attack", "enhancement_not_applicable"
                )
            if needs_war(state, seat, t):
                return _v(
                    "declaring war needs 5 [politics] from the attacking stack", "war_cost_unpaid"
                )
        case PayWarCost(cards=cards):
            if stat(cards, "POL") < 5 or not set(cards) <= set(stack):
                return _v(
                    "declaring war needs 5 [politics] from the attacking stack", "war_cost_unpaid"
                )
            return _v("pay the war cost with a minimal set of luminaries", "cost_unpaid")
        case DeclareCensus():
            return _v(
                "census support is declared only in slot 2 on a census turn", "census_not_allowed"
            )
        case DeclareLuminaryAction():
            return _luminary_action(state, seat, cmd, stack)
        case DeclareReorganize(enhancement=e) if e is not None:
            if e not in stack:
                return _v("that enhancement is not in the acting stack", "card_not_in_zone")
            return _v(
                "that enhancement does not apply to this action", "enhancement_not_applicable"
            )
        case ForgeAlliance(nation=nation):
            if nation == NEU:
                return _v("no diplomacy is permitted with neutral cities", "neutral_no_diplomacy")
            if nation not in c.nations:
                return InvalidCommand(f"there is no nation {nation!r}")
            if state.allied(p.nation, nation):
                return _v("you are already allied", "already_allied")
            return _v("forging an alliance needs 5 [politics] from the stack", "cost_unpaid")
        case GiveGift(ally=ally, cards=cards):
            if not isinstance(ally, int) or not 0 <= ally < len(state.players):
                return _v("gifts go only to a player", "uncontrolled_no_gifts")
            other = state.players[ally]
            if p.nation == "POL" or other.nation == "POL":
                return _v("Poland cannot give or receive gifts", "poland_no_gifts")
            if other.eliminated or ally == seat:
                return _v("an uncontrolled nation refuses your audience", "uncontrolled_no_gifts")
            if not state.allied(p.nation, other.nation):
                return _v("gifts are exchanged only with an ally", "not_allied")
            if p.coins < c.rules["costs"]["gift_coins"]:
                return _v("a gift costs 5 coins", "insufficient_coins")
            return _v("a gift needs 5 [ideas] and 5 [art] from the stack", "cost_unpaid")
        case ExchangeOffer(card=card) if card is not None:
            if card not in p.discard:
                return _v("offers come from your own exhausted pile", "card_not_in_zone")
            st = state.stage
            recipient = st.other if seat == st.seat else st.seat
            if lums[card].color == forbidden_color(religion_of(state, recipient)):
                return _v("that colour is forbidden to the recipient's religion", "religion_colour")
        case DefendWith(card=card) | SupportWith(card=card):
            if card not in p.hand:
                return _v("that luminary is not in your hand", "card_not_in_zone")
            if isinstance(cmd, SupportWith):
                return _v(
                    "you may support only an ally (or either side of a neutral city)", "not_allied"
                )
        case SupportFinish(coins=k):
            if not isinstance(k, int) or k > p.coins:
                return _v("you do not have that many coins", "insufficient_coins")
            return _v(
                "you may support only an ally (or either side of a neutral city)", "not_allied"
            )
        case DefenseDone(coins=k) | HelpUpkeep(coins=k):
            return _v("you do not have that many coins", "insufficient_coins")
        case AbandonCity(city=city):
            return _v("only foreign cities you control can be abandoned", "not_foreign")
        case DraftPick(card=card):
            if not any(card in row for row in state.rows.values()):
                return _v("that luminary is not face up in the draft rows", "card_not_in_zone")
            if lums[card].color == forbidden_color(religion_of(state, seat)):
                return _v("your religion forbids that colour", "religion_colour")
        case RefillHand(favorites=favs):
            if not set(favs) <= set(p.mat):
                return _v("only favorites on your mat can be taken back", "card_not_in_zone")
            return _v(
                f"your hand may hold at most {state.hand_size(seat)} luminaries",
                "hand_size_exceeded",
            )
    return None


def _luminary_action(
    state: State, seat: int, cmd: DeclareLuminaryAction, stack: Sequence[str]
) -> DomainError:
    """Which rule a rejected ``DeclareLuminaryAction`` breaks (the first that applies)."""
    lums = content().luminaries
    if cmd.card not in stack:
        return _v("that luminary is not in the acting stack", "card_not_in_zone")
    power = lums[cmd.card].power
    if power is None or power.kind != "ACTION":
        return _v("that luminary has no action power", "no_action_power")
    e = cmd.enhancement
    if e is not None:
        if e not in stack:
            return _v("that enhancement is not in the acting stack", "card_not_in_zone")
        enh = lums[e].power
        if (
            e == cmd.card
            or enh is None
            or enh.type != "RENOWN"
            or power.type != "ADVANCE"
            or enh.track != power.track
        ):
            return _v(
                "that enhancement does not apply to this action", "enhancement_not_applicable"
            )
    if power.type in VICTIM_POWERS:
        if cmd.victim == seat or cmd.victim not in state.active:
            return _v(f"{power.type} needs another active player as its victim", "bad_victim")
    elif cmd.victim != -1:
        return _v(f"{power.type} has no victim (leave victim at -1)", "bad_victim")
    if not power.cost:
        if cmd.cost:
            return _v("this power has no cost to pay", "cost_unpaid")
        return _v("that luminary action is not possible now", "illegal_action")
    wanted = ", ".join(f"{n} [{s.lower()}]" for s, n in power.cost)
    hand = state.players[seat].hand
    if any(x in (cmd.card, e) or (x not in stack and x not in hand) for x in cmd.cost):
        return _v(
            f"this power costs exhaust {wanted}: pay it from the rest of the acting stack "
            "or from your hand",
            "card_not_in_zone",
        )
    if any(stat(cmd.cost, s) < n for s, n in power.cost):
        return _v(f"this power costs exhaust {wanted}: those luminaries fall short", "cost_unpaid")
    return _v(f"pay exhaust {wanted} with a minimal set of luminaries", "cost_unpaid")
