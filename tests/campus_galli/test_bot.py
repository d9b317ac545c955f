"""The greedy bot beats the random bot (CLOISTER_SOAK=1 runs the full 200-game sample)."""

from __future__ import annotations

from domain.bots import bot_move
from domain.campus_galli import GAME_TYPE
from domain.campus_galli.bots import GreedyBot
from tests import scale
from tests.campus_galli.cg_support import GAME, play, random_chooser


def _greedy():  # type: ignore[no-untyped-def]
    bot = GreedyBot()
    return lambda state, seat, rng: bot_move(bot, GAME, state, seat, rng)


def test_greedy_is_registered() -> None:
    assert isinstance(GAME_TYPE.bot("greedy"), GreedyBot)
    assert GAME_TYPE.bot(None).name == "greedy"


def test_greedy_beats_random_two_player_level1() -> None:
    games = scale.games(24, soak=200)
    wins = 0
    for seed in range(games):
        greedy_seat = seed % 2
        choosers = [random_chooser(), random_chooser()]
        choosers[greedy_seat] = _greedy()
        state, _, _ = play(1, 2, "competitive", 1000 + seed, choosers, checks=False)
        scores = state.final_scores
        wins += scores[greedy_seat] > scores[1 - greedy_seat]
    assert wins >= 0.7 * games, f"greedy won only {wins} of {games}"


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
