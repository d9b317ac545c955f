"""Fixtures for the browser tests: a running Cloister server and headless Chromium.

The server is, in order of preference:

* ``CLOISTER_BASE_URL`` (e.g. ``http://127.0.0.1:8000``) when set: an already running server;
* otherwise ``cloister serve --port <free port>`` (or uvicorn on ``server.app:create_app``
  while there is no CLI yet) started here from this checkout, with
  ``REDIS_URL=redis://127.0.0.1:6379/<CLOISTER_TEST_REDIS_DB or 14>`` unless ``REDIS_URL`` is set.

Chromium is Debian's ``/usr/bin/chromium`` (``CHROMIUM`` overrides), driven by Playwright.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(base: str, proc: subprocess.Popen[bytes] | None, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/api/game-types", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server at {base} did not answer within {timeout}s")


def _drop_prefix(url: str, prefix: str) -> None:
    """Delete the games this run stored (only under its own key prefix)."""
    try:
        import redis
    except ImportError:
        return
    try:
        r = redis.Redis.from_url(url)
        keys = list(r.scan_iter(match=f"{prefix}*", count=500))
        for i in range(0, len(keys), 500):
            r.delete(*keys[i : i + 500])
        r.close()
    except Exception:
        pass


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    given = os.environ.get("CLOISTER_BASE_URL")
    if given:
        _wait_healthy(given.rstrip("/"), None, timeout=10)
        yield given.rstrip("/")
        return
    if (ROOT / "clients" / "cli.py").exists():
        serve = [sys.executable, "-m", "clients.cli", "serve", "--port"]
    elif (ROOT / "server" / "app.py").exists():
        serve = [sys.executable, "-m", "uvicorn", "--factory", "server.app:create_app", "--port"]
    else:
        pytest.skip(
            "no Cloister server in this checkout to test against (or set CLOISTER_BASE_URL)"
        )
    port = _free_port()
    env = dict(os.environ)
    env.setdefault(
        "REDIS_URL", f"redis://127.0.0.1:6379/{os.environ.get('CLOISTER_TEST_REDIS_DB', '14')}"
    )
    # A fresh key prefix per run, so games of earlier runs do not crowd the lobby.
    env.setdefault("CLOISTER_PREFIX", f"cloister-webtest-{os.getpid()}")
    env.setdefault("CLOISTER_BOT_DELAY", "0.05")
    (ROOT / "artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "artifacts" / "browser-test-server.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [*serve, str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(base, proc)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        log.close()
        _drop_prefix(env["REDIS_URL"], env["CLOISTER_PREFIX"])


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"headless Chromium not found at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is not installed"
    )
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
