"""The greedy bot beats the random bot (CLOISTER_SOAK=1 runs the full 200-game sample)."""

from __future__ import annotations

import pytest

from bench.bots import vs_legacy, vs_random
from bench.legacy_bots.campus_galli import GreedyBot as LegacyBot
from domain.bots import bot_move
from domain.campus_galli import GAME_TYPE
from domain.campus_galli.bots import GreedyBot
from domain.randomness import Rng
from tests import scale
from tests.campus_galli.cg_support import GAME, iter_states, play, random_chooser


def _greedy():  # type: ignore[no-untyped-def]
    bot = GreedyBot()
    return lambda state, seat, rng: bot_move(bot, GAME, state, seat, rng)


def test_greedy_is_registered() -> None:
    assert isinstance(GAME_TYPE.bot("greedy"), GreedyBot)
    assert GAME_TYPE.bot(None).name == "greedy"


def test_greedy_beats_random_two_player_level1() -> None:
    # bench/bots.py's sample: 200 games with CLOISTER_SOAK=1 (>= 90%), 20 by default (>= 80%).
    n = scale.games(20, soak=200)
    share = vs_random("campus-galli", n)
    assert share >= (0.9 if scale.SOAK else 0.8), f"greedy won {share:.0%} of {n}"


@pytest.mark.skipif(not scale.SOAK, reason="200 games: CLOISTER_SOAK=1")
def test_greedy_beats_or_ties_the_state_reading_bot() -> None:
    share = vs_legacy("campus-galli", 200)
    assert share >= 0.5, f"the fair bot won or tied only {share:.0%} of 200"


def test_the_view_reading_bot_makes_the_old_bots_choices() -> None:
    """Nothing the old bot read was secret, so rebuilding its inputs from the view must
    lead to the same choices (the old bot is handed the state; a section being moved is
    the one input the view lacks, and the legal commands supply its placements)."""
    old = LegacyBot()
    new = GreedyBot()
    same = total = 0
    for level in (1, 2):
        for state, seat in _decisions(level, 2, 40 + level):
            total += 1
            same += old.choose(GAME, state, seat, Rng(1)) == bot_move(
                new, GAME, state, seat, Rng(1)
            )
    assert same >= 0.95 * total, f"{same} of {total} choices alike"


def _decisions(level: int, n: int, seed: int):  # type: ignore[no-untyped-def]
    for i, state in enumerate(iter_states(level, n, "competitive", seed)):
        if i % 3 == 0:
            yield state, sorted(GAME.to_act(state))[0]


def test_greedy_scores_higher_than_random_solo_cooperative() -> None:
    games = scale.games(6, soak=40)
    greedy = random = 0
    for seed in range(games):
        g, _, _ = play(1, 1, "cooperative", 2000 + seed, [_greedy()], checks=False)
        r, _, _ = play(1, 1, "cooperative", 2000 + seed, [random_chooser()], checks=False)
        greedy += g.team_score
        random += r.team_score
    assert greedy > random, f"greedy {greedy / games:.1f} vs random {random / games:.1f}"


def test_registered_in_the_default_registry() -> None:
    from domain.registry import default_registry

    assert default_registry()["campus-galli"].game is GAME
