"""The game page shows the clocks ticking, and offers leaving the table and taking the seat
back (issue 13, items 1, 2 and 7)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import Page, api

pytestmark = pytest.mark.browser

LOG_HAS = "(t) => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes(t))"  # noqa: E501


def test_clocks_tick_and_the_seat_can_be_left_and_retaken(
    base_url: str, browser: Any, screenshots: Path
) -> None:
    game = api(
        base_url,
        "POST",
        "/api/games",
        {
            # a long game, so the bots standing in do not finish it before the retake
            "type": "illumination",
            "options": {"mode": "duel", "clock": "move:90"},
            "join": {"name": "Ann", "seat": 0},
            "bots": [{"seat": 1}],
        },
    )
    gid, token = game["id"], game["you"]["token"]
    p = Page(browser, base_url)
    try:
        p.go("#/")
        record = json.dumps({"seat": 0, "token": token, "name": "Ann"})
        p.js(f"localStorage.setItem('cloister:seat:{gid}', {json.dumps(record)})")
        p.go(f"#/game/{gid}")
        mine = p.page.locator(".clock-slot[data-seat='0'] .clock")
        mine.wait_for()
        assert "running" in (mine.get_attribute("class") or "")
        first = mine.inner_text()
        assert re.fullmatch(r"1:[23]\d", first), first
        other = p.page.locator(".clock-slot[data-seat='1'] .clock").inner_text()
        assert other == "1:30"  # the bot's seat is not to act: full time, not running
        time.sleep(2.2)
        assert mine.inner_text() != first  # counts down on its own
        screenshots_path = screenshots / "clock-running.png"
        p.page.screenshot(path=str(screenshots_path))

        # leave the table: the bot plays on for seat 0, the page offers the seat back
        p.page.once("dialog", lambda d: d.accept())
        p.page.get_by_role("button", name="Leave the table").click()
        banner = p.page.locator(".stand-in-banner")
        banner.wait_for()
        assert "is playing for you" in banner.inner_text()
        p.page.locator(".clock-slot[data-seat='0'] .stand-in").wait_for()
        p.page.wait_for_function(LOG_HAS, arg="who left the table")
        p.page.screenshot(path=str(screenshots / "clock-stand-in.png"))
        p.page.get_by_role("button", name="Take my seat back").click()
        banner.wait_for(state="detached")
        p.page.wait_for_function(LOG_HAS, arg="takes the seat again")
        assert not p.errors, p.errors
    finally:
        p.close()
