"""The kernel's transaction builder folds as it goes, exactly as a replay folds the log."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.transaction import Transaction


def add(state: tuple[int, ...], event: int) -> tuple[int, ...]:
    return (*state, event)


@given(st.lists(st.lists(st.integers(), max_size=4), max_size=6))
def test_state_is_always_the_fold_of_the_events(batches: list[list[int]]) -> None:
    tx: Transaction[tuple[int, ...], int] = Transaction((), add)
    for batch in batches:
        tx.emit(*batch)
        assert tx.state == tuple(tx.events)
    assert tx.start == ()
    assert len(tx) == sum(map(len, batches))


def test_each_event_sees_the_state_of_the_ones_before() -> None:
    seen: list[int] = []

    def evolve(state: int, event: int) -> int:
        seen.append(state)
        return state + event

    tx: Transaction[int, int] = Transaction(10, evolve)
    tx.extend([1, 2, 3])
    assert seen == [10, 11, 13]
    assert tx.state == 16


def test_an_event_evolve_cannot_apply_is_not_kept() -> None:
    def evolve(state: int, event: int) -> int:
        if event < 0:
            raise ValueError("negative")
        return state + event

    tx: Transaction[int, int] = Transaction(0, evolve)
    with pytest.raises(ValueError):
        tx.emit(1, -1)
    assert tx.state == 1
    assert tx.events == [1]
