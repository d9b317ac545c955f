"""Request bodies bounded before they are read: an ASGI middleware in front of every route.

A body is refused with ``413`` and the JSON error ``too_large`` as soon as it is known to be
over its route's limit, so no handler ever holds more than the limit in memory:

* a ``Content-Length`` over the limit is answered at once, before one byte of the body is
  read (the app is not called at all);
* a body without one (``Transfer-Encoding: chunked``), or one that lies about its length,
  is counted as it streams in: the ``receive`` that would pass the limit raises
  :class:`BodyTooLarge` instead of handing the chunk on. The endpoints answer it like any
  :class:`ServiceError`; if something else is under way the middleware answers it, as long
  as no response has started.

The rest of an over-limit body is never read: the server's flow control stops reading the
socket, and it closes the connection after the answer.

Limits are per path: ``default`` for every route, ``per_path`` for the few that take more
(the import of a whole game's log, ``Settings.max_import_bytes``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from .errors import ServiceError

__all__ = ["BodyLimit", "BodyTooLarge"]


class BodyTooLarge(ServiceError):
    """The body passed its route's limit (HTTP 413, code ``too_large``)."""

    def __init__(self, limit: int) -> None:
        super().__init__("too_large", f"the body is limited to {limit} bytes", 413)
        self.limit = limit


def _reply(limit: int) -> tuple[dict[str, Any], dict[str, Any]]:
    exc = BodyTooLarge(limit)
    body = orjson.dumps({"error": {"code": exc.code, "message": exc.message}})
    start = {
        "type": "http.response.start",
        "status": 413,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            # What is left of the body is never read: the connection cannot be reused.
            (b"connection", b"close"),
        ],
    }
    return start, {"type": "http.response.body", "body": body}


class BodyLimit:
    """ASGI middleware: HTTP request bodies at most ``default`` bytes (``per_path[path]``
    for the paths listed there)."""

    def __init__(self, app: Any, default: int, per_path: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.default = default
        self.per_path = dict(per_path or {})

    def limit_for(self, path: str) -> int:
        return self.per_path.get(path, self.default)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            for message in _reply(limit):
                await send(message)
            return
        seen = 0
        started = over = False

        async def counted_receive() -> Any:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    over = True
                    raise BodyTooLarge(limit)
            return message

        async def watched_send(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if over:  # an endpoint answered the BodyTooLarge: the rest stays unread
                    headers = [h for h in message.get("headers", ()) if h[0] != b"connection"]
                    message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except BodyTooLarge:
            if started:
                raise
            for message in _reply(limit):
                await send(message)


def _content_length(scope: Any) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server refuses a malformed one before we see it
    return None
