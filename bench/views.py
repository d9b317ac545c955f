"""View speed: every audience's view of every state of recorded Illumination duels.

No Redis, no server: the rules' share of a move's fan-out. Random duels are played with
fixed seeds (the same games on every run and every checkout); the state after each command
is kept. One pass computes, for every kept state, the view of each audience the server
sends a live game to (seat 0, seat 1, a spectator), and encodes each with orjson as the hub
does. Prints the median over ``--reps`` passes, per move (per kept state) and overall.

Where the kernel builds the full view once and redacts it per audience
(``game.full_view`` and ``domain.views.render``), the pass does that, as the hub does;
otherwise it calls ``game.view`` per audience (the older way), so the same file measures a
checkout from before and after.

    python -m bench.views [--games 6] [--reps 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import orjson

from domain import SPECTATOR, Context, Rng, default_registry, seat_viewer, validate_options

AUDIENCES = (seat_viewer(0), seat_viewer(1), SPECTATOR)


def states(game: Any, options: dict[str, Any], seed: int) -> list[Any]:
    """The state after set-up and after every command of one random game."""
    opts = validate_options(game, options)
    state = game.initial_state(opts)
    for e in game.setup(state, Context.seeded(f"{seed}:setup")):
        state = game.evolve(state, e)
    out = [state]
    rng = Rng(seed)
    step = 0
    while not game.is_terminal(state):
        step += 1
        seat = rng.choice(sorted(game.to_act(state)))
        command = rng.choice(list(game.legal_commands(state, seat)))
        for e in game.decide(state, seat, command, Context.seeded(f"{seed}:{step}")):
            state = game.evolve(state, e)
        out.append(state)
    return out


def pass_of(game: Any) -> Callable[[list[Any]], None]:
    """One pass over the kept states: every audience's view, encoded."""
    try:
        from domain.views import render
    except ImportError:
        render = None

    if render is not None and hasattr(game, "full_view"):

        def shared(kept: list[Any]) -> None:
            for state in kept:
                full, memo = game.full_view(state), {}
                for viewer in AUDIENCES:
                    orjson.dumps(render(full, viewer, memo))

        return shared

    def each(kept: list[Any]) -> None:
        for state in kept:
            for viewer in AUDIENCES:
                orjson.dumps(game.view(state, viewer))

    return each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    game = default_registry()["illumination"].game
    kept = [s for seed in range(1, args.games + 1) for s in states(game, {"mode": "duel"}, seed)]
    run = pass_of(game)
    times = []
    for _ in range(args.reps):
        t0 = time.process_time()
        run(kept)
        times.append(time.process_time() - t0)
    median = statistics.median(times)
    per_move_us = median / len(kept) * 1e6
    print(f"illumination duel: {len(kept)} states, {len(AUDIENCES)} audiences each")
    print(f"per move (all audiences): {per_move_us:,.0f} µs; pass median {median:.3f} s")
    print(json.dumps({"states": len(kept), "per_move_us": round(per_move_us, 1)}))


if __name__ == "__main__":
    main()
