"""Level II/III procedures: events, draw schedule, secrets in events."""

from __future__ import annotations

import attrs

from domain.campus_galli.commands import DeclineEvent, PayEvent
from domain.campus_galli.decide import advance
from domain.campus_galli.events import (
    ActionCardsDrawn,
    ActionPileFormed,
    EventStarted,
    RoundStarted,
    TaskRevealed,
)
from domain.campus_galli.state import Phase
from domain.randomness import Context
from domain.simultaneous import ChoiceCommitted
from domain.viewers import SPECTATOR, seat_viewer
from tests.campus_galli.cg_support import GAME, apply, new_game, play
from tests.campus_galli.test_scenarios import fixture

ROUNDS = {
    (1, 1): 24, (1, 2): 12, (1, 3): 9, (1, 4): 6,
    (2, 1): 30, (2, 2): 15, (2, 3): 10, (2, 4): 8,
    (3, 1): 40, (3, 2): 19, (3, 3): 13, (3, 4): 10,
}  # fmt: skip


def test_round_schedule_and_enlarged_hands() -> None:
    for (level, players), rounds in ROUNDS.items():
        mode = "cooperative" if players == 1 else "competitive"
        _, log, _ = play(level, players, mode, 5, checks=False)
        assert sum(isinstance(e, RoundStarted) for e in log) == rounds, (level, players)
        sizes = {e.count for e in log if isinstance(e, ActionCardsDrawn)}
        if (level, players) == (2, 4):
            assert 4 in sizes  # "draw 4 action cards in the last round"
        if (level, players) == (3, 2):
            assert 5 in sizes  # DD-17: 35 = 11 x 3 + 2


def test_setup_secrets_are_redacted_even_for_the_owner() -> None:
    _, events = new_game(2, 2)
    formed = [e for e in events if isinstance(e, ActionPileFormed)]
    assert formed and all(GAME.redact(e, seat_viewer(e.seat)).cards is None for e in formed)
    drawn = [e for e in events if isinstance(e, ActionCardsDrawn)]
    assert GAME.redact(drawn[0], seat_viewer(0)) == drawn[0]
    assert GAME.redact(drawn[0], seat_viewer(1)).cards is None
    assert GAME.redact(ChoiceCommitted(0, ("L1-R01",)), SPECTATOR).choice is None


def _event_state(top: list[str], placed: list[tuple[str, str, int, int, int]]):  # type: ignore[no-untyped-def]
    state = fixture(3, 2, placed, "L1-R01")
    state = attrs.evolve(
        state,
        phase=Phase.FILL,
        turn=None,
        task_deck=(*top, "T1-09", "T1-10", "T1-11", "T1-12", "T1-13", "T1-14"),
        tile_supply=(10, 10, 10, 10),
    )
    for s in range(2):
        state = state.with_player(
            s, attrs.evolve(state.players[s], selected=None, tiles=(0, 0, 0, 0))
        )
    return advance(state, [], Context.seeded("ev"))


def test_collapse_nobody_prevents() -> None:
    placed = [("H-R-O4", "O4", 8, 3, 0), ("P-B-O4", "O4", 10, 3, 0), ("H-G-D2", "D2", 6, 1, 1)]
    state, events = _event_state(["T3-06"], placed)
    assert TaskRevealed("T3-06", "event") in events
    started = next(e for e in events if isinstance(e, EventStarted))
    assert started.target == "H-R-O4"  # O4 is built twice: red comes first, hut before bag
    assert state.phase == "event"
    state, _ = apply(state, 0, DeclineEvent(""))
    state, _ = apply(state, 1, DeclineEvent(""))
    assert "H-R-O4" in state.hut
    assert state.reminders == ("T3-06",)


def test_collapse_ignored_with_fewer_than_three_sections() -> None:
    state, events = _event_state(["T3-06"], [("H-R-O4", "O4", 8, 3, 0)])
    assert TaskRevealed("T3-06", "discarded") in events
    assert state.phase == "select"


def test_fire_lose_a_book_or_pay() -> None:
    state = fixture(3, 2, [], "L1-R01")
    state = state.with_player(0, attrs.evolve(state.players[0], library=("L2-BK01",)))
    state = attrs.evolve(
        state,
        phase=Phase.FILL,
        turn=None,
        task_deck=("T3-01", "T1-09", "T1-10", "T1-11", "T1-12", "T1-13", "T1-14"),
        tile_supply=(12, 12, 12, 12),
    )
    state = state.with_player(0, attrs.evolve(state.players[0], selected=None))
    state, events = advance(state, [], Context.seeded("fire"))
    started = next(e for e in events if isinstance(e, EventStarted))
    assert started.seats == (0,) and len(started.dice[0]) == 1
    legal = GAME.legal_commands(state, 0)
    assert DeclineEvent("L2-BK01") in legal
    lost, _ = apply(state, 0, DeclineEvent("L2-BK01"))
    assert lost.players[0].library == () and "L2-BK01" in lost.box
    pays = [c for c in legal if isinstance(c, PayEvent)]
    if pays:
        paid, _ = apply(state, 0, pays[0])
        assert "T3-01" in paid.players[0].fulfilled


def test_dues_returns_everything_and_gives_one_of_each() -> None:
    state = fixture(2, 2, [], "L1-R01")
    state = state.with_player(0, attrs.evolve(state.players[0], selected=None, tiles=(5, 3, 0, 0)))
    state = state.with_player(1, attrs.evolve(state.players[1], tiles=(7, 0, 0, 0)))
    state = attrs.evolve(
        state,
        phase=Phase.FILL,
        turn=None,
        task_deck=("T2-01", "T1-09", "T1-10", "T1-11", "T1-12", "T1-13"),
        tile_supply=(0, 9, 12, 12),
    )
    state, _events = advance(state, [], Context.seeded("dues"))
    assert state.players[0].tiles == (1, 1, 1, 1)  # 8 tiles: "more than 7"
    assert state.players[1].tiles == (7, 0, 0, 0)  # 7 tiles: untouched
    assert state.tile_supply == (4, 11, 11, 11)


def test_fire_answers_are_secret_until_everyone_has_answered() -> None:
    state = fixture(3, 2, [], "L1-R01")
    for s, book in ((0, "L2-BK01"), (1, "L2-BK02")):
        player = attrs.evolve(state.players[s], library=(book,), selected=None)
        state = state.with_player(s, player)
    state = attrs.evolve(
        state,
        phase=Phase.FILL,
        turn=None,
        task_deck=("T3-01", "T1-09", "T1-10", "T1-11", "T1-12", "T1-13", "T1-14"),
        tile_supply=(12, 12, 12, 12),
    )
    state, _ = advance(state, [], Context.seeded("fire2"))
    assert GAME.to_act(state) == {0, 1}
    state, events = apply(state, 1, DeclineEvent("L2-BK02"))
    assert GAME.redact(events[0], seat_viewer(0)).choice is None
    assert state.players[1].library == ("L2-BK02",)  # not applied before the reveal
    assert GAME.to_act(state) == {0}
    state, events = apply(state, 0, DeclineEvent("L2-BK01"))
    assert state.players[0].library == () and state.players[1].library == ()
    assert state.phase == "select"
