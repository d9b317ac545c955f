"""Snapshots of folded state: a cache derived from the log, checked against it on load."""

from __future__ import annotations

import asyncio
import pickle
import uuid
from typing import Any

import attrs
import orjson
import pytest

from domain import GameType, Rng, default_registry
from server import games as games_module
from server.games import GameRecord, GameService
from server.snapshots import Snapshot, UuidChain, dumps_state, fingerprint, loads_state
from server.store.base import NewEvent
from server.store.redis import RedisStore

pytestmark = pytest.mark.redis


@attrs.define
class CountingFold:
    """A game whose evolve calls are counted: did the load fold, and how much?"""

    inner: Any
    evolved: int = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def evolve(self, state: Any, event: Any) -> Any:
        self.evolved += 1
        return self.inner.evolve(state, event)


def registry_with(counting: CountingFold, name: str) -> dict[str, GameType]:
    base = default_registry()[name]
    return {name: GameType(counting, base.bots)}  # type: ignore[arg-type]


async def play(service: GameService, name: str, options: dict[str, Any], seed: int = 1) -> Any:
    rec = await service.create(name, options, f"snap-{seed}")
    for seat in range(len(rec.seats)):
        await service.take_seat(rec, seat, f"p{seat}")
    rng = Rng(seed)
    while not rec.terminal:
        seat = min(rec.game.to_act(rec.state))
        command = rng.choice(list(rec.game.legal_commands(rec.state, seat)))
        await service.command(rec, seat, uuid.uuid4().hex, rec.codec.encode_command(command))
    await settle(service)
    return rec


async def settle(service: GameService) -> None:
    """Let the background snapshot writes finish."""
    while service._snapshot_tasks:
        await asyncio.gather(*service._snapshot_tasks)


def same_record(a: GameRecord, b: GameRecord) -> None:
    assert (a.version, a.state, a.seats, a.commands, a.uuids) == (
        b.version,
        b.state,
        b.seats,
        b.commands,
        b.uuids,
    )
    # (data as JSON: a node's own appends keep the tuples its codec produced)
    assert [(e.version, e.type, orjson.dumps(e.data), e.event) for e in a.log] == [
        (e.version, e.type, orjson.dumps(e.data), e.event) for e in b.log
    ]
    assert a.chain.digest() == b.chain.digest()


async def test_a_loaded_game_folds_only_what_follows_its_snapshot(redis_store: RedisStore) -> None:
    counting = CountingFold(default_registry()["road-to-enlightenment"].game)
    registry = registry_with(counting, "road-to-enlightenment")
    rec = await play(GameService(redis_store, registry), "road-to-enlightenment", {"players": 2})
    assert rec.version > games_module.SNAPSHOT_EVERY
    snap = Snapshot.from_fields(await redis_store.get_snapshot(rec.id) or {})
    assert snap is not None and snap.version == rec.version  # written at the end
    counting.evolved = 0
    loaded = await GameService(redis_store, registry).load(rec.id)
    assert counting.evolved == 0  # nothing folded: the snapshot is the last version
    same_record(loaded, rec)

    # more events after the snapshot: only those are folded
    events = [NewEvent("cloister.Chat", {"seat": 0, "text": "gg"}, uuid.uuid4().hex)]
    await redis_store.append(rec.id, rec.version, "chat-after", events)
    again = await GameService(redis_store, registry).load(rec.id)
    assert again.version == rec.version + 1 and again.state == rec.state


async def test_snapshots_are_written_every_so_many_events(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games_module, "SNAPSHOT_EVERY", 5)
    service = GameService(redis_store, default_registry())
    rec = await service.create("high-card", {"players": 2}, "every")
    for seat in (0, 1):
        await service.take_seat(rec, seat, f"p{seat}")
    seen = []
    rng = Rng(3)
    while not rec.terminal:
        seat = min(rec.game.to_act(rec.state))
        command = rng.choice(list(rec.game.legal_commands(rec.state, seat)))
        await service.command(rec, seat, uuid.uuid4().hex, rec.codec.encode_command(command))
        await settle(service)
        snap = Snapshot.from_fields(await redis_store.get_snapshot(rec.id) or {})
        assert snap is not None
        seen.append(snap.version)
        assert rec.version - snap.version < 5 or rec.terminal
        # each one is the fold of its prefix of the log
        assert loads_state(snap.state) == rec.state_at(snap.version)
    assert seen[-1] == rec.version and len(set(seen)) > 2


async def rewrite(store: RedisStore, rec: GameRecord, fields: dict[str, Any]) -> None:
    snap = Snapshot.from_fields(await store.get_snapshot(rec.id) or {})
    assert snap is not None
    await store.put_snapshot(rec.id, attrs.evolve(snap, **fields).to_fields())


@pytest.mark.parametrize(
    "damage",
    [
        {"prefix": UuidChain(["another", "history"]).digest()},  # the log was rewritten
        {"fold": "0" * 32},  # another version of the rules folded it
        {"version": 10_000},  # past the head
        {"state": b"not a pickle"},
        {"state": pickle.dumps(print)},  # names a callable outside the domain
        {"state": dumps_state({"not": "a state"}) + b"junk"},
    ],
)
async def test_a_snapshot_that_does_not_fit_its_log_is_ignored_and_replaced(
    redis_store: RedisStore, damage: dict[str, Any]
) -> None:
    counting = CountingFold(default_registry()["high-card"].game)
    registry = registry_with(counting, "high-card")
    rec = await play(GameService(redis_store, registry), "high-card", {"players": 2})
    await rewrite(redis_store, rec, damage)
    counting.evolved = 0
    service = GameService(redis_store, registry)
    loaded = await service.load(rec.id)
    assert counting.evolved > 0  # folded from the log, the truth
    same_record(loaded, rec)
    await settle(service)
    replaced = Snapshot.from_fields(await redis_store.get_snapshot(rec.id) or {})
    assert replaced is not None and replaced.version == rec.version
    assert replaced.fold == fingerprint(type(rec.game).__module__)
    assert loads_state(replaced.state) == rec.state


def test_only_domain_values_can_be_read_back() -> None:
    with pytest.raises(pickle.UnpicklingError):
        loads_state(pickle.dumps(print))
    with pytest.raises(pickle.UnpicklingError):
        loads_state(pickle.dumps(uuid.UUID(int=1)))
    state = default_registry()["illumination"].game.initial_state({"mode": "duel"})
    assert loads_state(dumps_state(state)) == state


async def test_listeners_hear_of_a_game_whose_snapshot_covers_all_of_it(
    redis_store: RedisStore,
) -> None:
    rec = await play(GameService(redis_store, default_registry()), "high-card", {"players": 2})
    service = GameService(redis_store, default_registry())
    heard: list[int] = []
    service.listeners.append(lambda r, entries, cid: heard.append(r.version))
    await service.load(rec.id)
    assert heard == [rec.version]


def test_the_uuid_chain_is_the_same_built_at_once_or_one_by_one() -> None:
    one = UuidChain()
    for u in ("a", "b", "c"):
        one.add(u)
    assert one.digest() == UuidChain(["a", "b", "c"]).digest() != UuidChain(["a", "c"]).digest()
    # Asked between additions too (a snapshot mid-game): the ids are hashed as they came.
    for u in ("d", "e"):
        one.add(u)
        assert one.digest() == UuidChain(["a", "b", "c", "d", "e"][: one.version]).digest()
    assert one.version == 5


def test_seat_events_are_found_in_log_order() -> None:
    # A restore replays the log's seat events (taken, handed to a bot, retaken) in order.
    from server.games import _positions

    types = ("a", "s", "h", "a", "s", "r", "h", "a")
    assert _positions(types, ("s", "h", "r")) == [1, 2, 4, 5, 6]
    assert _positions(types, ("z",)) == [] and _positions((), ("s",)) == []
