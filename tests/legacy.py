"""Recorded games from before the kernel refactor (issue 11), and how to check them.

``tests/data/legacy/<label>.jsonl`` is a finished game: a header line (game type, options,
the seed it was played with) and then one line per event as the codec stores it
(``{"type": ..., "data": ...}``). ``<label>.expected.json`` holds what folding that log gave
when it was recorded: the result and the final review view (everything shown after the
game). A later version of the rules must fold the same log to the same review view; that is
``tests/test_legacy_replay.py``.

To record (only ever to add a game; never re-record an existing one to make a test pass):

    python -m tests.legacy record
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import orjson

from domain import REVIEW, Context, Rng, default_registry, validate_options
from protocol import GameCodec

DATA = Path(__file__).parent / "data" / "legacy"

GAMES: list[tuple[str, str, dict[str, Any], int]] = [
    # label, game type, options, seed
    ("illumination-duel", "illumination", {"mode": "duel"}, 1),
    ("illumination-duel-random-books", "illumination", {"mode": "duel", "books": "random"}, 2),
    ("illumination-solo", "illumination", {"mode": "solo", "difficulty": 3}, 3),
    (
        "illumination-solo-irreverent",
        "illumination",
        {"mode": "solo", "side": "irreverent", "difficulty": 6},
        4,
    ),
    ("campus-galli-2p-I", "campus-galli", {"players": 2, "level": 1}, 5),
    ("campus-galli-3p-III", "campus-galli", {"players": 3, "level": 3}, 6),
    (
        "campus-galli-coop-2p-II",
        "campus-galli",
        {"players": 2, "level": 2, "mode": "cooperative"},
        7,
    ),
    ("campus-galli-solo-III", "campus-galli", {"players": 1, "level": 3, "mode": "cooperative"}, 8),
    ("road-2p-short", "road-to-enlightenment", {"players": 2}, 9),
    ("road-4p-short-random", "road-to-enlightenment", {"players": 4, "nations": "random"}, 10),
    ("road-3p-long", "road-to-enlightenment", {"players": 3, "length": "long"}, 11),
    ("high-card-2p", "high-card", {"players": 2}, 12),
    ("high-card-4p", "high-card", {"players": 4}, 13),
]


def play(name: str, options: dict[str, Any], seed: int) -> list[Any]:
    """A whole game of uniformly random legal commands, as domain events."""
    game = default_registry()[name].game
    opts = validate_options(game, options)
    state = game.initial_state(opts)
    events = list(game.setup(state, Context.seeded(f"{seed}:setup")))
    for e in events:
        state = game.evolve(state, e)
    rng = Rng(seed)
    step = 0
    while not game.is_terminal(state):
        step += 1
        seat = rng.choice(sorted(game.to_act(state)))
        command = rng.choice(list(game.legal_commands(state, seat)))
        new = game.decide(state, seat, command, Context.seeded(f"{seed}:{step}"))
        for e in new:
            state = game.evolve(state, e)
        events += new
        if step > 50_000:
            raise RuntimeError(f"{name} {options}: no end after {step} commands")
    return events


def read_log(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = path.read_bytes().splitlines()
    return orjson.loads(lines[0]), [orjson.loads(line) for line in lines[1:]]


def final(name: str, options: dict[str, Any], raw_events: list[dict[str, Any]]) -> dict[str, Any]:
    """Fold a stored log; the result and the review view, JSON-ready."""
    game = default_registry()[name].game
    codec = GameCodec.for_game(game)
    state = game.initial_state(validate_options(game, options))
    for e in raw_events:
        state = game.evolve(state, codec.decode_event(e["type"], e["data"]))
    view = orjson.loads(
        orjson.dumps(game.view(state, REVIEW), default=codec.default, option=orjson.OPT_SORT_KEYS)
    )
    result = game.result(state)
    return {
        "terminal": game.is_terminal(state),
        "scores": None if result is None else list(result.scores),
        "winners": None if result is None else list(result.winners),
        "view": view,
    }


def digest(value: Any) -> str:
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()


def record() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for label, name, options, seed in GAMES:
        path = DATA / f"{label}.jsonl"
        if path.exists():
            continue
        game = default_registry()[name].game
        codec = GameCodec.for_game(game)
        events = play(name, options, seed)
        header = {"game": name, "options": options, "seed": seed, "events": len(events)}
        lines = [orjson.dumps(header)]
        lines += [
            orjson.dumps({"type": type(e).__name__, "data": codec.encode_event(e)}) for e in events
        ]
        path.write_bytes(b"\n".join(lines) + b"\n")
        _, raw = read_log(path)
        expected = final(name, options, raw)
        expected["view_sha256"] = digest(expected["view"])
        (DATA / f"{label}.expected.json").write_bytes(
            orjson.dumps(expected, option=orjson.OPT_SORT_KEYS) + b"\n"
        )
        print(f"{label}: {len(events)} events, {path.stat().st_size} bytes")


if __name__ == "__main__":
    if sys.argv[1:] != ["record"]:
        sys.exit(__doc__)
    record()
