"""The WebSocket endpoint: hello, then commands, pings and resyncs.

A receiver loop reads and answers. Outgoing frames are already encoded once per audience
(bytes); on uvicorn's ``websockets-sansio`` protocol (what ``cloister serve`` runs) they are
written straight to the socket as text frames by :func:`direct_writer`, with no str round
trip, no per-connection queue and no sender task. Elsewhere (another ASGI server) a sender
task drains the connection's outbox through Starlette. Likewise messages are read from the
protocol's inbox (:func:`direct_inbox`, ``server.transport``) when the server runs that
protocol, else through Starlette's ``receive``. When the receiver ends (disconnect,
error) the sender is cancelled, and vice versa: a send-only loop would never notice a
disconnect (Starlette only reports it from ``receive``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import struct
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
from websockets.protocol import State as WsState

from domain import DomainError
from protocol import (
    PROTOCOL_VERSION,
    Accepted,
    Chat,
    Error,
    Hello,
    Leave,
    Ping,
    Pong,
    ProtocolError,
    Rejected,
    Resync,
    Retake,
    SendCommand,
    Undo,
    decode_client,
    decode_client_parts,
    encode,
)

from .errors import STORE_ERRORS, UNAVAILABLE, ServiceError
from .games import GameRecord, GameService
from .hub import ORIGIN, Connection, Hub, Writer
from .transport import Inbox
from .undo import undo

__all__ = [
    "MAX_UNSENT_BYTES",
    "RawSend",
    "direct_inbox",
    "direct_writer",
    "game_socket",
    "text_frame_header",
]

log = logging.getLogger("cloister.ws")

MAX_UNSENT_BYTES = 4 << 20
"""A connection with more than this waiting in its socket buffer is dropped (it can resume)."""

RAW_SEND = "cloister.raw_send"
CLOSE_FLOODED = 1008
"""Policy violation: the connection kept flooding past its rate limit."""
CLOSE_TRY_AGAIN = 1013
"""The standard "try again later" close code: the hello could not be served (Redis)."""


class RawSend:
    """ASGI middleware: remember the server's own ``send`` in the WebSocket scope.

    Starlette wraps ``send`` in closures; the server's bound method is what lets
    :func:`direct_writer` reach the protocol object underneath.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        await self.app(scope, receive, send)


def direct_writer(ws: WebSocket) -> Writer | None:
    """A function writing text frames (UTF-8 bytes) straight to ``ws``'s socket, or None.

    Only for uvicorn's ``websockets-sansio`` protocol: its ``send`` is a method of an object
    holding the sans-I/O ``conn`` (websockets' ``ServerProtocol``, whose ``send_text`` takes
    bytes) and the asyncio ``transport``. Writing there directly is what uvicorn's ``send``
    does for a text message, minus ``str.encode`` per connection, the ASGI message dict and
    a task switch per frame. Anything else gets None and the Starlette path.
    """
    proto: Any = getattr(ws.scope.get(RAW_SEND), "__self__", None)
    if (
        # uvicorn's class, or ours made from it (``server.transport``)
        all(c.__name__ != "WebSocketsSansIOProtocol" for c in type(proto).__mro__)
        or not hasattr(proto, "close_sent")
        or not callable(getattr(getattr(proto, "conn", None), "send_text", None))
        or getattr(proto, "transport", None) is None
    ):
        return None
    conn: Any = proto.conn
    transport: Any = proto.transport
    # What the quick path reads of the sans-I/O connection (websockets >= 12 has it all).
    framed = all(
        hasattr(conn, a) for a in ("state", "extensions", "expect_continuation_frame", "writes")
    )

    # Bound once: two writes a move, each reading these (globals and bound methods would
    # be looked up again at every write).
    is_closing = transport.is_closing
    send = transport.write
    buffered = transport.get_write_buffer_size
    open_, short, header_16, bound = _OPEN, _SHORT_HEADERS, _HEADER_16, MAX_UNSENT_BYTES

    def write(data: bytes) -> bool:
        if proto.close_sent or is_closing():
            return False
        if (
            framed
            and conn.state is open_
            and not conn.extensions
            and not conn.expect_continuation_frame
            and not conn.writes
        ):
            # The frame websockets would make (a server's frames are not masked, and with
            # no extension its header is only FIN, the opcode and the length), without its
            # Frame object and serialiser: they cost more than the rest of this write.
            # text_frame_header, inline: two frames a move.
            n = len(data)
            if n < 126:
                head = short[n]
            elif n < 1 << 16:
                head = header_16(0x81, 0x7E, n)
            else:
                head = text_frame_header(n)
            send(head + data)
        else:
            try:
                conn.send_text(data)
            except Exception:  # InvalidState: closing under us
                return False
            send(b"".join(conn.data_to_send()))
        size: int = buffered()
        return size <= bound

    return write


_OPEN = WsState.OPEN
_SHORT_HEADERS = tuple(bytes((0x81, n)) for n in range(126))
_HEADER_16 = struct.Struct("!BBH").pack


def text_frame_header(length: int) -> bytes:
    """The header of an unmasked, final text frame of ``length`` payload bytes (RFC 6455
    section 5.2: FIN + opcode 1, then the length in 7 bits, or 126 and 16 bits, or 127
    and 64 bits)."""
    if length < 126:
        return _SHORT_HEADERS[length]
    if length < 1 << 16:
        return b"\x81\x7e" + length.to_bytes(2, "big")
    return b"\x81\x7f" + length.to_bytes(8, "big")


_monotonic = time.monotonic


class _Bucket:
    """Token bucket: ``rate`` messages per second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = _monotonic()
        # min() without its call: one take per message received.
        tokens = self.tokens + (now - self.stamp) * self.rate
        burst = self.burst
        self.tokens = burst if tokens >= burst else tokens
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


async def _receive_text(ws: WebSocket, limit: int, inbox: Inbox | None = None) -> str | None:
    """The next text message, or None on disconnect. Binary frames are decoded as UTF-8.

    ``inbox``: the socket's own (:func:`direct_inbox`), read without an ASGI event."""
    if inbox is not None:
        return _item_text(ws, await inbox.get(), limit)
    else:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        got: str | None = message.get("text")
        text = _text_of(message.get("bytes") or b"", limit) if got is None else got
    if len(text) > limit:
        raise ProtocolError("too_large", f"messages are limited to {limit} bytes")
    return text


def _item_text(ws: WebSocket, item: Any, limit: int) -> str | None:
    """The text of an item of the socket's inbox, or None on disconnect."""
    if isinstance(item, str):
        text = item
    elif isinstance(item, bytes):
        text = _text_of(item, limit)
    else:  # uvicorn's disconnect event (the only other after the connect)
        ws.client_state = WebSocketState.DISCONNECTED
        return None
    if len(text) > limit:
        raise ProtocolError("too_large", f"messages are limited to {limit} bytes")
    return text


def _text_of(raw: bytes, limit: int) -> str:
    if len(raw) > limit:
        raise ProtocolError("too_large", f"messages are limited to {limit} bytes")
    try:
        return raw.decode()
    except UnicodeDecodeError:
        raise ProtocolError("bad_json", "the message is not UTF-8 text") from None


def direct_inbox(ws: WebSocket) -> Inbox | None:
    """The inbox of ``ws``'s protocol when it is :class:`server.transport.
    CloisterWebSocketProtocol` (or a stand-in holding one), else None (Starlette's
    ``receive``)."""
    inbox = getattr(getattr(ws.scope.get(RAW_SEND), "__self__", None), "inbox", None)
    return inbox if isinstance(inbox, Inbox) else None


def _handed(conn: Connection, rec: GameRecord, seat: int, cid: str, then: str) -> bool:
    """Refuse ``cid`` when a bot plays for ``seat`` (the player left, or was absent): the
    player must take the seat back with ``retake`` ``then``."""
    held = rec.seats[seat]
    if held is None or held.stand_in is None:
        return False
    conn.push(encode(Rejected(cid, "seat_handed", f"a bot is playing for you: send retake {then}")))
    return True


async def _submit(
    conn: Connection, cid: str, append: Callable[[], Awaitable[tuple[int, bool]]]
) -> None:
    """Run one appending request (a command or a chat) and answer it on ``conn``.

    The acceptance normally rides on the connection's own update (``conn.acked``); only when
    none carried it (a duplicate, or nothing to show) is a separate ``accepted`` sent.
    """
    if _bad_id(conn, cid):
        return
    conn.acked = None
    token = ORIGIN.set(conn)
    try:
        version, dup = await append()
    except _REFUSALS as exc:
        _refused(conn, cid, exc)
    else:
        if conn.acked != cid:
            conn.push(encode(Accepted(cid, version, dup)))
    finally:
        ORIGIN.reset(token)


_REFUSALS: tuple[type[BaseException], ...] = (DomainError, ServiceError, *STORE_ERRORS)
"""What an appending request may end in besides its answer (``_refused`` answers them)."""


def _bad_id(conn: Connection, cid: str) -> bool:
    """Refuse a command id out of bounds (True: refused)."""
    if cid and len(cid) <= 128:
        return False
    conn.push(encode(Rejected(cid[:128], "bad_command_id", "command_id must be 1-128 characters")))
    return True


def _refused(conn: Connection, cid: str, exc: BaseException) -> None:
    """Answer a request the service refused (or could not serve) on ``conn``."""
    if isinstance(exc, (DomainError, ServiceError)):
        conn.push(encode(Rejected(cid, exc.code, exc.message)))
        return
    # Redis is down or stalled: an answer, not a closed socket. The command may or may not
    # have been appended (a lost reply): the same command_id resent later is applied once
    # either way.
    log.warning("command %s on %s: store unavailable (%s)", cid, conn.game_id, exc)
    conn.push(encode(Rejected(cid, "unavailable", UNAVAILABLE + ", with the same id")))


async def game_socket(ws: WebSocket) -> None:
    app = ws.app
    service: GameService = app.state.service
    hub: Hub = app.state.hub
    settings = app.state.settings
    limit = settings.max_message_bytes
    # Which worker process took the socket (`serve --workers N`): for operators and tests.
    await ws.accept(headers=[(b"x-cloister-worker", str(os.getpid()).encode())])
    inbox = direct_inbox(ws)

    async def fail(code: str, message: str, close: int | None = None) -> None:
        with contextlib.suppress(Exception):
            await ws.send_text(encode(Error(code, message)).decode())
            if close is not None:
                await ws.close(close)

    # 1. hello, always first: every answer, a missing game included, comes after it, so a
    # client reads the same order whatever goes wrong (docs/protocol.md).
    try:
        text = await asyncio.wait_for(_receive_text(ws, limit, inbox), settings.hello_timeout)
        if text is None:
            return
        hello = decode_client(text)
    except TimeoutError:
        await fail("hello_timeout", "send hello first", 4408)
        return
    except ProtocolError as exc:
        await fail(exc.code, exc.message, 4400)
        return
    if not isinstance(hello, Hello):
        await fail("hello_first", "the first message must be hello", 4400)
        return
    if hello.v != PROTOCOL_VERSION:
        await fail(
            "unsupported_version",
            f"this server speaks protocol version {PROTOCOL_VERSION}, not {hello.v}",
            4400,
        )
        return
    try:
        rec = await service.load(ws.path_params["game_id"])
    except ServiceError as exc:
        await fail(exc.code, exc.message, 4404)
        return
    except STORE_ERRORS:
        await fail("unavailable", UNAVAILABLE, CLOSE_TRY_AGAIN)
        return
    seat = None
    if hello.token:
        try:
            seat = await service.authenticate(rec, hello.token)
        except ServiceError as exc:
            await fail(exc.code, exc.message, 4403)
            return
        except STORE_ERRORS:
            await fail("unavailable", UNAVAILABLE, CLOSE_TRY_AGAIN)
            return
    writer = direct_writer(ws)
    conn = Connection(rec.id, seat, writer=writer)
    if writer is not None:
        # Too far behind: cut the socket (a close frame would wait behind the backlog); the
        # client reconnects and resumes from its version.
        transport = ws.scope[RAW_SEND].__self__.transport
        conn.on_drop = transport.abort
    else:
        conn.outbox = asyncio.Queue()
    async with rec.lock:
        try:
            await service.catch_up(rec)
        except STORE_ERRORS:
            # The game as this process holds it: the doorbell's catch-up after Redis is
            # back brings the connection up to date.
            log.warning("welcome to %s from the cache: store unavailable", rec.id)
        hub.attach(rec, conn, hello.since)
    keeper = app.state.clocks
    if seat is not None:
        keeper.connected(rec, seat)

    async def sender(outbox: asyncio.Queue[bytes | None]) -> None:
        while True:
            data = await outbox.get()
            if data is None:
                await ws.close(4429)
                return
            await ws.send_text(data.decode())

    # Direct writes need no sender task (nor its memory per idle connection).
    send_task = None if conn.outbox is None else asyncio.create_task(sender(conn.outbox))
    bucket = _Bucket(settings.rate_per_second, settings.rate_burst)
    strikes = 0
    flooded = False
    try:
        while send_task is None or not send_task.done():
            try:
                if inbox is not None:
                    # _receive_text without its coroutine: a plain text message within
                    # the limit (nearly all) is taken as it is.
                    item = await inbox.get()
                    if type(item) is str and len(item) <= limit:
                        text = item
                    elif (text := _item_text(ws, item, limit)) is None:
                        break
                elif (text := await _receive_text(ws, limit)) is None:
                    break
                if not bucket.take():
                    strikes += 1
                    conn.push(encode(Error("rate_limited", "too many messages; slow down")))
                    if strikes > 3 * settings.rate_burst:
                        flooded = True
                        break
                    continue
                message = decode_client_parts(text)
            except ProtocolError as exc:
                conn.push(encode(Error(exc.code, exc.message, exc.details)))
                continue
            if type(message) is SendCommand:  # one the converter built
                message = (message.command_id, message.command, message.expected_version)
            match message:
                case (cid, raw, expected):  # a command's fields (decode_client_parts)
                    if seat is None:
                        conn.push(encode(Rejected(cid, "spectator", "spectators cannot play")))
                        continue
                    held = rec.seats[seat]  # _handed's test, inline: its call once a move
                    if held is not None and held.stand_in is not None:
                        _handed(conn, rec, seat, cid, "to take your seat back first")
                        continue
                    if _bad_id(conn, cid):
                        continue
                    # _submit's body, inline for the commonest request (a move): no
                    # partial, and no coroutine of its own between this loop and the
                    # service's.
                    conn.acked = None
                    token = ORIGIN.set(conn)
                    try:
                        version, dup = await service.command(rec, seat, cid, raw, expected)
                    except _REFUSALS as exc:
                        _refused(conn, cid, exc)
                    else:
                        if conn.acked != cid:
                            conn.push(encode(Accepted(cid, version, dup)))
                    finally:
                        ORIGIN.reset(token)
                case Leave(command_id=cid) | Retake(command_id=cid):
                    if seat is None:
                        conn.push(encode(Rejected(cid, "spectator", "spectators hold no seat")))
                        continue
                    act = keeper.leave if isinstance(message, Leave) else keeper.retake
                    await _submit(conn, cid, partial(act, rec, seat, cid))
                case Undo(command_id=cid, steps=steps, to_version=to_version):
                    if seat is None:
                        conn.push(encode(Rejected(cid, "spectator", "spectators have no moves")))
                        continue
                    if _handed(conn, rec, seat, cid, "before you undo"):
                        continue
                    await _submit(
                        conn, cid, partial(undo, service, rec, seat, to_version, cid, steps)
                    )
                case Chat(command_id=cid, text=text):
                    if seat is None:
                        conn.push(encode(Rejected(cid, "spectator", "spectators cannot chat")))
                        continue
                    await _submit(conn, cid, partial(service.chat, rec, seat, cid, text))
                case Ping(nonce=nonce):
                    conn.push(encode(Pong(nonce)))
                case Resync(since=since):
                    async with rec.lock:
                        try:
                            await service.catch_up(rec)
                        except STORE_ERRORS:
                            conn.push(encode(Error("unavailable", UNAVAILABLE)))
                            continue
                        hub.resync(rec, conn, since)
                case Hello():
                    conn.push(encode(Error("hello_twice", "hello is only the first message")))
    except WebSocketDisconnect:
        pass
    finally:
        hub.detach(conn)
        if flooded:  # a documented close code, not a bare cut (docs/protocol.md)
            with contextlib.suppress(Exception):
                await ws.close(CLOSE_FLOODED)
        if seat is not None:
            keeper.disconnected(rec, seat)
        if send_task is not None:
            send_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await send_task
