"""Shared fixtures: a real Redis under a unique key prefix per test, cleaned up after."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest

from server.store.redis import RedisStore

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def key_prefix() -> str:
    return f"test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
async def redis_store(key_prefix: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(REDIS_URL, key_prefix)
    try:
        await store.redis.ping()
    except Exception as exc:  # pragma: no cover - CI always has Redis
        pytest.fail(f"these tests need a real Redis at {REDIS_URL}: {exc}")
    yield store
    await store.delete_prefix()
    await store.close()
