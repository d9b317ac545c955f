"""Bots see only what their seat may see (issue 11, item 5).

A bot is handed ``seat_view``: the seat's own view and its legal commands, never the state.
These tests check the door (what ``bot_move`` hands over is exactly the seat's view and
carries none of the seat's hidden values) and that each greedy bot's choice cannot depend
on a secret: two states that differ only in what the seat cannot see (the order of the
face-down stacks and decks, the other hands) get the same command.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import orjson
import pytest

from domain.bots import RandomBot, SeatView, bot_move, seat_view
from domain.game import Game, fold
from domain.randomness import Context, Rng
from domain.registry import default_registry
from domain.viewers import Viewer

REGISTRY = default_registry()
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "illumination": [{"mode": "duel"}, {"mode": "solo", "side": "irreverent"}],
    "road-to-enlightenment": [{"players": 3, "length": "short"}],
    "campus-galli": [{"level": 2, "players": 3, "mode": "competitive"}],
    "high-card": [{"players": 3}],
}


def _states(
    game: Game[Any, Any, Any], options: dict[str, Any], seed: int, every: int
) -> Iterator[tuple[Any, int]]:
    """States of a seeded random game where someone must act, one in ``every``."""
    state = game.initial_state(options)
    state = fold(game, state, game.setup(state, Context.seeded(f"fair-{seed}")))
    rng = Rng(seed)
    steps = 0
    while not game.is_terminal(state) and steps < 3000:
        seat = min(game.to_act(state))
        if steps % every == 0:
            yield state, seat
        command = bot_move(RandomBot(), game, state, seat, rng)
        state = fold(game, state, game.decide(state, seat, command, Context.seeded(steps)))
        steps += 1


class Spy:
    name = "spy"

    def __init__(self) -> None:
        self.seen: list[SeatView] = []

    def choose(self, seen: SeatView, rng: Rng) -> Any:
        self.seen.append(seen)
        return seen.legal[0]


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_a_bot_receives_its_seats_view_and_legal_commands_and_no_secret(name: str) -> None:
    game = REGISTRY[name].game
    for options in OPTIONS[name]:
        for state, seat in _states(game, options, 1, every=7):
            spy = Spy()
            command = bot_move(spy, game, state, seat, Rng(0))
            (seen,) = spy.seen
            assert isinstance(seen, SeatView) and seen.seat == seat
            assert seen.view == game.view(state, Viewer(seat=seat))
            assert list(seen.legal) == list(game.legal_commands(state, seat))
            assert command in seen.legal
            text = orjson.dumps(seen.view).decode() + repr(seen.legal)
            leaked = [h for h in game.hidden_values(state, Viewer(seat=seat)) if h in text]
            assert not leaked, f"{name}: seat {seat}'s bot was handed {leaked[:3]}"


def _illumination_twin(state: Any, seat: int) -> Any:
    """The same view for ``seat``: stacks (secret from everyone) and decks reversed, and
    the other side's hand exchanged with the end of its deck."""
    side = state.side_of(seat)
    players = []
    for p in state.players:
        changes: dict[str, Any] = {
            "stacks": tuple(tuple(reversed(s)) for s in reversed(p.stacks)),
            "deck": tuple(reversed(p.deck)),
        }
        if p.side != side and p.hand and p.deck:
            pool = list(p.hand) + list(p.deck)
            pool.reverse()
            changes["hand"] = tuple(pool[: len(p.hand)])
            changes["deck"] = tuple(pool[len(p.hand) :])
        players.append(attrs.evolve(p, **changes))
    return attrs.evolve(state, players=tuple(players))


def _road_twin(state: Any, seat: int) -> Any:
    from domain.road_to_enlightenment.state import replace

    players = []
    for p in state.players:
        changes: dict[str, Any] = {"deck": tuple(reversed(p.deck))}
        if p.seat != seat and p.hand and p.deck:
            k = min(len(p.hand), len(p.deck))
            changes["hand"] = p.deck[:k] + p.hand[k:]
            changes["deck"] = tuple(reversed(p.hand[:k] + p.deck[k:]))
        players.append(replace(p, **changes))
    piles = {k: tuple(reversed(v)) for k, v in state.piles.items()}
    return replace(state, players=tuple(players), piles=piles)


def _campus_twin(state: Any, seat: int) -> Any:
    """The task deck reversed, and each other player's hand exchanged with its face-down
    piles (the greedy bot weighs the plan, the monks and the board, never those)."""
    players = []
    for i, p in enumerate(state.players):
        if i != seat and p.hand and p.this_year:
            pool = list(reversed(p.hand + p.this_year))
            k = len(p.hand)
            p = attrs.evolve(p, hand=tuple(pool[:k]), this_year=tuple(pool[k:]))
        players.append(p)
    return attrs.evolve(state, task_deck=tuple(reversed(state.task_deck)), players=tuple(players))


TWINS = {
    "illumination": _illumination_twin,
    "road-to-enlightenment": _road_twin,
    "campus-galli": _campus_twin,
}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_the_greedy_bot_plays_the_same_when_only_secrets_differ(name: str) -> None:
    game = REGISTRY[name].game
    bot = REGISTRY[name].bot("greedy")
    differ = 0
    for options in OPTIONS[name]:
        for state, seat in _states(game, options, 2, every=11):
            twin = TWINS[name](state, seat)
            if twin == state:
                continue
            differ += 1
            viewer = Viewer(seat=seat)
            assert game.view(twin, viewer) == game.view(state, viewer), "the twin must look alike"
            assert bot_move(bot, game, twin, seat, Rng(5)) == bot_move(
                bot, game, state, seat, Rng(5)
            )
    assert differ >= 5, "the twins must actually differ in their secrets"


def test_seat_view_refuses_a_seat_with_nothing_to_do() -> None:
    game = REGISTRY["high-card"].game
    state = game.initial_state({"players": 3})
    state = fold(game, state, game.setup(state, Context.seeded(0)))
    idle = next(s for s in range(3) if not game.legal_commands(state, s))
    with pytest.raises(LookupError):
        seat_view(game, state, idle)
