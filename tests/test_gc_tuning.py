"""``server.run.tune_gc``: what a server process does to the cyclic collector at start-up."""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator
from typing import Any

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


def test_a_codec_keeps_no_command_of_a_past_legal_list_alive() -> None:
    """The swap game makes new command objects for every state's legal list. Held by the
    codec's identity cache, each move's commands outlived it: the young generation's
    collections moved them to the old ones and the full collections scanned them."""
    import weakref

    from bench.swapgame import GAME, Swap
    from protocol.codec import GameCodec

    codec: GameCodec[Any] = GameCodec(GAME)  # its own, not the process's shared one
    codec.encode_commands([Swap(i) for i in range(5)])  # the values, cached once
    past = [Swap(i) for i in range(5)]
    first = codec.encode_commands(past)
    refs = [weakref.ref(c) for c in past]
    assert codec.encode_commands(past) == first  # still alive: found again
    assert all(a is b for a, b in zip(codec.encode_commands(past), first, strict=True))
    del past
    assert all(r() is None for r in refs)  # nothing of the codec's holds them
    assert len(codec._by_id) == 5  # the first objects of each value, kept by the value cache
    for _ in range(1000):
        assert codec.encode_commands([Swap(i) for i in range(5)]) == first
    assert len(codec._by_id) == 5
