"""The view's pieces are reused from state to state where their inputs did not change:
the hub's diff skips the very same objects by identity (``domain.illumination.view``)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from domain import Context, Rng, seat_viewer, validate_options
from domain.game import decide_and_fold
from domain.illumination import GAME_TYPE
from domain.views import Memo, render

GAME = GAME_TYPE.game


def _duel(seed: int) -> list[Any]:
    state = GAME.initial_state(validate_options(GAME, {"mode": "duel"}))
    for e in GAME.setup(state, Context.seeded(f"reuse-{seed}")):
        state = GAME.evolve(state, e)
    states = [state]
    rng = Rng(seed)
    while not GAME.is_terminal(state) and len(states) < 200:
        seat = rng.choice(sorted(GAME.to_act(state)))
        command = rng.choice(list(GAME.legal_commands(state, seat)))
        _, state = decide_and_fold(GAME, state, seat, command, Context.seeded(f"{len(states)}"))
        states.append(state)
    return states


def test_a_book_whose_margin_alone_changed_keeps_its_cells_and_equal_scores_their_dict() -> None:
    viewer = seat_viewer(0)
    margins = scores = 0
    for seed in (1, 2):
        states = _duel(seed)
        for before, after in pairwise(states):
            old, new = (render(GAME.full_view(s), viewer, Memo()) for s in (before, after))
            for pos in range(3):
                same_book = before.books[pos] is after.books[pos]
                if same_book and old["books"][pos]["margin"] != new["books"][pos]["margin"]:
                    assert new["books"][pos]["cells"] is old["books"][pos]["cells"]
                    margins += 1
            if old["score_preview"] == new["score_preview"]:
                assert new["score_preview"] is old["score_preview"]
                scores += 1
    assert margins > 5 and scores > 20
