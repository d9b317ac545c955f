"""The printed components as data: plan, buildings, sections, cards and tables.

Everything is loaded once at import from ``data/*.json`` and validated, so a broken file fails
loudly before any game starts. Cells are ints ``y * WIDTH + x`` so that sets of cells are
bitmasks and placement checks are a few integer operations.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any, TypedDict

import attrs

__all__ = [
    "ACTIONS",
    "COLOURS",
    "SECTIONS",
    "SHAPES",
    "TASKS",
    "ActionCard",
    "Building",
    "ContentError",
    "Plan",
    "Section",
    "TaskCard",
    "load_content",
    "validate_content",
]

COLOURS: tuple[str, ...] = ("R", "B", "G", "Y")
COLOUR_NAMES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "W": "white"}
SHAPE_NAMES = ("D2", "I3", "L3", "O4", "T4")
AREAS = ("N", "E", "S", "W")
TOKENS = (*COLOURS, "?", "pair")


class ContentError(ValueError):
    """A data file does not describe a valid Campus Galli catalogue."""


@attrs.frozen
class Building:
    letter: str
    name: str
    area: str
    expansion_cost: tuple[str, ...]
    cells: frozenset[int]
    mask: int


@attrs.frozen
class Plan:
    width: int
    height: int
    terrain: tuple[str, ...]
    """One char per cell: '.' grass, 'T' tree, a letter = building cell."""
    symbols: dict[int, str]
    buildings: dict[str, Building]
    tree_mask: int
    building_of: dict[int, str]
    tower: frozenset[int]
    start_construction: dict[int, tuple[str, ...]]


@attrs.frozen
class Section:
    id: str
    colour: str
    shape: str
    origin: str  # "hut" | "bag"
    joker: bool


@attrs.frozen
class ActionCard:
    id: str
    level: int  # 0 = angel
    kind: str  # red | blue | double | angel | book | guest | unfinished
    number: int
    large: int
    colours: tuple[str, ...]
    shapes: tuple[str, ...]
    cost: tuple[str, ...]
    grand: bool = False
    book_tile: str = ""
    monastery_plan: bool = False
    name: str = ""
    guest_building: str = ""
    guest_rewards: tuple[str, ...] = ()


@attrs.frozen
class TaskCard:
    id: str
    level: int
    kind: str
    seals: int
    half_seals: int
    border: str  # normal | brown | event | special
    building: str = ""
    buildings: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    a: tuple[str, ...] = ()
    b: tuple[str, ...] = ()
    shape: str = ""
    shapes: tuple[str, ...] = ()
    area: str = ""
    areas: tuple[str, ...] = ()
    cost: tuple[str, ...] = ()
    cells: frozenset[int] = frozenset()
    name: str = ""

    def flips(self) -> tuple[str, ...]:
        """Buildings turned to their construction side when this card is revealed."""
        if self.kind in ("progress", "letter_shape", "expansion"):
            return (self.building,)
        if self.kind in ("direction", "connection"):
            return self.buildings
        return ()


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise ContentError(message)


def _load_json(name: str) -> Any:
    text = resources.files("domain.campus_galli").joinpath("data", name).read_text("utf-8")
    return json.loads(text)


def _plan(raw: Mapping[str, Any]) -> Plan:
    width, height = int(raw["width"]), int(raw["height"])
    terrain = tuple(raw["terrain"])
    symbols_rows = tuple(raw["symbols"])
    _require(len(terrain) == height and len(symbols_rows) == height, "plan: wrong row count")
    letters = {b["letter"] for b in raw["buildings"]}
    _require(len(letters) == 11, "plan: there must be 11 monastery buildings")
    symbols: dict[int, str] = {}
    building_of: dict[int, str] = {}
    tree_mask = 0
    for y, (row, srow) in enumerate(zip(terrain, symbols_rows, strict=True)):
        _require(len(row) == width and len(srow) == width, f"plan: row {y} has the wrong width")
        for x, (t, s) in enumerate(zip(row, srow, strict=True)):
            cell = y * width + x
            if t == "T":
                tree_mask |= 1 << cell
                _require(s == "T", f"plan: symbol grid disagrees on the tree at ({x},{y})")
            elif t == ".":
                _require(s == ".", f"plan: a symbol on grass at ({x},{y})")
            else:
                _require(t in letters, f"plan: unknown building {t!r} at ({x},{y})")
                building_of[cell] = t
                if s in "rygb":
                    symbols[cell] = s.upper()
                else:
                    _require(s == "+", f"plan: bad symbol {s!r} at ({x},{y})")
    buildings: dict[str, Building] = {}
    for b in raw["buildings"]:
        cells = frozenset(c for c, letter in building_of.items() if letter == b["letter"])
        _require(bool(cells), f"plan: building {b['letter']} has no cells")
        _require(b["area"] in AREAS, f"plan: building {b['letter']} has a bad area")
        cost = tuple(b["expansion_cost"])
        _require(all(c in COLOURS for c in cost), f"plan: bad expansion cost of {b['letter']}")
        _require(b["letter"] == "A" or len(cost) == 3, f"plan: {b['letter']} must cost 3 tiles")
        mask = 0
        for c in cells:
            mask |= 1 << c
        buildings[b["letter"]] = Building(b["letter"], b["name"], b["area"], cost, cells, mask)
    tower = frozenset(y * width + x for x, y in raw["north_tower"])
    _require(all(building_of.get(c) == "A" for c in tower), "plan: the north tower is not in A")
    start = {int(k): tuple(v) for k, v in raw["start_construction"].items()}
    _require(set(start) == {1, 2, 3}, "plan: start sides for levels 1-3 are required")
    return Plan(width, height, terrain, symbols, buildings, tree_mask, building_of, tower, start)


def _sections(
    raw: Mapping[str, Any],
) -> tuple[dict[str, tuple[tuple[int, int], ...]], dict[str, Section]]:
    shapes = {k: tuple((int(x), int(y)) for x, y in v) for k, v in raw["shapes"].items()}
    _require(tuple(sorted(shapes)) == SHAPE_NAMES, "sections: the five shapes are required")
    sections: dict[str, Section] = {}
    for s in raw["sections"]:
        sec = Section(s["id"], s["colour"], s["shape"], s["origin"], bool(s["joker"]))
        _require(sec.id not in sections, f"sections: duplicate id {sec.id}")
        _require(sec.shape in shapes, f"sections: {sec.id} has an unknown shape")
        _require(sec.colour in (*COLOURS, "W"), f"sections: {sec.id} has a bad colour")
        _require(sec.origin in ("hut", "bag"), f"sections: {sec.id} has a bad origin")
        _require(sec.joker == (sec.colour == "W"), f"sections: {sec.id} joker flag")
        sections[sec.id] = sec
    coloured = [s for s in sections.values() if not s.joker]
    _require(len(coloured) == 40, "sections: there must be 40 coloured sections")
    for c in COLOURS:
        _require(sum(s.colour == c for s in coloured) == 10, f"sections: 10 of colour {c}")
    _require(
        sum(s.origin == "bag" and not s.joker for s in coloured) == 20, "sections: 20 in the bag"
    )
    _require(sum(s.joker for s in sections.values()) == 5, "sections: 5 jokers")
    return shapes, sections


def _actions(raw: Mapping[str, Any]) -> dict[str, ActionCard]:
    out: dict[str, ActionCard] = {}
    numbers: set[int] = set()
    for c in raw["cards"]:
        card = ActionCard(
            id=c["id"],
            level=int(c["level"]),
            kind=c["kind"],
            number=int(c["number"]),
            large=int(c.get("large", 0)),
            colours=tuple(c.get("colours", ())),
            shapes=tuple(c.get("shapes", ())),
            cost=tuple(c.get("cost", ())),
            grand=bool(c.get("grand", False)),
            book_tile=c.get("book_tile", ""),
            monastery_plan=bool(c.get("monastery_plan", False)),
            name=c.get("name", ""),
            guest_building=c.get("guest_building", ""),
            guest_rewards=tuple(c.get("guest_rewards", ())),
        )
        _require(card.id not in out, f"actions: duplicate id {card.id}")
        _require(
            card.kind in ("red", "blue", "double", "angel", "book", "guest", "unfinished"),
            f"actions: {card.id} has an unknown kind",
        )
        for n in (card.number, card.large):
            if n:
                _require(n not in numbers, f"actions: turn number {n} is used twice")
                numbers.add(n)
        _require(all(t in TOKENS for t in card.cost), f"actions: {card.id} has a bad cost")
        _require(all(s in SHAPE_NAMES for s in card.shapes), f"actions: {card.id} bad shape")
        if card.kind == "double":
            _require(card.large > card.number and len(card.shapes) == 1, f"actions: {card.id}")
        if card.kind == "book":
            _require(card.book_tile in (*COLOURS, "?"), f"actions: {card.id} book tile")
        if card.kind == "guest":
            _require(bool(card.guest_building), f"actions: {card.id} needs a building")
        out[card.id] = card
    counts = {lvl: sum(c.level == lvl for c in out.values()) for lvl in (0, 1, 2, 3)}
    _require(counts[1] == 48 and counts[0] == 4, "actions: 48 level-I cards and 4 angels")
    return out


_TASK_KINDS = {
    "progress", "colour_combo", "shape_combo", "direction", "letter_shape", "dues", "feast",
    "study", "long_hours", "alms", "complete", "new_book", "new_person", "all_together",
    "tile_task", "fire", "epidemic", "collapse", "storm", "halt", "new_arrivals", "expansion",
    "connection", "reconstruction",
}  # fmt: skip


def _tasks(raw: Mapping[str, Any], plan: Plan) -> dict[str, TaskCard]:
    out: dict[str, TaskCard] = {}
    for t in raw["tasks"]:
        card = TaskCard(
            id=t["id"],
            level=int(t["id"][1]),
            kind=t["kind"],
            seals=int(t.get("seals", 0)),
            half_seals=int(t.get("half_seals", 0)),
            border=t.get("border", "normal"),
            building=t.get("building", ""),
            buildings=tuple(t.get("buildings", ())),
            colours=tuple(t.get("colours", ())),
            a=tuple(t.get("a", ())),
            b=tuple(t.get("b", ())),
            shape=t.get("shape", ""),
            shapes=tuple(t.get("shapes", ())),
            area=t.get("area", ""),
            areas=tuple(t.get("areas", ())),
            cost=tuple(t.get("cost", ())),
            cells=frozenset(y * plan.width + x for x, y in t.get("cells", ())),
            name=t.get("name", ""),
        )
        _require(card.id not in out, f"tasks: duplicate id {card.id}")
        _require(card.kind in _TASK_KINDS, f"tasks: {card.id} has an unknown kind {card.kind!r}")
        _require(card.border in ("normal", "brown", "event", "special"), f"tasks: {card.id}")
        for letter in (card.building, *card.buildings):
            _require(letter == "" or letter in plan.buildings, f"tasks: {card.id} building")
        _require(all(t in TOKENS for t in card.cost), f"tasks: {card.id} has a bad cost")
        out[card.id] = card
    counts = [sum(c.level == lvl for c in out.values()) for lvl in (1, 2, 3)]
    _require(counts == [36, 32, 32], f"tasks: expected 36/32/32 cards per level, got {counts}")
    return out


PigmentRow = tuple[int, str, str, bool]
"""From this team score on: the pigment, the outcome, whether the team qualifies."""


class Tables(TypedDict):
    """The rulebook's tables, keyed by level (and number of players) as JSON strings."""

    version: str
    deal: dict[str, dict[str, list[int]]]
    """Action cards of levels I, II and III dealt to each player."""
    board_size: dict[str, list[int]]
    """Open task cards per number of players."""
    draw: dict[str, int]
    tiles_per_colour: int
    monks_per_player: int
    pigments: dict[str, list[PigmentRow]]


def _tables(raw: Mapping[str, Any]) -> Tables:
    for key in ("deal", "board_size", "draw", "pigments"):
        _require(key in raw, f"tables: missing {key}")
    pigments = {
        level: [(int(r[0]), str(r[1]), str(r[2]), bool(r[3])) for r in rows]
        for level, rows in raw["pigments"].items()
    }
    return {
        "version": str(raw["version"]),
        "deal": {
            lv: {n: [int(k) for k in d] for n, d in by_n.items()}
            for lv, by_n in raw["deal"].items()
        },
        "board_size": {lv: [int(k) for k in sizes] for lv, sizes in raw["board_size"].items()},
        "draw": {lv: int(k) for lv, k in raw["draw"].items()},
        "tiles_per_colour": int(raw["tiles_per_colour"]),
        "monks_per_player": int(raw["monks_per_player"]),
        "pigments": pigments,
    }


@attrs.frozen
class Content:
    plan: Plan
    shapes: dict[str, tuple[tuple[int, int], ...]]
    sections: dict[str, Section]
    actions: dict[str, ActionCard]
    tasks: dict[str, TaskCard]
    tables: Tables


def validate_content(raw: Mapping[str, Any]) -> Content:
    """Build the catalogue from raw JSON objects (keys plan/sections/actions/tasks/tables)."""
    try:
        plan = _plan(raw["plan"])
        shapes, sections = _sections(raw["sections"])
        actions = _actions(raw["actions"])
        tasks = _tasks(raw["tasks"], plan)
        tables = _tables(raw["tables"])
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ContentError):
            raise
        raise ContentError(f"malformed Campus Galli data: {exc!r}") from exc
    return Content(plan, shapes, sections, actions, tasks, tables)


def load_content() -> Content:
    return validate_content(
        {
            name: _load_json(f"{name}.json")
            for name in ("plan", "sections", "actions", "tasks", "tables")
        }
    )


CONTENT = load_content()
PLAN = CONTENT.plan
SHAPES = CONTENT.shapes
SECTIONS = CONTENT.sections
ACTIONS = CONTENT.actions
TASKS = CONTENT.tasks
TABLES = CONTENT.tables
