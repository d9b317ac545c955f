"""The OpenAPI 3.1 document of the HTTP API, generated from the app's own route table.

Every HTTP endpoint carries an :class:`Operation` (set by :func:`operation`): what it reads
(a ``protocol.http`` request class, query parameters, the seat token) and what it answers
(``protocol.http`` response classes per status). :func:`openapi` walks ``app.routes`` and
turns them into paths, and the attrs classes into ``components.schemas`` with
``protocol.schema.class_schema``, so the document cannot describe a route the app does not
have, or miss one it has (a route without an Operation is a programming error here).

The WebSocket is not an HTTP operation: its route is listed under ``x-websockets`` with a
pointer to the AsyncAPI document (``cloister schema --asyncapi``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import attrs
from starlette.routing import Mount, Route, WebSocketRoute

from protocol.http import ErrorReply
from protocol.schema import class_schema, referenced

__all__ = ["Operation", "Query", "openapi", "operation"]

F = TypeVar("F", bound=Callable[..., Any])
REF = "#/components/schemas/"
OPENAPI_ATTR = "__openapi__"


@attrs.frozen
class Query:
    """A query parameter."""

    name: str
    schema: Mapping[str, Any]
    description: str


@attrs.frozen
class Operation:
    """What one endpoint takes and answers, for the OpenAPI document."""

    summary: str
    responses: Mapping[int, type | str]
    """Status -> a ``protocol.http`` class, or a media type for a non-JSON body."""
    request: type | None = None
    query: Sequence[Query] = ()
    token: bool = False
    """Takes an optional ``Authorization: Bearer <seat token>`` (the audience)."""
    errors: Sequence[int] = (400,)
    """The error statuses it answers with an ``ErrorReply``, besides 404/405/413 for all
    (413: every route's body is bounded, ``server.limits``)."""
    tag: str = "games"


def operation(op: Operation) -> Callable[[F], F]:
    """Attach ``op`` to an endpoint function."""

    def mark(fn: F) -> F:
        setattr(fn, OPENAPI_ATTR, op)
        return fn

    return mark


def _json(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": dict(schema)}}


def _ref(cls: type) -> dict[str, Any]:
    return {"$ref": REF + cls.__name__}


def _operation(route: Route, method: str, op: Operation) -> dict[str, Any]:
    name = getattr(route.endpoint, "__name__", route.name)
    out: dict[str, Any] = {
        "operationId": f"{name}_{method}" if len(route.methods or ()) > 2 else name,
        "summary": op.summary,
        "tags": [op.tag],
    }
    params: list[dict[str, Any]] = [
        {"name": p, "in": "path", "required": True, "schema": {"type": "string"}}
        for p in re.findall(r"{(\w+)}", route.path)
    ]
    params += [
        {
            "name": q.name,
            "in": "query",
            "required": False,
            "schema": dict(q.schema),
            "description": q.description,
        }
        for q in op.query
    ]
    if params:
        out["parameters"] = params
    if op.token:
        out["security"] = [{}, {"seatToken": []}]
    if op.request is not None:
        out["requestBody"] = {"required": True, "content": _json(_ref(op.request))}
    responses: dict[str, Any] = {}
    for status, body in op.responses.items():
        if isinstance(body, str):
            shape = {"type": "object"} if body == "application/json" else {"type": "string"}
            content = {body: {"schema": shape}}
        else:
            content = _json(_ref(body))
        responses[str(status)] = {"description": _status_text(status), "content": content}
    for status in (*op.errors, 404, 405, 413):
        responses.setdefault(
            str(status), {"description": _status_text(status), "content": _json(_ref(ErrorReply))}
        )
    out["responses"] = responses
    return out


_STATUS = {
    200: "OK",
    201: "Created",
    400: "Bad request: a stable error code says what",
    401: "Malformed Authorization header",
    403: "The token holds no seat in this game",
    404: "No such game, type or path",
    405: "Method not allowed on this path",
    409: "Conflict with the game's state (seat taken, game started)",
    413: "Body too large",
    503: "Redis unavailable",
}


def _status_text(status: int) -> str:
    return _STATUS.get(status, "See the error code")


def _classes(routes: Sequence[Any]) -> list[type]:
    roots: list[type] = [ErrorReply]
    for route in routes:
        op = getattr(getattr(route, "endpoint", None), OPENAPI_ATTR, None)
        if op is None:
            continue
        if op.request is not None:
            roots.append(op.request)
        roots += [b for b in op.responses.values() if not isinstance(b, str)]
    return referenced(roots)


def openapi(routes: Sequence[Any], version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``routes`` (a Starlette app's ``routes``)."""
    paths: dict[str, dict[str, Any]] = {}
    websockets: dict[str, Any] = {}
    for route in routes:
        if isinstance(route, WebSocketRoute):
            websockets[route.path] = {
                "description": "The game's WebSocket: see the AsyncAPI document "
                "(`cloister schema --asyncapi`) and docs/protocol.md."
            }
            continue
        if isinstance(route, Mount):
            # The web client's static files: GET of any other path under the mount.
            paths.setdefault(route.path + "/", {})["get"] = {
                "operationId": "web_client",
                "summary": "The browser client (static files; unknown files get a JSON 404)",
                "tags": ["web"],
                "responses": {
                    "200": {"description": "OK", "content": {"text/html": {"schema": {}}}},
                    "404": {"description": "No such file", "content": _json(_ref(ErrorReply))},
                },
            }
            continue
        if not isinstance(route, Route):
            raise TypeError(f"no OpenAPI description for route {route!r}")
        op = getattr(route.endpoint, OPENAPI_ATTR, None)
        if op is None:
            raise TypeError(f"route {route.path} has no Operation (server.openapi.operation)")
        for method in sorted((route.methods or set()) - {"HEAD"}):
            paths.setdefault(route.path, {})[method.lower()] = _operation(route, method, op)
    schemas = {
        c.__name__: class_schema(c, REF, closed=getattr(c, "CLOSED", False))
        for c in _classes(routes)
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Cloister HTTP API",
            "version": version,
            "description": "Lobby, seats, logs and replays of the Cloister game server. "
            "Errors are always JSON: an ErrorReply with a stable code. See docs/api.md.",
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token from POST /api/games/{game_id}/seats: "
                    "the request is then answered as that seat sees the game.",
                }
            },
        },
        "x-websockets": websockets,
    }
