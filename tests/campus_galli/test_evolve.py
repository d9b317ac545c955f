"""The fold's dispatch table: one handler per event type, and nothing else is folded."""

from __future__ import annotations

import pytest

from domain.campus_galli.events import EVENT_TYPES
from domain.campus_galli.evolve import _HANDLERS, evolve
from domain.campus_galli.game import CampusGalli


def test_every_event_type_has_exactly_one_handler() -> None:
    assert set(_HANDLERS) == set(EVENT_TYPES)


def test_a_foreign_event_is_refused() -> None:
    state = CampusGalli().initial_state({"players": 2})
    with pytest.raises(TypeError, match="not a Campus Galli event"):
        evolve(state, object())  # type: ignore[arg-type]
