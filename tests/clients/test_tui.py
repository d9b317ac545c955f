"""The full-screen terminal UI driven by keys only (Textual's pilot), against a real server
and a real Redis: a whole Illumination duel against a bot, a Road to Enlightenment turn,
watching and replay stepping, the 100x30 layout, and the refusal without a terminal.

The test reads what it must type from the screen's own words (each move's code), and only
ever presses keys: what a person at the keyboard could do.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual import events

from clients.client import Api, GameClient
from clients.tui.app import CloisterApp
from clients.tui.moves import Move
from clients.tui.source import LiveSource, ReplaySource
from clients.tui.widgets import ConfirmScreen, HelpScreen, MovesScreen

from .helpers import new_game, play_until
from .test_cli import ROOT, cli_env

pytestmark = pytest.mark.redis

SIZE = (100, 30)


def screen_lines(app: CloisterApp) -> list[str]:
    """The screen as text, one string per row (what a tmux capture would show)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def keys_for(text: str) -> list[str]:
    names = {" ": "space", "?": "question_mark", "[": "left_square_bracket"}
    return [names.get(ch, ch) for ch in text]


async def press(pilot: Any, *keys: str) -> None:
    """Key presses, as the terminal driver delivers them.

    ``pilot.press`` waits for the whole process to go idle after every key; with the test
    server's threads in this process that costs up to a second per key on a busy machine.
    The events are the same; the test waits for what it expects to see instead.
    """
    app = pilot.app
    for key in keys:
        char = {"space": " ", "question_mark": "?", "left_square_bracket": "["}.get(key)
        if char is None and len(key) == 1:
            char = key
        app.post_message(events.Key(key, char))
        await asyncio.sleep(0)


async def until(pilot: Any, ok: Callable[[], bool], timeout: float = 20.0) -> None:
    # asyncio.sleep, not pilot.pause: a pause forces a full repaint, 50 ms of CPU on a busy
    # 2-core machine; the app repaints by itself when something changed.
    deadline = time.monotonic() + timeout
    while not ok():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting on the UI")
        await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def live_app(url: str, gid: str, token: str | None, mode: str) -> AsyncIterator[Any]:
    async with Api(url) as api, GameClient(url, gid, token, since=0) as client:
        source = LiveSource(api, client, mode)  # type: ignore[arg-type]
        await source.start()
        app = CloisterApp(source)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.frame is not None)
            yield app, pilot, client


async def assert_fits(pilot: Any, *must_show: str, timeout: float = 10.0) -> None:
    """The screen is 100x30 and shows each of ``must_show`` (waits for it to be drawn)."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    while True:
        lines = screen_lines(app)
        screen = "\n".join(lines)
        if len(lines) == SIZE[1] and all(w in screen for w in must_show):
            break
        if time.monotonic() > deadline:
            break
        await pilot.pause(0.05)
    assert len(lines) == SIZE[1]
    assert all(len(line) <= SIZE[0] for line in lines)
    screen = "\n".join(lines)
    for words in must_show:
        assert words in screen, f"{words!r} is not on the screen:\n{screen}"


# -- Illumination ---------------------------------------------------------------------------
PRIORITY = [
    "ChooseExiliumSpace", "ChooseCompletionToken", "DiscardItem", "ClaimRitual", "PlaceTile",
    "MoveActiveTile", "SendToSheepPen", "ChooseLine", "EndTurn", "Pass",
]  # fmt: skip


def pick(moves: list[Move]) -> Move:
    by_type: dict[str, list[Move]] = {}
    for m in moves:
        by_type.setdefault(m.command["type"], []).append(m)
    for kind in PRIORITY:
        if kind in by_type:
            return by_type[kind][0]
    return moves[0]


async def test_illumination_duel_against_a_bot_by_keys(live_server: Any) -> None:
    url = live_server.url
    async with Api(url) as api:
        game = await api.create_game("illumination", {}, seed="tui-duel")
        gid = game["id"]
        _, token = await api.join(gid, "ann", 0)
        await api.add_bot(gid, 1, "greedy")

    async with live_app(url, gid, token, "play") as (app, pilot, client):
        await until(pilot, lambda: client.my_turn)
        # The first screen: the board in the game's terms, the sentence, and room for all.
        await assert_fits(pilot, "Book 1", "Book 3", "Monastery", "Battle cards", "Reverent (you)",
                    "chooses a row or column", "Your move", "help")  # fmt: skip
        # Help and the list of legal moves are one key away.
        await press(pilot, "question_mark")
        await assert_fits(pilot, "row 2 / col 3", "Typed moves")
        await press(pilot, "escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await press(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, MovesScreen))
        await assert_fits(pilot, "Choose a row or column of archways", "Take row 1 to Book 1")
        await press(pilot, "escape")
        await until(pilot, lambda: not isinstance(app.screen, MovesScreen))
        # A move that is not legal is explained inline, and nothing is sent.
        version = client.version
        await press(pilot, *keys_for("claim wine 9"), "enter")
        await assert_fits(pilot, "No legal move is “claim wine 9”")
        assert client.version == version

        sent = by_menu = 0
        while not client.finished:
            if not client.my_turn:
                await until(pilot, lambda: client.my_turn or client.finished, 30)
                continue
            await until(
                pilot, lambda: app.frame is not None and app.frame.version == client.version
            )
            move = pick(list(app.moves))
            before = client.version
            if sent % 7 == 3:
                # From the menu: open it, filter by the move's code, send the highlighted one.
                await press(pilot, "enter")
                await until(pilot, lambda: isinstance(app.screen, MovesScreen))
                await press(pilot, *keys_for(move.code), "enter")
                by_menu += 1
            else:
                await press(pilot, *keys_for(move.code), "enter")
            if move.confirm:
                await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
                await assert_fits(pilot, move.confirm)
                await press(pilot, "y")
            await until(pilot, lambda b=before: client.version > b or client.finished, 30)  # type: ignore[misc]
            sent += 1
            assert sent < 400, "the duel does not end"
        await until(pilot, lambda: app.frame is not None and app.frame.finished, 10)
        await assert_fits(pilot, "The game is over", "Final score")
        assert by_menu > 3
        result = client.result or {}
    async with Api(url) as api:
        summary = await api.game(gid)
    assert summary["status"] == "finished"
    assert result.get("summary")


# -- Road to Enlightenment -----------------------------------------------------------------
ROAD_PRIORITY = [
    "ConfirmSlots", "DeclareDiplomacy", "SkipForge", "SkipGift", "DeclareReorganize",
    "ReorganizePick", "DeclareCensus", "SupportPass", "Respond", "DefenseDone", "Reroll",
    "ParleyAnswer", "ExchangeDecision", "ExchangeOffer", "ArrestChoice", "RussiaMove",
    "Phase3Choices", "HelpUpkeep", "AbandonCity", "DraftPick", "RefillHand",
]  # fmt: skip


def pick_road(moves: list[Move], placed: int) -> Move:
    by_type: dict[str, list[Move]] = {}
    for m in moves:
        by_type.setdefault(m.command["type"], []).append(m)
    if "PlaceLuminary" in by_type and placed < 2:
        # Phase 1: one luminary into slot 1, one into slot 2, then confirm.
        slot = placed + 1
        return next(m for m in by_type["PlaceLuminary"] if m.command["slot"] == slot)
    for kind in ROAD_PRIORITY:
        if kind in by_type:
            return by_type[kind][0]
    return moves[0]


async def test_road_turn_by_keys(live_server: Any) -> None:
    url = live_server.url
    async with Api(url) as api:
        game = await api.create_game("road-to-enlightenment", {"players": 2}, seed="tui-road")
        gid = game["id"]
        _, token = await api.join(gid, "ann", 0)
        await api.add_bot(gid, 1, "greedy")

    async with live_app(url, gid, token, "play") as (app, pilot, client):
        await until(pilot, lambda: client.my_turn)
        await assert_fits(pilot, "Turn 1 of 5", "France (you)", "phase 1", "Your hand",
                          "Your slot 1", "Your move")  # fmt: skip
        types: list[str] = []
        placed = sent = 0
        while client.view["turn"] == 1 and not client.finished:
            if not client.my_turn:
                await until(pilot, lambda: client.my_turn or client.view["turn"] > 1, 30)
                continue
            await until(
                pilot, lambda: app.frame is not None and app.frame.version == client.version
            )
            move = pick_road(list(app.moves), placed)
            before = client.version
            await press(pilot, *keys_for(move.code), "enter")
            await until(pilot, lambda b=before: client.version > b, 30)  # type: ignore[misc]
            if move.command["type"] == "PlaceLuminary":
                placed += 1
            types.append(move.command["type"])
            sent += 1
            assert sent < 60, types
        # A whole turn: planning, both slots' actions, and the draft at the end.
        assert {"PlaceLuminary", "ConfirmSlots", "DraftPick"} <= set(types), types
        assert any(t.startswith("Declare") for t in types), types
        await until(pilot, lambda: app.frame is not None and app.frame.version == client.version)
        await assert_fits(pilot, "Turn 2 of 5")
        log = "\n".join(str(line) for line in app.query_one("#log").lines)  # type: ignore[attr-defined]
        assert log.strip()


# -- watching and replay -------------------------------------------------------------------
async def test_watch_follows_a_game_as_a_spectator(live_server: Any) -> None:
    gid, t0, t1 = await new_game(live_server.url, "tui-watch")
    async with live_app(live_server.url, gid, None, "watch") as (app, pilot, watcher):
        await assert_fits(pilot, "watching", "High Card", "round 1 of 3")
        assert app.query("#move") == [] or not app.query("#move")  # no move line for a spectator
        async with (
            GameClient(live_server.url, gid, t0) as a,
            GameClient(live_server.url, gid, t1) as b,
        ):
            await play_until([a, b], lambda: a.finished)
        await until(pilot, lambda: app.frame is not None and app.frame.finished, 20)
        await assert_fits(pilot, "The game is over")
        lines = [str(x) for x in app.query_one("#log").lines]  # type: ignore[attr-defined]
        assert any("draws" in line for line in lines), lines
        # The spectator's screen never shows a hand: every card it draws is [?].
        assert watcher.seat is None
        await press(pilot, "question_mark")
        await assert_fits(pilot, "You are watching")
        await press(pilot, "escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await press(pilot, "q")
        await until(pilot, lambda: app.return_value == 0 or not app.is_running, 10)


async def test_replay_steps_back_and_forth(live_server: Any) -> None:
    url = live_server.url
    gid, t0, t1 = await new_game(url, "tui-replay")
    async with GameClient(url, gid, t0) as a, GameClient(url, gid, t1) as b:
        await play_until([a, b], lambda: a.finished)
        last = a.version
    async with Api(url) as api:
        source = ReplaySource(api, gid)
        await source.start()
        app = CloisterApp(source)
        async with app.run_test(size=SIZE) as pilot:
            at = lambda v: app.frame is not None and app.frame.version == v  # noqa: E731
            await until(pilot, lambda: at(0))
            await assert_fits(pilot, f"replay, version 0 of {last}")
            # A burst of keys moves as far as it asks (a quicker key never gets lost).
            await press(pilot, *["right"] * 7)
            await until(pilot, lambda: at(7))
            await press(pilot, "left", "left", "left", "left")
            await until(pilot, lambda: at(3))
            await press(pilot, "left")
            await until(pilot, lambda: at(2))
            await press(pilot, "end")
            await until(pilot, lambda: at(last))
            await assert_fits(pilot, f"version {last} of {last}", "The game is over")
            await press(pilot, "home")
            await until(pilot, lambda: at(0))
            # ] jumps to the next version with a line in the log, skipping bookkeeping.
            await press(pilot, "right_square_bracket")
            await until(pilot, lambda: app.frame is not None and app.frame.version > 0)
            v = app.frame.version
            assert v in {e.version for e in source.events if e.text}
            await assert_fits(pilot, "▶")  # the current version's line is marked in the log
            # Past the end is the end; before the start is the start.
            await press(pilot, "pagedown", "pagedown", "pagedown", "pagedown", "pagedown")
            await until(pilot, lambda: at(min(last, v + 50)))
            await press(pilot, "q")


async def test_full_screen_commands_need_a_terminal(live_server: Any, tmp_path: Any) -> None:
    gid, t0, _ = await new_game(live_server.url, "tui-notty")
    for args in (["play", gid, f"--token={t0}"], ["watch", gid], ["replay", gid]):
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "clients.cli", *args,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=cli_env(live_server.url, tmp_path),
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(b""), 30)
        assert proc.returncode == 1, (args, out, err)
        lines = err.decode().strip().splitlines()
        assert len(lines) == 1, lines
        assert "needs a terminal" in lines[0] and "--plain" in lines[0]
        assert "\x1b" not in out.decode() + err.decode()  # no escape codes into a pipe


async def test_campus_galli_fits_100_by_30(live_server: Any) -> None:
    url = live_server.url
    async with Api(url) as api:
        game = await api.create_game("campus-galli", {"players": 2}, seed="tui-cg")
        gid = game["id"]
        _, token = await api.join(gid, "ann", 0)
        await api.add_bot(gid, 1, "greedy")
    async with live_app(url, gid, token, "play") as (app, pilot, client):
        await until(pilot, lambda: client.my_turn)
        await until(pilot, lambda: app.frame is not None and app.frame.version == client.version)
        await assert_fits(pilot, "selects an action card", "Players", " 1 2 3 4 5 6 7 8 9 0 1",
                          "14 ", "Buildings", "Your move")  # fmt: skip
        move = next(m for m in app.moves if m.command["type"] == "SelectActionCard")
        before = client.version
        await press(pilot, *keys_for(move.code), "enter")
        await until(pilot, lambda: client.version > before, 30)
        await assert_fits(pilot, f"Done: {move.label}")
