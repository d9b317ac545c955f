"""The production store: one Redis stream per game, appended by one Lua script.

Keys (all of a game's keys share the hash tag ``{<game id>}``, so a game is one Cluster
slot and the script may touch all of them):

* ``<prefix>:{G}:events`` STREAM, entry id ``<version>-0``; fields t (type), s (schema),
  e (event uuid), d (orjson payload), c (command id). Never trimmed: the log *is* the game.
* ``<prefix>:{G}:cmds`` HASH command id (scoped by seat) → ``<head it produced>:<digest>``
  (idempotency; the digest tells a resend from a different command under a used id).
* ``<prefix>:{G}:meta`` HASH server-only secrets: the game's RNG seed, seat token hashes.
* ``<prefix>:{G}:bell`` pub/sub channel: the doorbell, a hint to catch up.
* ``<prefix>:{G}:snap`` HASH a snapshot of the folded state, a cache derived from the log
  (``server.snapshots``): dropping it costs a longer load, never a game.
* ``<prefix>:games`` ZSET of game ids by creation time: a lobby index, best effort (it can
  be rebuilt by scanning for event streams, see ``rebuild_index``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from importlib import resources
from typing import Any

import orjson
import redis.asyncio as aioredis

from .base import AppendResult, NewEvent, RawEvent, StoredEvent
from .resp import RespConnection, RespError
from .resp import subscribe as resp_subscribe

__all__ = ["RedisStore"]

log = logging.getLogger("cloister.store")

_LUA = resources.files(__package__).joinpath("gamestore.lua").read_text()
_PAGE = 1000
_AHEAD = 4
"""Pages asked for at once when reading a stream."""


class RedisStore:
    def __init__(self, url: str, prefix: str = "cloister") -> None:
        self.url = url
        self.prefix = prefix
        # Command client: short timeouts. redis-py retries connection errors by itself;
        # that is safe only because the append script is idempotent on the command id.
        # BlockingConnectionPool waits for a free connection instead of raising past 100.
        self._pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=64, socket_timeout=10, timeout=20
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=self._pool)
        # The hot path (append, catch-up reads, token checks) uses the lean pipelined
        # connection; redis-py keeps the cold paths (lobby index, scans, pub/sub).
        self._fast = RespConnection(url)
        self._sha = hashlib.sha1(_LUA.encode()).hexdigest()

    async def _script(self, keys: list[str], args: list[Any]) -> Any:
        for attempt in range(3):
            try:
                try:
                    return await self._fast.execute("EVALSHA", self._sha, len(keys), *keys, *args)
                except RespError as exc:
                    if not str(exc).startswith("NOSCRIPT"):
                        raise
                    # First use on this server, or after a restart / SCRIPT FLUSH.
                    return await self._fast.execute("EVAL", _LUA, len(keys), *keys, *args)
            except ConnectionError:
                # Safe to resend: the script is idempotent on the command id, so a first
                # attempt that did land answers "dup" now.
                if attempt == 2:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    def _key(self, game_id: str, what: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:{what}"

    async def append(
        self,
        game_id: str,
        expected: int,
        command_id: str,
        events: Sequence[NewEvent],
        meta: Mapping[str, str] | None = None,
        digest: str = "",
    ) -> AppendResult:
        args: list[Any] = [
            expected,
            command_id,
            len(events),
            len(meta or {}),
            self._key(game_id, "bell"),
            digest,
        ]
        for e in events:
            args += [e.type, e.schema, e.uuid, orjson.dumps(e.data)]
        for k, v in (meta or {}).items():
            args += [k, v]
        keys = [
            self._key(game_id, "events"),
            self._key(game_id, "cmds"),
            self._key(game_id, "meta"),
        ]
        status, version = await self._script(keys, args)
        status = status.decode() if isinstance(status, bytes) else status
        result = AppendResult(status, int(version))
        if status == "ok" and expected == 0:
            # The lobby index spans games (and Cluster slots), so it cannot be in the
            # script; losing this write only hides a game from the list until a rebuild.
            await self.redis.zadd(f"{self.prefix}:games", {game_id: time.time()})
        return result

    async def command_record(self, game_id: str, command_id: str) -> tuple[int, str] | None:
        value = await self._fast.execute("HGET", self._key(game_id, "cmds"), command_id)
        if value is None:
            return None
        version, _, digest = value.decode().partition(":")
        return int(version), digest

    async def read(self, game_id: str, after: int = 0) -> list[StoredEvent]:
        return [
            StoredEvent(v, t, orjson.loads(d), e, c, s)
            for v, t, s, e, c, d in await self.read_raw(game_id, after)
        ]

    async def read_raw(self, game_id: str, after: int = 0) -> list[RawEvent]:
        """As ``read``, with each event as a tuple ``(version, type, schema, uuid, command
        id, payload JSON bytes)``: a load behind a snapshot parses payloads only on use.

        Entry ids are versions, so the pages are asked for by version range, several at
        once: Redis builds the next page while this process parses the last one.
        """
        key = self._key(game_id, "events")
        out: list[RawEvent] = []
        first = after + 1
        while True:
            pages = await asyncio.gather(
                *(
                    self._fast.execute(
                        "XRANGE", key, f"{lo}-0", f"{lo + _PAGE - 1}-0", "COUNT", _PAGE
                    )
                    for lo in range(first, first + _PAGE * _AHEAD, _PAGE)
                )
            )
            for page in pages:
                out.extend([_decode(entry_id, flat) for entry_id, flat in page])
                if len(page) < _PAGE:
                    return out
            first += _PAGE * _AHEAD

    async def get_snapshot(self, game_id: str) -> dict[bytes, bytes] | None:
        flat = await self._fast.execute("HGETALL", self._key(game_id, "snap"))
        return dict(zip(flat[::2], flat[1::2], strict=True)) if flat else None

    async def put_snapshot(self, game_id: str, fields: Mapping[str, str | bytes]) -> None:
        args: list[Any] = []
        for k, v in fields.items():
            args += [k, v]
        await self._fast.execute("HSET", self._key(game_id, "snap"), *args)

    async def head(self, game_id: str) -> int:
        last = await self.redis.xrevrange(self._key(game_id, "events"), count=1)
        return int(last[0][0].split(b"-")[0]) if last else 0

    async def get_meta(self, game_id: str, field: str) -> str | None:
        value = await self.redis.hget(self._key(game_id, "meta"), field)
        return value.decode() if value is not None else None

    async def get_meta_many(self, game_id: str, fields: Sequence[str]) -> list[str | None]:
        if not fields:
            return []
        values = await self._fast.execute("HMGET", self._key(game_id, "meta"), *fields)
        return [v.decode() if v is not None else None for v in values]

    async def game_ids(self) -> list[str]:
        ids = await self.redis.zrevrange(f"{self.prefix}:games", 0, -1)
        return [i.decode() for i in ids]

    async def rebuild_index(self) -> int:
        """Re-add every game stream to the lobby index (after a lost index write)."""
        n = 0
        async for key in self.redis.scan_iter(match=f"{self.prefix}:{{*}}:events", count=500):
            gid = key.decode()[len(self.prefix) + 2 : -len("}:events")]
            first = await self.redis.xrange(key, count=1)
            ts = int(first[0][0].split(b"-")[0]) if first else 0
            await self.redis.zadd(f"{self.prefix}:games", {gid: ts}, nx=True)
            n += 1
        return n

    async def doorbells(self) -> AsyncIterator[tuple[str, int]]:
        """Yield (game id, head) per append anywhere; ("*", 0) after a reconnect.

        The subscription has its own connection without a read timeout (a quiet one is
        normal) and is recreated on failure; ("*", 0) then tells the caller to catch up
        every game it watches, since bells may have been missed while disconnected. It
        uses the lean reader: every append rings, including this node's own, so parsing a
        burst of bells from one read matters.
        """
        pattern = f"{self.prefix}:{{*}}:bell"
        skip = len(self.prefix) + 2
        first = True
        while True:
            try:
                async for channel, data in resp_subscribe(self.url, pattern):
                    if channel is None:  # (re)subscribed
                        if not first:
                            yield ("*", 0)
                        first = False
                        continue
                    yield (channel.decode()[skip : -len("}:bell")], int(data))
            except (ConnectionError, OSError) as exc:
                log.warning("doorbell subscription lost (%s); reconnecting", exc)
            await asyncio.sleep(0.5)

    async def delete_prefix(self) -> None:
        """Delete every key under this store's prefix (tests only)."""
        async for key in self.redis.scan_iter(match=f"{self.prefix}:*", count=1000):
            await self.redis.unlink(key)

    async def close(self) -> None:
        await self._fast.close()
        await self.redis.aclose()
        await self._pool.disconnect()


_LAYOUT = [b"t", b"s", b"e", b"d", b"c"]
"""The field order gamestore.lua writes: read by position (the rebuild's hot loop)."""


def _decode(entry_id: bytes, flat: list[bytes]) -> RawEvent:
    if flat[::2] == _LAYOUT:
        t, s, e, d, c = flat[1::2]
    else:  # written by another version of the script: by name
        fields = dict(zip(flat[::2], flat[1::2], strict=True))
        t, s, e, d, c = (fields[k] for k in _LAYOUT)
    return (int(entry_id[: entry_id.index(b"-")]), t.decode(), int(s), e.decode(), c.decode(), d)
