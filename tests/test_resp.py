"""The lean pipelined Redis connection: ordering, cancellation, errors, reconnects."""

from __future__ import annotations

import asyncio

import hiredis
import pytest

from server.store.resp import RespConnection, RespError, command_timeout
from tests.conftest import REDIS_URL

pytestmark = pytest.mark.redis


async def test_concurrent_calls_get_their_own_replies(key_prefix: str) -> None:
    conn = RespConnection(REDIS_URL)
    try:
        keys = [f"{key_prefix}:k{i}" for i in range(200)]
        await asyncio.gather(*(conn.execute("SET", k, i) for i, k in enumerate(keys)))
        got = await asyncio.gather(*(conn.execute("GET", k) for k in keys))
        assert got == [str(i).encode() for i in range(200)]
    finally:
        await conn.execute("DEL", *keys)
        await conn.close()


async def test_a_cancelled_call_does_not_shift_later_replies(key_prefix: str) -> None:
    conn = RespConnection(REDIS_URL)
    key = f"{key_prefix}:c"
    try:
        await conn.execute("SET", key, "right")
        slow = asyncio.ensure_future(conn.execute("BLPOP", f"{key_prefix}:never", 0.3))
        await asyncio.sleep(0.05)
        slow.cancel()
        assert await conn.execute("GET", key) == b"right"
        assert await conn.execute("PING") == b"PONG"
    finally:
        await conn.execute("DEL", key)
        await conn.close()


async def test_error_replies_raise_and_the_connection_goes_on() -> None:
    conn = RespConnection(REDIS_URL)
    try:
        with pytest.raises(RespError, match="unknown command"):
            await conn.execute("NOSUCHCOMMAND")
        assert await conn.execute("PING") == b"PONG"
    finally:
        await conn.close()


async def test_a_killed_connection_fails_pending_calls_then_reconnects(key_prefix: str) -> None:
    conn = RespConnection(REDIS_URL)
    try:
        my_id = await conn.execute("CLIENT", "ID")
        pending = asyncio.ensure_future(conn.execute("BLPOP", f"{key_prefix}:never", 5))
        await asyncio.sleep(0.05)
        killer = RespConnection(REDIS_URL)
        await killer.execute("CLIENT", "KILL", "ID", my_id)
        await killer.close()
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(pending, 5)
        assert await conn.execute("PING") == b"PONG"  # reconnected by itself
        assert await conn.execute("CLIENT", "ID") != my_id
    finally:
        await conn.close()


async def test_bells_already_received_are_handed_out_in_order_without_waiting() -> None:
    """``_Bells.next`` takes a bell that is already queued at once, in order; once a
    node's subscription ended and nothing is queued, it raises what ended it."""
    from server.store.redis import RedisStore, _Bells

    store = RedisStore("redis://127.0.0.1:1/0", "unused")  # never connects
    try:
        bells = _Bells(store)
        bells._out.put_nowait((b"a", b"1"))
        bells._out.put_nowait((b"b", None))
        assert await bells.next() == (b"a", b"1")
        assert await bells.next() == (b"b", None)
        bells._failed.set_result(ConnectionError("gone"))
        with pytest.raises(ConnectionError, match="gone"):
            await bells.next()
        await bells.close()
    finally:
        await store.close()


def test_a_command_packed_from_a_shared_head_is_the_command_packed_at_once() -> None:
    """``execute_packed``'s bytes: a head packed once (the append's script and keys), then
    the rest, are exactly what packing every argument together gives."""
    from server.store.resp import pack_head, pack_with

    args = ("EVALSHA", "a" * 40, 4, "k:{g-1}:events", "é", b"\x00\r\n", 17, 2.5, "")
    for k in range(1, len(args)):
        head = pack_head(*args[:k])
        assert head[2] == "EVALSHA"
        assert pack_with(head, args[k:]) == hiredis.pack_command(args)


async def test_execute_packed_answers_as_execute() -> None:
    from server.store.resp import pack_head

    conn = RespConnection(REDIS_URL)
    try:
        assert await conn.execute_packed(pack_head("ECHO"), "hi") == b"hi"
        assert await conn.execute_packed(pack_head("ECHO", "x")) == b"x"
    finally:
        await conn.close()


def test_the_command_timeout_comes_from_the_environment_or_stops_the_start() -> None:
    assert command_timeout(None) == command_timeout("") == 5.0
    assert command_timeout("1.5") == 1.5
    for bad in ("abc", "0", "-1", "nan", "inf", "601"):
        with pytest.raises(ValueError, match="CLOISTER_REDIS_TIMEOUT must be a number of seconds"):
            command_timeout(bad)
