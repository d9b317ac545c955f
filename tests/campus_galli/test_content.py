"""The data files load, match every count in the rulebook, and broken files are refused."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from domain.campus_galli.content import (
    ACTIONS,
    PLAN,
    SECTIONS,
    TASKS,
    ContentError,
    validate_content,
)
from domain.campus_galli.geometry import ORIENTATIONS


def raw() -> dict[str, Any]:
    files = resources.files("domain.campus_galli").joinpath("data")
    return {
        n: json.loads(files.joinpath(f"{n}.json").read_text("utf-8"))
        for n in ("plan", "sections", "actions", "tasks", "tables")
    }


def test_counts_match_the_rulebook() -> None:
    assert len(PLAN.buildings) == 11
    assert len(PLAN.building_of) == 132
    assert len(PLAN.symbols) == 32
    assert bin(PLAN.tree_mask).count("1") == 10
    assert len(SECTIONS) == 45
    assert sum(a.level == 1 for a in ACTIONS.values()) == 48
    assert sum(a.level == 0 for a in ACTIONS.values()) == 4
    assert [sum(t.level == lvl for t in TASKS.values()) for lvl in (1, 2, 3)] == [36, 32, 32]
    assert sum(t.seals for t in TASKS.values() if t.level == 1) == 50
    # All five shapes are mirror-symmetric: 2, 2, 4, 1 and 4 distinct footprints.
    assert {k: len(v) for k, v in ORIENTATIONS.items()} == {
        "D2": 2, "I3": 2, "L3": 4, "O4": 1, "T4": 4,
    }  # fmt: skip


def test_data_round_trips() -> None:
    assert validate_content(raw()).plan == PLAN


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("plan", "terrain", 0), "X" * 21, "unknown building"),
        (("plan", "width"), 20, "wrong width"),
        (("sections", "sections", 0, "colour"), "P", "bad colour"),
        (("actions", "cards", 0, "number"), 16, "used twice"),
        (("tasks", "tasks", 0, "kind"), "nonsense", "unknown kind"),
        (("tasks", "tasks", 0, "building"), "Q", "building"),
    ],
)
def test_broken_files_are_refused(path: tuple[Any, ...], value: Any, message: str) -> None:
    data = copy.deepcopy(raw())
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ContentError, match=message):
        validate_content(data)


def test_missing_table_is_refused() -> None:
    data = raw()
    del data["tables"]["pigments"]
    with pytest.raises(ContentError, match="pigments"):
        validate_content(data)
