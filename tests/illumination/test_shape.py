"""The kernel's shape in Illumination (issue 11): named unions, the handler table complete,
and the state's enums still the strings that views and stored logs carry."""

from __future__ import annotations

import json
from typing import get_args

from domain.illumination import GAME
from domain.illumination import commands as cmd
from domain.illumination import events as ev
from domain.illumination.decide import decide_turn
from domain.illumination.evolve import _HANDLERS
from domain.illumination.state import Mode, PendingKind, Phase
from domain.randomness import Context
from domain.viewers import SPECTATOR
from tests.illumination.illum_support import started


def test_every_event_class_has_its_evolve_handler() -> None:
    assert set(_HANDLERS) == set(get_args(ev.Event)) == set(GAME.event_types)


def test_the_unions_are_the_declared_types() -> None:
    assert GAME.command_types == get_args(cmd.Command)
    assert GAME.event_types == get_args(ev.Event)
    assert len(set(GAME.event_types)) == len(GAME.event_types)


def test_enum_values_are_the_strings_of_views_and_logs() -> None:
    assert [m.value for m in Mode] == ["duel", "solo"]
    assert [p.value for p in Phase] == ["setup", "play", "over"]
    assert [k.value for k in PendingKind] == ["exile", "token"]
    state = started("solo")
    assert state.phase is Phase.PLAY and state.mode is Mode.SOLO
    seen = json.loads(json.dumps(GAME.view(state, SPECTATOR)))
    assert (seen["phase"], seen["mode"]) == ("play", "solo")


def test_decide_turn_state_is_the_fold_of_its_events() -> None:
    state = started()
    command = next(c for c in GAME.legal_commands(state, 0) if isinstance(c, cmd.ChooseLine))
    turn = decide_turn(state, 0, command, Context.seeded("t").rng)
    after = state
    for event in turn.events:
        after = GAME.evolve(after, event)
    assert turn.state == after
    assert turn.events == list(GAME.decide(state, 0, command, Context.seeded("t")))
