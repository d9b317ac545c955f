"""``legal_commands`` lists exactly what ``decide`` accepts, on random reachable states."""

from __future__ import annotations

import random
from typing import Any

import attrs

from domain.errors import DomainError
from domain.illumination import GAME
from domain.illumination import commands as cmd
from domain.illumination.state import State
from domain.randomness import Context
from tests.illumination.illum_support import iter_states

OPTIONS = [
    {"mode": "duel", "side": "reverent", "difficulty": 2, "books": "standard"},
    {"mode": "duel", "side": "reverent", "difficulty": 2, "books": "random"},
    {"mode": "solo", "side": "irreverent", "difficulty": 5, "books": "standard"},
    {"mode": "solo", "side": "reverent", "difficulty": 3, "books": "random"},
]

STRINGS = [
    "row",
    "col",
    "coin",
    "Candle",
    "Bell",
    "Wine",
    "Bread",
    "Incense",
    "R01",
    "I36",
    "R12",
    "X99",
    "",
]


def _mutate(command: Any, rnd: random.Random) -> Any:
    """A nearby command: one field changed to another plausible (or absurd) value."""
    fields = attrs.fields(type(command))
    if not fields:
        return rnd.choice([cmd.Pass(), cmd.EndTurn(), cmd.ChooseLine("row", 1)])
    field = rnd.choice(fields)
    value = getattr(command, field.name)
    if isinstance(value, bool):
        new: Any = not value
    elif isinstance(value, int):
        new = value + rnd.choice([-7, -2, -1, 1, 2, 5])
    elif isinstance(value, str):
        new = rnd.choice(STRINGS)
    elif isinstance(value, tuple):
        items = list(value)
        if items:
            i = rnd.randrange(len(items))
            items[i] = items[i] + rnd.choice([-1, 1, 2])
        new = tuple(items) if rnd.random() < 0.8 else (*items, 1)
    else:
        new = None
    return attrs.evolve(command, **{field.name: new})


def _random_commands(state: State, rnd: random.Random) -> list[Any]:
    out: list[Any] = []
    tiles = [t for book in state.books for t in book.cells if t is not None]
    tiles += [t for t, _ in state.active] + ["R01", "I20", "nope"]
    for _ in range(25):
        tile = rnd.choice(tiles)
        r, c = rnd.randint(-1, 5), rnd.randint(-1, 5)
        pay = tuple(rnd.randint(0, 2) for _ in range(5))
        out.append(
            rnd.choice(
                [
                    cmd.PlaceTile(tile, r, c),
                    cmd.PlayScriptum(tile, r, c),
                    cmd.PlayMotus(tile, rnd.randint(0, 3), r, c),
                    cmd.PlayExilium(tile, rnd.randint(-1, 2)),
                    cmd.MoveActiveTile(tile, rnd.randint(0, 2), pay),
                    cmd.MoveAbbot(rnd.randint(0, 8), pay),
                    cmd.BuyCard(pay),
                    cmd.ClaimRitual(rnd.choice(STRINGS), rnd.randint(2, 6)),
                    cmd.ChooseLine(rnd.choice(["row", "col", "diag"]), rnd.randint(0, 4)),
                    cmd.SendToSheepPen(tile),
                    cmd.PlayMutatio((rnd.randint(0, 3), rnd.randint(1, 3)), (1, rnd.randint(1, 4))),
                    cmd.PlayPorticus(rnd.choice(["row", "col"]), rnd.randint(0, 3), 2),
                    cmd.PlayRitus(rnd.choice(STRINGS)),
                    cmd.DiscardItem(rnd.choice(STRINGS)),
                    cmd.ChooseExiliumSpace(r, c),
                    cmd.ChooseCompletionToken(rnd.choice(STRINGS)),
                    cmd.PlayMotusAbbot(rnd.randint(-1, 8)),
                    cmd.Pass(),
                    cmd.EndTurn(),
                ]
            )
        )
    return out


def _check_state(state: State, rnd: random.Random, accepted_unlisted: list[Any]) -> None:
    seats = 2 if state.mode == "duel" else 1
    for seat in range(seats):
        legal = list(GAME.legal_commands(state, seat))
        if seat not in GAME.to_act(state):
            assert legal == []
            for command in _random_commands(state, rnd)[:3]:
                try:
                    GAME.decide(state, seat, command, Context.seeded(1))
                except DomainError:
                    continue
                accepted_unlisted.append(command)
            continue
        assert legal, "the seat to act has no legal command"
        assert len(legal) == len(set(legal)), "duplicate legal commands"
        subset = legal if len(legal) <= 40 else rnd.sample(legal, 40)
        for command in subset:
            GAME.decide(state, seat, command, Context.seeded(2))  # must not raise
        listed = set(legal)
        candidates = [_mutate(rnd.choice(legal), rnd) for _ in range(30)]
        candidates += _random_commands(state, rnd)
        for command in candidates:
            if command in listed:
                continue
            try:
                GAME.decide(state, seat, command, Context.seeded(3))
            except DomainError:
                continue
            accepted_unlisted.append((state.turn_no, command))


def _discarding(state: State) -> State | None:
    """The state after EndTurn with too many items, if EndTurn is legal here."""
    seat = min(GAME.to_act(state), default=None)
    if seat is None or cmd.EndTurn() not in GAME.legal_commands(state, seat):
        return None
    side = state.side_of(seat)
    players = list(state.players)
    players[side] = attrs.evolve(players[side], coins=4, tokens=(2, 0, 3, 1))
    supply = tuple(12 - t for t in (2, 0, 3, 1))
    state = attrs.evolve(state, players=(players[0], players[1]), supply=supply)
    events = GAME.decide(state, seat, cmd.EndTurn(), Context.seeded(4))
    for e in events:
        state = GAME.evolve(state, e)
    assert state.discarding == 3
    return state


def test_listed_commands_are_accepted_and_unlisted_rejected() -> None:
    rnd = random.Random(5)
    checked = 0
    discarding = 0
    accepted_unlisted: list[Any] = []
    for n, options in enumerate(OPTIONS):
        for seed in range(5):
            for state in iter_states(options, 100 * n + seed, every=4):
                checked += 1
                _check_state(state, rnd, accepted_unlisted)
                if state.line_chosen and rnd.random() < 0.3:
                    extra = _discarding(state)
                    if extra is not None:
                        discarding += 1
                        _check_state(extra, rnd, accepted_unlisted)
    assert checked > 200 and discarding > 5
    assert not accepted_unlisted, accepted_unlisted[:5]
