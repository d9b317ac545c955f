"""What others see of a chooser during the secret selection (issue 11, item 6b).

Rulebook (level I): "Select 1 of your 2 drawn action cards for this round at the same time.
Place your selected card face down on the space with the sundial. Place the other card on
the "next year" space." (level II: "Lay the 2 unselected cards on the "next year" space.")
So once a chooser has committed, the table shows its hand empty, one card face down and its
next-year pile grown; which card is which stays secret until "All players flip their
selected action card over at the same time".
"""

from __future__ import annotations

import pytest

from domain.bots import RandomBot, bot_move
from domain.randomness import Rng
from domain.viewers import Viewer
from tests.campus_galli.cg_support import GAME, iter_states


@pytest.mark.parametrize("level", [1, 2])
def test_a_committed_chooser_shows_its_hand_laid_down(level: int) -> None:
    checked = 0
    for state in iter_states(level, 2, "competitive", 7 + level):
        if state.phase != "select" or not state.choices.committed_seats:
            continue
        seat = min(state.choices.committed_seats)
        other = 1 - seat
        p = state.players[seat]
        them = GAME.view(state, Viewer(seat=other))["players"][seat]
        assert them["hand_count"] == 0 and them["hand"] is None
        assert them["selection_face_down"] is True
        assert them["next_year_count"] == len(p.next_year) + len(p.hand) - 1
        mine = GAME.view(state, Viewer(seat=seat))["players"][seat]
        assert mine["hand_count"] == len(p.hand) == level + 1  # it may still change its mind
        checked += 1
        if checked >= 3:
            break
    assert checked, "the sample must reach a committed selection"


def test_before_committing_the_hand_is_counted_as_held() -> None:
    for state in iter_states(1, 2, "competitive", 3):
        if state.phase == "select" and not state.choices.committed_seats:
            them = GAME.view(state, Viewer(seat=1))["players"][0]
            assert them["hand_count"] == 2 and them["selection_face_down"] is False
            bot_move(RandomBot(), GAME, state, 0, Rng(0))
            return
    raise AssertionError("no open selection reached")
