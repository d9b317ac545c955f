"""Bot strength: each greedy bot against the random bot and against its pre-view version.

``python -m bench.bots [--games N] [--game NAME]`` plays, for every game that has a greedy
bot, ``N`` seeded games of each match-up and prints one JSON object:

* ``vs_random``: the greedy bot in one seat (rotating), the random bot in every other seat;
  the share of games it wins outright (sole winner).
* ``vs_legacy``: a two-seat game, the greedy bot in one seat (alternating) and the greedy
  bot as it was when bots were still handed the whole state (``bench/legacy_bots``) in the
  other; the share of games the new bot wins or ties (its score >= the old one's).

The match-ups: Illumination duel; Road to Enlightenment short games, 3 players against
random, 2 players against the old bot; Campus Galli level I competitive, 2 players. The
bots only see :class:`~domain.bots.SeatView` (``bot_move``); the old bots get the state.
The soak tests (``CLOISTER_SOAK=1``) run the 200-game sample through these functions.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from domain.bots import Bot, RandomBot, bot_move
from domain.game import Game
from domain.randomness import Context, Rng
from domain.registry import Registry, default_registry

__all__ = ["MATCHES", "Chooser", "play", "vs_legacy", "vs_random"]

Chooser = Callable[[Game[Any, Any, Any], Any, int, Rng], Any]

MATCHES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # game: (options against random, options against the old bot)
    "illumination": ({"mode": "duel"}, {"mode": "duel"}),
    "road-to-enlightenment": (
        {"players": 3, "length": "short"},
        {"players": 2, "length": "short"},
    ),
    "campus-galli": (
        {"level": 1, "players": 2, "mode": "competitive"},
        {"level": 1, "players": 2, "mode": "competitive"},
    ),
}


_REGISTRY: list[Registry] = []


def _registry() -> Registry:
    """The default registry, looked up once (each look-up reads the entry points)."""
    if not _REGISTRY:
        _REGISTRY.append(default_registry())
    return _REGISTRY[0]


def fair(bot: Bot) -> Chooser:
    """A bot that sees its seat's view only."""
    return lambda game, state, seat, rng: bot_move(bot, game, state, seat, rng)


def legacy(name: str) -> Chooser:
    """The greedy bot as it was, handed the whole state (a baseline, never registered)."""
    from importlib import import_module

    module = import_module(f"bench.legacy_bots.{name.replace('-', '_')}")
    bot = module.GreedyBot()
    return lambda game, state, seat, rng: bot.choose(game, state, seat, rng)


def play(name: str, options: dict[str, Any], seed: int, choosers: list[Chooser]) -> tuple[int, ...]:
    """One seeded game to the end; the final scores by seat."""
    game = _registry()[name].game
    state = game.initial_state(options)
    ctx = Context.seeded(f"bots-{name}-{seed}")
    for e in game.setup(state, ctx):
        state = game.evolve(state, e)
    rng = Rng(f"bots-{seed}")
    steps = 0
    while not game.is_terminal(state):
        seat = min(game.to_act(state))
        command = choosers[seat](game, state, seat, rng)
        for e in game.decide(state, seat, command, Context.seeded(f"{name}-{seed}-{steps}")):
            state = game.evolve(state, e)
        steps += 1
        if steps > 20_000:
            raise RuntimeError(f"{name} game {seed} did not end")
    result = game.result(state)
    assert result is not None
    if len(set(result.winners)) == 1 and len(result.scores) > 0:
        # Score ties broken by the rulebook: the winner gets one more for the comparison.
        scores = list(result.scores)
        scores[result.winners[0]] += 1 if scores.count(max(scores)) > 1 else 0
        return tuple(scores)
    return result.scores


def vs_random(name: str, games: int, first_seed: int = 0) -> float:
    """The share of ``games`` the greedy bot wins outright against random bots."""
    gtype = _registry()[name]
    options = MATCHES[name][0]
    n = gtype.game.seat_count(options)
    wins = 0
    for i in range(games):
        seat = i % n
        choosers = [fair(RandomBot())] * n
        choosers[seat] = fair(gtype.bot("greedy"))
        scores = play(name, options, first_seed + i, choosers)
        wins += all(scores[seat] > s for k, s in enumerate(scores) if k != seat)
    return wins / games


def vs_legacy(name: str, games: int, first_seed: int = 0) -> float:
    """The share of ``games`` the greedy bot wins or ties against its pre-view version."""
    gtype = _registry()[name]
    options = MATCHES[name][1]
    ok = 0
    for i in range(games):
        seat = i % 2
        choosers = [legacy(name)] * 2
        choosers[seat] = fair(gtype.bot("greedy"))
        scores = play(name, options, 10_000 + first_seed + i, choosers)
        ok += scores[seat] >= scores[1 - seat]
    return ok / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", choices=sorted(MATCHES), action="append")
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for name in args.game or sorted(MATCHES):
        start = time.perf_counter()
        out[name] = {
            "games": args.games,
            "vs_random": vs_random(name, args.games),
            "vs_legacy": vs_legacy(name, args.games),
            "seconds": round(time.perf_counter() - start, 1),
        }
        print(json.dumps({name: out[name]}), flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
