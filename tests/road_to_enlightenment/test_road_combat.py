"""Acceptance scenarios RE-43..RE-55: combat (§7), with recorded dice."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.road_to_enlightenment.commands import (
    DeclareAttack,
    DefendWith,
    DefenseDone,
    PayWarCost,
    Reroll,
    Respond,
    SupportFinish,
    SupportPass,
    SupportWith,
)
from domain.road_to_enlightenment.legal import legal_commands
from domain.road_to_enlightenment.state import pair_key, replace
from tests.road_to_enlightenment.road_helpers import at_slot, new_game, of_type, send, set_player


def cards(*ids: str) -> tuple[str, ...]:
    return tuple(sorted(f"re-{i}" for i in ids))


def empty_hands(state):  # type: ignore[no-untyped-def]
    for seat in range(len(state.players)):
        state = set_player(state, seat, hand=())
    return state


def eng_attacks_bordeaux(defend: tuple[str, ...] = (), coins: int = 0):  # type: ignore[no-untyped-def]
    state, _ = new_game(4)
    state = empty_hands(state)
    state = set_player(state, 0, hand=defend)
    state = at_slot(state, 1, 1, cards("K01", "B03", "K15"))
    state, _ = send(state, 1, DeclareAttack("BOR", "SEA", 3, None))
    assert state.stage.kind == "war"
    state, _events = send(state, 1, PayWarCost(cards("B03", "K15")))
    assert state.relation("ENG", "FRA") == "WAR"
    assert state.players[1].slots[0] == ("re-K01",)
    assert state.stage.kind == "respond" and state.stage.seat == 0
    state, _ = send(state, 0, Respond(()))
    for card in defend:
        state, _ = send(state, 0, DefendWith(card))
    state, _ = send(state, 0, DefenseDone(coins))
    assert (state.stage.kind, state.stage.seat) == ("support", 2)
    state, _ = send(state, 2, SupportPass())
    assert (state.stage.kind, state.stage.seat) == ("support", 3)
    return send(state, 3, SupportPass(), 1, 2)


def test_re43_war_declaration_and_a_win_by_force() -> None:
    state, events = eng_attacks_bordeaux()
    resolved = of_type(events, "CombatResolved")[0]
    assert (resolved.attack, resolved.defense, resolved.mode, resolved.winner) == (
        15,
        5,
        "FORCE",
        "ENG",
    )
    assert state.occupant == {"BOR": "ENG"} and state.city_religion("BOR") == "ANTI"
    assert not state.players[0].eliminated


def test_re44_war_cards_do_not_negotiate_and_a_tie_goes_by_turn_order() -> None:
    state, events = eng_attacks_bordeaux(defend=("re-R03",), coins=3)
    resolved = of_type(events, "CombatResolved")[0]
    assert (resolved.attack, resolved.defense) == (15, 13)
    assert resolved.mode == "NEGOTIATION" and resolved.negotiation == (2, 2)
    assert resolved.winner == "FRA" and state.occupant == {}


def test_re45_negotiation_with_the_religion_bonus() -> None:
    state, _ = new_game(3)
    state = empty_hands(state)
    state = set_player(state, 0, hand=cards("R03", "U11"))
    state = at_slot(state, 2, 1, cards("UF1", "R02", "R07"))
    state, events = send(state, 2, DeclareAttack("MAR", "SEA", 2, "re-UF1"))
    assert state.relation("SPA", "FRA") == "WAR" and state.stage.kind == "respond"
    state, _ = send(state, 0, Respond(()))
    state, _ = send(state, 0, DefendWith("re-R03"))
    state, _ = send(state, 0, DefendWith("re-U11"))
    state, _ = send(state, 0, DefenseDone(1))
    assert (state.stage.kind, state.stage.seat) == ("support", 1)
    state, events = send(state, 1, SupportPass(), 2, 1)
    resolved = of_type(events, "CombatResolved")[0]
    assert (resolved.attack, resolved.defense, resolved.mode) == (15, 11, "NEGOTIATION")
    assert resolved.negotiation == (15, 9) and resolved.winner == "SPA"
    assert state.occupant == {"MAR": "SPA"}
    assert "re-UF1" in state.players[2].mat
    assert {"re-R02", "re-R07"} <= set(state.players[2].discard)
    assert {"re-R03", "re-U11"} <= set(state.players[0].discard)
    assert state.players[2].coins == 9 and state.players[0].coins == 6


def sweden_attacks_warsaw(state):  # type: ignore[no-untyped-def]
    state = at_slot(state, 2, 1, cards("B04", "B13"))
    state, _ = send(state, 2, DeclareAttack("WAR", "LAND", 0, None))
    state, _ = send(state, 2, PayWarCost(cards("B04", "B13")))
    state, _ = send(state, 3, Respond(()))
    state, _ = send(state, 3, DefenseDone(0))
    return state


def test_re46_allied_with_both_sides() -> None:
    state, _ = new_game(4)
    state = empty_hands(state)
    state = set_player(state, 1, hand=("re-R01",))
    state = sweden_attacks_warsaw(state)
    assert (state.stage.kind, state.stage.seat) == ("support", 0)
    state, _ = send(state, 0, SupportFinish("DEFENDER", 2))
    assert state.relation("FRA", "SWE") == "NONE" and state.allied("FRA", "POL")
    assert (state.stage.kind, state.stage.seat) == ("support", 1)
    with pytest.raises(RuleViolation) as err:
        send(state, 1, SupportWith("ATTACKER", "re-R01"))
    assert err.value.code == "not_allied"


def test_re47_neutral_city_needs_no_war_and_anyone_may_support() -> None:
    state, _ = new_game(4)
    state = empty_hands(state)
    state = at_slot(state, 2, 1, ())
    state, _ = send(state, 2, DeclareAttack("COP", "LAND", 0, None))
    assert (state.stage.kind, state.stage.seat) == ("support", 3)  # no war, no defender prompts
    assert SupportFinish("DEFENDER", 2) in legal_commands(state, 3)
    assert SupportFinish("ATTACKER", 2) in legal_commands(state, 3)
    state, _ = send(state, 3, SupportFinish("DEFENDER", 2))
    assert state.combat is not None and state.combat.def_support == 2


def test_re48_non_player_values_a_reroll_and_losing_the_negotiation() -> None:
    state, _ = new_game(4)
    state = empty_hands(state)
    state = at_slot(state, 2, 1, cards("R06", "R11", "R08"))
    state, _ = send(state, 2, DeclareAttack("COP", "LAND", 0, None))
    state, _ = send(state, 3, SupportPass())
    state, _ = send(state, 0, SupportPass())
    state, events = send(state, 1, SupportPass(), 6)
    assert of_type(events, "DiceRolled")[0].values == (6,)
    assert (state.stage.kind, state.stage.seat, state.stage.data) == ("reroll", 2, "IDEAS")
    state, events = send(state, 2, Reroll(0), 2)
    resolved = of_type(events, "CombatResolved")[0]
    assert (resolved.attack, resolved.defense, resolved.mode) == (16, 12, "NEGOTIATION")
    assert resolved.negotiation == (4, 5) and resolved.winner == "NEU"
    assert state.occupant == {}


def test_re49_supporting_an_uncontrolled_nation_needs_an_alliance() -> None:
    state, _ = new_game(4)
    state = empty_hands(state)
    state = set_player(state, 3, hand=("re-R01",))
    state = at_slot(state, 2, 1, cards("B04", "B13"))
    state, _ = send(state, 2, DeclareAttack("NOV", "LAND", 0, None))
    state, _ = send(state, 2, PayWarCost(cards("B04", "B13")))
    assert state.relation("SWE", "RUS") == "WAR"
    assert (state.stage.kind, state.stage.seat) == ("support", 3)
    with pytest.raises(RuleViolation) as err:
        send(state, 3, SupportWith("DEFENDER", "re-R01"))
    assert err.value.code == "not_allied"
    state, _ = send(state, 3, SupportPass())
    assert state.stage.seat == 0
    state, _ = send(state, 0, SupportFinish("DEFENDER", 1))
    assert state.relation("FRA", "SWE") == "NONE"
    assert state.stage.seat == 1 and SupportFinish("DEFENDER", 1) in legal_commands(state, 1)


def test_re50_retaking_your_own_starting_city_rolls_no_dice() -> None:
    state, _ = new_game(4)
    state = empty_hands(state)
    state = replace(
        state, occupant={"BOR": "ENG"}, diplomacy={**state.diplomacy, pair_key("ENG", "FRA"): "WAR"}
    )
    state = at_slot(state, 0, 1, cards("RF2", "R03"))
    state, _ = send(state, 0, DeclareAttack("BOR", "LAND", 0, None))
    state, _ = send(state, 1, Respond(()))
    state, _ = send(state, 1, DefenseDone(0))
    state, _ = send(state, 2, SupportPass())
    state, events = send(state, 3, SupportPass())
    assert of_type(events, "DiceRolled")[0].values == ()
    assert of_type(events, "CombatResolved")[0].winner == "FRA"
    assert state.occupant == {} and state.controller("BOR") == "FRA"
    assert state.city_religion("BOR") == "CATH"


def test_re51_ideas_tie_and_supporters_ideas_do_not_count() -> None:
    state, _ = new_game(4)
    state = empty_hands(state)
    state = replace(state, diplomacy={**state.diplomacy, pair_key("POL", "SWE"): "WAR"})
    state = set_player(state, 3, hand=("re-G01",))
    state = set_player(state, 0, hand=("re-G09",))
    state = at_slot(state, 2, 1, cards("B05", "B12", "B16"))
    state, _ = send(state, 2, DeclareAttack("WAR", "LAND", 0, None))
    state, _ = send(state, 3, Respond(()))
    state, _ = send(state, 3, DefendWith("re-G01"))
    state, _ = send(state, 3, DefenseDone(0))
    state, _ = send(state, 0, SupportWith("DEFENDER", "re-G09"))
    state, _ = send(state, 0, SupportFinish("DEFENDER", 0))
    state, events = send(state, 1, SupportPass(), 3, 3, 3)
    assert (state.stage.kind, state.stage.data) == ("reroll", "POLAND")  # Poland defends
    state, events = send(state, 3, Reroll(None))
    assert state.stage.kind != "reroll" and of_type(events, "CombatResolved")


def test_re52_elimination_by_conquest() -> None:
    state, _ = new_game(4)
    state = empty_hands(state)
    state = replace(
        state,
        occupant={"KRA": "SWE", "DAN": "SWE", "BER": "POL"},
        medallions={"ART6": 3},
        diplomacy={**state.diplomacy, pair_key("POL", "SWE"): "WAR"},
    )
    state = set_player(state, 3, slots=((), ("re-G03",), ()))
    state = at_slot(state, 2, 1, cards("RF1", "RF2", "RF4"))
    state, _ = send(state, 2, DeclareAttack("WAR", "LAND", 0, None))
    state, _ = send(state, 3, Respond(()))
    state, _ = send(state, 3, DefenseDone(0))
    state, _ = send(state, 0, SupportPass())
    state, events = send(state, 1, SupportPass(), 1, 1, 1)
    state, events = send(state, 3, Reroll(None))
    assert (state.stage.kind, state.stage.seat, state.stage.data) == ("reroll", 2, "IDEAS")
    state, events = send(state, 2, Reroll(None))
    assert of_type(events, "PlayerEliminated")[0].seat == 3
    assert "BER" not in state.occupant and state.medallions == {}
    assert 3 not in state.order and "re-G03" in state.vault
    assert len(state.foreign(2)) == 3  # KRA, DAN and WAR: upkeep 2 + 3
    assert not state.over and state.stage.kind == "declare"


@pytest.mark.parametrize(("route", "attack", "defense"), [("LAND", 4, 3 + 2), ("SEA", 2, 4 + 2)])
def test_re53_route_choice_drives_both_sides_values(route: str, attack: int, defense: int) -> None:
    state, _ = new_game(3)
    state = empty_hands(state)
    state = replace(
        state,
        occupant={"MAR": "FRA"} if False else {},
        diplomacy={**state.diplomacy, pair_key("FRA", "SPA"): "WAR"},
    )
    state = at_slot(state, 0, 1, ())
    state, _ = send(state, 0, DeclareAttack("BAR", route, 0, None))
    state, _ = send(state, 2, Respond(()))
    state, _ = send(state, 2, DefenseDone(0))
    state, events = send(state, 1, SupportPass(), 1, 1)
    resolved = of_type(events, "CombatResolved")[0]
    assert (resolved.attack, resolved.defense) == (attack, defense)


def test_re54_arcs_and_ownership() -> None:
    state, _ = new_game(4)
    state = at_slot(state, 1, 1, ())
    for target, code in (("MUN", "no_arc"), ("EDI", "own_city")):
        with pytest.raises(RuleViolation) as err:
            send(state, 1, DeclareAttack(target, "LAND", 0, None))
        assert err.value.code == code
    state = replace(
        state, occupant={"RIG": "POL"}, diplomacy={**state.diplomacy, pair_key("POL", "SWE"): "WAR"}
    )
    state = at_slot(state, 2, 1, ())
    state = empty_hands(state)
    assert DeclareAttack("RIG", "SEA", 0, None) in legal_commands(state, 2)
    state, _ = send(state, 2, DeclareAttack("RIG", "SEA", 0, None))
    state, _ = send(state, 3, Respond(()))
    state, _ = send(state, 3, DefenseDone(0))
    state, _ = send(state, 0, SupportPass())
    state, events = send(state, 1, SupportPass())
    assert of_type(events, "DiceRolled")[0].values == ()


def test_re55_empty_stack_attacks() -> None:
    state, _ = new_game(4)
    state = empty_hands(state)
    state = at_slot(state, 2, 1, ())
    with pytest.raises(RuleViolation) as err:
        send(state, 2, DeclareAttack("WAR", "LAND", 0, None))
    assert err.value.code == "war_cost_unpaid"
    state, _ = send(state, 2, DeclareAttack("COP", "LAND", 2, None))
    for seat in (3, 0):
        state, _ = send(state, seat, SupportPass())
    state, events = send(state, 1, SupportPass(), 1)
    assert of_type(events, "CombatResolved")[0].attack == 5 + 2
