"""Luminary powers not covered by the scenarios, and the secrecy of phase 1 (§5)."""

from __future__ import annotations

from domain.road_to_enlightenment.commands import (
    ConfirmSlots,
    DeclareAttack,
    DeclareLuminaryAction,
    DeclareReorganize,
    DefenseDone,
    PlaceLuminary,
    Respond,
    SupportPass,
)
from domain.road_to_enlightenment.state import pair_key, replace
from domain.viewers import SPECTATOR, Viewer
from tests.road_to_enlightenment.road_helpers import (
    GAME,
    at_slot,
    new_game,
    of_type,
    send,
    set_player,
)


def test_advance_with_renown_on_the_same_track() -> None:
    state, _ = new_game(2)
    state = at_slot(
        state, 0, 1, ("re-O04", "re-U01")
    )  # Bernini ADVANCE(ART,1), Barberini RENOWN(ART,1)
    state, _ = send(state, 0, DeclareLuminaryAction("re-O04", "re-U01", -1))
    assert state.players[0].art == 2 + 2 and state.players[0].art_locked


def test_tax_and_piety() -> None:
    state, _ = new_game(2)
    state = at_slot(state, 0, 1, ("re-R01",))
    coins = state.players[0].coins
    state, _ = send(state, 0, DeclareLuminaryAction("re-R01", None, -1))
    assert state.players[0].coins == coins + 2
    state = at_slot(state, 1, 1, ("re-KF4",))
    state, _ = send(state, 1, DeclareLuminaryAction("re-KF4", None, -1))
    assert state.religion == 2  # toward the Anti-Catholic end


def test_scholar_widens_the_reorganize_peek() -> None:
    state, _ = new_game(2)
    state = set_player(state, 0, deck=tuple(f"re-O{i:02d}" for i in range(3, 13)))
    state = at_slot(state, 0, 1, ("re-G11",))  # Francis Bacon SCHOLAR(2)
    state, _ = send(state, 0, DeclareReorganize("re-G11"))
    assert len(state.players[0].peek) == 7


def test_expedition_adds_at_sea_and_is_removed() -> None:
    state, _ = new_game(2)
    state = at_slot(state, 0, 1, ("re-O02",))  # Anthony van Diemen EXPEDITION(3)
    state, _ = send(state, 0, DeclareAttack("AMS", "SEA", 0, "re-O02"))
    state, events = send(state, 1, SupportPass(), 1, 1)
    assert of_type(events, "CombatResolved")[0].attack == 3 + 2 + 3  # MIL 3, navy 2, +3
    assert state.players[0].aside == ("re-O02",)


def test_fortify_response_adds_defense() -> None:
    state, _ = new_game(2)
    state = replace(state, diplomacy={**state.diplomacy, pair_key("ENG", "FRA"): "WAR"})
    state = set_player(state, 0, hand=("re-R14",))  # Starhemberg FORTIFY(3)
    state = at_slot(state, 1, 1, ())
    state, _ = send(state, 1, DeclareAttack("BOR", "SEA", 0, None))
    state, _ = send(state, 0, Respond(("re-R14",)))
    state, events = send(state, 0, DefenseDone(0), 1, 1)
    assert of_type(events, "CombatResolved")[0].defense == 2 + 2 + 3  # navy, dice, fortify


def test_slot_stacks_stay_secret_until_revealed() -> None:
    state, _ = new_game(2, seed=3)
    card = state.players[0].hand[0]
    state, events = send(state, 0, PlaceLuminary(card, 1))
    assert GAME.redact(events[0], Viewer(seat=1)) is None
    assert GAME.redact(events[0], Viewer(seat=0)) == events[0]
    state, events = send(state, 0, ConfirmSlots())
    committed = of_type(events, "ChoiceCommitted")[0]
    assert committed.choice == (f"1:{card}",)
    assert GAME.redact(committed, SPECTATOR).choice is None
    state, events = send(state, 1, ConfirmSlots())
    assert of_type(events, "StacksLocked")[0].counts == ((1, 0, 0), (0, 0, 0))
    other = GAME.view(state, Viewer(seat=1))["players"][0]["slots"][0]
    assert other == {"count": 1, "revealed": False, "cards": None}
    assert card in GAME.hidden_values(state, Viewer(seat=1))
    assert card not in GAME.hidden_values(state, Viewer(seat=0))
    state, _ = send(state, 0, DeclareReorganize(None))  # reveals slot 1
    assert card not in GAME.hidden_values(state, Viewer(seat=1))


def test_dd38_a_committed_plan_can_be_revised_until_the_last_commit() -> None:
    state, _ = new_game(2, seed=4)
    first, second = state.players[0].hand[:2]
    state, _ = send(state, 0, PlaceLuminary(first, 1))
    state, _ = send(state, 0, ConfirmSlots())
    assert GAME.to_act(state) == frozenset({1})
    assert ConfirmSlots() not in GAME.legal_commands(state, 0)
    state, events = send(state, 0, PlaceLuminary(second, 3))
    recommitted = of_type(events, "ChoiceCommitted")[0]
    assert recommitted.choice == tuple(sorted((f"1:{first}", f"3:{second}")))
    assert GAME.redact(recommitted, Viewer(seat=1)).choice is None
    assert all(GAME.redact(e, Viewer(seat=1)) is None for e in of_type(events, "SlotPlanned"))
    state, events = send(state, 1, ConfirmSlots())
    assert of_type(events, "StacksLocked")[0].counts[0] == (1, 0, 1)
    assert GAME.legal_commands(state, 1) == []  # locked: phase 2 has begun
    assert state.players[0].slots == ((first,), (), (second,))
