"""``serve --workers N``: N processes on one port, any worker takes any game."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support import REDIS_URL, Player, free_port, http, new_game

pytestmark = pytest.mark.redis


def start_workers(env: dict[str, str], workers: int = 2) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--workers", str(workers)],
        env={**os.environ, "CLOISTER_BOT_DELAY": "0", **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError, ValueError):
            if httpx.get(base + "/api/health", timeout=1).json()["status"] == "ok":
                return proc, base
        assert proc.poll() is None, "the server exited"
        time.sleep(0.2)
    stop(proc)
    raise RuntimeError("the workers did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.fixture
def two_workers(key_prefix: str, redis_store: object) -> Iterator[str]:
    # Without hand-off (server.handoff), which would bring a game's sockets onto one
    # worker: these tests are about two workers serving one game.
    env = {"REDIS_URL": REDIS_URL, "CLOISTER_PREFIX": key_prefix, "CLOISTER_HANDOFF": "0"}
    proc, base = start_workers(env)
    try:
        yield base
    finally:
        stop(proc)


def worker(p: Player) -> str:
    return str(p.ws.response.headers["x-cloister-worker"])


async def on_another_worker(base: str, gid: str, token: str | None, not_on: str) -> Player:
    """Connect until the socket lands on a worker other than ``not_on``.

    For up to a minute, with a pause between tries: health answers as soon as one worker
    is up, and on a loaded machine the other may still be starting (its Redis, its
    games) or lose every race for the shared socket's accepts for a while."""
    deadline = time.monotonic() + 60
    tries = 0
    while time.monotonic() < deadline:
        p = Player(base, gid, token)
        await p.connect()
        if worker(p) != not_on:
            return p
        await p.close()
        tries += 1
        await asyncio.sleep(0.1)
    raise AssertionError(f"every connection landed on the same worker ({tries} tries in 60 s)")


async def test_two_workers_one_game_players_and_spectators_on_different_workers(
    two_workers: str,
) -> None:
    base = two_workers
    async with http(base) as c:
        gid, tokens = await new_game(c, "high-card", {"players": 2})
    p0 = Player(base, gid, tokens[0])
    await p0.connect()
    p1 = await on_another_worker(base, gid, tokens[1], worker(p0))
    watchers = [
        await on_another_worker(base, gid, None, worker(p0)),
        await on_another_worker(base, gid, None, worker(p1)),
    ]
    assert worker(p0) != worker(p1)
    assert {worker(w) for w in watchers} == {worker(p0), worker(p1)}
    players = [p0, p1]
    moves = 0
    while p0.status != "finished":
        assert moves < 100, "the game did not end"
        movers = [p for p in players if p.legal]
        if not movers:
            # the other worker's append reaches this one through the doorbell
            await p0.recv()
            continue
        mover = movers[0]
        command = next((c for c in mover.legal if c["type"] == "Draw"), mover.legal[0])
        reply = await mover.command(command)
        assert reply["type"] == "accepted", reply
        moves += 1
        for p in [*players, *watchers]:
            await p.wait_version(reply["version"])
    for w in watchers:
        await w.wait_version(p0.version)
    # every connection, on either worker, holds the same board as a fresh look at the game
    async with http(base) as c:
        summary = (await c.get(f"/api/games/{gid}")).json()
        final = (await c.get(f"/api/games/{gid}/view")).json()
    assert summary["status"] == "finished" and summary["version"] == p0.version
    for p in [*players, *watchers]:
        assert p.view == final["view"], worker(p)
        await p.close()


def test_with_the_embedded_redis_the_parent_owns_it(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["CLOISTER_DATA"] = str(tmp_path / "data")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError, ValueError):
                if httpx.get(base + "/api/health", timeout=1).json()["status"] == "ok":
                    break
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.2)
        created = httpx.post(base + "/api/games", json={"type": "high-card"}).json()
        # fresh connections land on either worker; both know the game (one Redis)
        for _ in range(10):
            with httpx.Client(base_url=base) as c:
                assert c.get(f"/api/games/{created['id']}").json()["id"] == created["id"]
        assert (tmp_path / "data" / "redis.log").exists()  # the parent's Redis, in the folder
    finally:
        stop(proc)
    # the workers and the Redis went with the parent
    assert proc.returncode is not None
    time.sleep(0.5)
    leftovers = _processes_with(str(tmp_path / "data"))
    assert leftovers == [], leftovers


def _processes_with(text: str) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if text in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode():
                    out.append(int(entry.name))
    return out
