"""A lean, auto-pipelined Redis connection for the store's hot path.

redis-py costs about 100 µs of Python per command and takes a pooled connection (with its
own timeouts) for each; measured here it was most of a command's server time. Every game's
append goes through this instead: one connection shared by all tasks, each command packed
by hiredis and queued; the queue is flushed once per event-loop tick, so concurrent appends
share one write and their replies arrive together. Replies are matched to callers strictly
in order, which stays correct when a caller is cancelled (its reply is read and dropped, so
the connection never gets "off by one", the failure mode of redis-py issue #2624).

On a lost connection every pending call fails with ``ConnectionError`` and the next call
reconnects. Callers must only retry idempotent commands: the append script is (command id).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Any

import hiredis
from redis.asyncio.connection import parse_url

__all__ = ["RespConnection", "RespError"]


class RespError(Exception):
    """An error reply from Redis (``-ERR ...``)."""


class RespConnection:
    def __init__(self, url: str) -> None:
        params = parse_url(url)
        self._host = params.get("host", "127.0.0.1")
        self._port = int(params.get("port", 6379))
        self._db = int(params.get("db", 0) or 0)
        self._username = params.get("username")
        self._password = params.get("password")
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._pending: deque[asyncio.Future[Any]] = deque()
        self._outgoing: list[bytes] = []
        self._flush_scheduled = False
        self._connecting: asyncio.Lock | None = None

    async def _connect(self) -> None:
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._writer is not None:
                return
            reader, writer = await asyncio.open_connection(self._host, self._port)
            parser = hiredis.Reader(replyError=RespError)
            self._writer = writer
            self._reader_task = asyncio.get_running_loop().create_task(
                self._read_loop(reader, parser)
            )
            if self._password:
                auth = [self._username, self._password] if self._username else [self._password]
                await self.execute("AUTH", *auth)
            if self._db:
                await self.execute("SELECT", self._db)

    async def _read_loop(self, reader: asyncio.StreamReader, parser: Any) -> None:
        error: Exception = ConnectionError("Redis closed the connection")
        try:
            while True:
                data = await reader.read(1 << 16)
                if not data:
                    break
                parser.feed(data)
                while True:
                    reply = parser.gets()
                    if reply is False:
                        break
                    fut = self._pending.popleft()
                    if not fut.done():  # a cancelled caller's reply is dropped
                        if isinstance(reply, RespError):
                            fut.set_exception(reply)
                        else:
                            fut.set_result(reply)
        except (OSError, IndexError) as exc:
            error = ConnectionError(f"Redis connection lost: {exc}")
        finally:
            self._drop(error)

    def _drop(self, error: Exception) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
        self._outgoing.clear()
        while self._pending:
            fut = self._pending.popleft()
            if not fut.done():
                fut.set_exception(error)

    def _flush(self) -> None:
        self._flush_scheduled = False
        if self._writer is not None and self._outgoing:
            self._writer.write(b"".join(self._outgoing))
            self._outgoing.clear()

    async def execute(self, *args: Any) -> Any:
        """Send one command and return its reply (bytes, int, list, None)."""
        if self._writer is None:
            await self._connect()
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append(fut)
        self._outgoing.append(hiredis.pack_command(args))
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)
        return await fut

    async def close(self) -> None:
        task, self._reader_task = self._reader_task, None
        self._drop(ConnectionError("connection closed"))
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def subscribe(url: str, pattern: str) -> Any:
    """Yield (channel, data) for every message published to channels matching ``pattern``,
    and (None, None) once the subscription is confirmed.

    A dedicated connection with no read timeout (a quiet subscription is normal). Bursts
    of messages are parsed from one read; raises ``ConnectionError`` when the connection
    is lost, so the caller can resubscribe and catch up.
    """
    params = parse_url(url)
    reader, writer = await asyncio.open_connection(
        params.get("host", "127.0.0.1"), int(params.get("port", 6379))
    )
    parser = hiredis.Reader(replyError=RespError)
    try:
        if params.get("password"):
            user = params.get("username")
            auth = [user, params["password"]] if user else [params["password"]]
            writer.write(hiredis.pack_command(("AUTH", *auth)))
        writer.write(hiredis.pack_command(("PSUBSCRIBE", pattern)))
        while True:
            data = await reader.read(1 << 16)
            if not data:
                raise ConnectionError("Redis closed the subscription")
            parser.feed(data)
            while (reply := parser.gets()) is not False:
                if isinstance(reply, RespError):
                    raise ConnectionError(f"subscription refused: {reply}")
                if reply[0] == b"pmessage":
                    yield reply[2], reply[3]
                elif reply[0] == b"psubscribe":
                    yield None, None
    finally:
        writer.close()
