"""Acceptance scenarios IL-01 … IL-27 of the implementation reference (§9), with the
rulebook's numbers."""

from __future__ import annotations

import attrs
import pytest

from domain.errors import RuleViolation
from domain.illumination import GAME
from domain.illumination import commands as cmd
from domain.illumination import events as ev
from domain.illumination.board import conflicts, monk_search
from domain.illumination.content import CONTENT
from domain.illumination.scoring import breakdown, crusade_points
from domain.illumination.turn import Turn
from domain.randomness import Context
from domain.viewers import Viewer
from tests.illumination.illum_support import (
    active,
    coin_tile,
    fill,
    monk_turn,
    put,
    run,
    scenario,
    tid,
    types,
    with_player,
)

REV, IRR = 0, 1
CANDLE, BELL, WINE, BREAD = 0, 1, 2, 3


def rejects(state, seat, command, code):  # type: ignore[no-untyped-def]
    with pytest.raises(RuleViolation) as info:
        GAME.decide(state, seat, command, Context.seeded(0))
    assert info.value.code == code, info.value
    return info.value


# -- IL-01 ------------------------------------------------------------------------------------
def test_il01_two_player_setup() -> None:
    initial = GAME.initial_state({"mode": "duel"})
    events = list(GAME.setup(initial, Context.seeded("il01")))
    state = initial
    for e in events:
        state = GAME.evolve(state, e)
    formed = {e.side: e.stacks for e in events if isinstance(e, ev.TileStacksFormed)}
    filled = {e.side: e for e in events if isinstance(e, ev.ArchwaysFilled)}
    for side in (REV, IRR):
        stacks = formed[side]
        assert stacks is not None and len(stacks) == 12 and all(len(s) == 3 for s in stacks)
        tiles = [t for s in stacks for t in s]
        infos = [CONTENT.tiles[t] for t in tiles]
        assert sum(1 for i in infos if i.is_coin) == 4
        pairs = [(i.faction, i.colour) for i in infos if not i.is_coin]
        assert len(pairs) == 32 and all(pairs.count(p) == 2 for p in pairs)
        # Stack 1 fills row I left to right, then stack 2 row II, stack 3 row III.
        used = filled[side].stacks_used
        assert state.players[side].archways == tuple(t for i in used for t in stacks[i])
        p = state.players[side]
        assert len(p.stacks) == 9 and len(p.hand) == 1 and len(p.deck) == 11
        assert p.crusade in CONTENT.crusades[side]
        faction = p.crusade.split("-")[2].capitalize()
        assert faction in CONTENT.factions[1 - side]  # names an opponent faction
        assert p.markers == 16
    assert state.players[REV].coins == 1 and state.players[IRR].coins == 5
    assert CONTENT.stations[state.abbot] is None
    for book in state.books:
        assert not book.is_quill(book.drollery)
    assert state.supply == (12, 12, 12, 12)
    assert state.turn == REV and not state.line_chosen
    bob = GAME.view(state, Viewer(seat=1))["players"][REV]
    assert bob["hand"] is None and bob["hand_count"] == 1 and bob["deck_count"] == 11
    assert bob["stacks_remaining"] == 9 and bob["crusade"] is None and bob["has_crusade"]


# -- IL-02 ------------------------------------------------------------------------------------
def test_il02_book_numbering_is_per_player() -> None:
    state = scenario()
    _after, events = run(state, 0, cmd.ChooseLine("col", 1))
    assert events[0].pos == 0
    irr = attrs.evolve(scenario(), turn=IRR)
    _, events = run(irr, 1, cmd.ChooseLine("col", 1))
    assert events[0].pos == 2
    for seat, s in ((0, state), (1, irr)):
        _, events = run(s, seat, cmd.ChooseLine("row", 2))
        assert events[0].pos == 1
    solo = scenario("solo", "irreverent", turn=REV)  # the Monk is Reverent
    solo = with_player(solo, REV, archways=(tid("Y-Angel"), tid("R-Knight"), None) + (None,) * 6)
    _, events = monk_turn(solo, [1])
    stack = next(e for e in events if isinstance(e, ev.MonkStackFormed))
    assert stack.pos == 0  # column I → the human's Book I


# -- IL-03 ------------------------------------------------------------------------------------
def test_il03_row_two_to_book_two_with_a_two_coin_tile() -> None:
    state = scenario()
    arch = list(state.players[REV].archways)
    knight, coin, monk = tid("Y-Knight"), coin_tile(REV), tid("S-Monk")
    arch[3:6] = [knight, coin, monk]
    state = with_player(state, REV, archways=tuple(arch), coins=1)
    after, _ = run(state, 0, cmd.ChooseLine("row", 2))
    assert after.active == ((knight, 1), (monk, 1))
    assert coin in after.players[REV].boxed
    assert after.players[REV].coins == 3
    assert after.players[REV].archways[3:6] == (None, None, None)
    rejects(after, 0, cmd.Pass(), "pass_after_acting")
    rejects(after, 0, cmd.EndTurn(), "tiles_unplaced")


# -- IL-04, IL-05 -----------------------------------------------------------------------------
def test_il04_quill_coin_and_token_from_an_opponents_tile() -> None:
    state = put(scenario(), 1, {(1, 0): tid("Y-Squirrel")})
    state = active(state, (tid("Y-Knight"), 1))
    after, events = run(state, 0, cmd.PlaceTile(tid("Y-Knight"), 0, 0))
    assert after.players[REV].coins == 1
    assert after.players[REV].tokens == (1, 0, 0, 0)
    assert "BattleResolved" not in types(events) and not conflicts(after, after.books[1])


def test_il05_the_drollery_is_wild() -> None:
    state = active(scenario(), (tid("S-Angel"), 1))
    assert state.books[1].drollery == 1 * 5 + 3
    after, _ = run(state, 0, cmd.PlaceTile(tid("S-Angel"), 1, 4))
    assert after.players[REV].coins == 1
    assert after.players[REV].tokens == (0, 1, 0, 0)


# -- IL-06 ------------------------------------------------------------------------------------
def test_il06_the_ritual_example() -> None:
    state = attrs.evolve(scenario(), abbot=0, acted=True)
    state = with_player(state, REV, coins=2, tokens=(0, 0, 4, 0))
    hand = len(state.players[IRR].hand)
    supply = state.supply[WINE]
    state, _ = run(state, 0, cmd.MoveAbbot(2, (2, 0, 0, 0, 0)))
    after, events = run(state, 0, cmd.ClaimRitual("Wine", 4))
    assert after.abbot == 2
    assert after.players[REV].coins == 0 and after.players[REV].tokens[WINE] == 0
    assert after.supply[WINE] == supply + 4
    assert after.ritual_spaces[WINE * 3 + 1] == REV
    assert after.players[REV].markers == 15
    assert len(after.players[IRR].hand) == hand + 1
    drawn = next(e for e in events if isinstance(e, ev.CardDrawn))
    assert drawn.reason == "consolation" and drawn.card is not None
    assert GAME.redact(drawn, Viewer(seat=0)).card is None
    assert GAME.redact(drawn, Viewer(seat=1)).card == drawn.card
    # Each set is claimed once; the other sizes stay open.
    rich = with_player(after, REV, tokens=(0, 0, 5, 0))
    rejects(rich, 0, cmd.ClaimRitual("Wine", 4), "set_claimed")
    irr = with_player(attrs.evolve(rich, turn=IRR), IRR, tokens=(0, 0, 4, 0))
    rejects(irr, 1, cmd.ClaimRitual("Wine", 4), "set_claimed")
    three, _ = run(with_player(after, REV, tokens=(0, 0, 3, 0)), 0, cmd.ClaimRitual("Wine", 3))
    assert breakdown(three, REV)[0] == 4 + 2
    five, _ = run(rich, 0, cmd.ClaimRitual("Wine", 5))
    assert breakdown(five, REV)[0] == 4 + 7
    # Negative checks.
    elsewhere = with_player(attrs.evolve(scenario(), abbot=0), REV, tokens=(0, 0, 3, 0))
    rejects(elsewhere, 0, cmd.ClaimRitual("Wine", 3), "abbot_elsewhere")
    poor = with_player(attrs.evolve(scenario(), abbot=0), REV, coins=1)
    rejects(poor, 0, cmd.MoveAbbot(2, (1, 0, 0, 0, 0)), "wrong_payment")
    rejects(poor, 0, cmd.MoveAbbot(2, (2, 0, 0, 0, 0)), "cannot_pay")


# -- IL-07, IL-08, IL-09 ----------------------------------------------------------------------
def test_il07_what_is_a_conflict() -> None:
    state = put(
        scenario(),
        2,
        {
            (3, 1): tid("R-Knight"),
            (3, 2): tid("Y-Dragon"),
            (3, 3): tid("S-Knight"),
            (3, 4): tid("W-Rabbit"),
        },
    )
    found = conflicts(state, state.books[2])
    assert [(c.pair, c.cells) for c in found] == [(1, (16, 17, 18))]
    state = put(
        scenario(),
        2,
        {
            (0, 0): tid("Monk", 0),
            (0, 1): tid("Monk", 1),
            (0, 2): tid("Monk", 2),
            (1, 2): tid("Y-Rabbit", 0),
            (1, 3): tid("Y-Rabbit", 1),
            (2, 0): tid("W-Angel"),
            (2, 1): tid("W-Rabbit"),
            (1, 0): tid("Y-Demon"),
        },
    )
    found = {c.pair: c.cells for c in conflicts(state, state.books[2])}
    assert found == {2: (0, 1, 2, 7, 8), 0: (5, 10)}
    t = Turn(state, None)
    t.resolve_battles(2)
    assert types(t.events) == ["BattleTied"]  # the bounded AD conflict is a 1-1 tie
    assert t.events[0].pair == 0 and not t.state.facedown


def test_il08_three_dragons_beat_two_knights() -> None:
    knights = {(2, 3): tid("Y-Knight"), (2, 4): tid("R-Knight")}
    dragons = {(3, 3): tid("Y-Dragon"), (3, 4): tid("S-Dragon"), (4, 4): tid("W-Dragon")}
    state = put(scenario(), 1, {**knights, **dragons, (1, 4): tid("W-Rabbit")})
    (conflict,) = conflicts(state, state.books[1])
    assert conflict.pair == 1
    from domain.illumination.board import bounded

    assert not bounded(state.books[1], conflict)  # (3,2) is an open Quill
    state = active(state, (tid("R-Monk"), 1))
    hand = len(state.players[IRR].hand)
    after, events = run(state, 0, cmd.PlaceTile(tid("R-Monk"), 3, 2))
    battle = next(e for e in events if isinstance(e, ev.BattleResolved))
    assert battle.strengths == (2, 3) and battle.winner == IRR
    assert set(battle.flipped) == set(knights.values())
    assert after.facedown == frozenset(knights.values())
    assert after.battle[1] == (0, 1)
    assert after.players[REV].coins == 2  # "2 Knights = 2 Coins"; no Quill coin, no token
    assert after.players[REV].tokens == (0, 0, 0, 0)
    assert "CardDrawn" not in types(events)  # IL-18: no card for a Battle-card marker
    assert len(after.players[IRR].hand) == hand


def test_il09_four_dogs_lose_to_five_squirrels_owner_collects_four_coins() -> None:
    dogs = [tid("R-Dog", 0), tid("R-Dog", 1), tid("Y-Dog", 0), tid("S-Dog", 0)]
    squirrels = [
        tid("W-Squirrel", 0),
        tid("W-Squirrel", 1),
        tid("R-Squirrel", 0),
        tid("S-Squirrel", 0),
        tid("R-Squirrel", 1),
    ]
    placements = dict(zip([(0, 0), (0, 1), (1, 1), (2, 0)], dogs, strict=True))
    placements |= dict(zip([(1, 2), (2, 1), (2, 2), (3, 0), (4, 0)], squirrels, strict=True))
    placements |= {(1, 3): tid("S-Angel"), (3, 2): tid("S-Monk"), (4, 1): tid("Y-Knight")}
    state = put(scenario(turn=IRR), 0, placements)
    state = with_player(state, REV, coins=3, tokens=(1, 1, 1, 1))
    state = active(state, (tid("Y-Rabbit"), 0))
    after, events = run(state, 1, cmd.PlaceTile(tid("Y-Rabbit"), 2, 3))
    assert after.players[IRR].coins == 0 and after.players[IRR].tokens == (0, 0, 0, 0)
    battle = next(e for e in events if isinstance(e, ev.BattleResolved))
    assert battle.pair == 3 and battle.strengths == (4, 5) and battle.winner == IRR
    assert set(battle.flipped) == set(dogs)
    assert after.battle[3] == (0, 1)
    assert after.players[REV].coins == 7 and after.players[REV].items == 11
    assert "DiscardRequired" not in types(events)


# -- IL-10, IL-11, IL-20 ----------------------------------------------------------------------
@pytest.mark.parametrize(("k", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 10)])
def test_il10_crusade_points(k: int, points: int) -> None:
    rabbits = [tid("Rabbit", i) for i in range(k)]
    state = put(scenario(), 0, {(i // 5, i % 5): t for i, t in enumerate(rabbits)})
    state = attrs.evolve(state, facedown=frozenset(rabbits))
    state = with_player(state, REV, crusade="CR-REV-RABBIT")
    assert breakdown(state, REV)[3] == points
    assert crusade_points(k) == points


def test_il11_scoring_example_totals_48() -> None:
    state = scenario()
    spaces = [None] * 12
    for ritual in range(4):
        spaces[ritual * 3] = IRR  # the 3-sets: 2 points each
    spaces[WINE * 3 + 2] = IRR  # Wine-5: 7 points
    irr_tiles = [t for t in CONTENT.tile_ids[IRR] if not CONTENT.tiles[t].is_coin]
    book1 = {(i // 5, i % 5): irr_tiles[i] for i in range(7)}
    book0 = {(i // 5, i % 5): irr_tiles[7 + i] for i in range(12)}
    knights = [tid("Knight", i) for i in range(3)]
    book0 |= {(4, i): knights[i] for i in range(3)}
    state = put(put(state, 2, book1), 0, book0)
    state = attrs.evolve(
        state,
        ritual_spaces=tuple(spaces),
        battle=((0, 2), (1, 2), (1, 1), (2, 0)),
        facedown=frozenset(knights),
    )
    state = with_player(state, IRR, crusade="CR-IRR-KNIGHT", sheep_pen=tuple(irr_tiles[20:22]))
    parts = breakdown(state, IRR)
    assert parts[:5] == (15, 10, 19, 6, -2)
    assert sum(parts) == 48
    assert breakdown(state, REV)[1] == 5


def test_il20_more_than_four_crusade_tiles_score_ten() -> None:
    monks = [tid("Monk", i) for i in range(6)]
    state = put(scenario(), 1, {(i // 5, i % 5): t for i, t in enumerate(monks)})
    state = attrs.evolve(state, facedown=frozenset(monks))
    state = with_player(state, IRR, crusade="CR-IRR-MONK")
    assert breakdown(state, IRR)[3] == 10


# -- IL-12 ------------------------------------------------------------------------------------
def test_il12_moving_an_active_tile_costs_one_coin_per_book() -> None:
    monk = tid("S-Monk")
    state = with_player(active(scenario(), (monk, 0)), REV, coins=2)
    after, _ = run(state, 0, cmd.MoveActiveTile(monk, 2, (2, 0, 0, 0, 0)))
    assert after.active == ((monk, 2),) and after.players[REV].coins == 0
    poor = with_player(state, REV, coins=1)
    rejects(poor, 0, cmd.MoveActiveTile(monk, 2, (2, 0, 0, 0, 0)), "cannot_pay")
    rejects(poor, 0, cmd.MoveActiveTile(monk, 2, (1, 0, 0, 0, 0)), "wrong_payment")
    after, _ = run(poor, 0, cmd.MoveActiveTile(monk, 1, (1, 0, 0, 0, 0)))
    assert after.active == ((monk, 1),) and after.players[REV].coins == 0


# -- IL-13 … IL-16: the Mystic Monk -----------------------------------------------------------
def test_il13_monk_ritual_two_yellow_one_red() -> None:
    state = attrs.evolve(scenario("solo", "reverent", turn=IRR), abbot=4)
    row = (tid("Y-Demon"), tid("R-Squirrel"), tid("Y-Dragon"))
    mm = state.players[IRR]
    state = with_player(state, IRR, track=(2, 0, 0, 0), archways=row + mm.archways[3:])
    hand = len(state.players[REV].hand)
    after, events = monk_turn(state, [4])
    assert events[0] == ev.MonkDieRolled(4, "row", 1, False)
    assert events[1] == ev.MonkTrackAdvanced(CANDLE, 0, True)
    assert events[2] == ev.AbbotMoved(0, IRR, (0, 0, 0, 0, 0))
    assert events[3] == ev.RitualClaimed(IRR, CANDLE, 5, 7, False)
    assert isinstance(events[4], ev.CardDrawn) and events[4].side == REV
    assert events[5] == ev.MonkTrackAdvanced(WINE, 1, False)
    assert events[6] == ev.MonkStackFormed(0, row)
    assert after.players[IRR].track == (0, 0, 1, 0)
    assert after.ritual_spaces[CANDLE * 3 + 2] == IRR
    assert len(after.players[REV].hand) >= hand + 1


def test_il14_monk_places_next_to_an_enemy_first() -> None:
    state = put(scenario("solo"), 2, {(0, 1): tid("W-Dog"), (3, 3): tid("Y-Knight")})
    assert monk_search(state, tid("R-Dragon"), 2) == (2, 2 * 5 + 3, "a")
    after = put(state, 2, {(2, 3): tid("R-Dragon")})
    (conflict,) = conflicts(after, after.books[2])
    from domain.illumination.board import bounded

    assert conflict.cells == (13, 18) and not bounded(after.books[2], conflict)


def test_il15_monk_places_next_to_a_match_next() -> None:
    state = put(
        scenario("solo"),
        2,
        {(0, 1): tid("W-Demon"), (1, 3): tid("S-Dragon"), (4, 4): tid("W-Dog")},
    )
    assert monk_search(state, tid("R-Dragon"), 2) == (2, 1 * 5 + 2, "b")


def test_il16_monk_scans_quills_in_reading_order() -> None:
    state = put(
        scenario("solo"),
        2,
        {(1, 0): tid("W-Knight"), (0, 0): tid("S-Squirrel"), (1, 4): tid("R-Knight")},
    )
    assert monk_search(state, tid("Y-Dragon"), 2) == (2, 0 * 5 + 4, "a")


# -- IL-17, IL-18, IL-19, IL-21 ----------------------------------------------------------------
def test_il17_running_out_of_markers_rebalances_a_battle_card() -> None:
    state = put(scenario(turn=IRR), 1, {(0, 0): tid("S-Monk"), (2, 0): tid("W-Rabbit")})
    state = fill(state, 1, keep_open={(1, 0), (4, 4)})
    state = with_player(state, IRR, markers=0)
    state = attrs.evolve(state, battle=((1, 3), (0, 2), (0, 0), (0, 1)))
    state = active(state, (tid("R-Rabbit"), 1))
    rev_markers = state.players[REV].markers
    after, events = run(state, 1, cmd.PlaceTile(tid("R-Rabbit"), 1, 0))
    assert types(events).index("MarkersRebalanced") < types(events).index("BattleResolved")
    assert events[types(events).index("MarkersRebalanced")] == ev.MarkersRebalanced(0)
    assert after.battle == ((0, 2), (0, 2), (0, 1), (0, 1))
    assert after.players[IRR].markers == 0 and after.players[REV].markers == rev_markers + 1


def test_il18_ritual_marker_gives_the_opponent_a_card() -> None:
    state = with_player(attrs.evolve(scenario(turn=IRR), abbot=0), IRR, tokens=(3, 0, 0, 0))
    hand = len(state.players[REV].hand)
    after, events = run(state, 1, cmd.ClaimRitual("Candle", 3))
    assert len(after.players[REV].hand) == hand + 1
    assert [e.side for e in events if isinstance(e, ev.CardDrawn)] == [REV]


def test_il19_play_a_card_just_bought_and_as_many_as_you_like() -> None:
    state = scenario()
    deck = ("R-RITUS-1", *[c for c in CONTENT.cards[REV] if c != "R-RITUS-1"])
    state = with_player(state, REV, coins=2, hand=(), deck=deck, discard=())
    state, _ = run(state, 0, cmd.BuyCard((2, 0, 0, 0, 0)))
    assert state.players[REV].hand == ("R-RITUS-1",)
    after, _ = run(state, 0, cmd.PlayRitus("Bell"))
    assert after.players[REV].tokens == (0, 1, 0, 0)
    both = with_player(scenario(), REV, hand=("R-MOTUS-1", "R-RITUS-2"), deck=deck[3:])
    both, _ = run(both, 0, cmd.PlayMotusAbbot(5))
    both, _ = run(both, 0, cmd.PlayRitus("Wine"))
    assert both.abbot == 5 and both.players[REV].tokens == (0, 0, 1, 0)


def test_il21_no_hand_limit() -> None:
    cards = CONTENT.cards[REV]
    state = with_player(
        active(
            scenario(),
        ),
        REV,
        hand=cards[:9],
        deck=cards[9:],
        coins=3,
    )
    after, events = run(state, 0, cmd.EndTurn())
    assert len(after.players[REV].hand) == 9
    assert "DiscardRequired" not in types(events)


# -- IL-22 … IL-27 ----------------------------------------------------------------------------
def test_il22_scriptum_cannot_combine_with_motus() -> None:
    monk, knight = tid("S-Monk"), tid("R-Knight")
    state = put(scenario(), 0, {(0, 0): monk})
    state = with_player(state, REV, hand=("R-SCRIPTUM-1", "R-MOTUS-1"))
    state = active(state, (knight, 0))
    rejects(state, 0, cmd.PlayMotus(monk, 0, 0, 2), "not_a_quill")
    rejects(state, 0, cmd.PlayScriptum(monk, 0, 2), "not_active")
    rejects(state, 0, cmd.PlayScriptum(knight, 3, 1), "drollery_space")
    after, events = run(state, 0, cmd.PlayScriptum(knight, 0, 2))
    assert after.books[0].cells[2] == knight
    assert "CoinsGained" not in types(events)  # text has no colour


def test_il23_complete_a_book_on_the_final_turn_then_cash_rituals() -> None:
    state = scenario()
    books = list(state.books)
    books[0] = attrs.evolve(books[0], closed=True, completed_by=IRR)
    books[2] = attrs.evolve(books[2], closed=True, completed_by=IRR)
    state = attrs.evolve(state, books=tuple(books), abbot=2)
    state = fill(state, 1, keep_open={(4, 4)}, faction="Rabbit")
    state = with_player(state, REV, tokens=(0, 0, 3, 0))
    knight, angel = tid("W-Knight"), tid("S-Angel")
    state = active(state, (knight, 1), (angel, 1))
    irr_hand = len(state.players[IRR].hand)
    state, events = run(state, 0, cmd.PlaceTile(knight, 4, 4))
    assert state.books[1].closed and state.book_spaces[1] == REV
    assert state.pending is not None and state.pending.kind == "token"
    assert len(state.players[IRR].hand) == irr_hand + 1
    rejects(state, 0, cmd.EndTurn(), "decision_pending")
    state, _ = run(state, 0, cmd.ChooseCompletionToken("Bell"))
    state, _ = run(state, 0, cmd.ClaimRitual("Wine", 3))
    state, events = run(state, 0, cmd.EndTurn())
    assert ev.TileToSheepPen(REV, angel, True) in events
    assert types(events)[-1] == "GameEnded" and "StackFlipped" not in types(events)
    parts = breakdown(state, REV)
    assert parts[0] == 2 and parts[4] == -1
    assert GAME.is_terminal(state)


def test_il24_no_voluntary_sheep_pen_for_an_open_book() -> None:
    state = active(scenario(), (tid("S-Monk"), 1))
    rejects(state, 0, cmd.SendToSheepPen(tid("S-Monk")), "book_open")
    rejects(state, 0, cmd.EndTurn(), "tiles_unplaced")


def test_il25_no_moving_a_tile_to_a_closed_book() -> None:
    state = scenario()
    books = list(state.books)
    books[2] = attrs.evolve(books[2], closed=True)
    state = put(attrs.evolve(state, books=tuple(books)), 0, {(0, 0): tid("R-Knight")})
    state = with_player(state, REV, coins=2, hand=("R-MOTUS-1",))
    state = active(state, (tid("S-Monk"), 1))
    err = rejects(state, 0, cmd.MoveActiveTile(tid("S-Monk"), 2, (1, 0, 0, 0, 0)), "book_closed")
    assert "Book III is closed" in err.message
    rejects(state, 0, cmd.MoveActiveTile(tid("S-Monk"), 2, (1, 0, 0, 0, 0)), "book_closed")
    rejects(state, 0, cmd.PlayMotus(tid("R-Knight"), 2, 4, 4), "book_closed")
    assert state.players[REV].coins == 2


def test_il26_supply_depleted_gives_a_coin_instead() -> None:
    state = put(scenario(), 1, {(1, 0): tid("Y-Squirrel")})
    state = attrs.evolve(state, supply=(0, 12, 12, 12))
    state = with_player(active(state, (tid("Y-Knight"), 1)), REV, coins=2)
    after, _ = run(state, 0, cmd.PlaceTile(tid("Y-Knight"), 1, 1))
    assert after.players[REV].coins == 3 and after.players[REV].tokens == (0, 0, 0, 0)
    rich = with_player(state, REV, coins=7)
    after, events = run(rich, 0, cmd.PlaceTile(tid("Y-Knight"), 1, 1))
    assert after.players[REV].coins == 7 and "CoinsGained" not in types(events)
    plain = with_player(active(scenario(), (tid("Y-Knight"), 1)), REV, coins=7)
    after, events = run(plain, 0, cmd.PlaceTile(tid("Y-Knight"), 0, 0))  # a yellow Quill
    assert after.players[REV].coins == 7 and "CoinsGained" not in types(events)


def test_il27_one_token_per_adjacent_matching_tile() -> None:
    state = put(scenario(), 1, {(1, 0): tid("Y-Squirrel"), (3, 0): tid("Y-Rabbit")})
    state = active(state, (tid("Y-Knight"), 1))
    after, _events = run(state, 0, cmd.PlaceTile(tid("Y-Knight"), 2, 0))
    assert after.players[REV].tokens == (2, 0, 0, 0) and after.players[REV].coins == 0
    assert not conflicts(after, after.books[1])
