"""Wire messages: round trips, stable tags, precise errors, schema."""

from __future__ import annotations

from typing import Any

import attrs
import orjson
import pytest

from domain import InvalidCommand, UnknownCommand
from domain.highcard import GAME
from domain.highcard.game import CardDrawn, PlayCard
from protocol import (
    CLIENT_MESSAGES,
    Accepted,
    Error,
    GameCodec,
    GameOverMessage,
    Hello,
    Ping,
    Pong,
    ProtocolError,
    Rejected,
    Resync,
    SendCommand,
    Update,
    Welcome,
    WireEvent,
    decode_client,
    decode_server,
    encode,
    json_schema,
)

SERVER_SAMPLES = [
    Welcome(
        1,
        "g-1",
        "high-card",
        None,
        "running",
        4,
        {"a": [1, 2]},
        [],
        [0],
        [WireEvent(4, "Passed", {"seat": 0}, "p")],
    ),
    Update(5, [WireEvent(5, "Hidden", {})], [1], view={"x": None}, legal=[{"type": "Pass"}]),
    Update(6, [WireEvent(6, "Passed", {"seat": 1})], [0], base=5, delta=[[["x"], 2], [["y"]]]),
    Accepted("c1", 5, True),
    Rejected("c1", "not_your_turn", "it is seat 1's turn"),
    GameOverMessage(9, {"scores": [1, 2], "winners": [1], "summary": ""}),
    Error("bad_json", "nope", ["$.x"]),
    Pong(3),
]
CLIENT_SAMPLES = [Hello(2, "tok", 7), SendCommand("c9", {"type": "Draw"}), Ping(2), Resync(4)]


@pytest.mark.parametrize("message", SERVER_SAMPLES)
def test_server_messages_round_trip(message: object) -> None:
    data = encode(message)  # type: ignore[arg-type]
    assert orjson.loads(data)["type"] == type(message).TYPE  # type: ignore[attr-defined]
    assert decode_server(data) == message


@pytest.mark.parametrize("message", CLIENT_SAMPLES)
def test_client_messages_round_trip(message: object) -> None:
    assert decode_client(encode(message)) == message  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"{", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        (b"42", "bad_message"),
        (b'{"no": "type"}', "unknown_message"),
        (b'{"type": "welcome"}', "unknown_message"),  # a server message is not a client one
        (b'{"type": "command", "command_id": 3, "command": {}}', "bad_message"),
        (b'{"type": "resync"}', "bad_message"),
        (b'{"type": "ping", "nonce": 1, "extra": true}', "bad_message"),
    ],
)
def test_malformed_client_messages_get_stable_codes(raw: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as err:
        decode_client(raw)
    assert err.value.code == code and err.value.message


def test_game_codec_commands_and_events() -> None:
    codec = GameCodec(GAME)
    assert codec.encode_command(PlayCard("hc-03")) == {"type": "PlayCard", "card": "hc-03"}
    assert codec.decode_command({"type": "PlayCard", "card": "hc-03"}) == PlayCard("hc-03")
    with pytest.raises(UnknownCommand, match="no command 'Castle'"):
        codec.decode_command({"type": "Castle"})
    with pytest.raises(InvalidCommand, match="malformed PlayCard"):
        codec.decode_command({"type": "PlayCard", "card": "x", "also": 1})
    with pytest.raises(InvalidCommand):
        codec.decode_command({"type": "PlayCard"})
    with pytest.raises(InvalidCommand):
        codec.decode_command(["PlayCard"])  # type: ignore[arg-type]
    event = CardDrawn(1, "hc-07")
    assert codec.decode_event("CardDrawn", codec.encode_event(event)) == event
    with pytest.raises(ValueError, match="no event type"):
        codec.decode_event("Nope", {})


def test_schema_covers_every_message() -> None:
    schema = json_schema()
    names = {m.__name__ for m in CLIENT_MESSAGES} | {type(m).__name__ for m in SERVER_SAMPLES}
    assert names <= set(schema["$defs"])
    hello = schema["$defs"]["Hello"]
    assert hello["properties"]["type"] == {"const": "hello"}
    assert hello["additionalProperties"] is False
    assert "command_id" in schema["$defs"]["SendCommand"]["required"]


def test_fast_message_encoding_matches_the_converter() -> None:
    """The fan-out encodes raw views with orjson's default hook; it must produce exactly
    what encoding the converted view through cattrs produces."""
    import attrs

    @attrs.frozen
    class Pile:
        cards: tuple[str, ...]
        hidden: frozenset[int]

    codec = GameCodec(GAME)
    view = {"piles": [Pile(("a", "b"), frozenset({3, 1}))], "n": 2, "t": (1, 2)}
    message = Update(3, [WireEvent(3, "Passed", {"seat": 1}, "x")], [0], view=view, legal=[])
    converted = Update(3, message.events, [0], view=codec.encode_view(view), legal=[])
    assert orjson.loads(codec.message_bytes(message)) == orjson.loads(encode(converted))
    assert decode_server(codec.message_bytes(message)).view["piles"][0]["hidden"] == [1, 3]


def _outcome(decode: Any, value: Any) -> Any:
    try:
        return ("ok", decode(value))
    except (ProtocolError, InvalidCommand, UnknownCommand) as exc:
        return (type(exc).__name__, exc.code, str(exc), getattr(exc, "details", None))


def test_the_quick_command_decoding_accepts_and_refuses_as_the_converter_does() -> None:
    """``decode_client`` builds a well-formed ``command`` message itself, and a game codec
    a command of plain scalar fields; every other input goes to the converter. Both must
    give the same message, or the same refusal (code, text, details), as the converter
    alone."""
    from protocol.codec import _structure_tagged
    from protocol.messages import ClientMessage

    def slow_client(text: str) -> Any:
        return _structure_tagged(orjson.loads(text), CLIENT_MESSAGES, ClientMessage)

    cases = [
        {"type": "command", "command_id": "c1", "command": {"type": "Draw"}},
        {"type": "command", "command_id": "c1", "command": {}, "expected_version": 3},
        {"type": "command", "command_id": "c1", "command": {}, "expected_version": None},
        {"type": "command", "command_id": "c1", "command": {}, "expected_version": True},
        {"type": "command", "command_id": "c1", "command": {}, "expected_version": 2.0},
        {"type": "command", "command_id": 7, "command": {}},
        {"type": "command", "command_id": "c1", "command": []},
        {"type": "command", "command_id": "c1"},
        {"type": "command", "command": {}},
        {"type": "command", "command_id": "c1", "command": {}, "extra": 1},
        {"type": "ping", "nonce": 1},
        {"type": "nope"},
        [1, 2],
    ]
    for case in cases:
        text = orjson.dumps(case).decode()
        assert _outcome(decode_client, text) == _outcome(slow_client, text), case

    @attrs.frozen
    class Mark:
        cell: int
        label: str
        sure: bool
        weight: float

    game: Any = type(
        "G", (), {"title": "G", "name": "g", "command_types": (Mark,), "event_types": ()}
    )()
    quick, slow = GameCodec(game), GameCodec(game)
    slow._quick = {Mark: ()}  # the converter only
    good = {"type": "Mark", "cell": 1, "label": "a", "sure": False, "weight": 2}
    commands = [
        good,
        {**good, "weight": 2.5},
        {**good, "cell": True},
        {**good, "cell": 1.0},
        {**good, "sure": 1},
        {**good, "label": None},
        {**good, "extra": 0},
        {k: v for k, v in good.items() if k != "label"},
        {**good, "type": "Other"},
    ]
    for raw in commands:
        assert _outcome(quick.decode_command, raw) == _outcome(slow.decode_command, raw), raw
    assert quick.decode_command(good) == Mark(1, "a", False, 2)
    # Encoded back (the log's CommandAccepted) directly as the converter does: the same
    # keys in the same order, the same values of the same types.
    for command in (Mark(1, "a", False, 2), Mark(-3, "é", True, 2.5)):
        fast, conv = quick.encode_command(command), slow.encode_command(command)
        assert list(fast.items()) == list(conv.items()), command
        assert [type(v) for v in fast.values()] == [type(v) for v in conv.values()]
        assert orjson.dumps(fast) == orjson.dumps(conv)
    assert quick._quick[Mark]  # the quick path was the one taken
