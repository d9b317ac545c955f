"""The game page's Undo (enabled only when allowed, its reason otherwise) and Report a
problem, and the replay's Fork here (issue 13, items 3, 6 and 7)."""

from __future__ import annotations

import asyncio
import json
import time
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
        posts = _undo_posts(p)
        _as_seat(p, gid, me, tokens[me])
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
        assert posts == []  # the socket's undo, not the HTTP route
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


def _as_seat(p: Page, gid: str, me: int, token: str) -> None:
    p.go("#/")
    record = json.dumps({"seat": me, "token": token, "name": ["Ann", "Bob"][me]})
    p.js(f"localStorage.setItem('cloister:seat:{gid}', {json.dumps(record)})")
    p.go(f"#/game/{gid}")


def _undo_posts(p: Page) -> list[str]:
    """The page's HTTP undo requests (there must be none: undo goes over the socket)."""
    posts: list[str] = []
    p.page.on(
        "request",
        lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/undo") else None,
    )
    return posts


def test_undo_to_here_takes_back_two_moves_at_once(
    base_url: str, browser: Any, screenshots: Path
) -> None:
    """Two of my commands in a row (a secret choice changed): "Undo to here" sits on my own
    lines after the horizon and nowhere else; one click on the first takes both back with one
    socket `undo` (to_version), and a spectator's log shows them taken back too."""
    gid, tokens, me = _seated_high_card(base_url)
    # Both pass (over the socket: commands have no HTTP route), then I choose twice.
    with ThreadPoolExecutor(1) as pool:
        start = pool.submit(asyncio.run, _two_choices(base_url, gid, tokens, me)).result()
    p = Page(browser, base_url)
    watcher = Page(browser, base_url)
    try:
        posts = _undo_posts(p)
        _as_seat(p, gid, me, tokens[me])
        watcher.go(f"#/watch/{gid}")
        undo = p.page.locator("#undo-button")
        p.page.wait_for_selector("#undo-button .undo-steps")
        assert "(2)" in undo.inner_text() and "take back 2 moves" in (
            undo.get_attribute("title") or ""
        )
        here = p.page.locator("#log .undo-here")
        here.nth(1).wait_for()
        # Only my two choices: not my Pass (the other seat moved after it), not theirs.
        assert here.count() == 2
        assert [here.nth(i).get_attribute("data-to") for i in range(2)] == [
            str(start),
            str(start + 2),
        ]
        first = p.page.locator("#log li", has=p.page.locator(f".undo-here[data-to='{start}']"))
        assert first.get_attribute("data-version") == str(start + 2)  # the choice's own line
        assert "this move and your 1 later one" in (here.first.get_attribute("title") or "")
        assert watcher.page.locator("#log .undo-here").count() == 0  # a spectator has none
        here.first.hover()
        p.page.screenshot(path=str(screenshots / "undo-to-here-hover.png"))
        here.first.click()
        p.page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')].some((li) => "
            "li.textContent.includes('takes back their last 2 moves'))"
        )
        p.page.wait_for_selector("#undo-button[disabled]")
        assert p.page.locator("#log .undo-here").count() == 0
        assert p.page.locator("#log li.undone").count() >= 2
        p.page.screenshot(path=str(screenshots / "undo-to-here-done.png"))
        # Every viewer sees it: the spectator's log has the sentence and the struck lines.
        watcher.page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')].some((li) => "
            "li.textContent.includes('takes back their last 2 moves'))"
        )
        assert watcher.page.locator("#log li.undone").count() >= 2
        assert posts == []
        assert p.errors == [] and watcher.errors == []
    finally:
        p.close()
        watcher.close()
    log = api(base_url, "GET", f"/api/games/{gid}/events")["events"]
    undos = [e["data"] for e in log if e["type"] == "cloister.Undone"]
    assert [(u["to_version"], u["commands"]) for u in undos] == [(start, 2)]


def test_a_refused_undo_shows_the_servers_reason(base_url: str, browser: Any) -> None:
    """An undo the server refuses (here: to a version it does not allow) shows its sentence,
    not a code."""
    gid, tokens, me = _seated_high_card(base_url)
    p = Page(browser, base_url)
    try:
        _as_seat(p, gid, me, tokens[me])
        p.page.wait_for_selector("button.action")
        p.js("window.cloister.page.undo.run(1)")
        why = p.page.locator(".why:not([hidden])")
        why.wait_for()
        text = why.inner_text()
        assert "Cannot undo: you have no move to take back" in text, text
        assert "undo_not_allowed" not in text
    finally:
        p.close()


def test_fork_offers_each_seat_to_me_a_person_or_a_bot(
    base_url: str, browser: Any, screenshots: Path
) -> None:
    """Fork here asks who takes each seat; a person's seat stays open and the page shows the
    invitation link, which seats whoever opens it."""
    done = api(
        base_url,
        "POST",
        "/api/games",
        {"type": "high-card", "options": {"players": 2}, "bots": [{}, {}]},
    )
    gid = done["id"]
    for _ in range(200):
        if api(base_url, "GET", f"/api/games/{gid}")["status"] == "finished":
            break
        time.sleep(0.05)
    p = Page(browser, base_url)
    guest = Page(browser, base_url)
    try:
        p.go(f"#/replay/{gid}")
        p.page.wait_for_function("() => window.cloister?.replay?.max > 12")
        p.js("window.cloister.replay.go(12)")
        p.page.locator(".fork-box > summary").click()
        seat0 = p.page.locator("#fork-form select[name=seat-0]")
        seat1 = p.page.locator("#fork-form select[name=seat-1]")
        assert seat0.input_value() == "me" and seat1.input_value().startswith("bot:")
        options = seat1.locator("option").all_inner_texts()
        assert options[:2] == ["Me", "A person (I send them the link)"]
        assert any(o.startswith("A bot (") for o in options)
        seat1.select_option("me")  # me moves: the seat that was mine becomes a person's
        assert seat0.input_value() == "person" and seat1.input_value() == "me"
        p.page.fill("#fork-form input[name=name]", "Teacher")
        p.page.screenshot(path=str(screenshots / "fork-seats.png"))
        p.page.locator("#fork-form button[type=submit]").click()
        invite = p.page.locator("#fork-invite")
        invite.wait_for()
        p.page.screenshot(path=str(screenshots / "fork-invite.png"))
        link = invite.input_value()
        new_id = link.rsplit("/", 1)[-1]
        summary = api(base_url, "GET", f"/api/games/{new_id}")
        assert summary["status"] == "open"
        assert {s["seat"]: s["taken"] for s in summary["seats"]} == {0: False, 1: True}
        assert summary["seats"][1]["name"] == "Teacher"
        # The invitation: whoever opens it takes the open seat.
        guest.page.goto(link)
        guest.page.wait_for_selector("body[data-ready='1']")
        guest.page.locator("button", has_text="Join").first.click()
        guest.page.wait_for_selector("text=You play")
        p.page.locator("#fork-made a.button-link").click()
        p.page.wait_for_selector("#undo-button")
        assert "You play" in p.page.locator(".role").inner_text()
        assert p.errors == [] and guest.errors == []
    finally:
        p.close()
        guest.close()


async def _other_chooses(base: str, gid: str, token: str) -> None:
    async with GameClient(base, gid, token) as b:
        await b.send(next(c for c in b.legal if c["type"] == "PlayCard"))


def test_undo_to_here_goes_once_another_seat_moves(base_url: str, browser: Any) -> None:
    """The other seat's move is a horizon: the page stops offering my lines (they are
    disabled while the server is asked again, then gone), and Undo says why."""
    gid, tokens, me = _seated_high_card(base_url)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _two_choices(base_url, gid, tokens, me)).result()
    p = Page(browser, base_url)
    try:
        _as_seat(p, gid, me, tokens[me])
        p.page.wait_for_selector("#log .undo-here:not([disabled])")
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _other_chooses(base_url, gid, tokens[1 - me])).result()
        p.page.wait_for_function("() => !document.querySelector('#log .undo-here')")
        p.page.wait_for_function(
            "() => document.querySelector('#undo-button').disabled && "
            "document.querySelector('#undo-button').title.startsWith('Nothing to undo')"
        )
    finally:
        p.close()
