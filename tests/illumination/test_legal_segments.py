"""The legal list as memoized runs (``legal_segments``) and their grouping a run at a time
(``protocol.legal.compact_segments``): the same commands and the very same groups as the
generic path (``compact_legal`` of the encoded list), over random games."""

from __future__ import annotations

from itertools import chain
from typing import Any

from domain import Context, Rng, validate_options
from domain.game import fold, legal_segments
from domain.illumination import GAME
from domain.illumination import commands as cmd
from protocol import GameCodec
from protocol.legal import compact_legal, compact_segments, expand_legal

CODEC = GameCodec.for_game(GAME)
OPTIONS: list[dict[str, Any]] = [
    {"mode": "duel"},
    {"mode": "duel", "books": "random"},
    {"mode": "solo", "difficulty": 3, "side": "reverent"},
    {"mode": "solo", "difficulty": 5, "side": "irreverent", "books": "random"},
]


def test_segments_group_as_the_generic_path_over_random_games() -> None:
    checked = 0
    for seed in range(1, 41):
        options = validate_options(GAME, OPTIONS[seed % len(OPTIONS)])
        state = GAME.initial_state(options)
        state = fold(GAME, state, GAME.setup(state, Context.seeded(f"{seed}:setup")))
        rng = Rng(seed)
        step = 0
        while not GAME.is_terminal(state):
            for seat in range(2):
                commands = GAME.legal_commands(state, seat)
                segments = GAME.legal_segments(state, seat)
                assert all(type(s) is tuple for s in segments)
                assert list(chain.from_iterable(segments)) == commands, (seed, step, seat)
                groups = compact_segments(CODEC, segments)
                assert groups == compact_legal(CODEC.encode_commands(commands)), (seed, step)
                assert expand_legal(groups) == CODEC.encode_commands(commands)
                checked += 1
            seat = rng.choice(sorted(GAME.to_act(state)))
            command = rng.choice(list(GAME.legal_commands(state, seat)))
            step += 1
            events = GAME.decide(state, seat, command, Context.seeded(f"{seed}:{step}"))
            state = fold(GAME, state, events)
    assert checked > 3000


def test_the_same_run_is_the_same_tuple() -> None:
    """What the server's look-ups by identity rely on: equal runs are one object."""
    options = validate_options(GAME, {"mode": "duel"})
    state = GAME.initial_state(options)
    state = fold(GAME, state, GAME.setup(state, Context.seeded("1:setup")))
    seat = min(GAME.to_act(state))
    first, again = GAME.legal_segments(state, seat), GAME.legal_segments(state, seat)
    assert len(first) == len(again) and all(a is b for a, b in zip(first, again, strict=True))


def test_compact_segments_takes_any_runs() -> None:
    """Mixed types in one run, a run split across segments, lists (encoded each time),
    empty runs: the generic path's groups."""
    a, b = cmd.PlaceTile("R01", 0, 1), cmd.PlaceTile("R01", 0, 2)
    c, d = cmd.ChooseLine("row", 1), cmd.Pass()
    cases: list[list[Any]] = [
        [(a, b), (c,)],
        [(a,), (b, c), (d,)],
        [(a, c, b), ()],
        [[a, b], (b, a), [c, d]],
        [(), [], (d,), (d,)],
        [[a], (b,), [a]],
    ]
    for segments in cases * 2:  # the second time from the look-ups
        flat = list(chain.from_iterable(segments))
        assert compact_segments(CODEC, segments) == compact_legal(CODEC.encode_commands(flat))


def test_a_game_without_runs_has_its_list_as_one() -> None:
    class Plain:
        def legal_commands(self, state: Any, seat: int) -> list[int]:
            return [state, seat]

    assert legal_segments(Plain(), 1, 2) == ([1, 2],)  # type: ignore[arg-type]
