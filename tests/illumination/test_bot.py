"""The greedy bot: it plays from its seat's view only, and still beats the random bot.

The strength samples are bench/bots.py's: 20 games by default, the issue's 200 with
CLOISTER_SOAK=1 (which also plays the old, state-reading bot: the fair one must win or tie
at least 55% of 200 games against it: it plans each turn's line, the old bot did not).
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.bots import vs_legacy, vs_random
from domain.bots import RandomBot, bot_move
from domain.game import fold
from domain.illumination import GAME, GAME_TYPE
from domain.illumination.bots import public_state
from domain.randomness import Context, Rng
from domain.viewers import Viewer
from tests import scale


@pytest.mark.slow  # (tests/conftest.py runs these first)
def test_greedy_beats_random() -> None:
    n = scale.games(20, soak=200)
    share = vs_random("illumination", n)
    assert share >= (0.9 if scale.SOAK else 0.8), f"greedy won {share:.0%} of {n}"


@pytest.mark.skipif(not scale.SOAK, reason="200 games: CLOISTER_SOAK=1")
def test_greedy_beats_or_ties_the_state_reading_bot() -> None:
    share = vs_legacy("illumination", 200)
    assert share >= 0.55, f"the fair bot won or tied only {share:.0%} of 200"


def test_greedy_is_registered_and_plays_solo() -> None:
    assert GAME_TYPE.bot(None).name == "greedy"
    state = GAME.initial_state({"mode": "solo", "side": "irreverent"})
    state = fold(GAME, state, GAME.setup(state, Context.seeded("solo-bot")))
    bot = GAME_TYPE.bot("greedy")
    rng = Rng(3)
    steps = 0
    while not GAME.is_terminal(state):
        command = bot_move(bot, GAME, state, 0, rng)
        state = fold(GAME, state, GAME.decide(state, 0, command, Context.seeded(steps)))
        steps += 1
        assert steps < 3000
    assert GAME.result(state) is not None


def _diff(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        return [
            d for k in sorted(set(a) | set(b)) for d in _diff(a.get(k), b.get(k), f"{path}.{k}")
        ]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in _diff(x, y, f"{path}[{i}]")
        ]
    return [] if a == b else [path]


@pytest.mark.parametrize(
    "options", [{"mode": "duel"}, {"mode": "solo", "side": "reverent", "difficulty": 3}]
)
def test_the_bots_state_rebuilt_from_the_view_shows_that_view(options: dict[str, Any]) -> None:
    """``public_state`` reads only the view; what it rebuilds looks exactly like that view to
    the seat (except that it cannot know whether the other side holds a Crusade), and it
    allows exactly the seat's legal commands."""
    for seed in range(2):
        state = GAME.initial_state(options)
        state = fold(GAME, state, GAME.setup(state, Context.seeded(f"rt-{seed}")))
        rng = Rng(seed)
        steps = 0
        while not GAME.is_terminal(state):
            seat = min(GAME.to_act(state))
            viewer = Viewer(seat=seat)
            view = GAME.view(state, viewer)
            rebuilt = public_state(view, Rng(steps))
            diff = _diff(view, GAME.view(rebuilt, viewer))
            other = 1 - state.side_of(seat)
            assert diff in ([], [f".players[{other}].has_crusade"]), diff
            if steps % 5 == 0:
                # (as a set: the margins' tiles are listed Book by Book in the view)
                assert set(GAME.legal_commands(rebuilt, seat)) == set(
                    GAME.legal_commands(state, seat)
                )
            command = bot_move(RandomBot(), GAME, state, seat, rng)
            state = fold(GAME, state, GAME.decide(state, seat, command, Context.seeded(steps)))
            steps += 1
