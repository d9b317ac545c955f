"""Rules beyond the worked examples: cards, the turn's end, refills, the game's end,
tie-breaks, gold leaf, the Monk's Book bonus, options and content validation."""

from __future__ import annotations

import copy
import json
from importlib import resources

import attrs
import pytest

from domain.errors import GameOver, InvalidCommand, NotYourTurn, RuleViolation, UnknownCommand
from domain.game import validate_options
from domain.illumination import GAME
from domain.illumination import commands as cmd
from domain.illumination import events as ev
from domain.illumination.content import ContentError, validate_content
from domain.illumination.scoring import breakdown, winners
from domain.randomness import Context
from tests.illumination.illum_support import (
    active,
    coin_tile,
    fill,
    monk_turn,
    put,
    run,
    scenario,
    started,
    tid,
    types,
    with_player,
)

REV, IRR = 0, 1


def rejects(state, seat, command, code):  # type: ignore[no-untyped-def]
    with pytest.raises(RuleViolation) as info:
        GAME.decide(state, seat, command, Context.seeded(0))
    assert info.value.code == code, info.value


def test_exilium_in_a_duel_lets_the_owner_choose_the_new_quill() -> None:
    dragon = tid("Y-Dragon")
    state = put(scenario(), 0, {(0, 0): dragon})
    state = with_player(state, REV, hand=("R-EXILIUM-1",))
    state, _ = run(state, 0, cmd.PlayExilium(dragon, 1))
    assert state.pending is not None and state.pending.side == IRR
    assert GAME.to_act(state) == frozenset({1})
    assert GAME.legal_commands(state, 0) == []
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 0, cmd.EndTurn(), Context.seeded(0))
    rejects(state, 1, cmd.ChooseExiliumSpace(0, 1), "not_a_quill")  # 2A (0,1) is text
    state, events = run(state, 1, cmd.ChooseExiliumSpace(0, 0))  # a yellow Quill
    assert state.books[1].cells[0] == dragon and state.books[0].cells[0] is None
    assert ev.CoinsGained(IRR, 1, "quill") in events  # the owner collects the benefits
    assert state.pending is None and GAME.to_act(state) == frozenset({0})


def test_exilium_may_not_return_the_tile_to_its_space() -> None:
    dragon = tid("Y-Dragon")
    state = with_player(put(scenario(), 0, {(0, 0): dragon}), REV, hand=("R-EXILIUM-1",))
    state, _ = run(state, 0, cmd.PlayExilium(dragon, 0))
    rejects(state, 1, cmd.ChooseExiliumSpace(0, 0), "origin_space")
    assert cmd.ChooseExiliumSpace(0, 0) not in GAME.legal_commands(state, 1)


def test_exilium_on_the_monks_tile_uses_his_search_in_that_book_only() -> None:
    dragon = tid("R-Dragon")
    state = scenario("solo")
    state = put(state, 0, {(4, 4): dragon})
    state = put(state, 2, {(3, 3): tid("Y-Knight")})
    state = with_player(state, REV, hand=("R-EXILIUM-1",))
    after, events = run(state, 0, cmd.PlayExilium(dragon, 2))
    placed = next(e for e in events if isinstance(e, ev.TilePlaced))
    assert (placed.pos, placed.cell, placed.how) == (2, 2 * 5 + 3, "exilium")
    assert after.pending is None


def test_mutatio_and_porticus_exchange_archway_tiles() -> None:
    state = started(seed="cards")
    arch = state.players[REV].archways
    state = with_player(state, REV, hand=("R-MUTATIO-1", "R-PORTICUS-1"))
    after, _ = run(state, 0, cmd.PlayMutatio((1, 1), (3, 3)))
    swapped = after.players[REV].archways
    assert swapped[0] == arch[8] and swapped[8] == arch[0]
    after, _ = run(after, 0, cmd.PlayPorticus("row", 1, 2))
    rows = after.players[REV].archways
    assert rows[0:3] == swapped[3:6] and rows[3:6] == swapped[0:3]
    rejects(after, 0, cmd.PlayPorticus("row", 1, 2), "no_card")


def test_discard_down_to_seven_at_the_end_of_the_turn_then_refill() -> None:
    state = started(seed="discard")
    state, _ = run(state, 0, cmd.ChooseLine("row", 1))
    state = with_player(state, REV, coins=5, tokens=(2, 2, 0, 0))
    state = attrs.evolve(state, active=())
    state, events = run(state, 0, cmd.EndTurn())
    assert events[-1] == ev.DiscardRequired(REV, 2)
    rejects(state, 0, cmd.MoveAbbot(2, (1, 0, 0, 0, 0)), "discard_pending")
    assert GAME.legal_commands(state, 0) == [
        cmd.DiscardItem("coin"),
        cmd.DiscardItem("Candle"),
        cmd.DiscardItem("Bell"),
    ]
    state, _ = run(state, 0, cmd.DiscardItem("Candle"))
    state, events = run(state, 0, cmd.DiscardItem("Bell"))
    assert state.players[REV].items == 7 and state.turn == IRR
    flip = next(e for e in events if isinstance(e, ev.StackFlipped))
    assert flip.cells == (0, 1, 2)  # the emptied row, left to right, in stack order
    assert state.players[REV].archways[0:3] == flip.tiles
    assert len(state.players[REV].stacks) == 8


def test_two_coin_tiles_are_capped_at_seven_coins() -> None:
    state = scenario()
    arch = list(state.players[REV].archways)
    arch[0:3] = [coin_tile(REV, 0), coin_tile(REV, 1), tid("R-Angel")]
    state = with_player(state, REV, archways=tuple(arch), coins=4)
    after, events = run(state, 0, cmd.ChooseLine("row", 1))
    assert after.players[REV].coins == 7
    assert ev.CoinsGained(REV, 3, "two_coin") in events


def test_passing_only_first_and_both_passes_end_the_game() -> None:
    state = started(seed="pass")
    state, _ = run(state, 0, cmd.Pass())
    assert state.players[REV].passed and state.turn == IRR
    state, _ = run(state, 1, cmd.ChooseLine("row", 1))
    rejects(state, 1, cmd.Pass(), "pass_after_acting")
    state = attrs.evolve(state, active=())
    state, _ = run(state, 1, cmd.EndTurn())
    assert state.turn == IRR  # the passed player never plays again
    state, events = run(state, 1, cmd.Pass())
    assert isinstance(events[-1], ev.GameEnded) and GAME.is_terminal(state)
    with pytest.raises(GameOver):
        GAME.decide(state, 0, cmd.Pass(), Context.seeded(0))
    assert GAME.result(state) is not None


def test_duel_tie_breaks() -> None:
    state = scenario()
    assert winners(state, (10, 10)) == (0, 1)  # shared victory
    state = attrs.evolve(state, battle=((1, 0), (0, 0), (0, 0), (0, 0)))
    assert winners(state, (10, 10)) == (0,)  # more Battle cards won
    state = attrs.evolve(scenario(), battle=((0, 0),) * 4)
    state = with_player(state, IRR, coins=1)
    assert winners(state, (10, 10)) == (1,)  # more coins, tokens and cards
    assert winners(state, (9, 10)) == (1,) and winners(state, (11, 10)) == (0,)


def test_the_mystic_monk_wins_ties() -> None:
    state = scenario("solo", "irreverent")
    assert winners(state, (20, 20)) == (REV,)  # the Monk is Reverent
    assert winners(state, (20, 21)) == (IRR,)


def test_gold_leaf_goes_under_the_next_tile_and_counts_in_battle_and_score() -> None:
    state = scenario("solo", "reverent", turn=IRR)
    gold, dragon = coin_tile(IRR), tid("R-Dragon")
    row = (gold, dragon, None)
    state = with_player(state, IRR, archways=row + (None,) * 6)
    state = put(state, 0, {(0, 4): tid("R-Knight"), (0, 3): tid("Y-Knight")})
    after, events = monk_turn(state, [4])
    assert ev.GoldLeafPending(gold) in events
    placed = next(e for e in events if isinstance(e, ev.TilePlaced))
    assert placed.tile == dragon and placed.gold_leaf == (gold,)
    assert after.gold_of(dragon) == (gold,)
    assert breakdown(after, IRR)[6] == 1
    # Battle strength: 1 Dragon + 1 gold leaf ties 2 Knights.
    from domain.illumination.board import conflicts, strength

    (conflict,) = conflicts(after, after.books[0])
    assert strength(after, after.books[0], conflict, IRR) == 2


def test_the_monk_scores_five_per_completed_book_and_the_human_draws() -> None:
    state = scenario("solo", "reverent", turn=IRR)
    state = fill(state, 0, keep_open={(0, 0)}, faction="Angel")
    dragon = tid("S-Dragon")
    state = with_player(state, IRR, archways=(dragon, None, None) + (None,) * 6)
    hand = len(state.players[REV].hand)
    after, events = monk_turn(state, [4])
    assert after.books[0].closed and after.book_spaces[0] == IRR
    assert after.players[IRR].books_completed == (0,)
    assert breakdown(after, IRR)[5] == 5
    drawn = [e for e in events if isinstance(e, ev.CardDrawn)]
    assert drawn and drawn[0].side == REV
    assert len(after.players[REV].hand) >= hand + 1
    closed = types(events).index("BookClosed")
    assert types(events).index("BookMarkerPlaced") > closed


def test_motus_collects_benefits_and_checks_both_books() -> None:
    knight = tid("Y-Knight")
    state = put(scenario(), 0, {(0, 0): knight})
    state = put(state, 1, {(1, 0): tid("Y-Squirrel")})
    state = with_player(state, REV, hand=("R-MOTUS-1",))
    after, _events = run(state, 0, cmd.PlayMotus(knight, 1, 0, 0))
    assert after.books[1].cells[0] == knight and after.books[0].cells[0] is None
    assert after.players[REV].coins == 1 and after.players[REV].tokens == (1, 0, 0, 0)
    rejects(after, 0, cmd.PlayMotus(knight, 1, 0, 0), "no_card")


def test_malformed_and_unknown_commands_are_invalid() -> None:
    state = scenario()
    for command in (
        cmd.ChooseLine("diagonal", 1),
        cmd.ChooseLine("row", 4),
        cmd.PlaceTile("not-a-tile", 0, 0),
        cmd.MoveAbbot(3, (1, 0)),  # type: ignore[arg-type]
        cmd.ClaimRitual("Incense", 3),
    ):
        with pytest.raises(InvalidCommand):
            GAME.decide(state, 0, command, Context.seeded(0))
    with pytest.raises(UnknownCommand):
        GAME.decide(state, 0, object(), Context.seeded(0))
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 1, cmd.Pass(), Context.seeded(0))


def test_options_and_difficulty_markers() -> None:
    assert validate_options(GAME, {})["mode"] == "duel"
    assert GAME.seat_count({"mode": "solo"}) == 1 and GAME.seat_count({"mode": "duel"}) == 2
    for level in range(1, 9):
        state = started("solo", "reverent", seed=f"d{level}", difficulty=level)
        counts = [card[IRR] for card in state.battle]
        assert sum(counts) == level
        assert max(counts) <= (1 if level <= 4 else 2) and (level <= 4 or min(counts) >= 1)
        assert state.players[IRR].markers == 16 - 4 - level


def test_solo_irreverent_human_the_monk_moves_first() -> None:
    state = started("solo", "irreverent", seed="mmfirst")
    assert state.turn == IRR and state.turn_no == 2
    assert state.players[REV].last_die is not None
    assert GAME.to_act(state) == frozenset({0})


def _data() -> tuple[dict, dict, dict]:  # type: ignore[type-arg]
    base = resources.files("domain.illumination").joinpath("data")
    return tuple(  # type: ignore[return-value]
        json.loads(base.joinpath(n).read_text())
        for n in ("layouts.json", "components.json", "monk.json")
    )


def test_content_files_are_validated() -> None:
    layouts, components, monk = _data()
    validate_content(layouts, components, monk)  # the shipped files are valid
    bad = copy.deepcopy(layouts)
    bad["layouts"]["1A"]["drollery"] = [0, 0]  # a Quill, not text
    with pytest.raises(ContentError, match="Drollery"):
        validate_content(bad, components, monk)
    bad = copy.deepcopy(layouts)
    bad["layouts"]["2A"]["rows"][0] = "YTWRP"
    with pytest.raises(ContentError):
        validate_content(bad, components, monk)
    bad_c = copy.deepcopy(components)
    bad_c["pairs"][0] = ["AD", "Angel", "Knight"]
    with pytest.raises(ContentError):
        validate_content(layouts, bad_c, monk)
    bad_c = copy.deepcopy(components)
    bad_c["crusades"]["REV"] = ["Angel"]  # an own faction could never score
    with pytest.raises(ContentError, match="Crusade"):
        validate_content(layouts, bad_c, monk)
    bad_m = copy.deepcopy(monk)
    del bad_m["track_length"]
    with pytest.raises(ContentError):
        validate_content(layouts, components, bad_m)


def test_every_rejection_names_the_rule() -> None:
    knight, dragon, monk = tid("Y-Knight"), tid("R-Dragon"), tid("S-Monk")
    base = put(scenario(), 1, {(0, 0): dragon, (2, 0): monk})
    base = with_player(
        base,
        REV,
        hand=("R-MOTUS-1", "R-MUTATIO-1", "R-EXILIUM-1", "R-PORTICUS-1", "R-SCRIPTUM-1"),
        coins=3,
    )
    playing = active(base, (knight, 1))
    closed_books = list(base.books)
    closed_books[0] = attrs.evolve(closed_books[0], closed=True)
    closed = attrs.evolve(active(base, (knight, 0)), books=tuple(closed_books))
    full = fill(base, 2, keep_open=set())
    empty_arch = with_player(base, REV, archways=(None,) * 9)
    cases = [
        (playing, cmd.PlaceTile(knight, 0, 0), "quill_covered", "that Quill is already covered"),
        (playing, cmd.PlaceTile(knight, 0, 1), "not_a_quill", "Quills, not on text"),
        (closed, cmd.PlaceTile(knight, 0, 0), "book_closed", "Book I is closed"),
        (playing, cmd.PlaceTile(dragon, 0, 3), "not_active", "not one of your active tiles"),
        (playing, cmd.ChooseLine("row", 1), "line_already_chosen", "already chosen"),
        (empty_arch, cmd.ChooseLine("row", 1), "empty_line", "empty"),
        (playing, cmd.MoveActiveTile(knight, 1, (0, 0, 0, 0, 0)), "same_book", "already"),
        (base, cmd.MoveAbbot(1, (0, 0, 0, 0, 0)), "abbot_already_there", "Abbot"),
        (
            with_player(base, REV, deck=(), discard=()),
            cmd.BuyCard((2, 0, 0, 0, 0)),
            "deck_empty",
            "deck",
        ),
        (attrs.evolve(base, abbot=0), cmd.ClaimRitual("Candle", 3), "not_enough_tokens", "3"),
        (base, cmd.PlayMotus(dragon, 1, 0, 3), "not_your_placed_tile", "your faceup tiles"),
        (base, cmd.PlayMotus(monk, 1, 2, 0), "same_space", "new Quill"),
        (base, cmd.PlayMutatio((1, 1), (1, 1)), "same_archway", "two different"),
        (empty_arch, cmd.PlayMutatio((1, 1), (1, 2)), "empty_archway", "empty"),
        (base, cmd.PlayExilium(monk, 0), "not_opponent_tile", "opponent"),
        (
            put(full, 1, {(0, 0): dragon}),
            cmd.PlayExilium(dragon, 2),
            "no_open_quill",
            "no other open Quill",
        ),
        (base, cmd.PlayPorticus("col", 2, 2), "same_line", "two different"),
        (playing, cmd.PlayScriptum(knight, 0, 0), "not_text", "on text"),
        (
            put(playing, 1, {(0, 1): tid("W-Angel")}),
            cmd.PlayScriptum(knight, 0, 1),
            "text_covered",
            "already covered",
        ),
        (base, cmd.EndTurn(), "no_line_chosen", "row or column"),
        (base, cmd.DiscardItem("coin"), "no_discard_needed", "nothing to discard"),
        (base, cmd.ChooseCompletionToken("Bell"), "no_pending_decision", "no choice"),
    ]
    for state, command, code, words in cases:
        with pytest.raises(RuleViolation) as info:
            GAME.decide(state, 0, command, Context.seeded(0))
        assert info.value.code == code, (command, info.value)
        assert words in info.value.message, (command, info.value.message)
        assert command not in GAME.legal_commands(state, 0)
    pending = attrs.evolve(base, pending=None, supply=(12, 0, 12, 12))
    pending, _ = run(
        fill(active(pending, (knight, 2)), 2, keep_open={(2, 1)}),
        0,
        cmd.PlaceTile(knight, 2, 1),
    )
    assert pending.pending is not None and pending.pending.kind == "token"
    rejects(pending, 0, cmd.ChooseCompletionToken("Bell"), "supply_empty")
    not_started = GAME.initial_state({"mode": "duel"})
    rejects(not_started, 0, cmd.Pass(), "not_started")


def test_secrets_are_counts_during_play_and_revealed_after_the_game() -> None:
    from domain.viewers import SPECTATOR, Viewer

    state = started(seed="secrets")
    for viewer in (Viewer(seat=1), SPECTATOR):
        rev = GAME.view(state, viewer)["players"][REV]
        assert rev["hand"] is None and rev["crusade"] is None and "stacks" not in rev
        assert rev["hand_count"] == 1 and rev["stacks_remaining"] == 9
        hidden = GAME.hidden_values(state, viewer)
        assert set(state.players[REV].hand) <= hidden
        assert state.players[REV].crusade in hidden
    mine = GAME.view(state, Viewer(seat=0))["players"][REV]
    assert mine["hand"] == list(state.players[REV].hand)
    assert mine["crusade"] == state.players[REV].crusade
    shuffled = ev.DeckShuffled(REV, 12, state.players[REV].deck)
    assert GAME.redact(shuffled, Viewer(seat=0)).order is None
    state, _ = run(state, 0, cmd.Pass())
    state, _ = run(state, 1, cmd.Pass())
    assert GAME.is_terminal(state)
    assert GAME.hidden_values(state, SPECTATOR) == frozenset()
    rev = GAME.view(state, SPECTATOR)["players"][REV]
    assert rev["hand"] == list(state.players[REV].hand) and rev["crusade"] is not None
    assert GAME.view(state, SPECTATOR)["result"]["winners"]


def test_the_monk_rerolls_an_empty_line_and_discards_tiles_with_no_quill() -> None:
    state = scenario("solo", "reverent", turn=IRR)
    books = list(state.books)
    books[1] = attrs.evolve(books[1], closed=True)
    books[2] = attrs.evolve(books[2], closed=True)
    state = attrs.evolve(state, books=tuple(books))
    state = fill(state, 0, keep_open={(4, 4)}, faction="Angel")
    first, second = tid("S-Dragon"), tid("W-Demon")
    state = with_player(state, IRR, archways=(first, None, None, second) + (None,) * 5)
    after, events = monk_turn(state, [2, 1])
    rolls = [e for e in events if isinstance(e, ev.MonkDieRolled)]
    assert [(r.value, r.rerolled) for r in rolls] == [(2, False), (1, True)]
    assert ev.MonkStackFormed(0, (first, second)) in events
    assert after.books[0].cells[24] == first
    assert ev.MonkTileDiscarded(second) in events
    assert second in after.players[IRR].boxed
    assert types(events)[-1] == "GameEnded"  # every Book is closed at the end of his turn


def test_solo_player_places_the_monks_markers_or_leaves_them_random() -> None:
    """'Assign 1-4 Markers': the player chooses which Battle cards get them (5-8: every
    card one or two); the choice must add up to the difficulty."""
    from domain.errors import InvalidOptions as BadOptions

    opts = validate_options(GAME, {"mode": "solo", "difficulty": 3, "markers": "1011"})
    state = GAME.initial_state(opts)
    events = GAME.setup(state, Context.seeded(4))
    placed = [e for e in events if isinstance(e, ev.DifficultyMarkersPlaced)]
    assert [tuple(p.counts) for p in placed] == [(1, 0, 1, 1)]
    opts = validate_options(GAME, {"mode": "solo", "difficulty": 6, "markers": "2121"})
    placed = [
        e
        for e in GAME.setup(GAME.initial_state(opts), Context.seeded(4))
        if isinstance(e, ev.DifficultyMarkersPlaced)
    ]
    assert [tuple(p.counts) for p in placed] == [(2, 1, 2, 1)]
    with pytest.raises(BadOptions, match="must agree"):
        validate_options(GAME, {"mode": "solo", "difficulty": 2, "markers": "1110"})
    for bad in ("2000", "0200", "1200", "0000"):  # two on a card below 5, or none at all
        with pytest.raises(BadOptions):
            validate_options(GAME, {"mode": "solo", "difficulty": 2, "markers": bad})
