"""Random playouts over every player count and length (issue item 7).

The default is 10 games per combination; ``CLOISTER_PLAYOUTS=N`` multiplies it (N=100 is the
soak of 1,000 games per combination).
"""

from __future__ import annotations

import pytest

from tests.road_to_enlightenment.road_helpers import GAME, random_playout
from tests.scale import playouts

pytestmark = pytest.mark.slow  # (tests/conftest.py runs these first)

COMBOS = [(n, length) for n in range(2, 8) for length in ("short", "long")]


@pytest.mark.parametrize(("players", "length"), COMBOS)
def test_random_playouts_terminate_conserve_replay_and_do_not_leak(
    players: int, length: str
) -> None:
    for i in range(playouts(10)):
        # Events are checked for leaks after every command, views after every 20th. Every
        # other game deals the nations at random.
        nations = ("seats", "random")[i % 2]
        state, _log = random_playout(
            players, length, seed=1000 * players + i, leak_every=20, nations=nations
        )
        result = GAME.result(state)
        assert result is not None
        assert len(result.scores) == players
        assert result.winners and result.winners[0] == state.ranking[0]
        assert state.turn <= state.final_turn
