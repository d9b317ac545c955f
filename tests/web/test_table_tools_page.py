"""The game page's Undo (enabled only when allowed, its reason otherwise) and Report a
problem, and the replay's Fork here (issue 13, items 3, 6 and 7)."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from clients.client import GameClient
from tests.web.helpers import Page, api

pytestmark = pytest.mark.browser


def _seated_high_card(base_url: str) -> tuple[str, list[str], int]:
    """A two-seat High Card game with Ann and Bob seated: its id, their tokens, and the
    seat that moves first."""
    game = api(base_url, "POST", "/api/games", {"type": "high-card", "options": {"players": 2}})
    gid = game["id"]
    tokens = [
        api(base_url, "POST", f"/api/games/{gid}/seats", {"name": n, "seat": i})["token"]
        for i, n in enumerate(["Ann", "Bob"])
    ]
    view = api(base_url, "GET", f"/api/games/{gid}/view", token=tokens[0])
    return gid, tokens, 0 if view["legal"] else 1


def test_undo_on_the_game_page_and_fork_on_the_replay(
    base_url: str, browser: Any, screenshots: Path
) -> None:
    gid, tokens, me = _seated_high_card(base_url)
    p = Page(browser, base_url)
    try:
        p.go("#/")
        record = json.dumps({"seat": me, "token": tokens[me], "name": ["Ann", "Bob"][me]})
        p.js(f"localStorage.setItem('cloister:seat:{gid}', {json.dumps(record)})")
        p.go(f"#/game/{gid}")
        undo = p.page.locator("#undo-button")
        undo.wait_for()
        p.page.wait_for_function(
            "() => document.querySelector('#undo-button').title.includes('dealt')"
        )
        assert undo.is_disabled()  # nothing of mine to take back: the deal is a horizon
        p.page.locator("button.action", has_text="Pass").first.click()
        p.page.wait_for_selector("#undo-button:not([disabled])")
        p.page.screenshot(path=str(screenshots / "undo-enabled.png"))
        undo.click()
        p.page.wait_for_selector("#log li.undone")
        p.page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')].some((li) => "
            "li.textContent.includes('takes back their last move'))"
        )
        p.page.wait_for_selector("button.action")  # my turn again
        assert p.page.locator("#report-button").is_visible()
    finally:
        p.close()

    # Fork here: a finished game's replay, at a step inside the game
    done = api(
        base_url,
        "POST",
        "/api/games",
        {"type": "high-card", "options": {"players": 2}, "bots": [{}, {}]},
    )
    p = Page(browser, base_url)
    try:
        for _ in range(100):
            if api(base_url, "GET", f"/api/games/{done['id']}")["status"] == "finished":
                break
            p.page.wait_for_timeout(100)
        p.go(f"#/replay/{done['id']}")
        p.page.wait_for_selector("#replay-slider")
        p.page.wait_for_function("() => window.cloister?.replay?.max > 12")
        p.js("window.cloister.replay.go(12)")
        p.page.locator(".fork-box > summary").click()
        p.page.fill("#fork-form input[name=name]", "Teacher")
        p.page.locator("#fork-form button[type=submit]").click()
        p.page.wait_for_url("**/#/game/**")
        p.page.wait_for_selector("#undo-button")
        assert "You play" in p.page.locator(".role").inner_text()
    finally:
        p.close()


async def _two_choices(base: str, gid: str, tokens: list[str], me: int) -> int:
    """Both seats pass; then ``me`` plays one card and changes to the other. Returns the
    version before the two choices."""
    async with GameClient(base, gid, tokens[me]) as a, GameClient(base, gid, tokens[1 - me]) as b:
        await a.send({"type": "Pass"})
        await b.wait_version(a.version)
        await b.send({"type": "Pass"})
        await a.wait_version(b.version)
        start = a.version
        for c in [c for c in a.legal if c["type"] == "PlayCard"]:
            await a.send(c)
        return start


def test_the_game_page_takes_back_two_moves(base_url: str, browser: Any, screenshots: Path) -> None:
    """Two of my commands in a row (a secret choice changed): the Undo button counts them,
    and two clicks take both back."""
    gid, tokens, me = _seated_high_card(base_url)
    # Both pass (over the socket: commands have no HTTP route), then I choose twice.
    with ThreadPoolExecutor(1) as pool:
        start = pool.submit(asyncio.run, _two_choices(base_url, gid, tokens, me)).result()
    p = Page(browser, base_url)
    try:
        p.go("#/")
        record = json.dumps({"seat": me, "token": tokens[me], "name": ["Ann", "Bob"][me]})
        p.js(f"localStorage.setItem('cloister:seat:{gid}', {json.dumps(record)})")
        p.go(f"#/game/{gid}")
        undo = p.page.locator("#undo-button")
        p.page.wait_for_selector("#undo-button .undo-steps")
        assert "(2)" in undo.inner_text() and "take back 2 moves" in (
            undo.get_attribute("title") or ""
        )
        p.page.screenshot(path=str(screenshots / "undo-two.png"))
        undo.click()
        p.page.wait_for_function(
            "() => !document.querySelector('#undo-button .undo-steps') && "
            "!document.querySelector('#undo-button').disabled"
        )
        undo.click()
        p.page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')].filter((li) => "
            "li.textContent.includes('takes back their last move')).length === 2"
        )
        p.page.wait_for_selector("#undo-button[disabled]")
        p.page.screenshot(path=str(screenshots / "undo-two-done.png"))
    finally:
        p.close()
    log = api(base_url, "GET", f"/api/games/{gid}/events")["events"]
    undos = [e["data"]["to_version"] for e in log if e["type"] == "cloister.Undone"]
    assert undos == [start + 2, start]
