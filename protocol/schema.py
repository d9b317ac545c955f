"""JSON Schema (draft 2020-12) of every wire message, derived from the attrs classes."""

from __future__ import annotations

import types
import typing
from typing import Any

import attrs

from .messages import CLIENT_MESSAGES, PROTOCOL_VERSION, SERVER_MESSAGES

__all__ = ["json_schema"]


def _type_schema(tp: Any) -> dict[str, Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return {}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_type_schema(a) for a in args]}
    if tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if origin in (list, tuple):
        return {"type": "array", "items": _type_schema(args[0]) if args else {}}
    if origin is dict or tp is dict:
        return {"type": "object"}
    if attrs.has(tp):
        return {"$ref": f"#/$defs/{tp.__name__}"}
    return {}


def _class_schema(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {}
    required: list[str] = []
    tag = getattr(cls, "TYPE", None)
    if tag is not None:
        props["type"] = {"const": tag}
        required.append("type")
    for field in attrs.fields(cls):
        props[field.name] = _type_schema(hints[field.name])
        if field.default is attrs.NOTHING:
            required.append(field.name)
    doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
    out: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }
    if doc:
        out["description"] = doc
    return out


def json_schema() -> dict[str, Any]:
    """The schema of all messages: ``ClientMessage`` and ``ServerMessage`` unions."""
    from .messages import WireEvent

    defs = {c.__name__: _class_schema(c) for c in (*CLIENT_MESSAGES, *SERVER_MESSAGES)}
    defs["WireEvent"] = _class_schema(WireEvent)
    defs["ClientMessage"] = {"oneOf": [{"$ref": f"#/$defs/{c.__name__}"} for c in CLIENT_MESSAGES]}
    defs["ServerMessage"] = {"oneOf": [{"$ref": f"#/$defs/{c.__name__}"} for c in SERVER_MESSAGES]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://cloister.invalid/protocol/v{PROTOCOL_VERSION}",
        "title": f"Cloister wire protocol v{PROTOCOL_VERSION}",
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": defs,
    }
