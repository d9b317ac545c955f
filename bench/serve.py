"""The benchmark's server processes:
``python -m bench.serve {cloister,floor} PORT PREFIX [WORKERS]``.

Both run on uvicorn with exactly the WebSocket settings of ``cloister serve`` (sansio, no
permessage-deflate, 1 MiB frames), each in its own process so the benchmark's client CPU
does not steal from them.

* ``cloister``: the real app (``server.create_app``) against the given Redis and prefix,
  with the benchmark's swap game registered besides the real ones (``bench.swapgame``).
  Per-connection rate limiting is lifted: a benchmark game sends faster than a person.
  ``WORKERS`` > 1 runs that many processes on the port, as ``cloister serve --workers``
  (``server.handoff.supervise``: the same supervisor and hand-off).
* ``floor``: a bare Starlette WebSocket endpoint that decodes each message (orjson), does
  one XADD through redis-py (a BlockingConnectionPool, as the store uses) and sends a 1 KB
  reply. The least any command round trip on this stack can cost.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator
from typing import Any

import orjson
import redis.asyncio as aioredis
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
REPLY_PAD = "x" * 950  # with the other fields, a reply of about 1 KB


def uvicorn_config(app: Any, port: int) -> uvicorn.Config:
    """uvicorn with the WebSocket settings of ``cloister serve`` (taken from
    ``server.run``, so the two cannot drift apart), quieter and with room for set-up bursts."""
    from server import Settings
    from server.run import uvicorn_config as serve_config

    ref = serve_config(Settings(redis_url=REDIS_URL), "127.0.0.1", port)
    return uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        ws=ref.ws,
        ws_per_message_deflate=ref.ws_per_message_deflate,
        ws_max_size=ref.ws_max_size,
        lifespan=ref.lifespan,
        log_level="warning",
        access_log=False,  # a log line per set-up request would be measured too
        backlog=4096,
        timeout_keep_alive=60,  # set-up bursts must not race uvicorn's 5 s idle close
    )


def floor_app(prefix: str) -> Starlette:
    pool = aioredis.BlockingConnectionPool.from_url(REDIS_URL, max_connections=64, timeout=20)
    redis = aioredis.Redis(connection_pool=pool)
    key = f"{prefix}:floor"

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                text = await ws.receive_text()
                msg = orjson.loads(text)
                version = await redis.xadd(key, {"d": text})
                reply = {
                    "type": "accepted",
                    "command_id": msg.get("command_id"),
                    "version": version.decode() if isinstance(version, bytes) else version,
                    "pad": REPLY_PAD,
                }
                await ws.send_text(orjson.dumps(reply).decode())
        except WebSocketDisconnect:
            pass

    async def health(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await redis.aclose()
        await pool.disconnect()

    return Starlette(
        routes=[Route("/api/health", health), WebSocketRoute("/ws", ws_endpoint)],
        lifespan=lifespan,
    )


def cloister_settings(prefix: str) -> Any:
    from server import Settings

    return Settings(
        redis_url=REDIS_URL,
        key_prefix=prefix,
        bot_delay=0.0,
        rate_per_second=1e9,
        rate_burst=1_000_000,
    )


def cloister_app(prefix: str) -> Any:
    from server import create_app

    from .swapgame import bench_registry

    return create_app(cloister_settings(prefix), bench_registry())


def worker_app() -> Any:
    """One worker of a multi-process benchmark server (the prefix comes by environment)."""
    from server.run import tune_gc

    app = cloister_app(os.environ["CLOISTER_BENCH_PREFIX"])
    tune_gc()  # as ``cloister serve`` does
    return app


def main() -> None:
    kind, port, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    workers = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    if kind == "cloister" and workers > 1:
        from server.handoff import supervise

        os.environ["CLOISTER_BENCH_PREFIX"] = prefix
        ref = uvicorn_config(None, port)
        config = uvicorn.Config(
            "bench.serve:worker_app",
            factory=True,
            workers=workers,
            **{k: getattr(ref, k) for k in _SHARED},
        )
        supervise(config, [config.bind_socket()])  # as ``cloister serve --workers``
        return
    from server.run import tune_gc

    app = cloister_app(prefix) if kind == "cloister" else floor_app(prefix)
    config = uvicorn_config(app, port)
    tune_gc()  # both servers as ``cloister serve`` runs them
    uvicorn.Server(config).run()


_SHARED = (
    "host",
    "port",
    "ws",
    "ws_per_message_deflate",
    "ws_max_size",
    "lifespan",
    "log_level",
    "access_log",
    "backlog",
    "timeout_keep_alive",
)


if __name__ == "__main__":
    main()
