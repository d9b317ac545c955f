"""Write the stored views that ``test_renderers.py`` draws: ``python -m tests.web.make_views``.

Plays each game with random legal moves from a fixed seed until seat 0 may send a command of
the wanted kind, then stores seat 0's view, its legal commands and the spectator's view. Run
it again when a game's view changes shape (the games must be importable from ``domain``).
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from domain.game import type_name, validate_options
from domain.randomness import Context
from domain.viewers import SPECTATOR, seat_viewer

OUT = Path(__file__).parent / "views"

# (module, game type, options, tag, wanted command type or None for the first state, seed)
WANTED: list[tuple[str, str, dict[str, Any], str, str | None, int]] = [
    ("highcard", "high-card", {}, "play", "PlayCard", 1),
    ("illumination", "illumination", {}, "start", None, 1),
    ("illumination", "illumination", {}, "place-tile", "PlaceTile", 1),
    ("illumination", "illumination", {}, "motus", "PlayMotus", 49),
    ("illumination", "illumination", {}, "exilium", "PlayExilium", 2),
    ("campus_galli", "campus-galli", {}, "select", "SelectActionCard", 1),
    ("campus_galli", "campus-galli", {}, "place-section", "PlaceSection", 1),
    ("campus_galli", "campus-galli", {"level": 2}, "last-exchange", "EndTurn", 1),
    ("road_to_enlightenment", "road-to-enlightenment", {}, "assign", "PlaceLuminary", 1),
    ("road_to_enlightenment", "road-to-enlightenment", {}, "declare", "DeclareAttack", 1),
]


def plain(o: Any) -> Any:
    """attrs values, tuples and sets as JSON-ready data."""
    if attrs.has(type(o)):
        return {f.name: plain(getattr(o, f.name)) for f in attrs.fields(type(o))}
    if isinstance(o, list | tuple):
        return [plain(x) for x in o]
    if isinstance(o, set | frozenset):
        return sorted(plain(x) for x in o)
    if isinstance(o, dict):
        return {str(k): plain(v) for k, v in o.items()}
    return o


def store(
    module: str, name: str, options: dict[str, Any], tag: str, want: str | None, seed: int = 1
) -> bool:
    try:
        game = importlib.import_module(f"domain.{module}").GAME
    except ImportError:
        print(f"skip {name}: domain.{module} is not here")
        return False
    state = game.initial_state(validate_options(game, options))
    for e in game.setup(state, Context.seeded("views")):
        state = game.evolve(state, e)
    rng = random.Random(seed)
    found: Callable[[set[str]], bool] = (lambda _t: True) if want is None else (lambda t: want in t)
    for i in range(2000):
        seats = sorted(game.to_act(state))
        if not seats:
            break
        legal = list(game.legal_commands(state, 0)) if 0 in seats else []
        if legal and found({type_name(c) for c in legal}):
            data = {
                "game_type": name,
                "seat": 0,
                "to_act": seats,
                "view": plain(game.view(state, seat_viewer(0))),
                "legal": [{"type": type_name(c), **plain(c)} for c in legal],
                "spectator_view": plain(game.view(state, SPECTATOR)),
            }
            path = OUT / f"{name}-{tag}.json"
            path.write_text(json.dumps(data, separators=(",", ":")))
            print(f"{path.name}: after {i} moves, {len(legal)} legal commands")
            return True
        seat = seats[0]
        command = rng.choice(list(game.legal_commands(state, seat)))
        for e in game.decide(state, seat, command, Context.seeded(f"views-{i}")):
            state = game.evolve(state, e)
    print(f"no state of {name} with {want}")
    return False


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    for args in WANTED:
        store(*args)
