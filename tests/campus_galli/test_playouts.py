"""Random playouts: termination, conservation after every event, replay, no leak, codec.

The default is 10 games per combination; ``CLOISTER_PLAYOUTS=N`` multiplies it (N=100 is the
soak of 1,000 per combination)."""

from __future__ import annotations

import pytest

from domain.game import fold
from tests.campus_galli.cg_support import COMBOS, GAME, check_invariants, play
from tests.scale import playouts

pytestmark = pytest.mark.slow  # (tests/conftest.py runs these first)


@pytest.mark.parametrize(("level", "players", "mode"), COMBOS)
def test_random_playouts(level: int, players: int, mode: str) -> None:
    for seed in range(playouts(10)):
        state, log, _ = play(level, players, mode, seed, leak_every=1)
        assert GAME.is_terminal(state)
        result = GAME.result(state)
        assert result is not None and len(result.scores) == players
        replayed = fold(
            GAME, GAME.initial_state({"level": level, "players": players, "mode": mode}), log
        )
        assert replayed == state
        check_invariants(replayed)
