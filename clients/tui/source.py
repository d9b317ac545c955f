"""Where frames come from: a live game (``play``, ``watch``) or the replay API (``replay``).

Both sources only read what the public API gives: :class:`LiveSource` the full current view
and legal commands that :class:`~clients.client.GameClient` keeps (it owns resume, resync
and resend; how updates reach it is its business), :class:`ReplaySource` the log from
``GET /events`` and the view at a version from ``GET /view?version=N``.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from protocol import Accepted, Rejected, ServerMessage, WireEvent

from ..client import Api, ApiError, GameClient
from .frame import Frame, Mode, Seat, seats_from_summary

__all__ = ["LiveSource", "ReplaySource", "Source"]

Reply = Accepted | Rejected


class LiveSource:
    """A game over its WebSocket, as a seat (``play``) or a spectator (``watch``)."""

    def __init__(self, api: Api, client: GameClient, mode: Mode) -> None:
        self.api = api
        self.client = client
        self.mode: Mode = mode
        self.seats: tuple[Seat, ...] = ()
        self._seen_status = ""

    async def start(self) -> None:
        await self.refresh_seats()

    async def refresh_seats(self) -> None:
        # On an error keep the names we had: they only label the seats.
        with contextlib.suppress(ApiError):
            self.seats = seats_from_summary(await self.api.game(self.client.game_id))

    def needs_seats(self, message: ServerMessage) -> bool:
        """A seat was taken or a bot sat down: the names beside the seats changed."""
        events: list[WireEvent] = list(getattr(message, "events", None) or [])
        changed = self.client.status != self._seen_status
        self._seen_status = self.client.status
        return changed or any(e.type.startswith("cloister.Seat") for e in events)

    def subscribe(self, listener: Callable[[ServerMessage], Any]) -> Callable[[], None]:
        return self.client.on_message(listener)

    def frame(self) -> Frame:
        c = self.client
        return Frame(
            game_id=c.game_id,
            game_type=c.game_type,
            mode=self.mode,
            version=c.version,
            view=c.view,
            legal=tuple(c.legal) if self.mode == "play" else (),
            to_act=tuple(c.to_act),
            status=c.status,
            seat=c.seat,
            seats=self.seats,
            result=c.result or _view_result(c.view),
            events=tuple(c.events),
            last_version=c.version,
        )

    async def send(self, command: dict[str, Any]) -> Reply:
        return await self.client.send(command)

    async def chat(self, text: str) -> Reply:
        return await self.client.chat(text)


class ReplaySource:
    """A game's history, one version at a time (``GET /events`` and ``GET /view``).

    Views are fetched when first shown and kept (a few hundred), so stepping back is
    instant. The log is read once; ``reload`` reads it again (a running game goes on), and
    ``refresh`` does when the game's status or version changed.
    """

    CACHE = 512

    def __init__(self, api: Api, game_id: str, token: str | None = None) -> None:
        self.api = api
        self.game_id = game_id
        self.token = token
        self.mode: Mode = "replay"
        self.events: list[WireEvent] = []
        self.last = 0
        self.audience = ""
        self.summary: dict[str, Any] = {}
        self.seats: tuple[Seat, ...] = ()
        self.version = 0
        self._views: OrderedDict[int, dict[str, Any]] = OrderedDict()

    async def start(self) -> None:
        await self.reload()

    async def reload(self) -> None:
        self.summary = await self.api.game(self.game_id)
        self.seats = seats_from_summary(self.summary)
        log = await self.api.events(self.game_id, self.token)
        self.events = [
            WireEvent(int(e["version"]), str(e["type"]), e.get("data") or {}, e.get("text", ""))
            for e in log["events"]
        ]
        self.last = int(log["version"])
        self.audience = str(log.get("audience", ""))
        self._views.clear()

    async def refresh(self) -> bool:
        """Read the game's status again (a replay opened while it ran: has it ended since?);
        if the game moved on, read its log again too. True if anything changed."""
        summary = await self.api.game(self.game_id)
        if (summary.get("status"), summary.get("version")) == (
            self.summary.get("status"),
            self.summary.get("version"),
        ):
            return False
        await self.reload()
        return True

    async def goto(self, version: int) -> Frame:
        self.version = max(0, min(version, self.last))
        if self.version not in self._views:
            self._views[self.version] = await self.api.view_at(
                self.game_id, self.version, self.token
            )
            while len(self._views) > self.CACHE:
                self._views.popitem(last=False)
        return self.frame()

    def frame(self) -> Frame:
        at = self._views.get(self.version) or {}
        finished_here = self.summary.get("status") == "finished" and self.version >= self.last
        status = "finished" if finished_here else ("open" if at.get("view") is None else "running")
        return Frame(
            game_id=self.game_id,
            game_type=str(self.summary.get("type", "")),
            mode="replay",
            version=self.version,
            view=at.get("view"),
            legal=(),
            to_act=tuple(at.get("to_act") or ()),
            status=status,
            seat=None,
            seats=self.seats,
            result=(self.summary.get("result") if finished_here else None)
            or _view_result(at.get("view")),
            events=tuple(e for e in self.events if e.version <= self.version),
            last_version=self.last,
        )


def _view_result(view: Any) -> dict[str, Any] | None:
    result = view.get("result") if isinstance(view, dict) else None
    return result if isinstance(result, dict) else None


Source = LiveSource | ReplaySource
