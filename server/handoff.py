"""With ``--workers N``, hand a game's WebSocket to the worker that is that game's home.

The workers accept on one shared socket, so the kernel spreads a game's players over them
at random; every move of a game split over two workers then costs the other one a doorbell,
a catch-up read and a fold of the events it did not decide. So each worker has a home set
of games, and a worker that accepts a WebSocket upgrade for a game homed elsewhere passes
the socket on:

* **Home.** Workers claim slots ``0..N-1`` by ``flock`` on a file each in a rendezvous
  folder the parent made (:data:`RENDEZVOUS`, removed by the parent at exit); the kernel
  frees a dead worker's lock, and its replacement claims the free slot (a worker without
  one retries every second). A slot's worker listens on ``slot-<i>.sock`` there
  (``SOCK_SEQPACKET``). A game's slots are ranked by a stable hash of the game id and the
  slot (highest random weight), and the first live one is its home: a dead slot's games
  move to the next one, and come back when the slot is claimed again.
* **Sender.** Only the first bytes a connection sends are looked at, and only a
  ``GET /api/games/{id}/ws`` request line (the endpoint of ``server.ws``). If the home is
  another worker, reading pauses, the socket's descriptor and the bytes already read go
  there in one message (``SCM_RIGHTS``), and the connection waits for one reply byte. On
  it, this worker forgets the connection (closes its descriptor, which ends nothing: the
  home holds the socket). Anything else (no listener, a full queue, a message too big, the
  home closing without replying, dying, shutting down) and the connection is served here,
  from the bytes it had, as if nothing had happened: reading was paused, so nothing else
  was read, and nothing was written.
* **A home too slow to answer.** A home whose loop is stuck (a long fold, a stalled
  Redis call made blocking, a debugger) would leave the client's handshake waiting with
  it, so the sender waits for the reply at most :data:`TIMEOUT_ENV` seconds
  (:data:`DEFAULT_TIMEOUT`), then withdraws: it sends the home a withdrawal byte, shuts
  its end's reading down and reads once more. The kernel orders that shutdown against the
  home's reply (both under the sender socket's lock): a reply queued before it is read
  then (the home serves the socket), one sent after it fails with ``EPIPE`` and the home,
  reading the withdrawal, lets go of its descriptor (this worker serves it). Counted in
  ``cloister_handoff_timeouts_total`` (and as a fallback or a hand-off, as it ended).
* **Home's side.** The socket is adopted with ``loop.connect_accepted_socket`` and
  uvicorn's own HTTP protocol (same config, server state and app state as a connection it
  accepted: limits, graceful shutdown, peer address from the socket itself), the reply
  byte is sent from its ``connection_made`` and then the bytes read by the sender are fed
  to it. So the sender stops only once the home holds the connection, and the home serves
  only once the sender has been told, before anything was answered: no connection is
  served twice, or dropped while either worker lives. If the reply cannot be sent, the
  home serves the socket only if the sender is gone without withdrawing (its process died
  with the offer open: nobody else holds the socket), else it lets go of it.
* **Shutting down.** A worker shutting down adopts nothing more (the senders serve what it
  had queued) and waits for its own offers' replies (at most the timeout, so uvicorn's
  graceful shutdown waits for them as for any open connection). One the home took is
  forgotten as usual; one it did not take gets ``503`` with ``Retry-After`` and is closed,
  rather than being served by a worker about to stop: the client reconnects, to a worker
  that stays (clients resynchronise on reconnecting).

Measured with the benchmark's 2-worker target (``bench.serve`` runs this supervisor),
interleaved pairs on a loaded machine, medians without and with: swap, 100 matches (9
pairs), 273 and 251 µs of server CPU per move, Redis 48 and 43 µs (fewer catch-up reads);
Illumination, 100 matches (5 pairs), 856 and 726 µs, 595 and 701 moves/s. The swap
benchmark's p50 (command to its reply) rises, 40 to 53 ms, at about the same moves/s: the
reply and the opponent's update now leave the same worker together, where before the
update came later through the other worker's doorbell, a wait outside what p50 measures.

Correctness never depends on it: any worker still serves any game (expected-version
appends, doorbells). ``CLOISTER_HANDOFF=0`` turns it off; one worker, TLS, or a platform
without ``SCM_RIGHTS`` over ``SOCK_SEQPACKET`` (not Linux) never starts it. The counters
are in ``/metrics`` (``cloister_handoff_*``, per worker) and the upgrade response's
``x-cloister-worker`` header says which worker serves a socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import re
import shutil
import socket
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator
from typing import Any, Protocol
from urllib.parse import unquote

import uvicorn
from uvicorn.supervisors import multiprocess

__all__ = [
    "ENABLED",
    "RENDEZVOUS",
    "STATS",
    "HandoffServer",
    "home_order",
    "request_game",
    "supervise",
    "supported",
]

RENDEZVOUS = "CLOISTER_HANDOFF_DIR"
"""The environment variable naming the parent's rendezvous folder (set by :func:`supervise`)."""

ENABLED = "CLOISTER_HANDOFF"
"""``0`` (or ``off``, ``false``, ``no``) turns hand-off off."""

MAX_BYTES = 256 * 1024
"""The most first bytes passed on (asyncio reads at most this much at once)."""

CLAIM_RETRY = 1.0
"""Seconds between two tries of a worker without a slot to claim one."""

TIMEOUT_ENV = "CLOISTER_HANDOFF_TIMEOUT"
"""The environment variable overriding :data:`DEFAULT_TIMEOUT` (seconds, > 0)."""

DEFAULT_TIMEOUT = 1.0
"""Seconds a sender waits for the home's reply before serving the socket itself. A live
home answers within one turn of its loop (offer to reply: median 0.4 ms, worst 5 ms of 40,
two servers of one process on the loaded 2-core machine), so a second only fires for a
home that is stuck, and a fallback costs only the
cross-worker catch-ups hand-off saves, never correctness. It is also what a client's
handshake can wait in the worst case, and what a sender's graceful shutdown waits for
its offers: kept far below clients' handshake timeouts (10 s in ``websockets``)."""

REPLY = b"k"
"""The home's reply: it holds the socket and serves it."""

WITHDRAWN = b"n"
"""The sender's withdrawal after its timeout: it serves the socket (if it had no reply)."""

UNAVAILABLE = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"retry-after: 1\r\nconnection: close\r\ncontent-length: 32\r\n\r\n"
    b"the server is restarting: retry\n"
)
"""A shutting-down sender's answer to an upgrade its home did not take (the request was
not read further, so nothing else was answered): the client retries on another worker."""

STATS: dict[str, int] = {"sent": 0, "adopted": 0, "fallbacks": 0, "timeouts": 0, "slot": -1}
"""This process's counters, for ``/metrics``: sockets handed to another worker, adopted
from one, hand-offs tried that ended here, hand-offs whose reply did not come in time
(each also counted as sent or as a fallback); and the slot held (-1: none)."""

log = logging.getLogger("cloister.handoff")

_REQUEST = re.compile(rb"GET /api/games/([^/?#\s]+)/ws(?:[?#]\S*)? HTTP/1\.[01]\r\n")


def supported() -> bool:
    return sys.platform.startswith("linux") and hasattr(socket, "send_fds")


def enabled() -> bool:
    return os.environ.get(ENABLED, "1").strip().lower() not in ("0", "off", "false", "no")


def request_game(data: bytes) -> str | None:
    """The game id of a WebSocket endpoint's request line at the start of ``data``."""
    match = _REQUEST.match(data)
    if match is None:
        return None
    try:
        return unquote(match.group(1).decode("ascii"), errors="strict")
    except UnicodeError:
        return None


def home_order(game_id: str, slots: int) -> list[int]:
    """The slots in the order a game prefers them (rendezvous hashing: the same in every
    process, and a dead slot's games spread over the others)."""
    key = game_id.encode()
    return sorted(range(slots), key=lambda s: zlib.crc32(key, s * 0x9E3779B1 & 0xFFFFFFFF))[::-1]


def timeout() -> float:
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    try:
        value = float(raw) if raw else DEFAULT_TIMEOUT
    except ValueError:
        value = DEFAULT_TIMEOUT
    return value if value > 0 else DEFAULT_TIMEOUT


def _slot_path(folder: str, slot: int) -> str:
    return os.path.join(folder, f"slot-{slot}.sock")


class Offering(Protocol):
    """The connection a hand-off is offered for (the interceptor protocol)."""

    transport: asyncio.Transport

    def handoff_settled(self, sent: bool) -> None:
        """The home has the socket (``sent``), or this worker keeps it."""


def withdraw(conn: socket.socket) -> bool | None:
    """The sender's end of an offer whose reply is late: whether the home has the socket
    after all (True), this worker keeps it (False), or it could not withdraw (None: the
    home serves it once it reads its message, seeing this end closed, not a withdrawal;
    the caller must then close its copy)."""
    try:
        conn.send(WITHDRAWN, socket.MSG_NOSIGNAL)
    except OSError as error:
        if error.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN):
            return None  # (no room: the home is alive but has not read its message)
        # the home's end is closed: it has decided, and its reply, if any, is queued here
    with contextlib.suppress(OSError):
        # the decision: a reply the home queued before this is read below; one it sends
        # after fails, and it reads the withdrawal (both ordered by this socket's lock)
        conn.shutdown(socket.SHUT_RD)
    try:
        return conn.recv(1) == REPLY
    except OSError:
        return False


def claim(conn: socket.socket) -> bool:
    """The home's end of an offer: whether it serves the socket (its reply was sent, or the
    sender is gone without withdrawing, so nobody else holds the socket)."""
    try:
        if conn.send(REPLY, socket.MSG_NOSIGNAL) == 1:
            return True
    except OSError:
        pass
    try:
        return conn.recv(1) == b""  # the end, not a withdrawal (nor nothing yet)
    except OSError:
        return False


class Node:
    """One worker's end of the hand-off: its slot (if it holds one), its listener and the
    protocol factory adopted sockets are given."""

    def __init__(
        self,
        folder: str,
        slots: int,
        factory: Callable[[], asyncio.Protocol],
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.folder = folder
        self.slots = slots
        self.factory = factory
        self.loop = loop
        self.slot: int | None = None
        self.lock_fd: int | None = None
        self.listener: socket.socket | None = None
        self.retry: asyncio.TimerHandle | None = None
        self.timeout = timeout()
        self.waiting: dict[socket.socket, asyncio.TimerHandle] = {}
        """Hand-offs sent, their reply awaited (until their timer)."""
        self.incoming: set[socket.socket] = set()
        """Hand-offs accepted, their message not yet read."""
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    # -- the slot and the listener ---------------------------------------------------

    def claim(self) -> None:
        self.retry = None
        if self.closed:
            return
        for slot in range(self.slots):
            path = os.path.join(self.folder, f"slot-{slot}.lock")
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:
                return  # the folder is gone: the parent is stopping
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            try:
                self.listener = self._listen(_slot_path(self.folder, slot))
            except OSError:
                os.close(fd)
                return
            self.slot, self.lock_fd = slot, fd
            STATS["slot"] = slot
            log.info("worker %d is hand-off slot %d", os.getpid(), slot)
            return
        self.retry = self.loop.call_later(CLAIM_RETRY, self.claim)

    def _listen(self, path: str) -> socket.socket:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a dead holder's (we hold the slot's lock)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            sock.bind(path)
            sock.listen(128)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        self.loop.add_reader(sock.fileno(), self._accept, sock)
        return sock

    def close(self) -> None:
        """Stop adopting (the server is shutting down): queued hand-offs get no reply, so
        their senders serve them; this worker's own offers still get theirs (or time out)."""
        self.closed = True
        if self.retry is not None:
            self.retry.cancel()
        if self.listener is not None:
            self.loop.remove_reader(self.listener.fileno())
            if self.slot is not None:
                with contextlib.suppress(OSError):
                    os.unlink(_slot_path(self.folder, self.slot))
            self.listener.close()
            self.listener = None
        for conn in list(self.incoming):
            self.incoming.discard(conn)
            self.loop.remove_reader(conn.fileno())
            conn.close()
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None
        STATS["slot"] = -1

    # -- sending ---------------------------------------------------------------------

    def offer(self, protocol: Offering, data: bytes) -> bool:
        """Try to hand the connection on; False: serve it here (nothing was done to it).
        True: ``protocol.handoff_settled`` is called once it is decided."""
        game = request_game(data)
        if game is None or len(data) > MAX_BYTES or self.closed:
            return False
        transport = protocol.transport
        sock = transport.get_extra_info("socket")
        if sock is None:
            return False
        for slot in home_order(game, self.slots):
            if slot == self.slot:
                return False
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            conn.setblocking(False)
            try:
                conn.connect(_slot_path(self.folder, slot))
                socket.send_fds(conn, [data], [sock.fileno()])
            except OSError:
                # no listener there (dead, restarting, not claimed) or its queue is full
                conn.close()
                continue
            transport.pause_reading()
            self.waiting[conn] = self.loop.call_later(
                self.timeout, self._late, conn, protocol, slot
            )
            self.loop.add_reader(conn.fileno(), self._replied, conn, protocol)
            return True
        return False

    def _replied(self, conn: socket.socket, protocol: Offering) -> None:
        try:
            reply = conn.recv(1)
        except BlockingIOError:
            return
        except OSError:
            reply = b""
        self._settle(conn, protocol, reply == REPLY)

    def _late(self, conn: socket.socket, protocol: Offering, slot: int) -> None:
        STATS["timeouts"] += 1
        sent = withdraw(conn)
        log.warning(
            "hand-off slot %d did not answer in %.1f s: %s",
            slot,
            self.timeout,
            "served here" if sent is False else "left to it",
        )
        self._settle(conn, protocol, sent is not False)

    def _settle(self, conn: socket.socket, protocol: Offering, sent: bool) -> None:
        self.waiting.pop(conn).cancel()
        self.loop.remove_reader(conn.fileno())
        conn.close()
        STATS["sent" if sent else "fallbacks"] += 1
        protocol.handoff_settled(sent)

    # -- adopting --------------------------------------------------------------------

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            conn.setblocking(False)
            self.incoming.add(conn)
            self.loop.add_reader(conn.fileno(), self._receive, conn)

    def _receive(self, conn: socket.socket) -> None:
        try:
            data, fds, flags, _ = socket.recv_fds(conn, MAX_BYTES, 1)
        except BlockingIOError:
            return
        except OSError:
            data, fds, flags = b"", [], 0
        self.incoming.discard(conn)
        self.loop.remove_reader(conn.fileno())
        if len(fds) != 1 or not data or flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
            for fd in fds:
                os.close(fd)
            conn.close()  # no reply: the sender serves it
            return
        try:
            sock = socket.socket(fileno=fds[0])
        except OSError:
            os.close(fds[0])
            conn.close()
            return
        self._adopt(conn, sock, data)

    def _adopt(self, conn: socket.socket, sock: socket.socket, data: bytes) -> None:
        protocol = self.factory()
        made = protocol.connection_made
        told = False

        def connection_made(transport: asyncio.Transport) -> None:
            # Before the transport reads anything (its reader is added after this call):
            # tell the sender, then give the protocol what the sender had read.
            nonlocal told
            try:
                made(transport)
            except BaseException:
                conn.close()  # no reply: the sender serves it
                transport.abort()
                raise
            # shutting down meanwhile: no reply, the sender serves it (or, if it is gone,
            # nobody: a worker stopping does not take on a socket uvicorn never stops)
            told = not self.closed and claim(conn)
            conn.close()
            if not told:
                # the sender serves it (it withdrew, or saw no reply): let go of our descriptor
                transport.abort()
                return
            STATS["adopted"] += 1
            protocol.data_received(data)

        protocol.connection_made = connection_made  # type: ignore[method-assign,assignment]
        sock.setblocking(False)
        task = self.loop.create_task(self.loop.connect_accepted_socket(lambda: protocol, sock))
        self.tasks.add(task)

        def done(task: asyncio.Task[Any]) -> None:
            self.tasks.discard(task)
            if (task.cancelled() or task.exception() is not None) and not told:
                conn.close()  # no reply: the sender serves it
                sock.close()

        task.add_done_callback(done)


def _interceptor(base: type[asyncio.Protocol], node: Node) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's HTTP protocol) looking at a connection's first bytes for a
    socket to hand on."""

    class Handoff(base):  # type: ignore[valid-type,misc]
        handoff_seen = False
        handoff_data: bytes | None = None
        """The first bytes, while an offer is pending."""
        handoff_stopping = False

        def data_received(self, data: bytes) -> None:
            if self.handoff_seen:
                base.data_received(self, data)
                return
            self.handoff_seen = True
            if node.offer(self, data):
                self.handoff_data = data
            else:
                base.data_received(self, data)

        def handoff_settled(self, sent: bool) -> None:
            data, self.handoff_data = self.handoff_data, None
            transport = self.transport
            if transport.is_closing():
                return
            if sent:
                transport.abort()  # only our descriptor: the home holds the socket
            elif self.handoff_stopping or node.closed:
                # this worker is stopping: not served here (a socket upgraded now would
                # miss uvicorn's shutdown), but answered, so the client retries elsewhere
                transport.write(UNAVAILABLE)
                transport.close()
            elif data is not None:
                transport.resume_reading()
                base.data_received(self, data)

        def shutdown(self) -> None:
            if self.handoff_data is not None:
                # an offer pending: keep the socket (uvicorn waits for the connection)
                # until the home replies or the timeout, then as handoff_settled says
                self.handoff_stopping = True
                return
            base.shutdown(self)  # type: ignore[attr-defined]

    Handoff.__name__ = Handoff.__qualname__ = f"Handoff{base.__name__}"
    return Handoff


class HandoffServer(uvicorn.Server):
    """A worker's uvicorn server: as uvicorn's, with the hand-off started once it serves
    and stopped first when it shuts down."""

    handoff: Node | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        config = self.config
        folder = os.environ.get(RENDEZVOUS)
        if folder is None or config.ssl is not None or config.workers < 2:
            await super().startup(sockets)
            return
        base = config.http_protocol_class

        def factory() -> asyncio.Protocol:
            # uvicorn's own protocol, as its create_protocol builds it (not the
            # interceptor: an adopted socket is not passed on again)
            return base(  # type: ignore[call-arg]
                config=config, server_state=self.server_state, app_state=self.lifespan.state
            )

        node = Node(folder, config.workers, factory, asyncio.get_running_loop())
        config.http_protocol_class = _interceptor(base, node)
        await super().startup(sockets)
        if self.started:
            self.handoff = node
            node.claim()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.handoff is not None:
            self.handoff.close()
            self.handoff = None
        await super().shutdown(sockets)


class WorkerProcess(multiprocess.Process):
    """uvicorn's worker process, running a :class:`HandoffServer`."""

    @property
    def server(self) -> uvicorn.Server:
        if self._server is None:
            self._server = HandoffServer(config=self.config)
        return self._server


@contextlib.contextmanager
def _rendezvous() -> Iterator[str | None]:
    if not (supported() and enabled()):
        yield None
        return
    folder = tempfile.mkdtemp(prefix="cloister-workers-")
    previous = os.environ.get(RENDEZVOUS)
    os.environ[RENDEZVOUS] = folder  # spawned workers inherit it
    try:
        yield folder
    finally:
        if previous is None:
            os.environ.pop(RENDEZVOUS, None)
        else:
            os.environ[RENDEZVOUS] = previous
        shutil.rmtree(folder, ignore_errors=True)


def supervise(config: uvicorn.Config, sockets: list[socket.socket]) -> None:
    """Run ``config.workers`` workers on ``sockets`` (uvicorn's supervisor: a dead worker is
    replaced), with hand-off between them where it is supported and not turned off."""
    with _rendezvous() as folder:
        if folder is None or not hasattr(multiprocess, "Process"):
            multiprocess.Multiprocess(config, sockets=sockets).run()
            return
        # uvicorn's supervisor makes its workers (at start, on a death, on SIGHUP or
        # SIGTTIN) from this module attribute; ours run a HandoffServer.
        original = multiprocess.Process
        multiprocess.Process = WorkerProcess  # type: ignore[misc]
        try:
            multiprocess.Multiprocess(config, sockets=sockets).run()
        finally:
            multiprocess.Process = original  # type: ignore[misc]
