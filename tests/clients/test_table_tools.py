"""The Python client's undo, fork and report calls, and the terminal UI's undo key (issue
13, items 3, 6 and 7), against a real server."""

from __future__ import annotations

from typing import Any

import pytest

from clients.client import Api, ApiError, GameClient
from protocol import Accepted

from .test_tui import assert_fits, live_app, press, until

pytestmark = pytest.mark.redis


async def _table(api: Api) -> tuple[str, list[str], int]:
    game = await api.create_game("high-card", {"players": 2}, "tools")
    tokens = [(await api.join(game["id"], n, i))[1] for i, n in enumerate(["ann", "bob"])]
    view = await api.view_at(game["id"], token=tokens[0])
    return game["id"], tokens, 0 if view["legal"] else 1


async def test_client_undo_fork_and_report(live_server: Any) -> None:
    async with Api(live_server.url) as api:
        gid, tokens, me = await _table(api)
        status = await api.undo_status(gid, tokens[me])
        assert status["allowed"] is False and status["reason"]
        with pytest.raises(ApiError) as refused:
            await api.undo(gid, tokens[me])
        assert refused.value.code == "undo_not_allowed"
        before = await api.view_at(gid, token=tokens[me])

        async with GameClient(live_server.url, gid, tokens[me]) as client:
            await client.send({"type": "Pass"})
            assert (await client.undo_status())["allowed"]
            done = await client.undo()
            assert done["to_version"] == before["version"] and done["commands"] == 1
            await client.wait_version(done["version"])
        after = await api.view_at(gid, token=tokens[me])
        assert after["view"] == before["view"]
        report = await api.report(gid, "looks odd", tokens[1 - me])
        assert report["audience"] == f"seat {1 - me}" and report["text"] == "looks odd"
        with pytest.raises(ApiError) as early:
            await api.fork(gid, 8, "ann")
        assert early.value.code == "game_not_finished"


async def test_tui_undo_key(live_server: Any) -> None:
    async with Api(live_server.url) as api:
        gid, tokens, me = await _table(api)
    async with live_app(live_server.url, gid, tokens[me], "play") as (_app, pilot, client):
        await press(pilot, "ctrl+z")
        await assert_fits(pilot, "Cannot undo")
        version = client.version
        await client.send({"type": "Pass"})
        await until(pilot, lambda: client.version > version)
        await press(pilot, "ctrl+z")
        await assert_fits(pilot, "Taken back: your last move")
        await until(pilot, lambda: client.my_turn)
        await press(pilot, "ctrl+q")


async def test_tui_undoes_two_moves(live_server: Any) -> None:
    """Two of my commands in a row (a secret choice changed), taken back one Ctrl+Z at a
    time over the socket; the screen says how many more may go."""
    async with Api(live_server.url) as api:
        gid, tokens, me = await _table(api)
        other_client = GameClient(live_server.url, gid, tokens[1 - me])
        live = live_app(live_server.url, gid, tokens[me], "play")
        async with other_client as other, live as (_app, pilot, client):
            await client.send({"type": "Pass"})
            await other.wait_version(client.version)
            await other.send({"type": "Pass"})
            await client.wait_version(other.version)
            start = client.version
            for c in [c for c in client.legal if c["type"] == "PlayCard"]:
                assert isinstance(await client.send(c), Accepted)
            assert client.version == start + 4  # two choices, each with its record
            await press(pilot, "ctrl+z")
            await assert_fits(pilot, "Taken back: your last move. You may take back 1")
            await until(pilot, lambda: client.version == start + 5)
            await press(pilot, "ctrl+z")
            await until(pilot, lambda: client.version == start + 6)
            await assert_fits(pilot, "Taken back: your last move.")
            await press(pilot, "ctrl+q")
        log = (await api.events(gid))["events"]
        undos = [e for e in log if e["type"] == "cloister.Undone"]
        assert [u["data"]["to_version"] for u in undos] == [start + 2, start]
        after = await api.view_at(gid, token=tokens[me])
        assert after["view"] == (await api.view_at(gid, start, tokens[me]))["view"]


def test_the_terminal_log_marks_moves_taken_back() -> None:
    from clients.tui.frame import log_lines
    from protocol import WireEvent

    events = [
        WireEvent(5, "cloister.CommandAccepted", {"seat": 0, "at": 1}, ""),
        WireEvent(6, "Passed", {"seat": 0}, "Ann passes"),
        WireEvent(7, "cloister.Undone", {"to_version": 4, "seat": 0}, "Ann takes back it"),
        WireEvent(8, "Passed", {"seat": 0}, "Ann passes"),
    ]
    assert log_lines(events) == [
        (6, "Ann passes (taken back)"),
        (7, "Ann takes back it"),
        (8, "Ann passes"),
    ]


async def test_tui_replay_verifies_and_forks_a_finished_game(
    live_server: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a finished game's replay, v shows the server's verify verdict and f (confirmed)
    forks at the version shown, with me in a seat whose token is kept for `cloister play`."""
    from clients.cli import TokenStore
    from clients.tui.app import CloisterApp
    from clients.tui.source import ReplaySource

    from .test_tui import SIZE

    monkeypatch.setenv("CLOISTER_CONFIG", str(tmp_path))
    async with Api(live_server.url) as api:
        game = await api.create_game("high-card", {"players": 2}, "tools-fork", bots=[{}, {}])
        gid = game["id"]
        await until_finished(api, gid)
        source = ReplaySource(api, gid)
        await source.start()
        app = CloisterApp(source)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.frame is not None)
            await press(pilot, "v")
            await assert_fits(pilot, "Verified")
            await press(pilot, *["right"] * 9)
            await until(pilot, lambda: app.frame is not None and app.frame.version == 9)
            await press(pilot, "f")
            await assert_fits(pilot, "Fork here, at version 9")
            await press(pilot, "y")
            await until(pilot, lambda: app.forked is not None)
            await assert_fits(pilot, "Forked: game", "cloister play")
            # no q: leaving run_test closes the app (a q racing its teardown fails under load)
        forked = app.forked
        assert forked is not None and forked["forked_from"] == {"game": gid, "version": 9}
        seat, token = TokenStore().find(live_server.url, forked["id"]) or (None, None)
        assert seat == forked["you"]["seat"] and token == forked["you"]["token"]
        view = await api.view_at(forked["id"], token=token)
        assert view["audience"] == f"seat {seat}"


async def until_finished(api: Api, gid: str) -> None:
    import asyncio

    for _ in range(200):
        if (await api.game(gid))["status"] == "finished":
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the bots did not finish")
