"""``python -m bench``: Cloister next to boardgame.io and Colyseus, rebuild speed, memory.

One run measures, in this order (``--no-peers`` skips the first part):

* the peer comparison (``bench/peers.py``): the same closed-loop load against Cloister (one
  and two workers, durable on a benchmark-owned Redis with AOF), boardgame.io 0.50.2 and
  Colyseus 0.18, installed from npm outside the repository; the swap game (``bench/
  swapgame.py``) with 1 and 100 matches, Illumination duel on Cloister, one match with 100
  spectators; rounds interleave the targets, the report takes medians;
* rebuild (``bench/rebuild.py``): a 7-player long Road game and a 4-player Campus Galli level
  III game loaded by a fresh node, with and without a snapshot;
* idle memory: KB per idle WebSocket connection of a fresh Cloister process.

The last line printed is one JSON object with the results. ``--floor`` runs instead the older
comparison with a floor server, described below.

The floor comparison (all against the real Redis at ``REDIS_URL``, default 127.0.0.1:6379,
under a fresh key prefix that is deleted at the end):

1. Starts two server processes with the same uvicorn WebSocket settings as ``cloister
   serve``: Cloister itself, and the *floor*, a bare Starlette WebSocket endpoint that
   decodes a message, does one XADD and sends a 1 KB reply (``bench/serve.py``).
2. Cloister: N concurrent two-seat games (``--games``), each played to the end by random
   players over real WebSockets, one game after another per lane. Games and seats are
   created and their sockets opened *before* the timed window, so the window holds only
   command traffic. A command's round trip is send → ``accepted`` and the sender's own
   ``update`` with the new version both received.
3. Floor: the same number of open connections (2 per game), of which as many send in a
   closed loop as Cloister had commands in flight on average (Little's law: Σ latency /
   window), i.e. the same load.
4. Repeats 2–3 (``--reps``) alternately and reports medians: the machine is noisy.
5. Rebuild: appends a long game log and times loading it into a fresh GameService (read,
   decode, fold) → events/s.
6. Idle memory: a fresh Cloister process, ``--idle`` WebSockets that said hello and got
   their welcome; VmRSS delta / connections.

The last line printed is one JSON object with the results.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import orjson

from .harness import (
    PreparedGame,
    Stats,
    connect_games,
    create_games,
    open_sock,
    run_cloister,
    run_floor,
    ws_base,
)

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m bench.serve KIND PORT PREFIX`` as a child process."""

    def __init__(self, kind: str, prefix: str) -> None:
        self.kind = kind
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, REDIS_URL=REDIS_URL, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bench.serve", kind, str(self.port), prefix],
            cwd=ROOT,
            env=env,
        )

    async def ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2) as http:
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(self.url + "/api/health")).status_code == 200:
                        return
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the {self.kind} server did not start")
                await asyncio.sleep(0.1)

    def cpu_seconds(self) -> float:
        """utime + stime of the server process so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def client_cpu() -> float:
    """CPU seconds of this (the harness) process so far."""
    t = os.times()
    return t.user + t.system


def summarise(stats: Stats, cpu: float, client: float = float("nan")) -> dict[str, float]:
    n = stats.commands
    return {
        "client_cpu_us": client / n * 1e6 if n else float("nan"),
        "p50_ms": pct(stats.latencies, 0.50) * 1000,
        "p99_ms": pct(stats.latencies, 0.99) * 1000,
        "per_s": n / stats.elapsed if stats.elapsed > 0 else 0.0,
        "inflight": sum(stats.latencies) / stats.elapsed if stats.elapsed > 0 else 0.0,
        "cpu_us": cpu / n * 1e6 if n else float("nan"),
        "n": n,
        "rejected": stats.rejected,
        "elapsed": stats.elapsed,
    }


async def close_games(games: list[PreparedGame]) -> None:
    for g in games:
        for s in g.socks:
            with contextlib.suppress(Exception):
                await s.close()


async def cloister_round(
    server: ServerProcess, n_games: int, per_lane: int, duration: float, profile: str | None = None
) -> tuple[dict[str, float], float]:
    t0 = time.perf_counter()
    games = await create_games(server.url, "high-card", n_games * per_lane)
    await connect_games(server.url, games)
    setup = time.perf_counter() - t0
    spy = start_profiler(server, profile, duration)
    cpu0, client0 = server.cpu_seconds(), client_cpu()
    stats = await run_cloister(server.url, games, n_games, duration)
    cpu, client = server.cpu_seconds() - cpu0, client_cpu() - client0
    if spy is not None:
        spy.wait()
    await close_games(games)
    # CPU is measured over the whole run (incl. warm-up and tail), so scale it to the window.
    scale = stats.elapsed / max(stats.elapsed + 0.5, 1e-9)
    return summarise(stats, cpu * scale, client * scale), setup


async def floor_round(
    server: ServerProcess, connections: int, inflight: int, duration: float
) -> dict[str, float]:
    cpu0, client0 = server.cpu_seconds(), client_cpu()
    stats = await run_floor(server.url, connections, inflight, duration)
    cpu, client = server.cpu_seconds() - cpu0, client_cpu() - client0
    scale = stats.elapsed / max(stats.elapsed + 0.5, 1e-9)
    return summarise(stats, cpu * scale, client * scale)


async def calibrate(server: ServerProcess, n_games: int) -> tuple[float, float]:
    """Play a few games per lane, untimed: (commands/s at this concurrency, commands per
    game). At least six games, so one lane still gives a usable rate."""
    count = max(2 * n_games, 6)
    games = await create_games(server.url, "high-card", count)
    await connect_games(server.url, games)
    stats = await run_cloister(server.url, games, n_games, duration=60, warmup=0)
    await close_games(games)
    per_game = stats.commands / count
    return stats.commands / max(stats.elapsed, 1e-9), per_game


async def rebuild_rate(prefix: str, n_events: int) -> dict[str, float]:
    """Append a long High Card log, then time a fresh GameService loading it (XRANGE pages,
    decode with the game's codec, fold with evolve)."""
    from domain import default_registry, fold
    from server.games import GameService
    from server.store.base import NewEvent
    from server.store.redis import RedisStore

    store = RedisStore(REDIS_URL, prefix)
    try:
        registry = default_registry()
        service = GameService(store, registry)
        rec = await service.create("high-card", {"players": 2}, "rebuild")
        await service.take_seat(rec, 0, "a")
        await service.take_seat(rec, 1, "b")
        version = rec.version
        # Passed is the cheapest legal-looking event to repeat: evolve never validates, so a
        # log of them folds like any other (it alternates turns and phases).
        chunk = 500
        while version < n_events:
            events = [
                NewEvent("Passed", {"seat": (version + i) % 2}, uuid.uuid4().hex)
                for i in range(min(chunk, n_events - version))
            ]
            result = await store.append(rec.id, version, f"fill:{version}", events)
            version = result.version
        loads, folds = [], []
        for _ in range(3):
            fresh = GameService(store, registry)
            t0 = time.perf_counter()
            loaded = await fresh.load(rec.id)
            loads.append(time.perf_counter() - t0)
            game = loaded.game
            domain_events = [e.event for e in loaded.log if e.event is not None]
            t0 = time.perf_counter()
            fold(game, game.initial_state(loaded.options), domain_events)
            folds.append(time.perf_counter() - t0)
        assert loaded.version == version
        return {
            "events": version,
            "load_s": statistics.median(loads),
            "events_per_s": version / statistics.median(loads),
            "fold_events_per_s": len(domain_events) / statistics.median(folds),
        }
    finally:
        await store.close()


async def idle_memory(prefix: str, n: int) -> dict[str, float]:
    server = ServerProcess("cloister", prefix + "-idle")
    try:
        await server.ready()
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            gid = (await http.post("/api/games", json={"type": "high-card"})).json()["id"]
            for seat in (0, 1):
                await http.post(f"/api/games/{gid}/seats", json={"name": f"p{seat}"})
        url = f"{ws_base(server.url)}/api/games/{gid}/ws"
        # One connection first, so one-off allocations (imports, the game record, the first
        # welcome) are not charged to the idle connections.
        first = await open_sock(url, {"type": "hello", "v": 2, "token": None, "since": None})
        await asyncio.sleep(1.0)
        before = server.rss_kb()
        sem = asyncio.Semaphore(50)

        async def one() -> Any:
            async with sem:
                return await open_sock(url, {"type": "hello", "v": 2, "token": None, "since": None})

        socks = await asyncio.gather(*(one() for _ in range(n)))
        await asyncio.sleep(1.5)
        after = server.rss_kb()
        for s in [first, *socks]:
            with contextlib.suppress(Exception):
                await s.close()
        return {"base_mb": before / 1024, "kb_per_conn": (after - before) / n}
    finally:
        server.stop()
        await delete_prefix(prefix + "-idle")


async def delete_prefix(prefix: str) -> None:
    from server.store.redis import RedisStore

    store = RedisStore(REDIS_URL, prefix)
    try:
        await store.delete_prefix()
    finally:
        await store.close()


def table(rows: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows)


async def floor_comparison(args: argparse.Namespace) -> dict[str, Any]:
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    cloister = ServerProcess("cloister", prefix)
    floor = ServerProcess("floor", prefix)
    started = time.perf_counter()
    try:
        await asyncio.gather(cloister.ready(), floor.ready())
        rate, per_game = await calibrate(cloister, args.games)
        # Enough games per lane for the window at the calibrated rate, with a margin.
        per_lane = max(2, math.ceil(rate * (args.duration + 0.5) * 1.5 / (args.games * per_game)))
        say(
            f"calibration: {rate:.0f} commands/s, {per_game:.1f} commands per game; "
            f"{per_lane} games per lane, {args.games} lanes"
        )
        reps_c: list[dict[str, float]] = []
        reps_f: list[dict[str, float]] = []
        for rep in range(args.reps):
            profile = args.profile if rep == 0 else None
            c, setup = await cloister_round(cloister, args.games, per_lane, args.duration, profile)
            inflight = max(1, round(c["inflight"]))
            f = await floor_round(floor, 2 * args.games, inflight, args.duration)
            reps_c.append(c)
            reps_f.append(f)
            say(
                f"rep {rep + 1}: cloister {c['per_s']:.0f}/s p50 {c['p50_ms']:.2f} ms "
                f"p99 {c['p99_ms']:.2f} ms ({c['n']} cmds, in flight {c['inflight']:.1f}, "
                f"{c['cpu_us']:.0f} µs server CPU/cmd, {c['client_cpu_us']:.0f} µs harness, "
                f"setup {setup:.1f} s) | floor "
                f"{f['per_s']:.0f}/s p50 {f['p50_ms']:.2f} ms p99 {f['p99_ms']:.2f} ms "
                f"({inflight} senders, {f['cpu_us']:.0f} µs/msg, "
                f"{f['client_cpu_us']:.0f} µs harness)"
            )
        rebuild = await rebuild_rate(prefix, args.rebuild_events)
        idle = await idle_memory(prefix, args.idle)
    finally:
        cloister.stop()
        floor.stop()
        await delete_prefix(prefix)

    def med(rows: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in rows)

    p50_ratios = [c["p50_ms"] / f["p50_ms"] for c, f in zip(reps_c, reps_f, strict=True)]
    tp_ratios = [c["per_s"] / f["per_s"] for c, f in zip(reps_c, reps_f, strict=True)]
    result = {
        "games": args.games,
        "connections": 2 * args.games,
        "reps": args.reps,
        "cmd_p50_ms": round(med(reps_c, "p50_ms"), 3),
        "cmd_p99_ms": round(med(reps_c, "p99_ms"), 3),
        "floor_p50_ms": round(med(reps_f, "p50_ms"), 3),
        "floor_p99_ms": round(med(reps_f, "p99_ms"), 3),
        "p50_ratio": round(statistics.median(p50_ratios), 3),
        "cmds_per_s": round(med(reps_c, "per_s"), 1),
        "floor_msgs_per_s": round(med(reps_f, "per_s"), 1),
        "throughput_ratio": round(statistics.median(tp_ratios), 3),
        "inflight": round(med(reps_c, "inflight"), 1),
        "cmd_server_cpu_us": round(med(reps_c, "cpu_us"), 1),
        "floor_server_cpu_us": round(med(reps_f, "cpu_us"), 1),
        # Server CPU per message, floor / Cloister: the efficiency ratio, steadier than the
        # throughput ratio when the machine is shared (neither server may reach a full core).
        "server_cpu_ratio": round(
            statistics.median(
                f["cpu_us"] / c["cpu_us"] for c, f in zip(reps_c, reps_f, strict=True)
            ),
            3,
        ),
        "cmd_client_cpu_us": round(med(reps_c, "client_cpu_us"), 1),
        "floor_client_cpu_us": round(med(reps_f, "client_cpu_us"), 1),
        "rejected": int(sum(r["rejected"] for r in reps_c)),
        "rebuild_events_per_s": round(rebuild["events_per_s"]),
        "rebuild_fold_events_per_s": round(rebuild["fold_events_per_s"]),
        "rebuild_events": int(rebuild["events"]),
        "idle_conn_kb": round(idle["kb_per_conn"], 1),
        "idle_base_mb": round(idle["base_mb"], 1),
        "wall_s": round(time.perf_counter() - started, 1),
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }
    rows = [
        ("", "p50 ms", "p99 ms", "per s", "server µs/cmd"),
        (
            "cloister",
            f"{result['cmd_p50_ms']:.2f}",
            f"{result['cmd_p99_ms']:.2f}",
            f"{result['cmds_per_s']:.0f}",
            f"{result['cmd_server_cpu_us']:.0f}",
        ),
        (
            "floor",
            f"{result['floor_p50_ms']:.2f}",
            f"{result['floor_p99_ms']:.2f}",
            f"{result['floor_msgs_per_s']:.0f}",
            f"{result['floor_server_cpu_us']:.0f}",
        ),
        (
            "ratio",
            f"{result['p50_ratio']:.2f}",
            "",
            f"{result['throughput_ratio']:.2f}",
            "",
        ),
    ]
    say("")
    say(f"{args.games} concurrent games, {2 * args.games} connections, medians of {args.reps}:")
    say(table(rows))
    say(
        f"targets: p50_ratio <= 2.0 (aim 1.5): "
        f"{'ok' if result['p50_ratio'] <= 2.0 else 'MISSED'}; throughput_ratio >= 0.5 "
        f"(aim 0.75): {'ok' if result['throughput_ratio'] >= 0.5 else 'MISSED'}"
    )
    say(
        f"rebuild: {result['rebuild_events_per_s']} events/s load "
        f"({result['rebuild_events']} events; fold alone {result['rebuild_fold_events_per_s']}/s)"
    )
    say(f"idle: {result['idle_conn_kb']} KB per idle connection (base {result['idle_base_mb']} MB)")
    return result


def start_profiler(
    server: ServerProcess, path: str | None, seconds: float
) -> subprocess.Popen[bytes] | None:
    """py-spy on the Cloister server during the first window (collapsed stacks)."""
    if not path:
        return None
    return subprocess.Popen(
        ["py-spy", "record", "-p", str(server.proc.pid), "-o", path, "-f", "raw",
         "-d", str(int(seconds)), "-r", "250", "--nonblocking"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def say(text: str) -> None:
    print(text, flush=True)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    import tempfile

    from .peers import BenchRedis, measure
    from .rebuild import rebuild_rates

    started = time.perf_counter()
    result: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d"),
        "load_avg_1m_start": round(os.getloadavg()[0], 2),
    }
    with tempfile.TemporaryDirectory(prefix="cloister-bench-") as scratch:
        redis = BenchRedis(Path(scratch) / "redis")
        try:
            await redis.ready()
            if not args.no_peers:
                result["peers"] = await measure(args, say, redis)
            if not args.only_peers:
                result["rebuild"] = await rebuild_rates(redis.url, args.rebuild_reps)
        finally:
            redis.stop()
    if not args.only_peers:
        idle = await idle_memory(f"bench-idle-{uuid.uuid4().hex[:8]}", args.idle)
        result["idle_conn_kb"] = round(idle["kb_per_conn"], 1)
        result["idle_base_mb"] = round(idle["base_mb"], 1)
    result["wall_s"] = round(time.perf_counter() - started, 1)
    result["load_avg_1m_end"] = round(os.getloadavg()[0], 2)
    report(result)
    return result


def report(result: dict[str, Any]) -> None:
    """The tables and the targets of issue 15, in words."""
    peers = result.get("peers")
    if peers:
        rows: list[tuple[str, ...]] = [
            ("scenario", "server", "moves/s", "p50 ms", "p99 ms", "server µs/move",
             "+redis µs", "load µs", "B/update", "RSS MB"),
        ]  # fmt: skip
        for scenario, by_target in peers.items():
            if scenario == "spectators":
                continue
            for name, r in by_target.items():
                rows.append(
                    (
                        scenario,
                        name,
                        f"{r['moves_per_s']:.0f}",
                        f"{r['p50_ms']:.2f}",
                        f"{r['p99_ms']:.2f}",
                        f"{r['server_cpu_us']:.0f}",
                        f"{r['redis_cpu_us']:.0f}" if name.startswith("cloister") else "",
                        # (None in a result saved before the load generator reported it)
                        f"{r['load_cpu_us']:.0f}" if r.get("load_cpu_us") is not None else "",
                        f"{r['bytes_per_update']:.0f}",
                        f"{r['rss_mb']:.0f}",
                    )
                )
        say("")
        say(table(rows))
        spect = peers.get("spectators", {})
        if spect:
            say("")
            say(
                table(
                    [("100 spectators", "p50 ms", "p99 ms")]
                    + [(n, f"{r['p50_ms']:.2f}", f"{r['p99_ms']:.2f}") for n, r in spect.items()]
                )
            )
        if not args_partial(peers):
            say("")
            for line in targets(result):
                say(line)
    say("")
    for label, r in result.get("rebuild", {}).items():
        say(
            f"rebuild {label} ({r['events']} events): {r['snapshot_events_per_s']:,.0f} events/s "
            f"with its snapshot, {r['cold_events_per_s']:,.0f} cold; orjson alone "
            f"{r['orjson_events_per_s']:,.0f}/s (CPU-time rates: "
            f"{r['snapshot_cpu_events_per_s']:,.0f} / {r['cold_cpu_events_per_s']:,.0f})"
        )
    if "idle_conn_kb" in result:
        say(
            f"idle: {result['idle_conn_kb']} KB per idle connection "
            f"(base {result['idle_base_mb']} MB)"
        )


def args_partial(peers: dict[str, Any]) -> bool:
    """Whether a --scenarios/--targets run left out what the targets compare."""
    need = {
        "swap-100": {"cloister", "cloister-2w", "boardgame.io", "colyseus"},
        "illumination-100": {"cloister", "cloister-2w"},
        "spectators": {"cloister", "boardgame.io"},
    }
    return any(not names <= set(peers.get(s, {})) for s, names in need.items())


def by_round(peers: dict[str, Any], mine: tuple[str, str], theirs: tuple[str, str]) -> str:
    """The ratio of the two moves/s figures within each round (each pair ran minutes
    apart at most: a shared machine's slower spells fall on both), where both have them."""
    a = peers[mine[0]][mine[1]].get("moves_per_s_rounds")
    b = peers[theirs[0]][theirs[1]].get("moves_per_s_rounds")
    if not a or not b or len(a) != len(b):
        return ""
    return "; round by round " + ", ".join(f"{x / y:.2f}x" for x, y in zip(a, b, strict=True))


def targets(result: dict[str, Any]) -> list[str]:
    """Issue 15's targets against this run's medians (ratios to boardgame.io)."""
    p = result["peers"]
    out = []

    def get(scenario: str, name: str, key: str) -> float:
        return float(p[scenario][name][key])

    bg = "boardgame.io"
    for cl in ("cloister", "cloister-2w"):
        ratio = get("swap-100", cl, "moves_per_s") / get("swap-100", bg, "moves_per_s")
        cpu = get("swap-100", cl, "server_cpu_us") / get("swap-100", bg, "server_cpu_us")
        cpu_r = (get("swap-100", cl, "server_cpu_us") + get("swap-100", cl, "redis_cpu_us")) / get(
            "swap-100", bg, "server_cpu_us"
        )
        out.append(
            f"{cl}: swap game, 100 matches: {ratio:.2f}x boardgame.io's moves/s (target >= 1.6: "
            f"{'met' if ratio >= 1.6 else 'NOT met'}); server CPU per move {cpu:.2f}x (target "
            f"<= 0.6: {'met' if cpu <= 0.6 else 'NOT met'}; with Redis's {cpu_r:.2f}x)"
            + by_round(p, ("swap-100", cl), ("swap-100", bg))
        )
        illum = get("illumination-100", cl, "moves_per_s") / get("swap-100", bg, "moves_per_s")
        out.append(
            f"{cl}: Illumination, 100 matches: {illum:.2f}x the moves/s boardgame.io reaches "
            f"on its own game (target >= 1.0: {'met' if illum >= 1.0 else 'NOT met'})"
            + by_round(p, ("illumination-100", cl), ("swap-100", bg))
        )
    median = get("illumination-100", "cloister", "median_update_bytes")
    out.append(
        f"median Illumination update: {median:.0f} bytes (target <= 1536: "
        f"{'met' if median <= 1536 else 'NOT met'})"
    )
    s = p["spectators"]
    sp = s["cloister"]["p99_ms"] / s[bg]["p99_ms"]
    out.append(
        f"a move to the last of 100 spectators, p99: {s['cloister']['p99_ms']:.2f} ms, "
        f"{sp:.2f}x boardgame.io's (target <= 1.0: {'met' if sp <= 1.0 else 'NOT met'})"
    )
    idle = result.get("idle_conn_kb")
    if idle is not None:
        out.append(
            f"idle connection: {idle} KB (target <= 30: {'met' if idle <= 30 else 'NOT met'})"
        )
    co = "colyseus"
    out.append(
        f"Colyseus, swap game, 100 matches: {get('swap-100', co, 'moves_per_s'):.0f} moves/s, "
        f"{get('swap-100', co, 'server_cpu_us'):.0f} µs CPU/move, "
        f"{get('swap-100', co, 'bytes_per_update'):.0f} B/update (the next mark)"
    )
    return out


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    p.add_argument("--reps", type=int, default=3, help="rounds (each runs every target once)")
    p.add_argument("--duration", type=float, default=6.0, help="seconds per timing window")
    p.add_argument("--warmup", type=float, default=1.0, help="seconds before each window")
    p.add_argument("--per-lane-100", type=int, default=3, help="matches per lane at 100")
    p.add_argument("--per-lane-1", type=int, default=60, help="matches per lane at 1")
    p.add_argument(
        "--per-lane-illumination",
        type=int,
        default=8,
        help="Illumination matches per lane at 100 (enough that no lane runs dry in the window)",
    )
    p.add_argument("--spectators", type=int, default=100)
    p.add_argument("--spectator-moves", type=int, default=200)
    p.add_argument("--rebuild-reps", type=int, default=30)
    p.add_argument("--idle", type=int, default=500, help="idle connections for memory")
    p.add_argument("--no-peers", action="store_true", help="skip the peer comparison")
    p.add_argument(
        "--scenarios",
        default=None,
        help="peer scenarios to run, comma-separated (swap-100, swap-1, illumination-100, "
        "illumination-1, spectators); default all; the report's targets need all",
    )
    p.add_argument(
        "--targets",
        default=None,
        help="servers to run, comma-separated (cloister, cloister-2w, boardgame.io, colyseus)",
    )
    p.add_argument(
        "--only-peers", action="store_true", help="skip rebuild and idle memory (with --scenarios)"
    )
    p.add_argument("--peers-dir", default=None, help="where npm installs the peers")
    p.add_argument("--floor", action="store_true", help="run the older floor comparison")
    p.add_argument("--games", type=int, default=32, help="--floor: concurrent games")
    p.add_argument("--rebuild-events", type=int, default=20_000, help="--floor: rebuild size")
    p.add_argument("--profile", metavar="FILE", help="--floor: py-spy the server")
    args = p.parse_args()
    if args.peers_dir is None:
        from .peers import default_peers_dir

        args.peers_dir = str(default_peers_dir())
    try:
        import uvloop

        uvloop.install()  # the servers run on uvloop too (uvicorn's "auto")
    except ImportError:
        pass
    result = asyncio.run(floor_comparison(args) if args.floor else main_async(args))
    print(orjson.dumps(result).decode(), flush=True)


if __name__ == "__main__":
    main()
