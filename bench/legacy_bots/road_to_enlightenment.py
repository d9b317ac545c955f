"""The greedy bot as it was before bots were limited to their seat's view (a baseline).

It is handed the whole state, hidden hands and deck order included. Kept only so that the
bench and the soak tests can check the fair bot still beats or ties it; never registered.

A better-than-random bot for Road to Enlightenment.

The greedy bot plays the economy and the culture race rather than the map: it builds a
census stack for slot 2 on census turns, a luminary action for slot 1, an income stack for
slot 3, drafts the strongest cards, defends its cities with its military luminaries and
never starts a war. Every choice is one of ``legal_commands``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.game import Game
from domain.randomness import Rng
from domain.road_to_enlightenment.commands import (
    ConfirmSlots,
    DeclareCensus,
    DeclareLuminaryAction,
    DeclareReorganize,
    DefendWith,
    DefenseDone,
    DraftPick,
    ExchangeOffer,
    PlaceLuminary,
    RefillHand,
    ReorganizePick,
    Reroll,
    Respond,
    SupportPass,
)
from domain.road_to_enlightenment.content import CATH, content
from domain.road_to_enlightenment.state import State
from domain.viewers import Seat

__all__ = ["GreedyBot"]

ACTION_VALUE = {
    "ADVANCE": 10,
    "PATRON": 8,
    "COLONY": 6,
    "TAX": 5,
    "SETBACK": 4,
    "PIETY": 3,
    "ARREST": 1,
}


def _stat(cards: Sequence[str], key: str) -> int:
    lums = content().luminaries
    return sum(lums[c].stat(key) for c in cards)


def card_value(card: str) -> int:
    lum = content().luminaries[card]
    v = sum(lum.stats.values())
    if lum.power is not None:
        v += {"ADVANCE": 4 + lum.power.n, "PATRON": 4}.get(lum.power.type, 1)
    return v


def _action_value(state: State, seat: int, card: str) -> int:
    p = content().luminaries[card].power
    if p is None or p.kind != "ACTION":
        return 0
    nation = content().nations[state.players[seat].nation]
    if p.type == "COLONY" and not nation.colonial:
        return 0
    if p.type == "ADVANCE":
        return ACTION_VALUE["ADVANCE"] + 2 * p.n
    return ACTION_VALUE.get(p.type, 0) + p.n


def _census_score(state: State, seat: int, kind: str, cards: Sequence[str]) -> int:
    if kind == "SCIENCE":
        return min(_stat(cards, "SCI"), _stat(cards, "IDE"))
    if kind == "ART":
        return min(_stat(cards, "ART"), _stat(cards, "WEA"))
    rel = content().nations[state.players[seat].nation].religion
    mine, other = ("CAT", "ANT") if rel == CATH else ("ANT", "CAT")
    ok = [c for c in cards if content().luminaries[c].stat(other) == 0]
    return min(_stat(ok, "POL"), _stat(ok, mine))


def _income(state: State, seat: int, cards: Sequence[str]) -> int:
    w, p = _stat(cards, "WEA"), _stat(cards, "POL")
    if content().nations[state.players[seat].nation].religion == CATH:
        c = _stat(cards, "CAT")
        return max(min(w + c, p), min(w, p + c))
    return min(w, p)


def _grow(pool: list[str], score: Any) -> list[str]:
    """Greedily add cards from ``pool`` while ``score`` improves."""
    chosen: list[str] = []
    best = score(chosen)
    while True:
        options = [(score([*chosen, c]), c) for c in pool if c not in chosen]
        if not options:
            return chosen
        value, card = max(options)
        if value <= best:
            return chosen
        chosen.append(card)
        best = value


def plan_slots(state: State, seat: int) -> dict[str, int]:
    hand = sorted(state.players[seat].hand)
    target: dict[str, int] = {}
    kind = state.chits[state.turn - 1]
    pool = list(hand)
    if kind in ("SCIENCE", "ART", "RELIGION"):
        census = _grow(pool, lambda cs: _census_score(state, seat, kind, cs))
        for c in census:
            target[c] = 2
        pool = [c for c in pool if c not in census]
    actions = sorted(((_action_value(state, seat, c), c) for c in pool), reverse=True)
    free_slots = [1] if kind in ("SCIENCE", "ART", "RELIGION") else [1, 2]
    for (value, card), slot in zip(actions, free_slots, strict=False):
        if value > 0:
            target[card] = slot
            pool.remove(card)
    income = _grow(pool, lambda cs: _income(state, seat, cs))
    for c in income:
        target[c] = 3
    return target


class GreedyBot:
    name = "greedy"

    def choose(self, game: Game[Any, Any, Any], state: Any, seat: Seat, rng: Rng) -> Any:
        legal = legal_list(game, state, seat)
        choice = self._choose(state, seat, legal)
        return choice if choice in legal else rng.choice(legal)

    def _choose(self, state: State, seat: int, legal: list[Any]) -> Any:
        kind = state.stage.kind
        p = state.players[seat]
        if kind == "assign":
            target = plan_slots(state, seat)
            current = dict(p.plan)
            for card in sorted(p.hand):
                want = target.get(card, 0)
                if current.get(card, 0) != want:
                    return PlaceLuminary(card, want)
            return ConfirmSlots()
        if kind == "declare":
            if (
                DeclareCensus() in legal
                and _census_score(state, seat, state.chits[state.turn - 1], p.slots[1]) > 0
            ):
                return DeclareCensus()
            actions = [c for c in legal if isinstance(c, DeclareLuminaryAction)]
            if actions:
                best = max(
                    actions,
                    key=lambda c: (_action_value(state, seat, c.card), c.enhancement is not None),
                )
                if _action_value(state, seat, best.card) > 0:
                    return best
            reorganize = [c for c in legal if isinstance(c, DeclareReorganize)]
            return reorganize[-1]
        if kind == "respond":
            return max((c for c in legal if isinstance(c, Respond)), key=lambda c: len(c.cards))
        if kind == "defend":
            lums = content().luminaries
            for c in legal:
                if isinstance(c, DefendWith) and lums[c.card].stat("MIL") >= 3:
                    return c
            return DefenseDone(0)
        if kind == "support":
            return SupportPass() if SupportPass() in legal else legal[-1]
        if kind == "reroll":
            c = state.combat
            assert c is not None and c.dice
            if seat == c.attacker:
                i = max(range(len(c.dice)), key=lambda k: c.dice[k])
                return Reroll(i) if c.dice[i] >= 4 else Reroll(None)
            i = min(range(len(c.dice)), key=lambda k: c.dice[k])
            return Reroll(i) if c.dice[i] <= 3 else Reroll(None)
        if kind == "reorganize":
            peeked = [c.card for c in legal if isinstance(c, ReorganizePick) and c.card is not None]
            return ReorganizePick(max(peeked, key=card_value)) if peeked else ReorganizePick(None)
        if kind == "arrest":
            return min(legal, key=lambda c: card_value(c.card))
        if kind == "draft":
            cards = [c.card for c in legal if isinstance(c, DraftPick)]
            return DraftPick(max(cards, key=lambda x: (card_value(x), x)))
        if kind == "refill":
            return max(legal, key=lambda c: len(c.favorites) if isinstance(c, RefillHand) else -1)
        if kind == "offer":
            return ExchangeOffer(None)
        if kind == "phase3":
            return self._phase3(state, seat, legal)
        return legal[0]  # skip forge/gift, refuse parley and exchanges, help with 0, etc.

    def _phase3(self, state: State, seat: int, legal: list[Any]) -> Any:
        stack = state.players[seat].slots[2]
        w, p = _stat(stack, "WEA"), _stat(stack, "POL")

        def value(cmd: Any) -> int:
            if cmd.catholicism_as == "WEA":
                return min(w + _stat(stack, "CAT"), p)
            if cmd.catholicism_as == "POL":
                return min(w, p + _stat(stack, "CAT"))
            return 1 if cmd.anti_as == "SCI" else 0

        return max(legal, key=value)


def legal_list(game: Game[Any, Any, Any], state: Any, seat: Seat) -> list[Any]:
    """The pre-view bot interface: the legal commands, computed from the whole state."""
    return list(game.legal_commands(state, seat))
