"""Issue 14, item 5: Redis trouble is an answer. A server process on a Redis of the test's
own (``tests/own_redis.py``: paused with SIGSTOP, killed, restarted; never the shared one):
commands are answered ``unavailable`` and the socket stays open, hellos are answered,
``/api/health`` says Redis is down, and after the outage the same command id goes through.
Also TLS (``rediss://``, a self-signed certificate) and credentials in the URL, for real."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from server.store.redis import RedisStore
from server.store.resp import RespConnection, tls_context
from tests.own_redis import OwnRedis, redis_server_binary
from tests.store_contract import ev
from tests.support import Player, http, new_game, start_server_process, stop_process, ws_url

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(redis_server_binary() is None, reason="no redis-server to start"),
]


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.stop()


REDIS_TIMEOUT = "1.5"
"""The node's Redis command timeout (``CLOISTER_REDIS_TIMEOUT``; 5 s by default): a paused
Redis is waited out once per answer below, so the default made the test wait half a minute.
Long enough that a busy machine does not time out the commands before the pause."""


@pytest.fixture
def node(own_redis: OwnRedis) -> Iterator[str]:
    env = {
        **os.environ,
        "REDIS_URL": own_redis.url,
        "CLOISTER_BOT_DELAY": "0",
        "CLOISTER_REDIS_TIMEOUT": REDIS_TIMEOUT,
    }
    proc, base = start_server_process(env)
    yield base
    stop_process(proc)


async def health(base: str) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(base_url=base, timeout=20) as c:
        r = await c.get("/api/health")
        return r.status_code, r.json()


OUTAGE_WAIT = 60.0
"""The longest wait for one answer while Redis is down: the server answers after its own
Redis timeouts (``REDIS_TIMEOUT`` a call, and a command may make two), later still on two
busy cores. The test checks that an answer comes, not how fast (``/api/health`` has its
own bound)."""


async def still_open(p: Player) -> None:
    await p.send({"type": "ping", "nonce": 7})
    while (msg := await p.recv(OUTAGE_WAIT))["type"] != "pong":
        pass
    assert msg["nonce"] == 7


async def outage(own_redis: OwnRedis, node: str, how: str) -> None:
    async with http(node) as c:
        gid, tokens = await new_game(c, "high-card", {"players": 2})
        other, _ = await new_game(c, "high-card", {"players": 2})
    p0 = Player(node, gid, tokens[0])
    await p0.connect()
    reply = await p0.command({"type": "Draw"})
    assert reply["type"] == "accepted"
    p1 = Player(node, gid, tokens[1])
    await p1.connect()

    if how == "pause":
        own_redis.pause()
    else:
        own_redis.kill()
    try:
        # /api/health: Redis is down (503), answered promptly even when Redis stalls
        started = time.monotonic()
        status, body = await health(node)
        assert (status, body["redis"]) == (503, "unavailable"), body
        assert time.monotonic() - started < 15
        # a command: answered unavailable, the socket stays open
        cid = "during-outage"
        reply = await p1.command({"type": "Pass"}, cid=cid, timeout=OUTAGE_WAIT)
        assert (reply["type"], reply["code"]) == ("rejected", "unavailable"), reply
        await still_open(p1)
        # a chat too
        said = await p0.chat("anyone there?", cid="chat-during-outage", timeout=OUTAGE_WAIT)
        assert (said["type"], said["code"]) == ("rejected", "unavailable"), said
        await still_open(p0)
        # a spectator's hello for a game this process holds: welcomed from its cache
        watcher = Player(node, other)
        welcome = await watcher.connect(timeout=OUTAGE_WAIT)
        assert welcome["type"] == "welcome"
        await still_open(watcher)
        await watcher.close()
        # a seat's hello needs Redis (the token): answered unavailable, then closed 1013
        async with websockets.connect(ws_url(node, gid)) as ws:
            await ws.send(f'{{"type": "hello", "token": "{tokens[1]}"}}')
            msg = await asyncio.wait_for(ws.recv(), OUTAGE_WAIT)
            assert '"unavailable"' in str(msg), msg
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), OUTAGE_WAIT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        # an HTTP request that needs Redis: a JSON 503 with Retry-After, not a crash
        async with http(node) as c:
            r = await c.post("/api/games", json={"type": "high-card"}, timeout=OUTAGE_WAIT)
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "unavailable"
            assert r.headers["retry-after"] == "1"
    finally:
        if how == "pause":
            own_redis.resume()
        else:
            own_redis.start()

    # Redis is back: health ok, and the same command id goes through (once)
    deadline = time.monotonic() + 30
    while (await health(node))[0] != 200:
        assert time.monotonic() < deadline, "health never recovered"
        await asyncio.sleep(0.2)
    deadline = time.monotonic() + OUTAGE_WAIT
    while True:  # the store's connections may take a moment to come back
        reply = await p1.command({"type": "Pass"}, cid=cid, timeout=OUTAGE_WAIT)
        if reply.get("code") != "unavailable" or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.2)
    assert reply["type"] == "accepted", reply
    async with http(node) as c:
        log = (await c.get(f"/api/games/{gid}/events")).json()["events"]
    assert sum(e["type"] == "Passed" for e in log) == 1
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    await p0.close()
    await p1.close()


@pytest.mark.slow  # (tests/conftest.py runs these first)
async def test_a_paused_redis_is_an_answer(own_redis: OwnRedis, node: str) -> None:
    await outage(own_redis, node, "pause")


async def test_a_killed_redis_is_an_answer(own_redis: OwnRedis, node: str) -> None:
    await outage(own_redis, node, "kill")


async def test_the_hot_path_times_out_on_a_stalled_redis(own_redis: OwnRedis) -> None:
    conn = RespConnection(own_redis.url, timeout=0.5)
    assert await conn.execute("PING") == b"PONG"
    own_redis.pause()
    try:
        with pytest.raises(TimeoutError):
            await conn.execute("PING")
    finally:
        own_redis.resume()
    # the late reply is read and dropped: the connection stays in step
    await asyncio.sleep(0.2)
    assert await conn.execute("ECHO", "x") == b"x"
    sock = conn._writer.get_extra_info("socket") if conn._writer else None
    assert sock is not None
    import socket

    assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
    await conn.close()


async def test_each_stalled_command_times_out_at_its_own_deadline(own_redis: OwnRedis) -> None:
    """One timer per connection serves every command (``RespConnection._sweep``): a command
    sent later fails at its own deadline, neither with the first one nor never."""
    conn = RespConnection(own_redis.url, timeout=0.5)
    assert await conn.execute("PING") == b"PONG"
    own_redis.pause()
    try:
        loop = asyncio.get_running_loop()
        start = loop.time()
        first = asyncio.ensure_future(conn.execute("PING"))
        await asyncio.sleep(0.3)
        second = asyncio.ensure_future(conn.execute("ECHO", "late"))
        with pytest.raises(TimeoutError, match="PING"):
            await first
        assert not second.done()
        with pytest.raises(TimeoutError, match="ECHO"):  # not wait_for's own, unnamed
            await asyncio.wait_for(second, 3)
        assert loop.time() - start >= 0.8
    finally:
        own_redis.resume()
    await asyncio.sleep(0.2)  # both late replies are read and dropped
    assert await conn.execute("ECHO", "x") == b"x"
    await conn.close()


def test_tls_url_parsing() -> None:
    assert tls_context("redis://127.0.0.1:6379/0") is None
    ctx = tls_context("rediss://u:p@example.org:6380/0")
    assert ctx is not None and ctx.check_hostname
    loose = tls_context("rediss://example.org/0?ssl_cert_reqs=none")
    assert loose is not None and not loose.check_hostname


async def test_tls_and_credentials_for_real(tmp_path: Path) -> None:
    server = OwnRedis(tmp_path, tls=True, password="s3cret-pass")
    try:
        server.start()
    except RuntimeError:
        pytest.skip("this redis-server has no TLS support")
    try:
        store = RedisStore(server.url, "tls-test")
        r = await store.append("g1", 0, "c1", [ev(1), ev(2)])
        assert (r.status, r.version) == ("ok", 2)
        assert [e.version for e in await store.read("g1")] == [1, 2]  # the hot path
        assert await store.head("g1") == 2  # redis-py
        store.watch("g1")  # the doorbell's subscription, over TLS too
        bells = store.doorbells()
        first = asyncio.ensure_future(anext(bells))
        await asyncio.sleep(0.3)
        await store.append("g1", 2, "c2", [ev(3)])
        bell = await asyncio.wait_for(first, 10)
        while bell[1] == 0:  # "subscribed: catch up"
            bell = await asyncio.wait_for(anext(bells), 10)
        assert bell == ("g1", 3)
        await bells.aclose()  # type: ignore[attr-defined]
        await store.close()
        # a wrong password is refused, not hung
        bad = RedisStore(server.url.replace("s3cret-pass", "wrong"), "tls-test")
        with pytest.raises(Exception, match=r"(?i)auth|pass|denied|invalid"):
            await bad.read("g1")
        await bad.close()
    finally:
        server.stop()
