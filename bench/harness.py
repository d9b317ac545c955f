"""The client side of the benchmark: lean WebSocket players and the floor driver.

The harness shares two CPU cores with the servers and Redis, so it is deliberately lean:
orjson on raw frames, no cattrs, no GameClient bookkeeping. Cloister and the floor are driven
by the same code path (``Sock``), so harness overhead cancels out of the ratios.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Callable
from typing import Any

import attrs
import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from protocol import expand_legal

WS_OPTS: dict[str, Any] = {
    "max_size": 1 << 20,
    "compression": None,
    "ping_interval": None,  # keepalive pings would be noise in the measurement
    "open_timeout": 60,
    "close_timeout": 2,
}


@attrs.define
class Stats:
    latencies: list[float] = attrs.field(factory=list)
    """Seconds from send to (accepted and own update) per command, inside the window."""
    commands: int = 0
    rejected: int = 0
    started: float = 0.0
    ended: float = 0.0
    in_window: Callable[[float], bool] = lambda t: True

    @property
    def elapsed(self) -> float:
        return self.ended - self.started

    def record(self, t0: float, t1: float) -> None:
        if self.in_window(t0) and self.in_window(t1):
            self.latencies.append(t1 - t0)
            self.commands += 1


class Sock:
    """One WebSocket with a reader task; ``request`` sends a frame and waits for ``done``."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.version = 0
        self.legal: list[dict[str, Any]] = []
        self.to_act: list[int] = []
        self.seat: int | None = None
        self.finished = False
        self.waiter: asyncio.Future[None] | None = None
        self.want_version = 0
        self.accepted_version = -1
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = orjson.loads(raw)
                kind = msg["type"]
                if kind in ("update", "welcome"):
                    self.version = msg["version"]
                    if "legal" in msg:  # compact, and only when it changed
                        self.legal = expand_legal(msg["legal"])
                    self.to_act = msg["to_act"]
                    self.finished = msg["status"] == "finished"
                    if kind == "welcome":
                        self.seat = msg["seat"]
                    elif msg.get("command_id") is not None:
                        # The sender's own update is also its command's acceptance.
                        self.accepted_version = msg["version"]
                elif kind == "accepted":
                    self.accepted_version = msg["version"]
                elif kind == "rejected":
                    self.accepted_version = -2
                elif kind == "game_over":
                    self.finished = True
                self._check()
                self.changed.set()
        except Exception:
            pass
        finally:
            self.finished = True
            self.changed.set()
            if self.waiter is not None and not self.waiter.done():
                self.waiter.set_exception(ConnectionError("socket closed"))

    def _check(self) -> None:
        w = self.waiter
        if w is None or w.done():
            return
        # Done when the reply came and (if accepted) our own update reached its version.
        if self.accepted_version == -2 or (
            self.accepted_version >= 0 and self.version >= self.accepted_version
        ):
            w.set_result(None)

    async def request(self, frame: str) -> bool:
        """Send ``frame``; True when accepted (and our view updated), False if rejected."""
        self.accepted_version = -1
        self.waiter = asyncio.get_running_loop().create_future()
        await self.ws.send(frame)
        await self.waiter
        return self.accepted_version != -2

    async def wait_change(self) -> None:
        self.changed.clear()
        await self.changed.wait()

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


async def open_sock(url: str, hello: dict[str, Any] | None) -> Sock:
    ws = await connect(url, **WS_OPTS)
    if hello is not None:
        await ws.send(orjson.dumps(hello).decode())
    sock = Sock(ws)
    if hello is not None:
        while sock.seat is None and sock.version == 0 and not sock.finished:
            await sock.wait_change()
    return sock


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal command; Draw whenever it is legal.

    High Card deadlocks a seat that passed twice (no card left to play in round 3), so a
    fully random player would hang some games.
    """
    for command in legal:
        if command.get("type") == "Draw":
            return command
    return rng.choice(legal)


# -- Cloister -------------------------------------------------------------------------------
@attrs.define
class PreparedGame:
    game_id: str
    tokens: list[str]
    socks: list[Sock] = attrs.field(factory=list)


async def create_games(
    base: str, game_type: str, n: int, concurrency: int = 32
) -> list[PreparedGame]:
    """Create ``n`` two-seat games and take both seats (HTTP, before any timing)."""
    sem = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

        async def one(i: int) -> PreparedGame:
            async with sem:
                for attempt in range(5):
                    try:
                        return await setup(i)
                    except (httpx.TransportError, KeyError):
                        # A keep-alive connection closed under us, or a 5xx under load:
                        # start over with a fresh game (an abandoned one costs nothing).
                        await asyncio.sleep(0.1 * (attempt + 1))
                return await setup(i)

        async def setup(i: int) -> PreparedGame:
            game = (
                await http.post("/api/games", json={"type": game_type, "options": {"players": 2}})
            ).json()
            tokens = []
            for seat in (0, 1):
                body = {"name": f"b{i}s{seat}", "seat": seat}
                r = await http.post(f"/api/games/{game['id']}/seats", json=body)
                tokens.append(r.json()["token"])
            return PreparedGame(game["id"], tokens)

        return list(await asyncio.gather(*(one(i) for i in range(n))))


def ws_base(base: str) -> str:
    return "ws://" + base.split("://", 1)[1]


async def connect_games(base: str, games: list[PreparedGame], concurrency: int = 48) -> None:
    sem = asyncio.Semaphore(concurrency)

    async def one(g: PreparedGame) -> None:
        async with sem:
            url = f"{ws_base(base)}/api/games/{g.game_id}/ws"
            g.socks = [
                await open_sock(url, {"type": "hello", "v": 2, "token": t, "since": None})
                for t in g.tokens
            ]

    await asyncio.gather(*(one(g) for g in games))


async def play_game(game: PreparedGame, stats: Stats, rng: random.Random, stop: float) -> None:
    """Both seats play to the end (or until ``stop``): every seat that is to act sends a
    random legal command; simultaneous seats send concurrently."""

    async def move(sock: Sock) -> None:
        command = choose(sock.legal, rng)
        frame = orjson.dumps(
            {"type": "command", "command_id": uuid.uuid4().hex, "command": command}
        ).decode()
        t0 = time.perf_counter()
        ok = await sock.request(frame)
        t1 = time.perf_counter()
        if ok:
            stats.record(t0, t1)
        else:
            stats.rejected += 1

    socks = game.socks
    while time.perf_counter() < stop:
        if all(s.finished for s in socks):
            break
        movers = [s for s in socks if s.seat in s.to_act and s.legal and not s.finished]
        if not movers:
            # The other seat's update has not arrived yet: wait for any socket to change.
            waits = [asyncio.ensure_future(s.wait_change()) for s in socks]
            await asyncio.wait(waits, timeout=5, return_when=asyncio.FIRST_COMPLETED)
            for w in waits:
                w.cancel()
            continue
        await asyncio.gather(*(move(s) for s in movers))
    # Sockets are closed after the window (close_games): closing costs the server too, and
    # with a nine-command demo game it would weigh far more than in a real, long game.


async def run_cloister(
    base: str, pool: list[PreparedGame], lanes: int, duration: float, warmup: float = 0.5
) -> Stats:
    """``lanes`` concurrent games: each lane takes the next game from the shared pool when
    its game ends, so N games are always in play.

    The window opens ``warmup`` seconds after the start and lasts ``duration``; it closes
    early if the pool runs dry (it is sized from a calibration run, with a margin).
    """
    stats = Stats()
    start = time.perf_counter()
    window = [start + warmup, start + warmup + duration]
    stats.in_window = lambda t: window[0] <= t <= window[1]
    rng = random.Random(7)
    queue = list(reversed(pool))

    async def lane() -> None:
        while queue and time.perf_counter() < window[1]:
            await play_game(queue.pop(), stats, rng, window[1])
        # A lane that ran dry shortens the window: past here, fewer games are concurrent.
        window[1] = min(window[1], max(time.perf_counter(), window[0]))

    await asyncio.gather(*(lane() for _ in range(lanes)))
    stats.started, stats.ended = window[0], window[1]
    return stats


# -- the floor ------------------------------------------------------------------------------
async def run_floor(base: str, connections: int, inflight: int, duration: float,
                    warmup: float = 0.5) -> Stats:  # fmt: skip
    """``connections`` open sockets, of which ``inflight`` send in a closed loop (one frame
    in flight each): the same open connections and the same load as the Cloister run."""
    url = f"{ws_base(base)}/ws"
    sem = asyncio.Semaphore(48)

    async def opener() -> Sock:
        async with sem:
            return await open_sock(url, None)

    socks = list(await asyncio.gather(*(opener() for _ in range(connections))))
    stats = Stats()
    start = time.perf_counter()
    window = (start + warmup, start + warmup + duration)
    stats.in_window = lambda t: window[0] <= t <= window[1]
    rng = random.Random(3)

    async def loop(sock: Sock) -> None:
        while time.perf_counter() < window[1]:
            card = f"hc-{rng.randint(1, 12):02d}"
            frame = orjson.dumps(
                {"type": "command", "command_id": uuid.uuid4().hex,
                 "command": {"type": "PlayCard", "card": card}}
            ).decode()  # fmt: skip
            t0 = time.perf_counter()
            sock.accepted_version = -1
            sock.waiter = asyncio.get_running_loop().create_future()
            await sock.ws.send(frame)
            await sock.waiter
            stats.record(t0, time.perf_counter())

    # The floor's reply is an "accepted" whose version is a stream id, not an int: finish on
    # any reply.
    for s in socks:
        s._check = _any_reply(s)  # type: ignore[method-assign]
    await asyncio.gather(*(loop(s) for s in socks[: max(1, inflight)]))
    stats.started, stats.ended = window
    for s in socks:
        await s.close()
    return stats


def _any_reply(sock: Sock) -> Callable[[], None]:
    def check() -> None:
        w = sock.waiter
        if w is not None and not w.done() and sock.accepted_version != -1:
            w.set_result(None)

    return check
