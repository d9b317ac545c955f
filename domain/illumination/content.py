"""Illumination content: Book layouts, tile mix, Monastery, cards and Mystic Monk constants.

Everything the rulebook leaves unprinted is a design decision of the implementation
reference (D-01 … D-45). The values live in JSON files under ``data/`` so that printed
values can replace them without code changes; this module loads them once, validates them
and precomputes the lookup tables the rules use (neighbours, tile identities).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

import attrs

__all__ = [
    "CONTENT",
    "Content",
    "ContentError",
    "Layout",
    "TileInfo",
    "load_content",
    "validate_content",
]

SIDES = ("REV", "IRR")
"""Side index 0 is Reverent, 1 is Irreverent."""


class ContentError(ValueError):
    """A data file that does not describe a playable Illumination."""


@attrs.frozen
class TileInfo:
    id: str
    side: int
    faction: str | None
    """None for a Two-Coin tile."""
    colour: str | None
    """Tile colour R/Y/S/W; None for a Two-Coin tile."""

    @property
    def is_coin(self) -> bool:
        return self.faction is None


@attrs.frozen
class Layout:
    id: str
    cells: tuple[str, ...]
    """25 cells in reading order: a Quill colour R/Y/S/W, or T for text."""
    drollery: int
    """Default Drollery cell (D-05)."""

    def is_quill(self, cell: int) -> bool:
        return self.cells[cell] != "T"


@attrs.frozen
class Content:
    size: int
    layouts: Mapping[str, Layout]
    default_arrangement: tuple[str, str, str]
    mats: tuple[tuple[str, str], ...]
    side_names: tuple[str, str]
    factions: tuple[tuple[str, ...], tuple[str, ...]]
    starting_coins: tuple[int, int]
    pairs: tuple[tuple[str, str, str], ...]
    colours: tuple[str, ...]
    rituals: tuple[str, ...]
    ritual_colour: tuple[str, ...]
    tiles: Mapping[str, TileInfo]
    tile_ids: tuple[tuple[str, ...], tuple[str, ...]]
    two_coin_value: int
    stack_height: int
    coins_per_side: int
    item_limit: int
    markers_per_side: int
    ritual_tokens_each: int
    stations: tuple[str | None, ...]
    ritual_spaces: tuple[tuple[int, int], ...]
    """(size, points) in increasing size."""
    battle_card_points: int
    crusade_points: tuple[int, ...]
    card_types: tuple[str, ...]
    cards: tuple[tuple[str, ...], tuple[str, ...]]
    card_cost: int
    starting_hand: int
    crusades: tuple[tuple[str, ...], tuple[str, ...]]
    monk_track_length: int
    monk_track_order: tuple[str, ...]
    monk_die_lines: tuple[tuple[str, int], ...]
    monk_book_points: int
    monk_gold_leaf_points: int
    monk_track_markers: int
    neighbours: tuple[tuple[int, ...], ...]

    # -- derived lookups ----------------------------------------------------------------------
    def enemy(self, faction: str) -> str:
        for _, a, b in self.pairs:
            if faction == a:
                return b
            if faction == b:
                return a
        raise KeyError(faction)

    def pair_index(self, faction: str) -> int:
        for i, (_, a, b) in enumerate(self.pairs):
            if faction in (a, b):
                return i
        raise KeyError(faction)

    def faction_side(self, faction: str) -> int:
        return 0 if faction in self.factions[0] else 1

    def ritual_of_colour(self, colour: str) -> int:
        return self.ritual_colour.index(colour)

    def ritual_station(self, ritual: int) -> int:
        return self.stations.index(self.rituals[ritual])

    def station_distance(self, a: int, b: int) -> int:
        n = len(self.stations)
        d = abs(a - b) % n
        return min(d, n - d)


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise ContentError(message)


def validate_content(
    layouts_raw: Mapping[str, Any], components_raw: Mapping[str, Any], monk_raw: Mapping[str, Any]
) -> Content:
    """Build the content from the three parsed data files; raise ContentError if unplayable."""
    try:
        return _build(layouts_raw, components_raw, monk_raw)
    except ContentError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ContentError(f"malformed Illumination data: {exc!r}") from None


def _build(lr: Mapping[str, Any], cr: Mapping[str, Any], mr: Mapping[str, Any]) -> Content:
    size = int(lr["size"])
    _require(size == 5, "Book grids are 5x5")
    colours = tuple(str(c) for c in cr["colours"])
    _require(sorted(colours) == ["R", "S", "W", "Y"], "tile colours must be R, Y, S, W")
    layouts: dict[str, Layout] = {}
    for lid, spec in lr["layouts"].items():
        rows = [str(r) for r in spec["rows"]]
        _require(len(rows) == size, f"layout {lid} must have {size} rows")
        _require(all(len(r) == size for r in rows), f"layout {lid} rows must have {size} cells")
        cells = tuple("".join(rows))
        _require(
            all(c in colours or c == "T" for c in cells),
            f"layout {lid} has a cell that is neither a Quill colour nor text",
        )
        quills = sum(1 for c in cells if c != "T")
        _require(quills > 0, f"layout {lid} has no Quill")
        r, c = (int(x) for x in spec["drollery"])
        _require(0 <= r < size and 0 <= c < size, f"layout {lid} Drollery is off the Book")
        _require(cells[r * size + c] == "T", f"layout {lid} Drollery must be on a text space")
        layouts[str(lid)] = Layout(str(lid), cells, r * size + c)
    arrangement = tuple(str(x) for x in lr["default_arrangement"])
    _require(len(arrangement) == 3, "three Books are arranged")
    _require(all(a in layouts for a in arrangement), "default arrangement names unknown layouts")
    mats = tuple((str(a), str(b)) for a, b in lr["mats"])
    _require(len(mats) == 3, "there are three Book mats")
    _require(all(a in layouts and b in layouts for a, b in mats), "mats name unknown layouts")

    sides = cr["sides"]
    factions = (tuple(sides["REV"]["factions"]), tuple(sides["IRR"]["factions"]))
    _require(all(len(f) == 4 for f in factions), "each side has four factions")
    _require(not set(factions[0]) & set(factions[1]), "a faction belongs to one side")
    pairs = tuple((str(p[0]), str(p[1]), str(p[2])) for p in cr["pairs"])
    _require(len(pairs) == 4, "there are four Battle cards")
    for _, a, b in pairs:
        _require(a in factions[0] and b in factions[1], f"pair {a}/{b} must oppose REV to IRR")
    _require(
        sorted(p[1] for p in pairs) == sorted(factions[0])
        and sorted(p[2] for p in pairs) == sorted(factions[1]),
        "every faction is in exactly one pair",
    )
    rituals = tuple(str(r[0]) for r in cr["rituals"])
    ritual_colour = tuple(str(r[1]) for r in cr["rituals"])
    _require(sorted(ritual_colour) == sorted(colours), "every colour names one ritual")
    per = int(cr["tiles_per_faction_colour"])
    coins = int(cr["two_coin_tiles_per_side"])
    tiles: dict[str, TileInfo] = {}
    ids: list[tuple[str, ...]] = []
    for side, key in enumerate(SIDES):
        prefix = str(sides[key]["tile_prefix"])
        mine: list[str] = []
        n = 0
        # Tile n = f*8 + k*2 + copy + 1 (reference §2.1), colour order R, Y, S, W.
        for faction in factions[side]:
            for colour in colours:
                for _ in range(per):
                    n += 1
                    tid = f"{prefix}{n:02d}"
                    tiles[tid] = TileInfo(tid, side, faction, colour)
                    mine.append(tid)
        for _ in range(coins):
            n += 1
            tid = f"{prefix}{n:02d}"
            tiles[tid] = TileInfo(tid, side, None, None)
            mine.append(tid)
        ids.append(tuple(mine))
    stack_height = int(cr["stack_height"])
    _require(len(ids[0]) % stack_height == 0, "tiles must split into whole stacks")
    _require(len(ids[0]) // stack_height >= 3, "at least three stacks fill the archways")
    stations = tuple(None if s is None else str(s) for s in cr["stations"])
    for name in rituals:
        _require(stations.count(name) == 1, f"ritual {name} needs exactly one station")
    _require(any(s is None for s in stations), "the Abbot needs a blank station to start on")
    spaces = tuple((int(a), int(b)) for a, b in cr["ritual_spaces"])
    _require(len(spaces) == 3 and [s for s, _ in spaces] == [3, 4, 5], "sets are 3, 4 and 5")
    crusade_points = tuple(int(x) for x in cr["crusade_points"])
    _require(len(crusade_points) == 5 and crusade_points[0] == 0, "crusade table has 0..4+")
    card_types = tuple(str(c) for c in cr["card_types"])
    _require(
        sorted(card_types)
        == sorted(["MOTUS", "MUTATIO", "EXILIUM", "PORTICUS", "SCRIPTUM", "RITUS"]),
        "the six Scriptorium cards are Motus, Mutatio, Exilium, Porticus, Scriptum, Ritus",
    )
    copies = int(cr["card_copies"])
    cards = tuple(
        tuple(f"{key[0]}-{t}-{i + 1}" for t in card_types for i in range(copies)) for key in SIDES
    )
    crusade_raw = cr["crusades"]
    crusade_lists: list[tuple[str, ...]] = []
    for side, key in enumerate(SIDES):
        named = tuple(str(f) for f in crusade_raw[key])
        _require(len(named) >= 1, f"{key} needs Crusade cards")
        # D-09: a Crusade names an opponent faction (you never defeat your own tiles).
        _require(
            all(f in factions[1 - side] for f in named),
            f"{key} Crusade cards must name opponent factions",
        )
        crusade_lists.append(tuple(f"CR-{key}-{f.upper()}" for f in named))
    crusades = (crusade_lists[0], crusade_lists[1])
    order = tuple(str(x) for x in mr["track_order"])
    _require(sorted(order) == sorted(rituals), "Mystic Monk tracks name the four rituals")
    die_lines = tuple((str(k), int(i)) for k, i in mr["die_lines"])
    _require(len(die_lines) == 6, "the die has six faces")
    _require(
        all(k in ("row", "col") and 1 <= i <= 3 for k, i in die_lines), "die lines are rows/cols"
    )
    track_length = int(mr["track_length"])
    _require(track_length >= 1, "Mystic Monk tracks need at least one space")
    neighbours = tuple(
        tuple(
            (r + dr) * size + (c + dc)
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
            if 0 <= r + dr < size and 0 <= c + dc < size
        )
        for r in range(size)
        for c in range(size)
    )
    return Content(
        size=size,
        layouts=layouts,
        default_arrangement=(arrangement[0], arrangement[1], arrangement[2]),
        mats=mats,
        side_names=(str(sides["REV"]["name"]), str(sides["IRR"]["name"])),
        factions=factions,
        starting_coins=(int(sides["REV"]["starting_coins"]), int(sides["IRR"]["starting_coins"])),
        pairs=pairs,
        colours=colours,
        rituals=rituals,
        ritual_colour=ritual_colour,
        tiles=tiles,
        tile_ids=(ids[0], ids[1]),
        two_coin_value=int(cr["two_coin_value"]),
        stack_height=stack_height,
        coins_per_side=int(cr["coins_per_side"]),
        item_limit=int(cr["item_limit"]),
        markers_per_side=int(cr["markers_per_side"]),
        ritual_tokens_each=int(cr["ritual_tokens_each"]),
        stations=stations,
        ritual_spaces=spaces,
        battle_card_points=int(cr["battle_card_points"]),
        crusade_points=crusade_points,
        card_types=card_types,
        cards=(cards[0], cards[1]),
        card_cost=int(cr["card_cost"]),
        starting_hand=int(cr["starting_hand"]),
        crusades=crusades,
        monk_track_length=track_length,
        monk_track_order=order,
        monk_die_lines=die_lines,
        monk_book_points=int(mr["book_completion_points"]),
        monk_gold_leaf_points=int(mr["gold_leaf_points"]),
        monk_track_markers=int(mr["markers_on_tracks"]),
        neighbours=neighbours,
    )


def _read(name: str) -> Any:
    text = resources.files("domain.illumination").joinpath("data", name).read_text("utf-8")
    return json.loads(text)


def load_content() -> Content:
    return validate_content(_read("layouts.json"), _read("components.json"), _read("monk.json"))


CONTENT = load_content()
