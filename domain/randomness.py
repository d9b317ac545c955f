"""The randomness context handed to ``setup`` and ``decide``.

Domain code never touches the global ``random`` module. The server creates a ``Context`` for
each decision from a secret per-game seed and the game's version, so a decision is
reproducible in tests; but replay never depends on it, because every outcome drawn here must
be written into the event that uses it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

import attrs

__all__ = ["Context", "Rng"]

T = TypeVar("T")


class Rng:
    """A small, explicit random source (a seeded ``random.Random`` underneath)."""

    __slots__ = ("_generator", "_seed")

    def __init__(self, seed: int | str | bytes) -> None:
        self._seed = seed
        self._generator: random.Random | None = None

    @property
    def _random(self) -> random.Random:
        # Seeded on first use: most decisions roll nothing, and seeding (a hash and a
        # Mersenne Twister initialisation) would otherwise be paid on every command.
        if self._generator is None:
            seed = self._seed
            if isinstance(seed, str):
                seed = seed.encode()
            if isinstance(seed, bytes):
                seed = int.from_bytes(hashlib.sha256(seed).digest()[:16], "big")
            self._generator = random.Random(seed)
        return self._generator

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included."""
        return self._random.randint(low, high)

    def die(self, sides: int = 6) -> int:
        return self._random.randint(1, sides)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self._random.randrange(len(items))]

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        out: MutableSequence[T] = list(items)
        self._random.shuffle(out)
        return tuple(out)

    def sample(self, items: Sequence[T], k: int) -> tuple[T, ...]:
        return tuple(self._random.sample(list(items), k))

    def random(self) -> float:
        return self._random.random()


@attrs.frozen
class Context:
    """What ``decide`` may use besides the state and the command: randomness only."""

    rng: Rng

    @classmethod
    def seeded(cls, seed: int | str | bytes) -> Context:
        return cls(Rng(seed))

    @classmethod
    def for_version(cls, game_seed: str, version: int) -> Context:
        """The context for the decision made at ``version`` of a game with ``game_seed``."""
        return cls(Rng(f"{game_seed}:{version}"))
