"""The production store: one Redis stream per game, appended by one Lua script.

Keys (all of a game's keys share the hash tag ``{<game id>}``, so a game is one Cluster
slot and the script may touch all of them):

* ``<prefix>:{G}:events`` STREAM, entry id ``<version>-0``; fields t (type), s (schema),
  e (event uuid), d (orjson payload), c (command id). Never trimmed: the log *is* the game.
* ``<prefix>:{G}:cmds`` HASH command id (scoped by seat) → ``<head it produced>:<digest>``
  (idempotency; the digest tells a resend from a different command under a used id).
* ``<prefix>:{G}:meta`` HASH server-only secrets: the game's RNG seed, seat token hashes.
* ``<prefix>:{G}:bell`` pub/sub channel: the doorbell, a hint to catch up; a shard channel
  (SPUBLISH/SSUBSCRIBE, slot-assigned like the keys) on Redis 7, a plain one on 6.2.
* ``<prefix>:{G}:snap`` HASH a snapshot of the folded state and a copy of the log's prefix
  in chunks (fields ``l0``, ``l1``...), a cache derived from the log (``server.snapshots``,
  ``server.logcache``): dropping it costs a longer load, never a game.
* ``<prefix>:games`` ZSET of game ids by creation time: a lobby index, best effort (it can
  be rebuilt by scanning for event streams, see ``rebuild_index``).
* ``<prefix>:{clocks}:due`` ZSET game id -> the server time (ms) someone must next look at
  the running game (a clock's deadline, a player's absence running out, a bot to move), and
  ``<prefix>:{clocks}:ver`` HASH game id -> the version that time was computed at: the
  deadline index every process watches (``server.clocks``), so a game nobody loads after
  a restart still times out. Derived from the logs like the lobby index; one slot of its
  own (hash tag ``{clocks}``), written by one small script, newest version wins.

A ``redis+cluster://`` URL selects Redis Cluster mode (``CLUSTER_SCHEMES``): the hot path's
:class:`~server.store.resp.ClusterConnection` routes by slot, redis-py's ``RedisCluster``
serves the cold paths, and the bells subscribe on each game's master.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from importlib import resources
from itertools import chain
from typing import Any, cast

import orjson
import redis.asyncio as aioredis
from redis.asyncio.connection import parse_url

from .base import (
    APPEND_STATUSES,
    AppendResult,
    AppendStatus,
    NewEvent,
    RawColumns,
    RawEvent,
    StoredEvent,
)
from .resp import (
    COMMAND_TIMEOUT,
    CONNECT_TIMEOUT,
    ClusterConnection,
    Moved,
    PackedHead,
    RespConnection,
    RespError,
    Subscriber,
    pack_head,
    tls_context,
)

__all__ = ["RedisStore"]

log = logging.getLogger("cloister.store")

_LUA = resources.files(__package__).joinpath("gamestore.lua").read_text()
_PAGE = 1000
LARGE_CHUNK_BYTES = 256 << 10
"""A large append (``append_large``) is written in pipelined XADDs of about this many
payload bytes each: no single Redis command is big, so other clients are served between
them (one 56 MB script call held Redis for everyone while it ran)."""
_NUMS = tuple(str(n) for n in range(4096))
"""Decimal texts of the small numbers an append sends (``append``)."""
_STATUS_OF: dict[Any, AppendStatus] = {
    **{cast(AppendStatus, s): cast(AppendStatus, s) for s in APPEND_STATUSES},
    **{s.encode(): cast(AppendStatus, s) for s in APPEND_STATUSES},
}
"""The append script's status replies (bytes, or text from a decoding client) as text."""
HEADS_KEPT = 4096
"""Games whose append prefix a store keeps packed (all are dropped past it: a re-pack)."""
STAGING_TTL = 3600
"""Seconds an unfinished large append's staging stream lives: a process that dies midway
leaves nothing visible, and its staging stream expires."""
_FINISH = """
local staging, stream, cmds, meta, channel = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local cmd_id, n, n_meta, publish, digest = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]),
  ARGV[4], ARGV[5]
if publish ~= 'SPUBLISH' and publish ~= 'PUBLISH' then
  return redis.error_reply('ERR publish must be SPUBLISH or PUBLISH')
end
local done = redis.call('HGET', cmds, cmd_id)
if done then
  local v, d = string.match(done, '^(%d+):?(.*)$')
  if digest ~= '' and d ~= '' and d ~= digest then return {'reused', v} end
  return {'dup', v}
end
if redis.call('EXISTS', stream) == 1 then
  local last = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)
  local head = 0
  if #last > 0 then head = tonumber(string.match(last[1][1], '^(%d+)%-')) end
  return {'conflict', tostring(head)}
end
if redis.call('XLEN', staging) ~= n then
  return redis.error_reply('ERR the staged events are incomplete')
end
redis.call('RENAME', staging, stream)
redis.call('PERSIST', stream)
local i = 6
for k = 1, n_meta do
  redis.call('HSET', meta, ARGV[i], ARGV[i + 1])
  i = i + 2
end
local record = tostring(n)
if digest ~= '' then record = record .. ':' .. digest end
redis.call('HSET', cmds, cmd_id, record)
redis.call(publish, channel, tostring(n))
return {'ok', tostring(n)}
"""
"""The last step of ``append_large``: the staged stream becomes the game's, in O(1)
(RENAME), with the same idempotency and head checks as ``gamestore.lua``. KEYS: staging,
events, cmds, meta, bell. ARGV: command id, number of events, number of meta fields,
publish command, digest, (field, value) * n_meta."""
_DUE = """
local due, ver = KEYS[1], KEYS[2]
for i = 1, #ARGV, 3 do
  local gid, v, at = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]
  local have = redis.call('HGET', ver, gid)
  if not have or tonumber(have) <= v then
    if at == '' then
      redis.call('ZREM', due, gid)
    else
      redis.call('ZADD', due, at, gid)
    end
    redis.call('HSET', ver, gid, v)
  end
end
return 0
"""
"""KEYS: the deadline index and its versions. ARGV: (game id, version, time or '' to
drop) per game. A write computed at an older version than the stored one is ignored, so
processes writing one game's entry in any order leave the newest. A dropped entry keeps
its version: a game with no entry that was written at its stream's head needs no look (it
is open or finished), and the start-up scan (``index_gaps``) tells it from one whose entry
was never written or lags its stream."""
_AHEAD = 4
"""Pages a long read keeps asked for ahead of the one it is parsing (``_pages``)."""


CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")
"""A ``REDIS_URL`` with one of these schemes names a node of a Redis Cluster (any node: the
rest are discovered); with ``redis://`` the store talks to one server and refuses a cluster
node (``cluster_enabled:1``) with a message saying so."""


_TIMEOUTS: dict[str, Any] = {
    "socket_timeout": COMMAND_TIMEOUT,
    "socket_connect_timeout": CONNECT_TIMEOUT,
    "socket_keepalive": True,
}
"""Every redis-py connection: a stalled or vanished Redis is an error in seconds, never a
wait forever (``server.store.resp`` does the same for the hot path)."""


class RedisStore:
    def __init__(self, url: str, prefix: str = "cloister") -> None:
        self.url = url
        self.prefix = prefix
        self.cluster = url.startswith(CLUSTER_SCHEMES)
        base = url.replace("+cluster://", "://", 1) if self.cluster else url
        self._base_url = base
        # Command client: short timeouts. redis-py retries connection errors by itself;
        # that is safe only because the append script is idempotent on the command id.
        self._pool: aioredis.BlockingConnectionPool | None = None
        self.redis: Any
        """``redis.asyncio.Redis``, or ``redis.asyncio.RedisCluster`` on a cluster."""
        self._fast: RespConnection | ClusterConnection
        if self.cluster:
            # The cluster client routes by key and follows MOVED/ASK; it serves the cold
            # paths (the lobby index is one key, on one slot; scans visit every master).
            self.redis = aioredis.RedisCluster.from_url(base, max_connections=64, **_TIMEOUTS)
            self._fast = ClusterConnection(base)
        else:
            # BlockingConnectionPool waits for a free connection instead of raising past 100.
            self._pool = aioredis.BlockingConnectionPool.from_url(
                base, max_connections=64, timeout=20, health_check_interval=30, **_TIMEOUTS
            )
            self.redis = aioredis.Redis(connection_pool=self._pool)
            self._fast = RespConnection(base)
        # The hot path (append, catch-up reads, token checks) uses the lean pipelined
        # connection(s); redis-py keeps the cold paths (lobby index, scans).
        self._sha = hashlib.sha1(_LUA.encode()).hexdigest()
        self._heads: dict[str, tuple[list[str], PackedHead | None]] = {}
        """Per game, its append's keys and first arguments packed (``_append_head``)."""
        self._publish: str | None = None
        self._watched: set[bytes] = set()
        self._route: tuple[Callable[[bytes], None], Callable[[bytes], None]] | None = None
        self._due = f"{prefix}:{{clocks}}:due"
        self._due_ver = f"{prefix}:{{clocks}}:ver"
        self._due_script = self.redis.register_script(_DUE)

    async def probe(self) -> None:
        """Ask the server what it is, now: raises ``RuntimeError`` for a cluster node behind
        a plain ``redis://`` URL (``ConnectionError`` if it does not answer)."""
        await self._server()

    async def _server(self) -> str:
        """The doorbell's publish command, from the server's version (asked once):
        SPUBLISH (sharded pub/sub) on Redis 7+, PUBLISH on 6.2. Also refuses a cluster
        node behind a plain ``redis://`` URL, which would fail later and less clearly."""
        if self._publish is None:
            info = await self._fast.execute("INFO")
            text = info.decode() if isinstance(info, bytes) else str(info)
            version = re.search(r"redis_version:(\d+)", text)
            if not self.cluster and re.search(r"cluster_enabled:1", text):
                where = parse_url(self._base_url)  # no credentials in the message
                raise RuntimeError(
                    f"the Redis at {where.get('host')}:{where.get('port', 6379)} is a Redis "
                    "Cluster node: use a redis+cluster:// URL (docs/cli.md, 'Redis Cluster')"
                )
            self._publish = "SPUBLISH" if version and int(version.group(1)) >= 7 else "PUBLISH"
        return self._publish

    def _append_head(self, game_id: str) -> tuple[list[str], PackedHead | None]:
        """The append's keys, and its EVALSHA, script and keys packed (on one node; a
        cluster routes each command by its arguments): made once per game, since its every
        append starts with them."""
        cached = self._heads.get(game_id)
        if cached is None:
            if len(self._heads) >= HEADS_KEPT:
                self._heads.clear()
            tag = f"{self.prefix}:{{{game_id}}}:"  # the game's keys as _key makes them
            # The bell is a channel, but in KEYS: a cluster checks its slot.
            keys = [tag + "events", tag + "cmds", tag + "meta", tag + "bell"]
            head = None
            if isinstance(self._fast, RespConnection):
                head = pack_head("EVALSHA", self._sha, len(keys), *keys)
            cached = self._heads[game_id] = (keys, head)
        return cached

    async def _script(
        self,
        keys: list[str],
        args: tuple[Any, ...],
        head: PackedHead | None = None,
        first: BaseException | None = None,
    ) -> Any:
        """The append script's reply: sent by its SHA (by its text after ``NOSCRIPT``), sent
        again on a lost connection, three attempts in all. ``first``: what the caller's own
        first attempt raised (``append``'s quick path), taken as this one's first."""
        for attempt in range(3):
            try:
                try:
                    if first is not None:
                        exc, first = first, None
                        raise exc
                    if head is not None and isinstance(self._fast, RespConnection):
                        return await self._fast.execute_packed(head, *args)
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
        head_uuid: str = "",
    ) -> AppendResult:
        publish = self._publish or await self._server()
        meta = meta or {}
        # The script's numbers as their decimal text (what hiredis would write for the
        # ints, the same bytes), from a table while small: hiredis turns an int argument
        # into text by calling its repr, a Python call per number.
        nums, top = _NUMS, len(_NUMS)
        cells: list[Any] = [
            nums[expected] if 0 <= expected < top else expected,
            command_id,
            nums[len(events)] if len(events) < top else len(events),
            nums[len(meta)] if len(meta) < top else len(meta),
            publish,
            digest,
            head_uuid,
        ]
        for e in events:
            schema = nums[e.schema] if 0 <= e.schema < top else e.schema
            cells.extend((e.type, schema, e.uuid, orjson.dumps(e.data)))
        for k, v in meta.items():
            cells.extend((k, v))
        args = tuple(cells)  # as hiredis packs them
        keys, head = self._append_head(game_id)
        fast = self._fast
        if head is not None and type(fast) is RespConnection and fast.connected:
            # The common case without _script's coroutine and execute_packed's: the command
            # queued and its reply awaited here. Anything but a reply (NOSCRIPT, a lost
            # connection) goes on in _script, as its first attempt.
            try:
                reply, version = await fast.send_packed(head, args)
            except (RespError, ConnectionError) as exc:
                reply, version = await self._script(keys, args, head, first=exc)
        else:
            reply, version = await self._script(keys, args, head)
        # The reply's status as the text it is, from a table (no decode, no check, no cast).
        status = _STATUS_OF.get(reply)
        if status is None:  # the script answers only these; anything else is a bug
            raise RuntimeError(f"the append script answered {reply!r}")
        result = AppendResult(status, version if type(version) is int else int(version))
        if status == "ok" and expected == 0:
            # The lobby index spans games (and Cluster slots), so it cannot be in the
            # script; losing this write only hides a game from the list until a rebuild.
            await self.redis.zadd(f"{self.prefix}:games", {game_id: time.time()})
        return result

    async def append_large(
        self,
        game_id: str,
        expected: int,
        command_id: str,
        events: Sequence[NewEvent],
        meta: Mapping[str, str] | None = None,
        digest: str = "",
        head_uuid: str = "",
    ) -> AppendResult:
        """``append`` for a new game's whole log at once (an import), without holding Redis
        for everyone: the events are written to a staging stream under the game's hash tag
        in pipelined XADDs of about ``LARGE_CHUNK_BYTES``, then one small script checks and
        renames it into the game's stream (O(1)). Until then the game does not exist for
        any reader; a failure midway leaves only the staging stream, which is unlinked (or,
        if this process died, expires after ``STAGING_TTL``)."""
        if expected != 0:
            return await self.append(game_id, expected, command_id, events, meta, digest)
        staging = self._key(game_id, "staging")
        publish = self._publish or await self._server()
        await self._fast.execute("UNLINK", staging)  # a retry starts over
        try:
            batch: list[Any] = []
            size = 0
            for version, e in enumerate(events, start=1):
                data = orjson.dumps(e.data)
                batch.append(
                    self._fast.execute(
                        "XADD", staging, f"{version}-0", "t", e.type, "s", e.schema, "e",
                        e.uuid, "d", data, "c", command_id,
                    )
                )  # fmt: skip
                size += len(data)
                if size >= LARGE_CHUNK_BYTES or version == len(events):
                    batch.append(self._fast.execute("EXPIRE", staging, STAGING_TTL))
                    await asyncio.gather(*batch)
                    batch, size = [], 0
            args: list[Any] = [command_id, len(events), len(meta or {}), publish, digest]
            for k, v in (meta or {}).items():
                args += [k, v]
            keys = [staging, *(self._key(game_id, w) for w in ("events", "cmds", "meta", "bell"))]
            status, version = await self.redis.eval(_FINISH, len(keys), *keys, *args)
        except BaseException:
            with contextlib.suppress(Exception):
                await self._fast.execute("UNLINK", staging)
            raise
        status = status.decode() if isinstance(status, bytes) else status
        if status != "ok":
            await self._fast.execute("UNLINK", staging)
        if status not in APPEND_STATUSES:
            raise RuntimeError(f"the finishing script answered {status!r}")
        if status == "ok":
            await self.redis.zadd(f"{self.prefix}:games", {game_id: time.time()})
        return AppendResult(cast(AppendStatus, status), int(version))

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
        id, payload JSON bytes)``: a load behind a snapshot parses payloads only on use."""
        out: list[RawEvent] = []
        async for page in self._pages(game_id, after):
            out += _decode_page(page)
        return out

    async def read_columns(self, game_id: str, after: int = 0) -> RawColumns:
        """As ``read_raw``, column by column (a load: ``GameService._load``)."""
        out: RawColumns | None = None
        async for page in self._pages(game_id, after):
            cols = _page_columns(page)
            if cols is None:
                cols = RawColumns.from_rows([_decode(entry_id, flat) for entry_id, flat in page])
            if out is None:
                out = cols
            else:
                out.extend(cols)
        assert out is not None  # at least one page, maybe empty
        return out

    async def _pages(self, game_id: str, after: int) -> AsyncIterator[list[list[Any]]]:
        """The XRANGE pages of the events after ``after``, in order; the last one is short.

        Entry ids are versions, so pages are asked for by version range: one at first (a
        catch-up reads a few events), then, once a page comes back full, ``_AHEAD`` at a
        time, the next asked for as each arrives. Redis builds a command's whole reply
        before it sends a byte of it, so pages asked for all at once kept this process
        waiting until Redis had built them all; this way Redis builds the next pages
        while this process parses and takes apart the last one.
        """
        key = self._key(game_id, "events")
        execute, page_size = self._fast.execute, _PAGE
        asked: deque[asyncio.Future[Any]] = deque()
        nxt = after + 1

        def ask() -> None:
            nonlocal nxt
            lo, nxt = nxt, nxt + page_size
            asked.append(
                asyncio.ensure_future(
                    execute("XRANGE", key, f"{lo}-0", f"{nxt - 1}-0", "COUNT", page_size)
                )
            )

        ask()
        try:
            while True:
                page = await asked.popleft()
                if len(page) < page_size:
                    yield page
                    return
                while len(asked) < _AHEAD:
                    ask()
                yield page
        finally:
            for fut in asked:  # pages past the end (or a caller that stopped early)
                fut.cancel()

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

    async def set_meta(self, game_id: str, field: str, value: str) -> None:
        """Set one meta field outside an append (presence: ``server.clocks``)."""
        await self._fast.execute("HSET", self._key(game_id, "meta"), field, value)

    async def set_due(self, items: Sequence[tuple[str, int, int | None]]) -> None:
        """Write the deadline index: (game id, version, next look in ms, None to drop)."""
        args: list[Any] = []
        for gid, version, at in items:
            args += [gid, version, "" if at is None else at]
        if args:
            await self._due_script(keys=[self._due, self._due_ver], args=args)

    async def due_games(self, now: int, limit: int) -> list[str]:
        """Games whose next look is at or before ``now`` (ms), soonest first."""
        ids = await self.redis.zrangebyscore(self._due, "-inf", now, start=0, num=limit)
        return [i.decode() for i in ids]

    async def index_gaps(self, game_ids: Sequence[str]) -> list[tuple[str, int, str]]:
        """Of ``game_ids``, the games the deadline index may lack: no entry, and either
        never written (a game older than the index) or last written at a version below its
        stream's head (a process died between an append and its index write). Each as
        (game id, head, type of the head event). One pipelined round trip: each game's
        last stream entry, and two reads of the index; no game's log is read."""
        if not game_ids:
            return []
        ids = list(game_ids)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(self._due_ver, ids)
        pipe.zmscore(self._due, ids)
        for gid in ids:
            pipe.xrevrange(self._key(gid, "events"), count=1)
        versions, scores, *lasts = await pipe.execute()
        gaps = []
        for gid, have, score, last in zip(ids, versions, scores, lasts, strict=True):
            if score is not None or not last:
                continue
            head = int(last[0][0].split(b"-")[0])
            if have is None or int(have) < head:
                gaps.append((gid, head, last[0][1].get(b"t", b"").decode()))
        return gaps

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

    def watch(self, game_id: str) -> None:
        """Ring ``doorbells()`` for this game's appends (until ``unwatch``)."""
        channel = self._key(game_id, "bell").encode()
        self._watched.add(channel)
        if self._route is not None:
            self._route[0](channel)

    def unwatch(self, game_id: str) -> None:
        channel = self._key(game_id, "bell").encode()
        self._watched.discard(channel)
        if self._route is not None:
            self._route[1](channel)

    async def doorbells(self) -> AsyncIterator[tuple[str, int]]:
        """Yield (game id, head) per append to a watched game, by any process; (game id,
        0) when a subscription to its bell is confirmed (again): catch that game up, bells
        may have been missed before.

        One subscription per watched game's channel: sharded (SSUBSCRIBE) on Redis 7 (on a
        cluster, on the master that owns the game's slot, one connection per master),
        plain SUBSCRIBE on 6.2. The connections have no read timeout (a quiet one is
        normal) and are all recreated on any failure, or when a cluster moves a watched
        game's slot (the master then drops the subscription). They use the lean reader:
        every append rings, so parsing a burst of bells from one read matters.
        """
        skip = len(self.prefix) + 2
        while True:
            bells = _Bells(self)
            try:
                bells.sharded = await self._server() == "SPUBLISH"
                if isinstance(self._fast, ClusterConnection):
                    await self._fast.refresh()
                self._route = (bells.route, bells.unroute)
                for channel in list(self._watched):
                    bells.route(channel)
                while True:
                    channel, data = await bells.next()
                    yield (channel.decode()[skip : -len("}:bell")], int(data or 0))
            except (ConnectionError, OSError, Moved) as exc:
                log.warning("doorbell subscription lost (%r); resubscribing", exc)
            finally:
                self._route = None
                await bells.close()
            await asyncio.sleep(0.5)

    async def delete_prefix(self) -> None:
        """Delete every key under this store's prefix (tests only)."""
        async for key in self.redis.scan_iter(match=f"{self.prefix}:*", count=1000):
            await self.redis.unlink(key)

    async def close(self) -> None:
        await self._fast.close()
        await self.redis.aclose()
        if self._pool is not None:
            await self._pool.disconnect()


class BellBox:
    """What the subscriptions of one ``doorbells()`` round received, for one reader
    (``_Bells.next``): the ``put_nowait`` a :class:`Subscriber` calls, and one waiter."""

    __slots__ = ("items", "waiter")

    def __init__(self) -> None:
        self.items: deque[tuple[bytes, bytes | None]] = deque()
        self.waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: tuple[bytes, bytes | None]) -> None:
        self.items.append(item)
        self.wake()

    def wake(self) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


class _Bells:
    """The doorbell subscriptions of one ``doorbells()`` round: a :class:`Subscriber` per
    node (one on a single server, one per master on a cluster), channels routed by slot."""

    def __init__(self, store: RedisStore) -> None:
        params = parse_url(store._base_url)
        self._auth = (params.get("username"), params.get("password"))
        self._tls = tls_context(store._base_url)
        self._seed = (params.get("host", "127.0.0.1"), int(params.get("port", 6379)))
        self._fast = store._fast
        self.sharded = False
        self._out = BellBox()
        self._subs: dict[tuple[str, int], Subscriber] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._loop = asyncio.get_running_loop()
        self._failed: asyncio.Future[BaseException] = self._loop.create_future()

    def route(self, channel: bytes) -> None:
        fast = self._fast
        addr = fast.owner_now(channel) if isinstance(fast, ClusterConnection) else self._seed
        sub = self._subs.get(addr)
        if sub is None:
            sub = self._subs[addr] = Subscriber(
                *addr, *self._auth, self.sharded, self._out, self._tls
            )
            task = asyncio.get_running_loop().create_task(sub.run())
            task.add_done_callback(self._ended)
            self._tasks.append(task)
        sub.add(channel)

    def unroute(self, channel: bytes) -> None:
        for sub in self._subs.values():
            sub.remove(channel)

    def _ended(self, task: asyncio.Task[None]) -> None:
        if not self._failed.done() and not task.cancelled():
            self._failed.set_result(task.exception() or ConnectionError("subscription ended"))
            self._out.wake()

    async def next(self) -> tuple[bytes, bytes | None]:
        """The next (channel, data) (data None: subscribed); raises what ended a node's
        subscription (even with bells still queued: they are caught up on anyway)."""
        out = self._out
        while True:
            if self._failed.done():
                raise self._failed.result()
            if out.items:
                # Bells arrive in bursts (one per append, own appends too): take what is
                # already here without waiting.
                return out.items.popleft()
            # One future that a bell or the end of a subscription resolves: a task and
            # ``asyncio.wait`` per wait (as with a Queue) cost more than the bell's use.
            waiter = out.waiter = self._loop.create_future()
            await waiter

    async def close(self) -> None:
        self._out.wake()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


_LAYOUT = [b"t", b"s", b"e", b"d", b"c"]
"""The field order gamestore.lua writes: read by position (the rebuild's hot loop)."""


def _decode_page(page: list[list[Any]]) -> list[RawEvent]:
    """The events of one XRANGE page (``_page_columns``, else entry by entry)."""
    cols = _page_columns(page)
    if cols is not None:
        return cols.rows()
    return [_decode(entry_id, flat) for entry_id, flat in page]


def _page_columns(page: list[list[Any]]) -> RawColumns | None:
    """The events of one XRANGE page, decoded column by column; None if the page does not
    have the layout the script writes (the caller decodes it entry by entry).

    A rebuild decodes thousands of entries: one Python call per entry (``_decode``) was
    most of a load behind a snapshot. Here every step is one C loop over a column (slice,
    ``map``, ``list``), after checking in bulk that every entry has the layout the script
    writes and that the ids are ``<version>-0`` for consecutive versions.
    """
    if not page:
        return RawColumns([], [], [], [], [], [])
    ids, flats = zip(*page, strict=True)
    n = len(flats)
    if set(map(len, flats)) != {10}:
        return None
    cells = list(chain.from_iterable(flats))
    # The field names, all at once: one slice and one comparison, not five.
    if cells[::2] != _LAYOUT * n:
        return None
    # Every id ends in "-0" (one "-0 " per id once each is followed by a space), so the
    # ids are strictly increasing versions; n of them from first to first + n - 1 are
    # exactly those versions.
    if (b" ".join(ids) + b" ").count(b"-0 ") != n:
        return None
    first = int(ids[0][:-2])
    if int(ids[-1][:-2]) != first + n - 1:
        return None
    schemas = cells[3::10]
    return RawColumns(
        list(range(first, first + n)),
        list(map(bytes.decode, cells[1::10])),
        [1] * n if schemas.count(b"1") == n else list(map(int, schemas)),
        list(map(bytes.decode, cells[5::10])),
        list(map(bytes.decode, cells[9::10])),
        cells[7::10],
    )


def _decode(entry_id: bytes, flat: list[bytes]) -> RawEvent:
    if flat[::2] == _LAYOUT:
        t, s, e, d, c = flat[1::2]
    else:  # written by another version of the script: by name
        fields = dict(zip(flat[::2], flat[1::2], strict=True))
        t, s, e, d, c = (fields[k] for k in _LAYOUT)
    return (int(entry_id[: entry_id.index(b"-")]), t.decode(), int(s), e.decode(), c.decode(), d)
