"""The terminal UI shows the clocks ticking and offers leaving and retaking the seat (issue
13, items 1, 2 and 7), by keys only, against a real server."""

from __future__ import annotations

from typing import Any

import pytest

from clients.client import Api
from clients.tui.clocks import format_clock

from .test_tui import assert_fits, keys_for, live_app, press, screen_lines, until

pytestmark = pytest.mark.redis


def test_format_clock() -> None:
    assert format_clock(90) == "1:30"
    assert format_clock(9.2) == "0:10"
    assert format_clock(3723) == "1:02:03"
    assert format_clock(0) == "0:00"


async def test_clocks_tick_and_the_seat_is_left_and_retaken(live_server: Any) -> None:
    async with Api(live_server.url) as api:
        game = await api.create_game("high-card", {"players": 2, "clock": "move:90"}, "tui-clock")
        _, t0 = await api.join(game["id"], "ann", 0)
        await api.join(game["id"], "bob", 1)
    async with live_app(live_server.url, game["id"], t0, "play") as (app, pilot, client):
        await assert_fits(pilot, "Clocks:", "Player 1 (you) ▶ 1:", "Player 2 (bob) 1:30")
        first = next(line for line in screen_lines(app) if "Clocks:" in line)
        await until(
            pilot, lambda: all(first != line for line in screen_lines(app) if "Clocks:" in line)
        )  # it counts down by itself
        await press(pilot, *keys_for("leave"), "enter")
        await assert_fits(pilot, "[bot plays]", "type retake")
        assert client.stand_in() is not None
        await press(pilot, *keys_for("retake"), "enter")
        await assert_fits(pilot, "You have your seat back")
        await until(pilot, lambda: client.stand_in() is None)
        await press(pilot, "ctrl+q")
