"""Shared fixtures: a real Redis under a unique key prefix per test, cleaned up after.

The Redis is ``REDIS_URL`` (default 127.0.0.1:6379) when it answers, else an embedded one
started for the session (``tests/redis_env.py``): the suite needs no Redis installed.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from server.store.redis import RedisStore
from tests.redis_env import describe, resolve

# Resolved when this conftest is imported, before any test module reads REDIS_URL.
REDIS_URL = resolve()


def pytest_report_header() -> str:
    return describe()


@pytest.fixture
def key_prefix() -> str:
    return f"test-{uuid.uuid4().hex[:10]}"


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
