"""Rebuild speed: load a long game from its stream into a fresh node (read + decode + fold).

Two real long logs are played first by the greedy bots through the game service (a 7-player
long Road to Enlightenment game and a 4-player Campus Galli level III game). Then each is
loaded by a fresh ``GameService`` (its record built from Redis, as after a restart):

* ``snapshot``: the normal load; the snapshot written at the game's end is checked against
  the log and the fold of the prefix it covers is skipped (``server.snapshots``);
* ``cold``: the same with no snapshot store: every event decoded and folded;
* ``orjson``: only ``orjson.loads`` of the same payloads, the floor of any decode.

Rates are events / median wall seconds of ``--rebuild-reps`` loads, and events / median CPU
seconds of this process (steadier on a shared machine; Redis's own work is not in it).
The codec of each game type is built before timing: once per process, not per game. The
loads run under a server process's garbage collector settings (``server.run.tune_gc``:
what is alive is frozen, the young generation collected every 50,000 allocations), as
every ``cloister serve`` process runs; with CPython's defaults a load of thousands of
events, all of which survive, paid for a full collection of this process's heap about
every other load.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import statistics
import time
import uuid
from collections.abc import Iterator
from typing import Any

import orjson

from domain import Rng, default_registry
from domain.bots import bot_move
from server.games import GameService
from server.run import tune_gc
from server.store.redis import RedisStore

LOGS: list[tuple[str, str, dict[str, Any]]] = [
    ("road-7p-long", "road-to-enlightenment", {"players": 7, "length": "long"}),
    ("campus-galli-4p-III", "campus-galli", {"players": 4, "level": 3}),
]


class _NoSnapshots:
    """The store without its snapshot methods: a cold load."""

    def __init__(self, store: RedisStore) -> None:
        self.read = store.read
        self.get_meta = store.get_meta


async def play_to_end(
    service: GameService,
    name: str,
    options: dict[str, Any] | None = None,
    seed: int = 7,
    bot_level: str = "greedy",
) -> Any:
    """A new game of ``name`` played to its end through ``service`` by one bot level in
    every seat, its end-of-game snapshot written (also the cache's size test uses it)."""
    rec = await service.create(name, options, f"rebuild-{seed}")
    for seat in range(len(rec.seats)):
        await service.take_seat(rec, seat, f"p{seat}")
    bot, rng = rec.gtype.bot(bot_level), Rng(seed)
    while not rec.terminal:
        seat = min(rec.game.to_act(rec.state))
        command = bot_move(bot, rec.game, rec.state, seat, rng)
        await service.command(rec, seat, uuid.uuid4().hex, rec.codec.encode_command(command))
    # The end-of-game snapshot. Not a loop awaiting the set's first task: a finished task's
    # await does not yield, so the done callback that removes it from the set never ran
    # and the loop spun forever (seen on the swap game).
    await asyncio.gather(*service._snapshot_tasks)
    return rec


@contextlib.contextmanager
def server_gc() -> Iterator[None]:
    """This process with a server's GC settings (``tune_gc``), then as it was."""
    threshold = gc.get_threshold()
    gc.collect()
    tune_gc()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


async def _loads(
    store: RedisStore, registry: Any, rec: Any, mode: str, reps: int
) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``reps`` loads of ``rec``'s game by fresh services."""
    walls, cpus = [], []
    for _ in range(reps):
        service = GameService(store, registry)
        if mode == "cold":
            service.store = _NoSnapshots(store)  # type: ignore[assignment]
        w0, c0 = time.perf_counter(), time.process_time()
        loaded = await service.load(rec.id)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
        assert loaded.version == rec.version and loaded.state == rec.state
    return walls, cpus


async def rebuild_rates(redis_url: str, reps: int = 5) -> dict[str, Any]:
    prefix = f"bench-rebuild-{uuid.uuid4().hex[:8]}"
    store = RedisStore(redis_url, prefix)
    registry = default_registry()
    out: dict[str, Any] = {}
    try:
        for label, name, options in LOGS:
            rec = await play_to_end(GameService(store, registry), name, options)
            row: dict[str, Any] = {"events": rec.version}
            for mode in ("snapshot", "cold"):
                with server_gc():
                    walls, cpus = await _loads(store, registry, rec, mode, reps)
                row[f"{mode}_events_per_s"] = rec.version / statistics.median(walls)
                row[f"{mode}_cpu_events_per_s"] = rec.version / max(statistics.median(cpus), 1e-9)
            payloads = [orjson.dumps(e.data) for e in rec.log]
            walls = []
            for _ in range(reps):
                w0 = time.perf_counter()
                for p in payloads:
                    orjson.loads(p)
                walls.append(time.perf_counter() - w0)
            row["orjson_events_per_s"] = rec.version / statistics.median(walls)
            out[label] = row
    finally:
        await store.delete_prefix()
        await store.close()
    return out
