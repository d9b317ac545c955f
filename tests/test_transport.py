"""The server's WebSocket protocol (``server.transport``): its quick frame parser and inbox
deliver what websockets' parser and uvicorn's queue would, in order, whatever the chunking.

The protocol runs on a stand-in transport (bytes in, bytes out, no socket), driven by a
sans-I/O websockets client, so every split of the byte stream can be tried."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from server.transport import PAUSE_BYTES, CloisterWebSocketProtocol

MAX_SIZE = 70_000


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.out = bytearray()
        self.paused = self.closed = False

    def write(self, data: Any) -> None:
        self.out += data

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 1), "sockname": ("127.0.0.1", 2)}.get(name, default)

    def get_write_buffer_size(self) -> int:
        return 0


class Session:
    """One connection: the protocol, its transport, a client, and what the app read."""

    def __init__(self, read: bool = True) -> None:
        self.got: list[Any] = []
        self.reading = asyncio.Event()
        if read:
            self.reading.set()
        self.ended = asyncio.Event()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            assert (await receive())["type"] == "websocket.connect"
            await send({"type": "websocket.accept"})
            inbox = send.__self__.inbox
            while True:
                await self.reading.wait()
                item = await inbox.get()
                self.got.append(item)
                if isinstance(item, dict):
                    self.ended.set()
                    return

        config = uvicorn.Config(
            app, ws=CloisterWebSocketProtocol, ws_max_size=MAX_SIZE, lifespan="off"
        )
        config.load()
        self.proto = CloisterWebSocketProtocol(config, ServerState(), {})
        self.transport = Transport()
        self.proto.connection_made(self.transport)
        self.client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"))

    async def open(self) -> None:
        self.client.send_request(self.client.connect())
        self.proto.data_received(b"".join(self.client.data_to_send()))
        for _ in range(20):
            await asyncio.sleep(0)
        self.pump()
        assert self.client.state is State.OPEN

    def pump(self) -> list[Any]:
        """What the server wrote, as the client reads it."""
        self.client.receive_data(bytes(self.transport.out))
        self.transport.out.clear()
        return self.client.events_received()

    async def settle(self) -> None:
        for _ in range(10):
            await asyncio.sleep(0)


def frames(client: ClientProtocol, *messages: str | bytes) -> bytes:
    for m in messages:
        if isinstance(m, str):
            client.send_text(m.encode())
        else:
            client.send_binary(m)
    return b"".join(client.data_to_send())


async def test_two_frames_in_one_read_are_two_messages_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Parsed by the quick path alone (websockets' parser is not called), a 16-bit length
    included: a wrong parse that fell back to websockets would pass unseen otherwise."""
    s = Session()
    await s.open()
    left: list[bytes] = []
    monkeypatch.setattr(WebSocketsSansIOProtocol, "data_received", lambda _, d: left.append(d))
    long = "z" * 300
    s.proto.data_received(frames(s.client, "one", long, b"two"))
    await s.settle()
    assert s.got == ["one", long, b"two"]
    assert left == []


def mixed_stream(c: ClientProtocol) -> tuple[bytes, list[str | bytes]]:
    """Short, 16-bit-length, binary and fragmented messages and a ping among them, as the
    client sends them, and the messages the app should read."""
    long = "é" * 200
    c.send_text(b"a")
    c.send_text(long.encode())
    c.send_ping(b"p")
    c.send_binary(b"\x00\x01")
    c.send_text(b"frag", fin=False)
    c.send_continuation(b"ment", fin=True)
    c.send_text(b"{}")
    return b"".join(c.data_to_send()), ["a", long, b"\x00\x01", "fragment", "{}"]


async def test_every_split_of_the_stream_gives_the_same_messages() -> None:
    """Short, 16-bit-length, binary and fragmented messages and a ping among them, the
    stream cut at every byte: the messages in order, the ping answered."""
    s = Session()
    await s.open()
    stream, want = mixed_stream(s.client)
    for cut in range(len(stream) + 1):
        s.got.clear()
        s.proto.data_received(stream[:cut])
        s.proto.data_received(stream[cut:])
        await s.settle()
        assert s.got == want, cut
        pongs = [e for e in s.pump() if e.opcode is Opcode.PONG]
        assert [p.data for p in pongs] == [b"p"], cut


def masked_text(payload: bytes, mask: bytes) -> bytes:
    """A client's final text frame with the given mask (websockets draws one at random)."""
    assert len(payload) < 126 and len(mask) == 4
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


async def test_a_frame_cut_after_its_header_is_not_read_from_its_mask() -> None:
    """The read ends two bytes into a frame whose mask looks like a frame header (FIN+text,
    masked, length 2). Were those two bytes given to websockets' parser, it would wait for
    the mask with an empty buffer, and the next read, taken for a frame boundary, would
    be parsed from the mask: a made-up two-byte message, then garbage."""
    s = Session()
    await s.open()
    first = masked_text(b"a", b"\x11\x22\x33\x44")
    second = masked_text(b'{"type":"hello"}', b"\x81\x82\x00\x00")
    stream = first + second
    cut = len(first) + 2
    s.proto.data_received(stream[:cut])
    s.proto.data_received(stream[cut:])
    await s.settle()
    assert s.got == ["a", '{"type":"hello"}']


async def test_a_stream_fed_a_byte_at_a_time_gives_the_same_messages() -> None:
    s = Session()
    await s.open()
    stream, want = mixed_stream(s.client)
    for i in range(len(stream)):
        s.proto.data_received(stream[i : i + 1])
    await s.settle()
    assert s.got == want
    assert [e.data for e in s.pump() if e.opcode is Opcode.PONG] == [b"p"]


async def test_after_a_cut_frame_the_quick_path_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame cut short is kept and finished here: websockets' parser sees none of it."""
    s = Session()
    await s.open()
    left: list[bytes] = []
    monkeypatch.setattr(WebSocketsSansIOProtocol, "data_received", lambda _, d: left.append(d))
    stream = frames(s.client, "one", "two" * 50, "three")
    for cut in (3, 9, 40):
        s.proto.data_received(stream[:cut])
        s.proto.data_received(stream[cut:])
    await s.settle()
    assert s.got == ["one", "two" * 50, "three"] * 3
    assert left == []


async def test_a_frame_over_the_limit_closes_with_1009() -> None:
    s = Session()
    await s.open()
    s.proto.data_received(frames(s.client, "x" * (MAX_SIZE + 1)))
    await s.settle()
    closes = [e for e in s.pump() if e.opcode is Opcode.CLOSE]
    assert [Close.parse(e.data).code for e in closes] == [1009]
    assert s.got and s.got[-1]["type"] == "websocket.disconnect"


async def test_text_that_is_not_utf8_closes_with_1007() -> None:
    s = Session()
    await s.open()
    s.client.send_frame(Frame(Opcode.TEXT, b"ok\xff"))
    s.proto.data_received(b"".join(s.client.data_to_send()))
    await s.settle()
    closes = [e for e in s.pump() if e.opcode is Opcode.CLOSE]
    assert [Close.parse(e.data).code for e in closes] == [1007]
    assert [g for g in s.got if not isinstance(g, dict)] == []


async def test_a_close_from_the_client_reaches_the_reader_after_its_messages() -> None:
    s = Session()
    await s.open()
    s.client.send_text(b"last")
    s.client.send_close(1000)
    s.proto.data_received(b"".join(s.client.data_to_send()))
    await asyncio.wait_for(s.ended.wait(), 5)
    assert s.got[0] == "last"
    assert s.got[1] == {"type": "websocket.disconnect", "code": 1000, "reason": ""}


async def test_reading_pauses_only_past_the_backlog_bound_and_resumes_once_read() -> None:
    s = Session(read=False)
    await s.open()
    chunk = "y" * 1000
    n = PAUSE_BYTES // len(chunk)
    s.proto.data_received(frames(s.client, *[chunk] * n))
    assert not s.transport.paused  # at the bound, not past it
    s.proto.data_received(frames(s.client, chunk, chunk))
    assert s.transport.paused
    s.reading.set()
    await s.settle()
    assert len(s.got) == n + 2
    assert not s.transport.paused


async def test_a_cancelled_wait_loses_no_message() -> None:
    """The hello timeout cancels a wait on the inbox; what arrives next is still read."""
    s = Session(read=False)
    await s.open()
    inbox = s.proto.inbox
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(inbox.get(), 0.01)
    s.proto.data_received(frames(s.client, "late"))
    assert await asyncio.wait_for(inbox.get(), 1) == "late"


class SwitchingTransport(Transport):
    """A stand-in that, like uvloop's, tells and changes its protocol."""

    def __init__(self) -> None:
        super().__init__()
        self.protocol: Any = None

    def get_protocol(self) -> Any:
        return self.protocol

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol


async def test_the_upgraded_http_protocol_is_freed_without_a_collection() -> None:
    """uvicorn's httptools protocol and its parser hold each other: after the upgrade the
    WebSocket protocol lets go of that parser, so reference counting frees the HTTP
    protocol at once, not a full collection (young ones are frozen unscanned)."""
    import gc
    import weakref

    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    done = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await done.wait()

    config = uvicorn.Config(app, ws=CloisterWebSocketProtocol, lifespan="off")
    config.load()
    transport = SwitchingTransport()
    http = HttpToolsProtocol(config, ServerState(), {})
    transport.protocol = http
    http.connection_made(transport)
    client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"))
    client.send_request(client.connect())
    gc.disable()
    try:
        http.data_received(b"".join(client.data_to_send()))
        ws = transport.protocol
        assert isinstance(ws, CloisterWebSocketProtocol)
        for _ in range(20):
            await asyncio.sleep(0)
        client.receive_data(bytes(transport.out))
        assert client.state is State.OPEN
        gone = weakref.ref(http)
        assert http.parser is None
        del http
        assert gone() is None
    finally:
        gc.enable()
        done.set()  # the app returns: uvicorn closes the connection
        for _ in range(20):
            await asyncio.sleep(0)
