"""Each enforced rule: given a state, a command is accepted (events) or rejected (a code)."""

from __future__ import annotations

import attrs
import pytest

from domain.campus_galli.commands import (
    Beg,
    ChooseSource,
    DeclareBeg,
    DrawFromBag,
    EndTurn,
    ExchangeTiles,
    PassSpecial,
    PlaceSection,
    SelectActionCard,
    SpecialExpand,
    TakeFromHut,
)
from domain.campus_galli.events import BuildingCompleted, MonkPlaced, SectionTaken, TilesGained
from domain.campus_galli.state import Phase, Turn
from domain.errors import DomainError, GameOver, InvalidCommand, NotYourTurn, UnknownCommand
from domain.highcard.game import Draw
from tests.campus_galli.cg_support import GAME, apply, new_game
from tests.campus_galli.test_scenarios import fixture


def code_of(state, seat, command) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(DomainError) as err:
        apply(state, seat, command)
    return err.value.code


def test_selection_is_secret_final_and_from_the_hand() -> None:
    state, _ = new_game(1, 2)
    hand = state.players[0].hand
    assert code_of(state, 0, SelectActionCard("L1-R99")) == "not_in_hand"
    state, events = apply(state, 0, SelectActionCard(hand[0]))
    assert state.phase == "select"
    assert (
        GAME.redact(
            events[0],
            attrs.evolve(
                GAME.view,
            )
            if False
            else __import__("domain.viewers").viewers.seat_viewer(1),
        ).choice
        is None
    )  # type: ignore[attr-defined]
    assert code_of(state, 0, SelectActionCard(hand[1])) == "not_your_turn"
    view1 = GAME.view(state, __import__("domain.viewers").viewers.seat_viewer(1))  # type: ignore[attr-defined]
    assert hand[0] not in str(view1)
    state, events = apply(state, 1, SelectActionCard(state.players[1].hand[0]))
    assert type(events[1]).__name__ == "ChoicesRevealed"
    assert state.players[0].selected == hand[0]


def test_unknown_and_malformed_commands() -> None:
    state, _ = new_game(1, 2)
    with pytest.raises(UnknownCommand):
        GAME.decide(state, 0, Draw(), None)  # type: ignore[arg-type]
    with pytest.raises(InvalidCommand):
        apply(state, 0, SelectActionCard(7))  # type: ignore[arg-type]
    with pytest.raises(InvalidCommand):
        apply(state, 5, SelectActionCard("L1-R01"))


@pytest.mark.parametrize(
    ("x", "y", "o", "code"),
    [
        (8, 7, 0, "tree"),  # (9,7) is a tree in the cloister courtyard
        (2, 1, 0, "parchment"),  # D (abbot's house) is on its parchment side
        (1, 8, 0, "occupied"),
        (0, 4, 0, "no_wooden_space"),
        (20, 13, 0, "off_plan"),
        (6, 6, 3, "bad_orientation"),
    ],
)
def test_building_rules(x: int, y: int, o: int, code: str) -> None:
    state = fixture(1, 2, [("P-B-O4", "O4", 1, 8, 0)], "L1-R05")
    state, _ = apply(state, 0, TakeFromHut("H-G-D2"))
    assert code_of(state, 0, PlaceSection(x, y, o)) == code


def test_grass_is_allowed_but_no_master_builder() -> None:
    state = fixture(1, 2, [], "L1-R05")
    state, _ = apply(state, 0, TakeFromHut("H-G-D2"))
    # (5,6) grass + (6,6)? no: (6,6) is grass too; use (0,6)-(1,6): grass + C's wooden space.
    state, events = apply(state, 0, PlaceSection(0, 6, 0))
    assert not any(isinstance(e, MonkPlaced) and e.kind == "section" for e in events)


def test_red_card_colour_and_hut() -> None:
    state = fixture(1, 2, [], "L1-R05")  # green only
    assert code_of(state, 0, TakeFromHut("H-R-D2")) == "section_not_allowed"
    assert code_of(state, 0, TakeFromHut("P-G-D2")) == "not_in_hut"
    assert code_of(state, 0, DrawFromBag("D2")) == "shape_not_allowed"


def test_bag_draw_is_random_among_the_shape() -> None:
    state = fixture(1, 2, [], "L1-B01")  # blue: D2 from the bag
    state, events = apply(state, 0, DrawFromBag("D2"))
    taken = next(e for e in events if isinstance(e, SectionTaken))
    assert taken.section.startswith("P-") and taken.section.endswith("-D2")
    assert taken.section not in state.bag


def test_double_card_turn_order_hut_takes_the_large_number() -> None:
    # X02: bag 17 / hut 50. R01: 49. Hut -> seat 0 acts after seat 1.
    state, _ = new_game(1, 2)
    s0 = state.with_player(0, attrs.evolve(state.players[0], hand=("L1-X02", "L1-B01")))
    s0 = s0.with_player(1, attrs.evolve(s0.players[1], hand=("L1-R01", "L1-B02")))
    s0, _ = apply(s0, 0, SelectActionCard("L1-X02"))
    s0, _ = apply(s0, 1, SelectActionCard("L1-R01"))
    assert s0.turn is not None and s0.turn.seat == 0 and s0.turn.stage == "source"
    hut, _ = apply(s0, 0, ChooseSource("hut"))
    assert hut.turn is not None and hut.turn.seat == 1
    assert hut.queue == ((50, 0, "hut"),)
    bag, _ = apply(s0, 0, ChooseSource("bag"))
    assert bag.turn is not None and bag.turn.seat == 0 and bag.turn.stage == "act"


def test_not_your_turn() -> None:
    state = fixture(1, 2, [], "L1-R05")
    with pytest.raises(NotYourTurn):
        apply(state, 1, TakeFromHut("H-G-D2"))


def test_level1_has_no_begging_or_tiles() -> None:
    state = fixture(1, 2, [], "L1-R05")
    assert code_of(state, 0, DeclareBeg()) == "no_begging"
    assert code_of(state, 0, ExchangeTiles(("R", "R", "R"), "B")) == "no_tiles"


def _level2(card: str, tiles: tuple[int, ...]) -> object:
    state = fixture(2, 2, [], card)
    supply = tuple(12 - t for t in tiles)
    return attrs.evolve(
        state.with_player(0, attrs.evolve(state.players[0], tiles=tiles)), tile_supply=supply
    )


def test_level2_payment_rules() -> None:
    state = _level2("L1-R01", (0, 1, 1, 1))
    assert code_of(state, 0, TakeFromHut("H-R-D2", ("R",))) == "missing_tiles"
    assert code_of(state, 0, TakeFromHut("H-R-D2", ("B",))) == "wrong_payment"
    assert code_of(state, 0, TakeFromHut("H-R-D2", ("B", "R"))) == "bad_tiles"  # order R, B, G, Y
    state = _level2("L1-R01", (1, 0, 0, 0))
    state2, _events = apply(state, 0, TakeFromHut("H-R-D2", ("R",)))
    assert state2.players[0].tiles == (0, 0, 0, 0)


def test_level2_tiles_for_a_lay() -> None:
    # A red domino fully on the church covering the red symbol at (8,3): 1 + 1 = 2 red tiles.
    state = _level2("L1-R01", (1, 1, 1, 1))
    state, _ = apply(state, 0, TakeFromHut("H-R-D2", ("R",)))
    state, events = apply(state, 0, PlaceSection(8, 3, 0))
    gained = [e for e in events if isinstance(e, TilesGained)]
    assert gained[0].tiles == ("R", "R")


def test_angel_cannot_beg_and_begging_gives_two_tiles() -> None:
    state = _level2("ANG-1", (0, 0, 0, 0))
    assert code_of(state, 0, DeclareBeg()) == "angel_cannot_beg"
    state = _level2("L1-R01", (0, 0, 0, 0))
    state = attrs.evolve(state, queue=())
    state, _ = apply(state, 0, DeclareBeg())
    assert state.turn is not None and state.turn.stage == "beg"
    state, events = apply(state, 0, Beg(("G", "Y")))
    assert state.players[0].tiles == (0, 0, 1, 1)
    assert type(events[0]).__name__ == "Begged"
    assert "L1-R01" in state.players[0].used


def test_exchange_three_for_one() -> None:
    state = _level2("L1-R01", (3, 0, 0, 0))
    assert code_of(state, 0, ExchangeTiles(("R", "R", "B"), "G")) == "missing_tiles"
    state, _ = apply(state, 0, ExchangeTiles(("R", "R", "R"), "G"))
    assert state.players[0].tiles == (0, 0, 1, 0)


def test_level1_completion_flips_a_building() -> None:
    # G (house for distinguished guests) is 4x2 at x16-19 y8-9: two O4 complete it.
    state = fixture(1, 2, [("H-Y-O4", "O4", 16, 8, 0)], "L1-R15", construction=("A", "B", "C", "G"))
    state, _ = apply(state, 0, TakeFromHut("H-R-O4"))
    state, events = apply(state, 0, PlaceSection(18, 8, 0))
    assert BuildingCompleted("G") in events
    assert state.turn is not None and state.turn.stage == "flip"
    from domain.campus_galli.commands import FlipBuilding

    assert code_of(state, 0, FlipBuilding("A")) == "not_parchment"
    state, events = apply(state, 0, FlipBuilding("K"))
    assert "K" in state.construction
    assert MonkPlaced(0, "grass", building="K") in events


def test_special_phase_expand_and_pass() -> None:
    state, _ = new_game(2, 2)
    state = attrs.evolve(
        state, phase=Phase.SPECIAL, special_order=(0, 1), special_next=0, turn=None, queue=()
    )
    state = state.with_player(0, attrs.evolve(state.players[0], tiles=(1, 2, 1, 0)))
    assert code_of(state, 1, PassSpecial()) == "not_your_turn"
    assert code_of(state, 0, SpecialExpand("A")) == "not_parchment"
    assert code_of(state, 0, SpecialExpand("F")) == "missing_tiles"  # Y Y B
    state2, events = apply(state, 0, SpecialExpand("D"))  # B B G
    assert "D" in state2.construction
    assert state2.players[0].tiles == (1, 0, 0, 0)
    assert MonkPlaced(0, "grass", building="D") in events


def test_game_over_rejects_everything() -> None:
    state, _ = new_game(1, 2)
    state = attrs.evolve(state, phase=Phase.OVER)
    with pytest.raises(GameOver):
        apply(state, 0, EndTurn())


def test_solo_must_be_cooperative() -> None:
    from domain.errors import InvalidOptions
    from domain.game import validate_options

    with pytest.raises(InvalidOptions):
        validate_options(GAME, {"players": 1})
    assert validate_options(GAME, {"players": 1, "mode": "cooperative"})["level"] == 1


def test_turn_scratch_is_unused_by_other_seats() -> None:
    state = fixture(1, 2, [], "L1-R05")
    assert GAME.legal_commands(state, 1) == []
    assert isinstance(state.turn, Turn)
