"""Acceptance scenarios RE-27..RE-42: tracks, medallions, draft, refresh and refill."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.road_to_enlightenment.commands import DraftPick, RefillHand
from domain.road_to_enlightenment.effects import advance, shift_religion
from domain.road_to_enlightenment.state import DraftRound, Stage, StageKind, replace
from domain.road_to_enlightenment.turn_end import draft_finish, draft_start
from tests.road_to_enlightenment.road_helpers import new_game, of_type, send, set_player, tx_for


def tracks(players: int, **positions: tuple[int, bool]):  # type: ignore[no-untyped-def]
    """positions: s<seat>=(sci, locked)."""
    state, _ = new_game(players)
    for seat in range(players):
        state = set_player(state, seat, sci=0, art=0)
    for key, (pos, locked) in positions.items():
        state = set_player(state, int(key[1:]), sci=pos, sci_locked=locked)
    return state


def sci(state):  # type: ignore[no-untyped-def]
    return [p.sci for p in state.players]


def test_re27_religion_wrap_gives_three_to_each_player_of_that_side() -> None:
    state, _ = new_game(4)
    state = replace(state, religion=4)
    tx = tx_for(state)
    shift_religion(tx, "ANTI", 4)
    assert tx.state.religion == 3
    assert [p.score for p in tx.state.players] == [5, 8, 8, 5]  # ENG, SWE are Anti-Catholic


def test_re28_medallion_taken_by_crossing_from_its_holder() -> None:
    state = tracks(2, s1=(8, False), s0=(4, False))
    state = replace(state, medallions={"SCI6": 1})
    tx = tx_for(state)
    advance(tx, 0, "SCI", 3)
    assert sci(tx.state) == [7, 8]
    taken = of_type(tx.events, "MedallionTaken")[0]
    assert (taken.medallion, taken.seat, taken.how) == ("SCI6", 0, "CROSS")
    assert tx.state.hand_size(0) == 8 and tx.state.hand_size(1) == 7


def test_re29_medallion_steal_by_bump() -> None:
    state = tracks(2, s1=(8, False), s0=(7, False))
    state = replace(state, medallions={"SCI6": 1})
    tx = tx_for(state)
    advance(tx, 0, "SCI", 1)
    assert sci(tx.state) == [8, 7]
    assert of_type(tx.events, "MedallionTaken")[0].how == "BUMP"
    assert tx.state.medallions == {"SCI6": 0}


def test_re30_no_medallion_while_moving_backwards() -> None:
    state = tracks(4, s0=(12, False), s2=(13, False), s3=(15, False))
    state = replace(state, medallions={"SCI12": 3})
    tx = tx_for(state)
    advance(tx, 0, "SCI", 1)
    assert sci(tx.state) == [13, 0, 12, 15]
    assert tx.state.medallions == {"SCI12": 3}


def test_re31_hand_size_eleven() -> None:
    state, _ = new_game(2)
    deck = tuple(f"re-G{i:02d}" for i in range(1, 11))
    state = set_player(
        state,
        1,
        hand=("re-K01", "re-K02", "re-K03", "re-K04"),
        mat=("re-KF1", "re-RF1", "re-OF1"),
        deck=deck,
    )
    state = replace(
        state,
        medallions={m: 1 for m in ("SCI6", "SCI12", "ART6", "ART12")},
        stage=Stage(StageKind.REFILL, waiting=(1,)),
    )
    state, _ = send(state, 1, RefillHand(("re-KF1", "re-OF1", "re-RF1")))
    assert len(state.players[1].hand) == 11


def test_re32_bumping_an_unlocked_marker() -> None:
    state = tracks(2, s1=(5, False), s0=(3, False))
    tx = tx_for(state)
    advance(tx, 0, "SCI", 2)
    p = tx.state.players
    assert (p[0].sci, p[0].sci_locked, p[1].sci, p[1].sci_locked) == (5, True, 4, False)


def test_re33_landing_on_a_locked_marker() -> None:
    state = tracks(2, s1=(5, True), s0=(3, False))
    tx = tx_for(state)
    advance(tx, 0, "SCI", 2)
    assert sci(tx.state) == [4, 5] and tx.state.players[0].sci_locked


def test_re34_chain_reaction() -> None:
    state = tracks(3, s2=(4, False), s1=(5, True), s0=(2, False))
    tx = tx_for(state)
    advance(tx, 0, "SCI", 3)
    assert sci(tx.state) == [4, 5, 3]


def test_re35_sliding_past_a_locked_marker_while_moving_back() -> None:
    state = tracks(4, s3=(3, True), s2=(4, False), s0=(1, False))
    tx = tx_for(state)
    advance(tx, 0, "SCI", 3)
    assert sci(tx.state) == [4, 0, 2, 3]


@pytest.mark.parametrize(("order", "expected"), [((1, 0), [5, 6]), ((0, 1), [6, 5])])
def test_re36_simultaneous_advances_go_in_turn_order(
    order: tuple[int, int], expected: list[int]
) -> None:
    state = tracks(2, s1=(2, False), s0=(0, False))
    tx = tx_for(replace(state, order=order))
    for seat in order:
        advance(tx, seat, "SCI", 4 if seat == 1 else 6)
    assert sci(tx.state) == expected


# -- F. draft and refill ------------------------------------------------------------------------
def run_draft(state):  # type: ignore[no-untyped-def]
    from domain.road_to_enlightenment.legal import legal_commands

    tx = tx_for(state)
    draft_start(tx)
    state = tx.state
    picks = []
    while state.stage.kind == "draft":
        seat = state.stage.seat
        cmd = legal_commands(state, seat)[0]
        picks.append(seat)
        state, _ = send(state, seat, cmd)
    return state, picks


def test_re37_draft_quota_2_to_4_players_with_an_extra_pick() -> None:
    state, _ = new_game(4)
    state = set_player(state, 0, aside=("re-U03",))
    state, picks = run_draft(state)
    assert picks == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert "re-U03" in state.box
    assert sum(len(r) for r in state.rows.values()) == 12  # refreshed


def test_re38_draft_quota_5_to_7_players() -> None:
    state, _ = new_game(5)
    _, picks = run_draft(state)
    assert picks == [0, 1, 2, 3, 4]


def test_re39_religion_colour_restriction() -> None:
    state, _ = new_game(4)
    rows = {c: () for c in ("RED", "BLUE", "PURPLE", "PINK", "GREEN", "ORANGE")}
    rows["PINK"] = ("re-K03",)
    rows["RED"] = ("re-R06",)
    state = replace(
        state, rows=rows, stage=Stage(StageKind.DRAFT, 3, data=DraftRound.BASE), slot=-1, queue=()
    )
    with pytest.raises(RuleViolation) as err:
        send(state, 3, DraftPick("re-K03"))
    assert err.value.code == "religion_colour"
    state, _events = send(state, 3, DraftPick("re-R06"))
    assert "re-R06" in state.players[3].hand


def test_re40_must_pick_or_forgo() -> None:
    state, _ = new_game(4)
    rows = {c: () for c in ("RED", "BLUE", "PURPLE", "PINK", "GREEN", "ORANGE")}
    rows["PINK"] = ("re-K03", "re-K05")
    state = replace(state, rows=rows)
    state = set_player(state, 3, extra_picks=1)
    state = set_player(state, 1, extra_picks=1)
    tx = tx_for(replace(state, queue=()))
    draft_start(tx)
    # base picks: ENG (Anti-Catholic) takes the pink cards; the Catholics forgo
    forgone = [e.seat for e in of_type(tx.events, "DraftPickForgone")]
    assert 0 in forgone
    state = tx.state
    assert state.stage.kind == "draft" and state.stage.seat == 1
    from domain.road_to_enlightenment.legal import legal_commands

    assert all(isinstance(c, DraftPick) for c in legal_commands(state, 1))  # no pass exists


def test_re41_refresh_with_short_decks() -> None:
    state, _ = new_game(2)
    piles = dict(state.piles)
    rows = dict(state.rows)
    rows["RED"] = ("re-R07",)
    piles["pile:RED"] = ()
    green = piles["pile:GREEN"][:5]
    piles["pile:GREEN"] = green
    rows["GREEN"] = ()
    state = replace(state, piles=piles, rows=rows)
    tx = tx_for(state)
    draft_finish(tx)
    assert tx.state.rows["RED"] == ("re-R07",)
    assert tx.state.rows["GREEN"] == green[:2]


def test_re42_refill_with_reshuffle() -> None:
    state, _ = new_game(2)
    state = set_player(
        state,
        1,
        hand=("re-K01", "re-K02", "re-K03"),
        mat=("re-KF1", "re-RF1"),
        deck=("re-G01",),
        discard=tuple(f"re-G0{i}" for i in range(2, 8)),
    )
    state = replace(state, stage=Stage(StageKind.REFILL, waiting=(1,)))
    state, events = send(state, 1, RefillHand(("re-KF1", "re-RF1")))
    eng = state.players[1]
    assert (len(eng.hand), len(eng.deck), len(eng.discard)) == (7, 5, 0)
    reshuffles = [e for e in of_type(events, "LuminariesMoved") if e.reason == "reshuffle"]
    assert len(reshuffles) == 1 and reshuffles[0].count == 6 and reshuffles[0].vis == "server"
