"""Road to Enlightenment content: the map, nation mats, luminaries, tracks and event chits.

Everything the rulebook leaves unprinted is a design decision of the implementation reference
(§9) and lives in the JSON files under ``data/``, so printed values can replace it later. The
files are validated on load: a bad file raises :class:`ContentError` naming the fault.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

import attrs

__all__ = [
    "ANTI",
    "CATH",
    "COLORS",
    "NEU",
    "STATS",
    "VICTIM_POWERS",
    "City",
    "Content",
    "ContentError",
    "Luminary",
    "Nation",
    "Power",
    "card_stat",
    "content",
    "forbidden_color",
    "load_content",
    "power_n",
    "power_type",
    "stat",
]

CATH = "CATH"
ANTI = "ANTI"
NEU = "NEU"
STATS = ("MIL", "POL", "IDE", "SCI", "ART", "WEA", "CAT", "ANT")
COLORS = ("RED", "BLUE", "PURPLE", "PINK", "GREEN", "ORANGE")
SEAS = ("A", "M", "B")
ACTION_POWERS = ("ADVANCE", "PIETY", "TAX", "PATRON", "COLONY", "ARREST", "SETBACK")
ENHANCEMENT_POWERS = ("MIGHT", "CASUS_BELLI", "TRIUMPH", "EXPEDITION", "SCHOLAR", "RENOWN")
RESPONSE_POWERS = ("FORTIFY", "LEVY", "PARLEY")
POWER_TYPES = ACTION_POWERS + ENHANCEMENT_POWERS + RESPONSE_POWERS
NEEDS_N = (
    "ADVANCE",
    "PIETY",
    "TAX",
    "PATRON",
    "MIGHT",
    "EXPEDITION",
    "SCHOLAR",
    "RENOWN",
    "FORTIFY",
    "SETBACK",
)
NEEDS_TRACK = ("ADVANCE", "RENOWN", "SETBACK")
#: Action powers aimed at another active player (the command's ``victim``).
VICTIM_POWERS = ("ARREST", "SETBACK")


class ContentError(ValueError):
    """A content data file is malformed or inconsistent."""


@attrs.frozen
class Power:
    """One of the generic power types of §9.3, with its parameters.

    ``cost`` is the §9.3 hook "exhaust N [stat]" of an action power: the player names
    luminaries from the acting stack and/or the hand whose stats pay every entry (DD-05). No
    card of the starter set has one; SETBACK (a backward track move) is the other such hook.
    """

    type: str
    n: int = 0
    track: str | None = None
    cost: tuple[tuple[str, int], ...] = ()

    @property
    def kind(self) -> str:
        if self.type in ACTION_POWERS:
            return "ACTION"
        if self.type in ENHANCEMENT_POWERS:
            return "ENHANCEMENT"
        return "RESPONSE"


@attrs.frozen
class Luminary:
    id: str
    name: str
    color: str
    favorite: bool
    stats: Mapping[str, int]
    power: Power | None

    def stat(self, key: str) -> int:
        return self.stats.get(key, 0)


@attrs.frozen
class City:
    id: str
    name: str
    home: str
    religion: str
    sea: str | None
    arcs: Mapping[str, int]
    links: frozenset[str]


@attrs.frozen
class Nation:
    id: str
    name: str
    religion: str
    treasury_limit: int
    start_bonus_coins: int
    upkeep: int
    army: int
    navy: int
    colonial: bool
    start_sci: int
    start_art: int
    powers: tuple[str, ...]


@attrs.frozen
class Content:
    cities: Mapping[str, City]
    nations: Mapping[str, Nation]
    luminaries: Mapping[str, Luminary]
    rules: Mapping[str, Any]
    city_ids: tuple[str, ...]
    nation_ids: tuple[str, ...]

    def card(self, card_id: str) -> Luminary:
        return self.luminaries[card_id]

    def nations_for(self, players: int) -> tuple[str, ...]:
        return tuple(self.rules["nations_by_players"][str(players)])

    @property
    def track_length(self) -> int:
        return int(self.rules["tracks"]["length"])

    @property
    def medallions(self) -> dict[str, tuple[str, int]]:
        return {m: (str(t), int(s)) for m, (t, s) in self.rules["tracks"]["medallions"].items()}


def _req(cond: bool, msg: str) -> None:
    if not cond:
        raise ContentError(msg)


def _parse_power(raw: Any, where: str) -> Power | None:
    if raw is None:
        return None
    _req(isinstance(raw, dict), f"{where}: power must be an object or null")
    kind = raw.get("type")
    _req(kind in POWER_TYPES, f"{where}: unknown power type {kind!r}")
    n = raw.get("n", 0)
    track = raw.get("track")
    _req(isinstance(n, int) and n >= 0, f"{where}: power n must be a non-negative int")
    if kind in NEEDS_N:
        _req(n >= 1, f"{where}: power {kind} needs n >= 1")
    if kind in NEEDS_TRACK:
        _req(track in ("SCI", "ART"), f"{where}: power {kind} needs track SCI or ART")
    else:
        _req(track is None, f"{where}: power {kind} takes no track")
    raw_cost = raw.get("cost", {})
    _req(isinstance(raw_cost, dict), f"{where}: a power cost must be an object of stats")
    for stat_, amount in raw_cost.items():
        _req(stat_ in STATS, f"{where}: unknown stat {stat_!r} in the cost")
        _req(isinstance(amount, int) and amount >= 1, f"{where}: a cost needs amounts >= 1")
    if raw_cost:
        _req(kind in ACTION_POWERS, f"{where}: only an action power has an exhaust cost")
    cost = tuple(sorted((str(k), int(v)) for k, v in raw_cost.items()))
    return Power(str(kind), int(n), track, cost)


def validate(map_raw: Any, nations_raw: Any, lum_raw: Any, rules_raw: Any) -> Content:
    """Check raw JSON data and build the :class:`Content`. Raises :class:`ContentError`."""
    _req(isinstance(rules_raw, dict), "rules.json must be an object")
    for key in ("nations_by_players", "initial_alliances", "tracks", "chits", "hand_size"):
        _req(key in rules_raw, f"rules.json lacks {key!r}")
    _req(
        isinstance(nations_raw, dict) and isinstance(nations_raw.get("nations"), dict),
        "nations.json must have a 'nations' object",
    )
    nations: dict[str, Nation] = {}
    for nid, n in nations_raw["nations"].items():
        where = f"nation {nid}"
        _req(isinstance(n, dict), f"{where} must be an object")
        _req(n.get("religion") in (CATH, ANTI), f"{where}: religion must be CATH or ANTI")
        for k in (
            "treasury_limit",
            "start_bonus_coins",
            "upkeep",
            "army",
            "navy",
            "start_sci",
            "start_art",
        ):
            _req(isinstance(n.get(k), int) and n[k] >= 0, f"{where}: {k} must be an int >= 0")
        _req(n["treasury_limit"] % 2 == 0, f"{where}: treasury limit must be even (DD-40)")
        nations[nid] = Nation(
            nid,
            str(n.get("name", nid)),
            n["religion"],
            n["treasury_limit"],
            n["start_bonus_coins"],
            n["upkeep"],
            n["army"],
            n["navy"],
            bool(n.get("colonial")),
            n["start_sci"],
            n["start_art"],
            tuple(n.get("powers", ())),
        )
    _req(
        isinstance(map_raw, dict) and isinstance(map_raw.get("cities"), list),
        "map.json must have a 'cities' list",
    )
    cities: dict[str, City] = {}
    for c in map_raw["cities"]:
        _req(isinstance(c, dict) and isinstance(c.get("id"), str), "a city lacks an id")
        where = f"city {c['id']}"
        _req(c["id"] not in cities, f"{where} is listed twice")
        _req(c.get("home") == NEU or c.get("home") in nations, f"{where}: unknown home")
        _req(c.get("religion") in (CATH, ANTI), f"{where}: religion must be CATH or ANTI")
        _req(c.get("sea") in (None, *SEAS), f"{where}: sea must be A, M, B or null")
        arcs = c.get("arcs")
        _req(isinstance(arcs, dict), f"{where}: arcs must be an object")
        for a, d in arcs.items():
            _req(a in nations, f"{where}: arc of unknown nation {a!r}")
            _req(a != c["home"], f"{where}: a nation has no top arc on its own city")
            _req(isinstance(d, int) and 1 <= d <= 3, f"{where}: arc dice must be 1..3")
        links = c.get("links")
        _req(isinstance(links, list), f"{where}: links must be a list")
        cities[c["id"]] = City(
            c["id"],
            str(c.get("name", c["id"])),
            c["home"],
            c["religion"],
            c.get("sea"),
            dict(arcs),
            frozenset(links),
        )
    for c in cities.values():
        for other in c.links:
            _req(other in cities, f"city {c.id}: link to unknown city {other!r}")
            _req(c.id in cities[other].links, f"land link {c.id}-{other} is not symmetric")
    for nid in nations:
        if nid != "OTT":
            _req(any(c.home == nid for c in cities.values()), f"nation {nid} has no city")
    _req(
        isinstance(lum_raw, dict) and isinstance(lum_raw.get("luminaries"), list),
        "luminaries.json must have a 'luminaries' list",
    )
    lums: dict[str, Luminary] = {}
    for card in lum_raw["luminaries"]:
        _req(isinstance(card, dict) and isinstance(card.get("id"), str), "a luminary lacks an id")
        where = f"luminary {card['id']}"
        _req(card["id"] not in lums, f"{where} is listed twice")
        _req(card.get("color") in COLORS, f"{where}: unknown colour")
        stats = card.get("stats")
        _req(isinstance(stats, dict), f"{where}: stats must be an object")
        for k, v in stats.items():
            _req(k in STATS, f"{where}: unknown stat {k!r}")
            _req(isinstance(v, int) and v >= 0, f"{where}: stat {k} must be an int >= 0")
        _req(not (stats.get("CAT") and stats.get("ANT")), f"{where}: both CAT and ANT")
        if card["color"] == "PURPLE":
            _req(stats.get("CAT", 0) > 0, f"{where}: a purple card needs CAT")
        if card["color"] == "PINK":
            _req(stats.get("ANT", 0) > 0, f"{where}: a pink card needs ANT")
        lums[card["id"]] = Luminary(
            card["id"],
            str(card.get("name", card["id"])),
            card["color"],
            bool(card.get("favorite")),
            dict(stats),
            _parse_power(card.get("power"), where),
        )
    for color in COLORS:
        favs = [x for x in lums.values() if x.color == color and x.favorite]
        _req(len(favs) >= 1, f"colour {color} has no favorite")
    for count, ns in rules_raw["nations_by_players"].items():
        _req(all(n in nations for n in ns), f"player count {count}: unknown nation")
        _req(len(ns) == int(count), f"player count {count}: needs {count} nations")
    for pair in rules_raw["initial_alliances"]:
        _req(len(pair) == 2 and all(n in nations for n in pair), f"bad alliance {pair}")
    return Content(cities, nations, lums, rules_raw, tuple(cities), tuple(nations))


def _read(name: str) -> Any:
    text = (
        resources.files("domain.road_to_enlightenment")
        .joinpath("data", name)
        .read_text(encoding="utf-8")
    )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(f"{name} is not valid JSON: {exc}") from None


def load_content() -> Content:
    return validate(
        _read("map.json"), _read("nations.json"), _read("luminaries.json"), _read("rules.json")
    )


@cache
def content() -> Content:
    """The validated content, loaded once."""
    return load_content()


# -- queries the rules, the legal list and the narrator share ---------------------------------
def card_stat(card: str, key: str) -> int:
    return content().luminaries[card].stat(key)


def stat(cards: Iterable[str], key: str) -> int:
    lums = content().luminaries
    return sum(lums[c].stat(key) for c in cards)


def forbidden_color(religion: str) -> str:
    """The lesser color a player of ``religion`` may never hold (Catholic: pink)."""
    return "PINK" if religion == CATH else "PURPLE"


def power_type(card: str | None) -> str | None:
    if card is None:
        return None
    p = content().luminaries[card].power
    return p.type if p else None


def power_n(card: str | None) -> int:
    """The ``n`` of a card's power (0 without one)."""
    if card is None:
        return 0
    p = content().luminaries[card].power
    return p.n if p else 0
