"""Typed stages: ``StageKind`` and its companions are ``StrEnum``s, so what the wire,
the views and the recorded logs hold is the plain string it always was."""

from __future__ import annotations

import cattrs
import orjson
import pytest

from domain.road_to_enlightenment import GAME_TYPE
from domain.road_to_enlightenment.events import CombatSet, StageSet
from domain.road_to_enlightenment.legal import EXPECTED, legal_commands, to_act
from domain.road_to_enlightenment.state import (
    SIMULTANEOUS,
    Combat,
    CombatStep,
    Stage,
    StageKind,
    replace,
)
from domain.viewers import Viewer
from protocol import GameCodec
from tests.road_to_enlightenment.road_helpers import new_game

CODEC = GameCodec.for_game(GAME_TYPE.game)


def test_a_stage_goes_on_the_wire_as_the_plain_string_and_comes_back_typed() -> None:
    event = StageSet(Stage(StageKind.HELP, 1, other=2, data="0,2", waiting=(0,)))
    data = CODEC.encode_event(event)
    assert orjson.loads(orjson.dumps(data)) == {
        "stage": {"kind": "help", "seat": 1, "other": 2, "n": 0, "data": "0,2", "waiting": [0]}
    }
    back = CODEC.decode_event("StageSet", orjson.loads(orjson.dumps(data)))
    assert back == event and type(back.stage.kind) is StageKind


def test_a_combat_step_goes_on_the_wire_as_the_plain_string() -> None:
    combat = Combat(0, "ENG", 1, "LON", "LAND", None, 0, step=CombatStep.POLAND)
    data = orjson.loads(orjson.dumps(CODEC.encode_event(CombatSet(combat))))
    assert data["combat"]["step"] == "poland"
    back = CODEC.decode_event("CombatSet", data)
    assert type(back.combat.step) is CombatStep and back.combat == combat


def test_a_stage_kind_the_game_does_not_know_is_refused_on_decoding() -> None:
    data = CODEC.encode_event(StageSet(Stage(StageKind.DRAFT, 0)))
    data = {**data, "stage": {**data["stage"], "kind": "banquet"}}
    with pytest.raises(cattrs.BaseValidationError) as err:
        CODEC.decode_event("StageSet", data)
    assert cattrs.transform_error(err.value) == [
        "invalid value for type, expected StageKind @ $.stage.kind"
    ]


def test_the_view_shows_the_stage_kind_as_its_string() -> None:
    state, _ = new_game(3)
    view = GAME_TYPE.game.view(state, Viewer(seat=0))
    assert orjson.loads(orjson.dumps(view))["stage"]["kind"] == "assign"


@pytest.mark.parametrize("kind", list(StageKind))
def test_every_stage_kind_is_handled_by_to_act_and_the_legal_list(kind: StageKind) -> None:
    # The matches end in assert_never: a kind added without a case fails here (and in mypy).
    combat = Combat(0, "ENG", 1, "LON", "LAND", None, 0)  # the combat stages read it
    state = replace(new_game(3)[0], stage=Stage(kind, 0, other=1, waiting=(0,)), combat=combat)
    seats = to_act(state)
    assert (kind in (StageKind.SETUP, StageKind.OVER)) == (not seats and kind not in SIMULTANEOUS)
    commands = legal_commands(state, 0)
    if kind in (StageKind.SETUP, StageKind.OVER):
        assert commands == []
    else:
        assert kind in EXPECTED
        assert all(isinstance(c, EXPECTED[kind]) for c in commands)
