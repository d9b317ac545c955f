"""Each game's renderer, in a real browser, on stored views (no server needed).

``views/*.json`` hold a seat's view, its legal commands and the spectator's view at one moment
of a game (written from the games' own ``view()``). The client's files are served to Chromium
straight from ``clients/web`` through Playwright's request routing. For each stored view:

* the seat's page draws without errors and without "undefined"/"NaN" in it;
* every legal command has words; every highlighted board spot sends a command from ``legal``;
* the spectator's drawing offers no spot and shows no id private to the seat;
* a screenshot goes to ``artifacts/screenshots/render-<name>.png``.
"""

from __future__ import annotations

import json
import mimetypes
import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "clients" / "web"
VIEWS = sorted((Path(__file__).parent / "views").glob("*.json"))
ORIGIN = "http://cloister.test"

HARNESS = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="/style.css"></head><body><main id="main">
<div class="board" id="board" style="width: 1200px; height: 860px"></div></main>
<div id="toasts"></div>
<script type="module">
import { rendererFor } from "/games/index.js";
import { render } from "/lit.js";
window.drawErrors = [];
window.draw = async (type, view, legal, seat) => {
  const r = await rendererFor(type);
  const host = document.getElementById("board");
  const ui = {};
  const ctx = {
    view, prev: null, legal, seat, toAct: view.to_act || [], status: "running",
    interactive: legal.length > 0, mode: seat === null ? "watch" : "play", gameType: type,
    summary: null, seatName: (s) => `Player ${s + 1}`, colour: () => "#888",
    // A click meaning several moves sends the list (the page then asks which).
    send: (c) => {
      window.sent.push(...(Array.isArray(c) ? c.slice(0, 1) : [c]));
      window.lists.push(c);
    },
    why: (reason) => { window.whys.push(reason); }, detail: () => {},
    rerender: () => draw(), changed: new Set(), glossary: {}, ui,
  };
  const draw = () => {
    try { render(r.render(ctx), host); }
    catch (e) { window.drawErrors.push(String(e && e.stack || e)); }
  };
  window.sent = []; window.lists = []; window.whys = [];
  render(null, host);
  draw();
  return {
    labels: legal.map((c) => {
      try { return r.label(c, ctx); } catch (e) { return "ERROR " + e; }
    }),
    status: r.status ? r.status(ctx) : "",
    generic: r === (await import("/games/generic.js")).default,
  };
};
window.ready = true;
</script></body></html>"""


def _serve(route: Any) -> None:
    path = route.request.url.removeprefix(ORIGIN).split("?")[0]
    if path == "/harness.html":
        route.fulfill(body=HARNESS, content_type="text/html")
        return
    file = (WEB / path.lstrip("/")).resolve()
    if WEB.resolve() not in file.parents or not file.is_file():
        route.fulfill(status=404, body="not found")
        return
    ctype = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file.name)[0]
    route.fulfill(body=file.read_bytes(), content_type=ctype or "application/octet-stream")


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *(_strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(_strings(v) for v in value))
    return set()


_NOUNS = "coins|points|cards|tokens|sections|monks|books|guests|tasks|spots|tiles"
ONE_PLURAL = re.compile(rf"(?<![\d.])1 (?:\w+ )?(?:{_NOUNS})\b")
"""A count of one with its noun in the plural ("1 coins", "1 Wine tokens")."""


def _aria_labels(page: Any) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('#board [aria-label], #board title')]"
        ".map((e) => e.getAttribute('aria-label') || e.textContent || '')"
    )


@pytest.mark.parametrize("path", VIEWS, ids=[p.stem for p in VIEWS])
def test_renderer_draws_a_stored_view(browser: Any, screenshots: Path, path: Path) -> None:
    data = json.loads(path.read_text())
    ctx = browser.new_context(viewport={"width": 1240, "height": 900})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.route(f"{ORIGIN}/**", _serve)
        page.goto(f"{ORIGIN}/harness.html")
        page.wait_for_function("window.ready === true")

        # As the seat, with its legal commands.
        out = page.evaluate(
            "([t, v, l, s]) => window.draw(t, v, l, s)",
            [data["game_type"], data["view"], data["legal"], data["seat"]],
        )
        assert not out["generic"], f"{data['game_type']} has no renderer of its own"
        assert page.evaluate("window.drawErrors") == []
        svg = page.locator("#board svg").first
        assert svg.count() == 1
        drawn = page.locator("#board").text_content() or ""
        assert "undefined" not in drawn and "NaN" not in drawn and "[object" not in drawn
        # Counts in words as the rulebooks write them: "1 coin", never "1 coins".
        worded = drawn + " ".join(out["labels"]) + " ".join(_aria_labels(page))
        assert not ONE_PLURAL.search(worded), ONE_PLURAL.findall(worded)
        for cmd, label in zip(data["legal"], out["labels"], strict=True):
            assert isinstance(label, str) and label.strip(), f"no words for {cmd}"
            assert "undefined" not in label and "ERROR" not in label, (cmd, label)
        page.screenshot(path=str(screenshots / f"render-{path.stem}.png"))

        assert page.locator("#board [role='button']").count() > 0, "nothing on the board to click"
        spots = page.locator("#board [role='button']:not([data-ui])")
        reached = spots.count()
        for i in range(min(spots.count(), 12)):
            spot = page.locator("#board [role='button']:not([data-ui])").nth(i)
            assert spot.get_attribute("aria-label")
            # Focusable: a native button, or tabindex 0 on an SVG or HTML spot.
            assert spot.get_attribute("tabindex") == "0" or spot.evaluate(
                "e => e.tagName === 'BUTTON'"
            )
            spot.dispatch_event("click")
            sent = page.evaluate("window.sent.splice(0)")
            assert len(sent) == 1 and sent[0] in data["legal"], (
                spot.get_attribute("aria-label"),
                sent,
            )
        # Page-only controls (select, pick up, rotate) answer to the keyboard and send
        # nothing; the spots they open up still send only legal commands.
        ui = page.locator("#board [role='button'][data-ui]")
        for i in range(min(ui.count(), 3)):
            page.locator("#board [role='button'][data-ui]").nth(i).focus()
            page.keyboard.press("Enter")
            assert page.evaluate("window.sent.length") == 0
            assert page.evaluate("window.drawErrors") == []
            after = page.locator("#board [role='button']:not([data-ui])")
            reached += after.count()
            for k in range(min(after.count(), 6)):
                after.nth(k).dispatch_event("click")
                sent = page.evaluate("window.sent.splice(0)")
                assert len(sent) == 1 and sent[0] in data["legal"], sent

        assert reached > 0, "no board spot sends any legal command"

        # As a spectator: nothing to click, nothing private.
        page.evaluate(
            "([t, v]) => window.draw(t, v, [], null)",
            [data["game_type"], data["spectator_view"]],
        )
        assert page.evaluate("window.drawErrors") == []
        assert page.locator("#board [role='button']").count() == 0
        html = page.content()
        private = {
            x
            for x in _strings(data["view"]) - _strings(data["spectator_view"])
            if len(x) >= 3 and any(c.isdigit() for c in x)
        }
        assert private, "the stored seat view should hold something private"
        leaked = sorted(x for x in private if x in html)
        assert not leaked, f"spectator drawing shows {leaked}"
        page.screenshot(path=str(screenshots / f"render-{path.stem}-spectator.png"))
        assert not errors, errors
    finally:
        ctx.close()
