"""Shared fixtures: a real Redis under a unique key prefix per test, cleaned up after.

The Redis is ``REDIS_URL`` (default 127.0.0.1:6379) when it answers, else an embedded one
started for the session (``tests/redis_env.py``): the suite needs no Redis installed.
"""

from __future__ import annotations

import socket
import urllib.parse
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import redis

from server.store.redis import RedisStore
from tests.redis_cluster import LocalCluster, unavailable
from tests.redis_env import describe, resolve
from tests.support import Node, server_nodes

# Resolved when this conftest is imported, before any test module reads REDIS_URL.
REDIS_URL = resolve()


def pytest_report_header() -> str:
    return describe()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` run first, in reverse order; the others as collected.

    With ``-n auto`` pytest-xdist hands the tests out in this order: a half-minute playout
    handed out last keeps one worker busy while the others have nothing left to do, handed
    out first it runs while they share the short tests. Reversed, because a parametrized
    playout's later cases are its bigger games (7 players, level 3): the longest go first.
    (The order is the same in every worker, as xdist requires.) The browser tests stay
    last, as collected: their session's Playwright keeps an event loop running in the
    worker, so an asyncio test after them fails ("cannot be called from a running event
    loop"); none of them may be marked slow."""
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    browser = [item.nodeid for item in slow if item.get_closest_marker("browser")]
    assert not browser, f"browser tests must not be marked slow: {browser[:3]}"
    if slow:
        rest = [item for item in items if item.get_closest_marker("slow") is None]
        items[:] = slow[::-1] + rest


@pytest.fixture(autouse=True)
def _unmarked_tests_leave_redis_alone(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A test that talks to the session's Redis must be marked ``redis`` (or ``browser``).

    CI runs the marked tests a second time with no Redis listening; that covers "the suite
    passes without Redis" only if the unmarked ones never need it, which this makes sure
    of: in an unmarked test, connecting to the session's Redis fails loudly.
    """
    if request.node.get_closest_marker("redis") or request.node.get_closest_marker("browser"):
        yield
        return
    parts = urllib.parse.urlsplit(REDIS_URL)
    port = parts.port or 6379
    hosts = {parts.hostname, "127.0.0.1", "localhost", "::1"}
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def check(address: Any) -> None:
        if isinstance(address, tuple) and address[1] == port and address[0] in hosts:
            raise AssertionError(
                f"{request.node.nodeid} uses the session's Redis ({REDIS_URL}) but is not "
                "marked @pytest.mark.redis"
            )

    def connect(self: socket.socket, address: Any) -> None:
        check(address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(address)
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    yield


@pytest.fixture
def key_prefix(request: pytest.FixtureRequest) -> Iterator[str]:
    """A key prefix of this test's own, whose keys are deleted after it: also when the test
    wrote them only through a server it ran itself (``running_server``), with no
    ``redis_store`` to clean up after it. (Torn down after the fixtures that use it, so
    after their servers have stopped writing.) Unmarked tests cannot have used Redis."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    yield prefix
    if request.node.get_closest_marker("redis") or request.node.get_closest_marker("browser"):
        client = redis.Redis.from_url(REDIS_URL)
        try:
            keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
            if keys:
                client.unlink(*keys)
        finally:
            client.close()


@pytest.fixture
async def redis_store(key_prefix: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(REDIS_URL, key_prefix)
    try:
        await store.redis.ping()
    except Exception as exc:  # pragma: no cover - resolve() found or started one
        pytest.fail(f"these tests need a real Redis at {REDIS_URL}: {exc}")
    yield store
    await store.delete_prefix()
    await store.close()


@pytest.fixture(scope="session")
def redis_cluster_url() -> Iterator[str]:
    """A local 3-master Redis Cluster for the session (about 2 s to start), as the
    ``redis+cluster://`` URL the store takes; skipped where no Redis 7 is installed."""
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    cluster = LocalCluster()
    url = cluster.start()
    yield url
    cluster.stop()


@pytest.fixture
async def cluster_store(redis_cluster_url: str, key_prefix: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(redis_cluster_url, key_prefix)
    yield store
    await store.delete_prefix()
    await store.close()


@pytest.fixture
def nodes(key_prefix: str, redis_store: RedisStore) -> Iterator[list[Node]]:
    """Two server processes on the session's Redis, under the test's key prefix (deleted
    after, with ``redis_store``)."""
    with server_nodes(key_prefix) as started:
        yield started
