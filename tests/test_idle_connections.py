"""What an idle WebSocket keeps once welcomed (issue 15: at most 30 KB per idle connection;
``python -m bench`` measures it): not the handshake's headers, and the socket still works."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from server import ws as ws_module
from tests.support import Player, http, new_game, running_server

pytestmark = pytest.mark.redis


async def test_a_welcomed_socket_keeps_no_handshake_headers_and_still_plays(
    key_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    released: list[Any] = []
    release = ws_module.release_handshake

    def spy(ws: Any) -> None:
        release(ws)
        released.append(ws.scope[ws_module.RAW_SEND].__self__)

    monkeypatch.setattr(ws_module, "release_handshake", spy)
    with running_server(key_prefix) as base:
        async with http(base) as c:
            gid, _ = await new_game(c, "high-card")
        p = Player(base, gid)
        await p.connect()
        # The accept went out whole before its headers were dropped.
        assert p.ws.response.headers["x-cloister-worker"]
        [proto] = released
        assert proto.handshake_complete
        assert len(proto.request.headers) == 0 and len(proto.response.headers) == 0
        await p.send({"type": "ping", "nonce": 7})
        assert (await p.recv())["type"] == "pong"
        await p.ws.close()


class _Proto:
    """What ``release_handshake`` reads of uvicorn's protocol, before the accept."""

    def __init__(self, headers: dict[str, str]) -> None:
        self.handshake_complete = False
        self.request = SimpleNamespace(headers=headers)
        self.response = None

    async def send(self, message: Any) -> None:
        raise AssertionError("not sent")


def test_headers_are_kept_until_the_handshake_is_complete() -> None:
    # Before the accept uvicorn still reads them (the response is sent from them).
    headers = {"host": "x"}
    proto = _Proto(headers)
    ws = SimpleNamespace(scope={ws_module.RAW_SEND: proto.send})
    ws_module.release_handshake(ws)  # type: ignore[arg-type]
    assert headers == {"host": "x"}
    proto.handshake_complete = True
    ws_module.release_handshake(ws)  # type: ignore[arg-type]
    assert headers == {}
