"""JSON Schema (draft 2020-12) of every wire message, derived from the attrs classes.

``class_schema`` is also what the OpenAPI document (the HTTP bodies of ``protocol.http``) and
the AsyncAPI document (``protocol.asyncapi``) are built from, with their own ``$ref`` base.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import attrs

from .messages import CLIENT_MESSAGES, PROTOCOL_VERSION, SERVER_MESSAGES

__all__ = ["class_schema", "json_schema", "referenced"]


def _type_schema(tp: Any, ref: str = "#/$defs/") -> dict[str, Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return {}
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_type_schema(a, ref) for a in args]}
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
        return {"type": "array", "items": _type_schema(args[0], ref) if args else {}}
    if origin is dict and len(args) == 2 and args[1] is not Any:
        return {"type": "object", "additionalProperties": _type_schema(args[1], ref)}
    if origin is dict or tp is dict:
        return {"type": "object"}
    if attrs.has(tp):
        return {"$ref": f"{ref}{tp.__name__}"}
    return {}


def class_schema(cls: type, ref: str = "#/$defs/", closed: bool = True) -> dict[str, Any]:
    """The JSON Schema of one attrs class; nested classes are ``{"$ref": ref + name}``.

    ``closed`` forbids unknown fields (what the strict converter does when decoding).
    A field's ``metadata["schema"]`` (constraints, a description) is merged in.
    """
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {}
    required: list[str] = []
    tag = getattr(cls, "TYPE", None)
    if tag is not None:
        props["type"] = {"const": tag}
        required.append("type")
    for field in attrs.fields(cls):
        prop = _type_schema(hints[field.name], ref)
        extra = dict(field.metadata.get("schema", {}))
        description = extra.pop("description", None)
        if extra:
            # Constraints apply to the value, not to the null of an optional field.
            if "anyOf" in prop and {"type": "null"} in prop["anyOf"]:
                prop = {
                    "anyOf": [{**a, **extra} if a != {"type": "null"} else a for a in prop["anyOf"]]
                }
            else:
                prop = {**prop, **extra}
        if description:
            prop["description"] = description
        props[field.name] = prop
        if field.default is attrs.NOTHING:
            required.append(field.name)
    doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
    out: dict[str, Any] = {"type": "object", "properties": props, "required": required}
    if closed:
        out["additionalProperties"] = False
    if doc and not doc.startswith(f"{cls.__name__}("):  # attrs' generated docstring
        out["description"] = doc
    return out


def referenced(classes: typing.Iterable[type]) -> list[type]:
    """``classes`` and every attrs class their fields refer to, each once, in order."""
    seen: dict[type, None] = {}

    def visit(tp: Any) -> None:
        if attrs.has(tp):
            if tp in seen:
                return
            seen[tp] = None
            hints = typing.get_type_hints(tp)
            for field in attrs.fields(tp):
                visit(hints[field.name])
        for arg in typing.get_args(tp):
            visit(arg)

    for cls in classes:
        visit(cls)
    return list(seen)


def json_schema() -> dict[str, Any]:
    """The schema of all messages: ``ClientMessage`` and ``ServerMessage`` unions."""
    from .messages import WireEvent

    defs = {c.__name__: class_schema(c) for c in (*CLIENT_MESSAGES, *SERVER_MESSAGES)}
    defs["WireEvent"] = class_schema(WireEvent)
    defs["ClientMessage"] = {"oneOf": [{"$ref": f"#/$defs/{c.__name__}"} for c in CLIENT_MESSAGES]}
    defs["ServerMessage"] = {"oneOf": [{"$ref": f"#/$defs/{c.__name__}"} for c in SERVER_MESSAGES]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://cloister.invalid/protocol/v{PROTOCOL_VERSION}",
        "title": f"Cloister wire protocol v{PROTOCOL_VERSION}",
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": defs,
    }
