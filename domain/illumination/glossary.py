"""Illumination's words as data: printed names and rules text of every component a page shows,
and the vocabulary the narrator and the prompts share (colour words, plurals, card names).

``data/glossary.json`` holds the texts (from the rulebook); this module checks them against
the content (every card type, colour, faction and pair has its words) and builds the glossary
served at ``GET /api/types/illumination/glossary``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

import attrs

from ..narration import GlossaryEntry
from .content import CONTENT, Content, ContentError

__all__ = ["WORDS", "Words", "build_glossary", "load_words", "validate_words"]


@attrs.frozen
class Words:
    colours: Mapping[str, str]
    """Tile colour letter -> "yellow"."""
    plurals: Mapping[str, str]
    """Faction -> "Knights"."""
    card_names: Mapping[str, str]
    """Scriptorium card type (``MOTUS``) -> printed name ("Motus")."""
    scoring: Mapping[str, str]
    """Final-scoring category -> its label in the rulebook's words."""
    raw: Mapping[str, Any]

    def tile(self, tile: str) -> str:
        """A tile by what is printed on it: "yellow Knight", "Two-Coin tile"."""
        info = CONTENT.tiles[tile]
        if info.faction is None or info.colour is None:
            return "Two-Coin tile"
        return f"{self.colours[info.colour]} {info.faction}"

    def card(self, card: str) -> str:
        """A Scriptorium card (``R-MOTUS-1``) or a card type (``MOTUS``): "Motus"."""
        kind = card.split("-")[1] if "-" in card else card
        return self.card_names[kind]

    def crusade(self, card: str) -> str:
        """A Crusade card (``CR-REV-DEMON``) by the faction it names: "Demons"."""
        return self.plurals[card.split("-", 2)[2].capitalize()]

    def pair(self, pair: int) -> str:
        """A Battle card: "Knights vs Dragons"."""
        _, a, b = CONTENT.pairs[pair]
        return f"{self.plurals[a]} vs {self.plurals[b]}"


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise ContentError(message)


def validate_words(raw: Mapping[str, Any], content: Content = CONTENT) -> Words:
    """Check the glossary data against the content; raise ContentError naming a gap."""
    try:
        colours = {str(k): str(v) for k, v in raw["colours"].items()}
        _require(sorted(colours) == sorted(content.colours), "glossary: a word per tile colour")
        plurals = {str(k): str(v) for k, v in raw["plurals"].items()}
        factions = {f for side in content.factions for f in side}
        _require(set(plurals) == factions, "glossary: a plural for every faction")
        cards = raw["scriptorium"]
        _require(
            sorted(cards) == sorted(content.card_types),
            "glossary: name and text for every Scriptorium card type",
        )
        for kind, entry in cards.items():
            _require(bool(entry["name"]) and bool(entry["text"]), f"glossary: {kind} is empty")
        for key in ("crusade", "tile", "two_coin", "battle_card", "ritual"):
            for field in ("kind", "name", "text"):
                _require(bool(raw[key][field]), f"glossary: {key} needs a {field}")
        for key, entry in raw["components"].items():
            for field in ("kind", "name", "text"):
                _require(bool(entry[field]), f"glossary: component {key} needs a {field}")
        scoring = {str(k): str(v) for k, v in raw["scoring"].items()}
        _require(
            set(scoring)
            == {"monastery", "battle", "books", "crusade", "sheep_pen", "monk_books", "gold_leaf"},
            "glossary: a label for each final-scoring category",
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ContentError(f"malformed Illumination glossary: {exc!r}") from None
    names = {str(k): str(v["name"]) for k, v in cards.items()}
    return Words(colours, plurals, names, scoring, raw)


def load_words() -> Words:
    text = resources.files("domain.illumination").joinpath("data", "glossary.json")
    return validate_words(json.loads(text.read_text("utf-8")))


WORDS = load_words()


def build_glossary(words: Words = WORDS, content: Content = CONTENT) -> dict[str, GlossaryEntry]:
    """Every tile, Scriptorium card (and card type), Crusade card, Battle card and Ritual,
    keyed by the id the view uses, plus the named components (``drollery``, …)."""
    raw = words.raw
    out: dict[str, GlossaryEntry] = {}
    side_name = dict(enumerate(content.side_names))
    for tile, info in content.tiles.items():
        side = side_name[info.side]
        if info.faction is None or info.colour is None:
            t = raw["two_coin"]
            out[tile] = GlossaryEntry(t["name"], t["kind"].format(side=side), t["text"])
            continue
        pair = content.pair_index(info.faction)
        fill = {
            "side": side,
            "colour": words.colours[info.colour],
            "faction": info.faction,
            "factions": words.plurals[info.faction],
            "enemies": words.plurals[content.enemy(info.faction)],
            "pair": words.pair(pair),
            "ritual": content.rituals[content.ritual_of_colour(info.colour)],
        }
        t = raw["tile"]
        out[tile] = GlossaryEntry(
            t["name"].format(**fill), t["kind"].format(**fill), t["text"].format(**fill)
        )
    note = raw["scriptorium_note"]
    for kind, entry in raw["scriptorium"].items():
        text = f"{entry['text']} {note}"
        out[kind] = GlossaryEntry(entry["name"], raw["scriptorium_kind"], text)
    for side_cards in content.cards:
        for card in side_cards:
            out[card] = out[card.split("-")[1]]
    c = raw["crusade"]
    for side_cards in content.crusades:
        for card in side_cards:
            fill = {"factions": words.crusade(card)}
            out[card] = GlossaryEntry(c["name"].format(**fill), c["kind"], c["text"].format(**fill))
    b = raw["battle_card"]
    for code, first, second in content.pairs:
        fill = {"first": words.plurals[first], "second": words.plurals[second]}
        out[code] = GlossaryEntry(b["name"].format(**fill), b["kind"], b["text"].format(**fill))
    r = raw["ritual"]
    for ritual, colour in zip(content.rituals, content.ritual_colour, strict=True):
        fill = {"ritual": ritual, "colour": words.colours[colour].capitalize()}
        out[ritual] = GlossaryEntry(r["name"].format(**fill), r["kind"], r["text"].format(**fill))
    for key, entry in raw["components"].items():
        out[key] = GlossaryEntry(entry["name"], entry["kind"], entry["text"])
    return out
