"""High Card's components: twelve numbered cards, and the length of a game."""

from __future__ import annotations

__all__ = ["DECK", "HAND", "ROUNDS", "card_name", "value"]

ROUNDS = 3
HAND = 2
"""Cards dealt to each seat."""
DECK: tuple[str, ...] = tuple(f"hc-{n:02d}" for n in range(1, 13))


def value(card: str) -> int:
    """What ``card`` is worth: its number (``hc-07`` is worth 7)."""
    return int(card[3:])


def card_name(card: str) -> str:
    """A card as printed: ``hc-07`` is "the 7"."""
    return f"the {value(card)}"
