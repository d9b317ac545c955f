"""The view is JSON-ready, complete for drawing the board, and shows secrets only to
whom the hidden-information matrix allows."""

from __future__ import annotations

import orjson

from domain.viewers import REVIEW, SPECTATOR, seat_viewer
from tests.campus_galli.cg_support import GAME, iter_states


def test_view_shape_and_secrets() -> None:
    for state in iter_states(3, 2, "competitive", 11):
        if state.phase == "select":
            break
    mine = GAME.view(state, seat_viewer(0))
    other = GAME.view(state, seat_viewer(1))
    spectator = GAME.view(state, SPECTATOR)
    review = GAME.view(state, REVIEW)
    for v in (mine, other, spectator, review):
        orjson.dumps(v)
        assert v["plan"]["width"] == 21 and len(v["plan"]["terrain"]) == 14
        assert len(v["buildings"]) == 11
        assert v["task_deck_count"] == len(state.task_deck)
    assert mine["players"][0]["hand"] == list(state.players[0].hand)
    assert other["players"][0]["hand"] is None and other["players"][0]["hand_count"] == 3
    assert spectator["players"][1]["hand"] is None
    assert "task_deck" not in spectator and review["task_deck"] == list(state.task_deck)
    assert all(set(p) >= {"face_up", "count"} for p in spectator["unfinished"])
    text = orjson.dumps(spectator).decode()
    for card in state.players[0].hand:
        assert card not in text


def test_leak_scanner_recognises_every_secret_id() -> None:
    from domain.campus_galli.content import ACTIONS, TASKS
    from tests.campus_galli.cg_support import _ID

    assert all(_ID.fullmatch(i) for i in [*ACTIONS, *TASKS])
