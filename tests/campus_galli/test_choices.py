"""The player choices of issue 4: secret feast/study-day answers, declining optional monks,
the last exchanges before the end-of-turn tasks, and which monk lies down when the supply is
empty (DD-16)."""

from __future__ import annotations

from typing import Any

import attrs
import orjson
import pytest

from domain.campus_galli.commands import (
    Beg,
    BringGuest,
    ChooseLazyMonk,
    EndTurn,
    ExchangeTiles,
    FlipBuilding,
    PlaceSection,
    ProduceBook,
    RespondFeastDay,
    RespondStudyDay,
    SpecialExpand,
    TakeFromHut,
)
from domain.campus_galli.decide import advance
from domain.campus_galli.events import (
    CardRescored,
    ExchangesFinished,
    MonkPlaced,
    TaskFulfilled,
    TilesGained,
)
from domain.campus_galli.geometry import cells_of
from domain.campus_galli.queries import master_builder_allowed
from domain.campus_galli.state import Monk, Phase, Stage, State, Turn
from domain.errors import DomainError
from domain.randomness import Context
from domain.simultaneous import ChoiceCommitted
from domain.viewers import SPECTATOR, seat_viewer
from tests.campus_galli.cg_support import GAME, apply, new_game
from tests.campus_galli.test_scenarios import cell, fixture

_TASKS = ("T1-09", "T1-10", "T1-11", "T1-12", "T1-13", "T1-14")


def code_of(state: State, seat: int, command: Any) -> str:
    with pytest.raises(DomainError) as err:
        apply(state, seat, command)
    return err.value.code


def _day(card: str, guests: dict[int, tuple[str, ...]], books: dict[int, tuple[str, ...]],
         supply: tuple[int, ...] = (10, 10, 10, 10),
         priority: tuple[int, ...] = (0, 1)) -> State:  # fmt: skip
    """Level II, 2 players: the task deck starts with ``card`` (feast or study day)."""
    state = fixture(2, 2, [], "L1-R01")
    for s in range(2):
        p = attrs.evolve(
            state.players[s],
            selected=None,
            tiles=(0, 0, 0, 0),
            guests=guests.get(s, ()),
            library=books.get(s, ()),
        )
        state = state.with_player(s, p)
    state = attrs.evolve(
        state,
        phase=Phase.FILL,
        turn=None,
        task_deck=(card, *_TASKS),
        tile_supply=supply,
        priority=priority,
    )
    state, _ = advance(state, [], Context.seeded("day"))
    return state


# -- 1. feast day and study day: one secret answer per player ------------------------------


def test_feast_day_answers_are_secret_until_everyone_has_answered() -> None:
    state = _day("T2-03", {0: ("L2-GU02", "L2-GU03"), 1: ("L2-GU08",)}, {})
    assert state.phase == "event" and GAME.to_act(state) == {0, 1}
    answer = RespondFeastDay(("L2-GU08",), ("R",))
    assert answer in GAME.legal_commands(state, 1)
    state, events = apply(state, 1, answer)
    assert isinstance(events[0], ChoiceCommitted) and events[0].choice == ("L2-GU08:R",)
    for viewer in (seat_viewer(0), SPECTATOR):
        assert GAME.redact(events[0], viewer).choice is None
        text = orjson.dumps(GAME.view(state, viewer)).decode()
        assert "L2-GU08:R" not in text
    assert GAME.view(state, seat_viewer(1))["selection"]["mine"] == ["L2-GU08:R"]
    assert GAME.view(state, SPECTATOR)["event"]["waiting_on"] == [0]
    assert state.players[1].tiles == (0, 0, 0, 0)  # nothing applied before the reveal
    assert GAME.to_act(state) == {0}
    assert code_of(state, 1, RespondFeastDay()) == "not_your_turn"
    state, events = apply(state, 0, RespondFeastDay(("L2-GU02", "L2-GU03"), ("Y", "G")))
    assert [e for e in events if isinstance(e, CardRescored)] == [
        CardRescored(0, "L2-GU02"),
        CardRescored(0, "L2-GU03"),
        CardRescored(1, "L2-GU08"),
    ]
    assert state.players[0].tiles == (0, 0, 1, 1) and state.players[1].tiles == (1, 0, 0, 0)
    assert state.phase == "select" and state.event is None


def test_feast_day_asks_only_players_with_guests_and_accepts_the_empty_answer() -> None:
    state = _day("T2-04", {1: ("L2-GU01",)}, {})
    assert GAME.to_act(state) == {1}
    assert GAME.legal_commands(state, 0) == []
    state, _ = apply(state, 1, RespondFeastDay())
    assert state.phase == "select" and state.players[1].tiles == (0, 0, 0, 0)


def test_study_day_answers_are_exactly_the_legal_list() -> None:
    books = ("L2-BK01", "L2-BK14", "L2-BK07")  # R, ? (any colour), G
    state = _day("T2-05", {}, {0: books})
    legal = GAME.legal_commands(state, 0)
    # empty + singles (1 + 4 + 1) + pairs (RxAny 4, RxG 1, AnyxG 4)
    assert len(legal) == 1 + 6 + 9 == len(set(legal))
    assert RespondStudyDay(("L2-BK14", "L2-BK07"), ("Y", "G")) in legal
    assert code_of(state, 0, RespondStudyDay(books, ("R", "R", "G"))) == "too_many"
    assert code_of(state, 0, RespondStudyDay(("L2-BK01", "L2-BK01"), ("R", "R"))) == (
        "scored_twice"
    )
    assert code_of(state, 0, RespondStudyDay(("L2-BK02",), ("R",))) == "not_your_book"
    assert code_of(state, 0, RespondStudyDay(("L2-BK07", "L2-BK01"), ("G", "R"))) == "bad_order"
    assert code_of(state, 0, RespondStudyDay(("L2-BK01",), ("B",))) == "wrong_reward"
    assert code_of(state, 0, RespondStudyDay(("L2-BK01",), ())) == "invalid_command"
    assert code_of(state, 0, RespondFeastDay()) == "wrong_step"


def test_score_day_rewards_out_of_stock_go_by_priority_order() -> None:
    books = {0: ("L2-BK01",), 1: ("L2-BK02",)}
    state = _day("T2-06", {}, books, supply=(1, 10, 10, 10), priority=(1, 0))
    state, _ = apply(state, 0, RespondStudyDay(("L2-BK01",), ("R",)))
    state, events = apply(state, 1, RespondStudyDay(("L2-BK02",), ("R",)))
    gains = [e for e in events if isinstance(e, TilesGained)]
    assert gains == [TilesGained(1, ("R",), "study"), TilesGained(0, (), "study")]
    assert state.players[1].tiles[0] == 1 and state.players[0].tiles[0] == 0


# -- 2. declining optional monks ------------------------------------------------------------

_CG01 = [("P-B-O4", "O4", 1, 8, 0), ("H-Y-O4", "O4", 3, 8, 0), ("H-R-D2", "D2", 4, 6, 1)]


def test_master_builder_can_be_declined_only_where_one_would_be_placed() -> None:
    state = fixture(1, 2, _CG01, "L1-R05")
    state, _ = apply(state, 0, TakeFromHut("H-G-O4"))
    legal = GAME.legal_commands(state, 0)
    declines = {(c.x, c.y, c.orientation) for c in legal if not c.master_builder}
    assert (2, 6, 0) in declines
    for c in legal:
        if c.master_builder:
            mask = sum(1 << x for x in GAME_placement_cells(c))
            assert ((c.x, c.y, c.orientation) in declines) == master_builder_allowed("H-G-O4", mask)
    declined, events = apply(state, 0, PlaceSection(2, 6, 0, master_builder=False))
    assert not any(isinstance(e, MonkPlaced) and e.kind == "section" for e in events)
    assert declined.players[0].supply == 14  # only the lazy monk left the supply
    plain = next(c for c in legal if (c.x, c.y, c.orientation) not in declines)
    assert code_of(state, 0, attrs.evolve(plain, master_builder=False)) == "no_master_builder"


def GAME_placement_cells(c: PlaceSection) -> tuple[int, ...]:
    from domain.campus_galli.geometry import placement

    p = placement("O4", c.x, c.y, c.orientation)
    assert p is not None
    return p.cells


def test_completion_flip_without_master_builder() -> None:
    state = fixture(1, 2, [("H-Y-O4", "O4", 16, 8, 0)], "L1-R15", construction=("A", "B", "C", "G"))
    state, _ = apply(state, 0, TakeFromHut("H-R-O4"))
    state, _ = apply(state, 0, PlaceSection(18, 8, 0))
    assert FlipBuilding("K", master_builder=False) in GAME.legal_commands(state, 0)
    assert FlipBuilding("", master_builder=False) not in GAME.legal_commands(state, 0)
    assert code_of(state, 0, FlipBuilding("", master_builder=False)) == "no_master_builder"
    flipped, events = apply(state, 0, FlipBuilding("K", master_builder=False))
    assert "K" in flipped.construction
    assert not any(isinstance(e, MonkPlaced) for e in events)
    empty = state.with_player(0, attrs.evolve(state.players[0], supply=0))
    assert FlipBuilding("K", master_builder=False) not in GAME.legal_commands(empty, 0)
    assert code_of(empty, 0, FlipBuilding("K", master_builder=False)) == "no_master_builder"


def test_expansion_without_master_builder() -> None:
    state, _ = new_game(2, 2)
    state = attrs.evolve(
        state, phase=Phase.SPECIAL, special_order=(0, 1), special_next=0, turn=None, queue=()
    )
    state = state.with_player(0, attrs.evolve(state.players[0], tiles=(1, 2, 1, 0)))
    assert SpecialExpand("D", master_builder=False) in GAME.legal_commands(state, 0)
    expanded, events = apply(state, 0, SpecialExpand("D", master_builder=False))
    assert "D" in expanded.construction and expanded.players[0].supply == 15
    assert not any(isinstance(e, MonkPlaced) for e in events)
    empty = state.with_player(0, attrs.evolve(state.players[0], supply=0))
    assert SpecialExpand("D", master_builder=False) not in GAME.legal_commands(empty, 0)
    assert code_of(empty, 0, SpecialExpand("D", master_builder=False)) == "no_master_builder"


def _guest_turn(card: str, construction: tuple[str, ...]) -> State:
    state = fixture(2, 2, [], card, construction=construction)
    return state.with_player(0, attrs.evolve(state.players[0], tiles=(0, 0, 0, 1)))


def test_guest_monks_can_be_declined() -> None:
    state = _guest_turn("L2-GU01", ("A", "B", "C"))  # C: wooden, so 1 guest monk
    decline = BringGuest(("Y",), "", monks=False)
    assert decline in GAME.legal_commands(state, 0)
    _, placed = apply(state, 0, BringGuest(("Y",), ""))
    assert MonkPlaced(0, "guest", building="C") in placed
    after, events = apply(state, 0, decline)
    assert "L2-GU01" in after.players[0].guests and after.players[0].supply == 15
    assert not any(isinstance(e, MonkPlaced) for e in events)
    visiting = _guest_turn("L2-GU01", ("A", "B"))  # C on its parchment side: a visit only
    assert decline not in GAME.legal_commands(visiting, 0)
    assert code_of(visiting, 0, decline) == "no_guest_monk"


# -- 3. the last exchanges before the end-of-turn tasks ---------------------------------------


def _book_turn(tiles: tuple[int, ...]) -> State:
    state = fixture(2, 2, [], "L2-BK07")
    state = attrs.evolve(state, board=(("T2-07", "open"),), tile_supply=(5, 5, 5, 5))
    return state.with_player(0, attrs.evolve(state.players[0], tiles=tiles))


def test_an_exchange_after_the_last_choice_can_meet_long_hours_of_prayer() -> None:
    state, _ = apply(_book_turn((3, 0, 1, 0)), 0, ProduceBook(("G",), "G"))
    assert state.turn is not None and state.turn.stage == "exchange"
    assert GAME.view(state, SPECTATOR)["turn"]["stage"] == "exchange"
    legal = GAME.legal_commands(state, 0)
    assert EndTurn() in legal and ExchangeTiles(("R", "R", "R"), "B") in legal
    assert all(isinstance(c, ExchangeTiles | EndTurn) for c in legal)
    ended, events = apply(state, 0, EndTurn())  # 3 red tiles: Long hours (red) not met
    assert ExchangesFinished(0) in events and "T2-07" not in ended.players[0].fulfilled
    state, events = apply(state, 0, ExchangeTiles(("R", "R", "R"), "B"))
    # 2 tiles left: no exchange is possible any more, so the turn ends by itself.
    assert ExchangesFinished(0) in events and TaskFulfilled(0, "T2-07") in events
    assert "T2-07" in state.players[0].fulfilled


def test_no_exchange_stage_without_three_tiles_or_when_begging() -> None:
    state, events = apply(_book_turn((0, 0, 1, 1)), 0, ProduceBook(("G",), "G"))
    assert state.turn is None or state.turn.seat != 0 or state.turn.stage != "exchange"
    assert not any(isinstance(e, ExchangesFinished) for e in events)
    beg = _book_turn((3, 0, 0, 0))
    beg = attrs.evolve(beg, turn=attrs.evolve(beg.turn, stage=Stage.BEG))  # type: ignore[arg-type]
    state, events = apply(beg, 0, Beg(("B", "G")))
    assert not any(isinstance(e, ExchangesFinished) for e in events)
    assert state.turn is None or state.turn.seat != 0


# -- 4. out of monks: the player chooses the lazy monk (DD-16) -------------------------------

_GAP = (cell(1, 6), cell(1, 7))


def _out_of_monks(monks: tuple[Monk, ...]) -> State:
    state = fixture(1, 2, _CG01, "L1-R05", construction=("A", "B", "C", "D", "K"))
    state = attrs.evolve(state, monks=monks)
    state = state.with_player(0, attrs.evolve(state.players[0], supply=0))
    state, _ = apply(state, 0, TakeFromHut("H-G-O4"))
    return state


def test_out_of_monks_the_player_chooses_which_monk_lies_down() -> None:
    monks = (
        Monk(0, "grass", building="K"),
        Monk(1, "grass", building="D"),
        Monk(0, "section", section="P-B-O4"),
    )
    state, events = apply(_out_of_monks(monks), 0, PlaceSection(2, 6, 0))
    assert not any(isinstance(e, MonkPlaced) for e in events)  # no supply: no master builder
    assert state.turn is not None and state.turn.stage == "lazy_monk"
    assert GAME.view(state, seat_viewer(0))["turn"]["lazy_owed"] == 1
    assert GAME.legal_commands(state, 0) == [
        ChooseLazyMonk("section:P-B-O4"),  # the most recent first: the default
        ChooseLazyMonk("grass:K"),
    ]
    assert code_of(state, 0, ChooseLazyMonk("grass:D")) == "not_your_monk"
    assert code_of(state, 0, EndTurn()) == "wrong_step"
    state, events = apply(state, 0, ChooseLazyMonk("grass:K"))
    assert MonkPlaced(0, "lazy", cells=_GAP, replaces="grass:K") in events
    assert Monk(0, "section", section="P-B-O4") in state.monks
    assert Monk(0, "grass", building="K") not in state.monks
    assert sum(m.kind == "lazy" and m.owner == 0 for m in state.monks) == 1
    assert state.players[0].supply == 0


def test_one_candidate_is_taken_without_a_question() -> None:
    state, events = apply(
        _out_of_monks((Monk(0, "guest", building="K"), Monk(0, "guest", building="K"))),
        0,
        PlaceSection(2, 6, 0),
    )
    assert MonkPlaced(0, "lazy", cells=_GAP, replaces="guest:K") in events
    assert sum(m.kind == "guest" for m in state.monks) == 1
    none, events = apply(_out_of_monks(()), 0, PlaceSection(2, 6, 0))
    assert MonkPlaced(0, "lazy", cells=_GAP) in events
    assert [m.marker for m in none.monks] == [True]


def test_several_owed_lazy_monks_are_chosen_one_at_a_time() -> None:
    state = fixture(1, 2, _CG01, "L1-R05")
    monks = (
        Monk(0, "grass", building="K"),
        Monk(0, "grass", building="D"),
        Monk(0, "section", section="P-B-O4"),
    )
    owed = (sum(1 << c for c in _GAP), 1 << cell(6, 1))
    state = attrs.evolve(
        state,
        monks=monks,
        turn=Turn(seat=0, card="L1-R05", selected="L1-R05", stage=Stage.LAZY_MONK, owed=owed),
    )
    state = state.with_player(0, attrs.evolve(state.players[0], supply=0))
    state, _ = apply(state, 0, ChooseLazyMonk("grass:D"))
    assert state.turn is not None and state.turn.owed == owed[1:]
    assert GAME.legal_commands(state, 0) == [
        ChooseLazyMonk("section:P-B-O4"),
        ChooseLazyMonk("grass:K"),
    ]
    state, events = apply(state, 0, ChooseLazyMonk("section:P-B-O4"))
    assert MonkPlaced(0, "lazy", cells=cells_of(owed[1]), replaces="section:P-B-O4") in events
    assert [m for m in state.monks if m.kind != "lazy"] == [Monk(0, "grass", building="K")]


# -- the new prompts are exact both ways (random playouts rarely reach them) -----------------


def _prompts() -> list[tuple[State, int]]:
    out: list[tuple[State, int]] = []
    out.append((_day("T2-03", {0: ("L2-GU02", "L2-GU03", "L2-GU01"), 1: ("L2-GU08",)}, {}), 0))
    out.append((_day("T2-05", {}, {1: ("L2-BK14", "L2-BK01", "L2-BK07")}), 1))
    out.append((apply(_book_turn((3, 1, 1, 0)), 0, ProduceBook(("G",), "G"))[0], 0))
    monks = (
        Monk(0, "grass", building="K"),
        Monk(0, "guest", building="D"),
        Monk(0, "section", section="P-B-O4"),
    )
    out.append((apply(_out_of_monks(monks), 0, PlaceSection(2, 6, 0))[0], 0))
    out.append((_guest_turn("L2-GU09", ("A", "B", "I")), 0))
    return out


def test_new_prompts_list_exactly_the_accepted_commands() -> None:
    import random

    from tests.campus_galli.test_legal import mutate, random_command

    rng = random.Random(4)
    for state, seat in _prompts():
        legal = list(GAME.legal_commands(state, seat))
        assert legal and len(legal) == len(set(legal))
        for command in legal:
            apply(state, seat, command)  # must not raise
        listed = set(legal)
        probes = [mutate(c, rng) for c in legal for _ in range(3)]
        probes += [random_command(rng) for _ in range(30)]
        for probe in probes:
            if probe not in listed:
                with pytest.raises(DomainError):
                    apply(state, seat, probe)
