"""The async client against a real server and Redis: play, resume, resync, idempotency."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from clients.client import Api, ApiError, GameClient, ServerRefused, SyncGameClient
from protocol import Accepted, Rejected, Resync, Update, Welcome, WireEvent, decode_client

from .helpers import draw_first, new_game, play_until, versions

pytestmark = pytest.mark.redis


async def test_two_clients_play_a_full_game(live_server: Any) -> None:
    gid, t0, t1 = await new_game(live_server.url, "full")
    async with (
        GameClient(live_server.url, gid, t0) as a,
        GameClient(live_server.url, gid, t1) as b,
    ):
        assert (a.seat, b.seat) == (0, 1)
        # Each seat sees its own hand and not the other's (until the post-game review).
        assert a.view["hands"][1] is None and b.view["hands"][0] is None
        assert a.view["hands"][0] and b.view["hands"][1]
        start = a.version
        sent = await play_until([a, b], lambda: a.finished and b.finished)
        await a.wait_for(lambda: a.result is not None and b.result is not None)
        assert a.result == b.result and a.result is not None
        assert a.result["winners"]
        # Every event after the welcome arrived exactly once, in order, to both seats.
        assert versions(a) == list(range(start + 1, a.version + 1))
        assert versions(b) == versions(a)
        assert sent >= 9
        assert a.view["hands"][1] is not None  # review: everything is shown
    async with Api(live_server.url) as api:
        summary = await api.game(gid)
    assert summary["status"] == "finished" and summary["version"] == a.version


async def test_chat_reaches_the_table_and_spectators_may_not_talk(live_server: Any) -> None:
    gid, t0, t1 = await new_game(live_server.url, "chat")
    async with (
        GameClient(live_server.url, gid, t0) as a,
        GameClient(live_server.url, gid, t1) as b,
        GameClient(live_server.url, gid) as watcher,
    ):
        legal_before = b.legal
        reply = await a.chat("I will draw; you should pass")
        assert isinstance(reply, Accepted)
        for c in (b, watcher):
            await c.wait_version(reply.version)
            said = c.events[-1]
            assert said.type == "cloister.Chat"
            assert said.data == {"seat": 0, "text": "I will draw; you should pass"}
        assert b.legal == legal_before
        refused = await watcher.chat("hello")
        assert isinstance(refused, Rejected) and refused.code == "spectator"
        too_long = await b.chat("x" * 501)
        assert isinstance(too_long, Rejected) and too_long.code == "chat_too_long"


async def test_reconnect_resumes_with_exactly_the_missed_events(live_server: Any) -> None:
    gid, t0, t1 = await new_game(live_server.url, "resume")
    hold = asyncio.Event()
    async with (
        GameClient(live_server.url, gid, t0) as a,
        GameClient(live_server.url, gid, t1) as b,
        GameClient(live_server.url, gid) as watcher,
    ):
        assert watcher.seat is None
        start = a.version
        await play_until([a, b], lambda: a.version >= start + 3)
        await watcher.wait_version(a.version)
        seen_before = versions(watcher)
        dropped_at = watcher.version

        await watcher.drop(hold)
        await play_until([a, b], lambda: a.version >= dropped_at + 5)
        assert watcher.version == dropped_at  # really offline meanwhile
        hold.set()
        await watcher.wait_version(a.version, timeout=10)

        assert watcher.connects == 2
        assert versions(watcher) == list(range(seen_before[0], a.version + 1))  # no gap/dup
        # ... and they are the events a spectator gets from the log.
        async with Api(live_server.url) as api:
            log = await api.events(gid)
        expected = [e for e in log["events"] if seen_before[0] <= e["version"] <= a.version]
        got = [
            {"version": e.version, "type": e.type, "data": e.data, "text": e.text}
            for e in watcher.events
        ]
        assert got == expected
        assert watcher.view == (await _view(live_server.url, gid))["view"]


async def _view(url: str, gid: str, token: str | None = None) -> dict[str, Any]:
    async with Api(url) as api:
        return await api.view_at(gid, None, token)


async def test_resent_command_id_is_applied_once(live_server: Any) -> None:
    gid, t0, _ = await new_game(live_server.url, "dup")
    async with GameClient(live_server.url, gid, t0) as a:
        before = a.version
        first = await a.send({"type": "Draw"}, command_id="cmd-once")
        again = await a.send({"type": "Draw"}, command_id="cmd-once")
        assert isinstance(first, Accepted) and not first.duplicate
        assert isinstance(again, Accepted) and again.duplicate
        # cloister.CommandAccepted, then the Draw it produced.
        assert again.version == first.version == before + 2
        # A different id for the same move is a new command, and now out of turn.
        other = await a.send({"type": "Draw"})
        assert isinstance(other, Rejected) and other.code == "not_your_turn"
    async with Api(live_server.url) as api:
        log = await api.events(gid)
    assert [e["type"] for e in log["events"]].count("CardDrawn") == 1


async def test_command_sent_while_offline_is_resent_once_after_reconnect(
    live_server: Any,
) -> None:
    gid, t0, t1 = await new_game(live_server.url, "offline")
    hold = asyncio.Event()
    async with GameClient(live_server.url, gid, t0) as a:
        before = a.version
        # The same command already reached the server over another connection (as if the
        # reply was lost in the drop): the resend must be answered "duplicate".
        async with GameClient(live_server.url, gid, t0) as twin:
            applied = await twin.send({"type": "Draw"}, command_id="lost-reply")
        await a.drop(hold)
        pending = asyncio.create_task(a.send({"type": "Draw"}, command_id="lost-reply"))
        await asyncio.sleep(0.05)
        assert not pending.done()
        hold.set()
        reply = await asyncio.wait_for(pending, 10)
        assert isinstance(reply, Accepted) and reply.duplicate
        # cloister.CommandAccepted, then the CardDrawn it produced.
        assert reply.version == applied.version == before + 2
        assert a.version == before + 2 and a.connects == 2

        # A fresh command sent while offline is applied exactly once after the reconnect.
        hold2 = asyncio.Event()
        async with GameClient(live_server.url, gid, t1) as b:
            await b.wait_version(before + 2)
            await b.drop(hold2)
            task = asyncio.create_task(b.send({"type": "Draw"}))
            await asyncio.sleep(0.05)
            hold2.set()
            reply = await asyncio.wait_for(task, 10)
            assert isinstance(reply, Accepted) and not reply.duplicate
            assert reply.version == before + 4  # two commands, each CommandAccepted + CardDrawn
    async with Api(live_server.url) as api:
        log = await api.events(gid)
    assert [e["type"] for e in log["events"]].count("CardDrawn") == 2


class _FakeSocket:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, text: str) -> None:
        self.sent.append(text)


async def test_version_gap_asks_for_resync() -> None:
    client = GameClient("http://127.0.0.1:1", "g-x")
    client.version = 5
    ws = _FakeSocket()
    gap = Update(version=9, events=[WireEvent(8, "Passed", {}), WireEvent(9, "Passed", {})],
                 view={}, legal=[], to_act=[])  # fmt: skip
    await client._on_message(ws, gap)  # type: ignore[arg-type]
    assert [decode_client(m) for m in ws.sent] == [Resync(since=5)]
    assert client.version == 5  # the gapped update was not applied
    # The resync answer fills the gap; an old update after it is ignored.
    fill = Update(version=9, events=[WireEvent(v, "Passed", {}) for v in (6, 7, 8, 9)],
                  view={"n": 9}, legal=[], to_act=[])  # fmt: skip
    await client._on_message(ws, fill)  # type: ignore[arg-type]
    await client._on_message(ws, gap)  # type: ignore[arg-type]
    assert client.version == 9 and versions(client) == [6, 7, 8, 9]
    assert client.view == {"n": 9} and len(ws.sent) == 1


async def test_spectator_and_bad_token(live_server: Any) -> None:
    gid, _, _ = await new_game(live_server.url, "spect")
    async with GameClient(live_server.url, gid) as watcher:
        reply = await watcher.send({"type": "Draw"})
        assert isinstance(reply, Rejected) and reply.code == "spectator"
        assert watcher.legal == [] and watcher.view["hands"] == [None, None]
    with pytest.raises(ServerRefused) as info:
        async with GameClient(live_server.url, gid, "not-a-token"):
            pass
    assert info.value.code == "bad_token"
    with pytest.raises(ServerRefused) as info:
        async with GameClient(live_server.url, "g-missing", None):
            pass
    assert info.value.code == "game_not_found"


async def test_http_helpers(live_server: Any) -> None:
    async with Api(live_server.url) as api:
        types = await api.game_types()
        assert "high-card" in [t["name"] for t in types]
        game = await api.create_game("high-card", {"players": 2}, seed=7)
        gid = game["id"]
        assert game["status"] == "open"
        bot = await api.add_bot(gid, seat=1)
        assert bot["seat"] == 1
        seat, token = await api.join(gid, "ann")
        assert seat == 0 and token
        assert gid in [g["id"] for g in await api.games()]
        mine = await api.events(gid, token)
        assert mine["audience"] == "seat 0"
        at = await api.view_at(gid, mine["version"], token)
        assert at["view"]["hands"][0]
        with pytest.raises(ApiError) as info:
            await api.create_game("no-such-game")
        assert info.value.code == "unknown_game_type" and info.value.status == 404
        with pytest.raises(ApiError) as info:
            await api.join(gid, "late")
        assert info.value.status == 409


def test_sync_facade(live_server: Any) -> None:
    gid, t0, t1 = asyncio.run(new_game(live_server.url, "sync"))
    with (
        SyncGameClient(live_server.url, gid, t0) as a,
        SyncGameClient(live_server.url, gid, t1) as b,
    ):
        for _ in range(4):
            mover = a if a.my_turn else b
            if not mover.my_turn:
                # Between a move and the other seat's update neither may be to act yet.
                b.wait_for(lambda: a.my_turn or b.my_turn, timeout=5)
                continue
            reply = mover.send(draw_first(mover.legal))
            assert isinstance(reply, Accepted)
        # Each client learns the last version from its own socket: wait on both.
        last = max(a.version, b.version)
        a.wait_for(lambda: a.version >= last, timeout=5)
        b.wait_for(lambda: b.version >= last, timeout=5)
        assert a.version == b.version >= 7


async def test_welcome_with_a_gap_asks_for_resync() -> None:
    client = GameClient("http://127.0.0.1:1", "g-x", since=5)
    ws = _FakeSocket()
    welcome = Welcome(v=1, game="g-x", game_type="high-card", seat=None, status="running",
                      version=9, view={}, legal=[], to_act=[],
                      events=[WireEvent(8, "Passed", {}), WireEvent(9, "Passed", {})])  # fmt: skip
    await client._on_welcome(ws, welcome)  # type: ignore[arg-type]
    assert [decode_client(m) for m in ws.sent] == [Resync(since=5)]
    assert client.version == 5 and client.events == []
