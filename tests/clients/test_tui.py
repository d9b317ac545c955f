"""The full-screen terminal UI driven by keys only (Textual's pilot), against a real server
and a real Redis: a whole Illumination duel against a bot, a Road to Enlightenment turn,
watching and replay stepping, the 100x30 layout, and the refusal without a terminal.

The test reads what it must type from the screen's own words (each move's code), and only
ever presses keys: what a person at the keyboard could do.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual import events

from clients.client import Api, GameClient
from clients.tui.app import CloisterApp
from clients.tui.moves import Move
from clients.tui.source import LiveSource
from clients.tui.widgets import ConfirmScreen, HelpScreen, MovesScreen

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
            await until(pilot, lambda: client.version > before or client.finished, 30)
            sent += 1
            assert sent < 400, "the duel does not end"
        await until(pilot, lambda: app.frame is not None and app.frame.finished, 10)
        await assert_fits(pilot, "The game is over")
        assert by_menu > 3
        result = client.result or {}
    async with Api(url) as api:
        summary = await api.game(gid)
    assert summary["status"] == "finished"
    assert result.get("summary")
