"""Instructions per move of the real server, counted by callgrind.

``python -m bench.callgrind_moves [--game swap|illumination] [--lanes 10] [--warm 2]
[--out PREFIX] [--src DIR]``

Starts ``bench.serve``'s Cloister app (the swap game registered, rate limits lifted; one
worker, uvicorn, the Redis at ``REDIS_URL`` under a fresh key prefix, deleted at the end)
under ``valgrind --tool=callgrind``, with the periodic look-overs (reconcile, clocks)
set far apart so that they do not run inside the count. The client is the benchmark's own
(``bench.harness``), outside valgrind: ``--warm`` matches first (imports, codecs and
caches warm), then the counters are zeroed (``callgrind_control -z``), ``--lanes``
matches are played at once to the end (the swap game's 200 moves, or Illumination duels
with random legal moves, as the peer benchmark plays them), and the counters dumped
(``callgrind_control -d``). Printed: the instructions of that window and per move.

The server under count draws its games' secret seeds from a counter and the client each
game's moves from a random source of its own, so that two runs play the same games move for
move (Illumination's duels are random: with other games, counts per move differ by a
percent or two). Use 20 lanes for Illumination.

The count moves by a percent or two from run to run (how the moves of the lanes happen to
batch into event-loop turns and Redis writes): compare runs side by side, A B A B.
``--src DIR`` runs the server from another checkout of the code (``git archive`` of the
commit before, say) with this one's environment, for the A side of a pair.
``callgrind_annotate`` on the dump says where the instructions go (in C: the interpreter,
orjson, hiredis); ``--profile`` runs the same window without valgrind under cProfile
instead, for the Python functions and how often each is called per move.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from typing import Any

import httpx

from .harness import PreparedGame, Stats, connect_games, play_game

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")

SERVE = """
import sys
import attrs
import uvicorn
from bench.serve import cloister_settings, uvicorn_config
from bench.swapgame import bench_registry
from server import create_app
from server.run import tune_gc

port, prefix = int(sys.argv[1]), sys.argv[2]
# Every game's secret seed from a counter, so that two runs (an A/B pair) deal the same
# games in the same order: with the client's per-game choices (``play``), the same moves.
import hashlib, itertools, secrets
_seeds = itertools.count()
secrets.token_hex = lambda n=32: hashlib.sha256(b"%d" % next(_seeds)).hexdigest()[: 2 * n]
# The look-overs every few seconds would land in the count at valgrind's pace.
settings = attrs.evolve(
    cloister_settings(prefix), reconcile_seconds=3600.0, clock_tick=3600.0, clock_watch=3600.0
)
app = create_app(settings, bench_registry())
tune_gc()
if len(sys.argv) > 3:  # --profile: cProfile from SIGUSR1 to SIGUSR2, dumped there
    import cProfile, signal
    prof = cProfile.Profile()
    signal.signal(signal.SIGUSR1, lambda *_: prof.enable())
    signal.signal(signal.SIGUSR2, lambda *_: (prof.disable(), prof.dump_stats(sys.argv[3])))
uvicorn.Server(uvicorn_config(app, port)).run()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def control(pid: int, flag: str) -> None:
    subprocess.run(["callgrind_control", flag, str(pid)], check=True, capture_output=True)


def totals(path: str) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    raise RuntimeError(f"no totals in {path}")


async def wait_up(base: str, proc: subprocess.Popen[bytes], timeout: float = 300) -> None:
    end = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        while time.monotonic() < end:
            if proc.poll() is not None:
                raise RuntimeError("the server exited")
            with contextlib.suppress(httpx.TransportError):
                if (await http.get("/api/health")).status_code == 200:
                    return
            await asyncio.sleep(0.5)
    raise RuntimeError("the server did not come up")


GAMES = {
    "swap": {"type": "bench-swap", "options": {"absent": 3600}},
    "illumination": {"type": "illumination", "options": {"mode": "duel", "absent": 3600}},
}
"""What the peer benchmark creates (``bench/peers/load.mjs``): an absence of an hour, so
that no bot stands in for a seat meanwhile."""


async def tables(base: str, n: int, kind: str = "swap") -> list[PreparedGame]:
    """``n`` games of ``kind`` with both seats taken, as the peer benchmark makes them."""
    out = []
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        for i in range(n):
            body = GAMES[kind]
            game = (await http.post("/api/games", json=body)).json()
            tokens = []
            for seat in (0, 1):
                seated = {"name": f"p{i}s{seat}", "seat": seat}
                r = await http.post(f"/api/games/{game['id']}/seats", json=seated)
                tokens.append(r.json()["token"])
            out.append(PreparedGame(game["id"], tokens))
    return out


async def play(base: str, n: int, before: Any = None, after: Any = None, game: str = "swap") -> int:
    """Set up ``n`` matches, then (between ``before()`` and ``after()``) play them all at
    once to the end; the moves played."""
    games = await tables(base, n, game)
    await connect_games(base, games, concurrency=8)
    await asyncio.sleep(0.5)  # the welcomes' tails (snapshots, lobby) settle
    stats = Stats()
    if before is not None:
        before()
    # A random source per game (not one shared, drawn from in whatever order the lanes'
    # moves happen to interleave): each game's moves are then the same on every run.
    await asyncio.gather(
        *(play_game(g, stats, random.Random(i), float("inf")) for i, g in enumerate(games))
    )
    if after is not None:
        after()
    for g in games:
        for s in g.socks:
            await s.close()
    return stats.commands


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    prefix = f"cg-{uuid.uuid4().hex[:8]}"
    out = args.out or f"callgrind.moves.{prefix}"
    serve = [sys.executable, "-c", SERVE, str(port), prefix]
    if args.profile:
        cmd = [*serve, f"{out}.prof"]
    else:
        dump_instr = "yes" if args.instr else "no"
        grind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p"]
        cmd = [*grind, f"--dump-instr={dump_instr}", *serve]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    base = f"http://127.0.0.1:{port}"
    with open(f"{out}.log", "wb") as log:  # valgrind's and the server's own output
        proc = subprocess.Popen(cmd, env=env, stderr=log, stdout=log, cwd=args.src)
        try:
            await wait_up(base, proc)
            if args.warm:
                await play(base, args.warm, game=args.game)
            if args.profile:
                moves = await play(
                    base,
                    args.lanes,
                    lambda: os.kill(proc.pid, signal.SIGUSR1),
                    lambda: os.kill(proc.pid, signal.SIGUSR2),
                    args.game,
                )
                await asyncio.sleep(2)  # the dump
            else:
                moves = await play(
                    base,
                    args.lanes,
                    lambda: control(proc.pid, "-z"),
                    lambda: control(proc.pid, "-d"),
                    args.game,
                )
        finally:
            proc.terminate()
            proc.wait(60)
            from server.store.redis import RedisStore

            store = RedisStore(REDIS_URL, prefix)
            with contextlib.suppress(Exception):
                await store.delete_prefix()
            await store.close()
    if args.profile:
        return {"moves": moves, "profile": f"{out}.prof"}
    dumps = sorted(glob.glob(f"{out}.{proc.pid}.*"))
    if not dumps:
        raise RuntimeError("no callgrind dump")
    ir = totals(dumps[0])
    return {"moves": moves, "ir": ir, "ir_per_move": round(ir / max(moves, 1)), "dump": dumps[0]}


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.callgrind_moves")
    p.add_argument("--game", choices=sorted(GAMES), default="swap", help="the game played")
    p.add_argument("--lanes", type=int, default=10, help="matches played at once")
    p.add_argument("--warm", type=int, default=2, help="matches played before counting")
    p.add_argument("--out", default=None, help="callgrind output file prefix")
    p.add_argument("--src", default=None, help="the server's code from this checkout (an A/B pair)")
    p.add_argument("--instr", action="store_true", help="per-instruction dumps")
    p.add_argument(
        "--profile", action="store_true", help="no valgrind: cProfile the window (call counts)"
    )
    args = p.parse_args()
    print(json.dumps(asyncio.run(run(args))), flush=True)


if __name__ == "__main__":
    main()
