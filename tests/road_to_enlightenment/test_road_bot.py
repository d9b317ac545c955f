"""The greedy bot: better than random, and usable in every seat of every mode."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bots import vs_legacy, vs_random
from domain.road_to_enlightenment import GreedyBot
from tests import scale
from tests.road_to_enlightenment.road_helpers import GAME, random_playout


@pytest.mark.slow  # (tests/conftest.py runs these first)
def test_greedy_beats_random_in_three_player_short_games() -> None:
    # bench/bots.py's sample: the greedy bot in one seat, random bots in the other two;
    # 200 games with CLOISTER_SOAK=1 (the sample, >= 90%), 20 by default (>= 80%).
    n = scale.games(20, soak=200)
    share = vs_random("road-to-enlightenment", n)
    assert share >= (0.9 if scale.SOAK else 0.8), f"greedy won {share:.0%} of {n}"


@pytest.mark.skipif(not scale.SOAK, reason="200 games: CLOISTER_SOAK=1")
def test_greedy_beats_or_ties_the_state_reading_bot() -> None:
    share = vs_legacy("road-to-enlightenment", 200)
    assert share >= 0.5, f"the fair bot won or tied only {share:.0%} of 200"


@pytest.mark.parametrize(("players", "length"), [(2, "short"), (4, "long"), (7, "short")])
def test_greedy_in_every_seat_terminates(players: int, length: str) -> None:
    bots = {s: GreedyBot() for s in range(players)}
    state, _ = random_playout(players, length, 99, bots=bots, leak_every=10)
    assert GAME.is_terminal(state)


def _attacks(log: list[object]) -> int:
    from domain.road_to_enlightenment.events import ActionDeclared

    return sum(1 for e in log if isinstance(e, ActionDeclared) and e.action == "ATTACK")


def test_greedy_bots_attack_in_three_bot_games() -> None:
    """Issue 11: two finished 3-bot games used to have no attack at all."""
    games = 6
    with_attack = 0
    for seed in range(games):
        bots = {s: GreedyBot() for s in range(3)}
        _, log = random_playout(3, "short", 500 + seed, check=False, bots=bots)
        with_attack += _attacks(log) > 0
    assert with_attack >= games // 2, f"only {with_attack} of {games} games saw an attack"


def test_greedy_attacks_when_it_clearly_pays() -> None:
    """A stack of the strongest soldiers, a full treasury, a scoring turn next: the bot
    declares an attack rather than a weak luminary action or a reorganisation."""
    from domain.bots import bot_move
    from domain.road_to_enlightenment.commands import DeclareAttack
    from domain.road_to_enlightenment.content import content
    from domain.road_to_enlightenment.state import replace
    from tests.road_to_enlightenment.road_helpers import new_game

    state, _ = new_game(3, "short", 11)
    lums = content().luminaries
    soldiers = sorted(
        (c for c, lum in lums.items() if lum.power is None),
        key=lambda c: -lums[c].stat("MIL"),
    )[:4]
    state, rng = _greedy_to_declare(state)
    seat, slot = state.stage.seat, state.stage.n
    p = state.players[seat]
    slots = tuple(tuple(soldiers) if i == slot - 1 else s for i, s in enumerate(p.slots))
    players = list(state.players)
    players[seat] = replace(
        p, slots=slots, coins=14, hand=tuple(c for c in p.hand if c not in soldiers)
    )
    state = replace(state, players=tuple(players), turn=4)
    assert any(isinstance(c, DeclareAttack) for c in GAME.legal_commands(state, seat))
    assert isinstance(bot_move(GreedyBot(), GAME, state, seat, rng), DeclareAttack)


def test_the_turn_order_bid_counts_anti_catholicism_on_the_lower_side() -> None:
    from domain.road_to_enlightenment.bots import _bid
    from domain.road_to_enlightenment.content import content

    class Catholic:
        religion = "CATH"

    class Anti:
        religion = "ANTI"

    lums = content().luminaries
    card = next(c for c, lum in lums.items() if lum.stat("ANT") >= 2 and lum.stat("MIL") == 0)
    lum = lums[card]
    assert _bid(Catholic(), [card]) == 0  # type: ignore[arg-type]
    ant = lum.stat("ANT")
    assert _bid(Anti(), [card]) == max(min(ant, lum.stat("SCI")), 0)  # type: ignore[arg-type]


def test_an_attack_that_pays_comes_before_a_strong_luminary_action() -> None:
    """Soldiers and an Advance luminary in the declared stack, a scoring turn next: the bot
    takes the city rather than the track step (the state-reading bot took the step)."""
    from domain.bots import bot_move
    from domain.road_to_enlightenment.commands import DeclareAttack, DeclareLuminaryAction
    from domain.road_to_enlightenment.content import content
    from domain.road_to_enlightenment.state import replace
    from tests.road_to_enlightenment.road_helpers import new_game

    state, _ = new_game(3, "short", 11)
    lums = content().luminaries
    soldiers = sorted(
        (c for c, lum in lums.items() if lum.power is None), key=lambda c: -lums[c].stat("MIL")
    )[:3]
    advance = sorted(
        c
        for c, lum in lums.items()
        if lum.power is not None and lum.power.kind == "ACTION" and lum.power.type == "ADVANCE"
    )[0]
    state, rng = _greedy_to_declare(state)
    seat, slot = state.stage.seat, state.stage.n
    p = state.players[seat]
    stack = (*soldiers, advance)
    slots = tuple(stack if i == slot - 1 else s for i, s in enumerate(p.slots))
    players = list(state.players)
    players[seat] = replace(
        p, slots=slots, coins=14, hand=tuple(c for c in p.hand if c not in stack)
    )
    state = replace(state, players=tuple(players), turn=4)
    legal = GAME.legal_commands(state, seat)
    assert any(isinstance(c, DeclareLuminaryAction) and c.card == advance for c in legal)
    assert any(isinstance(c, DeclareAttack) for c in legal)
    assert isinstance(bot_move(GreedyBot(), GAME, state, seat, rng), DeclareAttack)


def _greedy_to_declare(state: Any) -> tuple[Any, Any]:
    """``state`` played on by greedy bots (seeded) until a seat is to declare, and the
    random source they used (the bot's next choice goes on with it)."""
    from domain.bots import bot_move
    from domain.game import fold
    from domain.randomness import Context, Rng

    rng = Rng(1)
    steps = 0
    while state.stage.kind != "declare":
        seat = min(GAME.to_act(state))
        command = bot_move(GreedyBot(), GAME, state, seat, rng)
        state = fold(GAME, state, GAME.decide(state, seat, command, Context.seeded(steps)))
        steps += 1
    return state, rng
