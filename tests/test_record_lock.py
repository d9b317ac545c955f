"""RecordLock: the game record's lock, whose uncontended acquire skips a coroutine.

It reads asyncio.Lock's private state, so these tests pin what it relies on: a free lock
is taken at once, a held lock or one with waiters is not (the caller awaits ``acquire``,
and waiters keep their order), and release hands the lock on as asyncio's own does.
"""

from __future__ import annotations

import asyncio

import pytest

from server.games import RecordLock


async def test_a_free_lock_is_taken_at_once_and_released_as_any_lock() -> None:
    lock = RecordLock()
    assert lock.take()
    assert lock.locked()
    assert not lock.take()
    lock.release()
    assert not lock.locked()
    async with lock:
        assert lock.locked()
    assert lock.take()
    lock.release()


async def test_a_held_lock_with_waiters_is_not_taken_and_waiters_keep_their_order() -> None:
    lock = RecordLock()
    assert lock.take()
    order: list[str] = []

    async def waiter(name: str) -> None:
        await lock.acquire()
        order.append(name)
        await asyncio.sleep(0)
        lock.release()

    first = asyncio.create_task(waiter("first"))
    await asyncio.sleep(0)
    lock.release()
    # released with a waiter queued: take() must not jump the queue
    assert not lock.take()
    second = asyncio.create_task(waiter("second"))
    await asyncio.gather(first, second)
    assert order == ["first", "second"]
    assert not lock.locked()
    assert lock.take()
    lock.release()


async def test_a_cancelled_waiter_leaves_the_lock_usable() -> None:
    lock = RecordLock()
    assert lock.take()
    waiting = asyncio.create_task(lock.acquire())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    lock.release()
    assert not lock.locked()
    assert lock.take()
    lock.release()
