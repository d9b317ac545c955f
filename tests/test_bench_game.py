"""The benchmark's swap game (``bench/swapgame.py``) keeps its secrets and ends at 200 moves."""

from __future__ import annotations

import pytest

from bench.swapgame import CARDS, GAME, GAME_TYPE, MOVES, bench_registry
from domain import Context, Rng, default_registry
from tests.support import play_random_game, running_server


def test_the_cards_are_conserved_and_the_match_ends_after_200_moves() -> None:
    state = GAME.initial_state({})
    for e in GAME.setup(state, Context.for_version("swap", 0)):
        state = GAME.evolve(state, e)
    rng = Rng(1)
    for n in range(MOVES):
        assert not GAME.is_terminal(state) and GAME.to_act(state) == {n % 2}
        command = rng.choice(list(GAME.legal_commands(state, n % 2)))
        for e in GAME.decide(state, n % 2, command, Context.for_version("swap", n + 1)):
            state = GAME.evolve(state, e)
        assert sorted(state.deck + state.hands[0] + state.hands[1]) == sorted(CARDS)
    assert GAME.is_terminal(state) and GAME.legal_commands(state, 0) == []


def test_it_is_registered_only_for_the_benchmark() -> None:
    assert GAME.name not in default_registry()
    assert bench_registry()[GAME.name] is GAME_TYPE


@pytest.mark.redis
async def test_a_match_over_the_server_leaks_no_card(key_prefix: str) -> None:
    with running_server(key_prefix, bench_registry()) as base:
        out = await play_random_game(base, GAME_TYPE, {}, seed=3)
    assert out["commands"] == MOVES
