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
import math
import os
import socket
import ssl
import urllib.parse
from collections import deque
from typing import Any, Protocol

import hiredis
from redis.asyncio.connection import parse_url
from redis.crc import key_slot

__all__ = [
    "ClusterConnection",
    "Moved",
    "PackedHead",
    "RespConnection",
    "RespError",
    "Subscriber",
    "pack_head",
    "pack_with",
]


class RespError(Exception):
    """An error reply from Redis (``-ERR ...``)."""


CONNECT_TIMEOUT = 3.0
"""Seconds to open a connection (TCP, TLS and AUTH) before the call fails."""
COMMAND_TIMEOUT_RANGE = (0.05, 600.0)


def command_timeout(raw: str | None) -> float:
    """``CLOISTER_REDIS_TIMEOUT``'s text as seconds (5 when unset or empty); ValueError
    naming the variable and the range for anything else, so a typo stops the process at
    start-up instead of giving every command a timeout nobody meant."""
    if not raw:
        return 5.0
    low, high = COMMAND_TIMEOUT_RANGE
    why = f"CLOISTER_REDIS_TIMEOUT must be a number of seconds from {low:g} to {high:g}"
    why += f", not {raw!r}"
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(why) from None
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(why)
    return value


COMMAND_TIMEOUT = command_timeout(os.environ.get("CLOISTER_REDIS_TIMEOUT"))
"""Seconds a command waits for its reply before the caller gets ``TimeoutError``: a Redis
that stalls is an answer ("unavailable") after this, never a frozen game. (Mostly a test
hook: tests/test_outage.py's server waits out a paused Redis in less.)"""


def tls_context(url: str) -> ssl.SSLContext | None:
    """The TLS context a ``rediss://`` URL asks for (None for ``redis://``).

    Query parameters as redis-py reads them: ``ssl_ca_certs`` (a CA file to trust, e.g. a
    self-signed server's certificate), ``ssl_cert_reqs=none`` (no verification at all:
    tests only), ``ssl_check_hostname=false``, ``ssl_certfile``/``ssl_keyfile`` (a client
    certificate)."""
    parts = urllib.parse.urlsplit(url)
    if not parts.scheme.startswith("rediss"):
        return None
    query = dict(urllib.parse.parse_qsl(parts.query))
    ctx = ssl.create_default_context(cafile=query.get("ssl_ca_certs"))
    if query.get("ssl_check_hostname", "").lower() in ("false", "0", "no"):
        ctx.check_hostname = False
    if query.get("ssl_cert_reqs", "").lower() in ("none", "cert_none"):
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    if query.get("ssl_certfile"):
        ctx.load_cert_chain(query["ssl_certfile"], query.get("ssl_keyfile"))
    return ctx


def keepalive(writer: asyncio.StreamWriter | asyncio.BaseTransport) -> None:
    """TCP keepalive on the connection under ``writer``: a peer that vanished (a dead host,
    a dropped NAT entry) is noticed in about a minute instead of never."""
    sock = writer.get_extra_info("socket")
    if sock is None:
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", 30), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3)):
            if hasattr(socket, name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)


async def open_stream(
    host: str, port: int, tls: ssl.SSLContext | None, timeout: float = CONNECT_TIMEOUT
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP (or TLS) connection with keepalive, or ``TimeoutError``/``OSError``."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, ssl=tls, server_hostname=host if tls else None),
        timeout,
    )
    keepalive(writer)
    return reader, writer


class RespConnection:
    def __init__(self, url: str, timeout: float = COMMAND_TIMEOUT) -> None:
        params = parse_url(url)
        self._host = params.get("host", "127.0.0.1")
        self._port = int(params.get("port", 6379))
        self._db = int(params.get("db", 0) or 0)
        self._username = params.get("username")
        self._password = params.get("password")
        self._tls = tls_context(url)
        self.timeout = timeout
        self._init()

    @classmethod
    def to(
        cls,
        host: str,
        port: int,
        username: str | None,
        password: str | None,
        tls: ssl.SSLContext | None = None,
        timeout: float = COMMAND_TIMEOUT,
    ) -> RespConnection:
        """A connection to one node (of a cluster: database 0), with these credentials."""
        self = cls.__new__(cls)
        self._host, self._port, self._db = host, port, 0
        self._username, self._password = username, password
        self._tls, self.timeout = tls, timeout
        self._init()
        return self

    def _init(self) -> None:
        self._writer: asyncio.Transport | None = None
        """The connection's transport (its ``_Replies`` protocol parses what it receives)."""
        self._pending: deque[tuple[asyncio.Future[Any], float, Any]] = deque()
        """Per command sent, in order: (its reply's future, its deadline, its name)."""
        self._outgoing: list[bytes] = []
        self._flush_scheduled = False
        self._connecting: asyncio.Lock | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sweeper: asyncio.TimerHandle | None = None

    async def _connect(self) -> None:
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._writer is not None:
                return
            self._loop = loop = asyncio.get_running_loop()
            transport, _ = await asyncio.wait_for(
                loop.create_connection(
                    lambda: _Replies(self),
                    self._host,
                    self._port,
                    ssl=self._tls,
                    server_hostname=self._host if self._tls else None,
                ),
                CONNECT_TIMEOUT,
            )
            keepalive(transport)
            self._writer = transport
            if self._password:
                auth = [self._username, self._password] if self._username else [self._password]
                await self.execute("AUTH", *auth)
            if self._db:
                await self.execute("SELECT", self._db)

    def _drop(self, error: Exception) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
        self._outgoing.clear()
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        while self._pending:
            fut = self._pending.popleft()[0]
            if not fut.done():
                fut.set_exception(error)

    def _sweep(self) -> None:
        """Fail every command whose deadline has passed with ``TimeoutError``, then wake up
        again at the next deadline.

        One timer per connection instead of ``asyncio.wait_for`` per command (a timer, a
        second future and callbacks each: a third of the hot path's cost here). Replies
        come in order and every command has the same timeout, so the deadlines are in
        order too: the first one not yet passed is the next to watch. A timed-out entry
        stays queued until its late reply arrives, which is read and dropped."""
        self._sweeper = None
        loop = self._loop
        if loop is None:
            return
        now = loop.time()
        for fut, deadline, name in self._pending:
            if deadline > now:
                self._sweeper = loop.call_at(deadline, self._sweep)
                return
            if not fut.done():
                fut.set_exception(
                    TimeoutError(f"Redis did not answer {_name((name,))} within {self.timeout:g} s")
                )

    def _flush(self) -> None:
        self._flush_scheduled = False
        if self._writer is not None and self._outgoing:
            self._writer.write(b"".join(self._outgoing))
            self._outgoing.clear()

    async def execute(self, *args: Any) -> Any:
        """Send one command and return its reply (bytes, int, list, None).

        Raises ``ConnectionError`` (connection lost or refused: nothing or everything of an
        idempotent command may have run, resend it) or ``TimeoutError`` (no reply within
        ``timeout`` seconds: Redis stalls; the reply, if it ever comes, is read and dropped,
        so the connection stays in step)."""
        if self._writer is None:
            await self._open()
        return await self._send(hiredis.pack_command(args), args[0])

    async def execute_packed(self, head: PackedHead, *args: Any) -> Any:
        """``execute(*head_args, *args)`` where ``head = pack_head(*head_args)``: a prefix
        that many commands share (the append script's name and a game's keys) is packed
        once, not once per command (hiredis formats every argument with a ``sprintf``)."""
        if self._writer is None:
            await self._open()
        return await self.send_packed(head, args)

    def send_packed(self, head: PackedHead, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        """``execute_packed`` without its coroutine, on an open connection (``connected``):
        the command is queued now, its reply is the future's. The append's one command a
        move: the store awaits the future itself, two coroutines fewer."""
        # ``_send``'s body, here.
        loop = self._loop or asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        deadline = loop.time() + self.timeout
        self._pending.append((fut, deadline, head[2]))
        if self._sweeper is None:
            self._sweeper = loop.call_at(deadline, self._sweep)
        self._outgoing.append(pack_with(head, args))
        if not self._flush_scheduled:
            self._flush_scheduled = True
            loop.call_soon(self._flush)
        return fut

    @property
    def connected(self) -> bool:
        """Whether a command can be queued now (``send_packed``) without connecting first."""
        return self._writer is not None

    async def _open(self) -> None:
        try:
            await asyncio.wait_for(self._connect(), CONNECT_TIMEOUT)
        except OSError as exc:  # refused, unreachable, TLS refused
            if isinstance(exc, ConnectionError):
                raise
            raise ConnectionError(f"cannot reach Redis: {exc}") from exc
        if self._writer is None:  # AUTH/SELECT failed and dropped it
            raise ConnectionError("Redis refused the connection")

    async def _send(self, data: bytes, name: Any) -> Any:
        loop = self._loop or asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        deadline = loop.time() + self.timeout
        self._pending.append((fut, deadline, name))
        if self._sweeper is None:
            self._sweeper = loop.call_at(deadline, self._sweep)
        self._outgoing.append(data)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            loop.call_soon(self._flush)
        return await fut

    async def close(self) -> None:
        open_ = self._writer is not None
        self._drop(ConnectionError("connection closed"))
        if open_:
            await asyncio.sleep(0)  # the transport closes its socket on the loop's next turn


PackedHead = tuple[int, bytes, Any]
"""The first arguments of commands, packed once (``pack_head``): how many, their bulk
strings, the command's name."""


def pack_head(*args: Any) -> PackedHead:
    """``args`` packed for :meth:`RespConnection.execute_packed`."""
    packed = hiredis.pack_command(args)
    return len(args), packed[packed.index(b"\n") + 1 :], args[0]


def pack_with(head: PackedHead, args: tuple[Any, ...]) -> bytes:
    """The command ``head``'s arguments then ``args``, packed: the same bytes as packing
    them all at once (the array's length, then each argument as a bulk string; the tail's
    own length line is dropped)."""
    count, packed, _ = head
    tail = hiredis.pack_command(args)
    return b"*%d\r\n%b%b" % (count + len(args), packed, tail[tail.index(b"\n") + 1 :])


class _Replies(asyncio.Protocol):
    """What a :class:`RespConnection` receives, fed to hiredis as the transport reads it.

    A protocol, not a ``StreamReader`` read loop: a stream buffered each chunk in a
    bytearray and copied it out again before hiredis copied it a third time, and woke a
    task per chunk. A load reads the whole stream (680 KB for a long Road game), where that
    was a tenth of the load's instructions (callgrind)."""

    def __init__(self, conn: RespConnection) -> None:
        self._conn = conn
        self._parser = hiredis.Reader(replyError=RespError)
        self._transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        conn = self._conn
        if conn._writer is not self._transport:  # dropped: what still comes is nobody's
            return
        parser, pending = self._parser, conn._pending
        try:
            parser.feed(data)
            while (reply := parser.gets()) is not False:
                fut = pending.popleft()[0]
                if not fut.done():  # a cancelled or timed-out caller's reply is dropped
                    if isinstance(reply, RespError):
                        fut.set_exception(reply)
                    else:
                        fut.set_result(reply)
        except (hiredis.ProtocolError, IndexError) as exc:  # garbage, or a reply nobody asked for
            conn._drop(ConnectionError(f"Redis connection lost: {exc!r}"))

    def connection_lost(self, exc: Exception | None) -> None:
        if self._conn._writer is self._transport:
            why = f"Redis connection lost: {exc}" if exc else "Redis closed the connection"
            self._conn._drop(ConnectionError(why))


def _name(args: tuple[Any, ...]) -> str:
    head = args[0] if args else b"?"
    return head.decode() if isinstance(head, bytes) else str(head)


def first_key(args: tuple[Any, ...]) -> Any:
    """The key a command is routed by: EVAL/EVALSHA's first key, else its first argument."""
    name = args[0].upper() if isinstance(args[0], str) else args[0].decode().upper()
    if name in ("EVAL", "EVALSHA"):
        return args[3] if int(args[2]) > 0 else None
    return args[1] if len(args) > 1 else None


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class ClusterConnection:
    """The hot-path connection for a Redis Cluster: one :class:`RespConnection` per master,
    each command sent to the master of its key's slot.

    The slot map comes from ``CLUSTER SLOTS`` (on the seed node, then any known node). A
    ``MOVED`` reply updates the slot, refreshes the map and resends to the new owner; an
    ``ASK`` reply (a slot being migrated) sends ``ASKING`` and the command back to back on
    the target's connection (one write, so nothing comes between them); ``TRYAGAIN`` and
    ``CLUSTERDOWN`` are retried after a short pause. All of these are refusals, not partial
    executions, so resending is safe for any command. A lost connection fails the call
    (``ConnectionError``, as on one node: the caller retries idempotent commands) and
    refreshes the map, since it may mean a failover.
    """

    MAX_REDIRECTS = 8
    RETRY_SECONDS = 2.0
    """How long TRYAGAIN (a slot mid-migration) and CLUSTERDOWN are retried for."""

    def __init__(self, url: str) -> None:
        params = parse_url(url)
        self._seed = (params.get("host", "127.0.0.1"), int(params.get("port", 6379)))
        self._username = params.get("username")
        self._password = params.get("password")
        self._tls = tls_context(url)
        self._slots: list[tuple[str, int] | None] = [None] * 16384
        self._nodes: dict[tuple[str, int], RespConnection] = {}
        self._refreshing: asyncio.Task[None] | None = None

    def node(self, addr: tuple[str, int]) -> RespConnection:
        conn = self._nodes.get(addr)
        if conn is None:
            conn = self._nodes[addr] = RespConnection.to(
                *addr, self._username, self._password, self._tls
            )
        return conn

    async def refresh(self) -> None:
        """Reload the slot map (one refresh at a time; callers share a running one)."""
        await asyncio.shield(self._refresh_soon())

    async def _refresh(self) -> None:
        errors = []
        for addr in [self._seed, *(a for a in self._nodes if a != self._seed)]:
            try:
                reply = await self.node(addr).execute("CLUSTER", "SLOTS")
            except (ConnectionError, OSError, RespError) as exc:
                errors.append(f"{addr[0]}:{addr[1]}: {exc}")
                continue
            slots: list[tuple[str, int] | None] = [None] * 16384
            for low, high, master, *_replicas in reply:
                host = _text(master[0]) or addr[0]  # "" means the node that answered
                owner = (host, int(master[1]))
                for slot in range(int(low), int(high) + 1):
                    slots[slot] = owner
            self._slots = slots
            return
        raise ConnectionError("no cluster node answered CLUSTER SLOTS: " + "; ".join(errors))

    async def owner(self, key: Any) -> tuple[str, int]:
        """The master that serves ``key`` (by the map, loaded on first use)."""
        slot = key_slot(key if isinstance(key, bytes) else str(key).encode())
        addr = self._slots[slot]
        if addr is None:
            await self.refresh()
            addr = self._slots[slot]
            if addr is None:
                raise ConnectionError(f"the cluster serves no node for slot {slot}")
        return addr

    def owner_now(self, key: Any) -> tuple[str, int]:
        """As ``owner`` without waiting: by the map as loaded (the seed node if empty)."""
        slot = key_slot(key if isinstance(key, bytes) else str(key).encode())
        return self._slots[slot] or self._seed

    async def execute(self, *args: Any) -> Any:
        key = first_key(args)
        addr = await self.owner(key) if key is not None else self._seed
        asking = False
        redirects, waited = 0, 0.0
        while redirects < self.MAX_REDIRECTS:
            conn = self.node(addr)
            try:
                if asking:
                    _, reply = await asyncio.gather(conn.execute("ASKING"), conn.execute(*args))
                    return reply
                return await conn.execute(*args)
            except RespError as exc:
                kind, _, rest = str(exc).partition(" ")
                if kind in ("MOVED", "ASK"):
                    slot, target = rest.split()
                    host, _, port = target.rpartition(":")
                    addr = (host or addr[0], int(port))
                    asking = kind == "ASK"
                    redirects += 1
                    if kind == "MOVED":
                        self._slots[int(slot)] = addr
                        self._refresh_soon()
                    continue
                if kind in ("TRYAGAIN", "CLUSTERDOWN") and waited < self.RETRY_SECONDS:
                    pause = min(0.05 + waited / 2, 0.5)
                    await asyncio.sleep(pause)
                    waited += pause
                    asking, redirects = False, 0
                    if key is not None:
                        addr = await self.owner(key)
                    continue
                raise
            except ConnectionError:
                self._refresh_soon()  # a failover may have moved the slot
                raise
        raise ConnectionError(f"too many cluster redirects for {_text(args[0])}")

    def _refresh_soon(self) -> asyncio.Task[None]:
        task = self._refreshing
        if task is None or task.done():
            task = self._refreshing = asyncio.get_running_loop().create_task(self._refresh())
            task.add_done_callback(_ignore_failure)
        return task

    async def close(self) -> None:
        task, self._refreshing = self._refreshing, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await task
        for conn in list(self._nodes.values()):
            await conn.close()
        self._nodes.clear()


def _ignore_failure(task: asyncio.Task[None]) -> None:
    """A background refresh that failed is retried by the next caller that needs the map."""
    if not task.cancelled():
        task.exception()


class BellSink(Protocol):
    """Where a :class:`Subscriber` puts what it receives (an ``asyncio.Queue`` will do)."""

    def put_nowait(self, item: tuple[bytes, bytes | None], /) -> None: ...


class Subscriber:
    """One connection subscribed to a changing set of channels on one Redis node.

    ``sharded``: SSUBSCRIBE/SUNSUBSCRIBE (Redis 7, standalone or a cluster master that owns
    the channels' slots), else SUBSCRIBE/UNSUBSCRIBE (Redis 6.2). Each confirmed subscription
    puts ``(channel, None)`` on ``out``, each message ``(channel, data)``. ``run()`` raises
    ``ConnectionError`` when the connection is lost and :class:`Moved` when the server drops
    a channel nobody unsubscribed (its slot moved to another node): the caller resubscribes,
    and catches up, since bells may have been missed meanwhile. No read timeout: a quiet
    subscription is normal.
    """

    def __init__(
        self,
        host: str,
        port: int,
        username: str | None,
        password: str | None,
        sharded: bool,
        out: BellSink,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.addr = (host, port)
        self._tls = tls
        self._auth = [username, password] if username else [password] if password else None
        self._sub, self._unsub = (
            ("SSUBSCRIBE", "SUNSUBSCRIBE")
            if sharded
            else (
                "SUBSCRIBE",
                "UNSUBSCRIBE",
            )
        )
        self._message = b"smessage" if sharded else b"message"
        self._confirm = self._sub.lower().encode()
        self._dropped = self._unsub.lower().encode()
        self._out = out
        self.channels: set[bytes] = set()
        self._writer: asyncio.StreamWriter | None = None

    def add(self, channel: bytes) -> None:
        if channel not in self.channels:
            self.channels.add(channel)
            if self._writer is not None:
                self._writer.write(_pack(self._sub, channel))

    def remove(self, channel: bytes) -> None:
        if channel in self.channels:
            self.channels.discard(channel)
            if self._writer is not None:
                self._writer.write(_pack(self._unsub, channel))

    async def run(self) -> None:
        reader, writer = await open_stream(*self.addr, self._tls)
        parser = hiredis.Reader(replyError=RespError)
        try:
            if self._auth:
                writer.write(_pack("AUTH", *self._auth))
            for channel in self.channels:
                writer.write(_pack(self._sub, channel))
            self._writer = writer
            while True:
                data = await reader.read(1 << 16)
                if not data:
                    raise ConnectionError("Redis closed the subscription")
                parser.feed(data)
                while (reply := parser.gets()) is not False:
                    if isinstance(reply, RespError):
                        raise ConnectionError(f"subscription refused: {reply}")
                    if not isinstance(reply, list):
                        continue  # +OK of AUTH
                    kind = reply[0]
                    if kind == self._message:
                        self._out.put_nowait((reply[1], reply[2]))
                    elif kind == self._confirm:
                        self._out.put_nowait((reply[1], None))
                    elif kind == self._dropped and reply[1] in self.channels:
                        raise Moved(reply[1])
        finally:
            self._writer = None
            writer.close()


def _pack(*args: Any) -> bytes:
    packed: bytes = hiredis.pack_command(args)
    return packed


class Moved(Exception):
    """The node dropped a sharded subscription: the channel's slot moved elsewhere."""
