"""The rules engine: set-up, the five phases of a turn, actions, combat and scoring.

Every function here takes a :class:`Tx`, reads ``tx.state`` and changes it only by emitting
events (which ``evolve`` folds at once), so the log is the single source of truth. The flow
is a chain of continuations: each step either emits a ``StageSet`` naming the decision the
game now waits for and returns, or calls the next step. Automatic steps (census, income,
refresh, scoring, end of game) therefore run inside the command that completes the step
before them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from ..randomness import Rng
from ..simultaneous import ChoiceCommitted
from .content import ANTI, CATH, COLORS, NEU, content
from .events import (
    ActionDeclared,
    CensusJoined,
    CensusResolved,
    ChitsPlaced,
    CitiesAbandoned,
    CityTaken,
    CoinsChanged,
    CombatResolved,
    CombatSet,
    CursorSet,
    DiceRolled,
    DieRerolled,
    DiplomacyChanged,
    DraftOwed,
    DraftPickForgone,
    ExtraPickGranted,
    GameEnded,
    LuminariesMoved,
    MedallionTaken,
    NationsAssigned,
    OffersRevealed,
    PileShuffled,
    PlayerEliminated,
    PowerUsed,
    PrestigeChanged,
    ScoringApplied,
    ShortfallSet,
    SlotPlanned,
    StackRevealed,
    StacksLocked,
    StageSet,
    TurnBegan,
    TurnOrderSet,
)
from .evolve import evolve
from .state import Combat, Stage, State, replace
from .tracks import advance, retreat, shift_religion

__all__ = ["Tx", "card_stat", "setup_events", "stat"]


class Tx:
    """A decision in progress: the events so far and the state they fold into."""

    def __init__(self, state: State, rng: Rng) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Any] = []

    def emit(self, *events: Any) -> None:
        for e in events:
            self.events.append(e)
            self.state = evolve(self.state, e)


# -- small helpers ----------------------------------------------------------------------------
def card_stat(card: str, key: str) -> int:
    return content().luminaries[card].stat(key)


def stat(cards: Iterable[str], key: str) -> int:
    lums = content().luminaries
    return sum(lums[c].stat(key) for c in cards)


def religion_of(state: State, seat: int) -> str:
    return content().nations[state.players[seat].nation].religion


def forbidden_color(religion: str) -> str:
    return "PINK" if religion == CATH else "PURPLE"


def power_type(card: str | None) -> str | None:
    if card is None:
        return None
    p = content().luminaries[card].power
    return p.type if p else None


def _n(card: str | None) -> int:
    """The ``n`` of a card's power (0 without one)."""
    if card is None:
        return 0
    p = content().luminaries[card].power
    return p.n if p else 0


def exhaust(tx: Tx, seat: int, cards: Sequence[str], src: str) -> None:
    """Favorites go face up to the mat, lessers to the personal discard (both public)."""
    if not cards:
        return
    lums = content().luminaries
    favs = tuple(c for c in cards if lums[c].favorite)
    lesser = tuple(c for c in cards if not lums[c].favorite)
    if favs:
        tx.emit(LuminariesMoved(seat, favs, len(favs), src, "mat", "public", "exhausted"))
    if lesser:
        tx.emit(LuminariesMoved(seat, lesser, len(lesser), src, "discard", "public", "exhausted"))


def remove(tx: Tx, seat: int, cards: Sequence[str], src: str) -> None:
    """Removed by its own effect: set aside (one extra draft pick each)."""
    if cards:
        tx.emit(LuminariesMoved(seat, tuple(cards), len(cards), src, "aside", "public", "removed"))


def prompt(tx: Tx, kind: str, seat: int = -1, **kw: Any) -> None:
    tx.emit(StageSet(Stage(kind, seat, **kw)))


def draw(tx: Tx, seat: int, n: int) -> None:
    """Draw lessers from the personal deck, reshuffling the discard when it runs out."""
    while n > 0:
        p = tx.state.players[seat]
        if not p.deck:
            if not p.discard:
                return
            order = tx.rng.shuffled(p.discard)
            tx.emit(
                LuminariesMoved(seat, order, len(order), "discard", "deck", "server", "reshuffle")
            )
            p = tx.state.players[seat]
        k = min(n, len(p.deck))
        cards = p.deck[:k]
        tx.emit(LuminariesMoved(seat, cards, k, "deck", "hand", "owner", "draw"))
        n -= k


# -- set-up -----------------------------------------------------------------------------------
def setup_events(state: State, rng: Rng) -> list[Any]:
    c = content()
    tx = Tx(state, rng)
    nations = c.nations_for(state.players_n)
    if state.nations == "random":
        # "If players can't agree, assign them randomly" (§6 R1): the permutation is recorded.
        tx.emit(NationsAssigned(rng.shuffled(nations), "RANDOM"))
    else:
        tx.emit(NationsAssigned(nations))
    chit_rules = c.rules["chits"][state.length]
    chits = ["NONE"] * state.final_turn
    for t, v in chit_rules["fixed"].items():
        chits[int(t) - 1] = v
    for key, turns in (("early", chit_rules["early_turns"]), ("later", chit_rules["later_turns"])):
        if turns:
            perm = rng.shuffled(c.rules["chits"][key])
            for t, v in zip(turns, perm, strict=True):
                chits[t - 1] = v
    tx.emit(ChitsPlaced(tuple(chits)))
    lums = c.luminaries.values()
    pools = {
        "fav:PURPLE": ("PURPLE",),
        "fav:PINK": ("PINK",),
        "fav:REDBLUE": ("RED", "BLUE"),
        "fav:ORANGEGREEN": ("ORANGE", "GREEN"),
    }
    for pool, colors in pools.items():
        cards = tuple(x.id for x in lums if x.favorite and x.color in colors)
        order = rng.shuffled(cards)
        tx.emit(PileShuffled(pool, order, len(order)))
    order_seats = tx.state.order
    for step in ("religion", "fav:REDBLUE", "fav:ORANGEGREEN"):
        for seat in order_seats:
            pool = step
            if step == "religion":
                pool = "fav:PURPLE" if religion_of(tx.state, seat) == CATH else "fav:PINK"
            card = tx.state.piles[pool][0]
            tx.emit(LuminariesMoved(seat, (card,), 1, pool, "hand", "owner", "favorite dealt"))
    for pool in pools:
        rest = tx.state.piles[pool]
        tx.emit(LuminariesMoved(-1, rest, len(rest), pool, "vault", "server", "unused favorites"))
    for color in COLORS:
        cards = tuple(x.id for x in lums if not x.favorite and x.color == color)
        order = rng.shuffled(cards)
        tx.emit(PileShuffled(f"pile:{color}", order, len(order)))
    for color in COLORS:
        top = tx.state.piles[f"pile:{color}"][:2]
        tx.emit(
            LuminariesMoved(-1, top, len(top), f"pile:{color}", f"row:{color}", "public", "face up")
        )
    for seat in order_seats:
        banned = forbidden_color(religion_of(tx.state, seat))
        for color in COLORS:
            if color == banned:
                continue
            top = tx.state.piles[f"pile:{color}"][:1]
            tx.emit(LuminariesMoved(seat, top, len(top), f"pile:{color}", "hand", "owner", "deal"))
    start_assign(tx)
    return tx.events


# -- phase 1 ----------------------------------------------------------------------------------
def start_assign(tx: Tx) -> None:
    prompt(tx, "assign", waiting=tuple(tx.state.order))


def plan_slot(tx: Tx, seat: int, card: str, slot: int) -> None:
    tx.emit(SlotPlanned(seat, card, slot))
    if seat in tx.state.choices.committed_seats:  # DD-38: a revision re-commits at once
        plan = tx.state.players[seat].plan
        tx.emit(ChoiceCommitted(seat, tuple(sorted(f"{s}:{c}" for c, s in plan))))


def confirm_slots(tx: Tx, seat: int) -> None:
    plan = tx.state.players[seat].plan
    tx.emit(ChoiceCommitted(seat, tuple(sorted(f"{s}:{c}" for c, s in plan))))
    if tx.state.choices.complete:
        counts = tuple(
            tuple(sum(1 for _, s in p.plan if s == k) for k in (1, 2, 3)) for p in tx.state.players
        )
        tx.emit(StacksLocked(counts))
        begin_slot(tx, 1)


# -- phase 2 ----------------------------------------------------------------------------------
def begin_slot(tx: Tx, slot: int) -> None:
    tx.emit(CursorSet(slot, tuple(tx.state.order)))
    next_actor(tx)


def next_actor(tx: Tx) -> None:
    if tx.state.over:
        return
    q = tx.state.queue
    if not q:
        if tx.state.slot == 1:
            begin_slot(tx, 2)
        else:
            census_phase(tx)
        return
    seat = q[0]
    tx.emit(CursorSet(tx.state.slot, q[1:]))
    prompt(tx, "declare", seat, n=tx.state.slot)


def reveal(tx: Tx, seat: int, slot: int) -> tuple[str, ...]:
    cards = tx.state.players[seat].slots[slot - 1]
    tx.emit(StackRevealed(seat, slot, cards))
    return cards


def finish_action(tx: Tx, seat: int, removed: Sequence[str] = ()) -> None:
    """A_CLEANUP and A_POST: exhaust the acting stack, then Russia's movement power."""
    if tx.state.over:
        return
    slot = tx.state.slot
    src = f"slot{slot}"
    stack = tx.state.players[seat].slots[slot - 1]
    gone = [c for c in removed if c in stack]
    remove(tx, seat, gone, src)
    exhaust(tx, seat, [c for c in stack if c not in gone], src)
    p = tx.state.players[seat]
    westernization = "WESTERNIZATION" in content().nations["RUS"].powers
    if p.nation == "RUS" and westernization and not p.russia_used and not p.eliminated:
        prompt(tx, "russia", seat)
        return
    next_actor(tx)


def russia_move(tx: Tx, seat: int, track: str | None) -> None:
    if track is not None:
        tx.emit(PowerUsed(seat, "WESTERNIZATION"))
        advance(tx, seat, track, 1, "WESTERNIZATION")
    next_actor(tx)


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
        view += _n(enhancement)
    deck = tx.state.players[seat].deck
    n = min(view, len(deck))
    if n == 0:
        finish_action(tx, seat)
        return
    tx.emit(LuminariesMoved(seat, deck[:n], n, "deck", "peek", "owner", "reorganize peek"))
    prompt(tx, "reorganize", seat)


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
            n += _n(enhancement)
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
            prompt(tx, "arrest", victim, other=seat)
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
    prompt(tx, "forge", seat)


def forge(tx: Tx, seat: int, nation: str, cards: Sequence[str]) -> None:
    exhaust(tx, seat, cards, f"slot{tx.state.slot}")
    tx.emit(DiplomacyChanged(tx.state.players[seat].nation, nation, "ALLY", "forged"))
    prompt(tx, "gift", seat)


def gift(tx: Tx, seat: int, ally: int, cards: Sequence[str]) -> None:
    exhaust(tx, seat, cards, f"slot{tx.state.slot}")
    tx.emit(
        CoinsChanged(seat, -content().rules["costs"]["gift_coins"], "gift"),
        PrestigeChanged(seat, 1, "gift"),
        PrestigeChanged(ally, 1, "gift"),
    )
    prompt(tx, "offer", seat, other=ally, waiting=(seat, ally))


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
            "accept",
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
        step="war",
    )
    tx.emit(CombatSet(combat))
    if needs_war(st, seat, target):
        if power_type(enhancement) == "CASUS_BELLI":
            tx.emit(DiplomacyChanged(st.players[seat].nation, defender, "WAR", "casus belli"))
        else:
            prompt(tx, "war", seat)
            return
    start_combat(tx)


def pay_war(tx: Tx, seat: int, cards: Sequence[str]) -> None:
    exhaust(tx, seat, cards, f"slot{tx.state.slot}")
    c = tx.state.combat
    assert c is not None
    tx.emit(DiplomacyChanged(tx.state.players[seat].nation, c.defender, "WAR", "declared"))
    start_combat(tx)


def _set_combat(tx: Tx, **changes: Any) -> Combat:
    assert tx.state.combat is not None
    c = replace(tx.state.combat, **changes)
    tx.emit(CombatSet(c))
    return c


def start_combat(tx: Tx) -> None:
    c = tx.state.combat
    assert c is not None
    if c.defender_seat >= 0:
        _set_combat(tx, step="respond")
        prompt(tx, "respond", c.defender_seat)  # DD-25: the defender may respond, once
    else:
        support_start(tx)


def respond(tx: Tx, seat: int, cards: Sequence[str]) -> None:
    c = tx.state.combat
    assert c is not None
    others = [x for x in cards if power_type(x) != "PARLEY"]
    parley = [x for x in cards if power_type(x) == "PARLEY"]
    extra = sum(1 for x in others if power_type(x) == "LEVY")
    fort = sum(_n(x) for x in others if power_type(x) == "FORTIFY")
    exhaust(tx, seat, others, "hand")
    if extra or fort:
        c = _set_combat(tx, extra_dice=c.extra_dice + extra, fortify=c.fortify + fort)
    if parley:
        remove(tx, seat, parley, "hand")  # Cornelis de Graeff: removed either way
        if tx.state.players[c.attacker].coins >= content().rules["costs"]["parley_coins"]:
            _set_combat(tx, step="parley")
            prompt(tx, "parley", c.attacker)
        else:
            cancel_combat(tx)
        return
    _set_combat(tx, step="defend")
    prompt(tx, "defend", seat)


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
    _set_combat(tx, step="defend")
    prompt(tx, "defend", c.defender_seat)


def cancel_combat(tx: Tx) -> None:
    c = tx.state.combat
    assert c is not None
    tx.emit(CombatResolved(c.city, 0, 0, c.defender, "CANCELLED"))
    finish_combat(tx)


def defend_with(tx: Tx, seat: int, card: str) -> None:
    tx.emit(LuminariesMoved(seat, (card,), 1, "hand", "defense", "public", "defending stack"))
    prompt(tx, "defend", seat)


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
    _set_combat(tx, step="support", support_queue=queue)
    support_next(tx)


def support_next(tx: Tx) -> None:
    c = tx.state.combat
    assert c is not None
    if c.support_queue:
        seat = c.support_queue[0]
        _set_combat(tx, support_queue=c.support_queue[1:], support_side="")
        prompt(tx, "support", seat)
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
    prompt(tx, "support", seat)


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
    c = _set_combat(tx, dice=dice, step="poland")
    if n:
        for s in (c.attacker, c.defender_seat):
            if s >= 0 and tx.state.players[s].nation == "POL":
                prompt(tx, "reroll", s, data="POLAND")
                return
    ideas_step(tx)


def ideas_step(tx: Tx) -> None:
    c = _set_combat(tx, step="ideas")
    st = tx.state
    ia = stat(st.players[c.attacker].slots[st.slot - 1], "IDE")
    idf = stat(c.def_cards, "IDE") if c.defender_seat >= 0 else 0
    if c.dice and ia != idf:
        who = c.attacker if ia > idf else c.defender_seat
        if who >= 0:
            prompt(tx, "reroll", who, data="IDEAS")
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
    if reason == "POLAND":
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
        a += _n(c.enhancement)
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


# -- elimination ------------------------------------------------------------------------------
def eliminate(tx: Tx, seat: int, cause: str) -> None:
    st = tx.state
    nation = st.players[seat].nation
    for city, occ in sorted(st.occupant.items()):
        if occ == nation:
            tx.emit(CityTaken(city, None, "elimination"))
    for m, holder in sorted(st.medallions.items()):
        if holder == seat:
            tx.emit(MedallionTaken(m, -1, "ELIMINATION"))
    p = tx.state.players[seat]
    zones = [
        ("hand", p.hand),
        ("deck", p.deck),
        ("discard", p.discard),
        ("mat", p.mat),
        ("aside", p.aside),
        ("peek", p.peek),
    ]
    zones += [(f"slot{i + 1}", s) for i, s in enumerate(p.slots)]
    for zone, cards in zones:
        if cards:
            tx.emit(LuminariesMoved(seat, cards, len(cards), zone, "vault", "server", "eliminated"))
    tx.emit(PlayerEliminated(seat, cause))
    if len(tx.state.active) < 2:
        end_game(tx)


# -- phase 2c: census (§8.3) ------------------------------------------------------------------
def census_phase(tx: Tx) -> None:
    tx.emit(CursorSet(0, ()))
    st = tx.state
    kind = st.chits[st.turn - 1]
    if kind in ("SCIENCE", "ART", "RELIGION"):
        resolve_census(tx, kind)
    for seat in tx.state.census:
        exhaust(tx, seat, tx.state.players[seat].slots[1], "slot2")
    phase3(tx)


def census_contribution(state: State, seat: int, kind: str) -> int:
    stack = state.players[seat].slots[1]
    if kind == "SCIENCE":
        return min(stat(stack, "SCI"), stat(stack, "IDE"))
    if kind == "ART":
        return min(stat(stack, "ART"), stat(stack, "WEA"))
    rel = religion_of(state, seat)
    mine, other = ("CAT", "ANT") if rel == CATH else ("ANT", "CAT")
    ok = [x for x in stack if card_stat(x, other) == 0]
    return min(stat(ok, "POL"), stat(ok, mine))


def resolve_census(tx: Tx, kind: str) -> None:
    st = tx.state
    contrib = {s: census_contribution(st, s, kind) for s in st.census}
    if kind in ("SCIENCE", "ART"):
        track = "SCI" if kind == "SCIENCE" else "ART"
        ranked = sorted(
            (s for s in contrib if contrib[s] >= 1), key=lambda s: (-contrib[s], st.order.index(s))
        )
        steps = []
        for s in st.order:
            if s in ranked:
                r = ranked.index(s)
                n = contrib[s] // 5 + (4 if r == 0 else 2 if r == 1 else 0)
                steps.append((s, n))
        tx.emit(CensusResolved(kind, tuple(sorted(contrib.items())), tuple(steps)))
        for s, n in steps:
            if not tx.state.players[s].eliminated:
                advance(tx, s, track, n, "CENSUS")
        return
    tot = {CATH: 0, ANTI: 0}
    for s, v in contrib.items():
        tot[religion_of(st, s)] += v
    n_c = sum(1 for s in st.active if religion_of(st, s) == CATH)
    n_a = len(st.active) - n_c
    if n_c != n_a:
        minority = CATH if n_c < n_a else ANTI
        dice = tuple(tx.rng.die(6) for _ in range(3))
        tx.emit(DiceRolled("RELIGION_MINORITY", dice, minority))
        tot[minority] += sum(dice)
    steps_r: tuple[tuple[int, int], ...] = ()
    tx.emit(CensusResolved(kind, tuple(sorted(contrib.items())), steps_r))
    if tot[CATH] != tot[ANTI]:
        win = CATH if tot[CATH] > tot[ANTI] else ANTI
        margin = abs(tot[CATH] - tot[ANTI])
        shift_religion(tx, win, 3 + margin // 5)


# -- phase 3 ----------------------------------------------------------------------------------
def phase3(tx: Tx) -> None:
    st = tx.state
    for seat in st.order:
        reveal(tx, seat, 3)
    choosers = []
    for seat in st.order:
        stack = tx.state.players[seat].slots[2]
        rel = religion_of(st, seat)
        if stat(stack, "CAT" if rel == CATH else "ANT") > 0:
            choosers.append(seat)
    if choosers:
        prompt(tx, "phase3", waiting=tuple(choosers))
    else:
        phase3_resolve(tx)


def phase3_choice(tx: Tx, seat: int, cath_as: str | None, anti_as: str | None) -> None:
    tx.emit(ChoiceCommitted(seat, (cath_as or "", anti_as or "")))
    if tx.state.choices.complete:
        tx.emit(tx.state.choices.revealed())
        phase3_resolve(tx)


def _choice(state: State, seat: int) -> tuple[str, str]:
    for s, c in state.p3:
        if s == seat and len(c) == 2:
            return c[0], c[1]
    return "", ""


def _slot3_value(st: State, seat: int, pair: tuple[str, str], religion: str) -> int:
    """The lesser of the slot-3 stack's two ``pair`` stats: income (WEA, POL) or the bid
    (MIL, SCI). A player of ``religion`` adds its religion stat ([Catholicism] to income,
    [Anti-Catholicism] to the bid) to the side chosen in ``Phase3Choices``."""
    stack = st.players[seat].slots[2]
    a, b = stat(stack, pair[0]), stat(stack, pair[1])
    if religion_of(st, seat) == religion:
        bonus = stat(stack, "CAT" if religion == CATH else "ANT")
        if _choice(st, seat)[0 if religion == CATH else 1] == pair[0]:
            a += bonus
        else:
            b += bonus
    return min(a, b)


def phase3_resolve(tx: Tx) -> None:
    st = tx.state
    for seat in st.order:
        income = _slot3_value(st, seat, ("WEA", "POL"), CATH)
        if income:
            tx.emit(CoinsChanged(seat, income, "income"))
    short = [0] * st.players_n
    for seat in tx.state.order:
        pl = tx.state.players[seat]
        due = content().nations[pl.nation].upkeep + len(tx.state.foreign(seat))
        paid = min(pl.coins, due)
        if paid:
            tx.emit(CoinsChanged(seat, -paid, "upkeep"))
        short[seat] = due - paid
    tx.emit(ShortfallSet(tuple(short)))
    recipients = tuple(s for s in tx.state.order if short[s] > 0)
    help_recipients(tx, recipients)


def _helpers(state: State, r: int) -> tuple[int, ...]:
    order = state.order
    i = order.index(r)
    rot = order[i + 1 :] + order[:i]
    me = state.players[r].nation
    return tuple(h for h in rot if state.allied(state.players[h].nation, me))


def help_recipients(tx: Tx, recipients: tuple[int, ...]) -> None:
    for k, r in enumerate(recipients):
        if tx.state.players[r].eliminated or tx.state.shortfall[r] == 0:
            continue
        if help_next(tx, r, _helpers(tx.state, r), recipients[k + 1 :]):
            return
    abandon_from(tx, tuple(s for s in tx.state.order if tx.state.shortfall[s] > 0))


def help_next(tx: Tx, r: int, helpers: tuple[int, ...], rest: tuple[int, ...]) -> bool:
    """Prompt the next ally able to help ``r``; False when nobody is left to ask."""
    for j, h in enumerate(helpers):
        st = tx.state
        if st.shortfall[r] == 0:
            return False
        if st.players[h].eliminated or st.players[h].coins == 0:
            continue
        prompt(tx, "help", h, other=r, waiting=helpers[j + 1 :], data=",".join(map(str, rest)))
        return True
    return False


def help_upkeep(tx: Tx, seat: int, coins: int) -> None:
    stage = tx.state.stage
    r = stage.other
    if coins:
        short = list(tx.state.shortfall)
        short[r] -= coins
        tx.emit(CoinsChanged(seat, -coins, "upkeep help"), ShortfallSet(tuple(short)))
    rest = tuple(int(x) for x in stage.data.split(",") if x)
    if help_next(tx, r, stage.waiting, rest):
        return
    help_recipients(tx, rest)


def abandon_from(tx: Tx, recipients: tuple[int, ...]) -> None:
    for k, r in enumerate(recipients):
        st = tx.state
        if st.players[r].eliminated:
            continue
        short = st.shortfall[r]
        foreign = sorted(st.foreign(r))
        n = min(short, len(foreign))
        if n and n == len(foreign):
            tx.emit(CitiesAbandoned(r, tuple(foreign)), _short(tx.state, r, short - n))
        elif n:
            prompt(tx, "abandon", r, n=n, waiting=recipients[k + 1 :])
            return
        penalty(tx, r)
        if tx.state.over:
            return
    phase3_finish(tx)


def _short(state: State, seat: int, value: int) -> ShortfallSet:
    short = list(state.shortfall)
    short[seat] = value
    return ShortfallSet(tuple(short))


def abandon_city(tx: Tx, seat: int, city: str) -> None:
    stage = tx.state.stage
    tx.emit(CitiesAbandoned(seat, (city,)), _short(tx.state, seat, tx.state.shortfall[seat] - 1))
    if stage.n > 1:
        prompt(tx, "abandon", seat, n=stage.n - 1, waiting=stage.waiting)
        return
    penalty(tx, seat)
    if tx.state.over:
        return
    abandon_from(tx, stage.waiting)


def penalty(tx: Tx, seat: int) -> None:
    short = tx.state.shortfall[seat]
    if short <= 0:
        return
    loss = math.ceil(short / 2)
    tx.emit(_short(tx.state, seat, 0))
    if tx.state.players[seat].score - loss < 0:
        eliminate(tx, seat, "UPKEEP")
    else:
        tx.emit(PrestigeChanged(seat, -loss, "upkeep shortfall"))


def phase3_finish(tx: Tx) -> None:
    st = tx.state
    for seat in st.order:
        p = st.players[seat]
        limit = content().nations[p.nation].treasury_limit
        if p.coins > limit:
            tx.emit(CoinsChanged(seat, limit - p.coins, "treasury limit"))
    bids = {}
    for seat in st.order:
        bids[seat] = _slot3_value(st, seat, ("MIL", "SCI"), ANTI)
    order = tuple(sorted(st.order, key=lambda s: (-bids[s], st.order.index(s))))
    tx.emit(TurnOrderSet(order, tuple(sorted(bids.items()))))
    for seat in order:
        exhaust(tx, seat, tx.state.players[seat].slots[2], "slot3")
    phase4(tx)


# -- phase 4 ----------------------------------------------------------------------------------
def phase4(tx: Tx) -> None:
    st = tx.state
    scoring_turns = content().rules["scoring_turns"][st.length]
    if st.turn in scoring_turns:
        score(tx)
    if st.turn >= st.final_turn:
        end_game(tx)
        return
    draft_start(tx)


def score_deltas(state: State) -> dict[int, int]:
    act = list(state.order)
    deltas = {}
    for seat in act:
        p = state.players[seat]
        d = len(state.foreign(seat))
        d -= 2 * sum(1 for c in state.home_cities(p.nation) if state.controller(c) != p.nation)
        for attr in ("sci", "art"):
            pos = getattr(p, attr)
            if 1 <= pos <= 8:
                d += 1
            elif pos >= 9:
                d += 2
            top = max(act, key=lambda q: (getattr(state.players[q], attr), -act.index(q)))
            if seat == top:
                d += 2
            if pos == min(getattr(state.players[q], attr) for q in act):
                d -= 1
        rel = content().nations[p.nation].religion
        if (state.religion < 0 and rel == CATH) or (state.religion > 0 and rel == ANTI):
            d += 2
        if p.nation == "RUS" and "STEPPE_PATIENCE" in content().nations["RUS"].powers:
            d += sum(1 for a in ("sci", "art") if getattr(p, a) >= 9)
        deltas[seat] = d
    return deltas


def score(tx: Tx) -> None:
    deltas = score_deltas(tx.state)
    tx.emit(ScoringApplied(tuple(sorted(deltas.items()))))
    for seat, d in deltas.items():
        now = tx.state.players[seat].score
        actual = max(0, now + d) - now  # DD-14: scoring floors at 0
        if actual:
            tx.emit(PrestigeChanged(seat, actual, "scoring"))


def end_game(tx: Tx) -> None:
    st = tx.state
    ranking = sorted(st.order, key=lambda s: (-st.players[s].score, st.order.index(s)))
    fallen = sorted(
        (p.seat for p in st.players if p.eliminated), key=lambda s: (-st.players[s].score, s)
    )
    tx.emit(CursorSet(0, ()))
    tx.emit(GameEnded(tuple(p.score for p in st.players), tuple(ranking + fallen)))


# -- phase 5 ----------------------------------------------------------------------------------
def draft_start(tx: Tx) -> None:
    base = 2 if tx.state.players_n <= 4 else 1  # DD-17: fixed by the player count at setup
    tx.emit(CursorSet(-1, tuple(tx.state.order) * base))
    draft_next(tx)


def legal_draft(state: State, seat: int) -> list[str]:
    banned = forbidden_color(religion_of(state, seat))
    return [c for col in COLORS if col != banned for c in state.rows.get(col, ())]


def draft_next(tx: Tx) -> None:
    while True:
        st = tx.state
        q = st.queue
        extra = st.slot == -2
        if q:
            seat = q[0]
            tx.emit(CursorSet(st.slot, q[1:]))
            if legal_draft(tx.state, seat):
                prompt(tx, "draft", seat, data="EXTRA" if extra else "BASE")
                return
            tx.emit(DraftPickForgone(seat))
            if extra:
                owed = list(tx.state.owed)
                owed[seat] = 0
                tx.emit(DraftOwed(tuple(owed)))
            continue
        if not extra:
            owed_t = tuple(
                len(p.aside) + p.extra_picks if not p.eliminated else 0 for p in st.players
            )
            tx.emit(DraftOwed(owed_t))
        queue = tuple(s for s in tx.state.order if tx.state.owed[s] > 0)
        if not queue:
            draft_finish(tx)
            return
        tx.emit(CursorSet(-2, queue))


def draft_pick(tx: Tx, seat: int, card: str) -> None:
    color = content().luminaries[card].color
    tx.emit(LuminariesMoved(seat, (card,), 1, f"row:{color}", "hand", "public", "drafted"))
    if tx.state.slot == -2:
        owed = list(tx.state.owed)
        owed[seat] -= 1
        tx.emit(DraftOwed(tuple(owed)))
    draft_next(tx)


def draft_finish(tx: Tx) -> None:
    st = tx.state
    for p in st.players:
        if p.aside:
            tx.emit(
                LuminariesMoved(p.seat, p.aside, len(p.aside), "aside", "box", "public", "removed")
            )
    tx.emit(CursorSet(0, ()), DraftOwed((0,) * st.players_n))
    for col in COLORS:  # DD-47: undrafted cards to the bottom, row order
        row = tx.state.rows.get(col, ())
        if row:
            tx.emit(
                LuminariesMoved(
                    -1, row, len(row), f"row:{col}", f"pile:{col}", "public", "returned"
                )
            )
    for col in COLORS:
        top = tx.state.piles[f"pile:{col}"][:2]
        if top:
            tx.emit(
                LuminariesMoved(-1, top, len(top), f"pile:{col}", f"row:{col}", "public", "face up")
            )
    waiting = []
    for seat in tx.state.order:
        p = tx.state.players[seat]
        if p.mat and len(p.hand) < tx.state.hand_size(seat):
            waiting.append(seat)
        else:
            draw(tx, seat, tx.state.hand_size(seat) - len(p.hand))
    if waiting:
        prompt(tx, "refill", waiting=tuple(waiting))
    else:
        end_round(tx)


def refill(tx: Tx, seat: int, favorites: Sequence[str]) -> None:
    if favorites:
        tx.emit(
            LuminariesMoved(
                seat, tuple(favorites), len(favorites), "mat", "hand", "public", "reclaimed"
            )
        )
    p = tx.state.players[seat]
    draw(tx, seat, tx.state.hand_size(seat) - len(p.hand))
    waiting = tuple(s for s in tx.state.stage.waiting if s != seat)
    if waiting:
        prompt(tx, "refill", waiting=waiting)
    else:
        end_round(tx)


def end_round(tx: Tx) -> None:
    tx.emit(TurnBegan(tx.state.turn + 1))
    start_assign(tx)
