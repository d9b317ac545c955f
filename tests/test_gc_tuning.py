"""``server.run.tune_gc``: what a server process does to the cyclic collector at start-up."""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from server import Settings, run


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    callbacks = gc.callbacks[:]
    yield
    gc.callbacks[:] = callbacks
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("restored_gc")
def test_tune_gc_collects_the_young_generation_less_often_and_freezes_start_up() -> None:
    gc.unfreeze()
    _, second, third = gc.get_threshold()
    run.tune_gc()
    assert gc.get_threshold() == (run.GC_FIRST_GENERATION, second, third)
    assert gc.get_freeze_count() > 0  # what was loaded so far is out of every scan
    run.tune_gc()  # again: one policy, not two
    assert sum(isinstance(cb, run.YoungFrozen) for cb in gc.callbacks) == 1


class _Node:
    """A container the collector tracks, that can be part of a cycle."""

    def __init__(self) -> None:
        self.other: Any = None


def _policy() -> run.YoungFrozen:
    gc.unfreeze()
    gc.set_threshold(10**8, 10, 10)  # only the collections a test asks for
    # One policy (an earlier test may have left tune_gc's: restored_gc puts it back after).
    gc.callbacks[:] = [cb for cb in gc.callbacks if not isinstance(cb, run.YoungFrozen)]
    policy = run.YoungFrozen()
    gc.callbacks.append(policy)
    return policy


@pytest.mark.usefixtures("restored_gc")
async def test_what_survives_a_collection_in_the_servers_loop_is_frozen() -> None:
    policy = _policy()
    kept = [_Node() for _ in range(100)]
    gc.collect(0)
    frozen = gc.get_freeze_count()
    assert frozen >= 100
    young = {id(o) for g in range(3) for o in gc.get_objects(g)}
    assert not any(id(node) in young for node in kept)  # no generation scans them again
    assert policy.full == 0


@pytest.mark.usefixtures("restored_gc")
async def test_a_young_collection_in_the_servers_loop_scans_nothing() -> None:
    """The young generation is frozen as its collection starts: a cycle dropped since the
    last collection is not freed by it (nor looked at), but by the next full one."""
    import asyncio
    import weakref

    policy = _policy()
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    found: list[int] = []
    gc.callbacks.append(
        lambda phase, info: found.append(info["collected"]) if phase == "stop" else None
    )
    gc.collect(0)
    assert found == [0] and gone() is not None
    policy.since = run.GC_FULL_AFTER
    policy.base = 0
    policy.grown = run.GC_FULL_FLOOR + 1
    gc.collect(0)
    await asyncio.sleep(0)
    assert policy.full == 1 and gone() is None


@pytest.mark.usefixtures("restored_gc")
def test_without_a_running_loop_survivors_stay_where_cpython_puts_them() -> None:
    _policy()
    kept = [_Node() for _ in range(100)]
    gc.collect(0)
    assert gc.get_freeze_count() == 0
    assert any(o is kept[0] for o in gc.get_objects(1))  # promoted one generation, as usual


@pytest.mark.usefixtures("restored_gc")
async def test_cyclic_garbage_among_frozen_objects_is_freed_by_the_full_collection() -> None:
    import asyncio
    import weakref

    policy = _policy()
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    gc.collect(0)  # the cycle survives (still referenced) and is frozen
    del a, b
    gc.collect()  # a full collection skips what is frozen: the cycle stays
    assert gone() is not None
    # Enough collections and growth since the last full one: the loop runs it, once.
    policy.since = run.GC_FULL_AFTER
    policy.base = policy.grown = 0  # (that collection freed what earlier tests left)
    extra = [_Node() for _ in range(run.GC_FULL_FLOOR + 1)]
    gc.collect(0)
    assert policy.full == 0  # not inside the collection's callback
    await asyncio.sleep(0)
    assert policy.full == 1
    assert gone() is None
    assert policy.since == 0
    assert policy.base >= len(extra)  # what lives is frozen again
    gc.collect(0)
    await asyncio.sleep(0)
    assert policy.full == 1  # not again until it has grown and collected enough again


@pytest.mark.usefixtures("restored_gc")
async def test_no_full_collection_before_enough_collections_since_the_last() -> None:
    import asyncio

    policy = _policy()
    policy.base = 0
    extra = [_Node() for _ in range(run.GC_FULL_FLOOR + 1)]
    for _ in range(3):
        gc.collect(0)
        await asyncio.sleep(0)
    assert policy.full == 0 and policy.since == 3
    assert gc.get_freeze_count() > len(extra)


@pytest.mark.usefixtures("restored_gc")
async def test_young_collections_do_not_count_the_frozen_objects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``gc.get_freeze_count()`` walks every frozen object: asked at each young collection
    once ``since`` passed GC_FULL_AFTER, it made each of them cost tens of milliseconds on a
    server holding millions of objects. The growth is counted from the collections."""
    import asyncio

    policy = _policy()
    policy.since = run.GC_FULL_AFTER
    policy.base = 10**9  # a heap so big that nothing below grows it by a quarter
    walks: list[int] = []
    count = gc.get_freeze_count

    def counted() -> int:
        walks.append(1)
        return count()

    monkeypatch.setattr(gc, "get_freeze_count", counted)
    gc.collect(0)  # what this process made before the test is counted: start after it
    policy.grown = 0
    kept = []
    for _ in range(5):
        kept.append([_Node() for _ in range(1000)])
        gc.collect(0)
        await asyncio.sleep(0)
    assert walks == [] and policy.full == 0
    assert 5000 <= policy.grown < 5000 + 2000  # what those collections left behind, net
    # Objects freed while the young count is above zero count against the growth.
    fresh = [_Node() for _ in range(3000)]
    del kept[:2]
    before = policy.grown
    gc.collect(0)
    assert before + 3000 - 2000 - 200 <= policy.grown <= before + 3000 - 2000 + 200
    assert walks == [] and len(fresh) == 3000


@pytest.mark.usefixtures("restored_gc")
def test_serve_tunes_the_collector_before_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(
        uvicorn.Server, "run", lambda self, sockets=None: seen.append(gc.get_threshold())
    )
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    monkeypatch.setattr(root, "handlers", handlers[:])  # serve() configures logging
    monkeypatch.setattr(root, "level", level)
    gc.set_threshold(700, 10, 10)
    run.serve(Settings(redis_url="redis://127.0.0.1:1/0"), port=0, log_level="warning")
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
