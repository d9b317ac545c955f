"""The server's per-move cost without sockets: the plumbing around a tiny game.

``python -m bench.hotpath [--games 100] [--matches 2] [--store memory|redis] [--reps 5]``

The swap game (``bench.swapgame``) is nearly free to decide and fold, so what this measures
is everything else a move costs the server: the WebSocket endpoint's receive loop
(``server.ws.game_socket`` itself, unchanged), decoding the message and the command, the
transaction, the append, the fan-out (views, delta, legal commands, frames), the
listeners (clocks, lobby, bots) and the app's background tasks, all as ``create_app`` wires
them.

What is faked: the socket. Each seat's ``game_socket`` runs against a stand-in WebSocket
whose raw sender looks like the server's protocol (``server.transport``): it holds the
real :class:`~server.transport.Inbox`, where the client's next text message is put as the
protocol puts a parsed one, and the real sans-I/O connection, open, so the endpoint reads
(``server.ws.direct_inbox``) and writes (``server.ws.direct_writer``) as in production; a
written frame is framed but not sent. The frame parser in front of the inbox is not
measured (the peer benchmark's real sockets do). The client is
as cheap as a client can be: it knows the swap game's turns, so it never parses an update;
when the mover's own update arrives (it carries the ``command_id``) it queues the other
seat's next command, a pre-built string. ``--games`` matches are played at once (like the
peer benchmark's lanes), ``--matches`` one after another per lane, to the end.

Reported: the process's CPU time per move over the play (set-up excluded), median of
``--reps`` rounds. On a shared machine CPU time is steadier than wall time but still moves
with the neighbours; for a count that does not, run it under callgrind and subtract a run
with ``--moves-only 0`` (set-up only)::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m bench.hotpath --reps 1

``--store redis`` appends to the Redis at ``REDIS_URL`` under a fresh key prefix (deleted at
the end): the RESP client, the script call and the doorbells are then measured too (Redis's
own CPU is not).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

from starlette.websockets import WebSocket
from websockets.protocol import State as WsState
from websockets.server import ServerProtocol

from server import Settings, create_app
from server.games import SeatClaim
from server.run import tune_gc
from server.transport import Inbox
from server.ws import RAW_SEND, game_socket

from .swapgame import HAND, MOVES, bench_registry

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


class _Transport:
    def __init__(self, on_write: Callable[[bytes], None]) -> None:
        self.on_write = on_write

    def write(self, data: bytes) -> None:
        """One server frame (unmasked, no extension): its payload to the client."""
        n = data[1] & 0x7F
        self.on_write(data[2 if n < 126 else 4 if n == 126 else 10 :])

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0

    def abort(self) -> None:
        raise RuntimeError("the benchmark's connection was dropped")


class WebSocketsSansIOProtocol:
    """Named as uvicorn's protocol class: ``direct_writer`` recognises it by name."""

    def __init__(self, on_write: Callable[[bytes], None]) -> None:
        self.close_sent = False
        self.inbox = Inbox()
        # A real sans-I/O connection, open: the direct writer frames as for a real socket.
        self.conn = ServerProtocol()
        self.conn.state = WsState.OPEN
        self.transport = _Transport(on_write)

    async def send(self, message: Any) -> None:
        raise RuntimeError("the benchmark's endpoint sends through the direct writer")


class FakeSocket:
    """What ``game_socket`` uses of a Starlette WebSocket, fed through its protocol's inbox."""

    def __init__(self, app: Any, game_id: str, on_write: Callable[[bytes], None]) -> None:
        self.app = app
        self.path_params = {"game_id": game_id}
        proto = WebSocketsSansIOProtocol(on_write)
        self.inbox = proto.inbox
        self.scope: dict[str, Any] = {RAW_SEND: proto.send}
        self.client_state = None

    async def accept(self, headers: Any = None) -> None:
        pass

    def disconnect(self) -> None:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})

    async def receive(self) -> dict[str, Any]:
        raise RuntimeError("the benchmark's endpoint reads its inbox")

    async def send_text(self, data: str) -> None:
        raise RuntimeError(f"unexpected send through Starlette: {data[:200]}")

    async def close(self, code: int = 1000) -> None:
        pass


class Match:
    """One swap match played by two cheap clients, to the end."""

    def __init__(self, app: Any, game_id: str, tokens: list[str], lane: int) -> None:
        self.moves = 0
        self.welcomed = 0
        self.expect = b""
        loop = asyncio.get_running_loop()
        self.ready, self.done = loop.create_future(), loop.create_future()
        self.prefix = f"l{lane}-{game_id[-6:]}-"
        self.socks = [FakeSocket(app, game_id, self._writer(seat)) for seat in (0, 1)]
        self.hellos = [
            json.dumps({"type": "hello", "v": 2, "token": t, "since": None}) for t in tokens
        ]

    def _writer(self, seat: int) -> Callable[[bytes], None]:
        def write(frame: bytes) -> None:
            if frame.startswith(b'{"type":"welcome"'):
                self.welcomed += 1
                if self.welcomed == 2:
                    self.ready.set_result(None)
            # The mover's own update ends with its command id: the turn passes.
            elif frame.endswith(self.expect) and frame.startswith(b'{"type":"update"'):
                self.moves += 1
                if self.moves >= MOVES:
                    if not self.done.done():
                        self.done.set_result(None)
                    return
                self.send(1 - seat)

        return write

    def send(self, seat: int) -> None:
        cid = f"{self.prefix}{self.moves}"
        self.expect = f',"command_id":"{cid}"}}'.encode()
        index = self.moves % HAND
        self.socks[seat].inbox.put_nowait(
            f'{{"type":"command","command_id":"{cid}","command":{{"type":"Swap","index":{index}}}}}'
        )

    async def play(self) -> None:
        tasks = [asyncio.ensure_future(game_socket(cast(WebSocket, s))) for s in self.socks]
        for sock, hello in zip(self.socks, self.hellos, strict=True):
            sock.inbox.put_nowait(hello)
        await self.ready  # both welcomed before the first move
        self.send(0)
        await self.done
        for sock in self.socks:
            sock.disconnect()
        await asyncio.gather(*tasks)


async def prepare(app: Any, n: int) -> list[tuple[str, list[str]]]:
    service = app.state.service
    out = []
    for _ in range(n):
        rec, seats = await service.create_table(
            "bench-swap", {}, claims=[SeatClaim("p0", 0), SeatClaim("p1", 1)]
        )
        out.append((rec.id, [str(token) for _, token in seats]))
    return out


async def one_round(app: Any, games: int, matches: int, play: bool) -> tuple[float, int]:
    """(CPU seconds of the play, moves played)."""
    tables = await prepare(app, games * matches)
    lanes = [tables[i::games] for i in range(games)]

    async def lane(i: int) -> int:
        moves = 0
        for gid, tokens in lanes[i]:
            match = Match(app, gid, tokens, i)
            await match.play()
            moves += match.moves
        return moves

    t0 = time.process_time()
    moves = sum(await asyncio.gather(*(lane(i) for i in range(games)))) if play else 0
    return time.process_time() - t0, moves


@contextlib.asynccontextmanager
async def serving(store: Any) -> AsyncIterator[Any]:
    """The app as ``bench.serve`` makes it (swap game registered, rate limits lifted), on
    ``store``, its lifespan (background tasks included) running."""
    settings = Settings(
        redis_url=REDIS_URL, bot_delay=0.0, rate_per_second=1e9, rate_burst=1_000_000
    )
    app = create_app(settings, bench_registry(), store=store)
    tune_gc()  # the garbage collector as every server process runs it
    async with app.router.lifespan_context(app):
        yield app


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    store: Any
    if args.store == "redis":
        from server.store.redis import RedisStore

        store = RedisStore(REDIS_URL, f"bench-hot-{uuid.uuid4().hex[:8]}")
    else:
        from server.store.memory import MemoryStore

        store = MemoryStore()
    per_move: list[float] = []
    moves = 0
    play = args.moves_only != 0
    try:
        async with serving(store) as app:
            # One untimed round first: imports, codecs and caches warm.
            await one_round(app, min(args.games, 4), 1, play)
            for _ in range(args.reps):
                cpu, moves = await one_round(app, args.games, args.matches, play)
                if moves:
                    per_move.append(cpu / moves * 1e6)
    finally:
        if args.store == "redis":
            with contextlib.suppress(Exception):
                await store.delete_prefix()
            await store.close()
    return {
        "store": args.store,
        "games": args.games,
        "matches": args.matches,
        "moves": moves,
        "cpu_us_per_move": round(statistics.median(per_move), 1) if per_move else None,
        "reps_us": [round(x, 1) for x in per_move],
    }


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.hotpath", description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=100, help="matches played at once")
    p.add_argument("--matches", type=int, default=2, help="matches per lane, one after another")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--store", choices=("memory", "redis"), default="memory")
    p.add_argument(
        "--moves-only",
        type=int,
        default=None,
        help="0: set up the games but play none (a callgrind baseline)",
    )
    args = p.parse_args()
    try:
        import uvloop

        uvloop.install()  # as the server runs
    except ImportError:
        pass
    print(json.dumps(asyncio.run(main_async(args))), flush=True)


if __name__ == "__main__":
    main()
