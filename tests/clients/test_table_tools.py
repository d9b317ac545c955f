"""The Python client's undo, fork and report calls, and the terminal UI's undo key (issue
13, items 3, 6 and 7), against a real server."""

from __future__ import annotations

from typing import Any, cast

import pytest

from clients.client import Api, ApiError, GameClient
from protocol import Accepted

from .test_tui import assert_fits, live_app, press, screen_lines, until

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
        await assert_fits(pilot, "1) passes")  # the log has the line before the undo
        await press(pilot, "ctrl+z")
        await assert_fits(pilot, "Taken back: your last move")
        # The log already written is written again: the pass is marked, the undo said.
        await assert_fits(pilot, "(taken back)", "takes back")
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


async def test_tui_replay_of_a_running_game_verifies_once_it_has_ended(
    live_server: Any,
) -> None:
    """A replay opened while the game runs: v says why not, in full (the sentence wraps);
    once the game has ended, v verifies without reopening the replay (it asks again)."""
    from clients.tui.app import CloisterApp
    from clients.tui.source import ReplaySource

    from .helpers import new_game, play_until
    from .test_tui import SIZE

    gid, t0, t1 = await new_game(live_server.url, "tools-late")
    async with Api(live_server.url) as api:
        source = ReplaySource(api, gid)
        await source.start()
        assert source.summary["status"] == "running"
        app = CloisterApp(source)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.frame is not None)
            await press(pilot, "v")
            # The whole sentence, to its last words, though it is wider than the screen.
            await assert_fits(
                pilot, "Only a finished game can be verified: this one is running", "ended."
            )
            async with (
                GameClient(live_server.url, gid, t0) as a,
                GameClient(live_server.url, gid, t1) as b,
            ):
                await play_until([a, b], lambda: a.status == "finished")
            await press(pilot, "v")
            await assert_fits(pilot, "Verified")
            assert app.frame is not None and app.frame.last_version == source.last
            assert source.summary["status"] == "finished"
            await press(pilot, "end")
            await until(pilot, lambda: app.frame is not None and app.frame.finished)


async def test_tui_fork_offers_each_seat_to_a_person_or_a_bot(
    live_server: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """f asks who takes each seat; the seat's number key changes it (me, a person, each bot
    level). A person's seat is left open, and the line says how they take it."""
    from clients.tui.app import CloisterApp
    from clients.tui.source import ReplaySource

    from .test_tui import SIZE

    monkeypatch.setenv("CLOISTER_CONFIG", str(tmp_path))
    async with Api(live_server.url) as api:
        game = await api.create_game("high-card", {"players": 2}, "tools-fork2", bots=[{}, {}])
        gid = game["id"]
        await until_finished(api, gid)
        source = ReplaySource(api, gid)
        await source.start()
        app = CloisterApp(source)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.frame is not None)
            await press(pilot, *["right"] * 9)
            await until(pilot, lambda: app.frame is not None and app.frame.version == 9)
            await press(pilot, "f")
            await assert_fits(pilot, "Who takes each seat?", "1  Player 1", ": me", "a bot")
            for _ in range(5):  # seat 2 cycles through its choices to "a person"
                if "2  Player 2" in "\n".join(screen_lines(app)) and "a person" in "\n".join(
                    screen_lines(app)
                ):
                    break
                await press(pilot, "2")
                await pilot.pause(0.05)
            await assert_fits(pilot, "a person")
            await press(pilot, "y")
            await until(pilot, lambda: app.forked is not None)
            await assert_fits(pilot, "Forked: game", "for a person")
        forked = app.forked
        assert forked is not None
        assert f"cloister join {forked['id']} --seat 1" in app.said
        assert f"/#/game/{forked['id']}" in app.said
        summary = await api.game(forked["id"])
        taken = {s["seat"]: s["taken"] for s in summary["seats"]}
        assert taken == {0: True, 1: False} and summary["status"] == "open"


def test_fork_plan_gives_me_one_seat_at_most() -> None:
    from clients.tui.fork import ME, PERSON, ForkPlan
    from clients.tui.frame import Seat

    plan = ForkPlan.default([Seat(0, "A"), Seat(1, "B"), Seat(2, "C")], ["greedy", "random"])
    assert plan.choice == [ME, "greedy", "greedy"]
    plan.cycle(1)  # B: random (after greedy), never "me" while A is mine
    assert plan.choice[1] == "random"
    plan.cycle(1)
    assert plan.choice[1] == PERSON
    plan.cycle(0)  # A: from me to a person; now B or C may be me
    assert plan.choice[0] == PERSON and plan.me is None
    assert plan.options(2)[0] == ME
    assert plan.bots() == [{"seat": 2, "level": "greedy"}]
    assert [s.seat for s in plan.open_seats] == [0, 1]


async def test_plain_play_undoes_and_says_why_not(live_server: Any, tmp_path: Any) -> None:
    """`cloister play --plain`: `undo` takes back my last move (also when the turn has
    passed to another seat), and a refused one prints the server's reason."""
    from .test_cli import run_cli

    async with Api(live_server.url) as api:
        gid, tokens, me = await _table(api)
    stdin = "pass\nundo\nundo\nq\n"
    code, out, err = await run_cli(
        ["play", gid, f"--token={tokens[me]}", "--plain"], live_server.url, tmp_path, stdin
    )
    assert code == 0, err
    assert "Taken back: your last move." in out
    assert "takes back their last move" in out  # the log's line, as every viewer reads it
    assert "Cannot undo: you have no move to take back" in out
    async with Api(live_server.url) as api:
        log = (await api.events(gid))["events"]
    assert [e["data"]["commands"] for e in log if e["type"] == "cloister.Undone"] == [1]


def test_a_sentence_that_arrives_with_no_screen_left_is_kept_not_a_crash() -> None:
    """An answer (the undo's sentence) can reach the app while it closes, its screen gone:
    the app keeps the sentence and draws nothing (it crashed with NoMatches before)."""
    from clients.tui.app import CloisterApp
    from clients.tui.source import ReplaySource

    app = CloisterApp(ReplaySource(cast(Any, None), "g-none"))
    app.message("Taken back: your last move.")
    assert app.said == "Taken back: your last move."
