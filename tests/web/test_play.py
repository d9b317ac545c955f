"""A person plays each game in Chromium by clicks and keys only (no command is sent by script).

* Illumination: one seat plays a whole duel against the greedy bot to the end, passes near the
  end through the confirmation prompt, and reads the final breakdown on the page and in the
  replay.
* Campus Galli level I: through two rounds against a bot.
* Road to Enlightenment, short game: one whole turn (planning, actions, census, draft).

Each checks log sentences, last-move highlights on the board, the page's words for a click
that cannot be played, and saves screenshots at 1280×800 and 390×844 in artifacts/screenshots.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import DESKTOP, PHONE_PORTRAIT, Page, api, axe_violations

pytestmark = pytest.mark.browser

MY_TURN = (
    "(s => s.status === 'finished' || (!s.busy && s.seat !== null && s.legal.length > 0"
    " && s.toAct.includes(s.seat)))(window.cloister.state)"
)
# Never chosen while something else is possible: they end something for good.
LAST = re.compile(r"^(Pass|No spot fits|Decline|Give up|Refuse)")


def play_now(p: Page, title: str, name: str = "Tester") -> str:
    """Start a game from the lobby's Play now button; the game's id."""
    p.go("#/")
    p.page.fill("#new-name", name)
    p.page.get_by_role("button", name=f"Play {title} now against bots").click()
    p.page.wait_for_url(re.compile(r"#/game/"))
    p.page.wait_for_selector(".board-svg")
    return str(p.page.url.split("#/game/")[1])


def state(p: Page, key: str) -> Any:
    return p.js(f"window.cloister.state[{key!r}]")


def settle(p: Page, before: int, timeout: float = 20) -> None:
    """Wait until the game moved past `before` (answering any question the page asks)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if p.page.locator("dialog.confirm-dialog[open]").count():
            p.page.locator("dialog.confirm-dialog[open] .dialog-options button").first.click()
        if (state(p, "version") or 0) > before and not state(p, "busy"):
            return
        if p.page.locator(".toast.error").count():
            raise AssertionError(p.page.locator(".toast.error").first.inner_text())
        p.page.wait_for_timeout(60)
    raise AssertionError("the game did not move on")


def click_board(p: Page, label: str, keyboard: bool = False) -> bool:
    """Click (or focus and press Enter on) the first board spot whose label starts so."""
    spot = p.page.locator(f"#board [role='button'][aria-label^={label!r}]:not([data-ui])")
    if not spot.count():
        return False
    before = state(p, "version")
    if keyboard:
        spot.first.focus()
        p.page.keyboard.press("Enter")
    else:
        spot.first.click()
    settle(p, before)
    return True


def click_action(p: Page) -> None:
    """Click the first sensible button of the action list (irreversible ones last)."""
    buttons = p.page.locator(".actions button.action")
    texts = buttons.all_inner_texts()
    assert texts, "no action to take"
    pick = next((i for i, t in enumerate(texts) if not LAST.match(t)), 0)
    before = state(p, "version")
    b = buttons.nth(pick)
    if not b.is_visible():
        # Long lists fold away: open the group first.
        b.evaluate("e => e.closest('details') && (e.closest('details').open = true)")
    b.click()
    settle(p, before)


def screenshots_both(p: Page, screenshots: Path, name: str) -> None:
    p.page.screenshot(path=str(screenshots / f"play-{name}.png"))
    p.page.set_viewport_size(PHONE_PORTRAIT)
    p.page.wait_for_timeout(250)
    p.page.screenshot(path=str(screenshots / f"play-{name}-phone.png"))
    p.page.set_viewport_size(DESKTOP)
    p.page.wait_for_timeout(150)


def log_text(p: Page) -> str:
    return str(p.page.inner_text("#log"))


# -- Illumination: a whole duel -------------------------------------------------------------
def test_illumination_duel_against_a_bot_to_the_end(
    base_url: str, browser: Any, screenshots: Path
) -> None:
    p = Page(browser, base_url)
    try:
        gid = play_now(p, "Illumination")
        p.page.wait_for_function(MY_TURN)
        assert "Your turn" in p.page.inner_text(".banner")
        # A click on a Book before taking a line says why, in words, and sends nothing.
        v0 = state(p, "version")
        p.page.locator("#board .ill-book .inert").first.click()
        why = p.page.locator(".why:not([hidden])")
        why.wait_for()
        assert "row or column" in why.inner_text()
        assert state(p, "version") == v0

        turns = 0
        highlighted = False
        for _ in range(400):
            p.page.wait_for_function(MY_TURN, timeout=60000)
            if state(p, "status") == "finished":
                break
            view = state(p, "view")
            if view["turn"] == view["you"] and not view["line_chosen"] and view["phase"] == "play":
                turns += 1
                if turns > 1:
                    # The bot's last move is marked on the board, and summarised beside it.
                    highlighted = highlighted or p.page.locator("#board .last-move").count() > 0
                    since = p.page.inner_text(".since")
                    assert "Since your last move" in since and "Irreverent" in since, since
                if turns == 2:
                    screenshots_both(p, screenshots, "illumination")
                if turns == 5:
                    # Passing ends my game: the page asks first. Cancel keeps everything.
                    p.page.locator(".actions button.action", has_text="Pass for the rest").click()
                    dlg = p.page.locator("dialog.confirm-dialog[open]")
                    dlg.wait_for()
                    assert "no more turns" in dlg.inner_text()
                    dlg.get_by_role("button", name="Cancel").click()
                    assert not state(p, "busy") and state(p, "view")["turn_no"] == view["turn_no"]
                    p.page.locator(".actions button.action", has_text="Pass for the rest").click()
                    before = state(p, "version")
                    p.page.locator(
                        "dialog.confirm-dialog[open] .dialog-options button"
                    ).first.click()
                    settle(p, before)
                    continue
                # Take a line with the keyboard on the first turn, by clicking later on.
                if click_board(p, "Take ", keyboard=turns == 1):
                    continue
            if click_board(p, "Place the "):
                continue
            if click_board(p, "End turn"):
                continue
            click_action(p)
        p.page.wait_for_function("window.cloister.state.status === 'finished'", timeout=120000)
        assert highlighted, "the bot's moves were never marked on the board"
        assert turns >= 5
        # The end: the winner in one sentence, the score category by category, every card.
        result = p.page.locator(".result")
        result.wait_for()
        text = result.inner_text()
        for category in ("Monastery", "Battle cards", "Books", "Crusade"):
            assert category in text, text
        assert p.page.locator(".result .breakdown tbody tr").count() == 2
        p.page.wait_for_function("window.cloister.state.reviewLoaded")
        assert p.page.locator(".ill-hands .hcard.back").count() == 0, "hidden cards after the end"
        summary = api(base_url, "GET", f"/api/games/{gid}")
        winner = p.page.inner_text(".winner-line")
        assert winner.strip()
        assert "Game over" in p.page.inner_text(".banner")
        assert len([ln for ln in log_text(p).splitlines() if ln.strip()]) > 20
        screenshots_both(p, screenshots, "illumination-over")
        assert not axe_violations(p)

        # The replay ends on the same sentence and breakdown, with everything revealed.
        p.go(f"#/replay/{gid}")
        p.page.wait_for_selector(".board-svg")
        assert "Full reveal" in p.page.inner_text(".game-head")
        p.page.locator(".result").wait_for()
        assert p.page.inner_text(".winner-line") == winner
        assert "Monastery" in p.page.inner_text(".result")
        p.page.get_by_role("button", name="Previous step").click()
        p.page.keyboard.press("ArrowRight")
        p.page.screenshot(path=str(screenshots / "play-illumination-replay.png"))
        # The lobby states the winner the same way.
        p.go("#/")
        p.page.locator(".game-row", has_text=winner.rstrip(".")).first.wait_for()
        assert summary["status"] == "finished"
        assert not p.errors, p.errors
    except BaseException:
        p.page.screenshot(path=str(screenshots / "failure-play-illumination.png"))
        raise
    finally:
        p.close()


# -- Campus Galli level I: two rounds --------------------------------------------------------
def test_campus_galli_level_one_through_two_rounds(
    base_url: str, browser: Any, screenshots: Path
) -> None:
    p = Page(browser, base_url)
    try:
        gid = play_now(p, "Campus Galli")
        p.page.wait_for_function(MY_TURN)
        banner = p.page.inner_text(".banner")
        assert "Your turn" in banner and "action card" in banner, banner
        # Nothing in hand: a click on the plan says so.
        p.page.locator("#board .cg-plan .inert").first.click()
        assert "no section" in p.page.locator(".why:not([hidden])").inner_text()
        placed = False
        highlighted = False
        shot = False
        for _ in range(200):
            p.page.wait_for_function(MY_TURN, timeout=60000)
            view = state(p, "view")
            if view["round"] > 2 or view["year"] > 1 or state(p, "status") == "finished":
                break
            if view["phase"] == "select":
                if view["round"] == 2 and not shot:
                    shot = True
                    highlighted = p.page.locator("#board .last-move, .hcard.last-move").count() > 0
                    screenshots_both(p, screenshots, "campus-galli")
                # Pick an action card in the hand (a keyboard Enter on the second round).
                cards = p.page.locator(".cg-mine .hcard[role='button']")
                before = state(p, "version")
                if view["round"] == 2:
                    cards.first.focus()
                    p.page.keyboard.press("Enter")
                else:
                    cards.first.click()
                settle(p, before)
                continue
            if view.get("turn") and view["turn"].get("holding") and view["turn"]["seat"] == 0:
                # Turn the section until a spot fits, then lay it where the plan lights up.
                for _ in range(8):
                    if click_board(p, "Lay the section"):
                        placed = True
                        break
                    p.page.locator(
                        "#board [aria-label='Rotate the section a quarter turn']"
                    ).click()
                else:
                    click_action(p)
                continue
            if click_board(p, "Take the ") or click_board(p, "Draw a "):
                continue
            click_action(p)
        view = state(p, "view")
        assert view["round"] > 2 or view["year"] > 1, "two rounds were not played"
        assert placed, "no section was laid by clicking the plan"
        assert highlighted, "the other seat's moves were never marked"
        log = log_text(p)
        assert "Monk 2" in log or "Player 2" in log, log[-500:]
        assert p.page.locator(".cg-tasks .hcard .card-text").count() >= 3
        assert not axe_violations(p)
        assert not p.errors, p.errors
        assert gid
    except BaseException:
        p.page.screenshot(path=str(screenshots / "failure-play-campus-galli.png"))
        raise
    finally:
        p.close()


# -- Road to Enlightenment: one whole turn ---------------------------------------------------
def test_road_short_game_one_whole_turn(base_url: str, browser: Any, screenshots: Path) -> None:
    p = Page(browser, base_url)
    try:
        gid = play_now(p, "Road to Enlightenment")
        p.page.wait_for_function(MY_TURN)
        assert "action slots" in p.page.inner_text(".banner")
        # The lobby (in another tab of this browser) marks the game: it waits for me.
        lobby = p.ctx.new_page()
        lobby.goto(f"{base_url}/")
        lobby.locator(".game-row.my-turn", has_text="Your turn").first.wait_for()
        assert lobby.locator(".game-row.my-turn a", has_text="Play your turn").count() == 1
        lobby.close()
        # Planning: one luminary into each slot, by clicks, then Confirm.
        for n in (1, 2, 3):
            slot = p.page.locator(".re-slot", has_text=f"Slot {n}").locator(".re-put")
            before = state(p, "version")
            slot.click()
            settle(p, before)
        assert p.page.locator(".re-slot .re-slot-card").count() == 3
        before = state(p, "version")
        p.page.get_by_role("button", name="Confirm slots").click()
        settle(p, before)
        stages: set[str] = set()
        highlighted = False
        for _ in range(300):
            p.page.wait_for_function(MY_TURN, timeout=60000)
            view = state(p, "view")
            stages.add(view["stage"]["kind"])
            if view["turn"] > 1 or state(p, "status") == "finished":
                break
            highlighted = (
                highlighted or p.page.locator("#board .last-move, .last-move-box").count() > 0
            )
            if view["stage"]["kind"] == "declare":
                census = p.page.locator(".actions button.action", has_text="Take the census")
                if census.count():
                    before = state(p, "version")
                    census.first.click()
                    settle(p, before)
                    continue
            if view["stage"]["kind"] == "draft":
                chip = p.page.locator(".re-rows .hcard[role='button']")
                if chip.count():
                    before = state(p, "version")
                    chip.first.click()
                    settle(p, before)
                    continue
            click_action(p)
        view = state(p, "view")
        assert view["turn"] == 2, view["stage"]
        assert "declare" in stages and "draft" in stages, stages
        assert highlighted, "nothing was marked on the board"
        log = log_text(p)
        assert "England" in log and "Spain" in log, log[-600:]
        screenshots_both(p, screenshots, "road")
        assert not axe_violations(p)
        assert not p.errors, p.errors
        assert gid
    except BaseException:
        p.page.screenshot(path=str(screenshots / "failure-play-road.png"))
        raise
    finally:
        p.close()
