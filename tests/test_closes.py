"""Issue 14, item 6: a JSON error for every unknown path and method, and a documented close
code for every WebSocket close (docs/protocol.md, "Close codes")."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
import websockets

from server import ws as ws_module
from tests.support import Player, http, new_game, running_server, ws_url

pytestmark = pytest.mark.redis

DOCS = Path(__file__).parents[1] / "docs"


async def test_unknown_paths_and_methods_get_json_errors(key_prefix: str) -> None:
    with running_server(key_prefix) as base:
        async with http(base) as c:
            for path in ("/api/nope", "/api/games/x/y/z", "/metrics/extra"):
                r = await c.get(path)
                assert r.status_code == 404, path
                assert r.headers["content-type"].startswith("application/json")
                assert r.json()["error"]["code"] == "not_found"
            for method, path in (("DELETE", "/api/games"), ("PUT", "/api/health")):
                r = await c.request(method, path)
                assert r.status_code == 405, (method, path)
                assert r.json()["error"]["code"] == "method_not_allowed"
                assert "allowed" in r.json()["error"]["message"] and r.headers["allow"]


async def test_a_flooded_socket_is_closed_with_its_code(key_prefix: str) -> None:
    with running_server(key_prefix, rate_per_second=1.0, rate_burst=2) as base:
        async with http(base) as c:
            gid, _ = await new_game(c, "high-card")
        p = Player(base, gid)
        await p.connect()
        for i in range(40):  # far past 3 x burst refused messages
            try:
                await p.send({"type": "ping", "nonce": i})
            except websockets.ConnectionClosed:
                break
        code = None
        try:
            while True:
                await asyncio.wait_for(p.ws.recv(), 20)
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
        assert code == ws_module.CLOSE_FLOODED == 1008


async def test_a_bad_hello_closes_with_its_code(key_prefix: str) -> None:
    with running_server(key_prefix) as base:
        async with http(base) as c:
            gid, _ = await new_game(c, "high-card")
        for hello, code in (
            ('{"type": "ping"}', 4400),
            ('{"type": "hello", "token": "nope"}', 4403),
        ):
            async with websockets.connect(ws_url(base, gid)) as ws:
                await ws.send(hello)
                await ws.recv()
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), 20)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == code
        async with websockets.connect(ws_url(base, "g-missing")) as ws:
            await ws.send('{"type": "hello"}')
            await ws.recv()
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 20)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def test_every_close_code_in_the_code_is_in_the_docs_table() -> None:
    """Every ``ws.close(<code>)`` and close constant of server/ws.py is a row of the close
    code table in docs/protocol.md, and every row is one the server uses."""
    source = Path(ws_module.__file__).read_text()
    used = {int(c) for c in re.findall(r"\b(1\d{3}|4\d{3})\b", source)}
    used -= {1 << 10}  # not a code
    text = (DOCS / "protocol.md").read_text()
    table = text[text.index("### Close codes") :]
    table = table[: table.index("\n\n", table.index("|"))]
    documented = {int(c) for c in re.findall(r"^\| `(\d{4})`", table, re.M)}
    assert used <= documented, used - documented
    asgi = {1000, 1001, 1009}  # closes the ASGI server makes itself (normal, shutdown, frame)
    assert documented <= used | asgi, documented - used - asgi
