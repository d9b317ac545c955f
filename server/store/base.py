"""The event store contract. Every implementation passes ``tests/store_contract.py``.

Optional, used by the game service when a store has them (the Redis store does):
``read_raw(game_id, after)`` (``read`` with unparsed payloads, see :data:`RawEvent`),
``read_columns(game_id, after)`` (the same, column by column: :class:`RawColumns`), and
``get_snapshot(game_id)`` / ``put_snapshot(game_id, fields)`` (a cache of folded state,
``server.snapshots``), and ``set_due(items)`` / ``due_games(now, limit)`` /
``index_gaps(game_ids)`` (the deadline index of running games, ``server.clocks``: without
it a game's clocks run only while some process holds the game).
"""

from __future__ import annotations

import typing
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, Literal, NamedTuple, Protocol

import attrs

__all__ = ["AppendResult", "EventStore", "NewEvent", "RawColumns", "RawEvent", "StoredEvent"]

RawEvent = tuple[int, str, int, str, str, bytes]
"""``(version, type, schema, uuid, command id, payload as JSON bytes)``."""


class RawColumns(NamedTuple):
    """Events as :data:`RawEvent` columns: event ``i`` is ``versions[i]``, ``types[i]``...

    A load behind a snapshot takes a whole prefix of the log column by column (``list``
    slices, ``map``, ``zip``: one C loop each); rows would be built only to be taken
    apart again."""

    versions: list[int]
    types: list[str]
    schemas: list[int]
    uuids: list[str]
    commands: list[str]
    payloads: list[bytes]

    @classmethod
    def from_rows(cls, rows: Sequence[RawEvent]) -> RawColumns:
        if not rows:
            return cls([], [], [], [], [], [])
        versions, types, schemas, uuids, commands, payloads = zip(*rows, strict=True)
        return cls(
            list(versions), list(types), list(schemas), list(uuids), list(commands),
            list(payloads),
        )  # fmt: skip

    def extend(self, more: RawColumns) -> None:
        self.versions.extend(more.versions)
        self.types.extend(more.types)
        self.schemas.extend(more.schemas)
        self.uuids.extend(more.uuids)
        self.commands.extend(more.commands)
        self.payloads.extend(more.payloads)

    def tail(self, start: int) -> RawColumns:
        """The events from index ``start`` on, column by column."""
        return RawColumns(
            self.versions[start:], self.types[start:], self.schemas[start:],
            self.uuids[start:], self.commands[start:], self.payloads[start:],
        )  # fmt: skip

    def rows(self, start: int = 0) -> list[RawEvent]:
        """The events from index ``start`` on, as rows."""
        if not start:
            return list(zip(*self, strict=True))
        return list(zip(*(column[start:] for column in self), strict=True))


class NewEvent(NamedTuple):
    """An event to append: its stable type name, schema version, unique id and payload.

    A named tuple, not an attrs class: every move makes a few, and a frozen attrs
    instance is set field by field through ``object.__setattr__`` (a tuple is one call)."""

    type: str
    data: Mapping[str, Any]
    uuid: str
    schema: int = 1


@attrs.frozen
class StoredEvent:
    version: int
    type: str
    data: dict[str, Any]
    uuid: str
    command_id: str
    schema: int = 1


AppendStatus = Literal["ok", "dup", "reused", "conflict", "diverged"]
APPEND_STATUSES: frozenset[str] = frozenset(typing.get_args(AppendStatus))


class AppendResult(NamedTuple):
    """``ok``: appended, ``version`` is the new head. ``dup``: this command id was appended
    before (with the same digest, or one side had none), ``version`` is the head it
    produced then. ``reused``: this command id was appended before with another digest (a
    different command under a used id); nothing was written, ``version`` is the head the
    first one produced. ``conflict``: the head was not the expected version; ``version`` is
    the actual head and nothing was written. ``diverged``: the head is the expected version
    but its event is not ``head_uuid`` (history was rewritten under the caller); nothing
    was written. (A named tuple like ``NewEvent``: one per append.)"""

    status: AppendStatus
    version: int


class EventStore(Protocol):
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
        """Append all ``events`` atomically iff the head is ``expected`` and ``command_id``
        is new. ``meta`` fields are written in the same atomic step. ``command_id`` is
        taken as given (the game service scopes a seat's ids by the seat); ``digest``
        (a hash of the command, '' for none) is kept with it, so a later append under the
        same id with another digest answers ``reused``. ``head_uuid`` (if given) is the
        uuid of the event the caller holds at ``expected``: another one there answers
        ``diverged``."""
        ...

    async def command_record(self, game_id: str, command_id: str) -> tuple[int, str] | None:
        """``(head it produced, digest)`` of an appended command id, or None."""
        ...

    async def read(self, game_id: str, after: int = 0) -> list[StoredEvent]:
        """Events with version > ``after``, in order."""
        ...

    async def head(self, game_id: str) -> int: ...

    async def get_meta(self, game_id: str, field: str) -> str | None: ...

    async def get_meta_many(self, game_id: str, fields: Sequence[str]) -> list[str | None]: ...

    async def game_ids(self) -> list[str]:
        """Every game ever created, newest first."""
        ...

    def watch(self, game_id: str) -> None:
        """Ring ``doorbells`` for this game's appends from now on (until ``unwatch``)."""
        ...

    def unwatch(self, game_id: str) -> None: ...

    def doorbells(self) -> AsyncIterator[tuple[str, int]]:
        """(game id, new head) for appends by anyone to a watched game (a store may ring for
        others too); (game id, 0) when its subscription is (re)confirmed: catch up, bells
        may have been missed. Best effort: may drop, never lies."""
        ...

    async def close(self) -> None: ...
