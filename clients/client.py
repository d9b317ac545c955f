"""The Python client: an asyncio core (:class:`GameClient`, :class:`Api`) and a sync facade.

:class:`Api` wraps the HTTP lobby and replay routes (``docs/api.md``). :class:`GameClient`
holds one game's WebSocket and keeps the game as this seat (or a spectator) may see it::

    async with Api("http://127.0.0.1:8000") as api:
        game = await api.create_game("high-card")
        seat, token = await api.join(game["id"], "ann")
    async with GameClient("http://127.0.0.1:8000", game["id"], token) as client:
        while client.status != "finished":
            if client.my_turn:
                reply = await client.send(client.legal[0])
            else:
                await client.next_update()

The client owns the unreliable parts of the connection:

* every command gets a ``command_id`` (uuid4 hex) that is reused when it is resent, so a
  command is applied at most once however often the connection drops;
* an update carries a delta of the view from the version it is ``base``d on; the client
  applies it to its full view (``self.view`` is always the whole view, and ``self.legal``
  the expanded legal commands) and answers any mismatch (a base that is not its version, a
  delta that does not fit, a gap in event versions) with ``resync``; an update at or below
  the known version is ignored;
* on a dropped connection it reconnects with ``hello.since`` = the last version seen,
  receives exactly the missed events, and resends the commands still waiting for a reply.

:class:`SyncGameClient` runs the same client on a private event loop thread, for scripts and
REPLs (the shape of python-chess' ``SimpleEngine``).
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import logging
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from protocol import (
    Accepted,
    Chat,
    DeltaError,
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
    ServerMessage,
    Undo,
    Update,
    Welcome,
    WireEvent,
    apply_delta,
    decode_server,
    encode,
    expand_legal,
)

__all__ = [
    "Api",
    "ApiError",
    "ClientClosed",
    "CloisterError",
    "GameClient",
    "ServerRefused",
    "ServerUnreachable",
    "SyncGameClient",
    "UndoRefused",
    "ws_url",
]

log = logging.getLogger("cloister.client")

T = TypeVar("T")
Reply = Accepted | Rejected
Listener = Callable[[ServerMessage], Any]

REFUSALS = {4400: "bad_hello", 4403: "bad_token", 4404: "game_not_found", 4408: "hello_timeout"}
"""Close codes the server uses to refuse a connection (``docs/protocol.md``)."""

MAX_WS_BYTES = 1 << 20
"""Largest frame the client accepts. Views of the board games stay well under this."""


class CloisterError(Exception):
    """Root of the client's errors."""


class UndoRefused(CloisterError):
    """The server refused an ``undo`` on the socket (``code`` ``undo_not_allowed``,
    ``spectator``, ``seat_handed``, ``bad_request``); ``message`` says why (the horizon)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ApiError(CloisterError):
    """The server answered an HTTP request with an error body (``docs/api.md``)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{code}: {message} (HTTP {status})")
        self.status = status
        self.code = code
        self.message = message


class ServerRefused(CloisterError):
    """The WebSocket was refused: an ``error`` in answer to ``hello`` (bad token, no game).

    Not retried: reconnecting with the same hello would be refused again.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ClientClosed(CloisterError):
    """The client was closed (or gave up reconnecting) while waiting."""


class ServerUnreachable(CloisterError):
    """No HTTP answer at all: nothing listens there, the name does not resolve, a timeout."""


def ws_url(base_url: str, game_id: str) -> str:
    """``http://host:port`` → ``ws://host:port/api/games/{id}/ws`` (https → wss)."""
    base = base_url.rstrip("/")
    if base.startswith("https://"):
        base = "wss://" + base[len("https://") :]
    elif base.startswith("http://"):
        base = "ws://" + base[len("http://") :]
    elif not base.startswith(("ws://", "wss://")):
        base = "ws://" + base
    return f"{base}/api/games/{game_id}/ws"


# -- HTTP -----------------------------------------------------------------------------------
def _q(segment: str) -> str:
    """A path segment, quoted: a game id never changes which route is asked."""
    return urllib.parse.quote(segment, safe="")


class Api:
    """The HTTP routes of one server. Use as ``async with Api(url) as api``.

    Every method returns the decoded JSON body or raises :class:`ApiError` with the
    server's stable error code (:class:`ServerUnreachable` when nothing answers).

    Built on the standard library (``urllib.request`` in a worker thread), not an HTTP
    package: ``pip install cloister`` with no extras must give a working ``cloister``
    command, and a command line makes a handful of requests, where one connection per
    request costs nothing worth a dependency.
    """

    def __init__(self, base_url: str, *, timeout: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        scheme = urllib.parse.urlsplit(self.base_url).scheme
        if scheme not in ("http", "https"):
            raise CloisterError(
                f"the server URL must start with http:// or https://, not {base_url!r}"
            )

    async def __aenter__(self) -> Api:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Nothing to close: every request has its own connection."""

    def _request(
        self, method: str, url: str, content: bytes | None, headers: dict[str, str]
    ) -> tuple[int, str, bytes]:
        request = urllib.request.Request(url, data=content, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as resp:
                return int(resp.status), str(resp.reason), bytes(resp.read())
        except urllib.error.HTTPError as exc:
            with exc:
                return int(exc.code), str(exc.reason), bytes(exc.read())
        except urllib.error.URLError as exc:
            reason = exc.reason
            why = reason.strerror if isinstance(reason, OSError) and reason.strerror else reason
            raise ServerUnreachable(f"cannot reach {self.base_url}: {why}") from None
        except TimeoutError:
            raise ServerUnreachable(
                f"cannot reach {self.base_url}: no answer within {self.timeout:g} s"
            ) from None
        except (OSError, http.client.HTTPException) as exc:
            raise ServerUnreachable(f"cannot reach {self.base_url}: {exc}") from None

    async def _call(
        self,
        method: str,
        path: str,
        *,
        body: dict[str, Any] | None = None,
        token: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> Any:
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        content = orjson.dumps(body) if body is not None else None
        if content is not None:
            headers["Content-Type"] = "application/json"
        url = self.base_url + path
        if params:
            url += "?" + urllib.parse.urlencode(params)
        status, reason, raw = await asyncio.to_thread(self._request, method, url, content, headers)
        try:
            data = orjson.loads(raw) if raw else None
        except orjson.JSONDecodeError:
            data = None
        if status >= 400:
            err = (data or {}).get("error", {}) if isinstance(data, dict) else {}
            text = raw[:200].decode(errors="replace").strip()
            raise ApiError(
                status,
                str(err.get("code", "http_error")),
                str(err.get("message", text or reason)),
            )
        return data

    async def health(self) -> dict[str, Any]:
        result: dict[str, Any] = await self._call("GET", "/api/health")
        return result

    async def game_types(self) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = (await self._call("GET", "/api/game-types"))["game_types"]
        return result

    async def create_game(
        self,
        type_: str,
        options: dict[str, Any] | None = None,
        seed: str | int | None = None,
        *,
        bots: list[dict[str, Any]] | None = None,
        join: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Create a game; returns its ``GameSummary`` (``["id"]`` is the game id).

        ``bots`` (``[{"seat"?, "level"?}, …]``) and ``join`` (``{"name", "seat"?}``) fill
        seats in the same request, all checked before the game exists; with ``join`` the
        reply's ``you`` holds the seat and its token.
        """
        body: dict[str, Any] = {"type": type_, "options": options or {}}
        if seed is not None:
            body["seed"] = str(seed)
        if bots:
            body["bots"] = bots
        if join is not None:
            body["join"] = join
        result: dict[str, Any] = await self._call("POST", "/api/games", body=body)
        return result

    async def play_now(
        self,
        type_: str,
        *,
        friend: bool = False,
        name: str | None = None,
        options: dict[str, Any] | None = None,
        level: str | None = None,
    ) -> dict[str, Any]:
        """A ready game (``POST /api/play``): the caller in the first seat, bots in the
        others, or with ``friend`` the second seat kept free. Returns ``{"game", "seat",
        "token", "play_url", "invite_url"}``."""
        body: dict[str, Any] = {"type": type_, "friend": friend}
        if name is not None:
            body["name"] = name
        if options:
            body["options"] = options
        if level is not None:
            body["level"] = level
        result: dict[str, Any] = await self._call("POST", "/api/play", body=body)
        return result

    async def join(self, game_id: str, name: str, seat: int | None = None) -> tuple[int, str]:
        """Take a seat; returns ``(seat, token)``. The token is shown only this once."""
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        data = await self._call("POST", f"/api/games/{_q(game_id)}/seats", body=body)
        return int(data["seat"]), str(data["token"])

    async def add_bot(
        self, game_id: str, seat: int | None = None, level: str | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {}
        if seat is not None:
            body["seat"] = seat
        if level is not None:
            body["level"] = level
        result: dict[str, Any] = await self._call(
            "POST", f"/api/games/{_q(game_id)}/bots", body=body
        )
        return result

    async def game(self, game_id: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._call("GET", f"/api/games/{_q(game_id)}")
        return result

    async def games(self, status: str | None = None) -> list[dict[str, Any]]:
        params = {"status": status} if status else None
        result: list[dict[str, Any]] = (await self._call("GET", "/api/games", params=params))[
            "games"
        ]
        return result

    async def events(
        self, game_id: str, token: str | None = None, since: int = 0
    ) -> dict[str, Any]:
        """``{"version", "audience", "events": [WireEvent…]}`` as ``token`` may see them."""
        params = {"since": since} if since else None
        result: dict[str, Any] = await self._call(
            "GET", f"/api/games/{_q(game_id)}/events", token=token, params=params
        )
        return result

    async def view_at(
        self, game_id: str, version: int | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """The view at ``version`` (default: now), for replays."""
        params = {"version": version} if version is not None else None
        result: dict[str, Any] = await self._call(
            "GET", f"/api/games/{_q(game_id)}/view", token=token, params=params
        )
        return result

    async def undo_status(self, game_id: str, token: str) -> dict[str, Any]:
        """How far the token's seat may undo now: ``{"version", "allowed", "targets",
        "reason"}`` (``GET /api/games/{id}/undo``)."""
        result: dict[str, Any] = await self._call(
            "GET", f"/api/games/{_q(game_id)}/undo", token=token
        )
        return result

    async def undo(
        self, game_id: str, token: str, to_version: int | None = None, steps: int | None = None
    ) -> dict[str, Any]:
        """Take back the seat's last command, or back to ``to_version`` (one of
        ``undo_status``'s targets). Returns ``{"version", "to_version", "commands"}``;
        raises ApiError ``undo_not_allowed`` naming the horizon."""
        body: dict[str, int] = {} if to_version is None else {"to_version": to_version}
        if steps is not None:
            body["steps"] = steps
        result: dict[str, Any] = await self._call(
            "POST", f"/api/games/{_q(game_id)}/undo", body=body, token=token
        )
        return result

    async def fork(
        self,
        game_id: str,
        version: int,
        name: str | None = None,
        seat: int | None = None,
        bots: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Fork a finished game at ``version``: a new game from that position (fresh
        randomness after it). ``name`` takes a seat (its token in ``you``); ``bots`` as in
        ``create_game`` (``[{"seat"?, "level"?}]``). Returns the new game's summary."""
        body: dict[str, Any] = {"version": version, "bots": bots or []}
        if name is not None:
            body["join"] = {"name": name} if seat is None else {"name": name, "seat": seat}
        result: dict[str, Any] = await self._call(
            "POST", f"/api/games/{_q(game_id)}/fork", body=body
        )
        return result

    async def report(
        self, game_id: str, text: str = "", token: str | None = None
    ) -> dict[str, Any]:
        """Report a problem: the game as the token's audience may see it now (a
        spectator's without one), with ``text``; nothing is stored by the server."""
        result: dict[str, Any] = await self._call(
            "POST", f"/api/games/{_q(game_id)}/report", body={"text": text}, token=token
        )
        return result

    async def import_game(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """Create a new game from a finished game's full log (``POST /api/games/import``).

        ``events`` is the exported log, ``cloister.GameCreated`` first, each event
        ``{"version", "type", "data"}``; the server re-decides it from its revealed seed
        and refuses (``import_mismatch``, naming the first mismatch) any log the rules would
        not produce. Returns the new game's summary (its seats have no tokens: an import is
        for watching and replay).
        """
        result: dict[str, Any] = await self._call(
            "POST", "/api/games/import", body={"events": events}
        )
        return result

    async def verify(self, game_id: str) -> dict[str, Any]:
        """Re-decide a finished game from its revealed seed (``GET …/verify``):
        ``{"verified", "code", "message", "version", "commands", "seed", "commitment"}``;
        ``message`` names the first mismatch when ``verified`` is false. Raises ApiError
        ``game_not_finished`` before the end (the seed is secret until then)."""
        result: dict[str, Any] = await self._call("GET", f"/api/games/{_q(game_id)}/verify")
        return result


# -- WebSocket ------------------------------------------------------------------------------
class GameClient:
    """One game over one WebSocket, kept current. Use as ``async with GameClient(...)``.

    Attributes mirror the last ``welcome``/``update``: ``version``, ``view``, ``legal``,
    ``to_act``, ``status``, ``seat`` (None for a spectator), ``result`` (after ``game_over``)
    and ``events``, every :class:`WireEvent` seen so far in version order.

    ``since`` resumes from a version already seen (e.g. saved by an earlier process): the
    welcome then carries only the events after it.
    """

    def __init__(
        self,
        base_url: str,
        game_id: str,
        token: str | None = None,
        *,
        since: int | None = None,
        reconnect: bool = True,
        max_reconnect_delay: float = 5.0,
        give_up_after: float = 60.0,
    ) -> None:
        self.base_url = base_url
        self.game_id = game_id
        self.token = token
        self.url = ws_url(base_url, game_id)
        self.reconnect = reconnect
        self.max_reconnect_delay = max_reconnect_delay
        self.give_up_after = give_up_after

        self.version: int = since or 0
        self._since = since
        self.view: Any = None
        self.legal: list[dict[str, Any]] = []
        self.to_act: list[int] = []
        self.status: str = "open"
        self.seat: int | None = None
        self.game_type: str = ""
        self.result: dict[str, Any] | None = None
        self.events: list[WireEvent] = []
        self.errors: list[Error] = []
        """``error`` messages received after the hello (malformed input, rate limit)."""
        self.connects = 0
        """How many times a welcome was received (1 + reconnects)."""
        self.table: dict[str, Any] | None = None
        """Clocks and stand-ins as last received (``docs/protocol.md``, Clocks and absent
        players); ``remaining`` there is as of ``table_at`` (``time.monotonic``)."""
        self.table_at = 0.0

        self._ws: ClientConnection | None = None
        self._pending: dict[
            str, tuple[SendCommand | Chat | Leave | Retake | Undo, asyncio.Future[Reply]]
        ] = {}
        self._listeners: list[Listener] = []
        self._queues: list[asyncio.Queue[ServerMessage | None]] = []
        self._changed = asyncio.Event()
        self._welcomed = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self._closed = False
        self._failure: BaseException | None = None
        self._resyncing = False
        self._hold: asyncio.Event | None = None
        self._nonce = 0
        self._tasks: set[asyncio.Future[Any]] = set()

    # -- lifecycle --------------------------------------------------------------------------
    async def __aenter__(self) -> GameClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self, timeout: float = 10.0) -> None:
        """Open the socket and wait for the welcome (raises :class:`ServerRefused`)."""
        if self._runner is not None:
            raise RuntimeError("GameClient.connect() was already called")
        self._runner = asyncio.create_task(self._run(), name=f"cloister-client-{self.game_id}")
        welcomed = asyncio.create_task(self._welcomed.wait())
        try:
            await asyncio.wait(
                {welcomed, self._runner}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            welcomed.cancel()
        if not self._welcomed.is_set():
            failure = self._failure
            await self.close()
            if failure is not None:
                raise failure
            raise TimeoutError(f"no welcome from {self.url} within {timeout} s")

    async def close(self) -> None:
        """Close the socket; pending sends fail with :class:`ClientClosed`."""
        self._closed = True
        if self._hold is not None:
            self._hold.set()
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._runner is not None and not self._runner.done():
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        self._finish(ClientClosed("the client is closed"))

    def _finish(self, exc: BaseException) -> None:
        for _, fut in self._pending.values():
            if not fut.done():
                fut.set_exception(exc)
        self._pending.clear()
        for q in self._queues:
            q.put_nowait(None)
        self._changed.set()

    @property
    def closed(self) -> bool:
        return self._closed or (self._runner is not None and self._runner.done())

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act and has something to do."""
        return self.seat is not None and self.seat in self.to_act and bool(self.legal)

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    # -- the connection loop ----------------------------------------------------------------
    async def _run(self) -> None:
        started = asyncio.get_running_loop().time()
        delay = 0.1
        try:
            while not self._closed:
                try:
                    await self._session()
                    delay = 0.1
                    started = asyncio.get_running_loop().time()
                except ServerRefused as exc:
                    self._failure = exc
                    raise
                except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                    log.info("connection to %s lost: %s", self.url, exc)
                    if not self.reconnect or not self._welcomed.is_set():
                        # The first connect fails fast: a wrong URL should not hang.
                        self._failure = exc
                        raise
                if self._closed or not self.reconnect:
                    return
                if self._hold is not None:
                    await self._hold.wait()
                    self._hold = None
                    continue
                if asyncio.get_running_loop().time() - started > self.give_up_after:
                    self._failure = ClientClosed(f"could not reconnect to {self.url}")
                    return
                # Jittered exponential backoff: many clients of one restarted server must
                # not all reconnect in the same millisecond.
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, self.max_reconnect_delay)
        except InvalidURI as exc:
            self._failure = exc
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError, ServerRefused):
            pass
        finally:
            if not self._closed:
                self._finish(self._failure or ClientClosed("the connection ended"))

    async def _session(self) -> None:
        async with connect(
            self.url,
            max_size=MAX_WS_BYTES,
            compression=None,  # small JSON frames: deflate costs more CPU than it saves
            open_timeout=10,
            ping_interval=20,
        ) as ws:
            self._ws = ws
            first = True
            try:
                since = self.version if self.connects else self._since
                # The server may refuse before reading hello (no such game) and close at once;
                # its error is still buffered, so read on instead of failing on this send.
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(encode(Hello(token=self.token, since=since)).decode())
                async for raw in ws:
                    message = decode_server(raw)
                    if first:
                        first = False
                        if isinstance(message, Error):
                            raise ServerRefused(message.code, message.message)
                        if not isinstance(message, Welcome):
                            raise ServerRefused("bad_welcome", f"expected welcome: {raw!r}")
                        await self._on_welcome(ws, message)
                        continue
                    await self._on_message(ws, message)
            except ConnectionClosed as exc:
                # Closed before any welcome with a refusal code: not worth a reconnect.
                rcvd = exc.rcvd
                if first and rcvd is not None and rcvd.code in REFUSALS:
                    raise ServerRefused(REFUSALS[rcvd.code], rcvd.reason) from None
                raise
            finally:
                self._ws = None
        if not self._closed:
            # A clean close by the server (e.g. 4429, too far behind) is still a drop.
            raise ConnectionClosed(None, None)

    async def _on_welcome(self, ws: ClientConnection, msg: Welcome) -> None:
        resumed = self.connects > 0 or self._since is not None
        self.connects += 1
        self.seat, self.game_type = msg.seat, msg.game_type
        if resumed and msg.events and msg.events[0].version > self.version + 1:
            # Events missing between what we had and what the welcome brings: keep our
            # version so the resync answer (every event after it) fills the gap.
            await self._ask_resync(ws)
        else:
            self._apply_events(msg.events)
            self.version = msg.version
        self._set_state(msg.view, expand_legal(msg.legal), msg.to_act, msg.status)
        self._set_table(msg.table)
        self._welcomed.set()
        self._emit(msg)
        # Resend what never got a reply, with the same command_id: if the server applied it
        # before the drop it answers "accepted, duplicate" and applies nothing.
        for command, _ in list(self._pending.values()):
            await ws.send(encode(command).decode())

    async def _on_message(self, ws: ClientConnection, msg: ServerMessage) -> None:
        match msg:
            case Update():
                if msg.version <= self.version and msg.events:
                    return  # already seen (e.g. a resync crossing a live update)
                if msg.events and msg.events[0].version > self.version + 1:
                    await self._ask_resync(ws)
                    return
                if msg.delta is None:
                    view = msg.view
                elif msg.base != self.version:
                    await self._ask_resync(ws)  # a delta from a view we do not hold
                    return
                else:
                    try:
                        view = apply_delta(self.view, msg.delta)
                    except DeltaError as exc:
                        log.warning("update %s misfits the view (%s)", msg.version, exc)
                        await self._ask_resync(ws)
                        return
                legal = self.legal if msg.legal is None else expand_legal(msg.legal)
                self._resyncing = False
                self._apply_events(msg.events)
                self.version = max(self.version, msg.version)
                self._set_state(view, legal, msg.to_act, msg.status)
                if msg.table is not None:
                    self._set_table(msg.table)
                self._emit(msg)
                if msg.command_id is not None:
                    # Our own command's update doubles as its acceptance.
                    entry = self._pending.pop(msg.command_id, None)
                    if entry is not None and not entry[1].done():
                        entry[1].set_result(Accepted(msg.command_id, msg.version, False))
            case Accepted() | Rejected():
                entry = self._pending.pop(msg.command_id, None)
                if entry is not None and not entry[1].done():
                    entry[1].set_result(msg)
                self._emit(msg)
            case GameOverMessage():
                self.result = msg.result
                self.status = "finished"
                self._emit(msg)
            case Error():
                self.errors.append(msg)
                self._emit(msg)
            case Pong():
                self._emit(msg)
            case _:
                self._emit(msg)

    async def _ask_resync(self, ws: ClientConnection) -> None:
        if not self._resyncing:
            self._resyncing = True
            await ws.send(encode(Resync(since=self.version)).decode())

    def _apply_events(self, events: list[WireEvent]) -> None:
        for e in events:
            if e.version > (self.events[-1].version if self.events else self.version):
                self.events.append(e)

    def _set_state(
        self, view: Any, legal: list[dict[str, Any]], to_act: list[int], status: str
    ) -> None:
        self.view, self.legal, self.to_act = view, legal, to_act
        if self.status != "finished":
            self.status = status

    def _set_table(self, table: dict[str, Any] | None) -> None:
        self.table, self.table_at = table, time.monotonic()

    def clock(self, seat: int) -> float | None:
        """Seconds left on ``seat``'s clock now (counting down locally), or None when the
        game has no clock."""
        table = self.table
        if table is None or table.get("clock", "none") == "none":
            return None
        item = table["seats"][seat]
        left = float(item.get("remaining", 0)) / 1000
        if item.get("running"):
            left -= time.monotonic() - self.table_at
        return max(0.0, left)

    def stand_in(self, seat: int | None = None) -> str | None:
        """The level of the bot playing for ``seat`` (default: mine), or None."""
        seat = self.seat if seat is None else seat
        if self.table is None or seat is None:
            return None
        bot: str | None = self.table["seats"][seat].get("bot")
        return bot

    def _emit(self, msg: ServerMessage) -> None:
        self._changed.set()
        self._changed = asyncio.Event()
        for q in self._queues:
            q.put_nowait(msg)
        for listener in list(self._listeners):
            try:
                result = listener(msg)
                if asyncio.iscoroutine(result):
                    # Keep a reference: a task nobody holds may be collected mid-run.
                    task = asyncio.ensure_future(result)
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
            except Exception:
                log.exception("listener failed on %s", type(msg).__name__)

    # -- commands ---------------------------------------------------------------------------
    async def send(
        self,
        command: dict[str, Any],
        *,
        command_id: str | None = None,
        wait_update: bool = True,
        timeout: float | None = 30.0,
        expected_version: int | None = None,
    ) -> Reply:
        """Send a game command; return the server's ``accepted`` or ``rejected``.

        ``expected_version`` (e.g. ``self.version``): apply it only if the game is still
        at that version, else it is rejected ``stale`` (another tab of this seat, or a
        clock, got there first).

        ``command`` is a ready command object, e.g. one of ``self.legal``. With
        ``wait_update`` (the default) an accepted command returns only once this client's
        view has reached the accepted version, so ``self.view`` already shows its effect.
        A drop in between is handled: the command is resent with the same ``command_id``.
        """
        if self._closed:
            raise ClientClosed("the client is closed")
        cid = command_id or uuid.uuid4().hex
        return await self._request(
            SendCommand(command_id=cid, command=command, expected_version=expected_version),
            wait_update,
            timeout,
        )

    async def chat(
        self, text: str, *, command_id: str | None = None, timeout: float | None = 30.0
    ) -> Reply:
        """Say ``text`` to the table (players and spectators); return ``accepted``/``rejected``.

        Table talk is outside the rules and never binding. It arrives for everyone as a
        ``cloister.Chat`` event in ``events`` (``data`` = ``{"seat", "text"}``).
        """
        if self._closed:
            raise ClientClosed("the client is closed")
        cid = command_id or uuid.uuid4().hex
        return await self._request(Chat(command_id=cid, text=text), True, timeout)

    async def leave(self, *, timeout: float | None = 30.0) -> Reply:
        """Leave the table: the game's best bot plays on for my seat until :meth:`retake`."""
        if self._closed:
            raise ClientClosed("the client is closed")
        return await self._request(Leave(command_id=uuid.uuid4().hex), True, timeout)

    async def retake(self, *, timeout: float | None = 30.0) -> Reply:
        """Take my seat back from the bot playing for it (after a timeout, an absence or a
        leave). Reconnecting does not do it by itself."""
        if self._closed:
            raise ClientClosed("the client is closed")
        return await self._request(Retake(command_id=uuid.uuid4().hex), True, timeout)

    async def _request(
        self,
        message: SendCommand | Chat | Leave | Retake | Undo,
        wait_update: bool,
        timeout: float | None,
    ) -> Reply:
        cid = message.command_id
        fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._pending[cid] = (message, fut)
        ws = self._ws
        if ws is not None:
            # If this send fails the reconnect resends it from _pending.
            with contextlib.suppress(ConnectionClosed):
                await ws.send(encode(message).decode())
        reply = await asyncio.wait_for(asyncio.shield(fut), timeout)
        if wait_update and isinstance(reply, Accepted):
            await self.wait_version(reply.version, timeout=timeout)
        return reply

    async def undo(
        self,
        to_version: int | None = None,
        *,
        steps: int | None = None,
        timeout: float | None = 30.0,
    ) -> dict[str, Any]:
        """Take back this seat's last command, its last ``steps``, or all of them after
        ``to_version``, with an ``undo`` on this socket; returns once the update that
        restores the position has arrived, ``{"version", "to_version", "commands"}``.
        Raises :class:`UndoRefused` (``undo_not_allowed`` names the horizon)."""
        if self._closed:
            raise ClientClosed("the client is closed")
        if self.token is None:
            raise CloisterError("a spectator has no move to take back")
        message = Undo(command_id=uuid.uuid4().hex, steps=steps, to_version=to_version)
        reply = await self._request(message, True, timeout)
        if isinstance(reply, Rejected):
            raise UndoRefused(reply.code, reply.message)
        done = next((e for e in self.events if e.version == reply.version), None)
        data = done.data if done is not None and done.type == "cloister.Undone" else {}
        return {
            "version": reply.version,
            "to_version": data.get("to_version"),
            "commands": data.get("commands", steps or 1),
        }

    async def undo_status(self) -> dict[str, Any]:
        """``Api.undo_status`` for this seat (spectators: never allowed)."""
        if self.token is None:
            return {"allowed": False, "targets": [], "reason": "spectators have no moves"}
        async with Api(self.base_url) as api:
            return await api.undo_status(self.game_id, self.token)

    async def wait_version(self, version: int, timeout: float | None = 30.0) -> None:
        """Wait until the client has seen ``version``."""
        await self.wait_for(lambda: self.version >= version, timeout=timeout)

    async def wait_for(self, predicate: Callable[[], bool], timeout: float | None = 30.0) -> None:
        """Wait until ``predicate()`` is true (checked after every message)."""

        async def loop() -> None:
            while not predicate():
                if self.closed:
                    raise self._failure or ClientClosed("the connection ended")
                await self._changed.wait()

        await asyncio.wait_for(loop(), timeout)

    async def next_update(self, timeout: float | None = None) -> None:
        """Wait for the next message of any kind."""
        if self.closed:
            raise self._failure or ClientClosed("the connection ended")
        await asyncio.wait_for(self._changed.wait(), timeout)

    async def ping(self, timeout: float = 10.0) -> float:
        """Round trip of an application ``ping`` in seconds."""
        if self._ws is None:
            raise ClientClosed("not connected")
        self._nonce += 1
        nonce = self._nonce
        got = asyncio.get_running_loop().create_future()

        def on(msg: ServerMessage) -> None:
            if isinstance(msg, Pong) and msg.nonce == nonce and not got.done():
                got.set_result(None)

        self._listeners.append(on)
        try:
            t0 = asyncio.get_running_loop().time()
            await self._ws.send(encode(Ping(nonce)).decode())
            await asyncio.wait_for(got, timeout)
            return asyncio.get_running_loop().time() - t0
        finally:
            self._listeners.remove(on)

    async def send_raw(self, text: str) -> None:
        """Send a frame as is (for tests of the server's input checks)."""
        if self._ws is None:
            raise ClientClosed("not connected")
        await self._ws.send(text)

    # -- updates ----------------------------------------------------------------------------
    def on_message(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(message)`` for every server message; returns an unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def messages(self) -> AsyncIterator[ServerMessage]:
        """Every server message from now on (welcome, update, accepted, …) until closed."""
        q: asyncio.Queue[ServerMessage | None] = asyncio.Queue()
        self._queues.append(q)
        try:
            while True:
                msg = await q.get()
                if msg is None:
                    return
                yield msg
        finally:
            self._queues.remove(q)

    async def updates(self) -> AsyncIterator[Welcome | Update | GameOverMessage]:
        """Only the messages that change the game: welcome (on reconnect), update, game_over."""
        async for msg in self.messages():
            if isinstance(msg, Welcome | Update | GameOverMessage):
                yield msg

    # -- testing aids -----------------------------------------------------------------------
    async def drop(self, hold: asyncio.Event | None = None) -> None:
        """Cut the connection as a network failure would (no close handshake seen by the
        game). The client reconnects by itself, after ``hold`` is set if one is given."""
        self._hold = hold
        ws = self._ws
        if ws is not None:
            ws.transport.abort()
        # Wait until the loop has noticed, so a send() right after goes to _pending only.
        while self._ws is ws and ws is not None and not self.closed:
            await asyncio.sleep(0.005)


# -- sync facade ----------------------------------------------------------------------------
class _LoopThread:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T] | Awaitable[T], timeout: float | None = None) -> T:
        async def wrap() -> T:
            return await coro

        return asyncio.run_coroutine_threadsafe(wrap(), self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


class SyncGameClient:
    """Blocking wrapper of :class:`GameClient` (and :class:`Api`) on a private loop thread.

    ::

        with SyncGameClient("http://127.0.0.1:8000", game_id, token) as c:
            while not c.finished:
                if c.my_turn:
                    c.send(c.legal[0])
                else:
                    c.wait_update(timeout=30)
    """

    def __init__(self, base_url: str, game_id: str, token: str | None = None, **kw: Any) -> None:
        self._loop = _LoopThread()
        self._client: GameClient = self._loop.run(self._make(base_url, game_id, token, kw))

    @staticmethod
    async def _make(base_url: str, game_id: str, token: str | None, kw: Any) -> GameClient:
        client = GameClient(base_url, game_id, token, **kw)
        await client.connect()
        return client

    def __enter__(self) -> SyncGameClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._loop.loop.is_running():
            with contextlib.suppress(Exception):
                self._loop.run(self._client.close(), timeout=10)
            self._loop.stop()

    def __getattr__(self, name: str) -> Any:
        # Plain state (version, view, legal, …) is read straight from the async client;
        # it is only ever replaced whole, so a read from this thread sees a consistent value.
        if name in {
            "version", "view", "legal", "to_act", "status", "seat", "result", "events",
            "my_turn", "finished", "game_type", "errors", "connects", "game_id",
        }:  # fmt: skip
            return getattr(self._client, name)
        raise AttributeError(name)

    def send(self, command: dict[str, Any], **kw: Any) -> Reply:
        return self._loop.run(self._client.send(command, **kw))

    def chat(self, text: str, **kw: Any) -> Reply:
        return self._loop.run(self._client.chat(text, **kw))

    def leave(self, **kw: Any) -> Reply:
        return self._loop.run(self._client.leave(**kw))

    def retake(self, **kw: Any) -> Reply:
        return self._loop.run(self._client.retake(**kw))

    def wait_update(self, timeout: float | None = None) -> None:
        self._loop.run(self._client.next_update(timeout))

    def wait_for(self, predicate: Callable[[], bool], timeout: float | None = 30.0) -> None:
        self._loop.run(self._client.wait_for(predicate, timeout))
