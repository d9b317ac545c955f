"""High Card: a tiny game with hidden hands, a secret deck and simultaneous play.

It exists to exercise the platform (hidden information, turns, the commit→reveal primitive)
independently of the three published games, and as a two-minute demo. Rules:

* 12 cards ``hc-01`` … ``hc-12`` (value = number) are shuffled; each of the 2–4 seats is
  dealt 2.
* A round has two phases. **Draw**: in seat order each seat either ``Draw``s the top card of
  the deck (if any) or ``Pass``es. **Play**: every seat secretly commits one card from its
  hand (``PlayCard``, changeable until all have committed); then all are revealed, the
  highest card scores its value for its seat, and the played cards are discarded face up.
* After 3 rounds the highest score wins (ties share the win).

The package has the layout every game shares (``docs/kernel.md``): ``content``, ``state``,
``commands``, ``events``, ``decide``, ``evolve``, ``legal``, ``view``, ``describe``,
``glossary``, ``bots`` and ``game``.
"""

from __future__ import annotations

from .game import GAME, GAME_TYPE, HighCard

__all__ = ["GAME", "GAME_TYPE", "HighCard"]
