"""Campus Galli's words as data: printed names and rules text of every card, task, section and
building, and the vocabulary the narrator and the prompts share.

``data/glossary.json`` holds the texts (from the rulebook and the card data of the
implementation reference); this module checks them against the catalogue (every colour,
shape, area, card kind and task kind has its words) and builds the glossary served at
``GET /api/types/campus-galli/glossary``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

import attrs

from ..narration import GlossaryEntry, join_words, plural
from .content import ACTIONS, AREAS, COLOURS, PLAN, SECTIONS, SHAPES, TASKS, ContentError

__all__ = ["WORDS", "Words", "build_glossary", "load_words", "validate_words"]


@attrs.frozen
class Words:
    raw: Mapping[str, Any]

    # -- small words ----------------------------------------------------------------------
    def colour(self, c: str) -> str:
        return str(self.raw["colours"][c])

    def colours(self, cs: Iterable[str], last: str = "or") -> str:
        return join_words([self.colour(c) for c in cs], last)

    def shape(self, s: str) -> str:
        return str(self.raw["shapes"][s])

    def shapes(self, ss: Iterable[str], last: str = "or") -> str:
        ss = list(ss)
        if sorted(ss) == sorted(SHAPES):
            return "section of any shape"
        return join_words([self.shape(s) for s in ss], last)

    def area(self, a: str) -> str:
        return str(self.raw["areas"][a])

    def die(self, face: str) -> str:
        return str(self.raw["dice"][face])

    def tiles(self, colours: Iterable[str]) -> str:
        """Tiles by colour: "a red tile", "2 red tiles and a blue tile", "any 1 tile"."""
        counts = Counter(colours)
        parts = []
        for c in (*COLOURS, "?", "pair"):
            n = counts.get(c, 0)
            if not n:
                continue
            if c == "?":
                parts.append("any 1 tile" if n == 1 else f"any {n} tiles")
            elif c == "pair":
                pairs = f"{n} pairs of tiles, each of one colour"
                parts.append("2 tiles of one colour" if n == 1 else pairs)
            else:
                word = self.colour(c)
                parts.append(f"a {word} tile" if n == 1 else f"{n} {word} tiles")
        return join_words(parts)

    def source(self, src: str) -> str:
        return str(self.raw["sources"][src])

    # -- components -----------------------------------------------------------------------
    def section(self, section: str) -> str:
        """A building section by what it looks like: "red domino", "white joker T-piece"."""
        sec = SECTIONS[section]
        colour = "white joker" if sec.joker else self.colour(sec.colour)
        return f"{colour} {self.shape(sec.shape)}"

    def building(self, letter: str) -> str:
        """ "Church (A)": the plan prints the letter, the rulebook names the building
        (sentences say "the Church (A)")."""
        return f"{PLAN.buildings[letter].name} ({letter})"

    def card(self, card: str) -> str:
        """An action card or a task card by its printed name."""
        if card in ACTIONS:
            return self._action(card)[1]
        return self._task(card)[1]

    def seals(self, task: str) -> str:
        t = TASKS[task]
        s = self.raw["seals"]
        parts = []
        if t.seals:
            parts.append(s["whole" if t.seals == 1 else "wholes"].format(n=t.seals))
        if t.half_seals:
            parts.append(s["half"])
        return join_words(parts) if parts else ""

    # -- templates ------------------------------------------------------------------------
    def _action(self, card: str) -> tuple[str, str, str]:
        a = ACTIONS[card]
        key = a.kind
        if a.kind in ("red", "blue") and a.grand:
            key += "_grand"
        if a.kind == "book" and a.monastery_plan:
            key = "plan_book"
        t = self.raw["actions"][key]
        building = self.building(a.guest_building) if a.guest_building else ""
        reward = (
            join_words([f"a {self.colour(c)} tile" for c in a.guest_rewards], "or")
            if a.guest_rewards
            else "nothing"
        )
        if a.kind == "book":
            reward = self.tiles((a.book_tile,))
        fill = {
            "number": a.number,
            "large": a.large,
            "name": a.name,
            "colours": self.colours(a.colours),
            "shapes": self.shapes(a.shapes),
            "building": building,
            "reward": reward,
        }
        numbers = f"{a.number}/{a.large}" if a.large else str(a.number)
        text = f"{t['text'].format(**fill)} {self.raw['actions']['order'].format(numbers=numbers)}"
        return t["kind"], t["name"].format(**fill), text

    def _task(self, card: str) -> tuple[str, str, str]:
        task = TASKS[card]
        t = self.raw["tasks"][task.kind]
        buildings = [self.building(b) for b in task.buildings]
        fill = {
            "building": self.building(task.building) if task.building else "",
            "buildings": join_words(buildings),
            "a": self.colours(task.a) if task.kind != "shape_combo" else self.shapes(task.a),
            "b": self.colours(task.b) if task.kind != "shape_combo" else self.shapes(task.b),
            "colours": self.colours(task.colours, "and" if task.kind == "all_together" else "or"),
            "shape": self.shape(task.shape) if task.shape else "",
            "shapes": self.shapes(task.shapes, "then"),
            "area": self.area(task.area) if task.area else "",
            "areas": join_words([self.area(a) for a in task.areas]),
            "cost": self.tiles(task.cost),
            "name": task.name,
        }
        if task.kind == "all_together":
            fill["a"], fill["b"] = (self.colour(c) for c in task.colours)
        if task.kind == "collapse":
            fill["colours"] = join_words([self.colour(c) for c in task.colours], "then")
        if task.kind == "connection":
            fill["buildings"] = join_words(f"the {b}" for b in buildings)
        name = t["name"].format(**fill)
        text = t["text"].format(**fill)
        seals = self.seals(card)
        if seals:
            text += f" {seals[0].upper()}{seals[1:]}."
        return self.raw["task_kind"][task.border], name, text


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise ContentError(message)


def validate_words(raw: Mapping[str, Any]) -> Words:
    """Check the glossary data against the catalogue; raise ContentError naming a gap."""
    try:
        _require(set(raw["colours"]) == {*COLOURS, "W"}, "glossary: a word per colour")
        _require(set(raw["shapes"]) == set(SHAPES), "glossary: a word per shape")
        _require(set(raw["areas"]) == set(AREAS), "glossary: a word per area")
        kinds = {a.kind for a in ACTIONS.values()}
        _require(kinds <= set(raw["actions"]), "glossary: a text per action card kind")
        task_kinds = {t.kind for t in TASKS.values()}
        _require(task_kinds <= set(raw["tasks"]), "glossary: a text per task kind")
        borders = {t.border for t in TASKS.values()}
        _require(borders <= set(raw["task_kind"]), "glossary: a kind per task border")
        words = Words(raw)
        for card in (*ACTIONS, *TASKS):  # every template fills
            kind, name, text = words._action(card) if card in ACTIONS else words._task(card)
            _require(bool(kind and name and text), f"glossary: {card} has an empty entry")
            _require("{" not in name + text, f"glossary: {card} has an unfilled blank")
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        if isinstance(exc, ContentError):
            raise
        raise ContentError(f"malformed Campus Galli glossary: {exc!r}") from None
    return words


def load_words() -> Words:
    text = resources.files("domain.campus_galli").joinpath("data", "glossary.json")
    return validate_words(json.loads(text.read_text("utf-8")))


WORDS = load_words()


def build_glossary(words: Words = WORDS) -> dict[str, GlossaryEntry]:
    """Every action card, task card, building section and monastery building, by the id the
    view uses (cards and sections by id, buildings by their letter)."""
    raw = words.raw
    out: dict[str, GlossaryEntry] = {}
    for card in ACTIONS:
        kind, name, text = words._action(card)
        out[card] = GlossaryEntry(name, kind, text)
    for card in TASKS:
        kind, name, text = words._task(card)
        out[card] = GlossaryEntry(name, kind, text)
    s = raw["section"]
    for sid, sec in SECTIONS.items():
        fill = {"colour": words.colour(sec.colour), "shape": words.shape(sec.shape)}
        where = s["joker"] if sec.joker else s[sec.origin]
        text = f"{where} {s['text'].format(**fill)}"
        if sec.joker:
            text = f"{where} Lay it so that it replaces at least 1 wooden space."
        out[sid] = GlossaryEntry(_cap(words.section(sid)), s["kind"], text)
    b = raw["building"]
    for letter, building in PLAN.buildings.items():
        kind = b["kind"].format(area=words.area(building.area))
        if building.expansion_cost:
            text = b["text"].format(cost=words.tiles(building.expansion_cost))
        else:
            text = b["church"]
        size = plural(len(building.cells), "space")
        out[letter] = GlossaryEntry(f"{building.name} ({letter})", kind, f"{size}. {text}")
    return out


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
