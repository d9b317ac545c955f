"""uvicorn's ``websockets-sansio`` protocol with a short way in for the game socket.

uvicorn hands each received message to the app as an ASGI event: a dict put on an
``asyncio.Queue``, read back through Starlette's ``WebSocket.receive``, and reading paused
after every message and resumed when the queue is empty (two more calls into the event loop
per message). Profiled at 100 swap matches, the queue and Starlette's ``receive`` alone took
about 6% of the server's CPU, more than websockets' frame parser.

:class:`CloisterWebSocketProtocol` is that protocol with two changes, everything else
(handshake, ping/pong and keepalive, close handshake and codes, ``ws_max_size``, errors)
left to uvicorn and websockets:

* Received messages go to an :class:`Inbox` instead of the queue: a text message as its
  ``str``, a binary one as ``bytes``, any other event (connect, disconnect) as uvicorn's
  dict. ASGI ``receive`` still works (Starlette's ``accept`` reads the connect event
  through it, and any other endpoint would work unchanged); ``server.ws`` reads messages
  from the inbox itself. Reading from the socket is paused only when more than
  :data:`PAUSE_BYTES` wait unread, not after every message.
* Complete, final, unfragmented text or binary frames, the only frames a game client
  sends, are parsed here, with websockets' own checks (masked, within the size limit)
  and its mask routine; any other complete frame, or one that fails a check, goes to
  websockets' parser whole. A frame cut by the end of a read is kept here (at most one
  frame, within the size limit) until the rest arrives, never half given to websockets:
  its parser, once it has taken a frame's first bytes, waits for the rest with an empty
  buffer, and the next read parsed here would begin in the middle of a frame (a mask
  that happens to look like a frame header gave a made-up message). So websockets'
  parser is at a frame boundary whenever a read starts here. A frame over the size limit,
  or an unmasked one, goes to websockets from its header on, which closes the connection.

And one more: the HTTP protocol that the upgrade replaces is let go of its parser
(:func:`_release`). uvicorn's httptools protocol holds a parser that holds it back, a
cycle that only a full collection frees (``server.run.YoungFrozen`` freezes the young
generation unscanned): measured, each spectator's upgrade left that protocol, its parser,
its flow control and their bound methods (about 22 objects) to wait for it.

``cloister serve`` passes the class as uvicorn's ``ws`` (``server.run.uvicorn_config``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # websockets built without its C extension
    from websockets.utils import apply_mask

__all__ = ["PAUSE_BYTES", "CloisterWebSocketProtocol", "Inbox"]

PAUSE_BYTES = 64 * 1024
"""Unread message bytes past which the socket stops being read until the app catches up."""

Message = str | bytes | dict[str, Any]
"""An inbox item: a text message, a binary message, or another ASGI event."""

_OPEN = State.OPEN


class Inbox:
    """What arrived on one WebSocket, for one reader (the endpoint's receive loop).

    Also answers uvicorn's uses of its queue (``put_nowait``, ``empty``), so uvicorn's own
    events (disconnects, from wherever uvicorn raises them) land here in order with the
    messages."""

    __slots__ = ("items", "loop", "on_drain", "unread", "waiter")

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.loop = loop
        """The loop the socket runs on (its protocol's), held: asking ``get_running_loop``
        per message was a ``getpid`` system call per move (C asyncio checks the pid)."""
        self.items: deque[Message] = deque()
        self.waiter: asyncio.Future[Message] | None = None
        self.unread = 0
        """Bytes of the messages waiting (what pausing the socket bounds)."""
        self.on_drain: Any = None
        """Called when a paused socket's backlog is read (set by the protocol)."""

    def put_nowait(self, item: Message) -> None:
        waiter = self.waiter
        if waiter is not None:
            self.waiter = None
            # A cancelled wait (the hello timeout) leaves a done future: queue instead.
            if not waiter.done():
                waiter.set_result(item)
                return
        self.items.append(item)
        if not isinstance(item, dict):
            self.unread += len(item)

    def empty(self) -> bool:
        return not self.items

    def _take(self) -> Message:
        item = self.items.popleft()
        if not isinstance(item, dict):
            self.unread -= len(item)
            if self.on_drain is not None and self.unread <= PAUSE_BYTES // 2:
                self.on_drain()
        return item

    async def get(self) -> Message:
        """The next item, waiting for it if none is there."""
        if self.items:
            return self._take()
        waiter: asyncio.Future[Message] = (self.loop or asyncio.get_running_loop()).create_future()
        self.waiter = waiter
        return await waiter


class CloisterWebSocketProtocol(WebSocketsSansIOProtocol):
    """See the module's docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inbox = Inbox(self.loop)
        self.rest = bytearray()
        """The start of a frame the last read cut short (see the module's docstring)."""
        self.queue = self.inbox  # type: ignore[assignment]  # uvicorn's put_nowait/empty
        # What the quick parser reads of websockets' connection (websockets 17 has it);
        # without it every frame goes to websockets' parser.
        conn = self.conn
        self.quick = hasattr(conn, "current_size") and hasattr(conn, "max_message_size")
        self.quick = self.quick and isinstance(getattr(conn.reader, "buffer", None), bytearray)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        # uvicorn calls this during the upgrade, before it makes this the transport's
        # protocol: what the transport still has is the HTTP protocol being replaced.
        try:
            upgraded = transport.get_protocol()
        except NotImplementedError:  # a transport that does not say (tests' stand-ins)
            upgraded = None
        super().connection_made(transport)
        if upgraded is not None and upgraded is not self:
            # Once the upgrade has returned (its HTTP protocol is still reading it now).
            self.loop.call_soon(_release, upgraded)

    def data_received(self, data: bytes | bytearray) -> None:
        conn = self.conn
        if self.rest:
            # The kept start of a frame, grown in place: a frame sent a byte at a time costs
            # its length in copies, not its square.
            self.rest += data
            data, self.rest = self.rest, bytearray()
        if (
            conn.state is not _OPEN
            or not self.quick
            or conn.reader.buffer
            or conn.extensions
            or self.close_sent
        ):
            super().data_received(bytes(data))
            return
        limit = conn.max_message_size
        end = len(data)
        at = 0
        while at < end:
            # A client's frame: FIN, RSV, opcode; MASK and length; extended length; mask.
            if end - at < 2:
                break  # cut in its header: kept for the next read
            head, size = data[at], data[at + 1]
            if not size & 0x80:
                break  # unmasked: websockets' parser fails the connection
            size &= 0x7F
            start = at + 6
            if size >= 126:
                start += 2 if size == 126 else 8
                if end < start:
                    break
                size = int.from_bytes(data[at + 2 : start - 4], "big")
            if limit is not None and size > limit:
                break  # websockets closes with 1009 from the header
            stop = start + size
            if end < stop:
                break
            if (head == 0x81 or head == 0x82) and conn.current_size is None:
                # Final, unfragmented text or binary: the only frames a game client sends.
                payload = apply_mask(data[start:stop], data[start - 4 : start])
                if head == 0x82:
                    self._deliver(payload)
                    at = stop
                    continue
                try:
                    self._deliver(payload.decode())
                    at = stop
                    continue
                except UnicodeDecodeError:
                    pass  # websockets and uvicorn close with 1007
            # Any other frame (a ping, a close, a fragment, bad UTF-8), whole: websockets'
            # parser takes it and is at a frame boundary again after it.
            super().data_received(bytes(data[at:stop]))
            at = stop
            if conn.state is not _OPEN or self.close_sent or conn.reader.buffer:
                break
        else:
            return
        if at >= end:
            return
        if self._quick_frame_cut(data, at, end, limit):
            self.rest = data if not at and isinstance(data, bytearray) else bytearray(data[at:])
            return
        if conn.state is _OPEN and not self.close_sent:
            # websockets' parser may now hold part of a frame (its first bytes taken, the
            # rest awaited with an empty buffer): every later read goes to it.
            self.quick = False
        super().data_received(bytes(data[at:] if at else data))

    def _quick_frame_cut(
        self, data: bytes | bytearray, at: int, end: int, limit: int | None
    ) -> bool:
        """Whether the loop above stopped at a well-formed frame the read cut short (kept
        until the rest arrives) rather than at one for websockets' parser."""
        conn = self.conn
        if conn.state is not _OPEN or self.close_sent or conn.reader.buffer:
            return False
        if end - at < 2:
            return True
        size = data[at + 1]
        if not size & 0x80:
            return False
        size &= 0x7F
        start = at + 6
        if size >= 126:
            start += 2 if size == 126 else 8
            if end < start:
                return True
            size = int.from_bytes(data[at + 2 : start - 4], "big")
        return size <= (limit if limit is not None else PAUSE_BYTES)

    def send_receive_event_to_app(self) -> None:
        """A message websockets parsed (any frame the quick path left to it)."""
        frames, self.frames = self.frames, []
        data = frames[0] if len(frames) == 1 else b"".join(frames)
        if self.curr_msg_data_type == "bytes":
            self._deliver(bytes(data))
            return
        try:
            text = bytes(data).decode()
        except UnicodeDecodeError:
            # As uvicorn: invalid UTF-8 in a text message closes with 1007.
            self.logger.exception("Invalid UTF-8 sequence received from client.")
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        self._deliver(text)

    def _deliver(self, message: str | bytes) -> None:
        if self.close_sent:
            # Past the app's close: dropped, reading on until the peer's close arrives.
            return
        inbox = self.inbox
        inbox.put_nowait(message)
        if inbox.unread > PAUSE_BYTES and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()
            inbox.on_drain = self._resume

    def _resume(self) -> None:
        self.inbox.on_drain = None
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()

    async def receive(self) -> Any:
        """The ASGI ``receive``: the next item as uvicorn's event dict."""
        item = await self.inbox.get()
        if isinstance(item, str):
            return {"type": "websocket.receive", "text": item}
        if isinstance(item, bytes):
            return {"type": "websocket.receive", "bytes": item}
        return item


def _release(upgraded: asyncio.BaseProtocol) -> None:
    """Break the cycle between an upgraded HTTP protocol and its parser, where it has one
    named so (uvicorn's httptools protocol); any other is left as it is."""
    if getattr(upgraded, "parser", None) is not None:
        upgraded.parser = None  # type: ignore[attr-defined]
