"""In-process store: for unit tests and single-process experiments, same contract."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence

from .base import AppendResult, NewEvent, StoredEvent

__all__ = ["MemoryStore"]


class MemoryStore:
    def __init__(self) -> None:
        self._streams: dict[str, list[StoredEvent]] = {}
        self._cmds: dict[str, dict[str, tuple[int, str]]] = {}
        self._meta: dict[str, dict[str, str]] = {}
        self._order: list[str] = []
        self._bells: list[asyncio.Queue[tuple[str, int]]] = []
        self._snaps: dict[str, dict[str, str | bytes]] = {}
        self._due: dict[str, tuple[int, int | None]] = {}
        """The deadline index (``RedisStore.set_due``): game id -> (version, time; None:
        dropped at that version)."""

    async def append(
        self,
        game_id: str,
        expected: int,
        command_id: str,
        events: Sequence[NewEvent],
        meta: Mapping[str, str] | None = None,
        digest: str = "",
        head_uuid: str = "",
    ) -> AppendResult:
        cmds = self._cmds.setdefault(game_id, {})
        if command_id in cmds:
            version, first = cmds[command_id]
            if digest and first and digest != first:
                return AppendResult("reused", version)
            return AppendResult("dup", version)
        stream = self._streams.get(game_id, [])
        if len(stream) != expected:
            return AppendResult("conflict", len(stream))
        if head_uuid and expected and stream[-1].uuid != head_uuid:
            return AppendResult("diverged", expected)
        if game_id not in self._streams:
            self._streams[game_id] = stream
            self._order.append(game_id)
        for i, e in enumerate(events, start=1):
            stream.append(
                StoredEvent(expected + i, e.type, dict(e.data), e.uuid, command_id, e.schema)
            )
        self._meta.setdefault(game_id, {}).update(meta or {})
        head = expected + len(events)
        cmds[command_id] = (head, digest)
        for q in self._bells:
            q.put_nowait((game_id, head))
        return AppendResult("ok", head)

    async def command_record(self, game_id: str, command_id: str) -> tuple[int, str] | None:
        return self._cmds.get(game_id, {}).get(command_id)

    async def read(self, game_id: str, after: int = 0) -> list[StoredEvent]:
        return list(self._streams.get(game_id, [])[after:])

    async def get_snapshot(self, game_id: str) -> dict[str, str | bytes] | None:
        snap = self._snaps.get(game_id)
        return dict(snap) if snap is not None else None

    async def put_snapshot(self, game_id: str, fields: Mapping[str, str | bytes]) -> None:
        self._snaps[game_id] = dict(fields)

    async def head(self, game_id: str) -> int:
        return len(self._streams.get(game_id, []))

    async def get_meta(self, game_id: str, field: str) -> str | None:
        return self._meta.get(game_id, {}).get(field)

    async def get_meta_many(self, game_id: str, fields: Sequence[str]) -> list[str | None]:
        meta = self._meta.get(game_id, {})
        return [meta.get(f) for f in fields]

    async def set_meta(self, game_id: str, field: str, value: str) -> None:
        """Set one meta field outside an append (presence: ``server.clocks``)."""
        self._meta.setdefault(game_id, {})[field] = value

    async def set_due(self, items: Sequence[tuple[str, int, int | None]]) -> None:
        for gid, version, at in items:
            have = self._due.get(gid)
            if have is not None and have[0] > version:
                continue
            self._due[gid] = (version, at)

    async def due_games(self, now: int, limit: int) -> list[str]:
        due = sorted(
            (at, gid) for gid, (_, at) in self._due.items() if at is not None and at <= now
        )
        return [gid for _, gid in due[:limit]]

    async def index_gaps(self, game_ids: Sequence[str]) -> list[tuple[str, int, str]]:
        """As ``RedisStore.index_gaps``."""
        gaps = []
        for gid in game_ids:
            stream = self._streams.get(gid)
            have = self._due.get(gid)
            if not stream or (have is not None and have[1] is not None):
                continue
            if have is None or have[0] < len(stream):
                gaps.append((gid, len(stream), stream[-1].type))
        return gaps

    async def game_ids(self) -> list[str]:
        return list(reversed(self._order))

    def watch(self, game_id: str) -> None:
        pass  # one process: every append rings

    def unwatch(self, game_id: str) -> None:
        pass

    async def doorbells(self) -> AsyncIterator[tuple[str, int]]:
        q: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self._bells.append(q)
        try:
            while True:
                yield await q.get()
        finally:
            self._bells.remove(q)

    async def close(self) -> None:
        pass
