"""What Illumination sends, byte for byte, over many seeded games: a golden digest.

The view, the legal list and the delta are built with caches and shared parts for speed
(``view.py``, ``legal.py``, ``domain.views``); none of it may change a byte on the wire.
The digest was recorded from the code before those caches existed. It covers, after every
command of 16 seeded random duels and 4 solo games, each audience's rendered view (both
seats, a spectator, the review) as the hub renders them (one memo per state), the view
deltas from the previous state, every seat's legal commands as the hub encodes and
compacts them, and the events decided. The states are walked in order, so every cache is
hit as it is in a live game.

If a change to the rules or the view is meant to change what is sent, record the new
digest (``python -m tests.illumination.test_wire_golden``) and say why in the commit.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from domain import REVIEW, SPECTATOR, Context, Rng, seat_viewer, validate_options
from domain.game import fold, legal_segments
from domain.illumination import GAME_TYPE
from domain.views import Memo, render
from protocol import GameCodec
from protocol.delta import diff
from protocol.legal import compact_segments

GAME = GAME_TYPE.game
CODEC = GameCodec.for_game(GAME)
AUDIENCES = (seat_viewer(0), seat_viewer(1), SPECTATOR, REVIEW)
GAMES = [({"mode": "duel"}, seed) for seed in range(1, 17)] + [
    ({"mode": "solo", "difficulty": 3, "side": side}, seed)
    for seed, side in (
        (101, "reverent"),
        (102, "irreverent"),
        (103, "reverent"),
        (104, "irreverent"),
    )
]
GOLDEN = "b5a74571d40bd55c2d6c2934b4a7c8b6751ae5e5e2a1a41559d064660aa46f60"
"""Recorded again when the deltas began walking into lists whose elements mostly changed
(``protocol.delta.PER_ELEMENT``); with the diff before it, the old digest comes out."""


def _dump(value: Any) -> bytes:
    return orjson.dumps(value, default=CODEC.default)


def digest() -> str:
    h = hashlib.sha256()
    for options, seed in GAMES:
        state = GAME.initial_state(validate_options(GAME, options))
        state = fold(GAME, state, GAME.setup(state, Context.seeded(f"{seed}:setup")))
        seats = GAME.seat_count(validate_options(GAME, options))
        rng = Rng(seed)
        held: list[Any] | None = None
        step = 0
        while True:
            full, memo = GAME.full_view(state), Memo()
            views = [render(full, v, memo) for v in AUDIENCES[:seats] + AUDIENCES[2:]]
            for view in views:
                h.update(_dump(view))
            if held is not None:
                for old, new in zip(held, views, strict=True):
                    h.update(_dump(diff(old, new)))
            held = views
            for seat in range(seats):
                h.update(_dump(compact_segments(CODEC, legal_segments(GAME, state, seat))))
            if GAME.is_terminal(state):
                break
            seat = rng.choice(sorted(GAME.to_act(state)))
            command = rng.choice(list(GAME.legal_commands(state, seat)))
            step += 1
            events = GAME.decide(state, seat, command, Context.seeded(f"{seed}:{step}"))
            for e in events:
                h.update(type(e).__name__.encode())
                h.update(_dump(CODEC.encode_event(e)))
            state = fold(GAME, state, events)
    return h.hexdigest()


def test_the_wire_is_what_it_was() -> None:
    assert digest() == GOLDEN


if __name__ == "__main__":
    print(digest())
