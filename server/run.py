"""Run the server under uvicorn with the settings this project measured as best.

* ``ws``: uvicorn's ``websockets-sansio``, the fastest of its WebSocket implementations here
  (the legacy one costs 1.6x the CPU), as :class:`server.transport.CloisterWebSocketProtocol`:
  the same protocol, with received game messages parsed and handed to the endpoint without
  an ASGI event each.
* ``ws_per_message_deflate=False``: our frames are small JSON; deflate costs 1.8x the CPU
  and 2.4x the memory per connection (see the design notes on performance).
* ``ws_max_size`` is ``Settings.max_frame_bytes``: a bigger message is refused from its
  frame header, before its payload is read (close code 1009). It stays above the
  protocol's own limit (``max_message_bytes``), so a message between the two gets a
  structured ``too_large`` error instead of a dropped connection.

* :func:`tune_gc`: the cyclic garbage collector's first generation collects every 50,000
  allocations instead of 700, and what was loaded at start-up is frozen out of its scans.
  A move allocates thousands of short-lived objects (events, views, deltas) that reference
  counting frees anyway; collecting every 700 of them, and promoting survivors into scans of
  every cached game, cost about 40% of the server's CPU per Illumination move (bench/).
  What a young collection would scan is frozen as it starts (:class:`YoungFrozen`), so
  only the rare full collections look at the server's objects.

``workers > 1`` runs that many server processes on one port (uvicorn's supervisor: the
parent binds the socket, every worker accepts on it, a dead worker is replaced). Each worker
is a full node with its own Redis connections, so any worker takes any game through the
multi-node path (expected-version appends, doorbells). Without ``REDIS_URL`` the parent
starts and owns the embedded Redis and hands its URL to the workers.

With ``workers > 1`` a game's WebSockets are also brought onto one worker, its home
(``server.handoff``): the worker that accepted a game socket's upgrade request passes the
socket (its descriptor and the bytes read, over a Unix socket in a folder the parent makes
and removes) to the game's home, which serves it as if it had accepted it. A game split
over two workers costs the other one a doorbell, a read and a fold per move. It is only a
shortcut: if the home is gone, restarting or does not answer (within
``CLOISTER_HANDOFF_TIMEOUT`` seconds, 1 by default), the worker that accepted the
socket serves it. Linux only (elsewhere, and with ``CLOISTER_HANDOFF=0``, sockets stay
where they landed).

Start-up order (``serve``): bind the port, then (embedded Redis only) lock the data folder,
then start Redis (in the app's lifespan, or in the parent of the workers). So a serve that
cannot have its port, or whose folder another server holds, exits having started nothing
and written nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import gc
import logging
import os
import socket
import sys
from collections.abc import Callable
from typing import Any

import attrs
import orjson
import uvicorn
from starlette.applications import Starlette

from .app import create_app
from .config import Settings, clock_watch_seconds
from .embedded import DataFolderLock, EmbeddedRedis, FolderBusy, pid_alive
from .handoff import supervise

__all__ = [
    "LOG_LEVELS",
    "WS_PROTOCOL",
    "ServeError",
    "YoungFrozen",
    "bind",
    "main",
    "serve",
    "tune_gc",
    "uvicorn_config",
    "worker_app",
]

LOG_LEVELS = ("critical", "error", "warning", "info", "debug")

WORKER_SETTINGS = "CLOISTER_WORKER_SETTINGS"
"""The environment variable that carries the parent's settings to each worker (JSON)."""


GC_FIRST_GENERATION = 50_000
"""Allocations between two collections of the youngest generation (CPython's default 700)."""


GC_FULL_GROWTH = 0.25
"""A full collection once the frozen objects grew by this share since the last, by at least
:data:`GC_FULL_FLOOR` objects, and after at least :data:`GC_FULL_AFTER` collections: the
rules CPython itself keeps for its oldest generation (a quarter more objects than the last
full collection left, and 10 x 10 collections of the younger ones in between)."""
GC_FULL_FLOOR = 100_000
GC_FULL_AFTER = 100


class YoungFrozen:
    """A ``gc.callbacks`` entry: the objects made since the last collection are frozen as a
    young collection starts, before it would scan them, and every object, frozen or not, is
    looked at only by an occasional full collection.

    In a server nearly every container that lives until a collection lives on for long (a
    cached game's log, states, views and legal groups): at 100 Illumination duels a young
    collection found about 50,000 to 90,000 objects, freed 1.6% of them, and took 15 to
    240 ms (it follows every reference of every young object into a heap of a few hundred
    MB): 6 to 8% of the server's CPU. (Before, what survived was frozen after the
    collection, so that CPython did not scan it a second time in the middle generation,
    every tenth young collection: that second scan was a pause of 0.2 to 0.5 s, every ten
    thousand moves or so, that freed about 1,000 objects.) Frozen, objects are never scanned
    by the generational collections; reference counting still frees them when they die.
    Cyclic garbage waits for a full collection (unfreeze, collect, freeze), run by the event
    loop under CPython's own rule for its oldest generation
    (:data:`GC_FULL_GROWTH`): it counts all that was added since the last, garbage or not,
    so memory stays bounded by that rule as before. What waits longer than it did is the
    garbage of the first second of its objects' lives: at 100 duels, 1.6% of what the young
    collections looked at (among it a connection closed soon after it opened, about 90
    objects that refer to each other: uvicorn's protocols, the transport, websockets'
    state). The upgrade's HTTP protocol was such garbage too, 2.4 KB a connection (26.8 KB
    per idle connection in the benchmark against 24.4 before), until the WebSocket protocol
    broke its cycle (``server.transport``): 22.1 KB.

    A collection of the oldest generation (CPython's own, every hundred or so, over what is
    not frozen: the few objects made since the last collection; and the full one) is not
    frozen first. Only active in a thread with a running event loop (the server's), which
    runs the full collections: elsewhere collections work as CPython's."""

    def __init__(self) -> None:
        self.base = gc.get_freeze_count()
        """Frozen objects after the last full collection (or at start-up)."""
        self.grown = 0
        """How many tracked objects were added since the last full collection, net: the
        sum, over the collections since, of the young generation's count when each
        started less what it freed (see ``__call__``). CPython lowers that count when any
        tracked object is freed, but not below zero, so objects freed just after a
        collection are not taken off: like CPython's own count for its oldest generation
        (the survivors it moves there, dead or not since), this errs on the side of
        collecting early."""
        self.full = 0
        """Full collections run so far."""
        self.since = 0
        """Collections since the last full one."""
        self._due = False
        self._young = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not the server's thread: nothing would run the full ones
            return
        if phase == "start":
            # CPython's count of the youngest generation: tracked objects made since the
            # last collection less those freed since (any generation's, frozen ones too).
            self._young = gc.get_count()[0]
            if info["generation"] < 2:
                gc.freeze()  # the young generation, before the collection walks it
            return
        if phase != "stop":
            return
        gc.freeze()  # what an oldest-generation collection left
        self.since += 1
        # The growth is counted here, not asked of ``gc.get_freeze_count()``: that walks
        # every frozen object (34 ms for four million), and once ``since`` had passed
        # GC_FULL_AFTER it was asked at every young collection until the heap grew by a
        # quarter, which a server at a steady size never does.
        self.grown += self._young - info["collected"]
        if (
            not self._due
            and self.since >= GC_FULL_AFTER
            and self.grown > max(GC_FULL_FLOOR, self.base * GC_FULL_GROWTH)
        ):
            # Not here: a collection cannot be started from inside another one's callback.
            self._due = True
            loop.call_soon(self.collect)

    def collect(self) -> None:
        """The full collection: every object scanned, cyclic garbage freed, the rest frozen."""
        gc.unfreeze()
        gc.collect()  # its own callback sees this one still due: it schedules no other
        gc.freeze()
        self.base = gc.get_freeze_count()  # one walk, beside a collection that walked all
        self.grown = 0
        self.full += 1
        self.since = 0
        self._due = False


def tune_gc() -> None:
    """Collect cyclic garbage less often: what start-up loaded is frozen, and so is what
    the server makes, as each young collection starts (:class:`YoungFrozen`); only the
    full collections scan it.

    Called once per server process, after the app is built, before it serves: by ``serve``
    and by each worker. Not in ``create_app``: tests build many apps in one process, and
    freezing there would keep each one's garbage for good. Calling it again changes nothing
    more."""
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(GC_FIRST_GENERATION, second, third)
    if not any(isinstance(cb, YoungFrozen) for cb in gc.callbacks):
        gc.callbacks.append(YoungFrozen())


class ServeError(RuntimeError):
    """The server cannot start; the message is one line for a person."""


WS_PROTOCOL = "server.transport:CloisterWebSocketProtocol"
"""uvicorn's ``ws`` option (an import string: workers are spawned and import it)."""


def uvicorn_config(
    settings: Settings,
    host: str,
    port: int,
    workers: int = 1,
    *,
    data_lock: DataFolderLock | None = None,
    **overrides: Any,
) -> uvicorn.Config:
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        # uvicorn's websockets-sansio, with a short way in for messages (server.transport).
        "ws": WS_PROTOCOL,
        "ws_per_message_deflate": False,
        "ws_max_size": settings.max_frame_bytes,
        "lifespan": "on",
        "log_level": "info",
        **overrides,
    }
    if workers > 1:
        # Workers are separate (spawned) processes: they build the app from an import
        # string and read the settings from the environment.
        os.environ[WORKER_SETTINGS] = orjson.dumps(attrs.asdict(settings)).decode()
        return uvicorn.Config("server.run:worker_app", factory=True, workers=workers, **options)
    return uvicorn.Config(create_app(settings, data_lock=data_lock), **options)


def worker_app() -> Starlette:
    """The app of one worker process of ``serve(workers=N)``."""
    app = create_app(Settings(**orjson.loads(os.environ[WORKER_SETTINGS])))
    tune_gc()
    return app


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (SO_REUSEADDR, as uvicorn binds), or
    :class:`ServeError` saying why not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        why = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror
        raise ServeError(
            f"cannot listen on {host}:{port}: {why} (choose another with --port)"
        ) from None
    return sock


def serve(
    settings: Settings,
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    log_level: str = "info",
    on_ready: Callable[[str], None] | None = None,
    **overrides: Any,
) -> None:
    """Bind, lock the data folder (embedded Redis), then run until stopped.

    Raises :class:`ServeError` (port) or ``FolderBusy`` (folder) before starting anything.
    ``on_ready`` gets the URL once the port and the folder are ours.
    """
    logging.basicConfig(
        level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s", force=True
    )
    try:
        sock = bind(host, port)
    except ServeError as exc:
        raise ServeError(f"{exc}{_holder_note(settings, port)}") from None
    url = f"http://{host if ':' not in host else f'[{host}]'}:{sock.getsockname()[1]}/"
    lock = None
    embedded = None
    try:
        if settings.redis_url is None:
            lock = DataFolderLock(settings.data_dir)
            lock.acquire()
            lock.record(url=url, host=host, port=port)
        if on_ready is not None:
            on_ready(url)
        overrides["log_level"] = log_level
        if workers <= 1:
            config = uvicorn_config(settings, host, port, data_lock=lock, **overrides)
            tune_gc()
            uvicorn.Server(config).run(sockets=[sock])
            return
        if lock is not None:
            # The parent owns the folder's Redis (and its lock) for all the workers.
            embedded = EmbeddedRedis(settings.data_dir, lock)
            settings = attrs.evolve(settings, redis_url=embedded.start())
            lock.record(redis=settings.redis_url)
            logging.getLogger("cloister.run").info(
                "embedded Redis on %s, data in %s, shared by %d workers",
                settings.redis_url,
                embedded.data_dir,
                workers,
            )
        sock.set_inheritable(True)  # as uvicorn's own bind_socket, for the workers
        config = uvicorn_config(settings, host, port, workers, **overrides)
        supervise(config, [sock])
    finally:
        sock.close()
        if embedded is not None:
            embedded.stop()
        if lock is not None:
            lock.release()


def _holder_note(settings: Settings, port: int) -> str:
    """When our own folder's server holds the port, say so (read-only: touches nothing)."""
    if settings.redis_url is not None:
        return ""
    holder = DataFolderLock(settings.data_dir).holder()
    pid = holder.get("pid")
    if holder.get("port") == port and isinstance(pid, int) and pid_alive(pid):
        return f"; it is this data folder's Cloister server (pid {pid}, {holder.get('url')})"
    return ""


def clock_watch_option(raw: str) -> float:
    """``--clock-watch``'s type: argparse prints the sentence and exits 2."""
    try:
        return clock_watch_seconds(raw, "--clock-watch")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m server", description="Run Cloister")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1, help="server processes on the port")
    parser.add_argument("--log-level", choices=LOG_LEVELS, default="info")
    parser.add_argument(
        "--clock-watch",
        type=clock_watch_option,
        metavar="SECONDS",
        help="seconds between two reads of the deadline index (env CLOISTER_CLOCK_WATCH; 5)",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env(clock_watch=args.clock_watch)
    except ValueError as exc:
        print(f"cloister: bad setting: {exc}", file=sys.stderr)
        sys.exit(2)
    try:
        serve(settings, args.host, args.port, args.workers, args.log_level)
    except (ServeError, FolderBusy) as exc:
        print(f"cloister: {exc}", file=sys.stderr)
        sys.exit(1)
