"""A real Cloister server on a free port, in a background thread, against the real Redis.

Session-scoped: starting uvicorn costs about half a second and games are isolated by id
anyway. Every run uses its own key prefix and deletes it afterwards.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator

import attrs
import httpx
import pytest
import uvicorn

from server import Settings, create_app
from server.store.redis import RedisStore

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


@attrs.frozen
class LiveServer:
    url: str
    settings: Settings
    thread: threading.Thread


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def uvicorn_config(app: object, host: str, port: int) -> uvicorn.Config:
    """The uvicorn settings `cloister serve` uses, so tests exercise the same stack."""
    return uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        ws_max_size=1 << 20,
        lifespan="on",
        log_level="warning",
    )


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    settings = Settings(
        redis_url=REDIS_URL, key_prefix=f"test-clients-{uuid.uuid4().hex[:8]}", bot_delay=0.0
    )
    port = free_port()
    server = uvicorn.Server(uvicorn_config(create_app(settings), "127.0.0.1", port))
    # uvicorn installs signal handlers only on the main thread; in a thread it skips them.
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 15
    while True:
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield LiveServer(url, settings, thread)
    finally:
        server.should_exit = True
        thread.join(10)

        async def cleanup() -> None:
            store = RedisStore(REDIS_URL, settings.key_prefix)
            try:
                await store.delete_prefix()
            finally:
                await store.close()

        asyncio.run(cleanup())
