"""Shared helpers for the Road to Enlightenment tests (a plain module: unique name on purpose)."""

from __future__ import annotations

import re
from typing import Any

import orjson

from domain.bots import RandomBot
from domain.randomness import Context, Rng
from domain.road_to_enlightenment import GAME
from domain.road_to_enlightenment.content import content
from domain.road_to_enlightenment.state import State, replace
from domain.viewers import SPECTATOR, Viewer
from protocol.codec import GameCodec
from tests.state_views import StateViews

CODEC = GameCodec(GAME)
CARD_RE = re.compile(r"re-[A-Z][A-Z0-9]{2}")


def new_game(
    players: int = 3, length: str = "short", seed: int | str = 1, nations: str = "seats"
) -> tuple[State, list[Any]]:
    state = GAME.initial_state({"players": players, "length": length, "nations": nations})
    events = list(GAME.setup(state, Context.seeded(seed)))
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def act(state: State, seat: int, command: Any, seed: int | str = 0) -> tuple[State, list[Any]]:
    events = list(GAME.decide(state, seat, command, Context.seeded(seed)))
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def set_player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def all_cards(state: State) -> list[str]:
    cards: list[str] = []
    for zone in (*state.piles.values(), *state.rows.values(), state.box, state.vault):
        cards.extend(zone)
    for p in state.players:
        for zone in (p.hand, p.deck, p.discard, p.mat, p.aside, p.peek, *p.slots):
            cards.extend(zone)
    if state.combat is not None:
        cards.extend(state.combat.def_cards)
    return cards


ALL_CARDS = frozenset(content().luminaries)


def check_invariants(state: State, settled: bool = False) -> None:
    cards = all_cards(state)
    assert len(cards) == len(ALL_CARDS), "a luminary was lost, invented or is in two places"
    assert set(cards) == ALL_CARDS, "a luminary was lost or is in two places"
    cities = content().cities
    for city, occ in state.occupant.items():
        assert city in cities
        assert occ != cities[city].home, "a disk on its own home city"
        assert state.seat_of(occ) >= 0, "a disk of a nation that no player controls"
    for p in state.players:
        assert p.coins >= 0, f"seat {p.seat} has negative coins"
        assert 0 <= p.sci <= 16 and 0 <= p.art <= 16
        if not p.eliminated:
            for c in p.plan:
                assert c[0] in p.hand
    if not settled:
        return
    # Within one track move several markers shift one event at a time; check between commands.
    positions = [(p.sci, "s") for p in state.players if not p.eliminated and p.sci] + [
        (p.art, "a") for p in state.players if not p.eliminated and p.art
    ]
    assert len(positions) == len(set(positions)), "two markers share a track space"
    for _m, s in state.medallions.items():
        assert not state.players[s].eliminated


def viewers(state: State) -> list[Viewer]:
    return [SPECTATOR, *(Viewer(seat=s) for s in range(len(state.players)))]


def check_no_leak(
    state: State, events: list[Any], views: bool, seen: StateViews | None = None
) -> None:
    """Nothing ``viewer`` receives names a card in ``hidden_values(state, viewer)``.

    ``seen``: the state's views, computed once for this check and the next bot."""
    # An event whose full form names no card cannot leak one in any redaction: skip it.
    carded = [e for e in events if CARD_RE.search(repr(e))]
    if not carded and not views:
        return
    seen = seen or StateViews(GAME, state)
    for viewer in viewers(state):
        texts = []
        for e in carded:
            r = GAME.redact(e, viewer)
            if r is not None:
                texts.append((type(e).__name__, orjson.dumps(CODEC.encode_event(r)).decode()))
        if views:
            texts.append(("the view", orjson.dumps(seen(viewer)).decode()))
        named = [(where, CARD_RE.findall(text)) for where, text in texts]
        if not any(ids for _, ids in named):
            continue
        hidden = GAME.hidden_values(state, viewer)
        for where, ids in named:
            bad = set(ids) & hidden
            assert not bad, f"{viewer} sees {bad} in {where}"


def random_playout(
    players: int,
    length: str,
    seed: int,
    *,
    check: bool = True,
    leak_every: int = 1,
    bots: dict[int, Any] | None = None,
    cap: int = 60_000,
    nations: str = "seats",
) -> tuple[State, list[Any]]:
    """Play to the end with random bots (or ``bots`` by seat); check after every event."""
    state, log = new_game(players, length, seed, nations)
    initial = GAME.initial_state({"players": players, "length": length, "nations": nations})
    rng = Rng(f"bots:{seed}")
    bot = RandomBot()
    steps = 0
    seen = StateViews(GAME, state)
    while not GAME.is_terminal(state):
        assert steps < cap, "the game did not terminate"
        waiting = sorted(GAME.to_act(state))
        assert waiting, "deadlock: nobody to act"
        seat = rng.choice(waiting)
        chooser = (bots or {}).get(seat, bot)
        # bot_move(chooser, GAME, state, seat, rng), with any view the leak check rendered
        command = seen.bot_move(chooser, seat, rng)
        events = list(GAME.decide(state, seat, command, Context.seeded(f"{seed}:{steps}")))
        for e in events:
            state = GAME.evolve(state, e)
            if check:
                check_invariants(state)
        seen = StateViews(GAME, state)
        if check:
            check_invariants(state, settled=True)
        if check and leak_every:
            check_no_leak(state, events, views=steps % leak_every == 0, seen=seen)
        log.extend(events)
        steps += 1
    if check:
        replayed = initial
        for e in log:
            replayed = GAME.evolve(replayed, e)
        assert replayed == state, "folding the log again gives another state"
    return state, log


class ScriptedRng(Rng):
    """Dice from a script (the recorded outcomes of a scenario); shuffles keep the order."""

    def __init__(self, dice: list[int] | None = None) -> None:
        super().__init__(0)
        self.dice = list(dice or [])

    def die(self, sides: int = 6) -> int:
        return self.dice.pop(0)

    def shuffled(self, items: Any) -> tuple[Any, ...]:
        return tuple(items)


def scripted(*dice: int) -> Context:
    return Context(ScriptedRng(list(dice)))


def send(state: State, seat: int, command: Any, *dice: int) -> tuple[State, list[Any]]:
    events = list(GAME.decide(state, seat, command, scripted(*dice)))
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def tx_for(state: State, *dice: int) -> Any:
    from domain.road_to_enlightenment.effects import Tx

    return Tx(state, ScriptedRng(list(dice)))


def seat_of(state: State, nation: str) -> int:
    return state.seat_of(nation)


def at_slot(
    state: State, seat: int, slot: int, cards: tuple[str, ...], hand: tuple[str, ...] = ()
) -> State:
    """``seat`` is about to declare its action in ``slot`` with ``cards`` there (face down)."""
    from domain.road_to_enlightenment.state import Stage, StageKind

    p = state.players[seat]
    slots = list(p.slots)
    slots[slot - 1] = cards
    state = set_player(state, seat, slots=tuple(slots), hand=hand, revealed=(False, False, False))
    queue = tuple(s for s in state.order if s != seat)
    return replace(state, stage=Stage(StageKind.DECLARE, seat, n=slot), slot=slot, queue=queue)


def of_type(events: list[Any], name: str) -> list[Any]:
    return [e for e in events if type(e).__name__ == name]
