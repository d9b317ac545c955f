"""The zero-setup default: with no REDIS_URL the server owns a local Redis whose data
survives a restart, and which dies with the server even on SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

from tests.support import start_server_process


def _start(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["CLOISTER_DATA"] = str(data)
    return start_server_process(env)


def _redis_pids(data: Path) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        # Redis rewrites its process title but chdirs into its --dir: find it by that.
        if "redis-server" in cmdline and cwd == str(data.resolve()):
            pids.append(int(entry.name))
    return pids


def test_embedded_redis_lives_and_dies_with_the_server(tmp_path: Path) -> None:
    proc, base = _start(tmp_path)
    try:
        game = httpx.post(base + "/api/games", json={"type": "high-card"}).json()
        assert (
            httpx.post(f"{base}/api/games/{game['id']}/seats", json={"name": "a"}).status_code
            == 201
        )
        assert len(_redis_pids(tmp_path)) == 1
        time.sleep(1.5)  # appendfsync everysec
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    deadline = time.monotonic() + 10
    while _redis_pids(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _redis_pids(tmp_path) == [], "the embedded Redis outlived its server"

    proc, base = _start(tmp_path)  # a restart finds the game again
    try:
        again = httpx.get(f"{base}/api/games/{game['id']}").json()
        assert again["seats"][0]["name"] == "a" and again["status"] == "open"
    finally:
        proc.terminate()
        proc.wait(10)
    deadline = time.monotonic() + 10
    while _redis_pids(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _redis_pids(tmp_path) == []
