"""Contract tests: codec round trips, exact legal_commands, options, registry, content."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from domain.bots import bot_move
from domain.errors import DomainError, InvalidCommand, NotYourTurn, UnknownCommand
from domain.game import validate_options
from domain.randomness import Context, Rng
from domain.registry import default_registry
from domain.road_to_enlightenment.commands import COMMAND_TYPES
from domain.road_to_enlightenment.content import ContentError, content, validate
from tests.road_to_enlightenment.road_helpers import CODEC, GAME, new_game, random_playout

GAMES = [(2, "short", 11), (4, "long", 12), (7, "short", 13), (5, "long", 14)]


@pytest.fixture(scope="module")
def logs() -> list[tuple[Any, list[Any]]]:
    return [random_playout(n, length, seed, leak_every=0) for n, length, seed in GAMES]


def test_every_event_round_trips_through_the_codec(logs: list[tuple[Any, list[Any]]]) -> None:
    seen = set()
    for _, log in logs:
        for e in log:
            data = json.loads(json.dumps(CODEC.encode_event(e)))
            assert CODEC.decode_event(type(e).__name__, data) == e
            seen.add(type(e).__name__)
    assert {
        "LuminariesMoved",
        "StacksLocked",
        "CombatResolved",
        "TurnOrderSet",
        "GameEnded",
    } <= seen


def _states(n: int, length: str, seed: int, every: int = 7) -> list[Any]:
    """Reachable states along a random game."""
    from domain.bots import RandomBot

    state, _ = new_game(n, length, seed)
    rng = Rng(seed)
    out = []
    steps = 0
    while not GAME.is_terminal(state):
        if steps % every == 0:
            out.append(state)
        seat = rng.choice(sorted(GAME.to_act(state)))
        cmd = bot_move(RandomBot(), GAME, state, seat, rng)
        for e in GAME.decide(state, seat, cmd, Context.seeded(steps)):
            state = GAME.evolve(state, e)
        steps += 1
    out.append(state)
    return out


def _mutations(cmd: Any, rng: Rng) -> list[Any]:
    cards = list(content().luminaries)
    out = []
    for f in attrs.fields(type(cmd)):
        value = getattr(cmd, f.name)
        options: list[Any] = [None, "XXX", -1, 999, True, ("re-R01", "re-R01")]
        if isinstance(value, bool):
            options += [not value]
        elif isinstance(value, int):
            options += [value + 1, value - 1]
        elif isinstance(value, str):
            options += [rng.choice(cards), value.lower(), "LAND", "SEA", "ENG"]
        elif isinstance(value, tuple):
            options += [(), (*value, rng.choice(cards)), value[1:], (rng.choice(cards),)]
        for o in options:
            out.append(attrs.evolve(cmd, **{f.name: o}))
    return out


@pytest.mark.parametrize(
    ("players", "length", "seed"), [(3, "short", 21), (6, "long", 22), (2, "long", 23)]
)
def test_legal_commands_are_exactly_what_decide_accepts(
    players: int, length: str, seed: int
) -> None:
    rng = Rng(seed)
    accepted = rejected = 0
    for state in _states(players, length, seed):
        for seat in range(players):
            legal = list(GAME.legal_commands(state, seat))
            if seat not in GAME.to_act(state):
                if state.stage.kind == "assign" and seat in state.choices.seats:
                    # DD-38: a committed seat may still revise its plan (and only that)
                    assert all(type(c).__name__ == "PlaceLuminary" for c in legal)
                    continue
                assert legal == []
                if not GAME.is_terminal(state):
                    with pytest.raises(NotYourTurn):
                        GAME.decide(state, seat, COMMAND_TYPES[1](), Context.seeded(1))
                continue
            sample = legal if len(legal) <= 12 else rng.sample(legal, 12)
            for cmd in sample:
                GAME.decide(state, seat, cmd, Context.seeded(2))  # must not raise
                accepted += 1
            legal_set = set(legal)
            for cmd in sample[:4]:
                for bad in _mutations(cmd, rng):
                    if bad in legal_set:
                        continue
                    try:
                        GAME.decide(state, seat, bad, Context.seeded(3))
                    except DomainError:
                        rejected += 1
                    else:
                        raise AssertionError(f"{bad} was accepted but is not listed")
            # every other command type with junk values is rejected as a DomainError
            for ctype in COMMAND_TYPES:
                try:
                    junk = ctype(*[None] * len(attrs.fields(ctype)))
                except TypeError:
                    continue
                if junk in legal_set:
                    continue
                with pytest.raises(DomainError):
                    GAME.decide(state, seat, junk, Context.seeded(4))
    assert accepted > 50 and rejected > 50


def test_commands_round_trip_through_the_codec() -> None:
    for state in _states(4, "short", 31, every=3)[:60]:
        for seat in GAME.to_act(state):
            for cmd in list(GAME.legal_commands(state, seat))[:20]:
                raw = json.loads(json.dumps(CODEC.encode_command(cmd)))
                assert CODEC.decode_command(raw) == cmd


def test_unknown_command_and_game_over() -> None:
    state, _ = new_game(2, "short", 1)
    with pytest.raises(UnknownCommand):
        GAME.decide(state, 0, object(), Context.seeded(1))
    with pytest.raises(InvalidCommand):
        GAME.decide(state, 9, COMMAND_TYPES[1](), Context.seeded(1))
    final, _ = random_playout(2, "short", 5, check=False)
    from domain.errors import GameOver

    with pytest.raises(GameOver):
        GAME.decide(final, 0, COMMAND_TYPES[1](), Context.seeded(1))


def test_options_and_registry() -> None:
    assert validate_options(GAME, None) == {"players": 3, "length": "short", "nations": "seats"}
    assert validate_options(GAME, {"players": 7, "length": "long"})["players"] == 7
    with pytest.raises(DomainError):
        validate_options(GAME, {"players": 8})
    assert GAME.seat_labels({"players": 4, "length": "short"}) == (
        "France",
        "England",
        "Sweden",
        "Poland",
    )
    registered = default_registry()["road-to-enlightenment"]
    assert registered.game is GAME
    assert registered.bot("greedy").name == "greedy"
    assert registered.bot("random").name == "random"


def _raw() -> dict[str, Any]:
    from domain.road_to_enlightenment.content import _read

    return {n: _read(f"{n}.json") for n in ("map", "nations", "luminaries", "rules")}


def test_content_matches_the_reference() -> None:
    c = content()
    assert len(c.cities) == 32
    assert sum(len(x.links) for x in c.cities.values()) == 80  # 40 symmetric land links
    assert len(c.luminaries) == 120
    assert sum(1 for x in c.luminaries.values() if x.favorite) == 24
    assert c.nations["SPA"].treasury_limit // 2 + c.nations["SPA"].start_bonus_coins == 11


@pytest.mark.parametrize(
    ("file", "breakage", "message"),
    [
        ("map", lambda d: d["cities"][0]["links"].append("XXX"), "unknown city"),
        ("map", lambda d: d["cities"][1].update(sea="Q"), "sea must be"),
        ("map", lambda d: d["cities"][0]["links"].remove("AMS"), "not symmetric"),
        ("luminaries", lambda d: d["luminaries"][0]["power"].update(type="FLY"), "unknown power"),
        ("luminaries", lambda d: d["luminaries"][0]["stats"].update(CAT=1), "both CAT and ANT"),
        ("luminaries", lambda d: d["luminaries"].append(dict(d["luminaries"][0])), "twice"),
        # luminaries[0] is an enhancement (MIGHT), [4] an action (TAX): the cost hook's checks
        ("luminaries", lambda d: d["luminaries"][0]["power"].update(cost={"POL": 2}), "only an"),
        ("luminaries", lambda d: d["luminaries"][4]["power"].update(cost={"XYZ": 2}), "stat"),
        ("luminaries", lambda d: d["luminaries"][4]["power"].update(cost={"POL": 0}), ">= 1"),
        ("luminaries", lambda d: d["luminaries"][4]["power"].update(type="SETBACK"), "SETBACK"),
        ("nations", lambda d: d["nations"]["FRA"].update(treasury_limit=13), "even"),
        ("rules", lambda d: d["nations_by_players"]["3"].append("XXX"), "unknown nation"),
    ],
)
def test_a_broken_content_file_is_rejected(file: str, breakage: Any, message: str) -> None:
    raw = json.loads(json.dumps(_raw()))
    breakage(raw[file])
    with pytest.raises(ContentError, match=message):
        validate(raw["map"], raw["nations"], raw["luminaries"], raw["rules"])


def test_every_event_but_bookkeeping_has_a_one_line_sentence(
    logs: list[tuple[Any, list[Any]]],
) -> None:
    from domain import REVIEW, Names

    for state, log in logs:
        names = Names(GAME.table_labels(state, ()))
        for e in log:
            text = GAME.narrate(GAME.redact(e, REVIEW), names)
            if isinstance(e, GAME.quiet_events):
                assert text is None
            else:
                assert text and "\n" not in text


def test_review_view_shows_everything_and_result_names_the_winner(
    logs: list[tuple[Any, list[Any]]],
) -> None:
    from domain.viewers import REVIEW

    state, _ = logs[0]
    view = GAME.view(state, REVIEW)
    assert view["over"] and "decks" in view and "vault" in view
    assert GAME.hidden_values(state, REVIEW) == frozenset()
    result = GAME.result(state)
    assert result is not None and "wins" in result.summary
