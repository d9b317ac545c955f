"""Helpers for end-to-end tests: a real uvicorn server, WebSocket players, leak checks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import orjson
import uvicorn
import websockets

from domain import REVIEW, SPECTATOR, GameType, Registry, Rng, fold, seat_viewer
from protocol import GameCodec, apply_delta, expand_legal
from server import Settings, create_app
from server.run import WS_PROTOCOL

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
"""The session's Redis (tests/conftest.py resolved it, starting one if none answered)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def uvicorn_config(app: Any, port: int, ws_max_size: int | None = None) -> uvicorn.Config:
    """uvicorn as ``cloister serve`` runs it (``ws_max_size``: ``Settings.max_frame_bytes``)."""
    return uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws=WS_PROTOCOL,
        ws_per_message_deflate=False,
        ws_max_size=Settings().max_frame_bytes if ws_max_size is None else ws_max_size,
        lifespan="on",
    )


@contextlib.contextmanager
def running_server(
    prefix: str,
    registry: Registry | None = None,
    now: Callable[[], int] | None = None,
    **settings: Any,
) -> Iterator[str]:
    """A real server on a free port in a background thread; yields its base URL.

    ``now``: the clocks' time source (milliseconds since the epoch)."""
    port = free_port()
    cfg = Settings(redis_url=REDIS_URL, key_prefix=prefix, **settings)
    app = create_app(cfg, registry, now=now)
    server = uvicorn.Server(uvicorn_config(app, port, cfg.max_frame_bytes))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def ws_url(base: str, game_id: str) -> str:
    return base.replace("http://", "ws://") + f"/api/games/{game_id}/ws"


class Player:
    """A raw protocol client that records every message it receives."""

    def __init__(self, base: str, game_id: str, token: str | None = None) -> None:
        self.base, self.game_id, self.token = base, game_id, token
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.ws: Any = None
        self.version = 0
        self.seat: int | None = None
        self.view: Any = None
        self.legal: list[dict[str, Any]] = []
        self.status = "open"

    async def connect(self, since: int | None = None, timeout: float = 10) -> dict[str, Any]:
        self.ws = await websockets.connect(ws_url(self.base, self.game_id), max_size=1 << 22)
        await self.send({"type": "hello", "token": self.token, "since": since})
        welcome = await self.recv(timeout)
        assert welcome["type"] == "welcome", welcome
        return welcome

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(orjson.dumps(message).decode())

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        self.received.append(msg)
        if msg["type"] in ("welcome", "update"):
            if "delta" in msg:
                # A delta applies to the view held at its base: a mismatch is a server bug.
                assert msg["base"] == self.version, (msg["base"], self.version)
                self.view = apply_delta(self.view, msg["delta"])
            else:
                self.view = msg["view"]
            if "legal" in msg:
                self.legal = expand_legal(msg["legal"])
            self.version = msg["version"]
            self.status = msg["status"]
            if msg["type"] == "welcome":
                self.seat = msg["seat"]
        return msg

    async def command(
        self, command: dict[str, Any], cid: str | None = None, timeout: float = 10
    ) -> dict[str, Any]:
        """Send a command; return its accepted/rejected reply (updates are recorded).
        ``timeout``: the longest wait for each message."""
        cid = cid or uuid.uuid4().hex
        message = {"type": "command", "command_id": cid, "command": command}
        return await self.request(message, timeout)

    async def chat(self, text: str, cid: str | None = None, timeout: float = 10) -> dict[str, Any]:
        """Say something at the table; return the accepted/rejected reply."""
        cid = cid or uuid.uuid4().hex
        return await self.request({"type": "chat", "command_id": cid, "text": text}, timeout)

    async def request(self, message: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        cid = message["command_id"]
        await self.send(message)
        while True:
            msg = await self.recv(timeout)
            if msg["type"] in ("accepted", "rejected") and msg["command_id"] == cid:
                return msg
            if msg["type"] == "update" and msg.get("command_id") == cid:
                # the sender's own update is its acceptance
                return {
                    "type": "accepted",
                    "command_id": cid,
                    "version": msg["version"],
                    "duplicate": False,
                }

    async def wait_version(self, version: int, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while self.version < version:
            await self.recv(max(0.05, deadline - time.monotonic()))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


@contextlib.asynccontextmanager
async def http(base: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=base, timeout=20) as client:
        yield client


async def new_game(
    client: httpx.AsyncClient, type_: str, options: dict[str, Any] | None = None
) -> tuple[str, list[str]]:
    """Create a game and take every seat; returns the id and the seat tokens."""
    r = await client.post("/api/games", json={"type": type_, "options": options or {}})
    assert r.status_code == 201, r.text
    game = r.json()
    tokens = []
    for i in range(len(game["seats"])):
        r = await client.post(f"/api/games/{game['id']}/seats", json={"name": f"p{i}"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    return game["id"], tokens


async def play_random_game(
    base: str,
    gtype: GameType,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    max_commands: int = 20000,
) -> dict[str, Any]:
    """Play a whole game over WebSockets with random legal commands, every seat connected
    and a spectator watching throughout; then check that no message leaked a secret.

    Returns the players, the spectator and the review log for further checks.
    """
    rng = Rng(seed)
    async with http(base) as client:
        game_id, tokens = await new_game(client, gtype.name, options)
        players = [Player(base, game_id, t) for t in tokens]
        spectator = Player(base, game_id)
        for p in [*players, spectator]:
            await p.connect()
        commands = 0
        while players[0].status != "finished":
            assert commands < max_commands, "game did not end"
            movers = [p for p in players if p.legal]
            if not movers:
                await players[0].recv()
                continue
            mover = rng.choice(movers)
            reply = await mover.command(rng.choice(mover.legal))
            assert reply["type"] == "accepted", reply
            commands += 1
            for p in players:  # everyone catches up to the new version before the next move
                await p.wait_version(reply["version"])
        await spectator.wait_version(players[0].version)
        review = (await client.get(f"/api/games/{game_id}/events")).json()
        summary = (await client.get(f"/api/games/{game_id}")).json()
    for p in [*players, spectator]:
        await p.close()
    assert_no_leaks(gtype, options or {}, review["events"], players, spectator)
    return {
        "game_id": game_id,
        "players": players,
        "spectator": spectator,
        "review": review,
        "summary": summary,
        "commands": commands,
    }


def fold_versions(
    gtype: GameType, options: dict[str, Any], events: list[dict[str, Any]]
) -> dict[int, Any]:
    """The domain state after every version of a review log (None before the start)."""
    from domain.game import validate_options

    game = gtype.game
    codec = GameCodec(game)
    opts = validate_options(game, options)
    states: dict[int, Any] = {}
    state = None
    for e in events:
        if e["type"] == "cloister.GameStarted":
            state = game.initial_state(opts)
        elif not e["type"].startswith("cloister."):
            state = game.evolve(state, codec.decode_event(e["type"], e["data"]))
        states[e["version"]] = state
    return states


def assert_no_leaks(
    gtype: GameType,
    options: dict[str, Any],
    review_events: list[dict[str, Any]],
    players: list[Player],
    spectator: Player,
) -> None:
    """Every message a viewer received before the game ended contains none of the values
    hidden from that viewer at that message's version."""
    game = gtype.game
    states = fold_versions(gtype, options, review_events)
    last = max(states)
    checked = 0
    for conn, viewer in [
        *((p, seat_viewer(i)) for i, p in enumerate(players)),
        (spectator, SPECTATOR),
    ]:
        for text, msg in zip(conn.raw, conn.received, strict=True):
            version = msg.get("version")
            if version is None or msg["type"] not in ("welcome", "update"):
                continue
            state = states.get(version)
            if state is None or (game.is_terminal(states[last]) and version == last):
                continue  # after the end everything may be revealed
            hidden = game.hidden_values(state, viewer)
            for value in hidden:
                assert value not in text, f"{viewer} saw hidden {value!r} at version {version}"
            checked += 1
    assert checked > 0
    # the review audience really is everything
    assert game.hidden_values(states[last], REVIEW) == frozenset()
    _ = fold  # (kept for callers that fold by hand)


Node = tuple[subprocess.Popen[bytes], str]
"""A server process and its base URL."""


def node_env(prefix: str, url: str = REDIS_URL, **extra: str) -> dict[str, str]:
    """The environment of a ``python -m server`` on the Redis at ``url`` under key prefix
    ``prefix`` (bots move at once), plus ``extra`` variables."""
    return {
        **os.environ,
        "REDIS_URL": url,
        "CLOISTER_PREFIX": prefix,
        "CLOISTER_BOT_DELAY": "0",
        **extra,
    }


def start_node(prefix: str, url: str = REDIS_URL, **extra: str) -> Node:
    """One more ``python -m server`` (see ``node_env``)."""
    return start_server_process(node_env(prefix, url, **extra))


def start_nodes(prefix: str, n: int, url: str = REDIS_URL, **extra: str) -> list[Node]:
    """``n`` server processes started at once (a restart of every process); returns when
    each one's health check answers."""
    spawned = [spawn_server_process(node_env(prefix, url, **extra)) for _ in range(n)]
    nodes: list[Node] = []
    try:
        for proc, base in spawned:
            wait_healthy(proc, base)
            nodes.append((proc, base))
    except BaseException:
        for proc, _ in spawned:
            stop_process(proc)
        raise
    return nodes


@contextlib.contextmanager
def server_nodes(
    prefix: str, url: str = REDIS_URL, n: int = 2, **extra: str
) -> Iterator[list[Node]]:
    """``n`` server processes on one Redis (a test may kill some, or append the ones it
    starts to the list); all stopped after. Started at once (``start_nodes``): each start
    is mostly a wait for the interpreter and the imports, and two such waits overlap."""
    started: list[Node] = []
    try:
        started.extend(start_nodes(prefix, n, url, **extra))
        yield started
    finally:
        for proc, _ in started:
            stop_process(proc)


def stop_process(proc: subprocess.Popen[bytes], grace: float = 15) -> None:
    """Terminate a child process (if it still runs) and reap it; killed after ``grace``
    seconds. Reaped, so no test leaves a running process to the garbage collector."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def start_server_process(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m server`` as a real child process with ``env``; returns it and its URL
    once its health check answers ok."""
    proc, base = spawn_server_process(env)
    wait_healthy(proc, base)
    return proc, base


def spawn_server_process(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m server`` started on a free port (not waited for)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return proc, f"http://127.0.0.1:{port}"


def wait_healthy(proc: subprocess.Popen[bytes], base: str, timeout: float = 60) -> None:
    """Until the process's health check answers ok; killed and RuntimeError if it does
    not within ``timeout`` seconds (generous: two cores may be busy with other tests)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(base + "/api/health", timeout=1).json()["status"] == "ok":
                return
        except (httpx.HTTPError, ValueError):
            time.sleep(0.1)
    proc.kill()
    proc.wait(10)
    raise RuntimeError("server process did not start")
