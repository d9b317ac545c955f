"""``server.run.tune_gc``: what a server process does to the cyclic collector at start-up."""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator

import pytest

from server import run


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("restored_gc")
def test_tune_gc_collects_the_young_generation_less_often_and_freezes_start_up() -> None:
    gc.unfreeze()
    _, second, third = gc.get_threshold()
    run.tune_gc()
    assert gc.get_threshold() == (run.GC_FIRST_GENERATION, second, third)
    assert gc.get_freeze_count() > 0  # what was loaded so far is out of every scan


@pytest.mark.usefixtures("restored_gc")
def test_serve_tunes_the_collector_before_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(
        run.uvicorn.Server, "run", lambda self, sockets=None: seen.append(gc.get_threshold())
    )
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    monkeypatch.setattr(root, "handlers", handlers[:])  # serve() configures logging
    monkeypatch.setattr(root, "level", level)
    gc.set_threshold(700, 10, 10)
    run.serve(run.Settings(redis_url="redis://127.0.0.1:1/0"), port=0, log_level="warning")
    assert seen and seen[0][0] == run.GC_FIRST_GENERATION
