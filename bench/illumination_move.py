"""One Illumination move, stage by stage, as the server's hot path does it.

No Redis, no sockets: the rules' share of a move. Random duels are recorded with fixed seeds
(the same commands on every run and every checkout); a timed pass then replays every
recorded command as the server handles it and adds up the CPU time of each stage:

* ``decide``: ``game.decide`` on the state (the rules check it and fold their own events);
* ``evolve``: the state after the move as the server gets it: the decided state handed back
  where the kernel has ``decide_and_fold``, else the events folded again (older checkouts);
* ``view``: the full view, rendered for both seats (the two audiences of a duel), sharing a
  memo as the hub does;
* ``legal``: the seat to act's legal commands, encoded and compacted as the hub does
  (``protocol.legal``; a run at a time where the rules hand out their runs);
* ``delta``: each seat's view diffed against the one it held (``protocol.delta``).

The collector is set as the server sets it (``server.run.tune_gc``). Prints the median over
``--reps`` passes, in µs per move for each stage and in all, and a
last line of JSON. ``--json`` prints only that line (for interleaving checkouts).

``--at-once N`` plays N of the games side by side, a move of each in turn, as the server's
N matches do (what the rules keep between two moves of one game then has to outlast the
moves of the others)::

    python -m bench.illumination_move [--games 20] [--reps 7] [--at-once 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from typing import Any

from domain import Context, Rng, default_registry, seat_viewer, validate_options
from domain.game import fold
from domain.views import Memo, render
from protocol import GameCodec
from protocol.delta import diff
from protocol.legal import compact_legal
from server.run import tune_gc

STAGES = ("decide", "evolve", "view", "legal", "delta")
AUDIENCES = (seat_viewer(0), seat_viewer(1))


def record(game: Any, seed: int) -> tuple[Any, list[tuple[int, Any, str]]]:
    """The state after set-up and the commands of one random duel: (seat, command, ctx seed)."""
    state = game.initial_state(validate_options(game, {"mode": "duel"}))
    for e in game.setup(state, Context.seeded(f"{seed}:setup")):
        state = game.evolve(state, e)
    start = state
    moves: list[tuple[int, Any, str]] = []
    rng = Rng(seed)
    while not game.is_terminal(state):
        seat = rng.choice(sorted(game.to_act(state)))
        command = rng.choice(list(game.legal_commands(state, seat)))
        key = f"{seed}:{len(moves)}"
        for e in game.decide(state, seat, command, Context.seeded(key)):
            state = game.evolve(state, e)
        moves.append((seat, command, key))
    return start, moves


def _decided(game: Any) -> Any:
    """The kernel's decide-and-fold if this checkout has one (None: decide, then fold)."""
    try:
        from domain.game import decide_and_fold
    except ImportError:
        return None
    return decide_and_fold


def _legal_stage(game: Any, codec: Any) -> Any:
    """The seat's compact legal commands as this checkout's hub works them out."""
    runs = getattr(game, "legal_segments", None)
    try:
        from protocol.legal import compact_segments
    except ImportError:
        runs = None
    if runs is None:
        return lambda state, seat: compact_legal(
            codec.encode_commands(game.legal_commands(state, seat))
        )
    return lambda state, seat: compact_segments(codec, runs(state, seat))


def one_pass(
    game: Any, games: Sequence[tuple[Any, list[tuple[int, Any, str]]]], at_once: int = 1
) -> list[int]:
    """Nanoseconds spent in each stage over every recorded move. ``at_once`` games are
    played side by side, one move of each in turn (as the server's matches interleave: what
    the rules keep from one move of a game to its next must outlast the others' moves)."""
    codec = GameCodec.for_game(game)
    legal = _legal_stage(game, codec)
    both = _decided(game)
    clock = time.process_time_ns
    spent = [0] * len(STAGES)
    waiting = iter(games)
    lanes: list[list[Any]] = []  # per game being played: [state, held views, its moves]

    def begin() -> None:
        start, moves = next(waiting, (None, None))
        if moves is not None:
            full, memo = game.full_view(start), Memo()
            lanes.append([start, [render(full, v, memo) for v in AUDIENCES], iter(moves)])

    for _ in range(at_once):
        begin()
    while lanes:
        for lane in list(lanes):
            state, held, moves = lane
            step = next(moves, None)
            if step is None:
                lanes.remove(lane)
                begin()
                continue
            seat, command, key = step
            ctx = Context.seeded(key)
            t0 = clock()
            if both is None:
                events = game.decide(state, seat, command, ctx)
                t1 = clock()
                after = fold(game, state, events)
            else:
                events, after = both(game, state, seat, command, ctx)
                t1 = clock()
            t2 = clock()
            full, memo = game.full_view(after), Memo()
            views = [render(full, v, memo) for v in AUDIENCES]
            t3 = clock()
            for s in sorted(game.to_act(after)):
                legal(after, s)
            t4 = clock()
            for old, new in zip(held, views, strict=True):
                diff(old, new)
            t5 = clock()
            spent[0] += t1 - t0
            spent[1] += t2 - t1
            spent[2] += t3 - t2
            spent[3] += t4 - t3
            spent[4] += t5 - t4
            lane[0], lane[1] = after, views
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument(
        "--at-once", type=int, default=1, help="games played side by side (the server: 100)"
    )
    parser.add_argument("--json", action="store_true", help="print only the JSON line")
    args = parser.parse_args()
    game = default_registry()["illumination"].game
    games = [record(game, seed) for seed in range(1, args.games + 1)]
    moves = sum(len(m) for _, m in games)
    tune_gc()  # the server's garbage collector settings (server.run), as it runs
    passes = [one_pass(game, games, args.at_once) for _ in range(args.reps)]
    per_move = {
        name: statistics.median(p[i] for p in passes) / moves / 1000
        for i, name in enumerate(STAGES)
    }
    per_move["total"] = statistics.median(sum(p) for p in passes) / moves / 1000
    if not args.json:
        print(
            f"illumination duel: {args.games} games ({args.at_once} at once), {moves} moves,"
            f" {args.reps} passes"
        )
        for name, us in per_move.items():
            print(f"  {name:8} {us:8.1f} µs/move")
    print(json.dumps({"moves": moves, **{k: round(v, 1) for k, v in per_move.items()}}))


if __name__ == "__main__":
    main()
