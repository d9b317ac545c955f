"""The greedy bot beats the random bot in at least 70% of games (200 with CLOISTER_SOAK=1)."""

from __future__ import annotations

from domain.bots import RandomBot, bot_move
from domain.game import fold
from domain.illumination import GAME, GAME_TYPE, GreedyBot
from domain.randomness import Context, Rng
from tests.scale import games


def _greedy_wins(seed: int, greedy_seat: int) -> bool:
    state = GAME.initial_state({"mode": "duel"})
    state = fold(GAME, state, GAME.setup(state, Context.seeded(f"bot-{seed}")))
    bots = {greedy_seat: GreedyBot(), 1 - greedy_seat: RandomBot()}
    rng = Rng(seed)
    steps = 0
    while not GAME.is_terminal(state):
        seat = min(GAME.to_act(state))
        command = bot_move(bots[seat], GAME, state, seat, rng)
        assert command in GAME.legal_commands(state, seat)
        state = fold(
            GAME, state, GAME.decide(state, seat, command, Context.seeded(f"{seed}-{steps}"))
        )
        steps += 1
        assert steps < 3000
    result = GAME.result(state)
    assert result is not None
    return result.winners == (greedy_seat,)


def test_greedy_beats_random() -> None:
    n = games(30, soak=200)
    wins = sum(_greedy_wins(i, i % 2) for i in range(n))
    assert wins >= 0.7 * n, f"greedy won {wins} of {n}"


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
