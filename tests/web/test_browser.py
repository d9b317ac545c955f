"""The web client in a real browser (headless Chromium via Playwright).

Two browser contexts play High Card as two seats while a third spectates: each page shows its
own hand, the spectator's DOM holds none of the hidden card ids, a player whose socket drops
catches up by itself, and the finished game steps through as a replay. Screenshots of every
game type's page go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import (
    DESKTOP,
    PHONE_LANDSCAPE,
    PHONE_PORTRAIT,
    Page,
    act,
    answer_dialog,
    api,
    assert_no_private_ids,
    axe_violations,
    hand_of,
    server_version,
)

pytestmark = pytest.mark.browser


# -- the two-seat + spectator game ----------------------------------------------------------
def test_two_players_and_a_spectator_play_high_card(
    base_url: str, browser: Any, screenshots: Path
) -> None:
    ann, bea, eve = Page(browser, base_url), Page(browser, base_url), Page(browser, base_url)
    try:
        # Ann creates the game in the lobby and takes the first seat.
        ann.go("#/")
        ann.page.fill("#new-name", "Ann")
        ann.page.locator(".new-game summary").click()
        ann.page.select_option("#new-type", "high-card")
        ann.page.uncheck("#new-bots")
        ann.page.screenshot(path=str(screenshots / "lobby.png"))
        ann.page.get_by_role("button", name="Create game").click()
        ann.page.wait_for_url(re.compile(r"#/game/"))
        gid = ann.page.url.split("#/game/")[1]
        rec_a = ann.seat_record(gid)
        assert rec_a and rec_a["seat"] == 0
        assert rec_a["token"] not in ann.page.url

        # Bea follows the player link and joins the open seat; Eve follows the spectator link.
        ann.page.locator(".share-box summary").click()
        ann.page.wait_for_selector(".share-url", state="attached")
        share = ann.page.locator(".share-url").evaluate_all("els => els.map(e => e.value)")
        player_link, spectator_link = share
        assert player_link.endswith(f"#/game/{gid}") and spectator_link.endswith(f"#/watch/{gid}")
        assert all(rec_a["token"] not in link for link in share)
        # While a seat is open, its creator may fill it with a bot (not now: Bea is coming).
        ann.page.get_by_role("button", name="Put a bot in Player 2").wait_for()
        bea.page.goto(player_link)
        bea.page.fill("#join-name", "Bea")
        bea.page.get_by_role("button", name="Join as Player 2").click()
        eve.page.goto(spectator_link)
        for p in (ann, bea, eve):
            p.page.wait_for_selector(".board-svg")
        for p in (ann, bea, eve):
            p.page.wait_for_selector("#log li")  # the log so far, in words
        rec_b = bea.seat_record(gid)
        assert rec_b and rec_b["seat"] == 1
        assert eve.seat_record(gid) is None
        for p in (ann, bea, eve):
            p.wait_version(server_version(base_url, gid))

        # Each page shows its own hand and not the other's; the spectator sees neither.
        hand_a = hand_of(base_url, gid, rec_a["token"], 0)
        hand_b = hand_of(base_url, gid, rec_b["token"], 1)
        assert len(hand_a) == len(hand_b) == 2
        html_a, html_b, html_e = ann.html(), bea.html(), eve.html()
        assert all(c in html_a for c in hand_a) and not any(c in html_a for c in hand_b)
        assert all(c in html_b for c in hand_b) and not any(c in html_b for c in hand_a)
        assert not any(c in html_e for c in hand_a + hand_b)
        assert rec_a["token"] not in html_e and rec_b["token"] not in html_e
        assert "Your turn" in ann.page.inner_text(".banner")
        # The other seat reads whose turn it is, in the game's sentence.
        assert "Your turn" not in bea.page.inner_text(".banner")
        assert "Player 1" in bea.page.inner_text(".banner")
        assert "Spectating" in eve.page.inner_text(".game-head")
        assert eve.page.locator(".actions button.action").count() == 0
        ann.page.screenshot(path=str(screenshots / "high-card-seat0.png"))
        bea.page.screenshot(path=str(screenshots / "high-card-seat1.png"))
        eve.page.screenshot(path=str(screenshots / "high-card-spectator.png"))

        # A command the server refuses shows up as a readable message.
        ann.js("window.cloister.conn.send({type: 'PlayCard', card: 'hc-99'})")
        toast = ann.page.locator(".toast.error").first
        toast.wait_for()
        assert "Not allowed" in toast.inner_text()

        # Table talk: Ann types a line; Bea and the spectator read it in their logs, the game
        # does not move, and the spectator has no chat box.
        v = server_version(base_url, gid)
        ann.page.fill("#chat-input", "Shall we both pass?")
        ann.page.click("#chat-form button")
        for p in (ann, bea, eve):
            p.wait_version(v + 1)
            p.page.locator("#log .chat-line", has_text="Shall we both pass?").wait_for()
        assert ann.page.input_value("#chat-input") == ""
        assert eve.page.locator("#chat-form").is_hidden()
        assert "Your turn" in ann.page.inner_text(".banner")

        # Ann draws by clicking the deck on the board (keyboard: focus it and press Enter).
        v = server_version(base_url, gid)
        deck = ann.page.locator("svg [role='button'][aria-label^='Draw a card']")
        deck.focus()
        ann.page.keyboard.press("Enter")
        ann.wait_version(v + 1)

        # Ann's socket drops and stays away while Bea moves; Ann catches up by herself.
        ann.js("window.cloister.conn.drop(1500)")
        ann.page.wait_for_function("window.cloister.conn.state === 'reconnecting'")
        act(bea, base_url, gid)
        missed = server_version(base_url, gid)
        ann.page.wait_for_function("window.cloister.conn.state === 'open'")
        ann.wait_version(missed)
        log_a = ann.page.inner_text("#log")
        assert "Player 2" in log_a and ("passes" in log_a or "draws" in log_a)
        versions = ann.js("window.cloister.state.events.map(e => e.version)")
        assert versions == sorted(set(versions)), "events repeated or out of order after resume"

        # A command sent just before the socket drops is sent again, with the same
        # command_id, after the reconnect, and the server applies it exactly once.
        bea.page.wait_for_function("window.cloister.state.legal.length > 0")
        before = server_version(base_url, gid)
        bea.js(
            "window.cloister.conn.send(window.cloister.state.legal[0]); window.cloister.conn.drop()"
        )
        bea.page.wait_for_function("window.cloister.conn.state === 'open'")
        bea.page.wait_for_function("window.cloister.conn.pending.size === 0")
        bea.wait_version(before + 1)
        time.sleep(0.5)
        # Each accepted command is logged once as cloister.CommandAccepted, before the
        # events it produced: exactly one since `before` means it was applied once.
        since = api(base_url, "GET", f"/api/games/{gid}/events?since={before}")["events"]
        accepted = [e for e in since if e["type"] == "cloister.CommandAccepted"]
        assert len(accepted) == 1, f"the resent command was applied {len(accepted)} times"
        assert bea.page.locator(".toast.error").count() == 0

        # Play to the end, checking the spectator's page after every move.
        for _ in range(60):
            if api(base_url, "GET", f"/api/games/{gid}")["status"] == "finished":
                break
            moved = False
            for p in (ann, bea):
                if (
                    p.state("legal")
                    and api(base_url, "GET", f"/api/games/{gid}")["status"] == "running"
                ):
                    act(p, base_url, gid)
                    moved = True
            assert moved, "nobody could move"
            status = api(base_url, "GET", f"/api/games/{gid}")["status"]
            if status == "running":
                eve.wait_version(server_version(base_url, gid))
                hidden = hand_of(base_url, gid, rec_a["token"], 0) + hand_of(
                    base_url, gid, rec_b["token"], 1
                )
                html_e = eve.html()
                leaked = [c for c in hidden if c in html_e]
                assert not leaked, f"spectator page shows hidden cards {leaked}"
        summary = api(base_url, "GET", f"/api/games/{gid}")
        assert summary["status"] == "finished"
        for p in (ann, bea, eve):
            p.page.wait_for_function(
                "document.querySelector('.banner').textContent.includes('Game over')"
            )
        ann.page.screenshot(path=str(screenshots / "high-card-over.png"))

        # Replay, step by step, as the spectator (the review audience: everything revealed).
        eve.go(f"#/replay/{gid}")
        eve.page.wait_for_selector(".board-svg")
        slider = eve.page.locator("#replay-slider")
        eve.page.get_by_role("button", name="First step").click()
        assert slider.input_value() == "0"
        log = api(base_url, "GET", f"/api/games/{gid}/events")
        assert log["audience"] == "review"
        dealt = max(e["version"] for e in log["events"] if e["type"] == "CardsDealt")
        for step in range(1, dealt + 1):
            eve.page.get_by_role("button", name="Next step").click()
            assert slider.input_value() == str(step)
        eve.page.wait_for_function(
            f"document.querySelector('.banner').textContent.startsWith('Step {dealt}')"
        )
        eve.page.wait_for_selector(".board-svg")
        revealed = eve.html()
        assert all(c in revealed for c in hand_a + hand_b), (
            "the review replay reveals the dealt hands"
        )
        eve.page.get_by_role("button", name="Previous step").focus()
        eve.page.keyboard.press("Enter")
        assert slider.input_value() == str(dealt - 1)
        eve.page.screenshot(path=str(screenshots / "high-card-replay.png"))
        eve.page.select_option("#replay-speed", "10")
        eve.page.get_by_role("button", name="Play").click()
        eve.page.wait_for_function(
            "(s => s.value === s.max)(document.querySelector('#replay-slider'))",
            timeout=30000,
        )
        assert eve.page.locator(".result").count() == 1
        # The server re-decided the finished game from its revealed seed: shown in words.
        eve.page.wait_for_selector(".verify-ok")
        assert "Fair play verified" in eve.page.inner_text(".verify")
        eve.page.screenshot(path=str(screenshots / "high-card-replay-verified.png"))
        eve.page.get_by_role("button", name="First step").click()
        assert slider.input_value() == "0"
        eve.page.get_by_role("button", name="Last step").click()
        assert slider.input_value() == str(summary["version"])

        for p in (ann, bea, eve):
            assert not p.errors, p.errors
    except BaseException:
        for who, p in (("ann", ann), ("bea", bea), ("eve", eve)):
            p.page.screenshot(path=str(screenshots / f"failure-high-card-{who}.png"))
        raise
    finally:
        for p in (ann, bea, eve):
            p.close()


# -- every game type: a page with pictures, at desktop and phone-landscape size --------------
def _game_types(base: str) -> list[dict[str, Any]]:
    return list(api(base, "GET", "/api/game-types")["game_types"])


def test_each_game_type_renders(base_url: str, browser: Any, screenshots: Path) -> None:
    """Every game type as a seat at 1280×800 and on phones (portrait and landscape, with zoom)
    and as a spectator: no script error, a banner in words, labelled actions, nothing
    private on the spectator's page, no serious accessibility violation."""
    for gt in _game_types(base_url):
        name = gt["name"]
        game = api(base_url, "POST", "/api/games", {"type": name, "options": {}})
        gid = game["id"]
        me = api(base_url, "POST", f"/api/games/{gid}/seats", {"name": "Tester"})
        for seat in api(base_url, "GET", f"/api/games/{gid}")["seats"]:
            if not seat["taken"]:
                api(base_url, "POST", f"/api/games/{gid}/bots", {"seat": seat["seat"]})

        # As the seat: desktop, then the same page on a phone held both ways.
        p = Page(browser, base_url, DESKTOP)
        try:
            p.page.goto(f"{base_url}/")
            p.js(
                f"localStorage.setItem('cloister:seat:{gid}', "
                f"{json.dumps(json.dumps({**me, 'name': 'Tester'}))})"
            )
            p.go(f"#/game/{gid}")
            p.page.wait_for_selector(".board-svg, .generic-view")
            p.page.wait_for_timeout(300)
            p.page.screenshot(path=str(screenshots / f"{name}.png"))
            assert p.page.locator(".banner").inner_text().strip()
            # Everything needed is in view at 1280×800: no page scroll.
            assert p.js("document.documentElement.scrollHeight") <= DESKTOP["height"] + 1
            bad = axe_violations(p)
            assert not bad, (name, bad)
            # Every offered action is a labelled, focusable button.
            for b in p.page.locator(".actions button.action").all()[:20]:
                assert (b.text_content() or "").strip()
            for label, viewport in (
                ("-phone", PHONE_PORTRAIT),
                ("-phone-landscape", PHONE_LANDSCAPE),
            ):
                p.page.set_viewport_size(viewport)
                p.page.wait_for_timeout(250)
                p.page.screenshot(path=str(screenshots / f"{name}{label}.png"))
                assert p.js("document.documentElement.scrollWidth") <= viewport["width"] + 1
                # Zoom in on the board, then pan it (the zoomed board scrolls in its box).
                p.page.get_by_role("button", name="Zoom in").click()
                p.page.get_by_role("button", name="Zoom in").click()
                assert p.js("document.getElementById('board').scrollWidth") > p.js(
                    "document.getElementById('board').clientWidth"
                )
                p.js("document.getElementById('board').scrollLeft = 200")
                assert p.js("document.getElementById('board').scrollLeft") > 0
                p.page.screenshot(path=str(screenshots / f"{name}{label}-zoomed.png"))
                p.page.get_by_role("button", name="Fit the board").click()
            p.page.set_viewport_size(DESKTOP)
            # A highlighted spot on the board sends its command (after the page's question,
            # when it asks one): the game moves on or the page says why not.
            spots = p.page.locator("#board [role='button']:not([data-ui])")
            if spots.count():
                before = server_version(base_url, gid)
                spots.first.click()
                answer_dialog(p)
                if p.page.locator("dialog.confirm-dialog[open]").count():
                    answer_dialog(p)
                p.page.wait_for_function(
                    f"window.cloister.state.version > {before}"
                    " || document.querySelector('.toast.error')"
                )
                p.page.wait_for_timeout(300)
                p.page.screenshot(path=str(screenshots / f"{name}-after-click.png"))
            assert not p.errors, (name, p.errors)
        finally:
            p.close()

        # As a spectator: public information only.
        p = Page(browser, base_url, DESKTOP)
        try:
            p.go(f"#/watch/{gid}")
            p.page.wait_for_selector(".board-svg, .generic-view")
            p.page.wait_for_timeout(300)
            p.page.screenshot(path=str(screenshots / f"{name}-spectator.png"))
            assert_no_private_ids(p, base_url, gid, me["token"])
            assert not axe_violations(p), name
            assert not p.errors, (name, p.errors)
        finally:
            p.close()


def test_lobby_fits_a_phone_in_landscape(base_url: str, browser: Any, screenshots: Path) -> None:
    p = Page(browser, base_url, PHONE_LANDSCAPE)
    try:
        p.go("#/")
        p.page.wait_for_selector(".play-now button")
        p.page.screenshot(path=str(screenshots / "lobby-phone.png"))
        width = p.js("document.documentElement.scrollWidth")
        assert width <= PHONE_LANDSCAPE["width"] + 1, "the lobby scrolls sideways on a phone"
        assert not axe_violations(p)
        # Keyboard: Tab reaches a Play now button.
        for _ in range(40):
            p.page.keyboard.press("Tab")
            if p.js("document.activeElement && document.activeElement.textContent") == "Play now":
                break
        else:
            pytest.fail("Play now is not reachable with the keyboard")
    finally:
        p.close()


def test_a_stale_seat_token_falls_back_to_watching(base_url: str, browser: Any) -> None:
    game = api(base_url, "POST", "/api/games", {"type": "high-card", "options": {"players": 2}})
    gid = game["id"]
    api(base_url, "POST", f"/api/games/{gid}/bots", {"seat": 0})
    api(base_url, "POST", f"/api/games/{gid}/bots", {"seat": 1})
    p = Page(browser, base_url)
    try:
        p.page.goto(f"{base_url}/")
        stale = json.dumps({"seat": 0, "token": "not-a-real-token", "name": "Old"})
        p.js(f"localStorage.setItem('cloister:seat:{gid}', {json.dumps(stale)})")
        p.go(f"#/game/{gid}")
        p.page.locator(".toast.error").first.wait_for()
        p.page.wait_for_function("window.cloister.conn.state === 'open'")
        assert "Spectating" in p.page.inner_text(".game-head")
        assert p.seat_record(gid) is None
        assert not p.errors, p.errors
    finally:
        p.close()
