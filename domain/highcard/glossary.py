"""Every card's printed name and rules text, by id."""

from __future__ import annotations

from ..narration import GlossaryEntry
from .content import DECK, card_name, value

__all__ = ["glossary"]


def glossary() -> dict[str, GlossaryEntry]:
    return {
        c: GlossaryEntry(card_name(c).capitalize(), "Card", f"Worth {value(c)} if it wins a round")
        for c in DECK
    }
