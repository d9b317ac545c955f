"""The lobby listing (``GET /api/games``): a projection of game summaries, never a load.

Every process keeps the projection current for the games it appends to: after each
successful append of its own (the service's listeners hear of it with the command id), the
game is marked dirty, and a background task writes the summaries of the dirty games in one
batch (a burst of commands on one game costs one write); a game changed only by moves
waits up to ``MOVE_SECONDS`` so a fast game does not cost a write per move. A listing
first writes this process's own pending summaries (so a client sees the game it just
created or moved), then reads the projection: one script call, whatever the number of
games, no game loaded.

On Redis (keys under the prefix, all with the hash tag ``{lobby}``, so they live in one
Cluster slot and one script may touch them all; they span games, so they are written
outside any game's append script):

* ``<prefix>:{lobby}:sum`` HASH game id -> the summary as JSON (a ``GameSummary``);
* ``<prefix>:{lobby}:ver`` HASH game id -> the version that summary is at;
* ``<prefix>:{lobby}:all`` and ``<prefix>:{lobby}:s:<status>`` ZSETs of game ids by
  creation time: the listing, and the listing of one status.

A write is applied only if its version is newer than the stored one, so several processes
writing summaries of one game, in any order, leave the newest.

Games missing from the projection (written before it existed), or behind their stream (a
process that died between an append and its lobby write), are found by a background scan
at start-up (:meth:`Lobby.backfill`): the lobby versions are compared with the stream heads
in batches, and only the games that differ are loaded, one at a time, in a scratch service
whose cache is dropped after each: from their snapshot where there is one (every finished
game has one), so a finished game is not replayed. One process at a time does the scan (a
lock key with a time to live).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import orjson

from .errors import ServiceError
from .games import COMMAND_ACCEPTED, PLATFORM, GameRecord, GameService, LogEntry

__all__ = ["STATUSES", "Lobby", "MemoryLobby", "RedisLobby", "lobby_for"]

log = logging.getLogger("cloister.lobby")

STATUSES = ("open", "running", "finished")
COALESCE_SECONDS = 0.02
"""How long the writer waits after the first dirty game, so a burst is one write."""
MOVE_SECONDS = 1.0
"""How long a summary changed only by a move (the same status) may wait before it is
written: the version and whose turn it is are all that changes, and this process's own
listing writes it first anyway. A game played fast would otherwise cost one summary write
per move."""
BATCH = 200
"""Summaries per write; games per step of the scan."""

Item = tuple[str, int, float, str, bytes]
"""(game id, version, created, status, summary JSON)."""


def _a_move(rec: GameRecord, entries: list[LogEntry], status: str | None) -> bool:
    """Whether these entries change the game's summary only as any move does (the version,
    whose turn): game events and accepted commands, the status as last written."""
    if status is None or rec.status != status:
        return False
    return all(e.type == COMMAND_ACCEPTED or not e.type.startswith(PLATFORM) for e in entries)


def item(rec: GameRecord) -> Item:
    return (rec.id, rec.version, rec.created, rec.status, orjson.dumps(rec.summary()))


class Lobby:
    """The projection's writer and reader; subclasses store it."""

    def __init__(self) -> None:
        self._dirty: dict[str, GameRecord] = {}
        self._later: dict[str, GameRecord] = {}
        """Games changed only by moves since their last write (``MOVE_SECONDS``)."""
        self._later_at = 0.0
        self._written: dict[str, str] = {}
        """The status of each running or open game's last summary handed to the writer."""
        self._wake = asyncio.Event()
        self._flushing = asyncio.Lock()
        self.written = 0
        """Summaries written by this process (for tests and /metrics)."""

    # -- writing --------------------------------------------------------------------------
    def on_entries(
        self, rec: GameRecord, entries: list[LogEntry], command_id: str | None = None
    ) -> None:
        """The service's listener: this process's own appends carry their command id (a
        catch-up of another process's append does not: that process writes it)."""
        if command_id is not None and entries:
            self.touch(rec, urgent=not _a_move(rec, entries, self._written.get(rec.id)))

    def touch(self, rec: GameRecord, urgent: bool = True) -> None:
        """Mark the game's summary for writing: now (within ``COALESCE_SECONDS``), or, if
        not ``urgent`` (a move), within ``MOVE_SECONDS``."""
        if urgent or rec.id in self._dirty:
            self._dirty[rec.id] = rec
            self._later.pop(rec.id, None)
            status = rec.status
            if status == "finished":
                self._written.pop(rec.id, None)  # it moves no more
            else:
                self._written[rec.id] = status
            self._wake.set()
            return
        if not self._later:
            self._later_at = asyncio.get_running_loop().time()
            self._wake.set()  # the writer starts counting
        self._later[rec.id] = rec

    def _take_later(self, force: bool) -> None:
        """Move the waiting moves' games to the dirty ones (all, or once they are due)."""
        if self._later and (
            force or asyncio.get_running_loop().time() - self._later_at >= MOVE_SECONDS
        ):
            for gid, rec in self._later.items():
                self._dirty.setdefault(gid, rec)
            self._later = {}

    async def flush(self, moves: bool = True) -> None:
        """Write every pending summary (waits for a write under way); ``moves`` False:
        those changed only by moves only once they are due."""
        async with self._flushing:
            self._take_later(force=moves)
            while self._dirty:
                batch, self._dirty = self._dirty, {}
                recs = list(batch.values())
                try:
                    for i in range(0, len(recs), BATCH):
                        await self._put([item(r) for r in recs[i : i + BATCH]])
                except BaseException:
                    for gid, rec in batch.items():  # a newer touch keeps its place
                        self._dirty.setdefault(gid, rec)
                    raise
                self.written += len(recs)

    async def run(self) -> None:
        """The background writer (runs for the app's lifetime)."""
        loop = asyncio.get_running_loop()
        while True:
            if self._later and not self._dirty:
                due = self._later_at + MOVE_SECONDS - loop.time()
                if due > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), due)
            else:
                await self._wake.wait()
            self._wake.clear()
            await asyncio.sleep(COALESCE_SECONDS)
            try:
                await self.flush(moves=False)
            except Exception as exc:
                log.warning("lobby summaries not written (%s); retrying", exc)
                await asyncio.sleep(1.0)
                self._wake.set()

    # -- the store ------------------------------------------------------------------------
    async def _put(self, items: Sequence[Item]) -> None:
        raise NotImplementedError

    async def listing(self, status: str | None, limit: int) -> list[bytes]:
        """The newest ``limit`` summaries (of games in ``status``), as JSON."""
        raise NotImplementedError

    async def versions(self, game_ids: Sequence[str]) -> list[int | None]:
        raise NotImplementedError

    async def heads(self, game_ids: Sequence[str]) -> list[int]:
        raise NotImplementedError

    async def _claim_scan(self) -> bool:
        return True

    async def _release_scan(self) -> None:
        return None

    # -- the scan -------------------------------------------------------------------------
    async def backfill(self, service: GameService) -> int:
        """Add the games the projection lacks or holds behind their stream; returns how
        many were written (0 if another process is scanning)."""
        if not await self._claim_scan():
            return 0
        try:
            ids = await service.store.game_ids()
            scratch = GameService(service.store, service.registry)
            written = 0
            for i in range(0, len(ids), BATCH):
                chunk = ids[i : i + BATCH]
                have, heads = await asyncio.gather(self.versions(chunk), self.heads(chunk))
                stale = [
                    g for g, v, h in zip(chunk, have, heads, strict=True) if v is None or v < h
                ]
                items = []
                for gid in stale:
                    try:
                        items.append(item(await scratch.load(gid)))
                    except ServiceError as exc:  # a type this server cannot host
                        log.info("lobby scan skips %s: %s", gid, exc.message)
                    except Exception:
                        log.exception("lobby scan could not load %s", gid)
                    finally:
                        scratch.games.clear()
                if items:
                    await self._put(items)
                    written += len(items)
            if written:
                log.info("lobby scan added %d game summaries", written)
            return written
        finally:
            await self._release_scan()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.flush()


_PUT = """
local sum, ver, all = KEYS[1], KEYS[2], KEYS[3]
local n = 0
for i = 1, #ARGV, 5 do
  local gid, v = ARGV[i], tonumber(ARGV[i + 1])
  local have = redis.call('HGET', ver, gid)
  if not have or tonumber(have) < v then
    redis.call('HSET', sum, gid, ARGV[i + 4])
    redis.call('HSET', ver, gid, ARGV[i + 1])
    redis.call('ZADD', all, ARGV[i + 2], gid)
    for k = 4, #KEYS do redis.call('ZREM', KEYS[k], gid) end
    redis.call('ZADD', KEYS[3 + tonumber(ARGV[i + 3])], ARGV[i + 2], gid)
    n = n + 1
  end
end
return n
"""
"""KEYS: sum, ver, all, s:open, s:running, s:finished. ARGV: (id, version, created, status
index 1-3, summary) per game."""

_LIST = """
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(ids))
"""


class RedisLobby(Lobby):
    def __init__(self, redis: Any, prefix: str) -> None:
        super().__init__()
        self.redis = redis
        tag = f"{prefix}:{{lobby}}"
        self._sum, self._ver, self._all = f"{tag}:sum", f"{tag}:ver", f"{tag}:all"
        self._status = {s: f"{tag}:s:{s}" for s in STATUSES}
        self._scan = f"{tag}:scan"
        self._put_script = redis.register_script(_PUT)
        self._list_script = redis.register_script(_LIST)
        self._prefix = prefix

    async def _put(self, items: Sequence[Item]) -> None:
        args: list[Any] = []
        for gid, version, created, status, blob in items:
            args += [gid, version, repr(created), STATUSES.index(status) + 1, blob]
        keys = [self._sum, self._ver, self._all, *self._status.values()]
        await self._put_script(keys=keys, args=args)

    async def listing(self, status: str | None, limit: int) -> list[bytes]:
        key = self._all if status is None else self._status[status]
        blobs = await self._list_script(keys=[key, self._sum], args=[limit])
        return [b for b in blobs if b is not None]

    async def versions(self, game_ids: Sequence[str]) -> list[int | None]:
        if not game_ids:
            return []
        values = await self.redis.hmget(self._ver, list(game_ids))
        return [None if v is None else int(v) for v in values]

    async def heads(self, game_ids: Sequence[str]) -> list[int]:
        pipe = self.redis.pipeline(transaction=False)
        for gid in game_ids:
            pipe.xrevrange(f"{self._prefix}:{{{gid}}}:events", count=1)
        lasts = await pipe.execute()
        return [int(last[0][0].split(b"-")[0]) if last else 0 for last in lasts]

    async def _claim_scan(self) -> bool:
        return bool(await self.redis.set(self._scan, "1", nx=True, ex=120))

    async def _release_scan(self) -> None:
        await self.redis.delete(self._scan)


class MemoryLobby(Lobby):
    """The projection in this process (for the in-process store of tests)."""

    def __init__(self, store: Any) -> None:
        super().__init__()
        self.store = store
        self._items: dict[str, Item] = {}

    async def _put(self, items: Sequence[Item]) -> None:
        for it in items:
            have = self._items.get(it[0])
            if have is None or have[1] < it[1]:
                self._items[it[0]] = it

    async def listing(self, status: str | None, limit: int) -> list[bytes]:
        chosen: Iterable[Item] = self._items.values()
        if status is not None:
            chosen = (it for it in chosen if it[3] == status)
        return [it[4] for it in sorted(chosen, key=lambda it: -it[2])[:limit]]

    async def versions(self, game_ids: Sequence[str]) -> list[int | None]:
        return [self._items[g][1] if g in self._items else None for g in game_ids]

    async def heads(self, game_ids: Sequence[str]) -> list[int]:
        return [await self.store.head(g) for g in game_ids]


def lobby_for(store: Any) -> Lobby:
    """The Redis projection for a Redis store, else one in this process."""
    redis = getattr(store, "redis", None)
    if redis is not None and hasattr(store, "prefix"):
        return RedisLobby(redis, store.prefix)
    return MemoryLobby(store)
