"""``serve --workers N`` hands a game's sockets to the game's home worker (server.handoff).

In-process: two hand-off servers (threads, one folder) or one and a home that fails;
which server serves a socket is read from its uvicorn server state. Then the real thing:
``python -m server --workers 2``, where the upgrade's ``x-cloister-worker`` header says.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson
import pytest
import uvicorn
import websockets
from uvicorn.protocols.websockets.websockets_sansio_impl import (
    WebSocketsSansIOProtocol as WsProtocol,
)

from server import Settings, create_app, handoff
from server.handoff import RENDEZVOUS, STATS, HandoffServer, home_order, request_game
from tests.support import REDIS_URL, Player, free_port, http, new_game, uvicorn_config
from tests.test_workers import start_workers, stop

linux = pytest.mark.skipif(not handoff.supported(), reason="hand-off needs Linux")


def test_the_request_line_names_the_game() -> None:
    assert request_game(b"GET /api/games/g-1/ws HTTP/1.1\r\nHost: x\r\n") == "g-1"
    assert request_game(b"GET /api/games/g%2D1/ws?x=1 HTTP/1.1\r\n") == "g-1"
    assert request_game(b"GET /api/games/g-1 HTTP/1.1\r\n") is None
    assert request_game(b"GET /api/games/g-1/ws/x HTTP/1.1\r\n") is None
    assert request_game(b"POST /api/games/g-1/ws HTTP/1.1\r\n") is None
    assert request_game(b"GET /api/games/g-1/ws HTT") is None  # a partial line: served here


def test_home_order_is_stable_and_spreads_games() -> None:
    assert home_order("g-abc", 3) == home_order("g-abc", 3)
    assert sorted(home_order("g-abc", 3)) == [0, 1, 2]
    homes = [home_order(f"g-{i}", 2)[0] for i in range(200)]
    assert 60 < homes.count(0) < 140
    # with a slot more, a game either keeps its home or moves to the new slot
    for i in range(200):
        before, after = home_order(f"g-{i}", 2)[0], home_order(f"g-{i}", 3)[0]
        assert after in (before, 2)


async def until(condition: Callable[[], bool], timeout: float = 5) -> None:
    """Wait for ``condition`` (a closed socket leaves its server's state a little later)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.02)


@contextlib.contextmanager
def handoff_server(prefix: str) -> Iterator[tuple[str, HandoffServer]]:
    port = free_port()
    settings = Settings(redis_url=REDIS_URL, key_prefix=prefix)
    config = uvicorn_config(create_app(settings), port)
    config.workers = 2  # what the node reads: the number of slots
    server = HandoffServer(config)
    thread = threading.Thread(target=server.run, daemon=True, name=f"server-{id(server)}")
    thread.start()
    deadline = time.monotonic() + 15
    while server.handoff is None or server.handoff.slot is None:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.should_exit = True
        thread.join(10)


def sockets_of(server: uvicorn.Server) -> int:
    return sum(isinstance(c, WsProtocol) for c in server.server_state.connections)


async def bad_token(base: str, game_id: str) -> dict[str, object]:
    p = Player(base, game_id)
    p.ws = await websockets.connect(f"{base.replace('http', 'ws')}/api/games/{game_id}/ws")
    await p.send({"type": "hello", "token": "forged"})
    return await p.recv()


@linux
@pytest.mark.redis
async def test_a_socket_is_served_by_its_games_home(
    key_prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(RENDEZVOUS, str(tmp_path))
    with handoff_server(key_prefix) as (base0, s0), handoff_server(key_prefix) as (base1, s1):
        assert {s0.handoff.slot, s1.handoff.slot} == {0, 1}  # type: ignore[union-attr]
        async with http(base0) as c:
            games = [await new_game(c, "high-card", {"players": 2}) for _ in range(6)]
        sent, adopted = STATS["sent"], STATS["adopted"]
        moved = 0
        for gid, tokens in games:
            home = s0 if home_order(gid, 2)[0] == s0.handoff.slot else s1  # type: ignore[union-attr]
            # each player through a different server: both end up on the home
            players = [Player(base0, gid, tokens[0]), Player(base1, gid, tokens[1])]
            for p in players:
                await p.connect()
            away = s0 if home is s1 else s1
            await until(lambda: sockets_of(home) == 2 and sockets_of(away) == 0)  # noqa: B023
            # the home sees each client's own address, as for a socket it accepted
            served = [c for c in home.server_state.connections if isinstance(c, WsProtocol)]
            assert {tuple(c.client or ()) for c in served} == {
                tuple(p.ws.local_address[:2]) for p in players
            }
            # and the game is played there as anywhere
            mover = next(p for p in players if p.legal)
            reply = await mover.command(mover.legal[0])
            assert reply["type"] == "accepted", reply
            for p in players:
                await p.wait_version(reply["version"])
                await p.close()
            moved += 1
        assert STATS["sent"] - sent == moved and STATS["adopted"] - adopted == moved
        # the request as sent: a forged token gets its structured rejection from the home
        for slot, base in ((s1.handoff.slot, base0), (s0.handoff.slot, base1)):  # type: ignore[union-attr]
            sent = STATS["sent"]
            error = await bad_token(base, await game_homed_on(base0, slot))  # type: ignore[arg-type]
            assert error["type"] == "error" and error["code"] == "bad_token", error
            await until(lambda: STATS["sent"] == sent + 1)  # noqa: B023
        # and the home's limits: a frame over max_frame_bytes is refused from its header
        gid = await game_homed_on(base0, s1.handoff.slot)  # type: ignore[union-attr,arg-type]
        sent = STATS["sent"]
        ws = await websockets.connect(f"{base0.replace('http', 'ws')}/api/games/{gid}/ws")
        # counted when the sender reads the home's reply byte, which may come after the
        # home has already answered the handshake
        await until(lambda: STATS["sent"] == sent + 1)
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send("x" * (Settings().max_frame_bytes + 1))
            await asyncio.wait_for(ws.recv(), 10)
        assert ws.close_code == 1009


class FakeHome:
    """A slot's listener in a thread, standing in for a home worker: it accepts hand-offs
    and gives each (its connection and the descriptors received) to ``took``."""

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.bind(path)
        self.sock.listen(8)
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def run(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = self.sock.accept()
                _, fds, _, _ = socket.recv_fds(conn, 1 << 18, 1)
                self.took(conn, fds)

    def took(self, conn: socket.socket, fds: list[int]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class SilentHome(FakeHome):
    """A home that takes hand-offs and dies on them: no reply, descriptors closed."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.taken = 0
        self.start()

    def took(self, conn: socket.socket, fds: list[int]) -> None:
        for fd in fds:
            os.close(fd)
        self.taken += 1
        conn.close()


@linux
@pytest.mark.redis
async def test_a_dead_or_failing_home_leaves_the_socket_where_it_landed(
    key_prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(RENDEZVOUS, str(tmp_path))
    with handoff_server(key_prefix) as (base, server):
        me = server.handoff.slot  # type: ignore[union-attr]
        other = 1 - me  # type: ignore[operator]
        gid = await game_homed_on(base, other)
        # 1. the other slot was never claimed (no socket file): served here
        p = Player(base, gid)
        await p.connect()
        await p.close()
        # 2. a dead worker's socket file (nobody listening): served here
        path = str(tmp_path / f"slot-{other}.sock")
        dead = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        dead.bind(path)
        dead.close()
        assert (await bad_token(base, gid))["code"] == "bad_token"
        os.unlink(path)
        # 3. a home that takes the socket and dies without a word: served here, from the
        # bytes it had (the request), as if it had never left
        home = SilentHome(path)
        try:
            fallbacks = STATS["fallbacks"]
            p = Player(base, gid)
            welcome = await p.connect()
            assert welcome["seat"] is None
            error = await bad_token(base, gid)
            assert error["code"] == "bad_token", error
            assert home.taken == 2 and STATS["fallbacks"] == fallbacks + 2
            await p.close()
        finally:
            home.close()


def test_a_late_reply_and_a_withdrawal_cannot_both_win() -> None:
    """The sender's withdrawal against the home's reply (``SOCK_SEQPACKET`` ends, as after
    the message): exactly one of them serves the socket, whichever order they come in."""

    opened: list[socket.socket] = []

    def pair() -> tuple[socket.socket, socket.socket]:
        sender, home = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        sender.setblocking(False)
        home.setblocking(False)
        opened.extend((sender, home))
        return sender, home

    try:
        # the home replied just before the sender gave up: the home serves it
        sender, home = pair()
        assert handoff.claim(home) is True
        assert handoff.withdraw(sender) is True
        # the sender gave up first: the home's reply fails and it lets go
        sender, home = pair()
        assert handoff.withdraw(sender) is False
        assert handoff.claim(home) is False
        # the home had closed without a reply (refused, died): the sender serves it
        sender, home = pair()
        home.close()
        assert handoff.withdraw(sender) is False
        # the sender died with its offer open: nobody else holds the socket, the home
        # serves it
        sender, home = pair()
        sender.close()
        assert handoff.claim(home) is True
    finally:
        for sock in opened:
            sock.close()


def stall(server: HandoffServer, seconds: float) -> threading.Event:
    """Block ``server``'s event loop for ``seconds`` (a stuck home); the event is set once
    it is blocked, and cleared once it runs again."""
    blocked = threading.Event()

    def block() -> None:
        blocked.set()
        time.sleep(seconds)
        blocked.clear()

    server.handoff.loop.call_soon_threadsafe(block)  # type: ignore[union-attr]
    assert blocked.wait(5)
    return blocked


async def on_loop(server: HandoffServer) -> None:
    """Wait for a turn of ``server``'s loop (what it had queued has run)."""
    loop = server.handoff.loop  # type: ignore[union-attr]
    await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(asyncio.sleep(0.05), loop))


def serves(server: uvicorn.Server, ws: object) -> bool:
    """Whether a connection of ``server`` (HTTP or WebSocket) is the client ``ws``'s."""
    local = tuple(ws.local_address[:2])  # type: ignore[attr-defined]
    connections = server.server_state.connections
    return any(tuple(getattr(c, "client", None) or ()) == local for c in connections)


@linux
@pytest.mark.redis
async def test_a_stuck_home_times_out_and_the_socket_is_served_where_it_landed(
    key_prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(RENDEZVOUS, str(tmp_path))
    monkeypatch.setenv("CLOISTER_HANDOFF_TIMEOUT", "0.4")
    with handoff_server(key_prefix) as (base0, s0), handoff_server(key_prefix) as (_, s1):
        gid = await game_homed_on(base0, s1.handoff.slot)  # type: ignore[union-attr,arg-type]
        timeouts, fallbacks, adopted = (
            STATS.get("timeouts", 0),
            STATS["fallbacks"],
            STATS["adopted"],
        )
        stuck = stall(s1, 2.5)
        started = time.monotonic()
        p = Player(base0, gid)
        welcome = await p.connect()
        waited = time.monotonic() - started
        # served by the sender once the home was late, long before the home woke up
        assert welcome["seat"] is None and stuck.is_set(), waited
        assert 0.4 <= waited < 2, waited
        assert serves(s0, p.ws) and sockets_of(s0) == 1
        assert STATS["timeouts"] == timeouts + 1 and STATS["fallbacks"] == fallbacks + 1
        # the home wakes up, reads the withdrawn offer and lets go of its descriptor
        await until(lambda: not stuck.is_set())
        await on_loop(s1)
        await on_loop(s1)
        assert STATS["adopted"] == adopted and not serves(s1, p.ws) and sockets_of(s1) == 0
        assert not s1.handoff.tasks  # type: ignore[union-attr]
        # and the socket lives on where it was served
        await asyncio.wait_for(await p.ws.ping(), 5)
        assert serves(s0, p.ws)
        await p.close()
        # once awake, the home takes its sockets again
        sent = STATS["sent"]
        p = Player(base0, gid)
        await p.connect()
        await until(lambda: sockets_of(s1) == 1 and sockets_of(s0) == 0)
        assert STATS["sent"] == sent + 1 and STATS["timeouts"] == timeouts + 1
        await p.close()


class HoldingHome(FakeHome):
    """A home that takes hand-offs and holds them without a reply until told to refuse
    them (closing its descriptors, as a home whose adoption failed)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.held: list[tuple[socket.socket, list[int]]] = []
        self.start()

    def took(self, conn: socket.socket, fds: list[int]) -> None:
        self.held.append((conn, fds))

    def refuse(self, index: int) -> None:
        conn, fds = self.held[index]
        for fd in fds:
            os.close(fd)
        conn.close()

    def close(self) -> None:
        super().close()
        for conn, fds in self.held:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            conn.close()


@linux
@pytest.mark.redis
async def test_a_sender_shutting_down_waits_for_its_hand_offs_and_answers_the_refused(
    key_prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(RENDEZVOUS, str(tmp_path))
    monkeypatch.setenv("CLOISTER_HANDOFF_TIMEOUT", "1.5")
    with handoff_server(key_prefix) as (base, server):
        other = 1 - server.handoff.slot  # type: ignore[union-attr,operator]
        gid = await game_homed_on(base, other)
        home = HoldingHome(str(tmp_path / f"slot-{other}.sock"))
        try:
            url = f"{base.replace('http', 'ws')}/api/games/{gid}/ws"
            # two handshakes held by the home: one it refuses while the sender shuts down,
            # one it never answers
            refused = asyncio.ensure_future(websockets.connect(url, open_timeout=10))
            unanswered = asyncio.ensure_future(websockets.connect(url, open_timeout=10))
            await until(lambda: len(home.held) == 2)
            thread = next(t for t in threading.enumerate() if t.name == f"server-{id(server)}")
            server.should_exit = True
            await until(lambda: server.handoff is None)  # its connections are told to stop
            started = time.monotonic()
            await asyncio.sleep(0.3)
            assert thread.is_alive()  # waiting for its hand-offs
            home.refuse(0)
            # each gets an answer it can retry on, not a connection closed in silence
            for handshake in (refused, unanswered):
                with pytest.raises(websockets.InvalidStatus) as error:
                    await handshake
                response = error.value.response
                assert response is not None
                assert response.status_code == 503
                assert response.headers["retry-after"] == "1"
            # the unanswered one after the timeout, and the shutdown no later than that
            assert 1.2 < time.monotonic() - started < 5
            await asyncio.get_running_loop().run_in_executor(None, thread.join, 5)
            assert not thread.is_alive()
        finally:
            home.close()


@linux
@pytest.mark.redis
async def test_a_sender_gone_mid_hand_off_leaves_the_socket_to_the_home(
    key_prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(RENDEZVOUS, str(tmp_path))
    with handoff_server(key_prefix) as (base, server):
        gid, _ = await new_game_at(base)
        adopted = STATS["adopted"]
        # a sender that accepted a client's connection, passed it on and died: played here
        # by a listener of the test's, the socket's descriptor and the request bytes sent to
        # the home while its loop is blocked, then both closed
        listener = socket.create_server(("127.0.0.1", 0))
        client = socket.create_connection(listener.getsockname())
        accepted, _ = listener.accept()
        url = f"ws://127.0.0.1:{listener.getsockname()[1]}/api/games/{gid}/ws"
        listener.close()
        handshake = asyncio.ensure_future(websockets.connect(url, sock=client))
        loop = asyncio.get_running_loop()
        accepted.setblocking(False)
        request = b""
        while not request.endswith(b"\r\n\r\n"):
            request += await loop.sock_recv(accepted, 1 << 16)
        stuck = stall(server, 0.5)
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        conn.connect(str(tmp_path / f"slot-{server.handoff.slot}.sock"))  # type: ignore[union-attr]
        socket.send_fds(conn, [request], [accepted.fileno()])
        accepted.close()
        conn.close()
        assert stuck.is_set()  # (so the home's reply is sure to find the sender gone)
        ws = await asyncio.wait_for(handshake, 10)
        await ws.send(orjson.dumps({"type": "hello", "token": None}).decode())
        welcome = orjson.loads(await asyncio.wait_for(ws.recv(), 10))
        assert welcome["type"] == "welcome", welcome
        assert STATS["adopted"] == adopted + 1 and sockets_of(server) == 1
        await ws.close()


async def new_game_at(base: str) -> tuple[str, list[str]]:
    async with http(base) as c:
        return await new_game(c, "high-card", {"players": 2})


async def game_homed_on(base: str, slot: int) -> str:
    """A game created on ``base`` whose home is ``slot`` (of 2)."""
    for _ in range(50):
        gid, _ = await new_game_at(base)
        if home_order(gid, 2)[0] == slot:
            return gid
    raise AssertionError("no game homed there in 50")


@contextlib.contextmanager
def two_homes(prefix: str) -> Iterator[str]:
    """``python -m server --workers 2``, once both workers listen for hand-offs (health
    answers as soon as one worker is up; the other may still be starting)."""
    tmp = tempfile.mkdtemp(prefix="h-")  # the parent's rendezvous folder goes in there
    env = {"REDIS_URL": REDIS_URL, "CLOISTER_PREFIX": prefix, "TMPDIR": tmp}
    proc, base = start_workers(env)
    try:
        deadline = time.monotonic() + 60
        while not all(listening(p) for p in Path(tmp).glob("*/slot-[01].sock")) or (
            len(list(Path(tmp).glob("*/slot-[01].sock"))) < 2
        ):
            assert time.monotonic() < deadline and proc.poll() is None, "no two homes"
            time.sleep(0.1)
        yield base
    finally:
        stop(proc)
        left = list(Path(tmp).iterdir())
        shutil.rmtree(tmp, ignore_errors=True)
    assert left == [], "the parent left its rendezvous folder"


def listening(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
        return True  # (the worker reads an empty hand-off and lets it go)


@linux
@pytest.mark.redis
async def test_with_two_workers_a_games_sockets_meet_on_one_worker(
    key_prefix: str, redis_store: object
) -> None:
    with two_homes(key_prefix) as base:
        for _ in range(5):
            gid, tokens = await new_game_at(base)
            workers = await served_by(base, gid, tokens)
            # a forged token's rejection comes from the same worker, structured
            ws = await websockets.connect(f"{base.replace('http', 'ws')}/api/games/{gid}/ws")
            assert ws.response is not None
            workers.add(ws.response.headers["x-cloister-worker"])
            await ws.send(orjson.dumps({"type": "hello", "token": "forged"}).decode())
            assert orjson.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "bad_token"
            await ws.close()
            assert len(workers) == 1, (gid, workers)


@linux
@pytest.mark.redis
async def test_a_replaced_worker_takes_its_place_as_home(
    key_prefix: str, redis_store: object
) -> None:
    with two_homes(key_prefix) as base:
        pids: set[str] = set()
        deadline = time.monotonic() + 60
        while len(pids) < 2:  # both workers serve as homes
            assert time.monotonic() < deadline, pids
            pids |= await meeting_place(base)
        victim = int(min(pids))
        os.kill(victim, signal.SIGKILL)
        # uvicorn's supervisor starts a replacement; it claims the dead worker's slot and
        # the games homed there meet on it again
        deadline = time.monotonic() + 90
        while True:
            assert time.monotonic() < deadline, "no replacement took the slot"
            where = await meeting_place(base, strict=False)
            if len(where) == 1 and not where & pids:
                break
            await asyncio.sleep(0.2)
        for _ in range(4):
            assert len(await meeting_place(base)) == 1


async def meeting_place(base: str, strict: bool = True) -> set[str]:
    """The workers that served four sockets of a new game (``strict``: exactly one)."""
    gid, tokens = await new_game_at(base)
    workers = await served_by(base, gid, tokens)
    assert len(workers) == 1 or not strict, (gid, workers)
    return workers


async def served_by(base: str, gid: str, tokens: list[str]) -> set[str]:
    """The workers that served the game's two players and two spectators, one at a time."""
    workers = set()
    for i in range(4):
        p = Player(base, gid, tokens[i % 2] if i < 2 else None)
        await p.connect()
        workers.add(p.ws.response.headers["x-cloister-worker"])
        await p.close()
    return workers


if sys.platform != "linux":  # pragma: no cover

    def test_elsewhere_there_is_no_hand_off() -> None:
        assert not handoff.supported()
