"""Fold speed: decode and fold the recorded legacy logs (``tests/data/legacy``).

No Redis, no server: the rules' share of a rebuild. For each log, the median of ``--reps``
runs of (decode every event with the game's codec, then ``evolve`` them all from the
initial state), and the same for ``evolve`` alone over already-decoded events. Prints
events per second per game type and overall.

    python -m bench.fold [--reps 7]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from domain import default_registry, validate_options
from protocol import GameCodec
from tests.legacy import DATA, GAMES, read_log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    registry = default_registry()
    per_type: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for label, *_ in GAMES:
        header, raw = read_log(DATA / f"{label}.jsonl")
        game = registry[header["game"]].game
        codec = GameCodec.for_game(game)
        opts = validate_options(game, header["options"])
        decoded = [codec.decode_event(e["type"], e["data"]) for e in raw]
        full, evolve_only = [], []
        for _ in range(args.reps):
            t0 = time.process_time()
            state = game.initial_state(opts)
            for e in raw:
                state = game.evolve(state, codec.decode_event(e["type"], e["data"]))
            t1 = time.process_time()
            state = game.initial_state(opts)
            for ev in decoded:
                state = game.evolve(state, ev)
            t2 = time.process_time()
            full.append(t1 - t0)
            evolve_only.append(t2 - t1)
        row = per_type[header["game"]]
        row[0] += len(raw)
        row[1] += statistics.median(full)
        row[2] += statistics.median(evolve_only)
    total = [0.0, 0.0, 0.0]
    print(f"{'game':24} {'events':>7} {'decode+fold ev/s':>17} {'fold ev/s':>10}")
    for name, (n, full_s, fold_s) in sorted(per_type.items()):
        print(f"{name:24} {int(n):7d} {n / full_s:17,.0f} {n / fold_s:10,.0f}")
        total = [total[0] + n, total[1] + full_s, total[2] + fold_s]
    n, full_s, fold_s = total
    print(f"{'all':24} {int(n):7d} {n / full_s:17,.0f} {n / fold_s:10,.0f}")


if __name__ == "__main__":
    main()
