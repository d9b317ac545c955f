"""The engine hooks of §9.3 that no starter card uses, exercised with fixture cards.

"Hooks the engine must support even though no starter card uses them: a power cost 'exhaust N
[stat]' that may draw on the acting stack or the hand (Exhausting a Stat) ... a backwards track
move." A fixture card is a real card whose power is swapped for the test (``monkeypatch``
restores the cached content afterwards).
"""

from __future__ import annotations

import attrs
import pytest

from domain.errors import DomainError
from domain.road_to_enlightenment.commands import DeclareLuminaryAction
from domain.road_to_enlightenment.content import Power, content
from domain.road_to_enlightenment.effects import retreat
from domain.road_to_enlightenment.legal import legal_commands
from domain.road_to_enlightenment.state import State, replace
from tests.road_to_enlightenment.road_helpers import (
    at_slot,
    new_game,
    of_type,
    send,
    set_player,
    tx_for,
)


def fixture_card(monkeypatch: pytest.MonkeyPatch, card: str, power: Power) -> None:
    lums = content().luminaries
    monkeypatch.setitem(lums, card, attrs.evolve(lums[card], power=power))  # type: ignore[arg-type]


def on_sci(players: int, **positions: tuple[int, bool]) -> State:
    """positions: s<seat>=(sci, locked); every other marker on 0."""
    state, _ = new_game(players)
    for seat in range(players):
        state = set_player(state, seat, sci=0, art=0, sci_locked=False)
    for key, (pos, locked) in positions.items():
        state = set_player(state, int(key[1:]), sci=pos, sci_locked=locked)
    return state


def sci(state: State) -> list[int]:
    return [p.sci for p in state.players]


# -- backward track movement (§8.1: "lift the marker, then move_back from pos - n + 1") -------
def test_a_backward_move_goes_down_n_spaces_and_never_takes_a_medallion_by_space() -> None:
    state = replace(on_sci(2, s0=(9, False)), medallions={"SCI6": 1})
    tx = tx_for(state)
    retreat(tx, 0, "SCI", 3)
    assert sci(tx.state) == [6, 0]
    assert tx.state.medallions == {"SCI6": 1}  # DD-33: landing backwards takes nothing
    assert not tx.state.players[0].sci_locked
    assert not of_type(tx.events, "MedallionTaken")


def test_a_backward_move_keeps_the_markers_lock_and_its_medallions() -> None:
    state = replace(on_sci(2, s0=(9, True)), medallions={"SCI6": 0})
    tx = tx_for(state)
    retreat(tx, 0, "SCI", 2)
    assert sci(tx.state) == [7, 0]
    assert tx.state.players[0].sci_locked
    assert tx.state.medallions == {"SCI6": 0}


def test_a_backward_move_bumps_an_unlocked_marker_down_and_steals_its_medallions() -> None:
    state = replace(on_sci(3, s0=(8, False), s1=(5, False)), medallions={"SCI6": 1})
    tx = tx_for(state)
    retreat(tx, 0, "SCI", 3)
    assert sci(tx.state) == [5, 4, 0]  # chain reaction: the bumped marker moves back 1
    assert tx.state.medallions == {"SCI6": 0}  # DD-31: any bumper steals
    assert of_type(tx.events, "MedallionTaken")[0].how == "BUMP"


def test_a_backward_move_slides_past_a_locked_marker() -> None:
    state = on_sci(3, s0=(8, False), s1=(5, True))
    tx = tx_for(state)
    retreat(tx, 0, "SCI", 3)
    assert sci(tx.state) == [4, 5, 0]


def test_a_backward_move_stops_on_space_zero() -> None:
    state = on_sci(2, s0=(2, False), s1=(0, False))
    tx = tx_for(state)
    retreat(tx, 0, "SCI", 5)
    assert sci(tx.state) == [0, 0]
    tx = tx_for(tx.state)
    retreat(tx, 0, "SCI", 1)
    assert tx.events == []  # nothing below 0


def test_a_setback_card_moves_the_victims_marker_back(monkeypatch: pytest.MonkeyPatch) -> None:
    fixture_card(monkeypatch, "re-B02", Power("SETBACK", 3, "SCI"))
    state = replace(on_sci(4, s1=(8, False), s2=(5, False)), medallions={"SCI6": 2})
    state = at_slot(state, 0, 1, ("re-B02",))
    setbacks = [c for c in legal_commands(state, 0) if isinstance(c, DeclareLuminaryAction)]
    assert sorted(c.victim for c in setbacks) == [1, 2, 3]  # any other active player
    state, events = send(state, 0, DeclareLuminaryAction("re-B02", None, 1))
    assert sci(state) == [0, 5, 4, 0]
    assert state.medallions == {"SCI6": 1}
    assert [m.cause for m in of_type(events, "MarkerMoved")] == ["SETBACK", "BUMP"]


@pytest.mark.parametrize("victim", [0, -1, 9])
def test_a_setback_needs_another_active_player_as_victim(
    monkeypatch: pytest.MonkeyPatch, victim: int
) -> None:
    fixture_card(monkeypatch, "re-B02", Power("SETBACK", 3, "SCI"))
    state = at_slot(on_sci(4, s1=(8, False)), 0, 1, ("re-B02",))
    with pytest.raises(DomainError) as err:
        send(state, 0, DeclareLuminaryAction("re-B02", None, victim))
    assert err.value.code == "bad_victim"


# -- a power cost "exhaust N [stat]" paid from the acting stack and/or the hand (DD-05) ------
TAXER = "re-R16"  # TAX 2; the fixture adds "exhaust 3 [politics]"
STACK = (TAXER, "re-R13")  # re-R13: 2 [politics]
HAND = ("re-B02", "re-R07")  # 3 and 1 [politics]


def with_cost(monkeypatch: pytest.MonkeyPatch) -> State:
    fixture_card(monkeypatch, TAXER, Power("TAX", 2, None, (("POL", 3),)))
    state, _ = new_game(3)
    return at_slot(state, 0, 1, STACK, hand=HAND)


def test_a_power_cost_is_offered_as_each_minimal_payment_from_stack_and_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = with_cost(monkeypatch)
    offered = {
        c.cost
        for c in legal_commands(state, 0)
        if isinstance(c, DeclareLuminaryAction) and c.card == TAXER
    }
    assert offered == {("re-B02",), ("re-R07", "re-R13")}  # never () and never a superset


def test_paying_a_power_cost_exhausts_the_named_cards_from_hand_and_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = with_cost(monkeypatch)
    coins = state.players[0].coins
    state, events = send(state, 0, DeclareLuminaryAction(TAXER, None, -1, ("re-R07", "re-R13")))
    p = state.players[0]
    assert p.coins == coins + 2  # the power still works
    assert p.hand == ("re-B02",)
    assert {"re-R07", "re-R13", TAXER} <= set(p.discard)
    moved = [(e.cards, e.src, e.dst) for e in of_type(events, "LuminariesMoved")]
    assert (("re-R13",), "slot1", "discard") in moved  # it leaves the participating stack
    assert (("re-R07",), "hand", "discard") in moved


@pytest.mark.parametrize(
    ("cost", "code"),
    [
        ((), "cost_unpaid"),
        (("re-R13",), "cost_unpaid"),  # 2 of 3 [politics]
        (("re-B02", "re-R13"), "cost_unpaid"),  # pays, but is not minimal
        (("re-B03",), "card_not_in_zone"),  # neither in the stack nor in the hand
        (("re-R16",), "card_not_in_zone"),  # the acting card cannot pay for itself
        (("re-R13", "re-R07"), "unsorted_cards"),
    ],
)
def test_a_wrong_power_payment_is_rejected_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, cost: tuple[str, ...], code: str
) -> None:
    state = with_cost(monkeypatch)
    with pytest.raises(DomainError) as err:
        send(state, 0, DeclareLuminaryAction(TAXER, None, -1, cost))
    assert err.value.code == code


def test_a_cost_on_a_power_without_one_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = new_game(3)
    state = at_slot(state, 0, 1, STACK, hand=HAND)
    with pytest.raises(DomainError) as err:
        send(state, 0, DeclareLuminaryAction(TAXER, None, -1, ("re-B02",)))
    assert err.value.code == "cost_unpaid"


# -- a removable favorite: +1 lesser draft pick ---------------------------------------------
def test_a_removable_favorite_is_set_aside_not_exhausted(monkeypatch: pytest.MonkeyPatch) -> None:
    favorite = "re-OF1"
    assert content().luminaries[favorite].favorite
    fixture_card(monkeypatch, favorite, Power("PATRON", 2))
    state, _ = new_game(3)
    score = state.players[0].score
    state = at_slot(state, 0, 1, (favorite,))
    state, events = send(state, 0, DeclareLuminaryAction(favorite, None, -1))
    p = state.players[0]
    assert p.score == score + 2
    assert p.aside == (favorite,) and favorite not in p.mat  # removed, so it never refreshes
    # at the draft each card set aside is one extra pick (counted with the arrest picks)
    assert len(p.aside) + p.extra_picks == 1
    assert of_type(events, "LuminariesMoved")[-1].dst == "aside"
