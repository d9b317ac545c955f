"""Acceptance scenarios CG-01 ... CG-10 and the rulebook's tables."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from domain.bots import bot_move
from domain.campus_galli.commands import PlaceSection, TakeFromHut
from domain.campus_galli.content import ACTIONS, TASKS
from domain.campus_galli.decide import advance
from domain.campus_galli.events import (
    GameStarted,
    GapsChecked,
    MonkPlaced,
    RoundStarted,
    SectionPlaced,
    TaskDeckShuffled,
)
from domain.campus_galli.geometry import placement
from domain.campus_galli.queries import pigment, player_score, team_score, tile_set_points
from domain.campus_galli.state import Phase, Stage, State, Turn
from domain.errors import DomainError
from domain.randomness import Context
from tests.campus_galli.cg_support import GAME, apply, new_game


def cell(x: int, y: int) -> int:
    return y * 21 + x


def fixture(
    level: int,
    n: int,
    placed: list[tuple[str, str, int, int, int]],
    card: str,
    seat: int = 0,
    construction: tuple[str, ...] | None = None,
) -> State:
    """F0: no tasks, sections placed directly, ``seat`` about to act with ``card``."""
    state = GAME.initial_state({"level": level, "players": n, "mode": "competitive"})
    spare = [c for c in sorted(ACTIONS) if ACTIONS[c].level == 1 and c != card]
    players = tuple(
        attrs.evolve(p, this_year=tuple(spare[4 * i : 4 * i + 4]))
        for i, p in enumerate(state.players)
    )
    players = (
        *players[:seat],
        attrs.evolve(players[seat], selected=card),
        *players[seat + 1 :],
    )
    pl = []
    cover = 0
    hut, bag = set(state.hut), set(state.bag)
    for section, shape, x, y, o in placed:
        p = placement(shape, x, y, o)
        assert p is not None
        pl.append((section, p.mask))
        cover |= p.mask
        hut.discard(section)
        bag.discard(section)
    return attrs.evolve(
        state,
        phase=Phase.TURNS,
        round_no=1,
        players=players,
        placed=tuple(pl),
        cover=cover,
        hut=frozenset(hut),
        bag=frozenset(bag),
        construction=frozenset(construction) if construction else state.construction,
        turn=Turn(seat=seat, card=card, stage=Stage.ACT, selected=card, key=ACTIONS[card].number),
        priority=tuple(range(n)),
    )


def test_cg01_green_section_master_builder_and_lazy_monk() -> None:
    state = fixture(
        1,
        2,
        [("P-B-O4", "O4", 1, 8, 0), ("H-Y-O4", "O4", 3, 8, 0), ("H-R-D2", "D2", 4, 6, 1)],
        "L1-R05",
    )
    assert placement("D2", 4, 6, 1).cells == (cell(4, 6), cell(4, 7))  # type: ignore[union-attr]
    state, events = apply(state, 0, TakeFromHut("H-G-O4"))
    state, events = apply(state, 0, PlaceSection(2, 6, 0))
    placed = next(e for e in events if isinstance(e, SectionPlaced))
    assert placed.cells == (cell(2, 6), cell(3, 6), cell(2, 7), cell(3, 7))
    assert MonkPlaced(0, "section", section="H-G-O4") in events
    gaps = next(e for e in events if isinstance(e, GapsChecked))
    assert gaps.gaps == ((cell(1, 6), cell(1, 7)),)
    assert state.players[0].supply == 13
    assert player_score(state, 0) == 0
    assert not any(e for e in events if type(e).__name__ == "BuildingCompleted")
    assert sum(m.owner == 0 for m in state.monks) == 2


def test_lazy_monk_removed_when_gap_closes() -> None:
    state = fixture(
        1,
        2,
        [("P-B-O4", "O4", 1, 8, 0), ("H-Y-O4", "O4", 3, 8, 0), ("H-R-D2", "D2", 4, 6, 1)],
        "L1-R05",
    )
    state, _ = apply(state, 0, TakeFromHut("H-G-O4"))
    state, _ = apply(state, 0, PlaceSection(2, 6, 0))
    lazy = [m for m in state.monks if m.kind == "lazy"]
    assert len(lazy) == 1
    # The next player closes the gap with a vertical domino; the lazy monk goes home.
    state = attrs.evolve(
        state,
        phase=Phase.TURNS,
        queue=(),
        turn=Turn(seat=1, card="L1-R15", stage=Stage.ACT, selected="L1-R15", key=77),
    )
    state = state.with_player(1, attrs.evolve(state.players[1], selected="L1-R15"))
    state, _ = apply(state, 1, TakeFromHut("H-B-D2"))
    with pytest.raises(DomainError) as err:
        apply(state, 1, PlaceSection(1, 7, 1))  # would cover (1,8): a section is there
    assert err.value.code == "occupied"
    state, _events = apply(state, 1, PlaceSection(1, 6, 1))
    assert not [m for m in state.monks if m.kind == "lazy"]
    assert state.players[0].supply == 14
    assert player_score(state, 0) == 1


def setup_with_deck(level: int, n: int, mode: str, top: list[str]) -> State:
    state = GAME.initial_state({"level": level, "players": n, "mode": mode})
    events: list[Any] = []
    for e in GAME.setup(state, Context.seeded("deck")):
        if isinstance(e, RoundStarted):
            break
        if isinstance(e, TaskDeckShuffled):
            rest = [t for t in (e.order or ()) if t not in top]
            e = TaskDeckShuffled(e.count, (*top, *rest))
        events.append(e)
    assert isinstance(events[-1], GameStarted)
    state, _ = advance(state, events, Context.seeded("deck"))
    return state


@pytest.mark.parametrize(
    ("players", "level1", "undealt", "angels_left"),
    [(1, 31, 17, 3), (2, 15, 18, 2), (3, 11, 15, 1), (4, 7, 20, 0)],
)
def test_cg02_level1_deal_table(players: int, level1: int, undealt: int, angels_left: int) -> None:
    mode = "cooperative" if players == 1 else "competitive"
    state, _ = new_game(1, players, mode)
    for p in state.players:
        cards = [*p.this_year, *p.hand]
        assert len(cards) == level1 + 1
        assert sum(ACTIONS[c].level == 0 for c in cards) == 1
    assert sum(ACTIONS[c].level == 1 for c in state.box) == undealt
    assert sum(ACTIONS[c].level == 0 for c in state.box) == angels_left
    assert len(state.bag) == 20 and len(state.hut) == 20
    assert state.construction == {"A", "B", "C"} | {
        b for c, _ in state.board for b in TASKS[c].flips()
    }


@pytest.mark.parametrize(
    ("players", "l1", "l2", "pile", "undealt1", "undealt2"),
    [(1, 31, 22, 54, 17, 6), (2, 15, 11, 27, 18, 6), (3, 10, 7, 18, 18, 7), (4, 7, 7, 15, 20, 0)],
)
def test_cg03_level2_deal_table(
    players: int, l1: int, l2: int, pile: int, undealt1: int, undealt2: int
) -> None:
    mode = "cooperative" if players == 1 else "competitive"
    state, events = new_game(2, players, mode)
    for p in state.players:
        cards = [*p.this_year, *p.hand]
        assert len(cards) == pile
        assert sum(ACTIONS[c].level == 1 for c in cards) == l1
        assert sum(ACTIONS[c].level == 2 for c in cards) == l2
        assert sum(p.tiles) == 5 and min(p.tiles) >= 1
    assert sum(ACTIONS[c].level == 1 for c in state.box) == undealt1
    assert sum(ACTIONS[c].level == 2 for c in state.box) == undealt2
    assert len(state.bag) == 25 and sum(s.startswith("P-W") for s in state.bag) == 5
    assert sum(type(e).__name__ == "StartingTileDrawn" for e in events) == players


@pytest.mark.parametrize(
    ("players", "deal", "pile", "boxed3", "unfinished"),
    [
        (1, (31, 22, 18), 72, 0, 23),
        (2, (15, 11, 8), 35, 2, 24),
        (3, (10, 7, 6), 24, 0, 25),
        (4, (7, 7, 3), 18, 6, 20),
    ],
)
def test_cg04_level3_deal_table(
    players: int, deal: tuple[int, int, int], pile: int, boxed3: int, unfinished: int
) -> None:
    mode = "cooperative" if players == 1 else "competitive"
    state = setup_with_deck(3, players, mode, ["T1-09"])
    for p in state.players:
        cards = [*p.this_year, *p.hand]
        assert len(cards) == pile
        assert tuple(sum(ACTIONS[c].level == lvl for c in cards) for lvl in (1, 2, 3)) == deal
    assert sum(ACTIONS[c].level == 3 for c in state.box) == boxed3
    assert sum(len(p) for p in state.unfinished) == unfinished
    assert abs(len(state.unfinished[0]) - len(state.unfinished[1])) <= 12
    assert "A" in state.construction and "B" not in state.construction


@pytest.mark.parametrize(("players", "size"), [(1, 3), (2, 4), (3, 5), (4, 6)])
def test_cg05_level1_task_board(players: int, size: int) -> None:
    mode = "cooperative" if players == 1 else "competitive"
    state, _ = new_game(1, players, mode)
    assert len(state.board) == size
    assert all(s == "open" for _, s in state.board)
    assert len(state.task_deck) == 36 - size
    for c, _ in state.board:
        assert set(TASKS[c].flips()) <= state.construction
    assert not any(m.kind == "grass" for m in state.monks)


def test_cg06_level2_brown_card_takes_a_slot() -> None:
    top = ["T2-01", "T1-09", "T1-10", "T1-11", "T1-12", "T1-13"]
    state = setup_with_deck(2, 2, "competitive", top)
    assert state.board == (
        ("T2-01", "brown"),
        ("T1-09", "open"),
        ("T1-10", "open"),
        ("T1-11", "open"),
        ("T1-12", "open"),
    )
    assert state.task_deck[0] == "T1-13"
    assert all(sum(p.tiles) == 5 for p in state.players)  # nobody had more than 7


@pytest.mark.parametrize(("level", "sizes"), [(2, (3, 5, 6, 7)), (3, (4, 6, 7, 8))])
def test_task_board_sizes_levels_2_and_3(level: int, sizes: tuple[int, ...]) -> None:
    normal = [f"T1-{i:02d}" for i in range(9, 23)]
    for players, size in zip((1, 2, 3, 4), sizes, strict=True):
        mode = "cooperative" if players == 1 else "competitive"
        state = setup_with_deck(level, players, mode, normal)
        assert len(state.board) == size


def test_cg07_level3_fire_without_books_is_replaced() -> None:
    top = ["T3-01", "T1-09", "T1-10", "T1-11", "T1-12"]
    state = setup_with_deck(3, 1, "cooperative", top)
    assert state.task_discard == ("T3-01",)
    assert [c for c, _ in state.board] == ["T1-09", "T1-10", "T1-11", "T1-12"]


@pytest.mark.parametrize(
    ("score", "name", "outcome", "qualified"),
    [
        (39, "Iron gall", "try again", False),
        (40, "Ochre", "success", False),
        (41, "Ochre", "success", False),
        (42, "Red lead", "success", False),
        (43, "Red lead", "success", False),
        (44, "Azurite", "success", False),
        (45, "Azurite", "success", False),
        (46, "Tyrian purple", "success", False),
        (47, "Tyrian purple", "success", False),
        (48, "Gold", "success", False),
        (49, "Gold", "success", False),
        (50, "Lapis lazuli", "qualified for level II", True),
        (51, "Lapis lazuli", "qualified for level II", True),
        (-5, "Iron gall", "try again", False),
    ],
)
def test_cg08_level1_pigments(score: int, name: str, outcome: str, qualified: bool) -> None:
    assert pigment(1, score) == (name, outcome, qualified)


@pytest.mark.parametrize(
    ("score", "name", "qualified"),
    [
        (39, "Iron gall", False),
        (40, "Ochre", False),
        (42, "Red lead", False),
        (44, "Azurite", False),
        (45, "Azurite", False),
        (46, "Tyrian purple", True),
        (47, "Tyrian purple", True),
        (48, "Gold", True),
        (49, "Gold", True),
        (50, "Lapis lazuli", True),
        (51, "Lapis lazuli", True),
    ],
)
def test_cg09_level2_pigments(score: int, name: str, qualified: bool) -> None:
    got = pigment(2, score)
    assert got[0] == name and got[2] == qualified
    assert got[1] == (
        "qualified for level III" if qualified else "try again" if score < 40 else "success"
    )


@pytest.mark.parametrize(
    ("score", "name", "annals"),
    [
        (69, "Iron gall", False),
        (70, "Ochre", False),
        (71, "Ochre", False),
        (72, "Red lead", False),
        (74, "Red lead", False),
        (75, "Azurite", False),
        (77, "Azurite", False),
        (78, "Tyrian purple", True),
        (80, "Tyrian purple", True),
        (81, "Gold", True),
        (83, "Gold", True),
        (84, "Lapis lazuli", True),
        (85, "Lapis lazuli", True),
    ],
)
def test_cg10_level3_pigments(score: int, name: str, annals: bool) -> None:
    got = pigment(3, score)
    assert got[0] == name and got[2] == annals
    assert (got[1] == "one for the annals!") == annals


def _all_covered_state() -> State:
    state = GAME.initial_state({"level": 3, "players": 1, "mode": "cooperative"})
    from domain.campus_galli.queries import ALL_BUILDING_MASK, ALL_LETTERS

    return attrs.evolve(
        state, construction=frozenset(ALL_LETTERS), cover=ALL_BUILDING_MASK, placed=()
    )


def test_cg10_complete_monastery_bonus() -> None:
    state = _all_covered_state()
    assert team_score(state, (79,)) == 84
    assert pigment(3, team_score(state, (79,)))[0] == "Lapis lazuli"
    one_gap = attrs.evolve(state, cover=state.cover & ~(1 << cell(6, 1)))
    assert team_score(one_gap, (79,)) == 79
    assert pigment(3, 79)[0] == "Tyrian purple"


def test_cooperative_penalties() -> None:
    state = GAME.initial_state({"level": 1, "players": 2, "mode": "cooperative"})
    # A, B, C unstarted: three regions of >= 4 cells (-9); eight parchment buildings (-48).
    assert team_score(state, (0, 0)) == -9 - 48


@pytest.mark.parametrize(
    ("tiles", "points"),
    [
        ((0, 0, 0, 0), 0),
        ((1, 1, 1, 1), 1),
        ((3, 0, 0, 0), 1),
        ((4, 1, 1, 1), 2),
        ((3, 3, 3, 3), 4),
        ((6, 1, 1, 1), 2),
        ((7, 1, 1, 1), 3),
    ],
)
def test_tile_sets_take_the_best_partition(tiles: tuple[int, ...], points: int) -> None:
    assert tile_set_points(tiles) == points


def test_cg06_brown_card_is_discarded_at_tidy_up() -> None:
    from domain.bots import RandomBot
    from domain.randomness import Rng

    top = ["T2-01", "T1-09", "T1-10", "T1-11", "T1-12", "T1-13"]
    state = setup_with_deck(2, 2, "competitive", top)
    rng, bot, step = Rng(3), RandomBot(), 0
    while state.round_no == 1 or state.phase != "select":
        seat = min(GAME.to_act(state))
        state, _ = apply(state, seat, bot_move(bot, GAME, state, seat, rng), f"r{step}")
        step += 1
    assert "T2-01" in state.task_discard
    assert "T1-13" in [c for c, _ in state.board]


def test_two_lazy_monks_whose_spaces_merge_both_stay_until_it_closes_or_grows() -> None:
    """Issue 11, item 6b. Rulebook: "You can remove a lazy monk and return him to your
    supply if someone completely closes the empty space when they lay a building section, or
    increases the empty space beyond 3 wooden building spaces". A reconstruction that merges
    two empty spaces into one of 3 or fewer does neither: both monks stay, both lying in the
    merged space (each still -1 for its owner). Once it grows beyond 3, both go home."""
    from domain.campus_galli.evolve import reconcile
    from domain.campus_galli.state import Monk

    state = fixture(
        1,
        2,
        [("P-B-O4", "O4", 1, 8, 0), ("H-Y-O4", "O4", 3, 8, 0), ("H-R-D2", "D2", 4, 6, 1)],
        "L1-R05",
    )
    state, _ = apply(state, 0, TakeFromHut("H-G-O4"))
    state, _ = apply(state, 0, PlaceSection(2, 6, 0))
    # The one 2-cell space (1,6)-(1,7), as if two 1-cell spaces had been merged into it.
    a, b = 1 << cell(1, 6), 1 << cell(1, 7)
    others = tuple(m for m in state.monks if m.kind != "lazy")
    monks = (*others, Monk(0, "lazy", gap=a), Monk(1, "lazy", gap=b))
    state = attrs.evolve(state, monks=monks)
    merged = reconcile(state)
    lazy = [m for m in merged.monks if m.kind == "lazy"]
    assert [(m.owner, m.gap) for m in lazy] == [(0, a | b), (1, a | b)]
    assert player_score(merged, 1) == player_score(state, 1)
    # Lift the green section (a reconstruction): the space grows to 6 cells, both leave.
    green = next(m for s, m in state.placed if s == "H-G-O4")
    lifted = attrs.evolve(
        merged,
        placed=tuple(x for x in merged.placed if x[0] != "H-G-O4"),
        cover=merged.cover & ~green,
    )
    after = reconcile(lifted)
    assert not [m for m in after.monks if m.kind == "lazy"]
    assert after.players[0].supply == lifted.players[0].supply + 1
    assert after.players[1].supply == lifted.players[1].supply + 1
