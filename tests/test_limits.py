"""Request bodies and WebSocket frames are bounded before they are read (``server.limits``).

The ASGI-level checks run against the middleware directly (no server: what reaches the app
is counted exactly); the memory claim runs against ``python -m server`` as a real child
process, its RSS measured with psutil while a 200 MiB body streams at it.
"""

from __future__ import annotations

import asyncio
import os
import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import orjson
import psutil  # type: ignore[import-untyped]
import pytest
import websockets

from protocol import PROTOCOL_VERSION
from server.limits import BodyLimit, BodyTooLarge
from tests.support import REDIS_URL, http, start_server_process, ws_url

MIB = 1 << 20


# -- the middleware, on its own ----------------------------------------------------------------
class Inner:
    """An ASGI app that reads the whole body (as ``request.body()`` does), then answers."""

    def __init__(self, catch: bool = False) -> None:
        self.called = False
        self.read = 0
        self.catch = catch

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.called = True
        status = 200
        try:
            while True:
                message = await receive()
                self.read += len(message.get("body", b""))
                if not message.get("more_body"):
                    break
        except BodyTooLarge as exc:
            if not self.catch:
                raise
            status = exc.status  # as the endpoints answer a ServiceError
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


def _scope(path: str = "/api/games", headers: list[tuple[bytes, bytes]] | None = None) -> Any:
    return {"type": "http", "method": "POST", "path": path, "headers": headers or []}


async def _run(app: Any, scope: Any, chunks: int, size: int) -> tuple[list[dict[str, Any]], int]:
    """Run ``app`` on a body of ``chunks`` chunks of ``size`` bytes; returns what it sent
    and how many chunks it pulled."""
    pulled = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> Any:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b"x" * size, "more_body": pulled < chunks}

    async def send(message: Any) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent, pulled


def _status_and_error(sent: list[dict[str, Any]]) -> tuple[int, dict[str, Any], dict[bytes, bytes]]:
    start, body = sent
    return start["status"], orjson.loads(body["body"]), dict(start["headers"])


async def test_a_declared_length_over_the_limit_is_refused_before_the_app_runs() -> None:
    inner = Inner()
    app = BodyLimit(inner, default=1000)
    scope = _scope(headers=[(b"content-length", str(200 * MIB).encode())])
    sent, pulled = await _run(app, scope, 1, 10)
    status, body, headers = _status_and_error(sent)
    assert status == 413 and body["error"]["code"] == "too_large"
    assert "1000 bytes" in body["error"]["message"]
    assert headers[b"content-type"] == b"application/json"
    assert headers[b"connection"] == b"close"
    assert not inner.called and pulled == 0


async def test_a_streamed_body_is_counted_and_stopped_at_the_limit() -> None:
    inner = Inner()
    app = BodyLimit(inner, default=10_000)
    # chunked (no Content-Length): 200 chunks of 1 KiB; the limit is passed in the 10th
    sent, pulled = await _run(app, _scope(), 200, 1024)
    status, body, _ = _status_and_error(sent)
    assert status == 413 and body["error"]["code"] == "too_large"
    assert pulled == 10 and inner.read == 9 * 1024  # the chunk over the limit never arrives


async def test_a_body_that_lies_about_its_length_is_counted_too() -> None:
    app = BodyLimit(Inner(), default=10_000)
    scope = _scope(headers=[(b"content-length", b"10")])
    sent, pulled = await _run(app, scope, 200, 1024)
    assert sent[0]["status"] == 413 and pulled == 10


async def test_an_endpoint_answering_the_refusal_closes_the_connection() -> None:
    app = BodyLimit(Inner(catch=True), default=10_000)
    sent, _ = await _run(app, _scope(), 200, 1024)
    start = sent[0]
    assert start["status"] == 413
    assert (b"connection", b"close") in start["headers"]  # the rest is never read


async def test_bodies_at_the_limit_pass_and_paths_have_their_own_limits() -> None:
    inner = Inner()
    app = BodyLimit(inner, default=10_000, per_path={"/api/games/import": 100_000})
    sent, _ = await _run(app, _scope(), 10, 1000)  # exactly the limit
    assert sent[0]["status"] == 200 and inner.read == 10_000
    sent, _ = await _run(app, _scope("/api/games/import"), 50, 1000)
    assert sent[0]["status"] == 200
    sent, _ = await _run(app, _scope("/api/games/import"), 101, 1000)
    assert sent[0]["status"] == 413


async def test_websockets_and_lifespan_pass_untouched() -> None:
    seen: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    app = BodyLimit(inner, default=1)
    for kind in ("websocket", "lifespan"):
        await app({"type": kind, "path": "/"}, None, None)
    assert seen == ["websocket", "lifespan"]


# -- a real server process ---------------------------------------------------------------------
@pytest.fixture
def server(key_prefix: str, redis_store: object) -> Iterator[tuple[psutil.Process, str]]:
    env = {**os.environ, "REDIS_URL": REDIS_URL, "CLOISTER_PREFIX": key_prefix}
    proc, base = start_server_process(env)
    try:
        yield psutil.Process(proc.pid), base
    finally:
        proc.terminate()
        proc.wait(10)


def _stream(base: str, path: str, total: int, chunked: bool) -> tuple[int, bytes]:
    """POST ``total`` bytes to ``path``, 1 MiB at a time, stopping when the server answers
    or stops reading. Returns the bytes sent and whatever answer arrived."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=5)
    length = b"Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}".encode()
    sock.sendall(
        b"POST " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/json\r\n" + length + b"\r\n\r\n"
    )
    chunk = b"x" * MIB
    frame = (b"%x\r\n" % MIB) + chunk + b"\r\n" if chunked else chunk
    sent = 0
    answer = b""
    try:
        while sent < total:
            if select.select([sock], [], [], 0)[0]:
                break  # the answer is there: stop sending
            sock.settimeout(2)
            sock.sendall(frame)
            sent += MIB
    except (TimeoutError, BrokenPipeError, ConnectionResetError):
        pass  # the server stopped reading, or closed after answering
    try:
        sock.settimeout(5)
        while chunk_in := sock.recv(65536):
            answer += chunk_in
    except (TimeoutError, ConnectionResetError):
        pass
    finally:
        sock.close()
    return sent, answer


@pytest.mark.redis
@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
async def test_a_200_mib_body_leaves_the_server_process_flat(
    server: tuple[psutil.Process, str], chunked: bool
) -> None:
    proc, base = server
    async with http(base) as c:  # warm up: the routes, the store's connections
        for _ in range(3):
            assert (await c.post("/api/games", json={"type": "high-card"})).status_code == 201
    before = proc.memory_info().rss
    sent, answer = await asyncio.to_thread(_stream, base, "/api/games", 200 * MIB, chunked)
    time.sleep(0.2)
    grown = proc.memory_info().rss - before
    assert grown < 16 * MIB, f"the server grew {grown / MIB:.0f} MiB for a refused body"
    assert sent < 200 * MIB  # it stopped reading long before the end
    if answer:  # (a reset may have eaten it: the in-process tests check the answer itself)
        assert answer.startswith(b"HTTP/1.1 413") and b'"too_large"' in answer
    async with http(base) as c:  # and it still serves
        assert (await c.get("/api/health")).status_code == 200


@pytest.mark.redis
async def test_an_oversized_websocket_frame_closes_with_1009_unread(
    server: tuple[psutil.Process, str],
) -> None:
    _, base = server
    async with http(base) as c:
        gid = (await c.post("/api/games", json={"type": "high-card"})).json()["id"]
    url = ws_url(base, gid)
    # Over max_message_bytes, under max_frame_bytes: a structured error, the socket stays.
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(orjson.dumps({"type": "hello", "v": PROTOCOL_VERSION}).decode())
        await ws.recv()
        await ws.send("x" * 20_000)
        assert orjson.loads(await ws.recv())["code"] == "too_large"
        # Over max_frame_bytes (64 KiB; uvicorn's default would be 1 MiB): refused from
        # the frame header, before its payload is read, close code 1009.
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.send("x" * (256 << 10))
            for _ in range(5):
                await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
