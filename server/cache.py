"""The per-process game cache, bounded by count and by (estimated) memory, least recently
used dropped first.

``GameService.games`` holds every game the process has touched as a ``GameRecord`` (state,
log, ids). Unbounded, a process serving for weeks holds every game it ever saw. This
mapping keeps at most ``max_games`` records and at most ``max_bytes`` of their estimated
size; past either bound it drops the least recently used records. A dropped game costs
nothing but a reload: the next request for it loads it from its stream (from its snapshot
where there is one), exactly as a fresh process would.

A record in use is never dropped: one with live WebSocket connections on this process, one
whose lock is held (a command being decided or appended), one with a bot move pending or a
running turn clock (``in_use``, given by the app). So a game is never held twice by one
process while anyone plays it; the cache may then stay over its bounds until those games
are let go, and the next insertion or :meth:`GameCache.trim` drops them.

The size of a record is estimated, not measured (measuring a graph of objects costs far
more than the cache saves): ``RECORD_BYTES`` plus ``EVENT_BYTES`` per event of its log,
calibrated with ``bench/memory.py`` (RSS per cached game and per cached event) and checked
with tracemalloc (the bytes a finished record frees when dropped, after ``gc.collect()``;
``tests/test_cache.py`` keeps the check). Measured per finished game, all-in: High Card (39
entries) 15 KB played in this process, 17 KB loaded from Redis (estimate 27.5 KB); the
benchmark's swap game (200 moves, 406 entries) 145 KB / 166 KB (estimate 211 KB); an
Illumination duel of greedy bots (about 510 entries) 194 KB / 217 KB (estimate 263 KB): at
most 446 bytes per entry with the record's own share, under ``EVENT_BYTES``. An RSS figure
per game is higher and noisier than this (the allocator's free lists and arenas are in it:
one reading of 300 KB for a swap game); the bound is on what the records hold. (Loaded
through the in-memory test store a record costs about 4 KB per entry: each payload there is
an ``orjson.dumps`` result, whose bytes keep orjson's 4 KiB buffer; no server uses it.) A record's
estimate is refreshed whenever it is used (its log grows only through use) and for all of
them by :meth:`GameCache.trim`, which the app calls every few seconds.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, MutableMapping
from typing import TypeVar, overload

from .games import GameRecord

__all__ = ["EVENT_BYTES", "RECORD_BYTES", "GameCache", "estimate"]

T = TypeVar("T")

RECORD_BYTES = 8 * 1024
"""A record with an empty log: its codec references, seats, state, lock, dicts."""
EVENT_BYTES = 512
"""Each event of the log: the LogEntry, its payload dict or bytes, its id and command id.
(``bench/memory.py``: a finished 39-event High Card game costs the process about 27 KB of
RSS, 8 + 39 x 0.5 KiB; by tracemalloc a finished game's record costs 370-450 bytes per
entry, base included, for High Card, the swap game and Illumination alike: see the module
docstring. A game with much bigger payloads costs more than this says.)"""


def estimate(rec: GameRecord) -> int:
    return RECORD_BYTES + EVENT_BYTES * len(rec.log)


def _never(game_id: str, rec: GameRecord) -> bool:
    return False


class GameCache(MutableMapping[str, GameRecord]):
    """A ``dict`` of game id -> record, in least-recently-used order, bounded."""

    def __init__(
        self,
        max_games: int,
        max_bytes: int,
        in_use: Callable[[str, GameRecord], bool] = _never,
    ) -> None:
        self.max_games = max_games
        self.max_bytes = max_bytes
        self.in_use = in_use
        self._recs: OrderedDict[str, GameRecord] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self.bytes = 0
        """The estimated size of the cached records."""
        self.dropped = 0
        """Records dropped to keep the bounds (for /metrics)."""

    def __getitem__(self, game_id: str) -> GameRecord:
        rec = self._recs[game_id]
        self._recs.move_to_end(game_id)
        self._resize(game_id, rec)
        return rec

    @overload
    def get(self, game_id: str, /) -> GameRecord | None: ...
    @overload
    def get(self, game_id: str, /, default: GameRecord | T) -> GameRecord | T: ...
    def get(self, game_id: str, /, default: object = None) -> object:
        """``Mapping.get``: a use, like ``self[game_id]``, one Python call shorter (every
        doorbell, one per append, asks here)."""
        rec = self._recs.get(game_id)
        if rec is None:
            return default
        self._recs.move_to_end(game_id)
        self._resize(game_id, rec)
        return rec

    def __setitem__(self, game_id: str, rec: GameRecord) -> None:
        self._recs[game_id] = rec
        self._recs.move_to_end(game_id)
        self._resize(game_id, rec)
        if len(self._recs) > self.max_games or self.bytes > self.max_bytes:
            self._drop(keep=game_id)

    def __delitem__(self, game_id: str) -> None:
        del self._recs[game_id]
        self.bytes -= self._sizes.pop(game_id)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._recs))

    def __len__(self) -> int:
        return len(self._recs)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._recs  # a look, not a use

    def peek(self, game_id: str) -> GameRecord | None:
        """The record if cached, without counting as a use."""
        return self._recs.get(game_id)

    def _resize(self, game_id: str, rec: GameRecord) -> None:
        size = estimate(rec)
        self.bytes += size - self._sizes.get(game_id, 0)
        self._sizes[game_id] = size

    def trim(self) -> int:
        """Refresh every estimate and drop what is over the bounds; returns how many."""
        for game_id, rec in self._recs.items():
            self._resize(game_id, rec)
        return self._drop()

    def _drop(self, keep: str | None = None) -> int:
        """Drop the least recently used records not in use (nor ``keep``, the one being
        inserted) until both bounds hold again, or none is left to drop."""
        count, size = len(self._recs), self.bytes
        victims = []
        for game_id, rec in self._recs.items():  # oldest use first
            if count <= self.max_games and size <= self.max_bytes:
                break
            if game_id == keep or rec.lock.locked() or self.in_use(game_id, rec):
                continue
            victims.append(game_id)
            count -= 1
            size -= self._sizes[game_id]
        for game_id in victims:
            del self[game_id]
        self.dropped += len(victims)
        return len(victims)
