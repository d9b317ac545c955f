"""The one transaction builder of the kernel: a decision in progress.

``decide`` rarely emits one event: a command causes others (a refill, a battle, the end of a
round, the Mystic Monk's turn), and each later step must see the state the earlier ones
produced, exactly as a replay will. A :class:`Transaction` holds the events emitted so far
and the state they fold into; every game's rules build their decisions on it (a game may
subclass it to carry a few facts of its own, such as "this is the Mystic Monk's turn").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from .randomness import Rng

__all__ = ["Transaction"]

S = TypeVar("S")
E = TypeVar("E")


class Transaction(Generic[S, E]):
    """Events being decided, with the state they lead to.

    ``emit`` applies each event at once through the game's ``evolve`` (which never
    validates nor rolls), so ``state`` is always what folding ``events`` onto the starting
    state gives. ``rng`` is the decision's randomness (``ctx.rng``); every outcome drawn
    from it must be written into an emitted event."""

    __slots__ = ("_evolve", "events", "rng", "start", "state")

    def __init__(self, state: S, evolve: Callable[[S, E], S], rng: Rng | None = None) -> None:
        self.start = state
        self.state = state
        self.rng = rng
        self.events: list[E] = []
        self._evolve = evolve

    def emit(self, *events: E) -> None:
        """Append ``events`` in order, applying each to ``state``."""
        for event in events:
            # Fold first: an event evolve cannot apply is never left in the list.
            self.state = self._evolve(self.state, event)
            self.events.append(event)

    def extend(self, events: Iterable[E]) -> None:
        """Append every event of ``events`` (a sub-decision's), applying each."""
        self.emit(*events)

    def __len__(self) -> int:
        return len(self.events)
