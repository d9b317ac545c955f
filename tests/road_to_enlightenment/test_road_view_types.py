"""Road's view is typed (TypedDicts), and the typed parts send what they sent before."""

from __future__ import annotations

import typing

import attrs
import orjson

from domain.road_to_enlightenment import GAME
from domain.road_to_enlightenment.state import Combat, CombatStep, replace
from domain.road_to_enlightenment.view import CombatView
from domain.viewers import SPECTATOR
from tests.road_to_enlightenment.road_helpers import new_game


def test_the_combat_part_is_every_field_of_the_combat_in_order() -> None:
    # The view spelled out what attrs.asdict(combat) gave; a field added to Combat must be
    # added to CombatView too, or the page would silently lose it.
    names = [f.name for f in attrs.fields(Combat)]
    assert list(typing.get_type_hints(CombatView)) == names
    state, _ = new_game(3)
    cb = Combat(0, "ENG", 1, "LON", "LAND", None, 2, CombatStep.RESPOND, ("re-R10",), 1, 0, 0, 0, 0)
    shown = GAME.view(replace(state, combat=cb), SPECTATOR)["combat"]
    assert orjson.dumps(shown) == orjson.dumps(attrs.asdict(cb))  # the same bytes
    assert list(shown) == names
