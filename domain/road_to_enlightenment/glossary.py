"""Road to Enlightenment's words as data: printed names and rules text of every luminary,
nation, city and medallion, and the vocabulary the narrator and the prompts share: how one
audience reads a seat or a nation (:class:`Reader`) and the names of the zones.

``data/glossary.json`` holds the texts; this module checks them against the content (every
stat, colour, power type, nation power, chit and sea has its words) and builds the glossary
served at ``GET /api/types/road-to-enlightenment/glossary``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

import attrs

from ..narration import GlossaryEntry, Names, join_words, plural
from .content import COLORS, NEU, POWER_TYPES, STATS, Content, ContentError, Luminary, content

__all__ = ["Reader", "Words", "build_glossary", "load_words", "validate_words", "words", "zone"]


@attrs.frozen
class Words:
    raw: Mapping[str, Any]

    def stat(self, code: str) -> str:
        return str(self.raw["stats"][code])

    def colour(self, code: str) -> str:
        return str(self.raw["colours"][code])

    def track(self, code: str) -> str:
        return str(self.raw["tracks"].get(code, self.raw["stats"].get(code, code.lower())))

    def religion(self, code: str) -> str:
        return str(self.raw["religions"][code])

    def nation(self, code: str) -> str:
        """A nation by name ("France"); the Ottoman Empire and the neutral cities by theirs."""
        if code in self.raw["uncontrolled"]:
            return str(self.raw["uncontrolled"][code])
        return content().nations[code].name

    def city(self, code: str) -> str:
        return content().cities[code].name

    def card(self, card: str) -> str:
        return content().luminaries[card].name

    def cards(self, cards: Any) -> str:
        return join_words(self.card(c) for c in cards)

    def medallion(self, code: str) -> str:
        track, space = content().medallions[code]
        return f"the {self.track(track)} medallion of space {space}"

    def chit(self, code: str) -> str:
        return str(self.raw["chits"][code])

    def power(self, lum: Luminary) -> tuple[str, str]:
        """(kind, text) of a luminary's power, or ("", "No power.")."""
        p = lum.power
        if p is None:
            return "", str(self.raw["texts"]["no_power"])
        entry = self.raw["powers"][p.type]
        view = int(content().rules["reorganize_view"]) + p.n
        text = str(entry["text"]).format(
            n=p.n, track=self.track(p.track) if p.track else "", view=view
        )
        if p.cost:
            cost = join_words(f"{n} {self.stat(s)}" for s, n in p.cost)
            text = (
                f"Exhaust {cost} (from the acting stack or your hand): {text[:1].lower()}{text[1:]}"
            )
        return str(entry["kind"]), text


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise ContentError(message)


def validate_words(raw: Mapping[str, Any], c: Content | None = None) -> Words:
    """Check the glossary data against the content; raise ContentError naming a gap."""
    c = c or content()
    try:
        _require(set(raw["stats"]) == set(STATS), "glossary: a word per stat")
        _require(set(raw["colours"]) == set(COLORS), "glossary: a word per colour")
        _require(set(raw["powers"]) >= set(POWER_TYPES) | {"SETBACK"}, "glossary: power texts")
        powers = {p for n in c.nations.values() for p in n.powers}
        _require(powers <= set(raw["nation_powers"]), "glossary: a text per nation power")
        chits = {"NONE", "FINAL", *c.rules["chits"]["early"], *c.rules["chits"]["later"]}
        _require(chits <= set(raw["chits"]), "glossary: a word per event chit")
        seas = {city.sea for city in c.cities.values() if city.sea}
        _require(seas <= set(raw["seas"]), "glossary: a name per sea")
        _require(set(raw["texts"]["stat"]) == set(STATS), "glossary: a text per stat")
        words = Words(raw)
        for lum in c.luminaries.values():
            words.power(lum)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        if isinstance(exc, ContentError):
            raise
        raise ContentError(f"malformed Road to Enlightenment glossary: {exc!r}") from None
    return words


def load_words() -> Words:
    text = resources.files("domain.road_to_enlightenment").joinpath("data", "glossary.json")
    return validate_words(json.loads(text.read_text("utf-8")))


@cache
def words() -> Words:
    """The validated words, loaded once (after the content, which they are checked against)."""
    return load_words()


class Reader:
    """Seats and nations for one audience: a nation a player holds is named as that player
    ("Ann (France)"), an uncontrolled one by its name ("Russia", "the Ottoman Empire")."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.w = words()
        self.seat_of = {label: seat for seat, label in enumerate(names.labels)}

    def seat(self, seat: int) -> str:
        return self.names.seat(seat)

    def nation(self, code: str | None) -> str:
        if code is None:
            return "nobody"
        name = self.w.nation(code)
        seat = self.seat_of.get(name)
        return name if seat is None else self.names.seat(seat)

    def cards(self, cards: Sequence[str] | None, count: int, what: str = "luminary") -> str:
        if cards:
            return self.w.cards(cards)
        return plural(count, what, "luminaries" if what == "luminary" else None)


def zone(w: Words, zone: str) -> str:
    if zone.startswith("slot"):
        return f"action slot {zone[4:]}"
    if zone.startswith("row:"):
        return f"the face-up {w.colour(zone[4:])} luminaries"
    if zone.startswith("pile:"):
        return f"the {w.colour(zone[5:])} lesser deck"
    if zone.startswith("fav:"):
        return str(w.raw["pools"].get(zone, "the favorites"))
    return {
        "hand": "hand",
        "deck": "the draw deck",
        "discard": "the discard pile",
        "mat": "the nation mat",
        "aside": "the removed luminaries",
        "defense": "the defending stack",
        "box": "the box",
        "vault": "the box",
        "peek": "the reorganize view",
    }.get(zone, "the table")


def _stats(w: Words, lum: Luminary) -> str:
    return ", ".join(f"{_cap(w.stat(s))} {n}" for s, n in lum.stats.items() if n)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def build_glossary() -> dict[str, GlossaryEntry]:
    """Every luminary, nation, city, medallion and nation power by the id the view uses, and
    the stats as ``stat:<code>``."""
    c = content()
    w = words()
    raw = w.raw
    kinds, texts = raw["kinds"], raw["texts"]
    out: dict[str, GlossaryEntry] = {}
    for lum in c.luminaries.values():
        kind_key = "favorite" if lum.favorite else "lesser"
        power_kind, power_text = w.power(lum)
        power = f"{power_kind}: {power_text}" if power_kind else power_text
        text = f"{_stats(w, lum)}. {power} {texts[kind_key]}"
        kind = kinds[kind_key].format(colour=w.colour(lum.color))
        out[lum.id] = GlossaryEntry(lum.name, kind, text)
    for nid, nation in c.nations.items():
        if not nation.powers and nid == "OTT":
            out[nid] = GlossaryEntry(nation.name, kinds["uncontrolled"], texts["uncontrolled"])
            continue
        text = texts["nation"].format(
            limit=nation.treasury_limit,
            upkeep=nation.upkeep,
            army=nation.army,
            navy=nation.navy,
            colonial=texts["colonial"] if nation.colonial else "",
        )
        for p in nation.powers:
            entry = raw["nation_powers"][p]
            text += f" {entry['name']}: {entry['text']}"
        kind = kinds["nation"].format(religion=w.religion(nation.religion))
        out[nid] = GlossaryEntry(nation.name, kind, text)
    for key, entry in raw["nation_powers"].items():
        out[key] = GlossaryEntry(entry["name"], kinds["nation_power"], entry["text"])
    for city in c.cities.values():
        religion = w.religion(city.religion)
        if city.home == NEU:
            text = texts["city_neutral"].format(religion=religion)
        else:
            text = texts["city_home"].format(home=w.nation(city.home), religion=religion)
        if city.sea:
            text += texts["city_sea"].format(sea=raw["seas"][city.sea])
        if city.arcs:
            arcs = join_words(
                f"{w.nation(n)} ({d} {'die' if d == 1 else 'dice'})"
                for n, d in sorted(city.arcs.items())
            )
            text += texts["city_arcs"].format(arcs=arcs)
        out[city.id] = GlossaryEntry(city.name, kinds["city"], text)
    for code, (track, space) in c.medallions.items():
        name = f"{w.track(track).capitalize()} medallion ({space})"
        text = texts["medallion"].format(space=space, track=w.track(track))
        out[code] = GlossaryEntry(name, kinds["medallion"], text)
    for stat_code in STATS:
        name = _cap(w.stat(stat_code))
        # "stat:POL": the stat codes share letters with nations (POL is Poland).
        out[f"stat:{stat_code}"] = GlossaryEntry(name, kinds["stat"], texts["stat"][stat_code])
    return out
