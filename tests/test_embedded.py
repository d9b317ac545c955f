"""The zero-setup default: with no REDIS_URL ``cloister serve`` owns a local Redis whose data
survives a restart and a SIGKILL, which dies with the server, and whose data folder only one
server at a time may use. Every server here is the real command (``python -m clients.cli
serve``) in a child process, with its data folder in the test's tmp_path."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from server.embedded import DataFolderLock, FolderBusy
from tests.support import free_port

ROOT = Path(__file__).resolve().parents[1]


def _env(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(CLOISTER_DATA=str(data), PYTHONPATH=str(ROOT), CLOISTER_BOT_DELAY="0")
    return env


def _serve(data: Path, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "serve", "--port", str(port)],
        env=_env(data),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _healthy(base: str, proc: subprocess.Popen[str], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        with contextlib.suppress(httpx.HTTPError, ValueError):
            if httpx.get(base + "/api/health", timeout=1).json()["status"] == "ok":
                return
        time.sleep(0.1)
    raise AssertionError("the server did not come up")


@contextlib.contextmanager
def serving(data: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    port = free_port()
    proc = _serve(data, port)
    base = f"http://127.0.0.1:{port}"
    try:
        _healthy(base, proc)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.communicate(timeout=15)  # also closes the pipes
        _wait_no_redis(data)


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


def _wait_no_redis(data: Path, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while _redis_pids(data) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _redis_pids(data) == [], "an embedded Redis outlived its server"


def _folder_state(data: Path) -> dict[str, Any]:
    """Everything a second server could have touched in the folder."""
    out: dict[str, Any] = {}
    for path in sorted(data.rglob("*")):
        st = path.stat()
        out[str(path.relative_to(data))] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return out


def _one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_games_survive_restarts_kills_and_an_aof_rewrite(tmp_path: Path) -> None:
    ids = []
    with serving(tmp_path) as (proc, base):
        assert len(_redis_pids(tmp_path)) == 1
        for _ in range(3):
            r = httpx.post(base + "/api/games", json={"type": "high-card", "bots": [{}, {}]})
            assert r.status_code == 201
            ids.append(r.json()["id"])
        # What lost a game before: an AOF rewrite (here forced) by the folder's Redis.
        holder = json.loads((tmp_path / "server.lock").read_text())
        client = redis.Redis.from_url(holder["redis"])
        client.bgrewriteaof()
        deadline = time.monotonic() + 10
        while client.info("persistence")["aof_rewrite_in_progress"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        client.close()
        ids.append(httpx.post(base + "/api/games", json={"type": "illumination"}).json()["id"])
        # No pause for appendfsync: the SIGKILLed server's Redis gets SIGTERM
        # (PR_SET_PDEATHSIG) and writes its AOF out before it exits; serving() checks that
        # it does exit.
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    # Restarted at once: it waits for that Redis to let go of the folder's lock.
    with serving(tmp_path) as (_, base):
        for gid in ids:
            assert httpx.get(f"{base}/api/games/{gid}").status_code == 200, gid
        ids.append(httpx.post(base + "/api/games", json={"type": "high-card"}).json()["id"])
    with serving(tmp_path) as (_, base):  # after a clean stop
        found = {g["id"]: g for g in httpx.get(f"{base}/api/games").json()["games"]}
        assert set(ids) <= set(found)
        assert all(found[gid]["status"] == "finished" for gid in ids[:3])  # the bots played


def test_a_second_server_on_the_same_folder_exits_and_touches_nothing(tmp_path: Path) -> None:
    with serving(tmp_path) as (first, base):
        gid = httpx.post(base + "/api/games", json={"type": "high-card"}).json()["id"]
        time.sleep(1.2)  # let the first Redis write its AOF, so mtimes would show a touch
        before = _folder_state(tmp_path)
        second = _serve(tmp_path, free_port())
        out, err = second.communicate(timeout=30)
        assert second.returncode == 1
        line = _one_line(err)
        assert f"pid {first.pid}" in line and base in line and str(tmp_path) in line
        assert out == ""  # no "Cloister on ..." banner: it never served
        assert _folder_state(tmp_path) == before
        assert len(_redis_pids(tmp_path)) == 1
        assert httpx.get(f"{base}/api/games/{gid}").status_code == 200
        # The same folder and the same port: the port is refused first, naming the server.
        port = int(base.rsplit(":", 1)[1])
        proc = _serve(tmp_path, port)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 1
        assert f"this data folder's Cloister server (pid {first.pid}" in _one_line(err)
        assert _folder_state(tmp_path) == before


def test_a_serve_on_a_busy_port_starts_nothing(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        data = tmp_path / "data"
        proc = _serve(data, port)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert "port is in use" in _one_line(err) and str(port) in err
    assert not data.exists()  # no folder, no lock file, no Redis, no AOF


def test_the_folder_lock_refuses_a_second_holder_and_names_the_first(tmp_path: Path) -> None:
    first = DataFolderLock(tmp_path)
    first.acquire()
    first.record(url="http://127.0.0.1:8123/")
    with pytest.raises(FolderBusy) as caught:
        DataFolderLock(tmp_path).acquire(wait=0.2)
    assert f"pid {os.getpid()}" in str(caught.value) and "8123" in str(caught.value)
    first.release()
    with DataFolderLock(tmp_path) as again:  # free once released
        assert again.holder()["pid"] == os.getpid()
