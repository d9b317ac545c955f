"""The Bounded Battles after a placement, searched around its square only
(``board.conflicts`` with ``near``), decide exactly the events the whole Book's search does."""

from __future__ import annotations

import pytest

from domain.illumination import GAME
from domain.illumination import events as ev
from domain.illumination import turn as turn_module
from domain.randomness import Context
from tests.illumination.illum_support import iter_states

DUEL = {"mode": "duel", "side": "reverent", "difficulty": 2, "books": "standard"}
SOLO = {"mode": "solo", "side": "irreverent", "difficulty": 5, "books": "random"}
BATTLES = (ev.BattleResolved, ev.BattleTied)


# Seeds whose games fight and tie Bounded Battles after placements, the Monk's included.
@pytest.mark.parametrize(("options", "seed"), [(DUEL, 21), (DUEL, 25), (SOLO, 30), (SOLO, 35)])
def test_every_legal_command_decides_as_with_the_whole_search(
    options: dict[str, object], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = battles = 0
    for n, state in enumerate(iter_states(options, seed)):
        seat = min(GAME.to_act(state))
        for command in GAME.legal_commands(state, seat):
            key = f"near-{seed}-{n}"
            near = GAME.decide(state, seat, command, Context.seeded(key))
            with monkeypatch.context() as m:
                m.setattr(turn_module, "_SETTLED", frozenset())
                whole = GAME.decide(state, seat, command, Context.seeded(key))
            assert near == whole, command
            checked += 1
            battles += sum(isinstance(e, BATTLES) for e in near)
    assert checked > 1000
    assert battles > 10
