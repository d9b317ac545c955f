"""Helpers shared by the browser tests: the HTTP API, a page with its script errors, waits,
the private-id check for spectators and the axe-core accessibility check."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"

DESKTOP = {"width": 1280, "height": 800}
PHONE_LANDSCAPE = {"width": 844, "height": 390}
PHONE_PORTRAIT = {"width": 390, "height": 844}


# -- helpers --------------------------------------------------------------------------------
def api(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read() or b"null")


class Page:
    """A browser context with one page, collecting script errors."""

    def __init__(self, browser: Any, base: str, viewport: dict[str, int] = DESKTOP) -> None:
        self.base = base
        self.ctx = browser.new_context(viewport=viewport)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(15000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on(
            "console",
            lambda m: (
                self.errors.append(m.text)
                if m.type == "error" and "renderer failed" in m.text
                else None
            ),
        )

    def go(self, hash_: str) -> None:
        self.page.goto(f"{self.base}/{hash_}")
        self.page.wait_for_selector("body[data-ready='1']")

    def js(self, expr: str) -> Any:
        return self.page.evaluate(expr)

    def state(self, key: str) -> Any:
        return self.js(
            f"window.cloister && window.cloister.state && window.cloister.state[{json.dumps(key)}]"
        )

    def seat_record(self, gid: str) -> dict[str, Any] | None:
        raw = self.js(f"localStorage.getItem('cloister:seat:{gid}')")
        return json.loads(raw) if raw else None

    def html(self) -> str:
        return str(self.page.content())

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(
            f"window.cloister?.state?.version >= {version} && !window.cloister.state.busy"
        )

    def close(self) -> None:
        self.ctx.close()


def server_version(base: str, gid: str) -> int:
    return int(api(base, "GET", f"/api/games/{gid}")["version"])


def hand_of(base: str, gid: str, token: str, seat: int) -> list[str]:
    view = api(base, "GET", f"/api/games/{gid}/view", token=token)["view"]
    return list(view["hands"][seat] or [])


def act(p: Page, base: str, gid: str) -> None:
    """Click this page's first legal action button and wait for the game to move on."""
    before = server_version(base, gid)
    p.page.locator(".actions button.action").first.click()
    p.wait_version(before + 1)


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def assert_no_private_ids(p: Page, base: str, gid: str, token: str) -> None:
    """The spectator page shows no identity that only the seat's view holds.

    Compares the seat's and the spectator's view at the version the page shows; identities are
    the strings with a digit in them (card, tile and section ids).
    """
    for _ in range(5):
        version = p.state("version")
        html = p.html()
        if p.state("version") == version:
            break
    seat = api(base, "GET", f"/api/games/{gid}/view?version={version}", token=token)["view"]
    public = api(base, "GET", f"/api/games/{gid}/view?version={version}")["view"]
    private = {
        x for x in _strings(seat) - _strings(public) if len(x) >= 3 and any(c.isdigit() for c in x)
    }
    leaked = sorted(x for x in private if x in html)
    assert not leaked, f"the spectator page shows private ids {leaked}"


def axe_violations(p: Page) -> list[str]:
    """Serious and critical accessibility violations axe-core finds on the page now."""
    if not p.js("typeof window.axe !== 'undefined'"):
        p.page.add_script_tag(path=str(AXE))
    found = p.page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ['violations']});
          return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => `${v.impact} ${v.id}: ${v.help} (`
              + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ') + ')');
        }"""
    )
    return list(found)


def answer_dialog(p: Page) -> bool:
    """If the page asks (confirm, or which move), take its first answer. True if it asked."""
    dlg = p.page.locator("dialog.confirm-dialog[open]")
    if dlg.count():
        dlg.locator(".dialog-options button").first.click()
        return True
    return False
