"""The AsyncAPI 3.0 document of the WebSocket protocol (``cloister schema --asyncapi``).

Built from the same message classes as ``json_schema()``: every client and server message
becomes an AsyncAPI message whose payload is that class's schema (``class_schema``, with
``$ref``s under ``components.schemas``). The document is written from the server's side, as
AsyncAPI 3 asks: the server *receives* ``hello``, ``command``… and *sends* ``welcome``,
``update``…; request/reply pairs (hello → welcome, command → update/accepted/rejected, …) are
operation replies. The payload schemas use only keywords of JSON Schema draft-07, the
default AsyncAPI schema format.
"""

from __future__ import annotations

from typing import Any

from .messages import (
    CLIENT_MESSAGES,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Accepted,
    Chat,
    Error,
    GameOverMessage,
    Hello,
    Leave,
    Ping,
    Pong,
    Rejected,
    Resync,
    Retake,
    SendCommand,
    Undo,
    Update,
    Welcome,
)
from .schema import class_schema, referenced

__all__ = ["asyncapi"]

REF = "#/components/schemas/"

_REPLIES: dict[type, tuple[type, ...]] = {
    Hello: (Welcome, Error),
    SendCommand: (Update, Accepted, Rejected),
    Chat: (Update, Accepted, Rejected),
    Leave: (Update, Accepted, Rejected),
    Retake: (Update, Accepted, Rejected),
    Undo: (Update, Accepted, Rejected),
    Ping: (Pong,),
    Resync: (Update,),
}
"""What answers each client message (to the sender; other viewers get their own updates)."""

_SUMMARY: dict[type, str] = {
    Hello: "First message: a seat token (or none, to watch) and the last version seen",
    SendCommand: "A game command, with a client-chosen command_id (resend it unchanged)",
    Chat: "Table talk from a seated player, outside the rules",
    Leave: "Leave the table: the game's best bot plays on for your seat",
    Retake: "Take your seat back from the bot playing for it",
    Undo: "Take back your own last commands, up to the information horizon",
    Ping: "Keep-alive; answered by pong",
    Resync: "Ask again for every event after a version (after a gap)",
    Welcome: "Who you are and the game as you may see it",
    Update: "New events and the view after them, per viewer; the sender's carries its id",
    Accepted: "A command accepted with no update of yours carrying it (a resend)",
    Rejected: "A command or chat refused; nothing changed",
    GameOverMessage: "The result, after the final update",
    Error: "A message that could not be taken at all (fatal before the welcome)",
    Pong: "Answer to ping",
}


def _name(cls: type) -> str:
    name: str = getattr(cls, "TYPE")  # noqa: B009 - every message class declares TYPE
    return name


def _op_id(action: str, cls: type) -> str:
    return action + "".join(part.capitalize() for part in _name(cls).split("_"))


def asyncapi(server_url: str = "127.0.0.1:8000") -> dict[str, Any]:
    """The AsyncAPI 3.0.0 document; ``server_url`` is ``host:port`` of the example server."""
    classes = (*CLIENT_MESSAGES, *SERVER_MESSAGES)
    schemas = {c.__name__: class_schema(c, REF) for c in referenced(classes)}
    messages = {
        _name(c): {
            "name": _name(c),
            "title": c.__name__,
            "summary": _SUMMARY[c],
            "contentType": "application/json",
            "payload": {"$ref": REF + c.__name__},
        }
        for c in classes
    }
    channel_ref = {"$ref": "#/channels/game"}

    def msg_refs(types: tuple[type, ...]) -> list[dict[str, str]]:
        return [{"$ref": f"#/channels/game/messages/{_name(t)}"} for t in types]

    operations: dict[str, Any] = {}
    for c in CLIENT_MESSAGES:
        operations[_op_id("receive", c)] = {
            "action": "receive",
            "channel": channel_ref,
            "summary": _SUMMARY[c],
            "messages": msg_refs((c,)),
            "reply": {"channel": channel_ref, "messages": msg_refs(_REPLIES[c])},
        }
    for c in SERVER_MESSAGES:
        operations[_op_id("send", c)] = {
            "action": "send",
            "channel": channel_ref,
            "summary": _SUMMARY[c],
            "messages": msg_refs((c,)),
        }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Cloister game WebSocket",
            "version": str(PROTOCOL_VERSION),
            "description": "One WebSocket per player or spectator per game. Every frame is "
            "one JSON object whose `type` names the message; hello must come first. "
            "See docs/protocol.md; the HTTP side is the OpenAPI document at "
            "/api/openapi.json.",
            "license": {"name": "MIT"},
        },
        "defaultContentType": "application/json",
        "servers": {
            "local": {
                "host": server_url,
                "protocol": "ws",
                "description": "A `cloister serve` on its default address (wss behind TLS)",
            }
        },
        "channels": {
            "game": {
                "address": "/api/games/{game_id}/ws",
                "title": "One game",
                "description": "Everything about one game: the client's messages in, this "
                "viewer's messages out (each redacted for its audience).",
                "parameters": {"game_id": {"description": "The game's id, e.g. g-5f2c0e1a9b3d"}},
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
            }
        },
        "operations": operations,
        "components": {"messages": messages, "schemas": schemas},
    }
