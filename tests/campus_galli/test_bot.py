"""The greedy bot beats the random bot (CLOISTER_SOAK=1 runs the full 200-game sample)."""

from __future__ import annotations

import attrs
import pytest

from bench.bots import vs_legacy, vs_random
from domain.bots import bot_move
from domain.campus_galli import GAME_TYPE
from domain.campus_galli.bots import GreedyBot, _flip_value, _Plan, public_state
from domain.campus_galli.content import SECTIONS
from domain.campus_galli.geometry import ring_fast
from domain.campus_galli.queries import ALL_LETTERS, BUILDING_MASK, uncovered_wooden
from domain.campus_galli.state import Monk, State
from domain.viewers import Viewer
from tests import scale
from tests.campus_galli.cg_support import GAME, iter_states, new_game, play, random_chooser


def _greedy():  # type: ignore[no-untyped-def]
    bot = GreedyBot()
    return lambda state, seat, rng: bot_move(bot, GAME, state, seat, rng)


def test_greedy_is_registered() -> None:
    assert isinstance(GAME_TYPE.bot("greedy"), GreedyBot)
    assert GAME_TYPE.bot(None).name == "greedy"


@pytest.mark.slow  # (tests/conftest.py runs these first)
def test_greedy_beats_random_two_player_level1() -> None:
    # bench/bots.py's sample: 200 games with CLOISTER_SOAK=1 (>= 90%), 20 by default (>= 80%).
    n = scale.games(20, soak=200)
    share = vs_random("campus-galli", n)
    assert share >= (0.9 if scale.SOAK else 0.8), f"greedy won {share:.0%} of {n}"


@pytest.mark.skipif(not scale.SOAK, reason="200 games: CLOISTER_SOAK=1")
def test_greedy_beats_or_ties_the_state_reading_bot() -> None:
    share = vs_legacy("campus-galli", 200)
    assert share >= 0.5, f"the fair bot won or tied only {share:.0%} of 200"


def test_the_view_rebuilds_what_the_bot_reads_of_the_state() -> None:
    """``public_state`` rebuilds from the seat's view every public part of the state the
    bot's valuations read: the plan, the monks, the hut, the bag by shape and colour, the
    task board, every player's monks, tiles and tasks, and the seat's own hand."""
    total = 0
    for level in (1, 2, 3):
        for state, seat in _decisions(level, 2, 40 + level):
            total += 1
            rebuilt = public_state(GAME.view(state, Viewer(seat=seat)))
            assert rebuilt.placed == state.placed and rebuilt.cover == state.cover
            assert rebuilt.construction == state.construction and rebuilt.hut == state.hut
            assert [(m.owner, m.kind, m.gap) for m in rebuilt.monks] == [
                (m.owner, m.kind, m.gap) for m in state.monks
            ]
            assert sorted(_alike(rebuilt.bag)) == sorted(_alike(state.bag))
            assert rebuilt.board == state.board and rebuilt.year == state.year
            assert rebuilt.players[seat].hand == state.players[seat].hand
            for mine, theirs in zip(rebuilt.players, state.players, strict=True):
                assert (mine.tiles, mine.supply, mine.fulfilled) == (
                    theirs.tiles,
                    theirs.supply,
                    theirs.fulfilled,
                )
    assert total > 30


def _alike(sections: frozenset[str]) -> list[tuple[str, str]]:
    return [(SECTIONS[s].shape, SECTIONS[s].colour) for s in sections]


def _decisions(level: int, n: int, seed: int):  # type: ignore[no-untyped-def]
    for i, state in enumerate(iter_states(level, n, "competitive", seed)):
        if i % 3 == 0:
            yield state, sorted(GAME.to_act(state))[0]


def test_greedy_scores_higher_than_random_solo_cooperative() -> None:
    games = scale.games(6, soak=40)
    greedy = random = 0
    for seed in range(games):
        g, _, _ = play(1, 1, "cooperative", 2000 + seed, [_greedy()], checks=False)
        r, _, _ = play(1, 1, "cooperative", 2000 + seed, [random_chooser()], checks=False)
        greedy += g.team_score
        random += r.team_score
    assert greedy > random, f"greedy {greedy / games:.1f} vs random {random / games:.1f}"


def test_registered_in_the_default_registry() -> None:
    from domain.registry import default_registry

    assert default_registry()["campus-galli"].game is GAME


def _level_one() -> State:
    state, _ = new_game(1, 2, "competitive", "bot-plan")
    return state


def test_a_lay_that_closes_a_lazy_monks_space_frees_its_owner_and_costs_a_rival() -> None:
    """The owner of a lazy monk gets it back when its space is closed: +1 for the seat's
    own monk, a point for the rival (counted against) for the rival's. Shrinking the space
    owes no second lazy monk; shrinking a space with no monk in it does."""
    state = _level_one()
    wooden = uncovered_wooden(state)
    cell = wooden & -wooden
    beside = ring_fast(cell) & wooden
    beside &= -beside
    space = cell | beside
    # Every building wooden and the rest covered: no completion bonus (nothing to flip).
    built = sum(BUILDING_MASK.values())
    gap = attrs.evolve(state, construction=frozenset(ALL_LETTERS), cover=built & ~space)
    for owner, worth in ((0, 1.0), (1, -1.0)):
        plan = _Plan(attrs.evolve(gap, monks=(Monk(owner, "lazy", gap=space),)), 0)
        assert plan.bonus(space) == worth
        assert plan.bonus(beside) == 0.0
        assert plan.new_gaps(beside, ring_fast(beside)) == 0
    assert _Plan(gap, 0).new_gaps(beside, ring_fast(beside)) == 1


def test_completing_a_building_is_worth_its_master_builder_in_level_one() -> None:
    state = _level_one()
    letter = sorted(state.construction)[0]
    rest = uncovered_wooden(state) & BUILDING_MASK[letter]
    assert _Plan(state, 0).bonus(rest) == 1.0
    part = rest & (rest - 1)  # one space left open: not complete
    assert _Plan(state, 0).bonus(part) == 0.0
    everything = attrs.evolve(state, construction=frozenset(ALL_LETTERS))
    assert _Plan(everything, 0).bonus(uncovered_wooden(everything) & BUILDING_MASK[letter]) == 0


def test_the_bot_flips_the_building_that_sends_its_lazy_monk_home() -> None:
    """A flipped building next to a lazy monk's space of one grows it beyond 3 spaces."""
    state = _level_one()
    parchment = [b for b in ALL_LETTERS if b not in state.construction]
    wooden = sum(BUILDING_MASK[b] for b in state.construction)
    found = None
    for b in parchment:
        touching = ring_fast(BUILDING_MASK[b]) & wooden
        if touching and any(not ring_fast(BUILDING_MASK[o]) & touching for o in parchment):
            found = b, touching & -touching
            break
    assert found is not None
    building, cell = found
    others = [o for o in parchment if not ring_fast(BUILDING_MASK[o]) & cell]
    lazy = attrs.evolve(state, cover=wooden & ~cell, monks=(Monk(0, "lazy", gap=cell),))
    assert _flip_value(lazy, 0, building) == 1.0
    assert _flip_value(lazy, 1, building) == -1.0
    assert all(_flip_value(lazy, 0, o) == 0.0 for o in others)
