"""Logs written before the DD-16 lazy-monk choice and the secret feast/study-day answers still
replay exactly: an event log is never rewritten, so the current fold must give every old
event its old meaning.

``data/legacy-logs-v1.json`` holds three random games recorded with the rules as they were
(level I with ten lazy-monk gaps, level II with a feast day, level III with a study day),
and after every event a fingerprint of the state the old code folded: the phase, every lazy
monk's cells, every player's monk supply and tiles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from domain.campus_galli.state import State
from tests.campus_galli.cg_support import CODEC, GAME

LEGACY = orjson.loads((Path(__file__).parent / "data" / "legacy-logs-v1.json").read_bytes())


def fingerprint(state: State) -> list[Any]:
    lazy = sorted(
        [i for i in range(m.gap.bit_length()) if m.gap >> i & 1]
        for m in state.monks
        if m.kind == "lazy"
    )
    tiles = [list(p.tiles) for p in state.players] if state.level > 1 else []
    return [state.phase, lazy, [p.supply for p in state.players], tiles]


@pytest.mark.parametrize(
    "game", LEGACY["games"], ids=lambda g: "level-{level}".format(**g["options"])
)
def test_an_old_log_folds_to_the_same_states(game: dict[str, Any]) -> None:
    state = GAME.initial_state(game["options"])
    assert len(game["events"]) == len(game["after_each"])
    for i, ((kind, data), expected) in enumerate(
        zip(game["events"], game["after_each"], strict=True)
    ):
        state = GAME.evolve(state, CODEC.decode_event(kind, data))
        assert fingerprint(state) == expected, f"event {i} ({kind}) folds differently now"
        if kind == "EventEnded":  # an old feast/study day leaves no secret choice open
            assert not state.choices.seats
    result = GAME.result(state)
    assert result is not None and list(result.scores) == game["scores"]
