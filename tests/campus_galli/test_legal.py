"""``legal_commands`` is exact: every listed command is accepted, and mutated or unlisted
commands are rejected with a DomainError (never another exception)."""

from __future__ import annotations

import random
import typing
from typing import Any

import attrs
import pytest

from domain.campus_galli import commands as C
from domain.campus_galli.content import ACTIONS, SECTIONS, TASKS
from domain.errors import DomainError
from domain.randomness import Context
from tests.campus_galli.cg_support import COMBOS, GAME, iter_states

_STRINGS = [
    "",
    "R",
    "B",
    "G",
    "Y",
    "W",
    "hut",
    "bag",
    "A",
    "D",
    "K",
    "Z",
    "D2",
    "T4",
    "O4",
    *sorted(ACTIONS)[::7],
    *sorted(SECTIONS)[::5],
    *sorted(TASKS)[::9],
]
_TILES: list[tuple[str, ...]] = [
    (),
    ("R",),
    ("B",),
    ("G",),
    ("Y",),
    ("R", "R"),
    ("B", "R"),
    ("R", "B", "?"),
    ("R", "R", "R"),
    ("R", "B", "G", "Y", "Y"),
    ("X",),
]


def mutate(command: Any, rng: random.Random) -> Any:
    fields = attrs.fields(type(command))
    if not fields:
        return random_command(rng)
    f = rng.choice(fields)
    value = getattr(command, f.name)
    if isinstance(value, bool):
        new: Any = rng.choice([not value, not value, rng.randint(-2, 2), "yes"])
    elif isinstance(value, int):
        new = rng.randint(-2, 22)
    elif isinstance(value, str):
        new = rng.choice(_STRINGS)
    else:
        new = rng.choice(_TILES)
    return attrs.evolve(command, **{f.name: new})


def random_command(rng: random.Random) -> Any:
    cls = rng.choice(C.COMMAND_TYPES)
    kwargs: dict[str, Any] = {}
    for name, tp in typing.get_type_hints(cls).items():
        if tp is bool:
            kwargs[name] = rng.choice([True, False])
        elif tp is int:
            kwargs[name] = rng.randint(-1, 21)
        elif tp is str:
            kwargs[name] = rng.choice(_STRINGS)
        else:
            kwargs[name] = rng.choice(_TILES)
    return cls(**kwargs)


@pytest.mark.parametrize(
    ("level", "players", "mode"), [c for c in COMBOS if c[2] == "competitive" or c[1] == 1]
)
def test_legal_commands_are_exact(level: int, players: int, mode: str) -> None:
    rng = random.Random(f"{level}{players}{mode}")
    for index, state in enumerate(iter_states(level, players, mode, seed=7)):
        if index % 3:
            continue
        ctx = Context.seeded(index)
        for seat in range(players):
            legal = list(GAME.legal_commands(state, seat))
            acting = seat in GAME.to_act(state)
            assert bool(legal) == acting, "a seat to act must have a legal command"
            for command in rng.sample(legal, min(6, len(legal))):
                GAME.decide(state, seat, command, ctx)  # must not raise
            listed = set(legal)
            probes = [mutate(c, rng) for c in rng.sample(legal, min(6, len(legal)))]
            probes += [random_command(rng) for _ in range(4)]
            for probe in probes:
                if probe in listed:
                    continue
                with pytest.raises(DomainError):
                    GAME.decide(state, seat, probe, ctx)
