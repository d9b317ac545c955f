"""One explicit cattrs converter and the orjson codec for messages, commands and events."""

from __future__ import annotations

import enum
import types
import typing
import weakref
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

import attrs
import cattrs
import orjson
from cattrs.preconf.orjson import make_converter
from cattrs.strategies import configure_tagged_union

from domain.errors import InvalidCommand, UnknownCommand
from domain.game import Game

from .messages import (
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    ClientMessage,
    SendCommand,
    ServerMessage,
)

__all__ = [
    "GameCodec",
    "ProtocolError",
    "converter",
    "decode_client",
    "decode_server",
    "dumps",
    "encode",
    "loads",
]

T = TypeVar("T")


class ProtocolError(ValueError):
    """A message that is not a valid protocol message. ``code`` is stable."""

    def __init__(self, code: str, message: str, details: list[str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or []


def _tag(cls: type) -> str:
    tag: str = getattr(cls, "TYPE")  # noqa: B009 - every message class declares TYPE
    return tag


def _strict(conv: cattrs.Converter) -> cattrs.Converter:
    """Refuse type coercions: cattrs would turn 3 into "3" and "3" into 3; a client that
    sends the wrong type has a bug we should report, not guess around."""

    def exact(tp: type) -> Any:
        def hook(value: Any, _: Any) -> Any:
            # bool is an int subclass: an int field must not take True.
            if type(value) is not tp and not (tp is float and type(value) is int):
                raise TypeError(f"expected {tp.__name__}, got {type(value).__name__}")
            return value

        return hook

    for tp in (str, int, bool, float):
        conv.register_structure_hook(tp, exact(tp))

    # A StrEnum is a str subclass, so the exact str hook above would also take its fields
    # and hand back the bare string: look the member up instead (as cheap), and refuse a
    # value that names none, or of another type (True for an IntEnum's 1).
    def member(value: Any, tp: type[enum.Enum]) -> Any:
        if type(value) is tp:  # unstructured in memory (orjson writes enums itself)
            return value
        found = tp._value2member_map_.get(value) if isinstance(value, Hashable) else None
        if found is None or type(value) is not type(found.value):
            raise ValueError(f"{value!r} is not a {tp.__name__}")
        return found

    # StrEnum and IntEnum by name: in their MRO str and int come before Enum.
    for base in (enum.Enum, enum.StrEnum, enum.IntEnum):
        conv.register_structure_hook(base, member)
    return conv


def _make() -> cattrs.Converter:
    # forbid_extra_keys: an unknown field is a client bug we report, not silently drop.
    conv = _strict(make_converter(forbid_extra_keys=True))
    configure_tagged_union(
        ClientMessage,
        conv,
        tag_generator=_tag,
        tag_name="type",
    )
    configure_tagged_union(
        ServerMessage,
        conv,
        tag_generator=_tag,
        tag_name="type",
    )
    return conv


converter: cattrs.Converter = _make()
"""The converter for wire messages. Never use cattrs' global converter."""


def dumps(obj: Any) -> bytes:
    return orjson.dumps(obj)


def loads(data: bytes | str) -> Any:
    return orjson.loads(data)


def encode(message: ServerMessage | ClientMessage) -> bytes:
    """Serialise a message (with its ``type`` tag) to JSON bytes."""
    union = ServerMessage if type(message) in SERVER_MESSAGES else ClientMessage
    return orjson.dumps(converter.unstructure(message, union))


def _errors(exc: Exception) -> list[str]:
    if isinstance(exc, cattrs.BaseValidationError):
        return cattrs.transform_error(exc)
    return [str(exc)]


def decode_client(data: bytes | str) -> ClientMessage:
    """Parse a client message; raises :class:`ProtocolError` with a stable code."""
    message = decode_client_parts(data)
    if type(message) is tuple:
        return SendCommand(*message)
    return message  # type: ignore[return-value]  # not a tuple: a message


CommandParts = tuple[str, dict[str, Any], int | None]
"""A ``SendCommand``'s fields (``command_id``, ``command``, ``expected_version``)."""


def decode_client_parts(data: bytes | str) -> CommandParts | ClientMessage:
    """``decode_client``, but a well-formed command comes as its fields, not as a
    ``SendCommand`` (the server's receive loop reads them at once: building the frozen
    message, once a move, cost more than the rest of the decoding). Anything else, a
    command the converter had to look at included, comes as its message."""
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ProtocolError("bad_json", f"the message is not valid JSON: {exc}") from None
    if type(raw) is dict and raw.get("type") == "command" and raw.keys() <= _COMMAND_KEYS:
        # The message nearly every socket sends: when it is exactly well formed it is built
        # here, as the converter would build it; anything else (a missing or extra field, a
        # wrong type) goes to the converter, whose refusals are the codes clients know.
        cid, command, expected = (
            raw.get("command_id"),
            raw.get("command"),
            raw.get("expected_version"),
        )
        if (
            type(cid) is str
            and type(command) is dict
            and (expected is None or type(expected) is int)
        ):
            return cid, command, expected
    message: ClientMessage = _structure_tagged(raw, CLIENT_MESSAGES, ClientMessage)
    return message


_COMMAND_KEYS = frozenset({"type", "command_id", "command", "expected_version"})


def decode_server(data: bytes | str) -> ServerMessage:
    """Parse a server message (used by the Python client)."""
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ProtocolError("bad_json", f"the message is not valid JSON: {exc}") from None
    message: ServerMessage = _structure_tagged(raw, SERVER_MESSAGES, ServerMessage)
    return message


_TAGS: dict[tuple[type, ...], list[str]] = {}


def _structure_tagged(raw: Any, classes: tuple[type, ...], union: Any) -> Any:
    if not isinstance(raw, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    tag = raw.get("type")
    names = _TAGS.get(classes)
    if names is None:
        names = _TAGS[classes] = [_tag(c) for c in classes]
    if tag not in names:
        raise ProtocolError(
            "unknown_message", f"unknown message type {tag!r}; expected one of {names}"
        )
    try:
        return converter.structure(raw, union)
    except Exception as exc:  # cattrs raises several families; all mean "malformed"
        details = _errors(exc)
        raise ProtocolError(
            "bad_message", f"malformed {tag!r} message: {'; '.join(details)}", details
        ) from None


_ENCODED_MAX = 50_000
"""Encoded commands a codec keeps for reuse (then it starts afresh)."""


class _Seen(weakref.ref):  # type: ignore[type-arg]
    """A command seen before, held weakly, with its key and its encoded dict."""

    __slots__ = ("hit", "key")
    hit: dict[str, Any]
    key: int


_NATIVE = (str, int, bool, float, type(None))


def _native(tp: Any) -> bool:
    if tp in _NATIVE:
        return True
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return all(_native(a) for a in args)
    if origin is tuple:
        return all(a is Ellipsis or _native(a) for a in args)
    return False


def _plain_fields(cls: type) -> tuple[str, ...]:
    """The field names of an attrs class all of whose fields are JSON-native, else ()."""
    if not attrs.has(cls):
        return ()
    fields = attrs.fields(cls)
    if not fields or not all(_native(f.type) for f in fields):
        return ()
    return tuple(f.name for f in fields)


_MISSING: Any = object()


def _scalar_fields(cls: type) -> tuple[tuple[str, type], ...]:
    """(name, type) of each field of an attrs class whose fields are all plain ``str``,
    ``int``, ``bool`` or ``float`` under their own names; () for any other class."""
    if not attrs.has(cls):
        return ()
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):
        return ()
    out = []
    for f in attrs.fields(cls):
        tp = hints.get(f.name)
        if tp not in (str, int, bool, float) or f.alias != f.name or not f.init:
            return ()
        out.append((f.name, tp))
    return tuple(out)


class GameCodec(Generic[T]):
    """Commands, events and views of one game type to and from JSON-ready values.

    The wire name of a command or event is its class name (``"type"``). Events are stored
    with a ``schema`` number; older data is brought up to date by the game's ``upcast``.
    """

    _cache: ClassVar[dict[int, tuple[Any, GameCodec[Any]]]] = {}

    @classmethod
    def for_game(cls, game: Game[Any, Any, Any]) -> GameCodec[Any]:
        """The codec of ``game``, built once per process (building one generates code)."""
        hit = cls._cache.get(id(game))
        if hit is not None and hit[0] is game:
            return hit[1]
        codec: GameCodec[Any] = cls(game)
        cls._cache[id(game)] = (game, codec)
        return codec

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self._conv = _strict(make_converter(forbid_extra_keys=True))
        self.commands: dict[str, type] = {c.__name__: c for c in game.command_types}
        self._encoded: dict[Any, dict[str, Any]] = {}
        self._by_id: dict[int, _Seen] = {}
        """Commands encoded before, by identity, held weakly: a game that lists the same
        command objects state after state finds them without hashing their fields, and a
        game that makes new ones each time keeps none of them alive (held strongly, each
        move's commands outlived it and every collection of the young generation moved
        them to the old ones, most of what a swap-game move left behind)."""
        self._plain: dict[type, tuple[str, ...]] = {}
        self._quick: dict[type, tuple[tuple[str, type], ...]] = {}
        self.events: dict[str, type] = {e.__name__: e for e in game.event_types}
        for cls in (*game.command_types, *game.event_types):
            attrs.resolve_types(cls)

    # commands
    def encode_command(self, command: Any) -> dict[str, Any]:
        cls = type(command)
        quick = self._quick.get(cls)
        if quick is None:
            quick = self._quick[cls] = _scalar_fields(cls)
        if quick:
            # Every field a plain str/int/bool/float under its own name (the command of
            # nearly every move): what the converter gives, read directly, in field order.
            out: dict[str, Any] = {"type": cls.__name__}
            for name, _ in quick:
                out[name] = getattr(command, name)
            return out
        data: dict[str, Any] = self._conv.unstructure(command)
        return {"type": cls.__name__, **data}

    def encode_commands(self, commands: Iterable[Any]) -> list[dict[str, Any]]:
        """Many commands, e.g. a seat's legal list (hundreds, most of them repeated from one
        state to the next), as JSON-ready dicts. The dicts are shared: do not mutate them.

        A command class whose fields are all JSON-native (str, int, bool, float, None, and
        tuples of those) is read field by field instead of through cattrs; tuples stay
        tuples, which orjson writes as arrays, so the JSON is the same. Each encoded command
        is kept (bounded) and reused the next time the same command is legal.
        """
        cache = self._encoded
        if len(cache) > _ENCODED_MAX:
            cache.clear()
        by_id = self._by_id
        if len(by_id) > _ENCODED_MAX:  # live objects, not values: bounded apart
            by_id.clear()
        out = []
        for command in commands:
            # The very same object as before (a game may list the same command objects
            # state after state): found by identity, without hashing its fields.
            same = by_id.get(id(command))
            if same is not None and same() is command:
                out.append(same.hit)
                continue
            try:
                hit = cache.get(command)
            except TypeError:  # unhashable: encode every time
                out.append(self.encode_command(command))
                continue
            if hit is None:
                cls = type(command)
                fields = self._plain.get(cls)
                if fields is None:
                    fields = self._plain[cls] = _plain_fields(cls)
                if fields:
                    hit = {"type": cls.__name__, **{f: getattr(command, f) for f in fields}}
                else:
                    hit = self.encode_command(command)
                cache[command] = hit
            try:
                seen = _Seen(command, self._forget)
            except TypeError:  # no weak reference to it: found by value only
                pass
            else:
                seen.hit, seen.key = hit, id(command)
                by_id[seen.key] = seen
            out.append(hit)
        return out

    def _forget(self, seen: _Seen) -> None:
        """A command seen before is gone: its entry goes before its id can be reused."""
        if self._by_id.get(seen.key) is seen:
            del self._by_id[seen.key]

    def decode_command(self, raw: Mapping[str, Any]) -> Any:
        """Raises :class:`UnknownCommand` or :class:`InvalidCommand`."""
        # A dict (as decoded from JSON) before the ABC's check, a Python call each.
        if type(raw) is not dict and not isinstance(raw, Mapping):
            raise InvalidCommand("a command must be a JSON object with a 'type'")
        fields = dict(raw)
        name = fields.pop("type", None)
        cls = self.commands.get(name) if isinstance(name, str) else None
        if cls is None:
            raise UnknownCommand(
                f"{self.game.title} has no command {name!r}; commands: {sorted(self.commands)}"
            )
        quick = self._quick.get(cls)
        if quick is None:
            quick = self._quick[cls] = _scalar_fields(cls)
        if quick and len(fields) == len(quick):
            # Every field present with exactly its scalar type: what the strict converter
            # would accept, built directly; anything else goes to it for its message.
            for key, tp in quick:
                value = fields.get(key, _MISSING)
                if type(value) is not tp and not (tp is float and type(value) is int):
                    break
            else:
                return cls(**fields)
        try:
            return self._conv.structure(fields, cls)
        except Exception as exc:
            raise InvalidCommand(f"malformed {name} command: {'; '.join(_errors(exc))}") from None

    # events
    def event_type(self, event: Any) -> str:
        return type(event).__name__

    def encode_event(self, event: Any) -> dict[str, Any]:
        data: dict[str, Any] = self._conv.unstructure(event)
        return data

    def decode_event(self, type_: str, data: dict[str, Any], schema: int = 1) -> Any:
        data = self.game.upcast(type_, schema, data)
        cls = self.events.get(type_)
        if cls is None:
            raise ValueError(f"{self.game.name} has no event type {type_!r}")
        return self._conv.structure(data, cls)

    # views
    def encode_view(self, view: Any) -> Any:
        return self._conv.unstructure(view)

    def default(self, obj: Any) -> Any:
        """orjson's ``default`` for views: attrs instances and sets (sorted)."""
        # orjson calls this only for what it cannot encode natively (attrs instances, sets):
        # plain dict/list views pay nothing for the converter.
        if attrs.has(type(obj)):
            return self._conv.unstructure(obj)
        if isinstance(obj, (set, frozenset)):
            try:
                return sorted(obj)
            except TypeError:
                return list(obj)
        raise TypeError(f"cannot encode {type(obj).__name__}")

    def message_bytes(self, message: ServerMessage) -> bytes:
        """Encode a server message whose ``view`` holds the game's raw view object.

        Equivalent to ``encode`` after ``encode_view``, without walking the whole view
        through cattrs first: this is the fan-out's hot path.
        """
        fields = {f.name: getattr(message, f.name) for f in attrs.fields(type(message))}
        fields["type"] = _tag(type(message))
        return orjson.dumps(fields, default=self.default)

    def to_json(self, value: Any) -> bytes:
        return orjson.dumps(self._conv.unstructure(value))
