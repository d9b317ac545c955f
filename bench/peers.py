"""The peer comparison: Cloister, boardgame.io 0.50.2 and Colyseus 0.18 under the same load.

* The peers are installed from npm into a folder outside the repository (``--peers-dir``,
  default ``~/.cache/cloister-bench/peers``; it is reused when the versions match), next to
  copies of ``bench/peers/*`` (our peer servers and the load generator) and the web client's
  ``delta.js``.
* Every server runs in its own process. Cloister is durable: a benchmark-owned
  ``redis-server`` with ``appendonly yes`` (fsync every second) on a free port, never the
  shared one. Cloister runs once with one worker and once with two (``--workers``).
* One Node process (``load.mjs``) plays the load through each server's own client; it prints
  when its timing window opens and closes, and the server's CPU (and Redis's) is read from
  ``/proc`` at those moments: CPU per move counts only the window. The load generator
  reports its own CPU over the window too: it shares the machine with the servers.
* Scenarios, in rounds (each round runs every target once, in an order that rotates, and the
  report takes medians over rounds, and for the targets also the ratio within each round):
  the swap game (``bench.swapgame``, equal to the peers' ``bgio-game.cjs`` /
  ``colyseus-server.mjs``) with 1 and 100 concurrent matches; Illumination duel on Cloister
  with 1 and 100; one swap match with 100 spectators.
* A lane plays its matches one after another. The swap game's matches outlast the window
  and are all connected before it; Illumination's random duels end after a few dozen
  moves, so at 100 its lanes hold eight each (``--per-lane-illumination``), created before
  the window and connected as the lane comes to them, and left when they end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = [
    "boardgame.io@0.50.2",
    "@colyseus/core@0.18",
    "@colyseus/ws-transport@0.18",
    "@colyseus/schema@5",
    "@colyseus/sdk@0.18",
    "ws@8",
]
"""What ``npm install`` brings. ``colyseus`` (the meta-package) would pull uWebSockets.js from
GitHub, which this machine cannot reach; the core server and its ws transport are Colyseus
0.18 itself."""

CLK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def default_peers_dir() -> Path:
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "cloister-bench" / "peers"


def install_peers(folder: Path, say: Callable[[str], None]) -> Path:
    """npm-install the peers into ``folder`` (once) and copy our scripts next to them."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = folder / "installed.json"
    if not stamp.exists() or json.loads(stamp.read_text()) != PACKAGES:
        say(f"installing {', '.join(PACKAGES)} into {folder} (npm)")
        (folder / "package.json").write_text(
            json.dumps({"name": "cloister-bench-peers", "private": True, "type": "module"})
        )
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *PACKAGES],
            cwd=folder,
            check=True,
            timeout=900,
        )
        stamp.write_text(json.dumps(PACKAGES))
    for path in (ROOT / "bench" / "peers").iterdir():
        if path.suffix in (".mjs", ".cjs", ".js"):
            shutil.copy(path, folder / path.name)
    shutil.copy(ROOT / "clients" / "web" / "delta.js", folder / "delta.js")
    return folder


# -- processes --------------------------------------------------------------------------------
def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def tree(pid: int) -> list[int]:
    """``pid`` and all its descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            total += int(fields[11]) + int(fields[12])
    return total / CLK


def rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


class Proc:
    """A server child process with a health URL; its CPU counts its whole process tree."""

    def __init__(self, name: str, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def pids(self) -> list[int]:
        return tree(self.proc.pid)

    def cpu(self) -> float:
        return cpu_seconds(self.pids())

    def rss_kb(self) -> int:
        return rss_kb(self.pids())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


async def wait_http(url: str, proc: Proc, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(timeout=2) as http:
        while True:
            with contextlib.suppress(httpx.HTTPError):
                r = await http.get(url)
                if r.status_code < 500:
                    return
            if proc.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{proc.name} did not start")
            await asyncio.sleep(0.2)


class BenchRedis(Proc):
    """A redis-server of the benchmark's own: AOF on, fsync every second, a temp folder."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        binary = shutil.which("redis-server")
        if binary is None:
            from server.embedded import _redis_binary

            binary = _redis_binary()
        super().__init__(
            "redis",
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--appendonly", "yes",
             "--appendfsync", "everysec", "--save", "", "--dir", str(folder),
             "--logfile", str(folder / "redis.log")],
            folder,
            dict(os.environ),
        )  # fmt: skip
        self.url = f"redis://127.0.0.1:{self.port}/0"

    async def ready(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s,
            ):
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
            await asyncio.sleep(0.05)
        raise RuntimeError("the benchmark's Redis did not start")


# -- the runs -------------------------------------------------------------------------------
async def run_load(
    folder: Path, args: list[str], watch: list[Proc], timeout: float = 300
) -> dict[str, Any]:
    """Run load.mjs; sample the CPU of ``watch`` at its window's open and close."""
    proc = await asyncio.create_subprocess_exec(
        "node", "load.mjs", *args, cwd=folder, stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdout is not None
    marks: dict[str, list[float]] = {}
    result: dict[str, Any] | None = None
    t_open = t_close = 0.0
    try:
        async with asyncio.timeout(timeout):
            while line := await proc.stdout.readline():
                msg = json.loads(line)
                event = msg.get("event")
                if event in ("open", "close"):
                    marks[event] = [w.cpu() for w in watch]
                    if event == "open":
                        t_open = time.perf_counter()
                    else:
                        t_close = time.perf_counter()
                else:
                    result = msg
            await proc.wait()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    if result is None or "open" not in marks or "close" not in marks:
        raise RuntimeError(f"load.mjs {' '.join(args)} gave no result")
    result["cpu_s"] = [c - o for o, c in zip(marks["open"], marks["close"], strict=True)]
    result["wall_s"] = t_close - t_open
    return result


Target = dict[str, Any]


async def start_targets(
    folder: Path, redis: BenchRedis, prefix: str, say: Callable[[str], None]
) -> dict[str, Target]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), REDIS_URL=redis.url, NODE_ENV="production")
    targets: dict[str, Target] = {}
    for name, workers in (("cloister", 1), ("cloister-2w", 2)):
        port = free_port()
        proc = Proc(
            name,
            [sys.executable, "-m", "bench.serve", "cloister", str(port), f"{prefix}-{name}",
             str(workers)],
            ROOT,
            env,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        targets[name] = {
            "proc": proc,
            "url": url,
            "kind": "cloister",
            "health": url + "/api/health",
        }
    port = free_port()
    targets["boardgame.io"] = {
        "proc": Proc("boardgame.io", ["node", "bgio-server.cjs", str(port)], folder, env),
        "url": f"http://127.0.0.1:{port}",
        "kind": "bgio",
        "health": f"http://127.0.0.1:{port}/games",
    }
    port = free_port()
    targets["colyseus"] = {
        "proc": Proc("colyseus", ["node", "colyseus-server.mjs", str(port)], folder, env),
        "url": f"http://127.0.0.1:{port}",
        "kind": "colyseus",
        "health": f"http://127.0.0.1:{port}/matchmake/",
    }
    await asyncio.gather(*(wait_http(t["health"], t["proc"]) for t in targets.values()))
    say(
        "servers up: "
        + ", ".join(f"{n} ({t['url']}, pid {t['proc'].proc.pid})" for n, t in targets.items())
    )
    return targets


SCENARIOS: list[tuple[str, list[str], str, int]] = [
    # (name, targets, game, concurrent matches)
    ("swap-100", ["cloister", "cloister-2w", "boardgame.io", "colyseus"], "bench-swap", 100),
    ("swap-1", ["cloister", "cloister-2w", "boardgame.io", "colyseus"], "bench-swap", 1),
    ("illumination-100", ["cloister", "cloister-2w"], "illumination", 100),
    ("illumination-1", ["cloister"], "illumination", 1),
]


async def measure(args: Any, say: Callable[[str], None], redis: BenchRedis) -> dict[str, Any]:
    folder = install_peers(Path(args.peers_dir), say)
    prefix = f"bench-{os.getpid()}"
    targets = await start_targets(folder, redis, prefix, say)
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {}
    only = set(args.scenarios.split(",")) if args.scenarios else None
    wanted = set(args.targets.split(",")) if args.targets else None
    try:
        for rnd in range(args.reps):
            for s_i, (scenario, all_names, game, matches) in enumerate(SCENARIOS):
                if only is not None and scenario not in only:
                    continue
                names = [n for n in all_names if wanted is None or n in wanted]
                if not names:
                    continue
                # Rotate the order each round, so no target always runs first (warm caches,
                # a noisy neighbour at the start of a round).
                k = (rnd + s_i) % len(names)
                for name in names[k:] + names[:k]:
                    t = targets[name]
                    per_lane = args.per_lane_1 if matches == 1 else args.per_lane_100
                    if game == "illumination" and matches == 1:
                        per_lane = max(2, per_lane // 4)
                    elif game == "illumination":
                        # At 100 matches a lane needs matches in reserve too: random play
                        # ends some Illumination duels in a few dozen moves, and the first
                        # lane that runs dry closes the window for all. With three a lane
                        # the window closed after 1 to 3 s, where the swap game's run their
                        # 6 s: too short to average out a shared machine's swings.
                        per_lane = args.per_lane_illumination
                    try:
                        out = await run_load(
                            folder,
                            ["play", t["kind"], t["url"], str(matches), str(per_lane),
                             str(args.duration), str(args.warmup), game],
                            [t["proc"], redis],
                        )  # fmt: skip
                    except RuntimeError as exc:
                        # One failed repetition (a load generator that died) costs that
                        # round's figure, not the whole run: medians take the others.
                        say(f"round {rnd + 1} {scenario:17} {name:13} FAILED: {exc}")
                        continue
                    out["rss_mb"] = t["proc"].rss_kb() / 1024
                    runs.setdefault(scenario, {}).setdefault(name, []).append(out)
                    say(f"round {rnd + 1} {scenario:17} {name:13} {describe(out)}")
            for name in ("cloister", "boardgame.io", "colyseus"):
                if (only is not None and "spectators" not in only) or (
                    wanted is not None and name not in wanted
                ):
                    continue
                t = targets[name]
                out = await run_load(
                    folder,
                    [
                        "spectate",
                        t["kind"],
                        t["url"],
                        str(args.spectators),
                        str(args.spectator_moves),
                    ],
                    [t["proc"], redis],
                )
                runs.setdefault("spectators", {}).setdefault(name, []).append(out)
                say(
                    f"round {rnd + 1} spectators        {name:13} move -> last of "
                    f"{args.spectators}: p50 {out['p50_ms']:.2f} ms p99 {out['p99_ms']:.2f} ms"
                )
    finally:
        for t in targets.values():
            t["proc"].stop()
    return summarise(runs)


def describe(out: dict[str, Any]) -> str:
    moves = out["moves"] or 1
    server, redis = (c / moves * 1e6 for c in out["cpu_s"])
    load = (out.get("load_cpu_s") or 0) / moves * 1e6
    return (
        f"{out['per_s']:8.0f} moves/s p50 {out['p50_ms'] or 0:6.2f} ms "
        f"p99 {out['p99_ms'] or 0:6.2f} ms server {server:5.0f} µs/move redis {redis:4.0f} "
        f"{(out['bytes_per_update'] or 0):6.0f} B/update load {load:4.0f} µs/move "
        f"({out['moves']} moves, "
        f"{out['wall_s']:.1f} s)"
    )


def summarise(runs: dict[str, dict[str, list[dict[str, Any]]]]) -> dict[str, Any]:
    def med(values: list[float | None]) -> float | None:
        vals = [v for v in values if v is not None]
        return statistics.median(vals) if vals else None

    out: dict[str, Any] = {}
    for scenario, by_target in runs.items():
        out[scenario] = {}
        for name, reps in by_target.items():
            row: dict[str, Any] = {"reps": len(reps)}
            if scenario == "spectators":
                row["p50_ms"] = med([r["p50_ms"] for r in reps])
                row["p99_ms"] = med([r["p99_ms"] for r in reps])
            else:
                row["moves_per_s"] = med([r["per_s"] for r in reps])
                # Round by round (in run order), for ratios within a round.
                row["moves_per_s_rounds"] = [r["per_s"] for r in reps]
                row["p50_ms"] = med([r["p50_ms"] for r in reps])
                row["p99_ms"] = med([r["p99_ms"] for r in reps])
                row["server_cpu_us"] = med([r["cpu_s"][0] / max(r["moves"], 1) * 1e6 for r in reps])
                row["redis_cpu_us"] = med([r["cpu_s"][1] / max(r["moves"], 1) * 1e6 for r in reps])
                # The load generator's own CPU: it shares the machine with the servers.
                row["load_cpu_us"] = med(
                    [
                        r["load_cpu_s"] / max(r["moves"], 1) * 1e6
                        if r.get("load_cpu_s") is not None
                        else None
                        for r in reps
                    ]
                )
                row["bytes_per_update"] = med([r["bytes_per_update"] for r in reps])
                row["median_update_bytes"] = med([r["median_update_bytes"] for r in reps])
                row["rss_mb"] = med([r["rss_mb"] for r in reps])
            out[scenario][name] = row
    return out
