"""A fork's fresh randomness (issue 13, item 6): each game's ``fork_reshuffle``.

Forking a finished game copies its position, whose deck orders anyone could read in the
source's public log. For every game: after ``fork_reshuffle`` the hidden order differs from
the source's (for a seeded case) while holding the same cards, every seat's and the
spectators' view is unchanged (the public position and the hands), and the game then plays
on to its end under the whole game contract (``tests/game_contract.py``: legal commands
exact, no secret leaked by the reshuffle's events or their narration, replay).

Then a sample of every game's modes (Illumination duel and solo on both sides, Campus Galli
levels I-III competitive and cooperative with 1-4 monks, Road short and long with 2-7
players): at three positions each, forks from different seeds deal the hidden anew and
unlike each other; and through the server (``server.fork``) a finished game forked twice
gives games of the same type and options, with seeds of their own, that play to their end
and verify.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from domain import Context, default_registry
from domain.game import fork_reshuffle
from domain.highcard import GAME as HIGH_CARD
from domain.secrets import declaration
from tests.game_contract import Playout, _viewers

REGISTRY = default_registry()


def _highcard(state: Any) -> list[tuple[str, ...]]:
    return [state.deck]


def _illumination(state: Any) -> list[tuple[str, ...]]:
    zones = []
    for p in state.players:
        # the face-down (full) stacks as one zone: their tiles are mixed between them
        zones += [p.deck, tuple(t for st in p.stacks if len(st) == 3 for t in st)]
    return zones


def _campus_galli(state: Any) -> list[tuple[str, ...]]:
    return [
        state.task_deck,
        *(p.this_year for p in state.players),
        *(pile[1:] for pile in state.unfinished),
    ]


def _road(state: Any) -> list[tuple[str, ...]]:
    return [*(state.piles[k] for k in sorted(state.piles)), *(p.deck for p in state.players)]


HIDDEN: dict[str, tuple[Callable[[Any], list[tuple[str, ...]]], dict[str, Any], int]] = {
    "high-card": (_highcard, {"players": 2}, 1),
    "illumination": (_illumination, {}, 12),
    "campus-galli": (_campus_galli, {"level": 3}, 12),
    "road-to-enlightenment": (_road, {}, 12),
}
"""Per game: its face-down zones (in their order), options that have them all, and after
how many commands to fork (while the zones still hold cards)."""


class ForkPlayout(Playout):
    """A contract playout forked (reshuffled) after ``fork_at`` commands."""

    def __init__(self, name: str, seed: int) -> None:
        zones, options, fork_at = HIDDEN[name]
        super().__init__(REGISTRY[name], options, seed)
        self.zones, self.fork_at, self.forked = zones, fork_at, False

    def step(self, state: Any, step: int) -> Any:
        if step == self.fork_at:
            state = self.fork(state)
        return super().step(state, step)

    def fork(self, state: Any) -> Any:
        game = self.game
        ctx = Context.seeded(f"fork-{self.seed}")
        events = list(fork_reshuffle(game, state, ctx))
        assert events == list(fork_reshuffle(game, state, Context.seeded(f"fork-{self.seed}")))
        assert events, f"{game.name} has face-down zones to shuffle at step {self.fork_at}"
        for e in events:
            assert type(e) in game.event_types, f"{type(e).__name__} is not the game's"
            declaration(type(e))
        after = self.apply(state, events)  # the contract's secrets check on these events
        before_zones, after_zones = self.zones(state), self.zones(after)
        assert [Counter(z) for z in before_zones] == [Counter(z) for z in after_zones], (
            "a reshuffle keeps every zone's cards"
        )
        assert before_zones != after_zones, "the hidden order is dealt anew"
        for viewer in _viewers(self.n):
            seen = orjson.dumps(game.view(state, viewer), default=self.codec.default)
            now = orjson.dumps(game.view(after, viewer), default=self.codec.default)
            assert seen == now, f"{viewer}'s view changed at the fork"
        self.forked = True
        return after


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_a_fork_deals_the_hidden_anew_and_plays_on(name: str) -> None:
    assert set(HIDDEN) == set(REGISTRY), "every game says what it hides"
    playout = ForkPlayout(name, seed=7)
    final = playout.run()
    assert playout.forked and playout.game.is_terminal(final)


def test_a_game_with_nothing_hidden_reshuffles_nothing() -> None:
    """The kernel's default (``GameBase.fork_reshuffle``), and a game object without it."""

    class Plain:
        pass

    state = HIGH_CARD.initial_state({"players": 2})  # before the deal: the deck is empty
    assert fork_reshuffle(HIGH_CARD, state, Context.seeded(1)) == []
    assert fork_reshuffle(Plain(), state, Context.seeded(1)) == ()  # type: ignore[arg-type]


# -- every mode of every game ---------------------------------------------------------------
MODES: dict[str, list[dict[str, Any]]] = {
    "high-card": [{"players": 2}, {"players": 3}, {"players": 4}],
    "illumination": [
        {"mode": "duel"},
        {"mode": "duel", "books": "random"},
        {"mode": "solo", "side": "reverent", "difficulty": 1},
        {"mode": "solo", "side": "irreverent", "difficulty": 8, "books": "random"},
    ],
    "campus-galli": [
        {"level": 1, "players": 2, "mode": "competitive"},
        {"level": 2, "players": 3, "mode": "competitive"},
        {"level": 3, "players": 4, "mode": "competitive"},
        {"level": 1, "players": 1, "mode": "cooperative"},
        {"level": 2, "players": 2, "mode": "cooperative"},
        {"level": 3, "players": 1, "mode": "cooperative"},
        {"level": 3, "players": 3, "mode": "cooperative"},
    ],
    "road-to-enlightenment": [
        {"players": 2, "length": "short"},
        {"players": 4, "length": "short", "nations": "random"},
        {"players": 7, "length": "short"},
        {"players": 3, "length": "long"},
        {"players": 5, "length": "long", "nations": "random"},
    ],
}
"""A sample of each game's modes: every mode and side, every level with each style of
play, the ends of the player counts and both lengths (a long game of 7 costs 4500 random
commands: 5 players stand for it)."""

FORK_SEEDS = ("a", "b", "c")
PLAY_ON = 60
"""Random commands played from a forked position."""


def mode_params() -> list[Any]:
    return [
        pytest.param(name, options, id=f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items())}")
        for name, modes in MODES.items()
        for options in modes
    ]


class QuickPlayout(Playout):
    """Random commands, without the contract's per-step checks of legal commands and bots
    (the default-options test above has them): only what a fork needs is checked."""

    def step(self, state: Any, step: int) -> Any:
        game = self.game
        movers = [s for s in range(self.n) if list(game.legal_commands(state, s))]
        seat = self.rng.choice(movers)
        command = self.rng.choice(list(game.legal_commands(state, seat)))
        for e in game.decide(state, seat, command, Context.seeded(f"c-{self.seed}-{step}")):
            state = game.evolve(state, e)
        return state

    def positions(self) -> list[Any]:
        """Three states of one random game: after the set-up, a third and two thirds in."""
        game = self.game
        state = game.initial_state(self.options)
        for e in game.setup(state, Context.seeded(f"setup-{self.seed}")):
            state = game.evolve(state, e)
        states = [state]
        while not game.is_terminal(state):
            state = self.step(state, len(states))
            states.append(state)
        n = len(states) - 1  # the last is over: nothing to fork
        return [states[0], states[n // 3], states[2 * n // 3]]


def _reshuffled(playout: QuickPlayout, position: Any, seed: str) -> Any:
    """The position after its fork's reshuffle from ``seed``, checked like the one above."""
    game = playout.game
    events = list(fork_reshuffle(game, position, Context.seeded(f"fork-{seed}")))
    assert events == list(fork_reshuffle(game, position, Context.seeded(f"fork-{seed}")))
    after = position
    for e in events:
        assert type(e) in game.event_types, f"{type(e).__name__} is not the game's"
        after = game.evolve(after, e)
    playout.check_secrets(after, events)  # the contract's: nothing leaks, every line said
    for viewer in _viewers(playout.n):
        seen = orjson.dumps(game.view(position, viewer), default=playout.codec.default)
        now = orjson.dumps(game.view(after, viewer), default=playout.codec.default)
        assert seen == now, f"{viewer}'s view changed at the fork"
    return after


def _orders(zones: list[tuple[str, ...]]) -> int:
    """In how many orders the zones' cards can lie (distinct arrangements)."""
    ways = 1
    for z in zones:
        ways *= math.factorial(len(z))
        for count in Counter(z).values():
            ways //= math.factorial(count)
    return ways


@pytest.mark.parametrize(("name", "options"), mode_params())
def test_every_mode_forks_with_fresh_hidden_orders_and_plays_on(
    name: str, options: dict[str, Any]
) -> None:
    """For each sampled mode, at three positions of a random game: the reshuffle keeps
    every zone's cards and every viewer's view and leaks nothing; forks from different
    seeds deal the hidden orders unlike the source and unlike each other; and a forked
    position plays on."""
    zones_of = HIDDEN[name][0]
    playout = QuickPlayout(REGISTRY[name], options, seed=11)
    game = playout.game
    shuffled = 0
    middle = None
    for i, position in enumerate(playout.positions()):
        source = zones_of(position)
        forks = [_reshuffled(playout, position, seed) for seed in FORK_SEEDS]
        orders = [zones_of(f) for f in forks]
        for zones in orders:
            assert [Counter(z) for z in zones] == [Counter(z) for z in source]
        ways = _orders(source)
        if ways >= 1000:
            shuffled += 1
            assert all(z != source for z in orders), "each fork deals the hidden anew"
            assert len({orjson.dumps(z) for z in orders}) == len(orders), (
                "forks from different seeds deal differently"
            )
        elif ways > 1:  # a few cards: only that the deal varies with the seed
            shuffled += 1
            many = [zones_of(_reshuffled(playout, position, f"x{k}")) for k in range(20)]
            assert len({orjson.dumps(z) for z in many}) > 1, "the deal varies with the seed"
        if i == 1:
            middle = forks[0]
    assert shuffled, f"{name} {options}: no position with anything hidden to shuffle"
    state = middle  # plays on (to the end: the server test below, for a sample)
    for step in range(PLAY_ON):
        if game.is_terminal(state):
            break
        state = playout.step(state, 100_000 + step)


# -- through the server: "fork here" in every game, options kept ----------------------------
SERVER_MODES: list[tuple[str, dict[str, Any]]] = [
    ("high-card", {"players": 3}),
    ("illumination", {"mode": "duel", "books": "random"}),
    ("illumination", {"mode": "solo", "side": "irreverent", "difficulty": 8}),
    ("campus-galli", {"level": 1, "players": 1, "mode": "cooperative"}),
    ("campus-galli", {"level": 3, "players": 3, "mode": "cooperative"}),
    ("campus-galli", {"level": 2, "players": 4, "mode": "competitive"}),
    ("road-to-enlightenment", {"players": 2, "length": "short", "nations": "random"}),
    ("road-to-enlightenment", {"players": 3, "length": "long"}),
]
"""Fewer than above: each is two whole games through the service."""

PLATFORM = {"clock": "move:30", "absent": 60}
"""Platform options the source has, which its forks keep too."""


async def _play_on(service: Any, rec: Any, tag: str) -> None:
    from domain import Rng
    from domain.bots import bot_move

    bot = rec.gtype.bot("random")
    step = 0
    while not rec.terminal:
        seat = min(rec.game.to_act(rec.state))
        cmd = bot_move(bot, rec.game, rec.state, seat, Rng(f"{tag}:{step}"))
        await service.command(rec, seat, f"{tag}{step}", rec.codec.encode_command(cmd))
        step += 1


@pytest.mark.parametrize(
    ("name", "options"),
    [
        pytest.param(n, o, id=f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items())}")
        for n, o in SERVER_MODES
    ],
)
async def test_fork_here_keeps_the_options_and_deals_the_hidden_anew(
    name: str, options: dict[str, Any]
) -> None:
    """A finished game forked at a third of its play, twice: each fork is a game of the
    same type and options (the platform's too), with a seed of its own; its position shows
    every viewer what the source showed there, its hidden zones hold the same cards in
    another order, unlike the other fork's; it plays to its end and verifies."""
    from domain import REVIEW
    from server.fairness import report
    from server.fork import fork_game
    from server.games import COMMAND_ACCEPTED, GameService, SeatClaim
    from server.hub import wire_events
    from server.store.memory import MemoryStore

    service = GameService(MemoryStore(), REGISTRY)
    opts = {**options, **PLATFORM}
    n = REGISTRY[name].game.seat_count(service.validated_options(name, opts))
    claims = [SeatClaim(f"P{i}") for i in range(n)]
    source, _ = await service.create_table(name, opts, "source-seed", claims)
    await _play_on(service, source, "s")
    zones_of = HIDDEN[name][0]
    commands = [e.version for e in source.log if e.type == COMMAND_ACCEPTED]
    at = next(
        v - 1
        for v in commands[len(commands) // 3 :]
        if _orders(zones_of(source.state_at(v - 1))) >= 1000
        or v == commands[-1]  # a small game: whatever is left
    )
    known = source.state_at(at)
    forks = [(await fork_game(service, source, at, claims))[0] for _ in range(2)]
    codec = source.codec
    for fork in forks:
        assert fork.gtype.name == name and fork.options == source.options
        assert fork.options["clock"] == "move:30" and fork.options["absent"] == 60
        assert fork.seed != source.seed
        assert fork.log[0].data["fork"]["fresh"] is True
        assert fork.log[0].data["fork"]["version"] == at
        for viewer in _viewers(n):
            seen = orjson.dumps(source.game.view(known, viewer), default=codec.default)
            now = orjson.dumps(fork.game.view(fork.state, viewer), default=codec.default)
            assert seen == now, f"{viewer} sees another position in the fork"
        assert [Counter(z) for z in zones_of(fork.state)] == [Counter(z) for z in zones_of(known)]
    orders = [zones_of(f.state) for f in forks]
    # High Card's deck is a few cards by the second third: there only the rest is checked.
    assert _orders(zones_of(known)) >= 1000 or name == "high-card", "fork a richer position"
    if _orders(zones_of(known)) >= 1000:
        assert all(z != zones_of(known) for z in orders), "the fork deals the hidden anew"
        assert orders[0] != orders[1], "two forks deal differently"
    assert forks[0].seed != forks[1].seed
    fork = forks[0]
    await _play_on(service, fork, "f")
    exported = [
        {"version": w.version, "type": w.type, "data": orjson.loads(orjson.dumps(w.data))}
        for w in wire_events(fork, fork.log, REVIEW)
    ]
    verdict = report(REGISTRY, exported)
    assert verdict["verified"] is True, verdict
