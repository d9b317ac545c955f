"""Run the server under uvicorn with the settings this project measured as best.

* ``ws="websockets-sansio"``: the fastest of uvicorn's WebSocket implementations here
  (the legacy one costs 1.6x the CPU).
* ``ws_per_message_deflate=False``: our frames are small JSON; deflate costs 1.8x the CPU
  and 2.4x the memory per connection (see the design notes on performance).
* ``ws_max_size`` stays above the protocol's own limit, so an oversize message gets a
  structured ``too_large`` error instead of a dropped connection.

``workers > 1`` runs that many server processes on one port (uvicorn's supervisor: the
parent binds the socket, every worker accepts on it, a dead worker is replaced). Each worker
is a full node with its own Redis connections, so any worker takes any game through the
multi-node path (expected-version appends, doorbells). Without ``REDIS_URL`` the parent
starts and owns the embedded Redis and hands its URL to the workers.
"""

from __future__ import annotations

import argparse
import logging
import os
from typing import Any

import attrs
import orjson
import uvicorn
from starlette.applications import Starlette
from uvicorn.supervisors import Multiprocess

from .app import create_app
from .config import Settings

__all__ = ["main", "serve", "uvicorn_config", "worker_app"]

WORKER_SETTINGS = "CLOISTER_WORKER_SETTINGS"
"""The environment variable that carries the parent's settings to each worker (JSON)."""


def uvicorn_config(
    settings: Settings, host: str, port: int, workers: int = 1, **overrides: Any
) -> uvicorn.Config:
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "ws": "websockets-sansio",
        "ws_per_message_deflate": False,
        "ws_max_size": 1 << 20,
        "lifespan": "on",
        "log_level": "info",
        **overrides,
    }
    if workers > 1:
        # Workers are separate (spawned) processes: they build the app from an import
        # string and read the settings from the environment.
        os.environ[WORKER_SETTINGS] = orjson.dumps(attrs.asdict(settings)).decode()
        return uvicorn.Config("server.run:worker_app", factory=True, workers=workers, **options)
    return uvicorn.Config(create_app(settings), **options)


def worker_app() -> Starlette:
    """The app of one worker process of ``serve(workers=N)``."""
    return create_app(Settings(**orjson.loads(os.environ[WORKER_SETTINGS])))


def serve(
    settings: Settings, host: str = "127.0.0.1", port: int = 8000, workers: int = 1, **kw: Any
) -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if workers <= 1:
        uvicorn.Server(uvicorn_config(settings, host, port, **kw)).run()
        return
    embedded = None
    if settings.redis_url is None:
        from .embedded import EmbeddedRedis

        embedded = EmbeddedRedis(settings.data_dir)
        settings = attrs.evolve(settings, redis_url=embedded.start())
        logging.getLogger("cloister.run").info(
            "embedded Redis on %s, data in %s, shared by %d workers",
            settings.redis_url,
            embedded.data_dir,
            workers,
        )
    try:
        config = uvicorn_config(settings, host, port, workers, **kw)
        Multiprocess(config, sockets=[config.bind_socket()]).run()
    finally:
        if embedded is not None:
            embedded.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m server", description="Run Cloister")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1, help="server processes on the port")
    args = parser.parse_args(argv)
    serve(Settings.from_env(), args.host, args.port, args.workers)
