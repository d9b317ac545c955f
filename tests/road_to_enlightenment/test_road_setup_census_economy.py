"""Acceptance scenarios RE-01..RE-25: setup, modes, census, economy and scoring."""

from __future__ import annotations

import pytest

from domain.road_to_enlightenment.commands import HelpUpkeep
from domain.road_to_enlightenment.content import content
from domain.road_to_enlightenment.phases import census_contribution, resolve_census
from domain.road_to_enlightenment.state import replace
from domain.road_to_enlightenment.turn_end import phase3_resolve, score, score_deltas
from tests.road_to_enlightenment.road_helpers import (
    GAME,
    act,
    new_game,
    of_type,
    random_playout,
    send,
    set_player,
    tx_for,
)


def nations(state):  # type: ignore[no-untyped-def]
    return [p.nation for p in state.players]


# -- A. setup and modes -------------------------------------------------------------------------
def test_re01_nations_and_starting_order_5p() -> None:
    state, _ = new_game(5)
    assert nations(state) == ["FRA", "ENG", "SWE", "POL", "AUS"]
    assert state.order == (0, 1, 2, 3, 4)
    for n in ("SPA", "RUS", "OTT"):
        assert state.seat_of(n) == -1
    rel = [content().nations[n].religion for n in nations(state)]
    assert rel.count("CATH") == 3 and rel.count("ANTI") == 2


def test_random_nations_are_a_recorded_permutation_and_keep_the_table_turn_order() -> None:
    table = content().nations_for(5)
    dealt = set()
    for seed in range(8):
        state, events = new_game(5, seed=seed, nations="random")
        assigned = of_type(events, "NationsAssigned")[0]
        assert assigned.method == "RANDOM"
        assert sorted(assigned.nations) == sorted(table)  # the nations in use never change
        assert nations(state) == list(assigned.nations)
        # "Nations, in starting turn order": the table order, whoever sits where
        assert [nations(state)[s] for s in state.order] == list(table)
        dealt.add(assigned.nations)
    assert len(dealt) > 1  # the deal depends on the recorded random outcome
    assert GAME.seat_labels({"players": 5, "nations": "random"})[0] == "Player 1"
    assert GAME.seat_labels({"players": 5})[0] == content().nations["FRA"].name


def test_random_nations_replay_from_the_log_without_rolling() -> None:
    state, events = new_game(4, seed=3, nations="random")
    initial = GAME.initial_state({"players": 4, "nations": "random"})
    replayed = initial
    for e in events:
        replayed = GAME.evolve(replayed, e)
    assert replayed == state


def test_re02_starting_resources_7p() -> None:
    state, _ = new_game(7)
    coins = {p.nation: p.coins for p in state.players}
    assert coins == {"FRA": 7, "ENG": 6, "SPA": 11, "SWE": 5, "POL": 5, "AUS": 6, "RUS": 5}
    assert all(p.score == 5 for p in state.players)
    assert [(p.sci, p.art) for p in state.players if p.nation == "FRA"] == [(2, 2)]
    assert all((p.sci, p.art) == (0, 0) for p in state.players if p.nation != "FRA")
    assert state.religion == 0 and state.turn == 1 and state.medallions == {}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_re03_starting_hand_of_england(players: int) -> None:
    state, events = new_game(players, seed=players)
    eng = state.players[1]
    lums = content().luminaries
    favs = [lums[c] for c in eng.hand if lums[c].favorite]
    lessers = [lums[c] for c in eng.hand if not lums[c].favorite]
    assert len(eng.hand) == 8 and len(favs) == 3
    assert sorted(f.color for f in favs)[0:0] == []
    assert {f.color for f in favs} & {"PINK"} and not any(f.color == "PURPLE" for f in favs)
    assert sum(f.color in ("RED", "BLUE") for f in favs) == 1
    assert sum(f.color in ("ORANGE", "GREEN") for f in favs) == 1
    assert sorted(x.color for x in lessers) == ["BLUE", "GREEN", "ORANGE", "PINK", "RED"]
    assert eng.deck == () and eng.discard == ()
    # the face-up rows were dealt before any player's lesser draw
    moves = of_type(events, "LuminariesMoved")
    first_row = next(i for i, e in enumerate(moves) if e.dst.startswith("row:"))
    first_draw = next(
        i for i, e in enumerate(moves) if e.src.startswith("pile:") and e.dst == "hand"
    )
    assert first_row < first_draw
    assert len(state.vault) == 24 - 3 * players


def test_re04_initial_alliances_2p() -> None:
    state, _ = new_game(2)
    assert len(state.diplomacy) == 10
    assert state.allied("RUS", "SPA") and state.allied("AUS", "SWE")
    assert "WAR" not in state.diplomacy.values()
    assert not state.allied("FRA", "ENG")


def test_re05_short_game_chits_and_end() -> None:
    state, _ = new_game(3, "short", seed=5)
    assert state.chits[0] == "NONE" and state.chits[4] == "FINAL"
    assert sorted(state.chits[1:4]) == ["ART", "RELIGION", "SCIENCE"]
    final, log = random_playout(3, "short", 5, check=False)
    names = [type(e).__name__ for e in log]
    end = names.index("GameEnded")
    last_turn_start = max(i for i, n in enumerate(names) if n == "TurnBegan")
    assert "ScoringApplied" in names[last_turn_start:end]
    after_scoring = names[names.index("ScoringApplied") :]
    assert "DraftOwed" not in after_scoring  # no phase 5 on the final turn
    assert final.turn == 5


def test_re06_long_game_chits_and_scoring_twice() -> None:
    state, _ = new_game(4, "long", seed=6)
    assert state.chits[0] == state.chits[4] == "NONE" and state.chits[8] == "FINAL"
    assert sorted(state.chits[1:4]) == sorted(state.chits[5:8]) == ["ART", "RELIGION", "SCIENCE"]
    for seed in range(30):
        final, log = random_playout(4, "long", seed, check=False)
        if final.turn == 9:
            break
    names = [type(e).__name__ for e in log]
    assert names.count("ScoringApplied") == 2
    assert names.index("ScoringApplied") < names.index("TurnBegan", names.index("ScoringApplied"))


# -- B. census ----------------------------------------------------------------------------------
def census_state(players: int, kind: str, stacks: dict[int, tuple[str, ...]], order=None):  # type: ignore[no-untyped-def]
    state, _ = new_game(players)
    for seat, cards in stacks.items():
        state = set_player(state, seat, slots=((), tuple(f"re-{c}" for c in cards), ()))
    chits = list(state.chits)
    chits[0] = kind
    return replace(
        state,
        census=tuple(stacks),
        chits=tuple(chits),
        order=tuple(order) if order else state.order,
    )


def test_re07_science_census_winner_second_others() -> None:
    state = census_state(
        4,
        "SCIENCE",
        {0: ("GF1", "G01", "G12"), 1: ("G07", "G05", "G09"), 2: ("G04", "G06", "K10"), 3: ("G03",)},
    )
    tx = tx_for(state)
    resolve_census(tx, "SCIENCE")
    s = tx.state
    assert [census_contribution(state, i, "SCIENCE") for i in range(4)] == [11, 9, 7, 3]
    assert [p.sci for p in s.players] == [8, 3, 1, 0]
    assert s.medallions == {"SCI6": 0}
    assert [p.sci_locked for p in s.players] == [True, True, True, False]


def test_re08_census_tie_goes_by_turn_order() -> None:
    state = census_state(
        2, "ART", {1: ("O13", "O10", "O05"), 0: ("O07", "O12", "O14")}, order=(1, 0)
    )
    state = set_player(state, 0, art=0)
    assert census_contribution(state, 0, "ART") == census_contribution(state, 1, "ART") == 8
    tx = tx_for(state)
    resolve_census(tx, "ART")
    steps = dict(of_type(tx.events, "CensusResolved")[0].steps)
    assert steps == {1: 5, 0: 3}


def test_re09_art_contribution_is_the_lower_stat() -> None:
    state = census_state(2, "ART", {0: ("O03", "O11")})
    assert census_contribution(state, 0, "ART") == 3


def test_re10_only_real_supporters_rank() -> None:
    state = census_state(4, "ART", {1: (), 2: ("O03", "O11")})
    tx = tx_for(state)
    resolve_census(tx, "ART")
    s = tx.state
    assert s.players[2].art == 4
    assert [s.players[i].art for i in (0, 1, 3)] == [2, 0, 0]


def test_re11_religion_census_pooled_with_margin_bonus() -> None:
    state = census_state(4, "RELIGION", {0: ("U10", "U11"), 3: ("U04", "U13"), 1: ("K14",)})
    tx = tx_for(state)
    resolve_census(tx, "RELIGION")
    assert not of_type(tx.events, "DiceRolled")
    assert tx.state.religion == -4


def test_re12_minority_rolls_3d6() -> None:
    state = census_state(3, "RELIGION", {0: ("U10", "U03"), 2: ("U05", "U14"), 1: ("K04",)})
    assert [census_contribution(state, s, "RELIGION") for s in (0, 2, 1)] == [5, 4, 2]
    tx = tx_for(state, 5, 4, 3)
    resolve_census(tx, "RELIGION")
    dice = of_type(tx.events, "DiceRolled")
    assert dice[0].values == (5, 4, 3) and dice[0].side == "ANTI"
    assert tx.state.religion == 4  # ANTI 14 vs CATH 9: 3 + 1 steps


def test_re13_religion_tie_no_movement() -> None:
    state = census_state(4, "RELIGION", {0: ("U05",), 3: ("U12",), 1: ("K04",), 2: ("K01", "B11")})
    tx = tx_for(state)
    resolve_census(tx, "RELIGION")
    assert tx.state.religion == 0 and not of_type(tx.events, "DiceRolled")


def test_re14_mismatched_religious_stat_excludes_the_whole_card() -> None:
    state = census_state(2, "RELIGION", {0: ("U04", "RF1")})
    assert census_contribution(state, 0, "RELIGION") == 2


# -- C. economy ---------------------------------------------------------------------------------
def phase3_state(players: int, slot3: dict[int, tuple[str, ...]], choices=(), **per_seat):  # type: ignore[no-untyped-def]
    state, _ = new_game(players)
    for seat in range(players):
        cards = tuple(f"re-{c}" for c in slot3.get(seat, ()))
        state = set_player(state, seat, slots=((), (), cards), revealed=(True, True, True))
    for seat, changes in per_seat.items():
        state = set_player(state, int(seat[1:]), **changes)
    return replace(state, p3=tuple(choices))


def income(events, seat):  # type: ignore[no-untyped-def]
    return sum(
        e.delta for e in of_type(events, "CoinsChanged") if e.seat == seat and e.reason == "income"
    )


def test_re15_catholic_income_allocation() -> None:
    for choice, expected in (("WEA", 5), ("POL", 4)):
        state = phase3_state(2, {0: ("B09", "U14")}, ((0, (choice, "")),))
        tx = tx_for(state)
        phase3_resolve(tx)
        assert income(tx.events, 0) == expected


def test_re16_shortfall_rounds_the_loss_up() -> None:
    state = phase3_state(2, {}, s0={"coins": 0}, s1={"coins": 0})
    tx = tx_for(state)
    phase3_resolve(tx)
    assert [p.score for p in tx.state.players] == [3, 4]


def test_re17_foreign_cities_are_lost_before_prestige() -> None:
    state = phase3_state(4, {}, s2={"coins": 1})
    state = replace(state, occupant={"COP": "SWE", "AMS": "SWE"})
    tx = tx_for(state)
    phase3_resolve(tx)
    assert tx.state.stage.kind == "help" and tx.state.stage.seat == 0 and tx.state.stage.other == 2
    state, events = send(tx.state, 0, HelpUpkeep(0))
    assert of_type(events, "CitiesAbandoned")[0].cities == ("AMS", "COP")
    assert state.occupant == {}
    assert state.players[2].score == 4


def test_re18_an_ally_pays() -> None:
    state = phase3_state(4, {}, s0={"coins": 7}, s3={"coins": 0})
    tx = tx_for(state)
    phase3_resolve(tx)
    assert tx.state.stage.kind == "help" and tx.state.stage.seat == 0
    assert tx.state.players[0].coins == 4
    state, _ = send(tx.state, 0, HelpUpkeep(2))
    assert state.players[0].coins == 2
    assert state.players[3].score == 5


def test_re19_upkeep_elimination() -> None:
    state = phase3_state(2, {}, s0={"coins": 0, "score": 1})
    tx = tx_for(state)
    phase3_resolve(tx)
    elim = of_type(tx.events, "PlayerEliminated")
    assert elim and elim[0].seat == 0 and elim[0].cause == "UPKEEP"
    assert tx.state.order == (1,) and tx.state.over  # one player left: the game ends


def test_re20_treasury_limit_applies_after_upkeep() -> None:
    state = phase3_state(4, {3: ("BF2", "B09")}, s3={"coins": 8})
    tx = tx_for(state)
    phase3_resolve(tx)
    trims = [
        e
        for e in of_type(tx.events, "CoinsChanged")
        if e.seat == 3 and e.reason == "treasury limit"
    ]
    assert income(tx.events, 3) == 6 and trims[0].delta == -2
    assert tx.state.players[3].coins == 10


def test_re21_turn_order_bids() -> None:
    state = phase3_state(
        4,
        {0: ("R05",), 1: ("K15", "K10"), 2: ("R06", "R11")},
        ((1, ("", "SCI")), (2, ("", "SCI"))),
    )
    tx = tx_for(state)
    phase3_resolve(tx)
    ordered = of_type(tx.events, "TurnOrderSet")[0]
    assert dict(ordered.bids) == {0: 3, 1: 4, 2: 4, 3: 0}
    assert ordered.order == (1, 2, 0, 3)
    # England's 6 [Anti-Catholicism] put on [military] instead: MIL 10, SCI 1, bid 1
    state = replace(state, p3=((1, ("", "MIL")), (2, ("", "SCI"))))
    tx = tx_for(state)
    phase3_resolve(tx)
    assert dict(of_type(tx.events, "TurnOrderSet")[0].bids)[1] == 1


# -- D. scoring ---------------------------------------------------------------------------------
def test_re22_scoring_table() -> None:
    state, _ = new_game(4)
    tracks = {0: (10, 3), 1: (7, 3), 2: (4, 5), 3: (0, 4)}
    for seat, (sci, art) in tracks.items():
        state = set_player(state, seat, sci=sci, art=art)
    state = replace(state, occupant={"AMS": "FRA", "SWI": "FRA", "MAR": "ENG"}, religion=-2)
    assert score_deltas(state) == {0: 6, 1: 2, 2: 4, 3: 2}


def test_re23_tie_rules_for_highest_and_lowest() -> None:
    state, _ = new_game(4)
    for seat, sci in ((3, 9), (0, 9), (1, 0), (2, 0)):
        state = set_player(state, seat, sci=sci, art=5 + seat)
    state = replace(state, order=(3, 0, 1, 2))
    d = score_deltas(state)
    # art 5..8: all first half (+1); POL (seat 3, ART 8) highest, FRA (ART 5) lowest
    art = {0: 1 - 1, 1: 1, 2: 1, 3: 1 + 2}
    sci = {3: 2 + 2, 0: 2, 1: -1, 2: -1}
    assert d == {
        s: art[s] + sci[s] + (2 if s in (0, 3) and state.religion < 0 else 0) for s in range(4)
    }


def test_re24_and_re26_science_wrap_gives_five_and_keeps_medallions() -> None:
    from domain.road_to_enlightenment.effects import advance

    state, _ = new_game(2)
    state = set_player(state, 1, sci=15, score=14)
    state = replace(state, medallions={"SCI12": 1})
    tx = tx_for(state)
    advance(tx, 1, "SCI", 3)
    eng = tx.state.players[1]
    assert (eng.sci, eng.score) == (1, 19)
    assert of_type(tx.events, "MarkerMoved")[0].wrapped == 1
    assert tx.state.medallions == {"SCI12": 1}


def test_re25_scoring_floors_at_zero() -> None:
    state, _ = new_game(4)
    state = set_player(state, 3, score=1, sci=0, art=3)
    state = set_player(state, 0, art=4)
    state = replace(state, occupant={"KRA": "SWE", "DAN": "SWE"})
    assert score_deltas(state)[3] == -4
    tx = tx_for(state)
    score(tx)
    assert tx.state.players[3].score == 0 and not tx.state.players[3].eliminated


def test_gift_of_prestige_is_checked_by_act_helper() -> None:
    # act() is the plain path: a real command in a fresh game
    from domain.road_to_enlightenment.commands import ConfirmSlots

    state, _ = new_game(2)
    state, events = act(state, 0, ConfirmSlots())
    assert of_type(events, "ChoiceCommitted")[0].seat == 0
