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
* **Home's side.** The socket is adopted with ``loop.connect_accepted_socket`` and
  uvicorn's own HTTP protocol (same config, server state and app state as a connection it
  accepted: limits, graceful shutdown, peer address from the socket itself), the reply
  byte is sent from its ``connection_made`` and then the bytes read by the sender are fed
  to it. So the sender stops only once the home holds the connection, and the home serves
  only once the sender has been told, before anything was answered: no connection is
  served twice, or dropped while either worker lives.

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
from typing import Any
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

STATS: dict[str, int] = {"sent": 0, "adopted": 0, "fallbacks": 0, "slot": -1}
"""This process's counters, for ``/metrics``: sockets handed to another worker, adopted
from one, hand-offs tried that ended here; and the slot held (-1: none)."""

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


def _slot_path(folder: str, slot: int) -> str:
    return os.path.join(folder, f"slot-{slot}.sock")


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
        self.waiting: set[socket.socket] = set()
        """Hand-offs sent, their reply awaited."""
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
        their senders serve them."""
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
            self._drop_reader(conn, self.incoming)
            conn.close()
        # (hand-offs this worker sent still get their reply: the loop runs on)
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None
        STATS["slot"] = -1

    # -- sending ---------------------------------------------------------------------

    def offer(self, transport: asyncio.Transport, data: bytes, resume: Callable[[], None]) -> bool:
        """Try to hand the connection on; False: serve it here (nothing was done to it)."""
        game = request_game(data)
        if game is None or len(data) > MAX_BYTES or self.closed:
            return False
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
            self.waiting.add(conn)
            self.loop.add_reader(conn.fileno(), self._replied, conn, transport, resume)
            return True
        return False

    def _replied(
        self, conn: socket.socket, transport: asyncio.Transport, resume: Callable[[], None]
    ) -> None:
        try:
            reply = conn.recv(1)
        except BlockingIOError:
            return
        except OSError:
            reply = b""
        self._drop_reader(conn, self.waiting)
        conn.close()
        if transport.is_closing():
            return  # closed here meanwhile (shutdown): nothing to serve
        if reply == b"k":
            STATS["sent"] += 1
            transport.abort()  # only our descriptor: the home holds the socket
            return
        STATS["fallbacks"] += 1
        transport.resume_reading()
        resume()

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
        self._drop_reader(conn, self.incoming)
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

    def _drop_reader(self, conn: socket.socket, where: set[socket.socket]) -> None:
        if conn in where:
            where.discard(conn)
            self.loop.remove_reader(conn.fileno())

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
            try:
                told = conn.send(b"k") == 1
            except OSError:
                told = False
            conn.close()
            if not told:
                # the sender will serve it (it saw no reply): let go of our descriptor
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

        def data_received(self, data: bytes) -> None:
            if self.handoff_seen:
                base.data_received(self, data)
                return
            self.handoff_seen = True
            if not node.offer(self.transport, data, lambda: base.data_received(self, data)):
                base.data_received(self, data)

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
