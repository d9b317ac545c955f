"""The domain kernel: options, viewers, randomness, commit→reveal, and High Card's rules."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import (
    REVIEW,
    SPECTATOR,
    ChoiceCommitted,
    Context,
    GameOver,
    InvalidOptions,
    NotYourTurn,
    RandomBot,
    RuleViolation,
    SecretChoices,
    UnknownCommand,
    default_registry,
    fold,
    seat_viewer,
    validate_options,
)
from domain.bots import bot_move
from domain.highcard import GAME
from domain.highcard.game import CardDrawn, Draw, Pass, PlayCard, State
from protocol import GameCodec


def started(players: int = 2, seed: int = 0) -> State:
    opts = validate_options(GAME, {"players": players})
    state = GAME.initial_state(opts)
    return fold(GAME, state, GAME.setup(state, Context.seeded(seed)))


# -- options ---------------------------------------------------------------------------------
def test_options_fill_defaults_and_reject_bad_values() -> None:
    assert validate_options(GAME, None) == {"players": 2}
    assert validate_options(GAME, {"players": 4}) == {"players": 4}
    with pytest.raises(InvalidOptions, match="must be one of"):
        validate_options(GAME, {"players": 5})
    with pytest.raises(InvalidOptions, match="must be one of"):
        validate_options(GAME, {"players": True})  # a bool is not the integer 1
    with pytest.raises(InvalidOptions, match="no option 'speed'"):
        validate_options(GAME, {"speed": 3})


def test_registry_offers_a_random_bot_for_every_type() -> None:
    for gtype in default_registry().values():
        assert gtype.bot("random").name == "random"
        with pytest.raises(KeyError, match="no bot level"):
            gtype.bot("grandmaster")


# -- viewers and randomness ------------------------------------------------------------------
def test_viewers() -> None:
    assert SPECTATOR.is_spectator and not SPECTATOR.sees_seat(0)
    assert seat_viewer(1).sees_seat(1) and not seat_viewer(1).sees_seat(0)
    assert REVIEW.sees_seat(0) and REVIEW.sees_seat(3) and not REVIEW.is_spectator


def test_context_is_deterministic_per_seed_and_version() -> None:
    a = Context.for_version("seed", 3).rng.shuffled(range(20))
    b = Context.for_version("seed", 3).rng.shuffled(range(20))
    c = Context.for_version("seed", 4).rng.shuffled(range(20))
    assert a == b and a != c
    assert sorted(a) == list(range(20))


# -- commit → reveal ---------------------------------------------------------------------------
def test_secret_choices_commit_change_and_reveal() -> None:
    sc = SecretChoices.open([0, 1, 2])
    sc = sc.commit(1, ("x",)).commit(1, ("y",))  # changeable until all have committed
    assert sc.choice_of(1) == ("y",) and sc.waiting_on == {0, 2}
    assert sc.visible_to(seat_viewer(0))["mine"] is None
    assert sc.visible_to(seat_viewer(1))["mine"] == ["y"]
    assert "y" not in json.dumps(sc.visible_to(SPECTATOR))
    sc = sc.commit(0, ("a",)).commit(2, ("b",))
    assert sc.complete
    assert sc.revealed().choices == ((0, ("a",)), (1, ("y",)), (2, ("b",)))
    event = ChoiceCommitted(1, ("y",))
    assert SecretChoices.redact(event, seat_viewer(0)) == ChoiceCommitted(1, None)
    assert SecretChoices.redact(event, seat_viewer(1)) == event


# -- High Card rules -----------------------------------------------------------------------------
def test_setup_deals_two_cards_each_from_a_recorded_shuffle() -> None:
    state = started(3)
    assert [len(h) for h in state.hands] == [2, 2, 2]
    assert len(state.deck) == 6 and state.phase == "draw" and state.turn == 0
    cards = [c for h in state.hands for c in h] + list(state.deck)
    assert sorted(cards) == [f"hc-{n:02d}" for n in range(1, 13)]


def test_turn_order_and_errors_name_the_rule() -> None:
    state = started(2)
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 1, Draw(), Context.seeded(1))
    with pytest.raises(RuleViolation, match="play phase") as err:
        GAME.decide(state, 0, PlayCard("hc-01"), Context.seeded(1))
    assert err.value.code == "wrong_phase"
    with pytest.raises(UnknownCommand):
        GAME.decide(state, 0, object(), Context.seeded(1))
    events = GAME.decide(state, 0, Draw(), Context.seeded(1))
    assert events == [CardDrawn(0, state.deck[0])]


def test_highest_card_wins_the_round_and_the_game_ends_after_three() -> None:
    state = started(2, seed=3)
    ctx = Context.seeded(0)
    for _ in range(3):
        for seat in (0, 1):
            move = Pass() if Pass() in GAME.legal_commands(state, seat) else Draw()
            state = fold(GAME, state, GAME.decide(state, seat, move, ctx))
        assert state.phase == "play"
        played = {s: state.hands[s][0] for s in (0, 1)}
        before = state.scores
        state = fold(GAME, state, GAME.decide(state, 0, PlayCard(played[0]), ctx))
        assert state.choices.waiting_on == {1}
        state = fold(GAME, state, GAME.decide(state, 1, PlayCard(played[1]), ctx))
        winner = max(played, key=lambda s: int(played[s][3:]))
        assert state.scores[winner] == before[winner] + int(played[winner][3:])
        if state.phase == "over":
            break
    assert GAME.is_terminal(state)
    with pytest.raises(GameOver):
        GAME.decide(state, 0, Pass(), ctx)
    result = GAME.result(state)
    assert result is not None and max(result.scores) == result.scores[result.winners[0]]


def test_empty_hand_must_draw() -> None:
    state = started(2)
    import attrs

    state = attrs.evolve(state, hands=((), state.hands[1]))
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, 0, Pass(), Context.seeded(0))
    assert err.value.code == "must_draw"
    assert GAME.legal_commands(state, 0) == [Draw()]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4]))
def test_random_playouts_terminate_replay_exactly_and_leak_nothing(seed: int, players: int) -> None:
    codec = GameCodec(GAME)
    state = started(players, seed)
    log = list(GAME.setup(GAME.initial_state({"players": players}), Context.seeded(seed)))
    ctx = Context.seeded(seed + 1)
    bot = RandomBot()
    for _ in range(200):
        if GAME.is_terminal(state):
            break
        seat = min(GAME.to_act(state))
        legal = GAME.legal_commands(state, seat)
        assert legal, "a seat to act always has a legal command"
        for command in legal:  # every listed command is accepted
            GAME.decide(state, seat, command, ctx)
        events = GAME.decide(state, seat, bot_move(bot, GAME, state, seat, ctx.rng), ctx)
        for e in events:
            assert codec.decode_event(type(e).__name__, codec.encode_event(e)) == e
        log += events
        state = fold(GAME, state, events)
        for viewer in [SPECTATOR, *(seat_viewer(s) for s in range(players))]:
            hidden = GAME.hidden_values(state, viewer)
            seen = json.dumps(GAME.view(state, viewer))
            seen += json.dumps([codec.encode_event(GAME.redact(e, viewer)) for e in events])
            assert not [h for h in hidden if h in seen]
    assert GAME.is_terminal(state)
    replayed = fold(GAME, GAME.initial_state({"players": players}), log)
    assert replayed == state
