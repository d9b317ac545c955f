"""Bounded memory and a cold lobby: ``python -m bench.memory`` (about half a minute).

Against the real Redis at ``REDIS_URL`` (default 127.0.0.1:6379), under a fresh key prefix
that is deleted at the end:

1. **Memory across finished games.** One process (this one) runs the game service as the
   server does (the bounded game cache of ``server.cache`` with its default bounds, the bot
   runner, the lobby projection) and plays ``--games`` (10,000) two-seat High Card games to
   the end with random bots, ``--lanes`` at a time. Its RSS (psutil) is read every tenth of
   the games: with the cache bounded it stops growing once the cache is full (2,000 games),
   however many games pass through. ``--unbounded`` runs the same with a plain dict (the
   cache before the bound) for comparison.
2. **Cold listing.** ``--cold`` (5) fresh server processes (``python -m server``) are started
   one after another on those games; on each, once ``/api/health`` answers, one timed
   ``GET /api/games?limit=1000`` (1,000 summaries of the 10,000 games; the request's wall
   time at the client). Then ten warm listings on the last. Reported: the median cold and
   warm listing, and the server's RSS before and after its first listing (the listing
   loads no game).

The last line printed is one JSON object with the results.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid
from typing import Any

import httpx
import orjson
import psutil  # type: ignore[import-untyped]

from domain import default_registry
from server.bots import BotRunner
from server.cache import GameCache
from server.config import Settings
from server.games import GameRecord, GameService, SeatClaim
from server.lobby import RedisLobby
from server.store.redis import RedisStore

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
MIB = 1 << 20


def rss() -> int:
    return int(psutil.Process().memory_info().rss)


async def play(games: int, lanes: int, prefix: str, bounded: bool) -> dict[str, Any]:
    store = RedisStore(REDIS_URL, prefix)
    service = GameService(store, default_registry())
    bots = BotRunner(service)
    defaults = Settings()
    if bounded:
        service.games = GameCache(
            defaults.cache_games,
            defaults.cache_bytes,
            in_use=lambda gid, rec: bots.busy(gid, len(rec.seats)),
        )
    lobby = RedisLobby(store.redis, prefix)
    service.listeners.append(lobby.on_entries)
    writer = asyncio.create_task(lobby.run())
    ended: dict[str, asyncio.Event] = {}

    def on_entries(rec: GameRecord, entries: list[Any], command_id: str | None = None) -> None:
        if rec.terminal and rec.id in ended:
            ended[rec.id].set()

    service.listeners.append(on_entries)
    claims = [SeatClaim(None, None, "random"), SeatClaim(None, None, "random")]
    queue = iter(range(games))
    done = 0
    samples: list[dict[str, Any]] = []
    start_rss, t0 = rss(), time.perf_counter()
    step = max(1, games // 10)
    events = 0

    async def lane() -> None:
        nonlocal done, events
        for _ in queue:
            made, _ = await service.create_table("high-card", None, None, claims)
            over = ended[made.id] = asyncio.Event()
            if not made.terminal:  # else it ended before we listened
                await over.wait()
            del ended[made.id]
            events += made.version
            done += 1
            if done % step == 0:
                if isinstance(service.games, GameCache):
                    service.games.trim()  # as the app does every few seconds
                samples.append(
                    {
                        "games": done,
                        "rss_mb": round(rss() / MIB, 1),
                        "cached": len(service.games),
                        "cache_est_mb": round(getattr(service.games, "bytes", 0) / MIB, 1),
                    }
                )
                print(f"  {samples[-1]}", flush=True)

    await asyncio.gather(*(lane() for _ in range(lanes)))
    await lobby.flush()
    writer.cancel()
    await bots.close()
    await asyncio.gather(*service._snapshot_tasks, return_exceptions=True)
    await store.close()
    return {
        "games": games,
        "events": events,
        "seconds": round(time.perf_counter() - t0, 1),
        "start_rss_mb": round(start_rss / MIB, 1),
        "samples": samples,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(prefix: str, port: int) -> tuple[subprocess.Popen[bytes], str]:
    env = {**os.environ, "REDIS_URL": REDIS_URL, "CLOISTER_PREFIX": prefix}
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--log-level", "warning"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("server did not start")


def cold_listings(prefix: str, runs: int, port: int) -> dict[str, Any]:
    cold, warm, grown = [], [], []
    count = 0
    for i in range(runs):
        proc, base = start_server(prefix, port or free_port())
        try:
            ps = psutil.Process(proc.pid)
            with httpx.Client(base_url=base, timeout=30) as c:
                before = ps.memory_info().rss
                t = time.perf_counter()
                r = c.get("/api/games", params={"limit": 1000})
                cold.append((time.perf_counter() - t) * 1000)
                grown.append((ps.memory_info().rss - before) / MIB)
                count = len(r.json()["games"])
                if i == runs - 1:
                    for _ in range(10):
                        t = time.perf_counter()
                        c.get("/api/games", params={"limit": 1000})
                        warm.append((time.perf_counter() - t) * 1000)
                cached = next(
                    line
                    for line in c.get("/metrics").text.splitlines()
                    if line.startswith("cloister_games_cached ")
                )
        finally:
            proc.terminate()
            proc.wait(10)
    return {
        "listed": count,
        "cold_ms": [round(x, 1) for x in cold],
        "cold_median_ms": round(statistics.median(cold), 1),
        "warm_median_ms": round(statistics.median(warm), 1),
        "rss_growth_mb_median": round(statistics.median(grown), 1),
        "games_cached_after": int(cached.split()[1]),
    }


async def cleanup(prefix: str) -> None:
    store = RedisStore(REDIS_URL, prefix)
    batch: list[bytes] = []
    async for key in store.redis.scan_iter(match=f"{prefix}:*", count=5000):
        batch.append(key)
        if len(batch) >= 5000:
            await store.redis.unlink(*batch)
            batch = []
    if batch:
        await store.redis.unlink(*batch)
    await store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--lanes", type=int, default=100, help="games played at once")
    parser.add_argument("--cold", type=int, default=5, help="cold server processes")
    parser.add_argument("--port", type=int, default=0, help="for the cold servers (0: any)")
    parser.add_argument("--unbounded", action="store_true", help="a plain dict as the cache")
    args = parser.parse_args(argv)
    prefix = f"bench-memory-{uuid.uuid4().hex[:8]}"
    try:
        kind = "unbounded" if args.unbounded else "bounded (defaults)"
        print(f"playing {args.games} High Card games, cache {kind}", flush=True)
        played = asyncio.run(play(args.games, args.lanes, prefix, not args.unbounded))
        print(f"cold listings on {args.cold} fresh server processes", flush=True)
        listing = cold_listings(prefix, args.cold, args.port) if args.cold else {}
    finally:
        asyncio.run(cleanup(prefix))
    print(orjson.dumps({"memory": played, "listing": listing}).decode())


if __name__ == "__main__":
    main()
