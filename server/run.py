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


def tune_gc() -> None:
    """Collect cyclic garbage less often, and never rescan what start-up loaded.

    Called once per server process, after the app is built, before it serves: by ``serve``
    and by each worker. Not in ``create_app``: tests build many apps in one process, and
    freezing there would keep each one's garbage for good. The older generations keep
    CPython's ratios (a collection of the next one every 10 of the one before)."""
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(GC_FIRST_GENERATION, second, third)


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
