"""A real Cloister server for the client tests: uvicorn in a background thread (the shared
``tests.support.running_server``), against the real Redis under a fresh key prefix.

Session-scoped: a server start costs about half a second and games are isolated by id
anyway. The prefix is deleted afterwards.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator

import attrs
import pytest

from server.store.redis import RedisStore
from tests.support import free_port, running_server

__all__ = ["REDIS_URL", "LiveServer", "free_port"]

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


@attrs.frozen
class LiveServer:
    url: str
    prefix: str


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    prefix = f"test-clients-{uuid.uuid4().hex[:8]}"
    try:
        with running_server(prefix, bot_delay=0.0) as url:
            yield LiveServer(url, prefix)
    finally:

        async def cleanup() -> None:
            store = RedisStore(REDIS_URL, prefix)
            try:
                await store.delete_prefix()
            finally:
                await store.close()

        asyncio.run(cleanup())
