"""Acceptance scenarios RE-56..RE-70: diplomacy, reorganize, declarations, errata, nations."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.road_to_enlightenment.combat import strengths
from domain.road_to_enlightenment.commands import (
    ArrestChoice,
    DeclareAttack,
    DeclareCensus,
    DeclareDiplomacy,
    DeclareLuminaryAction,
    DeclareReorganize,
    DefendWith,
    DefenseDone,
    ExchangeDecision,
    ExchangeOffer,
    ForgeAlliance,
    GiveGift,
    ParleyAnswer,
    Reroll,
    Respond,
    RussiaMove,
    SkipForge,
    SupportPass,
)
from domain.road_to_enlightenment.legal import legal_commands
from domain.road_to_enlightenment.state import Combat, pair_key, replace
from domain.road_to_enlightenment.turn_end import score_deltas
from tests.road_to_enlightenment.road_helpers import (
    at_slot,
    new_game,
    of_type,
    send,
    set_player,
    tx_for,
)


def cards(*ids: str) -> tuple[str, ...]:
    return tuple(sorted(f"re-{i}" for i in ids))


def empty_hands(state):  # type: ignore[no-untyped-def]
    for seat in range(len(state.players)):
        state = set_player(state, seat, hand=())
    return state


def at_war(state, a: str, b: str):  # type: ignore[no-untyped-def]
    return replace(state, diplomacy={**state.diplomacy, pair_key(a, b): "WAR"})


# -- H. diplomacy, reorganize, declarations -----------------------------------------------------
def gift_to_austria():  # type: ignore[no-untyped-def]
    state, _ = new_game(5)
    state = set_player(state, 1, discard=("re-R10", "re-K03"), coins=6)
    state = set_player(state, 4, discard=("re-G07",))
    state = at_slot(state, 1, 1, cards("KF2", "O05"))
    state, _ = send(state, 1, DeclareDiplomacy())
    state, _ = send(state, 1, SkipForge())
    state, _events = send(state, 1, GiveGift(4, cards("KF2", "O05")))
    assert state.players[1].coins == 1
    assert state.players[1].score == state.players[4].score == 6
    assert state.stage.kind == "offer"
    return state


@pytest.mark.parametrize("aus_accepts", [True, False])
def test_re56_gift_and_luminary_exchange(aus_accepts: bool) -> None:
    state = gift_to_austria()
    state, _ = send(state, 1, ExchangeOffer("re-R10"))
    state, events = send(state, 4, ExchangeOffer("re-G07"))
    assert of_type(events, "OffersRevealed")[0].offer == "re-R10"
    assert state.stage.kind == "accept"
    state, _ = send(state, 1, ExchangeDecision(True))
    state, _ = send(state, 4, ExchangeDecision(aus_accepts))
    if aus_accepts:
        assert "re-R10" in state.players[4].hand and "re-G07" in state.players[1].hand
    else:
        assert "re-R10" in state.players[1].discard and "re-G07" in state.players[4].discard


def test_re57_gift_restrictions() -> None:
    state = gift_to_austria()
    with pytest.raises(RuleViolation) as err:
        send(state, 1, ExchangeOffer("re-K03"))
    assert err.value.code == "religion_colour"
    state, _ = new_game(5)
    state = set_player(state, 3, coins=6)
    state = at_slot(state, 3, 1, cards("KF2", "O05"))
    state, _ = send(state, 3, DeclareDiplomacy())
    state, _ = send(state, 3, SkipForge())
    with pytest.raises(RuleViolation) as err:
        send(state, 3, GiveGift(0, cards("KF2", "O05")))
    assert err.value.code == "poland_no_gifts"
    state, _ = new_game(5)
    state = set_player(state, 4, eliminated=True)
    state = at_slot(state, 1, 1, cards("KF2", "O05"))
    state, _ = send(state, 1, DeclareDiplomacy())
    state, _ = send(state, 1, SkipForge())
    with pytest.raises(RuleViolation) as err:
        send(state, 1, GiveGift(4, cards("KF2", "O05")))
    assert err.value.code == "uncontrolled_no_gifts"


def test_re58_an_alliance_replaces_war_without_consent() -> None:
    state, _ = new_game(4)
    state = at_war(state, "ENG", "FRA")
    state = at_slot(state, 1, 1, cards("B03", "B13"))
    state, _ = send(state, 1, DeclareDiplomacy())
    state, _events = send(state, 1, ForgeAlliance("FRA", cards("B03", "B13")))
    assert state.allied("ENG", "FRA") and state.stage.kind == "gift" and state.stage.seat == 1


def test_re59_reorganize() -> None:
    deck = tuple(f"re-G0{i}" for i in range(1, 8))
    state, _ = new_game(2)
    state = set_player(state, 1, deck=deck)
    state = at_slot(state, 1, 1, ())
    state, events = send(state, 1, DeclareReorganize(None))
    peek = next(e for e in of_type(events, "LuminariesMoved") if e.dst == "peek")
    assert peek.cards == deck[:5] and peek.vis == "owner"
    from domain.road_to_enlightenment.commands import ReorganizePick
    from domain.viewers import Viewer

    assert GAME_redact(peek, Viewer(seat=0)).cards is None
    state, events = send(state, 1, ReorganizePick("re-G03"))
    assert "re-G03" in state.players[1].hand
    assert state.players[1].deck == ("re-G06", "re-G07", "re-G01", "re-G02", "re-G04", "re-G05")
    bottom = next(e for e in of_type(events, "LuminariesMoved") if e.dst == "deck")
    assert bottom.vis == "server"


def GAME_redact(event, viewer):  # type: ignore[no-untyped-def]
    from tests.road_to_enlightenment.road_helpers import GAME

    return GAME.redact(event, viewer)


def test_re60_census_declaration_legality() -> None:
    state, _ = new_game(4)
    state = replace(state, chits=("ART", "ART", "NONE", "NONE", "FINAL"))
    with pytest.raises(RuleViolation) as err:
        send(at_slot(state, 0, 1, ()), 0, DeclareCensus())
    assert err.value.code in ("census_not_allowed", "illegal_command")
    none_turn = replace(state, chits=("NONE",) * 4 + ("FINAL",))
    with pytest.raises(RuleViolation) as err:
        send(at_slot(none_turn, 0, 2, ()), 0, DeclareCensus())
    assert err.value.code == "census_not_allowed"
    state, _events = send(at_slot(state, 0, 2, ()), 0, DeclareCensus())
    assert state.census == (0,)


def test_re61_one_enhancement_per_action() -> None:
    state, _ = new_game(2)
    state = empty_hands(state)
    state = at_slot(state, 1, 1, cards("R02", "R03"))
    attacks = [
        c for c in legal_commands(state, 1) if isinstance(c, DeclareAttack) and c.target == "AMS"
    ]
    assert {c.enhancement for c in attacks} == {None, "re-R02", "re-R03"}
    state, _ = send(state, 1, DeclareAttack("AMS", "SEA", 0, "re-R02"))
    state, events = send(state, 0, SupportPass(), 1, 1)
    assert of_type(events, "CombatResolved")[0].attack == 4 + 5 + 5 + 2  # MIL 9, navy 5, MIGHT 2
    assert "enhancement" not in DeclareCensus.__attrs_attrs__.__dict__  # census takes none


# -- I. errata cards and nation powers ----------------------------------------------------------
@pytest.mark.parametrize(
    ("coins", "dice", "winner", "mode"),
    [(0, (1, 1), "ENG", "TRIUMPH"), (0, (2, 2), "NEU", "FORCE"), (5, (1, 1), "ENG", "TRIUMPH")],
)
def test_re62_oliver_cromwell_triumph(
    coins: int, dice: tuple[int, int], winner: str, mode: str
) -> None:
    state, _ = new_game(2)
    state = empty_hands(state)
    state = at_slot(state, 1, 1, cards("K01"))
    state, _ = send(state, 1, DeclareAttack("AMS", "SEA", coins, "re-K01"))
    state, events = send(state, 0, SupportPass(), *dice)
    resolved = of_type(events, "CombatResolved")[0]
    assert (resolved.winner, resolved.mode) == (winner, mode)
    assert (
        resolved.attack - resolved.defense
        == {(0, (1, 1)): -3, (0, (2, 2)): -5, (5, (1, 1)): 2}[(coins, dice)]
    )


def test_re63_gondi_levy_adds_a_die() -> None:
    state, _ = new_game(3)
    state = empty_hands(state)
    state = replace(at_war(state, "SPA", "FRA"), occupant={"MAR": "SPA"})
    state = set_player(state, 0, hand=("re-U02",))
    state = at_slot(state, 2, 1, ())
    state, _ = send(state, 2, DeclareAttack("PAR", "LAND", 0, None))
    state, _ = send(state, 0, Respond(("re-U02",)))
    assert "re-U02" in state.players[0].discard and state.combat.def_cards == ()
    state, _ = send(state, 0, DefenseDone(0))
    state, events = send(state, 1, SupportPass(), 1, 2, 3, 4)
    assert len(of_type(events, "DiceRolled")[0].values) == 4


@pytest.mark.parametrize(("nation", "coins", "prestige"), [("POL", 0, 0), ("FRA", 4, 1)])
def test_re64_pieter_de_graeff_colony(nation: str, coins: int, prestige: int) -> None:
    state, _ = new_game(4)
    seat = state.seat_of(nation)
    before = state.players[seat]
    state = at_slot(state, seat, 1, ("re-O01",))
    state, _ = send(state, seat, DeclareLuminaryAction("re-O01", None, -1))
    after = state.players[seat]
    assert (after.coins - before.coins, after.score - before.score) == (coins, prestige)
    assert after.aside == ("re-O01",)


def test_re65_johan_van_banchem_arrest() -> None:
    state, _ = new_game(4)
    state = set_player(state, 1, hand=("re-B13", "re-KF1"))
    state = at_slot(state, 0, 1, ("re-B02",))
    state, _ = send(state, 0, DeclareLuminaryAction("re-B02", None, 1))
    assert (state.stage.kind, state.stage.seat) == ("arrest", 1)
    assert legal_commands(state, 1) == [ArrestChoice("re-B13")]  # favorites cannot be taken
    state, _events = send(state, 1, ArrestChoice("re-B13"))
    assert "re-B13" in state.box and state.players[1].extra_picks == 1
    assert len(state.players[1].hand) == 1


@pytest.mark.parametrize("sweden_coins", [4, 7])
def test_re66_cornelis_de_graeff_parley(sweden_coins: int) -> None:
    state, _ = new_game(4)
    state = empty_hands(at_war(state, "SWE", "POL"))
    state = set_player(state, 2, coins=sweden_coins)
    state = set_player(state, 3, hand=("re-B01",))
    state = at_slot(state, 2, 1, cards("R06"))
    state, _ = send(state, 2, DeclareAttack("WAR", "LAND", 2, None))
    state, events = send(state, 3, Respond(("re-B01",)))
    assert state.players[3].aside == ("re-B01",)
    if sweden_coins == 4:
        assert of_type(events, "CombatResolved")[0].mode == "CANCELLED"
        assert state.players[2].coins == 2 and "re-R06" in state.players[2].discard
        assert state.relation("SWE", "POL") == "WAR"
    else:
        assert (state.stage.kind, state.stage.seat) == ("parley", 2)
        pol_coins = state.players[3].coins
        state, _ = send(state, 2, ParleyAnswer(True))
        assert state.players[3].coins == pol_coins + 3 and state.stage.kind == "defend"


def test_re67_england_balance_of_power() -> None:
    state, _ = new_game(3)
    attack = Combat(1, "FRA", 0, "BOR", "SEA", None, 0, dice=())
    a, _ = strengths(replace(state, slot=1), attack)
    assert a == 5 + 3  # turn 1: everybody leads
    state, _ = new_game(4)
    for seat, score in ((0, 8), (1, 8), (2, 6)):
        state = set_player(state, seat, score=score)
    state = replace(state, slot=1)
    assert strengths(state, Combat(1, "SWE", 2, "GOT", "SEA", None, 0))[0] == 5
    assert strengths(state, Combat(1, "FRA", 0, "BOR", "SEA", None, 0))[0] == 5 + 3
    assert strengths(state, Combat(0, "ENG", 1, "LON", "SEA", None, 0))[1] == 5 + 3


def test_re68_russia_westernization_and_steppe_patience() -> None:
    state, _ = new_game(6)
    rus = state.seat_of("RUS")
    state = set_player(state, rus, art=8)
    state = at_slot(state, rus, 1, ())
    state, _ = send(state, rus, DeclareReorganize(None))
    assert (state.stage.kind, state.stage.seat) == ("russia", rus)
    state, _ = send(state, rus, RussiaMove("ART"))
    assert (state.players[rus].art, state.players[rus].art_locked) == (9, True)
    state = at_slot(state, rus, 2, ())
    state, _ = send(state, rus, DeclareReorganize(None))
    assert state.stage.kind != "russia"
    state = set_player(state, rus, sci=10, art=9)
    with_power = score_deltas(state)[rus]
    import attrs

    from domain.road_to_enlightenment.content import content

    nations = content().nations
    original = nations["RUS"]
    nations["RUS"] = attrs.evolve(original, powers=("WESTERNIZATION",))  # type: ignore[index]
    try:
        without = score_deltas(state)[rus]
    finally:
        nations["RUS"] = original  # type: ignore[index]
    assert with_power - without == 2


def test_re69_poland_rerolls_before_the_ideas_reroll() -> None:
    state, _ = new_game(5)
    state = empty_hands(at_war(state, "AUS", "POL"))
    state = at_slot(state, 4, 1, cards("G04"))
    state, _ = send(state, 4, DeclareAttack("KRA", "LAND", 0, None))
    state, _ = send(state, 3, Respond(()))
    state, _ = send(state, 3, DefenseDone(0))
    for seat in (0, 1):
        state, _ = send(state, seat, SupportPass())
    state, events = send(state, 2, SupportPass(), 1, 1)
    assert (state.stage.kind, state.stage.seat, state.stage.data) == ("reroll", 3, "POLAND")
    state, events = send(state, 3, Reroll(0), 5)
    assert state.combat.dice == (5, 1)
    assert (state.stage.kind, state.stage.seat, state.stage.data) == ("reroll", 4, "IDEAS")
    state, events = send(state, 4, Reroll(0), 2)
    rerolls = of_type(events, "DieRerolled")
    assert rerolls[0].new == 2
    resolved = of_type(events, "CombatResolved")[0]
    assert resolved.defense == 4 + 3  # army 4 + dice [2, 1]


def test_re70_austria_fortress_and_sweden_plunder() -> None:
    state, _ = new_game(5)
    state = empty_hands(at_war(state, "SWE", "AUS"))
    state = replace(state, occupant={"DRE": "SWE"})
    state = set_player(state, 4, hand=("re-R05",))
    coins = state.players[2].coins
    state = at_slot(state, 2, 1, cards("RF1", "RF2"))
    state, _ = send(state, 2, DeclareAttack("PRA", "LAND", 0, None))
    state, _ = send(state, 4, Respond(()))
    state, _ = send(state, 4, DefendWith("re-R05"))
    state, _ = send(state, 4, DefenseDone(0))
    for seat in (3, 0):
        state, _ = send(state, seat, SupportPass())
    state, events = send(state, 1, SupportPass(), 1, 2)
    resolved = of_type(events, "CombatResolved")[0]
    assert (resolved.attack, resolved.defense, resolved.mode) == (17, 12, "FORCE")
    assert state.players[2].coins == coins + 2 and state.occupant["PRA"] == "SWE"


def test_tx_helper_scripted_dice() -> None:
    tx = tx_for(new_game(2)[0], 6)
    assert tx.rng.die() == 6


def test_exchange_offers_stay_between_the_two_players() -> None:
    from domain.viewers import SPECTATOR, Viewer
    from tests.road_to_enlightenment.road_helpers import GAME

    state = gift_to_austria()
    state, _ = send(state, 1, ExchangeOffer("re-R10"))
    state, events = send(state, 4, ExchangeOffer("re-G07"))
    for viewer in (SPECTATOR, Viewer(seat=0)):
        for e in events:
            r = GAME.redact(e, viewer)
            assert "re-R10" not in repr(r) and "re-G07" not in repr(r)
        assert GAME.view(state, viewer)["stage"]["data"] == ""
    assert "re-G07" in repr([GAME.redact(e, Viewer(seat=1)) for e in events])


def test_the_exchange_of_offers_is_narrated_for_every_audience() -> None:
    """No random game reaches an exchange of offers: the contract's narrator check is fed
    the real events of one (each seat reads its line, nobody else the cards)."""
    from domain.road_to_enlightenment import GAME_TYPE
    from tests.game_contract import check_narrator
    from tests.test_narration import content_id_set

    state = gift_to_austria()
    state, _ = send(state, 1, ExchangeOffer("re-R10"))
    state, events = send(state, 4, ExchangeOffer("re-G07"))
    assert of_type(events, "OffersRevealed")
    check_narrator(GAME_TYPE, content_id_set("road-to-enlightenment"), extra=events)
