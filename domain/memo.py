"""Bounded caches for a game's hot path (Illumination's view pieces, score tallies, open
Quills and prompts): what one move of a game works out and its next move asks again.

A server plays many games at once (the benchmark: 100), and between two moves of one game
come the moves of all the others. A cache that starts afresh when full then forgets, every
few moves of each game, what that game was about to ask for again: at 100 games a cache of
1,024 entries emptied itself about every tenth move of each. :class:`Kept` keeps two
generations instead: when the young one is full it becomes the old one (the older is
dropped), and a hit in the old generation is carried into the young one. What some game
still asks for survives; what no game asked for during a whole generation goes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["REUSE_MAX", "Kept", "Reused"]

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class Kept(Generic[K, V]):
    """A dict of at most about ``2 * size`` entries that keeps the ones still asked for."""

    __slots__ = ("_old", "_size", "_young")

    def __init__(self, size: int) -> None:
        self._size = size
        self._young: dict[K, V] = {}
        self._old: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        hit = self._young.get(key)
        if hit is None:
            hit = self._old.pop(key, None)
            if hit is not None:
                self.put(key, hit)
        return hit

    def put(self, key: K, value: V) -> None:
        young = self._young
        if len(young) >= self._size:
            self._old = young
            young = self._young = {}
        young[key] = value

    def __len__(self) -> int:
        return len(self._young) + len(self._old)

    def clear(self) -> None:
        self._young.clear()
        self._old.clear()


REUSE_MAX = 1024
"""Entries a cache of view pieces keeps per generation (``memo.Kept``; many games at once),
or, for the caches by value, before it starts afresh."""


class Reused(Generic[T]):
    """View pieces kept for the next state built from the very same parts.

    A move changes a few parts of the state (one player, one Book): ``evolve`` copies the
    others by reference, so the next state holds the same objects. A piece of the view is
    kept with the part it was made from (by identity, kept alive with it, so that no id is
    reused) and the few other values it reads (compared by value, cheap); the next state
    with the same part and inputs gets the very same piece, built once, and the hub's
    ``diff`` skips it by identity. Views are serialised, never mutated."""

    __slots__ = ("_items",)

    def __init__(self) -> None:
        self._items: Kept[int, tuple[object, tuple[object, ...], T]] = Kept(REUSE_MAX)

    def get(self, anchor: object, inputs: tuple[object, ...], make: Callable[[], T]) -> T:
        hit = self.find(anchor, inputs)
        return self.keep(anchor, inputs, make()) if hit is None else hit

    def find(self, anchor: object, inputs: tuple[object, ...]) -> T | None:
        """The piece kept for ``anchor`` made with ``inputs``, or None (make it and
        :meth:`keep` it). The hottest callers call these two rather than :meth:`get`, whose
        ``make`` is a closure made at every call, hit or miss. Pieces are never None."""
        hit = self._items.get(id(anchor))
        if hit is not None and hit[0] is anchor and hit[1] == inputs:
            return hit[2]
        return None

    def keep(self, anchor: object, inputs: tuple[object, ...], value: T) -> T:
        """Keep ``value`` as made from ``anchor`` and ``inputs`` (after :meth:`find`)."""
        self._items.put(id(anchor), (anchor, inputs, value))
        return value
