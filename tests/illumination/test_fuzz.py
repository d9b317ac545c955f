"""Malformed field values never crash ``decide``: it accepts or raises a DomainError."""

from __future__ import annotations

import contextlib
import itertools
import random

import attrs

from domain.errors import DomainError
from domain.illumination import GAME
from domain.illumination.commands import COMMAND_TYPES
from domain.randomness import Context
from tests.illumination.illum_support import iter_states

WEIRD = [
    None,
    -1,
    0,
    1,
    2,
    99,
    1.5,
    True,
    "",
    "x",
    "row",
    "Wine",
    "coin",
    "R01",
    "I36",
    (),
    (1,),
    (1, 1),
    (0, 0, 0, 0, 0),
    (1, 0, 0, 0, 0),
    (-1, 3, 0, 0, 0),
    ("a", "b"),
    [1, 2],
    {"a": 1},
]


def test_weird_fields_never_crash_decide() -> None:
    rnd = random.Random(9)
    states = list(itertools.islice(iter_states({"mode": "duel"}, 4, every=7), 12)) + list(
        itertools.islice(iter_states({"mode": "solo"}, 5, every=7), 8)
    )
    tried = 0
    for state in states:
        for seat in (0, 1):
            for cls in COMMAND_TYPES:
                fields = attrs.fields(cls)
                for _ in range(6 if fields else 1):
                    values = {f.name: rnd.choice(WEIRD) for f in fields}
                    command = cls(**values)
                    tried += 1
                    with contextlib.suppress(DomainError):
                        GAME.decide(state, seat, command, Context.seeded(tried))
    assert tried > 1000
