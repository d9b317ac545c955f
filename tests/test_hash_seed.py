"""What a game sends does not depend on the process's string-hash seed.

Several server processes serve one game (``cloister serve --workers N``, a cluster) and a
replay may be folded by another process than the one that played: if a view or a legal
list iterated a ``set`` or ``frozenset`` of strings, the same state would give different
bytes in different processes (Campus Galli's bag did). Each registered game's modes are
played a few dozen seeded random steps in two interpreters with different
``PYTHONHASHSEED``; the digests of every audience's view, legal list and events must match.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = r"""
import hashlib, orjson
from domain import SPECTATOR, Context, RandomBot, Rng, seat_viewer, validate_options
from domain.bots import bot_move
from domain.registry import default_registry
from protocol import GameCodec
from tests.game_contract import modes

STEPS = 40
out = hashlib.sha256()
for name, gtype in sorted(default_registry().items()):
    game, codec = gtype.game, GameCodec.for_game(gtype.game)
    for options in modes(gtype):
        opts = validate_options(game, options)
        n = game.seat_count(opts)
        audiences = [*(seat_viewer(s) for s in range(n)), SPECTATOR]
        state = game.initial_state(opts)
        events = list(game.setup(state, Context.seeded(f"hash-{name}")))
        rng = Rng(f"hash-{name}")
        for step in range(STEPS):
            for e in events:
                state = game.evolve(state, e)
            out.update(orjson.dumps([codec.encode_event(e) for e in events]))
            for v in audiences:
                out.update(orjson.dumps(game.view(state, v), default=codec.default))
            if game.is_terminal(state):
                break
            for s in range(n):
                legal = game.legal_commands(state, s)
                out.update(orjson.dumps(codec.encode_commands(legal)))
            seat = min(game.to_act(state))
            command = bot_move(RandomBot(), game, state, seat, rng)
            events = list(game.decide(state, seat, command, Context.seeded(f"{name}-{step}")))
print(out.hexdigest())
"""


def _digest(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_views_legal_lists_and_events_do_not_depend_on_the_hash_seed() -> None:
    assert _digest("1") == _digest("2")
