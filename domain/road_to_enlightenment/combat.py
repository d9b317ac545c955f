"""Combat (§7): declaring an attack, war, response, defense, support, dice and the outcome."""

from __future__ import annotations

from collections.abc import Sequence

from .content import (
    CATH,
    NEU,
    card_stat,
    content,
    power_n,
    power_type,
    stat,
)
from .effects import Tx, eliminate, exhaust, prompt, remove, reveal
from .events import (
    ActionDeclared,
    CityTaken,
    CoinsChanged,
    CombatResolved,
    CombatSet,
    DiceRolled,
    DieRerolled,
    DiplomacyChanged,
    LuminariesMoved,
)
from .phases import finish_action
from .state import Combat, CombatStep, RerollReason, StageKind, State, replace

__all__ = [
    "can_support",
    "declare_attack",
    "defend_with",
    "defense_done",
    "dice_count",
    "needs_war",
    "negotiate",
    "parley_answer",
    "pay_war",
    "reroll",
    "respond",
    "route_value",
    "strengths",
    "support_finish",
    "support_next",
    "support_with",
]


# -- combat (§7) ------------------------------------------------------------------------------
def route_value(nation: str, route: str, seated: bool) -> int:
    if not seated:
        u = content().rules["uncontrolled"]
        return int(u["army"] if route == "LAND" else u["navy"])
    n = content().nations[nation]
    return n.army if route == "LAND" else n.navy


def needs_war(state: State, seat: int, city: str) -> bool:
    d = state.controller(city)
    return d != NEU and state.relation(state.players[seat].nation, d) != "WAR"


def declare_attack(
    tx: Tx, seat: int, target: str, route: str, coins: int, enhancement: str | None
) -> None:
    slot = tx.state.slot
    reveal(tx, seat, slot)
    tx.emit(ActionDeclared(seat, slot, "ATTACK", None, enhancement, target, route))
    if coins:
        tx.emit(CoinsChanged(seat, -coins, "attack"))
    st = tx.state
    defender = st.controller(target)
    combat = Combat(
        attacker=seat,
        defender=defender,
        defender_seat=st.seat_of(defender) if defender != NEU else -1,
        city=target,
        route=route,
        enhancement=enhancement,
        coins=coins,
        step=CombatStep.WAR,
    )
    tx.emit(CombatSet(combat))
    if needs_war(st, seat, target):
        if power_type(enhancement) == "CASUS_BELLI":
            tx.emit(DiplomacyChanged(st.players[seat].nation, defender, "WAR", "casus belli"))
        else:
            prompt(tx, StageKind.WAR, seat)
            return
    start_combat(tx)


def pay_war(tx: Tx, seat: int, cards: Sequence[str]) -> None:
    exhaust(tx, seat, cards, f"slot{tx.state.slot}")
    c = tx.state.combat
    assert c is not None
    tx.emit(DiplomacyChanged(tx.state.players[seat].nation, c.defender, "WAR", "declared"))
    start_combat(tx)


def _set_combat(tx: Tx, **changes: object) -> Combat:
    assert tx.state.combat is not None
    c = replace(tx.state.combat, **changes)
    tx.emit(CombatSet(c))
    return c


def start_combat(tx: Tx) -> None:
    c = tx.state.combat
    assert c is not None
    if c.defender_seat >= 0:
        _set_combat(tx, step=CombatStep.RESPOND)
        prompt(tx, StageKind.RESPOND, c.defender_seat)  # DD-25: the defender may respond, once
    else:
        support_start(tx)


def respond(tx: Tx, seat: int, cards: Sequence[str]) -> None:
    c = tx.state.combat
    assert c is not None
    others = [x for x in cards if power_type(x) != "PARLEY"]
    parley = [x for x in cards if power_type(x) == "PARLEY"]
    extra = sum(1 for x in others if power_type(x) == "LEVY")
    fort = sum(power_n(x) for x in others if power_type(x) == "FORTIFY")
    exhaust(tx, seat, others, "hand")
    if extra or fort:
        c = _set_combat(tx, extra_dice=c.extra_dice + extra, fortify=c.fortify + fort)
    if parley:
        remove(tx, seat, parley, "hand")  # Cornelis de Graeff: removed either way
        if tx.state.players[c.attacker].coins >= content().rules["costs"]["parley_coins"]:
            _set_combat(tx, step=CombatStep.PARLEY)
            prompt(tx, StageKind.PARLEY, c.attacker)
        else:
            cancel_combat(tx)
        return
    _set_combat(tx, step=CombatStep.DEFEND)
    prompt(tx, StageKind.DEFEND, seat)


def parley_answer(tx: Tx, seat: int, pay: bool) -> None:
    c = tx.state.combat
    assert c is not None
    if not pay:
        cancel_combat(tx)
        return
    cost = content().rules["costs"]["parley_coins"]
    tx.emit(
        CoinsChanged(seat, -cost, "parley"),
        CoinsChanged(c.defender_seat, cost, "parley"),
    )
    _set_combat(tx, step=CombatStep.DEFEND)
    prompt(tx, StageKind.DEFEND, c.defender_seat)


def cancel_combat(tx: Tx) -> None:
    c = tx.state.combat
    assert c is not None
    tx.emit(CombatResolved(c.city, 0, 0, c.defender, "CANCELLED"))
    finish_combat(tx)


def defend_with(tx: Tx, seat: int, card: str) -> None:
    tx.emit(LuminariesMoved(seat, (card,), 1, "hand", "defense", "public", "defending stack"))
    prompt(tx, StageKind.DEFEND, seat)


def defense_done(tx: Tx, seat: int, coins: int) -> None:
    if coins:
        tx.emit(CoinsChanged(seat, -coins, "defense"))
        _set_combat(tx, def_coins=coins)
    support_start(tx)


def support_start(tx: Tx) -> None:
    c = tx.state.combat
    assert c is not None
    order = tx.state.order
    i = order.index(c.attacker)
    rotation = order[i + 1 :] + order[:i]
    queue = tuple(s for s in rotation if s not in (c.attacker, c.defender_seat))
    _set_combat(tx, step=CombatStep.SUPPORT, support_queue=queue)
    support_next(tx)


def support_next(tx: Tx) -> None:
    c = tx.state.combat
    assert c is not None
    if c.support_queue:
        seat = c.support_queue[0]
        _set_combat(tx, support_queue=c.support_queue[1:], support_side="")
        prompt(tx, StageKind.SUPPORT, seat)
    else:
        roll(tx)


def can_support(state: State, seat: int, side: str) -> bool:
    c = state.combat
    assert c is not None
    me = state.players[seat].nation
    if c.defender == NEU:
        return True
    target = state.players[c.attacker].nation if side == "ATTACKER" else c.defender
    return state.allied(me, target)


def _choose_side(tx: Tx, seat: int, side: str) -> None:
    c = tx.state.combat
    assert c is not None
    if c.support_side:
        return
    me = tx.state.players[seat].nation
    other = c.defender if side == "ATTACKER" else tx.state.players[c.attacker].nation
    if other != NEU and tx.state.allied(me, other):
        tx.emit(DiplomacyChanged(me, other, "NONE", "helped the other side"))
    _set_combat(tx, support_side=side)


def support_with(tx: Tx, seat: int, side: str, card: str) -> None:
    _choose_side(tx, seat, side)
    exhaust(tx, seat, [card], "hand")
    mil = card_stat(card, "MIL")  # DD-48: supporters add only [military]
    c = tx.state.combat
    assert c is not None
    if side == "ATTACKER":
        _set_combat(tx, att_support=c.att_support + mil)
    else:
        _set_combat(tx, def_support=c.def_support + mil)
    prompt(tx, StageKind.SUPPORT, seat)


def support_finish(tx: Tx, seat: int, side: str, coins: int) -> None:
    _choose_side(tx, seat, side)
    if coins:
        tx.emit(CoinsChanged(seat, -coins, "support"))
        c = tx.state.combat
        assert c is not None
        if side == "ATTACKER":
            _set_combat(tx, att_support=c.att_support + coins)
        else:
            _set_combat(tx, def_support=c.def_support + coins)
    support_next(tx)


def dice_count(state: State, c: Combat) -> int:
    city = content().cities[c.city]
    nation = state.players[c.attacker].nation
    base = 0 if city.home == nation else city.arcs.get(nation, 0)
    return base + c.extra_dice


def roll(tx: Tx) -> None:
    c = tx.state.combat
    assert c is not None
    n = dice_count(tx.state, c)
    dice = tuple(tx.rng.die(6) for _ in range(n))
    tx.emit(DiceRolled("DEFENSE", dice))
    c = _set_combat(tx, dice=dice, step=CombatStep.POLAND)
    if n:
        for s in (c.attacker, c.defender_seat):
            if s >= 0 and tx.state.players[s].nation == "POL":
                prompt(tx, StageKind.REROLL, s, data=RerollReason.POLAND.value)
                return
    ideas_step(tx)


def ideas_step(tx: Tx) -> None:
    c = _set_combat(tx, step=CombatStep.IDEAS)
    st = tx.state
    ia = stat(st.players[c.attacker].slots[st.slot - 1], "IDE")
    idf = stat(c.def_cards, "IDE") if c.defender_seat >= 0 else 0
    if c.dice and ia != idf:
        who = c.attacker if ia > idf else c.defender_seat
        if who >= 0:
            prompt(tx, StageKind.REROLL, who, data=RerollReason.IDEAS.value)
            return
    resolve_combat(tx)


def reroll(tx: Tx, seat: int, index: int | None) -> None:
    c = tx.state.combat
    assert c is not None
    reason = tx.state.stage.data
    if index is not None:
        new = tx.rng.die(6)
        dice = list(c.dice)
        old, dice[index] = dice[index], new
        tx.emit(DieRerolled(seat, reason, index, old, new))
        _set_combat(tx, dice=tuple(dice))
    if reason == RerollReason.POLAND:
        ideas_step(tx)
    else:
        resolve_combat(tx)


def strengths(state: State, c: Combat) -> tuple[int, int]:
    """Attack and defense totals by force (§7.3 step 3 and the dice of step 4)."""
    att_nation = state.players[c.attacker].nation
    stack = state.players[c.attacker].slots[state.slot - 1]
    a = stat(stack, "MIL") + c.att_support + c.coins + route_value(att_nation, c.route, True)
    enh = power_type(c.enhancement)
    if enh == "MIGHT" or (enh == "EXPEDITION" and c.route == "SEA"):
        a += power_n(c.enhancement)
    d_seat = c.defender_seat
    if att_nation == "ENG" and d_seat >= 0 and state.is_leader(d_seat):
        a += 3  # DD-42 Balance of Power
    if d_seat >= 0:
        d = stat(c.def_cards, "MIL") + c.def_coins + route_value(c.defender, c.route, True)
        if c.defender == "AUS" and content().cities[c.city].home == "AUS":
            d += 2  # Imperial Fortresses
        if c.defender == "ENG" and state.is_leader(c.attacker):
            d += 3
    else:
        u = content().rules["uncontrolled"]
        d = int(u["military"]) + route_value(c.defender, c.route, False)  # DD-08
    d += c.def_support + c.fortify + sum(c.dice)
    return a, d


def negotiate(state: State, c: Combat) -> tuple[str, int, int]:
    att_nation = state.players[c.attacker].nation
    stack = state.players[c.attacker].slots[state.slot - 1]
    a = stat(stack, "POL")
    d = (
        stat(c.def_cards, "POL")
        if c.defender_seat >= 0
        else content().rules["uncontrolled"]["politics"]
    )
    ra = content().nations[att_nation].religion
    rd = state.city_religion(c.city)
    if ra == rd:
        key = "CAT" if ra == CATH else "ANT"
        a += stat(stack, key)
        if c.defender_seat >= 0:
            d += stat(c.def_cards, key)
    if a != d:
        return (att_nation if a > d else c.defender), a, d
    if c.defender_seat < 0:
        return c.defender, a, d  # DD-09
    order = state.order
    first = min((c.attacker, c.defender_seat), key=order.index)
    return state.players[first].nation, a, d


def resolve_combat(tx: Tx) -> None:
    st = tx.state
    c = st.combat
    assert c is not None
    att_nation = st.players[c.attacker].nation
    a, d = strengths(st, c)
    margin = a - d
    neg: tuple[int, ...] = ()
    if margin >= 5:
        winner, mode = att_nation, "FORCE"
    elif margin <= -5:
        winner, mode = c.defender, "FORCE"
    elif power_type(c.enhancement) == "TRIUMPH":
        winner, mode = att_nation, "TRIUMPH"
    else:
        winner, na, nd = negotiate(st, c)
        mode, neg = "NEGOTIATION", (na, nd)
    tx.emit(CombatResolved(c.city, a, d, winner, mode, neg))
    if winner == att_nation:
        home = content().cities[c.city].home
        tx.emit(CityTaken(c.city, None if home == att_nation else att_nation))
        if att_nation == "SWE" and mode == "FORCE":
            tx.emit(CoinsChanged(c.attacker, 2, "plunder"))
        if c.defender_seat >= 0:
            check_home_cities(tx, c.defender_seat)
            if tx.state.over:
                return
    finish_combat(tx)


def check_home_cities(tx: Tx, seat: int) -> None:
    nation = tx.state.players[seat].nation
    if not any(tx.state.controller(x) == nation for x in tx.state.home_cities(nation)):
        eliminate(tx, seat, "LOST_ALL_STARTING_CITIES")


def finish_combat(tx: Tx) -> None:
    c = tx.state.combat
    assert c is not None
    if c.def_cards:
        if c.defender_seat >= 0 and not tx.state.players[c.defender_seat].eliminated:
            exhaust(tx, c.defender_seat, c.def_cards, "defense")
        else:
            tx.emit(
                LuminariesMoved(
                    c.defender_seat,
                    c.def_cards,
                    len(c.def_cards),
                    "defense",
                    "vault",
                    "server",
                    "eliminated",
                )
            )
    tx.emit(CombatSet(None))
    removed = [c.enhancement] if power_type(c.enhancement) == "EXPEDITION" else []
    finish_action(tx, c.attacker, [x for x in removed if x is not None])
